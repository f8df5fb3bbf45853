/* Hostile ALA input without the corpus: hand-made files (everything the
 * corpus lacks: scale blocks, step bits, unknown chunks and mini-chunks at
 * every level, a string tail, a second mini 17) read typed and write back
 * byte for byte; broken variants fail with exact offsets and chunk paths;
 * and every truncation and thousands of corruptions of them give a located
 * error or an animation that writes back, converts with the same poses and
 * validates consistently. The corpus files get the same in test_ala_corpus.c. */
#include <ferry/ala.h>

#include "support.h"
#include "bytes.h"
#include "test.h"

#define EPS 1e-5
#define SQRT_HALF 0.70710678118654752

static void check_pose(const char *what, const ferry_ala_pose *p, const double t[3], const double s[3],
                       const double r[4], int visible)
{
    for (int k = 0; k < 3; k++) {
        CHECK_MSG(fabs(p->translation[k] - t[k]) <= EPS, "%s: translation[%d] %.7g, expected %.7g", what, k,
                  (double)p->translation[k], t[k]);
        CHECK_MSG(fabs(p->scale[k] - s[k]) <= EPS, "%s: scale[%d] %.7g, expected %.7g", what, k, (double)p->scale[k],
                  s[k]);
    }
    /* q and -q are one rotation; the sampler may return either sign. */
    double dot = 0;
    for (int k = 0; k < 4; k++) dot += p->rotation[k] * r[k];
    CHECK_MSG(fabs(fabs(dot) - 1) <= EPS, "%s: rotation (%.6f %.6f %.6f %.6f), expected (%.6f %.6f %.6f %.6f)", what,
              (double)p->rotation[0], (double)p->rotation[1], (double)p->rotation[2], (double)p->rotation[3], r[0],
              r[1], r[2], r[3]);
    if (visible < 0) {
        CHECK_MSG(!p->has_visibility, "%s: expected no visibility", what);
    } else {
        CHECK_MSG(p->has_visibility && p->visible == (visible != 0), "%s: visibility %d/%d, expected %d", what,
                  p->has_visibility, p->visible, visible);
    }
}


static size_t count_rule(const ferry_diagnostics *d, const char *rule, ferry_severity severity)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += strcmp(d->items[i].rule, rule) == 0 && d->items[i].severity == severity;
    return n;
}

static void expect_rule(const ferry_ala_animation *a, const char *what, const char *rule, ferry_severity severity)
{
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_ala_validate(a, NULL, &d);
    CHECK_MSG(count_rule(&d, rule, severity) >= 1, "%s: expected a %s '%s'", what,
              severity == FERRY_SEVERITY_ERROR ? "error" : "warning", rule);
    CHECK_EQ_U(errors, d.error_count);
    for (size_t i = 0; i < d.count; i++) CHECK(d.items[i].message[0] && d.items[i].rule[0]);
    ferry_diagnostics_free(&d);
}


/* ---- hand-made bytes ---- */

static size_t mini_u32(bytes *b, uint8_t type, uint32_t v)
{
    size_t at = b->size;
    put_u8(b, type);
    put_u8(b, 4);
    put_u32(b, v);
    return at;
}
static void mini_f3(bytes *b, uint8_t type, float x, float y, float z)
{
    const float f[3] = {x, y, z};
    put_u8(b, type);
    put_u8(b, 12);
    for (int i = 0; i < 3; i++) {
        uint32_t u;
        memcpy(&u, &f[i], 4);
        put_u32(b, u);
    }
}
static size_t mini_i16(bytes *b, uint8_t type, int16_t v)
{
    size_t at = b->size;
    put_u8(b, type);
    put_u8(b, 2);
    put_u16(b, (uint16_t)v);
    return at;
}
static size_t mini_q(bytes *b, uint8_t type, uint8_t size, const int16_t q[4])
{
    size_t at = b->size;
    put_u8(b, type);
    put_u8(b, size);
    for (int i = 0; i < size / 2; i++) put_u16(b, (uint16_t)q[i % 4]);
    return at;
}

/* A format-2 file exercising everything the corpus lacks (scale blocks,
 * steps, unknown chunks and mini-chunks at every level, a string tail, a
 * second mini 17), with knobs that break it. */
typedef struct knobs {
    bool stated_bones;  /* header mini 3 */
    uint32_t bones;     /* its value */
    bool stride13;      /* header mini 13 */
    bool mini17;        /* bone 0's default rotation */
    uint8_t mini17_size;
    bool name_nul;      /* bone 1's name ends inside its mini-chunk */
    uint32_t rot_extra; /* bytes after the rotation blocks */
    bool bone1_header;  /* bone 1 has its 0x1003 */
    bool bone1_container;
    uint8_t frames_size; /* size byte of header mini 1 */
    bool format1_track;  /* bone 1 also holds a format-1 0x1004 */
    bool second17;       /* bone 0 has a second mini 17 (an unknown one) */
} knobs;

static knobs good_knobs(void)
{
    knobs k = {true, 2, true, true, 8, true, 0, true, true, 4, false, true};
    return k;
}

typedef struct where {
    size_t c1000, c1001, frames_mini, c1002a, c1003a, mini17, c1002b, c1003b, name_b, c100a, c100b, c1009, c7777;
} where;

static bytes build_f2_bytes(const knobs *k, where *w)
{
    bytes b = {0};
    where dummy;
    if (!w) w = &dummy;
    memset(w, 0, sizeof *w);
    const int16_t ident[4] = {0, 0, 0, 32767}, z90[4] = {0, 0, 23170, 23170};
    w->c1000 = begin(&b, FERRY_ALA_ANIMATION);
    w->c1001 = begin(&b, FERRY_ALA_HEADER);
    w->frames_mini = b.size;
    put_u8(&b, 1);
    put_u8(&b, k->frames_size);
    for (int i = 0; i < k->frames_size; i++) put_u8(&b, i == 0 ? 2 : 0);
    put_u8(&b, 2);
    put_u8(&b, 4);
    put_u32(&b, 0x41F00000u); /* 30.0f */
    if (k->stated_bones) mini_u32(&b, 3, k->bones);
    mini_u32(&b, 0x30, 0xDEADBEEF); /* unknown */
    mini_u32(&b, 11, 4);
    mini_u32(&b, 12, 3);
    if (k->stride13) mini_u32(&b, 13, 3);
    end(&b, w->c1001, false);
    size_t c = begin(&b, 0x1abc); /* unknown data chunk */
    put_u32(&b, 7);
    end(&b, c, false);

    w->c1002a = begin(&b, FERRY_ALA_BONE);
    w->c1003a = begin(&b, FERRY_ALA_BONE_HEADER);
    put_u8(&b, 4);
    put_u8(&b, 5);
    put(&b, "Base", 5);
    mini_u32(&b, 5, 0);
    mini_u32(&b, 0x40, 1); /* unknown, between 5 and 10 */
    mini_u32(&b, 10, 0);
    mini_f3(&b, 6, 0, 0, 0);
    mini_f3(&b, 7, 1, 1, 1);
    mini_f3(&b, 8, 1, 1, 1);
    mini_f3(&b, 9, 0.5f, 0.5f, 0.5f);
    mini_i16(&b, 14, 0);
    mini_i16(&b, 15, 0);
    mini_i16(&b, 16, 0);
    if (k->mini17) w->mini17 = mini_q(&b, 17, k->mini17_size, ident);
    if (k->second17) mini_q(&b, 17, 8, z90); /* a second one: kept as it is */
    end(&b, w->c1003a, false);
    c = begin(&b, FERRY_ALA_VISIBILITY);
    put_u8(&b, 0x01);
    end(&b, c, false);
    c = begin(&b, FERRY_ALA_STEPS);
    put_u8(&b, 0x01);
    end(&b, c, false);
    c = begin(&b, 0x1fff); /* unknown container */
    size_t inner = begin(&b, 0x1);
    end(&b, inner, false);
    end(&b, c, true);
    end(&b, w->c1002a, true);

    w->c1002b = begin(&b, FERRY_ALA_BONE);
    if (k->bone1_header) {
        w->c1003b = begin(&b, FERRY_ALA_BONE_HEADER);
        w->name_b = b.size;
        put_u8(&b, 4);
        put_u8(&b, k->name_nul ? 8 : 3);
        put(&b, k->name_nul ? "Tip\0tail" : "Tip", k->name_nul ? 8 : 3);
        mini_u32(&b, 5, 1);
        mini_u32(&b, 10, 1);
        mini_f3(&b, 6, 0, 2, 0);
        mini_f3(&b, 7, 0, 0, 0);
        mini_f3(&b, 8, 1, 1, 1);
        mini_f3(&b, 9, 0, 0, 0);
        mini_i16(&b, 14, -1);
        mini_i16(&b, 15, -1);
        mini_i16(&b, 16, -1);
        mini_q(&b, 17, 8, z90);
        end(&b, w->c1003b, false);
    }
    if (k->format1_track) {
        c = begin(&b, FERRY_ALA_TRANSLATIONS);
        put_u16(&b, 1);
        put_u16(&b, 2);
        put_u16(&b, 3);
        end(&b, c, false);
    }
    end(&b, w->c1002b, k->bone1_container);

    /* Two frames: translations (0,0,0) (2,4,6), scales (0,0,0) (2,2,2),
     * rotations identity then 90 deg about z. */
    w->c100a = begin(&b, FERRY_ALA_FRAME_TRANSLATIONS);
    const uint16_t t[6] = {0, 0, 0, 2, 4, 6};
    for (int i = 0; i < 6; i++) put_u16(&b, t[i]);
    end(&b, w->c100a, false);
    w->c100b = begin(&b, FERRY_ALA_FRAME_SCALES);
    for (int i = 0; i < 6; i++) put_u16(&b, i < 3 ? 0 : 2);
    end(&b, w->c100b, false);
    w->c1009 = begin(&b, FERRY_ALA_FRAME_ROTATIONS);
    for (int i = 0; i < 4; i++) put_u16(&b, (uint16_t)ident[i]);
    for (int i = 0; i < 4; i++) put_u16(&b, (uint16_t)z90[i]);
    for (uint32_t i = 0; i < k->rot_extra; i++) put_u8(&b, 0);
    end(&b, w->c1009, false);
    end(&b, w->c1000, true);
    w->c7777 = begin(&b, 0x7777); /* unknown root */
    put_u32(&b, 1);
    end(&b, w->c7777, false);
    return b;
}

static void expect_error(const char *name, const uint8_t *data, size_t size, const ferry_read_options *opts,
                         ferry_result code, uint64_t offset, const char *path)
{
    ferry_ala_animation *a = NULL;
    ferry_error err;
    ferry_result rc = ferry_ala_read(data, size, opts, &a, &err);
    char text[512];
    ferry_error_format(&err, text, sizeof text);
    CHECK_MSG(rc == code && err.code == code, "%s: expected %s, got %s: %s", name, ferry_result_name(code),
              ferry_result_name(err.code), text);
    CHECK_MSG(err.offset == offset, "%s: expected offset %llu, got %s", name, (unsigned long long)offset, text);
    CHECK_MSG(strcmp(err.path, path) == 0, "%s: expected path \"%s\", got \"%s\"", name, path, err.path);
    CHECK(a == NULL);
    ferry_ala_free(a);
}

static void test_hand_made_bytes(void)
{
    knobs k = good_knobs();
    where w;
    bytes good = build_f2_bytes(&k, &w);
    ferry_ala_animation *a = NULL;
    ferry_error err;
    CHECK_MSG(ferry_ala_read(good.data, good.size, NULL, &a, &err) == FERRY_OK, "hand-made: %s", err.message);
    if (a) {
        CHECK(a->format == FERRY_ALA_FORMAT_2 && a->frame_count == 2 && a->fps == 30 && a->bone_count == 2);
        CHECK(a->scale_stride == 3 && a->frame_scale_count == 6 && a->frame_scales[3] == 2);
        CHECK(a->bones[0].has_steps && a->bones[0].steps[0] == 1 && a->bones[0].visibility[0] == 1);
        CHECK(a->bones[1].translation_index == -1 && a->bones[1].default_rotation[2] == 23170);
        CHECK(a->bones[0].default_rotation[3] == 32767 && a->bones[0].header_layout.unknown_count == 2);
        CHECK(strcmp(a->bones[1].name, "Tip") == 0 && a->string_tail_count == 1);
        CHECK(a->layout.unknown_count == 1 && a->file_layout.unknown_count == 1 &&
              a->bones[0].layout.unknown_count == 1);
        CHECK(a->bones[0].source.steps != FERRY_NO_OFFSET && a->frame_scales_offset == w.c100b);
        ferry_ala_pose p;
        ferry_ala_sample(a, 0, 0.5, FERRY_ALA_CLAMP, &p); /* step bit on frame 0: holds */
        const double t0[3] = {0, 0, 0}, s0[3] = {1, 1, 1}, id[4] = {0, 0, 0, 1};
        check_pose("hand-made f2 step", &p, t0, s0, id, 1);
        ferry_ala_sample(a, 0, 1, FERRY_ALA_CLAMP, &p);
        const double t1[3] = {2, 4, 6}, s1[3] = {2, 2, 2}, z90[4] = {0, 0, SQRT_HALF, SQRT_HALF};
        check_pose("hand-made f2 frame 1", &p, t1, s1, z90, 0);
        ferry_buffer out = {0};
        CHECK(ferry_ala_write(a, &out, &err) == FERRY_OK);
        CHECK_MSG(out.size == good.size && memcmp(out.data, good.data, good.size) == 0,
                  "hand-made format 2 does not write back byte-identical");
        ferry_buffer_free(&out);
        ferry_ala_free(a);
        /* Unknowns and the tail survive both conversions (a second mini 17
         * would become format 1's only one, and so the default). */
        knobs plain = good_knobs();
        plain.second17 = false;
        free(good.data);
        good = build_f2_bytes(&plain, &w);
        a = NULL;
        CHECK(ferry_ala_read(good.data, good.size, NULL, &a, &err) == FERRY_OK);
        ferry_ala_animation *one = NULL, *two = NULL;
        if (a) CHECK(ferry_ala_convert(a, FERRY_ALA_FORMAT_1, NULL, &one, &err) == FERRY_OK);
        if (one) CHECK(ferry_ala_convert(one, FERRY_ALA_FORMAT_2, NULL, &two, &err) == FERRY_OK);
        if (two) {
            CHECK(one->bones[0].translation_count == 2 && one->bones[0].scale_count == 2 &&
                  one->bones[1].rotation_count == 1);
            CHECK(two->string_tail_count == 1 && two->layout.unknown_count == 1 &&
                  two->bones[0].header_layout.unknown_count == 1 && two->file_layout.unknown_count == 1);
            ferry_buffer back = {0};
            CHECK(ferry_ala_write(two, &back, &err) == FERRY_OK);
            CHECK_MSG(back.size == good.size && memcmp(back.data, good.data, good.size) == 0,
                      "hand-made format 2 -> 1 -> 2 differs");
            ferry_buffer_free(&back);
        }
        ferry_ala_free(one);
        ferry_ala_free(two);
        ferry_ala_free(a);
    }

    /* numBones that disagrees: read, kept, written back, reported. */
    k = good_knobs();
    k.bones = 5;
    bytes b = build_f2_bytes(&k, NULL);
    a = NULL;
    CHECK(ferry_ala_read(b.data, b.size, NULL, &a, &err) == FERRY_OK);
    if (a) {
        CHECK(a->bone_count_mismatch && a->stated_bone_count == 5);
        ferry_buffer out = {0};
        CHECK(ferry_ala_write(a, &out, &err) == FERRY_OK && out.size == b.size && !memcmp(out.data, b.data, b.size));
        ferry_buffer_free(&out);
        expect_rule(a, "numBones 5 read", "bone-count", FERRY_SEVERITY_ERROR);
        ferry_ala_free(a);
    }
    free(b.data);

    /* Located errors. */
    struct {
        const char *name;
        knobs k;
        ferry_result code;
        int at; /* which offset of `where` */
        const char *path;
    } cases[] = {
        {"header without numBones", good_knobs(), FERRY_ERR_MALFORMED, 1, "0x1000/0x1001"},
        {"format-2 header without mini 13", good_knobs(), FERRY_ERR_MALFORMED, 1, "0x1000/0x1001"},
        {"format-2 bone without mini 17", good_knobs(), FERRY_ERR_MALFORMED, 3, "0x1000/0x1002/0x1003"},
        {"mini 17 of 6 bytes", good_knobs(), FERRY_ERR_MALFORMED, 4, "0x1000/0x1002/0x1003"},
        {"name without NUL", good_knobs(), FERRY_ERR_MALFORMED, 5, "0x1000/0x1002/0x1003"},
        {"odd rotation blocks", good_knobs(), FERRY_ERR_MALFORMED, 6, "0x1000/0x1009"},
        {"bone without header", good_knobs(), FERRY_ERR_MALFORMED, 7, "0x1000/0x1002"},
        {"bone as data", good_knobs(), FERRY_ERR_MALFORMED, 7, "0x1000/0x1002"},
        {"frame count of 2 bytes", good_knobs(), FERRY_ERR_MALFORMED, 8, "0x1000/0x1001"},
    };
    cases[0].k.stated_bones = false;
    cases[1].k.stride13 = false;
    cases[2].k.mini17 = cases[2].k.second17 = false;
    cases[3].k.mini17_size = 6;
    cases[4].k.name_nul = false;
    cases[5].k.rot_extra = 1;
    cases[6].k.bone1_header = false;
    cases[7].k.bone1_container = false;
    cases[8].k.frames_size = 2;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        b = build_f2_bytes(&cases[i].k, &w);
        size_t offsets[9] = {0, w.c1001, 0, w.c1003a, w.mini17, w.name_b + 2, w.c1009, w.c1002b, w.frames_mini};
        expect_error(cases[i].name, b.data, b.size, NULL, cases[i].code, offsets[cases[i].at], cases[i].path);
        free(b.data);
    }

    /* The chunk tree's own errors, the root, and a model file. */
    b = build_f2_bytes(&k, &w);
    set_u32(b.data + w.c100b + 4, 0x7FFFFFF0u);
    expect_error("0x100b overruns", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c100b, "0x1000/0x100b");
    free(b.data);
    b = build_f2_bytes(&k, &w);
    b.data[w.c1001 + 8 + 7] = 200; /* mini 2's size byte */
    expect_error("mini overruns 0x1001", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c1001 + 8 + 6, "0x1000/0x1001");
    free(b.data);
    b = build_f2_bytes(&k, &w);
    set_u32(b.data + w.c1000, 0x1234);
    expect_error("no 0x1000", b.data, b.size, NULL, FERRY_ERR_MALFORMED, 0, "");
    set_u32(b.data + w.c1000, 0x200);
    expect_error("a model", b.data, b.size, NULL, FERRY_ERR_UNSUPPORTED, 0, "");
    free(b.data);
    b = build_f2_bytes(&k, &w);
    ferry_read_options tiny = {256};
    ferry_ala_animation *none = NULL;
    CHECK(ferry_ala_read(b.data, b.size, &tiny, &none, &err) == FERRY_ERR_LIMIT && none == NULL);
    expect_error("empty input", b.data, 0, NULL, FERRY_ERR_TRUNCATED, 0, "");
    free(b.data);
    /* A format-1 track in a format-2 file: kept, written back, not sampled. */
    k = good_knobs();
    k.format1_track = true;
    b = build_f2_bytes(&k, NULL);
    a = NULL;
    CHECK(ferry_ala_read(b.data, b.size, NULL, &a, &err) == FERRY_OK);
    if (a) {
        CHECK(a->bones[1].translation_count == 1);
        ferry_buffer out = {0};
        CHECK(ferry_ala_write(a, &out, &err) == FERRY_OK && out.size == b.size && !memcmp(out.data, b.data, b.size));
        ferry_buffer_free(&out);
        expect_rule(a, "format-1 track read in format 2", "format-mixed", FERRY_SEVERITY_WARNING);
        ferry_ala_pose p;
        ferry_ala_sample_frame(a, 1, 0, &p);
        CHECK(p.translation[1] == 2);
        ferry_ala_free(a);
    }
    free(b.data);
    free(good.data);
}

/* ---- every truncation, many corruptions ---- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) { return test_xorshift(&rng); }

static void hostile(const char *name, const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    for (size_t cut = 0; cut < size; cut++) {
        POISON(buf + cut, size - cut);
        ferry_ala_animation *a = NULL;
        ferry_error err;
        ferry_result rc = ferry_ala_read(buf, cut, NULL, &a, &err);
        UNPOISON(buf + cut, size - cut);
        if (rc == FERRY_OK) {
            /* Only whole root chunks may go: the unknown one at the end. */
            ferry_ala_free(a);
            continue;
        }
        CHECK_MSG(err.offset != FERRY_NO_OFFSET && err.offset <= cut && err.message[0],
                  "%s cut at %zu: unlocated error: %s", name, cut, err.message);
    }
    for (int trial = 0; trial < 4000; trial++) {
        size_t n = 1 + next_random() % 3, at[3];
        for (size_t i = 0; i < n; i++) {
            at[i] = next_random() % size;
            buf[at[i]] = (uint8_t)next_random();
        }
        ferry_ala_animation *a = NULL;
        ferry_error err;
        if (ferry_ala_read(buf, size, NULL, &a, &err) != FERRY_OK) {
            CHECK_MSG(err.offset != FERRY_NO_OFFSET && err.offset <= size, "%s flip %d: unlocated: %s", name, trial,
                      err.message);
        } else {
            ferry_buffer out = {0};
            CHECK(ferry_ala_write(a, &out, &err) == FERRY_OK);
            CHECK_MSG(out.size == size && memcmp(out.data, buf, size) == 0, "%s flip %d: not written back", name,
                      trial);
            ferry_buffer_free(&out);
            ferry_diagnostics d;
            memset(&d, 0, sizeof d);
            CHECK(ferry_ala_validate(a, NULL, &d) == d.error_count);
            ferry_diagnostics_free(&d);
            ferry_ala_pose poses[8];
            if (a->bone_count <= 8) ferry_ala_sample_all(a, 0.7, FERRY_ALA_LOOP, poses);
            ferry_ala_animation *c = NULL;
            if (ferry_ala_convert(a, a->format == 1 ? FERRY_ALA_FORMAT_2 : FERRY_ALA_FORMAT_1, NULL, &c, &err) ==
                FERRY_OK) {
                for (size_t bone = 0; bone < a->bone_count; bone++)
                    for (uint32_t f = 0; f < a->frame_count && f < 8; f++) {
                        ferry_ala_pose p, q;
                        ferry_ala_sample_frame(a, bone, f, &p);
                        ferry_ala_sample_frame(c, bone, f, &q);
                        CHECK_MSG(test_poses_equal(&p, &q), "%s flip %d: converted pose differs", name, trial);
                    }
                ferry_ala_free(c);
            }
            ferry_ala_free(a);
        }
        for (size_t i = 0; i < n; i++) buf[at[i]] = data[at[i]];
    }
    free(buf);
}

static void test_hostile(void)
{
    knobs k = good_knobs();
    bytes b = build_f2_bytes(&k, NULL);
    hostile("hand-made format 2", b.data, b.size);
    ferry_ala_animation *a = NULL;
    ferry_error err;
    if (ferry_ala_read(b.data, b.size, NULL, &a, &err) == FERRY_OK) {
        ferry_buffer one = {0};
        if (ferry_ala_write_format(a, FERRY_ALA_FORMAT_1, &one, &err) == FERRY_OK)
            hostile("hand-made format 1", one.data, one.size);
        ferry_buffer_free(&one);
        ferry_ala_free(a);
    }
    free(b.data);
}

int main(void)
{
    test_hand_made_bytes();
    test_hostile();
    TEST_END();
}
