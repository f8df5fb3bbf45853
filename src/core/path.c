/* ferry_path_stat, ferry_folder_list and ferry_folder_resolve: the platform
 * layer's answers for front ends that walk folders or hand their files out
 * themselves (ferry.h, "Paths"). */
#include "core.h"
#include "platform.h"

#include <stdlib.h>
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

/* No name of the path starts with '.' (a hidden file, "." or ".."). */
static bool no_hidden_name(const char *path)
{
    for (const char *p = path; p; p = strchr(p, '/')) {
        if (*p == '/') p++;
        if (*p == '.') return false;
    }
    return true;
}

static bool is_separator(char c)
{
#ifdef _WIN32
    if (c == '\\') return true;
#endif
    return c == '/';
}

/* `file` is `folder` or lies below it (both resolved; a root, "/" or
 * "C:\\", ends in its separator). */
static bool lies_in(const char *file, const char *folder)
{
    size_t n = strlen(folder);
    if (strncmp(file, folder, n) != 0) return false;
    return file[n] == '\0' || is_separator(file[n]) || (n > 0 && is_separator(folder[n - 1]));
}

ferry_result ferry_folder_resolve(const char *folder, const char *path, char *resolved, size_t resolved_size,
                                  ferry_error *err)
{
    fy_error_clear(err);
    if (resolved && resolved_size) resolved[0] = '\0';
    if (!folder || !path || !resolved || !resolved_size) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_folder_resolve needs a folder, a path and room");
        return FERRY_ERR_ARGUMENT;
    }
    if (!*path || !ferry_file_source_path_ok(path) || !no_hidden_name(path)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "%.200s: not a path of plain names inside the folder (relative, '/'-separated, none hidden)", path);
        return FERRY_ERR_ARGUMENT;
    }
    size_t need = strlen(folder) + strlen(path) + 2;
    char *joined = malloc(need);
    if (!joined) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    fy_path_join(joined, need, folder, path);
    char *real_folder = NULL, *real = NULL;
    ferry_result r = FERRY_OK;
    fy_file_info info;
    int code = fy_path_resolve(folder, &real_folder);
    if (!code) code = fy_path_resolve(joined, &real);
    if (code) {
        fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot resolve %.200s", joined);
        r = FERRY_ERR_IO;
    } else if (!lies_in(real, real_folder)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%.200s leads out of the folder %.200s", joined,
                     folder);
        r = FERRY_ERR_ARGUMENT;
    } else if ((code = fy_path_info(real, true, &info)) != 0 || info.kind != FY_KIND_REGULAR) {
        if (code)
            fy_error_sys(err, FERRY_NO_OFFSET, code, "cannot look at %.200s", real);
        else
            fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%.200s is %s, not read", real, fy_file_kind_name(info.kind));
        r = FERRY_ERR_IO;
    } else if (strlen(real) >= resolved_size) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "the resolved path of %.200s does not fit", joined);
        r = FERRY_ERR_LIMIT;
    } else {
        memcpy(resolved, real, strlen(real) + 1);
    }
    free(real);
    free(real_folder);
    free(joined);
    return r;
}
