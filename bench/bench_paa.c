/* PAA mipmap decode throughput against memcpy of the decoded bytes.
 *
 *   bench_paa [--rounds N] [--round-ms MS] FILE.paa...
 *
 * For each texture: ferry_paa_decode_mip of the largest mipmap (LZO/LZSS
 * decompression, DXT or ARGB unpacking, RGBA allocation), in MB/s of RGBA
 * output; and memcpy of the same number of bytes, the ceiling. Each round runs
 * each operation for at least --round-ms; the figure is the median over
 * rounds. Nothing is asserted: timings are measured. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/paa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

int main(int argc, char **argv)
{
    int rounds = 5;
    double round_ms = 200;
    int first = 1;
    while (first < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--rounds") && first + 1 < argc)
            rounds = atoi(argv[first + 1]);
        else if (!strcmp(argv[first], "--round-ms") && first + 1 < argc)
            round_ms = atof(argv[first + 1]);
        else {
            fprintf(stderr, "usage: bench_paa [--rounds N] [--round-ms MS] FILE.paa...\n");
            return 2;
        }
        first += 2;
    }
    if (rounds < 1 || rounds > 100) rounds = 5;
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
