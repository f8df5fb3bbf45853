/* Internal: walking a folder tree (pack, and the tree jobs: convert -r,
 * validate -r): every folder entered once (by its file identity: link
 * loops and second links are skipped), a folder's own place before a link
 * to it, names starting with '.' left out. Folders that cannot be walked
 * are recorded with their reason and said in a message. Through the
 * platform layer only. Not a public header. */
#ifndef FERRY_CORE_WALK_H
#define FERRY_CORE_WALK_H

#include "core.h"
#include "platform.h"

/* One entry that is not a folder: `path` is ROOT/REL, `rel` the path below
 * the root ('/' between folders). `info` is what is there (links
 * followed), or NULL when it cannot be looked at, `error` saying why (a
 * platform code: a dangling link, a folder that cannot be searched). The
 * visitor decides what the entry is: nothing is opened by the walk. */
typedef void (*fy_walk_visit)(void *ctx, const char *path, const char *rel, const fy_file_info *info, int error);

typedef struct fy_walk_skip {
    char *path;   /* ROOT/REL of the folder */
    char *reason; /* why it was not walked */
    bool failed;  /* it could not be read (a failure); else a link loop or second link (not one) */
} fy_walk_skip;

typedef struct fy_walk {
    fy_walk_visit visit;
    void *ctx;
    /* Each folder skipped, as met: rule "folder-repeated" (a warning; file:
     * the folder, text: "the same folder as F, already visited (a link loop
     * or a second link to it)") or "folder-unreadable" (an error; file: the
     * folder, text: the system's words). May be NULL. */
    ferry_message_fn message;
    void *user;
    /* The walk's state and findings (fy_walk_free releases them). */
    struct fy_walk_dir *dirs; /* every folder entered */
    size_t dir_count, dir_capacity;
    char **linked; /* folders reached through a link, walked after every real one */
    size_t linked_count, linked_capacity;
    fy_walk_skip *skipped; /* in the order met */
    size_t skipped_count, skipped_capacity;
    size_t failed; /* folders that could not be read */
    bool nomem;    /* an allocation failed: some entries may be missing */
} fy_walk;

/* Walks ROOT (a folder; `root_info` what fy_path_info said of it, links
 * followed), calling w->visit for every entry that is not a folder.
 * Several roots may be walked with one `w`: a folder is entered once. */
void fy_walk_run(fy_walk *w, const char *root, const fy_file_info *root_info);
void fy_walk_free(fy_walk *w);

#endif
