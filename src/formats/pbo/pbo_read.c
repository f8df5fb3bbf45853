/* PBO reader: the entry table (with the product entry and its properties)
 * into one arena; the entries' bytes stay in the caller's buffer. The table
 * is walked twice: once to count its records and properties (every name
 * must end inside the archive), then to copy them. The SHA-1 of the bytes
 * before the trailer is computed here, and compared by the validator. */
#include <ferry/pbo.h>

#include "../../codec/codec.h"
#include "../../core/record.h"
#include "pbo_internal.h"

#include <string.h>

#define locate(r, ...) fy_record_locate(r, __VA_ARGS__)

/* One record's five u32 fields follow its name. */
enum { PBO_FIELDS = 20 };

void ferry_pbo_sha1(const void *data, size_t size, uint8_t digest[FERRY_PBO_SHA1_SIZE]) { fy_sha1(data, size, digest); }

/* A NUL-terminated string at the cursor; a missing NUL is the archive
 * ending inside it (TRUNCATED at the string's start). */
static const char *text(fy_cursor *c, size_t *len, const char *what)
{
    if (c->failed) return NULL;
    const uint8_t *start = c->base + c->pos;
    const uint8_t *nul = memchr(start, 0, c->end - c->pos);
    if (!nul) {
        fy_fail_at(c, c->pos, FERRY_ERR_TRUNCATED, "%s has no terminating NUL: the archive ends %zu bytes after it starts",
                   what, c->end - c->pos);
        return NULL;
    }
    *len = (size_t)(nul - start);
    c->pos += *len + 1;
    return (const char *)start;
}

/* The record at the cursor: name and fields; `copy` keeps the name. */
static bool read_record(fy_record_reader *r, ferry_pbo_entry *e, bool copy)
{
    fy_cursor *c = &r->c;
    e->offset = c->pos;
    const char *name = text(c, &e->name_length, "the name");
    if (!name) return false;
    e->method = fy_u32le(c, "packing method");
    e->original_size = fy_u32le(c, "original size");
    e->reserved = fy_u32le(c, "reserved");
    e->timestamp = fy_u32le(c, "timestamp");
    e->size = fy_u32le(c, "data size");
    if (c->failed) return false;
    if (copy) {
        char *n = fy_record_alloc(r, (uint64_t)e->name_length + 1, 1);
        if (!n) return false;
        memcpy(n, name, e->name_length);
        e->name = n;
    }
    return true;
}

/* The product entry's key/value pairs up to the empty key. Counts them
 * (props NULL) or copies them. */
static bool read_properties(fy_record_reader *r, ferry_pbo_property *props, size_t *count)
{
    fy_cursor *c = &r->c;
    size_t n = 0;
    for (;;) {
        ferry_pbo_property p = {0};
        p.offset = c->pos;
        const char *key = text(c, &p.key_length, "a property key");
        if (!key) {
            locate(r, "properties[%zu]/key", n);
            return false;
        }
        if (!p.key_length) break;
        const char *value = text(c, &p.value_length, "a property value");
        if (!value) {
            locate(r, "properties[%zu]/value", n);
            return false;
        }
        /* The engine reads an encrypted table (and encrypted entries) after
         * an 'encryption' property: what follows is not a table of records. */
        if (fy_pbo_key_eq(key, p.key_length, "encryption", 10) && p.value_length) {
            fy_fail_at(c, p.offset, FERRY_ERR_UNSUPPORTED,
                       "encrypted PBO (property encryption = '%.*s'): ferry reads unencrypted archives only",
                       (int)(p.value_length > 64 ? 64 : p.value_length), value);
            locate(r, "properties[%zu]", n);
            return false;
        }
        if (props) {
            char *k = fy_record_alloc(r, (uint64_t)p.key_length + 1, 1);
            char *v = fy_record_alloc(r, (uint64_t)p.value_length + 1, 1);
            if (!k || !v) return false;
            memcpy(k, key, p.key_length);
            memcpy(v, value, p.value_length);
            p.key = k;
            p.value = v;
            props[n] = p;
        }
        n++;
    }
    *count = n;
    return true;
}

/* Walks the table from the start: the product entry (first record, empty
 * name, method 'Vers') and its properties, the entries, the empty record.
 * With m->entries / m->properties NULL it only counts. */
static bool walk_table(fy_record_reader *r, ferry_pbo *m)
{
    fy_cursor *c = &r->c;
    c->pos = 0;
    bool copy = m->entries != NULL || m->properties != NULL;
    size_t n = 0;
    for (bool first = true;; first = false) {
        ferry_pbo_entry e = {0};
        if (!read_record(r, &e, copy)) {
            if (first)
                locate(r, "entries[0]");
            else
                locate(r, "entries[%zu]", n);
            return false;
        }
        if (e.name_length == 0 && first && e.method == FERRY_PBO_METHOD_VERSION) {
            m->has_product_entry = true;
            m->product = e;
            size_t count = 0;
            if (!read_properties(r, m->properties, &count)) return false;
            m->property_count = count;
            continue;
        }
        if (e.name_length == 0) {
            m->terminator = e;
            break;
        }
        if (m->entries) m->entries[n] = e;
        n++;
    }
    m->entry_count = n;
    return true;
}

ferry_result ferry_pbo_read(const uint8_t *data, size_t size, const ferry_read_options *options, ferry_pbo **out,
                            ferry_error *err)
{
    if (out) *out = NULL;
    if (fy_record_args(data, size, out != NULL, err) != FERRY_OK) return FERRY_ERR_ARGUMENT;
    fy_record_reader r;
    ferry_pbo *m = fy_record_open(&r, data, size, options, size / 4, sizeof *m, err);
    if (!m) return FERRY_ERR_NOMEM;
    m->arena = r.arena;
    m->archive = data;
    m->archive_size = size;
    /* Count, then allocate (every record holds at least 21 bytes, every
     * property 2, so the counts are bounded by the archive's size), then
     * copy. */
    if (walk_table(&r, m)) {
        size_t entries = m->entry_count, props = m->property_count;
        ferry_pbo_entry *ev = fy_record_alloc(&r, entries ? entries : 1, sizeof *ev);
        ferry_pbo_property *pv = fy_record_alloc(&r, props ? props : 1, sizeof *pv);
        if (ev && pv) {
            m->entries = ev;
            m->properties = pv;
            m->has_product_entry = false;
            (void)walk_table(&r, m);
        }
    }
    ferry_result code = fy_record_close(&r);
    if (code != FERRY_OK) return code;
    m->tables_end = r.c.pos;
    uint64_t at = m->tables_end;
    for (size_t i = 0; i < m->entry_count; i++) {
        ferry_pbo_entry *e = &m->entries[i];
        e->start = at;
        if (at + e->size <= size) e->data = data + at;
        at += e->size;
    }
    m->data_end = at;
    if (at < size && size - at >= 1 + FERRY_PBO_SHA1_SIZE && data[at] == 0) {
        m->has_checksum = true;
        memcpy(m->checksum, data + at + 1, FERRY_PBO_SHA1_SIZE);
        ferry_pbo_sha1(data, (size_t)at, m->computed);
    }
    *out = m;
    return FERRY_OK;
}

/* ---- the table from the archive's first bytes ---- */

/* The end of the NUL-terminated text at *pos inside the head (moving *pos
 * past its NUL), or false when the head ends first. */
static bool head_text(const uint8_t *h, size_t have, uint64_t *pos, size_t *length)
{
    const uint8_t *nul = memchr(h + *pos, 0, have - (size_t)*pos);
    if (!nul) return false;
    *length = (size_t)(nul - (h + *pos));
    *pos += *length + 1;
    return true;
}

/* How many bytes from the start ferry_pbo_read needs for the table: walks
 * it as walk_table does, without reading it. At most `have` when the table
 * ends inside the head or the reader can tell from it why it cannot (an
 * encrypted table); more when the head must grow. */
static uint64_t table_need(const uint8_t *h, size_t have, uint64_t whole)
{
    if (have >= whole) return whole;
    uint64_t pos = 0;
    size_t length;
    for (bool first = true;; first = false) {
        if (!head_text(h, have, &pos, &length)) return fy_record_head_grow((uint64_t)have + 1, have, whole);
        if (pos + PBO_FIELDS > have) return fy_record_head_grow(pos + PBO_FIELDS, have, whole);
        uint32_t method = fy_load_u32le(h + pos);
        pos += PBO_FIELDS;
        if (length == 0 && first && method == FERRY_PBO_METHOD_VERSION) {
            for (;;) {
                const char *key = (const char *)h + pos;
                size_t key_length, value_length;
                if (!head_text(h, have, &pos, &key_length)) return fy_record_head_grow((uint64_t)have + 1, have, whole);
                if (!key_length) break;
                if (!head_text(h, have, &pos, &value_length)) return fy_record_head_grow((uint64_t)have + 1, have, whole);
                if (fy_pbo_key_eq(key, key_length, "encryption", 10) && value_length) return have; /* refused */
            }
            continue;
        }
        if (length == 0) return pos;
    }
}

ferry_result ferry_pbo_read_head(const uint8_t *head, size_t head_size, uint64_t archive_size,
                                 const ferry_read_options *options, uint64_t *need, ferry_pbo **out, ferry_error *err)
{
    if (out) *out = NULL;
    if (fy_record_head_args(head, head_size, archive_size, out != NULL, need != NULL, err) != FERRY_OK)
        return FERRY_ERR_ARGUMENT;
    *need = table_need(head, head_size, archive_size);
    if (*need > head_size) return FERRY_OK;
    ferry_result r = ferry_pbo_read(head, head_size, options, out, err);
    if (r == FERRY_OK) *need = (*out)->tables_end;
    return r;
}

void ferry_pbo_free(ferry_pbo *pbo)
{
    if (pbo && pbo->arena) ferry_arena_destroy(pbo->arena);
}

const char *ferry_pbo_property_value(const ferry_pbo *pbo, const char *key)
{
    if (!pbo || !key) return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < pbo->property_count; i++) {
        const ferry_pbo_property *p = &pbo->properties[i];
        if (fy_pbo_key_eq(p->key, p->key_length, key, n)) return p->value;
    }
    return NULL;
}

const char *ferry_pbo_strip_prefix(const ferry_pbo *pbo, const char *path)
{
    const char *prefix = ferry_pbo_property_value(pbo, "prefix");
    if (!prefix || !path) return NULL;
    size_t n = strlen(prefix);
    while (n && (prefix[n - 1] == '\\' || prefix[n - 1] == '/')) n--; /* a trailing separator, as some packers write */
    if (!n) return NULL;
    size_t i = 0;
    while (path[i] == '\\' || path[i] == '/') i++; /* the engine's paths may start with one */
    for (size_t k = 0; k < n; k++, i++)
        if (!path[i] || fy_pbo_name_char(path[i]) != fy_pbo_name_char(prefix[k])) return NULL;
    if (path[i] != '\\' && path[i] != '/') return NULL;
    return path + i + 1;
}
