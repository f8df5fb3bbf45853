/* PNG encoding with libpng: its output is written into a ferry_buffer by a
 * custom write function, and its errors (reported by longjmp) become a
 * ferry_error. Everything lives in the png_struct and a context on the
 * stack, so separate encodes may run on separate threads. */
#include "image_internal.h"

#include "../codec/codec.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

/* ---- FERRY_PNG_STORED, written here ----
 *
 * A PNG whose pixels sit in deflate's stored (uncompressed) blocks is a
 * container with checksums: signature, IHDR, the rows each after filter
 * byte 0, IEND. libpng at zlib level 0 wrote it too, but moved every byte
 * three times on the way (into its row buffer, through deflate's window, out
 * to its 8 KiB chunks) into an output that grew by doubling; that was half
 * of the Nebulon B's export for Blender. Here the file's size is known
 * first, and each row is copied once into it, its checksums (zlib's adler32
 * and CRC-32) taken while the bytes are still in the cache. Each stored
 * block (at most 65,535 bytes) has an IDAT chunk of its own. */

#define STORED_BLOCK_MAX 65535u

typedef struct stored_writer {
    uint8_t *p;           /* where the next byte goes */
    uint8_t *chunk;       /* the open IDAT's type field (its CRC starts there) */
    size_t block_left;    /* bytes the open stored block still takes */
    size_t raw_left;      /* bytes of rows not yet written */
    uint32_t adler;
} stored_writer;

static uint8_t *put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
    return p + 4;
}

/* Closes the chunk whose type field is at `type`: its CRC covers the type
 * and the data, up to *p. */
static void close_chunk(uint8_t **p, const uint8_t *type)
{
    *p = put_be32(*p, fy_crc32(type, (size_t)(*p - type)));
}

static uint8_t *open_chunk(uint8_t *p, uint32_t length, const char *type)
{
    p = put_be32(p, length);
    memcpy(p, type, 4);
    return p + 4;
}

/* Opens the next IDAT with its stored block (and the zlib header first). */
static void open_block(stored_writer *w, bool first)
{
    size_t n = w->raw_left < STORED_BLOCK_MAX ? w->raw_left : STORED_BLOCK_MAX;
    bool last = n == w->raw_left;
    w->chunk = w->p + 4;
    w->p = open_chunk(w->p, (uint32_t)((first ? 2 : 0) + 5 + n + (last ? 4 : 0)), "IDAT");
    if (first) {
        /* CMF 0x78: deflate with a 32 KiB window; FLG 0x01: level "fastest",
         * no dictionary, and 0x7801 a multiple of 31 as RFC 1950 wants. */
        *w->p++ = 0x78;
        *w->p++ = 0x01;
    }
    *w->p++ = last ? 1 : 0; /* BFINAL, BTYPE 00 (stored) */
    *w->p++ = (uint8_t)n;
    *w->p++ = (uint8_t)(n >> 8);
    *w->p++ = (uint8_t)~n;
    *w->p++ = (uint8_t)(~n >> 8);
    w->block_left = n;
}

static void put_raw(stored_writer *w, const uint8_t *data, size_t n)
{
    while (n) {
        if (!w->block_left) {
            close_chunk(&w->p, w->chunk);
            open_block(w, false);
        }
        size_t take = n < w->block_left ? n : w->block_left;
        memcpy(w->p, data, take);
        w->adler = (uint32_t)adler32_z(w->adler, w->p, take);
        w->p += take;
        data += take;
        n -= take;
        w->block_left -= take;
        w->raw_left -= take;
    }
}

/* The rows' bytes (*raw) and the whole file's (*total); false when they
 * would not fit in memory. */
static bool stored_size(const ferry_image *image, size_t row, size_t *raw, size_t *total)
{
    if (image->height > (SIZE_MAX / 2) / row) return false;
    *raw = row * image->height;
    size_t blocks = (*raw + STORED_BLOCK_MAX - 1) / STORED_BLOCK_MAX;
    if (blocks > (SIZE_MAX / 2 - *raw) / 32) return false;
    /* signature, IHDR, per block an IDAT (12) and the block's header (5),
     * the rows, the zlib header and adler32, IEND */
    *total = 8 + 25 + blocks * 17 + *raw + 2 + 4 + 12;
    return true;
}

static ferry_result encode_stored(const ferry_image *image, size_t channels, ferry_buffer *out, ferry_error *err)
{
    size_t row = 1 + (size_t)image->width * channels; /* width * 4 fits: checked by the caller */
    size_t raw, total;
    if (!stored_size(image, row, &raw, &total)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "image of %" PRIu32 " x %" PRIu32 " pixels is too large for a stored PNG", image->width,
                     image->height);
        return FERRY_ERR_ARGUMENT;
    }
    uint8_t *row_bytes = NULL;
    if (channels < 4 && !(row_bytes = malloc(row))) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory encoding PNG");
        return FERRY_ERR_NOMEM;
    }
    if (!fy_buf_reserve(out, total)) {
        free(row_bytes);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory growing the output buffer");
        return FERRY_ERR_NOMEM;
    }
    uint8_t *start = out->data + out->size;
    stored_writer w = {start, NULL, 0, raw, (uint32_t)adler32_z(0, NULL, 0)};
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(w.p, signature, 8);
    w.p += 8;
    uint8_t *type = w.p + 4;
    w.p = open_chunk(w.p, 13, "IHDR");
    w.p = put_be32(w.p, image->width);
    w.p = put_be32(w.p, image->height);
    *w.p++ = 8;                                            /* bits per sample */
    *w.p++ = channels == 1 ? 0 : channels == 3 ? 2 : 6; /* colour type: grey, RGB or RGBA */
    *w.p++ = 0;                                            /* compression: deflate */
    *w.p++ = 0;                                            /* filter method 0 */
    *w.p++ = 0;                                            /* not interlaced */
    close_chunk(&w.p, type);
    open_block(&w, true);
    size_t pixels = (size_t)image->width * 4;
    for (uint32_t y = 0; y < image->height; y++) {
        const uint8_t *src = image->rgba + pixels * y;
        if (channels == 4) {
            static const uint8_t no_filter = 0;
            put_raw(&w, &no_filter, 1);
            put_raw(&w, src, pixels);
            continue;
        }
        row_bytes[0] = 0; /* filter: none */
        if (channels == 3)
            for (uint32_t x = 0; x < image->width; x++) memcpy(row_bytes + 1 + 3 * (size_t)x, src + 4 * (size_t)x, 3);
        else /* grey: the red channel */
            for (uint32_t x = 0; x < image->width; x++) row_bytes[1 + x] = src[4 * (size_t)x];
        put_raw(&w, row_bytes, row);
    }
    free(row_bytes);
    w.p = put_be32(w.p, w.adler);
    close_chunk(&w.p, w.chunk);
    type = w.p + 4;
    w.p = open_chunk(w.p, 0, "IEND");
    close_chunk(&w.p, type);
    out->size += (size_t)(w.p - start);
    return FERRY_OK;
}

/* channels: 3 writes RGB whatever the alpha, 1 grey when stored (RGB
 * otherwise), 0 looks at the alpha first. */
static ferry_result encode_png(const ferry_image *image, const ferry_png_options *options, int channels,
                               ferry_buffer *out, ferry_error *err)
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
    if (!channels)
        for (size_t i = 0; i < count && opaque; i++) opaque = image->rgba[i * 4 + 3] == 255;

    if (options && options->effort == FERRY_PNG_STORED)
        return encode_stored(image, channels == 1 ? 1 : opaque ? 3 : 4, out, err);

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

ferry_result ferry_image_encode_png(const ferry_image *image, const ferry_png_options *options, ferry_buffer *out,
                                    ferry_error *err)
{
    return encode_png(image, options, 0, out, err);
}

ferry_result fy_image_encode_png_rgb(const ferry_image *image, const ferry_png_options *options, ferry_buffer *out,
                                     ferry_error *err)
{
    return encode_png(image, options, 3, out, err);
}

ferry_result fy_image_encode_png_grey(const ferry_image *image, const ferry_png_options *options, ferry_buffer *out,
                                      ferry_error *err)
{
    return encode_png(image, options, 1, out, err);
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
