/* Every .paa and .pac under ../shared/corpus/paa and ../shared/corpus/odol
 * (hemtt's converted textures and the real addons' textures): read, written
 * back byte for byte, validated with 0 errors, every mipmap decoded. Skips
 * (77) without ../shared. */
#include <ferry/paa.h>

#include "support.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t files, mips;

static void check_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK_MSG(data != NULL, "%s unreadable", path);
    if (!data) return;
    ferry_paa *paa = NULL;
    ferry_error err = {0};
    ferry_result r = ferry_paa_read(data, size, NULL, &paa, &err);
    char msg[512];
    ferry_error_format(&err, msg, sizeof msg);
    CHECK_MSG(r == FERRY_OK, "%s: %s", path, msg);
    if (r == FERRY_OK) {
        files++;
        ferry_buffer buf = {0};
        CHECK(ferry_paa_write(paa, &buf, &err) == FERRY_OK);
        CHECK_MSG(buf.size == size && memcmp(buf.data, data, size) == 0, "%s: rewrite differs", path);
        ferry_buffer_free(&buf);
        ferry_diagnostics diags = {0};
        size_t errors = ferry_paa_validate(paa, NULL, &diags);
        CHECK_MSG(errors == 0, "%s: %zu errors, first: %s %s", path, errors,
                  diags.count ? diags.items[0].path : "", diags.count ? diags.items[0].message : "");
        ferry_diagnostics_free(&diags);
        for (size_t i = 0; i < paa->mip_count; i++) {
            ferry_image img;
            r = ferry_paa_decode_mip(paa, i, &img, &err);
            ferry_error_format(&err, msg, sizeof msg);
            CHECK_MSG(r == FERRY_OK, "%s mip %zu: %s", path, i, msg);
            if (r == FERRY_OK) {
                CHECK_EQ_U(img.width, paa->mips[i].width);
                mips++;
            }
            ferry_image_free(&img);
        }
        ferry_paa_free(paa);
    }
    free(data);
}

int main(void)
{
    const char *dirs[] = {FERRY_SHARED_DIR "/corpus/paa", FERRY_SHARED_DIR "/corpus/odol/addons"};
    if (!test_dir_exists(dirs[0])) TEST_SKIP("%s not found (the shared corpus is not checked out)", dirs[0]);
    const char *suffixes[] = {".paa", ".pac"};
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < 2; s++) {
            char **paths = NULL;
            size_t n = test_list_files(dirs[d], suffixes[s], &paths);
            for (size_t i = 0; i < n; i++) check_file(paths[i]);
            test_free_paths(paths, n);
        }
    printf("%zu textures, %zu mipmaps\n", files, mips);
    CHECK(files >= 5);
    TEST_END();
}
