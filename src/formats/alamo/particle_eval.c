/* What a particle system's data means at run time: track values over a
 * particle's lifetime, and points drawn from property groups. */
#include <ferry/particle.h>

#include <math.h>

#define PI 3.14159265358979323846

/* ---- tracks ---- */

/* Point i of the track: (0, first), the keys, (1, last). */
static void track_point(const ferry_particle_track *track, bool color, size_t i, double *x, double *y)
{
    size_t n = track->keys ? track->key_count : 0;
    if (i == 0) {
        *x = 0;
        *y = color ? track->first_byte : track->first;
    } else if (i <= n) {
        const ferry_particle_key *k = &track->keys[i - 1];
        *x = k->time;
        *y = color ? (double)k->int_value : (double)k->value;
    } else {
        *x = 1;
        *y = color ? track->last_byte : track->last;
    }
}

float ferry_particle_track_value(const ferry_particle_track *track, bool color, float t)
{
    if (!track) return 0;
    double at = t >= 0 ? (t <= 1 ? t : 1) : 0; /* NaN fails both tests: 0 */
    size_t n = track->keys ? track->key_count : 0, last = n + 1;
    /* The last point at or before t, so that of points sharing a time the
     * later one wins (a key at 0 overrides the first value, as a jump). */
    size_t seg = 0;
    for (size_t i = 1; i <= last; i++) {
        double x, y;
        track_point(track, color, i, &x, &y);
        if (x <= at) seg = i;
    }
    double x1, y1, x2, y2;
    track_point(track, color, seg, &x1, &y1);
    if (seg == last) return (float)y1;
    track_point(track, color, seg + 1, &x2, &y2);
    /* Keys out of order (or NaN) can leave no forward segment: hold the value. */
    if (!(x2 > x1)) return (float)y1;
    double f = (at - x1) / (x2 - x1);
    switch (track->interpolation) {
    case FERRY_PARTICLE_STEP: return (float)(at >= x2 ? y2 : y1);
    case FERRY_PARTICLE_COSINE: return (float)(y1 + (y2 - y1) * (1 - cos(PI * f)) / 2);
    default: return (float)(y1 + (y2 - y1) * f);
    }
}

float ferry_particle_emitter_track_value(const ferry_particle_emitter *emitter, unsigned track, float t)
{
    if (!emitter || track >= FERRY_PARTICLE_TRACK_COUNT) return 0;
    return ferry_particle_track_value(&emitter->tracks[track], track < FERRY_PARTICLE_COLOR_TRACKS, t);
}

/* ---- random numbers (splitmix64) ---- */

ferry_particle_rng ferry_particle_rng_make(uint64_t seed)
{
    ferry_particle_rng rng = {seed};
    return rng;
}

uint64_t ferry_particle_rng_next(ferry_particle_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float ferry_particle_rng_float(ferry_particle_rng *rng)
{
    /* 24 bits: every value exact in a float, and never 1. */
    return (float)(ferry_particle_rng_next(rng) >> 40) * (1.0f / 16777216.0f);
}

/* Doubles for the geometry, so that radii and angles lose nothing before
 * the final rounding to float. */
static double uniform(ferry_particle_rng *rng) { return (double)(ferry_particle_rng_next(rng) >> 11) * 0x1.0p-53; }

/* ---- groups ---- */

void ferry_particle_group_sample(const ferry_particle_group *group, ferry_particle_rng *rng, float out[3])
{
    double p[3];
    switch (group->type) {
    case FERRY_PARTICLE_GROUP_BOX:
        for (int k = 0; k < 3; k++) p[k] = group->min[k] + ((double)group->max[k] - group->min[k]) * uniform(rng);
        break;
    case FERRY_PARTICLE_GROUP_CUBE:
        for (int k = 0; k < 3; k++) p[k] = (uniform(rng) - 0.5) * group->side_length;
        break;
    case FERRY_PARTICLE_GROUP_SPHERE: {
        /* Archimedes: z uniform in [-1, 1] with a uniform angle is uniform
         * on the sphere; the cube root of a uniform radius fraction fills
         * the ball evenly. */
        double z = 2 * uniform(rng) - 1, phi = 2 * PI * uniform(rng);
        double ring = sqrt(1 - z * z);
        double r = group->sphere_radius;
        if (!group->sphere_surface) r *= cbrt(uniform(rng));
        p[0] = r * ring * cos(phi);
        p[1] = r * ring * sin(phi);
        p[2] = r * z;
        break;
    }
    case FERRY_PARTICLE_GROUP_CYLINDER: {
        double phi = 2 * PI * uniform(rng), h = uniform(rng);
        double r = group->cylinder_radius;
        /* Area grows with the radius: its square root spreads the disc evenly. */
        if (!group->cylinder_surface) r *= sqrt(uniform(rng));
        p[0] = r * cos(phi);
        p[1] = r * sin(phi);
        p[2] = h * group->cylinder_height;
        break;
    }
    default:
        for (int k = 0; k < 3; k++) p[k] = group->value[k];
        break;
    }
    for (int k = 0; k < 3; k++) out[k] = (float)p[k];
}

/* ---- the lifetime group ---- */

ferry_particle_lifetime_layout ferry_particle_lifetime_layout_of(const ferry_particle_group *group)
{
    if (!group || group->type != FERRY_PARTICLE_GROUP_BOX || group->min[2] != 0 || group->max[2] != 0)
        return FERRY_PARTICLE_LIFETIME_UNKNOWN;
    if (group->min[0] == 0 && group->max[0] == 0) return FERRY_PARTICLE_LIFETIME_Y;
    if (group->min[1] == 0 && group->max[1] == 0) return FERRY_PARTICLE_LIFETIME_X;
    return FERRY_PARTICLE_LIFETIME_UNKNOWN;
}

ferry_particle_lifetime_layout ferry_particle_emitter_lifetime(const ferry_particle_emitter *emitter, float *min,
                                                               float *max)
{
    float lo = 0, hi = 0;
    ferry_particle_lifetime_layout layout = FERRY_PARTICLE_LIFETIME_UNKNOWN;
    if (emitter) {
        const ferry_particle_group *g = &emitter->groups[FERRY_PARTICLE_GROUP_LIFETIME];
        layout = ferry_particle_lifetime_layout_of(g);
        if (layout != FERRY_PARTICLE_LIFETIME_UNKNOWN) {
            int axis = layout == FERRY_PARTICLE_LIFETIME_Y ? 1 : 0;
            lo = g->min[axis];
            hi = g->max[axis];
        } else if (ferry_particle_property_present(&emitter->properties, 0x0f) &&
                   ferry_particle_property_present(&emitter->properties, 0x13)) {
            hi = emitter->properties.lifetime;
            lo = (float)((double)hi * (1 - (double)emitter->properties.randomized_lifetime));
        }
    }
    if (min) *min = lo;
    if (max) *max = hi;
    return layout;
}
