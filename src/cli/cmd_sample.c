/* ferry sample: every bone's local pose at one moment of an animation. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cmd_sample(int argc, char **argv)
{
    const char *anim_path = NULL, *model_path = NULL;
    bool json = false, loop = false;
    cli_number at_frame = {0}, at_time = {0}; /* nan and inf parse as numbers, but name no frame */
    const cli_option options[] = {
        CLI_FLAG("--json", &json), CLI_FLAG("--loop", &loop),
        CLI_VALUE("--frame", &at_frame, cli_take_seconds, "--frame needs a finite number of frames, 0 or more"),
        CLI_VALUE("--time", &at_time, cli_take_seconds, "--time needs a finite number of seconds, 0 or more"),
        CLI_VALUE("--model", &model_path, cli_take_text, "--model needs a file"), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"sample", options, cli_help_sample, NULL, &anim_path, 1,
                                       "one animation at a time (use --model for the model)"}, argc, argv, &count);
    if (status != CLI_OK) return CLI_STATUS(status);
    if (!anim_path) return cli_usage_error("sample", "no animation given");
    if (!at_frame.text == !at_time.text) return cli_usage_error("sample", "give exactly one of --frame and --time");
    double frame = at_frame.value;

    cli_asset anim, model = {0};
    ferry_error err;
    status = CLI_INVALID;
    if (!cli_asset_load(anim_path, &anim, NULL)) goto done;
    if (!anim.animation) {
        fprintf(stderr, "%s: error: this is an %s, not an animation\n", anim_path, ferry_alamo_kind_name(anim.kind));
        goto done;
    }
    if (model_path) {
        if (!cli_asset_load(model_path, &model, NULL)) goto done;
        if (!model.model) {
            fprintf(stderr, "%s: error: this is an %s, not a model\n", model_path, ferry_alamo_kind_name(model.kind));
            goto done;
        }
        /* Names come from the model by index: say so when index and name disagree. */
        char misfit[512];
        if (ferry_ala_model_misfits(anim.animation, model.model, misfit, sizeof misfit))
            fprintf(stderr, "%s: warning: does not fit %s (bone names are the model's, by index): %s\n", anim_path,
                    model_path, misfit);
    }
    const ferry_ala_animation *a = anim.animation;
    if (at_time.text) frame = ferry_ala_frame_at(a, at_time.value);
    if (!isfinite(frame)) { /* a finite time so large that its frame is not */
        status = cli_usage_error("sample", "--time %s is too large: its frame is not a finite number", CLI_TXT(at_time.text));
        goto done;
    }
    /* The poses from the library, as data: printed as they are (--json),
     * or as text from their exact values. */
    ferry_asset_sample_options so = {.frame = frame, .loop = loop, .model = model.handle};
    so.exact = so.nonfinite_strings = !json;
    ferry_buffer text = {0};
    if (ferry_asset_sample(anim.handle, &so, &text, &err) != FERRY_OK) {
        ferry_buffer_free(&text);
        cli_print_error(anim_path, &err);
        goto done;
    }
    json_t *root = cli_library_json(anim_path, &text, json ? CLI_JSON_OUTPUT : CLI_JSON_TEXT);
    if (!root) goto done;
    if (json) {
        cli_print_json(root);
        json_decref(root);
        status = CLI_OK;
        goto done;
    }
    printf("%s: frame %.4g of %u (%.4g s at %.4g fps)%s\n", anim_path, frame, (unsigned)a->frame_count,
           ferry_ala_duration(a) > 0 ? frame / (double)a->fps : 0.0, (double)a->fps, loop ? ", looping" : "");
    const json_t *bones = json_object_get(root, "bones");
    for (size_t i = 0; i < json_array_size(bones); i++) {
        const json_t *b = json_array_get(bones, i);
        const json_t *t = json_object_get(b, "translation"), *r = json_object_get(b, "rotation"),
                     *sc = json_object_get(b, "scale"), *visible = json_object_get(b, "visible");
        printf("  %3u %-24s t=(%.5g, %.5g, %.5g) r=(%.5f, %.5f, %.5f, %.5f) s=(%.4g, %.4g, %.4g) %s\n",
               (unsigned)cli_jint(b, "index"), cli_jstr(b, "name"), cli_jnum(json_array_get(t, 0)),
               cli_jnum(json_array_get(t, 1)), cli_jnum(json_array_get(t, 2)), cli_jnum(json_array_get(r, 0)),
               cli_jnum(json_array_get(r, 1)), cli_jnum(json_array_get(r, 2)), cli_jnum(json_array_get(r, 3)),
               cli_jnum(json_array_get(sc, 0)), cli_jnum(json_array_get(sc, 1)), cli_jnum(json_array_get(sc, 2)),
               json_is_null(visible) ? "" : json_is_true(visible) ? "visible" : "hidden");
    }
    json_decref(root);
    status = CLI_OK;
done:
    cli_asset_free(&anim);
    cli_asset_free(&model);
    return status;
}
