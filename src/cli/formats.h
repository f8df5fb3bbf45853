/* Formats outside the Alamo family (ALM, ODOL), told by their first bytes.
 * Each has a CLI file of its own (cli_alm.c, cli_odol.c) providing these
 * entry points; the cmd_*.c files try them before the Alamo readers. */
#ifndef FERRY_CLI_FORMATS_H
#define FERRY_CLI_FORMATS_H

#include "cli.h"

typedef struct cli_format {
    const char *name; /* "ALM", "ODOL" */
    bool (*detect)(const uint8_t *data, size_t size);
    /* Prints a summary (report == NULL) or appends one JSON object to the
     * `report` array. Returns CLI_OK or CLI_INVALID (error printed or in the object). */
    int (*info)(const char *file, const uint8_t *data, size_t size, json_t *report);
    /* The whole structure, decoded: text, or one JSON object on stdout. */
    int (*dump)(const char *file, const uint8_t *data, size_t size, bool json);
    /* Validates; prints as cmd_validate does, or appends a JSON object to
     * `report`. Returns the error count (a read failure counts as one). */
    size_t (*validate)(const char *file, const uint8_t *data, size_t size, json_t *report);
    /* `ferry convert` when any file argument has this format's extension
     * (claims_convert): parses its own options from argv. */
    bool (*claims_convert)(const char *path);
    int (*convert)(int argc, char **argv);
    /* Lines added to `ferry convert --help`. */
    const char *convert_help;
    /* The typed model behind one signature, so that loading, reading and
     * rewriting are written once for every format: read (NULL on failure,
     * `err` filled), written back in the format, freed (NULL is fine). */
    void *(*read_model)(const uint8_t *data, size_t size, ferry_error *err);
    ferry_result (*write_model)(const void *model, ferry_buffer *out, ferry_error *err);
    void (*free_model)(void *model);
} cli_format;

extern const cli_format cli_format_alm;
extern const cli_format cli_format_odol;

/* The format whose magic `data` starts with, or NULL (Alamo or unknown). */
const cli_format *cli_format_of(const uint8_t *data, size_t size);
/* Reads the first bytes of `path` to tell its format; NULL if not one of these. */
const cli_format *cli_format_sniff(const char *path);
/* The format that claims a `ferry convert` file argument, or NULL. */
const cli_format *cli_format_for_convert(const char *path);

/* Reads `data` as `format`'s model. On failure prints the located error
 * (report == NULL) or appends {file, format, read_error, valid: false} to
 * `report`, and returns NULL. */
void *cli_format_read(const cli_format *format, const char *file, const uint8_t *data, size_t size, json_t *report);
/* Loads `path` and reads it; on failure prints the error and returns NULL.
 * The model may point into *data: free it (ferry_file_free) after the model. */
void *cli_format_load(const cli_format *format, const char *path, uint8_t **data, size_t *size);
/* `ferry convert IN OUT` within one format: IN read, written back as OUT
 * (cli_write_output). Returns CLI_OK, CLI_INVALID or CLI_USAGE. */
int cli_format_rewrite(const cli_format *format, const char *in, const char *out);
/* convert and validate agree on what a file is: when `diags` holds errors,
 * prints them to `log` (may be NULL) with "IN: not converted: ..." and
 * returns true; with allow_invalid (--allow-invalid) says "converted
 * anyway" instead and returns false. The same policy for every format. */
bool cli_refuse_invalid(FILE *log, const char *in, const ferry_diagnostics *diags, bool allow_invalid);

/* ALM conversions beyond rewriting, called by cli_alm.c's convert:
 * ALM -> .glb/.gltf (cli_alm_export.c; `lod` chooses the level of detail,
 * NULL: full resolution) and ALO/glTF -> ALM (cli_alm_build.c). Each
 * prints its own messages and returns CLI_OK, CLI_INVALID or CLI_USAGE. */
struct ferry_alm_lod_options;
int cli_alm_export(const char *in, const char *out, const struct ferry_alm_lod_options *lod, bool allow_invalid);
/* anim: an ALA file of an ALO model whose frames the ALM keeps, "auto" for
 * the first MODEL_*.ala beside it, or NULL (a glTF's first animation is
 * always kept). */
int cli_alm_build(const char *in, const char *out, const char *anim);

/* ODOL -> .glb/.gltf (cli_odol_export.c), called by cli_odol.c's convert;
 * `lods` selects LODs by index; without, game_view keeps the most detailed
 * visual LOD and !game_view every LOD; allow_invalid: cli_refuse_invalid. */
int cli_odol_export(const char *in, const char *out, const uint32_t *lods, size_t lod_count, bool game_view,
                    bool allow_invalid);

/* Shared by the formats' validate entry points. */
void cli_print_diag(const char *file, const ferry_diagnostic *d);
void cli_fprint_diag(FILE *f, const char *file, const ferry_diagnostic *d);
json_t *cli_diag_json(const ferry_diagnostic *d);
/* Prints or appends a whole diagnostics report, as cmd_validate does. */
void cli_report_diags(const char *file, const char *format, const ferry_diagnostics *diags, json_t *report);

#endif
