/* make_odol_samples OUTDIR: writes the ODOL v40 samples of odol_samples.c
 * under OUTDIR (`make samples` regenerates the committed samples/odol this
 * way). Each file is read back, written again and validated before it is
 * saved: a sample that does not read back to the same bytes, or that the
 * library's validation finds an error in, is never written. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ferry/odol.h>

#include "odol_samples.h"

static void print_error(const char *what, const char *file, const ferry_error *err)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    fprintf(stderr, "make_odol_samples: %s %s: %s\n", what, file, line);
}

static int check(const char *file, const ferry_buffer *bytes)
{
    ferry_odol_model *model;
    ferry_error err;
    if (ferry_odol_read(bytes->data, bytes->size, NULL, &model, &err) != FERRY_OK) {
        print_error("cannot read back", file, &err);
        return -1;
    }
    ferry_buffer again = {0};
    int rc = 0;
    if (ferry_odol_write(model, &again, &err) != FERRY_OK || again.size != bytes->size ||
        memcmp(again.data, bytes->data, bytes->size) != 0) {
        fprintf(stderr, "make_odol_samples: %s does not write back the same bytes\n", file);
        rc = -1;
    }
    ferry_buffer_free(&again);
    ferry_diagnostics diags = {0};
    size_t errors = ferry_odol_validate(model, &diags);
    for (size_t i = 0; i < diags.count; i++) {
        const ferry_diagnostic *d = &diags.items[i];
        fprintf(stderr, "make_odol_samples: %s: %s [%s] %s: %s\n", file,
                d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning", d->rule, d->path, d->message);
    }
    if (errors) rc = -1;
    ferry_diagnostics_free(&diags);
    ferry_odol_free(model);
    return rc;
}

static int save(const char *outdir, const char *file, const ferry_buffer *bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, file);
    /* Every directory leading to the file. */
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int rc = mkdir(path, 0777);
        *p = '/';
        if (rc != 0 && errno != EEXIST) {
            fprintf(stderr, "make_odol_samples: cannot create the directory of %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    ferry_error err;
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
        fprintf(stderr, "usage: %s OUTDIR\nWrites the bundled ODOL v40 samples under OUTDIR (e.g. samples).\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (size_t i = 0; i < odol_sample_builder_count; i++) {
        odol_sample sample;
        odol_sample_builders[i](&sample);
        ferry_buffer bytes = {0};
        ferry_error err;
        if (ferry_odol_update(&sample.model, &err) != FERRY_OK) {
            print_error("cannot lay out", sample.file, &err);
            failures++;
        } else if (ferry_odol_write(&sample.model, &bytes, &err) != FERRY_OK) {
            print_error("cannot encode", sample.file, &err);
            failures++;
        } else if (check(sample.file, &bytes) != 0 || save(argv[1], sample.file, &bytes) != 0) {
            failures++;
        }
        ferry_buffer_free(&bytes);
        odol_sample_free(&sample);
    }
    return failures ? 1 : 0;
}
