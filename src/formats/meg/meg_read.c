/* MEG reader: the header, the name table and the file table of formats 1,
 * 2 and 3 into one arena; the entries' bytes stay in the caller's buffer.
 * Every count is compared with the bytes that remain (times the smallest
 * size of its records) before anything is allocated for it. */
#include <ferry/meg.h>

#include "../../codec/codec.h"
#include "../../core/record.h"

#include <string.h>

#define locate(r, ...) fy_record_locate(r, __VA_ARGS__)

uint32_t ferry_meg_crc32(const void *data, size_t size) { return fy_crc32(data, size); }

static bool read_header(fy_record_reader *r, ferry_meg *m, const uint8_t *data, size_t size)
{
    fy_cursor *c = &r->c;
    if (size >= 8 && data[4] == 0xA4 && data[5] == 0x70 && data[6] == 0x7D && data[7] == 0x3F) {
        m->flags_word = fy_u32le(c, "flags");
        m->id = fy_u32le(c, "id");
        if (m->flags_word == FERRY_MEG_FLAGS_ENCRYPTED) {
            fy_fail_at(c, 0, FERRY_ERR_UNSUPPORTED,
                       "encrypted MEG archive (format 3, flags 0x8FFFFFFF): ferry reads unencrypted archives only");
            return false;
        }
        if (m->flags_word != FERRY_MEG_FLAGS_PLAIN) {
            fy_fail_at(c, 0, FERRY_ERR_MALFORMED, "flags 0x%08X: formats 2 and 3 have 0xFFFFFFFF (0x8FFFFFFF: encrypted)",
                       (unsigned)m->flags_word);
            return false;
        }
        m->data_start = fy_u32le(c, "data start");
        m->name_count = fy_u32le(c, "name count");
        m->entry_count = fy_u32le(c, "file count");
        if (c->failed) return false;
        /* Format 3 has the name table's size next: then the tables end
         * exactly at data_start (docs/formats/meg.md). */
        if (size >= 24) {
            uint32_t nts = fy_load_u32le(data + 20);
            if ((uint64_t)24 + nts + (uint64_t)20 * m->entry_count == m->data_start) {
                m->format = 3;
                m->name_table_size = fy_u32le(c, "name table size");
                return !c->failed;
            }
        }
        m->format = 2;
        return true;
    }
    m->format = 1;
    m->name_count = fy_u32le(c, "name count");
    m->entry_count = fy_u32le(c, "file count");
    return !c->failed;
}

static bool read_names(fy_record_reader *r, ferry_meg *m)
{
    fy_cursor *c = &r->c;
    size_t table_start = c->pos;
    if (!fy_record_room(r, c->pos, m->name_count, 2, "name count")) {
        locate(r, "names");
        return false;
    }
    m->names = fy_record_alloc(r, m->name_count, sizeof *m->names);
    if (m->name_count && !m->names) return false;
    for (uint32_t i = 0; i < m->name_count; i++) {
        ferry_meg_name *n = &m->names[i];
        n->offset = c->pos;
        n->length = fy_u16le(c, "name length");
        const uint8_t *text = fy_bytes(c, n->length, "name");
        char *copy = text ? fy_record_alloc(r, (uint64_t)n->length + 1, 1) : NULL;
        if (copy) {
            memcpy(copy, text, n->length);
            n->text = copy;
        }
        if (c->failed) {
            locate(r, "names[%u]/%s", (unsigned)i, r->err->offset > n->offset ? "text" : "length");
            return false;
        }
    }
    if (m->format == 3 && c->pos - table_start != m->name_table_size) {
        fy_fail_at(c, 20, FERRY_ERR_MALFORMED, "name table size %u, but the %u names take %zu bytes",
                   (unsigned)m->name_table_size, (unsigned)m->name_count, c->pos - table_start);
        locate(r, "header/name_table_size");
        return false;
    }
    return true;
}

static bool read_files(fy_record_reader *r, ferry_meg *m, const uint8_t *data, size_t size)
{
    fy_cursor *c = &r->c;
    uint64_t left = fy_record_remaining(r);
    if (!fy_record_room(r, c->pos, m->entry_count, 20, "file count")) {
        /* The record the data ends in (the whole archive's, when read from its head). */
        locate(r, "files[%llu]", (unsigned long long)(left / 20));
        return false;
    }
    m->entries = fy_record_alloc(r, m->entry_count, sizeof *m->entries);
    if (m->entry_count && !m->entries) return false;
    for (uint32_t i = 0; i < m->entry_count; i++) {
        ferry_meg_entry *e = &m->entries[i];
        e->offset = c->pos;
        if (m->format == 3) e->flags = fy_u16le(c, "flags");
        e->crc = fy_u32le(c, "crc");
        e->index = fy_u32le(c, "index");
        e->size = fy_u32le(c, "size");
        e->start = fy_u32le(c, "start");
        e->name_index = m->format == 3 ? fy_u16le(c, "name index") : fy_u32le(c, "name index");
        if (c->failed) {
            locate(r, "files[%u]", (unsigned)i); /* not reached: the room was checked */
            return false;
        }
        if (m->format == 3 && (e->flags & 1)) {
            fy_fail_at(c, e->offset, FERRY_ERR_UNSUPPORTED,
                       "entry is encrypted (flags 0x%04X): ferry reads unencrypted archives only", (unsigned)e->flags);
            locate(r, "files[%u]/flags", (unsigned)i);
            return false;
        }
        if (e->name_index < m->name_count) {
            e->name = m->names[e->name_index].text;
            e->name_length = m->names[e->name_index].length;
        }
        if ((uint64_t)e->start + e->size <= size) e->data = data + e->start;
    }
    return true;
}

/* The tables of the `whole` bytes' archive from its first `size` bytes
 * (all of them: size == whole). */
static ferry_result read_tables(const uint8_t *data, size_t size, uint64_t whole, const ferry_read_options *options,
                                ferry_meg **out, ferry_error *err)
{
    fy_record_reader r;
    ferry_meg *m = fy_record_open(&r, data, size, options, size / 4, sizeof *m, err);
    if (!m) return FERRY_ERR_NOMEM;
    r.whole = whole;
    m->arena = r.arena;
    m->archive = data;
    m->archive_size = size;
    if (!read_header(&r, m, data, size)) {
        locate(&r, "header");
    } else if (read_names(&r, m)) {
        (void)read_files(&r, m, data, size);
    }
    ferry_result code = fy_record_close(&r);
    if (code != FERRY_OK) return code;
    m->tables_end = r.c.pos;
    *out = m;
    return FERRY_OK;
}

ferry_result ferry_meg_read(const uint8_t *data, size_t size, const ferry_read_options *options, ferry_meg **out,
                            ferry_error *err)
{
    if (out) *out = NULL;
    if (fy_record_args(data, size, out != NULL, err) != FERRY_OK) return FERRY_ERR_ARGUMENT;
    return read_tables(data, size, size, options, out, err);
}

/* ---- the tables from the archive's first bytes ---- */

/* How many bytes from the start read_tables needs: walks the tables as it
 * does, without reading them. At most `have` when the tables end inside
 * the head or the reader can tell from the head why they cannot (a count
 * larger than the archive, a bad header: it then refuses them with the
 * same words as from the whole archive); more when the head must grow. */
static uint64_t tables_need(const uint8_t *h, size_t have, uint64_t whole)
{
    if (have >= whole) return whole;
    if (have < 24) return fy_record_head_grow(24, have, whole);
    uint64_t pos, names, files;
    if (h[4] == 0xA4 && h[5] == 0x70 && h[6] == 0x7D && h[7] == 0x3F) {
        if (fy_load_u32le(h) != FERRY_MEG_FLAGS_PLAIN) return have; /* refused by its header */
        uint64_t data_start = fy_load_u32le(h + 8), table_size = fy_load_u32le(h + 20);
        names = fy_load_u32le(h + 12);
        files = fy_load_u32le(h + 16);
        pos = 24 + table_size + 20 * files == data_start ? 24 : 20; /* format 3's name table size, as read_header */
    } else {
        names = fy_load_u32le(h);
        files = fy_load_u32le(h + 4);
        pos = 8;
    }
    if (names > (whole - pos) / 2) return have; /* refused by its count */
    for (uint64_t i = 0; i < names; i++) {
        if (pos + 2 > have) return fy_record_head_grow(pos + 2, have, whole);
        pos += 2 + (uint64_t)fy_load_u16le(h + pos);
        if (pos > have) return fy_record_head_grow(pos, have, whole);
    }
    if (files > (whole - pos) / 20) return have;
    return pos + 20 * files > have ? fy_record_head_grow(pos + 20 * files, have, whole) : pos + 20 * files;
}

ferry_result ferry_meg_read_head(const uint8_t *head, size_t head_size, uint64_t archive_size,
                                 const ferry_read_options *options, uint64_t *need, ferry_meg **out, ferry_error *err)
{
    if (out) *out = NULL;
    if (fy_record_head_args(head, head_size, archive_size, out != NULL, need != NULL, err) != FERRY_OK)
        return FERRY_ERR_ARGUMENT;
    *need = tables_need(head, head_size, archive_size);
    if (*need > head_size) return FERRY_OK;
    ferry_result r = read_tables(head, head_size, archive_size, options, out, err);
    if (r == FERRY_OK) *need = (*out)->tables_end;
    return r;
}

void ferry_meg_free(ferry_meg *meg)
{
    if (meg && meg->arena) ferry_arena_destroy(meg->arena);
}
