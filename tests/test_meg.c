/* MEG archives: archives of formats 1, 2 and 3 built here byte by byte
 * from the documented layout (docs/formats/meg.md), independent of
 * ferry's writer; every truncation and some corruptions; the corpus
 * archives of PetroglyphTools (skipped without ../shared). */
#include "support.h"
#include "test.h"

#include <ferry/detect.h>
#include <ferry/meg.h>

typedef struct bytes {
    uint8_t b[512];
    size_t n;
} bytes;

static void u16(bytes *o, uint16_t v)
{
    o->b[o->n++] = (uint8_t)v;
    o->b[o->n++] = (uint8_t)(v >> 8);
}
static void u32(bytes *o, uint32_t v)
{
    u16(o, (uint16_t)v);
    u16(o, (uint16_t)(v >> 16));
}
static void str(bytes *o, const char *s)
{
    u16(o, (uint16_t)strlen(s));
    memcpy(o->b + o->n, s, strlen(s));
    o->n += strlen(s);
}

/* Two entries, "A.TXT" -> "abc" and "B.TXT" -> "de"; the CRC-32 values are
 * those PetroglyphTools stored for these names in its test archives. */
#define CRC_A 0x968D9A34u
#define CRC_B 0xD12DE0E4u

static bytes build(int format, uint16_t flags3)
{
    bytes o = {{0}, 0};
    const uint32_t names = 2 + 5 + 2 + 5, records = 2 * 20;
    uint32_t header = format == 1 ? 8 : format == 2 ? 20 : 24;
    uint32_t data = header + names + records;
    if (format >= 2) {
        u32(&o, format == 3 && flags3 ? 0x8FFFFFFFu : 0xFFFFFFFFu);
        u32(&o, 0x3F7D70A4u);
        u32(&o, data);
    }
    u32(&o, 2);
    u32(&o, 2);
    if (format == 3) u32(&o, names);
    str(&o, "A.TXT");
    str(&o, "B.TXT");
    const uint32_t crc[2] = {CRC_A, CRC_B}, size[2] = {3, 2}, start[2] = {data, data + 3};
    for (uint32_t i = 0; i < 2; i++) {
        if (format == 3) u16(&o, flags3);
        u32(&o, crc[i]);
        u32(&o, i);
        u32(&o, size[i]);
        u32(&o, start[i]);
        if (format == 3)
            u16(&o, (uint16_t)i);
        else
            u32(&o, i);
    }
    memcpy(o.b + o.n, "abcde", 5);
    o.n += 5;
    return o;
}

static size_t errors_of(const ferry_meg *m, const char *rule)
{
    ferry_diagnostics d = {0};
    ferry_meg_validate(m, NULL, &d);
    size_t n = 0;
    for (size_t i = 0; i < d.count; i++)
        if (d.items[i].severity == FERRY_SEVERITY_ERROR && (!rule || strcmp(d.items[i].rule, rule) == 0)) n++;
    ferry_diagnostics_free(&d);
    return n;
}

static void test_crc(void)
{
    CHECK_EQ_U(ferry_meg_crc32("123456789", 9), 0xCBF43926u); /* the CRC-32 check value */
    CHECK_EQ_U(ferry_meg_crc32("A.TXT", 5), CRC_A);
    CHECK_EQ_U(ferry_meg_crc32("B.TXT", 5), CRC_B);
    CHECK_EQ_U(ferry_meg_crc32("", 0), 0);
}

static void test_formats(void)
{
    for (int f = 1; f <= 3; f++) {
        bytes a = build(f, 0);
        CHECK_EQ_U(ferry_detect(a.b, a.n), FERRY_FORMAT_MEG);
        ferry_meg *m = NULL;
        ferry_error err;
        CHECK_MSG(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_OK, "format %d: %s", f, err.message);
        if (!m) continue;
        CHECK_EQ_U(m->format, f);
        CHECK_EQ_U(m->entry_count, 2);
        CHECK(m->entries[0].name && strcmp(m->entries[0].name, "A.TXT") == 0);
        CHECK(m->entries[1].name && strcmp(m->entries[1].name, "B.TXT") == 0);
        CHECK(m->entries[0].data && memcmp(m->entries[0].data, "abc", 3) == 0);
        CHECK(m->entries[1].data && memcmp(m->entries[1].data, "de", 2) == 0);
        CHECK_EQ_U(errors_of(m, NULL), 0);
        ferry_buffer out = {0};
        CHECK(ferry_meg_write(m, &out, &err) == FERRY_OK);
        CHECK(out.size == a.n && memcmp(out.data, a.b, a.n) == 0);
        ferry_buffer_free(&out);
        ferry_meg_free(m);
    }
}

static void test_truncations(void)
{
    for (int f = 1; f <= 3; f++) {
        bytes a = build(f, 0);
        size_t tables = a.n - 5;
        for (size_t n = 0; n < a.n; n++) {
            ferry_meg *m = NULL;
            ferry_error err;
            ferry_result r = ferry_meg_read(a.b, n, NULL, &m, &err);
            if (n < tables) {
                CHECK_MSG(r == FERRY_ERR_TRUNCATED || r == FERRY_ERR_MALFORMED, "format %d, %zu bytes: %d", f, n, r);
                CHECK_MSG(err.offset <= n, "format %d, %zu bytes: offset %llu", f, n, (unsigned long long)err.offset);
                CHECK_MSG(err.path[0] != 0, "format %d, %zu bytes: no path (%s)", f, n, err.message);
                CHECK(m == NULL);
            } else {
                /* The tables are whole; the entries' bytes run out. */
                CHECK_MSG(r == FERRY_OK, "format %d, %zu bytes: %s", f, n, err.message);
                if (m) CHECK_MSG(errors_of(m, "meg-bounds") == (n < tables + 3 ? 2u : 1u), "format %d, %zu bytes", f, n);
                ferry_meg_free(m);
            }
        }
    }
}

static void test_corruptions(void)
{
    ferry_error err;
    ferry_meg *m = NULL;
    /* A wrong CRC: located at the record. */
    bytes a = build(2, 0);
    a.b[20 + 14] ^= 1;
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_meg_validate(m, NULL, &d), 1);
        CHECK(d.count == 1 && strcmp(d.items[0].path, "files[0]/crc") == 0 && d.items[0].offset == 34);
        ferry_diagnostics_free(&d);
        ferry_meg_free(m);
    }
    /* Records out of CRC order: swap the two records. */
    a = build(1, 0);
    uint8_t tmp[20];
    memcpy(tmp, a.b + 22, 20);
    memcpy(a.b + 22, a.b + 42, 20);
    memcpy(a.b + 42, tmp, 20);
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        CHECK(errors_of(m, "meg-order") == 1);
        CHECK(errors_of(m, "meg-index") == 2);
        ferry_meg_free(m);
    }
    /* A name index past the names. */
    a = build(1, 0);
    a.b[22 + 16] = 7;
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        CHECK(m->entries[0].name == NULL);
        CHECK(errors_of(m, "meg-name-index") == 1);
        ferry_meg_free(m);
    }
    /* Truncations name the field: format 1, records at 22 (2 names of 7). */
    a = build(1, 0);
    CHECK(ferry_meg_read(a.b, 22 + 20 + 10, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK_MSG(strcmp(err.path, "files[1]") == 0, "%s", err.path); /* the count is checked first */
    CHECK(ferry_meg_read(a.b, 12, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK_MSG(strcmp(err.path, "names[0]/text") == 0, "%s", err.path);
    CHECK(ferry_meg_read(a.b, 16, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK_MSG(strcmp(err.path, "names[1]/length") == 0, "%s", err.path);
    a = build(3, 0);
    CHECK(ferry_meg_read(a.b, 24 + 14 + 20 + 19, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK_MSG(strcmp(err.path, "files[1]") == 0, "%s", err.path);
    /* Two records naming one entry: a warning. */
    a = build(1, 0);
    a.b[22 + 20 + 16] = 0; /* files[1] names "A.TXT" too */
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        ferry_diagnostics d = {0};
        ferry_meg_validate(m, NULL, &d);
        bool dup = false;
        for (size_t i = 0; i < d.count; i++)
            dup |= strcmp(d.items[i].rule, "meg-name-duplicate") == 0 && strcmp(d.items[i].path, "files[1]/name") == 0;
        CHECK(dup);
        ferry_diagnostics_free(&d);
        ferry_meg_free(m);
    }
    /* A lying name count: refused before allocation, named. */
    a = build(2, 0);
    a.b[12] = 0xFF, a.b[13] = 0xFF, a.b[14] = 0xFF;
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_ERR_TRUNCATED);
    CHECK(strcmp(err.path, "names") == 0);
    /* A wrong name table size in format 3: then it is not format 3 by the
     * header rule, and reads as format 2 whose names run wrong. */
    a = build(3, 0);
    a.b[20] ^= 2;
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) != FERRY_OK);
    /* Encrypted format 3: refused, naming it. */
    a = build(3, 1);
    CHECK(ferry_detect(a.b, a.n) == FERRY_FORMAT_MEG);
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "encrypted") != NULL);
    /* An encrypted entry in a plain archive. */
    a = build(3, 0);
    a.b[24 + 14] = 1;
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(strcmp(err.path, "files[0]/flags") == 0);
    /* An entry over the tables. */
    a = build(1, 0);
    a.b[22 + 12] = 0;
    CHECK(ferry_meg_read(a.b, a.n, NULL, &m, &err) == FERRY_OK);
    if (m) {
        CHECK(errors_of(m, "meg-bounds") == 1);
        ferry_meg_free(m);
    }
}

static void test_detect(void)
{
    static const uint8_t empty[8] = {0};
    CHECK(ferry_detect(empty, 8) == FERRY_FORMAT_MEG);
    static const uint8_t zeros[9] = {0};
    CHECK(ferry_detect(zeros, 9) == FERRY_FORMAT_UNKNOWN);
    bytes a = build(1, 0);
    a.b[10] = 1; /* an unprintable byte in the first name */
    CHECK(ferry_detect(a.b, a.n) == FERRY_FORMAT_UNKNOWN);
    a = build(1, 0);
    a.b[0] = 3; /* counts differ */
    CHECK(ferry_detect(a.b, a.n) == FERRY_FORMAT_UNKNOWN);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_MEG), "MEG") == 0);
}

static void test_corpus(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/meg/petroglyphtools";
    if (!test_dir_exists(dir)) {
        TEST_LEFT_OUT("corpus part (%s is absent)", dir);
        return;
    }
    char **paths;
    size_t count = test_list_files(dir, ".meg", &paths);
    CHECK_EQ_U(count, 6);
    for (size_t i = 0; i < count; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        CHECK_MSG(ferry_detect(data, size) == FERRY_FORMAT_MEG, "%s", paths[i]);
        ferry_meg *m = NULL;
        ferry_error err;
        CHECK_MSG(ferry_meg_read(data, size, NULL, &m, &err) == FERRY_OK, "%s: %s", paths[i], err.message);
        if (m) {
            CHECK_MSG(errors_of(m, NULL) == 0, "%s", paths[i]);
            ferry_buffer out = {0};
            CHECK(ferry_meg_write(m, &out, &err) == FERRY_OK);
            CHECK_MSG(out.size == size && memcmp(out.data, data, size) == 0, "%s", paths[i]);
            ferry_buffer_free(&out);
            if (strstr(paths[i], "v3n_2_files_data")) {
                CHECK_EQ_U(m->format, 3);
                CHECK(m->entry_count == 2 && m->entries[1].data && memcmp(m->entries[1].data, "123", 3) == 0);
            }
            if (strstr(paths[i], "extended_ascii")) CHECK(m->entry_count == 2 && (uint8_t)m->entries[0].name[4] == 0xFC);
            ferry_meg_free(m);
        }
        free(data);
    }
    test_free_paths(paths, count);
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

/* A listing gives each segment once (case ignored, a folder and a file of
 * one name both), where its first record is, in the records' order. */
static void test_source_listing_once(void)
{
    bytes o = {{0}, 0};
    static const char *const names[6] = {"B\\X.TXT", "a.txt", "b\\y.txt", "A.TXT", "B", "C\\A.TXT"};
    uint32_t n = 6;
    u32(&o, n);
    u32(&o, n);
    for (uint32_t i = 0; i < n; i++) str(&o, names[i]);
    uint32_t data = (uint32_t)o.n + 20 * n;
    for (uint32_t i = 0; i < n; i++) {
        u32(&o, ferry_meg_crc32(names[i], strlen(names[i])));
        u32(&o, i);
        u32(&o, 0);
        u32(&o, data);
        u32(&o, i);
    }
    ferry_meg *m = NULL;
    ferry_error err;
    CHECK(ferry_meg_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (!m) return;
    ferry_file_source src;
    CHECK(ferry_file_source_meg(m, &src, &err) == FERRY_OK);
    listing l = {""};
    CHECK(ferry_file_source_list(&src, "", add_entry, &l, &err) == FERRY_OK);
    CHECK_MSG(strcmp(l.text, "B/ a.txt B C/") == 0, "%s", l.text);
    l.text[0] = 0;
    CHECK(ferry_file_source_list(&src, "b", add_entry, &l, &err) == FERRY_OK);
    CHECK_MSG(strcmp(l.text, "X.TXT y.txt") == 0, "%s", l.text);
    ferry_file_source_close(&src);
    ferry_meg_free(m);
}

/* The archive as a file source: folders from backslashes, case ignored. */
static void test_source(void)
{
    bytes o = {{0}, 0};
    static const char *const names[3] = {"DATA\\ART\\TEXTURES\\ROCK.DDS", "DATA\\ART\\MODELS\\X.ALO", "README.TXT"};
    uint32_t data = 8, n = 3;
    for (uint32_t i = 0; i < n; i++) data += 2 + (uint32_t)strlen(names[i]);
    data += 20 * n;
    u32(&o, n);
    u32(&o, n);
    for (uint32_t i = 0; i < n; i++) str(&o, names[i]);
    for (uint32_t i = 0; i < n; i++) {
        u32(&o, ferry_meg_crc32(names[i], strlen(names[i])));
        u32(&o, i);
        u32(&o, 2);
        u32(&o, data + 2 * i);
        u32(&o, i);
    }
    memcpy(o.b + o.n, "r!x!t!", 6);
    o.n += 6;
    ferry_meg *m = NULL;
    ferry_error err;
    CHECK(ferry_meg_read(o.b, o.n, NULL, &m, &err) == FERRY_OK);
    if (!m) return;
    ferry_file_source src;
    CHECK(ferry_file_source_meg(m, &src, &err) == FERRY_OK);
    listing l = {""};
    CHECK(ferry_file_source_list(&src, "", add_entry, &l, &err) == FERRY_OK);
    CHECK_MSG(strcmp(l.text, "DATA/ README.TXT") == 0, "%s", l.text);
    l.text[0] = 0;
    CHECK(ferry_file_source_list(&src, "Data/Art", add_entry, &l, &err) == FERRY_OK);
    CHECK_MSG(strcmp(l.text, "TEXTURES/ MODELS/") == 0, "%s", l.text);
    CHECK(ferry_file_source_list(&src, "NOPE", add_entry, &l, &err) == FERRY_ERR_IO);
    char found[128];
    CHECK(ferry_file_source_find(&src, "Data/Art/Textures", "rock.dds", FERRY_ENTRY_FILE, found, sizeof found));
    CHECK_MSG(strcmp(found, "Data/Art/Textures/ROCK.DDS") == 0, "%s", found);
    uint8_t *bytes_ = NULL;
    size_t size = 0;
    CHECK(ferry_file_source_load(&src, found, 0, &bytes_, &size, &err) == FERRY_OK);
    CHECK(size == 2 && bytes_ && memcmp(bytes_, "r!", 2) == 0);
    ferry_file_source_release(&src, bytes_, size);
    CHECK(ferry_file_source_load(&src, "DATA/ART/MODELS/X.ALO", 1, &bytes_, &size, &err) == FERRY_ERR_LIMIT);
    CHECK(ferry_file_source_load(&src, "MISSING.TXT", 0, &bytes_, &size, &err) == FERRY_ERR_IO);
    CHECK(ferry_file_source_load(&src, "../README.TXT", 0, &bytes_, &size, &err) == FERRY_ERR_ARGUMENT);
    ferry_file_source_close(&src);
    ferry_meg_free(m);
}


/* ---- packing ---- */

/* Tables from ferry_meg_pack_tables, then the entries' bytes in its order. */
static bool pack(const ferry_meg_pack_entry *e, const char *const *data, size_t n, uint32_t format, ferry_buffer *out,
                 ferry_error *err)
{
    size_t order[8];
    ferry_meg_pack_options o = {format};
    if (ferry_meg_pack_tables(e, n, &o, out, order, err) != FERRY_OK) return false;
    for (size_t i = 0; i < n; i++) {
        uint8_t *at = realloc(out->data, out->size + e[order[i]].size + 1);
        if (!at) return false;
        out->data = at;
        memcpy(out->data + out->size, data[order[i]], e[order[i]].size);
        out->size += e[order[i]].size;
        out->capacity = out->size + 1;
    }
    return true;
}

static void test_pack_layout(void)
{
    /* Given B before A: packed A first (CRC order), byte for byte the
     * archive build() writes from the documented layout. */
    const ferry_meg_pack_entry e[2] = {{"B.TXT", 5, 2}, {"A.TXT", 5, 3}};
    const char *data[2] = {"de", "abc"};
    for (uint32_t f = 1; f <= 3; f++) {
        ferry_buffer out = {0};
        ferry_error err;
        CHECK_MSG(pack(e, data, 2, f, &out, &err), "format %u: %s", (unsigned)f, err.message);
        bytes want = build((int)f, 0);
        CHECK_MSG(out.size == want.n && memcmp(out.data, want.b, want.n) == 0, "format %u", (unsigned)f);
        ferry_meg *m = NULL;
        CHECK(ferry_meg_read(out.data, out.size, NULL, &m, &err) == FERRY_OK);
        if (m) {
            ferry_diagnostics d = {0};
            ferry_meg_validate(m, NULL, &d);
            CHECK_EQ_U(d.error_count + d.warning_count, 0);
            ferry_diagnostics_free(&d);
            ferry_buffer tables = {0};
            CHECK(ferry_meg_write_tables(m, &tables, &err) == FERRY_OK);
            CHECK_EQ_U(tables.size, m->tables_end);
            CHECK(tables.size <= out.size && memcmp(tables.data, out.data, tables.size) == 0);
            ferry_buffer_free(&tables);
            ferry_meg_free(m);
        }
        ferry_buffer_free(&out);
    }
    /* 0 means format 1; an empty archive is two zero counts. */
    ferry_buffer out = {0};
    ferry_error err;
    CHECK(ferry_meg_pack_tables(NULL, 0, NULL, &out, NULL, &err) == FERRY_OK);
    CHECK(out.size == 8 && memcmp(out.data, "\0\0\0\0\0\0\0\0", 8) == 0);
    ferry_buffer_free(&out);
}

static void test_pack_order(void)
{
    /* F715968.TXT and F3000402.TXT share the CRC-32 0x6087992F (found with
     * Python's zlib.crc32): equal CRCs go by the names' bytes. */
    CHECK_EQ_U(ferry_meg_crc32("F715968.TXT", 11), 0x6087992Fu);
    CHECK_EQ_U(ferry_meg_crc32("F3000402.TXT", 12), 0x6087992Fu);
    const ferry_meg_pack_entry e[4] = {
        {"F715968.TXT", 11, 1}, {"Z.TXT", 5, 2}, {"F3000402.TXT", 12, 3}, {"C.TXT", 5, 4}};
    for (uint32_t f = 1; f <= 3; f++) {
        ferry_buffer out = {0};
        ferry_error err;
        size_t order[4];
        ferry_meg_pack_options o = {f};
        CHECK(ferry_meg_pack_tables(e, 4, &o, &out, order, &err) == FERRY_OK);
        /* Append placeholder data so that the archive reads. */
        size_t total = out.size + 10;
        uint8_t *full = calloc(total, 1);
        if (!full) break;
        memcpy(full, out.data, out.size);
        ferry_meg *m = NULL;
        CHECK(ferry_meg_read(full, total, NULL, &m, &err) == FERRY_OK);
        if (m) {
            CHECK_EQ_U(m->entry_count, 4);
            for (uint32_t i = 0; i < m->entry_count; i++) {
                const ferry_meg_entry *r = &m->entries[i];
                CHECK_EQ_U(r->index, i);
                CHECK_EQ_U(r->name_index, i);
                CHECK(r->name && strcmp(r->name, e[order[i]].name) == 0);
                CHECK_EQ_U(r->size, e[order[i]].size);
                CHECK_EQ_U(r->crc, ferry_meg_crc32(r->name, r->name_length));
                if (i) CHECK(r->crc >= m->entries[i - 1].crc);
                if (i) CHECK_EQ_U(r->start, m->entries[i - 1].start + m->entries[i - 1].size);
            }
            CHECK_EQ_U(m->entries[0].start, out.size);
            /* The tie: F3000402 before F715968. */
            size_t a = 4, b = 4;
            for (size_t i = 0; i < 4; i++) {
                if (order[i] == 2) a = i;
                if (order[i] == 0) b = i;
            }
            CHECK(a + 1 == b);
            CHECK_EQ_U(errors_of(m, NULL), 0);
            ferry_meg_free(m);
        }
        free(full);
        ferry_buffer_free(&out);
    }
}

static void test_pack_refusals(void)
{
    ferry_buffer out = {0};
    ferry_error err;
    size_t order[4];
    const ferry_meg_pack_entry dup[2] = {{"A\\B.TXT", 7, 1}, {"a/b.txt", 7, 1}};
    CHECK(ferry_meg_pack_tables(dup, 2, NULL, &out, order, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, "entries[0] and entries[1]") != NULL);
    const ferry_meg_pack_entry empty[1] = {{"", 0, 1}};
    CHECK(ferry_meg_pack_tables(empty, 1, NULL, &out, order, &err) == FERRY_ERR_ARGUMENT);
    const ferry_meg_pack_entry huge[1] = {{"A", 1, (uint64_t)1 << 32}};
    CHECK(ferry_meg_pack_tables(huge, 1, NULL, &out, order, &err) == FERRY_ERR_LIMIT);
    /* The second would start past 4 GiB - 1 (an entry may end past it: its
     * start and size each fit their u32). */
    const ferry_meg_pack_entry far[2] = {{"A", 1, 0xFFFFFFFFu}, {"B", 1, 0xFFFFFFFFu}};
    CHECK(ferry_meg_pack_tables(far, 2, NULL, &out, order, &err) == FERRY_ERR_LIMIT);
    CHECK(strstr(err.message, "past the 4 GiB") != NULL);
    static char long_name[FERRY_MEG_NAME_MAX + 1];
    memset(long_name, 'A', sizeof long_name);
    const ferry_meg_pack_entry longer[1] = {{long_name, sizeof long_name, 1}};
    CHECK(ferry_meg_pack_tables(longer, 1, NULL, &out, order, &err) == FERRY_ERR_ARGUMENT);
    const ferry_meg_pack_entry longest[1] = {{long_name, FERRY_MEG_NAME_MAX, 1}};
    CHECK(ferry_meg_pack_tables(longest, 1, NULL, &out, order, &err) == FERRY_OK);
    ferry_buffer_free(&out);
    /* Format 3 indexes names with a u16. */
    ferry_meg_pack_options o3 = {3};
    CHECK(ferry_meg_pack_tables(dup, 65536, &o3, &out, order, &err) == FERRY_ERR_LIMIT);
    ferry_meg_pack_options o4 = {4};
    CHECK(ferry_meg_pack_tables(dup, 1, &o4, &out, order, &err) == FERRY_ERR_ARGUMENT);
    CHECK_EQ_U(out.size, 0);
    ferry_buffer_free(&out);
}

static void name_is(const char *path, const char *want, size_t want_n)
{
    char out[64];
    size_t n = 0;
    ferry_error err;
    ferry_result r = ferry_meg_name_from_path(path, out, sizeof out, &n, &err);
    CHECK_MSG(r == FERRY_OK && n == want_n && memcmp(out, want, n) == 0, "'%s': %s", path, err.message);
}

static ferry_result name_fails(const char *path)
{
    char out[64];
    size_t n = 99;
    ferry_error err;
    ferry_result r = ferry_meg_name_from_path(path, out, sizeof out, &n, &err);
    CHECK_MSG(r != FERRY_OK && n == 0 && err.message[0], "'%s' accepted", path);
    return r;
}

static void test_pack_names(void)
{
    name_is("Data/Art/Models/ship.alo", "DATA\\ART\\MODELS\\SHIP.ALO", 24);
    name_is("caf\xc3\xa9.txt", "CAF\xe9.TXT", 8);        /* UTF-8 e-acute -> Latin-1 0xE9 */
    name_is("\xc3\xbc.txt", "\xfc.TXT", 5);              /* u-umlaut stays lower case: ASCII only */
    name_is("TEST\xfc.TXT", "TEST\xfc.TXT", 9);          /* not UTF-8: the bytes as they are */
    name_is("a b/c~d.x", "A B\\C~D.X", 9);
    CHECK(name_fails("\xc4\x80.txt") == FERRY_ERR_UNSUPPORTED); /* U+0100 */
    CHECK(name_fails("\xf0\x9f\x98\x80") == FERRY_ERR_UNSUPPORTED);
    CHECK(name_fails("") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("/abs.txt") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("a//b") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("./a") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("a/../b") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("a/") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("a\\b") == FERRY_ERR_ARGUMENT);
    CHECK(name_fails("c:/x") == FERRY_ERR_ARGUMENT);
    char out[4];
    size_t n;
    ferry_error err;
    CHECK(ferry_meg_name_from_path("abcdef", out, sizeof out, &n, &err) == FERRY_ERR_ARGUMENT);
}

/* The atomic piecewise writer and the mapping (ferry.h) that pack, extract
 * and rewrite stand on. */
static void test_writer_and_map(void)
{
    char dir[512];
    if (!test_make_temp_dir("ferry-test-meg", dir, sizeof dir)) {
        CHECK(!"test_make_temp_dir");
        return;
    }
    char src[600], dst[600];
    snprintf(src, sizeof src, "%s/src.bin", dir);
    snprintf(dst, sizeof dst, "%s/out.bin", dir);
    enum { N = 3 << 20 };
    uint8_t *big = malloc(N);
    uint64_t st = 7;
    for (size_t i = 0; big && i < N; i++) big[i] = (uint8_t)test_xorshift(&st);
    ferry_error err;
    CHECK(big && ferry_file_write(src, big, N, NULL, &err) == FERRY_OK);
    ferry_file_writer *w = NULL;
    CHECK(ferry_file_writer_open(dst, NULL, &w, &err) == FERRY_OK);
    if (w) {
        CHECK(ferry_file_writer_write(w, "head", 4, &err) == FERRY_OK);
        CHECK(ferry_file_writer_append_file(w, src, N, &err) == FERRY_OK);
        CHECK_EQ_U(ferry_file_writer_size(w), 4 + (uint64_t)N);
        CHECK(ferry_file_writer_commit(w, &err) == FERRY_OK);
    }
    ferry_file_mapping map;
    CHECK(ferry_file_map(dst, 0, &map, &err) == FERRY_OK);
    CHECK(map.size == 4 + (size_t)N && map.mapped);
    CHECK(map.data && memcmp(map.data, "head", 4) == 0 && big && memcmp(map.data + 4, big, N) == 0);
    /* Dropped pages read back the same bytes. */
    ferry_file_map_drop(&map, 0, map.size);
    CHECK(map.data && big && memcmp(map.data + 4, big, N) == 0);
    ferry_file_unmap(&map);
    CHECK(map.data == NULL);
    CHECK(ferry_file_map(dst, 100, &map, &err) == FERRY_ERR_LIMIT);
    /* A file that is not the size announced: nothing written, the old target kept. */
    CHECK(ferry_file_writer_open(dst, NULL, &w, &err) == FERRY_OK);
    if (w) {
        CHECK(ferry_file_writer_append_file(w, src, N + 1, &err) == FERRY_ERR_IO);
        CHECK(strstr(err.message, "when listed") != NULL);
        CHECK(ferry_file_writer_commit(w, &err) != FERRY_OK);
    }
    CHECK(ferry_file_map(dst, 0, &map, &err) == FERRY_OK);
    CHECK_EQ_U(map.size, 4 + (uint64_t)N);
    ferry_file_unmap(&map);
    CHECK(ferry_file_writer_open(dst, NULL, &w, &err) == FERRY_OK);
    if (w) {
        CHECK(ferry_file_writer_write(w, "x", 1, &err) == FERRY_OK);
        ferry_file_writer_abort(w);
    }
    size_t left = 9;
    CHECK(ferry_file_remove_stale_temporaries(dir, &left, &err) == FERRY_OK && left == 0);
    /* The input protected; an empty file maps. */
    const ferry_write_options keep = {.protect_input = dst};
    CHECK(ferry_file_writer_open(dst, &keep, &w, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_file_write(src, "", 0, NULL, &err) == FERRY_OK);
    CHECK(ferry_file_map(src, 0, &map, &err) == FERRY_OK);
    CHECK(map.size == 0 && map.data != NULL);
    ferry_file_unmap(&map);
    CHECK(ferry_file_map(dir, 0, &map, &err) == FERRY_ERR_IO);
    free(big);
    CHECK(test_remove_tree(dir));
}

int main(void)
{
    test_pack_layout();
    test_pack_order();
    test_pack_refusals();
    test_pack_names();
    test_writer_and_map();
    test_source();
    test_source_listing_once();
    test_crc();
    test_formats();
    test_truncations();
    test_corruptions();
    test_detect();
    test_corpus();
    TEST_END();
}
