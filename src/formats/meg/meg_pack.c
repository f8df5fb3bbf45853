/* MEG packing: stored names from file paths, and the header and tables of
 * a new archive laid out as the game's tools write them
 * (docs/formats/meg.md, "Packing"). The entries' bytes are the caller's to
 * append, so that packing never holds them in memory. */
#include <ferry/meg.h>

#include "../../core/core.h"
#include "meg_internal.h"

#include <stdlib.h>
#include <string.h>

/* Decodes one UTF-8 sequence at p (n bytes left): the code point, or -1
 * when the bytes are not well-formed UTF-8. *used gets its length. */
static long utf8_next(const unsigned char *p, size_t n, size_t *used)
{
    unsigned char c = p[0];
    *used = 1;
    if (c < 0x80) return c;
    size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (!len || len > n || (c >= 0xF0 && c > 0xF4)) return -1;
    long cp = c & (0x3F >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return -1;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    static const long min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
    *used = len;
    return cp;
}

static bool utf8_valid(const unsigned char *p, size_t n)
{
    for (size_t i = 0, used; i < n; i += used)
        if (utf8_next(p + i, n - i, &used) < 0) return false;
    return true;
}

ferry_result ferry_meg_name_from_path(const char *path, char *out, size_t capacity, size_t *length, ferry_error *err)
{
    if (err) fy_error_clear(err);
    *length = 0;
    if (!path || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no output");
        return FERRY_ERR_ARGUMENT;
    }
    const unsigned char *p = (const unsigned char *)path;
    size_t n = strlen(path);
#define REFUSE(code, ...)                                                                                            \
    do {                                                                                                             \
        fy_error_set(err, code, FERRY_NO_OFFSET, NULL, __VA_ARGS__);                                                 \
        return code;                                                                                                 \
    } while (0)
    if (!n) REFUSE(FERRY_ERR_ARGUMENT, "the name is empty");
    if (p[0] == '/') REFUSE(FERRY_ERR_ARGUMENT, "'%s' is an absolute path", path);
    for (size_t s = 0;;) {
        const char *end = strchr(path + s, '/');
        size_t len = end ? (size_t)(end - (path + s)) : n - s;
        if (len == 0 || (len == 1 && path[s] == '.') || (len == 2 && path[s] == '.' && path[s + 1] == '.'))
            REFUSE(FERRY_ERR_ARGUMENT, "'%s' has an empty, '.' or '..' segment", path);
        if (memchr(path + s, '\\', len))
            REFUSE(FERRY_ERR_ARGUMENT, "'%s' holds a backslash, which the archive reads as a folder separator", path);
        if (!end) break;
        s += len + 1;
    }
    bool utf8 = utf8_valid(p, n);
    size_t k = 0;
    for (size_t i = 0, used; i < n; i += used) {
        long c;
        if (utf8) {
            c = utf8_next(p + i, n - i, &used);
            if (c > 0xFF)
                REFUSE(FERRY_ERR_UNSUPPORTED,
                       "'%s' holds U+%04lX, which a MEG name cannot store (one byte a character: Latin-1, up to U+00FF)",
                       path, (unsigned long)c);
        } else {
            c = p[i];
            used = 1;
        }
        if (k >= capacity) REFUSE(FERRY_ERR_ARGUMENT, "the output holds %zu bytes, too few for '%s'", capacity, path);
        if (c >= 'a' && c <= 'z') c -= 32;
        if (c == '/') c = '\\';
        out[k++] = (char)c;
    }
    if (k > FERRY_MEG_NAME_MAX)
        REFUSE(FERRY_ERR_ARGUMENT, "'%.64s...' has %zu bytes, more than the %u a MEG name can store", path, k,
               FERRY_MEG_NAME_MAX);
    if (k >= 2 && out[1] == ':')
        REFUSE(FERRY_ERR_ARGUMENT, "'%s' would read as a drive letter (%c:)", path, out[0]);
#undef REFUSE
    *length = k;
    return FERRY_OK;
}

typedef struct pack_ctx {
    const ferry_meg_pack_entry *e;
    const uint32_t *crc;
} pack_ctx;

/* By CRC-32, then by the name bytes (unsigned), then shorter first. */
static int by_crc(const void *ctx, uint32_t a, uint32_t b)
{
    const pack_ctx *c = ctx;
    if (c->crc[a] != c->crc[b]) return c->crc[a] < c->crc[b] ? -1 : 1;
    const ferry_meg_pack_entry *x = &c->e[a], *y = &c->e[b];
    size_t n = x->name_length < y->name_length ? x->name_length : y->name_length;
    int d = memcmp(x->name, y->name, n);
    if (d) return d;
    return x->name_length < y->name_length ? -1 : x->name_length > y->name_length;
}

/* By name as the game compares names (ASCII case and slashes ignored). */
static int by_name(const void *ctx, uint32_t a, uint32_t b)
{
    const pack_ctx *c = ctx;
    const ferry_meg_pack_entry *x = &c->e[a], *y = &c->e[b];
    return fy_meg_name_cmp(x->name, x->name_length, y->name, y->name_length);
}

ferry_result ferry_meg_pack_tables(const ferry_meg_pack_entry *entries, size_t count,
                                   const ferry_meg_pack_options *options, ferry_buffer *tables, size_t *order,
                                   ferry_error *err)
{
    if (err) fy_error_clear(err);
    uint32_t format = options && options->format ? options->format : 1;
    if (!tables || (count && (!entries || !order))) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no entries, buffer or order");
        return FERRY_ERR_ARGUMENT;
    }
    if (format > 3) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "format %u: MEG formats are 1, 2 and 3",
                     (unsigned)format);
        return FERRY_ERR_ARGUMENT;
    }
    if (count > UINT32_MAX || (format == 3 && count > 65535)) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL,
                     "%zu entries: a format %u archive holds at most %lu", count, (unsigned)format,
                     format == 3 ? 65535ul : (unsigned long)UINT32_MAX);
        return FERRY_ERR_LIMIT;
    }
    uint64_t names_bytes = 0;
    for (size_t i = 0; i < count; i++) {
        const ferry_meg_pack_entry *e = &entries[i];
        if (!e->name || !e->name_length || e->name_length > FERRY_MEG_NAME_MAX) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "entries[%zu]: a name of %zu bytes (a MEG name has 1 to %u)", i, e->name_length,
                         FERRY_MEG_NAME_MAX);
            return FERRY_ERR_ARGUMENT;
        }
        if (e->size > UINT32_MAX) {
            fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL,
                         "entries[%zu] '%.*s': %llu bytes, more than the 4 GiB - 1 a MEG entry can hold", i,
                         (int)(e->name_length > 200 ? 200 : e->name_length), e->name, (unsigned long long)e->size);
            return FERRY_ERR_LIMIT;
        }
        names_bytes += 2 + e->name_length;
    }
    size_t n = count;
    uint32_t *crc = malloc((n ? n : 1) * sizeof *crc);
    uint32_t *v = malloc((n ? n : 1) * 2 * sizeof *v);
    if (!crc || !v) {
        free(crc), free(v);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory laying out %zu entries", n);
        return FERRY_ERR_NOMEM;
    }
    pack_ctx ctx = {entries, crc};
    for (size_t i = 0; i < n; i++) {
        crc[i] = ferry_meg_crc32(entries[i].name, entries[i].name_length);
        v[i] = (uint32_t)i;
    }
    /* Two names the game cannot tell apart. */
    fy_meg_sort(v, v + n, n, by_name, &ctx);
    for (size_t i = 1; i < n; i++)
        if (by_name(&ctx, v[i - 1], v[i]) == 0) {
            uint32_t a = v[i - 1] < v[i] ? v[i - 1] : v[i], b = v[i - 1] < v[i] ? v[i] : v[i - 1];
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "entries[%u] and entries[%u] have names equal but for case or slashes ('%.*s'): the game "
                         "would find only one",
                         (unsigned)a, (unsigned)b, (int)(entries[b].name_length > 200 ? 200 : entries[b].name_length),
                         entries[b].name);
            free(crc), free(v);
            return FERRY_ERR_ARGUMENT;
        }
    for (size_t i = 0; i < n; i++) v[i] = (uint32_t)i;
    fy_meg_sort(v, v + n, n, by_crc, &ctx);
    uint64_t header = format == 1 ? 8 : format == 2 ? 20 : 24;
    uint64_t data_start = header + names_bytes + 20 * (uint64_t)n;
    if (data_start > UINT32_MAX || (format == 3 && names_bytes > UINT32_MAX)) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "the tables take %llu bytes, past what a MEG can address",
                     (unsigned long long)data_start);
        free(crc), free(v);
        return FERRY_ERR_LIMIT;
    }
    uint64_t at = data_start;
    for (size_t i = 0; i < n; i++) {
        const ferry_meg_pack_entry *e = &entries[v[i]];
        if (at > UINT32_MAX) {
            fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL,
                         "entries[%u] '%.*s' would start at byte %llu, past the 4 GiB a MEG offset reaches",
                         (unsigned)v[i], (int)(e->name_length > 200 ? 200 : e->name_length), e->name,
                         (unsigned long long)at);
            free(crc), free(v);
            return FERRY_ERR_LIMIT;
        }
        at += e->size;
    }
    if (format >= 2) {
        fy_buf_u32le(tables, FERRY_MEG_FLAGS_PLAIN);
        fy_buf_u32le(tables, FERRY_MEG_ID);
        fy_buf_u32le(tables, (uint32_t)data_start);
    }
    fy_buf_u32le(tables, (uint32_t)n);
    fy_buf_u32le(tables, (uint32_t)n);
    if (format == 3) fy_buf_u32le(tables, (uint32_t)names_bytes);
    for (size_t i = 0; i < n; i++) {
        const ferry_meg_pack_entry *e = &entries[v[i]];
        fy_buf_u16le(tables, (uint16_t)e->name_length);
        fy_buf_append(tables, e->name, e->name_length);
    }
    at = data_start;
    for (size_t i = 0; i < n; i++) {
        const ferry_meg_pack_entry *e = &entries[v[i]];
        if (format == 3) fy_buf_u16le(tables, 0);
        fy_buf_u32le(tables, crc[v[i]]);
        fy_buf_u32le(tables, (uint32_t)i);
        fy_buf_u32le(tables, (uint32_t)e->size);
        fy_buf_u32le(tables, (uint32_t)at);
        if (format == 3)
            fy_buf_u16le(tables, (uint16_t)i);
        else
            fy_buf_u32le(tables, (uint32_t)i);
        at += e->size;
        order[i] = v[i];
    }
    free(crc), free(v);
    if (tables->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot grow the output buffer");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}
