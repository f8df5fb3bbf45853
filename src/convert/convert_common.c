/* Shared by every converter between a format and ferry_scene: the JSON
 * extras, scene allocation, and the entry and exit every
 * ferry_X_to_scene goes through (convert_internal.h). */
#include "convert_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- extras ---- */

ferry_json *fy_jreal_or_null(ferry_arena *arena, double v)
{
    return isfinite(v) ? fy_jreal(arena, v) : fy_jnull(arena);
}

ferry_json *fy_jfloats(ferry_arena *arena, const float *v, size_t n)
{
    ferry_json *a = fy_jarray(arena);
    for (size_t i = 0; i < n; i++) fy_jpush(arena, a, fy_jreal_or_null(arena, v[i]));
    return a;
}

ferry_json *fy_jdoubles(ferry_arena *arena, const double *v, size_t n)
{
    ferry_json *a = fy_jarray(arena);
    for (size_t i = 0; i < n; i++) fy_jpush(arena, a, fy_jreal_or_null(arena, v[i]));
    return a;
}

/* ---- scene memory ---- */

const uint8_t *fy_scene_take_buffer(ferry_arena *arena, ferry_buffer *buffer)
{
    uint8_t *data = buffer->data;
    if (!data || buffer->failed || !fy_arena_adopt(arena, data, buffer->size)) {
        ferry_buffer_free(buffer);
        return NULL;
    }
    memset(buffer, 0, sizeof *buffer);
    return data;
}

void *fy_scene_alloc(ferry_arena *arena, ferry_error *err, size_t count, size_t size)
{
    if (count == 0) count = 1;
    if (size != 0 && count > SIZE_MAX / size) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "scene too large");
        return NULL;
    }
    void *p = ferry_arena_alloc(arena, count * size);
    if (!p) fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the scene");
    return p;
}

/* ---- entry and exit ---- */

bool fy_convert_args(ferry_error **err, ferry_error *local_err, bool has_out, const void *input, const char *input_name)
{
    if (!*err) *err = local_err;
    fy_error_clear(*err);
    if (!has_out || !input) {
        fy_error_set(*err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "no %s given", has_out ? input_name : "output");
        return false;
    }
    return true;
}

bool fy_convert_begin(ferry_error **err, ferry_error *local_err, ferry_scene **out, const void *input,
                      const char *input_name)
{
    if (out) *out = NULL;
    return fy_convert_args(err, local_err, out != NULL, input, input_name);
}

ferry_scene *fy_scene_new(ferry_error *err)
{
    ferry_arena *arena = ferry_arena_create(0);
    ferry_scene *s = arena ? ferry_arena_alloc(arena, sizeof *s) : NULL;
    if (!s) {
        ferry_arena_destroy(arena);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        return NULL;
    }
    s->arena = arena;
    return s;
}

ferry_result fy_convert_end(ferry_scene *s, bool ok, ferry_scene **out, ferry_error *err)
{
    if (!ok) {
        if (err->code == FERRY_OK) fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the scene");
        ferry_result r = err->code;
        if (s) ferry_arena_destroy(s->arena);
        return r;
    }
    *out = s;
    return FERRY_OK;
}
