/* Shared by the sample writers (make_samples, make_odol_samples): their
 * messages and the saving of a checked file under OUTDIR. Each function
 * takes the program's name, which starts every message. Header only, so
 * that each tool stays one source file plus its sample builders. */
#ifndef FERRY_TOOLS_SAMPLE_IO_H
#define FERRY_TOOLS_SAMPLE_IO_H

#include <stdio.h>
#include <string.h>

#include <ferry/ferry.h>

#include "core/platform.h"

/* "PROG: WHAT FILE: <located error>" on stderr. */
static inline void sample_print_error(const char *prog, const char *what, const char *file, const ferry_error *err)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    fprintf(stderr, "%s: %s %s: %s\n", prog, what, file, line);
}

/* Every diagnostic, one line each, on stderr; whether they fail the file
 * is the caller's choice (warnings fail an Alamo sample, not an ODOL one). */
static inline void sample_print_diags(const char *prog, const char *file, const ferry_diagnostics *diags)
{
    for (size_t i = 0; i < diags->count; i++) {
        const ferry_diagnostic *d = &diags->items[i];
        fprintf(stderr, "%s: %s: %s [%s] %s: %s\n", prog, file, d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning",
                d->rule, d->path, d->message);
    }
}

/* Writes the encoded and checked bytes to OUTDIR/FILE, creating the
 * directories leading to it; prints the path and size. 0, or -1 with the
 * reason printed. */
static inline int sample_save(const char *prog, const char *outdir, const char *file, const ferry_buffer *bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, file);
    for (char *p = path + 1; *p; p++) {
#ifdef _WIN32
        if (*p != '/' && *p != '\\') continue;
#else
        if (*p != '/') continue;
#endif
        char separator = *p;
        *p = '\0';
        fy_file_info info;
        int rc = fy_path_info(path, true, &info) == 0 && info.kind == FY_KIND_FOLDER ? 0 : fy_folder_make(path);
        *p = separator;
        if (rc != 0 && !fy_sys_exists(rc)) {
            char words[256];
            fprintf(stderr, "%s: cannot create the directory of %s: %s\n", prog, path,
                    fy_sys_message(rc, words, sizeof words));
            return -1;
        }
    }
    ferry_error err;
    if (ferry_file_write(path, bytes->data, bytes->size, NULL, &err) != FERRY_OK) {
        sample_print_error(prog, "cannot write", path, &err);
        return -1;
    }
    printf("%s (%zu bytes)\n", path, bytes->size);
    return 0;
}

#endif
