/* ferry convert -r DIR|ARCHIVE OUTDIR: every model under DIR, or inside
 * the archive, to glTF, in parallel, mirroring the folders. One bad file
 * never stops the batch.
 *
 * Threads: the workers share the batch's file sources (ferry_places: the
 * folders of the models, the archive, the --textures places), each listed
 * once and safe to use from several threads; a model's bytes, its
 * animations' and its textures' are loaded per worker. */
#define _DEFAULT_SOURCE
#include "export.h"
#include "formats.h"
#include <ferry/archive.h>
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct batch_item {
    char *in;    /* how messages name it: DIR/REL, or ARCHIVE/PATH */
    char *out, *rel;
    char *entry; /* its path in the archive's source; NULL: a file of the disk (`in`) */
    char *refused; /* a message when the item is refused before conversion */
    int status;
    export_result result;
    char *log;
} batch_item;

typedef struct batch {
    batch_item *items;
    size_t count, capacity;
    size_t next;
    const export_options *options;
    const char *out_dir;
    ferry_places *sources;      /* the models' folders, opened once each */
    const ferry_place *archive; /* the archive converted from, or NULL (a folder) */
    pthread_mutex_t lock;
    cli_progress progress;
    cli_walk walk;
} batch;

static char *format_alloc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_alloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static batch_item *add_item(batch *b, const char *path, const char *sub, const char *out_dir)
{
    if (b->count == b->capacity) {
        size_t cap = b->capacity ? b->capacity * 2 : 64;
        batch_item *items = realloc(b->items, cap * sizeof *items);
        if (!items) return NULL;
        b->items = items;
        b->capacity = cap;
    }
    batch_item *it = &b->items[b->count++];
    memset(it, 0, sizeof *it);
    it->in = strdup(path);
    it->rel = strdup(sub);
    size_t need = strlen(out_dir) + strlen(sub) + 8;
    it->out = malloc(need);
    if (it->out) snprintf(it->out, need, "%s/%.*s.glb", out_dir, (int)(strlen(sub) - 4), sub);
    return it;
}

/* The names of the formats ferry exports to glTF (the rows of formats.c
 * with an `export`: ALO models and particle systems, ODOL, ALM); each file
 * is then converted as what its content is. */
static const char *const model_exts[] = {".alo", ".p3d", ".alm"};

static bool is_model_name(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof model_exts / sizeof model_exts[0]; i++)
        if (n >= 5 && strncasecmp(name + n - 4, model_exts[i], 4) == 0) return true;
    return false;
}

/* An entry of the walk: a model (by name) is converted; one that cannot
 * be opened or is not a regular file is refused, never opened. */
static void visit(void *ctx, const char *path, const char *sub, const struct stat *st, int error)
{
    batch *b = ctx;
    size_t n = strlen(sub);
    if (!is_model_name(sub, n)) return;
    batch_item *it = add_item(b, path, sub, b->out_dir);
    if (!it) return;
    /* A dangling link named .alo is a file the user expects converted. */
    if (!st)
        it->refused = format_alloc("cannot open %s: %s", path, strerror(error));
    /* Never opened: a FIFO would block, a device could do anything. */
    else if (!S_ISREG(st->st_mode))
        it->refused = format_alloc("%s is %s, not a regular file: not read", path,
                                   S_ISFIFO(st->st_mode)   ? "a FIFO (named pipe)"
                                   : S_ISCHR(st->st_mode)  ? "a character device"
                                   : S_ISBLK(st->st_mode)  ? "a block device"
                                   : S_ISSOCK(st->st_mode) ? "a socket"
                                                           : "not a regular file");
}

/* Creates the folders of `path`; on failure says which and why. From byte
 * `no_links` on (an archive's entry below OUTDIR), a folder on the way that
 * is a link is refused: an archive's names never lead outside OUTDIR,
 * whatever links it holds. */
static int make_parents(const char *path, FILE *log, const char *in, size_t no_links)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        struct stat st;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
            if (log) fprintf(log, "%s: error: cannot create the folder %s: %s\n", CLI_TXT(in), CLI_TXT(buf), strerror(errno));
            return -1;
        }
        if ((size_t)(p - buf) > no_links && (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode))) {
            if (log) fprintf(log, "%s: error: not written: the folder %s on its path is a link or not a folder\n",
                             CLI_TXT(in), CLI_TXT(buf));
            return -1;
        }
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (log) fprintf(log, "%s: error: cannot create the folder %s: %s\n", CLI_TXT(in), CLI_TXT(buf),
                             stat(buf, &st) != 0 ? strerror(errno) : "a file of that name is in the way");
            return -1;
        }
        *p = '/';
    }
    return 0;
}

static int cmp_out_nocase(const void *a, const void *b)
{
    const batch_item *x = *(const batch_item *const *)a, *y = *(const batch_item *const *)b;
    int c = strcasecmp(x->out, y->out);
    return c ? c : strcmp(x->rel, y->rel);
}

/* Inputs whose outputs differ only in case (ship.alo and ship.ALO both give
 * ship.glb; Ship.alo and ship.alo collide on a case-insensitive disk): each
 * is refused, naming the others, so that none silently overwrites another. */
static void refuse_case_collisions(batch *b)
{
    if (b->count < 2) return;
    batch_item **order = malloc(b->count * sizeof *order);
    if (!order) return;
    size_t count = 0;
    for (size_t i = 0; i < b->count; i++)
        if (b->items[i].out && b->items[i].rel) order[count++] = &b->items[i];
    qsort(order, count, sizeof *order, cmp_out_nocase);
    for (size_t i = 0; i < count;) {
        size_t j = i + 1;
        while (j < count && strcasecmp(order[i]->out, order[j]->out) == 0) j++;
        for (size_t k = i; j - i > 1 && k < j; k++) {
            if (order[k]->refused) continue;
            const batch_item *other = order[k == i ? i + 1 : i];
            order[k]->refused = format_alloc("%s and %s%s would both be written as %s (the names differ only in case%s): "
                                             "not converted; rename one of them",
                                             order[k]->in, other->in, j - i > 2 ? " (and others)" : "", other->out,
                                             strcasecmp(order[k]->rel, other->rel) != 0 ? " or extension" : "");
        }
        i = j;
    }
    free(order);
}

/* Removes what killed ferry processes left in the output tree: temporaries
 * named OUT.ferry-tmp-PID-XXXXXX whose PID no longer runs (links are not
 * followed). Returns how many were removed. */
static size_t clean_stale(const char *dir, int depth)
{
    size_t removed = 0;
    ferry_error err;
    if (ferry_file_remove_stale_temporaries(dir, &removed, &err) != FERRY_OK || depth > 64) return removed;
    DIR *d = opendir(dir);
    if (!d) return removed;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char path[4096];
        int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (n < 0 || (size_t)n >= sizeof path || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        removed += clean_stale(path, depth + 1);
    }
    closedir(d);
    return removed;
}

/* Loads an item's bytes (from the disk or the archive) and hands them to
 * its format's export (formats.c), which reads companions through the
 * model's source: animations beside it, textures beside it, in ../Textures
 * and in the --textures places. */
/* The export of a model's format (the family's, cli_*_export), or NULL. */
static int (*export_of(ferry_format f))(const char *, const char *, const cli_convert_options *)
{
    switch (f) {
    case FERRY_FORMAT_ALO_MODEL:
    case FERRY_FORMAT_ALO_PARTICLE:
    case FERRY_FORMAT_ALO_PARTICLE_UAW:
    case FERRY_FORMAT_ALA: return cli_alamo_export;
    case FERRY_FORMAT_ODOL:
    case FERRY_FORMAT_MLOD: return cli_odol_export;
    case FERRY_FORMAT_ALM: return cli_alm_export;
    default: return NULL;
    }
}

static int convert_item(batch *b, batch_item *it, FILE *log)
{
    ferry_error err;
    memset(&err, 0, sizeof err);
    ferry_asset *in = NULL;
    const ferry_file_source *source = NULL, *parent = NULL;
    const char *path = NULL;
    uint8_t *loaded = NULL;
    const uint8_t *bytes = NULL;
    size_t size = 0;
    char dir[4096], up[4100];
    int status = CLI_INVALID;
    bool ok;
    /* The bytes and their format, told once (the export reads them). */
    ferry_asset_options ao = {.bytes_only = true, .need = FERRY_CAN_READ};
    if (it->entry) {
        source = b->archive->source;
        path = it->entry;
        ok = ferry_file_source_load(source, path, CLI_MAX_INPUT, &loaded, &size, &err) == FERRY_OK &&
             ferry_asset_read(loaded, size, &ao, &in, &err) == FERRY_OK;
    } else {
        ok = ferry_asset_open(it->in, &ao, &in, &err) == FERRY_OK;
        const char *slash = strrchr(it->in, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - it->in) : 1, slash ? it->in : ".");
        snprintf(up, sizeof up, "%s/..", dir);
        path = slash ? slash + 1 : it->in;
        const ferry_place *place = ok ? ferry_places_folder(b->sources, dir, &err) : NULL;
        if (ok && !place) ok = false;
        if (ok) source = place->source;
        ferry_error ignored; /* without the folder above, no ../Textures: not an error */
        const ferry_place *above = ok ? ferry_places_folder(b->sources, up, &ignored) : NULL;
        if (above) parent = above->source;
    }
    if (ok) bytes = ferry_asset_bytes(in, &size);
    ferry_format format = ferry_asset_format(in);
    int (*export)(const char *, const char *, const cli_convert_options *) = export_of(format);
    if (!ok) {
        if (log) cli_fprint_error(log, it->in, &err);
    } else if (!export) {
        if (log) fprintf(log, "%s: error: a %s, not a model ferry exports to glTF\n", CLI_TXT(it->in), cli_format_name(format));
    } else {
        export_input ei = {bytes, size, source, path, parent, it->entry ? b->archive->prefix : NULL, log, &it->result};
        cli_convert_options o = {0};
        o.source = format;
        o.allow_invalid = b->options->allow_invalid;
        o.alamo = b->options;
        o.all = b->options->all;
        o.input = &ei;
        o.texture_sources = b->options->texture_sources;
        o.texture_source_count = b->options->texture_source_count;
        o.texture_prefixes = b->options->texture_prefixes;
        status = export(it->in, it->out, &o);
    }
    ferry_asset_free(in);
    if (loaded) ferry_file_source_release(source, loaded, size);
    return status;
}

static void *worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->next++;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->count) return NULL;
        batch_item *it = &b->items[i];
        size_t log_size = 0;
        FILE *log = open_memstream(&it->log, &log_size);
        if (it->refused) {
            if (log) fprintf(log, "%s: error: %s\n", CLI_TXT(it->in), CLI_TXT(it->refused));
            it->status = CLI_INVALID;
        } else if (!it->in || !it->out || !it->rel) {
            if (log) fprintf(log, "ferry convert: out of memory\n");
            it->status = CLI_INVALID;
        } else if (make_parents(it->out, log, it->in, it->entry ? strlen(b->out_dir) : SIZE_MAX) != 0) {
            it->status = CLI_INVALID;
        } else {
            it->status = convert_item(b, it, log);
        }
        if (log) fclose(log);
        pthread_mutex_lock(&b->lock);
        cli_progress_step(&b->progress, it->rel);
        pthread_mutex_unlock(&b->lock);
    }
}

static int cmp_name(const void *a, const void *b) { return strcasecmp(*(char *const *)a, *(char *const *)b); }

/* The textures missing over the batch, each name once (ignoring case, as
 * the lookup does), so that a modder sees which files to find. */
static void print_missing(const batch *b, size_t total)
{
    if (!total) return;
    char **names = malloc(total * sizeof *names);
    if (!names) return;
    size_t n = 0;
    for (size_t i = 0; i < b->count; i++)
        for (size_t k = 0; k < b->items[i].result.missing_texture_count && n < total; k++)
            names[n++] = b->items[i].result.missing_textures[k];
    qsort(names, n, sizeof *names, cmp_name);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) distinct += i == 0 || strcasecmp(names[i], names[i - 1]) != 0;
    fprintf(stderr, "%zu texture%s missing:", distinct, distinct == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcasecmp(names[i], names[i - 1]) != 0) fprintf(stderr, " %s", names[i]);
    fputc('\n', stderr);
    free(names);
}

static int cmp_item(const void *a, const void *b)
{
    return strcmp(((const batch_item *)a)->rel, ((const batch_item *)b)->rel);
}

/* Every model inside the archive: its stored name made a path (or the
 * item refused, naming the record, when the name could lead outside
 * OUTDIR: ferry_archive_entry_path, extract's rule). */
static void collect_archive(batch *b, const char *archive)
{
    size_t count = ferry_archive_entry_count(b->archive->archive);
    for (size_t i = 0; i < count; i++) {
        const ferry_archive_entry *e = ferry_archive_entry_at(b->archive->archive, i);
        const char *name = e->name;
        size_t n = e->name_length;
        if (!name || !is_model_name(name, n)) continue;
        ferry_error err;
        char *path = malloc(n + 1);
        const char *why = path ? NULL : "out of memory";
        if (path && ferry_archive_entry_path(name, n, path, n + 1, &err) != FERRY_OK) {
            free(path);
            path = NULL;
            why = err.message;
        }
        char shown[4096];
        if (path)
            ferry_file_source_display(b->archive->source, path, shown, sizeof shown);
        else /* named by its record: the name itself is not a path */
            snprintf(shown, sizeof shown, "%s: files[%zu] '%.*s'", archive, i, (int)(n < 1024 ? n : 1024), name);
        batch_item *it = add_item(b, shown, path ? path : "", b->out_dir);
        if (!it) {
            free(path);
            return;
        }
        if (!path) {
            free(it->out);
            free(it->rel);
            it->out = NULL;
            it->rel = strndup(name, n);
            it->refused = format_alloc("not converted: %s (it would be written outside %s)", why, b->out_dir);
            continue;
        }
        it->entry = path;
    }
}

int export_batch(const char *in_dir, const char *out_dir, const export_options *options, ferry_places *sources,
                 int jobs, bool json)
{
    struct stat st, st_in;
    const ferry_place *archive = NULL;
    if (stat(in_dir, &st_in) != 0) {
        fprintf(stderr, "ferry convert: %s: %s\n", in_dir, strerror(errno));
        return CLI_USAGE;
    }
    if (!S_ISDIR(st_in.st_mode)) {
        ferry_place_kind kind = FERRY_PLACE_NONE;
        ferry_error ignored;
        (void)ferry_places_kind(in_dir, &kind, &ignored);
        if (kind != FERRY_PLACE_ARCHIVE) {
            fprintf(stderr, "ferry convert: %s is neither a folder nor an archive (MEG, PBO)\n", in_dir);
            return CLI_USAGE;
        }
        ferry_error err;
        if (!(archive = ferry_places_open(sources, in_dir, &err))) {
            cli_print_error(in_dir, &err);
            return CLI_INVALID;
        }
    }
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "ferry convert: cannot create %s: %s\n", out_dir, strerror(errno));
        return CLI_INVALID;
    }
    if (stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "ferry convert: %s exists and is not a folder\n", out_dir);
        return CLI_USAGE;
    }
    batch b = {0};
    b.options = options;
    b.out_dir = out_dir;
    b.sources = sources;
    b.archive = archive;
    b.walk.cmd = "convert";
    b.walk.visit = visit;
    b.walk.ctx = &b;
    pthread_mutex_init(&b.lock, NULL);
    size_t stale = clean_stale(out_dir, 0);
    if (stale)
        fprintf(stderr, "ferry convert: removed %zu temporar%s left in %s by ferry processes that no longer run\n", stale,
                stale == 1 ? "y" : "ies", CLI_TXT(out_dir));
    if (archive)
        collect_archive(&b, in_dir);
    else
        cli_walk_run(&b.walk, in_dir, &st_in);
    if (b.count) qsort(b.items, b.count, sizeof *b.items, cmp_item);
    refuse_case_collisions(&b);
    cli_progress_begin(&b.progress, b.count);
    if (jobs < 1) jobs = 1;
    if ((size_t)jobs > b.count) jobs = b.count ? (int)b.count : 1;
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    int started = 0;
    for (int t = 0; t < jobs; t++)
        if (pthread_create(&threads[t], NULL, worker, &b) == 0) started++;
    if (!started) worker(&b);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    free(threads);
    cli_progress_end(&b.progress);

    size_t failed = 0, warnings = 0, images = 0, animations = 0, missing = 0;
    json_t *files = json ? json_array() : NULL;
    for (size_t i = 0; i < b.count; i++) {
        batch_item *it = &b.items[i];
        if (it->log && *it->log && !options->quiet) fputs(it->log, stderr);
        failed += it->status != CLI_OK;
        warnings += it->result.warnings;
        /* Only what was written counts: a failed file embedded nothing. */
        if (it->status == CLI_OK) {
            images += it->result.images;
            animations += it->result.animations;
            missing += it->result.missing_texture_count;
        }
        if (files) {
            json_t *f = json_object();
            cli_json_set_text(f, "input", it->in);
            if (it->status == CLI_OK)
                cli_json_set_text(f, "output", it->out);
            else
                json_object_set_new(f, "output", json_null());
            json_object_set_new(f, "ok", json_boolean(it->status == CLI_OK));
            json_object_set_new(f, "warnings", json_integer((json_int_t)it->result.warnings));
            json_object_set_new(f, "animations", json_integer(it->status == CLI_OK ? (json_int_t)it->result.animations : 0));
            json_object_set_new(f, "images", json_integer(it->status == CLI_OK ? (json_int_t)it->result.images : 0));
            json_object_set_new(f, "meshes_left_out", json_integer((json_int_t)it->result.meshes_left_out));
            json_t *missing = json_array();
            json_object_set_new(f, "missing_textures", missing);
            for (size_t k = 0; k < it->result.missing_texture_count; k++)
                cli_json_append_text(f, "missing_textures", missing, it->result.missing_textures[k]);
            cli_json_set_text(f, "messages", it->log ? it->log : "");
            json_array_append_new(files, f);
        }
    }
    if (files) {
        json_t *root = json_object();
        json_object_set_new(root, "files", files);
        json_object_set_new(root, "converted", json_integer((json_int_t)(b.count - failed)));
        json_object_set_new(root, "failed", json_integer((json_int_t)failed));
        /* The count (link loops and folders that could not be read), then
         * each folder with its reason; failed_folders: those unreadable. */
        json_object_set_new(root, "skipped_folders", json_integer((json_int_t)b.walk.skipped_count));
        json_object_set_new(root, "failed_folders", json_integer((json_int_t)b.walk.failed));
        json_object_set_new(root, "skipped_folder_list", cli_walk_skipped_json(&b.walk));
        cli_print_json(root);
        json_decref(root);
    }
    fprintf(stderr, "%zu of %zu files converted into %s (%zu animations, %zu images embedded, %zu warnings",
            b.count - failed, b.count, CLI_TXT(out_dir), animations, images, warnings);
    fputs(")", stderr);
    if (failed) {
        fprintf(stderr, "; %zu failed:\n", failed);
        for (size_t i = 0; i < b.count; i++)
            if (b.items[i].status != CLI_OK) fprintf(stderr, "  %s\n", CLI_TXT(b.items[i].in));
    } else {
        fprintf(stderr, "\n");
    }
    cli_walk_print_failed(&b.walk);
    print_missing(&b, missing);
    for (size_t i = 0; i < b.count; i++) {
        free(b.items[i].in);
        free(b.items[i].out);
        free(b.items[i].rel);
        free(b.items[i].entry);
        free(b.items[i].log);
        free(b.items[i].refused);
        export_result_free(&b.items[i].result);
    }
    free(b.items);
    size_t failed_dirs = b.walk.failed;
    cli_walk_free(&b.walk);
    pthread_mutex_destroy(&b.lock);
    return failed || failed_dirs ? CLI_INVALID : CLI_OK;
}
