/* ODOL skeleton and animation classes -> glTF skin and animations
 * (src/convert/odol_scene_anim.c). A model built by hand with a 2-bone
 * skeleton (hand under arm), weighted vertices, a proxy on a bone and four
 * classes (rotation, translation, hide, one on no bone) is converted; the
 * joints, inverse bind matrices, weights and every key are compared with
 * values worked out by hand below. Located errors for bad bone references.
 * With ../shared: every corpus model with animation classes exports one
 * animation per class that moves a bone of the exported LODs, in the
 * game's view and with every LOD, and the glTF writer accepts it (the
 * Khronos validator runs over the same exports in tests/cli/odol_gltf.sh). */
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/odol.h>

#include "support.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static float positions[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
static uint8_t refs[4][12];
static int32_t sub_to_skel[2] = {1, 0}; /* sub-skeleton bone 0 is "hand" (1), 1 is "arm" (0) */
static ferry_odol_bone_name bones[2] = {{"arm", ""}, {"hand", "arm"}};
static ferry_odol_animation_class classes[5];
static ferry_odol_anim_bone a2b[5];
static ferry_odol_face faces[2];
static ferry_odol_proxy proxy;

static void set_ref(int v, uint32_t count, const uint8_t *pairs)
{
    memset(refs[v], 0, 12);
    refs[v][0] = (uint8_t)count;
    if (count) memcpy(refs[v] + 4, pairs, 2 * count);
}

/* One visual LOD 1.000 with two triangles (0 1 2) (0 2 3):
 *   v0 on no bone; v1 on arm (sub 1, 255); v2 on hand (sub 0, 255);
 *   v3 on arm 128 and hand 127 (out of 255).
 * Classes: 0 "Turn" rotation on hand, axis point (1, 2, 3) direction
 * (0, 0, 2), angle 0 -> pi; 1 "Slide" translation on arm, axis from
 * (0, 0, 1) along (2, 0, 0), offsets 0 -> 0.5 (axis lengths); 2 "Vanish"
 * hide on hand at 0.25; 3 "Nowhere" rotationX on no bone; 4 "Steer"
 * rotationY on arm about (1, 0, 1), angle 0 -> pi/2. A proxy on hand at
 * (1, 2, 3). */
static void build(ferry_odol_model *m, ferry_odol_lod *lod, float *resolution)
{
    memset(m, 0, sizeof *m);
    memset(lod, 0, sizeof *lod);
    m->version = 40;
    m->lod_count = 1;
    m->lods = lod;
    *resolution = 1.0f;
    m->resolutions = resolution;
    memset(m->info.special_lods, 0xFF, sizeof m->info.special_lods);
    m->info.class_name = m->info.damage = "";
    m->info.skeleton.name = "TestSkel";
    m->info.skeleton.bones = bones;
    m->info.skeleton.bone_count = 2;
    lod->resolution = 1.0f;
    lod->permanent = 1;
    lod->offset = lod->faces_offset = FERRY_NO_OFFSET;
    lod->positions = (ferry_odol_array){(const uint8_t *)positions, 4, NULL, 0, FERRY_NO_OFFSET};
    set_ref(0, 0, NULL);
    set_ref(1, 1, (const uint8_t[]){1, 255});
    set_ref(2, 1, (const uint8_t[]){0, 255});
    set_ref(3, 2, (const uint8_t[]){1, 128, 0, 127});
    lod->vertex_bone_refs = (ferry_odol_array){(const uint8_t *)refs, 4, NULL, 0, FERRY_NO_OFFSET};
    lod->sub_skeleton_to_skeleton = (ferry_odol_int_array){sub_to_skel, 2};
    faces[0] = (ferry_odol_face){3, {0, 1, 2, 0}};
    faces[1] = (ferry_odol_face){3, {0, 2, 3, 0}};
    lod->faces = faces;
    lod->face_count = 2;
    memset(&proxy, 0, sizeof proxy);
    proxy.model = "\\test\\thing";
    const float t[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3};
    memcpy(proxy.transform, t, sizeof t);
    proxy.bone_index = 1;
    proxy.selection_index = proxy.section_index = -1;
    lod->proxies = &proxy;
    lod->proxy_count = 1;

    memset(classes, 0, sizeof classes);
    memset(a2b, 0, sizeof a2b);
    const char *names[5] = {"Turn", "Slide", "Vanish", "Nowhere", "Steer"};
    const uint32_t types[5] = {FERRY_ODOL_ANIM_ROTATION, FERRY_ODOL_ANIM_TRANSLATION, FERRY_ODOL_ANIM_HIDE,
                               FERRY_ODOL_ANIM_ROTATION_X, FERRY_ODOL_ANIM_ROTATION_Y};
    for (int c = 0; c < 5; c++) {
        classes[c].type = types[c];
        classes[c].name = names[c];
        classes[c].source = "user";
        classes[c].max_phase = classes[c].max_value = 1;
    }
    classes[0].params[1] = 3.14159265f;
    classes[1].params[1] = 0.5f;
    classes[2].params[0] = 0.25f;
    classes[3].params[1] = 1;
    classes[4].params[1] = 1.57079633f;
    a2b[0] = (ferry_odol_anim_bone){1, {1, 2, 3}, {0, 0, 2}};
    a2b[1] = (ferry_odol_anim_bone){0, {0, 0, 1}, {2, 0, 0}};
    a2b[2] = (ferry_odol_anim_bone){1, {0, 0, 0}, {0, 0, 0}};
    a2b[3] = (ferry_odol_anim_bone){-1, {0, 0, 0}, {0, 0, 0}};
    /* The stored direction of a fixed-axis type is the memory axis (or
     * the default (0, 1, 0)); the type decides: +Y. */
    a2b[4] = (ferry_odol_anim_bone){0, {1, 0, 1}, {1, 0, 0}};
    m->animations.present = 1;
    m->animations.classes = classes;
    m->animations.class_count = 5;
    m->animations.lod_count = 1;
    m->animations.anims_to_bones = a2b;
    /* The reverse table (per LOD, per bone, its classes), for validation. */
    static uint32_t arm_classes[2] = {1, 4}, hand_classes[2] = {0, 2};
    static ferry_odol_bone_anims per_bone[2];
    static ferry_odol_bone_anims *per_lod[1];
    static uint32_t bone_counts[1] = {2};
    per_bone[0] = (ferry_odol_bone_anims){arm_classes, 2};
    per_bone[1] = (ferry_odol_bone_anims){hand_classes, 2};
    per_lod[0] = per_bone;
    m->animations.bones_to_anims = per_lod;
    m->animations.bone_counts = bone_counts;
}

static int32_t find_node(const ferry_scene *s, const char *name)
{
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].name && strcmp(s->nodes[i].name, name) == 0) return (int32_t)i;
    return -1;
}

static const ferry_scene_animation *find_anim(const ferry_scene *s, const char *name)
{
    for (size_t i = 0; i < s->animation_count; i++)
        if (strcmp(s->animations[i].name, name) == 0) return &s->animations[i];
    return NULL;
}

/* Whether validation reports [vertex-bone-ref] at `path` (NULL: anywhere). */
static bool validation_names(const ferry_odol_model *m, const char *path)
{
    ferry_diagnostics d = {0};
    ferry_odol_validate(m, NULL, &d);
    bool found = false;
    for (size_t i = 0; i < d.count; i++)
        if (strcmp(d.items[i].rule, "vertex-bone-ref") == 0 && (!path || strcmp(d.items[i].path, path) == 0))
            found = true;
    ferry_diagnostics_free(&d);
    return found;
}

static void check_vec(const float *got, float x, float y, float z)
{
    CHECK_NEAR(got[0], x, 1e-6);
    CHECK_NEAR(got[1], y, 1e-6);
    CHECK_NEAR(got[2], z, 1e-6);
}

static void test_built(void)
{
    ferry_odol_model m;
    ferry_odol_lod lod;
    float res;
    build(&m, &lod, &res);
    ferry_odol_scene_report rep;
    ferry_odol_scene_options opt = {0};
    opt.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    ferry_result rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK_MSG(rc == FERRY_OK, "%s at %s", err.message, err.path);
    if (rc != FERRY_OK) return;
    CHECK_EQ_U(rep.skins, 1);
    CHECK_EQ_U(rep.joints, 3);
    CHECK_EQ_U(rep.animations, 4);
    CHECK_EQ_U(rep.animations_unbound, 1);
    CHECK(rep.animation_unbound && strcmp(rep.animation_unbound, "Nowhere") == 0);

    /* Nodes: root, LOD, static root, arm, hand, the proxy. */
    int32_t lodn = find_node(s, "1.000"), root = find_node(s, "TestSkel"), arm = find_node(s, "arm"),
            hand = find_node(s, "hand"), px = find_node(s, "\\test\\thing");
    CHECK(lodn == 1 && root == 2 && arm == 3 && hand == 4 && px == 5);
    if (lodn != 1 || root != 2 || arm != 3 || hand != 4 || px != 5) goto done;
    CHECK(FY_REF(&s->nodes[root], parent) == lodn && FY_REF(&s->nodes[arm], parent) == root && FY_REF(&s->nodes[hand], parent) == arm);
    /* Pivots in glTF axes (z negated): arm's from Slide (0, 0, 1) ->
     * (0, 0, -1); hand's from Turn (1, 2, 3) -> (1, 2, -3), so relative to
     * arm (1, 2, -2). The proxy at (1, 2, 3) -> (1, 2, -3) hangs from hand:
     * (0, 0, 0) relative to it. */
    check_vec(s->nodes[root].translation, 0, 0, 0);
    check_vec(s->nodes[arm].translation, 0, 0, -1);
    check_vec(s->nodes[hand].translation, 1, 2, -2);
    CHECK(FY_REF(&s->nodes[px], parent) == hand);
    check_vec(s->nodes[px].translation, 0, 0, 0);

    /* The skin: joints static root, arm, hand; inverse bind matrices the
     * translations to minus each pivot (column-major: elements 12-14). */
    CHECK_EQ_U(s->skin_count, 1);
    CHECK(FY_REF(&s->nodes[lodn], skin) == 0);
    const ferry_scene_skin *sk = &s->skins[0];
    CHECK_EQ_U(sk->joint_count, 3);
    CHECK(sk->joints[0] == root && sk->joints[1] == arm && sk->joints[2] == hand && FY_REF(sk, skeleton) == root);
    static const float want_ibm[3][3] = {{0, 0, 0}, {0, 0, 1}, {-1, -2, 3}};
    for (int j = 0; j < 3; j++) {
        const float *mtx = sk->inverse_bind_matrices + 16 * j;
        for (int k = 0; k < 12; k++) CHECK_NEAR(mtx[k], k % 5 == 0 ? 1 : 0, 0);
        check_vec(mtx + 12, want_ibm[j][0], want_ibm[j][1], want_ibm[j][2]);
        CHECK_NEAR(mtx[15], 1, 0);
    }
    /* Weights: vertices in order of first use (v0 v1 v2 v3). v0 on the
     * static root; v3: arm 128/255 = 0.50196, hand 127/255 = 0.49804. */
    const ferry_scene_primitive *p = &s->meshes[FY_REF(&s->nodes[lodn], mesh)].primitives[0];
    CHECK_EQ_U(p->vertex_count, 4);
    CHECK(p->joints && p->weights);
    if (!p->joints || !p->weights) goto done;
    static const uint16_t want_j[4][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {1, 2, 0, 0}};
    static const float want_w[4][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {128.0f / 255, 127.0f / 255, 0, 0}};
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 4; k++) {
            CHECK_EQ_U(p->joints[v * 4 + k], want_j[v][k]);
            CHECK_NEAR(p->weights[v * 4 + k], want_w[v][k], 1e-7);
        }
    CHECK_NEAR(p->weights[12], 0.501960784, 1e-7);

    /* Turn: engine rotation by theta about +z (the normalized (0, 0, 2))
     * through (1, 2, 3) is, mirrored, a rotation by theta about glTF +z:
     * the quaternion (0, 0, sin(theta/2), cos(theta/2)). theta 0 -> pi in
     * quarter-turn-or-less steps of pi/4: 5 keys at 0, 0.5, 1, 1.5, 2 s.
     * The pivot is hand's own: no translation channel. */
    const ferry_scene_animation *turn = find_anim(s, "Turn");
    CHECK(turn && turn->channel_count == 1);
    if (turn && turn->channel_count == 1) {
        const ferry_scene_channel *ch = &turn->channels[0];
        CHECK(ch->node == hand && ch->path == FERRY_ANIM_ROTATION && ch->interpolation == FERRY_INTERP_LINEAR);
        CHECK_EQ_U(ch->key_count, 5);
        for (size_t k = 0; k < 5 && ch->key_count == 5; k++) {
            double half = 3.14159265 * (double)k / 8;
            CHECK_NEAR(ch->times[k], 0.5 * (double)k, 1e-6);
            CHECK_NEAR(ch->values[4 * k], 0, 1e-6);
            CHECK_NEAR(ch->values[4 * k + 1], 0, 1e-6);
            CHECK_NEAR(ch->values[4 * k + 2], sin(half), 1e-6);
            CHECK_NEAR(ch->values[4 * k + 3], cos(half), 1e-6);
        }
        CHECK_NEAR(ch->values[10], 0.707106781, 1e-6); /* key 2: a quarter turn */
    }
    /* Slide: 0.5 axis lengths of (2, 0, 0) = 1 along +x (x is kept): arm
     * from its rest (0, 0, -1) to (1, 0, -1) in 2 s. */
    const ferry_scene_animation *slide = find_anim(s, "Slide");
    CHECK(slide && slide->channel_count == 1);
    if (slide && slide->channel_count == 1) {
        const ferry_scene_channel *ch = &slide->channels[0];
        CHECK(ch->node == arm && ch->path == FERRY_ANIM_TRANSLATION && ch->key_count == 2);
        CHECK_NEAR(ch->times[0], 0, 0);
        CHECK_NEAR(ch->times[1], 2, 0);
        check_vec(ch->values, 0, 0, -1);
        check_vec(ch->values + 3, 1, 0, -1);
    }
    /* Vanish: shown until phase 0.25 (0.5 s), then scale 0 (STEP). */
    const ferry_scene_animation *van = find_anim(s, "Vanish");
    CHECK(van && van->channel_count == 1);
    if (van && van->channel_count == 1) {
        const ferry_scene_channel *ch = &van->channels[0];
        CHECK(ch->node == hand && ch->path == FERRY_ANIM_SCALE && ch->interpolation == FERRY_INTERP_STEP);
        CHECK_EQ_U(ch->key_count, 3);
        static const float want_t[3] = {0, 0.5f, 2}, want_s[3] = {1, 0, 0};
        for (size_t k = 0; k < 3 && ch->key_count == 3; k++) {
            CHECK_NEAR(ch->times[k], want_t[k], 1e-6);
            check_vec(ch->values + 3 * k, want_s[k], want_s[k], want_s[k]);
        }
    }
    CHECK(find_anim(s, "Nowhere") == NULL);
    /* Steer: a fixed-axis type turns by -angle about +Y (engine), which
     * the mirror keeps as +Y and turns back to +angle: about glTF +Y by
     * pi/2 * phase. Its point (1, 0, 1) -> (1, 0, -1) is not arm's pivot
     * (0, 0, -1): the arm a = (1, 0, 0) gives a translation rest + a - R a,
     * keys every 5 degrees (19). At the end R a = (cos, 0, -sin)(pi/2) =
     * (0, 0, -1): translation (0, 0, -1) + (1, 0, 0) - (0, 0, -1) = (1, 0, 0);
     * half way (45 degrees): (0, 0, -1) + (1 - 0.707107, 0, 0.707107). */
    const ferry_scene_animation *steer = find_anim(s, "Steer");
    CHECK(steer && steer->channel_count == 2);
    if (steer && steer->channel_count == 2) {
        const ferry_scene_channel *r = &steer->channels[0], *t = &steer->channels[1];
        CHECK(r->node == arm && r->path == FERRY_ANIM_ROTATION && t->node == arm && t->path == FERRY_ANIM_TRANSLATION);
        CHECK_EQ_U(r->key_count, 19);
        CHECK_EQ_U(t->key_count, 19);
        if (r->key_count == 19 && t->key_count == 19) {
            const float *q = r->values + 18 * 4;
            CHECK_NEAR(q[0], 0, 1e-6);
            CHECK_NEAR(q[1], 0.707106781, 1e-6);
            CHECK_NEAR(q[2], 0, 1e-6);
            CHECK_NEAR(q[3], 0.707106781, 1e-6);
            q = r->values + 9 * 4;
            CHECK_NEAR(q[1], sin(3.14159265 / 8), 1e-6);
            CHECK_NEAR(q[3], cos(3.14159265 / 8), 1e-6);
            CHECK_NEAR(r->times[9], 1, 1e-6);
            check_vec(t->values, 0, 0, -1);
            check_vec(t->values + 9 * 3, 1 - 0.707106781f, 0, -1 + 0.707106781f);
            check_vec(t->values + 18 * 3, 1, 0, 0);
        }
    }

    /* The glTF writer accepts it. */
    {
        ferry_buffer buf = {0};
        ferry_result wrc = ferry_gltf_write_glb(s, &buf, &err);
        CHECK_MSG(wrc == FERRY_OK, "%s", err.message);
        ferry_buffer_free(&buf);
    }
done:
    ferry_scene_free(s);

    /* --no-animations: the skin stays, no animation. */
    opt.no_animations = true;
    rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK(rc == FERRY_OK && s->skin_count == 1 && s->animation_count == 0 && rep.animations == 0);
    ferry_scene_free(s);
    opt.no_animations = false;

    /* Located errors: 5 bones on a vertex; a sub-skeleton bone the LOD lacks;
     * a sub-skeleton entry naming no bone. Validation reports the same
     * places ([vertex-bone-ref]), so convert and validate agree. */
    refs[1][0] = 5;
    rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK(rc == FERRY_ERR_MALFORMED && strcmp(err.path, "lods[0]/vertex_bone_refs[1]") == 0);
    CHECK(validation_names(&m, "lods[0]/vertex_bone_refs[1]"));
    refs[1][0] = 1;
    refs[2][4] = 2;
    rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK(rc == FERRY_ERR_MALFORMED && strcmp(err.path, "lods[0]/vertex_bone_refs[2]") == 0);
    CHECK(validation_names(&m, "lods[0]/vertex_bone_refs[2]"));
    refs[2][4] = 0;
    sub_to_skel[1] = 2;
    rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK(rc == FERRY_ERR_MALFORMED && strcmp(err.path, "lods[0]/sub_skeleton_to_skeleton[1]") == 0);
    CHECK(validation_names(&m, "lods[0]/sub_skeleton_to_skeleton[1]"));
    sub_to_skel[1] = 0;
    CHECK(!validation_names(&m, NULL));
    a2b[0].bone = 7;
    rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK(rc == FERRY_ERR_MALFORMED && strcmp(err.path, "animations/anims_to_bones[0][0]") == 0);
    a2b[0].bone = 1;
    rc = ferry_odol_to_scene(&m, &opt, &s, &err);
    CHECK(rc == FERRY_OK);
    ferry_scene_free(s);
}

/* ---- corpus ---- */

static void corpus_model(const char *path)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    CHECK_MSG(data != NULL, "%s", path);
    if (!data) return;
    ferry_odol_model *m = NULL;
    ferry_error err;
    CHECK_MSG(ferry_odol_read(data, size, NULL, &m, &err) == FERRY_OK, "%s: %s", path, err.message);
    if (!m) {
        free(data);
        return;
    }
    if (m->animations.class_count) {
        for (int all = 0; all < 2; all++) {
            ferry_odol_scene_report rep;
            ferry_odol_scene_options opt = {0};
            opt.all = all;
            opt.report = &rep;
            ferry_scene *s = NULL;
            ferry_result rc = ferry_odol_to_scene(m, &opt, &s, &err);
            CHECK_MSG(rc == FERRY_OK, "%s: %s at %s", path, err.message, err.path);
            if (rc != FERRY_OK) continue;
            /* Expected: the classes with a bone in an exported LOD that
             * stores bone references (the game's view: the lowest visual
             * resolution; with `all` every LOD). */
            int32_t shown = -1;
            for (uint32_t l = 0; l < m->lod_count; l++) {
                float r = m->lods[l].resolution;
                if (r >= 0 && r < 1000 && (shown < 0 || r < m->lods[shown].resolution)) shown = (int32_t)l;
            }
            uint32_t want = 0;
            for (uint32_t c = 0; c < m->animations.class_count; c++) {
                bool bound = false;
                for (uint32_t l = 0; l < m->lod_count; l++) {
                    if (!all && (int32_t)l != shown) continue;
                    bool refs_any = false;
                    for (uint32_t v = 0; v < m->lods[l].vertex_bone_refs.count; v++)
                        refs_any |= m->lods[l].vertex_bone_refs.data[12 * (size_t)v] != 0;
                    if (refs_any && m->animations.anims_to_bones[l * m->animations.class_count + c].bone >= 0)
                        bound = true;
                }
                want += bound;
            }
            CHECK_MSG(s->animation_count == want, "%s (all=%d): %zu animations, %u classes bound", path, all,
                      s->animation_count, want);
            CHECK_EQ_U(rep.animations + rep.animations_unbound, m->animations.class_count);
            CHECK(s->skin_count >= 1);
            printf("%s%s: %zu animations of %u classes, %zu skins\n", path, all ? " (all LODs)" : "",
                   s->animation_count, m->animations.class_count, s->skin_count);
            ferry_buffer buf = {0};
            CHECK_MSG(ferry_gltf_write_glb(s, &buf, &err) == FERRY_OK, "%s: %s", path, err.message);
            ferry_buffer_free(&buf);
            ferry_scene_free(s);
        }
    }
    ferry_odol_free(m);
    free(data);
}

static void test_corpus(void)
{
    static const char *files[] = {"v40/CSJ_GyroP.p3d", "v48/Ikarus.p3d", "v48/house_y.p3d", "v50/p2000.p3d",
                                  "v48/civil_1_tshirt.p3d", "v50/man_hero.p3d"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/corpus/odol/%s", FERRY_SHARED_DIR, files[i]);
        corpus_model(path);
    }
}

int main(void)
{
    test_built();
    char dir[512];
    snprintf(dir, sizeof dir, "%s/corpus/odol/v40", FERRY_SHARED_DIR);
    if (!test_dir_exists(dir)) {
        if (test_checks_failed) TEST_END();
        TEST_SKIP("%s absent: the corpus part is not run (the built model passed %d checks)", dir,
                  test_checks_passed);
    }
    test_corpus();
    TEST_END();
}
