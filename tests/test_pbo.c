/* PBO archives: archives built here byte by byte from the layout in
 * docs/formats/pbo.md (independent of ferry's writer and packer), every
 * truncation, bad input (a name without its NUL, sizes past the end, a
 * wrong SHA-1, compressed entries whose streams lie), the packer, the file
 * source and the prefix. Real archives: test_pbo_corpus. */
#include "core/core.h"
#include "support.h"
#include "test.h"

#include <ferry/detect.h>
#include <ferry/pbo.h>

typedef struct bytes {
    uint8_t b[1024];
    size_t n;
} bytes;

static void u32(bytes *o, uint32_t v)
{
    for (int i = 0; i < 4; i++) o->b[o->n++] = (uint8_t)(v >> (8 * i));
}
static void raw(bytes *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void asciiz(bytes *o, const char *s) { raw(o, s, strlen(s) + 1); }
static void record(bytes *o, const char *name, uint32_t method, uint32_t original, uint32_t reserved, uint32_t time,
                   uint32_t size)
{
    asciiz(o, name);
    u32(o, method);
    u32(o, original);
    u32(o, reserved);
    u32(o, time);
    u32(o, size);
}
static void trailer(bytes *o)
{
    uint8_t d[20];
    ferry_pbo_sha1(o->b, o->n, d);
    o->b[o->n++] = 0;
    raw(o, d, 20);
}

/* "abcabcabc" in Bohemia's LZSS, worked out by hand: a flag byte 0x07
 * (three literals, then a reference), 'a' 'b' 'c', the reference 03 03
 * (distance 3, length 3 + 3), then the sum of the nine bytes, 882. */
static const uint8_t lzss_abc[10] = {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x72, 0x03, 0x00, 0x00};

/* A product entry with prefix and one more property, three entries (one
 * compressed), the terminator, the data, the trailer. */
static bytes build(void)
{
    bytes o = {{0}, 0};
    record(&o, "", 0x56657273u, 0, 0, 0, 0);
    asciiz(&o, "prefix");
    asciiz(&o, "x\\addon");
    asciiz(&o, "product");
    asciiz(&o, "test");
    asciiz(&o, "");
    record(&o, "config.cpp", 0, 5, 0, 1700000000u, 5);
    record(&o, "data\\Rock.paa", 0, 0, 0, 1700000001u, 3);
    record(&o, "data\\abc.txt", 0x43707273u, 9, 0, 0, 10);
    record(&o, "", 0, 0, 0, 0, 0);
    raw(&o, "class", 5);
    raw(&o, "PAA", 3);
    raw(&o, lzss_abc, sizeof lzss_abc);
    trailer(&o);
    return o;
}

static size_t count_rule(const ferry_pbo *m, ferry_severity sev, const char *rule)
{
    ferry_diagnostics d = {0};
    ferry_pbo_validate(m, NULL, &d);
    size_t n = 0;
    for (size_t i = 0; i < d.count; i++)
        if (d.items[i].severity == sev && (!rule || strcmp(d.items[i].rule, rule) == 0)) n++;
    ferry_diagnostics_free(&d);
    return n;
}

static void test_sha1(void)
{
    /* FIPS 180 test vector. */
    static const uint8_t abc[20] = {0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
                                    0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
    uint8_t d[20];
    ferry_pbo_sha1("abc", 3, d);
    CHECK(memcmp(d, abc, 20) == 0);
}

static void test_read(void)
{
    bytes a = build();
    CHECK(ferry_detect(a.b, a.n) == FERRY_FORMAT_PBO);
    ferry_pbo *m = NULL;
    ferry_error err;
    CHECK_MSG(ferry_pbo_read(a.b, a.n, NULL, &m, &err) == FERRY_OK, "%s", err.message);
    if (!m) return;
    CHECK(m->has_product_entry && m->property_count == 2);
    CHECK(strcmp(ferry_pbo_property_value(m, "prefix"), "x\\addon") == 0);
    CHECK(strcmp(ferry_pbo_property_value(m, "product"), "test") == 0);
    CHECK(strcmp(ferry_pbo_property_value(m, "PREFIX"), "x\\addon") == 0);
    CHECK(ferry_pbo_property_value(m, "prefi") == NULL);
    CHECK_EQ_U(m->entry_count, 3);
    CHECK(strcmp(m->entries[1].name, "data\\Rock.paa") == 0 && m->entries[1].timestamp == 1700000001u);
    /* 21 + 7 + 8 + 8 + 5 + 1 bytes before the first entry. */
    CHECK_EQ_U(m->entries[0].offset, 50);
    size_t table = 50 + 11 + 20 + 14 + 20 + 13 + 20 + 21;
    CHECK_EQ_U(m->tables_end, table);
    CHECK_EQ_U(m->entries[1].start, table + 5);
    CHECK(m->entries[0].data && memcmp(m->entries[0].data, "class", 5) == 0);
    CHECK_EQ_U(m->data_end, table + 18);
    CHECK(m->has_checksum && memcmp(m->checksum, m->computed, 20) == 0);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, NULL), 0);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, NULL), 0);
    uint8_t *bytes_ = NULL;
    size_t size = 0;
    CHECK(ferry_pbo_entry_bytes(m, 2, 0, &bytes_, &size, &err) == FERRY_OK);
    CHECK(size == 9 && bytes_ && memcmp(bytes_, "abcabcabc", 9) == 0);
    free(bytes_);
    CHECK(ferry_pbo_entry_bytes(m, 2, 8, &bytes_, &size, &err) == FERRY_ERR_LIMIT);
    ferry_buffer out = {0};
    CHECK(ferry_pbo_write(m, &out, &err) == FERRY_OK);
    CHECK(out.size == a.n && memcmp(out.data, a.b, a.n) == 0);
    ferry_buffer_free(&out);
    /* The table alone: the archive's first table_end bytes. */
    CHECK(ferry_pbo_write_tables(m, &out, &err) == FERRY_OK);
    CHECK(out.size == m->tables_end && memcmp(out.data, a.b, out.size) == 0);
    ferry_buffer_free(&out);
    /* The prefix, as texture lookups need it. */
    CHECK(strcmp(ferry_pbo_strip_prefix(m, "x\\addon\\data\\rock.paa"), "data\\rock.paa") == 0);
    CHECK(strcmp(ferry_pbo_strip_prefix(m, "\\X/ADDON/data/rock.paa"), "data/rock.paa") == 0);
    CHECK(ferry_pbo_strip_prefix(m, "x\\addon2\\data\\rock.paa") == NULL);
    CHECK(ferry_pbo_strip_prefix(m, "x\\addon") == NULL);
    ferry_pbo_free(m);
}

/* Odd bytes are kept: non-zero fields in the product entry and the
 * terminator, a reserved word, bytes after the SHA-1. */
static void test_odd_bytes(void)
{
    bytes o = {{0}, 0};
    record(&o, "", 0x56657273u, 1, 2, 3, 4);
    asciiz(&o, "");
    record(&o, "a.txt", 0, 0, 77, 0, 2);
    record(&o, "", 0, 0, 0, 9, 0);
    raw(&o, "hi", 2);
    trailer(&o);
    raw(&o, "xyz", 3);
    ferry_pbo *m = NULL;
    ferry_error err;
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (!m) return;
    CHECK(m->entries[0].reserved == 77 && m->terminator.timestamp == 9 && m->product.size == 4);
    ferry_buffer out = {0};
    CHECK(ferry_pbo_write(m, &out, &err) == FERRY_OK);
    CHECK(out.size == o.n && memcmp(out.data, o.b, o.n) == 0);
    ferry_buffer_free(&out);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, NULL), 0);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-product-fields"), 1);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-terminator-fields"), 1);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-prefix-missing"), 1);
    CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-trailer"), 1);
    ferry_pbo_free(m);
}

/* Every cut inside the table is a located read failure; cuts in the data
 * or the trailer read and are validation errors. */
static void test_truncations(void)
{
    bytes a = build();
    ferry_pbo *m = NULL;
    ferry_error err;
    CHECK(ferry_pbo_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    size_t table = m ? m->tables_end : 0, data_end = m ? (size_t)m->data_end : 0;
    ferry_pbo_free(m);
    for (size_t n = 0; n < a.n; n++) {
        ferry_result r = ferry_pbo_read(a.b, n, NULL, &m, &err);
        if (n < table) {
            CHECK_MSG(r == FERRY_ERR_TRUNCATED && m == NULL, "cut at %zu: %d", n, (int)r);
            CHECK_MSG(err.offset <= n && err.path[0], "cut at %zu: offset %llu path '%s'", n,
                      (unsigned long long)err.offset, err.path);
        } else {
            CHECK_MSG(r == FERRY_OK, "cut at %zu: %s", n, err.message);
            /* Cut right after the data: an archive without a trailer, as OFP's. */
            if (m && n == data_end)
                CHECK(count_rule(m, FERRY_SEVERITY_ERROR, NULL) == 0 &&
                      count_rule(m, FERRY_SEVERITY_WARNING, "pbo-checksum-missing") == 1);
            else if (m)
                CHECK_MSG(count_rule(m, FERRY_SEVERITY_ERROR, NULL) > 0, "cut at %zu", n);
            ferry_pbo_free(m);
        }
    }
    /* A name without its NUL: the archive ends inside it. */
    bytes o = {{0}, 0};
    raw(&o, "config.cpp", 10);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK_MSG(err.offset == 0 && strcmp(err.path, "entries[0]") == 0 && strstr(err.message, "NUL"), "%llu %s %s",
              (unsigned long long)err.offset, err.path, err.message);
    /* A property without its NUL. */
    o.n = 0;
    record(&o, "", 0x56657273u, 0, 0, 0, 0);
    asciiz(&o, "prefix");
    raw(&o, "x\\y", 3);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK_MSG(err.offset == 28 && strcmp(err.path, "properties[0]/value") == 0, "%llu %s",
              (unsigned long long)err.offset, err.path);
}

static void test_bad_input(void)
{
    ferry_pbo *m = NULL;
    ferry_error err;
    /* A size past the end: read, the entry has no data, an error names it. */
    bytes o = {{0}, 0};
    record(&o, "a.txt", 0, 0, 0, 0, 2);
    record(&o, "b.txt", 0, 0, 0, 0, 1000);
    record(&o, "", 0, 0, 0, 0, 0);
    raw(&o, "hi", 2);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        CHECK(m->entries[0].data && !m->entries[1].data);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, "pbo-bounds"), 1);
        uint8_t *b = NULL;
        size_t n;
        CHECK(ferry_pbo_entry_bytes(m, 1, 0, &b, &n, &err) == FERRY_ERR_TRUNCATED && b == NULL);
        ferry_pbo_free(m);
    }
    /* A wrong SHA-1: read, then a validation error at the stored digest. */
    bytes a = build();
    a.b[a.n - 1] ^= 1;
    CHECK(ferry_pbo_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, "pbo-checksum"), 1);
        ferry_diagnostics d = {0};
        ferry_pbo_validate(m, NULL, &d);
        CHECK(d.count >= 1 && d.items[0].offset == a.n - 20);
        ferry_diagnostics_free(&d);
        ferry_buffer out = {0};
        CHECK(ferry_pbo_write(m, &out, &err) == FERRY_OK && out.size == a.n && memcmp(out.data, a.b, a.n) == 0);
        ferry_buffer_free(&out);
        ferry_pbo_free(m);
    }
    /* A data byte changed: the SHA-1 no longer matches. */
    a = build();
    a.b[a.n - 25] ^= 1;
    CHECK(ferry_pbo_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, "pbo-checksum"), 1);
    ferry_pbo_free(m);
    /* No trailer (OFP): a warning. Junk after the data: an error. */
    o.n = 0;
    record(&o, "a.txt", 0, 0, 0, 0, 2);
    record(&o, "", 0, 0, 0, 0, 0);
    raw(&o, "hi", 2);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (m) CHECK(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-checksum-missing") == 1 && count_rule(m, FERRY_SEVERITY_ERROR, NULL) == 0);
    ferry_pbo_free(m);
    raw(&o, "\x01junk", 5);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (m) CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, "pbo-trailer"), 1);
    ferry_pbo_free(m);
    /* Compressed entries whose streams lie. */
    struct {
        uint32_t original, size;
        uint8_t stream[12];
        const char *what;
    } lies[] = {
        {9, 10, {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x73, 0x03, 0x00, 0x00}, "wrong checksum"},
        {12, 10, {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x72, 0x03, 0x00, 0x00}, "original size beyond the stream"},
        {9, 12, {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x72, 0x03, 0x00, 0x00, 0, 0}, "bytes after the checksum"},
        {9, 8, {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x72, 0x03}, "checksum cut"},
        {1000, 10, {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x72, 0x03, 0x00, 0x00}, "original size past 9 x the stream"},
    };
    for (size_t k = 0; k < sizeof lies / sizeof lies[0]; k++) {
        o.n = 0;
        record(&o, "x.bin", 0x43707273u, lies[k].original, 0, 0, lies[k].size);
        record(&o, "", 0, 0, 0, 0, 0);
        size_t start = o.n;
        raw(&o, lies[k].stream, lies[k].size);
        trailer(&o);
        CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
        if (!m) continue;
        CHECK_MSG(count_rule(m, FERRY_SEVERITY_ERROR, "pbo-compressed") == 1, "%s", lies[k].what);
        uint8_t *b = NULL;
        size_t n;
        ferry_result r = ferry_pbo_entry_bytes(m, 0, 0, &b, &n, &err);
        CHECK_MSG(r != FERRY_OK && b == NULL, "%s", lies[k].what);
        CHECK_MSG(((err.offset >= start && err.offset <= start + lies[k].size) || err.offset == 10) && strcmp(err.path, "entries[0]") == 0,
                  "%s: %llu %s", lies[k].what, (unsigned long long)err.offset, err.path);
        ferry_pbo_free(m);
    }
    /* Unknown method, 'Vers' on a file, unsafe and duplicate names. */
    o.n = 0;
    record(&o, "a.txt", 0x12345678u, 0, 0, 0, 0);
    record(&o, "b.txt", 0x56657273u, 0, 0, 0, 0);
    record(&o, "..\\evil.txt", 0, 0, 0, 0, 0);
    record(&o, "C:\\x.txt", 0, 0, 0, 0, 0);
    record(&o, "A.TXT", 0, 0, 0, 0, 0);
    record(&o, "dir/b.txt", 0, 0, 0, 0, 0);
    record(&o, "", 0, 0, 0, 0, 0);
    trailer(&o);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        uint8_t *b = NULL;
        size_t n;
        CHECK(ferry_pbo_entry_bytes(m, 0, 0, &b, &n, &err) == FERRY_ERR_UNSUPPORTED && b == NULL);
        CHECK_MSG(err.offset == 6 && strstr(err.message, "0x12345678"), "%llu %s", (unsigned long long)err.offset, err.message);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_ERROR, "pbo-method"), 2);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-name-unsafe"), 2);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-name-duplicate"), 1);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-name-slash"), 1);
        ferry_pbo_free(m);
    }
    /* A stored entry whose original size is neither 0 nor its size. */
    o.n = 0;
    record(&o, "a.txt", 0, 7, 0, 0, 2);
    record(&o, "", 0, 0, 0, 0, 0);
    raw(&o, "hi", 2);
    trailer(&o);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (m) CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-original-size"), 1);
    ferry_pbo_free(m);
    /* An encrypted table (the engine's 'encryption' property) is refused. */
    o.n = 0;
    record(&o, "", 0x56657273u, 0, 0, 0, 0);
    asciiz(&o, "prefix");
    asciiz(&o, "x");
    asciiz(&o, "Encryption");
    asciiz(&o, "VBS");
    asciiz(&o, "");
    u32(&o, 100);
    u32(&o, 100);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_ERR_UNSUPPORTED && m == NULL);
    CHECK_MSG(err.offset == 30 && strcmp(err.path, "properties[1]") == 0 && strstr(err.message, "encrypted"), "%llu %s %s",
              (unsigned long long)err.offset, err.path, err.message);
    /* Properties: a duplicate key, a product entry without a prefix. */
    o.n = 0;
    record(&o, "", 0x56657273u, 0, 0, 0, 0);
    asciiz(&o, "product");
    asciiz(&o, "a");
    asciiz(&o, "Product");
    asciiz(&o, "b");
    asciiz(&o, "");
    record(&o, "", 0, 0, 0, 0, 0);
    trailer(&o);
    CHECK(ferry_pbo_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        CHECK(m->entry_count == 0 && m->property_count == 2);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-property-duplicate"), 1);
        CHECK_EQ_U(count_rule(m, FERRY_SEVERITY_WARNING, "pbo-prefix-missing"), 1);
        ferry_pbo_free(m);
    }
}

/* A trailer recomputed on request: over a wrong one, appended to an
 * archive without one; junk after the data is left alone. */
static void test_update_checksum(void)
{
    bytes good = build();
    ferry_error err;
    ferry_buffer b = {0};
    fy_buf_append(&b, good.b, good.n);
    b.data[b.size - 1] ^= 1;
    CHECK(ferry_pbo_update_checksum(&b, &err) == FERRY_OK);
    CHECK(b.size == good.n && memcmp(b.data, good.b, good.n) == 0);
    b.size -= 21; /* as OFP wrote it */
    CHECK(ferry_pbo_update_checksum(&b, &err) == FERRY_OK);
    CHECK(b.size == good.n && memcmp(b.data, good.b, good.n) == 0);
    b.size -= 21;
    fy_buf_append(&b, "\x01junk", 5);
    CHECK(ferry_pbo_update_checksum(&b, &err) == FERRY_ERR_MALFORMED);
    CHECK(b.size == good.n - 21 + 5);
    b.size = 30; /* the table cut */
    CHECK(ferry_pbo_update_checksum(&b, &err) == FERRY_ERR_TRUNCATED);
    ferry_buffer_free(&b);
}

static void test_pack(void)
{
    const uint8_t abc[3] = {'a', 'b', 'c'};
    ferry_pbo_pack_file files[3] = {
        {"data/b.txt", abc, 3, 5},
        {"Config.cpp", (const uint8_t *)"class", 5, 7},
        {"data\\A.txt", NULL, 0, 0},
    };
    ferry_pbo_property props[1] = {{"product", "ferry", 0, 0, 0}};
    ferry_pbo_pack_options po = {props, 1, "x/addon"};
    ferry_buffer out = {0};
    ferry_error err;
    CHECK_MSG(ferry_pbo_pack(files, 3, &po, &out, &err) == FERRY_OK, "%s", err.message);
    /* The expected bytes, built by hand: sorted ignoring case. */
    bytes e = {{0}, 0};
    record(&e, "", 0x56657273u, 0, 0, 0, 0);
    asciiz(&e, "prefix");
    asciiz(&e, "x\\addon");
    asciiz(&e, "product");
    asciiz(&e, "ferry");
    asciiz(&e, "");
    record(&e, "Config.cpp", 0, 5, 0, 7, 5);
    record(&e, "data\\A.txt", 0, 0, 0, 0, 0);
    record(&e, "data\\b.txt", 0, 3, 0, 5, 3);
    record(&e, "", 0, 0, 0, 0, 0);
    raw(&e, "classabc", 8);
    trailer(&e);
    CHECK(out.size == e.n && memcmp(out.data, e.b, e.n) == 0);
    ferry_pbo *m = NULL;
    CHECK(ferry_pbo_read(out.data, out.size, NULL, &m, &err) == FERRY_OK);
    if (m) CHECK(count_rule(m, FERRY_SEVERITY_ERROR, NULL) == 0 && count_rule(m, FERRY_SEVERITY_WARNING, NULL) == 0);
    ferry_pbo_free(m);
    ferry_buffer_free(&out);
    /* No properties and no prefix: no product entry. */
    CHECK(ferry_pbo_pack(files, 1, NULL, &out, &err) == FERRY_OK && out.size > 0 && out.data[0] == 'd');
    ferry_buffer_free(&out);
    /* Refused: names equal ignoring case, unsafe names, a duplicate prefix. */
    ferry_pbo_pack_file dup[2] = {{"a/B.txt", abc, 3, 0}, {"A\\b.TXT", abc, 3, 0}};
    CHECK(ferry_pbo_pack(dup, 2, NULL, &out, &err) == FERRY_ERR_ARGUMENT && strstr(err.message, "one name"));
    static const char *const bad[] = {"../x", "/x", "C:x", "a//b", "a/./b", ""};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ferry_pbo_pack_file f = {bad[k], abc, 3, 0};
        CHECK_MSG(ferry_pbo_pack(&f, 1, NULL, &out, &err) == FERRY_ERR_ARGUMENT, "%s", bad[k]);
    }
    ferry_pbo_property p2[1] = {{"Prefix", "y", 0, 0, 0}};
    ferry_pbo_pack_options po2 = {p2, 1, "x"};
    CHECK(ferry_pbo_pack(files, 1, &po2, &out, &err) == FERRY_ERR_ARGUMENT);
    CHECK_EQ_U(out.size, 0);
    ferry_buffer_free(&out);
}

typedef struct listing {
    char text[256];
} listing;

static bool add_entry(void *ctx, const char *name, ferry_entry_kind kind)
{
    listing *l = ctx;
    size_t n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, "%s%s%s", n ? " " : "", name, kind == FERRY_ENTRY_FOLDER ? "/" : "");
    return true;
}

static void test_source(void)
{
    bytes a = build();
    ferry_pbo *m = NULL;
    ferry_error err;
    CHECK(ferry_pbo_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (!m) return;
    ferry_file_source src;
    CHECK(ferry_file_source_pbo(m, &src, &err) == FERRY_OK);
    listing l = {""};
    CHECK(ferry_file_source_list(&src, "", add_entry, &l, &err) == FERRY_OK);
    CHECK_MSG(strcmp(l.text, "config.cpp data/") == 0, "%s", l.text);
    l.text[0] = 0;
    CHECK(ferry_file_source_list(&src, "DATA", add_entry, &l, &err) == FERRY_OK);
    CHECK_MSG(strcmp(l.text, "abc.txt Rock.paa") == 0, "%s", l.text);
    CHECK(ferry_file_source_list(&src, "nope", add_entry, &l, &err) == FERRY_ERR_IO);
    /* A texture named by the engine: prefix stripped, case ignored. */
    const char *rest = ferry_pbo_strip_prefix(m, "x\\addon\\data\\rock.paa");
    char path[64], found[64];
    snprintf(path, sizeof path, "%s", rest ? rest : "");
    for (char *c = path; *c; c++)
        if (*c == '\\') *c = '/';
    CHECK(ferry_file_source_find(&src, "data", "rock.paa", FERRY_ENTRY_FILE, found, sizeof found));
    CHECK_MSG(strcmp(found, "data/Rock.paa") == 0, "%s", found);
    uint8_t *b = NULL;
    size_t n = 0;
    CHECK(ferry_file_source_load(&src, path, 0, &b, &n, &err) == FERRY_OK);
    CHECK(n == 3 && b && memcmp(b, "PAA", 3) == 0);
    ferry_file_source_release(&src, b, n);
    CHECK(ferry_file_source_load(&src, "data/ABC.TXT", 0, &b, &n, &err) == FERRY_OK);
    CHECK(n == 9 && b && memcmp(b, "abcabcabc", 9) == 0);
    ferry_file_source_release(&src, b, n);
    CHECK(ferry_file_source_load(&src, "config.cpp", 4, &b, &n, &err) == FERRY_ERR_LIMIT);
    CHECK(ferry_file_source_load(&src, "missing.txt", 0, &b, &n, &err) == FERRY_ERR_IO);
    CHECK(ferry_file_source_load(&src, "../config.cpp", 0, &b, &n, &err) == FERRY_ERR_ARGUMENT);
    ferry_file_source_close(&src);
    ferry_pbo_free(m);
}

static void test_detect(void)
{
    bytes o = {{0}, 0};
    record(&o, "", 0, 0, 0, 0, 0);
    CHECK(ferry_detect(o.b, o.n) == FERRY_FORMAT_PBO); /* empty, no trailer */
    trailer(&o);
    CHECK(ferry_detect(o.b, o.n) == FERRY_FORMAT_PBO); /* empty, trailer */
    CHECK(ferry_detect(o.b, 30) == FERRY_FORMAT_UNKNOWN);
    static const uint8_t zeros[64] = {0};
    CHECK(ferry_detect(zeros, sizeof zeros) == FERRY_FORMAT_UNKNOWN);
    CHECK(ferry_detect("\0sreV", 5) == FERRY_FORMAT_PBO);
    o.n = 0;
    record(&o, "mission.sqm", 0, 0, 0, 0, 10);
    CHECK(ferry_detect(o.b, o.n) == FERRY_FORMAT_PBO);
    CHECK(ferry_detect(o.b, o.n - 1) == FERRY_FORMAT_UNKNOWN);
    o.n = 0;
    record(&o, "mission.sqm", 0, 3, 0, 0, 10); /* original size neither 0 nor the size */
    CHECK(ferry_detect(o.b, o.n) == FERRY_FORMAT_UNKNOWN);
    o.n = 0;
    record(&o, "a\tb", 0, 0, 0, 0, 10);
    CHECK(ferry_detect(o.b, o.n) == FERRY_FORMAT_UNKNOWN);
    CHECK(ferry_detect("hello world, no NUL here at all", 31) == FERRY_FORMAT_UNKNOWN);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_PBO), "PBO") == 0);
}

int main(void)
{
    test_sha1();
    test_read();
    test_odd_bytes();
    test_truncations();
    test_bad_input();
    test_pack();
    test_update_checksum();
    test_source();
    test_detect();
    TEST_END();
}
