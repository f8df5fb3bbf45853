/* ferry convert MODEL.glb|.gltf OUT.ala: a glTF animation as an ALA file
 * (the library's ferry_author_ala; which animation: ferry_scene_find_animation),
 * its options and the printing. */
#include "export.h"
#include "formats.h"

#include <ferry/author.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void list_animations(const ferry_scene *scene)
{
    for (size_t i = 0; i < scene->animation_count && i < 50; i++)
        fprintf(stderr, "  %zu: %s\n", i, scene->animations[i].name ? CLI_TXT(scene->animations[i].name) : "(no name)");
}

static int take_fps(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    char *end;
    double fps = strtod(value, &end);
    if (*end || end == value || !(fps > 0 && fps <= 1000)) return CLI_REFUSED;
    *(double *)to = fps;
    return CLI_OK;
}

ferry_scene *cli_gltf_scene(const char *in)
{
    ferry_scene *scene = NULL;
    ferry_error err;
    if (ferry_gltf_load(in, &(ferry_gltf_read_options){.skip_images = true}, &scene, &err) == FERRY_OK) return scene;
    cli_print_error(in, &err);
    return NULL;
}

int cli_gltf_ala_convert(int argc, char **argv, ferry_format source)
{
    (void)source;
    const char *files[2] = {NULL, NULL}, *which = NULL, *model_path = NULL;
    int ala_format = 0;
    double fps = 0;
    const cli_option options[] = {
        CLI_VALUE("--animation", &which, cli_take_text, "%s needs a value"),
        {"--ala-format", &ala_format, cli_take_ala_format, "%s needs a value", "--ala-format takes 1 or 2"},
        CLI_VALUE("--model", &model_path, cli_take_text, "%s needs a value"),
        {"--fps", &fps, take_fps, "%s needs a value", "--fps takes a number above 0 and at most 1000, not '%s'"}, {0}};
    int status = cli_convert_args(
        argc, argv, options, "option '%s' does not apply to glTF -> ALA conversions (ferry convert --help)", NULL, files);
    if (status != CLI_OK) return status;
    const char *in = files[0], *out = files[1];
    ferry_error err;
    ferry_scene *scene = cli_gltf_scene(in);
    if (!scene) return CLI_INVALID;
    status = CLI_INVALID;
    size_t index = 0;
    ferry_asset *model_asset = NULL;
    if (scene->animation_count == 0) {
        fprintf(stderr, "%s: holds no animation\n", CLI_TXT(in));
        goto done;
    }
    if (!ferry_scene_find_animation(scene, which, &index)) {
        if (which) fprintf(stderr, "%s: no animation '%s'; the file holds:\n", CLI_TXT(in), CLI_TXT(which));
        else fprintf(stderr, "ferry convert: %s holds %zu animations: choose one with --animation N|NAME:\n", CLI_TXT(in),
                     scene->animation_count);
        list_animations(scene);
        status = which ? CLI_INVALID : CLI_USAGE;
        goto done;
    }
    if (model_path && !(model_asset = cli_read_as(model_path, NULL, 0, FERRY_FORMAT_ALO_MODEL))) goto done;
    ferry_author_ala_options ao = {0};
    ao.name = in;
    ao.animation_index = index;
    ao.format = (uint8_t)ala_format;
    ao.fps = fps;
    ao.model = model_asset;
    ao.write.protect_input = in;
    ao.message = cli_print_message;
    ao.user = "convert";
    ferry_author_ala_report rep;
    if (ferry_author_ala(scene, out, &ao, &rep, &err) == FERRY_OK)
        status = CLI_OK;
    else
        status = rep.write_failed && err.code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
done:
    ferry_asset_free(model_asset);
    ferry_scene_free(scene);
    return status;
}
