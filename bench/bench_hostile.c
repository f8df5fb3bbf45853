/* Hostile inputs built in memory: how long the library takes where its
 * tests only check that a cap is reached (test_alm_bad_input's skin budget,
 * test_particle_sim's bounded bad input). Times are measured here, never
 * asserted in a test (the project's rule).
 *
 *   bench_hostile [--rounds R]
 *
 * Cases:
 *   alm skin budget F x P   ferry_alm_validate of a mesh of F frames and P
 *                           positions that might overflow in some frame
 *                           (F x P evaluations to try them all; the check
 *                           stops at its budget)
 *   particles: ...          one simulation each, as in test_bounds: a rate
 *                           of 4e9/s for 100 s; a huge time; endless bursts
 *                           without a delay; infinite lifetime to 1e9 s; a
 *                           death emitter spawning itself, stepped 100 times;
 *                           two emitters spawning each other, stepped 20 times
 * Medians of the rounds, wall clock, one thread. */
#define _POSIX_C_SOURCE 200809L
#include "../tests/hostile_fixture.h"
#include "bench_util.h"
#include <ferry/alm.h>
#include <ferry/particle_sim.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t alm_skin_budget(uint32_t F, uint32_t P)
{
    hostile_skin_mesh h;
    if (!hostile_skin_mesh_make(&h, F, P)) {
        fprintf(stderr, "bench_hostile: out of memory\n");
        exit(1);
    }
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_alm_validate(&h.mesh, NULL, &d);
    ferry_diagnostics_free(&d);
    hostile_skin_mesh_free(&h);
    return errors;
}

enum { RATE, HUGE_TIME, ENDLESS_BURSTS, INFINITE_LIFE, SELF_SPAWN, MUTUAL_SPAWN, PARTICLE_CASES };
static const char *const particle_case_names[PARTICLE_CASES] = {
    "particles: rate 4e9/s for 100 s",          "particles: 1000/s to t = 1e12 s",
    "particles: endless bursts without delay", "particles: infinite life to t = 1e9 s",
    "particles: death emitter spawns itself",  "particles: two emitters spawn each other",
};

/* Runs one case; returns the live particles at the end. */
static size_t particle_case(int which)
{
    ferry_particle_emitter em[2];
    ferry_particle_system sys;
    memset(&sys, 0, sizeof sys);
    sys.name = "hostile";
    sys.emitters = em;
    sys.emitter_count = 1;
    double until = 0;
    int steps = 1;
    double step = 0;
    switch (which) {
    case RATE:
        emitter_init(&em[0], 1000.0f);
        stream(&em[0], UINT32_MAX, 0);
        until = 100;
        break;
    case HUGE_TIME:
        emitter_init(&em[0], 1.0f);
        stream(&em[0], 1000, 0);
        until = 1e12;
        break;
    case ENDLESS_BURSTS:
        emitter_init(&em[0], 5.0f);
        bursts(&em[0], 1000, 0, 0, 0);
        until = 3;
        break;
    case INFINITE_LIFE:
        emitter_init(&em[0], INFINITY);
        stream(&em[0], 1000, 0);
        until = 1e9;
        break;
    case SELF_SPAWN:
        emitter_init(&em[0], 0.1f);
        bursts(&em[0], 10, 1, 0, 0);
        em[0].death_emitter = 0;
        steps = 100;
        step = 0.05;
        break;
    default: /* MUTUAL_SPAWN */
        sys.emitter_count = 2;
        emitter_init(&em[0], 0.5f);
        stream(&em[0], 20000, 0);
        em[0].death_emitter = em[0].birth_emitter = 1;
        emitter_init(&em[1], 0.5f);
        bursts(&em[1], 50, 0, 0.01f, 0);
        em[1].death_emitter = em[1].birth_emitter = 0;
        steps = 20;
        step = 0.1;
        break;
    }
    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    ferry_particle_sim *sim;
    ferry_error err;
    if (ferry_particle_sim_create(&sys, &o, &sim, &err) != FERRY_OK) {
        fprintf(stderr, "bench_hostile: %s\n", err.message);
        exit(1);
    }
    if (step > 0)
        for (int i = 1; i <= steps; i++) ferry_particle_sim_advance(sim, i * step);
    else
        ferry_particle_sim_advance(sim, until);
    size_t live = ferry_particle_sim_count(sim);
    ferry_particle_sim_free(sim);
    return live;
}

int main(int argc, char **argv)
{
    int rounds = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_hostile [--rounds R]\n");
            return 2;
        }
    }
    if (rounds < 1) rounds = 1;
    double *t = malloc((size_t)rounds * sizeof *t);
    if (!t) return 1;
    printf("%-48s %12s %10s\n", "case", "result", "median s");

    static const uint32_t alm_cases[][2] = {{100, 1000}, {2500, 20000}, {20000, 20000}};
    for (size_t c = 0; c < sizeof alm_cases / sizeof alm_cases[0]; c++) {
        size_t errors = 0;
        for (int r = 0; r < rounds; r++) {
            double t0 = bench_now();
            errors = alm_skin_budget(alm_cases[c][0], alm_cases[c][1]);
            t[r] = bench_now() - t0;
        }
        char label[64];
        snprintf(label, sizeof label, "alm skin budget %u frames x %u positions", (unsigned)alm_cases[c][0],
                 (unsigned)alm_cases[c][1]);
        char result[32];
        snprintf(result, sizeof result, "%zu errors", errors);
        printf("%-48s %12s %10.3f\n", label, result, bench_median(t, (size_t)rounds));
    }
    for (int c = 0; c < PARTICLE_CASES; c++) {
        size_t live = 0;
        for (int r = 0; r < rounds; r++) {
            double t0 = bench_now();
            live = particle_case(c);
            t[r] = bench_now() - t0;
        }
        char result[32];
        snprintf(result, sizeof result, "%zu live", live);
        printf("%-48s %12s %10.3f\n", particle_case_names[c], result, bench_median(t, (size_t)rounds));
    }
    free(t);
    return 0;
}
