/* ferry: the LZSS codec of Bohemia Interactive's engines (ODOL compressed
 * arrays, v40 and earlier).
 *
 * A 4096-byte ring whose first 4078 bytes start as spaces; flag bytes read
 * least-significant bit first (1 = literal byte, 0 = back-reference of two
 * bytes: 12-bit distance, 4-bit length - 3); the stream carries no size of
 * its own, so the decoder is told how many bytes to produce; a 4-byte
 * little-endian sum of the decoded bytes follows. docs/formats/lzss.md
 * describes it in full, with the edge cases and the references checked.
 *
 * Neither function keeps state between calls; the decoder never allocates.
 */
#ifndef FERRY_LZSS_H
#define FERRY_LZSS_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The engine compresses an array exactly when its decoded size is at least
 * this many bytes; smaller arrays are stored raw. */
#define FERRY_LZSS_MIN_COMPRESSED_SIZE 1024u

/* The checksum that follows a stream: the 32-bit wrapping sum of the bytes,
 * each taken as unsigned. */
FERRY_API uint32_t ferry_lzss_checksum(const uint8_t *data, size_t size);

/* Decodes exactly `expected_size` bytes into `out` (caller-allocated, at
 * least that size) and checks the checksum that follows the stream.
 * *consumed (may be NULL) receives the input bytes used, stream plus the
 * 4-byte checksum; on failure it is the offset reached. An expected size of
 * 0 reads nothing (the engine neither writes nor reads a checksum then).
 * Errors are located in `in`: FERRY_ERR_TRUNCATED when the input ends inside
 * a flag byte, literal, back-reference or the checksum; FERRY_ERR_MALFORMED
 * when the stored and computed checksums differ (offset of the checksum).
 * Never reads in[in_size] or beyond, never writes past out[expected_size-1];
 * on failure `out` holds what was decoded so far. */
FERRY_API ferry_result ferry_lzss_decode(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                                         size_t *consumed, ferry_error *err);

/* Largest stream ferry_lzss_encode can produce for `size` input bytes
 * (every byte a literal, one flag byte per eight, and the checksum). */
FERRY_API size_t ferry_lzss_max_encoded_size(size_t size);

/* Appends the compressed form of `in` (stream and checksum) to `out`; the
 * result decodes back to `in` with ferry_lzss_decode(..., size, ...). Size 0
 * appends nothing, as the engine does. Hash-chain matching with one step of
 * lazy evaluation over the 4 KiB window, lengths 3..18, including the
 * initial spaces. FERRY_ERR_NOMEM when memory runs out (out->failed set). */
FERRY_API ferry_result ferry_lzss_encode(const uint8_t *in, size_t size, ferry_buffer *out, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
