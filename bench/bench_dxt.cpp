/* DXT compressors compared on the pixels of real textures: the choice of
 * the PAA writer's block compressor (docs/benchmarks.md, "DXT compression").
 *
 *   bench_dxt [--rounds N] [--max-pixels P] FILE.paa...
 *
 * For each texture, its largest mipmap is decoded by ferry (the source
 * pixels), then compressed whole by each candidate: stb_dxt (libstb-dev)
 * in its normal and high-quality modes, libsquish (libsquish-dev) with its
 * range fit, cluster fit (its default) and iterative cluster fit. DXT1 for
 * opaque textures, DXT5 otherwise, as ferry_paa_encode chooses. Quality:
 * PSNR of the blocks decoded again (by libsquish's decoder, the same for
 * every candidate) against the source, over R, G, B (and A for DXT5).
 * Speed: MB/s of RGBA input, the median of N rounds. The totals pool the
 * squared errors and the time of every texture. Built only when libsquish
 * and a C++ compiler are found; nothing is asserted. */
extern "C" {
#include "bench_util.h"
}

#include <ferry/paa.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <squish.h>
#include <stb_dxt.h>
#include <vector>

namespace {

struct candidate {
    const char *name;
    int kind; /* 0 stb, 1 squish */
    int flags;
    /* pools: [0] every texture, [1] those stored as DXT (their pixels are
     * already DXT-decoded: easy to compress again), [2] the others
     * (ARGB/AI88: pixels like a new image's). */
    double total_sq[3] = {0, 0, 0}, total_n[3] = {0, 0, 0}, total_bytes[3] = {0, 0, 0}, total_s[3] = {0, 0, 0};
};

volatile unsigned sink;

void compress(const candidate &c, const ferry_image &img, bool dxt5, std::vector<unsigned char> &out)
{
    unsigned w = img.width, h = img.height;
    size_t bs = dxt5 ? 16 : 8;
    out.resize(((w + 3) / 4) * ((h + 3) / 4) * bs);
    if (c.kind == 1) {
        squish::CompressImage(img.rgba, (int)w, (int)h, out.data(), c.flags | (dxt5 ? squish::kDxt5 : squish::kDxt1));
        return;
    }
    unsigned char block[64];
    unsigned char *o = out.data();
    for (unsigned by = 0; by < (h + 3) / 4; by++)
        for (unsigned bx = 0; bx < (w + 3) / 4; bx++) {
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    unsigned sx = bx * 4 + x < w ? bx * 4 + x : w - 1, sy = by * 4 + y < h ? by * 4 + y : h - 1;
                    std::memcpy(block + (y * 4 + x) * 4, img.rgba + ((size_t)sy * w + sx) * 4, 4);
                }
            stb_compress_dxt_block(o, block, dxt5 ? 1 : 0, c.flags);
            o += bs;
        }
}

} // namespace

int main(int argc, char **argv)
{
    int rounds = 3;
    double max_pixels = 1 << 20;
    int first = 1;
    while (first < argc && argv[first][0] == '-') {
        if (!std::strcmp(argv[first], "--rounds") && first + 1 < argc)
            rounds = std::atoi(argv[first + 1]);
        else if (!std::strcmp(argv[first], "--max-pixels") && first + 1 < argc)
            max_pixels = std::atof(argv[first + 1]);
        else {
            std::fprintf(stderr, "usage: bench_dxt [--rounds N] [--max-pixels P] FILE.paa...\n");
            return 2;
        }
        first += 2;
    }
    if (rounds < 1 || rounds > 100) rounds = 3;
    candidate cands[] = {
        {"stb_dxt", 0, STB_DXT_NORMAL},
        {"stb_dxt HQ", 0, STB_DXT_HIGHQUAL},
        {"squish range", 1, squish::kColourRangeFit},
        {"squish cluster", 1, squish::kColourClusterFit},
        {"squish iterative", 1, squish::kColourIterativeClusterFit},
    };
    const size_t nc = sizeof cands / sizeof cands[0];
    std::printf("%-26s %-5s %11s", "texture", "type", "size");
    for (size_t c = 0; c < nc; c++) std::printf(" | %16s dB  MB/s", cands[c].name);
    std::printf("\n");
    for (int f = first; f < argc; f++) {
        uint8_t *data;
        size_t size;
        ferry_error err;
        ferry_paa *p = nullptr;
        if (ferry_file_load(argv[f], 0, &data, &size, &err) != FERRY_OK) continue;
        ferry_image img;
        bool ok = ferry_paa_read(data, size, nullptr, &p, &err) == FERRY_OK && p->mip_count &&
                  (double)p->mips[0].width * p->mips[0].height <= max_pixels &&
                  ferry_paa_decode_mip(p, 0, &img, &err) == FERRY_OK;
        int pool = p && p->type >= FERRY_PAA_DXT1 && p->type <= FERRY_PAA_DXT5 ? 1 : 2;
        ferry_paa_free(p);
        ferry_file_free(data);
        if (!ok) continue;
        size_t n = (size_t)img.width * img.height;
        bool alpha = false;
        for (size_t i = 0; i < n && !alpha; i++) alpha = img.rgba[i * 4 + 3] != 255;
        const char *name = std::strrchr(argv[f], '/');
        std::printf("%-26.26s %-5s %5u x %-5u", name ? name + 1 : argv[f], alpha ? "DXT5" : "DXT1", img.width, img.height);
        std::vector<unsigned char> blocks, back(n * 4);
        for (size_t c = 0; c < nc; c++) {
            std::vector<double> mbs(rounds);
            double best_s = 1e30;
            for (int r = 0; r < rounds; r++) {
                double t0 = bench_now();
                compress(cands[c], img, alpha, blocks);
                double t = bench_now() - t0;
                if (t < best_s) best_s = t;
                mbs[r] = (double)n * 4 / t / 1e6;
                sink += blocks[0];
            }
            double med = bench_median(mbs.data(), (size_t)rounds);
            squish::DecompressImage(back.data(), (int)img.width, (int)img.height, blocks.data(),
                                    alpha ? squish::kDxt5 : squish::kDxt1);
            double sq = 0;
            int channels = alpha ? 4 : 3;
            for (size_t i = 0; i < n; i++)
                for (int ch = 0; ch < channels; ch++) {
                    double d = (double)back[i * 4 + ch] - img.rgba[i * 4 + ch];
                    sq += d * d;
                }
            double cnt = (double)n * channels;
            double psnr = sq > 0 ? 10 * std::log10(255.0 * 255.0 * cnt / sq) : 99;
            for (int k : {0, pool}) {
                cands[c].total_sq[k] += sq;
                cands[c].total_n[k] += cnt;
                cands[c].total_bytes[k] += (double)n * 4;
                cands[c].total_s[k] += (double)n * 4 / med / 1e6;
            }
            std::printf(" | %19.2f %5.1f", psnr, med);
        }
        std::printf("\n");
        ferry_image_free(&img);
    }
    static const char *const pools[3] = {"all (pooled)", "stored as DXT (pooled)", "stored uncompressed (pooled)"};
    for (int k = 0; k < 3; k++) {
        std::printf("%-45s", pools[k]);
        for (size_t c = 0; c < nc; c++) {
            const candidate &q = cands[c];
            double psnr = q.total_sq[k] > 0 ? 10 * std::log10(255.0 * 255.0 * q.total_n[k] / q.total_sq[k]) : 99;
            std::printf(" | %19.2f %5.1f", psnr, q.total_s[k] > 0 ? q.total_bytes[k] / q.total_s[k] / 1e6 : 0.0);
        }
        std::printf("\n");
    }
    return 0;
}
