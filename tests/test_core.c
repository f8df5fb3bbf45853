/* Core: cursor bounds, error formatting, arena limits, buffers, atomic writes,
 * messages kept. */
#define _POSIX_C_SOURCE 200809L
#include <ferry/ferry.h>

#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "core/core.h"
#include "core/platform.h"
#include "support.h"
#include "test.h"

static void test_cursor(void)
{
    const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 'h', 'i', 0, 'x'};
    ferry_error err;
    fy_error_clear(&err);
    fy_cursor c = fy_cursor_make(bytes, 0, sizeof bytes, &err, "0x200/0x201");
    CHECK_EQ_U(fy_u16le(&c, "a"), 0x0201);
    CHECK_EQ_U(fy_u32be(&c, "b"), 0x03040506);
    size_t len = 0;
    const char *s = fy_cstring(&c, &len, "name");
    CHECK(s && len == 2 && memcmp(s, "hi", 2) == 0);
    CHECK_EQ_U(fy_remaining(&c), 1);
    CHECK_EQ_U(fy_u32le(&c, "a count"), 0); /* only 1 byte left */
    CHECK(c.failed);
    CHECK_EQ_U(err.code, FERRY_ERR_TRUNCATED);
    CHECK_EQ_U(err.offset, 9);
    CHECK(strcmp(err.path, "0x200/0x201") == 0);
    CHECK(strstr(err.message, "a count") != NULL);
    /* Sticky: later reads return zero and keep the first error. */
    CHECK_EQ_U(fy_u8(&c, "other"), 0);
    CHECK_EQ_U(err.offset, 9);

    /* A count larger than the bytes is refused before any allocation. */
    fy_error_clear(&err);
    c = fy_cursor_make(bytes, 0, sizeof bytes, &err, NULL);
    CHECK(fy_array(&c, 0x40000000u, 144, "vertices") == NULL);
    CHECK_EQ_U(err.code, FERRY_ERR_TRUNCATED);
    CHECK_EQ_U(err.offset, 0);

    /* An unterminated string is malformed, located where it starts. */
    fy_error_clear(&err);
    c = fy_cursor_make(bytes, 9, sizeof bytes, &err, NULL);
    CHECK(fy_cstring(&c, &len, "name") == NULL);
    CHECK_EQ_U(err.code, FERRY_ERR_MALFORMED);
    CHECK_EQ_U(err.offset, 9);

    /* Big-endian doubles as ALM versions 1 and 2 store them. */
    const uint8_t be_one[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    c = fy_cursor_make(be_one, 0, 8, &err, NULL);
    CHECK(fy_f64be(&c, "d") == 1.0);
}

static void test_error_format(void)
{
    ferry_error err;
    fy_error_clear(&err);
    fy_error_set(&err, FERRY_ERR_MALFORMED, 0x1a2, "0x400/0x401", "expected %s", "a NUL");
    fy_error_set(&err, FERRY_ERR_IO, 3, "", "second error is ignored");
    char line[256];
    ferry_error_format(&err, line, sizeof line);
    CHECK(strcmp(line, "offset 0x1a2 (418), chunk 0x400/0x401: expected a NUL") == 0);
    CHECK(strcmp(ferry_result_name(FERRY_ERR_TRUNCATED), "truncated") == 0);
    CHECK(strcmp(ferry_version(), FERRY_VERSION_STRING) == 0);
}

/* ferry_diagnostic_format: the line validate prints, every place's shape. */
static void test_diagnostic_format(void)
{
    ferry_diagnostic d = {FERRY_SEVERITY_ERROR, 0x1c, "0x400/0x401", "bone-parent-order", "bone 3's parent comes later"};
    char line[512];
    ferry_diagnostic_format(&d, line, sizeof line);
    CHECK_MSG(strcmp(line, "offset 0x1c (28), chunk 0x400/0x401: bone 3's parent comes later [bone-parent-order]") == 0,
              "%s", line);
    snprintf(d.path, sizeof d.path, "lods[2]/faces");
    d.offset = FERRY_NO_OFFSET;
    ferry_diagnostic_format(&d, line, sizeof line);
    CHECK_MSG(strcmp(line, "at lods[2]/faces: bone 3's parent comes later [bone-parent-order]") == 0, "%s", line);
    d.path[0] = '\0';
    ferry_diagnostic_format(&d, line, sizeof line);
    CHECK_MSG(strcmp(line, "bone 3's parent comes later [bone-parent-order]") == 0, "%s", line);
    ferry_diagnostic_format(&d, line, 8); /* cut to fit */
    CHECK(strcmp(line, "bone 3'") == 0);
    ferry_diagnostic_format(NULL, line, sizeof line);
    CHECK(strcmp(line, "no diagnostic") == 0);
}

static void test_arena(void)
{
    ferry_arena *a = ferry_arena_create(100000);
    uint8_t *p = ferry_arena_alloc(a, 10);
    CHECK(p != NULL && p[0] == 0 && p[9] == 0);
    CHECK(((uintptr_t)p % _Alignof(max_align_t)) == 0);
    CHECK(ferry_arena_alloc(a, 200000) == NULL); /* over the limit */
    CHECK(ferry_arena_alloc(a, 1000) != NULL);   /* still usable after a refusal */
    char *s = ferry_arena_strdup(a, "bone");
    CHECK(s && strcmp(s, "bone") == 0);
    CHECK(ferry_arena_used(a) <= 100000);
    CHECK_EQ_U(ferry_arena_limit(a), 100000);
    ferry_arena_destroy(a);
    ferry_arena *unlimited = ferry_arena_create(0);
    for (int i = 0; i < 100; i++) CHECK(ferry_arena_alloc(unlimited, 50000) != NULL);
    ferry_arena_destroy(unlimited);

    /* Adopted memory counts against the limit and is freed with the arena
     * (LeakSanitizer, in CI's sanitizer build, would name it otherwise). */
    ferry_arena *b = ferry_arena_create(100000);
    void *big = malloc(60000), *bigger = malloc(60000);
    CHECK(big && bigger);
    size_t before = ferry_arena_used(b);
    CHECK(fy_arena_adopt(b, big, 60000));
    CHECK(ferry_arena_used(b) >= before + 60000);
    CHECK(!fy_arena_adopt(b, bigger, 60000)); /* past the limit: still ours */
    free(bigger);
    CHECK(ferry_arena_alloc(b, 100) != NULL);
    ferry_arena_destroy(b);
}

static void test_buffer(void)
{
    ferry_buffer b = {0};
    fy_buf_u32le(&b, 0x11223344);
    fy_buf_u16be(&b, 0xaabb);
    fy_buf_f32le(&b, 1.0f);
    fy_buf_put_u32le_at(&b, 0, 7);
    const uint8_t want[] = {7, 0, 0, 0, 0xaa, 0xbb, 0, 0, 0x80, 0x3f};
    CHECK(b.size == sizeof want && memcmp(b.data, want, sizeof want) == 0);
    ferry_buffer_free(&b);
    CHECK(b.data == NULL && b.size == 0);
    /* ferry_buffer_append: grows past its first capacity, keeps every byte. */
    uint8_t chunk[100];
    for (size_t i = 0; i < sizeof chunk; i++) chunk[i] = (uint8_t)i;
    bool all = true;
    for (int i = 0; i < 50; i++) all &= ferry_buffer_append(&b, chunk, sizeof chunk);
    CHECK(all && b.size == 5000 && b.capacity >= 5000 && !b.failed);
    CHECK(b.data && b.data[4999] == 99 && b.data[100] == 0 && b.data[101] == 1);
    CHECK(ferry_buffer_append(&b, NULL, 0) && b.size == 5000);
    CHECK(!ferry_buffer_append(&b, NULL, 3) && b.size == 5000); /* no bytes to take */
    CHECK(!ferry_buffer_append(&b, chunk, SIZE_MAX / 2) && b.failed && b.size == 5000); /* cannot grow */
    CHECK(!ferry_buffer_append(&b, chunk, 1) && b.size == 5000);                       /* nor after */
    ferry_buffer_free(&b);
    CHECK(!ferry_buffer_append(NULL, chunk, 1));
}

static void test_atomic_write(void)
{
    char dir[512];
    CHECK(test_make_temp_dir("ferry-core", dir, sizeof dir));
    char path[600], input[600];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    snprintf(input, sizeof input, "%s/in.bin", dir);
    ferry_error err;
    CHECK(ferry_file_write(input, "abc", 3, NULL, &err) == FERRY_OK);
    CHECK(ferry_file_write(path, "hello", 5, &(ferry_write_options){.protect_input = input}, &err) == FERRY_OK);
    size_t size = 0;
    uint8_t *data = NULL;
    CHECK(ferry_file_load(path, 0, &data, &size, &err) == FERRY_OK);
    CHECK(size == 5 && memcmp(data, "hello", 5) == 0);
    ferry_file_free(data);
    /* The input is never overwritten, not even through another name for
     * it: a link on POSIX; on Windows, where making a link needs a
     * privilege, the same file spelt with backslashes and in capitals (NTFS
     * ignores case). */
    char link_path[600];
#ifdef _WIN32
    TEST_NOT_ON_WINDOWS("an output's mode 0644: Windows files have no mode bits (a new file takes its folder's permissions)");
    TEST_NOT_ON_WINDOWS("a symbolic link to the input: making one needs a privilege on Windows; the input spelt "
                        "another way is refused instead");
    snprintf(link_path, sizeof link_path, "%s\\IN.BIN", dir);
#else
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    snprintf(link_path, sizeof link_path, "%s/link.bin", dir);
    CHECK(symlink(input, link_path) == 0);
#endif
    CHECK(ferry_file_write(link_path, "zz", 2, &(ferry_write_options){.protect_input = input}, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_file_load(input, 0, &data, &size, &err) == FERRY_OK);
    CHECK(size == 3 && memcmp(data, "abc", 3) == 0);
    ferry_file_free(data);
    /* Without the flush: the same file, the same protection of the input. */
    ferry_write_options quick = {input, true};
    CHECK(ferry_file_write(path, "unsynced", 8, &quick, &err) == FERRY_OK);
    CHECK(ferry_file_load(path, 0, &data, &size, &err) == FERRY_OK);
    CHECK(size == 8 && memcmp(data, "unsynced", 8) == 0);
    ferry_file_free(data);
    CHECK(ferry_file_write(link_path, "zz", 2, &quick, &err) == FERRY_ERR_ARGUMENT);
    /* A size limit on loading. */
    CHECK(ferry_file_load(path, 4, &data, &size, &err) == FERRY_ERR_LIMIT);
    CHECK(ferry_file_load("/nonexistent/x", 0, &data, &size, &err) == FERRY_ERR_IO);
    /* A folder that does not exist: the error says so, nothing is left behind. */
    char missing[700];
    snprintf(missing, sizeof missing, "%s/no/such/dir/out.bin", dir);
    CHECK(ferry_file_write(missing, "x", 1, NULL, &err) == FERRY_ERR_IO);
#ifndef _WIN32
    test_remove_file(link_path);
#endif
    test_remove_file(input);
    test_remove_file(path);
    CHECK(test_remove_dir(dir)); /* empty: no temporary files remain */
}

/* Only regular files are read, and nothing blocks: a FIFO with no writer
 * would hang open() or read() forever. */
static void test_not_regular(void)
{
    char dir[512];
    CHECK(test_make_temp_dir("ferry-core", dir, sizeof dir));
    uint8_t *data = NULL;
    size_t size = 0, got = 99;
    ferry_error err;
    uint8_t head[16];
    char fifo[600];
#ifdef _WIN32
    /* Windows' FIFOs are named pipes, in \\.\pipe\ rather than in a folder,
     * told by their name and never opened (test_platform also refuses one
     * a server holds open). */
    snprintf(fifo, sizeof fifo, "\\\\.\\pipe\\ferry-test-core-%ld", fy_process_id());
    const char *device = "NUL";
#else
    snprintf(fifo, sizeof fifo, "%s/f.alo", dir);
    CHECK(mkfifo(fifo, 0644) == 0);
    const char *device = "/dev/null";
#endif
    CHECK(ferry_file_load(fifo, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK(strstr(err.message, "is a FIFO (named pipe), not a regular file") != NULL);
    CHECK(data == NULL && size == 0);
    CHECK(ferry_file_read_head(fifo, head, sizeof head, &got, NULL, &err) == FERRY_ERR_IO && got == 0);
    CHECK(ferry_file_load(device, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK(strstr(err.message, "character device") != NULL);
    CHECK(data == NULL && size == 0);
    CHECK(ferry_file_load(dir, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK(strstr(err.message, "is a folder") != NULL);
    /* The head of a regular file, and its size, without the rest. */
    char path[600];
    snprintf(path, sizeof path, "%s/h.bin", dir);
    CHECK(ferry_file_write(path, "ODOL\x28\0\0\0rest", 12, NULL, &err) == FERRY_OK);
    uint64_t file_size = 0;
    CHECK(ferry_file_read_head(path, head, 4, &got, &file_size, &err) == FERRY_OK);
    CHECK(got == 4 && memcmp(head, "ODOL", 4) == 0 && file_size == 12);
    CHECK(ferry_file_read_head(path, head, sizeof head, &got, NULL, &err) == FERRY_OK && got == 12);
    test_remove_file(path);
#ifndef _WIN32
    test_remove_file(fifo);
#endif
    CHECK(test_remove_dir(dir));
}

/* A killed writer's temporaries: removed only when provably stale. */
static void test_stale_temporaries(void)
{
    char dir[512];
    CHECK(test_make_temp_dir("ferry-core", dir, sizeof dir));
    long long dead = 999999;
    while (fy_process_may_run(dead)) dead--;
    const char *fmt[] = {"%s/a.glb.ferry-tmp-%lld-Ab12Cd",    /* dead writer: removed */
                         "%s/b.glb.ferry-tmp-%lld-Ab12C",     /* five letters: kept */
                         "%s/c.glb.tmp-%lld-Ab12Cd",          /* another pattern: kept */
                         "%s/.ferry-tmp-%lld-Ab12Cd",         /* no target name: kept */
                         "%s/d.glb.ferry-tmp-%lld-Ab12Cd"};   /* this process: kept */
    char paths[5][600];
    ferry_error err;
    for (int i = 0; i < 5; i++) {
        snprintf(paths[i], sizeof paths[i], fmt[i], dir, i == 4 ? (long long)fy_process_id() : dead);
        CHECK(ferry_file_write(paths[i], "x", 1, NULL, &err) == FERRY_OK);
    }
    size_t removed = 0;
    CHECK(ferry_file_remove_stale_temporaries(dir, &removed, &err) == FERRY_OK);
    CHECK_EQ_U(removed, 1);
    CHECK(!test_path_exists(paths[0]));
    for (int i = 1; i < 5; i++) CHECK(test_path_exists(paths[i]));
    for (int i = 1; i < 5; i++) test_remove_file(paths[i]);
    CHECK(ferry_file_remove_stale_temporaries("/nonexistent/x", &removed, &err) == FERRY_ERR_IO);
    CHECK(test_remove_dir(dir));
}

/* The default limit grows with the input, up to an absolute cap. */
static void test_default_limit(void)
{
    CHECK_EQ_U(fy_default_memory_limit(NULL, 1000), 16000 + (1u << 20));
    CHECK_EQ_U(fy_default_memory_limit(NULL, (size_t)2 << 30), FERRY_DEFAULT_MEMORY_CAP);
    CHECK_EQ_U(fy_default_memory_limit(NULL, SIZE_MAX), FERRY_DEFAULT_MEMORY_CAP);
    ferry_read_options big = {(size_t)8 << 30};
    CHECK_EQ_U(fy_default_memory_limit(&big, 10), (size_t)8 << 30);
    CHECK(FERRY_DEFAULT_MEMORY_CAP * 2 + ((size_t)2 << 30) * 2 < (size_t)24000000000);
}

/* fy_real_g writes what snprintf's "%.*g" writes: random bit patterns,
 * values that came from floats (what glTF holds), integers, ties at every
 * digit count, powers of ten and their neighbours, the extremes. */
static uint64_t real_rng = 0x2545F4914F6CDD1Du;
static uint64_t next_real_bits(void)
{
    real_rng ^= real_rng << 13;
    real_rng ^= real_rng >> 7;
    real_rng ^= real_rng << 17;
    return real_rng;
}

static size_t real_mismatches;
static void compare_real(double v, int precision)
{
    char want[64], got[64];
    int nw = snprintf(want, sizeof want, "%.*g", precision, v);
    int ng = fy_real_g(v, precision, got, sizeof got);
    if (nw != ng || strcmp(want, got) != 0) {
        if (real_mismatches++ < 5) fprintf(stderr, "%.17g at %d: printf %s, fy_real_g %s\n", v, precision, want, got);
    }
}

static void test_real_text(void)
{
    static const int precisions[] = {1, 2, 6, 9, 15, 17};
    size_t compared = 0;
    for (size_t i = 0; i < 400000; i++) {
        uint64_t bits = next_real_bits();
        double v;
        switch (i % 5) {
        case 0: memcpy(&v, &bits, sizeof v); break; /* any double */
        case 1: {
            uint32_t f32 = (uint32_t)bits;
            float f;
            memcpy(&f, &f32, sizeof f);
            v = f;
            break;
        }
        case 2: v = (double)(int64_t)(bits >> (bits % 60)) * (bits & 1 ? 1 : -1); break;
        case 3: v = ldexp((double)(bits % 2000001), -(int)(bits >> 40) % 40); break; /* exact binary fractions: ties */
        default: v = pow(10.0, (double)((int)(bits % 60) - 30)) * (1.0 + (double)((int64_t)(bits >> 50) - 8192) * 1e-16);
        }
        if (!isfinite(v)) continue;
        for (size_t p = 0; p < sizeof precisions / sizeof precisions[0]; p++) compare_real(v, precisions[p]);
        compared++;
    }
    static const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 1.5, 2.5, 123456789.5, 9.9999999995, 99999.99995,
                                   1e-5, 1e-4, 9.99999999e-5, 1e9, 1e17, 1e22, 1e23, 5e-324, 2.2250738585072014e-308,
                                   1.7976931348623157e308, 0.1, 0.2, 0.3, 1.0 / 3.0, 4294967295.0, 1e21, 999999999.0};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        for (int p = 1; p <= 17; p++) compare_real(edges[i], p), compare_real(-edges[i], p);
    CHECK_MSG(real_mismatches == 0, "%zu of %zu values written otherwise than printf", real_mismatches, compared);
}

/* ferry_message_list: copies that outlive the message, in order, the
 * error too; NULL text kept as "", NULL file and rule kept NULL. */
static void test_message_list(void)
{
    ferry_message_list list = {0};
    char file[] = "a.alo", text[] = "first", rule[] = "some-rule";
    ferry_error err;
    fy_error_clear(&err);
    fy_error_set(&err, FERRY_ERR_MALFORMED, 12, "0x400", "bad count");
    ferry_message m = {FERRY_MESSAGE_WARNING, file, text, rule, &err};
    ferry_message_list_add(&list, &m);
    memcpy(file, "b.alo", 6); /* the caller's strings change after the call */
    memcpy(text, "later", 6);
    err.offset = 99;
    ferry_message second = {FERRY_MESSAGE_NOTE, NULL, NULL, NULL, NULL};
    for (int i = 0; i < 20; i++) ferry_message_list_add(&list, &second); /* grows past its first capacity */
    CHECK_EQ_U(list.count, 21);
    CHECK(list.items[0].kind == FERRY_MESSAGE_WARNING);
    CHECK(strcmp(list.items[0].file, "a.alo") == 0 && strcmp(list.items[0].text, "first") == 0);
    CHECK(strcmp(list.items[0].rule, "some-rule") == 0);
    CHECK(list.items[0].error && list.items[0].error->offset == 12 && strcmp(list.items[0].error->path, "0x400") == 0);
    CHECK(list.items[20].kind == FERRY_MESSAGE_NOTE && !list.items[20].file && !list.items[20].rule);
    CHECK(list.items[20].text && strcmp(list.items[20].text, "") == 0 && !list.items[20].error);
    ferry_message_list_free(&list);
    CHECK(list.count == 0 && list.items == NULL && list.capacity == 0);
    ferry_message_list_free(&list); /* a cleared list frees again */
    ferry_message_list_free(NULL);
}

int main(void)
{
    test_real_text();
    test_message_list();
    test_cursor();
    test_error_format();
    test_diagnostic_format();
    test_arena();
    test_buffer();
    test_atomic_write();
    test_not_regular();
    test_stale_temporaries();
    test_default_limit();
    TEST_END();
}
