/* Whole-file loading, atomic writing, mapping: the library's rules for
 * files, over the platform layer (platform.h). */
#include "core.h"
#include "platform.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void fy_error_sys(ferry_error *err, uint64_t offset, int code, const char *fmt, ...)
{
    if (!err || err->code != FERRY_OK) return;
    char text[sizeof err->message], words[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fy_error_set(err, FERRY_ERR_IO, offset, NULL, "%s: %s", text, fy_sys_message(code, words, sizeof words));
}

const char *fy_file_kind_name(fy_file_kind kind)
{
    switch (kind) {
    case FY_KIND_FOLDER: return "a folder";
    case FY_KIND_FIFO: return "a FIFO (named pipe)";
    case FY_KIND_CHAR_DEVICE: return "a character device";
    case FY_KIND_BLOCK_DEVICE: return "a block device";
    case FY_KIND_SOCKET: return "a socket";
    default: return "not a regular file";
    }
}

/* Opens a regular file for reading without ever blocking (a FIFO or a
 * device is never opened: fy_file_open_read). Returns false with `err` set. */
static bool open_regular(const char *path, fy_file *f, fy_file_info *info, ferry_error *err)
{
    int code = fy_file_open_read(path, f, info);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot open %s", path);
        return false;
    }
    if (f->handle == -1) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s is %s, not a regular file: not read", path,
                     fy_file_kind_name(info->kind));
        return false;
    }
    return true;
}

static bool read_fully(fy_file f, uint8_t *buf, size_t n, size_t *got, const char *path, bool exact, ferry_error *err)
{
    int code = fy_file_read(f, buf, n, got);
    if (code) {
        fy_error_sys(err, *got, code, "cannot read %s", path);
        return false;
    }
    if (exact && *got < n) {
        fy_error_set(err, FERRY_ERR_IO, *got, NULL, "cannot read %s: file shrank while reading", path);
        return false;
    }
    return true;
}

/* The n bytes of the regular file open at f into malloc'd memory; closes
 * f (ferry_file_load, and ferry_file_map where mapping fails). */
static ferry_result read_whole(fy_file f, const char *path, size_t n, uint8_t **data, ferry_error *err)
{
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory reading %s", path);
        fy_file_close(f);
        return FERRY_ERR_NOMEM;
    }
    size_t got;
    if (!read_fully(f, buf, n, &got, path, true, err)) {
        free(buf);
        fy_file_close(f);
        return FERRY_ERR_IO;
    }
    fy_file_close(f);
    *data = buf;
    return FERRY_OK;
}

/* Opens a regular file of at most max_size bytes (0: no limit): *f and
 * its size *n. */
static ferry_result open_sized(const char *path, size_t max_size, fy_file *f, size_t *n, ferry_error *err)
{
    fy_file_info info;
    if (!open_regular(path, f, &info, err)) return FERRY_ERR_IO;
    if ((max_size && info.size > max_size) || info.size > SIZE_MAX - 1) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "%s is %lld bytes, over the limit of %zu",
                     path, (long long)info.size, max_size);
        fy_file_close(*f);
        return FERRY_ERR_LIMIT;
    }
    *n = (size_t)info.size;
    return FERRY_OK;
}

ferry_result ferry_file_load(const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    fy_error_clear(err);
    *data = NULL;
    *size = 0;
    size_t n;
    fy_file f;
    ferry_result r = open_sized(path, max_size, &f, &n, err);
    if (r != FERRY_OK) return r;
    r = read_whole(f, path, n, data, err);
    if (r == FERRY_OK) *size = n;
    return r;
}

ferry_result ferry_file_read_head(const char *path, void *buf, size_t capacity, size_t *got, uint64_t *file_size,
                                  ferry_error *err)
{
    fy_error_clear(err);
    *got = 0;
    if (file_size) *file_size = 0;
    fy_file f;
    fy_file_info info;
    if (!open_regular(path, &f, &info, err)) return FERRY_ERR_IO;
    if (file_size) *file_size = info.size;
    bool ok = read_fully(f, buf, capacity, got, path, false, err);
    fy_file_close(f);
    return ok ? FERRY_OK : FERRY_ERR_IO;
}

void ferry_file_free(uint8_t *data) { free(data); }

ferry_result fy_file_check_target(const char *path, const ferry_write_options *options, ferry_error *err)
{
    const char *input_path = options ? options->protect_input : NULL;
    if (input_path && fy_same_file(path, input_path)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "refusing to overwrite the input file %s", input_path);
        return FERRY_ERR_ARGUMENT;
    }
    return FERRY_OK;
}

/* The temporary's name: TARGET.ferry-tmp-PID-XXXXXX (see ferry.h). */
#define TMP_TAG ".ferry-tmp-"

struct ferry_file_writer {
    fy_file file;
    char *tmp;
    char *path;
    bool sync;
    bool failed;
    uint64_t written;
    fy_bytes_fn observe; /* fy_file_writer_observe's */
    void *observe_user;
};

void fy_file_writer_observe(ferry_file_writer *w, fy_bytes_fn fn, void *user)
{
    w->observe = fn;
    w->observe_user = user;
}

bool fy_file_check_readable(const char *path, ferry_error *err)
{
    fy_file f;
    fy_file_info info;
    if (!open_regular(path, &f, &info, err)) return false;
    fy_file_close(f);
    return true;
}

ferry_result ferry_file_writer_open(const char *path, const ferry_write_options *options, ferry_file_writer **out,
                                    ferry_error *err)
{
    fy_error_clear(err);
    *out = NULL;
    ferry_result r = fy_file_check_target(path, options, err);
    if (r != FERRY_OK) return r;
    ferry_file_writer *w = calloc(1, sizeof *w);
    size_t len = strlen(path);
    size_t cap = len + sizeof TMP_TAG + 32;
    char *tmp = malloc(cap);
    char *copy = malloc(len + 1);
    if (!w || !tmp || !copy) {
        free(w), free(tmp), free(copy);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    memcpy(copy, path, len + 1);
    /* A unique name in the target's folder, so that the rename stays on one
     * file system and concurrent writers never collide; the process id lets
     * a later run prove a leftover is stale. */
    snprintf(tmp, cap, "%s" TMP_TAG "%ld-XXXXXX", path, fy_process_id());
    int code = fy_file_create_unique(tmp, &w->file);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot create a temporary file beside %s", path);
        free(w), free(tmp), free(copy);
        return FERRY_ERR_IO;
    }
    w->tmp = tmp;
    w->path = copy;
    w->sync = !options || !options->no_sync;
    *out = w;
    return FERRY_OK;
}

static ferry_result writer_fail(ferry_file_writer *w, int code, ferry_error *err)
{
    w->failed = true;
    fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot write %s", w->path);
    return FERRY_ERR_IO;
}

ferry_result ferry_file_writer_write(ferry_file_writer *w, const void *data, size_t size, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (w->failed) return writer_fail(w, FY_SYS_IO_ERROR, err);
    size_t written;
    int code = fy_file_write(w->file, data, size, &written);
    w->written += written;
    if (code) return writer_fail(w, code, err);
    if (w->observe) w->observe(w->observe_user, data, size);
    return FERRY_OK;
}

uint64_t ferry_file_writer_size(const ferry_file_writer *w) { return w ? w->written : 0; }

ferry_result ferry_file_writer_append_file(ferry_file_writer *w, const char *path, uint64_t size, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (w->failed) return writer_fail(w, FY_SYS_IO_ERROR, err);
    fy_file f;
    fy_file_info info;
    bool opened = open_regular(path, &f, &info, err);
    w->failed = !opened || info.size != size; /* the output would lack its bytes */
    if (!opened) return FERRY_ERR_IO;
    if (info.size != size) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s has %lld bytes, not the %llu it had when listed",
                     path, (long long)info.size, (unsigned long long)size);
        fy_file_close(f);
        return FERRY_ERR_IO;
    }
    /* Inside the kernel where the system can; through memory otherwise and
     * for whatever that left. */
    uint64_t left = size, copied = 0;
    int code = w->observe ? 0 : fy_file_copy_range(f, w->file, left, &copied);
    left -= copied;
    w->written += copied;
    if (code) {
        fy_file_close(f);
        return writer_fail(w, code, err);
    }
    if (left) {
        enum { BUF = 1 << 20 };
        uint8_t *buf = malloc(BUF);
        if (!buf) {
            fy_file_close(f);
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
            return FERRY_ERR_NOMEM;
        }
        while (left) {
            size_t want = left < BUF ? (size_t)left : BUF, n;
            if ((code = fy_file_read(f, buf, want, &n)) != 0) {
                w->failed = true;
                fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot read %s", path);
                free(buf);
                fy_file_close(f);
                return FERRY_ERR_IO;
            }
            if (n == 0) break;
            if (ferry_file_writer_write(w, buf, n, err) != FERRY_OK) {
                free(buf);
                fy_file_close(f);
                return FERRY_ERR_IO;
            }
            left -= (uint64_t)n;
            if (n < want) break; /* the end of the file */
        }
        free(buf);
    }
    fy_file_close(f);
    if (left) {
        w->failed = true;
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s ended %llu bytes before the %llu it had when listed",
                     path, (unsigned long long)left, (unsigned long long)size);
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

/* Gives the temporary its mode, flushes and closes it; returns its name
 * (the caller's to free) or NULL with the temporary removed. */
static char *writer_finish(ferry_file_writer *w, ferry_error *err)
{
    bool ok = !w->failed;
    int saved = ok ? 0 : FY_SYS_IO_ERROR, code = 0;
    if (ok && (code = fy_file_set_default_mode(w->file)) != 0) ok = false;
    if (ok && w->sync && (code = fy_file_flush(w->file)) != 0) ok = false;
    if (!ok && !saved) saved = code;
    if ((code = fy_file_close(w->file)) != 0 && ok) {
        ok = false;
        saved = code;
    }
    char *tmp = w->tmp;
    if (!ok) {
        fy_file_remove(tmp);
        fy_error_sys(err, FERRY_NO_OFFSET, saved, "cannot write %s", w->path);
        free(tmp);
        tmp = NULL;
    }
    free(w->path);
    free(w);
    return tmp;
}

ferry_result ferry_file_writer_commit(ferry_file_writer *w, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!w) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no writer");
        return FERRY_ERR_ARGUMENT;
    }
    if (w->failed) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: an earlier write failed", w->path);
    }
    size_t length = strlen(w->path) + 1;
    char *path = malloc(length);
    if (path) memcpy(path, w->path, length);
    char *tmp = writer_finish(w, err);
    ferry_result r = FERRY_ERR_IO;
    if (tmp && path) r = fy_file_commit(tmp, path, err);
    else if (tmp) fy_file_remove(tmp);
    free(tmp);
    free(path);
    return r;
}

void ferry_file_writer_abort(ferry_file_writer *w)
{
    if (!w) return;
    w->failed = true;
    free(writer_finish(w, NULL));
}

ferry_result fy_file_stage(const char *path, const void *data, size_t size, const ferry_write_options *options,
                           char **tmp_out, ferry_error *err)
{
    *tmp_out = NULL;
    ferry_file_writer *w;
    ferry_result r = ferry_file_writer_open(path, options, &w, err);
    if (r != FERRY_OK) return r;
    if (ferry_file_writer_write(w, data, size, err) != FERRY_OK) {
        ferry_file_writer_abort(w);
        return FERRY_ERR_IO;
    }
    char *tmp = writer_finish(w, err);
    if (!tmp) return FERRY_ERR_IO;
    *tmp_out = tmp;
    return FERRY_OK;
}

ferry_result fy_file_commit(const char *tmp, const char *path, ferry_error *err)
{
    int code = fy_file_replace(tmp, path);
    if (code) {
        fy_file_remove(tmp);
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot write %s", path);
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

ferry_result ferry_file_write(const char *path, const void *data, size_t size, const ferry_write_options *options,
                              ferry_error *err)
{
    fy_error_clear(err);
    char *tmp;
    ferry_result r = fy_file_stage(path, data, size, options, &tmp, err);
    if (r != FERRY_OK) return r;
    r = fy_file_commit(tmp, path, err);
    free(tmp);
    return r;
}

/* ---- mapping ---- */

ferry_result ferry_file_map(const char *path, size_t max_size, ferry_file_mapping *map, ferry_error *err)
{
    fy_error_clear(err);
    memset(map, 0, sizeof *map);
    size_t n;
    fy_file f;
    ferry_result r = open_sized(path, max_size, &f, &n, err);
    if (r != FERRY_OK) return r;
    void *p;
    if (n && fy_map(f, n, &p) == 0) {
        fy_file_close(f);
        map->data = p;
        map->size = n;
        map->mapped = true;
        map->base = p;
        return FERRY_OK;
    }
    /* Empty, or a file system that cannot map: read it. */
    uint8_t *buf;
    if ((r = read_whole(f, path, n, &buf, err)) != FERRY_OK) return r;
    map->data = buf;
    map->size = n;
    map->base = buf;
    return FERRY_OK;
}

void ferry_file_map_drop(const ferry_file_mapping *map, uint64_t offset, uint64_t size)
{
    if (!map || !map->mapped || offset >= map->size) return;
    if (size > map->size - offset) size = map->size - offset;
    uint64_t page = fy_page_size();
    /* Every page the range touches, a neighbour's share included: the
     * mapping is read-only, so a dropped page is only read again from the
     * file (or the page cache) when next used. */
    uint64_t lo = offset / page * page, hi = (offset + size + page - 1) / page * page;
    if (hi <= lo) return;
    fy_map_drop((uint8_t *)map->base + lo, (size_t)(hi - lo));
}

void ferry_file_unmap(ferry_file_mapping *map)
{
    if (!map) return;
    if (map->mapped)
        fy_unmap(map->base, map->size);
    else
        free(map->base);
    memset(map, 0, sizeof *map);
}

/* True when `name` is TARGET.ferry-tmp-PID-XXXXXX; sets *pid. */
static bool temp_name_pid(const char *name, long long *pid)
{
    const char *tag = NULL;
    for (const char *p = strstr(name, TMP_TAG); p; p = strstr(p + 1, TMP_TAG)) tag = p;
    if (!tag || tag == name) return false;
    const char *p = tag + strlen(TMP_TAG);
    long long value = 0; /* 12 digits: more than a 32-bit long (Windows) holds */
    size_t digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 12) {
        value = value * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits || value <= 0 || *p != '-') return false;
    p++;
    if (strlen(p) != 6) return false;
    for (; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) return false;
    *pid = value;
    return true;
}

ferry_result ferry_file_remove_stale_temporaries(const char *dir, size_t *removed, ferry_error *err)
{
    fy_error_clear(err);
    if (removed) *removed = 0;
    fy_folder *d;
    int code = fy_folder_open(dir, &d);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot read the folder %s", dir);
        return FERRY_ERR_IO;
    }
    const char *name;
    fy_file_kind kind;
    long self = fy_process_id();
    while (fy_folder_next(d, &name, &kind)) {
        long long pid;
        if (!temp_name_pid(name, &pid)) continue;
        fy_file_info info;
        if (fy_folder_entry_info(d, name, false, &info) != 0) continue;
        /* Ours: a regular file of this user whose writer no longer runs. */
        if (info.kind != FY_KIND_REGULAR || !fy_folder_entry_is_mine(d, name)) continue;
        if (pid == self || fy_process_may_run(pid)) continue;
        if (fy_folder_entry_remove(d, name) == 0 && removed) (*removed)++;
    }
    fy_folder_close(d);
    return FERRY_OK;
}
