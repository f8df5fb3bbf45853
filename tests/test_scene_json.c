/* The extras builder (src/scene/scene_json.c): what converters build with
 * and what it must reproduce of jansson's behaviour, since the exports
 * depend on it: a value that cannot be made is NULL and leaves its key out,
 * a key set again keeps its place with the new value, strings that are not
 * UTF-8 are refused, values added to an array after it was put into an
 * object are seen there. Then the bridge back to jansson and its text. */
#include <jansson.h>

#include "scene/scene_json.h"
#include "support.h"
#include "test.h"

static char *dump(const ferry_json *v)
{
    const char *problem;
    json_t *j = fy_json_to_jansson(v, &problem);
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9) | JSON_ENSURE_ASCII) : NULL;
    json_decref(j);
    return text;
}

static void test_builder(void)
{
    ferry_arena *ja = ferry_arena_create(0);
    ferry_json *x = fy_jobject(ja);
    ferry_json *list = fy_jarray(ja);
    CHECK(fy_jset(ja, x, "list", list)); /* filled after it was put in */
    CHECK(fy_jset(ja, x, "a", fy_jinteger(ja, 1)));
    CHECK(!fy_jset(ja, x, "nan", fy_jreal(ja, NAN)));          /* left out, as json_real(NaN) */
    CHECK(!fy_jset(ja, x, "latin1", fy_jstring(ja, "caf\xe9"))); /* left out, as json_string */
    CHECK(!fy_jset(ja, x, "none", fy_jstring(ja, NULL)));
    CHECK(!fy_jset(ja, x, "surrogate", fy_jstring(ja, "\xed\xa0\x80")));
    CHECK(!fy_jset(ja, x, "overlong", fy_jstring(ja, "\xc0\xaf")));
    CHECK(fy_jset(ja, x, "utf8", fy_jstring(ja, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")));
    CHECK(fy_jset(ja, x, "real", fy_jreal(ja, 2.0)));
    CHECK(fy_jset(ja, x, "a", fy_jbool(ja, false))); /* replaced in place */
    CHECK(fy_jset(ja, x, "n", fy_jnull(ja)));
    for (int i = 0; i < 20; i++) CHECK(fy_jpush(ja, list, fy_jinteger(ja, i)));
    CHECK(!fy_jpush(ja, x, fy_jnull(ja))); /* not an array */
    CHECK(!fy_jset(ja, list, "k", fy_jnull(ja))); /* not an object */
    CHECK_EQ_U(x->count, 5);
    char *text = dump(x);
    CHECK_MSG(text && strcmp(text, "{\"list\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19],\"a\":false,"
                                   "\"utf8\":\"\\u00E9\\u20AC\\uD83D\\uDE00\",\"real\":2.0,\"n\":null}") == 0,
              "%s", text ? text : "(null)");
    free(text);
    /* What jansson itself does with the same calls, for comparison. */
    json_t *j = json_object();
    json_t *jl = json_array();
    json_object_set_new(j, "list", jl);
    json_object_set_new(j, "a", json_integer(1));
    json_object_set_new(j, "nan", json_real(NAN));
    json_object_set_new(j, "latin1", json_string("caf\xe9"));
    json_object_set_new(j, "utf8", json_string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
    json_object_set_new(j, "real", json_real(2.0));
    json_object_set_new(j, "a", json_false());
    json_object_set_new(j, "n", json_null());
    for (int i = 0; i < 20; i++) json_array_append_new(jl, json_integer(i));
    char *want = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9) | JSON_ENSURE_ASCII);
    json_decref(j);
    text = dump(x);
    CHECK_MSG(text && want && strcmp(text, want) == 0, "%s != %s", text ? text : "", want ? want : "");
    free(text);
    free(want);
    CHECK(ferry_json_get(x, "a")->kind == FERRY_JSON_BOOL && ferry_json_get(x, "list")->count == 20);
    ferry_arena_destroy(ja);
}

/* A file's extras copied from jansson keep order, kinds and exact reals. */
static void test_from_jansson(void)
{
    ferry_arena *arena = ferry_arena_create(0);
    json_t *j = json_loads("{\"z\":1,\"a\":[1.0,0.1,null,\"x\\u0000y\"],\"big\":9223372036854775807}", JSON_ALLOW_NUL, NULL);
    ferry_json *v = fy_json_from_jansson(arena, j);
    json_decref(j);
    CHECK(v && v->kind == FERRY_JSON_OBJECT && v->count == 3);
    if (v && v->count == 3) {
        CHECK(v->members[0].key_length == 1 && v->members[0].key[0] == 'z');
        const ferry_json *a = ferry_json_get(v, "a");
        CHECK(a && a->count == 4 && a->items[0]->kind == FERRY_JSON_REAL && a->items[1]->real == 0.1);
        CHECK(a && a->items[3]->length == 3 && memcmp(a->items[3]->string, "x\0y", 3) == 0);
        CHECK(ferry_json_get(v, "big")->integer == INT64_MAX);
    }
    ferry_arena_destroy(arena);
}

/* fy_json_check finds exactly the problem fy_json_to_jansson would meet
 * first (the glTF writer checks with one and converts with the other):
 * keys repeated (also two non-UTF-8 keys that become the same), NaN and
 * NULL values before or after a repeat, objects of few and of many members. */
static void expect_same_problem(const ferry_json *v, const char *what)
{
    const char *by_check = NULL, *by_conversion = NULL;
    bool ok = fy_json_check(v, &by_check);
    json_t *j = fy_json_to_jansson(v, &by_conversion);
    CHECK_MSG(ok == (j != NULL), "%s: check %d, conversion %d", what, ok, j != NULL);
    CHECK_MSG((by_check == NULL) == (by_conversion == NULL) &&
                  (!by_check || strcmp(by_check, by_conversion) == 0),
              "%s: check says '%s', conversion '%s'", what, by_check ? by_check : "(none)",
              by_conversion ? by_conversion : "(none)");
    json_decref(j);
}

static void test_check(void)
{
    enum { MANY = 40 };
    static ferry_json values[MANY], nan_value, null_member_object;
    static ferry_json_member members[MANY];
    static char keys[MANY][8];
    for (int i = 0; i < MANY; i++) {
        values[i].kind = FERRY_JSON_INTEGER;
        values[i].integer = i;
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        members[i].key = keys[i];
        members[i].key_length = strlen(keys[i]);
        members[i].value = &values[i];
    }
    nan_value.kind = FERRY_JSON_REAL;
    nan_value.real = NAN;
    ferry_json object = {.kind = FERRY_JSON_OBJECT, .members = members};
    for (size_t count = 2; count <= MANY; count += MANY - 2) {
        object.count = count;
        expect_same_problem(&object, "distinct keys");
        members[count - 1].key = keys[0]; /* the last repeats the first */
        members[count - 1].key_length = strlen(keys[0]);
        expect_same_problem(&object, "a repeated key");
        members[count / 2].value = &nan_value; /* a NaN before the repeat */
        expect_same_problem(&object, "NaN, then a repeat");
        members[count / 2].value = &values[count / 2];
        members[count - 1].value = &nan_value; /* the repeat's own value NaN: the repeat is met first */
        expect_same_problem(&object, "a repeat holding NaN");
        members[count - 1].value = NULL;
        members[count - 1].key = keys[count - 1];
        members[count - 1].key_length = strlen(keys[count - 1]);
        expect_same_problem(&object, "a NULL value");
        members[count - 1].value = &values[count - 1];
    }
    /* Latin-1 keys become ASCII with '?': two of them may become one. */
    members[0].key = "caf\xe9";
    members[0].key_length = 4;
    members[1].key = "caf\xe8";
    members[1].key_length = 4;
    object.count = 2;
    expect_same_problem(&object, "two Latin-1 keys that become one");
    object.count = MANY;
    expect_same_problem(&object, "the same among many");
    members[1].key = "caf?";
    expect_same_problem(&object, "a Latin-1 key and its ASCII form");
    null_member_object.kind = FERRY_JSON_ARRAY;
    const ferry_json *items[2] = {&values[0], NULL};
    null_member_object.items = items;
    null_member_object.count = 2;
    expect_same_problem(&null_member_object, "a NULL item");
}

/* fy_json_dump_compact writes what json_dumps writes, byte for byte:
 * trees of every kind of value from a fixed pseudo-random sequence, with
 * reals across magnitudes and exponents, integers to both ends, strings
 * with escapes, control bytes, NUL, two-, three- and four-byte UTF-8. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static json_t *random_string(void)
{
    static const char *const pieces[] = {"a", "Z", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x01", "\x1f",
                                         "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbf",
                                         "\xc2\x80", "proxy:\\ca\\temp", " "};
    char buf[256];
    size_t n = 0, parts = rng() % 12;
    for (size_t i = 0; i < parts; i++) {
        const char *p = pieces[rng() % (sizeof pieces / sizeof pieces[0])];
        size_t len = strlen(p);
        if (n + len + 1 >= sizeof buf) break;
        memcpy(buf + n, p, len);
        n += len;
    }
    if (rng() % 8 == 0 && n + 1 < sizeof buf) buf[n++] = '\0'; /* a NUL inside */
    return json_stringn(buf, n);
}

static double random_real(void)
{
    switch (rng() % 6) {
    case 0: return (double)(float)((double)(int64_t)rng() / 9.2e18);
    case 1: return (double)(int32_t)(rng() % 2000000) - 1000000.0;
    case 2: return ldexp((double)(rng() % 1000000), (int)(rng() % 200) - 100);
    case 3: return -ldexp(1.0, (int)(rng() % 300) - 150);
    case 4: return rng() % 2 ? 0.0 : -0.0;
    default: return (double)(float)(1.0 / (double)(1 + rng() % 1000));
    }
}

static json_t *random_value(int depth)
{
    unsigned kind = depth > 4 ? (unsigned)(rng() % 6) : (unsigned)(rng() % 8);
    switch (kind) {
    case 0: return json_null();
    case 1: return json_boolean(rng() % 2);
    case 2: {
        static const json_int_t edges[] = {0, 1, -1, 9, 10, -10, INT64_MAX, INT64_MIN, 4294967295LL};
        return json_integer(rng() % 3 ? (json_int_t)(rng() >> (rng() % 64)) * (rng() % 2 ? 1 : -1)
                                      : edges[rng() % (sizeof edges / sizeof edges[0])]);
    }
    case 3:
    case 4: return json_real(random_real());
    case 5: return random_string();
    case 6: {
        json_t *a = json_array();
        for (size_t i = rng() % 6; i > 0; i--) json_array_append_new(a, random_value(depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (size_t i = rng() % 6; i > 0; i--) {
            json_t *key = random_string();
            json_object_setn_new(o, json_string_value(key), json_string_length(key), random_value(depth + 1));
            json_decref(key);
        }
        return o;
    }
    }
}

static void test_dump_compact(void)
{
    size_t same = 0, trees = 2000;
    for (size_t t = 0; t < trees; t++) {
        json_t *v = random_value(0);
        int precision = t % 3 == 0 ? 17 : 9;
        size_t flags = JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY | JSON_REAL_PRECISION(precision);
        char *want = json_dumps(v, flags);
        ferry_buffer got = {0};
        bool ok = fy_json_dump_compact(v, precision, NULL, &got);
        bool equal = ok && want && got.size == strlen(want) && memcmp(got.data, want, got.size) == 0;
        same += equal;
        if (!equal && same + 5 > t) /* the first few differences, in full */
            fprintf(stderr, "tree %zu: jansson %s\n  ours    %.*s\n", t, want ? want : "(null)", (int)got.size,
                    got.data ? (const char *)got.data : "");
        free(want);
        ferry_buffer_free(&got);
        json_decref(v);
    }
    CHECK_MSG(same == trees, "%zu of %zu trees written as jansson writes them", same, trees);
}

/* A scene value built by hand (as a program may: any bytes in strings and
 * keys), from the same sequence. */
static ferry_json *random_scene_value(ferry_arena *a, int depth)
{
    ferry_json *v = ferry_arena_alloc(a, sizeof *v);
    unsigned kind = depth > 4 ? (unsigned)(rng() % 5) : (unsigned)(rng() % 7);
    switch (kind) {
    case 0: v->kind = FERRY_JSON_NULL; break;
    case 1: v->kind = FERRY_JSON_BOOL; v->boolean = rng() % 2; break;
    case 2: v->kind = FERRY_JSON_INTEGER; v->integer = (int64_t)rng(); break;
    case 3: v->kind = FERRY_JSON_REAL; v->real = random_real(); break;
    case 4: {
        static const char *const pieces[] = {"ab", "\"", "\\", "\n", "\x01", "\xc3\xa9", "\xe9", "\xc0\xaf",
                                             "\xed\xa0\x80", "\xf0\x9f\x98\x80", "\xf4\x90\x80\x80", "\xff", "\0"};
        char buf[64];
        size_t n = 0;
        for (size_t i = rng() % 6; i > 0; i--) {
            size_t k = rng() % (sizeof pieces / sizeof pieces[0]);
            size_t len = k == 12 ? 1 : strlen(pieces[k]);
            if (n + len > sizeof buf) break;
            memcpy(buf + n, pieces[k], len);
            n += len;
        }
        v->kind = FERRY_JSON_STRING;
        v->string = ferry_arena_memdup(a, buf, n ? n : 1);
        v->length = n;
        break;
    }
    case 5: {
        v->kind = FERRY_JSON_ARRAY;
        v->count = rng() % 5;
        const ferry_json **items = ferry_arena_alloc(a, (v->count ? v->count : 1) * sizeof *items);
        for (size_t i = 0; i < v->count; i++) items[i] = random_scene_value(a, depth + 1);
        v->items = items;
        break;
    }
    default: {
        v->kind = FERRY_JSON_OBJECT;
        v->count = rng() % 5;
        ferry_json_member *m = ferry_arena_alloc(a, (v->count ? v->count : 1) * sizeof *m);
        for (size_t i = 0; i < v->count; i++) {
            static const char *const keys[] = {"name", "k\xe9y", "k\xe8y", "\xc3\xa9", "a\"b", "x"};
            const char *key = keys[rng() % (sizeof keys / sizeof keys[0])];
            char unique[32];
            snprintf(unique, sizeof unique, "%s%zu", key, i); /* mostly distinct; Latin-1 ones may meet */
            m[i].key = ferry_arena_strdup(a, rng() % 4 ? unique : key);
            m[i].key_length = strlen(m[i].key);
            m[i].value = random_scene_value(a, depth + 1);
        }
        v->members = m;
        break;
    }
    }
    return v;
}

/* A scene value written straight (fy_json_dump_scene_value, and as a
 * stand-in inside a jansson tree) is json_dumps' text of its conversion. */
static void test_dump_scene_values(void)
{
    size_t same = 0, refused_alike = 0, trees = 2000;
    for (size_t t = 0; t < trees; t++) {
        ferry_arena *a = ferry_arena_create(0);
        const ferry_json *v = random_scene_value(a, 0);
        const char *problem;
        json_t *j = fy_json_to_jansson(v, &problem);
        size_t flags = JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY | JSON_REAL_PRECISION(9);
        char *want = j ? json_dumps(j, flags) : NULL;
        /* Inside a document: {"before":1,"extras":<stand-in>,"after":[2]} */
        json_t *doc = json_object(), *stand_in = json_object();
        json_object_set_new(doc, "before", json_integer(1));
        json_object_setn_new(stand_in, FY_JSON_RAW_KEY, sizeof FY_JSON_RAW_KEY - 1, json_integer(0));
        json_object_set_new(doc, "extras", stand_in);
        json_object_set_new(doc, "after", json_pack("[i]", 2));
        const ferry_json *values[1] = {v};
        fy_json_raw raw = {values, 1};
        ferry_buffer got = {0}, in_doc = {0};
        if (!j) {
            /* What the writer's check refuses is never written. */
            refused_alike += !fy_json_check(v, &problem);
        } else if (fy_json_dump_scene_value(v, 9, &got) && fy_json_dump_compact(doc, 9, &raw, &in_doc)) {
            char *whole = malloc(strlen(want) + 64);
            sprintf(whole, "{\"before\":1,\"extras\":%s,\"after\":[2]}", want);
            same += got.size == strlen(want) && memcmp(got.data, want, got.size) == 0 && in_doc.size == strlen(whole) &&
                    memcmp(in_doc.data, whole, in_doc.size) == 0;
            if (same + 5 > t && !(got.size == strlen(want) && memcmp(got.data, want, got.size) == 0))
                fprintf(stderr, "value %zu: jansson %s\n  ours    %.*s\n", t, want, (int)got.size, (const char *)got.data);
            free(whole);
        }
        free(want);
        json_decref(j);
        json_decref(doc);
        ferry_buffer_free(&got);
        ferry_buffer_free(&in_doc);
        ferry_arena_destroy(a);
    }
    CHECK_MSG(same + refused_alike == trees, "%zu written alike, %zu refused alike, of %zu", same, refused_alike, trees);
    CHECK_MSG(same > trees / 2 && refused_alike > 10, "%zu written, %zu refused: the sample covers both", same,
              refused_alike);
}

int main(void)
{
    test_builder();
    test_from_jansson();
    test_check();
    test_dump_compact();
    test_dump_scene_values();
    TEST_END();
}
