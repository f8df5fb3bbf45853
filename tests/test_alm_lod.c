/* Level-of-detail extraction on hand-made meshes with hand-computed results
 * (a square, a strip, a fan, a seam with vl != vr, an influence collapse to
 * a simplified position), and on a grid with edge and influence collapses
 * against a plain reference that applies the same rules the slow way
 * (every vertex renamed eagerly, every triangle rescanned). */
#include <ferry/alm.h>

#include "test.h"

#include <stdint.h>

#define MAXV 4096
#define MAXT 8192

typedef struct toy {
    ferry_alm_mesh m;
    ferry_alm_vector positions[MAXV];
    ferry_alm_vertex vertices[MAXV];
    ferry_alm_triangle triangles[MAXT];
    ferry_alm_collapse collapses[MAXV];
    ferry_alm_material material;
} toy;

static toy *toy_new(uint32_t positions)
{
    toy *t = calloc(1, sizeof *t);
    t->m.version = 10;
    t->m.positions = t->positions;
    t->m.position_count = positions;
    t->m.vertices = t->vertices;
    t->m.triangles = t->triangles;
    t->m.collapses = t->collapses;
    t->m.materials = &t->material;
    t->m.material_count = 1;
    t->material.texture_id = t->material.tangent_id = -1;
    return t;
}

static uint32_t vert(toy *t, uint32_t position)
{
    t->vertices[t->m.vertex_count].position = position;
    return t->m.vertex_count++;
}

static void tri(toy *t, uint32_t a, uint32_t b, uint32_t c)
{
    ferry_alm_triangle *x = &t->triangles[t->m.triangle_count++];
    x->vertices[0] = a;
    x->vertices[1] = b;
    x->vertices[2] = c;
}

static void edge(toy *t, uint32_t p1, uint32_t p2, uint32_t vl, uint32_t vr, double error)
{
    ferry_alm_collapse *c = &t->collapses[t->m.collapse_count++];
    memset(c, 0, sizeof *c);
    c->kind = FERRY_ALM_EDGE_COLLAPSE;
    c->p1 = p1;
    c->p2 = p2;
    c->vl = vl;
    c->vr = vr;
    c->error = error;
}

static ferry_alm_lod *extract(const toy *t, int64_t k, uint32_t max_triangles, double max_error)
{
    ferry_alm_lod_options o = {k, max_triangles, max_error};
    ferry_alm_lod *lod = NULL;
    ferry_error err;
    CHECK(ferry_alm_lod_extract(&t->m, &o, &lod, &err) == FERRY_OK);
    return lod;
}

static bool same_triangles(const ferry_alm_lod *lod, const uint32_t *want, uint32_t n)
{
    if (lod->triangle_count != n) return false;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (lod->triangles[i].vertices[k] != want[3 * i + k]) return false;
    return true;
}

static bool same_sources(const ferry_alm_lod *lod, const uint32_t *want, uint32_t n)
{
    if (lod->vertex_count != n) return false;
    for (uint32_t i = 0; i < n; i++)
        if (lod->vertex_source[i] != want[i]) return false;
    return true;
}

/* Square 0 (0,0) 1 (1,0) 2 (1,1) 3 (0,1), triangles (0,1,2) (0,2,3).
 * Collapse 1 into 2: (0,1,2) holds both and goes; (0,2,3) stays.
 * Then 3 into 0: nothing is left. */
static void square(void)
{
    toy *t = toy_new(4);
    for (uint32_t p = 0; p < 4; p++) vert(t, p);
    tri(t, 0, 1, 2);
    tri(t, 0, 2, 3);
    edge(t, 1, 2, 2, 2, 0.25);
    edge(t, 3, 0, 0, 0, 0.5);
    ferry_alm_lod *lod = extract(t, 0, 0, -1);
    const uint32_t full[] = {0, 1, 2, 0, 2, 3};
    CHECK(same_triangles(lod, full, 2) && lod->vertex_count == 4 && lod->collapses_applied == 0);
    ferry_alm_lod_free(lod);
    lod = extract(t, 1, 0, -1);
    const uint32_t one[] = {0, 1, 2}, one_src[] = {0, 2, 3};
    CHECK(same_triangles(lod, one, 1) && same_sources(lod, one_src, 3));
    CHECK(lod->collapses_applied == 1 && lod->last_error == 0.25);
    ferry_alm_lod_free(lod);
    lod = extract(t, 99, 0, -1);
    CHECK(lod->triangle_count == 0 && lod->vertex_count == 0 && lod->collapses_applied == 2);
    ferry_alm_lod_free(lod);
    uint32_t counts[3];
    ferry_error err;
    CHECK(ferry_alm_lod_triangle_counts(&t->m, counts, &err) == FERRY_OK);
    CHECK(counts[0] == 2 && counts[1] == 1 && counts[2] == 0);
    free(t);
}

/* Strip: bottom 0 1 2 (y = 0), top 3 4 5 (y = 1); triangles (0,1,4)
 * (0,4,3) (1,2,5) (1,5,4). Collapsing 4 into 1 removes the two holding the
 * edge 1-4: (0,4,3) becomes (0,1,3), (1,2,5) stays. Renumbered in order of
 * first use: sources 0 1 3 2 5, triangles (0,1,2) (1,3,4). */
static void strip(void)
{
    toy *t = toy_new(6);
    for (uint32_t p = 0; p < 6; p++) vert(t, p);
    tri(t, 0, 1, 4);
    tri(t, 0, 4, 3);
    tri(t, 1, 2, 5);
    tri(t, 1, 5, 4);
    edge(t, 1, 4, 1, 1, 1);
    ferry_alm_lod *lod = extract(t, 1, 0, -1);
    const uint32_t want[] = {0, 1, 2, 1, 3, 4}, src[] = {0, 1, 3, 2, 5};
    CHECK(same_triangles(lod, want, 2) && same_sources(lod, src, 5));
    ferry_alm_lod_free(lod);
    free(t);
}

/* Fan: centre 0, ring 1..6, triangles (0,i,i+1). Collapsing 1 into 0
 * removes (0,1,2) and (0,6,1): 4 left; then 2 into 0 removes (0,2,3): 3;
 * then 4 into 0 removes (0,3,4) and (0,4,5): 1. Errors 0.1 0.2 0.3. */
static void fan(void)
{
    toy *t = toy_new(7);
    for (uint32_t p = 0; p < 7; p++) vert(t, p);
    for (uint32_t i = 1; i <= 6; i++) tri(t, 0, i, i % 6 + 1);
    edge(t, 1, 0, 0, 0, 0.1);
    edge(t, 2, 0, 0, 0, 0.2);
    edge(t, 4, 0, 0, 0, 0.3);
    uint32_t counts[4];
    ferry_error err;
    CHECK(ferry_alm_lod_triangle_counts(&t->m, counts, &err) == FERRY_OK);
    CHECK(counts[0] == 6 && counts[1] == 4 && counts[2] == 3 && counts[3] == 1);
    ferry_alm_lod *lod = extract(t, -1, 3, -1);
    CHECK(lod->collapses_applied == 2 && lod->triangle_count == 3);
    ferry_alm_lod_free(lod);
    lod = extract(t, -1, 4, -1);
    CHECK(lod->collapses_applied == 1 && lod->triangle_count == 4);
    ferry_alm_lod_free(lod);
    lod = extract(t, -1, 6, -1); /* already there: nothing applied */
    CHECK(lod->collapses_applied == 0 && lod->triangle_count == 6);
    ferry_alm_lod_free(lod);
    lod = extract(t, -1, 0, 0.15);
    CHECK(lod->collapses_applied == 1 && lod->triangle_count == 4);
    ferry_alm_lod_free(lod);
    lod = extract(t, -1, 0, 0);
    CHECK(lod->collapses_applied == 0);
    ferry_alm_lod_free(lod);
    /* The one triangle left is (0,5,6). */
    lod = extract(t, 3, 0, -1);
    const uint32_t last[] = {0, 1, 2}, src[] = {0, 5, 6};
    CHECK(same_triangles(lod, last, 1) && same_sources(lod, src, 3));
    ferry_alm_lod_free(lod);
    free(t);
}

/* A texture seam along the middle of the strip: the left patch (x <= 1)
 * and the right one have their own vertices on positions 1 and 4.
 * Vertices: 0 on P0, 1 on P1 (left), 2 on P1 (right), 3 on P2, 4 on P3,
 * 5 on P4 (left), 6 on P4 (right), 7 on P5, 8 and 9 on the new P6.
 * Edge 1 -> 4 points up: (0,1,4) holds 1->4 (left), (1,5,4) holds 4->1
 * (right). Left vertices 1 and 5 become 8, right ones 2 and 6 become 9:
 * (0,4,3) -> (v0, v8, v4) and (1,2,5) -> (v9, v3, v7). */
static void seam(void)
{
    toy *t = toy_new(7);
    const uint32_t pos[] = {0, 1, 1, 2, 3, 4, 4, 5, 6, 6};
    for (uint32_t i = 0; i < 10; i++) vert(t, pos[i]);
    tri(t, 0, 1, 5);
    tri(t, 0, 5, 4);
    tri(t, 2, 3, 7);
    tri(t, 2, 7, 6);
    edge(t, 1, 4, 8, 9, 1);
    ferry_alm_lod *lod = extract(t, 1, 0, -1);
    const uint32_t want[] = {0, 1, 2, 3, 4, 5}, src[] = {0, 8, 4, 9, 3, 7};
    CHECK(same_triangles(lod, want, 2) && same_sources(lod, src, 6));
    ferry_alm_lod_free(lod);
    /* Then an influence collapse of P2: its one vertex, 3, moves to vertex
     * 10 on P7, the simplified P2 (positions count every level of detail).
     * The triangles keep their shape: (v9, v10, v7) instead of (v9, v3, v7). */
    t->m.position_count = 8;
    vert(t, 7);
    ferry_alm_collapse *c = &t->collapses[t->m.collapse_count++];
    uint32_t pairs[2] = {3, 10};
    memset(c, 0, sizeof *c);
    c->kind = FERRY_ALM_INFLUENCE_COLLAPSE;
    c->pair_count = 1;
    c->pairs = pairs;
    lod = extract(t, 2, 0, -1);
    const uint32_t src2[] = {0, 8, 4, 9, 10, 7};
    CHECK(same_triangles(lod, want, 2) && same_sources(lod, src2, 6));
    ferry_alm_lod_free(lod);
    /* An edge collapse on the new position finds the triangle there: P5
     * into P7 removes (v9, v10, v7), which holds both. */
    edge(t, 5, 7, 10, 10, 2);
    uint32_t counts[4];
    ferry_error err;
    CHECK(ferry_alm_lod_triangle_counts(&t->m, counts, &err) == FERRY_OK);
    CHECK(counts[0] == 4 && counts[1] == 2 && counts[2] == 2 && counts[3] == 1);
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    CHECK(ferry_alm_validate(&t->m, NULL, &d) == 0);
    CHECK_MSG(d.count == 0, "%s", d.count ? d.items[0].message : "");
    ferry_diagnostics_free(&d);
    /* A pair whose new vertex is on the same position only renames the
     * vertex (accepted; the influences, held by the position, stay). */
    vert(t, 3);
    uint32_t same[2] = {4, 11};
    c = &t->collapses[t->m.collapse_count++];
    memset(c, 0, sizeof *c);
    c->kind = FERRY_ALM_INFLUENCE_COLLAPSE;
    c->pair_count = 1;
    c->pairs = same;
    lod = extract(t, 4, 0, -1);
    const uint32_t one[] = {0, 1, 2}, src3[] = {0, 8, 11};
    CHECK(same_triangles(lod, one, 1) && same_sources(lod, src3, 3));
    ferry_alm_lod_free(lod);
    memset(&d, 0, sizeof d);
    CHECK(ferry_alm_validate(&t->m, NULL, &d) == 0 && d.count == 0);
    ferry_diagnostics_free(&d);
    free(t);
}

/* The same seam, collapsing P0 into P1 with vl = vr = vertex 1 (the left
 * patch's vertex on P1): (0,1,5) goes, vertex 0 becomes 1, and vertex 2,
 * the right patch's on P1, is in neither triangle of the edge and already
 * on the new position, so it stays: the seam survives. */
static void seam_kept(void)
{
    toy *t = toy_new(6);
    const uint32_t pos[] = {0, 1, 1, 2, 3, 4, 4, 5};
    for (uint32_t i = 0; i < 8; i++) vert(t, pos[i]);
    tri(t, 0, 1, 5);
    tri(t, 0, 5, 4);
    tri(t, 2, 3, 7);
    tri(t, 2, 7, 6);
    edge(t, 0, 1, 1, 1, 1);
    ferry_alm_lod *lod = extract(t, 1, 0, -1);
    const uint32_t want[] = {0, 1, 2, 3, 4, 5, 3, 5, 6}, src[] = {1, 5, 4, 2, 3, 7, 6};
    CHECK(same_triangles(lod, want, 3) && same_sources(lod, src, 7));
    ferry_alm_lod_free(lod);
    free(t);
}

/* ---- reference: the same rules, applied the slow way ---- */

typedef struct ref {
    const ferry_alm_mesh *m;
    uint32_t cur[MAXV]; /* current vertex of each original vertex */
    uint8_t dead[MAXT];
    uint32_t live;
} ref;

static uint32_t ref_pos(const ref *r, uint32_t t, int k) { return r->m->vertices[r->cur[r->m->triangles[t].vertices[k]]].position; }

static void ref_init(ref *r, const ferry_alm_mesh *m)
{
    r->m = m;
    r->live = 0;
    for (uint32_t v = 0; v < m->vertex_count; v++) r->cur[v] = v;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        uint32_t a = ref_pos(r, t, 0), b = ref_pos(r, t, 1), c = ref_pos(r, t, 2);
        r->dead[t] = a == b || b == c || a == c;
        r->live += !r->dead[t];
    }
}

static void ref_rename(ref *r, uint32_t from, uint32_t to)
{
    for (uint32_t v = 0; v < r->m->vertex_count; v++)
        if (r->cur[v] == from) r->cur[v] = to;
}

static void ref_edge(ref *r, const ferry_alm_collapse *c)
{
    const ferry_alm_mesh *m = r->m;
    uint32_t q = m->vertices[c->vl].position;
    static uint8_t side[MAXV];
    memset(side, 0, sizeof side);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (r->dead[t]) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t here = ref_pos(r, t, k), after = ref_pos(r, t, (k + 1) % 3), before = ref_pos(r, t, (k + 2) % 3);
            uint32_t w = r->cur[m->triangles[t].vertices[k]];
            if (here != c->p1 && here != c->p2) continue;
            side[w] |= 4;
            if ((here == c->p1 && after == c->p2) || (here == c->p2 && before == c->p1)) side[w] |= 1;
            if ((here == c->p2 && after == c->p1) || (here == c->p1 && before == c->p2)) side[w] |= 2;
        }
    }
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (r->dead[t]) continue;
        uint32_t p[3];
        for (int k = 0; k < 3; k++) {
            p[k] = ref_pos(r, t, k);
            if (p[k] == c->p1 || p[k] == c->p2) p[k] = q;
        }
        if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2]) {
            r->dead[t] = 1;
            r->live--;
        }
    }
    for (uint32_t w = 0; w < m->vertex_count; w++) {
        if (!side[w] || w == c->vl || w == c->vr) continue;
        uint32_t to = (side[w] & 1) ? c->vl : (side[w] & 2) ? c->vr : m->vertices[w].position == q ? w : c->vl;
        ref_rename(r, w, to);
    }
}

/* Influence collapse, the slow way: rename, then rescan every triangle. */
static void ref_influence(ref *r, const ferry_alm_collapse *c)
{
    /* The generator lists current vertices: each stands for itself. */
    for (uint32_t j = 0; j < c->pair_count; j++) ref_rename(r, c->pairs[2 * j], c->pairs[2 * j + 1]);
    for (uint32_t t = 0; t < r->m->triangle_count; t++) {
        if (r->dead[t]) continue;
        uint32_t a = ref_pos(r, t, 0), b = ref_pos(r, t, 1), d = ref_pos(r, t, 2);
        if (a == b || b == d || a == d) {
            r->dead[t] = 1;
            r->live--;
        }
    }
}

static void ref_apply(ref *r, const ferry_alm_collapse *c)
{
    if (c->kind == FERRY_ALM_INFLUENCE_COLLAPSE)
        ref_influence(r, c);
    else
        ref_edge(r, c);
}

static uint32_t pair_pool[2 * MAXV];

/* An influence collapse of position p: every current vertex on p used by
 * a live triangle moves to a new vertex on `to` (a new position, or with
 * `to` already in the mesh a merge, which validation warns about). */
static void influence(toy *t, ref *r, uint32_t p, uint32_t to, size_t *pool)
{
    ferry_alm_collapse *c = &t->collapses[t->m.collapse_count++];
    memset(c, 0, sizeof *c);
    c->kind = FERRY_ALM_INFLUENCE_COLLAPSE;
    c->pairs = pair_pool + *pool;
    c->error = t->m.collapse_count;
    for (uint32_t tr = 0; tr < t->m.triangle_count; tr++) {
        if (r->dead[tr]) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t w = r->cur[t->triangles[tr].vertices[k]];
            if (t->vertices[w].position != p) continue;
            bool listed = false;
            for (uint32_t j = 0; j < c->pair_count && !listed; j++) listed = c->pairs[2 * j] == w;
            if (listed || *pool + 2 > 2 * MAXV || t->m.vertex_count >= MAXV - 1) continue;
            c->pairs[2 * c->pair_count] = w;
            c->pairs[2 * c->pair_count + 1] = vert(t, to);
            c->pair_count++;
            *pool += 2;
        }
    }
}

/* A grid of n x n quads, two triangles each, simplified greedily: each
 * step takes the first live triangle and collapses its first edge into
 * the edge's second position (vl = vr = the vertex there). Sometimes
 * the target is a fresh vertex on that position instead, and every third
 * quad row carries a seam (its own vertices), to exercise vl != vr. */
static void grid_against_reference(uint32_t n)
{
    uint32_t side = n + 1;
    toy *t = toy_new(side * side);
    for (uint32_t p = 0; p < side * side; p++) vert(t, p);
    uint32_t seam_base = t->m.vertex_count;
    for (uint32_t p = 0; p < side * side; p++) vert(t, p); /* second copies for seam rows */
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            uint32_t a = y * side + x, b = a + 1, c = a + side + 1, d = a + side;
            uint32_t o = (y % 3 == 2) ? seam_base : 0;
            tri(t, a + o, b + o, c + o);
            tri(t, a + o, c + o, d + o);
        }
    ref *r = calloc(1, sizeof *r);
    ref_init(r, &t->m);
    uint32_t want[MAXV];
    want[0] = r->live;
    size_t pool = 0;
    for (uint32_t step = 0; r->live > 0 && t->m.collapse_count < MAXV - 1 && t->m.vertex_count < MAXV - 8; step++) {
        uint32_t first = 0;
        while (r->dead[first]) first++;
        const uint32_t *tv = t->triangles[first].vertices;
        uint32_t w1 = r->cur[tv[0]], w2 = r->cur[tv[1]];
        uint32_t p1 = t->vertices[w1].position, p2 = t->vertices[w2].position;
        /* Every third step an influence collapse of p2 to a new position,
         * every eleventh a merge of p1 into the live p2 by influence. */
        if ((step % 3 == 2 || step % 11 == 7) && t->m.position_count < MAXV) {
            bool merge = step % 11 == 7;
            influence(t, r, merge ? p1 : p2, merge ? p2 : t->m.position_count++, &pool);
            ref_influence(r, &t->collapses[t->m.collapse_count - 1]);
            want[t->m.collapse_count] = r->live;
            continue;
        }
        uint32_t vl = w2, vr = w2;
        if (step % 4 == 1) vl = vr = vert(t, p2);
        if (step % 5 == 2) {
            vl = vert(t, p2);
            vr = vert(t, p2);
        }
        edge(t, p1, p2, vl, vr, step);
        ref_edge(r, &t->collapses[t->m.collapse_count - 1]);
        want[t->m.collapse_count] = r->live;
    }
    uint32_t *counts = malloc((t->m.collapse_count + 1) * sizeof *counts);
    ferry_error err;
    CHECK(ferry_alm_lod_triangle_counts(&t->m, counts, &err) == FERRY_OK);
    bool same = true;
    for (uint32_t k = 0; k <= t->m.collapse_count; k++) {
        if (same && counts[k] != want[k])
            fprintf(stderr, "grid %u: after %u records %u triangles, the reference %u (record %u is %s)\n", (unsigned)n,
                    (unsigned)k, (unsigned)counts[k], (unsigned)want[k], (unsigned)k - 1,
                    t->collapses[k - 1].kind == FERRY_ALM_INFLUENCE_COLLAPSE ? "an influence collapse" : "an edge collapse");
        same &= counts[k] == want[k];
    }
    CHECK_MSG(same, "grid %u: triangle counts differ from the reference", (unsigned)n);
    CHECK(counts[t->m.collapse_count] == 0 && counts[0] == 2 * n * n);

    /* Whole meshes at a few levels: same triangles, vertex for vertex. */
    for (uint32_t k = 0; k <= t->m.collapse_count; k += 1 + t->m.collapse_count / 7) {
        ref_init(r, &t->m);
        for (uint32_t i = 0; i < k; i++) ref_apply(r, &t->collapses[i]);
        ferry_alm_lod *lod = extract(t, k, 0, -1);
        bool ok = lod && lod->triangle_count == r->live;
        uint32_t out = 0;
        for (uint32_t tr = 0; ok && tr < t->m.triangle_count; tr++) {
            if (r->dead[tr]) continue;
            for (int c = 0; c < 3; c++)
                ok &= lod->vertex_source[lod->triangles[out].vertices[c]] == r->cur[t->triangles[tr].vertices[c]];
            out++;
        }
        CHECK_MSG(ok, "grid %u at %u collapses: the mesh differs from the reference", (unsigned)n, (unsigned)k);
        /* Every LOD vertex is used, and only once in the source list. */
        ferry_alm_lod_free(lod);
    }
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    CHECK(ferry_alm_validate(&t->m, NULL, &d) == 0);
    for (size_t i = 0; i < d.count; i++)
        if (d.items[i].severity == FERRY_SEVERITY_ERROR)
            CHECK_MSG(false, "grid %u: %s at %s: %s", (unsigned)n, d.items[i].rule, d.items[i].path, d.items[i].message);
    ferry_diagnostics_free(&d);
    free(counts);
    free(r);
    free(t);
}

int main(void)
{
    square();
    strip();
    fan();
    seam();
    seam_kept();
    grid_against_reference(3);
    grid_against_reference(8);
    grid_against_reference(20);
    TEST_END();
}
