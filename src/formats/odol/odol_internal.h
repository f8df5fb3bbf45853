/* Shared by the ODOL reader, writer and validator. Not a public header. */
#ifndef FERRY_ODOL_INTERNAL_H
#define FERRY_ODOL_INTERNAL_H

#include "../../core/core.h"

#include <ferry/lzo.h>
#include <ferry/lzss.h>
#include <ferry/odol.h>

/* Element sizes of the arrays whose bytes the model keeps undecoded. */
enum {
    FY_ODOL_POINT_FLAG_SIZE = 4,
    FY_ODOL_INDEX_SIZE = 2,
    FY_ODOL_SECTION_INDEX_SIZE = 4,
    FY_ODOL_UV_SIZE = 8,
    FY_ODOL_POSITION_SIZE = 12,
    FY_ODOL_NORMAL_SIZE = 12,
    FY_ODOL_ST_SIZE = 24,
    FY_ODOL_BONE_REF_SIZE = 12,
    FY_ODOL_NEIGHBOR_REF_SIZE = 32,
    FY_ODOL_MASS_SIZE = 4
};

/* What the version decides about arrays (see "Later versions" in
 * docs/formats/odol.md): v44 replaced LZSS by LZO1X, v45 packed UVs,
 * normals and tangent vectors. */
static inline bool fy_odol_uses_lzo(uint32_t version) { return version >= 44; }
static inline size_t fy_odol_uv_size(uint32_t version) { return version >= 45 ? 4 : FY_ODOL_UV_SIZE; }
static inline size_t fy_odol_normal_size(uint32_t version) { return version >= 45 ? 4 : FY_ODOL_NORMAL_SIZE; }
static inline size_t fy_odol_st_size(uint32_t version) { return version >= 45 ? 8 : FY_ODOL_ST_SIZE; }

/* Bytes a face takes in the engine's memory, which the stored face block
 * size and the sections' bounds count: a uint16 count and uint16 indices. */
static inline uint32_t fy_odol_face_memory_size(uint8_t corners) { return 2u + 2u * corners; }

/* Where the face with in-memory byte offset `bytes` starts, or UINT32_MAX
 * when no face starts there (face_count when bytes is the end). */
uint32_t fy_odol_face_at_bytes(const ferry_odol_lod *lod, uint32_t bytes);

/* Writes one LOD (what the LOD start/end offsets delimit); *rest_start
 * (may be NULL) receives where the data its rest size counts begins. */
void fy_odol_write_lod(ferry_buffer *out, const ferry_odol_lod *lod, uint32_t version, size_t *rest_start);
/* Writes everything before the first LOD: header, model info, animations,
 * the LOD offsets, flags and infos. */
void fy_odol_write_prefix(ferry_buffer *out, const ferry_odol_model *model);

/* The order the engine stores LODs in: descending resolution, ties in
 * index order (what every real v40 file shows). `order` has lod_count entries. */
void fy_odol_default_order(const ferry_odol_model *model, uint32_t *order);

/* storage_order is absent or a permutation of the LODs. */
bool fy_odol_order_ok(const ferry_odol_model *model);

/* Little-endian element loads from decoded array bytes. */
static inline uint16_t fy_odol_u16(const ferry_odol_array *a, uint32_t i) { return fy_load_u16le(a->data + 2u * i); }
static inline float fy_odol_f32(const uint8_t *p) { return fy_bits_f32(fy_load_u32le(p)); }

#endif
