/* File sources the CLI opens from its arguments: folders of the disk and
 * archives (one table row per archive kind), each opened once per path,
 * wrapped in ferry_file_source_cached (every folder listed once) and kept
 * until the pool is freed. Used by convert (-r, --textures) and validate.
 *
 * Threads: the pool has its own lock, and every source it gives may be used
 * from several threads at once. A folder source holds only its root (each
 * call opens what it reads); a MEG source only reads the archive's tables
 * and bytes, which nothing changes after they are read; the cache wrapper
 * lists under its own lock. An archive kind added to the table must give a
 * source whose load is as safe (or the batch must keep it to one thread).
 *
 * An archive is mapped (mmap), not read into memory: a multi-gigabyte one
 * costs the pages its tables and the converted entries touch. Like any
 * mapping, one truncated by another program while it is used ends the
 * process (SIGBUS); ferry never writes to an archive it reads. */
#ifndef FERRY_CLI_SOURCES_H
#define FERRY_CLI_SOURCES_H

#include "cli.h"

/* An archive kind: how an archive file becomes a file source. One row per
 * kind in sources.c (archive_kinds); nothing else in the CLI names one. */
typedef struct cli_archive_kind {
    ferry_format id;  /* told by content (ferry_detect) */
    const char *ext;  /* else by this extension (".meg") */
    const char *name; /* "MEG archive" */
    /* Reads the archive from its bytes (kept alive by the pool until the
     * archive is closed) and fills *source with it as a file source.
     * NULL with err filled on failure. */
    void *(*open)(const uint8_t *data, size_t size, ferry_file_source *source, ferry_error *err);
    /* Its entries as stored: how many, and the i-th name (its bytes and
     * length; a stored name may hold anything). Paths in the source are the
     * names with '\' as '/'. */
    size_t (*count)(const void *archive);
    const char *(*name_at)(const void *archive, size_t i, size_t *length);
    void (*close)(void *archive);
    /* The engine path its entries are mounted at (a PBO's "prefix"
     * property; NULL when it has none: the archive's file name without its
     * extension is used), or NULL for kinds the engine does not mount by a
     * prefix (MEG): then this callback is NULL. */
    const char *(*prefix)(const void *archive);
} cli_archive_kind;

/* The archive kind of `path` (by content, else by extension), or NULL. */
const cli_archive_kind *cli_archive_kind_of(const char *path);

/* An entry's stored name as a relative path with '/' that stays inside any
 * folder it is written below, or NULL with *why (and nothing allocated):
 * an empty name, a NUL byte, a drive letter, an absolute path, an empty,
 * '.' or '..' segment. malloc'd. The rule extract and convert -r share. */
char *cli_entry_path(const char *name, size_t length, const char **why);

typedef struct cli_root {
    const char *path;                /* as given */
    const ferry_file_source *source; /* cached; labelled with `path` */
    const cli_archive_kind *kind;    /* NULL: a folder */
    void *archive;                   /* kind's handle */
    /* The engine path the archive's entries stand for (kinds with a prefix:
     * PBO), NULL otherwise: how an ODOL model's textures are found in it
     * (ferry_odol_root). */
    const char *prefix;
} cli_root;

typedef struct cli_sources cli_sources;

cli_sources *cli_sources_new(void);
void cli_sources_free(cli_sources *pool);
/* A folder of the disk (any path), opened once per path string. NULL
 * with err filled when it cannot be opened. */
const ferry_file_source *cli_sources_folder(cli_sources *pool, const char *dir, ferry_error *err);
/* A folder, or an archive of a kind in the table: what --textures and
 * convert -r take. NULL with err filled (an archive that cannot be read,
 * a file that is no archive). */
const cli_root *cli_sources_open(cli_sources *pool, const char *path, ferry_error *err);

/* CLI_OK when `path` is a folder or an archive of a kind in the table;
 * otherwise prints why as a usage error of `cmd` (--textures) and returns
 * CLI_USAGE. */
int cli_check_texture_place(const char *cmd, const char *path);

#endif
