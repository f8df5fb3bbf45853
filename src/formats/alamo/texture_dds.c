/* Textures for the game: an RGBA image as a .dds (DXT1 opaque, DXT5 with
 * alpha, the full mipmap chain). The blocks and mipmaps are the PAA
 * encoder's (ferry_paa_encode: stb_dxt, box-filtered mipmaps in linear light
 * for colour maps), stored uncompressed and wrapped in the DirectDraw
 * Surface header Direct3D 9 reads. docs/formats/gltf-import.md, "Textures". */
#include <ferry/alo.h>
#include <ferry/paa.h>

#include <string.h>

#include "../../core/core.h"

/* DDS header flags (DDSD_*, DDPF_FOURCC, DDSCAPS_*). */
enum {
    DDSD_CAPS = 0x1,
    DDSD_HEIGHT = 0x2,
    DDSD_WIDTH = 0x4,
    DDSD_PIXELFORMAT = 0x1000,
    DDSD_MIPMAPCOUNT = 0x20000,
    DDSD_LINEARSIZE = 0x80000,
    DDPF_FOURCC = 0x4,
    DDSCAPS_COMPLEX = 0x8,
    DDSCAPS_TEXTURE = 0x1000,
    DDSCAPS_MIPMAP = 0x400000
};

ferry_result ferry_alamo_texture_encode_dds(const ferry_image *image, bool linear, ferry_buffer *out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!image || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "no image or output given");
        return err->code;
    }
    ferry_paa_encode_options o;
    memset(&o, 0, sizeof o);
    o.linear = linear;
    o.no_lzo = true;
    ferry_paa *paa = NULL;
    if (ferry_paa_encode(image, &o, &paa, err) != FERRY_OK) return err->code;
    bool dxt5 = paa->type == FERRY_PAA_DXT5;
    size_t start = out->size;
    fy_buf_append(out, "DDS ", 4);
    fy_buf_u32le(out, 124);
    fy_buf_u32le(out, DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | DDSD_MIPMAPCOUNT | DDSD_LINEARSIZE);
    fy_buf_u32le(out, paa->mips[0].height);
    fy_buf_u32le(out, paa->mips[0].width);
    fy_buf_u32le(out, paa->mips[0].data_size); /* the top level's bytes */
    fy_buf_u32le(out, 0);                      /* depth */
    fy_buf_u32le(out, (uint32_t)paa->mip_count);
    fy_buf_zeros(out, 11 * 4);
    /* pixel format */
    fy_buf_u32le(out, 32);
    fy_buf_u32le(out, DDPF_FOURCC);
    fy_buf_append(out, dxt5 ? "DXT5" : "DXT1", 4);
    fy_buf_zeros(out, 5 * 4);
    fy_buf_u32le(out, DDSCAPS_TEXTURE | (paa->mip_count > 1 ? DDSCAPS_COMPLEX | DDSCAPS_MIPMAP : 0));
    fy_buf_zeros(out, 4 * 4); /* caps2, caps3, caps4, reserved2 */
    for (size_t i = 0; i < paa->mip_count; i++) fy_buf_append(out, paa->mips[i].data, paa->mips[i].data_size);
    ferry_paa_free(paa);
    if (out->failed) {
        out->size = start;
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory writing a .dds");
        return err->code;
    }
    return FERRY_OK;
}
