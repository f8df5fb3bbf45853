/* The archive rows, MEG and PBO: read (the tables; entries point into
 * the input), write (whole, or the tables alone for a rewrite in pieces),
 * validate (the archive; its entries through asset.c), and the info
 * (`ferry info`, `ferry dump`, `ferry list`). */
#include "engine_internal.h"

#include <ferry/meg.h>
#include <ferry/pbo.h>

#include <stdio.h>
#include <string.h>

/* ---- MEG ---- */

FY_DEFINE_READ(meg, ferry_meg, ferry_meg_read)
FY_DEFINE_FREE(meg, ferry_meg_free)
FY_DEFINE_WRITE(meg, ferry_meg_write)
FY_WRITE_TABLES(meg)
{
    *tables_end = ((const ferry_meg *)object)->tables_end;
    return ferry_meg_write_tables(object, out, err);
}
FY_DEFINE_VALIDATE(meg, ferry_meg_validate)
FY_ENTRY_COUNT(meg) { return ((const ferry_meg *)object)->entry_count; }
FY_ENTRY_AT(meg)
{
    const ferry_meg_entry *e = &((const ferry_meg *)object)->entries[index];
    entry->name = e->name;
    entry->name_length = e->name_length;
    entry->stored = e->data; /* NULL when outside the archive: the archive's own error */
    entry->stored_size = e->size;
    entry->decode = false;
    entry->size = e->size;
    entry->start = e->start;
    entry->offset = e->offset;
    entry->compressed = false;
    entry->as_stored = true;
}

FY_DEFINE_READ_HEAD(meg, ferry_meg, ferry_meg_read_head)

static ferry_result meg_source(const void *object, ferry_file_source *source, ferry_error *err)
{
    return ferry_file_source_meg(object, source, err);
}

const fy_archive_row fy_meg_archive = {.record = "files", .read_head = fy_meg_read_head, .source = meg_source};

static uint64_t meg_total_bytes(const ferry_meg *m)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < m->entry_count; i++) t += m->entries[i].size;
    return t;
}

/* {file, format "MEG", version, size}: what info, dump and list share. */
static json_t *meg_json(const fy_info *info, const ferry_meg *m)
{
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("MEG"));
    json_object_set_new(j, "version", json_integer(m->format));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    return j;
}

static json_t *meg_entry_json(const ferry_meg_entry *e, uint32_t i)
{
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer(i));
    if (e->name)
        fy_json_set_text(j, "name", e->name);
    else
        json_object_set_new(j, "name", json_null());
    json_object_set_new(j, "size", json_integer(e->size));
    json_object_set_new(j, "start", json_integer(e->start));
    json_object_set_new(j, "crc", json_integer(e->crc));
    json_object_set_new(j, "stored_index", json_integer(e->index));
    json_object_set_new(j, "name_index", json_integer(e->name_index));
    json_object_set_new(j, "flags", json_integer(e->flags));
    return j;
}

FY_INFO(meg)
{
    (void)err;
    const ferry_meg *m = object;
    json_t *j = meg_json(info, m);
    if (info->detail == FERRY_INFO_SUMMARY) {
        json_object_set_new(j, "names", json_integer(m->name_count));
        json_object_set_new(j, "files", json_integer(m->entry_count));
        json_object_set_new(j, "data_bytes", json_integer((json_int_t)meg_total_bytes(m)));
        return j;
    }
    if (info->detail == FERRY_INFO_FULL) {
        if (m->format >= 2) {
            json_object_set_new(j, "flags", json_integer(m->flags_word));
            json_object_set_new(j, "id", json_integer(m->id));
            json_object_set_new(j, "data_start", json_integer(m->data_start));
        }
        if (m->format == 3) json_object_set_new(j, "name_table_size", json_integer(m->name_table_size));
        json_t *names = json_array();
        json_object_set_new(j, "names", names);
        for (uint32_t i = 0; i < m->name_count; i++)
            fy_json_append_textn(j, "names", names, m->names[i].text, m->names[i].length);
    }
    json_t *files = json_array();
    for (uint32_t i = 0; i < m->entry_count; i++) json_array_append_new(files, meg_entry_json(&m->entries[i], i));
    json_object_set_new(j, "files", files);
    return j;
}

/* ---- PBO ---- */

FY_DEFINE_READ(pbo, ferry_pbo, ferry_pbo_read)
FY_DEFINE_FREE(pbo, ferry_pbo_free)
FY_DEFINE_WRITE(pbo, ferry_pbo_write)
FY_WRITE_TABLES(pbo)
{
    *tables_end = ((const ferry_pbo *)object)->tables_end;
    return ferry_pbo_write_tables(object, out, err);
}
FY_DEFINE_VALIDATE(pbo, ferry_pbo_validate)
FY_ENTRY_COUNT(pbo) { return ((const ferry_pbo *)object)->entry_count; }
FY_ENTRY_AT(pbo)
{
    const ferry_pbo_entry *e = &((const ferry_pbo *)object)->entries[index];
    entry->name = e->name;
    entry->name_length = e->name_length;
    entry->stored = e->data;
    entry->stored_size = e->size;
    /* A stored entry is checked where it lies, a compressed one decoded
     * (one that cannot be had is the archive's own error). */
    entry->decode = e->method != FERRY_PBO_METHOD_NONE || !e->data;
    entry->compressed = e->method == FERRY_PBO_METHOD_COMPRESSED;
    entry->size = entry->compressed ? e->original_size : e->size;
    entry->start = e->start;
    entry->offset = e->offset;
    entry->as_stored = e->method == FERRY_PBO_METHOD_NONE;
}
FY_ENTRY_BYTES(pbo)
{
    return ferry_pbo_entry_bytes(object, index, max_size, bytes, size, err);
}

FY_DEFINE_READ_HEAD(pbo, ferry_pbo, ferry_pbo_read_head)

static ferry_result pbo_source(const void *object, ferry_file_source *source, ferry_error *err)
{
    return ferry_file_source_pbo(object, source, err);
}

static const char *pbo_prefix(const void *object) { return ferry_pbo_property_value(object, "prefix"); }

static ferry_result pbo_decode(const void *object, size_t index, const uint8_t *stored, size_t max_size,
                               uint8_t **bytes, size_t *size, ferry_error *err)
{
    return ferry_pbo_entry_decode(object, index, stored, max_size, bytes, size, err);
}

const fy_archive_row fy_pbo_archive = {.record = "entries", .read_head = fy_pbo_read_head, .source = pbo_source,
                                       .prefix = pbo_prefix, .decode = pbo_decode};

static const char *method_name(uint32_t method)
{
    switch (method) {
    case FERRY_PBO_METHOD_NONE: return "stored";
    case FERRY_PBO_METHOD_COMPRESSED: return "compressed";
    case FERRY_PBO_METHOD_VERSION: return "Vers";
    default: return "unknown";
    }
}

static void sha1_hex(char out[41], const uint8_t *d)
{
    for (int i = 0; i < FERRY_PBO_SHA1_SIZE; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static uint64_t pbo_total_bytes(const ferry_pbo *m, bool original)
{
    uint64_t t = 0;
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        t += original && e->method == FERRY_PBO_METHOD_COMPRESSED ? e->original_size : e->size;
    }
    return t;
}

/* {file, format "PBO", size, product_entry, properties [{key, value}],
 * prefix, data_start, sha1, sha1_ok}: what info, dump and list share;
 * FERRY_INFO_FULL adds each property's offset and the SHA-1 computed. */
static json_t *pbo_json(const fy_info *info, const ferry_pbo *m)
{
    bool full = info->detail == FERRY_INFO_FULL;
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("PBO"));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    json_t *props = json_array();
    for (size_t i = 0; i < m->property_count; i++) {
        const ferry_pbo_property *p = &m->properties[i];
        json_t *o = json_object();
        fy_json_set_text(o, "key", p->key);
        fy_json_set_text(o, "value", p->value);
        if (full) json_object_set_new(o, "offset", json_integer((json_int_t)p->offset));
        json_array_append_new(props, o);
    }
    json_object_set_new(j, "product_entry", json_boolean(m->has_product_entry));
    json_object_set_new(j, "properties", props);
    const char *prefix = ferry_pbo_property_value(m, "prefix");
    if (prefix)
        fy_json_set_text(j, "prefix", prefix);
    else
        json_object_set_new(j, "prefix", json_null());
    json_object_set_new(j, "data_start", json_integer((json_int_t)m->tables_end));
    if (m->has_checksum) {
        char hex[41];
        sha1_hex(hex, m->checksum);
        json_object_set_new(j, "sha1", json_string(hex));
        json_object_set_new(j, "sha1_ok", json_boolean(memcmp(m->checksum, m->computed, FERRY_PBO_SHA1_SIZE) == 0));
        if (full) {
            sha1_hex(hex, m->computed);
            json_object_set_new(j, "sha1_computed", json_string(hex));
        }
    } else {
        json_object_set_new(j, "sha1", json_null());
    }
    return j;
}

static json_t *pbo_entry_json(const ferry_pbo_entry *e, size_t i)
{
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer((json_int_t)i));
    fy_json_set_text(j, "name", e->name);
    json_object_set_new(j, "size", json_integer(e->method == FERRY_PBO_METHOD_COMPRESSED ? e->original_size : e->size));
    json_object_set_new(j, "data_size", json_integer(e->size));
    json_object_set_new(j, "original_size", json_integer(e->original_size));
    json_object_set_new(j, "start", json_integer((json_int_t)e->start));
    json_object_set_new(j, "method", json_string(method_name(e->method)));
    json_object_set_new(j, "method_value", json_integer(e->method));
    json_object_set_new(j, "reserved", json_integer(e->reserved));
    json_object_set_new(j, "timestamp", json_integer(e->timestamp));
    return j;
}

/* A record of the table that is no file (the product entry, the
 * terminator): no index, but where it lies. */
static json_t *pbo_record_json(const ferry_pbo_entry *e)
{
    json_t *j = pbo_entry_json(e, 0);
    json_object_del(j, "index");
    json_object_set_new(j, "offset", json_integer((json_int_t)e->offset));
    return j;
}

FY_INFO(pbo)
{
    (void)err;
    const ferry_pbo *m = object;
    json_t *j = pbo_json(info, m);
    if (info->detail == FERRY_INFO_SUMMARY) {
        size_t packed = 0;
        for (size_t i = 0; i < m->entry_count; i++) packed += m->entries[i].method == FERRY_PBO_METHOD_COMPRESSED;
        json_object_set_new(j, "files", json_integer((json_int_t)m->entry_count));
        json_object_set_new(j, "compressed_files", json_integer((json_int_t)packed));
        json_object_set_new(j, "data_bytes", json_integer((json_int_t)pbo_total_bytes(m, false)));
        json_object_set_new(j, "original_bytes", json_integer((json_int_t)pbo_total_bytes(m, true)));
        return j;
    }
    bool full = info->detail == FERRY_INFO_FULL;
    if (full && m->has_product_entry) json_object_set_new(j, "product", pbo_record_json(&m->product));
    json_t *files = json_array();
    for (size_t i = 0; i < m->entry_count; i++) {
        json_t *e = pbo_entry_json(&m->entries[i], i);
        if (full) json_object_set_new(e, "offset", json_integer((json_int_t)m->entries[i].offset));
        json_array_append_new(files, e);
    }
    json_object_set_new(j, "files", files);
    if (full) {
        json_object_set_new(j, "terminator", pbo_record_json(&m->terminator));
        json_object_set_new(j, "data_end", json_integer((json_int_t)m->data_end));
    }
    return j;
}
