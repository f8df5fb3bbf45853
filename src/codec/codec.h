/* The codecs the formats share, each in a file of src/codec/ and none
 * inside a format: LZSS (ODOL arrays, PAC mipmaps, PBO entries), LZO1X
 * (ODOL v44+ arrays, PAA mipmaps; liblzo2), DXT blocks (DDS and PAA
 * textures; decoded here, encoded by stb_dxt), CRC-32 (MEG names, PNG
 * chunks; zlib's) and
 * SHA-1 (the PBO trailer; nettle). Their public faces are <ferry/lzss.h>,
 * <ferry/lzo.h>, ferry_meg_crc32 and ferry_pbo_sha1. Not a public header. */
#ifndef FERRY_CODEC_H
#define FERRY_CODEC_H

#include <ferry/image.h>
#include <ferry/lzo.h>
#include <ferry/lzss.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- LZSS (lzss.c) ----
 * The decoder with a choice of checksum. ODOL arrays end with the sum of
 * the decoded bytes read as unsigned; PAA/PAC mipmaps with the sum of the
 * bytes read as signed, though some writers store the unsigned one there
 * (docs/formats/paa.md). */

/* Which sum the 4 bytes after the stream must hold. */
typedef enum fy_lzss_sum {
    FY_LZSS_SUM_UNSIGNED, /* ferry_lzss_checksum (ODOL, PBO) */
    FY_LZSS_SUM_SIGNED,   /* each byte taken as int8 */
    FY_LZSS_SUM_EITHER    /* either of the two (PAA/PAC) */
} fy_lzss_sum;

/* The most bytes an LZSS stream of in_size bytes can decode to: a flag byte
 * and 8 two-byte references (17 bytes) give 8 x 18 = 144, under 9 per byte.
 * Readers compare a declared size with it before allocating. */
static inline uint64_t fy_lzss_decoded_bound(uint64_t in_size) { return in_size * 9 + 8; }

/* ferry_lzss_decode, checking the sum `sum` says. */
ferry_result fy_lzss_decode_sum(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                                size_t *consumed, fy_lzss_sum sum, ferry_error *err);

/* ---- LZO1X (lzo.c) ---- */

/* liblzo2's decode of a stream already measured (ferry_lzo_measure): `stream`
 * bytes into exactly `expected_size`; what ferry_lzo_decode does after
 * measuring, for a reader that measures first to bound its allocation. */
ferry_result fy_lzo_decompress(const uint8_t *in, size_t stream, size_t expected_size, uint8_t *out,
                               ferry_error *err);

/* LZO1X-999 (liblzo2's best and slowest), what Bohemia's tools write into
 * PAA mipmaps. The caller allocates fy_lzo_best_work_size() bytes of work
 * memory once for any number of streams, and fy_lzo_best_bound(size) bytes
 * at `out`; *out_size receives the stream's size. False when liblzo2
 * refuses. */
size_t fy_lzo_best_work_size(void);
static inline size_t fy_lzo_best_bound(size_t size) { return size + size / 16 + 64 + 3; }
bool fy_lzo_encode_best(const uint8_t *in, size_t size, uint8_t *out, size_t *out_size, void *work);

/* ---- DXT (BC1-BC3) blocks (dxt.c) ---- */

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

/* The DXT1 (dxt5 false: alpha dropped) or DXT5 blocks of an RGBA image of
 * w x h pixels into `out` (fy_dxt_size bytes), by stb_dxt at its high
 * quality; sides not a multiple of 4 repeat their last pixel. */
void fy_dxt_encode(const uint8_t *rgba, uint32_t w, uint32_t h, bool dxt5, uint8_t *out);

/* The colour of `block_count` blocks as DXT1 blocks (8 bytes each, into
 * `out`) that a DXT1 decoder draws as fy_dxt_decode draws `src`'s colours,
 * every texel opaque: a DXT3 or DXT5 block's colour block (always four
 * colours) with its endpoints ordered for DXT1's four-colour mode (swapped
 * with their indices when the first is smaller; one colour when equal), a
 * DXT1 block as it is. False when a DXT1 block has a transparent texel
 * (its colour is not the opaque black the colour without alpha has). */
bool fy_dxt_opaque_colour(const uint8_t *src, fy_dxt_kind kind, uint64_t block_count, uint8_t *out);

/* ---- CRC-32 (crc32.c) ---- */

/* The CRC-32 of IEEE 802.3 (reflected, polynomial 0xEDB88320, initial and
 * final ~0): zlib's crc32. */
uint32_t fy_crc32(const void *data, size_t size);

/* ---- SHA-1 (sha1.c) ---- */

#include <nettle/sha1.h>

#define FY_SHA1_SIZE 20
/* The SHA-1 of `size` bytes, by nettle. */
void fy_sha1(const void *data, size_t size, uint8_t digest[FY_SHA1_SIZE]);
/* The same over bytes given a piece at a time (an archive written as it is
 * packed): init, update with each piece in order, digest (nettle's
 * context). */
typedef struct sha1_ctx fy_sha1_ctx;
void fy_sha1_init(fy_sha1_ctx *ctx);
void fy_sha1_update(fy_sha1_ctx *ctx, const void *data, size_t size);
void fy_sha1_digest(fy_sha1_ctx *ctx, uint8_t digest[FY_SHA1_SIZE]);

#endif
