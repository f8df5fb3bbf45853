/* MEG writer: the header and tables from the object's fields, then the
 * bytes that followed the tables in the archive read (entries' data and
 * anything between them), so a read archive writes back byte for byte. */
#include <ferry/meg.h>

#include "../../core/core.h"

ferry_result ferry_meg_write_tables(const ferry_meg *m, ferry_buffer *out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!m || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive or no buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (m->format < 1 || m->format > 3) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "header", "format %u: MEG formats are 1, 2 and 3",
                     (unsigned)m->format);
        return FERRY_ERR_ARGUMENT;
    }
    if (m->format >= 2) {
        fy_buf_u32le(out, m->flags_word);
        fy_buf_u32le(out, m->id);
        fy_buf_u32le(out, m->data_start);
    }
    fy_buf_u32le(out, m->name_count);
    fy_buf_u32le(out, m->entry_count);
    if (m->format == 3) fy_buf_u32le(out, m->name_table_size);
    for (uint32_t i = 0; i < m->name_count; i++) {
        fy_buf_u16le(out, m->names[i].length);
        fy_buf_append(out, m->names[i].text, m->names[i].length);
    }
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const ferry_meg_entry *e = &m->entries[i];
        if (m->format == 3) fy_buf_u16le(out, e->flags);
        fy_buf_u32le(out, e->crc);
        fy_buf_u32le(out, e->index);
        fy_buf_u32le(out, e->size);
        fy_buf_u32le(out, e->start);
        if (m->format == 3)
            fy_buf_u16le(out, (uint16_t)e->name_index);
        else
            fy_buf_u32le(out, e->name_index);
    }
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot grow the output buffer");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}

ferry_result ferry_meg_write(const ferry_meg *m, ferry_buffer *out, ferry_error *err)
{
    ferry_result r = ferry_meg_write_tables(m, out, err);
    if (r != FERRY_OK) return r;
    if (m->archive && m->tables_end < m->archive_size)
        fy_buf_append(out, m->archive + m->tables_end, m->archive_size - m->tables_end);
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot grow the output buffer");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}
