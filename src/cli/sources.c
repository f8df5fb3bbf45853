/* The CLI's file sources: folders and archives opened once, cached
 * (sources.h). */
#define _DEFAULT_SOURCE
#include "sources.h"
#include "formats.h"

#include <ferry/meg.h>
#include <ferry/pbo.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- archive kinds: one row each ---- */

static void *meg_open(const uint8_t *data, size_t size, ferry_file_source *source, ferry_error *err)
{
    ferry_meg *m = NULL;
    if (ferry_meg_read(data, size, NULL, &m, err) != FERRY_OK) return NULL;
    if (ferry_file_source_meg(m, source, err) != FERRY_OK) {
        ferry_meg_free(m);
        return NULL;
    }
    return m;
}
static size_t meg_count(const void *a) { return ((const ferry_meg *)a)->entry_count; }
static const char *meg_name_at(const void *a, size_t i, size_t *length)
{
    const ferry_meg_entry *e = &((const ferry_meg *)a)->entries[i];
    *length = e->name ? e->name_length : 0;
    return e->name;
}
static void meg_close(void *a) { ferry_meg_free(a); }

static void *pbo_open(const uint8_t *data, size_t size, ferry_file_source *source, ferry_error *err)
{
    ferry_pbo *p = NULL;
    if (ferry_pbo_read(data, size, NULL, &p, err) != FERRY_OK) return NULL;
    if (ferry_file_source_pbo(p, source, err) != FERRY_OK) {
        ferry_pbo_free(p);
        return NULL;
    }
    return p;
}
static size_t pbo_count(const void *a) { return ((const ferry_pbo *)a)->entry_count; }
static const char *pbo_name_at(const void *a, size_t i, size_t *length)
{
    const ferry_pbo_entry *e = &((const ferry_pbo *)a)->entries[i];
    *length = e->name_length;
    return e->name;
}
static void pbo_close(void *a) { ferry_pbo_free(a); }
static const char *pbo_prefix(const void *a) { return ferry_pbo_property_value(a, "prefix"); }

static const cli_archive_kind archive_kinds[] = {
    {FERRY_FORMAT_MEG, ".meg", "MEG archive", meg_open, meg_count, meg_name_at, meg_close, NULL},
    {FERRY_FORMAT_PBO, ".pbo", "PBO archive", pbo_open, pbo_count, pbo_name_at, pbo_close, pbo_prefix},
};

const cli_archive_kind *cli_archive_kind_of(const char *path)
{
    ferry_format f = cli_format_guess(path); /* content first, then the extension */
    for (size_t i = 0; i < sizeof archive_kinds / sizeof archive_kinds[0]; i++)
        if (archive_kinds[i].id == f) return &archive_kinds[i];
    for (size_t i = 0; i < sizeof archive_kinds / sizeof archive_kinds[0]; i++)
        if (f == FERRY_FORMAT_UNKNOWN && cli_has_ext(path, archive_kinds[i].ext)) return &archive_kinds[i];
    return NULL;
}

char *cli_entry_path(const char *name, size_t n, const char **why)
{
    if (!name) return *why = "its name index is out of range", NULL;
    if (!n) return *why = "its name is empty", NULL;
    if (memchr(name, 0, n)) return *why = "its name holds a NUL byte", NULL;
    if (n >= 2 && name[1] == ':') return *why = "its name starts with a drive letter", NULL;
    if (name[0] == '\\' || name[0] == '/') return *why = "its name is an absolute path", NULL;
    char *p = malloc(n + 1);
    if (!p) return *why = "out of memory", NULL;
    for (size_t i = 0; i < n; i++) p[i] = name[i] == '\\' ? '/' : name[i];
    p[n] = 0;
    /* Every segment must be a plain name. */
    for (const char *s = p;;) {
        const char *end = strchr(s, '/');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.')) {
            free(p);
            return *why = "its name has an empty, '.' or '..' segment", NULL;
        }
        if (!end) break;
        s = end + 1;
    }
    return p;
}

/* ---- the pool ---- */

typedef struct pool_root {
    cli_root root;
    bool folder;
    ferry_file_source inner, cached;
    ferry_file_mapping map; /* an archive's bytes */
} pool_root;

struct cli_sources {
    pthread_mutex_t lock;
    pool_root **roots;
    size_t count, capacity;
};

cli_sources *cli_sources_new(void)
{
    cli_sources *p = calloc(1, sizeof *p);
    if (p && pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

static void root_free(pool_root *r)
{
    if (!r) return;
    ferry_file_source_close(&r->cached);
    ferry_file_source_close(&r->inner);
    if (r->root.kind && r->root.archive) r->root.kind->close(r->root.archive);
    ferry_file_unmap(&r->map);
    free((char *)r->root.path);
    free((char *)r->root.prefix);
    free(r);
}

void cli_sources_free(cli_sources *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->count; i++) root_free(p->roots[i]);
    free(p->roots);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static void set_nomem(ferry_error *err)
{
    memset(err, 0, sizeof *err);
    err->code = FERRY_ERR_NOMEM;
    err->offset = FERRY_NO_OFFSET;
    snprintf(err->message, sizeof err->message, "out of memory");
}

/* Opens `path` (a folder when `folder`, else an archive); NULL with err. */
static pool_root *root_open(const char *path, bool folder, ferry_error *err)
{
    pool_root *r = calloc(1, sizeof *r);
    if (!r || !(r->root.path = strdup(path))) {
        free(r);
        set_nomem(err);
        return NULL;
    }
    r->folder = folder;
    if (folder) {
        if (ferry_file_source_folder(path, &r->inner, err) != FERRY_OK) goto fail;
    } else {
        const cli_archive_kind *kind = cli_archive_kind_of(path);
        if (!kind) {
            memset(err, 0, sizeof *err);
            err->code = FERRY_ERR_UNSUPPORTED;
            err->offset = FERRY_NO_OFFSET;
            snprintf(err->message, sizeof err->message, "neither a folder nor an archive ferry reads (MEG, PBO)");
            goto fail;
        }
        /* Mapped, not read: an archive of gigabytes costs only the pages
         * its tables and the entries converted touch (regular files only). */
        if (ferry_file_map(path, 0, &r->map, err) != FERRY_OK) goto fail;
        r->root.kind = kind;
        r->root.archive = kind->open(r->map.data, r->map.size, &r->inner, err);
        if (!r->root.archive) goto fail;
        r->inner.label = r->root.path;
        if (kind->prefix) {
            /* Without a prefix property the engine mounts an archive at its
             * file name, without the extension. */
            const char *pre = kind->prefix(r->root.archive);
            if (pre) {
                r->root.prefix = strdup(pre);
            } else {
                const char *base = strrchr(path, '/');
                base = base ? base + 1 : path;
                const char *dot = strrchr(base, '.');
                r->root.prefix = strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
            }
            if (!r->root.prefix) {
                set_nomem(err);
                goto fail;
            }
        }
    }
    if (ferry_file_source_cached(&r->inner, &r->cached, err) != FERRY_OK) goto fail;
    r->root.source = &r->cached;
    return r;
fail:
    root_free(r);
    return NULL;
}

static const cli_root *pool_get(cli_sources *p, const char *path, bool folder, ferry_error *err)
{
    pthread_mutex_lock(&p->lock);
    pool_root *found = NULL;
    for (size_t i = 0; i < p->count && !found; i++)
        if (p->roots[i]->folder == folder && strcmp(p->roots[i]->root.path, path) == 0) found = p->roots[i];
    if (!found && p->count == p->capacity) {
        size_t cap = p->capacity ? 2 * p->capacity : 16;
        pool_root **roots = realloc(p->roots, cap * sizeof *roots);
        if (roots) {
            p->roots = roots;
            p->capacity = cap;
        }
    }
    if (!found && p->count < p->capacity && (found = root_open(path, folder, err))) p->roots[p->count++] = found;
    else if (!found && p->count == p->capacity) set_nomem(err);
    pthread_mutex_unlock(&p->lock);
    return found ? &found->root : NULL;
}

const ferry_file_source *cli_sources_folder(cli_sources *p, const char *dir, ferry_error *err)
{
    const cli_root *r = pool_get(p, dir, true, err);
    return r ? r->source : NULL;
}

const cli_root *cli_sources_open(cli_sources *p, const char *path, ferry_error *err)
{
    struct stat st;
    bool folder = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    return pool_get(p, path, folder, err);
}

int cli_check_texture_place(const char *cmd, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return cli_usage_error(cmd, "--textures %s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode) || cli_archive_kind_of(path)) return CLI_OK;
    return cli_usage_error(cmd, "--textures %s: neither a folder nor an archive (MEG, PBO)", path);
}
