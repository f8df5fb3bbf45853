/* Alamo chunked files (.ALO, .ALA): the generic chunk tree.
 *
 * A file is a sequence of chunks: uint32 type, uint32 size (little-endian).
 * Bit 31 of size marks a container whose body is a list of child chunks;
 * otherwise the body is data. Some data chunks hold mini-chunks (uint8 type,
 * uint8 size, data); nothing in the bytes says which, the format decides.
 */
#ifndef FERRY_ALAMO_CHUNK_H
#define FERRY_ALAMO_CHUNK_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FERRY_CHUNK_CONTAINER_BIT 0x80000000u
/* Containers nest at most this deep; deeper input is refused (no real file
 * comes close, and it bounds the reader's recursion). */
#define FERRY_CHUNK_MAX_DEPTH 32

typedef struct ferry_chunk ferry_chunk;
struct ferry_chunk {
    uint32_t type;
    bool is_container;
    uint64_t offset;       /* of the 8-byte header, from the start of the input */
    uint32_t size;         /* body size in bytes (without the container bit) */
    const uint8_t *data;   /* body; points into the caller's input */
    ferry_chunk *children; /* containers: array of child_count */
    size_t child_count;
    const ferry_chunk *parent;
};

typedef struct ferry_chunk_tree {
    ferry_arena *arena;
    const uint8_t *input; /* the caller's bytes, which must outlive the tree */
    size_t input_size;
    ferry_chunk *roots;
    size_t root_count;
} ferry_chunk_tree;

/* Parses the whole input into a chunk tree. Fails with a located error when
 * a header is cut short, a size overruns its parent, bytes are left over
 * that do not form a chunk, or nesting is deeper than FERRY_CHUNK_MAX_DEPTH. */
FERRY_API ferry_result ferry_alamo_chunk_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                        ferry_chunk_tree **out, ferry_error *err);
FERRY_API void ferry_alamo_chunk_free(ferry_chunk_tree *tree);

/* Writes chunks back, recomputing every size from the bodies and children. */
FERRY_API ferry_result ferry_alamo_chunk_write(const ferry_chunk *roots, size_t root_count, ferry_buffer *out,
                                         ferry_error *err);

/* Writes "0x200/0x202/0x203" for a chunk (its ancestors, then itself). */
FERRY_API void ferry_alamo_chunk_path(const ferry_chunk *chunk, char *out, size_t out_size);

/* A mini-chunk inside a data chunk. */
typedef struct ferry_mini_chunk {
    uint8_t type;
    uint8_t size;
    const uint8_t *data;
    uint64_t offset; /* of the 2-byte header */
} ferry_mini_chunk;

/* Splits a data chunk's body into mini-chunks. `items` may be NULL to count
 * only. Fails when a mini-chunk overruns the body. */
FERRY_API ferry_result ferry_alamo_mini_chunks_parse(const ferry_chunk *chunk, ferry_mini_chunk *items, size_t capacity,
                                               size_t *count, ferry_error *err);

/* True when the whole body parses as mini-chunks (a hint for dumping
 * chunks of unknown meaning; the format decides for known ones). */
FERRY_API bool ferry_alamo_mini_chunks_plausible(const ferry_chunk *chunk);

/* ---- What a chunk means, for dumping ---- */

typedef enum ferry_chunk_content {
    FERRY_CONTENT_UNKNOWN = 0, /* not known: show as bytes */
    FERRY_CONTENT_CONTAINER,
    FERRY_CONTENT_MINI_CHUNKS, /* data chunk holding mini-chunks */
    FERRY_CONTENT_STRING,      /* NUL-terminated text */
    FERRY_CONTENT_STRUCT       /* fixed binary layout, decoded by the typed reader */
} ferry_chunk_content;

typedef struct ferry_chunk_info {
    const char *name; /* e.g. "bone name"; NULL when unknown */
    ferry_chunk_content content;
} ferry_chunk_info;

/* Meaning of a chunk in an Alamo file whose first chunk has type `root_type`
 * (0x200 model, 0x900 particles, 0x1000 animation), by its parent's type
 * (0 at the top level) and its own. */
FERRY_API ferry_chunk_info ferry_alamo_chunk_info(uint32_t root_type, const ferry_chunk *chunk);

typedef enum ferry_value_kind {
    FERRY_VALUE_BYTES = 0, /* unknown: show as bytes */
    FERRY_VALUE_STRING,
    FERRY_VALUE_UINT,  /* little-endian unsigned integer(s) */
    FERRY_VALUE_INT,   /* little-endian signed integer(s) */
    FERRY_VALUE_FLOAT, /* little-endian 32-bit float(s) */
    FERRY_VALUE_UINT8,
    FERRY_VALUE_UINT16,
    FERRY_VALUE_INT16
} ferry_value_kind;

/* Name and value kind of a mini-chunk inside `chunk`; NULL when unknown. */
FERRY_API const char *ferry_alamo_mini_name(uint32_t root_type, const ferry_chunk *chunk, uint8_t mini_type,
                                            ferry_value_kind *kind);

/* One-line summary of a data chunk whose layout is known (counts, flags,
 * the first values), e.g. "parent=-1 visible=1 billboard=0"; writes "" when
 * there is nothing to say. Reads only inside the chunk. */
FERRY_API void ferry_alamo_chunk_summary(uint32_t root_type, const ferry_chunk *chunk, char *out, size_t out_size);

/* ---- Keeping what a typed model does not interpret ----
 *
 * Typed models (ALO, ALA, particles) keep, for each container they read, the
 * order its children came in and the children they did not understand, so
 * that writing reproduces the input byte for byte. A writer walks `order`:
 * for each type it writes the next typed item of that type if one is left,
 * otherwise the next unknown chunk if it has that type, otherwise nothing;
 * then it appends whatever `order` did not cover in the canonical order.
 * An empty layout (all zero, as in a model built by hand) therefore writes
 * the canonical form, and removing or adding typed items stays consistent. */

typedef struct ferry_blob {
    const uint8_t *data;
    uint32_t size;
} ferry_blob;

/* A chunk kept verbatim: header fields and body (children included as bytes). */
typedef struct ferry_raw_chunk {
    uint32_t type;
    bool is_container;
    ferry_blob body;
    uint64_t offset; /* where it was read, FERRY_NO_OFFSET if built */
} ferry_raw_chunk;

typedef struct ferry_chunk_layout {
    const uint32_t *order; /* child chunk types in file order */
    size_t order_count;
    const ferry_raw_chunk *unknown; /* children not interpreted, in file order */
    size_t unknown_count;
} ferry_chunk_layout;

typedef struct ferry_raw_mini {
    uint8_t type;
    ferry_blob body; /* size <= 255 */
} ferry_raw_mini;

typedef struct ferry_mini_layout {
    const uint8_t *order; /* mini-chunk types in file order */
    size_t order_count;
    const ferry_raw_mini *unknown;
    size_t unknown_count;
} ferry_mini_layout;

#ifdef __cplusplus
}
#endif

#endif
