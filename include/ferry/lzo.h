/* ferry: LZO1X as Bohemia Interactive's engines use it for the compressed
 * arrays of ODOL version 44 and later (ArmA 2 on).
 *
 * The stream is plain LZO1X (decoded by Debian's liblzo2): no header, no
 * size and no checksum of its own; it ends with LZO1X's end-of-stream
 * instruction (0x11 0x00 0x00), and the reader knows how many bytes it must
 * produce. Since liblzo2 does not say how much input a stream used, the
 * stream is first measured by walking its instructions (no output is
 * written), and liblzo2 then decodes exactly that span, which also checks
 * the measurement. docs/formats/odol.md ("Later versions") has the details.
 */
#ifndef FERRY_LZO_H
#define FERRY_LZO_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Walks the stream at `in` to its end-of-stream instruction: *stream_size
 * receives the bytes it takes, *decoded_size the bytes it would produce.
 * Reads nothing past in[in_size - 1] and writes no output, so a size can be
 * checked before anything is allocated. FERRY_ERR_TRUNCATED (located in
 * `in`) when the input ends first. */
FERRY_API ferry_result ferry_lzo_measure(const uint8_t *in, size_t in_size, size_t *stream_size, size_t *decoded_size,
                                         ferry_error *err);

/* Decodes one stream into exactly `expected_size` bytes at `out`
 * (caller-allocated). *consumed (may be NULL) receives the stream's size.
 * FERRY_ERR_MALFORMED when the stream would produce another size, refers
 * before the start of the output, or liblzo2 rejects it. An expected size of
 * 0 reads nothing. Never reads in[in_size] or beyond, never writes past
 * out[expected_size - 1]. */
FERRY_API ferry_result ferry_lzo_decode(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                                        size_t *consumed, ferry_error *err);

/* Appends the LZO1X-1 stream of `in` to `out` (size 0 appends nothing).
 * FERRY_ERR_NOMEM when memory runs out (out->failed set). */
FERRY_API ferry_result ferry_lzo_encode(const uint8_t *in, size_t size, ferry_buffer *out, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
