/* Internal to ferry: the LZSS decoder with a choice of checksum. ODOL
 * arrays end with the sum of the decoded bytes read as unsigned; PAA/PAC
 * mipmaps with the sum of the bytes read as signed (docs/formats/paa.md). */
#ifndef FERRY_LZSS_INTERNAL_H
#define FERRY_LZSS_INTERNAL_H

#include <ferry/lzss.h>

#include <stdbool.h>

uint32_t fy_lzss_signed_checksum(const uint8_t *data, size_t size);
/* ferry_lzss_decode, checking the signed sum when `signed_sum`. */
ferry_result fy_lzss_decode_sum(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                                size_t *consumed, bool signed_sum, ferry_error *err);

#endif
