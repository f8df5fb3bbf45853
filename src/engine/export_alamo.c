/* The Alamo family's export (engine.h): an ALO model with the animations
 * asked for and those found beside it, a particle system with the
 * textures its emitters name. */
#define _POSIX_C_SOURCE 200809L
#include "export_internal.h"

#include <ferry/ala.h>
#include <ferry/alo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An animation on its way to the model. */
typedef struct anim {
    const ferry_asset *asset; /* the one attached (given, or `own`) */
    ferry_asset *own;         /* read here */
    uint8_t *bytes;           /* loaded from the model's source */
    size_t size;
    char *name; /* how messages name it */
    char *stem; /* the glTF animation's name: its file name without extension */
} anim;

static void anim_free(const ferry_file_source *source, anim *a)
{
    ferry_asset_free(a->own);
    if (a->bytes) ferry_file_source_release(source, a->bytes, a->size);
    free(a->name);
    free(a->stem);
    memset(a, 0, sizeof *a);
}

static bool is_alamo(ferry_format f)
{
    return f == FERRY_FORMAT_ALO_MODEL || f == FERRY_FORMAT_ALO_PARTICLE || f == FERRY_FORMAT_ALO_PARTICLE_UAW ||
           f == FERRY_FORMAT_ALA;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* What is wrong with `a` as an animation (into line; NULL: nothing, its
 * object read). *code: the failure's code. */
static const char *animation_problem(anim *a, char *line, size_t cap, ferry_result *code)
{
    *code = FERRY_ERR_MALFORMED;
    ferry_error e;
    fy_error_clear(&e);
    ferry_format f = ferry_asset_format(a->asset);
    size_t size;
    const uint8_t *data = ferry_asset_bytes(a->asset, &size);
    if (f == FERRY_FORMAT_ALA) {
        if (ferry_asset_object(a->asset)) return NULL;
        /* Given without its object (bytes_only): read once, here. */
        ferry_asset_options o = {.format = FERRY_FORMAT_ALA, .name = a->name};
        if (ferry_asset_read(data, size, &o, &a->own, &e) == FERRY_OK) {
            a->asset = a->own;
            return NULL;
        }
    } else if (is_alamo(f)) {
        bool temporary;
        void *object = fy_asset_object_get(a->asset, &temporary, &e);
        fy_asset_object_put(a->asset, object, temporary);
        if (object) return "not an animation";
    } else if (f != FERRY_FORMAT_UNKNOWN) {
        snprintf(line, cap, "its format is %s, not an Alamo model, particle system or animation", ferry_format_name(f));
        return line;
    } else {
        fy_not_known(&e, data, size);
    }
    *code = e.code;
    ferry_error_format(&e, line, cap);
    return line;
}

ferry_result fy_export_alo(fy_export *x, ferry_scene **out)
{
    const ferry_export_options *o = x->o;
    const ferry_export_input *in = x->in;
    const ferry_alo_model *model = x->object;
    const char *slash = strrchr(x->name, '/');
    const char *model_base = slash ? slash + 1 : x->name;
    size_t asked = o->animations ? o->animation_count : 0, found = 0;
    char **paths = NULL;
    ferry_error e;
    fy_error_clear(&e);
    if (o->auto_animations && in->source && in->path &&
        ferry_ala_find_animations(in->source, in->path, &paths, &found, &e) != FERRY_OK)
        found = 0;
    size_t total = asked + found, count = 0;
    anim *anims = calloc(total ? total : 1, sizeof *anims);
    const ferry_asset **assets = calloc(total ? total : 1, sizeof *assets);
    const char **stems = calloc(total ? total : 1, sizeof *stems);
    char *name = fy_export_scene_name(x, true);
    ferry_result r = FERRY_OK;
    if (!anims || !assets || !stems || !name) r = fy_export_refuse(x, FERRY_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; r == FERRY_OK && i < total; i++) {
        bool is_asked = i < asked; /* given by the caller, not found beside the model */
        anim *a = &anims[count];
        char line[1024];
        const char *problem = NULL;
        ferry_result code = FERRY_ERR_MALFORMED;
        if (is_asked) {
            a->asset = o->animations[i];
            const char *given = a->asset ? ferry_asset_name(a->asset) : NULL;
            a->name = dup_text(given ? given : "");
            if (!a->asset) problem = "no animation given";
        } else {
            /* Found in the model's source (a folder, an archive): read from it, told once. */
            const char *path = paths[i - asked];
            char shown[4096];
            ferry_file_source_display(in->source, path, shown, sizeof shown);
            a->name = dup_text(shown);
            fy_error_clear(&e);
            if (ferry_file_source_load(in->source, path, FERRY_ASSET_MAX_INPUT, &a->bytes, &a->size, &e) == FERRY_OK) {
                ferry_format f = ferry_detect(a->bytes, a->size);
                ferry_asset_options ao = {.format = f, .name = a->name, .bytes_only = f != FERRY_FORMAT_ALA};
                if (ferry_asset_read(a->bytes, a->size, &ao, &a->own, &e) == FERRY_OK) a->asset = a->own;
            }
            if (!a->asset) {
                code = e.code;
                ferry_error_format(&e, line, sizeof line);
                problem = line;
            }
        }
        if (!a->name) {
            r = fy_export_refuse(x, FERRY_ERR_NOMEM, NULL, "out of memory");
            anim_free(in->source, a);
            break;
        }
        if (!problem) problem = animation_problem(a, line, sizeof line, &code);
        bool misfit = false;
        if (!problem) {
            const ferry_ala_animation *ala = ferry_asset_object(a->asset);
            char which[768];
            size_t misfits = ferry_ala_model_misfits(ala, model, which, sizeof which);
            if (misfits) {
                snprintf(line, sizeof line, "does not fit %s (%zu of %zu tracks): %s", model_base, misfits,
                         ala->bone_count, which);
                problem = line;
                misfit = true;
                /* Found beside the model and mostly fitting: the game binds
                 * tracks by index (the name only confirms it), so it is
                 * attached as it would play, and the tracks that disagree
                 * are named. One whose tracks mostly miss belongs to
                 * another model: skipped. */
                if (!is_asked && 2 * misfits < ala->bone_count) {
                    fy_export_say(x, FERRY_MESSAGE_WARNING, a->name, FERRY_EXPORT_ANIMATION_ATTACHED,
                                  "attached, though %zu of %zu tracks do not fit %s (tracks apply by index, as in the "
                                  "game): %s",
                                  misfits, ala->bone_count, model_base, which);
                    x->report->warnings++;
                    problem = NULL;
                }
                if (is_asked && o->force) {
                    fy_export_say(x, FERRY_MESSAGE_WARNING, a->name, FERRY_EXPORT_ANIMATION_FORCED, "%s; attached anyway",
                                  problem);
                    x->report->warnings++;
                    problem = NULL;
                }
            }
        }
        if (problem) {
            /* What was asked for and cannot be done fails the export; what
             * was found beside the model is skipped with a warning. */
            if (is_asked) {
                fy_export_say(x, FERRY_MESSAGE_ERROR, a->name, misfit ? FERRY_EXPORT_ANIMATION_MISFIT : NULL, "%s",
                              problem);
                ferry_error fail;
                fy_error_clear(&fail);
                fy_error_set(&fail, code != FERRY_OK ? code : FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, NULL, "%s: %s",
                             a->name, problem);
                if (x->err && x->err->code == FERRY_OK) *x->err = fail;
                r = fail.code;
            } else {
                fy_export_say(x, FERRY_MESSAGE_WARNING, a->name, FERRY_EXPORT_ANIMATION_SKIPPED, "animation skipped: %s",
                              problem);
                x->report->warnings++;
            }
            anim_free(in->source, a);
            continue;
        }
        if (!(a->stem = fy_path_stem(a->name, false))) {
            r = fy_export_refuse(x, FERRY_ERR_NOMEM, NULL, "out of memory");
            anim_free(in->source, a);
            break;
        }
        assets[count] = a->asset;
        stems[count] = a->stem;
        count++;
    }
    if (r == FERRY_OK) {
        ferry_diagnostics diags = {0};
        ferry_alo_scene_report rep;
        memset(&rep, 0, sizeof rep);
        ferry_asset_scene_options so = {0};
        so.name = name;
        so.all = o->all;
        so.animations = count ? assets : NULL;
        so.animation_names = count ? stems : NULL;
        so.animation_count = count;
        so.textures = x->textures;
        so.alo_report = &rep;
        r = fy_export_to_scene(x, &so, &diags, out);
        if (r == FERRY_OK) {
            ferry_export_report *report = x->report;
            report->animations = count;
            report->meshes_left_out = rep.meshes_left_out;
            fy_export_keep_missing(x, rep.missing_textures, rep.missing_texture_count);
            report->warnings += diags.warning_count;
        }
        ferry_diagnostics_free(&diags);
    }
    for (size_t i = 0; anims && i < count; i++) anim_free(in->source, &anims[i]);
    free(anims);
    free(assets);
    free(stems);
    free(name);
    ferry_ala_free_paths(paths, found);
    return r;
}

ferry_result fy_export_particle(fy_export *x, const ferry_diagnostics *checks, ferry_scene **out)
{
    ferry_error e;
    fy_error_clear(&e);
    if (x->row->to_scene(x->in->asset, x->object, NULL, out, &e) != FERRY_OK) return fy_export_fail(x, NULL, &e);
    /* The textures its emitters name, looked up by validation as `ferry
     * validate` does (texture-missing): only those findings are said. */
    if (x->textures)
        for (size_t i = 0; i < checks->count; i++) {
            if (strcmp(checks->items[i].rule, "texture-missing") != 0) continue;
            fy_export_finding(x, &checks->items[i], false);
            x->report->warnings++;
        }
    return FERRY_OK;
}
