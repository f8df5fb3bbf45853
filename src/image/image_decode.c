/* ferry_image_decode: tells DDS from TGA by their bytes and hands over to
 * the format's decoder; the shared dimension checks and pixel allocation. */
#include "image_internal.h"

#include <stdlib.h>

/* Defaults when the caller leaves a limit at 0: the largest texture D3D9-era
 * hardware (and these games) would load, and 1 GiB of RGBA at most. */

ferry_result fy_image_check_dims(uint32_t width, uint32_t height, uint32_t max_width,
                                 uint32_t max_height, uint64_t dims_offset, ferry_error *err)
{
    if (width == 0 || height == 0) {
        fy_error_set(err, FERRY_ERR_MALFORMED, dims_offset, NULL,
                     "expected a width and height of at least 1, found %" PRIu32 " x %" PRIu32, width,
                     height);
        return FERRY_ERR_MALFORMED;
    }
    if (width > max_width || height > max_height) {
        fy_error_set(err, FERRY_ERR_LIMIT, dims_offset, NULL,
                     "image of %" PRIu32 " x %" PRIu32 " pixels exceeds the limit of %" PRIu32
                     " x %" PRIu32,
                     width, height, max_width, max_height);
        return FERRY_ERR_LIMIT;
    }
    /* Caller-raised limits could reach 2^32 x 2^32: keep width*height*4
     * representable before anyone multiplies. */
    if ((uint64_t)width * height > SIZE_MAX / 4) {
        fy_error_set(err, FERRY_ERR_LIMIT, dims_offset, NULL,
                     "image of %" PRIu32 " x %" PRIu32 " pixels is too large to address", width, height);
        return FERRY_ERR_LIMIT;
    }
    return FERRY_OK;
}

ferry_result fy_image_alloc(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height,
                            uint64_t dims_offset, ferry_image *out, ferry_error *err)
{
    ferry_result r = fy_image_check_dims(width, height, max_width, max_height, dims_offset, err);
    if (r != FERRY_OK) return r;
    size_t bytes = (size_t)width * height * 4;
    uint8_t *rgba = malloc(bytes);
    if (!rgba) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL,
                     "could not allocate %zu bytes for %" PRIu32 " x %" PRIu32 " RGBA pixels", bytes,
                     width, height);
        return FERRY_ERR_NOMEM;
    }
    out->width = width;
    out->height = height;
    out->rgba = rgba;
    return FERRY_OK;
}

/* A TGA has no magic number; its first three bytes are the ID length (any),
 * the colour-map type (0 or 1) and the image type. Every other format stb_image
 * knows has a signature whose second byte is neither 0 nor 1, so this test
 * also keeps stb_image from decoding a PNG or JPEG passed off as a TGA. */
static bool tga_plausible(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[1] > 1) return false;
    if (size >= 3) {
        switch (data[2]) {
        case 0: case 1: case 2: case 3: case 9: case 10: case 11: case 32: case 33: break;
        default: return false;
        }
    }
    return true;
}

ferry_result ferry_image_decode(const uint8_t *data, size_t size, const ferry_image_options *options,
                                ferry_image *out, ferry_error *err)
{
    /* The decoders read the error code back from `err`: give them one even
     * when the caller does not want the details. */
    ferry_error scratch;
    if (!err) err = &scratch;
    fy_error_clear(err);
    if (!out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no output image given");
        return FERRY_ERR_ARGUMENT;
    }
    out->width = out->height = 0;
    out->rgba = NULL;
    if (!data && size) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no input bytes given");
        return FERRY_ERR_ARGUMENT;
    }
    uint32_t max_w = options && options->max_width ? options->max_width : FY_IMAGE_DEFAULT_MAX;
    uint32_t max_h = options && options->max_height ? options->max_height : FY_IMAGE_DEFAULT_MAX;

    if (size == 0) {
        fy_error_set(err, FERRY_ERR_TRUNCATED, 0, NULL,
                     "expected a PNG, DDS or TGA header, the input is empty");
        return FERRY_ERR_TRUNCATED;
    }
    /* A prefix of the magic is a truncated DDS, so that every cut of a DDS
     * file reports truncation rather than "unknown format". */
    size_t magic_len = size < 4 ? size : 4;
    uint32_t level = options ? options->level : 0;
    if (memcmp(data, "DDS ", magic_len) == 0)
        return fy_image_decode_dds(data, size, max_w, max_h, level, out, NULL, err);
    if (level > 0) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "mip level %" PRIu32 " asked of an image with one level (only a DDS holds more)", level);
        return FERRY_ERR_ARGUMENT;
    }
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (memcmp(data, png_magic, size < 8 ? size : 8) == 0)
        return fy_image_decode_png(data, size, max_w, max_h, out, err);
    if (tga_plausible(data, size)) return fy_image_decode_tga(data, size, max_w, max_h, out, err);
    fy_error_set(err, FERRY_ERR_MALFORMED, 0, NULL,
                 "expected a PNG or DDS file (magic \"\\x89PNG\" or \"DDS \") or a TGA header (colour-map type 0 or 1 at "
                 "offset 1, image type 1, 2, 3, 9, 10 or 11 at offset 2)");
    return FERRY_ERR_MALFORMED;
}

uint32_t ferry_image_level_count(const uint8_t *data, size_t size)
{
    if (!data || size == 0) return 0;
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size >= 4 && memcmp(data, "DDS ", 4) == 0) {
        /* Read up to the level count only: no level is decoded. */
        uint32_t count = 0;
        ferry_image none = {0, 0, NULL};
        ferry_error err;
        if (fy_image_decode_dds(data, size, FY_IMAGE_DEFAULT_MAX, FY_IMAGE_DEFAULT_MAX, UINT32_MAX, &none, &count, &err) ==
            FERRY_OK)
            ferry_image_free(&none);
        return count;
    }
    if (size >= 8 && memcmp(data, png_magic, 8) == 0) return 1;
    return size >= 18 && tga_plausible(data, size) ? 1 : 0;
}

void ferry_image_free(ferry_image *image)
{
    if (!image) return;
    free(image->rgba);
    image->rgba = NULL;
    image->width = image->height = 0;
}
