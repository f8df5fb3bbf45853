/* ferry info/dump/validate/convert for ODOL (binarized P3D) files. */
#include "formats.h"
#include "sources.h"

#include <ferry/lzss.h>
#include <ferry/odol.h>

#include <stdlib.h>
#include <string.h>

void *cli_odol_read(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_odol_model *m;
    return ferry_odol_read(data, size, NULL, &m, err) == FERRY_OK ? m : NULL;
}

ferry_result cli_odol_write(const void *model, ferry_buffer *out, ferry_error *err)
{
    return ferry_odol_write(model, out, err);
}

void cli_odol_free(void *model) { ferry_odol_free(model); }

static ferry_odol_model *load(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    return cli_format_read(cli_format_for(FERRY_FORMAT_ODOL), file, data, size, report);
}

static json_t *floats_json(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, json_real(v[i]));
    return a;
}

/* An array's count and how it is stored (both codecs compress from the
 * same size on: LZSS up to v40, LZO after). */
static json_t *array_json(const ferry_odol_array *a, size_t elem)
{
    json_t *j = json_object();
    json_object_set_new(j, "count", json_integer(a->count));
    size_t size = (size_t)a->count * elem;
    json_object_set_new(j, "bytes", json_integer((json_int_t)size));
    json_object_set_new(j, "compressed", json_boolean(size >= FERRY_LZSS_MIN_COMPRESSED_SIZE));
    if (a->stored) json_object_set_new(j, "stored_bytes", json_integer((json_int_t)a->stored_size));
    if (a->offset != FERRY_NO_OFFSET) json_object_set_new(j, "offset", json_integer((json_int_t)a->offset));
    return j;
}

static json_t *condensed_json(const ferry_odol_condensed *c, size_t elem)
{
    json_t *j = array_json(&c->array, c->default_fill ? 0 : elem);
    json_object_set_new(j, "count", json_integer(c->array.count));
    json_object_set_new(j, "default_fill", json_boolean(c->default_fill));
    return j;
}

static json_t *u16_list(const ferry_odol_array *a)
{
    json_t *l = json_array();
    for (uint32_t i = 0; i < a->count && a->data; i++)
        json_array_append_new(l, json_integer((json_int_t)(a->data[2 * i] | (a->data[2 * i + 1] << 8))));
    return l;
}

static void lod_counts(const ferry_odol_lod *l, size_t *tris, size_t *quads)
{
    *tris = *quads = 0;
    for (uint32_t f = 0; f < l->face_count; f++) {
        if (l->faces[f].count == 4) (*quads)++;
        else (*tris)++;
    }
}

static json_t *lod_summary(const ferry_odol_model *m, uint32_t i)
{
    const ferry_odol_lod *l = &m->lods[i];
    char name[64];
    ferry_odol_resolution_name(l->resolution, name, sizeof name);
    size_t tris, quads;
    lod_counts(l, &tris, &quads);
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer(i));
    json_object_set_new(j, "resolution", json_real(l->resolution));
    cli_json_set_text(j, "name", name);
    json_object_set_new(j, "vertices", json_integer(l->positions.count));
    json_object_set_new(j, "faces", json_integer(l->face_count));
    json_object_set_new(j, "triangles", json_integer((json_int_t)tris));
    json_object_set_new(j, "quads", json_integer((json_int_t)quads));
    json_object_set_new(j, "sections", json_integer(l->section_count));
    json_object_set_new(j, "selections", json_integer(l->selection_count));
    json_object_set_new(j, "proxies", json_integer(l->proxy_count));
    json_object_set_new(j, "textures", json_integer(l->texture_count));
    json_object_set_new(j, "materials", json_integer(l->material_count));
    json_object_set_new(j, "properties", json_integer(l->property_count));
    return j;
}

int cli_odol_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_odol_model *m = load(file, data, size, report);
    if (!m) return CLI_INVALID;
    const ferry_odol_model_info *mi = &m->info;
    if (report) {
        json_t *j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string("ODOL"));
        json_object_set_new(j, "version", json_integer(m->version));
        json_object_set_new(j, "size", json_integer((json_int_t)size));
        cli_json_set_text(j, "class", mi->class_name);
        cli_json_set_text(j, "damage", mi->damage);
        json_object_set_new(j, "mass", json_real(mi->mass));
        json_object_set_new(j, "bbox_min", floats_json(mi->bbox_min, 3));
        json_object_set_new(j, "bbox_max", floats_json(mi->bbox_max, 3));
        cli_json_set_text(j, "skeleton", mi->skeleton.name);
        json_object_set_new(j, "bones", json_integer(mi->skeleton.bone_count));
        json_object_set_new(j, "animation_classes", json_integer(m->animations.class_count));
        json_t *lods = json_array();
        for (uint32_t i = 0; i < m->lod_count; i++) json_array_append_new(lods, lod_summary(m, i));
        json_object_set_new(j, "lods", lods);
        json_array_append_new(report, j);
    } else {
        printf("%s: ODOL version %u (binarized P3D), %zu bytes, %u LOD%s\n", CLI_TXT(file), m->version, size, m->lod_count,
               m->lod_count == 1 ? "" : "s");
        printf("  class \"%s\", damage \"%s\", mass %g\n", CLI_TXT(mi->class_name), CLI_TXT(mi->damage), (double)mi->mass);
        printf("  bounds (%g %g %g) to (%g %g %g)\n", (double)mi->bbox_min[0], (double)mi->bbox_min[1],
               (double)mi->bbox_min[2], (double)mi->bbox_max[0], (double)mi->bbox_max[1], (double)mi->bbox_max[2]);
        if (mi->skeleton.name[0])
            printf("  skeleton \"%s\", %u bones\n", CLI_TXT(mi->skeleton.name), mi->skeleton.bone_count);
        if (m->animations.present) printf("  %u animation classes\n", m->animations.class_count);
        printf("  %-5s %-28s %8s %8s %6s %6s %5s %5s %5s\n", "lod", "resolution", "vertices", "faces", "quads", "sect",
               "sel", "proxy", "tex");
        for (uint32_t i = 0; i < m->lod_count; i++) {
            const ferry_odol_lod *l = &m->lods[i];
            char name[64];
            ferry_odol_resolution_name(l->resolution, name, sizeof name);
            size_t tris, quads;
            lod_counts(l, &tris, &quads);
            printf("  %-5u %-28s %8u %8u %6zu %6u %5u %5u %5u\n", i, name, l->positions.count, l->face_count, quads,
                   l->section_count, l->selection_count, l->proxy_count, l->texture_count);
        }
    }
    ferry_odol_free(m);
    return CLI_OK;
}

/* ---- dump: everything, as one JSON document (or its text rendering) ---- */

static json_t *material_json(const ferry_odol_material *mt)
{
    json_t *j = json_object();
    cli_json_set_text(j, "name", mt->name);
    json_object_set_new(j, "version", json_integer(mt->version));
    json_object_set_new(j, "emissive", floats_json(mt->emissive, 4));
    json_object_set_new(j, "ambient", floats_json(mt->ambient, 4));
    json_object_set_new(j, "diffuse", floats_json(mt->diffuse, 4));
    json_object_set_new(j, "forced_diffuse", floats_json(mt->forced_diffuse, 4));
    json_object_set_new(j, "specular", floats_json(mt->specular, 4));
    json_object_set_new(j, "specular_power", json_real(mt->specular_power));
    json_object_set_new(j, "pixel_shader", json_integer(mt->pixel_shader));
    json_object_set_new(j, "vertex_shader", json_integer(mt->vertex_shader));
    cli_json_set_text(j, "surface", mt->surface ? mt->surface : "");
    json_t *stages = json_array();
    for (uint32_t s = 0; s < mt->stage_count; s++) {
        json_t *st = json_object();
        json_object_set_new(st, "stage", json_integer(mt->stages[s].stage));
        cli_json_set_text(st, "texture", mt->stages[s].texture);
        json_object_set_new(st, "filter", json_integer(mt->stages[s].filter));
        if (s < mt->transform_count) {
            json_object_set_new(st, "uv_source", json_integer(mt->transforms[s].uv_source));
            json_object_set_new(st, "transform", floats_json(mt->transforms[s].transform, 12));
        }
        json_array_append_new(stages, st);
    }
    json_object_set_new(j, "stages", stages);
    return j;
}

static json_t *lod_json(const ferry_odol_model *m, uint32_t i)
{
    const ferry_odol_lod *l = &m->lods[i];
    json_t *j = lod_summary(m, i);
    json_object_set_new(j, "offset", json_integer((json_int_t)l->offset));
    json_object_set_new(j, "start", json_integer(m->lod_starts[i]));
    json_object_set_new(j, "end", json_integer(m->lod_ends[i]));
    json_object_set_new(j, "permanent", json_boolean(l->permanent));
    json_object_set_new(j, "bmin", floats_json(l->bmin, 3));
    json_object_set_new(j, "bmax", floats_json(l->bmax, 3));
    json_object_set_new(j, "bradius", json_real(l->bradius));
    json_t *a = json_array();
    json_object_set_new(j, "texture_names", a);
    for (uint32_t t = 0; t < l->texture_count; t++) cli_json_append_text(j, "texture_names", a, l->textures[t]);
    a = json_array();
    for (uint32_t t = 0; t < l->material_count; t++) json_array_append_new(a, material_json(&l->materials[t]));
    json_object_set_new(j, "material_list", a);
    a = json_array();
    for (uint32_t p = 0; p < l->proxy_count; p++) {
        json_t *pj = json_object();
        cli_json_set_text(pj, "model", l->proxies[p].model);
        json_object_set_new(pj, "transform", floats_json(l->proxies[p].transform, 12));
        json_object_set_new(pj, "selection", json_integer(l->proxies[p].selection_index));
        json_object_set_new(pj, "bone", json_integer(l->proxies[p].bone_index));
        json_object_set_new(pj, "section", json_integer(l->proxies[p].section_index));
        json_array_append_new(a, pj);
    }
    json_object_set_new(j, "proxy_list", a);
    json_object_set_new(j, "face_block_size", json_integer(l->face_block_size));
    a = json_array();
    for (uint32_t f = 0; f < l->face_count; f++) {
        json_t *fj = json_array();
        for (uint8_t c = 0; c < l->faces[f].count && c < 4; c++) json_array_append_new(fj, json_integer(l->faces[f].vertices[c]));
        json_array_append_new(a, fj);
    }
    json_object_set_new(j, "face_list", a);
    a = json_array();
    for (uint32_t s = 0; s < l->section_count; s++) {
        const ferry_odol_section *sec = &l->sections[s];
        json_t *sj = json_object();
        json_object_set_new(sj, "face_bytes", json_pack("[ii]", sec->face_begin, sec->face_end));
        json_object_set_new(sj, "texture", json_integer(sec->texture));
        json_object_set_new(sj, "material", json_integer(sec->material));
        if (sec->material == -1) cli_json_set_text(sj, "material_name", sec->material_name);
        json_object_set_new(sj, "special", json_integer(sec->special));
        json_array_append_new(a, sj);
    }
    json_object_set_new(j, "section_list", a);
    a = json_array();
    for (uint32_t s = 0; s < l->selection_count; s++) {
        const ferry_odol_selection *sel = &l->selections[s];
        json_t *sj = json_object();
        cli_json_set_text(sj, "name", sel->name);
        json_object_set_new(sj, "sectional", json_boolean(sel->is_sectional));
        json_object_set_new(sj, "faces", u16_list(&sel->faces));
        json_object_set_new(sj, "vertices", u16_list(&sel->vertices));
        json_object_set_new(sj, "sections", json_integer(sel->sections.count));
        json_object_set_new(sj, "weights", json_integer(sel->weights.count));
        json_array_append_new(a, sj);
    }
    json_object_set_new(j, "selection_list", a);
    a = json_object();
    for (uint32_t p = 0; p < l->property_count; p++)
        cli_json_set_text(a, cli_json_key(l->properties[p].name, (char[CLI_TEXT_MAX]){0}, CLI_TEXT_MAX),
                          l->properties[p].value);
    json_object_set_new(j, "property_list", a);
    json_object_set_new(j, "keyframes", json_integer(l->keyframe_count));
    json_t *arrays = json_object();
    json_object_set_new(arrays, "point_flags", condensed_json(&l->point_flags, 4));
    json_object_set_new(arrays, "point_to_vertex", array_json(&l->point_to_vertex, 2));
    json_object_set_new(arrays, "vertex_to_point", array_json(&l->vertex_to_point, 2));
    /* From v45 on, UVs, normals and tangent vectors are packed. */
    bool packed = m->version >= 45;
    for (uint32_t u = 0; u < l->uv_set_count; u++) {
        char key[32];
        snprintf(key, sizeof key, "uv_set_%u", u);
        json_object_set_new(arrays, key, condensed_json(&l->uv_sets[u], packed ? 4 : 8));
    }
    json_object_set_new(arrays, "positions", array_json(&l->positions, 12));
    json_object_set_new(arrays, "normals", condensed_json(&l->normals, packed ? 4 : 12));
    json_object_set_new(arrays, "st_coords", array_json(&l->st_coords, packed ? 8 : 24));
    json_object_set_new(arrays, "vertex_bone_refs", array_json(&l->vertex_bone_refs, 12));
    json_object_set_new(arrays, "neighbor_bone_refs", array_json(&l->neighbor_bone_refs, 32));
    json_object_set_new(j, "arrays", arrays);
    return j;
}

static json_t *model_json(const char *file, size_t size, const ferry_odol_model *m)
{
    const ferry_odol_model_info *mi = &m->info;
    json_t *j = json_object();
    cli_json_set_text(j, "file", file);
    json_object_set_new(j, "format", json_string("ODOL"));
    json_object_set_new(j, "version", json_integer(m->version));
    json_object_set_new(j, "size", json_integer((json_int_t)size));
    json_t *info = json_object();
    json_object_set_new(info, "bounding_sphere", json_real(mi->bounding_sphere));
    json_object_set_new(info, "bbox_min", floats_json(mi->bbox_min, 3));
    json_object_set_new(info, "bbox_max", floats_json(mi->bbox_max, 3));
    json_object_set_new(info, "center_of_mass", floats_json(mi->center_of_mass, 3));
    json_object_set_new(info, "mass", json_real(mi->mass));
    json_object_set_new(info, "armor", json_real(mi->armor));
    json_object_set_new(info, "map_type", json_integer(mi->map_type));
    cli_json_set_text(info, "class", mi->class_name);
    cli_json_set_text(info, "damage", mi->damage);
    json_object_set_new(info, "mass_array", array_json(&mi->mass_array, 4));
    json_t *special = json_array();
    for (int i = 0; i < FERRY_ODOL_SPECIAL_LOD_COUNT; i++)
        json_array_append_new(special, mi->special_lods[i] == 0xFF ? json_null() : json_integer(mi->special_lods[i]));
    json_object_set_new(info, "named_lods", special);
    json_t *bones = json_array();
    for (uint32_t b = 0; b < mi->skeleton.bone_count; b++)
        json_array_append_new(bones, json_pack("{ssss}", "name", mi->skeleton.bones[b].name, "parent",
                                               mi->skeleton.bones[b].parent));
    json_object_set_new(info, "skeleton", json_pack("{sssO}", "name", mi->skeleton.name, "bones", bones));
    json_decref(bones);
    json_object_set_new(j, "model_info", info);
    json_t *classes = json_array();
    for (uint32_t c = 0; c < m->animations.class_count; c++) {
        const ferry_odol_animation_class *a = &m->animations.classes[c];
        json_array_append_new(classes, json_pack("{sisssssfsf}", "type", (int)a->type, "name", a->name, "source",
                                                 a->source, "min_value", (double)a->min_value, "max_value",
                                                 (double)a->max_value));
    }
    json_object_set_new(j, "animation_classes", classes);
    json_t *lods = json_array();
    for (uint32_t i = 0; i < m->lod_count; i++) json_array_append_new(lods, lod_json(m, i));
    json_object_set_new(j, "lods", lods);
    return j;
}

/* Text rendering of the dump: the same document, indented, long lists cut. */
static void print_value(const char *key, json_t *v, int depth)
{
    printf("%*s", 2 * depth, "");
    if (key) printf("%s: ", key);
    if (json_is_object(v)) {
        printf("\n");
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) print_value(k, x, depth + 1);
        return;
    }
    if (json_is_array(v)) {
        size_t n = json_array_size(v);
        bool scalars = true;
        for (size_t i = 0; i < n && scalars; i++) scalars = !json_is_object(json_array_get(v, i));
        if (scalars) {
            char *text = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(7));
            size_t len = text ? strlen(text) : 0;
            if (len > 110) printf("%.100s... (%zu items)\n", text, n);
            else printf("%s\n", text ? text : "");
            free(text);
            return;
        }
        printf("%zu items\n", n);
        for (size_t i = 0; i < n; i++) {
            char label[32];
            snprintf(label, sizeof label, "[%zu]", i);
            print_value(label, json_array_get(v, i), depth + 1);
        }
        return;
    }
    char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(7));
    printf("%s\n", text ? text : "");
    free(text);
}

int cli_odol_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_odol_model *m = load(file, data, size, NULL);
    if (!m) return CLI_INVALID;
    json_t *doc = model_json(file, size, m);
    if (json) {
        cli_print_json(doc);
    } else {
        const char *k;
        json_t *x;
        json_object_foreach(doc, k, x) print_value(k, x, 0);
    }
    json_decref(doc);
    ferry_odol_free(m);
    return CLI_OK;
}

size_t cli_odol_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                       json_t *report)
{
    (void)options;
    ferry_odol_model *m = load(file, data, size, report);
    if (!m) return 1;
    ferry_diagnostics diags = {0};
    ferry_odol_validate(m, NULL, &diags);
    cli_report_diags(file, "ODOL", &diags, report);
    size_t errors = diags.error_count;
    ferry_diagnostics_free(&diags);
    ferry_odol_free(m);
    return errors;
}

int cli_odol_convert(int argc, char **argv, ferry_format source)
{
    const char *in = NULL, *out = NULL;
    uint32_t *lods = calloc((size_t)argc, sizeof *lods);
    size_t lod_count = 0;
    const char **roots = calloc((size_t)argc, sizeof *roots);
    size_t root_count = 0;
    cli_sources *pool = NULL;
    const ferry_file_source **sources = NULL;
    const char **prefixes = NULL;
    bool all = false, game_view = false, allow_invalid = false, no_animations = false;
    int status = CLI_USAGE;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--all") == 0) {
            all = true;
        } else if (strcmp(argv[i], "--game-view") == 0) {
            game_view = true;
        } else if (strcmp(argv[i], "--lod") == 0) {
            char *end;
            long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
            if (i + 1 >= argc || *end || v < 0 || v > 65535) {
                status = cli_usage_error("convert", "--lod takes a LOD index (see ferry info)");
                goto done;
            }
            lods[lod_count++] = (uint32_t)v;
            i++;
        } else if (strcmp(argv[i], "--textures") == 0) {
            if (i + 1 >= argc) {
                status = cli_usage_error("convert", "--textures needs a folder or an archive");
                goto done;
            }
            if ((status = cli_check_texture_place("convert", argv[i + 1])) != CLI_OK) goto done;
            status = CLI_USAGE;
            roots[root_count++] = argv[++i];
        } else if (strcmp(argv[i], "--allow-invalid") == 0) {
            allow_invalid = true;
        } else if (strcmp(argv[i], "--no-animations") == 0) {
            no_animations = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            status = cli_usage_error("convert", "option '%s' does not apply to P3D files", argv[i]);
            goto done;
        } else if (!cli_take_file(argv[i], &in, &out)) {
            goto done;
        }
    }
    if (!in || !out) {
        status = cli_usage_error("convert", "expected IN.p3d and OUT");
        goto done;
    }
    if (source != FERRY_FORMAT_ODOL && source != FERRY_FORMAT_MLOD) {
        status = cli_usage_error("convert", "cannot make a P3D file from '%s'; ferry reads P3D files, it does not author them yet", in);
        goto done;
    }
    if ((all && game_view) || (lod_count && (all || game_view))) {
        status = cli_usage_error("convert", "choose one of --game-view (the default), --all and --lod");
        goto done;
    }
    const cli_format *format = cli_format_for(source);
    /* The game's view is the default: what players see first. */
    cli_convert_options o = {0};
    o.source = source;
    o.allow_invalid = allow_invalid;
    o.lods = lod_count ? lods : NULL;
    o.lod_count = lod_count;
    o.all = all;
    if (root_count && (cli_has_ext(out, ".glb") || cli_has_ext(out, ".gltf"))) {
        /* Each --textures place (a folder, an archive) as a file source:
         * a root of addon folders (docs/formats/odol-gltf.md, "Textures"). */
        if (!(pool = cli_sources_new()) || !(sources = calloc(root_count, sizeof *sources)) ||
            !(prefixes = calloc(root_count, sizeof *prefixes))) {
            fprintf(stderr, "ferry convert: out of memory\n");
            status = CLI_INVALID;
            goto done;
        }
        for (size_t i = 0; i < root_count; i++) {
            ferry_error err;
            const cli_root *root = cli_sources_open(pool, roots[i], &err);
            if (!root) {
                cli_print_error(roots[i], &err);
                status = CLI_INVALID;
                goto done;
            }
            sources[i] = root->source;
            prefixes[i] = root->prefix;
        }
        o.texture_sources = sources;
        o.texture_source_count = root_count;
        o.texture_prefixes = prefixes;
    }
    o.no_animations = no_animations;
    if (cli_has_ext(out, ".glb") || cli_has_ext(out, ".gltf")) {
        status = format->export(in, out, &o);
    } else if (cli_has_ext(out, ".p3d")) {
        status = lod_count || all || game_view || root_count || no_animations
                     ? cli_usage_error("convert", "--lod, --all, --game-view, --textures and --no-animations apply to .glb/.gltf outputs")
                     : format->rewrite(in, out, &o);
    } else {
        status = cli_usage_error("convert", "cannot write '%s' from a P3D file: supported outputs are .p3d, .glb, .gltf", out);
    }
done:
    free(lods);
    free(roots);
    free(sources);
    free(prefixes);
    cli_sources_free(pool);
    return status;
}

const char cli_odol_convert_help[] =
    "\n"
    "P3D models (ODOL versions 40, 48 and 50: ArmA, ArmA 2):\n"
    "  IN.p3d -> OUT.glb   the most detailed visual LOD (what the game draws up\n"
    "            OUT.gltf  close), as a node named by its resolution, with its\n"
    "                      mesh, named selections and properties (extras), proxies\n"
    "                      and materials (texture paths in extras; with --textures\n"
    "                      the textures and normal maps embedded as PNG), the\n"
    "                      skeleton as a skin and each animation class as an\n"
    "                      animation sweeping its range in 2 s\n"
    "  IN.p3d -> OUT.p3d   rewrite (byte-identical)\n"
    "  --game-view         with .glb/.gltf: the most detailed visual LOD (default)\n"
    "  --all               with .glb/.gltf: every LOD (views, shadows, geometries...)\n"
    "  --lod N             with .glb/.gltf: only LOD N (repeatable; see ferry info)\n"
    "  --textures ROOT     with .glb/.gltf (ROOT a folder, or an archive such as\n"
    "                      .meg): find the textures the model names\n"
    "                      (csj_gyroac\\t\\gyro1.pac) under ROOT as the game does:\n"
    "                      ROOT holds addon folders, each mounted at the prefix\n"
    "                      its $PREFIX$ file names (else its own name), or is a\n"
    "                      P:-drive tree of literal paths; any case, .pac = .paa\n"
    "                      (repeatable: the first ROOT holding a file wins). A\n"
    "                      texture not found is a warning, named in the material.\n"
    "                      A model inside an addon folder (a $PREFIX$ at or above\n"
    "                      it) finds that addon's textures without --textures\n"
    "  --no-animations     with .glb/.gltf: no glTF animation per animation class\n"
    "                      (the skeleton's skin stays)\n";
