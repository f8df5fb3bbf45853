/* libFuzzer target: the ALA animation reader, and everything that consumes
 * an animation it produced (writer, conversion, validation, model check,
 * sampling).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input;
 *  - an animation that reads writes back byte for byte, and those bytes read;
 *  - a conversion to the other format that succeeds samples the same poses,
 *    bit for bit, as the original (the integers move, nothing is requantized);
 *  - validation and the model check count what they report, and locate it
 *    inside the input or say there is no place;
 *  - sampling returns unit quaternions (or NaN-free identity) whatever the data. */
#include <ferry/ala.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough frames and bones to reach every code path, few enough that a
 * file announcing millions of frames stays fast. */
#define MAX_FRAMES 64
#define MAX_BONES 64

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_ala: %s\n", what);
    abort();
}

static void check_diagnostics(const ferry_diagnostics *d, size_t errors, size_t size)
{
    if (errors != d->error_count) fail("the returned error count differs from the diagnostics'");
    for (size_t i = 0; i < d->count; i++) {
        const ferry_diagnostic *x = &d->items[i];
        if (!x->message[0] || !x->rule[0]) fail("diagnostic without rule or message");
        if (x->offset != FERRY_NO_OFFSET && x->offset > size) fail("diagnostic located outside the input");
    }
}

static void check_pose(const ferry_ala_pose *p)
{
    double n2 = 0;
    for (int k = 0; k < 4; k++) n2 += (double)p->rotation[k] * p->rotation[k];
    /* Stored integers always give a finite quaternion; normalized, or the identity. */
    if (!(fabs(n2 - 1) < 1e-4)) fail("sampled rotation is not a unit quaternion");
}

/* A small skeleton whose names partly match what fuzzed files hold. */
static void model_check(const ferry_ala_animation *a, size_t size)
{
    ferry_alo_bone bones[3];
    memset(bones, 0, sizeof bones);
    bones[0].name = "Root";
    bones[1].name = "Base";
    bones[2].name = "Tip";
    bones[0].parent = -1;
    ferry_alo_model model;
    memset(&model, 0, sizeof model);
    model.skeleton.bones = bones;
    model.skeleton.bone_count = 3;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_ala_check_model(a, &model, &d);
    check_diagnostics(&d, errors, size);
    ferry_diagnostics_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_ala_animation *a;
    ferry_error err;
    if (ferry_ala_read(data, size, NULL, &a, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0])
            fail("error without a location inside the input");
        return 0;
    }

    ferry_buffer out = {0};
    if (ferry_ala_write(a, &out, &err) != FERRY_OK) fail("a read animation does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");
    ferry_ala_animation *again;
    if (ferry_ala_read(out.data, out.size, NULL, &again, &err) != FERRY_OK) fail("written bytes do not read");
    ferry_ala_free(again);
    ferry_buffer_free(&out);

    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_ala_validate(a, NULL, &d);
    check_diagnostics(&d, errors, size);
    ferry_diagnostics_free(&d);
    model_check(a, size);

    size_t bones = a->bone_count < MAX_BONES ? a->bone_count : MAX_BONES;
    uint32_t frames = a->frame_count < MAX_FRAMES ? a->frame_count : MAX_FRAMES;
    ferry_ala_pose *all = malloc((a->bone_count ? a->bone_count : 1) * sizeof *all);
    if (!all) fail("out of memory");
    const double times[] = {-1.5, 0, 0.5, frames / 2.0 + 0.25, (double)a->frame_count + 3, NAN, INFINITY};
    for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
        ferry_ala_sample_all(a, times[k], k % 2 ? FERRY_ALA_LOOP : FERRY_ALA_CLAMP, all);
        for (size_t b = 0; b < bones; b++) check_pose(&all[b]);
    }
    ferry_ala_pose p;
    ferry_ala_sample_time(a, 0, 0.1, FERRY_ALA_LOOP, &p);
    (void)ferry_ala_duration(a);
    free(all);

    ferry_ala_format other = a->format == FERRY_ALA_FORMAT_1 ? FERRY_ALA_FORMAT_2 : FERRY_ALA_FORMAT_1;
    ferry_ala_animation *c;
    /* Huge announced frame counts are refused by conversion (tracks must
     * match them) unless the data is there, so this stays bounded by size. */
    if (ferry_ala_convert(a, other, NULL, &c, &err) == FERRY_OK) {
        if (c->format != other || c->bone_count != a->bone_count) fail("conversion changed the format or bones");
        for (size_t b = 0; b < bones; b++)
            for (uint32_t f = 0; f < frames; f++) {
                ferry_ala_pose x, y;
                ferry_ala_sample(a, b, f + 0.5, FERRY_ALA_CLAMP, &x);
                ferry_ala_sample(c, b, f + 0.5, FERRY_ALA_CLAMP, &y);
                if (memcmp(&x, &y, sizeof x) != 0) fail("conversion changed a pose");
            }
        ferry_ala_free(c);
    } else if (err.code != FERRY_ERR_ARGUMENT) {
        fail("conversion failed with something other than a refusal");
    }
    ferry_ala_free(a);
    return 0;
}
