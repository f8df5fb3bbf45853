/* ALM writer: ferry_alm_mesh -> big-endian bytes in mesh->version's layout.
 * What a version cannot hold (a 4x4 matrix with a bottom row other than
 * 0 0 0 1 before version 5, an influence collapse before version 9, an edge
 * collapse whose p1 reads as the influence marker) is refused rather than
 * silently changed. */
#include "alm_internal.h"

#include <stdio.h>

typedef struct writer {
    ferry_buffer *out;
    uint32_t v, fs;
    ferry_error *err;
    bool failed;
} writer;

static void refuse(writer *w, const char *path, const char *fmt, ...) FY_PRINTF(3, 4);

static void refuse(writer *w, const char *path, const char *fmt, ...)
{
    if (w->failed) return;
    w->failed = true;
    if (!w->err) return;
    va_list ap;
    va_start(ap, fmt);
    fy_error_setv(w->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, path, fmt, ap);
    va_end(ap);
}

static void u32(writer *w, uint32_t v) { fy_buf_u32be(w->out, v); }

static void real(writer *w, double x)
{
    if (w->fs == 8)
        fy_buf_f64be(w->out, x);
    else
        fy_buf_u32be(w->out, fy_alm_double_to_f32(x));
}

static void reals(writer *w, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) real(w, x[i]);
}

static bool is_affine(const double *m) { return m[12] == 0.0 && m[13] == 0.0 && m[14] == 0.0 && m[15] == 1.0; }

static void matrix(writer *w, const double *m, const char *path)
{
    if (w->v >= FY_ALM_V_MATRIX4) {
        reals(w, m, 16);
        return;
    }
    if (!is_affine(m)) {
        refuse(w, path, "version %u stores a 3x3 matrix and an offset; this matrix's bottom row is not 0 0 0 1",
               (unsigned)w->v);
        return;
    }
    static const uint8_t at[12] = {0, 1, 2, 4, 5, 6, 8, 9, 10, 3, 7, 11};
    for (int i = 0; i < 12; i++) real(w, m[at[i]]);
}

static void vector(writer *w, const ferry_alm_vector *v, const char *path)
{
    u32(w, v->count);
    if (v->count && !v->components) {
        refuse(w, path, "a vector of %u components has no component array", (unsigned)v->count);
        return;
    }
    for (uint32_t i = 0; i < v->count; i++) {
        u32(w, v->components[i].bone);
        reals(w, v->components[i].coords, 4);
    }
}

#define NEED(ptr, count, path)                                                                                  \
    do {                                                                                                       \
        if ((count) && !(ptr)) {                                                                               \
            refuse(w, path, "%u records announced but no array given", (unsigned)(count));                   \
            return;                                                                                            \
        }                                                                                                      \
    } while (0)

static void header(writer *w, const ferry_alm_mesh *m)
{
    fy_buf_append(w->out, FY_ALM_MAGIC, 4);
    u32(w, m->version);
    u32(w, m->comment_count);
    u32(w, m->bone_count);
    u32(w, m->position_count);
    u32(w, m->vertex_count);
    u32(w, m->texture_count);
    if (w->v >= FY_ALM_V_TANGENT_MAPS) u32(w, m->tangent_map_count);
    u32(w, m->material_count);
    u32(w, m->triangle_count);
    u32(w, m->collapse_count);
    if (w->v >= FY_ALM_V_FRAMES) u32(w, m->frame_count);
    if (w->v >= FY_ALM_V_BONE_STATS) {
        u32(w, fy_alm_double_to_f32(m->frame_rate));
        u32(w, m->override_p);
    }
}

static void body(writer *w, const ferry_alm_mesh *m)
{
    NEED(m->comments, m->comment_count, "comments");
    for (uint32_t i = 0; i < m->comment_count; i++) {
        const char *text = m->comments[i] ? m->comments[i] : "";
        size_t len = m->comment_lengths ? m->comment_lengths[i] : strlen(text);
        if (len > UINT32_MAX) {
            refuse(w, "comments", "a comment is longer than 4 GiB");
            return;
        }
        u32(w, (uint32_t)len);
        fy_buf_append(w->out, text, len);
    }
    NEED(m->bones, m->bone_count, "bones");
    for (uint32_t i = 0; i < m->bone_count && !w->failed; i++) {
        const ferry_alm_bone *b = &m->bones[i];
        u32(w, (uint32_t)b->parent);
        matrix(w, b->transform, "bones");
        if (w->v >= FY_ALM_V_BONE_STATS) u32(w, b->flags);
        if (w->v >= FY_ALM_V_TAILS) reals(w, b->tail, 3);
        if (w->v >= FY_ALM_V_BONE_STATS) {
            real(w, b->max_singular);
            reals(w, b->translate_centre, 3);
            real(w, b->translate_radius);
            reals(w, b->expect_L, 16);
            reals(w, b->expect_GTG, 16);
            real(w, b->expect_LTGTGL);
        }
    }
    if (w->v >= FY_ALM_V_BONE_STATS && m->override_p) {
        uint64_t side = 4 * (uint64_t)m->bone_count;
        NEED(m->p_matrix, side, "P");
        reals(w, m->p_matrix, (size_t)(side * side));
    }
    NEED(m->positions, m->position_count, "positions");
    for (uint32_t i = 0; i < m->position_count; i++) vector(w, &m->positions[i], "positions");
    NEED(m->vertices, m->vertex_count, "vertices");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const ferry_alm_vertex *vx = &m->vertices[i];
        u32(w, vx->position);
        if (w->v >= FY_ALM_V_TANGENTS) {
            vector(w, &vx->tangents[0], "vertices");
            vector(w, &vx->tangents[1], "vertices");
        }
        reals(w, vx->tex_coords, 2);
    }
    NEED(m->textures, m->texture_count, "textures");
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const ferry_alm_texture *t = &m->textures[i];
        u32(w, t->width);
        u32(w, t->height);
        u32(w, t->channels);
        u32(w, t->is_signed);
        uint64_t n = (uint64_t)t->width * t->height;
        if (t->channels && n > SIZE_MAX / t->channels) {
            refuse(w, "textures", "a texture is too large");
            return;
        }
        n *= t->channels;
        NEED(t->values, n, "textures");
        fy_buf_append(w->out, t->values, (size_t)n);
    }
    if (w->v >= FY_ALM_V_TANGENT_MAPS) {
        NEED(m->tangent_maps, m->tangent_map_count, "tangent_maps");
        for (uint32_t i = 0; i < m->tangent_map_count; i++) {
            const ferry_alm_tangent_map *t = &m->tangent_maps[i];
            u32(w, t->width);
            u32(w, t->height);
            uint64_t n = (uint64_t)t->width * t->height;
            NEED(t->entries, n, "tangent_maps");
            for (uint64_t e = 0; e < n; e++) {
                u32(w, (uint32_t)t->entries[e].patch);
                vector(w, &t->entries[e].tangents[0], "tangent_maps");
                vector(w, &t->entries[e].tangents[1], "tangent_maps");
            }
        }
    }
    NEED(m->materials, m->material_count, "materials");
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ferry_alm_material *mat = &m->materials[i];
        u32(w, (uint32_t)mat->texture_id);
        if (w->v >= FY_ALM_V_TANGENT_MAPS) {
            u32(w, (uint32_t)mat->tangent_id);
        } else {
            u32(w, mat->weight_count);
            NEED(mat->bones, mat->weight_count, "materials");
            NEED(mat->tangent_ids, mat->weight_count, "materials");
            for (uint32_t k = 0; k < mat->weight_count; k++) u32(w, mat->bones[k]);
            for (uint32_t k = 0; k < mat->weight_count; k++) u32(w, mat->tangent_ids[k]);
        }
    }
    NEED(m->triangles, m->triangle_count, "triangles");
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        for (int k = 0; k < 3; k++) u32(w, m->triangles[i].vertices[k]);
        u32(w, m->triangles[i].material);
    }
    NEED(m->collapses, m->collapse_count, "collapses");
    for (uint32_t i = 0; i < m->collapse_count && !w->failed; i++) {
        const ferry_alm_collapse *k = &m->collapses[i];
        if (k->kind == FERRY_ALM_INFLUENCE_COLLAPSE) {
            if (w->v < FY_ALM_V_INFLUENCE)
                {
            refuse(w, "collapses", "collapse %u is an influence collapse, which version %u cannot hold",
                              (unsigned)i, (unsigned)w->v);
            return;
        }
            NEED(k->pairs, k->pair_count, "collapses");
            u32(w, FERRY_ALM_INFLUENCE_MARKER);
            u32(w, k->pair_count);
            for (uint64_t j = 0; j < 2 * (uint64_t)k->pair_count; j++) u32(w, k->pairs[j]);
        } else {
            if (w->v >= FY_ALM_V_INFLUENCE && k->p1 == FERRY_ALM_INFLUENCE_MARKER)
                {
            refuse(w, "collapses", "edge collapse %u has p1 0xFFFFFFFF, which would read as an influence collapse",
                              (unsigned)i);
            return;
        }
            u32(w, k->p1);
            u32(w, k->p2);
            u32(w, k->vl);
            u32(w, k->vr);
        }
        real(w, k->error);
    }
    if (w->v >= FY_ALM_V_FRAMES) {
        uint64_t matrices = (uint64_t)m->frame_count * m->bone_count;
        NEED(m->frames, matrices, "frames");
        for (uint64_t i = 0; i < matrices && !w->failed; i++) matrix(w, m->frames + 16 * i, "frames");
    }
    NEED(m->trailing, m->trailing_size, "trailing bytes");
    if (m->trailing_size) fy_buf_append(w->out, m->trailing, m->trailing_size);
}

ferry_result ferry_alm_write(const ferry_alm_mesh *mesh, ferry_buffer *out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!mesh || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no mesh or no output buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (mesh->version < FERRY_ALM_VERSION_MIN || mesh->version > FERRY_ALM_VERSION_MAX) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "ALM version %u cannot be written (versions %d to %d can)", (unsigned)mesh->version,
                     FERRY_ALM_VERSION_MIN, FERRY_ALM_VERSION_MAX);
        return FERRY_ERR_UNSUPPORTED;
    }
    size_t start = out->size;
    writer w = {out, mesh->version, fy_alm_fs(mesh->version), err, false};
    header(&w, mesh);
    body(&w, mesh);
    if (!w.failed && out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory while writing");
        return FERRY_ERR_NOMEM;
    }
    if (w.failed) {
        out->size = start;
        return FERRY_ERR_ARGUMENT;
    }
    return FERRY_OK;
}
