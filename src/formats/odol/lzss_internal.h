/* Internal to ferry: the LZSS decoder with a choice of checksum. ODOL
 * arrays end with the sum of the decoded bytes read as unsigned; PAA/PAC
 * mipmaps with the sum of the bytes read as signed, though some writers
 * store the unsigned one there (docs/formats/paa.md). */
#ifndef FERRY_LZSS_INTERNAL_H
#define FERRY_LZSS_INTERNAL_H

#include <ferry/lzss.h>

/* Which sum the 4 bytes after the stream must hold. */
typedef enum fy_lzss_sum {
    FY_LZSS_SUM_UNSIGNED, /* ferry_lzss_checksum (ODOL) */
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

#endif
