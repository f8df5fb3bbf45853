/* The shared pieces of the library's shape: the record reader (core/record.h),
 * capped diagnostics (core/diag_cap.h) and the math (core/core_math.h). The
 * expected values were worked out by hand. */
#include <ferry/alm.h>
#include <ferry/odol.h>
#include <ferry/ferry.h>

#include <stdint.h>

#include "core/core.h"
#include "core/core_math.h"
#include "core/diag_cap.h"
#include "core/record.h"
#include "support.h"
#include "test.h"

static bool near(double a, double b) { return fabs(a - b) < 1e-6; }

static void test_record_reader(void)
{
    /* A count far beyond the 8 bytes after it: TRUNCATED, at the count, in
     * the record entered with the path stack. */
    const uint8_t data[12] = {0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8};
    ferry_arena *arena = ferry_arena_create(1024);
    ferry_error err;
    fy_error_clear(&err); /* the first error is kept: start from none */
    fy_record_reader r;
    fy_record_begin(&r, data, sizeof data, arena, &err);
    fy_record_path(&r, "lods[%u]", 3u);
    fy_record_push(&r, "faces");
    CHECK(strcmp(r.path, "lods[3]/faces") == 0);
    uint32_t n = fy_u32le(&r.c, "face count");
    CHECK(!fy_record_room(&r, 0, n, 7, "face count"));
    CHECK(err.code == FERRY_ERR_TRUNCATED && err.offset == 0 && strcmp(err.path, "lods[3]/faces") == 0);
    CHECK_MSG(strcmp(err.message, "face count 4294967295 needs at least 30064771065 bytes (7 each), only 8 remain") == 0,
              "%s", err.message);
    fy_record_pop(&r);
    CHECK(strcmp(r.path, "lods[3]") == 0);
    fy_record_push(&r, "selections[%d]", 2);
    fy_record_push(&r, "vertices");
    CHECK(strcmp(r.path, "lods[3]/selections[2]/vertices") == 0);
    fy_record_pop(&r);
    fy_record_pop(&r);
    fy_record_pop(&r); /* one too many: stays at the top */
    CHECK(strcmp(r.path, "lods[3]") == 0);

    /* A count that fits passes, and costs nothing. */
    fy_record_begin(&r, data, sizeof data, arena, &err);
    fy_error_clear(&err);
    r.c.pos = 4;
    CHECK(fy_record_room(&r, 0, 2, 4, "pair count") && !r.c.failed);

    /* The arena's limit and an overflowing product: LIMIT, at the cursor. */
    fy_error_clear(&err);
    fy_record_begin(&r, data, sizeof data, arena, &err);
    r.c.pos = 4;
    CHECK(fy_record_alloc(&r, 1000, 8) == NULL && r.nomem);
    CHECK(err.code == FERRY_ERR_LIMIT && err.offset == 4);
    fy_error_clear(&err);
    fy_record_begin(&r, data, sizeof data, arena, &err);
    CHECK(fy_record_alloc(&r, UINT64_MAX / 2, 16) == NULL && err.code == FERRY_ERR_LIMIT);
    CHECK(fy_record_alloc(&r, 1, 8) == NULL); /* after a failure: nothing */

    /* Named on the way out: the innermost record wins. */
    fy_error_clear(&err);
    fy_record_begin(&r, data, sizeof data, arena, &err);
    fy_record_locate(&r, "never: nothing failed");
    r.c.pos = 10;
    fy_u32le(&r.c, "num_weights");
    fy_record_locate(&r, "positions[%u]/components[%u]", 1u, 2u);
    fy_record_locate(&r, "positions");
    CHECK(err.code == FERRY_ERR_TRUNCATED && err.offset == 10 && strcmp(err.path, "positions[1]/components[2]") == 0);

    /* A NULL error still fails cleanly. */
    fy_record_begin(&r, data, 2, arena, NULL);
    fy_u32le(&r.c, "x");
    CHECK(r.c.failed && r.err->code == FERRY_ERR_TRUNCATED);
    ferry_arena_destroy(arena);
}

static void test_diag_scope(void)
{
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    fy_diag_scope s;
    fy_diag_scope_open(&s, 2);
    const char *paths[3] = {"p1", "p2", "p3"};
    for (int i = 0; i < 3; i++) {
        bool listed = fy_diag_scope_admit(&s, &d, FERRY_SEVERITY_WARNING, 1 + (uint64_t)i, paths[i], "a");
        CHECK(listed == (i < 2));
        if (listed) fy_diag_add(&d, FERRY_SEVERITY_WARNING, 1 + (uint64_t)i, paths[i], "a", "problem %d", i);
    }
    CHECK(fy_diag_scope_admit(&s, &d, FERRY_SEVERITY_ERROR, 9, "q", "b"));
    CHECK_EQ_U(fy_diag_scope_close(&s, &d, "mesh 0", false, 0, NULL), 0);
    CHECK_EQ_U(d.count, 3);
    CHECK(d.count == 3 && strcmp(d.items[2].message, "mesh 0: 1 more 'a' problems not listed") == 0 &&
          d.items[2].offset == 3 && strcmp(d.items[2].path, "p3") == 0 && strcmp(d.items[2].rule, "a") == 0 &&
          d.items[2].severity == FERRY_SEVERITY_WARNING);
    CHECK_EQ_U(d.warning_count, 3); /* two listed, one summary */

    /* Reopened: counts start again; the summary is as severe as the worst
     * report it stands for, and can sit at the scope. */
    fy_diag_scope_open(&s, 1);
    CHECK(fy_diag_scope_admit(&s, &d, FERRY_SEVERITY_WARNING, 1, "x", "a"));
    CHECK(!fy_diag_scope_admit(&s, &d, FERRY_SEVERITY_WARNING, 2, "x", "a"));
    CHECK(!fy_diag_scope_admit(&s, &d, FERRY_SEVERITY_ERROR, 3, "x", "a"));
    CHECK_EQ_U(fy_diag_scope_close(&s, &d, NULL, true, 77, "0x900"), 1);
    CHECK(d.count == 4 && strcmp(d.items[3].message, "2 more 'a' problems not listed") == 0 && d.items[3].offset == 77 &&
          strcmp(d.items[3].path, "0x900") == 0 && d.items[3].severity == FERRY_SEVERITY_ERROR);
    ferry_diagnostics_free(&d);

    /* Counting what is left out: the totals are every problem. */
    memset(&d, 0, sizeof d);
    fy_diag_scope_open(&s, 1);
    s.count_left_out = true;
    for (int i = 0; i < 3; i++)
        if (fy_diag_scope_admit(&s, &d, FERRY_SEVERITY_ERROR, 0, "y", "x"))
            fy_diag_add(&d, FERRY_SEVERITY_ERROR, 0, "y", "x", "problem");
    CHECK_EQ_U(fy_diag_scope_close(&s, &d, NULL, false, 0, NULL), 0);
    CHECK_EQ_U(d.count, 2);
    CHECK_EQ_U(d.error_count, 3);
    ferry_diagnostics_free(&d);

    /* No scope: everything listed. */
    CHECK(fy_diag_scope_admit(NULL, NULL, FERRY_SEVERITY_ERROR, 0, "", "z"));
}

/* ALM validation lists 20 reports per rule and counts them all. */
static void test_alm_cap(void)
{
    enum { P = 30 };
    ferry_alm_mesh m;
    memset(&m, 0, sizeof m);
    m.version = 10;
    ferry_alm_bone bone;
    memset(&bone, 0, sizeof bone);
    bone.parent = -1;
    for (int i = 0; i < 4; i++) bone.transform[5 * i] = 1;
    m.bones = &bone;
    m.bone_count = 1;
    ferry_alm_component comp[P];
    ferry_alm_vector pos[P];
    memset(comp, 0, sizeof comp);
    memset(pos, 0, sizeof pos);
    for (int i = 0; i < P; i++) {
        comp[i].bone = 5; /* not a bone */
        comp[i].coords[3] = 1;
        pos[i].components = &comp[i];
        pos[i].count = 1;
    }
    m.positions = pos;
    m.position_count = P;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    CHECK(ferry_alm_validate(&m, NULL, &d) > 0);
    size_t listed = 0;
    const ferry_diagnostic *summary = NULL;
    for (size_t i = 0; i < d.count; i++) {
        if (strcmp(d.items[i].rule, "vector-bone") != 0) continue;
        if (strstr(d.items[i].message, "not listed"))
            summary = &d.items[i];
        else
            listed++;
    }
    CHECK_EQ_U(listed, 20);
    CHECK_MSG(summary && strcmp(summary->message, "10 more 'vector-bone' problems not listed") == 0 &&
                  strcmp(summary->path, "positions[20]/components[0]") == 0,
              "%s at %s", summary ? summary->message : "no summary", summary ? summary->path : "-");
    size_t others = 0;
    for (size_t i = 0; i < d.count; i++)
        others += d.items[i].severity == FERRY_SEVERITY_ERROR && strcmp(d.items[i].rule, "vector-bone") != 0;
    CHECK_EQ_U(d.error_count, P + others);
    ferry_diagnostics_free(&d);
}

/* ODOL validation lists five faces naming vertices beyond the LOD's per
 * LOD, then one summary line at the LOD's faces. */
static void test_odol_face_cap(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/samples/odol/grid.p3d", FERRY_SOURCE_DIR);
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    ferry_odol_model *m = NULL;
    ferry_error err;
    CHECK(data && ferry_odol_read(data, size, NULL, &m, &err) == FERRY_OK);
    if (!m) {
        free(data);
        return;
    }
    ferry_odol_lod *l = &m->lods[0];
    CHECK(l->face_count > 8);
    for (uint32_t f = 0; f < l->face_count; f++) l->faces[f].vertices[0] = 60000;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_odol_validate(m, NULL, &d);
    size_t listed = 0;
    const ferry_diagnostic *summary = NULL;
    for (size_t i = 0; i < d.count; i++) {
        if (strcmp(d.items[i].rule, "face-vertex") != 0) continue;
        if (strstr(d.items[i].message, "not listed"))
            summary = &d.items[i];
        else
            listed += strncmp(d.items[i].path, "lods[0]/", 8) == 0;
    }
    CHECK_EQ_U(listed, 5);
    char want[96];
    snprintf(want, sizeof want, "%u more 'face-vertex' problems not listed", (unsigned)l->face_count - 5);
    CHECK_MSG(summary && strcmp(summary->message, want) == 0 && strcmp(summary->path, "lods[0]/faces") == 0 &&
                  summary->severity == FERRY_SEVERITY_ERROR,
              "%s at %s", summary ? summary->message : "no summary", summary ? summary->path : "-");
    ferry_diagnostics_free(&d);
    ferry_odol_free(m);
    free(data);
}

static void test_math(void)
{
    float t[3], q[4], s[3];
    /* A mirror: the Z scale carries the sign, the rotation stays identity. */
    const float mirror[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, -2, 0, 1, 2, 3, 1};
    CHECK(fy_mat4_to_trs(mirror, t, q, s, FY_TRS_SHEAR_TOLERANCE));
    CHECK(near(s[0], 2) && near(s[1], 2) && near(s[2], -2) && near(q[3], 1) && near(t[2], 3));
    /* 90 degrees about Z (X goes to Y): (0, 0, sin 45, cos 45). */
    const float rz[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(fy_mat4_to_trs(rz, t, q, s, FY_TRS_SHEAR_TOLERANCE));
    CHECK(near(q[0], 0) && near(q[1], 0) && near(q[2], sqrt(0.5)) && near(q[3], sqrt(0.5)));
    /* The same rotation from its negated quaternion comes back with w >= 0. */
    const float qn[4] = {0, 0, -(float)sqrt(0.5), -(float)sqrt(0.5)}, one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    float m[16];
    fy_mat4_from_trs(zero, qn, one, m);
    fy_quat_from_mat4(m, q);
    CHECK(near(q[2], sqrt(0.5)) && near(q[3], sqrt(0.5)));
    /* Columns 5e-4 from orthogonal: clean for the converters, shear for the glTF reader. */
    const float sheared[16] = {1, 0, 0, 0, 0.0005f, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(fy_mat4_to_trs(sheared, t, q, s, FY_TRS_SHEAR_TOLERANCE));
    CHECK(!fy_mat4_to_trs(sheared, t, q, s, 1e-4));
    /* A collapsed axis is not clean, and leaves a valid rotation. */
    const float flat[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(!fy_mat4_to_trs(flat, t, q, s, FY_TRS_SHEAR_TOLERANCE) && s[1] == 0 && near(q[3], 1));
    /* Row-major double product (ALM) against a product worked by hand. */
    const double a[16] = {1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const double b[16] = {1, 0, 0, 3, 0, 1, 0, 4, 0, 0, 1, 5, 0, 0, 0, 1};
    double ab[16];
    fy_mat4d_mul(a, b, ab);
    CHECK(ab[1] == 2 && ab[3] == 11 && ab[7] == 4 && ab[11] == 5 && ab[15] == 1);
    const float x[3] = {1, 0, 0}, y[3] = {0, 1, 0};
    float z[3];
    fy_vec3_cross(x, y, z);
    CHECK(z[0] == 0 && z[1] == 0 && z[2] == 1);
    /* A quaternion and its negation: the same rotation, opposite hemispheres. */
    const float q1[4] = {0, 0, (float)sqrt(0.5), (float)sqrt(0.5)};
    CHECK(near(fy_quat_dot(q1, qn), -1) && near(fy_quat_dot(q1, q1), 1) && near(fy_quat_length(qn), 1));
}

int main(void)
{
    test_record_reader();
    test_diag_scope();
    test_alm_cap();
    test_odol_face_cap();
    test_math();
    TEST_END();
}
