/* libFuzzer target: the glTF reader (.glb and .gltf), and what consumes
 * the scenes it makes.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read says where: a JSON path or a byte offset inside the input;
 *  - a scene that reads is one the glTF writer either writes or refuses with
 *    an error (never a crash), and what it writes reads back with as many
 *    nodes, meshes and animations;
 *  - external resources come only through the callback, which serves a
 *    small fixed buffer for any URI (so buffer views and accessors into an
 *    external .bin are exercised too). */
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_gltf: %s\n", what);
    abort();
}

/* A file source serving any path: 256 bytes counting up, enough for small accessors. */
static ferry_result serve(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                          ferry_error *err)
{
    (void)user, (void)max_size, (void)err;
    if (!path || !ferry_file_source_path_ok(path)) fail("the source was asked for a path it must not serve");
    uint8_t *p = malloc(256);
    if (!p) return FERRY_ERR_NOMEM;
    for (int i = 0; i < 256; i++) p[i] = (uint8_t)i;
    *data = p;
    *size = 256;
    return FERRY_OK;
}

static void release(void *user, uint8_t *data, size_t size)
{
    (void)user, (void)size;
    free(data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_gltf_read_options o;
    memset(&o, 0, sizeof o);
    ferry_file_source files = {0};
    files.load = serve;
    files.release = release;
    o.files = &files;
    ferry_scene *scene;
    ferry_error err;
    if (ferry_gltf_read(data, size, &o, &scene, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || !err.message[0]) fail("error without a message");
        if (!err.path[0] && (err.offset == FERRY_NO_OFFSET || err.offset > size)) fail("error without a location");
        return 0;
    }
    ferry_buffer glb = {0};
    if (ferry_gltf_write_glb(scene, &glb, &err) == FERRY_OK) {
        ferry_scene *back;
        if (ferry_gltf_read(glb.data, glb.size, NULL, &back, &err) != FERRY_OK) fail("our own .glb does not read back");
        if (back->node_count != scene->node_count || back->mesh_count != scene->mesh_count ||
            back->animation_count != scene->animation_count)
            fail("our own .glb reads back with other counts");
        ferry_scene_free(back);
    } else if (!err.message[0]) {
        fail("the writer refused without a message");
    }
    ferry_buffer_free(&glb);
    ferry_scene_free(scene);
    return 0;
}
