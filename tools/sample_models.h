/* The samples ferry bundles under samples/ (models, animations for them and
 * a particle system), built by hand through the public API.
 * tools/make_samples.c writes them; tests/test_alo_samples.c rebuilds them
 * and checks the committed files still match, so this is the one definition
 * of what the samples hold.
 *
 * Between them the samples use every chunk type of <ferry/alo.h>, including
 * those no real file in the corpus has (0x205 bones, 0x10005 vertices, INT
 * and FLOAT3 shader parameters, dazzles). Their geometry is sane (unit
 * normals, tangent frames that follow the UVs, outward winding) so that
 * they also serve as examples of what a correct model looks like.
 */
#ifndef FERRY_TOOLS_SAMPLE_MODELS_H
#define FERRY_TOOLS_SAMPLE_MODELS_H

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/particle.h>

typedef struct sample_model {
    const char *file;      /* path under the samples directory, e.g. "alamo/crate.alo" */
    ferry_alo_model model; /* built by hand: layouts empty, arena NULL */
    ferry_arena *storage;  /* owns every array the model points to */
} sample_model;

/* A textured, collidable crate: one mesh with a collision tree, three bones,
 * an object connection and a proxy. */
void sample_build_crate(sample_model *out);
/* A skinned figure: 0x205 and 0x206 bones, a bone mapping, lights of all
 * three types, proxies with and without their optional fields, dazzles. */
void sample_build_walker(sample_model *out);
/* The older chunk variants: 0x205 bones only, 0x10005 vertices, INT and
 * FLOAT3 shader parameters, one mesh with two sub-meshes. */
void sample_build_legacy(sample_model *out);

void sample_model_free(sample_model *sample);

typedef void (*sample_builder)(sample_model *out);

/* Every sample, in a fixed order. */
extern const sample_builder sample_builders[];
extern const size_t sample_builder_count;

/* ---- animations ----
 * Both drive walker.alo by its bone indices and names (the root left out,
 * as in real files). Each loops: the last frame equals the first. Their
 * rotations are exact rational unit quaternions, correctly rounded to the
 * stored integers; their translations and scales are dyadic steps. */

typedef struct sample_animation {
    const char *file;          /* path under the samples directory */
    sample_builder model;      /* builds the model the animation is for */
    ferry_ala_animation anim;  /* built by hand: layouts empty, arena NULL */
    ferry_arena *storage;
} sample_animation;

/* Format 2, 16 frames at 15 fps: translation, rotation and scale columns
 * (0x100a, 0x1009, 0x100b), bones without a rotation track (one with a
 * default rotation other than the identity), step bits on the exhaust,
 * visibility bits on the beacon. */
void sample_build_walker_walk(sample_animation *out);
/* Format 1, 11 frames at 10 fps: per-bone 0x1004 and 0x1006 tracks, two
 * one-quaternion rotations, a 0x1005 scale track, 0x1007 and 0x1008 bits. */
void sample_build_walker_idle(sample_animation *out);

void sample_animation_free(sample_animation *sample);

typedef void (*sample_animation_builder)(sample_animation *out);
extern const sample_animation_builder sample_animation_builders[];
extern const size_t sample_animation_builder_count;

/* ---- particle systems ---- */

typedef struct sample_particles {
    const char *file;              /* path under the samples directory; its base name is the system name */
    ferry_particle_system system;  /* built by hand: layouts empty, arena NULL */
    ferry_arena *storage;
} sample_particles;

/* p_walker_exhaust, the system walker.alo's proxy P_Walker_Exhaust names:
 * a smoke stream (cylinder position, box velocity) whose dying particles
 * start a burst emitter (sphere-surface position, exact velocity); every
 * track has keys, and linear, cosine and step interpolation all occur. */
void sample_build_walker_exhaust(sample_particles *out);

void sample_particles_free(sample_particles *sample);

typedef void (*sample_particles_builder)(sample_particles *out);
extern const sample_particles_builder sample_particles_builders[];
extern const size_t sample_particles_builder_count;

#endif
