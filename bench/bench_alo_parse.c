/* ALO parse throughput against memcpy of the same bytes, in the same run.
 *
 *   bench_alo_parse [--json] [--rounds N] [--round-ms MS] [--total-only | --per-file-only]
 *                   [--label NAME] [--no-header] FILE_OR_DIR...
 *   bench_alo_parse --list FILE_OR_DIR...   sizes and paths of the models found
 *   bench_alo_parse --peak FILE             one load, for a heap profiler
 *   bench_alo_parse --loop OP SECONDS FILE_OR_DIR...   one operation only, for a profiler
 *
 * Every model is in memory before any clock starts, so no figure includes
 * file input. The memcpy baseline and the measured operations alternate
 * within each round, and a ratio is taken per round before the median:
 * on a shared machine a burst of foreign load then hits both sides of a
 * ratio instead of one. Figures go to docs/benchmarks.md; nothing here
 * asserts a threshold, since timing belongs to measurement, not to tests. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/alo.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct model_file {
    char *path;
    uint8_t *data;
    size_t size;
    ferry_alo_model *model; /* parsed once up front: the input of the write benchmark */
    size_t tree_bytes;      /* arena of the transient chunk tree */
    size_t model_bytes;     /* arena of the model that ferry_alo_read returns */
    bool round_trip_exact;
} model_file;

typedef struct file_list {
    model_file *items;
    size_t count, capacity;
    size_t skipped; /* files that are not ALO models */
} file_list;

enum { OP_MEMCPY, OP_PARSE, OP_CHUNKS, OP_WRITE, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"memcpy", "parse", "chunks", "write"};

typedef struct result {
    double mbps[OP_COUNT]; /* median over rounds */
    double ratio[OP_COUNT]; /* median over rounds of op / memcpy in that round */
} result;

/* Keeps the compiler from proving the measured work unused. */
static volatile uint64_t sink;

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static bool is_model_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t head[8];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return ferry_alamo_detect(head, got) == FERRY_ALAMO_MODEL;
}

static bool add_path(file_list *list, const char *path)
{
    if (!is_model_file(path)) {
        list->skipped++;
        return true;
    }
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 64;
        model_file *items = realloc(list->items, cap * sizeof *items);
        if (!items) return false;
        list->items = items;
        list->capacity = cap;
    }
    model_file *m = &list->items[list->count];
    memset(m, 0, sizeof *m);
    m->path = dup_string(path);
    if (!m->path) return false;
    list->count++;
    return true;
}

static bool visit_file(void *list, const char *path) { return add_path(list, path); }

static int by_path(const void *a, const void *b)
{
    return strcmp(((const model_file *)a)->path, ((const model_file *)b)->path);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Loads, parses once and checks the round trip, all before timing starts,
 * so that a timed loop never meets a failure path. */
static bool prepare(model_file *m)
{
    ferry_error err;
    if (ferry_file_load(m->path, 0, &m->data, &m->size, &err) != FERRY_OK) {
        fprintf(stderr, "bench_alo_parse: %s: %s\n", m->path, err.message);
        return false;
    }
    ferry_chunk_tree *tree;
    if (ferry_alamo_chunk_read(m->data, m->size, NULL, &tree, &err) != FERRY_OK ||
        ferry_alo_read(m->data, m->size, NULL, &m->model, &err) != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        fprintf(stderr, "bench_alo_parse: %s: does not parse, left out: %s\n", m->path, line);
        return false;
    }
    m->tree_bytes = ferry_arena_used(tree->arena);
    ferry_alamo_chunk_free(tree);
    m->model_bytes = ferry_arena_used(m->model->arena);
    ferry_buffer out = {0};
    m->round_trip_exact = ferry_alo_write(m->model, &out, &err) == FERRY_OK && out.size == m->size &&
                          memcmp(out.data, m->data, m->size) == 0;
    ferry_buffer_free(&out);
    return true;
}

static void run_once(int op, model_file *files, size_t n, uint8_t *scratch)
{
    for (size_t i = 0; i < n; i++) {
        model_file *m = &files[i];
        switch (op) {
        case OP_MEMCPY:
            memcpy(scratch, m->data, m->size);
            sink += scratch[m->size - 1];
            break;
        case OP_PARSE: {
            ferry_alo_model *model;
            if (ferry_alo_read(m->data, m->size, NULL, &model, NULL) == FERRY_OK) {
                sink += model->mesh_count;
                ferry_alo_free(model);
            }
            break;
        }
        case OP_CHUNKS: {
            ferry_chunk_tree *tree;
            if (ferry_alamo_chunk_read(m->data, m->size, NULL, &tree, NULL) == FERRY_OK) {
                sink += tree->root_count;
                ferry_alamo_chunk_free(tree);
            }
            break;
        }
        case OP_WRITE: {
            /* A fresh buffer each time, as a converter would use: its
             * growth is part of what writing costs. */
            ferry_buffer out = {0};
            ferry_alo_write(m->model, &out, NULL);
            sink += out.size;
            ferry_buffer_free(&out);
            break;
        }
        default: break;
        }
    }
}

static double time_op(int op, model_file *files, size_t n, uint8_t *scratch, uint64_t iterations)
{
    double start = bench_now();
    for (uint64_t k = 0; k < iterations; k++) run_once(op, files, n, scratch);
    return bench_now() - start;
}

/* Iterations that fill about one round; also warms caches and the heap. */
static uint64_t calibrate(int op, model_file *files, size_t n, uint8_t *scratch, double round_s)
{
    uint64_t iterations = 1;
    for (;;) {
        double t = time_op(op, files, n, scratch, iterations);
        if (t >= round_s / 8 || iterations >= (UINT64_MAX >> 2)) {
            double scaled = (double)iterations * round_s / (t > 1e-9 ? t : 1e-9);
            return scaled < 1 ? 1 : (uint64_t)scaled + 1;
        }
        iterations *= 2;
    }
}

static bool measure(model_file *files, size_t n, uint8_t *scratch, int rounds, double round_s, result *res)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++) bytes += files[i].size;
    uint64_t iterations[OP_COUNT];
    for (int op = 0; op < OP_COUNT; op++) iterations[op] = calibrate(op, files, n, scratch, round_s);
    double *rate = malloc(sizeof(double) * (size_t)rounds * OP_COUNT);
    double *ratio = malloc(sizeof(double) * (size_t)rounds);
    if (!rate || !ratio) {
        free(rate);
        free(ratio);
        return false;
    }
    for (int r = 0; r < rounds; r++) {
        /* Rotating the order keeps any one operation from always running
         * right after the same neighbour (cache and heap state). */
        for (int k = 0; k < OP_COUNT; k++) {
            int op = (k + r) % OP_COUNT;
            double t = time_op(op, files, n, scratch, iterations[op]);
            rate[op * rounds + r] = (double)bytes * (double)iterations[op] / t / 1e6;
        }
    }
    for (int op = 0; op < OP_COUNT; op++) {
        for (int r = 0; r < rounds; r++) ratio[r] = rate[op * rounds + r] / rate[OP_MEMCPY * rounds + r];
        res->ratio[op] = bench_median(ratio, (size_t)rounds);
    }
    for (int op = 0; op < OP_COUNT; op++) res->mbps[op] = bench_median(rate + op * rounds, (size_t)rounds);
    free(rate);
    free(ratio);
    return true;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_row(const char *name, size_t files, uint64_t bytes, uint64_t tree, uint64_t model,
                     const result *res)
{
    printf("{\"name\": ");
    json_string(name);
    printf(", \"files\": %zu, \"bytes\": %llu", files, (unsigned long long)bytes);
    for (int op = 0; op < OP_COUNT; op++) printf(", \"%s_mbps\": %.1f", op_names[op], res->mbps[op]);
    for (int op = 1; op < OP_COUNT; op++) printf(", \"%s_ratio\": %.3f", op_names[op], res->ratio[op]);
    printf(", \"parse_us_per_pass\": %.2f", (double)bytes / res->mbps[OP_PARSE]);
    printf(", \"tree_arena_bytes\": %llu, \"model_arena_bytes\": %llu, \"arena_per_file\": %.3f}",
           (unsigned long long)tree, (unsigned long long)model, (double)(tree + model) / (double)bytes);
}

static void text_header(void)
{
    printf("%-38s %8s %8s %8s %9s %6s %8s %8s %6s %10s\n", "file", "KiB", "memcpy", "parse", "parse", "ratio",
           "chunks", "write", "ratio", "arena/file");
    printf("%-38s %8s %8s %8s %9s %6s %8s %8s %6s %10s\n", "", "", "MB/s", "MB/s", "us/pass", "p/mcp", "MB/s",
           "MB/s", "w/mcp", "(peak est)");
}

static void text_row(const char *name, uint64_t bytes, uint64_t tree, uint64_t model, const result *res)
{
    printf("%-38.38s %8.0f %8.0f %8.0f %9.1f %6.3f %8.0f %8.0f %6.3f %10.2f\n", name, (double)bytes / 1024,
           res->mbps[OP_MEMCPY], res->mbps[OP_PARSE], (double)bytes / res->mbps[OP_PARSE], res->ratio[OP_PARSE],
           res->mbps[OP_CHUNKS], res->mbps[OP_WRITE], res->ratio[OP_WRITE], (double)(tree + model) / (double)bytes);
}

/* Peak resident set so far (VmHWM), in bytes; 0 where /proc is missing. */
static uint64_t resident_high_water(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %llu kB", &kib) == 1) break;
    fclose(f);
    return (uint64_t)kib * 1024;
}

/* One load and nothing else, so that a heap profiler's peak is the input
 * buffer plus what ferry_alo_read holds at its high point. Also prints how
 * far the resident high-water mark rose: arena blocks are malloc'd whole
 * but paged in only where written, so resident memory can sit below the
 * heap figure. */
static int peak_probe(const char *path)
{
    uint64_t resident_before = resident_high_water();
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(path, 0, &data, &size, &err) != FERRY_OK) {
        fprintf(stderr, "bench_alo_parse: %s: %s\n", path, err.message);
        return 1;
    }
    ferry_alo_model *model;
    ferry_result rc = ferry_alo_read(data, size, NULL, &model, &err);
    size_t model_bytes = rc == FERRY_OK ? ferry_arena_used(model->arena) : 0;
    if (rc == FERRY_OK) ferry_alo_free(model);
    ferry_file_free(data);
    if (rc != FERRY_OK) {
        fprintf(stderr, "bench_alo_parse: %s: %s\n", path, err.message);
        return 1;
    }
    uint64_t resident_after = resident_high_water();
    /* file bytes, model arena bytes, rise of the resident high-water mark */
    printf("%zu %zu %llu\n", size, model_bytes,
           (unsigned long long)(resident_after > resident_before ? resident_after - resident_before : 0));
    return 0;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: bench_alo_parse [--json] [--rounds N] [--round-ms MS] [--total-only | --per-file-only]\n"
                "                       [--label NAME] [--no-header] FILE_OR_DIR...\n"
                "       bench_alo_parse --list FILE_OR_DIR...\n"
                "       bench_alo_parse --loop memcpy|parse|chunks|write SECONDS FILE_OR_DIR...\n"
                "       bench_alo_parse --peak FILE\n");
}

int main(int argc, char **argv)
{
    bool json = false, total_only = false, per_file_only = false, list_only = false, header = true;
    const char *label = NULL;
    int loop_op = -1;
    double loop_seconds = 0;
    int rounds = 7;
    double round_ms = 50;
    file_list list = {0};
    /* Options may come anywhere; everything else names a file or folder. */
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t path_count = 0;
    if (!paths) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--total-only")) {
            total_only = true;
        } else if (!strcmp(a, "--per-file-only")) {
            per_file_only = true;
        } else if (!strcmp(a, "--no-header")) {
            header = false;
        } else if (!strcmp(a, "--label") && i + 1 < argc) {
            label = argv[++i];
        } else if (!strcmp(a, "--list")) {
            list_only = true;
        } else if (!strcmp(a, "--peak") && i + 1 < argc) {
            free(paths);
            return peak_probe(argv[i + 1]);
        } else if (!strcmp(a, "--loop") && i + 2 < argc) {
            for (int op = 0; op < OP_COUNT; op++)
                if (!strcmp(argv[i + 1], op_names[op])) loop_op = op;
            loop_seconds = atof(argv[i + 2]);
            if (loop_op < 0 || loop_seconds <= 0) {
                usage(stderr);
                free(paths);
                return 2;
            }
            i += 2;
        } else if (!strcmp(a, "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(a, "--round-ms") && i + 1 < argc) {
            round_ms = atof(argv[++i]);
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(paths);
            return 0;
        } else if (a[0] == '-' && a[1] == '-') {
            usage(stderr);
            free(paths);
            return 2;
        } else {
            paths[path_count++] = a;
        }
    }
    if (!path_count || rounds < 1 || round_ms <= 0 || (total_only && per_file_only)) {
        usage(stderr);
        free(paths);
        return 2;
    }
    for (size_t i = 0; i < path_count; i++) {
        if (!bench_walk("bench_alo_parse", paths[i], visit_file, &list)) {
            free(paths);
            return 1;
        }
    }
    free(paths);
    qsort(list.items, list.count, sizeof *list.items, by_path);
    if (list_only) {
        struct stat st;
        for (size_t i = 0; i < list.count; i++)
            if (stat(list.items[i].path, &st) == 0) printf("%lld\t%s\n", (long long)st.st_size, list.items[i].path);
        return 0;
    }

    size_t kept = 0, largest = 1;
    uint64_t total_bytes = 0, total_tree = 0, total_model = 0;
    size_t exact = 0;
    for (size_t i = 0; i < list.count; i++) {
        model_file m = list.items[i];
        if (!prepare(&m)) {
            free(m.path);
            ferry_file_free(m.data);
            continue;
        }
        list.items[kept++] = m;
        if (m.size > largest) largest = m.size;
        total_bytes += m.size;
        total_tree += m.tree_bytes;
        total_model += m.model_bytes;
        exact += m.round_trip_exact;
    }
    if (!kept) {
        fprintf(stderr, "bench_alo_parse: no ALO model found\n");
        return 1;
    }
    uint8_t *scratch = malloc(largest);
    if (!scratch) return 1;
    /* Page the baseline's destination in before anything is timed, as the
     * heap that the parser reuses from round to round is paged in too. */
    memset(scratch, 0, largest);
    double round_s = round_ms / 1000;

    if (loop_op >= 0) {
        /* Nothing but the one operation, for a sampling profiler. */
        uint64_t passes = 0;
        double start = bench_now();
        while (bench_now() - start < loop_seconds) {
            run_once(loop_op, list.items, kept, scratch);
            passes++;
        }
        double t = bench_now() - start;
        printf("%s: %llu passes over %zu models, %.0f MB/s\n", op_names[loop_op], (unsigned long long)passes, kept,
               (double)total_bytes * (double)passes / t / 1e6);
        return 0;
    }

    if (json) {
        printf("{\"rounds\": %d, \"round_ms\": %.0f, \"models\": %zu, \"skipped_files\": %zu, "
               "\"round_trip_exact\": %zu, \"per_file\": [",
               rounds, round_ms, kept, list.skipped, exact);
    } else if (header) {
        printf("%zu ALO models, %.2f MB (%zu other files skipped); %zu/%zu write back byte-identical\n", kept,
               (double)total_bytes / 1e6, list.skipped, exact, kept);
        printf("median of %d rounds, each >= %.0f ms per operation; MB = 10^6 bytes; ratios are medians of "
               "per-round ratios\n\n",
               rounds, round_ms);
        text_header();
    }
    result res;
    if (!total_only) {
        for (size_t i = 0; i < kept; i++) {
            model_file *m = &list.items[i];
            if (!measure(m, 1, scratch, rounds, round_s, &res)) return 1;
            if (json) {
                if (i) printf(", ");
                json_row(m->path, 1, m->size, m->tree_bytes, m->model_bytes, &res);
            } else {
                text_row(base_name(m->path), m->size, m->tree_bytes, m->model_bytes, &res);
            }
            fflush(stdout);
        }
    }
    /* All the files per iteration: what converting a folder costs, with
     * small files weighted by their bytes instead of one vote each. */
    char name[64];
    if (!label) {
        snprintf(name, sizeof name, "all %zu models in sequence", kept);
        label = name;
    }
    if (!per_file_only && !measure(list.items, kept, scratch, rounds, round_s, &res)) return 1;
    if (json) {
        printf("], \"total\": ");
        if (per_file_only)
            printf("null");
        else
            json_row(label, kept, total_bytes, total_tree, total_model, &res);
        printf("}\n");
    } else if (!per_file_only) {
        if (!total_only) printf("\n");
        text_row(label, total_bytes, total_tree, total_model, &res);
    }

    free(scratch);
    for (size_t i = 0; i < kept; i++) {
        ferry_alo_free(list.items[i].model);
        ferry_file_free(list.items[i].data);
        free(list.items[i].path);
    }
    free(list.items);
    return 0;
}
