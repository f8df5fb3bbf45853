/* MEG validator: what the game relies on (docs/formats/meg.md). */
#include <ferry/meg.h>

#include "../../core/core.h"
#include "meg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    uint32_t start, size, file;
} span;

static int by_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->file < y->file ? -1 : x->file > y->file;
}

/* Records a and b by name as the game compares them. */
static int name_cmp(const void *ctx, uint32_t a, uint32_t b)
{
    const ferry_meg *m = ctx;
    const ferry_meg_entry *x = &m->entries[a], *y = &m->entries[b];
    return fy_meg_name_cmp(x->name, x->name_length, y->name, y->name_length);
}

void fy_meg_sort(uint32_t *v, uint32_t *tmp, size_t n, fy_meg_cmp cmp, const void *ctx)
{
    if (n < 2) return;
    size_t h = n / 2;
    fy_meg_sort(v, tmp, h, cmp, ctx);
    fy_meg_sort(v + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = cmp(ctx, v[i], v[j]) <= 0 ? v[i++] : v[j++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

size_t ferry_meg_validate(const ferry_meg *m, const ferry_meg_validate_options *options, ferry_diagnostics *diags)
{
    (void)options;
    size_t errors = 0;
    char path[96];
    if (!m) return 0;
    if (m->format >= 2 && m->data_start != m->tables_end)
        FY_DIAG_ERR(8, "header/data_start", "meg-data-start", "data start %u, but the tables end at %zu",
                    (unsigned)m->data_start, m->tables_end);
    if (m->name_count != m->entry_count)
        FY_DIAG_WARN(m->format >= 2 ? 12 : 0, "header", "meg-counts", "%u names for %u files (the game's archives have one each)",
                     (unsigned)m->name_count, (unsigned)m->entry_count);
    for (uint32_t i = 0; i < m->name_count; i++) {
        const ferry_meg_name *n = &m->names[i];
        snprintf(path, sizeof path, "names[%u]", (unsigned)i);
        if (!n->length) {
            FY_DIAG_ERR(n->offset, path, "meg-name-empty", "empty name");
            continue;
        }
        if (memchr(n->text, 0, n->length)) FY_DIAG_ERR(n->offset, path, "meg-name-nul", "name holds a NUL byte");
        bool lower = false, slash = false;
        for (size_t k = 0; k < n->length; k++) {
            if (n->text[k] >= 'a' && n->text[k] <= 'z') lower = true;
            if (n->text[k] == '/') slash = true;
        }
        if (lower) FY_DIAG_WARN(n->offset, path, "meg-name-case", "name '%s' has lower-case letters (the game's are upper case)", n->text);
        if (slash) FY_DIAG_WARN(n->offset, path, "meg-name-slash", "name '%s' has '/' (the game's use '\\')", n->text);
        if ((n->length >= 2 && n->text[1] == ':') || n->text[0] == '\\' || n->text[0] == '/')
            FY_DIAG_WARN(n->offset, path, "meg-name-absolute", "name '%s' is an absolute path", n->text);
    }
    span *spans = m->entry_count ? malloc((size_t)m->entry_count * sizeof *spans) : NULL;
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const ferry_meg_entry *e = &m->entries[i];
        if (e->index != i) {
            snprintf(path, sizeof path, "files[%u]/index", (unsigned)i);
            FY_DIAG_ERR(e->offset, path, "meg-index", "record index %u at position %u", (unsigned)e->index, (unsigned)i);
        }
        if (e->name_index >= m->name_count) {
            snprintf(path, sizeof path, "files[%u]/name", (unsigned)i);
            FY_DIAG_ERR(e->offset, path, "meg-name-index", "name index %u, but there are %u names", (unsigned)e->name_index,
                        (unsigned)m->name_count);
        } else {
            uint32_t crc = ferry_meg_crc32(e->name, e->name_length);
            if (crc != e->crc) {
                snprintf(path, sizeof path, "files[%u]/crc", (unsigned)i);
                FY_DIAG_ERR(e->offset, path, "meg-crc", "stored CRC-32 0x%08X, but the name '%s' gives 0x%08X", (unsigned)e->crc,
                            e->name, (unsigned)crc);
            }
        }
        if (i > 0 && e->crc < m->entries[i - 1].crc) {
            snprintf(path, sizeof path, "files[%u]/crc", (unsigned)i);
            FY_DIAG_ERR(e->offset, path, "meg-order",
                        "records not sorted by CRC-32 (0x%08X after 0x%08X): the game looks names up by binary search",
                        (unsigned)e->crc, (unsigned)m->entries[i - 1].crc);
        }
        if ((uint64_t)e->start + e->size > m->archive_size) {
            snprintf(path, sizeof path, "files[%u]/size", (unsigned)i);
            FY_DIAG_ERR(e->offset, path, "meg-bounds", "entry [%u, %llu) ends past the archive's %zu bytes", (unsigned)e->start,
                        (unsigned long long)e->start + e->size, m->archive_size);
        } else if (e->size && e->start < m->tables_end) {
            snprintf(path, sizeof path, "files[%u]/start", (unsigned)i);
            FY_DIAG_ERR(e->offset, path, "meg-bounds", "entry starts at %u, inside the tables (which end at %zu)",
                        (unsigned)e->start, m->tables_end);
        }
        if (spans) spans[i] = (span){e->start, e->size, i};
    }
    /* Two records of one name (ignoring case, '/' as '\'): the game finds one. */
    uint32_t *order = m->entry_count ? malloc(2 * (size_t)m->entry_count * sizeof *order) : NULL;
    if (order) {
        size_t n = 0;
        for (uint32_t i = 0; i < m->entry_count; i++)
            if (m->entries[i].name) order[n++] = i;
        fy_meg_sort(order, order + m->entry_count, n, name_cmp, m);
        for (size_t k = 1; k < n; k++)
            if (name_cmp(m, order[k - 1], order[k]) == 0) {
                snprintf(path, sizeof path, "files[%u]/name", (unsigned)order[k]);
                FY_DIAG_WARN(m->entries[order[k]].offset, path, "meg-name-duplicate",
                             "name '%s' is also files[%u]'s (case and slashes ignored): the game finds only one",
                             m->entries[order[k]].name, (unsigned)order[k - 1]);
            }
        free(order);
    }
    if (spans) {
        qsort(spans, m->entry_count, sizeof *spans, by_start);
        uint64_t end = 0;
        uint32_t last = 0;
        for (uint32_t k = 0; k < m->entry_count; k++) {
            const span *s = &spans[k];
            if (s->size && k > 0 && s->start < end) {
                snprintf(path, sizeof path, "files[%u]/start", (unsigned)s->file);
                FY_DIAG_WARN(m->entries[s->file].offset, path, "meg-overlap", "entry overlaps files[%u]", (unsigned)last);
            }
            if (s->size && (uint64_t)s->start + s->size > end) {
                end = (uint64_t)s->start + s->size;
                last = s->file;
            }
        }
        free(spans);
    } else if (m->entry_count) {
        FY_DIAG_ERR(FERRY_NO_OFFSET, "files", "out-of-memory", "cannot check overlaps: out of memory");
    }
    return errors;
}
