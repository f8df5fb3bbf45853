/* ALM -> scene (ferry_alm_to_scene) on meshes built by hand: the skin path
 * (weighted copies of one point), the morph path (true animation-space
 * vectors), normals, textures, a level of detail and bad references.
 * Every expected number is worked out by hand in the comments.
 *
 * With an argument DIR, also writes DIR/skin.alm and DIR/morph.alm (the
 * fixtures tests/cli/alm_gltf.sh converts and validates). */
#include <ferry/alm.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include "support.h"
#include "test.h"

static void set_identity(double m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1;
}

/* Row-major: rotation of 90 degrees about X (y -> z, z -> -y), then t. */
static void set_rot_x90(double m[16], double tx, double ty, double tz)
{
    set_identity(m);
    m[5] = 0, m[6] = -1, m[9] = 1, m[10] = 0;
    m[3] = tx, m[7] = ty, m[11] = tz;
}

static void set_translate(double m[16], double tx, double ty, double tz)
{
    set_identity(m);
    m[3] = tx, m[7] = ty, m[11] = tz;
}

static const float *find_pos(const ferry_scene_primitive *p, double x, double y, double z, size_t *at)
{
    for (size_t i = 0; i < p->vertex_count; i++) {
        const float *v = p->positions + i * 3;
        if (fabs(v[0] - x) < 1e-5 && fabs(v[1] - y) < 1e-5 && fabs(v[2] - z) < 1e-5) {
            if (at) *at = i;
            return v;
        }
    }
    return NULL;
}

/* ---- a rigid one-bone mesh ---- */

static ferry_alm_component rigid_comp[3];
static ferry_alm_vector rigid_pos[3];
static ferry_alm_component rigid_tan[6];
static ferry_alm_vertex rigid_vert[3];
static ferry_alm_bone rigid_bone[1];
static ferry_alm_material rigid_mat[1];
static ferry_alm_triangle rigid_tri[1];
static ferry_alm_texture rigid_tex[1];
static const uint8_t rigid_pixels[12] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
static double rigid_frames[2 * 16];

/* Bone 0: rotation 90 degrees about X then translation (1, 2, 3). Local
 * points (0,0,0), (1,0,0), (0,1,0) with w = 1 land at (1,2,3), (2,2,3),
 * (1,2,4) (R maps y to z). Tangents (1,0,0) and (0,1,0) (w = 0) become
 * (1,0,0) and (0,0,1): the normal is (1,0,0) x (0,0,1) = (0,-1,0). */
static void build_rigid(ferry_alm_mesh *m, uint32_t version)
{
    memset(m, 0, sizeof *m);
    m->version = version;
    rigid_bone[0].parent = -1;
    set_rot_x90(rigid_bone[0].transform, 1, 2, 3);
    static const double local[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    for (int i = 0; i < 3; i++) {
        rigid_comp[i].bone = 0;
        for (int k = 0; k < 3; k++) rigid_comp[i].coords[k] = local[i][k];
        rigid_comp[i].coords[3] = 1;
        rigid_pos[i].components = &rigid_comp[i];
        rigid_pos[i].count = 1;
        rigid_vert[i].position = (uint32_t)i;
        rigid_vert[i].tex_coords[0] = 0.25 * i;
        rigid_vert[i].tex_coords[1] = 0.5;
        memset(&rigid_tan[2 * i], 0, 2 * sizeof rigid_tan[0]);
        rigid_tan[2 * i].coords[0] = 1;
        rigid_tan[2 * i + 1].coords[1] = 1;
        rigid_vert[i].tangents[0].components = version >= 7 ? &rigid_tan[2 * i] : NULL;
        rigid_vert[i].tangents[0].count = version >= 7;
        rigid_vert[i].tangents[1].components = version >= 7 ? &rigid_tan[2 * i + 1] : NULL;
        rigid_vert[i].tangents[1].count = version >= 7;
    }
    rigid_tri[0] = (ferry_alm_triangle){{0, 1, 2}, 0};
    rigid_tex[0] = (ferry_alm_texture){2, 2, 3, 0, rigid_pixels};
    rigid_mat[0].texture_id = 0;
    rigid_mat[0].tangent_id = -1;
    /* Frame 0 is the rest pose; frame 1 lifts the bone by 5 along Z. */
    set_rot_x90(rigid_frames, 1, 2, 3);
    set_rot_x90(rigid_frames + 16, 1, 2, 8);
    m->bones = rigid_bone;
    m->bone_count = 1;
    m->positions = rigid_pos;
    m->position_count = 3;
    m->vertices = rigid_vert;
    m->vertex_count = 3;
    m->textures = rigid_tex;
    m->texture_count = 1;
    m->materials = rigid_mat;
    m->material_count = 1;
    m->triangles = rigid_tri;
    m->triangle_count = 1;
    m->frames = rigid_frames;
    m->frame_count = 2;
    m->frame_rate = 10;
}

static void test_rigid(void)
{
    ferry_alm_mesh m;
    build_rigid(&m, 8);
    ferry_alm_scene_report rep;
    ferry_alm_scene_options opts = {0};
    opts.name = "rigid";
    opts.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (!s) return;
    CHECK(rep.skinned);
    CHECK(rep.max_dropped_weight == 0);
    CHECK_EQ_U(rep.triangle_count, 1);
    CHECK_EQ_U(rep.vertex_count, 3);
    CHECK_EQ_U(s->node_count, 2); /* bone 0, the mesh node */
    CHECK_EQ_U(s->skin_count, 1);
    CHECK(FY_REF(&s->nodes[1], mesh) == 0 && FY_REF(&s->nodes[1], skin) == 0 && FY_REF(&s->nodes[1], parent) == -1);
    /* Bone node: t = (1,2,3), q = rotation of 90 degrees about X = (sin 45, 0, 0, cos 45). */
    const ferry_scene_node *bn = &s->nodes[0];
    CHECK_NEAR(bn->translation[0], 1, 1e-6);
    CHECK_NEAR(bn->translation[1], 2, 1e-6);
    CHECK_NEAR(bn->translation[2], 3, 1e-6);
    CHECK_NEAR(bn->rotation[0], 0.70710678, 1e-6);
    CHECK_NEAR(bn->rotation[3], 0.70710678, 1e-6);
    CHECK_NEAR(bn->scale[0], 1, 1e-6);
    const ferry_scene_primitive *p = &s->meshes[0].primitives[0];
    CHECK_EQ_U(s->meshes[0].primitive_count, 1);
    size_t a = 0, b = 0, c = 0;
    CHECK(find_pos(p, 1, 2, 3, &a) != NULL);
    CHECK(find_pos(p, 2, 2, 3, &b) != NULL);
    CHECK(find_pos(p, 1, 2, 4, &c) != NULL);
    for (size_t v = 0; v < p->vertex_count; v++) {
        CHECK_NEAR(p->normals[v * 3 + 0], 0, 1e-6);
        CHECK_NEAR(p->normals[v * 3 + 1], -1, 1e-6);
        CHECK_NEAR(p->normals[v * 3 + 2], 0, 1e-6);
        CHECK(p->joints[v * 4] == 0);
        CHECK(p->weights[v * 4] == 1.0f);
        CHECK(p->weights[v * 4 + 1] == 0.0f);
    }
    /* Texture coordinates unchanged: vertex 1 (at (2,2,3)) has (0.25, 0.5). */
    CHECK_NEAR(p->texcoords[0][b * 2], 0.25, 1e-7);
    CHECK_NEAR(p->texcoords[0][b * 2 + 1], 0.5, 1e-7);
    /* Inverse bind: bone's world maps (1,0,0) to (2,2,3), so the inverse maps back. */
    const float *ibm = s->skins[0].inverse_bind_matrices;
    double x = ibm[0] * 2 + ibm[4] * 2 + ibm[8] * 3 + ibm[12];
    double y = ibm[1] * 2 + ibm[5] * 2 + ibm[9] * 3 + ibm[13];
    double z = ibm[2] * 2 + ibm[6] * 2 + ibm[10] * 3 + ibm[14];
    CHECK_NEAR(x, 1, 1e-5);
    CHECK_NEAR(y, 0, 1e-5);
    CHECK_NEAR(z, 0, 1e-5);
    /* Material 0 shows texture 0 as a PNG. */
    CHECK_EQ_U(s->image_count, 1);
    CHECK(FY_REF(&s->materials[0], base_color_image) == 0);
    CHECK(s->images[0].size > 8 && memcmp(s->images[0].data, "\x89PNG", 4) == 0);
    /* Animation: translation key 1 is (1,2,8) at t = 1/10 s. */
    CHECK_EQ_U(s->animation_count, 1);
    if (s->animation_count) {
        const ferry_scene_animation *an = &s->animations[0];
        CHECK_EQ_U(an->channel_count, 3);
        const ferry_scene_channel *t = &an->channels[0];
        CHECK(t->path == FERRY_ANIM_TRANSLATION && t->node == 0 && t->key_count == 2);
        CHECK_NEAR(t->times[1], 0.1, 1e-7);
        CHECK_NEAR(t->values[3 + 2], 8, 1e-6);
    }
    CHECK(strstr(test_extras_text(s->extras), "\"export\":\"skin\"") != NULL);
    CHECK(strstr(test_extras_text(s->extras), "\"version\":8") != NULL);
    ferry_buffer glb = {0};
    CHECK(ferry_gltf_write_glb(s, &glb, &err) == FERRY_OK);
    ferry_buffer_free(&glb);
    ferry_scene_free(s);

    /* Version 6: no tangent planes, so the face normal (the same (0,-1,0)). */
    build_rigid(&m, 6);
    CHECK(ferry_alm_to_scene(&m, NULL, &s, &err) == FERRY_OK);
    if (s) {
        const ferry_scene_primitive *q = &s->meshes[0].primitives[0];
        for (size_t v = 0; v < q->vertex_count; v++) CHECK_NEAR(q->normals[v * 3 + 1], -1, 1e-6);
        ferry_scene_free(s);
    }

    /* Forced morph targets: frame 1 moves every vertex by (0,0,5). */
    build_rigid(&m, 8);
    opts.force_morph = true;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (s) {
        CHECK(!rep.skinned);
        const ferry_scene_primitive *q = &s->meshes[0].primitives[0];
        CHECK_EQ_U(q->target_count, 2);
        CHECK(q->joints == NULL && s->skin_count == 0);
        for (size_t v = 0; v < q->vertex_count && q->target_count == 2; v++) {
            CHECK_NEAR(q->targets[0].positions[v * 3 + 2], 0, 1e-6);
            CHECK_NEAR(q->targets[1].positions[v * 3 + 2], 5, 1e-6);
        }
        ferry_scene_free(s);
    }
}

/* ---- influences beyond four ---- */

static void test_dropped_weight(void)
{
    /* Five root bones at the identity, one position at (1,1,1) with weights
     * 0.3, 0.25, 0.2, 0.15, 0.1: the 0.1 is dropped, the rest become
     * 0.3/0.9, 0.25/0.9, 0.2/0.9, 0.15/0.9. Two more positions on bone 0. */
    ferry_alm_bone bones[5];
    memset(bones, 0, sizeof bones);
    for (int i = 0; i < 5; i++) {
        bones[i].parent = -1;
        set_identity(bones[i].transform);
    }
    static const double w[5] = {0.15, 0.3, 0.1, 0.25, 0.2}; /* bones 0..4, not sorted */
    ferry_alm_component comps[7];
    for (int i = 0; i < 5; i++) comps[i] = (ferry_alm_component){(uint32_t)i, {w[i], w[i], w[i], w[i]}};
    comps[5] = (ferry_alm_component){0, {0, 0, 0, 1}};
    comps[6] = (ferry_alm_component){0, {1, 0, 0, 1}};
    ferry_alm_vector pos[3] = {{comps, 5}, {&comps[5], 1}, {&comps[6], 1}};
    ferry_alm_vertex verts[3];
    memset(verts, 0, sizeof verts);
    for (int i = 0; i < 3; i++) verts[i].position = (uint32_t)i;
    ferry_alm_material mat = {-1, -1, 0, NULL, NULL};
    ferry_alm_triangle tri = {{0, 1, 2}, 0};
    ferry_alm_mesh m;
    memset(&m, 0, sizeof m);
    m.version = 9;
    m.bones = bones;
    m.bone_count = 5;
    m.positions = pos;
    m.position_count = 3;
    m.vertices = verts;
    m.vertex_count = 3;
    m.materials = &mat;
    m.material_count = 1;
    m.triangles = &tri;
    m.triangle_count = 1;
    ferry_alm_scene_report rep;
    ferry_alm_scene_options opts = {0};
    opts.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (!s) return;
    CHECK(rep.skinned);
    CHECK_NEAR(rep.max_dropped_weight, 0.1, 1e-12);
    CHECK_EQ_U(rep.positions_truncated, 1);
    CHECK_EQ_U(rep.max_influences, 5);
    const ferry_scene_primitive *p = &s->meshes[0].primitives[0];
    size_t at = 0;
    CHECK(find_pos(p, 1, 1, 1, &at) != NULL);
    static const uint16_t want_j[4] = {1, 3, 4, 0};
    static const double want_w[4] = {0.3 / 0.9, 0.25 / 0.9, 0.2 / 0.9, 0.15 / 0.9};
    for (int k = 0; k < 4; k++) {
        CHECK_EQ_U(p->joints[at * 4 + k], want_j[k]);
        CHECK_NEAR(p->weights[at * 4 + k], want_w[k], 1e-6);
    }
    CHECK(strstr(test_extras_text(s->extras), "\"max_dropped_weight\":0.1") != NULL);
    ferry_scene_free(s);
}

/* ---- a true animation-space mesh ---- */

static ferry_alm_bone anim_bones[2];
static ferry_alm_component anim_comps[4];
static ferry_alm_vector anim_pos[3];
static ferry_alm_vertex anim_verts[3];
static ferry_alm_material anim_mat;
static ferry_alm_triangle anim_tri;
static double anim_frames[2 * 2 * 16];

/* Bone 0: root, identity. Bone 1: child of 0, translated by (0,1,0).
 * Position 0 = bone 0 (1,0,0,0.5) + bone 1 (0,0,1,0.5). Rest: bone 0 gives
 * (1,0,0,.5), bone 1 gives (0,.5,1,.5): sum (1, 0.5, 1, 1). As copies:
 * G0 p0 / w = (2,0,0) but G1 p1 / w = (0,1,2): not a skin.
 * Positions 1 and 2: (0,0,0,1) and (0,0,3,1) on bone 0.
 *
 * Frame 0: bone 0 scales by 2, bone 1 local T(0,1,0): G0 = S2, G1 = S2 T =
 * [2I | (0,2,0)]. p0: (2,0,0,.5); p1: (0,0,2) + .5 (0,2,0) = (0,1,2):
 * sum (2,1,2), displacement (1, 0.5, 1). Position 2: (0,0,6): +(0,0,3).
 * Frame 1: bone 0 T(1,0,0), bone 1 local identity: G0 = G1 = T(1,0,0).
 * p0: (1,0,0)+.5(1,0,0) = (1.5,0,0); p1: (0,0,1)+.5(1,0,0) = (.5,0,1):
 * sum (2,0,1), displacement (1, -0.5, 0). Position 2: (1,0,3): +(1,0,0). */
static void build_anim(ferry_alm_mesh *m)
{
    memset(m, 0, sizeof *m);
    memset(anim_bones, 0, sizeof anim_bones);
    m->version = 10;
    anim_bones[0].parent = -1;
    set_identity(anim_bones[0].transform);
    anim_bones[1].parent = 0;
    set_translate(anim_bones[1].transform, 0, 1, 0);
    anim_comps[0] = (ferry_alm_component){0, {1, 0, 0, 0.5}};
    anim_comps[1] = (ferry_alm_component){1, {0, 0, 1, 0.5}};
    anim_comps[2] = (ferry_alm_component){0, {0, 0, 0, 1}};
    anim_comps[3] = (ferry_alm_component){0, {0, 0, 3, 1}};
    anim_pos[0] = (ferry_alm_vector){anim_comps, 2};
    anim_pos[1] = (ferry_alm_vector){&anim_comps[2], 1};
    anim_pos[2] = (ferry_alm_vector){&anim_comps[3], 1};
    memset(anim_verts, 0, sizeof anim_verts);
    for (int i = 0; i < 3; i++) anim_verts[i].position = (uint32_t)i;
    anim_mat = (ferry_alm_material){-1, -1, 0, NULL, NULL};
    anim_tri = (ferry_alm_triangle){{0, 1, 2}, 0};
    set_identity(anim_frames);
    anim_frames[0] = anim_frames[5] = anim_frames[10] = 2;
    set_translate(anim_frames + 16, 0, 1, 0);
    set_translate(anim_frames + 32, 1, 0, 0);
    set_identity(anim_frames + 48);
    m->bones = anim_bones;
    m->bone_count = 2;
    m->positions = anim_pos;
    m->position_count = 3;
    m->vertices = anim_verts;
    m->vertex_count = 3;
    m->materials = &anim_mat;
    m->material_count = 1;
    m->triangles = &anim_tri;
    m->triangle_count = 1;
    m->frames = anim_frames;
    m->frame_count = 2;
    m->frame_rate = 0; /* the default, 30 per second */
}

static void test_animation_space(void)
{
    ferry_alm_mesh m;
    build_anim(&m);
    ferry_alm_scene_report rep;
    ferry_alm_scene_options opts = {0};
    opts.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (!s) return;
    CHECK(!rep.skinned);
    CHECK(rep.reason != NULL && strstr(rep.reason, "weighted copies") != NULL);
    CHECK_EQ_U(s->skin_count, 0);
    /* skin_all_bones: the morph mesh stays, and a skin of the two bones
     * (nodes 0 and 1) is added for no mesh, without inverse bind matrices. */
    ferry_alm_scene_options all_opts = {.skin_all_bones = true};
    ferry_scene *skinned = NULL;
    CHECK(ferry_alm_to_scene(&m, &all_opts, &skinned, &err) == FERRY_OK);
    if (skinned) {
        CHECK_EQ_U(skinned->skin_count, 1);
        if (skinned->skin_count == 1) {
            const ferry_scene_skin *sk = &skinned->skins[0];
            CHECK(sk->joint_count == 2 && sk->joints[0] == 0 && sk->joints[1] == 1);
            CHECK(sk->inverse_bind_matrices == NULL);
        }
        CHECK(!skinned->nodes[2].has_skin && skinned->meshes[0].primitives[0].target_count == 2);
        CHECK(ferry_json_get(skinned->nodes[1].extras, "alm_bone") != NULL);
    }
    ferry_scene_free(skinned);
    CHECK_EQ_U(s->node_count, 3);
    CHECK(FY_REF(&s->nodes[1], parent) == 0);
    /* Version 10 bones keep their tail in extras (zero here). */
    const ferry_json *tail = ferry_json_get(s->nodes[1].extras, "tail");
    CHECK(tail && tail->kind == FERRY_JSON_ARRAY && tail->count == 3 && tail->items[2]->kind == FERRY_JSON_REAL &&
          tail->items[2]->real == 0);
    const ferry_scene_primitive *p = &s->meshes[0].primitives[0];
    CHECK(p->joints == NULL);
    CHECK_EQ_U(p->target_count, 2);
    size_t v0 = 0, v2 = 0;
    CHECK(find_pos(p, 1, 0.5, 1, &v0) != NULL);
    CHECK(find_pos(p, 0, 0, 3, &v2) != NULL);
    if (p->target_count == 2) {
        const float *d0 = p->targets[0].positions, *d1 = p->targets[1].positions;
        CHECK_NEAR(d0[v0 * 3 + 0], 1, 1e-6);
        CHECK_NEAR(d0[v0 * 3 + 1], 0.5, 1e-6);
        CHECK_NEAR(d0[v0 * 3 + 2], 1, 1e-6);
        CHECK_NEAR(d1[v0 * 3 + 0], 1, 1e-6);
        CHECK_NEAR(d1[v0 * 3 + 1], -0.5, 1e-6);
        CHECK_NEAR(d1[v0 * 3 + 2], 0, 1e-6);
        CHECK_NEAR(d0[v2 * 3 + 2], 3, 1e-6);
        CHECK_NEAR(d1[v2 * 3 + 0], 1, 1e-6);
        CHECK_NEAR(d1[v2 * 3 + 2], 0, 1e-6);
    }
    /* The weights channel: one-hot per key, LINEAR, keys at 0 and 1/30 s. */
    CHECK_EQ_U(s->animation_count, 1);
    if (s->animation_count) {
        const ferry_scene_animation *an = &s->animations[0];
        const ferry_scene_channel *wc = NULL;
        for (size_t c = 0; c < an->channel_count; c++)
            if (an->channels[c].path == FERRY_ANIM_WEIGHTS) wc = &an->channels[c];
        CHECK(wc != NULL);
        if (wc) {
            CHECK(wc->node == 2 && wc->key_count == 2 && wc->interpolation == FERRY_INTERP_LINEAR);
            CHECK_NEAR(wc->times[1], 1.0 / 30, 1e-7);
            CHECK(wc->values[0] == 1 && wc->values[1] == 0 && wc->values[2] == 0 && wc->values[3] == 1);
        }
    }
    CHECK(strstr(test_extras_text(s->extras), "\"export\":\"morph targets\"") != NULL);
    ferry_buffer glb = {0};
    CHECK(ferry_gltf_write_glb(s, &glb, &err) == FERRY_OK);
    ferry_buffer_free(&glb);
    ferry_scene_free(s);

    opts.step_morph = true;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (s) {
        const ferry_scene_animation *an = &s->animations[0];
        CHECK(an->channels[an->channel_count - 1].interpolation == FERRY_INTERP_STEP);
        ferry_scene_free(s);
    }
}

/* ---- level of detail, tangent maps, signed textures, bad references ---- */

static void test_lod_and_errors(void)
{
    /* Two triangles on one bone (a quad), materials 0 and 1; a LOD keeping
     * vertices 0, 1, 2 and the first triangle only. */
    ferry_alm_bone bone;
    memset(&bone, 0, sizeof bone);
    bone.parent = -1;
    set_identity(bone.transform);
    ferry_alm_component comps[4] = {{0, {0, 0, 0, 1}}, {0, {1, 0, 0, 1}}, {0, {0, 1, 0, 1}}, {0, {1, 1, 0, 1}}};
    ferry_alm_vector pos[4] = {{&comps[0], 1}, {&comps[1], 1}, {&comps[2], 1}, {&comps[3], 1}};
    ferry_alm_vertex verts[4];
    memset(verts, 0, sizeof verts);
    for (int i = 0; i < 4; i++) verts[i].position = (uint32_t)i;
    /* A tangent map of 1 x 1: U (2,0,0), V (0,1,0); the scale is 2. */
    ferry_alm_component tcomp[2] = {{0, {2, 0, 0, 0}}, {0, {0, 1, 0, 0}}};
    ferry_alm_tangent_entry entry = {0, {{&tcomp[0], 1}, {&tcomp[1], 1}}};
    ferry_alm_tangent_map tmap = {1, 1, &entry};
    static const uint8_t px[4] = {1, 2, 3, 4};
    ferry_alm_texture tex = {1, 1, 4, 1, px}; /* signed: not a colour */
    ferry_alm_material mats[2] = {{0, 0, 0, NULL, NULL}, {-1, -1, 0, NULL, NULL}};
    ferry_alm_triangle tris[2] = {{{0, 1, 2}, 0}, {{2, 1, 3}, 1}};
    ferry_alm_mesh m;
    memset(&m, 0, sizeof m);
    m.version = 8;
    m.bones = &bone;
    m.bone_count = 1;
    m.positions = pos;
    m.position_count = 4;
    m.vertices = verts;
    m.vertex_count = 4;
    m.textures = &tex;
    m.texture_count = 1;
    m.tangent_maps = &tmap;
    m.tangent_map_count = 1;
    m.materials = mats;
    m.material_count = 2;
    m.triangles = tris;
    m.triangle_count = 2;
    m.collapse_count = 7;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alm_to_scene(&m, NULL, &s, &err) == FERRY_OK);
    if (s) {
        CHECK_EQ_U(s->meshes[0].primitive_count, 2);
        CHECK_EQ_U(s->image_count, 2);
        CHECK(FY_REF(&s->materials[0], base_color_image) == -1);
        CHECK(strstr(test_extras_text(s->materials[0].extras), "\"tangent_map\":{") != NULL);
        CHECK(strstr(test_extras_text(s->materials[0].extras), "\"scale\":2") != NULL);
        CHECK(strstr(test_extras_text(s->materials[0].extras), "\"texture_signed\":true") != NULL);
        CHECK(strstr(test_extras_text(s->extras), "\"collapse_count\":7") != NULL);
        ferry_buffer glb = {0};
        CHECK(ferry_gltf_write_glb(s, &glb, &err) == FERRY_OK);
        ferry_buffer_free(&glb);
        ferry_scene_free(s);
    }

    uint32_t src[3] = {0, 1, 2};
    ferry_alm_triangle lod_tris[1] = {{{0, 1, 2}, 0}};
    ferry_alm_lod lod = {1, 0.25, src, 3, lod_tris, 1, NULL};
    ferry_alm_scene_report rep;
    ferry_alm_scene_options opts = {0};
    opts.report = &rep;
    opts.lod = &lod;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (s) {
        CHECK_EQ_U(rep.triangle_count, 1);
        CHECK_EQ_U(s->meshes[0].primitive_count, 1);
        CHECK(strstr(test_extras_text(s->extras), "\"collapses_applied\":1") != NULL);
        ferry_scene_free(s);
    }

    /* Bad references: located errors, no scene. */
    tris[1].vertices[2] = 9;
    CHECK(ferry_alm_to_scene(&m, NULL, &s, &err) == FERRY_ERR_MALFORMED && s == NULL);
    CHECK(strcmp(err.path, "triangles[1]") == 0);
    tris[1].vertices[2] = 3;
    comps[3].bone = 4;
    CHECK(ferry_alm_to_scene(&m, NULL, &s, &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "positions[3]") == 0);
    comps[3].bone = 0;
    src[2] = 40;
    CHECK(ferry_alm_to_scene(&m, &(ferry_alm_scene_options){.lod = &lod}, &s, &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "lod") == 0);
    mats[0].tangent_id = 3;
    CHECK(ferry_alm_to_scene(&m, NULL, &s, &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "materials[0]") == 0);
}

/* Shear in a rest matrix: the node gets the closest TRS, extras say so,
 * and the skin path is refused (glTF nodes could not reproduce it). */
static void test_shear(void)
{
    ferry_alm_mesh m;
    build_rigid(&m, 8);
    rigid_bone[0].transform[1] = 0.5; /* x picks up y: shear */
    m.frame_count = 0;
    ferry_alm_scene_report rep;
    ferry_alm_scene_options opts = {0};
    opts.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    if (!s) return;
    CHECK(!rep.skinned);
    CHECK(strstr(test_extras_text(s->nodes[0].extras), "\"not_trs\":true") != NULL);
    /* The stored matrix, row-major as ALM has it: the shear at row 0, column 1. */
    const ferry_json *mat = ferry_json_get(s->nodes[0].extras, "rest_matrix_row_major");
    CHECK(mat && mat->kind == FERRY_JSON_ARRAY && mat->count == 16 && mat->items[1]->kind == FERRY_JSON_REAL &&
          mat->items[1]->real == 0.5);
    double q = 0;
    for (int k = 0; k < 4; k++) q += (double)s->nodes[0].rotation[k] * s->nodes[0].rotation[k];
    CHECK_NEAR(q, 1, 1e-5);
    ferry_scene_free(s);
}

static int write_fixture(const ferry_alm_mesh *m, const char *dir, const char *name)
{
    ferry_buffer buf = {0};
    ferry_error err;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ferry_alm_write(m, &buf, &err) != FERRY_OK || ferry_file_write(path, buf.data, buf.size, NULL, &err) != FERRY_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        ferry_buffer_free(&buf);
        return 1;
    }
    ferry_buffer_free(&buf);
    return 0;
}

/* A bone scaled to nothing at rest: its matrix is a TRS (scale 0), but no
 * inverse bind matrix exists, so the mesh becomes morph targets instead of
 * a skin with infinite matrices (which glTF refuses). */
static void test_singular_bone(void)
{
    ferry_alm_mesh m;
    build_rigid(&m, 8);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) rigid_bone[0].transform[4 * r + c] = 0;
    ferry_alm_scene_report rep;
    ferry_alm_scene_options opts = {0};
    opts.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alm_to_scene(&m, &opts, &s, &err) == FERRY_OK);
    CHECK(!rep.skinned && rep.reason && strstr(rep.reason, "inverse"));
    if (s) {
        CHECK_EQ_U(s->skin_count, 0);
        CHECK_EQ_U(s->meshes[0].primitives[0].target_count, 2);
    }
    ferry_scene_free(s);
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        ferry_alm_mesh m;
        build_rigid(&m, 10);
        int bad = write_fixture(&m, argv[1], "skin.alm");
        build_anim(&m);
        bad |= write_fixture(&m, argv[1], "morph.alm");
        return bad;
    }
    test_rigid();
    test_singular_bone();
    test_dropped_weight();
    test_animation_space();
    test_lod_and_errors();
    test_shear();
    TEST_END();
}
