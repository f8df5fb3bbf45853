/* ferry convert MODEL.glb|MODEL.gltf OUT.alo: a glTF model authored for the
 * game (ferry_alo_from_scene), checked by ferry validate's rules before it
 * is written. Animations become OUT_<NAME>.ala files beside it through
 * write_animations (the ALA writer's hook). docs/formats/gltf-import.md. */
#include "cli.h"
#include "formats.h"
#include "export.h"

#include <ferry/convert.h>
#include "ferry_assimp.h"
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cli_gltf_alo_convert_help[] =
    "\n"
    "  IN.glb|IN.gltf -> OUT.alo   an Alamo model from glTF: nodes become bones\n"
    "  IN.fbx|IN.obj|IN.dae        (read through Assimp, self-contained files only:\n"
    "                      no .mtl, no external textures) the same way; also\n"
    "                      -> OUT.glb|OUT.gltf as they are read\n"
    "                      (ferry's own exports come back as they were; other\n"
    "                      tools' Y-up glTF is turned Z-up), meshes with one\n"
    "                      sub-mesh per primitive and material, shaders from\n"
    "                      ferry's extras or mapped from the glTF material,\n"
    "                      lights, proxies; the result must pass ferry validate\n"
    "                      (else nothing is written and the errors are named).\n"
    "                      Animations: OUT_<NAME>.ala beside it (--ala-format 1|2)\n"
    "  --textures-out DIR  write the textures the mapped materials name (the\n"
    "                      glTF's PNG images) into DIR as .dds: DXT1, DXT5 with\n"
    "                      alpha, full mipmap chains (sides powers of two)\n";

/* The formats read through Assimp, by extension (they have no ferry
 * detector): the hint Assimp picks its importer by, or NULL. */
const char *cli_assimp_hint(const char *path)
{
    static const char *const exts[] = {"fbx", "obj", "dae"};
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return NULL;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        char e[8];
        snprintf(e, sizeof e, ".%s", exts[i]);
        if (cli_has_ext(path, e)) return exts[i];
    }
    return NULL;
}

/* A glTF file, or an FBX/OBJ/Collada file through Assimp (self-contained:
 * no .mtl, no external textures). */
static ferry_scene *read_gltf(const char *in, ferry_error *err)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (ferry_file_load(in, CLI_MAX_INPUT, &data, &size, err) != FERRY_OK) return NULL;
    /* Through Assimp only when the content is no format ferry reads (a glTF
     * named .obj is a glTF), as cmd_convert.c routes. */
    const char *hint = ferry_detect(data, size) == FERRY_FORMAT_UNKNOWN ? cli_assimp_hint(in) : NULL;
    if (hint) {
        ferry_assimp_read_options ao;
        memset(&ao, 0, sizeof ao);
        ao.format_hint = hint;
        ferry_scene *scene = NULL;
        if (ferry_assimp_read(data, size, &ao, &scene, err) != FERRY_OK) scene = NULL;
        ferry_file_free(data);
        return scene;
    }
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
    ferry_scene *scene = NULL;
    if (ferry_gltf_read(data, size, &o, &scene, err) != FERRY_OK) scene = NULL;
    ferry_file_source_close(&folder);
    ferry_file_free(data);
    return scene;
}

/* One OUT_<NAME>.ala per glTF animation beside OUT.alo (cli_gltf_ala.c),
 * its tracks bound to the model's bones by name, in the model's order.
 * *written counts them; a failed one is named and fails the command. */
static int write_animations(const char *in, const ferry_scene *scene, const ferry_alo_model *model, const char *out,
                            int ala_format, size_t *written)
{
    size_t n = model->skeleton.bone_count;
    *written = 0;
    const char **names = calloc(n + 1, sizeof *names);
    if (!names) return CLI_INVALID;
    for (size_t i = 0; i < n; i++) names[i] = model->skeleton.bones[i].name ? model->skeleton.bones[i].name : "";
    int status = cli_gltf_write_animations(in, scene, out, ala_format, 0, names, n, written);
    free(names);
    return status;
}

int cli_gltf_alo_convert(int argc, char **argv, ferry_format source)
{
    (void)source;
    const char *in = NULL, *out = NULL;
    int ala_format = 0;
    bool allow_invalid = false;
    const char *textures_out = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(cli_gltf_alo_convert_help, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--allow-invalid") == 0) {
            allow_invalid = true;
        } else if (strcmp(argv[i], "--ala-format") == 0) {
            if (i + 1 >= argc || (strcmp(argv[i + 1], "1") != 0 && strcmp(argv[i + 1], "2") != 0))
                return cli_usage_error("convert", "--ala-format takes 1 or 2");
            ala_format = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--textures-out") == 0) {
            if (i + 1 >= argc) return cli_usage_error("convert", "--textures-out needs a folder");
            textures_out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("convert", "option '%s' does not apply to glTF -> ALO (ferry convert --help)", argv[i]);
        } else if (!cli_take_file(argv[i], &in, &out)) {
            return CLI_USAGE;
        }
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT files");

    ferry_error err;
    ferry_scene *scene = read_gltf(in, &err);
    if (!scene) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    ferry_diagnostics warnings = {0};
    ferry_alo_from_scene_report rep;
    ferry_alo_from_scene_options opts = {&warnings, &rep};
    ferry_alo_model *model = NULL;
    int status = CLI_INVALID;
    if (ferry_alo_from_scene(scene, &opts, &model, &err) != FERRY_OK) {
        cli_print_error(in, &err);
        goto done;
    }
    for (size_t i = 0; i < warnings.count; i++) cli_fprint_diag(stderr, in, &warnings.items[i]);
    /* ferry validate's rules over the result: an error means the game
     * could fail on it, so nothing is written. */
    ferry_diagnostics diags = {0};
    size_t errors = ferry_alo_validate(model, NULL, &diags);
    for (size_t i = 0; i < diags.count; i++)
        if (diags.items[i].severity == FERRY_SEVERITY_ERROR || allow_invalid) cli_fprint_diag(stderr, out, &diags.items[i]);
    size_t validate_warnings = diags.warning_count;
    ferry_diagnostics_free(&diags);
    if (errors && !allow_invalid) {
        fprintf(stderr, "ferry convert: %s would not be a valid model (%zu error%s above): not written\n", CLI_TXT(out), errors,
                errors == 1 ? "" : "s");
        goto done;
    }
    ferry_buffer buf = {0};
    if (ferry_alo_write(model, &buf, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        ferry_buffer_free(&buf);
        goto done;
    }
    status = cli_write_output(in, out, &buf);
    ferry_buffer_free(&buf);
    if (status != CLI_OK) goto done;
    size_t written = 0;
    int anim_status = write_animations(in, scene, model, out, ala_format, &written);
    size_t textures_written = 0;
    for (size_t i = 0; textures_out && i < rep.texture_count; i++) {
        const ferry_alo_texture_ref *t = &rep.textures[i];
        const ferry_scene_image *img = &scene->images[t->image];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", textures_out, t->name);
        ferry_image rgba = {0};
        ferry_buffer dds = {0};
        if (!img->data || ferry_image_decode(img->data, img->size, NULL, &rgba, &err) != FERRY_OK) {
            fprintf(stderr, "%s: warning: image %d (%s) could not be decoded, %s not written: %s\n", CLI_TXT(in), (int)t->image,
                    CLI_TXT(img->mime_type ? img->mime_type : "no data"), CLI_TXT(t->name), img->data ? err.message : "no data");
        } else if (ferry_alamo_texture_encode_dds(&rgba, t->linear, &dds, &err) != FERRY_OK) {
            fprintf(stderr, "%s: warning: %s not written: %s\n", CLI_TXT(in), CLI_TXT(t->name), err.message);
        } else if (cli_write_output(in, path, &dds) == CLI_OK) {
            textures_written++;
        } else {
            status = CLI_INVALID;
        }
        ferry_buffer_free(&dds);
        ferry_image_free(&rgba);
    }
    fprintf(stderr,
            "%s -> %s: %zu bone%s, %zu mesh%s (%zu sub-mesh%s), %zu triangle%s, %zu material%s (%zu from ferry's extras, %zu "
            "mapped), %zu light%s, %zu prox%s, %zu warning%s\n",
            CLI_TXT(in), CLI_TXT(out), rep.bones, rep.bones == 1 ? "" : "s", rep.meshes, rep.meshes == 1 ? "" : "es",
            rep.submeshes, rep.submeshes == 1 ? "" : "es", rep.triangles, rep.triangles == 1 ? "" : "s", rep.materials,
            rep.materials == 1 ? "" : "s", rep.materials_from_extras, rep.materials_mapped, rep.lights,
            rep.lights == 1 ? "" : "s", rep.proxies, rep.proxies == 1 ? "y" : "ies", rep.warnings + validate_warnings,
            rep.warnings + validate_warnings == 1 ? "" : "s");
    if (rep.vertices_reweighted)
        fprintf(stderr, "%s: %zu skinned vertices kept only their dominant joint (weight dropped: %.3g at most, %.3g on average)\n",
                CLI_TXT(in), rep.vertices_reweighted, rep.dropped_weight_max, rep.dropped_weight_total / (double)rep.vertices_reweighted);
    if (rep.own_bones)
        fprintf(stderr, "%s: %zu prox%s or light%s moved from their bone got a bone of their own\n", CLI_TXT(in), rep.own_bones,
                rep.own_bones == 1 ? "y" : "ies", rep.own_bones == 1 ? "" : "s");
    if (rep.primitives_split)
        fprintf(stderr, "%s: %zu primitive%s split over 65,535 vertices or 24 skinning bones\n", CLI_TXT(in), rep.primitives_split,
                rep.primitives_split == 1 ? "" : "s");
    if (rep.collision_trees)
        fprintf(stderr, "%s: %zu collision tree%s built\n", CLI_TXT(in), rep.collision_trees, rep.collision_trees == 1 ? "" : "s");
    if (rep.collision_disabled)
        fprintf(stderr, "%s: %zu mesh%s had collision enabled but no tree could be built: collision is off\n", CLI_TXT(in),
                rep.collision_disabled, rep.collision_disabled == 1 ? "" : "es");
    if (textures_out)
        fprintf(stderr, "%s: %zu of %zu texture%s written to %s\n", CLI_TXT(in), textures_written, rep.texture_count,
                rep.texture_count == 1 ? "" : "s", CLI_TXT(textures_out));
    else if (rep.texture_count)
        fprintf(stderr, "%s: %zu texture%s named from the glTF's images, not written (--textures-out DIR writes them)\n",
                CLI_TXT(in), rep.texture_count, rep.texture_count == 1 ? "" : "s");
    if (written)
        fprintf(stderr, "%s: %zu animation%s written as .ala beside %s\n", CLI_TXT(in), written, written == 1 ? "" : "s",
                CLI_TXT(out));
    if (scene->animation_count > written)
        fprintf(stderr, "%s: %zu animation%s not written (named above)\n", CLI_TXT(in), scene->animation_count - written,
                scene->animation_count - written == 1 ? "" : "s");
    if (anim_status != CLI_OK && status == CLI_OK) status = anim_status;
done:
    ferry_diagnostics_free(&warnings);
    ferry_alo_free(model);
    ferry_scene_free(scene);
    return status;
}

/* ferry convert MODEL.fbx|.obj|.dae OUT.glb|OUT.gltf: the scene Assimp
 * read, written as glTF unchanged (Y up as read). */
int cli_assimp_gltf_convert(int argc, char **argv, ferry_format source)
{
    (void)source;
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(cli_gltf_alo_convert_help, stdout);
            return CLI_OK;
        }
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("convert", "option '%s' does not apply to FBX/OBJ/Collada -> glTF", argv[i]);
        if (!cli_take_file(argv[i], &in, &out)) return CLI_USAGE;
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT files");
    ferry_error err;
    ferry_scene *scene = read_gltf(in, &err);
    if (!scene) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
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
    int status = CLI_OK;
    if (ferry_gltf_save(scene, out, &wo, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        status = CLI_INVALID;
    }
    ferry_scene_free(scene);
    return status;
}
