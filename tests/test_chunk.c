/* The generic chunk tree: reading, paths, mini-chunks, writing. */
#include <ferry/alo.h>
#include <ferry/alamo_chunk.h>

#include "core/core.h"
#include "support.h"
#include "test.h"

static void put_chunk(ferry_buffer *b, uint32_t type, uint32_t size, bool container)
{
    fy_buf_u32le(b, type);
    fy_buf_u32le(b, size | (container ? 0x80000000u : 0));
}

static void test_tree(void)
{
    ferry_buffer b = {0};
    put_chunk(&b, 0x200, 8 + 4 + 8 + 0, true); /* container: one data child, one empty container */
    put_chunk(&b, 0x201, 4, false);
    fy_buf_u32le(&b, 42);
    put_chunk(&b, 0x202, 0, true);
    put_chunk(&b, 0x601, 6, false); /* two mini-chunks: 01/1 byte, 04/1 byte */
    const uint8_t minis[] = {1, 1, 9, 4, 1, 3};
    fy_buf_append(&b, minis, sizeof minis);
    ferry_chunk_tree *tree;
    ferry_error err;
    CHECK(ferry_alamo_chunk_read(b.data, b.size, NULL, &tree, &err) == FERRY_OK);
    CHECK_EQ_U(tree->root_count, 2);
    const ferry_chunk *skel = &tree->roots[0];
    CHECK(skel->is_container && skel->child_count == 2);
    CHECK_EQ_U(skel->children[0].offset, 8);
    CHECK_EQ_U(skel->children[0].size, 4);
    char path[96];
    ferry_alamo_chunk_path(&skel->children[1], path, sizeof path);
    CHECK(strcmp(path, "0x200/0x202") == 0);
    ferry_mini_chunk m[4];
    size_t n;
    CHECK(ferry_alamo_mini_chunks_parse(&tree->roots[1], m, 4, &n, &err) == FERRY_OK);
    CHECK_EQ_U(n, 2);
    CHECK(m[0].type == 1 && m[0].size == 1 && m[0].data[0] == 9);
    CHECK(m[1].type == 4 && m[1].offset == tree->roots[1].offset + 8 + 3);
    CHECK(ferry_alamo_mini_chunks_plausible(&tree->roots[1]));
    /* Writing recomputes sizes and reproduces the input. */
    ferry_buffer out = {0};
    CHECK(ferry_alamo_chunk_write(tree->roots, tree->root_count, &out, &err) == FERRY_OK);
    CHECK(out.size == b.size && memcmp(out.data, b.data, b.size) == 0);
    ferry_buffer_free(&out);
    ferry_alamo_chunk_free(tree);

    /* A size that overruns the parent: located at the child, path names it. */
    fy_buf_put_u32le_at(&b, 12, 13); /* 0x201 claims 13 bytes; its parent's body ends 12 bytes after it */
    CHECK(ferry_alamo_chunk_read(b.data, b.size, NULL, &tree, &err) != FERRY_OK);
    CHECK_EQ_U(err.offset, 8);
    CHECK(strcmp(err.path, "0x200/0x201") == 0);
    ferry_buffer_free(&b);
}

static void test_bad_input(void)
{
    ferry_chunk_tree *tree;
    ferry_error err;
    CHECK(ferry_alamo_chunk_read((const uint8_t *)"", 0, NULL, &tree, &err) == FERRY_ERR_TRUNCATED);
    const uint8_t seven[7] = {0};
    CHECK(ferry_alamo_chunk_read(seven, 7, NULL, &tree, &err) == FERRY_ERR_TRUNCATED);
    CHECK_EQ_U(err.offset, 0);
    /* Nesting deeper than the limit is refused, not recursed into. */
    ferry_buffer b = {0};
    int depth = FERRY_CHUNK_MAX_DEPTH + 5;
    for (int i = 0; i < depth; i++) put_chunk(&b, 0x100 + (uint32_t)i, (uint32_t)(8 * (depth - 1 - i)), true);
    CHECK(ferry_alamo_chunk_read(b.data, b.size, NULL, &tree, &err) == FERRY_ERR_LIMIT);
    CHECK(strstr(err.message, "deeper") != NULL);
    ferry_buffer_free(&b);
    /* A mini-chunk running past its chunk. */
    put_chunk(&b, 0x603, 3, false);
    const uint8_t bad[] = {5, 9, 'a'};
    fy_buf_append(&b, bad, 3);
    CHECK(ferry_alamo_chunk_read(b.data, b.size, NULL, &tree, &err) == FERRY_OK);
    size_t n;
    CHECK(ferry_alamo_mini_chunks_parse(&tree->roots[0], NULL, 0, &n, &err) == FERRY_ERR_TRUNCATED);
    CHECK_EQ_U(err.offset, 8);
    CHECK(!ferry_alamo_mini_chunks_plausible(&tree->roots[0]));
    ferry_alamo_chunk_free(tree);
    ferry_buffer_free(&b);
    /* A memory limit too small for the chunk records fails cleanly. */
    for (int i = 0; i < 2000; i++) put_chunk(&b, 1, 0, false);
    ferry_read_options opts = {1024};
    CHECK(ferry_alamo_chunk_read(b.data, b.size, &opts, &tree, &err) == FERRY_ERR_LIMIT);
    ferry_buffer_free(&b);
    /* Many tiny records: a file of empty chunks (8 bytes each) is refused by
     * the record budget (one per 16 input bytes, plus 4,096) after counting,
     * with no limit set and before a record is allocated. */
    size_t zeros_size = (size_t)1 << 20;
    uint8_t *zeros = calloc(1, zeros_size);
    CHECK(zeros != NULL);
    if (zeros) {
        CHECK(ferry_alamo_chunk_read(zeros, zeros_size, NULL, &tree, &err) == FERRY_ERR_LIMIT);
        CHECK(strstr(err.message, "131072 more chunk records would pass the budget of 69632") != NULL);
        /* The same inside a container: counted over the whole tree. */
        put_chunk(&b, 0x200, (uint32_t)(zeros_size - 8), true);
        memcpy(zeros, b.data, 8);
        CHECK(ferry_alamo_chunk_read(zeros, zeros_size, NULL, &tree, &err) == FERRY_ERR_LIMIT);
        CHECK_EQ_U(err.offset, 8);
        ferry_buffer_free(&b);
        free(zeros);
    }
    /* Within the budget: one empty chunk per 16 bytes reads. */
    for (int i = 0; i < 8192; i++) {
        put_chunk(&b, 1, 8, false);
        fy_buf_zeros(&b, 8);
    }
    CHECK(ferry_alamo_chunk_read(b.data, b.size, NULL, &tree, &err) == FERRY_OK);
    ferry_alamo_chunk_free(tree);
    ferry_buffer_free(&b);
}

/* crate.alo with a chunk 0x10106 of `body` bytes (made of `mini` repeated)
 * inserted after its last material parameter, the containers grown. */
static uint8_t *crate_with_minis(size_t body, const uint8_t *mini, size_t mini_size, size_t *size)
{
    size_t crate_size = 0;
    uint8_t *crate = test_read_file(FERRY_SOURCE_DIR "/samples/alamo/crate.alo", &crate_size);
    if (!crate || crate_size != 9571) {
        free(crate);
        return NULL;
    }
    const size_t at = 0x303, mesh = 0x19e, material = 0x23c;
    *size = crate_size + 8 + body;
    uint8_t *out = malloc(*size);
    if (!out) {
        free(crate);
        return NULL;
    }
    memcpy(out, crate, at);
    const uint32_t type = 0x10106, body32 = (uint32_t)body;
    for (int i = 0; i < 4; i++) {
        out[at + i] = (uint8_t)(type >> (8 * i));
        out[at + 4 + i] = (uint8_t)(body32 >> (8 * i));
    }
    for (size_t i = 0; i < body; i++) out[at + 8 + i] = mini[i % mini_size];
    memcpy(out + at + 8 + body, crate + at, crate_size - at);
    for (size_t c = 0; c < 2; c++) {
        size_t off = c ? material : mesh;
        uint32_t raw = fy_load_u32le(out + off + 4) + (uint32_t)(8 + body);
        for (int i = 0; i < 4; i++) out[off + 4 + i] = (uint8_t)(raw >> (8 * i));
    }
    free(crate);
    return out;
}

/* Many tiny mini-chunks: refused by the reader's budget (one per 6 input
 * bytes, plus 4,096) after counting, not held as records. */
static void test_mini_budget(void)
{
    const uint8_t empty[2] = {0, 0}, six[6] = {0, 4, 0, 0, 0, 0};
    size_t size;
    ferry_alo_model *m = NULL;
    ferry_error err;
    uint8_t *data = crate_with_minis((size_t)1 << 20, empty, 2, &size);
    CHECK(data != NULL);
    if (data) {
        CHECK(ferry_alo_read(data, size, NULL, &m, &err) == FERRY_ERR_LIMIT);
        CHECK_MSG(strstr(err.message, "524288 more mini-chunk records would pass the budget") != NULL, "%s", err.message);
        CHECK(strcmp(err.path, "0x400/0x10100/0x10106") == 0);
        free(data);
    }
    /* At one per 6 bytes the budget holds; the file fails for what it is. */
    data = crate_with_minis(6 * 100000, six, 6, &size);
    CHECK(data != NULL);
    if (data) {
        CHECK(ferry_alo_read(data, size, NULL, &m, &err) == FERRY_ERR_MALFORMED);
        CHECK_MSG(strstr(err.message, "budget") == NULL, "%s", err.message);
        free(data);
    }
}

int main(void)
{
    test_tree();
    test_bad_input();
    test_mini_budget();
    TEST_END();
}
