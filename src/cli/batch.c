/* ferry convert -r DIR OUTDIR: every .alo under DIR to glTF, in parallel,
 * mirroring the folders. One bad file never stops the batch. */
#define _DEFAULT_SOURCE
#include "export.h"
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
    char *in, *out, *rel;
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

/* An entry of the walk: a .alo (by name) is converted; one that cannot
 * be opened or is not a regular file is refused, never opened. */
static void visit(void *ctx, const char *path, const char *sub, const struct stat *st, int error)
{
    batch *b = ctx;
    size_t n = strlen(sub);
    if (!(n >= 5 && strcasecmp(sub + n - 4, ".alo") == 0)) return;
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

/* Creates the folders of `path`; on failure says which and why. */
static int make_parents(const char *path, FILE *log, const char *in)
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
    for (size_t i = 0; i < b->count; i++) order[i] = &b->items[i];
    qsort(order, b->count, sizeof *order, cmp_out_nocase);
    for (size_t i = 0; i < b->count;) {
        size_t j = i + 1;
        while (j < b->count && strcasecmp(order[i]->out, order[j]->out) == 0) j++;
        for (size_t k = i; j - i > 1 && k < j; k++) {
            if (order[k]->refused) continue;
            const batch_item *other = order[k == i ? i + 1 : i];
            order[k]->refused = format_alloc("%s and %s%s would both be written as %s (the names differ only in case): "
                                             "not converted; rename one of them",
                                             order[k]->in, other->in, j - i > 2 ? " (and others)" : "", other->out);
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
        } else if (make_parents(it->out, log, it->in) != 0) {
            it->status = CLI_INVALID;
        } else {
            it->status = export_one(it->in, it->out, b->options, &it->result, log);
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

int export_batch(const char *in_dir, const char *out_dir, const export_options *options, int jobs, bool json)
{
    struct stat st, st_in;
    if (stat(in_dir, &st_in) != 0 || !S_ISDIR(st_in.st_mode)) {
        fprintf(stderr, "ferry convert: %s is not a folder\n", in_dir);
        return CLI_USAGE;
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
    b.walk.cmd = "convert";
    b.walk.visit = visit;
    b.walk.ctx = &b;
    pthread_mutex_init(&b.lock, NULL);
    size_t stale = clean_stale(out_dir, 0);
    if (stale)
        fprintf(stderr, "ferry convert: removed %zu temporar%s left in %s by ferry processes that no longer run\n", stale,
                stale == 1 ? "y" : "ies", CLI_TXT(out_dir));
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
