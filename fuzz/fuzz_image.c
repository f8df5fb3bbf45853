/* libFuzzer target: texture decoding (TGA via stb_image behind ferry's own
 * header and extent checks, DDS by ferry's DXT/mask decoder, PNG by libpng)
 * and PNG and PAA encoding of whatever decodes.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed decode locates its error inside the input and leaves no pixels;
 *  - a decoded image respects the limits and has pixels;
 *  - every decoded image encodes as PNG;
 *  - a decoded image of power-of-two sides up to 64 encodes as a PAA
 *    texture that validates without error and rewrites byte for byte;
 *  - every mip level ferry_image_level_count counts decodes, each no larger
 *    than half the one before (at least 1), and the one after is refused;
 *  - a DDS whose colour becomes a DXT1 (fy_image_dds_opaque_colour, the
 *    Blender add-on's colorize colour) decodes to the input's colours at
 *    every level, every texel opaque; when it cannot, the error says why. */
#include <ferry/image.h>
#include <ferry/paa.h>

#include "../src/image/image_internal.h"

#include <string.h>

#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_image: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Small limits keep each run fast; the limit checks themselves are fuzzed too. */
    ferry_image_options opts = {1024, 1024, 0};
    ferry_image img;
    ferry_error err;
    if (ferry_image_decode(data, size, &opts, &img, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || !err.message[0]) fail("error without a message");
        if (err.code != FERRY_ERR_NOMEM && (err.offset == FERRY_NO_OFFSET || err.offset > size))
            fail("error without a location inside the input");
        if (img.rgba) fail("failed decode left pixels");
        return 0;
    }
    if (!img.rgba || img.width == 0 || img.height == 0 || img.width > 1024 || img.height > 1024)
        fail("decoded image breaks the limits or has no pixels");
    ferry_buffer png = {0};
    if (ferry_image_encode_png(&img, NULL, &png, &err) != FERRY_OK) fail("a decoded image does not encode as PNG");
    if (png.size < 8 || png.data[1] != 'P') fail("PNG output lacks the signature");
    ferry_buffer_free(&png);
    bool pow2 = !(img.width & (img.width - 1)) && !(img.height & (img.height - 1));
    if (pow2 && img.width <= 64 && img.height <= 64) {
        ferry_paa *paa = NULL;
        if (ferry_paa_encode(&img, NULL, &paa, &err) != FERRY_OK) fail("a power-of-two image does not encode as PAA");
        ferry_diagnostics d = {0};
        if (ferry_paa_validate(paa, NULL, &d) != 0) fail("an encoded PAA has validation errors");
        ferry_diagnostics_free(&d);
        ferry_buffer a = {0}, b = {0};
        ferry_paa *again = NULL;
        if (ferry_paa_write(paa, &a, &err) != FERRY_OK || ferry_paa_read(a.data, a.size, NULL, &again, &err) != FERRY_OK ||
            ferry_paa_write(again, &b, &err) != FERRY_OK || a.size != b.size || memcmp(a.data, b.data, a.size))
            fail("an encoded PAA does not rewrite byte for byte");
        ferry_buffer_free(&a);
        ferry_buffer_free(&b);
        ferry_paa_free(again);
        ferry_paa_free(paa);
    }
    uint32_t levels = ferry_image_level_count(data, size);
    if (levels == 0) fail("a decoded image has no level");
    ferry_buffer opaque = {0};
    if (fy_image_dds_opaque_colour(data, size, &opaque, &err) == FERRY_OK) {
        if (ferry_image_level_count(opaque.data, opaque.size) != levels) fail("the DXT1 colour lost a level");
        for (uint32_t l = 0; l < levels && l < 16; l++) {
            ferry_image_options lo = {1024, 1024, l};
            ferry_image want, got;
            if (ferry_image_decode(data, size, &lo, &want, &err) != FERRY_OK ||
                ferry_image_decode(opaque.data, opaque.size, &lo, &got, &err) != FERRY_OK)
                fail("a level of the DXT1 colour does not decode");
            if (got.width != want.width || got.height != want.height) fail("the DXT1 colour changed a level's size");
            for (size_t t = 0; t < (size_t)want.width * want.height; t++)
                if (memcmp(got.rgba + 4 * t, want.rgba + 4 * t, 3) != 0 || got.rgba[4 * t + 3] != 255)
                    fail("a texel of the DXT1 colour differs from the input's colour");
            ferry_image_free(&want);
            ferry_image_free(&got);
        }
    } else if (err.code == FERRY_OK || !err.message[0]) {
        fail("the DXT1 colour failed without a message");
    }
    ferry_buffer_free(&opaque);
    uint32_t w = img.width, h = img.height;
    for (uint32_t l = 1; l <= levels && l < 16; l++) {
        ferry_image_options lo = {1024, 1024, l};
        ferry_image li;
        ferry_result r = ferry_image_decode(data, size, &lo, &li, &err);
        if (l == levels) {
            if (r != FERRY_ERR_ARGUMENT || li.rgba) fail("a level past the count decodes");
            break;
        }
        if (r != FERRY_OK) fail("a counted level does not decode");
        if (li.width != (w > 1 ? w / 2 : 1) || li.height != (h > 1 ? h / 2 : 1)) fail("a level is not half the one before");
        w = li.width;
        h = li.height;
        ferry_image_free(&li);
    }
    ferry_image_free(&img);
    return 0;
}
