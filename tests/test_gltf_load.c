/* ferry_gltf_load (a .glb or .gltf read from a path, its folder the source
 * of what it names) and ferry_file_source_folder_of (the folder beside a
 * file): on a temporary folder, the defaults, a source given instead,
 * skipped images, limits, and inputs that are missing, not glTF or cut
 * short. */
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>

#include "support.h"
#include "test.h"

static char dir[100]; /* a temporary folder: short, so that paths under it fit */

static void put(const char *name, const void *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

/* One triangle whose positions are in tri.bin beside the document; the
 * material's texture names look.png (absent unless a test writes it). */
static const char tri_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"Tri\",\"mesh\":0}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
    "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"look.png\"}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"buffers\":[{\"byteLength\":36,\"uri\":\"tri.bin\"}]}";
static const float tri_bin[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};

static void test_load(void)
{
    char path[256], other[300];
    snprintf(path, sizeof path, "%s/tri.gltf", dir);
    put("tri.gltf", tri_gltf, sizeof tri_gltf - 1);
    put("tri.bin", tri_bin, sizeof tri_bin);
    ferry_scene *scene = (ferry_scene *)1;
    ferry_error err;

    /* The image is missing: read, it fails naming it; skipped, it loads. */
    CHECK(ferry_gltf_load(path, NULL, &scene, &err) != FERRY_OK);
    CHECK(scene == NULL);
    CHECK_MSG(strstr(err.message, "look.png") != NULL, "%s", err.message);
    ferry_gltf_read_options o = {0};
    o.skip_images = true;
    CHECK(ferry_gltf_load(path, &o, &scene, &err) == FERRY_OK);
    CHECK(scene && scene->mesh_count == 1 && scene->image_count == 0);
    if (scene && scene->mesh_count == 1) {
        const ferry_scene_primitive *p = &scene->meshes[0].primitives[0];
        CHECK(p->vertex_count == 3 && p->positions && p->positions[3] == 1.0f && p->positions[7] == 1.0f);
    }
    ferry_scene_free(scene);

    /* With the image beside it, it is read with the document. */
    uint8_t rgba[4] = {1, 2, 3, 255};
    ferry_image img = {1, 1, rgba};
    ferry_buffer png = {0};
    CHECK(ferry_image_encode_png(&img, NULL, &png, &err) == FERRY_OK);
    put("look.png", png.data, png.size);
    CHECK(ferry_gltf_load(path, NULL, &scene, &err) == FERRY_OK);
    CHECK(scene && scene->image_count == 1 && scene->images[0].size == png.size);
    ferry_scene_free(scene);
    ferry_buffer_free(&png);

    /* A source given instead of the folder: the files are looked for there. */
    char empty[128];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    CHECK(test_make_dir(empty));
    ferry_file_source src;
    CHECK(ferry_file_source_folder(empty, &src, &err) == FERRY_OK);
    o.files = &src;
    CHECK(ferry_gltf_load(path, &o, &scene, &err) != FERRY_OK);
    CHECK(scene == NULL && strstr(err.message, "tri.bin") != NULL);
    ferry_file_source_close(&src);
    o.files = NULL;

    /* The document larger than file_limit is refused before it is read. */
    o.file_limit = 10;
    CHECK(ferry_gltf_load(path, &o, &scene, &err) == FERRY_ERR_LIMIT);
    CHECK(scene == NULL);
    o.file_limit = 0;

    /* A .glb written by the library, loaded back from its path. */
    ferry_scene *built = NULL;
    CHECK(ferry_gltf_load(path, &(ferry_gltf_read_options){.skip_images = true}, &built, &err) == FERRY_OK);
    snprintf(other, sizeof other, "%s/tri.glb", dir);
    CHECK(built && ferry_gltf_save(built, other, NULL, &err) == FERRY_OK);
    ferry_scene_free(built);
    CHECK(ferry_gltf_load(other, NULL, &scene, &err) == FERRY_OK);
    CHECK(scene && scene->mesh_count == 1);
    ferry_scene_free(scene);

    /* Bad inputs: missing, no glTF, cut short, no path. */
    snprintf(other, sizeof other, "%s/none.glb", dir);
    CHECK(ferry_gltf_load(other, NULL, &scene, &err) == FERRY_ERR_IO);
    CHECK(scene == NULL && strstr(err.message, "none.glb") != NULL);
    CHECK(ferry_gltf_load(FERRY_SOURCE_DIR "/samples/alamo/crate.alo", NULL, &scene, &err) != FERRY_OK);
    CHECK(scene == NULL && err.message[0]);
    put("cut.gltf", tri_gltf, 40);
    snprintf(other, sizeof other, "%s/cut.gltf", dir);
    CHECK(ferry_gltf_load(other, NULL, &scene, &err) == FERRY_ERR_MALFORMED);
    CHECK(scene == NULL && err.message[0]);
    CHECK(ferry_gltf_load(NULL, NULL, &scene, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_gltf_load(path, NULL, NULL, &err) == FERRY_ERR_ARGUMENT);
}

static void test_folder_of(void)
{
    ferry_file_source s;
    const char *name = NULL;
    ferry_error err;
    char path[256];
    snprintf(path, sizeof path, "%s/tri.bin", dir);
    CHECK(ferry_file_source_folder_of(path, &s, &name, &err) == FERRY_OK);
    CHECK(name && strcmp(name, "tri.bin") == 0 && strcmp(s.label, dir) == 0);
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(ferry_file_source_load(&s, name, 0, &data, &size, &err) == FERRY_OK && size == sizeof tri_bin);
    ferry_file_source_release(&s, data, size);
    ferry_file_source_close(&s);

    CHECK(ferry_file_source_folder_of("tri.bin", &s, &name, &err) == FERRY_OK);
    CHECK(strcmp(name, "tri.bin") == 0 && strcmp(s.label, ".") == 0);
    ferry_file_source_close(&s);
    CHECK(ferry_file_source_folder_of("/x.alo", &s, NULL, &err) == FERRY_OK);
    CHECK(strcmp(s.label, "/") == 0);
    ferry_file_source_close(&s);
    CHECK(ferry_file_source_folder_of(NULL, &s, &name, &err) == FERRY_ERR_ARGUMENT && name == NULL);
    char *long_path = malloc(6000);
    memset(long_path, 'a', 5999);
    long_path[5999] = '\0';
    long_path[5990] = '/'; /* a folder longer than any path a source takes */
    CHECK(ferry_file_source_folder_of(long_path, &s, &name, &err) == FERRY_ERR_ARGUMENT);
    free(long_path);
}

int main(void)
{
    if (!test_make_temp_dir("ferry-gltf-load", dir, sizeof dir)) {
        fprintf(stderr, "no temporary folder\n");
        return 1;
    }
    test_load();
    test_folder_of();
    CHECK(test_remove_tree(dir));
    TEST_END();
}
