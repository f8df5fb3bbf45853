/* The folder walk (walk.h). */
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct fy_walk_dir {
    fy_file_id id;
    bool has_id;
    char *path;
} fy_walk_dir;

static bool grow(void **items, size_t *capacity, size_t count, size_t size, size_t first)
{
    if (count < *capacity) return true;
    size_t cap = *capacity ? *capacity * 2 : first;
    void *p = realloc(*items, cap * size);
    if (!p) return false;
    *items = p;
    *capacity = cap;
    return true;
}

static void add_skip(fy_walk *w, const char *path, const char *reason, bool failed)
{
    w->failed += failed; /* counted even when it cannot be listed */
    if (!grow((void **)&w->skipped, &w->skipped_capacity, w->skipped_count, sizeof *w->skipped, 8)) {
        w->nomem = true;
        return;
    }
    fy_walk_skip *s = &w->skipped[w->skipped_count++];
    s->path = fy_strdup(path);
    s->reason = fy_strdup(reason);
    s->failed = failed;
}

static void say(fy_walk *w, ferry_message_kind kind, const char *file, const char *rule, const char *text)
{
    if (!w->message) return;
    ferry_message m = {kind, file, text, rule, NULL};
    w->message(w->user, &m);
}

static bool same_id(const fy_walk_dir *d, const fy_file_info *info)
{
    return d->has_id && info->has_id && d->id.volume == info->id.volume && d->id.index[0] == info->id.index[0] &&
           d->id.index[1] == info->id.index[1];
}

/* Enters a folder once: false (and a message) when its identity was seen
 * before on this walk, through a link loop or a second link. */
static bool enter_dir(fy_walk *w, const fy_file_info *info, const char *path)
{
    for (size_t i = 0; i < w->dir_count; i++) {
        if (!same_id(&w->dirs[i], info)) continue;
        const char *seen = w->dirs[i].path ? w->dirs[i].path : "?";
        size_t need = strlen(seen) + 96;
        char *text = malloc(need);
        if (text) snprintf(text, need, "the same folder as %s, already visited (a link loop or a second link to it)", seen);
        say(w, FERRY_MESSAGE_WARNING, path, "folder-repeated", text ? text : "already visited");
        if (text) snprintf(text, need, "the same folder as %s, already visited", seen);
        add_skip(w, path, text ? text : "already visited", false);
        free(text);
        return false;
    }
    if (!grow((void **)&w->dirs, &w->dir_capacity, w->dir_count, sizeof *w->dirs, 32)) {
        w->nomem = true;
        return false;
    }
    w->dirs[w->dir_count].id = info->id;
    w->dirs[w->dir_count].has_id = info->has_id;
    w->dirs[w->dir_count].path = fy_strdup(path);
    w->dir_count++;
    return true;
}

/* a, '/' when both are non-empty, b (malloc'd). */
static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (!p) return NULL;
    memcpy(p, a, na);
    size_t at = na;
    if (na && nb) p[at++] = '/';
    memcpy(p + at, b, nb + 1);
    return p;
}

static void unreadable(fy_walk *w, const char *dir, int code)
{
    char words[256];
    const char *why = fy_sys_message(code, words, sizeof words);
    say(w, FERRY_MESSAGE_ERROR, dir, "folder-unreadable", why);
    add_skip(w, dir, why, true);
}

static void collect(fy_walk *w, const char *root, const char *rel)
{
    char *dir = join(root, rel);
    fy_folder *d = NULL;
    int code = dir ? fy_folder_open(dir, &d) : 0;
    if (!dir) {
        w->nomem = true;
        return;
    }
    if (code) {
        unreadable(w, dir, code);
        free(dir);
        return;
    }
    const char *name;
    fy_file_kind listed;
    while (fy_folder_next(d, &name, &listed)) {
        if (name[0] == '.') continue;
        char *path = join(dir, name), *sub = join(rel, name);
        if (!path || !sub) {
            w->nomem = true;
            free(path), free(sub);
            continue;
        }
        fy_file_info info, own;
        if ((code = fy_folder_entry_info(d, name, true, &info)) != 0) {
            w->visit(w->ctx, path, sub, NULL, code);
        } else if (info.kind != FY_KIND_FOLDER) {
            w->visit(w->ctx, path, sub, &info, 0);
        } else if (fy_folder_entry_info(d, name, false, &own) == 0 && own.kind == FY_KIND_LINK) {
            /* Later: a folder's own place wins over a link to it. */
            if (grow((void **)&w->linked, &w->linked_capacity, w->linked_count, sizeof *w->linked, 16)) {
                w->linked[w->linked_count++] = sub;
                sub = NULL;
            } else {
                w->nomem = true;
            }
        } else if (enter_dir(w, &info, path)) {
            collect(w, root, sub);
        }
        free(path);
        free(sub);
    }
    /* The folder stopped being readable part way. */
    if ((code = fy_folder_error(d)) != 0) unreadable(w, dir, code);
    fy_folder_close(d);
    free(dir);
}

void fy_walk_run(fy_walk *w, const char *root, const fy_file_info *root_info)
{
    size_t first_link = w->linked_count;
    if (enter_dir(w, root_info, root)) collect(w, root, "");
    for (size_t i = first_link; i < w->linked_count; i++) {
        char *path = join(root, w->linked[i]);
        fy_file_info info;
        if (path && fy_path_info(path, true, &info) == 0 && info.kind == FY_KIND_FOLDER && enter_dir(w, &info, path))
            collect(w, root, w->linked[i]);
        free(path);
    }
}

void fy_walk_free(fy_walk *w)
{
    for (size_t i = 0; i < w->dir_count; i++) free(w->dirs[i].path);
    free(w->dirs);
    for (size_t i = 0; i < w->linked_count; i++) free(w->linked[i]);
    free(w->linked);
    for (size_t i = 0; i < w->skipped_count; i++) {
        free(w->skipped[i].path);
        free(w->skipped[i].reason);
    }
    free(w->skipped);
    w->dirs = NULL;
    w->linked = NULL;
    w->skipped = NULL;
    w->dir_count = w->linked_count = w->skipped_count = 0;
}
