/* ferry: PAA / PAC textures of Bohemia Interactive's engines (OFP, ArmA 1-3).
 *
 * Layout (docs/formats/paa.md): a u16 type, tagged blocks ("GGAT" + a
 * reversed 4-character name + u32 size + data), a palette (u16 count, BGR
 * triplets), mipmaps (u16 width, u16 height, u24 size, data) ending with a
 * width and height of 0, then a u16 0. DXT mipmaps whose width has its top
 * bit set are LZO1X-compressed; mipmaps of the other types are always
 * LZSS-compressed (real files: even where that makes them larger).
 * Palette-indexed OFP files without a type are recognised, not read.
 */
#ifndef FERRY_PAA_H
#define FERRY_PAA_H

#include <ferry/ferry.h>
#include <ferry/image.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ferry_paa_type {
    FERRY_PAA_DXT1 = 0xFF01,
    FERRY_PAA_DXT2 = 0xFF02,
    FERRY_PAA_DXT3 = 0xFF03,
    FERRY_PAA_DXT4 = 0xFF04,
    FERRY_PAA_DXT5 = 0xFF05,
    FERRY_PAA_ARGB4444 = 0x4444,
    FERRY_PAA_ARGB1555 = 0x1555,
    FERRY_PAA_ARGB8888 = 0x8888,
    FERRY_PAA_AI88 = 0x8080
} ferry_paa_type;

/* One tagged block, kept verbatim (known or not). */
typedef struct ferry_paa_tag {
    char name[5];          /* as stored, e.g. "CGVA" (the reversed "AVGC"); NUL-terminated */
    uint64_t offset;       /* of its "GGAT" */
    uint32_t size;
    const uint8_t *data;   /* size bytes, in the object's arena */
} ferry_paa_tag;

typedef struct ferry_paa_mip {
    uint64_t offset;       /* of its width field */
    uint16_t width_field;  /* as stored: the top bit marks LZO for DXT types */
    uint16_t width, height;/* in pixels (width without the LZO bit) */
    bool lzo;              /* DXT, LZO1X-compressed */
    bool lzss;             /* not DXT: always LZSS */
    uint32_t data_size;    /* stored bytes (a u24) */
    const uint8_t *data;
    uint64_t data_offset;
} ferry_paa_mip;

typedef struct ferry_paa {
    uint16_t type;                 /* a ferry_paa_type */
    size_t tag_count;
    ferry_paa_tag *tags;
    uint16_t palette_count;
    const uint8_t *palette;        /* palette_count BGR triplets */
    size_t mip_count;
    ferry_paa_mip *mips;
    uint64_t end_offset;           /* of the 0 x 0 terminator */
    size_t trailer_size;           /* bytes after the terminator's width and height (normally a u16 0) */
    const uint8_t *trailer;
    /* The known tags, decoded (has_*: present with their documented size). */
    bool has_average, has_maximum, has_flags, has_offsets;
    uint32_t average_argb, maximum_argb; /* 0xAARRGGBB */
    uint32_t flags;
    uint32_t offsets[16];          /* "SFFO": file offset of each mipmap, 0 past the last */
    ferry_arena *arena;
} ferry_paa;

/* Reads a PAA/PAC; every size is checked against the bytes left, errors are
 * located (offset, "mip[2]" style path). The mipmap data is not
 * decompressed here (ferry_paa_validate and ferry_paa_decode_mip do). */
FERRY_API ferry_result ferry_paa_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                      ferry_paa **out, ferry_error *err);
FERRY_API void ferry_paa_free(ferry_paa *paa);

/* Appends the texture's bytes; a read texture writes back byte for byte. */
FERRY_API ferry_result ferry_paa_write(const ferry_paa *paa, ferry_buffer *out, ferry_error *err);

typedef struct ferry_paa_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_paa_validate_options;

/* Decompresses and checks every mipmap (sizes, powers of two, each half the
 * one before), the offsets tag against where the mipmaps are, the average
 * colour against the top mipmap's (a warning when more than 16 away in a
 * channel from both the colour-map and the data-map average, as
 * docs/formats/paa.md defines them) and the maximum
 * colour (no channel of the top mipmap above it by more than 16), the
 * terminator. Returns the number of errors added. */
FERRY_API size_t ferry_paa_validate(const ferry_paa *paa, const ferry_paa_validate_options *options,
                                    ferry_diagnostics *diags);

/* Decodes mipmap `level` (0: the largest) to RGBA8; free with
 * ferry_image_free. DXT2/DXT4 decode as DXT3/DXT5 (alpha not
 * un-premultiplied); AI88 gives grey = intensity. */
FERRY_API ferry_result ferry_paa_decode_mip(const ferry_paa *paa, size_t level, ferry_image *image, ferry_error *err);
/* Mipmap `level` decoded (ferry_paa_decode_mip) and appended to `out` as
 * an RGBA PNG (ferry_image_encode_png, its default options): what `ferry
 * convert TEX.paa OUT.png --mip N` writes. */
FERRY_API ferry_result ferry_paa_encode_png(const ferry_paa *paa, size_t level, ferry_buffer *out, ferry_error *err);

/* Writing a texture from an image (docs/formats/paa.md, "Writing"). */
typedef struct ferry_paa_encode_options {
    /* 0: DXT1 when every pixel's alpha is 255, DXT5 otherwise; or
     * FERRY_PAA_DXT1 / FERRY_PAA_DXT5 to choose (DXT1 then drops alpha). */
    uint16_t type;
    /* The pixels are data, not sRGB colour (normal, specular maps): the
     * mipmaps and the average colour are computed on the stored values
     * instead of in linear light. */
    bool linear;
    /* Store every mipmap uncompressed (for OFP and ArmA 1, which do not
     * read LZO-compressed mipmaps); by default mipmaps 256 or more pixels
     * wide are LZO1X-999-compressed as Bohemia's tools do. */
    bool no_lzo;
} ferry_paa_encode_options;

/* Encodes an RGBA image as a DXT1/DXT5 texture: the full mipmap chain
 * (box-filtered, down to a smallest side of 4), the AVGC, MAXC, FLAG (a
 * colour map with alpha) and OFFS tags. Sides must be powers of two from 1 to 4096
 * (FERRY_ERR_ARGUMENT otherwise, saying which side). The result is a read
 * texture: write it with ferry_paa_write, free it with ferry_paa_free. */
FERRY_API ferry_result ferry_paa_encode(const ferry_image *image, const ferry_paa_encode_options *options,
                                        ferry_paa **out, ferry_error *err);

/* Whether a texture's file name says it holds data rather than colour, by
 * Bohemia's suffixes for normal and specular maps: the name's last part
 * before the extension ends in _nohq, _no, _nshq, _ns, _smdi, _sm or _sms,
 * ignoring ASCII case ("x_nohq.paa"); such a texture is encoded with
 * `linear`. Folders ('/') are ignored; NULL is false. */
FERRY_API bool ferry_paa_data_map_name(const char *name);

/* "DXT1" ... "ARGB8888", "AI88"; NULL for an unknown type. */
FERRY_API const char *ferry_paa_type_name(uint16_t type);

#ifdef __cplusplus
}
#endif

#endif
