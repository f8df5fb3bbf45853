/* What the game draws: by default what the game does not draw is left out
 * (hidden meshes, meshes on hidden bones, shadow volumes, collision meshes,
 * less detailed levels of a _LOD group, ALTs above 0); `all` keeps every
 * mesh and says in its extras why the game does not draw it. game_view,
 * the former opt-in, changed nothing and is no longer a field (the CLI
 * still accepts --game-view).
 *
 * Changed deliberately with the new default: this test used to expect
 * everything by default and _LOD0 kept by game_view. Real files show the
 * highest _LOD<n> is the most detailed, so Hull_LOD1 is kept and Hull_LOD0
 * left out. */
#include <ferry/convert.h>
#include <jansson.h>

#include "support.h"
#include "test.h"

#define MESHES 7

static const char *const names[MESHES] = {"Hull_LOD1", "Hull_LOD0", "Shield", "Coll", "Shadow", "Light_ALT1", "OnHiddenBone"};
/* Why each is not drawn (NULL: drawn), as `all` marks it. */
static const char *const reasons[MESHES] = {NULL, "[\"lower_lod\"]", "[\"hidden\"]", "[\"collision\"]", "[\"shadow_volume\"]",
                                            "[\"alt\"]", "[\"hidden_bone\"]"};
static const char *const shaders[MESHES] = {"MeshGloss.fx", "MeshGloss.fx", "MeshGloss.fx", "MeshCollision.fx",
                                            "MeshShadowVolume.fx", "MeshGloss.fx", "MeshGloss.fx"};

static size_t count_mesh_nodes(const ferry_scene *s, bool *seen)
{
    size_t n = 0;
    for (size_t i = 0; i < s->node_count; i++) {
        if (FY_REF(&s->nodes[i], mesh) < 0) continue;
        n++;
        for (int k = 0; k < MESHES; k++)
            if (s->nodes[i].name && strcmp(s->nodes[i].name, names[k]) == 0) seen[k] = true;
    }
    return n;
}

int main(void)
{
    /* Bones: 0 root, 1 under it, 2 hidden with 3 below it (hidden too). */
    ferry_alo_bone bones[4];
    memset(bones, 0, sizeof bones);
    const char *bone_names[4] = {"Root", "Body", "Hatch", "HatchLight"};
    for (int i = 0; i < 4; i++) {
        bones[i].name = bone_names[i];
        bones[i].parent = i == 0 ? -1 : i == 3 ? 2 : 0;
        bones[i].visible = i >= 2 ? 0 : 1;
        bones[i].matrix[0] = bones[i].matrix[5] = bones[i].matrix[10] = 1;
    }
    ferry_alo_vertex vertices[3];
    memset(vertices, 0, sizeof vertices);
    for (int v = 0; v < 3; v++) {
        vertices[v].position[0] = (float)(v == 1);
        vertices[v].position[1] = (float)(v == 2);
        vertices[v].normal[2] = 1;
        vertices[v].tangent[0] = 1;
        vertices[v].binormal[1] = 1;
        vertices[v].color[0] = vertices[v].color[1] = vertices[v].color[2] = vertices[v].color[3] = 1;
        vertices[v].bone_weight[0] = 1;
    }
    uint16_t indices[3] = {0, 1, 2};
    ferry_alo_submesh submeshes[MESHES];
    ferry_alo_mesh meshes[MESHES];
    ferry_alo_connection connections[MESHES];
    memset(submeshes, 0, sizeof submeshes);
    memset(meshes, 0, sizeof meshes);
    memset(connections, 0, sizeof connections);
    for (int k = 0; k < MESHES; k++) {
        submeshes[k].material.shader = shaders[k];
        submeshes[k].vertex_format = "alD3dVertNU2";
        submeshes[k].vertices = vertices;
        submeshes[k].vertex_count = 3;
        submeshes[k].indices = indices;
        submeshes[k].triangle_count = 1;
        meshes[k].name = names[k];
        meshes[k].submeshes = &submeshes[k];
        meshes[k].submesh_count = 1;
        meshes[k].is_hidden = k == 2;
        meshes[k].bounds_max[0] = meshes[k].bounds_max[1] = 1;
        connections[k].object = (uint32_t)k;
        connections[k].bone = k == MESHES - 1 ? 3 : 1;
    }
    ferry_alo_model model;
    memset(&model, 0, sizeof model);
    model.skeleton.bones = bones;
    model.skeleton.bone_count = 4;
    model.meshes = meshes;
    model.mesh_count = MESHES;
    model.connections.objects = connections;
    model.connections.object_count = MESHES;

    /* 0 and 1: the default (1 set game_view, the old opt-in, a field with no
     * effect since removed), 2: all. */
    for (int mode = 0; mode <= 2; mode++) {
        ferry_alo_scene_options options;
        memset(&options, 0, sizeof options);
        options.skip_textures = true;
        options.all = mode == 2;
        ferry_alo_scene_report report;
        memset(&report, 0xff, sizeof report);
        options.report = &report;
        ferry_scene *scene = NULL;
        ferry_error err;
        CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
        if (!scene) continue;
        bool seen[MESHES] = {false};
        size_t n = count_mesh_nodes(scene, seen);
        json_t *sx = json_loads(test_extras_text(scene->extras), 0, NULL);
        if (mode < 2) {
            CHECK_EQ_U(n, 1);
            CHECK_MSG(seen[0], "Hull_LOD1, the most detailed level, kept");
            CHECK_EQ_U(report.meshes, 1);
            CHECK_EQ_U(report.meshes_left_out, MESHES - 1);
            /* The scene names what it left out, in object order. */
            json_t *left = json_object_get(sx, "left_out");
            CHECK_EQ_U(json_array_size(left), MESHES - 1);
            for (size_t k = 1; k < MESHES && k - 1 < json_array_size(left); k++)
                CHECK(strcmp(json_string_value(json_array_get(left, k - 1)), names[k]) == 0);
            CHECK(strcmp(json_string_value(json_object_get(sx, "view")), "game") == 0);
        } else {
            CHECK_EQ_U(n, MESHES);
            for (int k = 0; k < MESHES; k++) CHECK_MSG(seen[k], "%s kept by all", names[k]);
            CHECK_EQ_U(report.meshes, MESHES);
            CHECK_EQ_U(report.meshes_left_out, 0);
            CHECK(json_object_get(sx, "left_out") == NULL);
            for (size_t i = 0; i < scene->node_count; i++) {
                for (int k = 0; k < MESHES; k++) {
                    if (!scene->nodes[i].name || strcmp(scene->nodes[i].name, names[k]) != 0) continue;
                    json_t *x = json_loads(test_extras_text(scene->nodes[i].extras), 0, NULL);
                    char *why = json_dumps(json_object_get(x, "not_drawn"), JSON_COMPACT | JSON_ENCODE_ANY);
                    CHECK_MSG(reasons[k] ? why && strcmp(why, reasons[k]) == 0 : why == NULL, "%s: not_drawn %s", names[k],
                              why ? why : "(none)");
                    free(why);
                    json_decref(x);
                }
            }
        }
        CHECK_EQ_U(report.missing_texture_count, 0);
        json_decref(sx);
        /* The bones stay either way: animations and proxies hang on them. */
        size_t bone_nodes = 0;
        for (size_t i = 0; i < scene->node_count; i++)
            for (int k = 0; k < 4; k++)
                if (scene->nodes[i].name && strcmp(scene->nodes[i].name, bone_names[k]) == 0) bone_nodes++;
        CHECK_EQ_U(bone_nodes, 4);
        ferry_scene_free(scene);
    }

    /* Drawn whatever their bones say, since shipped units would otherwise
     * show nothing (gltf-export.md): the damage state _ALT0 and a skinned
     * mesh, each on the hidden bone 3 in place of OnHiddenBone. */
    uint32_t mapping[1] = {3};
    for (int variant = 0; variant < 2; variant++) {
        meshes[MESHES - 1].name = variant == 0 ? "Turret_ALT0" : "Skinned";
        submeshes[MESHES - 1].bone_mapping = variant == 1 ? mapping : NULL;
        submeshes[MESHES - 1].bone_mapping_count = variant == 1 ? 1 : 0;
        ferry_alo_scene_options options;
        memset(&options, 0, sizeof options);
        options.skip_textures = true;
        ferry_alo_scene_report report;
        options.report = &report;
        ferry_scene *scene = NULL;
        ferry_error err;
        CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
        if (!scene) continue;
        CHECK_EQ_U(report.meshes, 2);
        CHECK_EQ_U(report.meshes_left_out, MESHES - 2);
        bool found = false;
        for (size_t i = 0; i < scene->node_count; i++) {
            const ferry_scene_node *nd = &scene->nodes[i];
            if (!nd->name || strcmp(nd->name, meshes[MESHES - 1].name) != 0) continue;
            found = FY_REF(nd, mesh) >= 0;
            if (variant == 1) CHECK_MSG(FY_REF(nd, skin) >= 0, "the skinned mesh is bound to the skin");
        }
        CHECK_MSG(found, "%s on a hidden bone is drawn", meshes[MESHES - 1].name);
        ferry_scene_free(scene);
    }
    TEST_END();
}
