/* The ferry command-line tool: a thin layer over libferry. Shared helpers. */
#ifndef FERRY_CLI_H
#define FERRY_CLI_H

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/alamo_chunk.h>
#include <ferry/archive.h>
#include <ferry/detect.h>
#include <ferry/format.h>
#include <ferry/particle.h>
#include <ferry/ferry.h>

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_INVALID = 1, CLI_USAGE = 2 };

/* What `ferry --help` and `ferry COMMAND --help` print: docs/cli/ferry.txt
 * and docs/cli/COMMAND.txt, made C strings by the build
 * (cmake/embed_text.cmake). */
extern const char cli_help_ferry[], cli_help_info[], cli_help_dump[], cli_help_validate[], cli_help_convert[];
extern const char cli_help_sample[], cli_help_particles[], cli_help_render[], cli_help_list[], cli_help_extract[];
extern const char cli_help_pack[], cli_help_view[];

/* The commands, each in cmd_NAME.c (list and extract: cmd_archive.c):
 * argv[0] the command's name, the rest its arguments; the exit status. */
typedef int cli_command_fn(int argc, char **argv);
cli_command_fn cmd_dump, cmd_info, cmd_validate, cmd_convert, cmd_sample, cmd_particles, cmd_render;
cli_command_fn cmd_list, cmd_extract, cmd_pack;

/* Any Alamo file, read by what its content says it is: the asset
 * (ferry_asset) and its typed object, by kind. */
typedef struct cli_asset {
    ferry_alamo_kind kind;
    ferry_alo_model *model;
    ferry_ala_animation *animation;
    ferry_particle_system *particles;
    ferry_asset *handle;
    ferry_asset *file; /* cli_asset_load: the file mapped, which handle was read from */
} cli_asset;

/* Opens and reads a file (ferry_asset_open); on failure fills `err` (I/O,
 * unsupported or the reader's located error; NULL: printed, naming `path`)
 * and returns false, the asset left empty. The file's format is told by its
 * content: anything but an Alamo file is refused. */
bool cli_asset_load(const char *path, cli_asset *asset, ferry_error *err);
void cli_asset_free(cli_asset *asset);
bool cli_has_ext(const char *path, const char *ext);

/* A message of extract or pack about an entry or a file (ferry_message_fn;
 * user: the command's name, for the messages of a folder walk, or NULL) on
 * stderr: "FILE: text" (the text says what was not done: "... not
 * extracted: WHY"), a located error as cli_print_error prints it, a folder
 * walk's as "ferry CMD: skipping FOLDER: ..." and "ferry CMD: cannot read
 * the folder FOLDER: ...". */
void cli_print_entry_message(void *cmd, const ferry_message *message);

/* Prints "ferry CMD: message" and a hint to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool cli_is_help(const char *arg);

/* ---- the options of a command (cli_parse) ---- */

/* What an option's reader says of its value: taken, refused (cli_parse
 * prints the option's `bad`, or `missing`), or CLI_USAGE when the reader
 * printed why itself. cli_parse returns CLI_HELP when it printed the usage. */
enum { CLI_REFUSED = -2, CLI_HELP = -1 };
typedef int (*cli_take_fn)(const char *cmd, const char *name, const char *value, void *to);

typedef struct cli_option {
    const char *name; /* "--json" */
    void *to;         /* a flag's bool, or what `take` fills */
    /* The value's reader; NULL: a flag (sets *(bool *)to). With `missing`
     * NULL it is a flag that acts: called with value NULL. */
    cli_take_fn take;
    const char *missing; /* the usage error when no value follows ("%s": the option) */
    const char *bad;     /* the usage error of a refused value ("%s": it); NULL: `missing` */
} cli_option;
#define CLI_FLAG(name, to) {name, to, NULL, NULL, NULL}
#define CLI_VALUE(name, to, take, missing) {name, to, take, missing, NULL}

/* Readers: the text itself (const char **), the text appended to a
 * cli_list, a finite number 0 or more (cli_number), an unsigned integer
 * (uint64_t), a finite height (float), 1 or 2 (int), a --textures folder
 * or archive appended to a cli_list (ferry_places_kind; else the usage
 * error says why). */
typedef struct cli_number {
    double value;
    const char *text; /* as given; NULL: not given */
} cli_number;
typedef struct cli_list {
    const char **items; /* room for every argument */
    size_t count;
} cli_list;
int cli_take_text(const char *cmd, const char *name, const char *value, void *to);
int cli_take_item(const char *cmd, const char *name, const char *value, void *to);
int cli_take_seconds(const char *cmd, const char *name, const char *value, void *to);
int cli_take_seed(const char *cmd, const char *name, const char *value, void *to);
int cli_take_height(const char *cmd, const char *name, const char *value, void *to);
int cli_take_ala_format(const char *cmd, const char *name, const char *value, void *to);
int cli_take_texture_place(const char *cmd, const char *name, const char *value, void *to);

typedef struct cli_args {
    const char *cmd;            /* "info": how usage errors name it */
    const cli_option *options;  /* up to one with name NULL */
    const char *usage;          /* printed for --help or -h; NULL: no help here */
    const char *unknown;        /* the usage error of any other option ("%s": it); NULL: "unknown option '%s'" */
    const char **files;         /* the other arguments, in order: room for `max`; NULL: */
    size_t max;                 /* as many as come, in argv[1], argv[2]... (the options' places) */
    const char *too_many;       /* the usage error of one more ("%s": it) */
} cli_args;

/* Reads argv[1..] as `a` says, in order, stopping at the first usage
 * error (printed: CLI_USAGE) or help (CLI_HELP); CLI_OK with the options
 * set and the files in a->files, their count returned in *count. */
int cli_parse(const cli_args *a, int argc, char **argv, size_t *count);
/* What a command returns for cli_parse's status (CLI_HELP: success). */
#define CLI_STATUS(status) ((status) == CLI_HELP ? CLI_OK : (status))

/* "FILE: offset 0x.. (..), chunk ..: message" on stderr (or `f`). */
void cli_print_error(const char *file, const ferry_error *err);
/* Appends {file, format (or null), read_error, valid: false} to `report`:
 * the one shape of a file that could not be read, in every format. */
void cli_json_append_failure(json_t *report, const char *file, const char *format, const ferry_error *err);
/* The name of a format a failure names (ferry_format_describe), or NULL. */
const char *cli_format_name(ferry_format format);

/* Prints OUT's located error. Returns CLI_USAGE when OUT was refused as
 * named (it is the input), CLI_INVALID otherwise. */
int cli_output_error(const char *out, const ferry_error *err);
/* Writes `buf` to OUT atomically, never over IN; on failure prints OUT's
 * located error. Returns CLI_OK or what cli_output_error returns. */
int cli_write_output(const char *in, const char *out, const ferry_buffer *buf);

/* Strings from files and paths in the JSON the tool builds itself (the
 * README's "Names in output" rule, ferry_text_utf8): a string that is not
 * UTF-8 is read as Latin-1 and its key ("file", or "mesh_names/1" for an
 * array's item) listed in the object's "latin1" array. */
void cli_json_set_text(json_t *object, const char *key, const char *text);
/* Appends `text` to `array`, which is (or will be) object[key] (NULL:
 * sets object[key], as cli_json_set_text). */
void cli_json_append_text(json_t *object, const char *key, json_t *array, const char *text);

/* The library's JSON of an asset (ferry_asset_info), parsed; NULL with the
 * error printed. CLI_JSON_OUTPUT: as `--json` prints it; CLI_JSON_EXACT:
 * reals to 17 digits (for printing them with fewer); CLI_JSON_TEXT: also
 * NaN and infinities as strings, and every string the library read as
 * Latin-1 made its bytes again: what the text printers print from.
 * CLI_JSON_NONE: not asked (a printer that needs none). */
typedef enum cli_json_use { CLI_JSON_OUTPUT, CLI_JSON_EXACT, CLI_JSON_TEXT, CLI_JSON_NONE } cli_json_use;
json_t *cli_asset_json(const char *file, const ferry_asset *asset, ferry_info_detail detail, cli_json_use use);
/* Any JSON text the library made (asked for as `use` says), parsed and
 * made ready as above; frees `text`. NULL with the error printed. */
json_t *cli_library_json(const char *file, ferry_buffer *text, cli_json_use use);
/* object[key]: a string (NULL when absent or not one), its length, an
 * integer (0), a bool, a real (numbers, or "nan", "-nan", "inf", "-inf";
 * NaN when absent). */
const char *cli_jstr(const json_t *object, const char *key);
size_t cli_jlen(const json_t *object, const char *key);
long long cli_jint(const json_t *object, const char *key);
bool cli_jbool(const json_t *object, const char *key);
double cli_jreal(const json_t *object, const char *key);
double cli_jnum(const json_t *value);

/* Text output: control characters (U+0000..U+001F, U+007F..U+009F) become
 * \xNN, so a name cannot move the cursor or hide text; the rest as is.
 * Writes into buf (truncated with "..." when it does not fit). */
const char *cli_text(const char *text, char *buf, size_t capacity);
/* The same rule for `n` bytes (NUL too becomes \x00), written to `f`. */
void cli_fput_textn(FILE *f, const char *text, size_t n);
#define CLI_TEXT_MAX 4200
#define CLI_TXT(s) cli_text((s), (char[CLI_TEXT_MAX]){0}, CLI_TEXT_MAX)

/* A message of the library's jobs (ferry_message_fn; user: the command's
 * name, "convert") on stderr: "FILE: error: TEXT", "FILE: warning: TEXT",
 * "FILE: TEXT" for a note; without a file a note is its text alone, an
 * error or warning "ferry CMD: TEXT". */
void cli_print_message(void *cmd, const ferry_message *m);

/* printf into a buffer: the text appended to `out` (its `failed` set when
 * it cannot be). */
void cli_bprintf(ferry_buffer *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes JSON to stdout, indented, with a final newline. */
void cli_print_json(json_t *value);

/* Progress on stderr when it is a terminal and the batch is long enough. */
typedef struct cli_progress {
    bool active;
    size_t total;
    size_t done;
} cli_progress;
void cli_progress_end(cli_progress *p);
/* A job's progress (ferry_progress_fn; user: the cli_progress) on that bar. */
void cli_progress_report(void *progress, size_t done, size_t total, const char *item);

#endif
