/* Archives behind one handle: a MEG or a PBO (any format whose row in the
 * format table is FERRY_IS_ARCHIVE) as entries with names and bytes, a
 * file source, and the jobs done with them; and places, the folders and
 * archives a job looks files up in, each opened once.
 *
 * An archive is opened from a path (mapped: only the pages of its tables
 * and of the entries read are read, whatever its size) or from a
 * ferry_asset of one. Its typed object (ferry_meg, ferry_pbo: meg.h,
 * pbo.h) stays reachable for what only one format has. */
#ifndef FERRY_ARCHIVE_H
#define FERRY_ARCHIVE_H

#include <ferry/format.h>
#include <ferry/meg.h>
#include <ferry/pbo.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An archive never changes once opened: its entries, bytes and source may
 * be used from several threads at once. */
typedef struct ferry_archive ferry_archive;

/* One entry, as every archive format has it. */
typedef struct ferry_archive_entry {
    /* The stored name: name_length bytes, any byte but the games' rules
     * (a NUL inside is possible in a MEG), followed by a NUL; NULL when the
     * record names none (a MEG record whose name index is out of range). */
    const char *name;
    size_t name_length;
    uint64_t size;        /* its bytes when read: a compressed PBO entry's decoded size */
    uint64_t stored_size; /* the bytes it takes in the archive */
    uint64_t start;       /* where those begin */
    uint64_t offset;      /* where its record is */
    bool compressed;      /* stored compressed (PBO 'Cprs'): ferry_archive_read_entry decodes it */
} ferry_archive_entry;

typedef struct ferry_archive_options {
    ferry_read_options read; /* the tables' memory limit */
    /* How the archive is named: entries' labels (ARCHIVE:NAME), and the
     * file name a PBO without a prefix property is mounted at. NULL: the
     * path (ferry_archive_open), the asset's name. Copied. */
    const char *name;
} ferry_archive_options;

/* Opens the archive at `path`: its format told by content, or, when the
 * content is no format ferry knows, by the name's extension (a .pbo whose
 * first record is broken is then refused by the PBO reader, saying why).
 * Content of another format, or of none with another extension, is
 * FERRY_ERR_UNSUPPORTED ("not an archive ferry reads (MEG, PBO): ...").
 * The file is mapped (ferry_asset_open; an archive has no size limit). */
FERRY_API ferry_result ferry_archive_open(const char *path, const ferry_archive_options *options, ferry_archive **out,
                                          ferry_error *err);
/* The archive an asset holds (an asset of a format FERRY_IS_ARCHIVE; one
 * opened bytes_only is read now). The asset must outlive the archive. */
FERRY_API ferry_result ferry_archive_from_asset(const ferry_asset *asset, ferry_archive **out, ferry_error *err);

/* Where a front end without mapped files gets an archive's bytes (the web
 * viewer reads a dropped file with File.slice in a worker, never whole):
 * the archive reads its tables first (as much as ferry_meg_read_head and
 * ferry_pbo_read_head ask for: the first 64 KiB, then more only when the
 * tables are larger) and each entry's stored bytes when it is read. */
typedef struct ferry_archive_reader {
    /* Copies up to `size` bytes of the archive from byte `offset` into
     * `buffer` and returns how many: fewer is fine (the rest is asked
     * again), 0 before the archive's end is the archive ending early
     * (FERRY_ERR_TRUNCATED), a negative number a failed read
     * (FERRY_ERR_IO). Called from one thread at a time (the archive holds
     * a lock around each call). */
    int64_t (*read)(void *user, uint64_t offset, size_t size, void *buffer);
    void *user;
    uint64_t size; /* the archive's size in bytes */
    /* Called by ferry_archive_free (may be NULL); not when the open fails,
     * `user` then stays the caller's. */
    void (*close)(void *user);
} ferry_archive_reader;

/* An archive read through `reader` (copied): its format told by the
 * content of its first bytes (else by options->name's extension), its
 * tables read with ferry_X_read_head, with the errors ferry_X_read gives.
 * Entries are read when asked for (ferry_archive_read_entry, the source's
 * loads); the PBO trailer's SHA-1 is not checked (it needs every byte). */
FERRY_API ferry_result ferry_archive_from_reader(const ferry_archive_reader *reader,
                                                 const ferry_archive_options *options, ferry_archive **out,
                                                 ferry_error *err);
FERRY_API void ferry_archive_free(ferry_archive *archive); /* NULL does nothing */

FERRY_API ferry_format ferry_archive_format(const ferry_archive *archive);
/* options->name, the path, the asset's name; NULL: none. */
FERRY_API const char *ferry_archive_name(const ferry_archive *archive);
/* The archive's size in bytes. */
FERRY_API uint64_t ferry_archive_size(const ferry_archive *archive);
/* The typed object: a ferry_meg or a ferry_pbo, by format. */
FERRY_API const void *ferry_archive_object(const ferry_archive *archive);
/* The asset it was opened from (ferry_archive_open makes one); NULL for a
 * reader's. */
FERRY_API const ferry_asset *ferry_archive_asset(const ferry_archive *archive);

FERRY_API size_t ferry_archive_entry_count(const ferry_archive *archive);
/* Entry `index` in the archive's record order; NULL past the last. */
FERRY_API const ferry_archive_entry *ferry_archive_entry_at(const ferry_archive *archive, size_t index);

/* Entry `index`'s bytes, malloc'd (free() them): as stored, or a
 * compressed PBO entry decoded and its checksum checked (pbo.h). At most
 * max_size bytes (0: no limit), else FERRY_ERR_LIMIT. Errors are located
 * in the archive and name the record ("files[3]", "entries[3]"): bytes
 * outside the archive, a stream that does not decode, an unknown method. */
FERRY_API ferry_result ferry_archive_read_entry(const ferry_archive *archive, size_t index, size_t max_size,
                                                uint8_t **bytes, size_t *size, ferry_error *err);
/* Entry `index` as an asset: its bytes had once (ferry_archive_read_entry;
 * a stored entry of a mapped archive is not copied), its format told by
 * content (or options->format), read as ferry_asset_read does. The name
 * is options->name, else the label ARCHIVE:NAME (ferry_asset_validate's).
 * The archive must outlive the asset. */
FERRY_API ferry_result ferry_archive_open_entry(const ferry_archive *archive, size_t index,
                                                const ferry_asset_options *options, ferry_asset **out,
                                                ferry_error *err);

/* The archive as a file source (ferry_file_source_meg, ferry_file_source_pbo:
 * stored names with '/' for '\', compared ignoring ASCII case), labelled
 * with the archive's name; owned by the archive. */
FERRY_API const ferry_file_source *ferry_archive_source(const ferry_archive *archive);
/* The engine path the archive's entries are mounted at, for formats the
 * engine mounts so (PBO): its "prefix" property, or, without one, the
 * archive's file name without its extension (ferry_odol_root's prefix);
 * NULL for other formats (MEG), and for a PBO without either. */
FERRY_API const char *ferry_archive_prefix(const ferry_archive *archive);

/* The rule extract and convert -r share: a stored name as a relative path
 * with '/' between folders that stays inside any folder it is written
 * below. Refused (FERRY_ERR_MALFORMED, err->message saying why, as "its
 * name ..."): no name (NULL), an empty one, one holding a NUL byte, one
 * starting with a drive letter ("C:"), an absolute one ('/' or '\' first),
 * one with an empty, '.' or '..' segment. Writes length + 1 bytes (the
 * path and a NUL) to `out`; a smaller capacity is FERRY_ERR_ARGUMENT. */
FERRY_API ferry_result ferry_archive_entry_path(const char *name, size_t length, char *out, size_t capacity,
                                                ferry_error *err);

/* ---- extract ---- */

typedef struct ferry_extract_options {
    /* Only the entries whose name, with '/' for '\', matches one of these
     * shell patterns, ignoring ASCII case ('*' any bytes, '/' too; '?' one;
     * "[a-z]", "[!a-z]", "[[:digit:]]"; a '\' in a pattern is a '/', as
     * in names). None: every entry. */
    const char *const *patterns;
    size_t pattern_count;
    /* How each file is written (ferry_file_write: atomically). A zero
     * protect_input is the archive's own file (when it was opened from
     * one): an entry is never written over its archive. */
    ferry_write_options write;
    /* Each entry not extracted, as it is met (kind ERROR, file: the
     * archive's name; rule "entry-name": a name that could lead outside the
     * folder, "entry-case": two names equal but for case, both refused,
     * "entry-bytes": bytes that cannot be had, "entry-folder": a folder on
     * its path that cannot be made or is a link; "write-error": the file
     * could not be written, file: its path, error: why). */
    ferry_message_fn message;
    void *user;
    ferry_progress_fn progress; /* once before (0 of the entries chosen), then after each */
    void *progress_user;
} ferry_extract_options;

typedef struct ferry_extract_report {
    size_t selected;  /* entries with a safe name the patterns chose (every entry without patterns) */
    size_t extracted; /* files written */
    size_t refused;   /* entries not extracted, each named in a message */
} ferry_extract_report;

/* Writes the archive's entries under out_dir (created if needed; a file
 * there is FERRY_ERR_ARGUMENT, "OUT exists and is not a folder"), each
 * at its name made a path (ferry_archive_entry_path), in the order of
 * their bytes in the archive (a mapped archive's pages dropped as each is
 * written). Nothing is written outside out_dir: a name that could lead out
 * is refused, a folder on the way that is a link is refused, two entries
 * whose paths are equal but for ASCII case are both refused (one would
 * replace the other on a disk that ignores case). Each refusal is a
 * message; the others are written and the call returns FERRY_OK with the
 * report filled (refused > 0 is for the caller to weigh). */
FERRY_API ferry_result ferry_archive_extract(const ferry_archive *archive, const char *out_dir,
                                             const ferry_extract_options *options, ferry_extract_report *report,
                                             ferry_error *err);

/* ---- pack ---- */

/* A file of the disk and the path it is packed under ('/' between folders). */
typedef struct ferry_pack_file {
    const char *path;
    const char *name;
} ferry_pack_file;

typedef struct ferry_pack_options {
    /* FERRY_FORMAT_MEG or FERRY_FORMAT_PBO; 0: told by the output's name
     * (.meg, .pbo). */
    ferry_format format;
    uint32_t meg_format; /* MEG: 1, 2 or 3 (3 unencrypted); 0: 1 */
    /* PBO: the product entry's "prefix" property (NULL: none), and more
     * properties after it (ferry_pbo_pack_options). */
    const char *prefix;
    const ferry_pbo_property *properties;
    size_t property_count;
    /* When `folder` is NULL: the files to pack, each under its name. */
    const ferry_pack_file *files;
    size_t file_count;
    ferry_write_options write; /* how the output is written (always atomically) */
    /* Each file not packed, as it is met (kind ERROR, file: its path, text
     * "not packed: WHY"; rule "file-unreadable", "file-kind": not a regular
     * file, "name": a name the format cannot store, "name-case": two names
     * equal but for case, both refused), and each folder the walk could not
     * enter (FERRY_WALK_FOLDER_UNREADABLE and FERRY_WALK_FOLDER_REVISITED,
     * ferry.h). */
    ferry_message_fn message;
    void *user;
    ferry_progress_fn progress; /* once before (0 of the files packed), then after each */
    void *progress_user;
} ferry_pack_options;

/* Where a pack that failed stopped. */
typedef enum ferry_pack_stage {
    FERRY_PACK_DONE = 0,      /* it did not fail */
    FERRY_PACK_ARGUMENTS,     /* the options, the folder or the output as named: nothing read */
    FERRY_PACK_FILES,         /* the files or their layout (a file changed while packed): nothing written */
    FERRY_PACK_OUTPUT         /* writing the output */
} ferry_pack_stage;

typedef struct ferry_pack_report {
    ferry_format format;
    uint32_t meg_format; /* MEG: the format written */
    size_t packed;       /* files in the archive */
    uint64_t bytes;      /* their bytes */
    size_t refused;      /* files not packed and folders not read, each named in a message */
    ferry_pack_stage failed_at;
} ferry_pack_report;

/* A new archive at out_path of every file under `folder` (subfolders too;
 * names starting with '.' left out, and out_path itself; each folder
 * entered once, links to folders after the folders themselves), or of
 * options->files: as the games' tools write one. MEG: names as
 * ferry_meg_name_from_path stores them, the layout of
 * ferry_meg_pack_tables. PBO: names as the paths are ('\' between
 * folders), each file's time its timestamp, the layout of
 * ferry_pbo_pack_tables and the SHA-1 trailer. Written a piece at a time
 * (ferry_file_writer: the tables, then each file appended from the disk,
 * the SHA-1 computed as the bytes pass), so memory does not grow with the
 * files' bytes; atomically. Files that cannot be packed are named in
 * messages and left out (the call still succeeds: report->refused); a
 * file that changes size while it is packed stops the pack, the output
 * as it was. */
FERRY_API ferry_result ferry_archive_pack(const char *out_path, const char *folder, const ferry_pack_options *options,
                                          ferry_pack_report *report, ferry_error *err);

/* ---- places ----
 *
 * The folders and archives a job looks files up in (textures, a model's
 * folder and the one above it, convert -r's input), each opened once per
 * path and wrapped in ferry_file_source_cached, so that a batch of
 * thousands of models lists each folder once. Thread-safe: the pool has
 * its own lock, and every place it gives may be used from several threads
 * at once (a folder source opens what each call reads; an archive's source
 * only reads its tables and bytes; the cache lists under its own lock).
 * Places live until the pool is freed. */
typedef struct ferry_places ferry_places;

typedef struct ferry_place {
    const char *path;                /* as given */
    const ferry_file_source *source; /* cached; labelled with `path` */
    const ferry_archive *archive;    /* NULL: a folder */
    /* The engine path the archive's entries are mounted at
     * (ferry_archive_prefix: a PBO's), NULL otherwise: how an ODOL model's
     * textures are found in it (ferry_odol_root). */
    const char *prefix;
} ferry_place;

typedef enum ferry_place_kind {
    FERRY_PLACE_NONE = 0, /* neither a folder nor an archive ferry reads */
    FERRY_PLACE_FOLDER,
    FERRY_PLACE_ARCHIVE /* a file whose content, or else whose extension, is an archive format's */
} ferry_place_kind;

FERRY_API ferry_places *ferry_places_new(void); /* NULL: out of memory */
FERRY_API void ferry_places_free(ferry_places *places);
/* A folder or an archive (ferry_places_kind), opened once per path
 * string. NULL with err filled: nothing at the path, neither a folder nor
 * an archive (FERRY_ERR_UNSUPPORTED, "neither a folder nor an archive
 * ferry reads (MEG, PBO)"), an archive that does not read. */
FERRY_API const ferry_place *ferry_places_open(ferry_places *places, const char *path, ferry_error *err);
/* A folder of the disk (any path, even one that is not there yet: its
 * source then finds nothing), opened once per path string. */
FERRY_API const ferry_place *ferry_places_folder(ferry_places *places, const char *path, ferry_error *err);
/* What ferry_places_open would take `path` for, without opening it: a
 * folder, an archive, or neither. FERRY_ERR_IO when the path cannot be
 * looked at (err->message: the system's words, "No such file or
 * directory"). */
FERRY_API ferry_result ferry_places_kind(const char *path, ferry_place_kind *kind, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
