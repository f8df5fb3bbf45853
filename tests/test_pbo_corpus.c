/* Real PBO archives (../shared/corpus/pbo: made by HEMTT, by Mikero's
 * DePbo, and a mission exported by the game's editor): each is detected,
 * reads, validates without a problem, rewrites byte for byte, every entry
 * is extracted through the file source, and the archives with a product
 * entry are packed again from their entries, properties and timestamps
 * into the same bytes (the packers' conventions: sorted ignoring case,
 * original size = data size). Skipped (77) without ../shared. */
#include "support.h"
#include "test.h"

#include <ferry/detect.h>
#include <ferry/pbo.h>

static size_t problems(const ferry_pbo *m)
{
    ferry_diagnostics d = {0};
    ferry_pbo_validate(m, NULL, &d);
    for (size_t i = 0; i < d.count; i++) fprintf(stderr, "  %s: %s\n", d.items[i].rule, d.items[i].message);
    size_t n = d.count;
    ferry_diagnostics_free(&d);
    return n;
}

static void check_archive(const char *path)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    CHECK(data != NULL);
    if (!data) return;
    CHECK_MSG(ferry_detect(data, size) == FERRY_FORMAT_PBO, "%s", path);
    ferry_pbo *m = NULL;
    ferry_error err;
    CHECK_MSG(ferry_pbo_read(data, size, NULL, &m, &err) == FERRY_OK, "%s: %s", path, err.message);
    if (!m) {
        free(data);
        return;
    }
    CHECK_MSG(problems(m) == 0, "%s", path);
    CHECK_MSG(m->has_checksum && memcmp(m->checksum, m->computed, 20) == 0, "%s", path);
    ferry_buffer out = {0};
    CHECK(ferry_pbo_write(m, &out, &err) == FERRY_OK);
    CHECK_MSG(out.size == size && memcmp(out.data, data, size) == 0, "%s: rewrite", path);
    ferry_buffer_free(&out);
    /* Every entry through the source, by its path with '/'. */
    ferry_file_source src;
    CHECK(ferry_file_source_pbo(m, &src, &err) == FERRY_OK);
    ferry_pbo_pack_file *files = calloc(m->entry_count + 1, sizeof *files);
    uint8_t **bytes = calloc(m->entry_count + 1, sizeof *bytes);
    for (size_t i = 0; files && bytes && i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        char name[512];
        snprintf(name, sizeof name, "%s", e->name);
        for (char *c = name; *c; c++)
            if (*c == '\\') *c = '/';
        size_t n = 0;
        CHECK_MSG(ferry_file_source_load(&src, name, 0, &bytes[i], &n, &err) == FERRY_OK, "%s: %s: %s", path, name,
                  err.message);
        CHECK_MSG(n == e->size && bytes[i] && memcmp(bytes[i], e->data, n) == 0, "%s: %s", path, name);
        files[i] = (ferry_pbo_pack_file){e->name, bytes[i], n, e->timestamp};
    }
    /* Packed again: the same bytes. */
    if (m->has_product_entry && files && bytes) {
        ferry_pbo_pack_options po = {m->properties, m->property_count, NULL};
        CHECK_MSG(ferry_pbo_pack(files, m->entry_count, &po, &out, &err) == FERRY_OK, "%s: %s", path, err.message);
        CHECK_MSG(out.size == size && memcmp(out.data, data, size) == 0, "%s: packed again differs", path);
        ferry_buffer_free(&out);
    }
    for (size_t i = 0; bytes && i < m->entry_count; i++) ferry_file_source_release(&src, bytes[i], 0);
    free(bytes);
    free(files);
    ferry_file_source_close(&src);
    ferry_pbo_free(m);
    free(data);
}

int main(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/pbo/hemtt";
    if (!test_dir_exists(dir)) TEST_SKIP("no %s", dir);
    char **paths;
    size_t count = test_list_files(dir, ".pbo", &paths);
    CHECK_EQ_U(count, 4);
    for (size_t i = 0; i < count; i++) check_archive(paths[i]);
    test_free_paths(paths, count);
    TEST_END();
}
