/* ODOL: Bohemia Interactive's binarized P3D model, version 40 (ArmA:
 * Armed Assault) and versions 48 and 50 (ArmA 2 era), read, validated and
 * written back byte for byte.
 *
 * A file is a header, the model's info (bounds, mass, skeleton, named LOD
 * indices), the animation classes with their bone tables, the LOD
 * offsets, and the LODs ("resolutions"): each a mesh of triangles and quads
 * with its textures, materials, sections, named selections, properties and
 * per-vertex arrays. Arrays of 1024 bytes or more are LZSS-compressed
 * (lzss.h); an array keeps the bytes it was stored as, so writing it back
 * reproduces the file exactly even where another compressor would choose
 * other matches. docs/formats/odol.md has the layout and every place where
 * real files differ from the community specification.
 *
 * Plain data, as in alo.h: a read model lives in one arena
 * (ferry_odol_free); one built by hand may point anywhere, the writer only
 * reads it. Offsets and sizes that the format stores beside the data (LOD
 * start/end addresses, the polygon block size, a LOD's rest-data size) are
 * kept as read and written as they are; ferry_odol_update recomputes them
 * for a model built or changed through the API, and ferry_odol_validate
 * reports where they disagree with the data.
 */
#ifndef FERRY_ODOL_H
#define FERRY_ODOL_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version the specification describes and the writer's samples use. */
#define FERRY_ODOL_VERSION 40

/* The ArmA 2 era versions also read and written byte for byte (the layout
 * differences are in docs/formats/odol.md, "Later versions"): from v44 the
 * compressed arrays are LZO1X (lzo.h) instead of LZSS, from v45 normals,
 * tangent vectors and UV coordinates are packed (ferry_odol_vertex_normal,
 * ferry_odol_vertex_uv decode them), v48 adds a shadow offset, v50 moves
 * the clip flags after the rest size and stores a vertex count in their
 * place. Other versions are refused with a message naming them. */
#define FERRY_ODOL_VERSION_48 48
#define FERRY_ODOL_VERSION_50 50

/* An array that may be stored compressed: a uint32 count, then count *
 * element-size bytes, LZSS-compressed (with a checksum) when that is at
 * least FERRY_LZSS_MIN_COMPRESSED_SIZE bytes; from v44 an LZO1X stream
 * (no checksum) under the same rule. */
typedef struct ferry_odol_array {
    const uint8_t *data; /* decoded: count * element size bytes (NULL when empty) */
    uint32_t count;
    /* The bytes as stored after the count (raw, or the LZSS stream and its
     * checksum). While non-NULL the writer copies them verbatim; clear it
     * after changing `data` (ferry_odol_update does not). */
    const uint8_t *stored;
    size_t stored_size;
    uint64_t offset; /* of the count; FERRY_NO_OFFSET when built */
} ferry_odol_array;

/* A "condensed" array: a count, a flag, then either one value for every
 * element (default fill) or a ferry_odol_array body without its count. */
typedef struct ferry_odol_condensed {
    ferry_odol_array array; /* array.count is the element count; data NULL when default_fill */
    uint8_t default_fill; /* nonzero: one value for all; the stored byte, kept as read */
    uint8_t default_value[12]; /* the element's bytes (element size of the field) */
} ferry_odol_condensed;

typedef struct ferry_odol_bone_name {
    const char *name;
    const char *parent; /* "" for a root */
} ferry_odol_bone_name;

typedef struct ferry_odol_skeleton {
    const char *name; /* "" when the model has no skeleton (nothing else stored) */
    uint8_t is_discrete;
    ferry_odol_bone_name *bones;
    uint32_t bone_count;
    /* v41+, after the bones when there is a skeleton ("" in real files;
     * NULL reads as ""). */
    const char *pivots_name;
} ferry_odol_skeleton;

/* Named LOD indices of ModelInfo (255: none), in file order. */
enum {
    FERRY_ODOL_SPECIAL_LOD_MEMORY,
    FERRY_ODOL_SPECIAL_LOD_GEOMETRY,
    FERRY_ODOL_SPECIAL_LOD_FIRE,
    FERRY_ODOL_SPECIAL_LOD_VIEW,
    FERRY_ODOL_SPECIAL_LOD_VIEW_PILOT,
    FERRY_ODOL_SPECIAL_LOD_VIEW_GUNNER,
    FERRY_ODOL_SPECIAL_LOD_UNKNOWN, /* signed in the public readers; meaning unknown */
    FERRY_ODOL_SPECIAL_LOD_VIEW_CARGO,
    FERRY_ODOL_SPECIAL_LOD_LAND_CONTACT,
    FERRY_ODOL_SPECIAL_LOD_ROADWAY,
    FERRY_ODOL_SPECIAL_LOD_PATHS,
    FERRY_ODOL_SPECIAL_LOD_HITPOINTS,
    FERRY_ODOL_SPECIAL_LOD_COUNT
};

typedef struct ferry_odol_model_info {
    int32_t special;
    float bounding_sphere, geometry_sphere;
    int32_t remarks, and_hints, or_hints;
    float aiming_center[3];
    uint32_t color, color_type; /* packed ARGB */
    float view_density;
    float bbox_min[3], bbox_max[3];
    float bounding_center[3], geometry_center[3], center_of_mass[3];
    float inv_inertia[9];
    uint8_t auto_center, lock_auto_center, can_occlude, can_be_occluded;
    uint8_t force_not_alpha;
    int32_t sb_source;
    uint8_t prefer_shadow_volume;
    uint8_t animated;
    ferry_odol_skeleton skeleton;
    uint8_t map_type;
    ferry_odol_array mass_array; /* float per point of the geometry LOD */
    float mass, inv_mass, armor, inv_armor;
    uint8_t special_lods[FERRY_ODOL_SPECIAL_LOD_COUNT];
    uint32_t min_shadow;
    uint8_t can_blend;
    const char *class_name; /* "House", "Building", ... */
    const char *damage;     /* "Tent", "Building", ... */
    uint8_t frequent;
    uint32_t unused31;
    /* Stored after can_be_occluded: v42+ (ht_min..mf_max), v43+ (m_fact,
     * t_body); after prefer_shadow_volume: v48+ (shadow_offset). */
    float ht_min, ht_max, af_max, mf_max;
    float m_fact, t_body;
    float shadow_offset;
} ferry_odol_model_info;

/* Animation types (model.cfg "type"). */
enum {
    FERRY_ODOL_ANIM_ROTATION = 0,
    FERRY_ODOL_ANIM_ROTATION_X = 1,
    FERRY_ODOL_ANIM_ROTATION_Y = 2,
    FERRY_ODOL_ANIM_ROTATION_Z = 3,
    FERRY_ODOL_ANIM_TRANSLATION = 4,
    FERRY_ODOL_ANIM_TRANSLATION_X = 5,
    FERRY_ODOL_ANIM_TRANSLATION_Y = 6,
    FERRY_ODOL_ANIM_TRANSLATION_Z = 7,
    FERRY_ODOL_ANIM_DIRECT = 8,
    FERRY_ODOL_ANIM_HIDE = 9
};

typedef struct ferry_odol_animation_class {
    uint32_t type; /* FERRY_ODOL_ANIM_* */
    const char *name;
    const char *source;
    float min_phase, max_phase, min_value, max_value;
    uint32_t source_address;
    /* Rotation types: angle0/angle1 (radians); translation types:
     * offset0/offset1; hide: hide_value in params[0]. */
    float params[2];
    /* Direct: axis position, axis direction, angle (radians), axis offset. */
    float axis_pos[3], axis_dir[3], angle, axis_offset;
} ferry_odol_animation_class;

/* Per LOD, per animation class: the bone it moves (-1: none) and, for
 * types other than direct and hide when a bone is given, the axis. */
typedef struct ferry_odol_anim_bone {
    int32_t bone;
    float axis_pos[3], axis_dir[3];
} ferry_odol_anim_bone;

typedef struct ferry_odol_bone_anims {
    uint32_t *animations; /* indices into the animation classes */
    uint32_t count;
} ferry_odol_bone_anims;

typedef struct ferry_odol_animations {
    uint8_t present; /* the "animations exist" flag: nonzero when present (the stored byte) */
    ferry_odol_animation_class *classes;
    uint32_t class_count;
    /* Per LOD (lod_count of them, as stored): per bone, its animations. */
    uint32_t lod_count;
    ferry_odol_bone_anims **bones_to_anims; /* [lod][bone] */
    uint32_t *bone_counts;                  /* [lod] */
    ferry_odol_anim_bone *anims_to_bones;   /* [lod * class_count + class] */
} ferry_odol_animations;

/* What the engine keeps of a LOD it has not loaded (stored only for LODs
 * whose "permanent" flag is false). */
typedef struct ferry_odol_lod_info {
    int32_t face_count;
    uint32_t color;
    int32_t special;
    uint32_t or_hints;
    uint8_t has_skeleton;
} ferry_odol_lod_info;

typedef struct ferry_odol_proxy {
    const char *model; /* "\ca\a10\agm65" (.p3d implied) */
    float transform[12]; /* 3x3 orientation (rows as stored: aside, up, dir), then position */
    int32_t sequence_id, selection_index, bone_index, section_index;
} ferry_odol_proxy;

typedef struct ferry_odol_int_array {
    int32_t *values;
    uint32_t count;
} ferry_odol_int_array;

typedef struct ferry_odol_stage_texture {
    uint32_t filter; /* 0 point .. 3 anisotropic */
    const char *texture;
    uint32_t stage;
} ferry_odol_stage_texture;

typedef struct ferry_odol_stage_transform {
    uint32_t uv_source;
    float transform[12];
} ferry_odol_stage_transform;

typedef struct ferry_odol_material {
    const char *name; /* the .rvmat path */
    uint32_t version; /* of the material record; v40 files hold 9 */
    float emissive[4], ambient[4], diffuse[4], forced_diffuse[4], specular[4], specular2[4];
    float specular_power;
    uint32_t pixel_shader, vertex_shader, main_light, fog_mode;
    uint8_t unused3; /* material version 3 only */
    const char *surface; /* .bisurf path (material version >= 6) */
    uint32_t render_flag_count, render_flags; /* material version >= 4 */
    ferry_odol_stage_texture *stages;
    uint32_t stage_count;
    ferry_odol_stage_transform *transforms;
    uint32_t transform_count;
    ferry_odol_stage_texture ti_stage; /* material version >= 10 */
} ferry_odol_material;

/* A face: 3 or 4 indices into the LOD's vertices, in stored order. */
typedef struct ferry_odol_face {
    uint8_t count;
    uint16_t vertices[4];
} ferry_odol_face;

typedef struct ferry_odol_section {
    /* Face bounds in bytes of the engine's in-memory face layout (8 per
     * triangle, 10 per quad), not face indices. */
    int32_t face_begin, face_end;
    int32_t min_bone, bone_count;
    uint32_t unused;
    int16_t texture; /* index into the LOD's textures, -1: none */
    uint32_t special; /* flags */
    int32_t material; /* index into the LOD's materials, -1: named below */
    const char *material_name; /* when material == -1 */
    float *area_over_tex;
    uint32_t area_count;
} ferry_odol_section;

typedef struct ferry_odol_selection {
    const char *name;
    ferry_odol_array faces; /* uint16 face indices */
    int32_t unused;
    uint8_t is_sectional;
    ferry_odol_array sections; /* int32 section indices */
    ferry_odol_array vertices; /* uint16 vertex indices */
    /* uint8 weights, one per selected vertex or none; its count is stored
     * (the "expected size") before the possibly compressed bytes. */
    ferry_odol_array weights;
} ferry_odol_selection;

typedef struct ferry_odol_property {
    const char *name, *value;
} ferry_odol_property;

typedef struct ferry_odol_keyframe {
    float time;
    float *points; /* 3 per point */
    uint32_t point_count;
} ferry_odol_keyframe;

/* v45+: the range a packed UV set's coordinates are scaled into. */
typedef struct ferry_odol_uv_range {
    float min_u, min_v, max_u, max_v;
} ferry_odol_uv_range;

/* Element sizes by version: v40 (and v44) store UVs as two floats (8
 * bytes), normals as three floats (12) and tangent vectors as six floats
 * (24). From v45 a UV is two int16 (4 bytes) scaled into the set's
 * ferry_odol_uv_range, a normal is one packed uint32 and a tangent pair
 * two of them (8 bytes); the arrays keep these elements as stored. */
typedef struct ferry_odol_lod {
    float resolution; /* copied from the header for convenience */
    uint8_t permanent; /* the stored flag byte; zero: `info` is stored in the header */
    ferry_odol_lod_info info;
    ferry_odol_proxy *proxies;
    uint32_t proxy_count;
    ferry_odol_int_array sub_skeleton_to_skeleton; /* the spec's "items" */
    ferry_odol_int_array *skeleton_to_sub_skeleton; /* the spec's "used bones" */
    uint32_t skeleton_to_sub_skeleton_count;
    ferry_odol_condensed point_flags; /* int32 clip/hint flags per point (v50+: after rest_size) */
    int32_t or_hints, and_hints;
    float bmin[3], bmax[3], bcenter[3], bradius;
    const char **textures;
    uint32_t texture_count;
    ferry_odol_material *materials;
    uint32_t material_count;
    ferry_odol_array point_to_vertex; /* uint16 */
    ferry_odol_array vertex_to_point; /* uint16 */
    uint32_t face_block_size; /* stored: in-memory size of the faces (8/10 each) */
    uint16_t face_unused;
    ferry_odol_face *faces;
    uint32_t face_count;
    uint64_t faces_offset;
    ferry_odol_section *sections;
    uint32_t section_count;
    ferry_odol_selection *selections;
    uint32_t selection_count;
    ferry_odol_property *properties;
    uint32_t property_count;
    ferry_odol_keyframe *keyframes;
    uint32_t keyframe_count;
    int32_t color_top, color, special;
    uint8_t vertex_bone_ref_is_simple;
    uint32_t rest_size; /* stored byte count of what follows it in the LOD */
    ferry_odol_condensed *uv_sets; /* float u, v per vertex (8 bytes; v45+ packed, 4) */
    uint32_t uv_set_count;
    ferry_odol_array positions; /* float x, y, z per vertex */
    ferry_odol_condensed normals; /* float x, y, z per vertex (12 bytes; v45+ packed, 4) */
    ferry_odol_array st_coords; /* float s[3], t[3] per vertex (24 bytes; v45+ packed, 8) */
    ferry_odol_array vertex_bone_refs; /* 12 bytes per vertex: count, 4 x (bone, weight) bytes */
    ferry_odol_array neighbor_bone_refs; /* 32 bytes per vertex */
    uint64_t offset; /* where the LOD starts; FERRY_NO_OFFSET when built */
    /* v50+: the vertex count stored where older versions keep point_flags
     * (which v50 stores right after rest_size instead). */
    uint32_t vertex_count;
    /* v45+: one per UV set, stored before each set (NULL before v45; a
     * built v45+ model without them writes 0, 0, 1, 1 for every set). */
    ferry_odol_uv_range *uv_ranges;
} ferry_odol_lod;

typedef struct ferry_odol_model {
    uint32_t version; /* 40, 48 or 50: decides the layout throughout */
    uint32_t lod_count;
    float *resolutions; /* as stored in the header, one per LOD */
    ferry_odol_model_info info;
    ferry_odol_animations animations;
    uint32_t *lod_starts, *lod_ends; /* stored byte offsets of each LOD */
    ferry_odol_lod *lods; /* in the header's order (resolutions[i] is lods[i]'s) */
    /* The order the LODs' data is stored in: indices into lods. Real files
     * store them by descending resolution, not in the header's order. */
    uint32_t *storage_order;
    /* Bytes after the last LOD (none in real files), kept for writing. */
    const uint8_t *trailing;
    size_t trailing_size;
    ferry_arena *arena;
} ferry_odol_model;

/* Reads a v40, v48 or v50 file. Other ODOL versions and MLOD (editable)
 * files are FERRY_ERR_UNSUPPORTED with a message naming the version. Errors are
 * located: byte offset and a path such as "lods[3]/selections[2]/vertices". */
FERRY_API ferry_result ferry_odol_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                       ferry_odol_model **out, ferry_error *err);
FERRY_API void ferry_odol_free(ferry_odol_model *model);

/* The version a file states (0 when not an ODOL file). */
FERRY_API uint32_t ferry_odol_detect_version(const uint8_t *data, size_t size);

/* Appends the model's bytes. A read model comes out byte for byte; arrays
 * without stored bytes are compressed when their size calls for it. */
FERRY_API ferry_result ferry_odol_write(const ferry_odol_model *model, ferry_buffer *out, ferry_error *err);

/* Recomputes what the file stores about its own layout: each LOD's face
 * block size and rest size (and v50 vertex count), and the LOD start/end
 * offsets. For models built
 * or changed through the API, before writing. */
FERRY_API ferry_result ferry_odol_update(ferry_odol_model *model, ferry_error *err);

typedef struct ferry_odol_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_odol_validate_options;

/* Indices in range (faces, selections, sections, proxies, point maps),
 * stored offsets and sizes that agree with the data, resolutions, array
 * sizes that agree with the vertex count. Returns the error count.
 * `options` may be NULL (defaults). */
FERRY_API size_t ferry_odol_validate(const ferry_odol_model *model, const ferry_odol_validate_options *options,
                                     ferry_diagnostics *diags);

/* Whether ferry reads and writes this ODOL version (40, 48, 50). */
FERRY_API bool ferry_odol_version_supported(uint32_t version);

/* A v45+ packed direction (normals, tangent vectors): three signed 10-bit
 * fields, x in bits 0-9, y in 10-19, z in 20-29, each scaled by -1/511. */
FERRY_API void ferry_odol_decode_normal(uint32_t packed, float out[3]);

/* A vertex's normal as three floats, whatever the model's version
 * (default-filled arrays included). false when the LOD stores no normal for
 * that vertex. */
FERRY_API bool ferry_odol_vertex_normal(const ferry_odol_model *model, const ferry_odol_lod *lod, uint32_t vertex,
                                        float out[3]);

/* A vertex's coordinates in one UV set, whatever the version: v45+ packs
 * u and v as int16 s, decoded as min + (s + 32767) * (max - min) / 65534
 * with the set's range. false when the set or vertex is not stored. */
FERRY_API bool ferry_odol_vertex_uv(const ferry_odol_model *model, const ferry_odol_lod *lod, uint32_t set, uint32_t vertex,
                                    float out[2]);

/* The name of a resolution: "1.000" for visual LODs, "View Gunner",
 * "Geometry", "Memory", "Shadow Volume 11010"... into out. */
FERRY_API void ferry_odol_resolution_name(float resolution, char *out, size_t out_size);

/* ---- the files a model names: textures and materials ----
 *
 * A model names its textures and materials by the engine's paths
 * ("csj_gyroac\t\gyro1.pac", "\ca\data\default.rvmat"): backslashes,
 * any case, starting with the prefix of the addon holding the file. The
 * engine finds them in its loaded addons, each mounted at its prefix.
 * ferry_odol_find_files does the same through file sources
 * (docs/formats/odol-gltf.md, "Texture resolution"). */

typedef struct ferry_odol_root {
    const ferry_file_source *source;
    /* The engine path the source's root stands for: "csj_gyroac" or
     * "x\addon\path" for one addon (an addon folder, a PBO archive with
     * its prefix); "" for the game's root (a P:-drive style tree: paths are
     * literal). NULL: the source is a folder holding addon folders, each
     * mounted at the prefix its $PREFIX$ file names ($PBOPREFIX$ and
     * pboprefix.txt also read; none: the folder's own name), with the
     * source itself also searched as a P:-drive tree (literal paths) and,
     * when it holds a $PREFIX$ file itself, as that one addon; folders
     * without a prefix file are looked into for deeper ones (three levels,
     * @mod/addons/NAME). */
    const char *prefix;
} ferry_odol_root;

typedef struct ferry_odol_found {
    const ferry_file_source *source; /* the root's source holding it; NULL: not found */
    size_t root;                     /* its index in the roots given */
    char *path;                      /* its path in source ('/'-separated, as listed there); NULL: not found */
} ferry_odol_found;

/* Resolves each of `names` (engine paths as a model stores them) to a file
 * of one of the roots, as the engine does: ignoring case, '\' and '/'
 * alike, a leading '\' ignored, a ".pac" name also found as ".paa" and the
 * reverse (the exact name first). Roots are searched in order (the first
 * holding the file wins); within a root the longest matching prefix is
 * tried first. Empty names and procedural textures ("#(...)") are not
 * looked up (not found). Fills found[0 .. name_count - 1] (release with
 * ferry_odol_found_free). A root that cannot be listed, or whose prefix
 * file cannot be read, finds nothing there (not an error); fails only on
 * memory (FERRY_ERR_NOMEM) or a NULL argument (FERRY_ERR_ARGUMENT). */
FERRY_API ferry_result ferry_odol_find_files(const ferry_odol_root *roots, size_t root_count, const char *const *names,
                                             size_t name_count, ferry_odol_found *found, ferry_error *err);
FERRY_API void ferry_odol_found_free(ferry_odol_found *found, size_t count);

/* Whether `folder` of `source` ("" for its root) is the root of an unpacked
 * addon: it holds a prefix file ($PREFIX$, $PBOPREFIX$, $PBOPREFIX$.txt or
 * pboprefix.txt, any case), whose prefix ferry_odol_find_files mounts it
 * at. A model file of the disk belongs to the nearest such folder at or
 * above its own (ferry_export_input_open looks up to 8 levels up): its
 * textures are found there, as a model in a PBO finds them in its archive. */
FERRY_API bool ferry_odol_addon_root(const ferry_file_source *source, const char *folder);

#ifdef __cplusplus
}
#endif

#endif
