/* The CLI's one table of formats (formats.c): every file is routed by the
 * format ferry_detect names from its content, never by its name. Each row
 * holds what the commands do with that format; a NULL entry means the
 * command does not apply ("not a known format" for info/validate). */
#ifndef FERRY_CLI_FORMATS_H
#define FERRY_CLI_FORMATS_H

#include "cli.h"

#include <ferry/detect.h>

/* What `ferry validate` passes to every format (models use textures,
 * animations the model picker of cmd_validate.c; others ignore them). */
struct model_picker;
typedef struct cli_validate_options {
    const char *const *texture_dirs;
    size_t texture_dir_count;
    bool check_textures;
    struct model_picker *picker;
    /* The folders textures are looked up in, opened once each and listed
     * once for the whole run (sources.h); NULL: opened per file. */
    struct cli_sources *sources;
    /* The file's mapping when it is mapped (cli_input_open), else NULL: an
     * archive's validation drops each entry's pages once checked. */
    const ferry_file_mapping *map;
} cli_validate_options;

/* What a conversion was asked for, parsed by the input family's option
 * parser (the row's `convert`) and passed to the row's rewrite, export or
 * build; each entry reads the fields of its family. */
struct export_options;
struct ferry_alm_lod_options;
typedef struct cli_convert_options {
    ferry_format source; /* IN's detected format */
    bool allow_invalid;  /* --allow-invalid: cli_refuse_invalid */
    /* Alamo: export options (animations, textures, --all, --force) and
     * the animation format of a rewrite (0: its own, 1 or 2). */
    const struct export_options *alamo;
    int ala_format;
    /* ODOL export: LODs by index (--lod); without, the most detailed visual
     * LOD (the game's view, the default) or, with `all` (--all), every LOD. */
    const uint32_t *lods;
    size_t lod_count;
    bool all;
    bool no_animations; /* --no-animations: the skin without the animation classes' sweeps */
    /* ALM export: the level of detail (NULL: full resolution); ALM build:
     * the ALO model's animation (--anim FILE|auto, or NULL). */
    const struct ferry_alm_lod_options *alm_lod;
    const char *anim;
    /* Every export: IN already loaded from a batch's folder or an archive
     * (its bytes, the source holding it, the log its messages go to, the
     * result the counts go to; no summary line printed), or NULL: IN is
     * a file named on the command line, read from the disk. */
    const struct export_input *input;
    /* --textures: folders and archives as file sources, in order (ODOL
     * texture lookup takes them as they are). */
    const ferry_file_source *const *texture_sources;
    size_t texture_source_count;
    const char *const *texture_prefixes; /* per source: a PBO's prefix, or NULL; NULL: none */
} cli_convert_options;

typedef struct cli_format {
    ferry_format id;
    const char *name; /* ferry_format_name(id): "ALO model", "ODOL", "ALM", ... */
    /* Prints a summary (report == NULL) or appends one JSON object to the
     * `report` array. Returns CLI_OK or CLI_INVALID (error printed or in the object). */
    int (*info)(const char *file, const uint8_t *data, size_t size, json_t *report);
    /* The whole structure, decoded: text, or one JSON object on stdout. */
    int (*dump)(const char *file, const uint8_t *data, size_t size, bool json);
    /* Validates; prints as cmd_validate does, or appends a JSON object to
     * `report`. Returns the error count (a read failure counts as one). */
    size_t (*validate)(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                       json_t *report);
    /* `ferry convert` with an input of this format (or an output this
     * format's family writes: cmd_convert.c's route table): parses the
     * family's own options from argv and calls its rewrite or export. */
    int (*convert)(int argc, char **argv, ferry_format source);
    /* IN written back in its format as OUT (byte-identical for a file read;
     * an ALA animation in another format with ala_format). */
    int (*rewrite)(const char *in, const char *out, const cli_convert_options *options);
    /* IN exported to glTF 2.0 (OUT .glb or .gltf). */
    int (*export)(const char *in, const char *out, const cli_convert_options *options);
    /* OUT of this format made from IN of another (ALM from an ALO model or
     * a glTF); NULL when the format is not built from others. */
    int (*build)(const char *in, const char *out, const cli_convert_options *options);
    /* The typed model behind one signature, so that loading, reading and
     * rewriting are written once for every format: read (NULL on failure,
     * `err` filled), written back in the format, freed (NULL is fine).
     * NULL for the Alamo family, which reads through cli_asset. */
    void *(*read_model)(const uint8_t *data, size_t size, ferry_error *err);
    ferry_result (*write_model)(const void *model, ferry_buffer *out, ferry_error *err);
    void (*free_model)(void *model);
} cli_format;

/* The row of a detected format (NULL: FERRY_FORMAT_UNKNOWN). */
const cli_format *cli_format_for(ferry_format id);

/* Each family's entry points, named by the table in formats.c. */
int cli_alamo_info(const char *file, const uint8_t *data, size_t size, json_t *report);           /* cmd_info.c */
int cli_alamo_dump(const char *file, const uint8_t *data, size_t size, bool json);                 /* cmd_dump.c */
size_t cli_alamo_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                          json_t *report);                                                        /* cmd_validate.c */
int cli_alamo_convert(int argc, char **argv, ferry_format source);                                 /* cmd_convert.c */
int cli_alamo_rewrite(const char *in, const char *out, const cli_convert_options *options);
int cli_alamo_export(const char *in, const char *out, const cli_convert_options *options);
int cli_odol_info(const char *file, const uint8_t *data, size_t size, json_t *report);            /* cli_odol.c */
int cli_odol_dump(const char *file, const uint8_t *data, size_t size, bool json);
size_t cli_odol_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                         json_t *report);
int cli_odol_convert(int argc, char **argv, ferry_format source);
int cli_odol_export(const char *in, const char *out, const cli_convert_options *options); /* cli_odol_export.c */
void *cli_odol_read(const uint8_t *data, size_t size, ferry_error *err);
ferry_result cli_odol_write(const void *model, ferry_buffer *out, ferry_error *err);
void cli_odol_free(void *model);
int cli_alm_info(const char *file, const uint8_t *data, size_t size, json_t *report);             /* cli_alm.c */
int cli_alm_dump(const char *file, const uint8_t *data, size_t size, bool json);
size_t cli_alm_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report);
int cli_alm_convert(int argc, char **argv, ferry_format source);
/* glTF -> ALO model (cli_gltf_alo.c). */
int cli_gltf_alo_convert(int argc, char **argv, ferry_format source);
extern const char cli_gltf_alo_convert_help[];
/* FBX, OBJ, Collada through Assimp (cli_gltf_alo.c): the hint by extension, or NULL. */
const char *cli_assimp_hint(const char *path);
int cli_assimp_gltf_convert(int argc, char **argv, ferry_format source);
int cli_alm_export(const char *in, const char *out, const cli_convert_options *options); /* cli_alm_export.c */
int cli_alm_build(const char *in, const char *out, const cli_convert_options *options);  /* cli_alm_build.c */
void *cli_alm_read(const uint8_t *data, size_t size, ferry_error *err);
ferry_result cli_alm_write(const void *model, ferry_buffer *out, ferry_error *err);
void cli_alm_free(void *model);
int cli_meg_info(const char *file, const uint8_t *data, size_t size, json_t *report); /* cli_meg.c */
int cli_meg_dump(const char *file, const uint8_t *data, size_t size, bool json);
size_t cli_meg_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report);
int cli_meg_convert(int argc, char **argv, ferry_format source);
void *cli_meg_read(const uint8_t *data, size_t size, ferry_error *err);
ferry_result cli_meg_write(const void *model, ferry_buffer *out, ferry_error *err);
void cli_meg_free(void *model);
extern const char cli_meg_convert_help[];
/* An archive as JSON: {file, format "MEG", version, size}; one entry:
 * {index, name (Latin-1 marked when not UTF-8), size, start, crc,
 * stored_index, name_index, flags}. Shared by info, dump and list. */
struct ferry_meg;
struct ferry_meg_entry;
json_t *cli_meg_json(const char *file, const struct ferry_meg *m, size_t size);
json_t *cli_meg_entry_json(const struct ferry_meg_entry *e, uint32_t i);
int cli_pbo_info(const char *file, const uint8_t *data, size_t size, json_t *report); /* cli_pbo.c */
int cli_pbo_dump(const char *file, const uint8_t *data, size_t size, bool json);
size_t cli_pbo_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report);
int cli_pbo_convert(int argc, char **argv, ferry_format source);
void *cli_pbo_read(const uint8_t *data, size_t size, ferry_error *err);
ferry_result cli_pbo_write(const void *model, ferry_buffer *out, ferry_error *err);
void cli_pbo_free(void *model);
extern const char cli_pbo_convert_help[];
/* A PBO as JSON: {file, format "PBO", size, product_entry, properties
 * [{key, value}], prefix, data_start, sha1, sha1_ok}; one entry: {index,
 * name, size (unpacked), data_size, original_size, start, method,
 * method_value, reserved, timestamp}. `ferry list` of a PBO. */
struct ferry_pbo;
struct ferry_pbo_entry;
json_t *cli_pbo_json(const char *file, const struct ferry_pbo *m, size_t size);
json_t *cli_pbo_entry_json(const struct ferry_pbo_entry *e, size_t i);
int cli_pbo_list(const char *file, const struct ferry_pbo *m, size_t size, bool json);
/* Lines added to `ferry convert --help` by the ODOL and ALM families. */
extern const char cli_odol_convert_help[];
extern const char cli_alm_convert_help[];

int cli_paa_info(const char *file, const uint8_t *data, size_t size, json_t *report); /* cli_paa.c */
int cli_paa_dump(const char *file, const uint8_t *data, size_t size, bool json);
size_t cli_paa_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report);
int cli_paa_convert(int argc, char **argv, ferry_format source);
void *cli_paa_read(const uint8_t *data, size_t size, ferry_error *err);
ferry_result cli_paa_write(const void *model, ferry_buffer *out, ferry_error *err);
void cli_paa_free(void *model);
extern const char cli_paa_convert_help[];

int cli_config_info(const char *file, const uint8_t *data, size_t size, json_t *report); /* cli_config.c */
int cli_config_dump(const char *file, const uint8_t *data, size_t size, bool json);
size_t cli_config_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                           json_t *report);
int cli_config_convert(int argc, char **argv, ferry_format source);
void *cli_config_read(const uint8_t *data, size_t size, ferry_error *err);
ferry_result cli_config_write(const void *model, ferry_buffer *out, ferry_error *err);
void cli_config_free(void *model);
extern const char cli_config_convert_help[];

/* A file read whole and told by content: `format` is its row (NULL when
 * no format ferry knows). */
typedef struct cli_input {
    ferry_format id;
    const cli_format *format;
    uint8_t *data; /* mapped (cli_input_open): never written */
    size_t size;
    ferry_file_mapping map; /* cli_input_open's mapping (map.base NULL: loaded) */
} cli_input;

/* What the caller will do with the file: a format without that entry in
 * the table is refused as "not a known format" before it is loaded. */
typedef enum cli_use { CLI_USE_ANY, CLI_USE_INFO, CLI_USE_DUMP, CLI_USE_VALIDATE } cli_use;

/* Reads the head of `path` (cli_check_head), tells the format, then loads
 * the whole file. False with `err` filled when the file cannot be read,
 * and when its content is no format ferry knows or its row has no entry
 * for `use` ("not a known format", with its first bytes, told from the
 * head); in->format is then the row recognised before a failure to load,
 * or NULL. */
bool cli_input_load(const char *path, cli_use use, cli_input *in, ferry_error *err);
/* The same, but the file is mapped (ferry_file_map), not read whole: for
 * commands that only read it (info, validate, list, extract, a rewrite),
 * so that a large archive is never held in memory. An archive (MEG, PBO)
 * has no size limit; other formats keep CLI_MAX_INPUT. */
bool cli_input_open(const char *path, cli_use use, cli_input *in, ferry_error *err);
/* The size limit of a mapped file of format `id` (ferry_file_map's
 * max_size): none for an archive (MEG, PBO), CLI_MAX_INPUT otherwise. */
size_t cli_map_limit(ferry_format id);
void cli_input_free(cli_input *in);
/* The "not a known format" error, from a file's first bytes. */
void cli_not_known(ferry_error *err, const uint8_t *data, size_t size);
/* Named like a format ferry validates (.alo, .ala, .p3d, .alm, .meg, .pbo,
 * .paa, .pac, .rvmat): validate -r and an archive's entries check such a
 * file whatever its content, so a broken one is an error, not skipped. */
bool cli_named_like_asset(const char *name);
/* An archive's entry (name_length bytes of name) checked through its
 * format's validate, reported as ARCHIVE:ENTRY: one of a format ferry
 * validates by content, or named like an asset (.alo, .p3d, .paa, ...: then
 * content of no known format is an error). Text configs only when named
 * .rvmat (scripts and headers read as config text, macros refused). Textures
 * and animation models are not looked up. Returns the errors found. */
size_t cli_validate_entry(const char *file, const char *name, size_t name_length, const uint8_t *data, size_t size,
                          json_t *report);
/* The format of `path` from its head: by content; when the file cannot be
 * read or its content is unknown, by the extension (.p3d ODOL, .alm ALM,
 * .meg MEG, .pbo PBO, .glb/.gltf glTF, .alo model, .ala animation,
 * .paa/.pac PAA, .rvmat/.bin raP, .cpp/.hpp config text, else UNKNOWN), so
 * that the family that reports the failure is the one the user meant. */
ferry_format cli_format_guess(const char *path);

/* Reads `data` as `format`'s model. On failure prints the located error
 * (report == NULL) or appends {file, format, read_error, valid: false} to
 * `report`, and returns NULL. */
void *cli_format_read(const cli_format *format, const char *file, const uint8_t *data, size_t size, json_t *report);
/* Loads `path` and reads it; on failure prints the error and returns NULL.
 * The model may point into *data: free it (ferry_file_free) after the model. */
void *cli_format_load(const cli_format *format, const char *path, uint8_t **data, size_t *size);
/* `ferry convert IN OUT` within one format: IN read by its row's
 * read_model (options->source), written back as OUT (cli_write_output).
 * Returns CLI_OK, CLI_INVALID or CLI_USAGE. The rewrite of ODOL, ALM, PAA and
 * configs (MEG and PBO stream theirs, cli_archive_rewrite). */
int cli_format_rewrite(const char *in, const char *out, const cli_convert_options *options);
/* The rewrite of a MEG or a PBO: IN written back as OUT, its tables from
 * the archive read, the bytes after them copied from the mapped input a
 * piece at a time (an archive is never held whole). */
int cli_archive_rewrite(const char *in, const char *out, const cli_convert_options *options);
/* convert and validate agree on what a file is: when `diags` holds errors,
 * prints them to `log` (may be NULL) with "IN: not converted: ..." and
 * returns true; with allow_invalid (--allow-invalid) says "converted
 * anyway" instead and returns false. The same policy for every format. */
bool cli_refuse_invalid(FILE *log, const char *in, const ferry_diagnostics *diags, bool allow_invalid);

/* The rewrite, export and build entries print their own messages and
 * return CLI_OK, CLI_INVALID or CLI_USAGE. ALM build: a glTF source is read
 * as glTF, anything else as an ALO model; its `anim` is an ALA file of the
 * model whose frames the ALM keeps, "auto" for the first MODEL_*.ala
 * beside it, or NULL (a glTF's first animation is always kept). */

/* Shared by the formats' validate entry points. */
void cli_print_diag(const char *file, const ferry_diagnostic *d);
void cli_fprint_diag(FILE *f, const char *file, const ferry_diagnostic *d);
json_t *cli_diag_json(const ferry_diagnostic *d);
/* Prints or appends a whole diagnostics report, as cmd_validate does. */
void cli_report_diags(const char *file, const char *format, const ferry_diagnostics *diags, json_t *report);

#endif
