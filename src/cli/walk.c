/* The folder walk shared by `convert -r` and `validate -r` (walk.h). */
#define _DEFAULT_SOURCE
#include "walk.h"

#include <stdlib.h>
#include <string.h>

static void add_skip(cli_walk *w, const char *path, const char *reason, bool failed)
{
    if (w->skipped_count == w->skipped_capacity) {
        size_t cap = w->skipped_capacity ? w->skipped_capacity * 2 : 8;
        cli_walk_skip *s = realloc(w->skipped, cap * sizeof *s);
        if (!s) {
            w->failed += failed; /* still counted, though not listed */
            return;
        }
        w->skipped = s;
        w->skipped_capacity = cap;
    }
    cli_walk_skip *s = &w->skipped[w->skipped_count++];
    s->path = strdup(path);
    s->reason = strdup(reason);
    s->failed = failed;
    w->failed += failed;
}

static bool same_folder(const ferry_path_info *a, const ferry_path_info *b)
{
    return a->has_id && b->has_id && a->id[0] == b->id[0] && a->id[1] == b->id[1] && a->id[2] == b->id[2];
}

/* Enters a folder once: false (and a message) when its identity was seen
 * before on this walk, through a link loop or a second link. */
static bool enter_dir(cli_walk *w, const ferry_path_info *st, const char *path)
{
    for (size_t i = 0; i < w->dir_count; i++) {
        if (same_folder(&w->dirs[i].info, st)) {
            const char *seen = w->dirs[i].path ? w->dirs[i].path : "?";
            fprintf(stderr, "ferry %s: skipping %s: the same folder as %s, already visited "
                            "(a link loop or a second link to it)\n",
                    w->cmd, CLI_TXT(path), CLI_TXT(seen));
            size_t need = strlen(seen) + 64;
            char *reason = malloc(need);
            if (reason) snprintf(reason, need, "the same folder as %s, already visited", seen);
            add_skip(w, path, reason ? reason : "already visited", false);
            free(reason);
            return false;
        }
    }
    if (w->dir_count == w->dir_capacity) {
        size_t cap = w->dir_capacity ? w->dir_capacity * 2 : 32;
        cli_walk_dir *dirs = realloc(w->dirs, cap * sizeof *dirs);
        if (!dirs) return false;
        w->dirs = dirs;
        w->dir_capacity = cap;
    }
    w->dirs[w->dir_count].info = *st;
    w->dirs[w->dir_count].path = strdup(path);
    w->dir_count++;
    return true;
}

/* A folder's names, gathered before any is looked at: the listing stays
 * open no longer than it takes to read it. */
typedef struct name_list {
    char **names;
    size_t count, capacity;
    bool oom;
} name_list;

static bool add_name(void *ctx, const char *name, ferry_entry_kind kind)
{
    (void)kind;
    name_list *l = ctx;
    if (name[0] == '.') return true;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 32;
        char **grown = realloc(l->names, cap * sizeof *grown);
        if (!grown) {
            l->oom = true;
            return false;
        }
        l->names = grown;
        l->capacity = cap;
    }
    if (!(l->names[l->count] = strdup(name))) {
        l->oom = true;
        return false;
    }
    l->count++;
    return true;
}

static void unreadable(cli_walk *w, const char *dir, const ferry_error *err)
{
    /* The system's words alone: the message is "cannot read the folder DIR: WORDS". */
    const char *words = err->message;
    size_t n = strlen(dir);
    if (strncmp(words, "cannot read the folder ", 23) == 0 && strncmp(words + 23, dir, n) == 0 &&
        strncmp(words + 23 + n, ": ", 2) == 0)
        words += 25 + n;
    fprintf(stderr, "ferry %s: cannot read the folder %s: %s\n", w->cmd, CLI_TXT(dir), CLI_TXT(words));
    add_skip(w, dir, words, true);
}

static void collect(cli_walk *w, const char *root, const char *rel)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    name_list names = {0};
    ferry_error err;
    if (ferry_folder_list(dir, add_name, &names, &err) != FERRY_OK) unreadable(w, dir, &err);
    for (size_t i = 0; i < names.count; i++) {
        const char *name = names.names[i];
        char path[4096], sub[4096];
        /* Paths too long to hold are skipped rather than cut short. */
        int np = snprintf(path, sizeof path, "%s/%s", dir, name);
        int ns = snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name);
        if (np < 0 || (size_t)np >= sizeof path || ns < 0 || (size_t)ns >= sizeof sub) continue;
        ferry_path_info st;
        if (ferry_path_stat(path, true, &st, &err) != FERRY_OK || st.kind == FERRY_PATH_MISSING) {
            w->visit(w->ctx, path, sub, NULL, true);
            continue;
        }
        if (st.kind == FERRY_PATH_FOLDER) {
            ferry_path_info lst;
            if (ferry_path_stat(path, false, &lst, &err) == FERRY_OK && lst.kind == FERRY_PATH_LINK) {
                /* Later: a folder's own place wins over a link to it. */
                if (w->linked_count == w->linked_capacity) {
                    size_t cap = w->linked_capacity ? w->linked_capacity * 2 : 16;
                    char **linked = realloc(w->linked, cap * sizeof *linked);
                    if (!linked) continue;
                    w->linked = linked;
                    w->linked_capacity = cap;
                }
                w->linked[w->linked_count++] = strdup(sub);
            } else if (enter_dir(w, &st, path)) {
                collect(w, root, sub);
            }
            continue;
        }
        w->visit(w->ctx, path, sub, &st, false);
    }
    for (size_t i = 0; i < names.count; i++) free(names.names[i]);
    free(names.names);
    if (names.oom) fprintf(stderr, "ferry %s: out of memory listing %s\n", w->cmd, CLI_TXT(dir));
}

void cli_walk_run(cli_walk *w, const char *root, const ferry_path_info *root_info)
{
    size_t first_link = w->linked_count;
    if (enter_dir(w, root_info, root)) collect(w, root, "");
    for (size_t i = first_link; i < w->linked_count; i++) {
        char path[4096];
        ferry_path_info lst;
        ferry_error err;
        if (!w->linked[i]) continue;
        snprintf(path, sizeof path, "%s/%s", root, w->linked[i]);
        if (ferry_path_stat(path, true, &lst, &err) == FERRY_OK && lst.kind == FERRY_PATH_FOLDER &&
            enter_dir(w, &lst, path))
            collect(w, root, w->linked[i]);
    }
}

void cli_walk_free(cli_walk *w)
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

json_t *cli_walk_skipped_json(const cli_walk *w)
{
    json_t *list = json_array();
    for (size_t i = 0; i < w->skipped_count; i++) {
        json_t *s = json_object();
        cli_json_set_text(s, "path", w->skipped[i].path ? w->skipped[i].path : "");
        cli_json_set_text(s, "reason", w->skipped[i].reason ? w->skipped[i].reason : "");
        json_object_set_new(s, "failed", json_boolean(w->skipped[i].failed));
        json_array_append_new(list, s);
    }
    return list;
}

void cli_walk_print_failed(const cli_walk *w)
{
    if (!w->failed) return;
    fprintf(stderr, "%zu folder%s could not be read:\n", w->failed, w->failed == 1 ? "" : "s");
    for (size_t i = 0; i < w->skipped_count; i++)
        if (w->skipped[i].failed)
            fprintf(stderr, "  %s: %s\n", CLI_TXT(w->skipped[i].path ? w->skipped[i].path : "?"),
                    CLI_TXT(w->skipped[i].reason ? w->skipped[i].reason : "?"));
}
