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
    /* Where resources the document names by a relative URI (a .bin
     * buffer, an image) are loaded from: a file source (ferry.h) rooted at
     * the document's folder, e.g. ferry_file_source_folder. The URI is
     * percent-decoded and its "." components dropped; one with ".." is
     * refused by the source. The reader never opens files itself; without
     * a source, external resources are an error. What it loads is given
     * back to the source once the read is over. */
    const ferry_file_source *files;
    /* Most bytes of one external file; 0: 2 GiB. */
    size_t file_limit;
    bool skip_images; /* leave images out (materials then have none) */
} ferry_gltf_read_options;

/* Reads a .glb (JSON and BIN chunks) or a .gltf document (buffers as
 * base64 data: URIs or external files from the `files` source) into a scene in
 * one arena: nodes (parents reordered before children when the file has
 * them later), meshes, materials, images, skins, lights and animations
 * (LINEAR, STEP and CUBICSPLINE). Refused: sparse accessors, line modes,
 * required extensions other than KHR_materials_unlit and
 * KHR_lights_punctual. Errors are located: a JSON path such as
 * "accessors[3]" and a byte offset where one applies. */
FERRY_API ferry_result ferry_gltf_read(const uint8_t *data, size_t size, const ferry_gltf_read_options *options,
                                       ferry_scene **out, ferry_error *err);

/* The same for a file of the disk: its bytes (ferry_file_load: at most
 * options->file_limit, 0: 2 GiB), and, unless options->files gives
 * another, its folder (ferry_file_source_folder_of) as the source of the
 * buffers and images a .gltf names. Errors are the load's (naming the
 * file), the folder's, or the reader's. NULL options: the defaults. */
FERRY_API ferry_result ferry_gltf_load(const char *path, const ferry_gltf_read_options *options, ferry_scene **out,
                                       ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
