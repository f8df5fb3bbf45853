/* Damaged ODOL v40 files: the bundled samples (built here by
 * tools/odol_samples.c) and, when ../shared is present, the real v40
 * models of the corpus.
 *  - Truncation: at every byte for files up to 16 KiB, else at 400 points
 *    spread over the file and around every LOD's start and end. Always
 *    refused, with an error located inside what was given (offset, path,
 *    message). Under ASan the bytes past the cut are poisoned.
 *  - Corruption: thousands of 1-3 byte changes per file (seeded). Either a
 *    located error, or a model that writes, whose bytes read again and
 *    write the same bytes (a changed count may well give another valid
 *    parse, and flag bytes other than 0/1 come back as 1).
 *  - Counts far beyond the file (faces, LODs, a 4 GiB compressed array...)
 *    are refused from the count, before anything that size is allocated:
 *    the error is about the count, not the memory limit. */
#include <ferry/odol.h>

#include "../tools/odol_samples.h"
#include "support.h"
#include "test.h"

#ifdef TEST_ASAN
#define CORRUPTIONS_SMALL 1500
#define CORRUPTIONS_LARGE 150
#else
#define CORRUPTIONS_SMALL 4000
#define CORRUPTIONS_LARGE 400
#endif

#define EVERY_BYTE_UP_TO (16 * 1024)
#define SPREAD_POINTS 400
/* Files above this get CORRUPTIONS_LARGE (each read decodes megabytes). */
#define LARGE_FILE (256 * 1024)

static size_t stat_inputs, stat_truncations, stat_corruptions, stat_refused, stat_read_same, stat_read_normalized;

static bool located(const ferry_error *err, size_t limit)
{
    return err->code != FERRY_OK && err->offset != FERRY_NO_OFFSET && err->offset <= limit && err->message[0] &&
           err->path[0];
}

static uint64_t rng = 0x0D01D0D01ull;
static uint64_t next_random(void) { return test_xorshift(&rng); }

static void truncate_at(const char *name, uint8_t *buf, size_t size, size_t cut)
{
    POISON(buf + cut, size - cut);
    ferry_odol_model *m = NULL;
    ferry_error err;
    ferry_result rc = ferry_odol_read(buf, cut, NULL, &m, &err);
    UNPOISON(buf + cut, size - cut);
    stat_truncations++;
    CHECK_MSG(rc != FERRY_OK, "%s cut at %zu of %zu: accepted", name, cut, size);
    if (rc == FERRY_OK) {
        ferry_odol_free(m);
        return;
    }
    CHECK_MSG(located(&err, cut), "%s cut at %zu: unlocated error: %s at %llu (%s)", name, cut, err.message,
              (unsigned long long)err.offset, err.path);
}

static void truncations(const char *name, uint8_t *buf, size_t size, const ferry_odol_model *m)
{
    if (size <= EVERY_BYTE_UP_TO) {
        for (size_t cut = 0; cut < size; cut++) truncate_at(name, buf, size, cut);
        return;
    }
    for (size_t k = 0; k < SPREAD_POINTS; k++) truncate_at(name, buf, size, k * (size - 1) / (SPREAD_POINTS - 1));
    for (uint32_t i = 0; i < m->lod_count; i++) {
        const uint32_t edges[2] = {m->lod_starts[i], m->lod_ends[i]};
        for (int e = 0; e < 2; e++)
            for (size_t cut = edges[e] > 2 ? edges[e] - 2 : 0; cut <= (size_t)edges[e] + 2; cut++)
                if (cut < size) truncate_at(name, buf, size, cut);
    }
}

/* Where to damage: anywhere, or where the structure is dense (the header
 * and the first bytes of each LOD, full of counts). */
static size_t damage_point(size_t size, const ferry_odol_model *m)
{
    uint64_t r = next_random();
    if (r % 2 == 0 || m->lod_count == 0) return (size_t)(next_random() % size);
    if (r % 4 == 1) return (size_t)(next_random() % (size < 1024 ? size : 1024));
    size_t start = m->lod_starts[next_random() % m->lod_count];
    size_t at = start + (size_t)(next_random() % 256);
    return at < size ? at : size - 1;
}

static void corruptions(const char *name, uint8_t *buf, size_t size, const ferry_odol_model *m)
{
    int trials = size > LARGE_FILE ? CORRUPTIONS_LARGE : CORRUPTIONS_SMALL;
    for (int trial = 0; trial < trials; trial++) {
        size_t n = 1 + (size_t)(next_random() % 3), at[3];
        uint8_t was[3];
        for (size_t i = 0; i < n; i++) {
            at[i] = damage_point(size, m);
            was[i] = buf[at[i]];
        }
        for (size_t i = 0; i < n; i++) buf[at[i]] = (uint8_t)next_random();
        stat_corruptions++;
        ferry_odol_model *a = NULL;
        ferry_error err;
        if (ferry_odol_read(buf, size, NULL, &a, &err) != FERRY_OK) {
            CHECK_MSG(located(&err, size), "%s corruption %d: unlocated error: %s at %llu (%s)", name, trial,
                      err.message, (unsigned long long)err.offset, err.path);
            stat_refused++;
        } else {
            ferry_buffer out = {0}, again = {0};
            ferry_odol_model *b = NULL;
            CHECK_MSG(ferry_odol_write(a, &out, &err) == FERRY_OK, "%s corruption %d: read but does not write", name,
                      trial);
            bool reread = ferry_odol_read(out.data, out.size, NULL, &b, &err) == FERRY_OK;
            CHECK_MSG(reread, "%s corruption %d: written bytes do not read: %s", name, trial, err.message);
            if (reread) {
                CHECK(ferry_odol_write(b, &again, &err) == FERRY_OK);
                CHECK_MSG(again.size == out.size && memcmp(again.data, out.data, out.size) == 0,
                          "%s corruption %d: writing is not idempotent", name, trial);
                ferry_odol_free(b);
            }
            /* Lossless: whatever reads writes back as it was (flag bytes
             * other than 0 and 1 included). */
            bool same = out.size == size && memcmp(out.data, buf, size) == 0;
            CHECK_MSG(same, "%s corruption %d: read, but written back differently", name, trial);
            if (same) stat_read_same++;
            else stat_read_normalized++;
            ferry_buffer_free(&out);
            ferry_buffer_free(&again);
            ferry_odol_free(a);
        }
        for (size_t i = n; i-- > 0;) buf[at[i]] = was[i];
    }
}

static void hostile(const char *name, const uint8_t *data, size_t size)
{
    ferry_odol_model *m = NULL;
    ferry_error err;
    ferry_result rc = ferry_odol_read(data, size, NULL, &m, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: the undamaged file does not read: %s", name, err.message);
    if (rc != FERRY_OK) return;
    stat_inputs++;
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    truncations(name, buf, size, m);
    corruptions(name, buf, size, m);
    CHECK_MSG(memcmp(buf, data, size) == 0, "%s: the test did not restore its copy", name);
    free(buf);
    ferry_odol_free(m);
}

/* ---- counts far beyond the file ---- */

static void huge_count(const char *name, const uint8_t *data, size_t size, uint64_t at, uint32_t value,
                       const char *what)
{
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    for (int k = 0; k < 4; k++) buf[at + k] = (uint8_t)(value >> (8 * k));
    /* Well above what the file needs (its decoded arrays included), far
     * below what the count claims. */
    const ferry_read_options small = {4u << 20};
    for (int pass = 0; pass < 2; pass++) {
        ferry_odol_model *m = NULL;
        ferry_error err;
        ferry_result rc = ferry_odol_read(buf, size, pass ? NULL : &small, &m, &err);
        CHECK_MSG(rc == FERRY_ERR_MALFORMED || rc == FERRY_ERR_TRUNCATED,
                  "%s, %s = 0x%x: expected a refusal of the count, got %s: %s", name, what, value,
                  ferry_result_name(rc), err.message);
        if (rc == FERRY_OK) {
            ferry_odol_free(m);
            continue;
        }
        /* At the count, or where the data it sizes begins (after a
         * condensed array's flag byte). */
        CHECK_MSG(err.offset >= at && err.offset <= at + 5 && err.path[0],
                  "%s, %s = 0x%x: error at %llu, the count is at %llu: %s", name, what, value,
                  (unsigned long long)err.offset, (unsigned long long)at, err.message);
        CHECK_MSG(strstr(err.message, "memory") == NULL, "%s, %s: refused for memory: %s", name, what, err.message);
        if (pass == 0) printf("  %s = 0x%08x: %s [%s]\n", what, value, err.message, err.path);
    }
    free(buf);
}

static void huge_counts(const uint8_t *data, size_t size)
{
    ferry_odol_model *m = NULL;
    ferry_error err;
    if (ferry_odol_read(data, size, NULL, &m, &err) != FERRY_OK) {
        CHECK_MSG(false, "grid sample does not read: %s", err.message);
        return;
    }
    const ferry_odol_lod *l = &m->lods[0];
    printf("huge counts in odol/grid.p3d (%zu bytes):\n", size);
    huge_count("grid", data, size, 8, 0xFFFFFFFFu, "LOD count");
    huge_count("grid", data, size, l->faces_offset - 10, 0xFFFFFFFFu, "face count");
    huge_count("grid", data, size, l->offset, 0x40000000u, "proxy count");
    /* 0x15555556 positions of 12 bytes: just over 4 GiB, compressed. */
    huge_count("grid", data, size, l->positions.offset, 0x15555556u, "position count");
    huge_count("grid", data, size, l->positions.offset, 0xFFFFFFFFu, "position count");
    huge_count("grid", data, size, m->info.mass_array.offset, 0x40000000u, "mass count");
    huge_count("grid", data, size, l->selections[0].weights.offset, 0xFFFFFFFFu, "weight count");
    huge_count("grid", data, size, l->uv_sets[1].array.offset, 0x20000000u, "UV count");
    huge_count("grid", data, size, l->point_to_vertex.offset, 0x80000000u, "point-to-vertex count");

    /* The limit itself still works, and says so. */
    const ferry_read_options tiny = {64u << 10};
    ferry_odol_model *t = NULL;
    ferry_result rc = ferry_odol_read(data, size, &tiny, &t, &err);
    CHECK_MSG(rc == FERRY_ERR_LIMIT && err.message[0], "64 KiB limit: %s: %s", ferry_result_name(rc), err.message);
    if (rc == FERRY_OK) ferry_odol_free(t);
    ferry_odol_free(m);
}

static void sample_bytes(odol_sample_builder build, ferry_buffer *out, const char **file)
{
    odol_sample s;
    build(&s);
    ferry_error err;
    CHECK(ferry_odol_update(&s.model, &err) == FERRY_OK);
    CHECK(ferry_odol_write(&s.model, out, &err) == FERRY_OK);
    *file = s.file;
    odol_sample_free(&s);
}

int main(void)
{
    for (size_t i = 0; i < odol_sample_builder_count; i++) {
        ferry_buffer b = {0};
        const char *file;
        sample_bytes(odol_sample_builders[i], &b, &file);
        hostile(file, b.data, b.size);
        if (strcmp(file, "odol/grid.p3d") == 0) huge_counts(b.data, b.size);
        ferry_buffer_free(&b);
    }
    size_t real = 0;
    const char *dir = FERRY_SHARED_DIR "/corpus/odol/v40";
    if (test_dir_exists(dir)) {
        char **paths;
        size_t n = test_list_files(dir, ".p3d", &paths);
        for (size_t i = 0; i < n; i++) {
            size_t size;
            uint8_t *data = test_read_file(paths[i], &size);
            CHECK(data != NULL);
            if (!data) continue;
            const char *base = strrchr(paths[i], '/');
            hostile(base ? base + 1 : paths[i], data, size);
            real++;
            free(data);
        }
        test_free_paths(paths, n);
    } else {
        TEST_LEFT_OUT("the real files (%s is absent)", dir);
    }
    printf("odol bad input: %zu files (%zu real), %zu truncations, %zu corruptions: %zu refused with a location, "
           "%zu read and wrote back identically, %zu read and wrote back normalized\n",
           stat_inputs, real, stat_truncations, stat_corruptions, stat_refused, stat_read_same, stat_read_normalized);
    TEST_END();
}
