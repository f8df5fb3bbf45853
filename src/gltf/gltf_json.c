/* JSON helpers for the glTF writer: every document value is built with
 * jansson, never by hand, so escaping and number formatting are right. */
#include "gltf_internal.h"
#include "../core/platform.h"

#include <stdlib.h>

void fy_gltf_json_set(fy_gltf *g, json_t *obj, const char *key, json_t *value)
{
    if (!value || !obj || json_object_set_new(obj, key, value) != 0) g->nomem = true;
}

void fy_gltf_json_push(fy_gltf *g, json_t *array, json_t *value)
{
    if (!value || !array || json_array_append_new(array, value) != 0) g->nomem = true;
}

json_t *fy_gltf_json_floats(const float *v, size_t n)
{
    json_t *a = json_array();
    if (!a) return NULL;
    for (size_t i = 0; i < n; i++) {
        /* json_real refuses NaN and infinities; the scene check rejects
         * them first, so a failure here can only be the allocator. */
        if (json_array_append_new(a, json_real((double)v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

void fy_gltf_json_set_array(fy_gltf *g, json_t *obj, const char *key, json_t *array)
{
    if (!array) {
        g->nomem = true;
        return;
    }
    if (json_array_size(array) == 0) {
        json_decref(array);
        return;
    }
    fy_gltf_json_set(g, obj, key, array);
}

void fy_gltf_json_set_extras(fy_gltf *g, json_t *obj, const ferry_json *extras)
{
    if (!extras) return;
    if (g->compact) {
        if (g->raw_count == g->raw_capacity) {
            size_t cap = g->raw_capacity ? 2 * g->raw_capacity : 64;
            const ferry_json **grown = realloc(g->raw, cap * sizeof *grown);
            if (!grown) {
                g->nomem = true;
                return;
            }
            g->raw = grown;
            g->raw_capacity = cap;
        }
        json_t *stand_in = json_object();
        if (!stand_in ||
            json_object_setn_new(stand_in, FY_JSON_RAW_KEY, sizeof FY_JSON_RAW_KEY - 1,
                                 json_integer((json_int_t)g->raw_count)) != 0) {
            json_decref(stand_in);
            g->nomem = true;
            return;
        }
        g->raw[g->raw_count++] = extras;
        fy_gltf_json_set(g, obj, "extras", stand_in);
        return;
    }
    const char *problem;
    /* The check already converted this value, so failing now means no memory. */
    fy_gltf_json_set(g, obj, "extras", fy_json_to_jansson(extras, &problem));
}

ferry_result fy_gltf_json_dump(fy_gltf *g, bool pretty, ferry_buffer *out, ferry_error *err)
{
    /* 9 significant digits restore every float32 exactly, and the values
     * all come from floats; 17 (jansson's default) would only add noise. */
    if (!pretty) {
        /* The .glb's compact text: jansson's, written without its number
         * formatting through snprintf (fy_json_dump_compact). */
        fy_json_raw raw = {g->raw, g->raw_count};
        if (fy_json_dump_compact(g->root, 9, &raw, out)) return FERRY_OK;
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the glTF JSON");
        return FERRY_ERR_NOMEM;
    }
    size_t flags = JSON_REAL_PRECISION(9) | JSON_ENSURE_ASCII | JSON_INDENT(2);
    char *text = json_dumps(g->root, flags);
    if (!text) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the glTF JSON");
        return FERRY_ERR_NOMEM;
    }
    fy_buf_append(out, text, strlen(text));
    if (pretty) fy_buf_u8(out, '\n');
    free(text);
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the glTF JSON");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}

json_t *fy_gltf_json_text(const char *text)
{
    json_t *s = json_string(text);
    if (s) return s;
    /* Names from old game files are often Latin-1 rather than UTF-8, which
     * JSON cannot hold: keep the ASCII and mark the rest, rather than
     * failing a whole conversion over a name. */
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (!copy) return NULL;
    for (size_t i = 0; i <= n; i++) copy[i] = (unsigned char)text[i] >= 0x80 ? '?' : text[i];
    s = json_string(copy);
    free(copy);
    return s;
}

void fy_gltf_json_set_name(fy_gltf *g, json_t *obj, const char *name)
{
    if (name && name[0]) fy_gltf_json_set(g, obj, "name", fy_gltf_json_text(name));
}

char *fy_gltf_uri_encode(const char *text, bool path)
{
    size_t n = strlen(text);
    char *out = malloc(n * 3 + 1);
    if (!out) return NULL;
    static const char hex[] = "0123456789ABCDEF";
    bool drive = path && n >= 2 && text[1] == ':' && ((text[0] >= 'A' && text[0] <= 'Z') || (text[0] >= 'a' && text[0] <= 'z'));
    char *p = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.' || c == '~' || (path && c == '/') || (drive && i == 1)) {
            *p++ = (char)c;
        } else if (path && fy_path_is_separator((char)c)) {
            *p++ = '/'; /* Windows' '\\' (on POSIX a byte of a name, escaped) */
        } else {
            *p++ = '%';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        }
    }
    *p = '\0';
    return out;
}
