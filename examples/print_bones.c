/* print_bones: lists the bones of an Alamo model (.alo) with their parents
 * and where each sits in the model, through libferry's public API.
 *
 *   cc print_bones.c $(pkg-config --cflags --libs ferry) -o print_bones
 *   ./print_bones walker.alo
 *
 * Exit status: 0 success, 1 a file that cannot be read as a model, 2 usage.
 */
#include <ferry/alo.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: print_bones MODEL.alo\n");
        return 2;
    }

    /* Load the file and read it into the typed model. The model copies what
     * it keeps, so the file's bytes can go at once. */
    uint8_t *data;
    size_t size;
    ferry_error err;
    ferry_alo_model *model = NULL;
    ferry_result result = ferry_file_load(argv[1], 0, &data, &size, &err);
    if (result == FERRY_OK) {
        result = ferry_alo_read(data, size, NULL, &model, &err);
        ferry_file_free(data);
    }
    if (result != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        fprintf(stderr, "%s: %s\n", argv[1], line);
        return 1;
    }

    /* Each bone's matrix is relative to its parent; the library composes
     * them into model-space matrices (4x4, column-major: the position is
     * elements 12, 13 and 14). */
    const ferry_alo_skeleton *skeleton = &model->skeleton;
    float *world = malloc(16 * (skeleton->bone_count ? skeleton->bone_count : 1) * sizeof *world);
    if (!world) {
        ferry_alo_free(model);
        fprintf(stderr, "print_bones: out of memory\n");
        return 1;
    }
    ferry_alo_bone_world_matrices(model, world);

    printf("%zu bones\n", skeleton->bone_count);
    for (size_t i = 0; i < skeleton->bone_count; i++) {
        const ferry_alo_bone *bone = &skeleton->bones[i];
        const char *parent = bone->parent >= 0 && (size_t)bone->parent < skeleton->bone_count
                                 ? skeleton->bones[bone->parent].name
                                 : "-";
        const float *m = &world[16 * i];
        printf("%zu %s parent %s at (%.3f, %.3f, %.3f)\n", i, bone->name, parent, m[12], m[13], m[14]);
    }

    free(world);
    ferry_alo_free(model);
    return 0;
}
