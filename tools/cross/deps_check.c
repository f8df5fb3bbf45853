/* Links every library tools/cross/deps.sh built and calls each once on the
 * target (under wine or node), so a prefix that compiles but does not work
 * is caught before libferry is built against it. Prints one line per
 * library; exit status 0 only if every check passed. */
#include <gif_lib.h>
#include <jansson.h>
#include <lzo/lzo1x.h>
#include <nettle/sha1.h>
#include <png.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <stb_dxt.h>
#include <stb_image.h>

static int failures;

static void report(const char *what, int ok)
{
    printf("%-8s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) failures++;
}

int main(void)
{
    /* FIPS 180-2, appendix A.1: SHA-1("abc"). */
    static const uint8_t abc_sha1[SHA1_DIGEST_SIZE] = {
        0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
        0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
    struct sha1_ctx ctx;
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_init(&ctx);
    sha1_update(&ctx, 3, (const uint8_t *)"abc");
    sha1_digest(&ctx, sizeof digest, digest);
    report("nettle", memcmp(digest, abc_sha1, sizeof digest) == 0);

    static unsigned char text[4096], packed[4096 + 4096 / 16 + 64 + 3], unpacked[4096];
    static unsigned char work[LZO1X_1_MEM_COMPRESS];
    for (size_t i = 0; i < sizeof text; i++) text[i] = (unsigned char)("ferry"[i % 5] + i / 512);
    lzo_uint packed_size = 0, unpacked_size = sizeof unpacked;
    int lzo_ok = lzo_init() == LZO_E_OK &&
                 lzo1x_1_compress(text, sizeof text, packed, &packed_size, work) == LZO_E_OK &&
                 packed_size < sizeof text &&
                 lzo1x_decompress_safe(packed, packed_size, unpacked, &unpacked_size, NULL) == LZO_E_OK &&
                 unpacked_size == sizeof text && memcmp(unpacked, text, sizeof text) == 0;
    report("lzo2", lzo_ok);

    uLongf zsize = sizeof packed, zback = sizeof unpacked;
    report("zlib", compress(packed, &zsize, text, sizeof text) == Z_OK &&
                       uncompress(unpacked, &zback, packed, zsize) == Z_OK && zback == sizeof text &&
                       memcmp(unpacked, text, sizeof text) == 0);

    json_error_t jerr;
    json_t *doc = json_loads("{\"asset\": {\"version\": \"2.0\"}}", 0, &jerr);
    const char *version = NULL;
    report("jansson", doc && json_unpack(doc, "{s:{s:s}}", "asset", "version", &version) == 0 &&
                          strcmp(version, "2.0") == 0);
    json_decref(doc);

    /* A 2x2 RGBA image through libpng's simplified API into memory and
     * back through stb_image: two independent codecs must agree. */
    static const unsigned char pixels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 8, 7, 6};
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = 2;
    image.height = 2;
    image.format = PNG_FORMAT_RGBA;
    static unsigned char png_bytes[1024];
    png_alloc_size_t png_size = sizeof png_bytes;
    int png_ok = png_image_write_to_memory(&image, png_bytes, &png_size, 0, pixels, 0, NULL) != 0;
    report("libpng", png_ok);
    int w = 0, h = 0, n = 0;
    unsigned char *decoded = png_ok ? stbi_load_from_memory(png_bytes, (int)png_size, &w, &h, &n, 4) : NULL;
    report("stb", decoded && w == 2 && h == 2 && memcmp(decoded, pixels, sizeof pixels) == 0);
    stbi_image_free(decoded);

    ColorMapObject *map = GifMakeMapObject(4, NULL);
    report("giflib", map && map->ColorCount == 4 && GifErrorString(D_GIF_ERR_NOT_GIF_FILE) != NULL);
    GifFreeMapObject(map);

    /* A white block: both DXT1 end points are white in RGB565, 0xffff. */
    unsigned char block[16 * 4], dxt[8];
    memset(block, 255, sizeof block);
    stb_compress_dxt_block(dxt, block, 0, STB_DXT_NORMAL);
    report("stb_dxt", dxt[0] == 0xff && dxt[1] == 0xff);

    return failures ? 1 : 0;
}
