/* Texture images: decoding the games' TGA and DDS files (and PNG) to RGBA, and
 * encoding PNG for glTF. */
#ifndef FERRY_IMAGE_H
#define FERRY_IMAGE_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ferry_image {
    uint32_t width, height;
    uint8_t *rgba; /* width * height * 4 bytes, rows top to bottom; malloc'd */
} ferry_image;

/* Limits a decode accepts (0: defaults of 16384 x 16384 pixels). */
typedef struct ferry_image_options {
    uint32_t max_width, max_height;
    /* The mip level to decode (0: the top, the largest): a DDS holds
     * ferry_image_level_count of them; a TGA or PNG one. A level the file
     * does not hold is FERRY_ERR_ARGUMENT. */
    uint32_t level;
} ferry_image_options;

/* Decodes TGA (uncompressed and RLE; 8, 16, 24, 32 bits), DDS (DXT1,
 * DXT3, DXT5, uncompressed RGB/RGBA; the top mip level, or options->level) or PNG (any colour
 * type, through libpng), told apart by their bytes. Located errors for damaged or unsupported files. */
FERRY_API ferry_result ferry_image_decode(const uint8_t *data, size_t size, const ferry_image_options *options,
                                          ferry_image *out, ferry_error *err);
FERRY_API void ferry_image_free(ferry_image *image);

/* The mip levels a DDS holds: its header's count (DDSD_MIPMAPCOUNT; 1
 * without it), no more than halving the larger side reaches 1 and no more
 * than the file's bytes hold whole; 1 for a TGA or PNG. 0 when the bytes
 * are none of these or the DDS header cannot be read (ferry_image_decode
 * says why). */
FERRY_API uint32_t ferry_image_level_count(const uint8_t *data, size_t size);

/* How hard PNG encoding works at making the file small. */
typedef enum ferry_png_effort {
    /* libpng's defaults (zlib level 6, a filter chosen per row): what every
     * file ferry writes uses unless told otherwise. */
    FERRY_PNG_SMALL = 0,
    /* zlib level 1 and no row filter: several times faster to write, the
     * same pixels in other bytes (on the games' textures from 5 % smaller
     * to 11 % larger); for files read once, such as the .glb an import
     * hands to Blender (which keeps the PNGs as they are in the .blend). */
    FERRY_PNG_FAST,
    /* No compression (zlib's stored blocks) and no row filter: the fastest
     * to write and to read, about as large as the pixels (a 512 x 512
     * opaque texture: 0.79 MB where FERRY_PNG_FAST writes 0.2 to 0.3 MB).
     * For a .glb handed over at once and read where speed matters more
     * than size (the Blender add-on's import). Written by ferry itself, not
     * libpng: the rows copied once, with zlib's checksums, one IDAT chunk
     * per stored block. */
    FERRY_PNG_STORED,
} ferry_png_effort;

typedef struct ferry_png_options {
    ferry_png_effort effort;
} ferry_png_options;

/* Appends a PNG of the image to `out` (options NULL: the defaults). */
FERRY_API ferry_result ferry_image_encode_png(const ferry_image *image, const ferry_png_options *options,
                                              ferry_buffer *out, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
