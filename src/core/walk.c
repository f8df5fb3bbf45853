/* The folder walk (walk.h), over the platform layer. */
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WALK_PATH_MAX 4096

static void say(fy_walk *w, ferry_message_kind kind, const char *folder, const char *rule, const char *text)
{
    if (!w->message) return;
    ferry_message m = {kind, folder, text, rule, NULL};
    w->message(w->user, &m);
}

static void add_skip(fy_walk *w, const char *path, const char *reason, bool failed)
{
    w->failed += failed; /* counted even when it cannot be listed */
    if (w->skipped_count == w->skipped_capacity) {
        size_t cap = w->skipped_capacity ? w->skipped_capacity * 2 : 8;
        fy_walk_skip *s = realloc(w->skipped, cap * sizeof *s);
        if (!s) {
            w->nomem = true;
            return;
        }
        w->skipped = s;
        w->skipped_capacity = cap;
    }
    fy_walk_skip *s = &w->skipped[w->skipped_count++];
    s->path = fy_strdup(path);
    s->reason = fy_strdup(reason);
    s->failed = failed;
}

static void unreadable(fy_walk *w, const char *dir, int code)
{
    char words[256];
    const char *reason = fy_sys_message(code, words, sizeof words);
    say(w, FERRY_MESSAGE_ERROR, dir, FERRY_WALK_FOLDER_UNREADABLE, reason);
    add_skip(w, dir, reason, true);
}

static bool same_id(const fy_file_id *a, const fy_file_id *b)
{
    return a->volume == b->volume && a->index[0] == b->index[0] && a->index[1] == b->index[1];
}

/* Enters a folder once: false (and a message) when it was seen before on
 * this walk, through a link loop or a second link. */
static bool enter_dir(fy_walk *w, const fy_file_info *info, const char *path)
{
    for (size_t i = 0; info->has_id && i < w->dir_count; i++) {
        if (!same_id(&w->dirs[i].id, &info->id)) continue;
        const char *seen = w->dirs[i].path ? w->dirs[i].path : "?";
        char text[WALK_PATH_MAX + 200], reason[WALK_PATH_MAX + 64];
        snprintf(text, sizeof text, "the same folder as %s, already visited (a link loop or a second link to it)", seen);
        say(w, FERRY_MESSAGE_NOTE, path, FERRY_WALK_FOLDER_REVISITED, text);
        snprintf(reason, sizeof reason, "the same folder as %s, already visited", seen);
        add_skip(w, path, reason, false);
        return false;
    }
    if (w->dir_count == w->dir_capacity) {
        size_t cap = w->dir_capacity ? w->dir_capacity * 2 : 32;
        fy_walk_dir *dirs = realloc(w->dirs, cap * sizeof *dirs);
        if (!dirs) {
            w->nomem = true;
            return false;
        }
        w->dirs = dirs;
        w->dir_capacity = cap;
    }
    w->dirs[w->dir_count].id = info->id;
    w->dirs[w->dir_count].path = fy_strdup(path);
    w->dir_count++;
    return true;
}

static void add_linked(fy_walk *w, const char *sub)
{
    if (w->linked_count == w->linked_capacity) {
        size_t cap = w->linked_capacity ? w->linked_capacity * 2 : 16;
        char **linked = realloc(w->linked, cap * sizeof *linked);
        if (!linked) {
            w->nomem = true;
            return;
        }
        w->linked = linked;
        w->linked_capacity = cap;
    }
    w->linked[w->linked_count++] = fy_strdup(sub);
}

static void collect(fy_walk *w, const char *root, const char *rel)
{
    char dir[WALK_PATH_MAX];
    if (*rel)
        fy_path_join(dir, sizeof dir, root, rel);
    else
        snprintf(dir, sizeof dir, "%s", root);
    fy_folder *d;
    int code = fy_folder_open(dir, &d);
    if (code) {
        unreadable(w, dir, code);
        return;
    }
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) {
        if (name[0] == '.') continue;
        char path[WALK_PATH_MAX], sub[WALK_PATH_MAX];
        /* Paths too long to hold are skipped rather than cut short. */
        int np = fy_path_join(path, sizeof path, dir, name);
        int ns = snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name);
        if (np < 0 || (size_t)np >= sizeof path || ns < 0 || (size_t)ns >= sizeof sub) continue;
        /* A regular file as listed is one (the listing does not follow
         * links): no look needed. Anything else is looked at, links
         * followed. */
        if (kind != FY_KIND_FOLDER && kind != FY_KIND_LINK && kind != FY_KIND_UNKNOWN) {
            w->visit(w->ctx, path, sub, kind, 0);
            continue;
        }
        fy_file_info info;
        if ((code = fy_folder_entry_info(d, name, true, &info)) != 0) {
            w->visit(w->ctx, path, sub, FY_KIND_UNKNOWN, code);
            continue;
        }
        if (info.kind != FY_KIND_FOLDER) {
            w->visit(w->ctx, path, sub, info.kind, 0);
            continue;
        }
        bool link = kind == FY_KIND_LINK;
        if (kind == FY_KIND_UNKNOWN) {
            fy_file_info own;
            link = fy_folder_entry_info(d, name, false, &own) == 0 && own.kind == FY_KIND_LINK;
        }
        if (link)
            add_linked(w, sub); /* later: a folder's own place wins over a link to it */
        else if (enter_dir(w, &info, path))
            collect(w, root, sub);
    }
    fy_folder_close(d);
}

void fy_walk_run(fy_walk *w, const char *root)
{
    size_t first_link = w->linked_count;
    fy_file_info info;
    int code = fy_path_info(root, true, &info);
    if (code) {
        unreadable(w, root, code);
        return;
    }
    if (enter_dir(w, &info, root)) collect(w, root, "");
    for (size_t i = first_link; i < w->linked_count; i++) {
        char path[WALK_PATH_MAX];
        if (!w->linked[i]) continue;
        fy_path_join(path, sizeof path, root, w->linked[i]);
        if (fy_path_info(path, true, &info) == 0 && info.kind == FY_KIND_FOLDER && enter_dir(w, &info, path))
            collect(w, root, w->linked[i]);
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

/* ---- the public walk (ferry.h) ---- */

typedef struct public_walk {
    const ferry_walk_options *o;
} public_walk;

static void public_visit(void *ctx, const char *path, const char *rel, fy_file_kind kind, int error)
{
    const public_walk *p = ctx;
    if (p->o->file) p->o->file(p->o->file_user, path, rel, kind == FY_KIND_REGULAR, error);
}

ferry_result ferry_folder_walk(const char *root, const ferry_walk_options *options, ferry_error *err)
{
    fy_error_clear(err);
    if (!root) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no folder");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_walk_options none = {0};
    public_walk p = {options ? options : &none};
    fy_walk w = {0};
    w.visit = public_visit;
    w.ctx = &p;
    w.message = p.o->message;
    w.user = p.o->user;
    fy_walk_run(&w, root);
    ferry_result r = FERRY_OK;
    if (w.nomem) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        r = FERRY_ERR_NOMEM;
    } else if (w.failed) {
        for (size_t i = 0; i < w.skipped_count; i++)
            if (w.skipped[i].failed) {
                fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot read the folder %s: %s",
                             w.skipped[i].path ? w.skipped[i].path : "?", w.skipped[i].reason ? w.skipped[i].reason : "?");
                break;
            }
        r = FERRY_ERR_IO;
    }
    fy_walk_free(&w);
    return r;
}
