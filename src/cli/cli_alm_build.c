/* ferry convert model.alo|model.glb out.alm: a progressive mesh from a real
 * one (the library's ferry_author_alm_scene and ferry_author_alm): the
 * inputs read, the summary printed. */
#include "export.h"
#include "formats.h"

#include <ferry/alm.h>
#include <ferry/author.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ALO model IN as the scene to build from, with the animation --anim
 * names (a file, or "auto": found beside the model). NULL with the error
 * printed. */
static ferry_scene *model_scene(const char *in, const char *anim)
{
    ferry_error err;
    cli_asset model, animation = {0};
    if (!cli_asset_load(in, &model, NULL)) return NULL;
    ferry_author_alm_scene_options so = {0};
    so.name = in;
    so.message = cli_print_message;
    so.user = "convert";
    ferry_file_source folder;
    bool folder_open = false;
    ferry_scene *scene = NULL;
    if (anim && strcmp(anim, "auto") == 0) {
        folder_open = ferry_file_source_folder_of(in, &folder, &so.model_path, &err) == FERRY_OK;
        if (folder_open) so.animations = &folder;
    } else if (anim && model.model) {
        if (!cli_asset_load(anim, &animation, &err)) {
            cli_print_error(in, &err);
            goto done;
        }
        so.animation = animation.handle;
    }
    if (ferry_author_alm_scene(model.handle, &so, &scene, &err) != FERRY_OK) scene = NULL; /* said */
done:
    if (folder_open) ferry_file_source_close(&folder);
    cli_asset_free(&animation);
    cli_asset_free(&model);
    return scene;
}

int cli_alm_build(const char *in, const char *out, const cli_convert_options *options)
{
    bool gltf = options->source == FERRY_FORMAT_GLB || options->source == FERRY_FORMAT_GLTF;
    ferry_scene *scene = gltf ? cli_gltf_scene(in) : model_scene(in, options->anim);
    if (!scene) return CLI_INVALID;
    ferry_error err;
    ferry_author_alm_options ao = {0};
    ao.name = in;
    ao.write.protect_input = in;
    ao.message = cli_print_message;
    ao.user = "convert";
    ferry_author_alm_report rep;
    ferry_result r = ferry_author_alm(scene, out, &ao, &rep, &err);
    ferry_scene_free(scene);
    if (r != FERRY_OK) return rep.write_failed && err.code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
    fprintf(stderr, "%s -> %s: %u positions, %u vertices, %u triangles, %u collapses (down to %u triangles), %u frames\n",
            in, out, rep.positions, rep.vertices, rep.triangles, rep.collapses, rep.fewest_triangles, rep.frames);
    return CLI_OK;
}
