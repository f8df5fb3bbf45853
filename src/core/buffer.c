/* Growable output buffer for writers. */
#include "core.h"

#include "platform.h"

#include <stdlib.h>

char *fy_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

char *fy_path_stem(const char *path, bool backslash)
{
    /* Folders end where the system's paths say ('/', and on Windows '\\'
     * too: in\\odol\\box.p3d is named box there); `backslash`: '\\' ends
     * a folder on every system. */
    const char *base = path + fy_path_name_offset(path);
    for (const char *p = base; backslash && *p; p++)
        if (*p == '\\') base = p + 1;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, base, len);
        out[len] = 0;
    }
    return out;
}

bool fy_buf_reserve(ferry_buffer *b, size_t extra)
{
    if (b->failed) return false;
    if (extra <= b->capacity - b->size) return true;
    if (extra > SIZE_MAX / 2 - b->size) {
        b->failed = true;
        return false;
    }
    size_t cap = b->capacity ? b->capacity : 256;
    while (cap - b->size < extra) cap *= 2;
    uint8_t *data = realloc(b->data, cap);
    if (!data) {
        b->failed = true;
        return false;
    }
    b->data = data;
    b->capacity = cap;
    return true;
}

void fy_buf_append(ferry_buffer *b, const void *data, size_t n)
{
    if (!n || !fy_buf_reserve(b, n)) return;
    memcpy(b->data + b->size, data, n);
    b->size += n;
}

void fy_buf_zeros(ferry_buffer *b, size_t n)
{
    if (!n || !fy_buf_reserve(b, n)) return;
    memset(b->data + b->size, 0, n);
    b->size += n;
}

void fy_buf_u16le(ferry_buffer *b, uint16_t v)
{
    uint8_t p[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    fy_buf_append(b, p, 2);
}

void fy_buf_u32le(ferry_buffer *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fy_buf_append(b, p, 4);
}

void fy_buf_u16be(ferry_buffer *b, uint16_t v)
{
    uint8_t p[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    fy_buf_append(b, p, 2);
}

void fy_buf_u32be(ferry_buffer *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    fy_buf_append(b, p, 4);
}

void fy_buf_u64be(ferry_buffer *b, uint64_t v)
{
    fy_buf_u32be(b, (uint32_t)(v >> 32));
    fy_buf_u32be(b, (uint32_t)v);
}

void fy_buf_put_u32le_at(ferry_buffer *b, size_t at, uint32_t v)
{
    if (b->failed || at + 4 > b->size) return;
    uint8_t *p = b->data + at;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

bool ferry_buffer_append(ferry_buffer *buf, const void *data, size_t size)
{
    if (!buf || (size && !data)) return false;
    fy_buf_append(buf, data, size);
    return !buf->failed;
}

void ferry_buffer_free(ferry_buffer *buf)
{
    if (!buf) return;
    free(buf->data);
    buf->data = NULL;
    buf->size = buf->capacity = 0;
    buf->failed = false;
}
