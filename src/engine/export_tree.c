/* convert -r (engine.h): every model under a folder, or inside an archive,
 * exported to glTF in parallel, mirroring the folders. One bad file never
 * stops the others.
 *
 * Threads: the workers share the places (each model's folder and the one
 * above, the archive, the texture places, addons: each opened once, safe
 * to use from several threads) and the tree's lock, which guards the next
 * item, the addon cache, progress and the delivery of finished items; an
 * item's asset, messages and report are its worker's. */
#define _POSIX_C_SOURCE 200809L
#include "export_internal.h"
#include "../core/walk.h"

#include <ferry/odol.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TREE_PATH_MAX 4096

typedef struct tree_item {
    ferry_export_item pub;
    char *input, *rel, *output;
    char *entry;    /* its path in the archive (NULL: a file of the disk, `input`) */
    size_t index;   /* its entry in the archive */
    char *refused;  /* why it is refused before being read */
    ferry_export_report report;
    ferry_message_list messages;
    bool done;
} tree_item;

typedef struct addon_cache_entry {
    char *folder;
    const ferry_file_source *addon;
} addon_cache_entry;

typedef struct tree {
    const ferry_export_tree_options *o;
    const char *in, *out_dir;
    ferry_places *places;
    const ferry_place *archive; /* the archive exported from, or NULL (a folder) */
    tree_item *items;
    size_t count, capacity;
    size_t next, delivered, finished;
    fy_mutex lock;
    addon_cache_entry *addons;
    size_t addon_count, addon_capacity;
    bool nomem;
} tree;

static void say(const tree *t, ferry_message_kind kind, const char *file, const char *rule, const ferry_error *error,
                const char *fmt, ...) FY_PRINTF(6, 7);
static void say(const tree *t, ferry_message_kind kind, const char *file, const char *rule, const ferry_error *error,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fy_vmessage(t->o->export.message, t->o->export.user, kind, file, rule, error, fmt, ap);
    va_end(ap);
}

static char *format_alloc(const char *fmt, ...) FY_PRINTF(1, 2);
static char *format_alloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static char *dup_text(const char *s) { return s ? format_alloc("%s", s) : NULL; }

static void item_say(tree_item *it, ferry_message_kind kind, const char *text)
{
    ferry_message m = {kind, it->input ? it->input : "", text, NULL, NULL};
    ferry_message_list_add(&it->messages, &m);
}

/* ---- collecting the items ---- */

static tree_item *add_item(tree *t, const char *input, const char *rel)
{
    if (t->count == t->capacity) {
        size_t cap = t->capacity ? t->capacity * 2 : 64;
        tree_item *items = realloc(t->items, cap * sizeof *items);
        if (!items) {
            t->nomem = true;
            return NULL;
        }
        t->items = items;
        t->capacity = cap;
    }
    tree_item *it = &t->items[t->count++];
    memset(it, 0, sizeof *it);
    it->input = dup_text(input);
    it->rel = dup_text(rel);
    size_t n = strlen(rel);
    /* The same path with .glb for the model's extension. */
    it->output = format_alloc("%s/%.*s.glb", t->out_dir, (int)(n >= 4 ? n - 4 : 0), rel);
    return it;
}

/* The names of the formats ferry exports to glTF (ALO models and particle
 * systems, ODOL, ALM); each file is then exported as what its content is. */
static bool is_model_name(const char *name, size_t n)
{
    static const char *const exts[] = {".alo", ".p3d", ".alm"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (n >= 5 && strncasecmp(name + n - 4, exts[i], 4) == 0) return true;
    return false;
}

/* An entry of the walk: a model (by name) is exported; one that cannot be
 * looked at or is not a regular file is refused, never opened. */
static void visit(void *ctx, const char *path, const char *rel, fy_file_kind kind, int error)
{
    tree *t = ctx;
    if (!is_model_name(rel, strlen(rel))) return;
    tree_item *it = add_item(t, path, rel);
    if (!it) return;
    char words[256];
    /* A dangling link named .alo is a file the user expects exported. */
    if (error)
        it->refused = format_alloc("cannot open %s: %s", path, fy_sys_message(error, words, sizeof words));
    /* Never opened: a FIFO would block, a device could do anything. */
    else if (kind != FY_KIND_REGULAR)
        it->refused = format_alloc("%s is %s, not a regular file: not read", path, fy_file_kind_name(kind));
}

/* Every model inside the archive: its stored name made a path, or the
 * item refused, naming the record, when the name could lead outside
 * out_dir (ferry_archive_entry_path, extract's rule). */
static void collect_archive(tree *t)
{
    const ferry_archive *a = t->archive->archive;
    size_t count = ferry_archive_entry_count(a);
    for (size_t i = 0; i < count; i++) {
        const ferry_archive_entry *e = ferry_archive_entry_at(a, i);
        const char *name = e->name;
        size_t n = e->name_length;
        if (!name || !is_model_name(name, n)) continue;
        ferry_error err;
        char *path = malloc(n + 1);
        const char *why = path ? NULL : "out of memory";
        if (path && ferry_archive_entry_path(name, n, path, n + 1, &err) != FERRY_OK) {
            free(path);
            path = NULL;
            why = err.message;
        }
        char shown[TREE_PATH_MAX];
        if (path)
            ferry_file_source_display(t->archive->source, path, shown, sizeof shown);
        else /* named by its record: the name itself is not a path */
            snprintf(shown, sizeof shown, "%s: files[%zu] '%.*s'", t->in, i, (int)(n < 1024 ? n : 1024), name);
        tree_item *it = add_item(t, shown, path ? path : "");
        if (!it) {
            free(path);
            return;
        }
        it->index = i;
        if (!path) {
            free(it->output);
            free(it->rel);
            it->output = NULL;
            it->rel = malloc(n + 1);
            if (it->rel) {
                memcpy(it->rel, name, n);
                it->rel[n] = 0;
            }
            it->refused = format_alloc("not converted: %s (it would be written outside %s)", why, t->out_dir);
            continue;
        }
        it->entry = path;
    }
}

static int cmp_item(const void *a, const void *b)
{
    const tree_item *x = a, *y = b;
    return strcmp(x->rel ? x->rel : "", y->rel ? y->rel : "");
}

static int cmp_out_nocase(const void *a, const void *b)
{
    const tree_item *x = *(const tree_item *const *)a, *y = *(const tree_item *const *)b;
    int c = strcasecmp(x->output, y->output);
    return c ? c : strcmp(x->rel, y->rel);
}

/* Inputs whose outputs differ only in case (ship.alo and ship.ALO both give
 * ship.glb; Ship.alo and ship.alo collide on a disk that ignores case):
 * each is refused, naming the others, so that none silently overwrites
 * another. */
static void refuse_case_collisions(tree *t)
{
    if (t->count < 2) return;
    tree_item **order = malloc(t->count * sizeof *order);
    if (!order) return;
    size_t count = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->items[i].output && t->items[i].rel && t->items[i].input) order[count++] = &t->items[i];
    qsort(order, count, sizeof *order, cmp_out_nocase);
    for (size_t i = 0; i < count;) {
        size_t j = i + 1;
        while (j < count && strcasecmp(order[i]->output, order[j]->output) == 0) j++;
        for (size_t k = i; j - i > 1 && k < j; k++) {
            if (order[k]->refused) continue;
            const tree_item *other = order[k == i ? i + 1 : i];
            order[k]->refused = format_alloc(
                "%s and %s%s would both be written as %s (the names differ only in case%s): not converted; rename one "
                "of them",
                order[k]->input, other->input, j - i > 2 ? " (and others)" : "", other->output,
                strcasecmp(order[k]->rel, other->rel) != 0 ? " or extension" : "");
        }
        i = j;
    }
    free(order);
}

/* ---- the output tree ---- */

/* Removes what killed ferry processes left in the output tree: temporaries
 * whose writer no longer runs (links are not followed). */
static size_t clean_stale(const char *dir, int depth)
{
    size_t removed = 0;
    ferry_error err;
    if (ferry_file_remove_stale_temporaries(dir, &removed, &err) != FERRY_OK || depth > 64) return removed;
    fy_folder *d;
    if (fy_folder_open(dir, &d) != 0) return removed;
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) {
        fy_file_info info;
        if (kind == FY_KIND_UNKNOWN && fy_folder_entry_info(d, name, false, &info) == 0) kind = info.kind;
        if (kind != FY_KIND_FOLDER) continue;
        char path[TREE_PATH_MAX];
        int n = fy_path_join(path, sizeof path, dir, name);
        if (n < 0 || (size_t)n >= sizeof path) continue;
        removed += clean_stale(path, depth + 1);
    }
    fy_folder_close(d);
    return removed;
}

/* Makes the folders of `path` below out_dir (which is there); on failure
 * says which and why. With `no_links` (an archive's entry), a folder on
 * the way that is a link is refused: an archive's names never lead outside
 * out_dir, whatever links it holds. */
static bool make_parents(const tree *t, tree_item *it, bool no_links)
{
    char buf[TREE_PATH_MAX], words[256];
    int n = snprintf(buf, sizeof buf, "%s", it->output);
    if (n < 0 || (size_t)n >= sizeof buf) {
        item_say(it, FERRY_MESSAGE_ERROR, "its output's path is too long");
        return false;
    }
    size_t start = strlen(t->out_dir);
    for (char *p = buf + (start < (size_t)n ? start + 1 : (size_t)n); *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        char text[TREE_PATH_MAX + 300];
        int code = fy_folder_make(buf);
        if (code && !fy_sys_exists(code)) {
            snprintf(text, sizeof text, "cannot create the folder %s: %s", buf, fy_sys_message(code, words, sizeof words));
            item_say(it, FERRY_MESSAGE_ERROR, text);
            return false;
        }
        fy_file_info info;
        if (no_links && (fy_path_info(buf, false, &info) != 0 || info.kind != FY_KIND_FOLDER)) {
            snprintf(text, sizeof text, "not written: the folder %s on its path is a link or not a folder", buf);
            item_say(it, FERRY_MESSAGE_ERROR, text);
            return false;
        }
        if ((code = fy_path_info(buf, true, &info)) != 0 || info.kind != FY_KIND_FOLDER) {
            snprintf(text, sizeof text, "cannot create the folder %s: %s", buf,
                     code ? fy_sys_message(code, words, sizeof words) : "a file of that name is in the way");
            item_say(it, FERRY_MESSAGE_ERROR, text);
            return false;
        }
        *p = '/';
    }
    return true;
}

/* ---- exporting the items ---- */

/* The addon a folder's ODOL models lie in, looked up once per folder. */
static const ferry_file_source *addon_for(tree *t, const char *folder)
{
    fy_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->addon_count; i++)
        if (strcmp(t->addons[i].folder, folder) == 0) {
            const ferry_file_source *a = t->addons[i].addon;
            fy_mutex_unlock(&t->lock);
            return a;
        }
    fy_mutex_unlock(&t->lock);
    const ferry_file_source *addon = fy_export_addon_of(t->places, folder);
    fy_mutex_lock(&t->lock);
    if (t->addon_count == t->addon_capacity) {
        size_t cap = t->addon_capacity ? 2 * t->addon_capacity : 16;
        addon_cache_entry *grown = realloc(t->addons, cap * sizeof *grown);
        if (grown) {
            t->addons = grown;
            t->addon_capacity = cap;
        }
    }
    char *copy = t->addon_count < t->addon_capacity ? dup_text(folder) : NULL;
    if (copy) t->addons[t->addon_count++] = (addon_cache_entry){copy, addon};
    fy_mutex_unlock(&t->lock);
    return addon;
}

static ferry_result export_item(tree *t, tree_item *it)
{
    ferry_error err;
    fy_error_clear(&err);
    ferry_asset *asset = NULL;
    ferry_export_input in = {0};
    /* The bytes and their format, told once; the object is read by the
     * export (a file that is no model is refused before it is read). */
    ferry_asset_options ao = {.name = it->input, .bytes_only = true, .need = FERRY_CAN_READ};
    ferry_result r;
    if (it->entry) {
        r = ferry_archive_open_entry(t->archive->archive, it->index, &ao, &asset, &err);
        in.source = t->archive->source;
        in.path = it->entry;
        in.prefix = t->archive->prefix;
        in.file = t->in; /* never written over: the archive */
    } else {
        r = ferry_asset_open(it->input, &ao, &asset, &err);
        char dir[TREE_PATH_MAX], up[TREE_PATH_MAX + 4];
        ferry_error ignored; /* without the folder above, no ../Textures: not an error */
        if (r == FERRY_OK && fy_path_folder(it->input, dir, sizeof dir) && fy_path_parent(dir, up, sizeof up)) {
            const ferry_place *folder = ferry_places_folder(t->places, dir, &err);
            if (!folder) r = err.code;
            const ferry_place *above = folder ? ferry_places_folder(t->places, up, &ignored) : NULL;
            in.source = folder ? folder->source : NULL;
            in.parent = above ? above->source : NULL;
            in.path = it->input + fy_path_name_offset(it->input);
            ferry_format f = ferry_asset_format(asset);
            if (f == FERRY_FORMAT_ODOL || f == FERRY_FORMAT_MLOD) in.addon = addon_for(t, dir);
        }
        in.file = it->input;
    }
    if (r != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        ferry_message m = {FERRY_MESSAGE_ERROR, it->input, line, NULL, &err};
        ferry_message_list_add(&it->messages, &m);
        ferry_asset_free(asset);
        return r;
    }
    in.asset = asset;
    in.name = it->input;
    ferry_export_options o = t->o->export;
    o.message = ferry_message_list_add;
    o.user = &it->messages;
    o.report = &it->report;
    r = ferry_export_file(&in, it->output, &o, &err);
    ferry_asset_free(asset);
    return r;
}

static void deliver(tree *t)
{
    while (t->delivered < t->count && t->items[t->delivered].done) {
        tree_item *it = &t->items[t->delivered++];
        if (t->o->item) t->o->item(t->o->item_user, &it->pub);
    }
}

static void worker(void *arg)
{
    tree *t = arg;
    for (;;) {
        fy_mutex_lock(&t->lock);
        size_t i = t->next++;
        fy_mutex_unlock(&t->lock);
        if (i >= t->count) return;
        tree_item *it = &t->items[i];
        ferry_result r = FERRY_ERR_MALFORMED;
        if (it->refused)
            item_say(it, FERRY_MESSAGE_ERROR, it->refused);
        else if (!it->input || !it->output || !it->rel)
            item_say(it, FERRY_MESSAGE_ERROR, "out of memory"), r = FERRY_ERR_NOMEM;
        else if (make_parents(t, it, it->entry != NULL))
            r = export_item(t, it);
        ferry_export_item *p = &it->pub;
        p->index = i;
        p->input = it->input ? it->input : "";
        p->rel = it->rel ? it->rel : "";
        p->output = it->output;
        p->ok = r == FERRY_OK;
        p->result = r == FERRY_OK || r != FERRY_ERR_ARGUMENT ? r : FERRY_ERR_MALFORMED;
        p->messages = it->messages.items;
        p->message_count = it->messages.count;
        p->report = &it->report;
        fy_mutex_lock(&t->lock);
        it->done = true;
        t->finished++;
        if (t->o->progress) t->o->progress(t->o->progress_user, t->finished, t->count, p->rel);
        deliver(t);
        fy_mutex_unlock(&t->lock);
    }
}

/* ---- the report ---- */

typedef struct tree_owned {
    tree_item *items;
    size_t count;
    fy_walk walk;
} tree_owned;

/* Ignoring case, then by bytes: a total order, so that the spelling kept
 * for names equal but for case does not depend on the system's qsort
 * (msvcrt's and glibc's order equal items differently). */
static int cmp_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcasecmp(x, y);
    return c ? c : strcmp(x, y);
}

/* The report's missing_textures: every item written's, each name once. */
static bool gather_missing(ferry_export_tree_report *report)
{
    size_t total = 0;
    for (size_t i = 0; i < report->item_count; i++)
        if (report->items[i].ok) total += report->items[i].report->missing_texture_count;
    if (!total) return true;
    const char **names = malloc(total * sizeof *names);
    if (!names) return false;
    size_t n = 0;
    for (size_t i = 0; i < report->item_count; i++)
        for (size_t k = 0; report->items[i].ok && k < report->items[i].report->missing_texture_count; k++)
            names[n++] = report->items[i].report->missing_textures[k];
    qsort(names, n, sizeof *names, cmp_name);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcasecmp(names[i], names[distinct - 1]) != 0) names[distinct++] = names[i];
    report->missing_textures = names;
    report->missing_texture_count = distinct;
    return true;
}

void ferry_export_tree_report_free(ferry_export_tree_report *report)
{
    if (!report) return;
    tree_owned *own = report->owned;
    if (own) {
        for (size_t i = 0; i < own->count; i++) {
            tree_item *it = &own->items[i];
            ferry_message_list_free(&it->messages);
            ferry_export_report_free(&it->report);
            free(it->input);
            free(it->rel);
            free(it->output);
            free(it->entry);
            free(it->refused);
        }
        free(own->items);
        fy_walk_free(&own->walk);
        free(own);
    }
    free(report->items);
    free(report->skipped);
    free((void *)report->missing_textures);
    memset(report, 0, sizeof *report);
}

static ferry_result fail(const tree *t, ferry_error *err, ferry_result code, const char *file, const char *fmt, ...)
    FY_PRINTF(5, 6);
static ferry_result fail(const tree *t, ferry_error *err, ferry_result code, const char *file, const char *fmt, ...)
{
    char text[2 * TREE_PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fy_error_set(err, code, FERRY_NO_OFFSET, NULL, "%s", text);
    say(t, FERRY_MESSAGE_ERROR, file, NULL, NULL, "%s", text);
    return code;
}

ferry_result ferry_export_tree(const char *in, const char *out_dir, const ferry_export_tree_options *options,
                               ferry_export_tree_report *report, ferry_error *err)
{
    fy_error_clear(err);
    if (report) memset(report, 0, sizeof *report);
    const ferry_export_tree_options none = {0};
    tree t = {0};
    t.o = options ? options : &none;
    t.in = in;
    t.out_dir = out_dir;
    if (!in || !out_dir || !report) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no input, no output folder or no report");
        return FERRY_ERR_ARGUMENT;
    }
    char words[256];
    fy_file_info info;
    int code = fy_path_info(in, true, &info);
    if (code) return fail(&t, err, FERRY_ERR_ARGUMENT, NULL, "%s: %s", in, fy_sys_message(code, words, sizeof words));
    ferry_places *own_places = NULL;
    t.places = t.o->places;
    if (!t.places && !(t.places = own_places = ferry_places_new()))
        return fail(&t, err, FERRY_ERR_NOMEM, NULL, "out of memory");
    ferry_result r = FERRY_OK;
    if (info.kind != FY_KIND_FOLDER) {
        ferry_place_kind kind = FERRY_PLACE_NONE;
        ferry_error ignored;
        (void)ferry_places_kind(in, &kind, &ignored);
        char names[64];
        fy_archive_format_names(names, sizeof names);
        if (kind != FERRY_PLACE_ARCHIVE) {
            r = fail(&t, err, FERRY_ERR_ARGUMENT, NULL, "%s is neither a folder nor an archive (%s)", in, names);
        } else if (!(t.archive = ferry_places_open(t.places, in, err))) {
            if (err && err->code == FERRY_ERR_ARGUMENT) err->code = FERRY_ERR_MALFORMED;
            char line[512];
            ferry_error_format(err, line, sizeof line);
            say(&t, FERRY_MESSAGE_ERROR, in, NULL, err, "%s", line);
            r = err ? err->code : FERRY_ERR_MALFORMED;
        }
    }
    if (r == FERRY_OK) {
        code = fy_folder_make(out_dir);
        if (code && !fy_sys_exists(code))
            r = fail(&t, err, FERRY_ERR_IO, NULL, "cannot create %s: %s", out_dir, fy_sys_message(code, words, sizeof words));
        else if (fy_path_info(out_dir, true, &info) != 0 || info.kind != FY_KIND_FOLDER)
            r = fail(&t, err, FERRY_ERR_ARGUMENT, NULL, "%s exists and is not a folder", out_dir);
    }
    tree_owned *own = r == FERRY_OK ? calloc(1, sizeof *own) : NULL;
    if (r == FERRY_OK && (!own || fy_mutex_init(&t.lock) != 0)) {
        free(own);
        own = NULL;
        r = fail(&t, err, FERRY_ERR_NOMEM, NULL, "out of memory");
    }
    if (r != FERRY_OK) {
        ferry_places_free(own_places);
        return r;
    }
    report->owned = own;
    report->stale_removed = clean_stale(out_dir, 0);
    if (report->stale_removed)
        say(&t, FERRY_MESSAGE_NOTE, NULL, FERRY_TREE_STALE_REMOVED,
            NULL, "removed %zu temporar%s left in %s by ferry processes that no longer run", report->stale_removed,
            report->stale_removed == 1 ? "y" : "ies", out_dir);
    own->walk.visit = visit;
    own->walk.ctx = &t;
    own->walk.message = t.o->export.message;
    own->walk.user = t.o->export.user;
    if (t.archive)
        collect_archive(&t);
    else
        fy_walk_run(&own->walk, in);
    if (t.count) qsort(t.items, t.count, sizeof *t.items, cmp_item);
    refuse_case_collisions(&t);
    own->items = t.items;
    own->count = t.count;

    if (t.o->progress) t.o->progress(t.o->progress_user, 0, t.count, NULL);
    size_t jobs = t.o->jobs ? t.o->jobs : (size_t)fy_cpu_count();
    if (jobs > t.count) jobs = t.count ? t.count : 1;
    fy_thread *threads = calloc(jobs, sizeof *threads);
    size_t started = 0;
    for (size_t i = 0; threads && i < jobs; i++)
        if (fy_thread_start(&threads[started], worker, &t) == 0) started++;
    if (!started) worker(&t);
    for (size_t i = 0; i < started; i++) fy_thread_join(&threads[i]);
    free(threads);

    report->items = t.count ? calloc(t.count, sizeof *report->items) : NULL;
    if (report->items) report->item_count = t.count;
    for (size_t i = 0; i < t.count; i++) {
        const tree_item *it = &t.items[i];
        if (report->items) report->items[i] = it->pub;
        if (it->pub.ok) {
            report->converted++;
            report->animations += it->report.animations;
            report->images += it->report.images;
        } else {
            report->failed++;
        }
        report->warnings += it->report.warnings;
    }
    const fy_walk *w = &own->walk;
    report->skipped = w->skipped_count ? calloc(w->skipped_count, sizeof *report->skipped) : NULL;
    for (size_t i = 0; report->skipped && i < w->skipped_count; i++) {
        report->skipped[i].path = w->skipped[i].path ? w->skipped[i].path : "?";
        report->skipped[i].reason = w->skipped[i].reason ? w->skipped[i].reason : "?";
        report->skipped[i].failed = w->skipped[i].failed;
        report->skipped_count++;
    }
    report->failed_folders = w->failed;
    if (!gather_missing(report)) t.nomem = true;
    for (size_t i = 0; i < t.addon_count; i++) free(t.addons[i].folder);
    free(t.addons);
    fy_mutex_destroy(&t.lock);
    ferry_places_free(own_places);
    if (t.nomem || w->nomem) return fail(&t, err, FERRY_ERR_NOMEM, NULL, "out of memory");
    return FERRY_OK;
}
