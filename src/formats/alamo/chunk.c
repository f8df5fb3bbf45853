/* Alamo chunk tree: reading, writing, paths and mini-chunks. */
#include <ferry/alamo_chunk.h>

#include "../../core/core.h"

#include <stdio.h>
#include <stdlib.h>

void ferry_alamo_chunk_path(const ferry_chunk *chunk, char *out, size_t out_size)
{
    if (!out || !out_size) return;
    out[0] = '\0';
    const ferry_chunk *chain[FERRY_CHUNK_MAX_DEPTH + 2];
    size_t n = 0;
    for (const ferry_chunk *c = chunk; c && n < sizeof chain / sizeof chain[0]; c = c->parent)
        chain[n++] = c;
    size_t used = 0;
    while (n-- > 0 && used < out_size) {
        int w = snprintf(out + used, out_size - used, "%s0x%x", used ? "/" : "", (unsigned)chain[n]->type);
        if (w < 0) break;
        used += (size_t)w;
    }
}

typedef struct chunk_reader {
    ferry_arena *arena;
    const uint8_t *input;
    ferry_error *err;
    ferry_result result;
    size_t records, record_budget; /* chunk records made so far, and the most allowed */
} chunk_reader;

/* Real files hold one chunk per 27 bytes or more (the smallest ratio of the
 * 1,803 models, particle systems and animations in the corpus); a record costs
 * 56 bytes. One record per 16 input bytes (plus 4,096 for tiny files) keeps
 * the tree within 3.5 x the input, and a file of empty chunks (8 bytes each,
 * 7 x the input in records) is refused after counting, before allocating. */
#define CHUNK_BYTES_PER_RECORD 16
#define CHUNK_RECORD_SLACK 4096

static void fail_in(chunk_reader *r, ferry_result code, uint64_t offset, const ferry_chunk *parent,
                    uint32_t type_or_none, bool has_type, const char *fmt, ...) FY_PRINTF(7, 8);

static void fail_in(chunk_reader *r, ferry_result code, uint64_t offset, const ferry_chunk *parent,
                    uint32_t type_or_none, bool has_type, const char *fmt, ...)
{
    char path[96];
    ferry_alamo_chunk_path(parent, path, sizeof path);
    if (has_type) {
        size_t used = strlen(path);
        snprintf(path + used, sizeof path - used, "%s0x%x", used ? "/" : "", (unsigned)type_or_none);
    }
    va_list ap;
    va_start(ap, fmt);
    fy_error_setv(r->err, code, offset, path, fmt, ap);
    va_end(ap);
    if (r->result == FERRY_OK) r->result = code;
}

/* Counts the chunks in [start, end), checking each header and size. */
static bool count_list(chunk_reader *r, size_t start, size_t end, const ferry_chunk *parent, size_t *count)
{
    size_t pos = start, n = 0;
    while (pos < end) {
        if (end - pos < 8) {
            fail_in(r, FERRY_ERR_TRUNCATED, pos, parent, 0, false,
                    "expected an 8-byte chunk header, only %zu bytes remain%s", end - pos,
                    parent ? " in the parent chunk" : " in the file");
            return false;
        }
        uint32_t type = fy_load_u32le(r->input + pos);
        uint32_t size = fy_load_u32le(r->input + pos + 4) & ~FERRY_CHUNK_CONTAINER_BIT;
        if (size > end - pos - 8) {
            fail_in(r, FERRY_ERR_TRUNCATED, pos, parent, type, true,
                    "chunk 0x%x announces %u body bytes but only %zu remain %s", (unsigned)type,
                    (unsigned)size, end - pos - 8, parent ? "in its parent" : "in the file");
            return false;
        }
        pos += 8 + (size_t)size;
        n++;
    }
    *count = n;
    return true;
}

static bool read_list(chunk_reader *r, size_t start, size_t end, const ferry_chunk *parent, int depth,
                      ferry_chunk **out, size_t *out_count)
{
    size_t n;
    if (!count_list(r, start, end, parent, &n)) return false;
    *out = NULL;
    *out_count = n;
    if (!n) return true;
    if (n > r->record_budget - r->records) {
        fail_in(r, FERRY_ERR_LIMIT, start, parent, 0, false,
                "%zu more chunk records would pass the budget of %zu for a file of this size (one per %d bytes): "
                "not an Alamo file, or a hostile one",
                n, r->record_budget, CHUNK_BYTES_PER_RECORD);
        return false;
    }
    r->records += n;
    ferry_chunk *items = ferry_arena_alloc(r->arena, n * sizeof *items);
    if (!items) {
        fail_in(r, FERRY_ERR_LIMIT, start, parent, 0, false,
                "memory limit reached allocating %zu chunk records", n);
        return false;
    }
    size_t pos = start;
    for (size_t i = 0; i < n; i++) {
        ferry_chunk *c = &items[i];
        uint32_t raw = fy_load_u32le(r->input + pos + 4);
        c->type = fy_load_u32le(r->input + pos);
        c->is_container = (raw & FERRY_CHUNK_CONTAINER_BIT) != 0;
        c->size = raw & ~FERRY_CHUNK_CONTAINER_BIT;
        c->offset = pos;
        c->data = r->input + pos + 8;
        c->parent = parent;
        if (c->is_container) {
            if (depth >= FERRY_CHUNK_MAX_DEPTH) {
                fail_in(r, FERRY_ERR_LIMIT, pos, c, 0, false,
                        "containers nest deeper than %d levels", FERRY_CHUNK_MAX_DEPTH);
                return false;
            }
            if (!read_list(r, pos + 8, pos + 8 + c->size, c, depth + 1, &c->children, &c->child_count))
                return false;
        }
        pos += 8 + (size_t)c->size;
    }
    *out = items;
    return true;
}

ferry_result ferry_alamo_chunk_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                              ferry_chunk_tree **out, ferry_error *err)
{
    fy_error_clear(err);
    *out = NULL;
    if (!data && size) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no input bytes given");
        return FERRY_ERR_ARGUMENT;
    }
    /* Chunk records take about a third of the bytes they describe. */
    ferry_arena *arena = fy_arena_create_sized(fy_default_memory_limit(options, size), size / 4);
    ferry_chunk_tree *tree = arena ? ferry_arena_alloc(arena, sizeof *tree) : NULL;
    if (!tree) {
        /* With an arena, the only refusal is the caller's limit. */
        ferry_result code = arena ? FERRY_ERR_LIMIT : FERRY_ERR_NOMEM;
        ferry_arena_destroy(arena);
        fy_error_set(err, code, 0, NULL, "%s", code == FERRY_ERR_LIMIT ? "memory limit reached before reading began" : "out of memory");
        return code;
    }
    tree->arena = arena;
    tree->input = data;
    tree->input_size = size;
    chunk_reader r = {arena, data, err, FERRY_OK, 0, size / CHUNK_BYTES_PER_RECORD + CHUNK_RECORD_SLACK};
    if (size == 0) {
        fail_in(&r, FERRY_ERR_TRUNCATED, 0, NULL, 0, false, "the file is empty: expected at least one chunk");
    } else {
        read_list(&r, 0, size, NULL, 0, &tree->roots, &tree->root_count);
    }
    if (r.result != FERRY_OK) {
        ferry_arena_destroy(arena);
        return r.result;
    }
    *out = tree;
    return FERRY_OK;
}

void ferry_alamo_chunk_free(ferry_chunk_tree *tree)
{
    if (tree) ferry_arena_destroy(tree->arena);
}

static bool write_list(const ferry_chunk *items, size_t n, ferry_buffer *out, int depth, ferry_error *err)
{
    for (size_t i = 0; i < n; i++) {
        const ferry_chunk *c = &items[i];
        size_t header = out->size;
        fy_buf_u32le(out, c->type);
        fy_buf_u32le(out, 0);
        if (c->is_container) {
            if (depth >= FERRY_CHUNK_MAX_DEPTH) {
                fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "containers nest deeper than %d levels",
                             FERRY_CHUNK_MAX_DEPTH);
                return false;
            }
            if (!write_list(c->children, c->child_count, out, depth + 1, err)) return false;
        } else {
            fy_buf_append(out, c->data, c->size);
        }
        size_t body = out->size - header - 8;
        if (out->failed) break;
        if (body > 0x7FFFFFFFu) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "chunk 0x%x body of %zu bytes exceeds the format's 2 GiB limit", (unsigned)c->type, body);
            return false;
        }
        fy_buf_put_u32le_at(out, header + 4, (uint32_t)body | (c->is_container ? FERRY_CHUNK_CONTAINER_BIT : 0));
    }
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing chunks");
        return false;
    }
    return true;
}

ferry_result ferry_alamo_chunk_write(const ferry_chunk *roots, size_t root_count, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err);
    if (!write_list(roots, root_count, out, 0, err)) return err ? err->code : FERRY_ERR_ARGUMENT;
    return FERRY_OK;
}

ferry_result ferry_alamo_mini_chunks_parse(const ferry_chunk *chunk, ferry_mini_chunk *items, size_t capacity,
                                     size_t *count, ferry_error *err)
{
    fy_error_clear(err);
    *count = 0;
    if (chunk->is_container) {
        char path[96];
        ferry_alamo_chunk_path(chunk, path, sizeof path);
        fy_error_set(err, FERRY_ERR_MALFORMED, chunk->offset, path,
                     "expected a data chunk holding mini-chunks, found a container");
        return FERRY_ERR_MALFORMED;
    }
    size_t pos = 0, n = 0;
    uint64_t body_offset = chunk->offset + 8;
    while (pos < chunk->size) {
        if (chunk->size - pos < 2 || chunk->data[pos + 1] > chunk->size - pos - 2) {
            char path[96];
            ferry_alamo_chunk_path(chunk, path, sizeof path);
            if (chunk->size - pos < 2)
                fy_error_set(err, FERRY_ERR_TRUNCATED, body_offset + pos, path,
                             "expected a 2-byte mini-chunk header, only 1 byte remains in the chunk");
            else
                fy_error_set(err, FERRY_ERR_TRUNCATED, body_offset + pos, path,
                             "mini-chunk 0x%02x announces %u bytes but only %zu remain in the chunk",
                             chunk->data[pos], chunk->data[pos + 1], (size_t)chunk->size - pos - 2);
            return FERRY_ERR_TRUNCATED;
        }
        if (items && n < capacity) {
            items[n].type = chunk->data[pos];
            items[n].size = chunk->data[pos + 1];
            items[n].data = chunk->data + pos + 2;
            items[n].offset = body_offset + pos;
        }
        n++;
        pos += 2 + (size_t)chunk->data[pos + 1];
    }
    *count = n;
    return FERRY_OK;
}

bool ferry_alamo_mini_chunks_plausible(const ferry_chunk *chunk)
{
    if (chunk->is_container || chunk->size == 0) return false;
    size_t n;
    ferry_error err;
    return ferry_alamo_mini_chunks_parse(chunk, NULL, 0, &n, &err) == FERRY_OK;
}
