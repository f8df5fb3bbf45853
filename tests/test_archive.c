/* ferry_archive: MEG and PBO behind one handle (archive.h). Archives packed
 * here from a temporary folder (ferry_archive_pack: MEG formats 1-3, PBO,
 * read back and validated; a PBO packed equals ferry_pbo_pack's bytes),
 * opened from an asset and through a reader (the same entries and bytes;
 * readers that give short reads, fail or end early), the tables read from
 * a head equal to the whole reader's for every cut and corruption of the
 * archives, hostile names extracted into a temporary folder (nothing
 * written outside it), patterns against fnmatch, places. */
#ifndef _WIN32
#define _GNU_SOURCE /* symlink, mkfifo, FNM_CASEFOLD */
#endif
#include "support.h"
#include "test.h"

#include <ferry/archive.h>

#include "engine/archive_internal.h"

#include "core/platform.h"

#ifndef _WIN32
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* ---- files ---- */

static void write_file(const char *dir, const char *rel, const void *data, size_t n)
{
    test_make_dir(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    /* The folders on the way. */
    for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        test_make_dir(path);
        *s = '/';
    }
    /* Through the platform layer: its names are UTF-8 on Windows too. */
    ferry_error err;
    CHECK_MSG(ferry_file_write(path, data, n, NULL, &err) == FERRY_OK, "%s: %s", path, err.message);
}

/* How many entries the folder tree holds (links not followed). */
static size_t count_tree(const char *dir)
{
    fy_folder *d = NULL;
    if (fy_folder_open(dir, &d) != 0) return 0;
    size_t n = 0;
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) {
        n++;
        char path[2048];
        fy_file_info info;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (fy_path_info(path, false, &info) == 0 && info.kind == FY_KIND_FOLDER) n += count_tree(path);
    }
    fy_folder_close(d);
    return n;
}

/* The source folder: a few files in folders, one empty, one of 300 KB
 * (past the reader's first read), one named with Latin-1's é in UTF-8. */
static uint8_t big[300000];

static void make_source(const char *dir)
{
    uint64_t s = 42;
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)test_xorshift(&s);
    write_file(dir, "Data/Art/Models/ship.alo", "model", 5);
    write_file(dir, "Data/XML/units.xml", "<x/>", 4);
    write_file(dir, "Data/zero.txt", "", 0);
    write_file(dir, "big.bin", big, sizeof big);
    write_file(dir, "caf\xc3\xa9.txt", "u", 1);
    write_file(dir, ".hidden", "h", 1);
}

/* ---- messages ---- */

typedef struct said {
    size_t count;
    char rules[64][32];
    char lines[64][2048];
} said;

static void collect(void *user, const ferry_message *m)
{
    said *s = user;
    if (s->count < 64) {
        snprintf(s->rules[s->count], sizeof s->rules[0], "%s", m->rule ? m->rule : "");
        snprintf(s->lines[s->count], sizeof s->lines[0], "%s: %s", m->file ? m->file : "", m->text);
    }
    s->count++;
}

static bool said_rule(const said *s, const char *rule, const char *part)
{
    for (size_t i = 0; i < s->count && i < 64; i++)
        if (strcmp(s->rules[i], rule) == 0 && (!part || strstr(s->lines[i], part))) return true;
    return false;
}

/* ---- readers ---- */

typedef struct memory_reader {
    const uint8_t *data;
    size_t size;
    size_t most;      /* most bytes one call gives (short reads) */
    uint64_t fail_at; /* a read touching this offset fails (UINT64_MAX: none) */
    uint64_t end_at;  /* the reader gives nothing from here on (a file cut short) */
    size_t calls;
    uint64_t given;
    bool closed;
} memory_reader;

static int64_t memory_read(void *user, uint64_t offset, size_t size, void *buffer)
{
    memory_reader *r = user;
    r->calls++;
    if (offset >= r->end_at || offset >= r->size) return 0;
    size_t n = size;
    if (n > r->size - offset) n = (size_t)(r->size - offset);
    if (n > r->most) n = r->most;
    if (n > r->end_at - offset) n = (size_t)(r->end_at - offset);
    if (r->fail_at >= offset && r->fail_at < offset + n) return -1;
    memcpy(buffer, r->data + offset, n);
    r->given += n;
    return (int64_t)n;
}

static void memory_close(void *user) { ((memory_reader *)user)->closed = true; }

static memory_reader reader_over(const uint8_t *data, size_t size)
{
    memory_reader r = {data, size, SIZE_MAX, UINT64_MAX, UINT64_MAX, 0, 0, false};
    return r;
}

/* The same entries, and the same bytes for each. */
static void check_same(const ferry_archive *a, const ferry_archive *b)
{
    CHECK_EQ_U(ferry_archive_entry_count(a), ferry_archive_entry_count(b));
    CHECK(ferry_archive_format(a) == ferry_archive_format(b));
    CHECK_EQ_U(ferry_archive_size(a), ferry_archive_size(b));
    for (size_t i = 0; i < ferry_archive_entry_count(a) && i < ferry_archive_entry_count(b); i++) {
        const ferry_archive_entry *x = ferry_archive_entry_at(a, i), *y = ferry_archive_entry_at(b, i);
        CHECK(x->name_length == y->name_length && (!x->name) == (!y->name));
        CHECK(!x->name || memcmp(x->name, y->name, x->name_length) == 0);
        CHECK(x->size == y->size && x->stored_size == y->stored_size && x->start == y->start &&
              x->offset == y->offset && x->compressed == y->compressed);
        uint8_t *p = NULL, *q = NULL;
        size_t n = 0, m = 0;
        ferry_error e1, e2;
        ferry_result r1 = ferry_archive_read_entry(a, i, 0, &p, &n, &e1);
        ferry_result r2 = ferry_archive_read_entry(b, i, 0, &q, &m, &e2);
        CHECK_MSG(r1 == r2, "entry %zu: %s / %s", i, e1.message, e2.message);
        CHECK(r1 != FERRY_OK || (n == m && memcmp(p, q, n) == 0));
        free(p);
        free(q);
    }
    CHECK(ferry_archive_entry_at(a, ferry_archive_entry_count(a)) == NULL);
}

/* Opens `path` from its asset and through a reader over its bytes (in
 * pieces of `most`): both must agree. */
static void check_reader(const char *path, size_t most)
{
    ferry_archive *a = NULL, *b = NULL;
    ferry_error err;
    CHECK_MSG(ferry_archive_open(path, NULL, &a, &err) == FERRY_OK, "%s: %s", path, err.message);
    if (!a) return;
    size_t size = 0;
    const uint8_t *data = ferry_asset_bytes(ferry_archive_asset(a), &size);
    memory_reader mr = reader_over(data, size);
    mr.most = most;
    ferry_archive_reader reader = {memory_read, &mr, size, memory_close};
    ferry_archive_options o = {.name = path};
    CHECK_MSG(ferry_archive_from_reader(&reader, &o, &b, &err) == FERRY_OK, "%s: %s", path, err.message);
    if (b) {
        CHECK(ferry_archive_asset(b) == NULL);
        CHECK(strcmp(ferry_archive_name(b), path) == 0);
        /* Only the tables were read (and 64 KiB at most before them). */
        CHECK_MSG(mr.given <= 65536 || mr.given < size, "%s: %llu of %zu bytes read to open", path,
                  (unsigned long long)mr.given, size);
        CHECK((ferry_archive_prefix(a) == NULL) == (ferry_archive_prefix(b) == NULL));
        CHECK(!ferry_archive_prefix(a) || strcmp(ferry_archive_prefix(a), ferry_archive_prefix(b)) == 0);
        check_same(a, b);
        /* The source lists through the format's own source and loads
         * through the reader. */
        const ferry_file_source *s = ferry_archive_source(b);
        for (size_t i = 0; i < ferry_archive_entry_count(b); i++) {
            const ferry_archive_entry *e = ferry_archive_entry_at(b, i);
            char p[1024];
            if (!e->name || e->name_length >= sizeof p) continue;
            if (ferry_archive_entry_path(e->name, e->name_length, p, sizeof p, &err) != FERRY_OK) continue;
            uint8_t *bytes = NULL;
            size_t n = 0;
            if (ferry_file_source_load(s, p, 0, &bytes, &n, &err) == FERRY_OK) {
                CHECK_EQ_U(n, e->size);
                ferry_file_source_release(s, bytes, n);
            }
        }
        ferry_archive_free(b);
        CHECK(mr.closed);
    }
    ferry_archive_free(a);
}

/* ---- pack, and read back ---- */

static void check_pack_read_back(const char *src, const char *dir)
{
    static const struct {
        ferry_format format;
        uint32_t meg;
        const char *name;
    } kinds[] = {{FERRY_FORMAT_MEG, 1, "p1.meg"}, {FERRY_FORMAT_MEG, 2, "p2.meg"}, {FERRY_FORMAT_MEG, 3, "p3.meg"},
                 {FERRY_FORMAT_PBO, 0, "p.pbo"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char out[2048];
        snprintf(out, sizeof out, "%s/%s", dir, kinds[k].name);
        said s = {0};
        ferry_pack_options o = {.meg_format = kinds[k].meg, .message = collect, .user = &s};
        if (kinds[k].format == FERRY_FORMAT_PBO) o.prefix = "x\\my_addon";
        ferry_pack_report report;
        ferry_error err;
        CHECK_MSG(ferry_archive_pack(out, src, &o, &report, &err) == FERRY_OK, "%s: %s", out, err.message);
        CHECK(report.format == kinds[k].format && report.failed_at == FERRY_PACK_DONE);
        CHECK_EQ_U(report.packed, 5); /* .hidden left out */
        CHECK_EQ_U(report.refused, 0);
        CHECK_EQ_U(report.bytes, 5 + 4 + 0 + sizeof big + 1);
        CHECK_EQ_U(s.count, 0);
        ferry_archive *a = NULL;
        CHECK_MSG(ferry_archive_open(out, NULL, &a, &err) == FERRY_OK, "%s: %s", out, err.message);
        if (!a) continue;
        CHECK(ferry_archive_format(a) == kinds[k].format);
        CHECK_EQ_U(ferry_archive_entry_count(a), 5);
        if (kinds[k].format == FERRY_FORMAT_MEG) {
            const ferry_meg *m = ferry_archive_object(a);
            CHECK_EQ_U(m->format, kinds[k].meg);
            CHECK(ferry_archive_prefix(a) == NULL);
        } else {
            CHECK(strcmp(ferry_archive_prefix(a), "x\\my_addon") == 0);
        }
        /* Each entry holds its file's bytes, under the format's name. */
        bool found_big = false, found_latin1 = false;
        for (size_t i = 0; i < ferry_archive_entry_count(a); i++) {
            const ferry_archive_entry *e = ferry_archive_entry_at(a, i);
            uint8_t *bytes = NULL;
            size_t n = 0;
            CHECK(ferry_archive_read_entry(a, i, 0, &bytes, &n, &err) == FERRY_OK);
            if (e->name_length == 7 && strncasecmp(e->name, "big.bin", 7) == 0) {
                found_big = n == sizeof big && memcmp(bytes, big, n) == 0;
                /* A limit below its size is refused before anything is read. */
                uint8_t *none = NULL;
                CHECK(ferry_archive_read_entry(a, i, 1000, &none, &n, &err) == FERRY_ERR_LIMIT && !none);
            }
            const char *cafe = kinds[k].format == FERRY_FORMAT_MEG ? "CAF\xe9.TXT" : "caf\xc3\xa9.txt";
            if (e->name_length == strlen(cafe) && memcmp(e->name, cafe, e->name_length) == 0) found_latin1 = true;
            if (kinds[k].format == FERRY_FORMAT_MEG && e->name_length == 0) CHECK(0);
            free(bytes);
        }
        CHECK(found_big);
        CHECK_MSG(found_latin1, "%s", out);
        /* Valid, the entries checked too. */
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_asset_validate(ferry_archive_asset(a), NULL, &d), 0);
        CHECK_EQ_U(d.warning_count, 0);
        ferry_diagnostics_free(&d);
        ferry_archive_free(a);
        check_reader(out, SIZE_MAX);
        check_reader(out, 7); /* short reads throughout */
    }
}

/* The pack streams: the same bytes as ferry_pbo_pack of the same files
 * held in memory (names, bytes and the timestamps it stored). */
static void check_pbo_streams(const char *dir)
{
    char out[2048];
    snprintf(out, sizeof out, "%s/p.pbo", dir);
    ferry_archive *a = NULL;
    ferry_error err;
    if (ferry_archive_open(out, NULL, &a, &err) != FERRY_OK) {
        CHECK(0);
        return;
    }
    const ferry_pbo *pbo = ferry_archive_object(a);
    size_t count = pbo->entry_count;
    ferry_pbo_pack_file files[8];
    uint8_t *bytes[8] = {0};
    char names[8][64];
    CHECK(count <= 8);
    /* In the reverse order: the packer sorts them. */
    for (size_t i = 0; i < count && i < 8; i++) {
        size_t k = count - 1 - i, n = 0;
        const ferry_pbo_entry *e = &pbo->entries[k];
        CHECK(ferry_pbo_entry_bytes(pbo, k, 0, &bytes[i], &n, &err) == FERRY_OK);
        snprintf(names[i], sizeof names[i], "%.*s", (int)e->name_length, e->name);
        for (char *c = names[i]; *c; c++)
            if (*c == '\\') *c = '/';
        files[i] = (ferry_pbo_pack_file){names[i], bytes[i], n, e->timestamp};
    }
    ferry_pbo_pack_options po = {.prefix = "x\\my_addon"};
    ferry_buffer mem = {0};
    CHECK(ferry_pbo_pack(files, count, &po, &mem, &err) == FERRY_OK);
    size_t size = 0;
    const uint8_t *streamed = ferry_asset_bytes(ferry_archive_asset(a), &size);
    CHECK_EQ_U(mem.size, size);
    CHECK(mem.size == size && memcmp(mem.data, streamed, size) == 0);
    CHECK(pbo->has_checksum && memcmp(pbo->checksum, pbo->computed, FERRY_PBO_SHA1_SIZE) == 0);
    /* The table alone is what ferry_pbo_pack wrote before the bytes. */
    ferry_buffer tables = {0};
    size_t order[8];
    CHECK(ferry_pbo_pack_tables(files, count, &po, &tables, order, &err) == FERRY_OK);
    CHECK_EQ_U(tables.size, pbo->tables_end);
    CHECK(memcmp(tables.data, streamed, tables.size) == 0);
    for (size_t k = 0; k < count; k++) CHECK_EQ_U(order[k], count - 1 - k); /* sorted back */
    ferry_buffer_free(&tables);
    ferry_buffer_free(&mem);
    for (size_t i = 0; i < 8; i++) free(bytes[i]);

    /* The same files packed from a list: the same archive. */
    char src_path[8][4096];
    ferry_pack_file list[8];
    char src[2048];
    snprintf(src, sizeof src, "%s/../src", dir);
    for (size_t i = 0; i < count; i++) {
        snprintf(src_path[i], sizeof src_path[i], "%s/%s", src, names[i]);
        list[i] = (ferry_pack_file){src_path[i], names[i]};
    }
    char again[2048];
    snprintf(again, sizeof again, "%s/list.pbo", dir);
    ferry_pack_options o = {.prefix = "x\\my_addon", .files = list, .file_count = count};
    ferry_pack_report report;
    CHECK(ferry_archive_pack(again, NULL, &o, &report, &err) == FERRY_OK);
    uint8_t *b = NULL;
    size_t bn = 0;
    CHECK(ferry_file_load(again, 0, &b, &bn, &err) == FERRY_OK);
    CHECK(bn == size && b && memcmp(b, streamed, size) == 0);
    ferry_file_free(b);
    ferry_archive_free(a);
}

static void check_pack_refusals(const char *dir)
{
    char src[2048], out[2048];
    snprintf(src, sizeof src, "%s/bad", dir);
    write_file(src, "good.txt", "ok", 2);
    write_file(src, "\xc4\x80.txt", "x", 1); /* U+0100: no MEG name */
#ifdef _WIN32
    /* Two names equal but for case are one file on Windows; a FIFO is not a
     * file of a folder there. */
    TEST_NOT_ON_WINDOWS("test_archive: packing refuses a FIFO and two files whose names differ only in case (neither can be made in a Windows folder)");
    const size_t clash = 0, fifos = 0;
#else
    write_file(src, "sub/same.txt", "1", 1);
    write_file(src, "sub/SAME.TXT", "2", 1);
    char fifo[2100];
    snprintf(fifo, sizeof fifo, "%s/pipe", src);
    CHECK(mkfifo(fifo, 0644) == 0);
    const size_t clash = 2, fifos = 1;
#endif
    snprintf(out, sizeof out, "%s/bad.meg", dir);
    said s = {0};
    ferry_pack_options o = {.message = collect, .user = &s};
    ferry_pack_report report;
    ferry_error err;
    CHECK(ferry_archive_pack(out, src, &o, &report, &err) == FERRY_OK);
    CHECK_EQ_U(report.packed, 1);
    CHECK_EQ_U(report.refused, 1 + clash + fifos);
    CHECK(said_rule(&s, "name", "U+0100"));
#ifndef _WIN32
    CHECK(said_rule(&s, "file-kind", "pipe: not packed: not a regular file"));
    CHECK(said_rule(&s, "name-case", "same.txt"));
    CHECK(said_rule(&s, "name-case", "SAME.TXT"));
#endif
    /* As a PBO the name is fine; the clash is not. */
    snprintf(out, sizeof out, "%s/bad.pbo", dir);
    memset(&s, 0, sizeof s);
    CHECK(ferry_archive_pack(out, src, &o, &report, &err) == FERRY_OK);
    CHECK_EQ_U(report.packed, 2);
    CHECK_EQ_U(report.refused, clash + fifos);
    /* What is wrong with the call: said before anything is read. */
    CHECK(ferry_archive_pack(out, "/nonexistent/folder", &o, &report, &err) == FERRY_ERR_ARGUMENT);
    CHECK(report.failed_at == FERRY_PACK_ARGUMENTS);
    snprintf(out, sizeof out, "%s/x.zip", dir);
    CHECK(ferry_archive_pack(out, src, &o, &report, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_archive_pack(dir, src, &(ferry_pack_options){.format = FERRY_FORMAT_MEG}, &report, &err) ==
          FERRY_ERR_ARGUMENT); /* OUT a folder */
    snprintf(out, sizeof out, "%s/y.meg", dir);
    CHECK(ferry_archive_pack(out, src, &(ferry_pack_options){.prefix = "p"}, &report, &err) == FERRY_ERR_ARGUMENT);
    CHECK(!test_path_exists(out));
#ifndef _WIN32
    remove(fifo);
#endif
}

/* ---- readers that fail ---- */

static void check_bad_readers(const char *dir)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/p2.meg", dir);
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK(data != NULL);
    if (!data) return;
    ferry_archive *a = NULL;
    ferry_error err;
    /* A failed read while the tables are read: the open fails, located. */
    memory_reader mr = reader_over(data, size);
    mr.fail_at = 30;
    ferry_archive_reader reader = {memory_read, &mr, size, memory_close};
    CHECK(ferry_archive_from_reader(&reader, NULL, &a, &err) == FERRY_ERR_IO && !a);
    CHECK(err.offset != FERRY_NO_OFFSET && strstr(err.message, "reader failed"));
    CHECK(!mr.closed); /* the caller's still */
    /* A file that ends before the size it was said to have. */
    mr = reader_over(data, size);
    mr.end_at = 20;
    CHECK(ferry_archive_from_reader(&reader, NULL, &a, &err) == FERRY_ERR_TRUNCATED && !a);
    /* A reader that gives more than it was asked for. */
    /* (cannot be made with memcpy safely: covered by the check in read_at) */
    /* Opened fine, then an entry's read fails: that entry's error only. */
    mr = reader_over(data, size);
    mr.fail_at = size - 10; /* inside the last bytes: big.bin or another entry */
    CHECK(ferry_archive_from_reader(&reader, NULL, &a, &err) == FERRY_OK);
    size_t failed = 0;
    for (size_t i = 0; a && i < ferry_archive_entry_count(a); i++) {
        uint8_t *bytes = NULL;
        size_t n;
        if (ferry_archive_read_entry(a, i, 0, &bytes, &n, &err) != FERRY_OK) {
            failed++;
            CHECK(err.code == FERRY_ERR_IO && !bytes);
        }
        free(bytes);
    }
    CHECK_EQ_U(failed, 1);
    ferry_archive_free(a);
    CHECK(mr.closed);
    /* Not an archive: named as what it is. */
    static const uint8_t odol[] = "ODOL\x28\x00\x00\x00 and some more bytes";
    mr = reader_over(odol, sizeof odol);
    reader.size = sizeof odol;
    CHECK(ferry_archive_from_reader(&reader, NULL, &a, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "not an archive ferry reads (MEG, PBO)") != NULL);
    free(data);
}

/* ---- heads: the same answer as the whole ---- */

/* ferry_X_read_head, asked until it has what it needs, against ferry_X_read
 * over the same bytes: the same result, error and tables. */
static void check_head(const uint8_t *data, size_t size, bool meg)
{
    ferry_error whole_err, head_err;
    void *whole = NULL, *head = NULL;
    ferry_result rw = meg ? ferry_meg_read(data, size, NULL, (ferry_meg **)&whole, &whole_err)
                          : ferry_pbo_read(data, size, NULL, (ferry_pbo **)&whole, &whole_err);
    size_t have = size < 16 ? size : 16;
    ferry_result rh;
    for (int rounds = 0;; rounds++) {
        uint64_t need = 0;
        rh = meg ? ferry_meg_read_head(data, have, size, NULL, &need, (ferry_meg **)&head, &head_err)
                 : ferry_pbo_read_head(data, have, size, NULL, &need, (ferry_pbo **)&head, &head_err);
        if (rh != FERRY_OK || head) break;
        CHECK_MSG(need > have && need <= size, "need %llu with %zu of %zu", (unsigned long long)need, have, size);
        if (need <= have || need > size || rounds > 64) break;
        have = (size_t)need;
    }
    CHECK_MSG(rh == rw, "%s: head %d, whole %d (%s / %s)", meg ? "MEG" : "PBO", rh, rw,
              rh ? head_err.message : "", rw ? whole_err.message : "");
    if (rh != FERRY_OK && rw != FERRY_OK) {
        CHECK_MSG(strcmp(head_err.message, whole_err.message) == 0 && head_err.offset == whole_err.offset &&
                      strcmp(head_err.path, whole_err.path) == 0,
                  "'%s' at %llu vs '%s' at %llu", head_err.message, (unsigned long long)head_err.offset,
                  whole_err.message, (unsigned long long)whole_err.offset);
    }
    if (head && whole) {
        if (meg) {
            const ferry_meg *h = head, *w = whole;
            CHECK(h->entry_count == w->entry_count && h->tables_end == w->tables_end && h->format == w->format);
            for (uint32_t i = 0; i < h->entry_count && i < w->entry_count; i++)
                CHECK(h->entries[i].start == w->entries[i].start && h->entries[i].size == w->entries[i].size &&
                      h->entries[i].name_length == w->entries[i].name_length);
        } else {
            const ferry_pbo *h = head, *w = whole;
            CHECK(h->entry_count == w->entry_count && h->tables_end == w->tables_end &&
                  h->property_count == w->property_count);
            for (size_t i = 0; i < h->entry_count && i < w->entry_count; i++)
                CHECK(h->entries[i].start == w->entries[i].start && h->entries[i].size == w->entries[i].size &&
                      h->entries[i].name_length == w->entries[i].name_length);
        }
    }
    if (meg) {
        ferry_meg_free(head);
        ferry_meg_free(whole);
    } else {
        ferry_pbo_free(head);
        ferry_pbo_free(whole);
    }
}

static void check_heads(const char *dir)
{
    static const char *const names[] = {"p1.meg", "p2.meg", "p3.meg", "p.pbo"};
    for (size_t k = 0; k < 4; k++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        size_t size = 0;
        uint8_t *data = test_read_file(path, &size);
        CHECK(data != NULL);
        if (!data) continue;
        bool meg = k < 3;
        /* The tables end before big.bin's bytes: every cut up to a little
         * past them, and a few inside the data. */
        size_t tables_end = 0;
        if (meg) {
            ferry_meg *m = NULL;
            if (ferry_meg_read(data, size, NULL, &m, NULL) == FERRY_OK) tables_end = m->tables_end;
            ferry_meg_free(m);
        } else {
            ferry_pbo *p = NULL;
            if (ferry_pbo_read(data, size, NULL, &p, NULL) == FERRY_OK) tables_end = p->tables_end;
            ferry_pbo_free(p);
        }
        CHECK(tables_end > 0);
        for (size_t cut = 0; cut <= tables_end + 64 && cut <= size; cut++) check_head(data, cut, meg);
        check_head(data, size, meg);
        /* Corruptions of the tables: one byte at a time, a few values. */
        uint64_t s = 7 + k;
        for (int i = 0; i < 400; i++) {
            size_t at = (size_t)(test_xorshift(&s) % (tables_end + 8));
            uint8_t keep = data[at];
            data[at] = (uint8_t)test_xorshift(&s);
            check_head(data, size, meg);
            data[at] = keep;
        }
        free(data);
    }
}

/* ---- extract ---- */

typedef struct meg_name {
    const char *name;
    const char *data;
} meg_name;

/* A MEG of format 1 with these names, built byte by byte (records not in
 * the game's order: extraction does not need it). */
static void build_meg(const meg_name *n, size_t count, ferry_buffer *out)
{
    uint8_t b[4096];
    size_t at = 0, names = 0;
    for (size_t i = 0; i < count; i++) names += 2 + strlen(n[i].name);
    uint32_t data = (uint32_t)(8 + names + 20 * count);
#define U16(v) (b[at++] = (uint8_t)(v), b[at++] = (uint8_t)((v) >> 8))
#define U32(v) (U16((v) & 0xFFFF), U16((uint32_t)(v) >> 16))
    U32(count);
    U32(count);
    for (size_t i = 0; i < count; i++) {
        U16(strlen(n[i].name));
        memcpy(b + at, n[i].name, strlen(n[i].name));
        at += strlen(n[i].name);
    }
    for (size_t i = 0; i < count; i++) {
        U32(0);
        U32(i);
        U32(strlen(n[i].data));
        U32(data);
        U32(i);
        data += (uint32_t)strlen(n[i].data);
    }
    for (size_t i = 0; i < count; i++) {
        memcpy(b + at, n[i].data, strlen(n[i].data));
        at += strlen(n[i].data);
    }
#undef U16
#undef U32
    out->size = 0;
    out->data = malloc(at);
    if (out->data) memcpy(out->data, b, at);
    out->size = at;
}

static void check_extract(const char *dir)
{
    static const meg_name hostile[] = {
        {"..\\..\\evil.txt", "evil"}, {"/abs.txt", "abs"},    {"C:\\drive.txt", "drive"},
        {"a\\..\\b.txt", "dots"},     {"a\\\\b.txt", "empty"}, {"", "none"},
        {"GOOD.TXT", "ok"},           {"Dir\\Same.txt", "1"},  {"DIR\\SAME.TXT", "2"},
        {"LINK\\x.txt", "through a link"}, {"Data\\ART\\keep.txt", "kept"},
    };
    size_t count = sizeof hostile / sizeof hostile[0];
    ferry_buffer meg = {0};
    build_meg(hostile, count, &meg);
    char top[1024], inner[1100], path[1200];
    snprintf(top, sizeof top, "%s/x", dir);
    snprintf(inner, sizeof inner, "%s/out", top);
    CHECK(test_make_dir(top) && test_make_dir(inner));
    snprintf(path, sizeof path, "%s/elsewhere", top);
    CHECK(test_make_dir(path));
    /* OUT/LINK is a link to a folder outside OUT. */
    char link[1200];
    snprintf(link, sizeof link, "%s/LINK", inner);
#ifdef _WIN32
    /* A file named LINK stands in: it is refused by the same rule. */
    TEST_NOT_ON_WINDOWS("test_archive: OUT/LINK a symbolic link to a folder outside OUT (links need a privilege on Windows; a file named LINK stands in)");
    CHECK(ferry_file_write(link, "x", 1, NULL, NULL) == FERRY_OK);
#else
    CHECK(symlink(path, link) == 0);
#endif
    snprintf(path, sizeof path, "%s/hostile.meg", top);
    CHECK(ferry_file_write(path, meg.data, meg.size, NULL, NULL) == FERRY_OK);
    size_t before = count_tree(top);

    ferry_archive *a = NULL;
    ferry_error err;
    CHECK(ferry_archive_open(path, NULL, &a, &err) == FERRY_OK);
    said s = {0};
    ferry_extract_options o = {.message = collect, .user = &s};
    ferry_extract_report report;
    CHECK(a && ferry_archive_extract(a, inner, &o, &report, &err) == FERRY_OK);
    CHECK_EQ_U(report.extracted, 2); /* GOOD.TXT, Data/ART/keep.txt */
    CHECK_EQ_U(report.refused, 9);
    CHECK_EQ_U(report.selected, 5);
    CHECK(said_rule(&s, "entry-name", "files[0] '..\\..\\evil.txt' not extracted: its name has an empty, '.' or '..' segment"));
    CHECK(said_rule(&s, "entry-name", "its name is an absolute path"));
    CHECK(said_rule(&s, "entry-name", "its name starts with a drive letter"));
    CHECK(said_rule(&s, "entry-name", "files[5] '' not extracted: its name is empty"));
    CHECK(said_rule(&s, "entry-case", "equal but for case"));
    CHECK(said_rule(&s, "entry-folder", "LINK\\x.txt' not extracted: a folder on its path is a link or not a folder"));
    /* Written: two files and the folders Data and Data/ART; nothing else anywhere. */
    CHECK_EQ_U(count_tree(top), before + 4);
    snprintf(path, sizeof path, "%s/GOOD.TXT", inner);
    CHECK(test_path_exists(path));
    snprintf(path, sizeof path, "%s/Data/ART/keep.txt", inner);
    CHECK(test_path_exists(path));
    snprintf(path, sizeof path, "%s/elsewhere/x.txt", top);
    CHECK(!test_path_exists(path));

    /* Patterns: '\' as '/', case ignored; entries they leave out are not tried. */
    memset(&s, 0, sizeof s);
    const char *patterns[] = {"data\\art\\*"};
    ferry_extract_options po = {.patterns = patterns, .pattern_count = 1, .message = collect, .user = &s};
    snprintf(path, sizeof path, "%s/p", top);
    CHECK(ferry_archive_extract(a, path, &po, &report, &err) == FERRY_OK);
    CHECK_EQ_U(report.selected, 1);
    CHECK_EQ_U(report.extracted, 1);
    CHECK_EQ_U(report.refused, 6); /* the names that could lead out are named whatever the patterns */
    /* OUT a file: refused as an argument. */
    snprintf(path, sizeof path, "%s/hostile.meg", top);
    CHECK(ferry_archive_extract(a, path, NULL, &report, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, "exists and is not a folder") != NULL);
    /* The archive itself is never written over, even by an entry. (The
     * first archive is closed first: Windows replaces no file in use.) */
    ferry_archive_free(a);
    a = NULL;
    static const meg_name self[] = {{"hostile.meg", "overwrite"}};
    ferry_buffer m2 = {0};
    build_meg(self, 1, &m2);
    snprintf(path, sizeof path, "%s/hostile.meg", top);
    ferry_archive *b = NULL;
    CHECK(ferry_file_write(path, m2.data, m2.size, NULL, NULL) == FERRY_OK);
    CHECK(ferry_archive_open(path, NULL, &b, &err) == FERRY_OK);
    memset(&s, 0, sizeof s);
    CHECK(b && ferry_archive_extract(b, top, &o, &report, &err) == FERRY_OK);
    CHECK_EQ_U(report.refused, 1);
    CHECK(said_rule(&s, "write-error", NULL));
    ferry_archive_free(b);
    ferry_buffer_free(&m2);
    ferry_archive_free(a);
    ferry_buffer_free(&meg);
}

/* ---- names and patterns ---- */

static void check_entry_paths(void)
{
    char out[64];
    ferry_error err;
    CHECK(ferry_archive_entry_path("A\\B\\c.txt", 9, out, sizeof out, &err) == FERRY_OK && strcmp(out, "A/B/c.txt") == 0);
    CHECK(ferry_archive_entry_path("a/b", 3, out, 3, &err) == FERRY_ERR_ARGUMENT); /* no room for the NUL */
    static const struct {
        const char *name;
        size_t n;
        const char *why;
    } bad[] = {{NULL, 0, "out of range"},     {"", 0, "empty"},           {"a\0b", 3, "NUL"},
               {"C:x", 3, "drive letter"},     {"\\x", 2, "absolute"},     {"/x", 2, "absolute"},
               {"a//b", 4, "segment"},         {"a\\.\\b", 5, "segment"},  {"..", 2, "segment"},
               {"a/", 2, "segment"},           {"a\\..", 4, "segment"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(ferry_archive_entry_path(bad[i].name, bad[i].n, out, sizeof out, &err) == FERRY_ERR_MALFORMED);
        CHECK_MSG(strstr(err.message, bad[i].why) != NULL, "%zu: %s", i, err.message);
    }
    CHECK(ferry_archive_entry_path("..a", 3, out, sizeof out, &err) == FERRY_OK); /* a plain name */
}

/* fy_glob_match against fnmatch(FNM_CASEFOLD) on names and patterns made
 * of a small alphabet, so that they meet often. */
static void check_patterns(void)
{
#ifdef _WIN32
    TEST_NOT_ON_WINDOWS("test_archive: the pattern matcher against fnmatch (Windows has no fnmatch; the same code is compared on Linux)");
#else
    static const char alpha[] = "aB/.x*?[]!-^:=";
    uint64_t s = 99;
    size_t differ = 0;
    for (int i = 0; i < 200000; i++) {
        char pattern[12], name[10];
        size_t pl = (size_t)(test_xorshift(&s) % 10), nl = (size_t)(test_xorshift(&s) % 9);
        for (size_t k = 0; k < pl; k++) pattern[k] = alpha[test_xorshift(&s) % (sizeof alpha - 1)];
        pattern[pl] = 0;
        for (size_t k = 0; k < nl; k++) name[k] = "aAbB/.xX-"[test_xorshift(&s) % 9];
        name[nl] = 0;
        bool want = fnmatch(pattern, name, FNM_CASEFOLD) == 0, got = fy_glob_match(pattern, name);
        if (want != got && differ++ < 10) fprintf(stderr, "pattern '%s' name '%s': fnmatch %d, ferry %d\n", pattern, name, want, got);
    }
    CHECK_EQ_U(differ, 0);
#endif
    CHECK(fy_glob_match("data/art/*", "DATA/ART/MODELS/X.ALO"));
    CHECK(fy_glob_match("*.[a-c]lo", "x.ALO"));
    CHECK(fy_glob_match("[[:digit:]]*", "1.txt") && !fy_glob_match("[[:digit:]]*", "a.txt"));
    CHECK(!fy_glob_match("*.alo", "x.ala"));
#ifndef _WIN32
    /* Classes, collating symbols and equivalence classes, as fnmatch has them. */
    static const char *const cases[][2] = {{"[[:upper:]]", "a"}, {"[[:upper:]]", "A"}, {"[[:lower:]]", "A"},
                                           {"[[:foo:]a]", "a"}, {"[a-[.z.]]", "m"}, {"[[.-.]]", "-"},
                                           {"[[=x=]]", "X"}, {"[[=x=]]", "x"}, {"[[.x.]]", "X"}, {"[a-[.z.]]", "M"}, {"[[=x=]-z]", "y"}, {"[a[.]", "a"}, {"[[.ab.]]", "a"}, {"[[:alp]", "a"},
                                           {"[[:space:][:digit:]]x", "7x"}, {"[!]", "!"}, {"[]-a]", "]"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_MSG(fy_glob_match(cases[i][0], cases[i][1]) == (fnmatch(cases[i][0], cases[i][1], FNM_CASEFOLD) == 0),
                  "'%s' '%s'", cases[i][0], cases[i][1]);
#endif
}

/* ---- places ---- */

static void check_places(const char *src, const char *dir)
{
    ferry_places *p = ferry_places_new();
    ferry_error err;
    char path[2048];
    snprintf(path, sizeof path, "%s/p.pbo", dir);
    const ferry_place *a = ferry_places_open(p, path, &err), *b = ferry_places_open(p, path, &err);
    CHECK(a && a == b && a->archive && strcmp(a->prefix, "x\\my_addon") == 0);
    CHECK(a && strcmp(a->source->label, path) == 0);
    const ferry_place *f = ferry_places_open(p, src, &err);
    CHECK(f && !f->archive && !f->prefix && f == ferry_places_folder(p, src, &err));
    uint8_t *bytes = NULL;
    size_t n = 0;
    CHECK(a && ferry_file_source_load(a->source, "Data/XML/units.xml", 0, &bytes, &n, &err) == FERRY_OK && n == 4);
    if (bytes) ferry_file_source_release(a->source, bytes, n);
    /* A PBO without a prefix is mounted at its file name. */
    snprintf(path, sizeof path, "%s/bad.pbo", dir);
    const ferry_place *c = ferry_places_open(p, path, &err);
    CHECK(c && c->prefix && strcmp(c->prefix, "bad") == 0);
    snprintf(path, sizeof path, "%s/p1.meg", dir);
    c = ferry_places_open(p, path, &err);
    CHECK(c && c->archive && !c->prefix);
    /* Neither. */
    snprintf(path, sizeof path, "%s/big.bin", src);
    CHECK(ferry_places_open(p, path, &err) == NULL && err.code == FERRY_ERR_UNSUPPORTED);
    CHECK(strcmp(err.message, "neither a folder nor an archive ferry reads (MEG, PBO)") == 0);
    ferry_place_kind kind;
    CHECK(ferry_places_kind(path, &kind, &err) == FERRY_OK && kind == FERRY_PLACE_NONE);
    CHECK(ferry_places_kind(src, &kind, &err) == FERRY_OK && kind == FERRY_PLACE_FOLDER);
    snprintf(path, sizeof path, "%s/p3.meg", dir);
    CHECK(ferry_places_kind(path, &kind, &err) == FERRY_OK && kind == FERRY_PLACE_ARCHIVE);
    /* The system's own words (they differ between systems). */
    CHECK(ferry_places_kind("/nonexistent/x", &kind, &err) == FERRY_ERR_IO && err.message[0]);
    ferry_places_free(p);
}

/* An entry as an asset: its format told by content, its name ARCHIVE:NAME. */
static void check_open_entry(const char *dir)
{
    char src[2048], out[2048];
    snprintf(src, sizeof src, "%s/models", dir);
    size_t n = 0;
    uint8_t *crate = test_read_file(FERRY_SOURCE_DIR "/samples/alamo/crate.alo", &n);
    CHECK(crate != NULL);
    if (!crate) return;
    write_file(src, "Models/crate.alo", crate, n);
    free(crate);
    snprintf(out, sizeof out, "%s/models.meg", dir);
    ferry_error err;
    CHECK(ferry_archive_pack(out, src, NULL, NULL, &err) == FERRY_OK);
    ferry_archive *a = NULL;
    CHECK(ferry_archive_open(out, NULL, &a, &err) == FERRY_OK);
    ferry_asset *e = NULL;
    CHECK(a && ferry_archive_open_entry(a, 0, NULL, &e, &err) == FERRY_OK);
    CHECK(e && ferry_asset_format(e) == FERRY_FORMAT_ALO_MODEL);
    char label[2100];
    snprintf(label, sizeof label, "%s:MODELS\\CRATE.ALO", out);
    CHECK(e && strcmp(ferry_asset_name(e), label) == 0);
    ferry_asset_free(e);
    CHECK(a && ferry_archive_open_entry(a, 1, NULL, &e, &err) == FERRY_ERR_ARGUMENT);
    ferry_archive_free(a);
}

int main(void)
{
    char dir[1024];
    if (!test_make_temp_dir("ferry-test-archive", dir, sizeof dir)) {
        fprintf(stderr, "no temporary folder\n");
        return 1;
    }
    char src[1100], packs[1100];
    snprintf(src, sizeof src, "%s/src", dir);
    snprintf(packs, sizeof packs, "%s/packs", dir);
    test_make_dir(packs);
    make_source(src);
    check_entry_paths();
    check_patterns();
    check_pack_read_back(src, packs);
    check_pbo_streams(packs);
    check_pack_refusals(packs);
    check_bad_readers(packs);
    check_heads(packs);
    check_extract(dir);
    check_places(src, packs);
    check_open_entry(dir);
    CHECK(test_remove_tree(dir));
    TEST_END();
}
