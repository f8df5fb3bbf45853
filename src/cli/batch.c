/* ferry convert -r DIR OUTDIR: every .alo under DIR to glTF, in parallel,
 * mirroring the folders. One bad file never stops the batch. */
#define _DEFAULT_SOURCE
#include "export.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct batch_item {
    char *in, *out, *rel;
    int status;
    export_result result;
    char *log;
} batch_item;

typedef struct batch {
    batch_item *items;
    size_t count, capacity;
    size_t next;
    const export_options *options;
    pthread_mutex_t lock;
    cli_progress progress;
} batch;

static void collect(batch *b, const char *root, const char *rel, const char *out_dir)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096], sub[4096];
        /* Paths too long to hold are skipped rather than cut short. */
        int np = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int ns = snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        if (np < 0 || (size_t)np >= sizeof path || ns < 0 || (size_t)ns >= sizeof sub) continue;
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            collect(b, root, sub, out_dir);
            continue;
        }
        size_t n = strlen(e->d_name);
        if (n < 5 || strcasecmp(e->d_name + n - 4, ".alo") != 0) continue;
        if (b->count == b->capacity) {
            b->capacity = b->capacity ? b->capacity * 2 : 64;
            b->items = realloc(b->items, b->capacity * sizeof *b->items);
        }
        batch_item *it = &b->items[b->count++];
        memset(it, 0, sizeof *it);
        it->in = strdup(path);
        it->rel = strdup(sub);
        size_t need = strlen(out_dir) + strlen(sub) + 8;
        it->out = malloc(need);
        snprintf(it->out, need, "%s/%.*s.glb", out_dir, (int)(strlen(sub) - 4), sub);
    }
    closedir(d);
}

static int make_parents(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return 0;
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
        if (make_parents(it->out) != 0) {
            if (log) fprintf(log, "%s: error: cannot create the folders for %s\n", it->in, it->out);
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
    struct stat st;
    if (stat(in_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
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
    pthread_mutex_init(&b.lock, NULL);
    collect(&b, in_dir, "", out_dir);
    if (b.count) qsort(b.items, b.count, sizeof *b.items, cmp_item);
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
        images += it->result.images;
        animations += it->result.animations;
        missing += it->result.missing_texture_count;
        if (files) {
            json_t *f = json_object();
            json_object_set_new(f, "input", json_string(it->in));
            json_object_set_new(f, "output", it->status == CLI_OK ? json_string(it->out) : json_null());
            json_object_set_new(f, "ok", json_boolean(it->status == CLI_OK));
            json_object_set_new(f, "warnings", json_integer((json_int_t)it->result.warnings));
            json_object_set_new(f, "animations", json_integer((json_int_t)it->result.animations));
            json_object_set_new(f, "images", json_integer((json_int_t)it->result.images));
            json_object_set_new(f, "meshes_left_out", json_integer((json_int_t)it->result.meshes_left_out));
            json_t *missing = json_array();
            for (size_t k = 0; k < it->result.missing_texture_count; k++)
                json_array_append_new(missing, json_string(it->result.missing_textures[k]));
            json_object_set_new(f, "missing_textures", missing);
            json_object_set_new(f, "messages", json_string(it->log ? it->log : ""));
            json_array_append_new(files, f);
        }
    }
    if (files) {
        json_t *root = json_object();
        json_object_set_new(root, "files", files);
        json_object_set_new(root, "converted", json_integer((json_int_t)(b.count - failed)));
        json_object_set_new(root, "failed", json_integer((json_int_t)failed));
        cli_print_json(root);
        json_decref(root);
    }
    fprintf(stderr, "%zu of %zu files converted into %s (%zu animations, %zu images embedded, %zu warnings",
            b.count - failed, b.count, out_dir, animations, images, warnings);
    fputs(")", stderr);
    if (failed) {
        fprintf(stderr, "; %zu failed:\n", failed);
        for (size_t i = 0; i < b.count; i++)
            if (b.items[i].status != CLI_OK) fprintf(stderr, "  %s\n", b.items[i].in);
    } else {
        fprintf(stderr, "\n");
    }
    print_missing(&b, missing);
    for (size_t i = 0; i < b.count; i++) {
        free(b.items[i].in);
        free(b.items[i].out);
        free(b.items[i].rel);
        free(b.items[i].log);
        export_result_free(&b.items[i].result);
    }
    free(b.items);
    pthread_mutex_destroy(&b.lock);
    return failed ? CLI_INVALID : CLI_OK;
}
