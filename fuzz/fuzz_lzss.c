/* libFuzzer target: the LZSS codec.
 *
 * The first three bytes choose an expected size (up to 1 MiB); the rest is
 * decoded into a buffer of exactly that size (ASan sees any overrun). A
 * failure must be located inside the input; a success must re-encode and
 * decode back to the same bytes. Independently, the whole input is encoded
 * and must decode back to itself. Any breach aborts. */
#include <ferry/lzss.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_lzss: %s\n", what);
    abort();
}

static void round_trip(const uint8_t *data, size_t size)
{
    ferry_buffer enc = {0};
    ferry_error err;
    if (ferry_lzss_encode(data, size, &enc, &err) != FERRY_OK) fail("encode failed");
    if (enc.size > ferry_lzss_max_encoded_size(size)) fail("encoded size over the bound");
    uint8_t *back = malloc(size ? size : 1);
    size_t consumed;
    if (ferry_lzss_decode(enc.data, enc.size, size, back, &consumed, &err) != FERRY_OK) fail("own stream rejected");
    if (consumed != enc.size) fail("own stream not consumed exactly");
    if (size && memcmp(back, data, size) != 0) fail("round trip differs");
    free(back);
    ferry_buffer_free(&enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 3) {
        size_t expected = ((size_t)data[0] | ((size_t)data[1] << 8) | ((size_t)data[2] << 16)) % ((1u << 20) + 1);
        const uint8_t *in = data + 3;
        size_t in_size = size - 3;
        uint8_t *out = malloc(expected ? expected : 1);
        size_t consumed = 0;
        ferry_error err;
        ferry_result r = ferry_lzss_decode(in, in_size, expected, out, &consumed, &err);
        if (r == FERRY_OK) {
            if (consumed > in_size || (expected && consumed < 5)) fail("consumed out of range");
            round_trip(out, expected);
        } else {
            if (r != FERRY_ERR_TRUNCATED && r != FERRY_ERR_MALFORMED) fail("unexpected result code");
            if (err.offset > in_size || !err.message[0]) fail("error without a location inside the input");
        }
        free(out);
    }
    round_trip(data, size);
    return 0;
}
