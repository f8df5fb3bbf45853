/* Conversions between game formats and the format-neutral scene: the only
 * place where formats and the scene meet. */
#ifndef FERRY_CONVERT_H
#define FERRY_CONVERT_H

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/particle.h>
#include <ferry/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ferry_alo_scene_options {
    /* Where the model was read from: textures are looked up beside it and
     * in ../Textures (ferry_alamo_find_texture). NULL: no texture lookup. */
    const char *model_path;
    const char *const *texture_dirs; /* further folders to search */
    size_t texture_dir_count;
    bool skip_textures; /* do not look textures up or embed them */
    /* Leave out what the game does not draw: meshes marked hidden or on a
     * hidden bone, shadow volumes, collision meshes, and level-of-detail or
     * alternate meshes other than the first (_LOD1.., _ALT1..). By default
     * everything is kept and marked in extras. */
    bool game_view;
    /* Animations of this model, each becoming a glTF animation named
     * animation_names[i] (NULL names: "animation N"). */
    const ferry_ala_animation *const *animations;
    const char *const *animation_names;
    size_t animation_count;
    /* Warnings (a texture not found or not decodable, ...), may be NULL. */
    ferry_diagnostics *diagnostics;
} ferry_alo_scene_options;

/* An ALO model (with its animations and textures) as a scene. Alamo is
 * Z-up: a root node turns it Y-up (docs/formats/gltf-export.md). */
ferry_result ferry_alo_to_scene(const ferry_alo_model *model, const ferry_alo_scene_options *options,
                                ferry_scene **out, ferry_error *err);

/* A particle system as a scene: a node per emitter, the system's data in extras. */
ferry_result ferry_particle_to_scene(const ferry_particle_system *system, ferry_scene **out, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
