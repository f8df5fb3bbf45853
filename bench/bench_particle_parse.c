/* Particle-file parse (and write) throughput against memcpy of the same
 * bytes, in the same run.
 *
 *   bench_particle_parse [--rounds N] [--round-ms MS] FILE_OR_DIR...
 *
 * Every file is in memory before any clock starts. Particle files are
 * small (about 1-4 KiB), so per-load costs dominate: besides MB/s the table
 * gives the time of one parse of each file. The memcpy baseline and the
 * measured operations alternate within each round and each ratio is taken
 * per round before the median, so a burst of foreign load on a shared
 * machine hits both sides of a ratio. Nothing here asserts a threshold:
 * timing belongs to measurement, not to tests. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/particle.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct pfile {
    char *path;
    uint8_t *data;
    size_t size;
    ferry_particle_system *system; /* parsed once: the input of the write benchmark */
    size_t emitters;
    bool exact;
} pfile;

typedef struct plist {
    pfile *items;
    size_t count, capacity, skipped;
} plist;

enum { OP_MEMCPY, OP_PARSE, OP_WRITE, OP_COUNT };

typedef struct result {
    double mbps[OP_COUNT], ratio[OP_COUNT];
} result;

static volatile uint64_t sink; /* keeps the measured work from being proven unused */

static bool add_file(plist *list, const char *path)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(path, 0, &data, &size, &err) != FERRY_OK) {
        fprintf(stderr, "bench_particle_parse: %s: %s\n", path, err.message);
        return false;
    }
    if (ferry_alamo_detect(data, size) != FERRY_ALAMO_PARTICLE) {
        ferry_file_free(data);
        list->skipped++;
        return true;
    }
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? 2 * list->capacity : 16;
        pfile *items = realloc(list->items, cap * sizeof *items);
        if (!items) return false;
        list->items = items;
        list->capacity = cap;
    }
    pfile *f = &list->items[list->count];
    memset(f, 0, sizeof *f);
    f->data = data;
    f->size = size;
    /* Parsed and written once before timing, so a timed loop never meets a failure path. */
    if (ferry_particle_read(data, size, NULL, &f->system, &err) != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        fprintf(stderr, "bench_particle_parse: %s: does not parse, left out: %s\n", path, line);
        ferry_file_free(data);
        list->skipped++;
        return true;
    }
    f->emitters = f->system->emitter_count;
    ferry_buffer out = {0};
    f->exact = ferry_particle_write(f->system, &out, &err) == FERRY_OK && out.size == size &&
               memcmp(out.data, data, size) == 0;
    ferry_buffer_free(&out);
    size_t n = strlen(path) + 1;
    f->path = malloc(n);
    if (!f->path) return false;
    memcpy(f->path, path, n);
    list->count++;
    return true;
}

static bool visit_file(void *list, const char *path) { return add_file(list, path); }

static int by_path(const void *a, const void *b) { return strcmp(((const pfile *)a)->path, ((const pfile *)b)->path); }

static void run_once(int op, pfile *files, size_t n, uint8_t *scratch)
{
    for (size_t i = 0; i < n; i++) {
        pfile *f = &files[i];
        if (op == OP_MEMCPY) {
            memcpy(scratch, f->data, f->size);
            sink += scratch[f->size - 1];
        } else if (op == OP_PARSE) {
            ferry_particle_system *s;
            if (ferry_particle_read(f->data, f->size, NULL, &s, NULL) == FERRY_OK) {
                sink += s->emitter_count;
                ferry_particle_free(s);
            }
        } else {
            ferry_buffer out = {0};
            ferry_particle_write(f->system, &out, NULL);
            sink += out.size;
            ferry_buffer_free(&out);
        }
    }
}

static double time_op(int op, pfile *files, size_t n, uint8_t *scratch, uint64_t iterations)
{
    double start = bench_now();
    for (uint64_t k = 0; k < iterations; k++) run_once(op, files, n, scratch);
    return bench_now() - start;
}

/* Iterations that fill about one round; also warms caches and the heap. */
static uint64_t calibrate(int op, pfile *files, size_t n, uint8_t *scratch, double round_s)
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

static bool measure(pfile *files, size_t n, uint8_t *scratch, int rounds, double round_s, result *res)
{
    uint64_t bytes = 0, iterations[OP_COUNT];
    for (size_t i = 0; i < n; i++) bytes += files[i].size;
    for (int op = 0; op < OP_COUNT; op++) iterations[op] = calibrate(op, files, n, scratch, round_s);
    double *rate = malloc(sizeof(double) * (size_t)rounds * OP_COUNT), *ratio = malloc(sizeof(double) * (size_t)rounds);
    if (!rate || !ratio) {
        free(rate);
        free(ratio);
        return false;
    }
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < OP_COUNT; k++) {
            /* Rotating the order keeps any operation from always following the same one. */
            int op = (k + r) % OP_COUNT;
            rate[op * rounds + r] = (double)bytes * (double)iterations[op] / time_op(op, files, n, scratch, iterations[op]) / 1e6;
        }
    for (int op = 0; op < OP_COUNT; op++) {
        for (int r = 0; r < rounds; r++) ratio[r] = rate[op * rounds + r] / rate[OP_MEMCPY * rounds + r];
        res->ratio[op] = bench_median(ratio, (size_t)rounds);
        res->mbps[op] = bench_median(rate + op * rounds, (size_t)rounds);
    }
    free(rate);
    free(ratio);
    return true;
}

static void row(const char *name, size_t files, uint64_t bytes, const result *res)
{
    /* MB/s is bytes per microsecond: bytes / MB/s is microseconds per pass. */
    double parse_us = (double)bytes / res->mbps[OP_PARSE], memcpy_us = (double)bytes / res->mbps[OP_MEMCPY];
    printf("%-34.34s %7llu %8.0f %8.0f %8.1f %9.3f %9.2f %9.2f %8.0f %8.1f\n", name, (unsigned long long)bytes,
           res->mbps[OP_MEMCPY], res->mbps[OP_PARSE], res->ratio[OP_PARSE] > 0 ? 1 / res->ratio[OP_PARSE] : 0,
           memcpy_us / (double)files, parse_us / (double)files, parse_us * 1e3 / (double)bytes, res->mbps[OP_WRITE],
           res->ratio[OP_WRITE] > 0 ? 1 / res->ratio[OP_WRITE] : 0);
}

int main(int argc, char **argv)
{
    int rounds = 7;
    double round_ms = 50;
    plist list = {0};
    int paths = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--round-ms") && i + 1 < argc) {
            round_ms = atof(argv[++i]);
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_particle_parse [--rounds N] [--round-ms MS] FILE_OR_DIR...\n");
            return 2;
        } else {
            paths++;
            if (!bench_walk("bench_particle_parse", argv[i], visit_file, &list)) return 1;
        }
    }
    if (!paths || rounds < 1 || round_ms <= 0) {
        fprintf(stderr, "usage: bench_particle_parse [--rounds N] [--round-ms MS] FILE_OR_DIR...\n");
        return 2;
    }
    if (!list.count) {
        fprintf(stderr, "bench_particle_parse: no particle file found (%zu other files skipped)\n", list.skipped);
        return 1;
    }
    qsort(list.items, list.count, sizeof *list.items, by_path);
    size_t largest = 1, exact = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < list.count; i++) {
        if (list.items[i].size > largest) largest = list.items[i].size;
        total += list.items[i].size;
        exact += list.items[i].exact;
    }
    uint8_t *scratch = malloc(largest);
    if (!scratch) return 1;
    memset(scratch, 0, largest); /* paged in before anything is timed */
    printf("%zu particle files, %llu bytes (%zu other files skipped); %zu/%zu write back byte-identical\n",
           list.count, (unsigned long long)total, list.skipped, exact, list.count);
    printf("median of %d rounds, each >= %.0f ms per operation; MB = 10^6 bytes; x memcpy = how many times longer "
           "than copying the bytes\n\n",
           rounds, round_ms);
    printf("%-34s %7s %8s %8s %8s %9s %9s %9s %8s %8s\n", "file", "bytes", "memcpy", "parse", "parse", "memcpy",
           "parse", "parse", "write", "write");
    printf("%-34s %7s %8s %8s %8s %9s %9s %9s %8s %8s\n", "", "", "MB/s", "MB/s", "x memcpy", "us/file", "us/file",
           "ns/byte", "MB/s", "x memcpy");
    result res;
    for (size_t i = 0; i < list.count; i++) {
        pfile *f = &list.items[i];
        if (!measure(f, 1, scratch, rounds, round_ms / 1000, &res)) return 1;
        const char *base = strrchr(f->path, '/');
        row(base ? base + 1 : f->path, 1, f->size, &res);
        fflush(stdout);
    }
    if (!measure(list.items, list.count, scratch, rounds, round_ms / 1000, &res)) return 1;
    char label[64];
    snprintf(label, sizeof label, "all %zu in sequence (per file)", list.count);
    printf("\n");
    row(label, list.count, total, &res);
    free(scratch);
    for (size_t i = 0; i < list.count; i++) {
        ferry_particle_free(list.items[i].system);
        ferry_file_free(list.items[i].data);
        free(list.items[i].path);
    }
    free(list.items);
    return 0;
}
