/* The format table and ferry_asset: every format ferry reads behind one
 * handle, chosen by content, so that a program (the ferry tool, the Python
 * package, the web viewer) reads, validates, describes, writes and converts
 * any file without naming its format.
 *
 * One row per format ferry_detect names (detect.h). A row says what the
 * library does with the format (ferry_format_caps); ferry_asset carries a
 * file's bytes, its format (told once) and its typed object (the
 * ferry_alo_model, ferry_odol_model, ... of the format's own header). */
#ifndef FERRY_FORMAT_H
#define FERRY_FORMAT_H

#include <ferry/convert.h>
#include <ferry/detect.h>
#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the table ---- */

typedef enum ferry_format_caps {
    FERRY_CAN_READ = 1 << 0,       /* ferry_asset_read makes an object of it */
    FERRY_CAN_WRITE = 1 << 1,      /* ferry_asset_write gives it back (byte for byte: see there) */
    FERRY_CAN_VALIDATE = 1 << 2,   /* ferry_asset_validate checks its rules */
    FERRY_CAN_INFO = 1 << 3,       /* ferry_asset_info describes it */
    FERRY_CAN_TO_SCENE = 1 << 4,   /* ferry_asset_to_scene (then glTF: ferry_gltf_save) */
    FERRY_CAN_FROM_SCENE = 1 << 5, /* ferry_asset_from_scene makes one */
    FERRY_IS_ARCHIVE = 1 << 6      /* holds files (MEG, PBO): mapped, never read whole, no size limit */
} ferry_format_caps;

typedef struct ferry_format_desc {
    ferry_format id;
    const char *name;              /* ferry_format_name(id): "ALO model", "ODOL", ... */
    const char *key;               /* short stable identifier: "alo", "particle", "ala", "odol", ... */
    const char *const *extensions; /* NULL-terminated (".p3d"); the first is what an output is named */
    unsigned caps;                 /* ferry_format_caps */
} ferry_format_desc;

/* The rows, one per format ferry_detect names (FERRY_FORMAT_UNKNOWN has
 * none), in a fixed order. MLOD and Universe at War particle systems have
 * rows with no capability: they are recognised, and the ODOL and particle
 * readers refuse them, saying why. */
FERRY_API size_t ferry_format_count(void);
FERRY_API const ferry_format_desc *ferry_format_at(size_t index); /* NULL past the last */
FERRY_API const ferry_format_desc *ferry_format_describe(ferry_format id); /* NULL: no row */
/* The format a file's name suggests, by its extension ignoring case
 * (.alo: ALO model, .ala, .p3d: ODOL, .alm, .glb, .gltf, .paa and .pac,
 * .meg, .pbo, .rvmat and .bin: raP, .cpp and .hpp: config text); else
 * FERRY_FORMAT_UNKNOWN. Only a hint for naming what went wrong with a file
 * that cannot be read or whose content is no known format: the content
 * always decides (ferry_detect). */
FERRY_API ferry_format ferry_format_from_name(const char *file_name);
/* The format of the file at `path` as a front end routes it before reading
 * it (ferry convert picks the family that converts, or names the failure,
 * by it): its content's (ferry_detect on its first bytes, read with
 * ferry_file_read_head: never blocking on a FIFO or device), else, when the
 * file cannot be read or its content is no known format, its name's
 * (ferry_format_from_name). *content (may be NULL): the content's alone
 * (FERRY_FORMAT_UNKNOWN also when the file could not be read). */
FERRY_API ferry_format ferry_format_of_file(const char *path, ferry_format *content);

/* Named like a format ferry validates (.alo, .ala, .p3d, .alm, .meg, .pbo,
 * .paa, .pac, .rvmat, ignoring case): such a file is checked whatever its
 * content (an archive's entry, ferry_asset_validate_options.entry; a
 * folder's file, `ferry validate -r`), so that a broken one is an error
 * rather than skipped. */
FERRY_API bool ferry_format_named_like_asset(const char *name);

/* ---- assets ---- */

/* The largest file ferry_asset_open reads by default (an archive has no
 * limit): 2 GiB, as the ferry tool. */
#define FERRY_ASSET_MAX_INPUT ((size_t)1 << 31)

/* An asset never changes once it is made (an object read for one call is
 * that call's), so one asset may be used from several threads at once; the
 * table is constant. */
typedef struct ferry_asset ferry_asset;

typedef struct ferry_asset_options {
    ferry_read_options read;
    /* The format to read the content as; FERRY_FORMAT_UNKNOWN (0): the one
     * ferry_detect tells from the content. */
    ferry_format format;
    /* How the asset is named: "file" in its info, a particle system's name
     * check, the ARCHIVE:ENTRY labels of its entries. NULL: the path for
     * ferry_asset_open, none for ferry_asset_read. Copied. */
    const char *name;
    /* ferry_asset_open: the largest file read (0: FERRY_ASSET_MAX_INPUT);
     * an archive is mapped whatever its size. */
    size_t max_size;
    /* What the caller will do (ferry_format_caps; 0: anything): content of
     * a format that cannot do it (a glTF for FERRY_CAN_INFO) is refused as
     * "not a known format", told from its first bytes before the rest is
     * read. MLOD and Universe at War files pass (their family's reader
     * refuses them, saying why). */
    unsigned need;
    /* Read the bytes and tell the format, but make no object: the asset
     * then opens whatever the content (ferry_asset_format may be
     * FERRY_FORMAT_UNKNOWN), ferry_asset_object is NULL, and each call
     * that needs the object reads it for that call. For looking at a file
     * its reader refuses: ferry_asset_info's FERRY_INFO_FULL of an Alamo
     * file is its chunk tree, which needs no typed object. */
    bool bytes_only;
    /* A .gltf's buffers and images (ferry_gltf_read_options.files);
     * ferry_asset_open: the file's folder when NULL. Must outlive the asset. */
    const ferry_file_source *files;
    /* May be NULL: set to the format the content was taken for, also when
     * the call fails (a failure then names the format whose reader refused
     * it); FERRY_FORMAT_UNKNOWN when the file could not be read, holds no
     * known format or was refused by `need`. */
    ferry_format *detected;
} ferry_asset_options;

/* Reads `data` as its format (told by content unless options->format says).
 * The bytes are not copied: they must outlive the asset (the archives'
 * entries point into them). Content of no known format is
 * FERRY_ERR_UNSUPPORTED, "not a known format: it starts with ..."; a
 * reader's failure is its located error. */
FERRY_API ferry_result ferry_asset_read(const uint8_t *data, size_t size, const ferry_asset_options *options,
                                        ferry_asset **out, ferry_error *err);
/* The same for a file: its first bytes read and the format told before the
 * rest is read (so content of no known format is refused early; named .p3d
 * or .alm, as not starting with that format's signature, also when
 * options->format is given), then mapped once
 * (ferry_file_map: an archive has no size limit and only the pages used are
 * read; other formats up to options->max_size). The asset owns the mapping.
 * Regular files only (ferry_file_load's rules). */
FERRY_API ferry_result ferry_asset_open(const char *path, const ferry_asset_options *options, ferry_asset **out,
                                        ferry_error *err);
FERRY_API void ferry_asset_free(ferry_asset *asset); /* NULL does nothing */

FERRY_API ferry_format ferry_asset_format(const ferry_asset *asset);
/* The typed object, by format: ferry_alo_model (ALO model), ferry_particle_system,
 * ferry_ala_animation, ferry_odol_model, ferry_alm_mesh, ferry_scene (glTF),
 * ferry_paa, ferry_meg, ferry_pbo, ferry_config (raP, text); NULL with
 * bytes_only. Owned by the asset. */
FERRY_API void *ferry_asset_object(const ferry_asset *asset);
FERRY_API const uint8_t *ferry_asset_bytes(const ferry_asset *asset, size_t *size);
/* The asset's name (options->name, or ferry_asset_open's path); NULL: none. */
FERRY_API const char *ferry_asset_name(const ferry_asset *asset);
/* The mapping ferry_asset_open made (NULL for ferry_asset_read's bytes):
 * for ferry_file_map_drop once a part of a large file is done with. */
FERRY_API const ferry_file_mapping *ferry_asset_mapping(const ferry_asset *asset);

/* Appends the asset in its format: the bytes read, byte for byte (a raP
 * config laid out otherwise than the tools lay it out comes back in their
 * layout, config.h's `canonical`; a text config has no writer of its own
 * bytes: FERRY_ERR_UNSUPPORTED, ferry_asset_write_layout writes it as raP
 * or text). */
FERRY_API ferry_result ferry_asset_write(const ferry_asset *asset, ferry_buffer *out, ferry_error *err);
/* The same in another layout of its format, for the formats that have
 * two: an ALA animation in format 1 (Empire at War) or 2 (Forces of
 * Corruption), every pose kept (ferry_ala_write_format); a config, raP or
 * text, as raP (FERRY_LAYOUT_RAP: rapified, ferry_config_write) or as text
 * (FERRY_LAYOUT_TEXT: ferry_config_write_text). 0 is ferry_asset_write;
 * another layout, or any of another format, is FERRY_ERR_ARGUMENT. */
#define FERRY_LAYOUT_RAP 1
#define FERRY_LAYOUT_TEXT 2
FERRY_API ferry_result ferry_asset_write_layout(const ferry_asset *asset, unsigned layout, ferry_buffer *out,
                                                ferry_error *err);
/* ferry_asset_write into a file, atomically (ferry_file_write's rules). An
 * archive is written in pieces: its tables, then the bytes after them from
 * the input a piece at a time (a mapped input's pages dropped once
 * written), never held whole. */
FERRY_API ferry_result ferry_asset_save(const ferry_asset *asset, const char *path, const ferry_write_options *options,
                                        ferry_error *err);

/* ---- validation ---- */

/* One entry of an archive checked (ferry_asset_validate_options.entry). */
typedef struct ferry_asset_entry_report {
    size_t index;           /* its record in the archive */
    const char *name;       /* its stored name, name_length bytes (no NUL inside) */
    size_t name_length;
    const char *label;      /* "ARCHIVE:NAME", ARCHIVE the asset's name (or "" without one) */
    ferry_format format;    /* its content's format; UNKNOWN: named like an asset, content of none */
    const ferry_error *error;              /* it could not be read: why (diagnostics then NULL) */
    const ferry_diagnostics *diagnostics;  /* its problems (NULL with error) */
    size_t error_count;                    /* error ? 1 : diagnostics->error_count */
} ferry_asset_entry_report;
typedef void (*ferry_asset_entry_fn)(void *user, const ferry_asset_entry_report *entry);

typedef struct ferry_asset_validate_options {
    /* ALO models and particle systems: where the textures their materials
     * and emitters name are looked for (ferry_alamo_texture_find); one not
     * found is a warning. NULL: textures are not checked. */
    const ferry_alamo_texture_places *textures;
    /* An ALA animation: the model it is checked against too
     * (ferry_ala_check_model; an asset of an ALO model); NULL: alone. */
    const ferry_asset *model;
    /* Archives (MEG, PBO): each entry is checked as well and reported
     * through `entry` (NULL: the archive alone), one call per entry in the
     * archive's order, after the archive's own checks (`diags` then holds
     * them complete). Checked are the entries whose content is a format
     * ferry validates (text configs only when named .rvmat: scripts and
     * headers can read as config text) and those named like an asset
     * (.alo, .ala, .p3d, .alm, .meg, .pbo, .paa, .pac, .rvmat), whose
     * content of no known format is then an error. An archive inside is
     * checked with its entries (labels ARCHIVE:INNER:NAME), down to three
     * archives inside the asset (deeper, a warning "archive-nesting" says
     * the entries were not checked: an entry may even hold its own
     * archive's bytes); textures and animation models are not looked up. */
    ferry_asset_entry_fn entry;
    void *user;
} ferry_asset_validate_options;

/* Checks the asset by its format's rules (ferry_X_validate); appends its
 * own problems to `diags` and returns the number of errors found, its
 * entries' included. An object that cannot be read (bytes_only) is one
 * error, its located read error added to `diags` with the rule
 * "read-error". */
FERRY_API size_t ferry_asset_validate(const ferry_asset *asset, const ferry_asset_validate_options *options,
                                      ferry_diagnostics *diags);

/* ---- info: the asset as data ---- */

typedef enum ferry_info_detail {
    FERRY_INFO_SUMMARY = 0, /* the object `ferry info --json` prints for the file */
    FERRY_INFO_FULL,        /* everything decoded: the object `ferry dump --json` prints */
    FERRY_INFO_ENTRIES      /* an archive's table: the object `ferry list --json` prints (archives only) */
} ferry_info_detail;

typedef struct ferry_info_options {
    ferry_info_detail detail;
    /* Reals with 17 significant digits (read back exactly) instead of 9. */
    bool exact;
    /* NaN and infinities as the strings "nan", "-nan", "inf", "-inf". By
     * default, as the ferry tool prints them: JSON has no such number, so
     * such a value is left out of its object or array (and a group of
     * three coordinates holding one is left out whole), but for ALM's
     * reals, which are "nan", "inf" or "-inf". */
    bool nonfinite_strings;
} ferry_info_options;

/* One JSON object (UTF-8 text, no newline) appended to `json`: by default
 * exactly the object `ferry info --json` prints for the file (with
 * FERRY_INFO_FULL, `ferry dump --json`'s). Strings from files follow the
 * Latin-1 rule (ferry_text_utf8: a string that is not UTF-8 is read as
 * Latin-1 and its key listed in the object's "latin1" array). A format
 * without info is FERRY_ERR_UNSUPPORTED ("not a known format"), but with
 * FERRY_INFO_FULL any content whose Alamo chunk tree reads is described as
 * that tree, as `ferry dump` does. */
FERRY_API ferry_result ferry_asset_info(const ferry_asset *asset, const ferry_info_options *options, ferry_buffer *json,
                                        ferry_error *err);

/* ---- per kind: an animation sampled, a particle system simulated ---- */

typedef struct ferry_asset_sample_options {
    /* The moment: frame `frame` (0 is the first; fractional frames
     * interpolate, ferry_ala_sample_all), or with has_time, `time` seconds
     * (ferry_ala_frame_at). Finite, 0 or more. */
    double frame;
    bool has_time;
    double time;
    /* Past the last frame: wrap around (FERRY_ALA_LOOP); false: hold the
     * last frame (FERRY_ALA_CLAMP). */
    bool loop;
    /* An asset of the ALO model the animation is for: each bone is named
     * as the model's bone of its index (NULL: the animation's names). */
    const ferry_asset *model;
    bool exact;             /* ferry_info_options.exact */
    bool nonfinite_strings; /* ferry_info_options.nonfinite_strings */
} ferry_asset_sample_options;

/* Every animated bone's local pose at one moment, as one JSON object
 * appended to `json` (info's shape): by default exactly the object `ferry
 * sample --json` prints, {"file", "frame" (the frame sampled), "frames",
 * "fps", "loop", "bones": [{"name", "index", "translation", "rotation"
 * (a unit quaternion x, y, z, w), "scale", "visible" (null: the animation
 * does not say)}]}, one bone per track in the file's order; a vector
 * holding a value that is not finite is left out (nonfinite_strings: the
 * strings "nan", "inf", ...). An asset that is not an ALA animation is
 * FERRY_ERR_UNSUPPORTED; a moment that is negative or not finite (or a time
 * whose frame is not), or a model that is not an ALO model's asset,
 * FERRY_ERR_ARGUMENT. */
FERRY_API ferry_result ferry_asset_sample(const ferry_asset *asset, const ferry_asset_sample_options *options,
                                          ferry_buffer *json, ferry_error *err);

typedef struct ferry_asset_particles_options {
    double time;    /* seconds since the system's creation: finite, 0 or more */
    uint64_t seed;  /* ferry_particle_sim_options.seed */
    float ground_z; /* the ground plane particles interact with (z = ground_z) */
    bool no_ground; /* no ground at all */
    bool exact;             /* ferry_info_options.exact */
    bool nonfinite_strings; /* values that are not finite as "nan", "inf", ... instead of null */
    /* May be NULL: set to the limits the simulation reached (the
     * FERRY_PARTICLE_SIM_WARN_* bits of particle_sim.h; their sentences:
     * ferry_particle_sim_warning_text). */
    unsigned *warnings;
} ferry_asset_particles_options;

/* A particle system simulated from its creation to options->time
 * (ferry_particle_sim_*), its live particles as one JSON object appended
 * to `json`: by default exactly the object `ferry particles --json`
 * prints, {"time", "emitters": [{"index", "name", "particles": [{"id",
 * "position", "velocity", "size", "color", "rotation", "age", "lifetime",
 * "frame"}]}]}, an entry per emitter of the file, its particles by birth
 * time (then id); positions in the system's space (z up), colours 0..1, a
 * value that is not finite null. The same seed gives the same object. An
 * asset that is not a particle system is FERRY_ERR_UNSUPPORTED; a time that
 * is negative or not finite, FERRY_ERR_ARGUMENT. */
FERRY_API ferry_result ferry_asset_particles(const ferry_asset *asset, const ferry_asset_particles_options *options,
                                             ferry_buffer *json, ferry_error *err);

/* Text from a file (a name, a path: any bytes) as the JSON texts above
 * carry it: valid UTF-8 as it is; anything else read as Latin-1 as a whole
 * (each byte one character U+0000..U+00FF), so that the bytes come back
 * exactly. Appends the UTF-8 text to `out` (no NUL added) and returns true
 * when it was read as Latin-1 (the key then belongs in the object's
 * "latin1" array: "file", or "names/3" for an array's item). */
FERRY_API bool ferry_text_utf8(const char *text, size_t length, ferry_buffer *out);

/* ---- scenes ---- */

/* What each format's ferry_X_to_scene takes (convert.h); a field a format
 * does not use is ignored. Zero: the defaults (the game's first view). */
typedef struct ferry_asset_scene_options {
    const char *name; /* the scene's name (ALO, ODOL, ALM; NULL: the format's default) */
    bool all;         /* ALO: every mesh; ODOL: every LOD */
    /* ALO model: its animations (assets of ALA animations) and their
     * names, textures looked for in `textures` (NULL: not embedded). */
    const ferry_asset *const *animations;
    const char *const *animation_names;
    size_t animation_count;
    const ferry_alamo_texture_places *textures;
    /* ODOL: LODs by index (NULL: the default or `all`), the skeleton's
     * animation classes left out, texture roots (ferry_odol_find_files). */
    const uint32_t *lods;
    size_t lod_count;
    bool no_animations;
    const ferry_odol_root *texture_roots;
    size_t texture_root_count;
    /* ALM: a level of detail (NULL: full resolution). */
    const ferry_alm_lod_options *alm_lod;
    ferry_png_effort png_effort;    /* how embedded textures are encoded (ALO, ODOL, ALM) */
    bool skin_all_bones;            /* ALO, ALM: ferry_alo_scene_options says */
    bool no_faction_masks;          /* ALO: ferry_alo_scene_options says */
    bool native_textures;        /* ALO: ferry_alo_scene_options says */
    ferry_diagnostics *diagnostics; /* warnings, may be NULL */
    /* Reports of the converter that ran (may be NULL). */
    ferry_alo_scene_report *alo_report;
    ferry_odol_scene_report *odol_report;
    ferry_alm_scene_report *alm_report;
} ferry_asset_scene_options;

/* The asset as a format-neutral scene (ferry_X_to_scene; a glTF is read
 * again), freed with ferry_scene_free. A format without one is
 * FERRY_ERR_UNSUPPORTED. */
FERRY_API ferry_result ferry_asset_to_scene(const ferry_asset *asset, const ferry_asset_scene_options *options,
                                            ferry_scene **out, ferry_error *err);

/* The options of the converter that runs (convert.h; NULL: its defaults). */
typedef struct ferry_asset_from_scene_options {
    ferry_read_options read;
    const char *name;                          /* the new asset's name (NULL: none) */
    const ferry_alo_from_scene_options *alo;   /* ALO model */
    const ferry_alm_from_scene_options *alm;   /* ALM: which animation, how collapses are built */
    const ferry_ala_from_scene_options *ala;   /* ALA: which animation, its layout, rate and bones */
} ferry_asset_from_scene_options;

/* A new asset of `format` made from a scene (ferry_alo_from_scene,
 * ferry_alm_from_scene, ferry_ala_from_scene): the object written and read
 * back, so that it has bytes like any asset read (ferry_asset_bytes,
 * ferry_asset_save). A format not made from scenes is FERRY_ERR_UNSUPPORTED. */
FERRY_API ferry_result ferry_asset_from_scene(ferry_format format, const ferry_scene *scene,
                                              const ferry_asset_from_scene_options *options, ferry_asset **out,
                                              ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
