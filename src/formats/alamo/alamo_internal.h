/* Shared by the Alamo readers and writers (models now; animations and
 * particle systems reuse it): typed access to mini-chunk lists and the
 * layout bookkeeping that makes writing exact. Not a public header. */
#ifndef FERRY_ALAMO_INTERNAL_H
#define FERRY_ALAMO_INTERNAL_H

#include <ferry/alo.h>

#include "../../core/core.h"

/* ---- mini-chunk field tables ----
 * A mini-chunk list (e.g. a proxy connection) is described by a table of
 * fields: mini-chunk type, value kind, where the value lives in a struct.
 * One generic reader and one generic writer serve every such chunk. */
typedef enum fy_mini_kind {
    FY_MINI_U32,
    FY_MINI_F32,
    FY_MINI_F32X3,
    FY_MINI_F32X4,
    FY_MINI_STRING, /* NUL-terminated; stored as const char * */
    FY_MINI_U8,
    FY_MINI_U16,
    FY_MINI_F32X2
} fy_mini_kind;

typedef struct fy_mini_field {
    uint8_t type;
    uint8_t kind;  /* fy_mini_kind */
    bool required; /* absent on reading is an error; always written */
    size_t offset; /* of the value in the struct */
    const char *what;
} fy_mini_field;

/* Reader state shared by every Alamo typed reader. */
typedef struct fy_alamo_reader {
    ferry_arena *arena;
    ferry_error *err;
    bool failed;
    /* Bytes after a string's NUL, collected while reading (malloc'd list,
     * copied into the arena at the end). */
    ferry_string_tail *tails;
    size_t tail_count, tail_capacity;
    /* Mini-chunk records made so far, and the most allowed for this input
     * (fy_alamo_budget_minis). */
    size_t mini_records, mini_budget;
} fy_alamo_reader;

/* The mini-chunk at *pos of a chunk whose mini-chunks were checked by
 * ferry_alamo_mini_chunks_parse (counting only); *pos moves past it. Readers walk
 * mini-chunks this way instead of holding a record for each. */
static inline ferry_mini_chunk fy_mini_next(const ferry_chunk *chunk, size_t *pos)
{
    ferry_mini_chunk m;
    m.type = chunk->data[*pos];
    m.size = chunk->data[*pos + 1];
    m.data = chunk->data + *pos + 2;
    m.offset = chunk->offset + 8 + *pos;
    *pos += 2 + (size_t)m.size;
    return m;
}

/* Checks `count` more mini-chunk records of `chunk` against the reader's
 * budget before they are allocated; fails the reader (a located LIMIT
 * error) when they would pass it. */
bool fy_alamo_budget_minis(fy_alamo_reader *r, const ferry_chunk *chunk, size_t count);

void fy_alamo_fail(fy_alamo_reader *r, ferry_result code, const ferry_chunk *chunk, uint64_t offset,
                   const char *fmt, ...) FY_PRINTF(5, 6);
void *fy_alamo_alloc(fy_alamo_reader *r, const ferry_chunk *chunk, size_t size);
void *fy_alamo_alloc_array(fy_alamo_reader *r, const ferry_chunk *chunk, size_t count, size_t elem_size);
/* Copies `size` bytes into the arena (not zeroed first: they are overwritten). */
void *fy_alamo_copy(fy_alamo_reader *r, const ferry_chunk *chunk, const void *data, size_t size);
/* Uninitialised space for `count` elements, for arrays filled at once. */
void *fy_alamo_alloc_fill(fy_alamo_reader *r, const ferry_chunk *chunk, size_t count, size_t elem_size);

/* Requires `chunk` to be data (or a container when `container`). */
bool fy_alamo_expect_kind(fy_alamo_reader *r, const ferry_chunk *chunk, bool container);

/* Copies a string chunk; the body must hold a NUL. Bytes after it become a tail. */
const char *fy_alamo_read_string(fy_alamo_reader *r, const ferry_chunk *chunk);

/* Starts a container's layout (child order); unknown children are added
 * with fy_alamo_keep_unknown. */
bool fy_alamo_layout_begin(fy_alamo_reader *r, const ferry_chunk *container, ferry_chunk_layout *layout);
bool fy_alamo_keep_unknown(fy_alamo_reader *r, const ferry_chunk *child, ferry_chunk_layout *layout);

/* Reads a mini-chunk list into `base` per `fields`. `present` (may be NULL)
 * gets bit t set for each known type t seen. */
bool fy_alamo_read_minis(fy_alamo_reader *r, const ferry_chunk *chunk, const fy_mini_field *fields,
                         size_t field_count, void *base, uint32_t *present, ferry_mini_layout *layout,
                         const char *what);

/* The part every typed Alamo reader shares: the chunk tree, a new arena
 * whose first allocation is the typed object (object_size bytes, zeroed,
 * owned by the caller through the arena pointer `read` stores in it), the
 * reader state, and the clean-up on failure. `block_size` hints the arena's
 * block size. On success *out is the object. */
typedef bool (*fy_alamo_read_fn)(fy_alamo_reader *r, const ferry_chunk_tree *tree, void *object);
ferry_result fy_alamo_load(const uint8_t *data, size_t size, const ferry_read_options *options, size_t object_size,
                           size_t block_size, fy_alamo_read_fn read, void **out, ferry_error *err);

/* Moves collected string tails into the arena. */
bool fy_alamo_finish_tails(fy_alamo_reader *r, const ferry_string_tail **out, size_t *count);
void fy_alamo_reader_release(fy_alamo_reader *r);

/* ---- writing ---- */

typedef struct fy_alamo_writer {
    ferry_buffer *out;
    ferry_error *err;
    bool failed;
    const ferry_string_tail *tails;
    size_t tail_count;
} fy_alamo_writer;

void fy_alamo_wfail(fy_alamo_writer *w, const char *fmt, ...) FY_PRINTF(2, 3);
size_t fy_alamo_begin_chunk(fy_alamo_writer *w, uint32_t type);
void fy_alamo_end_chunk(fy_alamo_writer *w, size_t header, bool container);
void fy_alamo_write_raw_chunk(fy_alamo_writer *w, const ferry_raw_chunk *raw);
/* The tail kept for this exact string, if any. */
const ferry_blob *fy_alamo_string_tail(const fy_alamo_writer *w, const char *text);
void fy_alamo_write_string_chunk(fy_alamo_writer *w, uint32_t type, const char *text);
/* Writes `extra` if its data is set, else `canonical_zeros` zero bytes. */
void fy_alamo_write_extra(fy_alamo_writer *w, const ferry_blob *extra, size_t canonical_zeros);
void fy_alamo_write_minis(fy_alamo_writer *w, const fy_mini_field *fields, size_t field_count,
                          const void *base, uint32_t present, const ferry_mini_layout *layout);

/* Walking a layout: the next unknown chunk is written when its type comes up. */
typedef struct fy_layout_walk {
    const ferry_chunk_layout *layout;
    size_t next_unknown;
} fy_layout_walk;

/* Writes the next unknown chunk if it has this type; false otherwise. */
bool fy_layout_take_unknown(fy_alamo_writer *w, fy_layout_walk *walk, uint32_t type);
/* Writes every unknown chunk not written yet. */
void fy_layout_flush_unknown(fy_alamo_writer *w, fy_layout_walk *walk);

/* Mini-chunk lists whose types go past 31 (the particle emitter properties;
 * tables of at most 64 fields). As fy_alamo_read_minis / fy_alamo_write_minis,
 * except: every field is optional, presence is kept per type (bit t of
 * present[t / 64]; the writer writes a field exactly when its bit is set),
 * and a known type of the wrong size is kept verbatim as an unknown
 * mini-chunk (its field stays absent) instead of failing the load, since
 * such lists are open-ended and real files already disagree with the spec
 * on one size. */
bool fy_alamo_read_minis_wide(fy_alamo_reader *r, const ferry_chunk *chunk, const fy_mini_field *fields,
                              size_t field_count, void *base, uint64_t present[4], ferry_mini_layout *layout);
void fy_alamo_write_minis_wide(fy_alamo_writer *w, const fy_mini_field *fields, size_t field_count,
                               const void *base, const uint64_t present[4], const ferry_mini_layout *layout);

#endif
