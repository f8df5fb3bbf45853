/* make_samples OUTDIR: writes the sample models of sample_models.c under
 * OUTDIR (`make samples` regenerates the committed samples/ this way).
 *
 * Each model is read back and validated before it is saved, so a sample
 * that the library itself would find fault with is never written. Textures
 * are not looked up: samples ship without them, and a missing texture is
 * only ever a warning. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ferry/alo.h>

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

/* Reads the bytes back and validates what a user of the file would get. */
static int check(const char *path, const ferry_buffer *bytes)
{
    ferry_alo_model *model;
    ferry_error err;
    char line[512];
    if (ferry_alo_read(bytes->data, bytes->size, NULL, &model, &err) != FERRY_OK) {
        ferry_error_format(&err, line, sizeof line);
        fprintf(stderr, "make_samples: %s does not read back: %s\n", path, line);
        return -1;
    }
    ferry_diagnostics diags = {0};
    ferry_alo_validate(model, NULL, &diags);
    for (size_t i = 0; i < diags.count; i++) {
        const ferry_diagnostic *d = &diags.items[i];
        fprintf(stderr, "make_samples: %s: %s [%s] %s: %s\n", path,
                d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning", d->rule, d->path, d->message);
    }
    int rc = diags.count == 0 && diags.dropped == 0 ? 0 : -1;
    ferry_diagnostics_free(&diags);
    ferry_alo_free(model);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\nWrites the bundled sample models under OUTDIR (e.g. samples).\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (size_t i = 0; i < sample_builder_count; i++) {
        sample_model sample;
        sample_builders[i](&sample);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], sample.file);
        ferry_buffer bytes = {0};
        ferry_error err;
        char line[512];
        if (ferry_alo_write(&sample.model, &bytes, &err) != FERRY_OK) {
            ferry_error_format(&err, line, sizeof line);
            fprintf(stderr, "make_samples: cannot encode %s: %s\n", sample.file, line);
            failures++;
        } else if (check(sample.file, &bytes) != 0) {
            failures++;
        } else if (make_parents(path) != 0) {
            fprintf(stderr, "make_samples: cannot create the directory of %s: %s\n", path, strerror(errno));
            failures++;
        } else if (ferry_file_write_atomic(path, bytes.data, bytes.size, NULL, &err) != FERRY_OK) {
            ferry_error_format(&err, line, sizeof line);
            fprintf(stderr, "make_samples: cannot write %s: %s\n", path, line);
            failures++;
        } else {
            printf("%s (%zu bytes)\n", path, bytes.size);
        }
        ferry_buffer_free(&bytes);
        sample_model_free(&sample);
    }
    return failures ? 1 : 0;
}
