/* PAA mipmap decode throughput against memcpy of the decoded bytes.
 *
 *   bench_paa [--rounds N] [--round-ms MS] [--encode] FILE.paa...
 *
 * With --encode: the largest mipmap, decoded, is encoded again by
 * ferry_paa_encode (the PAA writer: mipmaps, DXT compression, LZO, tags),
 * in MB/s of RGBA input against memcpy of those bytes (and without LZO,
 * options.no_lzo, to show what LZO1X-999 costs); also the PSNR (R, G,
 * B and A) of the new texture's largest mipmap, decoded, against those
 * pixels. Textures whose sides are not powers of two are skipped.
 *
 * For each texture: ferry_paa_decode_mip of the largest mipmap (LZO/LZSS
 * decompression, DXT or ARGB unpacking, RGBA allocation), in MB/s of RGBA
 * output; and memcpy of the same number of bytes, the ceiling. Each round runs
 * each operation for at least --round-ms; the figure is the median over
 * rounds. Nothing is asserted: timings are measured. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/paa.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

static double psnr(const ferry_image *a, const ferry_image *b)
{
    double sq = 0;
    size_t n = (size_t)a->width * a->height * 4;
    for (size_t i = 0; i < n; i++) {
        double d = (double)a->rgba[i] - b->rgba[i];
        sq += d * d;
    }
    return sq > 0 ? 10 * log10(255.0 * 255.0 * (double)n / sq) : 99;
}

static int bench_encode(int rounds, double round_ms, int count, char **files)
{
    printf("%-28s %-5s %11s %12s %12s %12s %7s %8s %8s\n", "texture", "type", "size", "encode MB/s", "no-LZO MB/s",
           "memcpy MB/s", "ratio", "PSNR dB", "bytes");
    double worst = 99;
    for (int f = 0; f < count; f++) {
        uint8_t *data;
        size_t size;
        ferry_error err;
        ferry_paa *p = NULL;
        ferry_image src;
        if (ferry_file_load(files[f], 0, &data, &size, &err) != FERRY_OK) continue;
        bool ok = ferry_paa_read(data, size, NULL, &p, &err) == FERRY_OK && p->mip_count &&
                  ferry_paa_decode_mip(p, 0, &src, &err) == FERRY_OK;
        ferry_paa_free(p);
        ferry_file_free(data);
        if (!ok) continue;
        size_t bytes = (size_t)src.width * src.height * 4;
        ferry_paa *q = NULL;
        if (ferry_paa_encode(&src, NULL, &q, &err) != FERRY_OK) { /* not a power of two */
            ferry_image_free(&src);
            continue;
        }
        ferry_buffer out = {0};
        ferry_paa_write(q, &out, &err);
        ferry_image back;
        double quality = ferry_paa_decode_mip(q, 0, &back, &err) == FERRY_OK ? psnr(&src, &back) : 0;
        if (quality < worst) worst = quality;
        ferry_image_free(&back);
        const char *type = ferry_paa_type_name(q->type);
        ferry_paa_free(q);
        uint8_t *b = malloc(bytes);
        double enc[100], raw[100], cpy[100];
        ferry_paa_encode_options no_lzo = {0};
        no_lzo.no_lzo = true;
        for (int r = 0; r < rounds && b; r++) {
            for (int k = 0; k < 2; k++) {
                size_t n = 0;
                double t0 = bench_now(), t;
                do {
                    if (ferry_paa_encode(&src, k ? &no_lzo : NULL, &q, &err) != FERRY_OK) return 1;
                    sink += q->mip_count;
                    ferry_paa_free(q);
                    n++;
                } while ((t = bench_now() - t0) * 1000 < round_ms);
                (k ? raw : enc)[r] = (double)bytes * n / t / 1e6;
            }
            size_t n;
            double t0, t;
            n = 0;
            t0 = bench_now();
            do {
                memcpy(b, src.rgba, bytes);
                sink += b[n % bytes];
                n++;
            } while ((t = bench_now() - t0) * 1000 < round_ms);
            cpy[r] = (double)bytes * n / t / 1e6;
        }
        const char *name = strrchr(files[f], '/');
        double e = bench_median(enc, (size_t)rounds), c = bench_median(cpy, (size_t)rounds);
        double w = bench_median(raw, (size_t)rounds);
        printf("%-28s %-5s %5u x %-5u %12.1f %12.1f %12.0f %7.4f %8.2f %8zu\n", name ? name + 1 : files[f], type,
               src.width, src.height, e, w, c, e / c, quality, out.size);
        ferry_buffer_free(&out);
        free(b);
        ferry_image_free(&src);
    }
    printf("lowest PSNR %.2f dB\n", worst);
    return 0;
}

int main(int argc, char **argv)
{
    int rounds = 5;
    double round_ms = 200;
    int first = 1;
    bool encode = false;
    while (first < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--rounds") && first + 1 < argc)
            rounds = atoi(argv[first + 1]);
        else if (!strcmp(argv[first], "--round-ms") && first + 1 < argc)
            round_ms = atof(argv[first + 1]);
        else if (!strcmp(argv[first], "--encode")) {
            encode = true;
            first--;
        } else {
            fprintf(stderr, "usage: bench_paa [--rounds N] [--round-ms MS] [--encode] FILE.paa...\n");
            return 2;
        }
        first += 2;
    }
    if (rounds < 1 || rounds > 100) rounds = 5;
    if (encode) return bench_encode(rounds, round_ms, argc - first, argv + first);
    printf("%-28s %-9s %11s %12s %12s %7s\n", "texture", "type", "size", "decode MB/s", "memcpy MB/s", "ratio");
    for (int f = first; f < argc; f++) {
        uint8_t *data;
        size_t size;
        ferry_error err;
        ferry_paa *p;
        if (ferry_file_load(argv[f], 0, &data, &size, &err) != FERRY_OK) {
            fprintf(stderr, "%s: not read: %s\n", argv[f], err.message);
            continue;
        }
        if (ferry_paa_read(data, size, NULL, &p, &err) != FERRY_OK || !p->mip_count) {
            fprintf(stderr, "%s: not read: %s\n", argv[f], p ? "no mipmap" : err.message);
            ferry_paa_free(p);
            ferry_file_free(data);
            continue;
        }
        size_t bytes = (size_t)p->mips[0].width * p->mips[0].height * 4;
        uint8_t *a = malloc(bytes), *b = malloc(bytes);
        if (!a || !b) {
            fprintf(stderr, "bench_paa: out of memory\n");
            return 1;
        }
        memset(a, 1, bytes);
        double dec[100], cpy[100];
        for (int r = 0; r < rounds; r++) {
            size_t n = 0;
            double t0 = bench_now(), t;
            do {
                ferry_image img;
                if (ferry_paa_decode_mip(p, 0, &img, &err) != FERRY_OK) {
                    fprintf(stderr, "%s: %s\n", argv[f], err.message);
                    return 1;
                }
                sink += img.rgba[n % bytes];
                ferry_image_free(&img);
                n++;
            } while ((t = bench_now() - t0) * 1000 < round_ms);
            dec[r] = (double)bytes * n / t / 1e6;
            n = 0;
            t0 = bench_now();
            do {
                memcpy(b, a, bytes);
                sink += b[n % bytes];
                n++;
            } while ((t = bench_now() - t0) * 1000 < round_ms);
            cpy[r] = (double)bytes * n / t / 1e6;
        }
        const char *name = strrchr(argv[f], '/');
        double d = bench_median(dec, (size_t)rounds), c = bench_median(cpy, (size_t)rounds);
        printf("%-28s %-9s %5u x %-5u %12.0f %12.0f %7.3f\n", name ? name + 1 : argv[f], ferry_paa_type_name(p->type),
               p->mips[0].width, p->mips[0].height, d, c, d / c);
        free(a);
        free(b);
        ferry_paa_free(p);
        ferry_file_free(data);
    }
    return 0;
}
