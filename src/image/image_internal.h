/* Internal to src/image: the per-format decoders behind ferry_image_decode.
 * Each one receives limits already resolved (never 0) and a zeroed `out`;
 * on failure it leaves `out` zeroed and `err` set. */
#ifndef FERRY_IMAGE_INTERNAL_H
#define FERRY_IMAGE_INTERNAL_H

#include <ferry/image.h>

#include <inttypes.h>

#include "../core/core.h"

ferry_result fy_image_decode_tga(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, ferry_image *out, ferry_error *err);
ferry_result fy_image_decode_png(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, ferry_image *out, ferry_error *err);
ferry_result fy_image_decode_dds(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, ferry_image *out, ferry_error *err);

/* Checks width x height against the limits (and against what size_t can
 * address as RGBA), then allocates the RGBA pixels. Located errors point at
 * `dims_offset`, where the file states the dimensions. */
ferry_result fy_image_alloc(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height,
                            uint64_t dims_offset, ferry_image *out, ferry_error *err);
ferry_result fy_image_check_dims(uint32_t width, uint32_t height, uint32_t max_width,
                                 uint32_t max_height, uint64_t dims_offset, ferry_error *err);

/* DXT block formats. DXT2 and DXT4 (premultiplied alpha) decode as DXT3
 * and DXT5: the blocks are laid out alike. */
typedef enum fy_dxt_kind { FY_DXT1, FY_DXT3, FY_DXT5 } fy_dxt_kind;

/* Bytes of the blocks covering width x height (4x4 blocks of 8 bytes for
 * DXT1, 16 otherwise); 0 when it would not fit in 64 bits. */
static inline uint64_t fy_dxt_size(uint32_t width, uint32_t height, fy_dxt_kind kind)
{
    return (((uint64_t)width + 3) / 4) * (((uint64_t)height + 3) / 4) * (kind == FY_DXT1 ? 8u : 16u);
}

/* Decodes the blocks at `src` (fy_dxt_size bytes) into img->rgba, whose
 * width and height are set and pixels allocated. */
void fy_dxt_decode(const uint8_t *src, fy_dxt_kind kind, ferry_image *img);

#endif
