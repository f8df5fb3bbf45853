/* A PBO archive as a ferry_file_source: its stored names with '\' as '/',
 * folders implied by the names, paths compared ignoring ASCII case (as the
 * engine looks names up); loads decode compressed entries. */
#include <ferry/pbo.h>

#include "../../core/core.h"
#include "pbo_internal.h"

#include <stdlib.h>
#include <string.h>

/* True when the entry's name begins with `path` over n bytes (as the engine
 * compares: case ignored, '/' as '\'). */
static bool has_prefix(const ferry_pbo_entry *e, const char *path, size_t n)
{
    if (e->name_length < n) return false;
    for (size_t i = 0; i < n; i++)
        if (fy_pbo_name_char(e->name[i]) != fy_pbo_name_char(path[i])) return false;
    return true;
}

static ferry_result pbo_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    const ferry_pbo *m = user;
    size_t n = strlen(path);
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        if (e->name_length != n || !has_prefix(e, path, n)) continue;
        return ferry_pbo_entry_bytes(m, i, max_size, data, size, err);
    }
    fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "'%s' is not in the archive", path);
    return FERRY_ERR_IO;
}

static void pbo_release(void *user, uint8_t *data, size_t size)
{
    (void)user, (void)size;
    free(data);
}

/* An entry's next segment below the listed folder. */
typedef struct segment {
    const char *text; /* inside the entry's name */
    size_t length;
    bool folder; /* more follows it in the entry's name */
} segment;

static int segment_cmp(const void *a, const void *b)
{
    const segment *x = a, *y = b;
    int c = fy_pbo_name_cmp(x->text, x->length, y->text, y->length);
    if (c) return c;
    if (x->folder != y->folder) return (int)x->folder - (int)y->folder;
    return x->text < y->text ? -1 : x->text > y->text; /* the first entry's spelling first */
}

/* Lists the distinct next segments below `path` (compared ignoring case),
 * each once, files before folders of one name, in the engine's name order. */
static ferry_result pbo_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    const ferry_pbo *m = user;
    size_t n = strlen(path), skip = n ? n + 1 : 0;
    bool found = n == 0;
    segment *segs = malloc((m->entry_count + 1) * sizeof *segs);
    if (!segs) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot list the archive");
        return FERRY_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        if (e->name_length <= skip || !has_prefix(e, path, n)) continue;
        if (n && e->name[n] != '\\' && e->name[n] != '/') continue;
        found = true;
        size_t len = 0;
        while (skip + len < e->name_length && e->name[skip + len] != '\\' && e->name[skip + len] != '/') len++;
        if (!len) continue;
        segs[k++] = (segment){e->name + skip, len, skip + len < e->name_length};
    }
    qsort(segs, k, sizeof *segs, segment_cmp);
    char *seg = NULL;
    size_t cap = 0;
    for (size_t j = 0; j < k; j++) {
        if (j > 0 && segs[j - 1].folder == segs[j].folder &&
            fy_pbo_name_cmp(segs[j - 1].text, segs[j - 1].length, segs[j].text, segs[j].length) == 0)
            continue;
        if (segs[j].length + 1 > cap) {
            free(seg);
            cap = segs[j].length + 1;
            seg = malloc(cap);
            if (!seg) break;
        }
        memcpy(seg, segs[j].text, segs[j].length);
        seg[segs[j].length] = 0;
        if (!entry(ctx, seg, segs[j].folder ? FERRY_ENTRY_FOLDER : FERRY_ENTRY_FILE)) break;
    }
    free(seg);
    free(segs);
    if (!found) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "'%s' is not a folder of the archive", path);
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

ferry_result ferry_file_source_pbo(const ferry_pbo *pbo, ferry_file_source *source, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!pbo || !source) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive or no source");
        return FERRY_ERR_ARGUMENT;
    }
    memset(source, 0, sizeof *source);
    source->load = pbo_load;
    source->release = pbo_release;
    source->list = pbo_list;
    source->user = (void *)pbo;
    return FERRY_OK;
}
