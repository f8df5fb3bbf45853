/* Located errors and validation diagnostics; the library's version. */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>

const char *ferry_version(void) { return FERRY_VERSION_STRING; }

const char *ferry_result_name(ferry_result code)
{
    switch (code) {
    case FERRY_OK: return "ok";
    case FERRY_ERR_TRUNCATED: return "truncated";
    case FERRY_ERR_MALFORMED: return "malformed";
    case FERRY_ERR_UNSUPPORTED: return "unsupported";
    case FERRY_ERR_LIMIT: return "limit";
    case FERRY_ERR_NOMEM: return "out of memory";
    case FERRY_ERR_IO: return "i/o";
    case FERRY_ERR_ARGUMENT: return "argument";
    }
    return "unknown";
}

static void copy_path(char *dst, size_t dst_size, const char *path)
{
    if (!path) path = "";
    size_t n = strlen(path);
    if (n >= dst_size) n = dst_size - 1;
    memcpy(dst, path, n);
    dst[n] = '\0';
}

void fy_error_clear(ferry_error *err)
{
    if (!err) return;
    err->code = FERRY_OK;
    err->offset = FERRY_NO_OFFSET;
    err->path[0] = '\0';
    err->message[0] = '\0';
}

void fy_error_set(ferry_error *err, ferry_result code, uint64_t offset, const char *path,
                  const char *fmt, ...)
{
    /* The first error is the one that explains the failure: keep it. */
    if (!err || err->code != FERRY_OK) return;
    err->code = code;
    err->offset = offset;
    copy_path(err->path, sizeof err->path, path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void fy_error_setv(ferry_error *err, ferry_result code, uint64_t offset, const char *path,
                   const char *fmt, va_list ap)
{
    if (!err || err->code != FERRY_OK) return;
    err->code = code;
    err->offset = offset;
    copy_path(err->path, sizeof err->path, path);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

void ferry_error_format(const ferry_error *err, char *out, size_t out_size)
{
    if (!out || out_size == 0) return;
    if (!err) {
        snprintf(out, out_size, "no error");
        return;
    }
    char where[160] = "";
    size_t n = 0;
    if (err->offset != FERRY_NO_OFFSET)
        n += (size_t)snprintf(where, sizeof where, "offset 0x%llx (%llu)",
                              (unsigned long long)err->offset, (unsigned long long)err->offset);
    if (err->path[0] && n < sizeof where)
        /* Alamo places are chunk paths ("0x400/0x401"); other formats name records. */
        n += (size_t)snprintf(where + n, sizeof where - n, "%s%s %s", n ? ", " : "",
                              strncmp(err->path, "0x", 2) == 0 ? "chunk" : "at", err->path);
    if (n)
        snprintf(out, out_size, "%s: %s", where, err->message);
    else
        snprintf(out, out_size, "%s", err->message);
}

void fy_diag_add(ferry_diagnostics *diags, ferry_severity severity, uint64_t offset,
                 const char *path, const char *rule, const char *fmt, ...)
{
    if (!diags) return;
    if (severity == FERRY_SEVERITY_ERROR)
        diags->error_count++;
    else
        diags->warning_count++;
    size_t max_items = diags->max_items ? diags->max_items : 1000;
    if (diags->count >= max_items) {
        diags->dropped++;
        return;
    }
    if (diags->count == diags->capacity) {
        size_t cap = diags->capacity ? diags->capacity * 2 : 16;
        ferry_diagnostic *items = realloc(diags->items, cap * sizeof *items);
        if (!items) {
            diags->dropped++;
            return;
        }
        diags->items = items;
        diags->capacity = cap;
    }
    ferry_diagnostic *d = &diags->items[diags->count++];
    d->severity = severity;
    d->offset = offset;
    copy_path(d->path, sizeof d->path, path);
    copy_path(d->rule, sizeof d->rule, rule);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
}

void ferry_diagnostics_free(ferry_diagnostics *diags)
{
    if (!diags) return;
    free(diags->items);
    diags->items = NULL;
    diags->count = diags->capacity = 0;
}
