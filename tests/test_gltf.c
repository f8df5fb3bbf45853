/* The glTF writer: hand-built scenes written as .glb and .gltf into a temp
 * folder, read back with jansson and checked for structure; input errors;
 * and, where node and tests/gltf/node_modules exist, the Khronos validator
 * on every file written (zero errors required). */
#define _POSIX_C_SOURCE 200809L
#include <ferry/gltf.h>

#include <jansson.h>
#include <math.h>
#include <png.h>
#include <stdint.h>

#include "core/platform.h"
#include "support.h"
#include "test.h"

#define HALF_PI 1.5707963267948966

static char tmpdir[512];
static bool keep_tmpdir; /* FERRY_TEST_OUTPUTS: kept for tests/windows/outputs.sh */
/* Every file the validator should see. */
static char *written[32];
static size_t written_count;

static void remember(const char *path)
{
    if (written_count < sizeof written / sizeof written[0]) written[written_count++] = strdup(path);
}

/* ---- a 2x2 PNG made with libpng ---- */

static void png_append(png_structp png, png_bytep data, png_size_t n)
{
    ferry_buffer *b = png_get_io_ptr(png);
    uint8_t *p = realloc(b->data, b->size + n);
    if (!p) png_error(png, "out of memory");
    memcpy(p + b->size, data, n);
    b->data = p;
    b->size += n;
}

static void png_flush(png_structp png) { (void)png; }

static bool make_png(ferry_buffer *out)
{
    static const uint8_t pixels[2][8] = {{255, 0, 0, 255, 0, 255, 0, 255}, {0, 0, 255, 255, 255, 255, 255, 128}};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) return false;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, out, png_append, png_flush);
    png_set_IHDR(png, info, 2, 2, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < 2; y++) png_write_row(png, pixels[y]);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return true;
}

/* ---- scenes ---- */

static const float tri_positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
static const uint32_t tri_indices[] = {0, 1, 2};

static void triangle_scene(ferry_scene *s, ferry_scene_node *node, ferry_scene_mesh *mesh, ferry_scene_primitive *prim)
{
    memset(s, 0, sizeof *s);
    memset(mesh, 0, sizeof *mesh);
    memset(prim, 0, sizeof *prim);
    ferry_scene_node_init(node);
    node->name = "triangle";
    FY_SET_REF(node, mesh, 0);
    prim->vertex_count = 3;
    prim->positions = tri_positions;
    prim->indices = tri_indices;
    prim->index_count = 3;
    prim->mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(prim, material, -1);
    mesh->primitives = prim;
    mesh->primitive_count = 1;
    s->nodes = node;
    s->node_count = 1;
    s->meshes = mesh;
    s->mesh_count = 1;
}

/* Everything at once: textured material, points, skinning with two
 * animations, morph targets, lights, a hierarchy and extras. */
enum { N_ROOT, N_BONE0, N_BONE1, N_SKINNED, N_MORPH, N_POINT, N_SUN, N_SPOT, N_TEXTURED, N_COUNT };

static ferry_scene_node full_nodes[N_COUNT];
static ferry_scene_mesh full_meshes[3];
static ferry_scene_primitive textured_prims[2], skinned_prim, morph_prim;
static ferry_scene_morph_target morph_targets[2];
static ferry_scene_material full_materials[2];
static ferry_scene_image full_image;
static ferry_scene_skin full_skin;
static ferry_scene_light full_lights[3];
static ferry_scene_channel skin_channels[2], morph_channels[1];
static ferry_scene_animation full_animations[2];

static const float tex_normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
static const float tex_tangents[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, -1};
static const float tex_uv0[] = {0, 0, 1, 0, 0, 1};
static const float tex_uv1[] = {0, 0, 0.5f, 0, 0, 0.5f};
static const float tex_colors[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0.5f};
static const float point_positions[] = {-1, -1, -1, 2, 3, 4};

static const float skin_positions[] = {-0.5f, 0, 0, 0.5f, 0, 0, -0.5f, 1, 0, 0.5f, 1, 0, -0.5f, 2, 0, 0.5f, 2, 0};
static const uint16_t skin_joints[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
/* 0.6 + 0.39 is 1% short: the writer renormalizes what the validator would refuse. */
static const float skin_weights[] = {1, 0, 0, 0, 1, 0, 0, 0, 0.6f, 0.39f, 0, 0, 0.2f, 0.8f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
static const uint32_t skin_indices[] = {0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4};
static const int32_t skin_joint_nodes[] = {N_BONE0, N_BONE1};
static const float skin_ibm[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                                 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1.0000001f};
static const float rot_times[] = {0, 1};
static const float rot_values[] = {0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f};
static const float step_times[] = {0, 0.5f, 1};
static const float step_values[] = {0, 0, 0, 0, 0.25f, 0, 0, 0.5f, 0};

static const float morph_d0[] = {0, 0, 0.5f, 0, 0, 0, 0, 0, 0};
static const float morph_d1[] = {0, 0, 0, 0.25f, 0, 0, 0, -0.25f, 0};
static const float morph_n[] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
static const float morph_default[] = {0.25f, 0};
static const float morph_times[] = {0, 1, 2};
static const float morph_values[] = {0, 0, 1, 0.5f, 0, 1};

static void full_scene(ferry_scene *s, const uint8_t *png, size_t png_size)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < N_COUNT; i++) ferry_scene_node_init(&full_nodes[i]);
    full_nodes[N_ROOT].name = "root";
    full_nodes[N_ROOT].extras = test_extras_parse("{\"id\": 7, \"tags\": [\"a\", \"b\"]}");
    full_nodes[N_BONE0].name = "bone0";
    FY_SET_REF(&full_nodes[N_BONE0], parent, N_ROOT);
    full_nodes[N_BONE1].name = "bone1";
    FY_SET_REF(&full_nodes[N_BONE1], parent, N_BONE0);
    full_nodes[N_BONE1].translation[1] = 1;
    full_nodes[N_SKINNED].name = "skinned";
    FY_SET_REF(&full_nodes[N_SKINNED], mesh, 1);
    FY_SET_REF(&full_nodes[N_SKINNED], skin, 0);
    full_nodes[N_MORPH].name = "morph";
    FY_SET_REF(&full_nodes[N_MORPH], mesh, 2);
    full_nodes[N_MORPH].translation[0] = 3;
    full_nodes[N_POINT].name = "point light";
    FY_SET_REF(&full_nodes[N_POINT], parent, N_ROOT);
    FY_SET_REF(&full_nodes[N_POINT], light, 0);
    full_nodes[N_POINT].translation[2] = 2;
    full_nodes[N_SUN].name = "sun";
    FY_SET_REF(&full_nodes[N_SUN], parent, N_ROOT);
    FY_SET_REF(&full_nodes[N_SUN], light, 1);
    full_nodes[N_SUN].rotation[0] = -0.70710677f;
    full_nodes[N_SUN].rotation[3] = 0.70710677f;
    full_nodes[N_SPOT].name = "spot";
    FY_SET_REF(&full_nodes[N_SPOT], parent, N_SUN);
    FY_SET_REF(&full_nodes[N_SPOT], light, 2);
    full_nodes[N_SPOT].scale[0] = 2;
    full_nodes[N_TEXTURED].name = "textured";
    FY_SET_REF(&full_nodes[N_TEXTURED], parent, N_ROOT);
    FY_SET_REF(&full_nodes[N_TEXTURED], mesh, 0);

    /* mesh 0: a textured triangle and a point cloud */
    memset(textured_prims, 0, sizeof textured_prims);
    ferry_scene_primitive *p = &textured_prims[0];
    p->vertex_count = 3;
    p->positions = tri_positions;
    p->normals = tex_normals;
    p->tangents = tex_tangents;
    p->texcoords[0] = tex_uv0;
    p->texcoords[1] = tex_uv1;
    p->texcoord_count = 2;
    p->colors = tex_colors;
    p->indices = tri_indices;
    p->index_count = 3;
    p->mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(p, material, 0);
    p->extras = test_extras_parse("{\"source\": \"hand\"}");
    p = &textured_prims[1];
    p->vertex_count = 2;
    p->positions = point_positions;
    p->mode = FERRY_PRIMITIVE_POINTS;
    FY_SET_REF(p, material, 1);
    memset(full_meshes, 0, sizeof full_meshes);
    full_meshes[0].name = "textured";
    full_meshes[0].primitives = textured_prims;
    full_meshes[0].primitive_count = 2;
    full_meshes[0].extras = test_extras_parse("{\"lod\": 0}");

    /* mesh 1: two bones */
    memset(&skinned_prim, 0, sizeof skinned_prim);
    skinned_prim.vertex_count = 6;
    skinned_prim.positions = skin_positions;
    skinned_prim.joints = skin_joints;
    skinned_prim.weights = skin_weights;
    skinned_prim.indices = skin_indices;
    skinned_prim.index_count = 12;
    skinned_prim.mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(&skinned_prim, material, -1);
    full_meshes[1].name = "skinned";
    full_meshes[1].primitives = &skinned_prim;
    full_meshes[1].primitive_count = 1;

    /* mesh 2: morph targets */
    memset(&morph_prim, 0, sizeof morph_prim);
    morph_targets[0] = (ferry_scene_morph_target){morph_d0, morph_n, "up"};
    morph_targets[1] = (ferry_scene_morph_target){morph_d1, morph_n, "pinch"};
    morph_prim.vertex_count = 3;
    morph_prim.positions = tri_positions;
    morph_prim.normals = tex_normals;
    morph_prim.mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(&morph_prim, material, -1);
    morph_prim.targets = morph_targets;
    morph_prim.target_count = 2;
    full_meshes[2].name = "morph";
    full_meshes[2].primitives = &morph_prim;
    full_meshes[2].primitive_count = 1;
    full_meshes[2].default_weights = morph_default;

    full_image = (ferry_scene_image){"checker", "image/png", png, png_size, NULL, NULL};
    ferry_scene_material_init(&full_materials[0]);
    full_materials[0].name = "textured";
    full_materials[0].base_color_factor[1] = 0.5f;
    FY_SET_REF(&full_materials[0], base_color_image, 0);
    FY_SET_REF(&full_materials[0], normal_image, 0);
    full_materials[0].normal_texcoord = 1;
    full_materials[0].normal_scale = 0.5f;
    FY_SET_REF(&full_materials[0], emissive_image, 0);
    full_materials[0].emissive_factor[0] = 0.25f;
    full_materials[0].roughness_factor = 0.75f;
    full_materials[0].alpha_mode = FERRY_ALPHA_MASK;
    full_materials[0].alpha_cutoff = 0.25f;
    full_materials[0].double_sided = true;
    full_materials[0].extras = test_extras_parse("{\"shader\": \"MeshBumpColorize.fx\"}");
    ferry_scene_material_init(&full_materials[1]);
    full_materials[1].name = "glow";
    full_materials[1].alpha_mode = FERRY_ALPHA_BLEND;
    full_materials[1].unlit = true;

    full_skin = (ferry_scene_skin){.name = "skin", .joints = skin_joint_nodes, .joint_count = 2, .inverse_bind_matrices = skin_ibm};
    FY_SET_REF(&full_skin, skeleton, N_BONE0);

    full_lights[0] = (ferry_scene_light){"point", FERRY_LIGHT_POINT, {1, 0.5f, 0.25f}, 10, 5, 0, 0};
    full_lights[1] = (ferry_scene_light){"sun", FERRY_LIGHT_DIRECTIONAL, {1, 1, 1}, 3, 0, 0, 0};
    /* (float)(pi/2) is above the schema's maximum: the writer must clamp. */
    full_lights[2] = (ferry_scene_light){"spot", FERRY_LIGHT_SPOT, {1, 1, 1}, 20, 0, 0.25f, (float)HALF_PI};

    skin_channels[0] = (ferry_scene_channel){N_BONE1, FERRY_ANIM_ROTATION, FERRY_INTERP_LINEAR, rot_times, 2, rot_values};
    skin_channels[1] = (ferry_scene_channel){N_BONE0, FERRY_ANIM_TRANSLATION, FERRY_INTERP_STEP, step_times, 3, step_values};
    morph_channels[0] = (ferry_scene_channel){N_MORPH, FERRY_ANIM_WEIGHTS, FERRY_INTERP_LINEAR, morph_times, 3, morph_values};
    full_animations[0] = (ferry_scene_animation){"bend", skin_channels, 2, test_extras_parse("{\"fps\": 30}")};
    full_animations[1] = (ferry_scene_animation){"morph", morph_channels, 1, NULL};

    s->nodes = full_nodes;
    s->node_count = N_COUNT;
    s->meshes = full_meshes;
    s->mesh_count = 3;
    s->materials = full_materials;
    s->material_count = 2;
    s->images = &full_image;
    s->image_count = 1;
    s->skins = &full_skin;
    s->skin_count = 1;
    s->lights = full_lights;
    s->light_count = 3;
    s->animations = full_animations;
    s->animation_count = 2;
    s->name = "full";
    s->extras = test_extras_parse("{\"source\": \"test_gltf\"}");
    s->generator = "test_gltf";
}

/* ---- reading back ---- */

static json_t *jat(json_t *root, const char *array, size_t i) { return json_array_get(json_object_get(root, array), i); }
static long long jint(json_t *obj, const char *key) { return json_integer_value(json_object_get(obj, key)); }
static size_t jcount(json_t *root, const char *array) { return json_array_size(json_object_get(root, array)); }

/* Parses a .glb's container and checks its layout; returns the JSON. */
static json_t *read_glb(const char *path, size_t *bin_len)
{
    size_t size = 0;
    uint8_t *d = test_read_file(path, &size);
    CHECK(d != NULL);
    if (!d) return NULL;
    json_t *root = NULL;
    *bin_len = 0;
    CHECK(size >= 20 && size % 4 == 0);
    uint32_t w[5];
    memcpy(w, d, 20);
    CHECK_EQ_U(w[0], 0x46546C67u);
    CHECK_EQ_U(w[1], 2);
    CHECK_EQ_U(w[2], size);
    CHECK_EQ_U(w[4], 0x4E4F534Au);
    CHECK(w[3] % 4 == 0 && 20 + (size_t)w[3] <= size);
    if (20 + (size_t)w[3] <= size) {
        json_error_t jerr;
        root = json_loadb((const char *)d + 20, w[3], 0, &jerr);
        CHECK_MSG(root != NULL, "%s: %s", path, jerr.text);
        size_t at = 20 + w[3];
        if (at < size) {
            uint32_t c[2];
            memcpy(c, d + at, 8);
            CHECK_EQ_U(c[1], 0x004E4942u);
            CHECK(c[0] % 4 == 0);
            CHECK_EQ_U(at + 8 + c[0], size);
            *bin_len = c[0];
        }
    }
    free(d);
    return root;
}

/* Checks what every written document must satisfy: aligned views inside
 * the buffer, accessors inside their views, POSITION with min/max. */
static void check_layout(json_t *root, size_t bin_len)
{
    CHECK(json_is_string(json_object_get(json_object_get(root, "asset"), "version")));
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(root, "asset"), "version")), "2.0") == 0);
    size_t byte_length = jcount(root, "buffers") ? (size_t)jint(jat(root, "buffers", 0), "byteLength") : 0;
    CHECK(byte_length <= bin_len && bin_len - byte_length < 4);
    for (size_t i = 0; i < jcount(root, "bufferViews"); i++) {
        json_t *v = jat(root, "bufferViews", i);
        size_t off = (size_t)jint(v, "byteOffset"), len = (size_t)jint(v, "byteLength");
        CHECK(off % 4 == 0);
        CHECK(off + len <= byte_length);
    }
    static const size_t comp_size[] = {[5123 - 5120] = 2, [5125 - 5120] = 4, [5126 - 5120] = 4};
    for (size_t i = 0; i < jcount(root, "accessors"); i++) {
        json_t *a = jat(root, "accessors", i);
        const char *type = json_string_value(json_object_get(a, "type"));
        size_t n = strcmp(type, "SCALAR") == 0 ? 1 : strcmp(type, "MAT4") == 0 ? 16 : (size_t)(type[3] - '0');
        long long ct = jint(a, "componentType");
        CHECK(ct == 5123 || ct == 5125 || ct == 5126);
        json_t *v = jat(root, "bufferViews", (size_t)jint(a, "bufferView"));
        CHECK(v != NULL);
        CHECK((size_t)jint(a, "count") * n * comp_size[ct - 5120] == (size_t)jint(v, "byteLength"));
    }
    for (size_t m = 0; m < jcount(root, "meshes"); m++) {
        json_t *prims = json_object_get(jat(root, "meshes", m), "primitives");
        for (size_t p = 0; p < json_array_size(prims); p++) {
            json_t *pos = json_object_get(json_object_get(json_array_get(prims, p), "attributes"), "POSITION");
            json_t *a = jat(root, "accessors", (size_t)json_integer_value(pos));
            CHECK(json_array_size(json_object_get(a, "min")) == 3 && json_array_size(json_object_get(a, "max")) == 3);
        }
    }
}

static void check_full_json(json_t *root)
{
    json_t *asset = json_object_get(root, "asset");
    CHECK(strcmp(json_string_value(json_object_get(asset, "generator")), "test_gltf") == 0);
    CHECK_EQ_U(jcount(root, "nodes"), N_COUNT);
    CHECK_EQ_U(jcount(root, "meshes"), 3);
    CHECK_EQ_U(jcount(root, "materials"), 2);
    CHECK_EQ_U(jcount(root, "images"), 1);
    CHECK_EQ_U(jcount(root, "textures"), 1);
    CHECK_EQ_U(jcount(root, "samplers"), 1);
    CHECK_EQ_U(jcount(root, "skins"), 1);
    CHECK_EQ_U(jcount(root, "animations"), 2);
    CHECK_EQ_U(jcount(root, "extensionsUsed"), 2);
    CHECK(json_object_get(root, "extensionsRequired") == NULL);
    CHECK_EQ_U(json_array_size(json_object_get(json_object_get(json_object_get(root, "extensions"), "KHR_lights_punctual"), "lights")), 3);

    /* scene: the roots, in node order */
    json_t *scene = jat(root, "scenes", 0);
    json_t *roots = json_object_get(scene, "nodes");
    CHECK_EQ_U(json_array_size(roots), 3);
    CHECK_EQ_U(json_integer_value(json_array_get(roots, 0)), N_ROOT);
    CHECK_EQ_U(json_integer_value(json_array_get(roots, 1)), N_SKINNED);
    CHECK_EQ_U(json_integer_value(json_array_get(roots, 2)), N_MORPH);
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(scene, "extras"), "source")), "test_gltf") == 0);

    json_t *rootnode = jat(root, "nodes", N_ROOT);
    json_t *children = json_object_get(rootnode, "children");
    CHECK_EQ_U(json_array_size(children), 4); /* bone0, point, sun, textured */
    CHECK_EQ_U(jint(json_object_get(rootnode, "extras"), "id"), 7);
    CHECK(json_object_get(rootnode, "translation") == NULL); /* defaults left out */
    CHECK(json_object_get(rootnode, "rotation") == NULL);
    CHECK(json_object_get(jat(root, "nodes", N_BONE1), "children") == NULL); /* never an empty array */
    CHECK_EQ_U(json_array_size(json_object_get(jat(root, "nodes", N_SUN), "children")), 1);
    json_t *skinned = jat(root, "nodes", N_SKINNED);
    CHECK_EQ_U(jint(skinned, "mesh"), 1);
    CHECK_EQ_U(jint(skinned, "skin"), 0);
    CHECK_EQ_U(jint(json_object_get(json_object_get(jat(root, "nodes", N_SPOT), "extensions"), "KHR_lights_punctual"), "light"), 2);

    /* lights */
    json_t *lights = json_object_get(json_object_get(json_object_get(root, "extensions"), "KHR_lights_punctual"), "lights");
    CHECK(strcmp(json_string_value(json_object_get(json_array_get(lights, 1), "type")), "directional") == 0);
    CHECK(json_object_get(json_array_get(lights, 1), "range") == NULL);
    CHECK_NEAR(json_real_value(json_object_get(json_array_get(lights, 0), "range")), 5, 0);
    double outer = json_real_value(json_object_get(json_object_get(json_array_get(lights, 2), "spot"), "outerConeAngle"));
    CHECK(outer <= HALF_PI && outer > 1.5707);

    /* material 0 */
    json_t *mat = jat(root, "materials", 0);
    json_t *pbr = json_object_get(mat, "pbrMetallicRoughness");
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(pbr, "baseColorFactor"), 1)), 0.5, 0);
    CHECK_EQ_U(jint(json_object_get(pbr, "baseColorTexture"), "index"), 0);
    CHECK(json_object_get(json_object_get(pbr, "baseColorTexture"), "texCoord") == NULL);
    CHECK_NEAR(json_real_value(json_object_get(pbr, "metallicFactor")), 0, 0);
    CHECK_NEAR(json_real_value(json_object_get(pbr, "roughnessFactor")), 0.75, 0);
    CHECK_EQ_U(jint(json_object_get(mat, "normalTexture"), "texCoord"), 1);
    CHECK_NEAR(json_real_value(json_object_get(json_object_get(mat, "normalTexture"), "scale")), 0.5, 0);
    CHECK(json_object_get(mat, "emissiveTexture") != NULL);
    CHECK(strcmp(json_string_value(json_object_get(mat, "alphaMode")), "MASK") == 0);
    CHECK_NEAR(json_real_value(json_object_get(mat, "alphaCutoff")), 0.25, 0);
    CHECK(json_is_true(json_object_get(mat, "doubleSided")));
    CHECK(json_object_get(json_object_get(mat, "extras"), "shader") != NULL);
    json_t *mat1 = jat(root, "materials", 1);
    CHECK(json_object_get(json_object_get(mat1, "extensions"), "KHR_materials_unlit") != NULL);
    CHECK(strcmp(json_string_value(json_object_get(mat1, "alphaMode")), "BLEND") == 0);

    /* mesh 0: attributes, points mode, primitive extras */
    json_t *prim = json_array_get(json_object_get(jat(root, "meshes", 0), "primitives"), 0);
    json_t *attr = json_object_get(prim, "attributes");
    CHECK_EQ_U(json_object_size(attr), 6); /* POSITION NORMAL TANGENT TEXCOORD_0 TEXCOORD_1 COLOR_0 */
    json_t *tan = jat(root, "accessors", (size_t)jint(attr, "TANGENT"));
    CHECK(strcmp(json_string_value(json_object_get(tan, "type")), "VEC4") == 0);
    json_t *col = jat(root, "accessors", (size_t)jint(attr, "COLOR_0"));
    CHECK(strcmp(json_string_value(json_object_get(col, "type")), "VEC4") == 0);
    CHECK_EQ_U(jint(col, "componentType"), 5126);
    json_t *idx = jat(root, "accessors", (size_t)jint(prim, "indices"));
    CHECK_EQ_U(jint(idx, "componentType"), 5123);
    CHECK(strcmp(json_string_value(json_object_get(json_object_get(prim, "extras"), "source")), "hand") == 0);
    json_t *points = json_array_get(json_object_get(jat(root, "meshes", 0), "primitives"), 1);
    CHECK_EQ_U(jint(points, "mode"), 0);
    CHECK(json_object_get(points, "indices") == NULL);
    json_t *pos = jat(root, "accessors", (size_t)jint(json_object_get(points, "attributes"), "POSITION"));
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(pos, "min"), 0)), -1, 0);
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(pos, "max"), 2)), 4, 0);

    /* mesh 1: skinning */
    json_t *sprim = json_array_get(json_object_get(jat(root, "meshes", 1), "primitives"), 0);
    json_t *sattr = json_object_get(sprim, "attributes");
    json_t *joints = jat(root, "accessors", (size_t)jint(sattr, "JOINTS_0"));
    CHECK_EQ_U(jint(joints, "componentType"), 5123);
    CHECK(strcmp(json_string_value(json_object_get(joints, "type")), "VEC4") == 0);
    CHECK_EQ_U(jint(jat(root, "accessors", (size_t)jint(sattr, "WEIGHTS_0")), "componentType"), 5126);
    json_t *skin = jat(root, "skins", 0);
    CHECK_EQ_U(json_array_size(json_object_get(skin, "joints")), 2);
    CHECK_EQ_U(jint(skin, "skeleton"), N_BONE0);
    json_t *ibm = jat(root, "accessors", (size_t)jint(skin, "inverseBindMatrices"));
    CHECK(strcmp(json_string_value(json_object_get(ibm, "type")), "MAT4") == 0);
    CHECK_EQ_U(jint(ibm, "count"), 2);

    /* mesh 2: morph targets */
    json_t *mmesh = jat(root, "meshes", 2);
    CHECK_EQ_U(json_array_size(json_object_get(mmesh, "weights")), 2);
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(mmesh, "weights"), 0)), 0.25, 0);
    json_t *names = json_object_get(json_object_get(mmesh, "extras"), "targetNames");
    CHECK(strcmp(json_string_value(json_array_get(names, 1)), "pinch") == 0);
    json_t *targets = json_object_get(json_array_get(json_object_get(mmesh, "primitives"), 0), "targets");
    CHECK_EQ_U(json_array_size(targets), 2);
    json_t *tpos = jat(root, "accessors", (size_t)jint(json_array_get(targets, 1), "POSITION"));
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(tpos, "min"), 1)), -0.25, 0);
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(tpos, "max"), 0)), 0.25, 0);

    /* animations */
    json_t *bend = jat(root, "animations", 0);
    CHECK_EQ_U(jcount(bend, "channels"), 2);
    CHECK_EQ_U(jcount(bend, "samplers"), 2);
    CHECK(json_object_get(jat(bend, "samplers", 0), "interpolation") == NULL); /* LINEAR is the default */
    CHECK(strcmp(json_string_value(json_object_get(jat(bend, "samplers", 1), "interpolation")), "STEP") == 0);
    json_t *input = jat(root, "accessors", (size_t)jint(jat(bend, "samplers", 1), "input"));
    CHECK_NEAR(json_real_value(json_array_get(json_object_get(input, "max"), 0)), 1, 0);
    CHECK_EQ_U(jint(json_object_get(bend, "extras"), "fps"), 30);
    json_t *morph = jat(root, "animations", 1);
    json_t *target = json_object_get(jat(morph, "channels", 0), "target");
    CHECK(strcmp(json_string_value(json_object_get(target, "path")), "weights") == 0);
    json_t *out = jat(root, "accessors", (size_t)jint(jat(morph, "samplers", 0), "output"));
    CHECK_EQ_U(jint(out, "count"), 6);
}

/* ---- the validator ---- */

static bool validator_available(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/gltf/node_modules/gltf-validator", FERRY_SOURCE_DIR);
    return system("command -v node >/dev/null 2>&1") == 0 && test_dir_exists(path);
}

static void run_validator(void)
{
#ifdef _WIN32
    TEST_NOT_ON_WINDOWS("the Khronos validator: it runs on node, a Linux program here; tests/windows/outputs.sh "
                        "finds the files written here byte-identical to the Linux build's, which it validates");
    return;
#endif
    if (!validator_available()) {
        TEST_LEFT_OUT("the Khronos validator (needs node and tests/gltf/node_modules: cd tests/gltf && npm ci)");
        return;
    }
    size_t len = 256;
    for (size_t i = 0; i < written_count; i++) len += strlen(written[i]) + 3;
    char *cmd = malloc(len);
    snprintf(cmd, len, "node '%s/tests/gltf/validate.mjs'", FERRY_SOURCE_DIR);
    for (size_t i = 0; i < written_count; i++) {
        strcat(cmd, " '");
        strcat(cmd, written[i]);
        strcat(cmd, "'");
    }
    fflush(stdout);
    int status = system(cmd);
    CHECK_MSG(status == 0, "the Khronos validator reported errors (status %d)", status);
    free(cmd);
}

/* ---- tests ---- */

static void test_triangle(void)
{
    ferry_scene s;
    ferry_scene_node node;
    ferry_scene_mesh mesh;
    ferry_scene_primitive prim;
    triangle_scene(&s, &node, &mesh, &prim);
    ferry_buffer out = {0};
    ferry_error err;
    CHECK(ferry_gltf_write_glb(&s, &out, &err) == FERRY_OK);
    CHECK(out.size % 4 == 0);
    ferry_buffer_free(&out);

    char path[640];
    snprintf(path, sizeof path, "%s/triangle.glb", tmpdir);
    CHECK(ferry_gltf_save(&s, path, NULL, &err) == FERRY_OK);
    remember(path);
    size_t bin_len;
    json_t *root = read_glb(path, &bin_len);
    if (root) {
        check_layout(root, bin_len);
        CHECK(strncmp(json_string_value(json_object_get(json_object_get(root, "asset"), "generator")), "ferry ", 6) == 0);
        CHECK_EQ_U(jcount(root, "accessors"), 2);
        CHECK_EQ_U(jcount(root, "bufferViews"), 2);
        CHECK(json_object_get(root, "materials") == NULL);
        CHECK(json_object_get(root, "extensionsUsed") == NULL);
        json_t *pos = jat(root, "accessors", 0);
        CHECK_NEAR(json_real_value(json_array_get(json_object_get(pos, "max"), 1)), 1, 0);
        /* 3 positions (36 bytes) then 3 u16 indices (6 bytes) */
        CHECK_EQ_U(jint(jat(root, "buffers", 0), "byteLength"), 42);
        CHECK_EQ_U(bin_len, 44);
        json_decref(root);
    }

    /* The extension decides, in any case. */
    snprintf(path, sizeof path, "%s/TRIANGLE.GLTF", tmpdir);
    CHECK(ferry_gltf_save(&s, path, NULL, &err) == FERRY_OK);
    remember(path);
    snprintf(path, sizeof path, "%s/TRIANGLE.bin", tmpdir);
    fy_file_info st;
    CHECK(fy_path_info(path, true, &st) == 0 && st.kind == FY_KIND_REGULAR && st.size == 42);
}

static void test_full(void)
{
    ferry_buffer png = {0};
    CHECK(make_png(&png));
    ferry_scene s;
    full_scene(&s, png.data, png.size);
    ferry_error err;
    char path[640], msg[400];

    snprintf(path, sizeof path, "%s/full.glb", tmpdir);
    ferry_result r = ferry_gltf_save(&s, path, NULL, &err);
    ferry_error_format(&err, msg, sizeof msg);
    CHECK_MSG(r == FERRY_OK, "%s", msg);
    remember(path);
    size_t bin_len;
    json_t *root = read_glb(path, &bin_len);
    if (root) {
        check_layout(root, bin_len);
        check_full_json(root);
        json_t *image = jat(root, "images", 0);
        CHECK(json_object_get(image, "uri") == NULL);
        CHECK(strcmp(json_string_value(json_object_get(image, "mimeType")), "image/png") == 0);
        json_t *view = jat(root, "bufferViews", (size_t)jint(image, "bufferView"));
        CHECK_EQ_U(jint(view, "byteLength"), png.size);
        json_decref(root);
    }

    /* .gltf: a name with a space exercises the URI encoding */
    snprintf(path, sizeof path, "%s/full scene.gltf", tmpdir);
    r = ferry_gltf_save(&s, path, NULL, &err);
    ferry_error_format(&err, msg, sizeof msg);
    CHECK_MSG(r == FERRY_OK, "%s", msg);
    remember(path);
    json_error_t jerr;
    root = json_load_file(path, 0, &jerr);
    CHECK_MSG(root != NULL, "%s", jerr.text);
    if (root) {
        json_t *buffer = jat(root, "buffers", 0);
        CHECK(strcmp(json_string_value(json_object_get(buffer, "uri")), "full%20scene.bin") == 0);
        snprintf(path, sizeof path, "%s/full scene.bin", tmpdir);
        fy_file_info st;
        CHECK(fy_path_info(path, true, &st) == 0 && st.kind == FY_KIND_REGULAR);
        check_layout(root, (size_t)st.size + (4 - st.size % 4) % 4);
        CHECK_EQ_U(jint(buffer, "byteLength"), st.size);
        check_full_json(root);
        json_t *image = jat(root, "images", 0);
        CHECK(strcmp(json_string_value(json_object_get(image, "uri")), "full%20scene_image0.png") == 0);
        CHECK(json_object_get(image, "bufferView") == NULL);
        snprintf(path, sizeof path, "%s/full scene_image0.png", tmpdir);
        size_t size = 0;
        uint8_t *d = test_read_file(path, &size);
        CHECK(d && size == png.size && memcmp(d, png.data, size) == 0);
        free(d);
        json_decref(root);
    }

    /* write_gltf without image URIs embeds the images in the buffer. */
    ferry_buffer json = {0}, bin = {0};
    CHECK(ferry_gltf_write_gltf(&s, "x.bin", NULL, &json, &bin, &err) == FERRY_OK);
    root = json_loadb((const char *)json.data, json.size, 0, &jerr);
    CHECK(root && json_object_get(jat(root, "images", 0), "bufferView") != NULL);
    json_decref(root);

    /* A .glb writes the image's bytes from where the scene holds them,
     * between its own (the skins' and animations' data come after it): its
     * binary chunk is byte for byte the buffer write_gltf copied them into,
     * in memory and in the saved file alike. */
    ferry_buffer glb = {0};
    CHECK(ferry_gltf_write_glb(&s, &glb, &err) == FERRY_OK);
    snprintf(path, sizeof path, "%s/full.glb", tmpdir);
    size_t saved_size = 0;
    uint8_t *saved = test_read_file(path, &saved_size);
    CHECK(saved && saved_size == glb.size && memcmp(saved, glb.data, glb.size) == 0);
    free(saved);
    size_t json_len = glb.size >= 20 ? (size_t)glb.data[12] | (size_t)glb.data[13] << 8 | (size_t)glb.data[14] << 16 |
                                           (size_t)glb.data[15] << 24
                                     : 0;
    size_t at = 20 + json_len;
    CHECK(at + 8 <= glb.size && glb.size - at - 8 == ((bin.size + 3) & ~(size_t)3));
    if (at + 8 <= glb.size && glb.size - at - 8 == ((bin.size + 3) & ~(size_t)3)) {
        CHECK(memcmp(glb.data + at + 4, "BIN", 4) == 0);
        CHECK_MSG(memcmp(glb.data + at + 8, bin.data, bin.size) == 0, "the .glb's binary chunk is not write_gltf's buffer");
        for (size_t i = at + 8 + bin.size; i < glb.size; i++) CHECK(glb.data[i] == 0);
    }
    ferry_buffer_free(&glb);
    ferry_buffer_free(&json);
    ferry_buffer_free(&bin);
    ferry_buffer_free(&png);
}

static void test_big_indices(void)
{
    /* 70000 vertices do not fit 16-bit indices. */
    size_t n = 70002;
    float *pos = calloc(n * 3, sizeof *pos);
    uint32_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++) {
        pos[i * 3] = (float)(i % 3);
        pos[i * 3 + 1] = (float)(i / 3);
        idx[i] = (uint32_t)i;
    }
    ferry_scene s;
    ferry_scene_node node;
    ferry_scene_mesh mesh;
    ferry_scene_primitive prim;
    triangle_scene(&s, &node, &mesh, &prim);
    prim.vertex_count = n;
    prim.positions = pos;
    prim.indices = idx;
    prim.index_count = n;
    char path[640];
    ferry_error err;
    snprintf(path, sizeof path, "%s/big.glb", tmpdir);
    CHECK(ferry_gltf_save(&s, path, NULL, &err) == FERRY_OK);
    remember(path);
    size_t bin_len;
    json_t *root = read_glb(path, &bin_len);
    if (root) {
        check_layout(root, bin_len);
        CHECK_EQ_U(jint(jat(root, "accessors", 1), "componentType"), 5125);
        json_decref(root);
    }
    free(pos);
    free(idx);
}

static void expect_error(const ferry_scene *s, const char *needle, int line)
{
    ferry_buffer out = {0};
    ferry_error err;
    ferry_result r = ferry_gltf_write_glb(s, &out, &err);
    CHECK_MSG(r == FERRY_ERR_ARGUMENT, "line %d: result %d", line, (int)r);
    CHECK_MSG(strstr(err.message, needle) != NULL, "line %d: \"%s\" lacks \"%s\"", line, err.message, needle);
    CHECK(out.size == 0);
    ferry_buffer_free(&out);
}
#define EXPECT_ERROR(s, needle) expect_error(s, needle, __LINE__)

/* Non-finite values are looked for in blocks of 64 floats: one is found,
 * and named at its index, wherever it lies (first block, a block's first
 * or last float, the tail after the last whole block), and the largest
 * finite float is not taken for one. */
static void test_nonfinite_anywhere(void)
{
    enum { N = 300 }; /* 900 floats: 14 whole blocks and a tail of 4 */
    static float pos[N * 3];
    static uint32_t idx[N];
    ferry_scene s;
    ferry_scene_node node;
    ferry_scene_mesh mesh;
    ferry_scene_primitive prim;
    static const size_t at[] = {0, 5, 63, 64, 127, 128, 700, 895, 896, 899};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        for (size_t i = 0; i < N * 3; i++) pos[i] = (i % 2 ? 1 : -1) * 3.4028235e38f; /* FLT_MAX */
        for (size_t i = 0; i < N; i++) idx[i] = (uint32_t)i;
        triangle_scene(&s, &node, &mesh, &prim);
        prim.vertex_count = N;
        prim.positions = pos;
        prim.indices = idx;
        prim.index_count = N;
        ferry_buffer out = {0};
        ferry_error err;
        CHECK_MSG(ferry_gltf_write_glb(&s, &out, &err) == FERRY_OK, "all finite: %s", err.message);
        ferry_buffer_free(&out);
        pos[at[k]] = k % 2 ? -INFINITY : NAN;
        char needle[64];
        snprintf(needle, sizeof needle, "position value %zu is %s", at[k], k % 2 ? "infinite" : "NaN");
        expect_error(&s, needle, __LINE__);
    }
}

static void test_errors(void)
{
    ferry_buffer png = {0};
    CHECK(make_png(&png));
    ferry_scene s;
    ferry_error err;

    full_scene(&s, png.data, png.size);
    float bad_pos[9];
    memcpy(bad_pos, tri_positions, sizeof bad_pos);
    bad_pos[4] = NAN;
    morph_prim.positions = bad_pos;
    EXPECT_ERROR(&s, "mesh 2 \"morph\" primitive 0: position value 4 is NaN");

    full_scene(&s, png.data, png.size);
    static const uint32_t bad_idx[] = {0, 1, 3};
    textured_prims[0].indices = bad_idx;
    EXPECT_ERROR(&s, "index 2 is 3, out of range");

    full_scene(&s, png.data, png.size);
    textured_prims[0].index_count = 2;
    EXPECT_ERROR(&s, "not a whole number of triangles");

    full_scene(&s, png.data, png.size);
    uint16_t bad_joints[24];
    memcpy(bad_joints, skin_joints, sizeof bad_joints);
    bad_joints[4] = 2;
    skinned_prim.joints = bad_joints;
    EXPECT_ERROR(&s, "uses joint 2 but skin 0 has 2 joints");

    full_scene(&s, png.data, png.size);
    FY_SET_REF(&full_nodes[N_BONE0], parent, N_BONE1);
    EXPECT_ERROR(&s, "node 1 \"bone0\": parent 2 must be an earlier node");

    full_scene(&s, png.data, png.size);
    full_nodes[N_SUN].rotation[3] = 1;
    EXPECT_ERROR(&s, "quaternions must be normalized");

    /* Extras are data (ferry_json), no longer text that may fail to
     * parse: what cannot be written is a real that is not finite or a key
     * twice in one object. */
    full_scene(&s, png.data, png.size);
    ferry_json nan_real = {.kind = FERRY_JSON_REAL, .real = NAN};
    ferry_json_member nan_member = {"id", 2, &nan_real};
    ferry_json nan_extras = {.kind = FERRY_JSON_OBJECT, .members = &nan_member, .count = 1};
    full_nodes[N_ROOT].extras = &nan_extras;
    EXPECT_ERROR(&s, "node 0 \"root\": extras cannot be written: a real is NaN");

    full_scene(&s, png.data, png.size);
    ferry_json one = {.kind = FERRY_JSON_INTEGER, .integer = 1}, two = {.kind = FERRY_JSON_INTEGER, .integer = 2};
    ferry_json_member twice[2] = {{"id", 2, &one}, {"id", 2, &two}};
    ferry_json twice_extras = {.kind = FERRY_JSON_OBJECT, .members = twice, .count = 2};
    full_nodes[N_ROOT].extras = &twice_extras;
    EXPECT_ERROR(&s, "node 0 \"root\": extras cannot be written: a key appears twice in one object");

    full_scene(&s, png.data, png.size);
    full_materials[1].extras = test_extras_parse("[1, 2]");
    EXPECT_ERROR(&s, "material 1 \"glow\": extras must be an object");

    full_scene(&s, png.data, png.size);
    FY_SET_REF(&full_materials[0], base_color_image, 1);
    EXPECT_ERROR(&s, "base_color_image 1 is out of range");

    full_scene(&s, png.data, png.size);
    textured_prims[0].texcoord_count = 1;
    EXPECT_ERROR(&s, "reads TEXCOORD_1");

    full_scene(&s, png.data, png.size);
    morph_channels[0].node = N_ROOT;
    EXPECT_ERROR(&s, "which has no morph targets");

    full_scene(&s, png.data, png.size);
    static const float bad_times[] = {0, 0};
    skin_channels[0].times = bad_times;
    EXPECT_ERROR(&s, "increase strictly");

    full_scene(&s, png.data, png.size);
    skin_channels[1].node = N_BONE1;
    skin_channels[1].path = FERRY_ANIM_ROTATION;
    skin_channels[1].values = rot_values;
    skin_channels[1].times = rot_times;
    skin_channels[1].key_count = 2;
    EXPECT_ERROR(&s, "same node and path as channel 0");

    full_scene(&s, png.data, png.size);
    static const float bad_weights[24] = {0.5f, 0, 0, 0};
    skinned_prim.weights = bad_weights;
    EXPECT_ERROR(&s, "weights of vertex 0 sum to 0.5");

    full_scene(&s, png.data, png.size);
    full_lights[2].inner_cone_angle = 2;
    EXPECT_ERROR(&s, "light 2 \"spot\": inner_cone_angle");

    full_scene(&s, png.data, png.size);
    full_image.mime_type = "image/jpeg";
    EXPECT_ERROR(&s, "image 0 \"checker\": data is not a JPEG file");

    full_scene(&s, png.data, png.size);
    FY_SET_REF(&full_nodes[N_MORPH], skin, 0);
    EXPECT_ERROR(&s, "node 4 \"morph\": skinned, but mesh 2 primitive 0 has no joints");

    full_scene(&s, png.data, png.size);
    FY_SET_REF(&full_skin, skeleton, N_SKINNED);
    EXPECT_ERROR(&s, "is not an ancestor of joint 0");

    full_scene(&s, png.data, png.size);
    s.node_count = 0;
    EXPECT_ERROR(&s, "out of range"); /* the skin's joints and the animations now point nowhere */

    EXPECT_ERROR(NULL, "no scene");

    /* Files: the extension decides; the input is never overwritten. */
    full_scene(&s, png.data, png.size);
    char path[640];
    snprintf(path, sizeof path, "%s/full.obj", tmpdir);
    CHECK(ferry_gltf_save(&s, path, NULL, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, ".glb or .gltf") != NULL);
    CHECK(!test_path_exists(path));
    snprintf(path, sizeof path, "%s/protected.glb", tmpdir);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs("input", f);
        fclose(f);
    }
    CHECK(ferry_gltf_save(&s, path, &(ferry_write_options){.protect_input = path}, &err) == FERRY_ERR_ARGUMENT);
    size_t size = 0;
    uint8_t *d = test_read_file(path, &size);
    CHECK(d && size == 5);
    free(d);
    /* write_gltf needs an empty bin: view offsets start at 0. */
    ferry_buffer bin = {0}, json = {0};
    bin.data = malloc(4);
    bin.size = 1;
    bin.capacity = 4;
    CHECK(ferry_gltf_write_gltf(&s, "x.bin", NULL, &json, &bin, &err) == FERRY_ERR_ARGUMENT);
    ferry_buffer_free(&bin);
    ferry_buffer_free(&json);
    ferry_buffer_free(&png);
}

static void test_defaults(void)
{
    ferry_scene_material m;
    ferry_scene_material_init(&m);
    CHECK(m.base_color_factor[0] == 1 && m.base_color_factor[3] == 1);
    CHECK(FY_REF(&m, base_color_image) == -1 && FY_REF(&m, normal_image) == -1 && FY_REF(&m, emissive_image) == -1);
    CHECK(m.roughness_factor == 1 && m.metallic_factor == 0 && m.normal_scale == 1);
    CHECK(m.alpha_mode == FERRY_ALPHA_OPAQUE && !m.unlit && !m.double_sided);
    ferry_scene_node n;
    ferry_scene_node_init(&n);
    CHECK(FY_REF(&n, parent) == -1 && FY_REF(&n, mesh) == -1 && FY_REF(&n, skin) == -1 && FY_REF(&n, light) == -1);
    CHECK(n.rotation[3] == 1 && n.rotation[0] == 0 && n.scale[2] == 1 && n.translation[1] == 0);
    ferry_scene_free(NULL);
    ferry_scene hand = {0};
    ferry_scene_free(&hand); /* no arena: nothing to do */
    ferry_arena *arena = ferry_arena_create(0);
    ferry_scene *owned = ferry_arena_alloc(arena, sizeof *owned);
    owned->arena = arena;
    ferry_scene_free(owned); /* frees the struct with its arena (checked under ASan) */
}

/* Extras written from data: integers stay integers, reals get 9
 * significant digits (float precision, as before), a string that is not
 * UTF-8 keeps its ASCII with '?' for the rest (the rule for names), a NUL
 * inside a string is escaped. Expected text written by hand. */
/* Zero-initialised scene structs refer to nothing (scene.h: an index is read
 * only with its has_ flag), though every array has an element 0 a zero
 * index would name: the node is a root without mesh, skin or light, the
 * primitive takes the default material, the material has no texture, the
 * skin no skeleton. Only what zero cannot mean is set: the transforms (a
 * zero quaternion is no rotation), the positions, and a mesh on a second
 * node so that the primitive is written. */
static void test_zero_initialised(void)
{
    ferry_buffer png = {0};
    CHECK(make_png(&png));
    ferry_scene_node nodes[2];
    memset(nodes, 0, sizeof nodes);
    for (int i = 0; i < 2; i++) {
        nodes[i].rotation[3] = 1;
        for (int k = 0; k < 3; k++) nodes[i].scale[k] = 1;
    }
    nodes[1].has_mesh = true; /* mesh 0 */
    ferry_scene_primitive prim;
    memset(&prim, 0, sizeof prim);
    prim.vertex_count = 3;
    prim.positions = tri_positions;
    prim.mode = FERRY_PRIMITIVE_TRIANGLES;
    ferry_scene_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.primitives = &prim;
    mesh.primitive_count = 1;
    ferry_scene_material material;
    memset(&material, 0, sizeof material);
    ferry_scene_image image = {.name = "checker", .mime_type = "image/png", .data = png.data, .size = png.size};
    static const int32_t joints[] = {1};
    ferry_scene_skin skin;
    memset(&skin, 0, sizeof skin);
    skin.joints = joints;
    skin.joint_count = 1;
    ferry_scene_light light;
    memset(&light, 0, sizeof light);
    ferry_scene s;
    memset(&s, 0, sizeof s);
    s.nodes = nodes, s.node_count = 2, s.meshes = &mesh, s.mesh_count = 1;
    s.materials = &material, s.material_count = 1, s.images = &image, s.image_count = 1;
    s.skins = &skin, s.skin_count = 1, s.lights = &light, s.light_count = 1;
    ferry_error err;
    char path[640];
    snprintf(path, sizeof path, "%s/zeroed.glb", tmpdir);
    CHECK_MSG(ferry_gltf_save(&s, path, NULL, &err) == FERRY_OK, "%s", err.message);
    remember(path);
    size_t bin_len;
    json_t *root = read_glb(path, &bin_len);
    if (root) {
        json_t *n0 = jat(root, "nodes", 0), *n1 = jat(root, "nodes", 1);
        CHECK(n0 && !json_object_get(n0, "mesh") && !json_object_get(n0, "skin") && !json_object_get(n0, "extensions"));
        CHECK(n0 && !json_object_get(n0, "children"));
        CHECK(n1 && jint(n1, "mesh") == 0 && !json_object_get(n1, "skin"));
        json_t *roots = json_object_get(jat(root, "scenes", 0), "nodes");
        CHECK(json_array_size(roots) == 2 && json_integer_value(json_array_get(roots, 0)) == 0 &&
              json_integer_value(json_array_get(roots, 1)) == 1);
        json_t *p0 = json_array_get(json_object_get(jat(root, "meshes", 0), "primitives"), 0);
        CHECK(p0 && !json_object_get(p0, "material"));
        json_t *m0 = jat(root, "materials", 0);
        CHECK(m0 && !json_object_get(m0, "normalTexture") && !json_object_get(m0, "emissiveTexture"));
        CHECK(m0 && !json_object_get(json_object_get(m0, "pbrMetallicRoughness"), "baseColorTexture"));
        json_t *k0 = jat(root, "skins", 0);
        CHECK(k0 && !json_object_get(k0, "skeleton"));
        json_decref(root);
    }

    /* An index without its flag: refused, naming the flag (a flag forgotten,
     * or the -1 of the convention before the flags). */
    nodes[0].skin = 0;
    nodes[0].mesh = 2;
    EXPECT_ERROR(&s, "node 0: mesh is 2 but has_mesh is false");
    nodes[0].mesh = 0;
    nodes[1].parent = UINT32_MAX;
    EXPECT_ERROR(&s, "node 1: parent is 4294967295 but has_parent is false");
    nodes[1].parent = 0;
    prim.material = 1;
    EXPECT_ERROR(&s, "primitive 0: material is 1 but has_material is false");
    prim.material = 0;
    material.emissive_image = 3;
    EXPECT_ERROR(&s, "material 0: emissive_image is 3 but has_emissive_image is false");
    material.emissive_image = 0;
    ferry_buffer out = {0};
    CHECK(ferry_gltf_write_glb(&s, &out, &err) == FERRY_OK);
    ferry_buffer_free(&out);
    ferry_buffer_free(&png);
}

static void test_extras_data(void)
{
    ferry_scene s;
    ferry_scene_node node;
    ferry_scene_mesh mesh;
    ferry_scene_primitive prim;
    triangle_scene(&s, &node, &mesh, &prim);
    ferry_json null = {.kind = FERRY_JSON_NULL}, yes = {.kind = FERRY_JSON_BOOL, .boolean = true},
               empty = {.kind = FERRY_JSON_ARRAY};
    const ferry_json *items[3] = {&null, &yes, &empty};
    ferry_json values[] = {
        {.kind = FERRY_JSON_INTEGER, .integer = -9007199254740993LL},
        {.kind = FERRY_JSON_REAL, .real = 1.0},
        {.kind = FERRY_JSON_REAL, .real = (double)0.1f},
        {.kind = FERRY_JSON_STRING, .string = "caf\xe9", .length = 4},
        {.kind = FERRY_JSON_STRING, .string = "a\0b", .length = 3},
        {.kind = FERRY_JSON_ARRAY, .items = items, .count = 3},
        {.kind = FERRY_JSON_OBJECT},
    };
    ferry_json_member members[] = {{"i", 1, &values[0]}, {"r", 1, &values[1]}, {"f", 1, &values[2]}, {"s", 1, &values[3]},
                                   {"z\xff", 2, &values[4]}, {"a", 1, &values[5]}, {"o", 1, &values[6]}};
    ferry_json extras = {.kind = FERRY_JSON_OBJECT, .members = members, .count = sizeof members / sizeof *members};
    node.extras = &extras;
    ferry_buffer glb = {0};
    ferry_error err;
    CHECK(ferry_gltf_write_glb(&s, &glb, &err) == FERRY_OK);
    const char *want = "\"extras\":{\"i\":-9007199254740993,\"r\":1.0,\"f\":0.100000001,\"s\":\"caf?\","
                       "\"z?\":\"a\\u0000b\",\"a\":[null,true,[]],\"o\":{}}";
    /* the GLB's JSON chunk (compact) starts at byte 20, its length at 12 */
    uint32_t n = glb.size >= 20 ? (uint32_t)glb.data[12] | (uint32_t)glb.data[13] << 8 | (uint32_t)glb.data[14] << 16 |
                                      (uint32_t)glb.data[15] << 24
                                : 0;
    char *text = n <= glb.size - 20 ? calloc(1, (size_t)n + 1) : NULL;
    if (text) memcpy(text, glb.data + 20, n);
    CHECK_MSG(text && strstr(text, want) != NULL, "node extras as written: %s", text ? text : "");
    free(text);
    ferry_buffer_free(&glb);
    CHECK(ferry_json_get(&extras, "r") == &values[1]);
    CHECK(ferry_json_get(&extras, "q") == NULL && ferry_json_get(&null, "r") == NULL && ferry_json_get(NULL, "r") == NULL);
}

static bool exists(const char *name)
{
    char path[640];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return test_path_exists(path);
}

static bool any_temporary(void)
{
    fy_folder *d;
    if (fy_folder_open(tmpdir, &d) != 0) return false;
    bool found = false;
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) found |= strstr(name, ".ferry-tmp-") != NULL;
    fy_folder_close(d);
    return found;
}

/* A .gltf's files land together or none do; refusals come before any write. */
static void test_all_or_nothing(void)
{
    ferry_buffer png = {0};
    CHECK(make_png(&png));
    ferry_scene s;
    full_scene(&s, png.data, png.size);
    ferry_error err;
    char path[640], side[640];
    /* A folder where the .bin goes: the PNG was staged first, and goes too. */
    snprintf(side, sizeof side, "%s/blocked.bin", tmpdir);
    CHECK(test_make_dir(side));
    snprintf(path, sizeof path, "%s/blocked.gltf", tmpdir);
    CHECK(ferry_gltf_save(&s, path, NULL, &err) == FERRY_ERR_IO);
    CHECK(!exists("blocked.gltf"));
    CHECK(!exists("blocked_image0.png"));
    CHECK(!any_temporary());
    CHECK(test_remove_dir(side));
    /* The input named like a side file: refused before any file is written. */
    snprintf(side, sizeof side, "%s/input.bin", tmpdir);
    CHECK(ferry_file_write(side, "model", 5, NULL, &err) == FERRY_OK);
    snprintf(path, sizeof path, "%s/input.gltf", tmpdir);
    CHECK(ferry_gltf_save(&s, path, &(ferry_write_options){.protect_input = side}, &err) == FERRY_ERR_ARGUMENT);
    CHECK(!exists("input_image0.png"));
    CHECK(!exists("input.gltf"));
    CHECK(!any_temporary());
    CHECK(test_remove_file(side));
    ferry_buffer_free(&png);
}

int main(void)
{
    if (!test_output_dir("test_gltf", tmpdir, sizeof tmpdir, &keep_tmpdir)) {
        fprintf(stderr, "cannot make a folder for the files written\n");
        return 1;
    }
    test_defaults();
    test_zero_initialised();
    test_triangle();
    test_extras_data();
    test_full();
    test_big_indices();
    test_errors();
    test_nonfinite_anywhere();
    test_all_or_nothing();
    run_validator();
    for (size_t i = 0; i < written_count; i++) free(written[i]);
    if (!keep_tmpdir) CHECK(test_remove_tree(tmpdir));
    TEST_END();
}
