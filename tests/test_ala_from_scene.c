/* ferry_ala_from_scene on scenes built by hand: LINEAR, STEP and
 * CUBICSPLINE keys off the frames evaluated as glTF defines them (expected
 * values worked out by hand in the comments), step bits, visibility from
 * extras, the Y-up to Z-up turn without an axis root, both formats giving
 * the same poses; bad input (channels on nodes that are not bones, NaN
 * values, times that go back, zero length, format 2's bone limit) and the
 * file naming rule. */
#include <ferry/ala.h>
#include <ferry/convert.h>

#include "support.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define H 0.70710678f

static ferry_scene_node nodes[4];

/* Axis root (ferry's export), bones "Root" and "Arm" (child of Root), and a
 * mesh node on Arm that is not a bone. */
static void base_scene(ferry_scene *s, ferry_scene_animation *a, ferry_scene_channel *ch, size_t n)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 4; i++) ferry_scene_node_init(&nodes[i]);
    nodes[0].name = "m (Z-up to Y-up)";
    nodes[0].extras = test_extras_parse("{\"alamo\":\"axis_root\"}");
    nodes[0].rotation[0] = -H;
    nodes[0].rotation[3] = H;
    nodes[1].name = "Root";
    FY_SET_REF(&nodes[1], parent, 0);
    nodes[2].name = "Arm";
    FY_SET_REF(&nodes[2], parent, 1);
    nodes[2].translation[2] = 5;
    nodes[3].name = "ArmMesh";
    FY_SET_REF(&nodes[3], parent, 2);
    nodes[3].extras = test_extras_parse("{\"alamo\":\"mesh\"}");
    s->nodes = nodes;
    s->node_count = 4;
    memset(a, 0, sizeof *a);
    a->name = "WALK";
    a->channels = ch;
    a->channel_count = n;
    s->animations = a;
    s->animation_count = 1;
}

static ferry_ala_animation *build(const ferry_scene *s, int format, double fps, ferry_diagnostics *d, ferry_error *err)
{
    ferry_ala_from_scene_options o;
    memset(&o, 0, sizeof o);
    o.format = (uint8_t)format;
    o.fps = fps;
    o.diagnostics = d;
    ferry_ala_animation *a = NULL;
    if (ferry_ala_from_scene(s, &o, &a, err) != FERRY_OK) return NULL;
    ferry_diagnostics v;
    memset(&v, 0, sizeof v);
    CHECK_MSG(ferry_ala_validate(a, NULL, &v) == 0, "validation: %s", v.count ? v.items[0].message : "");
    ferry_diagnostics_free(&v);
    return a;
}

static long track(const ferry_ala_animation *a, uint32_t bone)
{
    for (size_t t = 0; t < a->bone_count; t++)
        if (a->bones[t].index == bone) return (long)t;
    return -1;
}

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static void test_linear_step_cubic(void)
{
    /* Arm's translation, LINEAR, keys at 0 and 0.25 s; at 10 fps the frames
     * are 0, 0.1, 0.2, 0.3 s: x = 0, 0.4, 0.8, 1 (held after the last key),
     * y twice that, z 5 at both keys (a constant: no track, offset 5). */
    static const float t_times[] = {0, 0.25f}, t_values[] = {0, 0, 5, 1, 2, 5};
    /* Root's rotation, STEP, keys at 0 and 0.1 s: identity, then 90 degrees about Z. */
    static const float r_times[] = {0, 0.1f}, r_values[] = {0, 0, 0, 1, 0, 0, H, H};
    ferry_scene_channel ch[2] = {
        {.node = 2, .path = FERRY_ANIM_TRANSLATION, .interpolation = FERRY_INTERP_LINEAR, .times = t_times, .key_count = 2, .values = t_values},
        {.node = 1, .path = FERRY_ANIM_ROTATION, .interpolation = FERRY_INTERP_STEP, .times = r_times, .key_count = 2, .values = r_values},
    };
    ferry_scene s;
    ferry_scene_animation an;
    base_scene(&s, &an, ch, 2);
    for (int format = 1; format <= 2; format++) {
        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        ferry_error err;
        ferry_ala_animation *a = build(&s, format, 10, &d, &err);
        CHECK_MSG(a != NULL, "format %d: %s", format, err.message);
        CHECK(d.count == 0);
        ferry_diagnostics_free(&d);
        if (!a) continue;
        CHECK(a->format == format && a->frame_count == 4 && a->fps == 10.0f && a->bone_count == 2);
        long arm = track(a, 1), root = track(a, 0);
        CHECK(arm >= 0 && root >= 0);
        if (arm < 0 || root < 0) {
            ferry_ala_free(a);
            continue;
        }
        CHECK(strcmp(a->bones[arm].name, "Arm") == 0 && strcmp(a->bones[root].name, "Root") == 0);
        /* Quantization: offset 0 and step 1/65535 on x, 2/65535 on y; z a constant offset. */
        CHECK(a->bones[arm].translation_offset[0] == 0.0f && a->bones[arm].translation_scale[2] == 0.0f);
        CHECK(near(a->bones[arm].translation_scale[0], 1.0 / 65535, 1e-12));
        static const double xs[] = {0, 0.4, 0.8, 1};
        for (uint32_t f = 0; f < 4; f++) {
            ferry_ala_pose p;
            ferry_ala_sample_frame(a, (size_t)arm, f, &p);
            CHECK_MSG(near(p.translation[0], xs[f], 0.5 / 65535 + 1e-6) && near(p.translation[1], 2 * xs[f], 1.0 / 65535 + 1e-6) &&
                          p.translation[2] == 5.0f,
                      "format %d frame %u: (%g %g %g)", format, (unsigned)f, p.translation[0], p.translation[1], p.translation[2]);
        }
        /* STEP: frame 0 holds identity until frame 1 (a step bit), then 90 degrees. */
        ferry_ala_pose p;
        ferry_ala_sample(a, (size_t)root, 0.5, FERRY_ALA_CLAMP, &p);
        CHECK(near(p.rotation[3], 1, 1e-4));
        ferry_ala_sample_frame(a, (size_t)root, 2, &p);
        CHECK(near(p.rotation[2], H, 1e-4) && near(p.rotation[3], H, 1e-4));
        CHECK(a->bones[root].steps == NULL || (a->bones[root].steps[0] & 1));
        ferry_ala_sample(a, (size_t)arm, 0.5, FERRY_ALA_CLAMP, &p);
        CHECK(near(p.translation[0], 0.2, 1e-4)); /* LINEAR: no step bit on Arm */
        ferry_ala_free(a);
    }

    /* CUBICSPLINE: keys at 0 and 1 s, values 0 and 1 on x, out-tangent 4 at
     * the first key, other tangents 0. p(u) = (u^3 - 2u^2 + u) * 4 + (-2u^3 + 3u^2):
     * at 4 fps, u = 0.25: 0.5625 + 0.15625 = 0.71875; 0.5: 0.5 + 0.5 = 1;
     * 0.75: 0.1875 + 0.84375 = 1.03125; 1: 1. */
    static const float c_times[] = {0, 1};
    static const float c_values[] = {0, 0, 5, 0, 0, 5, 4, 0, 0, /* in, value, out of key 0 */
                                     0, 0, 0, 1, 0, 5, 0, 0, 0};
    ferry_scene_channel cc = {.node = 2, .path = FERRY_ANIM_TRANSLATION, .interpolation = FERRY_INTERP_CUBICSPLINE,
                              .times = c_times, .key_count = 2, .values = c_values};
    base_scene(&s, &an, &cc, 1);
    ferry_error err;
    ferry_ala_animation *a = build(&s, 2, 4, NULL, &err);
    CHECK_MSG(a != NULL, "cubic: %s", err.message);
    if (a) {
        static const double xs[] = {0, 0.71875, 1, 1.03125, 1};
        CHECK(a->frame_count == 5);
        for (uint32_t f = 0; f < 5 && a->bone_count == 1; f++) {
            ferry_ala_pose p;
            ferry_ala_sample_frame(a, 0, f, &p);
            CHECK_MSG(near(p.translation[0], xs[f], 1.03125 / 65535 / 2 + 1e-6), "cubic frame %u: %g, expected %g", (unsigned)f,
                      p.translation[0], xs[f]);
            CHECK(p.translation[2] == 5.0f);
        }
        ferry_ala_free(a);
    }
}

static void test_extras_and_axes(void)
{
    /* Visibility and the rate from ferry's extras; the frame count from
     * extras when the keys end earlier (a still animation). */
    static const float times[] = {0}, values[] = {0, 0, 0, 1};
    ferry_scene_channel ch = {.node = 1, .path = FERRY_ANIM_ROTATION, .interpolation = FERRY_INTERP_LINEAR, .times = times,
                              .key_count = 1, .values = values};
    ferry_scene s;
    ferry_scene_animation an;
    base_scene(&s, &an, &ch, 1);
    an.extras = test_extras_parse("{\"fps\":15,\"frame_count\":6,\"visibility\":[{\"node\":2,\"bone\":\"Arm\",\"visible\":[1,0,0,1,1,0]}]}");
    ferry_error err;
    ferry_ala_animation *a = build(&s, 2, 0, NULL, &err);
    CHECK_MSG(a != NULL, "%s", err.message);
    if (a) {
        CHECK(a->fps == 15.0f && a->frame_count == 6 && a->bone_count == 2);
        long arm = track(a, 1);
        CHECK(arm >= 0 && a->bones[arm].has_visibility && a->bones[arm].visibility_size == 1 &&
              a->bones[arm].visibility[0] == 0x19); /* 1,0,0,1,1,0 -> bits 0, 3, 4 */
        ferry_ala_free(a);
    }
    /* At 30 fps the bits (written at 15) cover two frames each: frames 0-1
     * visible, 2-5 hidden, 6-9 visible, 10-11 hidden (frames 0..11). */
    a = build(&s, 2, 30, NULL, &err);
    if (a) {
        long arm = track(a, 1);
        CHECK(a->frame_count == 11 || a->frame_count == 12);
        CHECK_MSG(arm >= 0 && a->bones[arm].visibility[0] == 0xC3 && (a->bones[arm].visibility[1] & 0x3) == 0x3,
                  "bits %02x %02x", arm >= 0 ? a->bones[arm].visibility[0] : 0, arm >= 0 ? a->bones[arm].visibility[1] : 0);
        ferry_ala_free(a);
    }
    /* No extras, no rate given: 30 fps. */
    an.extras = NULL;
    ferry_ala_from_scene_report rep;
    ferry_ala_from_scene_options o;
    memset(&o, 0, sizeof o);
    o.report = &rep;
    a = NULL;
    CHECK(ferry_ala_from_scene(&s, &o, &a, &err) == FERRY_OK);
    CHECK(a && a->fps == 30.0f && rep.fps_assumed && a->frame_count == 1);
    ferry_ala_free(a);

    /* Another tool's glTF: no axis root, a bone at the scene's root. Y-up
     * becomes Z-up (+90 degrees about X): translation (0, 1, 0) -> (0, 0, 1),
     * the identity rotation -> (sin 45, 0, 0, cos 45). */
    static const float tt[] = {0, 1}, tv[] = {0, 1, 0, 0, 1, 0};
    ferry_scene_node one;
    ferry_scene_node_init(&one);
    one.name = "Bone";
    ferry_scene_channel c2 = {.node = 0, .path = FERRY_ANIM_TRANSLATION, .interpolation = FERRY_INTERP_LINEAR, .times = tt,
                              .key_count = 2, .values = tv};
    ferry_scene_animation a2 = {.name = "x", .channels = &c2, .channel_count = 1};
    ferry_scene s2 = {.nodes = &one, .node_count = 1, .animations = &a2, .animation_count = 1};
    a = build(&s2, 1, 2, NULL, &err);
    CHECK(a != NULL);
    /* The model writer adds a Root bone 0 to such files: the node is bone 1. */
    CHECK(ferry_ala_scene_bones(&s2, NULL, 0) == 2);
    CHECK(a && a->bone_count == 1 && a->bones[0].index == 1 && strcmp(a->bones[0].name, "Bone") == 0);
    if (a && a->bone_count == 1) {
        ferry_ala_pose p;
        ferry_ala_sample_frame(a, 0, 1, &p);
        CHECK_MSG(near(p.translation[0], 0, 1e-6) && near(p.translation[1], 0, 1e-6) && near(p.translation[2], 1, 1e-6),
                  "(%g %g %g)", p.translation[0], p.translation[1], p.translation[2]);
        CHECK(near(p.rotation[0], H, 1e-4) && near(p.rotation[3], H, 1e-4));
    }
    ferry_ala_free(a);

    /* A bone under a node that is not a bone (a mesh node moved by (0, 0, 2)
     * and turned 90 degrees about Z), under a bone: the mesh node's
     * transform is composed in. Tip at (1, 0, 0) in the mesh node's space is
     * at (0, 1, 2) from Root, turned 90 degrees about Z. */
    ferry_scene_node n4[4];
    for (int i = 0; i < 4; i++) ferry_scene_node_init(&n4[i]);
    n4[0].name = "m (Z-up to Y-up)";
    n4[0].extras = test_extras_parse("{\"alamo\":\"axis_root\"}");
    n4[0].rotation[0] = -H;
    n4[0].rotation[3] = H;
    n4[1].name = "Root";
    FY_SET_REF(&n4[1], parent, 0);
    n4[2].name = "Holder";
    FY_SET_REF(&n4[2], parent, 1);
    FY_SET_REF(&n4[2], mesh, 0); /* a mesh node: not a bone */
    n4[2].extras = test_extras_parse("{\"alamo\":\"mesh\"}");
    n4[2].translation[2] = 2;
    n4[2].rotation[2] = H;
    n4[2].rotation[3] = H;
    n4[3].name = "Tip";
    FY_SET_REF(&n4[3], parent, 2);
    static const float tip_t[] = {0}, tip_v[] = {1, 0, 0};
    ferry_scene_channel c3 = {.node = 3, .path = FERRY_ANIM_TRANSLATION, .times = tip_t, .key_count = 1, .values = tip_v};
    ferry_scene_animation a3 = {.name = "x", .channels = &c3, .channel_count = 1};
    ferry_scene s3 = {.nodes = n4, .node_count = 4, .animations = &a3, .animation_count = 1};
    CHECK(ferry_ala_scene_bones(&s3, NULL, 0) == 2);
    a = build(&s3, 2, 30, NULL, &err);
    CHECK(a && a->bone_count == 1 && a->bones[0].index == 1);
    if (a && a->bone_count == 1) {
        ferry_ala_pose p;
        ferry_ala_sample_frame(a, 0, 0, &p);
        CHECK_MSG(near(p.translation[0], 0, 1e-5) && near(p.translation[1], 1, 1e-5) && near(p.translation[2], 2, 1e-5),
                  "(%g %g %g)", p.translation[0], p.translation[1], p.translation[2]);
        CHECK(near(p.rotation[2], H, 1e-4) && near(p.rotation[3], H, 1e-4));
    }
    ferry_ala_free(a);
}

static void test_bad_input(void)
{
    static const float times[] = {0, 0.5f}, good[] = {0, 0, 0, 1, 1, 1};
    static const float nan_values[] = {0, NAN, 0, 1, 1, INFINITY};
    static const float back[] = {0.5f, 0.25f};
    ferry_scene_channel ch[3] = {
        {.node = 3, .path = FERRY_ANIM_TRANSLATION, .times = times, .key_count = 2, .values = good}, /* a mesh node */
        {.node = 2, .path = FERRY_ANIM_TRANSLATION, .times = times, .key_count = 2, .values = nan_values},
        {.node = 1, .path = FERRY_ANIM_SCALE, .times = times, .key_count = 2, .values = good},
    };
    ferry_scene s;
    ferry_scene_animation an;
    base_scene(&s, &an, ch, 3);
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_ala_from_scene_report rep;
    ferry_ala_from_scene_options o;
    memset(&o, 0, sizeof o);
    o.diagnostics = &d;
    o.report = &rep;
    ferry_error err;
    ferry_ala_animation *a = NULL;
    CHECK(ferry_ala_from_scene(&s, &o, &a, &err) == FERRY_OK);
    bool not_bone = false, nan_seen = false;
    for (size_t i = 0; i < d.count; i++) {
        if (strcmp(d.items[i].rule, "anim-not-bone") == 0 && strstr(d.items[i].message, "ArmMesh")) not_bone = true;
        if (strcmp(d.items[i].rule, "anim-value-finite") == 0 && strstr(d.items[i].message, "2 values")) nan_seen = true;
        CHECK(strcmp(d.items[i].path, "animations[0]") == 0);
    }
    CHECK(not_bone && nan_seen && d.warning_count == 2);
    CHECK(rep.channels_ignored == 1 && rep.values_repaired == 2);
    if (a) {
        /* The NaN became Arm's rest y (0), the infinity its rest z (5). */
        long arm = track(a, 1);
        ferry_ala_pose p;
        CHECK(arm >= 0);
        ferry_ala_sample_frame(a, (size_t)arm, 0, &p);
        CHECK(p.translation[1] == 0.0f);
        ferry_ala_sample_frame(a, (size_t)arm, a->frame_count - 1, &p);
        CHECK(near(p.translation[2], 5, 1e-4));
    }
    ferry_ala_free(a);
    ferry_diagnostics_free(&d);

    /* Times that go back: a located error. */
    ch[2].times = back;
    a = NULL;
    CHECK(ferry_ala_from_scene(&s, NULL, &a, &err) == FERRY_ERR_MALFORMED && a == NULL);
    CHECK(strcmp(err.path, "animations[0]") == 0 && strstr(err.message, "channel 2") != NULL);
    ch[2].times = times;
    /* An animation index past the end; a format that does not exist. */
    ferry_ala_from_scene_options second = {.animation_index = 1};
    CHECK(ferry_ala_from_scene(&s, &second, &a, &err) == FERRY_ERR_ARGUMENT);
    o.format = 3;
    CHECK(ferry_ala_from_scene(&s, &o, &a, &err) == FERRY_ERR_ARGUMENT);

    /* Zero length: every key at time 0 gives one frame, with a warning. */
    static const float t0[] = {0};
    ferry_scene_channel z = {.node = 1, .path = FERRY_ANIM_SCALE, .times = t0, .key_count = 1, .values = good + 3};
    base_scene(&s, &an, &z, 1);
    memset(&o, 0, sizeof o);
    memset(&d, 0, sizeof d);
    o.diagnostics = &d;
    CHECK(ferry_ala_from_scene(&s, &o, &a, &err) == FERRY_OK);
    CHECK(a && a->frame_count == 1 && d.count == 1 && strcmp(d.items[0].rule, "anim-zero-length") == 0);
    ferry_ala_free(a);
    ferry_diagnostics_free(&d);

    /* More bones than format 2 indexes: 8193 rotated bones. */
    size_t n = 8193;
    ferry_scene_node *many = calloc(n, sizeof *many);
    ferry_scene_channel *mc = calloc(n, sizeof *mc);
    char (*names)[16] = calloc(n, sizeof *names);
    static const float q[] = {0, 0, 0, 1, 0, 0, H, H};
    for (size_t i = 0; i < n; i++) {
        ferry_scene_node_init(&many[i]);
        snprintf(names[i], sizeof names[i], "b%zu", i);
        many[i].name = names[i];
        mc[i] = (ferry_scene_channel){.node = (int32_t)i, .path = FERRY_ANIM_ROTATION, .times = times, .key_count = 2, .values = q};
    }
    ferry_scene_animation ma = {.name = "big", .channels = mc, .channel_count = n};
    ferry_scene big = {.nodes = many, .node_count = n, .animations = &ma, .animation_count = 1};
    a = NULL;
    CHECK(ferry_ala_from_scene(&big, NULL, &a, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "format 2") != NULL && strcmp(err.path, "animations[0]") == 0);
    memset(&o, 0, sizeof o);
    o.format = 1;
    CHECK(ferry_ala_from_scene(&big, &o, &a, &err) == FERRY_OK);
    CHECK(a && a->bone_count == n);
    ferry_ala_free(a);
    free(many);
    free(mc);
    free(names);
}

/* Bones given by name (the model's): a node of another role holding the
 * name is passed over, and Blender's ".001" suffix (it renames a repeated
 * name) still finds the bone. */
static void test_bone_names(void)
{
    static const float times[] = {0, 1}, values[] = {0, 0, 0, 1, 0, 0};
    ferry_scene_channel ch = {.node = 2, .path = FERRY_ANIM_TRANSLATION, .times = times, .key_count = 2, .values = values};
    ferry_scene s;
    ferry_scene_animation an;
    base_scene(&s, &an, &ch, 1);
    nodes[2].name = "Arm.001";
    nodes[3].name = "Arm"; /* the mesh node */
    static const char *const bones[] = {"Root", "arm"};
    ferry_ala_from_scene_options o;
    memset(&o, 0, sizeof o);
    o.bone_names = bones;
    o.bone_count = 2;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    o.diagnostics = &d;
    ferry_ala_animation *a = NULL;
    ferry_error err;
    CHECK(ferry_ala_from_scene(&s, &o, &a, &err) == FERRY_OK);
    CHECK(d.count == 0);
    CHECK(a && a->bone_count == 1 && a->bones[0].index == 1 && strcmp(a->bones[0].name, "arm") == 0);
    ferry_ala_free(a);
    ferry_diagnostics_free(&d);
}

static void test_names(void)
{
    char out[256];
    ferry_ala_file_name("out/FOO.alo", "FOO_DEPLOY_00", 0, out, sizeof out);
    CHECK(strcmp(out, "out/FOO_DEPLOY_00.ala") == 0);
    ferry_ala_file_name("FOO.alo", "foo_idle_00.ALA", 0, out, sizeof out);
    CHECK(strcmp(out, "foo_idle_00.ala") == 0);
    ferry_ala_file_name("dir/FOO.alo", "Walk", 0, out, sizeof out);
    CHECK(strcmp(out, "dir/FOO_Walk.ala") == 0);
    ferry_ala_file_name("FOO.alo", "FOOBAR_X", 0, out, sizeof out); /* FOO, not followed by '_' */
    CHECK(strcmp(out, "FOO_FOOBAR_X.ala") == 0);
    ferry_ala_file_name("FOO.alo", NULL, 3, out, sizeof out);
    CHECK(strcmp(out, "FOO_3.ala") == 0);
    ferry_ala_file_name("FOO.alo", "a/b:c", 0, out, sizeof out);
    CHECK(strcmp(out, "FOO_a_b_c.ala") == 0);
}

/* ferry_scene_find_animation: an index, else a name, else the only one. */
static void test_find_animation(void)
{
    ferry_scene_animation anims[3] = {{"idle", NULL, 0, NULL}, {NULL, NULL, 0, NULL}, {"2", NULL, 0, NULL}};
    ferry_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.animations = anims;
    scene.animation_count = 3;
    size_t index = 99;
    CHECK(ferry_scene_find_animation(&scene, "1", &index) && index == 1);
    CHECK(ferry_scene_find_animation(&scene, "idle", &index) && index == 0);
    CHECK(ferry_scene_find_animation(&scene, "2", &index) && index == 2); /* an index first */
    anims[1].name = "7";
    CHECK(ferry_scene_find_animation(&scene, "7", &index) && index == 1); /* past the count: a name */
    CHECK(!ferry_scene_find_animation(&scene, "walk", &index));
    CHECK(!ferry_scene_find_animation(&scene, "", &index));
    CHECK(!ferry_scene_find_animation(&scene, "3", &index));
    CHECK(!ferry_scene_find_animation(&scene, NULL, &index)); /* several: none chosen */
    scene.animation_count = 1;
    index = 99;
    CHECK(ferry_scene_find_animation(&scene, NULL, &index) && index == 0);
    scene.animation_count = 0;
    CHECK(!ferry_scene_find_animation(&scene, NULL, &index));
    CHECK(!ferry_scene_find_animation(NULL, "0", &index));
}

int main(void)
{
    test_find_animation();
    test_linear_step_cubic();
    test_extras_and_axes();
    test_bad_input();
    test_bone_names();
    test_names();
    TEST_END();
}
