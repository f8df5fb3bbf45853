/* ferry info/dump/validate/convert for ALM files (ALOD progressive meshes). */
#include "formats.h"

#include <ferry/alm.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Text dumps show this many entries of a long array, then a count. */
#define TEXT_ITEMS 8

void *cli_alm_read(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_alm_mesh *m;
    return ferry_alm_read(data, size, NULL, &m, err) == FERRY_OK ? m : NULL;
}

ferry_result cli_alm_write(const void *model, ferry_buffer *out, ferry_error *err)
{
    return ferry_alm_write(model, out, err);
}

void cli_alm_free(void *model) { ferry_alm_free(model); }

static ferry_alm_mesh *load(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    return cli_format_read(cli_format_for(FERRY_FORMAT_ALM), file, data, size, report);
}

/* JSON has no NaN or infinity: those become strings. */
static json_t *real_json(double x)
{
    if (isnan(x)) return json_string("nan");
    if (isinf(x)) return json_string(x > 0 ? "inf" : "-inf");
    return json_real(x);
}

static json_t *reals_json(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, real_json(x[i]));
    return a;
}

/* A vector as [[bone, x, y, z, w], ...]. */
static json_t *vector_json(const ferry_alm_vector *v)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < v->count; i++) {
        json_t *c = json_array();
        json_array_append_new(c, json_integer(v->components[i].bone));
        for (int k = 0; k < 4; k++) json_array_append_new(c, real_json(v->components[i].coords[k]));
        json_array_append_new(a, c);
    }
    return a;
}

static void print_vector(const ferry_alm_vector *v)
{
    if (!v->count) {
        printf("(none)");
        return;
    }
    for (uint32_t i = 0; i < v->count; i++)
        printf("%sbone %u (%g, %g, %g, %g)", i ? ", " : "", (unsigned)v->components[i].bone, v->components[i].coords[0],
               v->components[i].coords[1], v->components[i].coords[2], v->components[i].coords[3]);
}

static void print_matrix(const char *indent, const double *m)
{
    for (int r = 0; r < 4; r++) printf("%s[%g %g %g %g]\n", indent, m[4 * r], m[4 * r + 1], m[4 * r + 2], m[4 * r + 3]);
}

/* Prints "... N more" after TEXT_ITEMS entries; returns false to stop. */
static bool text_more(uint64_t i, uint64_t count, const char *what)
{
    if (i < TEXT_ITEMS) return true;
    printf("  ... %llu more %s (ferry dump --json lists them all)\n", (unsigned long long)(count - i), what);
    return false;
}

static uint32_t edge_collapses(const ferry_alm_mesh *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->collapse_count; i++) n += m->collapses[i].kind == FERRY_ALM_EDGE_COLLAPSE;
    return n;
}

static json_t *hex_json(const uint8_t *p, size_t n);


/* ---- info ---- */

int cli_alm_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_alm_mesh *m = load(file, data, size, report);
    if (!m) return CLI_INVALID;
    uint32_t roots = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) roots += m->bones[i].parent == -1;
    uint32_t edges = edge_collapses(m);
    uint32_t *counts = malloc(((size_t)m->collapse_count + 1) * sizeof *counts);
    ferry_error err;
    bool have_counts = counts && ferry_alm_lod_triangle_counts(m, counts, &err) == FERRY_OK;
    static const int percent[] = {0, 25, 50, 75, 100};
    if (report) {
        json_t *j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string("ALM"));
        json_object_set_new(j, "version", json_integer(m->version));
        json_object_set_new(j, "size", json_integer((json_int_t)size));
        json_t *comments = json_array();
        json_object_set_new(j, "comments", comments);
        for (uint32_t i = 0; i < m->comment_count; i++)
            cli_json_append_textn(j, "comments", comments, m->comments[i], m->comment_lengths[i]);
        json_object_set_new(j, "bones", json_integer(m->bone_count));
        json_object_set_new(j, "root_bones", json_integer(roots));
        json_object_set_new(j, "frames", json_integer(m->frame_count));
        json_object_set_new(j, "frame_rate", m->version >= 6 ? real_json(m->frame_rate) : json_null());
        json_object_set_new(j, "override_p", json_boolean(m->version >= 6 && m->override_p));
        json_object_set_new(j, "positions", json_integer(m->position_count));
        json_object_set_new(j, "vertices", json_integer(m->vertex_count));
        json_object_set_new(j, "textures", json_integer(m->texture_count));
        json_object_set_new(j, "tangent_maps", json_integer(m->tangent_map_count));
        json_object_set_new(j, "materials", json_integer(m->material_count));
        json_object_set_new(j, "triangles", json_integer(m->triangle_count));
        json_object_set_new(j, "collapses", json_integer(m->collapse_count));
        json_object_set_new(j, "edge_collapses", json_integer(edges));
        json_object_set_new(j, "influence_collapses", json_integer(m->collapse_count - edges));
        json_t *lods = json_array();
        for (size_t i = 0; have_counts && i < sizeof percent / sizeof percent[0]; i++) {
            uint32_t k = (uint32_t)((uint64_t)m->collapse_count * (uint64_t)percent[i] / 100);
            if (i && k == (uint32_t)((uint64_t)m->collapse_count * (uint64_t)percent[i - 1] / 100)) continue;
            json_t *l = json_object();
            json_object_set_new(l, "collapses", json_integer(k));
            json_object_set_new(l, "triangles", json_integer(counts[k]));
            json_object_set_new(l, "error", k ? real_json(m->collapses[k - 1].error) : json_real(0));
            json_array_append_new(lods, l);
        }
        json_object_set_new(j, "lods", lods);
        json_array_append_new(report, j);
    } else {
        printf("%s: ALM version %u, %zu bytes\n", CLI_TXT(file), (unsigned)m->version, size);
        for (uint32_t i = 0; i < m->comment_count; i++)
        {
            fputs("  comment: ", stdout);
            cli_fput_textn(stdout, m->comments[i], m->comment_lengths[i]);
            fputc('\n', stdout);
        }
        printf("  bones: %u (%u root%s)", (unsigned)m->bone_count, (unsigned)roots, roots == 1 ? "" : "s");
        if (m->version >= 4) printf(", frames: %u", (unsigned)m->frame_count);
        if (m->version >= 6) printf(" at %g per second", m->frame_rate);
        printf("\n");
        if (m->version >= 6) printf("  P matrix: %s\n", m->override_p ? "given in the file" : "not given");
        printf("  positions: %u, vertices: %u, triangles: %u\n", (unsigned)m->position_count, (unsigned)m->vertex_count,
               (unsigned)m->triangle_count);
        printf("  materials: %u, textures: %u", (unsigned)m->material_count, (unsigned)m->texture_count);
        if (m->version >= 8) printf(", tangent maps: %u", (unsigned)m->tangent_map_count);
        printf("\n  collapses: %u (%u edge, %u influence)\n", (unsigned)m->collapse_count, (unsigned)edges,
               (unsigned)(m->collapse_count - edges));
        if (have_counts) {
            printf("  levels of detail:\n");
            for (size_t i = 0; i < sizeof percent / sizeof percent[0]; i++) {
                uint32_t k = (uint32_t)((uint64_t)m->collapse_count * (uint64_t)percent[i] / 100);
                if (i && k == (uint32_t)((uint64_t)m->collapse_count * (uint64_t)percent[i - 1] / 100)) continue;
                printf("    --lod %-8u %8u triangles, error %g\n", (unsigned)k, (unsigned)counts[k],
                       k ? m->collapses[k - 1].error : 0.0);
            }
        }
        if (m->trailing_size) printf("  %zu bytes after the last frame\n", m->trailing_size);
    }
    free(counts);
    ferry_alm_free(m);
    return CLI_OK;
}

/* ---- dump ---- */

static json_t *bone_json(const ferry_alm_mesh *m, const ferry_alm_bone *b)
{
    json_t *j = json_object();
    json_object_set_new(j, "parent", json_integer(b->parent));
    json_object_set_new(j, "transform", reals_json(b->transform, 16));
    if (m->version >= 6) {
        json_object_set_new(j, "flags", json_integer(b->flags));
        json_object_set_new(j, "max_singular", real_json(b->max_singular));
        json_object_set_new(j, "translate_centre", reals_json(b->translate_centre, 3));
        json_object_set_new(j, "translate_radius", real_json(b->translate_radius));
        json_object_set_new(j, "expect_L", reals_json(b->expect_L, 16));
        json_object_set_new(j, "expect_GTG", reals_json(b->expect_GTG, 16));
        json_object_set_new(j, "expect_LTGTGL", real_json(b->expect_LTGTGL));
    }
    if (m->version >= 10) json_object_set_new(j, "tail", reals_json(b->tail, 3));
    return j;
}

static json_t *collapse_json(const ferry_alm_collapse *c)
{
    json_t *j = json_object();
    if (c->kind == FERRY_ALM_INFLUENCE_COLLAPSE) {
        json_object_set_new(j, "kind", json_string("influence"));
        json_t *pairs = json_array();
        for (uint32_t i = 0; i < c->pair_count; i++) {
            json_t *p = json_array();
            json_array_append_new(p, json_integer(c->pairs[2 * i]));
            json_array_append_new(p, json_integer(c->pairs[2 * i + 1]));
            json_array_append_new(pairs, p);
        }
        json_object_set_new(j, "pairs", pairs);
    } else {
        json_object_set_new(j, "kind", json_string("edge"));
        json_object_set_new(j, "p1", json_integer(c->p1));
        json_object_set_new(j, "p2", json_integer(c->p2));
        json_object_set_new(j, "vl", json_integer(c->vl));
        json_object_set_new(j, "vr", json_integer(c->vr));
    }
    json_object_set_new(j, "error", real_json(c->error));
    return j;
}

static json_t *hex_json(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *s = malloc(2 * n + 1);
    if (!s) return json_null();
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    s[2 * n] = 0;
    json_t *j = json_string(s);
    free(s);
    return j;
}

static void dump_json(const char *file, const ferry_alm_mesh *m, size_t size)
{
    json_t *root = json_object();
    cli_json_set_text(root, "file", file);
    json_object_set_new(root, "format", json_string("ALM"));
    json_object_set_new(root, "size", json_integer((json_int_t)size));
    json_object_set_new(root, "version", json_integer(m->version));
    json_object_set_new(root, "float_size", json_integer(ferry_alm_float_size(m->version)));
    if (m->version >= 6) {
        json_object_set_new(root, "frame_rate", real_json(m->frame_rate));
        json_object_set_new(root, "override_p", json_integer(m->override_p));
    }
    json_t *a = json_array();
    json_object_set_new(root, "comments", a);
    for (uint32_t i = 0; i < m->comment_count; i++)
        cli_json_append_textn(root, "comments", a, m->comments[i], m->comment_lengths[i]);
    a = json_array();
    for (uint32_t i = 0; i < m->bone_count; i++) json_array_append_new(a, bone_json(m, &m->bones[i]));
    json_object_set_new(root, "bones", a);
    if (m->p_matrix) json_object_set_new(root, "P", reals_json(m->p_matrix, (size_t)16 * m->bone_count * m->bone_count));
    a = json_array();
    for (uint32_t i = 0; i < m->position_count; i++) json_array_append_new(a, vector_json(&m->positions[i]));
    json_object_set_new(root, "positions", a);
    a = json_array();
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const ferry_alm_vertex *v = &m->vertices[i];
        json_t *j = json_object();
        json_object_set_new(j, "position", json_integer(v->position));
        if (m->version >= 7) {
            json_t *t = json_array();
            json_array_append_new(t, vector_json(&v->tangents[0]));
            json_array_append_new(t, vector_json(&v->tangents[1]));
            json_object_set_new(j, "tangents", t);
        }
        json_object_set_new(j, "tex_coords", reals_json(v->tex_coords, 2));
        json_array_append_new(a, j);
    }
    json_object_set_new(root, "vertices", a);
    a = json_array();
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const ferry_alm_texture *t = &m->textures[i];
        json_t *j = json_object();
        json_object_set_new(j, "width", json_integer(t->width));
        json_object_set_new(j, "height", json_integer(t->height));
        json_object_set_new(j, "channels", json_integer(t->channels));
        json_object_set_new(j, "signed", json_integer(t->is_signed));
        json_object_set_new(j, "values", hex_json(t->values, (size_t)t->width * t->height * t->channels));
        json_array_append_new(a, j);
    }
    json_object_set_new(root, "textures", a);
    if (m->version >= 8) {
        a = json_array();
        for (uint32_t i = 0; i < m->tangent_map_count; i++) {
            const ferry_alm_tangent_map *t = &m->tangent_maps[i];
            json_t *j = json_object(), *entries = json_array();
            json_object_set_new(j, "width", json_integer(t->width));
            json_object_set_new(j, "height", json_integer(t->height));
            for (uint64_t e = 0; e < (uint64_t)t->width * t->height; e++) {
                json_t *x = json_object(), *tan = json_array();
                json_object_set_new(x, "patch", json_integer(t->entries[e].patch));
                json_array_append_new(tan, vector_json(&t->entries[e].tangents[0]));
                json_array_append_new(tan, vector_json(&t->entries[e].tangents[1]));
                json_object_set_new(x, "tangents", tan);
                json_array_append_new(entries, x);
            }
            json_object_set_new(j, "entries", entries);
            json_array_append_new(a, j);
        }
        json_object_set_new(root, "tangent_maps", a);
    }
    a = json_array();
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ferry_alm_material *mat = &m->materials[i];
        json_t *j = json_object();
        json_object_set_new(j, "texture_id", json_integer(mat->texture_id));
        if (m->version >= 8) {
            json_object_set_new(j, "tangent_id", json_integer(mat->tangent_id));
        } else {
            json_t *bones = json_array(), *ids = json_array();
            for (uint32_t k = 0; k < mat->weight_count; k++) {
                json_array_append_new(bones, json_integer(mat->bones[k]));
                json_array_append_new(ids, json_integer(mat->tangent_ids[k]));
            }
            json_object_set_new(j, "bones", bones);
            json_object_set_new(j, "tangent_ids", ids);
        }
        json_array_append_new(a, j);
    }
    json_object_set_new(root, "materials", a);
    a = json_array();
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        const ferry_alm_triangle *t = &m->triangles[i];
        json_t *x = json_array();
        for (int k = 0; k < 3; k++) json_array_append_new(x, json_integer(t->vertices[k]));
        json_array_append_new(x, json_integer(t->material));
        json_array_append_new(a, x);
    }
    json_object_set_new(root, "triangles", a);
    a = json_array();
    for (uint32_t i = 0; i < m->collapse_count; i++) json_array_append_new(a, collapse_json(&m->collapses[i]));
    json_object_set_new(root, "collapses", a);
    if (m->version >= 4) {
        a = json_array();
        for (uint64_t f = 0; f < m->frame_count && m->bone_count; f++) {
            json_t *frame = json_array();
            for (uint32_t b = 0; b < m->bone_count; b++)
                json_array_append_new(frame, reals_json(m->frames + (f * m->bone_count + b) * 16, 16));
            json_array_append_new(a, frame);
        }
        json_object_set_new(root, "frames", a);
    }
    if (m->trailing_size) json_object_set_new(root, "trailing", hex_json(m->trailing, m->trailing_size));
    cli_print_json(root);
    json_decref(root);
}

static void dump_text(const char *file, const ferry_alm_mesh *m, size_t size)
{
    printf("%s: ALM version %u, %zu bytes, %u-byte floats\n", CLI_TXT(file), (unsigned)m->version, size,
           (unsigned)ferry_alm_float_size(m->version));
    if (m->version >= 6) printf("frame rate %g, override_P %u\n", m->frame_rate, (unsigned)m->override_p);
    printf("comments: %u\n", (unsigned)m->comment_count);
    for (uint32_t i = 0; i < m->comment_count && text_more(i, m->comment_count, "comments"); i++)
    {
        printf("  [%u] \"", (unsigned)i);
        cli_fput_textn(stdout, m->comments[i], m->comment_lengths[i]);
        printf("\"\n");
    }
    printf("bones: %u\n", (unsigned)m->bone_count);
    for (uint32_t i = 0; i < m->bone_count && text_more(i, m->bone_count, "bones"); i++) {
        const ferry_alm_bone *b = &m->bones[i];
        printf("  [%u] parent %d", (unsigned)i, (int)b->parent);
        if (m->version >= 6)
            printf(", flags 0x%x, max singular %g, sphere (%g, %g, %g) r %g, expect_LTGTGL %g", (unsigned)b->flags,
                   b->max_singular, b->translate_centre[0], b->translate_centre[1], b->translate_centre[2],
                   b->translate_radius, b->expect_LTGTGL);
        if (m->version >= 10) printf(", tail (%g, %g, %g)", b->tail[0], b->tail[1], b->tail[2]);
        printf("\n");
        print_matrix("      ", b->transform);
    }
    if (m->p_matrix) printf("P: %ux%u given\n", (unsigned)(4 * m->bone_count), (unsigned)(4 * m->bone_count));
    printf("positions: %u\n", (unsigned)m->position_count);
    for (uint32_t i = 0; i < m->position_count && text_more(i, m->position_count, "positions"); i++) {
        printf("  [%u] ", (unsigned)i);
        print_vector(&m->positions[i]);
        printf("\n");
    }
    printf("vertices: %u\n", (unsigned)m->vertex_count);
    for (uint32_t i = 0; i < m->vertex_count && text_more(i, m->vertex_count, "vertices"); i++) {
        const ferry_alm_vertex *v = &m->vertices[i];
        printf("  [%u] position %u, st (%g, %g)", (unsigned)i, (unsigned)v->position, v->tex_coords[0], v->tex_coords[1]);
        if (m->version >= 7) {
            printf(", tangents: ");
            print_vector(&v->tangents[0]);
            printf(" / ");
            print_vector(&v->tangents[1]);
        }
        printf("\n");
    }
    printf("textures: %u\n", (unsigned)m->texture_count);
    for (uint32_t i = 0; i < m->texture_count && text_more(i, m->texture_count, "textures"); i++)
        printf("  [%u] %ux%u, %u channels, %s\n", (unsigned)i, (unsigned)m->textures[i].width,
               (unsigned)m->textures[i].height, (unsigned)m->textures[i].channels,
               m->textures[i].is_signed ? "signed (vectors)" : "unsigned (colours)");
    if (m->version >= 8) {
        printf("tangent maps: %u\n", (unsigned)m->tangent_map_count);
        for (uint32_t i = 0; i < m->tangent_map_count && text_more(i, m->tangent_map_count, "tangent maps"); i++)
            printf("  [%u] %ux%u\n", (unsigned)i, (unsigned)m->tangent_maps[i].width, (unsigned)m->tangent_maps[i].height);
    }
    printf("materials: %u\n", (unsigned)m->material_count);
    for (uint32_t i = 0; i < m->material_count && text_more(i, m->material_count, "materials"); i++) {
        const ferry_alm_material *mat = &m->materials[i];
        printf("  [%u] texture %d", (unsigned)i, (int)mat->texture_id);
        if (m->version >= 8) {
            printf(", tangent map %d\n", (int)mat->tangent_id);
        } else {
            printf(", %u tangent textures:", (unsigned)mat->weight_count);
            for (uint32_t k = 0; k < mat->weight_count; k++)
                printf(" bone %u -> texture %u", (unsigned)mat->bones[k], (unsigned)mat->tangent_ids[k]);
            printf("\n");
        }
    }
    printf("triangles: %u\n", (unsigned)m->triangle_count);
    for (uint32_t i = 0; i < m->triangle_count && text_more(i, m->triangle_count, "triangles"); i++)
        printf("  [%u] %u %u %u, material %u\n", (unsigned)i, (unsigned)m->triangles[i].vertices[0],
               (unsigned)m->triangles[i].vertices[1], (unsigned)m->triangles[i].vertices[2],
               (unsigned)m->triangles[i].material);
    printf("collapses: %u\n", (unsigned)m->collapse_count);
    for (uint32_t i = 0; i < m->collapse_count && text_more(i, m->collapse_count, "collapses"); i++) {
        const ferry_alm_collapse *c = &m->collapses[i];
        if (c->kind == FERRY_ALM_INFLUENCE_COLLAPSE) {
            printf("  [%u] influence, %u pairs:", (unsigned)i, (unsigned)c->pair_count);
            for (uint32_t k = 0; k < c->pair_count && k < TEXT_ITEMS; k++)
                printf(" %u->%u", (unsigned)c->pairs[2 * k], (unsigned)c->pairs[2 * k + 1]);
            printf("%s, error %g\n", c->pair_count > TEXT_ITEMS ? " ..." : "", c->error);
        } else {
            printf("  [%u] edge p1 %u p2 %u -> vl %u vr %u, error %g\n", (unsigned)i, (unsigned)c->p1, (unsigned)c->p2,
                   (unsigned)c->vl, (unsigned)c->vr, c->error);
        }
    }
    if (m->version >= 4) {
        printf("frames: %u\n", (unsigned)m->frame_count);
        for (uint64_t f = 0; f < m->frame_count && m->bone_count && text_more(f, m->frame_count, "frames"); f++) {
            printf("  [%llu]\n", (unsigned long long)f);
            for (uint32_t b = 0; b < m->bone_count && b < 2; b++) {
                printf("    bone %u\n", (unsigned)b);
                print_matrix("      ", m->frames + (f * m->bone_count + b) * 16);
            }
            if (m->bone_count > 2) printf("    ... %u more bones\n", (unsigned)(m->bone_count - 2));
        }
    }
    if (m->trailing_size) printf("trailing bytes: %zu\n", m->trailing_size);
}

int cli_alm_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_alm_mesh *m = load(file, data, size, NULL);
    if (!m) return CLI_INVALID;
    if (json)
        dump_json(file, m, size);
    else
        dump_text(file, m, size);
    ferry_alm_free(m);
    return CLI_OK;
}

/* ---- validate ---- */

size_t cli_alm_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                      json_t *report)
{
    (void)options;
    ferry_alm_mesh *m = load(file, data, size, report);
    if (!m) return 1;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_alm_validate(m, NULL, &d);
    cli_report_diags(file, "ALM", &d, report);
    size_t errors = d.error_count;
    ferry_diagnostics_free(&d);
    ferry_alm_free(m);
    return errors;
}

/* ---- convert ---- */

static bool is_gltf(const char *path) { return cli_has_ext(path, ".glb") || cli_has_ext(path, ".gltf"); }

int cli_alm_convert(int argc, char **argv, ferry_format source)
{
    const char *in = NULL, *out = NULL;
    ferry_alm_lod_options lod = {-1, 0, -1.0};
    int chosen = 0;
    const char *anim = NULL;
    bool allow_invalid = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--allow-invalid") == 0) {
            allow_invalid = true;
        } else if (strcmp(a, "--anim") == 0) {
            if (i + 1 >= argc) return cli_usage_error("convert", "--anim needs an .ala file or 'auto'");
            if (anim) return cli_usage_error("convert", "an ALM file holds one animation: give --anim once");
            anim = argv[++i];
        } else if (strcmp(a, "--lod") == 0 || strcmp(a, "--triangles") == 0 || strcmp(a, "--error") == 0) {
            if (i + 1 >= argc) return cli_usage_error("convert", "%s needs a value", a);
            const char *v = argv[++i];
            char *end;
            if (a[2] == 'e') {
                double e = strtod(v, &end);
                if (*end || end == v || !(e >= 0) || isinf(e))
                    return cli_usage_error("convert", "--error takes a number of 0 or more, not '%s'", v);
                lod.max_error = e;
            } else {
                long long n = strtoll(v, &end, 10);
                bool triangles = a[2] == 't';
                if (*end || end == v || n < (triangles ? 1 : 0) || n > UINT32_MAX)
                    return cli_usage_error("convert", "%s takes a whole number of %s, not '%s'", a,
                                           triangles ? "1 or more" : "0 or more", v);
                if (triangles)
                    lod.max_triangles = (uint32_t)n;
                else
                    lod.collapses = n;
            }
            chosen++;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("convert", "option '%s' does not apply to ALM conversions", a);
        } else if (!cli_take_file(a, &in, &out)) {
            return CLI_USAGE;
        }
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT");
    if (chosen > 1) return cli_usage_error("convert", "choose one of --lod, --triangles and --error");
    /* The input by content (cmd_convert.c's route), the output by its name. */
    bool in_alm = source == FERRY_FORMAT_ALM;
    bool in_alo = source == FERRY_FORMAT_ALO_MODEL || source == FERRY_FORMAT_ALO_PARTICLE ||
                  source == FERRY_FORMAT_ALO_PARTICLE_UAW;
    bool in_gltf = source == FERRY_FORMAT_GLB || source == FERRY_FORMAT_GLTF;
    const cli_format *alm = cli_format_for(FERRY_FORMAT_ALM);
    cli_convert_options o = {0};
    o.source = source;
    o.allow_invalid = allow_invalid;
    o.alm_lod = chosen ? &lod : NULL;
    o.anim = anim;
    if (anim && !(in_alo && cli_has_ext(out, ".alm")))
        return cli_usage_error("convert", "--anim applies to building an .alm from an .alo model");
    if (in_alm && cli_has_ext(out, ".alm")) {
        if (chosen) return cli_usage_error("convert", "--lod, --triangles and --error apply to .glb/.gltf outputs");
        return alm->rewrite(in, out, &o);
    }
    if (in_alm && is_gltf(out)) return alm->export(in, out, &o);
    if (cli_has_ext(out, ".alm") && (in_alo || in_gltf)) {
        if (chosen) return cli_usage_error("convert", "--lod, --triangles and --error apply to reading ALM files");
        return alm->build(in, out, &o);
    }
    if (in_alm)
        return cli_usage_error("convert", "cannot write '%s' from an ALM file: supported outputs are .alm, .glb, .gltf", out);
    return cli_usage_error("convert", "cannot make an ALM file from '%s': supported inputs are .alo, .glb, .gltf", in);
}

const char cli_alm_convert_help[] =
    "\n"
    "ALM progressive meshes (ALOD):\n"
    "  IN.alm -> OUT.alm   rewrite (byte-identical)\n"
    "  IN.alm -> OUT.glb   the mesh at a level of detail: skeleton and skin (or\n"
    "            OUT.gltf  morph targets where animation space needs them),\n"
    "                      frames as an animation, textures as PNG images\n"
    "  IN.alo -> OUT.alm   a progressive mesh built by quadric-error edge\n"
    "  IN.glb    OUT.alm   collapses, with the skeleton, skin weights and one\n"
    "                      animation as frames (a glTF's first one)\n"
    "  --anim FILE|auto    with an .alo input: the animation the ALM keeps\n"
    "                      (auto: the first MODEL_*.ala beside the model)\n"
    "  --lod K             with an .alm input: apply the first K collapse records\n"
    "  --triangles N       ... apply records until at most N triangles remain\n"
    "  --error E           ... apply records while their error is at most E\n"
    "                      (ferry info lists triangle counts at a few levels)\n";
