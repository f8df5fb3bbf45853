/* Shared by the ALM -> scene converter's two files: alm_scene.c (skeleton,
 * geometry, skin or morph targets, animation) and alm_scene_material.c
 * (textures and tangent maps as PNG, materials). Not a public header. */
#ifndef FERRY_ALM_SCENE_INTERNAL_H
#define FERRY_ALM_SCENE_INTERNAL_H

#include "convert_internal.h"

typedef struct fy_alm_build {
    const ferry_alm_mesh *mesh;
    const ferry_alm_scene_options *opts;
    ferry_scene *scene;
    ferry_arena *arena;
    ferry_error *err;
    double *rest;             /* bone_count row-major 4x4 object-space rest transforms */
    int32_t *texture_image;   /* scene image of each ALM texture, or -1 */
    int32_t *tangent_image;   /* scene image of each tangent map, or -1 */
    double *tangent_scale;    /* per tangent map: the value that maps to 255 */
    /* Node of bone 0: 1 when a "skeleton" node above several root bones
     * comes first (glTF wants a skin's joints under one common root). */
    int32_t bone_node0;
} fy_alm_build;

/* Allocation in the scene arena; sets err (NOMEM) on failure. */
void *fy_alm_alloc(fy_alm_build *b, size_t count, size_t size);

/* alm_scene_material.c: every texture and tangent map as a PNG image, then
 * one scene material per ALM material. False with err set on failure. */
bool fy_alm_images(fy_alm_build *b);
bool fy_alm_materials(fy_alm_build *b);

#endif
