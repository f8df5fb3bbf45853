/* libFuzzer target: glTF -> ALO authoring (ferry_gltf_read, then
 * ferry_alo_from_scene, validation and the writer).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a refused scene gets an error with a message;
 *  - a model that is made validates without crashing, and either writes or
 *    is refused with a message; what it writes reads back with as many
 *    bones and meshes;
 *  - every sub-mesh respects the format's limits: at most 65,535 vertices,
 *    indices inside them, at most 24 palette bones, palette slots in range. */
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_gltf_alo: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_scene *scene;
    ferry_error err;
    if (ferry_gltf_read(data, size, NULL, &scene, &err) != FERRY_OK) return 0;
    ferry_diagnostics warnings = {0};
    ferry_alo_from_scene_report rep;
    ferry_alo_from_scene_options o = {&warnings, &rep};
    ferry_alo_model *m = NULL;
    if (ferry_alo_from_scene(scene, &o, &m, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || !err.message[0]) fail("refused without a message");
        if (m) fail("refused but gave a model");
    } else {
        for (size_t i = 0; i < m->mesh_count; i++) {
            for (size_t s = 0; s < m->meshes[i].submesh_count; s++) {
                const ferry_alo_submesh *sm = &m->meshes[i].submeshes[s];
                if (sm->vertex_count > 65535) fail("a sub-mesh over 65,535 vertices");
                for (size_t k = 0; k < 3 * sm->triangle_count; k++)
                    if (sm->indices[k] >= sm->vertex_count) fail("an index past the vertices");
                if (sm->bone_mapping_count > FERRY_ALO_MAX_MAPPED_BONES) fail("more than 24 palette bones");
                for (size_t v = 0; sm->has_bone_mapping && v < sm->vertex_count; v++)
                    if (sm->vertices[v].bone_index[0] >= sm->bone_mapping_count) fail("a palette slot out of range");
            }
        }
        ferry_diagnostics d = {0};
        ferry_alo_validate(m, NULL, &d);
        ferry_diagnostics_free(&d);
        ferry_buffer out = {0};
        if (ferry_alo_write(m, &out, &err) == FERRY_OK) {
            ferry_alo_model *back = NULL;
            if (ferry_alo_read(out.data, out.size, NULL, &back, &err) != FERRY_OK) fail("our own ALO does not read back");
            if (back->skeleton.bone_count != m->skeleton.bone_count || back->mesh_count != m->mesh_count)
                fail("our own ALO reads back with other counts");
            ferry_alo_free(back);
        } else if (!err.message[0]) {
            fail("the writer refused without a message");
        }
        ferry_buffer_free(&out);
    }
    ferry_alo_free(m);
    ferry_diagnostics_free(&warnings);
    ferry_scene_free(scene);
    return 0;
}
