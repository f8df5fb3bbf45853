/* Internal to src/image: the per-format decoders behind ferry_image_decode.
 * Each one receives limits already resolved (never 0) and a zeroed `out`;
 * on failure it leaves `out` zeroed and `err` set. */
#ifndef FERRY_IMAGE_INTERNAL_H
#define FERRY_IMAGE_INTERNAL_H

#include <ferry/image.h>

#include <inttypes.h>

#include "../core/core.h"

/* The largest side decoded when the options give none. */
#define FY_IMAGE_DEFAULT_MAX 16384u

ferry_result fy_image_decode_tga(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, ferry_image *out, ferry_error *err);
ferry_result fy_image_decode_png(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, ferry_image *out, ferry_error *err);
/* `level`: the mip level to decode (0: the top); *level_count (may be
 * NULL) gets the levels the file holds whole, also when level is past them. */
ferry_result fy_image_decode_dds(const uint8_t *data, size_t size, uint32_t max_width,
                                 uint32_t max_height, uint32_t level, ferry_image *out, uint32_t *level_count,
                                 ferry_error *err);

/* Checks width x height against the limits (and against what size_t can
 * address as RGBA), then allocates the RGBA pixels. Located errors point at
 * `dims_offset`, where the file states the dimensions. */
ferry_result fy_image_alloc(uint32_t width, uint32_t height, uint32_t max_width, uint32_t max_height,
                            uint64_t dims_offset, ferry_image *out, ferry_error *err);
ferry_result fy_image_check_dims(uint32_t width, uint32_t height, uint32_t max_width,
                                 uint32_t max_height, uint64_t dims_offset, ferry_error *err);

/* The image as an RGB PNG, its alpha left out: the bytes
 * ferry_image_encode_png writes for the image with every alpha set to 255,
 * without changing (or copying) the pixels. */
ferry_result fy_image_encode_png_rgb(const ferry_image *image, const ferry_png_options *options, ferry_buffer *out,
                                     ferry_error *err);
/* An opaque grey image (red = green = blue, alpha 255) as PNG: at
 * FERRY_PNG_STORED a grey one of its red channel (a third of the bytes),
 * at the other efforts the bytes fy_image_encode_png_rgb writes. */
ferry_result fy_image_encode_png_grey(const ferry_image *image, const ferry_png_options *options, ferry_buffer *out,
                                      ferry_error *err);

/* A DXT1, DXT3 or DXT5 texture's colour, every texel opaque, as a DXT1
 * DDS appended to `out`: the same header, the same mip levels (those whose
 * bytes are there whole), each block's colour as fy_dxt_opaque_colour
 * writes it; nothing decoded. FERRY_ERR_UNSUPPORTED for any other DDS (a
 * DX10 header, uncompressed pixels, a DXT1 with transparent texels);
 * located errors for a damaged one, as ferry_image_decode gives. */
ferry_result fy_image_dds_opaque_colour(const uint8_t *data, size_t size, ferry_buffer *out, ferry_error *err);

#endif
