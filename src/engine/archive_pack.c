/* ferry_archive_pack: a new MEG or PBO archive of a folder's files (or of
 * a list of files), written a piece at a time (archive.h): the tables laid
 * out first from the files' names and sizes (ferry_meg_pack_tables,
 * ferry_pbo_pack_tables), then each file appended from the disk through
 * ferry_file_writer, a PBO's SHA-1 computed as the bytes pass. Memory
 * holds the list of files and the tables, never their bytes. */
#include "archive_internal.h"

#include "../codec/codec.h"
#include "../core/walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pack_file {
    char *path; /* on the disk */
    char *rel;  /* below the folder, '/' between folders: its name in the archive */
    uint64_t size;
    uint32_t timestamp;
    char *name; /* MEG: the stored name */
    size_t name_length;
    bool refused;
} pack_file;

typedef struct pack_job {
    const ferry_pack_options *o;
    ferry_pack_report *report;
    pack_file *items;
    size_t count, capacity;
    fy_file_info out_info; /* OUT as it is now, to be left out of the folder */
    bool out_exists;
    bool nomem;
} pack_job;

/* A file not packed, and why ("not packed: WHY"). */
static void refused(pack_job *j, const char *path, const char *rule, const char *why)
{
    fy_message(j->o->message, j->o->user, FERRY_MESSAGE_ERROR, path, rule, NULL, "not packed: %s", why);
    j->report->refused++;
}

static bool same_file(const fy_file_info *a, const fy_file_info *b)
{
    return a->has_id && b->has_id && a->id.volume == b->id.volume && a->id.index[0] == b->id.index[0] &&
           a->id.index[1] == b->id.index[1];
}

/* A file met (by the walk, or in the list): kept, or refused and named. */
static void visit_file(pack_job *j, const char *path, const char *rel, const fy_file_info *info, int error)
{
    char words[256];
    if (!info) {
        refused(j, path, "file-unreadable", fy_sys_message(error, words, sizeof words));
        return;
    }
    if (info->kind != FY_KIND_REGULAR) {
        refused(j, path, "file-kind", "not a regular file");
        return;
    }
    if (j->out_exists && same_file(info, &j->out_info)) return; /* OUT inside the folder */
    if (j->count == j->capacity) {
        size_t cap = j->capacity ? j->capacity * 2 : 256;
        pack_file *items = realloc(j->items, cap * sizeof *items);
        if (!items) {
            j->nomem = true;
            return;
        }
        j->items = items;
        j->capacity = cap;
    }
    pack_file *f = &j->items[j->count];
    memset(f, 0, sizeof *f);
    f->path = fy_strdup(path);
    f->rel = fy_strdup(rel);
    f->size = info->size;
    f->timestamp = info->modified > 0 && (uint64_t)info->modified <= UINT32_MAX ? (uint32_t)info->modified : 0;
    if (!f->path || !f->rel) {
        free(f->path), free(f->rel);
        j->nomem = true;
        return;
    }
    j->count++;
}

/* An entry of the walk: looked at (its size, time and identity) when it
 * is a regular file, so that OUT is left out and the tables sized. */
static void visit(void *ctx, const char *path, const char *rel, fy_file_kind kind, int error)
{
    pack_job *j = ctx;
    fy_file_info info = {.kind = kind};
    if (!error && kind == FY_KIND_REGULAR) error = fy_path_info(path, true, &info);
    visit_file(j, path, rel, error ? NULL : &info, error);
}

static int fold(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = fold((unsigned char)*a), y = fold((unsigned char)*b);
        if (x != y || !x) return x - y;
    }
}

static int by_name(const void *a, const void *b)
{
    const pack_file *x = a, *y = b;
    size_t n = x->name_length < y->name_length ? x->name_length : y->name_length;
    int d = memcmp(x->name ? x->name : "", y->name ? y->name : "", n);
    if (d) return d;
    return x->name_length < y->name_length ? -1 : x->name_length > y->name_length;
}

static int by_rel_nocase(const void *a, const void *b) { return casecmp(((const pack_file *)a)->rel, ((const pack_file *)b)->rel); }

/* ---- writing: the tables, then each file, then a PBO's trailer ---- */

static void sha1_bytes(void *user, const void *data, size_t size) { fy_sha1_update(user, data, size); }

static ferry_result write_archive(pack_job *j, const char *out, const ferry_buffer *tables, const size_t *which,
                                  const size_t *order, size_t n, bool trailer, ferry_error *err)
{
    ferry_file_writer *w = NULL;
    fy_sha1_ctx sha1;
    ferry_result r = ferry_file_writer_open(out, &j->o->write, &w, err);
    if (r == FERRY_OK && trailer) {
        fy_sha1_init(&sha1);
        fy_file_writer_observe(w, sha1_bytes, &sha1);
    }
    if (r == FERRY_OK) r = ferry_file_writer_write(w, tables->data, tables->size, err);
    if (r != FERRY_OK) {
        j->report->failed_at = FERRY_PACK_OUTPUT;
        ferry_file_writer_abort(w);
        return r;
    }
    if (j->o->progress) j->o->progress(j->o->progress_user, 0, n, NULL);
    for (size_t k = 0; k < n; k++) {
        const pack_file *f = &j->items[which[order[k]]];
        if ((r = ferry_file_writer_append_file(w, f->path, f->size, err)) != FERRY_OK) {
            j->report->failed_at = FERRY_PACK_FILES;
            ferry_file_writer_abort(w);
            return r;
        }
        if (j->o->progress) j->o->progress(j->o->progress_user, k + 1, n, f->rel);
    }
    if (trailer) {
        uint8_t end[1 + FY_SHA1_SIZE] = {0};
        fy_file_writer_observe(w, NULL, NULL);
        fy_sha1_digest(&sha1, end + 1);
        r = ferry_file_writer_write(w, end, sizeof end, err);
    }
    ferry_file_writer *committing = w;
    if (r == FERRY_OK) r = ferry_file_writer_commit(committing, err);
    else ferry_file_writer_abort(committing);
    if (r != FERRY_OK) j->report->failed_at = FERRY_PACK_OUTPUT;
    return r;
}

static ferry_result nomem(pack_job *j, ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    j->report->failed_at = FERRY_PACK_FILES;
    return FERRY_ERR_NOMEM;
}

static ferry_result pack_meg(pack_job *j, const char *out, uint32_t format, ferry_error *err)
{
    /* Stored names; then two files of one name are both refused. */
    for (size_t i = 0; i < j->count; i++) {
        pack_file *f = &j->items[i];
        ferry_error why;
        size_t cap = strlen(f->rel) + 1;
        f->name = malloc(cap);
        if (!f->name || ferry_meg_name_from_path(f->rel, f->name, cap, &f->name_length, &why) != FERRY_OK) {
            refused(j, f->path, "name", f->name ? why.message : "out of memory");
            f->refused = true;
            free(f->name);
            f->name = NULL;
            f->name_length = 0;
        } else {
            f->name[f->name_length] = 0; /* never longer than the path: room for the NUL */
        }
    }
    if (j->count) qsort(j->items, j->count, sizeof *j->items, by_name);
    for (size_t i = 1; i < j->count; i++) {
        pack_file *a = &j->items[i - 1], *b = &j->items[i];
        if (!a->name || !b->name || by_name(a, b) != 0) continue;
        for (pack_file *f = a; f <= b; f++) {
            if (f->refused) continue;
            fy_message(j->o->message, j->o->user, FERRY_MESSAGE_ERROR, f->path, "name-case",
                       NULL, "not packed: another file's name is equal but for case ('%s'): the game would find only one",
                       b->name);
            j->report->refused++;
            f->refused = true;
        }
    }
    size_t n = 0, slots = j->count ? j->count : 1;
    ferry_meg_pack_entry *entries = malloc(slots * sizeof *entries);
    size_t *which = malloc(slots * sizeof *which), *order = malloc(slots * sizeof *order);
    ferry_buffer tables = {0};
    ferry_result r = FERRY_OK;
    if (!entries || !which || !order) r = nomem(j, err);
    for (size_t i = 0; r == FERRY_OK && i < j->count; i++) {
        if (j->items[i].refused) continue;
        entries[n] = (ferry_meg_pack_entry){j->items[i].name, j->items[i].name_length, j->items[i].size};
        which[n++] = i;
        j->report->bytes += j->items[i].size;
    }
    ferry_meg_pack_options po = {format};
    if (r == FERRY_OK && (r = ferry_meg_pack_tables(entries, n, &po, &tables, order, err)) != FERRY_OK)
        j->report->failed_at = FERRY_PACK_FILES;
    if (r == FERRY_OK) r = write_archive(j, out, &tables, which, order, n, false, err);
    if (r == FERRY_OK) j->report->packed = n;
    ferry_buffer_free(&tables);
    free(entries), free(which), free(order);
    return r;
}

static ferry_result pack_pbo(pack_job *j, const char *out, ferry_error *err)
{
    /* Two names the engine cannot tell apart: both refused, as for a MEG. */
    if (j->count) qsort(j->items, j->count, sizeof *j->items, by_rel_nocase);
    for (size_t i = 1; i < j->count; i++) {
        if (casecmp(j->items[i - 1].rel, j->items[i].rel) != 0) continue;
        for (size_t k = i - 1; k <= i; k++) {
            if (j->items[k].refused) continue;
            refused(j, j->items[k].path, "name-case",
                    "another file's name is equal but for case: the game would find only one");
            j->items[k].refused = true;
        }
    }
    size_t n = 0, slots = j->count ? j->count : 1;
    ferry_pbo_pack_file *files = calloc(slots, sizeof *files);
    size_t *which = malloc(slots * sizeof *which), *order = malloc(slots * sizeof *order);
    ferry_buffer tables = {0};
    ferry_result r = FERRY_OK;
    if (!files || !which || !order) r = nomem(j, err);
    for (size_t i = 0; r == FERRY_OK && i < j->count; i++) {
        pack_file *f = &j->items[i];
        if (f->refused) continue;
        /* A file that cannot be read is named and left out now, before
         * the table lists it (afterwards it would stop the whole pack). */
        ferry_error why;
        if (!fy_file_check_readable(f->path, &why)) {
            refused(j, f->path, "file-unreadable", why.message);
            continue;
        }
        /* (A size past SIZE_MAX stays too large: the table refuses it.) */
        files[n] = (ferry_pbo_pack_file){f->rel, NULL, f->size > SIZE_MAX ? SIZE_MAX : (size_t)f->size, f->timestamp};
        which[n++] = i;
        j->report->bytes += f->size;
    }
    ferry_pbo_pack_options po = {j->o->properties, j->o->property_count, j->o->prefix};
    if (r == FERRY_OK && (r = ferry_pbo_pack_tables(files, n, &po, &tables, order, err)) != FERRY_OK)
        j->report->failed_at = FERRY_PACK_FILES;
    if (r == FERRY_OK) r = write_archive(j, out, &tables, which, order, n, true, err);
    if (r == FERRY_OK) j->report->packed = n;
    ferry_buffer_free(&tables);
    free(files), free(which), free(order);
    return r;
}

static ferry_result refuse_arguments(ferry_pack_report *report, ferry_error *err, const char *a, const char *b)
{
    fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s%s", a, b);
    report->failed_at = FERRY_PACK_ARGUMENTS;
    return FERRY_ERR_ARGUMENT;
}

ferry_result ferry_archive_pack(const char *out, const char *folder, const ferry_pack_options *options,
                                ferry_pack_report *report, ferry_error *err)
{
    if (err) fy_error_clear(err);
    ferry_pack_report ignored;
    if (!report) report = &ignored;
    memset(report, 0, sizeof *report);
    const ferry_pack_options o = options ? *options : (ferry_pack_options){0};
    if (!out || (!folder && o.file_count && !o.files))
        return refuse_arguments(report, err, "no output or no files", "");
    ferry_format format = o.format ? o.format : ferry_format_from_name(out);
    if (format != FERRY_FORMAT_MEG && format != FERRY_FORMAT_PBO)
        return refuse_arguments(report, err, out, ": the archive's format is told by its name, .meg or .pbo");
    if (format == FERRY_FORMAT_MEG && (o.prefix || o.property_count))
        return refuse_arguments(report, err, "a prefix and properties are a PBO's; a MEG has none", "");
    if (format == FERRY_FORMAT_PBO && o.meg_format)
        return refuse_arguments(report, err, "a MEG format for a PBO", "");
    if (o.meg_format > 3) return refuse_arguments(report, err, "MEG formats are 1, 2 and 3", "");
    report->format = format;
    report->meg_format = format == FERRY_FORMAT_MEG ? (o.meg_format ? o.meg_format : 1) : 0;
    char words[256];
    fy_file_info info;
    if (folder) {
        int code = fy_path_info(folder, true, &info);
        char text[300];
        if (code) {
            snprintf(text, sizeof text, ": %s", fy_sys_message(code, words, sizeof words));
            return refuse_arguments(report, err, folder, text);
        }
        if (info.kind != FY_KIND_FOLDER) return refuse_arguments(report, err, folder, " is not a folder");
    }
    pack_job j = {&o, report, NULL, 0, 0, {0}, false, false};
    if (fy_path_info(out, true, &j.out_info) == 0) {
        if (j.out_info.kind == FY_KIND_FOLDER) return refuse_arguments(report, err, out, " is a folder");
        j.out_exists = true;
    }
    if (folder) {
        fy_walk walk = {0};
        walk.visit = visit;
        walk.ctx = &j;
        walk.message = o.message;
        walk.user = o.user;
        fy_walk_run(&walk, folder);
        report->refused += walk.failed;
        j.nomem |= walk.nomem;
        fy_walk_free(&walk);
    } else {
        for (size_t i = 0; i < o.file_count; i++) {
            const ferry_pack_file *f = &o.files[i];
            int code = f->path ? fy_path_info(f->path, true, &info) : 0;
            if (!f->path || !f->name) {
                refused(&j, f->path ? f->path : "", "file-unreadable", "no path or no name");
                continue;
            }
            visit_file(&j, f->path, f->name, code ? NULL : &info, code);
        }
    }
    ferry_result r;
    if (j.nomem)
        r = nomem(&j, err);
    else if (format == FERRY_FORMAT_PBO)
        r = pack_pbo(&j, out, err);
    else
        r = pack_meg(&j, out, report->meg_format, err);
    for (size_t i = 0; i < j.count; i++) {
        free(j.items[i].path);
        free(j.items[i].rel);
        free(j.items[i].name);
    }
    free(j.items);
    return r;
}
