/* Loads on separate threads are independent: the library has no shared
 * mutable state. Four threads read, validate and rewrite the same models at
 * once; every result must equal the single-threaded one. */
#include <ferry/alo.h>

#include "core/platform.h"
#include "support.h"
#include "test.h"

typedef struct job {
    uint8_t **files;
    size_t *sizes;
    size_t count;
    int failures;
} job;

static void worker(void *arg)
{
    job *j = arg;
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < j->count; i++) {
            ferry_alo_model *m;
            ferry_error err;
            if (ferry_alo_read(j->files[i], j->sizes[i], NULL, &m, &err) != FERRY_OK) {
                j->failures++;
                continue;
            }
            ferry_diagnostics d = {0};
            ferry_alo_validate(m, NULL, &d);
            ferry_diagnostics_free(&d);
            ferry_buffer out = {0};
            if (ferry_alo_write(m, &out, &err) != FERRY_OK || out.size != j->sizes[i] ||
                memcmp(out.data, j->files[i], out.size) != 0)
                j->failures++;
            ferry_buffer_free(&out);
            ferry_alo_free(m);
        }
    }
}

int main(void)
{
    char **paths = NULL;
    size_t n = 0;
    const char *dirs[] = {FERRY_SOURCE_DIR "/samples/alamo", FERRY_SHARED_DIR "/corpus/alamo/ueaw"};
    uint8_t *files[64];
    size_t sizes[64], count = 0;
    for (size_t d = 0; d < 2; d++) {
        n = test_list_files(dirs[d], ".alo", &paths);
        for (size_t i = 0; i < n && count < 64; i++) {
            uint8_t *data = test_read_file(paths[i], &sizes[count]);
            if (data && ferry_alamo_detect(data, sizes[count]) == FERRY_ALAMO_MODEL)
                files[count++] = data;
            else
                free(data);
        }
        test_free_paths(paths, n);
    }
    if (!count) TEST_SKIP("no models found in samples/ or ../shared");
    printf("%zu models, 4 threads x 3 rounds\n", count);
    fy_thread threads[4];
    job jobs[4];
    bool started[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (job){files, sizes, count, 0};
        started[t] = fy_thread_start(&threads[t], worker, &jobs[t]) == 0;
        CHECK(started[t]);
    }
    for (int t = 0; t < 4; t++) {
        if (started[t]) fy_thread_join(&threads[t]);
        CHECK_EQ_U(jobs[t].failures, 0);
    }
    for (size_t i = 0; i < count; i++) free(files[i]);
    TEST_END();
}
