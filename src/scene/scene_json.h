/* Extras as data (ferry_json, scene.h): the bridge to jansson. Converters
 * and the glTF reader turn a jansson tree into a ferry_json in a scene's
 * arena once; the glTF writer turns a ferry_json into jansson once to
 * serialise it. Not a public header. */
#ifndef FERRY_SCENE_JSON_H
#define FERRY_SCENE_JSON_H

#include <ferry/scene.h>
#include <jansson.h>

/* A copy of `v` in the arena (strings and keys copied, order kept); NULL
 * when v is NULL or memory fails. */
ferry_json *fy_value_from_json(ferry_arena *arena, const json_t *v);

/* A new jansson tree for `v`. Strings and keys that are not UTF-8 keep
 * their ASCII and get '?' for every other byte (the writer's rule for
 * names). NULL with *problem set (a static text) when v cannot be written:
 * a real that is not finite, a key twice in one object, an unknown kind,
 * nesting deeper than FY_VALUE_MAX_DEPTH; NULL with *problem NULL when
 * memory fails. */
#define FY_VALUE_MAX_DEPTH 256
json_t *fy_value_to_json(const ferry_json *v, const char **problem);

#endif
