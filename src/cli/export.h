/* glTF export from the command line: one file, and whole folders. */
#ifndef FERRY_CLI_EXPORT_H
#define FERRY_CLI_EXPORT_H

#include "cli.h"

#include <ferry/scene.h>

typedef struct export_options {
    const char **animations; /* explicit --anim files */
    size_t animation_count;
    bool auto_animations; /* --anim auto: every MODEL_*.ala beside MODEL.alo */
    bool force; /* --force: attach an explicit --anim FILE that does not fit the model */
    /* --textures: folders and archives, opened as file sources (searched
     * after the model's own places, each at its root and its
     * Data/Art/Textures). */
    const ferry_file_source *const *texture_sources;
    size_t texture_source_count;
    /* Per texture source: the engine path it is mounted at (a PBO's
     * prefix), or NULL (a folder, a MEG); NULL: none has one. */
    const char *const *texture_prefixes;
    bool skip_textures;
    bool all; /* every mesh, also those the game does not draw (default: the game's view) */
    bool quiet; /* batch: warnings counted, not printed one by one */
    bool no_sync; /* batch: new outputs are not flushed one by one (ferry_write_options) */
    bool allow_invalid; /* convert files with validation errors (cli_refuse_invalid) */
} export_options;

typedef struct export_result {
    size_t warnings;
    size_t animations;
    size_t images;
    size_t meshes_left_out; /* meshes the game does not draw, left out (without --all) */
    char **missing_textures; /* texture names not found (malloc'd), export_result_free */
    size_t missing_texture_count;
} export_result;

void export_result_free(export_result *result);
/* "A.dds, B.tga" (at most `size` bytes, "..." when cut). */
void export_missing_list(const export_result *result, char *out, size_t size);

/* Where a model comes from when it is not a file named on the command
 * line (a batch's file, an archive's entry). */
typedef struct export_input {
    const uint8_t *data; /* its bytes, already loaded */
    size_t size;
    /* The source holding it and its path there: its animations and the
     * textures beside it and in ../Textures are looked up there. */
    const ferry_file_source *source;
    const char *path;
    /* The folder above source's root (a model on the disk, its folder the
     * source's root: ../Textures is there); NULL in an archive. */
    const ferry_file_source *parent;
    /* The engine path `source` is mounted at when it is an archive with a
     * prefix (a PBO), else NULL: an ODOL model's own textures are found in
     * it under that prefix. */
    const char *prefix;
    FILE *log;             /* messages (a batch's buffer) */
    export_result *result; /* filled; no summary line is printed */
} export_input;

/* Converts one .alo (model or particle system) to OUT (.glb or .gltf).
 * `in` names it; with `input` (may be NULL) its bytes and places are
 * those, else it is read from the disk. Messages go to `log` (stderr, or a
 * batch's buffer). Returns CLI_OK or CLI_INVALID. */
int export_one(const char *in, const char *out, const export_options *options, const export_input *input,
               export_result *result, FILE *log);

/* The MODEL_*.ala files beside a model (malloc'd paths, sorted). */
size_t export_find_animations(const char *model_path, char ***paths);
void export_free_paths(char **paths, size_t count);

/* convert -r: every model under IN (a folder, or an archive of a kind in
 * sources.c) to a .glb under OUT_DIR at the mirrored path. */
struct cli_sources;
int export_batch(const char *in, const char *out_dir, const export_options *options, struct cli_sources *sources,
                 int jobs, bool json);

/* ---- glTF animations -> ALA (cli_gltf_ala.c) ---- */

/* ferry convert IN.glb|IN.gltf OUT.ala [--animation N|NAME] [--ala-format 1|2] [--model M.alo] [--fps N]. */
int cli_gltf_ala_convert(int argc, char **argv, ferry_format source);
extern const char cli_gltf_ala_convert_help[];

#endif
