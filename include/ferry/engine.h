/* The jobs every front end shares (the ferry tool, the Python package, the
 * web viewer): a model exported to glTF as the game shows it, from one
 * input (a file of the disk, an archive's entry, bytes) or from a whole
 * folder or archive (`ferry convert -r`).
 *
 * An input is read and told once (a ferry_asset); everything after takes
 * the asset. What a job says as it goes comes through a ferry_message_fn
 * (ferry.h); what it sums up is a report struct the caller prints. The
 * library decides what is exported, what is refused and what is attached;
 * a front end only words it. */
#ifndef FERRY_ENGINE_H
#define FERRY_ENGINE_H

#include <ferry/archive.h>
#include <ferry/convert.h>
#include <ferry/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what the jobs' messages are (ferry_message.rule) ----
 *
 * Findings of validation and conversion carry their diagnostic's rule
 * ("texture-missing"). The jobs' own messages that a front end may word or
 * act on itself carry one of these; others have none. */

/* ERROR: the input breaks its format's rules ("not converted: 2 validation
 * errors"), each error said before as a finding; nothing written. */
#define FERRY_EXPORT_NOT_CONVERTED "not-converted"
/* WARNING: the same with allow_invalid: exported anyway ("converting
 * anyway: 2 validation errors; ..."). */
#define FERRY_EXPORT_CONVERTED_ANYWAY "converted-anyway"
/* ERROR: the input is an animation: it is exported with its model (options->animations). */
#define FERRY_EXPORT_ANIMATION_ALONE "animation-alone"
/* ERROR about an animation asked for (options->animations) whose tracks do
 * not fit the model ("does not fit walker.alo (1 of 6 tracks): ..."); with
 * options->force it is attached: */
#define FERRY_EXPORT_ANIMATION_MISFIT "animation-misfit"
/* WARNING: an animation asked for attached though it does not fit (force). */
#define FERRY_EXPORT_ANIMATION_FORCED "animation-forced"
/* WARNING: an animation found beside the model (auto_animations) attached
 * though some of its tracks do not fit: the game binds tracks by index, the
 * names only confirm it, so one whose tracks mostly fit plays as in the
 * game; those that disagree are named. */
#define FERRY_EXPORT_ANIMATION_ATTACHED "animation-attached"
/* WARNING: an animation found beside the model left out (it cannot be read,
 * is no animation, or most of its tracks miss the model). */
#define FERRY_EXPORT_ANIMATION_SKIPPED "animation-skipped"
/* A tree's own messages: the walk's (FERRY_WALK_FOLDER_REVISITED and
 * FERRY_WALK_FOLDER_UNREADABLE in ferry.h, file the folder) and
 * temporaries of killed writers removed from the output tree (NOTE, file
 * NULL). */
#define FERRY_TREE_STALE_REMOVED "stale-removed"

/* ---- one input ---- */

/* Where an input lives: its bytes read once as an asset, and the places the
 * game looks beside it. Filled by ferry_export_input_open for a file of
 * the disk, by ferry_export_tree for each item, or by hand (an input from
 * bytes: the asset alone, every place NULL; nothing beside it is then
 * looked up). */
typedef struct ferry_export_input {
    const ferry_asset *asset;
    /* How messages name it ("Models/ship.alo", "data.meg/DATA/ART/MODELS/
     * SHIP.ALO"); its base name without extension names the scene. NULL:
     * the asset's name. */
    const char *name;
    /* The folder or archive holding it and its path there: its animations
     * (auto_animations) and the textures beside it and in ../Textures are
     * looked up there. NULL: none. */
    const ferry_file_source *source;
    const char *path;
    /* The folder above source's root (a model of the disk lies at its
     * folder's root: ../Textures is there); NULL in an archive. */
    const ferry_file_source *parent;
    /* The engine path `source` is mounted at (a PBO's prefix), or NULL: an
     * ODOL model's textures are found in it at that prefix. */
    const char *prefix;
    /* A model of the disk inside an unpacked addon (a folder with a
     * $PREFIX$ file at or above it: ferry_odol_addon_root): that folder, an
     * ODOL model's first texture root; NULL otherwise. */
    const ferry_file_source *addon;
    /* The file it was read from, which ferry_export_file never writes over
     * (with options->write.protect_input, both are protected); NULL: none. */
    const char *file;
    void *owned; /* ferry_export_input_open's; NULL for an input made by hand */
} ferry_export_input;

/* Maps the file at `path` once and tells its format (ferry_asset_open,
 * bytes_only, named `path`: its object is read by the export) and finds
 * its places: its folder and the one above from `places` (NULL: opened for
 * the input alone, closed by ferry_export_input_close), and the addon
 * folder holding it, the nearest folder at or above its own (up to 8
 * levels, links resolved) that ferry_odol_addon_root says is one. Fails as
 * ferry_asset_open does (`in` zeroed). */
FERRY_API ferry_result ferry_export_input_open(const char *path, ferry_places *places, ferry_export_input *in,
                                               ferry_error *err);
/* The input of an asset the caller opened from the file at `path` (its
 * object perhaps read already, which the export then does not read again):
 * its places found as ferry_export_input_open finds them. The asset stays
 * the caller's, to outlive the input; ferry_export_input_close frees only
 * what this made. */
FERRY_API ferry_result ferry_export_input_of_asset(const ferry_asset *asset, const char *path, ferry_places *places,
                                                   ferry_export_input *in, ferry_error *err);
FERRY_API void ferry_export_input_close(ferry_export_input *in); /* zeroes it; a zeroed input does nothing */

/* ---- what an export counted ---- */

typedef struct ferry_export_report {
    ferry_format format;   /* the input's, as read */
    bool written;          /* the output was written (ferry_export_file) */
    /* Warnings said (as messages) and those the summary below stands for
     * (an empty game view, procedural textures not read): what a summary
     * counts as the export's warnings. */
    size_t warnings;
    size_t validation_errors; /* found by validation (refused, or converted anyway) */
    size_t animations;        /* attached (ALO models) */
    size_t images;            /* in the scene (embedded in a .glb, files beside a .gltf) */
    size_t meshes_left_out;   /* ALO models: meshes the game does not draw at first sight, left out (not with `all`) */
    /* Texture names not found (ALO models, ODOL), each once, in first-use
     * order. */
    const char *const *missing_textures;
    size_t missing_texture_count;
    /* ODOL: the converter's report (its strings held by this report), and
     * how many texture roots were searched (0: textures not looked up). */
    ferry_odol_scene_report odol;
    size_t texture_roots;
    /* ODOL, by default (neither `all` nor `lods`): the LOD the game shows
     * (odol.visual_lod; -1: the model has none, every LOD was exported) and
     * its resolution's name. When it has no faces (odol.triangles 0: real
     * files have an empty 1.000 beside a Roadway holding the faces), how
     * many other LODs have faces, and when it is one, which. An empty
     * export must not pass unnoticed: it counts as a warning. */
    bool game_view;
    char visual_lod_name[64];
    bool visual_lod_empty;
    uint32_t lods_with_faces;
    uint32_t lod_with_faces;
    char lod_with_faces_name[64];
    /* ALM: the converter's report, whether a level of detail was asked
     * for, and the mesh's bones, frames and collapse records. */
    ferry_alm_scene_report alm;
    bool alm_lod;
    uint32_t bones, frames, collapses;
    void *owned; /* internal: what the strings live in (ferry_export_report_free) */
} ferry_export_report;

/* Frees what the report holds and zeroes it (a zeroed report: nothing). */
FERRY_API void ferry_export_report_free(ferry_export_report *report);

/* ---- exporting one input ---- */

typedef struct ferry_export_options {
    /* ALO models: every mesh, also those the game does not draw (marked in
     * extras); ODOL: every LOD. Default: what the game shows first. */
    bool all;
    /* ODOL: these LODs, by index (an index the model lacks is
     * FERRY_ERR_ARGUMENT); no animation per animation class (the skin stays). */
    const uint32_t *lods;
    size_t lod_count;
    bool no_animations;
    /* ALM: a level of detail (NULL: full resolution). */
    const ferry_alm_lod_options *alm_lod;
    /* ALO models: animations asked for, each an asset of an ALA (named by
     * its asset's name; opened bytes_only is fine: read when used). One
     * that cannot be read, is no animation, or whose tracks do not fit the
     * model (each track's index must name a bone of the track's name) fails
     * the export, unless `force` attaches a misfit (a warning). */
    const ferry_asset *const *animations;
    size_t animation_count;
    bool force;
    /* ALO models: also every MODEL_*.ala beside the model in its source
     * (ferry_ala_find_animations); one that cannot be read or does not fit
     * is skipped with a warning, one whose tracks mostly fit is attached
     * with one (FERRY_EXPORT_ANIMATION_ATTACHED). */
    bool auto_animations;
    /* Textures: looked up beside the model, in ../Textures, then in each of
     * these places in order (ALO: each at its root and in its
     * Data/Art/Textures; ODOL: texture roots, a PBO at its prefix);
     * `skip_textures`: none looked up or embedded. */
    const ferry_place *const *textures;
    size_t texture_count;
    bool skip_textures;
    /* How the textures embedded as PNG are encoded: FERRY_PNG_FAST or
     * FERRY_PNG_STORED for a .glb read once (an import), the default for
     * files kept. */
    ferry_png_effort png_effort;
    /* ALO models, ALM meshes: every bone a joint of a skin, even where no
     * exported mesh is skinned (ferry_alo_scene_options.skin_all_bones), for
     * importers that make bones only of skins' joints (Blender's). */
    bool skin_all_bones;
    /* ALO models: no faction-colour mask images (a colorize shader's base
     * texture alpha, ferry_alo_scene_options.no_faction_masks), for
     * importers that make nothing of an image no material slot uses
     * (Blender's). */
    bool no_faction_masks;
    /* ALO models: textures in the game's formats
     * (ferry_alo_scene_options.native_textures: files of the disk named by
     * absolute path, a colorize colour as a DXT1 DDS), for an importer on
     * this machine that reads DDS and TGA, such as Blender's. */
    bool native_textures;
    /* Export an input validation finds errors in (each said as a finding,
     * then FERRY_EXPORT_CONVERTED_ANYWAY); by default it is refused
     * (FERRY_EXPORT_NOT_CONVERTED), in every format, as validate says. */
    bool allow_invalid;
    /* How ferry_export_file writes (protect_input: also never this file). */
    ferry_write_options write;
    ferry_message_fn message; /* what the export says as it goes (NULL: nothing) */
    void *user;
    ferry_export_report *report; /* filled (may be NULL); free with ferry_export_report_free */
} ferry_export_options;

/* The input as the scene glTF is written from: read as its format says
 * (ALO model, particle system, ODOL, ALM), validated (refused on errors
 * unless allow_invalid), its animations attached, its textures found, by
 * the format table's ferry_asset_to_scene. An animation alone, or a format
 * that is no model, is FERRY_ERR_UNSUPPORTED. Every problem is also said
 * as a message (a failure last, as an ERROR, `err` repeating it), so that
 * a caller printing messages prints nothing else. *out freed with
 * ferry_scene_free. */
FERRY_API ferry_result ferry_export_scene(const ferry_export_input *in, const ferry_export_options *options,
                                          ferry_scene **out, ferry_error *err);
/* The same, written as `out_path` (.glb, or .gltf with its .bin and
 * images; ferry_gltf_save), atomically. A failure to write is said as an
 * ERROR naming out_path; writing over the input is FERRY_ERR_ARGUMENT. */
FERRY_API ferry_result ferry_export_file(const ferry_export_input *in, const char *out_path,
                                         const ferry_export_options *options, ferry_error *err);

/* ---- a tree: every model of a folder or an archive (convert -r) ---- */

/* One model of the tree and what became of it. */
typedef struct ferry_export_item {
    size_t index;       /* in the tree's order (by rel) */
    const char *input;  /* how it is named: IN/REL; an archive's entry ARCHIVE/PATH, or by its record */
    const char *rel;    /* its path below the tree (an entry's stored name when it is refused) */
    const char *output; /* OUT_DIR/REL with .glb for the extension; NULL: none (a name refused) */
    bool ok;            /* written */
    ferry_result result;
    const ferry_message *messages; /* what its export said, in order */
    size_t message_count;
    const ferry_export_report *report; /* zeroed when the export did not run */
} ferry_export_item;

typedef void (*ferry_export_item_fn)(void *user, const ferry_export_item *item);

/* A folder the walk did not enter. */
typedef struct ferry_folder_skip {
    const char *path;   /* IN/REL */
    const char *reason; /* "the same folder as ..., already visited", or the system's words */
    bool failed;        /* it could not be read: a failure; else a link loop or a second link */
} ferry_folder_skip;

typedef struct ferry_export_tree_options {
    /* How each item is exported (export.report is not used: each item has
     * its own). export.message gets the tree's own messages (file NULL:
     * folders skipped, temporaries removed) as they happen; the items'
     * messages come with the items. export.write.no_sync is worth setting:
     * a batch writes new files, and a flush per file costs more than the
     * conversion (cp -r does not flush either). */
    ferry_export_options export;
    /* Threads converting at once; 0: the processors this process may use. */
    unsigned jobs;
    /* Each item as soon as it and every one before it are done, in order,
     * from one thread at a time (may be NULL). */
    ferry_export_item_fn item;
    void *item_user;
    /* Progress: first (0, total, NULL), then after each item done (in the
     * order they finish), from one thread at a time (may be NULL). */
    ferry_progress_fn progress;
    void *progress_user;
    /* Where folders and archives are opened (the input, each model's folder
     * and the one above, addons): shared with the caller's texture places
     * so that each is opened once. NULL: a pool of the tree's own. */
    ferry_places *places;
} ferry_export_tree_options;

typedef struct ferry_export_tree_report {
    ferry_export_item *items; /* every model found, in order */
    size_t item_count;
    size_t converted, failed;
    /* Over the items: warnings of all, animations and images of those written. */
    size_t warnings, animations, images;
    size_t stale_removed; /* temporaries of killed writers removed from OUT_DIR */
    ferry_folder_skip *skipped; /* folders not walked, in the order met */
    size_t skipped_count;
    size_t failed_folders; /* of them, those that could not be read */
    /* The textures missing over the items written, each name once
     * (ignoring case, as the lookup does: the first spelling in the order
     * kept), sorted ignoring case, then by bytes: which files to find. */
    const char *const *missing_textures;
    size_t missing_texture_count;
    void *owned; /* internal */
} ferry_export_tree_report;

FERRY_API void ferry_export_tree_report_free(ferry_export_tree_report *report);

/* Every model under `in` (a folder: each .alo, .p3d and .alm file of its
 * tree, names starting with '.' left out, each folder once; or an archive
 * ferry reads: each entry so named) exported as a .glb under out_dir at
 * the same relative path, in parallel. Each item is read and told once
 * (an archive's entry from the archive's bytes, not copied) and exported
 * as ferry_export_file does, finding its animations when
 * options->export.auto_animations is set (ferry convert -r sets it) and
 * its textures in its source; one that fails never stops
 * the others. Before the walk, temporaries that killed writers left in
 * out_dir's tree are removed (ferry_file_remove_stale_temporaries, links
 * not followed). Refused without being read: an entry whose stored name
 * would lead outside out_dir (ferry_archive_entry_path), two inputs whose
 * outputs differ only in case (both refused, each naming the other: on a
 * disk that ignores case one would overwrite the other), a file that is
 * not a regular file (never opened: a FIFO would block). Below out_dir, a
 * folder on an archive entry's way that is a link is not written through.
 * Returns FERRY_OK when the tree was walked (items may have failed: the
 * report says); FERRY_ERR_ARGUMENT when `in` is neither a folder nor an
 * archive, does not exist, or out_dir exists and is not a folder; another
 * code when the archive cannot be read or out_dir cannot be made. A
 * failure is said as a message too. */
FERRY_API ferry_result ferry_export_tree(const char *in, const char *out_dir, const ferry_export_tree_options *options,
                                         ferry_export_tree_report *report, ferry_error *err);

/* ---- validation in context (ferry validate) ----
 *
 * A file validated as the game would meet it: a model's and a particle
 * system's textures looked up where the game looks (beside it, in
 * ../Textures, then in the places given), an animation checked against its
 * model (given, or paired by name: ferry_ala_model_for among the models
 * given, then beside it), an archive's entries checked as files. */

/* One thing checked: a file, an archive's entry, or a folder of a tree that
 * could not be read. */
typedef struct ferry_validate_item {
    const char *file;     /* how it is named: the path given, ROOT/REL, ARCHIVE:ENTRY */
    ferry_format format;  /* its content's (UNKNOWN: not told) */
    bool entry;           /* an archive's entry (delivered after its archive) */
    bool folder;          /* a folder that could not be read (ferry_validate_tree); `error` says why */
    const ferry_error *error;             /* it could not be read: why (diagnostics then NULL) */
    const ferry_diagnostics *diagnostics; /* its problems (NULL with error) */
    /* An ALA animation: the model it was checked against (its path;
     * ferry_validate_export_input: its name as the input's source shows
     * it; or options->model_name); NULL: checked alone. */
    const char *model;
    size_t error_count; /* error ? 1 : diagnostics->error_count */
    /* An archive's entry: what ferry_asset_validate said of it (its index
     * and stored name too); NULL otherwise. */
    const ferry_asset_entry_report *entry_report;
} ferry_validate_item;

typedef void (*ferry_validate_item_fn)(void *user, const ferry_validate_item *item);

typedef struct ferry_validate_options {
    /* Textures are looked up beside each model or particle system, in
     * ../Textures, then in each of these places (each at its root and in
     * its Data/Art/Textures; a NULL place holds nothing); one not found is a
     * warning. `skip_textures`: not looked up. */
    const ferry_place *const *textures;
    size_t texture_count;
    bool skip_textures;
    /* Every animation checked against this asset of an ALO model, named
     * `model_name` in the items; NULL: each paired by name with a model
     * among `models` (paths of the disk), then among the .alo files beside
     * it (in its folder; ferry_validate_export_input: in its source),
     * sorted by name (read once each, the last 8 kept). An animation
     * without a model is checked alone. */
    const ferry_asset *model;
    const char *model_name;
    const char *const *models;
    size_t model_count;
    /* ferry_validate_tree: folders walked (each entry of the list that is
     * a folder); without it a folder is an input that cannot be read. */
    bool recursive;
    /* Where folders and archives are opened (a model's folder and the one
     * above): shared with the caller's texture places so that each is
     * opened once. NULL: a pool of the job's own. */
    ferry_places *places;
    /* Each item, in order, as soon as it is checked (may be NULL): a
     * file's own, then its entries'. */
    ferry_validate_item_fn item;
    void *item_user;
    /* The walk's messages (FERRY_WALK_FOLDER_REVISITED and
     * FERRY_WALK_FOLDER_UNREADABLE, file the folder), as they happen. */
    ferry_message_fn message;
    void *user;
    /* First (0, total, NULL) once the files are known, then after each
     * file (may be NULL). */
    ferry_progress_fn progress;
    void *progress_user;
} ferry_validate_options;

typedef struct ferry_validate_report {
    size_t checked;  /* files validated or failed to read (not entries, not folders) */
    size_t invalid;  /* of them, those with errors (entries' included) or not read */
    size_t errors;   /* errors over all */
    size_t skipped;  /* files of a walked folder of no format ferry validates */
    ferry_folder_skip *folders; /* folders not walked, in the order met */
    size_t folder_count;
    size_t failed_folders; /* of them, those that could not be read (each also an item) */
    void *owned; /* internal */
} ferry_validate_report;

FERRY_API void ferry_validate_report_free(ferry_validate_report *report); /* zeroes it */

/* Validates the file at `path` with its context (above): opened once
 * (ferry_asset_open, need FERRY_CAN_VALIDATE), checked by its format's
 * rules (ferry_asset_validate), its items delivered through options->item.
 * A file that cannot be read is one item with its error. Returns FERRY_OK
 * when it was checked or could not be read (the report says which); an
 * error code only when out of memory or without a path or report. */
FERRY_API ferry_result ferry_validate_input(const char *path, const ferry_validate_options *options,
                                            ferry_validate_report *report, ferry_error *err);

/* The same for an input described as an export's (ferry_export_input: one
 * of the disk, an archive's entry, dropped files): in->asset, named
 * in->name (NULL: the asset's name), with its context taken from the input
 * rather than from the disk: textures looked up beside in->path in
 * in->source and in ../Textures (through in->parent when it lies at the
 * source's root), as ferry_export_scene looks them up, then in
 * options->textures; an animation paired by name (ferry_ala_model_for)
 * among the .alo files beside it in in->source, sorted by name so that a
 * tie goes as for a file of the disk, and named as the source shows it
 * (ferry_file_source_display), unless options->model or one of
 * options->models is its model. An input without a source is checked
 * with the places given alone. ferry_validate_input and ferry_validate_tree run the same check
 * over each file opened as ferry_export_input_open opens it (but read
 * whole, need FERRY_CAN_VALIDATE: a file its reader refuses is one item
 * with its error), the models beside it named as paths of the disk. The report
 * counts the input as one file checked; options->recursive and
 * options->places are not used. An asset opened bytes_only whose reader
 * refuses it is one error (rule "read-error"). Returns as
 * ferry_validate_input does; FERRY_ERR_ARGUMENT without an input, its
 * asset or a report. */
FERRY_API ferry_result ferry_validate_export_input(const ferry_export_input *in, const ferry_validate_options *options,
                                                   ferry_validate_report *report, ferry_error *err);

/* The same for every path of `paths`, in order; with options->recursive a
 * folder is walked (subfolders too, names starting with '.' left out, each
 * folder once) and its files checked sorted by path: those whose content
 * is a format ferry validates (text configs only when named .cpp, .hpp or
 * .bisurf: scripts read as config text too), and those named like an
 * asset (ferry_format_named_like_asset) whatever their content; the others
 * are counted as skipped. A folder that cannot be read is an item (folder,
 * with its error) at its place in that order. Models read for animations
 * and places opened are shared by all the paths. Returns as
 * ferry_validate_input does. */
FERRY_API ferry_result ferry_validate_tree(const char *const *paths, size_t count, const ferry_validate_options *options,
                                           ferry_validate_report *report, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
