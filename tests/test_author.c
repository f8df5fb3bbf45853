/* Authoring jobs (author.h): a scene as an ALO model with its ALA
 * animations and DDS textures, a scene's animation as an ALA, an ALO model
 * (with its animation given or found beside it) as the scene an ALM is
 * built from, and the ALM; each output checked read back, the messages and
 * reports, and bad inputs: a scene the converter refuses, a model
 * validation refuses, outputs that cannot be written, animations that do
 * not fit; an image as a PAA texture (the report against the file read
 * back, inputs that are no image refused as the job says). On a temporary
 * folder. */
#include <ferry/alm.h>
#include <ferry/author.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>

#include "support.h"
#include "test.h"

#define SAMPLES FERRY_SOURCE_DIR "/samples/alamo"

static char dir[100]; /* a temporary folder: short, so that paths under it fit */

static const char *at(const char *name)
{
    static char paths[8][256];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void put(const char *name, const void *data, size_t size)
{
    FILE *f = fopen(at(name), "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static bool exists(const char *path) { return test_path_exists(path); }

/* ---- messages, kept ---- */

typedef struct said {
    size_t count;
    ferry_message_kind kind[64];
    char file[64][256];
    char text[64][512];
    bool ruled[64];
} said;

static void keep(void *user, const ferry_message *m)
{
    said *s = user;
    if (s->count >= 64) return;
    s->kind[s->count] = m->kind;
    snprintf(s->file[s->count], sizeof s->file[0], "%s", m->file ? m->file : "(none)");
    snprintf(s->text[s->count], sizeof s->text[0], "%s", m->text);
    s->ruled[s->count] = m->rule != NULL;
    s->count++;
}

static int find(const said *s, ferry_message_kind kind, const char *part)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->kind[i] == kind && strstr(s->text[i], part)) return (int)i;
    return -1;
}

static size_t count_kind(const said *s, ferry_message_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) n += s->kind[i] == kind;
    return n;
}

/* ---- inputs ---- */

static ferry_asset *open_asset(const char *path)
{
    ferry_asset *a = NULL;
    ferry_error err;
    CHECK_MSG(ferry_asset_open(path, NULL, &a, &err) == FERRY_OK, "%s: %s", path, err.message);
    return a;
}

static ferry_scene *read_gltf(const char *json)
{
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK_MSG(ferry_gltf_read((const uint8_t *)json, strlen(json), NULL, &s, &err) == FERRY_OK, "%s", err.message);
    return s;
}

/* walker.alo exported with both its animations, as a glTF of ferry's. */
static ferry_scene *walker_scene(void)
{
    ferry_asset *model = open_asset(SAMPLES "/walker.alo");
    ferry_asset *walk = open_asset(SAMPLES "/walker_walk_00.ala");
    ferry_asset *idle = open_asset(SAMPLES "/walker_idle_00.ala");
    const ferry_ala_animation *anims[2] = {ferry_asset_object(walk), ferry_asset_object(idle)};
    const char *names[2] = {"walker_walk_00.ala", "walker_idle_00.ala"};
    ferry_alo_scene_options o = {0};
    o.name = "walker";
    o.animations = anims;
    o.animation_names = names;
    o.animation_count = 2;
    o.skip_textures = true;
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(ferry_alo_to_scene(ferry_asset_object(model), &o, &s, &err) == FERRY_OK);
    ferry_asset_free(idle);
    ferry_asset_free(walk);
    ferry_asset_free(model);
    return s;
}

/* A glTF of another tool: one triangle, an 8 x 8 PNG base colour texture
 * (half transparent on the right) the mapped material names "panel_paint". */
static const char panel_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"Panel\",\"mesh\":0}],"
    "\"materials\":[{\"name\":\"panel\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}},\"alphaMode\":\"BLEND\"}],"
    "\"textures\":[{\"source\":0}],\"images\":[{\"name\":\"panel_paint\",\"uri\":\"data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAY0lEQVR4nBXKMQEEMQgAMKRUClIYTghSKgUpOPlPh2yJiO93SIqOry/DEnEEkqKPwLDnhRRIik6BYfOFEkiKLoFh64UWSIpugWH7hSuQFH0Fhr0vjEBS9AgMOy+sQFL0CgzLH8i8gOGGgfRdAAAAAElFTkSuQmCC\"}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":1},\"material\":0}]}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC2\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":24}],"
    "\"buffers\":[{\"byteLength\":60,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/\"}]}";

/* A shader parameter given as null (a NaN float): value-finite's error. */
static const char nan_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"t\",\"mesh\":0}],"
    "\"materials\":[{\"name\":\"m\",\"extras\":{\"shader\":\"MeshGloss.fx\",\"params\":{\"Shininess\":null}}}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
    "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}";

/* Points: no ALO mesh can hold them. */
static const char points_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"p\",\"mesh\":0}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":0}]}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0,0,0]}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],"
    "\"buffers\":[{\"byteLength\":12,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA\"}]}";

/* ---- ALO ---- */

static void test_alo(void)
{
    ferry_scene *scene = walker_scene();
    if (!scene) return;
    said s = {0};
    ferry_author_alo_options o = {0};
    o.name = "walker.glb";
    o.message = keep;
    o.user = &s;
    ferry_author_alo_report rep;
    ferry_error err;
    const char *out = at("made.alo");
    CHECK_MSG(ferry_author_alo(scene, out, NULL, &o, &rep, &err) == FERRY_OK, "%s", err.message);
    CHECK(rep.model.bones > 1 && rep.model.meshes == 1 && rep.validation_errors == 0 && !rep.write_failed);
    CHECK(rep.model.textures == NULL && rep.textures_written == 0);
    CHECK(rep.animations_written == 2 && rep.animation_result == FERRY_OK);
    /* The model reads back and passes validation. */
    ferry_asset *made = open_asset(out);
    const ferry_alo_model *m = ferry_asset_object(made);
    CHECK(m && m->skeleton.bone_count == rep.model.bones);
    ferry_diagnostics d = {0};
    CHECK(made && ferry_asset_validate(made, NULL, &d) == 0);
    ferry_diagnostics_free(&d);
    /* Each animation beside it, as the game finds it, bound to its bones. */
    for (size_t i = 0; i < 2; i++) {
        char path[512];
        ferry_ala_file_name(out, scene->animations[i].name, i, path, sizeof path);
        ferry_asset *anim = open_asset(path);
        const ferry_ala_animation *a = ferry_asset_object(anim);
        CHECK(a && a->format == 2 && a->bone_count > 0 && m && ferry_ala_check_model(a, m, NULL) == 0);
        char note[600];
        snprintf(note, sizeof note, "walker.glb -> %s: animation %zu '%s'", path, i, scene->animations[i].name);
        int k = find(&s, FERRY_MESSAGE_NOTE, note);
        CHECK_MSG(k >= 0 && strcmp(s.file[k], "(none)") == 0, "%s", note);
        ferry_asset_free(anim);
    }
    ferry_asset_free(made);
    CHECK(count_kind(&s, FERRY_MESSAGE_ERROR) == 0);

    /* Format 1 animations. */
    o.ala_format = 1;
    CHECK(ferry_author_alo(scene, at("made1.alo"), NULL, &o, &rep, &err) == FERRY_OK);
    char path[512];
    ferry_ala_file_name(at("made1.alo"), scene->animations[0].name, 0, path, sizeof path);
    ferry_asset *anim1 = open_asset(path);
    CHECK(anim1 && ((const ferry_ala_animation *)ferry_asset_object(anim1))->format == 1);
    ferry_asset_free(anim1);
    o.ala_format = 0;

    /* The output is the input: refused by the writer, said, nothing else made. */
    memset(&s, 0, sizeof s);
    o.write.protect_input = out;
    CHECK(ferry_author_alo(scene, out, NULL, &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    CHECK(rep.write_failed && rep.animations_written == 0);
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR && strcmp(s.file[0], out) == 0);
    o.write.protect_input = NULL;
    ferry_scene_free(scene);

    /* Textures: the image the mapped material names, as a .dds. */
    scene = read_gltf(panel_gltf);
    if (!scene) return;
    CHECK(test_make_dir(at("tex")));
    memset(&s, 0, sizeof s);
    o.name = "panel.gltf";
    CHECK(ferry_author_alo(scene, at("panel.alo"), at("tex"), &o, &rep, &err) == FERRY_OK);
    CHECK(rep.model.texture_count == 1 && rep.textures_written == 1 && rep.textures_failed == 0);
    size_t size = 0;
    uint8_t *dds = test_read_file(at("tex/panel_paint.dds"), &size);
    CHECK(dds && size > 128 && memcmp(dds, "DDS ", 4) == 0 && memcmp(dds + 84, "DXT5", 4) == 0);
    free(dds);
    /* A folder that is not there: the texture's write fails, the job does not. */
    memset(&s, 0, sizeof s);
    CHECK(ferry_author_alo(scene, at("panel2.alo"), at("nope"), &o, &rep, &err) == FERRY_OK);
    CHECK(rep.textures_written == 0 && rep.textures_failed == 1);
    /* nope/panel_paint.dds; on Windows the library joins with '\\'. */
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR &&
          (strstr(s.file[0], "nope/panel_paint.dds") || strstr(s.file[0], "nope\\panel_paint.dds")));
    /* An image that does not decode: a warning, not written. */
    static const uint8_t garbage[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    scene->images[0].data = garbage;
    scene->images[0].size = sizeof garbage;
    memset(&s, 0, sizeof s);
    CHECK(ferry_author_alo(scene, at("panel3.alo"), at("tex"), &o, &rep, &err) == FERRY_OK);
    CHECK(rep.textures_written == 0 && rep.textures_failed == 0);
    CHECK(find(&s, FERRY_MESSAGE_WARNING, "image 0 (image/png) could not be decoded, panel_paint.dds not written") >= 0);
    ferry_scene_free(scene);

    /* Validation refuses the model: its error (about the output), why,
     * nothing written; --allow-invalid writes it. */
    scene = read_gltf(nan_gltf);
    if (!scene) return;
    memset(&s, 0, sizeof s);
    o.name = "nan.gltf";
    const char *nan_out = at("nan.alo");
    CHECK(ferry_author_alo(scene, nan_out, NULL, &o, &rep, &err) == FERRY_ERR_MALFORMED);
    CHECK(rep.validation_errors == 1 && !rep.write_failed && !exists(nan_out));
    int k = find(&s, FERRY_MESSAGE_ERROR, "[value-finite]");
    CHECK(k >= 0 && strcmp(s.file[k], nan_out) == 0 && s.ruled[k] && strstr(s.text[k], "Shininess"));
    k = find(&s, FERRY_MESSAGE_ERROR, "would not be a valid model (1 error above): not written");
    CHECK(k >= 0 && strcmp(s.file[k], "(none)") == 0 && strstr(s.text[k], nan_out) == s.text[k]);
    o.allow_invalid = true;
    CHECK(ferry_author_alo(scene, nan_out, NULL, &o, &rep, &err) == FERRY_OK && exists(nan_out));
    o.allow_invalid = false;
    ferry_scene_free(scene);

    /* The converter refuses the scene: its located error, about the input. */
    scene = read_gltf(points_gltf);
    if (!scene) return;
    memset(&s, 0, sizeof s);
    o.name = "points.gltf";
    CHECK(ferry_author_alo(scene, at("points.alo"), NULL, &o, &rep, &err) != FERRY_OK);
    CHECK(!rep.write_failed && !exists(at("points.alo")) && strstr(err.message, "only triangles"));
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR && strcmp(s.file[0], "points.gltf") == 0);
    ferry_scene_free(scene);

    /* No scene, no output, no options. */
    CHECK(ferry_author_alo(NULL, out, NULL, NULL, &rep, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_author_alo(scene, NULL, NULL, NULL, NULL, NULL) == FERRY_ERR_ARGUMENT);
}

/* ---- ALA ---- */

static void test_ala(void)
{
    ferry_scene *scene = walker_scene();
    if (!scene) return;
    ferry_asset *model = open_asset(SAMPLES "/walker.alo");
    said s = {0};
    ferry_author_ala_options o = {0};
    o.name = "walker.glb";
    o.animation_index = 1;
    o.model = model;
    o.message = keep;
    o.user = &s;
    ferry_author_ala_report rep;
    ferry_error err;
    const char *out = at("idle.ala");
    CHECK_MSG(ferry_author_ala(scene, out, &o, &rep, &err) == FERRY_OK, "%s", err.message);
    CHECK(rep.format == 2 && rep.animation.tracks > 0 && rep.animation.frames > 1 && rep.validation_errors == 0);
    ferry_asset *idle = open_asset(out);
    const ferry_ala_animation *a = ferry_asset_object(idle);
    CHECK(a && a->frame_count == rep.animation.frames && ferry_ala_check_model(a, ferry_asset_object(model), NULL) == 0);
    ferry_asset_free(idle);
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_NOTE && strstr(s.text[0], "animation 1 'walker_idle_00.ala'"));

    /* Format 1, the rate given. */
    o.format = 1;
    o.fps = 10;
    CHECK(ferry_author_ala(scene, at("idle1.ala"), &o, &rep, &err) == FERRY_OK);
    CHECK(rep.format == 1 && rep.animation.fps == 10 && !rep.animation.fps_assumed);
    o.format = 0;
    o.fps = 0;

    /* Bad requests: an animation that is not there, a rate no file can
     * have, a model that is not one, the output the input. */
    memset(&s, 0, sizeof s);
    o.animation_index = 2;
    CHECK(ferry_author_ala(scene, at("x.ala"), &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR && strcmp(s.file[0], "walker.glb") == 0 && !exists(at("x.ala")));
    o.animation_index = 0;
    o.fps = 2e6;
    CHECK(ferry_author_ala(scene, at("x.ala"), &o, &rep, &err) != FERRY_OK && strstr(err.message, "not a usable rate"));
    o.fps = 0;
    ferry_asset *not_model = open_asset(SAMPLES "/walker_walk_00.ala");
    o.model = not_model;
    CHECK(ferry_author_ala(scene, at("x.ala"), &o, &rep, &err) == FERRY_ERR_ARGUMENT && !exists(at("x.ala")));
    ferry_asset_free(not_model);
    o.model = model;
    o.write.protect_input = out;
    CHECK(ferry_author_ala(scene, out, &o, &rep, &err) == FERRY_ERR_ARGUMENT && rep.write_failed);
    CHECK(ferry_author_ala(NULL, out, &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    ferry_asset_free(model);
    ferry_scene_free(scene);
}

/* ---- ALM ---- */

static void copy_sample(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, SAMPLES "/%s", name);
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK(data != NULL);
    if (data) put(name, data, size);
    free(data);
}

static void test_alm(void)
{
    copy_sample("walker.alo");
    copy_sample("walker_walk_00.ala");
    copy_sample("walker_idle_00.ala");
    copy_sample("crate.alo");
    copy_sample("p_walker_exhaust.alo");
    put("walker_bad.ala", "no animation", 12); /* listed first, skipped */
    ferry_asset *model = open_asset(at("walker.alo"));
    ferry_asset *walk = open_asset(at("walker_walk_00.ala"));
    said s = {0};
    ferry_author_alm_scene_options so = {0};
    so.message = keep;
    so.user = &s;
    so.scene_name = "walker";
    ferry_scene *scene = NULL;
    ferry_error err;

    /* The animation given. */
    so.animation = walk;
    CHECK(ferry_author_alm_scene(model, &so, &scene, &err) == FERRY_OK);
    CHECK(scene && scene->animation_count == 1 && strcmp(scene->name, "walker") == 0 && s.count == 0);
    ferry_author_alm_options ao = {0};
    ao.name = "walker.alo";
    ao.message = keep;
    ao.user = &s;
    ferry_author_alm_report rep;
    const char *out = at("walker.alm");
    CHECK_MSG(ferry_author_alm(scene, out, &ao, &rep, &err) == FERRY_OK, "%s", err.message);
    CHECK(rep.positions > 0 && rep.triangles > 0 && rep.collapses > 0 && rep.fewest_triangles < rep.triangles &&
          rep.frames > 1 && !rep.write_failed);
    size_t size = 0;
    uint8_t *data = test_read_file(out, &size);
    ferry_alm_mesh *mesh = NULL;
    CHECK(data && ferry_alm_read(data, size, NULL, &mesh, &err) == FERRY_OK);
    CHECK(mesh && mesh->position_count == rep.positions && mesh->triangle_count == rep.triangles &&
          mesh->collapse_count == rep.collapses && mesh->frame_count == rep.frames);
    ferry_alm_free(mesh);
    free(data);
    /* Written over its input: refused by the writer. */
    ao.write.protect_input = out;
    CHECK(ferry_author_alm(scene, out, &ao, &rep, &err) == FERRY_ERR_ARGUMENT && rep.write_failed);
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR && strcmp(s.file[0], out) == 0);
    ao.write.protect_input = NULL;
    ferry_scene_free(scene);

    /* Found beside the model: the first that reads and fits; those before
     * it skipped, said about themselves. */
    memset(&s, 0, sizeof s);
    so.animation = NULL;
    ferry_file_source folder;
    CHECK(ferry_file_source_folder_of(at("walker.alo"), &folder, &so.model_path, &err) == FERRY_OK);
    so.animations = &folder;
    CHECK(ferry_author_alm_scene(model, &so, &scene, &err) == FERRY_OK);
    CHECK(scene && scene->animation_count == 1 && strstr(scene->animations[0].name, "walker_idle_00.ala"));
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_WARNING && strstr(s.file[0], "walker_bad.ala") &&
          strstr(s.text[0], "animation skipped: offset 0x0 (0): not a known format"));
    ferry_scene_free(scene);
    ferry_file_source_close(&folder);
    so.animations = NULL;
    so.model_path = NULL;

    /* Refused: an animation for another model, a file that is no
     * animation, a model that is no model. */
    ferry_asset *crate = open_asset(at("crate.alo"));
    memset(&s, 0, sizeof s);
    so.animation = walk;
    CHECK(ferry_author_alm_scene(crate, &so, &scene, &err) == FERRY_ERR_ARGUMENT && scene == NULL);
    CHECK(strstr(err.message, "walker_walk_00.ala does not fit the model: ") == err.message);
    CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR && strstr(s.file[0], "crate.alo"));
    so.animation = crate;
    CHECK(ferry_author_alm_scene(model, &so, &scene, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, "crate.alo is not an ALA animation") != NULL);
    so.animation = NULL;
    ferry_asset *system = open_asset(at("p_walker_exhaust.alo"));
    CHECK(ferry_author_alm_scene(system, &so, &scene, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strcmp(err.message, "not a model: only models become ALM meshes") == 0);
    CHECK(ferry_author_alm_scene(NULL, &so, &scene, &err) == FERRY_ERR_ARGUMENT);

    /* A scene the ALM builder refuses (an index past the vertices): its
     * error, about the input. */
    so.animation = NULL;
    CHECK(ferry_author_alm_scene(model, &so, &scene, &err) == FERRY_OK);
    memset(&s, 0, sizeof s);
    if (scene && scene->mesh_count && scene->meshes[0].primitive_count) {
        ferry_scene_primitive *p = &scene->meshes[0].primitives[0];
        uint32_t *bad = malloc(p->index_count * sizeof *bad);
        memcpy(bad, p->indices, p->index_count * sizeof *bad);
        bad[1] = (uint32_t)p->vertex_count + 5;
        p->indices = bad;
        ao.name = "walker.alo";
        CHECK(ferry_author_alm(scene, at("bad.alm"), &ao, &rep, &err) != FERRY_OK);
        CHECK(!rep.write_failed && !exists(at("bad.alm")) && strstr(err.message, "out of range"));
        CHECK(s.count == 1 && s.kind[0] == FERRY_MESSAGE_ERROR && strcmp(s.file[0], "walker.alo") == 0);
        free(bad);
    }
    ferry_scene_free(scene);
    CHECK(ferry_author_alm(NULL, out, &ao, &rep, &err) == FERRY_ERR_ARGUMENT);
    ferry_asset_free(system);
    ferry_asset_free(crate);
    ferry_asset_free(walk);
    ferry_asset_free(model);
}

/* ferry_author_paa: a PNG made a texture, the report as the file reads
 * back; another format's content, no known content, a missing folder and
 * the input as output refused. */
static void test_paa(void)
{
    char png[200], paa[200], text[200], bad_out[200];
    snprintf(png, sizeof png, "%s/t.png", dir);
    snprintf(paa, sizeof paa, "%s/t_co.paa", dir);
    snprintf(text, sizeof text, "%s/t.txt", dir);
    snprintf(bad_out, sizeof bad_out, "%s/missing/t.paa", dir);
    ferry_image img = {16, 8, calloc(16 * 8, 4)};
    for (size_t i = 0; img.rgba && i < 16 * 8 * 4; i++) img.rgba[i] = (uint8_t)(i % 4 == 3 ? 200 : i * 7); /* alpha: DXT5 */
    ferry_buffer buf = {0};
    ferry_error err;
    CHECK(img.rgba && ferry_image_encode_png(&img, NULL, &buf, &err) == FERRY_OK);
    CHECK(ferry_file_write(png, buf.data, buf.size, NULL, &err) == FERRY_OK);
    ferry_buffer_free(&buf);
    free(img.rgba);
    ferry_author_paa_report rep;
    ferry_author_paa_options o = {.write = {.protect_input = png}};
    CHECK_MSG(ferry_author_paa(png, paa, &o, &rep, &err) == FERRY_OK, "%s", err.message);
    CHECK(rep.type == FERRY_PAA_DXT5 && rep.width == 16 && rep.height == 8 && !rep.write_failed);
    uint8_t *data;
    size_t size;
    ferry_paa *p = NULL;
    CHECK(ferry_file_load(paa, 0, &data, &size, &err) == FERRY_OK && size == rep.bytes);
    CHECK(ferry_paa_read(data, size, NULL, &p, &err) == FERRY_OK);
    CHECK(p && p->type == rep.type && p->mip_count == rep.mip_count && rep.mip_count > 1);
    CHECK(p && p->mips[p->mip_count - 1].width == rep.last_width && p->mips[p->mip_count - 1].height == rep.last_height);
    CHECK(rep.lzo_count == 0); /* mipmaps under 256 wide are stored as they are */
    ferry_paa_free(p);
    ferry_file_free(data);
    o.encode.type = FERRY_PAA_DXT1;
    CHECK(ferry_author_paa(png, paa, &o, &rep, &err) == FERRY_OK && rep.type == FERRY_PAA_DXT1);
    CHECK(ferry_author_paa(SAMPLES "/walker.alo", paa, NULL, &rep, &err) == FERRY_ERR_UNSUPPORTED && !rep.write_failed);
    CHECK_MSG(strstr(err.message, "not an image (its format is ALO model)"), "%s", err.message);
    CHECK(ferry_file_write(text, "plain text\n", 11, NULL, &err) == FERRY_OK);
    CHECK(ferry_author_paa(text, paa, NULL, &rep, &err) == FERRY_ERR_MALFORMED && err.offset == 0);
    CHECK_MSG(strncmp(err.message, "not a known format: ", 20) == 0, "%s", err.message);
    CHECK(ferry_author_paa(png, bad_out, NULL, &rep, &err) == FERRY_ERR_IO && rep.write_failed);
    o.write.protect_input = png;
    CHECK(ferry_author_paa(png, png, &o, &rep, &err) == FERRY_ERR_ARGUMENT && rep.write_failed);
    CHECK(ferry_author_paa(NULL, paa, NULL, &rep, &err) == FERRY_ERR_ARGUMENT);
}

int main(void)
{
    if (!test_make_temp_dir("ferry-author", dir, sizeof dir)) return 1;
    test_alo();
    test_ala();
    test_alm();
    test_paa();
    CHECK(test_remove_tree(dir));
    TEST_END();
}
