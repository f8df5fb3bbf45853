/* ferry: writing a PAA texture from an RGBA image (DXT1/DXT5, the mipmap
 * chain, the tags, LZO). docs/formats/paa.md ("Writing") gives the reasons
 * for each choice; the DXT blocks are compressed by stb_dxt, the LZO streams
 * by liblzo2's LZO1X-999 (both through src/codec). */
#include <ferry/paa.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../codec/codec.h"
#include "../../core/core.h"

/* Largest side accepted: the largest in the real files (and what ArmA 3's
 * tools take); a DXT5 mipmap of 4096 x 4096 already needs LZO to fit the
 * u24 size field. */
#define PAA_ENCODE_MAX_SIDE 4096u
/* Mipmaps this wide or wider are LZO-compressed (Bohemia's tools: 256 x 128
 * compressed, 128 x 256 raw, in every ArmA 2/3 texture of the corpus). */
#define PAA_LZO_MIN_WIDTH 256u
/* The chain ends when a side reaches this (real files: 4 x 4, 8 x 4, 4 x 8). */
#define PAA_SMALLEST_SIDE 4u

static bool pow2(uint32_t v) { return v && !(v & (v - 1)); }

static uint32_t pow2_below(uint32_t v)
{
    uint32_t p = 1;
    while (p <= v / 2) p *= 2;
    return p;
}

static float srgb_to_linear(float v) { return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f); }

static float linear_to_srgb(float v)
{
    return v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

static uint8_t to_byte(float v) /* 0..1 -> 0..255, rounded */
{
    v = v * 255.0f + 0.5f;
    return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
}

typedef struct encoder {
    bool linear;
    float to_lin[256]; /* byte -> linear light (or byte / 255 for data maps) */
} encoder;

static uint8_t from_lin(const encoder *e, float v) { return to_byte(e->linear ? v : linear_to_srgb(v)); }

/* The next mipmap: each pixel the mean of a 2 x 2 box (a side of 1 stays
 * 1), colour in linear light, alpha as stored. */
static void halve(const encoder *e, const uint8_t *src, uint32_t w, uint32_t h, uint8_t *dst)
{
    uint32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
    uint32_t dx = w > 1 ? 1 : 0, dy = h > 1 ? 1 : 0;
    for (uint32_t y = 0; y < nh; y++)
        for (uint32_t x = 0; x < nw; x++) {
            const uint8_t *p[4] = {src + ((size_t)(2 * y) * w + 2 * x) * 4, src + ((size_t)(2 * y) * w + 2 * x + dx) * 4,
                                   src + ((size_t)(2 * y + dy) * w + 2 * x) * 4,
                                   src + ((size_t)(2 * y + dy) * w + 2 * x + dx) * 4};
            uint8_t *o = dst + ((size_t)y * nw + x) * 4;
            for (int c = 0; c < 3; c++)
                o[c] = from_lin(e, (e->to_lin[p[0][c]] + e->to_lin[p[1][c]] + e->to_lin[p[2][c]] + e->to_lin[p[3][c]]) *
                                       0.25f);
            o[3] = (uint8_t)((p[0][3] + p[1][3] + p[2][3] + p[3][3] + 2) / 4);
        }
}

/* AVGC: the mean colour of the image, 0xAARRGGBB. Colour textures average
 * in linear light and convert back (real files agree within 1 per channel),
 * weighted by alpha when there is any; data maps average the stored values
 * (unweighted: their alpha is data, not coverage). */
static uint32_t average_colour(const encoder *e, const ferry_image *img, bool alpha)
{
    size_t n = (size_t)img->width * img->height;
    double sum[3] = {0, 0, 0}, weight = 0, asum = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = img->rgba + i * 4;
        double wgt = alpha && !e->linear ? p[3] / 255.0 : 1.0; /* a data map's alpha is data too */
        for (int c = 0; c < 3; c++) sum[c] += e->to_lin[p[c]] * wgt;
        weight += wgt;
        asum += p[3];
    }
    uint8_t rgb[3] = {0, 0, 0};
    if (weight > 0)
        for (int c = 0; c < 3; c++) rgb[c] = from_lin(e, (float)(sum[c] / weight));
    uint8_t a = alpha ? (uint8_t)(asum / (double)n + 0.5) : 255;
    return (uint32_t)a << 24 | (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
}

static void put_tag(ferry_buffer *b, const char *stored_name, const uint8_t *data, uint32_t size)
{
    fy_buf_append(b, "GGAT", 4);
    fy_buf_append(b, stored_name, 4);
    fy_buf_u32le(b, size);
    fy_buf_append(b, data, size);
}

static ferry_result refuse_size(const ferry_image *img, ferry_error *err)
{
    uint32_t w = img->width, h = img->height;
    if (w == 0 || h == 0) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "image",
                     "the image is %" PRIu32 " x %" PRIu32 ": a texture needs at least 1 x 1 pixels", w, h);
        return FERRY_ERR_ARGUMENT;
    }
    if (w > PAA_ENCODE_MAX_SIDE || h > PAA_ENCODE_MAX_SIDE) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "image",
                     "the image is %" PRIu32 " x %" PRIu32 ": the %s is larger than %u, the largest side written",
                     w, h, w > PAA_ENCODE_MAX_SIDE ? "width" : "height", PAA_ENCODE_MAX_SIDE);
        return FERRY_ERR_ARGUMENT;
    }
    if (!pow2(w) || !pow2(h)) {
        bool bad_w = !pow2(w);
        uint32_t v = bad_w ? w : h;
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "image",
                     "the image is %" PRIu32 " x %" PRIu32 ": its %s %" PRIu32
                     " is not a power of two, which the games need; resize it (to %" PRIu32 " or %" PRIu32
                     ") first",
                     w, h, bad_w ? "width" : "height", v, pow2_below(v), pow2_below(v) * 2);
        return FERRY_ERR_ARGUMENT;
    }
    return FERRY_OK;
}

ferry_result ferry_paa_encode(const ferry_image *image, const ferry_paa_encode_options *options, ferry_paa **out,
                              ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (out) *out = NULL;
    if (!image || !out || (!image->rgba && image->width && image->height)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_paa_encode: NULL image, pixels or out");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_paa_encode_options defaults = {0};
    if (!options) options = &defaults;
    if (options->type && options->type != FERRY_PAA_DXT1 && options->type != FERRY_PAA_DXT5) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "ferry_paa_encode writes DXT1 (0xff01) or DXT5 (0xff05), not type 0x%04x", options->type);
        return FERRY_ERR_ARGUMENT;
    }
    ferry_result r = refuse_size(image, err);
    if (r != FERRY_OK) return r;

    encoder e;
    e.linear = options->linear;
    for (int i = 0; i < 256; i++) e.to_lin[i] = e.linear ? i / 255.0f : srgb_to_linear(i / 255.0f);

    size_t n = (size_t)image->width * image->height;
    bool alpha = false;
    for (size_t i = 0; i < n && !alpha; i++) alpha = image->rgba[i * 4 + 3] != 255;
    uint16_t type = options->type ? options->type : alpha ? FERRY_PAA_DXT5 : FERRY_PAA_DXT1;
    bool dxt5 = type == FERRY_PAA_DXT5;
    if (!dxt5) alpha = false; /* DXT1 chosen for an image with alpha: the alpha is dropped */

    /* The chain: each level half the one before until a side is 4 (or the
     * image is smaller than that: one level). */
    uint32_t ws[16], hs[16];
    size_t levels = 0;
    for (uint32_t w = image->width, h = image->height;; w /= 2, h /= 2) {
        ws[levels] = w;
        hs[levels] = h;
        levels++;
        if (w <= PAA_SMALLEST_SIDE || h <= PAA_SMALLEST_SIDE) break;
    }

    ferry_buffer file = {0};
    uint8_t *work = malloc(fy_lzo_best_work_size());
    /* Levels below the first alternate between two buffers of n / 4 pixels. */
    uint8_t *half[2] = {malloc(n + 16), malloc(n + 16)};
    size_t most = ((size_t)image->width + 3) / 4 * ((image->height + 3) / 4) * 16;
    uint8_t *blocks = malloc(most);
    uint8_t *packed = malloc(fy_lzo_best_bound(most)); /* liblzo2's bound for incompressible input */
    if (!work || !half[0] || !half[1] || !blocks || !packed) goto nomem;

    /* Header and tags; SFFO's offsets are filled in as the mipmaps go. */
    fy_buf_u16le(&file, type);
    uint32_t avg = average_colour(&e, image, alpha);
    uint8_t v4[4];
    fy_store_u32le(v4, avg);
    put_tag(&file, "CGVA", v4, 4);
    fy_store_u32le(v4, 0xFFFFFFFFu); /* MAXC: what every real file says */
    put_tag(&file, "CXAM", v4, 4);
    if (alpha && !e.linear) { /* real files: no _nohq/_smdi data map carries FLAG */
        fy_store_u32le(v4, 1); /* FLAG 1: interpolated alpha */
        put_tag(&file, "GALF", v4, 4);
    }
    uint8_t zeros[64] = {0};
    put_tag(&file, "SFFO", zeros, 64);
    size_t offs_at = file.size - 64;
    fy_buf_u16le(&file, 0); /* no palette */

    const uint8_t *px = image->rgba;
    for (size_t l = 0; l < levels; l++) {
        uint32_t w = ws[l], h = hs[l];
        if (l > 0) {
            uint8_t *dst = half[l % 2];
            halve(&e, px, ws[l - 1], hs[l - 1], dst);
            px = dst;
        }
        size_t raw = ((size_t)w + 3) / 4 * ((h + 3) / 4) * (dxt5 ? 16 : 8);
        fy_dxt_encode(px, w, h, dxt5, blocks);
        const uint8_t *data = blocks;
        size_t size = raw;
        uint16_t width_field = (uint16_t)w;
        if (!options->no_lzo && w >= PAA_LZO_MIN_WIDTH) {
            size_t packed_size = 0;
            if (!fy_lzo_encode_best(blocks, raw, packed, &packed_size, work)) {
                fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "liblzo2 could not compress mipmap %zu",
                             l);
                r = FERRY_ERR_ARGUMENT;
                goto done;
            }
            data = packed;
            size = packed_size;
            width_field |= 0x8000;
        }
        if (size > 0xFFFFFFu) {
            fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, "image",
                         "mipmap %zu (%" PRIu32 " x %" PRIu32 ") takes %zu bytes, more than its u24 size field holds%s",
                         l, w, h, size,
                         options->no_lzo || w < PAA_LZO_MIN_WIDTH ? " (without LZO; LZO compression may make it fit)"
                                                                  : " even LZO-compressed (DXT1 or a smaller image fits)");
            r = FERRY_ERR_LIMIT;
            goto done;
        }
        if (l < 16) fy_buf_put_u32le_at(&file, offs_at + 4 * l, (uint32_t)file.size);
        fy_buf_u16le(&file, width_field);
        fy_buf_u16le(&file, (uint16_t)h);
        uint8_t s3[3] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16)};
        fy_buf_append(&file, s3, 3);
        fy_buf_append(&file, data, size);
    }
    fy_buf_u16le(&file, 0); /* the end: a width and height of 0, then a u16 0 */
    fy_buf_u16le(&file, 0);
    fy_buf_u16le(&file, 0);
    if (file.failed) goto nomem;
    r = ferry_paa_read(file.data, file.size, NULL, out, err);
    goto done;
nomem:
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory encoding a %" PRIu32 " x %" PRIu32 " texture",
                 image->width, image->height);
    r = FERRY_ERR_NOMEM;
done:
    free(work);
    free(half[0]);
    free(half[1]);
    free(blocks);
    free(packed);
    ferry_buffer_free(&file);
    return r;
}
