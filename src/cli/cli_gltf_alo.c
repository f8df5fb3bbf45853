/* ferry convert MODEL.glb|MODEL.gltf OUT.alo: a glTF model authored for the
 * game with its animations and textures (the library's ferry_author_alo),
 * its messages and summary printed here. docs/formats/gltf-import.md. */
#include "cli.h"
#include "formats.h"

#include <ferry/author.h>
#if FERRY_CLI_ASSIMP
#include "ferry_assimp.h"
#endif
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The formats read through Assimp, by extension (they have no ferry
 * detector): the hint Assimp picks its importer by, or NULL. */
const char *cli_assimp_hint(const char *path)
{
    static const char *const exts[] = {".fbx", ".obj", ".dae"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (cli_has_ext(path, exts[i])) return exts[i] + 1; /* "fbx" */
    return NULL;
}

/* A glTF file, or an FBX/OBJ/Collada file through Assimp (self-contained:
 * no .mtl, no external textures): through Assimp only when the content is
 * no format ferry reads (a glTF named .obj is a glTF), as cmd_convert.c
 * routes; the head tells the content as the whole file does. */
static ferry_scene *load_scene(const char *in, ferry_error *err)
{
    const char *hint = cli_assimp_hint(in);
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got = 0;
    ferry_error ignored;
    ferry_scene *scene = NULL;
    if (hint && ferry_file_read_head(in, head, sizeof head, &got, NULL, &ignored) == FERRY_OK &&
        ferry_detect(head, got) == FERRY_FORMAT_UNKNOWN) {
        uint8_t *data = NULL;
        size_t size = 0;
#if FERRY_CLI_ASSIMP
        if (ferry_file_load(in, FERRY_ASSET_MAX_INPUT, &data, &size, err) != FERRY_OK) return NULL;
        ferry_assimp_read_options ao = {0};
        ao.format_hint = hint;
        if (ferry_assimp_read(data, size, &ao, &scene, err) != FERRY_OK) scene = NULL;
        ferry_file_free(data);
        return scene;
#else
        (void)data;
        (void)size;
        memset(err, 0, sizeof *err);
        err->code = FERRY_ERR_UNSUPPORTED;
        err->offset = FERRY_NO_OFFSET;
        snprintf(err->message, sizeof err->message,
                 "FBX, OBJ and Collada input needs Assimp, which this build of ferry does not have "
                 "(the Windows build: convert to glTF elsewhere first)");
        return NULL;
#endif
    }
    if (ferry_gltf_load(in, NULL, &scene, err) != FERRY_OK) scene = NULL;
    return scene;
}

/* IN and OUT of a conversion from a scene file, its options read as
 * `options` says, and IN read; NULL with *status set. */
static ferry_scene *scene_args(int argc, char **argv, const cli_option *options, const char *unknown, const char **files,
                               int *status)
{
    *status = cli_convert_args(argc, argv, options, unknown, "expected IN and OUT files", files);
    if (*status != CLI_OK) return NULL;
    ferry_error err;
    ferry_scene *scene = load_scene(files[0], &err);
    if (!scene) cli_print_error(files[0], &err);
    *status = scene ? CLI_OK : CLI_INVALID;
    return scene;
}

int cli_gltf_alo_convert(int argc, char **argv, ferry_format source)
{
    (void)source;
    const char *files[2] = {NULL, NULL}, *textures_out = NULL;
    int ala_format = 0;
    bool allow_invalid = false;
    const cli_option options[] = {CLI_FLAG("--allow-invalid", &allow_invalid),
                                  CLI_VALUE("--ala-format", &ala_format, cli_take_ala_format, "--ala-format takes 1 or 2"),
                                  CLI_VALUE("--textures-out", &textures_out, cli_take_text, "--textures-out needs a folder"), {0}};
    int status;
    ferry_scene *scene =
        scene_args(argc, argv, options, "option '%s' does not apply to glTF -> ALO (ferry convert --help)", files, &status);
    if (!scene) return status;
    const char *in = files[0], *out = files[1];
    ferry_error err;
    ferry_author_alo_options ao = {0};
    ao.name = in;
    ao.ala_format = (uint8_t)ala_format;
    ao.allow_invalid = allow_invalid;
    ao.write.protect_input = in;
    ao.message = cli_print_message;
    ao.user = "convert";
    ferry_author_alo_report rep;
    if (ferry_author_alo(scene, out, textures_out, &ao, &rep, &err) != FERRY_OK) {
        ferry_scene_free(scene);
        return rep.write_failed && err.code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
    }
    const ferry_alo_from_scene_report *m = &rep.model;
    size_t warnings = m->warnings + rep.validation_warnings, written = rep.animations_written;
    fprintf(stderr,
            "%s -> %s: %zu bone%s, %zu mesh%s (%zu sub-mesh%s), %zu triangle%s, %zu material%s (%zu from ferry's extras, %zu "
            "mapped), %zu light%s, %zu prox%s, %zu warning%s\n",
            CLI_TXT(in), CLI_TXT(out), m->bones, m->bones == 1 ? "" : "s", m->meshes, m->meshes == 1 ? "" : "es",
            m->submeshes, m->submeshes == 1 ? "" : "es", m->triangles, m->triangles == 1 ? "" : "s", m->materials,
            m->materials == 1 ? "" : "s", m->materials_from_extras, m->materials_mapped, m->lights,
            m->lights == 1 ? "" : "s", m->proxies, m->proxies == 1 ? "y" : "ies", warnings, warnings == 1 ? "" : "s");
    if (m->vertices_reweighted)
        fprintf(stderr, "%s: %zu skinned vertices kept only their dominant joint (weight dropped: %.3g at most, %.3g on average)\n",
                CLI_TXT(in), m->vertices_reweighted, m->dropped_weight_max, m->dropped_weight_total / (double)m->vertices_reweighted);
    if (m->own_bones)
        fprintf(stderr, "%s: %zu prox%s or light%s moved from their bone got a bone of their own\n", CLI_TXT(in), m->own_bones,
                m->own_bones == 1 ? "y" : "ies", m->own_bones == 1 ? "" : "s");
    if (m->primitives_split)
        fprintf(stderr, "%s: %zu primitive%s split over 65,535 vertices or 24 skinning bones\n", CLI_TXT(in), m->primitives_split,
                m->primitives_split == 1 ? "" : "s");
    if (m->collision_trees)
        fprintf(stderr, "%s: %zu collision tree%s built\n", CLI_TXT(in), m->collision_trees, m->collision_trees == 1 ? "" : "s");
    if (m->collision_disabled)
        fprintf(stderr, "%s: %zu mesh%s had collision enabled but no tree could be built: collision is off\n", CLI_TXT(in),
                m->collision_disabled, m->collision_disabled == 1 ? "" : "es");
    if (textures_out)
        fprintf(stderr, "%s: %zu of %zu texture%s written to %s\n", CLI_TXT(in), rep.textures_written, m->texture_count,
                m->texture_count == 1 ? "" : "s", CLI_TXT(textures_out));
    else if (m->texture_count)
        fprintf(stderr, "%s: %zu texture%s named from the glTF's images, not written (--textures-out DIR writes them)\n",
                CLI_TXT(in), m->texture_count, m->texture_count == 1 ? "" : "s");
    if (written)
        fprintf(stderr, "%s: %zu animation%s written as .ala beside %s\n", CLI_TXT(in), written, written == 1 ? "" : "s",
                CLI_TXT(out));
    if (scene->animation_count > written)
        fprintf(stderr, "%s: %zu animation%s not written (named above)\n", CLI_TXT(in), scene->animation_count - written,
                scene->animation_count - written == 1 ? "" : "s");
    ferry_scene_free(scene);
    if (rep.textures_failed) return CLI_INVALID;
    if (rep.animation_result != FERRY_OK)
        return rep.animation_write_failed && rep.animation_result == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
    return CLI_OK;
}

/* ferry convert MODEL.fbx|.obj|.dae OUT.glb|OUT.gltf: the scene Assimp
 * read, written as glTF unchanged (Y up as read). */
int cli_assimp_gltf_convert(int argc, char **argv, ferry_format source)
{
    (void)source;
    const char *files[2] = {NULL, NULL};
    int status;
    ferry_scene *scene = scene_args(argc, argv, NULL, "option '%s' does not apply to FBX/OBJ/Collada -> glTF", files, &status);
    if (!scene) return status;
    const char *in = files[0], *out = files[1];
    ferry_error err;
    /* The reader names textures without loading them (self-contained
     * files only); glTF images need their bytes, so the names are left out. */
    if (scene->image_count) {
        for (size_t i = 0; i < scene->material_count; i++) {
            scene->materials[i].has_base_color_image = false;
            scene->materials[i].base_color_image = 0;
        }
        fprintf(stderr, "%s: %zu texture%s named but not loaded: left out of %s\n", CLI_TXT(in), scene->image_count,
                scene->image_count == 1 ? "" : "s", CLI_TXT(out));
        scene->image_count = 0;
    }
    ferry_write_options wo = {in, false};
    if (ferry_gltf_save(scene, out, &wo, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        status = CLI_INVALID;
    }
    ferry_scene_free(scene);
    return status;
}
