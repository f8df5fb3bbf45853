/* Mini-chunk tables of the ALA animation chunks, shared by reader and writer,
 * and the little decoding both sides and the sampler need. */
#ifndef FERRY_ALA_TABLES_H
#define FERRY_ALA_TABLES_H

#include <ferry/ala.h>

#include <stddef.h>

#include "alamo_internal.h"

/* 0x1001 passes through this struct: the strides live in the animation,
 * numBones is compared with the bones read. */
typedef struct fy_ala_header {
    uint32_t frames;
    float fps;
    uint32_t bones;
    uint32_t rotation_stride, translation_stride, scale_stride;
} fy_ala_header;

/* The strides are what tells format 2 apart: optional in the table, all
 * three required once one is seen, always written for format 2. */
#define FY_ALA_HEADER_STRIDES ((1u << 11) | (1u << 12) | (1u << 13))

static const fy_mini_field fy_ala_header_fields[] = {
    {1, FY_MINI_U32, true, offsetof(fy_ala_header, frames), "frame count"},
    {2, FY_MINI_F32, true, offsetof(fy_ala_header, fps), "frames per second"},
    {3, FY_MINI_U32, true, offsetof(fy_ala_header, bones), "bone count"},
    {11, FY_MINI_U32, false, offsetof(fy_ala_header, rotation_stride), "rotation frame size"},
    {12, FY_MINI_U32, false, offsetof(fy_ala_header, translation_stride), "translation frame size"},
    {13, FY_MINI_U32, false, offsetof(fy_ala_header, scale_stride), "scale frame size"},
};

/* Real files order 0x1003 as 4, 5, 10, 6, 7, 8, 9 (then 14..17): the
 * table follows that order, which is what a built bone gets. Minis 14..16
 * are int16 read through the uint16 kind (same bytes). Mini 17, int16 x 4,
 * has no kind in the shared table: it travels as an unknown mini-chunk and
 * ala_read.c / ala_write.c decode and encode it (FY_ALA_DEFAULT_ROTATION). */
static const fy_mini_field fy_ala_bone_fields[] = {
    {4, FY_MINI_STRING, true, offsetof(ferry_ala_bone, name), "bone name"},
    {5, FY_MINI_U32, true, offsetof(ferry_ala_bone, index), "bone index"},
    {10, FY_MINI_U32, true, offsetof(ferry_ala_bone, unknown), "unknown flag"},
    {6, FY_MINI_F32X3, true, offsetof(ferry_ala_bone, translation_offset), "translation offset"},
    {7, FY_MINI_F32X3, true, offsetof(ferry_ala_bone, translation_scale), "translation scale"},
    {8, FY_MINI_F32X3, true, offsetof(ferry_ala_bone, scale_offset), "scale offset"},
    {9, FY_MINI_F32X3, true, offsetof(ferry_ala_bone, scale_scale), "scale scale"},
    {14, FY_MINI_U16, false, offsetof(ferry_ala_bone, translation_index), "translation index"},
    {15, FY_MINI_U16, false, offsetof(ferry_ala_bone, scale_index), "scale index"},
    {16, FY_MINI_U16, false, offsetof(ferry_ala_bone, rotation_index), "rotation index"},
};

#define FY_ALA_DEFAULT_ROTATION 17
#define FY_ALA_DEFAULT_ROTATION_SIZE 8

/* Stored quaternion components are over this. */
#define FY_ALA_ROTATION_ONE 32767

#ifndef FY_COUNT
#define FY_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Bit `frame` of a per-frame bit array; false past its end. */
static inline bool fy_ala_bit(const uint8_t *bits, size_t size, size_t frame)
{
    return bits && frame / 8 < size && ((bits[frame / 8] >> (frame % 8)) & 1);
}

#endif
