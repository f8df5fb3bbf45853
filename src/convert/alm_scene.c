/* ALM mesh (at a level of detail) -> ferry_scene: a node per bone, one
 * primitive per material, and either a standard skin (when every position
 * is a weighted copy of one point) or every frame baked as a morph target,
 * so that the animation stays exact. Textures are in alm_scene_material.c;
 * docs/formats/alm.md ("glTF export") explains every decision. */
#include "alm_scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A local matrix counts as translation-rotation-scale when rebuilding it
 * from its TRS misses by at most this much, relative to its largest entry
 * (float32 values carry about 1e-7). */
#define TRS_TOLERANCE 1e-4
#define DEFAULT_SKIN_TOLERANCE 1e-5
#define DEFAULT_FRAME_RATE 30.0

void *fy_alm_alloc(fy_alm_build *b, size_t count, size_t size) { return fy_scene_alloc(b->arena, b->err, count, size); }

/* ---- row-major 4x4 in double (ALM's own convention: p' = M p) ---- */

static const double *rest_local(const ferry_alm_mesh *m, uint32_t bone) { return m->bones[bone].transform; }

/* ---- checks: the converter takes meshes validate has not seen ---- */

#define BAD(...)                                                                      \
    do {                                                                              \
        fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, __VA_ARGS__);   \
        return false;                                                                 \
    } while (0)

static bool check_vector(const ferry_alm_vector *v, uint32_t bone_count, const char *path, ferry_error *err)
{
    if (v->count && !v->components) BAD("has %u components but no data", (unsigned)v->count);
    for (uint32_t c = 0; c < v->count; c++)
        if (v->components[c].bone >= bone_count)
            BAD("component %u names bone %u; there are %u bones", (unsigned)c, (unsigned)v->components[c].bone,
                (unsigned)bone_count);
    return true;
}

static bool check_mesh(const ferry_alm_mesh *m, const ferry_alm_lod *lod, ferry_error *err)
{
    char path[96] = "";
    if ((m->bone_count && !m->bones) || (m->position_count && !m->positions) || (m->vertex_count && !m->vertices) ||
        (m->texture_count && !m->textures) || (m->tangent_map_count && !m->tangent_maps) ||
        (m->material_count && !m->materials) || (m->triangle_count && !m->triangles) ||
        (m->frame_count && m->bone_count && !m->frames))
        BAD("a count is non-zero but its array is missing");
    for (uint32_t i = 0; i < m->bone_count; i++) {
        int32_t p = m->bones[i].parent;
        snprintf(path, sizeof path, "bones[%u]", (unsigned)i);
        if (p < -1 || p >= (int32_t)i) BAD("parent %d must be -1 or an earlier bone", (int)p);
    }
    for (uint32_t i = 0; i < m->position_count; i++) {
        snprintf(path, sizeof path, "positions[%u]", (unsigned)i);
        if (!check_vector(&m->positions[i], m->bone_count, path, err)) return false;
    }
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const ferry_alm_vertex *v = &m->vertices[i];
        snprintf(path, sizeof path, "vertices[%u]", (unsigned)i);
        if (v->position >= m->position_count)
            BAD("position %u is out of range (%u positions)", (unsigned)v->position, (unsigned)m->position_count);
        for (int k = 0; k < 2 && m->version >= 7; k++) {
            snprintf(path, sizeof path, "vertices[%u]/tangents[%d]", (unsigned)i, k);
            if (!check_vector(&v->tangents[k], m->bone_count, path, err)) return false;
        }
    }
    for (uint32_t i = 0; i < m->tangent_map_count; i++) {
        const ferry_alm_tangent_map *tm = &m->tangent_maps[i];
        uint64_t n = (uint64_t)tm->width * tm->height;
        for (uint64_t e = 0; e < n && tm->entries; e++)
            for (int k = 0; k < 2; k++) {
                snprintf(path, sizeof path, "tangent_maps[%u]/entries[%llu]/tangents[%d]", (unsigned)i,
                         (unsigned long long)e, k);
                if (!check_vector(&tm->entries[e].tangents[k], m->bone_count, path, err)) return false;
            }
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ferry_alm_material *mt = &m->materials[i];
        snprintf(path, sizeof path, "materials[%u]", (unsigned)i);
        if (mt->texture_id < -1 || (mt->texture_id >= 0 && (uint32_t)mt->texture_id >= m->texture_count))
            BAD("texture_id %d is out of range (%u textures)", (int)mt->texture_id, (unsigned)m->texture_count);
        if (m->version >= 8 && (mt->tangent_id < -1 || (mt->tangent_id >= 0 && (uint32_t)mt->tangent_id >= m->tangent_map_count)))
            BAD("tangent_id %d is out of range (%u tangent maps)", (int)mt->tangent_id, (unsigned)m->tangent_map_count);
        if (m->version < 8) {
            if (mt->weight_count && (!mt->bones || !mt->tangent_ids)) BAD("weights announced but missing");
            for (uint32_t k = 0; k < mt->weight_count; k++)
                if (mt->tangent_ids[k] >= m->texture_count)
                    BAD("tangent_ids[%u] is %u, out of range (%u textures)", (unsigned)k, (unsigned)mt->tangent_ids[k],
                        (unsigned)m->texture_count);
        }
    }
    const ferry_alm_triangle *tris = lod ? lod->triangles : m->triangles;
    uint32_t tri_count = lod ? lod->triangle_count : m->triangle_count;
    uint32_t vcount = lod ? lod->vertex_count : m->vertex_count;
    if (lod) {
        snprintf(path, sizeof path, "lod");
        if ((lod->vertex_count && !lod->vertex_source) || (lod->triangle_count && !lod->triangles))
            BAD("a count is non-zero but its array is missing");
        for (uint32_t i = 0; i < lod->vertex_count; i++)
            if (lod->vertex_source[i] >= m->vertex_count)
                BAD("vertex %u is mesh vertex %u, out of range (%u vertices)", (unsigned)i,
                    (unsigned)lod->vertex_source[i], (unsigned)m->vertex_count);
    }
    for (uint32_t i = 0; i < tri_count; i++) {
        snprintf(path, sizeof path, "%striangles[%u]", lod ? "lod/" : "", (unsigned)i);
        for (int k = 0; k < 3; k++)
            if (tris[i].vertices[k] >= vcount)
                BAD("vertex %u is out of range (%u vertices)", (unsigned)tris[i].vertices[k], (unsigned)vcount);
        if (tris[i].material >= m->material_count)
            BAD("material %u is out of range (%u materials)", (unsigned)tris[i].material, (unsigned)m->material_count);
    }
    return true;
}

/* ---- the skin decision ---- */

typedef struct influence {
    uint32_t bone;
    double coords[4];
} influence;

static int by_bone(const void *a, const void *b)
{
    uint32_t x = ((const influence *)a)->bone, y = ((const influence *)b)->bone;
    return (x > y) - (x < y);
}

static int by_weight_desc(const void *a, const void *b)
{
    double x = ((const influence *)a)->coords[3], y = ((const influence *)b)->coords[3];
    if (x != y) return x < y ? 1 : -1;
    return by_bone(a, b);
}

typedef struct geometry {
    uint32_t vcount;           /* exported vertices */
    const uint32_t *vsrc;      /* mesh vertex of each, or NULL for the identity */
    const ferry_alm_triangle *tris;
    uint32_t tri_count;
    uint8_t *used;             /* per position: referenced by an exported vertex */
    double *rest_pos;          /* 3 per position (used ones) */
    uint16_t *joints;          /* 4 per position, skin path */
    float *weights;            /* 4 per position, skin path */
    bool skinned;
    const char *reason;
} geometry;

static uint32_t source_vertex(const geometry *g, uint32_t v) { return g->vsrc ? g->vsrc[v] : v; }

/* Whether every used position is sum_i w_i (G_i^-1 x) for one point x
 * with weights w_i > 0 summing to 1, so that linear blend skinning gives
 * exactly what ALM gives in every pose; fills the four largest influences. */
static bool weighted_copies(fy_alm_build *b, geometry *g, ferry_alm_scene_report *rep, const char **reason)
{
    const ferry_alm_mesh *m = b->mesh;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    uint32_t most = 0;
    for (uint32_t p = 0; p < m->position_count; p++) {
        if (!g->used[p]) continue;
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], g->rest_pos[p * 3 + k]), hi[k] = fmax(hi[k], g->rest_pos[p * 3 + k]);
        if (m->positions[p].count > most) most = m->positions[p].count;
    }
    double extent = 0;
    for (int k = 0; k < 3; k++) extent += hi[k] > lo[k] ? (hi[k] - lo[k]) * (hi[k] - lo[k]) : 0;
    extent = sqrt(extent);
    double rel = b->opts->skin_tolerance > 0 ? b->opts->skin_tolerance : DEFAULT_SKIN_TOLERANCE;
    double tol = rel * (extent > 0 ? extent : 1.0);
    if (m->bone_count > 65536) {
        *reason = "more bones than JOINTS_0 can index";
        return false;
    }
    influence *inf = malloc((most ? most : 1) * sizeof *inf);
    if (!inf) {
        fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        *reason = NULL;
        return false;
    }
    bool ok = true;
    for (uint32_t p = 0; p < m->position_count && ok; p++) {
        if (!g->used[p]) continue;
        const ferry_alm_vector *v = &m->positions[p];
        /* One influence per bone: components naming a bone twice add up. */
        uint32_t n = 0;
        for (uint32_t c = 0; c < v->count; c++) {
            inf[n].bone = v->components[c].bone;
            memcpy(inf[n].coords, v->components[c].coords, sizeof inf[n].coords);
            n++;
        }
        qsort(inf, n, sizeof *inf, by_bone);
        uint32_t merged = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (merged && inf[merged - 1].bone == inf[i].bone) {
                for (int k = 0; k < 4; k++) inf[merged - 1].coords[k] += inf[i].coords[k];
            } else {
                inf[merged++] = inf[i];
            }
        }
        const double *x = g->rest_pos + (size_t)p * 3;
        double miss = 0, sum = 0;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < merged; i++) {
            const double *c = inf[i].coords;
            if (c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0) continue;
            if (!(c[3] > 0)) {
                *reason = "a position has a bone weight (4th coordinate) that is not positive";
                ok = false;
                break;
            }
            const double *gm = b->rest + (size_t)inf[i].bone * 16;
            for (int r = 0; r < 3; r++) {
                double y = gm[r * 4] * c[0] + gm[r * 4 + 1] * c[1] + gm[r * 4 + 2] * c[2] + gm[r * 4 + 3] * c[3];
                double d = y - c[3] * x[r];
                miss += d * d;
            }
            sum += c[3];
            inf[kept++] = inf[i];
        }
        if (!ok) break;
        if (!(sqrt(miss) <= tol)) {
            *reason = "a position's per-bone vectors are not weighted copies of one point (animation-space vectors)";
            ok = false;
            break;
        }
        if (!(fabs(sum - 1.0) <= 1e-3)) {
            *reason = "a position's bone weights do not sum to 1";
            ok = false;
            break;
        }
        qsort(inf, kept, sizeof *inf, by_weight_desc);
        if (kept > rep->max_influences) rep->max_influences = kept;
        if (kept > 4) {
            rep->positions_truncated++;
            if (inf[4].coords[3] / sum > rep->max_dropped_weight) rep->max_dropped_weight = inf[4].coords[3] / sum;
        }
        double top = 0;
        for (uint32_t i = 0; i < kept && i < 4; i++) top += inf[i].coords[3];
        for (uint32_t i = 0; i < 4; i++) {
            g->joints[p * 4 + i] = i < kept ? (uint16_t)inf[i].bone : 0;
            g->weights[p * 4 + i] = i < kept ? (float)(inf[i].coords[3] / top) : 0.0f;
        }
    }
    free(inf);
    return ok;
}

/* Frames must be affine TRS too, or glTF's node animation would not be ALM's. */
static bool frames_are_trs(const ferry_alm_mesh *m, const char **reason)
{
    float t[3], q[4], s[3];
    for (uint32_t i = 0; i < m->bone_count; i++) {
        if (fy_mat4d_to_trs_nearest(rest_local(m, i), t, q, s) > TRS_TOLERANCE) {
            *reason = "a bone's rest matrix is not translation-rotation-scale";
            return false;
        }
    }
    for (uint64_t k = 0; k < (uint64_t)m->frame_count * m->bone_count; k++) {
        if (fy_mat4d_to_trs_nearest(m->frames + k * 16, t, q, s) > TRS_TOLERANCE) {
            *reason = "a frame's bone matrix is not translation-rotation-scale";
            return false;
        }
    }
    return true;
}

/* ---- nodes, skin ---- */

static bool add_bones(fy_alm_build *b, float *world)
{
    ferry_arena *ja = b->arena;
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    uint32_t roots = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) roots += m->bones[i].parent < 0;
    b->bone_node0 = roots > 1 ? 1 : 0;
    if (b->bone_node0) {
        /* An identity node holding the root bones, so that the joints have
         * one common root; it adds nothing to any bone's transform. */
        ferry_scene_node *n = &s->nodes[s->node_count++];
        ferry_scene_node_init(n);
        n->name = "skeleton";
    }
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ferry_alm_bone *bone = &m->bones[i];
        ferry_scene_node *n = &s->nodes[s->node_count++];
        ferry_scene_node_init(n);
        char name[32];
        snprintf(name, sizeof name, "bone %u", (unsigned)i);
        n->name = ferry_arena_strdup(b->arena, name);
        FY_SET_REF(n, parent, bone->parent >= 0 ? bone->parent + b->bone_node0 : (b->bone_node0 ? 0 : -1));
        double miss = fy_mat4d_to_trs_nearest(bone->transform, n->translation, n->rotation, n->scale);
        float local[16];
        fy_mat4_from_trs(n->translation, n->rotation, n->scale, local);
        if (bone->parent >= 0)
            fy_mat4_mul(world + (size_t)bone->parent * 16, local, world + (size_t)i * 16);
        else
            memcpy(world + (size_t)i * 16, local, sizeof local);
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "alm_bone", fy_jinteger(ja, i));
        if (m->version >= 6) fy_jset(ja, x, "flags", fy_jinteger(ja, bone->flags));
        if (m->version >= 10) fy_jset(ja, x, "tail", fy_jdoubles(ja, bone->tail, 3));
        if (!(miss <= TRS_TOLERANCE)) {
            /* Shear or a projective row: the node holds the closest TRS. */
            fy_jset(ja, x, "rest_matrix_row_major", fy_jdoubles(ja, bone->transform, 16));
            fy_jset(ja, x, "not_trs", fy_jbool(ja, true));
            fy_jset(ja, x, "trs_miss", fy_jreal_or_null(ja, miss));
        }
        n->extras = x;
        if (!n->name || !n->extras) return false;
    }
    return true;
}

/* world NULL: a skin of the bones alone, for no mesh (skin_all_bones):
 * its inverse bind matrices stay identities, which nothing reads. */
static bool add_skin(fy_alm_build *b, const float *world)
{
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    s->skins = fy_alm_alloc(b, 1, sizeof *s->skins);
    int32_t *joints = fy_alm_alloc(b, m->bone_count, sizeof *joints);
    float *ibm = world ? fy_alm_alloc(b, m->bone_count, 16 * sizeof *ibm) : NULL;
    if (!s->skins || !joints || (world && !ibm)) return false;
    int32_t root = -1, roots = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        joints[i] = (int32_t)i + b->bone_node0; /* bone i is node i (after the skeleton node, if any) */
        /* The inverse of what the nodes compose to (not of the file's
         * matrices), so that the rest pose gives back the positions exactly. */
        if (world) fy_mat4_invert(world + (size_t)i * 16, ibm + (size_t)i * 16);
        if (m->bones[i].parent < 0) root = (int32_t)i, roots++;
    }
    ferry_scene_skin *sk = &s->skins[0];
    sk->name = s->name;
    sk->joints = joints;
    sk->joint_count = m->bone_count;
    sk->inverse_bind_matrices = ibm;
    FY_SET_REF(sk, skeleton, roots == 1 ? root + b->bone_node0 : (b->bone_node0 ? 0 : -1));
    s->skin_count = 1;
    return true;
}

/* ---- geometry ---- */

static void normalize3(double v[3], const double fallback[3])
{
    double len = fy_vec3d_length(v);
    if (len > 1e-30 && isfinite(len)) {
        for (int k = 0; k < 3; k++) v[k] /= len;
    } else {
        memcpy(v, fallback, 3 * sizeof *v);
    }
}

/* Unit normals per exported vertex: the rest-pose tangent plane's
 * (span[0] x span[1], counter-clockwise as the triangles) where the file
 * has one, else the area-weighted face normals around the position. */
static bool vertex_normals(fy_alm_build *b, const geometry *g, double *normals)
{
    const ferry_alm_mesh *m = b->mesh;
    double *face = calloc((size_t)m->position_count * 3 + 1, sizeof *face);
    if (!face) return false;
    for (uint32_t t = 0; t < g->tri_count; t++) {
        uint32_t p[3];
        for (int k = 0; k < 3; k++) p[k] = m->vertices[source_vertex(g, g->tris[t].vertices[k])].position;
        const double *a = g->rest_pos + (size_t)p[0] * 3, *c1 = g->rest_pos + (size_t)p[1] * 3, *c2 = g->rest_pos + (size_t)p[2] * 3;
        double e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++) e1[k] = c1[k] - a[k], e2[k] = c2[k] - a[k];
        fy_vec3d_cross(e1, e2, n);
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) face[(size_t)p[v] * 3 + k] += n[k];
    }
    static const double up[3] = {0, 0, 1};
    for (uint32_t v = 0; v < g->vcount; v++) {
        const ferry_alm_vertex *vx = &m->vertices[source_vertex(g, v)];
        double *out = normals + (size_t)v * 3;
        bool done = false;
        if (m->version >= 7 && vx->tangents[0].count && vx->tangents[1].count) {
            double t0[4], t1[4];
            ferry_alm_vector_eval(&vx->tangents[0], b->rest, m->bone_count, t0);
            ferry_alm_vector_eval(&vx->tangents[1], b->rest, m->bone_count, t1);
            fy_vec3d_cross(t0, t1, out);
            double len = fy_vec3d_length(out);
            double scale = fy_vec3d_length(t0) * fy_vec3d_length(t1);
            if (isfinite(len) && len > 1e-9 * scale && len > 0) {
                for (int k = 0; k < 3; k++) out[k] /= len;
                done = true;
            }
        }
        if (!done) {
            memcpy(out, face + (size_t)vx->position * 3, 3 * sizeof *out);
            normalize3(out, up);
        }
    }
    free(face);
    return true;
}

/* One primitive per material with triangles: its own compact vertex list. */
/* Values glTF stores as 32-bit floats must fit them: a finite file whose
 * sums or differences leave the range is refused as malformed, naming the
 * position (ferry_alm_validate's float-range rule finds the same at rest
 * and in every frame). */
#define FLOAT_OVERFLOW 0x1.ffffffp+127 /* FLT_MAX + half its last unit: rounds to infinity */

static bool float_range(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(x[i]) < FLOAT_OVERFLOW)) return false;
    return true;
}

static bool out_of_range(fy_alm_build *b, uint32_t p, int64_t frame, const double *x)
{
    const ferry_alm_mesh *m = b->mesh;
    char path[48];
    snprintf(path, sizeof path, "positions[%u]", (unsigned)p);
    uint64_t off = m->offsets && m->offsets->positions && p < m->position_count ? m->offsets->positions[p] : FERRY_NO_OFFSET;
    if (frame < 0)
        fy_error_set(b->err, FERRY_ERR_MALFORMED, off, path,
                     "the skinned position at rest, (%g, %g, %g), goes beyond the 32-bit float range", x[0], x[1], x[2]);
    else
        fy_error_set(b->err, FERRY_ERR_MALFORMED, off, path,
                     "the position's move from rest to frame %lld, (%g, %g, %g), goes beyond the 32-bit float range",
                     (long long)frame, x[0], x[1], x[2]);
    return false;
}

/* Whether every joint's composed rest transform has a finite inverse (the
 * inverse bind matrix); if not, the mesh goes the morph-target way. */
static bool joints_invertible(const ferry_alm_mesh *m, const float *world)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        float inv[16];
        if (!fy_mat4_invert(world + (size_t)i * 16, inv)) return false;
        for (int e = 0; e < 16; e++)
            if (!isfinite(inv[e])) return false;
    }
    return true;
}

static bool add_mesh(fy_alm_build *b, geometry *g, ferry_alm_scene_report *rep)
{
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    uint32_t *local = malloc(((size_t)g->vcount + 1) * sizeof *local);
    uint32_t *order = malloc(((size_t)g->vcount + 1) * sizeof *order);
    uint32_t *per_material = calloc((size_t)m->material_count + 1, sizeof *per_material);
    double *normals = malloc(((size_t)g->vcount + 1) * 3 * sizeof *normals);
    bool ok = local && order && per_material && normals && vertex_normals(b, g, normals);
    size_t prim_count = 0;
    for (uint32_t t = 0; ok && t < g->tri_count; t++) prim_count += per_material[g->tris[t].material]++ == 0;
    ferry_scene_mesh *mesh = ok ? fy_alm_alloc(b, 1, sizeof *mesh) : NULL;
    ferry_scene_primitive *prims = ok ? fy_alm_alloc(b, prim_count, sizeof *prims) : NULL;
    ok = ok && mesh && prims;
    double *frame_mats = NULL;
    if (ok && !g->skinned && m->frame_count > 0 && m->bone_count) {
        frame_mats = malloc((size_t)m->frame_count * m->bone_count * 16 * sizeof *frame_mats);
        ok = frame_mats != NULL;
        for (uint32_t f = 0; ok && f < m->frame_count; f++)
            ok = ferry_alm_bone_matrices(m, f, frame_mats + (size_t)f * m->bone_count * 16, b->err) == FERRY_OK;
    }
    size_t pi = 0;
    for (uint32_t mat = 0; ok && mat < m->material_count; mat++) {
        if (!per_material[mat]) continue;
        for (uint32_t v = 0; v < g->vcount; v++) local[v] = UINT32_MAX;
        uint32_t n = 0;
        uint32_t *idx = fy_alm_alloc(b, (size_t)per_material[mat] * 3, sizeof *idx);
        if (!idx) {
            ok = false;
            break;
        }
        size_t ic = 0;
        for (uint32_t t = 0; t < g->tri_count; t++) {
            if (g->tris[t].material != mat) continue;
            for (int k = 0; k < 3; k++) {
                uint32_t v = g->tris[t].vertices[k];
                if (local[v] == UINT32_MAX) order[n] = v, local[v] = n++;
                idx[ic++] = local[v];
            }
        }
        ferry_scene_primitive *pr = &prims[pi++];
        float *pos = fy_alm_alloc(b, n, 3 * sizeof *pos);
        float *nor = fy_alm_alloc(b, n, 3 * sizeof *nor);
        float *uv = fy_alm_alloc(b, n, 2 * sizeof *uv);
        uint16_t *jo = g->skinned ? fy_alm_alloc(b, n, 4 * sizeof *jo) : NULL;
        float *we = g->skinned ? fy_alm_alloc(b, n, 4 * sizeof *we) : NULL;
        ferry_scene_morph_target *targets = frame_mats ? fy_alm_alloc(b, m->frame_count, sizeof *targets) : NULL;
        if (!pos || !nor || !uv || (g->skinned && (!jo || !we)) || (frame_mats && !targets)) {
            ok = false;
            break;
        }
        for (uint32_t i = 0; i < n; i++) {
            const ferry_alm_vertex *vx = &m->vertices[source_vertex(g, order[i])];
            for (int k = 0; k < 3; k++) {
                pos[i * 3 + k] = (float)g->rest_pos[(size_t)vx->position * 3 + k];
                nor[i * 3 + k] = (float)normals[(size_t)order[i] * 3 + k];
            }
            /* (s, t) as they are: see texture_png on why no flip. */
            if (!float_range(vx->tex_coords, 2)) {
                char path[48];
                uint32_t mv = source_vertex(g, order[i]);
                snprintf(path, sizeof path, "vertices[%u]", (unsigned)mv);
                fy_error_set(b->err, FERRY_ERR_MALFORMED,
                             m->offsets && m->offsets->vertices ? m->offsets->vertices[mv] : FERRY_NO_OFFSET, path,
                             "texture coordinates (%g, %g) beyond the 32-bit float range", vx->tex_coords[0],
                             vx->tex_coords[1]);
                ok = false;
                break;
            }
            uv[i * 2] = (float)vx->tex_coords[0];
            uv[i * 2 + 1] = (float)vx->tex_coords[1];
            if (g->skinned) {
                memcpy(jo + i * 4, g->joints + (size_t)vx->position * 4, 4 * sizeof *jo);
                memcpy(we + i * 4, g->weights + (size_t)vx->position * 4, 4 * sizeof *we);
            }
        }
        for (uint32_t f = 0; ok && frame_mats && f < m->frame_count; f++) {
            float *d = fy_alm_alloc(b, n, 3 * sizeof *d);
            if (!d) {
                ok = false;
                break;
            }
            const double *gm = frame_mats + (size_t)f * m->bone_count * 16;
            for (uint32_t i = 0; i < n; i++) {
                const ferry_alm_vertex *vx = &m->vertices[source_vertex(g, order[i])];
                double out[4];
                ferry_alm_vector_eval(&m->positions[vx->position], gm, m->bone_count, out);
                for (int k = 0; k < 3; k++) out[k] -= g->rest_pos[(size_t)vx->position * 3 + k];
                if (!float_range(out, 3)) {
                    ok = out_of_range(b, vx->position, f, out);
                    break;
                }
                for (int k = 0; k < 3; k++) d[i * 3 + k] = (float)out[k];
            }
            char name[32];
            snprintf(name, sizeof name, "frame %u", (unsigned)f);
            targets[f].positions = d;
            targets[f].name = ferry_arena_strdup(b->arena, name);
        }
        pr->vertex_count = n;
        pr->positions = pos;
        pr->normals = nor;
        pr->texcoords[0] = uv;
        pr->texcoord_count = 1;
        pr->joints = jo;
        pr->weights = we;
        pr->indices = idx;
        pr->index_count = ic;
        pr->mode = FERRY_PRIMITIVE_TRIANGLES;
        FY_SET_REF(pr, material, mat);
        pr->targets = targets;
        pr->target_count = targets ? m->frame_count : 0;
        rep->vertex_count += n;
        rep->triangle_count += per_material[mat];
    }
    free(local);
    free(order);
    free(per_material);
    free(normals);
    free(frame_mats);
    if (!ok) {
        if (b->err->code == FERRY_OK) fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the mesh");
        return false;
    }
    mesh->name = s->name;
    mesh->primitives = prims;
    mesh->primitive_count = prim_count;
    s->meshes = mesh;
    s->mesh_count = 1;
    ferry_scene_node *n = &s->nodes[s->node_count++];
    ferry_scene_node_init(n);
    /* A root with no transform: glTF ignores a skinned mesh node's own
     * transform, and the morph path's positions are already in object space. */
    n->name = s->name;
    FY_SET_REF(n, mesh, 0);
    FY_SET_REF(n, skin, g->skinned ? 0 : -1);
    return true;
}

/* ---- animation ---- */

static bool add_animation(fy_alm_build *b, const geometry *g, int32_t mesh_node)
{
    ferry_arena *ja = b->arena;
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    uint32_t frames = m->frame_count;
    bool morph = mesh_node >= 0 && !g->skinned && s->meshes[0].primitives[0].target_count == frames;
    size_t channels = (size_t)m->bone_count * 3 + (morph ? 1 : 0);
    if (frames == 0 || channels == 0) return true;
    double rate = isfinite(m->frame_rate) && m->frame_rate > 0 ? m->frame_rate : DEFAULT_FRAME_RATE;
    ferry_scene_animation *an = fy_alm_alloc(b, 1, sizeof *an);
    ferry_scene_channel *ch = fy_alm_alloc(b, channels, sizeof *ch);
    float *times = fy_alm_alloc(b, frames, sizeof *times);
    if (!an || !ch || !times) return false;
    for (uint32_t f = 0; f < frames; f++) times[f] = (float)(f / rate);
    double worst = 0;
    size_t c = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        float *tv = fy_alm_alloc(b, frames, 3 * sizeof *tv);
        float *rv = fy_alm_alloc(b, frames, 4 * sizeof *rv);
        float *sv = fy_alm_alloc(b, frames, 3 * sizeof *sv);
        if (!tv || !rv || !sv) return false;
        for (uint32_t f = 0; f < frames; f++) {
            double miss = fy_mat4d_to_trs_nearest(m->frames + ((size_t)f * m->bone_count + i) * 16, tv + f * 3, rv + f * 4, sv + f * 3);
            if (!(miss <= worst)) worst = isfinite(miss) ? miss : 1e30;
            /* Neighbouring keys on one hemisphere: interpolation takes the short way. */
            if (f > 0) {
                const float *p = rv + (f - 1) * 4;
                float *q = rv + f * 4;
                if (fy_quat_dot(p, q) < 0)
                    for (int k = 0; k < 4; k++) q[k] = -q[k];
            }
        }
        const float *values[3] = {tv, rv, sv};
        for (int path = 0; path < 3; path++) {
            ch[c].node = (int32_t)i + b->bone_node0;
            ch[c].path = (ferry_anim_path)path;
            ch[c].interpolation = FERRY_INTERP_LINEAR;
            ch[c].times = times;
            ch[c].key_count = frames;
            ch[c].values = values[path];
            c++;
        }
    }
    if (morph) {
        /* Key f: target f at weight 1, the others 0; blending linearly
         * between neighbours interpolates the frames' positions, and at
         * every key the pose is the frame exactly. */
        float *w = fy_alm_alloc(b, (size_t)frames * frames, sizeof *w);
        if (!w) return false;
        for (uint32_t f = 0; f < frames; f++) w[(size_t)f * frames + f] = 1.0f;
        ch[c].node = mesh_node;
        ch[c].path = FERRY_ANIM_WEIGHTS;
        ch[c].interpolation = b->opts->step_morph ? FERRY_INTERP_STEP : FERRY_INTERP_LINEAR;
        ch[c].times = times;
        ch[c].key_count = frames;
        ch[c].values = w;
        c++;
    }
    an->name = "frames";
    an->channels = ch;
    an->channel_count = c;
    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "frame_rate", fy_jreal_or_null(ja, rate));
    fy_jset(ja, x, "frame_count", fy_jinteger(ja, frames));
    fy_jset(ja, x, "mesh", fy_jstring(ja, g->skinned ? "skin" : "morph targets"));
    if (worst > TRS_TOLERANCE) {
        fy_jset(ja, x, "bones_approximate", fy_jbool(ja, true));
        fy_jset(ja, x, "bones_trs_miss", fy_jreal_or_null(ja, worst));
    }
    an->extras = x;
    s->animations = an;
    s->animation_count = 1;
    return an->extras != NULL;
}

/* ---- extras ---- */

/* Comments are bytes of unknown encoding: ASCII kept, the rest '?'. */
static ferry_json *comment_json(ferry_arena *ja, const char *text, uint32_t len)
{
    char *copy = malloc((size_t)len + 1);
    if (!copy) return fy_jnull(ja);
    for (uint32_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        copy[i] = (ch >= 0x20 && ch < 0x7f) || ch == '\n' || ch == '\t' || ch == '\r' ? (char)ch : '?';
    }
    copy[len] = 0;
    ferry_json *s = fy_jstring(ja, copy);
    free(copy);
    return s ? s : fy_jnull(ja);
}

static const ferry_json *scene_extras(fy_alm_build *b, const ferry_alm_lod *lod, const geometry *g,
                                const ferry_alm_scene_report *rep)
{
    ferry_arena *ja = b->arena;
    const ferry_alm_mesh *m = b->mesh;
    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "source", fy_jstring(ja, "alm"));
    fy_jset(ja, x, "version", fy_jinteger(ja, m->version));
    ferry_json *comments = fy_jarray(ja);
    for (uint32_t i = 0; i < m->comment_count && m->comments; i++) {
        uint32_t len = m->comment_lengths ? m->comment_lengths[i] : (uint32_t)strlen(m->comments[i]);
        fy_jpush(ja, comments, m->comments[i] ? comment_json(ja, m->comments[i], len) : fy_jnull(ja));
    }
    fy_jset(ja, x, "comments", comments);
    fy_jset(ja, x, "bone_count", fy_jinteger(ja, m->bone_count));
    fy_jset(ja, x, "collapse_count", fy_jinteger(ja, m->collapse_count));
    fy_jset(ja, x, "full_triangle_count", fy_jinteger(ja, m->triangle_count));
    if (lod) {
        ferry_json *l = fy_jobject(ja);
        fy_jset(ja, l, "collapses_applied", fy_jinteger(ja, lod->collapses_applied));
        fy_jset(ja, l, "last_error", fy_jreal_or_null(ja, lod->last_error));
        fy_jset(ja, l, "triangle_count", fy_jinteger(ja, lod->triangle_count));
        fy_jset(ja, l, "vertex_count", fy_jinteger(ja, lod->vertex_count));
        fy_jset(ja, x, "lod", l);
    } else {
        fy_jset(ja, x, "lod", fy_jnull(ja));
    }
    fy_jset(ja, x, "frame_count", fy_jinteger(ja, m->frame_count));
    if (m->version >= 6) {
        fy_jset(ja, x, "frame_rate", fy_jreal_or_null(ja, m->frame_rate));
        fy_jset(ja, x, "override_p", fy_jbool(ja, m->override_p != 0));
    }
    fy_jset(ja, x, "export", fy_jstring(ja, g->skinned ? "skin" : "morph targets"));
    if (!g->skinned && g->reason) fy_jset(ja, x, "morph_reason", fy_jstring(ja, g->reason));
    if (g->skinned) {
        fy_jset(ja, x, "max_influences", fy_jinteger(ja, rep->max_influences));
        fy_jset(ja, x, "positions_truncated", fy_jinteger(ja, rep->positions_truncated));
        fy_jset(ja, x, "max_dropped_weight", fy_jreal_or_null(ja, rep->max_dropped_weight));
    }
    ferry_json *tex = fy_jarray(ja);
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const ferry_alm_texture *t = &m->textures[i];
        ferry_json *o = fy_jobject(ja);
        fy_jset(ja, o, "image", b->texture_image[i] >= 0 ? fy_jinteger(ja, b->texture_image[i]) : fy_jnull(ja));
        fy_jset(ja, o, "width", fy_jinteger(ja, t->width));
        fy_jset(ja, o, "height", fy_jinteger(ja, t->height));
        fy_jset(ja, o, "channels", fy_jinteger(ja, t->channels));
        fy_jset(ja, o, "signed", fy_jbool(ja, t->is_signed != 0));
        fy_jpush(ja, tex, o);
    }
    fy_jset(ja, x, "textures", tex);
    ferry_json *maps = fy_jarray(ja);
    for (uint32_t i = 0; i < m->tangent_map_count; i++) {
        ferry_json *o = fy_jobject(ja);
        fy_jset(ja, o, "image", b->tangent_image[i] >= 0 ? fy_jinteger(ja, b->tangent_image[i]) : fy_jnull(ja));
        fy_jset(ja, o, "width", fy_jinteger(ja, m->tangent_maps[i].width));
        fy_jset(ja, o, "height", fy_jinteger(ja, m->tangent_maps[i].height));
        fy_jset(ja, o, "scale", fy_jreal_or_null(ja, b->tangent_scale[i]));
        fy_jpush(ja, maps, o);
    }
    fy_jset(ja, x, "tangent_maps", maps);
    fy_jset(ja, x, "axes", fy_jstring(ja, "as stored (ALM states no up axis)"));
    return x;
}

/* ---- entry ---- */

static bool convert(fy_alm_build *b, const ferry_alm_lod *lod, geometry *g, ferry_alm_scene_report *rep)
{
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    b->rest = fy_alm_alloc(b, m->bone_count, 16 * sizeof *b->rest);
    g->used = fy_alm_alloc(b, m->position_count, 1);
    g->rest_pos = fy_alm_alloc(b, m->position_count, 3 * sizeof *g->rest_pos);
    float *world = fy_alm_alloc(b, m->bone_count, 16 * sizeof *world);
    s->nodes = fy_alm_alloc(b, (size_t)m->bone_count + 2, sizeof *s->nodes);
    if (!b->rest || !g->used || !g->rest_pos || !world || !s->nodes) return false;
    if (ferry_alm_bone_matrices(m, -1, b->rest, b->err) != FERRY_OK) return false;

    for (uint32_t v = 0; v < g->vcount; v++) g->used[m->vertices[source_vertex(g, v)].position] = 1;
    for (uint32_t p = 0; p < m->position_count; p++) {
        if (!g->used[p]) continue;
        double out[4];
        ferry_alm_vector_eval(&m->positions[p], b->rest, m->bone_count, out);
        /* The spec's sum, taken as it is: x, y, z of the homogeneous result. */
        memcpy(g->rest_pos + (size_t)p * 3, out, 3 * sizeof *out);
        if (!float_range(out, 3)) return out_of_range(b, p, -1, out);
    }

    g->skinned = false;
    g->reason = NULL;
    if (b->opts->force_morph) {
        g->reason = "morph targets asked for";
    } else if (m->bone_count == 0) {
        g->reason = "no bones";
    } else if (g->tri_count == 0) {
        g->reason = "no triangles";
    } else if (frames_are_trs(m, &g->reason)) {
        g->joints = fy_alm_alloc(b, m->position_count, 4 * sizeof *g->joints);
        g->weights = fy_alm_alloc(b, m->position_count, 4 * sizeof *g->weights);
        if (!g->joints || !g->weights) return false;
        g->skinned = weighted_copies(b, g, rep, &g->reason);
        if (!g->skinned && !g->reason) return false; /* memory */
        if (!g->skinned) rep->max_influences = rep->positions_truncated = 0, rep->max_dropped_weight = 0;
    }
    if (!add_bones(b, world)) return false;
    if (g->skinned && !joints_invertible(m, world)) {
        /* A bone scaled to nothing at rest has no inverse bind matrix. */
        g->skinned = false;
        g->reason = "a bone's rest transform in object space has no inverse in 32-bit floats";
        rep->max_influences = rep->positions_truncated = 0, rep->max_dropped_weight = 0;
    }
    rep->skinned = g->skinned;
    rep->reason = g->reason;

    if (!fy_alm_images(b) || !fy_alm_materials(b)) return false;
    int32_t mesh_node = -1;
    if (g->tri_count > 0) {
        mesh_node = (int32_t)m->bone_count + b->bone_node0;
        if (!add_mesh(b, g, rep)) return false;
        if (g->skinned && !add_skin(b, world)) return false;
    }
    if (s->skin_count == 0 && b->opts->skin_all_bones && m->bone_count > 0 && !add_skin(b, NULL)) return false;
    if (!add_animation(b, g, mesh_node)) return false;
    rep->images = (uint32_t)s->image_count;
    s->extras = scene_extras(b, lod, g, rep);
    return s->extras != NULL;
}

ferry_result ferry_alm_to_scene(const ferry_alm_mesh *mesh, const ferry_alm_scene_options *options, ferry_scene **out,
                                ferry_error *err)
{
    ferry_error local_err;
    if (!fy_convert_begin(&err, &local_err, out, mesh, "mesh")) return err->code;
    ferry_alm_scene_options no_options;
    options = FY_OPTIONS_OR_DEFAULTS(options, no_options);
    const ferry_alm_lod *lod = options->lod;
    if (!check_mesh(mesh, lod, err)) return err->code;

    fy_alm_build b;
    memset(&b, 0, sizeof b);
    b.mesh = mesh;
    b.opts = options;
    b.err = err;
    ferry_scene *s = fy_scene_new(err);
    if (!s) return FERRY_ERR_NOMEM;
    b.arena = s->arena;
    s->name = ferry_arena_strdup(b.arena, options->name ? options->name : "alm");
    b.scene = s;

    geometry g;
    memset(&g, 0, sizeof g);
    g.vcount = lod ? lod->vertex_count : mesh->vertex_count;
    g.vsrc = lod ? lod->vertex_source : NULL;
    g.tris = lod ? lod->triangles : mesh->triangles;
    g.tri_count = lod ? lod->triangle_count : mesh->triangle_count;
    ferry_alm_scene_report rep;
    memset(&rep, 0, sizeof rep);
    rep.collapses_applied = lod ? lod->collapses_applied : 0;
    bool ok = s->name && convert(&b, lod, &g, &rep);
    if (ok && options->report) *options->report = rep;
    return fy_convert_end(s, ok, out, err);
}
