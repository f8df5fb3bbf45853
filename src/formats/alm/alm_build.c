/* Progressive-mesh building: quadric-error half-edge collapses over an ALM
 * mesh's full-resolution triangles (Garland and Heckbert's quadrics, one
 * per position, from the area-weighted planes of its triangles, plus
 * penalty planes along boundaries, texture seams and material edges).
 *
 * Topology is that of positions, because that is what the LOD extractor
 * sees: a collapse record names positions p1, p2 and finds the triangles
 * left and right of p1->p2 among the live triangles. A collapse moves the
 * removed position r onto the kept one k; every vertex on r must be a
 * corner of the left or right triangle, since those are the only vertices
 * the record can send elsewhere (this is also the spec's "at most two
 * patches meet at the removed endpoint").
 *
 * Candidates are directed edges (r, k) in a binary heap keyed by error;
 * each carries the version numbers its two positions had when it was
 * costed, so an entry made stale by a later collapse is dropped when it
 * comes up, and the edges around a kept position are costed afresh. */
#include <ferry/alm.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/core.h"
#include "../../core/core_math.h"

/* Symmetric 4x4 quadric: a00 a01 a02 a11 a12 a22 b0 b1 b2 c, i.e.
 * Q(x) = x^T A x + 2 b.x + c. */
typedef struct quadric {
    double q[10];
} quadric;

typedef struct tri {
    uint32_t v[3];
    uint32_t p[3];
    bool alive;
} tri;

typedef struct tri_list {
    uint32_t *items;
    uint32_t count, capacity;
} tri_list;

typedef struct candidate {
    double cost;
    uint32_t r, k;         /* remove r, keep k */
    uint32_t ver_r, ver_k; /* versions when costed */
} candidate;

typedef struct builder {
    const ferry_alm_mesh *mesh;
    uint32_t npos, ntri;
    double *point;   /* rest pose, 3 per position */
    quadric *quad;   /* per position */
    double *weight;  /* total face area behind each quadric */
    uint32_t *version;
    bool *alive;
    tri *tris;
    tri_list *fans; /* per position: triangles having it as a corner */
    uint32_t *mark;
    uint32_t generation;
    candidate *heap;
    size_t heap_count, heap_capacity;
    /* scratch for one position's fan */
    uint32_t *scratch_next, *scratch_prev;
    size_t scratch_capacity;
    bool nomem;
} builder;

/* ---- small geometry ---- */

static void sub3(const double *a, const double *b, double *o)
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void quadric_add_plane(quadric *q, const double n[3], double d, double w)
{
    q->q[0] += w * n[0] * n[0];
    q->q[1] += w * n[0] * n[1];
    q->q[2] += w * n[0] * n[2];
    q->q[3] += w * n[1] * n[1];
    q->q[4] += w * n[1] * n[2];
    q->q[5] += w * n[2] * n[2];
    q->q[6] += w * n[0] * d;
    q->q[7] += w * n[1] * d;
    q->q[8] += w * n[2] * d;
    q->q[9] += w * d * d;
}

static double quadric_eval(const quadric *a, const quadric *b, const double *x)
{
    double q[10];
    for (int i = 0; i < 10; i++) q[i] = a->q[i] + b->q[i];
    double v = q[0] * x[0] * x[0] + q[3] * x[1] * x[1] + q[5] * x[2] * x[2] +
               2 * (q[1] * x[0] * x[1] + q[2] * x[0] * x[2] + q[4] * x[1] * x[2]) +
               2 * (q[6] * x[0] + q[7] * x[1] + q[8] * x[2]) + q[9];
    return v > 0 ? v : 0; /* rounding can take a sum of squares below zero */
}

/* ---- rest pose ---- */

static bool rest_points(builder *b, ferry_error *err)
{
    const ferry_alm_mesh *m = b->mesh;
    double *obj = malloc(((size_t)m->bone_count + 1) * 16 * sizeof *obj);
    if (!obj) return b->nomem = true, false;
    if (ferry_alm_bone_matrices(m, -1, obj, err) != FERRY_OK) {
        free(obj);
        return false;
    }
    for (uint32_t p = 0; p < b->npos; p++) {
        double h[4];
        ferry_alm_vector_eval(&m->positions[p], obj, m->bone_count, h);
        /* w is 1 for a well-formed position; a broken one still gets a point. */
        double w = fabs(h[3]) > 1e-12 ? h[3] : 1.0;
        for (int k = 0; k < 3; k++) b->point[3 * p + k] = h[k] / w;
    }
    free(obj);
    return true;
}

/* ---- triangle lists ---- */

static bool list_push(builder *b, tri_list *l, uint32_t t)
{
    if (l->count == l->capacity) {
        uint32_t cap = l->capacity ? 2 * l->capacity : 8;
        uint32_t *items = realloc(l->items, (size_t)cap * sizeof *items);
        if (!items) return b->nomem = true, false;
        l->items = items;
        l->capacity = cap;
    }
    l->items[l->count++] = t;
    return true;
}

static void list_compact(builder *b, tri_list *l)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->count; i++)
        if (b->tris[l->items[i]].alive) l->items[n++] = l->items[i];
    l->count = n;
}

static int corner_of(const tri *t, uint32_t p)
{
    return t->p[0] == p ? 0 : t->p[1] == p ? 1 : t->p[2] == p ? 2 : -1;
}

/* ---- heap ---- */

static bool cand_less(const candidate *a, const candidate *b)
{
    if (a->cost != b->cost) return a->cost < b->cost;
    if (a->r != b->r) return a->r < b->r;
    return a->k < b->k;
}

static void heap_push(builder *b, candidate c)
{
    if (b->heap_count == b->heap_capacity) {
        size_t cap = b->heap_capacity ? 2 * b->heap_capacity : 1024;
        candidate *h = realloc(b->heap, cap * sizeof *h);
        if (!h) {
            b->nomem = true;
            return;
        }
        b->heap = h;
        b->heap_capacity = cap;
    }
    size_t i = b->heap_count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!cand_less(&c, &b->heap[parent])) break;
        b->heap[i] = b->heap[parent];
        i = parent;
    }
    b->heap[i] = c;
}

static candidate heap_pop(builder *b)
{
    candidate top = b->heap[0], last = b->heap[--b->heap_count];
    size_t i = 0, n = b->heap_count;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && cand_less(&b->heap[child + 1], &b->heap[child])) child++;
        if (!cand_less(&b->heap[child], &last)) break;
        b->heap[i] = b->heap[child];
        i = child;
    }
    if (n > 0) b->heap[i] = last;
    return top;
}

static double collapse_cost(const builder *b, uint32_t r, uint32_t k)
{
    double w = b->weight[r] + b->weight[k];
    return quadric_eval(&b->quad[r], &b->quad[k], &b->point[3 * k]) / (w > 0 ? w : 1.0);
}

static void push_edge(builder *b, uint32_t r, uint32_t k)
{
    candidate c = {collapse_cost(b, r, k), r, k, b->version[r], b->version[k]};
    heap_push(b, c);
}

/* ---- fans ---- */

static bool scratch_reserve(builder *b, size_t n)
{
    if (n <= b->scratch_capacity) return true;
    size_t cap = n < 64 ? 64 : 2 * n;
    uint32_t *next = realloc(b->scratch_next, cap * sizeof *next);
    if (next) b->scratch_next = next;
    uint32_t *prev = realloc(b->scratch_prev, cap * sizeof *prev);
    if (prev) b->scratch_prev = prev;
    if (!next || !prev) return b->nomem = true, false;
    b->scratch_capacity = cap;
    return true;
}

/* Whether position p's live triangles form one consistently oriented fan
 * (a disc or a half-disc): only then is removing or keeping it safe. */
static bool fan_simple(builder *b, uint32_t p, bool *boundary)
{
    tri_list *l = &b->fans[p];
    list_compact(b, l);
    uint32_t n = l->count;
    *boundary = false;
    if (n == 0 || !scratch_reserve(b, n)) return false;
    uint32_t *next = b->scratch_next, *prev = b->scratch_prev;
    for (uint32_t i = 0; i < n; i++) {
        const tri *t = &b->tris[l->items[i]];
        int c = corner_of(t, p);
        next[i] = t->p[(c + 1) % 3];
        prev[i] = t->p[(c + 2) % 3];
    }
    uint32_t open_out = 0, open_in = 0, start = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool twin_out = false, twin_in = false;
        for (uint32_t j = 0; j < n; j++) {
            if (j != i && (next[j] == next[i] || prev[j] == prev[i])) return false; /* an edge with two triangles one way */
            twin_out |= prev[j] == next[i];
            twin_in |= next[j] == prev[i];
        }
        if (!twin_out) open_out++;
        if (!twin_in) {
            open_in++;
            start = i;
        }
    }
    if (open_out != open_in || open_out > 1) return false;
    *boundary = open_out == 1;
    uint32_t visited = 1, cur = start;
    while (visited < n) {
        uint32_t j = 0;
        while (j < n && prev[j] != next[cur]) j++;
        if (j == n || j == start) break;
        cur = j;
        visited++;
    }
    return visited == n;
}

/* Marks p's neighbours with `value`. */
static void mark_neighbours(builder *b, uint32_t p, uint32_t value)
{
    const tri_list *l = &b->fans[p];
    for (uint32_t i = 0; i < l->count; i++) {
        const tri *t = &b->tris[l->items[i]];
        for (int c = 0; c < 3; c++)
            if (t->p[c] != p) b->mark[t->p[c]] = value;
    }
}

/* ---- one collapse ---- */

typedef struct plan {
    uint32_t left, right; /* triangles; UINT32_MAX: none */
    uint32_t p1, p2, vl, vr;
    uint32_t a_left, a_right; /* their vertices on the removed position */
} plan;

static bool edge_has_triangle_with(const builder *b, uint32_t k, uint32_t x, uint32_t y)
{
    const tri_list *l = &b->fans[k];
    for (uint32_t i = 0; i < l->count; i++) {
        const tri *t = &b->tris[l->items[i]];
        if (t->alive && corner_of(t, x) >= 0 && corner_of(t, y) >= 0) return true;
    }
    return false;
}

static bool collapse_allowed(builder *b, uint32_t r, uint32_t k, plan *pl)
{
    bool r_boundary, k_boundary;
    if (!fan_simple(b, r, &r_boundary) || !fan_simple(b, k, &k_boundary)) return false;
    const tri_list *fr = &b->fans[r];
    uint32_t forward = UINT32_MAX, backward = UINT32_MAX, shared = 0;
    for (uint32_t i = 0; i < fr->count; i++) {
        uint32_t ti = fr->items[i];
        const tri *t = &b->tris[ti];
        int cr = corner_of(t, r), ck = corner_of(t, k);
        if (ck < 0) continue;
        shared++;
        if ((cr + 1) % 3 == ck) forward = ti; /* r then k counter-clockwise */
        else backward = ti;
    }
    if (shared == 0 || shared > 2) return false;
    /* The last triangles of a piece of surface stay: removing them would
     * leave a position with nothing to draw. */
    if (b->fans[k].count <= shared) return false;
    bool edge_boundary = shared == 1;
    /* A boundary position only slides along the boundary; an inner edge
     * between two boundary positions would pinch the surface. */
    if (r_boundary && !edge_boundary) return false;
    if (!edge_boundary && k_boundary && r_boundary) return false;
    if (forward != UINT32_MAX) {
        pl->left = forward, pl->right = backward, pl->p1 = r, pl->p2 = k;
    } else {
        pl->left = backward, pl->right = UINT32_MAX, pl->p1 = k, pl->p2 = r;
    }
    const tri *L = &b->tris[pl->left];
    pl->vl = L->v[corner_of(L, k)];
    pl->a_left = L->v[corner_of(L, r)];
    if (pl->right != UINT32_MAX) {
        const tri *R = &b->tris[pl->right];
        pl->vr = R->v[corner_of(R, k)];
        pl->a_right = R->v[corner_of(R, r)];
        /* One vertex on r cannot go to two vertices. */
        if (pl->a_left == pl->a_right && pl->vl != pl->vr) return false;
    } else {
        pl->vr = pl->vl;
        pl->a_right = pl->a_left;
    }
    /* Every vertex on r must be one the record moves (at most two patches). */
    for (uint32_t i = 0; i < fr->count; i++) {
        const tri *t = &b->tris[fr->items[i]];
        uint32_t v = t->v[corner_of(t, r)];
        if (v != pl->a_left && v != pl->a_right) return false;
    }
    /* Link condition: r and k share exactly the opposite corners of the
     * edge's triangles as neighbours. */
    uint32_t gen = b->generation + 1; /* gen: r's neighbours; gen + 1: shared ones */
    b->generation += 2;
    mark_neighbours(b, r, gen);
    uint32_t common = 0;
    const tri_list *fk = &b->fans[k];
    for (uint32_t i = 0; i < fk->count; i++) {
        const tri *t = &b->tris[fk->items[i]];
        for (int c = 0; c < 3; c++) {
            uint32_t q = t->p[c];
            if (q != k && b->mark[q] == gen) {
                b->mark[q] = gen + 1;
                common++;
            }
        }
    }
    if (common != shared) return false;
    /* Normals must not flip, and no triangle may land on an existing one
     * (a tetrahedron passes the link condition but would fold flat). */
    const double *xk = &b->point[3 * k];
    for (uint32_t i = 0; i < fr->count; i++) {
        const tri *t = &b->tris[fr->items[i]];
        if (corner_of(t, k) >= 0) continue;
        int c = corner_of(t, r);
        uint32_t x = t->p[(c + 1) % 3], y = t->p[(c + 2) % 3];
        const double *pr = &b->point[3 * r], *px = &b->point[3 * x], *py = &b->point[3 * y];
        double e1[3], e2[3], before[3], after[3];
        sub3(px, pr, e1);
        sub3(py, pr, e2);
        fy_vec3d_cross(e1, e2, before);
        sub3(px, xk, e1);
        sub3(py, xk, e2);
        fy_vec3d_cross(e1, e2, after);
        double d = dot3(before, after);
        double lb = dot3(before, before), la = dot3(after, after);
        if (!(la > 0) || d <= 0.05 * sqrt(lb * la)) return false;
        if (b->mark[x] == gen + 1 && b->mark[y] == gen + 1 && edge_has_triangle_with(b, k, x, y)) return false;
    }
    return true;
}

static bool apply_collapse(builder *b, uint32_t r, uint32_t k, const plan *pl, uint32_t *alive_tris)
{
    tri_list *fr = &b->fans[r], *fk = &b->fans[k];
    for (uint32_t i = 0; i < fr->count; i++) {
        uint32_t ti = fr->items[i];
        tri *t = &b->tris[ti];
        if (corner_of(t, k) >= 0) {
            t->alive = false;
            (*alive_tris)--;
            continue;
        }
        int c = corner_of(t, r);
        t->v[c] = t->v[c] == pl->a_left ? pl->vl : pl->vr;
        t->p[c] = k;
        if (!list_push(b, fk, ti)) return false;
    }
    free(fr->items);
    memset(fr, 0, sizeof *fr);
    list_compact(b, fk);
    for (int i = 0; i < 10; i++) b->quad[k].q[i] += b->quad[r].q[i];
    b->weight[k] += b->weight[r];
    b->alive[r] = false;
    b->version[r]++;
    b->version[k]++;
    /* The costs of every edge at k changed with its quadric. */
    uint32_t gen = ++b->generation;
    for (uint32_t i = 0; i < fk->count; i++) {
        const tri *t = &b->tris[fk->items[i]];
        for (int c = 0; c < 3; c++) {
            uint32_t q = t->p[c];
            if (q == k || b->mark[q] == gen) continue;
            b->mark[q] = gen;
            push_edge(b, k, q);
            push_edge(b, q, k);
        }
    }
    return !b->nomem;
}

/* ---- set-up ---- */

static void add_penalty(builder *b, const double *pa, const double *pb, const double *face_normal, uint32_t a, uint32_t c,
                        double seam_weight)
{
    double e[3], n[3];
    sub3(pb, pa, e);
    fy_vec3d_cross(e, face_normal, n);
    double len = sqrt(dot3(n, n));
    if (!(len > 0)) return;
    for (int i = 0; i < 3; i++) n[i] /= len;
    double w = seam_weight * dot3(e, e);
    quadric_add_plane(&b->quad[a], n, -dot3(n, pa), w);
    quadric_add_plane(&b->quad[c], n, -dot3(n, pa), w);
}

/* The triangle on the other side of t's side (pa, pb), if exactly one. */
static uint32_t twin_of(const builder *b, uint32_t ti, uint32_t pa, uint32_t pb)
{
    const tri_list *l = &b->fans[pa];
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < l->count; i++) {
        uint32_t u = l->items[i];
        const tri *t = &b->tris[u];
        if (u == ti) continue;
        int ca = corner_of(t, pa);
        if (t->p[(ca + 2) % 3] != pb) continue;
        if (found != UINT32_MAX) return UINT32_MAX - 1;
        found = u;
    }
    return found;
}

static void seed(builder *b);

static bool setup(builder *b, double seam_weight, uint32_t *alive_tris, ferry_error *err)
{
    const ferry_alm_mesh *m = b->mesh;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        if (m->vertices[v].position >= b->npos) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "vertices[%u]: position %u of %u", v,
                         m->vertices[v].position, b->npos);
            return false;
        }
    }
    *alive_tris = 0;
    for (uint32_t i = 0; i < b->ntri; i++) {
        tri *t = &b->tris[i];
        for (int c = 0; c < 3; c++) {
            uint32_t v = m->triangles[i].vertices[c];
            if (v >= m->vertex_count) {
                fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "triangles[%u]: vertex %u of %u", i, v,
                             m->vertex_count);
                return false;
            }
            t->v[c] = v;
            t->p[c] = m->vertices[v].position;
        }
        /* Degenerate from the start: dropped by any LOD, so left out here. */
        t->alive = t->p[0] != t->p[1] && t->p[1] != t->p[2] && t->p[0] != t->p[2];
        if (!t->alive) continue;
        (*alive_tris)++;
        for (int c = 0; c < 3; c++)
            if (!list_push(b, &b->fans[t->p[c]], i)) return false;
    }
    for (uint32_t i = 0; i < b->ntri; i++) {
        const tri *t = &b->tris[i];
        if (!t->alive) continue;
        const double *p0 = &b->point[3 * t->p[0]], *p1 = &b->point[3 * t->p[1]], *p2 = &b->point[3 * t->p[2]];
        double e1[3], e2[3], n[3];
        sub3(p1, p0, e1);
        sub3(p2, p0, e2);
        fy_vec3d_cross(e1, e2, n);
        double len = sqrt(dot3(n, n));
        if (!(len > 0) || !isfinite(len)) continue;
        double area = 0.5 * len;
        for (int k = 0; k < 3; k++) n[k] /= len;
        double d = -dot3(n, p0);
        for (int c = 0; c < 3; c++) {
            quadric_add_plane(&b->quad[t->p[c]], n, d, area);
            b->weight[t->p[c]] += area;
        }
        for (int c = 0; c < 3; c++) {
            uint32_t pa = t->p[c], pb = t->p[(c + 1) % 3];
            uint32_t u = twin_of(b, i, pa, pb);
            bool seam = u >= UINT32_MAX - 1;
            if (!seam) {
                const tri *o = &b->tris[u];
                seam = o->v[corner_of(o, pa)] != t->v[c] || o->v[corner_of(o, pb)] != t->v[(c + 1) % 3] ||
                       m->triangles[u].material != m->triangles[i].material;
            }
            if (seam) add_penalty(b, &b->point[3 * pa], &b->point[3 * pb], n, pa, pb, seam_weight);
        }
    }
    for (uint32_t p = 0; p < b->npos; p++) b->alive[p] = true;
    seed(b);
    return !b->nomem;
}

/* Candidates for every edge of every live position. A candidate refused
 * once (a flip, the link condition) may become allowed when its
 * neighbourhood changes; the edges around kept positions are re-costed as
 * they go, and a final re-seed catches the rest. */
static void seed(builder *b)
{
    for (uint32_t p = 0; p < b->npos; p++) {
        if (!b->alive[p]) continue;
        uint32_t gen = ++b->generation;
        const tri_list *l = &b->fans[p];
        for (uint32_t i = 0; i < l->count; i++) {
            const tri *t = &b->tris[l->items[i]];
            for (int c = 0; c < 3; c++) {
                uint32_t q = t->p[c];
                if (q == p || b->mark[q] == gen) continue;
                b->mark[q] = gen;
                push_edge(b, p, q);
            }
        }
    }
}

static void builder_free(builder *b)
{
    if (b->fans)
        for (uint32_t p = 0; p < b->npos; p++) free(b->fans[p].items);
    free(b->fans);
    free(b->point);
    free(b->quad);
    free(b->weight);
    free(b->version);
    free(b->alive);
    free(b->tris);
    free(b->mark);
    free(b->heap);
    free(b->scratch_next);
    free(b->scratch_prev);
}

ferry_result ferry_alm_build_collapses(const ferry_alm_mesh *mesh, const ferry_alm_build_options *options,
                                       ferry_arena *arena, ferry_alm_collapse **collapses, uint32_t *count,
                                       ferry_error *err)
{
    ferry_error local_err;
    if (!err) err = &local_err;
    fy_error_clear(err);
    if (!mesh || !arena || !collapses || !count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "mesh, arena and outputs are required");
        return FERRY_ERR_ARGUMENT;
    }
    *collapses = NULL;
    *count = 0;
    ferry_alm_build_options defaults = {0, 0, 0};
    if (!options) options = &defaults;
    double seam_weight = options->seam_weight > 0 ? options->seam_weight : 10.0;

    builder b;
    memset(&b, 0, sizeof b);
    b.mesh = mesh;
    b.npos = mesh->position_count;
    b.ntri = mesh->triangle_count;
    size_t np = (size_t)b.npos + 1, nt = (size_t)b.ntri + 1;
    b.point = malloc(np * 3 * sizeof *b.point);
    b.quad = calloc(np, sizeof *b.quad);
    b.weight = calloc(np, sizeof *b.weight);
    b.version = calloc(np, sizeof *b.version);
    b.alive = calloc(np, sizeof *b.alive);
    b.mark = calloc(np, sizeof *b.mark);
    b.fans = calloc(np, sizeof *b.fans);
    b.tris = calloc(nt, sizeof *b.tris);
    ferry_result result = FERRY_OK;
    uint32_t alive_tris = 0;
    if (!b.point || !b.quad || !b.weight || !b.version || !b.alive || !b.mark || !b.fans || !b.tris) b.nomem = true;
    bool ok = !b.nomem && rest_points(&b, err) && setup(&b, seam_weight, &alive_tris, err);

    /* At most one record per position removed. */
    ferry_alm_collapse *out = NULL;
    uint32_t n = 0;
    if (ok) {
        out = ferry_arena_alloc(arena, np * sizeof *out);
        if (!out) b.nomem = true, ok = false;
    }
    uint32_t seeded_at = 0;
    while (ok && alive_tris > options->min_triangles) {
        if (b.heap_count == 0) {
            if (seeded_at == n) break; /* nothing collapsed since the last seed */
            seeded_at = n;
            seed(&b);
            continue;
        }
        candidate c = heap_pop(&b);
        if (!b.alive[c.r] || !b.alive[c.k] || c.ver_r != b.version[c.r] || c.ver_k != b.version[c.k]) continue;
        if (options->max_error > 0 && c.cost > options->max_error) break;
        plan pl;
        if (!collapse_allowed(&b, c.r, c.k, &pl)) {
            if (b.nomem) ok = false;
            continue;
        }
        ferry_alm_collapse *rec = &out[n++];
        memset(rec, 0, sizeof *rec);
        rec->kind = FERRY_ALM_EDGE_COLLAPSE;
        rec->p1 = pl.p1;
        rec->p2 = pl.p2;
        rec->vl = pl.vl;
        rec->vr = pl.vr;
        /* Files hold 32-bit floats: what is built is what reads back. */
        rec->error = (double)(float)c.cost;
        if (!apply_collapse(&b, c.r, c.k, &pl, &alive_tris)) ok = false;
    }
    if (b.nomem) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building collapses");
        result = FERRY_ERR_NOMEM;
    } else if (!ok) {
        result = err->code != FERRY_OK ? err->code : FERRY_ERR_ARGUMENT;
    } else {
        *collapses = out;
        *count = n;
    }
    builder_free(&b);
    return result;
}
