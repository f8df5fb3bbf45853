/* Internal: the scaffold of a reader of binary records (formats without a
 * chunk tree: ODOL, ALM, and the next ones): the bounds-checked cursor, the
 * arena the model is read into, the record path errors are named by, and
 * the two checks every count-driven allocation goes through, with one
 * error-code policy. Not a public header. */
#ifndef FERRY_CORE_RECORD_H
#define FERRY_CORE_RECORD_H

#include "core.h"

#define FY_RECORD_PATH_SIZE 96
#define FY_RECORD_DEPTH 8

typedef struct fy_record_reader {
    fy_cursor c;      /* its path is `path`: errors it raises name the current record */
    ferry_arena *arena;
    ferry_error *err; /* never NULL once begun */
    /* The record being read ("lods[3]/selections[2]/vertices"): set as
     * the reader enters records (fy_record_path, push, pop), or named
     * after a failure (fy_record_locate). */
    char path[FY_RECORD_PATH_SIZE];
    size_t depth;
    size_t marks[FY_RECORD_DEPTH]; /* path length before each push */
    bool located; /* the error's path was named: an inner record wins */
    bool nomem;   /* the arena refused an allocation */
    /* The size of the whole input when the reader is given its first bytes
     * only (an archive's tables, read before its data); 0: the input is
     * whole. fy_record_room then counts the bytes that remain in the whole,
     * so that a count is refused with the same words either way. */
    uint64_t whole;
    ferry_error local_err;
} fy_record_reader;

/* Starts reading [data, data + size) into `arena` (the model's); a NULL err
 * becomes one inside the reader. */
void fy_record_begin(fy_record_reader *r, const uint8_t *data, size_t size, ferry_arena *arena, ferry_error *err);

/* For a reader whose model lives in an arena of its own: creates the arena
 * (the read options' memory limit, blocks of `block_size`), begins, and
 * returns the model's `model_size` zeroed bytes in it. NULL when memory
 * runs out (the error set, nothing left to free). */
void *fy_record_open(fy_record_reader *r, const uint8_t *data, size_t size, const ferry_read_options *options,
                     size_t block_size, size_t model_size, ferry_error *err);
/* Ends a read begun with fy_record_open: FERRY_OK, or after a failure the
 * error's code (MALFORMED if none was set) with the arena destroyed. */
ferry_result fy_record_close(fy_record_reader *r);

/* The record the reader is in now (replaces the whole path). */
void fy_record_path(fy_record_reader *r, const char *fmt, ...) FY_PRINTF(2, 3);
/* Enters a record inside the current one ("/" between), and leaves it. */
void fy_record_push(fy_record_reader *r, const char *fmt, ...) FY_PRINTF(2, 3);
void fy_record_pop(fy_record_reader *r);
/* After a failure, names the record it happened in (the error's path),
 * unless a record inside it already has: readers that do not keep the
 * path as they go call this on the way out, innermost first. */
void fy_record_locate(fy_record_reader *r, const char *fmt, ...) FY_PRINTF(2, 3);

/* `count` records of `size` bytes in the arena (zeroed); NULL for none or
 * after a failure. A product that overflows or an arena at its limit is a
 * LIMIT error at the cursor's position. */
void *fy_record_alloc(fy_record_reader *r, uint64_t count, size_t size);

/* The bytes that remain after the cursor, in the whole input (`whole`)
 * when the reader was given its first bytes only. */
uint64_t fy_record_remaining(const fy_record_reader *r);

/* The arguments every reader checks first: clears err; FERRY_ERR_ARGUMENT
 * ("no out pointer", "no data") unless there is an out pointer and the
 * bytes are there (NULL only with size 0); for a head reader (need_ok
 * false: no place for *need) and a head larger than the whole too. */
ferry_result fy_record_args(const void *data, size_t size, bool has_out, ferry_error *err);
ferry_result fy_record_head_args(const void *head, size_t head_size, uint64_t whole, bool has_out, bool has_need,
                                 ferry_error *err);

/* For a reader given a file's first `have` bytes (of `whole`) that must
 * ask for more: at least `want` bytes from the start and twice what it has,
 * so that a walk running past the head asks a few times only; at most the
 * whole file. */
uint64_t fy_record_head_grow(uint64_t want, size_t have, uint64_t whole);

/* A count that sizes records of at least `min_size` bytes each must fit in
 * the bytes that remain; if not, the data would run out: TRUNCATED (the
 * code the cursor gives when it does), at `at` (the count, or where its
 * records begin). `what` names the count ("face count"). */
bool fy_record_room(fy_record_reader *r, size_t at, uint64_t count, size_t min_size, const char *what);

#endif
