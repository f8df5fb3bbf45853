/* Every ALO model in ../shared/corpus reads, and writes back byte-identically. */
#include <ferry/alo.h>

#include "support.h"
#include "test.h"

int main(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/alamo";
    if (!test_dir_exists(dir)) TEST_SKIP("%s is absent: real-file round trips not run", dir);
    char **paths;
    size_t n = test_list_files(dir, ".alo", &paths);
    size_t models = 0, identical = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        if (ferry_alamo_detect(data, size) != FERRY_ALAMO_MODEL) {
            free(data);
            continue;
        }
        models++;
        ferry_alo_model *model = NULL;
        ferry_error err;
        ferry_result rc = ferry_alo_read(data, size, NULL, &model, &err);
        char msg[512];
        ferry_error_format(&err, msg, sizeof msg);
        CHECK_MSG(rc == FERRY_OK, "%s: %s", paths[i], msg);
        if (rc == FERRY_OK) {
            ferry_buffer out = {0};
            rc = ferry_alo_write(model, &out, &err);
            CHECK_MSG(rc == FERRY_OK, "%s: write failed", paths[i]);
            bool same = out.size == size && memcmp(out.data, data, size) == 0;
            if (!same) {
                size_t k = 0;
                while (k < size && k < out.size && out.data[k] == data[k]) k++;
                CHECK_MSG(same, "%s: rewrite differs (sizes %zu vs %zu, first difference at 0x%zx)", paths[i], out.size,
                          size, k);
            } else {
                identical++;
                CHECK(same);
            }
            ferry_buffer_free(&out);
            ferry_alo_free(model);
        }
        free(data);
    }
    printf("%zu models, %zu rewritten byte-identically\n", models, identical);
    CHECK(models > 0);
    test_free_paths(paths, n);
    TEST_END();
}
