/* ferry convert MODEL.alo OUT.glb: model, animations and textures as glTF. */
#define _DEFAULT_SOURCE
#include "export.h"
#include "formats.h"

#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t stem_length(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

/* The model's folder as a file source; the library pairs the names
 * (ferry_ala_find_animations). Paths come back as DIR/NAME. */
size_t export_find_animations(const char *model_path, char ***paths)
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

void export_result_free(export_result *result)
{
    for (size_t i = 0; i < result->missing_texture_count; i++) free(result->missing_textures[i]);
    free(result->missing_textures);
    result->missing_textures = NULL;
    result->missing_texture_count = 0;
}

void export_missing_list(const export_result *result, char *out, size_t size)
{
    size_t used = 0;
    if (size) out[0] = '\0';
    for (size_t i = 0; i < result->missing_texture_count && size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "", result->missing_textures[i]);
        if (n < 0 || (size_t)n >= size - used) {
            if (size >= 4) memcpy(out + size - 4, "...", 4);
            return;
        }
        used += (size_t)n;
    }
}

void export_free_paths(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++) free(paths[i]);
    free(paths);
}

static bool particle_texture_exists(const char *name, void *user)
{
    char found[4096];
    return ferry_alamo_texture_find(user, name, NULL, found, sizeof found);
}

static void print_diags(FILE *log, const char *file, const ferry_diagnostics *d, bool quiet)
{
    if (quiet || !log) return;
    for (size_t i = 0; i < d->count; i++)
        fprintf(log, "%s: %s: %s [%s]\n", CLI_TXT(file), d->items[i].severity == FERRY_SEVERITY_ERROR ? "error" : "warning",
                CLI_TXT(d->items[i].message), d->items[i].rule);
}

int export_one(const char *in, const char *out, const export_options *options, const export_input *input,
               export_result *result, FILE *log)
{
    memset(result, 0, sizeof *result);
    cli_asset asset;
    ferry_error err;
    int status = CLI_INVALID;
    char **auto_paths = NULL;
    size_t auto_count = 0;
    /* Animations found in input->source: their bytes, given back to it. */
    const ferry_file_source *anim_source = input ? input->source : NULL;
    uint8_t **anim_bytes = NULL;
    size_t *anim_sizes = NULL;
    cli_asset *anims = NULL;
    const ferry_ala_animation **anim_ptrs = NULL;
    char **anim_names = NULL;
    size_t anim_count = 0;
    ferry_scene *scene = NULL;
    char *model_name = NULL;
    ferry_diagnostics diags = {0};
    ferry_alamo_texture_folders textures;
    memset(&textures, 0, sizeof textures);
    ferry_alamo_texture_places places = {0};
    bool loaded = input && input->data ? cli_asset_read(input->data, input->size, &asset, &err)
                                       : cli_asset_load(in, &asset, &err);
    if (!loaded) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        if (log) fprintf(log, "%s: error: %s\n", CLI_TXT(in), CLI_TXT(line));
        goto done;
    }
    if (asset.animation) {
        if (log) fprintf(log, "%s: error: an animation alone cannot be exported; give its model and --anim\n", CLI_TXT(in));
        goto done;
    }
    {
        /* One policy for every format: a file validation calls broken is
         * not converted, unless --allow-invalid (formats.h). */
        ferry_diagnostics checks = {0};
        if (asset.model) {
            ferry_alo_validate_options vo = {NULL, NULL};
            ferry_alo_validate(asset.model, &vo, &checks);
        } else if (asset.particles) {
            ferry_particle_validate_options vo = {in, NULL, NULL};
            ferry_particle_validate(asset.particles, &vo, &checks);
        }
        bool refused = cli_refuse_invalid(log, in, &checks, options->allow_invalid);
        ferry_diagnostics_free(&checks);
        if (refused) goto done;
    }
    /* Textures are found through file sources: the model's folder (in the
     * source that holds it, or on the disk), the one above it (its
     * Textures) and each --textures folder or archive. */
    if (!options->skip_textures) {
        if (anim_source) {
            places.model_source = input->source;
            places.model_path = input->path;
            places.parent_source = input->parent;
        } else {
            if (ferry_alamo_texture_folders_open(in, NULL, 0, &textures, &err) != FERRY_OK) goto convert_failed;
            places = textures.places;
        }
        places.folders = options->texture_sources;
        places.folder_count = options->texture_source_count;
    }
    if (asset.particles) {
        if (ferry_particle_to_scene(asset.particles, NULL, &scene, &err) != FERRY_OK) goto convert_failed;
        if (!options->skip_textures) {
            /* The textures an emitter names are looked up as validate does
             * (the same rule, texture-missing); only those findings are kept. */
            ferry_particle_validate_options po = {NULL, particle_texture_exists, (void *)&places};
            ferry_diagnostics all = {0};
            ferry_particle_validate(asset.particles, &po, &all);
            for (size_t i = 0; i < all.count; i++) {
                if (strcmp(all.items[i].rule, "texture-missing") != 0) continue;
                if (log && !options->quiet)
                    fprintf(log, "%s: warning: %s [%s]\n", in, all.items[i].message, all.items[i].rule);
                result->warnings++;
            }
            ferry_diagnostics_free(&all);
        }
    } else {
        if (options->auto_animations && anim_source) {
            if (ferry_ala_find_animations(anim_source, input->path, &auto_paths, &auto_count, &err) != FERRY_OK)
                auto_count = 0;
        } else if (options->auto_animations) {
            auto_count = export_find_animations(in, &auto_paths);
        }
        size_t total = options->animation_count + auto_count;
        anim_bytes = calloc(total ? total : 1, sizeof *anim_bytes);
        anim_sizes = calloc(total ? total : 1, sizeof *anim_sizes);
        anims = calloc(total ? total : 1, sizeof *anims);
        anim_ptrs = calloc(total ? total : 1, sizeof *anim_ptrs);
        anim_names = calloc(total ? total : 1, sizeof *anim_names);
        for (size_t i = 0; i < total; i++) {
            bool asked = i < options->animation_count; /* named with --anim FILE, not found by auto */
            const char *path = asked ? options->animations[i] : auto_paths[i - options->animation_count];
            cli_asset *a = &anims[anim_count];
            const char *problem = NULL;
            char line[1024], shown[1024];
            bool read;
            if (!asked && anim_source) {
                /* Found in the model's source (a folder, an archive): read from it. */
                ferry_file_source_display(anim_source, path, shown, sizeof shown);
                memset(a, 0, sizeof *a);
                read = ferry_file_source_load(anim_source, path, CLI_MAX_INPUT, &anim_bytes[anim_count],
                                              &anim_sizes[anim_count], &err) == FERRY_OK &&
                       cli_asset_read(anim_bytes[anim_count], anim_sizes[anim_count], a, &err);
                path = shown;
            } else {
                read = cli_asset_load(path, a, &err);
            }
            if (!read || !a->animation) {
                if (read) { /* it read, as something else */
                    problem = "not an animation";
                } else {
                    ferry_error_format(&err, line, sizeof line);
                    problem = line;
                }
            } else {
                char misfit[768];
                size_t misfits = ferry_ala_model_misfits(a->animation, asset.model, misfit, sizeof misfit);
                if (misfits) {
                    const char *base = strrchr(in, '/');
                    snprintf(line, sizeof line, "does not fit %s (%zu of %zu tracks): %s", base ? base + 1 : in,
                             misfits, a->animation->bone_count, misfit);
                    problem = line;
                    /* Found by auto and mostly fitting: the game binds
                     * tracks by index (the name only confirms it), so the
                     * animation is attached as it would play, and the
                     * tracks that disagree are named. One whose tracks
                     * mostly miss belongs to another model: skipped. */
                    if (!asked && 2 * misfits < a->animation->bone_count) {
                        if (log)
                            fprintf(log, "%s: warning: attached, though %zu of %zu tracks do not fit %s (tracks apply by "
                                         "index, as in the game): %s\n",
                                    CLI_TXT(path), misfits, a->animation->bone_count, base ? base + 1 : in, misfit);
                        result->warnings++;
                        problem = NULL;
                    }
                    if (asked && options->force) {
                        if (log) fprintf(log, "%s: warning: %s; attached anyway (--force)\n", path, problem);
                        result->warnings++;
                        problem = NULL;
                    }
                }
            }
            if (problem) {
                /* What was asked for by name and cannot be done is an error;
                 * what auto found is skipped with a warning. */
                if (asked) {
                    if (log)
                        fprintf(log, "%s: error: %s%s\n", path, problem,
                                strncmp(problem, "does not fit", 12) == 0 ? " (--force attaches it anyway)" : "");
                    cli_asset_free(a);
                    ferry_file_source_release(anim_source, anim_bytes[anim_count], anim_sizes[anim_count]);
                    anim_bytes[anim_count] = NULL;
                    goto done;
                }
                if (log) fprintf(log, "%s: warning: animation skipped: %s\n", path, problem);
                result->warnings++;
                cli_asset_free(a);
                ferry_file_source_release(anim_source, anim_bytes[anim_count], anim_sizes[anim_count]);
                anim_bytes[anim_count] = NULL;
                continue;
            }
            const char *base = strrchr(path, '/');
            base = base ? base + 1 : path;
            anim_names[anim_count] = strndup(base, stem_length(base));
            anim_ptrs[anim_count] = a->animation;
            anim_count++;
        }
        ferry_alo_scene_options so = {0};
        model_name = cli_model_name(in);
        so.name = model_name;
        so.texture_places = &places;
        so.skip_textures = options->skip_textures;
        so.all = options->all;
        ferry_alo_scene_report report = {0};
        so.report = &report;
        so.animations = anim_ptrs;
        so.animation_names = (const char *const *)anim_names;
        so.animation_count = anim_count;
        so.diagnostics = &diags;
        if (ferry_alo_to_scene(asset.model, &so, &scene, &err) != FERRY_OK) goto convert_failed;
        result->animations = anim_count;
        result->meshes_left_out = report.meshes_left_out;
        if (report.missing_texture_count) {
            result->missing_textures = calloc(report.missing_texture_count, sizeof *result->missing_textures);
            for (size_t i = 0; result->missing_textures && i < report.missing_texture_count; i++) {
                char *copy = strdup(report.missing_textures[i]);
                if (copy) result->missing_textures[result->missing_texture_count++] = copy;
            }
        }
    }
    print_diags(log, in, &diags, options->quiet);
    result->warnings += diags.warning_count;
    result->images = scene->image_count;
    ferry_write_options wo = {in, options->no_sync};
    if (ferry_gltf_save(scene, out, &wo, &err) != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        if (log) fprintf(log, "%s: error: %s\n", CLI_TXT(out), CLI_TXT(line));
        status = err.code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
        goto done;
    }
    status = CLI_OK;
    goto done;
convert_failed : {
    char line[512];
    ferry_error_format(&err, line, sizeof line);
    if (log) fprintf(log, "%s: error: %s\n", CLI_TXT(in), CLI_TXT(line));
}
done:
    ferry_alamo_texture_folders_close(&textures);
    ferry_diagnostics_free(&diags);
    ferry_scene_free(scene);
    free(model_name);
    for (size_t i = 0; i < anim_count; i++) {
        cli_asset_free(&anims[i]);
        ferry_file_source_release(anim_source, anim_bytes[i], anim_sizes[i]);
        free(anim_names[i]);
    }
    free(anim_bytes);
    free(anim_sizes);
    free(anims);
    free(anim_ptrs);
    free(anim_names);
    if (anim_source)
        ferry_ala_free_paths(auto_paths, auto_count);
    else
        export_free_paths(auto_paths, auto_count);
    cli_asset_free(&asset);
    return status;
}
