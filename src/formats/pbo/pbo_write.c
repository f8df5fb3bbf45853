/* PBO writer (the table from the object's fields, then every byte that
 * followed the table in the archive read), the packer (a fresh archive
 * from files, as the community's packers write one) and an entry's decoded
 * bytes. */
#include <ferry/pbo.h>

#include "../../core/core.h"
#include "../../codec/codec.h"
#include "pbo_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_record(ferry_buffer *out, const char *name, size_t length, const ferry_pbo_entry *e)
{
    if (length) fy_buf_append(out, name, length);
    fy_buf_u8(out, 0);
    fy_buf_u32le(out, e->method);
    fy_buf_u32le(out, e->original_size);
    fy_buf_u32le(out, e->reserved);
    fy_buf_u32le(out, e->timestamp);
    fy_buf_u32le(out, e->size);
}

static ferry_result grown(ferry_buffer *out, ferry_error *err)
{
    if (!out->failed) return FERRY_OK;
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot grow the output buffer");
    return FERRY_ERR_NOMEM;
}

ferry_result ferry_pbo_write_tables(const ferry_pbo *m, ferry_buffer *out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!m || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive or no buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (m->has_product_entry) {
        put_record(out, NULL, 0, &m->product);
        for (size_t i = 0; i < m->property_count; i++) {
            const ferry_pbo_property *p = &m->properties[i];
            fy_buf_append(out, p->key, p->key_length);
            fy_buf_u8(out, 0);
            fy_buf_append(out, p->value, p->value_length);
            fy_buf_u8(out, 0);
        }
        fy_buf_u8(out, 0);
    }
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        if (!e->name_length || memchr(e->name, 0, e->name_length)) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "entries", "entry %zu: a name must be non-empty and hold no NUL", i);
            return FERRY_ERR_ARGUMENT;
        }
        put_record(out, e->name, e->name_length, e);
    }
    put_record(out, NULL, 0, &m->terminator);
    return grown(out, err);
}

ferry_result ferry_pbo_write(const ferry_pbo *m, ferry_buffer *out, ferry_error *err)
{
    ferry_result r = ferry_pbo_write_tables(m, out, err);
    if (r != FERRY_OK) return r;
    if (m->archive && m->tables_end < m->archive_size)
        fy_buf_append(out, m->archive + m->tables_end, m->archive_size - m->tables_end);
    return grown(out, err);
}

ferry_result ferry_pbo_entry_bytes(const ferry_pbo *m, size_t index, size_t max_size, uint8_t **bytes, size_t *size,
                                   ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!m || !bytes || !size || index >= m->entry_count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive, no output or no entry %zu", index);
        return FERRY_ERR_ARGUMENT;
    }
    *bytes = NULL;
    *size = 0;
    const ferry_pbo_entry *e = &m->entries[index];
    if (!e->data) {
        char path[48];
        snprintf(path, sizeof path, "entries[%zu]", index);
        fy_error_set(err, FERRY_ERR_TRUNCATED, e->offset, path,
                     "its %u bytes at %llu lie past the archive's end (%zu bytes)", (unsigned)e->size,
                     (unsigned long long)e->start, m->archive_size);
        return FERRY_ERR_TRUNCATED;
    }
    return ferry_pbo_entry_decode(m, index, e->data, max_size, bytes, size, err);
}

ferry_result ferry_pbo_entry_decode(const ferry_pbo *m, size_t index, const uint8_t *stored, size_t max_size,
                                    uint8_t **bytes, size_t *size, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!m || !bytes || !size || index >= m->entry_count || (!stored && m->entries[index].size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive, no output, no entry %zu or no bytes",
                     index);
        return FERRY_ERR_ARGUMENT;
    }
    *bytes = NULL;
    *size = 0;
    const ferry_pbo_entry *e = &m->entries[index];
    char path[48];
    snprintf(path, sizeof path, "entries[%zu]", index);
    if (e->method != FERRY_PBO_METHOD_NONE && e->method != FERRY_PBO_METHOD_COMPRESSED) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, e->offset + e->name_length + 1, path,
                     "packing method 0x%08X: ferry decodes stored (0) and compressed ('Cprs') entries only",
                     (unsigned)e->method);
        return FERRY_ERR_UNSUPPORTED;
    }
    bool packed = e->method == FERRY_PBO_METHOD_COMPRESSED;
    size_t n = packed ? e->original_size : e->size;
    if (max_size && n > max_size) {
        fy_error_set(err, FERRY_ERR_LIMIT, e->offset, path, "%zu bytes, more than the %zu allowed", n, max_size);
        return FERRY_ERR_LIMIT;
    }
    if (packed && (uint64_t)n > fy_lzss_decoded_bound(e->size)) {
        fy_error_set(err, FERRY_ERR_MALFORMED, e->offset + e->name_length + 5, path,
                     "original size %zu: %u bytes of LZSS cannot decode to more than %llu", n, (unsigned)e->size,
                     (unsigned long long)fy_lzss_decoded_bound(e->size));
        return FERRY_ERR_MALFORMED;
    }
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, path, "cannot allocate %zu bytes", n);
        return FERRY_ERR_NOMEM;
    }
    if (!packed) {
        if (n) memcpy(buf, stored, n);
    } else {
        ferry_error local;
        size_t used = 0;
        ferry_result rc = fy_lzss_decode_sum(stored, e->size, n, buf, &used, FY_LZSS_SUM_UNSIGNED, &local);
        if (rc == FERRY_OK && used != e->size) {
            rc = FERRY_ERR_MALFORMED;
            fy_error_set(&local, FERRY_ERR_MALFORMED, used, NULL,
                         "the LZSS stream and its checksum end after %zu of the %u stored bytes", used,
                         (unsigned)e->size);
        }
        if (rc != FERRY_OK) {
            /* Located in the archive: the stream's offset plus the entry's start. */
            uint64_t off = local.offset == FERRY_NO_OFFSET ? e->start : e->start + local.offset;
            fy_error_set(err, rc, off, path, "compressed entry '%s': %s", e->name, local.message);
            free(buf);
            return rc;
        }
    }
    *bytes = buf;
    *size = n;
    return FERRY_OK;
}

ferry_result ferry_pbo_update_checksum(ferry_buffer *archive, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!archive || (!archive->data && archive->size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_pbo *m = NULL;
    ferry_result rc = ferry_pbo_read(archive->data, archive->size, NULL, &m, err);
    if (rc != FERRY_OK) return rc;
    size_t end = (size_t)m->data_end;
    bool inside = m->data_end <= archive->size, trailer = m->has_checksum;
    ferry_pbo_free(m);
    if (!inside) {
        fy_error_set(err, FERRY_ERR_MALFORMED, archive->size, NULL,
                     "the entries end at %zu, past the archive's %zu bytes: no place for a trailer", end, archive->size);
        return FERRY_ERR_MALFORMED;
    }
    if (!trailer && archive->size != end) {
        fy_error_set(err, FERRY_ERR_MALFORMED, end, "checksum",
                     "%zu bytes after the data are not a 0 byte and a SHA-1: left as they are", archive->size - end);
        return FERRY_ERR_MALFORMED;
    }
    uint8_t digest[FERRY_PBO_SHA1_SIZE];
    ferry_pbo_sha1(archive->data, end, digest);
    archive->size = end;
    fy_buf_u8(archive, 0);
    fy_buf_append(archive, digest, sizeof digest);
    return grown(archive, err);
}

/* ---- packing ---- */

const char *fy_pbo_unsafe_name(const char *name, size_t n)
{
    if (!n) return "the name is empty";
    if (memchr(name, 0, n)) return "the name holds a NUL byte";
    if (n >= 2 && name[1] == ':') return "the name starts with a drive letter";
    if (name[0] == '\\' || name[0] == '/') return "the name is an absolute path";
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && name[i] != '\\' && name[i] != '/') continue;
        size_t len = i - start;
        const char *s = name + start;
        if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
            return "the name has an empty, '.' or '..' segment";
        start = i + 1;
    }
    return NULL;
}

typedef struct pack_sort {
    const ferry_pbo_pack_file *files;
    size_t *lengths;
} pack_sort;

static int pack_cmp(const pack_sort *s, size_t a, size_t b)
{
    int c = fy_pbo_name_cmp(s->files[a].name, s->lengths[a], s->files[b].name, s->lengths[b]);
    if (c) return c;
    return strcmp(s->files[a].name, s->files[b].name);
}

/* A stable merge sort of the indices v[0..n) (scratch tmp[0..n)). */
static void pack_order(size_t *v, size_t *tmp, size_t n, const pack_sort *s)
{
    if (n < 2) return;
    size_t h = n / 2;
    pack_order(v, tmp, h, s);
    pack_order(v + h, tmp, n - h, s);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = pack_cmp(s, v[i], v[j]) <= 0 ? v[i++] : v[j++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

static void put_text(ferry_buffer *out, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    for (size_t i = 0; i < n; i++) fy_buf_u8(out, s[i] == '/' ? '\\' : (uint8_t)s[i]);
    fy_buf_u8(out, 0);
}

/* The table of a new archive (ferry_pbo_pack_tables); with `need_data`
 * each file must also have its bytes (ferry_pbo_pack). */
static ferry_result pack_table(const ferry_pbo_pack_file *files, size_t count, const ferry_pbo_pack_options *options,
                               bool need_data, ferry_buffer *out, size_t *order_out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!out || (count && (!files || !order_out))) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no files, no buffer or no order");
        return FERRY_ERR_ARGUMENT;
    }
    static const ferry_pbo_pack_options none = {0};
    if (!options) options = &none;
    for (size_t i = 0; i < options->property_count; i++) {
        const ferry_pbo_property *p = &options->properties[i];
        if (!p->key || !p->key[0]) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "properties", "property %zu has no key (an empty key ends the list)", i);
            return FERRY_ERR_ARGUMENT;
        }
        size_t n = strlen(p->key);
        bool dup = options->prefix && fy_pbo_key_eq(p->key, n, "prefix", 6);
        for (size_t k = 0; k < i && !dup; k++)
            dup = fy_pbo_key_eq(options->properties[k].key, strlen(options->properties[k].key), p->key, n);
        if (dup) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "properties", "property '%s' is given twice (keys are compared ignoring case)", p->key);
            return FERRY_ERR_ARGUMENT;
        }
    }
    size_t *len = malloc((count ? count : 1) * sizeof *len);
    size_t *order = malloc((count ? count : 1) * 2 * sizeof *order);
    if (!len || !order) {
        free(len), free(order);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate the table");
        return FERRY_ERR_NOMEM;
    }
    ferry_result rc = FERRY_OK;
    for (size_t i = 0; i < count && rc == FERRY_OK; i++) {
        const ferry_pbo_pack_file *f = &files[i];
        len[i] = f->name ? strlen(f->name) : 0;
        order[i] = i;
        const char *why = f->name ? fy_pbo_unsafe_name(f->name, len[i]) : "it has no name";
        if (!why && f->size > UINT32_MAX) why = "it has 4 GiB or more (a PBO stores sizes in 32 bits)";
        if (!why && need_data && f->size && !f->data) why = "it has no bytes";
        if (why) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "file %zu '%s' cannot be packed: %s", i,
                         f->name ? f->name : "", why);
            rc = FERRY_ERR_ARGUMENT;
        }
    }
    pack_sort s = {files, len};
    if (rc == FERRY_OK) {
        pack_order(order, order + count, count, &s);
        for (size_t k = 1; k < count; k++)
            if (fy_pbo_name_cmp(files[order[k - 1]].name, len[order[k - 1]], files[order[k]].name, len[order[k]]) == 0) {
                fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                             "'%s' and '%s' are one name to the engine (case and slashes ignored)",
                             files[order[k - 1]].name, files[order[k]].name);
                rc = FERRY_ERR_ARGUMENT;
                break;
            }
    }
    if (rc != FERRY_OK) {
        free(len), free(order);
        return rc;
    }
    if (options->prefix || options->property_count) {
        ferry_pbo_entry product = {.method = FERRY_PBO_METHOD_VERSION};
        put_record(out, NULL, 0, &product);
        if (options->prefix) {
            put_text(out, "prefix");
            put_text(out, options->prefix);
        }
        for (size_t i = 0; i < options->property_count; i++) {
            const ferry_pbo_property *p = &options->properties[i];
            fy_buf_append(out, p->key, strlen(p->key) + 1);
            fy_buf_append(out, p->value ? p->value : "", (p->value ? strlen(p->value) : 0) + 1);
        }
        fy_buf_u8(out, 0);
    }
    for (size_t k = 0; k < count; k++) {
        const ferry_pbo_pack_file *f = &files[order[k]];
        ferry_pbo_entry e = {.method = FERRY_PBO_METHOD_NONE,
                             .original_size = (uint32_t)f->size,
                             .timestamp = f->timestamp,
                             .size = (uint32_t)f->size};
        for (size_t i = 0; i < len[order[k]]; i++) fy_buf_u8(out, f->name[i] == '/' ? '\\' : (uint8_t)f->name[i]);
        put_record(out, NULL, 0, &e);
    }
    ferry_pbo_entry end = {0};
    put_record(out, NULL, 0, &end);
    if (count) memcpy(order_out, order, count * sizeof *order);
    free(len), free(order);
    return grown(out, err);
}

ferry_result ferry_pbo_pack_tables(const ferry_pbo_pack_file *files, size_t count, const ferry_pbo_pack_options *options,
                                   ferry_buffer *tables, size_t *order, ferry_error *err)
{
    return pack_table(files, count, options, false, tables, order, err);
}

ferry_result ferry_pbo_pack(const ferry_pbo_pack_file *files, size_t count, const ferry_pbo_pack_options *options,
                            ferry_buffer *out, ferry_error *err)
{
    size_t *order = malloc((count ? count : 1) * sizeof *order);
    if (!order) {
        if (err) fy_error_clear(err);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate the table");
        return FERRY_ERR_NOMEM;
    }
    size_t base = out ? out->size : 0;
    ferry_result rc = pack_table(files, count, options, true, out, order, err);
    if (rc == FERRY_OK) {
        for (size_t k = 0; k < count; k++)
            if (files[order[k]].size) fy_buf_append(out, files[order[k]].data, files[order[k]].size);
        rc = grown(out, err);
    }
    free(order);
    if (rc != FERRY_OK) return rc;
    uint8_t digest[FERRY_PBO_SHA1_SIZE];
    ferry_pbo_sha1(out->data + base, out->size - base, digest);
    fy_buf_u8(out, 0);
    fy_buf_append(out, digest, sizeof digest);
    return grown(out, err);
}
