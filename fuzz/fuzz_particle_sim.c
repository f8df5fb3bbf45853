/* libFuzzer target: the particle simulator and renderer on any particle
 * system the reader accepts, run for a short time with small limits.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - it finishes (libFuzzer's timeout catches a hang) within its limits:
 *    never more live particles than max_particles;
 *  - particle ids are unique;
 *  - every particle's emitter is an emitter of the system, its age is not
 *    negative and (for finite lifetimes) below its lifetime unless frozen;
 *  - the same seed gives the same particles whether the time is reached in
 *    one step or in many, when no limit was reached (warning-free) and no
 *    emitter has a birth connection (a birth emitter follows its particle's
 *    path as last updated, which a bounce between steps can change);
 *  - the renderer draws a small image of whatever is alive. */
#include <ferry/particle_sim.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HORIZON 3.0
#define STEPS 12

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_particle_sim: %s\n", what);
    abort();
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static ferry_particle_sim *make(const ferry_particle_system *s, uint64_t seed)
{
    ferry_particle_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.max_particles = 2000;
    o.max_emitters = 64;
    o.max_spawn_depth = 4;
    o.max_rate = 2000;
    ferry_particle_sim *sim = NULL;
    ferry_error err;
    if (ferry_particle_sim_create(s, &o, &sim, &err) != FERRY_OK) fail("create failed on a read system");
    return sim;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_particle_system *system;
    ferry_error err;
    if (ferry_particle_read(data, size, NULL, &system, &err) != FERRY_OK) return 0;
    ferry_particle_sim *stepped = make(system, size), *once = make(system, size);
    for (int i = 1; i <= STEPS; i++) ferry_particle_sim_advance(stepped, HORIZON * i / STEPS);
    ferry_particle_sim_advance(once, HORIZON);
    size_t n = ferry_particle_sim_count(stepped);
    if (n > 2000 || ferry_particle_sim_count(once) > 2000) fail("more particles than the limit");
    for (size_t i = 0; i < n; i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(stepped, i, &p);
        if (p.emitter >= system->emitter_count) fail("a particle of no emitter");
        if (p.age < 0) fail("a negative age");
        const ferry_particle_properties *pr = &system->emitters[p.emitter].properties;
        bool frozen = pr->freeze_time > 0;
        if (!frozen && isfinite(p.lifetime) && p.lifetime < 1e30f && !(p.age < p.lifetime + 1e-3f * (1 + p.lifetime)))
            fail("a particle older than its lifetime");
    }
    ferry_particle_sim_arrays arr;
    ferry_particle_sim_get_arrays(stepped, &arr);
    uint64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids) fail("out of memory");
    memcpy(ids, arr.id, n * sizeof *ids);
    qsort(ids, n, sizeof *ids, cmp_u64);
    for (size_t i = 1; i < n; i++)
        if (ids[i] == ids[i - 1]) fail("two particles share an id");
    free(ids);
    bool births = false;
    for (size_t e = 0; e < system->emitter_count; e++) births = births || system->emitters[e].birth_emitter >= 0;
    if (!births && !ferry_particle_sim_warnings(stepped) && !ferry_particle_sim_warnings(once) &&
        ferry_particle_sim_count(once) != n)
        fail("one step and many steps give different particle counts");

    float lo[3], hi[3];
    ferry_particle_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.width = 24;
    ro.height = 16;
    if (!ferry_particle_sim_bounds(stepped, lo, hi)) {
        memset(lo, 0, sizeof lo);
        memset(hi, 0, sizeof hi);
    }
    ferry_particle_camera_frame(lo, hi, 1.5f, &ro.camera);
    ferry_image img;
    if (ferry_particle_render(stepped, &ro, &img, &err) != FERRY_OK) fail("render failed");
    ferry_image_free(&img);
    ferry_particle_sim_free(stepped);
    ferry_particle_sim_free(once);
    ferry_particle_free(system);
    return 0;
}
