/* libFuzzer target: the LZO1X stream measurement and decode of ODOL v44+
 * arrays (lzo.h). ferry_lzo_measure walks the instructions itself, so it
 * is parser code over untrusted bytes like any reader.
 *
 * Contracts checked (abort on breach):
 *  - measuring never reads past the input (ASan) and, on success, names a
 *    stream inside it; on failure the error is located inside it;
 *  - a measured stream either decodes to exactly its measured size,
 *    consuming exactly the measured bytes, or is refused as malformed;
 *  - decoding to another size than the measured one is refused;
 *  - the whole input, encoded, decodes back to itself. */
#include <ferry/lzo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_lzo: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t stream = 0, decoded = 0;
    ferry_error err;
    if (ferry_lzo_measure(data, size, &stream, &decoded, &err) != FERRY_OK) {
        if (err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0]) fail("unlocated measure error");
    } else {
        if (stream > size) fail("measured stream longer than the input");
        /* Streams decoding to more than 16 MiB are legal but not worth the
         * time; an expected size of 0 reads nothing by contract. */
        if (decoded && decoded <= (16u << 20)) {
            uint8_t *out = malloc(decoded + 1);
            size_t consumed = 0;
            ferry_result r = ferry_lzo_decode(data, size, decoded, out, &consumed, &err);
            if (r == FERRY_OK && consumed != stream) fail("decode consumed other bytes than measured");
            if (r != FERRY_OK && r != FERRY_ERR_MALFORMED) fail("a measured stream failed otherwise than malformed");
            if (ferry_lzo_decode(data, size, decoded - 1, out, NULL, &err) == FERRY_OK && decoded > 1)
                fail("decoded to a size other than the measured one");
            free(out);
        }
    }
    ferry_buffer enc = {0};
    if (ferry_lzo_encode(data, size, &enc, &err) != FERRY_OK) fail("encode failed");
    if (size) {
        uint8_t *back = malloc(size);
        size_t consumed = 0;
        if (ferry_lzo_decode(enc.data, enc.size, size, back, &consumed, &err) != FERRY_OK) fail("own stream rejected");
        if (consumed != enc.size || memcmp(back, data, size) != 0) fail("round trip differs");
        free(back);
    }
    ferry_buffer_free(&enc);
    return 0;
}
