/* libFuzzer target: the ALO model reader, and everything that consumes a
 * model it produced (writer, validation, derived data, ray casts).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input;
 *  - a model that reads writes back byte for byte (the writer's promise for
 *    read models, damaged or not), and those bytes read again;
 *  - validation reports only located diagnostics or ones that say why not;
 *  - the derived-data functions survive whatever indices the model holds;
 *  - the glTF conversion (the game's view and --all, no textures) either
 *    fails with a message or gives a scene that writes as .glb or fails
 *    with a message. */
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_alo: %s\n", what);
    abort();
}

static bool texture_exists(const char *name, void *user)
{
    (void)user;
    return name && name[0] != 'x';
}

static void rays(const ferry_alo_submesh *sm)
{
    const ferry_alo_collision_tree *t = sm->collision;
    float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    if (t)
        for (int a = 0; a < 3; a++) {
            if (isfinite(t->box_min[a]) && isfinite(t->box_max[a])) {
                lo[a] = t->box_min[a];
                hi[a] = t->box_max[a];
            }
        }
    float mid[3], span = 1;
    for (int a = 0; a < 3; a++) {
        mid[a] = lo[a] * 0.5f + hi[a] * 0.5f;
        float d = fabsf(hi[a] - lo[a]);
        if (isfinite(d) && d > span) span = d;
    }
    /* Down each axis through the middle, and corner to corner. */
    for (int a = 0; a < 4; a++) {
        float origin[3], dir[3] = {0, 0, 0};
        if (a < 3) {
            memcpy(origin, mid, sizeof origin);
            origin[a] += 2 * span;
            dir[a] = -1;
        } else {
            memcpy(origin, lo, sizeof origin);
            for (int k = 0; k < 3; k++) dir[k] = hi[k] - lo[k];
        }
        ferry_alo_ray_hit hit;
        bool tree_hit = ferry_alo_collision_raycast(sm, origin, dir, 4 * span, &hit);
        if (tree_hit && !(hit.t >= 0)) fail("ray hit at a negative or NaN distance");
        (void)ferry_alo_raycast_brute_force(sm, origin, dir, 4 * span, &hit);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_alo_model *model;
    ferry_error err;
    if (ferry_alo_read(data, size, NULL, &model, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0])
            fail("error without a location inside the input");
        return 0;
    }

    ferry_buffer out = {0};
    if (ferry_alo_write(model, &out, &err) != FERRY_OK) fail("a read model does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");
    ferry_alo_model *again;
    if (ferry_alo_read(out.data, out.size, NULL, &again, &err) != FERRY_OK) fail("written bytes do not read");
    ferry_alo_free(again);
    ferry_buffer_free(&out);

    ferry_diagnostics diags;
    memset(&diags, 0, sizeof diags);
    ferry_alo_validate_options vopts = {texture_exists, NULL};
    size_t errors = ferry_alo_validate(model, &vopts, &diags);
    if (errors != diags.error_count) fail("validate's result differs from its error count");
    for (size_t i = 0; i < diags.count; i++) {
        const ferry_diagnostic *d = &diags.items[i];
        if (!d->message[0] || !d->rule[0]) fail("diagnostic without rule or message");
        if (d->offset != FERRY_NO_OFFSET && d->offset > size) fail("diagnostic located outside the input");
    }
    ferry_diagnostics_free(&diags);

    size_t bones = model->skeleton.bone_count;
    float *world = malloc((bones ? bones : 1) * 16 * sizeof *world);
    if (!world) fail("out of memory");
    ferry_alo_bone_world_matrices(model, world);
    free(world);

    for (size_t m = 0; m < model->mesh_count; m++) {
        const ferry_alo_mesh *mesh = &model->meshes[m];
        float lo[3], hi[3];
        (void)ferry_alo_mesh_vertex_bounds(mesh, lo, hi);
        for (size_t s = 0; s < mesh->submesh_count; s++) rays(&mesh->submeshes[s]);
    }

    for (int all = 0; all < 2; all++) {
        ferry_alo_scene_options so = {0};
        so.all = all;
        ferry_scene *scene = NULL;
        if (ferry_alo_to_scene(model, &so, &scene, &err) != FERRY_OK) {
            if (err.code == FERRY_OK || !err.message[0]) fail("a refused conversion without a message");
            continue;
        }
        ferry_buffer glb = {0};
        if (ferry_gltf_write_glb(scene, &glb, &err) != FERRY_OK && (err.code == FERRY_OK || !err.message[0]))
            fail("a refused glTF write without a message");
        ferry_buffer_free(&glb);
        ferry_scene_free(scene);
    }
    ferry_alo_free(model);
    return 0;
}
