/* Names and content kinds of Alamo chunks, for dumps and messages. */
#include <ferry/alo.h>

#include <stdio.h>

#include "../../core/core.h"

typedef struct chunk_name {
    uint32_t parent; /* 0xFFFFFFFF: any parent */
    uint32_t type;
    const char *name;
    ferry_chunk_content content;
} chunk_name;

#define ANY 0xFFFFFFFFu

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

typedef struct mini_name {
    uint32_t chunk;
    uint8_t type;
    ferry_value_kind kind;
    const char *name;
} mini_name;

#define S FERRY_VALUE_STRING
#define U FERRY_VALUE_UINT
#define I FERRY_VALUE_INT
#define F FERRY_VALUE_FLOAT

static const mini_name model_minis[] = {
    {0x601, 1, U, "object count"},
    {0x601, 4, U, "proxy count"},
    {0x601, 9, U, "dazzle count"},
    {0x602, 2, U, "object"},
    {0x602, 3, U, "bone"},
    {0x603, 5, S, "name"},
    {0x603, 6, U, "bone"},
    {0x603, 7, U, "hidden"},
    {0x603, 8, U, "alt decrease stay hidden"},
    {0x1201, 0, F, "box min"},
    {0x1201, 1, F, "box max"},
    {0x1201, 2, U, "node count"},
    {0x1201, 3, U, "primitive count"},
    {0x10102, 1, S, "name"},
    {0x10102, 2, I, "value"},
    {0x10103, 1, S, "name"},
    {0x10103, 2, F, "value"},
    {0x10104, 1, S, "name"},
    {0x10104, 2, F, "value"},
    {0x10105, 1, S, "name"},
    {0x10105, 2, S, "texture"},
    {0x10106, 1, S, "name"},
    {0x10106, 2, F, "value"},
    {0x0, 0, F, "color"},
    {0x0, 1, F, "position"},
    {0x0, 2, F, "radius"},
    {0x0, 3, U, "texture column"},
    {0x0, 4, U, "texture row"},
    {0x0, 5, S, "texture"},
    {0x0, 6, U, "texture grid size"},
    {0x0, 7, F, "frequency"},
    {0x0, 8, F, "phase"},
    {0x0, 9, U, "night only"},
    {0x0, 10, U, "bone"},
    {0x0, 11, S, "name"},
    {0x0, 12, U, "hidden"},
    {0x0, 13, F, "bias"},
};

ferry_chunk_info ferry_alamo_chunk_info(uint32_t root_type, const ferry_chunk *chunk)
{
    ferry_chunk_info info = {NULL, chunk->is_container ? FERRY_CONTENT_CONTAINER : FERRY_CONTENT_UNKNOWN};
    if (root_type != 0x200) return info;
    uint32_t parent = chunk->parent ? chunk->parent->type : 0;
    for (size_t i = 0; i < sizeof model_chunks / sizeof model_chunks[0]; i++) {
        const chunk_name *n = &model_chunks[i];
        if (n->type == chunk->type && (n->parent == ANY || n->parent == parent)) {
            /* A known type with the wrong container bit is shown as it is. */
            if ((n->content == FERRY_CONTENT_CONTAINER) != chunk->is_container) return info;
            info.name = n->name;
            info.content = n->content;
            return info;
        }
    }
    return info;
}

const char *ferry_alamo_mini_name(uint32_t root_type, const ferry_chunk *chunk, uint8_t mini_type,
                                  ferry_value_kind *kind)
{
    *kind = FERRY_VALUE_BYTES;
    if (root_type != 0x200) return NULL;
    /* Dazzle fields live in a chunk of type 0 inside 0x604. */
    if (chunk->type == 0 && !(chunk->parent && chunk->parent->type == 0x604)) return NULL;
    for (size_t i = 0; i < sizeof model_minis / sizeof model_minis[0]; i++) {
        if (model_minis[i].chunk == chunk->type && model_minis[i].type == mini_type) {
            *kind = model_minis[i].kind;
            return model_minis[i].name;
        }
    }
    return NULL;
}

static float f32_at(const uint8_t *p) { return fy_bits_f32(fy_load_u32le(p)); }

void ferry_alamo_chunk_summary(uint32_t root_type, const ferry_chunk *chunk, char *out, size_t out_size)
{
    if (!out || !out_size) return;
    out[0] = '\0';
    if (root_type != 0x200 || chunk->is_container) return;
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
