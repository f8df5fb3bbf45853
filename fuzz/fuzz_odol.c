/* libFuzzer target: the ODOL v40 reader, and what consumes a model it
 * produced (validation, the writer).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input, with a path;
 *  - validation reports only diagnostics with a rule and a message, and
 *    returns its error count;
 *  - a model that reads writes, those bytes read again, and writing what
 *    was read again gives the same bytes (idempotence: flag bytes other
 *    than 0 and 1 may come back as 1 the first time, nothing else moves);
 *    undamaged flags give back the input itself;
 *  - the glTF conversion (the game's view and every LOD) either fails with a
 *    message or gives a scene that writes as .glb or fails with a message. */
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/odol.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_odol: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_odol_model *model;
    ferry_error err;
    if (ferry_odol_read(data, size, NULL, &model, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0] ||
            !err.path[0])
            fail("error without a location inside the input");
        return 0;
    }

    ferry_diagnostics diags;
    memset(&diags, 0, sizeof diags);
    size_t errors = ferry_odol_validate(model, NULL, &diags);
    if (errors != diags.error_count) fail("validate's result differs from its error count");
    for (size_t i = 0; i < diags.count; i++)
        if (!diags.items[i].message[0] || !diags.items[i].rule[0]) fail("diagnostic without rule or message");
    ferry_diagnostics_free(&diags);

    for (int all = 0; all < 2; all++) {
        ferry_odol_scene_options so = {0}; /* zeroed: the game's view */
        so.all = all;
        ferry_scene *scene = NULL;
        if (ferry_odol_to_scene(model, &so, &scene, &err) != FERRY_OK) {
            if (err.code == FERRY_OK || !err.message[0]) fail("a refused conversion without a message");
            continue;
        }
        ferry_buffer glb = {0};
        if (ferry_gltf_write_glb(scene, &glb, &err) != FERRY_OK && (err.code == FERRY_OK || !err.message[0]))
            fail("a refused glTF write without a message");
        ferry_buffer_free(&glb);
        ferry_scene_free(scene);
    }

    ferry_buffer out = {0};
    if (ferry_odol_write(model, &out, &err) != FERRY_OK) fail("a read model does not write");
    if (out.size != size) fail("writing changes the size of the input");
    ferry_odol_model *again;
    if (ferry_odol_read(out.data, out.size, NULL, &again, &err) != FERRY_OK) fail("written bytes do not read");
    ferry_buffer second = {0};
    if (ferry_odol_write(again, &second, &err) != FERRY_OK) fail("the model read back does not write");
    if (second.size != out.size || memcmp(second.data, out.data, out.size) != 0) fail("writing is not idempotent");
    ferry_buffer_free(&second);
    ferry_odol_free(again);
    ferry_buffer_free(&out);
    ferry_odol_free(model);
    return 0;
}
