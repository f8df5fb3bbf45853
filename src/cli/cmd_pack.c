/* ferry pack OUT.meg|OUT.pbo DIR: a new archive of a folder's files, in the
 * format OUT's extension names (docs/formats/meg.md, "Packing"). */
#define _DEFAULT_SOURCE /* strdup */
#include "cli.h"
#include "walk.h"

#include <ferry/meg.h>
#include <ferry/pbo.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char pack_usage[] =
    "usage: ferry pack [--meg-format 1|2|3] OUT.meg DIR\n"
    "       ferry pack [--prefix P] OUT.pbo DIR\n"
    "\n"
    "Packs every file under DIR (subfolders too) into a new archive; the format\n"
    "is told by OUT's extension.\n"
    "\n"
    "MEG (Petroglyph: Empire at War, Forces of Corruption): each file is stored\n"
    "under its path below DIR as the game's tools store names: ASCII letters upper\n"
    "case, '\\' between folders, one byte a character (Latin-1: a UTF-8 name is\n"
    "converted; a name that is not UTF-8 is kept as its bytes). Records are sorted\n"
    "by the CRC-32 of the name, as the game looks names up; the name table follows\n"
    "the same order and the files' bytes follow the tables in that order. Format 1\n"
    "(the default) is what Empire at War and Forces of Corruption read; 2 and 3\n"
    "are the later games' (3 unencrypted).\n"
    "\n"
    "PBO (Bohemia: ArmA): as the community's packers write them: the product\n"
    "entry with the prefix property when --prefix is given, one uncompressed\n"
    "record per file (its timestamp the file's), records and data sorted by name\n"
    "ignoring case, the SHA-1 trailer (docs/formats/pbo.md). Names are the paths\n"
    "below DIR with '\\' between folders, case as on the disk. A PBO pack holds\n"
    "its files in memory.\n"
    "\n"
    "Not packed but named (the others are, and the exit status is then 1): two\n"
    "files whose names are equal but for case (the game finds only one), a file\n"
    "that is not a regular file or cannot be read, and in a MEG a name with a\n"
    "character past U+00FF (it cannot store it) or a backslash. Names starting\n"
    "with '.' are left out (as convert -r), and so is OUT itself; empty folders\n"
    "hold nothing an archive keeps. OUT is written atomically (a temporary, then\n"
    "a rename); a file that changes size while it is packed stops the pack,\n"
    "leaving OUT as it was. On a terminal a progress bar is shown.\n"
    "\n"    "  --meg-format N   MEG format 1, 2 or 3 (default 1)\n"
    "  --prefix P       PBO: the prefix property of the header\n"
    "\n"
    "Exit status: 0 every file packed, 1 invalid input or a file not packed,\n"
    "2 usage error.\n";

typedef struct pack_file {
    char *path; /* DIR/REL */
    char *rel;
    uint64_t size;
    char *name; /* the stored name (MEG) */
    size_t name_length;
    bool refused;
} pack_file;

typedef struct pack_list {
    pack_file *items;
    size_t count, capacity;
    size_t refused;
    dev_t out_dev;
    ino_t out_ino;
    bool out_exists;
    bool oom;
} pack_list;

static void visit(void *ctx, const char *path, const char *rel, const struct stat *st, int error)
{
    pack_list *l = ctx;
    if (!st) {
        fprintf(stderr, "%s: not packed: %s\n", CLI_TXT(path), strerror(error));
        l->refused++;
        return;
    }
    if (!S_ISREG(st->st_mode)) {
        fprintf(stderr, "%s: not packed: not a regular file\n", CLI_TXT(path));
        l->refused++;
        return;
    }
    if (l->out_exists && st->st_dev == l->out_dev && st->st_ino == l->out_ino) return; /* OUT inside DIR */
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 256;
        pack_file *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            l->oom = true;
            return;
        }
        l->items = items;
        l->capacity = cap;
    }
    pack_file *f = &l->items[l->count];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    f->rel = strdup(rel);
    f->size = (uint64_t)st->st_size;
    if (!f->path || !f->rel) {
        free(f->path), free(f->rel);
        l->oom = true;
        return;
    }
    l->count++;
}

static int by_name(const void *a, const void *b)
{
    const pack_file *x = a, *y = b;
    size_t n = x->name_length < y->name_length ? x->name_length : y->name_length;
    int d = memcmp(x->name ? x->name : "", y->name ? y->name : "", n);
    if (d) return d;
    return x->name_length < y->name_length ? -1 : x->name_length > y->name_length;
}

static void free_list(pack_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].path);
        free(l->items[i].rel);
        free(l->items[i].name);
    }
    free(l->items);
}

static int pack_meg(const char *out, pack_list *l, uint32_t format)
{
    size_t refused = l->refused;
    /* Stored names; then two files of one name are both refused. */
    for (size_t i = 0; i < l->count; i++) {
        pack_file *f = &l->items[i];
        ferry_error err;
        size_t cap = strlen(f->rel) + 1;
        f->name = malloc(cap);
        if (!f->name || ferry_meg_name_from_path(f->rel, f->name, cap, &f->name_length, &err) != FERRY_OK) {
            fprintf(stderr, "%s: not packed: %s\n", CLI_TXT(f->path), f->name ? err.message : "out of memory");
            f->refused = true;
            refused++;
            free(f->name);
            f->name = NULL;
            f->name_length = 0;
        } else {
            f->name[f->name_length] = 0; /* never longer than the path: room for the NUL, printed below */
        }
    }
    if (l->count) qsort(l->items, l->count, sizeof *l->items, by_name);
    for (size_t i = 1; i < l->count; i++) {
        pack_file *a = &l->items[i - 1], *b = &l->items[i];
        if (!a->name || !b->name || by_name(a, b) != 0) continue;
        for (pack_file *f = a; f <= b; f++) {
            if (f->refused) continue;
            fprintf(stderr, "%s: not packed: another file's name is equal but for case ('%s'): the game would find only one\n",
                    CLI_TXT(f->path), CLI_TXT(b->name));
            f->refused = true;
            refused++;
        }
    }
    size_t n = 0;
    uint64_t bytes = 0;
    ferry_meg_pack_entry *entries = malloc((l->count ? l->count : 1) * sizeof *entries);
    size_t *which = malloc((l->count ? l->count : 1) * sizeof *which);
    size_t *order = malloc((l->count ? l->count : 1) * sizeof *order);
    if (!entries || !which || !order) {
        free(entries), free(which), free(order);
        fputs("ferry pack: out of memory\n", stderr);
        return CLI_INVALID;
    }
    for (size_t i = 0; i < l->count; i++) {
        if (l->items[i].refused) continue;
        entries[n] = (ferry_meg_pack_entry){l->items[i].name, l->items[i].name_length, l->items[i].size};
        which[n++] = i;
        bytes += l->items[i].size;
    }
    ferry_buffer tables = {0};
    ferry_error err;
    ferry_meg_pack_options po = {format};
    int status = CLI_INVALID;
    ferry_file_writer *w = NULL;
    if (ferry_meg_pack_tables(entries, n, &po, &tables, order, &err) != FERRY_OK) {
        fprintf(stderr, "%s: not written: %s\n", CLI_TXT(out), err.message);
        goto done;
    }
    /* A new, reproducible output, as convert -r's: atomic, not flushed. */
    const ferry_write_options wo = {.no_sync = true};
    if (ferry_file_writer_open(out, &wo, &w, &err) != FERRY_OK) {
        status = cli_output_error(out, &err);
        goto done;
    }
    if (ferry_file_writer_write(w, tables.data, tables.size, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        goto done;
    }
    cli_progress progress;
    cli_progress_begin(&progress, n);
    for (size_t k = 0; k < n; k++) {
        const pack_file *f = &l->items[which[order[k]]];
        if (ferry_file_writer_append_file(w, f->path, f->size, &err) != FERRY_OK) {
            cli_progress_end(&progress);
            fprintf(stderr, "%s: not written: %s\n", CLI_TXT(out), err.message);
            goto done;
        }
        cli_progress_step(&progress, f->rel);
    }
    cli_progress_end(&progress);
    ferry_file_writer *committing = w;
    w = NULL;
    if (ferry_file_writer_commit(committing, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        goto done;
    }
    fprintf(stderr, "%s: %zu file%s packed (%llu bytes, MEG format %u)", CLI_TXT(out), n, n == 1 ? "" : "s",
            (unsigned long long)bytes, (unsigned)format);
    if (refused) fprintf(stderr, ", %zu not packed (named above)", refused);
    fputc('\n', stderr);
    status = refused ? CLI_INVALID : CLI_OK;
done:
    ferry_file_writer_abort(w);
    ferry_buffer_free(&tables);
    free(entries), free(which), free(order);
    return status;
}

/* ---- PBO: through the PBO library's packer (ferry_pbo_pack) ----
 * The list `l` holds every regular file under DIR (path, rel with '/',
 * size); `l->refused` files were already named. ferry_pbo_pack takes the
 * files' bytes in memory (it hashes the whole archive): a PBO pack holds
 * its files and the archive, unlike a MEG pack. */
static int by_rel_nocase(const void *a, const void *b)
{
    return strcasecmp(((const pack_file *)a)->rel, ((const pack_file *)b)->rel);
}

static int pack_pbo(const char *out, pack_list *l, const char *prefix)
{
    size_t refused = l->refused;
    /* Two names the engine cannot tell apart: both refused, as for a MEG. */
    if (l->count) qsort(l->items, l->count, sizeof *l->items, by_rel_nocase);
    for (size_t i = 1; i < l->count; i++) {
        if (strcasecmp(l->items[i - 1].rel, l->items[i].rel) != 0) continue;
        for (size_t k = i - 1; k <= i; k++) {
            if (l->items[k].refused) continue;
            fprintf(stderr, "%s: not packed: another file's name is equal but for case: the game would find only one\n",
                    CLI_TXT(l->items[k].path));
            l->items[k].refused = true;
            refused++;
        }
    }
    ferry_pbo_pack_file *files = calloc(l->count ? l->count : 1, sizeof *files);
    uint8_t **bytes = calloc(l->count ? l->count : 1, sizeof *bytes);
    if (!files || !bytes) {
        free(files), free(bytes);
        fputs("ferry pack: out of memory\n", stderr);
        return CLI_INVALID;
    }
    size_t n = 0;
    uint64_t total = 0;
    ferry_error err;
    int status = CLI_INVALID;
    ferry_buffer buf = {0};
    cli_progress progress;
    cli_progress_begin(&progress, l->count);
    for (size_t i = 0; i < l->count; i++) {
        pack_file *f = &l->items[i];
        cli_progress_step(&progress, f->rel);
        if (f->refused) continue;
        size_t size;
        if (ferry_file_load(f->path, 0, &bytes[n], &size, &err) != FERRY_OK) {
            cli_progress_end(&progress);
            fprintf(stderr, "%s: not packed: %s\n", CLI_TXT(f->path), err.message);
            refused++;
            continue;
        }
        struct stat st;
        uint32_t stamp = stat(f->path, &st) == 0 && st.st_mtime > 0 && (uint64_t)st.st_mtime <= UINT32_MAX
                             ? (uint32_t)st.st_mtime
                             : 0;
        files[n] = (ferry_pbo_pack_file){f->rel, bytes[n], size, stamp};
        total += size;
        n++;
    }
    cli_progress_end(&progress);
    const ferry_pbo_pack_options po = {.prefix = prefix};
    if (ferry_pbo_pack(files, n, &po, &buf, &err) != FERRY_OK) {
        fprintf(stderr, "%s: not written: %s\n", CLI_TXT(out), err.message);
        goto done;
    }
    /* A new, reproducible output, as convert -r's: atomic, not flushed. */
    const ferry_write_options wo = {.no_sync = true};
    if (ferry_file_write(out, buf.data, buf.size, &wo, &err) != FERRY_OK) {
        status = cli_output_error(out, &err);
        goto done;
    }
    fprintf(stderr, "%s: %zu file%s packed (%llu bytes, PBO%s%s)", CLI_TXT(out), n, n == 1 ? "" : "s",
            (unsigned long long)total, prefix ? ", prefix " : "", prefix ? CLI_TXT(prefix) : "");
    if (refused) fprintf(stderr, ", %zu not packed (named above)", refused);
    fputc('\n', stderr);
    status = refused ? CLI_INVALID : CLI_OK;
done:
    for (size_t i = 0; i < n; i++) ferry_file_free(bytes[i]);
    free(bytes);
    free(files);
    ferry_buffer_free(&buf);
    return status;
}

int cmd_pack(int argc, char **argv)
{
    const char *out = NULL, *dir = NULL, *prefix = NULL;
    uint32_t format = 0;
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(pack_usage, stdout);
            return CLI_OK;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--meg-format") == 0) {
            if (i + 1 >= argc) return cli_usage_error("pack", "--meg-format needs 1, 2 or 3");
            const char *v = argv[++i];
            if (strcmp(v, "1") && strcmp(v, "2") && strcmp(v, "3"))
                return cli_usage_error("pack", "--meg-format %s: MEG formats are 1, 2 and 3", v);
            format = (uint32_t)(v[0] - '0');
        } else if (strcmp(a, "--prefix") == 0) {
            if (i + 1 >= argc) return cli_usage_error("pack", "--prefix needs a value");
            prefix = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("pack", "unknown option '%s'", a);
        } else if (!out) {
            out = a;
        } else if (!dir) {
            dir = a;
        } else {
            return cli_usage_error("pack", "expected OUT and DIR, then nothing more ('%s')", a);
        }
    }
    if (!out || !dir) return cli_usage_error("pack", "expected OUT (.meg or .pbo) and DIR");
    bool meg = cli_has_ext(out, ".meg"), pbo = cli_has_ext(out, ".pbo");
    if (!meg && !pbo) return cli_usage_error("pack", "%s: OUT must end in .meg or .pbo (the archive's format)", out);
    if (meg && prefix) return cli_usage_error("pack", "--prefix is a PBO property; a MEG has none");
    if (pbo && format) return cli_usage_error("pack", "--meg-format applies to .meg only");
    struct stat st;
    if (stat(dir, &st) != 0) return cli_usage_error("pack", "%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return cli_usage_error("pack", "%s is not a folder", dir);
    pack_list l = {0};
    struct stat ost;
    if (stat(out, &ost) == 0) {
        if (S_ISDIR(ost.st_mode)) return cli_usage_error("pack", "%s is a folder", out);
        l.out_exists = true;
        l.out_dev = ost.st_dev;
        l.out_ino = ost.st_ino;
    }
    cli_walk walk = {0};
    walk.cmd = "pack";
    walk.visit = visit;
    walk.ctx = &l;
    cli_walk_run(&walk, dir, &st);
    l.refused += walk.failed;
    int status;
    if (l.oom) {
        fputs("ferry pack: out of memory\n", stderr);
        status = CLI_INVALID;
    } else if (pbo) {
        /* PBO: one call, the pbo helper's (pack_pbo above). */
        status = pack_pbo(out, &l, prefix);
    } else {
        status = pack_meg(out, &l, format ? format : 1);
    }
    cli_walk_print_failed(&walk);
    cli_walk_free(&walk);
    free_list(&l);
    return status;
}
