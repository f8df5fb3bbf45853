/* Rules over a typed ALM mesh -> diagnostics, each with a stable rule id,
 * the record's path and (for a read mesh) its byte offset. The reader only
 * checks structure; everything about indices and the collapse sequence is
 * here, so that a file with bad references can still be inspected. */
#include "alm_internal.h"
#include "../../core/diag_cap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct checker {
    const ferry_alm_mesh *m;
    ferry_diagnostics *d;
    size_t fs; /* bytes per real */
    size_t cs; /* bytes per vector component */
    /* The whole mesh: a damaged file repeats one problem per record, so
     * each rule lists its first CAP_PER_RULE; the totals count them all. */
    fy_diag_scope tally;
} checker;

#define CAP_PER_RULE 20

#define report(k, sev, offset, rule, path, ...) fy_diag_report(&(k)->tally, (k)->d, NULL, sev, offset, path, rule, __VA_ARGS__)

static uint64_t at(const checker *k, const char *section, uint64_t index, uint64_t delta)
{
    uint64_t o = fy_alm_offset(k->m, section, index);
    return o == FERRY_NO_OFFSET ? o : o + delta;
}

/* Components of a vector whose first byte is at `offset` (or none). */
static void check_vector(checker *k, const ferry_alm_vector *v, uint64_t offset, const char *where)
{
    for (uint32_t i = 0; i < v->count; i++) {
        if (v->components[i].bone < k->m->bone_count) continue;
        char path[96];
        snprintf(path, sizeof path, "%s/components[%u]", where, (unsigned)i);
        report(k, FERRY_SEVERITY_ERROR, offset == FERRY_NO_OFFSET ? offset : offset + 4 + i * k->cs, "vector-bone",
               path, "component bone %u is not below the bone count %u", (unsigned)v->components[i].bone,
               (unsigned)k->m->bone_count);
    }
}

static uint64_t vector_size(const checker *k, const ferry_alm_vector *v) { return 4 + (uint64_t)v->count * k->cs; }

static uint64_t plus(uint64_t offset, uint64_t delta) { return offset == FERRY_NO_OFFSET ? offset : offset + delta; }

/* A real that is NaN or infinite: an error where the value is drawn or
 * moves the mesh (rule value-finite), a warning for statistics that only
 * simplification and bounds use (value-finite-statistic). True if reported. */
static bool check_real(checker *k, ferry_severity sev, double x, uint64_t offset, const char *path, const char *what)
{
    if (isfinite(x)) return false;
    report(k, sev, offset, sev == FERRY_SEVERITY_ERROR ? "value-finite" : "value-finite-statistic", path, "%s is %s",
           what, isnan(x) ? "NaN" : "infinite");
    return true;
}

/* Each component's coordinates; one report per component at most. */
static void check_vector_reals(checker *k, const ferry_alm_vector *v, uint64_t offset, const char *where)
{
    for (uint32_t i = 0; i < v->count; i++)
        for (int c = 0; c < 4; c++) {
            if (isfinite(v->components[i].coords[c])) continue;
            char path[112], what[32];
            snprintf(path, sizeof path, "%s/components[%u]", where, (unsigned)i);
            snprintf(what, sizeof what, "coordinate %d", c);
            check_real(k, FERRY_SEVERITY_ERROR, v->components[i].coords[c],
                       plus(offset, 4 + i * k->cs + 4 + (uint64_t)c * k->fs), path, what);
            break;
        }
}

/* A held 4x4 (row major) stored at `offset`: 16 reals from version 5, the
 * 3x3 and the offset (12 reals) before. `use` selects entries (NULL: all
 * stored ones); one report per matrix at most. */
static void check_matrix(checker *k, ferry_severity sev, const double *m, uint64_t offset, const char *path,
                         const char *name, bool affine, bool (*use)(const void *, int), const void *ctx)
{
    for (int e = 0; e < 16; e++) {
        int r = e / 4, c = e % 4;
        if ((affine && r == 3) || (use && !use(ctx, e)) || isfinite(m[e])) continue;
        int stored = !affine ? e : c == 3 ? 9 + r : 3 * r + c;
        char what[48];
        snprintf(what, sizeof what, "%s[%d][%d]", name, r, c);
        check_real(k, sev, m[e], plus(offset, (uint64_t)stored * k->fs), path, what);
        return;
    }
}

/* Which expectation entries a bone's flags say are used (spec: bone flags). */
static bool use_expect_l(const void *ctx, int e)
{
    uint32_t f = *(const uint32_t *)ctx;
    int r = e / 4, c = e % 4;
    if (r == 3) return false;
    return c < 3 ? (f & FERRY_ALM_BONE_EXPECT_L_LINEAR) != 0 : (f & FERRY_ALM_BONE_EXPECT_L_TRANSLATE) != 0;
}

static bool use_expect_gtg(const void *ctx, int e)
{
    uint32_t f = *(const uint32_t *)ctx;
    int r = e / 4, c = e % 4;
    if (e == 15) return (f & FERRY_ALM_BONE_EXPECT_GTG_WEIGHT) != 0;
    if (r == 3) return false;
    return c < 3 ? (f & FERRY_ALM_BONE_EXPECT_GTG_LINEAR) != 0 : (f & FERRY_ALM_BONE_EXPECT_GTG_TRANSLATE) != 0;
}

static void check_bone_reals(checker *k, uint32_t i)
{
    const ferry_alm_mesh *m = k->m;
    const ferry_alm_bone *b = &m->bones[i];
    char path[48];
    snprintf(path, sizeof path, "bones[%u]", (unsigned)i);
    uint64_t off = at(k, "bones", i, 4);
    bool affine = m->version < FY_ALM_V_MATRIX4;
    check_matrix(k, FERRY_SEVERITY_ERROR, b->transform, off, path, "transform", affine, NULL, NULL);
    off = plus(off, fy_alm_frame_reals(m->version) * k->fs);
    if (m->version < FY_ALM_V_BONE_STATS) return;
    off = plus(off, 4); /* flags */
    if (m->version >= FY_ALM_V_TAILS) {
        for (int c = 0; c < 3; c++) {
            char what[16];
            snprintf(what, sizeof what, "tail[%d]", c);
            if (check_real(k, FERRY_SEVERITY_ERROR, b->tail[c], plus(off, (uint64_t)c * k->fs), path, what)) break;
        }
        off = plus(off, 3 * k->fs);
    }
    /* Bounding sphere and expectations: used by simplification and bounds,
     * not to draw; the expectations only where the flags say so. */
    const double sphere[5] = {b->max_singular, b->translate_centre[0], b->translate_centre[1], b->translate_centre[2],
                              b->translate_radius};
    static const char *const sphere_names[5] = {"max_singular", "translate_centre[0]", "translate_centre[1]",
                                                "translate_centre[2]", "translate_radius"};
    for (int c = 0; c < 5; c++)
        if (check_real(k, FERRY_SEVERITY_WARNING, sphere[c], plus(off, (uint64_t)c * k->fs), path, sphere_names[c]))
            break;
    off = plus(off, 5 * k->fs);
    check_matrix(k, FERRY_SEVERITY_WARNING, b->expect_L, off, path, "expect_L", false, use_expect_l, &b->flags);
    off = plus(off, 16 * k->fs);
    check_matrix(k, FERRY_SEVERITY_WARNING, b->expect_GTG, off, path, "expect_GTG", false, use_expect_gtg, &b->flags);
    off = plus(off, 16 * k->fs);
    if (b->flags & FERRY_ALM_BONE_EXPECT_LTGTGL)
        check_real(k, FERRY_SEVERITY_WARNING, b->expect_LTGTGL, off, path, "expect_LTGTGL");
}

/* Matrices and reals outside the bones: P (a statistic), frames. */
static void check_other_reals(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    if (m->version >= FY_ALM_V_BONE_STATS && m->override_p && m->p_matrix) {
        uint64_t n = 16 * (uint64_t)m->bone_count * m->bone_count;
        for (uint64_t e = 0; e < n; e++) {
            if (isfinite(m->p_matrix[e])) continue;
            char what[64];
            uint64_t side = 4 * (uint64_t)m->bone_count;
            snprintf(what, sizeof what, "P[%llu][%llu]", (unsigned long long)(e / side),
                     (unsigned long long)(e % side));
            check_real(k, FERRY_SEVERITY_WARNING, m->p_matrix[e],
                       m->offsets ? m->offsets->p_matrix + e * k->fs : FERRY_NO_OFFSET, "P", what);
            break;
        }
    }
    if (m->version < FY_ALM_V_FRAMES || !m->frames) return;
    bool affine = m->version < FY_ALM_V_MATRIX4;
    uint64_t bone_bytes = fy_alm_frame_reals(m->version) * k->fs;
    for (uint32_t f = 0; f < m->frame_count; f++)
        for (uint32_t b = 0; b < m->bone_count; b++) {
            const double *x = m->frames + 16 * ((uint64_t)f * m->bone_count + b);
            char path[64];
            snprintf(path, sizeof path, "frames[%u]/bones[%u]", (unsigned)f, (unsigned)b);
            check_matrix(k, FERRY_SEVERITY_ERROR, x, at(k, "frames", f, b * bone_bytes), path, "transform", affine,
                         NULL, NULL);
        }
}

static bool power_of_two(uint32_t x) { return x && !(x & (x - 1)); }

static void check_bones(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->bone_count; i++) {
        check_bone_reals(k, i);
        int32_t p = m->bones[i].parent;
        if (p == -1) continue;
        snprintf(path, sizeof path, "bones[%u]", (unsigned)i);
        if (p < -1 || (uint32_t)p >= m->bone_count)
            report(k, FERRY_SEVERITY_ERROR, at(k, "bones", i, 0), "bone-parent", path,
                   "parent %d is neither -1 nor a bone index below %u", (int)p, (unsigned)m->bone_count);
        else if ((uint32_t)p >= i)
            report(k, FERRY_SEVERITY_ERROR, at(k, "bones", i, 0), "bone-parent-order", path,
                   "parent %d does not precede bone %u (parents must come before their children)", (int)p,
                   (unsigned)i);
    }
    if (m->frame_count && m->bone_count && !m->frames)
        report(k, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "frames", "frames", "%u frames announced but none given",
               (unsigned)m->frame_count);
    if (m->version >= FY_ALM_V_BONE_STATS && m->frame_count && !(m->frame_rate > 0 && isfinite(m->frame_rate)))
        report(k, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "frame-rate", "header",
               "the file has %u frames but its frame rate %g is not a positive number", (unsigned)m->frame_count,
               m->frame_rate);
}

static void check_vertices(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->position_count; i++) {
        snprintf(path, sizeof path, "positions[%u]", (unsigned)i);
        check_vector(k, &m->positions[i], at(k, "positions", i, 0), path);
        check_vector_reals(k, &m->positions[i], at(k, "positions", i, 0), path);
    }
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const ferry_alm_vertex *v = &m->vertices[i];
        if (v->position >= m->position_count) {
            snprintf(path, sizeof path, "vertices[%u]", (unsigned)i);
            report(k, FERRY_SEVERITY_ERROR, at(k, "vertices", i, 0), "vertex-position", path,
                   "position %u is not below the position count %u", (unsigned)v->position,
                   (unsigned)m->position_count);
        }
        uint64_t off = 4;
        for (int t = 0; t < 2 && m->version >= FY_ALM_V_TANGENTS; t++) {
            snprintf(path, sizeof path, "vertices[%u]/tangents[%d]", (unsigned)i, t);
            check_vector(k, &v->tangents[t], at(k, "vertices", i, off), path);
            check_vector_reals(k, &v->tangents[t], at(k, "vertices", i, off), path);
            off += vector_size(k, &v->tangents[t]);
        }
        snprintf(path, sizeof path, "vertices[%u]", (unsigned)i);
        for (int c = 0; c < 2; c++) {
            uint64_t where = at(k, "vertices", i, off + (uint64_t)c * k->fs);
            const char *name = c ? "tex_coords[1] (t)" : "tex_coords[0] (s)";
            if (check_real(k, FERRY_SEVERITY_ERROR, v->tex_coords[c], where, path, name)) break;
            if (!(fabs(v->tex_coords[c]) < FY_FLOAT_OVERFLOW)) { /* 64-bit reals (version 2) */
                report(k, FERRY_SEVERITY_ERROR, where, "float-range", path, "%s, %g, is beyond the 32-bit float range",
                       name, v->tex_coords[c]);
                break;
            }
        }
    }
}

static void check_materials(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const ferry_alm_texture *t = &m->textures[i];
        snprintf(path, sizeof path, "textures[%u]", (unsigned)i);
        if (t->channels != 3 && t->channels != 4)
            report(k, FERRY_SEVERITY_ERROR, at(k, "textures", i, 8), "texture-channels", path,
                   "%u channels; a texture has 3 (RGB) or 4 (RGBA)", (unsigned)t->channels);
        if (!power_of_two(t->width) || !power_of_two(t->height))
            report(k, FERRY_SEVERITY_WARNING, at(k, "textures", i, 0), "texture-size", path,
                   "%ux%u: width and height should be powers of 2", (unsigned)t->width, (unsigned)t->height);
    }
    for (uint32_t i = 0; i < m->tangent_map_count && m->version >= FY_ALM_V_TANGENT_MAPS; i++) {
        const ferry_alm_tangent_map *t = &m->tangent_maps[i];
        snprintf(path, sizeof path, "tangent_maps[%u]", (unsigned)i);
        if (!power_of_two(t->width) || !power_of_two(t->height))
            report(k, FERRY_SEVERITY_WARNING, at(k, "tangent_maps", i, 0), "tangent-map-size", path,
                   "%ux%u: width and height should be powers of 2", (unsigned)t->width, (unsigned)t->height);
        uint64_t n = (uint64_t)t->width * t->height, off = 8;
        for (uint64_t e = 0; e < n; e++) {
            off += 4;
            for (int s = 0; s < 2; s++) {
                snprintf(path, sizeof path, "tangent_maps[%u]/entries[%llu]/tangents[%d]", (unsigned)i,
                         (unsigned long long)e, s);
                check_vector(k, &t->entries[e].tangents[s], at(k, "tangent_maps", i, off), path);
                check_vector_reals(k, &t->entries[e].tangents[s], at(k, "tangent_maps", i, off), path);
                off += vector_size(k, &t->entries[e].tangents[s]);
            }
        }
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ferry_alm_material *mat = &m->materials[i];
        snprintf(path, sizeof path, "materials[%u]", (unsigned)i);
        if (mat->texture_id < -1 || (mat->texture_id >= 0 && (uint32_t)mat->texture_id >= m->texture_count))
            report(k, FERRY_SEVERITY_ERROR, at(k, "materials", i, 0), "material-texture", path,
                   "texture_id %d is neither -1 nor below the texture count %u", (int)mat->texture_id,
                   (unsigned)m->texture_count);
        if (m->version >= FY_ALM_V_TANGENT_MAPS) {
            if (mat->tangent_id < -1 || (mat->tangent_id >= 0 && (uint32_t)mat->tangent_id >= m->tangent_map_count))
                report(k, FERRY_SEVERITY_ERROR, at(k, "materials", i, 4), "material-tangent-map", path,
                       "tangent_id %d is neither -1 nor below the tangent map count %u", (int)mat->tangent_id,
                       (unsigned)m->tangent_map_count);
            continue;
        }
        for (uint32_t w = 0; w < mat->weight_count; w++) {
            if (mat->bones[w] >= m->bone_count)
                report(k, FERRY_SEVERITY_ERROR, at(k, "materials", i, 8 + 4 * (uint64_t)w), "material-bone", path,
                       "weight %u names bone %u, not below the bone count %u", (unsigned)w, (unsigned)mat->bones[w],
                       (unsigned)m->bone_count);
            if (mat->tangent_ids[w] >= m->texture_count)
                report(k, FERRY_SEVERITY_ERROR,
                       at(k, "materials", i, 8 + 4 * ((uint64_t)mat->weight_count + w)), "material-tangent-texture",
                       path, "weight %u names tangent texture %u, not below the texture count %u", (unsigned)w,
                       (unsigned)mat->tangent_ids[w], (unsigned)m->texture_count);
        }
    }
}

static void check_triangles(checker *k, uint8_t *alive)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        const ferry_alm_triangle *t = &m->triangles[i];
        for (int c = 0; c < 3; c++) {
            uint32_t v = t->vertices[c];
            if (v >= m->vertex_count) {
                snprintf(path, sizeof path, "triangles[%u]", (unsigned)i);
                report(k, FERRY_SEVERITY_ERROR, at(k, "triangles", i, 4 * (uint64_t)c), "triangle-vertex", path,
                       "corner %d is vertex %u, not below the vertex count %u", c, (unsigned)v,
                       (unsigned)m->vertex_count);
            } else if (m->vertices[v].position < m->position_count) {
                alive[m->vertices[v].position] = 1;
            }
        }
        if (t->material >= m->material_count) {
            snprintf(path, sizeof path, "triangles[%u]", (unsigned)i);
            report(k, FERRY_SEVERITY_ERROR, at(k, "triangles", i, 12), "triangle-material", path,
                   "material %u is not below the material count %u", (unsigned)t->material,
                   (unsigned)m->material_count);
        }
    }
}

static bool vertex_ok(checker *k, uint32_t v) { return v < k->m->vertex_count && k->m->vertices[v].position < k->m->position_count; }

static void check_edge_collapse(checker *k, uint32_t i, const ferry_alm_collapse *c, uint8_t *alive, const char *path)
{
    const ferry_alm_mesh *m = k->m;
    uint64_t off = at(k, "collapses", i, 0);
    bool in_range = true;
    const uint32_t pos[2] = {c->p1, c->p2}, vert[2] = {c->vl, c->vr};
    for (int e = 0; e < 2; e++) {
        if (pos[e] >= m->position_count) {
            in_range = false;
            report(k, FERRY_SEVERITY_ERROR, off == FERRY_NO_OFFSET ? off : off + 4 * (uint64_t)e, "collapse-index",
                   path, "p%d %u is not below the position count %u", e + 1, (unsigned)pos[e],
                   (unsigned)m->position_count);
        }
        if (!vertex_ok(k, vert[e])) {
            in_range = false;
            report(k, FERRY_SEVERITY_ERROR, off == FERRY_NO_OFFSET ? off : off + 8 + 4 * (uint64_t)e, "collapse-index",
                   path, "%s %u is not a vertex with a valid position (vertex count %u)", e ? "vr" : "vl",
                   (unsigned)vert[e], (unsigned)m->vertex_count);
        }
    }
    if (!in_range) return;
    uint32_t target = m->vertices[c->vl].position;
    if (target != m->vertices[c->vr].position)
        report(k, FERRY_SEVERITY_ERROR, off, "collapse-vertex-position", path,
               "vl %u is on position %u but vr %u on position %u: both must be on the new position", (unsigned)c->vl,
               (unsigned)target, (unsigned)c->vr, (unsigned)m->vertices[c->vr].position);
    if (c->p1 == c->p2) {
        report(k, FERRY_SEVERITY_ERROR, off, "collapse-endpoints", path, "p1 and p2 are both position %u",
               (unsigned)c->p1);
        return;
    }
    for (int e = 0; e < 2; e++)
        if (!alive[pos[e]])
            report(k, FERRY_SEVERITY_ERROR, off == FERRY_NO_OFFSET ? off : off + 4 * (uint64_t)e, "collapse-dead-endpoint",
                   path, "p%d %u is not in the mesh at this point (unused at full resolution or removed by an "
                   "earlier collapse)", e + 1, (unsigned)pos[e]);
    if (target != c->p1 && target != c->p2 && alive[target])
        report(k, FERRY_SEVERITY_WARNING, off, "collapse-target", path,
               "the new position %u is already in the mesh: p1 and p2 merge into a third position", (unsigned)target);
    alive[c->p1] = alive[c->p2] = 0;
    alive[target] = 1;
}

static bool in_float_range(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(x[i]) < FY_FLOAT_OVERFLOW)) return false;
    return true;
}

/* Largest absolute row sum: |M v| <= norm(M) * max|v| entry by entry. */
static double row_norm(const double *m)
{
    double worst = 0;
    for (int r = 0; r < 4; r++) {
        double sum = fabs(m[4 * r]) + fabs(m[4 * r + 1]) + fabs(m[4 * r + 2]) + fabs(m[4 * r + 3]);
        if (!(sum <= worst)) worst = sum;
    }
    return worst;
}

static void report_bone_range(checker *k, uint32_t b, int64_t f)
{
    char path[64];
    if (f < 0)
        snprintf(path, sizeof path, "bones[%u]", (unsigned)b);
    else
        snprintf(path, sizeof path, "frames[%lld]/bones[%u]", (long long)f, (unsigned)b);
    uint64_t off = f < 0 ? at(k, "bones", b, 0)
                         : at(k, "frames", (uint64_t)f, b * fy_alm_frame_reals(k->m->version) * k->fs);
    if (f < 0)
        report(k, FERRY_SEVERITY_ERROR, off, "float-range", path,
               "the bone's object-space transform at rest (its matrix times its parents') goes beyond the 32-bit "
               "float range");
    else
        report(k, FERRY_SEVERITY_ERROR, off, "float-range", path,
               "the bone's object-space transform in frame %lld (its matrix times its parents') goes beyond the "
               "32-bit float range",
               (long long)f);
}

static void report_position_range(checker *k, uint32_t p, int64_t f, const double *h)
{
    char path[48];
    snprintf(path, sizeof path, "positions[%u]", (unsigned)p);
    if (f < 0)
        report(k, FERRY_SEVERITY_ERROR, at(k, "positions", p, 0), "float-range", path,
               "the skinned position at rest, (%g, %g, %g, %g), goes beyond the 32-bit float range", h[0], h[1], h[2],
               h[3]);
    else
        report(k, FERRY_SEVERITY_ERROR, at(k, "positions", p, 0), "float-range", path,
               "the skinned position in frame %lld, (%g, %g, %g, %g), goes beyond the 32-bit float range",
               (long long)f, h[0], h[1], h[2], h[3]);
}

/* Component evaluations spent on positions that might overflow in some
 * frame, beyond those at rest: bounds the time a hostile file can cost. */
#define SKIN_BUDGET 50000000u

/* What the mesh computes from finite values must stay finite in 32-bit
 * floats, the engine's (and glTF's) numbers: each bone's object-space
 * transform and each position's skinned value, at rest and in every frame
 * (rule float-range). Every position is evaluated at rest; in the frames
 * only those whose bound (the largest row norm each bone reaches over all
 * poses times the component's largest coordinate, summed) does not rule
 * an overflow out, within a budget; past it, such a position is reported
 * by its bound. Checked only when every stored value is finite, so that one
 * NaN is reported once, where it is stored. */
static void check_skinned(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    if (!m->bone_count) return;
    double *mats = malloc((size_t)m->bone_count * 16 * sizeof *mats);
    double *norm = calloc(m->bone_count, sizeof *norm);
    uint8_t *seen = calloc((size_t)m->bone_count + m->position_count, 1);
    uint8_t *bone_seen = seen, *pos_seen = seen ? seen + m->bone_count : NULL;
    uint32_t *suspect = NULL;
    size_t suspects = 0;
    if (!mats || !norm || !seen) goto done;
    for (int64_t f = -1; f < (int64_t)m->frame_count; f++) {
        if (ferry_alm_bone_matrices(m, f, mats, NULL) != FERRY_OK) goto done; /* parents: reported already */
        for (uint32_t b = 0; b < m->bone_count; b++) {
            double n = row_norm(mats + 16 * (size_t)b);
            if (!(n <= norm[b])) norm[b] = n;
            if (bone_seen[b] || in_float_range(mats + 16 * (size_t)b, 16)) continue;
            bone_seen[b] = 1;
            report_bone_range(k, b, f);
        }
        if (f >= 0) continue;
        for (uint32_t p = 0; p < m->position_count; p++) {
            double h[4];
            ferry_alm_vector_eval(&m->positions[p], mats, m->bone_count, h);
            if (in_float_range(h, 4)) continue;
            pos_seen[p] = 1;
            report_position_range(k, p, -1, h);
        }
    }
    if (!m->frame_count) goto done;
    suspect = malloc(((size_t)m->position_count + 1) * sizeof *suspect);
    if (!suspect) goto done;
    for (uint32_t p = 0; p < m->position_count; p++) {
        if (pos_seen[p]) continue;
        const ferry_alm_vector *v = &m->positions[p];
        double bound = 0;
        for (uint32_t c = 0; c < v->count; c++) {
            if (v->components[c].bone >= m->bone_count) continue;
            double big = 0;
            for (int e = 0; e < 4; e++) big = fmax(big, fabs(v->components[c].coords[e]));
            bound += norm[v->components[c].bone] * big;
        }
        if (!(bound < FY_FLOAT_OVERFLOW)) suspect[suspects++] = p;
    }
    uint64_t spent = 0;
    bool exhausted = false;
    for (uint32_t f = 0; suspects && f < m->frame_count && !exhausted; f++) {
        if (ferry_alm_bone_matrices(m, f, mats, NULL) != FERRY_OK) break;
        for (size_t i = 0; i < suspects; i++) {
            uint32_t p = suspect[i];
            if (pos_seen[p]) continue;
            spent += m->positions[p].count + 1;
            if (spent > SKIN_BUDGET) {
                exhausted = true;
                break;
            }
            double h[4];
            ferry_alm_vector_eval(&m->positions[p], mats, m->bone_count, h);
            if (in_float_range(h, 4)) continue;
            pos_seen[p] = 1;
            report_position_range(k, p, f, h);
        }
    }
    for (size_t i = 0; exhausted && i < suspects; i++) {
        uint32_t p = suspect[i];
        if (pos_seen[p]) continue;
        char path[48];
        snprintf(path, sizeof path, "positions[%u]", (unsigned)p);
        report(k, FERRY_SEVERITY_ERROR, at(k, "positions", p, 0), "float-range", path,
               "the skinned position may go beyond the 32-bit float range in some frame (its components times "
               "their bones' largest transforms reach that far; too many such positions to try every frame)");
    }
done:
    free(suspect);
    free(mats);
    free(norm);
    free(seen);
}

/* An influence collapse replaces the position its old vertices are on (the
 * influences live in the position's vector) by the simplified position its
 * new vertices are on: every old vertex on one position, every new vertex
 * on one position, usually another one that is not yet in the mesh. */
static void check_influence_collapse(checker *k, uint32_t i, const ferry_alm_collapse *c, uint8_t *alive,
                                     const char *path)
{
    const ferry_alm_mesh *m = k->m;
    uint64_t off = at(k, "collapses", i, 0);
    if (m->version < FY_ALM_V_INFLUENCE)
        report(k, FERRY_SEVERITY_ERROR, off, "collapse-kind", path,
               "an influence collapse in a version %u mesh (they exist from version 9)", (unsigned)m->version);
    uint32_t from = UINT32_MAX, to = UINT32_MAX;
    bool consistent = true;
    for (uint32_t j = 0; j < c->pair_count; j++) {
        uint64_t poff = plus(off, 8 + 8 * (uint64_t)j);
        uint32_t old = c->pairs[2 * j], young = c->pairs[2 * j + 1];
        if (!vertex_ok(k, old) || !vertex_ok(k, young)) {
            consistent = false;
            report(k, FERRY_SEVERITY_ERROR, poff, "collapse-index", path,
                   "pair %u (%u -> %u) names a vertex that is not below the vertex count %u or has no valid position",
                   (unsigned)j, (unsigned)old, (unsigned)young, (unsigned)m->vertex_count);
            continue;
        }
        uint32_t a = m->vertices[old].position, b = m->vertices[young].position;
        if (from == UINT32_MAX) {
            from = a;
            to = b;
        }
        if (a != from) {
            consistent = false;
            report(k, FERRY_SEVERITY_ERROR, poff, "influence-position", path,
                   "pair %u: old vertex %u is on position %u, but pair 0's old vertex on position %u (the old "
                   "vertices of one record are the vertices of one position)",
                   (unsigned)j, (unsigned)old, (unsigned)a, (unsigned)from);
        }
        if (b != to) {
            consistent = false;
            report(k, FERRY_SEVERITY_ERROR, plus(poff, 4), "influence-position", path,
                   "pair %u: new vertex %u is on position %u, but pair 0's new vertex on position %u (the new "
                   "vertices of one record share the simplified position)",
                   (unsigned)j, (unsigned)young, (unsigned)b, (unsigned)to);
        }
    }
    if (c->pair_count == 0)
        report(k, FERRY_SEVERITY_WARNING, off, "influence-empty", path,
               "an influence collapse with no vertex pairs changes nothing");
    if (!consistent || from == UINT32_MAX) return;
    if (!alive[from]) {
        report(k, FERRY_SEVERITY_WARNING, off, "influence-dead-position", path,
               "position %u is not in the mesh at this point", (unsigned)from);
        return;
    }
    if (to == from) return; /* vertices renamed on their own position */
    if (alive[to])
        report(k, FERRY_SEVERITY_WARNING, off, "influence-target", path,
               "the simplified position %u is already in the mesh: position %u merges into it", (unsigned)to,
               (unsigned)from);
    alive[from] = 0;
    alive[to] = 1;
}

size_t ferry_alm_validate(const ferry_alm_mesh *mesh, const ferry_alm_validate_options *options,
                          ferry_diagnostics *diags)
{
    (void)options; /* none yet */
    if (!mesh || !diags) return 0;
    size_t errors_before = diags->error_count, items_before = diags->count, dropped_before = diags->dropped;
    checker k = {mesh, diags, fy_alm_fs(mesh->version), 4 + 4 * (size_t)fy_alm_fs(mesh->version), {0}};
    fy_diag_scope_open(&k.tally, CAP_PER_RULE);
    k.tally.count_left_out = true;
    if (mesh->version < FERRY_ALM_VERSION_MIN || mesh->version > FERRY_ALM_VERSION_MAX)
        report(&k, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "version", "header", "version %u is not one of %d..%d",
               (unsigned)mesh->version, FERRY_ALM_VERSION_MIN, FERRY_ALM_VERSION_MAX);
    check_bones(&k);
    check_vertices(&k);
    check_materials(&k);
    check_other_reals(&k);
    size_t non_finite = 0;
    for (size_t i = items_before; i < diags->count; i++) non_finite += strcmp(diags->items[i].rule, "value-finite") == 0;
    if (!non_finite && diags->dropped == dropped_before) check_skinned(&k);
    uint8_t *alive = calloc(mesh->position_count ? mesh->position_count : 1, 1);
    if (!alive) {
        report(&k, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "out-of-memory", "collapses",
               "no memory to replay the %u collapses; they were not checked", (unsigned)mesh->collapse_count);
        fy_diag_scope_close(&k.tally, diags, NULL, false, 0, NULL);
        return diags->error_count - errors_before;
    }
    check_triangles(&k, alive);
    char path[96];
    for (uint32_t i = 0; i < mesh->collapse_count; i++) {
        const ferry_alm_collapse *c = &mesh->collapses[i];
        snprintf(path, sizeof path, "collapses[%u]", (unsigned)i);
        uint64_t error_at = c->kind == FERRY_ALM_INFLUENCE_COLLAPSE ? 8 + 8 * (uint64_t)c->pair_count : 16;
        check_real(&k, FERRY_SEVERITY_ERROR, c->error, at(&k, "collapses", i, error_at), path, "the error metric");
        if (c->kind == FERRY_ALM_INFLUENCE_COLLAPSE)
            check_influence_collapse(&k, i, c, alive, path);
        else
            check_edge_collapse(&k, i, c, alive, path);
    }
    free(alive);
    if (mesh->trailing_size)
        report(&k, FERRY_SEVERITY_WARNING, mesh->offsets ? mesh->offsets->end - mesh->trailing_size : FERRY_NO_OFFSET,
               "trailing-bytes", "trailing bytes", "%zu bytes follow the last frame (kept as they are)",
               mesh->trailing_size);
    fy_diag_scope_close(&k.tally, diags, NULL, false, 0, NULL);
    return diags->error_count - errors_before;
}
