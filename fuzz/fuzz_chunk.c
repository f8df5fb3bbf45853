/* libFuzzer target: the generic chunk reader and writer.
 *
 * Beyond "no crash": a failed read must locate its error inside the input,
 * and a tree that reads must write back to the very same bytes (it covers
 * the input exactly and sizes are recomputed from it), which must read
 * again into the same shape. Any breach aborts, so libFuzzer keeps it. */
#include <ferry/alamo_chunk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_chunk: %s\n", what);
    abort();
}

static void require_located(const ferry_error *err, size_t size)
{
    if (err->code == FERRY_OK || err->offset == FERRY_NO_OFFSET || err->offset > size || !err->message[0])
        fail("error without a location inside the input");
}

static void same_shape(const ferry_chunk *a, const ferry_chunk *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].type != b[i].type || a[i].is_container != b[i].is_container || a[i].size != b[i].size ||
            a[i].offset != b[i].offset || a[i].child_count != b[i].child_count)
            fail("re-read tree differs in shape");
        if (a[i].is_container)
            same_shape(a[i].children, b[i].children, a[i].child_count);
        else if (a[i].size && memcmp(a[i].data, b[i].data, a[i].size) != 0)
            fail("re-read tree differs in a body");
    }
}

/* Paths and mini-chunk splitting run on every chunk the fuzzer can shape. */
static void walk(const ferry_chunk *list, size_t n, const uint8_t *input, size_t size)
{
    for (size_t i = 0; i < n; i++) {
        const ferry_chunk *c = &list[i];
        char path[96];
        ferry_alamo_chunk_path(c, path, sizeof path);
        if (!path[0]) fail("empty chunk path");
        if (c->offset + 8 + c->size > size || c->data != input + c->offset + 8) fail("chunk outside the input");
        if (c->is_container) {
            walk(c->children, c->child_count, input, size);
            continue;
        }
        ferry_mini_chunk items[64];
        size_t count;
        ferry_error err;
        if (ferry_alamo_mini_chunks_parse(c, items, 64, &count, &err) == FERRY_OK) {
            if (!ferry_alamo_mini_chunks_plausible(c) && c->size) fail("parse and plausible disagree");
            for (size_t k = 0; k < count && k < 64; k++)
                if (items[k].data + items[k].size > c->data + c->size) fail("mini-chunk outside its chunk");
        } else {
            require_located(&err, size);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_chunk_tree *tree;
    ferry_error err;
    if (ferry_alamo_chunk_read(data, size, NULL, &tree, &err) != FERRY_OK) {
        require_located(&err, size);
        return 0;
    }
    walk(tree->roots, tree->root_count, data, size);

    ferry_buffer out = {0};
    if (ferry_alamo_chunk_write(tree->roots, tree->root_count, &out, &err) != FERRY_OK) fail("a read tree does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");

    ferry_chunk_tree *again;
    if (ferry_alamo_chunk_read(out.data, out.size, NULL, &again, &err) != FERRY_OK) fail("written bytes do not read");
    if (again->root_count != tree->root_count) fail("re-read tree has a different root count");
    same_shape(tree->roots, again->roots, tree->root_count);

    ferry_alamo_chunk_free(again);
    ferry_buffer_free(&out);
    ferry_alamo_chunk_free(tree);
    return 0;
}
