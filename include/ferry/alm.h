/* ALM: the ALOD progressive-level-of-detail skinned mesh (big-endian).
 *
 * A file holds a full-resolution mesh and a list of collapse records;
 * applying the first k records, in file order, gives a coarser mesh.
 * Positions are "animation space" vectors: per bone, a homogeneous
 * 4-vector; the skinned position is the sum over those bones of the bone's
 * 4x4 transform times its vector (linear blend skinning is the special case
 * where each vector is weight * (x, y, z, 1)).
 *
 * Plain data: a read mesh lives in one arena and is released with
 * ferry_alm_free; one built by hand may point anywhere, since the writer
 * only reads it. Every real number is held as a double, because versions 1
 * and 2 store 64-bit floats and later versions 32-bit ones: both convert
 * exactly, so writing back reproduces the file byte for byte.
 * docs/formats/alm.md has the layout and every decision the spec leaves open.
 */
#ifndef FERRY_ALM_H
#define FERRY_ALM_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Versions this library reads and writes. */
#define FERRY_ALM_VERSION_MIN 2
#define FERRY_ALM_VERSION_MAX 10

/* Bone flags (version 6 on). */
enum {
    FERRY_ALM_BONE_FIXED_TRANSLATE = 0x01,
    FERRY_ALM_BONE_FIXED_ROTATE = 0x02,
    FERRY_ALM_BONE_FIXED_SCALE = 0x04,
    FERRY_ALM_BONE_UNIFORM_SCALE = 0x08,
    FERRY_ALM_BONE_EXPECT_L_LINEAR = 0x10000,
    FERRY_ALM_BONE_EXPECT_L_TRANSLATE = 0x20000,
    FERRY_ALM_BONE_EXPECT_GTG_LINEAR = 0x40000,
    FERRY_ALM_BONE_EXPECT_GTG_TRANSLATE = 0x80000,
    FERRY_ALM_BONE_EXPECT_GTG_WEIGHT = 0x100000,
    FERRY_ALM_BONE_EXPECT_LTGTGL = 0x200000
};

/* Marker of an influence collapse record (version 9 on). */
#define FERRY_ALM_INFLUENCE_MARKER 0xFFFFFFFFu

typedef struct ferry_alm_component {
    uint32_t bone;
    double coords[4]; /* homogeneous, in the bone's space */
} ferry_alm_component;

/* An animation-space vector: a list of per-bone 4-vectors. */
typedef struct ferry_alm_vector {
    ferry_alm_component *components;
    uint32_t count;
} ferry_alm_vector;

typedef struct ferry_alm_bone {
    int32_t parent; /* -1 for a root bone */
    /* Row-major 4x4 pre-multiplication matrix (column vectors: p' = M p),
     * bone space to parent space, for the rest pose. Versions before 5
     * store a 3x3 matrix and an offset: held here as the 4x4 it means
     * (bottom row 0 0 0 1). */
    double transform[16];
    /* Version 6 on. */
    uint32_t flags;
    double max_singular;
    double translate_centre[3];
    double translate_radius;
    double expect_L[16];
    double expect_GTG[16];
    double expect_LTGTGL;
    /* Version 10 on. */
    double tail[3];
} ferry_alm_bone;

typedef struct ferry_alm_vertex {
    uint32_t position;            /* index into positions */
    ferry_alm_vector tangents[2]; /* version 7 on: the tangent plane */
    double tex_coords[2];         /* s, t */
} ferry_alm_vertex;

typedef struct ferry_alm_texture {
    uint32_t width, height;
    uint32_t channels;   /* 3 (RGB) or 4 (RGBA) */
    uint32_t is_signed;  /* nonzero: vectors; zero: colours */
    const uint8_t *values; /* width * height * channels bytes, rows top first as stored */
} ferry_alm_texture;

typedef struct ferry_alm_tangent_entry {
    int32_t patch;
    ferry_alm_vector tangents[2];
} ferry_alm_tangent_entry;

/* Version 8 on. */
typedef struct ferry_alm_tangent_map {
    uint32_t width, height;
    ferry_alm_tangent_entry *entries; /* width * height, row major */
} ferry_alm_tangent_map;

typedef struct ferry_alm_material {
    int32_t texture_id; /* -1: no diffuse map */
    int32_t tangent_id; /* version 8 on; -1: no tangent map */
    /* Before version 8: per-bone tangent textures (bones[i], tangent_ids[i]). */
    uint32_t weight_count;
    uint32_t *bones;
    uint32_t *tangent_ids;
} ferry_alm_material;

typedef struct ferry_alm_triangle {
    uint32_t vertices[3]; /* counter-clockwise */
    uint32_t material;
} ferry_alm_triangle;

typedef enum ferry_alm_collapse_kind {
    FERRY_ALM_EDGE_COLLAPSE = 0,
    FERRY_ALM_INFLUENCE_COLLAPSE = 1 /* version 9 on */
} ferry_alm_collapse_kind;

typedef struct ferry_alm_collapse {
    uint8_t kind; /* ferry_alm_collapse_kind */
    /* Edge collapse: positions p1 and p2 become one; the vertices of the
     * patch left of p1->p2 become vl, those on the right vr (both on the
     * same position). */
    uint32_t p1, p2, vl, vr;
    /* Influence collapse: `pair_count` pairs (old vertex, new vertex): every
     * vertex of one position moves to a new vertex on the simplified
     * position (the old vector with fewer bones; positions count every
     * level of detail). */
    uint32_t pair_count;
    uint32_t *pairs;
    double error; /* the error metric of this collapse */
} ferry_alm_collapse;

/* Where the records of a read mesh start in the file, for located
 * diagnostics. Fixed-size records (bones, triangles, frames) are found from
 * their section's start and their size; records of varying size each have
 * their own offset. */
typedef struct ferry_alm_offsets {
    uint64_t bones, p_matrix, triangles, frames; /* section starts */
    uint32_t bone_size, frame_size;              /* bytes per bone, per frame */
    uint64_t *comments, *positions, *vertices, *textures, *tangent_maps, *materials, *collapses;
    uint64_t end; /* the file's size */
} ferry_alm_offsets;

typedef struct ferry_alm_mesh {
    uint32_t version; /* 2..10 */
    const char **comments; /* not NUL-terminated in the file; NUL-terminated here */
    uint32_t *comment_lengths;
    uint32_t comment_count;
    ferry_alm_bone *bones;
    uint32_t bone_count;
    /* Version 6 on: the user-given P matrix, (4 * bone_count)^2 values, row
     * major; NULL when override_P is zero. */
    uint32_t override_p;
    double *p_matrix;
    ferry_alm_vector *positions; /* all LODs */
    uint32_t position_count;
    ferry_alm_vertex *vertices;
    uint32_t vertex_count;
    ferry_alm_texture *textures;
    uint32_t texture_count;
    ferry_alm_tangent_map *tangent_maps; /* version 8 on */
    uint32_t tangent_map_count;
    ferry_alm_material *materials;
    uint32_t material_count;
    ferry_alm_triangle *triangles; /* the full-resolution mesh */
    uint32_t triangle_count;
    ferry_alm_collapse *collapses;
    uint32_t collapse_count;
    /* Version 4 on: per frame, bone_count row-major 4x4 matrices replacing
     * the bones' rest transforms (3x4 before version 5, held as 4x4). */
    double *frames;
    uint32_t frame_count;
    double frame_rate; /* version 6 on */
    /* Bytes after the last frame, which the spec does not have: kept so
     * that the file rewrites byte for byte; ferry_alm_validate warns. */
    const uint8_t *trailing;
    size_t trailing_size;
    ferry_arena *arena; /* owner of a read mesh; NULL for one built by hand */
    /* Record offsets of a read mesh; NULL for one built by hand (its
     * diagnostics then carry FERRY_NO_OFFSET). */
    const ferry_alm_offsets *offsets;
} ferry_alm_mesh;

/* Bytes per stored real number: 8 in versions 1 and 2, 4 later. */
FERRY_API uint32_t ferry_alm_float_size(uint32_t version);

/* ---- reading, writing, validation ---- */

/* Reads versions 2..10; other versions are FERRY_ERR_UNSUPPORTED naming the
 * version. Structure problems are located errors (byte offset, the record
 * path such as "vertices[12]/tangents[1]"); index ranges and collapse
 * consistency are left to ferry_alm_validate. */
FERRY_API ferry_result ferry_alm_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                      ferry_alm_mesh **out, ferry_error *err);
FERRY_API void ferry_alm_free(ferry_alm_mesh *mesh);

/* Appends the mesh's bytes in mesh->version's layout. A read mesh comes out
 * byte for byte. */
FERRY_API ferry_result ferry_alm_write(const ferry_alm_mesh *mesh, ferry_buffer *out, ferry_error *err);

/* Indices in range, parents before children, vector bone indices within
 * the bone count, material/texture/tangent-map references, collapse records
 * consistent (vl and vr on one position, endpoints alive at their turn; an
 * influence collapse's old vertices on one position, its new ones on one),
 * no NaN or infinity where a value is drawn, nothing that overflows a
 * 32-bit float once skinned.
 * Appends to `diags` (rule ids and record paths: docs/formats/alm.md; file
 * offsets for a read mesh). Returns the number of errors added (0: valid,
 * warnings may have been added); when memory runs out the collapses are
 * not replayed and an out-of-memory error says so. `options` may be NULL
 * (defaults). */
typedef struct ferry_alm_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_alm_validate_options;

FERRY_API size_t ferry_alm_validate(const ferry_alm_mesh *mesh, const ferry_alm_validate_options *options,
                                    ferry_diagnostics *diags);

/* ---- level of detail ---- */

typedef struct ferry_alm_lod_options {
    /* Exactly one of these chooses how many collapse records to apply:
     * collapses >= 0 applies that many (clamped to the count); otherwise
     * max_triangles > 0 applies records until at most that many triangles
     * remain; otherwise max_error >= 0 applies records while their error
     * is at most max_error. */
    int64_t collapses;     /* -1: unused */
    uint32_t max_triangles; /* 0: unused */
    double max_error;      /* < 0: unused */
} ferry_alm_lod_options;

/* A level of detail: degenerate triangles dropped, unused vertices removed,
 * the rest renumbered in order of first use. An edge collapse renames the
 * vertices on p1 and p2 of the triangles left of p1->p2 (ccw) to vl, right
 * to vr; docs/formats/alm.md has the whole rule. */
typedef struct ferry_alm_lod {
    uint32_t collapses_applied;
    double last_error; /* error of the last record applied (0 if none) */
    uint32_t *vertex_source; /* per LOD vertex, the mesh vertex it is */
    uint32_t vertex_count;
    ferry_alm_triangle *triangles; /* indices into the LOD's vertices */
    uint32_t triangle_count;
    ferry_arena *arena;
} ferry_alm_lod;

FERRY_API ferry_result ferry_alm_lod_extract(const ferry_alm_mesh *mesh, const ferry_alm_lod_options *options,
                                             ferry_alm_lod **out, ferry_error *err);
FERRY_API void ferry_alm_lod_free(ferry_alm_lod *lod);

/* Non-degenerate triangles left after applying the first k records, for
 * every k from 0 to collapse_count: `counts` receives collapse_count + 1
 * values. Costs about as much as one extraction. */
FERRY_API ferry_result ferry_alm_lod_triangle_counts(const ferry_alm_mesh *mesh, uint32_t *counts, ferry_error *err);

/* ---- animation-space skinning ---- */

/* The bones' object-space transforms (row-major 4x4 each, bone_count of
 * them) for the rest pose (frame < 0) or a frame: each bone's matrix
 * (rest or frame) pre-multiplied by its parent's object-space transform.
 * Refused when parents do not precede children or the frame is out of range. */
FERRY_API ferry_result ferry_alm_bone_matrices(const ferry_alm_mesh *mesh, int64_t frame, double *out, ferry_error *err);

/* Sum over components of matrices[bone] * coords: the skinned homogeneous
 * 4-vector (a position has w = 1 in a well-formed mesh; a tangent w = 0). */
FERRY_API void ferry_alm_vector_eval(const ferry_alm_vector *v, const double *matrices, uint32_t bone_count, double out[4]);

/* ---- building progressive meshes (alm_build.c) ---- */

typedef struct ferry_alm_build_options {
    /* Stop once at most this many triangles remain (0: go on until no
     * collapse is allowed). */
    uint32_t min_triangles;
    /* Stop before the first collapse whose error exceeds this (<= 0: no limit). */
    double max_error;
    /* Weight of the penalty planes that keep mesh boundaries, texture seams
     * and material edges in place, relative to the faces' own planes
     * (<= 0: the default, 10). */
    double seam_weight;
} ferry_alm_build_options;

/* Edge-collapse records for mesh's full-resolution triangles, by quadric
 * error at the rest pose (half-edge collapses: the kept endpoint keeps its
 * position and vertices). Reads bones, positions, vertices and triangles;
 * the records (and nothing else) are allocated in `arena`. A record's
 * error is the collapse's area-weighted mean squared distance to the
 * planes of the faces merged into the kept position. options may be NULL. */
FERRY_API ferry_result ferry_alm_build_collapses(const ferry_alm_mesh *mesh, const ferry_alm_build_options *options,
                                                 ferry_arena *arena, ferry_alm_collapse **collapses, uint32_t *count,
                                                 ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
