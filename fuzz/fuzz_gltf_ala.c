/* libFuzzer target: glTF animations to ALA (ferry_ala_from_scene) on any
 * scene the glTF reader makes.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a refused animation says why and where ("animations[i]");
 *  - an animation built (format 2, then format 1) validates without errors,
 *    writes, reads back, and its tracks name distinct bones in order;
 *  - warnings carry a rule and a message. */
#include <ferry/ala.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_gltf_ala: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_gltf_read_options o;
    memset(&o, 0, sizeof o);
    o.skip_images = true;
    ferry_scene *scene;
    ferry_error err;
    if (ferry_gltf_read(data, size, &o, &scene, &err) != FERRY_OK) return 0;
    for (size_t i = 0; i < scene->animation_count && i < 4; i++) {
        for (int format = 2; format >= 1; format--) {
            ferry_diagnostics d;
            memset(&d, 0, sizeof d);
            ferry_ala_from_scene_options ao;
            memset(&ao, 0, sizeof ao);
            ao.animation_index = i;
            ao.format = (uint8_t)format;
            ao.diagnostics = &d;
            ferry_ala_animation *a = NULL;
            ferry_result r = ferry_ala_from_scene(scene, &ao, &a, &err);
            for (size_t k = 0; k < d.count; k++)
                if (!d.items[k].rule[0] || !d.items[k].message[0]) fail("a warning without rule or message");
            ferry_diagnostics_free(&d);
            if (r != FERRY_OK) {
                if (!err.message[0] || (r != FERRY_ERR_NOMEM && strncmp(err.path, "animations[", 11) != 0))
                    fail("a refusal without message or place");
                if (a) fail("an output on failure");
                continue;
            }
            if (a->format != format) fail("the wrong format");
            memset(&d, 0, sizeof d);
            if (ferry_ala_validate(a, NULL, &d) != 0) {
                fprintf(stderr, "%s\n", d.count ? d.items[0].message : "");
                fail("the animation built does not validate");
            }
            ferry_diagnostics_free(&d);
            for (size_t t = 1; t < a->bone_count; t++)
                if (a->bones[t].index <= a->bones[t - 1].index) fail("tracks out of bone order or repeated");
            ferry_buffer buf = {0};
            if (ferry_ala_write(a, &buf, &err) != FERRY_OK) fail("the animation built does not write");
            ferry_ala_animation *back = NULL;
            if (ferry_ala_read(buf.data, buf.size, NULL, &back, &err) != FERRY_OK) fail("the written animation does not read");
            if (back->bone_count != a->bone_count || back->frame_count != a->frame_count) fail("read back with other counts");
            ferry_ala_free(back);
            ferry_buffer_free(&buf);
            ferry_ala_free(a);
        }
    }
    ferry_scene_free(scene);
    return 0;
}
