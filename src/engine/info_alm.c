/* The ALM row (ALOD progressive meshes): read, write, validate, scenes,
 * and its info (`ferry info`, `ferry dump`). */
#include "engine_internal.h"

#include <ferry/alm.h>

#include <stdlib.h>
#include <string.h>

FY_DEFINE_READ(alm, ferry_alm_mesh, ferry_alm_read)
FY_DEFINE_FREE(alm, ferry_alm_free)
FY_DEFINE_WRITE(alm, ferry_alm_write)
FY_DEFINE_VALIDATE(alm, ferry_alm_validate)

FY_TO_SCENE(alm)
{
    (void)asset;
    ferry_alm_lod *lod = NULL;
    if (options && options->alm_lod && ferry_alm_lod_extract(object, options->alm_lod, &lod, err) != FERRY_OK)
        return err ? err->code : FERRY_ERR_ARGUMENT;
    ferry_alm_scene_options o = {0};
    if (options) {
        o.name = options->name;
        o.report = options->alm_report;
        o.diagnostics = options->diagnostics;
        o.png_effort = options->png_effort;
        o.skin_all_bones = options->skin_all_bones;
    }
    o.lod = lod;
    ferry_result r = ferry_alm_to_scene(object, &o, out, err);
    ferry_alm_lod_free(lod);
    return r;
}

FY_FROM_SCENE(alm)
{
    ferry_alm_mesh *m = NULL;
    ferry_result r = ferry_alm_from_scene(scene, options ? options->alm : NULL, &m, err);
    if (r == FERRY_OK) r = ferry_alm_write(m, out, err);
    ferry_alm_free(m);
    return r;
}

/* JSON has no NaN or infinity: ALM's reals that are not finite are
 * strings (fy_json_real_text). */
static json_t *reals_json(const fy_info *info, const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, fy_json_real_text(info, x[i]));
    return a;
}

/* A vector as [[bone, x, y, z, w], ...]. */
static json_t *vector_json(const fy_info *info, const ferry_alm_vector *v)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < v->count; i++) {
        json_t *c = json_array();
        json_array_append_new(c, json_integer(v->components[i].bone));
        for (int k = 0; k < 4; k++) json_array_append_new(c, fy_json_real_text(info, v->components[i].coords[k]));
        json_array_append_new(a, c);
    }
    return a;
}

static uint32_t edge_collapses(const ferry_alm_mesh *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->collapse_count; i++) n += m->collapses[i].kind == FERRY_ALM_EDGE_COLLAPSE;
    return n;
}

static json_t *mesh_summary(const fy_info *info, const ferry_alm_mesh *m)
{
    uint32_t roots = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) roots += m->bones[i].parent == -1;
    uint32_t edges = edge_collapses(m);
    uint32_t *counts = malloc(((size_t)m->collapse_count + 1) * sizeof *counts);
    ferry_error err;
    bool have_counts = counts && ferry_alm_lod_triangle_counts(m, counts, &err) == FERRY_OK;
    static const int percent[] = {0, 25, 50, 75, 100};
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("ALM"));
    json_object_set_new(j, "version", json_integer(m->version));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    json_t *comments = json_array();
    json_object_set_new(j, "comments", comments);
    for (uint32_t i = 0; i < m->comment_count; i++)
        fy_json_append_textn(j, "comments", comments, m->comments[i], m->comment_lengths[i]);
    json_object_set_new(j, "bones", json_integer(m->bone_count));
    json_object_set_new(j, "root_bones", json_integer(roots));
    json_object_set_new(j, "frames", json_integer(m->frame_count));
    json_object_set_new(j, "frame_rate", m->version >= 6 ? fy_json_real_text(info, m->frame_rate) : json_null());
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
        json_object_set_new(l, "error", k ? fy_json_real_text(info, m->collapses[k - 1].error) : json_real(0));
        json_array_append_new(lods, l);
    }
    json_object_set_new(j, "lods", lods);
    free(counts);
    return j;
}

static json_t *bone_json(const fy_info *info, const ferry_alm_mesh *m, const ferry_alm_bone *b)
{
    json_t *j = json_object();
    json_object_set_new(j, "parent", json_integer(b->parent));
    json_object_set_new(j, "transform", reals_json(info, b->transform, 16));
    if (m->version >= 6) {
        json_object_set_new(j, "flags", json_integer(b->flags));
        json_object_set_new(j, "max_singular", fy_json_real_text(info, b->max_singular));
        json_object_set_new(j, "translate_centre", reals_json(info, b->translate_centre, 3));
        json_object_set_new(j, "translate_radius", fy_json_real_text(info, b->translate_radius));
        json_object_set_new(j, "expect_L", reals_json(info, b->expect_L, 16));
        json_object_set_new(j, "expect_GTG", reals_json(info, b->expect_GTG, 16));
        json_object_set_new(j, "expect_LTGTGL", fy_json_real_text(info, b->expect_LTGTGL));
    }
    if (m->version >= 10) json_object_set_new(j, "tail", reals_json(info, b->tail, 3));
    return j;
}

static json_t *collapse_json(const fy_info *info, const ferry_alm_collapse *c)
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
    json_object_set_new(j, "error", fy_json_real_text(info, c->error));
    return j;
}


static json_t *mesh_json(const fy_info *info, const ferry_alm_mesh *m)
{
    json_t *root = json_object();
    fy_json_set_file(root, info);
    json_object_set_new(root, "format", json_string("ALM"));
    json_object_set_new(root, "size", json_integer((json_int_t)info->size));
    json_object_set_new(root, "version", json_integer(m->version));
    json_object_set_new(root, "float_size", json_integer(ferry_alm_float_size(m->version)));
    if (m->version >= 6) {
        json_object_set_new(root, "frame_rate", fy_json_real_text(info, m->frame_rate));
        json_object_set_new(root, "override_p", json_integer(m->override_p));
    }
    json_t *a = json_array();
    json_object_set_new(root, "comments", a);
    for (uint32_t i = 0; i < m->comment_count; i++)
        fy_json_append_textn(root, "comments", a, m->comments[i], m->comment_lengths[i]);
    a = json_array();
    for (uint32_t i = 0; i < m->bone_count; i++) json_array_append_new(a, bone_json(info, m, &m->bones[i]));
    json_object_set_new(root, "bones", a);
    if (m->p_matrix) json_object_set_new(root, "P", reals_json(info, m->p_matrix, (size_t)16 * m->bone_count * m->bone_count));
    a = json_array();
    for (uint32_t i = 0; i < m->position_count; i++) json_array_append_new(a, vector_json(info, &m->positions[i]));
    json_object_set_new(root, "positions", a);
    a = json_array();
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const ferry_alm_vertex *v = &m->vertices[i];
        json_t *j = json_object();
        json_object_set_new(j, "position", json_integer(v->position));
        if (m->version >= 7) {
            json_t *t = json_array();
            json_array_append_new(t, vector_json(info, &v->tangents[0]));
            json_array_append_new(t, vector_json(info, &v->tangents[1]));
            json_object_set_new(j, "tangents", t);
        }
        json_object_set_new(j, "tex_coords", reals_json(info, v->tex_coords, 2));
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
        json_object_set_new(j, "values", fy_json_hex(t->values, (size_t)t->width * t->height * t->channels));
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
                json_array_append_new(tan, vector_json(info, &t->entries[e].tangents[0]));
                json_array_append_new(tan, vector_json(info, &t->entries[e].tangents[1]));
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
    for (uint32_t i = 0; i < m->collapse_count; i++) json_array_append_new(a, collapse_json(info, &m->collapses[i]));
    json_object_set_new(root, "collapses", a);
    if (m->version >= 4) {
        a = json_array();
        for (uint64_t f = 0; f < m->frame_count && m->bone_count; f++) {
            json_t *frame = json_array();
            for (uint32_t b = 0; b < m->bone_count; b++)
                json_array_append_new(frame, reals_json(info, m->frames + (f * m->bone_count + b) * 16, 16));
            json_array_append_new(a, frame);
        }
        json_object_set_new(root, "frames", a);
    }
    if (m->trailing_size) json_object_set_new(root, "trailing", fy_json_hex(m->trailing, m->trailing_size));
    return root;
}

FY_INFO(alm)
{
    (void)err;
    return info->detail == FERRY_INFO_FULL ? mesh_json(info, object) : mesh_summary(info, object);
}

