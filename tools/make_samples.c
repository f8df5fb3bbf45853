/* make_samples OUTDIR: writes the samples of sample_models.c under OUTDIR
 * (`make samples` regenerates the committed samples/ this way): the models,
 * the animations made for them and the particle systems.
 *
 * Each file is read back and validated before it is saved, so a sample
 * that the library itself would find fault with (an error or a warning) is
 * never written: an animation is also checked against its model, a
 * particle system against its file name. Textures are not looked up:
 * samples ship without them, and a missing texture is only ever a warning. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/particle.h>

#include "sample_io.h"
#include "sample_models.h"

static const char prog[] = "make_samples";

/* Prints every report; 0 when there was none at all. */
static int report(const char *file, ferry_diagnostics *diags)
{
    sample_print_diags(prog, file, diags);
    int rc = diags->count == 0 && diags->dropped == 0 ? 0 : -1;
    ferry_diagnostics_free(diags);
    return rc;
}

/* Reads the bytes back and validates what a user of the file would get. */
static int check_model(const char *file, const ferry_buffer *bytes)
{
    ferry_alo_model *model;
    ferry_error err;
    if (ferry_alo_read(bytes->data, bytes->size, NULL, &model, &err) != FERRY_OK) {
        sample_print_error(prog, "cannot read back", file, &err);
        return -1;
    }
    ferry_diagnostics diags = {0};
    ferry_alo_validate(model, NULL, &diags);
    ferry_alo_free(model);
    return report(file, &diags);
}

static int check_animation(const char *file, const ferry_buffer *bytes, sample_builder build_model)
{
    ferry_ala_animation *anim;
    ferry_error err;
    if (ferry_ala_read(bytes->data, bytes->size, NULL, &anim, &err) != FERRY_OK) {
        sample_print_error(prog, "cannot read back", file, &err);
        return -1;
    }
    sample_model model;
    build_model(&model);
    ferry_diagnostics diags = {0};
    ferry_ala_validate(anim, NULL, &diags);
    ferry_ala_check_model(anim, &model.model, &diags);
    sample_model_free(&model);
    ferry_ala_free(anim);
    return report(file, &diags);
}

static int check_particles(const char *file, const ferry_buffer *bytes)
{
    ferry_particle_system *system;
    ferry_error err;
    if (ferry_particle_read(bytes->data, bytes->size, NULL, &system, &err) != FERRY_OK) {
        sample_print_error(prog, "cannot read back", file, &err);
        return -1;
    }
    ferry_diagnostics diags = {0};
    const ferry_particle_validate_options options = {file, NULL, NULL};
    ferry_particle_validate(system, &options, &diags);
    ferry_particle_free(system);
    return report(file, &diags);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr,
                "usage: %s OUTDIR\nWrites the bundled sample models, animations and particle systems under OUTDIR "
                "(e.g. samples).\n",
                argv[0]);
        return 2;
    }
    const char *outdir = argv[1];
    int failures = 0;
    ferry_error err;
    for (size_t i = 0; i < sample_builder_count; i++) {
        sample_model sample;
        sample_builders[i](&sample);
        ferry_buffer bytes = {0};
        if (ferry_alo_write(&sample.model, &bytes, &err) != FERRY_OK) {
            sample_print_error(prog, "cannot encode", sample.file, &err);
            failures++;
        } else if (check_model(sample.file, &bytes) != 0 || sample_save(prog, outdir, sample.file, &bytes) != 0) {
            failures++;
        }
        ferry_buffer_free(&bytes);
        sample_model_free(&sample);
    }
    for (size_t i = 0; i < sample_animation_builder_count; i++) {
        sample_animation sample;
        sample_animation_builders[i](&sample);
        ferry_buffer bytes = {0};
        if (ferry_ala_write(&sample.anim, &bytes, &err) != FERRY_OK) {
            sample_print_error(prog, "cannot encode", sample.file, &err);
            failures++;
        } else if (check_animation(sample.file, &bytes, sample.model) != 0 ||
                   sample_save(prog, outdir, sample.file, &bytes) != 0) {
            failures++;
        }
        ferry_buffer_free(&bytes);
        sample_animation_free(&sample);
    }
    for (size_t i = 0; i < sample_particles_builder_count; i++) {
        sample_particles sample;
        sample_particles_builders[i](&sample);
        ferry_buffer bytes = {0};
        if (ferry_particle_write(&sample.system, &bytes, &err) != FERRY_OK) {
            sample_print_error(prog, "cannot encode", sample.file, &err);
            failures++;
        } else if (check_particles(sample.file, &bytes) != 0 || sample_save(prog, outdir, sample.file, &bytes) != 0) {
            failures++;
        }
        ferry_buffer_free(&bytes);
        sample_particles_free(&sample);
    }
    return failures ? 1 : 0;
}
