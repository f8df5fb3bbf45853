/* A MEG archive as a ferry_file_source: its stored names with '\' as '/',
 * folders implied by the names, paths compared ignoring ASCII case (the
 * game looks names up upper-cased). */
#include <ferry/meg.h>

#include "../../core/core.h"
#include "meg_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct meg_source {
    const ferry_meg *meg;
} meg_source;

/* Stored name byte i as a path byte. */
static char path_char(const ferry_meg_entry *e, size_t i) { return e->name[i] == '\\' ? '/' : e->name[i]; }

/* True when the entry's path begins with `prefix` (ignoring case) over n bytes. */
static bool has_prefix(const ferry_meg_entry *e, const char *prefix, size_t n)
{
    if (!e->name || e->name_length < n) return false;
    for (size_t i = 0; i < n; i++)
        if (fy_meg_name_char(e->name[i]) != fy_meg_name_char(prefix[i])) return false;
    return true;
}

static ferry_result meg_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    const ferry_meg *m = ((meg_source *)user)->meg;
    size_t n = strlen(path);
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const ferry_meg_entry *e = &m->entries[i];
        if (e->name_length != n || !has_prefix(e, path, n)) continue;
        if (!e->data) {
            fy_error_set(err, FERRY_ERR_MALFORMED, e->offset, NULL, "'%s': its bytes lie outside the archive", path);
            return FERRY_ERR_MALFORMED;
        }
        if (max_size && e->size > max_size) {
            fy_error_set(err, FERRY_ERR_LIMIT, e->offset, NULL, "'%s' has %u bytes, more than the %zu allowed", path,
                         (unsigned)e->size, max_size);
            return FERRY_ERR_LIMIT;
        }
        uint8_t *copy = malloc(e->size ? e->size : 1);
        if (!copy) {
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate %u bytes", (unsigned)e->size);
            return FERRY_ERR_NOMEM;
        }
        memcpy(copy, e->data, e->size);
        *data = copy;
        *size = e->size;
        return FERRY_OK;
    }
    fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "'%s' is not in the archive", path);
    return FERRY_ERR_IO;
}

static void meg_release(void *user, uint8_t *data, size_t size)
{
    (void)user, (void)size;
    free(data);
}

/* A record's next segment below the listed folder. */
typedef struct segment {
    uint32_t file;
    uint32_t length;
    bool folder; /* more follows it in the record's name */
} segment;

/* Segments a and b by their text as the game compares names, then length,
 * then a file before a folder. */
typedef struct segments {
    const ferry_meg *meg;
    size_t skip;
    const segment *v;
} segments;

static int segment_cmp(const void *ctx, uint32_t a, uint32_t b)
{
    const segments *s = ctx;
    const segment *sa = &s->v[a], *sb = &s->v[b];
    const ferry_meg_entry *x = &s->meg->entries[sa->file], *y = &s->meg->entries[sb->file];
    int c = fy_meg_name_cmp(x->name + s->skip, sa->length, y->name + s->skip, sb->length);
    return c ? c : (int)sa->folder - (int)sb->folder;
}

/* Lists the distinct next segments below `path` (compared ignoring case):
 * each once, where its first record is, in the order of the records; a
 * segment with more after it is a folder. */
static ferry_result meg_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    const ferry_meg *m = ((meg_source *)user)->meg;
    size_t n = strlen(path), skip = n ? n + 1 : 0;
    bool found = n == 0;
    size_t count = (size_t)m->entry_count + 1;
    segment *segs = malloc(count * sizeof *segs);
    uint32_t *order = malloc(2 * count * sizeof *order);
    bool *first = calloc(count, sizeof *first);
    if (!segs || !order || !first) {
        free(segs), free(order), free(first);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot list the archive");
        return FERRY_ERR_NOMEM;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const ferry_meg_entry *e = &m->entries[i];
        if (!e->name || e->name_length <= skip || !has_prefix(e, path, n)) continue;
        if (n && path_char(e, n) != '/') continue;
        found = true;
        size_t len = 0;
        while (skip + len < e->name_length && path_char(e, skip + len) != '/') len++;
        if (!len) continue;
        segs[k] = (segment){i, (uint32_t)len, skip + len < e->name_length};
        order[k] = (uint32_t)k;
        k++;
    }
    segments by = {m, skip, segs};
    fy_meg_sort(order, order + count, k, segment_cmp, &by);
    for (size_t j = 0; j < k; j++)
        if (j == 0 || segment_cmp(&by, order[j - 1], order[j]) != 0) first[order[j]] = true;
    char *seg = NULL;
    size_t seg_cap = 0;
    for (size_t j = 0; j < k; j++) {
        if (!first[j]) continue;
        const ferry_meg_entry *e = &m->entries[segs[j].file];
        size_t len = segs[j].length;
        if (len + 1 > seg_cap) {
            free(seg);
            seg_cap = len + 1;
            seg = malloc(seg_cap);
            if (!seg) break;
        }
        for (size_t c = 0; c < len; c++) seg[c] = path_char(e, skip + c);
        seg[len] = 0;
        if (memchr(seg, 0, len)) continue; /* a name with a NUL cannot be asked for */
        if (!entry(ctx, seg, segs[j].folder ? FERRY_ENTRY_FOLDER : FERRY_ENTRY_FILE)) break;
    }
    free(seg);
    free(segs);
    free(order);
    free(first);
    if (!found) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "'%s' is not a folder of the archive", path);
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

static void meg_close(void *user) { free(user); }

ferry_result ferry_file_source_meg(const ferry_meg *meg, ferry_file_source *source, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!meg || !source) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive or no source");
        return FERRY_ERR_ARGUMENT;
    }
    memset(source, 0, sizeof *source);
    meg_source *s = malloc(sizeof *s);
    if (!s) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate the source");
        return FERRY_ERR_NOMEM;
    }
    s->meg = meg;
    *source = (ferry_file_source){.load = meg_load, .release = meg_release, .list = meg_list, .close = meg_close, .user = s};
    return FERRY_OK;
}
