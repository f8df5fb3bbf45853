/* Shared by the glTF writer's parts: the input check (gltf_check.c), JSON
 * helpers (gltf_json.c), the binary buffer with its views and accessors
 * (gltf_buffer.c), the document (gltf_write.c) and files (gltf_save.c).
 * Not a public header. */
#ifndef FERRY_GLTF_INTERNAL_H
#define FERRY_GLTF_INTERNAL_H

#include <ferry/gltf.h>

#include <jansson.h>

#include "../core/core.h"
#include "../scene/scene_json.h"
#include "../scene/scene_ref.h"

/* glTF enumerations the writer uses. */
#define FY_GLTF_ARRAY_BUFFER 34962       /* bufferView.target: vertex attributes */
#define FY_GLTF_ELEMENT_BUFFER 34963     /* bufferView.target: indices */
#define FY_GLTF_UNSIGNED_SHORT 5123
#define FY_GLTF_UNSIGNED_INT 5125
#define FY_GLTF_FLOAT 5126

/* One document being built. `nomem` is sticky, like the cursor's `failed`:
 * the builders keep going after an allocation failure and the caller
 * checks once at the end, which keeps every call site a single line. */
/* Bytes of the binary chunk that stay where the scene holds them: they go
 * after bin's first `at` bytes (and after the spans before them). */
typedef struct fy_gltf_span {
    size_t at;
    const uint8_t *data;
    size_t size;
} fy_gltf_span;

typedef struct fy_gltf {
    const ferry_scene *scene;
    ferry_buffer *bin;     /* the one buffer every view points into */
    /* A .glb (`compact`): the images' bytes are not copied into bin but
     * recorded as spans, written between bin's own bytes (gltf_save.c); a
     * textured model's images are most of its binary chunk. */
    fy_gltf_span *spans;
    size_t span_count, span_capacity, span_bytes;
    json_t *root;
    json_t *buffer_views;  /* arrays owned by `root` once attached */
    json_t *accessors;
    /* A .glb's compact JSON (fy_gltf_build's `compact`): extras stand in the
     * tree for the scene's values (fy_json_raw), written straight from them
     * by the dump instead of converted to jansson. */
    bool compact;
    const ferry_json **raw;
    size_t raw_count, raw_capacity;
    bool nomem;
} fy_gltf;

/* ---- gltf_check.c ---- */

/* Checks everything the writer relies on (indices in range, counts, unit
 * quaternions, finite numbers, extras that parse) before any output, so
 * that the builders can assume a valid scene. FERRY_ERR_ARGUMENT with a
 * message naming the object. */
ferry_result fy_gltf_check_scene(const ferry_scene *scene, ferry_error *err);

/* "node 3 \"Root\"" into `out`; the name is left out when NULL or empty. */
void fy_gltf_describe(char *out, size_t out_size, const char *kind, size_t index, const char *name);

/* ---- gltf_json.c ---- */

/* Sets obj[key] = value (stealing the reference); a NULL value (a failed
 * json_* constructor) marks the document out of memory. */
void fy_gltf_json_set(fy_gltf *g, json_t *obj, const char *key, json_t *value);
/* Appends value (stealing the reference) to an array. */
void fy_gltf_json_push(fy_gltf *g, json_t *array, json_t *value);
/* A JSON array of `n` floats. */
json_t *fy_gltf_json_floats(const float *v, size_t n);
/* Sets obj[key] = array unless it is empty, in which case it is dropped:
 * glTF forbids empty arrays. */
void fy_gltf_json_set_array(fy_gltf *g, json_t *obj, const char *key, json_t *array);
/* Sets obj.extras from `extras` (already checked by fy_gltf_check_scene);
 * NULL: no extras. */
void fy_gltf_json_set_extras(fy_gltf *g, json_t *obj, const ferry_json *extras);
/* A JSON string; bytes that are not UTF-8 become '?'. */
json_t *fy_gltf_json_text(const char *text);
/* Sets obj.name unless the name is NULL or empty. */
void fy_gltf_json_set_name(fy_gltf *g, json_t *obj, const char *name);
/* `text` percent-encoded as a URI reference (malloc'd; NULL: no memory):
 * every byte but the unreserved ones escaped. `path`: an absolute file
 * path of the disk, whose separators (Windows: '\\' too, written '/')
 * separate segments and a Windows drive's ':' stays as it is ("C:/x", the
 * form Python's os.path.join keeps whole). */
char *fy_gltf_uri_encode(const char *text, bool path);
/* Serializes the document: compact for .glb (built `compact`), indented for .gltf. */
ferry_result fy_gltf_json_dump(fy_gltf *g, bool pretty, ferry_buffer *out, ferry_error *err);

/* ---- gltf_buffer.c ---- */

/* Accessors return their index, or -1 after an allocation failure (then
 * g->nomem is set). Every view starts on a 4-byte boundary. */
int32_t fy_gltf_floats(fy_gltf *g, const float *data, size_t count, int components, int target, bool min_max);
/* Indices as UNSIGNED_SHORT when every vertex fits below the 16-bit restart
 * value, else UNSIGNED_INT. */
int32_t fy_gltf_indices(fy_gltf *g, const uint32_t *indices, size_t count, size_t vertex_count);
/* JOINTS_0: 4 UNSIGNED_SHORT per vertex. */
int32_t fy_gltf_joints(fy_gltf *g, const uint16_t *joints, size_t vertex_count);
/* A bufferView holding raw bytes (an encoded image; a span in a .glb). */
int32_t fy_gltf_bytes_view(fy_gltf *g, const uint8_t *data, size_t size);
/* The binary buffer's length: bin's own bytes and the spans'. */
size_t fy_gltf_bin_size(const fy_gltf *g);

/* ---- gltf_write.c ---- */

/* Builds the whole document into `g` (root and bin). image_uris: as in
 * ferry_gltf_write_gltf; bin_uri NULL for .glb (the buffer has no uri).
 * `compact` (a .glb): fy_gltf_json_dump's compact text (extras stand in),
 * and the images' bytes left where the scene holds them, as spans. */
ferry_result fy_gltf_build(fy_gltf *g, const ferry_scene *scene, const char *bin_uri,
                           const char *const *image_uris, ferry_buffer *bin, bool compact, ferry_error *err);
void fy_gltf_release(fy_gltf *g);

#endif
