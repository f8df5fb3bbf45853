/* ALM files of every version 2..10 written field by field from alm.txt,
 * without the library's writer, so that reading them tests the reader
 * against the spec rather than against itself. The content is small and
 * every value is exactly representable in 32-bit floats (except those the
 * tests use to tell 64-bit storage apart), so expected values are written
 * in the tests as plain numbers.
 *
 * Content (version permitting):
 *   comments: "made by hand", "" (empty)
 *   bones: 0 root, translate (1, 2, 3); 1 child of 0, a 90 degree turn
 *          about z and translate (0, 1, 0)
 *   positions: 0 (0,0,0), 1 (1,0,0), 2 (1,1,0) shared by bones 0 and 1
 *              (0.5 each), 3 (0,1,0), 4 (0.5,0.5,0): the target of the edge
 *              collapse, 5 (1,1,0) on bone 0 alone: position 2 with one
 *              influence less (a lower-LOD position: num_positions counts
 *              positions over all levels of detail)
 *   vertices: 0..4 on positions 0..4, 5 on position 5 (s, t = 1, 1 like 2)
 *   texture: 2x2 RGB, values 0..11; tangent map (v8+): 1x2
 *   material: texture 0, tangent map 0 (v8+) / one weight (before v8)
 *   triangles: (0,1,2) and (0,2,3), material 0
 *   collapses: (v9+) influence collapse of position 2, the one vertex on it
 *              moving to the new vertex 5 on position 5 (pair 2 -> 5); then
 *              edge p1 0, p2 5 -> vertex 4 (the diagonal, now from position 0
 *              to 5). Before v9 only the edge collapse, p1 0, p2 2 -> 4.
 *              Triangle counts by hand: 2 at full resolution; the influence
 *              collapse moves no triangle corner onto another's position, so
 *              still 2 ((0,1,5) and (0,5,3) in vertices); the edge collapse
 *              merges positions 0 and 5, which both triangles hold: 0.
 *   frames (v4+): 2 */
#ifndef FERRY_TEST_ALM_FIXTURE_H
#define FERRY_TEST_ALM_FIXTURE_H

#include "bytes.h"

/* Where the builder put records, for checking located diagnostics. */
typedef struct alm_fixture_at {
    size_t bones[2], positions[6], vertices[6], textures[1], materials[1], triangles, collapses[2], frames, end;
} alm_fixture_at;

static inline void fx_real(bytes *b, uint32_t version, double x)
{
    if (version <= 2)
        put_f64be(b, x);
    else
        put_f32be(b, (float)x);
}

static inline void fx_vec(bytes *b, uint32_t version, uint32_t n, const uint32_t *bones, const double *coords)
{
    put_u32be(b, n);
    for (uint32_t i = 0; i < n; i++) {
        put_u32be(b, bones[i]);
        for (int k = 0; k < 4; k++) fx_real(b, version, coords[4 * i + k]);
    }
}

/* A transform given as 3x3 (row major) and offset: 4x4 from version 5,
 * 9 + 3 reals before. */
static inline void fx_matrix(bytes *b, uint32_t version, const double l[9], const double t[3])
{
    if (version >= 5) {
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) fx_real(b, version, l[3 * r + c]);
            fx_real(b, version, t[r]);
        }
        fx_real(b, version, 0);
        fx_real(b, version, 0);
        fx_real(b, version, 0);
        fx_real(b, version, 1);
    } else {
        for (int i = 0; i < 9; i++) fx_real(b, version, l[i]);
        for (int i = 0; i < 3; i++) fx_real(b, version, t[i]);
    }
}

static const double fx_identity3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static const double fx_turn_z[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}; /* x -> y, y -> -x */
static const double fx_bone_offset[2][3] = {{1, 2, 3}, {0, 1, 0}};
/* A signalling NaN with a payload: must come back bit for bit. */
#define FX_SNAN_BITS 0x7fa00001u

static inline void alm_fixture(bytes *b, uint32_t v, alm_fixture_at *at)
{
    alm_fixture_at local;
    if (!at) at = &local;
    put(b, "ALM", 4); /* with its NUL */
    put_u32be(b, v);
    put_u32be(b, 2); /* comments */
    put_u32be(b, 2); /* bones */
    put_u32be(b, 6); /* positions */
    put_u32be(b, 6); /* vertices */
    put_u32be(b, 1); /* textures */
    if (v >= 8) put_u32be(b, 1); /* tangent maps */
    put_u32be(b, 1); /* materials */
    put_u32be(b, 2); /* triangles */
    put_u32be(b, v >= 9 ? 2 : 1); /* collapses */
    if (v >= 4) put_u32be(b, 2); /* frames */
    if (v >= 6) {
        put_f32be(b, 30.0f); /* frame rate */
        put_u32be(b, 1);     /* override_P */
    }
    put_u32be(b, 12);
    put(b, "made by hand", 12);
    put_u32be(b, 0);
    for (int i = 0; i < 2; i++) {
        at->bones[i] = b->size;
        put_u32be(b, i == 0 ? 0xffffffffu : 0u);
        fx_matrix(b, v, i == 0 ? fx_identity3 : fx_turn_z, fx_bone_offset[i]);
        if (v >= 6) put_u32be(b, i == 0 ? 0x01u : 0x10003u);
        if (v >= 10) {
            fx_real(b, v, 0);
            fx_real(b, v, 0.5 + i);
            fx_real(b, v, 0);
        }
        if (v >= 6) {
            fx_real(b, v, 1.5);                       /* max_singular */
            for (int k = 0; k < 3; k++) fx_real(b, v, 0.25 * (k + 1)); /* centre */
            fx_real(b, v, 2);                         /* radius */
            for (int k = 0; k < 16; k++) fx_real(b, v, 0.5 * k);  /* expect_L */
            for (int k = 0; k < 16; k++) fx_real(b, v, 0.25 * k); /* expect_GTG */
            if (i == 1 && v >= 3)
                put_u32be(b, FX_SNAN_BITS); /* expect_LTGTGL */
            else
                fx_real(b, v, 3.5);
        }
    }
    if (v >= 6)
        for (int k = 0; k < 64; k++) fx_real(b, v, 0.125 * k); /* P, 8x8 */
    static const double corner[6][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}, {1, 1, 0}};
    for (int i = 0; i < 6; i++) {
        at->positions[i] = b->size;
        if (i == 2) {
            const uint32_t bones[2] = {0, 1};
            const double c[8] = {0.5, 0.5, 0, 0.5, 0.5, 0.5, 0, 0.5};
            fx_vec(b, v, 2, bones, c);
        } else {
            const uint32_t bones[1] = {0};
            const double c[4] = {corner[i][0], corner[i][1], corner[i][2], 1};
            fx_vec(b, v, 1, bones, c);
        }
    }
    for (int i = 0; i < 6; i++) {
        at->vertices[i] = b->size;
        put_u32be(b, (uint32_t)i);
        if (v >= 7) {
            if (i == 0) {
                const uint32_t bones[1] = {1};
                const double c[4] = {1, 0, 0, 0};
                fx_vec(b, v, 1, bones, c);
            } else {
                put_u32be(b, 0);
            }
            put_u32be(b, 0);
        }
        fx_real(b, v, corner[i][0]);
        /* 0.1 has no exact 32-bit form: tells 64-bit storage apart. */
        fx_real(b, v, v <= 2 && i == 0 ? 0.1 : corner[i][1]);
    }
    at->textures[0] = b->size;
    put_u32be(b, 2);
    put_u32be(b, 2);
    put_u32be(b, 3);
    put_u32be(b, 0);
    for (uint8_t k = 0; k < 12; k++) put_u8(b, k);
    if (v >= 8) {
        put_u32be(b, 1);
        put_u32be(b, 2);
        put_u32be(b, 0); /* patch 0 */
        const uint32_t bones[1] = {1};
        const double c[4] = {0, 0, 1, 0};
        fx_vec(b, v, 1, bones, c);
        put_u32be(b, 0);
        put_u32be(b, 0xffffffffu); /* patch -1 */
        put_u32be(b, 0);
        put_u32be(b, 0);
    }
    at->materials[0] = b->size;
    put_u32be(b, 0); /* texture */
    if (v >= 8) {
        put_u32be(b, 0); /* tangent map */
    } else {
        put_u32be(b, 1); /* weights */
        put_u32be(b, 1); /* bone */
        put_u32be(b, 0); /* tangent texture */
    }
    at->triangles = b->size;
    const uint32_t tri[2][4] = {{0, 1, 2, 0}, {0, 2, 3, 0}};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 4; k++) put_u32be(b, tri[i][k]);
    int c = 0;
    if (v >= 9) {
        at->collapses[c++] = b->size;
        put_u32be(b, 0xffffffffu);
        put_u32be(b, 1);
        put_u32be(b, 2);
        put_u32be(b, 5);
        fx_real(b, v, 0.125);
    }
    at->collapses[c] = b->size;
    put_u32be(b, 0);
    put_u32be(b, v >= 9 ? 5 : 2); /* position 2 is gone after the influence collapse */
    put_u32be(b, 4);
    put_u32be(b, 4);
    fx_real(b, v, 0.5);
    at->frames = b->size;
    if (v >= 4) {
        for (int f = 0; f < 2; f++)
            for (int i = 0; i < 2; i++) {
                const double t[3] = {f + 1.0, 0, i};
                fx_matrix(b, v, i == 0 ? fx_identity3 : fx_turn_z, t);
            }
    }
    at->end = b->size;
}

/* ---- a mesh simplified by influence collapses (versions 9 and 10) ----
 *
 * Written field by field from alm.txt, like alm_fixture. A strip of two
 * unit quads in the z = 0 plane on a chain of three bones (0 at the
 * origin, 1 and 2 one unit further along x each; rest transforms are
 * translations), with a texture seam along x = 1 (the left quad's
 * vertices there have s = 0.5, the right quad's s = 0):
 *
 *     P3 ---- P4 ---- P5        y = 1
 *     |  T1 / |  T3 / |
 *     | / T0  | / T2  |
 *     P0 ---- P1 ---- P2        y = 0
 *
 * Each position is linear-blend skinned: the component on bone i is
 * w_i * (x - origin_i, y, z, 1), so the rest pose is the point itself.
 *   P0 (0,0) bone 0         P3 (0,1) bone 0
 *   P1 (1,0) bones 0,1,2 with weights 0.25, 0.5, 0.25
 *   P4 (1,1) bones 0,1 with 0.5 each
 *   P2 (2,0) bone 2         P5 (2,1) bone 2
 * Lower-LOD positions (num_positions counts all levels of detail):
 *   P6 = P1 on bones 0,1 (0.5 each): one influence less
 *   P7 = P4 on bone 1 alone
 *   P8 = P6 on bone 0 alone
 * Vertices (position; s, t):
 *   V0 P0 (0,0)    V1 P1 left (0.5,0)   V2 P1 right (0,0)   V3 P2 (1,0)
 *   V4 P3 (0,1)    V5 P4 left (0.5,1)   V6 P4 right (0,1)   V7 P5 (1,1)
 *   V8 P6 left (0.5,0)    V9 P6 right (0,0)
 *   V10 P7 left (0.5,1)   V11 P7 right (0,1)
 *   V12 P8 left (0.5,0)   V13 P8 right (0,0)
 * Triangles (ccw seen from +z): T0 (V0,V1,V5) T1 (V0,V5,V4)
 *                               T2 (V2,V3,V7) T3 (V2,V7,V6)
 * Collapse records, and the mesh after each, worked out by hand:
 *   C0 influence, 2 pairs: V1 -> V8, V2 -> V9 (P1's two vertices move to
 *      P6). No two corners of a triangle meet: 4 triangles,
 *      T0 (V0,V8,V5) T1 (V0,V5,V4) T2 (V9,V3,V7) T3 (V9,V7,V6).
 *   C1 influence, 2 pairs: V5 -> V10, V6 -> V11 (P4 -> P7): 4 triangles,
 *      T0 (V0,V8,V10) T1 (V0,V10,V4) T2 (V9,V3,V7) T3 (V9,V7,V11).
 *   C2 edge p1 P5, p2 P7, vl = vr = V11: the edge P5-P7 is only in T3,
 *      (P6,P5,P7), which holds P5 then P7, so T3 is left of it and dies.
 *      Its vertices on P5 and P7 (V7, V11) become vl = V11, so T2, which
 *      shares V7, becomes (V9,V3,V11); V10 (T0, T1) is on P7 already and
 *      in neither side's triangle: it stays. 3 triangles.
 *   C3 influence, 2 pairs: V8 -> V12, V9 -> V13 (P6 -> P8; V8 and V9 are
 *      the vertices on P6 now): 3 triangles,
 *      T0 (V0,V12,V10) T1 (V0,V10,V4) T2 (V13,V3,V11).
 *   C4 edge p1 P2, p2 P8, vl = vr = V13: only T2 (P8,P2,P7) holds the edge,
 *      as P8 then P2 (right of P2 -> P8); it dies. 2 triangles,
 *      T0 (V0,V12,V10) T1 (V0,V10,V4).
 *   C5 edge p1 P3, p2 P0, vl = vr = V0: only T1 (P0,P7,P3) holds it (P3
 *      then P0: left); it dies. 1 triangle: T0 (V0,V12,V10), i.e. the
 *      points (0,0), (1,0) on P8 and (1,1) on P7, still counter-clockwise.
 * Triangle counts after 0..6 records: 4 4 4 3 3 2 1. Errors 0.0625, 0.125,
 * 0.25, 0.375, 0.5, 0.75. Two frames at 24 per second: frame 0 the rest
 * pose, frame 1 bone 1 turned 90 degrees about z at its joint. */
typedef struct alm_influence_at {
    size_t positions[9], vertices[14], triangles, collapses[6], frames, end;
} alm_influence_at;

static const uint32_t fx_influence_counts[7] = {4, 4, 4, 3, 3, 2, 1};

static inline void alm_influence_fixture(bytes *b, uint32_t v, alm_influence_at *at)
{
    alm_influence_at local;
    if (!at) at = &local;
    put(b, "ALM", 4);
    put_u32be(b, v);   /* 9 or 10 */
    put_u32be(b, 1);   /* comments */
    put_u32be(b, 3);   /* bones */
    put_u32be(b, 9);   /* positions */
    put_u32be(b, 14);  /* vertices */
    put_u32be(b, 0);   /* textures */
    put_u32be(b, 0);   /* tangent maps */
    put_u32be(b, 1);   /* materials */
    put_u32be(b, 4);   /* triangles */
    put_u32be(b, 6);   /* collapses */
    put_u32be(b, 2);   /* frames */
    put_f32be(b, 24.0f);
    put_u32be(b, 0);   /* no P */
    put_u32be(b, 28);
    put(b, "influence collapses, by hand", 28);
    static const double offset[3][3] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 0}}; /* bone to parent */
    for (int i = 0; i < 3; i++) {
        put_u32be(b, i == 0 ? 0xffffffffu : (uint32_t)(i - 1));
        fx_matrix(b, v, fx_identity3, offset[i]);
        put_u32be(b, 0); /* flags: no statistics in use */
        if (v >= 10) {
            fx_real(b, v, i < 2 ? 1.0 : 0.5); /* tail */
            fx_real(b, v, 0);
            fx_real(b, v, 0);
        }
        fx_real(b, v, 1); /* max_singular */
        for (int k = 0; k < 37; k++) fx_real(b, v, 0);
    }
    /* Positions: per component bone, then w * (x - origin, y, 0, 1). */
    static const uint32_t count[9] = {1, 3, 1, 1, 2, 1, 2, 1, 1};
    static const uint32_t bone[9][3] = {{0}, {0, 1, 2}, {2}, {0}, {0, 1}, {2}, {0, 1}, {1}, {0}};
    static const double coords[9][3][4] = {
        {{0, 0, 0, 1}},
        {{0.25, 0, 0, 0.25}, {0, 0, 0, 0.5}, {-0.25, 0, 0, 0.25}},
        {{0, 0, 0, 1}},
        {{0, 1, 0, 1}},
        {{0.5, 0.5, 0, 0.5}, {0, 0.5, 0, 0.5}},
        {{0, 1, 0, 1}},
        {{0.5, 0, 0, 0.5}, {0, 0, 0, 0.5}},
        {{0, 1, 0, 1}},
        {{1, 0, 0, 1}},
    };
    for (int i = 0; i < 9; i++) {
        at->positions[i] = b->size;
        fx_vec(b, v, count[i], bone[i], &coords[i][0][0]);
    }
    static const uint32_t vpos[14] = {0, 1, 1, 2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 8};
    static const double st[14][2] = {{0, 0},   {0.5, 0}, {0, 0},   {1, 0}, {0, 1},   {0.5, 1}, {0, 1},
                                     {1, 1},   {0.5, 0}, {0, 0},   {0.5, 1}, {0, 1}, {0.5, 0}, {0, 0}};
    for (int i = 0; i < 14; i++) {
        at->vertices[i] = b->size;
        put_u32be(b, vpos[i]);
        put_u32be(b, 0); /* tangent plane: two empty vectors */
        put_u32be(b, 0);
        fx_real(b, v, st[i][0]);
        fx_real(b, v, st[i][1]);
    }
    put_u32be(b, 0xffffffffu); /* material: no diffuse map */
    put_u32be(b, 0xffffffffu); /* no tangent map */
    at->triangles = b->size;
    static const uint32_t tri[4][3] = {{0, 1, 5}, {0, 5, 4}, {2, 3, 7}, {2, 7, 6}};
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) put_u32be(b, tri[i][k]);
        put_u32be(b, 0);
    }
    static const uint32_t pairs[3][4] = {{1, 8, 2, 9}, {5, 10, 6, 11}, {8, 12, 9, 13}};
    static const uint32_t edges[3][4] = {{5, 7, 11, 11}, {2, 8, 13, 13}, {3, 0, 0, 0}};
    static const double error[6] = {0.0625, 0.125, 0.25, 0.375, 0.5, 0.75};
    for (int c = 0, in = 0, ed = 0; c < 6; c++) {
        at->collapses[c] = b->size;
        if (c == 0 || c == 1 || c == 3) {
            put_u32be(b, 0xffffffffu);
            put_u32be(b, 2);
            for (int k = 0; k < 4; k++) put_u32be(b, pairs[in][k]);
            in++;
        } else {
            for (int k = 0; k < 4; k++) put_u32be(b, edges[ed][k]);
            ed++;
        }
        fx_real(b, v, error[c]);
    }
    at->frames = b->size;
    static const double turn[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}; /* 90 degrees about z */
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < 3; i++) fx_matrix(b, v, f == 1 && i == 1 ? turn : fx_identity3, offset[i]);
    at->end = b->size;
}

#endif
