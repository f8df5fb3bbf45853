/* ALM reader: big-endian bytes -> ferry_alm_mesh in one arena. Every count
 * is compared with the bytes that remain (times the smallest size its
 * records can have) before anything is allocated for it, so a lying header
 * costs nothing; errors name the record ("positions[3]/components[1]"). */
#include "alm_internal.h"
#include "../../core/record.h"

#include <stdio.h>

typedef struct reader {
    fy_record_reader rr; /* cursor, arena, error path (named on the way out: innermost wins) */
    uint32_t v, fs;
    const char *section; /* names a failure no record claimed */
} reader;

#define locate(r, ...) fy_record_locate(&(r)->rr, __VA_ARGS__)

static void *alloc(reader *r, uint64_t count, size_t size) { return fy_record_alloc(&r->rr, count, size); }

/* A count of records of at least `min_size` bytes each must fit in what remains. */
static bool room(reader *r, uint64_t count, size_t min_size, const char *what)
{
    return fy_record_room(&r->rr, r->rr.c.pos, count, min_size, what);
}

static double real(reader *r, const char *what)
{
    const uint8_t *p = fy_bytes(&r->rr.c, r->fs, what);
    return p ? fy_alm_load_real(p, r->fs) : 0.0;
}

static void reals(reader *r, double *out, size_t n, const char *what)
{
    const uint8_t *p = fy_bytes(&r->rr.c, n * r->fs, what);
    if (!p) return;
    for (size_t i = 0; i < n; i++) out[i] = fy_alm_load_real(p + i * r->fs, r->fs);
}

/* A 3x3 matrix (row major) then an offset, as versions before 5 store a
 * transform, held as the 4x4 it means. */
static void decode_affine(const uint8_t *p, uint32_t fs, double *m)
{
    static const uint8_t at[12] = {0, 1, 2, 4, 5, 6, 8, 9, 10, 3, 7, 11};
    for (int i = 0; i < 12; i++) m[at[i]] = fy_alm_load_real(p + (size_t)i * fs, fs);
    m[12] = m[13] = m[14] = 0.0;
    m[15] = 1.0;
}

static void matrix(reader *r, double *m, const char *what)
{
    size_t n = fy_alm_frame_reals(r->v);
    const uint8_t *p = fy_bytes(&r->rr.c, n * r->fs, what);
    if (!p) return;
    if (n == 16) {
        for (int i = 0; i < 16; i++) m[i] = fy_alm_load_real(p + (size_t)i * r->fs, r->fs);
    } else {
        decode_affine(p, r->fs, m);
    }
}

/* On failure, `sub` names the part of the vector that failed. */
static bool read_vector(reader *r, ferry_alm_vector *out, char *sub, size_t sub_size)
{
    uint32_t n = fy_u32be(&r->rr.c, "num_weights");
    if (r->rr.c.failed) {
        snprintf(sub, sub_size, "num_weights");
        return false;
    }
    size_t cs = 4 + 4 * (size_t)r->fs;
    size_t remaining = fy_remaining(&r->rr.c);
    if (n > remaining / cs) {
        fy_fail_at(&r->rr.c, r->rr.c.pos, FERRY_ERR_TRUNCATED,
                   "num_weights %u announces %u components of %zu bytes; only %zu bytes remain, so the data "
                   "ends inside component %zu",
                   (unsigned)n, (unsigned)n, cs, remaining, remaining / cs);
        snprintf(sub, sub_size, "components[%zu]", remaining / cs);
        return false;
    }
    out->count = n;
    out->components = NULL;
    if (!n) return true;
    const uint8_t *p = fy_bytes(&r->rr.c, (size_t)n * cs, "vector components");
    out->components = alloc(r, n, sizeof *out->components);
    if (!out->components) {
        snprintf(sub, sub_size, "components");
        return false;
    }
    for (uint32_t i = 0; i < n; i++, p += cs) {
        out->components[i].bone = fy_load_u32be(p);
        for (int k = 0; k < 4; k++) out->components[i].coords[k] = fy_alm_load_real(p + 4 + (size_t)k * r->fs, r->fs);
    }
    return true;
}

static bool read_comments(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "comments";
    if (!room(r, m->comment_count, 4, "comment count")) return false;
    m->comments = alloc(r, m->comment_count, sizeof *m->comments);
    m->comment_lengths = alloc(r, m->comment_count, sizeof *m->comment_lengths);
    o->comments = alloc(r, m->comment_count, sizeof *o->comments);
    for (uint32_t i = 0; i < m->comment_count && !r->rr.c.failed; i++) {
        o->comments[i] = r->rr.c.pos;
        uint32_t len = fy_u32be(&r->rr.c, "comment length");
        const uint8_t *text = fy_array(&r->rr.c, len, 1, "comment text");
        char *copy = text ? alloc(r, (uint64_t)len + 1, 1) : NULL;
        if (copy) {
            memcpy(copy, text, len);
            m->comments[i] = copy;
            m->comment_lengths[i] = len;
        }
        if (r->rr.c.failed) locate(r, "comments[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_bones(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "bones";
    size_t bone_size = fy_alm_bone_size(r->v);
    o->bones = r->rr.c.pos;
    o->bone_size = (uint32_t)bone_size;
    if (!room(r, m->bone_count, bone_size, "bone count")) return false;
    m->bones = alloc(r, m->bone_count, sizeof *m->bones);
    for (uint32_t i = 0; i < m->bone_count && !r->rr.c.failed; i++) {
        ferry_alm_bone *b = &m->bones[i];
        b->parent = (int32_t)fy_u32be(&r->rr.c, "parent");
        matrix(r, b->transform, "transform");
        if (r->v >= FY_ALM_V_BONE_STATS) b->flags = fy_u32be(&r->rr.c, "flags");
        if (r->v >= FY_ALM_V_TAILS) reals(r, b->tail, 3, "tail");
        if (r->v >= FY_ALM_V_BONE_STATS) {
            b->max_singular = real(r, "max_singular");
            reals(r, b->translate_centre, 3, "translate_centre");
            b->translate_radius = real(r, "translate_radius");
            reals(r, b->expect_L, 16, "expect_L");
            reals(r, b->expect_GTG, 16, "expect_GTG");
            b->expect_LTGTGL = real(r, "expect_LTGTGL");
        }
        if (r->rr.c.failed) locate(r, "bones[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_p_matrix(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "P";
    o->p_matrix = r->rr.c.pos;
    if (r->v < FY_ALM_V_BONE_STATS || !m->override_p) return true;
    uint64_t side = 4 * (uint64_t)m->bone_count;
    /* The bones were read, so bone_count is bounded by the input's size. */
    uint64_t n = side * side;
    if (!room(r, n, r->fs, "P matrix entry count")) {
        locate(r, "P");
        return false;
    }
    m->p_matrix = alloc(r, n, sizeof *m->p_matrix);
    if (m->p_matrix) reals(r, m->p_matrix, (size_t)n, "P matrix");
    if (r->rr.c.failed) locate(r, "P");
    return !r->rr.c.failed;
}

static bool read_positions(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "positions";
    if (!room(r, m->position_count, 4, "position count")) {
        locate(r, "positions");
        return false;
    }
    m->positions = alloc(r, m->position_count, sizeof *m->positions);
    o->positions = alloc(r, m->position_count, sizeof *o->positions);
    char sub[48];
    for (uint32_t i = 0; i < m->position_count && !r->rr.c.failed; i++) {
        o->positions[i] = r->rr.c.pos;
        if (!read_vector(r, &m->positions[i], sub, sizeof sub)) locate(r, "positions[%u]/%s", (unsigned)i, sub);
    }
    return !r->rr.c.failed;
}

static bool read_vertices(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "vertices";
    bool tangents = r->v >= FY_ALM_V_TANGENTS;
    if (!room(r, m->vertex_count, 4 + (tangents ? 8 : 0) + 2 * (size_t)r->fs, "vertex count")) {
        locate(r, "vertices");
        return false;
    }
    m->vertices = alloc(r, m->vertex_count, sizeof *m->vertices);
    o->vertices = alloc(r, m->vertex_count, sizeof *o->vertices);
    char sub[48];
    for (uint32_t i = 0; i < m->vertex_count && !r->rr.c.failed; i++) {
        ferry_alm_vertex *vx = &m->vertices[i];
        o->vertices[i] = r->rr.c.pos;
        vx->position = fy_u32be(&r->rr.c, "position index");
        for (int t = 0; tangents && t < 2 && !r->rr.c.failed; t++)
            if (!read_vector(r, &vx->tangents[t], sub, sizeof sub))
                locate(r, "vertices[%u]/tangents[%d]/%s", (unsigned)i, t, sub);
        reals(r, vx->tex_coords, 2, "tex_coords");
        if (r->rr.c.failed) locate(r, "vertices[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_textures(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "textures";
    if (!room(r, m->texture_count, 16, "texture count")) {
        locate(r, "textures");
        return false;
    }
    m->textures = alloc(r, m->texture_count, sizeof *m->textures);
    o->textures = alloc(r, m->texture_count, sizeof *o->textures);
    for (uint32_t i = 0; i < m->texture_count && !r->rr.c.failed; i++) {
        ferry_alm_texture *t = &m->textures[i];
        o->textures[i] = r->rr.c.pos;
        t->width = fy_u32be(&r->rr.c, "width");
        t->height = fy_u32be(&r->rr.c, "height");
        t->channels = fy_u32be(&r->rr.c, "channels");
        t->is_signed = fy_u32be(&r->rr.c, "signed");
        uint64_t pixels = (uint64_t)t->width * t->height;
        size_t remaining = fy_remaining(&r->rr.c);
        if (!r->rr.c.failed && t->channels && pixels > remaining / t->channels) {
            fy_fail_at(&r->rr.c, r->rr.c.pos, FERRY_ERR_TRUNCATED,
                       "a %ux%u texture of %u channels needs more than the %zu bytes that remain", (unsigned)t->width,
                       (unsigned)t->height, (unsigned)t->channels, remaining);
        }
        size_t n = r->rr.c.failed ? 0 : (size_t)(pixels * t->channels);
        const uint8_t *values = fy_bytes(&r->rr.c, n, "texture values");
        if (values && n) {
            uint8_t *copy = alloc(r, n, 1);
            if (copy) memcpy(copy, values, n);
            t->values = copy;
        }
        if (r->rr.c.failed) locate(r, "textures[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_tangent_maps(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "tangent_maps";
    if (r->v < FY_ALM_V_TANGENT_MAPS) return true;
    if (!room(r, m->tangent_map_count, 8, "tangent map count")) {
        locate(r, "tangent_maps");
        return false;
    }
    m->tangent_maps = alloc(r, m->tangent_map_count, sizeof *m->tangent_maps);
    o->tangent_maps = alloc(r, m->tangent_map_count, sizeof *o->tangent_maps);
    char sub[48];
    for (uint32_t i = 0; i < m->tangent_map_count && !r->rr.c.failed; i++) {
        ferry_alm_tangent_map *t = &m->tangent_maps[i];
        o->tangent_maps[i] = r->rr.c.pos;
        t->width = fy_u32be(&r->rr.c, "width");
        t->height = fy_u32be(&r->rr.c, "height");
        uint64_t n = (uint64_t)t->width * t->height;
        /* An entry is at least its patch and two empty vectors. */
        if (room(r, n, 12, "tangent map entry count")) t->entries = alloc(r, n, sizeof *t->entries);
        for (uint64_t e = 0; e < n && !r->rr.c.failed; e++) {
            t->entries[e].patch = (int32_t)fy_u32be(&r->rr.c, "patch");
            for (int k = 0; k < 2 && !r->rr.c.failed; k++)
                if (!read_vector(r, &t->entries[e].tangents[k], sub, sizeof sub))
                    locate(r, "tangent_maps[%u]/entries[%llu]/tangents[%d]/%s", (unsigned)i, (unsigned long long)e,
                           k, sub);
            if (r->rr.c.failed) locate(r, "tangent_maps[%u]/entries[%llu]", (unsigned)i, (unsigned long long)e);
        }
        if (r->rr.c.failed) locate(r, "tangent_maps[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_materials(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "materials";
    if (!room(r, m->material_count, 8, "material count")) {
        locate(r, "materials");
        return false;
    }
    m->materials = alloc(r, m->material_count, sizeof *m->materials);
    o->materials = alloc(r, m->material_count, sizeof *o->materials);
    for (uint32_t i = 0; i < m->material_count && !r->rr.c.failed; i++) {
        ferry_alm_material *mat = &m->materials[i];
        o->materials[i] = r->rr.c.pos;
        mat->texture_id = (int32_t)fy_u32be(&r->rr.c, "texture_id");
        if (r->v >= FY_ALM_V_TANGENT_MAPS) {
            mat->tangent_id = (int32_t)fy_u32be(&r->rr.c, "tangent_id");
        } else {
            mat->tangent_id = -1;
            mat->weight_count = fy_u32be(&r->rr.c, "num_weights");
            if (room(r, mat->weight_count, 8, "material weight count")) {
                mat->bones = alloc(r, mat->weight_count, sizeof *mat->bones);
                mat->tangent_ids = alloc(r, mat->weight_count, sizeof *mat->tangent_ids);
                for (uint32_t k = 0; k < mat->weight_count && !r->rr.c.failed; k++) mat->bones[k] = fy_u32be(&r->rr.c, "bone");
                for (uint32_t k = 0; k < mat->weight_count && !r->rr.c.failed; k++)
                    mat->tangent_ids[k] = fy_u32be(&r->rr.c, "tangent id");
            }
        }
        if (r->rr.c.failed) locate(r, "materials[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_triangles(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "triangles";
    o->triangles = r->rr.c.pos;
    size_t remaining = fy_remaining(&r->rr.c);
    const uint8_t *p = fy_array(&r->rr.c, m->triangle_count, 16, "triangles");
    if (!p) {
        locate(r, "triangles[%zu]", remaining / 16);
        return false;
    }
    m->triangles = alloc(r, m->triangle_count, sizeof *m->triangles);
    for (uint32_t i = 0; i < m->triangle_count && m->triangles; i++, p += 16) {
        for (int k = 0; k < 3; k++) m->triangles[i].vertices[k] = fy_load_u32be(p + 4 * k);
        m->triangles[i].material = fy_load_u32be(p + 12);
    }
    return !r->rr.c.failed;
}

static bool read_collapses(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "collapses";
    bool influence = r->v >= FY_ALM_V_INFLUENCE;
    if (!room(r, m->collapse_count, (influence ? 8 : 16) + (size_t)r->fs, "collapse count")) {
        locate(r, "collapses");
        return false;
    }
    m->collapses = alloc(r, m->collapse_count, sizeof *m->collapses);
    o->collapses = alloc(r, m->collapse_count, sizeof *o->collapses);
    for (uint32_t i = 0; i < m->collapse_count && !r->rr.c.failed; i++) {
        ferry_alm_collapse *k = &m->collapses[i];
        o->collapses[i] = r->rr.c.pos;
        uint32_t first = fy_u32be(&r->rr.c, "p1 or marker");
        if (influence && first == FERRY_ALM_INFLUENCE_MARKER) {
            k->kind = FERRY_ALM_INFLUENCE_COLLAPSE;
            k->pair_count = fy_u32be(&r->rr.c, "count");
            if (room(r, k->pair_count, 8, "vertex pair count")) {
                const uint8_t *p = fy_bytes(&r->rr.c, (size_t)k->pair_count * 8, "vertex pairs");
                k->pairs = alloc(r, 2 * (uint64_t)k->pair_count, sizeof *k->pairs);
                for (uint64_t j = 0; k->pairs && j < 2 * (uint64_t)k->pair_count; j++) k->pairs[j] = fy_load_u32be(p + 4 * j);
            }
        } else {
            k->kind = FERRY_ALM_EDGE_COLLAPSE;
            k->p1 = first;
            k->p2 = fy_u32be(&r->rr.c, "p2");
            k->vl = fy_u32be(&r->rr.c, "vl");
            k->vr = fy_u32be(&r->rr.c, "vr");
        }
        k->error = real(r, "error");
        if (r->rr.c.failed) locate(r, "collapses[%u]", (unsigned)i);
    }
    return !r->rr.c.failed;
}

static bool read_frames(reader *r, ferry_alm_mesh *m, ferry_alm_offsets *o)
{
    r->section = "frames";
    o->frames = r->rr.c.pos;
    if (r->v < FY_ALM_V_FRAMES) return true;
    size_t reals_per_bone = fy_alm_frame_reals(r->v);
    size_t frame_size = (size_t)m->bone_count * reals_per_bone * r->fs;
    o->frame_size = frame_size <= UINT32_MAX ? (uint32_t)frame_size : 0;
    size_t remaining = fy_remaining(&r->rr.c);
    const uint8_t *p = fy_array(&r->rr.c, m->frame_count, frame_size, "frames");
    if (!p) {
        locate(r, "frames[%zu]", frame_size ? remaining / frame_size : (size_t)0);
        return false;
    }
    uint64_t matrices = (uint64_t)m->frame_count * m->bone_count;
    m->frames = alloc(r, matrices * 16, sizeof *m->frames);
    for (uint64_t i = 0; i < matrices && m->frames; i++) {
        const uint8_t *q = p + i * reals_per_bone * r->fs;
        double *out = m->frames + 16 * i;
        if (reals_per_bone == 16) {
            for (int k = 0; k < 16; k++) out[k] = fy_alm_load_real(q + (size_t)k * r->fs, r->fs);
        } else {
            decode_affine(q, r->fs, out);
        }
    }
    return !r->rr.c.failed;
}

static bool read_header(reader *r, ferry_alm_mesh *m, const uint8_t *data, size_t size)
{
    if (size < 8 || memcmp(data, FY_ALM_MAGIC, 4) != 0) {
        if (size >= 4 && memcmp(data, FY_ALM_MAGIC, 4) != 0) {
            fy_fail_at(&r->rr.c, 0, FERRY_ERR_MALFORMED, "not an ALM file: expected the magic \"ALM\\0\"");
            return false;
        }
        fy_need(&r->rr.c, 8, "the magic and version");
        return false;
    }
    r->rr.c.pos = 4;
    m->version = fy_u32be(&r->rr.c, "version");
    if (m->version < FERRY_ALM_VERSION_MIN || m->version > FERRY_ALM_VERSION_MAX) {
        fy_fail_at(&r->rr.c, 4, FERRY_ERR_UNSUPPORTED, "ALM version %u is not supported (versions %d to %d are)",
                   (unsigned)m->version, FERRY_ALM_VERSION_MIN, FERRY_ALM_VERSION_MAX);
        return false;
    }
    r->v = m->version;
    r->fs = fy_alm_fs(r->v);
    if (!fy_need(&r->rr.c, fy_alm_header_size(r->v) - 8, "the header")) return false;
    m->comment_count = fy_u32be(&r->rr.c, "num_comments");
    m->bone_count = fy_u32be(&r->rr.c, "num_bones");
    m->position_count = fy_u32be(&r->rr.c, "num_positions");
    m->vertex_count = fy_u32be(&r->rr.c, "num_vertices");
    m->texture_count = fy_u32be(&r->rr.c, "num_textures");
    if (r->v >= FY_ALM_V_TANGENT_MAPS) m->tangent_map_count = fy_u32be(&r->rr.c, "num_tangents");
    m->material_count = fy_u32be(&r->rr.c, "num_materials");
    m->triangle_count = fy_u32be(&r->rr.c, "num_triangles");
    m->collapse_count = fy_u32be(&r->rr.c, "num_collapses");
    if (r->v >= FY_ALM_V_FRAMES) m->frame_count = fy_u32be(&r->rr.c, "num_frames");
    if (r->v >= FY_ALM_V_BONE_STATS) {
        m->frame_rate = fy_alm_f32_to_double(fy_u32be(&r->rr.c, "frame_rate"));
        m->override_p = fy_u32be(&r->rr.c, "override_P");
    }
    return !r->rr.c.failed;
}

ferry_result ferry_alm_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                            ferry_alm_mesh **out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no out pointer");
        return FERRY_ERR_ARGUMENT;
    }
    *out = NULL;
    if (!data && size) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no data");
        return FERRY_ERR_ARGUMENT;
    }
    reader r = {.fs = 8, .section = "header"};
    ferry_alm_mesh *m = fy_record_open(&r.rr, data, size, options, size / 4, sizeof *m, err);
    if (!m) return FERRY_ERR_NOMEM;
    ferry_alm_offsets *o = ferry_arena_alloc(r.rr.arena, sizeof *o);
    if (!o) {
        ferry_arena_destroy(r.rr.arena);
        fy_error_set(r.rr.err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate the mesh");
        return FERRY_ERR_NOMEM;
    }
    m->arena = r.rr.arena;
    m->offsets = o;
    o->end = size;
    if (!read_header(&r, m, data, size)) {
        locate(&r, "header");
    } else {
        /* The P matrix follows the bones; each section needs the one before. */
        (void)(read_comments(&r, m, o) && read_bones(&r, m, o) && read_p_matrix(&r, m, o) &&
               read_positions(&r, m, o) && read_vertices(&r, m, o) && read_textures(&r, m, o) &&
               read_tangent_maps(&r, m, o) && read_materials(&r, m, o) && read_triangles(&r, m, o) &&
               read_collapses(&r, m, o) && read_frames(&r, m, o));
    }
    if (!r.rr.c.failed && r.rr.c.pos < size) {
        /* Kept, so that the file still rewrites byte for byte; validate warns. */
        m->trailing_size = size - r.rr.c.pos;
        uint8_t *copy = alloc(&r, m->trailing_size, 1);
        if (copy) memcpy(copy, data + r.rr.c.pos, m->trailing_size);
        m->trailing = copy;
        if (r.rr.c.failed) locate(&r, "trailing bytes");
    }
    locate(&r, "%s", r.section); /* only after a failure */
    ferry_result code = fy_record_close(&r.rr);
    if (code != FERRY_OK) return code;
    *out = m;
    return FERRY_OK;
}

void ferry_alm_free(ferry_alm_mesh *mesh)
{
    if (mesh && mesh->arena) ferry_arena_destroy(mesh->arena);
}

uint32_t ferry_alm_float_size(uint32_t version) { return fy_alm_fs(version); }

uint64_t fy_alm_offset(const ferry_alm_mesh *mesh, const char *section, uint64_t index)
{
    const ferry_alm_offsets *o = mesh ? mesh->offsets : NULL;
    if (!o) return FERRY_NO_OFFSET;
    switch (section[0]) {
    case 'b': return index < mesh->bone_count ? o->bones + index * o->bone_size : FERRY_NO_OFFSET;
    case 'P': return o->p_matrix;
    case 't':
        if (strcmp(section, "triangles") == 0)
            return index < mesh->triangle_count ? o->triangles + 16 * index : FERRY_NO_OFFSET;
        if (strcmp(section, "textures") == 0) return index < mesh->texture_count ? o->textures[index] : FERRY_NO_OFFSET;
        return index < mesh->tangent_map_count ? o->tangent_maps[index] : FERRY_NO_OFFSET;
    case 'f': return index < mesh->frame_count ? o->frames + index * o->frame_size : FERRY_NO_OFFSET;
    case 'c':
        if (strcmp(section, "comments") == 0) return index < mesh->comment_count ? o->comments[index] : FERRY_NO_OFFSET;
        return index < mesh->collapse_count ? o->collapses[index] : FERRY_NO_OFFSET;
    case 'p': return index < mesh->position_count ? o->positions[index] : FERRY_NO_OFFSET;
    case 'v': return index < mesh->vertex_count ? o->vertices[index] : FERRY_NO_OFFSET;
    case 'm': return index < mesh->material_count ? o->materials[index] : FERRY_NO_OFFSET;
    default: return FERRY_NO_OFFSET;
    }
}
