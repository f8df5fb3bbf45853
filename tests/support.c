#define _DEFAULT_SOURCE
#include "support.h"

#include "core/platform.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

bool test_dir_exists(const char *dir)
{
    fy_file_info info;
    return fy_path_info(dir, true, &info) == 0 && info.kind == FY_KIND_FOLDER;
}

bool test_path_exists(const char *path)
{
    fy_file_info info;
    return fy_path_info(path, false, &info) == 0;
}

bool test_make_dir(const char *path) { return fy_folder_make(path) == 0; }

bool test_remove_file(const char *path) { return fy_file_remove(path) == 0; }

bool test_remove_dir(const char *path) { return fy_folder_remove(path) == 0; }

bool test_remove_tree(const char *path)
{
    fy_file_info info;
    if (fy_path_info(path, false, &info) != 0) return true;
    if (info.kind != FY_KIND_FOLDER) return fy_file_remove(path) == 0;
    /* The names first, then the removals: a folder is not changed while it
     * is being listed. */
    char **names = NULL;
    size_t count = 0, cap = 0;
    fy_folder *d;
    if (fy_folder_open(path, &d) == 0) {
        const char *name;
        fy_file_kind kind;
        while (fy_folder_next(d, &name, &kind)) {
            if (count == cap) {
                cap = cap ? cap * 2 : 16;
                names = realloc(names, cap * sizeof *names);
            }
            names[count++] = strdup(name);
        }
        fy_folder_close(d);
    }
    for (size_t i = 0; i < count; i++) {
        size_t need = strlen(path) + strlen(names[i]) + 2;
        char *sub = malloc(need);
        fy_path_join(sub, need, path, names[i]);
        test_remove_tree(sub);
        free(sub);
        free(names[i]);
    }
    free(names);
    return fy_folder_remove(path) == 0;
}

/* The system's folder for temporaries: $TMPDIR or /tmp; on Windows %TEMP%
 * or %TMP% (under wine, the wine prefix's C:\users\NAME\Temp). */
static const char *temp_base(void)
{
#ifdef _WIN32
    const char *names[] = {"TEMP", "TMP"};
    const char *fallback = ".";
#else
    const char *names[] = {"TMPDIR", "TMPDIR"};
    const char *fallback = "/tmp";
#endif
    for (size_t i = 0; i < 2; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return v;
    }
    return fallback;
}

bool test_make_temp_dir(const char *name, char *out, size_t cap)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned long long state;
    if (!state) state = ((unsigned long long)time(NULL) << 20) ^ (unsigned long long)fy_process_id() ^ 0x9e3779b97f4a7c15ull;
    for (int attempt = 0; attempt < 100; attempt++) {
        char tail[7];
        for (int i = 0; i < 6; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            tail[i] = letters[(state >> 33) % (sizeof letters - 1)];
        }
        tail[6] = '\0';
        char leaf[256];
        snprintf(leaf, sizeof leaf, "%s-%s", name, tail);
        int n = fy_path_join(out, cap, temp_base(), leaf);
        if (n < 0 || (size_t)n >= cap) break;
        int code = fy_folder_make(out);
        if (code == 0) return true;
        if (!fy_sys_exists(code)) break;
    }
    if (cap) out[0] = '\0';
    return false;
}

bool test_output_dir(const char *name, char *out, size_t cap, bool *keep)
{
    const char *outputs = getenv("FERRY_TEST_OUTPUTS");
    *keep = outputs && *outputs;
    if (!*keep) return test_make_temp_dir(name, out, cap);
    int n = fy_path_join(out, cap, outputs, name);
    if (n < 0 || (size_t)n >= cap) {
        if (cap) out[0] = '\0';
        return false;
    }
    test_remove_tree(out);
    fy_folder_make(outputs);
    return fy_folder_make(out) == 0;
}

static void collect(const char *dir, const char *suffix, char ***paths, size_t *count, size_t *cap)
{
    fy_folder *d;
    if (fy_folder_open(dir, &d) != 0) return;
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) {
        if (name[0] == '.') continue;
        size_t need = strlen(dir) + strlen(name) + 2;
        char *path = malloc(need);
        snprintf(path, need, "%s/%s", dir, name);
        if (test_dir_exists(path)) {
            collect(path, suffix, paths, count, cap);
            free(path);
            continue;
        }
        size_t n = strlen(name), s = strlen(suffix);
        if (n >= s && strcasecmp(name + n - s, suffix) == 0) {
            if (*count == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *paths = realloc(*paths, *cap * sizeof **paths);
            }
            (*paths)[(*count)++] = path;
        } else {
            free(path);
        }
    }
    fy_folder_close(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

size_t test_list_files(const char *dir, const char *suffix, char ***paths)
{
    size_t count = 0, cap = 0;
    *paths = NULL;
    collect(dir, suffix, paths, &count, &cap);
    if (count) qsort(*paths, count, sizeof **paths, cmp_str);
    return count;
}

void test_free_paths(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++) free(paths[i]);
    free(paths);
}

uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) *size = (size_t)n;
    return buf;
}

/* ---- extras: ferry_json <-> jansson, independently of the library ---- */

static json_t *extras_to_jansson(const ferry_json *v)
{
    switch (v->kind) {
    case FERRY_JSON_NULL: return json_null();
    case FERRY_JSON_BOOL: return json_boolean(v->boolean);
    case FERRY_JSON_INTEGER: return json_integer((json_int_t)v->integer);
    case FERRY_JSON_REAL: return isfinite(v->real) ? json_real(v->real) : json_null();
    case FERRY_JSON_STRING: {
        json_t *s = json_stringn(v->string, v->length);
        return s ? s : json_string("(not UTF-8)");
    }
    case FERRY_JSON_ARRAY: {
        json_t *a = json_array();
        for (size_t i = 0; i < v->count; i++) json_array_append_new(a, extras_to_jansson(v->items[i]));
        return a;
    }
    case FERRY_JSON_OBJECT: {
        json_t *o = json_object();
        for (size_t i = 0; i < v->count; i++)
            json_object_setn_new(o, v->members[i].key, v->members[i].key_length, extras_to_jansson(v->members[i].value));
        return o;
    }
    }
    return json_null();
}

const char *test_extras_text(const ferry_json *extras)
{
    static char *ring[64];
    static size_t next;
    if (!extras) return NULL;
    json_t *j = extras_to_jansson(extras);
    char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9) | JSON_ENCODE_ANY);
    json_decref(j);
    free(ring[next]);
    ring[next] = text;
    next = (next + 1) % 64;
    return text;
}

static ferry_arena *parse_arena;

static bool extras_from_jansson(ferry_json *out, json_t *j)
{
    memset(out, 0, sizeof *out);
    switch (json_typeof(j)) {
    case JSON_NULL: out->kind = FERRY_JSON_NULL; return true;
    case JSON_TRUE:
    case JSON_FALSE: out->kind = FERRY_JSON_BOOL, out->boolean = json_is_true(j); return true;
    case JSON_INTEGER: out->kind = FERRY_JSON_INTEGER, out->integer = json_integer_value(j); return true;
    case JSON_REAL: out->kind = FERRY_JSON_REAL, out->real = json_real_value(j); return true;
    case JSON_STRING:
        out->kind = FERRY_JSON_STRING, out->length = json_string_length(j);
        out->string = ferry_arena_memdup(parse_arena, json_string_value(j), out->length + 1);
        return out->string != NULL;
    case JSON_ARRAY: {
        out->kind = FERRY_JSON_ARRAY, out->count = json_array_size(j);
        const ferry_json **items = ferry_arena_alloc(parse_arena, (out->count + 1) * sizeof *items);
        if (!items) return false;
        for (size_t i = 0; i < out->count; i++) {
            ferry_json *item = ferry_arena_alloc(parse_arena, sizeof *item);
            if (!item || !extras_from_jansson(item, json_array_get(j, i))) return false;
            items[i] = item;
        }
        out->items = items;
        return true;
    }
    case JSON_OBJECT: {
        out->kind = FERRY_JSON_OBJECT, out->count = json_object_size(j);
        ferry_json_member *m = ferry_arena_alloc(parse_arena, (out->count + 1) * sizeof *m);
        if (!m) return false;
        size_t i = 0;
        for (void *it = json_object_iter(j); it; it = json_object_iter_next(j, it), i++) {
            m[i].key_length = json_object_iter_key_len(it);
            m[i].key = ferry_arena_memdup(parse_arena, json_object_iter_key(it), m[i].key_length + 1);
            ferry_json *value = ferry_arena_alloc(parse_arena, sizeof *value);
            if (!m[i].key || !value || !extras_from_jansson(value, json_object_iter_value(it))) return false;
            m[i].value = value;
        }
        out->members = m;
        return true;
    }
    }
    return false;
}

const ferry_json *test_extras_parse(const char *text)
{
    if (!parse_arena) parse_arena = ferry_arena_create(0);
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
    if (!j || !parse_arena) return NULL;
    ferry_json *v = ferry_arena_alloc(parse_arena, sizeof *v);
    bool ok = v && extras_from_jansson(v, j);
    json_decref(j);
    return ok ? v : NULL;
}

void test_alo_scene_paths(ferry_alo_scene_options *o, const char *path, const char *const *dirs, size_t dir_count,
                          char *name, size_t name_size, ferry_alamo_texture_folders *folders)
{
    memset(folders, 0, sizeof *folders);
    const char *base = path ? path : "";
    for (const char *p = base; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    const char *dot = strrchr(base, '.');
    int len = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    snprintf(name, name_size, "%.*s", len, base);
    o->name = name;
    ferry_error err;
    o->texture_places = ferry_alamo_texture_folders_open(path, dirs, dir_count, folders, &err) == FERRY_OK
                            ? &folders->places
                            : NULL;
}
