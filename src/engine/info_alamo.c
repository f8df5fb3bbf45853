/* The Alamo family's rows: ALO models, particle systems and ALA animations
 * (read, write, validate, scenes), their info (`ferry info`) and the chunk
 * tree of any Alamo file (`ferry dump`). */
#include "engine_internal.h"

#include "../core/core.h"

#include <ferry/alamo_chunk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows ---- */

FY_DEFINE_READ(alo, ferry_alo_model, ferry_alo_read)
FY_DEFINE_FREE(alo, ferry_alo_free)
FY_DEFINE_WRITE(alo, ferry_alo_write)

FY_DEFINE_READ(particle, ferry_particle_system, ferry_particle_read)
FY_DEFINE_FREE(particle, ferry_particle_free)
FY_DEFINE_WRITE(particle, ferry_particle_write)

FY_DEFINE_READ(ala, ferry_ala_animation, ferry_ala_read)
FY_DEFINE_FREE(ala, ferry_ala_free)
FY_DEFINE_WRITE(ala, ferry_ala_write)
FY_WRITE_LAYOUT(ala)
{
    if (layout != FERRY_ALA_FORMAT_1 && layout != FERRY_ALA_FORMAT_2) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "an ALA animation is written in format 1 or 2, not %u", layout);
        return FERRY_ERR_ARGUMENT;
    }
    return ferry_ala_write_format(object, (ferry_ala_format)layout, out, err);
}

/* The texture check of models and particle systems: found where the game
 * looks (ferry_alamo_texture_find). */
static bool texture_exists(const char *name, void *user)
{
    char found[4096];
    return ferry_alamo_texture_find(user, name, NULL, found, sizeof found);
}

FY_VALIDATE(alo)
{
    (void)asset;
    const ferry_alamo_texture_places *places = options ? options->textures : NULL;
    ferry_alo_validate_options o = {places ? texture_exists : NULL, (void *)places};
    return ferry_alo_validate(object, &o, diags);
}

FY_VALIDATE(particle)
{
    const ferry_alamo_texture_places *places = options ? options->textures : NULL;
    ferry_particle_validate_options o = {ferry_asset_name(asset), places ? texture_exists : NULL, (void *)places};
    return ferry_particle_validate(object, &o, diags);
}

FY_VALIDATE(ala)
{
    (void)asset;
    size_t errors = ferry_ala_validate(object, NULL, diags);
    const ferry_asset *model = options ? options->model : NULL;
    if (model && ferry_asset_format(model) == FERRY_FORMAT_ALO_MODEL) {
        bool temporary;
        ferry_error err;
        void *m = fy_asset_object_get(model, &temporary, &err);
        if (m) errors += ferry_ala_check_model(object, m, diags);
        fy_asset_object_put(model, m, temporary);
    }
    return errors;
}

FY_TO_SCENE(alo)
{
    (void)asset;
    ferry_asset_scene_options none = {0};
    if (!options) options = &none;
    size_t n = options->animations ? options->animation_count : 0;
    const ferry_ala_animation **anims = calloc(n ? n : 1, sizeof *anims);
    bool *temporary = calloc(n ? n : 1, sizeof *temporary);
    ferry_result r = FERRY_OK;
    if (!anims || !temporary) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        r = FERRY_ERR_NOMEM;
    }
    size_t got = 0;
    for (; r == FERRY_OK && got < n; got++) {
        const ferry_asset *a = options->animations[got];
        if (ferry_asset_format(a) != FERRY_FORMAT_ALA) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "animation %zu is not an ALA animation", got);
            r = FERRY_ERR_ARGUMENT;
            break;
        }
        if (!(anims[got] = fy_asset_object_get(a, &temporary[got], err))) {
            r = err ? err->code : FERRY_ERR_MALFORMED;
            break;
        }
    }
    if (r == FERRY_OK) {
        ferry_alo_scene_options o = {0};
        o.name = options->name;
        o.texture_places = options->textures;
        o.skip_textures = options->textures == NULL;
        o.all = options->all;
        o.animations = n ? anims : NULL;
        o.animation_names = n ? options->animation_names : NULL;
        o.animation_count = n;
        o.diagnostics = options->diagnostics;
        o.report = options->alo_report;
        o.png_effort = options->png_effort;
        o.skin_all_bones = options->skin_all_bones;
        o.no_faction_masks = options->no_faction_masks;
        o.native_textures = options->native_textures;
        r = ferry_alo_to_scene(object, &o, out, err);
    }
    for (size_t i = 0; i < got && anims; i++) fy_asset_object_put(options->animations[i], (void *)anims[i], temporary[i]);
    free(anims);
    free(temporary);
    return r;
}

FY_TO_SCENE(particle)
{
    (void)asset;
    (void)options;
    return ferry_particle_to_scene(object, NULL, out, err);
}

FY_FROM_SCENE(alo)
{
    ferry_alo_model *m = NULL;
    ferry_result r = ferry_alo_from_scene(scene, options ? options->alo : NULL, &m, err);
    if (r == FERRY_OK) r = ferry_alo_write(m, out, err);
    ferry_alo_free(m);
    return r;
}

FY_FROM_SCENE(ala)
{
    ferry_ala_animation *a = NULL;
    ferry_result r = ferry_ala_from_scene(scene, options ? options->ala : NULL, &a, err);
    if (r == FERRY_OK) r = ferry_ala_write(a, out, err);
    ferry_ala_free(a);
    return r;
}

/* ---- info ---- */

/* Distinct strings in first-seen order. */
typedef struct string_set {
    const char **items;
    size_t count, capacity;
} string_set;

static void set_add(string_set *s, const char *text)
{
    if (!text || !*text) return;
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i], text) == 0) return;
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 16;
        const char **grown = realloc(s->items, cap * sizeof *grown);
        if (!grown) return;
        s->items = grown;
        s->capacity = cap;
    }
    s->items[s->count++] = text;
}

static void set_json(json_t *object, const char *key, const string_set *s)
{
    json_t *a = json_array();
    json_object_set_new(object, key, a);
    for (size_t i = 0; i < s->count; i++) fy_json_append_text(object, key, a, s->items[i]);
}

/* Model-space bounds: each mesh's vertex bounds moved by the world matrix
 * of the bone it is connected to (skinned meshes are already in model space). */
static bool model_bounds(const ferry_alo_model *m, float min[3], float max[3])
{
    float *world = calloc(m->skeleton.bone_count ? m->skeleton.bone_count * 16 : 16, sizeof *world);
    if (!world) return false;
    ferry_alo_bone_world_matrices(m, world);
    bool any = false;
    for (size_t i = 0; i < m->connections.object_count; i++) {
        const ferry_alo_connection *c = &m->connections.objects[i];
        if (c->object >= ferry_alo_object_count(m)) continue;
        ferry_alo_object obj = ferry_alo_object_at(m, c->object);
        if (obj.kind != FERRY_ALO_OBJECT_MESH || obj.index >= m->mesh_count) continue;
        const ferry_alo_mesh *mesh = &m->meshes[obj.index];
        float lo[3], hi[3];
        if (!ferry_alo_mesh_vertex_bounds(mesh, lo, hi)) continue;
        bool skinned = false;
        for (size_t s = 0; s < mesh->submesh_count; s++) skinned |= mesh->submeshes[s].bone_mapping_count > 0;
        const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        const float *mat = (!skinned && c->bone < m->skeleton.bone_count) ? world + 16 * c->bone : identity;
        for (int corner = 0; corner < 8; corner++) {
            float p[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2]};
            for (int r = 0; r < 3; r++) {
                float v = mat[r] * p[0] + mat[4 + r] * p[1] + mat[8 + r] * p[2] + mat[12 + r];
                if (!any || v < min[r]) min[r] = v;
                if (!any || v > max[r]) max[r] = v;
            }
            any = true;
        }
    }
    free(world);
    return any;
}

static json_t *model_info(const fy_info *info, const ferry_alo_model *m)
{
    size_t submeshes = 0, vertices = 0, triangles = 0, skinned = 0, collision = 0;
    string_set shaders = {0}, textures = {0}, proxies = {0};
    for (size_t i = 0; i < m->mesh_count; i++) {
        const ferry_alo_mesh *mesh = &m->meshes[i];
        submeshes += mesh->submesh_count;
        for (size_t s = 0; s < mesh->submesh_count; s++) {
            const ferry_alo_submesh *sm = &mesh->submeshes[s];
            vertices += sm->vertex_count;
            triangles += sm->triangle_count;
            skinned += sm->bone_mapping_count > 0;
            collision += sm->collision != NULL;
            set_add(&shaders, sm->material.shader);
            for (size_t p = 0; p < sm->material.param_count; p++)
                if (sm->material.params[p].type == FERRY_ALO_PARAM_TEXTURE) set_add(&textures, sm->material.params[p].texture);
        }
    }
    for (size_t i = 0; i < m->connections.proxy_count; i++) set_add(&proxies, m->connections.proxies[i].name);
    float lo[3] = {0}, hi[3] = {0};
    bool has_bounds = model_bounds(m, lo, hi);
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("ALO model"));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    json_object_set_new(j, "bones", json_integer((json_int_t)m->skeleton.bone_count));
    json_object_set_new(j, "meshes", json_integer((json_int_t)m->mesh_count));
    json_object_set_new(j, "submeshes", json_integer((json_int_t)submeshes));
    json_object_set_new(j, "skinned_submeshes", json_integer((json_int_t)skinned));
    json_object_set_new(j, "collision_trees", json_integer((json_int_t)collision));
    json_object_set_new(j, "vertices", json_integer((json_int_t)vertices));
    json_object_set_new(j, "triangles", json_integer((json_int_t)triangles));
    json_object_set_new(j, "lights", json_integer((json_int_t)m->light_count));
    json_object_set_new(j, "proxies", json_integer((json_int_t)m->connections.proxy_count));
    json_object_set_new(j, "dazzles", json_integer((json_int_t)m->connections.dazzle_count));
    if (has_bounds) {
        json_object_set_new(j, "bounds_min", fy_json_vec3(info, lo[0], lo[1], lo[2]));
        json_object_set_new(j, "bounds_max", fy_json_vec3(info, hi[0], hi[1], hi[2]));
    }
    set_json(j, "shaders", &shaders);
    set_json(j, "textures", &textures);
    set_json(j, "proxy_names", &proxies);
    json_t *mesh_names = json_array();
    json_object_set_new(j, "mesh_names", mesh_names);
    for (size_t i = 0; i < m->mesh_count; i++)
        fy_json_append_text(j, "mesh_names", mesh_names, m->meshes[i].name ? m->meshes[i].name : "");
    free(shaders.items);
    free(textures.items);
    free(proxies.items);
    return j;
}

/* A bone's channels: " translation rotation ...", or " (constant)". */
static const char *ala_channels(const ferry_ala_bone *b, uint8_t format, char *out, size_t size)
{
    bool t, r, sc;
    if (format == 2) {
        t = b->translation_index >= 0;
        r = b->rotation_index >= 0;
        sc = b->scale_index >= 0;
    } else {
        t = b->translation_count > 0;
        r = b->rotation_count > 1;
        sc = b->scale_count > 0;
    }
    snprintf(out, size, "%s%s%s%s%s", t ? " translation" : "", r ? " rotation" : "", sc ? " scale" : "",
             b->has_visibility ? " visibility" : "", b->has_steps ? " steps" : "");
    if (!out[0]) snprintf(out, size, " (constant)");
    return out;
}

static json_t *animation_info(const fy_info *info, const ferry_ala_animation *a)
{
    size_t animated = 0;
    char channels[96];
    for (size_t i = 0; i < a->bone_count; i++)
        if (strcmp(ala_channels(&a->bones[i], a->format, channels, sizeof channels), " (constant)") != 0) animated++;
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("ALA animation"));
    json_object_set_new(j, "ala_format", json_integer(a->format));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    json_object_set_new(j, "frames", json_integer(a->frame_count));
    json_object_set_new(j, "fps", fy_json_real(info, a->fps));
    json_object_set_new(j, "duration", fy_json_real(info, ferry_ala_duration(a)));
    json_object_set_new(j, "bones", json_integer((json_int_t)a->bone_count));
    json_object_set_new(j, "animated_bones", json_integer((json_int_t)animated));
    json_t *bones = json_array();
    for (size_t i = 0; i < a->bone_count; i++) {
        json_t *b = json_object();
        fy_json_set_text(b, "name", a->bones[i].name ? a->bones[i].name : "");
        json_object_set_new(b, "index", json_integer(a->bones[i].index));
        json_object_set_new(b, "channels", json_string(ala_channels(&a->bones[i], a->format, channels, sizeof channels) + 1));
        json_array_append_new(bones, b);
    }
    json_object_set_new(j, "bone_list", bones);
    return j;
}

static json_t *particle_info(const fy_info *info, const ferry_particle_system *ps)
{
    json_t *j = json_object(), *emitters = json_array();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("ALO particle system"));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    fy_json_set_text(j, "name", ps->name ? ps->name : "");
    json_object_set_new(j, "persistent", json_boolean(ps->persistence != 0));
    for (size_t i = 0; i < ps->emitter_count; i++) {
        const ferry_particle_emitter *e = &ps->emitters[i];
        const ferry_particle_properties *p = &e->properties;
        json_t *ej = json_object();
        fy_json_set_text(ej, "name", e->name ? e->name : "");
        json_object_set_new(ej, "blend_mode", json_integer(p->blend_mode));
        json_object_set_new(ej, "lifetime", fy_json_real(info, p->lifetime));
        json_object_set_new(ej, "in_bursts", json_boolean(p->in_bursts != 0));
        fy_json_set_text(ej, "color_texture", e->color_texture);
        fy_json_set_text(ej, "secondary_texture", e->secondary_texture);
        json_array_append_new(emitters, ej);
    }
    json_object_set_new(j, "emitters", emitters);
    return j;
}

/* ---- the chunk tree (dump) ---- */

static void hex_preview(const uint8_t *d, size_t n, char *out, size_t out_size)
{
    size_t used = 0;
    size_t show = n < 16 ? n : 16;
    for (size_t i = 0; i < show && used + 4 < out_size; i++) used += (size_t)snprintf(out + used, out_size - used, "%02x", d[i]);
    if (n > show && used + 4 < out_size) snprintf(out + used, out_size - used, "...");
}

/* The string up to its NUL (or the chunk's end), as its bytes, malloc'd:
 * the lossless rule applies to it (control characters escaped by JSON). */
static char *raw_string(const uint8_t *d, size_t n)
{
    size_t len = 0;
    while (len < n && d[len]) len++;
    char *s = malloc(len + 1);
    if (!s) return NULL;
    if (len) memcpy(s, d, len);
    s[len] = '\0';
    return s;
}

/* The values of a mini-chunk that is not a string, by the width and kind
 * its table gives. */
static void format_mini_value(ferry_value_kind kind, const ferry_mini_chunk *m, char *out, size_t out_size)
{
    out[0] = '\0';
    size_t width = kind == FERRY_VALUE_UINT8 ? 1 : (kind == FERRY_VALUE_UINT16 || kind == FERRY_VALUE_INT16) ? 2 : 4;
    if (kind == FERRY_VALUE_BYTES || m->size == 0 || m->size % width) {
        hex_preview(m->data, m->size, out, out_size);
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i + width <= m->size && used < out_size; i += width) {
        const uint8_t *p = m->data + i;
        uint32_t u = width == 1 ? p[0] : width == 2 ? fy_load_u16le(p) : fy_load_u32le(p);
        const char *sep = i ? " " : "";
        int w;
        if (kind == FERRY_VALUE_FLOAT) {
            w = snprintf(out + used, out_size - used, "%s%g", sep, (double)fy_bits_f32(u));
        } else if (kind == FERRY_VALUE_INT) {
            w = snprintf(out + used, out_size - used, "%s%d", sep, (int)(int32_t)u);
        } else if (kind == FERRY_VALUE_INT16) {
            w = snprintf(out + used, out_size - used, "%s%d", sep, (int)(int16_t)u);
        } else {
            w = snprintf(out + used, out_size - used, "%s%u", sep, (unsigned)u);
        }
        if (w < 0) break;
        used += (size_t)w;
    }
}

/* What a mini-chunk's "value" is: the string itself ("string"), or its
 * values of that type as text ("1 2 3"; "bytes": hex). */
static const char *kind_name(ferry_value_kind kind)
{
    switch (kind) {
    case FERRY_VALUE_STRING: return "string";
    case FERRY_VALUE_UINT: return "uint32";
    case FERRY_VALUE_INT: return "int32";
    case FERRY_VALUE_FLOAT: return "float";
    case FERRY_VALUE_UINT8: return "uint8";
    case FERRY_VALUE_UINT16: return "uint16";
    case FERRY_VALUE_INT16: return "int16";
    default: return "bytes";
    }
}

static json_t *chunk_json(uint32_t root_type, const ferry_chunk *c)
{
    ferry_chunk_info ci = ferry_alamo_chunk_info(root_type, c);
    json_t *j = json_object();
    char type[16];
    snprintf(type, sizeof type, "0x%x", (unsigned)c->type);
    fy_json_set_text(j, "type", type);
    fy_json_set_text(j, "name", ci.name);
    json_object_set_new(j, "offset", json_integer((json_int_t)c->offset));
    json_object_set_new(j, "size", json_integer(c->size));
    json_object_set_new(j, "container", json_boolean(c->is_container));
    if (c->is_container) {
        json_t *children = json_array();
        for (size_t i = 0; i < c->child_count; i++) json_array_append_new(children, chunk_json(root_type, &c->children[i]));
        json_object_set_new(j, "children", children);
        return j;
    }
    switch (ci.content) {
    case FERRY_CONTENT_STRING: {
        char *raw = raw_string(c->data, c->size);
        fy_json_set_text(j, "string", raw ? raw : "");
        free(raw);
        break;
    }
    case FERRY_CONTENT_MINI_CHUNKS: {
        size_t n;
        ferry_error err;
        if (ferry_alamo_mini_chunks_parse(c, NULL, 0, &n, &err) != FERRY_OK) {
            char msg[400];
            ferry_error_format(&err, msg, sizeof msg);
            fy_json_set_text(j, "error", msg);
            break;
        }
        ferry_mini_chunk *minis = calloc(n ? n : 1, sizeof *minis);
        if (!minis) {
            json_decref(j);
            return NULL;
        }
        ferry_alamo_mini_chunks_parse(c, minis, n, &n, &err);
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            ferry_value_kind kind;
            const char *name = ferry_alamo_mini_name(root_type, c, minis[i].type, &kind);
            json_t *mj = json_object();
            json_object_set_new(mj, "type", json_integer(minis[i].type));
            fy_json_set_text(mj, "name", name);
            json_object_set_new(mj, "kind", json_string(kind_name(kind)));
            json_object_set_new(mj, "offset", json_integer((json_int_t)minis[i].offset));
            json_object_set_new(mj, "size", json_integer(minis[i].size));
            if (kind == FERRY_VALUE_STRING) { /* the string itself, by the lossless rule */
                char *raw = raw_string(minis[i].data, minis[i].size);
                fy_json_set_text(mj, "value", raw ? raw : "");
                free(raw);
            } else {
                char value[700];
                format_mini_value(kind, &minis[i], value, sizeof value);
                fy_json_set_text(mj, "value", value);
            }
            json_array_append_new(arr, mj);
        }
        json_object_set_new(j, "minis", arr);
        free(minis);
        break;
    }
    default: {
        char summary[512];
        ferry_alamo_chunk_summary(root_type, c, summary, sizeof summary);
        if (!summary[0] && ci.content == FERRY_CONTENT_UNKNOWN) hex_preview(c->data, c->size, summary, sizeof summary);
        fy_json_set_text(j, "summary", summary);
    }
    }
    return j;
}

static bool is_alamo(ferry_format f)
{
    return f == FERRY_FORMAT_ALO_MODEL || f == FERRY_FORMAT_ALO_PARTICLE || f == FERRY_FORMAT_ALO_PARTICLE_UAW ||
           f == FERRY_FORMAT_ALA;
}

json_t *fy_alamo_chunks_json(const fy_info *info, ferry_error *err)
{
    ferry_chunk_tree *tree;
    if (ferry_alamo_chunk_read(info->data, info->size, NULL, &tree, err) != FERRY_OK) {
        /* Not even a chunk file: say so, rather than report a chunk size
         * read from text. Any chunk tree that reads is shown, whatever its
         * root. */
        if (!is_alamo(ferry_detect(info->data, info->size))) fy_not_known(err, info->data, info->size);
        return NULL;
    }
    uint32_t root_type = tree->root_count ? tree->roots[0].type : 0;
    json_t *root = json_object();
    fy_json_set_file(root, info);
    fy_json_set_text(root, "format", ferry_format_name(ferry_detect(info->data, info->size)));
    json_object_set_new(root, "size", json_integer((json_int_t)info->size));
    json_t *chunks = json_array();
    for (size_t i = 0; i < tree->root_count; i++) json_array_append_new(chunks, chunk_json(root_type, &tree->roots[i]));
    json_object_set_new(root, "chunks", chunks);
    ferry_alamo_chunk_free(tree);
    return root;
}

FY_INFO(alo)
{
    return info->detail == FERRY_INFO_FULL ? fy_alamo_chunks_json(info, err) : model_info(info, object);
}

FY_INFO(particle)
{
    return info->detail == FERRY_INFO_FULL ? fy_alamo_chunks_json(info, err) : particle_info(info, object);
}

FY_INFO(ala)
{
    return info->detail == FERRY_INFO_FULL ? fy_alamo_chunks_json(info, err) : animation_info(info, object);
}
