/* CRC-32 (IEEE 802.3), what MEG records store for their names. Written
 * here rather than taken from zlib: zlib is installed, but linking it would
 * add a dependency for sixteen table entries (docs/formats/meg.md). */
#include "codec.h"

uint32_t fy_crc32(const void *data, size_t size)
{
    /* Reflected CRC-32, polynomial 0xEDB88320, initial and final ~0: the
     * value zlib's crc32 gives (a nibble table keeps it short). */
    static const uint32_t t[16] = {0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4,
                                   0x4DB26158, 0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
                                   0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C};
    const uint8_t *p = data;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; i++) {
        c ^= p[i];
        c = (c >> 4) ^ t[c & 15];
        c = (c >> 4) ^ t[c & 15];
    }
    return c ^ 0xFFFFFFFFu;
}
