/* ferry_detect: every format told from its content, whatever the buffer's
 * length; the real samples and tiny hand-made buffers. */
#include <ferry/alm.h>
#include <ferry/detect.h>
#include <ferry/ferry.h>

#include "alm_fixture.h"
#include "support.h"
#include "test.h"

static ferry_format detect_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK_MSG(data != NULL, "cannot read %s", path);
    ferry_format f = ferry_detect(data, size);
    /* The head alone gives the same answer as the whole file. */
    CHECK_EQ_U(ferry_detect(data, size < FERRY_DETECT_HEAD ? size : FERRY_DETECT_HEAD), f);
    free(data);
    return f;
}

static void test_samples(void)
{
    CHECK_EQ_U(detect_file(FERRY_SOURCE_DIR "/samples/alamo/walker.alo"), FERRY_FORMAT_ALO_MODEL);
    CHECK_EQ_U(detect_file(FERRY_SOURCE_DIR "/samples/alamo/crate.alo"), FERRY_FORMAT_ALO_MODEL);
    CHECK_EQ_U(detect_file(FERRY_SOURCE_DIR "/samples/alamo/p_walker_exhaust.alo"), FERRY_FORMAT_ALO_PARTICLE);
    CHECK_EQ_U(detect_file(FERRY_SOURCE_DIR "/samples/alamo/walker_walk_00.ala"), FERRY_FORMAT_ALA);
    CHECK_EQ_U(detect_file(FERRY_SOURCE_DIR "/samples/odol/box.p3d"), FERRY_FORMAT_ODOL);
    CHECK_EQ_U(detect_file(FERRY_SOURCE_DIR "/samples/odol/door.p3d"), FERRY_FORMAT_ODOL);
}

static void test_alm(void)
{
    for (uint32_t v = 2; v <= 10; v++) {
        bytes b = {0};
        alm_fixture(&b, v, NULL);
        CHECK_EQ_U(ferry_detect(b.data, b.size), FERRY_FORMAT_ALM);
        free(b.data);
    }
}

static void test_alamo_headers(void)
{
    const struct {
        uint8_t bytes[8];
        ferry_format format;
    } cases[] = {
        {{0x00, 0x02, 0, 0, 0x10, 0, 0, 0x80}, FERRY_FORMAT_ALO_MODEL},
        {{0x00, 0x09, 0, 0, 0x10, 0, 0, 0x80}, FERRY_FORMAT_ALO_PARTICLE},
        {{0x00, 0x15, 0, 0, 0x10, 0, 0, 0x80}, FERRY_FORMAT_ALO_PARTICLE_UAW},
        {{0x00, 0x10, 0, 0, 0x10, 0, 0, 0x80}, FERRY_FORMAT_ALA},
        {{0x00, 0x04, 0, 0, 0x10, 0, 0, 0x80}, FERRY_FORMAT_UNKNOWN}, /* a mesh chunk is no file's first */
        {{0x00, 0x02, 0, 1, 0x10, 0, 0, 0x80}, FERRY_FORMAT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ_U(ferry_detect(cases[i].bytes, 8), cases[i].format);
    /* Shorter than a chunk header: only a model's start counts (truncated model). */
    CHECK_EQ_U(ferry_detect(cases[0].bytes, 4), FERRY_FORMAT_ALO_MODEL);
    CHECK_EQ_U(ferry_detect(cases[0].bytes, 7), FERRY_FORMAT_ALO_MODEL);
    CHECK_EQ_U(ferry_detect(cases[1].bytes, 7), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect(cases[3].bytes, 7), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect(cases[0].bytes, 3), FERRY_FORMAT_UNKNOWN);
}

static void test_signatures(void)
{
    CHECK_EQ_U(ferry_detect("ODOL\x28\0\0\0", 8), FERRY_FORMAT_ODOL);
    CHECK_EQ_U(ferry_detect("ODOL", 4), FERRY_FORMAT_ODOL); /* truncated: the reader says so */
    CHECK_EQ_U(ferry_detect("ODO", 3), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("odol\x28\0\0\0", 8), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("MLOD\x01\x01\0\0", 8), FERRY_FORMAT_MLOD);
    CHECK_EQ_U(ferry_detect("ALM\0\0\0\0\x0a", 8), FERRY_FORMAT_ALM);
    CHECK_EQ_U(ferry_detect("ALM ", 4), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("glTF\x02\0\0\0\x14\0\0\0", 12), FERRY_FORMAT_GLB);
    CHECK_EQ_U(ferry_detect("gltf\x02\0\0\0", 8), FERRY_FORMAT_UNKNOWN);
}

static ferry_format detect_text(const char *s) { return ferry_detect(s, strlen(s)); }

static void test_gltf_json(void)
{
    CHECK_EQ_U(detect_text("{\"asset\":{\"version\":\"2.0\"}}"), FERRY_FORMAT_GLTF);
    CHECK_EQ_U(detect_text("\xEF\xBB\xBF\n  {\n  \"asset\" : {\"version\":\"2.0\"}}"), FERRY_FORMAT_GLTF);
    CHECK_EQ_U(detect_text("{\"scene\":0,\"asset\":{\"version\":\"2.0\"}}"), FERRY_FORMAT_GLTF);
    CHECK_EQ_U(detect_text("{\"name\":\"asset\"}"), FERRY_FORMAT_UNKNOWN); /* a value, not a key */
    CHECK_EQ_U(detect_text("{\"scene\":0}"), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(detect_text("[\"asset\":1]"), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(detect_text("x{\"asset\":1}"), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(detect_text("{\"asset\""), FERRY_FORMAT_UNKNOWN); /* cut before the colon */
    /* Only the head counts: a key past FERRY_DETECT_HEAD is not looked for. */
    size_t n = FERRY_DETECT_HEAD + 64;
    char *big = malloc(n + 1);
    CHECK(big != NULL);
    if (big) {
        memset(big, ' ', n);
        memcpy(big, "{\"extras\":\"", 11);
        memcpy(big + FERRY_DETECT_HEAD, "\",\"asset\":{}}", 13);
        big[n] = 0;
        CHECK_EQ_U(ferry_detect(big, n), FERRY_FORMAT_UNKNOWN);
        memcpy(big + 20, "\",\"asset\":{}, \"x\":\"", 19);
        CHECK_EQ_U(ferry_detect(big, n), FERRY_FORMAT_GLTF);
        free(big);
    }
}

/* Every length of every prefix of every sample, and random bytes: never a
 * read outside the buffer (run under ASan in the sanitizer build), and an
 * answer that never depends on bytes past the head. */
static void test_tiny_and_random(void)
{
    CHECK_EQ_U(ferry_detect(NULL, 100), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("", 0), FERRY_FORMAT_UNKNOWN);
    const char *files[] = {FERRY_SOURCE_DIR "/samples/alamo/walker.alo", FERRY_SOURCE_DIR "/samples/odol/box.p3d"};
    for (size_t f = 0; f < 2; f++) {
        size_t size = 0;
        uint8_t *data = test_read_file(files[f], &size);
        if (!data) continue;
        for (size_t n = 0; n <= 16 && n <= size; n++) {
            uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes, so ASan sees any overread */
            memcpy(copy, data, n);
            ferry_format got = ferry_detect(copy, n);
            CHECK(got == FERRY_FORMAT_UNKNOWN || got == ferry_detect(data, size));
            free(copy);
        }
        free(data);
    }
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        size_t n = (size_t)(test_xorshift(&state) % 40);
        uint8_t *buf = malloc(n ? n : 1);
        for (size_t k = 0; k < n; k++) buf[k] = (uint8_t)test_xorshift(&state);
        if (n && (test_xorshift(&state) & 1)) buf[0] = '{';
        ferry_format got = ferry_detect(buf, n);
        CHECK(got <= FERRY_FORMAT_GLTF);
        free(buf);
    }
}

static void test_names(void)
{
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_ALO_MODEL), "ALO model") == 0);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_ALA), "ALA animation") == 0);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_ODOL), "ODOL") == 0);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_ALM), "ALM") == 0);
    CHECK(strcmp(ferry_format_name((ferry_format)99), "unknown") == 0);
}

/* PBO: the product entry's first bytes, a plausible first record, or an
 * empty archive (more cases in test_pbo). */
static void test_pbo(void)
{
    CHECK_EQ_U(ferry_detect("\0sreV\0\0\0", 8), FERRY_FORMAT_PBO);
    CHECK_EQ_U(ferry_detect("\0sreX\0\0\0", 8), FERRY_FORMAT_UNKNOWN);
    static const char rec[] = "init.sqf\0\0\0\0\0\0\0\0\0\0\0\0\0\x07\0\0\0\x05\0\0\0";
    CHECK_EQ_U(ferry_detect(rec, sizeof rec - 1), FERRY_FORMAT_PBO);
    CHECK_EQ_U(ferry_detect(rec, sizeof rec - 2), FERRY_FORMAT_UNKNOWN); /* its fields cut */
    static const char cprs[] = "a.bin\0srpC\x09\0\0\0\0\0\0\0\0\0\0\0\x0a\0\0\0";
    CHECK_EQ_U(ferry_detect(cprs, sizeof cprs - 1), FERRY_FORMAT_PBO);
    static const char zeros[21] = {0};
    CHECK_EQ_U(ferry_detect(zeros, 21), FERRY_FORMAT_PBO);
    CHECK_EQ_U(ferry_detect(zeros, 20), FERRY_FORMAT_UNKNOWN);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_PBO), "PBO") == 0);
}

/* PAA: a type, then a tag or an empty palette and a plausible mipmap. */
static void test_paa(void)
{
    CHECK_EQ_U(ferry_detect("\x01\xffGGATCGVA", 10), FERRY_FORMAT_PAA);
    CHECK_EQ_U(ferry_detect("\x05\xffGGAT", 6), FERRY_FORMAT_PAA);
    CHECK_EQ_U(ferry_detect("\x44\x44GGAT", 6), FERRY_FORMAT_PAA);
    CHECK_EQ_U(ferry_detect("\x80\x80GGAT", 6), FERRY_FORMAT_PAA);
    /* No tags: empty palette, 4 x 4 (LZO bit set for DXT1), u24 size. */
    CHECK_EQ_U(ferry_detect("\x01\xff\0\0\x04\x80\x04\0\x08\0\0", 11), FERRY_FORMAT_PAA);
    CHECK_EQ_U(ferry_detect("\x88\x88\0\0\x04\0\x04\0\x08\0\0", 11), FERRY_FORMAT_PAA);
    /* The LZO bit means nothing for ARGB types: 0x8004 wide is implausible. */
    CHECK_EQ_U(ferry_detect("\x88\x88\0\0\x04\x80\x04\0\x08\0\0", 11), FERRY_FORMAT_UNKNOWN);
    /* A palette, a zero side, another type, too short: unknown. */
    CHECK_EQ_U(ferry_detect("\x01\xff\x01\0\x04\0\x04\0\x08\0\0", 11), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("\x01\xff\0\0\0\0\x04\0\x08\0\0", 11), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("\x06\xffGGAT", 6), FERRY_FORMAT_UNKNOWN);
    CHECK_EQ_U(ferry_detect("\x01\xffGGA", 5), FERRY_FORMAT_UNKNOWN);
    /* An OFP palette-indexed texture starts with its tags: not told. */
    CHECK_EQ_U(ferry_detect("GGATCGVA\x04\0\0\0", 12), FERRY_FORMAT_UNKNOWN);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_PAA), "PAA") == 0);
}

/* Configs: raP by its signature; text by its first statement. */
static void test_config(void)
{
    CHECK_EQ_U(ferry_detect("\0raP\0\0\0\0", 8), FERRY_FORMAT_RAP);
    const char *texts[] = {"class Stage1 { texture = \"a.paa\"; };", "// c\n#define _ARMA_\nambient[] = {1,1,1,1};",
                           "/* x */ delete A;", "\xef\xbb\xbf\x61=1;" /* BOM, a=1; */, "list[] += {1};", "enum { a };"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        CHECK_MSG(ferry_detect(texts[i], strlen(texts[i])) == FERRY_FORMAT_CONFIG_TEXT, "%s", texts[i]);
    const char *not_texts[] = {"a = 1", "hello world;", "class\x01 A;", "= 1;", "/* never ends; a=1;"};
    for (size_t i = 0; i < sizeof not_texts / sizeof not_texts[0]; i++)
        CHECK_MSG(ferry_detect(not_texts[i], strlen(not_texts[i])) == FERRY_FORMAT_UNKNOWN, "%s", not_texts[i]);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_RAP), "raP config") == 0);
    CHECK(strcmp(ferry_format_name(FERRY_FORMAT_CONFIG_TEXT), "config text") == 0);
}

int main(void)
{
    test_pbo();
    test_config();
    test_paa();
    test_samples();
    test_alm();
    test_alamo_headers();
    test_signatures();
    test_gltf_json();
    test_tiny_and_random();
    test_names();
    TEST_END();
}
