/* glTF export from the command line: one file, and whole folders. */
#ifndef FERRY_CLI_EXPORT_H
#define FERRY_CLI_EXPORT_H

#include "cli.h"

typedef struct export_options {
    const char **animations; /* explicit --anim files */
    size_t animation_count;
    bool auto_animations; /* --anim auto: every MODEL_*.ala beside MODEL.alo */
    bool force; /* --force: attach an explicit --anim FILE that does not fit the model */
    const char **texture_dirs;
    size_t texture_dir_count;
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

/* Converts one .alo (model or particle system) to OUT (.glb or .gltf).
 * Messages go to `log` (stderr, or a batch's buffer). Returns CLI_OK or CLI_INVALID. */
int export_one(const char *in, const char *out, const export_options *options, export_result *result, FILE *log);

/* The MODEL_*.ala files beside a model (malloc'd paths, sorted). */
size_t export_find_animations(const char *model_path, char ***paths);
void export_free_paths(char **paths, size_t count);

int export_batch(const char *in_dir, const char *out_dir, const export_options *options, int jobs, bool json);

#endif
