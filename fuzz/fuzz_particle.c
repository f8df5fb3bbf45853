/* libFuzzer target: the particle system reader, and everything that
 * consumes a system it produced (writer, validation, track evaluation,
 * sampling from property groups).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input;
 *  - a system that reads writes back byte for byte (the writer's promise
 *    for read systems, damaged or not), and those bytes read again;
 *  - validation's result equals its error count, and every diagnostic has
 *    a rule, a message and a place inside the input (or says it has none);
 *  - evaluation: a track whose points are finite gives a finite value
 *    within their range; a group draw from finite fields is finite, and an
 *    exact group gives its value. */
#include <ferry/particle.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_particle: %s\n", what);
    abort();
}

static bool texture_exists(const char *name, void *user)
{
    (void)user;
    return name && name[0] != 'x';
}

static void check_track(const ferry_particle_track *t, bool color)
{
    /* Range of the track's points, when they are all finite. */
    double lo = color ? t->first_byte : t->first, hi = lo;
    double last = color ? t->last_byte : t->last;
    bool finite = isfinite(lo) && isfinite(last);
    lo = fmin(lo, last);
    hi = fmax(hi, last);
    for (size_t k = 0; k < t->key_count && finite; k++) {
        double y = color ? (double)t->keys[k].int_value : (double)t->keys[k].value;
        finite = isfinite(y) && isfinite(t->keys[k].time);
        lo = fmin(lo, y);
        hi = fmax(hi, y);
    }
    for (int i = 0; i <= 8; i++) {
        float v = ferry_particle_track_value(t, color, (float)i / 8);
        if (!finite) continue;
        /* Interpolation never leaves the range of the two points it joins;
         * float rounding of the result is the only slack. */
        double slack = 1e-5 * fmax(1, fmax(fabs(lo), fabs(hi)));
        if (!(v >= lo - slack && v <= hi + slack)) fail("track value outside the range of its points");
    }
}

static void check_group(const ferry_particle_group *g, ferry_particle_rng *rng)
{
    float p[3];
    ferry_particle_group_sample(g, rng, p);
    if (g->type == FERRY_PARTICLE_GROUP_EXACT && memcmp(p, g->value, sizeof p) != 0 &&
        !(isnan(p[0]) || isnan(p[1]) || isnan(p[2])))
        fail("an exact group does not give its value");
    bool finite = true;
    const float *f = g->min;
    for (int k = 0; k < 3; k++) finite = finite && isfinite(f[k]) && isfinite(g->max[k]) && isfinite(g->value[k]);
    finite = finite && isfinite(g->side_length) && isfinite(g->sphere_radius) && isfinite(g->cylinder_radius) &&
             isfinite(g->cylinder_height);
    /* Finite fields can still overflow a float (max - min), so only NaN is a breach. */
    if (finite && (isnan(p[0]) || isnan(p[1]) || isnan(p[2]))) fail("a group draw from finite fields is NaN");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_particle_system *system;
    ferry_error err;
    if (ferry_particle_read(data, size, NULL, &system, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0])
            fail("error without a location inside the input");
        return 0;
    }

    ferry_buffer out = {0};
    if (ferry_particle_write(system, &out, &err) != FERRY_OK) fail("a read system does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");
    ferry_particle_system *again;
    if (ferry_particle_read(out.data, out.size, NULL, &again, &err) != FERRY_OK) fail("written bytes do not read");
    ferry_particle_free(again);
    ferry_buffer_free(&out);

    ferry_diagnostics diags;
    memset(&diags, 0, sizeof diags);
    ferry_particle_validate_options vopts = {"fuzz/P_Fuzz.alo", texture_exists, NULL};
    size_t errors = ferry_particle_validate(system, &vopts, &diags);
    if (errors != diags.error_count) fail("validate's result differs from its error count");
    for (size_t i = 0; i < diags.count; i++) {
        const ferry_diagnostic *d = &diags.items[i];
        if (!d->message[0] || !d->rule[0]) fail("diagnostic without rule or message");
        if (d->offset != FERRY_NO_OFFSET && d->offset > size) fail("diagnostic located outside the input");
    }
    ferry_diagnostics_free(&diags);

    ferry_particle_rng rng = ferry_particle_rng_make(size);
    for (size_t e = 0; e < system->emitter_count; e++) {
        const ferry_particle_emitter *em = &system->emitters[e];
        for (int t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++) check_track(&em->tracks[t], t < FERRY_PARTICLE_COLOR_TRACKS);
        for (int g = 0; g < FERRY_PARTICLE_GROUP_COUNT; g++) check_group(&em->groups[g], &rng);
    }
    ferry_particle_free(system);
    return 0;
}
