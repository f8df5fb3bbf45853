/* The one DXT (BC1-BC3) block decoder of the tree, shared by the DDS
 * reader and the PAA reader, and the PAA writer's encoding through
 * stb_dxt (libstb, Debian's libstb-dev; its v1.12 has no global state, so
 * encodes may run on several threads). */
#include "codec.h"
#include "../core/core.h"

#include <stb_dxt.h>
#include <string.h>

/* ---- DXT blocks ---- */

static void expand565(uint16_t c, uint8_t rgb[3])
{
    unsigned r = c >> 11, g = (c >> 5) & 63u, b = c & 31u;
    rgb[0] = (uint8_t)((r << 3) | (r >> 2));
    rgb[1] = (uint8_t)((g << 2) | (g >> 4));
    rgb[2] = (uint8_t)((b << 3) | (b >> 2));
}

/* Writes the 16 texels of a colour block as RGBA into px[16][4].
 * `dxt1`: c0 <= c1 selects three colours plus transparent black; in DXT3
 * and DXT5 the colour block always has four colours. */
static void decode_colour_block(const uint8_t *b, bool dxt1, uint8_t px[16][4])
{
    uint16_t c0 = fy_load_u16le(b), c1 = fy_load_u16le(b + 2);
    uint8_t pal[4][4];
    expand565(c0, pal[0]);
    expand565(c1, pal[1]);
    pal[0][3] = pal[1][3] = 255;
    if (!dxt1 || c0 > c1) {
        for (int k = 0; k < 3; k++) {
            pal[2][k] = (uint8_t)((2 * pal[0][k] + pal[1][k]) / 3);
            pal[3][k] = (uint8_t)((pal[0][k] + 2 * pal[1][k]) / 3);
        }
        pal[2][3] = pal[3][3] = 255;
    } else {
        for (int k = 0; k < 3; k++) {
            pal[2][k] = (uint8_t)((pal[0][k] + pal[1][k]) / 2);
            pal[3][k] = 0;
        }
        pal[2][3] = 255;
        pal[3][3] = 0;
    }
    uint32_t idx = fy_load_u32le(b + 4);
    for (int i = 0; i < 16; i++) memcpy(px[i], pal[(idx >> (2 * i)) & 3u], 4);
}

static void decode_dxt3_alpha(const uint8_t *b, uint8_t px[16][4])
{
    uint64_t bits = fy_load_u64le(b);
    for (int i = 0; i < 16; i++) px[i][3] = (uint8_t)(((bits >> (4 * i)) & 15u) * 17u);
}

static void decode_dxt5_alpha(const uint8_t *b, uint8_t px[16][4])
{
    unsigned a0 = b[0], a1 = b[1];
    uint8_t pal[8];
    pal[0] = (uint8_t)a0;
    pal[1] = (uint8_t)a1;
    if (a0 > a1) {
        for (unsigned i = 1; i < 7; i++) pal[1 + i] = (uint8_t)(((7 - i) * a0 + i * a1) / 7);
    } else {
        for (unsigned i = 1; i < 5; i++) pal[1 + i] = (uint8_t)(((5 - i) * a0 + i * a1) / 5);
        pal[6] = 0;
        pal[7] = 255;
    }
    /* 48 bits of 3-bit indices, little-endian, texel 0 in the lowest bits. */
    uint64_t bits = 0;
    for (int k = 0; k < 6; k++) bits |= (uint64_t)b[2 + k] << (8 * k);
    for (int i = 0; i < 16; i++) px[i][3] = pal[(bits >> (3 * i)) & 7u];
}

void fy_dxt_decode(const uint8_t *src, fy_dxt_kind kind, ferry_image *img)
{
    /* In 64 bits: a caller may raise the limits to 2^32 - 1. */
    uint64_t bw = ((uint64_t)img->width + 3) / 4, bh = ((uint64_t)img->height + 3) / 4;
    size_t block_size = kind == FY_DXT1 ? 8 : 16;
    uint8_t px[16][4];
    for (uint64_t by = 0; by < bh; by++) {
        for (uint64_t bx = 0; bx < bw; bx++, src += block_size) {
            if (kind == FY_DXT1) {
                decode_colour_block(src, true, px);
            } else {
                decode_colour_block(src + 8, false, px);
                if (kind == FY_DXT3)
                    decode_dxt3_alpha(src, px);
                else
                    decode_dxt5_alpha(src, px);
            }
            if (bx * 4 + 4 <= img->width && by * 4 + 4 <= img->height) {
                /* An inner block: four rows of four texels. */
                uint8_t *at = img->rgba + ((size_t)(by * 4) * img->width + bx * 4) * 4;
                for (size_t y = 0; y < 4; y++) memcpy(at + y * img->width * 4, px[y * 4], 16);
                continue;
            }
            /* Edge blocks of sizes not a multiple of 4 hold texels past
             * the image: keep only those inside. */
            for (uint64_t y = 0; y < 4 && by * 4 + y < img->height; y++) {
                for (uint64_t x = 0; x < 4 && bx * 4 + x < img->width; x++) {
                    size_t at = ((size_t)(by * 4 + y) * img->width + bx * 4 + x) * 4;
                    memcpy(img->rgba + at, px[y * 4 + x], 4);
                }
            }
        }
    }
}

bool fy_dxt_opaque_colour(const uint8_t *src, fy_dxt_kind kind, uint64_t block_count, uint8_t *out)
{
    size_t block_size = kind == FY_DXT1 ? 8 : 16;
    for (uint64_t i = 0; i < block_count; i++, src += block_size, out += 8) {
        const uint8_t *b = kind == FY_DXT1 ? src : src + 8;
        uint16_t c0 = fy_load_u16le(b), c1 = fy_load_u16le(b + 2);
        uint32_t idx = fy_load_u32le(b + 4);
        if (kind == FY_DXT1 || c0 > c1) {
            /* Three colours and transparent black when c0 <= c1: usable
             * only when no texel is the transparent one (index 3). */
            if (kind == FY_DXT1 && c0 <= c1)
                for (int t = 0; t < 16; t++)
                    if (((idx >> (2 * t)) & 3u) == 3u) return false;
            memcpy(out, b, 8);
            continue;
        }
        /* c0 < c1: swapped, each index's colour moves with it (0 <-> 1,
         * and the two thirds 2 <-> 3, since (2*c1 + c0) / 3 is the old
         * third colour); c0 == c1: all four colours are c0. */
        uint16_t first = c0 == c1 ? c0 : c1, second = c0;
        uint32_t moved = c0 == c1 ? 0 : idx ^ 0x55555555u;
        out[0] = (uint8_t)first;
        out[1] = (uint8_t)(first >> 8);
        out[2] = (uint8_t)second;
        out[3] = (uint8_t)(second >> 8);
        fy_store_u32le(out + 4, moved);
    }
    return true;
}

/* ---- encoding ---- */

void fy_dxt_encode(const uint8_t *rgba, uint32_t w, uint32_t h, bool dxt5, uint8_t *out)
{
    uint8_t block[64];
    for (uint32_t by = 0; by < (h + 3) / 4; by++)
        for (uint32_t bx = 0; bx < (w + 3) / 4; bx++) {
            for (uint32_t y = 0; y < 4; y++)
                for (uint32_t x = 0; x < 4; x++) {
                    uint32_t sx = bx * 4 + x, sy = by * 4 + y;
                    if (sx >= w) sx = w - 1;
                    if (sy >= h) sy = h - 1;
                    memcpy(block + (y * 4 + x) * 4, rgba + ((size_t)sy * w + sx) * 4, 4);
                    /* stb_dxt wants a constant alpha when it does not store it. */
                    if (!dxt5) block[(y * 4 + x) * 4 + 3] = 255;
                }
            stb_compress_dxt_block(out, block, dxt5 ? 1 : 0, STB_DXT_HIGHQUAL);
            out += dxt5 ? 16 : 8;
        }
}
