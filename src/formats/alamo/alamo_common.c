/* Helpers shared by the Alamo typed readers and writers. */
#include "alamo_internal.h"

#include <stdio.h>
#include <stdlib.h>

void fy_alamo_fail(fy_alamo_reader *r, ferry_result code, const ferry_chunk *chunk, uint64_t offset,
                   const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = true;
    char path[96] = "";
    if (chunk) ferry_alamo_chunk_path(chunk, path, sizeof path);
    va_list ap;
    va_start(ap, fmt);
    fy_error_setv(r->err, code, offset, path, fmt, ap);
    va_end(ap);
}

/* Allocations for no particular chunk serve the root list, which starts
 * the file: offset 0 keeps such errors located. */
void *fy_alamo_alloc(fy_alamo_reader *r, const ferry_chunk *chunk, size_t size)
{
    if (r->failed) return NULL;
    void *p = ferry_arena_alloc(r->arena, size);
    if (!p)
        fy_alamo_fail(r, FERRY_ERR_LIMIT, chunk, chunk ? chunk->offset : 0,
                      "memory limit reached allocating %zu bytes", size);
    return p;
}

/* Real files hold one mini-chunk per 10.6 bytes or more over the whole file
 * (the smallest ratio among the corpus's 1,803 Alamo files, animations of
 * the ICW mod). The readers walk mini-chunks without a record each; what a
 * mini-chunk costs is 1 byte (its type in the layout), and 24 more and a copy
 * of its body (16 bytes at least) when its type is unknown and kept raw. One
 * per 6 input bytes (plus 4,096) keeps that within 7 x the input; a chunk of
 * empty mini-chunks (2 bytes each) is refused after counting, before
 * allocating. */
#define MINI_BYTES_PER_RECORD 6
#define MINI_RECORD_SLACK 4096

bool fy_alamo_budget_minis(fy_alamo_reader *r, const ferry_chunk *chunk, size_t count)
{
    if (r->failed) return false;
    if (count > r->mini_budget - r->mini_records) {
        fy_alamo_fail(r, FERRY_ERR_LIMIT, chunk, chunk->offset,
                      "%zu more mini-chunk records would pass the budget of %zu for a file of this size "
                      "(one per %d bytes)",
                      count, r->mini_budget, MINI_BYTES_PER_RECORD);
        return false;
    }
    r->mini_records += count;
    return true;
}

void *fy_alamo_alloc_array(fy_alamo_reader *r, const ferry_chunk *chunk, size_t count, size_t elem_size)
{
    if (elem_size && count > SIZE_MAX / elem_size) {
        fy_alamo_fail(r, FERRY_ERR_LIMIT, chunk, chunk ? chunk->offset : 0,
                      "array of %zu elements is too large", count);
        return NULL;
    }
    return fy_alamo_alloc(r, chunk, count * elem_size);
}

void *fy_alamo_alloc_fill(fy_alamo_reader *r, const ferry_chunk *chunk, size_t count, size_t elem_size)
{
    if (r->failed) return NULL;
    if (!count) count = 1;
    if (elem_size && count > SIZE_MAX / elem_size) {
        fy_alamo_fail(r, FERRY_ERR_LIMIT, chunk, chunk ? chunk->offset : 0,
                      "array of %zu elements is too large", count);
        return NULL;
    }
    void *p = fy_arena_alloc_uninit(r->arena, count * elem_size);
    if (!p)
        fy_alamo_fail(r, FERRY_ERR_LIMIT, chunk, chunk ? chunk->offset : 0,
                      "memory limit reached allocating %zu bytes", count * elem_size);
    return p;
}

void *fy_alamo_copy(fy_alamo_reader *r, const ferry_chunk *chunk, const void *data, size_t size)
{
    void *p = fy_alamo_alloc_fill(r, chunk, size, 1);
    if (p && size) memcpy(p, data, size);
    return p;
}

bool fy_alamo_expect_kind(fy_alamo_reader *r, const ferry_chunk *chunk, bool container)
{
    if (chunk->is_container == container) return true;
    fy_alamo_fail(r, FERRY_ERR_MALFORMED, chunk, chunk->offset,
                  "chunk 0x%x should be a %s, but its size field says %s", (unsigned)chunk->type,
                  container ? "container of chunks" : "data chunk",
                  container ? "data (bit 31 clear)" : "container (bit 31 set)");
    return false;
}

static bool add_tail(fy_alamo_reader *r, const char *text, const uint8_t *tail, size_t size, const ferry_chunk *chunk)
{
    if (r->tail_count == r->tail_capacity) {
        size_t cap = r->tail_capacity ? r->tail_capacity * 2 : 8;
        ferry_string_tail *t = realloc(r->tails, cap * sizeof *t);
        if (!t) {
            fy_alamo_fail(r, FERRY_ERR_NOMEM, chunk, chunk->offset, "out of memory");
            return false;
        }
        r->tails = t;
        r->tail_capacity = cap;
    }
    r->tails[r->tail_count].text = text;
    r->tails[r->tail_count].tail.data = tail;
    r->tails[r->tail_count].tail.size = (uint32_t)size;
    r->tail_count++;
    return true;
}

/* Copies bytes holding a NUL-terminated string; keeps what follows the NUL. */
static const char *copy_string(fy_alamo_reader *r, const ferry_chunk *chunk, const uint8_t *bytes, size_t size,
                               uint64_t offset, const char *what)
{
    const uint8_t *nul = size ? memchr(bytes, 0, size) : NULL;
    if (!nul) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, chunk, offset,
                      "unterminated string for %s: no NUL byte in its %zu bytes", what, size);
        return NULL;
    }
    char *text = fy_alamo_copy(r, chunk, bytes, size);
    if (!text) return NULL;
    size_t len = (size_t)(nul - bytes);
    if (len + 1 < size && !add_tail(r, text, (const uint8_t *)text + len + 1, size - len - 1, chunk)) return NULL;
    return text;
}

const char *fy_alamo_read_string(fy_alamo_reader *r, const ferry_chunk *chunk)
{
    if (!fy_alamo_expect_kind(r, chunk, false)) return NULL;
    return copy_string(r, chunk, chunk->data, chunk->size, chunk->offset + 8, "the name");
}

bool fy_alamo_layout_begin(fy_alamo_reader *r, const ferry_chunk *container, ferry_chunk_layout *layout)
{
    memset(layout, 0, sizeof *layout);
    if (!container->child_count) return true;
    uint32_t *order = fy_alamo_alloc_array(r, container, container->child_count, sizeof *order);
    if (!order) return false;
    for (size_t i = 0; i < container->child_count; i++) order[i] = container->children[i].type;
    layout->order = order;
    layout->order_count = container->child_count;
    return true;
}

bool fy_alamo_keep_unknown(fy_alamo_reader *r, const ferry_chunk *child, ferry_chunk_layout *layout)
{
    /* Capacity is the parent's child count, allocated on first use; the
     * root list has no parent chunk, so its caller allocates it. */
    const ferry_chunk *parent = child->parent;
    size_t capacity = parent ? parent->child_count : SIZE_MAX;
    ferry_raw_chunk *items = (ferry_raw_chunk *)layout->unknown;
    if (!items) {
        items = fy_alamo_alloc_array(r, child, capacity, sizeof *items);
        if (!items) return false;
        layout->unknown = items;
    }
    if (layout->unknown_count >= capacity) return false;
    ferry_raw_chunk *raw = &items[layout->unknown_count++];
    raw->type = child->type;
    raw->is_container = child->is_container;
    raw->offset = child->offset;
    raw->body.size = child->size;
    raw->body.data = fy_alamo_copy(r, child, child->data, child->size);
    if (!raw->body.data) return false;
    return true;
}

static size_t kind_size(uint8_t kind)
{
    switch (kind) {
    case FY_MINI_U8: return 1;
    case FY_MINI_U16: return 2;
    case FY_MINI_U32:
    case FY_MINI_F32: return 4;
    case FY_MINI_F32X2: return 8;
    case FY_MINI_F32X3: return 12;
    case FY_MINI_F32X4: return 16;
    default: return 0; /* strings: variable */
    }
}

static void decode_value(uint8_t kind, const uint8_t *src, void *dst)
{
    switch (kind) {
    case FY_MINI_U8: *(uint8_t *)dst = src[0]; break;
    case FY_MINI_U16: *(uint16_t *)dst = fy_load_u16le(src); break;
    case FY_MINI_U32: *(uint32_t *)dst = fy_load_u32le(src); break;
    default: {
        size_t n = kind_size(kind) / 4;
        float *f = dst;
        for (size_t i = 0; i < n; i++) f[i] = fy_bits_f32(fy_load_u32le(src + 4 * i));
    }
    }
}

/* The start of reading a chunk of mini-chunks: the layout cleared, the
 * chunk's kind checked, its mini-chunks counted within the budget, and
 * the array their order is recorded in; NULL when the read must stop. */
static uint8_t *begin_minis(fy_alamo_reader *r, const ferry_chunk *chunk, ferry_mini_layout *layout, size_t *count)
{
    memset(layout, 0, sizeof *layout);
    if (r->failed || !fy_alamo_expect_kind(r, chunk, false)) return NULL;
    if (ferry_alamo_mini_chunks_parse(chunk, NULL, 0, count, r->err) != FERRY_OK) {
        r->failed = true;
        return NULL;
    }
    if (!fy_alamo_budget_minis(r, chunk, *count)) return NULL;
    return fy_alamo_alloc_array(r, chunk, *count ? *count : 1, 1);
}

/* A mini-chunk no field takes, kept raw in layout's unknown list (made
 * for `count` on the first). */
static bool keep_raw(fy_alamo_reader *r, const ferry_chunk *chunk, ferry_mini_layout *layout, ferry_raw_mini **unknown,
                     size_t count, const ferry_mini_chunk *m)
{
    if (!*unknown && !(*unknown = fy_alamo_alloc_array(r, chunk, count, sizeof **unknown))) return false;
    ferry_raw_mini *raw = &(*unknown)[layout->unknown_count++];
    raw->type = m->type;
    raw->body.size = m->size;
    raw->body.data = fy_alamo_copy(r, chunk, m->data, m->size);
    return raw->body.data != NULL;
}

bool fy_alamo_read_minis(fy_alamo_reader *r, const ferry_chunk *chunk, const fy_mini_field *fields,
                         size_t field_count, void *base, uint32_t *present, ferry_mini_layout *layout,
                         const char *what)
{
    size_t count;
    uint8_t *order = begin_minis(r, chunk, layout, &count);
    if (!order) return false;
    size_t mini_pos = 0;
    uint64_t seen = 0;
    ferry_raw_mini *unknown = NULL;
    for (size_t i = 0; i < count; i++) {
        const ferry_mini_chunk mini = fy_mini_next(chunk, &mini_pos), *m = &mini;
        order[i] = m->type;
        const fy_mini_field *f = NULL;
        for (size_t k = 0; k < field_count; k++)
            if (fields[k].type == m->type && !(seen & (1ull << k))) f = &fields[k];
        if (f) {
            size_t k = (size_t)(f - fields);
            void *dst = (uint8_t *)base + f->offset;
            if (f->kind == FY_MINI_STRING) {
                const char *s = copy_string(r, chunk, m->data, m->size, m->offset + 2, f->what);
                if (!s) return false;
                *(const char **)dst = s;
            } else if (m->size != kind_size(f->kind)) {
                fy_alamo_fail(r, FERRY_ERR_MALFORMED, chunk, m->offset,
                              "mini-chunk 0x%02x (%s) of %s should hold %zu bytes, it holds %u", m->type, f->what,
                              what, kind_size(f->kind), m->size);
                return false;
            } else {
                decode_value(f->kind, m->data, dst);
            }
            seen |= 1ull << k;
            if (present && m->type < 32) *present |= 1u << m->type;
            continue;
        }
        if (!keep_raw(r, chunk, layout, &unknown, count, m)) return false;
    }
    for (size_t k = 0; k < field_count; k++) {
        if (fields[k].required && !(seen & (1ull << k))) {
            fy_alamo_fail(r, FERRY_ERR_MALFORMED, chunk, chunk->offset,
                          "%s lacks mini-chunk 0x%02x (%s)", what, fields[k].type, fields[k].what);
            return false;
        }
    }
    layout->order = order;
    layout->order_count = count;
    layout->unknown = unknown;
    return true;
}

bool fy_alamo_finish_tails(fy_alamo_reader *r, const ferry_string_tail **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (!r->tail_count) return true;
    ferry_string_tail *t = fy_alamo_alloc_array(r, NULL, r->tail_count, sizeof *t);
    if (!t) return false;
    memcpy(t, r->tails, r->tail_count * sizeof *t);
    *out = t;
    *count = r->tail_count;
    return true;
}

void fy_alamo_reader_release(fy_alamo_reader *r)
{
    free(r->tails);
    r->tails = NULL;
    r->tail_count = r->tail_capacity = 0;
}

ferry_result fy_alamo_load(const uint8_t *data, size_t size, const ferry_read_options *options, size_t object_size,
                           size_t block_size, fy_alamo_read_fn read, void **out, ferry_error *err)
{
    *out = NULL;
    ferry_chunk_tree *tree;
    ferry_result rc = ferry_alamo_chunk_read(data, size, options, &tree, err);
    if (rc != FERRY_OK) return rc;
    ferry_arena *arena = fy_arena_create_sized(fy_default_memory_limit(options, size), block_size);
    void *object = arena ? ferry_arena_alloc(arena, object_size) : NULL;
    if (!object) {
        /* With an arena, the only refusal is the caller's limit. */
        ferry_result code = arena ? FERRY_ERR_LIMIT : FERRY_ERR_NOMEM;
        ferry_arena_destroy(arena);
        ferry_alamo_chunk_free(tree);
        fy_error_set(err, code, 0, NULL, "%s",
                     code == FERRY_ERR_LIMIT ? "memory limit reached before reading began" : "out of memory");
        return code;
    }
    fy_alamo_reader r = {arena, err, false, NULL, 0, 0, 0, size / MINI_BYTES_PER_RECORD + MINI_RECORD_SLACK};
    bool ok = read(&r, tree, object);
    fy_alamo_reader_release(&r);
    ferry_alamo_chunk_free(tree);
    if (!ok) {
        ferry_arena_destroy(arena);
        return err->code != FERRY_OK ? err->code : FERRY_ERR_MALFORMED;
    }
    *out = object;
    return FERRY_OK;
}

/* ---- writing ---- */

void fy_alamo_wfail(fy_alamo_writer *w, const char *fmt, ...)
{
    if (w->failed) return;
    w->failed = true;
    va_list ap;
    va_start(ap, fmt);
    fy_error_setv(w->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, fmt, ap);
    va_end(ap);
}

size_t fy_alamo_begin_chunk(fy_alamo_writer *w, uint32_t type)
{
    size_t at = w->out->size;
    fy_buf_u32le(w->out, type);
    fy_buf_u32le(w->out, 0);
    return at;
}

void fy_alamo_end_chunk(fy_alamo_writer *w, size_t header, bool container)
{
    if (w->out->failed) return;
    size_t body = w->out->size - header - 8;
    if (body > 0x7FFFFFFFu) {
        fy_alamo_wfail(w, "a chunk body of %zu bytes exceeds the format's 2 GiB limit", body);
        return;
    }
    fy_buf_put_u32le_at(w->out, header + 4, (uint32_t)body | (container ? FERRY_CHUNK_CONTAINER_BIT : 0));
}

void fy_alamo_write_raw_chunk(fy_alamo_writer *w, const ferry_raw_chunk *raw)
{
    size_t h = fy_alamo_begin_chunk(w, raw->type);
    fy_buf_append(w->out, raw->body.data, raw->body.size);
    fy_alamo_end_chunk(w, h, raw->is_container);
}

const ferry_blob *fy_alamo_string_tail(const fy_alamo_writer *w, const char *text)
{
    for (size_t i = 0; i < w->tail_count; i++)
        if (w->tails[i].text == text) return &w->tails[i].tail;
    return NULL;
}

void fy_alamo_write_string_chunk(fy_alamo_writer *w, uint32_t type, const char *text)
{
    size_t h = fy_alamo_begin_chunk(w, type);
    if (!text) text = "";
    fy_buf_append(w->out, text, strlen(text) + 1);
    const ferry_blob *tail = fy_alamo_string_tail(w, text);
    if (tail) fy_buf_append(w->out, tail->data, tail->size);
    fy_alamo_end_chunk(w, h, false);
}

void fy_alamo_write_extra(fy_alamo_writer *w, const ferry_blob *extra, size_t canonical_zeros)
{
    if (extra->data)
        fy_buf_append(w->out, extra->data, extra->size);
    else
        fy_buf_zeros(w->out, canonical_zeros);
}

static void write_mini_value(fy_alamo_writer *w, const fy_mini_field *f, const void *base)
{
    const void *src = (const uint8_t *)base + f->offset;
    fy_buf_u8(w->out, f->type);
    if (f->kind == FY_MINI_STRING) {
        const char *s = *(const char *const *)src;
        if (!s) s = "";
        const ferry_blob *tail = fy_alamo_string_tail(w, s);
        size_t n = strlen(s) + 1 + (tail ? tail->size : 0);
        if (n > 255) {
            fy_alamo_wfail(w, "the %s \"%.40s...\" is %zu bytes; a mini-chunk holds at most 255", f->what, s, n);
            return;
        }
        fy_buf_u8(w->out, (uint8_t)n);
        fy_buf_append(w->out, s, strlen(s) + 1);
        if (tail) fy_buf_append(w->out, tail->data, tail->size);
        return;
    }
    size_t n = kind_size(f->kind);
    fy_buf_u8(w->out, (uint8_t)n);
    switch (f->kind) {
    case FY_MINI_U8: fy_buf_u8(w->out, *(const uint8_t *)src); break;
    case FY_MINI_U16: fy_buf_u16le(w->out, *(const uint16_t *)src); break;
    case FY_MINI_U32: fy_buf_u32le(w->out, *(const uint32_t *)src); break;
    default:
        for (size_t i = 0; i < n / 4; i++) fy_buf_f32le(w->out, ((const float *)src)[i]);
    }
}

void fy_alamo_write_minis(fy_alamo_writer *w, const fy_mini_field *fields, size_t field_count,
                          const void *base, uint32_t present, const ferry_mini_layout *layout)
{
    uint64_t written = 0;
    size_t next_unknown = 0;
    for (size_t i = 0; i < layout->order_count; i++) {
        uint8_t t = layout->order[i];
        const fy_mini_field *f = NULL;
        for (size_t k = 0; k < field_count && !f; k++)
            if (fields[k].type == t && !(written & (1ull << k))) f = &fields[k];
        if (f && (f->required || (t < 32 && (present & (1u << t))))) {
            write_mini_value(w, f, base);
            written |= 1ull << (f - fields);
        } else if (next_unknown < layout->unknown_count && layout->unknown[next_unknown].type == t) {
            const ferry_raw_mini *raw = &layout->unknown[next_unknown++];
            fy_buf_u8(w->out, raw->type);
            fy_buf_u8(w->out, (uint8_t)raw->body.size);
            fy_buf_append(w->out, raw->body.data, raw->body.size);
        }
    }
    for (size_t k = 0; k < field_count; k++) {
        const fy_mini_field *f = &fields[k];
        if (written & (1ull << k)) continue;
        if (f->required || (f->type < 32 && (present & (1u << f->type)))) write_mini_value(w, f, base);
    }
    for (; next_unknown < layout->unknown_count; next_unknown++) {
        const ferry_raw_mini *raw = &layout->unknown[next_unknown];
        fy_buf_u8(w->out, raw->type);
        fy_buf_u8(w->out, (uint8_t)raw->body.size);
        fy_buf_append(w->out, raw->body.data, raw->body.size);
    }
}

bool fy_layout_take_unknown(fy_alamo_writer *w, fy_layout_walk *walk, uint32_t type)
{
    const ferry_chunk_layout *l = walk->layout;
    if (walk->next_unknown < l->unknown_count && l->unknown[walk->next_unknown].type == type) {
        fy_alamo_write_raw_chunk(w, &l->unknown[walk->next_unknown++]);
        return true;
    }
    return false;
}

void fy_layout_flush_unknown(fy_alamo_writer *w, fy_layout_walk *walk)
{
    const ferry_chunk_layout *l = walk->layout;
    while (walk->next_unknown < l->unknown_count) fy_alamo_write_raw_chunk(w, &l->unknown[walk->next_unknown++]);
}

/* ---- mini-chunk lists with types above 31 (particle emitter properties) ---- */

static bool wide_present(const uint64_t present[4], uint8_t type) { return (present[type >> 6] >> (type & 63)) & 1u; }

/* First field of each type (field_count when none): long lists would
 * otherwise scan the table once per mini-chunk. */
static void wide_index(const fy_mini_field *fields, size_t field_count, uint8_t first[256])
{
    memset(first, (int)field_count, 256);
    for (size_t k = field_count; k-- > 0;) first[fields[k].type] = (uint8_t)k;
}

/* The first field of this type not in `used`: from the index, or past it
 * when a table repeats a type. */
static size_t wide_field(const fy_mini_field *fields, size_t field_count, const uint8_t first[256], uint8_t type,
                         uint64_t used)
{
    size_t k = first[type];
    while (k < field_count && (fields[k].type != type || (used & (1ull << k)))) k++;
    return k;
}

static void write_raw_mini(fy_alamo_writer *w, const ferry_raw_mini *raw)
{
    fy_buf_u8(w->out, raw->type);
    fy_buf_u8(w->out, (uint8_t)raw->body.size);
    fy_buf_append(w->out, raw->body.data, raw->body.size);
}

bool fy_alamo_read_minis_wide(fy_alamo_reader *r, const ferry_chunk *chunk, const fy_mini_field *fields,
                              size_t field_count, void *base, uint64_t present[4], ferry_mini_layout *layout)
{
    size_t count;
    uint8_t *order = begin_minis(r, chunk, layout, &count);
    if (!order) return false;
    size_t mini_pos = 0;
    /* A field is settled by the first mini-chunk of its type, used or not:
     * later ones of that type stay raw, so the writer's walk (first
     * occurrence typed, the rest raw) meets them in the same order. */
    uint64_t settled = 0;
    ferry_raw_mini *unknown = NULL;
    uint8_t first[256];
    wide_index(fields, field_count, first);
    for (size_t i = 0; i < count; i++) {
        const ferry_mini_chunk mini = fy_mini_next(chunk, &mini_pos), *m = &mini;
        order[i] = m->type;
        size_t k = wide_field(fields, field_count, first, m->type, settled);
        if (k < field_count) {
            const fy_mini_field *f = &fields[k];
            void *dst = (uint8_t *)base + f->offset;
            settled |= 1ull << k;
            if (f->kind == FY_MINI_STRING) {
                const char *s = copy_string(r, chunk, m->data, m->size, m->offset + 2, f->what);
                if (!s) return false;
                *(const char **)dst = s;
                present[m->type >> 6] |= 1ull << (m->type & 63);
                continue;
            }
            if (m->size == kind_size(f->kind)) {
                decode_value(f->kind, m->data, dst);
                present[m->type >> 6] |= 1ull << (m->type & 63);
                continue;
            }
            /* A known type of another size: kept as is, its field absent. */
        }
        if (!keep_raw(r, chunk, layout, &unknown, count, m)) return false;
    }
    layout->order = order;
    layout->order_count = count;
    layout->unknown = unknown;
    return true;
}

void fy_alamo_write_minis_wide(fy_alamo_writer *w, const fy_mini_field *fields, size_t field_count,
                               const void *base, const uint64_t present[4], const ferry_mini_layout *layout)
{
    uint64_t written = 0;
    size_t next_unknown = 0;
    uint8_t first[256];
    wide_index(fields, field_count, first);
    for (size_t i = 0; i < layout->order_count; i++) {
        uint8_t t = layout->order[i];
        size_t k = wide_field(fields, field_count, first, t, written);
        if (k < field_count && wide_present(present, t)) {
            write_mini_value(w, &fields[k], base);
            written |= 1ull << k;
        } else if (next_unknown < layout->unknown_count && layout->unknown[next_unknown].type == t) {
            write_raw_mini(w, &layout->unknown[next_unknown++]);
        }
    }
    for (size_t k = 0; k < field_count; k++)
        if (!(written & (1ull << k)) && wide_present(present, fields[k].type)) write_mini_value(w, &fields[k], base);
    while (next_unknown < layout->unknown_count) write_raw_mini(w, &layout->unknown[next_unknown++]);
}
