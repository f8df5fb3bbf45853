/* Shared by the ALM reader, writer, validator and level-of-detail code:
 * the version-dependent layout, in one place so that reading and writing
 * cannot disagree about which field a version stores. */
#ifndef FERRY_ALM_INTERNAL_H
#define FERRY_ALM_INTERNAL_H

#include <ferry/alm.h>

#include "../../core/core.h"

/* Version in which each field or form first appears (alm.txt's "(N)"). */
enum {
    FY_ALM_V_FLOAT32 = 3,    /* 32-bit floats instead of 64-bit */
    FY_ALM_V_FRAMES = 4,     /* num_frames, frames[] */
    FY_ALM_V_MATRIX4 = 5,    /* 4x4 bone and frame matrices instead of 3x3 + offset */
    FY_ALM_V_BONE_STATS = 6, /* frame_rate, override_P, P, bone flags and statistics */
    FY_ALM_V_TANGENTS = 7,   /* vertex tangent planes */
    FY_ALM_V_TANGENT_MAPS = 8, /* num_tangents, tangent maps, two-id materials */
    FY_ALM_V_INFLUENCE = 9,  /* influence collapses */
    FY_ALM_V_TAILS = 10      /* bone tails */
};

#define FY_ALM_MAGIC "ALM\0"

/* Header size in bytes for a version: magic, version, 8 counts, then the
 * fields later versions added. */
static inline size_t fy_alm_header_size(uint32_t v)
{
    return 4 * 10 + (v >= FY_ALM_V_TANGENT_MAPS ? 4 : 0) + (v >= FY_ALM_V_FRAMES ? 4 : 0) +
           (v >= FY_ALM_V_BONE_STATS ? 8 : 0);
}

static inline uint32_t fy_alm_fs(uint32_t v) { return v < FY_ALM_V_FLOAT32 ? 8 : 4; }

/* Reals stored in a bone: the matrix, then (version 6 on) 1 + 3 + 1 + 16 +
 * 16 + 1 statistics, then (version 10 on) the tail. */
static inline size_t fy_alm_bone_size(uint32_t v)
{
    size_t fs = fy_alm_fs(v);
    size_t reals = v >= FY_ALM_V_MATRIX4 ? 16 : 12;
    size_t size = 4 + reals * fs;
    if (v >= FY_ALM_V_BONE_STATS) size += 4 + 38 * fs;
    if (v >= FY_ALM_V_TAILS) size += 3 * fs;
    return size;
}

/* Reals per bone in a frame: 16 from version 5, 12 (3x3 + offset) before. */
static inline size_t fy_alm_frame_reals(uint32_t v) { return v >= FY_ALM_V_MATRIX4 ? 16 : 12; }

/* 32-bit float <-> double by bits for NaNs, so that signalling NaNs and
 * payloads survive the round trip (a hardware conversion quiets them). */
static inline double fy_alm_f32_to_double(uint32_t u)
{
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) {
        uint64_t d = ((uint64_t)(u >> 31) << 63) | ((uint64_t)0x7ff << 52) | ((uint64_t)(u & 0x007fffffu) << 29);
        return fy_bits_f64(d);
    }
    return (double)fy_bits_f32(u);
}

static inline uint32_t fy_alm_double_to_f32(double x)
{
    uint64_t d = fy_f64_bits(x);
    if ((d & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (d & 0x000fffffffffffffull)) {
        uint32_t m = (uint32_t)((d & 0x000fffffffffffffull) >> 29);
        if (!m) m = 0x00400000u; /* a payload only in the low bits: keep it a NaN */
        return (uint32_t)((d >> 63) << 31) | 0x7f800000u | m;
    }
    return fy_f32_bits((float)x);
}

static inline double fy_alm_load_real(const uint8_t *p, uint32_t fs)
{
    return fs == 8 ? fy_bits_f64(fy_load_u64be(p)) : fy_alm_f32_to_double(fy_load_u32be(p));
}

/* The smallest double that rounds to infinity as a 32-bit float (FLT_MAX
 * plus half its last unit): values at or beyond it do not fit a float. */
#define FY_FLOAT_OVERFLOW 0x1.ffffffp+127

/* Offset of a record of a read mesh, or FERRY_NO_OFFSET. */
uint64_t fy_alm_offset(const ferry_alm_mesh *mesh, const char *section, uint64_t index);

#endif
