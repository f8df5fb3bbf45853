/* ferry_archive: a MEG or a PBO behind one handle (archive.h), opened from
 * an asset (a mapped file, bytes) or through a caller's reader. What an
 * archive format does is its row's (engine_internal.h's fy_archive_row,
 * info_archive.c); this file only dispatches. */
#include "archive_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void nomem(ferry_error *err) { fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory"); }

/* "MEG, PBO": the formats whose rows are archives, from the table. */
void fy_archive_format_names(char *out, size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < ferry_format_count(); i++) {
        const ferry_format_desc *d = ferry_format_at(i);
        if (!(d->caps & FERRY_IS_ARCHIVE)) continue;
        int n = snprintf(out + at, cap - at, "%s%s", at ? ", " : "", d->name);
        if (n < 0 || (size_t)n >= cap - at) break;
        at += (size_t)n;
    }
}

void fy_not_an_archive(ferry_error *err, ferry_format format)
{
    char names[64];
    fy_archive_format_names(names, sizeof names);
    const ferry_format_desc *d = ferry_format_describe(format);
    if (d)
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "not an archive ferry reads (%s): the content is %s", names, d->name);
    else
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "not an archive ferry reads (%s): not a known format", names);
}

static bool is_archive(ferry_format f)
{
    const fy_format_row *row = fy_format_row_of(f);
    return row && row->archive;
}

ferry_format fy_archive_format_of(const uint8_t *head, size_t size, const char *name)
{
    ferry_format f = ferry_detect(head, size);
    if (f == FERRY_FORMAT_UNKNOWN) f = ferry_format_from_name(name);
    return is_archive(f) ? f : FERRY_FORMAT_UNKNOWN;
}

ferry_format fy_archive_format_of_file(const char *path, ferry_format *content, ferry_error *err)
{
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got = 0;
    ferry_error local;
    *content = FERRY_FORMAT_UNKNOWN;
    /* A file whose head cannot be read is told by its name: the open that
     * follows names what is wrong with it. */
    if (ferry_file_read_head(path, head, sizeof head, &got, NULL, err ? err : &local) == FERRY_OK)
        *content = ferry_detect(head, got);
    ferry_format f = *content != FERRY_FORMAT_UNKNOWN ? *content : ferry_format_from_name(path);
    return is_archive(f) ? f : FERRY_FORMAT_UNKNOWN;
}

/* ---- making the handle ---- */

/* Where the engine mounts the archive: the prefix its format names, else
 * its file name without the extension (NULL: not mounted so). */
static bool set_prefix(ferry_archive *a)
{
    if (!a->kind->prefix) return true;
    const char *own = a->kind->prefix(a->object);
    if (own) return (a->prefix = fy_strdup(own)) != NULL;
    if (!a->name) return true;
    const char *base = a->name + fy_path_name_offset(a->name);
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (!(a->prefix = malloc(n + 1))) return false;
    memcpy(a->prefix, base, n);
    a->prefix[n] = 0;
    return true;
}

ferry_result fy_archive_finish(ferry_archive *a, ferry_error *err)
{
    size_t count = a->row->entry_count(a->object);
    a->entries = calloc(count ? count : 1, sizeof *a->entries);
    a->stored = calloc(count ? count : 1, sizeof *a->stored);
    if (!a->entries || !a->stored || !set_prefix(a)) {
        nomem(err);
        return FERRY_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        fy_entry e = {0};
        a->row->entry_at(a->object, i, &e);
        a->entries[i] = (ferry_archive_entry){e.name,  e.name ? e.name_length : 0, e.size, e.stored_size, e.start,
                                              e.offset, e.compressed};
        a->stored[i] = e;
    }
    a->entry_count = count;
    ferry_result r = a->kind->source(a->object, &a->inner, err);
    if (r != FERRY_OK) return r;
    a->inner_open = true;
    a->inner.label = a->name;
    if (a->reader.read) {
        /* Lists through the format's source; loads through the reader. */
        a->source = (ferry_file_source){fy_archive_reader_load, fy_archive_reader_release, fy_archive_reader_list,
                                        NULL, a, a->name, NULL};
    } else {
        a->source = a->inner;
    }
    return FERRY_OK;
}

ferry_archive *fy_archive_new(const fy_format_row *row, const char *name, ferry_error *err)
{
    ferry_archive *a = calloc(1, sizeof *a);
    if (!a || (name && !(a->name = fy_strdup(name))) || fy_mutex_init(&a->lock) != 0) {
        if (a) free(a->name);
        free(a);
        nomem(err);
        return NULL;
    }
    a->row = row;
    a->kind = row->archive;
    return a;
}

ferry_result ferry_archive_from_asset(const ferry_asset *asset, ferry_archive **out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (out) *out = NULL;
    if (!asset || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no place for the archive");
        return FERRY_ERR_ARGUMENT;
    }
    const fy_format_row *row = asset->row;
    if (!row || !row->archive) {
        fy_not_an_archive(err, asset->format);
        return FERRY_ERR_UNSUPPORTED;
    }
    ferry_archive *a = fy_archive_new(row, asset->name, err);
    if (!a) return FERRY_ERR_NOMEM;
    a->asset = asset;
    a->data = asset->data;
    a->size = asset->size;
    a->object = asset->object;
    ferry_result r = FERRY_OK;
    if (!a->object) { /* an asset opened bytes_only: read now, the archive's own */
        fy_read_args args = {&asset->read, asset->files};
        r = row->read(asset->data, asset->size, &args, &a->object, err);
        if (r != FERRY_OK && a->object) row->free(a->object);
        if (r != FERRY_OK) a->object = NULL;
        a->own_object = a->object != NULL;
    }
    if (r == FERRY_OK) r = fy_archive_finish(a, err);
    if (r != FERRY_OK) {
        ferry_archive_free(a);
        return r;
    }
    *out = a;
    return FERRY_OK;
}

ferry_result ferry_archive_open(const char *path, const ferry_archive_options *options, ferry_archive **out,
                                ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (out) *out = NULL;
    if (!path || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no place for the archive");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_format content;
    ferry_error head_err;
    ferry_format f = fy_archive_format_of_file(path, &content, &head_err);
    if (f == FERRY_FORMAT_UNKNOWN) {
        if (head_err.code != FERRY_OK) {
            if (err) *err = head_err;
            return head_err.code;
        }
        fy_not_an_archive(err, content);
        return FERRY_ERR_UNSUPPORTED;
    }
    ferry_asset_options ao = {.format = f, .name = options && options->name ? options->name : path};
    if (options) ao.read = options->read;
    ferry_asset *asset = NULL;
    ferry_result r = ferry_asset_open(path, &ao, &asset, err);
    if (r != FERRY_OK) return r;
    r = ferry_archive_from_asset(asset, out, err);
    if (r != FERRY_OK) {
        ferry_asset_free(asset);
        return r;
    }
    (*out)->own_asset = asset;
    return FERRY_OK;
}

void ferry_archive_free(ferry_archive *a)
{
    if (!a) return;
    if (a->inner_open) ferry_file_source_close(&a->inner);
    if (a->own_object) a->row->free(a->object);
    ferry_asset_free(a->own_asset);
    if (a->reader.close) a->reader.close(a->reader.user);
    free(a->head);
    free(a->entries);
    free(a->stored);
    free(a->prefix);
    free(a->name);
    fy_mutex_destroy(&a->lock);
    free(a);
}

/* ---- queries ---- */

ferry_format ferry_archive_format(const ferry_archive *a) { return a ? a->row->desc.id : FERRY_FORMAT_UNKNOWN; }
const char *ferry_archive_name(const ferry_archive *a) { return a ? a->name : NULL; }
uint64_t ferry_archive_size(const ferry_archive *a) { return a ? a->size : 0; }
const void *ferry_archive_object(const ferry_archive *a) { return a ? a->object : NULL; }
const ferry_asset *ferry_archive_asset(const ferry_archive *a) { return a ? a->asset : NULL; }
size_t ferry_archive_entry_count(const ferry_archive *a) { return a ? a->entry_count : 0; }
const ferry_file_source *ferry_archive_source(const ferry_archive *a) { return a ? &a->source : NULL; }
const char *ferry_archive_prefix(const ferry_archive *a) { return a ? a->prefix : NULL; }

const ferry_archive_entry *ferry_archive_entry_at(const ferry_archive *a, size_t index)
{
    return a && index < a->entry_count ? &a->entries[index] : NULL;
}

void fy_archive_record(const ferry_archive *a, size_t index, char *out, size_t cap)
{
    snprintf(out, cap, "%s[%zu]", a->kind->record, index);
}

/* ---- an entry's bytes ---- */

/* The error of an entry whose stored bytes are not inside the archive. */
static ferry_result outside(const ferry_archive *a, size_t index, ferry_error *err)
{
    const ferry_archive_entry *e = &a->entries[index];
    char record[48];
    fy_archive_record(a, index, record, sizeof record);
    fy_error_set(err, FERRY_ERR_TRUNCATED, e->offset, record, "its bytes [%llu, +%llu) lie outside the archive",
                 (unsigned long long)e->start, (unsigned long long)e->stored_size);
    return FERRY_ERR_TRUNCATED;
}

static ferry_result too_large(const ferry_archive *a, size_t index, size_t max_size, ferry_error *err)
{
    char record[48];
    fy_archive_record(a, index, record, sizeof record);
    fy_error_set(err, FERRY_ERR_LIMIT, a->entries[index].offset, record, "%llu bytes, more than the %zu allowed",
                 (unsigned long long)a->entries[index].size, max_size);
    return FERRY_ERR_LIMIT;
}

ferry_result ferry_archive_read_entry(const ferry_archive *a, size_t index, size_t max_size, uint8_t **bytes,
                                      size_t *size, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (bytes) *bytes = NULL;
    if (size) *size = 0;
    if (!a || !bytes || !size || index >= a->entry_count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive, no output or no entry %zu", index);
        return FERRY_ERR_ARGUMENT;
    }
    const fy_entry *s = &a->stored[index];
    if (a->reader.read) return fy_archive_reader_entry(a, index, max_size, bytes, size, err);
    if (!s->as_stored || s->decode) {
        if (a->row->entry_bytes) return a->row->entry_bytes(a->object, index, max_size, bytes, size, err);
    }
    if (!s->stored) return outside(a, index, err);
    if (max_size && s->stored_size > max_size) return too_large(a, index, max_size, err);
    uint8_t *copy = malloc(s->stored_size ? s->stored_size : 1);
    if (!copy) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate %zu bytes", s->stored_size);
        return FERRY_ERR_NOMEM;
    }
    if (s->stored_size) memcpy(copy, s->stored, s->stored_size);
    *bytes = copy;
    *size = s->stored_size;
    return FERRY_OK;
}

const uint8_t *fy_archive_entry_in_place(const ferry_archive *a, size_t index)
{
    const fy_entry *s = &a->stored[index];
    return !a->reader.read && s->as_stored && !s->decode ? s->stored : NULL;
}

ferry_result ferry_archive_open_entry(const ferry_archive *a, size_t index, const ferry_asset_options *options,
                                      ferry_asset **out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (out) *out = NULL;
    if (!a || !out || index >= a->entry_count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive, no place for the asset or no entry %zu",
                     index);
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_archive_entry *e = &a->entries[index];
    /* ARCHIVE:NAME, as ferry_asset_validate labels entries (the record
     * for an entry without a name). */
    const char *parent = a->name ? a->name : "";
    char record[48];
    fy_archive_record(a, index, record, sizeof record);
    const char *tail = e->name ? e->name : record;
    size_t tail_length = e->name ? e->name_length : strlen(record), pl = strlen(parent);
    char *label = malloc(pl + 1 + tail_length + 1);
    if (!label) {
        nomem(err);
        return FERRY_ERR_NOMEM;
    }
    memcpy(label, parent, pl);
    label[pl] = ':';
    memcpy(label + pl + 1, tail, tail_length);
    label[pl + 1 + tail_length] = 0;
    ferry_asset_options o = options ? *options : (ferry_asset_options){0};
    if (!o.name) o.name = label;
    const uint8_t *data = fy_archive_entry_in_place(a, index);
    uint8_t *owned = NULL;
    size_t size = (size_t)e->stored_size;
    ferry_result r = FERRY_OK;
    if (data && o.max_size && size > o.max_size) r = too_large(a, index, o.max_size, err);
    if (!data && r == FERRY_OK) r = ferry_archive_read_entry(a, index, o.max_size, &owned, &size, err);
    if (r == FERRY_OK) r = ferry_asset_read(owned ? owned : data, size, &o, out, err);
    if (r == FERRY_OK)
        (*out)->owned = owned;
    else
        free(owned);
    free(label);
    return r;
}

/* ---- names as paths ---- */

ferry_result ferry_archive_entry_path(const char *name, size_t n, char *out, size_t capacity, ferry_error *err)
{
    if (err) fy_error_clear(err);
    const char *why = NULL;
    if (!name)
        why = "its name index is out of range";
    else if (!n)
        why = "its name is empty";
    else if (memchr(name, 0, n))
        why = "its name holds a NUL byte";
    else if (n >= 2 && name[1] == ':')
        why = "its name starts with a drive letter";
    else if (name[0] == '\\' || name[0] == '/')
        why = "its name is an absolute path";
    for (size_t i = 0, start = 0; !why && i <= n; i++) {
        if (i < n && name[i] != '\\' && name[i] != '/') continue;
        size_t len = i - start;
        const char *s = name + start;
        if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
            why = "its name has an empty, '.' or '..' segment";
        start = i + 1;
    }
    if (why) {
        fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, NULL, "%s", why);
        return FERRY_ERR_MALFORMED;
    }
    if (!out || capacity <= n) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%zu bytes of room for a path of %zu", capacity, n);
        return FERRY_ERR_ARGUMENT;
    }
    for (size_t i = 0; i < n; i++) out[i] = name[i] == '\\' ? '/' : name[i];
    out[n] = 0;
    return FERRY_OK;
}
