/* DDS: the top mip level of DXT1, DXT3, DXT5 and uncompressed (bit-mask)
 * textures, decoded here because no C library in Debian decodes DXT
 * (libsquish is C++ only and not installed; stb_image has no DDS).
 *
 * Layout: "DDS " magic, a 124-byte DDS_HEADER (with a 32-byte
 * DDS_PIXELFORMAT at file offset 76), an optional 20-byte DDS_HEADER_DXT10
 * when the fourCC is "DX10", then the top mip level at the start of the data.
 *
 * Rounding, chosen to match libsquish and the D3D9-era reference decoders:
 * 5- and 6-bit endpoints widen by bit replication ((v << 3) | (v >> 2),
 * (v << 2) | (v >> 4)); interpolated colours are computed per 8-bit channel
 * with truncating division: (2*c0 + c1) / 3, (c0 + 2*c1) / 3, (c0 + c1) / 2;
 * DXT5 alpha likewise: ((7-i)*a0 + i*a1) / 7 and ((5-i)*a0 + i*a1) / 5;
 * DXT3 alpha widens 4 bits by a * 17. */
#include "image_internal.h"
#include "../codec/codec.h"

#include <stdio.h>
#include <stdlib.h>

enum {
    DDS_HEADER_END = 128, /* magic + 124-byte header */
    DDS_OFF_HEADER_SIZE = 4,
    DDS_OFF_HEIGHT = 12,
    DDS_OFF_PF = 76,
    DDS_OFF_PF_FLAGS = 80,
    DDS_OFF_FOURCC = 84,
    DDS_OFF_BITCOUNT = 88,
    DDS_OFF_CAPS2 = 112,

    DDPF_ALPHAPIXELS = 0x1,
    DDPF_ALPHA = 0x2,
    DDPF_FOURCC = 0x4,
    DDPF_RGB = 0x40,
    DDPF_YUV = 0x200,
    DDPF_LUMINANCE = 0x20000
};

#define FOURCC(a, b, c, d) \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

typedef enum dds_kind { DDS_DXT1, DDS_DXT3, DDS_DXT5, DDS_MASKS } dds_kind;

/* How an uncompressed pixel's bits map to channels. */
typedef struct dds_masks {
    unsigned bytes; /* per pixel: 1..4 */
    uint32_t mask[4]; /* r, g, b, a; 0 = channel absent */
    bool luminance;   /* the red mask holds grey for all three colours */
} dds_masks;

/* ---- uncompressed ---- */

/* Scales the masked field of `v` to 0..255, rounding to nearest; 8-bit
 * fields come out unchanged. */
static uint8_t channel(uint32_t v, uint32_t mask)
{
    unsigned shift = 0;
    while (!((mask >> shift) & 1u)) shift++;
    uint64_t max = (uint64_t)mask >> shift;
    uint64_t x = ((uint64_t)v & mask) >> shift;
    return (uint8_t)((x * 255 + max / 2) / max);
}

static void decode_masks(const uint8_t *src, const dds_masks *m, ferry_image *img)
{
    size_t count = (size_t)img->width * img->height;
    for (size_t i = 0; i < count; i++, src += m->bytes) {
        uint32_t v = 0;
        for (unsigned k = 0; k < m->bytes; k++) v |= (uint32_t)src[k] << (8 * k);
        uint8_t *dst = img->rgba + i * 4;
        if (m->luminance) {
            uint8_t l = m->mask[0] ? channel(v, m->mask[0]) : 0;
            dst[0] = dst[1] = dst[2] = l;
        } else {
            for (int k = 0; k < 3; k++) dst[k] = m->mask[k] ? channel(v, m->mask[k]) : 0;
        }
        dst[3] = m->mask[3] ? channel(v, m->mask[3]) : 255;
    }
}

/* ---- header ---- */

static void describe_fourcc(uint32_t fourcc, char out[24])
{
    bool printable = true;
    for (int k = 0; k < 4; k++) {
        unsigned ch = (fourcc >> (8 * k)) & 0xFFu;
        if (ch < 0x20 || ch > 0x7E) printable = false;
    }
    if (printable)
        snprintf(out, 24, "\"%c%c%c%c\"", (char)(fourcc & 0xFF), (char)((fourcc >> 8) & 0xFF),
                 (char)((fourcc >> 16) & 0xFF), (char)(fourcc >> 24));
    else
        snprintf(out, 24, "0x%08" PRIx32, fourcc);
}

/* The DX10 extension's formats that mean the same as a legacy header. */
static bool dx10_format(uint32_t dxgi, dds_kind *kind, dds_masks *m)
{
    switch (dxgi) {
    case 71: case 72: *kind = DDS_DXT1; return true;  /* BC1_UNORM(_SRGB) */
    case 74: case 75: *kind = DDS_DXT3; return true;  /* BC2_UNORM(_SRGB) */
    case 77: case 78: *kind = DDS_DXT5; return true;  /* BC3_UNORM(_SRGB) */
    case 28: case 29: /* R8G8B8A8_UNORM(_SRGB) */
        *kind = DDS_MASKS;
        *m = (dds_masks){4, {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u}, false};
        return true;
    case 87: case 91: /* B8G8R8A8_UNORM(_SRGB) */
        *kind = DDS_MASKS;
        *m = (dds_masks){4, {0xFF0000u, 0xFF00u, 0xFFu, 0xFF000000u}, false};
        return true;
    case 88: case 93: /* B8G8R8X8_UNORM(_SRGB) */
        *kind = DDS_MASKS;
        *m = (dds_masks){4, {0xFF0000u, 0xFF00u, 0xFFu, 0}, false};
        return true;
    default: return false;
    }
}

/* Bytes of one mip level of w x h pixels. */
static uint64_t level_bytes(dds_kind kind, const dds_masks *m, uint32_t w, uint32_t h)
{
    if (kind == DDS_MASKS) return (uint64_t)w * h * m->bytes;
    return (((uint64_t)w + 3) / 4) * (((uint64_t)h + 3) / 4) * (kind == DDS_DXT1 ? 8 : 16);
}

/* What the header says, read and checked by read_header. */
typedef struct dds_header {
    dds_kind kind;
    dds_masks masks;
    uint32_t width, height;
    uint32_t levels; /* mip levels whose bytes are there whole */
    bool dx10;       /* a DX10 extension follows the header */
} dds_header;

/* Reads the header (and DX10 extension) at c, leaving c at the top level;
 * checks the dimensions against the limits and counts the whole levels. */
static ferry_result read_header(fy_cursor *cur, size_t size, uint32_t max_width, uint32_t max_height,
                                dds_header *hd, ferry_error *err)
{
    fy_cursor c = *cur;
    const uint8_t *magic = fy_bytes(&c, 4, "the DDS magic \"DDS \"");
    if (magic && memcmp(magic, "DDS ", 4) != 0) fy_fail_at(&c, 0, FERRY_ERR_MALFORMED, "expected the DDS magic \"DDS \"");
    const uint8_t *h = fy_bytes(&c, 124, "the 124-byte DDS header");
    if (!h) return err ? err->code : FERRY_ERR_TRUNCATED;
    h -= 4; /* index by file offset */

    uint32_t header_size = fy_load_u32le(h + DDS_OFF_HEADER_SIZE);
    uint32_t height = fy_load_u32le(h + DDS_OFF_HEIGHT), width = fy_load_u32le(h + 16);
    uint32_t pf_size = fy_load_u32le(h + DDS_OFF_PF), pf_flags = fy_load_u32le(h + DDS_OFF_PF_FLAGS);
    uint32_t fourcc = fy_load_u32le(h + DDS_OFF_FOURCC), bitcount = fy_load_u32le(h + DDS_OFF_BITCOUNT);
    uint32_t caps2 = fy_load_u32le(h + DDS_OFF_CAPS2);

    if (header_size != 124) {
        fy_error_set(err, FERRY_ERR_MALFORMED, DDS_OFF_HEADER_SIZE, NULL,
                     "expected DDS header size 124, found %" PRIu32, header_size);
        return FERRY_ERR_MALFORMED;
    }
    if (pf_size != 32) {
        fy_error_set(err, FERRY_ERR_MALFORMED, DDS_OFF_PF, NULL,
                     "expected DDS pixel format size 32, found %" PRIu32, pf_size);
        return FERRY_ERR_MALFORMED;
    }
    (void)caps2; /* cube maps and volumes: the first face or slice comes first */

    dds_kind kind = DDS_MASKS;
    dds_masks m = {0, {0, 0, 0, 0}, false};
    char name[24];
    if (pf_flags & DDPF_FOURCC) {
        if (fourcc == FOURCC('D', 'X', 'T', '1')) {
            kind = DDS_DXT1;
        } else if (fourcc == FOURCC('D', 'X', 'T', '3')) {
            kind = DDS_DXT3;
        } else if (fourcc == FOURCC('D', 'X', 'T', '5')) {
            kind = DDS_DXT5;
        } else if (fourcc == FOURCC('D', 'X', '1', '0')) {
            size_t at = c.pos;
            const uint8_t *x = fy_bytes(&c, 20, "the 20-byte DX10 header extension");
            if (!x) return err ? err->code : FERRY_ERR_TRUNCATED;
            uint32_t dxgi = fy_load_u32le(x), dim = fy_load_u32le(x + 4);
            uint32_t array_size = fy_load_u32le(x + 12);
            if (!dx10_format(dxgi, &kind, &m)) {
                fy_error_set(err, FERRY_ERR_UNSUPPORTED, at, NULL,
                             "DX10 DDS with DXGI format %" PRIu32
                             " is not supported (only BC1-3 and 8-bit RGBA/BGRA/BGRX)",
                             dxgi);
                return FERRY_ERR_UNSUPPORTED;
            }
            if (dim != 3 || array_size == 0) {
                fy_error_set(err, FERRY_ERR_UNSUPPORTED, at + 4, NULL,
                             "expected a DX10 2D texture (dimension 3, array size at least 1), "
                             "found dimension %" PRIu32 ", array size %" PRIu32,
                             dim, array_size);
                return FERRY_ERR_UNSUPPORTED;
            }
        } else {
            /* DXT2 and DXT4 hold premultiplied colour; decoding them as DXT3
             * and DXT5 would show darkened colours, so they are named here. */
            describe_fourcc(fourcc, name);
            fy_error_set(err, FERRY_ERR_UNSUPPORTED, DDS_OFF_FOURCC, NULL,
                         "DDS compression %s is not supported (only DXT1, DXT3, DXT5, "
                         "uncompressed and DX10 with those formats)",
                         name);
            return FERRY_ERR_UNSUPPORTED;
        }
    } else if (pf_flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA)) {
        if (pf_flags & DDPF_YUV) {
            fy_error_set(err, FERRY_ERR_UNSUPPORTED, DDS_OFF_PF_FLAGS, NULL,
                         "YUV DDS pixel formats are not supported");
            return FERRY_ERR_UNSUPPORTED;
        }
        if (bitcount != 8 && bitcount != 16 && bitcount != 24 && bitcount != 32) {
            fy_error_set(err, FERRY_ERR_UNSUPPORTED, DDS_OFF_BITCOUNT, NULL,
                         "expected 8, 16, 24 or 32 bits per uncompressed DDS pixel, found %" PRIu32,
                         bitcount);
            return FERRY_ERR_UNSUPPORTED;
        }
        m.bytes = bitcount / 8;
        uint32_t limit = bitcount == 32 ? UINT32_MAX : ((uint32_t)1 << bitcount) - 1;
        bool colour = (pf_flags & (DDPF_RGB | DDPF_LUMINANCE)) != 0;
        for (int k = 0; k < 4; k++) {
            uint32_t mask = fy_load_u32le(h + 92 + 4 * k);
            /* A colour mask only counts for colour formats, the alpha mask
             * only when a flag says alpha is there (X8R8G8B8 files often
             * carry an alpha mask all the same). */
            if (k < 3 && !colour) mask = 0;
            if (k == 3 && !(pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA))) mask = 0;
            if (mask & ~limit) {
                fy_error_set(err, FERRY_ERR_MALFORMED, 92 + 4 * (uint64_t)k, NULL,
                             "DDS channel mask 0x%08" PRIx32 " has bits beyond the %" PRIu32
                             "-bit pixel",
                             mask, bitcount);
                return FERRY_ERR_MALFORMED;
            }
            m.mask[k] = mask;
        }
        m.luminance = (pf_flags & DDPF_LUMINANCE) != 0;
    } else {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, DDS_OFF_PF_FLAGS, NULL,
                     "DDS pixel format flags 0x%" PRIx32
                     " name no supported layout (expected FOURCC, RGB, LUMINANCE or ALPHA)",
                     pf_flags);
        return FERRY_ERR_UNSUPPORTED;
    }

    ferry_result r = fy_image_check_dims(width, height, max_width, max_height, DDS_OFF_HEIGHT, err);
    if (r != FERRY_OK) return r;

    /* The mip levels follow the top one, each half the one before (at
     * least 1 pixel a side): as many as the header says (DDSD_MIPMAPCOUNT),
     * no more than reach 1 x 1, counted while their bytes are there whole. */
    uint32_t stated = (fy_load_u32le(h + 8) & 0x20000u) && fy_load_u32le(h + 28) ? fy_load_u32le(h + 28) : 1;
    uint32_t reach = 1;
    for (uint32_t side = width > height ? width : height; side > 1; side >>= 1) reach++;
    if (stated > reach) stated = reach;
    uint32_t whole = 0;
    uint64_t remain = size - c.pos;
    for (uint32_t l = 0; l < stated; l++) {
        uint64_t n = level_bytes(kind, &m, width >> l ? width >> l : 1, height >> l ? height >> l : 1);
        if (n > remain) break;
        remain -= n;
        whole++;
    }
    hd->kind = kind;
    hd->masks = m;
    hd->width = width;
    hd->height = height;
    hd->levels = whole;
    hd->dx10 = (pf_flags & DDPF_FOURCC) && fourcc == FOURCC('D', 'X', '1', '0');
    *cur = c;
    return FERRY_OK;
}

ferry_result fy_image_decode_dds(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, uint32_t level, ferry_image *out, uint32_t *level_count,
                                 ferry_error *err)
{
    if (level_count) *level_count = 0;
    fy_cursor c = fy_cursor_make(data, 0, size, err, NULL);
    dds_header hd;
    ferry_result r = read_header(&c, size, max_width, max_height, &hd, err);
    if (r != FERRY_OK) return r;
    dds_kind kind = hd.kind;
    const dds_masks m = hd.masks;
    uint32_t width = hd.width, height = hd.height, whole = hd.levels;
    if (level_count) *level_count = whole;
    if (level > 0 && level >= whole) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "mip level %" PRIu32 " asked of a DDS holding %" PRIu32 " whole level%s", level, whole,
                     whole == 1 ? "" : "s");
        return FERRY_ERR_ARGUMENT;
    }
    for (uint32_t l = 0; l < level; l++)
        fy_array(&c, level_bytes(kind, &m, width >> l ? width >> l : 1, height >> l ? height >> l : 1), 1,
                 "a mip level before the one asked");
    width = width >> level ? width >> level : 1;
    height = height >> level ? height >> level : 1;

    /* The top mip level comes first; its size follows from the dimensions
     * (the header's pitch/linear size is often wrong, so it is not used).
     * fy_array proves the bytes are there before anything is allocated.
     * (The level asked for, when not the top: named "top" below all the same.) */
    const uint8_t *pixels;
    if (kind == DDS_MASKS) {
        pixels = fy_array(&c, (uint64_t)width * height, m.bytes, "the uncompressed top mip level");
    } else {
        uint64_t blocks = (((uint64_t)width + 3) / 4) * (((uint64_t)height + 3) / 4);
        pixels = fy_array(&c, blocks, kind == DDS_DXT1 ? 8 : 16,
                          kind == DDS_DXT1   ? "DXT1 blocks of the top mip level"
                          : kind == DDS_DXT3 ? "DXT3 blocks of the top mip level"
                                             : "DXT5 blocks of the top mip level");
    }
    if (!pixels) return err ? err->code : FERRY_ERR_TRUNCATED;

    r = fy_image_alloc(width, height, max_width, max_height, DDS_OFF_HEIGHT, out, err);
    if (r != FERRY_OK) return r;
    if (kind == DDS_MASKS)
        decode_masks(pixels, &m, out);
    else
        fy_dxt_decode(pixels, kind == DDS_DXT1 ? FY_DXT1 : kind == DDS_DXT3 ? FY_DXT3 : FY_DXT5, out);
    return FERRY_OK;
}

ferry_result fy_image_dds_opaque_colour(const uint8_t *data, size_t size, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err); /* the first error set is kept: a caller's stale one would stand */
    fy_cursor c = fy_cursor_make(data, 0, size, err, NULL);
    dds_header hd;
    ferry_result r = read_header(&c, size, FY_IMAGE_DEFAULT_MAX, FY_IMAGE_DEFAULT_MAX, &hd, err);
    if (r != FERRY_OK) return r;
    if (hd.levels == 0) {
        fy_error_set(err, FERRY_ERR_TRUNCATED, size, NULL, "the top mip level's blocks end past the file");
        return FERRY_ERR_TRUNCATED;
    }
    /* A cube map or volume holds more than one 2D image's levels: only the
     * first would be kept, under a header saying all of them. */
    uint32_t caps2 = fy_load_u32le(data + DDS_OFF_CAPS2), depth_flag = fy_load_u32le(data + 8) & 0x800000u;
    if (hd.kind == DDS_MASKS || hd.dx10 || (caps2 & (0x200u | 0x200000u)) || (depth_flag && fy_load_u32le(data + 24) > 1)) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "only a 2D DXT1, DXT3 or DXT5 texture with a plain header has colour blocks to keep");
        return FERRY_ERR_UNSUPPORTED;
    }
    fy_dxt_kind kind = hd.kind == DDS_DXT1 ? FY_DXT1 : hd.kind == DDS_DXT3 ? FY_DXT3 : FY_DXT5;
    uint64_t blocks = 0;
    for (uint32_t l = 0; l < hd.levels; l++)
        blocks += fy_dxt_size(hd.width >> l ? hd.width >> l : 1, hd.height >> l ? hd.height >> l : 1, FY_DXT1) / 8;
    const uint8_t *src = fy_array(&c, blocks, kind == FY_DXT1 ? 8 : 16, "the DXT blocks of the mip levels");
    if (!src) return err ? err->code : FERRY_ERR_TRUNCATED;
    if (blocks > SIZE_MAX / 8 - DDS_HEADER_END || !fy_buf_reserve(out, DDS_HEADER_END + (size_t)blocks * 8)) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    uint8_t *h = out->data + out->size;
    /* The header as it was, saying DXT1 without alpha, its linear size and
     * level count those of the blocks written. */
    memcpy(h, data, DDS_HEADER_END);
    /* LINEARSIZE, not PITCH; MIPMAPCOUNT and the caps' MIPMAP and COMPLEX
     * only for more than one level, whose count is the levels kept. */
    uint32_t flags = fy_load_u32le(h + 8) & ~(0x8u | 0x20000u);
    fy_store_u32le(h + 8, flags | 0x80000u | (hd.levels > 1 ? 0x20000u : 0));
    fy_store_u32le(h + 20, (uint32_t)(fy_dxt_size(hd.width, hd.height, FY_DXT1)));
    fy_store_u32le(h + 28, hd.levels);
    uint32_t caps = fy_load_u32le(h + 108) & ~(0x400000u | 0x8u);
    fy_store_u32le(h + 108, caps | 0x1000u | (hd.levels > 1 ? 0x400000u | 0x8u : 0)); /* TEXTURE */
    fy_store_u32le(h + DDS_OFF_PF_FLAGS, DDPF_FOURCC);
    fy_store_u32le(h + DDS_OFF_FOURCC, FOURCC('D', 'X', 'T', '1'));
    for (int k = 0; k < 5; k++) fy_store_u32le(h + DDS_OFF_BITCOUNT + 4 * k, 0); /* bit count and masks */
    if (!fy_dxt_opaque_colour(src, kind, blocks, h + DDS_HEADER_END)) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "a DXT1 block has transparent texels: not opaque as DXT1");
        return FERRY_ERR_UNSUPPORTED;
    }
    out->size += DDS_HEADER_END + (size_t)blocks * 8;
    return FERRY_OK;
}
