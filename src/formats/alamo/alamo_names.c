/* Names and content kinds of Alamo chunks, for dumps and messages. */
#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/particle.h>

#include <stdio.h>

#include "../../core/core.h"
#include "ala_tables.h"
#include "alo_tables.h"
#include "particle_tables.h"

typedef struct chunk_name {
    uint32_t parent; /* 0 at the top level */
    uint32_t type;
    const char *name;
    ferry_chunk_content content;
} chunk_name;


static const chunk_name model_chunks[] = {
    {0, 0x200, "skeleton", FERRY_CONTENT_CONTAINER},
    {0x200, 0x201, "bone count", FERRY_CONTENT_STRUCT},
    {0x200, 0x202, "bone", FERRY_CONTENT_CONTAINER},
    {0x202, 0x203, "bone name", FERRY_CONTENT_STRING},
    {0x202, 0x205, "bone data v1", FERRY_CONTENT_STRUCT},
    {0x202, 0x206, "bone data v2", FERRY_CONTENT_STRUCT},
    {0, 0x400, "mesh", FERRY_CONTENT_CONTAINER},
    {0x400, 0x401, "mesh name", FERRY_CONTENT_STRING},
    {0x400, 0x402, "mesh info", FERRY_CONTENT_STRUCT},
    {0x400, 0x10100, "material", FERRY_CONTENT_CONTAINER},
    {0x10100, 0x10101, "shader file", FERRY_CONTENT_STRING},
    {0x10100, 0x10102, "shader parameter int", FERRY_CONTENT_MINI_CHUNKS},
    {0x10100, 0x10103, "shader parameter float", FERRY_CONTENT_MINI_CHUNKS},
    {0x10100, 0x10104, "shader parameter float3", FERRY_CONTENT_MINI_CHUNKS},
    {0x10100, 0x10105, "shader parameter texture", FERRY_CONTENT_MINI_CHUNKS},
    {0x10100, 0x10106, "shader parameter float4", FERRY_CONTENT_MINI_CHUNKS},
    {0x400, 0x10000, "sub-mesh data", FERRY_CONTENT_CONTAINER},
    {0x10000, 0x10001, "sub-mesh info", FERRY_CONTENT_STRUCT},
    {0x10000, 0x10002, "vertex format", FERRY_CONTENT_STRING},
    {0x10000, 0x10004, "index buffer", FERRY_CONTENT_STRUCT},
    {0x10000, 0x10005, "vertex buffer v1", FERRY_CONTENT_STRUCT},
    {0x10000, 0x10006, "bone mapping", FERRY_CONTENT_STRUCT},
    {0x10000, 0x10007, "vertex buffer v2", FERRY_CONTENT_STRUCT},
    {0x10000, 0x1200, "collision tree", FERRY_CONTENT_CONTAINER},
    {0x1200, 0x1201, "collision tree info", FERRY_CONTENT_MINI_CHUNKS},
    {0x1200, 0x1202, "collision tree nodes", FERRY_CONTENT_STRUCT},
    {0x1200, 0x1203, "collision triangle mapping", FERRY_CONTENT_STRUCT},
    {0, 0x1300, "light", FERRY_CONTENT_CONTAINER},
    {0x1300, 0x1301, "light name", FERRY_CONTENT_STRING},
    {0x1300, 0x1302, "light data", FERRY_CONTENT_STRUCT},
    {0, 0x600, "connections", FERRY_CONTENT_CONTAINER},
    {0x600, 0x601, "connection counts", FERRY_CONTENT_MINI_CHUNKS},
    {0x600, 0x602, "object connection", FERRY_CONTENT_MINI_CHUNKS},
    {0x600, 0x603, "proxy connection", FERRY_CONTENT_MINI_CHUNKS},
    {0x600, 0x604, "dazzle", FERRY_CONTENT_CONTAINER},
    {0x604, 0x0, "dazzle fields", FERRY_CONTENT_MINI_CHUNKS},
};

static const chunk_name animation_chunks[] = {
    {0, 0x1000, "animation", FERRY_CONTENT_CONTAINER},
    {0x1000, 0x1001, "animation header", FERRY_CONTENT_MINI_CHUNKS},
    {0x1000, 0x1002, "bone animation", FERRY_CONTENT_CONTAINER},
    {0x1002, 0x1003, "bone animation header", FERRY_CONTENT_MINI_CHUNKS},
    {0x1002, 0x1004, "bone translations", FERRY_CONTENT_STRUCT},
    {0x1002, 0x1005, "bone scales", FERRY_CONTENT_STRUCT},
    {0x1002, 0x1006, "bone rotations", FERRY_CONTENT_STRUCT},
    {0x1002, 0x1007, "bone visibility bits", FERRY_CONTENT_STRUCT},
    {0x1002, 0x1008, "bone step bits", FERRY_CONTENT_STRUCT},
    {0x1000, 0x1009, "frame rotations", FERRY_CONTENT_STRUCT},
    {0x1000, 0x100a, "frame translations", FERRY_CONTENT_STRUCT},
    {0x1000, 0x100b, "frame scales", FERRY_CONTENT_STRUCT},
};

static const chunk_name particle_chunks[] = {
    {0, 0x900, "particle system", FERRY_CONTENT_CONTAINER},
    {0x900, 0x0, "system name", FERRY_CONTENT_STRING},
    {0x900, 0x1, "system id", FERRY_CONTENT_STRUCT},
    {0x900, 0x2, "persistence", FERRY_CONTENT_STRUCT},
    {0x900, 0x800, "emitters", FERRY_CONTENT_CONTAINER},
    {0x800, 0x700, "emitter", FERRY_CONTENT_CONTAINER},
    {0x700, 0x2, "emitter properties", FERRY_CONTENT_MINI_CHUNKS},
    {0x700, 0x3, "color texture", FERRY_CONTENT_STRING},
    {0x700, 0x16, "emitter name", FERRY_CONTENT_STRING},
    {0x700, 0x29, "property groups", FERRY_CONTENT_CONTAINER},
    {0x29, 0x1100, "property group", FERRY_CONTENT_CONTAINER},
    {0x1100, 0x1101, "property group data", FERRY_CONTENT_STRUCT},
    {0x700, 0x1, "tracks", FERRY_CONTENT_CONTAINER},
    {0x1, 0x0, "track header", FERRY_CONTENT_MINI_CHUNKS},
    {0x1, 0x1, "track keys", FERRY_CONTENT_MINI_CHUNKS},
    {0x700, 0x36, "emitter connections", FERRY_CONTENT_MINI_CHUNKS},
    {0x700, 0x45, "secondary texture", FERRY_CONTENT_STRING},
};

ferry_chunk_info ferry_alamo_chunk_info(uint32_t root_type, const ferry_chunk *chunk)
{
    ferry_chunk_info info = {NULL, chunk->is_container ? FERRY_CONTENT_CONTAINER : FERRY_CONTENT_UNKNOWN};
    const chunk_name *table;
    size_t count;
    switch (root_type) {
    case 0x200: table = model_chunks, count = sizeof model_chunks / sizeof model_chunks[0]; break;
    case 0x1000: table = animation_chunks, count = sizeof animation_chunks / sizeof animation_chunks[0]; break;
    case 0x900: table = particle_chunks, count = sizeof particle_chunks / sizeof particle_chunks[0]; break;
    default: return info;
    }
    uint32_t parent = chunk->parent ? chunk->parent->type : 0;
    for (size_t i = 0; i < count; i++) {
        const chunk_name *n = &table[i];
        if (n->type == chunk->type && n->parent == parent) {
            /* A known type with the wrong container bit is shown as it is. */
            if ((n->content == FERRY_CONTENT_CONTAINER) != chunk->is_container) return info;
            info.name = n->name;
            info.content = n->content;
            return info;
        }
    }
    return info;
}

static ferry_value_kind kind_of(uint8_t kind)
{
    switch (kind) {
    case FY_MINI_U32: return FERRY_VALUE_UINT;
    case FY_MINI_U16: return FERRY_VALUE_UINT16;
    case FY_MINI_U8: return FERRY_VALUE_UINT8;
    case FY_MINI_STRING: return FERRY_VALUE_STRING;
    default: return FERRY_VALUE_FLOAT;
    }
}

static const char *from_table(const fy_mini_field *fields, size_t count, uint8_t type, ferry_value_kind *kind)
{
    for (size_t i = 0; i < count; i++) {
        if (fields[i].type == type) {
            *kind = kind_of(fields[i].kind);
            return fields[i].what;
        }
    }
    return NULL;
}

#define FROM_TABLE(table, type, kind) from_table(table, sizeof table / sizeof table[0], type, kind)

static const char *model_mini(const ferry_chunk *chunk, uint32_t parent, uint8_t type, ferry_value_kind *kind)
{
    switch (chunk->type) {
    case FERRY_ALO_CONNECTION_COUNTS: return FROM_TABLE(fy_alo_counts_fields, type, kind);
    case FERRY_ALO_OBJECT_CONNECTION: return FROM_TABLE(fy_alo_connection_fields, type, kind);
    case FERRY_ALO_PROXY_CONNECTION: return FROM_TABLE(fy_alo_proxy_fields, type, kind);
    case FERRY_ALO_COLLISION_INFO: return FROM_TABLE(fy_alo_collision_fields, type, kind);
    case 0: return parent == FERRY_ALO_DAZZLE ? FROM_TABLE(fy_alo_dazzle_fields, type, kind) : NULL;
    default: {
        const fy_mini_field *param = fy_alo_param_fields(chunk->type);
        if (!param) return NULL;
        const char *name = from_table(param, 2, type, kind);
        if (type == 2 && chunk->type == FERRY_ALO_PARAM_INT) *kind = FERRY_VALUE_INT;
        return name;
    }
    }
}

static const char *animation_mini(const ferry_chunk *chunk, uint8_t type, ferry_value_kind *kind)
{
    if (chunk->type == FERRY_ALA_HEADER) return FROM_TABLE(fy_ala_header_fields, type, kind);
    if (chunk->type != FERRY_ALA_BONE_HEADER) return NULL;
    if (type == FY_ALA_DEFAULT_ROTATION) {
        *kind = FERRY_VALUE_INT16;
        return "default rotation";
    }
    const char *name = FROM_TABLE(fy_ala_bone_fields, type, kind);
    if (*kind == FERRY_VALUE_UINT16) *kind = FERRY_VALUE_INT16; /* track indices: -1 means none */
    return name;
}

static const char *particle_mini(const ferry_chunk *chunk, uint32_t parent, uint8_t type, ferry_value_kind *kind)
{
    if (parent == 0x700 && chunk->type == 0x2) return FROM_TABLE(fy_particle_property_fields, type, kind);
    if (parent == 0x700 && chunk->type == 0x36) {
        const char *name = FROM_TABLE(fy_particle_connection_fields, type, kind);
        *kind = FERRY_VALUE_INT;
        return name;
    }
    if (parent != 0x1 || !chunk->parent || chunk->parent->parent == NULL || chunk->parent->parent->type != 0x700)
        return NULL;
    /* Tracks come as header/keys pairs; the first four are the colour tracks. */
    size_t track = (size_t)(chunk - chunk->parent->children) / 2;
    if (chunk->type == 0x0) {
        const fy_mini_field *fields = fy_particle_header_fields(track);
        return from_table(fields, FY_PARTICLE_HEADER_FIELD_COUNT, type, kind);
    }
    if (chunk->type == 0x1 && type == FY_PARTICLE_KEY_MINI) {
        *kind = track < FERRY_PARTICLE_COLOR_TRACKS ? FERRY_VALUE_BYTES : FERRY_VALUE_FLOAT;
        return "key (value, time)";
    }
    return NULL;
}

const char *ferry_alamo_mini_name(uint32_t root_type, const ferry_chunk *chunk, uint8_t mini_type,
                                  ferry_value_kind *kind)
{
    *kind = FERRY_VALUE_BYTES;
    uint32_t parent = chunk->parent ? chunk->parent->type : 0;
    const char *name = NULL;
    switch (root_type) {
    case FERRY_ALO_SKELETON: name = model_mini(chunk, parent, mini_type, kind); break;
    case FERRY_ALA_ANIMATION: name = animation_mini(chunk, mini_type, kind); break;
    case 0x900: name = particle_mini(chunk, parent, mini_type, kind); break;
    default: break;
    }
    if (!name) *kind = FERRY_VALUE_BYTES;
    return name;
}

static float f32_at(const uint8_t *p) { return fy_bits_f32(fy_load_u32le(p)); }

static void animation_summary(const ferry_chunk *chunk, char *out, size_t out_size)
{
    uint32_t n = chunk->size;
    switch (chunk->type) {
    case 0x1004:
    case 0x1005: snprintf(out, out_size, "%u vectors of 3 uint16", (unsigned)(n / 6)); break;
    case 0x1006: snprintf(out, out_size, "%u quaternions of 4 int16", (unsigned)(n / 8)); break;
    case 0x1007:
    case 0x1008: snprintf(out, out_size, "%u bytes of bits (%u frames)", (unsigned)n, (unsigned)n * 8); break;
    case 0x1009:
    case 0x100a:
    case 0x100b: snprintf(out, out_size, "%u 16-bit values", (unsigned)(n / 2)); break;
    default: break;
    }
}

static void particle_summary(const ferry_chunk *chunk, char *out, size_t out_size)
{
    const uint8_t *d = chunk->data;
    uint32_t n = chunk->size;
    uint32_t parent = chunk->parent ? chunk->parent->type : 0;
    if (parent == 0x900 && chunk->type == 0x1 && n >= 4)
        snprintf(out, out_size, "id=%u", (unsigned)fy_load_u32le(d));
    else if (parent == 0x900 && chunk->type == 0x2 && n >= 1)
        snprintf(out, out_size, "persist=%u", (unsigned)d[0]);
    else if (chunk->type == 0x1101 && n >= 4) {
        static const char *const kinds[] = {"exact", "box", "cube", "sphere", "cylinder"};
        uint32_t kind = fy_load_u32le(d);
        snprintf(out, out_size, "type=%u (%s)", (unsigned)kind, kind < 5 ? kinds[kind] : "unknown");
    }
}

void ferry_alamo_chunk_summary(uint32_t root_type, const ferry_chunk *chunk, char *out, size_t out_size)
{
    if (!out || !out_size) return;
    out[0] = '\0';
    if (chunk->is_container) return;
    if (root_type == 0x1000) {
        animation_summary(chunk, out, out_size);
        return;
    }
    if (root_type == 0x900) {
        particle_summary(chunk, out, out_size);
        return;
    }
    if (root_type != 0x200) return;
    const uint8_t *d = chunk->data;
    uint32_t n = chunk->size;
    switch (chunk->type) {
    case 0x201:
        if (n >= 4) snprintf(out, out_size, "bones=%u", (unsigned)fy_load_u32le(d));
        break;
    case 0x205:
    case 0x206: {
        bool v2 = chunk->type == 0x206;
        if (n < (v2 ? 60u : 56u)) break;
        const uint8_t *m = d + (v2 ? 12 : 8);
        snprintf(out, out_size, "parent=%d visible=%u billboard=%u translation=(%g, %g, %g)",
                 (int)fy_load_u32le(d), (unsigned)fy_load_u32le(d + 4), v2 ? (unsigned)fy_load_u32le(d + 8) : 0u,
                 (double)f32_at(m + 12), (double)f32_at(m + 28), (double)f32_at(m + 44));
        break;
    }
    case 0x402:
        if (n >= 40)
            snprintf(out, out_size, "materials=%u min=(%g, %g, %g) max=(%g, %g, %g) hidden=%u collision=%u",
                     (unsigned)fy_load_u32le(d), (double)f32_at(d + 4), (double)f32_at(d + 8), (double)f32_at(d + 12),
                     (double)f32_at(d + 16), (double)f32_at(d + 20), (double)f32_at(d + 24),
                     (unsigned)fy_load_u32le(d + 32), (unsigned)fy_load_u32le(d + 36));
        break;
    case 0x10001:
        if (n >= 8)
            snprintf(out, out_size, "vertices=%u triangles=%u", (unsigned)fy_load_u32le(d), (unsigned)fy_load_u32le(d + 4));
        break;
    case 0x10004: snprintf(out, out_size, "%u indices (%u triangles)", (unsigned)(n / 2), (unsigned)(n / 6)); break;
    case 0x10005: snprintf(out, out_size, "%u vertices of 128 bytes", (unsigned)(n / 128)); break;
    case 0x10007: snprintf(out, out_size, "%u vertices of 144 bytes", (unsigned)(n / 144)); break;
    case 0x10006: {
        size_t used = (size_t)snprintf(out, out_size, "bones:");
        for (uint32_t i = 0; i + 4 <= n && used < out_size; i += 4)
            used += (size_t)snprintf(out + used, out_size - used, " %u", (unsigned)fy_load_u32le(d + i));
        break;
    }
    case 0x1202: snprintf(out, out_size, "%u nodes", (unsigned)(n / 10)); break;
    case 0x1203: snprintf(out, out_size, "%u triangle indices", (unsigned)(n / 2)); break;
    case 0x1302:
        if (n >= 36)
            snprintf(out, out_size, "type=%u color=(%g, %g, %g) intensity=%g attenuation=%g..%g hotspot=%g falloff=%g",
                     (unsigned)fy_load_u32le(d), (double)f32_at(d + 4), (double)f32_at(d + 8), (double)f32_at(d + 12),
                     (double)f32_at(d + 16), (double)f32_at(d + 24), (double)f32_at(d + 20), (double)f32_at(d + 28),
                     (double)f32_at(d + 32));
        break;
    default: break;
    }
}
