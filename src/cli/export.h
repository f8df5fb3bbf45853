/* glTF export from the command line: one file, and whole folders. */
#ifndef FERRY_CLI_EXPORT_H
#define FERRY_CLI_EXPORT_H

#include "cli.h"

#include <ferry/archive.h>
#include <ferry/engine.h>
#include <ferry/scene.h>

struct cli_convert_options;

/* What the library's export jobs say, printed (export.c): a message as
 * "FILE: KIND: TEXT [RULE]" (the engine's own messages with the tool's
 * words for them, the options to use: --force, --allow-invalid, ...), a
 * job's own (file NULL) as "ferry CMD: TEXT"; its line appended to `out`
 * (cli_message_text) or written to `f`. */
void cli_message_text(ferry_buffer *out, const char *cmd, const ferry_message *m);
void cli_fprint_message(FILE *f, const char *cmd, const ferry_message *m);
/* A validation or conversion finding (its rule is a diagnostic's), not
 * one of the engine's own messages. */
bool cli_message_is_finding(const ferry_message *m);

/* One model exported as OUT (.glb or .gltf) by the library
 * (ferry_export_input_open, ferry_export_file), with what the options ask
 * (--anim files opened here), then its summary lines. Returns CLI_OK,
 * CLI_INVALID or CLI_USAGE (an argument the input refused: --lod N). */
int cli_export_file(const char *in, const char *out, const struct cli_convert_options *options);
/* --textures: each path opened as a place of a new pool (o->places; each
 * folder and archive opened once for the run) into o->textures; CLI_INVALID
 * with the error printed. cli_close_places frees both, whatever it returned. */
int cli_open_places(const char *const *paths, size_t count, struct cli_convert_options *o);
void cli_close_places(struct cli_convert_options *o);
/* The --anim FILEs, each told once (the export reads each as it attaches
 * it): `*count` assets, or NULL with the error printed. */
ferry_asset **cli_open_animations(const struct cli_convert_options *co, size_t *count);
void cli_close_animations(ferry_asset **anims, size_t count);

/* The choices of `convert` that one export and a tree's share, copied into
 * the library's options (all, force, --anim auto, the texture places,
 * --no-textures, --allow-invalid). */
void cli_export_choices(const struct cli_convert_options *co, ferry_export_options *o);

/* The lines an item's export adds to its messages: the ODOL game view's
 * diagnosis (an empty LOD, no visual LOD) and the procedural textures not
 * read. `single`: a file named on the command line (its summary names the
 * LOD shown too). */
void cli_export_report_lines(ferry_buffer *out, const char *in, const ferry_export_report *report, bool single);

/* convert -r: every model under IN (a folder, or an archive ferry reads)
 * to a .glb under OUT_DIR at the mirrored path (ferry_export_tree), its
 * logs, JSON report (--json) and summary printed. */
int export_batch(const char *in, const char *out_dir, const struct cli_convert_options *options, bool quiet, int jobs,
                 bool json);

#endif
