/* Texture lookup as the game does it: case-insensitive base names, .tga
 * names satisfied by .dds files, a fixed list of folders, all through file
 * sources (include/ferry/ferry.h). */
#include <ferry/alo.h>

#include "../../core/core.h"
#include "../../core/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    return b;
}

typedef struct name_match {
    const char *name, *dds; /* dds: the .dds spelling of a .tga name, else NULL */
    char exact[512], alt[512];
    bool has_exact, has_alt;
} name_match;

static bool match_name(void *ctx, const char *name, ferry_entry_kind kind)
{
    name_match *m = ctx;
    size_t n = strlen(name);
    if (kind != FERRY_ENTRY_FILE || n >= sizeof m->exact) return true;
    if (strcasecmp(name, m->name) == 0) {
        memcpy(m->exact, name, n + 1);
        m->has_exact = true;
        return false;
    }
    if (m->dds && !m->has_alt && strcasecmp(name, m->dds) == 0) {
        memcpy(m->alt, name, n + 1);
        m->has_alt = true;
    }
    return true;
}

/* `name` in `folder`, ignoring case; a .tga name also as .dds (the name
 * itself wins, each the first listed). One listing for both: a model's
 * folder can hold thousands of files and is listed per texture. */
static bool find_name(const ferry_file_source *src, const char *folder, const char *name, char *out, size_t out_size)
{
    size_t n = strlen(name);
    char dds[1024];
    name_match m = {name, NULL, "", "", false, false};
    if (n >= 4 && n <= 1000 && strcasecmp(name + n - 4, ".tga") == 0) {
        memcpy(dds, name, n - 4);
        memcpy(dds + n - 4, ".dds", 5);
        m.dds = dds;
    }
    if (fy_file_source_is_cached(src)) {
        /* Two searches of the source's index instead of a walk of the
         * folder per texture: the same answer, the name itself first. */
        char at[1400];
        bool hit = ferry_file_source_find(src, folder, name, FERRY_ENTRY_FILE, at, sizeof at) ||
                   (m.dds && ferry_file_source_find(src, folder, m.dds, FERRY_ENTRY_FILE, at, sizeof at));
        int w = hit ? snprintf(out, out_size, "%s", at) : -1;
        return w > 0 && (size_t)w < out_size;
    }
    ferry_error e;
    if (ferry_file_source_list(src, folder, match_name, &m, &e) != FERRY_OK || !(m.has_exact || m.has_alt))
        return false;
    const char *found = m.has_exact ? m.exact : m.alt;
    int w = *folder ? snprintf(out, out_size, "%s/%s", folder, found) : snprintf(out, out_size, "%s", found);
    return w > 0 && (size_t)w < out_size;
}

typedef struct subfolders {
    const char *want;
    char (*names)[256];
    size_t count, capacity;
    bool failed;
} subfolders;

static bool collect_subfolder(void *ctx, const char *name, ferry_entry_kind kind)
{
    subfolders *s = ctx;
    if (kind != FERRY_ENTRY_FOLDER || strcasecmp(name, s->want) != 0 || strlen(name) >= 256) return true;
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? 2 * s->capacity : 4;
        char (*n)[256] = realloc(s->names, cap * sizeof *n);
        if (!n) {
            s->failed = true;
            return false;
        }
        s->names = n;
        s->capacity = cap;
    }
    memcpy(s->names[s->count++], name, strlen(name) + 1);
    return true;
}

/* Tries every sub-folder of `parent` named `folder` in any case (mods spell
 * it Textures, TEXTURES, textures), in listing order. */
static bool find_in_subfolders(const ferry_file_source *src, const char *parent, const char *folder, const char *name,
                               char *out, size_t out_size)
{
    subfolders s = {folder, NULL, 0, 0, false};
    ferry_error e;
    bool found = false;
    if (ferry_file_source_list(src, parent, collect_subfolder, &s, &e) == FERRY_OK) {
        for (size_t i = 0; !found && i < s.count; i++) {
            char sub[1400];
            int n = *parent ? snprintf(sub, sizeof sub, "%s/%s", parent, s.names[i])
                            : snprintf(sub, sizeof sub, "%s", s.names[i]);
            found = n > 0 && (size_t)n < sizeof sub && find_name(src, sub, name, out, out_size);
        }
    }
    free(s.names);
    return found;
}

/* Data/Art/Textures below a source's root, each folder in any case (the
 * first listed): where the game's file system finds textures, in a game or
 * mod folder and in an archive, whose names start DATA\ART\TEXTURES. */
static bool game_textures(const ferry_file_source *src, char *out, size_t out_size)
{
    static const char *const parts[] = {"data", "art", "textures"};
    char at[1400] = "";
    for (size_t i = 0; i < 3; i++) {
        char next[1400];
        if (!ferry_file_source_find(src, at, parts[i], FERRY_ENTRY_FOLDER, next, sizeof next)) return false;
        memcpy(at, next, sizeof at);
    }
    int n = snprintf(out, out_size, "%s", at);
    return n > 0 && (size_t)n < out_size;
}

bool ferry_alamo_texture_find(const ferry_alamo_texture_places *places, const char *name,
                              const ferry_file_source **source, char *path, size_t path_size)
{
    if (!places || !name || !*name || !path || !path_size) return false;
    const char *base = base_name(name);
    if (!*base) return false;
    if (places->model_source && places->model_path) {
        const ferry_file_source *m = places->model_source;
        char dir[1024];
        const char *slash = strrchr(places->model_path, '/');
        int n = snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - places->model_path) : 0, places->model_path);
        if (n < 0 || (size_t)n >= sizeof dir) return false;
        if (find_name(m, dir, base, path, path_size)) {
            if (source) *source = m;
            return true;
        }
        /* ../Textures: inside the source when the model's folder has a
         * parent there, else in the folder above the source's root. */
        if (*dir) {
            char *up = strrchr(dir, '/');
            if (up) *up = '\0';
            else dir[0] = '\0';
            if (find_in_subfolders(m, dir, "textures", base, path, path_size)) {
                if (source) *source = m;
                return true;
            }
        } else if (places->parent_source &&
                   find_in_subfolders(places->parent_source, "", "textures", base, path, path_size)) {
            if (source) *source = places->parent_source;
            return true;
        }
    }
    for (size_t i = 0; i < places->folder_count; i++) {
        const ferry_file_source *f = places->folders ? places->folders[i] : NULL;
        char game[1400];
        if (f && (find_name(f, "", base, path, path_size) ||
                  (game_textures(f, game, sizeof game) && find_name(f, game, base, path, path_size)))) {
            if (source) *source = f;
            return true;
        }
    }
    return false;
}

void ferry_alamo_texture_folders_close(ferry_alamo_texture_folders *f)
{
    if (!f) return;
    ferry_file_source_close(&f->model);
    ferry_file_source_close(&f->parent);
    for (size_t i = 0; i < f->folder_count; i++) ferry_file_source_close(&f->folders[i]);
    free(f->folders);
    free(f->folder_list);
    free(f->model_name);
    memset(f, 0, sizeof *f);
}

ferry_result ferry_alamo_texture_folders_open(const char *model_path, const char *const *dirs, size_t dir_count,
                                              ferry_alamo_texture_folders *f, ferry_error *err)
{
    memset(f, 0, sizeof *f);
    fy_error_clear(err);
    ferry_result r = FERRY_OK;
    if (model_path) {
        size_t name_at = fy_path_name_offset(model_path);
        char dir[4096], up[4096];
        /* The model's folder ("/" for /x.alo, C:\ for C:\x.alo) and
         * the one above it. */
        if (!fy_path_folder(model_path, dir, sizeof dir - 4) || !fy_path_parent(dir, up, sizeof up)) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "model path too long");
            return FERRY_ERR_ARGUMENT;
        }
        r = ferry_file_source_folder(dir, &f->model, err);
        if (r == FERRY_OK) r = ferry_file_source_folder(up, &f->parent, err);
        f->places.model_source = &f->model;
        /* A copy: the caller's path need not outlive the places (a view
         * keeps them while it draws). */
        f->model_name = fy_strdup(model_path + name_at);
        if (!f->model_name && r == FERRY_OK) r = FERRY_ERR_NOMEM;
        f->places.model_path = f->model_name;
        f->places.parent_source = &f->parent;
    }
    if (!dirs) dir_count = 0;
    if (r == FERRY_OK && dir_count) {
        f->folders = calloc(dir_count, sizeof *f->folders);
        f->folder_list = calloc(dir_count, sizeof *f->folder_list);
        if (!f->folders || !f->folder_list) r = FERRY_ERR_NOMEM;
        for (size_t i = 0; r == FERRY_OK && i < dir_count; i++) {
            if (!dirs[i] || !*dirs[i]) continue; /* skipped, as before */
            r = ferry_file_source_folder(dirs[i], &f->folders[i], err);
            if (r == FERRY_OK) f->folder_list[i] = &f->folders[i];
        }
        f->folder_count = dir_count;
        f->places.folders = (const ferry_file_source *const *)f->folder_list;
        f->places.folder_count = dir_count;
    }
    if (r != FERRY_OK) {
        if (r == FERRY_ERR_NOMEM) fy_error_set(err, r, FERRY_NO_OFFSET, NULL, "out of memory");
        ferry_alamo_texture_folders_close(f);
    }
    return r;
}
