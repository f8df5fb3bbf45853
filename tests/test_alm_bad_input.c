/* ALM files gone wrong: truncated at every byte, corrupted byte by byte,
 * and specific breaks with the located error or diagnostic each must give
 * (offsets from the spec-driven builder, not from the reader). */
#include <ferry/alm.h>
#include <ferry/convert.h>

#include "alm_fixture.h"
#include "hostile_fixture.h"
#include "test.h"


static void set_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static bool located(const ferry_error *err, size_t size)
{
    return err->code != FERRY_OK && err->offset <= size && err->path[0] && err->message[0];
}

static void truncations(uint32_t v)
{
    bytes b = {0};
    alm_fixture(&b, v, NULL);
    size_t bad = 0;
    for (size_t n = 0; n < b.size; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, b.data, n);
        ferry_alm_mesh *m = NULL;
        ferry_error err;
        ferry_result r = ferry_alm_read(copy, n, NULL, &m, &err);
        if (r == FERRY_OK || !located(&err, n) || (n >= 8 && r != FERRY_ERR_TRUNCATED)) {
            if (!bad) fprintf(stderr, "version %u cut at %zu: result %d, offset %llu, path '%s': %s\n", (unsigned)v, n,
                              (int)r, (unsigned long long)err.offset, err.path, err.message);
            bad++;
        }
        ferry_alm_free(m);
        free(copy);
    }
    CHECK_MSG(bad == 0, "version %u: %zu truncations were not located errors", (unsigned)v, bad);
    free(b.data);
}

/* Whatever a corrupted file holds: a located error, or a mesh that
 * validates without crashing, rewrites byte for byte and gives LODs whose
 * triangle counts agree with the per-record counts. */
static size_t exercise(const uint8_t *data, size_t size)
{
    ferry_alm_mesh *m = NULL;
    ferry_error err;
    if (ferry_alm_read(data, size, NULL, &m, &err) != FERRY_OK) return located(&err, size) ? 0 : 1;
    size_t problems = 0;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_alm_validate(m, NULL, &d);
    for (size_t i = 0; i < d.count; i++)
        if (!d.items[i].rule[0] || (d.items[i].offset != FERRY_NO_OFFSET && d.items[i].offset > size)) problems++;
    ferry_diagnostics_free(&d);
    ferry_buffer out = {0};
    if (ferry_alm_write(m, &out, &err) != FERRY_OK || out.size != size || memcmp(out.data, data, size) != 0) problems++;
    ferry_buffer_free(&out);
    uint32_t *counts = malloc(((size_t)m->collapse_count + 1) * sizeof *counts);
    if (ferry_alm_lod_triangle_counts(m, counts, &err) != FERRY_OK) problems++;
    for (uint32_t k = 0; k <= m->collapse_count && k < 8; k++) {
        ferry_alm_lod_options o = {k, 0, -1};
        ferry_alm_lod *lod;
        if (ferry_alm_lod_extract(m, &o, &lod, &err) != FERRY_OK) {
            problems++;
            continue;
        }
        if (lod->triangle_count != counts[k]) problems++;
        for (uint32_t t = 0; t < lod->triangle_count; t++)
            for (int c = 0; c < 3; c++)
                if (lod->triangles[t].vertices[c] >= lod->vertex_count) problems++;
        ferry_alm_lod_free(lod);
    }
    free(counts);
    if (m->bone_count <= 64) {
        double mats[64 * 16];
        if (ferry_alm_bone_matrices(m, -1, mats, &err) == FERRY_OK)
            for (uint32_t p = 0; p < m->position_count; p++) {
                double h[4];
                ferry_alm_vector_eval(&m->positions[p], mats, m->bone_count, h);
            }
    }
    ferry_alm_free(m);
    return problems;
}

static void corruptions(uint32_t v)
{
    bytes b = {0};
    alm_fixture(&b, v, NULL);
    size_t problems = 0;
    uint8_t *copy = malloc(b.size);
    static const uint8_t values[] = {0x00, 0xff, 0x01, 0x80};
    for (size_t i = 0; i < b.size; i++)
        for (size_t k = 0; k < sizeof values; k++) {
            memcpy(copy, b.data, b.size);
            copy[i] = k == 3 ? copy[i] ^ 0x80 : values[k];
            size_t p = exercise(copy, b.size);
            if (p && !problems) fprintf(stderr, "version %u, byte %zu set to 0x%02x: %zu problems\n", (unsigned)v, i, copy[i], p);
            problems += p;
        }
    CHECK_MSG(problems == 0, "version %u: %zu problems in corrupted files", (unsigned)v, problems);
    free(copy);
    free(b.data);
}

typedef struct edit_result {
    ferry_result read;
    ferry_error err;
    ferry_diagnostics diags;
} edit_result;

/* Reads a fixture after `edit` and validates it. */
static void run(bytes *b, edit_result *r)
{
    memset(r, 0, sizeof *r);
    ferry_alm_mesh *m = NULL;
    r->read = ferry_alm_read(b->data, b->size, NULL, &m, &r->err);
    if (r->read == FERRY_OK) ferry_alm_validate(m, NULL, &r->diags);
    ferry_alm_free(m);
}

static const ferry_diagnostic *find_rule(const edit_result *r, const char *rule)
{
    for (size_t i = 0; i < r->diags.count; i++)
        if (strcmp(r->diags.items[i].rule, rule) == 0) return &r->diags.items[i];
    return NULL;
}

static void expect_diag(bytes *b, const char *rule, uint64_t offset, const char *path, ferry_severity sev)
{
    edit_result r;
    run(b, &r);
    CHECK_MSG(r.read == FERRY_OK, "%s: read failed: %s", rule, r.err.message);
    const ferry_diagnostic *d = find_rule(&r, rule);
    CHECK_MSG(d != NULL, "no %s diagnostic (%zu others, first %s)", rule, r.diags.count,
              r.diags.count ? r.diags.items[0].rule : "-");
    if (d) {
        CHECK_MSG(d->offset == offset, "%s: offset %llu, expected %llu", rule, (unsigned long long)d->offset,
                  (unsigned long long)offset);
        CHECK_MSG(strcmp(d->path, path) == 0, "%s: path '%s', expected '%s'", rule, d->path, path);
        CHECK(d->severity == sev);
    }
    ferry_diagnostics_free(&r.diags);
}

static void expect_read_error(bytes *b, ferry_result code, uint64_t offset, const char *path, const char *what)
{
    edit_result r;
    run(b, &r);
    CHECK_MSG(r.read == code, "%s: result %d, expected %d", what, (int)r.read, (int)code);
    CHECK_MSG(r.err.offset == offset, "%s: offset %llu, expected %llu", what, (unsigned long long)r.err.offset,
              (unsigned long long)offset);
    CHECK_MSG(strcmp(r.err.path, path) == 0, "%s: path '%s', expected '%s'", what, r.err.path, path);
    ferry_diagnostics_free(&r.diags);
}

#define FRESH(v)                                                                                              \
    do {                                                                                                      \
        free(b.data);                                                                                         \
        memset(&b, 0, sizeof b);                                                                              \
        alm_fixture(&b, v, &at);                                                                              \
    } while (0)

static void specific(void)
{
    bytes b = {0};
    alm_fixture_at at;
    const size_t cs = 20; /* a version 3+ component: bone + 4 floats */
    char path[96];

    /* Structure: located read errors. */
    FRESH(10);
    set_be(b.data + at.positions[1], 1000);
    snprintf(path, sizeof path, "positions[1]/components[%zu]", (b.size - at.positions[1] - 4) / cs);
    expect_read_error(&b, FERRY_ERR_TRUNCATED, at.positions[1] + 4, path, "num_weights");

    FRESH(10);
    set_be(b.data + 16, 0x40000000); /* num_positions */
    expect_read_error(&b, FERRY_ERR_TRUNCATED, at.positions[0], "positions", "num_positions");

    FRESH(10);
    set_be(b.data + at.textures[0], 0xffffffffu);
    set_be(b.data + at.textures[0] + 4, 0xffffffffu);
    expect_read_error(&b, FERRY_ERR_TRUNCATED, at.textures[0] + 16, "textures[0]", "texture size");

    FRESH(10);
    set_be(b.data + 4 * 11, 0x10000); /* num_frames (after 10 header words + num_tangents) */
    expect_read_error(&b, FERRY_ERR_TRUNCATED, at.frames, "frames[2]", "num_frames");

    FRESH(7);
    set_be(b.data + at.materials[0] + 4, 0x20000000); /* old-form num_weights */
    expect_read_error(&b, FERRY_ERR_TRUNCATED, at.materials[0] + 8, "materials[0]", "material weights");

    FRESH(10);
    set_be(b.data + at.collapses[0] + 4, 0x20000000); /* influence pair count */
    expect_read_error(&b, FERRY_ERR_TRUNCATED, at.collapses[0] + 8, "collapses[0]", "pair count");

    FRESH(10);
    b.data[0] = 'X';
    expect_read_error(&b, FERRY_ERR_MALFORMED, 0, "header", "magic");

    /* Trailing bytes: kept, rewritten, warned about. */
    FRESH(10);
    put_u8(&b, 1);
    put_u8(&b, 2);
    expect_diag(&b, "trailing-bytes", at.end, "trailing bytes", FERRY_SEVERITY_WARNING);
    CHECK(exercise(b.data, b.size) == 0);

    /* References: validation diagnostics at the field's record. */
    FRESH(10);
    set_be(b.data + at.vertices[3], 9);
    expect_diag(&b, "vertex-position", at.vertices[3], "vertices[3]", FERRY_SEVERITY_ERROR);

    FRESH(3);
    set_be(b.data + at.triangles + 16 + 8, 99);
    expect_diag(&b, "triangle-vertex", at.triangles + 16 + 8, "triangles[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.triangles + 12, 1);
    expect_diag(&b, "triangle-material", at.triangles + 12, "triangles[0]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.bones[0], 1);
    expect_diag(&b, "bone-parent-order", at.bones[0], "bones[0]", FERRY_SEVERITY_ERROR);

    FRESH(6);
    set_be(b.data + at.bones[1], 5);
    expect_diag(&b, "bone-parent", at.bones[1], "bones[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.positions[2] + 4 + cs, 7);
    expect_diag(&b, "vector-bone", at.positions[2] + 4 + cs, "positions[2]/components[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    /* vertex 0: position, tangents[0] (1 component), tangents[1] */
    set_be(b.data + at.vertices[0] + 8, 2);
    expect_diag(&b, "vector-bone", at.vertices[0] + 8, "vertices[0]/tangents[0]/components[0]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.textures[0], 1);
    set_be(b.data + at.textures[0] + 8, 6); /* 1 x 2 x 6 = the same 12 bytes */
    expect_diag(&b, "texture-channels", at.textures[0] + 8, "textures[0]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.textures[0], 3);
    set_be(b.data + at.textures[0] + 4, 4);
    set_be(b.data + at.textures[0] + 8, 1); /* 3 x 4 x 1 = 12 */
    expect_diag(&b, "texture-size", at.textures[0], "textures[0]", FERRY_SEVERITY_WARNING);

    FRESH(10);
    set_be(b.data + at.materials[0], 3);
    expect_diag(&b, "material-texture", at.materials[0], "materials[0]", FERRY_SEVERITY_ERROR);

    FRESH(8);
    set_be(b.data + at.materials[0] + 4, 1);
    expect_diag(&b, "material-tangent-map", at.materials[0] + 4, "materials[0]", FERRY_SEVERITY_ERROR);

    FRESH(5);
    set_be(b.data + at.materials[0] + 8, 2); /* old form: the weight's bone */
    expect_diag(&b, "material-bone", at.materials[0] + 8, "materials[0]", FERRY_SEVERITY_ERROR);

    /* Collapses. Version 10: [0] influence 2 -> 5, [1] edge 0, 2 -> 4. */
    FRESH(10);
    set_be(b.data + at.collapses[1] + 4, 9);
    expect_diag(&b, "collapse-index", at.collapses[1] + 4, "collapses[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.collapses[1] + 12, 1); /* vr on position 1, vl on 4 */
    expect_diag(&b, "collapse-vertex-position", at.collapses[1], "collapses[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.collapses[1] + 4, 0);
    expect_diag(&b, "collapse-endpoints", at.collapses[1], "collapses[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.collapses[1] + 4, 4); /* position 4 is not in the full mesh */
    expect_diag(&b, "collapse-dead-endpoint", at.collapses[1] + 4, "collapses[1]", FERRY_SEVERITY_ERROR);

    /* Influence collapses. [0] moves the vertex of position 2 to vertex 5 on
     * position 5; the edge collapse then names 5. */
    FRESH(10);
    set_be(b.data + at.collapses[0] + 12, 0); /* pair 2 -> 0: position 0 is already in the mesh */
    expect_diag(&b, "influence-target", at.collapses[0], "collapses[0]", FERRY_SEVERITY_WARNING);

    FRESH(10);
    set_be(b.data + at.collapses[0] + 8, 4); /* pair 4 -> 5: position 4 is not in the full mesh */
    expect_diag(&b, "influence-dead-position", at.collapses[0], "collapses[0]", FERRY_SEVERITY_WARNING);

    FRESH(10);
    set_be(b.data + at.collapses[1] + 4, 2); /* edge 0 -> 2: position 2 left with the influence collapse */
    expect_diag(&b, "collapse-dead-endpoint", at.collapses[1] + 4, "collapses[1]", FERRY_SEVERITY_ERROR);

    FRESH(10);
    set_be(b.data + at.collapses[0] + 4, 0); /* no pairs; the 8 bytes of the pair are then trailing */
    {
        bytes c = {0};
        put(&c, b.data, at.collapses[0] + 8);
        put(&c, b.data + at.collapses[0] + 16, b.size - at.collapses[0] - 16);
        set_be(c.data + at.collapses[1] - 8 + 4, 2); /* the edge collapse on position 2, still alive */
        expect_diag(&c, "influence-empty", at.collapses[0], "collapses[0]", FERRY_SEVERITY_WARNING);
        free(c.data);
    }

    /* Two pairs whose old vertices are on two positions (2 and 1), whose
     * new ones on two positions (5 and 4): both reported, at the pair. */
    FRESH(10);
    {
        bytes c = {0};
        put(&c, b.data, at.collapses[0] + 16);
        put_u32be(&c, 1);
        put_u32be(&c, 4);
        put(&c, b.data + at.collapses[0] + 16, b.size - at.collapses[0] - 16);
        set_be(c.data + at.collapses[0] + 4, 2);
        edit_result r;
        run(&c, &r);
        CHECK(r.read == FERRY_OK);
        size_t found = 0;
        for (size_t i = 0; i < r.diags.count; i++) {
            const ferry_diagnostic *d = &r.diags.items[i];
            if (strcmp(d->rule, "influence-position") != 0) continue;
            CHECK(d->severity == FERRY_SEVERITY_ERROR && strcmp(d->path, "collapses[0]") == 0);
            CHECK(d->offset == at.collapses[0] + 16 + 4 * found);
            found++;
        }
        CHECK_EQ_U(found, 2);
        ferry_diagnostics_free(&r.diags);
        free(c.data);
    }

    /* A second edge collapse on a position the first removed: dead. */
    FRESH(8);
    {
        /* Append collapse (0, 3) after the first (0, 2): position 0 is gone. */
        bytes c = {0};
        put(&c, b.data, at.frames);
        size_t second = c.size;
        put_u32be(&c, 0);
        put_u32be(&c, 3);
        put_u32be(&c, 3);
        put_u32be(&c, 3);
        put_f32be(&c, 1.0f);
        put(&c, b.data + at.frames, b.size - at.frames);
        set_be(c.data + 40, 2); /* num_collapses: the 11th word in version 8 */
        expect_diag(&c, "collapse-dead-endpoint", second, "collapses[1]", FERRY_SEVERITY_ERROR);
        free(c.data);
    }
    free(b.data);
}

static void set_f32(uint8_t *p, uint32_t bits) { set_be(p, bits); }

#define NAN_BITS 0x7fc00000u
#define INF_BITS 0x7f800000u

/* NaN and infinities: located errors where the value is drawn (positions,
 * tangents, texture coordinates, tangent maps, bone and frame matrices,
 * tails, collapse errors), warnings in statistics (bounding sphere,
 * flagged expectations, P); offsets computed from the spec's layout. */
static void non_finite(void)
{
    bytes b = {0};
    alm_fixture_at at;
    const uint64_t fs = 4;

    FRESH(10); /* position 1, component 0, y */
    set_f32(b.data + at.positions[1] + 4 + 4 + 1 * fs, NAN_BITS);
    expect_diag(&b, "value-finite", at.positions[1] + 4 + 4 + fs, "positions[1]/components[0]", FERRY_SEVERITY_ERROR);

    FRESH(2); /* 64-bit reals: position 0, component 0, z */
    for (int k = 0; k < 8; k++) b.data[at.positions[0] + 8 + 16 + k] = k == 0 ? 0x7f : k == 1 ? 0xf0 : 0;
    expect_diag(&b, "value-finite", at.positions[0] + 8 + 16, "positions[0]/components[0]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* vertex 0, tangents[0], component 0, x: after position, count, bone */
    set_f32(b.data + at.vertices[0] + 12, INF_BITS | 0x80000000u);
    expect_diag(&b, "value-finite", at.vertices[0] + 12, "vertices[0]/tangents[0]/components[0]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* vertex 3's t: after position and two empty tangent vectors, s */
    set_f32(b.data + at.vertices[3] + 12 + fs, NAN_BITS);
    expect_diag(&b, "value-finite", at.vertices[3] + 12 + fs, "vertices[3]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* tangent map 0, entry 0, tangents[0], component 0, z: width, height, patch, count, bone */
    set_f32(b.data + at.textures[0] + 16 + 12 + 20 + 2 * fs, NAN_BITS);
    expect_diag(&b, "value-finite", at.textures[0] + 16 + 12 + 20 + 2 * fs,
                "tangent_maps[0]/entries[0]/tangents[0]/components[0]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* bone 1's transform, row 0, column 3 (x offset) */
    set_f32(b.data + at.bones[1] + 4 + 3 * fs, INF_BITS);
    expect_diag(&b, "value-finite", at.bones[1] + 4 + 3 * fs, "bones[1]", FERRY_SEVERITY_ERROR);

    FRESH(4); /* 3x3 + offset: the offset's y is the 11th real, held at [1][3] */
    set_f32(b.data + at.bones[1] + 4 + 10 * fs, NAN_BITS);
    expect_diag(&b, "value-finite", at.bones[1] + 4 + 10 * fs, "bones[1]", FERRY_SEVERITY_ERROR);
    {
        edit_result r;
        run(&b, &r);
        const ferry_diagnostic *d = find_rule(&r, "value-finite");
        CHECK(d && strstr(d->message, "transform[1][3] is NaN"));
        ferry_diagnostics_free(&r.diags);
    }

    FRESH(10); /* bone 0's tail z: after parent, matrix, flags */
    set_f32(b.data + at.bones[0] + 4 + 64 + 4 + 2 * fs, NAN_BITS);
    expect_diag(&b, "value-finite", at.bones[0] + 4 + 64 + 4 + 2 * fs, "bones[0]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* frame 1, bone 0, entry [1][1] */
    set_f32(b.data + at.frames + (1 * 2 + 0) * 64 + 5 * fs, INF_BITS);
    expect_diag(&b, "value-finite", at.frames + (1 * 2 + 0) * 64 + 5 * fs, "frames[1]/bones[0]", FERRY_SEVERITY_ERROR);

    FRESH(5); /* version 5: 4x4 frames without the version-6 fields */
    set_f32(b.data + at.frames + 64 + 15 * fs, NAN_BITS);
    expect_diag(&b, "value-finite", at.frames + 64 + 15 * fs, "frames[0]/bones[1]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* the edge collapse's error, after p1 p2 vl vr */
    set_f32(b.data + at.collapses[1] + 16, NAN_BITS);
    expect_diag(&b, "value-finite", at.collapses[1] + 16, "collapses[1]", FERRY_SEVERITY_ERROR);

    FRESH(10); /* the influence collapse's error, after marker, count, one pair */
    set_f32(b.data + at.collapses[0] + 16, INF_BITS);
    expect_diag(&b, "value-finite", at.collapses[0] + 16, "collapses[0]", FERRY_SEVERITY_ERROR);

    /* Statistics: warnings. Bone 0's max_singular (after parent, matrix,
     * flags, tail); bone 1's expect_LTGTGL holds a signalling NaN, unused
     * until its flag is set; P[0][1]. */
    FRESH(10);
    set_f32(b.data + at.bones[0] + 4 + 64 + 4 + 12, NAN_BITS);
    expect_diag(&b, "value-finite-statistic", at.bones[0] + 84, "bones[0]", FERRY_SEVERITY_WARNING);

    FRESH(10);
    set_be(b.data + at.bones[1] + 4 + 64, 0x10003u | FERRY_ALM_BONE_EXPECT_LTGTGL);
    expect_diag(&b, "value-finite-statistic", at.bones[1] + 232, "bones[1]", FERRY_SEVERITY_WARNING);

    FRESH(10);
    set_f32(b.data + at.bones[1] + 236 + fs, INF_BITS);
    expect_diag(&b, "value-finite-statistic", at.bones[1] + 236 + fs, "P", FERRY_SEVERITY_WARNING);

    /* Finite values whose sums leave the 32-bit float range (float-range).
     * Position 2: component 0 (bone 0, a translation) x = FLT_MAX, component
     * 1 (bone 1, which turns y into -x) y = -FLT_MAX: x near 2 FLT_MAX. */
    FRESH(10);
    set_f32(b.data + at.positions[2] + 8, 0x7f7fffffu);
    set_f32(b.data + at.positions[2] + 4 + 20 + 4 + fs, 0xff7fffffu);
    expect_diag(&b, "float-range", at.positions[2], "positions[2]", FERRY_SEVERITY_ERROR);
    /* FLT_MAX + 1 (position 1 at x = FLT_MAX on bone 0, offset 1) still
     * rounds to FLT_MAX: no report. */
    FRESH(10);
    set_f32(b.data + at.positions[1] + 8, 0x7f7fffffu);
    {
        edit_result r;
        run(&b, &r);
        CHECK(r.read == FERRY_OK && r.diags.count == 0);
        ferry_diagnostics_free(&r.diags);
    }
    /* Bone 0 doubles x and bone 1 sits at x = FLT_MAX in it: bone 1's
     * object transform overflows (reported at the bone, before the
     * positions on it). */
    FRESH(10);
    set_f32(b.data + at.bones[0] + 4, 0x40000000u);        /* [0][0] = 2 */
    set_f32(b.data + at.bones[1] + 4 + 3 * fs, 0x7f7fffffu); /* [0][3] */
    expect_diag(&b, "float-range", at.bones[1], "bones[1]", FERRY_SEVERITY_ERROR);
    /* Position 1 at x = 3e38 on bone 0 fits at rest (bone 0 moves it by 1);
     * frame 1 doubles bone 0's x: 6e38 there. */
    FRESH(10);
    set_f32(b.data + at.positions[1] + 8, 0x7f61b1e6u);      /* 3e38 */
    set_f32(b.data + at.frames + 2 * 64, 0x40000000u);       /* frame 1, bone 0, [0][0] = 2 */
    expect_diag(&b, "float-range", at.positions[1], "positions[1]", FERRY_SEVERITY_ERROR);
    {
        edit_result r;
        run(&b, &r);
        const ferry_diagnostic *d = find_rule(&r, "float-range");
        CHECK(d && strstr(d->message, "in frame 1"));
        ferry_diagnostics_free(&r.diags);
    }
    /* Version 2 stores 64-bit reals: a texture coordinate of 1e300. */
    FRESH(2);
    {
        uint64_t big;
        double x = 1e300;
        memcpy(&big, &x, 8);
        for (int k = 0; k < 8; k++) b.data[at.vertices[1] + 4 + 8 + k] = (uint8_t)(big >> (56 - 8 * k));
        expect_diag(&b, "float-range", at.vertices[1] + 4 + 8, "vertices[1]", FERRY_SEVERITY_ERROR);
    }

    /* The converter's own check, for what validation cannot see alone:
     * position 1 at x = -3e38 at rest, and frame 1 mirrors bone 0's x, so
     * the move from rest to frame 1 is about 6e38. Validation passes (each
     * pose fits a float); the scene is refused as malformed, located. */
    FRESH(10);
    set_f32(b.data + at.positions[1] + 8, 0xff61b1e6u);    /* -3e38 */
    set_f32(b.data + at.frames + 2 * 64, 0xbf800000u);     /* frame 1, bone 0, [0][0] = -1 */
    {
        ferry_alm_mesh *m = NULL;
        ferry_error err;
        CHECK(ferry_alm_read(b.data, b.size, NULL, &m, &err) == FERRY_OK);
        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        CHECK(m && ferry_alm_validate(m, NULL, &d) == 0);
        ferry_diagnostics_free(&d);
        ferry_scene *scene = NULL;
        ferry_alm_scene_options so;
        memset(&so, 0, sizeof so);
        so.force_morph = true;
        CHECK(m && ferry_alm_to_scene(m, &so, &scene, &err) == FERRY_ERR_MALFORMED);
        CHECK_MSG(strcmp(err.path, "positions[1]") == 0 && err.offset == at.positions[1], "path %s offset %llu: %s",
                  err.path, (unsigned long long)err.offset, err.message);
        ferry_scene_free(scene);
        ferry_alm_free(m);
    }

    /* The untouched fixture has none of these (its signalling NaN is unused). */
    FRESH(10);
    {
        edit_result r;
        run(&b, &r);
        CHECK(r.read == FERRY_OK && r.diags.count == 0);
        ferry_diagnostics_free(&r.diags);
    }
    free(b.data);
}

/* The validator's diagnostics on a hostile_skin_mesh of F frames and P
 * positions (the caller frees them) and, in *returned, what
 * ferry_alm_validate returned. Trying each position in each frame is F * P
 * evaluations; the frame-by-frame check spends a budget of them (not a
 * time) and past it reports the positions left by their bound. */
static ferry_diagnostics skin_budget_case(uint32_t F, uint32_t P, size_t *returned)
{
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    *returned = 0;
    hostile_skin_mesh h;
    bool made = hostile_skin_mesh_make(&h, F, P);
    CHECK(made);
    if (!made) return d;
    *returned = ferry_alm_validate(&h.mesh, NULL, &d);
    hostile_skin_mesh_free(&h);
    return d;
}

/* The work a hostile mesh can cost is bounded by a count, not a clock
 * (its time is measured in bench/bench_hostile): 20 000 x 20 000 (4e8
 * evaluations) and 2 500 x 20 000 (5e7) both end at the budget, every
 * position reported by its bound, so the check stops before 5e7
 * evaluations whatever the mesh; 100 x 1 000 (1e5) is tried in full and,
 * since nothing overflows, reports nothing. */
static void skin_budget(void)
{
    static const uint32_t capped[][2] = {{20000, 20000}, {2500, 20000}};
    for (size_t c = 0; c < sizeof capped / sizeof capped[0]; c++) {
        uint32_t P = capped[c][1];
        size_t returned;
        ferry_diagnostics d = skin_budget_case(capped[c][0], P, &returned);
        CHECK(returned > 0);
        CHECK(d.count && strcmp(d.items[0].rule, "float-range") == 0 && strstr(d.items[0].message, "may go beyond"));
        CHECK_EQ_U(d.error_count, P); /* none could be tried in every frame */
        ferry_diagnostics_free(&d);
    }
    size_t returned;
    ferry_diagnostics d = skin_budget_case(100, 1000, &returned);
    CHECK_EQ_U(returned, 0);
    CHECK_EQ_U(d.count, 0);
    CHECK_EQ_U(d.error_count, 0);
    ferry_diagnostics_free(&d);
}

/* No out pointer: an argument error, not a write through NULL. */
static void no_out(void)
{
    static const uint8_t bytes[4] = {0};
    ferry_error err;
    CHECK(ferry_alm_read(bytes, sizeof bytes, NULL, NULL, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, "no out pointer") != NULL);
}

int main(void)
{
    no_out();
    for (uint32_t v = 2; v <= 10; v++) truncations(v);
    corruptions(3);
    corruptions(8);
    corruptions(10);
    specific();
    non_finite();
    skin_budget();
    TEST_END();
}
