/* Validation in context (engine.h: ferry_validate_input, ferry_validate_tree):
 * each file with the places the game finds its textures in and the model
 * its animation plays on; a folder tree's files of the formats ferry
 * validates. One thread: the items come in order as they are checked. */
#include "archive_internal.h"
#include "../core/walk.h"

#include <ferry/alamo.h>
#include <ferry/ala.h>
#include <ferry/detect.h>
#include <ferry/engine.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VALIDATE_PATH_MAX 4096
/* Models read for the animations beside them, kept for the next ones. */
#define MODEL_CACHE 8

typedef struct cached_model {
    char *path;
    ferry_asset *file;  /* the mapping */
    ferry_asset *model; /* read from it; NULL: not an ALO model (the animation is checked alone) */
} cached_model;

/* One job: the places, the texture sources, the models read. */
typedef struct validator {
    const ferry_validate_options *o;
    ferry_places *places;
    const ferry_file_source **textures; /* each texture place's source (NULL: holds nothing) */
    char dir[VALIDATE_PATH_MAX];        /* the last folder listed for models, and its .alo files */
    bool dir_listed;
    char **dir_models;
    size_t dir_model_count;
    cached_model cache[MODEL_CACHE];
    size_t next; /* the cache slot reused next */
    ferry_validate_report *report;
    bool nomem;
} validator;

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

static void deliver(validator *v, const ferry_validate_item *item)
{
    v->report->errors += item->error_count;
    if (v->o->item) v->o->item(v->o->item_user, item);
}

/* ---- which model an animation is checked against ---- */

static void free_dir_models(validator *v)
{
    for (size_t i = 0; i < v->dir_model_count; i++) free(v->dir_models[i]);
    free(v->dir_models);
    v->dir_models = NULL;
    v->dir_model_count = 0;
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The .alo files of `dir`, listed once while animations of one folder follow each other. */
static void list_models(validator *v, const char *dir)
{
    if (v->dir_listed && strcmp(v->dir, dir) == 0) return;
    free_dir_models(v);
    snprintf(v->dir, sizeof v->dir, "%s", dir);
    v->dir_listed = true;
    fy_folder *d;
    if (fy_folder_open(dir, &d) != 0) return;
    size_t cap = 0;
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) {
        if (!has_ext(name, ".alo")) continue;
        if (v->dir_model_count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(v->dir_models, cap * sizeof *grown);
            if (!grown) break;
            v->dir_models = grown;
        }
        char path[VALIDATE_PATH_MAX];
        int n = fy_path_join(path, sizeof path, dir, name);
        char *copy = n >= 0 && (size_t)n < sizeof path ? fy_strdup(path) : NULL;
        if (copy) v->dir_models[v->dir_model_count++] = copy;
    }
    fy_folder_close(d);
    /* A fixed order, so that a tie (ship.alo, ship.ALO) is decided the same way every time. */
    if (v->dir_model_count > 1) qsort(v->dir_models, v->dir_model_count, sizeof *v->dir_models, cmp_text);
}

static const ferry_asset *load_model(validator *v, const char *path)
{
    for (size_t i = 0; i < MODEL_CACHE; i++)
        if (v->cache[i].path && strcmp(v->cache[i].path, path) == 0) return v->cache[i].model;
    cached_model *c = &v->cache[v->next];
    v->next = (v->next + 1) % MODEL_CACHE;
    free(c->path);
    ferry_asset_free(c->model);
    ferry_asset_free(c->file);
    memset(c, 0, sizeof *c);
    c->path = fy_strdup(path);
    /* Told first, read only when it is an ALO model. One that cannot be
     * read (or a particle system of that name) is reported where it is
     * validated itself; the animation is checked alone. */
    ferry_error err;
    if (ferry_asset_open(path, &(ferry_asset_options){.bytes_only = true}, &c->file, &err) != FERRY_OK) return NULL;
    if (ferry_asset_format(c->file) != FERRY_FORMAT_ALO_MODEL) return NULL;
    size_t size;
    const uint8_t *data = ferry_asset_bytes(c->file, &size);
    ferry_asset_options o = {.format = FERRY_FORMAT_ALO_MODEL, .name = path};
    if (ferry_asset_read(data, size, &o, &c->model, &err) != FERRY_OK) c->model = NULL;
    return c->model;
}

static const ferry_asset *pick_model(validator *v, const char *anim_path, const char **model_path)
{
    const ferry_validate_options *o = v->o;
    if (o->model) {
        *model_path = o->model_name ? o->model_name : ferry_asset_name(o->model);
        return o->model;
    }
    size_t k = ferry_ala_model_for(anim_path, o->models, o->model_count);
    if (k < o->model_count) {
        *model_path = o->models[k];
        return load_model(v, o->models[k]);
    }
    char dir[VALIDATE_PATH_MAX];
    if (!fy_path_folder(anim_path, dir, sizeof dir)) return NULL;
    list_models(v, dir);
    k = ferry_ala_model_for(anim_path, (const char *const *)v->dir_models, v->dir_model_count);
    if (k >= v->dir_model_count) return NULL;
    *model_path = v->dir_models[k];
    return load_model(v, v->dir_models[k]);
}

/* ---- one file ---- */

/* The places a model's or particle system's textures are found, from the
 * job's pool: its folder and the one above, then the texture places. */
static void texture_places(validator *v, const char *file, ferry_alamo_texture_places *tex)
{
    memset(tex, 0, sizeof *tex);
    char dir[VALIDATE_PATH_MAX], up[VALIDATE_PATH_MAX + 4];
    ferry_error err;
    if (fy_path_folder(file, dir, sizeof dir)) {
        const ferry_place *model = ferry_places_folder(v->places, dir, &err);
        tex->model_source = model ? model->source : NULL;
        if (fy_path_parent(dir, up, sizeof up)) {
            const ferry_place *parent = ferry_places_folder(v->places, up, &err);
            tex->parent_source = parent ? parent->source : NULL;
        }
    }
    tex->model_path = file + fy_path_name_offset(file);
    tex->folders = v->textures;
    tex->folder_count = v->textures ? v->o->texture_count : 0;
}

/* The file's own item, delivered once, before its entries'. */
typedef struct file_check {
    validator *v;
    ferry_validate_item own;
    bool delivered;
} file_check;

static void deliver_own(file_check *c)
{
    if (c->delivered) return;
    c->own.error_count = c->own.diagnostics->error_count;
    deliver(c->v, &c->own);
    c->delivered = true;
}

static void entry_checked(void *user, const ferry_asset_entry_report *e)
{
    file_check *c = user;
    deliver_own(c);
    ferry_validate_item item = {e->label, e->format, true, false, e->error, e->error ? NULL : e->diagnostics, NULL,
                                e->error_count};
    deliver(c->v, &item);
}

/* Validates one file; returns its error count (a failure to read is one). */
static size_t validate_file(validator *v, const char *file)
{
    ferry_format read_as = FERRY_FORMAT_UNKNOWN;
    ferry_asset *asset = NULL;
    ferry_error err;
    ferry_asset_options ao = {.name = file, .need = FERRY_CAN_VALIDATE, .detected = &read_as};
    if (ferry_asset_open(file, &ao, &asset, &err) != FERRY_OK) {
        ferry_validate_item item = {file, read_as, false, false, &err, NULL, NULL, 1};
        deliver(v, &item);
        return 1;
    }
    ferry_format format = ferry_asset_format(asset);
    ferry_alamo_texture_places tex;
    bool textures = (format == FERRY_FORMAT_ALO_MODEL || format == FERRY_FORMAT_ALO_PARTICLE) && !v->o->skip_textures;
    if (textures) texture_places(v, file, &tex);
    const char *model_path = NULL;
    const ferry_asset *model = format == FERRY_FORMAT_ALA ? pick_model(v, file, &model_path) : NULL;
    ferry_diagnostics diags = {0};
    file_check c = {v, {file, format, false, false, NULL, &diags, model ? model_path : NULL, 0}, false};
    ferry_asset_validate_options vo = {textures ? &tex : NULL, model, entry_checked, &c};
    size_t errors = ferry_asset_validate(asset, &vo, &diags);
    deliver_own(&c);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(asset);
    return errors;
}

/* ---- the job ---- */

typedef struct target {
    char *path;
    char *folder_error; /* a folder that could not be read: its message */
} target;

typedef struct targets {
    validator *v;
    target *items;
    size_t count, capacity;
} targets;

typedef struct report_owned {
    fy_walk walk;
} report_owned;

static void add_target(targets *l, const char *path, const char *folder_error)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 64;
        target *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            l->v->nomem = true;
            return;
        }
        l->items = items;
        l->capacity = cap;
    }
    target *t = &l->items[l->count];
    t->path = fy_strdup(path);
    t->folder_error = folder_error ? fy_strdup(folder_error) : NULL;
    if (!t->path || (folder_error && !t->folder_error)) {
        free(t->path);
        free(t->folder_error);
        l->v->nomem = true;
        return;
    }
    l->count++;
}

/* Whether a file of the walk is checked: named like an asset, or a format
 * ferry validates told from its first bytes (nothing else read); a regular
 * file that cannot be read is checked, so that its failure is reported. */
static bool worth_checking(const char *path, fy_file_kind kind)
{
    if (ferry_format_named_like_asset(path)) return true;
    if (kind != FY_KIND_REGULAR) return false;
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got = 0;
    ferry_error err;
    if (ferry_file_read_head(path, head, sizeof head, &got, NULL, &err) != FERRY_OK) return true;
    ferry_asset *probe = NULL;
    ferry_asset_options o = {.bytes_only = true, .need = FERRY_CAN_VALIDATE};
    bool check = ferry_asset_read(head, got, &o, &probe, &err) == FERRY_OK;
    ferry_format id = ferry_asset_format(probe);
    ferry_asset_free(probe);
    /* Text has no signature: of the files that read as config text
     * (scripts can), only those named like configs are checked. */
    if (id == FERRY_FORMAT_CONFIG_TEXT)
        check = has_ext(path, ".cpp") || has_ext(path, ".hpp") || has_ext(path, ".bisurf");
    return check;
}

static void visit(void *ctx, const char *path, const char *rel, fy_file_kind kind, int error)
{
    (void)rel;
    (void)error;
    targets *l = ctx;
    if (worth_checking(path, kind))
        add_target(l, path, NULL);
    else
        l->v->report->skipped++;
}

static int cmp_target(const void *a, const void *b)
{
    return strcmp(((const target *)a)->path, ((const target *)b)->path);
}

/* The files of folder `root`, sorted by path, with each folder that could not be read. */
static void walk_folder(fy_walk *w, targets *l, const char *root)
{
    size_t first = l->count, first_skip = w->skipped_count;
    fy_walk_run(w, root);
    for (size_t i = first_skip; i < w->skipped_count; i++) {
        if (!w->skipped[i].failed || !w->skipped[i].path) continue;
        char message[VALIDATE_PATH_MAX + 512];
        snprintf(message, sizeof message, "cannot read the folder %s: %s", w->skipped[i].path,
                 w->skipped[i].reason ? w->skipped[i].reason : "?");
        add_target(l, w->skipped[i].path, message);
    }
    if (l->count > first) qsort(l->items + first, l->count - first, sizeof *l->items, cmp_target);
}

static ferry_result nomem(ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    return FERRY_ERR_NOMEM;
}

void ferry_validate_report_free(ferry_validate_report *report)
{
    if (!report) return;
    report_owned *own = report->owned;
    if (own) {
        fy_walk_free(&own->walk);
        free(own);
    }
    free(report->folders);
    memset(report, 0, sizeof *report);
}

ferry_result ferry_validate_tree(const char *const *paths, size_t count, const ferry_validate_options *options,
                                 ferry_validate_report *report, ferry_error *err)
{
    fy_error_clear(err);
    if (report) memset(report, 0, sizeof *report);
    if ((count && !paths) || !report) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no paths or no report");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_validate_options none = {0};
    validator v = {0};
    v.o = options ? options : &none;
    v.report = report;
    ferry_places *own_places = NULL;
    v.places = v.o->places;
    report_owned *own = calloc(1, sizeof *own);
    if (!own || (!v.places && !(v.places = own_places = ferry_places_new()))) {
        free(own);
        return nomem(err);
    }
    report->owned = own;
    if (!v.o->skip_textures && v.o->texture_count) {
        v.textures = calloc(v.o->texture_count, sizeof *v.textures);
        if (!v.textures) v.nomem = true;
        for (size_t i = 0; v.textures && i < v.o->texture_count; i++)
            v.textures[i] = v.o->textures && v.o->textures[i] ? v.o->textures[i]->source : NULL;
    }

    targets l = {&v, NULL, 0, 0};
    fy_walk *w = &own->walk;
    w->visit = visit;
    w->ctx = &l;
    w->message = v.o->message;
    w->user = v.o->user;
    for (size_t i = 0; i < count && !v.nomem; i++) {
        fy_file_info info;
        if (v.o->recursive && fy_path_info(paths[i], true, &info) == 0 && info.kind == FY_KIND_FOLDER)
            walk_folder(w, &l, paths[i]);
        else
            add_target(&l, paths[i], NULL);
    }

    if (!v.nomem && v.o->progress) v.o->progress(v.o->progress_user, 0, l.count, NULL);
    for (size_t i = 0; i < l.count && !v.nomem; i++) {
        const target *t = &l.items[i];
        if (t->folder_error) {
            ferry_error folder_err;
            fy_error_clear(&folder_err);
            fy_error_set(&folder_err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s", t->folder_error);
            ferry_validate_item item = {t->path, FERRY_FORMAT_UNKNOWN, false, true, &folder_err, NULL, NULL, 1};
            deliver(&v, &item);
        } else {
            report->checked++;
            if (validate_file(&v, t->path)) report->invalid++;
        }
        if (v.o->progress) v.o->progress(v.o->progress_user, i + 1, l.count, t->path);
    }

    report->folders = w->skipped_count ? calloc(w->skipped_count, sizeof *report->folders) : NULL;
    for (size_t i = 0; report->folders && i < w->skipped_count; i++) {
        report->folders[i].path = w->skipped[i].path ? w->skipped[i].path : "?";
        report->folders[i].reason = w->skipped[i].reason ? w->skipped[i].reason : "?";
        report->folders[i].failed = w->skipped[i].failed;
        report->folder_count++;
    }
    report->failed_folders = w->failed;

    for (size_t i = 0; i < l.count; i++) {
        free(l.items[i].path);
        free(l.items[i].folder_error);
    }
    free(l.items);
    free_dir_models(&v);
    for (size_t i = 0; i < MODEL_CACHE; i++) {
        free(v.cache[i].path);
        ferry_asset_free(v.cache[i].model);
        ferry_asset_free(v.cache[i].file);
    }
    free(v.textures);
    ferry_places_free(own_places);
    if (v.nomem || w->nomem) return nomem(err);
    return FERRY_OK;
}

ferry_result ferry_validate_input(const char *path, const ferry_validate_options *options,
                                  ferry_validate_report *report, ferry_error *err)
{
    if (!path) {
        fy_error_clear(err);
        if (report) memset(report, 0, sizeof *report);
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_validate_options one = options ? *options : (ferry_validate_options){0};
    one.recursive = false;
    return ferry_validate_tree(&path, 1, &one, report, err);
}
