/* Archives read through a caller's reader (ferry_archive_from_reader): the
 * first bytes read until they hold the tables (the format's read_head says
 * how many it needs), then each entry's stored bytes read when asked for.
 * Nothing else of the archive is read, so a front end without mapped
 * files (the web viewer, reading a dropped file with File.slice) lists an
 * archive of any size by its tables alone. */
#include "archive_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first bytes read at once: the tables of most archives, and more than
 * ferry_detect looks at. */
#define FIRST_READ ((size_t)64 << 10)

/* Reads [offset, offset + size) through the caller's reader into buffer,
 * asking again after a short read. */
static ferry_result read_at(const ferry_archive_reader *reader, uint64_t offset, size_t size, uint8_t *buffer,
                            ferry_error *err)
{
    size_t done = 0;
    while (done < size) {
        int64_t got = reader->read(reader->user, offset + done, size - done, buffer + done);
        if (got < 0) {
            fy_error_set(err, FERRY_ERR_IO, offset + done, NULL, "the reader failed to read %zu bytes at %llu",
                         size - done, (unsigned long long)(offset + done));
            return FERRY_ERR_IO;
        }
        if ((uint64_t)got > size - done) {
            fy_error_set(err, FERRY_ERR_IO, offset + done, NULL, "the reader gave %lld bytes for the %zu asked at %llu",
                         (long long)got, size - done, (unsigned long long)(offset + done));
            return FERRY_ERR_IO;
        }
        if (got == 0) {
            fy_error_set(err, FERRY_ERR_TRUNCATED, offset + done, NULL,
                         "the reader gave no bytes at %llu, before the archive's end (%llu bytes)",
                         (unsigned long long)(offset + done), (unsigned long long)reader->size);
            return FERRY_ERR_TRUNCATED;
        }
        done += (size_t)got;
    }
    return FERRY_OK;
}

ferry_result ferry_archive_from_reader(const ferry_archive_reader *reader, const ferry_archive_options *options,
                                       ferry_archive **out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (out) *out = NULL;
    if (!reader || !reader->read || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no reader or no place for the archive");
        return FERRY_ERR_ARGUMENT;
    }
    if (reader->size > SIZE_MAX) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "an archive of %llu bytes: more than this system addresses",
                     (unsigned long long)reader->size);
        return FERRY_ERR_LIMIT;
    }
    const char *name = options ? options->name : NULL;
    size_t have = reader->size < FIRST_READ ? (size_t)reader->size : FIRST_READ;
    uint8_t *head = malloc(have ? have : 1);
    if (!head) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    ferry_result r = read_at(reader, 0, have, head, err);
    ferry_format f = FERRY_FORMAT_UNKNOWN;
    if (r == FERRY_OK && (f = fy_archive_format_of(head, have, name)) == FERRY_FORMAT_UNKNOWN) {
        fy_not_an_archive(err, ferry_detect(head, have));
        r = FERRY_ERR_UNSUPPORTED;
    }
    const fy_format_row *row = fy_format_row_of(f);
    ferry_read_options read = options ? options->read : (ferry_read_options){0};
    fy_read_args args = {&read, NULL};
    void *object = NULL;
    /* Grow the head until it holds the tables: the format says how far. */
    while (r == FERRY_OK) {
        uint64_t need = 0;
        r = row->archive->read_head(head, have, reader->size, &args, &need, &object, err);
        if (r != FERRY_OK || object) break;
        if (need <= have || need > reader->size) {
            fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, NULL, "the %s reader asks for %llu bytes, having %zu",
                         row->desc.name, (unsigned long long)need, have);
            r = FERRY_ERR_MALFORMED;
            break;
        }
        uint8_t *grown = realloc(head, (size_t)need);
        if (!grown) {
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot hold the %llu bytes of the tables",
                         (unsigned long long)need);
            r = FERRY_ERR_NOMEM;
            break;
        }
        head = grown;
        r = read_at(reader, have, (size_t)need - have, head + have, err);
        have = (size_t)need;
    }
    ferry_archive *a = NULL;
    if (r == FERRY_OK && !(a = fy_archive_new(row, name, err))) r = FERRY_ERR_NOMEM;
    if (r != FERRY_OK) {
        if (object) row->free(object);
        free(head);
        return r;
    }
    a->object = object;
    a->own_object = true;
    a->head = head;
    a->size = reader->size;
    a->reader = *reader;
    r = fy_archive_finish(a, err);
    if (r != FERRY_OK) {
        a->reader.close = NULL; /* the caller's still, on failure */
        ferry_archive_free(a);
        return r;
    }
    *out = a;
    return FERRY_OK;
}

ferry_result fy_archive_reader_entry(const ferry_archive *a, size_t index, size_t max_size, uint8_t **bytes,
                                     size_t *size, ferry_error *err)
{
    const ferry_archive_entry *e = &a->entries[index];
    const fy_entry *s = &a->stored[index];
    char record[48];
    fy_archive_record(a, index, record, sizeof record);
    if (e->start > a->size || e->stored_size > a->size - e->start) {
        fy_error_set(err, FERRY_ERR_TRUNCATED, e->offset, record, "its bytes [%llu, +%llu) lie outside the archive",
                     (unsigned long long)e->start, (unsigned long long)e->stored_size);
        return FERRY_ERR_TRUNCATED;
    }
    if (max_size && e->size > max_size) {
        fy_error_set(err, FERRY_ERR_LIMIT, e->offset, record, "%llu bytes, more than the %zu allowed",
                     (unsigned long long)e->size, max_size);
        return FERRY_ERR_LIMIT;
    }
    size_t n = (size_t)e->stored_size; /* inside the archive: below SIZE_MAX */
    uint8_t *stored = malloc(n ? n : 1);
    if (!stored) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, record, "cannot allocate %zu bytes", n);
        return FERRY_ERR_NOMEM;
    }
    /* One reader call at a time, whatever thread asks. */
    ferry_archive *locked = (ferry_archive *)a;
    fy_mutex_lock(&locked->lock);
    ferry_result r = read_at(&a->reader, e->start, n, stored, err);
    fy_mutex_unlock(&locked->lock);
    if (r != FERRY_OK) {
        free(stored);
        return r;
    }
    if (s->as_stored || !a->kind->decode) {
        *bytes = stored;
        *size = n;
        return FERRY_OK;
    }
    r = a->kind->decode(a->object, index, stored, max_size, bytes, size, err);
    free(stored);
    return r;
}

/* ---- the source: the format's lists, the reader's loads ---- */

static int name_char(char c)
{
    if (c >= 'A' && c <= 'Z') return c + 32;
    return c == '\\' ? '/' : (unsigned char)c;
}

ferry_result fy_archive_reader_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                                    ferry_error *err)
{
    const ferry_archive *a = user;
    size_t n = strlen(path);
    /* The first record of that name, compared as both formats' sources do
     * (ASCII case ignored, '\' as '/'). */
    for (size_t i = 0; i < a->entry_count; i++) {
        const ferry_archive_entry *e = &a->entries[i];
        if (!e->name || e->name_length != n) continue;
        size_t k = 0;
        while (k < n && name_char(e->name[k]) == name_char(path[k])) k++;
        if (k == n) return fy_archive_reader_entry(a, i, max_size, data, size, err);
    }
    fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "'%s' is not in the archive", path);
    return FERRY_ERR_IO;
}

void fy_archive_reader_release(void *user, uint8_t *data, size_t size)
{
    (void)user, (void)size;
    free(data);
}

ferry_result fy_archive_reader_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    const ferry_archive *a = user;
    return a->inner.list(a->inner.user, path, entry, ctx, err);
}
