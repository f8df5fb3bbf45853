/* ferry: binarized ("rapified", "\0raP") configs: reader and writer.
 * docs/formats/config.md describes the layout and the decisions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

typedef struct rap_reader {
    fy_cursor c;
    ferry_config *cfg;
    const uint8_t *data;
    size_t size;
    char path[96];        /* the class being read, for errors (the cursor's path) */
    size_t budget;        /* entries still allowed: bounds the work of bodies shared by several classes */
    size_t expected_next; /* where the next body starts in a depth-first layout */
    bool nomem;
} rap_reader;

static void set_path(rap_reader *r, const ferry_config_class *cls)
{
    fy_cfg_class_path(cls, r->path, sizeof r->path);
}

static void *rap_alloc(rap_reader *r, size_t count, size_t size)
{
    if (r->c.failed || !count) return NULL;
    void *p = count <= SIZE_MAX / size ? ferry_arena_alloc(r->cfg->arena, count * size) : NULL;
    if (!p) {
        r->nomem = true;
        fy_fail_at(&r->c, r->c.pos, FERRY_ERR_LIMIT, "the memory limit (%zu bytes) is reached reading %zu items",
                   ferry_arena_limit(r->cfg->arena), count);
    }
    return p;
}

static const char *rap_string(rap_reader *r, const char *what)
{
    size_t len = 0;
    const char *s = fy_cstring(&r->c, &len, what);
    if (!s) return NULL;
    if (!len) return ""; /* empty names and strings are common: one shared "" */
    char *copy = rap_alloc(r, len + 1, 1);
    if (!copy) return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

/* A compressed integer: 7 bits a byte, low bits first, the top bit set on
 * every byte but the last; at most 5 bytes (a u32). A longer encoding than
 * needed reads, but does not rewrite byte for byte. */
static uint32_t rap_count(rap_reader *r, const char *what)
{
    size_t at = r->c.pos;
    uint64_t v = 0;
    for (int i = 0; i < 5; i++) {
        uint8_t b = fy_u8(&r->c, what);
        if (r->c.failed) return 0;
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            if (v > 0xFFFFFFFFu) break;
            size_t used = r->c.pos - at, need = 1;
            for (uint64_t t = v >> 7; t; t >>= 7) need++;
            if (used != need) r->cfg->canonical = false;
            return (uint32_t)v;
        }
    }
    fy_fail_at(&r->c, at, FERRY_ERR_MALFORMED, "%s: a compressed integer longer than 5 bytes or above 2^32-1", what);
    return 0;
}

static bool read_array(rap_reader *r, ferry_config_value *v, int depth);

static bool read_scalar(rap_reader *r, uint8_t type, ferry_config_value *v, int depth, const char *what)
{
    v->type = type;
    switch (type) {
    case FERRY_CONFIG_STRING:
    case FERRY_CONFIG_EXPRESSION: v->string = rap_string(r, what); break;
    case FERRY_CONFIG_FLOAT: v->f = fy_f32le(&r->c, what); break;
    case FERRY_CONFIG_INT: v->i = (int32_t)fy_u32le(&r->c, what); break;
    case FERRY_CONFIG_INT64: {
        const uint8_t *p = fy_bytes(&r->c, 8, what);
        if (p) v->i = (int64_t)fy_load_u64le(p);
        break;
    }
    default:
        if (type == FERRY_CONFIG_ARRAY && depth >= 0) return read_array(r, v, depth);
        fy_fail_at(&r->c, r->c.pos - 1, FERRY_ERR_MALFORMED,
                   "unknown %s type %u (expected 0 string, 1 float, 2 int, %s4 expression or 6 int64)", what, type,
                   depth >= 0 ? "3 array, " : "");
        return false;
    }
    return !r->c.failed;
}

static bool read_array(rap_reader *r, ferry_config_value *v, int depth)
{
    v->type = FERRY_CONFIG_ARRAY;
    if (depth >= FERRY_CONFIG_MAX_DEPTH) {
        fy_fail_at(&r->c, r->c.pos, FERRY_ERR_LIMIT, "arrays nested more than %d deep", FERRY_CONFIG_MAX_DEPTH);
        return false;
    }
    size_t at = r->c.pos;
    uint32_t n = rap_count(r, "an array's compressed item count");
    if (r->c.failed) return false;
    /* every item is at least 2 bytes (its type and a NUL or a count) */
    if (n > fy_remaining(&r->c) / 2) {
        fy_fail_at(&r->c, at, FERRY_ERR_TRUNCATED, "an array of %u items needs at least %llu bytes, only %zu remain", n,
                   (unsigned long long)n * 2, fy_remaining(&r->c));
        return false;
    }
    if (n > r->budget) {
        fy_fail_at(&r->c, at, FERRY_ERR_LIMIT, "more items than the file's size allows (bodies shared by classes?)");
        return false;
    }
    r->budget -= n;
    v->count = n;
    v->items = rap_alloc(r, n, sizeof *v->items);
    for (uint32_t i = 0; i < n && !r->c.failed; i++) {
        uint8_t type = fy_u8(&r->c, "an array item's type");
        if (r->c.failed) break;
        read_scalar(r, type, &v->items[i], depth + 1, "array item");
    }
    return !r->c.failed;
}

static bool read_body(rap_reader *r, ferry_config_class *cls, size_t offset, int depth)
{
    set_path(r, cls);
    if (depth > FERRY_CONFIG_MAX_DEPTH) {
        fy_fail_at(&r->c, offset, FERRY_ERR_LIMIT, "classes nested more than %d deep", FERRY_CONFIG_MAX_DEPTH);
        return false;
    }
    if (offset < 16 || offset >= r->size) {
        fy_fail_at(&r->c, r->c.pos, FERRY_ERR_MALFORMED, "class body offset 0x%zx is outside the file (16..0x%zx)",
                   offset, r->size);
        return false;
    }
    if (offset != r->expected_next) r->cfg->canonical = false;
    r->cfg->class_count++;
    r->c.pos = offset;
    cls->body_offset = offset;
    cls->parent = rap_string(r, "the base class name");
    size_t at = r->c.pos;
    uint32_t n = rap_count(r, "the class's compressed entry count");
    if (r->c.failed) return false;
    if (n > fy_remaining(&r->c) / 2) {
        fy_fail_at(&r->c, at, FERRY_ERR_TRUNCATED, "%u entries need at least %llu bytes, only %zu remain", n,
                   (unsigned long long)n * 2, fy_remaining(&r->c));
        return false;
    }
    if (n > r->budget) {
        fy_fail_at(&r->c, at, FERRY_ERR_LIMIT, "more entries than the file's size allows (bodies shared by classes?)");
        return false;
    }
    r->budget -= n;
    cls->entry_count = n;
    cls->entries = rap_alloc(r, n, sizeof *cls->entries);
    for (uint32_t i = 0; i < n && !r->c.failed; i++) {
        ferry_config_entry *e = &cls->entries[i];
        e->offset = r->c.pos;
        e->kind = fy_u8(&r->c, "an entry's type");
        if (r->c.failed) break;
        switch (e->kind) {
        case FERRY_CONFIG_CLASS: {
            e->name = rap_string(r, "a class name");
            uint32_t body = fy_u32le(&r->c, "a class's body offset");
            if (r->c.failed) break;
            e->cls = rap_alloc(r, 1, sizeof *e->cls);
            if (!e->cls) break;
            e->cls->name = e->name;
            e->cls->owner = cls;
            e->cls->body_offset = body; /* read below, after this body's entries */
            break;
        }
        case FERRY_CONFIG_VALUE: {
            uint8_t type = fy_u8(&r->c, "a value's type");
            e->name = rap_string(r, "a value's name");
            if (!r->c.failed) read_scalar(r, type, &e->value, -1, "value");
            break;
        }
        case FERRY_CONFIG_ARRAY_APPEND:
            e->append_flags = fy_u32le(&r->c, "an array append's u32 flags");
            /* fall through */
        case FERRY_CONFIG_ARRAY_ENTRY:
            e->name = rap_string(r, "an array's name");
            if (!r->c.failed) read_array(r, &e->value, 0);
            break;
        case FERRY_CONFIG_EXTERNAL:
        case FERRY_CONFIG_DELETE: e->name = rap_string(r, "a class name"); break;
        default:
            fy_fail_at(&r->c, e->offset, FERRY_ERR_MALFORMED,
                       "entry %u: unknown entry type %u (expected 0 class, 1 value, 2 array, 3 external class, 4 "
                       "delete, 5 array append)",
                       i, e->kind);
            break;
        }
    }
    cls->end_field = fy_u32le(&r->c, "the u32 offset that ends a class body");
    if (r->c.failed) return false;
    r->expected_next = r->c.pos;
    for (uint32_t i = 0; i < n; i++) {
        ferry_config_entry *e = &cls->entries[i];
        if (e->kind != FERRY_CONFIG_CLASS) continue;
        r->c.pos = e->offset; /* errors about the offset point at its entry */
        if (!read_body(r, e->cls, (size_t)e->cls->body_offset, depth + 1)) return false;
        set_path(r, cls);
    }
    if (cls->end_field != r->expected_next) r->cfg->canonical = false;
    return true;
}

ferry_result fy_cfg_read_rap(ferry_config *cfg, const uint8_t *data, size_t size, ferry_error *err)
{
    rap_reader r = {.cfg = cfg, .data = data, .size = size, .budget = size};
    r.c = fy_cursor_make(data, 0, size, err, r.path);
    snprintf(r.path, sizeof r.path, "header");
    cfg->binarized = true;
    cfg->canonical = true;
    const uint8_t *sig = fy_bytes(&r.c, 4, "the signature \"\\0raP\"");
    if (sig && memcmp(sig, "\0raP", 4) != 0) fy_fail_at(&r.c, 0, FERRY_ERR_MALFORMED, "not a raP file: no \"\\0raP\"");
    for (int i = 0; i < 3; i++) cfg->header[i] = fy_u32le(&r.c, "the header's u32 fields");
    if (r.c.failed) return err->code;
    r.expected_next = 16;
    if (!read_body(&r, &cfg->root, 16, 0)) return err->code ? err->code : FERRY_ERR_MALFORMED;

    snprintf(r.path, sizeof r.path, "enums");
    size_t enum_at = cfg->header[2];
    if (enum_at != r.expected_next) cfg->canonical = false;
    if (enum_at < 16 || enum_at > size) {
        fy_fail_at(&r.c, 12, FERRY_ERR_MALFORMED, "the enum table offset 0x%zx is outside the file (16..0x%zx)",
                   enum_at, size);
        return err->code;
    }
    r.c.pos = enum_at;
    uint32_t n = fy_u32le(&r.c, "the u32 enum count");
    if (!r.c.failed && n > fy_remaining(&r.c) / 5) {
        fy_fail_at(&r.c, enum_at, FERRY_ERR_TRUNCATED, "%u enums need at least %llu bytes, only %zu remain", n,
                   (unsigned long long)n * 5, fy_remaining(&r.c));
        return err->code;
    }
    cfg->enum_count = n;
    cfg->enums = rap_alloc(&r, n, sizeof *cfg->enums);
    for (uint32_t i = 0; i < n && !r.c.failed; i++) {
        cfg->enums[i].name = rap_string(&r, "an enum's name");
        cfg->enums[i].value = (int32_t)fy_u32le(&r.c, "an enum's u32 value");
    }
    if (r.c.failed) return err->code ? err->code : FERRY_ERR_MALFORMED;
    cfg->trailer_size = size - r.c.pos;
    if (cfg->trailer_size) {
        cfg->trailer = ferry_arena_memdup(cfg->arena, data + r.c.pos, cfg->trailer_size);
        if (!cfg->trailer) {
            fy_fail_at(&r.c, r.c.pos, FERRY_ERR_LIMIT, "the memory limit is reached keeping the trailing bytes");
            return err->code;
        }
    }
    return FERRY_OK;
}

/* ---- writer ---- */

static void put_count(ferry_buffer *b, uint32_t v)
{
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        fy_buf_u8(b, byte | (v ? 0x80 : 0));
    } while (v);
}

static void put_string(ferry_buffer *b, const char *s)
{
    if (!s) s = "";
    fy_buf_append(b, s, strlen(s) + 1);
}

static void put_scalar(ferry_buffer *b, const ferry_config_value *v);

static void put_array(ferry_buffer *b, const ferry_config_value *v)
{
    put_count(b, (uint32_t)v->count);
    for (size_t i = 0; i < v->count; i++) {
        fy_buf_u8(b, v->items[i].type);
        put_scalar(b, &v->items[i]);
    }
}

static void put_scalar(ferry_buffer *b, const ferry_config_value *v)
{
    switch (v->type) {
    case FERRY_CONFIG_STRING:
    case FERRY_CONFIG_EXPRESSION: put_string(b, v->string); break;
    case FERRY_CONFIG_FLOAT: fy_buf_f32le(b, v->f); break;
    case FERRY_CONFIG_INT: fy_buf_u32le(b, (uint32_t)(int32_t)v->i); break;
    case FERRY_CONFIG_INT64:
        fy_buf_u32le(b, (uint32_t)(uint64_t)v->i);
        fy_buf_u32le(b, (uint32_t)((uint64_t)v->i >> 32));
        break;
    case FERRY_CONFIG_ARRAY: put_array(b, v); break;
    default: break;
    }
}

static bool write_body(ferry_buffer *b, const ferry_config_class *cls, ferry_error *err)
{
    put_string(b, cls->parent);
    put_count(b, (uint32_t)cls->entry_count);
    size_t *slots = NULL;
    size_t nclass = 0;
    for (size_t i = 0; i < cls->entry_count; i++)
        if (cls->entries[i].kind == FERRY_CONFIG_CLASS) nclass++;
    if (nclass && !(slots = malloc(nclass * sizeof *slots))) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the config");
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < cls->entry_count; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        fy_buf_u8(b, e->kind);
        switch (e->kind) {
        case FERRY_CONFIG_CLASS:
            put_string(b, e->name);
            slots[k++] = b->size;
            fy_buf_u32le(b, 0);
            break;
        case FERRY_CONFIG_VALUE:
            fy_buf_u8(b, e->value.type);
            put_string(b, e->name);
            put_scalar(b, &e->value);
            break;
        case FERRY_CONFIG_ARRAY_APPEND: fy_buf_u32le(b, e->append_flags); /* fall through */
        case FERRY_CONFIG_ARRAY_ENTRY:
            put_string(b, e->name);
            put_array(b, &e->value);
            break;
        default: put_string(b, e->name); break;
        }
    }
    size_t end_slot = b->size;
    fy_buf_u32le(b, 0);
    k = 0;
    bool ok = true;
    for (size_t i = 0; i < cls->entry_count && ok; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        if (e->kind != FERRY_CONFIG_CLASS) continue;
        if (b->failed) break;
        fy_buf_put_u32le_at(b, slots[k++], (uint32_t)b->size);
        if (e->cls) {
            ok = write_body(b, e->cls, err);
        } else { /* a class without a body: an empty one */
            put_string(b, "");
            put_count(b, 0);
            fy_buf_u32le(b, (uint32_t)(b->size + 4));
        }
    }
    free(slots);
    if (ok && !b->failed) fy_buf_put_u32le_at(b, end_slot, (uint32_t)b->size);
    return ok;
}

ferry_result ferry_config_write(const ferry_config *cfg, ferry_buffer *out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!cfg || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_config_write: NULL config or out");
        return FERRY_ERR_ARGUMENT;
    }
    size_t base = out->size;
    /* offsets are from the start of the file: write it into a buffer of its own */
    ferry_buffer b = {0};
    fy_buf_append(&b, "\0raP", 4);
    fy_buf_u32le(&b, cfg->binarized ? cfg->header[0] : 0);
    fy_buf_u32le(&b, cfg->binarized ? cfg->header[1] : 8);
    fy_buf_u32le(&b, 0);
    if (!write_body(&b, &cfg->root, err)) {
        ferry_buffer_free(&b);
        out->size = base;
        return err->code;
    }
    if (b.size > 0xFFFFFFFFu) {
        ferry_buffer_free(&b);
        out->size = base;
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "the config is larger than 4 GiB");
        return FERRY_ERR_LIMIT;
    }
    fy_buf_put_u32le_at(&b, 12, (uint32_t)b.size);
    fy_buf_u32le(&b, (uint32_t)cfg->enum_count);
    for (size_t i = 0; i < cfg->enum_count; i++) {
        put_string(&b, cfg->enums[i].name);
        fy_buf_u32le(&b, (uint32_t)cfg->enums[i].value);
    }
    if (cfg->trailer_size) fy_buf_append(&b, cfg->trailer, cfg->trailer_size);
    out->size = base;
    if (!b.failed) fy_buf_append(out, b.data, b.size);
    ferry_buffer_free(&b);
    if (b.failed || out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the config");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}
