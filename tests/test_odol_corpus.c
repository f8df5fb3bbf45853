/* Every ODOL file in ../shared/corpus/odol: the v40, v48 and v50 models
 * read, write back byte for byte, validate without errors or warnings, and
 * their stored offsets and sizes are what ferry_odol_update computes; other
 * versions (v49 and v51, made by patching a v50 file's version field) are
 * refused with a message naming their version. Skips (exit 77) without
 * ../shared. */
#include <ferry/odol.h>

#include "support.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A version ferry does not read is refused by name. */
static size_t check_refused(const uint8_t *data, size_t size, uint32_t version)
{
    ferry_odol_model *m = NULL;
    ferry_error err;
    ferry_result rc = ferry_odol_read(data, size, NULL, &m, &err);
    char expect[32];
    snprintf(expect, sizeof expect, "version %u", version);
    CHECK(rc == FERRY_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, expect) != NULL);
    if (rc == FERRY_OK) ferry_odol_free(m);
    return rc == FERRY_ERR_UNSUPPORTED;
}

/* Packed (v45+) normals are unit vectors to within the 10-bit steps
 * (each component is off by at most 0.5/511), or zero (Memory, HitPoints
 * and a few degenerate vertices store no direction). */
static void check_packed_normals(const ferry_odol_model *m, const char *path)
{
    size_t unit = 0, off = 0;
    for (uint32_t l = 0; l < m->lod_count; l++) {
        const ferry_odol_lod *lod = &m->lods[l];
        for (uint32_t v = 0; v < lod->positions.count; v++) {
            float n[3];
            if (!ferry_odol_vertex_normal(m, lod, v, n)) break;
            double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
            if (len == 0.0) continue;
            if (fabs(len - 1.0) <= 0.005) unit++;
            else if (off++ < 3) printf("%s: lods[%u] vertex %u: normal of length %g\n", path, l, v, len);
        }
    }
    CHECK(off == 0);
    CHECK(unit > 0 || m->lods[0].positions.count <= 1);
}

int main(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/odol";
    if (!test_dir_exists(dir)) {
        TEST_SKIP("%s not found (the shared corpus is not checked out)", dir);
    }
    char **paths;
    size_t n = test_list_files(dir, ".p3d", &paths);
    CHECK(n >= 6);
    size_t v40 = 0, v48 = 0, v50 = 0, identical = 0, refused = 0, lods = 0, faces = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        uint32_t version = ferry_odol_detect_version(data, size);
        ferry_odol_model *m;
        ferry_error err;
        ferry_result rc = ferry_odol_read(data, size, NULL, &m, &err);
        if (version != 40 && version != 48 && version != 50) {
            if (rc == FERRY_OK) ferry_odol_free(m);
            refused += check_refused(data, size, version);
            free(data);
            continue;
        }
        v40 += version == 40;
        v48 += version == 48;
        v50 += version == 50;
        if (version == 50) {
            /* The readers gate nothing at 49 and 51 that these files show;
             * without real files of those versions they stay refused. */
            uint8_t *patched = malloc(size);
            CHECK(patched != NULL);
            if (patched) {
                memcpy(patched, data, size);
                for (uint32_t other = 49; other <= 51; other += 2) {
                    patched[4] = (uint8_t)other;
                    refused += check_refused(patched, size, other);
                }
                free(patched);
            }
        }
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
        size_t errors = ferry_odol_validate(m, NULL, &diags);
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
        if (version >= 45) check_packed_normals(m, paths[i]);
        lods += m->lod_count;
        for (uint32_t l = 0; l < m->lod_count; l++) faces += m->lods[l].face_count;
        ferry_buffer_free(&out);
        ferry_odol_free(m);
        free(data);
    }
    printf("v40: %zu files, v48: %zu, v50: %zu; %zu byte-identical, %zu LODs, %zu faces; other versions refused by name: %zu\n",
           v40, v48, v50, identical, lods, faces, refused);
    CHECK(v40 >= 6 && v48 >= 5 && v50 >= 3);
    CHECK(identical == v40 + v48 + v50);
    CHECK(refused >= 2 * v50);
    test_free_paths(paths, n);
    TEST_END();
}
