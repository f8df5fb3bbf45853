/* The insides of ferry_archive (archive.c: the handle; archive_reader.c:
 * archives read through a caller's reader; archive_extract.c,
 * archive_pack.c: the jobs; places.c). Not a public header. */
#ifndef FERRY_ARCHIVE_INTERNAL_H
#define FERRY_ARCHIVE_INTERNAL_H

#include <ferry/archive.h>

#include "../core/core.h"
#include "../core/platform.h"
#include "engine_internal.h"
#include "message.h"

struct ferry_archive {
    const fy_format_row *row;
    const fy_archive_row *kind;
    const ferry_asset *asset; /* NULL: read through `reader` */
    ferry_asset *own_asset;   /* ferry_archive_open's */
    const uint8_t *data;      /* the asset's bytes */
    uint64_t size;
    void *object;
    bool own_object;
    char *name;
    char *prefix;
    ferry_archive_entry *entries;
    fy_entry *stored; /* the rows' view of each entry (its bytes in the asset) */
    size_t entry_count;
    ferry_file_source inner; /* the format's own source */
    bool inner_open;
    ferry_file_source source; /* inner, or for a reader's archive inner's lists and the reader's loads */
    /* Through a reader: the caller's callbacks (one call at a time, under
     * `lock`) and the first bytes read, which hold the tables. */
    ferry_archive_reader reader;
    uint8_t *head;
    fy_mutex lock;
};

/* A handle of `row`'s format named `name` (copied; may be NULL), nothing
 * read yet; NULL with err when memory runs out. */
ferry_archive *fy_archive_new(const fy_format_row *row, const char *name, ferry_error *err);
/* The entries, the prefix and the source of an archive whose object is
 * read (its row, kind, name and object set). */
ferry_result fy_archive_finish(ferry_archive *a, ferry_error *err);
/* "MEG, PBO": the names of the formats whose rows are archives. */
void fy_archive_format_names(char *out, size_t cap);
/* "not an archive ferry reads (MEG, PBO): the content is ODOL" (the list
 * from the table). */
void fy_not_an_archive(ferry_error *err, ferry_format format);
/* The archive format of a file: its content's, else (content of no known
 * format) its name's; FERRY_FORMAT_UNKNOWN when neither is an archive's.
 * *content: what the content is (UNKNOWN also when the head could not be
 * read: then err says why). */
ferry_format fy_archive_format_of_file(const char *path, ferry_format *content, ferry_error *err);
/* The same for bytes already read and a name (may be NULL). */
ferry_format fy_archive_format_of(const uint8_t *head, size_t size, const char *name);
/* How messages name entry `index`'s record: "files[3]", "entries[3]". */
void fy_archive_record(const ferry_archive *a, size_t index, char *out, size_t cap);
/* Entry `index`'s bytes inside the archive's mapping, when they are its
 * bytes as stored (no decoding); else NULL. */
const uint8_t *fy_archive_entry_in_place(const ferry_archive *a, size_t index);

/* archive_reader.c: a reader's entries and its source's loads. */
ferry_result fy_archive_reader_entry(const ferry_archive *a, size_t index, size_t max_size, uint8_t **bytes,
                                     size_t *size, ferry_error *err);
ferry_result fy_archive_reader_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                                    ferry_error *err);
void fy_archive_reader_release(void *user, uint8_t *data, size_t size);
ferry_result fy_archive_reader_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err);

/* A shell pattern against a name (archive_extract.c; ferry_extract_options). */
bool fy_glob_match(const char *pattern, const char *name);

#endif
