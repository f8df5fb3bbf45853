/* Conversions between game formats and the format-neutral scene: the only
 * place where formats and the scene meet. */
#ifndef FERRY_CONVERT_H
#define FERRY_CONVERT_H

#include <ferry/ala.h>
#include <ferry/alm.h>
#include <ferry/alo.h>
#include <ferry/image.h>
#include <ferry/odol.h>
#include <ferry/particle.h>
#include <ferry/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ferry_alo_scene_options {
    /* The scene's name, and its axis root node's ("NAME (Z-up to Y-up)");
     * NULL or "": "model". A caller with the model's file names it by the
     * file's base name without extension. */
    const char *name;
    /* Where textures are found, as file sources (ferry_alamo_texture_find):
     * the model's source, the folder above and further places. NULL: no
     * texture lookup (nothing embedded, nothing reported missing). The
     * library opens no folder itself: a caller holding paths opens them
     * as sources first (ferry_alamo_texture_folders_open, alamo.h). */
    const ferry_alamo_texture_places *texture_places;
    bool skip_textures; /* do not look textures up or embed them */
    /* By default the scene holds what the game draws when the model first
     * appears: meshes marked hidden or on a hidden bone, shadow volumes,
     * collision meshes, every level of detail but the most detailed (the
     * highest _LOD<n> of each group) and alternates _ALT1 and up are left
     * out (their names are listed in the scene's extras). `all` keeps every
     * mesh, each one the game does not draw marked in its extras
     * ("not_drawn": the reasons). */
    bool all;
    /* Animations of this model, each becoming a glTF animation named
     * animation_names[i] (NULL names: "animation N"). */
    const ferry_ala_animation *const *animations;
    const char *const *animation_names;
    size_t animation_count;
    /* Warnings (a texture not found or not decodable, ...), may be NULL. */
    ferry_diagnostics *diagnostics;
    struct ferry_alo_scene_report *report; /* filled on success, may be NULL */
    ferry_png_effort png_effort; /* how the embedded textures are encoded */
    /* Every bone a joint of a skin even when no exported mesh is skinned
     * (ALO models, ALM meshes): importers that make bones only of skins'
     * joints (Blender's) then make one armature, its animations one
     * action. The skin is used by no mesh then. */
    bool skin_all_bones;
    /* A colorize shader's faction-colour mask (its base texture's alpha)
     * is by default a grey image of its own, named by the material's
     * extras ("faction_mask"); with this set, neither: for an importer that
     * makes nothing of an image no material slot uses (Blender's), it would
     * be decoded and written for nothing. */
    bool no_faction_masks;
    /* Textures in the game's own formats, for an importer on this machine
     * that reads DDS and TGA itself (Blender's): an image the scene holds
     * as its file has it (a normal map, a plain base texture) found as a
     * file of the disk (its source's disk_path) is referred to where it
     * lies (ferry_scene_image.linked_path), once ferry decodes it (its
     * smallest level); a colorize shader's colour from a DXT texture is
     * embedded as the DXT1 DDS of its colour blocks, every texel opaque
     * ("image/vnd-ms.dds"), nothing decoded. The others (an additive
     * shader's, the mask, a TGA's colour, a DXT1 colour with transparent
     * texels) are PNGs as before; a texture inside an archive is never
     * linked. */
    bool native_textures;
} ferry_alo_scene_options;

/* What ferry_alo_to_scene made and left out, filled on success. */
typedef struct ferry_alo_scene_report {
    size_t meshes;          /* mesh objects in the scene */
    size_t meshes_left_out; /* meshes the game does not draw, left out (0 with `all`) */
    /* Texture names the materials give that were not found, each once, in
     * first-use order; the strings live in the scene's arena (valid until
     * ferry_scene_free). */
    const char *const *missing_textures;
    size_t missing_texture_count;
} ferry_alo_scene_report;

/* An ALO model (with its animations and textures) as a scene. Alamo is
 * Z-up: a root node turns it Y-up (docs/formats/gltf-export.md). */
FERRY_API ferry_result ferry_alo_to_scene(const ferry_alo_model *model, const ferry_alo_scene_options *options,
                                          ferry_scene **out, ferry_error *err);

typedef struct ferry_particle_scene_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_particle_scene_options;

/* A particle system as a scene: a node per emitter, the system's data in
 * extras. `options` may be NULL (defaults). */
FERRY_API ferry_result ferry_particle_to_scene(const ferry_particle_system *system,
                                               const ferry_particle_scene_options *options, ferry_scene **out,
                                               ferry_error *err);

/* ---- ALM (progressive skinned meshes) ---- */

/* What ferry_alm_to_scene decided and lost, filled on success. */
typedef struct ferry_alm_scene_report {
    bool skinned;                /* standard skin (true) or frames baked as morph targets */
    const char *reason;          /* why morph targets, when not skinned (static text) */
    uint32_t vertex_count;       /* glTF vertices over all primitives */
    uint32_t triangle_count;
    uint32_t max_influences;     /* most bones on one position */
    uint32_t positions_truncated; /* positions with more than 4 influences */
    double max_dropped_weight;   /* largest weight left out by the 4-influence limit */
    uint32_t images;             /* PNG images embedded */
    /* With options->lod: the collapse records it applied (of the mesh's
     * collapse_count); 0 at full resolution. */
    uint32_t collapses_applied;
} ferry_alm_scene_report;

typedef struct ferry_alm_scene_options {
    const char *name; /* scene, mesh and skin name; NULL: "alm" */
    /* A level of detail of this mesh (ferry_alm_lod_extract) to export
     * instead of the full resolution; NULL: full resolution. */
    const ferry_alm_lod *lod;
    /* Bake the frames as morph targets even when a standard skin would do. */
    bool force_morph;
    /* Morph weights step from frame to frame instead of blending linearly
     * (both are exact at the frames). */
    bool step_morph;
    /* Largest distance, relative to the mesh's rest-pose extent, by which a
     * position's per-bone vectors may miss being weighted copies of one
     * point and still become a standard skin. 0: 1e-5. */
    double skin_tolerance;
    ferry_alm_scene_report *report; /* may be NULL */
    ferry_diagnostics *diagnostics; /* warnings (textures not embedded, ...), may be NULL */
    ferry_png_effort png_effort;    /* how the embedded textures are encoded */
    bool skin_all_bones;            /* as ferry_alo_scene_options says */
} ferry_alm_scene_options;

/* An ALM mesh (at full resolution, or options->lod) as a scene: a node per bone, one primitive per material, a
 * standard skin when every position is a weighted copy of one point,
 * otherwise every frame as a morph target (docs/formats/alm.md, "glTF
 * export"). Bad references in the mesh are FERRY_ERR_MALFORMED errors
 * naming the record ("triangles[4]"). */
FERRY_API ferry_result ferry_alm_to_scene(const ferry_alm_mesh *mesh, const ferry_alm_scene_options *options,
                                          ferry_scene **out, ferry_error *err);

typedef struct ferry_alm_from_scene_options {
    /* Which of the scene's animations becomes the mesh's frames (an ALM
     * holds one): an index into scene->animations (0, the default: the
     * first); negative or past the last: none. */
    int32_t animation_index;
    /* How the collapse records are built (ferry_alm_build_collapses,
     * alm.h); zeroed: its defaults. */
    ferry_alm_build_options build;
} ferry_alm_from_scene_options;

/* A scene's triangle meshes as one ALM progressive mesh (version 10): the
 * nodes become bones (local TRS as the rest transform), every primitive is
 * taken at the rest pose, skinned vertices keep their weights as
 * animation-space vectors (weight times the inverse bind matrix times the
 * vertex), rigid ones hang on their node with weight 1; vertices on
 * bitwise-equal positions with the same skin share one ALM position. Then
 * ferry_alm_build_collapses adds the collapse records (options->build;
 * options may be NULL). docs/formats/alm.md, "Building progressive meshes". */
FERRY_API ferry_result ferry_alm_from_scene(const ferry_scene *scene, const ferry_alm_from_scene_options *options,
                                            ferry_alm_mesh **out, ferry_error *err);

/* ---- glTF (a scene) -> ALO model ---- */

/* A texture a mapped material names, made from a scene image. */
typedef struct ferry_alo_texture_ref {
    int32_t image;    /* index into the scene's images */
    const char *name; /* the name the material gives ("crate_wood.dds") */
    bool linear;      /* data, not colour (a normal map) */
} ferry_alo_texture_ref;

/* What ferry_alo_from_scene made, filled on success. */
typedef struct ferry_alo_from_scene_report {
    bool ferry_export;      /* the scene is ferry's own export (its axis root was recognised) */
    size_t bones, meshes, submeshes, triangles, vertices, lights, proxies;
    size_t materials;              /* distinct ALO materials made */
    size_t materials_from_extras;  /* of them, shader and parameters from ferry's extras */
    size_t materials_mapped;       /* of them, mapped from the glTF material */
    size_t primitives_split;       /* primitives split over 65,535 vertices or 24 palette bones */
    size_t vertices_reweighted;    /* skinned vertices that had weight on more than one joint */
    double dropped_weight_total;   /* sum over vertices of the weight not on the dominant joint */
    double dropped_weight_max;
    size_t collision_trees;        /* collision trees built (one per sub-mesh of a mesh with collision enabled) */
    size_t collision_disabled;     /* meshes whose collision was asked for but no tree could be built */
    size_t own_bones;              /* proxies and lights moved from their bone, given a bone of their own */
    size_t animations_not_converted; /* glTF animations (written as ALA files by the caller) */
    size_t warnings;
    /* The scene images the mapped materials name (each name once), so a
     * caller can write them as the game's textures
     * (ferry_alamo_texture_encode_dds); in the model's arena. Materials from
     * ferry's extras name the original files and add none. */
    const ferry_alo_texture_ref *textures;
    size_t texture_count;
} ferry_alo_from_scene_report;

typedef struct ferry_alo_from_scene_options {
    ferry_diagnostics *diagnostics; /* warnings (what was changed or lost), may be NULL */
    ferry_alo_from_scene_report *report; /* may be NULL */
} ferry_alo_from_scene_options;

/* A scene (typically read by ferry_gltf_read) as an ALO model in its own
 * arena (ferry_alo_free): nodes become bones (ferry's axis root removed;
 * other glTF turned from Y-up to Z-up), every mesh node a 0x400 mesh with
 * one sub-mesh per primitive (split at 65,535 vertices and 24 palette
 * bones; one bone per vertex, the dominant weight's), materials from
 * ferry's extras (shader and every parameter) or mapped to the common
 * shaders, lights, proxies and dazzles from their nodes. Animations are
 * not converted here. Non-triangle primitives, indices out of range,
 * non-finite positions and skin joints that are not bones are
 * FERRY_ERR_MALFORMED errors naming the place. docs/formats/gltf-import.md. */
FERRY_API ferry_result ferry_alo_from_scene(const ferry_scene *scene, const ferry_alo_from_scene_options *options,
                                            ferry_alo_model **out, ferry_error *err);

/* ---- ODOL (ArmA binarized P3D) ---- */

/* What ferry_odol_to_scene made, filled on success. */
typedef struct ferry_odol_scene_report {
    uint32_t lods;       /* LOD nodes */
    uint64_t triangles;  /* over every LOD (a quad counts two) */
    uint64_t points;     /* vertices of LODs without drawn faces, as points */
    uint32_t proxies;    /* proxy nodes */
    uint32_t materials;
    uint64_t normals_repaired; /* vertices whose zero stored normal was computed from their faces */
    /* Primitives of visual or view LODs that store no usable normals
     * (none, or one value for every vertex): all computed from the faces. */
    uint32_t normals_computed_primitives;
    uint32_t proxy_triangles;  /* proxy marker faces not drawn (the proxies are nodes) */
    uint32_t colors;           /* materials coloured by a procedural texture #(...)color(...) */
    /* Procedural textures that could not be read as a colour, and the first
     * of them with the reason ("TEXT: reason"; in the scene's arena). */
    uint32_t procedural_ignored;
    const char *procedural_problem;
    /* By default (neither `all` nor `lods`): the LOD shown; -1 otherwise,
     * and when the model has no visual LOD (every LOD was converted). A
     * shown LOD may have no faces (triangles 0): the game draws nothing up
     * close, the other LODs may hold the model. */
    int32_t visual_lod;
    /* With texture_roots: the distinct texture files the converted sections
     * name (colour textures and normal maps; procedural ones not counted),
     * how many of them were found, and the images embedded (one per file
     * and use). missing_textures lists those not found or not decodable,
     * each once, in first-use order (strings in the scene's arena, valid
     * until ferry_scene_free). */
    uint32_t textures;
    uint32_t textures_found;
    uint32_t images;
    /* With texture_roots: the distinct .rvmat files the converted sections
     * name, and how many were found and read (config.h). */
    uint32_t rvmats;
    uint32_t rvmats_read;
    const char *const *missing_textures;
    size_t missing_texture_count;
    /* The skeleton: skins made (one per LOD with vertex bone references),
     * joints in them (the bones, plus one static root per skin), glTF
     * animations made (one per animation class that moves a bone of a
     * skinned LOD), and classes left out because they move no bone of the
     * LODs converted (the first one's name; in the scene's arena). */
    uint32_t skins, joints, animations;
    uint32_t animations_unbound;
    const char *animation_unbound;
} ferry_odol_scene_report;

typedef struct ferry_odol_scene_options {
    const char *name; /* scene and root node name; NULL: "odol" */
    /* By default (zeroed options, or NULL) the scene holds what the game
     * draws at first sight: the most detailed visual LOD only (the lowest
     * resolution from 0 to 1000), or every LOD when the model has none.
     * `all` converts every LOD. */
    bool all;
    /* The LODs to convert, by index, in place of the default or `all`
     * (NULL: not chosen). Each at most once; an index out of range is a
     * FERRY_ERR_ARGUMENT error. */
    const uint32_t *lods;
    size_t lod_count;
    /* Where the textures the sections name are found (ferry_odol_find_files,
     * odol.h): each found one is decoded (its largest mipmap) and embedded
     * as PNG, as the base colour, and the normal map its material record
     * names (else its .rvmat file, found and read the same way) as the
     * normal texture. NULL: textures stay paths in extras. */
    const ferry_odol_root *texture_roots;
    size_t texture_root_count;
    /* Warnings (a texture not found or not decodable), may be NULL. */
    ferry_diagnostics *diagnostics;
    ferry_odol_scene_report *report; /* may be NULL */
    /* The skeleton becomes a skin, and each animation class a glTF
     * animation sweeping its range; `no_animations` leaves the animations
     * out (the skin stays). */
    bool no_animations;
    ferry_png_effort png_effort; /* how the embedded textures are encoded */
} ferry_odol_scene_options;

/* An ODOL model as a scene: a root node, under it a node per LOD converted
 * (the game's view by default, every LOD with `all`, see the options)
 * named by its resolution (ferry_odol_resolution_name, repeats numbered
 * "(2)"...) with a primitive per section, proxies as its children,
 * selections and properties in its extras; points for LODs without faces. The engine's
 * left-handed axes become glTF's by negating z: their models face -z, glTF's
 * face +z (docs/formats/odol-gltf.md). Proxy triangles are not drawn; a
 * zero stored normal is computed from the vertex's faces; a procedural
 * colour texture becomes the material's base colour, a texture found in
 * options->texture_roots its base colour texture. The skeleton becomes
 * a skin per LOD with vertex bone references (proxies on bones hang from
 * their joints), each animation class a 2 s animation sweeping its range
 * (docs/formats/odol-gltf.md, "Skeleton and animations"). Indices out of range
 * and non-finite positions, normals, UVs or proxy matrices are
 * FERRY_ERR_MALFORMED errors naming the record ("lods[2]/faces[7]"). */
FERRY_API ferry_result ferry_odol_to_scene(const ferry_odol_model *model, const ferry_odol_scene_options *options,
                                           ferry_scene **out, ferry_error *err);

/* ---- scene animations -> ALA (docs/formats/gltf-import.md, "Animations") ---- */

/* What ferry_ala_from_scene did, filled on success. */
typedef struct ferry_ala_from_scene_report {
    double fps;              /* the rate the animation was sampled at */
    bool fps_assumed;        /* no rate given nor in extras: 30 */
    uint32_t frames;
    size_t tracks;           /* bones written (those a channel or visibility drives) */
    size_t channels_used;
    size_t channels_ignored; /* on nodes that are not bones, morph weights, empty, repeated */
    size_t values_repaired;  /* non-finite key values replaced by the node's rest value */
    size_t step_frames;      /* step bits set, over every bone */
} ferry_ala_from_scene_report;

typedef struct ferry_ala_from_scene_options {
    /* Which of the scene's animations to convert: an index into
     * scene->animations (0, the default: the first). One past the last is
     * a FERRY_ERR_ARGUMENT error. */
    size_t animation_index;
    uint8_t format; /* 1 or 2 (ferry_ala_format); 0: format 2 */
    /* Frames per second to sample at; 0: the animation's extras "fps" (ferry's
     * export), else 30. */
    double fps;
    /* The model's bones in order (the game binds tracks by index): tracks
     * find their nodes by these names, ignoring ASCII case. NULL: the
     * scene's bones as ferry_ala_scene_bones lists them. */
    const char *const *bone_names;
    size_t bone_count;
    ferry_diagnostics *diagnostics; /* warnings (what was ignored or repaired), may be NULL */
    ferry_ala_from_scene_report *report; /* may be NULL */
} ferry_ala_from_scene_options;

/* The scene's animation options->animation_index as an ALA animation (its own
 * arena: ferry_ala_free). Each bone's channels are evaluated at every frame
 * (LINEAR, STEP and CUBICSPLINE as glTF defines them; the node's rest value
 * where a path has no channel), bones hanging on a non-bone node are turned
 * from glTF's Y-up into Alamo's Z-up (nothing changes under ferry's axis
 * root), translations and scales are quantized per bone and axis over the
 * range used (offset = minimum, scale = range / 65535), rotations to int16;
 * step bits where every moving channel of a bone holds through a frame,
 * visibility from ferry's extras. Problems with what the animation targets
 * (nodes that are not bones, non-finite values, morph weights) are warnings
 * saying what was done; key times not increasing, an unusable rate, more
 * than a million frames or (format 2) more than 8192 bones are located errors
 * ("animations[i]"). */
FERRY_API ferry_result ferry_ala_from_scene(const ferry_scene *scene, const ferry_ala_from_scene_options *options,
                                            ferry_ala_animation **out, ferry_error *err);

/* The scene's bones as ferry_alo_from_scene makes them, in its bone order,
 * as node indices: every node except ferry's axis root, nodes ferry's
 * extras call meshes or dazzles, skinned mesh nodes, and proxies and lights
 * at their parent's place (gltf-import.md, "Nodes"), in node order; a
 * glTF without ferry's axis root first gets the model's added Root bone,
 * listed as -1 (no node). Writes at most `capacity` (nodes may be NULL
 * with 0) and returns how many there are. */
FERRY_API size_t ferry_ala_scene_bones(const ferry_scene *scene, int32_t *nodes, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
