/* The files a model names (textures, materials), found as the engine finds
 * them: each addon mounted at its prefix, paths compared ignoring case,
 * .pac and .paa alike; all through file sources (ferry.h), so a folder of
 * addons, a P:-drive tree and an archive with its prefix are all roots.
 * docs/formats/odol-gltf.md, "Texture resolution". */
#include <ferry/odol.h>

#include "../../core/core.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest engine path and prefix handled (the engine's own limit is far
 * lower; longer names are not found). */
#define NAME_MAX_LEN 1024
/* A prefix file holds one line; anything longer is not a prefix. */
#define PREFIX_FILE_LIMIT 4096

/* One addon as the engine mounts it: a folder of a root's source standing
 * for an engine path prefix (lower case, '\\'-separated, no '\\' at either
 * end; "" for the game's root). */
typedef struct mount {
    size_t root;
    const ferry_file_source *source;
    char *folder; /* in the source, '/'-separated; "" for its root */
    char *prefix;
    size_t prefix_len;
} mount;

typedef struct mounts {
    mount *items;
    size_t count, capacity;
    bool nomem;
} mounts;

/* Lower case, '/' as '\\', no '\\' at either end, no empty components;
 * NULL when it does not fit or memory fails. */
static char *normal_path(const char *s, size_t n)
{
    while (n && (*s == '\\' || *s == '/' || isspace((unsigned char)*s))) s++, n--;
    while (n && (s[n - 1] == '\\' || s[n - 1] == '/' || isspace((unsigned char)s[n - 1]))) n--;
    if (n >= NAME_MAX_LEN) return NULL;
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i] == '/' ? '\\' : (char)tolower((unsigned char)s[i]);
        if (c == '\\' && w && out[w - 1] == '\\') continue;
        out[w++] = c;
    }
    out[w] = '\0';
    return out;
}

static void add_mount(mounts *m, size_t root, const ferry_file_source *source, const char *folder, const char *prefix,
                      size_t prefix_len)
{
    if (m->nomem) return;
    if (m->count == m->capacity) {
        size_t cap = m->capacity ? 2 * m->capacity : 16;
        mount *items = realloc(m->items, cap * sizeof *items);
        if (!items) {
            m->nomem = true;
            return;
        }
        m->items = items;
        m->capacity = cap;
    }
    mount *t = &m->items[m->count];
    t->root = root;
    t->source = source;
    t->folder = malloc(strlen(folder) + 1);
    t->prefix = normal_path(prefix, prefix_len);
    if (!t->folder || !t->prefix) {
        free(t->folder);
        free(t->prefix);
        /* A prefix too long to hold is no mount; memory failing is. */
        if (!t->folder || prefix_len < NAME_MAX_LEN) m->nomem = true;
        return;
    }
    memcpy(t->folder, folder, strlen(folder) + 1);
    t->prefix_len = strlen(t->prefix);
    m->count++;
}

/* The names a prefix file goes by: $PREFIX$ (the corpus' addons, PBO
 * Manager), $PBOPREFIX$ (the packers' name; also saved as
 * $PBOPREFIX$.txt by Windows editors), pboprefix.txt (Mikero's). */
static bool is_prefix_file(const char *name)
{
    return strcasecmp(name, "$PREFIX$") == 0 || strcasecmp(name, "$PBOPREFIX$") == 0 ||
           strcasecmp(name, "$PBOPREFIX$.txt") == 0 || strcasecmp(name, "pboprefix.txt") == 0;
}

typedef struct prefix_search {
    char name[256];
    bool found;
} prefix_search;

static bool match_prefix_file(void *ctx, const char *name, ferry_entry_kind kind)
{
    prefix_search *p = ctx;
    if (kind != FERRY_ENTRY_FILE || !is_prefix_file(name) || strlen(name) >= sizeof p->name) return true;
    memcpy(p->name, name, strlen(name) + 1);
    p->found = true;
    return false;
}

bool ferry_odol_addon_root(const ferry_file_source *source, const char *folder)
{
    prefix_search p = {"", false};
    ferry_error e;
    return source && folder && ferry_file_source_list(source, folder, match_prefix_file, &p, &e) == FERRY_OK && p.found;
}

/* The prefix a folder's prefix file names (its first line, trimmed; a
 * UTF-8 byte order mark dropped), into out. False when the folder has no
 * readable prefix file or it names nothing. */
static bool read_prefix(const ferry_file_source *src, const char *folder, char *out, size_t out_size)
{
    prefix_search p = {"", false};
    ferry_error e;
    if (ferry_file_source_list(src, folder, match_prefix_file, &p, &e) != FERRY_OK || !p.found) return false;
    char path[NAME_MAX_LEN + 300];
    int n = *folder ? snprintf(path, sizeof path, "%s/%s", folder, p.name) : snprintf(path, sizeof path, "%s", p.name);
    if (n < 0 || (size_t)n >= sizeof path) return false;
    uint8_t *data;
    size_t size;
    if (ferry_file_source_load(src, path, PREFIX_FILE_LIMIT, &data, &size, &e) != FERRY_OK) return false;
    /* The first line that is not empty, or the value of a "prefix=" line
     * (files holding key=value lines), which wins. */
    size_t pos = size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF ? 3 : 0;
    bool ok = false;
    while (pos < size) {
        size_t end = pos;
        while (end < size && data[end] != '\n' && data[end] != '\r' && data[end] != '\0') end++;
        size_t a = pos, b = end;
        while (a < b && isspace(data[a])) a++;
        while (b > a && isspace(data[b - 1])) b--;
        const uint8_t *eq = a < b ? memchr(data + a, '=', b - a) : NULL;
        if (eq) {
            size_t k = (size_t)(eq - data), key_end = k;
            while (key_end > a && isspace(data[key_end - 1])) key_end--;
            if (key_end - a == 6 && strncasecmp((const char *)data + a, "prefix", 6) == 0) {
                size_t v = k + 1;
                while (v < b && isspace(data[v])) v++;
                ok = b > v && b - v < out_size;
                if (ok) {
                    memcpy(out, data + v, b - v);
                    out[b - v] = '\0';
                }
                break;
            }
        } else if (!ok && b > a && b - a < out_size) {
            memcpy(out, data + a, b - a);
            out[b - a] = '\0';
            ok = true;
        }
        if (end >= size || data[end] == '\0') break;
        pos = end + 1;
    }
    ferry_file_source_release(src, data, size);
    if (!ok) return false;
    char *norm = normal_path(out, strlen(out));
    ok = norm && *norm;
    free(norm);
    return ok;
}

typedef struct folder_list {
    char (*names)[256];
    size_t count, capacity;
    bool nomem;
} folder_list;

static bool collect_folder(void *ctx, const char *name, ferry_entry_kind kind)
{
    folder_list *f = ctx;
    if (kind != FERRY_ENTRY_FOLDER || strlen(name) >= 256) return true;
    if (f->count == f->capacity) {
        size_t cap = f->capacity ? 2 * f->capacity : 16;
        char (*n)[256] = realloc(f->names, cap * sizeof *n);
        if (!n) {
            f->nomem = true;
            return false;
        }
        f->names = n;
        f->capacity = cap;
    }
    memcpy(f->names[f->count++], name, strlen(name) + 1);
    return true;
}

/* How deep below a root prefix files are looked for (1: the root's own
 * folders; a mod's "@mod/addons/NAME/$PBOPREFIX$" is at depth 2), and how
 * many folders may be listed for them per root, so that a whole P: drive
 * given as a root costs a bounded time. */
#define PREFIX_DEPTH 3
#define PREFIX_FOLDER_BUDGET 4096

/* Mounts the folders under `folder` (depth: theirs): each with a prefix
 * file at its prefix (not looked into further); at depth 1 one without is
 * mounted at its own name, as packers name a PBO without a prefix file;
 * deeper ones without are looked into for prefix files. */
static void scan_folders(mounts *m, size_t index, const ferry_file_source *src, const char *folder, int depth,
                         size_t *budget)
{
    folder_list f = {NULL, 0, 0, false};
    ferry_error e;
    if (*budget == 0) return;
    (*budget)--;
    if (ferry_file_source_list(src, folder, collect_folder, &f, &e) == FERRY_OK) {
        for (size_t i = 0; i < f.count && !m->nomem; i++) {
            char path[NAME_MAX_LEN], prefix[NAME_MAX_LEN];
            int n = *folder ? snprintf(path, sizeof path, "%s/%s", folder, f.names[i])
                            : snprintf(path, sizeof path, "%s", f.names[i]);
            if (n < 0 || (size_t)n >= sizeof path) continue;
            if (*budget && ((*budget)--, read_prefix(src, path, prefix, sizeof prefix))) {
                add_mount(m, index, src, path, prefix, strlen(prefix));
                continue;
            }
            if (depth == 1) add_mount(m, index, src, path, f.names[i], strlen(f.names[i]));
            if (depth < PREFIX_DEPTH) scan_folders(m, index, src, path, depth + 1, budget);
        }
    }
    m->nomem |= f.nomem;
    free(f.names);
}

/* The mounts of one root, longest prefix first (the literal tree last). */
static void root_mounts(mounts *m, size_t index, const ferry_odol_root *root)
{
    const ferry_file_source *src = root->source;
    if (!src) return;
    size_t first = m->count;
    if (root->prefix) {
        add_mount(m, index, src, "", root->prefix, strlen(root->prefix));
    } else {
        char prefix[NAME_MAX_LEN];
        if (read_prefix(src, "", prefix, sizeof prefix)) add_mount(m, index, src, "", prefix, strlen(prefix));
        size_t budget = PREFIX_FOLDER_BUDGET;
        scan_folders(m, index, src, "", 1, &budget);
        add_mount(m, index, src, "", "", 0);
    }
    /* Stable insertion sort of this root's mounts by prefix length,
     * longest first (a handful per root). */
    for (size_t i = first + 1; i < m->count; i++) {
        mount t = m->items[i];
        size_t j = i;
        while (j > first && m->items[j - 1].prefix_len < t.prefix_len) {
            m->items[j] = m->items[j - 1];
            j--;
        }
        m->items[j] = t;
    }
}

/* `rest` ('\\'-separated, lower case, no empty component) under the mount's
 * folder, each component found ignoring case; the last also with .pac and
 * .paa swapped. The path found goes to out. */
static bool find_in_mount(const mount *t, const char *rest, char *out, size_t out_size)
{
    char cur[NAME_MAX_LEN + 300];
    size_t cur_len = strlen(t->folder);
    if (cur_len >= sizeof cur) return false;
    memcpy(cur, t->folder, cur_len + 1);
    const char *p = rest;
    for (;;) {
        const char *end = strchr(p, '\\');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char comp[NAME_MAX_LEN];
        if (n == 0 || n >= sizeof comp) return false;
        memcpy(comp, p, n);
        comp[n] = '\0';
        if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) return false;
        char found[sizeof cur];
        if (end) {
            if (!ferry_file_source_find(t->source, cur, comp, FERRY_ENTRY_FOLDER, found, sizeof found)) return false;
            memcpy(cur, found, strlen(found) + 1);
            p = end + 1;
            continue;
        }
        bool ok = ferry_file_source_find(t->source, cur, comp, FERRY_ENTRY_FILE, found, sizeof found);
        if (!ok && n > 4 && (strcmp(comp + n - 4, ".pac") == 0 || strcmp(comp + n - 4, ".paa") == 0)) {
            comp[n - 1] = comp[n - 1] == 'c' ? 'a' : 'c';
            ok = ferry_file_source_find(t->source, cur, comp, FERRY_ENTRY_FILE, found, sizeof found);
        }
        if (!ok || strlen(found) >= out_size) return false;
        memcpy(out, found, strlen(found) + 1);
        return true;
    }
}

ferry_result ferry_odol_find_files(const ferry_odol_root *roots, size_t root_count, const char *const *names,
                                   size_t name_count, ferry_odol_found *found, ferry_error *err)
{
    fy_error_clear(err);
    if ((!roots && root_count) || (!names && name_count) || (!found && name_count)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no roots, names or results given");
        return FERRY_ERR_ARGUMENT;
    }
    for (size_t i = 0; i < name_count; i++) found[i] = (ferry_odol_found){NULL, 0, NULL};
    mounts m = {NULL, 0, 0, false};
    for (size_t r = 0; r < root_count && !m.nomem; r++) root_mounts(&m, r, &roots[r]);
    for (size_t i = 0; i < name_count && !m.nomem; i++) {
        const char *name = names[i];
        if (!name || !*name || name[0] == '#') continue;
        char *want = normal_path(name, strlen(name));
        if (!want) {
            if (strlen(name) < NAME_MAX_LEN) m.nomem = true;
            continue;
        }
        size_t want_len = strlen(want);
        char path[NAME_MAX_LEN + 300];
        for (size_t k = 0; *want && k < m.count; k++) {
            const mount *t = &m.items[k];
            const char *rest = want;
            if (t->prefix_len) {
                if (want_len <= t->prefix_len || want[t->prefix_len] != '\\' ||
                    memcmp(want, t->prefix, t->prefix_len) != 0)
                    continue;
                rest = want + t->prefix_len + 1;
            }
            if (!find_in_mount(t, rest, path, sizeof path)) continue;
            found[i].path = malloc(strlen(path) + 1);
            if (!found[i].path) {
                m.nomem = true;
                break;
            }
            memcpy(found[i].path, path, strlen(path) + 1);
            found[i].source = t->source;
            found[i].root = t->root;
            break;
        }
        free(want);
    }
    for (size_t k = 0; k < m.count; k++) {
        free(m.items[k].folder);
        free(m.items[k].prefix);
    }
    free(m.items);
    if (m.nomem) {
        ferry_odol_found_free(found, name_count);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory finding files");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}

void ferry_odol_found_free(ferry_odol_found *found, size_t count)
{
    if (!found) return;
    for (size_t i = 0; i < count; i++) {
        free(found[i].path);
        found[i] = (ferry_odol_found){NULL, 0, NULL};
    }
}
