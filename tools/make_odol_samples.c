/* make_odol_samples OUTDIR: writes the ODOL v40 samples of odol_samples.c
 * under OUTDIR (`make samples` regenerates the committed samples/odol this
 * way). Each file is read back, written again and validated before it is
 * saved: a sample that does not read back to the same bytes, or that the
 * library's validation finds an error in, is never written. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ferry/odol.h>

#include "odol_samples.h"
#include "sample_io.h"

static const char prog[] = "make_odol_samples";

static int check(const char *file, const ferry_buffer *bytes)
{
    ferry_odol_model *model;
    ferry_error err;
    if (ferry_odol_read(bytes->data, bytes->size, NULL, &model, &err) != FERRY_OK) {
        sample_print_error(prog, "cannot read back", file, &err);
        return -1;
    }
    ferry_buffer again = {0};
    int rc = 0;
    if (ferry_odol_write(model, &again, &err) != FERRY_OK || again.size != bytes->size ||
        memcmp(again.data, bytes->data, bytes->size) != 0) {
        fprintf(stderr, "%s: %s does not write back the same bytes\n", prog, file);
        rc = -1;
    }
    ferry_buffer_free(&again);
    ferry_diagnostics diags = {0};
    size_t errors = ferry_odol_validate(model, NULL, &diags);
    sample_print_diags(prog, file, &diags);
    if (errors) rc = -1;
    ferry_diagnostics_free(&diags);
    ferry_odol_free(model);
    return rc;
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
            sample_print_error(prog, "cannot lay out", sample.file, &err);
            failures++;
        } else if (ferry_odol_write(&sample.model, &bytes, &err) != FERRY_OK) {
            sample_print_error(prog, "cannot encode", sample.file, &err);
            failures++;
        } else if (check(sample.file, &bytes) != 0 || sample_save(prog, argv[1], sample.file, &bytes) != 0) {
            failures++;
        }
        ferry_buffer_free(&bytes);
        odol_sample_free(&sample);
    }
    return failures ? 1 : 0;
}
