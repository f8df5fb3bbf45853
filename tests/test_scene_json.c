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

int main(void)
{
    test_builder();
    test_from_jansson();
    TEST_END();
}
