/* Checking an ODOL model against the rules of the format, and recomputing
 * what a file stores about its own layout. */
#include "odol_internal.h"
#include "../../core/diag_cap.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>

/* Bone names compare without regard to ASCII case, as the engine's do. */
static int name_compare(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y || !x) return x - y;
    }
}

uint32_t fy_odol_face_at_bytes(const ferry_odol_lod *lod, uint32_t bytes)
{
    uint32_t at = 0;
    for (uint32_t i = 0; i < lod->face_count; i++) {
        if (at == bytes) return i;
        if (at > bytes) return UINT32_MAX;
        at += fy_odol_face_memory_size(lod->faces[i].count);
    }
    return at == bytes ? lod->face_count : UINT32_MAX;
}

/* Where each face starts in the face block, and where the last ends
 * (face_count + 1 offsets, malloc'd; NULL when memory fails or the block
 * would pass 4 GiB). */
static uint32_t *face_starts(const ferry_odol_lod *lod)
{
    uint32_t *starts = malloc(((size_t)lod->face_count + 1) * sizeof *starts);
    if (!starts) return NULL;
    uint64_t at = 0;
    for (uint32_t i = 0; i < lod->face_count; i++) {
        starts[i] = (uint32_t)at;
        at += fy_odol_face_memory_size(lod->faces[i].count);
        if (at > UINT32_MAX) {
            free(starts);
            return NULL;
        }
    }
    starts[lod->face_count] = (uint32_t)at;
    return starts;
}

/* Whether `bytes` falls on a face boundary (fy_odol_face_at_bytes !=
 * UINT32_MAX), by a binary search of `starts` (face_starts; NULL: by
 * walking the faces). */
static bool face_boundary(const ferry_odol_lod *lod, const uint32_t *starts, uint32_t bytes)
{
    if (!starts) return fy_odol_face_at_bytes(lod, bytes) != UINT32_MAX;
    size_t lo = 0, hi = (size_t)lod->face_count + 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid] < bytes)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo <= lod->face_count && starts[lo] == bytes;
}


static uint32_t face_block_size(const ferry_odol_lod *lod)
{
    uint64_t size = 0;
    for (uint32_t i = 0; i < lod->face_count; i++) size += fy_odol_face_memory_size(lod->faces[i].count);
    return size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
}

/* A LOD's sizes as the writer lays it out: the rest size it stores (its
 * vertex data, from the size field on) and the whole LOD. */
typedef struct lod_size {
    size_t rest, total;
    bool ok;
} lod_size;

/* Measured by writing it into `scratch` (emptied first, kept for the next). */
static lod_size measure_lod(const ferry_odol_lod *lod, uint32_t version, ferry_buffer *scratch)
{
    scratch->size = 0;
    size_t rest_start = 0;
    fy_odol_write_lod(scratch, lod, version, &rest_start);
    /* Real v40 files count the size field's own 4 bytes too. */
    lod_size s = {scratch->size - rest_start + 4, scratch->size, !scratch->failed};
    return s;
}

/* Every LOD's sizes (malloc'd; NULL when memory fails). */
static lod_size *measure_lods(const ferry_odol_model *m)
{
    lod_size *sizes = calloc(m->lod_count ? m->lod_count : 1, sizeof *sizes);
    if (!sizes) return NULL;
    ferry_buffer scratch = {0};
    for (uint32_t i = 0; i < m->lod_count; i++) sizes[i] = measure_lod(&m->lods[i], m->version, &scratch);
    ferry_buffer_free(&scratch);
    return sizes;
}

/* Bytes before the first LOD: header, model info, animations, LOD table. */
static bool prefix_size(const ferry_odol_model *m, size_t *size)
{
    ferry_buffer b = {0};
    fy_odol_write_prefix(&b, m);
    *size = b.size;
    bool ok = !b.failed;
    ferry_buffer_free(&b);
    return ok;
}

static ferry_result update_layout(ferry_odol_model *m, const uint32_t *order, const lod_size *sizes, ferry_error *err);

/* ferry_odol_update with the LODs' sizes measured already (NULL: measured here). */
static ferry_result update_with(ferry_odol_model *m, const lod_size *sizes, ferry_error *err)
{
    fy_error_clear(err);
    if (m->lod_count && (!m->lod_starts || !m->lod_ends || !m->lods || !m->resolutions)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "a model with %u LODs needs lods, resolutions, lod_starts and lod_ends of that many entries",
                     m->lod_count);
        return FERRY_ERR_ARGUMENT;
    }
    if (!fy_odol_order_ok(m)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "the LOD storage order is not a permutation of the %u LODs", m->lod_count);
        return FERRY_ERR_ARGUMENT;
    }
    for (uint32_t i = 0; i < m->lod_count; i++) {
        if (m->lods[i].uv_set_count == 0 || !m->lods[i].uv_sets) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "LOD %u has no UV set; the format always stores at least one", i);
            return FERRY_ERR_ARGUMENT;
        }
    }
    uint32_t *order = m->storage_order;
    if (!order && m->lod_count) {
        order = malloc(m->lod_count * sizeof *order);
        if (!order) {
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory measuring the model");
            return FERRY_ERR_NOMEM;
        }
        fy_odol_default_order(m, order);
    }
    ferry_result rc = update_layout(m, order, sizes, err);
    if (order != m->storage_order) free(order);
    return rc;
}

ferry_result ferry_odol_update(ferry_odol_model *m, ferry_error *err) { return update_with(m, NULL, err); }

static ferry_result update_layout(ferry_odol_model *m, const uint32_t *order, const lod_size *sizes, ferry_error *err)
{
    size_t at;
    if (!prefix_size(m, &at)) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory measuring the model");
        return FERRY_ERR_NOMEM;
    }
    for (uint32_t n = 0; n < m->lod_count; n++) {
        uint32_t i = order[n];
        ferry_odol_lod *lod = &m->lods[i];
        lod->face_block_size = face_block_size(lod);
        /* The fields set here and below are of fixed size: measured
         * before or after, the LOD takes as many bytes. */
        ferry_buffer scratch = {0};
        lod_size size = sizes ? sizes[i] : measure_lod(lod, m->version, &scratch);
        ferry_buffer_free(&scratch);
        if (!size.ok) {
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory measuring LOD %u", i);
            return FERRY_ERR_NOMEM;
        }
        size_t rest = size.rest, total = size.total;
        if (at + total > UINT32_MAX) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "LOD %u would end past 4 GiB, beyond what the format's offsets can say", i);
            return FERRY_ERR_ARGUMENT;
        }
        lod->rest_size = (uint32_t)rest;
        if (m->version >= 50) lod->vertex_count = lod->positions.count;
        m->lod_starts[i] = (uint32_t)at;
        at += total;
        m->lod_ends[i] = (uint32_t)at;
    }
    return FERRY_OK;
}

/* ---- validation ---- */

typedef struct checker {
    ferry_diagnostics *d;
    char path[96];
    fy_diag_scope *scope; /* where reports are capped (NULL: all listed) */
} checker;

/* report(k, severity, offset, rule, fmt, ...), at the checker's path. */
#define report(k, severity, offset, rule, ...) \
    fy_diag_report((k)->scope, (k)->d, NULL, severity, offset, (k)->path, rule, __VA_ARGS__)

#define ERR FERRY_SEVERITY_ERROR
#define WARN FERRY_SEVERITY_WARNING

static void at(checker *k, const char *fmt, ...) FY_PRINTF(2, 3);
static void at(checker *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->path, sizeof k->path, fmt, ap);
    va_end(ap);
}

/* Element count of a condensed array (default-filled ones count too). */
static uint32_t condensed_count(const ferry_odol_condensed *c) { return c->array.count; }

static void check_vertex_array(checker *k, uint32_t count, uint32_t vertices, uint64_t offset, const char *what,
                               bool may_be_empty)
{
    if (count == vertices || (may_be_empty && count == 0)) return;
    report(k, ERR, offset, "vertex-array-size", "%s holds %u entries for %u vertices", what, count, vertices);
}

/* ---- non-finite values ----
 * NaN and infinities in positions, normals, UVs, proxy matrices, keyframes
 * and animation axes: the engine's transforms and the glTF export cannot
 * use them, so they are errors, located at the element when the array is
 * stored raw, at the array when it is compressed (convert refuses them
 * too: ferry_odol_to_scene reports the same places). */

/* The byte offset of element i: `header` bytes (the count, and a condensed
 * array's fill flag) precede a raw body; a compressed one has no per-element
 * offset, so the array's is given. */
static uint64_t element_offset(const ferry_odol_array *a, size_t header, size_t elem, uint32_t i)
{
    if (a->offset == FERRY_NO_OFFSET) return FERRY_NO_OFFSET;
    if (a->stored && a->stored == a->data && a->stored_size == (size_t)a->count * elem)
        return a->offset + header + (uint64_t)i * elem;
    return a->offset;
}

/* Checks `per` floats per element of a float array; reports the first bad
 * element and how many there are. */
static void check_float_array(checker *k, const ferry_odol_array *a, size_t header, size_t per, const char *what,
                              const char *where)
{
    if (!a->data) return;
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 0; i < a->count; i++) {
        bool ok = true;
        for (size_t c = 0; c < per; c++) ok &= isfinite(fy_odol_f32(a->data + ((size_t)i * per + c) * 4)) != 0;
        if (!ok && bad++ == 0) first = i;
    }
    if (!bad) return;
    char path[96];
    memcpy(path, k->path, sizeof path);
    at(k, "%s[%u]", where, first);
    report(k, ERR, element_offset(a, header, per * 4, first), "value-finite",
           "%s %u is not a finite number (NaN or infinite)%s", what, first,
           bad > 1 ? "; more elements of this array are not either" : "");
    memcpy(k->path, path, sizeof path);
}

static bool floats_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static void check_lod_finite(checker *k, const ferry_odol_model *m, uint32_t li)
{
    const ferry_odol_lod *l = &m->lods[li];
    char where[64];
    snprintf(where, sizeof where, "lods[%u]/positions", li);
    check_float_array(k, &l->positions, 4, 3, "vertex position", where);
    if (m->version < 45) {
        /* v45+ packs normals and UVs into integers: always finite. */
        snprintf(where, sizeof where, "lods[%u]/normals", li);
        if (l->normals.default_fill) {
            float v[3];
            for (int c = 0; c < 3; c++) v[c] = fy_odol_f32(l->normals.default_value + 4 * c);
            at(k, "%s", where);
            if (!floats_finite(v, 3))
                report(k, ERR, l->normals.array.offset == FERRY_NO_OFFSET ? FERRY_NO_OFFSET : l->normals.array.offset + 5,
                       "value-finite", "the normal filling every vertex is not a finite number");
        } else {
            check_float_array(k, &l->normals.array, 5, 3, "vertex normal", where);
        }
        for (uint32_t u = 0; l->uv_sets && u < l->uv_set_count; u++) {
            snprintf(where, sizeof where, "lods[%u]/uv_sets[%u]", li, u);
            const ferry_odol_condensed *c = &l->uv_sets[u];
            if (c->default_fill) {
                float v[2] = {fy_odol_f32(c->default_value), fy_odol_f32(c->default_value + 4)};
                at(k, "%s", where);
                if (!floats_finite(v, 2))
                    report(k, ERR, c->array.offset == FERRY_NO_OFFSET ? FERRY_NO_OFFSET : c->array.offset + 5,
                           "value-finite", "the UV filling every vertex is not a finite number");
            } else {
                check_float_array(k, &c->array, 5, 2, "texture coordinate", where);
            }
        }
    } else if (l->uv_ranges) {
        for (uint32_t u = 0; u < l->uv_set_count; u++) {
            const ferry_odol_uv_range *r = &l->uv_ranges[u];
            float v[4] = {r->min_u, r->min_v, r->max_u, r->max_v};
            at(k, "lods[%u]/uv_sets[%u]", li, u);
            if (!floats_finite(v, 4))
                report(k, ERR, FERRY_NO_OFFSET, "value-finite", "the UV set's range is not a finite number");
        }
    }
    for (uint32_t p = 0; l->proxies && p < l->proxy_count; p++) {
        at(k, "lods[%u]/proxies[%u]", li, p);
        if (!floats_finite(l->proxies[p].transform, 12))
            report(k, ERR, FERRY_NO_OFFSET, "value-finite", "proxy \"%s\": its matrix holds a value that is not a finite number",
                   l->proxies[p].model ? l->proxies[p].model : "");
    }
    for (uint32_t f = 0; l->keyframes && f < l->keyframe_count; f++) {
        const ferry_odol_keyframe *kf = &l->keyframes[f];
        at(k, "lods[%u]/keyframes[%u]", li, f);
        if (!isfinite(kf->time) || (kf->points && !floats_finite(kf->points, (size_t)kf->point_count * 3)))
            report(k, ERR, FERRY_NO_OFFSET, "value-finite", "the keyframe's time or a point is not a finite number");
    }
}

static void check_animations_finite(checker *k, const ferry_odol_animations *an)
{
    for (uint32_t c = 0; an->classes && c < an->class_count; c++) {
        const ferry_odol_animation_class *a = &an->classes[c];
        float v[12] = {a->min_phase, a->max_phase, a->min_value, a->max_value, a->params[0], a->params[1],
                       a->angle, a->axis_offset, a->axis_pos[0], a->axis_pos[1], a->axis_pos[2], a->axis_dir[0]};
        at(k, "animations/classes[%u]", c);
        if (!floats_finite(v, 12) || !floats_finite(a->axis_dir + 1, 2))
            report(k, ERR, FERRY_NO_OFFSET, "value-finite", "animation \"%s\": a value is not a finite number",
                   a->name ? a->name : "");
    }
    for (uint32_t l = 0; an->anims_to_bones && l < an->lod_count; l++)
        for (uint32_t c = 0; c < an->class_count; c++) {
            const ferry_odol_anim_bone *e = &an->anims_to_bones[(size_t)l * an->class_count + c];
            if (floats_finite(e->axis_pos, 3) && floats_finite(e->axis_dir, 3)) continue;
            at(k, "animations/anims_to_bones[%u][%u]", l, c);
            report(k, ERR, FERRY_NO_OFFSET, "value-finite", "the animation axis is not a finite number");
        }
}

/* Vertex bone references (12 bytes: a uint32 count, then 4 pairs of bytes
 * sub-skeleton bone, weight; docs/formats/odol-gltf.md): at most 4, each
 * naming a bone of the LOD's sub-skeleton, whose entries name skeleton
 * bones. The glTF export skins with them and refuses the same. */
static void check_bone_refs(checker *k, const ferry_odol_model *m, uint32_t li)
{
    const ferry_odol_lod *l = &m->lods[li];
    const ferry_odol_int_array *sub = &l->sub_skeleton_to_skeleton;
    uint32_t bones = m->info.skeleton.bones ? m->info.skeleton.bone_count : 0;
    for (uint32_t i = 0; sub->values && i < sub->count; i++)
        if (sub->values[i] < 0 || (uint32_t)sub->values[i] >= bones) {
            at(k, "lods[%u]/sub_skeleton_to_skeleton[%u]", li, i);
            report(k, ERR, FERRY_NO_OFFSET, "vertex-bone-ref", "names bone %d, but the skeleton has %u bones",
                   sub->values[i], bones);
            break;
        }
    const ferry_odol_array *a = &l->vertex_bone_refs;
    if (!a->data || a->count != l->positions.count) return;
    uint32_t bad = 0, first = 0, count = 0, index = 0;
    for (uint32_t v = 0; v < a->count; v++) {
        const uint8_t *r = a->data + (size_t)v * 12;
        uint32_t c = fy_load_u32le(r);
        bool ok = c <= 4;
        for (uint32_t q = 0; ok && q < c; q++) ok = r[4 + 2 * q] < sub->count;
        if (!ok && bad++ == 0) first = v, count = c, index = c <= 4 ? 0 : 1;
    }
    if (!bad) return;
    at(k, "lods[%u]/vertex_bone_refs[%u]", li, first);
    if (index)
        report(k, ERR, element_offset(a, 4, 12, first), "vertex-bone-ref",
               "the vertex names %u bones; at most 4 are stored (%u vertices affected)", count, bad);
    else
        report(k, ERR, element_offset(a, 4, 12, first), "vertex-bone-ref",
               "names a sub-skeleton bone the LOD lacks (it has %u; %u vertices affected)", sub->count, bad);
}

static void check_lod(checker *k, const ferry_odol_model *m, uint32_t li, const lod_size *size)
{
    const ferry_odol_lod *l = &m->lods[li];
    uint32_t nv = l->positions.count;
    at(k, "lods[%u]", li);
    uint32_t block = face_block_size(l);
    if (l->face_block_size != block)
        report(k, ERR, l->faces_offset == FERRY_NO_OFFSET ? FERRY_NO_OFFSET : l->faces_offset - 6, "face-block-size",
               "the face block is stored as %u bytes, but its %u faces take %u bytes in the engine's layout (8 per triangle, 10 per quad)",
               l->face_block_size, l->face_count, block);
    if (size && size->ok && size->rest != l->rest_size)
        report(k, ERR, FERRY_NO_OFFSET, "rest-size",
               "the vertex data is stored as %u bytes long, but it takes %zu", l->rest_size, size->rest);

    if (m->version >= 50 && l->vertex_count != nv)
        report(k, ERR, FERRY_NO_OFFSET, "vertex-count",
               "the LOD states %u vertices, but its position array holds %u", l->vertex_count, nv);

    /* Per-vertex arrays. */
    at(k, "lods[%u]/normals", li);
    check_vertex_array(k, condensed_count(&l->normals), nv, l->normals.array.offset, "the normal array", false);
    for (uint32_t u = 0; u < l->uv_set_count; u++) {
        at(k, "lods[%u]/uv_sets[%u]", li, u);
        check_vertex_array(k, condensed_count(&l->uv_sets[u]), nv, l->uv_sets[u].array.offset, "the UV set", false);
    }
    at(k, "lods[%u]/st_coords", li);
    check_vertex_array(k, l->st_coords.count, nv, l->st_coords.offset, "the tangent-space array", true);
    at(k, "lods[%u]/vertex_bone_refs", li);
    check_vertex_array(k, l->vertex_bone_refs.count, nv, l->vertex_bone_refs.offset, "the bone weight array", true);
    check_bone_refs(k, m, li);
    at(k, "lods[%u]/neighbor_bone_refs", li);
    check_vertex_array(k, l->neighbor_bone_refs.count, nv, l->neighbor_bone_refs.offset, "the neighbour weight array",
                       true);
    at(k, "lods[%u]/point_flags", li);
    check_vertex_array(k, condensed_count(&l->point_flags), nv, l->point_flags.array.offset, "the point flag array",
                       true);
    at(k, "lods[%u]/vertex_to_point", li);
    check_vertex_array(k, l->vertex_to_point.count, nv, l->vertex_to_point.offset, "the vertex-to-point map", true);
    for (uint32_t i = 0; i < l->vertex_to_point.count && l->vertex_to_point.data; i++) {
        uint16_t p = fy_odol_u16(&l->vertex_to_point, i);
        if (p >= l->point_to_vertex.count && p != 0xFFFF) {
            report(k, ERR, l->vertex_to_point.offset, "point-index",
                   "vertex %u maps to point %u, but there are %u points", i, p, l->point_to_vertex.count);
            break;
        }
    }
    at(k, "lods[%u]/point_to_vertex", li);
    for (uint32_t i = 0; i < l->point_to_vertex.count && l->point_to_vertex.data; i++) {
        uint16_t v = fy_odol_u16(&l->point_to_vertex, i);
        if (v >= nv && v != 0xFFFF) {
            report(k, ERR, l->point_to_vertex.offset, "vertex-index",
                   "point %u maps to vertex %u, but there are %u vertices", i, v, nv);
            break;
        }
    }

    /* Faces. */
    fy_diag_scope faces; /* the first few bad faces locate the problem */
    fy_diag_scope_open(&faces, 5);
    k->scope = &faces;
    for (uint32_t f = 0; f < l->face_count; f++) {
        const ferry_odol_face *face = &l->faces[f];
        for (uint8_t c = 0; c < face->count && c < 4; c++) {
            if (face->vertices[c] < nv) continue;
            at(k, "lods[%u]/faces[%u]", li, f);
            report(k, ERR, FERRY_NO_OFFSET, "face-vertex", "corner %u names vertex %u, but the LOD has %u vertices", c,
                   face->vertices[c], nv);
            break;
        }
    }
    k->scope = NULL;
    at(k, "lods[%u]/faces", li);
    fy_diag_scope_close(&faces, k->d, NULL, true, FERRY_NO_OFFSET, k->path);

    /* Sections: their bounds looked up among the faces' starts (a model
     * has thousands of faces and hundreds of sections). */
    uint32_t *starts = l->section_count ? face_starts(l) : NULL;
    for (uint32_t s = 0; s < l->section_count; s++) {
        const ferry_odol_section *sec = &l->sections[s];
        at(k, "lods[%u]/sections[%u]", li, s);
        if (sec->face_begin < 0 || sec->face_end < sec->face_begin || (uint32_t)sec->face_end > block)
            report(k, ERR, FERRY_NO_OFFSET, "section-range",
                   "the section covers bytes %d to %d of a %u-byte face block", sec->face_begin, sec->face_end, block);
        else if (!face_boundary(l, starts, (uint32_t)sec->face_begin) || !face_boundary(l, starts, (uint32_t)sec->face_end))
            report(k, ERR, FERRY_NO_OFFSET, "section-range",
                   "the section's bounds (%d, %d) do not fall on face boundaries (8 bytes per triangle, 10 per quad)",
                   sec->face_begin, sec->face_end);
        if (sec->texture != -1 && (sec->texture < 0 || (uint32_t)sec->texture >= l->texture_count))
            report(k, ERR, FERRY_NO_OFFSET, "section-texture", "texture index %d, but the LOD has %u textures",
                   sec->texture, l->texture_count);
        if (sec->material != -1 && (sec->material < 0 || (uint32_t)sec->material >= l->material_count))
            report(k, ERR, FERRY_NO_OFFSET, "section-material", "material index %d, but the LOD has %u materials",
                   sec->material, l->material_count);
    }
    free(starts);

    /* Named selections. */
    for (uint32_t s = 0; s < l->selection_count; s++) {
        const ferry_odol_selection *sel = &l->selections[s];
        at(k, "lods[%u]/selections[%u]", li, s);
        for (uint32_t i = 0; i < sel->faces.count && sel->faces.data; i++) {
            uint16_t f = fy_odol_u16(&sel->faces, i);
            if (f >= l->face_count) {
                report(k, ERR, sel->faces.offset, "selection-face",
                       "selection \"%s\" names face %u, but the LOD has %u faces", sel->name, f, l->face_count);
                break;
            }
        }
        for (uint32_t i = 0; i < sel->vertices.count && sel->vertices.data; i++) {
            uint16_t v = fy_odol_u16(&sel->vertices, i);
            if (v >= nv) {
                report(k, ERR, sel->vertices.offset, "selection-vertex",
                       "selection \"%s\" names vertex %u, but the LOD has %u vertices", sel->name, v, nv);
                break;
            }
        }
        for (uint32_t i = 0; i < sel->sections.count && sel->sections.data; i++) {
            uint32_t v = fy_load_u32le(sel->sections.data + 4 * i);
            if (v >= l->section_count) {
                report(k, ERR, sel->sections.offset, "selection-section",
                       "selection \"%s\" names section %u, but the LOD has %u sections", sel->name, v,
                       l->section_count);
                break;
            }
        }
        if (sel->weights.count && sel->weights.count != sel->vertices.count)
            report(k, ERR, sel->weights.offset, "selection-weights",
                   "selection \"%s\" has %u weights for %u vertices", sel->name, sel->weights.count,
                   sel->vertices.count);
    }

    /* Proxies. */
    for (uint32_t p = 0; p < l->proxy_count; p++) {
        const ferry_odol_proxy *px = &l->proxies[p];
        at(k, "lods[%u]/proxies[%u]", li, p);
        if (px->selection_index < 0 || (uint32_t)px->selection_index >= l->selection_count)
            report(k, ERR, FERRY_NO_OFFSET, "proxy-selection",
                   "proxy \"%s\" names selection %d, but the LOD has %u", px->model, px->selection_index,
                   l->selection_count);
        if (px->section_index != -1 && (px->section_index < 0 || (uint32_t)px->section_index >= l->section_count))
            report(k, ERR, FERRY_NO_OFFSET, "proxy-section", "proxy \"%s\" names section %d, but the LOD has %u",
                   px->model, px->section_index, l->section_count);
        if (px->bone_index != -1 &&
            (px->bone_index < 0 || (uint32_t)px->bone_index >= m->info.skeleton.bone_count))
            report(k, ERR, FERRY_NO_OFFSET, "proxy-bone", "proxy \"%s\" names bone %d, but the skeleton has %u",
                   px->model, px->bone_index, m->info.skeleton.bone_count);
    }

    check_lod_finite(k, m, li);

    /* Keyframes animate every vertex. */
    for (uint32_t f = 0; f < l->keyframe_count; f++) {
        at(k, "lods[%u]/keyframes[%u]", li, f);
        if (l->keyframes[f].point_count != nv)
            report(k, WARN, FERRY_NO_OFFSET, "keyframe-size", "the keyframe moves %u points of %u vertices",
                   l->keyframes[f].point_count, nv);
    }
}

size_t ferry_odol_validate(const ferry_odol_model *m, const ferry_odol_validate_options *options,
                           ferry_diagnostics *diags)
{
    (void)options; /* none yet */
    checker k = {diags, "", NULL};
    size_t errors_before = diags->error_count;
    at(&k, "header");
    if (m->lod_count == 0) report(&k, ERR, 8, "lod-count", "the model has no LODs");

    if (!fy_odol_order_ok(m)) {
        report(&k, ERR, FERRY_NO_OFFSET, "lod-order", "the LOD storage order is not a permutation of the LODs");
    } else if (m->storage_order) {
        /* Equal resolutions come in either order in real files (the
         * binarizer's sort is not stable), so only the descent is checked. */
        for (uint32_t i = 1; i < m->lod_count; i++) {
            if (m->resolutions[m->storage_order[i - 1]] >= m->resolutions[m->storage_order[i]]) continue;
            report(&k, WARN, FERRY_NO_OFFSET, "lod-order",
                   "the LODs are not stored by descending resolution, as the engine's binarizer stores them");
            break;
        }
    }
    for (uint32_t i = 0; i < m->lod_count; i++) {
        at(&k, "header/resolutions[%u]", i);
        float r = m->resolutions[i];
        if (!(r >= 0.0f) || r != r)
            report(&k, ERR, 12 + 4 * (uint64_t)i, "resolution", "resolution %g is not a non-negative number", (double)r);
    }

    /* Offsets agree with the data. Each LOD measured once, for this and
     * for its rest size (check_lod). */
    lod_size *sizes = measure_lods(m);
    ferry_odol_model copy = *m;
    uint32_t *starts = m->lod_count ? calloc(m->lod_count, sizeof *starts) : NULL;
    uint32_t *ends = m->lod_count ? calloc(m->lod_count, sizeof *ends) : NULL;
    ferry_odol_lod *lods = m->lod_count ? calloc(m->lod_count, sizeof *lods) : NULL;
    if (m->lod_count && starts && ends && lods) {
        memcpy(lods, m->lods, m->lod_count * sizeof *lods);
        copy.lod_starts = starts;
        copy.lod_ends = ends;
        copy.lods = lods;
        ferry_error err;
        if (sizes && update_with(&copy, sizes, &err) == FERRY_OK) {
            for (uint32_t i = 0; i < m->lod_count; i++) {
                at(&k, "lod table[%u]", i);
                if (starts[i] != m->lod_starts[i] || ends[i] != m->lod_ends[i])
                    report(&k, ERR, FERRY_NO_OFFSET, "lod-offsets",
                           "LOD %u is stored at bytes %u to %u, but its data lies at %u to %u", i, m->lod_starts[i],
                           m->lod_ends[i], starts[i], ends[i]);
            }
        }
    }
    free(starts);
    free(ends);
    free(lods);

    /* Named LOD indices. */
    at(&k, "model info");
    for (int i = 0; i < FERRY_ODOL_SPECIAL_LOD_COUNT; i++) {
        uint8_t v = m->info.special_lods[i];
        if (v != 0xFF && v >= m->lod_count)
            report(&k, ERR, FERRY_NO_OFFSET, "special-lod", "named LOD index %d is %u, but the model has %u LODs", i, v,
                   m->lod_count);
    }
    if (m->info.mass_array.count && m->info.special_lods[FERRY_ODOL_SPECIAL_LOD_GEOMETRY] < m->lod_count) {
        const ferry_odol_lod *g = &m->lods[m->info.special_lods[FERRY_ODOL_SPECIAL_LOD_GEOMETRY]];
        if (m->info.mass_array.count != g->positions.count)
            report(&k, WARN, m->info.mass_array.offset, "mass-array",
                   "the mass array holds %u values, the geometry LOD has %u points", m->info.mass_array.count,
                   g->positions.count);
    }

    /* Skeleton: parents are bones of the skeleton. model.cfg lists
     * parents first by custom, which the engine may not need: a parent
     * listed later is only a warning. */
    const ferry_odol_skeleton *sk = &m->info.skeleton;
    for (uint32_t b = 0; b < sk->bone_count; b++) {
        const char *parent = sk->bones[b].parent;
        if (!parent || !parent[0]) continue;
        uint32_t found = UINT32_MAX;
        for (uint32_t j = 0; j < sk->bone_count && found == UINT32_MAX; j++)
            if (j != b && name_compare(sk->bones[j].name, parent) == 0) found = j;
        at(&k, "skeleton/bones[%u]", b);
        if (found == UINT32_MAX)
            report(&k, ERR, FERRY_NO_OFFSET, "bone-parent", "bone \"%s\" names parent \"%s\", which is not in the skeleton",
                   sk->bones[b].name, parent);
        else if (found > b)
            report(&k, WARN, FERRY_NO_OFFSET, "bone-parent-order", "bone \"%s\" comes before its parent \"%s\"",
                   sk->bones[b].name, parent);
    }

    /* Animation tables. */
    const ferry_odol_animations *an = &m->animations;
    if (an->present) {
        for (uint32_t c = 0; c < an->class_count; c++) {
            at(&k, "animations/classes[%u]", c);
            if (an->classes[c].type > FERRY_ODOL_ANIM_HIDE)
                report(&k, ERR, FERRY_NO_OFFSET, "animation-type", "animation type %u is not one of 0..9",
                       an->classes[c].type);
        }
        for (uint32_t l = 0; l < an->lod_count; l++) {
            for (uint32_t b = 0; b < an->bone_counts[l]; b++) {
                const ferry_odol_bone_anims *ba = &an->bones_to_anims[l][b];
                for (uint32_t j = 0; j < ba->count; j++) {
                    if (ba->animations[j] < an->class_count) continue;
                    at(&k, "animations/bones_to_anims[%u][%u]", l, b);
                    report(&k, ERR, FERRY_NO_OFFSET, "animation-index",
                           "animation %u, but the model has %u animation classes", ba->animations[j], an->class_count);
                    break;
                }
            }
            for (uint32_t c = 0; c < an->class_count; c++) {
                int32_t bone = an->anims_to_bones[(size_t)l * an->class_count + c].bone;
                if (bone == -1 || (bone >= 0 && (uint32_t)bone < an->bone_counts[l])) continue;
                at(&k, "animations/anims_to_bones[%u][%u]", l, c);
                report(&k, ERR, FERRY_NO_OFFSET, "animation-bone", "bone %d, but the LOD's table has %u bones", bone,
                       an->bone_counts[l]);
            }
        }
    }

    if (an->present) check_animations_finite(&k, an);
    for (uint32_t i = 0; i < m->lod_count; i++) check_lod(&k, m, i, sizes ? &sizes[i] : NULL);
    free(sizes);
    return diags->error_count - errors_before;
}
