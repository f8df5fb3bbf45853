/* What the Alamo formats (.ALO models, .ALA animations, particle systems)
 * share beyond the chunk tree (alamo_chunk.h): the kind of an Alamo file,
 * the string tails every typed Alamo reader keeps, and the game's textures
 * (found as the game finds them, written as it reads them).
 */
#ifndef FERRY_ALAMO_H
#define FERRY_ALAMO_H

#include <ferry/alamo_chunk.h>
#include <ferry/image.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes that followed the NUL of a stored string, kept so that writing is
 * exact; matched by the string's address, so replacing a string drops them. */
typedef struct ferry_string_tail {
    const char *text;
    ferry_blob tail;
} ferry_string_tail;

/* What an Alamo file holds, judged from its first chunk. */
typedef enum ferry_alamo_kind {
    FERRY_ALAMO_UNKNOWN = 0,
    FERRY_ALAMO_MODEL,          /* 0x200 */
    FERRY_ALAMO_PARTICLE,       /* 0x900 */
    FERRY_ALAMO_PARTICLE_UAW,   /* 0x1500: Universe at War particles, unsupported */
    FERRY_ALAMO_ANIMATION       /* 0x1000 */
} ferry_alamo_kind;

FERRY_API ferry_alamo_kind ferry_alamo_detect(const uint8_t *data, size_t size);
FERRY_API const char *ferry_alamo_kind_name(ferry_alamo_kind kind);

/* ---- textures ---- */

/* Where the game looks for a model's textures, as file sources
 * (ferry.h): the model's own source and its path there, and further
 * folders. */
typedef struct ferry_alamo_texture_places {
    const ferry_file_source *model_source; /* holds the model (NULL: no model) */
    const char *model_path;                /* the model's path in it ("Art/Models/X.alo") */
    /* The folder above the model's folder, used when the model lies at the
     * root of model_source (a disk folder rooted at the model's folder);
     * otherwise ../Textures is found inside model_source. May be NULL. */
    const ferry_file_source *parent_source;
    /* Further places, each searched at its root, then in its
     * Data/Art/Textures (any case), where the game finds textures in a
     * game folder and in an archive (DATA\ART\TEXTURES\...). */
    const ferry_file_source *const *folders;
    size_t folder_count;
} ferry_alamo_texture_places;

/* Finds a texture file as the game does: by its base name, ignoring case,
 * in the model's folder, then in every sub-folder named Textures (any
 * case) of the folder above it, then each further folder in turn (its
 * root, then its Data/Art/Textures); a name
 * ending in .tga is also tried as .dds (the game's compiled form). Sets
 * *source (may be NULL) to the source holding it, writes its path there
 * into path and returns true; load it with ferry_file_source_load. */
FERRY_API bool ferry_alamo_texture_find(const ferry_alamo_texture_places *places, const char *name,
                                        const ferry_file_source **source, char *path, size_t path_size);

/* The places of a model on the disk, as folder sources: the model's folder
 * (the model's path without a folder lies in "."), the folder above it
 * ("DIR/..") and each of `dirs` (NULL or "" entries skipped); the paths
 * are not kept (the model's file name is copied). Close with
 * ferry_alamo_texture_folders_close. A convenience for a caller holding
 * paths: it opens folders (ferry_file_source_folder) so that the caller
 * can pass `places` where texture places are taken (ferry_alamo_texture_find,
 * ferry_alo_scene_options.texture_places); no conversion opens folders
 * itself. */
typedef struct ferry_alamo_texture_folders {
    ferry_alamo_texture_places places;
    ferry_file_source model, parent;
    ferry_file_source *folders;
    const ferry_file_source **folder_list;
    size_t folder_count;
    char *model_name; /* the model's file name, copied: places.model_path points here */
} ferry_alamo_texture_folders;

FERRY_API ferry_result ferry_alamo_texture_folders_open(const char *model_path, const char *const *dirs,
                                                        size_t dir_count, ferry_alamo_texture_folders *folders, ferry_error *err);
FERRY_API void ferry_alamo_texture_folders_close(ferry_alamo_texture_folders *folders);


/* A texture for the game from an RGBA image: a .dds of DXT1 (every alpha
 * 255) or DXT5, with the full mipmap chain (box-filtered; in linear light
 * unless `linear` says the pixels are data, as normal maps are), appended to
 * `out`. Sides must be powers of two from 1 to 4096 (FERRY_ERR_ARGUMENT
 * otherwise, naming the side). */
FERRY_API ferry_result ferry_alamo_texture_encode_dds(const ferry_image *image, bool linear, ferry_buffer *out,
                                                      ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
