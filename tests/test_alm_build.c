/* Progressive meshes built by quadric-error edge collapses (alm_build.c,
 * alm_from_scene.c):
 *  - hand-made meshes whose simplest form is known: a flat grid ends as its
 *    4 corners and 2 triangles at zero error; a cube whose faces are
 *    separate texture patches ends as its 8 corners and 12 triangles (a
 *    corner joins 3 patches, so it can never be removed), also at zero error;
 *  - every record is applied by an independent reference (the rule as the
 *    brief states it, written out naively here) and by ferry_alm_lod_extract:
 *    both must give the same triangles and vertices after every record;
 *  - records validate, and the written file reads back to the same rest pose;
 *  - a skinned scene built by hand skins back to the positions worked out
 *    by hand;
 *  - every ALO model (samples/alamo, and the corpus when ../shared is there)
 *    becomes an ALM that reads back, validates, rewrites byte for byte, has
 *    the source's rest pose within 1e-4 and extracts LODs at 50/25/10%. */
#define _POSIX_C_SOURCE 200809L
#include <ferry/ala.h>
#include <ferry/alm.h>
#include <ferry/alo.h>
#include <ferry/convert.h>

#include <time.h>

#include "support.h"
#include "test.h"

/* ---- hand-made meshes ---- */

typedef struct hand_mesh {
    ferry_alm_mesh m;
    ferry_alm_bone bone;
    ferry_alm_vector *pos;
    ferry_alm_component *comp;
    ferry_alm_vertex *vert;
    ferry_alm_triangle *tri;
    ferry_alm_material mat;
    double *points; /* 3 per position: what the rest pose must give */
} hand_mesh;

static void hand_init(hand_mesh *h, uint32_t npos, uint32_t nvert, uint32_t ntri)
{
    memset(h, 0, sizeof *h);
    h->pos = calloc(npos, sizeof *h->pos);
    h->comp = calloc(npos, sizeof *h->comp);
    h->vert = calloc(nvert, sizeof *h->vert);
    h->tri = calloc(ntri, sizeof *h->tri);
    h->points = calloc(3 * (size_t)npos, sizeof *h->points);
    h->bone.parent = -1;
    h->bone.transform[0] = h->bone.transform[5] = h->bone.transform[10] = h->bone.transform[15] = 1;
    h->mat.texture_id = h->mat.tangent_id = -1;
    h->m.version = 10;
    h->m.bones = &h->bone;
    h->m.bone_count = 1;
    h->m.positions = h->pos;
    h->m.vertices = h->vert;
    h->m.triangles = h->tri;
    h->m.materials = &h->mat;
    h->m.material_count = 1;
}

static uint32_t hand_position(hand_mesh *h, double x, double y, double z)
{
    uint32_t p = h->m.position_count++;
    h->comp[p].bone = 0;
    h->comp[p].coords[0] = x, h->comp[p].coords[1] = y, h->comp[p].coords[2] = z, h->comp[p].coords[3] = 1;
    h->pos[p].components = &h->comp[p];
    h->pos[p].count = 1;
    h->points[3 * p] = x, h->points[3 * p + 1] = y, h->points[3 * p + 2] = z;
    return p;
}

static uint32_t hand_vertex(hand_mesh *h, uint32_t p, double s, double t)
{
    uint32_t v = h->m.vertex_count++;
    h->vert[v].position = p;
    h->vert[v].tex_coords[0] = s, h->vert[v].tex_coords[1] = t;
    return v;
}

static void hand_triangle(hand_mesh *h, uint32_t a, uint32_t b, uint32_t c)
{
    ferry_alm_triangle *t = &h->tri[h->m.triangle_count++];
    t->vertices[0] = a, t->vertices[1] = b, t->vertices[2] = c;
    t->material = 0;
}

static void hand_free(hand_mesh *h)
{
    free(h->pos);
    free(h->comp);
    free(h->vert);
    free(h->tri);
    free(h->points);
}

/* An n x n quad grid in the z = 0 plane, one patch, counter-clockwise seen from +z. */
static void make_grid(hand_mesh *h, uint32_t n)
{
    uint32_t side = n + 1;
    hand_init(h, side * side, side * side, 2 * n * n);
    for (uint32_t j = 0; j < side; j++)
        for (uint32_t i = 0; i < side; i++) {
            uint32_t p = hand_position(h, i, j, 0);
            hand_vertex(h, p, (double)i / n, (double)j / n);
        }
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t a = j * side + i, b = a + 1, c = a + side, d = c + 1;
            hand_triangle(h, a, b, d);
            hand_triangle(h, a, d, c);
        }
}

/* A cube [0,n]^3 with each face an n x n grid of its own vertices (its
 * own texture patch); positions are shared where faces meet. */
static void make_cube(hand_mesh *h, uint32_t n)
{
    uint32_t side = n + 1;
    hand_init(h, 6 * side * side, 6 * side * side, 12 * n * n);
    uint32_t *grid = malloc(side * side * sizeof *grid);
    for (int axis = 0; axis < 3; axis++)
        for (int hi = 0; hi < 2; hi++) {
            /* Face in the plane coordinate[axis] = hi * n, with u, v along the other two axes, ordered so the
             * normal points out. */
            int ua = (axis + 1) % 3, va = (axis + 2) % 3;
            for (uint32_t j = 0; j < side; j++)
                for (uint32_t i = 0; i < side; i++) {
                    double c[3];
                    c[axis] = hi ? n : 0;
                    c[ua] = hi ? i : j;
                    c[va] = hi ? j : i;
                    uint32_t p = UINT32_MAX;
                    for (uint32_t q = 0; q < h->m.position_count; q++)
                        if (h->points[3 * q] == c[0] && h->points[3 * q + 1] == c[1] && h->points[3 * q + 2] == c[2]) p = q;
                    if (p == UINT32_MAX) p = hand_position(h, c[0], c[1], c[2]);
                    grid[j * side + i] = hand_vertex(h, p, (double)i / n, (double)j / n);
                }
            for (uint32_t j = 0; j < n; j++)
                for (uint32_t i = 0; i < n; i++) {
                    uint32_t a = grid[j * side + i], b = grid[j * side + i + 1], c = grid[(j + 1) * side + i],
                             d = grid[(j + 1) * side + i + 1];
                    hand_triangle(h, a, b, d);
                    hand_triangle(h, a, d, c);
                }
        }
    free(grid);
}

/* ---- the reference: the collapse rule applied naively ---- */

typedef struct reference {
    const ferry_alm_mesh *m;
    uint32_t (*v)[3];
    bool *alive;
    uint32_t *merged; /* position -> the position it was merged into */
    uint32_t live;
} reference;

static uint32_t ref_pos(const reference *r, uint32_t p)
{
    while (r->merged[p] != p) p = r->merged[p];
    return p;
}

static uint32_t ref_vpos(const reference *r, uint32_t v) { return ref_pos(r, r->m->vertices[v].position); }

static void ref_init(reference *r, const ferry_alm_mesh *m)
{
    r->m = m;
    r->v = calloc(m->triangle_count + 1, sizeof *r->v);
    r->alive = calloc(m->triangle_count + 1, sizeof *r->alive);
    r->merged = calloc(m->position_count + 1, sizeof *r->merged);
    for (uint32_t p = 0; p < m->position_count; p++) r->merged[p] = p;
    r->live = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        memcpy(r->v[t], m->triangles[t].vertices, sizeof r->v[t]);
        uint32_t a = ref_vpos(r, r->v[t][0]), b = ref_vpos(r, r->v[t][1]), c = ref_vpos(r, r->v[t][2]);
        r->alive[t] = a != b && b != c && a != c;
        r->live += r->alive[t];
    }
}

static void ref_free(reference *r)
{
    free(r->v);
    free(r->alive);
    free(r->merged);
}

/* Returns false when the record does not fit the rule (no left triangle,
 * two of them, or a vertex on p1/p2 that neither side names, which would
 * keep a position that no longer exists). */
static bool ref_apply(reference *r, const ferry_alm_collapse *c)
{
    const ferry_alm_mesh *m = r->m;
    uint32_t left = UINT32_MAX, right = UINT32_MAX, lefts = 0, rights = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!r->alive[t]) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t a = ref_vpos(r, r->v[t][k]), b = ref_vpos(r, r->v[t][(k + 1) % 3]);
            if (a == c->p1 && b == c->p2) left = t, lefts++;
            if (a == c->p2 && b == c->p1) right = t, rights++;
        }
    }
    if (lefts != 1 || rights > 1) return false;
    uint32_t q = m->vertices[c->vl].position;
    if (m->vertices[c->vr].position != q || (q != c->p1 && q != c->p2)) return false;
    uint32_t from[6], to[6], nmap = 0;
    const uint32_t sides[2] = {left, right}, targets[2] = {c->vl, c->vr};
    for (int s = 0; s < 2; s++) {
        if (sides[s] == UINT32_MAX) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t v = r->v[sides[s]][k], p = ref_vpos(r, v);
            if (p == c->p1 || p == c->p2) from[nmap] = v, to[nmap++] = targets[s];
        }
    }
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!r->alive[t]) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t v = r->v[t][k];
            bool mapped = false;
            for (uint32_t i = 0; i < nmap && !mapped; i++)
                if (from[i] == v) r->v[t][k] = to[i], mapped = true;
            uint32_t p = ref_vpos(r, r->v[t][k]);
            if (!mapped && p != q && (p == c->p1 || p == c->p2)) return false;
        }
    }
    uint32_t other = q == c->p1 ? c->p2 : c->p1;
    r->merged[other] = q;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!r->alive[t]) continue;
        uint32_t a = ref_vpos(r, r->v[t][0]), b = ref_vpos(r, r->v[t][1]), cc = ref_vpos(r, r->v[t][2]);
        if (a == b || b == cc || a == cc) r->alive[t] = false, r->live--;
    }
    return true;
}

/* Every record through the reference and through ferry_alm_lod_extract:
 * same triangles, same vertices, after each one. Returns the final count. */
static uint32_t check_records(const char *name, const ferry_alm_mesh *m, bool every_step)
{
    reference r;
    ref_init(&r, m);
    bool fits = true, same = true, decreasing = true;
    uint32_t before = r.live;
    for (uint32_t i = 0; i <= m->collapse_count && fits && same; i++) {
        if (i > 0) {
            fits = ref_apply(&r, &m->collapses[i - 1]);
            decreasing &= r.live < before && before - r.live <= 2;
            before = r.live;
        }
        if (!every_step && i != m->collapse_count && i % 97 != 0) continue;
        ferry_alm_lod_options o = {(int64_t)i, 0, -1};
        ferry_alm_lod *lod = NULL;
        ferry_error err;
        if (ferry_alm_lod_extract(m, &o, &lod, &err) != FERRY_OK) {
            CHECK_MSG(0, "%s: lod %u: %s", name, i, err.message);
            break;
        }
        same = lod->triangle_count == r.live;
        uint32_t n = 0;
        for (uint32_t t = 0; same && t < m->triangle_count; t++) {
            if (!r.alive[t]) continue;
            for (int k = 0; k < 3; k++) same &= lod->vertex_source[lod->triangles[n].vertices[k]] == r.v[t][k];
            n++;
        }
        CHECK_MSG(same, "%s: after %u records the extractor has %u triangles, the reference %u (or other vertices)", name,
                  i, lod->triangle_count, r.live);
        ferry_alm_lod_free(lod);
    }
    CHECK_MSG(fits, "%s: a record does not fit the collapse rule", name);
    CHECK_MSG(decreasing, "%s: a record removed no triangle or more than two", name);
    uint32_t live = r.live;
    ref_free(&r);
    return live;
}

static size_t validate_errors(const char *name, const ferry_alm_mesh *m)
{
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_alm_validate(m, NULL, &d);
    for (size_t i = 0; i < d.count && i < 5; i++)
        if (d.items[i].severity == FERRY_SEVERITY_ERROR) fprintf(stderr, "%s: %s: %s\n", name, d.items[i].path, d.items[i].message);
    size_t n = d.error_count;
    ferry_diagnostics_free(&d);
    return n;
}

/* Written and read back: the rest pose of every position is `points`. */
static void check_round_trip(const char *name, const ferry_alm_mesh *m, const double *points)
{
    ferry_buffer buf = {0};
    ferry_error err;
    CHECK(ferry_alm_write(m, &buf, &err) == FERRY_OK);
    ferry_alm_mesh *back = NULL;
    CHECK_MSG(ferry_alm_read(buf.data, buf.size, NULL, &back, &err) == FERRY_OK, "%s: %s", name, err.message);
    if (back) {
        CHECK_EQ_U(back->collapse_count, m->collapse_count);
        double mats[16];
        CHECK(ferry_alm_bone_matrices(back, -1, mats, &err) == FERRY_OK);
        double worst = 0;
        for (uint32_t p = 0; p < back->position_count; p++) {
            double h[4];
            ferry_alm_vector_eval(&back->positions[p], mats, back->bone_count, h);
            for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(h[k] - points[3 * p + k]));
            worst = fmax(worst, fabs(h[3] - 1));
        }
        CHECK_MSG(worst == 0, "%s: rest pose off by %g", name, worst);
        for (uint32_t i = 0; i < m->collapse_count && i < back->collapse_count; i++) {
            const ferry_alm_collapse *a = &m->collapses[i], *b = &back->collapses[i];
            if (a->p1 != b->p1 || a->p2 != b->p2 || a->vl != b->vl || a->vr != b->vr || a->error != b->error) {
                CHECK_MSG(0, "%s: record %u differs after reading", name, i);
                break;
            }
        }
        ferry_alm_free(back);
    }
    ferry_buffer_free(&buf);
}

static void build_hand(const char *name, hand_mesh *h, uint32_t expect_triangles, uint32_t expect_positions)
{
    ferry_arena *arena = ferry_arena_create(0);
    ferry_error err;
    /* Without a limit the corners go too (at a cost); those come last. */
    ferry_alm_collapse *unlimited = NULL;
    uint32_t unlimited_count = 0, free_count = 0;
    CHECK(ferry_alm_build_collapses(&h->m, NULL, arena, &unlimited, &unlimited_count, &err) == FERRY_OK);
    while (free_count < unlimited_count && unlimited[free_count].error < 1e-9) free_count++;
    CHECK_MSG(free_count == h->m.position_count - expect_positions, "%s: %u free collapses of %u, expected %u", name,
              free_count, unlimited_count, h->m.position_count - expect_positions);
    ferry_alm_build_options free_only = {0, 1e-9, 0};
    CHECK_MSG(ferry_alm_build_collapses(&h->m, &free_only, arena, &h->m.collapses, &h->m.collapse_count, &err) == FERRY_OK,
              "%s: %s", name, err.message);
    CHECK_EQ_U(h->m.collapse_count, h->m.position_count - expect_positions);
    uint32_t final = check_records(name, &h->m, true);
    CHECK_MSG(final == expect_triangles, "%s: %u triangles left, expected %u", name, final, expect_triangles);
    /* Coplanar faces and straight seams: every collapse is free. */
    double worst = 0, previous = 0;
    bool rising = true;
    for (uint32_t i = 0; i < h->m.collapse_count; i++) {
        worst = fmax(worst, h->m.collapses[i].error);
        rising &= h->m.collapses[i].error >= previous - 1e-9;
        previous = h->m.collapses[i].error;
    }
    CHECK_MSG(worst < 1e-9, "%s: largest error %g", name, worst);
    CHECK(rising);
    CHECK_MSG(validate_errors(name, &h->m) == 0, "%s: validation errors", name);
    check_round_trip(name, &h->m, h->points);
    /* A floor on the triangle count stops the building there. */
    ferry_alm_build_options o = {h->m.triangle_count / 2, 0, 0};
    ferry_alm_collapse *half = NULL;
    uint32_t half_count = 0;
    CHECK(ferry_alm_build_collapses(&h->m, &o, arena, &half, &half_count, &err) == FERRY_OK);
    ferry_alm_collapse *all = h->m.collapses;
    uint32_t all_count = h->m.collapse_count;
    h->m.collapses = half, h->m.collapse_count = half_count;
    reference r;
    ref_init(&r, &h->m);
    for (uint32_t i = 0; i < half_count; i++) ref_apply(&r, &half[i]);
    CHECK_MSG(r.live <= o.min_triangles && r.live + 2 > o.min_triangles, "%s: floor %u, stopped at %u", name,
              o.min_triangles, r.live);
    ref_free(&r);
    h->m.collapses = all, h->m.collapse_count = all_count;
    ferry_arena_destroy(arena);
}

/* A curved surface: errors rise (roughly) as the mesh coarsens. */
static void check_curved(void)
{
    hand_mesh h;
    make_grid(&h, 24);
    for (uint32_t p = 0; p < h.m.position_count; p++) {
        double x = h.points[3 * p] - 12, y = h.points[3 * p + 1] - 12;
        h.comp[p].coords[2] = h.points[3 * p + 2] = 0.02 * (x * x + y * y);
    }
    ferry_arena *arena = ferry_arena_create(0);
    CHECK(ferry_alm_build_collapses(&h.m, NULL, arena, &h.m.collapses, &h.m.collapse_count, NULL) == FERRY_OK);
    check_records("paraboloid", &h.m, false);
    CHECK(validate_errors("paraboloid", &h.m) == 0);
    /* Mean error of each tenth of the records against the one before. */
    uint32_t n = h.m.collapse_count, drops = 0;
    double prev = -1;
    for (int part = 0; part < 10; part++) {
        double sum = 0;
        uint32_t a = n * part / 10, b = n * (part + 1) / 10;
        for (uint32_t i = a; i < b; i++) sum += h.m.collapses[i].error;
        double mean = b > a ? sum / (b - a) : 0;
        drops += mean < prev * 0.999;
        prev = mean;
    }
    CHECK_MSG(drops == 0, "paraboloid: the mean error fell %u times from one tenth to the next", drops);
    CHECK(n > h.m.position_count / 2);
    ferry_arena_destroy(arena);
    hand_free(&h);
}

/* ---- from a scene built by hand ---- */

static void check_scene(void)
{
    /* Node 0 at the origin, node 1 at (0, 2, 0) below it; a strip of two
     * quads skinned 100% to node 0 at y = 0, 50/50 at y = 1, 100% to node 1
     * at y = 2, plus a rigid triangle on node 1 (local coordinates). */
    ferry_scene_node nodes[3];
    for (int i = 0; i < 3; i++) ferry_scene_node_init(&nodes[i]);
    FY_SET_REF(&nodes[1], parent, 0);
    nodes[1].translation[1] = 2;
    FY_SET_REF(&nodes[2], parent, 1);
    nodes[2].translation[0] = 5;
    FY_SET_REF(&nodes[2], mesh, 1);
    FY_SET_REF(&nodes[0], mesh, 0);
    FY_SET_REF(&nodes[0], skin, 0);
    static const float strip[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0};
    static const float uv[] = {0, 0, 1, 0, 0, 0.5f, 1, 0.5f, 0, 1, 1, 1};
    static const uint16_t joints[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    static const float weights[] = {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    static const uint32_t strip_idx[] = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
    static const int32_t skin_joints[] = {0, 1};
    /* Inverse bind: node 0 identity, node 1 a translation by -2 in y. */
    static const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                                  1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1};
    static const float tri[] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    ferry_scene_primitive prims[2];
    memset(prims, 0, sizeof prims);
    prims[0].vertex_count = 6, prims[0].positions = strip, prims[0].texcoords[0] = uv, prims[0].texcoord_count = 1;
    prims[0].joints = joints, prims[0].weights = weights, prims[0].indices = strip_idx, prims[0].index_count = 12;
    prims[0].mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(&prims[0], material, -1);
    prims[1].vertex_count = 3, prims[1].positions = tri, prims[1].mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(&prims[1], material, 0);
    ferry_scene_mesh meshes[2];
    memset(meshes, 0, sizeof meshes);
    meshes[0].primitives = &prims[0], meshes[0].primitive_count = 1;
    meshes[1].primitives = &prims[1], meshes[1].primitive_count = 1;
    ferry_scene_skin skin = {.name = "skin", .joints = skin_joints, .joint_count = 2, .inverse_bind_matrices = ibm};
    FY_SET_REF(&skin, skeleton, 0);
    ferry_scene_material material;
    ferry_scene_material_init(&material);
    ferry_scene s;
    memset(&s, 0, sizeof s);
    s.nodes = nodes, s.node_count = 3, s.meshes = meshes, s.mesh_count = 2, s.skins = &skin, s.skin_count = 1;
    s.materials = &material, s.material_count = 1;
    ferry_alm_mesh *m = NULL;
    ferry_error err;
    ferry_alm_from_scene_options no_collapse = {.build = {.min_triangles = UINT32_MAX}};
    CHECK_MSG(ferry_alm_from_scene(&s, &no_collapse, &m, &err) == FERRY_OK, "%s", err.message);
    if (!m) return;
    CHECK_EQ_U(m->bone_count, 3);
    CHECK_EQ_U(m->position_count, 9);
    CHECK_EQ_U(m->triangle_count, 5);
    CHECK_EQ_U(m->material_count, 2); /* the scene's and a default one */
    CHECK_EQ_U(m->collapse_count, 0);
    CHECK(m->bones[1].parent == 0 && m->bones[2].parent == 1);
    /* Rest pose: the strip where it was drawn, the triangle moved by (5, 2, 0). */
    static const double expect[5][3][3] = {{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}},
                                           {{0, 0, 0}, {1, 1, 0}, {0, 1, 0}},
                                           {{0, 1, 0}, {1, 1, 0}, {1, 2, 0}},
                                           {{0, 1, 0}, {1, 2, 0}, {0, 2, 0}},
                                           {{5, 2, 0}, {6, 2, 0}, {5, 2, 1}}};
    double mats[48];
    CHECK(ferry_alm_bone_matrices(m, -1, mats, &err) == FERRY_OK);
    double worst = 0;
    for (int t = 0; t < 5; t++)
        for (int k = 0; k < 3; k++) {
            double h[4];
            ferry_alm_vector_eval(&m->positions[m->vertices[m->triangles[t].vertices[k]].position], mats, 3, h);
            for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(h[c] - expect[t][k][c]));
            worst = fmax(worst, fabs(h[3] - 1));
        }
    CHECK_MSG(worst < 1e-6, "hand scene: rest pose off by %g", worst);
    /* The middle row is skinned half to each node: two components, node 1's
     * in its bind space (y - 2), each carrying weight 0.5 in w. */
    const ferry_alm_vector *mid = &m->positions[m->vertices[m->triangles[1].vertices[2]].position];
    CHECK_EQ_U(mid->count, 2);
    if (mid->count == 2) {
        CHECK(mid->components[0].bone == 0 && mid->components[1].bone == 1);
        CHECK_NEAR(mid->components[1].coords[1], -0.5, 1e-7);
        CHECK_NEAR(mid->components[1].coords[3], 0.5, 1e-7);
    }
    CHECK(m->triangles[0].material == 1 && m->triangles[4].material == 0);
    CHECK(validate_errors("hand scene", m) == 0);
    ferry_alm_free(m);
}

/* ---- real models ---- */

static void mat_trs(const ferry_scene_node *n, double out[16]) /* column-major, as glTF */
{
    double x = n->rotation[0], y = n->rotation[1], z = n->rotation[2], w = n->rotation[3];
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    memset(out, 0, 16 * sizeof *out);
    for (int row = 0; row < 3; row++)
        for (int c = 0; c < 3; c++) out[c * 4 + row] = r[row][c] * n->scale[c];
    for (int row = 0; row < 3; row++) out[12 + row] = n->translation[row];
    out[15] = 1;
}

static void mat_mul_cm(const double *a, const double *b, double *o)
{
    double t[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + row] * b[c * 4 + k];
            t[c * 4 + row] = s;
        }
    memcpy(o, t, sizeof t);
}

/* Where glTF draws a primitive's vertex at rest: the skinned sum, or the node's world matrix. */
static void scene_point(const ferry_scene *s, const double *world, size_t node, const ferry_scene_primitive *pr, size_t v,
                        double out[3])
{
    const float *p = &pr->positions[3 * v];
    double acc[3] = {0, 0, 0}, total = 0;
    int32_t skin = FY_REF(&s->nodes[node], skin);
    if (skin >= 0 && pr->joints && pr->weights) {
        const ferry_scene_skin *sk = &s->skins[skin];
        for (int k = 0; k < 4; k++) {
            double w = pr->weights[4 * v + k];
            if (!(w > 0)) continue;
            uint16_t j = pr->joints[4 * v + k];
            double m[16], ibm[16];
            for (int i = 0; i < 16; i++) ibm[i] = sk->inverse_bind_matrices ? sk->inverse_bind_matrices[16 * j + i] : (i % 5 == 0);
            mat_mul_cm(&world[16 * (size_t)sk->joints[j]], ibm, m);
            for (int r = 0; r < 3; r++) acc[r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
            total += w;
        }
        if (total > 0) {
            for (int r = 0; r < 3; r++) out[r] = acc[r] / total;
            return;
        }
    }
    const double *m = &world[16 * node];
    for (int r = 0; r < 3; r++) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

typedef struct totals {
    size_t models, triangles;
    double worst_rest, worst_export, build_seconds;
    size_t lods;
} totals;

static bool same_corner(const ferry_scene_primitive *pr, uint32_t a, uint32_t b)
{
    if (memcmp(&pr->positions[3 * a], &pr->positions[3 * b], 3 * sizeof(float)) != 0) return false;
    if (!pr->joints || !pr->weights) return true;
    return memcmp(&pr->joints[4 * a], &pr->joints[4 * b], 4 * sizeof(uint16_t)) == 0 &&
           memcmp(&pr->weights[4 * a], &pr->weights[4 * b], 4 * sizeof(float)) == 0;
}

/* The source triangles in the order the builder takes them, each corner
 * where glTF would draw it, against the ALM's rest pose. */
static double rest_error(const ferry_scene *s, const ferry_alm_mesh *m, bool *aligned)
{
    double *world = calloc(16 * (s->node_count + 1), sizeof *world);
    for (size_t i = 0; i < s->node_count; i++) {
        double local[16];
        mat_trs(&s->nodes[i], local);
        if (FY_REF(&s->nodes[i], parent) >= 0) mat_mul_cm(&world[16 * (size_t)FY_REF(&s->nodes[i], parent)], local, &world[16 * i]);
        else memcpy(&world[16 * i], local, sizeof local);
    }
    double *mats = calloc(16 * ((size_t)m->bone_count + 1), sizeof *mats);
    ferry_alm_bone_matrices(m, -1, mats, NULL);
    double worst = 0;
    uint32_t t = 0;
    *aligned = true;
    for (size_t i = 0; i < s->node_count && *aligned; i++) {
        int32_t mi = FY_REF(&s->nodes[i], mesh);
        if (mi < 0) continue;
        for (size_t p = 0; p < s->meshes[mi].primitive_count && *aligned; p++) {
            const ferry_scene_primitive *pr = &s->meshes[mi].primitives[p];
            if (pr->mode != FERRY_PRIMITIVE_TRIANGLES) continue;
            size_t corners = pr->indices ? pr->index_count : pr->vertex_count;
            for (size_t c = 0; c + 3 <= corners; c += 3) {
                uint32_t idx[3];
                for (int k = 0; k < 3; k++) idx[k] = pr->indices ? pr->indices[c + k] : (uint32_t)(c + k);
                if (same_corner(pr, idx[0], idx[1]) || same_corner(pr, idx[1], idx[2]) || same_corner(pr, idx[0], idx[2]))
                    continue;
                if (t >= m->triangle_count) {
                    *aligned = false;
                    break;
                }
                for (int k = 0; k < 3; k++) {
                    double want[3], got[4];
                    scene_point(s, world, i, pr, idx[k], want);
                    ferry_alm_vector_eval(&m->positions[m->vertices[m->triangles[t].vertices[k]].position], mats,
                                          m->bone_count, got);
                    for (int r = 0; r < 3; r++) {
                        double scale = fmax(1.0, fabs(want[r]));
                        worst = fmax(worst, fabs(got[r] - want[r]) / scale);
                    }
                }
                t++;
            }
        }
    }
    if (t != m->triangle_count) *aligned = false;
    free(world);
    free(mats);
    return worst;
}

/* The glTF export of the built mesh, skinned the way glTF viewers do it,
 * against the ALM's rest pose, triangle by triangle (each primitive holds
 * one material's triangles in mesh order). */
static double export_error(const ferry_scene *s, const ferry_alm_mesh *m, bool *aligned)
{
    double *world = calloc(16 * (s->node_count + 1), sizeof *world);
    for (size_t i = 0; i < s->node_count; i++) {
        double local[16];
        mat_trs(&s->nodes[i], local);
        if (FY_REF(&s->nodes[i], parent) >= 0) mat_mul_cm(&world[16 * (size_t)FY_REF(&s->nodes[i], parent)], local, &world[16 * i]);
        else memcpy(&world[16 * i], local, sizeof local);
    }
    double *mats = calloc(16 * ((size_t)m->bone_count + 1), sizeof *mats);
    ferry_alm_bone_matrices(m, -1, mats, NULL);
    double worst = 0;
    size_t covered = 0;
    *aligned = true;
    for (size_t i = 0; i < s->node_count && *aligned; i++) {
        int32_t mi = FY_REF(&s->nodes[i], mesh);
        if (mi < 0) continue;
        for (size_t p = 0; p < s->meshes[mi].primitive_count && *aligned; p++) {
            const ferry_scene_primitive *pr = &s->meshes[mi].primitives[p];
            uint32_t t = 0;
            for (size_t c = 0; c + 3 <= pr->index_count && *aligned; c += 3) {
                while (t < m->triangle_count && m->triangles[t].material != (uint32_t)FY_REF(pr, material)) t++;
                if (t >= m->triangle_count) {
                    *aligned = false;
                    break;
                }
                for (int k = 0; k < 3; k++) {
                    double got[3], want[4];
                    scene_point(s, world, i, pr, pr->indices[c + k], got);
                    ferry_alm_vector_eval(&m->positions[m->vertices[m->triangles[t].vertices[k]].position], mats,
                                          m->bone_count, want);
                    for (int r = 0; r < 3; r++) worst = fmax(worst, fabs(got[r] - want[r]) / fmax(1.0, fabs(want[r])));
                }
                t++;
                covered++;
            }
        }
    }
    if (covered != m->triangle_count) *aligned = false;
    free(world);
    free(mats);
    return worst;
}

static void check_model(const char *path, totals *tot)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    CHECK_MSG(data != NULL, "%s: unreadable", path);
    if (!data) return;
    ferry_alo_model *model = NULL;
    ferry_error err;
    if (ferry_alo_read(data, size, NULL, &model, &err) != FERRY_OK) {
        /* Not a model (a particle system): not ours to build. */
        free(data);
        return;
    }
    ferry_alo_scene_options so;
    memset(&so, 0, sizeof so);
    so.skip_textures = true; /* the default view: what the game draws, no shadow, collision or LOD meshes */
    ferry_scene *scene = NULL;
    CHECK_MSG(ferry_alo_to_scene(model, &so, &scene, &err) == FERRY_OK, "%s: %s", path, err.message);
    ferry_alm_mesh *m = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (scene) CHECK_MSG(ferry_alm_from_scene(scene, NULL, &m, &err) == FERRY_OK, "%s: %s", path, err.message);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (m) {
        tot->models++;
        tot->triangles += m->triangle_count;
        tot->build_seconds += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        CHECK_MSG(validate_errors(path, m) == 0, "%s: built mesh does not validate", path);
        ferry_buffer buf = {0}, again = {0};
        CHECK(ferry_alm_write(m, &buf, &err) == FERRY_OK);
        ferry_alm_mesh *back = NULL;
        CHECK_MSG(ferry_alm_read(buf.data, buf.size, NULL, &back, &err) == FERRY_OK, "%s: reading back: %s", path, err.message);
        if (back) {
            CHECK_MSG(validate_errors(path, back) == 0, "%s: read-back mesh does not validate", path);
            CHECK(ferry_alm_write(back, &again, &err) == FERRY_OK);
            CHECK_MSG(again.size == buf.size && memcmp(again.data, buf.data, buf.size) == 0, "%s: rewrite differs", path);
            bool aligned;
            double e = rest_error(scene, back, &aligned);
            CHECK_MSG(aligned, "%s: triangles do not follow the source order", path);
            CHECK_MSG(e <= 1e-4, "%s: rest pose off by %g (relative)", path, e);
            tot->worst_rest = fmax(tot->worst_rest, e);
            ferry_scene *exported = NULL;
            CHECK_MSG(ferry_alm_to_scene(back, NULL, &exported, &err) == FERRY_OK, "%s: export: %s", path,
                      err.message);
            if (exported) {
                bool covered;
                double x = export_error(exported, back, &covered);
                CHECK_MSG(covered, "%s: the export does not hold every triangle", path);
                CHECK_MSG(x <= 1e-4, "%s: exported rest pose off by %g (relative)", path, x);
                tot->worst_export = fmax(tot->worst_export, x);
                ferry_scene_free(exported);
            }
            if (back->triangle_count <= 2000) check_records(path, back, false);
            static const double fractions[] = {0.5, 0.25, 0.1};
            for (int f = 0; f < 3; f++) {
                uint32_t target = (uint32_t)(back->triangle_count * fractions[f]);
                if (target == 0) continue;
                ferry_alm_lod_options o = {-1, target, -1};
                ferry_alm_lod *lod = NULL;
                CHECK_MSG(ferry_alm_lod_extract(back, &o, &lod, &err) == FERRY_OK, "%s: %s", path, err.message);
                if (lod) {
                    tot->lods++;
                    CHECK(lod->triangle_count <= back->triangle_count);
                    ferry_alm_lod_free(lod);
                }
            }
            ferry_alm_free(back);
        }
        ferry_buffer_free(&buf);
        ferry_buffer_free(&again);
        ferry_alm_free(m);
    }
    ferry_scene_free(scene);
    ferry_alo_free(model);
    free(data);
}

static void check_models(const char *dir, totals *tot)
{
    char **paths = NULL;
    size_t n = test_list_files(dir, ".alo", &paths);
    for (size_t i = 0; i < n; i++) check_model(paths[i], tot);
    test_free_paths(paths, n);
}

/* A model built with its animation: the ALM's frames are the ALA's poses.
 * Each animated bone's frame matrix (row-major, bone to parent) against the
 * translation, rotation and scale ferry_ala_sample_frame decodes. */
static void check_frames(void)
{
    size_t msize, asize;
    uint8_t *mdata = test_read_file(FERRY_SOURCE_DIR "/samples/alamo/walker.alo", &msize);
    uint8_t *adata = test_read_file(FERRY_SOURCE_DIR "/samples/alamo/walker_walk_00.ala", &asize);
    CHECK(mdata && adata);
    ferry_alo_model *model = NULL;
    ferry_ala_animation *anim = NULL;
    ferry_error err;
    CHECK(mdata && ferry_alo_read(mdata, msize, NULL, &model, &err) == FERRY_OK);
    CHECK(adata && ferry_ala_read(adata, asize, NULL, &anim, &err) == FERRY_OK);
    if (!model || !anim) goto done;
    ferry_alo_scene_options so;
    memset(&so, 0, sizeof so);
    const ferry_ala_animation *anims[1] = {anim};
    so.animations = anims;
    so.animation_count = 1;
    so.skip_textures = true;
    ferry_scene *scene = NULL;
    CHECK(ferry_alo_to_scene(model, &so, &scene, &err) == FERRY_OK);
    ferry_alm_mesh *m = NULL;
    if (scene) CHECK_MSG(ferry_alm_from_scene(scene, NULL, &m, &err) == FERRY_OK, "%s", err.message);
    if (m) {
        CHECK_MSG(m->frame_count == anim->frame_count, "%u frames, the animation has %u", m->frame_count,
                  anim->frame_count);
        CHECK_MSG(fabs(m->frame_rate - anim->fps) < 1e-3, "frame rate %g, the animation's %g", m->frame_rate,
                  (double)anim->fps);
        CHECK(validate_errors("walker+walk", m) == 0);
        double worst = 0;
        size_t compared = 0;
        for (size_t b = 0; b < anim->bone_count; b++) {
            uint32_t bone = anim->bones[b].index;
            if (bone >= model->skeleton.bone_count) continue;
            int32_t node = -1;
            for (size_t n = 0; n < scene->node_count && node < 0; n++)
                if (scene->nodes[n].name && strcmp(scene->nodes[n].name, model->skeleton.bones[bone].name) == 0)
                    node = (int32_t)n;
            CHECK_MSG(node >= 0, "bone %s has no node", model->skeleton.bones[bone].name);
            if (node < 0) continue;
            for (uint32_t f = 0; f < m->frame_count && f < anim->frame_count; f++) {
                ferry_ala_pose p;
                ferry_ala_sample_frame(anim, b, f, &p);
                double x = p.rotation[0], y = p.rotation[1], z = p.rotation[2], w = p.rotation[3];
                /* Row-major T * R * S, R from the unit quaternion. */
                double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                               2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                               2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
                const double *got = m->frames + ((size_t)f * m->bone_count + (size_t)node) * 16;
                for (int row = 0; row < 3; row++) {
                    for (int col = 0; col < 3; col++)
                        worst = fmax(worst, fabs(got[row * 4 + col] - r[row * 3 + col] * p.scale[col]));
                    worst = fmax(worst, fabs(got[row * 4 + 3] - p.translation[row]));
                }
                compared++;
            }
        }
        CHECK(compared > 0);
        CHECK_MSG(worst < 1e-4, "frame matrices differ from the ALA poses by %g", worst);
        printf("walker + walk: %u frames at %g/s, %zu bone-frames, worst difference from the ALA poses %.3g\n",
               m->frame_count, m->frame_rate, compared, worst);
        ferry_alm_free(m);
    }
    ferry_scene_free(scene);
done:
    ferry_alo_free(model);
    ferry_ala_free(anim);
    free(mdata);
    free(adata);
}

int main(void)
{
    check_frames();
    hand_mesh h;
    make_grid(&h, 8);
    build_hand("grid", &h, 2, 4);
    hand_free(&h);
    /* Corners join 3 patches and stay; everything else goes for free. */
    make_cube(&h, 4);
    build_hand("cube", &h, 12, 8);
    hand_free(&h);
    check_curved();
    check_scene();

    totals tot = {0};
    check_models(FERRY_SOURCE_DIR "/samples/alamo", &tot);
    CHECK(tot.models >= 3);
    const char *corpus = FERRY_SHARED_DIR "/corpus/alamo";
    if (test_dir_exists(corpus)) check_models(corpus, &tot);
    else TEST_LEFT_OUT("corpus checks (%s is absent)", corpus);
    printf("models %zu, triangles %zu, LODs %zu, worst rest-pose error %.3g (relative), of the glTF export %.3g, "
           "build %.0f triangles/s\n",
           tot.models, tot.triangles, tot.lods, tot.worst_rest, tot.worst_export,
           tot.build_seconds > 0 ? (double)tot.triangles / tot.build_seconds : 0.0);
    TEST_END();
}
