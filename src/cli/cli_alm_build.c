/* ferry convert model.alo|model.glb out.alm: a progressive mesh from a real
 * one. An ALO model is taken as the game draws it (no shadow, collision or
 * explicit LOD meshes: the progressive mesh replaces those). */
#include "export.h"
#include "formats.h"

#include <ferry/alm.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ferry_scene *scene_from_gltf(const char *in, ferry_error *err)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (ferry_file_load(in, CLI_MAX_INPUT, &data, &size, err) != FERRY_OK) return NULL;
    /* A .gltf's buffers and images: the document's folder as a file source. */
    const char *slash = strrchr(in, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - in) : 1, slash ? in : ".");
    ferry_file_source folder;
    if (ferry_file_source_folder(*dir ? dir : "/", &folder, err) != FERRY_OK) {
        ferry_file_free(data);
        return NULL;
    }
    ferry_gltf_read_options o;
    memset(&o, 0, sizeof o);
    o.files = &folder;
    o.file_limit = CLI_MAX_INPUT;
    o.skip_images = true;
    ferry_scene *scene = NULL;
    if (ferry_gltf_read(data, size, &o, &scene, err) != FERRY_OK) scene = NULL;
    ferry_file_free(data);
    ferry_file_source_close(&folder);
    return scene;
}

/* The MODEL_*.ala files beside a model (malloc'd DIR/NAME paths, in the
 * library's order): its folder as a file source, the names paired by
 * ferry_ala_find_animations. */
static size_t find_animations(const char *model_path, char ***paths)
{
    *paths = NULL;
    const char *slash = strrchr(model_path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - model_path) : 1, slash ? model_path : ".");
    const char *base = slash ? slash + 1 : model_path;
    ferry_file_source folder;
    ferry_error err;
    if (!*dir || ferry_file_source_folder(dir, &folder, &err) != FERRY_OK) return 0;
    char **names = NULL;
    size_t count = 0;
    if (ferry_ala_find_animations(&folder, base, &names, &count, &err) != FERRY_OK) count = 0;
    ferry_file_source_close(&folder);
    if (count) *paths = calloc(count, sizeof **paths);
    size_t found = 0;
    for (size_t i = 0; *paths && i < count; i++) {
        size_t need = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(need);
        if (!path) break;
        snprintf(path, need, "%s/%s", dir, names[i]);
        (*paths)[found++] = path;
    }
    ferry_ala_free_paths(names, count);
    return found;
}

static void free_paths(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++) free(paths[i]);
    free(paths);
}

/* An error of the arguments: no offset, no chunk path; the message is set by the caller. */
static void argument_error(ferry_error *err)
{
    err->code = FERRY_ERR_ARGUMENT;
    err->offset = FERRY_NO_OFFSET;
    err->path[0] = '\0';
}

/* Loads `path` as the model's animation. False (and err filled) when it
 * cannot be read, is no animation, or does not fit the model by the
 * library's match rule (ferry_ala_model_misfits). */
static bool load_fitting(const char *path, const ferry_alo_model *model, cli_asset *animation, ferry_error *err)
{
    if (!cli_asset_load(path, animation, err) || !animation->animation) {
        if (err->code == FERRY_OK) {
            argument_error(err);
            snprintf(err->message, sizeof err->message, "%s is not an ALA animation", path);
        }
        cli_asset_free(animation);
        return false;
    }
    /* The message holds 255 bytes: the list is cut to leave room for the name. */
    char misfit[128];
    if (ferry_ala_model_misfits(animation->animation, model, misfit, sizeof misfit)) {
        const char *base = strrchr(path, '/');
        argument_error(err);
        snprintf(err->message, sizeof err->message, "%.100s does not fit the model: %s", base ? base + 1 : path,
                 misfit);
        cli_asset_free(animation);
        return false;
    }
    return true;
}

static ferry_scene *scene_from_alo(const char *in, const char *anim, ferry_error *err)
{
    cli_asset asset;
    if (!cli_asset_load(in, &asset, err)) {
        cli_asset_free(&asset);
        return NULL;
    }
    if (asset.kind != FERRY_ALAMO_MODEL || !asset.model) {
        argument_error(err);
        snprintf(err->message, sizeof err->message, "not a model: only models become ALM meshes");
        cli_asset_free(&asset);
        return NULL;
    }
    char **found = NULL;
    size_t found_count = 0;
    cli_asset animation;
    memset(&animation, 0, sizeof animation);
    if (anim && strcmp(anim, "auto") == 0) {
        /* The first animation beside the model that can be read and fits;
         * the others are named and skipped. */
        found_count = find_animations(in, &found);
        anim = NULL;
        for (size_t i = 0; i < found_count && !anim; i++) {
            ferry_error why;
            if (load_fitting(found[i], asset.model, &animation, &why)) {
                anim = found[i];
            } else {
                char line[640];
                ferry_error_format(&why, line, sizeof line);
                fprintf(stderr, "%s: warning: animation skipped: %s\n", found[i], line);
            }
        }
    } else if (anim && !load_fitting(anim, asset.model, &animation, err)) {
        cli_asset_free(&asset);
        return NULL;
    }
    ferry_scene *scene = NULL;
    const ferry_ala_animation *anims[1] = {animation.animation};
    const char *names[1] = {anim};
    ferry_alo_scene_options so = {0};
    char *name = cli_model_name(in);
    so.name = name;
    so.skip_textures = true;
    if (animation.animation) {
        so.animations = anims;
        so.animation_names = names;
        so.animation_count = 1;
    }
    if (ferry_alo_to_scene(asset.model, &so, &scene, err) != FERRY_OK) scene = NULL;
    free(name);
    cli_asset_free(&asset);
    cli_asset_free(&animation);
    free_paths(found, found_count);
    return scene;
}

int cli_alm_build(const char *in, const char *out, const cli_convert_options *options)
{
    ferry_format source = options->source;
    const char *anim = options->anim;
    ferry_error err = {0};
    ferry_scene *scene = NULL;
    if (source == FERRY_FORMAT_GLB || source == FERRY_FORMAT_GLTF) scene = scene_from_gltf(in, &err);
    else scene = scene_from_alo(in, anim, &err);
    if (!scene) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    ferry_alm_mesh *mesh = NULL;
    ferry_result r = ferry_alm_from_scene(scene, NULL, &mesh, &err);
    ferry_scene_free(scene);
    if (r != FERRY_OK) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    ferry_buffer buf = {0};
    int status;
    if (ferry_alm_write(mesh, &buf, &err) != FERRY_OK) {
        cli_print_error(in, &err);
        status = CLI_INVALID;
    } else {
        status = cli_write_output(in, out, &buf);
    }
    if (status == CLI_OK) {
        /* How far the records go: the triangles left after the last one. */
        uint32_t *counts = malloc(((size_t)mesh->collapse_count + 1) * sizeof *counts);
        if (counts && ferry_alm_lod_triangle_counts(mesh, counts, NULL) == FERRY_OK)
            fprintf(stderr, "%s -> %s: %u positions, %u vertices, %u triangles, %u collapses (down to %u triangles), %u frames\n",
                    in, out, mesh->position_count, mesh->vertex_count, mesh->triangle_count, mesh->collapse_count,
                    counts[mesh->collapse_count], mesh->frame_count);
        free(counts);
    }
    ferry_buffer_free(&buf);
    ferry_alm_free(mesh);
    return status;
}
