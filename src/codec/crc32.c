/* CRC-32 (IEEE 802.3), what MEG records store for their names and PNG
 * chunks end with: zlib's, which libpng brings in anyway and which is
 * several times faster than a table written here (the stored PNGs of an
 * import run megabytes through it). */
#include "codec.h"

#include <zlib.h>

uint32_t fy_crc32(const void *data, size_t size) { return (uint32_t)crc32_z(0, data, size); }
