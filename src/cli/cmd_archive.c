/* ferry list / ferry extract: the entries of an archive (MEG so far). */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include "cli.h"
#include "formats.h"
#include "sources.h"

#include <ferry/meg.h>

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char list_usage[] =
    "usage: ferry list [--json] ARCHIVE\n"
    "\n"
    "Lists the entries of a Petroglyph MEG archive (formats 1, 2 and 3): for\n"
    "each its stored name, size in bytes, offset in the archive and flags\n"
    "(format 3: 1 = encrypted). Names are shown as stored, backslashes and all.\n"
    "\n"
    "  --json   one JSON object: file, format, version, size, and files [{index,\n"
    "           name, size, start, crc, stored_index, name_index, flags}]\n"
    "\n"
    "Exit status: 0 listed, 1 invalid input, 2 usage error.\n";

static const char extract_usage[] =
    "usage: ferry extract ARCHIVE OUTDIR [PATTERN...]\n"
    "\n"
    "Writes the entries of a MEG archive under OUTDIR (created if needed), each\n"
    "under its stored name with backslashes as folders (DATA\\ART\\X.ALO ->\n"
    "OUTDIR/DATA/ART/X.ALO). With PATTERNs, only the entries whose name (with\n"
    "'/' for '\\') matches one of them, ignoring case (shell wildcards: * ? [..]).\n"
    "\n"
    "Nothing is written outside OUTDIR: an entry named by an absolute path, a\n"
    "drive letter (C:), a '.' or '..' segment or an empty one, two entries whose\n"
    "names are equal but for case, and an entry whose bytes lie outside the\n"
    "archive are not extracted but named in an error; the others are, and the\n"
    "exit status is then 1. A folder on the way that is a symbolic link is\n"
    "refused. Each file is written atomically (a temporary, then a rename).\n"
    "\n"
    "Exit status: 0 all extracted, 1 invalid input or an entry not extracted,\n"
    "2 usage error.\n";

/* Loads and reads ARCHIVE; prints the error and returns NULL on failure. */
static ferry_meg *open_archive(const char *cmd, const char *path, uint8_t **data, size_t *size)
{
    cli_input in;
    ferry_error err;
    if (!cli_input_load(path, CLI_USE_ANY, &in, &err)) {
        cli_print_error(path, &err);
        return NULL;
    }
    if (in.id != FERRY_FORMAT_MEG) {
        fprintf(stderr, "%s: error: ferry %s reads MEG archives, not %s files\n", CLI_TXT(path), cmd,
                in.format ? in.format->name : "other");
        cli_input_free(&in);
        return NULL;
    }
    ferry_meg *m = cli_format_read(in.format, path, in.data, in.size, NULL);
    if (!m) {
        cli_input_free(&in);
        return NULL;
    }
    *data = in.data;
    *size = in.size;
    return m;
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
    uint8_t *data;
    size_t size;
    ferry_meg *m = open_archive("list", path, &data, &size);
    if (!m) return CLI_INVALID;
    if (json) {
        json_t *j = cli_meg_json(path, m, size);
        json_t *files = json_array();
        for (uint32_t i = 0; i < m->file_count; i++) json_array_append_new(files, cli_meg_entry_json(&m->files[i], i));
        json_object_set_new(j, "files", files);
        cli_print_json(j);
        json_decref(j);
    } else {
        printf("%10s %10s %5s  name\n", "size", "offset", "flags");
        for (uint32_t i = 0; i < m->file_count; i++) {
            const ferry_meg_entry *e = &m->files[i];
            printf("%10u %10u %5u  %s\n", (unsigned)e->size, (unsigned)e->start, (unsigned)e->flags,
                   e->name ? CLI_TXT(e->name) : "(no name)");
        }
    }
    ferry_meg_free(m);
    ferry_file_free(data);
    return CLI_OK;
}

/* The stored name as a relative path with '/', or NULL (and *why) when it
 * could lead outside the output folder (the rule convert -r shares). */
static char *safe_path(const ferry_meg_entry *e, const char **why)
{
    return cli_entry_path(e->name, e->name_length, why);
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
    uint32_t file;
    bool clash;
} item;

static int by_path_nocase(const void *a, const void *b)
{
    return strcasecmp(((const item *)a)->path, ((const item *)b)->path);
}

int cmd_extract(int argc, char **argv)
{
    const char *archive = NULL, *outdir = NULL;
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
        if (!archive)
            archive = argv[i];
        else if (!outdir)
            outdir = argv[i];
        else
            pattern[patterns++] = argv[i];
    }
    if (!archive || !outdir) {
        free(pattern);
        return cli_usage_error("extract", "expected ARCHIVE and OUTDIR");
    }
    uint8_t *data;
    size_t size;
    ferry_meg *m = open_archive("extract", archive, &data, &size);
    if (!m) {
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
    item *items = calloc(m->file_count ? m->file_count : 1, sizeof *items);
    size_t count = 0, written = 0, refused = 0;
    for (uint32_t i = 0; items && i < m->file_count; i++) {
        const ferry_meg_entry *e = &m->files[i];
        const char *why = NULL;
        char *p = safe_path(e, &why);
        if (!p) {
            fprintf(stderr, "%s: files[%u] '%s' not extracted: %s\n", CLI_TXT(archive), (unsigned)i,
                    e->name ? CLI_TXT(e->name) : "", why);
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
        items[count++] = (item){p, i, false};
    }
    if (items) qsort(items, count, sizeof *items, by_path_nocase);
    for (size_t k = 1; k < count; k++)
        if (strcasecmp(items[k - 1].path, items[k].path) == 0) items[k - 1].clash = items[k].clash = true;
    for (size_t k = 0; k < count; k++) {
        const ferry_meg_entry *e = &m->files[items[k].file];
        char *why = NULL;
        if (items[k].clash) {
            fprintf(stderr, "%s: files[%u] '%s' not extracted: another entry's name is equal but for case\n",
                    CLI_TXT(archive), (unsigned)items[k].file, CLI_TXT(e->name));
            status = CLI_INVALID;
            refused++;
        } else if (!e->data) {
            fprintf(stderr, "%s: files[%u] '%s' not extracted: its bytes [%u, +%u) lie outside the archive\n",
                    CLI_TXT(archive), (unsigned)items[k].file, CLI_TXT(e->name), (unsigned)e->start,
                    (unsigned)e->size);
            status = CLI_INVALID;
            refused++;
        } else if (!make_parents(outdir, items[k].path, &why)) {
            fprintf(stderr, "%s: files[%u] '%s' not extracted: %s\n", CLI_TXT(archive), (unsigned)items[k].file,
                    CLI_TXT(e->name), why ? why : "out of memory");
            status = CLI_INVALID;
            refused++;
        } else {
            size_t ol = strlen(outdir), pl = strlen(items[k].path);
            char *full = malloc(ol + 1 + pl + 1);
            ferry_error err;
            const ferry_write_options wo = {.protect_input = archive};
            if (!full) {
                status = CLI_INVALID;
                refused++;
            } else {
                memcpy(full, outdir, ol);
                full[ol] = '/';
                memcpy(full + ol + 1, items[k].path, pl + 1);
                if (ferry_file_write(full, e->data, e->size, &wo, &err) != FERRY_OK) {
                    cli_print_error(full, &err);
                    status = CLI_INVALID;
                    refused++;
                } else {
                    written++;
                }
                free(full);
            }
        }
        free(why);
        free(items[k].path);
    }
    if (items) {
        fprintf(stderr, "%s: %zu file%s extracted into %s", CLI_TXT(archive), written, written == 1 ? "" : "s",
                CLI_TXT(outdir));
        if (refused) fprintf(stderr, ", %zu not extracted (named above)", refused);
        fputc('\n', stderr);
    }
    free(items);
done:
    ferry_meg_free(m);
    ferry_file_free(data);
    free(pattern);
    return status;
}
