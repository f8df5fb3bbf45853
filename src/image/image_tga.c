/* TGA: the header and the extent of the pixel data are checked here, so that
 * every failure is located and nothing is allocated for data that is not
 * there; the pixels themselves are decoded by stb_image, which handles every
 * TGA variant these games use (true-colour, grey, colour-mapped, RLE) and the
 * bottom-up/top-down origin bit.
 *
 * Why check before stb_image: it allocates width * height * components from
 * the header alone, and reads past the end of truncated data as zeros instead
 * of failing. Handing it exactly the bytes this walk found makes its output a
 * function of data known to be complete.
 *
 * stb_image state: the only process-wide setting that would change TGA output
 * is stbi_set_flip_vertically_on_load; ferry never calls it and expects the
 * process to leave it off. Its failure reason is thread-local in the stb
 * Debian ships (2.27), so reading it is safe from any thread. */
#include "image_internal.h"

#include <limits.h>
#include <stb_image.h>
#include <stdlib.h>

enum {
    TGA_OFF_CMAP_TYPE = 1,
    TGA_OFF_IMAGE_TYPE = 2,
    TGA_OFF_CMAP_FIRST = 3,
    TGA_OFF_CMAP_LEN = 5,
    TGA_OFF_CMAP_BITS = 7,
    TGA_OFF_WIDTH = 12,
    TGA_OFF_BPP = 16,
    TGA_OFF_DESCRIPTOR = 17,
    TGA_HEADER_SIZE = 18
};

static ferry_result fail(ferry_error *err, ferry_result code, uint64_t offset, const char *message,
                         unsigned value)
{
    fy_error_set(err, code, offset, NULL, "%s (found %u)", message, value);
    return code;
}

ferry_result fy_image_decode_tga(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, ferry_image *out, ferry_error *err)
{
    fy_cursor c = fy_cursor_make(data, 0, size, err, NULL);
    const uint8_t *h = fy_bytes(&c, TGA_HEADER_SIZE, "the 18-byte TGA header");
    if (!h) return err ? err->code : FERRY_ERR_TRUNCATED;

    unsigned id_len = h[0], cmap_type = h[1], image_type = h[2];
    unsigned cmap_first = fy_load_u16le(h + 3), cmap_len = fy_load_u16le(h + 5), cmap_bits = h[7];
    uint32_t width = fy_load_u16le(h + 12), height = fy_load_u16le(h + 14);
    unsigned bpp = h[16], descriptor = h[17];

    if (cmap_type > 1)
        return fail(err, FERRY_ERR_MALFORMED, TGA_OFF_CMAP_TYPE, "expected colour-map type 0 or 1",
                    cmap_type);
    switch (image_type) {
    case 1: case 2: case 3: case 9: case 10: case 11: break;
    case 0:
        return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_IMAGE_TYPE,
                    "TGA image type 0 holds no image data", image_type);
    case 32: case 33:
        return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_IMAGE_TYPE,
                    "Huffman/delta-compressed TGA (image types 32, 33) is not supported", image_type);
    default:
        return fail(err, FERRY_ERR_MALFORMED, TGA_OFF_IMAGE_TYPE,
                    "expected TGA image type 1, 2, 3 (uncompressed) or 9, 10, 11 (RLE)", image_type);
    }
    unsigned kind = image_type & 7u; /* 1 colour-mapped, 2 true-colour, 3 grey */
    bool rle = (image_type & 8u) != 0;

    if (kind == 1) {
        if (cmap_type != 1)
            return fail(err, FERRY_ERR_MALFORMED, TGA_OFF_CMAP_TYPE,
                        "a colour-mapped TGA (image type 1 or 9) needs colour-map type 1", cmap_type);
        if (bpp != 8 && bpp != 16)
            return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_BPP,
                        "expected 8- or 16-bit colour-map indices", bpp);
        if (cmap_bits != 8 && cmap_bits != 15 && cmap_bits != 16 && cmap_bits != 24 && cmap_bits != 32)
            return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_CMAP_BITS,
                        "expected colour-map entries of 8, 15, 16, 24 or 32 bits", cmap_bits);
        if (cmap_len == 0)
            return fail(err, FERRY_ERR_MALFORMED, TGA_OFF_CMAP_LEN,
                        "expected a colour map of at least one entry", cmap_len);
        /* stb_image reads the first-entry index as bytes to skip, which is
         * not what the field means: refuse rather than show wrong colours. */
        if (cmap_first != 0)
            return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_CMAP_FIRST,
                        "colour maps that start at an index other than 0 are not supported",
                        cmap_first);
    } else {
        if (cmap_type == 1)
            return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_CMAP_TYPE,
                        "a colour map with a true-colour or grey TGA is not supported", cmap_type);
        if (kind == 2 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32)
            return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_BPP,
                        "expected 15, 16, 24 or 32 bits per pixel for a true-colour TGA", bpp);
        if (kind == 3 && bpp != 8 && bpp != 16)
            return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_BPP,
                        "expected 8 (grey) or 16 (grey + alpha) bits per pixel for a grey TGA", bpp);
    }
    /* Bits 6-7 ask for interleaved rows, a layout nothing has written since
     * the 1980s and stb_image does not undo. */
    if (descriptor & 0xC0u)
        return fail(err, FERRY_ERR_UNSUPPORTED, TGA_OFF_DESCRIPTOR,
                    "interleaved TGA rows (image descriptor bits 6-7) are not supported", descriptor);

    ferry_result r = fy_image_check_dims(width, height, max_width, max_height, TGA_OFF_WIDTH, err);
    if (r != FERRY_OK) return r;

    fy_bytes(&c, id_len, "the image ID");
    if (cmap_type == 1) fy_array(&c, cmap_len, (cmap_bits + 7u) / 8u, "colour-map entries");
    size_t pixel_bytes = (bpp + 7u) / 8u;
    uint64_t pixels = (uint64_t)width * height;
    if (!rle) {
        fy_array(&c, pixels, pixel_bytes, "pixels");
    } else {
        /* Walk the packets: each takes at least two bytes, so the walk is
         * bounded by the input. A packet may run across rows (older writers
         * do that) and its excess past the last pixel is ignored, as
         * stb_image does. */
        uint64_t left = pixels;
        while (left && !c.failed) {
            uint8_t packet = fy_u8(&c, "an RLE packet header");
            uint64_t count = (uint64_t)(packet & 0x7Fu) + 1;
            if (count > left) count = left;
            if (packet & 0x80u)
                fy_bytes(&c, pixel_bytes, "the repeated pixel of an RLE packet");
            else
                fy_array(&c, count, pixel_bytes, "the pixels of a raw RLE packet");
            left -= count;
        }
    }
    if (c.failed) return err ? err->code : FERRY_ERR_TRUNCATED;

    /* stb_image takes an int length and computes width * height * 4 in int. */
    if (c.pos > INT_MAX || pixels > INT_MAX / 4) {
        fy_error_set(err, FERRY_ERR_LIMIT, TGA_OFF_WIDTH, NULL,
                     "TGA of %" PRIu32 " x %" PRIu32 " pixels is larger than stb_image decodes", width,
                     height);
        return FERRY_ERR_LIMIT;
    }
    int w = 0, hgt = 0, comp = 0;
    stbi_uc *pixels_rgba = stbi_load_from_memory(data, (int)c.pos, &w, &hgt, &comp, 4);
    if (!pixels_rgba) {
        const char *why = stbi_failure_reason();
        fy_error_set(err, FERRY_ERR_MALFORMED, 0, NULL, "stb_image could not decode the TGA: %s",
                     why ? why : "no reason given");
        return FERRY_ERR_MALFORMED;
    }
    if ((uint32_t)w != width || (uint32_t)hgt != height) {
        stbi_image_free(pixels_rgba);
        fy_error_set(err, FERRY_ERR_MALFORMED, TGA_OFF_WIDTH, NULL,
                     "stb_image decoded %d x %d pixels where the TGA header says %" PRIu32
                     " x %" PRIu32,
                     w, hgt, width, height);
        return FERRY_ERR_MALFORMED;
    }

    /* Copy into memory ferry owns (ferry_image_free uses free(), which need
     * not match stb's allocator), undoing right-to-left rows (descriptor bit
     * 4, which stb_image ignores) on the way. */
    r = fy_image_alloc(width, height, max_width, max_height, TGA_OFF_WIDTH, out, err);
    if (r != FERRY_OK) {
        stbi_image_free(pixels_rgba);
        return r;
    }
    size_t row = (size_t)width * 4;
    if (descriptor & 0x10u) {
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *src = pixels_rgba + y * row;
            uint8_t *dst = out->rgba + y * row;
            for (uint32_t x = 0; x < width; x++) memcpy(dst + (size_t)x * 4, src + (size_t)(width - 1 - x) * 4, 4);
        }
    } else {
        memcpy(out->rgba, pixels_rgba, row * height);
    }
    stbi_image_free(pixels_rgba);
    return FERRY_OK;
}
