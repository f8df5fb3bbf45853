/* Ray queries against a sub-mesh, through its collision tree (0x1200) or
 * over every triangle.
 *
 * Node boxes are bytes relative to the parent's decoded box, so each level
 * adds quantization error. Real exporters differ: most write conservative
 * boxes (floor/ceil), but some round to nearest and clamp to 0..255, which
 * lets a child's triangles stick out of the decoded boxes by more than one
 * step of the parent (up to 0.26% of the tree's size in the corpus). A fixed
 * per-level margin therefore misses hits; instead every node carries an error
 * bound that grows along the path (see decode_child), which covers rounding,
 * floor/ceil and quantizing against the exact rather than decoded parent. */
#include <ferry/alo.h>

#include <float.h>
#include <math.h>

#include "../../core/core.h"

/* Enough for any real tree (the corpus goes 15 levels deep) and for every
 * balanced tree within the 16-bit link range; deeper trees fall back to
 * testing all primitives, so the answer never depends on this size. */
#define FY_RAY_STACK 128

typedef struct fy_ray {
    double o[3], d[3];
    double max_t;
} fy_ray;

typedef struct fy_best {
    bool found;
    double t, u, v;
    uint32_t triangle;
} fy_best;

/* Möller–Trumbore in double, both faces. */
static bool ray_triangle(const fy_ray *ray, const float *p0, const float *p1, const float *p2, double *t_out,
                         double *u_out, double *v_out)
{
    double e1[3], e2[3], s[3], p[3], q[3];
    for (int a = 0; a < 3; a++) {
        e1[a] = (double)p1[a] - (double)p0[a];
        e2[a] = (double)p2[a] - (double)p0[a];
        s[a] = ray->o[a] - (double)p0[a];
    }
    p[0] = ray->d[1] * e2[2] - ray->d[2] * e2[1];
    p[1] = ray->d[2] * e2[0] - ray->d[0] * e2[2];
    p[2] = ray->d[0] * e2[1] - ray->d[1] * e2[0];
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    /* A ray in the triangle's plane (det 0 but for rounding) touches at most
     * an edge: no hit, as in any Möller–Trumbore with a parallel test. A
     * bare det == 0 is not enough: a vertical ray on a vertical wall's edge
     * gave det 1e-17 of its scale and a spurious hit at t = 0 above the wall
     * (icw EI_CBAOTH.ALO, RI_CILGHAL.ALO collision meshes). Relative to
     * |d| |e1| |e2|, so it does not depend on units. */
    double scale = sqrt((ray->d[0] * ray->d[0] + ray->d[1] * ray->d[1] + ray->d[2] * ray->d[2]) *
                        (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) * (e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]));
    if (!(fabs(det) > 1e-9 * scale) || !isfinite(det)) return false;
    double inv = 1.0 / det;
    double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    if (!(u >= 0.0 && u <= 1.0)) return false;
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    double v = (ray->d[0] * q[0] + ray->d[1] * q[1] + ray->d[2] * q[2]) * inv;
    if (!(v >= 0.0 && u + v <= 1.0)) return false;
    double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
    if (!(t >= 0.0 && t <= ray->max_t)) return false;
    *t_out = t;
    *u_out = u;
    *v_out = v;
    return true;
}

/* Tests one triangle and keeps it when nearer, or as near with a lower
 * index: the result then does not depend on the order triangles are
 * visited in, so the tree and the brute force agree exactly. */
static void consider(const ferry_alo_submesh *sm, const fy_ray *ray, size_t tri, fy_best *best)
{
    if (tri >= sm->triangle_count) return;
    const uint16_t *ix = sm->indices + 3 * tri;
    if (ix[0] >= sm->vertex_count || ix[1] >= sm->vertex_count || ix[2] >= sm->vertex_count) return;
    double t, u, v;
    if (!ray_triangle(ray, sm->vertices[ix[0]].position, sm->vertices[ix[1]].position,
                      sm->vertices[ix[2]].position, &t, &u, &v))
        return;
    if (best->found && (t > best->t || (t == best->t && tri >= best->triangle))) return;
    best->found = true;
    best->t = t;
    best->u = u;
    best->v = v;
    best->triangle = (uint32_t)tri;
}

/* Checks the arguments shared by both queries; false means "no hit". */
static bool ray_setup(const ferry_alo_submesh *sm, const float origin[3], const float direction[3], float max_t,
                      fy_ray *ray)
{
    if (!sm || !origin || !direction || !sm->indices || !sm->vertices) return false;
    if (!(max_t >= 0.0f)) return false; /* also refuses NaN */
    for (int a = 0; a < 3; a++) {
        if (!isfinite(origin[a]) || !isfinite(direction[a])) return false;
        ray->o[a] = origin[a];
        ray->d[a] = direction[a];
    }
    ray->max_t = max_t;
    return true;
}

static bool finish(const fy_best *best, ferry_alo_ray_hit *hit)
{
    if (!best->found) return false;
    if (hit) {
        hit->t = (float)best->t;
        hit->triangle = best->triangle;
        hit->u = (float)best->u;
        hit->v = (float)best->v;
    }
    return true;
}

bool ferry_alo_raycast_brute_force(const ferry_alo_submesh *submesh, const float origin[3],
                                   const float direction[3], float max_t, ferry_alo_ray_hit *hit)
{
    fy_ray ray;
    if (!ray_setup(submesh, origin, direction, max_t, &ray)) return false;
    fy_best best = {0};
    for (size_t i = 0; i < submesh->triangle_count; i++) consider(submesh, &ray, i, &best);
    return finish(&best, hit);
}

/* A node's decoded box, widened by `err` on each side to hold everything
 * the node's subtree holds. */
typedef struct fy_box {
    double min[3], max[3], err[3];
} fy_box;

typedef struct fy_item {
    fy_box box;
    double t_enter;
    size_t node;
} fy_item;

/* Child box from the parent's bytes-decoded box. With the parent's true box
 * within `err` of the decoded one, a child coordinate decoded from the
 * decoded box is a convex combination of the two ends, so it too is within
 * `err` of the same bytes decoded from the true box; quantization then adds
 * at most one step of the true parent extent, which is no more than the
 * decoded extent plus 2 * err. Bytes given as min > max are swapped rather
 * than trusted to mean an empty box. */
static void decode_child(const fy_box *parent, const ferry_alo_collision_node *node, double eps, fy_box *out)
{
    for (int a = 0; a < 3; a++) {
        double lo_b = node->min[a], hi_b = node->max[a];
        if (lo_b > hi_b) {
            double tmp = lo_b;
            lo_b = hi_b;
            hi_b = tmp;
        }
        double ext = parent->max[a] - parent->min[a];
        out->min[a] = parent->min[a] + lo_b / 255.0 * ext;
        out->max[a] = parent->min[a] + hi_b / 255.0 * ext;
        out->err[a] = parent->err[a] * (1.0 + 2.0 / 255.0) + fabs(ext) / 255.0 + eps;
    }
}

/* Entry distance of the ray into the widened box, clipped to [0, limit];
 * false when the ray misses it within that range. */
static bool ray_box(const fy_ray *ray, const fy_box *box, double limit, double *t_enter)
{
    double tn = 0.0, tf = limit;
    for (int a = 0; a < 3; a++) {
        double lo = box->min[a] - box->err[a], hi = box->max[a] + box->err[a];
        if (ray->d[a] == 0.0) {
            if (ray->o[a] < lo || ray->o[a] > hi) return false;
            continue;
        }
        double t1 = (lo - ray->o[a]) / ray->d[a];
        double t2 = (hi - ray->o[a]) / ray->d[a];
        if (t1 > t2) {
            double tmp = t1;
            t1 = t2;
            t2 = tmp;
        }
        if (t1 > tn) tn = t1;
        if (t2 < tf) tf = t2;
        if (tn > tf) return false;
    }
    *t_enter = tn;
    return true;
}

static void consider_all_primitives(const ferry_alo_submesh *sm, const fy_ray *ray, fy_best *best)
{
    const ferry_alo_collision_tree *tree = sm->collision;
    for (size_t i = 0; i < tree->primitive_count; i++) consider(sm, ray, tree->primitives[i], best);
}

bool ferry_alo_collision_raycast(const ferry_alo_submesh *submesh, const float origin[3],
                                 const float direction[3], float max_t, ferry_alo_ray_hit *hit)
{
    fy_ray ray;
    if (!ray_setup(submesh, origin, direction, max_t, &ray)) return false;
    const ferry_alo_collision_tree *tree = submesh->collision;
    if (!tree || !tree->nodes || tree->node_count == 0) return false;
    if (!tree->primitives && tree->primitive_count > 0) return false;
    fy_best best = {0};

    fy_box top;
    double size = 0.0;
    bool usable = true;
    for (int a = 0; a < 3; a++) {
        top.min[a] = tree->box_min[a];
        top.max[a] = tree->box_max[a];
        top.err[a] = 0.0;
        if (!isfinite(top.min[a]) || !isfinite(top.max[a]) || top.min[a] > top.max[a]) usable = false;
        size = fmax(size, fabs(top.max[a] - top.min[a]));
        size = fmax(size, fmax(fabs(top.min[a]), fabs(top.max[a])));
    }
    /* Exporters computed boxes in float: a few ulps of the coordinates'
     * magnitude, which matters in nodes thinner than that (seen in the
     * corpus). The quantization error itself is tracked in err. */
    double eps = size * 8.0 * FLT_EPSILON + 1e-30;

    fy_item stack[FY_RAY_STACK];
    size_t depth = 0;
    /* A valid tree visits each node at most once; anything more is a
     * malformed tree sharing subtrees, whose cost could grow exponentially. */
    size_t budget = tree->node_count * 2 + 2;
    if (usable) {
        decode_child(&top, &tree->nodes[0], eps, &stack[0].box);
        stack[0].node = 0;
        if (ray_box(&ray, &stack[0].box, ray.max_t, &stack[0].t_enter)) depth = 1;
    }
    while (usable && depth > 0) {
        fy_item item = stack[--depth];
        if (best.found && item.t_enter > best.t) continue;
        if (budget-- == 0) {
            usable = false;
            break;
        }
        const ferry_alo_collision_node *node = &tree->nodes[item.node];
        size_t link = node->link;
        if (node->primitive_count > 0) {
            size_t end = link + node->primitive_count;
            if (end > tree->primitive_count) end = tree->primitive_count;
            for (size_t p = link; p < end; p++) consider(submesh, &ray, tree->primitives[p], &best);
            continue;
        }
        /* Real trees store children after their parent; requiring it makes
         * every path strictly increasing, so cycles cannot occur. */
        fy_item kids[2];
        int n = 0;
        for (size_t c = link; c <= link + 1; c++) {
            if (c <= item.node || c >= tree->node_count) continue;
            fy_item *k = &kids[n];
            decode_child(&item.box, &tree->nodes[c], eps, &k->box);
            k->node = c;
            double limit = best.found ? best.t : ray.max_t;
            if (ray_box(&ray, &k->box, limit, &k->t_enter)) n++;
        }
        if (depth + (size_t)n > FY_RAY_STACK) {
            usable = false;
            break;
        }
        /* Nearer child on top: it is searched first and shrinks best.t. */
        if (n == 2 && kids[0].t_enter < kids[1].t_enter) {
            stack[depth++] = kids[1];
            stack[depth++] = kids[0];
        } else {
            for (int i = 0; i < n; i++) stack[depth++] = kids[i];
        }
    }
    if (!usable) consider_all_primitives(submesh, &ray, &best);
    return finish(&best, hit);
}
