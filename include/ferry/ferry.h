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

/* ---- Files. ---- */

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
 * renamed over it. The temporary is named TARGET.ferry-tmp-PID-XXXXXX (PID:
 * the writing process, XXXXXX: six letters or digits), removed on failure.
 * Refuses when the target is the same file as options->protect_input.
 * NULL options: flush, protect nothing. */
FERRY_API ferry_result ferry_file_write(const char *path, const void *data, size_t size, const ferry_write_options *options,
                                        ferry_error *err);

/* Removes from `dir` (not its sub-folders) the temporaries a killed writer
 * left: files named as above whose process no longer runs on this machine,
 * owned by the current user; links and anything else are left alone (so a
 * writer running now, even another process, never loses its temporary).
 * *removed (may be NULL) gets the count. */
FERRY_API ferry_result ferry_file_remove_stale_temporaries(const char *dir, size_t *removed, ferry_error *err);

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

#ifdef __cplusplus
}
#endif

#endif
