/* Texture images (src/image): TGA and DDS decoding, PNG encoding.
 *  - hand-made TGA files (24/32-bit, bottom-up and top-down, RLE, grey,
 *    15-bit, colour-mapped, right-to-left) decode to the pixels written in;
 *  - hand-made DDS files (DXT1 opaque and 1-bit alpha, DXT3, DXT5, edge
 *    blocks, uncompressed masks, DX10) decode to colours worked out by hand
 *    from the DXT rules (5/6-bit widening by bit replication, truncating
 *    thirds, halves, sevenths and fifths);
 *  - every fixture cut short at every byte fails with a located error;
 *  - dimension limits refuse images before anything is allocated;
 *  - PNG output decodes (libpng's simplified reader) to the same pixels;
 *  - the corpus textures under ../shared, when present, decode to the size
 *    their headers state and survive a PNG round trip. */
#include <ferry/image.h>

#include <png.h>
#include <stdint.h>
#include <zlib.h>

#include "../src/image/image_internal.h"

#include "support.h"
#include "test.h"

/* ---- byte builders ---- */

typedef struct bytes {
    uint8_t data[4096];
    size_t size;
} bytes;

static void put8(bytes *b, unsigned v) { b->data[b->size++] = (uint8_t)v; }
static void put16(bytes *b, unsigned v)
{
    put8(b, v & 0xFF);
    put8(b, (v >> 8) & 0xFF);
}
static void put32(bytes *b, uint32_t v)
{
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}
static void put_n(bytes *b, const uint8_t *p, size_t n)
{
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

static void tga_header(bytes *b, unsigned id_len, unsigned cmap_type, unsigned image_type, unsigned cmap_len,
                       unsigned cmap_bits, unsigned w, unsigned h, unsigned bpp, unsigned descriptor)
{
    b->size = 0;
    put8(b, id_len);
    put8(b, cmap_type);
    put8(b, image_type);
    put16(b, 0);
    put16(b, cmap_len);
    put8(b, cmap_bits);
    put16(b, 0);
    put16(b, 0);
    put16(b, w);
    put16(b, h);
    put8(b, bpp);
    put8(b, descriptor);
}

enum { PF_ALPHAPIXELS = 0x1, PF_ALPHA = 0x2, PF_FOURCC = 0x4, PF_RGB = 0x40, PF_LUMINANCE = 0x20000 };

static void dds_header(bytes *b, uint32_t w, uint32_t h, uint32_t pf_flags, const char *fourcc, uint32_t bitcount,
                       uint32_t rmask, uint32_t gmask, uint32_t bmask, uint32_t amask)
{
    b->size = 0;
    put_n(b, (const uint8_t *)"DDS ", 4);
    put32(b, 124);
    put32(b, 0x1007); /* CAPS | HEIGHT | WIDTH | PIXELFORMAT */
    put32(b, h);
    put32(b, w);
    put32(b, 0); /* pitch or linear size: not trusted anyway */
    put32(b, 0);
    put32(b, 1);
    for (int i = 0; i < 11; i++) put32(b, 0);
    put32(b, 32);
    put32(b, pf_flags);
    if (fourcc)
        put_n(b, (const uint8_t *)fourcc, 4);
    else
        put32(b, 0);
    put32(b, bitcount);
    put32(b, rmask);
    put32(b, gmask);
    put32(b, bmask);
    put32(b, amask);
    put32(b, 0x1000); /* DDSCAPS_TEXTURE */
    for (int i = 0; i < 4; i++) put32(b, 0);
}

/* A DXT colour block: endpoints, then one row of four 2-bit indices per byte. */
static void colour_block(bytes *b, unsigned c0, unsigned c1, const unsigned idx[16])
{
    put16(b, c0);
    put16(b, c1);
    for (int y = 0; y < 4; y++)
        put8(b, idx[y * 4] | idx[y * 4 + 1] << 2 | idx[y * 4 + 2] << 4 | idx[y * 4 + 3] << 6);
}

/* ---- checking ---- */

static int decode(const bytes *b, ferry_image *img, ferry_error *err)
{
    return ferry_image_decode(b->data, b->size, NULL, img, err);
}

/* want: width*height RGBA values, rows top to bottom. */
static void expect_pixels(const char *name, const bytes *b, uint32_t w, uint32_t h, const uint8_t *want)
{
    ferry_image img;
    ferry_error err;
    ferry_result r = decode(b, &img, &err);
    CHECK_MSG(r == FERRY_OK, "%s: %s", name, err.message);
    if (r != FERRY_OK) return;
    CHECK_MSG(img.width == w && img.height == h, "%s: %ux%u, expected %ux%u", name, img.width, img.height, w, h);
    if (img.width == w && img.height == h) {
        for (uint32_t i = 0; i < w * h; i++) {
            const uint8_t *g = img.rgba + i * 4, *e = want + i * 4;
            CHECK_MSG(memcmp(g, e, 4) == 0, "%s: pixel (%u,%u) is %u,%u,%u,%u, expected %u,%u,%u,%u", name, i % w,
                      i / w, g[0], g[1], g[2], g[3], e[0], e[1], e[2], e[3]);
        }
    }
    ferry_image_free(&img);
}

/* Every proper prefix of a fixture must fail cleanly, located inside it. */
static void expect_truncations_fail(const char *name, const bytes *b)
{
    int bad = 0;
    for (size_t cut = 0; cut < b->size; cut++) {
        ferry_image img;
        ferry_error err;
        ferry_result r = ferry_image_decode(b->data, cut, NULL, &img, &err);
        bool ok = r != FERRY_OK && err.code == r && err.offset != FERRY_NO_OFFSET && err.offset <= cut &&
                  err.message[0] && img.rgba == NULL;
        if (!ok && bad++ < 3)
            CHECK_MSG(ok, "%s cut to %zu bytes: result %s, offset %llu, message \"%s\"", name, cut,
                      ferry_result_name(r), (unsigned long long)err.offset, err.message);
        if (r == FERRY_OK) ferry_image_free(&img);
    }
    CHECK_MSG(bad == 0, "%s: %d cuts did not fail cleanly", name, bad);
}

static void expect_error(const char *name, const bytes *b, const ferry_image_options *opts, ferry_result code,
                         uint64_t offset, const char *needle)
{
    ferry_image img;
    ferry_error err;
    ferry_result r = ferry_image_decode(b->data, b->size, opts, &img, &err);
    CHECK_MSG(r == code, "%s: result %s, expected %s (%s)", name, ferry_result_name(r), ferry_result_name(code),
              err.message);
    CHECK_MSG(err.offset == offset, "%s: offset %llu, expected %llu", name, (unsigned long long)err.offset,
              (unsigned long long)offset);
    if (needle) CHECK_MSG(strstr(err.message, needle) != NULL, "%s: message \"%s\" lacks \"%s\"", name, err.message, needle);
    CHECK(img.rgba == NULL);
    if (r == FERRY_OK) ferry_image_free(&img);
}

/* PNG out, libpng's simplified reader back in: the same pixels. Returns the
 * PNG colour type (2 RGB, 6 RGBA) or -1. */
static int png_round_trip_effort(const char *name, const ferry_image *img, ferry_png_effort effort)
{
    ferry_buffer png = {0};
    ferry_error err;
    ferry_png_options options = {.effort = effort};
    ferry_result r = ferry_image_encode_png(img, &options, &png, &err);
    CHECK_MSG(r == FERRY_OK, "%s: encode: %s", name, err.message);
    if (r != FERRY_OK) return -1;
    int colour_type = png.size > 25 ? png.data[25] : -1; /* IHDR's colour type byte */
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    bool ok = png_image_begin_read_from_memory(&pi, png.data, png.size);
    CHECK_MSG(ok, "%s: libpng cannot read the PNG: %s", name, pi.message);
    if (ok) {
        CHECK_MSG(pi.width == img->width && pi.height == img->height, "%s: PNG is %ux%u", name, pi.width, pi.height);
        pi.format = PNG_FORMAT_RGBA;
        size_t n = (size_t)img->width * img->height * 4;
        uint8_t *back = malloc(n);
        ok = back && png_image_finish_read(&pi, NULL, back, 0, NULL);
        CHECK_MSG(ok, "%s: libpng cannot decode the PNG: %s", name, pi.message);
        if (ok) CHECK_MSG(memcmp(back, img->rgba, n) == 0, "%s: PNG pixels differ", name);
        free(back);
        png_image_free(&pi);
    }
    ferry_buffer_free(&png);
    return colour_type;
}

/* Every effort: the same pixels and the same colour type. */
static int png_round_trip(const char *name, const ferry_image *img)
{
    int small = png_round_trip_effort(name, img, FERRY_PNG_SMALL);
    int fast = png_round_trip_effort(name, img, FERRY_PNG_FAST);
    int stored = png_round_trip_effort(name, img, FERRY_PNG_STORED);
    CHECK_MSG(small == fast && small == stored, "%s: colour type %d, fast %d, stored %d", name, small, fast, stored);
    return small;
}

static void decode_and_round_trip(const char *name, const bytes *b)
{
    ferry_image img;
    ferry_error err;
    if (decode(b, &img, &err) != FERRY_OK) return; /* reported by expect_pixels */
    png_round_trip(name, &img);
    ferry_image_free(&img);
}

/* ---- TGA fixtures ---- */

#define RED 255, 0, 0, 255
#define GREEN 0, 255, 0, 255
#define BLUE 0, 0, 255, 255
#define WHITE 255, 255, 255, 255

static void test_tga(void)
{
    bytes b;

    /* 2x2, 24-bit, bottom-up: the first stored row is the bottom one. BGR. */
    tga_header(&b, 0, 0, 2, 0, 0, 2, 2, 24, 0);
    const uint8_t bottom_up[] = {0, 0, 255, 0, 255, 0, /* bottom: red, green */
                                 255, 0, 0, 255, 255, 255 /* top: blue, white */};
    put_n(&b, bottom_up, sizeof bottom_up);
    const uint8_t want_bu[] = {BLUE, WHITE, RED, GREEN};
    expect_pixels("tga 24-bit bottom-up", &b, 2, 2, want_bu);
    expect_truncations_fail("tga 24-bit bottom-up", &b);
    decode_and_round_trip("tga 24-bit bottom-up", &b);

    /* 2x2, 32-bit with 8 alpha bits, top-down (descriptor bit 5), an image ID. */
    tga_header(&b, 3, 0, 2, 0, 0, 2, 2, 32, 0x28);
    put_n(&b, (const uint8_t *)"abc", 3);
    const uint8_t top_down[] = {0, 0, 255, 128, 0, 255, 0, 0, 255, 0, 0, 255, 10, 20, 30, 40};
    put_n(&b, top_down, sizeof top_down);
    const uint8_t want_td[] = {255, 0, 0, 128, 0, 255, 0, 0, 0, 0, 255, 255, 30, 20, 10, 40};
    expect_pixels("tga 32-bit top-down", &b, 2, 2, want_td);
    expect_truncations_fail("tga 32-bit top-down", &b);
    decode_and_round_trip("tga 32-bit top-down", &b);

    /* RLE 24-bit, 3x2 top-down: a run of 4 red crossing the row end (older
     * writers do that), then a raw packet of green, blue. */
    tga_header(&b, 0, 0, 10, 0, 0, 3, 2, 24, 0x20);
    put8(&b, 0x83);
    put_n(&b, (const uint8_t[]){0, 0, 255}, 3);
    put8(&b, 0x01);
    put_n(&b, (const uint8_t[]){0, 255, 0, 255, 0, 0}, 6);
    const uint8_t want_rle[] = {RED, RED, RED, RED, GREEN, BLUE};
    expect_pixels("tga rle 24-bit", &b, 3, 2, want_rle);
    expect_truncations_fail("tga rle 24-bit", &b);
    decode_and_round_trip("tga rle 24-bit", &b);

    /* RLE 32-bit bottom-up 2x2: raw 1, run 3. */
    tga_header(&b, 0, 0, 10, 0, 0, 2, 2, 32, 0x08);
    put8(&b, 0x00);
    put_n(&b, (const uint8_t[]){1, 2, 3, 4}, 4);
    put8(&b, 0x82);
    put_n(&b, (const uint8_t[]){5, 6, 7, 8}, 4);
    const uint8_t want_rle32[] = {7, 6, 5, 8, 7, 6, 5, 8, 3, 2, 1, 4, 7, 6, 5, 8};
    expect_pixels("tga rle 32-bit bottom-up", &b, 2, 2, want_rle32);
    expect_truncations_fail("tga rle 32-bit bottom-up", &b);

    /* Grey 8-bit 2x1, top-down, and RLE grey. */
    tga_header(&b, 0, 0, 3, 0, 0, 2, 1, 8, 0x20);
    put8(&b, 0);
    put8(&b, 200);
    const uint8_t want_grey[] = {0, 0, 0, 255, 200, 200, 200, 255};
    expect_pixels("tga grey", &b, 2, 1, want_grey);
    expect_truncations_fail("tga grey", &b);
    tga_header(&b, 0, 0, 11, 0, 0, 2, 1, 8, 0x20);
    put8(&b, 0x81);
    put8(&b, 77);
    const uint8_t want_grey_rle[] = {77, 77, 77, 255, 77, 77, 77, 255};
    expect_pixels("tga grey rle", &b, 2, 1, want_grey_rle);

    /* 16-bit (A1R5G5B5, stored little-endian): 5 bits widen as v*255/31;
     * stb_image ignores the attribute bit, so alpha is 255. */
    tga_header(&b, 0, 0, 2, 0, 0, 2, 1, 16, 0x21);
    put16(&b, 0x7C00);      /* red 31 */
    put16(&b, 0x8000 | 16u << 5); /* green 16: 16*255/31 = 131 */
    const uint8_t want_16[] = {RED, 0, 131, 0, 255};
    expect_pixels("tga 16-bit", &b, 2, 1, want_16);

    /* Colour-mapped: 8-bit indices into a 3-entry 24-bit map. */
    tga_header(&b, 0, 1, 1, 3, 24, 3, 1, 8, 0x20);
    put_n(&b, (const uint8_t[]){0, 0, 255, 0, 255, 0, 255, 0, 0}, 9);
    put_n(&b, (const uint8_t[]){2, 0, 1}, 3);
    const uint8_t want_cmap[] = {BLUE, RED, GREEN};
    expect_pixels("tga colour-mapped", &b, 3, 1, want_cmap);
    expect_truncations_fail("tga colour-mapped", &b);

    /* Right-to-left (descriptor bit 4), which stb_image ignores and ferry undoes. */
    tga_header(&b, 0, 0, 2, 0, 0, 2, 1, 24, 0x30);
    put_n(&b, (const uint8_t[]){0, 0, 255, 255, 0, 0}, 6);
    const uint8_t want_rtl[] = {BLUE, RED};
    expect_pixels("tga right-to-left", &b, 2, 1, want_rtl);

    /* Refusals, each located. */
    tga_header(&b, 0, 0, 2, 0, 0, 0, 1, 24, 0);
    expect_error("tga zero width", &b, NULL, FERRY_ERR_MALFORMED, 12, "at least 1");
    tga_header(&b, 0, 0, 2, 0, 0, 2, 2, 12, 0);
    expect_error("tga 12-bit", &b, NULL, FERRY_ERR_UNSUPPORTED, 16, "bits per pixel");
    tga_header(&b, 0, 0, 0, 0, 0, 2, 2, 24, 0);
    expect_error("tga type 0", &b, NULL, FERRY_ERR_UNSUPPORTED, 2, "no image data");
    tga_header(&b, 0, 0, 2, 0, 0, 2, 2, 24, 0x40);
    expect_error("tga interleaved", &b, NULL, FERRY_ERR_UNSUPPORTED, 17, "interleaved");
    tga_header(&b, 0, 1, 1, 0, 24, 2, 2, 8, 0);
    expect_error("tga empty colour map", &b, NULL, FERRY_ERR_MALFORMED, 5, "colour map");

    /* Limits: checked from the header, before anything is allocated. */
    tga_header(&b, 0, 0, 2, 0, 0, 2, 2, 24, 0);
    put_n(&b, bottom_up, sizeof bottom_up);
    ferry_image_options small = {.max_width = 1, .max_height = 16, .level = 0};
    expect_error("tga over width limit", &b, &small, FERRY_ERR_LIMIT, 12, "exceeds the limit");
    tga_header(&b, 0, 0, 10, 0, 0, 65535, 65535, 32, 0);
    put8(&b, 0xFF);
    expect_error("tga 65535^2 default limit", &b, NULL, FERRY_ERR_LIMIT, 12, "16384");
    ferry_image_options big = {.max_width = 65535, .max_height = 65535, .level = 0};
    /* Raised limits: an RLE stream far too short is caught by the packet walk. */
    expect_error("tga 65535^2 rle truncated", &b, &big, FERRY_ERR_TRUNCATED, 19, "RLE");
}

/* ---- DDS fixtures ---- */

static void test_dds(void)
{
    bytes b;
    static const unsigned ramp[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};

    /* DXT1 opaque: c0 = 0xF800 (red) > c1 = 0x001F (blue): four colours,
     * c2 = (2*c0 + c1)/3 = (170, 0, 85), c3 = (c0 + 2*c1)/3 = (85, 0, 170). */
    dds_header(&b, 4, 4, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    colour_block(&b, 0xF800, 0x001F, ramp);
    uint8_t want[64 * 4];
    const uint8_t opaque_row[16] = {RED, BLUE, 170, 0, 85, 255, 85, 0, 170, 255};
    for (int y = 0; y < 4; y++) memcpy(want + y * 16, opaque_row, 16);
    expect_pixels("dds dxt1 opaque", &b, 4, 4, want);
    expect_truncations_fail("dds dxt1 opaque", &b);
    decode_and_round_trip("dds dxt1 opaque", &b);

    /* DXT1 1-bit alpha: c0 = 0x001F <= c1 = 0xF800: c2 = (c0 + c1)/2 =
     * (127, 0, 127), c3 = transparent black. */
    dds_header(&b, 4, 4, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    colour_block(&b, 0x001F, 0xF800, ramp);
    const uint8_t alpha_row[16] = {BLUE, RED, 127, 0, 127, 255, 0, 0, 0, 0};
    for (int y = 0; y < 4; y++) memcpy(want + y * 16, alpha_row, 16);
    expect_pixels("dds dxt1 1-bit alpha", &b, 4, 4, want);
    expect_truncations_fail("dds dxt1 1-bit alpha", &b);
    decode_and_round_trip("dds dxt1 1-bit alpha", &b);

    /* DXT1 8x8, four blocks; the second tests 6-bit green widening:
     * c0 = 0x07E0 (g 63 -> 255), c1 = 0x0020 (g 1 -> (1<<2)|(1>>4) = 4),
     * c2 g = (2*255 + 4)/3 = 171, c3 g = (255 + 2*4)/3 = 87; the third
     * tests 5-bit widening: r 16 -> (16<<3)|(16>>2) = 132, b 1 -> 8. */
    dds_header(&b, 8, 8, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    colour_block(&b, 0xF800, 0x001F, ramp);
    colour_block(&b, 0x07E0, 0x0020, ramp);
    colour_block(&b, 16u << 11, 1, (const unsigned[16]){0}); /* all c0 */
    colour_block(&b, 16u << 11, 1, (const unsigned[16]){1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    {
        const uint8_t green_row[16] = {GREEN, 0, 4, 0, 255, 0, 171, 0, 255, 0, 87, 0, 255};
        const uint8_t c0px[4] = {132, 0, 0, 255}, c1px[4] = {0, 0, 8, 255};
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                uint8_t *p = want + (y * 8 + x) * 4;
                if (y < 4) memcpy(p, x < 4 ? opaque_row + x * 4 : green_row + (x - 4) * 4, 4);
                else memcpy(p, x < 4 ? c0px : c1px, 4);
            }
        expect_pixels("dds dxt1 8x8", &b, 8, 8, want);
    }

    /* DXT1 5x3: two blocks, the edge texels outside the image dropped;
     * column 4 comes from column 0 of the second block. */
    dds_header(&b, 5, 3, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    colour_block(&b, 0xF800, 0x001F, ramp);
    colour_block(&b, 0x07E0, 0x0020, (const unsigned[16]){0, 3, 3, 3, 1, 3, 3, 3, 2, 3, 3, 3, 3, 3, 3, 3});
    {
        const uint8_t want53[] = {RED, BLUE, 170, 0, 85, 255, 85, 0, 170, 255, GREEN,
                                  RED, BLUE, 170, 0, 85, 255, 85, 0, 170, 255, 0, 4, 0, 255,
                                  RED, BLUE, 170, 0, 85, 255, 85, 0, 170, 255, 0, 171, 0, 255};
        expect_pixels("dds dxt1 5x3", &b, 5, 3, want53);
        expect_truncations_fail("dds dxt1 5x3", &b);
        decode_and_round_trip("dds dxt1 5x3", &b);
    }

    /* DXT3: explicit 4-bit alpha, texel i has alpha i -> i*17. The colour
     * block has c0 <= c1, but DXT3 always uses four colours: index 3 is
     * (c0 + 2*c1)/3 = (170, 0, 85), not transparent. */
    dds_header(&b, 4, 4, PF_FOURCC, "DXT3", 0, 0, 0, 0, 0);
    for (unsigned i = 0; i < 16; i += 2) put8(&b, i | (i + 1) << 4);
    colour_block(&b, 0x001F, 0xF800, ramp);
    {
        const uint8_t row[16] = {0, 0, 255, 0, 255, 0, 0, 0, 85, 0, 170, 0, 170, 0, 85, 0};
        for (int i = 0; i < 16; i++) {
            memcpy(want + i * 4, row + (i % 4) * 4, 3);
            want[i * 4 + 3] = (uint8_t)(i * 17);
        }
        expect_pixels("dds dxt3", &b, 4, 4, want);
        expect_truncations_fail("dds dxt3", &b);
        decode_and_round_trip("dds dxt3", &b);
    }

    /* DXT5 8x4: block 1 has a0 = 255 > a1 = 0, eight values
     * 255, 0, 1530/7 = 218, 1275/7 = 182, 1020/7 = 145, 765/7 = 109,
     * 510/7 = 72, 255/7 = 36; block 2 has a0 = 10 <= a1 = 200, six values
     * 10, 200, (40+200)/5 = 48, (30+400)/5 = 86, (20+600)/5 = 124,
     * (10+800)/5 = 162, then 0 and 255. Texel i takes index i % 8. */
    dds_header(&b, 8, 4, PF_FOURCC, "DXT5", 0, 0, 0, 0, 0);
    for (int blk = 0; blk < 2; blk++) {
        put8(&b, blk ? 10 : 255);
        put8(&b, blk ? 200 : 0);
        uint64_t bits = 0;
        for (int i = 0; i < 16; i++) bits |= (uint64_t)(i % 8) << (3 * i);
        for (int k = 0; k < 6; k++) put8(&b, (unsigned)(bits >> (8 * k)) & 0xFF);
        colour_block(&b, 0xF800, 0x001F, ramp);
    }
    {
        const uint8_t a8[8] = {255, 0, 218, 182, 145, 109, 72, 36};
        const uint8_t a6[8] = {10, 200, 48, 86, 124, 162, 0, 255};
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 8; x++) {
                uint8_t *p = want + (y * 8 + x) * 4;
                memcpy(p, opaque_row + (x % 4) * 4, 3);
                int texel = y * 4 + x % 4;
                p[3] = x < 4 ? a8[texel % 8] : a6[texel % 8];
            }
        expect_pixels("dds dxt5", &b, 8, 4, want);
        expect_truncations_fail("dds dxt5", &b);
        decode_and_round_trip("dds dxt5", &b);
    }

    /* Uncompressed, by channel masks. A8R8G8B8 (bytes B, G, R, A). */
    dds_header(&b, 2, 1, PF_RGB | PF_ALPHAPIXELS, NULL, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000u);
    put_n(&b, (const uint8_t[]){1, 2, 3, 4, 50, 60, 70, 80}, 8);
    const uint8_t want_argb[] = {3, 2, 1, 4, 70, 60, 50, 80};
    expect_pixels("dds a8r8g8b8", &b, 2, 1, want_argb);
    expect_truncations_fail("dds a8r8g8b8", &b);
    decode_and_round_trip("dds a8r8g8b8", &b);

    /* X8R8G8B8 that still states an alpha mask, without ALPHAPIXELS: opaque. */
    dds_header(&b, 2, 1, PF_RGB, NULL, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000u);
    put_n(&b, (const uint8_t[]){1, 2, 3, 4, 50, 60, 70, 80}, 8);
    const uint8_t want_xrgb[] = {3, 2, 1, 255, 70, 60, 50, 255};
    expect_pixels("dds x8r8g8b8", &b, 2, 1, want_xrgb);

    /* A8B8G8R8 (bytes R, G, B, A). */
    dds_header(&b, 1, 2, PF_RGB | PF_ALPHAPIXELS, NULL, 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000u);
    put_n(&b, (const uint8_t[]){1, 2, 3, 4, 50, 60, 70, 80}, 8);
    const uint8_t want_abgr[] = {1, 2, 3, 4, 50, 60, 70, 80};
    expect_pixels("dds a8b8g8r8", &b, 1, 2, want_abgr);

    /* R8G8B8, 24-bit, 3x1 (bytes B, G, R). */
    dds_header(&b, 3, 1, PF_RGB, NULL, 24, 0xFF0000, 0xFF00, 0xFF, 0);
    put_n(&b, (const uint8_t[]){0, 0, 255, 0, 255, 0, 255, 0, 0}, 9);
    const uint8_t want_rgb24[] = {RED, GREEN, BLUE};
    expect_pixels("dds r8g8b8", &b, 3, 1, want_rgb24);
    expect_truncations_fail("dds r8g8b8", &b);

    /* R5G6B5: fields scale to 0..255 rounding to nearest: g 1 -> (255 + 31)/63 = 4. */
    dds_header(&b, 2, 1, PF_RGB, NULL, 16, 0xF800, 0x07E0, 0x001F, 0);
    put16(&b, 0xF800);
    put16(&b, 0x0020);
    const uint8_t want_565[] = {RED, 0, 4, 0, 255};
    expect_pixels("dds r5g6b5", &b, 2, 1, want_565);

    /* L8 and A8L8: grey in all three colours. */
    dds_header(&b, 2, 1, PF_LUMINANCE, NULL, 8, 0xFF, 0, 0, 0);
    put8(&b, 9);
    put8(&b, 250);
    const uint8_t want_l8[] = {9, 9, 9, 255, 250, 250, 250, 255};
    expect_pixels("dds l8", &b, 2, 1, want_l8);
    dds_header(&b, 1, 1, PF_LUMINANCE | PF_ALPHAPIXELS, NULL, 16, 0xFF, 0, 0, 0xFF00);
    put16(&b, 0x8040);
    const uint8_t want_a8l8[] = {64, 64, 64, 128};
    expect_pixels("dds a8l8", &b, 1, 1, want_a8l8);

    /* DX10 header with BC1: the same pixels as the legacy DXT1 above. */
    dds_header(&b, 4, 4, PF_FOURCC, "DX10", 0, 0, 0, 0, 0);
    put32(&b, 71);
    put32(&b, 3);
    put32(&b, 0);
    put32(&b, 1);
    put32(&b, 0);
    colour_block(&b, 0xF800, 0x001F, ramp);
    for (int y = 0; y < 4; y++) memcpy(want + y * 16, opaque_row, 16);
    expect_pixels("dds dx10 bc1", &b, 4, 4, want);
    expect_truncations_fail("dds dx10 bc1", &b);

    /* Refusals, located and named. */
    dds_header(&b, 4, 4, PF_FOURCC, "ATI2", 0, 0, 0, 0, 0);
    put_n(&b, (const uint8_t[16]){0}, 16);
    expect_error("dds ati2", &b, NULL, FERRY_ERR_UNSUPPORTED, 84, "\"ATI2\"");
    dds_header(&b, 4, 4, PF_FOURCC, "DXT2", 0, 0, 0, 0, 0);
    expect_error("dds dxt2", &b, NULL, FERRY_ERR_UNSUPPORTED, 84, "\"DXT2\"");
    dds_header(&b, 4, 4, PF_FOURCC, "\x24\0\0\0", 0, 0, 0, 0, 0);
    expect_error("dds d3dformat 36", &b, NULL, FERRY_ERR_UNSUPPORTED, 84, "0x00000024");
    dds_header(&b, 4, 4, PF_FOURCC, "DX10", 0, 0, 0, 0, 0);
    put32(&b, 98); /* BC7 */
    put32(&b, 3);
    put32(&b, 0);
    put32(&b, 1);
    put32(&b, 0);
    expect_error("dds dx10 bc7", &b, NULL, FERRY_ERR_UNSUPPORTED, 128, "DXGI format 98");
    dds_header(&b, 4, 4, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    b.data[4] = 100;
    expect_error("dds header size", &b, NULL, FERRY_ERR_MALFORMED, 4, "124");
    dds_header(&b, 2, 1, PF_RGB, NULL, 16, 0xFF0000, 0xFF00, 0xFF, 0);
    expect_error("dds mask beyond pixel", &b, NULL, FERRY_ERR_MALFORMED, 92, "beyond");
    dds_header(&b, 4, 0, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    expect_error("dds zero height", &b, NULL, FERRY_ERR_MALFORMED, 12, "at least 1");

    /* Limits, and a huge header over no data: refused before allocating. */
    dds_header(&b, 8, 8, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    ferry_image_options small = {.max_width = 4, .max_height = 4, .level = 0};
    expect_error("dds over limit", &b, &small, FERRY_ERR_LIMIT, 12, "exceeds the limit");
    dds_header(&b, 16384, 16384, PF_FOURCC, "DXT5", 0, 0, 0, 0, 0);
    expect_error("dds 16384^2 without data", &b, NULL, FERRY_ERR_TRUNCATED, 128, "DXT5 blocks");
    dds_header(&b, 0xFFFFFFFFu, 0xFFFFFFFFu, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    ferry_image_options huge = {.max_width = 0xFFFFFFFFu, .max_height = 0xFFFFFFFFu, .level = 0};
    expect_error("dds 2^32-1 squared", &b, &huge, FERRY_ERR_LIMIT, 12, "too large");
    dds_header(&b, 0xFFFFFFFFu, 1, PF_FOURCC, "DXT1", 0, 0, 0, 0, 0);
    expect_error("dds 2^32-1 wide", &b, &huge, FERRY_ERR_TRUNCATED, 128, "DXT1 blocks");
}

static void test_detection_and_png(void)
{
    bytes b;
    b.size = 0;
    put_n(&b, (const uint8_t *)"\x89PNG\r\n\x1a\n", 8);
    /* PNG is decoded since the PAA writer takes it: the signature alone is
     * a PNG cut before its IHDR. */
    expect_error("png signature only", &b, NULL, FERRY_ERR_TRUNCATED, 8, "PNG header");
    b.size = 0;
    expect_error("empty input", &b, NULL, FERRY_ERR_TRUNCATED, 0, "empty");
    b.size = 0;
    put_n(&b, (const uint8_t *)"DDX ", 4);
    expect_error("near-DDS magic", &b, NULL, FERRY_ERR_MALFORMED, 0, NULL);
    /* Without an error record the result code still says what went wrong. */
    ferry_image none;
    CHECK(ferry_image_decode(b.data, b.size, NULL, &none, NULL) == FERRY_ERR_MALFORMED);
    CHECK(ferry_image_decode((const uint8_t *)"DDS |", 5, NULL, &none, NULL) == FERRY_ERR_TRUNCATED);

    /* PNG: an opaque image is written as RGB, one with alpha as RGBA; both
     * decode back equal. Odd sizes exercise the row handling. */
    ferry_image img = {7, 5, malloc(7 * 5 * 4)};
    for (int i = 0; i < 7 * 5 * 4; i++) img.rgba[i] = (uint8_t)(i * 37 + 11);
    for (int i = 0; i < 7 * 5; i++) img.rgba[i * 4 + 3] = 255;
    CHECK_EQ_U(png_round_trip("png opaque", &img), 2);
    img.rgba[4 * 17 + 3] = 0;
    CHECK_EQ_U(png_round_trip("png alpha", &img), 6);

    /* Appends after what the buffer holds. */
    ferry_buffer buf = {0};
    ferry_error err;
    CHECK(ferry_image_encode_png(&img, NULL, &buf, &err) == FERRY_OK);
    size_t first = buf.size;
    CHECK(ferry_image_encode_png(&img, NULL, &buf, &err) == FERRY_OK);
    CHECK(buf.size == 2 * first && memcmp(buf.data, buf.data + first, first) == 0);

    /* The fast effort writes other bytes (level 1, no filter) for the same
     * pixels (png_round_trip decodes both); NULL options are the small one. */
    ferry_png_options fast = {.effort = FERRY_PNG_FAST}, small = {.effort = FERRY_PNG_SMALL};
    ferry_buffer fast_png = {0}, small_png = {0};
    CHECK(ferry_image_encode_png(&img, &fast, &fast_png, &err) == FERRY_OK);
    CHECK(ferry_image_encode_png(&img, &small, &small_png, &err) == FERRY_OK);
    CHECK(small_png.size == first && memcmp(small_png.data, buf.data, first) == 0);
    CHECK(fast_png.size != small_png.size || memcmp(fast_png.data, small_png.data, first) != 0);
    /* The stored effort compresses nothing: the first IDAT (right after the
     * signature and IHDR, at byte 33) opens a zlib stream whose first
     * deflate block is of type 00 (stored), and the file holds every row
     * whole (a filter byte and 4 bytes a pixel: this image has alpha). */
    ferry_png_options stored = {.effort = FERRY_PNG_STORED};
    ferry_buffer stored_png = {0};
    CHECK(ferry_image_encode_png(&img, &stored, &stored_png, &err) == FERRY_OK);
    CHECK(stored_png.size > 44 && memcmp(stored_png.data + 37, "IDAT", 4) == 0);
    if (stored_png.size > 44) CHECK_MSG(((stored_png.data[43] >> 1) & 3) == 0, "block type %d", (stored_png.data[43] >> 1) & 3);
    CHECK_MSG(stored_png.size > (size_t)img.height * (1 + 4 * (size_t)img.width), "stored PNG of %zu bytes",
              stored_png.size);
    ferry_buffer_free(&stored_png);
    ferry_buffer_free(&fast_png);
    ferry_buffer_free(&small_png);
    ferry_buffer_free(&buf);

    ferry_image empty = {0, 0, NULL};
    CHECK(ferry_image_encode_png(&empty, NULL, &buf, &err) == FERRY_ERR_ARGUMENT);
    CHECK(buf.size == 0);
    free(img.rgba);
}

/* The stored PNG's layout, read here without libpng: every chunk's CRC,
 * the zlib header, stored blocks whose LEN and NLEN agree and whose last
 * is final, and an adler32 over exactly the rows the test builds (filter
 * byte 0, then grey, RGB or RGBA), in as few full blocks as hold them.
 * Images large enough for several blocks, one of them of an odd width
 * without alpha, written after bytes already in the buffer. */
static void check_stored_layout(const char *name, const ferry_image *img, size_t channels)
{
    ferry_buffer png = {0};
    fy_buf_append(&png, "prefix", 6);
    ferry_error err;
    ferry_png_options stored = {.effort = FERRY_PNG_STORED};
    ferry_result r = channels == 1 ? fy_image_encode_png_grey(img, &stored, &png, &err)
                                   : ferry_image_encode_png(img, &stored, &png, &err);
    CHECK_MSG(r == FERRY_OK, "%s: %s", name, err.message);
    CHECK(memcmp(png.data, "prefix", 6) == 0);
    const uint8_t *p = png.data + 6, *end = png.data + png.size;
    CHECK(end - p > 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0);
    p += 8;
    size_t row = 1 + img->width * channels;
    size_t raw_size = row * img->height;
    uint8_t *stream = malloc(raw_size + 1024);
    size_t stream_size = 0, chunks = 0, idat = 0;
    bool iend = false;
    while (p + 12 <= end && !iend) {
        uint32_t len = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        if ((size_t)(end - p) < 12 + (size_t)len) break;
        const uint8_t *crc = p + 8 + len;
        uint32_t want = (uint32_t)crc[0] << 24 | (uint32_t)crc[1] << 16 | (uint32_t)crc[2] << 8 | crc[3];
        CHECK_MSG(crc32(0, p + 4, 4 + len) == want, "%s: chunk %zu's CRC", name, chunks);
        if (memcmp(p + 4, "IHDR", 4) == 0) CHECK(len == 13 && p[8 + 9] == (channels == 1 ? 0 : channels == 3 ? 2 : 6));
        if (memcmp(p + 4, "IDAT", 4) == 0 && stream_size + len <= raw_size + 1024) {
            memcpy(stream + stream_size, p + 8, len);
            stream_size += len;
            idat++;
        }
        iend = memcmp(p + 4, "IEND", 4) == 0;
        p += 12 + len;
        chunks++;
    }
    CHECK_MSG(iend && p == end, "%s: IEND last, nothing after it", name);
    /* The zlib stream: header, stored blocks, adler32. */
    CHECK(stream_size > 6 && stream[0] == 0x78 && stream[1] == 0x01);
    uint8_t *rows = malloc(raw_size);
    size_t at = 2, got = 0, blocks = 0;
    bool final = false;
    while (!final && at + 5 <= stream_size) {
        CHECK_MSG(((stream[at] >> 1) & 3) == 0, "%s: block %zu is not stored", name, blocks);
        final = stream[at] & 1;
        unsigned len = stream[at + 1] | stream[at + 2] << 8, nlen = stream[at + 3] | stream[at + 4] << 8;
        CHECK((len ^ nlen) == 0xFFFF);
        at += 5;
        if (at + len > stream_size || got + len > raw_size) break;
        memcpy(rows + got, stream + at, len);
        got += len;
        at += len;
        blocks++;
    }
    CHECK_MSG(final && got == raw_size && at + 4 == stream_size, "%s: %zu of %zu bytes in %zu blocks", name, got,
              raw_size, blocks);
    CHECK_MSG(blocks == (raw_size + 65534) / 65535 && idat == blocks, "%s: %zu blocks in %zu IDAT chunks", name, blocks,
              idat);
    uint32_t adler = (uint32_t)stream[at] << 24 | (uint32_t)stream[at + 1] << 16 | (uint32_t)stream[at + 2] << 8 |
                     stream[at + 3];
    CHECK(adler == adler32(adler32(0, NULL, 0), rows, (uInt)raw_size));
    /* The rows as the test builds them. */
    bool same = got == raw_size;
    for (size_t y = 0; y < img->height && same; y++) {
        same = rows[y * row] == 0;
        for (size_t x = 0; x < img->width && same; x++)
            same = memcmp(rows + y * row + 1 + x * channels, img->rgba + (y * img->width + x) * 4, channels) == 0;
    }
    CHECK_MSG(same, "%s: the stored rows are not the image's", name);
    free(rows);
    free(stream);
    ferry_buffer_free(&png);
}

static void test_stored_png(void)
{
    ferry_image img = {301, 117, NULL};
    img.rgba = malloc((size_t)img.width * img.height * 4);
    for (size_t i = 0; i < (size_t)img.width * img.height * 4; i++) img.rgba[i] = (uint8_t)(i * 7 + i / 1031);
    check_stored_layout("301 x 117 RGBA", &img, 4);
    png_round_trip("301 x 117 RGBA", &img);

    /* fy_image_encode_png_rgb leaves the alpha out: the bytes of the same
     * image with every alpha 255, at each effort. */
    ferry_image opaque = {img.width, img.height, malloc((size_t)img.width * img.height * 4)};
    memcpy(opaque.rgba, img.rgba, (size_t)img.width * img.height * 4);
    for (size_t i = 0; i < (size_t)img.width * img.height; i++) opaque.rgba[i * 4 + 3] = 255;
    check_stored_layout("301 x 117 RGB", &opaque, 3);
    for (int effort = FERRY_PNG_SMALL; effort <= FERRY_PNG_STORED; effort++) {
        ferry_png_options o = {.effort = (ferry_png_effort)effort};
        ferry_buffer a = {0}, b = {0};
        ferry_error err;
        CHECK(ferry_image_encode_png(&opaque, &o, &a, &err) == FERRY_OK);
        CHECK(fy_image_encode_png_rgb(&img, &o, &b, &err) == FERRY_OK);
        CHECK_MSG(a.size == b.size && memcmp(a.data, b.data, a.size) == 0, "effort %d: RGB bytes differ", effort);
        ferry_buffer_free(&a);
        ferry_buffer_free(&b);
    }
    /* fy_image_encode_png_grey: a grey image's red channel alone when
     * stored (libpng reads back the same pixels), fy_image_encode_png_rgb's
     * bytes at the other efforts. */
    for (size_t i = 0; i < (size_t)img.width * img.height; i++)
        opaque.rgba[i * 4 + 1] = opaque.rgba[i * 4 + 2] = opaque.rgba[i * 4];
    check_stored_layout("301 x 117 grey", &opaque, 1);
    for (int effort = FERRY_PNG_SMALL; effort <= FERRY_PNG_STORED; effort++) {
        ferry_png_options o = {.effort = (ferry_png_effort)effort};
        ferry_buffer grey = {0};
        ferry_error err;
        CHECK(fy_image_encode_png_grey(&opaque, &o, &grey, &err) == FERRY_OK);
        CHECK(grey.size > 26 && grey.data[25] == (effort == FERRY_PNG_STORED ? 0 : 2));
        png_image pi;
        memset(&pi, 0, sizeof pi);
        pi.version = PNG_IMAGE_VERSION;
        size_t n = (size_t)img.width * img.height * 4;
        uint8_t *back = malloc(n);
        bool ok = png_image_begin_read_from_memory(&pi, grey.data, grey.size);
        if (ok) {
            pi.format = PNG_FORMAT_RGBA;
            ok = png_image_finish_read(&pi, NULL, back, 0, NULL);
        }
        CHECK_MSG(ok && memcmp(back, opaque.rgba, n) == 0, "effort %d: the grey PNG's pixels", effort);
        png_image_free(&pi);
        free(back);
        if (effort != FERRY_PNG_STORED) {
            ferry_buffer rgb = {0};
            CHECK(fy_image_encode_png_rgb(&opaque, &o, &rgb, &err) == FERRY_OK);
            CHECK(rgb.size == grey.size && memcmp(rgb.data, grey.data, rgb.size) == 0);
            ferry_buffer_free(&rgb);
        }
        ferry_buffer_free(&grey);
    }
    free(opaque.rgba);
    free(img.rgba);
}

static void test_corpus(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/alamo/ueaw/Textures";
    if (!test_dir_exists(dir)) {
        TEST_LEFT_OUT("corpus textures (%s is absent)", dir);
        return;
    }
    const char *suffixes[2] = {".dds", ".tga"};
    size_t total = 0;
    for (int s = 0; s < 2; s++) {
        char **paths;
        size_t n = test_list_files(dir, suffixes[s], &paths);
        for (size_t i = 0; i < n; i++) {
            size_t size;
            uint8_t *data = test_read_file(paths[i], &size);
            CHECK_MSG(data && size >= 18, "%s: unreadable", paths[i]);
            if (!data || size < 18) {
                free(data);
                continue;
            }
            uint32_t hw, hh;
            if (s == 0) {
                hw = (uint32_t)data[16] | (uint32_t)data[17] << 8 | (uint32_t)data[18] << 16 | (uint32_t)data[19] << 24;
                hh = (uint32_t)data[12] | (uint32_t)data[13] << 8 | (uint32_t)data[14] << 16 | (uint32_t)data[15] << 24;
            } else {
                hw = (uint32_t)data[12] | (uint32_t)data[13] << 8;
                hh = (uint32_t)data[14] | (uint32_t)data[15] << 8;
            }
            ferry_image img;
            ferry_error err;
            ferry_result r = ferry_image_decode(data, size, NULL, &img, &err);
            CHECK_MSG(r == FERRY_OK, "%s: %s at %llu: %s", paths[i], ferry_result_name(r),
                      (unsigned long long)err.offset, err.message);
            if (r == FERRY_OK) {
                CHECK_MSG(img.width == hw && img.height == hh, "%s: %ux%u, header says %ux%u", paths[i], img.width,
                          img.height, hw, hh);
                size_t opaque = 0, count = (size_t)img.width * img.height;
                for (size_t k = 0; k < count; k++) opaque += img.rgba[k * 4 + 3] == 255;
                const char *name = strrchr(paths[i], '/');
                printf("corpus: %s %ux%u (%zu bytes), %.1f%% opaque\n", name ? name + 1 : paths[i], img.width,
                       img.height, size, 100.0 * (double)opaque / (double)count);
                png_round_trip(paths[i], &img);
                ferry_image_free(&img);
                total++;
            }
            free(data);
        }
        test_free_paths(paths, n);
    }
    CHECK(total > 0);
}

/* Mip levels of a DDS: 4x2, 2x1 and 1x1 pixels of 32-bit BGRA, each level a
 * colour of its own; counted as the header states them while their bytes
 * are there; each decoded on its own; past the last, or of a TGA, refused. */
static void test_dds_levels(void)
{
    bytes b;
    dds_header(&b, 4, 2, PF_RGB | PF_ALPHAPIXELS, NULL, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000u);
    b.data[10] |= 0x02; /* DDSD_MIPMAPCOUNT (0x20000) */
    b.data[28] = 3;
    static const uint8_t colour[3][4] = {{10, 20, 30, 255}, {40, 50, 60, 128}, {70, 80, 90, 1}};
    static const uint32_t px[3] = {8, 2, 1};
    for (int l = 0; l < 3; l++)
        for (uint32_t i = 0; i < px[l]; i++) {
            put8(&b, colour[l][2]);
            put8(&b, colour[l][1]);
            put8(&b, colour[l][0]);
            put8(&b, colour[l][3]);
        }
    CHECK(ferry_image_level_count(b.data, b.size) == 3);
    for (uint32_t l = 0; l < 3; l++) {
        ferry_image_options o = {.max_width = 0, .max_height = 0, .level = l};
        ferry_image img;
        ferry_error err;
        CHECK_MSG(ferry_image_decode(b.data, b.size, &o, &img, &err) == FERRY_OK, "level %u: %s", l, err.message);
        CHECK(img.width == (l == 0 ? 4u : l == 1 ? 2u : 1u) && img.height == (l == 0 ? 2u : 1u));
        CHECK(img.rgba && memcmp(img.rgba, colour[l], 4) == 0 && memcmp(img.rgba + (img.width * img.height - 1) * 4, colour[l], 4) == 0);
        ferry_image_free(&img);
    }
    ferry_image_options past = {.max_width = 0, .max_height = 0, .level = 3};
    expect_error("DDS level past the last", &b, &past, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "holding 3 whole levels");
    /* The last level cut short: two whole levels; the third is refused. */
    b.size -= 2;
    CHECK(ferry_image_level_count(b.data, b.size) == 2);
    ferry_image_options third = {.max_width = 0, .max_height = 0, .level = 2};
    expect_error("DDS level cut short", &b, &third, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "holding 2 whole levels");
    /* A count beyond 1 x 1 counts to 1 x 1 (4x2 has three levels). */
    b.size += 2;
    b.data[28] = 9;
    CHECK(ferry_image_level_count(b.data, b.size) == 3);
    /* Without the flag the count is not read: one level. */
    b.data[10] &= (uint8_t)~0x02;
    CHECK(ferry_image_level_count(b.data, b.size) == 1);
    /* A TGA has one level; other bytes none. */
    tga_header(&b, 0, 0, 2, 0, 0, 1, 1, 32, 0x08);
    put32(&b, 0xFF102030u);
    CHECK(ferry_image_level_count(b.data, b.size) == 1);
    ferry_image_options one = {.max_width = 0, .max_height = 0, .level = 1};
    expect_error("TGA level 1", &b, &one, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "one level");
    CHECK(ferry_image_level_count((const uint8_t *)"\x89PNG\r\n\x1a\n", 8) == 1);
    CHECK(ferry_image_level_count((const uint8_t *)"hello, world", 12) == 0);
    CHECK(ferry_image_level_count(NULL, 0) == 0);
}

/* fy_image_dds_opaque_colour on bad and unsupported input: every failure
 * names a reason, a truncated one where the blocks run out; nothing is
 * left in the output. */
static void test_dds_opaque_colour_refusals(void)
{
    uint8_t dds[128 + 16];
    memset(dds, 0, sizeof dds);
    memcpy(dds, "DDS ", 4);
    dds[4] = 124, dds[8] = 0x07, dds[9] = 0x10, dds[12] = 4, dds[16] = 4, dds[76] = 32, dds[80] = 0x4;
    memcpy(dds + 84, "DXT5", 4);
    ferry_buffer out = {0};
    ferry_error err;
    CHECK(fy_image_dds_opaque_colour(dds, sizeof dds, &out, &err) == FERRY_OK && out.size == 128 + 8);
    ferry_buffer_free(&out);
    /* Truncated: one block of 16 bytes needed, 15 there. */
    CHECK(fy_image_dds_opaque_colour(dds, sizeof dds - 1, &out, &err) != FERRY_OK && err.message[0]);
    CHECK(out.size == 0);
    ferry_result short_header = fy_image_dds_opaque_colour(dds, 100, &out, &err);
    CHECK_MSG(short_header == FERRY_ERR_TRUNCATED && out.size == 0, "%d %s %zu", (int)short_header, err.message, out.size);
    /* A cube map, a DX10 header, uncompressed pixels: unsupported, said. */
    uint8_t cube[sizeof dds];
    memcpy(cube, dds, sizeof dds);
    cube[113] = 0x02; /* caps2 CUBEMAP (0x200) */
    CHECK(fy_image_dds_opaque_colour(cube, sizeof cube, &out, &err) == FERRY_ERR_UNSUPPORTED && err.message[0]);
    uint8_t rgb[128 + 64] = {0}; /* 4 x 4 RGB pixels of 32 bits, all there */
    memcpy(rgb, dds, 128);
    rgb[80] = 0x40, rgb[84] = rgb[85] = rgb[86] = rgb[87] = 0, rgb[88] = 32;
    CHECK(fy_image_dds_opaque_colour(rgb, sizeof rgb, &out, &err) == FERRY_ERR_UNSUPPORTED && out.size == 0);
    CHECK(fy_image_dds_opaque_colour((const uint8_t *)"not a DDS at all", 16, &out, &err) != FERRY_OK && err.message[0]);
    CHECK(out.size == 0);
}

int main(void)
{
    test_tga();
    test_dds();
    test_dds_levels();
    test_dds_opaque_colour_refusals();
    test_detection_and_png();
    test_stored_png();
    test_corpus();
    TEST_END();
}
