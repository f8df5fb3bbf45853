/* The particle simulator: determinism for a seed, the state at T the same
 * however the time is stepped, live counts of hand-built emitters equal to
 * what the emission rules give (worked out by hand in each case), constant
 * acceleration followed exactly, ground contacts, birth and death emitters,
 * bounded bad input, and the renderer drawing something. */
#define _POSIX_C_SOURCE 200809L
#include <ferry/particle_sim.h>

#include "hostile_fixture.h"
#include "support.h"
#include "test.h"

#include <float.h>

#define MAX_EMITTERS 4

typedef struct hand_system {
    ferry_particle_system system;
    ferry_particle_emitter emitters[MAX_EMITTERS];
} hand_system;

static ferry_particle_system *system_of(hand_system *h, size_t n)
{
    memset(&h->system, 0, sizeof h->system);
    h->system.name = "hand";
    h->system.emitters = h->emitters;
    h->system.emitter_count = n;
    return &h->system;
}

static ferry_particle_sim *sim_at(const ferry_particle_system *s, uint64_t seed, double t)
{
    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.no_ground = false;
    ferry_particle_sim *sim = NULL;
    ferry_error err;
    CHECK(ferry_particle_sim_create(s, &o, &sim, &err) == FERRY_OK);
    if (sim) ferry_particle_sim_advance(sim, t);
    return sim;
}

static size_t live_at(const ferry_particle_system *s, double t)
{
    ferry_particle_sim *sim = sim_at(s, 1, t);
    size_t n = ferry_particle_sim_count(sim);
    ferry_particle_sim_free(sim);
    return n;
}

static size_t live_of(const ferry_particle_sim *sim, uint32_t emitter)
{
    size_t n = 0;
    for (size_t i = 0; i < ferry_particle_sim_count(sim); i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(sim, i, &p);
        n += p.emitter == emitter;
    }
    return n;
}

/* ---- counts from the emission rules ---- */

static void test_counts(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 1);
    /* Stream: 10/s from 0.25 s, life 1 s. Emission k at 0.25 + k/10.
     * t = 0.5: k = 0, 1, 2 emitted (0.25, 0.35, 0.45), all alive: 3.
     * t = 2.03: alive when emitted in (1.03, 2.03]: k/10 in (0.78, 1.78],
     * k = 8..17: 10. t = 0.2: before the delay: 0. */
    emitter_init(&h.emitters[0], 1.0f);
    stream(&h.emitters[0], 10, 0.25f);
    CHECK_EQ_U(live_at(s, 0.2), 0);
    CHECK_EQ_U(live_at(s, 0.5), 3);
    CHECK_EQ_U(live_at(s, 2.03), 10);
    CHECK_EQ_U(live_at(s, 1000.03), 10);
    /* Bursts: 4 every 0.5 s, 3 bursts, from 0.1 s, life 0.7: bursts at 0.1,
     * 0.6, 1.1. t = 0.65: two bursts alive (8); t = 0.85: the first died at
     * 0.8 (4); t = 1.2: 0.6 (dies 1.3) and 1.1 (8); t = 1.75: only 1.1 (4);
     * t = 5: none (no fourth burst). */
    emitter_init(&h.emitters[0], 0.7f);
    bursts(&h.emitters[0], 4, 3, 0.5f, 0.1f);
    CHECK_EQ_U(live_at(s, 0.05), 0);
    CHECK_EQ_U(live_at(s, 0.65), 8);
    CHECK_EQ_U(live_at(s, 0.85), 4);
    CHECK_EQ_U(live_at(s, 1.2), 8);
    CHECK_EQ_U(live_at(s, 1.75), 4);
    CHECK_EQ_U(live_at(s, 1.85), 0);
    CHECK_EQ_U(live_at(s, 5), 0);
    /* Endless bursts (count 0): 2 every 0.25 s from 0, life 0.6. t = 3.05:
     * bursts emitted in (2.45, 3.05]: 2.5, 2.75, 3.0: 6. Count 0xFFFFFFFF
     * means the same. */
    emitter_init(&h.emitters[0], 0.6f);
    bursts(&h.emitters[0], 2, 0, 0.25f, 0);
    CHECK_EQ_U(live_at(s, 3.05), 6);
    h.emitters[0].properties.bursts = UINT32_MAX;
    CHECK_EQ_U(live_at(s, 3.05), 6);
    /* Skip time 0.5 s: at t = 0.2 the emitter is 0.7 s old. Stream 10/s,
     * delay 0, life 1: k = 0..7 emitted at ages 0 .. 0.7, all alive: 8. */
    emitter_init(&h.emitters[0], 1.0f);
    stream(&h.emitters[0], 10, 0);
    h.emitters[0].properties.skip_time = 0.5f;
    CHECK_EQ_U(live_at(s, 0.2), 8);
    /* Freeze at 0.35 s: emitted at 0, 0.1, 0.2, 0.3 (4), then nothing
     * moves, ages or dies: still 4 at t = 50 although life is 1 s. */
    h.emitters[0].properties.skip_time = 0;
    h.emitters[0].properties.freeze_time = 0.35f;
    h.emitters[0].groups[FERRY_PARTICLE_GROUP_VELOCITY].value[0] = 2;
    ferry_particle_sim *a = sim_at(s, 3, 50), *b = sim_at(s, 3, 0.35);
    CHECK_EQ_U(ferry_particle_sim_count(a), 4);
    CHECK_EQ_U(ferry_particle_sim_count(b), 4);
    for (size_t i = 0; i < 4 && ferry_particle_sim_count(a) == 4; i++) {
        ferry_particle_state pa, pb;
        ferry_particle_sim_get(a, i, &pa);
        ferry_particle_sim_get(b, i, &pb);
        CHECK(pa.id == pb.id);
        CHECK_NEAR(pa.position[0], pb.position[0], 1e-6);
        CHECK_NEAR(pa.age, pb.age, 1e-6);
    }
    ferry_particle_sim_free(a);
    ferry_particle_sim_free(b);
    /* Randomized lifetime: each lifetime within [L (1 - r), L]. */
    emitter_init(&h.emitters[0], 2.0f);
    stream(&h.emitters[0], 100, 0);
    h.emitters[0].properties.randomized_lifetime = 0.5f;
    h.emitters[0].groups[FERRY_PARTICLE_GROUP_LIFETIME].min[1] = 1.0f;
    a = sim_at(s, 9, 1.5);
    bool in_range = true;
    for (size_t i = 0; i < ferry_particle_sim_count(a); i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(a, i, &p);
        in_range = in_range && p.lifetime >= 1.0f && p.lifetime <= 2.0f && p.age < p.lifetime;
    }
    CHECK(in_range);
    /* Emitted in (0, 1.5]: 151; those emitted at or before 0.5 may have
     * died: between 101 and 151 alive. */
    CHECK(ferry_particle_sim_count(a) >= 101 && ferry_particle_sim_count(a) <= 151);
    /* Some died: lifetimes really vary. */
    CHECK(ferry_particle_sim_count(a) < 151);
    ferry_particle_sim_free(a);
    /* The lifetime comes from the properties (0x0f, 0x13), as the
     * specification states it, not from the "redundant" group: a group
     * saying 5 s does not keep 1 s particles alive. */
    emitter_init(&h.emitters[0], 1.0f);
    stream(&h.emitters[0], 10, 0);
    h.emitters[0].groups[FERRY_PARTICLE_GROUP_LIFETIME].min[1] = 5.0f;
    h.emitters[0].groups[FERRY_PARTICLE_GROUP_LIFETIME].max[1] = 5.0f;
    CHECK_EQ_U(live_at(s, 3.05), 10); /* emitted in (2.05, 3.05] */
    /* Without 0x0f stored, the group's range. */
    h.emitters[0].properties.present[0] &= ~(1ull << 0x0f);
    CHECK_EQ_U(live_at(s, 3.05), 31); /* all of 0 .. 3.0 */
}

/* ---- motion ---- */

static void test_kinematics(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 1);
    emitter_init(&h.emitters[0], 10.0f);
    bursts(&h.emitters[0], 1, 1, 0, 0.3f);
    ferry_particle_emitter *e = &h.emitters[0];
    float x0[3] = {4, 5, 6}, v0[3] = {1, 2, 3}, acc[3] = {0.5f, -1, 2};
    memcpy(e->groups[FERRY_PARTICLE_GROUP_POSITION].value, x0, sizeof x0);
    memcpy(e->groups[FERRY_PARTICLE_GROUP_VELOCITY].value, v0, sizeof v0);
    memcpy(e->properties.acceleration, acc, sizeof acc);
    e->properties.gravity = 9.81f;
    double a[3] = {0.5, -1, 2 - 9.81};
    for (double T = 0.31; T < 3; T += 0.37) {
        ferry_particle_sim *sim = sim_at(s, 0, T);
        CHECK_EQ_U(ferry_particle_sim_count(sim), 1);
        ferry_particle_state p;
        ferry_particle_sim_get(sim, 0, &p);
        double t = T - (double)0.3f; /* the delay as stored */
        for (int k = 0; k < 3; k++) {
            double x = x0[k] + v0[k] * t + a[k] * t * t / 2;
            CHECK_NEAR(p.position[k], x, 1e-4 * (1 + fabs(x)));
            CHECK_NEAR(p.velocity[k], v0[k] + a[k] * t, 1e-4 * (1 + fabs(v0[k] + a[k] * t)));
        }
        CHECK_NEAR(p.age, t, 1e-6);
        ferry_particle_sim_free(sim);
    }
    /* Placed by a transform: translated by (10, 0, -1), rotated 90 degrees
     * about z (x -> y): positions and velocities rotate, gravity stays
     * world -z, acceleration stays world unless object-space. */
    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    o.has_transform = true;
    float m[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 0, -1, 1};
    memcpy(o.transform, m, sizeof m);
    o.no_ground = true;
    ferry_particle_sim *sim = NULL;
    ferry_error err;
    CHECK(ferry_particle_sim_create(s, &o, &sim, &err) == FERRY_OK);
    ferry_particle_sim_advance(sim, 1.3);
    ferry_particle_state p;
    ferry_particle_sim_get(sim, 0, &p);
    double t = 1.3 - (double)0.3f;
    double wx = 10 - x0[1] - v0[1] * t + a[0] * t * t / 2;
    double wy = x0[0] + v0[0] * t + a[1] * t * t / 2;
    double wz = -1 + x0[2] + v0[2] * t + a[2] * t * t / 2;
    CHECK_NEAR(p.position[0], wx, 1e-4);
    CHECK_NEAR(p.position[1], wy, 1e-4);
    CHECK_NEAR(p.position[2], wz, 1e-4);
    ferry_particle_sim_free(sim);
}

static void test_ground(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 1);
    emitter_init(&h.emitters[0], 100.0f);
    bursts(&h.emitters[0], 1, 1, 0, 0);
    ferry_particle_emitter *e = &h.emitters[0];
    e->groups[FERRY_PARTICLE_GROUP_POSITION].value[2] = 10;
    e->properties.gravity = 5;
    /* Falls from 10 with 5 units/s^2: touches at sqrt(4) = 2 s. */
    e->properties.ground_interaction = 1; /* die */
    CHECK_EQ_U(live_at(s, 1.99), 1);
    CHECK_EQ_U(live_at(s, 2.01), 0);
    e->properties.ground_interaction = 3; /* stop */
    ferry_particle_sim *sim = sim_at(s, 0, 7);
    ferry_particle_state p;
    ferry_particle_sim_get(sim, 0, &p);
    CHECK_NEAR(p.position[2], 0, 1e-6);
    CHECK_NEAR(p.velocity[2], 0, 0);
    ferry_particle_sim_free(sim);
    /* Bounce with 0.5: touches at 10 units/s down, leaves at 5 up:
     * z = 5 (t - 2) - 2.5 (t - 2)^2, apex 2.5 at t = 3, down again at t = 4
     * (leaving at 2.5 up): at t = 4.5, z = 2.5 * 0.5 - 2.5 * 0.25 = 0.625. */
    e->properties.ground_interaction = 2;
    e->properties.bounciness = 0.5f;
    sim = sim_at(s, 0, 3);
    ferry_particle_sim_get(sim, 0, &p);
    CHECK_NEAR(p.position[2], 2.5, 1e-4);
    CHECK_NEAR(p.velocity[2], 0, 1e-4);
    ferry_particle_sim_free(sim);
    sim = sim_at(s, 0, 4.5);
    ferry_particle_sim_get(sim, 0, &p);
    CHECK_NEAR(p.position[2], 0.625, 1e-4);
    CHECK_NEAR(p.velocity[2], 0, 1e-4);
    ferry_particle_sim_free(sim);
    /* Never below the ground, however stepped, and finally at rest. */
    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    CHECK(ferry_particle_sim_create(s, &o, &sim, &(ferry_error){0}) == FERRY_OK);
    bool above = true;
    for (int i = 1; i <= 3000; i++) {
        ferry_particle_sim_advance(sim, i * 0.01);
        ferry_particle_sim_get(sim, 0, &p);
        above = above && p.position[2] >= -1e-4f;
    }
    CHECK(above);
    CHECK_NEAR(p.position[2], 0, 1e-3);
    ferry_particle_sim_free(sim);
}

/* ---- stepping and seeds ---- */

static void rich_system(hand_system *h)
{
    system_of(h, 3);
    ferry_particle_emitter *e = &h->emitters[0];
    emitter_init(e, 1.5f);
    stream(e, 37, 0.1f);
    e->groups[FERRY_PARTICLE_GROUP_LIFETIME].min[1] = 0.5f;
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].type = FERRY_PARTICLE_GROUP_SPHERE;
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].sphere_radius = 20;
    e->groups[FERRY_PARTICLE_GROUP_POSITION].type = FERRY_PARTICLE_GROUP_BOX;
    e->groups[FERRY_PARTICLE_GROUP_POSITION].min[2] = 1;
    e->groups[FERRY_PARTICLE_GROUP_POSITION].max[0] = 3;
    e->groups[FERRY_PARTICLE_GROUP_POSITION].max[1] = 3;
    e->groups[FERRY_PARTICLE_GROUP_POSITION].max[2] = 4;
    e->properties.gravity = 9;
    e->properties.outward_acceleration = 3;
    e->properties.inward_speed = 1;
    e->properties.ground_interaction = 2;
    e->properties.bounciness = 0.6f;
    e->properties.randomized_scale = 0.3f;
    e->properties.randomized_rotation = 0.5f;
    e->properties.rotation_direction = 1;
    e->tracks[FERRY_PARTICLE_TRACK_ROTATION_SPEED].first = 2;
    e->death_emitter = 1;
    e = &h->emitters[1];
    emitter_init(e, 0.4f);
    bursts(e, 3, 1, 0, 0.05f);
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].type = FERRY_PARTICLE_GROUP_CUBE;
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].side_length = 4;
    e = &h->emitters[2];
    emitter_init(e, 2.0f);
    bursts(e, 5, 0, 0.3f, 0);
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].type = FERRY_PARTICLE_GROUP_CYLINDER;
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].cylinder_radius = 5;
    e->groups[FERRY_PARTICLE_GROUP_VELOCITY].cylinder_height = 8;
    e->properties.acceleration[0] = 2;
    e->properties.skip_time = 0.7f;
}

typedef struct snap {
    size_t n;
    ferry_particle_state p[4096];
} snap;

static int by_id(const void *a, const void *b)
{
    const ferry_particle_state *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void take(ferry_particle_sim *sim, snap *s)
{
    s->n = ferry_particle_sim_count(sim);
    if (s->n > 4096) s->n = 4096;
    for (size_t i = 0; i < s->n; i++) ferry_particle_sim_get(sim, i, &s->p[i]);
    qsort(s->p, s->n, sizeof s->p[0], by_id);
}

static bool snaps_close(const snap *a, const snap *b, double tol, double *worst)
{
    *worst = 0;
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++) {
        if (a->p[i].id != b->p[i].id) return false;
        for (int k = 0; k < 3; k++) {
            double d = fabs(a->p[i].position[k] - b->p[i].position[k]) / (1 + fabs(a->p[i].position[k]));
            if (d > *worst) *worst = d;
        }
        double d = fabs(a->p[i].size - b->p[i].size) + fabs(a->p[i].age - b->p[i].age) +
                   fabs(a->p[i].color[3] - b->p[i].color[3]);
        if (d > *worst) *worst = d;
    }
    return *worst <= tol;
}

static void test_stepping(void)
{
    static hand_system h;
    static snap one, many, odd, again, other;
    rich_system(&h);
    const double T = 2.345;
    ferry_particle_sim *sim = sim_at(&h.system, 42, T);
    take(sim, &one);
    ferry_particle_sim_free(sim);
    CHECK(one.n > 50);
    size_t spawned = 0;
    for (size_t i = 0; i < one.n; i++) spawned += one.p[i].emitter == 1;
    CHECK(spawned > 0); /* death emitters ran */

    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 42;
    CHECK(ferry_particle_sim_create(&h.system, &o, &sim, &(ferry_error){0}) == FERRY_OK);
    for (int i = 1; i <= 100; i++) ferry_particle_sim_advance(sim, T * i / 100);
    take(sim, &many);
    ferry_particle_sim_free(sim);
    double worst;
    CHECK_MSG(snaps_close(&one, &many, 1e-4, &worst), "1 step vs 100: %zu vs %zu particles, worst %g", one.n, many.n,
              worst);

    /* Irregular steps, some repeated, some going back (ignored). */
    CHECK(ferry_particle_sim_create(&h.system, &o, &sim, &(ferry_error){0}) == FERRY_OK);
    double t = 0;
    uint64_t st = 7;
    while (t < T) {
        t += (double)(test_xorshift(&st) % 1000) / 9000.0;
        if (t > T) t = T;
        ferry_particle_sim_advance(sim, t);
        ferry_particle_sim_advance(sim, t);
        ferry_particle_sim_advance(sim, t / 2);
    }
    take(sim, &odd);
    ferry_particle_sim_free(sim);
    CHECK_MSG(snaps_close(&one, &odd, 1e-4, &worst), "irregular steps: %zu vs %zu particles, worst %g", one.n, odd.n,
              worst);

    /* The same seed: bit for bit; another seed: other particles. */
    sim = sim_at(&h.system, 42, T);
    take(sim, &again);
    ferry_particle_sim_free(sim);
    CHECK(again.n == one.n && memcmp(again.p, one.p, one.n * sizeof one.p[0]) == 0);
    sim = sim_at(&h.system, 43, T);
    take(sim, &other);
    ferry_particle_sim_free(sim);
    CHECK(!snaps_close(&one, &other, 1e-3, &worst));

    /* Ids are stable: a particle alive at 2.0 and at T keeps its id. */
    sim = sim_at(&h.system, 42, 2.0);
    static snap early;
    take(sim, &early);
    size_t common = 0;
    for (size_t i = 0; i < early.n; i++)
        for (size_t j = 0; j < one.n; j++)
            if (early.p[i].id == one.p[j].id) {
                common++;
                CHECK_NEAR(early.p[i].birth_time, one.p[j].birth_time, 0);
            }
    CHECK(common > 10);
    ferry_particle_sim_advance(sim, T);
    take(sim, &again);
    CHECK(snaps_close(&one, &again, 1e-4, &worst));
    ferry_particle_sim_free(sim);

    /* With a birth emitter attached to falling particles (no ground: a
     * bounce between steps is the one case where its path is approximate),
     * linked to them, skipped ahead and frozen late: 1 step and 100 agree. */
    h.emitters[0].properties.ground_interaction = 0;
    h.emitters[0].birth_emitter = 2;
    h.emitters[2].properties.link_to_system = 1;
    h.emitters[2].properties.use_emitter_speed_mult = 1;
    h.emitters[2].properties.emitter_speed_mult = 0.5f;
    h.emitters[2].properties.freeze_time = 2.0f;
    sim = sim_at(&h.system, 5, T);
    take(sim, &one);
    ferry_particle_sim_free(sim);
    CHECK(ferry_particle_sim_create(&h.system, &o, &sim, &(ferry_error){0}) == FERRY_OK);
    for (int i = 1; i <= 100; i++) ferry_particle_sim_advance(sim, T * i / 100);
    take(sim, &many);
    ferry_particle_sim_free(sim);
    size_t births = 0;
    for (size_t i = 0; i < one.n; i++) births += one.p[i].emitter == 2;
    CHECK(births > 10);
    o.seed = 5;
    CHECK(ferry_particle_sim_create(&h.system, &o, &sim, &(ferry_error){0}) == FERRY_OK);
    for (int i = 1; i <= 100; i++) ferry_particle_sim_advance(sim, T * i / 100);
    take(sim, &many);
    ferry_particle_sim_free(sim);
    /* Ids are unique (a XOR-based hash once gave two particles one id). */
    bool unique = true;
    for (size_t i = 1; i < one.n; i++) unique = unique && one.p[i].id != one.p[i - 1].id;
    CHECK(unique);
    CHECK_MSG(snaps_close(&one, &many, 1e-4, &worst), "birth emitters, 1 step vs 100: %zu vs %zu particles, worst %g",
              one.n, many.n, worst);
}

/* ---- connections ---- */

static void test_connections(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 3);
    /* Emitter 0: one particle at 10 units/s along x, life 1. Its birth
     * emitter (1) streams 10/s for as long as it lives, attached: particle
     * k at x = k (the parent's position at k/10 s), life 5. Its death
     * emitter (2) bursts 3 particles where it died (x = 10). */
    emitter_init(&h.emitters[0], 1.0f);
    bursts(&h.emitters[0], 1, 1, 0, 0);
    h.emitters[0].groups[FERRY_PARTICLE_GROUP_VELOCITY].value[0] = 10;
    h.emitters[0].birth_emitter = 1;
    h.emitters[0].death_emitter = 2;
    emitter_init(&h.emitters[1], 5.0f);
    stream(&h.emitters[1], 10, 0);
    emitter_init(&h.emitters[2], 5.0f);
    bursts(&h.emitters[2], 3, 1, 0, 0);
    ferry_particle_sim *sim = sim_at(s, 0, 0.55);
    /* t = 0.55: birth emitter emitted at 0, 0.1, .. 0.5: 6; no death yet. */
    CHECK_EQ_U(live_of(sim, 0), 1);
    CHECK_EQ_U(live_of(sim, 1), 6);
    CHECK_EQ_U(live_of(sim, 2), 0);
    bool on_path = true;
    for (size_t i = 0; i < ferry_particle_sim_count(sim); i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(sim, i, &p);
        if (p.emitter == 1) on_path = on_path && fabs(p.position[0] - 10 * p.birth_time) < 1e-4 && p.depth == 1;
    }
    CHECK(on_path);
    ferry_particle_sim_free(sim);
    /* t = 1.5: the parent died at 1 (its birth emitter emitted 0 .. 1.0:
     * 11), the death emitter burst 3 at x = 10. */
    sim = sim_at(s, 0, 1.5);
    CHECK_EQ_U(live_of(sim, 0), 0);
    CHECK_EQ_U(live_of(sim, 1), 11);
    CHECK_EQ_U(live_of(sim, 2), 3);
    for (size_t i = 0; i < ferry_particle_sim_count(sim); i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(sim, i, &p);
        if (p.emitter == 2) CHECK_NEAR(p.position[0], 10, 1e-4);
    }
    ferry_particle_sim_free(sim);
}

/* ---- bounded bad input ---- */

/* The work is bounded by caps reached (warnings, the pool's size, the
 * emissions made), never by a clock: the time these cases take is
 * measured in bench/bench_hostile. */
static void test_bounds(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 2);
    /* A rate of 4e9/s with a long life: the rate is bounded, the pool fills. */
    emitter_init(&h.emitters[0], 1000.0f);
    stream(&h.emitters[0], UINT32_MAX, 0);
    emitter_init(&h.emitters[1], 1.0f);
    s->emitter_count = 1;
    ferry_particle_sim *sim = sim_at(s, 0, 100);
    unsigned w = ferry_particle_sim_warnings(sim);
    CHECK(w & FERRY_PARTICLE_SIM_WARN_MAX_RATE);
    CHECK(w & FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES || w & FERRY_PARTICLE_SIM_WARN_SKIPPED);
    CHECK(ferry_particle_sim_count(sim) <= 100000);
    /* The emissions made: a root particle's id is its emission index k
     * (emitter 0), emission k at k / 20,000 s at the bounded rate. Up to
     * t = 100 inclusive those are k = 0 .. 2,000,000, of which only the
     * last 100,000 (a pool's worth, k = 1,900,001 .. 2,000,000) are made:
     * one step spawns no more than the pool holds, not 4e11. */
    CHECK_EQ_U(ferry_particle_sim_count(sim), 100000);
    uint64_t k_min = UINT64_MAX, k_max = 0;
    for (size_t i = 0; i < ferry_particle_sim_count(sim); i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(sim, i, &p);
        if (p.id < k_min) k_min = p.id;
        if (p.id > k_max) k_max = p.id;
    }
    CHECK_EQ_U(k_max, 2000000);
    CHECK_EQ_U(k_min, 1900001);
    ferry_particle_sim_free(sim);
    /* A huge time: finishes at once (dead emissions are never made). */
    emitter_init(&h.emitters[0], 1.0f);
    stream(&h.emitters[0], 1000, 0);
    CHECK_EQ_U(live_at(s, 1e12), 1000);
    /* Endless bursts without a delay. */
    emitter_init(&h.emitters[0], 5.0f);
    bursts(&h.emitters[0], 1000, 0, 0, 0);
    sim = sim_at(s, 0, 3);
    CHECK(ferry_particle_sim_warnings(sim) & FERRY_PARTICLE_SIM_WARN_MAX_RATE);
    ferry_particle_sim_free(sim);
    /* Infinite lifetime (the longest finite one), endless stream, a huge
     * time: the pool fills with the last 100,000 emitted, all alive. */
    emitter_init(&h.emitters[0], INFINITY);
    stream(&h.emitters[0], 1000, 0);
    sim = sim_at(s, 0, 1e9);
    CHECK(ferry_particle_sim_warnings(sim) & FERRY_PARTICLE_SIM_WARN_NONFINITE);
    CHECK(ferry_particle_sim_warnings(sim) & (FERRY_PARTICLE_SIM_WARN_SKIPPED | FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES));
    CHECK_EQ_U(ferry_particle_sim_count(sim), 100000);
    if (ferry_particle_sim_count(sim)) {
        ferry_particle_state p;
        ferry_particle_sim_get(sim, 0, &p);
        CHECK(p.lifetime == FLT_MAX && p.age < 1e9f + 1);
    }
    ferry_particle_sim_free(sim);
    /* A death emitter spawning itself: bounded by the depth. */
    emitter_init(&h.emitters[0], 0.1f);
    bursts(&h.emitters[0], 10, 1, 0, 0);
    h.emitters[0].death_emitter = 0;
    /* (Advanced to 5 s at once, every generation is over by then and never
     * made; stepped, each one is.) */
    sim = sim_at(s, 0, 0);
    for (int i = 1; i <= 100; i++) ferry_particle_sim_advance(sim, i * 0.05);
    CHECK(ferry_particle_sim_warnings(sim) &
          (FERRY_PARTICLE_SIM_WARN_MAX_DEPTH | FERRY_PARTICLE_SIM_WARN_MAX_EMITTERS | FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES));
    ferry_particle_sim_free(sim);
    /* Two emitters spawning each other at birth and death: no root. */
    s->emitter_count = 2;
    emitter_init(&h.emitters[0], 0.5f);
    stream(&h.emitters[0], 20000, 0);
    h.emitters[0].death_emitter = 1;
    h.emitters[0].birth_emitter = 1;
    emitter_init(&h.emitters[1], 0.5f);
    bursts(&h.emitters[1], 50, 0, 0.01f, 0);
    h.emitters[1].death_emitter = 0;
    h.emitters[1].birth_emitter = 0;
    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    CHECK(ferry_particle_sim_create(s, &o, &sim, &(ferry_error){0}) == FERRY_OK);
    for (int i = 1; i <= 20; i++) ferry_particle_sim_advance(sim, i * 0.1);
    w = ferry_particle_sim_warnings(sim);
    CHECK(w & FERRY_PARTICLE_SIM_WARN_NO_ROOT);
    CHECK(w & (FERRY_PARTICLE_SIM_WARN_MAX_DEPTH | FERRY_PARTICLE_SIM_WARN_MAX_EMITTERS |
               FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES | FERRY_PARTICLE_SIM_WARN_SKIPPED));
    CHECK(ferry_particle_sim_count(sim) <= 100000);
    ferry_particle_sim_free(sim);
    /* NaN values: replaced, a warning. */
    s->emitter_count = 1;
    emitter_init(&h.emitters[0], 1.0f);
    stream(&h.emitters[0], 10, NAN);
    h.emitters[0].properties.gravity = NAN;
    sim = sim_at(s, 0, 0.45);
    CHECK(ferry_particle_sim_warnings(sim) & FERRY_PARTICLE_SIM_WARN_NONFINITE);
    CHECK_EQ_U(ferry_particle_sim_count(sim), 5);
    ferry_particle_sim_free(sim);
    CHECK(ferry_particle_sim_warning_text(FERRY_PARTICLE_SIM_WARN_MAX_DEPTH) != NULL);
    CHECK(ferry_particle_sim_warning_text(1u << 20) == NULL);
}

/* ---- appearance ---- */

static void test_appearance(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 1);
    emitter_init(&h.emitters[0], 2.0f);
    bursts(&h.emitters[0], 1, 1, 0, 0);
    ferry_particle_emitter *e = &h.emitters[0];
    e->tracks[FERRY_PARTICLE_TRACK_SIZE].first = 2;
    e->tracks[FERRY_PARTICLE_TRACK_SIZE].last = 6;
    e->tracks[FERRY_PARTICLE_TRACK_ALPHA].first_byte = 255;
    e->tracks[FERRY_PARTICLE_TRACK_ALPHA].last_byte = 0;
    e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].first = 0;
    e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].last = 4;
    e->tracks[FERRY_PARTICLE_TRACK_ROTATION_SPEED].first = 1;
    e->tracks[FERRY_PARTICLE_TRACK_ROTATION_SPEED].last = 1;
    e->properties.texture_elements = 4;
    e->properties.fixed_rotation = 0;
    ferry_particle_sim *a = sim_at(s, 0, 0), *b = sim_at(s, 0, 1.0);
    ferry_particle_state p0, p1;
    ferry_particle_sim_get(a, 0, &p0);
    ferry_particle_sim_get(b, 0, &p1);
    /* Half its life: size 4, alpha 0.5, frame floor(2) = 2; one second of
     * spin at 1 rad/s, clockwise (negative). */
    CHECK_NEAR(p1.size, 4, 1e-5);
    CHECK_NEAR(p1.color[3], 127.5 / 255, 1e-5);
    CHECK_NEAR(p1.color[0], 1, 0);
    CHECK_EQ_U(p1.frame, 2);
    double turn = remainder(p1.rotation - p0.rotation + 1.0, 2 * 3.14159265358979323846);
    CHECK_NEAR(turn, 0, 1e-4);
    ferry_particle_sim_free(a);
    ferry_particle_sim_free(b);
}

/* ---- drawing ---- */

static ferry_image grid_texture;

static const ferry_image *grid_lookup(const char *name, void *user)
{
    (void)user;
    return strcmp(name, "grid.tga") == 0 ? &grid_texture : NULL;
}

static void pixel(const ferry_image *img, uint32_t x, uint32_t y, int out[3])
{
    for (int c = 0; c < 3; c++) out[c] = img->rgba[((size_t)y * img->width + x) * 4 + c];
}

static void test_render(void)
{
    /* A 4x4 texture of 4 elements in a 2x2 grid: red, green / blue, yellow. */
    static uint8_t rgba[4 * 4 * 4];
    static const uint8_t colors[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 0}};
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            int e = (y / 2) * 2 + x / 2;
            memcpy(&rgba[(y * 4 + x) * 4], colors[e], 3);
            rgba[(y * 4 + x) * 4 + 3] = 255;
        }
    grid_texture.width = grid_texture.height = 4;
    grid_texture.rgba = rgba;

    hand_system h;
    ferry_particle_system *s = system_of(&h, 1);
    emitter_init(&h.emitters[0], 10.0f);
    bursts(&h.emitters[0], 1, 1, 0, 0);
    ferry_particle_emitter *e = &h.emitters[0];
    e->color_texture = "grid.tga";
    e->properties.texture_elements = 4;
    e->properties.fixed_rotation = 1;
    e->tracks[FERRY_PARTICLE_TRACK_SIZE].first = e->tracks[FERRY_PARTICLE_TRACK_SIZE].last = 2;
    e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].first = e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].last = 3;
    ferry_particle_sim *sim = sim_at(s, 0, 1);
    float lo[3], hi[3];
    CHECK(ferry_particle_sim_bounds(sim, lo, hi));
    CHECK_NEAR(lo[0], -1, 1e-6);
    CHECK_NEAR(hi[2], 1, 1e-6);
    ferry_particle_render_options o;
    memset(&o, 0, sizeof o);
    o.width = o.height = 64;
    o.background[0] = o.background[1] = o.background[2] = 0.25f;
    o.texture = grid_lookup;
    ferry_particle_camera_frame(lo, hi, 1, &o.camera);
    ferry_image img;
    ferry_error err;
    int px[3];
    /* Alpha blend: element 3 (yellow) in the middle, the background in a corner. */
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_OK);
    pixel(&img, 32, 32, px);
    CHECK_MSG(px[0] == 255 && px[1] == 255 && px[2] == 0, "centre %d %d %d", px[0], px[1], px[2]);
    pixel(&img, 0, 0, px);
    CHECK(px[0] == 64 && px[1] == 64 && px[2] == 64);
    size_t lit = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            pixel(&img, x, y, px);
            lit += px[0] != 64 || px[1] != 64 || px[2] != 64;
        }
    CHECK(lit > 200);
    ferry_image_free(&img);
    ferry_particle_sim_free(sim);
    /* Frame 0 (red) and additive: the background plus red. */
    e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].first = e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].last = 0;
    e->properties.blend_mode = 1;
    sim = sim_at(s, 0, 1);
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_OK);
    pixel(&img, 32, 32, px);
    CHECK_MSG(px[0] == 255 && px[1] == 64 && px[2] == 64, "additive centre %d %d %d", px[0], px[1], px[2]);
    ferry_image_free(&img);
    /* Modulate by red: green and blue go to 0. */
    e->properties.blend_mode = 3;
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_OK);
    pixel(&img, 32, 32, px);
    CHECK_MSG(px[0] == 64 && px[1] == 0 && px[2] == 0, "modulate centre %d %d %d", px[0], px[1], px[2]);
    ferry_image_free(&img);
    /* No texture: the soft round sprite, white in the middle. */
    e->properties.blend_mode = 2;
    e->color_texture = "missing.tga";
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_OK);
    pixel(&img, 32, 32, px);
    CHECK_MSG(px[0] > 240 && px[1] > 240 && px[2] > 240, "untextured centre %d %d %d", px[0], px[1], px[2]);
    ferry_image_free(&img);
    /* A checkerboard behind: cells of 8 pixels alternating the two greys. */
    o.checker = 8;
    o.background2[0] = o.background2[1] = o.background2[2] = 0.5f;
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_OK);
    pixel(&img, 0, 0, px);
    CHECK(px[0] == 64 && px[1] == 64 && px[2] == 64);
    pixel(&img, 8, 0, px);
    CHECK(px[0] == 128 && px[1] == 128 && px[2] == 128);
    pixel(&img, 8, 8, px);
    CHECK(px[0] == 64);
    ferry_image_free(&img);
    /* As many elements as the count can say (a fuzzed file's): a grid of
     * 65,536 x 65,536, not a row count that wrapped to 0. */
    e->properties.texture_elements = UINT32_MAX;
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_OK);
    ferry_image_free(&img);
    /* Bad sizes are refused. */
    o.width = 0;
    CHECK(ferry_particle_render(sim, &o, &img, &err) == FERRY_ERR_ARGUMENT);
    ferry_particle_sim_free(sim);
}

/* The sprites as data: what a GPU viewer draws (the web viewer) is what the
 * software renderer draws. A particle of size 2 with element 3 of a 2x2
 * grid: its quad is centred on the particle, 2 wide, faces the camera, and
 * its corners map to the bottom-right quarter of the texture. */
static void test_sprites(void)
{
    hand_system h;
    ferry_particle_system *s = system_of(&h, 2);
    for (int k = 0; k < 2; k++) {
        emitter_init(&h.emitters[k], 10.0f);
        bursts(&h.emitters[k], 1, 1, 0, 0);
        ferry_particle_emitter *e = &h.emitters[k];
        e->properties.texture_elements = 4;
        e->properties.fixed_rotation = 1;
        e->tracks[FERRY_PARTICLE_TRACK_SIZE].first = e->tracks[FERRY_PARTICLE_TRACK_SIZE].last = 2;
        e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].first = e->tracks[FERRY_PARTICLE_TRACK_TEXTURE_INDEX].last = 3;
    }
    h.emitters[1].properties.blend_mode = 1;
    ferry_particle_sim *sim = sim_at(s, 0, 1);
    CHECK(ferry_particle_sim_count(sim) == 2);
    ferry_particle_camera cam;
    memset(&cam, 0, sizeof cam);
    cam.eye[1] = -10;
    cam.up[2] = 1;
    cam.fov_y = 0.7f;
    ferry_particle_sprite *sp = NULL;
    size_t n = 0;
    ferry_error err;
    const ferry_particle_sim *sims[2] = {sim, NULL};
    CHECK(ferry_particle_sprites(sims, 2, &cam, &sp, &n, &err) == FERRY_OK);
    CHECK(n == 2);
    for (size_t i = 0; sp && i < n; i++) {
        ferry_particle_state st;
        ferry_particle_sim_get(sim, 0, &st);
        if (st.emitter != sp[i].emitter) ferry_particle_sim_get(sim, 1, &st);
        CHECK(st.emitter == sp[i].emitter);
        CHECK(sp[i].system == 0 && sp[i].frame == 3);
        CHECK(sp[i].blend == (sp[i].emitter == 1 ? FERRY_PARTICLE_BLEND_ADD : FERRY_PARTICLE_BLEND_ALPHA));
        CHECK_NEAR(sp[i].depth, 10 + st.position[1], 1e-5);
        /* Facing the camera (looking along +y: x right, z up), turned by
         * the rotation: the bottom-left corner is -(right + up) turned. */
        float c = cosf(st.rotation), sn = sinf(st.rotation);
        CHECK_NEAR(sp[i].corners[0][0] - st.position[0], -c + sn, 1e-5);
        CHECK_NEAR(sp[i].corners[0][2] - st.position[2], -sn - c, 1e-5);
        CHECK_NEAR(sp[i].corners[2][0] - st.position[0], c - sn, 1e-5);
        CHECK_NEAR(sp[i].corners[2][2] - st.position[2], sn + c, 1e-5);
        CHECK_NEAR(sp[i].corners[1][1], st.position[1], 1e-5);
        /* Element 3: the right column, the bottom row; the top-left corner at (0.5, 0.5). */
        CHECK_NEAR(sp[i].uv[3][0], 0.5, 1e-6);
        CHECK_NEAR(sp[i].uv[3][1], 0.5, 1e-6);
        CHECK_NEAR(sp[i].uv[1][0], 1, 1e-6);
        CHECK_NEAR(sp[i].uv[1][1], 1, 1e-6);
        CHECK(sp[i].color[3] > 0);
    }
    ferry_particle_sprites_free(sp);
    /* Behind the camera: none. */
    cam.eye[1] = 10;
    cam.target[1] = 20;
    CHECK(ferry_particle_sprites(sims, 1, &cam, &sp, &n, &err) == FERRY_OK);
    CHECK(n == 0 && sp == NULL);
    CHECK(ferry_particle_sprites(sims, 1, NULL, &sp, &n, &err) == FERRY_ERR_ARGUMENT);
    ferry_particle_sim_free(sim);

    /* Every blend mode's class, as docs/formats/alo-particle.md lists them. */
    static const ferry_particle_blend classes[14] = {
        FERRY_PARTICLE_BLEND_OPAQUE, FERRY_PARTICLE_BLEND_ADD,      FERRY_PARTICLE_BLEND_ALPHA,
        FERRY_PARTICLE_BLEND_MODULATE, FERRY_PARTICLE_BLEND_ADD,    FERRY_PARTICLE_BLEND_ALPHA,
        FERRY_PARTICLE_BLEND_MODULATE, FERRY_PARTICLE_BLEND_ALPHA,  FERRY_PARTICLE_BLEND_DARKEN,
        FERRY_PARTICLE_BLEND_DARKEN, FERRY_PARTICLE_BLEND_ALPHA,    FERRY_PARTICLE_BLEND_ALPHA,
        FERRY_PARTICLE_BLEND_ALPHA,  FERRY_PARTICLE_BLEND_ALPHA};
    ferry_particle_properties pr;
    memset(&pr, 0, sizeof pr);
    for (uint32_t m = 0; m < 14; m++) {
        pr.blend_mode = m;
        CHECK_MSG(ferry_particle_blend_of(&pr) == classes[m], "blend mode %u", m);
    }
    pr.blend_mode = 1;
    pr.is_heat_particle = 1;
    CHECK(ferry_particle_blend_of(&pr) == FERRY_PARTICLE_BLEND_ALPHA);

    /* The glow of a missing texture: opaque-ish white in the middle, nothing in the corners. */
    ferry_image glow;
    CHECK(ferry_particle_glow_image(32, &glow, &err) == FERRY_OK);
    CHECK(glow.width == 32 && glow.rgba && glow.rgba[(16 * 32 + 16) * 4 + 3] > 230);
    CHECK(glow.rgba && glow.rgba[3] == 0 && glow.rgba[(16 * 32 + 16) * 4] == 255);
    ferry_image_free(&glow);
    CHECK(ferry_particle_glow_image(0, &glow, &err) == FERRY_ERR_ARGUMENT);
}

int main(void)
{
    test_counts();
    test_kinematics();
    test_ground();
    test_stepping();
    test_connections();
    test_bounds();
    test_appearance();
    test_render();
    test_sprites();
    TEST_END();
}
