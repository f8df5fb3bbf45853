/* ferry: PAA / PAC texture reader, writer, validator and mipmap decoder.
 * docs/formats/paa.md describes the layout and the decisions. */
#include <ferry/lzo.h>
#include <ferry/lzss.h>
#include <ferry/paa.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../codec/codec.h"
#include "../../core/core.h"
#include "../../image/image_internal.h" /* fy_image_alloc: the image layer below the formats */

#define PAA_MAX_TAGS 4096u
#define PAA_MAX_MIPS 32u

bool ferry_paa_data_map_name(const char *name)
{
    static const char *const suffixes[] = {"_nohq", "_no", "_nshq", "_ns", "_smdi", "_sm", "_sms"};
    if (!name) return false;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strrchr(base, '.');
    size_t len = dot ? (size_t)(dot - base) : strlen(base);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t n = strlen(suffixes[i]), k = 0;
        if (len <= n) continue;
        for (; k < n; k++) {
            char c = base[len - n + k];
            if ((c >= 'A' && c <= 'Z' ? (char)(c + 32) : c) != suffixes[i][k]) break;
        }
        if (k == n) return true;
    }
    return false;
}

const char *ferry_paa_type_name(uint16_t type)
{
    switch (type) {
    case FERRY_PAA_DXT1: return "DXT1";
    case FERRY_PAA_DXT2: return "DXT2";
    case FERRY_PAA_DXT3: return "DXT3";
    case FERRY_PAA_DXT4: return "DXT4";
    case FERRY_PAA_DXT5: return "DXT5";
    case FERRY_PAA_ARGB4444: return "ARGB4444";
    case FERRY_PAA_ARGB1555: return "ARGB1555";
    case FERRY_PAA_ARGB8888: return "ARGB8888";
    case FERRY_PAA_AI88: return "AI88";
    default: return NULL;
    }
}

static bool is_dxt(uint16_t type) { return type >= FERRY_PAA_DXT1 && type <= FERRY_PAA_DXT5; }

static fy_dxt_kind dxt_kind(uint16_t type)
{
    return type == FERRY_PAA_DXT1 ? FY_DXT1 : (type <= FERRY_PAA_DXT3 ? FY_DXT3 : FY_DXT5);
}

static unsigned pixel_bytes(uint16_t type) { return type == FERRY_PAA_ARGB8888 ? 4u : 2u; }

/* Bytes of a mipmap's pixels once decompressed. */
static uint64_t mip_raw_size(uint16_t type, uint32_t w, uint32_t h)
{
    return is_dxt(type) ? fy_dxt_size(w, h, dxt_kind(type)) : (uint64_t)w * h * pixel_bytes(type);
}

void ferry_paa_free(ferry_paa *paa)
{
    if (paa) ferry_arena_destroy(paa->arena);
}

static ferry_result fail_nomem(ferry_arena *arena, ferry_error *err)
{
    ferry_arena_destroy(arena);
    fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "the memory limit was reached reading the texture");
    return FERRY_ERR_LIMIT;
}

ferry_result ferry_paa_read(const uint8_t *data, size_t size, const ferry_read_options *options, ferry_paa **out,
                            ferry_error *err)
{
    if (out) *out = NULL;
    if (!out || (!data && size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_paa_read: NULL data or out");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    ferry_arena *arena = fy_arena_create_sized(fy_default_memory_limit(options, size), 4096);
    if (!arena) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "could not create the texture's arena");
        return FERRY_ERR_NOMEM;
    }
    ferry_paa *paa = ferry_arena_alloc(arena, sizeof *paa);
    if (!paa) return fail_nomem(arena, err);
    memset(paa, 0, sizeof *paa);
    paa->arena = arena;

    fy_cursor c = fy_cursor_make(data, 0, size, err, "header");
    paa->type = fy_u16le(&c, "the u16 texture type");
    if (c.failed) goto fail;
    if (!ferry_paa_type_name(paa->type)) {
        if (size >= 4 && memcmp(data, "GGAT", 4) == 0)
            fy_fail_at(&c, 0, FERRY_ERR_UNSUPPORTED,
                       "a palette-indexed OFP texture (tags without a type first), which ferry does not read");
        else
            fy_fail_at(&c, 0, FERRY_ERR_MALFORMED,
                       "unknown texture type 0x%04x (expected 0xFF01..0xFF05 DXT1-5, 0x4444, 0x1555, 0x8888 "
                       "or 0x8080)",
                       paa->type);
        goto fail;
    }

    /* Tags: first count them, then keep them. */
    size_t tag_start = c.pos, n = 0;
    c.path = "tags";
    while (fy_remaining(&c) >= 4 && memcmp(data + c.pos, "GGAT", 4) == 0) {
        if (n >= PAA_MAX_TAGS) {
            fy_fail_at(&c, c.pos, FERRY_ERR_LIMIT, "more than %u tags", PAA_MAX_TAGS);
            goto fail;
        }
        fy_bytes(&c, 8, "a tag's signature and name");
        uint32_t len = fy_u32le(&c, "a tag's u32 size");
        fy_bytes(&c, len, "a tag's data (its size says so)");
        if (c.failed) goto fail;
        n++;
    }
    paa->tag_count = n;
    paa->tags = n ? ferry_arena_alloc(arena, n * sizeof *paa->tags) : NULL;
    if (n && !paa->tags) return fail_nomem(arena, err);
    size_t at = tag_start;
    for (size_t i = 0; i < n; i++) {
        ferry_paa_tag *t = &paa->tags[i];
        t->offset = at;
        memcpy(t->name, data + at + 4, 4);
        t->name[4] = '\0';
        t->size = fy_load_u32le(data + at + 8);
        t->data = data + at + 12;
        at += 12 + (size_t)t->size;
        if (!strcmp(t->name, "CGVA") && t->size == 4) {
            paa->has_average = true;
            paa->average_argb = fy_load_u32le(t->data);
        } else if (!strcmp(t->name, "CXAM") && t->size == 4) {
            paa->has_maximum = true;
            paa->maximum_argb = fy_load_u32le(t->data);
        } else if (!strcmp(t->name, "GALF") && t->size == 4) {
            paa->has_flags = true;
            paa->flags = fy_load_u32le(t->data);
        } else if (!strcmp(t->name, "SFFO") && t->size == 64) {
            paa->has_offsets = true;
            for (int k = 0; k < 16; k++) paa->offsets[k] = fy_load_u32le(t->data + 4 * k);
        }
    }

    c.path = "palette";
    paa->palette_count = fy_u16le(&c, "the u16 palette size");
    paa->palette = fy_array(&c, paa->palette_count, 3, "the palette's BGR triplets");
    if (c.failed) goto fail;

    /* Mipmaps: count, then keep. */
    size_t mip_start = c.pos;
    char path[32];
    n = 0;
    for (;;) {
        snprintf(path, sizeof path, "mip[%zu]", n);
        c.path = path;
        size_t here = c.pos;
        uint16_t wf = fy_u16le(&c, "a mipmap's u16 width (0 ends the list)");
        uint16_t h = fy_u16le(&c, "a mipmap's u16 height");
        if (c.failed) goto fail;
        if (wf == 0 && h == 0) {
            paa->end_offset = here;
            break;
        }
        if (n >= PAA_MAX_MIPS) {
            fy_fail_at(&c, here, FERRY_ERR_LIMIT, "more than %u mipmaps", PAA_MAX_MIPS);
            goto fail;
        }
        uint16_t w = is_dxt(paa->type) ? (uint16_t)(wf & 0x7FFF) : wf;
        if (w == 0 || h == 0) {
            fy_fail_at(&c, here, FERRY_ERR_MALFORMED, "a mipmap of %u x %u pixels (one side 0)", w, h);
            goto fail;
        }
        const uint8_t *s = fy_bytes(&c, 3, "a mipmap's u24 data size");
        uint32_t len = s ? (uint32_t)(s[0] | (s[1] << 8) | (s[2] << 16)) : 0;
        fy_bytes(&c, len, "a mipmap's data (its size says so)");
        if (c.failed) goto fail;
        uint64_t raw = mip_raw_size(paa->type, w, h);
        /* Only DXT blocks are ever stored raw (without the LZO bit). */
        if (is_dxt(paa->type) && !(wf & 0x8000) && len != raw) {
            fy_fail_at(&c, here + 4, FERRY_ERR_MALFORMED,
                       "an uncompressed %s mipmap of %u x %u pixels holds %" PRIu64 " bytes, not %" PRIu32,
                       ferry_paa_type_name(paa->type), w, h, raw, len);
            goto fail;
        }
        n++;
    }
    paa->mip_count = n;
    paa->mips = n ? ferry_arena_alloc(arena, n * sizeof *paa->mips) : NULL;
    if (n && !paa->mips) return fail_nomem(arena, err);
    at = mip_start;
    for (size_t i = 0; i < n; i++) {
        ferry_paa_mip *m = &paa->mips[i];
        m->offset = at;
        m->width_field = fy_load_u16le(data + at);
        m->height = fy_load_u16le(data + at + 2);
        m->width = is_dxt(paa->type) ? (uint16_t)(m->width_field & 0x7FFF) : m->width_field;
        m->data_size = (uint32_t)(data[at + 4] | (data[at + 5] << 8) | (data[at + 6] << 16));
        m->data_offset = at + 7;
        m->data = data + at + 7;
        m->lzo = is_dxt(paa->type) && (m->width_field & 0x8000);
        m->lzss = !is_dxt(paa->type);
        at += 7 + (size_t)m->data_size;
    }
    paa->trailer_size = size - (c.pos);
    paa->trailer = data + c.pos;

    /* Keep the bytes the object points at: copy the input into the arena and
     * re-point. */
    uint8_t *copy = size ? ferry_arena_memdup(arena, data, size) : NULL;
    if (size && !copy) return fail_nomem(arena, err);
    for (size_t i = 0; i < paa->tag_count; i++) paa->tags[i].data = copy + (paa->tags[i].data - data);
    for (size_t i = 0; i < paa->mip_count; i++) paa->mips[i].data = copy + (paa->mips[i].data - data);
    if (paa->palette) paa->palette = copy + (paa->palette - data);
    paa->trailer = copy + (paa->trailer - data);
    *out = paa;
    return FERRY_OK;
fail:
    ferry_arena_destroy(arena);
    return err->code ? err->code : FERRY_ERR_MALFORMED;
}

ferry_result ferry_paa_write(const ferry_paa *paa, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err);
    if (!paa || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_paa_write: NULL texture or buffer");
        return FERRY_ERR_ARGUMENT;
    }
    fy_buf_u16le(out, paa->type);
    for (size_t i = 0; i < paa->tag_count; i++) {
        const ferry_paa_tag *t = &paa->tags[i];
        fy_buf_append(out, "GGAT", 4);
        fy_buf_append(out, t->name, 4);
        fy_buf_u32le(out, t->size);
        fy_buf_append(out, t->data, t->size);
    }
    fy_buf_u16le(out, paa->palette_count);
    fy_buf_append(out, paa->palette, (size_t)paa->palette_count * 3);
    for (size_t i = 0; i < paa->mip_count; i++) {
        const ferry_paa_mip *m = &paa->mips[i];
        fy_buf_u16le(out, m->width_field);
        fy_buf_u16le(out, m->height);
        uint8_t s[3] = {(uint8_t)m->data_size, (uint8_t)(m->data_size >> 8), (uint8_t)(m->data_size >> 16)};
        fy_buf_append(out, s, 3);
        fy_buf_append(out, m->data, m->data_size);
    }
    fy_buf_u16le(out, 0);
    fy_buf_u16le(out, 0);
    fy_buf_append(out, paa->trailer, paa->trailer_size);
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the texture");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}

static uint8_t expand4(unsigned v) { return (uint8_t)(v * 17u); }
static uint8_t expand5(unsigned v) { return (uint8_t)((v << 3) | (v >> 2)); }

ferry_result ferry_paa_decode_mip(const ferry_paa *paa, size_t level, ferry_image *image, ferry_error *err)
{
    fy_error_clear(err);
    if (image) memset(image, 0, sizeof *image);
    if (!paa || !image || level >= paa->mip_count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "ferry_paa_decode_mip: no mipmap %zu (the texture has %zu)", level, paa ? paa->mip_count : 0);
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_paa_mip *m = &paa->mips[level];
    char path[32];
    snprintf(path, sizeof path, "mip[%zu]", level);
    uint64_t raw = mip_raw_size(paa->type, m->width, m->height);
    const uint8_t *px = m->data;
    uint8_t *tmp = NULL;
    if (m->lzo || m->lzss) {
        /* Check what the stream can produce before allocating for it: an
         * LZO stream is measured; an LZSS stream has a bound. */
        uint64_t most = fy_lzss_decoded_bound(m->data_size);
        if (m->lzo) {
            size_t stream = 0, produced = 0;
            ferry_error e1;
            if (ferry_lzo_measure(m->data, m->data_size, &stream, &produced, &e1) != FERRY_OK) {
                fy_error_set(err, e1.code, m->data_offset + (e1.offset == FERRY_NO_OFFSET ? 0 : e1.offset), path,
                             "the LZO-compressed mipmap (%u x %u) does not decode: %s", m->width, m->height,
                             e1.message);
                return e1.code;
            }
            most = produced;
        }
        if (most < raw) {
            fy_error_set(err, FERRY_ERR_MALFORMED, m->data_offset, path,
                         "the %s-compressed mipmap of %u x %u needs %" PRIu64 " bytes; its %" PRIu32
                         " stored bytes give at most %" PRIu64,
                         m->lzo ? "LZO" : "LZSS", m->width, m->height, raw, m->data_size, most);
            return FERRY_ERR_MALFORMED;
        }
        tmp = malloc(raw ? (size_t)raw : 1);
        if (!tmp) {
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, path, "could not allocate %" PRIu64 " bytes", raw);
            return FERRY_ERR_NOMEM;
        }
        /* The engine's tools sum the bytes as signed; some other writers
         * (hemtt's ARGB8888) as unsigned: both are accepted. */
        ferry_error e2;
        ferry_result r = m->lzo ? ferry_lzo_decode(m->data, m->data_size, (size_t)raw, tmp, NULL, &e2)
                                : fy_lzss_decode_sum(m->data, m->data_size, (size_t)raw, tmp, NULL, FY_LZSS_SUM_EITHER, &e2);
        if (r != FERRY_OK) {
            fy_error_set(err, r, m->data_offset + (e2.offset == FERRY_NO_OFFSET ? 0 : e2.offset), path,
                         "the %s-compressed mipmap (%u x %u) does not decode: %s", m->lzo ? "LZO" : "LZSS",
                         m->width, m->height, e2.message);
            free(tmp);
            return r;
        }
        px = tmp;
    }
    ferry_result r = fy_image_alloc(m->width, m->height, 32768, 32768, m->offset, image, err);
    if (r != FERRY_OK) {
        free(tmp);
        return r;
    }
    size_t count = (size_t)m->width * m->height;
    uint8_t *o = image->rgba;
    switch (paa->type) {
    case FERRY_PAA_ARGB8888:
        for (size_t i = 0; i < count; i++, px += 4, o += 4) {
            o[0] = px[2];
            o[1] = px[1];
            o[2] = px[0];
            o[3] = px[3];
        }
        break;
    case FERRY_PAA_ARGB4444:
        for (size_t i = 0; i < count; i++, px += 2, o += 4) {
            unsigned v = fy_load_u16le(px);
            o[0] = expand4((v >> 8) & 15);
            o[1] = expand4((v >> 4) & 15);
            o[2] = expand4(v & 15);
            o[3] = expand4(v >> 12);
        }
        break;
    case FERRY_PAA_ARGB1555:
        for (size_t i = 0; i < count; i++, px += 2, o += 4) {
            unsigned v = fy_load_u16le(px);
            o[0] = expand5((v >> 10) & 31);
            o[1] = expand5((v >> 5) & 31);
            o[2] = expand5(v & 31);
            o[3] = (v & 0x8000) ? 255 : 0;
        }
        break;
    case FERRY_PAA_AI88:
        for (size_t i = 0; i < count; i++, px += 2, o += 4) {
            o[0] = o[1] = o[2] = px[0];
            o[3] = px[1];
        }
        break;
    default:
        fy_dxt_decode(px, dxt_kind(paa->type), image);
        break;
    }
    free(tmp);
    return FERRY_OK;
}

ferry_result ferry_paa_encode_png(const ferry_paa *paa, size_t level, ferry_buffer *out, ferry_error *err)
{
    ferry_image image;
    ferry_result r = ferry_paa_decode_mip(paa, level, &image, err);
    if (r != FERRY_OK) return r;
    r = ferry_image_encode_png(&image, NULL, out, err);
    ferry_image_free(&image);
    return r;
}

static bool pow2(unsigned v) { return v && !(v & (v - 1)); }

static double srgb_to_linear(double v) { return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4); }
static double linear_to_srgb(double v) { return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055; }

static unsigned channel(uint32_t argb, int shift) { return (argb >> shift) & 255u; }

size_t ferry_paa_validate(const ferry_paa *paa, const ferry_paa_validate_options *options, ferry_diagnostics *diags)
{
    (void)options;
    size_t errors = 0;
    char path[32];
#define PAA_ERR(off, p, rule, ...) (fy_diag_add(diags, FERRY_SEVERITY_ERROR, (off), (p), (rule), __VA_ARGS__), errors++)
    if (!paa) return 0;
    if (paa->mip_count == 0) PAA_ERR(paa->end_offset, "mip[0]", "paa-no-mipmaps", "the texture has no mipmap");
    for (size_t i = 0; i < paa->mip_count; i++) {
        const ferry_paa_mip *m = &paa->mips[i];
        snprintf(path, sizeof path, "mip[%zu]", i);
        if (!pow2(m->width) || !pow2(m->height))
            fy_diag_add(diags, FERRY_SEVERITY_WARNING, m->offset, path, "paa-size-power-of-two",
                        "%u x %u: a side is not a power of two (real addons ship such textures)", m->width, m->height);
        if (i > 0) {
            const ferry_paa_mip *p = &paa->mips[i - 1];
            unsigned ew = p->width > 1 ? p->width / 2u : 1u, eh = p->height > 1 ? p->height / 2u : 1u;
            if (m->width != ew || m->height != eh)
                PAA_ERR(m->offset, path, "paa-mip-chain", "%u x %u follows %u x %u (expected %u x %u)", m->width,
                        m->height, p->width, p->height, ew, eh);
        }
        ferry_image img;
        ferry_error e;
        if (ferry_paa_decode_mip(paa, i, &img, &e) != FERRY_OK) {
            fy_diag_add(diags, FERRY_SEVERITY_ERROR, e.offset, e.path, "paa-mip-data", "%s", e.message);
            errors++;
            continue;
        }
        if (i == 0 && (paa->has_average || paa->has_maximum)) {
            /* Two ways the tools average (docs/formats/paa.md): colour maps
             * in linear light (the sRGB curve), colour weighted by alpha;
             * data maps (normal, specular) the stored values. */
            double lin[3] = {0, 0, 0}, plain[4] = {0, 0, 0, 0}, weight = 0;
            unsigned mx[4] = {0, 0, 0, 0};
            bool alpha = false;
            size_t count = (size_t)img.width * img.height;
            for (size_t k = 0; k < count && !alpha; k++) alpha = img.rgba[k * 4 + 3] != 255;
            for (size_t k = 0; k < count; k++) {
                const uint8_t *px = img.rgba + k * 4;
                double w = alpha ? px[3] / 255.0 : 1.0;
                weight += w;
                for (int ch = 0; ch < 4; ch++) {
                    plain[ch] += px[ch];
                    if (px[ch] > mx[ch]) mx[ch] = px[ch];
                }
                for (int ch = 0; ch < 3; ch++) lin[ch] += srgb_to_linear(px[ch] / 255.0) * w;
            }
            static const int shift[4] = {16, 8, 0, 24}; /* r, g, b, a within 0xAARRGGBB */
            static const char names[] = "RGBA";
            if (paa->has_average) {
                unsigned colour[4], data[4];
                for (int ch = 0; ch < 4; ch++) {
                    data[ch] = (unsigned)(plain[ch] / (double)count + 0.5);
                    colour[ch] = ch == 3 ? data[3]
                                         : weight > 0 ? (unsigned)(linear_to_srgb(lin[ch] / weight) * 255 + 0.5) : 0;
                }
                int off_colour = 0, off_data = 0;
                for (int ch = 0; ch < 4; ch++) {
                    unsigned t = channel(paa->average_argb, shift[ch]);
                    if ((colour[ch] > t ? colour[ch] - t : t - colour[ch]) > 16) off_colour = 1;
                    if ((data[ch] > t ? data[ch] - t : t - data[ch]) > 16) off_data = 1;
                }
                if (off_colour && off_data)
                    fy_diag_add(diags, FERRY_SEVERITY_WARNING, paa->mips[0].offset, "tags/CGVA", "paa-average-colour",
                                "the average colour is 0x%08x; the largest mipmap averages 0x%08x as colour (linear "
                                "light) and 0x%08x as data",
                                (unsigned)paa->average_argb,
                                colour[3] << 24 | colour[0] << 16 | colour[1] << 8 | colour[2],
                                data[3] << 24 | data[0] << 16 | data[1] << 8 | data[2]);
            }
            if (paa->has_maximum)
                for (int ch = 0; ch < 4; ch++) {
                    unsigned t = channel(paa->maximum_argb, shift[ch]);
                    if (mx[ch] > t + 16)
                        PAA_ERR(paa->mips[0].offset, "tags/CXAM", "paa-maximum-colour",
                                "the maximum colour's %c is %u; the largest mipmap reaches %u", names[ch], t, mx[ch]);
                }
        }
        ferry_image_free(&img);
    }
    if (paa->has_offsets) {
        for (size_t k = 0; k < 16; k++) {
            uint64_t expect = k < paa->mip_count ? paa->mips[k].offset : 0;
            if (paa->offsets[k] != expect)
                PAA_ERR(FERRY_NO_OFFSET, "tags/SFFO", "paa-mip-offsets",
                        "offset %zu is %" PRIu32 ", expected %" PRIu64 " (%s)", k, paa->offsets[k], expect,
                        k < paa->mip_count ? "where that mipmap starts" : "0 past the last mipmap");
        }
    }
    if (paa->trailer_size != 2 || paa->trailer[0] || paa->trailer[1])
        PAA_ERR(paa->end_offset + 4, "end", "paa-terminator",
                "%zu byte(s) follow the mipmaps' 0 x 0 end; expected a u16 0", paa->trailer_size);
#undef PAA_ERR
    return errors;
}
