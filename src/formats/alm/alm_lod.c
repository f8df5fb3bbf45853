/* Level of detail: the mesh after the first k collapse records.
 *
 * One pass builds, per position, the list of triangle corners on it; then
 * each record costs time in proportion to the triangles around its two
 * positions (a vertex-replacement map with path halving stands for the
 * vertex renaming, so nothing else is touched); one last pass emits the
 * surviving triangles with their vertices renumbered. Rules, including how
 * left and right of p1->p2 are told apart, are in docs/formats/alm.md.
 *
 * Invariant: a live triangle's corner is in the list of the position its
 * current vertex is on. Records that would break it (indices out of range,
 * vl and vr on different positions) are applied in the nearest safe way
 * or skipped; ferry_alm_validate reports them. An influence collapse moves
 * vertices to another position, so its corners move lists too. */
#include "alm_internal.h"

#include <stdlib.h>

#define NONE UINT32_MAX

enum { SIDE_LEFT = 1, SIDE_RIGHT = 2, SIDE_SEEN = 4 };

typedef struct lod_state {
    const ferry_alm_mesh *m;
    uint32_t *vpos;  /* position of each vertex (NONE: out of range) */
    uint32_t *vrep;  /* replacement map: vrep[v] == v for a current vertex */
    uint32_t *head;  /* first corner on each position */
    uint32_t *next;  /* next corner in its position's list (corner = 3 * triangle + k) */
    uint8_t *dead;   /* per triangle: degenerate (or unusable) */
    uint8_t *mark;   /* per vertex: scratch side bits during one collapse */
    uint8_t *pmark;  /* per position: scratch flag during one influence collapse */
    uint32_t *scratch; /* corners gathered during one collapse */
    size_t scratch_cap;
    uint64_t live;   /* triangles alive */
} lod_state;

static uint32_t find(uint32_t *vrep, uint32_t v)
{
    while (vrep[v] != v) {
        vrep[v] = vrep[vrep[v]];
        v = vrep[v];
    }
    return v;
}

static void state_free(lod_state *s)
{
    free(s->vpos);
    free(s->vrep);
    free(s->head);
    free(s->next);
    free(s->dead);
    free(s->mark);
    free(s->pmark);
    free(s->scratch);
}

static bool state_init(lod_state *s, const ferry_alm_mesh *m)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    size_t nv = m->vertex_count ? m->vertex_count : 1, np = m->position_count ? m->position_count : 1;
    size_t nt = m->triangle_count ? m->triangle_count : 1;
    s->vpos = malloc(nv * sizeof *s->vpos);
    s->vrep = malloc(nv * sizeof *s->vrep);
    s->mark = calloc(nv, 1);
    s->pmark = calloc(np, 1);
    s->head = malloc(np * sizeof *s->head);
    s->next = malloc(3 * nt * sizeof *s->next);
    s->dead = malloc(nt);
    s->scratch_cap = 64;
    s->scratch = malloc(s->scratch_cap * sizeof *s->scratch);
    if (!s->vpos || !s->vrep || !s->mark || !s->pmark || !s->head || !s->next || !s->dead || !s->scratch) return false;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        uint32_t p = m->vertices[v].position;
        s->vpos[v] = p < m->position_count ? p : NONE;
        s->vrep[v] = v;
    }
    memset(s->head, 0xff, np * sizeof *s->head);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t *v = m->triangles[t].vertices;
        uint32_t p[3];
        bool ok = true;
        for (int k = 0; k < 3 && ok; k++) {
            ok = v[k] < m->vertex_count && s->vpos[v[k]] != NONE;
            p[k] = ok ? s->vpos[v[k]] : NONE;
        }
        ok = ok && p[0] != p[1] && p[1] != p[2] && p[0] != p[2];
        s->dead[t] = !ok;
        if (!ok) continue;
        s->live++;
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t c = 3 * t + k;
            s->next[c] = s->head[p[k]];
            s->head[p[k]] = c;
        }
    }
    return true;
}

static bool push(lod_state *s, size_t *n, uint32_t corner)
{
    if (*n == s->scratch_cap) {
        uint32_t *grown = realloc(s->scratch, 2 * s->scratch_cap * sizeof *grown);
        if (!grown) return false;
        s->scratch = grown;
        s->scratch_cap *= 2;
    }
    s->scratch[(*n)++] = corner;
    return true;
}

static uint32_t corner_pos(lod_state *s, uint32_t t, int k)
{
    return s->vpos[find(s->vrep, s->m->triangles[t].vertices[k])];
}

static bool edge_collapse(lod_state *s, const ferry_alm_collapse *c)
{
    const ferry_alm_mesh *m = s->m;
    uint32_t p1 = c->p1, p2 = c->p2;
    if (p1 >= m->position_count || p2 >= m->position_count || p1 == p2 || c->vl >= m->vertex_count ||
        c->vr >= m->vertex_count)
        return true;
    uint32_t vl = find(s->vrep, c->vl), vr = find(s->vrep, c->vr);
    uint32_t q = s->vpos[vl];
    if (q == NONE) return true;
    if (s->vpos[vr] != q) vr = vl;

    /* Gather the live corners on p1 and p2; note which current vertices
     * sit on the left (p1->p2 in the triangle's ccw order) or right side. */
    size_t n = 0;
    const uint32_t ends[2] = {p1, p2};
    for (int e = 0; e < 2; e++) {
        for (uint32_t corner = s->head[ends[e]]; corner != NONE; corner = s->next[corner]) {
            uint32_t t = corner / 3;
            if (s->dead[t]) continue;
            if (!push(s, &n, corner)) return false;
        }
        s->head[ends[e]] = NONE;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t corner = s->scratch[i], t = corner / 3;
        int k = (int)(corner % 3);
        uint32_t w = find(s->vrep, m->triangles[t].vertices[k]);
        s->mark[w] |= SIDE_SEEN;
        uint32_t here = s->vpos[w];
        uint32_t after = corner_pos(s, t, (k + 1) % 3), before = corner_pos(s, t, (k + 2) % 3);
        /* On p1 with p2 next (ccw) or on p2 with p1 before: edge p1->p2, left. */
        if ((here == p1 && after == p2) || (here == p2 && before == p1)) s->mark[w] |= SIDE_LEFT;
        if ((here == p2 && after == p1) || (here == p1 && before == p2)) s->mark[w] |= SIDE_RIGHT;
    }
    /* Triangles that lose a side: any two corners on {p1, p2} or on q. */
    for (size_t i = 0; i < n; i++) {
        uint32_t t = s->scratch[i] / 3;
        if (s->dead[t]) continue;
        uint32_t p[3];
        for (int k = 0; k < 3; k++) {
            p[k] = corner_pos(s, t, k);
            if (p[k] == p1 || p[k] == p2) p[k] = q;
        }
        if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2]) {
            s->dead[t] = 1;
            s->live--;
        }
    }
    /* Rename the vertices (after the side tests, which read current ones). */
    for (size_t i = 0; i < n; i++) {
        uint32_t corner = s->scratch[i];
        uint32_t w = find(s->vrep, m->triangles[corner / 3].vertices[corner % 3]);
        uint8_t side = s->mark[w];
        if (!side) continue; /* already renamed through another corner */
        s->mark[w] = 0;
        if (w == vl || w == vr) continue; /* the targets stay themselves */
        uint32_t target;
        if (side & SIDE_LEFT)
            target = vl;
        else if (side & SIDE_RIGHT)
            target = vr;
        else
            target = s->vpos[w] == q ? w : vl;
        if (target != w) s->vrep[w] = target;
    }
    /* Move the surviving corners to q's list. */
    uint32_t rest = (q == p1 || q == p2) ? NONE : s->head[q];
    uint32_t first = rest;
    for (size_t i = n; i-- > 0;) {
        uint32_t corner = s->scratch[i];
        if (s->dead[corner / 3]) continue;
        s->next[corner] = first;
        first = corner;
    }
    s->head[q] = first;
    return true;
}

/* Influence collapse: each old vertex (as renamed so far) becomes its new
 * vertex, usually on another, simplified position. The corners on the old
 * vertices' positions whose vertex now lies elsewhere move to that
 * position's list, and a triangle left with two corners on one position
 * (only when the new position was already in the mesh) dies. */
static bool influence_collapse(lod_state *s, const ferry_alm_collapse *c)
{
    const ferry_alm_mesh *m = s->m;
    size_t n = 0;
    /* Positions the old vertices leave, each once (pmark). */
    for (uint32_t j = 0; j < c->pair_count; j++) {
        uint32_t a = c->pairs[2 * j], b = c->pairs[2 * j + 1];
        if (a >= m->vertex_count || b >= m->vertex_count) continue;
        a = find(s->vrep, a);
        b = find(s->vrep, b);
        if (a == b || s->vpos[a] == NONE || s->vpos[b] == NONE) continue;
        uint32_t p = s->vpos[a];
        if (p != s->vpos[b] && !s->pmark[p]) {
            if (!push(s, &n, p)) return false;
            s->pmark[p] = 1;
        }
        s->vrep[a] = b;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t p = s->scratch[i];
        s->pmark[p] = 0;
        uint32_t *link = &s->head[p];
        while (*link != NONE) {
            uint32_t corner = *link, t = corner / 3;
            uint32_t here = corner_pos(s, t, (int)(corner % 3));
            if (s->dead[t] || here != p) {
                *link = s->next[corner]; /* unlinked: dead, or moved below */
                if (s->dead[t]) continue;
                s->next[corner] = s->head[here];
                s->head[here] = corner;
                uint32_t q[3];
                for (int k = 0; k < 3; k++) q[k] = corner_pos(s, t, k);
                if (q[0] == q[1] || q[1] == q[2] || q[0] == q[2]) {
                    s->dead[t] = 1;
                    s->live--;
                }
                continue;
            }
            link = &s->next[corner];
        }
    }
    return true;
}

static bool apply(lod_state *s, const ferry_alm_collapse *c)
{
    if (c->kind == FERRY_ALM_INFLUENCE_COLLAPSE) return influence_collapse(s, c);
    return edge_collapse(s, c);
}

static ferry_result nomem(ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory while extracting a level of detail");
    return FERRY_ERR_NOMEM;
}

ferry_result ferry_alm_lod_extract(const ferry_alm_mesh *mesh, const ferry_alm_lod_options *options,
                                   ferry_alm_lod **out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    *out = NULL;
    if (!mesh || !options) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no mesh or no options");
        return FERRY_ERR_ARGUMENT;
    }
    lod_state s;
    if (!state_init(&s, mesh)) {
        state_free(&s);
        return nomem(err);
    }
    uint32_t applied = 0;
    double last_error = 0;
    for (uint32_t i = 0; i < mesh->collapse_count; i++) {
        const ferry_alm_collapse *c = &mesh->collapses[i];
        if (options->collapses >= 0) {
            if ((int64_t)i >= options->collapses) break;
        } else if (options->max_triangles > 0) {
            if (s.live <= options->max_triangles) break;
        } else if (options->max_error >= 0) {
            if (!(c->error <= options->max_error)) break;
        } else {
            break;
        }
        if (!apply(&s, c)) {
            state_free(&s);
            return nomem(err);
        }
        applied++;
        last_error = c->error;
    }

    ferry_arena *arena = ferry_arena_create(0);
    ferry_alm_lod *lod = arena ? ferry_arena_alloc(arena, sizeof *lod) : NULL;
    uint32_t *renumber = malloc((mesh->vertex_count ? mesh->vertex_count : 1) * sizeof *renumber);
    if (!lod || !renumber) {
        free(renumber);
        if (arena) ferry_arena_destroy(arena);
        state_free(&s);
        return nomem(err);
    }
    lod->arena = arena;
    lod->collapses_applied = applied;
    lod->last_error = last_error;
    lod->triangle_count = (uint32_t)s.live;
    lod->triangles = s.live ? ferry_arena_alloc(arena, s.live * sizeof *lod->triangles) : NULL;
    memset(renumber, 0xff, (mesh->vertex_count ? mesh->vertex_count : 1) * sizeof *renumber);
    uint32_t *sources = s.live ? malloc(3 * s.live * sizeof *sources) : NULL;
    if ((s.live && (!lod->triangles || !sources))) {
        free(sources);
        free(renumber);
        ferry_arena_destroy(arena);
        state_free(&s);
        return nomem(err);
    }
    uint32_t nv = 0, nt = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        if (s.dead[t]) continue;
        ferry_alm_triangle *o = &lod->triangles[nt++];
        for (int k = 0; k < 3; k++) {
            uint32_t v = find(s.vrep, mesh->triangles[t].vertices[k]);
            if (renumber[v] == NONE) {
                renumber[v] = nv;
                sources[nv++] = v;
            }
            o->vertices[k] = renumber[v];
        }
        o->material = mesh->triangles[t].material;
    }
    lod->vertex_count = nv;
    lod->vertex_source = nv ? ferry_arena_memdup(arena, sources, nv * sizeof *sources) : NULL;
    free(sources);
    free(renumber);
    state_free(&s);
    if (nv && !lod->vertex_source) {
        ferry_arena_destroy(arena);
        return nomem(err);
    }
    *out = lod;
    return FERRY_OK;
}

void ferry_alm_lod_free(ferry_alm_lod *lod)
{
    if (lod && lod->arena) ferry_arena_destroy(lod->arena);
}

ferry_result ferry_alm_lod_triangle_counts(const ferry_alm_mesh *mesh, uint32_t *counts, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!mesh || !counts) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no mesh or no output");
        return FERRY_ERR_ARGUMENT;
    }
    lod_state s;
    if (!state_init(&s, mesh)) {
        state_free(&s);
        return nomem(err);
    }
    counts[0] = (uint32_t)s.live;
    for (uint32_t i = 0; i < mesh->collapse_count; i++) {
        if (!apply(&s, &mesh->collapses[i])) {
            state_free(&s);
            return nomem(err);
        }
        counts[i + 1] = (uint32_t)s.live;
    }
    state_free(&s);
    return FERRY_OK;
}
