/* ferry_archive_extract: an archive's entries written under a folder
 * (archive.h), never outside it: names that could lead out are refused
 * (ferry_archive_entry_path), folders on the way that are links are
 * refused, names equal but for case are refused, each file is written
 * atomically. Folders and files through the platform layer. */
#include "archive_internal.h"
#include "info_json.h"
#include "../core/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- patterns ---- */

static int fold(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Whether byte c is of the class named name[0, n); -1 for no such class. */
static int in_class(const char *name, size_t n, int c)
{
#define IS(s) (n == sizeof s - 1 && memcmp(name, s, n) == 0)
    bool lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z', digit = c >= '0' && c <= '9';
    if (IS("alpha")) return lower || upper;
    if (IS("digit")) return digit;
    if (IS("alnum")) return lower || upper || digit;
    if (IS("upper")) return upper;
    if (IS("lower")) return lower;
    if (IS("space")) return c == ' ' || (c >= '\t' && c <= '\r');
    if (IS("blank")) return c == ' ' || c == '\t';
    if (IS("punct")) return c > ' ' && c < 127 && !lower && !upper && !digit;
    if (IS("xdigit")) return digit || (fold(c) >= 'a' && fold(c) <= 'f');
    if (IS("print")) return c >= ' ' && c < 127;
    if (IS("graph")) return c > ' ' && c < 127;
    if (IS("cntrl")) return c < ' ' || c == 127;
#undef IS
    return -1;
}

enum { NO_MATCH, MATCH, INVALID, NOT_A_BRACKET };

/* One member of a bracket expression at *p: a byte, or a collating symbol
 * "[.c.]" or equivalence class "[=c=]" of one byte (what a pattern may
 * name in the C locale; *symbol says which: '.', '=' or 0). Moves *p past
 * it; false when it is such a symbol that does not end or holds more than
 * one byte (the pattern then matches nothing, as fnmatch's). */
static bool member(const char **p, int *c, char *symbol)
{
    const char *s = *p;
    *symbol = 0;
    if (s[0] == '[' && (s[1] == '.' || s[1] == '=')) {
        char close[3] = {s[1], ']', 0};
        const char *end = strstr(s + 2, close);
        if (!end || end != s + 3) return false;
        *c = (unsigned char)s[2];
        *symbol = s[1];
        *p = end + 2;
        return true;
    }
    *c = (unsigned char)*s;
    *p = s + 1;
    return true;
}

/* A bracket expression at p ('[' already passed) against byte c: *end set
 * past its ']'. NOT_A_BRACKET when it has no ']' ('[' is then itself).
 * Case is folded as fnmatch folds it: bytes and ranges folded, classes
 * and symbols standing alone not ([[:upper:]] takes 'A', not 'a'). */
static int bracket(const char *p, int c, const char **end)
{
    bool negate = *p == '!' || *p == '^', hit = false;
    if (negate) p++;
    int fc = fold(c);
    for (bool first = true; first || *p != ']'; first = false) {
        if (!*p) return NOT_A_BRACKET;
        if (p[0] == '[' && p[1] == ':') {
            const char *close = strstr(p + 2, ":]");
            if (close) {
                int in = in_class(p + 2, (size_t)(close - (p + 2)), c);
                if (in < 0) return INVALID;
                hit |= in == 1;
                p = close + 2;
                continue;
            }
        }
        int lo, hi;
        char symbol, hi_symbol;
        if (!member(&p, &lo, &symbol)) return INVALID;
        if (symbol != '=' && p[0] == '-' && p[1] && p[1] != ']') {
            p++;
            if (!member(&p, &hi, &hi_symbol)) return INVALID;
            if (fc >= fold(lo) && fc <= fold(hi)) hit = true;
        } else if (symbol) {
            hit |= c == lo;
        } else {
            hit |= fc == fold(lo);
        }
    }
    *end = p + 1;
    return hit != negate ? MATCH : NO_MATCH;
}

/* Whether `name` matches the shell pattern (fnmatch without flags but
 * FNM_CASEFOLD, in the C locale: '*' matches any bytes, '/' too; '?' one
 * byte; brackets; no escapes: a pattern's '\' was made '/'). */
bool fy_glob_match(const char *pattern, const char *name)
{
    const char *p = pattern, *n = name, *star = NULL, *star_n = NULL;
    while (*n) {
        if (*p == '*') {
            while (*p == '*') p++;
            star = p;
            star_n = n;
            continue;
        }
        const char *next = p + 1;
        bool ok;
        int b = *p == '[' ? bracket(p + 1, (unsigned char)*n, &next) : NOT_A_BRACKET;
        if (b == INVALID) return false;
        if (b != NOT_A_BRACKET)
            ok = b == MATCH;
        else
            ok = *p && (*p == '?' || fold((unsigned char)*p) == fold((unsigned char)*n));
        if (ok) {
            p = next;
            n++;
        } else if (star) {
            p = star;
            n = ++star_n;
        } else {
            return false;
        }
    }
    while (*p == '*') p++;
    return !*p;
}

/* ---- names ---- */

static int casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = fold((unsigned char)*a), y = fold((unsigned char)*b);
        if (x != y || !x) return x - y;
    }
}

typedef struct item {
    char *path;   /* the entry's name as a path below the folder */
    size_t entry;
    uint64_t at;  /* where its stored bytes are in the archive */
    bool clash;
} item;

static int by_path_nocase(const void *a, const void *b) { return casecmp(((const item *)a)->path, ((const item *)b)->path); }

/* Entries in the order of their bytes in the archive (then by record):
 * read front to back, so the pages the system maps ahead of a read belong
 * to the entries written (and dropped) next. */
static int by_start(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* ---- folders ---- */

/* `folder`/`rel` (malloc'd; NULL when out of memory). */
static char *join(const char *folder, const char *rel)
{
    size_t fl = strlen(folder), rl = strlen(rel);
    char *p = malloc(fl + 1 + rl + 1);
    if (!p) return NULL;
    memcpy(p, folder, fl);
    p[fl] = '/';
    memcpy(p + fl + 1, rel, rl + 1);
    return p;
}

/* Creates the folders of `rel` below `root` (not its last segment); a
 * folder on the way that exists but is a link or not a folder is refused.
 * NULL, or why not (written to why, cap bytes). */
static const char *make_parents(const char *root, const char *rel, char *why, size_t cap)
{
    char *buf = join(root, rel);
    if (!buf) return "out of memory";
    const char *failed = NULL;
    for (char *s = buf + strlen(root) + 1; !failed && (s = strchr(s, '/')); s++) {
        *s = 0;
        fy_file_info info;
        int code = fy_folder_make(buf);
        if (code && !fy_sys_exists(code))
            failed = fy_sys_message(code, why, cap);
        else if (fy_path_info(buf, false, &info) != 0 || info.kind != FY_KIND_FOLDER)
            failed = "a folder on its path is a link or not a folder";
        *s = '/';
    }
    free(buf);
    if (failed && failed != why) snprintf(why, cap, "%s", failed);
    return failed ? why : NULL;
}

/* ---- the job ---- */

typedef struct job {
    const ferry_archive *a;
    const ferry_extract_options *o;
    const char *file; /* how messages name the archive */
    ferry_extract_report *report;
} job;

/* Entry `index` refused: named by its record and stored name. */
static void refuse(job *j, size_t index, const char *rule, const char *why)
{
    const ferry_archive_entry *e = &j->a->entries[index];
    char record[48];
    fy_archive_record(j->a, index, record, sizeof record);
    fy_message(j->o->message, j->o->user, FERRY_MESSAGE_ERROR, j->file, rule, NULL, "%s '%s' not extracted: %s", record,
               e->name ? e->name : "", why);
    j->report->refused++;
}

/* Writes one entry, or refuses it (named in a message). */
static void extract_one(job *j, const item *it, const char *out_dir)
{
    const ferry_archive *a = j->a;
    if (it->clash) {
        refuse(j, it->entry, "entry-case", "another entry's name is equal but for case");
        return;
    }
    ferry_error err;
    char why[640];
    const uint8_t *bytes = fy_archive_entry_in_place(a, it->entry);
    uint8_t *owned = NULL;
    size_t size = (size_t)a->entries[it->entry].stored_size;
    if (!bytes && ferry_archive_read_entry(a, it->entry, 0, &owned, &size, &err) != FERRY_OK) {
        ferry_error_format(&err, why, sizeof why);
        refuse(j, it->entry, "entry-bytes", why);
        return;
    }
    bool in_map = !owned; /* the archive's own bytes, mapped: dropped once written */
    if (owned) bytes = owned;
    char *full = NULL;
    if (make_parents(out_dir, it->path, why, sizeof why)) {
        refuse(j, it->entry, "entry-folder", why);
    } else if (!(full = join(out_dir, it->path))) {
        refuse(j, it->entry, "entry-folder", "out of memory");
    } else {
        ferry_write_options wo = j->o->write;
        if (!wo.protect_input && a->asset) wo.protect_input = a->asset->path;
        if (ferry_file_write(full, bytes, size, &wo, &err) != FERRY_OK) {
            ferry_error_format(&err, why, sizeof why);
            fy_message(j->o->message, j->o->user, FERRY_MESSAGE_ERROR, full, "write-error", &err, "%s", why);
            j->report->refused++;
        } else {
            j->report->extracted++;
        }
    }
    /* The archive's pages up to the entry's end leave this process's
     * memory (from 0: the system maps a few pages around each one read,
     * some behind it). */
    const ferry_file_mapping *map = a->asset ? ferry_asset_mapping(a->asset) : NULL;
    if (map && in_map && bytes >= map->data && bytes < map->data + map->size)
        ferry_file_map_drop(map, 0, (uint64_t)(bytes - map->data) + size);
    free(full);
    free(owned);
}

ferry_result ferry_archive_extract(const ferry_archive *a, const char *out_dir, const ferry_extract_options *options,
                                   ferry_extract_report *report, ferry_error *err)
{
    if (err) fy_error_clear(err);
    ferry_extract_report ignored;
    if (!report) report = &ignored;
    memset(report, 0, sizeof *report);
    if (!a || !out_dir || !*out_dir) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no archive or no folder");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_extract_options o = options ? *options : (ferry_extract_options){0};
    int code = fy_folder_make(out_dir);
    char words[256];
    if (code && !fy_sys_exists(code)) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot create the folder: %s",
                     fy_sys_message(code, words, sizeof words));
        return FERRY_ERR_IO;
    }
    fy_file_info info;
    if (fy_path_info(out_dir, true, &info) != 0 || info.kind != FY_KIND_FOLDER) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s exists and is not a folder", out_dir);
        return FERRY_ERR_ARGUMENT;
    }
    job j = {a, &o, a->name ? a->name : "", report};
    item *items = calloc(a->entry_count ? a->entry_count : 1, sizeof *items);
    if (!items) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    size_t count = 0;
    ferry_result r = FERRY_OK;
    /* The patterns with '\' as '/', as the names are matched. */
    char **patterns = calloc(o.pattern_count ? o.pattern_count : 1, sizeof *patterns);
    for (size_t k = 0; patterns && k < o.pattern_count; k++) {
        size_t n = strlen(o.patterns[k]) + 1;
        if (!(patterns[k] = malloc(n))) break;
        for (size_t c = 0; c < n; c++) patterns[k][c] = o.patterns[k][c] == '\\' ? '/' : o.patterns[k][c];
    }
    for (size_t k = 0; k < o.pattern_count && patterns; k++)
        if (!patterns[k]) r = FERRY_ERR_NOMEM;
    if (!patterns) r = FERRY_ERR_NOMEM;
    for (size_t i = 0; r == FERRY_OK && i < a->entry_count; i++) {
        const ferry_archive_entry *e = &a->entries[i];
        ferry_error why;
        char *path = malloc(e->name_length + 1);
        if (!path) {
            r = FERRY_ERR_NOMEM;
            break;
        }
        if (ferry_archive_entry_path(e->name, e->name_length, path, e->name_length + 1, &why) != FERRY_OK) {
            refuse(&j, i, "entry-name", why.message);
            free(path);
            continue;
        }
        if (fy_path_names_are_unicode() && !fy_utf8_valid(path)) {
            /* Windows names files in UTF-16: a name that is not UTF-8 (the
             * games' tools wrote Latin-1, TEST\xE9.TXT) is read as Latin-1
             * there, as the JSON reports read it; POSIX keeps the bytes. */
            size_t n = strlen(path), cap = 2 * n + 1;
            char *utf8 = malloc(cap);
            if (!utf8) {
                r = FERRY_ERR_NOMEM;
                free(path);
                break;
            }
            fy_latin1_to_utf8(path, n, utf8, cap);
            free(path);
            path = utf8;
        }
        bool wanted = o.pattern_count == 0;
        for (size_t k = 0; k < o.pattern_count && !wanted; k++) wanted = fy_glob_match(patterns[k], path);
        if (!wanted) {
            free(path);
            continue;
        }
        items[count++] = (item){path, i, e->start, false};
    }
    for (size_t k = 0; patterns && k < o.pattern_count; k++) free(patterns[k]);
    free(patterns);
    if (r == FERRY_OK) {
        qsort(items, count, sizeof *items, by_path_nocase);
        for (size_t k = 1; k < count; k++)
            if (casecmp(items[k - 1].path, items[k].path) == 0) items[k - 1].clash = items[k].clash = true;
        qsort(items, count, sizeof *items, by_start);
        report->selected = count;
        if (o.progress) o.progress(o.progress_user, 0, count, NULL);
        for (size_t k = 0; k < count; k++) {
            extract_one(&j, &items[k], out_dir);
            if (o.progress) o.progress(o.progress_user, k + 1, count, items[k].path);
        }
    } else {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    }
    for (size_t k = 0; k < count; k++) free(items[k].path);
    free(items);
    return r;
}
