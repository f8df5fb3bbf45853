/* libFuzzer target: the MEG reader, writer, validator and file source.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input and names a record;
 *  - an archive that reads writes back byte for byte;
 *  - every entry's data pointer, when set, lies inside the input;
 *  - validation reports with rules, located inside the input or nowhere;
 *  - the file source lists the root and loads what it lists;
 *  - the read names and sizes, packed again (ferry_meg_pack_tables), give
 *    tables that read back with every record in CRC order, its CRC right
 *    and its name and size those given; each name read as a path gives a
 *    stored name or a refusal with a message. */
#include <ferry/meg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_meg: %s\n", what);
    abort();
}

typedef struct visit {
    const ferry_file_source *src;
    int loaded;
} visit;

static bool load_each(void *ctx, const char *name, ferry_entry_kind kind)
{
    visit *v = ctx;
    if (kind != FERRY_ENTRY_FILE || v->loaded >= 16) return v->loaded < 16;
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_source_path_ok(name) && ferry_file_source_load(v->src, name, 0, &data, &size, &err) == FERRY_OK) {
        ferry_file_source_release(v->src, data, size);
        v->loaded++;
    }
    return true;
}

static void repack(const ferry_meg *m)
{
    size_t n = m->entry_count < 64 ? m->entry_count : 64;
    ferry_meg_pack_entry e[64];
    size_t order[64], k = 0;
    ferry_error err;
    for (size_t i = 0; i < n; i++) {
        const ferry_meg_entry *f = &m->entries[i];
        if (!f->name || !f->name_length) continue;
        e[k++] = (ferry_meg_pack_entry){f->name, f->name_length, f->size % 64};
        char out[4096];
        size_t len;
        char *path = malloc((size_t)f->name_length + 1);
        if (!path) continue;
        memcpy(path, f->name, (size_t)f->name_length + 1); /* stops at a NUL inside: a shorter path */
        if (ferry_meg_name_from_path(path, out, sizeof out, &len, &err) != FERRY_OK && !err.message[0])
            fail("a refused path without a message");
        free(path);
    }
    for (uint32_t f = 1; f <= 3; f++) {
        ferry_buffer t = {0};
        ferry_meg_pack_options o = {f};
        if (ferry_meg_pack_tables(e, k, &o, &t, order, &err) != FERRY_OK) {
            if (!err.message[0]) fail("a refused pack without a message");
            ferry_buffer_free(&t);
            continue;
        }
        uint64_t total = t.size;
        for (size_t i = 0; i < k; i++) total += e[i].size;
        uint8_t *a = calloc((size_t)total + 1, 1);
        if (!a) fail("out of memory");
        memcpy(a, t.data, t.size);
        ferry_meg *back;
        if (ferry_meg_read(a, (size_t)total, NULL, &back, &err) != FERRY_OK) fail("a packed archive does not read");
        if (back->format != f || back->entry_count != k || back->tables_end != t.size) fail("packed header wrong");
        for (uint32_t i = 0; i < back->entry_count; i++) {
            const ferry_meg_entry *r = &back->entries[i];
            const ferry_meg_pack_entry *g = &e[order[i]];
            if (r->name_length != g->name_length || memcmp(r->name, g->name, g->name_length) != 0 || r->size != g->size)
                fail("packed record is not the entry given");
            if (r->crc != ferry_meg_crc32(g->name, g->name_length)) fail("packed CRC wrong");
            if (i && r->crc < back->entries[i - 1].crc) fail("packed records out of CRC order");
            if (!r->data) fail("packed entry outside the archive");
        }
        ferry_meg_free(back);
        free(a);
        ferry_buffer_free(&t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_meg *m;
    ferry_error err;
    if (ferry_meg_read(data, size, NULL, &m, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0] || !err.path[0])
            fail("error without a location inside the input");
        return 0;
    }
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const ferry_meg_entry *e = &m->entries[i];
        if (e->data && (e->data < data || (size_t)(e->data - data) + e->size > size)) fail("entry outside the input");
    }
    ferry_buffer out = {0};
    if (ferry_meg_write(m, &out, &err) != FERRY_OK) fail("a read archive does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");
    ferry_buffer_free(&out);

    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_meg_validate(m, NULL, &d);
    for (size_t i = 0; i < d.count; i++) {
        if (!d.items[i].rule[0]) fail("diagnostic without a rule");
        if (d.items[i].offset != FERRY_NO_OFFSET && d.items[i].offset > size) fail("diagnostic outside the input");
    }
    ferry_diagnostics_free(&d);

    ferry_file_source src;
    if (ferry_file_source_meg(m, &src, &err) == FERRY_OK) {
        visit v = {&src, 0};
        (void)ferry_file_source_list(&src, "", load_each, &v, &err);
        ferry_file_source_close(&src);
    }
    repack(m);
    ferry_meg_free(m);
    return 0;
}
