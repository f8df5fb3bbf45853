/* glTF objects -> ferry_scene: images, materials, meshes (attributes,
 * indices, morph targets), skins, lights, nodes (parents put before
 * children), animations and the scene. Accessors come checked from
 * gltf_read.c; here the references between objects are checked. */
#include "gltf_read_internal.h"
#include "../core/core_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BIT(n) (1u << (n))
#define FAIL(path, ...) fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, __VA_ARGS__)

static json_t *item(fy_gr *r, const char *key, size_t i) { return json_array_get(json_object_get(r->root, key), i); }

/* Checks that root[key] is an array of objects (or absent). */
static bool objects(fy_gr *r, const char *key)
{
    json_t *v = json_object_get(r->root, key);
    if (!v) return true;
    if (!json_is_array(v)) return FAIL(key, "must be an array");
    for (size_t i = 0; i < json_array_size(v); i++) {
        if (!json_is_object(json_array_get(v, i))) {
            char path[64];
            snprintf(path, sizeof path, "%s[%zu]", key, i);
            return FAIL(path, "must be an object");
        }
    }
    return true;
}

/* ---- images and materials ---- */

static const char *mime_from(const char *given, const uint8_t *data, size_t size)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    if (given && (strcmp(given, "image/png") == 0 || strcmp(given, "image/jpeg") == 0))
        return strcmp(given, "image/png") == 0 ? "image/png" : "image/jpeg";
    /* No usable type given: the bytes tell PNG and JPEG apart. */
    if (size >= 8 && memcmp(data, png, 8) == 0) return "image/png";
    if (size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) return "image/jpeg";
    return NULL;
}

static bool read_images(fy_gr *r)
{
    ferry_scene *s = r->scene;
    size_t n = r->opts->skip_images ? 0 : fy_gr_count(r, "images");
    size_t textures = fy_gr_count(r, "textures");
    s->images = fy_gr_alloc(r, n, sizeof *s->images);
    r->texture_image = malloc((textures + 1) * sizeof *r->texture_image);
    if (!s->images || !r->texture_image) return fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char path[48];
        snprintf(path, sizeof path, "images[%zu]", i);
        json_t *im = item(r, "images", i);
        ferry_scene_image *out = &s->images[i];
        out->name = fy_gr_name(r, im);
        json_t *uri = json_object_get(im, "uri");
        json_t *mime = json_object_get(im, "mimeType");
        const char *given = json_is_string(mime) ? json_string_value(mime) : NULL;
        int64_t view;
        if (!fy_gr_index(r, im, "bufferView", path, fy_gr_count(r, "bufferViews"), false, &view)) return false;
        const uint8_t *bytes = NULL;
        size_t size = 0;
        uint8_t *decoded = NULL, *loaded = NULL;
        size_t loaded_size = 0;
        char media[64];
        if (view >= 0) {
            if (uri) return FAIL(path, "has both uri and bufferView");
            json_t *bv = item(r, "bufferViews", (size_t)view);
            int64_t buffer;
            uint64_t off, len;
            if (!fy_gr_index(r, bv, "buffer", path, r->buffer_count, true, &buffer) || !fy_gr_uint(r, bv, "byteOffset", path, 0, &off) ||
                !fy_gr_uint(r, bv, "byteLength", path, 0, &len))
                return false;
            const fy_gr_buffer *b = &r->buffers[buffer];
            if (off > b->size || len > b->size - off)
                return FAIL(path, "bufferViews[%lld] (bytes %llu..%llu) lies outside its buffer of %zu bytes", (long long)view,
                            (unsigned long long)off, (unsigned long long)(off + len), b->size);
            bytes = b->data + off;
            size = (size_t)len;
        } else if (json_is_string(uri)) {
            if (!fy_gr_load_uri(r, json_string_value(uri), path, &bytes, &size, &decoded, &loaded, &loaded_size, media, sizeof media)) return false;
            if (!given && media[0]) given = media;
        } else {
            return FAIL(path, "needs a uri or a bufferView");
        }
        out->mime_type = mime_from(given, bytes, size);
        if (out->mime_type) out->data = ferry_arena_memdup(r->arena, bytes, size);
        out->size = size;
        free(decoded);
        if (loaded) ferry_file_source_release(r->opts->files, loaded, loaded_size);
        if (!out->mime_type)
            return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, path, "is neither PNG nor JPEG (%.40s)", given ? given : "no mimeType");
        if (!out->data) return fy_gr_fail(r, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, path, "the image does not fit in the memory limit");
    }
    s->image_count = n;
    for (size_t t = 0; t < textures; t++) {
        char path[48];
        snprintf(path, sizeof path, "textures[%zu]", t);
        int64_t src;
        if (!fy_gr_index(r, item(r, "textures", t), "source", path, fy_gr_count(r, "images"), false, &src)) return false;
        r->texture_image[t] = r->opts->skip_images ? -1 : (int32_t)src;
    }
    return true;
}

/* A textureInfo: its image (through the texture) and texCoord set. */
static bool texture_ref(fy_gr *r, json_t *info, const char *path, bool *has_image, uint32_t *image, uint32_t *texcoord)
{
    if (!info) return true;
    int64_t t;
    uint64_t tc;
    if (!fy_gr_index(r, info, "index", path, fy_gr_count(r, "textures"), true, &t) || !fy_gr_uint(r, info, "texCoord", path, 0, &tc))
        return false;
    if (tc > 3) return FAIL(path, "texCoord %llu is more than this reader's 4 sets", (unsigned long long)tc);
    fy_ref_set(has_image, image, r->texture_image[t]);
    *texcoord = (uint32_t)tc;
    return true;
}

static bool read_materials(fy_gr *r)
{
    ferry_scene *s = r->scene;
    size_t n = fy_gr_count(r, "materials");
    s->materials = fy_gr_alloc(r, n, sizeof *s->materials);
    if (!s->materials) return false;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "materials[%zu]", i);
        json_t *m = item(r, "materials", i);
        ferry_scene_material *o = &s->materials[i];
        ferry_scene_material_init(o);
        o->name = fy_gr_name(r, m);
        o->metallic_factor = 1.0f; /* glTF's default */
        json_t *pbr = json_object_get(m, "pbrMetallicRoughness");
        double metal, rough, cutoff, scale;
        if (pbr) {
            if (!fy_gr_numbers(r, pbr, "baseColorFactor", path, o->base_color_factor, 4) ||
                !fy_gr_number(r, pbr, "metallicFactor", path, 1.0, &metal) || !fy_gr_number(r, pbr, "roughnessFactor", path, 1.0, &rough) ||
                !texture_ref(r, json_object_get(pbr, "baseColorTexture"), path, &o->has_base_color_image,
                             &o->base_color_image, &o->base_color_texcoord))
                return false;
            o->metallic_factor = (float)metal;
            o->roughness_factor = (float)rough;
        }
        json_t *nt = json_object_get(m, "normalTexture");
        uint32_t unused_tc;
        if (!texture_ref(r, nt, path, &o->has_normal_image, &o->normal_image, &o->normal_texcoord) ||
            !fy_gr_number(r, nt, "scale", path, 1.0, &scale) ||
            !texture_ref(r, json_object_get(m, "emissiveTexture"), path, &o->has_emissive_image, &o->emissive_image, &unused_tc) ||
            !fy_gr_numbers(r, m, "emissiveFactor", path, o->emissive_factor, 3) || !fy_gr_number(r, m, "alphaCutoff", path, 0.5, &cutoff))
            return false;
        o->normal_scale = (float)scale;
        o->alpha_cutoff = (float)cutoff;
        json_t *mode = json_object_get(m, "alphaMode");
        if (mode) {
            const char *v = json_string_value(mode);
            if (v && strcmp(v, "OPAQUE") == 0) o->alpha_mode = FERRY_ALPHA_OPAQUE;
            else if (v && strcmp(v, "MASK") == 0) o->alpha_mode = FERRY_ALPHA_MASK;
            else if (v && strcmp(v, "BLEND") == 0) o->alpha_mode = FERRY_ALPHA_BLEND;
            else return FAIL(path, "alphaMode must be OPAQUE, MASK or BLEND");
        }
        o->double_sided = json_is_true(json_object_get(m, "doubleSided"));
        o->unlit = json_object_get(json_object_get(m, "extensions"), "KHR_materials_unlit") != NULL;
        o->extras = fy_gr_extras(r, m);
        if (r->failed) return false;
    }
    s->material_count = n;
    return true;
}

/* ---- meshes ---- */

static bool attribute(fy_gr *r, json_t *attrs, const char *name, const char *prim_path, size_t vertex_count,
                      unsigned comps, unsigned kinds, fy_gr_accessor *a, bool *present)
{
    *present = false;
    json_t *v = json_object_get(attrs, name);
    if (!v) return true;
    char path[96];
    snprintf(path, sizeof path, "%s/%s", prim_path, name);
    if (!json_is_integer(v)) return FAIL(path, "must be an accessor index");
    if (!fy_gr_get_accessor(r, json_integer_value(v), path, comps, kinds, a)) return false;
    if (vertex_count != SIZE_MAX && a->count != vertex_count)
        return FAIL(path, "has %zu elements but POSITION has %zu", a->count, vertex_count);
    *present = true;
    return true;
}

/* fy_gr_uint_at(a, i, 0) for an index accessor, inline: the loops below
 * read every index twice (range check, then copy). */
static inline uint32_t index_at(const fy_gr_accessor *a, size_t i)
{
    if (!a->base) return 0;
    const uint8_t *q = a->base + i * a->stride;
    switch (a->kind) {
    case FY_GR_UBYTE: case FY_GR_NORM_UBYTE: return q[0];
    case FY_GR_USHORT: case FY_GR_NORM_USHORT: return fy_load_u16le(q);
    default: return fy_load_u32le(q);
    }
}

static bool read_indices(fy_gr *r, json_t *prim, const char *path, ferry_scene_primitive *p, uint64_t mode)
{
    int64_t idx;
    if (!fy_gr_index(r, prim, "indices", path, fy_gr_count(r, "accessors"), false, &idx)) return false;
    size_t n = p->vertex_count;
    fy_gr_accessor a;
    size_t count = n;
    if (idx >= 0) {
        char ipath[96];
        snprintf(ipath, sizeof ipath, "%s/indices", path);
        if (!fy_gr_get_accessor(r, idx, ipath, BIT(1), FY_GR_UBYTE | FY_GR_USHORT | FY_GR_UINT, &a)) return false;
        count = a.count;
        for (size_t i = 0; i < count; i++) {
            uint32_t v = index_at(&a, i);
            if (v >= n) return FAIL(ipath, "index %zu is %u; there are %zu vertices", i, (unsigned)v, n);
        }
    }
#define SRC(i) (idx >= 0 ? index_at(&a, (i)) : (uint32_t)(i))
    if (mode == 4 || mode == 0) {
        if (mode == 4 && count % 3) return FAIL(path, "%zu %s is not a whole number of triangles", count, idx >= 0 ? "indices" : "vertices");
        if (idx < 0) return true;
        uint32_t *out = fy_gr_alloc(r, count, sizeof *out);
        if (!out) return false;
        for (size_t i = 0; i < count; i++) out[i] = SRC(i);
        p->indices = out;
        p->index_count = count;
        return true;
    }
    /* Strips and fans become triangle lists (glTF's vertex order for each). */
    size_t tris = count >= 3 ? count - 2 : 0;
    if (tris == 0) return FAIL(path, "a triangle %s needs at least 3 vertices", mode == 5 ? "strip" : "fan");
    uint32_t *out = fy_gr_alloc(r, tris, 3 * sizeof *out);
    if (!out) return false;
    for (size_t i = 0; i < tris; i++) {
        if (mode == 5) {
            out[i * 3] = SRC(i);
            out[i * 3 + 1] = SRC(i + 1 + i % 2);
            out[i * 3 + 2] = SRC(i + 2 - i % 2);
        } else {
            out[i * 3] = SRC(i + 1);
            out[i * 3 + 1] = SRC(i + 2);
            out[i * 3 + 2] = SRC(0);
        }
    }
#undef SRC
    p->indices = out;
    p->index_count = tris * 3;
    return true;
}

static bool read_primitive(fy_gr *r, json_t *prim, const char *path, ferry_scene_primitive *p)
{
    if (!json_is_object(prim)) return FAIL(path, "must be an object");
    json_t *attrs = json_object_get(prim, "attributes");
    if (!json_is_object(attrs)) return FAIL(path, "attributes must be an object");
    fy_gr_accessor a;
    bool present;
    if (!attribute(r, attrs, "POSITION", path, SIZE_MAX, BIT(3), FY_GR_FLOAT, &a, &present)) return false;
    if (!present) return FAIL(path, "has no POSITION attribute");
    size_t n = a.count;
    p->vertex_count = n;
    if (!(p->positions = fy_gr_floats(r, &a))) return false;
    if (!attribute(r, attrs, "NORMAL", path, n, BIT(3), FY_GR_FLOAT, &a, &present)) return false;
    if (present && !(p->normals = fy_gr_floats(r, &a))) return false;
    if (!attribute(r, attrs, "TANGENT", path, n, BIT(4), FY_GR_FLOAT, &a, &present)) return false;
    if (present && !(p->tangents = fy_gr_floats(r, &a))) return false;
    for (int t = 0; t < 4; t++) {
        char name[16];
        snprintf(name, sizeof name, "TEXCOORD_%d", t);
        if (!attribute(r, attrs, name, path, n, BIT(2), FY_GR_FLOAT | FY_GR_NORM_UBYTE | FY_GR_NORM_USHORT, &a, &present)) return false;
        if (!present) break;
        if (!(p->texcoords[t] = fy_gr_floats(r, &a))) return false;
        p->texcoord_count = (size_t)t + 1;
    }
    if (!attribute(r, attrs, "COLOR_0", path, n, BIT(3) | BIT(4), FY_GR_FLOAT | FY_GR_NORM_UBYTE | FY_GR_NORM_USHORT, &a, &present))
        return false;
    if (present) {
        float *c = fy_gr_alloc(r, n, 4 * sizeof *c);
        if (!c) return false;
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) c[i * 4 + k] = k < a.components ? fy_gr_float(&a, i, k) : 1.0f;
        p->colors = c;
    }
    bool has_joints, has_weights;
    fy_gr_accessor ja, wa;
    if (!attribute(r, attrs, "JOINTS_0", path, n, BIT(4), FY_GR_UBYTE | FY_GR_USHORT, &ja, &has_joints) ||
        !attribute(r, attrs, "WEIGHTS_0", path, n, BIT(4), FY_GR_FLOAT | FY_GR_NORM_UBYTE | FY_GR_NORM_USHORT, &wa, &has_weights))
        return false;
    if (has_joints != has_weights) return FAIL(path, "JOINTS_0 and WEIGHTS_0 must come together");
    if (has_joints) {
        uint16_t *j = fy_gr_alloc(r, n, 4 * sizeof *j);
        if (!j || !(p->weights = fy_gr_floats(r, &wa))) return false;
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) j[i * 4 + k] = (uint16_t)fy_gr_uint_at(&ja, i, k);
        p->joints = j;
    }
    uint64_t mode;
    if (!fy_gr_uint(r, prim, "mode", path, 4, &mode)) return false;
    if (mode != 0 && mode != 4 && mode != 5 && mode != 6)
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, path, "mode %llu (lines) is not supported; triangles and points are",
                          (unsigned long long)mode);
    p->mode = mode == 0 ? FERRY_PRIMITIVE_POINTS : FERRY_PRIMITIVE_TRIANGLES;
    if (!read_indices(r, prim, path, p, mode)) return false;
    int64_t material;
    if (!fy_gr_index(r, prim, "material", path, fy_gr_count(r, "materials"), false, &material)) return false;
    FY_SET_REF(p, material, material);
    bool ok = true;
    json_t *targets = fy_gr_array(r, prim, "targets", path, &ok);
    if (!ok) return false;
    p->target_count = targets ? json_array_size(targets) : 0;
    if (p->target_count) {
        ferry_scene_morph_target *mt = fy_gr_alloc(r, p->target_count, sizeof *mt);
        if (!mt) return false;
        for (size_t t = 0; t < p->target_count; t++) {
            char tpath[96];
            snprintf(tpath, sizeof tpath, "%.60s/targets[%zu]", path, t);
            json_t *tg = json_array_get(targets, t);
            if (!json_is_object(tg)) return FAIL(tpath, "must be an object");
            if (!attribute(r, tg, "POSITION", tpath, n, BIT(3), FY_GR_FLOAT, &a, &present)) return false;
            /* A target without positions moves nothing: zeros keep the scene's rule. */
            mt[t].positions = present ? fy_gr_floats(r, &a) : fy_gr_alloc(r, n, 3 * sizeof(float));
            if (!mt[t].positions) return false;
            if (!attribute(r, tg, "NORMAL", tpath, n, BIT(3), FY_GR_FLOAT, &a, &present)) return false;
            if (present && !(mt[t].normals = fy_gr_floats(r, &a))) return false;
        }
        p->targets = mt;
    }
    p->extras = fy_gr_extras(r, prim);
    return !r->failed;
}

static bool read_meshes(fy_gr *r)
{
    ferry_scene *s = r->scene;
    size_t n = fy_gr_count(r, "meshes");
    s->meshes = fy_gr_alloc(r, n, sizeof *s->meshes);
    if (!s->meshes) return false;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "meshes[%zu]", i);
        json_t *m = item(r, "meshes", i);
        ferry_scene_mesh *o = &s->meshes[i];
        o->name = fy_gr_name(r, m);
        bool ok = true;
        json_t *prims = fy_gr_array(r, m, "primitives", path, &ok);
        if (!ok) return false;
        if (!prims || json_array_size(prims) == 0) return FAIL(path, "needs at least one primitive");
        o->primitive_count = json_array_size(prims);
        o->primitives = fy_gr_alloc(r, o->primitive_count, sizeof *o->primitives);
        if (!o->primitives) return false;
        for (size_t p = 0; p < o->primitive_count; p++) {
            char ppath[80];
            snprintf(ppath, sizeof ppath, "%.30s/primitives[%zu]", path, p);
            if (!read_primitive(r, json_array_get(prims, p), ppath, &o->primitives[p])) return false;
            if (o->primitives[p].target_count != o->primitives[0].target_count)
                return FAIL(ppath, "has %zu morph targets but primitives[0] has %zu", o->primitives[p].target_count,
                            o->primitives[0].target_count);
        }
        size_t targets = o->primitives[0].target_count;
        json_t *w = json_object_get(m, "weights");
        if (w) {
            if (!json_is_array(w) || json_array_size(w) != targets) return FAIL(path, "weights must have one number per morph target");
            float *dw = fy_gr_alloc(r, targets, sizeof *dw);
            if (!dw || !fy_gr_numbers(r, m, "weights", path, dw, targets)) return false;
            o->default_weights = dw;
        }
        json_t *names = json_object_get(json_object_get(m, "extras"), "targetNames");
        for (size_t t = 0; json_is_array(names) && t < targets && t < json_array_size(names); t++) {
            const char *nm = json_string_value(json_array_get(names, t));
            if (!nm) continue;
            /* Every primitive's targets carry the name, as the writer reads it from the first. */
            const char *copy = fy_gr_strdup(r, nm);
            for (size_t p = 0; p < o->primitive_count; p++) o->primitives[p].targets[t].name = copy;
        }
        o->extras = fy_gr_extras(r, m);
        if (r->failed) return false;
    }
    s->mesh_count = n;
    return true;
}

/* ---- nodes ---- */

/* A column-major affine matrix as TRS (a mirror as a negative Z scale).
 * False when it is not one: shear, a projective row or a collapsed axis;
 * then the TRS is the nearest the columns give. The decomposition is the
 * converters' (core_math.h), with a tighter shear tolerance: a glTF matrix
 * that is not TRS keeps its exact values in extras. */
static bool matrix_to_trs(const float m[16], float t[3], float q[4], float s[3])
{
    bool affine = fabsf(m[3]) < 1e-6f && fabsf(m[7]) < 1e-6f && fabsf(m[11]) < 1e-6f && fabsf(m[15] - 1.0f) < 1e-6f;
    bool clean = fy_mat4_to_trs(m, t, q, s, 1e-4);
    return affine && clean;
}

/* Parent of each glTF node (-1 for roots), checking the forest. */
static bool node_parents(fy_gr *r, size_t n, int64_t *parent)
{
    for (size_t i = 0; i < n; i++) parent[i] = -1;
    for (size_t i = 0; i < n; i++) {
        char path[48];
        snprintf(path, sizeof path, "nodes[%zu]", i);
        bool ok = true;
        json_t *children = fy_gr_array(r, item(r, "nodes", i), "children", path, &ok);
        if (!ok) return false;
        for (size_t c = 0; children && c < json_array_size(children); c++) {
            json_t *v = json_array_get(children, c);
            if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= n)
                return FAIL(path, "children[%zu] is not a node index below %zu", c, n);
            size_t ch = (size_t)json_integer_value(v);
            if (ch == i) return FAIL(path, "is its own child");
            if (parent[ch] >= 0) return FAIL(path, "nodes[%zu] has two parents (nodes[%lld] and this one)", ch, (long long)parent[ch]);
            parent[ch] = (int64_t)i;
        }
    }
    return true;
}

/* Scene order: file order, except that a node whose parent comes later is
 * preceded by its ancestors (the scene wants parents first). */
static bool node_order(fy_gr *r, size_t n, const int64_t *parent, size_t *order)
{
    uint8_t *state = calloc(n + 1, 1); /* 0 new, 1 on the current walk, 2 placed */
    size_t *chain = malloc((n + 1) * sizeof *chain);
    if (!state || !chain) {
        free(state);
        free(chain);
        return fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    }
    size_t placed = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        size_t depth = 0;
        int64_t at = (int64_t)i;
        while (at >= 0 && state[at] == 0) {
            state[at] = 1;
            chain[depth++] = (size_t)at;
            at = parent[at];
        }
        if (at >= 0 && state[at] == 1) {
            char path[48];
            snprintf(path, sizeof path, "nodes[%lld]", (long long)at);
            ok = FAIL(path, "is its own ancestor (the children links form a cycle)");
            break;
        }
        while (depth) {
            size_t v = chain[--depth];
            state[v] = 2;
            r->node_index[v] = (int32_t)placed;
            order[placed++] = v;
        }
    }
    free(state);
    free(chain);
    return ok;
}

static bool read_nodes(fy_gr *r)
{
    ferry_scene *s = r->scene;
    size_t n = fy_gr_count(r, "nodes");
    if (n > INT32_MAX) return fy_gr_fail(r, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, "nodes", "too many nodes");
    s->nodes = fy_gr_alloc(r, n, sizeof *s->nodes);
    int64_t *parent = malloc((n + 1) * sizeof *parent);
    size_t *order = malloc((n + 1) * sizeof *order);
    r->node_index = malloc((n + 1) * sizeof *r->node_index);
    bool ok = s->nodes && parent && order && r->node_index;
    if (!ok && s->nodes) fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    ok = ok && node_parents(r, n, parent) && node_order(r, n, parent, order);
    size_t lights = json_array_size(json_object_get(json_object_get(json_object_get(r->root, "extensions"), "KHR_lights_punctual"), "lights"));
    for (size_t k = 0; ok && k < n; k++) {
        size_t i = order[k];
        char path[48];
        snprintf(path, sizeof path, "nodes[%zu]", i);
        json_t *nd = item(r, "nodes", i);
        ferry_scene_node *o = &s->nodes[k];
        ferry_scene_node_init(o);
        o->name = fy_gr_name(r, nd);
        FY_SET_REF(o, parent, parent[i] >= 0 ? r->node_index[parent[i]] : -1);
        int64_t mesh, skin, light = -1;
        ok = fy_gr_index(r, nd, "mesh", path, s->mesh_count, false, &mesh) &&
             fy_gr_index(r, nd, "skin", path, fy_gr_count(r, "skins"), false, &skin);
        json_t *lp = json_object_get(json_object_get(nd, "extensions"), "KHR_lights_punctual");
        if (ok && lp) ok = fy_gr_index(r, lp, "light", path, lights, true, &light);
        if (!ok) break;
        if (skin >= 0 && mesh < 0) {
            ok = FAIL(path, "has a skin but no mesh");
            break;
        }
        FY_SET_REF(o, mesh, mesh);
        FY_SET_REF(o, skin, skin);
        FY_SET_REF(o, light, light);
        json_t *extras = json_object_get(nd, "extras");
        json_t *matrix = json_object_get(nd, "matrix");
        if (matrix) {
            float m[16];
            if (json_object_get(nd, "translation") || json_object_get(nd, "rotation") || json_object_get(nd, "scale")) {
                ok = FAIL(path, "has both matrix and translation/rotation/scale");
                break;
            }
            if (!(ok = fy_gr_numbers(r, nd, "matrix", path, m, 16))) break;
            if (!matrix_to_trs(m, o->translation, o->rotation, o->scale)) {
                /* Shear has no TRS: the matrix stays in extras. */
                json_t *x = json_is_object(extras) ? json_deep_copy(extras) : json_object();
                json_t *arr = json_array();
                for (int e = 0; e < 16; e++) json_array_append_new(arr, json_real(m[e]));
                json_object_set_new(x, "gltf_matrix_not_trs", arr);
                o->extras = x ? fy_json_from_jansson(r->arena, x) : NULL;
                json_decref(x);
                if (!o->extras) fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
            }
        } else {
            ok = fy_gr_numbers(r, nd, "translation", path, o->translation, 3) && fy_gr_numbers(r, nd, "rotation", path, o->rotation, 4) &&
                 fy_gr_numbers(r, nd, "scale", path, o->scale, 3);
            if (!ok) break;
        }
        if (!o->extras) o->extras = fy_gr_extras(r, nd);
        ok = !r->failed;
    }
    free(parent);
    free(order);
    if (ok) s->node_count = n;
    return ok;
}

/* ---- skins, lights ---- */

static bool read_skins(fy_gr *r)
{
    ferry_scene *s = r->scene;
    size_t n = fy_gr_count(r, "skins");
    s->skins = fy_gr_alloc(r, n, sizeof *s->skins);
    if (!s->skins) return false;
    for (size_t i = 0; i < n; i++) {
        char path[48];
        snprintf(path, sizeof path, "skins[%zu]", i);
        json_t *sk = item(r, "skins", i);
        ferry_scene_skin *o = &s->skins[i];
        o->name = fy_gr_name(r, sk);
        json_t *joints = json_object_get(sk, "joints");
        if (!json_is_array(joints) || json_array_size(joints) == 0) return FAIL(path, "joints must be a non-empty array");
        size_t jc = json_array_size(joints);
        int32_t *j = fy_gr_alloc(r, jc, sizeof *j);
        if (!j) return false;
        for (size_t k = 0; k < jc; k++) {
            json_t *v = json_array_get(joints, k);
            if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= s->node_count)
                return FAIL(path, "joints[%zu] is not a node index below %zu", k, s->node_count);
            j[k] = r->node_index[json_integer_value(v)];
            for (size_t e = 0; e < k; e++)
                if (j[e] == j[k]) return FAIL(path, "joints[%zu] repeats joints[%zu]", k, e);
        }
        o->joints = j;
        o->joint_count = jc;
        int64_t skel, ibm;
        if (!fy_gr_index(r, sk, "skeleton", path, s->node_count, false, &skel) ||
            !fy_gr_index(r, sk, "inverseBindMatrices", path, fy_gr_count(r, "accessors"), false, &ibm))
            return false;
        FY_SET_REF(o, skeleton, skel >= 0 ? r->node_index[skel] : -1);
        if (ibm >= 0) {
            char ipath[80];
            snprintf(ipath, sizeof ipath, "%s/inverseBindMatrices", path);
            fy_gr_accessor a;
            if (!fy_gr_get_accessor(r, ibm, ipath, BIT(16), FY_GR_FLOAT, &a)) return false;
            if (a.count < jc) return FAIL(ipath, "has %zu matrices for %zu joints", a.count, jc);
            if (!(o->inverse_bind_matrices = fy_gr_floats(r, &a))) return false;
        }
    }
    s->skin_count = n;
    return true;
}

static bool read_lights(fy_gr *r)
{
    ferry_scene *s = r->scene;
    json_t *list = json_object_get(json_object_get(json_object_get(r->root, "extensions"), "KHR_lights_punctual"), "lights");
    size_t n = json_is_array(list) ? json_array_size(list) : 0;
    s->lights = fy_gr_alloc(r, n, sizeof *s->lights);
    if (!s->lights) return false;
    for (size_t i = 0; i < n; i++) {
        char path[80];
        snprintf(path, sizeof path, "extensions/KHR_lights_punctual/lights[%zu]", i);
        json_t *l = json_array_get(list, i);
        if (!json_is_object(l)) return FAIL(path, "must be an object");
        ferry_scene_light *o = &s->lights[i];
        o->name = fy_gr_name(r, l);
        const char *type = json_string_value(json_object_get(l, "type"));
        if (type && strcmp(type, "point") == 0) o->type = FERRY_LIGHT_POINT;
        else if (type && strcmp(type, "directional") == 0) o->type = FERRY_LIGHT_DIRECTIONAL;
        else if (type && strcmp(type, "spot") == 0) o->type = FERRY_LIGHT_SPOT;
        else return FAIL(path, "type must be point, directional or spot");
        o->color[0] = o->color[1] = o->color[2] = 1.0f;
        double intensity, range, inner, outer;
        json_t *spot = json_object_get(l, "spot");
        if (!fy_gr_numbers(r, l, "color", path, o->color, 3) || !fy_gr_number(r, l, "intensity", path, 1.0, &intensity) ||
            !fy_gr_number(r, l, "range", path, 0.0, &range) || !fy_gr_number(r, spot, "innerConeAngle", path, 0.0, &inner) ||
            !fy_gr_number(r, spot, "outerConeAngle", path, 0.7853981633974483, &outer))
            return false;
        o->intensity = (float)intensity;
        o->range = (float)range;
        o->inner_cone_angle = (float)inner;
        o->outer_cone_angle = (float)outer;
    }
    s->light_count = n;
    return true;
}

/* ---- animations ---- */

static bool read_channel(fy_gr *r, json_t *anim, json_t *ch, const char *path, ferry_scene_channel *o, bool *skip)
{
    *skip = false;
    if (!json_is_object(ch)) return FAIL(path, "must be an object");
    json_t *target = json_object_get(ch, "target");
    if (!json_is_object(target)) return FAIL(path, "target must be an object");
    int64_t node, sampler;
    size_t samplers = json_array_size(json_object_get(anim, "samplers"));
    if (!fy_gr_index(r, ch, "sampler", path, samplers, true, &sampler) ||
        !fy_gr_index(r, target, "node", path, r->scene->node_count, false, &node))
        return false;
    const char *tp = json_string_value(json_object_get(target, "path"));
    static const char *const paths[] = {"translation", "rotation", "scale", "weights"};
    int which = -1;
    for (int k = 0; tp && k < 4; k++)
        if (strcmp(tp, paths[k]) == 0) which = k;
    if (!tp) return FAIL(path, "target.path is required");
    /* No node, or a path from an extension (pointer): nothing this scene holds. */
    if (node < 0 || which < 0) {
        *skip = true;
        return true;
    }
    o->node = r->node_index[node];
    o->path = (ferry_anim_path)which;
    json_t *smp = json_array_get(json_object_get(anim, "samplers"), (size_t)sampler);
    char spath[96];
    snprintf(spath, sizeof spath, "%.60s/samplers[%lld]", path, (long long)sampler);
    if (!json_is_object(smp)) return FAIL(spath, "must be an object");
    const char *interp = json_string_value(json_object_get(smp, "interpolation"));
    if (!interp || strcmp(interp, "LINEAR") == 0) o->interpolation = FERRY_INTERP_LINEAR;
    else if (strcmp(interp, "STEP") == 0) o->interpolation = FERRY_INTERP_STEP;
    else if (strcmp(interp, "CUBICSPLINE") == 0) o->interpolation = FERRY_INTERP_CUBICSPLINE;
    else return FAIL(spath, "interpolation must be LINEAR, STEP or CUBICSPLINE");
    int64_t in, outi;
    size_t accessors = fy_gr_count(r, "accessors");
    if (!fy_gr_index(r, smp, "input", spath, accessors, true, &in) || !fy_gr_index(r, smp, "output", spath, accessors, true, &outi))
        return false;
    fy_gr_accessor ia, oa;
    char ipath[128];
    snprintf(ipath, sizeof ipath, "%s/input", spath);
    if (!fy_gr_get_accessor(r, in, ipath, BIT(1), FY_GR_FLOAT, &ia)) return false;
    float *times = fy_gr_floats(r, &ia);
    if (!times) return false;
    for (size_t k = 0; k < ia.count; k++) {
        if (!isfinite(times[k]) || times[k] < 0) return FAIL(ipath, "time %zu is not a finite number >= 0", k);
        if (k && !(times[k] > times[k - 1])) return FAIL(ipath, "times must increase (key %zu)", k);
    }
    size_t width = which == 1 ? 4 : 3;
    unsigned kinds = FY_GR_FLOAT;
    unsigned comps = which == 1 ? BIT(4) : BIT(3);
    if (which == 1) kinds |= FY_GR_NORM_BYTE | FY_GR_NORM_UBYTE | FY_GR_NORM_SHORT | FY_GR_NORM_USHORT;
    if (which == 3) {
        const ferry_scene_node *target = &r->scene->nodes[o->node];
        width = target->has_mesh ? r->scene->meshes[target->mesh].primitives[0].target_count : 0;
        if (width == 0) return FAIL(path, "animates the weights of a node without morph targets");
        comps = BIT(1);
        kinds |= FY_GR_NORM_BYTE | FY_GR_NORM_UBYTE | FY_GR_NORM_SHORT | FY_GR_NORM_USHORT;
    }
    char opath[128];
    snprintf(opath, sizeof opath, "%s/output", spath);
    if (!fy_gr_get_accessor(r, outi, opath, comps, kinds, &oa)) return false;
    /* CUBICSPLINE keys hold an in-tangent, the value and an out-tangent. */
    size_t per_key = o->interpolation == FERRY_INTERP_CUBICSPLINE ? 3 : 1;
    if (oa.count * (size_t)oa.components != ia.count * width * per_key)
        return FAIL(opath, "has %zu values; %zu keys need %zu", oa.count * (size_t)oa.components, ia.count,
                    ia.count * width * per_key);
    float *values = fy_gr_floats(r, &oa);
    if (!values) return false;
    o->times = times;
    o->key_count = ia.count;
    o->values = values;
    return true;
}

static bool read_animations(fy_gr *r)
{
    ferry_scene *s = r->scene;
    size_t n = fy_gr_count(r, "animations");
    s->animations = fy_gr_alloc(r, n, sizeof *s->animations);
    if (!s->animations) return false;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        char path[48];
        snprintf(path, sizeof path, "animations[%zu]", i);
        json_t *an = item(r, "animations", i);
        bool ok = true;
        json_t *channels = fy_gr_array(r, an, "channels", path, &ok);
        if (!ok || !fy_gr_array(r, an, "samplers", path, &ok) || !ok) return ok ? FAIL(path, "samplers are required") : false;
        size_t cc = channels ? json_array_size(channels) : 0;
        ferry_scene_animation *o = &s->animations[kept];
        o->channels = fy_gr_alloc(r, cc, sizeof *o->channels);
        if (!o->channels) return false;
        for (size_t c = 0; c < cc; c++) {
            char cpath[64];
            snprintf(cpath, sizeof cpath, "%.30s/channels[%zu]", path, c);
            bool skip;
            ferry_scene_channel *ch = &o->channels[o->channel_count];
            if (!read_channel(r, an, json_array_get(channels, c), cpath, ch, &skip)) return false;
            if (skip) continue;
            for (size_t d = 0; d < o->channel_count; d++)
                if (o->channels[d].node == ch->node && o->channels[d].path == ch->path)
                    return FAIL(cpath, "animates the same node and path as an earlier channel");
            o->channel_count++;
        }
        if (o->channel_count == 0) continue; /* nothing this scene can hold */
        o->name = fy_gr_name(r, an);
        o->extras = fy_gr_extras(r, an);
        if (r->failed) return false;
        kept++;
    }
    s->animation_count = kept;
    return true;
}

bool fy_gr_build_scene(fy_gr *r)
{
    static const char *const lists[] = {"images", "textures", "materials", "meshes", "nodes", "skins", "animations",
                                        "accessors", "bufferViews", "scenes"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (!objects(r, lists[i])) return false;
    ferry_scene *s = r->scene;
    if (!read_images(r) || !read_materials(r) || !read_meshes(r) || !read_lights(r) || !read_nodes(r) || !read_skins(r) ||
        !read_animations(r))
        return false;
    /* Skinned nodes: every joint a vertex names must exist in the skin. */
    for (size_t i = 0; i < s->node_count; i++) {
        const ferry_scene_node *nd = &s->nodes[i];
        if (!nd->has_skin) continue;
        const ferry_scene_mesh *m = &s->meshes[nd->mesh];
        size_t joints = s->skins[nd->skin].joint_count;
        for (size_t p = 0; p < m->primitive_count; p++) {
            const ferry_scene_primitive *pr = &m->primitives[p];
            for (size_t k = 0; pr->joints && k < pr->vertex_count * 4; k++) {
                if (pr->joints[k] >= joints && pr->weights[k] != 0.0f) {
                    char path[80];
                    snprintf(path, sizeof path, "meshes[%u]/primitives[%zu]/attributes/JOINTS_0", (unsigned)nd->mesh, p);
                    return FAIL(path, "vertex %zu uses joint %u but the skin of its node has %zu joints", k / 4,
                                (unsigned)pr->joints[k], joints);
                }
            }
        }
    }
    int64_t scene;
    if (!fy_gr_index(r, r->root, "scene", "", fy_gr_count(r, "scenes"), false, &scene)) return false;
    json_t *sc = scene >= 0 ? item(r, "scenes", (size_t)scene) : item(r, "scenes", 0);
    if (sc) {
        s->name = fy_gr_name(r, sc);
        s->extras = fy_gr_extras(r, sc);
    }
    const char *gen = json_string_value(json_object_get(json_object_get(r->root, "asset"), "generator"));
    if (gen) s->generator = fy_gr_strdup(r, gen);
    return !r->failed;
}
