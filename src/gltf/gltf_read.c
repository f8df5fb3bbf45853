/* glTF 2.0 input: the .glb container or a .gltf document, its buffers
 * (BIN chunk, base64 data: URIs, or files through the caller's callback)
 * and checked accessors. The objects become a scene in gltf_read_scene.c.
 * include/ferry/gltf.h (ferry_gltf_read) lists what is read and refused. */
#include "gltf_read_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

bool fy_gr_fail(fy_gr *r, ferry_result code, uint64_t offset, const char *path, const char *fmt, ...)
{
    if (r->failed) return false;
    r->failed = true;
    /* Top-level properties ("scene", "buffers") have no path of their own:
     * name the document, so every error says where it is. */
    va_list ap;
    va_start(ap, fmt);
    fy_error_setv(r->err, code, offset, path && path[0] ? path : "document", fmt, ap);
    va_end(ap);
    return false;
}

void *fy_gr_alloc(fy_gr *r, size_t count, size_t size)
{
    if (count == 0) count = 1;
    if (size && count > SIZE_MAX / size) {
        fy_gr_fail(r, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "the scene would be too large");
        return NULL;
    }
    void *p = ferry_arena_alloc(r->arena, count * size);
    if (!p) {
        size_t limit = ferry_arena_limit(r->arena);
        if (limit && ferry_arena_used(r->arena) + count * size > limit / 2)
            fy_gr_fail(r, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "the scene needs more than the memory limit of %zu bytes", limit);
        else
            fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    }
    return p;
}

char *fy_gr_strdup(fy_gr *r, const char *text)
{
    char *s = fy_gr_alloc(r, strlen(text) + 1, 1);
    if (s) memcpy(s, text, strlen(text) + 1);
    return s;
}

/* ---- JSON access ---- */

json_t *fy_gr_array(fy_gr *r, json_t *obj, const char *key, const char *path, bool *ok)
{
    json_t *v = json_object_get(obj, key);
    if (v && !json_is_array(v)) {
        *ok = fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s must be an array", key);
        return NULL;
    }
    return v;
}

bool fy_gr_index(fy_gr *r, json_t *obj, const char *key, const char *path, size_t count, bool required, int64_t *out)
{
    json_t *v = json_object_get(obj, key);
    *out = -1;
    if (!v) return required ? fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s is required", key) : true;
    if (!json_is_integer(v)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s must be an integer index", key);
    json_int_t i = json_integer_value(v);
    if (i < 0 || (uint64_t)i >= count)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s %lld is out of range (%zu defined)", key,
                          (long long)i, count);
    *out = i;
    return true;
}

bool fy_gr_uint(fy_gr *r, json_t *obj, const char *key, const char *path, uint64_t def, uint64_t *out)
{
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s must be a non-negative integer", key);
    *out = (uint64_t)json_integer_value(v);
    return true;
}

bool fy_gr_number(fy_gr *r, json_t *obj, const char *key, const char *path, double def, double *out)
{
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!json_is_number(v)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s must be a number", key);
    *out = json_number_value(v);
    return true;
}

bool fy_gr_numbers(fy_gr *r, json_t *obj, const char *key, const char *path, float *out, size_t n)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return true;
    if (!json_is_array(v) || json_array_size(v) != n)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s must be an array of %zu numbers", key, n);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_number(e) || !isfinite(json_number_value(e)))
            return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%s[%zu] must be a finite number", key, i);
        out[i] = (float)json_number_value(e);
    }
    return true;
}

const char *fy_gr_name(fy_gr *r, json_t *obj)
{
    json_t *v = json_object_get(obj, "name");
    return json_is_string(v) ? fy_gr_strdup(r, json_string_value(v)) : NULL;
}

const ferry_json *fy_gr_extras(fy_gr *r, json_t *obj)
{
    json_t *v = json_object_get(obj, "extras");
    if (!json_is_object(v)) return NULL;
    const ferry_json *copy = fy_json_from_jansson(r->arena, v);
    if (!copy) fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    return copy;
}

size_t fy_gr_count(fy_gr *r, const char *key)
{
    json_t *v = json_object_get(r->root, key);
    return json_is_array(v) ? json_array_size(v) : 0;
}

/* ---- data: URIs and external files ---- */

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* Decodes base64 (padding optional) into a malloc'd block; NULL and
 * *bad set to the offending position when a character is not base64. */
static uint8_t *base64_decode(const char *text, size_t len, size_t *out_size, size_t *bad)
{
    while (len && text[len - 1] == '=') len--;
    uint8_t *out = malloc(len / 4 * 3 + 3);
    if (!out) {
        *bad = SIZE_MAX;
        return NULL;
    }
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = base64_value((unsigned char)text[i]);
        if (v < 0) {
            free(out);
            *bad = i;
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    *out_size = n;
    return out;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool fy_gr_load_uri(fy_gr *r, const char *uri, const char *path, const uint8_t **data, size_t *size,
                    uint8_t **decoded, uint8_t **loaded, size_t *loaded_size, char *media_type, size_t media_size)
{
    if (media_size) media_type[0] = 0;
    if (strncmp(uri, "data:", 5) == 0) {
        const char *comma = strchr(uri, ',');
        const char *b64 = strstr(uri, ";base64,");
        if (!comma || b64 != comma - 7)
            return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, path, "a data: URI must be base64 (\";base64,\")");
        size_t mlen = (size_t)(b64 - (uri + 5));
        if (media_size && mlen < media_size) {
            memcpy(media_type, uri + 5, mlen);
            media_type[mlen] = 0;
        }
        size_t bad = 0;
        *decoded = base64_decode(comma + 1, strlen(comma + 1), size, &bad);
        if (!*decoded) {
            if (bad == SIZE_MAX) return fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, path, "out of memory decoding a data: URI");
            return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "data: URI: character %zu of the base64 text is not base64", bad);
        }
        *data = *decoded;
        return true;
    }
    /* A scheme (http:, file:) or an absolute path is not a file beside the document. */
    for (const char *p = uri; *p && *p != '/'; p++)
        if (*p == ':') return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, path, "URI \"%.80s\" is not a relative reference", uri);
    if (uri[0] == '/' || uri[0] == 0)
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, path, "URI \"%.80s\" is not a relative reference", uri);
    if (!r->opts->files)
        return fy_gr_fail(r, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, path,
                          "external file \"%.80s\" needs a file source (files) in the read options", uri);
    size_t len = strlen(uri);
    char *name = malloc(len + 1);
    if (!name) return fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, path, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (uri[i] == '%' && i + 2 < len + 0 && hex_value(uri[i + 1]) >= 0 && hex_value(uri[i + 2]) >= 0) {
            name[n++] = (char)(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2]));
            i += 2;
        } else {
            name[n++] = uri[i];
        }
    }
    name[n] = 0;
    bool has_nul = memchr(name, 0, n) != NULL;
    /* "./a.bin" and "a/./b.bin" name files in the document's folder: the
     * "." components go, as a file source takes none ("..": refused). */
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && name[end] != '/') end++;
        bool dot = end - i == 1 && name[i] == '.';
        if (!dot) {
            if (w) name[w++] = '/';
            memmove(name + w, name + i, end - i);
            w += end - i;
        }
        i = end + 1;
    }
    if (!has_nul) n = w;
    name[n] = 0;
    uint8_t *bytes = NULL;
    size_t got = 0;
    size_t limit = r->opts->file_limit ? r->opts->file_limit : FERRY_DEFAULT_MEMORY_CAP / 2;
    ferry_error load_err;
    ferry_result rc = has_nul ? FERRY_ERR_ARGUMENT
                              : ferry_file_source_load(r->opts->files, name, limit, &bytes, &got, &load_err);
    if (rc != FERRY_OK || (!bytes && got)) {
        fy_gr_fail(r, FERRY_ERR_IO, FERRY_NO_OFFSET, path, "external file \"%.80s\" could not be loaded", name);
        free(name);
        return false;
    }
    free(name);
    *loaded = bytes;
    *loaded_size = got;
    *data = bytes;
    *size = got;
    return true;
}

/* ---- buffers ---- */

static bool load_buffers(fy_gr *r)
{
    bool ok = true;
    json_t *list = fy_gr_array(r, r->root, "buffers", "", &ok);
    if (!ok) return false;
    r->buffer_count = list ? json_array_size(list) : 0;
    r->buffers = calloc(r->buffer_count + 1, sizeof *r->buffers);
    if (!r->buffers) return fy_gr_fail(r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < r->buffer_count; i++) {
        char path[48];
        snprintf(path, sizeof path, "buffers[%zu]", i);
        json_t *b = json_array_get(list, i);
        if (!json_is_object(b)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "must be an object");
        uint64_t length;
        if (!fy_gr_uint(r, b, "byteLength", path, UINT64_MAX, &length)) return false;
        if (length == UINT64_MAX || length == 0)
            return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "byteLength (at least 1) is required");
        json_t *uri = json_object_get(b, "uri");
        fy_gr_buffer *buf = &r->buffers[i];
        if (!uri) {
            /* Only the first buffer of a .glb may be the BIN chunk. */
            if (i != 0 || !r->bin)
                return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path,
                                  "has no uri, and only buffer 0 of a .glb with a BIN chunk may have none");
            buf->data = r->bin;
            buf->size = r->bin_size;
        } else {
            if (!json_is_string(uri)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "uri must be a string");
            if (!fy_gr_load_uri(r, json_string_value(uri), path, &buf->data, &buf->size, &buf->decoded, &buf->loaded, &buf->loaded_size, NULL, 0))
                return false;
        }
        if (buf->size < length)
            return fy_gr_fail(r, FERRY_ERR_TRUNCATED, uri ? FERRY_NO_OFFSET : r->bin_offset, path,
                              "byteLength is %llu but the data holds %zu bytes", (unsigned long long)length, buf->size);
        buf->size = (size_t)length;
    }
    return true;
}

static void release_buffers(fy_gr *r)
{
    for (size_t i = 0; i < r->buffer_count && r->buffers; i++) {
        fy_gr_buffer *b = &r->buffers[i];
        free(b->decoded);
        if (b->loaded) ferry_file_source_release(r->opts->files, b->loaded, b->loaded_size);
    }
    free(r->buffers);
    r->buffers = NULL;
}

/* ---- accessors ---- */

static unsigned kind_of(int component_type, bool normalized)
{
    switch (component_type) {
    case 5126: return normalized ? 0 : FY_GR_FLOAT;
    case 5121: return normalized ? FY_GR_NORM_UBYTE : FY_GR_UBYTE;
    case 5123: return normalized ? FY_GR_NORM_USHORT : FY_GR_USHORT;
    case 5125: return normalized ? 0 : FY_GR_UINT;
    case 5120: return normalized ? FY_GR_NORM_BYTE : 0;
    case 5122: return normalized ? FY_GR_NORM_SHORT : 0;
    default: return 0;
    }
}

static size_t component_size(int component_type)
{
    switch (component_type) {
    case 5120: case 5121: return 1;
    case 5122: case 5123: return 2;
    default: return 4;
    }
}

bool fy_gr_get_accessor(fy_gr *r, int64_t index, const char *path, unsigned components, unsigned kinds, fy_gr_accessor *a)
{
    memset(a, 0, sizeof *a);
    size_t count_all = fy_gr_count(r, "accessors");
    if (index < 0 || (uint64_t)index >= count_all)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "accessor %lld is out of range (%zu defined)",
                          (long long)index, count_all);
    char here[64];
    snprintf(here, sizeof here, "accessors[%lld]", (long long)index);
    json_t *acc = json_array_get(json_object_get(r->root, "accessors"), (size_t)index);
    if (!json_is_object(acc)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here, "must be an object");
    if (json_object_get(acc, "sparse"))
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, here, "sparse accessors are not supported (used by %s)", path);
    uint64_t ctype, count, offset;
    if (!fy_gr_uint(r, acc, "componentType", here, 0, &ctype) || !fy_gr_uint(r, acc, "count", here, 0, &count) ||
        !fy_gr_uint(r, acc, "byteOffset", here, 0, &offset))
        return false;
    json_t *norm = json_object_get(acc, "normalized");
    if (norm && !json_is_boolean(norm)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here, "normalized must be true or false");
    unsigned kind = kind_of((int)ctype, json_is_true(norm));
    if (!(kind & kinds))
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, here,
                          "componentType %llu%s is not one %s accepts", (unsigned long long)ctype,
                          json_is_true(norm) ? " (normalized)" : "", path);
    json_t *type = json_object_get(acc, "type");
    static const struct {
        const char *name;
        int n;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4 + 32}, {"MAT3", 9 + 32}, {"MAT4", 16}};
    int n = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        if (json_is_string(type) && strcmp(json_string_value(type), types[t].name) == 0) n = types[t].n;
    if (n == 0) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here, "type must be SCALAR, VEC2..4 or MAT2..4");
    if (n > 16 || !(components & (1u << n)))
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, here, "type %s is not one %s accepts",
                          json_string_value(type), path);
    if (count == 0) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here, "count must be at least 1");
    size_t csize = component_size((int)ctype);
    size_t elem = csize * (size_t)n;
    a->count = (size_t)count;
    a->components = n;
    a->component_type = (int)ctype;
    a->kind = kind;
    a->stride = elem;
    int64_t view_index;
    if (!fy_gr_index(r, acc, "bufferView", here, fy_gr_count(r, "bufferViews"), false, &view_index)) return false;
    if (view_index < 0) {
        /* No view: every element is zero (glTF's rule, used with sparse). */
        if (count > SIZE_MAX / 64) return fy_gr_fail(r, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, here, "count is too large");
        return true;
    }
    char vpath[64];
    snprintf(vpath, sizeof vpath, "bufferViews[%lld]", (long long)view_index);
    json_t *view = json_array_get(json_object_get(r->root, "bufferViews"), (size_t)view_index);
    if (!json_is_object(view)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, vpath, "must be an object");
    int64_t buffer_index;
    uint64_t voffset, vlength, vstride;
    if (!fy_gr_index(r, view, "buffer", vpath, r->buffer_count, true, &buffer_index) ||
        !fy_gr_uint(r, view, "byteOffset", vpath, 0, &voffset) || !fy_gr_uint(r, view, "byteLength", vpath, 0, &vlength) ||
        !fy_gr_uint(r, view, "byteStride", vpath, 0, &vstride))
        return false;
    const fy_gr_buffer *buf = &r->buffers[buffer_index];
    if (vlength == 0) return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, vpath, "byteLength (at least 1) is required");
    if (voffset > buf->size || vlength > buf->size - voffset)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, vpath,
                          "bytes %llu..%llu lie outside buffers[%lld] (%zu bytes)", (unsigned long long)voffset,
                          (unsigned long long)(voffset + vlength), (long long)buffer_index, buf->size);
    if (vstride) {
        if (vstride < 4 || vstride > 252 || vstride % 4)
            return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, vpath, "byteStride %llu must be a multiple of 4 in 4..252",
                              (unsigned long long)vstride);
        if (vstride < elem)
            return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here, "its elements (%zu bytes) are longer than the byteStride %llu of %s",
                              elem, (unsigned long long)vstride, vpath);
        a->stride = (size_t)vstride;
    }
    /* The last element must end inside the view: (count - 1) strides plus one element. */
    if (offset > vlength || (count - 1) > (vlength - offset) / a->stride || (count - 1) * a->stride + elem > vlength - offset)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here,
                          "%llu elements of %zu bytes (stride %zu) from byteOffset %llu do not fit in %s (%llu bytes)",
                          (unsigned long long)count, elem, a->stride, (unsigned long long)offset, vpath,
                          (unsigned long long)vlength);
    if (offset % csize || (voffset + offset) % csize)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, here, "byteOffset %llu is not aligned to its %zu-byte components",
                          (unsigned long long)(voffset + offset), csize);
    a->base = buf->data + voffset + offset;
    return true;
}

static const uint8_t *element(const fy_gr_accessor *a, size_t i, int k)
{
    return a->base + i * a->stride + (size_t)k * component_size(a->component_type);
}

float fy_gr_float(const fy_gr_accessor *a, size_t i, int k)
{
    if (!a->base) return 0.0f;
    const uint8_t *p = element(a, i, k);
    switch (a->kind) {
    case FY_GR_FLOAT: return fy_bits_f32(fy_load_u32le(p));
    case FY_GR_NORM_UBYTE: return p[0] / 255.0f;
    case FY_GR_NORM_USHORT: return fy_load_u16le(p) / 65535.0f;
    case FY_GR_NORM_BYTE: return fmaxf((int8_t)p[0] / 127.0f, -1.0f);
    case FY_GR_NORM_SHORT: return fmaxf((int16_t)fy_load_u16le(p) / 32767.0f, -1.0f);
    case FY_GR_UBYTE: return p[0];
    case FY_GR_USHORT: return fy_load_u16le(p);
    default: return (float)fy_load_u32le(p);
    }
}

uint32_t fy_gr_uint_at(const fy_gr_accessor *a, size_t i, int k)
{
    if (!a->base) return 0;
    const uint8_t *p = element(a, i, k);
    switch (a->kind) {
    case FY_GR_UBYTE: case FY_GR_NORM_UBYTE: return p[0];
    case FY_GR_USHORT: case FY_GR_NORM_USHORT: return fy_load_u16le(p);
    default: return fy_load_u32le(p);
    }
}

float *fy_gr_floats(fy_gr *r, const fy_gr_accessor *a)
{
    float *out = fy_gr_alloc(r, a->count, (size_t)a->components * sizeof *out);
    if (!out) return NULL;
    if (a->base && a->kind == FY_GR_FLOAT) { /* the common case, without a call and switch per component */
        for (size_t i = 0; i < a->count; i++) {
            const uint8_t *p = a->base + i * a->stride;
            for (int k = 0; k < a->components; k++)
                out[i * (size_t)a->components + (size_t)k] = fy_bits_f32(fy_load_u32le(p + 4 * (size_t)k));
        }
        return out;
    }
    for (size_t i = 0; i < a->count; i++)
        for (int k = 0; k < a->components; k++) out[i * (size_t)a->components + (size_t)k] = fy_gr_float(a, i, k);
    return out;
}

/* ---- the container ---- */

static bool parse_json(fy_gr *r, const uint8_t *text, size_t len, uint64_t offset)
{
    /* A byte order mark is forbidden by glTF but harmless; step over it. */
    if (len >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF) text += 3, len -= 3, offset += 3;
    json_error_t jerr;
    r->root = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
    if (!r->root)
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, offset + (uint64_t)(jerr.position > 0 ? jerr.position : 0), "",
                          "JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
    if (!json_is_object(r->root)) return fy_gr_fail(r, FERRY_ERR_MALFORMED, offset, "", "the document must be a JSON object");
    return true;
}

static bool parse_glb(fy_gr *r, const uint8_t *data, size_t size)
{
    fy_cursor c = fy_cursor_make(data, 0, size, r->err, "");
    uint32_t magic = fy_u32le(&c, "the .glb magic");
    uint32_t version = fy_u32le(&c, "the .glb version");
    uint32_t length = fy_u32le(&c, "the .glb length");
    if (c.failed) return !(r->failed = true);
    (void)magic;
    if (version != 2) return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, 4, "", ".glb version %u (only 2 is glTF 2.0)", (unsigned)version);
    if (length > size)
        return fy_gr_fail(r, FERRY_ERR_TRUNCATED, 8, "", "the header says %u bytes but the file has %zu", (unsigned)length, size);
    if (length < 20) return fy_gr_fail(r, FERRY_ERR_MALFORMED, 8, "", "length %u leaves no room for the JSON chunk", (unsigned)length);
    c.end = length;
    bool have_json = false;
    while (fy_remaining(&c) > 0) {
        size_t at = c.pos;
        uint32_t clen = fy_u32le(&c, "a chunk length");
        uint32_t ctype = fy_u32le(&c, "a chunk type");
        const uint8_t *body = fy_bytes(&c, clen, "a chunk's data");
        if (c.failed) return !(r->failed = true);
        if (!have_json) {
            if (ctype != GLB_CHUNK_JSON) return fy_gr_fail(r, FERRY_ERR_MALFORMED, at + 4, "", "the first chunk must be JSON");
            if (!parse_json(r, body, clen, at + 8)) return false;
            have_json = true;
        } else if (ctype == GLB_CHUNK_BIN) {
            if (r->bin) return fy_gr_fail(r, FERRY_ERR_MALFORMED, at + 4, "", "a second BIN chunk");
            r->bin = body;
            r->bin_size = clen;
            r->bin_offset = at + 8;
        } else if (ctype == GLB_CHUNK_JSON) {
            return fy_gr_fail(r, FERRY_ERR_MALFORMED, at + 4, "", "a second JSON chunk");
        }
        /* Other chunk types are to be ignored, says the spec. */
    }
    if (!have_json) return fy_gr_fail(r, FERRY_ERR_MALFORMED, 12, "", "no JSON chunk");
    return true;
}

static bool check_asset(fy_gr *r)
{
    json_t *asset = json_object_get(r->root, "asset");
    json_t *version = json_object_get(asset, "version");
    if (!json_is_object(asset) || !json_is_string(version))
        return fy_gr_fail(r, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "asset", "asset.version is required");
    const char *v = json_string_value(version);
    if (strncmp(v, "2.", 2) != 0)
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, "asset", "glTF version %.20s (this reader reads 2.x)", v);
    json_t *min = json_object_get(asset, "minVersion");
    if (json_is_string(min) && strcmp(json_string_value(min), "2.0") != 0)
        return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, "asset", "minVersion %.20s is newer than 2.0",
                          json_string_value(min));
    static const char *const known[] = {"KHR_materials_unlit", "KHR_lights_punctual"};
    json_t *req = json_object_get(r->root, "extensionsRequired");
    for (size_t i = 0; json_is_array(req) && i < json_array_size(req); i++) {
        const char *name = json_string_value(json_array_get(req, i));
        bool ok = false;
        for (size_t k = 0; name && k < sizeof known / sizeof known[0]; k++) ok |= strcmp(name, known[k]) == 0;
        if (!ok)
            return fy_gr_fail(r, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, "extensionsRequired",
                              "extension %.60s is required and not supported", name ? name : "(not a string)");
    }
    return true;
}

ferry_result ferry_gltf_read(const uint8_t *data, size_t size, const ferry_gltf_read_options *options,
                             ferry_scene **out, ferry_error *err)
{
    ferry_error local_err;
    if (!err) err = &local_err;
    fy_error_clear(err);
    if (!out || (!data && size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "no %s given", out ? "data" : "output");
        return FERRY_ERR_ARGUMENT;
    }
    *out = NULL;
    ferry_gltf_read_options no_options;
    if (!options) {
        memset(&no_options, 0, sizeof no_options);
        options = &no_options;
    }
    fy_gr r;
    memset(&r, 0, sizeof r);
    r.opts = options;
    r.err = err;
    bool ok = size >= 4 && fy_load_u32le(data) == GLB_MAGIC ? parse_glb(&r, data, size) : parse_json(&r, data, size, 0);
    ok = ok && check_asset(&r) && load_buffers(&r);
    if (ok) {
        size_t total = size;
        for (size_t i = 0; i < r.buffer_count; i++)
            if (r.buffers[i].data != r.bin) total += r.buffers[i].size;
        /* options->read.memory_limit, or 16 x + 1 MiB within the cap */
        size_t limit = fy_default_memory_limit(&options->read, total);
        r.arena = ferry_arena_create(limit);
        r.scene = r.arena ? ferry_arena_alloc(r.arena, sizeof *r.scene) : NULL;
        if (!r.scene) ok = fy_gr_fail(&r, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    }
    if (ok) {
        r.scene->arena = r.arena;
        ok = fy_gr_build_scene(&r);
    }
    release_buffers(&r);
    free(r.node_index);
    free(r.texture_image);
    json_decref(r.root);
    if (!ok) {
        if (err->code == FERRY_OK) fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        if (r.arena) ferry_arena_destroy(r.arena);
        return err->code;
    }
    *out = r.scene;
    return FERRY_OK;
}
