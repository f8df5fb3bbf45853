/* ferry_path_stat and ferry_folder_list: the platform layer's answers for
 * front ends that walk folders themselves (ferry.h, "Paths"). */
#include "core.h"
#include "platform.h"

#include <string.h>

ferry_result ferry_path_stat(const char *path, bool follow_links, ferry_path_info *info, ferry_error *err)
{
    fy_error_clear(err);
    if (!path || !info) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_path_stat needs a path and an info");
        return FERRY_ERR_ARGUMENT;
    }
    memset(info, 0, sizeof *info);
    fy_file_info fi;
    int code = fy_path_info(path, follow_links, &fi);
    if (code) {
        if (fy_sys_not_found(code)) return FERRY_OK; /* FERRY_PATH_MISSING */
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot look at %s", path);
        return FERRY_ERR_IO;
    }
    switch (fi.kind) {
    case FY_KIND_REGULAR: info->kind = FERRY_PATH_FILE; break;
    case FY_KIND_FOLDER: info->kind = FERRY_PATH_FOLDER; break;
    case FY_KIND_LINK: info->kind = FERRY_PATH_LINK; break;
    default: info->kind = FERRY_PATH_OTHER; break;
    }
    info->size = fi.size;
    info->modified = fi.modified;
    info->id[0] = fi.id.volume;
    info->id[1] = fi.id.index[0];
    info->id[2] = fi.id.index[1];
    info->has_id = fi.has_id;
    return FERRY_OK;
}

ferry_result ferry_folder_list(const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    fy_error_clear(err);
    if (!path || !entry) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_folder_list needs a path and a callback");
        return FERRY_ERR_ARGUMENT;
    }
    fy_folder *d;
    int code = fy_folder_open(path, &d);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot read the folder %s", path);
        return FERRY_ERR_IO;
    }
    const char *name;
    fy_file_kind kind;
    bool stopped = false;
    while (fy_folder_next(d, &name, &kind)) {
        /* A link or an entry the listing does not type is looked at (its
         * target's kind), as a folder walk following links needs. */
        if (kind == FY_KIND_LINK || kind == FY_KIND_UNKNOWN) {
            fy_file_info info;
            kind = fy_folder_entry_info(d, name, true, &info) == 0 ? info.kind : FY_KIND_OTHER;
        }
        if (!entry(ctx, name, kind == FY_KIND_FOLDER ? FERRY_ENTRY_FOLDER : FERRY_ENTRY_FILE)) {
            stopped = true;
            break;
        }
    }
    code = stopped ? 0 : fy_folder_error(d);
    fy_folder_close(d);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot read the folder %s", path);
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}
