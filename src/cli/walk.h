/* Walking a folder tree for `convert -r` and `validate -r`: every folder
 * entered once (by its identity, device and inode: link loops and second links are
 * skipped), a folder's own place before a link to it, names starting with
 * '.' left out. Folders that cannot be walked are recorded with their
 * reason; a folder that cannot be read is a failure of the command. */
#ifndef FERRY_CLI_WALK_H
#define FERRY_CLI_WALK_H

#include "cli.h"

/* One entry that is not a folder: `path` is ROOT/REL, `rel` the path below
 * the root. `info` is what is there (ferry_path_stat, links followed), or
 * NULL when that could not be told (error true: a dangling link, a folder
 * that cannot be searched). The visitor decides what the entry is: nothing
 * is opened by the walk. */
typedef void (*cli_walk_visit)(void *ctx, const char *path, const char *rel, const ferry_path_info *info, bool error);

typedef struct cli_walk_skip {
    char *path;   /* ROOT/REL of the folder */
    char *reason; /* why it was not walked */
    bool failed;  /* it could not be read (a failure); else a link loop or second link (not one) */
} cli_walk_skip;

typedef struct cli_walk_dir {
    ferry_path_info info; /* its identity */
    char *path;
} cli_walk_dir;

typedef struct cli_walk {
    const char *cmd; /* "convert", "validate": messages say "ferry CMD: ..." */
    cli_walk_visit visit;
    void *ctx;
    cli_walk_dir *dirs; /* every folder entered, so that none is entered twice */
    size_t dir_count, dir_capacity;
    char **linked; /* folders reached through a link (below the current root), walked after every real one */
    size_t linked_count, linked_capacity;
    cli_walk_skip *skipped; /* in the order met */
    size_t skipped_count, skipped_capacity;
    size_t failed; /* folders that could not be read */
} cli_walk;

/* Walks ROOT (a folder; `root_info` what ferry_path_stat says of it),
 * calling w->visit for every entry that is not a folder; messages about
 * skipped folders go to stderr. Several roots may be walked with one `w`:
 * a folder is entered once. Through the library's platform layer
 * (ferry_path_stat, ferry_folder_list): UTF-8 paths on every system. */
void cli_walk_run(cli_walk *w, const char *root, const ferry_path_info *root_info);
void cli_walk_free(cli_walk *w);

/* [{"path": ..., "reason": ..., "failed": bool}, ...] (paths by the latin1 rule). */
json_t *cli_walk_skipped_json(const cli_walk *w);
/* "N folder(s) could not be read:" and each with its reason, on stderr; nothing when none. */
void cli_walk_print_failed(const cli_walk *w);

#endif
