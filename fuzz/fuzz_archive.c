/* libFuzzer target: archives read through a caller's reader
 * (ferry_archive_from_reader) and their tables read from a head
 * (ferry_meg_read_head, ferry_pbo_read_head).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - the tables read from a growing head (as the format asks) give what
 *    ferry_X_read gives over the whole input: the same result, the same
 *    error (message, offset, record) or the same tables; each request asks
 *    for more than the head holds and no more than the input;
 *  - an archive opened through a reader (short reads of a size the input
 *    chooses) has the entries, prefix and entry bytes (or the same errors'
 *    codes) of the archive opened from the bytes; the reader is asked only
 *    for bytes inside the input, and to open, for at most the first 64 KiB
 *    or twice the tables;
 *  - its file source lists the root and loads what it lists. */
#include <ferry/archive.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_archive: %s\n", what);
    abort();
}

typedef struct reader {
    const uint8_t *data;
    size_t size, most;
    uint64_t given;
} reader;

static int64_t read_at(void *user, uint64_t offset, size_t size, void *buffer)
{
    reader *r = user;
    if (offset > r->size || size > r->size - offset) fail("the reader was asked for bytes past the input");
    size_t n = size < r->most ? size : r->most;
    memcpy(buffer, r->data + offset, n);
    r->given += n;
    return (int64_t)n;
}

/* The head protocol against the whole reader, for one format. */
static void check_head(const uint8_t *data, size_t size, bool meg, size_t start)
{
    ferry_error we, he;
    void *whole = NULL, *head = NULL;
    ferry_result rw = meg ? ferry_meg_read(data, size, NULL, (ferry_meg **)&whole, &we)
                          : ferry_pbo_read(data, size, NULL, (ferry_pbo **)&whole, &we);
    size_t have = start < size ? start : size;
    ferry_result rh;
    for (;;) {
        uint64_t need = 0;
        rh = meg ? ferry_meg_read_head(data, have, size, NULL, &need, (ferry_meg **)&head, &he)
                 : ferry_pbo_read_head(data, have, size, NULL, &need, (ferry_pbo **)&head, &he);
        if (rh != FERRY_OK || head) break;
        if (need <= have || need > size) fail("a head asks for no more bytes, or for more than the input");
        have = (size_t)need;
    }
    if (rh != rw) fail("the head and the whole input read differently");
    if (rh != FERRY_OK &&
        (strcmp(he.message, we.message) != 0 || he.offset != we.offset || strcmp(he.path, we.path) != 0))
        fail("the head and the whole input fail differently");
    if (head) {
        size_t h_end = meg ? ((ferry_meg *)head)->tables_end : ((ferry_pbo *)head)->tables_end;
        size_t w_end = meg ? ((ferry_meg *)whole)->tables_end : ((ferry_pbo *)whole)->tables_end;
        size_t hn = meg ? ((ferry_meg *)head)->entry_count : ((ferry_pbo *)head)->entry_count;
        size_t wn = meg ? ((ferry_meg *)whole)->entry_count : ((ferry_pbo *)whole)->entry_count;
        if (h_end != w_end || hn != wn) fail("the head's tables differ from the whole's");
    }
    if (meg) {
        ferry_meg_free(head);
        ferry_meg_free(whole);
    } else {
        ferry_pbo_free(head);
        ferry_pbo_free(whole);
    }
}

typedef struct visit {
    const ferry_file_source *src;
    int loaded;
} visit;

static bool load_each(void *ctx, const char *name, ferry_entry_kind kind)
{
    visit *v = ctx;
    if (kind != FERRY_ENTRY_FILE || v->loaded >= 8) return v->loaded < 8;
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_source_load(v->src, name, 1u << 20, &data, &size, &err) == FERRY_OK) {
        ferry_file_source_release(v->src, data, size);
        v->loaded++;
    } else if (!err.message[0]) {
        fail("a load failed without a message");
    }
    return true;
}

/* Through a reader and from the bytes, named `name` (its extension picks
 * the format of content that has none). */
static void check_reader(const uint8_t *data, size_t size, const char *name, size_t most)
{
    reader r = {data, size, most, 0};
    ferry_archive_reader rd = {read_at, &r, size, NULL};
    ferry_archive_options o = {.name = name};
    ferry_archive *a = NULL, *b = NULL;
    ferry_error err;
    ferry_result ra = ferry_archive_from_reader(&rd, &o, &a, &err);
    if (ra != FERRY_OK && (a || !err.message[0])) fail("a failed open without a message, or with an archive");
    if (!a) return;
    uint64_t opened = r.given;
    /* The same from the bytes: its format, read as an asset. */
    ferry_asset *asset = NULL;
    ferry_asset_options ao = {.format = ferry_archive_format(a), .name = name};
    if (ferry_asset_read(data, size, &ao, &asset, &err) != FERRY_OK) fail("read through a reader, not from the bytes");
    if (ferry_archive_from_asset(asset, &b, &err) != FERRY_OK) fail("an asset of an archive is no archive");
    size_t tables_end = ferry_archive_format(a) == FERRY_FORMAT_MEG ? ((const ferry_meg *)ferry_archive_object(b))->tables_end
                                                                   : ((const ferry_pbo *)ferry_archive_object(b))->tables_end;
    size_t first = size < 65536 ? size : 65536;
    if (opened > first && opened > 2 * (uint64_t)tables_end) fail("the open read past what the tables need");
    size_t count = ferry_archive_entry_count(a);
    if (count != ferry_archive_entry_count(b)) fail("entry counts differ");
    const char *pa = ferry_archive_prefix(a), *pb = ferry_archive_prefix(b);
    if ((!pa) != (!pb) || (pa && strcmp(pa, pb) != 0)) fail("prefixes differ");
    for (size_t i = 0; i < count && i < 16; i++) {
        const ferry_archive_entry *x = ferry_archive_entry_at(a, i), *y = ferry_archive_entry_at(b, i);
        if (x->name_length != y->name_length || x->size != y->size || x->start != y->start ||
            x->stored_size != y->stored_size || x->compressed != y->compressed)
            fail("entries differ");
        uint8_t *p = NULL, *q = NULL;
        size_t n = 0, m = 0;
        ferry_error e1, e2;
        ferry_result r1 = ferry_archive_read_entry(a, i, 1u << 20, &p, &n, &e1);
        ferry_result r2 = ferry_archive_read_entry(b, i, 1u << 20, &q, &m, &e2);
        if ((r1 == FERRY_OK) != (r2 == FERRY_OK)) fail("an entry reads one way only");
        if (r1 == FERRY_OK && (n != m || memcmp(p, q, n) != 0)) fail("an entry's bytes differ");
        if (r1 != FERRY_OK && (!e1.message[0] || p)) fail("an entry failed without a message");
        free(p);
        free(q);
    }
    visit v = {ferry_archive_source(a), 0};
    (void)ferry_file_source_list(v.src, "", load_each, &v, &err);
    ferry_archive_free(a);
    ferry_archive_free(b);
    ferry_asset_free(asset);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The first byte chooses the first head's size and the reads' size. */
    size_t start = size ? (size_t)data[0] * 3 : 0, most = size ? 1 + data[size - 1] % 64 : 1;
    check_head(data, size, true, start);
    check_head(data, size, false, start);
    check_reader(data, size, "fuzz.meg", most);
    check_reader(data, size, "fuzz.pbo", SIZE_MAX);
    return 0;
}
