/* libFuzzer target: the PAA/PAC reader, and everything that consumes a
 * texture it produced (writer, validation, mipmap decoding).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input (or at its end);
 *  - a texture that reads writes back byte for byte;
 *  - every mipmap decodes or fails with a located error, and a decoded one
 *    has the mipmap's size;
 *  - validation reports with rules. */
#include <ferry/paa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_paa: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_paa *p = NULL;
    ferry_error err;
    if (ferry_paa_read(data, size, NULL, &p, &err) != FERRY_OK) {
        if (p) fail("failed read left a texture");
        if (err.offset != FERRY_NO_OFFSET && err.offset > size) fail("error located past the input");
        return 0;
    }
    ferry_buffer buf = {0};
    if (ferry_paa_write(p, &buf, &err) != FERRY_OK) fail("write failed");
    if (buf.size != size || (size && memcmp(buf.data, data, size) != 0)) fail("rewrite differs");
    ferry_buffer_free(&buf);
    for (size_t i = 0; i < p->mip_count; i++) {
        /* Keep each run fast: skip mipmaps above 1024 x 1024 (the reader
         * allows 32767; decoding is linear in the pixels). */
        if ((size_t)p->mips[i].width * p->mips[i].height > 1024u * 1024u) continue;
        ferry_image img;
        if (ferry_paa_decode_mip(p, i, &img, &err) == FERRY_OK) {
            if (img.width != p->mips[i].width || img.height != p->mips[i].height) fail("decoded size differs");
            ferry_image_free(&img);
        } else if (err.offset != FERRY_NO_OFFSET && err.offset > size) {
            fail("decode error located past the input");
        }
    }
    ferry_diagnostics d = {0};
    size_t errors = ferry_paa_validate(p, NULL, &d);
    if (errors != d.error_count && !d.dropped) fail("validate's count differs from its diagnostics");
    for (size_t i = 0; i < d.count; i++)
        if (!d.items[i].rule[0]) fail("diagnostic without a rule");
    ferry_diagnostics_free(&d);
    ferry_paa_free(p);
    return 0;
}
