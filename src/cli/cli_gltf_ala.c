/* ferry convert MODEL.glb|.gltf OUT.ala: a glTF animation as an ALA file
 * (ferry_ala_from_scene), and the per-animation writer the model route
 * (glTF -> .alo) calls for every animation beside the model. */
#include "export.h"
#include "formats.h"

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cli_gltf_ala_convert_help[] =
    "\n"
    "glTF animations to ALA:\n"
    "  IN.glb  -> OUT.ala  one glTF animation as an ALA animation (format 2 by\n"
    "  IN.gltf             default), sampled at whole frames (ferry's extras' rate,\n"
    "                      else 30 fps), each bone's values quantized over the\n"
    "                      range it uses; bones are the glTF's nodes (ferry's\n"
    "                      export: its bones, in bone order)\n"
    "  --animation N|NAME  the animation (an index from 0, or its name); needed\n"
    "                      when the file holds more than one\n"
    "  --ala-format 1|2    the ALA format (1: Empire at War, 2: Forces of Corruption)\n"
    "  --model FILE.alo    bind tracks to this model's bones by name, in its bone\n"
    "                      order (the game binds by index)\n"
    "  --fps N             sample at N frames per second instead (e.g. 24 for a file\n"
    "                      Blender exported at its default rate: no resampling)\n";

static ferry_scene *load_gltf(const char *in, ferry_error *err)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (ferry_file_load(in, CLI_MAX_INPUT, &data, &size, err) != FERRY_OK) return NULL;
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

static void print_diagnostics(const char *in, const ferry_diagnostics *d)
{
    for (size_t i = 0; i < d->count; i++) {
        const ferry_diagnostic *x = &d->items[i];
        fprintf(stderr, "%s: %s: %s [%s]: %s\n", CLI_TXT(in), x->severity == FERRY_SEVERITY_ERROR ? "error" : "warning",
                x->path, x->rule, x->message);
    }
}

int cli_gltf_write_animation(const char *in, const ferry_scene *scene, size_t index, const char *out, int ala_format,
                             double fps, const char *const *bone_names, size_t bone_count, size_t *warnings)
{
    ferry_ala_from_scene_options o;
    memset(&o, 0, sizeof o);
    o.animation_index = index;
    o.fps = fps;
    o.format = (uint8_t)(ala_format ? ala_format : FERRY_ALA_FORMAT_2);
    o.bone_names = bone_names;
    o.bone_count = bone_count;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    o.diagnostics = &d;
    ferry_ala_from_scene_report rep;
    o.report = &rep;
    ferry_ala_animation *anim = NULL;
    ferry_error err;
    int status = CLI_INVALID;
    if (ferry_ala_from_scene(scene, &o, &anim, &err) != FERRY_OK) {
        print_diagnostics(in, &d);
        cli_print_error(in, &err);
        ferry_diagnostics_free(&d);
        return CLI_INVALID;
    }
    print_diagnostics(in, &d);
    if (warnings) *warnings += d.warning_count;
    ferry_diagnostics_free(&d);
    /* What the game would load: validation must find nothing wrong. */
    memset(&d, 0, sizeof d);
    if (ferry_ala_validate(anim, NULL, &d) != 0) {
        print_diagnostics(out, &d);
        fprintf(stderr, "ferry convert: %s: the animation built would not be valid; not written\n", CLI_TXT(out));
    } else {
        ferry_buffer buf = {0};
        if (ferry_ala_write(anim, &buf, &err) != FERRY_OK) cli_print_error(out, &err);
        else status = cli_write_output(in, out, &buf);
        ferry_buffer_free(&buf);
    }
    ferry_diagnostics_free(&d);
    if (status == CLI_OK) {
        const char *name = scene->animations[index].name;
        fprintf(stderr, "%s -> %s: animation %zu '%s', %u frames at %g fps%s, %zu bones, format %u%s\n", CLI_TXT(in),
                CLI_TXT(out), index, name ? CLI_TXT(name) : "", (unsigned)rep.frames, rep.fps,
                rep.fps_assumed ? " (assumed)" : "", rep.tracks, (unsigned)anim->format,
                rep.channels_ignored ? " (some channels ignored, see the warnings)" : "");
    }
    ferry_ala_free(anim);
    return status;
}

int cli_gltf_write_animations(const char *in, const ferry_scene *scene, const char *model_out, int ala_format,
                              double fps, const char *const *bone_names, size_t bone_count, size_t *written)
{
    int status = CLI_OK;
    for (size_t i = 0; i < scene->animation_count; i++) {
        char path[4096];
        ferry_ala_file_name(model_out, scene->animations[i].name, i, path, sizeof path);
        int s = cli_gltf_write_animation(in, scene, i, path, ala_format, fps, bone_names, bone_count, NULL);
        if (s == CLI_OK && written) (*written)++;
        if (s != CLI_OK) status = s;
    }
    return status;
}

static bool pick_animation(const ferry_scene *scene, const char *which, size_t *index)
{
    if (which) {
        char *end;
        unsigned long long n = strtoull(which, &end, 10);
        if (*which && !*end && n < scene->animation_count) {
            *index = (size_t)n;
            return true;
        }
        for (size_t i = 0; i < scene->animation_count; i++)
            if (scene->animations[i].name && strcmp(scene->animations[i].name, which) == 0) {
                *index = i;
                return true;
            }
        return false;
    }
    if (scene->animation_count == 1) {
        *index = 0;
        return true;
    }
    return false;
}

static void list_animations(const ferry_scene *scene)
{
    for (size_t i = 0; i < scene->animation_count && i < 50; i++)
        fprintf(stderr, "  %zu: %s\n", i, scene->animations[i].name ? CLI_TXT(scene->animations[i].name) : "(no name)");
}

int cli_gltf_ala_convert(int argc, char **argv, ferry_format source)
{
    (void)source;
    const char *in = NULL, *out = NULL, *which = NULL, *model_path = NULL;
    int ala_format = 0;
    double fps = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(cli_gltf_ala_convert_help, stdout);
            return CLI_OK;
        } else if (strcmp(a, "--animation") == 0 || strcmp(a, "--ala-format") == 0 || strcmp(a, "--model") == 0 ||
                   strcmp(a, "--fps") == 0) {
            if (i + 1 >= argc) return cli_usage_error("convert", "%s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--fps") == 0) {
                char *end;
                fps = strtod(v, &end);
                if (*end || end == v || !(fps > 0 && fps <= 1000))
                    return cli_usage_error("convert", "--fps takes a number above 0 and at most 1000, not '%s'", v);
            } else if (strcmp(a, "--animation") == 0) which = v;
            else if (strcmp(a, "--model") == 0) model_path = v;
            else if (strcmp(v, "1") == 0 || strcmp(v, "2") == 0) ala_format = v[0] - '0';
            else return cli_usage_error("convert", "--ala-format takes 1 or 2");
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("convert", "option '%s' does not apply to glTF -> ALA conversions (ferry convert --help)", a);
        } else if (!cli_take_file(a, &in, &out)) {
            return CLI_USAGE;
        }
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT");
    ferry_error err;
    ferry_scene *scene = load_gltf(in, &err);
    if (!scene) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    int status = CLI_INVALID;
    size_t index = 0;
    char **names = NULL;
    size_t name_count = 0;
    const ferry_alo_model *model = NULL;
    ferry_asset *model_asset = NULL;
    if (scene->animation_count == 0) {
        fprintf(stderr, "%s: holds no animation\n", CLI_TXT(in));
        goto done;
    }
    if (!pick_animation(scene, which, &index)) {
        if (which) fprintf(stderr, "%s: no animation '%s'; the file holds:\n", CLI_TXT(in), CLI_TXT(which));
        else fprintf(stderr, "ferry convert: %s holds %zu animations: choose one with --animation N|NAME:\n", CLI_TXT(in),
                     scene->animation_count);
        list_animations(scene);
        status = which ? CLI_INVALID : CLI_USAGE;
        goto done;
    }
    if (model_path) {
        if (!(model_asset = cli_read_as(model_path, NULL, 0, FERRY_FORMAT_ALO_MODEL, stderr))) goto done;
        model = ferry_asset_object(model_asset);
        name_count = model->skeleton.bone_count;
        names = calloc(name_count + 1, sizeof *names);
        if (!names) goto done;
        for (size_t i = 0; i < name_count; i++) names[i] = (char *)(model->skeleton.bones[i].name ? model->skeleton.bones[i].name : "");
    }
    status = cli_gltf_write_animation(in, scene, index, out, ala_format, fps, (const char *const *)names,
                                      model_path ? name_count : 0, NULL);
done:
    free(names);
    ferry_asset_free(model_asset);
    ferry_scene_free(scene);
    return status;
}
