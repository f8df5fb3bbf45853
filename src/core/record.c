/* The reader scaffold for binary records (record.h). */
#include "record.h"

#include <stdio.h>

void fy_record_begin(fy_record_reader *r, const uint8_t *data, size_t size, ferry_arena *arena, ferry_error *err)
{
    memset(r, 0, sizeof *r);
    if (!err) {
        err = &r->local_err;
        fy_error_clear(err);
    }
    r->err = err;
    r->arena = arena;
    r->c = fy_cursor_make(data ? data : (const uint8_t *)"", 0, size, err, r->path);
}

void *fy_record_open(fy_record_reader *r, const uint8_t *data, size_t size, const ferry_read_options *options,
                     size_t block_size, size_t model_size, ferry_error *err)
{
    ferry_arena *arena = fy_arena_create_sized(fy_default_memory_limit(options, size), block_size);
    fy_record_begin(r, data, size, arena, err);
    void *model = arena ? ferry_arena_alloc(arena, model_size) : NULL;
    if (!model) {
        ferry_arena_destroy(arena);
        r->arena = NULL;
        fy_error_set(r->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "%s",
                     arena ? "cannot allocate the model" : "cannot create the arena");
    }
    return model;
}

ferry_result fy_record_close(fy_record_reader *r)
{
    if (!r->c.failed) return FERRY_OK;
    ferry_result code = r->err->code != FERRY_OK ? r->err->code : FERRY_ERR_MALFORMED;
    ferry_arena_destroy(r->arena);
    r->arena = NULL;
    return code;
}

static void vappend(fy_record_reader *r, size_t at, const char *fmt, va_list ap)
{
    if (at >= sizeof r->path) at = sizeof r->path - 1;
    vsnprintf(r->path + at, sizeof r->path - at, fmt, ap);
}

void fy_record_path(fy_record_reader *r, const char *fmt, ...)
{
    r->depth = 0;
    va_list ap;
    va_start(ap, fmt);
    vappend(r, 0, fmt, ap);
    va_end(ap);
}

void fy_record_push(fy_record_reader *r, const char *fmt, ...)
{
    size_t len = strlen(r->path);
    if (r->depth < FY_RECORD_DEPTH) r->marks[r->depth] = len;
    r->depth++;
    if (len && len + 1 < sizeof r->path) {
        r->path[len++] = '/';
        r->path[len] = '\0';
    }
    va_list ap;
    va_start(ap, fmt);
    vappend(r, len, fmt, ap);
    va_end(ap);
}

void fy_record_pop(fy_record_reader *r)
{
    if (!r->depth) return;
    r->depth--;
    if (r->depth < FY_RECORD_DEPTH && r->marks[r->depth] < sizeof r->path) r->path[r->marks[r->depth]] = '\0';
}

void fy_record_locate(fy_record_reader *r, const char *fmt, ...)
{
    if (r->located || !r->c.failed) return;
    r->located = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->path, sizeof r->err->path, fmt, ap);
    va_end(ap);
}

void *fy_record_alloc(fy_record_reader *r, uint64_t count, size_t size)
{
    if (r->c.failed || !count || !size) return NULL;
    if (count > SIZE_MAX / size) {
        fy_fail_at(&r->c, r->c.pos, FERRY_ERR_LIMIT, "%llu records do not fit in memory", (unsigned long long)count);
        return NULL;
    }
    void *p = ferry_arena_alloc(r->arena, (size_t)count * size);
    if (!p) {
        r->nomem = true;
        fy_fail_at(&r->c, r->c.pos, FERRY_ERR_LIMIT,
                   "the memory limit (%zu bytes) is reached while reading %llu records of %zu bytes",
                   ferry_arena_limit(r->arena), (unsigned long long)count, size);
    }
    return p;
}

ferry_result fy_record_args(const void *data, size_t size, bool has_out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!has_out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no out pointer");
        return FERRY_ERR_ARGUMENT;
    }
    if (!data && size) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no data");
        return FERRY_ERR_ARGUMENT;
    }
    return FERRY_OK;
}

ferry_result fy_record_head_args(const void *head, size_t head_size, uint64_t whole, bool has_out, bool has_need,
                                 ferry_error *err)
{
    ferry_result r = fy_record_args(head, head_size, has_out, err);
    if (r == FERRY_OK && (!has_need || head_size > whole)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no need pointer, or a head larger than the archive");
        r = FERRY_ERR_ARGUMENT;
    }
    return r;
}

uint64_t fy_record_head_grow(uint64_t want, size_t have, uint64_t whole)
{
    uint64_t n = want > 2 * (uint64_t)have ? want : 2 * (uint64_t)have;
    return n < whole ? n : whole;
}

uint64_t fy_record_remaining(const fy_record_reader *r)
{
    if (r->c.failed) return 0;
    return r->whole > r->c.end ? r->whole - r->c.pos : fy_remaining(&r->c);
}

bool fy_record_room(fy_record_reader *r, size_t at, uint64_t count, size_t min_size, const char *what)
{
    if (r->c.failed) return false;
    uint64_t left = fy_record_remaining(r);
    size_t remaining = left > SIZE_MAX ? SIZE_MAX : (size_t)left;
    if (min_size && count > remaining / min_size) {
        fy_fail_at(&r->c, at, FERRY_ERR_TRUNCATED, "%s %llu needs at least %llu bytes (%zu each), only %zu remain", what,
                   (unsigned long long)count, (unsigned long long)count * min_size, min_size, remaining);
        return false;
    }
    return true;
}
