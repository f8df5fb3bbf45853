/* The bounds-checked cursor: every read of file bytes goes through here. */
#include "core.h"

#include <stdio.h>

static void vfail_at(fy_cursor *c, size_t offset, ferry_result code, const char *fmt, va_list ap)
{
    if (c->failed) return;
    c->failed = true;
    fy_error_setv(c->err, code, offset, c->path, fmt, ap);
}

void fy_fail_at(fy_cursor *c, size_t offset, ferry_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(c, offset, code, fmt, ap);
    va_end(ap);
}

void fy_fail(fy_cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(c, c->pos, FERRY_ERR_MALFORMED, fmt, ap);
    va_end(ap);
}

bool fy_need(fy_cursor *c, size_t n, const char *what)
{
    if (c->failed) return false;
    if (n <= c->end - c->pos) return true;
    fy_fail_at(c, c->pos, FERRY_ERR_TRUNCATED, "expected %zu bytes for %s, only %zu remain", n,
               what ? what : "data", c->end - c->pos);
    return false;
}

const uint8_t *fy_array(fy_cursor *c, uint64_t count, size_t elem_size, const char *what)
{
    if (c->failed) return NULL;
    size_t remaining = c->end - c->pos;
    if (elem_size && count > remaining / elem_size) {
        fy_fail_at(c, c->pos, FERRY_ERR_TRUNCATED,
                   "count %llu of %s (%zu bytes each) needs more than the %zu bytes that remain",
                   (unsigned long long)count, what ? what : "elements", elem_size, remaining);
        return NULL;
    }
    return fy_bytes(c, (size_t)count * elem_size, what);
}

const char *fy_cstring(fy_cursor *c, size_t *len, const char *what)
{
    if (c->failed) return NULL;
    const uint8_t *start = c->base + c->pos;
    const uint8_t *nul = memchr(start, 0, c->end - c->pos);
    if (!nul) {
        fy_fail(c, "unterminated string for %s: no NUL byte in the %zu bytes that remain",
                what ? what : "text", c->end - c->pos);
        return NULL;
    }
    *len = (size_t)(nul - start);
    c->pos += *len + 1;
    return (const char *)start;
}
