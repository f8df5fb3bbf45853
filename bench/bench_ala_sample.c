/* ALA sampling and parsing throughput, each against memcpy in the same run.
 *
 *   bench_ala_sample [--json] [--rounds N] [--round-ms MS] FILE_OR_DIR...
 *
 * Operations, over every animation found (files whose first chunk is 0x1000):
 *   sample    ferry_ala_sample_all at fractional frames, about three per
 *             frame, spread over each animation: every bone interpolated
 *             (lerp, slerp, step bits) at each time;
 *   frames    the same at whole frames (decoding only, no interpolation);
 *   pose copy memcpy of as many bytes as sampling writes (bone_count
 *             ferry_ala_pose structs per time): the baseline for both;
 *   parse     ferry_ala_read + ferry_ala_free of each file;
 *   memcpy    the file's bytes into a paged-in buffer: parse's baseline.
 * Everything is in memory and parsed once before any clock starts. Each
 * round runs every operation for at least --round-ms (order rotated per
 * round); a ratio is taken within each round, then the median over rounds,
 * so foreign load on a shared machine hits both sides of a ratio. Figures
 * go to docs/benchmarks.md; nothing here asserts a threshold. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/ala.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct anim_file {
    char *path;
    uint8_t *data;
    size_t size;
    ferry_ala_animation *anim;
    double *frac_times, *whole_times;
    size_t time_count;
} anim_file;

typedef struct file_list {
    anim_file *items;
    size_t count, capacity;
} file_list;

enum { OP_SAMPLE, OP_FRAMES, OP_POSE_COPY, OP_PARSE, OP_MEMCPY, OP_COUNT };

typedef struct workload {
    anim_file *files;
    size_t count;
    ferry_ala_pose *poses;     /* output of sampling, big enough for any animation */
    ferry_ala_pose *pose_src;  /* what the pose-copy baseline copies */
    uint8_t *scratch;          /* memcpy destination for file bytes */
    uint64_t bone_samples;     /* per pass */
    uint64_t pose_bytes;       /* per pass, = bone_samples * sizeof(ferry_ala_pose) */
    uint64_t file_bytes;       /* per pass */
} workload;

static volatile uint64_t sink;

static bool is_animation(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t head[8];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return ferry_alamo_detect(head, got) == FERRY_ALAMO_ANIMATION;
}

static bool add_path(file_list *list, const char *path)
{
    if (!is_animation(path)) return true;
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 64;
        anim_file *items = realloc(list->items, cap * sizeof *items);
        if (!items) return false;
        list->items = items;
        list->capacity = cap;
    }
    anim_file *a = &list->items[list->count];
    memset(a, 0, sizeof *a);
    a->path = malloc(strlen(path) + 1);
    if (!a->path) return false;
    strcpy(a->path, path);
    list->count++;
    return true;
}

static bool visit_file(void *list, const char *path) { return add_path(list, path); }

static int by_path(const void *a, const void *b)
{
    return strcmp(((const anim_file *)a)->path, ((const anim_file *)b)->path);
}

/* Times: three per frame, offset so that none is whole (fractional set),
 * and each frame once (whole set). */
static bool prepare(anim_file *a)
{
    ferry_error err;
    if (ferry_file_load(a->path, 0, &a->data, &a->size, &err) != FERRY_OK ||
        ferry_ala_read(a->data, a->size, NULL, &a->anim, &err) != FERRY_OK) {
        fprintf(stderr, "bench_ala_sample: %s: left out: %s\n", a->path, err.message);
        return false;
    }
    uint32_t frames = a->anim->frame_count ? a->anim->frame_count : 1;
    a->time_count = 3 * (size_t)frames;
    a->frac_times = malloc(a->time_count * sizeof *a->frac_times);
    a->whole_times = malloc(a->time_count * sizeof *a->whole_times);
    if (!a->frac_times || !a->whole_times) return false;
    for (size_t i = 0; i < a->time_count; i++) {
        a->frac_times[i] = (double)i / 3.0 + 0.137;
        a->whole_times[i] = (double)(i / 3);
    }
    return true;
}

static void run_once(int op, workload *w)
{
    for (size_t i = 0; i < w->count; i++) {
        anim_file *a = &w->files[i];
        size_t bones = a->anim->bone_count;
        switch (op) {
        case OP_SAMPLE:
        case OP_FRAMES: {
            const double *times = op == OP_SAMPLE ? a->frac_times : a->whole_times;
            for (size_t k = 0; k < a->time_count; k++) {
                ferry_ala_sample_all(a->anim, times[k], FERRY_ALA_LOOP, w->poses);
                sink += (uint64_t)w->poses[bones ? bones - 1 : 0].visible;
            }
            break;
        }
        case OP_POSE_COPY:
            for (size_t k = 0; k < a->time_count; k++) {
                memcpy(w->poses, w->pose_src + (k & 7), bones * sizeof *w->poses);
                sink += (uint64_t)w->poses[bones ? bones - 1 : 0].visible;
            }
            break;
        case OP_PARSE: {
            ferry_ala_animation *anim;
            if (ferry_ala_read(a->data, a->size, NULL, &anim, NULL) == FERRY_OK) {
                sink += anim->bone_count;
                ferry_ala_free(anim);
            }
            break;
        }
        default:
            memcpy(w->scratch, a->data, a->size);
            sink += w->scratch[a->size - 1];
            break;
        }
    }
}

static double time_op(int op, workload *w, uint64_t iterations)
{
    double start = bench_now();
    for (uint64_t k = 0; k < iterations; k++) run_once(op, w);
    return bench_now() - start;
}

static uint64_t calibrate(int op, workload *w, double round_s)
{
    uint64_t iterations = 1;
    for (;;) {
        double t = time_op(op, w, iterations);
        if (t >= round_s / 8 || iterations >= (UINT64_MAX >> 2)) {
            double scaled = (double)iterations * round_s / (t > 1e-9 ? t : 1e-9);
            return scaled < 1 ? 1 : (uint64_t)scaled + 1;
        }
        iterations *= 2;
    }
}

static void usage(FILE *to)
{
    fprintf(to, "usage: bench_ala_sample [--json] [--rounds N] [--round-ms MS] FILE_OR_DIR...\n");
}

int main(int argc, char **argv)
{
    bool json = false;
    int rounds = 7;
    double round_ms = 50;
    file_list list = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--round-ms") && i + 1 < argc) {
            round_ms = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            usage(stderr);
            return 2;
        } else if (!bench_walk("bench_ala_sample", argv[i], visit_file, &list)) {
            return 1;
        }
    }
    if (!list.count || rounds < 1 || round_ms <= 0) {
        usage(stderr);
        return 2;
    }
    qsort(list.items, list.count, sizeof *list.items, by_path);
    workload w;
    memset(&w, 0, sizeof w);
    w.files = list.items;
    size_t most_bones = 1, largest = 1;
    for (size_t i = 0; i < list.count; i++) {
        anim_file a = list.items[i];
        if (!prepare(&a)) continue;
        list.items[w.count++] = a;
        if (a.anim->bone_count > most_bones) most_bones = a.anim->bone_count;
        if (a.size > largest) largest = a.size;
        w.bone_samples += (uint64_t)a.anim->bone_count * a.time_count;
        w.file_bytes += a.size;
    }
    if (!w.count) {
        fprintf(stderr, "bench_ala_sample: no ALA animation found\n");
        return 1;
    }
    w.pose_bytes = w.bone_samples * sizeof(ferry_ala_pose);
    w.poses = calloc(most_bones, sizeof *w.poses);
    w.pose_src = calloc(most_bones + 8, sizeof *w.pose_src);
    w.scratch = calloc(largest, 1);
    double *secs = malloc(sizeof(double) * (size_t)rounds * OP_COUNT);
    double *tmp = malloc(sizeof(double) * (size_t)rounds);
    if (!w.poses || !w.pose_src || !w.scratch || !secs || !tmp) return 1;
    /* Sampled poses as the copy's source: the same bytes the sampler writes. */
    ferry_ala_sample_all(w.files[0].anim, 0.5, FERRY_ALA_LOOP, w.pose_src);

    double round_s = round_ms / 1000;
    uint64_t iterations[OP_COUNT];
    for (int op = 0; op < OP_COUNT; op++) iterations[op] = calibrate(op, &w, round_s);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < OP_COUNT; k++) {
            int op = (k + r) % OP_COUNT;
            secs[op * rounds + r] = time_op(op, &w, iterations[op]) / (double)iterations[op];
        }
    /* Per-pass seconds -> medians of rates and of per-round ratios. */
    double pass[OP_COUNT], ratio_sample, ratio_frames, ratio_parse;
    for (int op = 0; op < OP_COUNT; op++) {
        for (int r = 0; r < rounds; r++) tmp[r] = secs[op * rounds + r];
        pass[op] = bench_median(tmp, (size_t)rounds);
    }
    for (int r = 0; r < rounds; r++) tmp[r] = secs[OP_SAMPLE * rounds + r] / secs[OP_POSE_COPY * rounds + r];
    ratio_sample = bench_median(tmp, (size_t)rounds);
    for (int r = 0; r < rounds; r++) tmp[r] = secs[OP_FRAMES * rounds + r] / secs[OP_POSE_COPY * rounds + r];
    ratio_frames = bench_median(tmp, (size_t)rounds);
    for (int r = 0; r < rounds; r++) tmp[r] = secs[OP_MEMCPY * rounds + r] / secs[OP_PARSE * rounds + r];
    ratio_parse = bench_median(tmp, (size_t)rounds);

    double samples = (double)w.bone_samples, mb = (double)w.file_bytes / 1e6;
    if (json) {
        printf("{\"animations\": %zu, \"bytes\": %llu, \"bone_samples_per_pass\": %llu, \"pose_bytes\": %zu, "
               "\"rounds\": %d, \"round_ms\": %.0f, "
               "\"sample_per_s\": %.0f, \"frames_per_s\": %.0f, \"pose_copy_per_s\": %.0f, "
               "\"sample_x_pose_copy_time\": %.2f, \"frames_x_pose_copy_time\": %.2f, "
               "\"parse_mbps\": %.1f, \"memcpy_mbps\": %.1f, \"parse_over_memcpy\": %.4f}\n",
               w.count, (unsigned long long)w.file_bytes, (unsigned long long)w.bone_samples, sizeof(ferry_ala_pose),
               rounds, round_ms, samples / pass[OP_SAMPLE], samples / pass[OP_FRAMES], samples / pass[OP_POSE_COPY],
               ratio_sample, ratio_frames, mb / pass[OP_PARSE], mb / pass[OP_MEMCPY], ratio_parse);
    } else {
        printf("%zu ALA animations, %.3f MB; one pass samples %llu bones x times (%.0f KB of %zu-byte poses)\n",
               w.count, mb, (unsigned long long)w.bone_samples, (double)w.pose_bytes / 1e3, sizeof(ferry_ala_pose));
        printf("median of %d rounds, each >= %.0f ms per operation; ratios are medians of per-round ratios\n\n", rounds,
               round_ms);
        printf("%-36s %14s %12s %14s\n", "operation", "bone-samples/s", "ns/sample", "x memcpy time");
        printf("%-36s %14.3g %12.2f %14.2f\n", "sample (fractional frames)", samples / pass[OP_SAMPLE],
               pass[OP_SAMPLE] / samples * 1e9, ratio_sample);
        printf("%-36s %14.3g %12.2f %14.2f\n", "frames (whole frames)", samples / pass[OP_FRAMES],
               pass[OP_FRAMES] / samples * 1e9, ratio_frames);
        printf("%-36s %14.3g %12.2f %14s\n", "memcpy of the same pose bytes", samples / pass[OP_POSE_COPY],
               pass[OP_POSE_COPY] / samples * 1e9, "1.00");
        printf("\n%-36s %14s %12s %14s\n", "operation", "MB/s", "us/pass", "/ memcpy");
        printf("%-36s %14.1f %12.1f %14.4f\n", "parse (ferry_ala_read + free)", mb / pass[OP_PARSE],
               pass[OP_PARSE] * 1e6, ratio_parse);
        printf("%-36s %14.1f %12.1f %14s\n", "memcpy of the file bytes", mb / pass[OP_MEMCPY], pass[OP_MEMCPY] * 1e6,
               "1");
    }
    for (size_t i = 0; i < w.count; i++) {
        ferry_ala_free(w.files[i].anim);
        ferry_file_free(w.files[i].data);
        free(w.files[i].frac_times);
        free(w.files[i].whole_times);
        free(w.files[i].path);
    }
    free(list.items);
    free(w.poses);
    free(w.pose_src);
    free(w.scratch);
    free(secs);
    free(tmp);
    return 0;
}
