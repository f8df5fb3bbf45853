/* File sources (include/ferry/ferry.h): the checks every source gets, the
 * case-insensitive lookup built on listing, and the folder source (through
 * the platform layer). */
#include "core.h"
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The longest path a source is asked for (a folder and a name). */
#define SOURCE_PATH_MAX 4096

bool ferry_file_source_path_ok(const char *path)
{
    if (!path) return false;
    if (!*path) return true;
    if (path[0] == '/' || strchr(path, '\\') || strlen(path) >= SOURCE_PATH_MAX) return false;
    const char *p = path;
    for (;;) {
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0) return false; /* "a//b" or a trailing '/' */
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
        if (!end) return true;
        p = end + 1;
    }
}

void ferry_file_source_display(const ferry_file_source *source, const char *path, char *out, size_t out_size)
{
    if (!out_size) return;
    const char *label = source && source->label ? source->label : "";
    if (!*label) snprintf(out, out_size, "%s", path);
    else if (!*path) snprintf(out, out_size, "%s", label);
    else snprintf(out, out_size, "%s/%s", label, path);
}

static ferry_result refuse_path(const ferry_file_source *source, const char *path, ferry_error *err)
{
    char shown[300];
    ferry_file_source_display(source, path ? path : "", shown, sizeof shown);
    fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                 "%s: not a path inside the source (relative, '/'-separated, no '.' or '..')", shown);
    return FERRY_ERR_ARGUMENT;
}

ferry_result ferry_file_source_load(const ferry_file_source *source, const char *path, size_t max_size,
                                    uint8_t **data, size_t *size, ferry_error *err)
{
    fy_error_clear(err);
    *data = NULL;
    *size = 0;
    if (!source || !source->load) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no file source to load %s from", path ? path : "");
        return FERRY_ERR_ARGUMENT;
    }
    if (!ferry_file_source_path_ok(path) || !*path) return refuse_path(source, path, err);
    ferry_result r = source->load(source->user, path, max_size, data, size, err);
    if (r == FERRY_OK && max_size && *size > max_size) {
        /* A custom source that ignored the limit: its data is given back. */
        ferry_file_source_release(source, *data, *size);
        *data = NULL;
        char shown[300];
        ferry_file_source_display(source, path, shown, sizeof shown);
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "%s is %zu bytes, over the limit of %zu", shown,
                     *size, max_size);
        *size = 0;
        return FERRY_ERR_LIMIT;
    }
    if (r != FERRY_OK) {
        *data = NULL;
        *size = 0;
    }
    return r;
}

void ferry_file_source_release(const ferry_file_source *source, uint8_t *data, size_t size)
{
    if (source && source->release && data) source->release(source->user, data, size);
}

bool ferry_file_source_disk_path(const ferry_file_source *source, const char *path, char *out, size_t out_size)
{
    if (out && out_size) out[0] = '\0';
    if (!source || !source->disk_path || !out || !out_size || !ferry_file_source_path_ok(path)) return false;
    return source->disk_path(source->user, path, out, out_size);
}

ferry_result ferry_file_source_list(const ferry_file_source *source, const char *path, ferry_entry_fn entry,
                                    void *ctx, ferry_error *err)
{
    fy_error_clear(err);
    if (!source || !source->list || !entry) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "the source cannot list folders");
        return FERRY_ERR_ARGUMENT;
    }
    if (!ferry_file_source_path_ok(path)) return refuse_path(source, path, err);
    return source->list(source->user, path, entry, ctx, err);
}

typedef struct find_ctx {
    const char *name;
    ferry_entry_kind kind;
    char found[512];
    bool hit;
} find_ctx;

static bool find_entry(void *ctx, const char *name, ferry_entry_kind kind)
{
    find_ctx *f = ctx;
    if (kind != f->kind || strcasecmp(name, f->name) != 0 || strlen(name) >= sizeof f->found) return true;
    memcpy(f->found, name, strlen(name) + 1);
    f->hit = true;
    return false;
}

bool ferry_file_source_find(const ferry_file_source *source, const char *folder, const char *name,
                            ferry_entry_kind kind, char *out, size_t out_size)
{
    if (!name || !*name || strchr(name, '/') || !out || !out_size) return false;
    find_ctx f = {name, kind, "", false};
    ferry_error e;
    bool found;
    if (fy_file_source_cached_find(source, folder ? folder : "", name, kind, f.found, sizeof f.found, &found)) {
        if (!found) return false; /* a cached source: its index, not a walk */
    } else if (ferry_file_source_list(source, folder ? folder : "", find_entry, &f, &e) != FERRY_OK || !f.hit) {
        return false;
    }
    int n = folder && *folder ? snprintf(out, out_size, "%s/%s", folder, f.found) : snprintf(out, out_size, "%s", f.found);
    return n > 0 && (size_t)n < out_size;
}

void ferry_file_source_close(ferry_file_source *source)
{
    if (!source) return;
    if (source->close) source->close(source->user);
    memset(source, 0, sizeof *source);
}

/* ---- the folder source ---- */

typedef struct folder_source {
    size_t length;
    char root[]; /* as given, also the label */
} folder_source;

/* root/path into out; false when it does not fit. The root is any path of
 * the system (on Windows: a drive, '\\', UNC); path is '/'-separated. */
static bool join(const folder_source *f, const char *path, char *out, size_t out_size)
{
    if (!ferry_file_source_path_ok(path)) return false; /* never outside the root */
    int n = *path ? fy_path_join(out, out_size, f->root, path) : snprintf(out, out_size, "%s", f->root);
    return n > 0 && (size_t)n < out_size;
}

static ferry_result folder_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                                ferry_error *err)
{
    char full[SOURCE_PATH_MAX * 2];
    if (!join(user, path, full, sizeof full)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "not a path inside the folder: %.200s", path);
        return FERRY_ERR_ARGUMENT;
    }
    return ferry_file_load(full, max_size, data, size, err);
}

static void folder_release(void *user, uint8_t *data, size_t size)
{
    (void)user, (void)size;
    ferry_file_free(data);
}

static ferry_result folder_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    char full[SOURCE_PATH_MAX * 2];
    if (!join(user, path, full, sizeof full)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "not a path inside the folder: %.200s", path);
        return FERRY_ERR_ARGUMENT;
    }
    fy_folder *d;
    int code = fy_folder_open(full, &d);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot list %s", full);
        return FERRY_ERR_IO;
    }
    const char *name;
    fy_file_kind type;
    while (fy_folder_next(d, &name, &type)) {
        /* The entry's type when the folder gives it (no system call per
         * entry: a folder of thousands of models is listed per lookup);
         * links and unknown types are followed, as opening the name would. */
        /* Any entry but a folder is listed as a file: a FIFO or device of a
         * name looked up is found, and loading it (ferry_file_load) refuses
         * it naming its kind, rather than the lookup calling it missing. */
        if (type == FY_KIND_LINK || type == FY_KIND_UNKNOWN) {
            fy_file_info info;
            if (fy_folder_entry_info(d, name, true, &info) != 0) continue;
            type = info.kind;
        }
        ferry_entry_kind kind = type == FY_KIND_FOLDER ? FERRY_ENTRY_FOLDER : FERRY_ENTRY_FILE;
        if (!entry(ctx, name, kind)) break;
    }
    fy_folder_close(d);
    return FERRY_OK;
}

/* Resolved by the system (links followed, "." and ".." gone): the absolute
 * path a program reading the file later is given. */
static bool folder_disk_path(void *user, const char *path, char *out, size_t out_size)
{
    char full[SOURCE_PATH_MAX * 2];
    char *resolved = NULL;
    if (!join(user, path, full, sizeof full) || fy_path_resolve(full, &resolved) != 0) return false;
    int n = snprintf(out, out_size, "%s", resolved);
    free(resolved);
    return n > 0 && (size_t)n < out_size;
}

static void folder_close(void *user) { free(user); }

ferry_result ferry_file_source_folder(const char *root, ferry_file_source *source, ferry_error *err)
{
    fy_error_clear(err);
    if (!source || !root || !*root) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "a folder source needs a folder");
        return FERRY_ERR_ARGUMENT;
    }
    memset(source, 0, sizeof *source);
    size_t n = strlen(root); /* kept as given: messages show root/path */
    if (n >= SOURCE_PATH_MAX) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "folder path too long");
        return FERRY_ERR_ARGUMENT;
    }
    folder_source *f = malloc(sizeof *f + n + 1);
    if (!f) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    f->length = n;
    memcpy(f->root, root, n);
    f->root[n] = '\0';
    source->load = folder_load;
    source->release = folder_release;
    source->list = folder_list;
    source->close = folder_close;
    source->disk_path = folder_disk_path;
    source->user = f;
    source->label = f->root;
    return FERRY_OK;
}

ferry_result ferry_file_source_folder_of(const char *path, ferry_file_source *source, const char **name,
                                         ferry_error *err)
{
    fy_error_clear(err);
    if (name) *name = NULL;
    if (!path || !source) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no source");
        return FERRY_ERR_ARGUMENT;
    }
    char folder[SOURCE_PATH_MAX];
    if (!fy_path_folder(path, folder, sizeof folder)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "folder path too long");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_result r = ferry_file_source_folder(folder, source, err);
    if (r == FERRY_OK && name) *name = path + fy_path_name_offset(path);
    return r;
}
