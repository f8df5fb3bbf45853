/* Shared by the converters from game formats to ferry_scene (src/convert):
 * extras (ferry_json, built with scene_json.h), scene memory, the converters' entry and exit
 * (convert_common.c) and the math (core_math.h). Each converter with more
 * than one file has its own header on top (alo_scene_internal.h,
 * alm_scene_internal.h). docs/formats/gltf-export.md describes every
 * mapping decision made here. */
#ifndef FERRY_CONVERT_INTERNAL_H
#define FERRY_CONVERT_INTERNAL_H

#include <ferry/convert.h>

#include "../core/core.h"
#include "../core/core_math.h"
#include "../scene/scene_json.h"
#include "../scene/scene_ref.h"

/* ---- extras ---- */

/* Extras are built as data (ferry_json) straight into the scene's arena
 * with the makers of scene_json.h (fy_jobject, fy_jset, ...); each
 * converter function that builds them names the arena `ja`. */
/* A real; not finite: null (JSON has no NaN). */
ferry_json *fy_jreal_or_null(ferry_arena *arena, double v);
/* An array of reals (non-finite ones null). */
ferry_json *fy_jfloats(ferry_arena *arena, const float *v, size_t n);
ferry_json *fy_jdoubles(ferry_arena *arena, const double *v, size_t n);
/* Items or members of an array or object; 0 for NULL. */
static inline size_t fy_jcount(const ferry_json *v) { return v ? v->count : 0; }

/* Zeroed memory for `count` items of `size` bytes in a scene's arena (at
 * least one item, so empty arrays are not NULL); sets err (NOMEM) and
 * returns NULL on overflow or failure. Every converter allocates with it. */
void *fy_scene_alloc(ferry_arena *arena, ferry_error *err, size_t count, size_t size);
/* An encoded image's bytes made the scene's without a copy (the arena
 * adopts the buffer's memory); NULL when it cannot (the buffer freed). The
 * buffer is left empty either way. */
const uint8_t *fy_scene_take_buffer(ferry_arena *arena, ferry_buffer *buffer);

/* ---- the entry and exit of every ferry_X_to_scene ---- */

/* The entry checks of every conversion: `*err` made usable (local_err when
 * NULL) and cleared; FERRY_ERR_ARGUMENT, "no output given" or "no
 * INPUT_NAME given", when there is no output or no input. */
bool fy_convert_args(ferry_error **err, ferry_error *local_err, bool has_out, const void *input, const char *input_name);
/* The same for a to_scene converter, *out set to NULL first. False when
 * the converter must return (*err)->code. */
bool fy_convert_begin(ferry_error **err, ferry_error *local_err, ferry_scene **out, const void *input,
                      const char *input_name);
/* Options zero-initialised (the defaults) where the caller gave none. */
#define FY_OPTIONS_OR_DEFAULTS(options, storage) \
    ((options) ? (options) : (memset(&(storage), 0, sizeof(storage)), &(storage)))
/* A new scene in its own arena (scene->arena); NULL with err set (NOMEM). */
ferry_scene *fy_scene_new(ferry_error *err);
/* The exit: on success *out = s; on failure the scene is destroyed and
 * err's code returned (NOMEM "out of memory building the scene" if
 * nothing more precise was set). */
ferry_result fy_convert_end(ferry_scene *s, bool ok, ferry_scene **out, ferry_error *err);

#endif
