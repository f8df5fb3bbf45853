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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/particle.h>

#include "sample_models.h"

/* Creates every directory leading to the file at `path`. */
static int make_parents(const char *path)
{
    char dir[4096];
    size_t n = strlen(path);
    if (n >= sizeof dir) return -1;
    memcpy(dir, path, n + 1);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return 0;
}

static void print_error(const char *what, const char *file, const ferry_error *err)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    fprintf(stderr, "make_samples: %s %s: %s\n", what, file, line);
}

/* Prints every report; 0 when there was none at all. */
static int report(const char *file, ferry_diagnostics *diags)
{
    for (size_t i = 0; i < diags->count; i++) {
        const ferry_diagnostic *d = &diags->items[i];
        fprintf(stderr, "make_samples: %s: %s [%s] %s: %s\n", file,
                d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning", d->rule, d->path, d->message);
    }
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
        print_error("cannot read back", file, &err);
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
        print_error("cannot read back", file, &err);
        return -1;
    }
    sample_model model;
    build_model(&model);
    ferry_diagnostics diags = {0};
    ferry_ala_validate(anim, &diags);
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
        print_error("cannot read back", file, &err);
        return -1;
    }
    ferry_diagnostics diags = {0};
    const ferry_particle_validate_options options = {file, NULL, NULL};
    ferry_particle_validate(system, &options, &diags);
    ferry_particle_free(system);
    return report(file, &diags);
}

/* Writes the encoded and checked bytes to OUTDIR/file. */
static int save(const char *outdir, const char *file, const ferry_buffer *bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, file);
    ferry_error err;
    if (make_parents(path) != 0) {
        fprintf(stderr, "make_samples: cannot create the directory of %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (ferry_file_write_atomic(path, bytes->data, bytes->size, NULL, &err) != FERRY_OK) {
        print_error("cannot write", path, &err);
        return -1;
    }
    printf("%s (%zu bytes)\n", path, bytes->size);
    return 0;
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
            print_error("cannot encode", sample.file, &err);
            failures++;
        } else if (check_model(sample.file, &bytes) != 0 || save(outdir, sample.file, &bytes) != 0) {
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
            print_error("cannot encode", sample.file, &err);
            failures++;
        } else if (check_animation(sample.file, &bytes, sample.model) != 0 ||
                   save(outdir, sample.file, &bytes) != 0) {
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
            print_error("cannot encode", sample.file, &err);
            failures++;
        } else if (check_particles(sample.file, &bytes) != 0 || save(outdir, sample.file, &bytes) != 0) {
            failures++;
        }
        ferry_buffer_free(&bytes);
        sample_particles_free(&sample);
    }
    return failures ? 1 : 0;
}
