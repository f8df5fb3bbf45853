/* Extras as data (ferry_json, scene.h): the builder the converters use to
 * make them in a scene's arena, the copy the glTF reader makes of a file's
 * extras, and the one bridge to jansson the glTF writer serialises with.
 * Not a public header. */
#ifndef FERRY_SCENE_JSON_H
#define FERRY_SCENE_JSON_H

#include <ferry/scene.h>
#include <jansson.h>

/* ---- building in an arena ----
 * Each maker returns a new value in `arena`, or NULL when memory fails or
 * the input cannot be a JSON value: fy_jstring(NULL or text that is not
 * UTF-8), fy_jreal(NaN or infinite). fy_jset and fy_jpush do nothing for a
 * NULL value (the key is left out), so a chain of makers needs no checks;
 * fy_jset replaces the value of a key already there, in its place.
 * Objects and arrays stay open: what is added to a value after it was put
 * into another is seen there too. Nothing is freed before the arena. */
ferry_json *fy_jobject(ferry_arena *arena);
ferry_json *fy_jarray(ferry_arena *arena);
ferry_json *fy_jstring(ferry_arena *arena, const char *text);
ferry_json *fy_jinteger(ferry_arena *arena, int64_t v);
ferry_json *fy_jreal(ferry_arena *arena, double v);
ferry_json *fy_jbool(ferry_arena *arena, bool v);
ferry_json *fy_jnull(ferry_arena *arena);
/* False (nothing added) when obj/array or v is NULL or memory fails. */
bool fy_jset(ferry_arena *arena, ferry_json *obj, const char *key, const ferry_json *v);
bool fy_jpush(ferry_arena *arena, ferry_json *array, const ferry_json *v);

/* ---- jansson ---- */

/* A copy of `v` in the arena (strings and keys copied, order kept); NULL
 * when v is NULL or memory fails. */
ferry_json *fy_json_from_jansson(ferry_arena *arena, const json_t *v);

/* A new jansson tree for `v`. Strings and keys that are not UTF-8 keep
 * their ASCII and get '?' for every other byte (the writer's rule for
 * names). NULL with *problem set (a static text) when v cannot be written:
 * a real that is not finite, a key twice in one object, an unknown kind, a
 * NULL item, nesting deeper than FY_JSON_MAX_DEPTH; NULL with *problem
 * NULL when memory fails. */
#define FY_JSON_MAX_DEPTH 256
json_t *fy_json_to_jansson(const ferry_json *v, const char **problem);
/* Whether fy_json_to_jansson would make `v`: false with *problem set as it
 * would set it (NULL: memory failed), without making anything (the glTF
 * writer checks a scene's extras whole before it converts them). */
bool fy_json_check(const ferry_json *v, const char **problem);

/* Scene values standing in a jansson tree, written from the scene's own
 * plain data rather than converted to jansson first (a glTF's extras): a
 * stand-in is an object of one member whose key is FY_JSON_RAW_KEY (a NUL
 * starts it: no name of a document has one) and whose value is an index
 * into `values`. */
#define FY_JSON_RAW_KEY "\0ferry:scene-value"
typedef struct fy_json_raw {
    const ferry_json *const *values;
    size_t count;
} fy_json_raw;

/* `v` as json_dumps writes it with JSON_COMPACT | JSON_ENSURE_ASCII |
 * JSON_REAL_PRECISION(precision) (0: 17), byte for byte, appended to `out`;
 * without its number formatting through snprintf for integers and its
 * callback per piece (a glTF's JSON is written for every export). Stand-ins
 * of `raw` (may be NULL) are written as fy_json_to_jansson's tree of their
 * value would be. False when memory fails or a value cannot be written
 * (out as it was, or failed). */
bool fy_json_dump_compact(const json_t *v, int precision, const fy_json_raw *raw, ferry_buffer *out);
/* A scene value written as json_dumps writes fy_json_to_jansson's tree of
 * it (compact, ASCII, `precision`); false for a value that conversion
 * refuses (fy_json_check first) or when memory fails. */
bool fy_json_dump_scene_value(const ferry_json *v, int precision, ferry_buffer *out);

#endif
