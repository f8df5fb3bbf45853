/* ODOL v48 and v50 without the shared corpus: the LZO1X stream measure and
 * decoder on hand-made streams (values worked out from the instruction
 * encoding), round trips through liblzo2's encoder, the packed normal and
 * UV decoding, and the bundled v40 samples repacked into v48 and v50 models
 * through the API, written (new arrays LZO-compressed) and read back. When
 * ../shared is present, truncated and corrupted copies of the real v48/v50
 * files are refused with a location or read, never crash. */
#include <ferry/lzo.h>
#include <ferry/odol.h>

#include "../tools/odol_samples.h"
#include "support.h"
#include "test.h"

#include <stdint.h>

/* ---- LZO streams ---- */

static void check_stream(const char *name, const uint8_t *in, size_t in_size, size_t stream, const char *expect,
                         size_t expect_size)
{
    size_t got_stream = 0, got_size = 0;
    ferry_error err;
    CHECK_MSG(ferry_lzo_measure(in, in_size, &got_stream, &got_size, &err) == FERRY_OK, "%s: %s", name, err.message);
    CHECK_MSG(got_stream == stream && got_size == expect_size, "%s: measured %zu -> %zu", name, got_stream, got_size);
    uint8_t out[64];
    size_t consumed = 0;
    CHECK_MSG(ferry_lzo_decode(in, in_size, expect_size, out, &consumed, &err) == FERRY_OK, "%s: %s", name,
              err.message);
    CHECK(consumed == stream);
    CHECK_MSG(memcmp(out, expect, expect_size) == 0, "%s: decoded bytes differ", name);
}

static void hand_made_streams(void)
{
    /* The end-of-stream instruction alone: 0001HLLL with H = 0 and a zero
     * distance operand. */
    static const uint8_t empty[] = {0x11, 0x00, 0x00, 0xAA};
    size_t stream = 9, size = 9;
    ferry_error err;
    CHECK(ferry_lzo_measure(empty, sizeof empty, &stream, &size, &err) == FERRY_OK);
    CHECK(stream == 3 && size == 0);

    /* A first byte of 17 + 5: five literals, then the end. */
    static const uint8_t hello[] = {22, 'h', 'e', 'l', 'l', 'o', 0x11, 0x00, 0x00, 0xAA};
    check_stream("literals", hello, sizeof hello, 9, "hello", 5);

    /* Four literals, then 010LLDSS-style 0x4C: length (0x4C >> 5) + 1 = 3,
     * distance 1 + ((0x4C >> 2) & 7) + (0 << 3) = 4, state 0. */
    static const uint8_t abc[] = {21, 'a', 'b', 'c', 'd', 0x4C, 0x00, 0x11, 0x00, 0x00};
    check_stream("short match", abc, sizeof abc, sizeof abc, "abcdabc", 7);

    /* State bits: 0x4D leaves one literal ('x') after the match, read
     * before the next instruction (here the end). */
    static const uint8_t tail[] = {21, 'a', 'b', 'c', 'd', 0x4D, 0x00, 'x', 0x11, 0x00, 0x00};
    check_stream("trailing literal", tail, sizeof tail, sizeof tail, "abcdabcx", 8);

    /* 001LLLLL with L = 0: the length continues in the next bytes (a zero
     * adds 255, the first non-zero byte ends it): 2 + 31 + 255 + 2 = 290
     * bytes from distance 1 + (LE16 >> 2) = 1. */
    static const uint8_t run[] = {18, 'z', 0x20, 0x00, 0x02, 0x00, 0x00, 0x11, 0x00, 0x00};
    size_t s2 = 0, d2 = 0;
    CHECK(ferry_lzo_measure(run, sizeof run, &s2, &d2, &err) == FERRY_OK);
    CHECK(s2 == sizeof run && d2 == 1 + 290);
    uint8_t zs[291];
    CHECK(ferry_lzo_decode(run, sizeof run, sizeof zs, zs, NULL, &err) == FERRY_OK);
    bool all_z = true;
    for (size_t i = 0; i < sizeof zs; i++) all_z &= zs[i] == 'z';
    CHECK(all_z);

    /* Damage is located, never a read past the end. */
    for (size_t cut = 0; cut < sizeof abc; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, abc, cut);
        uint8_t out[16];
        CHECK(ferry_lzo_decode(copy, cut, 7, out, NULL, &err) == FERRY_ERR_TRUNCATED);
        CHECK(err.offset <= cut);
        free(copy);
    }
    uint8_t out[16];
    CHECK(ferry_lzo_decode(abc, sizeof abc, 6, out, NULL, &err) == FERRY_ERR_MALFORMED);
    CHECK(strstr(err.message, "decodes to 7 bytes") != NULL);
    /* Distance 8 with only 4 bytes decoded: liblzo2 refuses it. */
    static const uint8_t behind[] = {21, 'a', 'b', 'c', 'd', 0x5C, 0x00, 0x11, 0x00, 0x00};
    CHECK(ferry_lzo_decode(behind, sizeof behind, 7, out, NULL, &err) == FERRY_ERR_MALFORMED);
    CHECK(strstr(err.message, "before the start") != NULL);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void round_trips(void)
{
    static const size_t sizes[] = {1, 3, 4, 17, 1023, 1024, 1025, 4096, 70000, 300000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        for (int kind = 0; kind < 3; kind++) {
            size_t n = sizes[k];
            uint8_t *in = malloc(n), *back = malloc(n);
            for (size_t i = 0; i < n; i++)
                in[i] = kind == 0 ? (uint8_t)rnd() : kind == 1 ? 0 : (uint8_t)((i / 7) % 13 + (rnd() % 50 == 0));
            ferry_buffer b = {0};
            ferry_error err;
            CHECK(ferry_lzo_encode(in, n, &b, &err) == FERRY_OK);
            size_t stream = b.size;
            /* Bytes after the stream: the measure stops at its end. */
            uint8_t *framed = malloc(stream + 3);
            memcpy(framed, b.data, stream);
            memcpy(framed + stream, "\x11\x00\x00", 3);
            size_t m_stream = 0, m_size = 0, consumed = 0;
            CHECK(ferry_lzo_measure(framed, stream + 3, &m_stream, &m_size, &err) == FERRY_OK);
            CHECK_MSG(m_stream == stream && m_size == n, "size %zu kind %d: %zu/%zu vs %zu", n, kind, m_stream, m_size,
                      stream);
            CHECK(ferry_lzo_decode(framed, stream + 3, n, back, &consumed, &err) == FERRY_OK);
            CHECK(consumed == stream && memcmp(in, back, n) == 0);
            if (kind == 1 && n >= 1024) CHECK(stream < n / 50 + 16); /* runs use the extended lengths */
            free(framed);
            ferry_buffer_free(&b);
            free(in);
            free(back);
        }
    }
}

/* ---- packed values ---- */

static void packed_values(void)
{
    float n[3];
    /* x = 0x201 is -511 as 10-bit two's complement: times -1/511 = 1. */
    ferry_odol_decode_normal(0x201u, n);
    CHECK(n[0] == 1.0f && n[1] == 0.0f && n[2] == 0.0f);
    ferry_odol_decode_normal(511u << 10, n);
    CHECK(n[0] == 0.0f && n[1] == -1.0f && n[2] == 0.0f);
    /* z = 0x3FF is -1: 1/511. Bits 30-31 are not part of any field. */
    ferry_odol_decode_normal(0xFFF00000u, n);
    CHECK(n[0] == 0.0f && n[1] == 0.0f && fabsf(n[2] - 1.0f / 511.0f) < 1e-7f);

    /* A v50 LOD with three packed UVs in the range u 2..6, v -1..1. */
    uint8_t uv[12] = {0x01, 0x80, 0xFF, 0x7F, /* -32767, 32767 */
                      0x00, 0x00, 0x00, 0x00, /* 0, 0 */
                      0xFF, 0x7F, 0x01, 0x80};
    ferry_odol_condensed set = {{uv, 3, NULL, 0, FERRY_NO_OFFSET}, false, {0}};
    ferry_odol_uv_range range = {2.0f, -1.0f, 6.0f, 1.0f};
    ferry_odol_lod lod;
    memset(&lod, 0, sizeof lod);
    lod.uv_sets = &set;
    lod.uv_set_count = 1;
    lod.uv_ranges = &range;
    ferry_odol_model m;
    memset(&m, 0, sizeof m);
    m.version = 50;
    float t[2];
    CHECK(ferry_odol_vertex_uv(&m, &lod, 0, 0, t) && t[0] == 2.0f && t[1] == 1.0f);
    /* 0 is 32767 steps of 65534 from the minimum: the middle. */
    CHECK(ferry_odol_vertex_uv(&m, &lod, 0, 1, t) && t[0] == 4.0f && t[1] == 0.0f);
    CHECK(ferry_odol_vertex_uv(&m, &lod, 0, 2, t) && t[0] == 6.0f && t[1] == -1.0f);
    CHECK(!ferry_odol_vertex_uv(&m, &lod, 0, 3, t));
    CHECK(!ferry_odol_vertex_uv(&m, &lod, 1, 0, t));
    CHECK(!ferry_odol_vertex_normal(&m, &lod, 0, n));
}

/* ---- v40 samples repacked as v48 and v50 ---- */

static uint32_t pack_direction(const uint8_t *p)
{
    uint32_t packed = 0;
    for (int k = 0; k < 3; k++) {
        float f;
        memcpy(&f, p + 4 * k, 4);
        long v = lroundf(-f * 511.0f);
        packed |= ((uint32_t)v & 0x3FFu) << (10 * k);
    }
    return packed;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static int16_t pack_coord(float f, float lo, float hi)
{
    if (!(hi > lo)) return -32767;
    return (int16_t)(lroundf((f - lo) / (hi - lo) * 65534.0f) - 32767);
}

/* Rewrites the sample's float normals, tangent vectors and UVs in the v45+
 * packed forms (memory from `a`). */
static void repack(ferry_odol_model *m, uint32_t version, ferry_arena *a)
{
    m->version = version;
    for (uint32_t l = 0; l < m->lod_count; l++) {
        ferry_odol_lod *lod = &m->lods[l];
        ferry_odol_condensed *nc = &lod->normals;
        if (nc->default_fill) {
            uint32_t p = pack_direction(nc->default_value);
            memset(nc->default_value, 0, sizeof nc->default_value);
            put_u32(nc->default_value, p);
        } else if (nc->array.count) {
            uint8_t *d = ferry_arena_alloc(a, (size_t)nc->array.count * 4);
            for (uint32_t v = 0; v < nc->array.count; v++) put_u32(d + 4 * v, pack_direction(nc->array.data + 12 * v));
            nc->array.data = d;
        }
        if (lod->st_coords.count) {
            uint8_t *d = ferry_arena_alloc(a, (size_t)lod->st_coords.count * 8);
            for (uint32_t v = 0; v < lod->st_coords.count; v++) {
                put_u32(d + 8 * v, pack_direction(lod->st_coords.data + 24 * v));
                put_u32(d + 8 * v + 4, pack_direction(lod->st_coords.data + 24 * v + 12));
            }
            lod->st_coords.data = d;
        }
        lod->uv_ranges = ferry_arena_alloc(a, lod->uv_set_count * sizeof *lod->uv_ranges);
        for (uint32_t s = 0; s < lod->uv_set_count; s++) {
            ferry_odol_condensed *c = &lod->uv_sets[s];
            uint32_t n = c->default_fill ? 1 : c->array.count;
            const uint8_t *src = c->default_fill ? c->default_value : c->array.data;
            ferry_odol_uv_range r = {0, 0, 0, 0};
            for (uint32_t v = 0; v < n; v++) {
                float u, w;
                memcpy(&u, src + 8 * v, 4);
                memcpy(&w, src + 8 * v + 4, 4);
                if (v == 0 || u < r.min_u) r.min_u = u;
                if (v == 0 || u > r.max_u) r.max_u = u;
                if (v == 0 || w < r.min_v) r.min_v = w;
                if (v == 0 || w > r.max_v) r.max_v = w;
            }
            lod->uv_ranges[s] = r;
            uint8_t *d = ferry_arena_alloc(a, (size_t)n * 4 + 4);
            for (uint32_t v = 0; v < n; v++) {
                float u, w;
                memcpy(&u, src + 8 * v, 4);
                memcpy(&w, src + 8 * v + 4, 4);
                uint16_t su = (uint16_t)pack_coord(u, r.min_u, r.max_u), sv = (uint16_t)pack_coord(w, r.min_v, r.max_v);
                d[4 * v] = (uint8_t)su;
                d[4 * v + 1] = (uint8_t)(su >> 8);
                d[4 * v + 2] = (uint8_t)sv;
                d[4 * v + 3] = (uint8_t)(sv >> 8);
            }
            if (c->default_fill) {
                memset(c->default_value, 0, sizeof c->default_value);
                memcpy(c->default_value, d, 4);
            } else if (n) {
                c->array.data = d;
            }
        }
    }
}

static void repacked_samples(uint32_t version)
{
    size_t lzo_arrays = 0;
    for (size_t i = 0; i < odol_sample_builder_count; i++) {
        odol_sample s;
        odol_sample_builders[i](&s);
        /* The float arrays to compare with, before repacking. */
        ferry_buffer v40 = {0};
        ferry_error err;
        CHECK(ferry_odol_update(&s.model, &err) == FERRY_OK);
        CHECK(ferry_odol_write(&s.model, &v40, &err) == FERRY_OK);
        ferry_odol_model *orig = NULL;
        CHECK(ferry_odol_read(v40.data, v40.size, NULL, &orig, &err) == FERRY_OK);

        repack(&s.model, version, s.storage);
        s.model.info.skeleton.pivots_name = "";
        s.model.info.shadow_offset = 0.25f;
        s.model.info.ht_min = 1.5f;
        CHECK(ferry_odol_update(&s.model, &err) == FERRY_OK);
        ferry_buffer out = {0};
        CHECK_MSG(ferry_odol_write(&s.model, &out, &err) == FERRY_OK, "%s v%u: %s", s.file, version, err.message);
        CHECK(out.size >= 8 && out.data[4] == version);
        ferry_odol_model *m = NULL;
        ferry_result rc = ferry_odol_read(out.data, out.size, NULL, &m, &err);
        CHECK_MSG(rc == FERRY_OK, "%s v%u: %s", s.file, version, err.message);
        if (rc == FERRY_OK && orig) {
            ferry_diagnostics diags = {0};
            CHECK_MSG(ferry_odol_validate(m, NULL, &diags) == 0, "%s v%u: %s", s.file, version,
                      diags.count ? diags.items[0].message : "");
            ferry_diagnostics_free(&diags);
            CHECK(m->version == version && m->lod_count == orig->lod_count);
            CHECK(m->info.shadow_offset == (version >= 48 ? 0.25f : 0.0f) && m->info.ht_min == 1.5f);
            for (uint32_t l = 0; l < m->lod_count && l < orig->lod_count; l++) {
                const ferry_odol_lod *a = &orig->lods[l], *b = &m->lods[l];
                CHECK(a->positions.count == b->positions.count);
                if (version >= 50) CHECK(b->vertex_count == b->positions.count);
                size_t bytes = (size_t)b->positions.count * 12;
                CHECK(bytes == 0 || memcmp(a->positions.data, b->positions.data, bytes) == 0);
                if (bytes >= 1024) lzo_arrays += b->positions.stored_size != bytes;
                for (uint32_t v = 0; v < b->positions.count; v++) {
                    float na[3], nb[3];
                    bool ha = ferry_odol_vertex_normal(orig, a, v, na), hb = ferry_odol_vertex_normal(m, b, v, nb);
                    CHECK(ha == hb);
                    if (ha && hb)
                        for (int k = 0; k < 3; k++) CHECK(fabsf(na[k] - nb[k]) <= 0.5f / 511.0f + 1e-6f);
                    for (uint32_t s2 = 0; s2 < b->uv_set_count; s2++) {
                        float ua[2], ub[2];
                        ha = ferry_odol_vertex_uv(orig, a, s2, v, ua);
                        hb = ferry_odol_vertex_uv(m, b, s2, v, ub);
                        CHECK(ha == hb);
                        const ferry_odol_uv_range *r = &b->uv_ranges[s2];
                        float step = ((r->max_u - r->min_u) + (r->max_v - r->min_v)) / 65534.0f + 1e-6f;
                        if (ha && hb) CHECK(fabsf(ua[0] - ub[0]) <= step && fabsf(ua[1] - ub[1]) <= step);
                    }
                }
            }
            /* Read back, it writes the same bytes. */
            ferry_buffer again = {0};
            CHECK(ferry_odol_write(m, &again, &err) == FERRY_OK);
            CHECK(again.size == out.size && memcmp(again.data, out.data, out.size) == 0);
            ferry_buffer_free(&again);
        }
        if (m) ferry_odol_free(m);
        if (orig) ferry_odol_free(orig);
        ferry_buffer_free(&out);
        ferry_buffer_free(&v40);
        odol_sample_free(&s);
    }
    /* The grid sample's 1024-vertex positions went through liblzo2. */
    CHECK(lzo_arrays > 0);
}

/* ---- damaged real files ---- */

static size_t damaged = 0, refused_located = 0, read_ok = 0;

static void damage(const char *path, const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size);
    ferry_error err;
    /* Truncations: every one fails with an offset inside the file. */
    size_t step = size / 97 + 1;
    for (size_t cut = 0; cut < size; cut += step) {
        memcpy(copy, data, cut);
        ferry_odol_model *m = NULL;
        ferry_result rc = ferry_odol_read(copy, cut, NULL, &m, &err);
        CHECK_MSG(rc != FERRY_OK, "%s cut at %zu read", path, cut);
        if (rc == FERRY_OK) ferry_odol_free(m);
        else refused_located += err.offset != FERRY_NO_OFFSET && err.offset <= cut;
        damaged++;
    }
    /* Corruptions: a byte flipped; a file still read must write back. */
    for (int k = 0; k < 200; k++) {
        memcpy(copy, data, size);
        size_t at = rnd() % size;
        copy[at] ^= (uint8_t)(1u << (rnd() % 8));
        ferry_odol_model *m = NULL;
        ferry_result rc = ferry_odol_read(copy, size, NULL, &m, &err);
        damaged++;
        if (rc != FERRY_OK) {
            refused_located += err.offset != FERRY_NO_OFFSET && err.offset <= size;
            continue;
        }
        read_ok++;
        ferry_diagnostics diags = {0};
        (void)ferry_odol_validate(m, NULL, &diags);
        ferry_diagnostics_free(&diags);
        ferry_buffer out = {0};
        CHECK(ferry_odol_write(m, &out, &err) == FERRY_OK);
        ferry_buffer_free(&out);
        ferry_odol_free(m);
    }
    free(copy);
}

static void damaged_corpus(void)
{
    static const char *dirs[] = {FERRY_SHARED_DIR "/corpus/odol/v48", FERRY_SHARED_DIR "/corpus/odol/v50"};
    for (size_t d = 0; d < 2; d++) {
        if (!test_dir_exists(dirs[d])) {
            TEST_LEFT_OUT("the real files (%s is absent)", dirs[d]);
            continue;
        }
        char **paths;
        size_t n = test_list_files(dirs[d], ".p3d", &paths);
        for (size_t i = 0; i < n; i++) {
            size_t size;
            uint8_t *data = test_read_file(paths[i], &size);
            CHECK(data != NULL);
            if (data) damage(paths[i], data, size);
            free(data);
        }
        test_free_paths(paths, n);
    }
    printf("damaged v48/v50 copies: %zu, refused with a location %zu, read %zu\n", damaged, refused_located, read_ok);
    CHECK(refused_located + read_ok == damaged);
}

int main(void)
{
    hand_made_streams();
    round_trips();
    packed_values();
    repacked_samples(48);
    repacked_samples(50);
    damaged_corpus();
    TEST_END();
}
