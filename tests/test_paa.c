/* PAA/PAC on hand-built textures: the bytes are written here from the
 * documented layout (docs/formats/paa.md), the expected pixels worked out
 * by hand; LZSS streams are literal-only (flag bytes of 1s) with their
 * signed sum computed by hand. Also detection, the byte-identical rewrite,
 * validation of the tags and located errors for bad input. */
#include <ferry/detect.h>
#include <ferry/lzo.h>
#include <ferry/paa.h>

#include "support.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t b[1024];
    size_t n;
} bytes;

static void put(bytes *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void u8(bytes *o, unsigned v) { o->b[o->n++] = (uint8_t)v; }
static void u16(bytes *o, unsigned v) { u8(o, v & 255), u8(o, (v >> 8) & 255); }
static void u24(bytes *o, unsigned v) { u16(o, v & 0xFFFF), u8(o, (v >> 16) & 255); }
static void u32(bytes *o, uint32_t v) { u16(o, v & 0xFFFF), u16(o, v >> 16); }

/* type, no tags, empty palette, one mipmap, the end. */
static void one_mip(bytes *o, unsigned type, unsigned wfield, unsigned h, const uint8_t *data, size_t n)
{
    o->n = 0;
    u16(o, type);
    u16(o, 0);
    u16(o, wfield);
    u16(o, h);
    u24(o, (unsigned)n);
    put(o, data, n);
    u16(o, 0), u16(o, 0), u16(o, 0);
}

static ferry_paa *read_ok(const bytes *o)
{
    ferry_paa *p = NULL;
    ferry_error err = {0};
    ferry_result r = ferry_paa_read(o->b, o->n, NULL, &p, &err);
    CHECK_MSG(r == FERRY_OK, "read: %s", err.message);
    if (!p) return NULL;
    ferry_buffer buf = {0};
    CHECK(ferry_paa_write(p, &buf, &err) == FERRY_OK);
    CHECK(buf.size == o->n && memcmp(buf.data, o->b, o->n) == 0);
    ferry_buffer_free(&buf);
    CHECK(ferry_detect(o->b, o->n) == FERRY_FORMAT_PAA);
    return p;
}

static void check_pixels(const bytes *o, const uint8_t *expect, uint32_t w, uint32_t h)
{
    ferry_paa *p = read_ok(o);
    if (!p) return;
    ferry_image img;
    ferry_error err;
    CHECK(ferry_paa_decode_mip(p, 0, &img, &err) == FERRY_OK);
    CHECK_EQ_U(img.width, w);
    CHECK_EQ_U(img.height, h);
    if (img.rgba) {
        for (size_t i = 0; i < (size_t)w * h * 4; i++)
            CHECK_MSG(img.rgba[i] == expect[i], "byte %zu: %u, expected %u", i, img.rgba[i], expect[i]);
    }
    /* ferry_paa_encode_png: the same pixels, read back from the PNG. */
    ferry_buffer png = {0};
    ferry_image back;
    CHECK(ferry_paa_encode_png(p, 0, &png, &err) == FERRY_OK);
    CHECK(ferry_image_decode(png.data, png.size, NULL, &back, &err) == FERRY_OK);
    CHECK(back.width == w && back.height == h && back.rgba && memcmp(back.rgba, expect, (size_t)w * h * 4) == 0);
    ferry_image_free(&back);
    ferry_buffer_free(&png);
    CHECK(ferry_paa_encode_png(p, p->mip_count, &png, &err) == FERRY_ERR_ARGUMENT && png.size == 0);
    ferry_diagnostics d = {0};
    CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 0);
    ferry_diagnostics_free(&d);
    ferry_image_free(&img);
    ferry_paa_free(p);
}

static void bad(const bytes *o, ferry_result code, uint64_t offset, const char *path)
{
    ferry_paa *p = NULL;
    ferry_error err = {0};
    ferry_result r = ferry_paa_read(o->b, o->n, NULL, &p, &err);
    CHECK_MSG(r == code, "result %d, expected %d (%s)", r, code, err.message);
    CHECK(p == NULL);
    CHECK_MSG(err.offset == offset, "offset %llu, expected %llu (%s)", (unsigned long long)err.offset,
              (unsigned long long)offset, err.message);
    CHECK_MSG(strstr(err.path, path) != NULL, "path '%s', expected '%s'", err.path, path);
}

/* ---- Writing (ferry_paa_encode) ---- */

static ferry_image make_image(uint32_t w, uint32_t h)
{
    ferry_image img = {w, h, calloc((size_t)w * h * 4 + 1, 1)};
    return img;
}

static void set_px(ferry_image *img, uint32_t x, uint32_t y, unsigned r, unsigned g, unsigned b, unsigned a)
{
    uint8_t *p = img->rgba + ((size_t)y * img->width + x) * 4;
    p[0] = (uint8_t)r, p[1] = (uint8_t)g, p[2] = (uint8_t)b, p[3] = (uint8_t)a;
}

static const ferry_paa_tag *find_tag(const ferry_paa *p, const char *name)
{
    for (size_t i = 0; i < p->tag_count; i++)
        if (!strcmp(p->tags[i].name, name)) return &p->tags[i];
    return NULL;
}

/* Encodes, then checks what every written texture must be: it writes and
 * reads back byte for byte, validates without error or warning, its
 * OFFS offsets are where the mipmaps are, each mipmap is half the one
 * before, down to a side of 4. */
static ferry_paa *encode_ok(const ferry_image *img, const ferry_paa_encode_options *o)
{
    ferry_paa *p = NULL;
    ferry_error err = {0};
    CHECK_MSG(ferry_paa_encode(img, o, &p, &err) == FERRY_OK, "encode: %s", err.message);
    if (!p) return NULL;
    ferry_buffer buf = {0};
    CHECK(ferry_paa_write(p, &buf, &err) == FERRY_OK);
    ferry_paa *q = NULL;
    CHECK(ferry_paa_read(buf.data, buf.size, NULL, &q, &err) == FERRY_OK);
    ferry_buffer again = {0};
    if (q) CHECK(ferry_paa_write(q, &again, &err) == FERRY_OK);
    CHECK(again.size == buf.size && memcmp(again.data, buf.data, buf.size) == 0);
    CHECK(ferry_detect(buf.data, buf.size) == FERRY_FORMAT_PAA);
    ferry_buffer_free(&buf);
    ferry_buffer_free(&again);
    ferry_paa_free(q);
    ferry_diagnostics d = {0};
    CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 0);
    CHECK_MSG(d.warning_count == 0, "%zu warnings: %s", d.warning_count, d.count ? d.items[0].message : "");
    ferry_diagnostics_free(&d);
    CHECK(p->has_offsets && p->has_average && p->has_maximum && p->maximum_argb == 0xFFFFFFFFu);
    for (size_t i = 0; i < 16; i++) CHECK_EQ_U(p->offsets[i], i < p->mip_count ? p->mips[i].offset : 0);
    const ferry_paa_mip *last = &p->mips[p->mip_count - 1];
    CHECK(last->width <= 4 || last->height <= 4);
    CHECK(p->mip_count == 1 || (last->width == 4 || last->height == 4));
    CHECK_EQ_U(p->palette_count, 0);
    CHECK(p->trailer_size == 2 && !p->trailer[0] && !p->trailer[1]);
    return p;
}

static void check_mip_colour(const ferry_paa *p, size_t level, unsigned r, unsigned g, unsigned b, unsigned a,
                             unsigned tolerance)
{
    ferry_image img;
    ferry_error err;
    CHECK(ferry_paa_decode_mip(p, level, &img, &err) == FERRY_OK);
    if (!img.rgba) return;
    const unsigned want[4] = {r, g, b, a};
    unsigned worst = 0;
    for (size_t i = 0; i < (size_t)img.width * img.height * 4; i++) {
        unsigned v = img.rgba[i], e = want[i % 4];
        unsigned d = v > e ? v - e : e - v;
        if (d > worst) worst = d;
    }
    CHECK_MSG(worst <= tolerance, "mip %zu: a channel is %u away from %u %u %u %u", level, worst, r, g, b, a);
    ferry_image_free(&img);
}

static void bad_encode(uint32_t w, uint32_t h, const char *words)
{
    ferry_image img = make_image(w, h);
    ferry_paa *p = (ferry_paa *)1;
    ferry_error err = {0};
    CHECK(ferry_paa_encode(&img, NULL, &p, &err) == FERRY_ERR_ARGUMENT);
    CHECK(p == NULL);
    CHECK_MSG(strstr(err.message, words) != NULL && strstr(err.path, "image") != NULL, "%u x %u: '%s' at '%s'", w, h,
              err.message, err.path);
    free(img.rgba);
}

static void encode_tests(void)
{
    /* Opaque 512 x 256, one colour: DXT1; 512x256 ... 8x4 is 7 mipmaps; the
     * 512 and 256 wide ones LZO-compressed (width bit 0x8000), the others
     * raw; AVGC the colour itself, no FLAG. */
    {
        ferry_image img = make_image(512, 256);
        for (uint32_t y = 0; y < 256; y++)
            for (uint32_t x = 0; x < 512; x++) set_px(&img, x, y, 200, 100, 50, 255);
        ferry_paa *p = encode_ok(&img, NULL);
        if (p) {
            CHECK_EQ_U(p->type, FERRY_PAA_DXT1);
            CHECK_EQ_U(p->mip_count, 7);
            for (size_t i = 0; i < p->mip_count; i++) {
                CHECK_EQ_U(p->mips[i].width, 512u >> i);
                CHECK_EQ_U(p->mips[i].height, 256u >> i);
                CHECK_EQ_U(p->mips[i].lzo, i < 2);
                CHECK_EQ_U(p->mips[i].width_field, (512u >> i) | (i < 2 ? 0x8000u : 0));
                if (!p->mips[i].lzo) CHECK_EQ_U(p->mips[i].data_size, (512u >> i) / 4 * ((256u >> i) / 4) * 8);
            }
            CHECK_EQ_U(p->average_argb, 0xFFC86432u);
            CHECK(!p->has_flags && find_tag(p, "GALF") == NULL);
            CHECK(find_tag(p, "CGVA") && find_tag(p, "CXAM") && find_tag(p, "SFFO"));
            /* A flat colour survives DXT1 within the 5/6-bit steps. */
            check_mip_colour(p, 0, 200, 100, 50, 255, 4);
            check_mip_colour(p, 6, 200, 100, 50, 255, 4);
            ferry_paa_free(p);
        }
        /* no_lzo: the same mipmaps, all raw. */
        ferry_paa_encode_options o = {0};
        o.no_lzo = true;
        p = encode_ok(&img, &o);
        if (p) {
            for (size_t i = 0; i < p->mip_count; i++) CHECK(!p->mips[i].lzo && !(p->mips[i].width_field & 0x8000));
            ferry_paa_free(p);
        }
        /* DXT5 chosen for an opaque image: alpha 255, no FLAG. */
        o.no_lzo = false;
        o.type = FERRY_PAA_DXT5;
        p = encode_ok(&img, &o);
        if (p) {
            CHECK_EQ_U(p->type, FERRY_PAA_DXT5);
            CHECK(!p->has_flags);
            CHECK_EQ_U(p->mips[2].data_size, 128 / 4 * (64 / 4) * 16);
            ferry_paa_free(p);
        }
        free(img.rgba);
    }
    /* With alpha, 8 x 8 white: the left half transparent, the right opaque:
     * DXT5, FLAG 1; mipmaps 8 x 8 and 4 x 4; AVGC alpha 127.5 -> 128 and
     * the colour white (weighted by alpha); 0 and 255 are exact in DXT5. */
    {
        ferry_image img = make_image(8, 8);
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++) set_px(&img, x, y, 255, 255, 255, x < 4 ? 0 : 255);
        ferry_paa *p = encode_ok(&img, NULL);
        if (p) {
            CHECK_EQ_U(p->type, FERRY_PAA_DXT5);
            CHECK_EQ_U(p->mip_count, 2);
            CHECK(p->mips[1].width == 4 && p->mips[1].height == 4);
            CHECK(p->has_flags && p->flags == 1);
            CHECK_EQ_U(p->average_argb, 0x80FFFFFFu);
            ferry_image m;
            ferry_error err;
            CHECK(ferry_paa_decode_mip(p, 1, &m, &err) == FERRY_OK);
            if (m.rgba)
                for (uint32_t x = 0; x < 4; x++) CHECK_EQ_U(m.rgba[x * 4 + 3], x < 2 ? 0 : 255);
            ferry_image_free(&m);
            ferry_paa_free(p);
        }
        /* --dxt1: alpha dropped, no FLAG. */
        ferry_paa_encode_options o = {0};
        o.type = FERRY_PAA_DXT1;
        p = encode_ok(&img, &o);
        if (p) {
            CHECK(p->type == FERRY_PAA_DXT1 && !p->has_flags);
            check_mip_colour(p, 0, 255, 255, 255, 255, 0);
            ferry_paa_free(p);
        }
        free(img.rgba);
    }
    /* The box filter in linear light: an 8 x 8 black and white checker's
     * 4 x 4 mipmap is 50% light, sRGB 188 (1.055 * 0.5^(1/2.4) - 0.055 =
     * 0.7354); as a data map (linear) the plain mean 127.5 -> 128. The
     * average colour tag alike. */
    {
        ferry_image img = make_image(8, 8);
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++) {
                unsigned v = (x + y) % 2 ? 255 : 0;
                set_px(&img, x, y, v, v, v, 255);
            }
        ferry_paa *p = encode_ok(&img, NULL);
        if (p) {
            check_mip_colour(p, 1, 188, 188, 188, 255, 3);
            CHECK_EQ_U(p->average_argb, 0xFFBCBCBCu);
            ferry_paa_free(p);
        }
        ferry_paa_encode_options o = {0};
        o.linear = true;
        p = encode_ok(&img, &o);
        if (p) {
            check_mip_colour(p, 1, 128, 128, 128, 255, 3);
            CHECK_EQ_U(p->average_argb, 0xFF808080u);
            ferry_paa_free(p);
        }
        free(img.rgba);
    }
    /* Smaller than a block: one 2 x 2 mipmap of one DXT1 block. */
    {
        ferry_image img = make_image(2, 2);
        for (uint32_t i = 0; i < 4; i++) set_px(&img, i % 2, i / 2, 0, 0, 255, 255);
        ferry_paa *p = encode_ok(&img, NULL);
        if (p) {
            CHECK(p->mip_count == 1 && p->mips[0].width == 2 && p->mips[0].data_size == 8);
            check_mip_colour(p, 0, 0, 0, 255, 255, 0);
            ferry_paa_free(p);
        }
        free(img.rgba);
    }
    /* Refused, saying why. */
    bad_encode(0, 0, "at least 1 x 1");
    bad_encode(100, 64, "width 100 is not a power of two");
    bad_encode(100, 64, "to 64 or 128");
    bad_encode(64, 48, "height 48 is not a power of two");
    bad_encode(8192, 8, "width is larger than 4096");
    {
        ferry_image img = make_image(4, 4);
        ferry_paa_encode_options o = {0};
        o.type = FERRY_PAA_ARGB4444;
        ferry_paa *p = NULL;
        ferry_error err;
        CHECK(ferry_paa_encode(&img, &o, &p, &err) == FERRY_ERR_ARGUMENT && p == NULL);
        CHECK(ferry_paa_encode(NULL, NULL, &p, &err) == FERRY_ERR_ARGUMENT);
        free(img.rgba);
    }
    /* PNG input (the CLI's path): ferry_image_decode reads the PNG that
     * ferry_image_encode_png writes, pixel for pixel, alpha included. */
    {
        ferry_image img = make_image(3, 2);
        for (uint32_t i = 0; i < 6; i++) set_px(&img, i % 3, i / 3, 10 * i, 20 + i, 255 - i, 100 + i);
        ferry_buffer png = {0};
        ferry_error err;
        CHECK(ferry_image_encode_png(&img, NULL, &png, &err) == FERRY_OK);
        ferry_image back;
        CHECK_MSG(ferry_image_decode(png.data, png.size, NULL, &back, &err) == FERRY_OK, "%s", err.message);
        CHECK(back.width == 3 && back.height == 2 && back.rgba && memcmp(back.rgba, img.rgba, 24) == 0);
        ferry_image_free(&back);
        /* A cut PNG fails with an error, not a crash. */
        CHECK(ferry_image_decode(png.data, 20, NULL, &back, &err) != FERRY_OK);
        CHECK(ferry_image_decode(png.data, png.size - 20, NULL, &back, &err) != FERRY_OK);
        ferry_buffer_free(&png);
        free(img.rgba);
    }
}

/* The names that say a texture holds data, not colour (ferry_paa_data_map_name). */
static void check_data_map_names(void)
{
    CHECK(ferry_paa_data_map_name("x_nohq.paa"));
    CHECK(ferry_paa_data_map_name("Data/tank_SMDI.paa"));
    CHECK(ferry_paa_data_map_name("a/b/rock_ns.png"));
    CHECK(ferry_paa_data_map_name("x_sm"));
    CHECK(!ferry_paa_data_map_name("x_co.paa"));
    CHECK(!ferry_paa_data_map_name("_nohq.paa")); /* the suffix alone is no name */
    CHECK(!ferry_paa_data_map_name("x_nohq/diffuse.paa"));
    CHECK(!ferry_paa_data_map_name("x_nohq.paa.bak_co"));
    CHECK(!ferry_paa_data_map_name(NULL));
}

int main(void)
{
    check_data_map_names();
    bytes o;
    /* ARGB8888, 2 x 1, stored B G R A: one flag byte of 8 literals, then the
     * signed sum 0x10+0x20+0x30+0x40-128-112-96-1 = -177. */
    {
        const uint8_t s[] = {0xFF, 0x10, 0x20, 0x30, 0x40, 0x80, 0x90, 0xA0, 0xFF, 0x4F, 0xFF, 0xFF, 0xFF};
        one_mip(&o, 0x8888, 2, 1, s, sizeof s);
        const uint8_t e[] = {0x30, 0x20, 0x10, 0x40, 0xA0, 0x90, 0x80, 0xFF};
        check_pixels(&o, e, 2, 1);
    }
    /* ARGB4444, 2 x 1: 0xF842 = a 15, r 8, g 4, b 2 (x17: 255 136 68 34);
     * 0x0F00 = red, alpha 0. Sum 0x42 - 8 + 0 + 0x0F = 73. */
    {
        const uint8_t s[] = {0x0F, 0x42, 0xF8, 0x00, 0x0F, 73, 0, 0, 0};
        one_mip(&o, 0x4444, 2, 1, s, sizeof s);
        const uint8_t e[] = {136, 68, 34, 255, 255, 0, 0, 0};
        check_pixels(&o, e, 2, 1);
    }
    /* ARGB1555, 1 x 1: 0xFC1F = a 1, r 31, g 0, b 31. Sum 0x1F - 4 = 27. */
    {
        const uint8_t s[] = {0x03, 0x1F, 0xFC, 27, 0, 0, 0};
        one_mip(&o, 0x1555, 1, 1, s, sizeof s);
        const uint8_t e[] = {255, 0, 255, 255};
        check_pixels(&o, e, 1, 1);
    }
    /* AI88, 1 x 1: intensity 0x80, alpha 0x40. Sum -128 + 64 = -64. */
    {
        const uint8_t s[] = {0x03, 0x80, 0x40, 0xC0, 0xFF, 0xFF, 0xFF};
        one_mip(&o, 0x8080, 1, 1, s, sizeof s);
        const uint8_t e[] = {128, 128, 128, 64};
        check_pixels(&o, e, 1, 1);
    }
    /* The same ARGB1555 texel with the unsigned sum that some writers
     * (hemtt's) store: 0x1F + 0xFC = 283 = 0x11B. Accepted too. */
    {
        const uint8_t s[] = {0x03, 0x1F, 0xFC, 0x1B, 0x01, 0, 0};
        one_mip(&o, 0x1555, 1, 1, s, sizeof s);
        const uint8_t e[] = {255, 0, 255, 255};
        check_pixels(&o, e, 1, 1);
    }
    /* DXT1, 4 x 4, raw: c0 0xF800 red > c1 0x001F blue; texel 1 index 1
     * (blue), the others 0 (red). */
    const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0x04, 0x00, 0x00, 0x00};
    uint8_t e16[64];
    for (int i = 0; i < 16; i++) {
        e16[i * 4] = 255, e16[i * 4 + 1] = 0, e16[i * 4 + 2] = 0, e16[i * 4 + 3] = 255;
    }
    e16[4] = 0, e16[6] = 255;
    one_mip(&o, 0xFF01, 4, 4, block, 8);
    check_pixels(&o, e16, 4, 4);
    /* The same block LZO-compressed: the width's top bit. */
    {
        ferry_buffer lz = {0};
        ferry_error err;
        CHECK(ferry_lzo_encode(block, 8, &lz, &err) == FERRY_OK);
        one_mip(&o, 0xFF01, 0x8004, 4, lz.data, lz.size);
        ferry_buffer_free(&lz);
        check_pixels(&o, e16, 4, 4);
    }
    /* An LZO stream of 4 bytes for a 4 x 4 DXT1 mipmap (8): read, but
     * refused before decoding, at the data (offset 11). */
    {
        ferry_buffer lz = {0};
        ferry_error err;
        CHECK(ferry_lzo_encode(block, 4, &lz, &err) == FERRY_OK);
        one_mip(&o, 0xFF01, 0x8004, 4, lz.data, lz.size);
        ferry_buffer_free(&lz);
        ferry_paa *p = read_ok(&o);
        if (p) {
            ferry_image img;
            CHECK(ferry_paa_decode_mip(p, 0, &img, &err) == FERRY_ERR_MALFORMED);
            CHECK_MSG(err.offset == 11 && strstr(err.path, "mip[0]") && strstr(err.message, "LZO") &&
                          strstr(err.message, "at most 4"),
                      "%llu %s %s", (unsigned long long)err.offset, err.path, err.message);
            ferry_diagnostics d = {0};
            CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 1);
            CHECK(d.count && strcmp(d.items[0].rule, "paa-mip-data") == 0);
            ferry_diagnostics_free(&d);
            ferry_paa_free(p);
        }
    }
    /* DXT5 4 x 4: alpha 0xFF/0x00, all indices 0 (alpha 255); colour block
     * as above. */
    {
        uint8_t b5[16] = {0xFF, 0x00, 0, 0, 0, 0, 0, 0};
        memcpy(b5 + 8, block, 8);
        one_mip(&o, 0xFF05, 4, 4, b5, 16);
        check_pixels(&o, e16, 4, 4);
    }
    /* Tags: average colour red, an unknown tag kept verbatim, mipmap
     * offsets; then an offsets tag that disagrees. */
    {
        o.n = 0;
        u16(&o, 0xFF01);
        put(&o, "GGATCGVA", 8), u32(&o, 4), u32(&o, 0xFFFF0000);
        put(&o, "GGATXXXX", 8), u32(&o, 3), put(&o, "abc", 3);
        put(&o, "GGATSFFO", 8), u32(&o, 64);
        size_t offs = o.n;
        for (int i = 0; i < 16; i++) u32(&o, 0);
        u16(&o, 0);
        size_t mip = o.n;
        o.b[offs] = (uint8_t)mip;
        u16(&o, 4), u16(&o, 4), u24(&o, 8);
        uint8_t red[8] = {0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0};
        put(&o, red, 8);
        u16(&o, 0), u16(&o, 0), u16(&o, 0);
        ferry_paa *p = read_ok(&o);
        if (p) {
            CHECK_EQ_U(p->tag_count, 3);
            CHECK(strcmp(p->tags[1].name, "XXXX") == 0 && p->tags[1].size == 3);
            CHECK(p->has_average && p->average_argb == 0xFFFF0000u);
            CHECK(p->has_offsets && p->offsets[0] == mip);
            ferry_diagnostics d = {0};
            CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 0);
            ferry_diagnostics_free(&d);
            ferry_paa_free(p);
        }
        o.b[offs] = (uint8_t)(mip + 1);
        p = read_ok(&o);
        if (p) {
            ferry_diagnostics d = {0};
            CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 1);
            CHECK(d.count && strcmp(d.items[0].rule, "paa-mip-offsets") == 0);
            ferry_diagnostics_free(&d);
            ferry_paa_free(p);
        }
        /* Average colour blue for a red texture: a warning, not an error. */
        o.b[offs] = (uint8_t)mip;
        o.b[2 + 12] = 0xFF, o.b[2 + 12 + 2] = 0;
        p = read_ok(&o);
        if (p) {
            ferry_diagnostics d = {0};
            CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 0);
            CHECK(d.warning_count >= 1);
            ferry_diagnostics_free(&d);
            ferry_paa_free(p);
        }
    }
    /* Bad input, located. */
    one_mip(&o, 0x1234, 4, 4, block, 8);
    bad(&o, FERRY_ERR_MALFORMED, 0, "header");
    CHECK(ferry_detect(o.b, o.n) == FERRY_FORMAT_UNKNOWN);
    one_mip(&o, 0xFF01, 4, 4, block, 8);
    o.n = 2 + 2 + 4 + 3 + 5; /* the mipmap's data cut short */
    bad(&o, FERRY_ERR_TRUNCATED, 11, "mip[0]");
    one_mip(&o, 0xFF01, 4, 4, block, 7); /* raw DXT1 4 x 4 must be 8 bytes */
    bad(&o, FERRY_ERR_MALFORMED, 8, "mip[0]");
    one_mip(&o, 0xFF01, 4, 4, block, 8);
    o.n -= 4; /* the end's width at 19, its height missing at 21 */
    bad(&o, FERRY_ERR_TRUNCATED, 21, "mip[1]");
    o.n = 0;
    u16(&o, 0xFF01), put(&o, "GGATCGVA", 8), u32(&o, 100), u32(&o, 0);
    bad(&o, FERRY_ERR_TRUNCATED, 14, "tags");
    /* A palette-indexed OFP texture (tags first, no type): refused as such. */
    o.n = 0;
    put(&o, "GGATCGVA", 8), u32(&o, 4), u32(&o, 0);
    bad(&o, FERRY_ERR_UNSUPPORTED, 0, "header");
    /* A mipmap with a side of 0 (the end needs both). */
    one_mip(&o, 0xFF01, 0, 4, block, 8);
    bad(&o, FERRY_ERR_MALFORMED, 4, "mip[0]");
    /* A palette of one triplet, cut short after 2 of its 3 bytes. */
    o.n = 0;
    u16(&o, 0x4444), u16(&o, 1), u16(&o, 0x0F0F);
    bad(&o, FERRY_ERR_TRUNCATED, 4, "palette");
    /* 33 mipmaps (raw DXT1 1 x 1, 15 bytes each): the 33rd is over the
     * limit of 32, at 4 + 32 x 15. */
    o.n = 0;
    u16(&o, 0xFF01), u16(&o, 0);
    for (int i = 0; i < 33; i++) u16(&o, 1), u16(&o, 1), u24(&o, 8), put(&o, block, 8);
    u16(&o, 0), u16(&o, 0), u16(&o, 0);
    bad(&o, FERRY_ERR_LIMIT, 4 + 32 * 15, "mip[32]");
    /* A corrupt LZSS stream: read, but decode and validate name it. */
    {
        const uint8_t s[] = {0x03, 0x1F, 0xFC, 28, 0, 0, 0};
        one_mip(&o, 0x1555, 1, 1, s, sizeof s);
        ferry_paa *p = read_ok(&o);
        if (p) {
            ferry_image img;
            ferry_error err;
            CHECK(ferry_paa_decode_mip(p, 0, &img, &err) == FERRY_ERR_MALFORMED);
            CHECK(strstr(err.path, "mip[0]") != NULL && err.offset == 11 + 3);
            /* Neither sum: 27 signed, 0x11B unsigned; both are named. */
            CHECK_MSG(strstr(err.message, "0x0000001b") && strstr(err.message, "0x0000011b"), "%s", err.message);
            CHECK(ferry_paa_decode_mip(p, 1, &img, &err) == FERRY_ERR_ARGUMENT);
            ferry_diagnostics d = {0};
            CHECK_EQ_U(ferry_paa_validate(p, NULL, &d), 1);
            ferry_diagnostics_free(&d);
            ferry_paa_free(p);
        }
    }
    /* 7 stored LZSS bytes cannot give 256 x 256 x 4: refused before any
     * allocation, at the data (offset 11). */
    {
        const uint8_t s[] = {0x03, 0x1F, 0xFC, 27, 0, 0, 0};
        one_mip(&o, 0x8888, 256, 256, s, sizeof s);
        ferry_paa *p = read_ok(&o);
        if (p) {
            ferry_image img;
            ferry_error err;
            CHECK(ferry_paa_decode_mip(p, 0, &img, &err) == FERRY_ERR_MALFORMED);
            CHECK_MSG(err.offset == 11 && strstr(err.message, "at most") != NULL, "%llu %s", (unsigned long long)err.offset, err.message);
            ferry_paa_free(p);
        }
    }
    encode_tests();
    TEST_END();
}
