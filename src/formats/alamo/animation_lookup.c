/* A model's animations found by name in its folder of a file source
 * (ferry_ala_find_animations), and the name the game finds an animation
 * by (ferry_ala_file_name). */
#define _DEFAULT_SOURCE
#include <ferry/ala.h>

#include "../../core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct name_list {
    char **items;
    size_t count, capacity;
} name_list;

typedef struct folder_names {
    name_list models, animations;
    bool failed;
} folder_names;

static bool push(name_list *l, const char *name)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 16;
        char **n = realloc(l->items, cap * sizeof *n);
        if (!n) return false;
        l->items = n;
        l->capacity = cap;
    }
    char *copy = strdup(name);
    if (!copy) return false;
    l->items[l->count++] = copy;
    return true;
}

static bool has_ext(const char *name, const char *ext)
{
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ext) == 0;
}

static bool collect(void *ctx, const char *name, ferry_entry_kind kind)
{
    folder_names *f = ctx;
    if (kind != FERRY_ENTRY_FILE) return true;
    name_list *l = has_ext(name, ".alo") ? &f->models : has_ext(name, ".ala") ? &f->animations : NULL;
    if (l && !push(l, name)) {
        f->failed = true;
        return false;
    }
    return true;
}

static size_t stem_length(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void free_list(name_list *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->items[i]);
    free(l->items);
}

void ferry_ala_free_paths(char **paths, size_t count)
{
    for (size_t i = 0; paths && i < count; i++) free(paths[i]);
    free(paths);
}

ferry_result ferry_ala_find_animations(const ferry_file_source *source, const char *model_path, char ***paths,
                                       size_t *count, ferry_error *err)
{
    *paths = NULL;
    *count = 0;
    fy_error_clear(err);
    if (!source || !model_path) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no source or model path");
        return FERRY_ERR_ARGUMENT;
    }
    const char *slash = strrchr(model_path, '/');
    char dir[1024];
    int dn = snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - model_path) : 0, model_path);
    if (dn < 0 || (size_t)dn >= sizeof dir) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "the model's folder is too long: %.200s",
                     model_path);
        return FERRY_ERR_ARGUMENT;
    }
    const char *base = slash ? slash + 1 : model_path;
    size_t stem_len = stem_length(base);

    folder_names f;
    memset(&f, 0, sizeof f);
    ferry_result r = ferry_file_source_list(source, dir, collect, &f, err);
    char **out = NULL;
    size_t found = 0;
    if (r == FERRY_OK && f.failed) r = FERRY_ERR_NOMEM;
    if (r == FERRY_OK && f.animations.count) {
        out = calloc(f.animations.count, sizeof *out);
        if (!out) r = FERRY_ERR_NOMEM;
    }
    for (size_t i = 0; r == FERRY_OK && i < f.animations.count; i++) {
        /* Ours unless another model in the folder has a longer stem that
         * fits (X_Y_IDLE_00.ALA belongs to X_Y, not X). Only a name that
         * starts with our stem and '_' can be ours: the others are passed
         * over before asking which model they pair with (a mod folder holds
         * hundreds of models and over a thousand animations, and a batch
         * looks up every model's). */
        const char *name = f.animations.items[i];
        if (stem_length(name) <= stem_len || name[stem_len] != '_' || strncasecmp(name, base, stem_len) != 0) continue;
        size_t k = ferry_ala_model_for(name, (const char *const *)f.models.items, f.models.count);
        if (k >= f.models.count) continue;
        const char *owner = f.models.items[k];
        if (stem_length(owner) != stem_len || strncasecmp(owner, base, stem_len) != 0) continue;
        size_t need = (size_t)dn + strlen(name) + 2;
        char *p = malloc(need);
        if (!p) {
            r = FERRY_ERR_NOMEM;
            break;
        }
        if (dn) snprintf(p, need, "%s/%s", dir, name);
        else snprintf(p, need, "%s", name);
        out[found++] = p;
    }
    free_list(&f.models);
    free_list(&f.animations);
    if (r != FERRY_OK) {
        ferry_ala_free_paths(out, found);
        if (r == FERRY_ERR_NOMEM) fy_error_set(err, r, FERRY_NO_OFFSET, NULL, "out of memory listing animations");
        return r;
    }
    if (found) qsort(out, found, sizeof *out, cmp_str);
    *paths = out;
    *count = found;
    return FERRY_OK;
}

void ferry_ala_file_name(const char *model_path, const char *animation_name, size_t animation_index, char *out,
                         size_t out_size)
{
    if (!out || !out_size) return;
    const char *base = model_path ? model_path : "model";
    const char *slash = strrchr(base, '/');
    const char *bslash = strrchr(base, '\\');
    if (bslash && (!slash || bslash > slash)) slash = bslash;
    size_t dir_len = slash ? (size_t)(slash - base + 1) : 0;
    const char *stem = base + dir_len;
    const char *dot = strrchr(stem, '.');
    size_t stem_len = dot ? (size_t)(dot - stem) : strlen(stem);
    char name[200];
    if (animation_name && *animation_name) snprintf(name, sizeof name, "%s", animation_name);
    else snprintf(name, sizeof name, "%zu", animation_index);
    /* Characters no file name should hold become '_'. */
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '\\' || *p == ':' || (unsigned char)*p < 32 || *p == '*' || *p == '?' || *p == '"' ||
            *p == '<' || *p == '>' || *p == '|')
            *p = '_';
    size_t nlen = strlen(name);
    /* "FOO_DEPLOY_00.ala" exported from FOO.alo keeps its name. */
    bool own = nlen > 4 && strcasecmp(name + nlen - 4, ".ala") == 0;
    if (own) name[nlen -= 4] = 0;
    bool starts = nlen > stem_len && name[stem_len] == '_';
    for (size_t i = 0; starts && i < stem_len; i++) {
        int x = (unsigned char)name[i], y = (unsigned char)stem[i];
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y) starts = false;
    }
    if (starts) snprintf(out, out_size, "%.*s%s.ala", (int)dir_len, base, name);
    else snprintf(out, out_size, "%.*s%.*s_%s.ala", (int)dir_len, base, (int)stem_len, stem, name);
}
