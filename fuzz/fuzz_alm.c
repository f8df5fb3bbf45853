/* libFuzzer target: the ALM reader, and everything that consumes a mesh it
 * produced (writer, validation, level of detail, skinning).
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input and names a record;
 *  - a mesh that reads writes back byte for byte;
 *  - validation reports with rules, located inside the input or nowhere;
 *  - a level of detail at a few record counts has the triangle count the
 *    per-record counts give, and only indices inside its vertex list;
 *  - skinning evaluates every position at rest and at the first frame. */
#include <ferry/alm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BONES 64

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_alm: %s\n", what);
    abort();
}

static void check_lod(const ferry_alm_mesh *m, int64_t k, const uint32_t *counts)
{
    ferry_alm_lod_options o = {k, 0, -1};
    ferry_alm_lod *lod;
    ferry_error err;
    if (ferry_alm_lod_extract(m, &o, &lod, &err) != FERRY_OK) fail("LOD extraction failed");
    if (lod->collapses_applied != (uint64_t)k) fail("LOD applied another number of records");
    if (lod->triangle_count != counts[k]) fail("LOD triangle count differs from the per-record counts");
    for (uint32_t t = 0; t < lod->triangle_count; t++)
        for (int c = 0; c < 3; c++)
            if (lod->triangles[t].vertices[c] >= lod->vertex_count) fail("LOD triangle index out of range");
    for (uint32_t v = 0; v < lod->vertex_count; v++)
        if (lod->vertex_source[v] >= m->vertex_count) fail("LOD vertex source out of range");
    ferry_alm_lod_free(lod);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_alm_mesh *m;
    ferry_error err;
    if (ferry_alm_read(data, size, NULL, &m, &err) != FERRY_OK) {
        if (err.code == FERRY_OK || err.offset == FERRY_NO_OFFSET || err.offset > size || !err.message[0] || !err.path[0])
            fail("error without a location inside the input");
        return 0;
    }
    ferry_buffer out = {0};
    if (ferry_alm_write(m, &out, &err) != FERRY_OK) fail("a read mesh does not write");
    if (out.size != size || memcmp(out.data, data, size) != 0) fail("writing does not reproduce the input");
    ferry_buffer_free(&out);

    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_alm_validate(m, NULL, &d);
    for (size_t i = 0; i < d.count; i++) {
        const ferry_diagnostic *x = &d.items[i];
        if (!x->message[0] || !x->rule[0]) fail("diagnostic without rule or message");
        if (x->offset != FERRY_NO_OFFSET && x->offset > size) fail("diagnostic located outside the input");
    }
    ferry_diagnostics_free(&d);

    uint32_t *counts = malloc(((size_t)m->collapse_count + 1) * sizeof *counts);
    if (!counts) fail("out of memory");
    if (ferry_alm_lod_triangle_counts(m, counts, &err) != FERRY_OK) fail("triangle counts failed");
    for (uint32_t k = 1; k <= m->collapse_count; k++)
        if (counts[k] > counts[k - 1]) fail("a record added triangles");
    const int64_t ks[] = {0, 1, m->collapse_count / 2, m->collapse_count};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        if (ks[i] <= m->collapse_count) check_lod(m, ks[i], counts);
    free(counts);

    if (m->bone_count <= MAX_BONES) {
        double mats[MAX_BONES * 16], h[4];
        for (int64_t frame = -1; frame < 1; frame++) {
            if (frame >= 0 && !m->frame_count) break;
            if (ferry_alm_bone_matrices(m, frame, mats, &err) != FERRY_OK) break;
            for (uint32_t p = 0; p < m->position_count; p++) ferry_alm_vector_eval(&m->positions[p], mats, m->bone_count, h);
        }
    }
    ferry_alm_free(m);
    return 0;
}
