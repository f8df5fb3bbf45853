/* The format-neutral scene: what every format converts into and the glTF
 * writer reads. It knows nothing of any game format; converters (ALO, ALA,
 * particles, ODOL, ALM) fill it, ferry_gltf_* write it.
 *
 * Conventions are glTF's, so the writer stays a plain serializer: right-
 * handed, Y up, metres; matrices 4x4 column-major; quaternions x, y, z, w;
 * a node's local transform is translation * rotation * scale. Converters do
 * the change of axes (documented per format).
 *
 * Plain data: a scene built by a converter lives in one arena
 * (ferry_scene_free); one built by hand may point anywhere. "extras"
 * fields hold a ferry_json of kind OBJECT (or NULL), written as the glTF
 * object's "extras".
 *
 * References between objects are indices into the scene's arrays. One
 * that may be absent (a node's parent, mesh, skin and light, a
 * primitive's material, a skin's skeleton, a material's textures) comes
 * with a flag: `X` is used only when `has_X` is true (`node.has_mesh = true;
 * node.mesh = 2;`, the same two fields from ctypes), so a zero-initialised
 * struct refers to nothing (a root node without mesh, skin or light; a
 * primitive with the default material; a material without textures).
 * Leave `X` 0 when `has_X` is false: the glTF writer refuses a non-zero
 * index without its flag, the likely sign of a flag forgotten. A required
 * reference (a channel's node, a skin's joints, a primitive's joints) has
 * no flag.
 */
#ifndef FERRY_SCENE_H
#define FERRY_SCENE_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Extras as data: a small JSON-like value tree. Converters build it in the
 * scene's arena; the glTF reader fills it from a file's "extras"; the glTF
 * writer serialises it once. Integers and reals are distinct kinds so that
 * 1 and 1.0 stay apart on a round trip. Objects keep their members in
 * order; a key must not appear twice in one object (the writer refuses it).
 * Strings are bytes with a length: they need not be UTF-8 nor end with a
 * NUL; the glTF writer keeps their ASCII and writes '?' for every byte of
 * a string that is not valid UTF-8 (as it does for names). Reals must be
 * finite for the writer. */
typedef enum ferry_json_kind {
    FERRY_JSON_NULL = 0,
    FERRY_JSON_BOOL = 1,
    FERRY_JSON_INTEGER = 2,
    FERRY_JSON_REAL = 3,
    FERRY_JSON_STRING = 4,
    FERRY_JSON_ARRAY = 5,
    FERRY_JSON_OBJECT = 6
} ferry_json_kind;

typedef struct ferry_json_member ferry_json_member;

typedef struct ferry_json {
    ferry_json_kind kind;
    bool boolean;                          /* BOOL */
    int64_t integer;                       /* INTEGER */
    double real;                           /* REAL */
    const char *string;                    /* STRING: `length` bytes */
    size_t length;
    const struct ferry_json *const *items; /* ARRAY: `count` values */
    const ferry_json_member *members;      /* OBJECT: `count` members, in order */
    size_t count;
} ferry_json;

struct ferry_json_member {
    const char *key; /* `key_length` bytes */
    size_t key_length;
    const ferry_json *value;
};

/* The value of member `key` (NUL-terminated) of an OBJECT; NULL when
 * `object` is NULL or not an object or has no such member. */
FERRY_API const ferry_json *ferry_json_get(const ferry_json *object, const char *key);

typedef struct ferry_scene_image {
    const char *name;
    /* "image/png" (what converters produce), "image/jpeg", or
     * "image/vnd-ms.dds" (ferry_alo_scene_options.native_textures only) */
    const char *mime_type;
    const uint8_t *data;   /* encoded bytes */
    size_t size;
    const char *source_path; /* where it came from, for messages; may be NULL */
    /* Set instead of data (NULL, size 0) when the scene refers to the
     * image's file where it lies rather than holding its bytes: the file's
     * absolute path on the disk (UTF-8), in its own format (a DDS or TGA
     * texture; mime_type is then NULL). Only asked for by
     * ferry_alo_scene_options.native_textures, for a consumer on the
     * same machine that reads those formats (Blender). */
    const char *linked_path;
} ferry_scene_image;

typedef enum ferry_alpha_mode { FERRY_ALPHA_OPAQUE = 0, FERRY_ALPHA_MASK = 1, FERRY_ALPHA_BLEND = 2 } ferry_alpha_mode;

typedef struct ferry_scene_material {
    const char *name;
    float base_color_factor[4];   /* 1,1,1,1 by default */
    bool has_base_color_image;    /* false: no base colour texture */
    uint32_t base_color_image;    /* into the scene's images */
    uint32_t base_color_texcoord; /* TEXCOORD_n the texture uses */
    bool has_normal_image;        /* false: no normal texture */
    uint32_t normal_image;
    uint32_t normal_texcoord;
    float normal_scale;           /* 1 by default */
    bool has_emissive_image;      /* false: no emissive texture */
    uint32_t emissive_image;
    float emissive_factor[3];
    float metallic_factor;  /* 0 for these engines' materials */
    float roughness_factor; /* 1 by default */
    ferry_alpha_mode alpha_mode;
    float alpha_cutoff; /* MASK only */
    bool double_sided;
    bool unlit; /* KHR_materials_unlit: additive glows, sprites */
    const ferry_json *extras;
} ferry_scene_material;

/* A morph target: position (and optionally normal) displacements. */
typedef struct ferry_scene_morph_target {
    const float *positions; /* 3 per vertex */
    const float *normals;   /* 3 per vertex, or NULL */
    const char *name;
} ferry_scene_morph_target;

typedef enum ferry_primitive_mode { FERRY_PRIMITIVE_TRIANGLES = 4, FERRY_PRIMITIVE_POINTS = 0 } ferry_primitive_mode;

typedef struct ferry_scene_primitive {
    size_t vertex_count;
    const float *positions; /* 3 per vertex (required) */
    const float *normals;   /* 3 per vertex, unit length, or NULL */
    const float *tangents;  /* 4 per vertex (xyz unit, w = +-1 handedness), or NULL */
    const float *texcoords[4]; /* 2 per vertex each; the first texcoord_count are used */
    size_t texcoord_count;
    const float *colors; /* COLOR_0: 4 per vertex (linear RGBA), or NULL */
    const uint16_t *joints; /* JOINTS_0: 4 per vertex, indices into the skin's joints, or NULL */
    const float *weights;   /* WEIGHTS_0: 4 per vertex, summing to 1 */
    const uint32_t *indices; /* 3 per triangle, or NULL for non-indexed */
    size_t index_count;
    ferry_primitive_mode mode;
    bool has_material; /* false: the default material */
    uint32_t material; /* into the scene's materials */
    ferry_scene_morph_target *targets;
    size_t target_count;
    const ferry_json *extras;
} ferry_scene_primitive;

typedef struct ferry_scene_mesh {
    const char *name;
    ferry_scene_primitive *primitives;
    size_t primitive_count;
    const float *default_weights; /* one per morph target, or NULL (all 0) */
    const ferry_json *extras;
} ferry_scene_mesh;

typedef struct ferry_scene_skin {
    const char *name;
    const int32_t *joints; /* node indices */
    size_t joint_count;
    const float *inverse_bind_matrices; /* 16 per joint, column-major; NULL: identities */
    bool has_skeleton;  /* false: no common root named */
    uint32_t skeleton; /* the common root node */
} ferry_scene_skin;

typedef enum ferry_light_type {
    FERRY_LIGHT_POINT = 0,
    FERRY_LIGHT_DIRECTIONAL = 1,
    FERRY_LIGHT_SPOT = 2
} ferry_light_type;

/* KHR_lights_punctual: a light shines down its node's local -Z. */
typedef struct ferry_scene_light {
    const char *name;
    ferry_light_type type;
    float color[3];
    float intensity;
    float range;             /* 0: infinite */
    float inner_cone_angle;  /* spot, radians, < outer */
    float outer_cone_angle;  /* spot, radians, <= pi/2 */
} ferry_scene_light;

typedef struct ferry_scene_node {
    const char *name;
    bool has_parent;  /* false: a root of the scene */
    uint32_t parent;  /* an earlier node: parents come before children */
    float translation[3];
    float rotation[4]; /* unit quaternion x, y, z, w */
    float scale[3];
    bool has_mesh;
    uint32_t mesh;
    bool has_skin;     /* needs a mesh */
    uint32_t skin;
    bool has_light;
    uint32_t light;
    const ferry_json *extras;
} ferry_scene_node;

typedef enum ferry_anim_path {
    FERRY_ANIM_TRANSLATION = 0,
    FERRY_ANIM_ROTATION = 1,
    FERRY_ANIM_SCALE = 2,
    FERRY_ANIM_WEIGHTS = 3
} ferry_anim_path;

/* CUBICSPLINE (glTF's Hermite spline): each key holds three values, the
 * in-tangent, the value and the out-tangent, so `values` has 3 x key_count
 * x width floats. */
typedef enum ferry_anim_interpolation {
    FERRY_INTERP_LINEAR = 0,
    FERRY_INTERP_STEP = 1,
    FERRY_INTERP_CUBICSPLINE = 2
} ferry_anim_interpolation;

typedef struct ferry_scene_channel {
    int32_t node; /* the node it moves (required) */
    ferry_anim_path path;
    ferry_anim_interpolation interpolation;
    const float *times; /* seconds, strictly increasing */
    size_t key_count;
    /* key_count x (3 translation/scale, 4 rotation, target_count weights);
     * three times that for CUBICSPLINE */
    const float *values;
} ferry_scene_channel;

typedef struct ferry_scene_animation {
    const char *name;
    ferry_scene_channel *channels;
    size_t channel_count;
    const ferry_json *extras;
} ferry_scene_animation;

typedef struct ferry_scene {
    ferry_scene_node *nodes;
    size_t node_count;
    ferry_scene_mesh *meshes;
    size_t mesh_count;
    ferry_scene_material *materials;
    size_t material_count;
    ferry_scene_image *images;
    size_t image_count;
    ferry_scene_skin *skins;
    size_t skin_count;
    ferry_scene_light *lights;
    size_t light_count;
    ferry_scene_animation *animations;
    size_t animation_count;
    const char *name;
    const ferry_json *extras; /* the scene's extras */
    const char *generator;   /* asset.generator; NULL: "ferry <version>" */
    ferry_arena *arena;      /* owner when built by a converter */
} ferry_scene;

FERRY_API void ferry_scene_free(ferry_scene *scene);

/* The animation `which` names, as a front end's choice reads it (ferry
 * convert's --animation N|NAME): a number in decimal (strtoull's reading,
 * the whole text) below the count is that index, from 0; any other text is
 * the first animation of that name; NULL is the only one of a scene that
 * holds exactly one. True with *index set; false when nothing matches (or
 * `which` is NULL and the scene holds none or several). */
FERRY_API bool ferry_scene_find_animation(const ferry_scene *scene, const char *which, size_t *index);

/* Defaults for a material (white, no textures, roughness 1, opaque): what
 * zero does not give (colour and roughness 0). */
FERRY_API void ferry_scene_material_init(ferry_scene_material *material);
/* Defaults for a node (a root, identity transform, no mesh, skin or
 * light): zero gives all but the transform (rotation and scale 0). */
FERRY_API void ferry_scene_node_init(ferry_scene_node *node);

#ifdef __cplusplus
}
#endif

#endif
