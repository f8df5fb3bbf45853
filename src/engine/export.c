/* Exporting one input to glTF (engine.h): the input read once, validated
 * by its format's rules, converted through the format table's row, its
 * companions (animations, textures) found in its places; messages as it
 * goes, a report at the end. */
#define _POSIX_C_SOURCE 200809L
#include "export_internal.h"
#include "../core/platform.h"

#include <ferry/alm.h>
#include <ferry/gltf.h>
#include <ferry/odol.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ---- */

static void vsay(const fy_export *x, ferry_message_kind kind, const char *file, const char *rule,
                 const ferry_error *error, const char *fmt, va_list ap)
{
    fy_vmessage(x->o->message, x->o->user, kind, file ? file : x->name, rule, error, fmt, ap);
}

void fy_export_say(const fy_export *x, ferry_message_kind kind, const char *file, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(x, kind, file, rule, NULL, fmt, ap);
    va_end(ap);
}

static void keep_error(fy_export *x, const ferry_error *e)
{
    if (x->err && x->err->code == FERRY_OK) *x->err = *e;
}

ferry_result fy_export_fail(fy_export *x, const char *file, const ferry_error *e)
{
    char line[512];
    ferry_error_format(e, line, sizeof line);
    if (x->o->message) {
        ferry_message m = {FERRY_MESSAGE_ERROR, file ? file : x->name, line, NULL, e};
        x->o->message(x->o->user, &m);
    }
    keep_error(x, e);
    return e->code != FERRY_OK ? e->code : FERRY_ERR_MALFORMED;
}

ferry_result fy_export_refuse(fy_export *x, ferry_result code, const char *rule, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fy_export_say(x, FERRY_MESSAGE_ERROR, NULL, rule, "%s", text);
    ferry_error e;
    fy_error_clear(&e);
    fy_error_set(&e, code, FERRY_NO_OFFSET, NULL, "%s", text);
    keep_error(x, &e);
    return code;
}

void fy_export_finding(const fy_export *x, const ferry_diagnostic *d, bool located)
{
    char where[256] = "";
    if (located) fy_diagnostic_where(d, where, sizeof where);
    fy_export_say(x, d->severity == FERRY_SEVERITY_ERROR ? FERRY_MESSAGE_ERROR : FERRY_MESSAGE_WARNING, NULL, d->rule,
                  "%s%s", where, d->message);
}

ferry_result fy_export_to_scene(fy_export *x, ferry_asset_scene_options *so, ferry_diagnostics *diags, ferry_scene **out)
{
    so->diagnostics = diags;
    so->png_effort = x->o->png_effort;
    so->skin_all_bones = x->o->skin_all_bones;
    so->no_faction_masks = x->o->no_faction_masks;
    so->native_textures = x->o->native_textures;
    ferry_error e;
    fy_error_clear(&e);
    ferry_result r = x->row->to_scene(x->in->asset, x->object, so, out, &e);
    if (r != FERRY_OK) return fy_export_fail(x, NULL, &e);
    for (size_t i = 0; i < diags->count; i++) fy_export_finding(x, &diags->items[i], true);
    return FERRY_OK;
}

/* ---- the report's strings ---- */

const char *fy_export_keep(fy_export *x, const char *text)
{
    if (!text) return NULL;
    if (!x->arena && !(x->arena = ferry_arena_create(0))) return NULL;
    x->report->owned = x->arena;
    return ferry_arena_strdup(x->arena, text);
}

void fy_export_keep_missing(fy_export *x, const char *const *names, size_t count)
{
    if (!count) return;
    if (!x->arena && !(x->arena = ferry_arena_create(0))) return;
    x->report->owned = x->arena;
    const char **kept = ferry_arena_alloc(x->arena, count * sizeof *kept);
    if (!kept) return;
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if ((kept[n] = fy_export_keep(x, names[i]))) n++;
    x->report->missing_textures = kept;
    x->report->missing_texture_count = n;
}

void ferry_export_report_free(ferry_export_report *report)
{
    if (!report) return;
    ferry_arena_destroy(report->owned);
    memset(report, 0, sizeof *report);
}

char *fy_export_scene_name(const fy_export *x, bool backslash) { return fy_path_stem(x->name, backslash); }

/* ---- ODOL ---- */

/* The empty-LOD diagnosis: the game's view exported no triangles. */
static void diagnose_game_view(fy_export *x, const ferry_odol_scene_report *rep)
{
    const ferry_odol_model *m = x->object;
    ferry_export_report *r = x->report;
    r->game_view = true;
    if (rep->visual_lod < 0 || (uint32_t)rep->visual_lod >= m->lod_count) return;
    ferry_odol_resolution_name(m->lods[rep->visual_lod].resolution, r->visual_lod_name, sizeof r->visual_lod_name);
    if (rep->triangles != 0) return;
    r->visual_lod_empty = true;
    for (uint32_t l = 0; l < m->lod_count; l++)
        if ((int32_t)l != rep->visual_lod && m->lods[l].face_count) r->lods_with_faces++, r->lod_with_faces = l;
    if (r->lods_with_faces == 1)
        ferry_odol_resolution_name(m->lods[r->lod_with_faces].resolution, r->lod_with_faces_name,
                                   sizeof r->lod_with_faces_name);
    r->warnings++;
}

static ferry_result export_odol(fy_export *x, ferry_scene **out)
{
    const ferry_export_options *o = x->o;
    const ferry_export_input *in = x->in;
    size_t places = o->skip_textures || !o->textures ? 0 : o->texture_count, count = 0;
    ferry_odol_root *roots = calloc(places + 2, sizeof *roots);
    char *name = fy_export_scene_name(x, false);
    if (!roots || !name) {
        free(roots);
        free(name);
        return fy_export_refuse(x, FERRY_ERR_NOMEM, NULL, "out of memory");
    }
    /* The texture roots (ferry_odol_find_files): the archive the model
     * comes from when it is mounted at a prefix (a PBO: its own textures),
     * the unpacked addon a model of the disk lies in, then each further
     * place: a PBO at its prefix, a folder (or another archive) as a root
     * of addon folders mounted at their prefix files, or a P:-drive tree. */
    if (!o->skip_textures) {
        if (in->source && in->prefix) roots[count++] = (ferry_odol_root){in->source, in->prefix};
        if (in->addon) roots[count++] = (ferry_odol_root){in->addon, NULL};
        for (size_t i = 0; i < places; i++)
            if (o->textures[i]) roots[count++] = (ferry_odol_root){o->textures[i]->source, o->textures[i]->prefix};
    }
    ferry_diagnostics diags = {0};
    ferry_odol_scene_report rep;
    memset(&rep, 0, sizeof rep);
    ferry_asset_scene_options so = {0};
    so.name = name;
    so.all = o->all;
    so.lods = o->lod_count ? o->lods : NULL;
    so.lod_count = so.lods ? o->lod_count : 0;
    so.no_animations = o->no_animations;
    so.texture_roots = count ? roots : NULL;
    so.texture_root_count = count;
    so.odol_report = &rep;
    ferry_result r = fy_export_to_scene(x, &so, &diags, out);
    if (r == FERRY_OK) {
        ferry_export_report *report = x->report;
        report->texture_roots = count;
        report->odol = rep;
        report->odol.missing_textures = NULL;
        report->odol.missing_texture_count = 0;
        report->odol.procedural_problem = fy_export_keep(x, rep.procedural_problem);
        report->odol.animation_unbound = fy_export_keep(x, rep.animation_unbound);
        fy_export_keep_missing(x, rep.missing_textures, rep.missing_texture_count);
        report->odol.missing_textures = report->missing_textures;
        report->odol.missing_texture_count = report->missing_texture_count;
        report->images = rep.images;
        /* Textures not found, a warning each (the list is the report's). */
        report->warnings += diags.count;
        if (!so.all && !so.lods) diagnose_game_view(x, &rep);
        if (rep.procedural_ignored) report->warnings++;
    }
    ferry_diagnostics_free(&diags);
    free(roots);
    free(name);
    return r;
}

/* ---- ALM ---- */

static ferry_result export_alm(fy_export *x, ferry_scene **out)
{
    const ferry_alm_mesh *mesh = x->object;
    char *name = fy_export_scene_name(x, false);
    if (!name) return fy_export_refuse(x, FERRY_ERR_NOMEM, NULL, "out of memory");
    ferry_diagnostics diags = {0};
    ferry_alm_scene_report rep;
    memset(&rep, 0, sizeof rep);
    ferry_asset_scene_options so = {0};
    so.name = name;
    so.alm_lod = x->o->alm_lod;
    so.alm_report = &rep;
    ferry_result r = fy_export_to_scene(x, &so, &diags, out);
    if (r == FERRY_OK) {
        ferry_export_report *report = x->report;
        report->warnings += diags.warning_count;
        report->alm = rep;
        report->alm_lod = x->o->alm_lod != NULL;
        report->bones = mesh->bone_count;
        report->frames = mesh->frame_count;
        report->collapses = mesh->collapse_count;
        report->images = rep.images;
    }
    ferry_diagnostics_free(&diags);
    free(name);
    return r;
}

/* ---- any input ---- */

typedef enum family { NOT_A_MODEL, ALO_MODEL, PARTICLE, ODOL, ALM, ANIMATION } family;

static family family_of(ferry_format f)
{
    switch (f) {
    case FERRY_FORMAT_ALO_MODEL: return ALO_MODEL;
    case FERRY_FORMAT_ALO_PARTICLE:
    case FERRY_FORMAT_ALO_PARTICLE_UAW: return PARTICLE; /* its reader refuses it, saying why */
    case FERRY_FORMAT_ODOL:
    case FERRY_FORMAT_MLOD: return ODOL; /* the same */
    case FERRY_FORMAT_ALM: return ALM;
    case FERRY_FORMAT_ALA: return ANIMATION;
    default: return NOT_A_MODEL;
    }
}

/* Validation, as `ferry validate` checks the file (a particle system's
 * textures too, when they are looked up: their warnings are said after the
 * conversion); errors refuse it unless allow_invalid. */
static ferry_result check(fy_export *x, ferry_diagnostics *checks)
{
    ferry_asset_validate_options vo = {0};
    if (family_of(x->report->format) == PARTICLE) vo.textures = x->textures;
    x->row->validate(x->in->asset, x->object, &vo, checks);
    size_t n = checks->error_count;
    if (!n) return FERRY_OK;
    x->report->validation_errors = n;
    for (size_t i = 0; i < checks->count; i++)
        if (checks->items[i].severity == FERRY_SEVERITY_ERROR) fy_export_finding(x, &checks->items[i], true);
    if (!x->o->allow_invalid)
        return fy_export_refuse(x, FERRY_ERR_MALFORMED, FERRY_EXPORT_NOT_CONVERTED, "not converted: %zu validation error%s",
                                n, n == 1 ? "" : "s");
    fy_export_say(x, FERRY_MESSAGE_WARNING, NULL, FERRY_EXPORT_CONVERTED_ANYWAY,
                  "converting anyway: %zu validation error%s; values the output cannot hold (NaN, infinities) still "
                  "stop the conversion",
                  n, n == 1 ? "" : "s");
    return FERRY_OK;
}

static ferry_result export_scene(fy_export *x, ferry_scene **out)
{
    const ferry_asset *asset = x->in->asset;
    ferry_format f = ferry_asset_format(asset);
    x->report->format = f;
    family fam = family_of(f);
    if (fam == ANIMATION)
        return fy_export_refuse(x, FERRY_ERR_UNSUPPORTED, FERRY_EXPORT_ANIMATION_ALONE,
                                "an animation alone cannot be exported");
    if (fam == NOT_A_MODEL) {
        const ferry_format_desc *d = ferry_format_describe(f);
        if (d) return fy_export_refuse(x, FERRY_ERR_UNSUPPORTED, NULL, "a %s, not a model ferry exports to glTF", d->name);
        ferry_error e;
        fy_error_clear(&e);
        size_t size;
        const uint8_t *data = ferry_asset_bytes(asset, &size);
        fy_not_known(&e, data, size);
        return fy_export_fail(x, NULL, &e);
    }
    x->row = fy_format_row_of(f);
    ferry_error e;
    fy_error_clear(&e);
    bool temporary;
    if (!(x->object = fy_asset_object_get(asset, &temporary, &e))) return fy_export_fail(x, NULL, &e);
    /* Textures are found through file sources: the model's folder (in the
     * source that holds it), the one above it (its Textures) and each
     * further place. */
    const ferry_export_options *o = x->o;
    ferry_alamo_texture_places places = {0};
    const ferry_file_source **folders = NULL;
    ferry_result r = FERRY_OK;
    if (!o->skip_textures) {
        size_t n = o->textures ? o->texture_count : 0;
        if (!fy_place_sources(o->textures, n, &folders)) r = fy_export_refuse(x, FERRY_ERR_NOMEM, NULL, "out of memory");
        fy_input_texture_places(x->in, folders, folders ? n : 0, &places);
        x->textures = &places;
    }
    ferry_diagnostics checks = {0};
    if (r == FERRY_OK) r = check(x, &checks);
    if (r == FERRY_OK) {
        switch (fam) {
        case ALO_MODEL: r = fy_export_alo(x, out); break;
        case PARTICLE: r = fy_export_particle(x, &checks, out); break;
        case ODOL: r = export_odol(x, out); break;
        default: r = export_alm(x, out); break;
        }
    }
    ferry_diagnostics_free(&checks);
    free(folders);
    x->textures = NULL;
    fy_asset_object_put(asset, x->object, temporary);
    x->object = NULL;
    return r;
}

bool fy_place_sources(const ferry_place *const *places, size_t count, const ferry_file_source ***out)
{
    *out = NULL;
    if (!count) return true;
    const ferry_file_source **sources = calloc(count, sizeof *sources);
    if (!sources) return false;
    for (size_t i = 0; places && i < count; i++) sources[i] = places[i] ? places[i]->source : NULL;
    *out = sources;
    return true;
}

void fy_input_texture_places(const ferry_export_input *in, const ferry_file_source *const *folders, size_t count,
                             ferry_alamo_texture_places *out)
{
    memset(out, 0, sizeof *out);
    out->model_source = in->source;
    out->model_path = in->path;
    out->parent_source = in->parent;
    out->folders = folders;
    out->folder_count = folders ? count : 0;
}

/* Runs `job` (the scene, then whatever ferry_export_file does with it). */
static ferry_result run(const ferry_export_input *in, const ferry_export_options *options, const char *out_path,
                        ferry_scene **scene_out, ferry_error *err)
{
    fy_error_clear(err);
    if (scene_out) *scene_out = NULL;
    const ferry_export_options none = {0};
    const ferry_export_options *o = options ? options : &none;
    ferry_export_report own;
    ferry_export_report *report = o->report ? o->report : &own;
    memset(report, 0, sizeof *report);
    fy_export x = {0};
    x.in = in;
    x.o = o;
    x.report = report;
    x.err = err;
    if (!in || !in->asset || (!scene_out && !out_path)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no input or no output");
        return FERRY_ERR_ARGUMENT;
    }
    x.name = in->name ? in->name : ferry_asset_name(in->asset) ? ferry_asset_name(in->asset) : "";
    ferry_scene *scene = NULL;
    ferry_result r = export_scene(&x, &scene);
    if (r == FERRY_OK && !report->images) report->images = scene->image_count;
    if (r == FERRY_OK && out_path) {
        ferry_write_options wo = o->write;
        if (!wo.protect_input) wo.protect_input = in->file;
        ferry_error e;
        fy_error_clear(&e);
        if (ferry_gltf_save(scene, out_path, &wo, &e) != FERRY_OK)
            r = fy_export_fail(&x, out_path, &e);
        else
            report->written = true;
    }
    if (r == FERRY_OK && scene_out)
        *scene_out = scene;
    else
        ferry_scene_free(scene);
    if (report == &own) ferry_export_report_free(&own);
    return r;
}

ferry_result ferry_export_scene(const ferry_export_input *in, const ferry_export_options *options, ferry_scene **out,
                                ferry_error *err)
{
    if (!out) {
        fy_error_clear(err);
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no place for the scene");
        return FERRY_ERR_ARGUMENT;
    }
    return run(in, options, NULL, out, err);
}

ferry_result ferry_export_file(const ferry_export_input *in, const char *out_path, const ferry_export_options *options,
                               ferry_error *err)
{
    return run(in, options, out_path, NULL, err);
}

/* ---- an input of the disk ---- */

typedef struct owned_input {
    ferry_asset *asset;   /* NULL: the caller's */
    ferry_places *places; /* NULL: the caller's */
    char *file;           /* ferry_export_input_of_asset's copy of the path */
} owned_input;

/* The unpacked addon a model of the disk lies in: the nearest folder at or
 * above `folder` (links resolved) holding a prefix file, up to 8 levels,
 * below the file system's root. */
const ferry_file_source *fy_export_addon_of(ferry_places *places, const char *folder)
{
    char *dir = NULL;
    if (fy_path_resolve(folder, &dir) != 0) return NULL;
    const ferry_file_source *found = NULL;
    char up[4096];
    for (int level = 0; level < 8 && !found; level++) {
        ferry_error ignored;
        const ferry_place *p = ferry_places_folder(places, dir, &ignored);
        if (p && ferry_odol_addon_root(p->source, "")) {
            found = p->source;
            break;
        }
        /* Up one, never to the root itself. */
        char root[4096];
        if (!fy_path_folder(dir, up, sizeof up) || !fy_path_folder(up, root, sizeof root) || strcmp(up, dir) == 0 ||
            strcmp(root, up) == 0)
            break;
        memcpy(dir, up, strlen(up) + 1); /* shorter than dir */
    }
    free(dir);
    return found;
}

ferry_result ferry_export_input_open(const char *path, ferry_places *places, ferry_export_input *in, ferry_error *err)
{
    /* Told once; its object is read by the export that needs it. */
    ferry_asset_options ao = {.name = path, .bytes_only = true};
    return fy_export_input_open_as(path, places, &ao, true, in, err);
}

/* The places of a file of the disk at `path`: its folder and the one above
 * (from `places`), and its addon folder if `addon` and it is an ODOL model. */
static void find_places(const char *path, ferry_places *places, bool addon, ferry_export_input *in)
{
    char dir[4096], up[4100];
    ferry_error ignored; /* without its folders, nothing beside it is found: not an error */
    if (fy_path_folder(path, dir, sizeof dir) && fy_path_parent(dir, up, sizeof up)) {
        const ferry_place *folder = ferry_places_folder(places, dir, &ignored);
        const ferry_place *above = ferry_places_folder(places, up, &ignored);
        in->source = folder ? folder->source : NULL;
        in->parent = above ? above->source : NULL;
        /* Only an ODOL model's textures are found in its addon. */
        ferry_format f = ferry_asset_format(in->asset);
        if (addon && (f == FERRY_FORMAT_ODOL || f == FERRY_FORMAT_MLOD)) in->addon = fy_export_addon_of(places, dir);
    }
}

/* The owned part of an input, with the places of its own when the caller
 * gave none; NULL (err set) out of memory. */
static owned_input *new_owned(ferry_places **places, ferry_error *err)
{
    owned_input *own = calloc(1, sizeof *own);
    if (!own || (!*places && !(*places = own->places = ferry_places_new()))) {
        free(own);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return NULL;
    }
    return own;
}

ferry_result fy_export_input_open_as(const char *path, ferry_places *places, const ferry_asset_options *ao, bool addon,
                                     ferry_export_input *in, ferry_error *err)
{
    fy_error_clear(err);
    if (!in || !path) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no input");
        return FERRY_ERR_ARGUMENT;
    }
    memset(in, 0, sizeof *in);
    owned_input *own = new_owned(&places, err);
    if (!own) return FERRY_ERR_NOMEM;
    ferry_asset_options named = *ao;
    if (!named.name) named.name = path;
    ferry_result r = ferry_asset_open(path, &named, &own->asset, err);
    if (r != FERRY_OK) {
        ferry_places_free(own->places);
        free(own);
        return r;
    }
    in->owned = own;
    in->asset = own->asset;
    in->name = ferry_asset_name(own->asset);
    in->file = in->name;
    in->path = in->name + fy_path_name_offset(in->name);
    find_places(path, places, addon, in);
    return FERRY_OK;
}

ferry_result ferry_export_input_of_asset(const ferry_asset *asset, const char *path, ferry_places *places,
                                         ferry_export_input *in, ferry_error *err)
{
    fy_error_clear(err);
    if (!in || !path || !asset) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset, no path or no input");
        return FERRY_ERR_ARGUMENT;
    }
    memset(in, 0, sizeof *in);
    owned_input *own = new_owned(&places, err);
    if (!own) return FERRY_ERR_NOMEM;
    if (!(own->file = fy_strdup(path))) {
        ferry_places_free(own->places);
        free(own);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    in->owned = own;
    in->asset = asset;
    in->name = ferry_asset_name(asset);
    in->file = own->file;
    in->path = own->file + fy_path_name_offset(own->file);
    find_places(path, places, true, in);
    return FERRY_OK;
}

void ferry_export_input_close(ferry_export_input *in)
{
    if (!in) return;
    owned_input *own = in->owned;
    if (own) {
        ferry_asset_free(own->asset);
        ferry_places_free(own->places);
        free(own->file);
        free(own);
    }
    memset(in, 0, sizeof *in);
}
