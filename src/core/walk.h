/* Internal: walking a folder tree (the tree jobs: convert -r, validate -r;
 * pack): every folder entered
 * once (by its file identity: link loops and second links are skipped), a
 * folder's own place before a link to it, names starting with '.' left
 * out. Folders that cannot be walked are recorded with their reason; one
 * that cannot be read is a failure of the job. Nothing is opened but
 * folders: the visitor decides what an entry is. Through the platform
 * layer only. Not thread-safe: one walk, one thread. */
#ifndef FERRY_CORE_WALK_H
#define FERRY_CORE_WALK_H

#include "core.h"
#include "platform.h"


/* One entry that is not a folder: `path` is ROOT/REL, `rel` the path below
 * the root ('/' between folders). `kind` is what it is, links followed
 * (FY_KIND_UNKNOWN with `error` set when that could not be told: a
 * dangling link); a file the listing calls regular costs no look. */
typedef void (*fy_walk_visit)(void *ctx, const char *path, const char *rel, fy_file_kind kind, int error);

typedef struct fy_walk_skip {
    char *path;   /* ROOT/REL of the folder */
    char *reason; /* why it was not walked */
    bool failed;  /* it could not be read (a failure); else a link loop or second link (not one) */
} fy_walk_skip;

typedef struct fy_walk_dir {
    fy_file_id id;
    char *path;
} fy_walk_dir;

typedef struct fy_walk {
    fy_walk_visit visit;
    void *ctx;
    /* Each folder skipped, as it is met: FERRY_WALK_FOLDER_REVISITED and
     * FERRY_WALK_FOLDER_UNREADABLE (ferry.h). */
    ferry_message_fn message;
    void *user;
    fy_walk_dir *dirs; /* every folder entered, so that none is entered twice */
    size_t dir_count, dir_capacity;
    char **linked; /* folders reached through a link, walked after every real one */
    size_t linked_count, linked_capacity;
    fy_walk_skip *skipped; /* in the order met */
    size_t skipped_count, skipped_capacity;
    size_t failed; /* folders that could not be read */
    bool nomem;
} fy_walk;

/* Walks ROOT, a folder, calling w->visit for every entry that is not a
 * folder. Several roots may be walked with one `w`: a folder is entered
 * once. */
void fy_walk_run(fy_walk *w, const char *root);
void fy_walk_free(fy_walk *w);

#endif
