/* ferry_json (scene.h), the data form of extras: its builder and its
 * bridge to jansson (scene_json.h). */
#include "scene_json.h"

#include "../core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const ferry_json *ferry_json_get(const ferry_json *object, const char *key)
{
    if (!object || object->kind != FERRY_JSON_OBJECT || !key) return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < object->count; i++) {
        const ferry_json_member *m = &object->members[i];
        if (m->key_length == n && memcmp(m->key, key, n) == 0) return m->value;
    }
    return NULL;
}

/* ---- building ---- */

static ferry_json *make(ferry_arena *arena, ferry_json_kind kind)
{
    ferry_json *v = ferry_arena_alloc(arena, sizeof *v);
    if (v) memset(v, 0, sizeof *v), v->kind = kind;
    return v;
}

ferry_json *fy_jobject(ferry_arena *arena) { return make(arena, FERRY_JSON_OBJECT); }
ferry_json *fy_jarray(ferry_arena *arena) { return make(arena, FERRY_JSON_ARRAY); }
ferry_json *fy_jnull(ferry_arena *arena) { return make(arena, FERRY_JSON_NULL); }

ferry_json *fy_jbool(ferry_arena *arena, bool b)
{
    ferry_json *v = make(arena, FERRY_JSON_BOOL);
    if (v) v->boolean = b;
    return v;
}

ferry_json *fy_jinteger(ferry_arena *arena, int64_t i)
{
    ferry_json *v = make(arena, FERRY_JSON_INTEGER);
    if (v) v->integer = i;
    return v;
}

ferry_json *fy_jreal(ferry_arena *arena, double d)
{
    if (!isfinite(d)) return NULL; /* JSON has no NaN or infinity */
    ferry_json *v = make(arena, FERRY_JSON_REAL);
    if (v) v->real = d;
    return v;
}

/* Well-formed UTF-8 (RFC 3629: no overlongs, surrogates or values above
 * U+10FFFF), the rule jansson applies to strings. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
        else return false;
        if (n - i < len) return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

static const char *copy_bytes(ferry_arena *arena, const char *s, size_t n)
{
    char *p = ferry_arena_alloc(arena, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

ferry_json *fy_jstring(ferry_arena *arena, const char *text)
{
    if (!text) return NULL;
    size_t n = strlen(text);
    if (!utf8_valid((const unsigned char *)text, n)) return NULL;
    ferry_json *v = make(arena, FERRY_JSON_STRING);
    if (!v || !(v->string = copy_bytes(arena, text, n))) return NULL;
    v->length = n;
    return v;
}

/* Room for one more of `count` items of `size` bytes: the arrays grow by
 * doubling (capacity: 0, then 4, 8, 16...: a function of the count). */
static void *grow(ferry_arena *arena, const void *old, size_t count, size_t size)
{
    size_t cap = count == 0 ? 0 : 4;
    while (cap < count) cap *= 2;
    if (count < cap) return (void *)old;
    size_t want = cap ? cap * 2 : 4;
    if (want > SIZE_MAX / size) return NULL;
    void *p = ferry_arena_alloc(arena, want * size);
    if (p && count) memcpy(p, old, count * size);
    return p;
}

bool fy_jset(ferry_arena *arena, ferry_json *obj, const char *key, const ferry_json *v)
{
    if (!obj || !v || !key || obj->kind != FERRY_JSON_OBJECT) return false;
    size_t n = strlen(key);
    for (size_t i = 0; i < obj->count; i++) {
        ferry_json_member *m = (ferry_json_member *)&obj->members[i];
        if (m->key_length == n && memcmp(m->key, key, n) == 0) {
            m->value = v;
            return true;
        }
    }
    ferry_json_member *members = grow(arena, obj->members, obj->count, sizeof *members);
    const char *copy = members ? copy_bytes(arena, key, n) : NULL;
    if (!copy) return false;
    members[obj->count] = (ferry_json_member){copy, n, v};
    obj->members = members;
    obj->count++;
    return true;
}

bool fy_jpush(ferry_arena *arena, ferry_json *array, const ferry_json *v)
{
    if (!array || !v || array->kind != FERRY_JSON_ARRAY) return false;
    const ferry_json **items = grow(arena, array->items, array->count, sizeof *items);
    if (!items) return false;
    items[array->count++] = v;
    array->items = items;
    return true;
}

/* ---- from jansson (the glTF reader) ---- */

static ferry_json *from_jansson(ferry_arena *arena, const json_t *j)
{
    ferry_json *out = make(arena, FERRY_JSON_NULL);
    if (!out) return NULL;
    switch (json_typeof(j)) {
    case JSON_NULL: return out;
    case JSON_TRUE:
    case JSON_FALSE:
        out->kind = FERRY_JSON_BOOL;
        out->boolean = json_is_true(j);
        return out;
    case JSON_INTEGER:
        out->kind = FERRY_JSON_INTEGER;
        out->integer = (int64_t)json_integer_value(j);
        return out;
    case JSON_REAL:
        out->kind = FERRY_JSON_REAL;
        out->real = json_real_value(j);
        return out;
    case JSON_STRING:
        out->kind = FERRY_JSON_STRING;
        out->length = json_string_length(j);
        out->string = copy_bytes(arena, json_string_value(j), out->length);
        return out->string ? out : NULL;
    case JSON_ARRAY: {
        out->kind = FERRY_JSON_ARRAY;
        size_t n = json_array_size(j);
        if (n == 0) return out;
        if (n > SIZE_MAX / sizeof(ferry_json *)) return NULL;
        const ferry_json **items = ferry_arena_alloc(arena, n * sizeof *items);
        if (!items) return NULL;
        for (size_t i = 0; i < n; i++)
            if (!(items[i] = from_jansson(arena, json_array_get(j, i)))) return NULL;
        out->items = items;
        out->count = n;
        return out;
    }
    case JSON_OBJECT: {
        out->kind = FERRY_JSON_OBJECT;
        size_t n = json_object_size(j);
        if (n == 0) return out;
        if (n > SIZE_MAX / sizeof(ferry_json_member)) return NULL;
        ferry_json_member *members = ferry_arena_alloc(arena, n * sizeof *members);
        if (!members) return NULL;
        size_t i = 0;
        /* jansson keeps insertion order: the file's */
        for (void *it = json_object_iter((json_t *)j); it && i < n; it = json_object_iter_next((json_t *)j, it), i++) {
            members[i].key_length = json_object_iter_key_len(it);
            members[i].key = copy_bytes(arena, json_object_iter_key(it), members[i].key_length);
            if (!members[i].key || !(members[i].value = from_jansson(arena, json_object_iter_value(it)))) return NULL;
        }
        out->members = members;
        out->count = i;
        return out;
    }
    }
    return NULL;
}

ferry_json *fy_json_from_jansson(ferry_arena *arena, const json_t *v)
{
    if (!v || !arena) return NULL;
    return from_jansson(arena, v);
}

/* ---- to jansson (the glTF writer) ---- */

/* Bytes as a JSON string; not UTF-8: ASCII kept, '?' for the rest. */
static json_t *text(const char *s, size_t n)
{
    if (!s) n = 0, s = "";
    json_t *j = json_stringn(s, n);
    if (j) return j;
    char *copy = malloc(n ? n : 1);
    if (!copy) return NULL;
    for (size_t i = 0; i < n; i++) copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
    j = json_stringn(copy, n);
    free(copy);
    return j;
}

static json_t *to_jansson(const ferry_json *v, int depth, const char **problem)
{
    if (!v) {
        *problem = "a value is missing (NULL)";
        return NULL;
    }
    if (depth > FY_JSON_MAX_DEPTH) {
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
    case FERRY_JSON_STRING: return text(v->string, v->length);
    case FERRY_JSON_ARRAY: {
        json_t *a = json_array();
        if (!a) return NULL;
        for (size_t i = 0; i < v->count; i++) {
            json_t *e = to_jansson(v->items[i], depth + 1, problem);
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
            json_t *key = text(m->key, m->key_length);
            json_t *e = NULL;
            if (key && json_object_getn(o, json_string_value(key), json_string_length(key)))
                *problem = "a key appears twice in one object";
            else if (key)
                e = to_jansson(m->value, depth + 1, problem);
            bool ok = e && json_object_setn_new(o, json_string_value(key), json_string_length(key), e) == 0;
            json_decref(key);
            if (!ok) {
                json_decref(o);
                return NULL;
            }
        }
        return o;
    }
    }
    *problem = "a value has an unknown kind";
    return NULL;
}

/* ---- what to_jansson would refuse, without building anything ---- */

/* A key as to_jansson makes it (text()): as it is when ASCII, which keys
 * almost always are; otherwise jansson's own conversion, copied. */
typedef struct key_view {
    const char *s;
    size_t n;
    char *owned;
} key_view;

static bool key_of(const ferry_json_member *m, key_view *k)
{
    const char *s = m->key ? m->key : "";
    size_t n = m->key ? m->key_length : 0;
    k->owned = NULL;
    k->s = s;
    k->n = n;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) {
            json_t *j = text(s, n);
            if (!j) return false;
            k->n = json_string_length(j);
            k->owned = malloc(k->n ? k->n : 1);
            if (k->owned) memcpy(k->owned, json_string_value(j), k->n);
            json_decref(j);
            k->s = k->owned;
            return k->owned != NULL;
        }
    return true;
}

static bool same_key(const key_view *a, const key_view *b) { return a->n == b->n && memcmp(a->s, b->s, a->n) == 0; }

static int cmp_key(const void *x, const void *y)
{
    const key_view *a = x, *b = y;
    size_t n = a->n < b->n ? a->n : b->n;
    int c = memcmp(a->s, b->s, n);
    return c ? c : (a->n > b->n) - (a->n < b->n);
}

static bool check(const ferry_json *v, int depth, const char **problem);

/* An object's members in order: a key met before is refused where
 * to_jansson meets it, after the values of the members before it. */
static bool check_object(const ferry_json *v, int depth, const char **problem)
{
    size_t n = v->count;
    key_view *keys = calloc(n ? n : 1, sizeof *keys);
    if (!keys) return false;
    bool ok = true, twice = false;
    size_t made = 0;
    for (; made < n && ok; made++) ok = key_of(&v->members[made], &keys[made]);
    if (ok && n > 32) {
        /* Many members: sorted once to learn whether any key repeats. */
        key_view *sorted = malloc(n * sizeof *sorted);
        if (!sorted) {
            ok = false;
        } else {
            memcpy(sorted, keys, n * sizeof *sorted);
            qsort(sorted, n, sizeof *sorted, cmp_key);
            for (size_t i = 1; i < n && !twice; i++) twice = same_key(&sorted[i - 1], &sorted[i]);
            free(sorted);
        }
    } else {
        twice = true; /* few members: compared as they come */
    }
    for (size_t i = 0; ok && i < n; i++) {
        for (size_t j = 0; twice && j < i; j++)
            if (same_key(&keys[j], &keys[i])) {
                *problem = "a key appears twice in one object";
                ok = false;
                break;
            }
        if (ok) ok = check(v->members[i].value, depth + 1, problem);
    }
    for (size_t i = 0; i < made; i++) free(keys[i].owned);
    free(keys);
    return ok;
}

static bool check(const ferry_json *v, int depth, const char **problem)
{
    if (!v) {
        *problem = "a value is missing (NULL)";
        return false;
    }
    if (depth > FY_JSON_MAX_DEPTH) {
        *problem = "nested too deeply";
        return false;
    }
    switch (v->kind) {
    case FERRY_JSON_NULL:
    case FERRY_JSON_BOOL:
    case FERRY_JSON_INTEGER:
    case FERRY_JSON_STRING: return true;
    case FERRY_JSON_REAL:
        if (isfinite(v->real)) return true;
        *problem = isnan(v->real) ? "a real is NaN" : "a real is infinite";
        return false;
    case FERRY_JSON_ARRAY:
        for (size_t i = 0; i < v->count; i++)
            if (!check(v->items[i], depth + 1, problem)) return false;
        return true;
    case FERRY_JSON_OBJECT: return check_object(v, depth, problem);
    }
    *problem = "a value has an unknown kind";
    return false;
}

bool fy_json_check(const ferry_json *v, const char **problem)
{
    *problem = NULL;
    return v && check(v, 0, problem);
}

json_t *fy_json_to_jansson(const ferry_json *v, const char **problem)
{
    *problem = NULL;
    if (!v) return NULL;
    return to_jansson(v, 0, problem);
}

/* ---- jansson's compact text, made faster ---- */

/* Appends that stay inline while the buffer has room (a document is
 * written a few bytes at a time). */
static inline void out_bytes(ferry_buffer *out, const void *data, size_t n)
{
    if (!n) return;
    if (n <= out->capacity - out->size && !out->failed) {
        memcpy(out->data + out->size, data, n);
        out->size += n;
    } else {
        fy_buf_append(out, data, n);
    }
}

static inline void out_u8(ferry_buffer *out, char c) { out_bytes(out, &c, 1); }

static void put_text(ferry_buffer *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    out_u8(out, '"');
    size_t run = 0; /* bytes that go out as they are, from s */
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            i++;
            continue;
        }
        out_bytes(out, s + run, i - run);
        char seq[12];
        size_t len = 2;
        uint32_t cp = c;
        size_t step = 1;
        if (c >= 0x80) {
            /* jansson's strings are UTF-8: a lead byte and its continuations. */
            size_t extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
            cp = c & (0x3F >> extra);
            for (size_t k = 1; k <= extra && i + k < n; k++) cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
            step = 1 + extra;
        }
        switch (cp) {
        case '\\': memcpy(seq, "\\\\", 2); break;
        case '"': memcpy(seq, "\\\"", 2); break;
        case '\b': memcpy(seq, "\\b", 2); break;
        case '\f': memcpy(seq, "\\f", 2); break;
        case '\n': memcpy(seq, "\\n", 2); break;
        case '\r': memcpy(seq, "\\r", 2); break;
        case '\t': memcpy(seq, "\\t", 2); break;
        default: {
            uint32_t units[2] = {cp, 0};
            size_t count = 1;
            if (cp >= 0x10000) { /* a UTF-16 surrogate pair */
                cp -= 0x10000;
                units[0] = 0xD800 | ((cp & 0xFFC00) >> 10);
                units[1] = 0xDC00 | (cp & 0x3FF);
                count = 2;
            }
            len = 0;
            for (size_t u = 0; u < count; u++) {
                seq[len++] = '\\';
                seq[len++] = 'u';
                for (int shift = 12; shift >= 0; shift -= 4) seq[len++] = hex[(units[u] >> shift) & 0xF];
            }
        }
        }
        out_bytes(out, seq, len);
        i += step;
        run = i;
    }
    out_bytes(out, s + run, n - run);
    out_u8(out, '"');
}

static void put_integer(ferry_buffer *out, json_int_t v)
{
    char digits[24];
    size_t at = sizeof digits;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[--at] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) digits[--at] = '-';
    out_bytes(out, digits + at, sizeof digits - at);
}

/* As jansson's dtostr: "%.*g", ".0" when that shows no fraction or
 * exponent, the exponent without '+' and leading zeros. */
static void put_real(ferry_buffer *out, double v, int precision)
{
    char buf[64];
    int n = fy_real_g(v, precision, buf, sizeof buf);
    if (n < 0 || (size_t)n >= sizeof buf - 3) return;
    size_t length = (size_t)n;
    if (!strchr(buf, '.') && !strchr(buf, 'e')) {
        memcpy(buf + length, ".0", 3);
        length += 2;
    }
    char *start = strchr(buf, 'e');
    if (start) {
        start++;
        char *end = start + 1;
        if (*start == '-') start++;
        while (*end == '0') end++;
        if (end != start) {
            memmove(start, end, length - (size_t)(end - buf) + 1);
            length -= (size_t)(end - start);
        }
    }
    out_bytes(out, buf, length);
}

/* A string of the scene as text() makes it, written. */
static void put_scene_text(ferry_buffer *out, const char *s, size_t n)
{
    if (!s) s = "", n = 0;
    /* jansson's rule (utf8_valid, above: what json_stringn takes). */
    if (utf8_valid((const unsigned char *)s, n)) {
        put_text(out, s, n);
        return;
    }
    char *copy = malloc(n ? n : 1);
    if (!copy) {
        out->failed = true;
        return;
    }
    for (size_t i = 0; i < n; i++) copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
    put_text(out, copy, n);
    free(copy);
}

static bool put_scene_value(ferry_buffer *out, const ferry_json *v, int precision, int depth)
{
    if (!v || depth > FY_JSON_MAX_DEPTH) return false;
    switch (v->kind) {
    case FERRY_JSON_NULL: out_bytes(out, "null", 4); return true;
    case FERRY_JSON_BOOL: v->boolean ? out_bytes(out, "true", 4) : out_bytes(out, "false", 5); return true;
    case FERRY_JSON_INTEGER: put_integer(out, (json_int_t)v->integer); return true;
    case FERRY_JSON_REAL:
        if (!isfinite(v->real)) return false;
        put_real(out, v->real, precision);
        return true;
    case FERRY_JSON_STRING: put_scene_text(out, v->string, v->length); return true;
    case FERRY_JSON_ARRAY:
        out_u8(out, '[');
        for (size_t i = 0; i < v->count; i++) {
            if (i) out_u8(out, ',');
            if (!put_scene_value(out, v->items[i], precision, depth + 1)) return false;
        }
        out_u8(out, ']');
        return true;
    case FERRY_JSON_OBJECT:
        out_u8(out, '{');
        for (size_t i = 0; i < v->count; i++) {
            if (i) out_u8(out, ',');
            put_scene_text(out, v->members[i].key, v->members[i].key ? v->members[i].key_length : 0);
            out_u8(out, ':');
            if (!put_scene_value(out, v->members[i].value, precision, depth + 1)) return false;
        }
        out_u8(out, '}');
        return true;
    }
    return false;
}

bool fy_json_dump_scene_value(const ferry_json *v, int precision, ferry_buffer *out)
{
    size_t start = out->size;
    if (put_scene_value(out, v, precision ? precision : 17, 0) && !out->failed) return true;
    if (!out->failed) out->size = start;
    return false;
}

/* A stand-in for a scene value (fy_json_raw): an object of one member
 * under the key FY_JSON_RAW_KEY, whose value is the index. */
static const ferry_json *raw_of(const json_t *v, const fy_json_raw *raw)
{
    if (!raw || json_object_size(v) != 1) return NULL;
    void *it = json_object_iter((json_t *)v);
    if (json_object_iter_key_len(it) != sizeof FY_JSON_RAW_KEY - 1 ||
        memcmp(json_object_iter_key(it), FY_JSON_RAW_KEY, sizeof FY_JSON_RAW_KEY - 1) != 0)
        return NULL;
    json_t *index = json_object_iter_value(it);
    if (!json_is_integer(index) || json_integer_value(index) < 0 || (size_t)json_integer_value(index) >= raw->count)
        return NULL;
    return raw->values[json_integer_value(index)];
}

static bool put_value(ferry_buffer *out, const json_t *v, int precision, const fy_json_raw *raw, int depth)
{
    if (!v || depth > 2048) return false;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const ferry_json *scene_value = raw_of(v, raw);
        if (scene_value) return put_scene_value(out, scene_value, precision, 0);
        out_u8(out, '{');
        bool first = true;
        for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
            if (!first) out_u8(out, ',');
            first = false;
            put_text(out, json_object_iter_key(it), json_object_iter_key_len(it));
            out_u8(out, ':');
            if (!put_value(out, json_object_iter_value(it), precision, raw, depth + 1)) return false;
        }
        out_u8(out, '}');
        return true;
    }
    case JSON_ARRAY: {
        out_u8(out, '[');
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) {
            if (i) out_u8(out, ',');
            if (!put_value(out, json_array_get(v, i), precision, raw, depth + 1)) return false;
        }
        out_u8(out, ']');
        return true;
    }
    case JSON_STRING: put_text(out, json_string_value(v), json_string_length(v)); return true;
    case JSON_INTEGER: put_integer(out, json_integer_value(v)); return true;
    case JSON_REAL: put_real(out, json_real_value(v), precision); return true;
    case JSON_TRUE: out_bytes(out, "true", 4); return true;
    case JSON_FALSE: out_bytes(out, "false", 5); return true;
    case JSON_NULL: out_bytes(out, "null", 4); return true;
    }
    return false;
}

bool fy_json_dump_compact(const json_t *v, int precision, const fy_json_raw *raw, ferry_buffer *out)
{
    size_t start = out->size;
    if (put_value(out, v, precision ? precision : 17, raw, 0) && !out->failed) return true;
    if (!out->failed) out->size = start;
    return false;
}
