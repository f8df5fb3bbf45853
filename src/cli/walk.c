/* The folder walk shared by `convert -r` and `validate -r` (walk.h). */
#define _DEFAULT_SOURCE
#include "walk.h"

#include <dirent.h>
#include <errno.h>
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

/* Enters a folder once: false (and a message) when its device and inode
 * were seen before on this walk, through a link loop or a second link. */
static bool enter_dir(cli_walk *w, const struct stat *st, const char *path)
{
    for (size_t i = 0; i < w->dir_count; i++) {
        if (w->dirs[i].dev == st->st_dev && w->dirs[i].ino == st->st_ino) {
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
    w->dirs[w->dir_count].dev = st->st_dev;
    w->dirs[w->dir_count].ino = st->st_ino;
    w->dirs[w->dir_count].path = strdup(path);
    w->dir_count++;
    return true;
}

static void collect(cli_walk *w, const char *root, const char *rel)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        fprintf(stderr, "ferry %s: cannot read the folder %s: %s\n", w->cmd, CLI_TXT(dir), strerror(e));
        add_skip(w, dir, strerror(e), true);
        return;
    }
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(d);
        if (!e) {
            if (errno) { /* the folder stopped being readable part way */
                int err = errno;
                fprintf(stderr, "ferry %s: cannot read the folder %s: %s\n", w->cmd, CLI_TXT(dir), strerror(err));
                add_skip(w, dir, strerror(err), true);
            }
            break;
        }
        if (e->d_name[0] == '.') continue;
        char path[4096], sub[4096];
        /* Paths too long to hold are skipped rather than cut short. */
        int np = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int ns = snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        if (np < 0 || (size_t)np >= sizeof path || ns < 0 || (size_t)ns >= sizeof sub) continue;
        struct stat st;
        if (stat(path, &st) != 0) {
            w->visit(w->ctx, path, sub, NULL, errno);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            struct stat lst;
            if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
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
        w->visit(w->ctx, path, sub, &st, 0);
    }
    closedir(d);
}

void cli_walk_run(cli_walk *w, const char *root, const struct stat *root_st)
{
    size_t first_link = w->linked_count;
    if (enter_dir(w, root_st, root)) collect(w, root, "");
    for (size_t i = first_link; i < w->linked_count; i++) {
        char path[4096];
        struct stat lst;
        if (!w->linked[i]) continue;
        snprintf(path, sizeof path, "%s/%s", root, w->linked[i]);
        if (stat(path, &lst) == 0 && S_ISDIR(lst.st_mode) && enter_dir(w, &lst, path)) collect(w, root, w->linked[i]);
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
