/* ferry list / ferry extract: the entries of an archive (MEG, PBO). */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include "cli.h"
#include "formats.h"
#include <ferry/archive.h>

#include <ferry/meg.h>
#include <ferry/pbo.h>

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char list_usage[] =
    "usage: ferry list [--json] ARCHIVE\n"
    "\n"
    "Lists the entries of a Petroglyph MEG archive (formats 1, 2 and 3): for\n"
    "each its stored name, size in bytes, offset in the archive and flags\n"
    "(format 3: 1 = encrypted). Names are shown as stored, backslashes and all.\n"
    "A Bohemia PBO archive: its properties (prefix, ...), then for each entry its\n"
    "size unpacked and stored, offset, packing method and timestamp.\n"
    "\n"
    "  --json   one JSON object: file, format, version, size, and files [{index,\n"
    "           name, size, start, crc, stored_index, name_index, flags}]; a PBO:\n"
    "           file, format, size, product_entry, properties [{key, value}],\n"
    "           prefix, data_start, sha1, sha1_ok, files [{index, name, size,\n"
    "           data_size, original_size, start, method, method_value, reserved,\n"
    "           timestamp}]\n"
    "\n"
    "Exit status: 0 listed, 1 invalid input, 2 usage error.\n";

static const char extract_usage[] =
    "usage: ferry extract ARCHIVE OUTDIR [PATTERN...]\n"
    "\n"
    "Writes the entries of a MEG or PBO archive under OUTDIR (created if needed), each\n"
    "under its stored name with backslashes as folders (DATA\\ART\\X.ALO ->\n"
    "OUTDIR/DATA/ART/X.ALO). With PATTERNs, only the entries whose name (with\n"
    "'/' for '\\') matches one of them, ignoring case (shell wildcards: * ? [..]).\n"
    "\n"
    "Nothing is written outside OUTDIR: an entry named by an absolute path, a\n"
    "drive letter (C:), a '.' or '..' segment or an empty one, two entries whose\n"
    "names are equal but for case, and an entry whose bytes lie outside the\n"
    "archive (or, in a PBO, a compressed entry that does not decode) are not\n"
    "extracted but named in an error; the others are, and the\n"
    "exit status is then 1. A folder on the way that is a symbolic link is\n"
    "refused. Each file is written atomically (a temporary, then a rename); as\n"
    "in convert -r, files are not flushed to the disk one by one (a system\n"
    "crash right after an extract may lose files, which a rerun recreates). On\n"
    "a terminal a progress bar is shown.\n"
    "\n"
    "Exit status: 0 all extracted, 1 invalid input or an entry not extracted,\n"
    "2 usage error.\n";

/* An archive read: a MEG or a PBO, and the bytes its entries point into,
 * mapped (ferry_asset_open) so that a multi-gigabyte archive is never
 * copied into memory: listing touches only the pages of its tables (and,
 * for a PBO, the SHA-1 reads every page once), extracting those of the
 * entries written. */
typedef struct archive {
    ferry_asset *file; /* the mapping, its format told */
    ferry_asset *read; /* the archive read from it */
    const uint8_t *data;
    size_t size;
    ferry_meg *meg;
    ferry_pbo *pbo;
} archive;

static void close_archive(archive *a)
{
    ferry_asset_free(a->read);
    ferry_asset_free(a->file);
    memset(a, 0, sizeof *a);
}

/* Maps and reads ARCHIVE; prints the error and returns false on failure. */
static bool open_archive(const char *cmd, const char *path, archive *a)
{
    ferry_error err;
    memset(a, 0, sizeof *a);
    /* Told first, read only when an archive. */
    ferry_asset_options o = {.name = path, .bytes_only = true, .need = FERRY_CAN_READ};
    if (ferry_asset_open(path, &o, &a->file, &err) != FERRY_OK) {
        cli_print_error(path, &err);
        close_archive(a);
        return false;
    }
    ferry_format f = ferry_asset_format(a->file);
    if (f != FERRY_FORMAT_MEG && f != FERRY_FORMAT_PBO) {
        fprintf(stderr, "%s: error: ferry %s reads MEG and PBO archives, not %s files\n", CLI_TXT(path), cmd,
                cli_format_name(f));
        close_archive(a);
        return false;
    }
    a->data = ferry_asset_bytes(a->file, &a->size);
    if (ferry_asset_read(a->data, a->size, &(ferry_asset_options){.format = f, .name = path}, &a->read, &err) !=
        FERRY_OK) {
        cli_print_error(path, &err);
        close_archive(a);
        return false;
    }
    if (f == FERRY_FORMAT_MEG)
        a->meg = ferry_asset_object(a->read);
    else
        a->pbo = ferry_asset_object(a->read);
    return true;
}

static size_t archive_count(const archive *a) { return a->meg ? a->meg->entry_count : a->pbo->entry_count; }

/* Entry i's stored name (NULL: none) and its length. */
static const char *archive_name(const archive *a, size_t i, size_t *length)
{
    if (a->meg) {
        *length = a->meg->entries[i].name_length;
        return a->meg->entries[i].name;
    }
    *length = a->pbo->entries[i].name_length;
    return a->pbo->entries[i].name;
}

/* How messages name entry i: its record ("files[3]", "entries[3]"). */
static const char *archive_where(const archive *a, size_t i, char *buf, size_t n)
{
    snprintf(buf, n, "%s[%zu]", a->meg ? "files" : "entries", i);
    return buf;
}

/* Entry i's bytes: in the archive, or decoded into *owned (free it); false
 * with *why (malloc'd) when they cannot be had. */
static bool archive_bytes(const archive *a, size_t i, const uint8_t **data, size_t *size, uint8_t **owned,
                          char **why)
{
    char buf[160];
    *owned = NULL;
    if (a->meg) {
        const ferry_meg_entry *e = &a->meg->entries[i];
        if (!e->data) {
            snprintf(buf, sizeof buf, "its bytes [%u, +%u) lie outside the archive", (unsigned)e->start,
                     (unsigned)e->size);
            *why = strdup(buf);
            return false;
        }
        *data = e->data;
        *size = e->size;
        return true;
    }
    const ferry_pbo_entry *e = &a->pbo->entries[i];
    if (e->data && e->method == FERRY_PBO_METHOD_NONE) {
        *data = e->data;
        *size = e->size;
        return true;
    }
    ferry_error err;
    if (ferry_pbo_entry_bytes(a->pbo, i, 0, owned, size, &err) != FERRY_OK) {
        char line[640];
        ferry_error_format(&err, line, sizeof line);
        *why = strdup(line);
        return false;
    }
    *data = *owned;
    return true;
}

int cmd_list(int argc, char **argv)
{
    bool json = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(list_usage, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("list", "unknown option '%s'", argv[i]);
        else if (path)
            return cli_usage_error("list", "one archive at a time");
        else
            path = argv[i];
    }
    if (!path) return cli_usage_error("list", "no archive given");
    archive a;
    if (!open_archive("list", path, &a)) return CLI_INVALID;
    int status = CLI_OK;
    if (json) {
        json_t *j = cli_asset_json(path, a.read, FERRY_INFO_ENTRIES, CLI_JSON_OUTPUT);
        if (j)
            cli_print_json(j);
        else
            status = CLI_INVALID;
        json_decref(j);
    } else {
        status = cli_print(path, a.read, FERRY_INFO_ENTRIES);
    }
    close_archive(&a);
    return status;
}


/* Creates the folders of `rel` under `root` (not the last segment); a
 * folder on the way that exists but is a link or not a folder is refused. */
static bool make_parents(const char *root, const char *rel, char **why_buf)
{
    size_t rl = strlen(root), n = strlen(rel);
    char *buf = malloc(rl + 1 + n + 1);
    if (!buf) return false;
    memcpy(buf, root, rl);
    buf[rl] = '/';
    memcpy(buf + rl + 1, rel, n + 1);
    for (char *s = buf + rl + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        struct stat st;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            *why_buf = strdup(strerror(errno));
            free(buf);
            return false;
        }
        if (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
            *why_buf = strdup("a folder on its path is a link or not a folder");
            free(buf);
            return false;
        }
        *s = '/';
    }
    free(buf);
    return true;
}

typedef struct item {
    char *path;
    size_t file;
    uint64_t at; /* where its bytes are in the archive */
    bool clash;
} item;

static int by_path_nocase(const void *a, const void *b)
{
    return strcasecmp(((const item *)a)->path, ((const item *)b)->path);
}

/* Entries in the order of their bytes in the archive (then by record):
 * read front to back, so the pages the system maps ahead of a read belong
 * to the entries written (and dropped) next. */
static int by_start(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return x->file < y->file ? -1 : x->file > y->file;
}

/* Where entry i's stored bytes start in the archive (0 when unknown). */
static uint64_t archive_offset(const archive *a, size_t i)
{
    if (a->meg) return a->meg->entries[i].start;
    const ferry_pbo_entry *e = &a->pbo->entries[i];
    return e->data ? (uint64_t)(e->data - a->data) : 0;
}

int cmd_extract(int argc, char **argv)
{
    const char *apath = NULL, *outdir = NULL;
    int patterns = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(extract_usage, stdout);
            return CLI_OK;
        }
    }
    char **pattern = calloc((size_t)argc, sizeof *pattern);
    if (!pattern) return CLI_INVALID;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            free(pattern);
            return cli_usage_error("extract", "unknown option '%s'", argv[i]);
        }
        if (!apath)
            apath = argv[i];
        else if (!outdir)
            outdir = argv[i];
        else
            pattern[patterns++] = argv[i];
    }
    if (!apath || !outdir) {
        free(pattern);
        return cli_usage_error("extract", "expected ARCHIVE and OUTDIR");
    }
    archive a;
    if (!open_archive("extract", apath, &a)) {
        free(pattern);
        return CLI_INVALID;
    }
    int status = CLI_OK;
    struct stat st;
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot create the folder: %s\n", CLI_TXT(outdir), strerror(errno));
        status = CLI_INVALID;
        goto done;
    }
    /* As convert -r: one message, not one per entry. */
    if (stat(outdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "ferry extract: %s exists and is not a folder\n", CLI_TXT(outdir));
        status = CLI_USAGE;
        goto done;
    }
    size_t total = archive_count(&a);
    item *items = calloc(total ? total : 1, sizeof *items);
    size_t count = 0, written = 0, refused = 0;
    char where[48];
    for (size_t i = 0; items && i < total; i++) {
        size_t nlen;
        const char *name = archive_name(&a, i, &nlen);
        ferry_error perr;
        char *p = malloc(nlen + 1);
        const char *why = p ? NULL : "out of memory";
        if (p && ferry_archive_entry_path(name, nlen, p, nlen + 1, &perr) != FERRY_OK) {
            free(p);
            p = NULL;
            why = perr.message;
        }
        if (!p) {
            fprintf(stderr, "%s: %s '%s' not extracted: %s\n", CLI_TXT(apath), archive_where(&a, i, where, sizeof where),
                    name ? CLI_TXT(name) : "", why);
            status = CLI_INVALID;
            refused++;
            continue;
        }
        bool wanted = patterns == 0;
        for (int k = 0; k < patterns && !wanted; k++) {
            char *pat = strdup(pattern[k]);
            if (pat)
                for (char *c = pat; *c; c++)
                    if (*c == '\\') *c = '/';
            wanted = pat && fnmatch(pat, p, FNM_CASEFOLD) == 0;
            free(pat);
        }
        if (!wanted) {
            free(p);
            continue;
        }
        items[count++] = (item){p, i, archive_offset(&a, i), false};
    }
    if (items) qsort(items, count, sizeof *items, by_path_nocase);
    for (size_t k = 1; k < count; k++)
        if (strcasecmp(items[k - 1].path, items[k].path) == 0) items[k - 1].clash = items[k].clash = true;
    if (items) qsort(items, count, sizeof *items, by_start);
    cli_progress progress;
    cli_progress_begin(&progress, count);
    for (size_t k = 0; k < count; k++) {
        size_t nlen;
        const char *name = archive_name(&a, items[k].file, &nlen);
        archive_where(&a, items[k].file, where, sizeof where);
        char *why = NULL;
        const uint8_t *bytes = NULL;
        uint8_t *owned = NULL;
        size_t size = 0;
        if (items[k].clash) {
            fprintf(stderr, "%s: %s '%s' not extracted: another entry's name is equal but for case\n",
                    CLI_TXT(apath), where, CLI_TXT(name));
            status = CLI_INVALID;
            refused++;
        } else if (!archive_bytes(&a, items[k].file, &bytes, &size, &owned, &why)) {
            fprintf(stderr, "%s: %s '%s' not extracted: %s\n", CLI_TXT(apath), where, CLI_TXT(name),
                    why ? why : "out of memory");
            status = CLI_INVALID;
            refused++;
        } else if (!make_parents(outdir, items[k].path, &why)) {
            fprintf(stderr, "%s: %s '%s' not extracted: %s\n", CLI_TXT(apath), where, CLI_TXT(name),
                    why ? why : "out of memory");
            status = CLI_INVALID;
            refused++;
        } else {
            size_t ol = strlen(outdir), pl = strlen(items[k].path);
            char *full = malloc(ol + 1 + pl + 1);
            ferry_error err;
            const ferry_write_options wo = {.protect_input = apath, .no_sync = true};
            if (!full) {
                status = CLI_INVALID;
                refused++;
            } else {
                memcpy(full, outdir, ol);
                full[ol] = '/';
                memcpy(full + ol + 1, items[k].path, pl + 1);
                if (ferry_file_write(full, bytes, size, &wo, &err) != FERRY_OK) {
                    cli_print_error(full, &err);
                    status = CLI_INVALID;
                    refused++;
                } else {
                    written++;
                }
                free(full);
            }
            /* The archive's pages up to the entry's end leave this
             * process's memory (from 0: the system maps a few pages around
             * each one read, some behind it). */
            if (bytes >= a.data && bytes < a.data + a.size)
                ferry_file_map_drop(ferry_asset_mapping(a.file), 0, (uint64_t)(bytes - a.data) + size);
        }
        free(owned);
        free(why);
        cli_progress_step(&progress, items[k].path);
        free(items[k].path);
    }
    cli_progress_end(&progress);
    if (items) {
        fprintf(stderr, "%s: %zu file%s extracted into %s", CLI_TXT(apath), written, written == 1 ? "" : "s",
                CLI_TXT(outdir));
        if (refused) fprintf(stderr, ", %zu not extracted (named above)", refused);
        fputc('\n', stderr);
    }
    free(items);
done:
    close_archive(&a);
    free(pattern);
    return status;
}
