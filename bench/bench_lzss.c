/* LZSS codec throughput and ratio, against baselines measured in the same run.
 *
 *   bench_lzss [--rounds N] [--round-ms MS] [FILE...]
 *
 * Data sets: the compressed arrays inside the FILEs that are ODOL v40 models
 * (decoded, concatenated; the binarizer's own ratio on them is printed too),
 * other FILEs concatenated as they are, and always a generated mesh-like set (positions, normals, UVs and
 * face indices, 4 MiB) like the arrays ODOL compresses. For each set:
 *   decode     ferry_lzss_decode of the whole stream, MB/s of decoded bytes;
 *   reference  a plain byte-at-a-time ring decoder (the engine's loop);
 *   memcpy     copying the decoded bytes: the ceiling;
 *   encode     ferry_lzss_encode, MB/s of input, and the ratio;
 *   zlib -6    compress2 level 6 (gzip -6's deflate) on the same bytes.
 * Each round runs every operation for at least --round-ms; the figure is the
 * median over rounds. Nothing is asserted: timings are measured. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/lzss.h>
#include <ferry/odol.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static volatile uint64_t sink;

/* The engine's loop as plainly as it reads: a ring, a byte at a time. */
static int reference_decode(const uint8_t *in, size_t in_size, size_t expected, uint8_t *out)
{
    uint8_t ring[4096];
    memset(ring, ' ', 4078);
    memset(ring + 4078, 0, 18);
    unsigned r = 4078, flags = 0;
    size_t ip = 0, op = 0;
    uint32_t sum = 0;
    while (op < expected) {
        if (((flags >>= 1) & 256) == 0) {
            if (ip >= in_size) return -1;
            flags = in[ip++] | 0xFF00u;
        }
        if (flags & 1) {
            if (ip >= in_size) return -1;
            uint8_t c = in[ip++];
            sum += c;
            out[op++] = ring[r] = c;
            r = (r + 1) & 4095;
        } else {
            if (ip + 2 > in_size) return -1;
            unsigned i = in[ip] | ((in[ip + 1] & 0xF0u) << 4), len = (in[ip + 1] & 0x0Fu) + 3;
            ip += 2;
            unsigned src = r - i;
            for (unsigned k = 0; k < len && op < expected; k++) {
                uint8_t c = ring[(src + k) & 4095];
                sum += c;
                out[op++] = ring[r] = c;
                r = (r + 1) & 4095;
            }
        }
    }
    if (ip + 4 > in_size) return -1;
    uint32_t stored = (uint32_t)in[ip] | ((uint32_t)in[ip + 1] << 8) | ((uint32_t)in[ip + 2] << 16) |
                      ((uint32_t)in[ip + 3] << 24);
    return stored == sum ? 0 : -1;
}

/* Mesh-like arrays: a noisy grid of positions, normals, UVs and quads. */
static uint8_t *make_mesh(size_t *size_out)
{
    const size_t side = 128, nv = side * side;
    size_t size = nv * 12 * 2 + nv * 8 + (side - 1) * (side - 1) * 2 * 3 * 2;
    uint8_t *p = malloc(size), *w = p;
    uint32_t seed = 12345;
    for (size_t v = 0; v < nv; v++) { /* positions */
        seed = seed * 1103515245u + 12345u;
        float xyz[3] = {(float)(v % side) * 0.5f, (float)((seed >> 16) % 64) * 0.01f, (float)(v / side) * 0.5f};
        memcpy(w, xyz, 12);
        w += 12;
    }
    for (size_t v = 0; v < nv; v++) { /* normals: mostly up */
        float n[3] = {0.0f, 1.0f, (v % 7 == 0) ? 0.1f : 0.0f};
        memcpy(w, n, 12);
        w += 12;
    }
    for (size_t v = 0; v < nv; v++) { /* UVs */
        float uv[2] = {(float)(v % side) / (float)side, (float)(v / side) / (float)side};
        memcpy(w, uv, 8);
        w += 8;
    }
    for (size_t y = 0; y + 1 < side; y++) /* two triangles per cell, 16-bit indices */
        for (size_t x = 0; x + 1 < side; x++) {
            uint16_t a = (uint16_t)(y * side + x), b = (uint16_t)(a + 1), c = (uint16_t)(a + side), d = (uint16_t)(c + 1);
            uint16_t t[6] = {a, b, c, b, d, c};
            memcpy(w, t, 12);
            w += 12;
        }
    *size_out = (size_t)(w - p);
    return p;
}

typedef struct collected {
    uint8_t *data;
    size_t size, stored; /* decoded bytes, and what the binarizer stored them as */
    size_t ours;         /* what ferry_lzss_encode makes of them, array by array */
    size_t arrays;
} collected;

static void take(collected *c, const ferry_odol_array *a, size_t elem)
{
    size_t n = (size_t)a->count * elem;
    if (n < FERRY_LZSS_MIN_COMPRESSED_SIZE || !a->data) return;
    c->data = realloc(c->data, c->size + n);
    memcpy(c->data + c->size, a->data, n);
    c->size += n;
    c->stored += a->stored_size;
    c->arrays++;
    ferry_buffer b = {0};
    ferry_error err;
    if (ferry_lzss_encode(a->data, n, &b, &err) == FERRY_OK) c->ours += b.size;
    ferry_buffer_free(&b);
}

static void take_condensed(collected *c, const ferry_odol_condensed *a, size_t elem)
{
    if (!a->default_fill) take(c, &a->array, elem);
}

/* Every compressed array of a v40 model: what the engine decodes at load. */
static bool collect_odol(collected *c, const uint8_t *data, size_t n)
{
    ferry_odol_model *m;
    ferry_error err;
    if (ferry_odol_read(data, n, NULL, &m, &err) != FERRY_OK) return false;
    take(c, &m->info.mass_array, 4);
    for (uint32_t i = 0; i < m->lod_count; i++) {
        const ferry_odol_lod *l = &m->lods[i];
        take_condensed(c, &l->point_flags, 4);
        take(c, &l->point_to_vertex, 2);
        take(c, &l->vertex_to_point, 2);
        for (uint32_t s = 0; s < l->selection_count; s++) {
            take(c, &l->selections[s].faces, 2);
            take(c, &l->selections[s].sections, 4);
            take(c, &l->selections[s].vertices, 2);
            take(c, &l->selections[s].weights, 1);
        }
        for (uint32_t u = 0; u < l->uv_set_count; u++) take_condensed(c, &l->uv_sets[u], 8);
        take(c, &l->positions, 12);
        take_condensed(c, &l->normals, 12);
        take(c, &l->st_coords, 24);
        take(c, &l->vertex_bone_refs, 12);
        take(c, &l->neighbor_bone_refs, 32);
    }
    ferry_odol_free(m);
    return true;
}

static void load_files(int argc, char **argv, int first, collected *arrays, collected *other)
{
    for (int i = first; i < argc; i++) {
        uint8_t *data;
        size_t n;
        ferry_error err;
        if (ferry_file_load(argv[i], 0, &data, &n, &err) != FERRY_OK) {
            fprintf(stderr, "bench_lzss: %s: %s\n", argv[i], err.message);
            exit(1);
        }
        if (!collect_odol(arrays, data, n)) {
            other->data = realloc(other->data, other->size + n);
            memcpy(other->data + other->size, data, n);
            other->size += n;
        }
        ferry_file_free(data);
    }
}

enum { OP_DECODE, OP_REFERENCE, OP_MEMCPY, OP_ENCODE, OP_ZLIB, OP_COUNT };
static const char *op_names[OP_COUNT] = {"decode", "reference", "memcpy", "encode", "zlib -6"};

static void run_set(const char *name, const uint8_t *data, size_t size, int rounds, double round_s)
{
    ferry_buffer enc = {0};
    ferry_error err;
    if (ferry_lzss_encode(data, size, &enc, &err) != FERRY_OK) {
        fprintf(stderr, "bench_lzss: encode: %s\n", err.message);
        exit(1);
    }
    uLongf zcap = compressBound((uLong)size), zsize = zcap;
    uint8_t *zbuf = malloc(zcap);
    compress2(zbuf, &zsize, data, (uLong)size, 6);
    uint8_t *out = malloc(size), *copy_src = malloc(size);
    memcpy(copy_src, data, size);
    size_t consumed;
    if (ferry_lzss_decode(enc.data, enc.size, size, out, &consumed, &err) != FERRY_OK || memcmp(out, data, size)) {
        fprintf(stderr, "bench_lzss: %s: round trip failed\n", name);
        exit(1);
    }
    if (reference_decode(enc.data, enc.size, size, out) != 0 || memcmp(out, data, size)) {
        fprintf(stderr, "bench_lzss: %s: reference decoder disagrees\n", name);
        exit(1);
    }

    double *mbps = calloc((size_t)rounds * OP_COUNT, sizeof *mbps);
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < OP_COUNT; k++) {
            int op = (k + r) % OP_COUNT; /* rotate so drift hits every operation */
            size_t iters = 0;
            double t0 = bench_now(), t;
            do {
                switch (op) {
                case OP_DECODE: ferry_lzss_decode(enc.data, enc.size, size, out, &consumed, &err); break;
                case OP_REFERENCE: reference_decode(enc.data, enc.size, size, out); break;
                case OP_MEMCPY: memcpy(out, copy_src, size); break;
                case OP_ENCODE: {
                    ferry_buffer b = {0};
                    ferry_lzss_encode(data, size, &b, &err);
                    sink += b.size;
                    ferry_buffer_free(&b);
                    break;
                }
                case OP_ZLIB: {
                    uLongf zs = zcap;
                    compress2(zbuf, &zs, data, (uLong)size, 6);
                    sink += zs;
                    break;
                }
                }
                sink += out[iters % size];
                iters++;
                t = bench_now();
            } while (t - t0 < round_s);
            mbps[op * rounds + r] = (double)size * (double)iters / (t - t0) / 1e6;
        }
    }
    double med[OP_COUNT];
    for (int op = 0; op < OP_COUNT; op++) {
        med[op] = bench_median(mbps + op * rounds, (size_t)rounds);
    }
    printf("== %s: %zu bytes; lzss %zu bytes (ratio %.3f), zlib -6 %lu bytes (ratio %.3f)\n", name, size, enc.size,
           (double)enc.size / (double)size, (unsigned long)zsize, (double)zsize / (double)size);
    for (int op = 0; op < OP_COUNT; op++)
        printf("  %-10s %9.1f MB/s%s\n", op_names[op], med[op],
               op <= OP_MEMCPY ? " (of decoded bytes)" : " (of input bytes)");
    printf("  decode/memcpy %.2f, decode/reference %.2f, encode/zlib %.2f\n", med[OP_DECODE] / med[OP_MEMCPY],
           med[OP_DECODE] / med[OP_REFERENCE], med[OP_ENCODE] / med[OP_ZLIB]);
    free(mbps);
    free(out);
    free(copy_src);
    free(zbuf);
    ferry_buffer_free(&enc);
}

int main(int argc, char **argv)
{
    int rounds = 7, round_ms = 200, first = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (!strcmp(argv[first], "--rounds") && first + 1 < argc) rounds = atoi(argv[first + 1]);
        else if (!strcmp(argv[first], "--round-ms") && first + 1 < argc) round_ms = atoi(argv[first + 1]);
        else {
            fprintf(stderr, "usage: bench_lzss [--rounds N] [--round-ms MS] [FILE...]\n");
            return 2;
        }
        first += 2;
    }
    if (rounds < 1) rounds = 1;
    if (round_ms < 1) round_ms = 1;
    size_t size;
    if (first < argc) {
        collected arrays = {0}, other = {0};
        load_files(argc, argv, first, &arrays, &other);
        if (arrays.size) {
            printf("ODOL v40 compressed arrays: %zu arrays, %zu bytes decoded; array by array, the binarizer stored "
                   "them in %zu bytes (ratio %.3f), ferry_lzss_encode in %zu (ratio %.3f)\n",
                   arrays.arrays, arrays.size, arrays.stored, (double)arrays.stored / (double)arrays.size, arrays.ours,
                   (double)arrays.ours / (double)arrays.size);
            run_set("ODOL v40 arrays", arrays.data, arrays.size, rounds, round_ms / 1000.0);
        }
        if (other.size) run_set("other files", other.data, other.size, rounds, round_ms / 1000.0);
        free(arrays.data);
        free(other.data);
    }
    uint8_t *mesh = make_mesh(&size);
    run_set("mesh-like", mesh, size, rounds, round_ms / 1000.0);
    free(mesh);
    return 0;
}
