/* ODOL -> scene, the moving parts: the skeleton as a glTF skin and each
 * animation class as a glTF animation (odol_scene_anim.c), called by
 * odol_scene.c while it builds the LODs. docs/formats/odol-gltf.md,
 * "Skeleton and animations", gives every decision. */
#ifndef FERRY_ODOL_SCENE_ANIM_H
#define FERRY_ODOL_SCENE_ANIM_H

#include "convert_internal.h"

typedef struct fy_odol_anim fy_odol_anim;

/* Plans the skins of the LODs to convert (`lods`): a LOD gets a copy of the
 * skeleton when the model has one and the LOD stores bone references for
 * its vertices. Checks what it relies on (located FERRY_ERR_MALFORMED:
 * "lods[0]/vertex_bone_refs[5]", "animations/anims_to_bones[0][2]"),
 * allocates the scene's skins and adds the joint nodes it will make to
 * *extra_nodes. NULL with err set on failure. */
fy_odol_anim *fy_odol_anim_new(const ferry_odol_model *m, ferry_scene *s, const uint32_t *lods, size_t lod_count,
                               bool animations, size_t *extra_nodes, ferry_error *err);
void fy_odol_anim_free(fy_odol_anim *a);

/* Whether LOD l gets a skin. */
bool fy_odol_anim_skinned(const fy_odol_anim *a, uint32_t l);

/* JOINTS_0 and WEIGHTS_0 for a primitive of LOD l made from `faces`, whose
 * source vertex v became primitive vertex remap[v]. */
bool fy_odol_anim_skin_primitive(fy_odol_anim *a, uint32_t l, const uint32_t *faces, uint32_t face_count,
                                 const uint32_t *remap, ferry_scene_primitive *p);

/* After LOD l's node (lod_node, with its mesh) is made: the joint nodes
 * under it and its skin (set on the node when every primitive is skinned). */
bool fy_odol_anim_add_skeleton(fy_odol_anim *a, uint32_t l, int32_t lod_node);

/* The node a proxy of LOD l on skeleton bone `bone` hangs from: the bone's
 * joint (its pivot, glTF axes, in *pivot: subtract it from the proxy's
 * translation), or `lod_node` (pivot 0). */
int32_t fy_odol_anim_proxy_parent(const fy_odol_anim *a, uint32_t l, int32_t bone, int32_t lod_node, float pivot[3]);

/* After every LOD: one animation per class that moves a bone of a skinned
 * LOD. Fills the report's skins, joints and animations counts. */
bool fy_odol_anim_finish(fy_odol_anim *a, ferry_odol_scene_report *rep);

#endif
