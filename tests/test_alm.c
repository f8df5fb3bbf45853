/* ALM reading and writing against files built from the spec (alm_fixture.h),
 * every version 2..10; animation-space skinning with hand-computed values. */
#include <ferry/alm.h>

#include "alm_fixture.h"
#include "test.h"

static void check_version(uint32_t v)
{
    bytes b = {0};
    alm_fixture_at at;
    alm_fixture(&b, v, &at);
    ferry_alm_mesh *m = NULL;
    ferry_error err;
    ferry_result r = ferry_alm_read(b.data, b.size, NULL, &m, &err);
    CHECK_MSG(r == FERRY_OK, "version %u: %s at %s", (unsigned)v, err.message, err.path);
    if (r != FERRY_OK) {
        free(b.data);
        return;
    }
    CHECK_EQ_U(m->version, v);
    CHECK_EQ_U(ferry_alm_float_size(v), v <= 2 ? 8 : 4);
    CHECK_EQ_U(m->comment_count, 2);
    CHECK(m->comment_lengths[0] == 12 && strcmp(m->comments[0], "made by hand") == 0);
    CHECK(m->comment_lengths[1] == 0 && m->comments[1][0] == 0);
    CHECK_EQ_U(m->bone_count, 2);
    CHECK_EQ_U(m->position_count, 6);
    CHECK_EQ_U(m->vertex_count, 6);
    CHECK_EQ_U(m->texture_count, 1);
    CHECK_EQ_U(m->tangent_map_count, v >= 8 ? 1 : 0);
    CHECK_EQ_U(m->material_count, 1);
    CHECK_EQ_U(m->triangle_count, 2);
    CHECK_EQ_U(m->collapse_count, v >= 9 ? 2 : 1);
    CHECK_EQ_U(m->frame_count, v >= 4 ? 2 : 0);
    CHECK(m->frame_rate == (v >= 6 ? 30.0 : 0.0));
    CHECK_EQ_U(m->override_p, v >= 6 ? 1 : 0);
    CHECK((m->p_matrix != NULL) == (v >= 6));
    if (m->p_matrix) CHECK(m->p_matrix[63] == 0.125 * 63 && m->p_matrix[1] == 0.125);
    CHECK(m->trailing_size == 0);

    /* Bones: the 3x3 + offset of early versions is the same 4x4. */
    const ferry_alm_bone *b0 = &m->bones[0], *b1 = &m->bones[1];
    CHECK(b0->parent == -1 && b1->parent == 0);
    CHECK(b0->transform[3] == 1 && b0->transform[7] == 2 && b0->transform[11] == 3);
    CHECK(b0->transform[0] == 1 && b0->transform[5] == 1 && b0->transform[10] == 1 && b0->transform[15] == 1);
    CHECK(b0->transform[12] == 0 && b0->transform[13] == 0 && b0->transform[14] == 0);
    CHECK(b1->transform[1] == -1 && b1->transform[4] == 1 && b1->transform[0] == 0 && b1->transform[7] == 1);
    CHECK_EQ_U(b0->flags, v >= 6 ? 0x01 : 0);
    CHECK_EQ_U(b1->flags, v >= 6 ? 0x10003 : 0);
    CHECK(b0->max_singular == (v >= 6 ? 1.5 : 0));
    CHECK(b0->translate_centre[2] == (v >= 6 ? 0.75 : 0));
    CHECK(b0->translate_radius == (v >= 6 ? 2 : 0));
    CHECK(b0->expect_L[15] == (v >= 6 ? 7.5 : 0));
    CHECK(b0->expect_GTG[4] == (v >= 6 ? 1 : 0));
    CHECK(b0->expect_LTGTGL == (v >= 6 ? 3.5 : 0));
    if (v >= 6) CHECK(isnan(b1->expect_LTGTGL));
    CHECK(b1->tail[1] == (v >= 10 ? 1.5 : 0));
    CHECK(b0->tail[1] == (v >= 10 ? 0.5 : 0));

    /* Positions and vertices. */
    CHECK_EQ_U(m->positions[2].count, 2);
    CHECK(m->positions[2].components[1].bone == 1 && m->positions[2].components[1].coords[3] == 0.5);
    CHECK(m->positions[1].count == 1 && m->positions[1].components[0].coords[0] == 1);
    CHECK(m->positions[4].components[0].coords[1] == 0.5);
    CHECK_EQ_U(m->vertices[5].position, 5);
    CHECK(m->positions[5].count == 1 && m->positions[5].components[0].bone == 0 &&
          m->positions[5].components[0].coords[0] == 1 && m->positions[5].components[0].coords[1] == 1);
    CHECK(m->vertices[3].tex_coords[0] == 0 && m->vertices[3].tex_coords[1] == 1);
    if (v <= 2)
        CHECK(m->vertices[0].tex_coords[1] == 0.1); /* exact only in 64 bits */
    CHECK_EQ_U(m->vertices[0].tangents[0].count, v >= 7 ? 1 : 0);
    if (v >= 7) CHECK(m->vertices[0].tangents[0].components[0].bone == 1 && m->vertices[0].tangents[0].components[0].coords[0] == 1);
    CHECK_EQ_U(m->vertices[1].tangents[0].count, 0);

    /* Texture, tangent map, material. */
    CHECK(m->textures[0].width == 2 && m->textures[0].height == 2 && m->textures[0].channels == 3);
    CHECK(m->textures[0].values[0] == 0 && m->textures[0].values[11] == 11);
    if (v >= 8) {
        const ferry_alm_tangent_map *t = &m->tangent_maps[0];
        CHECK(t->width == 1 && t->height == 2);
        CHECK(t->entries[0].patch == 0 && t->entries[1].patch == -1);
        CHECK(t->entries[0].tangents[0].count == 1 && t->entries[0].tangents[0].components[0].coords[2] == 1);
        CHECK(m->materials[0].texture_id == 0 && m->materials[0].tangent_id == 0);
        CHECK_EQ_U(m->materials[0].weight_count, 0);
    } else {
        CHECK(m->materials[0].texture_id == 0 && m->materials[0].tangent_id == -1);
        CHECK(m->materials[0].weight_count == 1 && m->materials[0].bones[0] == 1 && m->materials[0].tangent_ids[0] == 0);
    }

    /* Triangles, collapses, frames. */
    CHECK(m->triangles[1].vertices[0] == 0 && m->triangles[1].vertices[1] == 2 && m->triangles[1].vertices[2] == 3);
    const ferry_alm_collapse *e = &m->collapses[v >= 9 ? 1 : 0];
    CHECK(e->kind == FERRY_ALM_EDGE_COLLAPSE && e->p1 == 0 && e->p2 == (v >= 9 ? 5u : 2u) && e->vl == 4 && e->vr == 4 &&
          e->error == 0.5);
    if (v >= 9) {
        const ferry_alm_collapse *in = &m->collapses[0];
        CHECK(in->kind == FERRY_ALM_INFLUENCE_COLLAPSE && in->pair_count == 1 && in->pairs[0] == 2 && in->pairs[1] == 5);
        CHECK(in->error == 0.125);
    }
    if (v >= 4) {
        /* frame 1, bone 1: turn about z, offset (2, 0, 1) */
        const double *f = m->frames + 16 * (2 * 1 + 1);
        CHECK(f[1] == -1 && f[3] == 2 && f[7] == 0 && f[11] == 1 && f[15] == 1 && f[12] == 0);
    } else {
        CHECK(m->frames == NULL);
    }

    /* Offsets kept for diagnostics. */
    CHECK(m->offsets && m->offsets->positions[3] == at.positions[3] && m->offsets->vertices[5] == at.vertices[5]);
    CHECK(m->offsets->collapses[0] == at.collapses[0] && m->offsets->triangles == at.triangles);

    /* The spec-built file is valid and rewrites byte for byte. */
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    CHECK(ferry_alm_validate(m, NULL, &d) == 0);
    CHECK_MSG(d.error_count == 0, "version %u: %s (%s at %s)", (unsigned)v, d.count ? d.items[0].message : "",
              d.count ? d.items[0].rule : "", d.count ? d.items[0].path : "");
    ferry_diagnostics_free(&d);
    ferry_buffer out = {0};
    CHECK(ferry_alm_write(m, &out, &err) == FERRY_OK);
    CHECK_MSG(out.size == b.size && memcmp(out.data, b.data, b.size) == 0, "version %u: rewrite differs (%zu vs %zu bytes)",
              (unsigned)v, out.size, b.size);
    ferry_buffer_free(&out);

    /* Full resolution: 2 triangles; the influence collapse keeps both, now
     * on position 5 instead of 2; after the edge collapse none (both hold
     * positions 0 and 5, or 0 and 2 before version 9). */
    uint32_t counts[3];
    CHECK(ferry_alm_lod_triangle_counts(m, counts, &err) == FERRY_OK);
    CHECK_EQ_U(counts[0], 2);
    if (v >= 9) CHECK_EQ_U(counts[1], 2);
    CHECK_EQ_U(counts[m->collapse_count], 0);
    if (v >= 9) {
        /* After the influence collapse: (0,1,5) (0,5,3), vertices in order of
         * first use 0 1 5 3, so vertex 2 (and position 2) is no longer used. */
        ferry_alm_lod_options o = {1, 0, -1};
        ferry_alm_lod *lod = NULL;
        CHECK(ferry_alm_lod_extract(m, &o, &lod, &err) == FERRY_OK);
        if (lod) {
            CHECK_EQ_U(lod->triangle_count, 2);
            CHECK_EQ_U(lod->vertex_count, 4);
            if (lod->vertex_count == 4)
                CHECK(lod->vertex_source[0] == 0 && lod->vertex_source[1] == 1 && lod->vertex_source[2] == 5 &&
                      lod->vertex_source[3] == 3);
            if (lod->triangle_count == 2)
                CHECK(lod->triangles[0].vertices[2] == 2 && lod->triangles[1].vertices[1] == 2 &&
                      lod->triangles[1].vertices[2] == 3);
        }
        ferry_alm_lod_free(lod);
    }
    ferry_alm_free(m);
    free(b.data);
}

/* The writer refuses what a version cannot hold. */
static void check_refusals(void)
{
    bytes b = {0};
    alm_fixture(&b, 4, NULL);
    ferry_alm_mesh *m;
    ferry_error err;
    CHECK(ferry_alm_read(b.data, b.size, NULL, &m, &err) == FERRY_OK);
    m->bones[1].transform[12] = 0.5; /* not affine: version 4 has 3x3 + offset */
    ferry_buffer out = {0};
    CHECK(ferry_alm_write(m, &out, &err) == FERRY_ERR_ARGUMENT);
    CHECK(out.size == 0);
    m->bones[1].transform[12] = 0;
    m->version = 11;
    CHECK(ferry_alm_write(m, &out, &err) == FERRY_ERR_UNSUPPORTED);
    /* Changing version converts: 4 -> 10 reads back with the same frames. */
    m->version = 10;
    CHECK(ferry_alm_write(m, &out, &err) == FERRY_OK);
    ferry_alm_mesh *back;
    CHECK(ferry_alm_read(out.data, out.size, NULL, &back, &err) == FERRY_OK);
    if (back) {
        CHECK(back->version == 10 && back->frame_count == 2 && back->frames[16 * 3 + 3] == 2);
        ferry_alm_free(back);
    }
    ferry_buffer_free(&out);
    ferry_alm_free(m);
    free(b.data);

    /* Versions outside 2..10 are unsupported, naming the version. */
    bytes u = {0};
    put(&u, "ALM", 4);
    put_u32be(&u, 11);
    put_zeros(&u, 64);
    CHECK(ferry_alm_read(u.data, u.size, NULL, &m, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(err.offset == 4 && strstr(err.message, "11"));
    u.data[7] = 1;
    CHECK(ferry_alm_read(u.data, u.size, NULL, &m, &err) == FERRY_ERR_UNSUPPORTED);
    free(u.data);
}

static void check_near4(const double got[4], double x, double y, double z, double w)
{
    CHECK_NEAR(got[0], x, 1e-12);
    CHECK_NEAR(got[1], y, 1e-12);
    CHECK_NEAR(got[2], z, 1e-12);
    CHECK_NEAR(got[3], w, 1e-12);
}

/* The fixture's skeleton: bone 1 (turn x -> y, offset (0,1,0)) under bone 0
 * (offset (1,2,3)), so bone 1 in object space is the turn with offset
 * (1,3,3). Position 2 is half on each bone with (0.5, 0.5, 0, 0.5):
 * (1, 1.5, 1.5, 0.5) + (-0.5 + 0.5, 0.5 + 1.5, 1.5, 0.5) = (1, 3.5, 3, 1). */
static void check_skinning_fixture(void)
{
    bytes b = {0};
    alm_fixture(&b, 10, NULL);
    ferry_alm_mesh *m;
    ferry_error err;
    CHECK(ferry_alm_read(b.data, b.size, NULL, &m, &err) == FERRY_OK);
    double mats[32], out[4];
    CHECK(ferry_alm_bone_matrices(m, -1, mats, &err) == FERRY_OK);
    CHECK(mats[16 + 3] == 1 && mats[16 + 7] == 3 && mats[16 + 11] == 3);
    ferry_alm_vector_eval(&m->positions[2], mats, 2, out);
    check_near4(out, 1, 3.5, 3, 1);
    ferry_alm_vector_eval(&m->positions[1], mats, 2, out);
    check_near4(out, 2, 2, 3, 1);
    ferry_alm_vector_eval(&m->vertices[0].tangents[0], mats, 2, out);
    check_near4(out, 0, 1, 0, 0); /* a tangent turns, does not move */
    /* Frame 1: bone 0 offset (2,0,0); bone 1 offset (2,0,1) under it: (4,0,1).
     * Position 2: (1.5, 0.5, 0, 0.5) + (-0.5 + 2, 0.5, 0.5, 0.5) = (3, 1, 0.5, 1). */
    CHECK(ferry_alm_bone_matrices(m, 1, mats, &err) == FERRY_OK);
    ferry_alm_vector_eval(&m->positions[2], mats, 2, out);
    check_near4(out, 3, 1, 0.5, 1);
    ferry_alm_vector_eval(&m->positions[1], mats, 2, out);
    check_near4(out, 3, 0, 0, 1);
    CHECK(ferry_alm_bone_matrices(m, 2, mats, &err) == FERRY_ERR_ARGUMENT);
    ferry_alm_free(m);
    free(b.data);
}

/* A two-bone chain, each bone a 90 degree turn about z and one unit along
 * its parent's x: bone 1 in object space turns 180 degrees and sits at
 * R90 (1,0,0) + (1,0,0) = (1,1,0); its point (1,0,0) lands on (0,1,0). */
static void check_chain(void)
{
    ferry_alm_bone bones[2];
    memset(bones, 0, sizeof bones);
    const double r90[16] = {0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(bones[0].transform, r90, sizeof r90);
    memcpy(bones[1].transform, r90, sizeof r90);
    bones[0].parent = -1;
    bones[1].parent = 0;
    ferry_alm_mesh m;
    memset(&m, 0, sizeof m);
    m.version = 10;
    m.bones = bones;
    m.bone_count = 2;
    double mats[32], out[4];
    ferry_error err;
    CHECK(ferry_alm_bone_matrices(&m, -1, mats, &err) == FERRY_OK);
    CHECK_NEAR(mats[16 + 0], -1, 1e-12);
    CHECK_NEAR(mats[16 + 5], -1, 1e-12);
    CHECK_NEAR(mats[16 + 3], 1, 1e-12);
    CHECK_NEAR(mats[16 + 7], 1, 1e-12);
    ferry_alm_component c[2] = {{1, {1, 0, 0, 1}}, {0, {0, 0, 0, 0}}};
    ferry_alm_vector vec = {c, 1};
    ferry_alm_vector_eval(&vec, mats, 2, out);
    check_near4(out, 0, 1, 0, 1);
    /* Linear blend as the special case: half on each bone of (1,0,0). Bone 0
     * puts it at R90 (1,0,0) + (1,0,0) = (1,1,0): the mean is (0.5, 1, 0). */
    c[0] = (ferry_alm_component){0, {0.5, 0, 0, 0.5}};
    c[1] = (ferry_alm_component){1, {0.5, 0, 0, 0.5}};
    vec.count = 2;
    ferry_alm_vector_eval(&vec, mats, 2, out);
    check_near4(out, 0.5, 1, 0, 1);
    /* A component on a bone past the count adds nothing. */
    c[1].bone = 7;
    ferry_alm_vector_eval(&vec, mats, 2, out);
    check_near4(out, 0.5, 0.5, 0, 0.5);
    bones[0].parent = 1; /* child before parent: refused */
    CHECK(ferry_alm_bone_matrices(&m, -1, mats, &err) == FERRY_ERR_ARGUMENT);
}

/* The smallest file of each version: its header with every count zero
 * (10 words, then num_tangents from 8, num_frames from 4, frame_rate and
 * override_P from 6). */
static void check_empty(void)
{
    for (uint32_t v = 2; v <= 10; v++) {
        bytes b = {0};
        put(&b, "ALM", 4);
        put_u32be(&b, v);
        size_t words = 8 + (v >= 8) + (v >= 4) + 2 * (v >= 6);
        put_zeros(&b, 4 * words);
        ferry_alm_mesh *m = NULL;
        ferry_error err;
        CHECK_MSG(ferry_alm_read(b.data, b.size, NULL, &m, &err) == FERRY_OK, "empty version %u: %s", (unsigned)v,
                  err.message);
        if (m) {
            CHECK(m->trailing_size == 0 && m->triangle_count == 0);
            ferry_buffer out = {0};
            CHECK(ferry_alm_write(m, &out, &err) == FERRY_OK && out.size == b.size && memcmp(out.data, b.data, b.size) == 0);
            ferry_buffer_free(&out);
            ferry_alm_free(m);
        }
        b.size--;
        CHECK(ferry_alm_read(b.data, b.size, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
        free(b.data);
    }
}

/* The mesh simplified by influence collapses (alm_influence_fixture): valid,
 * rewritten byte for byte, and at every level of detail exactly the
 * triangles worked out by hand in the fixture's comment, on the new
 * vertices and positions. Triangles are given in mesh vertices. */
static const uint32_t influence_lods[7][4][3] = {
    {{0, 1, 5}, {0, 5, 4}, {2, 3, 7}, {2, 7, 6}},
    {{0, 8, 5}, {0, 5, 4}, {9, 3, 7}, {9, 7, 6}},
    {{0, 8, 10}, {0, 10, 4}, {9, 3, 7}, {9, 7, 11}},
    {{0, 8, 10}, {0, 10, 4}, {9, 3, 11}},
    {{0, 12, 10}, {0, 10, 4}, {13, 3, 11}},
    {{0, 12, 10}, {0, 10, 4}},
    {{0, 12, 10}},
};

static void check_influence(uint32_t v)
{
    bytes b = {0};
    alm_influence_at at;
    alm_influence_fixture(&b, v, &at);
    CHECK_EQ_U(b.size, at.end);
    ferry_alm_mesh *m = NULL;
    ferry_error err;
    CHECK_MSG(ferry_alm_read(b.data, b.size, NULL, &m, &err) == FERRY_OK, "version %u: %s at %s", (unsigned)v,
              err.message, err.path);
    if (!m) {
        free(b.data);
        return;
    }
    CHECK(m->position_count == 9 && m->vertex_count == 14 && m->triangle_count == 4 && m->collapse_count == 6);
    CHECK(m->collapses[0].kind == FERRY_ALM_INFLUENCE_COLLAPSE && m->collapses[0].pair_count == 2 &&
          m->collapses[0].pairs[2] == 2 && m->collapses[0].pairs[3] == 9);
    CHECK(m->collapses[2].kind == FERRY_ALM_EDGE_COLLAPSE && m->collapses[2].p2 == 7 && m->collapses[2].vl == 11);
    CHECK(m->collapses[3].error == 0.375);

    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    CHECK(ferry_alm_validate(m, NULL, &d) == 0);
    CHECK_MSG(d.count == 0, "version %u: %zu diagnostics, first %s at %s: %s", (unsigned)v, d.count,
              d.count ? d.items[0].rule : "", d.count ? d.items[0].path : "", d.count ? d.items[0].message : "");
    ferry_diagnostics_free(&d);

    ferry_buffer out = {0};
    CHECK(ferry_alm_write(m, &out, &err) == FERRY_OK);
    CHECK_MSG(out.size == b.size && memcmp(out.data, b.data, b.size) == 0, "version %u: rewrite differs", (unsigned)v);
    ferry_buffer_free(&out);

    uint32_t counts[7];
    CHECK(ferry_alm_lod_triangle_counts(m, counts, &err) == FERRY_OK);
    for (int k = 0; k <= 6; k++)
        CHECK_MSG(counts[k] == fx_influence_counts[k], "version %u: %u triangles after %d records, expected %u",
                  (unsigned)v, (unsigned)counts[k], k, (unsigned)fx_influence_counts[k]);

    for (int k = 0; k <= 6; k++) {
        ferry_alm_lod_options o = {k, 0, -1};
        ferry_alm_lod *lod = NULL;
        CHECK(ferry_alm_lod_extract(m, &o, &lod, &err) == FERRY_OK);
        if (!lod) continue;
        bool same = lod->triangle_count == fx_influence_counts[k] && lod->collapses_applied == (uint32_t)k;
        for (uint32_t t = 0; same && t < lod->triangle_count; t++)
            for (int c = 0; c < 3; c++) same &= lod->vertex_source[lod->triangles[t].vertices[c]] == influence_lods[k][t][c];
        CHECK_MSG(same, "version %u: the mesh after %d records differs from the one worked out by hand", (unsigned)v, k);
        /* Every LOD vertex is used: none is left on a position that is gone. */
        uint8_t used[14] = {0};
        for (uint32_t t = 0; t < lod->triangle_count; t++)
            for (int c = 0; c < 3; c++) used[lod->triangles[t].vertices[c]] = 1;
        for (uint32_t i = 0; i < lod->vertex_count; i++) CHECK(i < 14 && used[i]);
        ferry_alm_lod_free(lod);
    }
    /* The coarsest mesh stands on positions 0, 8 and 7. */
    ferry_alm_lod_options last = {6, 0, -1};
    ferry_alm_lod *lod = NULL;
    CHECK(ferry_alm_lod_extract(m, &last, &lod, &err) == FERRY_OK);
    if (lod && lod->vertex_count == 3) {
        CHECK(m->vertices[lod->vertex_source[0]].position == 0);
        CHECK(m->vertices[lod->vertex_source[1]].position == 8);
        CHECK(m->vertices[lod->vertex_source[2]].position == 7);
    }
    ferry_alm_lod_free(lod);
    /* --triangles 3 stops once 3 remain (after C2); --error 0.3 applies the
     * records up to 0.25 (C0..C2); --triangles 1 needs all six. */
    const struct {
        ferry_alm_lod_options o;
        uint32_t applied, triangles;
    } picks[] = {{{-1, 3, -1}, 3, 3}, {{-1, 0, 0.3}, 3, 3}, {{-1, 1, -1}, 6, 1}, {{-1, 0, 0.0625}, 1, 4}};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        lod = NULL;
        CHECK(ferry_alm_lod_extract(m, &picks[i].o, &lod, &err) == FERRY_OK);
        if (lod) CHECK(lod->collapses_applied == picks[i].applied && lod->triangle_count == picks[i].triangles);
        ferry_alm_lod_free(lod);
    }

    /* Every position, the simplified ones too, skins to its point at rest. */
    static const double point[9][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 0}, {1, 1}, {1, 0}};
    double mats[48], h[4];
    CHECK(ferry_alm_bone_matrices(m, -1, mats, &err) == FERRY_OK);
    for (int p = 0; p < 9; p++) {
        ferry_alm_vector_eval(&m->positions[p], mats, 3, h);
        check_near4(h, point[p][0], point[p][1], 0, 1);
    }
    ferry_alm_free(m);
    free(b.data);
}

/* Writes the influence fixtures for the command-line tests. */
static int write_influence_fixtures(const char *dir)
{
    int bad = 0;
    for (uint32_t v = 9; v <= 10; v++) {
        bytes b = {0};
        alm_influence_fixture(&b, v, NULL);
        char path[1024];
        snprintf(path, sizeof path, "%s/influence_v%u.alm", dir, (unsigned)v);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b.data, 1, b.size, f) != b.size) bad = 1;
        if (f && fclose(f) != 0) bad = 1;
        free(b.data);
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 2) return write_influence_fixtures(argv[1]);
    check_empty();
    for (uint32_t v = 2; v <= 10; v++) check_version(v);
    check_influence(9);
    check_influence(10);
    check_refusals();
    check_skinning_fixture();
    check_chain();
    TEST_END();
}
