/* ferry_json (scene.h), the data form of extras, and its bridge to
 * jansson (scene_json.h). */
#include "scene_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const ferry_json *ferry_json_get(const ferry_json *object, const char *key)
{
    if (!object || object->kind != FERRY_JSON_OBJECT || !key) return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < object->count; i++) {
        const ferry_json_member *m = &object->members[i];
        if (m->key_length == n && memcmp(m->key, key, n) == 0) return &m->value;
    }
    return NULL;
}

static const char *copy_bytes(ferry_arena *arena, const char *s, size_t n)
{
    char *p = ferry_arena_alloc(arena, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static bool fill(ferry_arena *arena, ferry_json *out, const json_t *v)
{
    memset(out, 0, sizeof *out);
    switch (json_typeof(v)) {
    case JSON_NULL: out->kind = FERRY_JSON_NULL; return true;
    case JSON_TRUE:
    case JSON_FALSE:
        out->kind = FERRY_JSON_BOOL;
        out->boolean = json_is_true(v);
        return true;
    case JSON_INTEGER:
        out->kind = FERRY_JSON_INTEGER;
        out->integer = (int64_t)json_integer_value(v);
        return true;
    case JSON_REAL:
        out->kind = FERRY_JSON_REAL;
        out->real = json_real_value(v);
        return true;
    case JSON_STRING:
        out->kind = FERRY_JSON_STRING;
        out->length = json_string_length(v);
        out->string = copy_bytes(arena, json_string_value(v), out->length);
        return out->string != NULL;
    case JSON_ARRAY: {
        out->kind = FERRY_JSON_ARRAY;
        size_t n = json_array_size(v);
        if (n == 0) return true;
        if (n > SIZE_MAX / sizeof(ferry_json)) return false;
        ferry_json *items = ferry_arena_alloc(arena, n * sizeof *items);
        if (!items) return false;
        for (size_t i = 0; i < n; i++)
            if (!fill(arena, &items[i], json_array_get(v, i))) return false;
        out->items = items;
        out->count = n;
        return true;
    }
    case JSON_OBJECT: {
        out->kind = FERRY_JSON_OBJECT;
        size_t n = json_object_size(v);
        if (n == 0) return true;
        if (n > SIZE_MAX / sizeof(ferry_json_member)) return false;
        ferry_json_member *members = ferry_arena_alloc(arena, n * sizeof *members);
        if (!members) return false;
        size_t i = 0;
        /* jansson keeps insertion order: the file's or the converter's */
        for (void *it = json_object_iter((json_t *)v); it && i < n; it = json_object_iter_next((json_t *)v, it), i++) {
            members[i].key_length = json_object_iter_key_len(it);
            members[i].key = copy_bytes(arena, json_object_iter_key(it), members[i].key_length);
            if (!members[i].key || !fill(arena, &members[i].value, json_object_iter_value(it))) return false;
        }
        out->members = members;
        out->count = i;
        return true;
    }
    }
    return false;
}

ferry_json *fy_value_from_json(ferry_arena *arena, const json_t *v)
{
    if (!v || !arena) return NULL;
    ferry_json *out = ferry_arena_alloc(arena, sizeof *out);
    if (!out || !fill(arena, out, v)) return NULL;
    return out;
}

/* Bytes as a JSON string; not UTF-8: ASCII kept, '?' for the rest. */
static json_t *text(const char *s, size_t n, char **scratch)
{
    json_t *j = json_stringn(s ? s : "", s ? n : 0);
    if (j || !s) return j;
    char *copy = malloc(n ? n : 1);
    if (!copy) return NULL;
    for (size_t i = 0; i < n; i++) copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
    if (scratch) {
        *scratch = copy;
        return NULL;
    }
    j = json_stringn(copy, n);
    free(copy);
    return j;
}

static json_t *to_json(const ferry_json *v, int depth, const char **problem)
{
    if (depth > FY_VALUE_MAX_DEPTH) {
        *problem = "nested too deeply";
        return NULL;
    }
    switch (v->kind) {
    case FERRY_JSON_NULL: return json_null();
    case FERRY_JSON_BOOL: return json_boolean(v->boolean);
    case FERRY_JSON_INTEGER: return json_integer((json_int_t)v->integer);
    case FERRY_JSON_REAL:
        if (!isfinite(v->real)) {
            *problem = isnan(v->real) ? "a real is NaN" : "a real is infinite";
            return NULL;
        }
        return json_real(v->real);
    case FERRY_JSON_STRING: return text(v->string, v->length, NULL);
    case FERRY_JSON_ARRAY: {
        json_t *a = json_array();
        if (!a) return NULL;
        for (size_t i = 0; i < v->count; i++) {
            json_t *e = to_json(&v->items[i], depth + 1, problem);
            if (!e || json_array_append_new(a, e) != 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case FERRY_JSON_OBJECT: {
        json_t *o = json_object();
        if (!o) return NULL;
        for (size_t i = 0; i < v->count; i++) {
            const ferry_json_member *m = &v->members[i];
            const char *key = m->key ? m->key : "";
            size_t key_length = m->key ? m->key_length : 0;
            char *fixed = NULL;
            json_t *probe = text(key, key_length, &fixed);
            if (probe) json_decref(probe);
            else if (!fixed) {
                json_decref(o);
                return NULL;
            }
            if (fixed) key = fixed;
            bool twice = json_object_getn(o, key, key_length) != NULL;
            json_t *e = twice ? NULL : to_json(&m->value, depth + 1, problem);
            if (twice) *problem = "a key appears twice in one object";
            if (!e || json_object_setn_new(o, key, key_length, e) != 0) {
                free(fixed);
                json_decref(o);
                return NULL;
            }
            free(fixed);
        }
        return o;
    }
    }
    *problem = "a value has an unknown kind";
    return NULL;
}

json_t *fy_value_to_json(const ferry_json *v, const char **problem)
{
    *problem = NULL;
    if (!v) return NULL;
    return to_json(v, 0, problem);
}
