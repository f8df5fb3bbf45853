/* Validation in context (engine.h: ferry_validate_input,
 * ferry_validate_export_input, ferry_validate_tree): each input with the
 * places the game finds its textures in and the model its animation plays
 * on, both taken from the input's source (a file of the disk: its folder);
 * a folder tree's files of the formats ferry validates. One thread: the
 * items come in order as they are checked. */
#include "export_internal.h"
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
    const ferry_file_source *source; /* holding it; NULL: a path of the disk (options->models) */
    char *path;                      /* in source, or of the disk */
    char *shown;                     /* how items name it */
    uint8_t *bytes;                  /* loaded from source */
    size_t size;
    ferry_asset *file;  /* the mapping, or the bytes told */
    ferry_asset *model; /* read from it; NULL: not an ALO model (the animation is checked alone) */
} cached_model;

/* One job: the places, the texture sources, the models read. */
typedef struct validator {
    const ferry_validate_options *o;
    ferry_places *places;
    const ferry_file_source **textures; /* each texture place's source (NULL: holds nothing) */
    size_t texture_count;
    /* The last folder listed for models (a source and a path in it), and its .alo files. */
    const ferry_file_source *dir_source;
    char dir[VALIDATE_PATH_MAX];
    bool dir_listed;
    char **dir_models; /* paths in dir_source, sorted */
    size_t dir_model_count, dir_model_capacity;
    /* The folder of the input of the disk being checked (validate_file;
     * "": another input): the models beside it are named as paths of the
     * disk (fy_path_join: on Windows with the system's separator). */
    char disk_folder[VALIDATE_PATH_MAX];
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
    v->dir_model_count = v->dir_model_capacity = 0;
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every entry named .alo, whatever its kind: one that is no model (a
 * folder so named) is found, fails to load, and the animation is checked
 * alone rather than paired with another model. */
static bool collect_model(void *ctx, const char *name, ferry_entry_kind kind)
{
    (void)kind;
    validator *v = ctx;
    if (!has_ext(name, ".alo")) return true;
    if (v->dir_model_count == v->dir_model_capacity) {
        size_t cap = v->dir_model_capacity ? v->dir_model_capacity * 2 : 64;
        char **grown = realloc(v->dir_models, cap * sizeof *grown);
        if (!grown) return false;
        v->dir_models = grown;
        v->dir_model_capacity = cap;
    }
    char path[VALIDATE_PATH_MAX];
    int n = *v->dir ? snprintf(path, sizeof path, "%s/%s", v->dir, name) : snprintf(path, sizeof path, "%s", name);
    char *copy = n >= 0 && (size_t)n < sizeof path ? fy_strdup(path) : NULL;
    if (copy) v->dir_models[v->dir_model_count++] = copy;
    return true;
}

/* The .alo files of folder `dir` of `source`, listed once while animations
 * of one folder follow each other. */
static void list_models(validator *v, const ferry_file_source *source, const char *dir)
{
    if (v->dir_listed && v->dir_source == source && strcmp(v->dir, dir) == 0) return;
    free_dir_models(v);
    v->dir_source = source;
    snprintf(v->dir, sizeof v->dir, "%s", dir);
    v->dir_listed = true;
    ferry_error err;
    if (ferry_file_source_list(source, dir, collect_model, v, &err) != FERRY_OK) return;
    /* A fixed order, so that a tie (ship.alo, ship.ALO) is decided the same way every time. */
    if (v->dir_model_count > 1) qsort(v->dir_models, v->dir_model_count, sizeof *v->dir_models, cmp_text);
}

static void cached_model_free(cached_model *c)
{
    free(c->path);
    free(c->shown);
    ferry_asset_free(c->model);
    ferry_asset_free(c->file);
    if (c->bytes) ferry_file_source_release(c->source, c->bytes, c->size);
    memset(c, 0, sizeof *c);
}

/* The model at `path` of `source` (NULL: of the disk), named `shown`;
 * *shown_out: the cache's copy of that name. */
static const ferry_asset *load_model(validator *v, const ferry_file_source *source, const char *path,
                                     const char *shown, const char **shown_out)
{
    for (size_t i = 0; i < MODEL_CACHE; i++)
        if (v->cache[i].path && v->cache[i].source == source && strcmp(v->cache[i].path, path) == 0) {
            *shown_out = v->cache[i].shown;
            return v->cache[i].model;
        }
    cached_model *c = &v->cache[v->next];
    v->next = (v->next + 1) % MODEL_CACHE;
    cached_model_free(c);
    c->source = source;
    c->path = fy_strdup(path);
    c->shown = fy_strdup(shown);
    if (!c->path || !c->shown) {
        cached_model_free(c);
        return NULL;
    }
    *shown_out = c->shown;
    /* Told first, read only when it is an ALO model. One that cannot be
     * read (or a particle system of that name) is reported where it is
     * validated itself; the animation is checked alone. */
    ferry_error err;
    ferry_asset_options told = {.bytes_only = true, .name = shown};
    ferry_result r = source ? ferry_file_source_load(source, path, FERRY_ASSET_MAX_INPUT, &c->bytes, &c->size, &err)
                            : FERRY_OK;
    if (r == FERRY_OK)
        r = source ? ferry_asset_read(c->bytes, c->size, &told, &c->file, &err) : ferry_asset_open(path, &told, &c->file, &err);
    if (r != FERRY_OK || ferry_asset_format(c->file) != FERRY_FORMAT_ALO_MODEL) return NULL;
    size_t size;
    const uint8_t *data = ferry_asset_bytes(c->file, &size);
    ferry_asset_options o = {.format = FERRY_FORMAT_ALO_MODEL, .name = shown};
    if (ferry_asset_read(data, size, &o, &c->model, &err) != FERRY_OK) c->model = NULL;
    return c->model;
}

static const char *input_name(const ferry_export_input *in)
{
    const char *name = in->name ? in->name : ferry_asset_name(in->asset);
    return name ? name : "";
}

static const ferry_asset *pick_model(validator *v, const ferry_export_input *in, const char **model_path)
{
    const ferry_validate_options *o = v->o;
    if (o->model) {
        *model_path = o->model_name ? o->model_name : ferry_asset_name(o->model);
        return o->model;
    }
    /* Names are compared without their folders. */
    const char *anim = in->path ? in->path : input_name(in);
    size_t k = ferry_ala_model_for(anim, o->models, o->model_count);
    if (k < o->model_count) return load_model(v, NULL, o->models[k], o->models[k], model_path);
    if (!in->source || !in->path) return NULL;
    const char *slash = strrchr(in->path, '/');
    char dir[VALIDATE_PATH_MAX];
    int n = snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - in->path) : 0, in->path);
    if (n < 0 || (size_t)n >= sizeof dir) return NULL;
    list_models(v, in->source, dir);
    k = ferry_ala_model_for(anim, (const char *const *)v->dir_models, v->dir_model_count);
    if (k >= v->dir_model_count) return NULL;
    char shown[VALIDATE_PATH_MAX * 2];
    if (*v->disk_folder && !*dir)
        fy_path_join(shown, sizeof shown, v->disk_folder, v->dir_models[k]);
    else
        ferry_file_source_display(in->source, v->dir_models[k], shown, sizeof shown);
    return load_model(v, in->source, v->dir_models[k], shown, model_path);
}

/* ---- one input ---- */

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
                                e->error_count, e};
    deliver(c->v, &item);
}

/* Validates the input; returns its error count. */
static size_t validate_in(validator *v, const ferry_export_input *in)
{
    ferry_format format = ferry_asset_format(in->asset);
    ferry_alamo_texture_places tex;
    bool textures = (format == FERRY_FORMAT_ALO_MODEL || format == FERRY_FORMAT_ALO_PARTICLE) && !v->o->skip_textures;
    if (textures) fy_input_texture_places(in, v->textures, v->texture_count, &tex);
    const char *model_path = NULL;
    const ferry_asset *model = format == FERRY_FORMAT_ALA ? pick_model(v, in, &model_path) : NULL;
    ferry_diagnostics diags = {0};
    file_check c = {v, {input_name(in), format, false, false, NULL, &diags, model ? model_path : NULL, 0, NULL}, false};
    ferry_asset_validate_options vo = {textures ? &tex : NULL, model, entry_checked, &c};
    size_t errors = ferry_asset_validate(in->asset, &vo, &diags);
    deliver_own(&c);
    ferry_diagnostics_free(&diags);
    return errors;
}

/* Validates the file at `path`, opened as an input of the disk in the
 * job's places; returns its error count (a failure to read is one). */
static size_t validate_file(validator *v, const char *file)
{
    ferry_format read_as = FERRY_FORMAT_UNKNOWN;
    ferry_export_input in;
    ferry_error err;
    /* Read whole on opening (the object too): a file its reader refuses is
     * one item with that error, as it cannot be validated. */
    ferry_asset_options ao = {.name = file, .need = FERRY_CAN_VALIDATE, .detected = &read_as};
    if (fy_export_input_open_as(file, v->places, &ao, false, &in, &err) != FERRY_OK) {
        ferry_validate_item item = {file, read_as, false, false, &err, NULL, NULL, 1, NULL};
        deliver(v, &item);
        return 1;
    }
    if (!fy_path_folder(file, v->disk_folder, sizeof v->disk_folder)) v->disk_folder[0] = '\0';
    size_t errors = validate_in(v, &in);
    v->disk_folder[0] = '\0';
    ferry_export_input_close(&in);
    return errors;
}

/* A job's start: options (or none), the report zeroed, the texture
 * places' sources. False without memory. */
static bool job_begin(validator *v, const ferry_validate_options *options, const ferry_validate_options *none,
                      ferry_validate_report *report)
{
    memset(v, 0, sizeof *v);
    v->o = options ? options : none;
    v->report = report;
    if (!v->o->skip_textures && v->o->textures && v->o->texture_count) {
        if (!fy_place_sources(v->o->textures, v->o->texture_count, &v->textures)) return false;
        v->texture_count = v->o->texture_count;
    }
    return true;
}

static void job_end(validator *v)
{
    free_dir_models(v);
    for (size_t i = 0; i < MODEL_CACHE; i++) cached_model_free(&v->cache[i]);
    free(v->textures);
    v->textures = NULL;
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
    validator v;
    bool started = job_begin(&v, options, &none, report);
    ferry_places *own_places = NULL;
    v.places = v.o->places;
    report_owned *own = calloc(1, sizeof *own);
    if (!started || !own || (!v.places && !(v.places = own_places = ferry_places_new()))) {
        free(own);
        job_end(&v);
        return nomem(err);
    }
    report->owned = own;

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
            ferry_validate_item item = {t->path, FERRY_FORMAT_UNKNOWN, false, true, &folder_err, NULL, NULL, 1, NULL};
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
    job_end(&v); /* before the places its models were loaded from */
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

ferry_result ferry_validate_export_input(const ferry_export_input *in, const ferry_validate_options *options,
                                         ferry_validate_report *report, ferry_error *err)
{
    fy_error_clear(err);
    if (report) memset(report, 0, sizeof *report);
    if (!in || !in->asset || !report) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no input or no report");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_validate_options none = {0};
    validator v;
    if (!job_begin(&v, options, &none, report)) {
        job_end(&v);
        return nomem(err);
    }
    if (v.o->progress) v.o->progress(v.o->progress_user, 0, 1, NULL);
    report->checked = 1;
    if (validate_in(&v, in)) report->invalid = 1;
    if (v.o->progress) v.o->progress(v.o->progress_user, 1, 1, input_name(in));
    job_end(&v);
    return FERRY_OK;
}
