/* glTF 2.0 output: one writer for every format, fed a ferry_scene.
 * Binary .glb (one file) or .gltf (JSON, a .bin buffer and PNG files). */
#ifndef FERRY_GLTF_H
#define FERRY_GLTF_H

#include <ferry/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A .glb: JSON and binary chunks, images embedded in the buffer. */
FERRY_API ferry_result ferry_gltf_write_glb(const ferry_scene *scene, ferry_buffer *out, ferry_error *err);

/* A .gltf: `json` gets the document, `bin` the buffer it names `bin_uri`;
 * image i is referenced as image_uris[i] (the caller writes those files:
 * scene->images[i].data). image_uris may be NULL to embed images in `bin`. */
FERRY_API ferry_result ferry_gltf_write_gltf(const ferry_scene *scene, const char *bin_uri, const char *const *image_uris,
                                             ferry_buffer *json, ferry_buffer *bin, ferry_error *err);

/* Writes `path` by its extension: .glb, or .gltf with NAME.bin and
 * NAME_imageN.png beside it; every file atomically, never over
 * options->protect_input (see ferry_write_options; NULL options: flush,
 * protect nothing). */
FERRY_API ferry_result ferry_gltf_save(const ferry_scene *scene, const char *path, const ferry_write_options *options,
                                       ferry_error *err);

/* ---- reading ---- */

typedef struct ferry_gltf_read_options {
    /* read.memory_limit: most bytes the scene may take; 0: 16 x (document
     * + buffers) + 1 MiB, at most FERRY_DEFAULT_MEMORY_CAP. */
    ferry_read_options read;
    /* Loads a resource the document names by a relative URI (a .bin
     * buffer, an image): `uri` is percent-decoded. Returns 0 and sets
     * *data and *size, or non-zero when it cannot. The reader never opens
     * files itself; without a callback, external resources are an error.
     * The callback decides what it serves (folders, "..", links). */
    int (*load_file)(void *user, const char *uri, uint8_t **data, size_t *size);
    /* Gives back what load_file returned, once the read is over (may be NULL). */
    void (*release_file)(void *user, uint8_t *data, size_t size);
    void *user;
    bool skip_images; /* leave images out (materials then have none) */
} ferry_gltf_read_options;

/* Reads a .glb (JSON and BIN chunks) or a .gltf document (buffers as
 * base64 data: URIs or external files through load_file) into a scene in
 * one arena: nodes (parents reordered before children when the file has
 * them later), meshes, materials, images, skins, lights and animations
 * (LINEAR and STEP). Refused: sparse accessors, CUBICSPLINE, line modes,
 * required extensions other than KHR_materials_unlit and
 * KHR_lights_punctual. Errors are located: a JSON path such as
 * "accessors[3]" and a byte offset where one applies. */
FERRY_API ferry_result ferry_gltf_read(const uint8_t *data, size_t size, const ferry_gltf_read_options *options,
                                       ferry_scene **out, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
