/* ferry_gltf_load: a .glb or .gltf read from the disk, its folder the file
 * source of what it names (one function for every caller holding a path). */
#include "../core/core.h"

#include <ferry/gltf.h>

/* The largest document read, as the largest external file: 2 GiB. */
#define GLTF_LOAD_MAX ((size_t)1 << 31)

ferry_result ferry_gltf_load(const char *path, const ferry_gltf_read_options *options, ferry_scene **out,
                             ferry_error *err)
{
    if (out) *out = NULL;
    fy_error_clear(err);
    if (!path || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no place for the scene");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_gltf_read_options o = options ? *options : (ferry_gltf_read_options){0};
    uint8_t *data = NULL;
    size_t size = 0;
    ferry_result r = ferry_file_load(path, o.file_limit ? o.file_limit : GLTF_LOAD_MAX, &data, &size, err);
    if (r != FERRY_OK) return r;
    ferry_file_source folder;
    bool folder_open = false;
    if (!o.files) {
        if ((r = ferry_file_source_folder_of(path, &folder, NULL, err)) != FERRY_OK) {
            ferry_file_free(data);
            return r;
        }
        folder_open = true;
        o.files = &folder;
    }
    r = ferry_gltf_read(data, size, &o, out, err);
    if (r != FERRY_OK) *out = NULL;
    if (folder_open) ferry_file_source_close(&folder);
    ferry_file_free(data);
    return r;
}
