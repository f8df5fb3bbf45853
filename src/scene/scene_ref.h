/* A scene's optional references (scene.h: `X` is used only when `has_X`)
 * as the signed index the converters and the glTF code compute with: -1
 * for none. Not a public header. */
#ifndef FERRY_SCENE_REF_H
#define FERRY_SCENE_REF_H

#include <ferry/scene.h>

/* The reference `field` of *obj: its index, or -1 when it has none. An
 * int64_t, so that every uint32_t index stays itself for range checks. */
#define FY_REF(obj, field) ((obj)->has_##field ? (int64_t)(obj)->field : (int64_t)-1)

static inline void fy_ref_set(bool *has, uint32_t *field, int64_t index)
{
    *has = index >= 0;
    *field = index >= 0 ? (uint32_t)index : 0u;
}

/* Sets the reference `field` of *obj to `index` (negative: none, index 0). */
#define FY_SET_REF(obj, field, index) fy_ref_set(&(obj)->has_##field, &(obj)->field, (index))

#endif
