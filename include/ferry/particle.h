/* Alamo object files (.ALO) holding a particle system (root chunk 0x900):
 * emitters with their properties, property groups (random volumes for
 * initial velocity, lifetime and position) and tracks (values over a
 * particle's lifetime).
 *
 * The system is plain data. A system read from bytes lives in one arena and
 * is released with ferry_particle_free; a system built by hand may point
 * anywhere, since the writer only reads it. Everything the reader does not
 * interpret (unknown chunks and mini-chunks, the order of children and of
 * the emitter property mini-chunks, bytes after fixed fields) is kept, so
 * ferry_particle_write reproduces a read file byte for byte.
 *
 * The later particle format of Universe at War (root chunk 0x1500) is
 * recognised and refused with FERRY_ERR_UNSUPPORTED.
 */
#ifndef FERRY_PARTICLE_H
#define FERRY_PARTICLE_H

#include <ferry/alamo.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Chunk types. Small numbers are reused at different depths; the parent
 * says which is meant. */
enum {
    FERRY_PARTICLE_SYSTEM = 0x900,       /* root container */
    FERRY_PARTICLE_UAW_SYSTEM = 0x1500,  /* Universe at War root: unsupported */
    FERRY_PARTICLE_NAME = 0x0,           /* in 0x900: string */
    FERRY_PARTICLE_ID = 0x1,             /* in 0x900: uint32 */
    FERRY_PARTICLE_PERSISTENCE = 0x2,    /* in 0x900: uint8 */
    FERRY_PARTICLE_EMITTERS = 0x800,     /* in 0x900: container of 0x700 */
    FERRY_PARTICLE_EMITTER = 0x700,
    FERRY_PARTICLE_PROPERTIES = 0x2,     /* in 0x700: mini-chunks */
    FERRY_PARTICLE_COLOR_TEXTURE = 0x3,  /* in 0x700: string */
    FERRY_PARTICLE_TRACKS = 0x1,         /* in 0x700: container of 0x0/0x1 pairs */
    FERRY_PARTICLE_TRACK_HEADER = 0x0,   /* in 0x1: mini-chunks 02, 03, 04 */
    FERRY_PARTICLE_TRACK_KEYS = 0x1,     /* in 0x1: mini-chunks 05 */
    FERRY_PARTICLE_EMITTER_NAME = 0x16,  /* in 0x700: string */
    FERRY_PARTICLE_GROUPS = 0x29,        /* in 0x700: container of three 0x1100 */
    FERRY_PARTICLE_GROUP = 0x1100,
    FERRY_PARTICLE_GROUP_DATA = 0x1101,  /* 64 bytes */
    FERRY_PARTICLE_CONNECTIONS = 0x36,   /* in 0x700: mini-chunks 0x37, 0x39 */
    FERRY_PARTICLE_SECONDARY_TEXTURE = 0x45 /* in 0x700: string */
};

#define FERRY_PARTICLE_GROUP_DATA_SIZE 64
#define FERRY_PARTICLE_GROUP_COUNT 3
#define FERRY_PARTICLE_TRACK_COUNT 7
/* Tracks 0..3 (red, green, blue, alpha) store bytes; the rest floats. */
#define FERRY_PARTICLE_COLOR_TRACKS 4
/* "No emitter" in a birth or death connection. */
#define FERRY_PARTICLE_NO_EMITTER (-1)

typedef enum ferry_particle_group_id {
    FERRY_PARTICLE_GROUP_VELOCITY = 0,
    FERRY_PARTICLE_GROUP_LIFETIME = 1,
    FERRY_PARTICLE_GROUP_POSITION = 2
} ferry_particle_group_id;

typedef enum ferry_particle_group_type {
    FERRY_PARTICLE_GROUP_EXACT = 0,
    FERRY_PARTICLE_GROUP_BOX = 1,
    FERRY_PARTICLE_GROUP_CUBE = 2,
    FERRY_PARTICLE_GROUP_SPHERE = 3,
    FERRY_PARTICLE_GROUP_CYLINDER = 4
} ferry_particle_group_type;

typedef enum ferry_particle_track_id {
    FERRY_PARTICLE_TRACK_RED = 0,
    FERRY_PARTICLE_TRACK_GREEN = 1,
    FERRY_PARTICLE_TRACK_BLUE = 2,
    FERRY_PARTICLE_TRACK_ALPHA = 3,
    FERRY_PARTICLE_TRACK_SIZE = 4,
    FERRY_PARTICLE_TRACK_TEXTURE_INDEX = 5,
    FERRY_PARTICLE_TRACK_ROTATION_SPEED = 6
} ferry_particle_track_id;

typedef enum ferry_particle_interpolation {
    FERRY_PARTICLE_LINEAR = 0,
    FERRY_PARTICLE_COSINE = 1,
    FERRY_PARTICLE_STEP = 2
} ferry_particle_interpolation;

/* Largest value of each enumeration the format defines. */
#define FERRY_PARTICLE_BLEND_MODE_MAX 13        /* 0 opaque .. 13 alpha_scanlines */
#define FERRY_PARTICLE_GROUND_INTERACTION_MAX 3 /* nothing, die, bounce, stop */
#define FERRY_PARTICLE_EMIT_MODE_MAX 3          /* none, random vertex, random point, all vertices */

/* Emitter properties (chunk 0x2 of 0x700), one field per known mini-chunk
 * type (in the comments, hexadecimal: the specification numbers these
 * mini-chunks in decimal). Which were stored is in `present`; the file
 * order and unknown mini-chunks (e.g. 0x49) are in the emitter's
 * properties_layout. */
typedef struct ferry_particle_properties {
    uint32_t blend_mode;               /* 0x04: 0..FERRY_PARTICLE_BLEND_MODE_MAX */
    uint32_t primitive_type;           /* 0x05: 0 triangles, 1 quads */
    uint32_t unused1;                  /* 0x06 */
    uint8_t in_bursts;                 /* 0x07 */
    uint8_t link_to_system;            /* 0x08 */
    float inward_speed;                /* 0x09: one float (the spec says float[3]; real files store 4 bytes) */
    float acceleration[3];             /* 0x0a */
    float outward_acceleration;        /* 0x0b */
    float gravity;                     /* 0x0c */
    float lifetime;                    /* 0x0f: seconds */
    uint32_t texture_elements;         /* 0x10 */
    float unused2;                     /* 0x11: in the spec, in no real file */
    float randomized_scale;            /* 0x12 */
    float randomized_lifetime;         /* 0x13: fraction; lifetime ranges over [lifetime*(1-r), lifetime] */
    uint32_t index;                    /* 0x14: the emitter's own position in 0x800 */
    uint8_t unused3;                   /* 0x15 */
    float randomized_rotation;         /* 0x17 */
    uint8_t rotation_direction;        /* 0x23 */
    float initial_delay;               /* 0x24 */
    float burst_delay;                 /* 0x25 */
    uint32_t particles_per_burst;      /* 0x26 */
    uint32_t bursts;                   /* 0x27: 0 or 0xFFFFFFFF: until the emitter dies */
    float emitter_speed_mult;          /* 0x28 */
    uint32_t particles_per_second;     /* 0x2a */
    uint8_t unused4;                   /* 0x2b */
    float randomized_color[4];         /* 0x2c */
    uint8_t randomized_is_grayscale;   /* 0x2d */
    uint8_t not_billboarded;           /* 0x2e */
    uint32_t ground_interaction;       /* 0x2f: 0..FERRY_PARTICLE_GROUND_INTERACTION_MAX */
    float bounciness;                  /* 0x30 */
    uint8_t affected_by_wind;          /* 0x31 */
    float freeze_time;                 /* 0x32 */
    float skip_time;                   /* 0x33 */
    uint32_t emit_mode;                /* 0x34: 0..FERRY_PARTICLE_EMIT_MODE_MAX */
    uint8_t object_space_acceleration; /* 0x35 */
    uint8_t is_heat_particle;          /* 0x3b */
    float emit_offset;                 /* 0x3c */
    uint8_t is_weather_particle;       /* 0x3d */
    float weather_cube_size;           /* 0x3e */
    float unused5;                     /* 0x3f */
    float unused6;                     /* 0x40 */
    uint8_t has_tail;                  /* 0x41 */
    float tail_size;                   /* 0x42 */
    uint8_t use_emitter_speed_mult;    /* 0x43 */
    uint8_t wind_disturbance;          /* 0x44 */
    uint8_t no_depth_test;             /* 0x46 */
    float weather_cube_distance;       /* 0x47 */
    uint8_t fixed_rotation;            /* 0x48 */
    /* Bit t of present[t / 64]: mini-chunk type t is stored. The writer
     * writes exactly the fields whose bit is set. */
    uint64_t present[4];
} ferry_particle_properties;

/* The 47 properties every real file stores (all known types but 0x11), as
 * present[0] and present[1]: a system built by hand starts from these. */
#define FERRY_PARTICLE_PRESENT_USUAL_0 0xF83FFDF800BD9FF0ull
#define FERRY_PARTICLE_PRESENT_USUAL_1 0x00000000000001DFull

static inline bool ferry_particle_property_present(const ferry_particle_properties *p, uint8_t type)
{
    return (p->present[type / 64] >> (type % 64)) & 1u;
}

/* A property group (0x1100 holding 0x1101): a volume values are drawn from. */
typedef struct ferry_particle_group {
    uint32_t type;            /* ferry_particle_group_type */
    float min[3], max[3];     /* box */
    float side_length;        /* cube, centred on the origin */
    float sphere_radius;      /* sphere, centred on the origin */
    uint32_t sphere_surface;  /* non-zero: on the surface only */
    float cylinder_radius;    /* cylinder, bottom circle centred on the origin, z in [0, height] */
    uint32_t cylinder_surface; /* non-zero: on the curved surface only */
    float cylinder_height;
    float value[3];           /* exact */
    ferry_blob extra;         /* 0x1101 after its 64 bytes (NULL data: none) */
    ferry_chunk_layout layout; /* children of 0x1100 */
    uint64_t offset, data_offset; /* of 0x1100 and 0x1101 */
} ferry_particle_group;

/* A key of a track's key list (mini-chunk 05: value, then time). */
typedef struct ferry_particle_key {
    float time;         /* fraction of the particle's lifetime */
    float value;        /* float tracks (size, texture index, rotation speed) */
    uint32_t int_value; /* colour tracks (stored as uint32; 0..255 in real files) */
    uint64_t offset;    /* of the mini-chunk header */
} ferry_particle_key;

/* A track: the value at t = 0 and t = 1 (header 0x0: 02, 03) and the keys
 * between (0x1), joined by one interpolation (04). */
typedef struct ferry_particle_track {
    uint8_t first_byte, last_byte; /* colour tracks: 1-byte mini-chunks */
    float first, last;             /* float tracks */
    uint32_t interpolation;        /* ferry_particle_interpolation */
    ferry_particle_key *keys;
    size_t key_count;
    ferry_mini_layout header_layout, keys_layout;
    uint64_t header_offset, keys_offset;
} ferry_particle_track;

typedef struct ferry_particle_emitter {
    ferry_particle_properties properties; /* 0x2 */
    ferry_mini_layout properties_layout;
    const char *color_texture;     /* 0x3; NULL: chunk absent */
    const char *name;              /* 0x16; NULL: chunk absent */
    ferry_particle_group groups[FERRY_PARTICLE_GROUP_COUNT]; /* 0x29: velocity, lifetime, position */
    ferry_chunk_layout groups_layout;
    ferry_particle_track tracks[FERRY_PARTICLE_TRACK_COUNT]; /* 0x1 */
    ferry_chunk_layout tracks_layout;
    int32_t death_emitter;         /* 0x36 mini 0x37: index in the system, or -1 */
    int32_t birth_emitter;         /* 0x36 mini 0x39: index in the system, or -1 */
    /* The emitter stores no 0x36 chunk (death and birth are then -1). Every
     * known file has one, but one without is read rather than refused, and
     * written back without it. */
    bool no_connections;
    ferry_mini_layout connections_layout;
    const char *secondary_texture; /* 0x45; NULL: chunk absent */
    ferry_chunk_layout layout;     /* children of 0x700 */
    uint64_t offset, properties_offset, groups_offset, tracks_offset, connections_offset;
} ferry_particle_emitter;

typedef struct ferry_particle_system {
    const char *name;    /* 0x0: the file name without extension */
    uint32_t id;         /* 0x1: editor-internal */
    uint8_t persistence; /* 0x2: particles outlive the system when non-zero */
    /* The system stores no 0x2 chunk (persistence then reads 0). Real files
     * of an older editor omit it (P_LAVA_BUBBLES.ALO of a released mod); it
     * is read, and written back without the chunk. */
    bool no_persistence;
    ferry_blob id_extra, persistence_extra; /* bytes after the fields (NULL data: none) */
    ferry_particle_emitter *emitters;       /* 0x800 */
    size_t emitter_count;
    ferry_chunk_layout emitters_layout;     /* children of 0x800 */
    ferry_chunk_layout layout;              /* children of 0x900 */
    ferry_chunk_layout file_layout;         /* top-level chunks: 0x900, then any kept after it */
    const ferry_string_tail *string_tails;
    size_t string_tail_count;
    uint64_t offset, emitters_offset;
    ferry_arena *arena; /* owner of a read system; NULL for one built by hand */
} ferry_particle_system;

/* ---- reading and writing ---- */

/* Reads a particle file (first chunk 0x900). A model, an animation or a
 * Universe at War particle file (0x1500) is refused as unsupported. */
FERRY_API ferry_result ferry_particle_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                           ferry_particle_system **out, ferry_error *err);
FERRY_API void ferry_particle_free(ferry_particle_system *system);

/* Appends the system's bytes to `out`. Fails on what cannot be encoded (a
 * count with no array behind it, a chunk over 2 GiB). */
FERRY_API ferry_result ferry_particle_write(const ferry_particle_system *system, ferry_buffer *out, ferry_error *err);

/* ---- validation ---- */

typedef struct ferry_particle_validate_options {
    /* Path or name of the file, as a label only (the library never opens
     * it): the system name must equal its base name without extension,
     * ignoring ASCII case. NULL skips the check. */
    const char *file_name;
    /* Called for each texture name; return false to report it missing (a
     * warning). NULL skips the check. */
    bool (*texture_exists)(const char *name, void *user);
    void *user;
} ferry_particle_validate_options;

/* Appends every problem found to `diags`; returns the number of errors. */
FERRY_API size_t ferry_particle_validate(const ferry_particle_system *system, const ferry_particle_validate_options *options,
                                         ferry_diagnostics *diags);

/* ---- evaluation ---- */

/* Value of a track at fraction t of a particle's lifetime (clamped to
 * [0, 1]; NaN counts as 0). The points are (0, first), the keys in list
 * order, then (1, last); t takes the segment from the last point at or
 * before it to the next, interpolated as the track says (an unknown
 * interpolation counts as linear). Colour tracks give their stored units
 * (0..255), as floats. */
FERRY_API float ferry_particle_track_value(const ferry_particle_track *track, bool color, float t);
/* The same for track `track` (ferry_particle_track_id) of an emitter; 0 when out of range. */
FERRY_API float ferry_particle_emitter_track_value(const ferry_particle_emitter *emitter, unsigned track, float t);

/* Where the lifetime group (groups[FERRY_PARTICLE_GROUP_LIFETIME]) keeps
 * the range of a particle's lifetime. The specification puts it in y: a box
 * with min = (0, low, 0), max = (0, high, 0). An older editor put it in x:
 * min = (low, 0, 0), max = (high, 0, 0) (48 of 239 systems of one released
 * mod, many in ../shared/corpus/alamo/icw). Both are read. */
typedef enum ferry_particle_lifetime_layout {
    FERRY_PARTICLE_LIFETIME_UNKNOWN = 0, /* not a box, or values on two axes or on z */
    FERRY_PARTICLE_LIFETIME_Y = 1,       /* the specification's layout (x and z all 0) */
    FERRY_PARTICLE_LIFETIME_X = 2        /* the older editor's layout (y and z all 0, x not) */
} ferry_particle_lifetime_layout;

FERRY_API ferry_particle_lifetime_layout ferry_particle_lifetime_layout_of(const ferry_particle_group *group);

/* The range a particle's lifetime is drawn from, in seconds: the lifetime
 * group's range on the axis its layout uses; when the group is in neither
 * layout, lifetime x (1 - randomized lifetime) .. lifetime from properties
 * 0x0f and 0x13 if both are stored, else 0..0. Returns the group's layout
 * (FERRY_PARTICLE_LIFETIME_UNKNOWN when the properties were used). */
FERRY_API ferry_particle_lifetime_layout ferry_particle_emitter_lifetime(const ferry_particle_emitter *emitter, float *min,
                                                                         float *max);

/* Pseudo-random state for drawing from groups (splitmix64): the caller owns
 * it, so draws are reproducible and threads need no locks. */
typedef struct ferry_particle_rng {
    uint64_t state;
} ferry_particle_rng;

FERRY_API ferry_particle_rng ferry_particle_rng_make(uint64_t seed);
FERRY_API uint64_t ferry_particle_rng_next(ferry_particle_rng *rng);
/* Uniform in [0, 1), 24 random bits. */
FERRY_API float ferry_particle_rng_float(ferry_particle_rng *rng);

/* A point drawn uniformly from the group's volume (or surface): exact gives
 * `value`; box, [min, max] per axis; cube, [-side/2, side/2]^3; sphere, the
 * ball or sphere of sphere_radius; cylinder, radius cylinder_radius around
 * the z axis, z in [0, cylinder_height], its curved surface when
 * cylinder_surface is set. An unknown type gives `value`. */
FERRY_API void ferry_particle_group_sample(const ferry_particle_group *group, ferry_particle_rng *rng, float out[3]);

#ifdef __cplusplus
}
#endif

#endif
