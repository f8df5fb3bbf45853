/* What the Alamo formats (.ALO models, .ALA animations, particle systems)
 * share beyond the chunk tree (alamo_chunk.h): the kind of an Alamo file
 * and the string tails every typed Alamo reader keeps.
 */
#ifndef FERRY_ALAMO_H
#define FERRY_ALAMO_H

#include <ferry/alamo_chunk.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes that followed the NUL of a stored string, kept so that writing is
 * exact; matched by the string's address, so replacing a string drops them. */
typedef struct ferry_string_tail {
    const char *text;
    ferry_blob tail;
} ferry_string_tail;

/* What an Alamo file holds, judged from its first chunk. */
typedef enum ferry_alamo_kind {
    FERRY_ALAMO_UNKNOWN = 0,
    FERRY_ALAMO_MODEL,          /* 0x200 */
    FERRY_ALAMO_PARTICLE,       /* 0x900 */
    FERRY_ALAMO_PARTICLE_UAW,   /* 0x1500: Universe at War particles, unsupported */
    FERRY_ALAMO_ANIMATION       /* 0x1000 */
} ferry_alamo_kind;

FERRY_API ferry_alamo_kind ferry_alamo_detect(const uint8_t *data, size_t size);
FERRY_API const char *ferry_alamo_kind_name(ferry_alamo_kind kind);

#ifdef __cplusplus
}
#endif

#endif
