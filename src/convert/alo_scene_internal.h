/* Shared by the ALO converter's files (alo_scene*.c): its working state
 * and what each file offers the others. docs/formats/gltf-export.md. */
#ifndef FERRY_ALO_SCENE_INTERNAL_H
#define FERRY_ALO_SCENE_INTERNAL_H

#include "convert_internal.h"

#include <ferry/image.h>

/* A texture parameter's lookup, remembered so that each file is decoded
 * and embedded once and each missing name is reported once. */
/* How a texture file is embedded: as is, or changed for a kind of shader. */
typedef enum fy_texture_variant {
    FY_TEXTURE_PLAIN = 0,
    FY_TEXTURE_ADDITIVE = 1, /* alpha = brightest channel, colour divided by it */
    FY_TEXTURE_OPAQUE = 2,   /* alpha set to 1 (colorize shaders: alpha is a mask) */
    FY_TEXTURE_MASK = 3      /* the alpha channel as a grey image */
} fy_texture_variant;

typedef struct fy_texture_entry {
    char *name;  /* as the material names it (malloc'd) */
    int32_t image; /* scene image, or -1 when missing/undecodable */
    fy_texture_variant variant;
    bool missing; /* not found at all (reported once per name) */
    const char *unusable; /* found, but "could not be read" or "could not be decoded" (NULL: fine or missing) */
} fy_texture_entry;

typedef struct fy_alo_build {
    const ferry_alo_model *model;
    const ferry_alo_scene_options *opts;
    ferry_scene *scene;
    ferry_arena *arena;
    size_t node_capacity, mesh_capacity, material_capacity, image_capacity;
    int32_t root_node;    /* the Z-up to Y-up node */
    int32_t *bone_node;   /* node of each bone */
    float *bone_world;    /* Alamo model-space world matrix of each bone */
    int32_t skin;         /* the model's one skin, or -1 */
    uint8_t *lower_lod;   /* per mesh: a less detailed level of its _LOD group */
    size_t meshes_added, meshes_left_out;
    fy_texture_entry *textures;
    size_t texture_count, texture_capacity;
    char **image_paths; /* resolved path per scene image (malloc'd), for dedupe */
    /* The last texture file decoded, kept for its other variants (a
     * colorize shader asks for the colour, then the mask, of one file). */
    char *decoded_key;
    ferry_image decoded;
    ferry_error *err;
} fy_alo_build;

/* Allocation in the scene arena; sets err (NOMEM) on failure. */
void *fy_build_alloc(fy_alo_build *b, size_t count, size_t size);

/* alo_scene_material.c: a material for a sub-mesh; returns its index or -1 (err set). */
int32_t fy_alo_material(fy_alo_build *b, const ferry_alo_mesh *mesh, size_t submesh_index);
void fy_alo_textures_free(fy_alo_build *b);
/* Classes of shaders the converter cares about. */
bool fy_alo_shader_is(const char *shader, const char *word);

/* alo_scene_mesh.c: the scene mesh of an ALO mesh. skinned: the mesh is
 * bound to the model's skin (positions in model space); bone: the bone the
 * mesh hangs on (rigid sub-meshes of a skinned mesh are moved by its world
 * matrix). Returns the mesh index or -1 (err set). */
int32_t fy_alo_mesh(fy_alo_build *b, const ferry_alo_mesh *mesh, bool skinned, uint32_t bone);
bool fy_alo_mesh_is_skinned(const ferry_alo_mesh *mesh);
/* The model's skin: every bone a joint, inverse bind matrices from the rest pose. */
bool fy_alo_make_skin(fy_alo_build *b);

/* alo_scene_anim.c: one scene animation per ALA. */
bool fy_alo_animations(fy_alo_build *b);

/* Level of detail and alternate suffixes (_LOD<n>, _ALT<n>) into extras. */
void fy_json_name_tags(ferry_arena *ja, ferry_json *obj, const char *name);
/* The trailing _LOD<n> and _ALT<n> tags of a name, in either order, any
 * case (-1 when absent), and the length of the name before them. */
void fy_alo_name_tags(const char *name, long *lod, long *alt, size_t *base_length);

#endif
