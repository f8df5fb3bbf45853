/* Mini-chunk tables of the ALO model chunks, shared by reader and writer. */
#ifndef FERRY_ALO_TABLES_H
#define FERRY_ALO_TABLES_H

#include <stddef.h>

#include "alamo_internal.h"

/* 0x601 counts are not kept in the model (the arrays say them); they pass
 * through this struct. */
typedef struct fy_alo_counts {
    uint32_t objects, proxies, dazzles;
} fy_alo_counts;

#define FY_ALO_COUNTS_HAS_DAZZLES (1u << 9)

static const fy_mini_field fy_alo_counts_fields[] = {
    {1, FY_MINI_U32, true, offsetof(fy_alo_counts, objects), "object count"},
    {4, FY_MINI_U32, true, offsetof(fy_alo_counts, proxies), "proxy count"},
    {9, FY_MINI_U32, false, offsetof(fy_alo_counts, dazzles), "dazzle count"},
};

static const fy_mini_field fy_alo_connection_fields[] = {
    {2, FY_MINI_U32, true, offsetof(ferry_alo_connection, object), "object index"},
    {3, FY_MINI_U32, true, offsetof(ferry_alo_connection, bone), "bone index"},
};

static const fy_mini_field fy_alo_proxy_fields[] = {
    {5, FY_MINI_STRING, true, offsetof(ferry_alo_proxy, name), "proxy name"},
    {6, FY_MINI_U32, true, offsetof(ferry_alo_proxy, bone), "bone index"},
    {7, FY_MINI_U32, false, offsetof(ferry_alo_proxy, is_hidden), "hidden flag"},
    {8, FY_MINI_U32, false, offsetof(ferry_alo_proxy, alt_decrease_stay_hidden), "alt-decrease-stay-hidden flag"},
};

static const fy_mini_field fy_alo_dazzle_fields[] = {
    {0, FY_MINI_F32X3, true, offsetof(ferry_alo_dazzle, color), "color"},
    {1, FY_MINI_F32X3, true, offsetof(ferry_alo_dazzle, position), "position"},
    {2, FY_MINI_F32, true, offsetof(ferry_alo_dazzle, radius), "radius"},
    {3, FY_MINI_U32, true, offsetof(ferry_alo_dazzle, texture_x), "texture column"},
    {4, FY_MINI_U32, true, offsetof(ferry_alo_dazzle, texture_y), "texture row"},
    {6, FY_MINI_U32, true, offsetof(ferry_alo_dazzle, texture_size), "texture grid size"},
    {5, FY_MINI_STRING, true, offsetof(ferry_alo_dazzle, texture), "texture name"},
    {7, FY_MINI_F32, true, offsetof(ferry_alo_dazzle, frequency), "blink frequency"},
    {8, FY_MINI_F32, true, offsetof(ferry_alo_dazzle, phase), "blink phase"},
    {9, FY_MINI_U32, true, offsetof(ferry_alo_dazzle, night_only), "night-only flag"},
    {10, FY_MINI_U32, true, offsetof(ferry_alo_dazzle, bone), "bone index"},
    {11, FY_MINI_STRING, true, offsetof(ferry_alo_dazzle, name), "dazzle name"},
    {12, FY_MINI_U32, true, offsetof(ferry_alo_dazzle, is_hidden), "hidden flag"},
    {13, FY_MINI_F32, false, offsetof(ferry_alo_dazzle, bias), "bias"},
};

typedef struct fy_alo_collision_info {
    float box_min[3], box_max[3];
    uint32_t nodes, primitives;
} fy_alo_collision_info;

static const fy_mini_field fy_alo_collision_fields[] = {
    {0, FY_MINI_F32X3, true, offsetof(fy_alo_collision_info, box_min), "box minimum"},
    {1, FY_MINI_F32X3, true, offsetof(fy_alo_collision_info, box_max), "box maximum"},
    {2, FY_MINI_U32, true, offsetof(fy_alo_collision_info, nodes), "node count"},
    {3, FY_MINI_U32, true, offsetof(fy_alo_collision_info, primitives), "primitive count"},
};

/* Shader parameters: name (1) and a value (2) whose kind depends on the chunk. */
#define FY_ALO_PARAM_FIELDS(kind, field)                                                           \
    {{1, FY_MINI_STRING, true, offsetof(ferry_alo_shader_param, name), "parameter name"},         \
     {2, kind, true, offsetof(ferry_alo_shader_param, field), "parameter value"}}

static const fy_mini_field fy_alo_param_int_fields[] = FY_ALO_PARAM_FIELDS(FY_MINI_U32, int_value);
static const fy_mini_field fy_alo_param_float_fields[] = FY_ALO_PARAM_FIELDS(FY_MINI_F32, value);
static const fy_mini_field fy_alo_param_float3_fields[] = FY_ALO_PARAM_FIELDS(FY_MINI_F32X3, value);
static const fy_mini_field fy_alo_param_texture_fields[] = FY_ALO_PARAM_FIELDS(FY_MINI_STRING, texture);
static const fy_mini_field fy_alo_param_float4_fields[] = FY_ALO_PARAM_FIELDS(FY_MINI_F32X4, value);

static inline const fy_mini_field *fy_alo_param_fields(uint32_t type)
{
    switch (type) {
    case FERRY_ALO_PARAM_INT: return fy_alo_param_int_fields;
    case FERRY_ALO_PARAM_FLOAT: return fy_alo_param_float_fields;
    case FERRY_ALO_PARAM_FLOAT3: return fy_alo_param_float3_fields;
    case FERRY_ALO_PARAM_TEXTURE: return fy_alo_param_texture_fields;
    case FERRY_ALO_PARAM_FLOAT4: return fy_alo_param_float4_fields;
    default: return NULL;
    }
}

#define FY_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
