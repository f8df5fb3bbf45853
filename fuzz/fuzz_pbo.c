/* libFuzzer target: the PBO reader, writer, validator, entry decoding and
 * file source.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input and names a record;
 *  - an archive that reads writes back byte for byte, its table alone as
 *    the input's first tables_end bytes;
 *  - every entry's data pointer, when set, lies inside the input;
 *  - decoding an entry either succeeds with its stated size or fails with
 *    a located message;
 *  - validation reports with rules, located inside the input or nowhere;
 *  - the file source lists the root and loads what it lists. */
#include <ferry/pbo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_pbo: %s\n", what);
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
    if (ferry_file_source_path_ok(name) &&
        ferry_file_source_load(v->src, name, 1u << 20, &data, &size, &err) == FERRY_OK) {
        ferry_file_source_release(v->src, data, size);
        v->loaded++;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_pbo *m;
    ferry_error err;
    if (ferry_pbo_read(data, size, NULL, &m, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0] || !err.path[0])
            fail("error without a location inside the input");
        return 0;
    }
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        if (e->data && (e->data < data || (size_t)(e->data - data) + e->size > size)) fail("entry outside the input");
        if (i < 16) {
            uint8_t *bytes = NULL;
            size_t n = 0;
            if (ferry_pbo_entry_bytes(m, i, 1u << 20, &bytes, &n, &err) == FERRY_OK) {
                size_t want = e->method == FERRY_PBO_METHOD_COMPRESSED ? e->original_size : e->size;
                if (n != want) fail("decoded size differs from the stated one");
                free(bytes);
            } else if (bytes || !err.message[0] || (err.offset != FERRY_NO_OFFSET && err.offset > size)) {
                fail("entry decoding failed without a located message");
            }
        }
    }
    ferry_buffer out = {0};
    if (ferry_pbo_write(m, &out, &err) != FERRY_OK) fail("a read archive does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");
    ferry_buffer_free(&out);
    /* The table alone: the input's first tables_end bytes. */
    if (ferry_pbo_write_tables(m, &out, &err) != FERRY_OK) fail("a read archive's table does not write");
    if (out.size != m->tables_end || memcmp(out.data, data, out.size) != 0) fail("the table is not the input's");
    ferry_buffer_free(&out);

    /* Compressed entries are decoded by validation: keep them small. */
    bool small = true;
    for (size_t i = 0; i < m->entry_count; i++)
        if (m->entries[i].method == FERRY_PBO_METHOD_COMPRESSED && m->entries[i].original_size > (1u << 20)) small = false;
    if (small) {
        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        ferry_pbo_validate(m, NULL, &d);
        for (size_t i = 0; i < d.count; i++) {
            if (!d.items[i].rule[0]) fail("diagnostic without a rule");
            if (d.items[i].offset != FERRY_NO_OFFSET && d.items[i].offset > size) fail("diagnostic outside the input");
        }
        ferry_diagnostics_free(&d);
    }

    ferry_file_source src;
    if (ferry_file_source_pbo(m, &src, &err) == FERRY_OK) {
        visit v = {&src, 0};
        (void)ferry_file_source_list(&src, "", load_each, &v, &err);
        ferry_file_source_close(&src);
    }
    ferry_pbo_free(m);
    return 0;
}
