/* Every ALA animation in ../shared/corpus: reads, writes back byte for byte,
 * validates clean, converts to the other format and back with the same
 * poses at every frame (and between frames), agrees with its model where
 * the corpus has it; then survives truncation at many points and thousands
 * of corruptions (located errors, or a model that writes back). Skips
 * (exit 77) without ../shared. Under ASan the bytes past a truncation point
 * are poisoned, so reading beyond the cut is caught without a copy per cut. */
#include <ferry/ala.h>

#include "support.h"
#include "test.h"

#include <ctype.h>

#ifdef TEST_ASAN
#define FLIPS_PER_FILE 600
#else
#define FLIPS_PER_FILE 2500
#endif

/* The mod's 1,245 animations: all are read, rewritten, validated and
 * converted, but the truncations and corruptions (most of the time) run on
 * one in CAMPAIGN_EVERY of them, and on every file of the other corpora. */
#define LARGE_CORPUS "/icw/"
#define CAMPAIGN_EVERY 16

/* Files up to this size are cut at every byte; larger ones at EVEN_POINTS
 * places plus around every chunk boundary. */
#define EVERY_BYTE_BELOW 8192
#define EVEN_POINTS 300

static size_t stat_truncations, stat_flips, stat_flip_read, stat_flip_converted;

static bool located(const ferry_error *err, size_t limit)
{
    return err->code != FERRY_OK && err->offset != FERRY_NO_OFFSET && err->offset <= limit && err->message[0];
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- conversions: the same poses, exactly ---- */

static size_t compare_poses(const ferry_ala_animation *a, const ferry_ala_animation *b, const char *name,
                            const char *what)
{
    size_t compared = 0;
    for (size_t bone = 0; bone < a->bone_count; bone++) {
        for (uint32_t f = 0; f < a->frame_count; f++) {
            ferry_ala_pose p, q;
            ferry_ala_sample_frame(a, bone, f, &p);
            ferry_ala_sample_frame(b, bone, f, &q);
            CHECK_MSG(test_poses_equal(&p, &q), "%s %s: bone %zu frame %u differs", name, what, bone, (unsigned)f);
            ferry_ala_sample(a, bone, f + 0.375, FERRY_ALA_LOOP, &p);
            ferry_ala_sample(b, bone, f + 0.375, FERRY_ALA_LOOP, &q);
            CHECK_MSG(test_poses_equal(&p, &q), "%s %s: bone %zu frame %u.375 differs", name, what, bone, (unsigned)f);
            compared += 2;
        }
    }
    return compared;
}

/* What a 2 -> 1 -> 2 round trip may change: the default rotation of a bone
 * that has a rotation track (format 1 has no place for it; real files
 * give it about the first frame, sometimes off by one unit). */
static bool same_but_defaults(const ferry_ala_animation *x, const ferry_ala_animation *y, size_t *changed)
{
    if (x->bone_count != y->bone_count) return false;
    ferry_buffer bx = {0}, by = {0};
    ferry_ala_bone *copy = malloc(y->bone_count * sizeof *copy);
    memcpy(copy, y->bones, y->bone_count * sizeof *copy);
    *changed = 0;
    for (size_t i = 0; i < y->bone_count; i++) {
        if (memcmp(copy[i].default_rotation, x->bones[i].default_rotation, 8) == 0) continue;
        if (x->bones[i].rotation_index < 0) {
            free(copy);
            return false;
        }
        memcpy(copy[i].default_rotation, x->bones[i].default_rotation, 8);
        (*changed)++;
    }
    ferry_ala_animation patched = *y;
    patched.bones = copy;
    bool same = ferry_ala_write(x, &bx, NULL) == FERRY_OK && ferry_ala_write(&patched, &by, NULL) == FERRY_OK &&
                bx.size == by.size && memcmp(bx.data, by.data, bx.size) == 0;
    ferry_buffer_free(&bx);
    ferry_buffer_free(&by);
    free(copy);
    return same;
}

typedef struct totals {
    size_t files, formats[3], identical, clean, warnings, poses, converted, round_identical, defaults_changed,
        with_model, model_clean, campaigned;
} totals;

static void convert_file(const ferry_ala_animation *a, const uint8_t *data, size_t size, const char *name, totals *t)
{
    ferry_ala_format other = a->format == FERRY_ALA_FORMAT_1 ? FERRY_ALA_FORMAT_2 : FERRY_ALA_FORMAT_1;
    ferry_ala_animation *b = NULL, *c = NULL;
    ferry_error err;
    ferry_result rc = ferry_ala_convert(a, other, NULL, &b, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: convert to format %d: %s", name, (int)other, err.message);
    if (rc == FERRY_OK) rc = ferry_ala_convert(b, (ferry_ala_format)a->format, NULL, &c, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: convert back: %s", name, err.message);
    if (rc == FERRY_OK) {
        CHECK(b->format == other && c->format == a->format);
        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        CHECK_MSG(ferry_ala_validate(b, NULL, &d) == 0, "%s: converted animation does not validate", name);
        ferry_diagnostics_free(&d);
        t->poses += compare_poses(a, b, name, "converted");
        t->poses += compare_poses(a, c, name, "converted back");
        t->converted++;
        ferry_buffer out = {0};
        CHECK(ferry_ala_write(c, &out, &err) == FERRY_OK);
        if (out.size == size && memcmp(out.data, data, size) == 0) {
            t->round_identical++;
        } else {
            size_t changed = 0;
            CHECK_MSG(a->format == FERRY_ALA_FORMAT_2 && same_but_defaults(a, c, &changed),
                      "%s: format %d -> %d -> %d changes more than animated bones' default rotations", name,
                      a->format, (int)other, a->format);
            t->defaults_changed += changed;
        }
        ferry_buffer_free(&out);
    }
    ferry_ala_free(b);
    ferry_ala_free(c);
}

static size_t dir_length(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? (size_t)(s - path) : 0;
}

/* The animation's model by the library's naming rule (MODEL_NAME_00.ALA
 * belongs to MODEL.ALO, the longest model name winning), among the models
 * of its own folder. The spec's author's viewer and ferry's export attach an
 * animation only when every track's index names a bone of the track's name
 * (ferry_ala_model_misfits). Shipped animations that do not fit exist (a
 * death clone's animation beside the living model, animations made for an
 * earlier skeleton): the model check reports them as warnings only, never
 * errors (the engine loads them), and the test lists them. */
static void check_against_model(const ferry_ala_animation *a, const char *path, char **models, size_t model_count,
                                totals *t)
{
    const char **same_dir = malloc((model_count ? model_count : 1) * sizeof *same_dir);
    size_t n = 0, dl = dir_length(path);
    for (size_t i = 0; i < model_count; i++)
        if (dir_length(models[i]) == dl && strncmp(models[i], path, dl) == 0) same_dir[n++] = models[i];
    size_t k = ferry_ala_model_for(path, same_dir, n);
    if (k < n) {
        size_t size;
        uint8_t *data = test_read_file(same_dir[k], &size);
        ferry_alo_model *m = NULL;
        if (data && ferry_alo_read(data, size, NULL, &m, NULL) == FERRY_OK) {
            t->with_model++;
            ferry_diagnostics d;
            memset(&d, 0, sizeof d);
            size_t errors = ferry_ala_check_model(a, m, &d);
            char line[512];
            size_t misfits = ferry_ala_model_misfits(a, m, line, sizeof line);
            CHECK_MSG(errors == 0 && d.error_count == 0, "%s against %s: %zu errors", base_name(path),
                      base_name(same_dir[k]), errors);
            CHECK_MSG((misfits == 0) == (d.count == 0), "%s against %s: %zu misfits but %zu findings",
                      base_name(path), base_name(same_dir[k]), misfits, d.count);
            if (misfits) printf("does not fit: %s against %s: %s\n", base_name(path), base_name(same_dir[k]), line);
            t->model_clean += misfits == 0;
            ferry_diagnostics_free(&d);
            ferry_alo_free(m);
        }
        free(data);
    }
    free(same_dir);
}

/* ---- hostile input ---- */

typedef struct spot {
    size_t offset;
    bool minis; /* a chunk whose body is mini-chunks */
    uint32_t size;
} spot;

typedef struct file_map {
    spot *chunks;
    size_t count, cap;
    size_t *minis;
    size_t mini_count, mini_cap;
} file_map;

static void map_list(const ferry_chunk *list, size_t n, file_map *m)
{
    for (size_t i = 0; i < n; i++) {
        const ferry_chunk *c = &list[i];
        if (m->count == m->cap) {
            m->cap = m->cap ? m->cap * 2 : 128;
            m->chunks = realloc(m->chunks, m->cap * sizeof *m->chunks);
        }
        bool minis = !c->is_container && (c->type == FERRY_ALA_HEADER || c->type == FERRY_ALA_BONE_HEADER);
        m->chunks[m->count++] = (spot){(size_t)c->offset, minis, c->size};
        if (minis) {
            ferry_mini_chunk items[64];
            size_t count;
            if (ferry_alamo_mini_chunks_parse(c, items, 64, &count, NULL) == FERRY_OK)
                for (size_t k = 0; k < count && k < 64; k++) {
                    if (m->mini_count == m->mini_cap) {
                        m->mini_cap = m->mini_cap ? m->mini_cap * 2 : 256;
                        m->minis = realloc(m->minis, m->mini_cap * sizeof *m->minis);
                    }
                    m->minis[m->mini_count++] = (size_t)items[k].offset;
                }
        }
        if (c->is_container) map_list(c->children, c->child_count, m);
    }
}

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next_random(void) { return test_xorshift(&rng); }
static size_t below(size_t n) { return n ? (size_t)(next_random() % n) : 0; }

static void truncations(const char *name, const uint8_t *data, size_t size, const file_map *m)
{
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    uint8_t *cuts = calloc(size, 1);
    if (size < EVERY_BYTE_BELOW)
        memset(cuts, 1, size);
    else
        for (size_t i = 0; i < EVEN_POINTS; i++) cuts[(size_t)((double)i * (double)size / EVEN_POINTS)] = 1;
    for (size_t i = 0; i < m->count; i++) {
        size_t marks[3] = {m->chunks[i].offset, m->chunks[i].offset + 8, m->chunks[i].offset + 8 + m->chunks[i].size};
        for (int k = 0; k < 3; k++)
            for (int d = -3; d <= 3; d++)
                if ((long long)marks[k] + d >= 0 && marks[k] + (size_t)d < size) cuts[marks[k] + (size_t)d] = 1;
    }
    for (size_t cut = 0; cut < size; cut++) {
        if (!cuts[cut]) continue;
        stat_truncations++;
        POISON(buf + cut, size - cut);
        ferry_ala_animation *a = NULL;
        ferry_error err;
        ferry_result rc = ferry_ala_read(buf, cut, NULL, &a, &err);
        UNPOISON(buf + cut, size - cut);
        char text[512];
        ferry_error_format(&err, text, sizeof text);
        /* Real files are one 0x1000 chunk: any cut falls inside it. */
        CHECK_MSG(rc == FERRY_ERR_TRUNCATED && err.offset == 0 && strcmp(err.path, cut >= 8 ? "0x1000" : "") == 0,
                  "%s: cut at %zu: expected truncated at 0 in 0x1000, got %s (%s)", name, cut,
                  ferry_result_name(err.code), text);
        ferry_ala_free(a);
    }
    free(cuts);
    free(buf);
}

static void touch_u32(uint8_t *buf, size_t at, uint32_t v, size_t *spots, size_t *n)
{
    for (int i = 0; i < 4; i++) {
        buf[at + (size_t)i] = (uint8_t)(v >> (8 * i));
        spots[(*n)++] = at + (size_t)i;
    }
}

static uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* One corruption, mostly of the bytes that steer parsing. Records the
 * bytes touched in spots (at most 8). */
static void corrupt(uint8_t *buf, size_t size, const file_map *m, size_t *spots, size_t *n)
{
    static const uint32_t types[] = {0x1000, 0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1006,
                                     0x1007, 0x1008, 0x1009, 0x100a, 0x100b, 0x200,  0x7777};
    const spot *c = &m->chunks[below(m->count)];
    size_t mini = m->mini_count ? m->minis[below(m->mini_count)] : 0;
    switch (below(9)) {
    case 0: {
        size_t at = below(size);
        buf[at] ^= (uint8_t)(1u << below(8));
        spots[(*n)++] = at;
        break;
    }
    case 1:
        for (int i = 0; i < 3; i++) {
            size_t at = below(size);
            buf[at] = (uint8_t)next_random();
            spots[(*n)++] = at;
        }
        break;
    case 2: touch_u32(buf, c->offset + 4, load_u32(buf + c->offset + 4) ^ (1u << below(32)), spots, n); break;
    case 3: touch_u32(buf, c->offset + 4, load_u32(buf + c->offset + 4) ^ FERRY_CHUNK_CONTAINER_BIT, spots, n); break;
    case 4: touch_u32(buf, c->offset, types[below(sizeof types / sizeof types[0])], spots, n); break;
    case 5: {
        uint32_t raw = load_u32(buf + c->offset + 4);
        uint32_t d = (uint32_t)(1 + below(8));
        touch_u32(buf, c->offset + 4, (next_random() & 1) ? raw + d : raw - d, spots, n);
        break;
    }
    case 6:
        if (!m->mini_count) break;
        buf[mini + 1] = (next_random() & 1) ? (uint8_t)(buf[mini + 1] + 1) : (uint8_t)next_random();
        spots[(*n)++] = mini + 1;
        break;
    case 7:
        if (!m->mini_count) break;
        buf[mini] = (uint8_t)below(20);
        spots[(*n)++] = mini;
        break;
    default: /* a mini-chunk's value: counts, strides, indices */
        if (!m->mini_count || mini + 2 >= size) break;
        static const uint8_t picks[] = {0x00, 0xFF, 0x7F, 0x80, 0x01};
        buf[mini + 2] = picks[below(sizeof picks)];
        spots[(*n)++] = mini + 2;
        if (mini + 3 < size) {
            buf[mini + 3] = picks[below(sizeof picks)];
            spots[(*n)++] = mini + 3;
        }
        break;
    }
}

static void corruptions(const char *name, const uint8_t *data, size_t size, const file_map *m)
{
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    for (int trial = 0; trial < FLIPS_PER_FILE; trial++) {
        size_t spots[16], n = 0;
        corrupt(buf, size, m, spots, &n);
        stat_flips++;
        ferry_ala_animation *a = NULL;
        ferry_error err;
        ferry_result rc = ferry_ala_read(buf, size, NULL, &a, &err);
        if (rc != FERRY_OK) {
            char text[512];
            ferry_error_format(&err, text, sizeof text);
            CHECK_MSG(located(&err, size), "%s: corruption %d: unlocated error: %s", name, trial, text);
            CHECK_MSG(rc == FERRY_ERR_TRUNCATED || rc == FERRY_ERR_MALFORMED || rc == FERRY_ERR_UNSUPPORTED ||
                          rc == FERRY_ERR_LIMIT,
                      "%s: corruption %d: unexpected %s", name, trial, ferry_result_name(rc));
        } else {
            stat_flip_read++;
            ferry_buffer out = {0};
            CHECK(ferry_ala_write(a, &out, &err) == FERRY_OK);
            CHECK_MSG(out.size == size && memcmp(out.data, buf, size) == 0,
                      "%s: corruption %d reads but does not write back byte-identical", name, trial);
            ferry_buffer_free(&out);
            ferry_diagnostics d;
            memset(&d, 0, sizeof d);
            CHECK(ferry_ala_validate(a, NULL, &d) == d.error_count);
            for (size_t i = 0; i < d.count; i++)
                CHECK_MSG(d.items[i].offset == FERRY_NO_OFFSET || d.items[i].offset < size,
                          "%s: corruption %d: diagnostic outside the file", name, trial);
            ferry_diagnostics_free(&d);
            ferry_ala_animation *c = NULL;
            ferry_ala_format other = a->format == FERRY_ALA_FORMAT_1 ? FERRY_ALA_FORMAT_2 : FERRY_ALA_FORMAT_1;
            if (a->frame_count <= 4096 && ferry_ala_convert(a, other, NULL, &c, &err) == FERRY_OK) {
                stat_flip_converted++;
                for (size_t bone = 0; bone < a->bone_count && bone < 16; bone++)
                    for (uint32_t f = 0; f < a->frame_count && f < 16; f++) {
                        ferry_ala_pose p, q;
                        ferry_ala_sample(a, bone, f + 0.5, FERRY_ALA_CLAMP, &p);
                        ferry_ala_sample(c, bone, f + 0.5, FERRY_ALA_CLAMP, &q);
                        CHECK_MSG(test_poses_equal(&p, &q), "%s: corruption %d: converted pose differs", name, trial);
                    }
                ferry_ala_free(c);
            }
            ferry_ala_free(a);
        }
        for (size_t i = 0; i < n; i++) buf[spots[i]] = data[spots[i]];
    }
    free(buf);
}

int main(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/alamo";
    if (!test_dir_exists(dir)) TEST_SKIP("%s is absent: real-file tests not run", dir);
    char **paths, **models;
    size_t n = test_list_files(dir, ".ala", &paths);
    size_t model_count = test_list_files(dir, ".alo", &models);
    totals t;
    memset(&t, 0, sizeof t);
    size_t large_seen = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = base_name(paths[i]);
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK(data != NULL);
        if (!data) continue;
        t.files++;
        ferry_read_options tight = {4 * size + 64 * 1024};
        ferry_ala_animation *a = NULL;
        ferry_error err;
        ferry_result rc = ferry_ala_read(data, size, &tight, &a, &err);
        char msg[512];
        ferry_error_format(&err, msg, sizeof msg);
        CHECK_MSG(rc == FERRY_OK, "%s: %s", name, msg);
        if (rc != FERRY_OK) {
            free(data);
            continue;
        }
        t.formats[a->format < 3 ? a->format : 0]++;
        ferry_buffer out = {0};
        CHECK(ferry_ala_write(a, &out, &err) == FERRY_OK);
        bool same = out.size == size && memcmp(out.data, data, size) == 0;
        CHECK_MSG(same, "%s: rewrite differs", name);
        t.identical += same;
        ferry_buffer_free(&out);

        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        size_t errors = ferry_ala_validate(a, NULL, &d);
        CHECK_MSG(errors == 0, "%s: %zu validation errors, first: %s", name, errors, d.count ? d.items[0].message : "");
        t.clean += d.count == 0;
        t.warnings += d.warning_count;
        ferry_diagnostics_free(&d);

        convert_file(a, data, size, name, &t);
        bool large = strstr(paths[i], LARGE_CORPUS) != NULL;
        check_against_model(a, paths[i], models, model_count, &t);

        /* The bad-input campaign: every file of the small corpora, every
         * CAMPAIGN_EVERY-th of the large one (in sorted order: the same
         * files every run). */
        bool campaign = !large || large_seen++ % CAMPAIGN_EVERY == 0;
        ferry_chunk_tree *tree;
        file_map m;
        memset(&m, 0, sizeof m);
        if (campaign && ferry_alamo_chunk_read(data, size, NULL, &tree, NULL) == FERRY_OK) {
            t.campaigned++;
            map_list(tree->roots, tree->root_count, &m);
            ferry_alamo_chunk_free(tree);
            truncations(name, data, size, &m);
            corruptions(name, data, size, &m);
        }
        free(m.chunks);
        free(m.minis);
        ferry_ala_free(a);
        free(data);
    }
    printf("%zu animations (%zu format 1, %zu format 2), %zu rewritten byte-identically, %zu validate without "
           "findings (%zu warnings)\n",
           t.files, t.formats[1], t.formats[2], t.identical, t.clean, t.warnings);
    printf("converted %zu to the other format and back: %zu poses compared, all equal; %zu round trips "
           "byte-identical, the others differ only in %zu animated bones' default rotations\n",
           t.converted, t.poses, t.round_identical, t.defaults_changed);
    printf("%zu animations checked against their model, %zu without findings\n", t.with_model, t.model_clean);
    printf("bad input on %zu of the %zu animations (every file outside %s, every %dth inside): %zu truncations, "
           "%zu corruptions (%zu still read and wrote back, %zu of those converted with equal poses)\n",
           t.campaigned, t.files, LARGE_CORPUS, CAMPAIGN_EVERY, stat_truncations, stat_flips, stat_flip_read,
           stat_flip_converted);
    CHECK(t.files > 0);
    test_free_paths(paths, n);
    test_free_paths(models, model_count);
    TEST_END();
}
