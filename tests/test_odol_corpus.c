/* Every ODOL file in ../shared/corpus/odol: the v40 models read, write back
 * byte for byte, validate without errors or warnings, and their stored
 * offsets and sizes are what ferry_odol_update computes; later versions are refused
 * with a message naming their version. Skips (exit 77) without ../shared. */
#include <ferry/odol.h>

#include "support.h"
#include "test.h"

#include <stdio.h>

int main(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/odol";
    if (!test_dir_exists(dir)) {
        printf("skip: %s not found (the shared corpus is not checked out)\n", dir);
        return 77;
    }
    char **paths;
    size_t n = test_list_files(dir, ".p3d", &paths);
    CHECK(n >= 6);
    size_t v40 = 0, identical = 0, refused = 0, lods = 0, faces = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        uint32_t version = ferry_odol_detect_version(data, size);
        ferry_odol_model *m;
        ferry_error err;
        ferry_result rc = ferry_odol_read(data, size, NULL, &m, &err);
        if (version != 40) {
            char expect[32];
            snprintf(expect, sizeof expect, "version %u", version);
            CHECK(rc == FERRY_ERR_UNSUPPORTED);
            CHECK(strstr(err.message, expect) != NULL);
            refused += rc == FERRY_ERR_UNSUPPORTED;
            free(data);
            continue;
        }
        v40++;
        if (rc != FERRY_OK) {
            char line[512];
            ferry_error_format(&err, line, sizeof line);
            printf("%s: %s\n", paths[i], line);
            CHECK(rc == FERRY_OK);
            free(data);
            continue;
        }
        ferry_buffer out = {0};
        CHECK(ferry_odol_write(m, &out, &err) == FERRY_OK);
        bool same = out.size == size && memcmp(out.data, data, size) == 0;
        if (!same) {
            size_t at = 0;
            while (at < out.size && at < size && out.data[at] == data[at]) at++;
            printf("%s: rewrite differs at byte %zu (sizes %zu, %zu)\n", paths[i], at, size, out.size);
        }
        CHECK(same);
        identical += same;
        ferry_diagnostics diags = {0};
        size_t errors = ferry_odol_validate(m, &diags);
        for (size_t d = 0; d < diags.count; d++)
            printf("%s: %s: %s: %s [%s]\n", paths[i], diags.items[d].severity ? "warning" : "error", diags.items[d].path,
                   diags.items[d].message, diags.items[d].rule);
        CHECK(errors == 0);
        /* Also no warnings: e.g. every real file stores its LODs by descending resolution. */
        CHECK(diags.warning_count == 0);
        ferry_diagnostics_free(&diags);
        /* What the file says of its own layout is what ferry_odol_update computes. */
        ferry_buffer again = {0};
        CHECK(ferry_odol_update(m, &err) == FERRY_OK);
        CHECK(ferry_odol_write(m, &again, &err) == FERRY_OK);
        CHECK(again.size == size && memcmp(again.data, data, size) == 0);
        ferry_buffer_free(&again);
        lods += m->lod_count;
        for (uint32_t l = 0; l < m->lod_count; l++) faces += m->lods[l].face_count;
        ferry_buffer_free(&out);
        ferry_odol_free(m);
        free(data);
    }
    printf("v40: %zu files, %zu byte-identical, %zu LODs, %zu faces; later versions refused by name: %zu\n", v40,
           identical, lods, faces, refused);
    test_free_paths(paths, n);
    TEST_END();
}
