/* Particle files, real and built: every real particle file in
 * ../shared/corpus reads, writes back byte-identically and validates; then
 * hostile input over each file, real or built: truncation of the file at
 * every byte, truncation of each data chunk inside the tree (sizes above it
 * fixed up, so the typed reader meets the short chunk), and corruptions.
 * Each must give a located error or a system that writes back byte for
 * byte, never a crash. Without ../shared only the built files are used. */
#include <ferry/particle.h>

#include "support.h"
#include "bytes.h"
#include "test.h"

#include <time.h>

#ifdef TEST_ASAN
#define FLIPS 5000
#else
#define FLIPS 20000
#endif

static size_t stat_cuts, stat_inner, stat_inner_ok, stat_flips, stat_flip_ok, stat_by_code[FERRY_ERR_ARGUMENT + 1];

static uint64_t rng_state;
static uint64_t rng_next(void) { return test_xorshift(&rng_state); }
static size_t rng_below(size_t n) { return n ? (size_t)(rng_next() % n) : 0; }

static void describe(const ferry_error *err, char *out, size_t size)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    snprintf(out, size, "[%s] %s", ferry_result_name(err->code), line);
}

/* Everything a consumer might do with a system that read: none may crash. */
static void exercise(const ferry_particle_system *s, const char *file_name)
{
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_particle_validate_options o = {file_name, NULL, NULL};
    size_t errors = ferry_particle_validate(s, &o, &d);
    CHECK(errors == d.error_count);
    for (size_t i = 0; i < d.count; i++) CHECK(d.items[i].rule[0] && d.items[i].message[0]);
    ferry_diagnostics_free(&d);
    ferry_particle_rng rng = ferry_particle_rng_make(5);
    for (size_t e = 0; e < s->emitter_count; e++) {
        for (unsigned t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++)
            for (int k = 0; k <= 4; k++) (void)ferry_particle_emitter_track_value(&s->emitters[e], t, (float)k / 4);
        for (int g = 0; g < FERRY_PARTICLE_GROUP_COUNT; g++) {
            float p[3];
            ferry_particle_group_sample(&s->emitters[e].groups[g], &rng, p);
        }
    }
}

/* Reads bytes that may be damaged: a located error, or a system that
 * writes back exactly. */
static bool check_read(const char *what, const uint8_t *data, size_t size, size_t limit)
{
    ferry_particle_system *s = NULL;
    ferry_error err;
    ferry_result rc = ferry_particle_read(data, size, NULL, &s, &err);
    char text[600];
    describe(&err, text, sizeof text);
    if (rc != FERRY_OK) {
        stat_by_code[err.code <= FERRY_ERR_ARGUMENT ? err.code : 0]++;
        CHECK_MSG(err.code != FERRY_OK && err.offset != FERRY_NO_OFFSET && err.offset <= limit && err.message[0],
                  "%s: error not located within the input: %s", what, text);
        CHECK_MSG(err.code == FERRY_ERR_TRUNCATED || err.code == FERRY_ERR_MALFORMED ||
                      err.code == FERRY_ERR_UNSUPPORTED || err.code == FERRY_ERR_LIMIT,
                  "%s: unexpected code: %s", what, text);
        CHECK(s == NULL);
        return false;
    }
    ferry_buffer out = {0};
    rc = ferry_particle_write(s, &out, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: read but does not write: %s", what, err.message);
    CHECK_MSG(rc != FERRY_OK || (out.size == size && memcmp(out.data, data, size) == 0),
              "%s: does not write back byte-identical", what);
    exercise(s, "x.alo");
    ferry_buffer_free(&out);
    ferry_particle_free(s);
    return true;
}

/* ---- the chunk map of a file ---- */

typedef struct chunk_info {
    size_t offset;
    uint32_t size, type;
    bool container, minis;
    size_t ancestors[FERRY_CHUNK_MAX_DEPTH + 1]; /* header offsets, root first */
    size_t depth;
} chunk_info;

typedef struct file_map {
    chunk_info *chunks;
    size_t count, cap;
    size_t minis[4096];
    size_t mini_count;
} file_map;

static bool holds_minis(const ferry_chunk *c)
{
    uint32_t parent = c->parent ? c->parent->type : UINT32_MAX;
    uint32_t grand = c->parent && c->parent->parent ? c->parent->parent->type : UINT32_MAX;
    if (parent == FERRY_PARTICLE_EMITTER)
        return c->type == FERRY_PARTICLE_PROPERTIES || c->type == FERRY_PARTICLE_CONNECTIONS;
    return parent == FERRY_PARTICLE_TRACKS && grand == FERRY_PARTICLE_EMITTER &&
           (c->type == FERRY_PARTICLE_TRACK_HEADER || c->type == FERRY_PARTICLE_TRACK_KEYS);
}

static void map_list(const ferry_chunk *list, size_t n, file_map *m, const size_t *ancestors, size_t depth)
{
    for (size_t i = 0; i < n; i++) {
        const ferry_chunk *c = &list[i];
        if (m->count == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 64;
            m->chunks = realloc(m->chunks, m->cap * sizeof *m->chunks);
        }
        chunk_info *ci = &m->chunks[m->count++];
        ci->offset = (size_t)c->offset;
        ci->size = c->size;
        ci->type = c->type;
        ci->container = c->is_container;
        ci->depth = depth;
        if (depth) memcpy(ci->ancestors, ancestors, depth * sizeof *ancestors);
        ci->minis = !c->is_container && holds_minis(c);
        if (ci->minis) {
            ferry_mini_chunk items[256];
            size_t k, count;
            ferry_error err;
            if (ferry_alamo_mini_chunks_parse(c, items, 256, &count, &err) == FERRY_OK)
                for (k = 0; k < count && k < 256 && m->mini_count < 4096; k++)
                    m->minis[m->mini_count++] = (size_t)items[k].offset;
        }
        if (c->is_container) {
            size_t next[FERRY_CHUNK_MAX_DEPTH + 1];
            if (depth) memcpy(next, ancestors, depth * sizeof *ancestors);
            next[depth] = ci->offset;
            map_list(c->children, c->child_count, m, next, depth + 1);
        }
    }
}

static bool map_file(const uint8_t *data, size_t size, file_map *m)
{
    memset(m, 0, sizeof *m);
    ferry_chunk_tree *tree;
    ferry_error err;
    if (ferry_alamo_chunk_read(data, size, NULL, &tree, &err) != FERRY_OK) return false;
    map_list(tree->roots, tree->root_count, m, NULL, 0);
    ferry_alamo_chunk_free(tree);
    return true;
}

/* ---- truncations ---- */

static void truncate_file(const char *name, const uint8_t *data, size_t size)
{
    /* One exact-size buffer: ASan knows where it ends, and poisoning moves
     * that end to each cut, so a read past the cut is caught. */
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    for (size_t cut = 0; cut < size; cut++) {
        POISON(buf + cut, size - cut);
        ferry_particle_system *s = NULL;
        ferry_error err;
        ferry_result rc = ferry_particle_read(buf, cut, NULL, &s, &err);
        UNPOISON(buf + cut, size - cut);
        stat_cuts++;
        char text[600];
        describe(&err, text, sizeof text);
        /* One root chunk: every proper prefix cuts it, and the chunk
         * reader reports the root's header (or the missing header). */
        const char *path = cut >= 8 ? "0x900" : "";
        CHECK_MSG(rc == FERRY_ERR_TRUNCATED && err.offset == 0 && strcmp(err.path, path) == 0,
                  "%s: cut at %zu: expected truncated at 0 (\"%s\"), got %s", name, cut, path, text);
        ferry_particle_free(s);
    }
    free(buf);
}

/* Cuts data chunk `c`'s body to `keep` bytes and fixes the sizes of every
 * chunk around it, so the file stays a well-formed chunk tree. */
static void truncate_inner(const char *name, const uint8_t *data, size_t size, const chunk_info *c, uint32_t keep)
{
    uint32_t removed = c->size - keep;
    size_t n = size - removed;
    uint8_t *buf = malloc(n ? n : 1);
    size_t cut_at = c->offset + 8 + keep;
    memcpy(buf, data, cut_at);
    memcpy(buf + cut_at, data + cut_at + removed, size - cut_at - removed);
    set_u32(buf + c->offset + 4, get_u32(buf + c->offset + 4) - removed);
    for (size_t a = 0; a < c->depth; a++) {
        size_t at = c->ancestors[a] + 4;
        set_u32(buf + at, get_u32(buf + at) - removed);
    }
    char what[300];
    snprintf(what, sizeof what, "%s: chunk 0x%x at %zu cut to %u of %u bytes", name, (unsigned)c->type, c->offset,
             (unsigned)keep, (unsigned)c->size);
    stat_inner++;
    stat_inner_ok += check_read(what, buf, n, n);
    free(buf);
}

/* ---- corruptions ---- */

static void corrupt_file(const char *name, const uint8_t *data, size_t size, const file_map *m, uint64_t seed)
{
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    rng_state = seed;
    for (int trial = 0; trial < FLIPS; trial++) {
        size_t touched[16], nt = 0;
        const chunk_info *c = &m->chunks[rng_below(m->count)];
        size_t mini = m->mini_count ? m->minis[rng_below(m->mini_count)] : 0;
        int kind = (int)rng_below(9);
        if (kind >= 6 && !m->mini_count) kind = 0;
#define TOUCH(at, v)                                                                                                  \
    do {                                                                                                           \
        size_t where_ = (at);                                                                                      \
        if (nt < 16) {                                                                                             \
            touched[nt++] = where_;                                                                                \
            buf[where_] = (uint8_t)(v);                                                                            \
        }                                                                                                          \
    } while (0)
        switch (kind) {
        case 0: { size_t at = rng_below(size); TOUCH(at, buf[at] ^ (1u << rng_below(8))); break; }
        case 1: { size_t at = rng_below(size); TOUCH(at, rng_next()); break; }
        case 2: for (int i = 0; i < 4; i++) { size_t at = rng_below(size); TOUCH(at, rng_next()); } break;
        case 3: { size_t at = c->offset + 4 + rng_below(4); TOUCH(at, buf[at] ^ (1u << rng_below(8))); break; }
        case 4: TOUCH(c->offset + 7, buf[c->offset + 7] ^ 0x80); break; /* container bit */
        case 5: TOUCH(c->offset + rng_below(4), rng_below(4) ? rng_next() : 0); break; /* chunk type */
        case 6: TOUCH(mini + 1, rng_below(2) ? (uint64_t)buf[mini + 1] + (rng_below(2) ? 1u : 255u) : rng_next()); break;
        case 7: TOUCH(mini, rng_below(2) ? rng_below(80) : rng_next()); break; /* mini-chunk type */
        default: /* a value: first byte of a mini-chunk body */
            if (mini + 2 < size) TOUCH(mini + 2, rng_next());
            break;
        }
#undef TOUCH
        char what[300];
        snprintf(what, sizeof what, "%s: corruption %d (kind %d, seed %llu)", name, trial, kind,
                 (unsigned long long)seed);
        stat_flips++;
        stat_flip_ok += check_read(what, buf, size, size);
        for (size_t i = nt; i-- > 0;) buf[touched[i]] = data[touched[i]];
    }
    free(buf);
}

static void hostile(const char *name, const uint8_t *data, size_t size, uint64_t seed)
{
    file_map m;
    CHECK_MSG(map_file(data, size, &m), "%s: chunk tree does not read", name);
    truncate_file(name, data, size);
    for (size_t i = 0; i < m.count; i++) {
        const chunk_info *c = &m.chunks[i];
        if (c->container) continue;
        for (uint32_t keep = 0; keep < c->size; keep++) truncate_inner(name, data, size, c, keep);
    }
    corrupt_file(name, data, size, &m, seed);
    free(m.chunks);
}

/* ---- a system built through the structs ---- */

static bool build_bytes(ferry_buffer *out)
{
    static ferry_particle_key keys[2] = {{0.25f, 2, 128, 0}, {0.75f, 3, 64, 0}};
    ferry_particle_emitter em[2];
    memset(em, 0, sizeof em);
    for (int e = 0; e < 2; e++) {
        ferry_particle_properties *p = &em[e].properties;
        p->present[0] = FERRY_PARTICLE_PRESENT_USUAL_0;
        p->present[1] = FERRY_PARTICLE_PRESENT_USUAL_1;
        p->blend_mode = 1;
        p->lifetime = 1.5f;
        p->randomized_lifetime = 0.2f;
        p->index = (uint32_t)e;
        em[e].color_texture = "p_particle_master.tga";
        em[e].name = e ? "b" : "a";
        em[e].secondary_texture = "p_particle_depth_master.tga";
        em[e].groups[0].type = FERRY_PARTICLE_GROUP_CYLINDER;
        em[e].groups[0].cylinder_radius = 1;
        em[e].groups[1].type = FERRY_PARTICLE_GROUP_BOX;
        em[e].groups[1].min[1] = 1.2f;
        em[e].groups[1].max[1] = 1.5f;
        em[e].groups[2].type = FERRY_PARTICLE_GROUP_SPHERE;
        em[e].groups[2].sphere_radius = 4;
        for (int t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++) {
            em[e].tracks[t].keys = keys;
            em[e].tracks[t].key_count = (size_t)(t & 1) * 2;
            em[e].tracks[t].last = 1;
            em[e].tracks[t].last_byte = 200;
        }
        em[e].death_emitter = e ? -1 : 1;
        em[e].birth_emitter = -1;
    }
    ferry_particle_system s;
    memset(&s, 0, sizeof s);
    s.name = "built";
    s.emitters = em;
    s.emitter_count = 2;
    ferry_error err;
    return ferry_particle_write(&s, out, &err) == FERRY_OK;
}

/* ---- real files ---- */

/* The three particle files of ufocp, which the facts below were read from. */
static bool is_first_three(const char *base)
{
    return !strcmp(base, "PE_TIE_DefenderEngine.alo") || !strcmp(base, "PPTW_PTWPV.alo") ||
           !strcmp(base, "P_Planet_Corrupt2.alo");
}

static void expect_real(const char *base, const ferry_particle_system *s)
{
    /* Every real emitter numbers itself (property 0x14). */
    for (size_t i = 0; i < s->emitter_count; i++)
        if (ferry_particle_property_present(&s->emitters[i].properties, 0x14))
            CHECK_MSG(s->emitters[i].properties.index == i, "%s: emitter %zu has index %u", base, i,
                      (unsigned)s->emitters[i].properties.index);
    if (!is_first_three(base)) return;
    /* Facts of the three ufocp files (docs/formats/alo-particle.md). Other
     * editors store fewer properties, no 0x49 or no persistence chunk (icw). */
    for (size_t i = 0; i < s->emitter_count; i++) {
        const ferry_particle_emitter *e = &s->emitters[i];
        CHECK(e->properties_layout.order_count == 48 && e->properties_layout.unknown_count == 1);
        CHECK(e->properties_layout.unknown_count && e->properties_layout.unknown[0].type == 0x49);
        CHECK(e->properties.present[0] == FERRY_PARTICLE_PRESENT_USUAL_0 &&
              e->properties.present[1] == FERRY_PARTICLE_PRESENT_USUAL_1);
        CHECK(e->layout.order_count == 7 && e->tracks_layout.order_count == 14);
        CHECK(ferry_particle_lifetime_layout_of(&e->groups[FERRY_PARTICLE_GROUP_LIFETIME]) == FERRY_PARTICLE_LIFETIME_Y);
    }
    CHECK(s->layout.order_count == 4 && s->layout.order[2] == FERRY_PARTICLE_EMITTERS && !s->no_persistence);
    if (!strcmp(base, "PE_TIE_DefenderEngine.alo")) {
        CHECK(s->emitter_count == 1 && s->persistence == 0 && !strcmp(s->emitters[0].name, "Blue"));
        CHECK(s->emitters[0].properties.lifetime == 1.0f && s->emitters[0].tracks[1].first_byte == 0x7b);
    } else if (!strcmp(base, "PPTW_PTWPV.alo")) {
        CHECK(s->emitter_count == 4 && s->emitters[1].tracks[FERRY_PARTICLE_TRACK_SIZE].interpolation == 1);
        CHECK_NEAR(ferry_particle_emitter_track_value(&s->emitters[1], FERRY_PARTICLE_TRACK_SIZE, 0.5f), 2.25, 1e-6);
        CHECK(s->emitters[1].properties.inward_speed == -50.0f);
    } else if (!strcmp(base, "P_Planet_Corrupt2.alo")) {
        CHECK(s->emitter_count == 2 && s->persistence == 1 && s->emitters[0].tracks[0].key_count == 2);
        CHECK(s->emitters[0].groups[2].type == FERRY_PARTICLE_GROUP_CYLINDER &&
              s->emitters[0].groups[2].cylinder_surface == 1);
    }
}

/* Warnings shipped, working systems are known to draw (docs/formats/
 * alo-particle.md, "Validation rules"): anything else on a real file fails. */
static bool shipped_warning(const char *rule)
{
    return !strcmp(rule, "system-name") || !strcmp(rule, "lifetime-group") || !strcmp(rule, "persistence-missing");
}

/* The bad-input campaign costs about 0.25 s of CPU per file (more under
 * ASan), too much for hundreds of files: it runs on a deterministic subset,
 * every file whose shape (persistence chunk, lifetime layout, number of
 * stored properties of the first emitter, emitter count up to 4) is new,
 * plus every HOSTILE_STRIDE-th file in path order. Rewrite and validation
 * run on every file. */
#define HOSTILE_STRIDE 16
#define MAX_SHAPES 64

static size_t run_corpus(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/alamo";
    if (!test_dir_exists(dir)) {
        TEST_LEFT_OUT("real particle files (%s is absent; built ones were tried)", dir);
        return 0;
    }
    char **paths;
    size_t n = test_list_files(dir, ".alo", &paths), count = 0, identical = 0, hostile_count = 0;
    uint32_t shapes[MAX_SHAPES];
    size_t shape_count = 0;
    size_t warned_files = 0;
    printf("bad-input campaign on:");
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        ferry_alamo_kind kind = ferry_alamo_detect(data, size);
        if (kind != FERRY_ALAMO_PARTICLE) {
            /* Models and animations: refused as such, at the first chunk. */
            ferry_particle_system *s = NULL;
            ferry_error err;
            CHECK(ferry_particle_read(data, size, NULL, &s, &err) == FERRY_ERR_UNSUPPORTED && err.offset == 0);
            free(data);
            continue;
        }
        count++;
        const char *base = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
        /* Loads stay proportional to the input: a tight limit suffices. */
        ferry_read_options tight = {4 * size + 64 * 1024};
        ferry_particle_system *s = NULL;
        ferry_error err;
        ferry_result rc = ferry_particle_read(data, size, &tight, &s, &err);
        CHECK_MSG(rc == FERRY_OK, "%s: %s", base, err.message);
        if (rc == FERRY_OK) {
            ferry_buffer out = {0};
            bool same = ferry_particle_write(s, &out, &err) == FERRY_OK && out.size == size &&
                        memcmp(out.data, data, size) == 0;
            CHECK_MSG(same, "%s: rewrite differs", base);
            identical += same;
            ferry_buffer_free(&out);
            ferry_diagnostics d = {0};
            ferry_particle_validate_options o = {paths[i], NULL, NULL};
            size_t errors = ferry_particle_validate(s, &o, &d);
            CHECK_MSG(errors == 0, "%s: %zu errors, first: %s", base, errors, d.count ? d.items[0].message : "");
            for (size_t k = 0; k < d.count; k++)
                CHECK_MSG(shipped_warning(d.items[k].rule) && !is_first_three(base), "%s: %s [%s]", base,
                          d.items[k].message, d.items[k].rule);
            warned_files += d.count > 0;
            ferry_diagnostics_free(&d);
            expect_real(base, s);
            uint32_t shape = (uint32_t)s->no_persistence;
            if (s->emitter_count) {
                const ferry_particle_emitter *e = &s->emitters[0];
                shape |= (uint32_t)ferry_particle_lifetime_layout_of(&e->groups[FERRY_PARTICLE_GROUP_LIFETIME]) << 1;
                shape |= (uint32_t)(e->properties_layout.order_count & 0xff) << 3;
            }
            shape |= (uint32_t)(s->emitter_count < 4 ? s->emitter_count : 4) << 11;
            ferry_particle_free(s);
            bool new_shape = true;
            for (size_t k = 0; k < shape_count && new_shape; k++) new_shape = shapes[k] != shape;
            if (new_shape && shape_count < MAX_SHAPES) shapes[shape_count++] = shape;
            if ((new_shape && shape_count < MAX_SHAPES) || i % HOSTILE_STRIDE == 0 || is_first_three(base)) {
                printf(" %s", base);
                hostile_count++;
                hostile(base, data, size, 0x9A27100ull + i);
            }
        }
        free(data);
    }
    test_free_paths(paths, n);
    printf("\n%zu real particle files, %zu rewritten byte-identically, %zu with warnings of shipped kinds; "
           "bad-input campaign on %zu of them (%zu shapes)\n",
           count, identical, warned_files, hostile_count, shape_count);
    CHECK(count > 0 && identical == count);
    return count;
}

int main(void)
{
    clock_t start = clock();
    ferry_buffer built = {0};
    CHECK(build_bytes(&built));
    CHECK(check_read("built", built.data, built.size, built.size));
    hostile("built", built.data, built.size, 1);
    ferry_buffer_free(&built);
    size_t real = run_corpus();
    printf("%zu real + 1 built files: %zu file truncations, %zu inner truncations (%zu read and wrote back), "
           "%zu corruptions (%zu read and wrote back)\n",
           real, stat_cuts, stat_inner, stat_inner_ok, stat_flips, stat_flip_ok);
    printf("errors by kind:");
    for (int c = FERRY_ERR_TRUNCATED; c <= FERRY_ERR_ARGUMENT; c++)
        if (stat_by_code[c]) printf(" %s %zu", ferry_result_name((ferry_result)c), stat_by_code[c]);
    printf("; %.1f s CPU\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    TEST_END();
}
