/* ferry: read, validate, write and convert classic game engine 3D assets.
 *
 * This header holds what every format shares: result codes, the located
 * error value, the allocation arena, byte buffers and file input/output.
 * The library never prints, never exits and never reads the environment;
 * every function takes what it needs explicitly. There is no global mutable
 * state, so separate loads may run on separate threads at once.
 */
#ifndef FERRY_FERRY_H
#define FERRY_FERRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ferry/export.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FERRY_VERSION_MAJOR 0
#define FERRY_VERSION_MINOR 1
#define FERRY_VERSION_PATCH 0
#define FERRY_VERSION_STRING "0.1.0"

/* The version of the library loaded ("0.1.0"): the FERRY_VERSION_STRING it
 * was built with, which CMake checks against its project version. A program
 * loading libferry at run time (the Python package, through ctypes) asks
 * this rather than trusting the header it was written against. */
FERRY_API const char *ferry_version(void);

typedef enum ferry_result {
    FERRY_OK = 0,
    FERRY_ERR_TRUNCATED,   /* the data ends before something it announces */
    FERRY_ERR_MALFORMED,   /* the bytes break a rule of the format */
    FERRY_ERR_UNSUPPORTED, /* a recognised variant this version cannot handle */
    FERRY_ERR_LIMIT,       /* a caller-set limit (memory, depth) was reached */
    FERRY_ERR_NOMEM,       /* the system allocator failed */
    FERRY_ERR_IO,          /* a file could not be read or written */
    FERRY_ERR_ARGUMENT     /* the caller passed something unusable */
} ferry_result;

/* Offset value meaning "no position in the input applies". */
#define FERRY_NO_OFFSET UINT64_MAX

/* A failure, located: byte offset into the input, the chunk path leading to
 * the place (e.g. "0x400/0x10000/0x10007"; empty when not inside a chunk),
 * and a plain sentence saying what was expected. */
typedef struct ferry_error {
    ferry_result code;
    uint64_t offset;
    char path[96];
    char message[256];
} ferry_error;

/* Short fixed name of a result code ("truncated", "malformed", ...). */
FERRY_API const char *ferry_result_name(ferry_result code);

/* Formats the error as one line: "offset 0x1a2 (418), chunk 0x400/0x401: message". */
FERRY_API void ferry_error_format(const ferry_error *err, char *out, size_t out_size);

/* ---- Arena: one load is one arena, freed with one call. ---- */

typedef struct ferry_arena ferry_arena;

/* limit_bytes: the most the arena may hold in total; 0 means no limit. */
FERRY_API ferry_arena *ferry_arena_create(size_t limit_bytes);
FERRY_API void ferry_arena_destroy(ferry_arena *arena);
/* Zero-filled, aligned for any type. NULL when the limit or the allocator refuses. */
FERRY_API void *ferry_arena_alloc(ferry_arena *arena, size_t size);
/* Copies of caller data, owned by the arena. */
FERRY_API void *ferry_arena_memdup(ferry_arena *arena, const void *data, size_t size);
FERRY_API char *ferry_arena_strdup(ferry_arena *arena, const char *text);
FERRY_API size_t ferry_arena_used(const ferry_arena *arena);
/* The limit given at creation (0: none). */
FERRY_API size_t ferry_arena_limit(const ferry_arena *arena);

/* ---- Options shared by every reader. ---- */

/* The most any load allocates by default, whatever the input's size: two
 * loads at once (inputs up to 2 GiB, a reader's temporary tree and its model
 * each within the cap) stay under 24 GB. */
#define FERRY_DEFAULT_MEMORY_CAP ((size_t)4 << 30)

typedef struct ferry_read_options {
    /* Most bytes the load may allocate (the reader's temporary structures
     * and the model each); 0 selects the default: 16 times the input size
     * plus 1 MiB (a load never needs more), at most FERRY_DEFAULT_MEMORY_CAP.
     * A value set here is used as given, above the cap too. */
    size_t memory_limit;
} ferry_read_options;

/* ---- Growable byte buffer: what writers produce. ---- */

typedef struct ferry_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
    bool failed; /* set once an allocation failed; later appends do nothing */
} ferry_buffer;

FERRY_API void ferry_buffer_free(ferry_buffer *buf);
/* Appends `size` bytes to the buffer, growing it (a zeroed buffer starts
 * empty): for a front end that fills one itself, as a writer's callback
 * does. False, with `failed` set and nothing appended, when it cannot
 * grow, and for every call after that. */
FERRY_API bool ferry_buffer_append(ferry_buffer *buf, const void *data, size_t size);

/* ---- Files. ----
 * Paths are UTF-8 on every system. On Windows '/' and '\' both separate,
 * drive letters, UNC names and paths over 260 characters work, and a path
 * that is not valid UTF-8 is refused (docs/platform.md). */

/* Reads a whole file into memory (malloc'd; release with ferry_file_free).
 * max_size: refuse larger files (0: no limit). */
FERRY_API ferry_result ferry_file_load(const char *path, size_t max_size, uint8_t **data, size_t *size,
                                       ferry_error *err);
FERRY_API void ferry_file_free(uint8_t *data);

/* Only regular files are read: a FIFO, a device, a socket or a folder is
 * refused (FERRY_ERR_IO, naming its kind) without being opened for long or
 * read, so neither function ever blocks on one. */

/* The first bytes of a file (up to `capacity`; *got may be less for a short
 * file) and its size, without reading the rest: to tell a format by its
 * header before loading the whole file. file_size may be NULL. */
FERRY_API ferry_result ferry_file_read_head(const char *path, void *buf, size_t capacity, size_t *got, uint64_t *file_size,
                                            ferry_error *err);

typedef struct ferry_write_options {
    const char *protect_input; /* never write over this file (NULL: none) */
    /* Skip flushing the file to the disk before the rename. The rename
     * stays atomic for every reader; only a system crash right after may
     * lose the new file. For batches of new, reproducible outputs, where a
     * flush per file costs more than the rest of the work. */
    bool no_sync;
} ferry_write_options;

/* Writes atomically: a temporary file beside the target, flushed, then
 * renamed over it (on Windows MoveFileExW; a target another program holds
 * open is "in use by another program"). The temporary is named TARGET.ferry-tmp-PID-XXXXXX (PID:
 * the writing process, XXXXXX: six letters or digits), removed on failure.
 * Refuses when the target is the same file as options->protect_input.
 * NULL options: flush, protect nothing. */
FERRY_API ferry_result ferry_file_write(const char *path, const void *data, size_t size, const ferry_write_options *options,
                                        ferry_error *err);

/* An atomic write in pieces, for outputs too large to hold in memory (an
 * archive being packed): the same temporary, protection and flush as
 * ferry_file_write, the rename only at commit. Any failure leaves the
 * target as it was. */
typedef struct ferry_file_writer ferry_file_writer;
FERRY_API ferry_result ferry_file_writer_open(const char *path, const ferry_write_options *options,
                                              ferry_file_writer **out, ferry_error *err);
FERRY_API ferry_result ferry_file_writer_write(ferry_file_writer *w, const void *data, size_t size, ferry_error *err);
/* Appends exactly `size` bytes: the whole of the regular file at `path`
 * (in the kernel where it can: copy_file_range). A file whose size is not
 * `size` (it changed since it was measured) is FERRY_ERR_IO, naming it. */
FERRY_API ferry_result ferry_file_writer_append_file(ferry_file_writer *w, const char *path, uint64_t size,
                                                     ferry_error *err);
/* Bytes written so far. */
FERRY_API uint64_t ferry_file_writer_size(const ferry_file_writer *w);
/* Flushes, renames over the target and frees `w` (on failure the temporary
 * is removed). ferry_file_writer_abort removes it and frees `w`; both take
 * NULL. After a failed write or append only abort (or commit, which then
 * fails) is left. */
FERRY_API ferry_result ferry_file_writer_commit(ferry_file_writer *w, ferry_error *err);
FERRY_API void ferry_file_writer_abort(ferry_file_writer *w);

/* A file mapped into memory read-only (mmap; MapViewOfFile), so that a large archive is
 * never read whole: only the pages used are read, and the system may drop
 * them again. Where a file cannot be mapped (a file system without mmap)
 * it is read whole instead (`mapped` false). Only regular files, as
 * ferry_file_load; max_size 0 means no limit. The bytes must not be
 * written. A file cut short by another program while mapped can make a
 * read of its lost tail fail (SIGBUS; Windows refuses to cut a mapped
 * file short): map only files not written during the read. */
typedef struct ferry_file_mapping {
    const uint8_t *data;
    size_t size;
    bool mapped;
    void *base; /* internal: what ferry_file_unmap releases */
} ferry_file_mapping;
FERRY_API ferry_result ferry_file_map(const char *path, size_t max_size, ferry_file_mapping *map, ferry_error *err);
/* Tells the system the bytes [offset, offset + size) will not be read again
 * soon: the pages holding them leave the process's resident memory (read
 * again from the file if they are used after all; the bytes never change).
 * Nothing for a file read whole. */
FERRY_API void ferry_file_map_drop(const ferry_file_mapping *map, uint64_t offset, uint64_t size);
FERRY_API void ferry_file_unmap(ferry_file_mapping *map);

/* Removes from `dir` (not its sub-folders) the temporaries a killed writer
 * left: files named as above whose process no longer runs on this machine,
 * owned by the current user; links and anything else are left alone (so a
 * writer running now, even another process, never loses its temporary).
 * *removed (may be NULL) gets the count. */
FERRY_API ferry_result ferry_file_remove_stale_temporaries(const char *dir, size_t *removed, ferry_error *err);

/* ---- File sources: where the library finds files it was not given as bytes. ----
 *
 * Textures beside a model, a model's animations, a .gltf's buffers and
 * images: the library never opens a path for them. It asks a file source,
 * a small table of callbacks with a user pointer that the caller fills (as
 * cgltf's and ufbx's file callbacks). A folder on the disk is one
 * (ferry_file_source_folder); an archive, or files held in memory, are
 * others: listing a folder and loading a file by its path is all a source
 * must do.
 *
 * Paths inside a source are relative and use '/' ("Textures/ROCK.DDS";
 * "" is the root). A path that is absolute, holds a backslash or a "." or
 * ".." component, or an empty one ("a//b"), is refused (FERRY_ERR_ARGUMENT)
 * before any callback runs: a source never serves anything outside its root.
 * A source matches names exactly; lookups that ignore case as the games do
 * (texture names) list the folder and compare (ferry_file_source_find). */

typedef enum ferry_entry_kind { FERRY_ENTRY_FILE = 0, FERRY_ENTRY_FOLDER = 1 } ferry_entry_kind;

/* Called once per entry of a listed folder (its name, no path); returning
 * false stops the listing (the list call then still returns FERRY_OK). */
typedef bool (*ferry_entry_fn)(void *ctx, const char *name, ferry_entry_kind kind);

typedef struct ferry_file_source {
    /* Loads the file at `path` into memory: sets *data (released with
     * `release`) and *size. A file larger than max_size (0: no limit) is
     * FERRY_ERR_LIMIT, a missing one FERRY_ERR_IO. */
    ferry_result (*load)(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                         ferry_error *err);
    /* Gives back what load returned (NULL: the data needs no release). */
    void (*release)(void *user, uint8_t *data, size_t size);
    /* Lists the folder at `path` ("": the root), files and folders only,
     * in the source's own order. A missing folder is FERRY_ERR_IO. NULL:
     * the source cannot list (lookups by name then find nothing). */
    ferry_result (*list)(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err);
    /* Releases the source's state (ferry_file_source_close; may be NULL). */
    void (*close)(void *user);
    void *user;
    /* How messages name the root ("mods/Data/Art/Textures"); a file is
     * shown as label/path. NULL or "": paths are shown as they are. */
    const char *label;
    /* Where the file at `path` is on the disk, for a source of the disk's
     * own files (a folder): writes its absolute path to out (UTF-8, NUL
     * ended) and returns true. NULL: the source has no such paths (an
     * archive's entries); false for a file it cannot name or a path that
     * does not fit. */
    bool (*disk_path)(void *user, const char *path, char *out, size_t out_size);
} ferry_file_source;

/* A folder of the disk as a source, rooted at `root` (any path; its files
 * are read with ferry_file_load's rules: regular files only, links inside
 * the root followed; its listing gives every entry that is not a folder as
 * a file, so that a FIFO or device found by name is refused naming its kind
 * when loaded, not reported missing). Fills *source; release with
 * ferry_file_source_close. */
FERRY_API ferry_result ferry_file_source_folder(const char *root, ferry_file_source *source, ferry_error *err);
/* Calls the source's close callback and clears the struct. */
FERRY_API void ferry_file_source_close(ferry_file_source *source);

/* True when `path` may be asked of a source (see above; "" is the root). */
FERRY_API bool ferry_file_source_path_ok(const char *path);

/* source->load after checking the path (err names the file by the label). */
FERRY_API ferry_result ferry_file_source_load(const ferry_file_source *source, const char *path, size_t max_size,
                                    uint8_t **data, size_t *size, ferry_error *err);
FERRY_API void ferry_file_source_release(const ferry_file_source *source, uint8_t *data, size_t size);
/* source->list after checking the path. */
FERRY_API ferry_result ferry_file_source_list(const ferry_file_source *source, const char *path, ferry_entry_fn entry,
                                    void *ctx, ferry_error *err);

/* Finds in `folder` ("": the root) the entry of that kind named `name`,
 * ignoring ASCII case (the first one listed when several differ only by
 * case); writes its path in the source ("folder/Name") to out. False when
 * there is none, the folder cannot be listed or out is too small. */
FERRY_API bool ferry_file_source_find(const ferry_file_source *source, const char *folder, const char *name,
                            ferry_entry_kind kind, char *out, size_t out_size);

/* A source that lists each folder of `inner` once: the first listing of a
 * path (its entries, or its failure) is kept and replayed to every later
 * list call; loads and releases go to `inner` unchanged. For lookups that
 * list the same folders over and over (a batch's textures and animations:
 * each texture of each model lists the model's folder). The source may be
 * used from several threads at once when inner's load may: the wrapper
 * lists through `inner` under its own lock, one listing at a time, and
 * replays without it. A folder changed after it was listed is not seen.
 * `inner` must outlive the source; release with ferry_file_source_close
 * (which does not close `inner`). */
FERRY_API ferry_result ferry_file_source_cached(const ferry_file_source *inner, ferry_file_source *source,
                                                ferry_error *err);

/* The folder holding the file at `path` as a folder source
 * (ferry_file_source_folder of the text before the last separator: "."
 * when there is none, the root for "/x"), for the files a file names
 * beside it: a .gltf's buffers and images, a model's animations. *name
 * (may be NULL) gets the file's name in that source (a pointer into
 * `path`). Close with ferry_file_source_close. */
FERRY_API ferry_result ferry_file_source_folder_of(const char *path, ferry_file_source *source, const char **name,
                                                   ferry_error *err);

/* source->disk_path after checking the path: the file's absolute path on
 * the disk into out; false when the source cannot say (an archive's entry,
 * a missing file, a path longer than out_size). For consumers that can
 * refer to a file where it lies instead of being given its bytes. */
FERRY_API bool ferry_file_source_disk_path(const ferry_file_source *source, const char *path, char *out,
                                           size_t out_size);

/* "label/path" (or "path" without a label), cut to fit out. */
FERRY_API void ferry_file_source_display(const ferry_file_source *source, const char *path, char *out, size_t out_size);

/* ---- Paths: what is at a path, what a folder holds. ----
 *
 * For front ends that walk folders themselves (the CLI's validate -r):
 * the library's platform layer, so that they take the same paths as every
 * other function (UTF-8; on Windows '/' or '\\', drives, UNC and paths
 * over 260 characters, docs/platform.md). */

typedef enum ferry_path_kind {
    FERRY_PATH_MISSING = 0, /* nothing at the path (or a folder on it is missing) */
    FERRY_PATH_FILE,        /* a regular file */
    FERRY_PATH_FOLDER,
    FERRY_PATH_LINK,        /* a symbolic link (or Windows junction), when links are not followed */
    FERRY_PATH_OTHER        /* a FIFO, a device, a socket */
} ferry_path_kind;

typedef struct ferry_path_info {
    ferry_path_kind kind;
    uint64_t size;
    int64_t modified; /* seconds since 1970-01-01 UTC */
    /* The file's identity: two paths name one file when has_id is true for
     * both and the three numbers are equal (device and inode; on Windows
     * the volume serial number and the 128-bit file id). */
    uint64_t id[3];
    bool has_id;
} ferry_path_info;

/* What is at `path`, links followed or not. A missing path is FERRY_OK
 * with kind FERRY_PATH_MISSING; another failure (a folder on the way that
 * cannot be searched) is FERRY_ERR_IO: "cannot look at PATH: WORDS". */
FERRY_API ferry_result ferry_path_stat(const char *path, bool follow_links, ferry_path_info *info, ferry_error *err);

/* Calls `entry` for each entry of the folder at `path` ("." and ".." left
 * out), in the system's order: FERRY_ENTRY_FOLDER for a folder (links
 * followed), FERRY_ENTRY_FILE for anything else. A folder that cannot be
 * read, or stops being readable part way, is FERRY_ERR_IO with the message
 * "cannot read the folder PATH: WORDS" (WORDS: the system's). */
FERRY_API ferry_result ferry_folder_list(const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err);

/* The regular file at `path` below `folder`, found as a program that hands
 * a folder's files out must find it (ferry view's server: a request names
 * one): `path` a source path (ferry_file_source_path_ok; not "") none of
 * whose names starts with '.' (hidden, as ferry_folder_walk leaves them
 * out), and the file it names, links resolved, inside `folder` (resolved
 * too: a link leading out is refused) and a regular file. FERRY_OK with
 * the file's resolved path in `resolved`; FERRY_ERR_ARGUMENT for a path
 * refused or a file outside the folder, FERRY_ERR_IO for one missing, not
 * regular or that cannot be resolved, FERRY_ERR_LIMIT when `resolved` is
 * too small. */
FERRY_API ferry_result ferry_folder_resolve(const char *folder, const char *path, char *resolved, size_t resolved_size,
                                            ferry_error *err);

/* ---- Diagnostics: what validation reports. ---- */

typedef enum ferry_severity { FERRY_SEVERITY_ERROR = 0, FERRY_SEVERITY_WARNING = 1 } ferry_severity;

typedef struct ferry_diagnostic {
    ferry_severity severity;
    uint64_t offset;   /* FERRY_NO_OFFSET when the place has no byte position */
    char path[96];     /* chunk path, as in ferry_error */
    char rule[32];     /* short stable identifier, e.g. "bone-parent-order" */
    char message[256];
} ferry_diagnostic;

typedef struct ferry_diagnostics {
    ferry_diagnostic *items; /* malloc'd; release with ferry_diagnostics_free */
    size_t count;
    size_t capacity;
    size_t error_count;
    size_t warning_count;
    size_t dropped; /* reports beyond max_items, counted but not kept */
    size_t max_items; /* 0: default of 1000 */
} ferry_diagnostics;

FERRY_API void ferry_diagnostics_free(ferry_diagnostics *diags);
/* A diagnostic as the line ferry validate prints after "FILE: error: " (or
 * "warning: "): "[offset 0x.. (..), ][chunk 0x..|at PLACE: ]MESSAGE
 * [RULE]" ("chunk" before an Alamo chunk path, "at" before a record's),
 * cut to fit out: what ferry_error_format is for an error. */
FERRY_API void ferry_diagnostic_format(const ferry_diagnostic *d, char *out, size_t out_size);

/* ---- Messages and progress: what a job says as it goes. ----
 *
 * The library never prints. A job that works through many files (extract,
 * pack, convert -r) or does several things (authoring a model with its
 * animations and textures, drawing the particle systems on a model's
 * proxies) says what it meets through a callback the caller gives: one
 * call per message, in the order met, from the thread that called the job;
 * and sums up in a report struct the caller prints. Errors that end a job
 * are sent too, and the job's ferry_error repeats the one that ended it
 * (for callers without a callback). */

typedef enum ferry_message_kind {
    FERRY_MESSAGE_ERROR = 0, /* something was not done (a file not written, an entry refused) */
    FERRY_MESSAGE_WARNING,   /* done, but not as asked or not as usual */
    FERRY_MESSAGE_NOTE       /* for information */
} ferry_message_kind;

typedef struct ferry_message {
    ferry_message_kind kind;
    /* How the file it is about is named (a path, ARCHIVE:ENTRY); NULL when
     * it is about the job itself. */
    const char *file;
    /* One sentence, without the file's name and without a final newline
     * ("entries[3] 'a.txt' not extracted: its name is an absolute path");
     * a diagnostic's text ends with its rule in brackets, as ferry validate
     * prints it. */
    const char *text;
    /* A short stable identifier of what happened ("entry-name",
     * "folder-unreadable"), the header of the job lists them; may be NULL. */
    const char *rule;
    /* When the message is a located error (a read or a write that
     * failed): that error (`text` is then its ferry_error_format line);
     * else NULL. */
    const ferry_error *error;
} ferry_message;

/* Called once per message, on the thread that runs the job; the message
 * and its strings live only during the call. */
typedef void (*ferry_message_fn)(void *user, const ferry_message *message);

/* Messages kept for later, in the order they came (a job's messages held
 * back to be printed after its summary, or with its item): each message
 * copied, its strings and error too. Zero-initialise; not locked: one list
 * per thread. */
typedef struct ferry_message_list {
    ferry_message *items;
    size_t count, capacity;
} ferry_message_list;

/* A ferry_message_fn (user: the ferry_message_list) appending a copy of
 * `message` (a NULL text kept as ""); out of memory, the message is left
 * out. */
FERRY_API void ferry_message_list_add(void *list, const ferry_message *message);
/* Frees every message kept and clears the list. */
FERRY_API void ferry_message_list_free(ferry_message_list *list);

/* The messages of every job that walks a folder (pack, convert -r,
 * validate -r), `file` the folder: one reached a second time (NOTE, text
 * "the same folder as F, already visited (a link loop or a second link to
 * it)"; not walked again), one that cannot be read (ERROR, text the
 * system's words; a failure of the job). */
#define FERRY_WALK_FOLDER_REVISITED "folder-revisited"
#define FERRY_WALK_FOLDER_UNREADABLE "folder-unreadable"

/* A file of a folder tree walked by ferry_folder_walk (anything but a
 * folder): `path` is ROOT/REL, `rel` its path below the root ('/' between
 * folders); `regular` whether it is a regular file (links followed);
 * `error` 0, or the system's code when it could not be looked at (a
 * dangling link). Nothing is opened by the walk. */
typedef void (*ferry_walk_fn)(void *user, const char *path, const char *rel, bool regular, int error);

typedef struct ferry_walk_options {
    ferry_walk_fn file; /* each file (may be NULL) */
    void *file_user;
    ferry_message_fn message; /* FERRY_WALK_FOLDER_REVISITED, _UNREADABLE (may be NULL) */
    void *user;
} ferry_walk_options;

/* Walks the folder `root` as every job does (pack, convert -r, validate
 * -r): subfolders too, names starting with '.' left out, each folder
 * entered once (a link loop or a second link is said and skipped, a
 * folder's own place before a link to it). FERRY_OK when every folder was
 * read; FERRY_ERR_IO naming the first that could not be (the others are
 * walked all the same); FERRY_ERR_NOMEM. */
FERRY_API ferry_result ferry_folder_walk(const char *root, const ferry_walk_options *options, ferry_error *err);

/* Called as a job goes: first with done 0 (total known: what the job will
 * do), then after each item with its name (done counted up to total). */
typedef void (*ferry_progress_fn)(void *user, size_t done, size_t total, const char *item);

#ifdef __cplusplus
}
#endif

#endif
