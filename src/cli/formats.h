/* The CLI's printers, per format (formats.c): the text of `ferry info`,
 * `dump` and `list`, printed from the data the library returns
 * (ferry_asset_info's JSON). What a format is, what it can do and how it
 * is read, validated and written is the library's format table
 * (include/ferry/format.h); every file is told by its content. */
#ifndef FERRY_CLI_FORMATS_H
#define FERRY_CLI_FORMATS_H

#include "cli.h"

#include <ferry/archive.h>
#include <ferry/detect.h>

/* What a conversion was asked for, parsed by the input family's option
 * parser (the row's `convert`) and passed to the row's rewrite, export or
 * build; each entry reads the fields of its family. */
struct ferry_alm_lod_options;
typedef struct cli_convert_options {
    ferry_format source; /* IN's detected format */
    bool allow_invalid;  /* --allow-invalid: convert files validation finds errors in */
    /* ODOL export: LODs by index (--lod); without, the most detailed visual
     * LOD (the game's view, the default) or, with `all` (--all), every LOD.
     * ALO export: `all` keeps every mesh. */
    const uint32_t *lods;
    size_t lod_count;
    bool all;
    bool no_animations; /* --no-animations: the skin without the animation classes' sweeps */
    /* ALM export: the level of detail (NULL: full resolution); ALM build:
     * the ALO model's animation (--anim FILE|auto, or NULL). */
    const struct ferry_alm_lod_options *alm_lod;
    const char *anim;
    /* ALO export: --anim FILE (each opened as it is exported), --anim auto,
     * --force, --no-textures. */
    const char *const *animations;
    size_t animation_count;
    bool auto_animations;
    bool force;
    bool skip_textures;
    /* --textures: folders and archives opened from `places` (which the
     * export shares: each folder and archive opened once per run). */
    const ferry_place *const *textures;
    size_t texture_count;
    ferry_places *places;
} cli_convert_options;

/* A printer: the text of one command for a file, from the library's JSON
 * of it (`j`: what the table asks for, NULL with CLI_JSON_NONE); prints
 * to stdout (errors to stderr) and returns CLI_OK or CLI_INVALID. */
typedef int cli_print_fn(const char *file, const ferry_asset *asset, const json_t *j);
typedef struct cli_printer {
    ferry_format ids[4];   /* the formats it prints (the rest 0) */
    cli_print_fn *info;    /* FERRY_INFO_SUMMARY, as text */
    cli_print_fn *dump;    /* FERRY_INFO_FULL, as dump_use asks */
    cli_json_use dump_use;
    cli_print_fn *list;    /* FERRY_INFO_ENTRIES, as text */
} cli_printer;

/* Prints `asset` as the command of `detail` shows it, by its format's
 * printer: info without one shows the JSON, dump the chunk tree
 * (cli_alamo_dump: "not a known format" when there is none); with `json`
 * (--json) the library's JSON as it is. */
int cli_print(const char *file, const ferry_asset *asset, ferry_info_detail detail, bool json);

/* A family's `ferry convert` arguments (cmd_convert.c): its options, and
 * IN and OUT in files[0] and files[1] (cli_parse: `unknown` the usage
 * error of any other option; --help never comes here: cmd_convert gives
 * it to the Alamo family, which prints every family's part); without
 * both, the usage error `missing` (NULL: "expected IN and OUT"). Returns
 * cli_parse's status, or that error's. */
int cli_convert_args(int argc, char **argv, const cli_option *options, const char *unknown, const char *missing,
                     const char **files);

/* Each family's `ferry convert` (named by cmd_convert.c's routes): its
 * options parsed, IN converted to OUT (`source`: IN's format). */
typedef int cli_convert_fn(int argc, char **argv, ferry_format source);
cli_convert_fn cli_alamo_convert; /* cmd_convert.c */
cli_convert_fn cli_odol_convert, cli_alm_convert, cli_paa_convert, cli_config_convert;
/* glTF -> ALO model, and FBX, OBJ, Collada -> glTF through Assimp (cli_gltf_alo.c). */
cli_convert_fn cli_gltf_alo_convert, cli_assimp_gltf_convert;
/* A glTF animation -> ALA (cli_gltf_ala.c). */
cli_convert_fn cli_gltf_ala_convert;
/* IN, a glTF file, as a scene without its images (what an animation or an
 * ALM build takes from it); NULL with the error printed. */
struct ferry_scene *cli_gltf_scene(const char *in);
int cli_alm_build(const char *in, const char *out, const cli_convert_options *options);  /* cli_alm_build.c */
/* FBX, OBJ, Collada through Assimp (cli_gltf_alo.c): the hint by extension, or NULL. */
const char *cli_assimp_hint(const char *path);

/* `path` read as an asset of `format` (FERRY_FORMAT_UNKNOWN: its content's),
 * or `data` (size bytes, kept by the caller) when not NULL; NULL with the
 * error printed. */
ferry_asset *cli_read_as(const char *file, const uint8_t *data, size_t size, ferry_format format);

/* `ferry convert IN OUT` within one format: IN written back as OUT,
 * byte-identical (ferry_asset_save: an archive in pieces, never held
 * whole). Returns CLI_OK, CLI_INVALID or CLI_USAGE. */
int cli_rewrite(const char *in, const char *out);

/* The validate report of one file: its problems (errors, then warnings)
 * and a summary line, or appended to `report` as one JSON object {file,
 * [model], format, errors, warnings, error_count, warning_count, valid}.
 * `model`: an animation's (the "model" key and " (against MODEL)"; NULL
 * with has_model: the key null). */
void cli_report_diags(const char *file, const char *format, const ferry_diagnostics *diags, bool has_model,
                      const char *model, json_t *report);

#endif
