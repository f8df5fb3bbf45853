/* The glTF reader: our own writer's output read back (.glb, and .gltf with
 * an external .bin through the callback), small hand-written documents
 * (positive and negative), and, when ../shared exists, the .glb files the
 * ALO converter makes from corpus models. */
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/image.h>

#include <jansson.h>

#include "support.h"
#include "test.h"

/* ---- a scene built by hand ---- */

static const float quad_pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
static const float quad_nor[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
static const float quad_uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
static const uint16_t quad_joints[16] = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
static const float quad_weights[16] = {0.5f, 0.5f, 0, 0, 0.25f, 0.75f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
static const uint32_t quad_idx[6] = {0, 1, 2, 0, 2, 3};
static const float target0[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
static const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                              1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -2, -3, 1};
static const float times[3] = {0, 0.5f, 1};
static const float trans_keys[9] = {0, 0, 0, 1, 2, 3, 4, 5, 6};
static const float rot_keys[12] = {0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f, 0, 0, 1, 0};
static const float weight_keys[3] = {0, 1, 0.5f};

static ferry_scene_morph_target targets[1];
static ferry_scene_primitive prim;
static ferry_scene_mesh mesh;
static ferry_scene_material material;
static ferry_scene_image image;
static ferry_scene_skin skin;
static ferry_scene_light light;
static ferry_scene_node nodes[4];
static ferry_scene_channel channels[3];
static ferry_scene_animation anim;
static const int32_t skin_joints[2] = {0, 1};
static ferry_buffer png;

static void build_scene(ferry_scene *s)
{
    memset(s, 0, sizeof *s);
    uint8_t rgba[4] = {10, 20, 30, 255};
    ferry_image img = {1, 1, rgba};
    ferry_error err;
    if (!png.size) ferry_image_encode_png(&img, NULL, &png, &err);
    image = (ferry_scene_image){"tex", "image/png", png.data, png.size, NULL, NULL};
    ferry_scene_material_init(&material);
    material.name = "mat";
    material.base_color_factor[0] = 0.5f;
    FY_SET_REF(&material, base_color_image, 0);
    material.roughness_factor = 0.25f;
    material.extras = test_extras_parse("{\"k\":1}");
    targets[0] = (ferry_scene_morph_target){target0, NULL, "up"};
    memset(&prim, 0, sizeof prim);
    prim.vertex_count = 4;
    prim.positions = quad_pos;
    prim.normals = quad_nor;
    prim.texcoords[0] = quad_uv;
    prim.texcoord_count = 1;
    prim.joints = quad_joints;
    prim.weights = quad_weights;
    prim.indices = quad_idx;
    prim.index_count = 6;
    prim.mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(&prim, material, 0);
    prim.targets = targets;
    prim.target_count = 1;
    mesh = (ferry_scene_mesh){"quad", &prim, 1, NULL, NULL};
    skin = (ferry_scene_skin){.name = "skin", .joints = skin_joints, .joint_count = 2, .inverse_bind_matrices = ibm};
    FY_SET_REF(&skin, skeleton, 0);
    light = (ferry_scene_light){"lamp", FERRY_LIGHT_SPOT, {1, 0.5f, 0.25f}, 3, 10, 0.2f, 0.5f};
    for (int i = 0; i < 4; i++) ferry_scene_node_init(&nodes[i]);
    nodes[0].name = "root";
    nodes[1].name = "child";
    FY_SET_REF(&nodes[1], parent, 0);
    nodes[1].translation[0] = 1, nodes[1].translation[1] = 2, nodes[1].translation[2] = 3;
    nodes[1].rotation[2] = 0.70710677f, nodes[1].rotation[3] = 0.70710677f;
    nodes[1].scale[1] = 2;
    nodes[1].extras = test_extras_parse("{\"bone\":true}");
    nodes[2].name = "skinned";
    FY_SET_REF(&nodes[2], mesh, 0);
    FY_SET_REF(&nodes[2], skin, 0);
    nodes[3].name = "light";
    FY_SET_REF(&nodes[3], parent, 1);
    FY_SET_REF(&nodes[3], light, 0);
    channels[0] = (ferry_scene_channel){1, FERRY_ANIM_TRANSLATION, FERRY_INTERP_LINEAR, times, 3, trans_keys};
    channels[1] = (ferry_scene_channel){1, FERRY_ANIM_ROTATION, FERRY_INTERP_STEP, times, 3, rot_keys};
    channels[2] = (ferry_scene_channel){2, FERRY_ANIM_WEIGHTS, FERRY_INTERP_LINEAR, times, 3, weight_keys};
    anim = (ferry_scene_animation){"move", channels, 3, NULL};
    s->nodes = nodes;
    s->node_count = 4;
    s->meshes = &mesh;
    s->mesh_count = 1;
    s->materials = &material;
    s->material_count = 1;
    s->images = &image;
    s->image_count = 1;
    s->skins = &skin;
    s->skin_count = 1;
    s->lights = &light;
    s->light_count = 1;
    s->animations = &anim;
    s->animation_count = 1;
    s->name = "scene";
    s->extras = test_extras_parse("{\"source\":\"test\"}");
}

static bool floats_equal(const float *a, const float *b, size_t n)
{
    if (!a || !b) return a == b;
    return memcmp(a, b, n * sizeof *a) == 0;
}

static bool extras_equal(const char *a, const char *b)
{
    if (!a || !b) return a == b;
    json_t *x = json_loads(a, 0, NULL), *y = json_loads(b, 0, NULL);
    bool eq = x && y && json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return eq;
}

static void compare(const ferry_scene *a, const ferry_scene *b)
{
    CHECK_EQ_U(b->node_count, a->node_count);
    CHECK_EQ_U(b->mesh_count, a->mesh_count);
    CHECK_EQ_U(b->skin_count, a->skin_count);
    CHECK_EQ_U(b->light_count, a->light_count);
    CHECK_EQ_U(b->animation_count, a->animation_count);
    CHECK_EQ_U(b->image_count, a->image_count);
    CHECK(b->name && strcmp(b->name, a->name) == 0);
    CHECK(extras_equal(test_extras_text(a->extras), test_extras_text(b->extras)));
    for (size_t i = 0; i < a->node_count && i < b->node_count; i++) {
        const ferry_scene_node *x = &a->nodes[i], *y = &b->nodes[i];
        CHECK(y->name && strcmp(x->name, y->name) == 0);
        CHECK(FY_REF(x, parent) == FY_REF(y, parent) && FY_REF(x, mesh) == FY_REF(y, mesh) && FY_REF(x, skin) == FY_REF(y, skin) && FY_REF(x, light) == FY_REF(y, light));
        CHECK(floats_equal(x->translation, y->translation, 3) && floats_equal(x->rotation, y->rotation, 4) &&
              floats_equal(x->scale, y->scale, 3));
        CHECK(extras_equal(test_extras_text(x->extras), test_extras_text(y->extras)));
    }
    if (b->mesh_count == 1 && b->meshes[0].primitive_count == 1) {
        const ferry_scene_primitive *p = &a->meshes[0].primitives[0], *q = &b->meshes[0].primitives[0];
        CHECK_EQ_U(q->vertex_count, 4);
        CHECK(floats_equal(p->positions, q->positions, 12));
        CHECK(floats_equal(p->normals, q->normals, 12));
        CHECK(q->texcoord_count == 1 && floats_equal(p->texcoords[0], q->texcoords[0], 8));
        CHECK(q->joints && memcmp(p->joints, q->joints, 16 * sizeof *q->joints) == 0);
        for (int k = 0; k < 16 && q->weights; k++) CHECK_NEAR(q->weights[k], p->weights[k], 1e-7);
        CHECK(q->index_count == 6 && memcmp(p->indices, q->indices, 6 * sizeof *q->indices) == 0);
        CHECK(FY_REF(q, material) == 0);
        CHECK(q->target_count == 1 && floats_equal(p->targets[0].positions, q->targets[0].positions, 12));
        CHECK(q->target_count == 1 && q->targets[0].name && strcmp(q->targets[0].name, "up") == 0);
    }
    if (b->material_count == 1) {
        const ferry_scene_material *m = &b->materials[0];
        CHECK(m->name && strcmp(m->name, "mat") == 0);
        CHECK(m->base_color_factor[0] == 0.5f && m->base_color_factor[1] == 1.0f);
        CHECK(FY_REF(m, base_color_image) == 0 && m->roughness_factor == 0.25f && m->metallic_factor == 0.0f);
        CHECK(extras_equal(test_extras_text(m->extras), "{\"k\":1}"));
    }
    if (b->image_count == 1) {
        CHECK(b->images[0].size == a->images[0].size && memcmp(b->images[0].data, a->images[0].data, b->images[0].size) == 0);
        CHECK(strcmp(b->images[0].mime_type, "image/png") == 0);
    }
    if (b->skin_count == 1) {
        CHECK(b->skins[0].joint_count == 2 && b->skins[0].joints[1] == 1 && FY_REF(&b->skins[0], skeleton) == 0);
        CHECK(floats_equal(b->skins[0].inverse_bind_matrices, ibm, 32));
    }
    if (b->light_count == 1) {
        const ferry_scene_light *l = &b->lights[0];
        CHECK(l->type == FERRY_LIGHT_SPOT && l->color[1] == 0.5f && l->intensity == 3 && l->range == 10);
        CHECK(l->inner_cone_angle == 0.2f && l->outer_cone_angle == 0.5f);
    }
    if (b->animation_count == 1) {
        const ferry_scene_animation *an = &b->animations[0];
        CHECK(an->name && strcmp(an->name, "move") == 0);
        CHECK_EQ_U(an->channel_count, 3);
        for (size_t c = 0; c < an->channel_count && c < 3; c++) {
            const ferry_scene_channel *x = &a->animations[0].channels[c], *y = &an->channels[c];
            size_t width = x->path == FERRY_ANIM_ROTATION ? 4 : x->path == FERRY_ANIM_WEIGHTS ? 1 : 3;
            CHECK(x->node == y->node && x->path == y->path && x->interpolation == y->interpolation);
            CHECK(y->key_count == 3 && floats_equal(x->times, y->times, 3) && floats_equal(x->values, y->values, 3 * width));
        }
    }
}

/* A file source in memory: serves the one .bin (no release: the test owns it). */
static ferry_result serve(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                          ferry_error *err)
{
    const ferry_buffer *bin = user;
    (void)max_size;
    if (strcmp(path, "my scene.bin") != 0) {
        err->code = FERRY_ERR_IO;
        return FERRY_ERR_IO;
    }
    *data = bin->data;
    *size = bin->size;
    return FERRY_OK;
}

static void test_round_trip(void)
{
    ferry_scene s;
    build_scene(&s);
    ferry_buffer glb = {0};
    ferry_error err;
    CHECK(ferry_gltf_write_glb(&s, &glb, &err) == FERRY_OK);
    ferry_scene *back = NULL;
    CHECK(ferry_gltf_read(glb.data, glb.size, NULL, &back, &err) == FERRY_OK);
    if (back) compare(&s, back);
    ferry_scene_free(back);

    /* Every shorter prefix of the .glb is refused, never read past. */
    size_t refused = 0;
    for (size_t cut = 0; cut < glb.size; cut += 7) {
        ferry_scene *part = NULL;
        refused += ferry_gltf_read(glb.data, cut, NULL, &part, &err) != FERRY_OK && part == NULL;
        ferry_scene_free(part);
    }
    CHECK_EQ_U(refused, (glb.size + 6) / 7);
    ferry_buffer_free(&glb);

    /* .gltf with an external .bin (a name that needs percent-encoding). */
    ferry_buffer json = {0}, bin = {0};
    CHECK(ferry_gltf_write_gltf(&s, "my%20scene.bin", NULL, &json, &bin, &err) == FERRY_OK);
    CHECK(ferry_gltf_read(json.data, json.size, NULL, &back, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strcmp(err.path, "buffers[0]") == 0);
    ferry_gltf_read_options ro = {0};
    ferry_file_source files = {0};
    files.load = serve;
    files.user = &bin;
    ro.files = &files;
    CHECK(ferry_gltf_read(json.data, json.size, &ro, &back, &err) == FERRY_OK);
    if (back) compare(&s, back);
    ferry_scene_free(back);
    ro.skip_images = true;
    CHECK(ferry_gltf_read(json.data, json.size, &ro, &back, &err) == FERRY_OK);
    if (back) CHECK(back->image_count == 0 && FY_REF(&back->materials[0], base_color_image) == -1);
    ferry_scene_free(back);
    ferry_buffer_free(&json);
    /* "." components name the document's folder: the source is asked for
     * "my scene.bin"; an encoded NUL is refused before the source sees it. */
    const char *const same_file[] = {"./my%20scene.bin", "././my%20scene.bin", "%2E/my%20scene.bin"};
    for (size_t i = 0; i < sizeof same_file / sizeof *same_file; i++) {
        ferry_buffer bin2 = {0};
        CHECK(ferry_gltf_write_gltf(&s, same_file[i], NULL, &json, &bin2, &err) == FERRY_OK);
        ferry_buffer_free(&bin2);
        CHECK(ferry_gltf_read(json.data, json.size, &ro, &back, &err) == FERRY_OK);
        ferry_scene_free(back);
        ferry_buffer_free(&json);
    }
    ferry_buffer bin3 = {0};
    CHECK(ferry_gltf_write_gltf(&s, "my%20scene.bin%00", NULL, &json, &bin3, &err) == FERRY_OK);
    ferry_buffer_free(&bin3);
    CHECK(ferry_gltf_read(json.data, json.size, &ro, &back, &err) == FERRY_ERR_IO && back == NULL);
    CHECK(strcmp(err.path, "buffers[0]") == 0);
    ferry_buffer_free(&json);
    ferry_buffer_free(&bin);
}

/* ---- hand-written documents ---- */

/* 48 bytes: positions (0,0,0) (1,0,0) (0,1,0) as floats at 0; indices
 * 0 1 2 as bytes at 36; texcoords (0,0) (255,0) (0,255) as bytes at 40. */
static const char base_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"buffers\":[{\"byteLength\":48,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAECAAAA/wAA/wAA\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":3},"
    "{\"buffer\":0,\"byteOffset\":40,\"byteLength\":6}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":2,\"componentType\":5121,\"normalized\":true,\"count\":3,\"type\":\"VEC2\"}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":2},\"indices\":1}]}],"
    "\"nodes\":[{\"name\":\"leaf\",\"mesh\":0},"
    "{\"name\":\"top\",\"children\":[0],\"matrix\":[2,0,0,0, 0,2,0,0, 0,0,2,0, 1,2,3,1]}],"
    "\"scenes\":[{\"nodes\":[1]}],\"scene\":0}";

static ferry_result read_text(const char *text, ferry_scene **out, ferry_error *err)
{
    return ferry_gltf_read((const uint8_t *)text, strlen(text), NULL, out, err);
}

/* The base document with one change: the value at obj[key] where obj is
 * found by `where` (a top-level key and an array index, or index -1 for
 * the top level itself). */
static ferry_result read_changed(const char *where, int index, const char *key, json_t *value, ferry_error *err)
{
    json_t *doc = json_loads(base_doc, 0, NULL);
    json_t *obj = index < 0 ? doc : json_array_get(json_object_get(doc, where), (size_t)index);
    if (value)
        json_object_set_new(obj, key, value);
    else
        json_object_del(obj, key);
    char *text = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    ferry_scene *s = NULL;
    ferry_result r = read_text(text, &s, err);
    free(text);
    if (r == FERRY_OK) CHECK(s != NULL);
    else CHECK(s == NULL);
    ferry_scene_free(s);
    return r;
}

static void test_documents(void)
{
    ferry_scene *s = NULL;
    ferry_error err;
    CHECK(read_text(base_doc, &s, &err) == FERRY_OK);
    if (s) {
        /* "top" (file node 1) is the parent of "leaf", so it comes first. */
        CHECK(s->node_count == 2 && strcmp(s->nodes[0].name, "top") == 0 && FY_REF(&s->nodes[1], parent) == 0);
        CHECK(FY_REF(&s->nodes[1], mesh) == 0);
        CHECK(s->nodes[0].translation[2] == 3 && s->nodes[0].scale[0] == 2 && s->nodes[0].rotation[3] == 1);
        const ferry_scene_primitive *p = &s->meshes[0].primitives[0];
        CHECK(p->vertex_count == 3 && p->index_count == 3 && p->indices[2] == 2);
        CHECK(p->positions[3] == 1 && p->positions[7] == 1);
        /* normalized bytes: 255 is 1.0 */
        CHECK(p->texcoords[0][2] == 1.0f && p->texcoords[0][5] == 1.0f && p->texcoords[0][1] == 0.0f);
        ferry_scene_free(s);
    }

    /* accessor 0 asks for 4 positions: 48 bytes in a 36-byte view */
    CHECK(read_changed("accessors", 0, "count", json_integer(4), &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "accessors[0]") == 0);
    /* a view past the end of its buffer */
    CHECK(read_changed("bufferViews", 2, "byteLength", json_integer(9), &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "bufferViews[2]") == 0);
    CHECK(read_changed("accessors", 1, "sparse", json_object(), &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(strcmp(err.path, "accessors[1]") == 0);
    /* positions must be floats */
    CHECK(read_changed("accessors", 0, "componentType", json_integer(5123), &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(read_changed("nodes", 0, "mesh", json_integer(5), &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "nodes[0]") == 0);
    CHECK(read_changed("nodes", 0, "mesh", json_real(0.0), &err) == FERRY_ERR_MALFORMED);
    /* a cycle: leaf's child is top */
    CHECK(read_changed("nodes", 0, "children", json_pack("[i]", 1), &err) == FERRY_ERR_MALFORMED);
    /* a node that is its own child */
    CHECK(read_changed("nodes", 0, "children", json_pack("[i]", 0), &err) == FERRY_ERR_MALFORMED);
    CHECK(read_changed(NULL, -1, "extensionsRequired", json_pack("[s]", "KHR_draco_mesh_compression"), &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(read_changed(NULL, -1, "asset", json_pack("{s:s}", "version", "1.0"), &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(read_changed("buffers", 0, "uri", json_string("data:application/octet-stream;base64,AA*A"), &err) == FERRY_ERR_MALFORMED);
    CHECK(read_changed("buffers", 0, "uri", json_string("http://example.com/x.bin"), &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(read_changed("buffers", 0, "byteLength", json_integer(49), &err) == FERRY_ERR_TRUNCATED);
    /* indices 0 1 2 read as positions of a 2-vertex primitive */
    CHECK(read_changed("accessors", 0, "count", json_integer(2), &err) == FERRY_ERR_MALFORMED);
    CHECK(strcmp(err.path, "meshes[0]/primitives[0]/TEXCOORD_0") == 0);
    {
        json_t *prims = json_pack("[{s:{s:i},s:i}]", "attributes", "POSITION", 0, "mode", 1);
        json_t *mesh_list = json_pack("[{s:o}]", "primitives", prims);
        json_t *doc = json_loads(base_doc, 0, NULL);
        json_object_set_new(doc, "meshes", mesh_list);
        char *text = json_dumps(doc, JSON_COMPACT);
        CHECK(read_text(text, &s, &err) == FERRY_ERR_UNSUPPORTED); /* lines */
        free(text);
        json_decref(doc);
    }
    {
        /* CUBICSPLINE keys hold three values each (in-tangent, value,
         * out-tangent). It used to be refused as unsupported; it is read
         * since ferry_ala_from_scene evaluates it. One key at time 0 (a new
         * accessor on the first float) with accessor 0's three VEC3 values:
         * a spline key whose value is the middle one, (1, 0, 0); the same
         * output under LINEAR holds three keys' values for one key. */
        for (int linear = 0; linear < 2; linear++) {
            json_t *doc = json_loads(base_doc, 0, NULL);
            json_array_append_new(json_object_get(doc, "accessors"),
                                  json_pack("{s:i,s:i,s:i,s:s}", "bufferView", 0, "componentType", 5126, "count", 1, "type", "SCALAR"));
            json_t *anims = json_pack("[{s:[{s:i,s:{s:i,s:s}}],s:[{s:i,s:i,s:s}]}]", "channels", "sampler", 0, "target", "node", 0,
                                      "path", "translation", "samplers", "input", 3, "output", 0, "interpolation",
                                      linear ? "LINEAR" : "CUBICSPLINE");
            json_object_set_new(doc, "animations", anims);
            char *text = json_dumps(doc, JSON_COMPACT);
            ferry_result got = read_text(text, &s, &err);
            if (linear) {
                CHECK(got == FERRY_ERR_MALFORMED);
                CHECK(strstr(err.message, "keys need") != NULL);
            } else {
                CHECK(got == FERRY_OK);
                if (got == FERRY_OK) {
                    CHECK(s->animation_count == 1 && s->animations[0].channels[0].interpolation == FERRY_INTERP_CUBICSPLINE);
                    CHECK(s->animations[0].channels[0].key_count == 1);
                    CHECK(s->animations[0].channels[0].values[3] == 1.0f && s->animations[0].channels[0].values[4] == 0.0f);
                    ferry_scene_free(s);
                    s = NULL;
                }
            }
            free(text);
            json_decref(doc);
        }
    }
    CHECK(read_text("{\"asset\":{\"version\":\"2.0\"},", &s, &err) == FERRY_ERR_MALFORMED);
    CHECK(err.offset != FERRY_NO_OFFSET);
    CHECK(read_text("[]", &s, &err) == FERRY_ERR_MALFORMED);

    /* .glb headers */
    uint8_t glb[32] = {'g', 'l', 'T', 'F', 2, 0, 0, 0, 100, 0, 0, 0};
    CHECK(ferry_gltf_read(glb, sizeof glb, NULL, &s, &err) == FERRY_ERR_TRUNCATED && err.offset == 8);
    glb[4] = 1;
    glb[8] = 32;
    CHECK(ferry_gltf_read(glb, sizeof glb, NULL, &s, &err) == FERRY_ERR_UNSUPPORTED);
    glb[4] = 2;
    glb[12] = 40; /* JSON chunk of 40 bytes in 20 */
    glb[16] = 'J', glb[17] = 'S', glb[18] = 'O', glb[19] = 'N';
    CHECK(ferry_gltf_read(glb, sizeof glb, NULL, &s, &err) == FERRY_ERR_TRUNCATED);
}

/* ---- corpus: the ALO converter's .glb read back ---- */

static void test_corpus(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/corpus/alamo", FERRY_SHARED_DIR);
    char **paths = NULL;
    size_t n = test_list_files(dir, ".alo", &paths);
    size_t done = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        ferry_alo_model *model = NULL;
        ferry_error err;
        if (!data || ferry_alo_read(data, size, NULL, &model, &err) != FERRY_OK) {
            free(data);
            continue;
        }
        ferry_alo_scene_options so = {0};
        char name[256];
        ferry_alamo_texture_folders folders;
        test_alo_scene_paths(&so, paths[i], NULL, 0, name, sizeof name, &folders);
        ferry_scene *s = NULL, *back = NULL;
        ferry_buffer glb = {0};
        if (ferry_alo_to_scene(model, &so, &s, &err) == FERRY_OK && ferry_gltf_write_glb(s, &glb, &err) == FERRY_OK) {
            CHECK_MSG(ferry_gltf_read(glb.data, glb.size, NULL, &back, &err) == FERRY_OK, "%s: %s: %s", paths[i], err.path, err.message);
            if (back) {
                CHECK(back->node_count == s->node_count && back->mesh_count == s->mesh_count && back->image_count == s->image_count);
                size_t va = 0, vb = 0;
                for (size_t m = 0; m < s->mesh_count && m < back->mesh_count; m++)
                    for (size_t p = 0; p < s->meshes[m].primitive_count; p++) va += s->meshes[m].primitives[p].vertex_count;
                for (size_t m = 0; m < back->mesh_count; m++)
                    for (size_t p = 0; p < back->meshes[m].primitive_count; p++) vb += back->meshes[m].primitives[p].vertex_count;
                CHECK_EQ_U(vb, va);
                for (size_t k = 0; k < s->node_count && k < back->node_count; k++)
                    CHECK(floats_equal(s->nodes[k].translation, back->nodes[k].translation, 3));
                done++;
            }
        }
        ferry_scene_free(back);
        ferry_scene_free(s);
        ferry_alamo_texture_folders_close(&folders);
        ferry_buffer_free(&glb);
        ferry_alo_free(model);
        free(data);
    }
    test_free_paths(paths, n);
    printf("corpus: %zu models read back\n", done);
}

int main(void)
{
    test_round_trip();
    test_documents();
    if (test_dir_exists(FERRY_SHARED_DIR)) test_corpus();
    else TEST_LEFT_OUT("corpus part (%s is absent)", FERRY_SHARED_DIR);
    ferry_buffer_free(&png);
    TEST_END();
}
