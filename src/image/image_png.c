/* PNG encoding with libpng: its output is written into a ferry_buffer by a
 * custom write function, and its errors (reported by longjmp) become a
 * ferry_error. Everything lives in the png_struct and a context on the
 * stack, so separate encodes may run on separate threads. */
#include "image_internal.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>

typedef struct png_ctx {
    ferry_buffer *out;
    char message[200]; /* libpng's own words for the failure */
} png_ctx;

static void on_error(png_structp png, png_const_charp message)
{
    png_ctx *ctx = png_get_error_ptr(png);
    snprintf(ctx->message, sizeof ctx->message, "%s", message ? message : "unknown error");
    png_longjmp(png, 1);
}

/* Warnings (e.g. about chunk settings) change nothing in the output, and the
 * library never prints: drop them. */
static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

static void on_write(png_structp png, png_bytep data, size_t length)
{
    png_ctx *ctx = png_get_io_ptr(png);
    fy_buf_append(ctx->out, data, length);
    if (ctx->out->failed) png_error(png, "out of memory growing the output buffer");
}

static void on_flush(png_structp png) { (void)png; }

/* Kept apart from the caller so that no local of a function that calls
 * setjmp changes after it (those would need `volatile`). */
static bool write_png(png_structp png, png_infop info, const ferry_image *image, bool rgb, ferry_png_effort effort)
{
    if (setjmp(png_jmpbuf(png))) return false;
    if (effort == FERRY_PNG_FAST) {
        /* Deflate at its default level is about 80 % of exporting a
         * textured model; level 1 without filters writes several times
         * faster, for files from 5 % smaller to 11 % larger on the games'
         * textures. */
        png_set_compression_level(png, 1);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    } else if (effort == FERRY_PNG_STORED) {
        /* Level 0 leaves zlib's checksums and libpng's CRCs as the only work
         * on the pixels: a third of level 1's time for the Nebulon B's export
         * (20 -> 7.5 ms), the file about 3.7 times larger. */
        png_set_compression_level(png, 0);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    }
    png_set_IHDR(png, info, image->width, image->height, 8, rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    /* Rows stay RGBA in memory; for an RGB file libpng drops the 4th byte. */
    if (rgb) png_set_filler(png, 0, PNG_FILLER_AFTER);
    size_t row = (size_t)image->width * 4;
    for (uint32_t y = 0; y < image->height; y++) png_write_row(png, image->rgba + row * y);
    png_write_end(png, info);
    return true;
}

ferry_result ferry_image_encode_png(const ferry_image *image, const ferry_png_options *options, ferry_buffer *out,
                                    ferry_error *err)
{
    fy_error_clear(err);
    if (!image || !out || !image->rgba || image->width == 0 || image->height == 0) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "expected an image of at least 1 x 1 pixels with pixel data, and an output buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (image->width > PNG_UINT_31_MAX || image->height > PNG_UINT_31_MAX ||
        (uint64_t)image->width * image->height > SIZE_MAX / 4) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "image of %" PRIu32 " x %" PRIu32 " pixels is too large for PNG", image->width,
                     image->height);
        return FERRY_ERR_ARGUMENT;
    }
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "the output buffer had already failed");
        return FERRY_ERR_NOMEM;
    }

    /* Fully opaque images are written as RGB: a quarter smaller before
     * compression, and viewers need not consider alpha. */
    size_t count = (size_t)image->width * image->height;
    bool opaque = true;
    for (size_t i = 0; i < count && opaque; i++) opaque = image->rgba[i * 4 + 3] == 255;

    png_ctx ctx = {out, ""};
    size_t start = out->size;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (!png) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "libpng could not create a writer");
        return FERRY_ERR_NOMEM;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "libpng could not create a writer");
        return FERRY_ERR_NOMEM;
    }
    png_set_write_fn(png, &ctx, on_write, on_flush);
    bool ok = write_png(png, info, image, opaque, options ? options->effort : FERRY_PNG_SMALL);
    png_destroy_write_struct(&png, &info);
    if (ok) return FERRY_OK;

    /* Leave the buffer as it was: a half-written PNG is of no use. */
    ferry_result code = out->failed ? FERRY_ERR_NOMEM : FERRY_ERR_ARGUMENT;
    if (!out->failed) out->size = start;
    fy_error_set(err, code, FERRY_NO_OFFSET, NULL, "libpng could not encode the image: %s", ctx.message);
    return code;
}

/* PNG decoding (any colour type and bit depth, to 8-bit RGBA) through
 * libpng's simplified API, which keeps its own error handling. The size
 * is checked against the limits before anything is allocated. */
ferry_result fy_image_decode_png(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                                 ferry_image *out, ferry_error *err)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, data, size)) {
        fy_error_set(err, size < 33 ? FERRY_ERR_TRUNCATED : FERRY_ERR_MALFORMED, size < 33 ? size : 8, NULL,
                     "the PNG header does not read: %s", img.message);
        return err->code;
    }
    /* IHDR's width and height are at offset 16. */
    ferry_result r = fy_image_check_dims(img.width, img.height, max_width, max_height, 16, err);
    if (r == FERRY_OK) r = fy_image_alloc(img.width, img.height, max_width, max_height, 16, out, err);
    if (r != FERRY_OK) {
        png_image_free(&img);
        return r;
    }
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_finish_read(&img, NULL, out->rgba, 0, NULL)) {
        /* libpng does not say where; the image data follows the 33 bytes of
         * signature and IHDR. */
        fy_error_set(err, FERRY_ERR_MALFORMED, 33, NULL, "the PNG's pixel data (after its header) does not decode: %s",
                     img.message);
        png_image_free(&img);
        ferry_image_free(out);
        return FERRY_ERR_MALFORMED;
    }
    return FERRY_OK;
}
