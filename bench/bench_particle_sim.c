/* Particle simulation throughput: particle updates per second of
 * ferry_particle_sim_advance (structure of arrays, closed-form motion,
 * deaths and emissions included) against plain array-of-structs loops
 * doing the same per-particle work, in the same run.
 *
 *   bench_particle_sim [--particles N] [--steps S] [--rounds R]
 *
 * The system is built here (no corpus needed): one stream emitter whose
 * rate x lifetime keeps N particles alive, random velocities from a
 * sphere, acceleration and gravity. After a warm-up to the steady state,
 * each round advances S steps of 1/60 s; an update is one live particle
 * brought to a step's time. The AoS loops run over the same particles:
 * "AoS closed form" evaluates the same formula from a struct per particle,
 * "AoS Euler" is the usual integrate-every-frame loop (v += a dt,
 * p += v dt, age += dt). "SoA closed form" is the library's motion pass
 * (the first loop of ferry_particle_sim_advance) over arrays holding the
 * same particles: layout against layout for the same arithmetic. Medians
 * of the rounds; ratios per round. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/particle_sim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct aos_particle {
    double tb, t0;
    float x0[3], v0[3], a[3];
    float life;
    float p[3], v[3];
    float age;
} aos_particle;

static volatile float sink;

int main(int argc, char **argv)
{
    size_t particles = 100000;
    int steps = 120, rounds = 7;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--particles") == 0 && i + 1 < argc)
            particles = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
            steps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_particle_sim [--particles N] [--steps S] [--rounds R]\n");
            return 2;
        }
    }
    if (particles < 1000) particles = 1000;
    if (steps < 1) steps = 1;
    if (rounds < 1) rounds = 1;

    /* Lifetime 2 s, rate N/2 per second: N alive in the steady state. */
    ferry_particle_emitter e;
    memset(&e, 0, sizeof e);
    e.properties.lifetime = 2;
    e.properties.particles_per_second = (uint32_t)(particles / 2);
    e.properties.acceleration[0] = 1;
    e.properties.gravity = 9.81f;
    e.groups[FERRY_PARTICLE_GROUP_LIFETIME].type = FERRY_PARTICLE_GROUP_BOX;
    e.groups[FERRY_PARTICLE_GROUP_LIFETIME].min[1] = 2;
    e.groups[FERRY_PARTICLE_GROUP_LIFETIME].max[1] = 2;
    e.groups[FERRY_PARTICLE_GROUP_VELOCITY].type = FERRY_PARTICLE_GROUP_SPHERE;
    e.groups[FERRY_PARTICLE_GROUP_VELOCITY].sphere_radius = 30;
    e.death_emitter = e.birth_emitter = -1;
    ferry_particle_system sys;
    memset(&sys, 0, sizeof sys);
    sys.name = "bench";
    sys.emitters = &e;
    sys.emitter_count = 1;

    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    o.max_particles = particles + particles / 10 + 16;
    o.max_rate = 1e9;
    o.no_ground = true;
    ferry_particle_sim *sim;
    ferry_error err;
    if (ferry_particle_sim_create(&sys, &o, &sim, &err) != FERRY_OK) {
        fprintf(stderr, "bench_particle_sim: %s\n", err.message);
        return 1;
    }
    const double dt = 1.0 / 60;
    double t = 2.5;
    ferry_particle_sim_advance(sim, t);
    size_t live = ferry_particle_sim_count(sim);

    /* The same particles as structs. */
    aos_particle *aos = calloc(live, sizeof *aos);
    if (!aos) return 1;
    ferry_particle_sim_arrays arr;
    ferry_particle_sim_get_arrays(sim, &arr);
    for (size_t i = 0; i < live; i++) {
        aos_particle *q = &aos[i];
        q->tb = q->t0 = t - arr.age[i];
        q->x0[0] = arr.px[i], q->x0[1] = arr.py[i], q->x0[2] = arr.pz[i];
        q->v0[0] = arr.vx[i], q->v0[1] = arr.vy[i], q->v0[2] = arr.vz[i];
        q->a[0] = 1, q->a[1] = 0, q->a[2] = -9.81f;
        q->life = 1e30f; /* AoS loops keep every particle: no emission work to pay for */
        memcpy(q->p, q->x0, sizeof q->p);
        memcpy(q->v, q->v0, sizeof q->v);
        q->t0 = t;
    }

    /* The same particles as arrays. */
    double *s_tb = malloc(live * sizeof *s_tb), *s_t0 = malloc(live * sizeof *s_t0);
    float *sf = malloc(live * 16 * sizeof *sf);
    if (!s_tb || !s_t0 || !sf) return 1;
    float *x0 = sf, *y0 = sf + live, *z0 = sf + 2 * live, *u0 = sf + 3 * live, *v0 = sf + 4 * live,
          *w0 = sf + 5 * live, *ax = sf + 6 * live, *ay = sf + 7 * live, *az = sf + 8 * live, *px = sf + 9 * live,
          *py = sf + 10 * live, *pz = sf + 11 * live, *vx = sf + 12 * live, *vy = sf + 13 * live,
          *vz = sf + 14 * live, *ag = sf + 15 * live;
    for (size_t i = 0; i < live; i++) {
        s_tb[i] = aos[i].tb, s_t0[i] = aos[i].t0;
        x0[i] = aos[i].x0[0], y0[i] = aos[i].x0[1], z0[i] = aos[i].x0[2];
        u0[i] = aos[i].v0[0], v0[i] = aos[i].v0[1], w0[i] = aos[i].v0[2];
        ax[i] = aos[i].a[0], ay[i] = aos[i].a[1], az[i] = aos[i].a[2];
    }
    double *sclosed = malloc((size_t)rounds * sizeof *sclosed), *r3 = malloc((size_t)rounds * sizeof *r3);
    double tsoa = t;
    double *soa = malloc((size_t)rounds * sizeof *soa), *closed = malloc((size_t)rounds * sizeof *closed),
           *euler = malloc((size_t)rounds * sizeof *euler), *r1 = malloc((size_t)rounds * sizeof *r1),
           *r2 = malloc((size_t)rounds * sizeof *r2);
    size_t live_min = live, live_max = live;
    double taos = t;
    for (int r = 0; r < rounds; r++) {
        double updates = 0, t0 = bench_now();
        for (int s = 0; s < steps; s++) {
            updates += (double)ferry_particle_sim_count(sim);
            t += dt;
            ferry_particle_sim_advance(sim, t);
        }
        double t1 = bench_now();
        soa[r] = updates / (t1 - t0);
        size_t n = ferry_particle_sim_count(sim);
        if (n < live_min) live_min = n;
        if (n > live_max) live_max = n;

        t0 = bench_now();
        for (int s = 0; s < steps; s++) {
            taos += dt;
            for (size_t i = 0; i < live; i++) {
                aos_particle *q = &aos[i];
                float tau = (float)(taos - q->t0), h = 0.5f * tau * tau;
                for (int k = 0; k < 3; k++) {
                    q->p[k] = q->x0[k] + q->v0[k] * tau + q->a[k] * h;
                    q->v[k] = q->v0[k] + q->a[k] * tau;
                }
                q->age = (float)(taos - q->tb);
            }
            sink = aos[s % live].p[0];
        }
        t1 = bench_now();
        closed[r] = (double)live * steps / (t1 - t0);

        t0 = bench_now();
        for (int s = 0; s < steps; s++) {
            float fdt = (float)dt;
            for (size_t i = 0; i < live; i++) {
                aos_particle *q = &aos[i];
                for (int k = 0; k < 3; k++) {
                    q->v[k] += q->a[k] * fdt;
                    q->p[k] += q->v[k] * fdt;
                }
                q->age += fdt;
            }
            sink = aos[s % live].p[1];
        }
        t1 = bench_now();
        euler[r] = (double)live * steps / (t1 - t0);
        t0 = bench_now();
        for (int s = 0; s < steps; s++) {
            tsoa += dt;
            for (size_t i = 0; i < live; i++) {
                float tau = (float)(tsoa - s_t0[i]), h = 0.5f * tau * tau;
                px[i] = x0[i] + u0[i] * tau + ax[i] * h;
                py[i] = y0[i] + v0[i] * tau + ay[i] * h;
                pz[i] = z0[i] + w0[i] * tau + az[i] * h;
                vx[i] = u0[i] + ax[i] * tau;
                vy[i] = v0[i] + ay[i] * tau;
                vz[i] = w0[i] + az[i] * tau;
                ag[i] = (float)(tsoa - s_tb[i]);
            }
            sink = px[s % live];
        }
        t1 = bench_now();
        sclosed[r] = (double)live * steps / (t1 - t0);
        r3[r] = sclosed[r] / closed[r];
        r1[r] = soa[r] / closed[r];
        r2[r] = soa[r] / euler[r];
    }
    printf("particles live %zu (%zu..%zu during the rounds), %d steps of 1/60 s per round, %d rounds\n", live,
           live_min, live_max, steps, rounds);
    printf("%-44s %10.1f M updates/s\n", "ferry_particle_sim_advance (SoA, all work)", bench_median(soa, rounds) / 1e6);
    printf("%-44s %10.1f M updates/s\n", "SoA closed form (motion only)", bench_median(sclosed, rounds) / 1e6);
    printf("%-44s %10.1f M updates/s\n", "AoS closed form (motion only)", bench_median(closed, rounds) / 1e6);
    printf("%-44s %10.1f M updates/s\n", "AoS Euler (motion only)", bench_median(euler, rounds) / 1e6);
    printf("ratios (medians of per-round ratios): motion only SoA / AoS %.2f; full advance / AoS closed form %.2f, "
           "/ AoS Euler %.2f\n",
           bench_median(r3, rounds), bench_median(r1, rounds), bench_median(r2, rounds));
    free(s_tb);
    free(s_t0);
    free(sf);
    free(sclosed);
    free(r3);
    free(soa);
    free(closed);
    free(euler);
    free(r1);
    free(r2);
    free(aos);
    ferry_particle_sim_free(sim);
    return 0;
}
