/* Other modelling formats (FBX, OBJ, Collada and the rest Assimp reads)
 * into the format-neutral scene, through Assimp's C API (libassimp).
 * docs/formats/gltf-import.md, "Other formats (Assimp)". A library of its
 * own (ferry_assimp, linked by the CLI; not installed): libferry stays free
 * of Assimp, which Debian ships only as a shared library. */
#ifndef FERRY_ASSIMP_H
#define FERRY_ASSIMP_H

#include <ferry/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ferry_assimp_read_options {
    /* read.memory_limit: most bytes the scene may take; 0: 16 x input +
     * 1 MiB, at most FERRY_DEFAULT_MEMORY_CAP. (Assimp's own temporary
     * structures are not counted.) */
    ferry_read_options read;
    /* The file's extension without the dot ("fbx", "obj", "dae"): Assimp
     * picks its importer by it. Required. */
    const char *format_hint;
} ferry_assimp_read_options;

/* Reads one self-contained file from memory: Assimp is given only these
 * bytes (through its file callbacks), never the disk, so an OBJ's .mtl
 * and external textures are not loaded (materials then keep Assimp's
 * defaults; texture names are still taken when the file itself names
 * them). Triangulated, identical vertices joined; nodes in parent-first
 * order with their local transforms, one mesh per node that has any (one
 * primitive per Assimp mesh), materials (diffuse colour, diffuse texture
 * name as an image without data), skins (bone weights, at most 4 per
 * vertex, offset matrices as inverse bind matrices) and animations
 * (node channels, LINEAR). The scene is Assimp's: right-handed, Y up for
 * OBJ and Collada (FBX keeps its file's axes). Errors: Assimp's message,
 * no offset. */
ferry_result ferry_assimp_read(const uint8_t *data, size_t size, const ferry_assimp_read_options *options,
                               ferry_scene **out, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
