/* Texture lookup as the game does it: case-insensitive base names, .tga
 * names satisfied by .dds files, a fixed list of folders. */
#define _DEFAULT_SOURCE
#include <ferry/alo.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    return b;
}

static bool find_in_dir(const char *dir, const char *name, char *out, size_t out_size)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        if (strcasecmp(e->d_name, name) != 0) continue;
        int n = snprintf(out, out_size, "%s/%s", dir, e->d_name);
        struct stat st;
        /* Any file but a folder: a FIFO or device of that name is found, and
         * refused by the reader with its kind, rather than called missing. */
        found = n > 0 && (size_t)n < out_size && stat(out, &st) == 0 && !S_ISDIR(st.st_mode);
    }
    closedir(d);
    return found;
}

static bool find_name(const char *dir, const char *name, char *out, size_t out_size)
{
    if (find_in_dir(dir, name, out, out_size)) return true;
    size_t n = strlen(name);
    if (n < 4 || n > 1000 || strcasecmp(name + n - 4, ".tga") != 0) return false;
    char dds[1024];
    memcpy(dds, name, n - 4);
    memcpy(dds + n - 4, ".dds", 5);
    return find_in_dir(dir, dds, out, out_size);
}

/* Tries every sub-folder of `parent` named `folder` in any case
 * (mods spell it Textures, TEXTURES, textures). */
static bool find_in_subfolders(const char *parent, const char *folder, const char *name, char *out, size_t out_size)
{
    DIR *d = opendir(parent);
    if (!d) return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        if (strcasecmp(e->d_name, folder) != 0) continue;
        char sub[4096];
        int n = snprintf(sub, sizeof sub, "%s/%s", parent, e->d_name);
        found = n > 0 && (size_t)n < sizeof sub && find_name(sub, name, out, out_size);
    }
    closedir(d);
    return found;
}

bool ferry_alamo_find_texture(const char *model_path, const char *const *extra_dirs, size_t extra_count,
                              const char *name, char *out_path, size_t out_size)
{
    if (!name || !*name || !out_path || !out_size) return false;
    const char *base = base_name(name);
    if (!*base) return false;
    if (model_path) {
        char dir[4096];
        const char *slash = strrchr(model_path, '/');
        int n = slash ? snprintf(dir, sizeof dir, "%.*s", (int)(slash - model_path), model_path)
                      : snprintf(dir, sizeof dir, ".");
        if (n < 0 || (size_t)n >= sizeof dir - 4) return false;
        if (find_name(dir, base, out_path, out_size)) return true;
        memcpy(dir + n, "/..", 4);
        if (find_in_subfolders(dir, "textures", base, out_path, out_size)) return true;
    }
    for (size_t i = 0; i < extra_count; i++)
        if (extra_dirs[i] && find_name(extra_dirs[i], base, out_path, out_size)) return true;
    return false;
}
