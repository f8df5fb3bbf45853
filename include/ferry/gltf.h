/* glTF 2.0 output: one writer for every format, fed a ferry_scene.
 * Binary .glb (one file) or .gltf (JSON, a .bin buffer and PNG files). */
#ifndef FERRY_GLTF_H
#define FERRY_GLTF_H

#include <ferry/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A .glb: JSON and binary chunks, images embedded in the buffer. */
ferry_result ferry_gltf_write_glb(const ferry_scene *scene, ferry_buffer *out, ferry_error *err);

/* A .gltf: `json` gets the document, `bin` the buffer it names `bin_uri`;
 * image i is referenced as image_uris[i] (the caller writes those files:
 * scene->images[i].data). image_uris may be NULL to embed images in `bin`. */
ferry_result ferry_gltf_write_gltf(const ferry_scene *scene, const char *bin_uri, const char *const *image_uris,
                                   ferry_buffer *json, ferry_buffer *bin, ferry_error *err);

/* Writes `path` by its extension: .glb, or .gltf with NAME.bin and
 * NAME_imageN.png beside it; every file atomically, never over
 * `protect_input` (may be NULL). */
ferry_result ferry_gltf_save(const ferry_scene *scene, const char *path, const char *protect_input,
                             ferry_error *err);

/* ferry_gltf_save with write options (see ferry_write_options). */
ferry_result ferry_gltf_save_with(const ferry_scene *scene, const char *path, const ferry_write_options *options,
                                  ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
