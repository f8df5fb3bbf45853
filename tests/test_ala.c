/* ALA animations without the corpus: small animations built by hand (both
 * formats, step and visibility bits, one-quaternion rotations, -1 indices),
 * sampled against values worked out by hand; writing, reading back,
 * converting; validation rules and the model check. Hand-made broken files
 * are in test_ala_bad_input.c. */
#include <ferry/ala.h>

#include "support.h"
#include "test.h"

#define EPS 1e-5
#define SQRT_HALF 0.70710678118654752

/* ---- the hand-built animation: 4 frames at 2 fps, two bones ----
 *
 * Bone 0 'Root' (model bone 1): translation offset (1, 2, 3), scale
 * (0.5, 0.25, 2); scale offset (1, 1, 1), scale 0.5. Stored per frame:
 *   translation  (0,0,0) (2,4,1) (4,8,2) (0,0,0)  -> (1,2,3) (2,3,5) (3,4,7) (1,2,3)
 *   scale        (0,0,0) (2,2,2) (2,0,4) (0,0,0)  -> (1,1,1) (2,2,2) (2,1,3) (1,1,1)
 *   rotation     identity, 90 deg about z, minus 180 deg about z, identity
 *   visibility   1 0 1 1 (0x0D); step bit on frame 2 (0x04).
 * Bone 1 'Arm' (model bone 2): no translation or scale track (offsets
 * (0, 5, 0) and (1, 1, 1)), one rotation for all frames: 90 deg about y. */

static uint16_t root_t[12] = {0, 0, 0, 2, 4, 1, 4, 8, 2, 0, 0, 0};
static uint16_t root_s[12] = {0, 0, 0, 2, 2, 2, 2, 0, 4, 0, 0, 0};
static int16_t root_r[16] = {0, 0, 0, 32767, 0, 0, 23170, 23170, 0, 0, -32767, 0, 0, 0, 0, 32767};
static int16_t arm_r[4] = {0, 23170, 0, 23170};
static uint8_t root_vis[1] = {0x0D};
static uint8_t root_steps[1] = {0x04};

static void base_bones(ferry_ala_bone bones[2])
{
    memset(bones, 0, 2 * sizeof *bones);
    ferry_ala_bone *r = &bones[0], *a = &bones[1];
    r->name = "Root";
    r->index = 1;
    const float toff[3] = {1, 2, 3}, tsc[3] = {0.5f, 0.25f, 2};
    memcpy(r->translation_offset, toff, sizeof toff);
    memcpy(r->translation_scale, tsc, sizeof tsc);
    for (int k = 0; k < 3; k++) {
        r->scale_offset[k] = 1;
        r->scale_scale[k] = 0.5f;
    }
    r->visibility = root_vis;
    r->visibility_size = 1;
    r->steps = root_steps;
    r->step_size = 1;
    a->name = "Arm";
    a->index = 2;
    a->unknown = 1;
    a->translation_offset[1] = 5;
    for (int k = 0; k < 3; k++) a->scale_offset[k] = 1;
}

static void build_f1(ferry_ala_animation *anim, ferry_ala_bone bones[2])
{
    memset(anim, 0, sizeof *anim);
    base_bones(bones);
    bones[0].translations = root_t;
    bones[0].translation_count = 4;
    bones[0].scales = root_s;
    bones[0].scale_count = 4;
    bones[0].rotations = root_r;
    bones[0].rotation_count = 4;
    bones[1].rotations = arm_r;
    bones[1].rotation_count = 1;
    /* A read format-1 bone says "no track" and identity here too. */
    for (int b = 0; b < 2; b++) {
        bones[b].translation_index = bones[b].scale_index = bones[b].rotation_index = FERRY_ALA_NOT_ANIMATED;
        bones[b].default_rotation[3] = 32767;
    }
    anim->format = FERRY_ALA_FORMAT_1;
    anim->frame_count = 4;
    anim->fps = 2;
    anim->bones = bones;
    anim->bone_count = 2;
}

/* The same animation as format 2 stores it: each frame block holds the
 * root's values (the only animated bone) at index 0. */
static uint16_t blocks_t[12], blocks_s[12];
static int16_t blocks_r[16];

static void build_f2(ferry_ala_animation *anim, ferry_ala_bone bones[2])
{
    memset(anim, 0, sizeof *anim);
    base_bones(bones);
    memcpy(blocks_t, root_t, sizeof root_t);
    memcpy(blocks_s, root_s, sizeof root_s);
    memcpy(blocks_r, root_r, sizeof root_r);
    bones[0].translation_index = bones[0].scale_index = bones[0].rotation_index = 0;
    bones[0].default_rotation[3] = 32767; /* its first frame, as real files do */
    bones[1].translation_index = bones[1].scale_index = bones[1].rotation_index = FERRY_ALA_NOT_ANIMATED;
    memcpy(bones[1].default_rotation, arm_r, sizeof arm_r);
    anim->format = FERRY_ALA_FORMAT_2;
    anim->frame_count = 4;
    anim->fps = 2;
    anim->bones = bones;
    anim->bone_count = 2;
    anim->translation_stride = anim->scale_stride = 3;
    anim->rotation_stride = 4;
    anim->frame_translations = blocks_t;
    anim->frame_translation_count = 12;
    anim->frame_scales = blocks_s;
    anim->frame_scale_count = 12;
    anim->frame_rotations = blocks_r;
    anim->frame_rotation_count = 16;
}

/* ---- comparing ---- */

static bool same_floats(const float *a, const float *b, size_t n) { return memcmp(a, b, n * sizeof *a) == 0; }

static bool same_array(const void *a, const void *b, size_t bytes)
{
    return bytes == 0 || (a && b && memcmp(a, b, bytes) == 0);
}

/* Typed equality, as a caller sees it (layouts and offsets aside). */
static bool anim_equal(const ferry_ala_animation *x, const ferry_ala_animation *y, char *why, size_t why_size)
{
#define DIFF(...)                                                                                                  \
    do {                                                                                                           \
        snprintf(why, why_size, __VA_ARGS__);                                                                      \
        return false;                                                                                              \
    } while (0)
    if (x->format != y->format || x->frame_count != y->frame_count || memcmp(&x->fps, &y->fps, sizeof x->fps))
        DIFF("header differs");
    if (x->bone_count != y->bone_count) DIFF("bone counts %zu vs %zu", x->bone_count, y->bone_count);
    uint32_t sx = x->bone_count_mismatch ? x->stated_bone_count : (uint32_t)x->bone_count;
    uint32_t sy = y->bone_count_mismatch ? y->stated_bone_count : (uint32_t)y->bone_count;
    if (sx != sy) DIFF("stated bone counts differ");
    if (x->format == FERRY_ALA_FORMAT_2 &&
        (x->rotation_stride != y->rotation_stride || x->translation_stride != y->translation_stride ||
         x->scale_stride != y->scale_stride))
        DIFF("strides differ");
    if (x->frame_rotation_count != y->frame_rotation_count ||
        !same_array(x->frame_rotations, y->frame_rotations, 2 * x->frame_rotation_count) ||
        x->frame_translation_count != y->frame_translation_count ||
        !same_array(x->frame_translations, y->frame_translations, 2 * x->frame_translation_count) ||
        x->frame_scale_count != y->frame_scale_count ||
        !same_array(x->frame_scales, y->frame_scales, 2 * x->frame_scale_count))
        DIFF("frame blocks differ");
    for (size_t i = 0; i < x->bone_count; i++) {
        const ferry_ala_bone *a = &x->bones[i], *b = &y->bones[i];
        if (strcmp(a->name, b->name) || a->index != b->index || a->unknown != b->unknown) DIFF("bone %zu header", i);
        if (!same_floats(a->translation_offset, b->translation_offset, 3) ||
            !same_floats(a->translation_scale, b->translation_scale, 3) ||
            !same_floats(a->scale_offset, b->scale_offset, 3) || !same_floats(a->scale_scale, b->scale_scale, 3))
            DIFF("bone %zu offsets or scales", i);
        if (a->translation_index != b->translation_index || a->scale_index != b->scale_index ||
            a->rotation_index != b->rotation_index || memcmp(a->default_rotation, b->default_rotation, 8))
            DIFF("bone %zu indices or default rotation", i);
        if (a->translation_count != b->translation_count ||
            !same_array(a->translations, b->translations, 6 * a->translation_count) ||
            a->scale_count != b->scale_count || !same_array(a->scales, b->scales, 6 * a->scale_count) ||
            a->rotation_count != b->rotation_count || !same_array(a->rotations, b->rotations, 8 * a->rotation_count))
            DIFF("bone %zu tracks", i);
        if ((a->has_translations || a->translation_count) != (b->has_translations || b->translation_count) ||
            (a->has_scales || a->scale_count) != (b->has_scales || b->scale_count) ||
            (a->has_rotations || a->rotation_count) != (b->has_rotations || b->rotation_count))
            DIFF("bone %zu track presence", i);
        if (a->visibility_size != b->visibility_size || !same_array(a->visibility, b->visibility, a->visibility_size) ||
            a->step_size != b->step_size || !same_array(a->steps, b->steps, a->step_size))
            DIFF("bone %zu bits", i);
    }
    return true;
#undef DIFF
}

static ferry_ala_animation *read_back(const ferry_buffer *buf, const char *what)
{
    ferry_ala_animation *a = NULL;
    ferry_error err;
    ferry_result rc = ferry_ala_read(buf->data, buf->size, NULL, &a, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: does not read back: %s", what, err.message);
    return a;
}

static bool write_ok(const ferry_ala_animation *a, ferry_ala_format format, ferry_buffer *out, const char *what)
{
    ferry_error err;
    ferry_result rc = ferry_ala_write_format(a, format, out, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: write failed: %s", what, err.message);
    return rc == FERRY_OK;
}

/* ---- sampling against hand-worked values ---- */

static void check_pose(const char *what, const ferry_ala_pose *p, const double t[3], const double s[3],
                       const double r[4], int visible)
{
    for (int k = 0; k < 3; k++) {
        CHECK_MSG(fabs(p->translation[k] - t[k]) <= EPS, "%s: translation[%d] %.7g, expected %.7g", what, k,
                  (double)p->translation[k], t[k]);
        CHECK_MSG(fabs(p->scale[k] - s[k]) <= EPS, "%s: scale[%d] %.7g, expected %.7g", what, k, (double)p->scale[k],
                  s[k]);
    }
    /* q and -q are one rotation; the sampler may return either sign. */
    double dot = 0;
    for (int k = 0; k < 4; k++) dot += p->rotation[k] * r[k];
    CHECK_MSG(fabs(fabs(dot) - 1) <= EPS, "%s: rotation (%.6f %.6f %.6f %.6f), expected (%.6f %.6f %.6f %.6f)", what,
              (double)p->rotation[0], (double)p->rotation[1], (double)p->rotation[2], (double)p->rotation[3], r[0],
              r[1], r[2], r[3]);
    if (visible < 0) {
        CHECK_MSG(!p->has_visibility, "%s: expected no visibility", what);
    } else {
        CHECK_MSG(p->has_visibility && p->visible == (visible != 0), "%s: visibility %d/%d, expected %d", what,
                  p->has_visibility, p->visible, visible);
    }
}

static void check_sampling(const ferry_ala_animation *a, const char *label)
{
    const double sin8 = 0.38268343236508977, cos8 = 0.92387953251128676; /* of pi/8 */
    const double id[4] = {0, 0, 0, 1}, z90[4] = {0, 0, SQRT_HALF, SQRT_HALF}, z180[4] = {0, 0, 1, 0};
    const double z45[4] = {0, 0, sin8, cos8}, z135[4] = {0, 0, cos8, sin8};
    const double one[3] = {1, 1, 1};
    struct {
        double frame;
        ferry_ala_wrap wrap;
        double t[3], s[3];
        const double *r;
        int visible;
    } cases[] = {
        {0, FERRY_ALA_CLAMP, {1, 2, 3}, {1, 1, 1}, id, 1},
        {1, FERRY_ALA_CLAMP, {2, 3, 5}, {2, 2, 2}, z90, 0},
        {0.5, FERRY_ALA_CLAMP, {1.5, 2.5, 4}, {1.5, 1.5, 1.5}, z45, 1},
        {0.25, FERRY_ALA_CLAMP, {1.25, 2.25, 3.5}, {1.25, 1.25, 1.25}, NULL, 1},
        /* Across a sign flip: frame 2 stores -(180 deg about z), the short way is +45 deg more. */
        {1.5, FERRY_ALA_CLAMP, {2.5, 3.5, 6}, {2, 1.5, 2.5}, z135, 0},
        /* Frame 2's step bit holds it until frame 3. */
        {2.5, FERRY_ALA_CLAMP, {3, 4, 7}, {2, 1, 3}, z180, 1},
        {2.999, FERRY_ALA_CLAMP, {3, 4, 7}, {2, 1, 3}, z180, 1},
        {3, FERRY_ALA_CLAMP, {1, 2, 3}, {1, 1, 1}, id, 1},
        {10, FERRY_ALA_CLAMP, {1, 2, 3}, {1, 1, 1}, id, 1},
        {-4, FERRY_ALA_CLAMP, {1, 2, 3}, {1, 1, 1}, id, 1},
        /* Looping: period 3 frames, frame 3 being frame 0 again. */
        {3.5, FERRY_ALA_LOOP, {1.5, 2.5, 4}, {1.5, 1.5, 1.5}, z45, 1},
        {-0.5, FERRY_ALA_LOOP, {3, 4, 7}, {2, 1, 3}, z180, 1},
        {7, FERRY_ALA_LOOP, {2, 3, 5}, {2, 2, 2}, z90, 0},
    };
    char what[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ferry_ala_pose p;
        ferry_ala_sample(a, 0, cases[i].frame, cases[i].wrap, &p);
        snprintf(what, sizeof what, "%s root at %g (%s)", label, cases[i].frame,
                 cases[i].wrap == FERRY_ALA_LOOP ? "loop" : "clamp");
        const double quarter[4] = {0, 0, 0.19509032201612825, 0.98078528040323043}; /* a quarter of the way to 90 deg */
        check_pose(what, &p, cases[i].t, cases[i].s, cases[i].r ? cases[i].r : quarter, cases[i].visible);
    }
    const double arm_t[3] = {0, 5, 0}, y90[4] = {0, SQRT_HALF, 0, SQRT_HALF};
    for (double f = 0; f <= 3; f += 0.75) {
        ferry_ala_pose p;
        ferry_ala_sample(a, 1, f, FERRY_ALA_CLAMP, &p);
        snprintf(what, sizeof what, "%s arm at %g", label, f);
        check_pose(what, &p, arm_t, one, y90, -1);
    }
    /* Integer frames, time, every bone at once, a bone out of range. */
    ferry_ala_pose p, q, all[2];
    ferry_ala_sample_frame(a, 0, 1, &p);
    check_pose("sample_frame 1", &p, cases[1].t, cases[1].s, z90, 0);
    ferry_ala_sample_frame(a, 0, 99, &p);
    check_pose("sample_frame 99", &p, cases[7].t, cases[7].s, id, 1);
    CHECK_NEAR(ferry_ala_frame_at(a, 0.25), 0.5, 1e-12);
    CHECK_NEAR(ferry_ala_duration(a), 1.5, 1e-12);
    ferry_ala_sample_time(a, 0, 0.25, FERRY_ALA_CLAMP, &p);
    check_pose("time 0.25 s", &p, cases[2].t, cases[2].s, z45, 1);
    ferry_ala_sample_all(a, 1.5, FERRY_ALA_CLAMP, all);
    ferry_ala_sample(a, 0, 1.5, FERRY_ALA_CLAMP, &p);
    ferry_ala_sample(a, 1, 1.5, FERRY_ALA_CLAMP, &q);
    CHECK(test_poses_equal(&all[0], &p) && test_poses_equal(&all[1], &q));
    ferry_ala_sample(a, 2, 1, FERRY_ALA_CLAMP, &p);
    const double zero[3] = {0, 0, 0};
    check_pose("bone out of range", &p, zero, one, id, -1);
    ferry_ala_sample(a, 0, NAN, FERRY_ALA_LOOP, &p);
    check_pose("NaN frame", &p, cases[0].t, cases[0].s, id, 1);
}

static void test_sampling_and_round_trips(void)
{
    ferry_ala_bone b1[2], b2[2];
    ferry_ala_animation f1, f2;
    build_f1(&f1, b1);
    build_f2(&f2, b2);
    check_sampling(&f1, "format 1");
    check_sampling(&f2, "format 2");

    /* Built by hand -> bytes -> read back: equal, and the bytes come back. */
    const ferry_ala_animation *built[2] = {&f1, &f2};
    ferry_buffer bytes[2] = {{0}, {0}};
    for (int i = 0; i < 2; i++) {
        char what[64];
        snprintf(what, sizeof what, "hand-built format %d", i + 1);
        if (!write_ok(built[i], (ferry_ala_format)(i + 1), &bytes[i], what)) continue;
        ferry_ala_animation *r = read_back(&bytes[i], what);
        if (!r) continue;
        char why[128] = "";
        CHECK_MSG(anim_equal(built[i], r, why, sizeof why), "%s reads back different: %s", what, why);
        check_sampling(r, what);
        ferry_buffer again = {0};
        if (write_ok(r, (ferry_ala_format)r->format, &again, what))
            CHECK_MSG(again.size == bytes[i].size && memcmp(again.data, bytes[i].data, again.size) == 0,
                      "%s: rewrite differs", what);
        ferry_buffer_free(&again);
        ferry_ala_free(r);
    }
    /* Real files store 0x1001 in 18 bytes (format 1) or 36 (format 2). */
    CHECK(bytes[0].size > 24 && bytes[0].data[8] == 0x01 && bytes[0].data[9] == 0x10 && bytes[0].data[12] == 18);
    CHECK(bytes[1].size > 24 && bytes[1].data[8] == 0x01 && bytes[1].data[9] == 0x10 && bytes[1].data[12] == 36);

    /* Converting either way gives exactly what the other format built by hand is. */
    for (int i = 0; i < 2; i++) {
        ferry_buffer conv = {0};
        char what[64];
        snprintf(what, sizeof what, "format %d -> %d", i + 1, 2 - i);
        if (write_ok(built[i], (ferry_ala_format)(2 - i), &conv, what))
            CHECK_MSG(conv.size == bytes[1 - i].size && memcmp(conv.data, bytes[1 - i].data, conv.size) == 0,
                      "%s: differs from the hand-built format %d (%zu vs %zu bytes)", what, 2 - i, conv.size,
                      bytes[1 - i].size);
        ferry_buffer_free(&conv);
        ferry_ala_animation *c = NULL;
        ferry_error err;
        CHECK(ferry_ala_convert(built[i], (ferry_ala_format)(2 - i), NULL, &c, &err) == FERRY_OK);
        if (c) {
            CHECK(c->format == 2 - i);
            check_sampling(c, what);
            ferry_ala_free(c);
        }
    }
    ferry_buffer_free(&bytes[0]);
    ferry_buffer_free(&bytes[1]);

    /* Conversion refuses tracks that disagree with the frame count. */
    ferry_buffer out = {0};
    ferry_error err;
    b1[0].translation_count = 3;
    CHECK(ferry_ala_write_format(&f1, FERRY_ALA_FORMAT_2, &out, &err) == FERRY_ERR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "'Root'") && strstr(err.message, "translation"), "%s", err.message);
    b1[0].translation_count = 4;
    ferry_buffer_free(&out);
    f2.frame_rotation_count = 12;
    CHECK(ferry_ala_write_format(&f2, FERRY_ALA_FORMAT_1, &out, &err) == FERRY_ERR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "0x1009"), "%s", err.message);
    f2.frame_rotation_count = 16;
    b2[0].translation_index = 1;
    ferry_buffer_free(&out);
    CHECK(ferry_ala_write_format(&f2, FERRY_ALA_FORMAT_1, &out, &err) == FERRY_ERR_ARGUMENT);
    b2[0].translation_index = 0;
    ferry_buffer_free(&out);
    /* ... but writes the animation as it is in its own format. */
    f2.frame_rotation_count = 12;
    CHECK(ferry_ala_write(&f2, &out, &err) == FERRY_OK);
    f2.frame_rotation_count = 16;
    ferry_buffer_free(&out);
    f1.format = 3;
    CHECK(ferry_ala_write(&f1, &out, &err) == FERRY_ERR_ARGUMENT);
    f1.format = 1;
    b1[0].scales = NULL;
    CHECK(ferry_ala_write(&f1, &out, &err) == FERRY_ERR_ARGUMENT);
    b1[0].scales = root_s;
    ferry_buffer_free(&out);
}

/* Format 2's "not animated" and sampling's defaults, value by value. */
static void test_defaults(void)
{
    ferry_ala_bone b[2];
    ferry_ala_animation a;
    build_f2(&a, b);
    /* Index -1 with data present: the default rotation and the offsets. */
    b[0].rotation_index = FERRY_ALA_NOT_ANIMATED;
    b[0].translation_index = FERRY_ALA_NOT_ANIMATED;
    b[0].default_rotation[0] = 0;
    b[0].default_rotation[1] = 0;
    b[0].default_rotation[2] = 23170;
    b[0].default_rotation[3] = 23170;
    ferry_ala_pose p;
    ferry_ala_sample(&a, 0, 2.0, FERRY_ALA_CLAMP, &p);
    const double t[3] = {1, 2, 3}, s[3] = {2, 1, 3}, z90[4] = {0, 0, SQRT_HALF, SQRT_HALF};
    check_pose("index -1", &p, t, s, z90, 1);
    /* Blocks shorter than the frames: the last block there is repeats. */
    build_f2(&a, b);
    a.frame_translation_count = 6;
    ferry_ala_sample(&a, 0, 3.0, FERRY_ALA_CLAMP, &p);
    const double t1[3] = {2, 3, 5}, s3[3] = {1, 1, 1}, id[4] = {0, 0, 0, 1};
    check_pose("short blocks", &p, t1, s3, id, 1);
    /* An index past its block, a zero quaternion: defaults, never a bad read. */
    build_f2(&a, b);
    b[0].rotation_index = 3;
    b[0].default_rotation[3] = 0;
    ferry_ala_sample(&a, 0, 0.0, FERRY_ALA_CLAMP, &p);
    const double t0[3] = {1, 2, 3};
    check_pose("index past the block, zero default", &p, t0, s3, id, 1);
    /* Format 1 without rotation chunk, and an empty animation. */
    build_f1(&a, b);
    b[0].rotations = NULL;
    b[0].rotation_count = 0;
    ferry_ala_sample(&a, 0, 1.0, FERRY_ALA_CLAMP, &p);
    const double s1[3] = {2, 2, 2};
    check_pose("format 1 without rotations", &p, t1, s1, id, 0);
    a.frame_count = 0;
    ferry_ala_sample(&a, 1, 5, FERRY_ALA_LOOP, &p);
    const double arm_t[3] = {0, 5, 0}, y90[4] = {0, SQRT_HALF, 0, SQRT_HALF};
    check_pose("no frames", &p, arm_t, s3, y90, -1);
    CHECK(ferry_ala_duration(&a) == 0);
    a.fps = 0;
    CHECK(ferry_ala_frame_at(&a, 3) == 0);
}

/* ---- validation ---- */

static size_t count_rule(const ferry_diagnostics *d, const char *rule, ferry_severity severity)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += strcmp(d->items[i].rule, rule) == 0 && d->items[i].severity == severity;
    return n;
}

static void expect_rule(const ferry_ala_animation *a, const char *what, const char *rule, ferry_severity severity)
{
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_ala_validate(a, NULL, &d);
    CHECK_MSG(count_rule(&d, rule, severity) >= 1, "%s: expected a %s '%s'", what,
              severity == FERRY_SEVERITY_ERROR ? "error" : "warning", rule);
    CHECK_EQ_U(errors, d.error_count);
    for (size_t i = 0; i < d.count; i++) CHECK(d.items[i].message[0] && d.items[i].rule[0]);
    ferry_diagnostics_free(&d);
}

static void test_validation(void)
{
    ferry_ala_bone b[2];
    ferry_ala_animation a;
    for (int format = 1; format <= 2; format++) {
        if (format == 1)
            build_f1(&a, b);
        else
            build_f2(&a, b);
        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        CHECK_EQ_U(ferry_ala_validate(&a, NULL, &d), 0);
        CHECK_MSG(d.count == 0, "clean format %d: %zu reports, first '%s' %s", format, d.count,
                  d.count ? d.items[0].rule : "", d.count ? d.items[0].message : "");
        ferry_diagnostics_free(&d);

        a.fps = 0;
        expect_rule(&a, "fps 0", "fps", FERRY_SEVERITY_ERROR);
        a.fps = NAN;
        expect_rule(&a, "fps NaN", "fps", FERRY_SEVERITY_ERROR);
        a.fps = 2;
        a.bone_count_mismatch = true;
        a.stated_bone_count = 3;
        expect_rule(&a, "numBones 3", "bone-count", FERRY_SEVERITY_ERROR);
        a.bone_count_mismatch = false;
        b[1].index = 1;
        expect_rule(&a, "two tracks for one bone", "bone-duplicate", FERRY_SEVERITY_WARNING);
        b[1].index = 2;
        b[1].name = NULL;
        expect_rule(&a, "no name", "name-missing", FERRY_SEVERITY_ERROR);
        b[1].name = "";
        expect_rule(&a, "empty name", "name-empty", FERRY_SEVERITY_WARNING);
        b[1].name = "Arm";
        b[1].translation_offset[0] = INFINITY;
        expect_rule(&a, "infinite offset", "value-finite", FERRY_SEVERITY_ERROR);
        b[1].translation_offset[0] = 0;
        b[0].visibility_size = 0;
        b[0].has_visibility = true;
        expect_rule(&a, "empty visibility", "bits-length", FERRY_SEVERITY_ERROR);
        b[0].visibility_size = 1;
        a.frame_count = 0;
        expect_rule(&a, "no frames", "frame-count", FERRY_SEVERITY_ERROR);
        a.frame_count = 4;
        a.format = 7;
        expect_rule(&a, "format 7", "format", FERRY_SEVERITY_ERROR);
        a.format = (uint8_t)format;
    }

    build_f1(&a, b);
    b[0].translation_count = 3;
    expect_rule(&a, "3 of 4 translations", "track-length", FERRY_SEVERITY_ERROR);
    b[0].translation_count = 4;
    b[0].rotation_count = 2;
    expect_rule(&a, "2 rotations", "track-length", FERRY_SEVERITY_ERROR);
    b[0].rotation_count = 4;
    b[1].rotations = NULL;
    b[1].rotation_count = 0;
    expect_rule(&a, "no rotation chunk", "rotation-missing", FERRY_SEVERITY_WARNING);
    b[1].rotations = arm_r;
    b[1].rotation_count = 1;
    int16_t long_q[4] = {20000, 20000, 20000, 20000};
    b[1].rotations = long_q;
    expect_rule(&a, "quaternion of length 1.22", "rotation-unit", FERRY_SEVERITY_WARNING);
    b[1].rotations = arm_r;
    b[1].present = FERRY_ALA_BONE_HAS_ROTATION_INDEX;
    expect_rule(&a, "format-2 index in format 1", "format-mixed", FERRY_SEVERITY_WARNING);
    b[1].present = 0;
    b[0].scales = NULL;
    expect_rule(&a, "count without array", "data-missing", FERRY_SEVERITY_ERROR);

    build_f2(&a, b);
    b[0].rotation_index = 2;
    expect_rule(&a, "rotation index 2 of stride 4", "track-index", FERRY_SEVERITY_ERROR);
    b[0].rotation_index = -2;
    expect_rule(&a, "rotation index -2", "track-index", FERRY_SEVERITY_ERROR);
    b[0].rotation_index = 0;
    a.frame_translation_count = 9;
    expect_rule(&a, "9 translation values for 4 frames of 3", "frame-data-size", FERRY_SEVERITY_ERROR);
    a.frame_translation_count = 12;
    a.scale_stride = 6;
    expect_rule(&a, "scale stride 6", "frame-data-size", FERRY_SEVERITY_ERROR);
    a.scale_stride = 3;
    b[1].default_rotation[1] = 0;
    expect_rule(&a, "default rotation of length 0.71", "rotation-unit", FERRY_SEVERITY_WARNING);
    b[1].default_rotation[1] = 23170;
    b[1].rotations = arm_r;
    b[1].rotation_count = 1;
    expect_rule(&a, "format-1 track in format 2", "format-mixed", FERRY_SEVERITY_WARNING);

    /* Many bones breaking one rule: the first few, then a count. */
    ferry_ala_bone many[60];
    build_f1(&a, b);
    for (int i = 0; i < 60; i++) {
        many[i] = b[1];
        many[i].index = 5;
    }
    a.bones = many;
    a.bone_count = 60;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_ala_validate(&a, NULL, &d);
    CHECK_EQ_U(count_rule(&d, "bone-duplicate", FERRY_SEVERITY_WARNING), 21);
    CHECK(errors == d.error_count);
    ferry_diagnostics_free(&d);
}

static void test_model_check(void)
{
    ferry_alo_bone mb[4];
    memset(mb, 0, sizeof mb);
    const char *names[4] = {"Root", "ROOT_TWO", "Arm", "Hand"};
    for (int i = 0; i < 4; i++) {
        mb[i].name = names[i];
        mb[i].parent = i - 1;
    }
    ferry_alo_model model;
    memset(&model, 0, sizeof model);
    model.skeleton.bones = mb;
    model.skeleton.bone_count = 4;

    ferry_ala_bone b[2];
    ferry_ala_animation a;
    build_f1(&a, b);
    b[0].name = "root_two"; /* index 1: matches, case aside */
    b[1].name = "arm";      /* index 2 */
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    CHECK_EQ_U(ferry_ala_check_model(&a, &model, &d), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);

    struct {
        const char *name;
        uint32_t index;
        const char *rule;
        ferry_severity severity;
    } cases[] = {
        /* All warnings: shipped animations break each of these and the
         * engine loads them (docs/formats/ala-animation.md). */
        {"Hand", 2, "anim-bone-mismatch", FERRY_SEVERITY_WARNING},
        {"Hand", 9, "anim-bone-range", FERRY_SEVERITY_WARNING},
        {"Tail", 9, "anim-bone-range", FERRY_SEVERITY_WARNING},
        {"Tail", 3, "anim-bone-missing", FERRY_SEVERITY_WARNING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        b[1].name = cases[i].name;
        b[1].index = cases[i].index;
        memset(&d, 0, sizeof d);
        size_t errors = ferry_ala_check_model(&a, &model, &d);
        CHECK_MSG(d.count == 1 && !strcmp(d.items[0].rule, cases[i].rule) && d.items[0].severity == cases[i].severity,
                  "model check case %zu: expected one '%s', got %zu reports, first '%s'", i, cases[i].rule, d.count,
                  d.count ? d.items[0].rule : "");
        CHECK_EQ_U(errors, cases[i].severity == FERRY_SEVERITY_ERROR ? 1 : 0);
        if (d.count) CHECK(strstr(d.items[0].message, cases[i].name) != NULL);
        ferry_diagnostics_free(&d);
        /* The match rule refuses every one of them. */
        char line[256];
        CHECK_EQ_U(ferry_ala_model_misfits(&a, &model, line, sizeof line), 1);
        CHECK_MSG(strstr(line, cases[i].name) != NULL, "misfit line names the track: %s", line);
    }

    /* Fits: no findings, an empty line. */
    char line[256];
    b[1].name = "ARM";
    b[1].index = 2;
    CHECK_EQ_U(ferry_ala_model_misfits(&a, &model, line, sizeof line), 0);
    CHECK_MSG(line[0] == 0, "%s", line);
    /* Both kinds at once: missing names first, each once. */
    ferry_ala_bone c[4];
    ferry_ala_animation a4 = a;
    memcpy(c, b, sizeof b);
    memcpy(c + 2, b, sizeof b);
    c[0].name = "Tail";
    c[0].index = 1;
    c[1].name = "Hand";
    c[1].index = 2;
    c[2].name = "tail";
    c[2].index = 7;
    c[3].name = "Arm";
    c[3].index = 2;
    a4.bones = c;
    a4.bone_count = 4;
    CHECK_EQ_U(ferry_ala_model_misfits(&a4, &model, line, sizeof line), 3);
    CHECK_MSG(strcmp(line, "bones not in the model: 'Tail'; tracks on other bones: 'Hand' (for bone 2, 'Arm')") == 0, "%s", line);
    CHECK_EQ_U(ferry_ala_model_misfits(&a4, &model, NULL, 0), 3);
    char small[24];
    CHECK_EQ_U(ferry_ala_model_misfits(&a4, &model, small, sizeof small), 3);
    CHECK_EQ_U(strlen(small), sizeof small - 1);
    CHECK(strcmp(small + sizeof small - 4, "...") == 0);
}

static void test_model_for(void)
{
    const char *models[] = {"dir/X.alo", "X_Y.ALO", "other/x_y_z.alo", "XY.alo", NULL, "Walker.alo"};
    size_t n = sizeof models / sizeof models[0];
    CHECK_EQ_U(ferry_ala_model_for("X_IDLE_00.ala", models, n), 0);
    CHECK_EQ_U(ferry_ala_model_for("a/b/x_y_IDLE_00.ALA", models, n), 1); /* the longer stem wins */
    CHECK_EQ_U(ferry_ala_model_for("X_Y_Z_00.ala", models, n), 2);
    CHECK_EQ_U(ferry_ala_model_for("XY_MOVE_00.ala", models, n), 3);
    CHECK_EQ_U(ferry_ala_model_for("XYZ_MOVE_00.ala", models, n), n); /* a stem is followed by '_' */
    CHECK_EQ_U(ferry_ala_model_for("X.ala", models, n), n);
    CHECK_EQ_U(ferry_ala_model_for("walker_walk_00.ala", models, n), 5);
    const char *twins[] = {"ship.alo", "SHIP.ALO"};
    CHECK_EQ_U(ferry_ala_model_for("Ship_Idle_00.ala", twins, 2), 0); /* a tie: the first */
    CHECK_EQ_U(ferry_ala_model_for(NULL, models, n), n);
}

int main(void)
{
    test_sampling_and_round_trips();
    test_defaults();
    test_validation();
    test_model_check();
    test_model_for();
    TEST_END();
}
