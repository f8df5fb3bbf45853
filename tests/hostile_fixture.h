/* Inputs built in memory that the tests bound by a count (a cap reached)
 * and bench/bench_hostile.c times: one builder for both, so that the
 * benchmark measures what the tests check.
 *
 *   hostile_skin_mesh   an ALM mesh whose skinned positions the validator
 *                       cannot rule out of overflowing (test_alm_bad_input)
 *   emitter_init, stream, bursts
 *                       hand-built particle emitters (test_particle_sim) */
#ifndef FERRY_TEST_HOSTILE_FIXTURE_H
#define FERRY_TEST_HOSTILE_FIXTURE_H

#include <ferry/alm.h>
#include <ferry/particle.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* F frames and P positions, each on one bone, at y = 2e38 (near the float
 * limit) under a bone that doubles x in every frame: their bounds cannot
 * rule an overflow out, but none overflows. Trying each position in each
 * frame is F x P evaluations. */
typedef struct hostile_skin_mesh {
    ferry_alm_mesh mesh;
    ferry_alm_bone bone;
    ferry_alm_component *components;
    ferry_alm_vector *positions;
    double *frames;
} hostile_skin_mesh;

/* False when memory runs out (nothing left to free). */
static inline bool hostile_skin_mesh_make(hostile_skin_mesh *h, uint32_t frames, uint32_t positions)
{
    memset(h, 0, sizeof *h);
    h->components = calloc(positions, sizeof *h->components);
    h->positions = calloc(positions, sizeof *h->positions);
    h->frames = calloc((size_t)frames * 16, sizeof *h->frames);
    if (!h->components || !h->positions || !h->frames) {
        free(h->components), free(h->positions), free(h->frames);
        return false;
    }
    h->bone.parent = -1;
    for (int i = 0; i < 4; i++) h->bone.transform[5 * i] = 1;
    for (uint32_t i = 0; i < positions; i++) {
        h->components[i].coords[1] = 2e38;
        h->components[i].coords[3] = 1;
        h->positions[i].components = &h->components[i];
        h->positions[i].count = 1;
    }
    for (uint32_t f = 0; f < frames; f++) {
        for (int i = 0; i < 4; i++) h->frames[16 * f + 5 * i] = 1;
        h->frames[16 * f] = 2;
    }
    h->mesh.version = 10;
    h->mesh.bones = &h->bone;
    h->mesh.bone_count = 1;
    h->mesh.positions = h->positions;
    h->mesh.position_count = positions;
    h->mesh.frames = h->frames;
    h->mesh.frame_count = frames;
    h->mesh.frame_rate = 30;
    return true;
}

static inline void hostile_skin_mesh_free(hostile_skin_mesh *h)
{
    free(h->components);
    free(h->positions);
    free(h->frames);
}

/* An emitter emitting nothing: exact groups at 0, lifetime L (no
 * randomness), white, size 1, no connections. */
static inline void emitter_init(ferry_particle_emitter *e, float lifetime)
{
    memset(e, 0, sizeof *e);
    ferry_particle_properties *p = &e->properties;
    p->present[0] = FERRY_PARTICLE_PRESENT_USUAL_0;
    p->present[1] = FERRY_PARTICLE_PRESENT_USUAL_1;
    p->lifetime = lifetime;
    p->blend_mode = 2;
    p->texture_elements = 1;
    e->groups[FERRY_PARTICLE_GROUP_LIFETIME].type = FERRY_PARTICLE_GROUP_BOX;
    e->groups[FERRY_PARTICLE_GROUP_LIFETIME].min[1] = lifetime;
    e->groups[FERRY_PARTICLE_GROUP_LIFETIME].max[1] = lifetime;
    for (int t = 0; t < 4; t++) e->tracks[t].first_byte = e->tracks[t].last_byte = 255;
    e->tracks[FERRY_PARTICLE_TRACK_SIZE].first = e->tracks[FERRY_PARTICLE_TRACK_SIZE].last = 1;
    e->death_emitter = e->birth_emitter = -1;
    e->name = "hand";
}

static inline void stream(ferry_particle_emitter *e, uint32_t per_second, float delay)
{
    e->properties.in_bursts = 0;
    e->properties.particles_per_second = per_second;
    e->properties.initial_delay = delay;
}

static inline void bursts(ferry_particle_emitter *e, uint32_t per_burst, uint32_t count, float burst_delay,
                          float delay)
{
    e->properties.in_bursts = 1;
    e->properties.particles_per_burst = per_burst;
    e->properties.bursts = count;
    e->properties.burst_delay = burst_delay;
    e->properties.initial_delay = delay;
}

#endif
