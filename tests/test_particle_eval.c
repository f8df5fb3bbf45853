/* What particle data means at run time: track values over a particle's
 * lifetime (linear, cosine and step interpolation, ends, clamping, ties,
 * damaged keys), and the distributions drawn from property groups (means,
 * variances, bounds, surfaces, uniformity in volume, reproducible seeds). */
#include <ferry/particle.h>

#include "test.h"

static void test_tracks(void)
{
    ferry_particle_key keys[3] = {{0.25f, 10, 100, 0}, {0.5f, 20, 200, 0}, {0.5f, 30, 50, 0}};
    ferry_particle_track t;
    memset(&t, 0, sizeof t);
    t.first = 0;
    t.last = 40;
    t.first_byte = 0;
    t.last_byte = 250;
    t.keys = keys;
    t.key_count = 2;
    /* Linear: exact at the points, halfway between them. */
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0), 0, 0);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.125f), 5, 1e-6);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.25f), 10, 0);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.75f), 30, 1e-5);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 1), 40, 0);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 7), 40, 0);     /* clamped */
    CHECK_NEAR(ferry_particle_track_value(&t, false, -3), 0, 0);     /* clamped */
    CHECK_NEAR(ferry_particle_track_value(&t, false, NAN), 0, 0);    /* NaN is 0 */
    CHECK_NEAR(ferry_particle_track_value(&t, true, 0.375f), 150, 1e-4); /* colour: int keys, byte ends */
    CHECK_NEAR(ferry_particle_track_value(&t, true, 1), 250, 0);
    /* Cosine: eased, the same at the ends and the middle. */
    t.interpolation = FERRY_PARTICLE_COSINE;
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.125f), 5, 1e-5);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.0625f), 10 * (1 - cos(3.14159265358979323846 / 4)) / 2, 1e-5);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.25f), 10, 0);
    /* Step: holds each value until the next point. */
    t.interpolation = FERRY_PARTICLE_STEP;
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.2f), 0, 0);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.25f), 10, 0);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.99f), 20, 0);
    /* Unknown interpolation: linear. */
    t.interpolation = 9;
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.125f), 5, 1e-6);
    /* Keys sharing a time: the later one wins from that time on. */
    t.interpolation = FERRY_PARTICLE_LINEAR;
    t.key_count = 3;
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.5f), 30, 0);
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.4999f), 20, 1e-2);
    /* No keys: first to last. Keys out of order or NaN: finite, no crash. */
    t.key_count = 0;
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.5f), 20, 1e-6);
    ferry_particle_key bad[3] = {{0.9f, 5, 0, 0}, {0.1f, 7, 0, 0}, {NAN, 1, 0, 0}};
    t.keys = bad;
    t.key_count = 3;
    for (float x = 0; x <= 1; x += 0.05f) CHECK(isfinite(ferry_particle_track_value(&t, false, x)));
    t.keys = NULL; /* a count without keys counts as none */
    CHECK_NEAR(ferry_particle_track_value(&t, false, 0.5f), 20, 1e-6);

    /* Through an emitter: the track's position says which form it has. */
    ferry_particle_emitter e;
    memset(&e, 0, sizeof e);
    e.tracks[FERRY_PARTICLE_TRACK_SIZE] = t;
    e.tracks[FERRY_PARTICLE_TRACK_SIZE].keys = keys;
    e.tracks[FERRY_PARTICLE_TRACK_SIZE].key_count = 2;
    e.tracks[FERRY_PARTICLE_TRACK_RED] = e.tracks[FERRY_PARTICLE_TRACK_SIZE];
    CHECK_NEAR(ferry_particle_emitter_track_value(&e, FERRY_PARTICLE_TRACK_SIZE, 0.25f), 10, 0);
    CHECK_NEAR(ferry_particle_emitter_track_value(&e, FERRY_PARTICLE_TRACK_RED, 0.25f), 100, 0);
    CHECK_NEAR(ferry_particle_emitter_track_value(&e, FERRY_PARTICLE_TRACK_RED, 1), 250, 0);
    CHECK_NEAR(ferry_particle_emitter_track_value(&e, 7, 0.5f), 0, 0);
    CHECK_NEAR(ferry_particle_emitter_track_value(NULL, 0, 0.5f), 0, 0);
}

/* ---- sampling ---- */

#define SAMPLES 200000

typedef struct moments {
    double mean[3], var[3];
    double near_axis; /* fraction of points within half the radius (of the centre, or of the axis) */
} moments;

static double radius(const float p[3], bool axis)
{
    return sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (axis ? 0 : (double)p[2] * p[2]));
}

/* Inside the group's volume, or on its surface when it has one. */
static bool inside(const ferry_particle_group *g, const float p[3])
{
    switch (g->type) {
    case FERRY_PARTICLE_GROUP_BOX:
        for (int k = 0; k < 3; k++)
            if (!(p[k] >= g->min[k] && p[k] <= g->max[k])) return false;
        return true;
    case FERRY_PARTICLE_GROUP_CUBE:
        return fabsf(p[0]) <= g->side_length / 2 && fabsf(p[1]) <= g->side_length / 2 &&
               fabsf(p[2]) <= g->side_length / 2;
    case FERRY_PARTICLE_GROUP_SPHERE: {
        double r = g->sphere_radius;
        return g->sphere_surface ? fabs(radius(p, false) - r) <= 1e-5 * r : radius(p, false) <= r * (1 + 1e-6);
    }
    default: {
        double r = g->cylinder_radius;
        bool ok = g->cylinder_surface ? fabs(radius(p, true) - r) <= 1e-5 * r : radius(p, true) <= r * (1 + 1e-6);
        return ok && p[2] >= 0 && p[2] <= g->cylinder_height;
    }
    }
}

static moments sample(const ferry_particle_group *g, uint64_t seed)
{
    ferry_particle_rng rng = ferry_particle_rng_make(seed);
    double sum[3] = {0}, sq[3] = {0}, half = 0;
    size_t outside = 0;
    bool axis = g->type == FERRY_PARTICLE_GROUP_CYLINDER;
    double r = axis ? g->cylinder_radius : g->sphere_radius;
    for (int i = 0; i < SAMPLES; i++) {
        float p[3];
        ferry_particle_group_sample(g, &rng, p);
        for (int k = 0; k < 3; k++) {
            sum[k] += p[k];
            sq[k] += (double)p[k] * p[k];
        }
        outside += !inside(g, p);
        half += radius(p, axis) < r / 2;
    }
    CHECK_MSG(outside == 0, "%zu of %d points outside the group (type %u)", outside, SAMPLES, (unsigned)g->type);
    moments m;
    for (int k = 0; k < 3; k++) {
        m.mean[k] = sum[k] / SAMPLES;
        m.var[k] = sq[k] / SAMPLES - m.mean[k] * m.mean[k];
    }
    m.near_axis = half / SAMPLES;
    return m;
}

static void test_sampling(void)
{
    /* Mean of a uniform [a, b] has a standard error (b - a) / sqrt(12 N):
     * 0.00065 (b - a) here. Tolerances are about six of those. */
    const double tol = 0.004;
    ferry_particle_group g;
    memset(&g, 0, sizeof g);

    g.type = FERRY_PARTICLE_GROUP_EXACT;
    g.value[0] = 1.5f, g.value[1] = -2, g.value[2] = 7;
    ferry_particle_rng rng = ferry_particle_rng_make(1);
    float p[3];
    ferry_particle_group_sample(&g, &rng, p);
    CHECK(p[0] == 1.5f && p[1] == -2 && p[2] == 7);
    g.type = 77; /* unknown: the exact value */
    ferry_particle_group_sample(&g, &rng, p);
    CHECK(p[0] == 1.5f && p[2] == 7);

    g.type = FERRY_PARTICLE_GROUP_BOX;
    float lo[3] = {-1, 2, 10}, hi[3] = {3, 2.5f, 30};
    memcpy(g.min, lo, sizeof lo);
    memcpy(g.max, hi, sizeof hi);
    moments m = sample(&g, 11);
    for (int k = 0; k < 3; k++) {
        double w = hi[k] - lo[k];
        CHECK_NEAR(m.mean[k], (lo[k] + hi[k]) / 2, tol * w);
        CHECK_NEAR(m.var[k], w * w / 12, 0.01 * w * w / 12);
    }

    g.type = FERRY_PARTICLE_GROUP_CUBE;
    g.side_length = 4;
    m = sample(&g, 12);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(m.mean[k], 0, tol * 4);
        CHECK_NEAR(m.var[k], 16.0 / 12, 0.01 * 16 / 12);
    }

    /* Ball: uniform in volume, so 1/8 of it lies within half the radius,
     * E[r^2] = 3R^2/5 and each coordinate's variance is R^2/5. */
    g.type = FERRY_PARTICLE_GROUP_SPHERE;
    g.sphere_radius = 2;
    m = sample(&g, 13);
    CHECK_NEAR(m.near_axis, 1.0 / 8, 0.004);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(m.mean[k], 0, tol * 4);
        CHECK_NEAR(m.var[k], 4.0 / 5, 0.01 * 4 / 5);
    }
    /* Sphere surface: every point at the radius, each coordinate's variance R^2/3. */
    g.sphere_surface = 1;
    m = sample(&g, 14);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(m.mean[k], 0, tol * 4);
        CHECK_NEAR(m.var[k], 4.0 / 3, 0.01 * 4 / 3);
    }

    /* Cylinder: z uniform in [0, h]; the disc uniform, so 1/4 of it lies
     * within half the radius and x, y have variance R^2/4. */
    g.type = FERRY_PARTICLE_GROUP_CYLINDER;
    g.cylinder_radius = 3;
    g.cylinder_height = 5;
    m = sample(&g, 15);
    CHECK_NEAR(m.near_axis, 0.25, 0.004);
    CHECK_NEAR(m.mean[2], 2.5, tol * 5);
    CHECK_NEAR(m.var[2], 25.0 / 12, 0.01 * 25 / 12);
    CHECK_NEAR(m.var[0], 9.0 / 4, 0.01 * 9 / 4);
    /* Curved surface: at the radius, x and y with variance R^2/2. */
    g.cylinder_surface = 1;
    m = sample(&g, 16);
    CHECK_NEAR(m.mean[2], 2.5, tol * 5);
    CHECK_NEAR(m.var[0], 9.0 / 2, 0.01 * 9 / 2);
    CHECK_NEAR(m.var[1], 9.0 / 2, 0.01 * 9 / 2);

    /* The state is the caller's: the same seed gives the same points. */
    ferry_particle_rng a = ferry_particle_rng_make(42), b = ferry_particle_rng_make(42), c = ferry_particle_rng_make(43);
    bool same = true, differs = false;
    for (int i = 0; i < 100; i++) {
        float x[3], y[3], z[3];
        ferry_particle_group_sample(&g, &a, x);
        ferry_particle_group_sample(&g, &b, y);
        ferry_particle_group_sample(&g, &c, z);
        same = same && memcmp(x, y, sizeof x) == 0;
        differs = differs || memcmp(x, z, sizeof x) != 0;
    }
    CHECK(same && differs);
    rng = ferry_particle_rng_make(0);
    double sum = 0, lowest = 1, highest = 0;
    for (int i = 0; i < SAMPLES; i++) {
        float u = ferry_particle_rng_float(&rng);
        sum += u;
        if (u < lowest) lowest = u;
        if (u > highest) highest = u;
    }
    CHECK_NEAR(sum / SAMPLES, 0.5, 0.002);
    CHECK(lowest >= 0 && highest < 1);
}

int main(void)
{
    test_tracks();
    test_sampling();
    TEST_END();
}
