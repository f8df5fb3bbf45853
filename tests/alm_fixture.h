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

#endif
