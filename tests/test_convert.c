/* ALO models, ALA animations and particle systems converted to scenes:
 * structure, counts, skinning at the bind pose, animation channels against
 * ALA sampling, lights, extras; then the corpus (skipped when absent), and
 * the glTF validator on the written .glb files when node has it. */
#define _DEFAULT_SOURCE
#include <ferry/ala.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/particle.h>
#include <jansson.h>
#include <strings.h>

#include "support.h"
#include "test.h"

#define SAMPLES FERRY_SOURCE_DIR "/samples/alamo"

/* ---- small math (independent of the library's) ---- */

static void mat_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

static void mat_trs(const float t[3], const float q[4], const float s[3], double out[16])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) out[c * 4 + row] = r[c * 3 + row] * s[c];
        out[c * 4 + 3] = 0;
    }
    out[12] = t[0], out[13] = t[1], out[14] = t[2], out[15] = 1;
}

static void mat_from_float(const float *f, double out[16])
{
    for (int i = 0; i < 16; i++) out[i] = f[i];
}

static void mat_point(const double m[16], const float p[3], double out[3])
{
    for (int k = 0; k < 3; k++) out[k] = m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k];
}

/* World matrices of every node (parents come first). */
static double *node_worlds(const ferry_scene *s)
{
    double *w = malloc(16 * sizeof *w * (s->node_count ? s->node_count : 1));
    for (size_t i = 0; i < s->node_count; i++) {
        const ferry_scene_node *n = &s->nodes[i];
        double local[16];
        mat_trs(n->translation, n->rotation, n->scale, local);
        if (FY_REF(n, parent) >= 0) mat_mul(&w[16 * FY_REF(n, parent)], local, &w[16 * i]);
        else memcpy(&w[16 * i], local, sizeof local);
    }
    return w;
}

static double dist3(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* ---- loading ---- */

static ferry_alo_model *load_model(const char *path)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(path, 0, &data, &size, &err) != FERRY_OK) return NULL;
    ferry_alo_model *m = NULL;
    if (ferry_alamo_detect(data, size) == FERRY_ALAMO_MODEL) ferry_alo_read(data, size, NULL, &m, &err);
    ferry_file_free(data);
    return m;
}

static ferry_ala_animation *load_anim(const char *path)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(path, 0, &data, &size, &err) != FERRY_OK) return NULL;
    ferry_ala_animation *a = NULL;
    if (ferry_ala_read(data, size, NULL, &a, &err) != FERRY_OK) a = NULL;
    ferry_file_free(data);
    return a;
}

/* ---- checks shared by samples and corpus ---- */

static bool json_ok(const char *text)
{
    if (!text) return true;
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    bool ok = j && json_is_object(j);
    json_decref(j);
    return ok;
}

static void check_extras(const ferry_scene *s)
{
    bool ok = json_ok(test_extras_text(s->extras));
    for (size_t i = 0; i < s->node_count; i++) ok &= json_ok(test_extras_text(s->nodes[i].extras));
    for (size_t i = 0; i < s->material_count; i++) ok &= json_ok(test_extras_text(s->materials[i].extras));
    for (size_t i = 0; i < s->mesh_count; i++) {
        ok &= json_ok(test_extras_text(s->meshes[i].extras));
        for (size_t p = 0; p < s->meshes[i].primitive_count; p++) ok &= json_ok(test_extras_text(s->meshes[i].primitives[p].extras));
    }
    for (size_t i = 0; i < s->animation_count; i++) ok &= json_ok(test_extras_text(s->animations[i].extras));
    CHECK_MSG(ok, "every extras text parses as a JSON object");
}

/* The scene node of a bone: bone nodes follow the axis root in bone order. */
static int32_t bone_node(size_t bone)
{
    return (int32_t)(1 + bone);
}

static const ferry_alo_mesh *mesh_by_name(const ferry_alo_model *m, const char *name)
{
    for (size_t i = 0; i < m->mesh_count; i++)
        if (m->meshes[i].name && name && strcmp(m->meshes[i].name, name) == 0) return &m->meshes[i];
    return NULL;
}

static size_t drawable_submeshes(const ferry_alo_mesh *mesh)
{
    size_t n = 0;
    for (size_t i = 0; i < mesh->submesh_count; i++) n += mesh->submeshes[i].vertex_count > 0 && mesh->submeshes[i].triangle_count > 0;
    return n;
}

typedef struct geometry_stats {
    double bind_error; /* largest distance, skinned rest pose vs the file's position */
    double rigid_error;
    size_t skinned_vertices;
} geometry_stats;

/* Structure, counts and positions of a converted model. */
static void check_model_scene(const ferry_alo_model *m, const ferry_scene *s, geometry_stats *st)
{
    const ferry_alo_connections *cn = &m->connections;
    size_t bones = m->skeleton.bone_count;
    CHECK_EQ_U(s->node_count, 1 + bones + ferry_alo_object_count(m) + cn->proxy_count + cn->dazzle_count);
    CHECK(s->node_count > 0 && FY_REF(&s->nodes[0], parent) == -1);
    CHECK_NEAR(s->nodes[0].rotation[0], -0.70710678, 1e-6);
    for (size_t i = 0; i < s->node_count; i++) CHECK(FY_REF(&s->nodes[i], parent) < (int32_t)i);
    for (size_t b = 0; b < bones; b++) {
        CHECK(strcmp(s->nodes[bone_node(b)].name, m->skeleton.bones[b].name) == 0);
    }
    CHECK_EQ_U(s->light_count, m->light_count);
    check_extras(s);

    double *w = node_worlds(s);
    float *bw = malloc(16 * sizeof *bw * (bones ? bones : 1));
    ferry_alo_bone_world_matrices(m, bw);
    /* Bone nodes reproduce the Alamo world matrices under the axis root. */
    double root_inv[16] = {1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1}; /* R^-1: +90 degrees about X */
    double worst_bone = 0;
    for (size_t b = 0; b < bones; b++) {
        double alamo[16];
        mat_mul(root_inv, &w[16 * bone_node(b)], alamo);
        for (int k = 0; k < 16; k++) {
            double d = fabs(alamo[k] - bw[16 * b + k]) / (1 + fabs(bw[16 * b + k]));
            if (d > worst_bone) worst_bone = d;
        }
    }
    CHECK_MSG(worst_bone < 1e-4, "bone worlds differ by %g", worst_bone);

    for (size_t ni = 0; ni < s->node_count; ni++) {
        const ferry_scene_node *n = &s->nodes[ni];
        if (FY_REF(n, mesh) < 0) continue;
        const ferry_scene_mesh *sm = &s->meshes[FY_REF(n, mesh)];
        const ferry_alo_mesh *am = mesh_by_name(m, n->name);
        CHECK(am != NULL);
        if (!am) continue;
        CHECK_EQ_U(sm->primitive_count, drawable_submeshes(am));
        size_t p = 0;
        for (size_t si = 0; si < am->submesh_count && p < sm->primitive_count; si++) {
            const ferry_alo_submesh *sub = &am->submeshes[si];
            if (sub->vertex_count == 0 || sub->triangle_count == 0) continue;
            const ferry_scene_primitive *pr = &sm->primitives[p++];
            CHECK_EQ_U(pr->vertex_count, sub->vertex_count);
            CHECK_EQ_U(pr->index_count, 3 * sub->triangle_count);
            CHECK(pr->texcoord_count <= 4 && pr->normals != NULL);
            for (size_t v = 0; v < pr->vertex_count; v++) {
                const float *nn = &pr->normals[3 * v];
                double len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
                if (fabs(len - 1) > 1e-5) {
                    CHECK_MSG(0, "normal %zu of %s has length %g", v, n->name, len);
                    break;
                }
            }
            if (pr->tangents)
                for (size_t v = 0; v < pr->vertex_count; v++) CHECK(fabsf(fabsf(pr->tangents[4 * v + 3]) - 1) < 1e-6f);
            if (FY_REF(n, skin) >= 0) {
                const ferry_scene_skin *skin = &s->skins[FY_REF(n, skin)];
                CHECK(pr->joints && pr->weights);
                if (!pr->joints || !pr->weights) continue;
                for (size_t v = 0; v < pr->vertex_count; v++) {
                    double sum = 0, skinned[3] = {0, 0, 0};
                    for (int k = 0; k < 4; k++) {
                        uint16_t j = pr->joints[4 * v + k];
                        float wt = pr->weights[4 * v + k];
                        CHECK(j < skin->joint_count && wt >= 0);
                        if (j >= skin->joint_count || wt == 0) continue;
                        sum += wt;
                        double ibm[16], jm[16], q[3];
                        mat_from_float(&skin->inverse_bind_matrices[16 * j], ibm);
                        mat_mul(&w[16 * skin->joints[j]], ibm, jm);
                        mat_point(jm, &pr->positions[3 * v], q);
                        for (int c = 0; c < 3; c++) skinned[c] += wt * q[c];
                    }
                    CHECK_NEAR(sum, 1.0, 1e-6);
                    /* The file's position turned Y-up by the axis root. */
                    double expect[3];
                    mat_point(&w[0], sub->vertices[v].position, expect);
                    if (sub->bone_mapping_count == 0) {
                        /* A rigid sub-mesh of a skinned mesh: from its bone's space. */
                        continue;
                    }
                    double e = dist3(skinned, expect) / (1 + sqrt(expect[0] * expect[0] + expect[1] * expect[1] + expect[2] * expect[2]));
                    if (e > st->bind_error) st->bind_error = e;
                    st->skinned_vertices++;
                }
            } else {
                for (size_t v = 0; v < pr->vertex_count; v++) {
                    double got[3], expect[3];
                    mat_point(&w[16 * ni], &pr->positions[3 * v], got);
                    /* World: R * bone world * file position. */
                    int32_t parent = FY_REF(n, parent);
                    CHECK(parent >= 0);
                    mat_point(&w[16 * parent], sub->vertices[v].position, expect);
                    double e = dist3(got, expect) / (1 + sqrt(expect[0] * expect[0] + expect[1] * expect[1] + expect[2] * expect[2]));
                    if (e > st->rigid_error) st->rigid_error = e;
                }
            }
        }
    }
    free(bw);
    free(w);
}

/* ---- animation channels against ALA sampling ---- */

static void channel_value(const ferry_scene_channel *ch, double t, float out[4])
{
    size_t width = ch->path == FERRY_ANIM_ROTATION ? 4 : 3;
    if (t <= ch->times[0] || ch->key_count == 1) {
        memcpy(out, ch->values, width * sizeof *out);
        return;
    }
    if (t >= ch->times[ch->key_count - 1]) {
        memcpy(out, &ch->values[(ch->key_count - 1) * width], width * sizeof *out);
        return;
    }
    size_t i = 0;
    while (i + 1 < ch->key_count && ch->times[i + 1] <= t) i++;
    const float *a = &ch->values[i * width], *b = &ch->values[(i + 1) * width];
    if (ch->interpolation == FERRY_INTERP_STEP) {
        memcpy(out, a, width * sizeof *out);
        return;
    }
    double u = (t - ch->times[i]) / (ch->times[i + 1] - ch->times[i]);
    if (width == 3) {
        for (int k = 0; k < 3; k++) out[k] = (float)(a[k] + (b[k] - a[k]) * u);
        return;
    }
    /* glTF slerp, as given (the converter keeps consecutive keys on one side). */
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    double wa = 1 - u, wb = u;
    if (d < 0.9995) {
        double th = acos(d < -1 ? -1 : d), sn = sin(th);
        wa = sin((1 - u) * th) / sn;
        wb = sin(u * th) / sn;
    }
    double q[4], n = 0;
    for (int k = 0; k < 4; k++) q[k] = wa * a[k] + wb * b[k], n += q[k] * q[k];
    for (int k = 0; k < 4; k++) out[k] = (float)(q[k] / sqrt(n));
}

typedef struct pose_stats {
    double translation, rotation, scale; /* largest errors */
    size_t samples, channels;
    size_t frame0_bones, frame0_near_rest;
} pose_stats;

static double quat_error(const float a[4], const float b[4])
{
    double d = fabs((double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3]);
    return 1 - (d > 1 ? 1 : d);
}

/* Every bone's glTF pose (channel or rest TRS) at sampled times equals
 * ferry_ala_sample's pose of the track driving it. */
static void check_animation(const ferry_alo_model *m, const ferry_scene *s, const ferry_scene_animation *a,
                            const ferry_ala_animation *anim, pose_stats *ps)
{
    size_t bones = m->skeleton.bone_count;
    double fps = anim->fps > 0 ? anim->fps : 30;
    double duration = anim->frame_count > 1 ? (anim->frame_count - 1) / fps : 0;
    bool *seen = calloc(bones + 1, 1);
    ps->channels += a->channel_count;
    for (size_t c = 0; c < a->channel_count; c++) {
        CHECK(a->channels[c].key_count > 0);
        for (size_t k = 1; k < a->channels[c].key_count; k++) CHECK(a->channels[c].times[k] > a->channels[c].times[k - 1]);
    }
    for (size_t t = 0; t < anim->bone_count; t++) {
        uint32_t bone = anim->bones[t].index;
        if (bone >= bones || seen[bone]) continue;
        seen[bone] = true;
        const ferry_scene_node *node = &s->nodes[bone_node(bone)];
        const ferry_scene_channel *ch[3] = {NULL, NULL, NULL};
        for (size_t c = 0; c < a->channel_count; c++)
            if (a->channels[c].node == bone_node(bone) && a->channels[c].path <= FERRY_ANIM_SCALE) ch[a->channels[c].path] = &a->channels[c];
        /* Frame 0 against the rest pose: the file's own consistency. */
        ferry_ala_pose p0;
        ferry_ala_sample_frame(anim, t, 0, &p0);
        ps->frame0_bones++;
        float rest_t[3], rest_q[4];
        memcpy(rest_t, node->translation, sizeof rest_t);
        memcpy(rest_q, node->rotation, sizeof rest_q);
        double dt = sqrt(pow(p0.translation[0] - rest_t[0], 2) + pow(p0.translation[1] - rest_t[1], 2) + pow(p0.translation[2] - rest_t[2], 2));
        if (dt < 1e-3 * (1 + sqrt(rest_t[0] * rest_t[0] + rest_t[1] * rest_t[1] + rest_t[2] * rest_t[2])) && quat_error(p0.rotation, rest_q) < 1e-4)
            ps->frame0_near_rest++;
        for (int i = 0; i <= 24; i++) {
            double time = duration * i / 24.0 + (i % 3 == 1 ? 0.37 / fps : 0);
            if (time > duration) time = duration;
            ferry_ala_pose want;
            ferry_ala_sample(anim, t, time * fps, FERRY_ALA_CLAMP, &want);
            float got[3][4];
            for (int path = 0; path < 3; path++) {
                if (ch[path]) channel_value(ch[path], time, got[path]);
                else if (path == 0) memcpy(got[0], node->translation, 3 * sizeof(float));
                else if (path == 1) memcpy(got[1], node->rotation, 4 * sizeof(float));
                else memcpy(got[2], node->scale, 3 * sizeof(float));
            }
            double et = 0, es = 0;
            for (int k = 0; k < 3; k++) {
                et = fmax(et, fabs(got[0][k] - want.translation[k]) / (1 + fabs(want.translation[k])));
                es = fmax(es, fabs(got[2][k] - want.scale[k]) / (1 + fabs(want.scale[k])));
            }
            double er = quat_error(got[1], want.rotation);
            ps->translation = fmax(ps->translation, et);
            ps->rotation = fmax(ps->rotation, er);
            ps->scale = fmax(ps->scale, es);
            ps->samples++;
        }
    }
    free(seen);
}

/* ---- glTF output and the validator ---- */

static char glb_dir[512];
static bool keep_glb_dir; /* FERRY_TEST_OUTPUTS: kept for tests/windows/outputs.sh */
static size_t glb_written;

static void write_glb(const ferry_scene *s, const char *name)
{
    if (!glb_dir[0]) return;
    ferry_buffer out = {0};
    ferry_error err;
    ferry_result r = ferry_gltf_write_glb(s, &out, &err);
    CHECK_MSG(r == FERRY_OK, "%s: glb: %s", name, err.message);
    if (r == FERRY_OK) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s.glb", glb_dir, name);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(out.data, 1, out.size, f);
            fclose(f);
            glb_written++;
        }
    }
    ferry_buffer_free(&out);
}

static void run_validator(void)
{
    char script[512], modules[512], cmd[2048];
    snprintf(script, sizeof script, "%s/tests/gltf/validate.mjs", FERRY_SOURCE_DIR);
    snprintf(modules, sizeof modules, "%s/tests/gltf/node_modules/gltf-validator", FERRY_SOURCE_DIR);
    CHECK_MSG(glb_written > 0, "no .glb was written for the validator");
    if (!glb_written) return;
#ifdef _WIN32
    TEST_NOT_ON_WINDOWS("the glTF validator: it runs on node, a Linux program here; tests/windows/outputs.sh finds "
                        "the %zu .glb files written here byte-identical to the Linux build's, which it validates",
                        glb_written);
    return;
#endif
    if (!test_dir_exists(modules) || system("node --version >/dev/null 2>&1") != 0) {
        TEST_LEFT_OUT("the glTF validator (node or tests/gltf/node_modules missing)");
        return;
    }
    snprintf(cmd, sizeof cmd, "node '%s' '%s'/*.glb > '%s/validator.txt' 2>&1", script, glb_dir, glb_dir);
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "glTF validator reported errors: see %s/validator.txt", glb_dir);
    printf("glTF validator: %zu files, exit %d\n", glb_written, rc);
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "grep -v ': 0 errors' '%s/validator.txt' | head -40", glb_dir);
        if (system(cmd) != 0) {
        }
    }
}

static void stem_of(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, size, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot) *dot = '\0';
}

/* ---- samples ---- */

static void test_crate(void)
{
    ferry_alo_model *m = load_model(SAMPLES "/crate.alo");
    CHECK(m != NULL);
    if (!m) return;
    ferry_diagnostics diags = {0};
    ferry_alo_scene_options o = {.diagnostics = &diags};
    char name[256];
    ferry_alamo_texture_folders folders;
    test_alo_scene_paths(&o, SAMPLES "/crate.alo", NULL, 0, name, sizeof name, &folders);
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alo_to_scene(m, &o, &s, &err) == FERRY_OK);
    if (s) {
        geometry_stats st = {0};
        check_model_scene(m, s, &st);
        CHECK(st.rigid_error < 1e-6);
        CHECK(strcmp(s->nodes[0].name, "crate (Z-up to Y-up)") == 0);
        CHECK_EQ_U(s->skin_count, 0);
        CHECK_EQ_U(s->material_count, 1);
        /* crate.tga is not bundled: a warning, never a failure. */
        CHECK(diags.warning_count >= 1 && diags.error_count == 0);
        CHECK(diags.count > 0 && strcmp(diags.items[0].rule, "texture-missing") == 0);
        write_glb(s, "crate");
        ferry_scene_free(s);
    }
    /* Without a path no lookup happens and nothing is reported. */
    ferry_diagnostics_free(&diags);
    memset(&diags, 0, sizeof diags);
    o.name = NULL;
    o.texture_places = NULL;
    CHECK(ferry_alo_to_scene(m, &o, &s, &err) == FERRY_OK);
    CHECK(diags.count == 0);
    if (s) CHECK(strcmp(s->name, "model") == 0);
    ferry_scene_free(s);
    CHECK(ferry_alo_to_scene(m, NULL, &s, &err) == FERRY_OK);
    ferry_scene_free(s);
    CHECK(ferry_alo_to_scene(NULL, NULL, &s, &err) == FERRY_ERR_ARGUMENT && s == NULL);

    /* skin_all_bones: the crate's mesh is rigid, yet a skin names every
     * bone node (extras "alamo": "bone"), in the skeleton's order, and no
     * mesh uses it. */
    ferry_alo_scene_options skin_all = {.skin_all_bones = true};
    CHECK(ferry_alo_to_scene(m, &skin_all, &s, &err) == FERRY_OK);
    if (s) {
        CHECK_EQ_U(s->skin_count, 1);
        size_t bones = 0;
        for (size_t i = 0; i < s->node_count; i++) {
            const ferry_json *kind = ferry_json_get(s->nodes[i].extras, "alamo");
            bool bone = kind && kind->kind == FERRY_JSON_STRING && strcmp(kind->string, "bone") == 0;
            if (bone && s->skin_count == 1 && bones < s->skins[0].joint_count)
                CHECK_EQ_U(s->skins[0].joints[bones], i);
            bones += bone;
            CHECK(!s->nodes[i].has_skin);
        }
        CHECK(bones > 0 && bones == m->skeleton.bone_count);
        if (s->skin_count == 1) CHECK_EQ_U(s->skins[0].joint_count, bones);
    }
    ferry_scene_free(s);
    ferry_diagnostics_free(&diags);
    ferry_alamo_texture_folders_close(&folders);
    ferry_alo_free(m);
}

static void test_walker(void)
{
    ferry_alo_model *m = load_model(SAMPLES "/walker.alo");
    ferry_ala_animation *walk = load_anim(SAMPLES "/walker_walk_00.ala");
    ferry_ala_animation *idle = load_anim(SAMPLES "/walker_idle_00.ala");
    CHECK(m && walk && idle);
    if (!m || !walk || !idle) return;
    const ferry_ala_animation *anims[2] = {walk, idle};
    const char *names[2] = {"walk", NULL};
    ferry_alo_scene_options o = {.name = "walker", .animations = anims, .animation_names = names,
                                 .animation_count = 2, .skip_textures = true};
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alo_to_scene(m, &o, &s, &err) == FERRY_OK);
    if (!s) return;
    geometry_stats st = {0};
    check_model_scene(m, s, &st);
    printf("walker: bind-pose error %.3g over %zu vertices\n", st.bind_error, st.skinned_vertices);
    CHECK(st.skinned_vertices == 45 && st.bind_error < 1e-6);
    CHECK_EQ_U(s->skin_count, 1);
    CHECK_EQ_U(s->skins[0].joint_count, m->skeleton.bone_count);
    CHECK_EQ_U(s->image_count, 0);

    /* Lights: the spot's full-angle hotspot 0.5 and falloff 0.75 halve. */
    int spot = -1;
    for (size_t i = 0; i < s->light_count; i++)
        if (s->lights[i].type == FERRY_LIGHT_SPOT) spot = (int)i;
    CHECK(spot >= 0);
    if (spot >= 0) {
        CHECK_NEAR(s->lights[spot].inner_cone_angle, 0.25, 1e-6);
        CHECK_NEAR(s->lights[spot].outer_cone_angle, 0.375, 1e-6);
        CHECK_NEAR(s->lights[spot].range, 10, 1e-6);
    }
    CHECK(s->lights[0].type == FERRY_LIGHT_POINT && s->lights[1].type == FERRY_LIGHT_DIRECTIONAL);
    /* The spot node shines down the anchor bone's -Z (Alamo and glTF agree):
     * the anchor is turned half round about X, so in Alamo space the light
     * points up +Z, which is glTF +Y. */
    double *w = node_worlds(s);
    for (size_t i = 0; i < s->node_count; i++) {
        if (FY_REF(&s->nodes[i], light) != spot) continue;
        const double *mm = &w[16 * i];
        double dir[3] = {-mm[8], -mm[9], -mm[10]};
        CHECK_NEAR(dir[0], 0, 1e-6);
        CHECK_NEAR(dir[1], 1, 1e-6);
        CHECK_NEAR(dir[2], 0, 1e-6);
    }
    free(w);

    /* Proxies and dazzles: nodes on their bones with their flags. */
    size_t proxies = 0, dazzles = 0;
    for (size_t i = 0; i < s->node_count; i++) {
        json_t *x = test_extras_text(s->nodes[i].extras) ? json_loads(test_extras_text(s->nodes[i].extras), 0, NULL) : NULL;
        const char *kind = json_string_value(json_object_get(x, "alamo"));
        if (kind && strcmp(kind, "proxy") == 0) {
            proxies++;
            if (strcmp(s->nodes[i].name, "P_Smoke_Small_ALT1") == 0) {
                CHECK(json_is_true(json_object_get(x, "hidden")));
                CHECK(json_is_true(json_object_get(x, "alt_decrease_stay_hidden")));
                CHECK(json_integer_value(json_object_get(x, "alt")) == 1);
                CHECK(FY_REF(&s->nodes[i], parent) == bone_node(6));
            }
        }
        if (kind && strcmp(kind, "dazzle") == 0) {
            dazzles++;
            if (strcmp(s->nodes[i].name, "Dazzle_Beacon") == 0) {
                CHECK_NEAR(json_real_value(json_object_get(x, "bias")), 0.5, 1e-6);
                CHECK_NEAR(s->nodes[i].translation[2], 0.05, 1e-7);
                CHECK(FY_REF(&s->nodes[i], parent) == bone_node(4));
            }
        }
        if (strcmp(s->nodes[i].name, "Beacon") == 0) {
            const char *bb = json_string_value(json_object_get(x, "billboard"));
            CHECK(bb && strcmp(bb, "face") == 0);
        }
        json_decref(x);
    }
    CHECK(proxies == 3 && dazzles == 2);

    /* Animations. */
    CHECK_EQ_U(s->animation_count, 2);
    if (s->animation_count == 2) {
        CHECK(strcmp(s->animations[0].name, "walk") == 0);
        CHECK(strcmp(s->animations[1].name, "animation 1") == 0);
        pose_stats ps = {0};
        check_animation(m, s, &s->animations[0], walk, &ps);
        check_animation(m, s, &s->animations[1], idle, &ps);
        printf("walker animations: %zu channels, %zu samples, max error t %.3g r %.3g s %.3g; frame 0 at rest %zu/%zu\n",
               ps.channels, ps.samples, ps.translation, ps.rotation, ps.scale, ps.frame0_near_rest, ps.frame0_bones);
        CHECK(ps.translation < 1e-5 && ps.rotation < 1e-6 && ps.scale < 1e-5);
        /* Visibility bits travel in the animation's extras. */
        json_t *x = json_loads(test_extras_text(s->animations[0].extras), 0, NULL);
        CHECK(json_array_size(json_object_get(x, "visibility")) >= 1);
        json_decref(x);
        /* Step bits: the walk's exhaust and the idle's head have some. */
        bool stepped = false;
        for (size_t a = 0; a < 2; a++)
            for (size_t c = 0; c < s->animations[a].channel_count; c++) {
                const ferry_scene_channel *ch = &s->animations[a].channels[c];
                if (ch->interpolation == FERRY_INTERP_STEP) stepped = true;
                if (ch->key_count > (a == 0 ? walk->frame_count : idle->frame_count)) stepped = true;
            }
        CHECK(stepped);
    }
    write_glb(s, "walker");
    ferry_scene_free(s);
    ferry_ala_free(walk);
    ferry_ala_free(idle);
    ferry_alo_free(m);
}

static void test_legacy(void)
{
    ferry_alo_model *m = load_model(SAMPLES "/legacy.alo");
    CHECK(m != NULL);
    if (!m) return;
    ferry_scene *s = NULL;
    ferry_error err;
    ferry_alo_scene_options o = {.skip_textures = true};
    CHECK(ferry_alo_to_scene(m, &o, &s, &err) == FERRY_OK);
    if (s) {
        geometry_stats st = {0};
        check_model_scene(m, s, &st);
        CHECK(st.rigid_error < 1e-6);
        CHECK_EQ_U(s->material_count, 2);
        write_glb(s, "legacy");
    }
    ferry_scene_free(s);
    ferry_alo_free(m);
}

static void check_particle_scene(const ferry_particle_system *ps, const ferry_scene *s)
{
    CHECK_EQ_U(s->node_count, 1 + ps->emitter_count);
    check_extras(s);
    for (size_t i = 0; i < ps->emitter_count && i + 1 < s->node_count; i++) {
        CHECK(FY_REF(&s->nodes[1 + i], parent) == 0);
        json_t *x = json_loads(test_extras_text(s->nodes[1 + i].extras), 0, NULL);
        json_t *props = json_object_get(x, "properties");
        CHECK(json_object_size(props) > 0);
        CHECK(json_object_size(json_object_get(x, "tracks")) == 7);
        CHECK(json_object_size(json_object_get(x, "groups")) == 3);
        /* Relative: real lifetimes reach FLT_MAX (3.4e38, "forever"), whose
         * JSON decimal differs from the float in the 8th digit. */
        double lifetime = ps->emitters[i].properties.lifetime;
        if (ferry_particle_property_present(&ps->emitters[i].properties, 0x0f))
            CHECK_NEAR(json_real_value(json_object_get(props, "lifetime")), lifetime,
                       1e-6 * (fabs(lifetime) > 1 ? fabs(lifetime) : 1));
        /* The lifetime range, from whichever axis the group uses. */
        float lo, hi;
        ferry_particle_emitter_lifetime(&ps->emitters[i], &lo, &hi);
        json_t *life = json_object_get(x, "lifetime");
        CHECK(json_is_string(json_object_get(life, "from")));
        CHECK_NEAR(json_real_value(json_object_get(life, "max")), hi, 1e-6 * (fabs(hi) > 1 ? fabs(hi) : 1));
        CHECK_NEAR(json_real_value(json_object_get(life, "min")), lo, 1e-6 * (fabs(lo) > 1 ? fabs(lo) : 1));
        json_decref(x);
    }
}

static ferry_particle_system *load_particles(const char *path)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(path, 0, &data, &size, &err) != FERRY_OK) return NULL;
    ferry_particle_system *p = NULL;
    if (ferry_particle_read(data, size, NULL, &p, &err) != FERRY_OK) p = NULL;
    ferry_file_free(data);
    return p;
}

static void test_particles(void)
{
    ferry_particle_system *ps = load_particles(SAMPLES "/p_walker_exhaust.alo");
    CHECK(ps != NULL);
    if (!ps) return;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_particle_to_scene(ps, NULL, &s, &err) == FERRY_OK);
    if (s) {
        check_particle_scene(ps, s);
        CHECK(strstr(s->nodes[0].name, "(Z-up to Y-up)") != NULL);
        write_glb(s, "p_walker_exhaust");
    }
    ferry_scene_free(s);
    CHECK(ferry_particle_to_scene(NULL, NULL, &s, &err) == FERRY_ERR_ARGUMENT);
    ferry_particle_free(ps);
}

/* ---- corpus ---- */

static size_t mesh_triangles(const ferry_alo_mesh *mesh)
{
    size_t n = 0;
    for (size_t i = 0; i < mesh->submesh_count; i++) n += mesh->submeshes[i].triangle_count;
    return n;
}

/* The level of detail a name ends in (_LOD<n>, any case), -1 when none;
 * base: the length before it. */
static long lod_of(const char *name, size_t *base)
{
    size_t n = strlen(name), d = n;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') d--;
    if (d == n || d < 4 || strncasecmp(name + d - 4, "_LOD", 4) != 0) return -1;
    *base = d - 4;
    return strtol(name + d, NULL, 10);
}

/* The default export (the game's view) against the `all` one of the same
 * model: it holds exactly the mesh nodes `all` does not mark not_drawn,
 * names the others in the scene's extras, and of each level-of-detail
 * group keeps the mesh with the most triangles (counted in *groups). */
/* Whether the scene has a mesh node of that name (bones may share it). */
static bool has_mesh_node(const ferry_scene *s, const char *name)
{
    for (size_t k = 0; k < s->node_count; k++)
        if (s->nodes[k].name && name && strcmp(s->nodes[k].name, name) == 0 && test_extras_text(s->nodes[k].extras) &&
            strstr(test_extras_text(s->nodes[k].extras), "\"alamo\":\"mesh\""))
            return true;
    return false;
}

static void check_default_view(const ferry_alo_model *m, const ferry_scene *all, size_t *groups)
{
    ferry_alo_scene_report report = {0};
    ferry_alo_scene_options o = {.skip_textures = true, .report = &report};
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alo_to_scene(m, &o, &s, &err) == FERRY_OK);
    if (!s) return;
    size_t drawn = 0, marked = 0;
    for (size_t i = 0; i < all->node_count; i++) {
        json_t *x = test_extras_text(all->nodes[i].extras) ? json_loads(test_extras_text(all->nodes[i].extras), 0, NULL) : NULL;
        const char *kind = json_string_value(json_object_get(x, "alamo"));
        if (kind && strcmp(kind, "mesh") == 0) {
            bool not_drawn = json_array_size(json_object_get(x, "not_drawn")) > 0;
            bool in_default = has_mesh_node(s, all->nodes[i].name);
            CHECK_MSG(in_default == !not_drawn, "%s: in the default export %d, not_drawn %d", all->nodes[i].name, in_default, not_drawn);
            drawn += !not_drawn;
            marked += not_drawn;
        }
        json_decref(x);
    }
    CHECK_EQ_U(report.meshes, drawn);
    CHECK_EQ_U(report.meshes_left_out, marked);
    json_t *sx = json_loads(test_extras_text(s->extras), 0, NULL);
    CHECK_EQ_U(json_array_size(json_object_get(sx, "left_out")), marked);
    json_decref(sx);
    /* Level-of-detail groups: the kept one has the most triangles. */
    for (size_t i = 0; i < m->mesh_count; i++) {
        size_t base;
        const char *name = m->meshes[i].name;
        if (!name || lod_of(name, &base) < 0) continue;
        size_t best = i, members = 0;
        bool first = true;
        for (size_t j = 0; j < m->mesh_count; j++) {
            size_t bj;
            const char *nj = m->meshes[j].name;
            if (!nj || lod_of(nj, &bj) < 0 || bj != base || strncasecmp(nj, name, base) != 0) continue;
            if (j < i) first = false;
            members++;
            if (mesh_triangles(&m->meshes[j]) > mesh_triangles(&m->meshes[best])) best = j;
        }
        if (!first || members < 2) continue;
        (*groups)++;
        for (size_t j = 0; j < m->mesh_count; j++) {
            size_t bj;
            const char *nj = m->meshes[j].name;
            if (!nj || lod_of(nj, &bj) < 0 || bj != base || strncasecmp(nj, name, base) != 0) continue;
            /* Marked lower_lod in `all` exactly when not the best (the best
             * may still be left out for another reason, a hidden bone). */
            bool lower = false;
            for (size_t k = 0; k < all->node_count; k++)
                if (all->nodes[k].name && strcmp(all->nodes[k].name, nj) == 0 && test_extras_text(all->nodes[k].extras) &&
                    strstr(test_extras_text(all->nodes[k].extras), "\"alamo\":\"mesh\""))
                    lower = strstr(test_extras_text(all->nodes[k].extras), "\"lower_lod\"") != NULL;
            if (j == best) CHECK_MSG(!lower, "%s (%zu triangles, the most of its group) marked lower_lod", nj, mesh_triangles(&m->meshes[j]));
            else CHECK_MSG(!has_mesh_node(s, nj) && lower, "%s (%zu triangles, fewer than %s) kept", nj, mesh_triangles(&m->meshes[j]), m->meshes[best].name);
        }
    }
    ferry_scene_free(s);
}

static void test_corpus(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/alamo";
    if (!test_dir_exists(dir)) {
        TEST_LEFT_OUT("corpus part (%s is absent)", dir);
        return;
    }
    char **alos = NULL, **alas = NULL;
    size_t alo_count = test_list_files(dir, ".alo", &alos);
    size_t ala_count = test_list_files(dir, ".ala", &alas);
    size_t models = 0, particles = 0, images = 0, ueaw_images = 0, ueaw_missing = 0, anims_done = 0, lod_groups = 0;
    geometry_stats st = {0};
    pose_stats ps = {0};
    for (size_t i = 0; i < alo_count; i++) {
        char stem[256];
        stem_of(alos[i], stem, sizeof stem);
        ferry_alo_model *m = load_model(alos[i]);
        if (!m) {
            ferry_particle_system *p = load_particles(alos[i]);
            if (p) {
                ferry_scene *s = NULL;
                ferry_error err;
                CHECK_MSG(ferry_particle_to_scene(p, NULL, &s, &err) == FERRY_OK, "%s", alos[i]);
                if (s) check_particle_scene(p, s);
                if (s) write_glb(s, stem);
                particles++;
                ferry_scene_free(s);
                ferry_particle_free(p);
            }
            continue;
        }
        /* Its animations: files named MODEL_*.ALA beside it, for the longest
         * model stem that prefixes them. */
        const ferry_ala_animation **anims = calloc(ala_count + 1, sizeof *anims);
        const char **names = calloc(ala_count + 1, sizeof *names);
        char (*ala_stems)[256] = calloc(ala_count + 1, sizeof *ala_stems);
        size_t na = 0;
        for (size_t a = 0; a < ala_count; a++) {
            char as[256];
            stem_of(alas[a], as, sizeof as);
            size_t sl = strlen(stem);
            if (strncasecmp(as, stem, sl) != 0 || as[sl] != '_') continue;
            /* Prefer a longer model stem when one exists (UB_TLTower vs UB_TLTower_X). */
            bool better = false;
            for (size_t j = 0; j < alo_count; j++) {
                char other[256];
                stem_of(alos[j], other, sizeof other);
                size_t ol = strlen(other);
                if (ol > sl && strncasecmp(as, other, ol) == 0 && as[ol] == '_') better = true;
            }
            if (better) continue;
            const char *sa = strrchr(alas[a], '/'), *sm = strrchr(alos[i], '/');
            if (!sa || !sm || sa - alas[a] != sm - alos[i] || strncmp(alas[a], alos[i], (size_t)(sa - alas[a])) != 0) continue;
            ferry_ala_animation *an = load_anim(alas[a]);
            if (!an) continue;
            anims[na] = an;
            snprintf(ala_stems[na], 256, "%s", as);
            names[na] = ala_stems[na];
            na++;
        }
        bool ueaw = strstr(alos[i], "/ueaw/") != NULL;
        ferry_diagnostics diags = {0};
        /* `all`: every object becomes a node, so every mesh is checked. */
        ferry_alo_scene_options o = {.animations = anims, .animation_names = names, .animation_count = na,
                                     .diagnostics = &diags, .all = true};
        char name[256];
        ferry_alamo_texture_folders folders;
        test_alo_scene_paths(&o, alos[i], NULL, 0, name, sizeof name, &folders);
        ferry_scene *s = NULL;
        ferry_error err;
        ferry_result r = ferry_alo_to_scene(m, &o, &s, &err);
        CHECK_MSG(r == FERRY_OK, "%s: %s", alos[i], err.message);
        if (s) {
            models++;
            check_model_scene(m, s, &st);
            images += s->image_count;
            CHECK_EQ_U(s->animation_count, na);
            for (size_t a = 0; a < na && a < s->animation_count; a++) {
                check_animation(m, s, &s->animations[a], anims[a], &ps);
                anims_done++;
            }
            if (ueaw) {
                ueaw_images += s->image_count;
                for (size_t d = 0; d < diags.count; d++) {
                    if (strcmp(diags.items[d].rule, "texture-missing") == 0) {
                        ueaw_missing++;
                        printf("%s: %s\n", stem, diags.items[d].message);
                    }
                }
                /* Every texture the ueaw models use is in ../Textures. */
                CHECK_MSG(s->image_count > 0, "%s embeds no image", stem);
            }
            for (size_t d = 0; d < diags.count; d++)
                if (strcmp(diags.items[d].rule, "texture-undecodable") == 0) printf("%s: %s\n", stem, diags.items[d].message);
            write_glb(s, stem);
            check_default_view(m, s, &lod_groups);
        }
        ferry_scene_free(s);
        ferry_alamo_texture_folders_close(&folders);
        ferry_diagnostics_free(&diags);
        for (size_t a = 0; a < na; a++) ferry_ala_free((ferry_ala_animation *)anims[a]);
        free(anims);
        free(names);
        free(ala_stems);
        ferry_alo_free(m);
    }
    printf("corpus: %zu models, %zu particle systems converted; %zu images embedded (%zu ueaw), %zu ueaw textures missing\n",
           models, particles, images, ueaw_images, ueaw_missing);
    printf("corpus: bind-pose error %.3g over %zu skinned vertices, rigid error %.3g\n", st.bind_error,
           st.skinned_vertices, st.rigid_error);
    printf("corpus: %zu animations, %zu channels, %zu samples; max error t %.3g r %.3g s %.3g; frame 0 at rest %zu/%zu bones\n",
           anims_done, ps.channels, ps.samples, ps.translation, ps.rotation, ps.scale, ps.frame0_near_rest, ps.frame0_bones);
    printf("corpus: %zu level-of-detail groups, in each the most detailed mesh is the one kept\n", lod_groups);
    CHECK(models >= 33);
    CHECK(lod_groups >= 10);
    CHECK(ueaw_missing == 0);
    CHECK(st.bind_error < 1e-5 && st.rigid_error < 1e-5);
    CHECK(ps.translation < 1e-4 && ps.rotation < 1e-5 && ps.scale < 1e-4);
    CHECK(anims_done >= 25);
    test_free_paths(alos, alo_count);
    test_free_paths(alas, ala_count);
}

int main(void)
{
    /* A fresh folder each run (kept after a failure, for a look): a fixed
     * name, such as one made of the PID, may still be there from an earlier
     * run, and then nothing would be written for the validator. */
    if (!test_output_dir("test_convert", glb_dir, sizeof glb_dir, &keep_glb_dir))
        CHECK_MSG(0, "cannot make a folder for the .glb files");
    test_crate();
    test_walker();
    test_legacy();
    test_particles();
    test_corpus();
    run_validator();
    if (glb_dir[0] && !keep_glb_dir && test_checks_failed == 0) CHECK(test_remove_tree(glb_dir));
    TEST_END();
}
