/* The insides of the export jobs (engine.h): one input (export.c, and the
 * Alamo family's animations and particles in export_alamo.c) and a tree
 * (export_tree.c). Not a public header. */
#ifndef FERRY_EXPORT_INTERNAL_H
#define FERRY_EXPORT_INTERNAL_H

#include <ferry/engine.h>

#include "archive_internal.h"

/* One export under way. */
typedef struct fy_export {
    const ferry_export_input *in;
    const ferry_export_options *o;
    const char *name;            /* how messages name the input ("" when it has no name) */
    const fy_format_row *row;    /* of the input's format */
    void *object;                /* the input's typed object */
    ferry_export_report *report; /* o->report, or the export's own */
    ferry_arena *arena;          /* what the report's strings live in */
    ferry_error *err;            /* the failure, said as a message too */
    /* Where the Alamo formats look textures up (NULL: skip_textures). */
    const ferry_alamo_texture_places *textures;
} fy_export;

/* Says `text` about `file` (NULL: the input). */
void fy_export_say(const fy_export *x, ferry_message_kind kind, const char *file, const char *rule, const char *fmt,
                   ...) FY_PRINTF(5, 6);
/* A failure about `file` (NULL: the input): `e` said as an ERROR (its
 * ferry_error_format line) and kept as the export's error; returns its code. */
ferry_result fy_export_fail(fy_export *x, const char *file, const ferry_error *e);
/* The same for a failure the export words itself. */
ferry_result fy_export_refuse(fy_export *x, ferry_result code, const char *rule, const char *fmt, ...) FY_PRINTF(4, 5);
/* A finding about the input, said with its place (`located`) or without. */
void fy_export_finding(const fy_export *x, const ferry_diagnostic *d, bool located);
/* The input's scene by its row's to_scene with `so` (its diagnostics:
 * `diags`): a failure said and kept (fy_export_fail), each finding said. */
ferry_result fy_export_to_scene(fy_export *x, ferry_asset_scene_options *so, ferry_diagnostics *diags, ferry_scene **out);
/* `text` kept as long as the report (NULL when memory runs out). */
const char *fy_export_keep(fy_export *x, const char *text);
/* The input's name without folders and extension, the scene's name
 * (`backslash`: '\\' ends a folder too); malloc'd, NULL without memory. */
char *fy_export_scene_name(const fy_export *x, bool backslash);
/* Texture names kept as the report's missing_textures. */
void fy_export_keep_missing(fy_export *x, const char *const *names, size_t count);

/* The unpacked addon a model of the disk in `folder` lies in (engine.h,
 * ferry_export_input_open), through `places`; NULL: none. */
const ferry_file_source *fy_export_addon_of(ferry_places *places, const char *folder);

/* ferry_export_input_open with the asset opened by `ao` (its name: `path`
 * when ao->name is NULL), and the addon looked for only when `addon` is
 * set: validation reads the object on opening, so that a file its reader
 * refuses fails there, and looks up no addon. */
ferry_result fy_export_input_open_as(const char *path, ferry_places *places, const ferry_asset_options *ao, bool addon,
                                     ferry_export_input *in, ferry_error *err);

/* The sources of `count` places (a NULL place: NULL) into *out, malloc'd
 * (NULL when count is 0); false without memory. */
bool fy_place_sources(const ferry_place *const *places, size_t count, const ferry_file_source ***out);
/* Where an ALO model's or particle system's textures are looked up for
 * `in` (the export's and validation's): beside in->path in in->source,
 * in ../Textures (through in->parent when it lies at the source's root),
 * then in `folders`. */
void fy_input_texture_places(const ferry_export_input *in, const ferry_file_source *const *folders, size_t count,
                             ferry_alamo_texture_places *out);

/* The Alamo family (export_alamo.c): an ALO model with its animations, a
 * particle system with its texture warnings. `checks` holds what the
 * validation found (a particle system's missing textures among it). */
ferry_result fy_export_alo(fy_export *x, ferry_scene **out);
ferry_result fy_export_particle(fy_export *x, const ferry_diagnostics *checks, ferry_scene **out);

#endif
