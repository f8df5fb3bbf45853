/* Shared by the glTF reader's two files: gltf_read.c (container, JSON,
 * buffers, accessors, the entry point) and gltf_read_scene.c (the glTF
 * objects -> ferry_scene). Not a public header. */
#ifndef FERRY_GLTF_READ_INTERNAL_H
#define FERRY_GLTF_READ_INTERNAL_H

#include "gltf_internal.h"

#include <ferry/gltf.h>

typedef struct fy_gr_buffer {
    const uint8_t *data;
    size_t size;
    uint8_t *loaded;  /* from the file source: given back to it */
    size_t loaded_size;
    uint8_t *decoded; /* from a data: URI (malloc'd) */
} fy_gr_buffer;

typedef struct fy_gr {
    const ferry_gltf_read_options *opts;
    ferry_error *err;
    json_t *root;
    const uint8_t *bin; /* the .glb BIN chunk, or NULL */
    size_t bin_size;
    uint64_t bin_offset; /* where the BIN chunk's data starts in the input */
    fy_gr_buffer *buffers;
    size_t buffer_count;
    ferry_arena *arena;
    ferry_scene *scene;
    int32_t *node_index; /* glTF node -> scene node */
    int32_t *texture_image; /* glTF texture -> scene image (or -1) */
    bool failed;
} fy_gr;

/* Every failure goes through here: the first error is kept. Returns false. */
bool fy_gr_fail(fy_gr *r, ferry_result code, uint64_t offset, const char *path, const char *fmt, ...) FY_PRINTF(5, 6);
/* Arena allocation; a refusal is FERRY_ERR_LIMIT (the memory limit) or NOMEM. */
void *fy_gr_alloc(fy_gr *r, size_t count, size_t size);
char *fy_gr_strdup(fy_gr *r, const char *text);

/* ---- JSON access with located errors (path names the object) ---- */

/* The array at obj[key], or NULL when absent; an error when not an array. */
json_t *fy_gr_array(fy_gr *r, json_t *obj, const char *key, const char *path, bool *ok);
/* obj[key] as an index into `count` items; -1 when absent and not required. */
bool fy_gr_index(fy_gr *r, json_t *obj, const char *key, const char *path, size_t count, bool required, int64_t *out);
/* obj[key] as a non-negative integer (def when absent). */
bool fy_gr_uint(fy_gr *r, json_t *obj, const char *key, const char *path, uint64_t def, uint64_t *out);
/* obj[key] as a number (def when absent). */
bool fy_gr_number(fy_gr *r, json_t *obj, const char *key, const char *path, double def, double *out);
/* obj[key] as `n` numbers (defaults kept when absent). */
bool fy_gr_numbers(fy_gr *r, json_t *obj, const char *key, const char *path, float *out, size_t n);
/* obj.name copied to the arena, or NULL. */
const char *fy_gr_name(fy_gr *r, json_t *obj);
/* obj.extras as a ferry_json in the arena when it is an object, else NULL. */
const ferry_json *fy_gr_extras(fy_gr *r, json_t *obj);
/* Length of the top-level array root[key] (0 when absent). */
size_t fy_gr_count(fy_gr *r, const char *key);

/* ---- accessors ---- */

enum {
    FY_GR_FLOAT = 1u << 0,
    FY_GR_NORM_UBYTE = 1u << 1,
    FY_GR_NORM_USHORT = 1u << 2,
    FY_GR_NORM_BYTE = 1u << 3,
    FY_GR_NORM_SHORT = 1u << 4,
    FY_GR_UBYTE = 1u << 5, /* integers, not normalized */
    FY_GR_USHORT = 1u << 6,
    FY_GR_UINT = 1u << 7
};

typedef struct fy_gr_accessor {
    const uint8_t *base; /* first element; NULL: no bufferView, all zeros */
    size_t stride;
    size_t count;
    int components;
    int component_type; /* glTF enum */
    unsigned kind;      /* one FY_GR_* bit */
} fy_gr_accessor;

/* Resolves accessors[index] after checking everything: its type is one of
 * `components` (bit n set: n components allowed, MAT4 is 16), its
 * component type one of `kinds`, and every byte it reads lies inside its
 * bufferView and buffer. `path` names the referrer, for messages. */
bool fy_gr_get_accessor(fy_gr *r, int64_t index, const char *path, unsigned components, unsigned kinds, fy_gr_accessor *a);
/* Element i, component k, as a float (normalized integers scaled). */
float fy_gr_float(const fy_gr_accessor *a, size_t i, int k);
/* Element i, component k, as an integer (integer kinds). */
uint32_t fy_gr_uint_at(const fy_gr_accessor *a, size_t i, int k);
/* The whole accessor as count * components floats in the arena. */
float *fy_gr_floats(fy_gr *r, const fy_gr_accessor *a);

/* ---- gltf_read_scene.c ---- */

/* Images (unless skipped), materials, meshes, skins, lights, nodes,
 * animations and the scene itself, in that order. */
bool fy_gr_build_scene(fy_gr *r);
/* An image's bytes by uri (data: or external) into the arena. */
bool fy_gr_load_uri(fy_gr *r, const char *uri, const char *path, const uint8_t **data, size_t *size,
                    uint8_t **decoded, uint8_t **loaded, size_t *loaded_size, char *media_type, size_t media_size);

#endif
