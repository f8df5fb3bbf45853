/* The JSON of the info builders: the Latin-1 rule for strings from files,
 * reals, and the one place the objects become text. */
#include "info_json.h"

#include "../core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n bytes (a NUL is a character) are UTF-8: no overlong form, surrogate
 * or code point past U+10FFFF (as jansson checks its strings). */
static bool utf8_validn(const char *text, size_t length)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + length;
    while (p < end) {
        unsigned c = *p;
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            p++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if ((size_t)(end - p) <= n) return false;
        for (size_t i = 1; i <= n; i++) {
            if ((p[i] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

bool fy_utf8_valid(const char *text) { return utf8_validn(text, strlen(text)); }

size_t fy_latin1_to_utf8(const char *text, size_t n, char *out, size_t capacity)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 3 <= capacity; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x80) {
            out[o++] = (char)c;
        } else {
            out[o++] = (char)(0xC0 | (c >> 6));
            out[o++] = (char)(0x80 | (c & 0x3F));
        }
    }
    out[o] = '\0';
    return o;
}

static json_t *latin1_json(const char *text, size_t n, bool *latin1)
{
    char *utf8 = malloc(n * 2 + 3);
    if (!utf8) return json_null();
    size_t o = fy_latin1_to_utf8(text, n, utf8, n * 2 + 3);
    json_t *j = json_stringn(utf8, o);
    free(utf8);
    if (latin1) *latin1 = true;
    return j ? j : json_null();
}

bool ferry_text_utf8(const char *text, size_t length, ferry_buffer *out)
{
    if (!text || !out) return false;
    if (utf8_validn(text, length)) {
        fy_buf_append(out, text, length);
        return false;
    }
    if (fy_buf_reserve(out, length * 2 + 3))
        out->size += fy_latin1_to_utf8(text, length, (char *)out->data + out->size, length * 2 + 3);
    return true;
}

json_t *fy_json_text(const char *text, bool *latin1)
{
    if (latin1) *latin1 = false;
    if (!text) return json_null();
    if (fy_utf8_valid(text)) return json_string(text);
    return latin1_json(text, strlen(text), latin1);
}

json_t *fy_json_textn(const char *text, size_t n, bool *latin1)
{
    if (latin1) *latin1 = false;
    if (!text) return json_null();
    json_t *j = json_stringn(text, n); /* NULL when not valid UTF-8 */
    return j ? j : latin1_json(text, n, latin1);
}

const char *fy_json_key(const char *text, char *buf, size_t capacity)
{
    if (!text) text = "";
    if (fy_utf8_valid(text) || capacity < 3) return text;
    fy_latin1_to_utf8(text, strlen(text), buf, capacity);
    return buf;
}

static void mark_latin1(json_t *object, const char *key)
{
    json_t *list = json_object_get(object, "latin1");
    if (!list) {
        list = json_array();
        json_object_set_new(object, "latin1", list);
    }
    json_array_append_new(list, json_string(key));
}

void fy_json_set_text(json_t *object, const char *key, const char *text)
{
    bool latin1;
    json_object_set_new(object, key, fy_json_text(text, &latin1));
    if (latin1) mark_latin1(object, key);
}

void fy_json_append_text(json_t *object, const char *key, json_t *array, const char *text)
{
    fy_json_append_textn(object, key, array, text, text ? strlen(text) : 0);
}

void fy_json_append_textn(json_t *object, const char *key, json_t *array, const char *text, size_t n)
{
    bool latin1;
    size_t index = json_array_size(array);
    json_array_append_new(array, text ? fy_json_textn(text, n, &latin1) : json_null());
    if (!text) latin1 = false;
    if (latin1) {
        char item[256];
        snprintf(item, sizeof item, "%s/%zu", key, index);
        mark_latin1(object, item);
    }
}

void fy_json_set_file(json_t *object, const fy_info *info) { fy_json_set_text(object, "file", info->name); }

static json_t *nonfinite(double x, bool signed_nan)
{
    if (isnan(x)) return json_string(signed_nan && signbit(x) ? "-nan" : "nan");
    return json_string(x > 0 ? "inf" : "-inf");
}

json_t *fy_json_real(const fy_info *info, double x)
{
    if (isfinite(x)) return json_real(x);
    return info->nonfinite_strings ? nonfinite(x, true) : NULL;
}

json_t *fy_json_real_text(const fy_info *info, double x)
{
    return isfinite(x) ? json_real(x) : nonfinite(x, info->nonfinite_strings);
}

json_t *fy_json_floats(const fy_info *info, const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, fy_json_real(info, v[i]));
    return a;
}

json_t *fy_json_vec3(const fy_info *info, double x, double y, double z)
{
    if (!info->nonfinite_strings && !(isfinite(x) && isfinite(y) && isfinite(z))) return NULL;
    json_t *a = json_array();
    json_array_append_new(a, fy_json_real(info, x));
    json_array_append_new(a, fy_json_real(info, y));
    json_array_append_new(a, fy_json_real(info, z));
    return a;
}

json_t *fy_json_hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *s = malloc(2 * n + 1);
    if (!s) return json_null();
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    s[2 * n] = 0;
    json_t *j = json_string(s);
    free(s);
    return j;
}

ferry_result fy_json_finish(json_t *object, const fy_info *info, ferry_buffer *out, ferry_error *err)
{
    if (!object) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory building the info");
        return FERRY_ERR_NOMEM;
    }
    size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(info->exact ? 17 : 9);
    size_t n = json_dumpb(object, NULL, 0, flags);
    bool ok = n && fy_buf_reserve(out, n) && json_dumpb(object, (char *)out->data + out->size, n, flags) == n;
    json_decref(object);
    if (!ok) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the info");
        return FERRY_ERR_NOMEM;
    }
    out->size += n;
    return FERRY_OK;
}

void fy_not_known(ferry_error *err, const uint8_t *data, size_t size)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->code = FERRY_ERR_UNSUPPORTED;
    err->offset = 0;
    if (!size) {
        snprintf(err->message, sizeof err->message, "not a known format: the file is empty");
        return;
    }
    char bytes[3 * 8 + 1] = "";
    size_t at = 0;
    for (size_t i = 0; i < 8 && i < size; i++)
        at += (size_t)snprintf(bytes + at, sizeof bytes - at, "%s%02x", i ? " " : "", data[i]);
    snprintf(err->message, sizeof err->message,
             "not a known format: it starts with %s; ferry reads Alamo models (chunk 0x200), particle "
             "systems (0x900), animations (0x1000), ODOL P3D models ('ODOL'), ALM meshes, MEG and PBO archives, "
             "PAA/PAC textures (0xff01...) and configs (raP, text)",
             bytes);
}
