/* The ferry command-line tool: a thin layer over libferry. Shared helpers. */
#ifndef FERRY_CLI_H
#define FERRY_CLI_H

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/alamo_chunk.h>
#include <ferry/detect.h>
#include <ferry/particle.h>
#include <ferry/ferry.h>

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_INVALID = 1, CLI_USAGE = 2 };

/* Largest input accepted (game assets are far smaller). */
#define CLI_MAX_INPUT ((size_t)1 << 31)

int cmd_dump(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_particles(int argc, char **argv); /* cmd_particles.c */
int cmd_render(int argc, char **argv);    /* cmd_render.c */
int cmd_list(int argc, char **argv);    /* cmd_archive.c */
int cmd_extract(int argc, char **argv);
int cmd_pack(int argc, char **argv); /* cmd_pack.c */

/* cmd_particles.c: shared with cmd_render.c. */
bool cli_parse_seed(const char *text, uint64_t *out);
bool cli_parse_seconds(const char *text, double *out); /* finite, 0 or more */
/* --ground Z / --no-ground at argv[*i]: true when it was one (then *status
 * is CLI_USAGE if its value was bad, and *i moved past the value). */
bool cli_parse_ground(const char *cmd, int argc, char **argv, int *i, float *z, bool *none, int *status);
struct ferry_particle_sim;
void cli_sim_warnings(const char *file, const struct ferry_particle_sim *sim);

/* Any Alamo file, read by what its first chunk says it is. */
typedef struct cli_asset {
    ferry_alamo_kind kind;
    ferry_alo_model *model;
    ferry_ala_animation *animation;
    ferry_particle_system *particles;
    uint8_t *data;
    size_t size;
} cli_asset;

/* Loads and reads a file; on failure fills `err` (I/O, unsupported or the
 * reader's located error) and returns false. The file's format is told by
 * its content: anything but an Alamo file is "not a known format" here. */
bool cli_asset_load(const char *path, cli_asset *asset, ferry_error *err);
/* Reads an Alamo file already in memory (`data` stays the caller's). */
bool cli_asset_read(const uint8_t *data, size_t size, cli_asset *asset, ferry_error *err);
void cli_asset_free(cli_asset *asset);
/* Writes the asset in its own format (ALA: in `ala_format`, 0 = its own). */
ferry_result cli_asset_write(const cli_asset *asset, int ala_format, ferry_buffer *out, ferry_error *err);
bool cli_has_ext(const char *path, const char *ext);

/* Prints "ferry CMD: message" and a hint to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool cli_is_help(const char *arg);
/* A file argument of `ferry convert`: IN, then OUT. A third is a usage
 * error: printed, and false returned (the command returns CLI_USAGE). */
bool cli_take_file(const char *arg, const char **in, const char **out);

/* "FILE: offset 0x.. (..), chunk ..: message" on stderr. */
void cli_print_error(const char *file, const ferry_error *err);
json_t *cli_error_json(const ferry_error *err);
/* Appends {file, format (or null), read_error, valid: false} to `report`:
 * the one shape of a file that could not be read, in every format. */
void cli_json_append_failure(json_t *report, const char *file, const char *format, const ferry_error *err);

/* Loads a file, printing the error; false on failure. */
bool cli_load(const char *path, uint8_t **data, size_t *size);

/* Prints OUT's located error. Returns CLI_USAGE when OUT was refused as
 * named (it is the input), CLI_INVALID otherwise. */
int cli_output_error(const char *out, const ferry_error *err);
/* Writes `buf` to OUT atomically, never over IN; on failure prints OUT's
 * located error. Returns CLI_OK or what cli_output_error returns. */
int cli_write_output(const char *in, const char *out, const ferry_buffer *buf);

/* The file name without folders and extension (malloc'd; NULL when out of
 * memory): the name of a scene made from the file. */
char *cli_file_stem(const char *path);
/* The same with '\\' also ending a folder: an Alamo model's scene name
 * (ferry_alo_scene_options.name), as the library made it from the model's
 * path before its options took a name. */
char *cli_model_name(const char *path);

/* Strings from files and paths in JSON (docs/formats/README-like rule in
 * README "Names in output"): bytes that are valid UTF-8 go as they are; a
 * string that is not valid UTF-8 is read as Latin-1 as a whole (every byte
 * one character U+0000..U+00FF, written \u00XX where not printable), and its
 * key ("file", or "mesh_names/1" for an array item) is listed in the
 * object's "latin1" array, so the bytes come back exactly (encode as Latin-1). */
json_t *cli_json_text(const char *text, bool *latin1);
/* The same for `n` bytes that may hold NUL (ALM comments). */
json_t *cli_json_textn(const char *text, size_t n, bool *latin1);
void cli_json_set_text(json_t *object, const char *key, const char *text);
/* Appends `text` to `array`, which is (or will be) object[key]. */
void cli_json_append_text(json_t *object, const char *key, json_t *array, const char *text);
void cli_json_append_textn(json_t *object, const char *key, json_t *array, const char *text, size_t n);
bool cli_utf8_valid(const char *text);
/* An object key from a file (keys cannot carry a "latin1" mark): as is when
 * UTF-8, else read as Latin-1; written into buf. */
const char *cli_json_key(const char *text, char *buf, size_t capacity);

/* Text output: control characters (U+0000..U+001F, U+007F..U+009F) become
 * \xNN, so a name cannot move the cursor or hide text; the rest as is.
 * Writes into buf (truncated with "..." when it does not fit). */
const char *cli_text(const char *text, char *buf, size_t capacity);
/* The same rule for `n` bytes (NUL too becomes \x00), written to `f`. */
void cli_fput_textn(FILE *f, const char *text, size_t n);
#define CLI_TEXT_MAX 4200
#define CLI_TXT(s) cli_text((s), (char[CLI_TEXT_MAX]){0}, CLI_TEXT_MAX)

/* Reads the head of `path` (never blocking: regular files only) into
 * `head` (capacity bytes; NULL: a buffer of its own), before a whole file is
 * loaded. A file whose content is no known format but is named .p3d or
 * .alm is refused as not starting with that format's signature. False with
 * `err` filled otherwise. */
bool cli_check_head(const char *path, uint8_t *head, size_t capacity, size_t *got, ferry_error *err);

/* Writes JSON to stdout, indented, with a final newline. */
void cli_print_json(json_t *value);

/* Progress on stderr when it is a terminal and the batch is long enough. */
typedef struct cli_progress {
    bool active;
    size_t total;
    size_t done;
} cli_progress;
void cli_progress_begin(cli_progress *p, size_t total);
void cli_progress_step(cli_progress *p, const char *item);
void cli_progress_end(cli_progress *p);

#endif
