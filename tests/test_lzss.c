/* LZSS codec: hand-made streams with outputs worked out by hand, the edge
 * cases of the ring (spaces, unset slots, d = 0), checksum and truncation
 * errors with their offsets, a ring-buffer reference decoder (the engine's
 * algorithm, written plainly) agreeing with ours on random streams, and
 * encode/decode round trips over many sizes and kinds of data. */
#include <ferry/lzss.h>

#include "support.h"
#include "test.h"

#include <stdint.h>

/* ---- helpers ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* The engine's decoder as it reads (SSCompress::Decode): a real ring, slots
 * 0..4077 spaces, 4078..4095 zero (BIS.Core's reading of the unset slots).
 * Returns the input bytes used before the checksum, or SIZE_MAX when the
 * stream ends early. */
static size_t ring_decode(const uint8_t *in, size_t in_size, size_t expected, uint8_t *out)
{
    uint8_t ring[4096];
    memset(ring, ' ', 4078);
    memset(ring + 4078, 0, 18);
    unsigned r = 4078, flags = 0;
    size_t ip = 0, op = 0;
    while (op < expected) {
        if (((flags >>= 1) & 256) == 0) {
            if (ip >= in_size) return SIZE_MAX;
            flags = in[ip++] | 0xFF00u;
        }
        if (flags & 1) {
            if (ip >= in_size) return SIZE_MAX;
            out[op++] = ring[r] = in[ip++];
            r = (r + 1) & 4095;
        } else {
            if (ip + 2 > in_size) return SIZE_MAX;
            unsigned i = in[ip] | ((in[ip + 1] & 0xF0u) << 4), len = (in[ip + 1] & 0x0Fu) + 3;
            ip += 2;
            unsigned src = r - i;
            for (unsigned k = 0; k < len && op < expected; k++) {
                uint8_t c = ring[(src + k) & 4095];
                out[op++] = ring[r] = c;
                r = (r + 1) & 4095;
            }
        }
    }
    return ip;
}

static void le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Decodes `stream` and compares it with `want`; checks consumed = whole stream. */
static void check_stream(const char *name, const uint8_t *stream, size_t n, const uint8_t *want, size_t want_size,
                         uint32_t want_sum)
{
    uint8_t *out = malloc(want_size ? want_size : 1);
    size_t consumed = 12345;
    ferry_error err;
    ferry_result r = ferry_lzss_decode(stream, n, want_size, out, &consumed, &err);
    CHECK_MSG(r == FERRY_OK, "%s: %s", name, err.message);
    CHECK_EQ_U(consumed, n);
    CHECK_MSG(memcmp(out, want, want_size) == 0, "%s: output differs", name);
    CHECK_EQ_U(ferry_lzss_checksum(want, want_size), want_sum);
    uint8_t *ref = malloc(want_size ? want_size : 1);
    CHECK_EQ_U(ring_decode(stream, n, want_size, ref), n - 4);
    CHECK(memcmp(ref, want, want_size) == 0);
    free(ref);
    free(out);
}

/* Every strict prefix of a valid stream fails as truncated, located at the
 * start of the token that was cut (so within 3 bytes of the cut). */
static void check_truncations(const uint8_t *stream, size_t n, size_t expected)
{
    uint8_t *out = malloc(expected ? expected : 1);
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exact size: ASan sees any over-read */
        memcpy(copy, stream, cut);
        ferry_error err;
        size_t consumed;
        ferry_result r = ferry_lzss_decode(copy, cut, expected, out, &consumed, &err);
        CHECK_MSG(r == FERRY_ERR_TRUNCATED, "cut %zu of %zu: result %d", cut, n, (int)r);
        CHECK_MSG(err.offset <= cut && cut - err.offset <= 3, "cut %zu: offset %llu", cut,
                  (unsigned long long)err.offset);
        CHECK(strstr(err.message, "ends inside") != NULL);
        free(copy);
    }
    free(out);
}

static size_t round_trips, round_trip_bytes_in, round_trip_bytes_out;

static void round_trip(const char *name, const uint8_t *data, size_t size)
{
    ferry_buffer enc = {0};
    ferry_error err;
    ferry_result r = ferry_lzss_encode(data, size, &enc, &err);
    CHECK_MSG(r == FERRY_OK, "%s size %zu: %s", name, size, err.message);
    CHECK_MSG(enc.size <= ferry_lzss_max_encoded_size(size), "%s size %zu: %zu > bound", name, size, enc.size);
    if (size == 0) CHECK_EQ_U(enc.size, 0);
    uint8_t *out = malloc(size ? size : 1);
    size_t consumed = 0;
    r = ferry_lzss_decode(enc.data, enc.size, size, out, &consumed, &err);
    CHECK_MSG(r == FERRY_OK, "%s size %zu: decode: %s", name, size, err.message);
    CHECK_MSG(consumed == enc.size, "%s size %zu: consumed %zu of %zu", name, size, consumed, enc.size);
    CHECK_MSG(size == 0 || memcmp(out, data, size) == 0, "%s size %zu: round trip differs", name, size);
    /* The engine's algorithm reads our stream the same way. */
    if (size && size <= 70000) {
        memset(out, 0xAA, size);
        CHECK_EQ_U(ring_decode(enc.data, enc.size, size, out), enc.size - 4);
        CHECK_MSG(memcmp(out, data, size) == 0, "%s size %zu: ring decode differs", name, size);
    }
    round_trips++;
    round_trip_bytes_in += size;
    round_trip_bytes_out += enc.size;
    free(out);
    ferry_buffer_free(&enc);
}

/* ---- hand-made streams ---- */

static void test_hand_made(void)
{
    /* All literals: flag 0x07, "ABC", sum 65+66+67 = 198. */
    static const uint8_t s1[] = {0x07, 'A', 'B', 'C', 0xC6, 0, 0, 0};
    check_stream("literals", s1, sizeof s1, (const uint8_t *)"ABC", 3, 198);
    check_truncations(s1, sizeof s1, 3);

    /* Into the initial spaces: pair d=5 len 4 (05 01), then literal 'X'.
     * Flags 0b10. "    X": 4*32 + 88 = 216. */
    static const uint8_t s2[] = {0x02, 0x05, 0x01, 'X', 0xD8, 0, 0, 0};
    check_stream("spaces", s2, sizeof s2, (const uint8_t *)"    X", 5, 216);
    check_truncations(s2, sizeof s2, 5);

    /* Overlapping copy: "ab", then d=2 len 10 (02 07): "abababababab",
     * 6*97 + 6*98 = 1170 = 0x492. */
    static const uint8_t s3[] = {0x03, 'a', 'b', 0x02, 0x07, 0x92, 0x04, 0, 0};
    check_stream("overlap", s3, sizeof s3, (const uint8_t *)"abababababab", 12, 1170);
    check_truncations(s3, sizeof s3, 12);

    /* Maximal length: "xyz", then d=3 len 18 (03 0F): "xyz" x 7,
     * 7 * 363 = 2541 = 0x9ED. */
    static const uint8_t s4[] = {0x07, 'x', 'y', 'z', 0x03, 0x0F, 0xED, 0x09, 0, 0};
    check_stream("max length", s4, sizeof s4, (const uint8_t *)"xyzxyzxyzxyzxyzxyzxyz", 21, 2541);

    /* Mixed flag bits 0x5A = pair, lit, pair, lit, lit, pair, lit, pair;
     * then flag 0x01 and one literal. Worked out:
     *   d=1 len 3  (01 00) -> "   "          (spaces before the start)
     *   'a'                -> "   a"
     *   d=2 len 3  (02 00) -> "   a a "      (overlapping: re-reads its own ' ')
     *   'b' 'c'            -> "   a a bc"
     *   d=3 len 4  (03 01) -> "   a a bc bc "
     *   'd'                -> "   a a bc bc d"
     *   d=14 len 5 (0E 02) -> "   a a bc bc d   a "
     *   'e'                -> "   a a bc bc d   a e"
     * Sum: 11 spaces 352, a*3 291, b*2 196, c*2 198, d 100, e 101 = 1238 = 0x4D6. */
    static const uint8_t s5[] = {0x5A, 0x01, 0x00, 'a', 0x02, 0x00, 'b', 'c', 0x03, 0x01, 'd',
                                 0x0E, 0x02, 0x01, 'e', 0xD6, 0x04, 0x00, 0x00};
    check_stream("mixed flags", s5, sizeof s5, (const uint8_t *)"   a a bc bc d   a e", 20, 1238);
    check_truncations(s5, sizeof s5, 20);

    /* 12-bit distance with the high nibble in b1: d = 0x23 | 0x100 = 0x123,
     * len 18 (23 1F), all before the start: 18 spaces = 576 = 0x240. */
    static const uint8_t s6[] = {0x00, 0x23, 0x1F, 0x40, 0x02, 0, 0};
    check_stream("high distance", s6, sizeof s6, (const uint8_t *)"                  ", 18, 576);

    /* A match running past the expected size stops there (the engine's rule):
     * d=1 len 18 for 5 bytes -> 5 spaces = 160; nothing else is read. */
    static const uint8_t s7[] = {0x00, 0x01, 0x0F, 0xA0, 0, 0, 0, 0xEE, 0xEE};
    uint8_t out[32];
    size_t consumed;
    ferry_error err;
    CHECK(ferry_lzss_decode(s7, sizeof s7, 5, out, &consumed, &err) == FERRY_OK);
    CHECK_EQ_U(consumed, 7);
    CHECK(memcmp(out, "     ", 5) == 0);

    /* Expected size 0 reads nothing, as the engine does. */
    CHECK(ferry_lzss_decode(NULL, 0, 0, NULL, &consumed, &err) == FERRY_OK);
    CHECK_EQ_U(consumed, 0);
}

/* The ring's corners: slots 4078..4095 (never written by the engine) read
 * zero; d = 0 means 4096 back. */
static void test_ring_edges(void)
{
    uint8_t out[8];
    size_t consumed;
    ferry_error err;
    /* d = 4090 at position 0: ring slot (4078 - 4090) & 4095 = 4084, unset -> 0. */
    static const uint8_t a[] = {0x00, 0xFA, 0xF0, 0, 0, 0, 0};
    CHECK(ferry_lzss_decode(a, sizeof a, 3, out, &consumed, &err) == FERRY_OK);
    CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0);
    /* d = 0 at position 0: slot 4078, unset -> 0; checksum 0. */
    static const uint8_t b[] = {0x00, 0x00, 0x00, 0, 0, 0, 0};
    CHECK(ferry_lzss_decode(b, sizeof b, 3, out, &consumed, &err) == FERRY_OK);
    /* d = 4078 at position 0: slot 0, a space; len 4 crosses into slot 4 (space). */
    static const uint8_t c[] = {0x00, 0xEE, 0xF1, 0x80, 0, 0, 0};
    CHECK(ferry_lzss_decode(c, sizeof c, 4, out, &consumed, &err) == FERRY_OK);
    CHECK(memcmp(out, "    ", 4) == 0);
    /* d = 4079 at position 0: slot 4095 (0), then slots 0, 1 (spaces). */
    static const uint8_t d[] = {0x00, 0xEF, 0xF0, 0x40, 0, 0, 0};
    CHECK(ferry_lzss_decode(d, sizeof d, 3, out, &consumed, &err) == FERRY_OK);
    CHECK(out[0] == 0 && out[1] == ' ' && out[2] == ' ');

    /* d = 0 after 4100 literals copies from 4096 back. */
    size_t n_lit = 4100, stream_size = 0;
    uint8_t *stream = malloc(n_lit + n_lit / 8 + 16);
    uint8_t *want = malloc(n_lit + 3);
    for (size_t i = 0; i < n_lit; i++) want[i] = (uint8_t)(i * 7 + (i >> 8));
    size_t i = 0;
    while (i < n_lit) {
        stream[stream_size++] = 0xFF;
        for (int k = 0; k < 8 && i < n_lit; k++) stream[stream_size++] = want[i++];
    }
    /* 4100 = 512*8 + 4: the last flag byte has 4 literals; bit 4 is our pair. */
    stream[stream_size - 5] = 0x0F;
    stream[stream_size++] = 0x00;
    stream[stream_size++] = 0x00;
    for (int k = 0; k < 3; k++) want[n_lit + (size_t)k] = want[n_lit + (size_t)k - 4096];
    /* The checksum, by hand: byte i < 4100 is (7i + i/256) mod 256; with
     * i = 256q + r that is (7r + q) mod 256, and since 7 is odd, r = 0..255
     * gives every value 0..255 once: each of the blocks q = 0..15 sums to
     * 255 * 256 / 2 = 32,640, 522,240 in all. q = 16, r = 0..3: 16 + 23 +
     * 30 + 37 = 106. The 3 copied bytes are bytes 4..6: 28 + 35 + 42 = 105.
     * 522,240 + 106 + 105 = 522,451. */
    const uint32_t want_sum = 522451;
    le32(stream + stream_size, want_sum);
    stream_size += 4;
    check_stream("d=0 is 4096", stream, stream_size, want, n_lit + 3, want_sum);
    free(stream);
    free(want);
}

static void test_checksum_errors(void)
{
    static const uint8_t s[] = {0x07, 'A', 'B', 'C', 0xC7, 0, 0, 0};
    uint8_t out[3];
    size_t consumed;
    ferry_error err;
    CHECK(ferry_lzss_decode(s, sizeof s, 3, out, &consumed, &err) == FERRY_ERR_MALFORMED);
    CHECK_EQ_U(err.offset, 4);
    CHECK(strstr(err.message, "stored 0x000000c7") != NULL);
    CHECK(strstr(err.message, "computed 0x000000c6") != NULL);

    /* The 32-bit sum wraps, and is of unsigned bytes. */
    uint8_t big[1024];
    memset(big, 0xFF, sizeof big);
    CHECK_EQ_U(ferry_lzss_checksum(big, sizeof big), 255u * 1024u);

    /* A corrupted byte inside an encoded stream: a mismatch or a different
     * output, never a crash or a silent success with wrong bytes. */
    uint8_t data[3000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)("mesh data "[i % 10] + (i / 100));
    ferry_buffer enc = {0};
    CHECK(ferry_lzss_encode(data, sizeof data, &enc, &err) == FERRY_OK);
    uint8_t *dec = malloc(sizeof data);
    size_t failures = 0;
    for (size_t at = 0; at < enc.size; at += 7) {
        enc.data[at] ^= 0x01;
        ferry_result r = ferry_lzss_decode(enc.data, enc.size, sizeof data, dec, &consumed, &err);
        if (r != FERRY_OK) {
            failures++;
            CHECK(err.offset <= enc.size);
        }
        enc.data[at] ^= 0x01;
    }
    CHECK(failures > 0);
    free(dec);

    /* Truncations of a real encoded stream. */
    check_truncations(enc.data, enc.size, sizeof data);
    ferry_buffer_free(&enc);

    CHECK(ferry_lzss_decode(NULL, 4, 3, out, &consumed, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_lzss_encode(NULL, 4, &enc, &err) == FERRY_ERR_ARGUMENT);
}

/* Our decoder (fast path included) against the plain ring decoder, on random
 * streams: the checksum fails, but the output must match byte for byte. */
static void test_against_ring(void)
{
    size_t agree = 0;
    for (int round = 0; round < 300; round++) {
        size_t expected = 1 + rnd() % 20000;
        size_t in_size = expected * 2 + 64;
        uint8_t *in = malloc(in_size);
        /* Bias the flags towards references, and distances towards short ones
         * now and then, to reach overlapping copies. */
        for (size_t i = 0; i < in_size; i++) in[i] = (uint8_t)rnd();
        if (round % 3 == 0)
            for (size_t i = 0; i < in_size; i += 2) in[i] &= 0x07;
        uint8_t *a = malloc(expected), *b = malloc(expected);
        size_t consumed;
        ferry_error err;
        ferry_result r = ferry_lzss_decode(in, in_size, expected, a, &consumed, &err);
        size_t ring_used = ring_decode(in, in_size, expected, b);
        if (r == FERRY_ERR_TRUNCATED) {
            CHECK(ring_used == SIZE_MAX);
        } else {
            CHECK_MSG(ring_used != SIZE_MAX && memcmp(a, b, expected) == 0, "round %d, size %zu", round, expected);
            CHECK(r == FERRY_OK || (r == FERRY_ERR_MALFORMED && err.offset == ring_used));
            agree++;
        }
        free(a);
        free(b);
        free(in);
    }
    CHECK(agree > 250);
}

/* ---- round trips ---- */

static void fill(uint8_t *p, size_t n, int kind)
{
    switch (kind) {
    case 0: /* random */
        for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
        break;
    case 1: { /* mesh-like: float triples on a grid, little-endian */
        for (size_t i = 0; i + 4 <= n; i += 4) {
            size_t v = i / 12, axis = (i / 4) % 3;
            float f = (float)((axis == 0 ? v % 17 : axis == 1 ? v / 17 : (v * 7) % 5) * 0.25 - 1.0);
            memcpy(p + i, &f, 4);
        }
        for (size_t i = n & ~(size_t)3; i < n; i++) p[i] = 0;
        break;
    }
    case 2: /* long runs of spaces with words */
        for (size_t i = 0; i < n; i++) p[i] = (i % 97) < 60 ? ' ' : (uint8_t)('a' + (i % 26));
        break;
    case 3: /* short repeating pattern */
        for (size_t i = 0; i < n; i++) p[i] = "abc"[i % 3];
        break;
    case 4: /* all one byte (not a space) */
        memset(p, 0x00, n);
        break;
    case 5: /* all spaces: the initial ring matches from the first byte */
        memset(p, ' ', n);
        break;
    default: /* 16-bit indices, slowly rising: typical face lists */
        for (size_t i = 0; i + 1 < n; i += 2) {
            uint16_t v = (uint16_t)(i / 6 + (i % 6) / 2);
            p[i] = (uint8_t)v;
            p[i + 1] = (uint8_t)(v >> 8);
        }
        if (n & 1) p[n - 1] = 0x42;
        break;
    }
}

static void test_round_trips(void)
{
    uint8_t *buf = malloc(2200);
    for (size_t size = 0; size <= 2100; size++) {
        for (int kind = 0; kind < 7; kind++) {
            if (kind > 1 && size % 3 && !(size >= 1020 && size <= 1030)) continue; /* keep the run short */
            fill(buf, size, kind);
            uint8_t *exact = malloc(size ? size : 1);
            memcpy(exact, buf, size);
            round_trip("sizes", exact, size);
            free(exact);
        }
    }
    free(buf);

    /* Explicitly around the engine's 1024-byte threshold. */
    for (size_t size = 1020; size <= 1030; size++) {
        uint8_t *p = malloc(size);
        fill(p, size, 1);
        round_trip("threshold", p, size);
        free(p);
    }

    static const size_t large[] = {4095, 4096, 4097, 8191, 65536, 1u << 20};
    for (size_t k = 0; k < sizeof large / sizeof large[0]; k++) {
        uint8_t *p = malloc(large[k]);
        for (int kind = 0; kind < 7; kind++) {
            fill(p, large[k], kind);
            round_trip("large", p, large[k]);
            if (large[k] == 65536) {
                ferry_buffer enc = {0};
                ferry_error err;
                ferry_lzss_encode(p, large[k], &enc, &err);
                printf("  ratio kind %d, 64 KiB: %.3f\n", kind, (double)enc.size / (double)large[k]);
                ferry_buffer_free(&enc);
            }
        }
        free(p);
    }

    /* Appending to a buffer that already holds bytes keeps them. */
    ferry_buffer enc = {0};
    ferry_error err;
    uint8_t head[3] = {1, 2, 3};
    enc.data = malloc(3);
    memcpy(enc.data, head, 3);
    enc.size = enc.capacity = 3;
    uint8_t text[1100];
    fill(text, sizeof text, 2);
    CHECK(ferry_lzss_encode(text, sizeof text, &enc, &err) == FERRY_OK);
    CHECK(memcmp(enc.data, head, 3) == 0);
    uint8_t back[1100];
    size_t consumed;
    CHECK(ferry_lzss_decode(enc.data + 3, enc.size - 3, sizeof back, back, &consumed, &err) == FERRY_OK);
    CHECK(memcmp(back, text, sizeof text) == 0);
    ferry_buffer_free(&enc);
}

/* Real bytes: the raw ODOL files (not parsed) round-trip through the codec. */
static void test_corpus(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/odol";
    if (!test_dir_exists(dir)) {
        TEST_LEFT_OUT("corpus part (%s is absent)", dir);
        return;
    }
    char **paths;
    size_t count = test_list_files(dir, ".p3d", &paths);
    size_t in_total = 0, out_total = 0;
    for (size_t i = 0; i < count; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        size_t before = round_trip_bytes_out;
        round_trip(paths[i], data, size);
        in_total += size;
        out_total += round_trip_bytes_out - before;
        free(data);
    }
    printf("  corpus: %zu files, %zu -> %zu bytes (ratio %.3f)\n", count, in_total, out_total,
           in_total ? (double)out_total / (double)in_total : 0.0);
    test_free_paths(paths, count);
}

int main(void)
{
    test_hand_made();
    test_ring_edges();
    test_checksum_errors();
    test_against_ring();
    test_round_trips();
    test_corpus();
    printf("  %zu round trips, %zu -> %zu bytes\n", round_trips, round_trip_bytes_in, round_trip_bytes_out);
    TEST_END();
}
