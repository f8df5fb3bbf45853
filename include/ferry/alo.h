/* Alamo object files (.ALO) holding a 3D model: skeleton, meshes, lights,
 * proxies, dazzles and the connections between them.
 *
 * The model is plain data. A model read from bytes lives in one arena and is
 * released with ferry_alo_free; a model built by hand may point anywhere,
 * since the writer only reads it. Everything the reader does not interpret
 * (unknown chunks and mini-chunks, padding, the order of children) is kept,
 * so ferry_alo_write reproduces a read file byte for byte.
 */
#ifndef FERRY_ALO_H
#define FERRY_ALO_H

#include <ferry/alamo.h>
#include <ferry/image.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Chunk types of the model format. */
enum {
    FERRY_ALO_SKELETON = 0x200,
    FERRY_ALO_BONE_COUNT = 0x201,
    FERRY_ALO_BONE = 0x202,
    FERRY_ALO_BONE_NAME = 0x203,
    FERRY_ALO_BONE_V1 = 0x205,
    FERRY_ALO_BONE_V2 = 0x206,
    FERRY_ALO_MESH = 0x400,
    FERRY_ALO_MESH_NAME = 0x401,
    FERRY_ALO_MESH_INFO = 0x402,
    FERRY_ALO_CONNECTIONS = 0x600,
    FERRY_ALO_CONNECTION_COUNTS = 0x601,
    FERRY_ALO_OBJECT_CONNECTION = 0x602,
    FERRY_ALO_PROXY_CONNECTION = 0x603,
    FERRY_ALO_DAZZLE = 0x604,
    FERRY_ALO_COLLISION_TREE = 0x1200,
    FERRY_ALO_COLLISION_INFO = 0x1201,
    FERRY_ALO_COLLISION_NODES = 0x1202,
    FERRY_ALO_COLLISION_PRIMITIVES = 0x1203,
    FERRY_ALO_LIGHT = 0x1300,
    FERRY_ALO_LIGHT_NAME = 0x1301,
    FERRY_ALO_LIGHT_DATA = 0x1302,
    FERRY_ALO_SUBMESH_DATA = 0x10000,
    FERRY_ALO_SUBMESH_INFO = 0x10001,
    FERRY_ALO_VERTEX_FORMAT = 0x10002,
    FERRY_ALO_INDEX_BUFFER = 0x10004,
    FERRY_ALO_VERTEX_BUFFER_V1 = 0x10005,
    FERRY_ALO_BONE_MAPPING = 0x10006,
    FERRY_ALO_VERTEX_BUFFER_V2 = 0x10007,
    FERRY_ALO_MATERIAL = 0x10100,
    FERRY_ALO_SHADER_NAME = 0x10101,
    FERRY_ALO_PARAM_INT = 0x10102,
    FERRY_ALO_PARAM_FLOAT = 0x10103,
    FERRY_ALO_PARAM_FLOAT3 = 0x10104,
    FERRY_ALO_PARAM_TEXTURE = 0x10105,
    FERRY_ALO_PARAM_FLOAT4 = 0x10106
};

/* Sizes the spec fixes for some chunks (the writer pads to them). */
#define FERRY_ALO_BONE_COUNT_SIZE 128
#define FERRY_ALO_MESH_INFO_SIZE 128
#define FERRY_ALO_SUBMESH_INFO_SIZE 128
#define FERRY_ALO_BONE_V1_SIZE 56
#define FERRY_ALO_BONE_V2_SIZE 60
#define FERRY_ALO_LIGHT_DATA_SIZE 36
#define FERRY_ALO_VERTEX_V1_SIZE 128
#define FERRY_ALO_VERTEX_V2_SIZE 144
#define FERRY_ALO_MAX_MAPPED_BONES 24

typedef enum ferry_alo_billboard {
    FERRY_ALO_BILLBOARD_NONE = 0,
    FERRY_ALO_BILLBOARD_PARALLEL = 1,
    FERRY_ALO_BILLBOARD_FACE = 2,
    FERRY_ALO_BILLBOARD_Z_VIEW = 3,
    FERRY_ALO_BILLBOARD_Z_WIND = 4,
    FERRY_ALO_BILLBOARD_Z_LIGHT = 5,
    FERRY_ALO_BILLBOARD_SUN_GLOW = 6,
    FERRY_ALO_BILLBOARD_SUN = 7
} ferry_alo_billboard;

typedef struct ferry_alo_bone {
    const char *name;
    int32_t parent;     /* index of the parent bone, below this one; -1 for a root */
    uint32_t visible;   /* meshes and proxies on this bone (and below) are shown */
    uint32_t billboard; /* ferry_alo_billboard; always 0 for 0x205 bones */
    /* Local transform relative to the parent: 3 rows of 4 as stored, the
     * translation in the last column (column-vector convention). */
    float matrix[12];
    uint8_t chunk_version; /* 2: chunk 0x206 (0 means 2), 1: the older 0x205 */
    ferry_blob extra;      /* bytes after the known fields of 0x205/0x206 */
    ferry_chunk_layout layout;
    uint64_t offset; /* of the 0x202 chunk; FERRY_NO_OFFSET when built */
} ferry_alo_bone;

typedef struct ferry_alo_skeleton {
    ferry_alo_bone *bones;
    size_t bone_count;
    /* 0x201 after its count: 124 zero bytes in every known file. NULL data
     * writes that canonical padding. */
    ferry_blob count_extra;
    ferry_chunk_layout layout;
    uint64_t offset;
} ferry_alo_skeleton;

typedef struct ferry_alo_shader_param {
    uint32_t type; /* FERRY_ALO_PARAM_INT ... FERRY_ALO_PARAM_FLOAT4 */
    const char *name;
    int32_t int_value;     /* INT */
    float value[4];        /* FLOAT (value[0]), FLOAT3, FLOAT4 */
    const char *texture;   /* TEXTURE */
    ferry_mini_layout layout;
    uint64_t offset;
} ferry_alo_shader_param;

typedef struct ferry_alo_material {
    const char *shader; /* effect file name, e.g. "MeshGloss.fx" */
    ferry_alo_shader_param *params;
    size_t param_count;
    ferry_chunk_layout layout;
    uint64_t offset;
} ferry_alo_material;

/* One vertex of 0x10007 (144 bytes); 0x10005 lacks `unused` (128 bytes). */
typedef struct ferry_alo_vertex {
    float position[3];
    float normal[3];
    float texcoord[4][2];
    float tangent[3];
    float binormal[3];
    float color[4];
    float unused[4];
    uint32_t bone_index[4]; /* into the sub-mesh's bone mapping (0x10006) */
    float bone_weight[4];
} ferry_alo_vertex;

typedef struct ferry_alo_collision_node {
    uint8_t min[3], max[3]; /* sub-box of the parent box, in 1/255ths */
    uint16_t primitive_count; /* > 0: a leaf over primitives[link .. link+count) */
    uint16_t link;            /* leaf: first primitive; inner: first of two children */
} ferry_alo_collision_node;

typedef struct ferry_alo_collision_tree {
    float box_min[3], box_max[3];
    ferry_alo_collision_node *nodes;
    size_t node_count;
    uint16_t *primitives; /* triangle indices of the sub-mesh */
    size_t primitive_count;
    ferry_mini_layout info_layout; /* of 0x1201 */
    ferry_chunk_layout layout;
    uint64_t offset;
} ferry_alo_collision_tree;

/* Where the parts of a sub-mesh were read (FERRY_NO_OFFSET when built). */
typedef struct ferry_alo_submesh_source {
    uint64_t data, info, vertex_format, vertices, indices, bone_mapping;
} ferry_alo_submesh_source;

/* A sub-mesh: one material (0x10100) and its geometry (0x10000). */
typedef struct ferry_alo_submesh {
    ferry_alo_material material;
    const char *vertex_format; /* e.g. "alD3dVertNU2"; what the shader reads */
    ferry_alo_vertex *vertices;
    size_t vertex_count;
    uint16_t *indices; /* 3 per triangle */
    size_t triangle_count;
    uint32_t *bone_mapping; /* 0x10006: skeleton bone per palette slot */
    size_t bone_mapping_count;
    bool has_bone_mapping; /* the chunk is present (even if empty) */
    ferry_alo_collision_tree *collision; /* NULL when absent */
    uint8_t vertex_chunk_version; /* 2: 0x10007 (0 means 2), 1: 0x10005 */
    ferry_blob info_extra;        /* 0x10001 after its counts; NULL: 120 zeros */
    ferry_chunk_layout layout;    /* children of 0x10000 */
    ferry_alo_submesh_source source;
} ferry_alo_submesh;

typedef struct ferry_alo_mesh {
    const char *name;
    float bounds_min[3], bounds_max[3];
    uint32_t unused;
    uint32_t is_hidden;
    uint32_t collision_enabled;
    ferry_blob info_extra; /* 0x402 after its fields; NULL: 88 zeros */
    ferry_alo_submesh *submeshes;
    size_t submesh_count;
    ferry_chunk_layout layout;
    uint64_t offset, info_offset;
} ferry_alo_mesh;

typedef enum ferry_alo_light_type {
    FERRY_ALO_LIGHT_OMNI = 0,
    FERRY_ALO_LIGHT_DIRECTIONAL = 1,
    FERRY_ALO_LIGHT_SPOT = 2
} ferry_alo_light_type;

typedef struct ferry_alo_light {
    const char *name;
    uint32_t type; /* ferry_alo_light_type */
    float color[3];
    float intensity;
    float far_attenuation_end;
    float far_attenuation_start;
    float hotspot_size; /* radians */
    float falloff_size; /* radians */
    ferry_blob extra;   /* bytes after the 36 known bytes of 0x1302 */
    ferry_chunk_layout layout;
    uint64_t offset;
} ferry_alo_light;

typedef enum ferry_alo_object_kind { FERRY_ALO_OBJECT_MESH = 0, FERRY_ALO_OBJECT_LIGHT = 1 } ferry_alo_object_kind;

/* Meshes and lights share one numbering, in file order: connections use it. */
typedef struct ferry_alo_object {
    ferry_alo_object_kind kind;
    size_t index; /* into meshes or lights */
} ferry_alo_object;

typedef struct ferry_alo_connection {
    uint32_t object; /* index into ferry_alo_model.objects */
    uint32_t bone;
    ferry_mini_layout layout;
    uint64_t offset;
} ferry_alo_connection;

/* Optional mini-chunks of a proxy, as bits of ferry_alo_proxy.present. */
#define FERRY_ALO_PROXY_HAS_HIDDEN (1u << 7)
#define FERRY_ALO_PROXY_HAS_ALT_DECREASE (1u << 8)

typedef struct ferry_alo_proxy {
    const char *name; /* an object type the game spawns at the bone, e.g. a particle */
    uint32_t bone;
    uint32_t is_hidden;
    uint32_t alt_decrease_stay_hidden;
    uint32_t present; /* FERRY_ALO_PROXY_HAS_*: which optional fields are stored */
    ferry_mini_layout layout;
    uint64_t offset;
} ferry_alo_proxy;

/* Dazzle (0x604, a light-flare sprite): a container whose one child of
 * type 0 holds these mini-chunks. Bit n of `present` says mini-chunk n was
 * stored; bias (13) is optional and defaults to 1. */
#define FERRY_ALO_DAZZLE_ALL_REQUIRED 0x1FFFu
#define FERRY_ALO_DAZZLE_HAS_BIAS (1u << 13)

typedef struct ferry_alo_dazzle {
    float color[3];    /* 0 */
    float position[3]; /* 1: offset in the bone's space */
    float radius;      /* 2 */
    uint32_t texture_x, texture_y; /* 3, 4: cell of the texture grid */
    const char *texture;           /* 5 */
    uint32_t texture_size;         /* 6: the grid is size x size cells */
    float frequency;               /* 7: blinks per second, 0 = steady */
    float phase;                   /* 8 */
    uint32_t night_only;           /* 9 */
    uint32_t bone;                 /* 10 */
    const char *name;              /* 11 */
    uint32_t is_hidden;            /* 12 */
    float bias;                    /* 13 (optional) */
    uint32_t present;
    ferry_mini_layout layout;  /* of the type-0 child */
    ferry_chunk_layout outer;  /* children of 0x604 */
    uint64_t offset;
} ferry_alo_dazzle;

typedef struct ferry_alo_connections {
    ferry_alo_connection *objects;
    size_t object_count;
    ferry_alo_proxy *proxies;
    size_t proxy_count;
    ferry_alo_dazzle *dazzles;
    size_t dazzle_count;
    bool has_dazzle_count; /* 0x601 stores mini-chunk 9 (written when dazzles exist, too) */
    ferry_mini_layout counts_layout; /* of 0x601 */
    ferry_chunk_layout layout;
    uint64_t offset, counts_offset;
} ferry_alo_connections;

typedef struct ferry_alo_model {
    ferry_alo_skeleton skeleton;
    ferry_alo_mesh *meshes;
    size_t mesh_count;
    ferry_alo_light *lights;
    size_t light_count;
    ferry_alo_object *objects; /* meshes and lights in file order */
    size_t object_count;
    ferry_alo_connections connections;
    ferry_chunk_layout layout; /* root chunks; 0x400 and 0x1300 entries take the next object */
    const ferry_string_tail *string_tails;
    size_t string_tail_count;
    ferry_arena *arena; /* owner of a read model; NULL for one built by hand */
} ferry_alo_model;

/* The model's objects: `objects` when given, else (a model built by hand
 * may leave it empty) all meshes, then all lights. */
FERRY_API size_t ferry_alo_object_count(const ferry_alo_model *model);
FERRY_API ferry_alo_object ferry_alo_object_at(const ferry_alo_model *model, size_t index);

/* ---- reading and writing ---- */

FERRY_API ferry_result ferry_alo_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                      ferry_alo_model **out, ferry_error *err);
FERRY_API void ferry_alo_free(ferry_alo_model *model);

/* Appends the model's bytes to `out`. Fails on what cannot be encoded
 * (a string over 254 bytes in a mini-chunk, a chunk over 2 GiB, more than
 * 65535 vertices addressed by 16-bit indices is left to validation). */
FERRY_API ferry_result ferry_alo_write(const ferry_alo_model *model, ferry_buffer *out, ferry_error *err);

/* ---- validation ---- */

typedef struct ferry_alo_validate_options {
    /* Called for each texture name a material uses; return false to report
     * it as missing (a warning). NULL skips the check. */
    bool (*texture_exists)(const char *name, void *user);
    void *user;
} ferry_alo_validate_options;

/* Appends every problem found to `diags`; returns the number of errors. */
FERRY_API size_t ferry_alo_validate(const ferry_alo_model *model, const ferry_alo_validate_options *options,
                                    ferry_diagnostics *diags);

/* ---- derived data ---- */

/* World (model-space) matrix of every bone, 4x4 column-major (OpenGL/glTF
 * layout), out[16 * bone_count]. A parent index that is not below the bone's
 * own index is treated as no parent. */
FERRY_API void ferry_alo_bone_world_matrices(const ferry_alo_model *model, float *out);

/* The 4x4 column-major form of a bone's stored local matrix. */
FERRY_API void ferry_alo_bone_local_matrix(const ferry_alo_bone *bone, float out[16]);

/* Bounds of a mesh's vertex positions (all sub-meshes). False when empty. */
FERRY_API bool ferry_alo_mesh_vertex_bounds(const ferry_alo_mesh *mesh, float min[3], float max[3]);

typedef struct ferry_alo_ray_hit {
    float t;            /* distance along the ray in units of |direction| */
    uint32_t triangle;  /* index into the sub-mesh's triangles */
    float u, v;         /* barycentric coordinates of the hit */
} ferry_alo_ray_hit;

/* Nearest triangle of the sub-mesh hit by origin + t * direction, 0 <= t <= max_t,
 * found through the collision tree (both faces count). False when nothing is hit or
 * the sub-mesh has no tree; triangles and nodes out of range are skipped. */
FERRY_API bool ferry_alo_collision_raycast(const ferry_alo_submesh *submesh, const float origin[3],
                                           const float direction[3], float max_t, ferry_alo_ray_hit *hit);

/* Builds a collision tree (0x1200) for the sub-mesh's triangles, in
 * `arena`: a bounding-volume hierarchy by binned surface-area heuristic,
 * O(n log n), node boxes as bytes rounded outward (every decoded box holds
 * its triangles), the tree box the triangles' plus 0.5% of the largest
 * extent per side, as real exporters write. A sub-mesh of 0 or more than
 * 65,535 triangles, or an index past its vertices, is refused. Attach the
 * result to submesh->collision and set the mesh's collision_enabled. */
FERRY_API ferry_result ferry_alo_collision_build(const ferry_alo_submesh *submesh, ferry_arena *arena,
                                                 ferry_alo_collision_tree **out, ferry_error *err);

/* The same query over every triangle, without the tree (the reference). */
FERRY_API bool ferry_alo_raycast_brute_force(const ferry_alo_submesh *submesh, const float origin[3],
                                             const float direction[3], float max_t, ferry_alo_ray_hit *hit);

#ifdef __cplusplus
}
#endif

#endif
