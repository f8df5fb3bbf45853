/* Simulating an Alamo particle system over time, and drawing it.
 *
 * A simulation holds every live particle of a system (structure of arrays,
 * allocated once at creation: no allocation per particle) and advances it
 * to any later time. The state at a time T does not depend on how the
 * time was stepped to T: emission times are exact (never rounded to a
 * frame), each particle's motion is a closed form of its age (constant
 * acceleration between ground contacts, contacts solved exactly), and each
 * particle's random draws come from its own identity, not from the order of
 * events. Every decision where the specification is silent is in
 * docs/formats/alo-particle.md ("Simulation"). */
#ifndef FERRY_PARTICLE_SIM_H
#define FERRY_PARTICLE_SIM_H

#include <ferry/image.h>
#include <ferry/particle.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ferry_particle_sim ferry_particle_sim;

typedef struct ferry_particle_sim_options {
    uint64_t seed;
    /* Where the system is placed (column-major 4x4, as glTF; the
     * translation in elements 12..14). Ignored unless has_transform. */
    float transform[16];
    bool has_transform;
    float wind[3];      /* world units/second, added to particles affected by wind */
    float ground_z;     /* the ground plane z = ground_z (world space) */
    bool no_ground;     /* true: no ground, ground interaction never happens */
    /* Limits (0: the default). Reaching one sets a warning and finishes.
     * All arrays are allocated at creation, sized by these. */
    size_t max_particles;       /* live particles at once; default 100000, at most 2^28 */
    size_t max_emitters;        /* live emitter instances at once; default 4096, at most 2^24 */
    unsigned max_spawn_depth;   /* generations spawned through connections; default 6, at most 16 */
    double max_rate;            /* particles/second of one emitter instance; default 20000 */
} ferry_particle_sim_options;

/* Warnings: bits of ferry_particle_sim_warnings(). */
enum {
    FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES = 1u << 0, /* particles not created: the pool was full */
    FERRY_PARTICLE_SIM_WARN_MAX_EMITTERS = 1u << 1,  /* birth/death emitters not started: too many live */
    FERRY_PARTICLE_SIM_WARN_MAX_DEPTH = 1u << 2,     /* birth/death emitters not started: too deep (a loop) */
    FERRY_PARTICLE_SIM_WARN_MAX_RATE = 1u << 3,      /* a rate (or burst delay) bounded */
    FERRY_PARTICLE_SIM_WARN_SKIPPED = 1u << 4,       /* emissions of one step over the work bound left out */
    FERRY_PARTICLE_SIM_WARN_NONFINITE = 1u << 5,     /* a NaN or infinite value replaced */
    FERRY_PARTICLE_SIM_WARN_NO_ROOT = 1u << 6        /* every emitter is a connection target: all start */
};
#define FERRY_PARTICLE_SIM_WARN_COUNT 7

/* Creates a simulation at time 0 (nothing advanced yet: call
 * ferry_particle_sim_advance). The system must outlive the simulation.
 * Fails only for lack of memory or a NULL system. */
FERRY_API ferry_result ferry_particle_sim_create(const ferry_particle_system *system,
                                                 const ferry_particle_sim_options *options, ferry_particle_sim **out,
                                                 ferry_error *err);
FERRY_API void ferry_particle_sim_free(ferry_particle_sim *sim);

/* Advances to `time` seconds (absolute, from the system's creation). A
 * time before the current one, or not finite, does nothing. */
FERRY_API void ferry_particle_sim_advance(ferry_particle_sim *sim, double time);
FERRY_API double ferry_particle_sim_time(const ferry_particle_sim *sim);
/* The system being simulated. */
FERRY_API const ferry_particle_system *ferry_particle_sim_system(const ferry_particle_sim *sim);

/* Bits FERRY_PARTICLE_SIM_WARN_*, accumulated since creation. */
FERRY_API unsigned ferry_particle_sim_warnings(const ferry_particle_sim *sim);
/* A sentence for one bit ("particle limit reached: ..."); NULL for others. */
FERRY_API const char *ferry_particle_sim_warning_text(unsigned bit);

/* One live particle, as drawn at the current time. */
typedef struct ferry_particle_state {
    uint64_t id;            /* stable for the particle's life; the same for every stepping */
    uint32_t emitter;       /* index of its emitter in the system */
    uint32_t depth;         /* 0: emitted by a root emitter; n: through n connections */
    double birth_time;      /* seconds */
    float position[3];      /* world space (the options' transform applied) */
    float velocity[3];
    float size;             /* world units: the sprite's width and height */
    float color[4];         /* r, g, b, a in 0..1 */
    float rotation;         /* radians, counter-clockwise on screen */
    float age, lifetime;    /* seconds */
    uint32_t frame;         /* texture element */
} ferry_particle_state;

FERRY_API size_t ferry_particle_sim_count(const ferry_particle_sim *sim);
/* Particle i (0 <= i < count; the order changes as particles die). Evaluates
 * the tracks (colour, size, rotation, texture index) at its age. */
FERRY_API void ferry_particle_sim_get(const ferry_particle_sim *sim, size_t i, ferry_particle_state *out);

/* The raw arrays (structure of arrays), valid until the next advance:
 * positions and velocities in world space. For fast readers. */
typedef struct ferry_particle_sim_arrays {
    size_t count;
    const float *px, *py, *pz, *vx, *vy, *vz, *age, *lifetime;
    const uint64_t *id;
    const uint32_t *emitter;
} ferry_particle_sim_arrays;
FERRY_API void ferry_particle_sim_get_arrays(const ferry_particle_sim *sim, ferry_particle_sim_arrays *out);

/* ---- drawing ---- */

/* Looks up a texture by the name an emitter gives; NULL when not found
 * (the particle is then drawn as a soft white glow). */
typedef const ferry_image *(*ferry_particle_texture_fn)(const char *name, void *user);

typedef struct ferry_particle_camera {
    float eye[3], target[3], up[3];
    float fov_y;           /* radians */
} ferry_particle_camera;

/* Frames a camera on a bounding box (min, max) from the default direction
 * (front right, above: Alamo is z-up), for an image of this aspect. */
FERRY_API void ferry_particle_camera_frame(const float min[3], const float max[3], float aspect,
                                           ferry_particle_camera *out);
/* The bounding box of the visible live particles: centres grown by half
 * their size times the square root of their opacity (faint sprites reach
 * less far); particles under 5% opacity are left out. False when none. */
FERRY_API bool ferry_particle_sim_bounds(const ferry_particle_sim *sim, float min[3], float max[3]);

typedef struct ferry_particle_render_options {
    uint32_t width, height;
    ferry_particle_camera camera;
    float background[3];             /* 0..1 */
    /* > 0: a checkerboard of cells this many pixels wide, alternating
     * `background` and `background2` (what is see-through shows on it,
     * whatever its grey); 0: `background` alone. */
    uint32_t checker;
    float background2[3];
    ferry_particle_texture_fn texture;
    void *user;
} ferry_particle_render_options;

/* How a sprite is laid over what is behind it, from its emitter's blend
 * mode (docs/formats/alo-particle.md, "Drawing"). With c the texel's colour
 * times the particle's colour and a the texel's alpha times the particle's
 * alpha, the colour behind, d, becomes: */
typedef enum ferry_particle_blend {
    FERRY_PARTICLE_BLEND_OPAQUE = 0, /* c where the texel's alpha is at least 0.5, else d (mode 0) */
    FERRY_PARTICLE_BLEND_ADD,        /* d + c a (modes 1, 4) */
    FERRY_PARTICLE_BLEND_ALPHA,      /* d + (c - d) a (modes 2, 5, 7, 10-13; any heat particle) */
    FERRY_PARTICLE_BLEND_MODULATE,   /* d (1 - a + c a) (modes 3, 6) */
    FERRY_PARTICLE_BLEND_DARKEN      /* d (1 - a) (modes 8, 9) */
} ferry_particle_blend;
FERRY_API ferry_particle_blend ferry_particle_blend_of(const ferry_particle_properties *properties);

/* One live particle as ferry_particle_render draws it: a quad in world
 * space, for a renderer of its own (a GPU). */
typedef struct ferry_particle_sprite {
    /* The corners in the sprite's own axes (the camera's right and up;
     * world +x and +y when not billboarded), turned by its rotation:
     * (-1, -1), (1, -1), (1, 1), (-1, 1), i.e. bottom left, bottom right,
     * top right, top left; a tail stretches the bottom two backwards along
     * the velocity. */
    float corners[4][3];
    /* Each corner's place in the emitter's whole colour texture: (0, 0)
     * is the image's top-left pixel corner, (1, 1) its bottom-right; the
     * four span the particle's texture element. */
    float uv[4][2];
    float color[4];      /* r, g, b, a in 0..1: multiplies the texel */
    float depth;         /* of its centre, along the view direction */
    uint32_t system;     /* index into the simulations given */
    uint32_t emitter;    /* index into that system's emitters */
    uint32_t frame;      /* its texture element */
    ferry_particle_blend blend;
} ferry_particle_sprite;

/* The sprites of the live particles of `sims` (NULL entries skipped) seen
 * from `camera`, back to front (far first), exactly those
 * ferry_particle_render_many draws: camera-facing (flat on the XY plane when
 * not billboarded), rotated, stretched by a tail. Particles behind the
 * camera, fully transparent or of no finite size are left out. *out is
 * malloc'd (free with ferry_particle_sprites_free), NULL when there are
 * none; fails only for lack of memory. */
FERRY_API ferry_result ferry_particle_sprites(const ferry_particle_sim *const *sims, size_t sim_count,
                                              const ferry_particle_camera *camera, ferry_particle_sprite **out,
                                              size_t *count, ferry_error *err);
FERRY_API void ferry_particle_sprites_free(ferry_particle_sprite *sprites);

/* What a sprite whose colour texture is not found shows (a soft round white
 * glow), as a side x side RGBA image (1 to 4096; free with
 * ferry_image_free), laid over the whole sprite (corners (0, 1), (1, 1),
 * (1, 0), (0, 0) of the image), whatever its texture element. */
FERRY_API ferry_result ferry_particle_glow_image(uint32_t side, ferry_image *out, ferry_error *err);

/* Draws the live particles into `out` (width x height RGBA, allocated
 * here; free with ferry_image_free): camera-facing sprites (flat on the XY
 * plane when not billboarded), back to front, each emitter's blend mode. */
FERRY_API ferry_result ferry_particle_render(const ferry_particle_sim *sim, const ferry_particle_render_options *options,
                                             ferry_image *out, ferry_error *err);
/* The same for several systems in one picture (e.g. those on a model's
 * proxies, each placed by its options' transform), sorted together; NULL
 * entries are skipped. */
FERRY_API ferry_result ferry_particle_render_many(const ferry_particle_sim *const *sims, size_t sim_count,
                                                  const ferry_particle_render_options *options, ferry_image *out,
                                                  ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
