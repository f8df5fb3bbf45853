/* Particle systems without real files: bytes built here (with knobs that
 * break them, for exact error expectations), systems built through the
 * structs, round trips and validation rules. Evaluation is tested in
 * test_particle_eval.c, real files in test_particle_corpus.c. */
#include <ferry/particle.h>

#include "formats/alamo/particle_tables.h"
#include "bytes.h"
#include "test.h"

/* ---- byte builder ---- */

static size_t string_chunk(bytes *b, uint32_t type, const char *s, bool nul, const char *tail)
{
    size_t at = begin(b, type);
    put(b, s, strlen(s) + (nul ? 1 : 0));
    if (tail) put(b, tail, strlen(tail));
    end(b, at, false);
    return at;
}
static void mini_u8(bytes *b, uint8_t type, uint8_t v) { put(b, (uint8_t[]){type, 1, v}, 3); }
static void mini_u32(bytes *b, uint8_t type, uint32_t v) { put(b, (uint8_t[]){type, 4}, 2), put_u32(b, v); }
static void mini_f32(bytes *b, uint8_t type, float v) { put(b, (uint8_t[]){type, 4}, 2), put_f32(b, v); }

/* ---- a small system, byte by byte ---- */

typedef struct knobs {
    uint32_t root;        /* 0x900 */
    bool name_nul;        /* the system name ends with its NUL */
    uint32_t id_size;     /* 4 */
    int groups;           /* 0x1100 chunks per emitter: 3 */
    uint32_t group_size;  /* 0x1101 body: 64 */
    bool tracks_data;     /* 0x1 (tracks) without its container bit */
    int track_pairs;      /* 7 */
    uint8_t red_first_size; /* red header mini 02: 1 */
    uint8_t key_size;     /* first red key: 8 */
    uint8_t key_overrun;  /* added to that key's length byte */
    uint8_t inward_size;  /* property 0x09: 4 */
    uint32_t blend;       /* property 0x04 of emitter 0 */
    float red_key_time;   /* time of the second red key of emitter 0: 0.75 */
    int32_t death;        /* 0x37 of emitter 0: 1 */
    bool persistence, connections;
    bool extras; /* unknown chunks and mini-chunks, string tails, extra bytes */
} knobs;

static knobs good(void)
{
    knobs k = {0x900, true, 4, 3, 64, false, 7, 1, 8, 0, 4, 2, 0.75f, 1, true, true, true};
    return k;
}

typedef struct where {
    size_t c900, c0, c1, c800, c2;
    size_t c700[2], props[2], blend_mini, inward_mini, c29[2], c1101[2][3], tracks[2], header[7], keys[7];
    size_t red_key[2], c36[2];
} where;

static void group_data(bytes *b, const knobs *k, uint32_t type, const float min[3], const float max[3], float side,
                       float radius, float cyl_r, float cyl_h, const float val[3])
{
    bytes g = {0};
    put_u32(&g, type);
    for (int i = 0; i < 3; i++) put_f32(&g, min[i]);
    for (int i = 0; i < 3; i++) put_f32(&g, max[i]);
    put_f32(&g, side);
    put_f32(&g, radius);
    put_u32(&g, 0);
    put_f32(&g, cyl_r);
    put_u32(&g, 1);
    put_f32(&g, cyl_h);
    for (int i = 0; i < 3; i++) put_f32(&g, val[i]);
    if (k->extras) put_u32(&g, 0xDEADBEEF); /* kept, reported by validation */
    put(b, g.data, k->group_size < FERRY_PARTICLE_GROUP_DATA_SIZE ? k->group_size : g.size);
    free(g.data);
}

static void emitter(bytes *b, const knobs *k, where *w, int e)
{
    bool first = e == 0;
    w->c700[e] = begin(b, FERRY_PARTICLE_EMITTER);
    w->props[e] = begin(b, FERRY_PARTICLE_PROPERTIES);
    if (first) w->blend_mini = b->size;
    mini_u32(b, 0x04, first ? k->blend : 1);
    mini_u8(b, 0x07, 1);
    mini_u8(b, 0x43, 0); /* out of ascending order, as real files have it */
    if (first) w->inward_mini = b->size;
    put_u8(b, 0x09);
    put_u8(b, k->inward_size);
    for (int i = 0; i < k->inward_size; i++) put_u8(b, (uint8_t)(i == 3 ? 0x41 : 0)); /* 8.0f */
    mini_f32(b, 0x0f, 2.0f);
    mini_f32(b, 0x13, 0.25f);
    if (k->extras) mini_u32(b, 0x49, 0x314); /* unknown to the spec */
    mini_u32(b, 0x14, (uint32_t)e);
    mini_u32(b, 0x2f, 2);
    mini_u32(b, 0x34, 1);
    end(b, w->props[e], false);
    string_chunk(b, FERRY_PARTICLE_COLOR_TEXTURE, "p_particle_master.tga", true, NULL);
    string_chunk(b, FERRY_PARTICLE_EMITTER_NAME, first ? "glow" : "sparks", true, k->extras && first ? "xy" : NULL);

    w->c29[e] = begin(b, FERRY_PARTICLE_GROUPS);
    static const float zero[3] = {0, 0, 0}, lo[3] = {0, 1.5f, 0}, hi[3] = {0, 2, 0}, ones[3] = {1, 2, 3};
    for (int g = 0; g < k->groups; g++) {
        size_t c = begin(b, FERRY_PARTICLE_GROUP);
        w->c1101[e][g] = begin(b, FERRY_PARTICLE_GROUP_DATA);
        if (g == 0) group_data(b, k, FERRY_PARTICLE_GROUP_SPHERE, zero, zero, 0, 3, 0, 0, zero);
        if (g == 1) group_data(b, k, FERRY_PARTICLE_GROUP_BOX, lo, hi, 0, 0, 0, 0, hi);
        if (g == 2) group_data(b, k, FERRY_PARTICLE_GROUP_CYLINDER, zero, zero, 0, 0, 2, 5, ones);
        end(b, w->c1101[e][g], false);
        if (k->extras && g == 2) string_chunk(b, 0x1102, "kept", true, NULL);
        end(b, c, true);
    }
    end(b, w->c29[e], true);

    w->tracks[e] = begin(b, FERRY_PARTICLE_TRACKS);
    for (int t = 0; t < k->track_pairs; t++) {
        bool color = t < FERRY_PARTICLE_COLOR_TRACKS;
        size_t h = begin(b, FERRY_PARTICLE_TRACK_HEADER);
        if (first) w->header[t] = h;
        if (color) {
            put_u8(b, 2);
            put_u8(b, t == 0 ? k->red_first_size : 1);
            for (int i = 0; i < (t == 0 ? k->red_first_size : 1); i++) put_u8(b, 10);
            mini_u8(b, 3, 20);
        } else {
            mini_f32(b, 2, 1.0f);
            mini_f32(b, 3, 3.0f);
        }
        mini_u32(b, 4, t == FERRY_PARTICLE_TRACK_TEXTURE_INDEX ? FERRY_PARTICLE_STEP : FERRY_PARTICLE_LINEAR);
        end(b, h, false);
        size_t l = begin(b, FERRY_PARTICLE_TRACK_KEYS);
        if (first) w->keys[t] = l;
        if (t == 0) {
            if (first) w->red_key[0] = b->size;
            put_u8(b, 5);
            put_u8(b, (uint8_t)(k->key_size + k->key_overrun));
            put_u32(b, 255);
            put_f32(b, 0.25f);
            for (int i = 8; i < k->key_size; i++) put_u8(b, 0);
            if (first) w->red_key[1] = b->size;
            put_u8(b, 5);
            put_u8(b, 8);
            put_u32(b, 0);
            put_f32(b, first ? k->red_key_time : 0.75f);
            if (k->extras) mini_u8(b, 6, 9); /* an unknown mini-chunk among the keys */
        } else if (t == FERRY_PARTICLE_TRACK_SIZE) {
            put_u8(b, 5);
            put_u8(b, 8);
            put_f32(b, 2.0f);
            put_f32(b, 0.5f);
        }
        end(b, l, false);
    }
    end(b, w->tracks[e], !k->tracks_data);

    if (k->connections) {
        w->c36[e] = begin(b, FERRY_PARTICLE_CONNECTIONS);
        mini_u32(b, 0x37, (uint32_t)(first ? k->death : -1));
        mini_u32(b, 0x39, 0xFFFFFFFFu);
        end(b, w->c36[e], false);
    }
    string_chunk(b, FERRY_PARTICLE_SECONDARY_TEXTURE, "p_particle_depth_master.tga", true, NULL);
    if (k->extras) end(b, begin(b, 0x7777), false);
    end(b, w->c700[e], true);
}

static bytes build(const knobs *k, where *w)
{
    where dummy;
    if (!w) w = &dummy;
    memset(w, 0, sizeof *w);
    bytes b = {0};
    w->c900 = begin(&b, k->root);
    w->c0 = string_chunk(&b, FERRY_PARTICLE_NAME, "p_test", k->name_nul, NULL);
    w->c1 = begin(&b, FERRY_PARTICLE_ID);
    for (uint32_t i = 0; i < k->id_size; i++) put_u8(&b, (uint8_t)(i == 0 ? 7 : 0));
    end(&b, w->c1, false);
    w->c800 = begin(&b, FERRY_PARTICLE_EMITTERS);
    emitter(&b, k, w, 0);
    emitter(&b, k, w, 1);
    end(&b, w->c800, true);
    if (k->persistence) {
        w->c2 = begin(&b, FERRY_PARTICLE_PERSISTENCE);
        put_u8(&b, 1);
        if (k->extras) put_u8(&b, 0);
        end(&b, w->c2, false);
    }
    end(&b, w->c900, true);
    return b;
}

/* ---- reading helpers ---- */

static void expect_error(const char *name, const uint8_t *data, size_t size, const ferry_read_options *opts,
                         ferry_result code, uint64_t offset, const char *path)
{
    ferry_particle_system *s = NULL;
    ferry_error err;
    ferry_result rc = ferry_particle_read(data, size, opts, &s, &err);
    char line[512];
    ferry_error_format(&err, line, sizeof line);
    CHECK_MSG(rc == code && err.code == code, "%s: expected %s, got [%s] %s", name, ferry_result_name(code),
              ferry_result_name(err.code), line);
    CHECK_MSG(err.offset == offset, "%s: expected offset 0x%llx, got %s", name, (unsigned long long)offset, line);
    CHECK_MSG(strcmp(err.path, path) == 0, "%s: expected path \"%s\", got \"%s\"", name, path, err.path);
    CHECK(s == NULL && err.message[0]);
    ferry_particle_free(s);
}

static ferry_particle_system *read_ok(const char *name, const bytes *b)
{
    ferry_particle_system *s = NULL;
    ferry_error err;
    ferry_result rc = ferry_particle_read(b->data, b->size, NULL, &s, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: %s", name, err.message);
    return s;
}

static bool rewrites_same(const ferry_particle_system *s, const bytes *b)
{
    ferry_buffer out = {0};
    ferry_error err;
    bool same = ferry_particle_write(s, &out, &err) == FERRY_OK && out.size == b->size &&
                memcmp(out.data, b->data, b->size) == 0;
    ferry_buffer_free(&out);
    return same;
}

static size_t count_rule(const ferry_diagnostics *d, const char *rule, ferry_severity sev, uint64_t offset)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].rule, rule) == 0 && d->items[i].severity == sev &&
            (offset == FERRY_NO_OFFSET || d->items[i].offset == offset))
            n++;
    return n;
}

/* ---- the hand-made bytes: typed values, exact round trip, located rules ---- */

static void test_bytes(void)
{
    knobs k = good();
    where w;
    bytes b = build(&k, &w);
    ferry_particle_system *s = read_ok("hand-made", &b);
    if (!s) return;
    CHECK(strcmp(s->name, "p_test") == 0 && s->id == 7 && s->persistence == 1);
    CHECK(s->emitter_count == 2 && s->persistence_extra.size == 1 && s->id_extra.size == 0);
    const ferry_particle_emitter *e = &s->emitters[0];
    CHECK(strcmp(e->name, "glow") == 0 && strcmp(e->color_texture, "p_particle_master.tga") == 0);
    CHECK(strcmp(e->secondary_texture, "p_particle_depth_master.tga") == 0);
    CHECK(e->properties.blend_mode == 2 && e->properties.in_bursts == 1 && e->properties.inward_speed == 8.0f);
    CHECK(e->properties.lifetime == 2.0f && e->properties.randomized_lifetime == 0.25f);
    CHECK(ferry_particle_property_present(&e->properties, 0x43) && !ferry_particle_property_present(&e->properties, 0x11));
    CHECK(e->properties_layout.order_count == 10 && e->properties_layout.order[2] == 0x43);
    CHECK(e->properties_layout.unknown_count == 1 && e->properties_layout.unknown[0].type == 0x49);
    CHECK(e->groups[0].type == FERRY_PARTICLE_GROUP_SPHERE && e->groups[0].sphere_radius == 3);
    CHECK(e->groups[1].min[1] == 1.5f && e->groups[1].max[1] == 2 && e->groups[1].extra.size == 4);
    CHECK(e->groups[2].cylinder_surface == 1 && e->groups[2].layout.unknown_count == 1);
    CHECK(e->tracks[0].first_byte == 10 && e->tracks[0].last_byte == 20 && e->tracks[0].key_count == 2);
    CHECK(e->tracks[0].keys[0].int_value == 255 && e->tracks[0].keys[0].time == 0.25f);
    CHECK(e->tracks[0].keys[0].offset == w.red_key[0] && e->tracks[0].keys_layout.unknown_count == 1);
    CHECK(e->tracks[4].first == 1 && e->tracks[4].last == 3 && e->tracks[4].keys[0].value == 2);
    CHECK(e->tracks[5].interpolation == FERRY_PARTICLE_STEP);
    CHECK(e->death_emitter == 1 && e->birth_emitter == -1 && s->emitters[1].death_emitter == -1);
    CHECK(e->layout.unknown_count == 1 && e->layout.unknown[0].type == 0x7777);
    CHECK(s->string_tail_count == 1);
    CHECK(e->offset == w.c700[0] && e->properties_offset == w.props[0] && e->groups[1].data_offset == w.c1101[0][1]);
    CHECK_MSG(rewrites_same(s, &b), "hand-made bytes do not rewrite byte for byte");

    /* Validation locates each problem exactly; the file name ignores case. */
    ferry_particle_validate_options o = {"some/dir/P_TEST.alo", NULL, NULL};
    ferry_diagnostics d = {0};
    ferry_particle_validate(s, &o, &d);
    CHECK(count_rule(&d, "system-name", FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET) == 0);
    /* The extra bytes after the 64 of each 0x1101 (the knob 'extras'). */
    CHECK_EQ_U(count_rule(&d, "chunk-size", FERRY_SEVERITY_ERROR, w.c1101[0][0]), 1);
    CHECK_EQ_U(d.error_count, 2 * 3 + 1); /* 6 group sizes, the persistence chunk */
    ferry_diagnostics_free(&d);
    ferry_particle_free(s);
    free(b.data);

    k.extras = false;
    k.blend = 14;
    k.red_key_time = 0.1f;
    k.death = 2;
    k.inward_size = 12;
    b = build(&k, &w);
    s = read_ok("broken values", &b);
    if (!s) return;
    CHECK_MSG(rewrites_same(s, &b), "broken values do not rewrite byte for byte");
    CHECK(!ferry_particle_property_present(&s->emitters[0].properties, 0x09));
    o.file_name = "p_other.alo";
    memset(&d, 0, sizeof d);
    size_t errors = ferry_particle_validate(s, &o, &d);
    /* A warning: the game finds systems by file name, and shipped systems carry other names. */
    CHECK_EQ_U(count_rule(&d, "system-name", FERRY_SEVERITY_WARNING, w.c0), 1);
    CHECK_EQ_U(count_rule(&d, "blend-mode", FERRY_SEVERITY_ERROR, w.blend_mini), 1);
    CHECK_EQ_U(count_rule(&d, "track-key-order", FERRY_SEVERITY_ERROR, w.red_key[1]), 1);
    CHECK_EQ_U(count_rule(&d, "connection-range", FERRY_SEVERITY_ERROR, w.c36[0] + 8), 1);
    /* A known property of another size is kept verbatim: a warning, since
     * the game may well read it (the spec itself gives 0x09 a float[3]). */
    CHECK_EQ_U(count_rule(&d, "property-size", FERRY_SEVERITY_WARNING, w.props[0]), 1);
    CHECK_EQ_U(errors, 3);
    CHECK_EQ_U(errors, d.error_count);
    for (size_t i = 0; i < d.count; i++) CHECK(strncmp(d.items[i].path, "0x900", 5) == 0 && d.items[i].message[0]);
    ferry_diagnostics_free(&d);
    ferry_particle_free(s);
    free(b.data);
}

/* Broken bytes: each gives one located error. */
static void test_errors(void)
{
    knobs k0 = good(), k;
    where w;
    bytes b;
#define CASE(setup, name, code, offset_expr, path)                                                                  \
    do {                                                                                                           \
        k = k0;                                                                                                    \
        setup;                                                                                                     \
        b = build(&k, &w);                                                                                         \
        expect_error(name, b.data, b.size, NULL, code, (offset_expr), path);                                       \
        free(b.data);                                                                                              \
    } while (0)
    CASE(k.root = 0x1500, "Universe at War root", FERRY_ERR_UNSUPPORTED, 0, "");
    CASE(k.root = 0x200, "model root", FERRY_ERR_UNSUPPORTED, 0, "");
    CASE(k.root = 0x1000, "animation root", FERRY_ERR_UNSUPPORTED, 0, "");
    CASE(k.root = 0x1234, "unknown root", FERRY_ERR_MALFORMED, 0, "");
    CASE(k.name_nul = false, "name without NUL", FERRY_ERR_MALFORMED, w.c0 + 8, "0x900/0x0");
    CASE(k.id_size = 3, "3-byte id", FERRY_ERR_TRUNCATED, w.c1, "0x900/0x1");
    CASE(k.groups = 2, "two groups", FERRY_ERR_MALFORMED, w.c29[0], "0x900/0x800/0x700/0x29");
    CASE(k.group_size = 60, "60-byte group data", FERRY_ERR_TRUNCATED, w.c1101[0][0],
         "0x900/0x800/0x700/0x29/0x1100/0x1101");
    CASE(k.tracks_data = true, "tracks as a data chunk", FERRY_ERR_MALFORMED, w.tracks[0], "0x900/0x800/0x700/0x1");
    CASE(k.track_pairs = 6, "six tracks", FERRY_ERR_MALFORMED, w.tracks[0], "0x900/0x800/0x700/0x1");
    CASE(k.red_first_size = 4, "float first key in a colour track", FERRY_ERR_MALFORMED, w.header[0] + 8,
         "0x900/0x800/0x700/0x1/0x0");
    CASE(k.key_size = 9, "9-byte key", FERRY_ERR_MALFORMED, w.red_key[0], "0x900/0x800/0x700/0x1/0x1");
    CASE(k.key_overrun = 60, "key overruns its chunk", FERRY_ERR_TRUNCATED, w.red_key[0], "0x900/0x800/0x700/0x1/0x1");
#undef CASE

    /* A system without 0x2 (an older editor's files, e.g. P_LAVA_BUBBLES.ALO
     * of a released mod) reads with persistence 0 and writes back without it. */
    {
        knobs kp = k0;
        kp.persistence = false;
        bytes bp = build(&kp, &w);
        ferry_particle_system *sp = read_ok("no persistence", &bp);
        if (sp) {
            CHECK(sp->no_persistence && sp->persistence == 0);
            CHECK(rewrites_same(sp, &bp));
            ferry_diagnostics dp = {0};
            ferry_particle_validate(sp, NULL, &dp);
            CHECK_EQ_U(count_rule(&dp, "persistence-missing", FERRY_SEVERITY_WARNING, w.c900), 1);
            ferry_diagnostics_free(&dp);
            ferry_particle_free(sp);
        }
        free(bp.data);
    }

    /* An emitter without 0x36 reads (no birth or death emitters) and writes back as it was. */
    {
        knobs kc = k0;
        kc.connections = false;
        bytes bc = build(&kc, &w);
        ferry_particle_system *sc = read_ok("no connections", &bc);
        if (sc) {
            CHECK(sc->emitters[0].no_connections && sc->emitters[0].death_emitter == -1);
            CHECK(rewrites_same(sc, &bc));
            ferry_particle_free(sc);
        }
        free(bc.data);
    }

    b = build(&k0, &w);
    static const uint8_t nothing[1] = {0};
    expect_error("empty input", nothing, 0, NULL, FERRY_ERR_TRUNCATED, 0, "");
    expect_error("7 bytes", b.data, 7, NULL, FERRY_ERR_TRUNCATED, 0, "");
    expect_error("cut inside the root", b.data, b.size - 1, NULL, FERRY_ERR_TRUNCATED, 0, "0x900");
    size_t whole = b.size;
    put_u8(&b, 0);
    put_u8(&b, 0);
    expect_error("2 bytes after the root", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, whole, "");
    b.size = whole;
    /* A limit below what the load needs: refused as a limit, located. */
    ferry_read_options tiny = {b.size + 256};
    ferry_particle_system *s = NULL;
    ferry_error err;
    CHECK(ferry_particle_read(b.data, b.size, &tiny, &s, &err) == FERRY_ERR_LIMIT && s == NULL);
    CHECK(err.offset != FERRY_NO_OFFSET && err.offset < b.size && err.message[0]);
    /* A chunk kept after the root comes back where it was. */
    end(&b, begin(&b, 0x4242), false);
    s = read_ok("chunk after the root", &b);
    if (s) {
        CHECK(s->file_layout.order_count == 2 && s->file_layout.unknown_count == 1);
        CHECK(rewrites_same(s, &b));
        ferry_particle_free(s);
    }
    free(b.data);
}

/* ---- systems built through the structs ---- */

typedef struct built {
    ferry_particle_system sys;
    ferry_particle_emitter em[2];
    ferry_particle_key keys[2][FERRY_PARTICLE_TRACK_COUNT][2];
} built;

static void build_system(built *b)
{
    memset(b, 0, sizeof *b);
    b->sys.name = "Sys";
    b->sys.id = 3;
    b->sys.persistence = 1;
    b->sys.emitters = b->em;
    b->sys.emitter_count = 2;
    for (int e = 0; e < 2; e++) {
        ferry_particle_emitter *m = &b->em[e];
        ferry_particle_properties *p = &m->properties;
        p->present[0] = FERRY_PARTICLE_PRESENT_USUAL_0;
        p->present[1] = FERRY_PARTICLE_PRESENT_USUAL_1;
        p->blend_mode = 2;
        p->primitive_type = 1;
        p->lifetime = 2.0f + (float)e;
        p->randomized_lifetime = 0.5f;
        p->index = (uint32_t)e;
        p->texture_elements = 64;
        p->bounciness = 1;
        p->randomized_color[3] = 0.5f;
        p->weather_cube_size = 500;
        m->color_texture = "p_particle_master.tga";
        m->name = e ? "sparks" : "glow";
        m->secondary_texture = e ? NULL : "p_particle_depth_master.tga";
        m->groups[0].type = FERRY_PARTICLE_GROUP_SPHERE;
        m->groups[0].sphere_radius = 3;
        m->groups[1].type = FERRY_PARTICLE_GROUP_BOX;
        m->groups[1].min[1] = p->lifetime * (1 - p->randomized_lifetime);
        m->groups[1].max[1] = p->lifetime;
        m->groups[2].type = FERRY_PARTICLE_GROUP_CYLINDER;
        m->groups[2].cylinder_radius = 2;
        m->groups[2].cylinder_height = 5;
        for (int t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++) {
            ferry_particle_track *tr = &m->tracks[t];
            ferry_particle_key *k = b->keys[e][t];
            tr->first_byte = 255;
            tr->first = 1;
            tr->last = 4;
            tr->interpolation = t == FERRY_PARTICLE_TRACK_TEXTURE_INDEX ? FERRY_PARTICLE_STEP : FERRY_PARTICLE_COSINE;
            k[0].time = 0.25f;
            k[0].int_value = 128;
            k[0].value = 2;
            k[1].time = 0.75f;
            k[1].value = 3;
            tr->keys = k;
            tr->key_count = (size_t)(t % 3);
        }
        m->death_emitter = e ? -1 : 1;
        m->birth_emitter = -1;
    }
}

static bool same_track(const ferry_particle_track *a, const ferry_particle_track *b, bool color)
{
    bool ok = a->interpolation == b->interpolation && a->key_count == b->key_count;
    ok = ok && (color ? a->first_byte == b->first_byte && a->last_byte == b->last_byte
                      : a->first == b->first && a->last == b->last);
    for (size_t i = 0; ok && i < a->key_count; i++)
        ok = a->keys[i].time == b->keys[i].time &&
             (color ? a->keys[i].int_value == b->keys[i].int_value : a->keys[i].value == b->keys[i].value);
    return ok;
}

static bool same_string(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static bool same_system(const ferry_particle_system *a, const ferry_particle_system *b)
{
    if (!same_string(a->name, b->name) || a->id != b->id || a->persistence != b->persistence ||
        a->emitter_count != b->emitter_count)
        return false;
    for (size_t i = 0; i < a->emitter_count; i++) {
        const ferry_particle_emitter *x = &a->emitters[i], *y = &b->emitters[i];
        if (memcmp(x->properties.present, y->properties.present, sizeof x->properties.present) != 0) return false;
        for (size_t f = 0; f < FY_PCOUNT(fy_particle_property_fields); f++) {
            static const size_t sizes[] = {4, 4, 12, 16, 0, 1, 2, 8};
            const fy_mini_field *fd = &fy_particle_property_fields[f];
            if (memcmp((const uint8_t *)&x->properties + fd->offset, (const uint8_t *)&y->properties + fd->offset,
                       sizes[fd->kind]) != 0)
                return false;
        }
        if (!same_string(x->name, y->name) || !same_string(x->color_texture, y->color_texture) ||
            !same_string(x->secondary_texture, y->secondary_texture) || x->death_emitter != y->death_emitter ||
            x->birth_emitter != y->birth_emitter)
            return false;
        for (int g = 0; g < FERRY_PARTICLE_GROUP_COUNT; g++) {
            const ferry_particle_group *p = &x->groups[g], *q = &y->groups[g];
            if (p->type != q->type || memcmp(p->min, q->min, sizeof p->min) || memcmp(p->max, q->max, sizeof p->max) ||
                p->side_length != q->side_length || p->sphere_radius != q->sphere_radius ||
                p->sphere_surface != q->sphere_surface || p->cylinder_radius != q->cylinder_radius ||
                p->cylinder_surface != q->cylinder_surface || p->cylinder_height != q->cylinder_height ||
                memcmp(p->value, q->value, sizeof p->value))
                return false;
        }
        for (int t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++)
            if (!same_track(&x->tracks[t], &y->tracks[t], t < FERRY_PARTICLE_COLOR_TRACKS)) return false;
    }
    return true;
}

static void test_built(void)
{
    built b;
    build_system(&b);
    ferry_buffer out = {0};
    ferry_error err;
    CHECK_MSG(ferry_particle_write(&b.sys, &out, &err) == FERRY_OK, "writing a built system: %s", err.message);
    ferry_particle_system *s = NULL;
    CHECK_MSG(ferry_particle_read(out.data, out.size, NULL, &s, &err) == FERRY_OK, "reading it back: %s", err.message);
    if (s) {
        CHECK_MSG(same_system(&b.sys, s), "the built system does not read back equal");
        /* Canonical layout: the order real files use. */
        const ferry_particle_emitter *e = &s->emitters[0];
        CHECK(s->layout.order_count == 4 && s->layout.order[2] == FERRY_PARTICLE_EMITTERS &&
              s->layout.order[3] == FERRY_PARTICLE_PERSISTENCE);
        CHECK(e->layout.order_count == 7 && e->layout.order[4] == FERRY_PARTICLE_TRACKS &&
              e->layout.order[6] == FERRY_PARTICLE_SECONDARY_TEXTURE);
        CHECK(s->emitters[1].layout.order_count == 6); /* no secondary texture */
        CHECK(e->properties_layout.order_count == 47 && e->properties_layout.order[4] == 0x43);
        CHECK(e->tracks_layout.order_count == 14 && e->tracks_layout.order[1] == FERRY_PARTICLE_TRACK_KEYS);
        bytes again = {out.data, out.size, out.capacity};
        CHECK(rewrites_same(s, &again));
        ferry_diagnostics d = {0};
        ferry_particle_validate_options o = {"C:\\Effects\\SYS.ALO", NULL, NULL};
        CHECK_EQ_U(ferry_particle_validate(s, &o, &d), 0);
        CHECK_EQ_U(d.count, 0);
        ferry_diagnostics_free(&d);
        ferry_particle_free(s);
    }
    ferry_buffer_free(&out);

    /* An emitter without connections (0x36): read, not refused, and written
     * back without the chunk. */
    b.em[1].no_connections = true;
    out = (ferry_buffer){0};
    CHECK(ferry_particle_write(&b.sys, &out, &err) == FERRY_OK);
    s = NULL;
    CHECK_MSG(ferry_particle_read(out.data, out.size, NULL, &s, &err) == FERRY_OK, "no 0x36: %s", err.message);
    if (s) {
        CHECK(s->emitters[1].no_connections && !s->emitters[0].no_connections);
        CHECK(s->emitters[1].death_emitter == -1 && s->emitters[1].birth_emitter == -1);
        for (size_t i = 0; i < s->emitters[1].layout.order_count; i++)
            CHECK(s->emitters[1].layout.order[i] != FERRY_PARTICLE_CONNECTIONS);
        bytes again = {out.data, out.size, out.capacity};
        CHECK(rewrites_same(s, &again));
        ferry_diagnostics d = {0};
        ferry_particle_validate_options o = {"SYS.ALO", NULL, NULL};
        CHECK_EQ_U(ferry_particle_validate(s, &o, &d), 0);
        ferry_diagnostics_free(&d);
        ferry_particle_free(s);
    }
    ferry_buffer_free(&out);
    b.em[1].no_connections = false;

    /* What cannot be encoded is refused, not guessed. */
    b.em[1].tracks[2].keys = NULL;
    out = (ferry_buffer){0};
    CHECK(ferry_particle_write(&b.sys, &out, &err) == FERRY_ERR_ARGUMENT && err.message[0]);
    ferry_buffer_free(&out);
    b.sys.emitters = NULL;
    CHECK(ferry_particle_write(&b.sys, &out, &err) == FERRY_ERR_ARGUMENT);
    ferry_buffer_free(&out);
}

/* Each rule on a built system, by rule id and severity. */
static void test_rules(void)
{
    static const char *const file = "sys.alo";
    struct {
        const char *rule;
        ferry_severity severity;
    } expect;
    for (int c = 0; c <= 17; c++) {
        built b;
        build_system(&b);
        ferry_particle_emitter *e = &b.em[0];
        ferry_particle_validate_options o = {file, NULL, NULL};
        ferry_severity E = FERRY_SEVERITY_ERROR, W = FERRY_SEVERITY_WARNING;
        switch (c) {
        case 0: o.file_name = "Other.alo"; expect.rule = "system-name"; expect.severity = W; break;
        case 1: e->properties.blend_mode = 14; expect.rule = "blend-mode"; expect.severity = E; break;
        case 2: e->properties.ground_interaction = 4; expect.rule = "ground-interaction"; expect.severity = E; break;
        case 3: e->properties.emit_mode = 9; expect.rule = "emit-mode"; expect.severity = E; break;
        case 4: e->groups[2].type = 5; expect.rule = "group-type"; expect.severity = E; break;
        case 5: e->tracks[3].interpolation = 3; expect.rule = "interpolation"; expect.severity = E; break;
        case 6: b.keys[0][2][1].time = 0.1f; expect.rule = "track-key-order"; expect.severity = E; break;
        case 7: b.keys[0][1][0].time = 1.5f; expect.rule = "track-key-range"; expect.severity = E; break;
        case 8: e->death_emitter = 2; expect.rule = "connection-range"; expect.severity = E; break;
        case 9: e->birth_emitter = -2; expect.rule = "connection-range"; expect.severity = E; break;
        /* Warnings: the game loads these, and which of group and properties it takes the lifetime from is unknown. */
        case 10: e->groups[1].min[1] = 1.2f; expect.rule = "lifetime-group"; expect.severity = W; break;
        case 11: e->groups[1].type = 0; expect.rule = "lifetime-group"; expect.severity = W; break;
        case 12: b.em[1].death_emitter = 0; expect.rule = "connection-cycle"; expect.severity = W; break;
        case 13: e->properties.index = 5; expect.rule = "emitter-index"; expect.severity = W; break;
        case 14: e->properties.present[0] &= ~(1ull << 0x0f); expect.rule = "property-missing"; expect.severity = W; break;
        case 15: b.sys.name = NULL; expect.rule = "name-missing"; expect.severity = E; break;
        case 16: e->groups[0].sphere_radius = -1; expect.rule = "group-extent"; expect.severity = W; break;
        default: b.sys.emitter_count = 0; expect.rule = "no-emitters"; expect.severity = W; break;
        }
        ferry_diagnostics d = {0};
        size_t errors = ferry_particle_validate(&b.sys, &o, &d);
        CHECK_MSG(d.count == 1 && strcmp(d.items[0].rule, expect.rule) == 0 && d.items[0].severity == expect.severity,
                  "case %d: expected one '%s', got %zu diagnostics, first '%s'", c, expect.rule, d.count,
                  d.count ? d.items[0].rule : "");
        CHECK_EQ_U(errors, expect.severity == FERRY_SEVERITY_ERROR ? 1 : 0);
        ferry_diagnostics_free(&d);
    }

    /* NaN and infinities in what the game uses: located errors. The unused
     * fields of a group and the unused properties are left alone. */
    for (int c = 0; c < 16; c++) {
        built b;
        build_system(&b);
        ferry_particle_emitter *e = &b.em[0];
        float bad = c % 2 ? INFINITY : NAN;
        size_t expected = 1;
        switch (c / 2) {
        case 0: e->tracks[FERRY_PARTICLE_TRACK_SIZE].last = bad; break;
        case 1: b.keys[0][FERRY_PARTICLE_TRACK_ROTATION_SPEED][0].value = bad; break;
        case 2: e->groups[0].sphere_radius = bad; break;                 /* velocity: a sphere */
        case 3: e->groups[0].min[1] = bad; expected = 0; break;           /* unused by a sphere */
        case 4: e->properties.gravity = bad; break;
        case 5: e->properties.acceleration[2] = bad; break;
        case 6: e->properties.unused5 = bad; expected = 0; break;
        default: e->groups[2].value[0] = bad; e->groups[2].type = 0; break; /* an exact position */
        }
        /* Track 6 of emitter 0 holds keys only when t % 3 != 0. */
        if (c / 2 == 1) b.em[0].tracks[FERRY_PARTICLE_TRACK_ROTATION_SPEED].key_count = 2;
        ferry_particle_validate_options o = {file, NULL, NULL};
        ferry_diagnostics d = {0};
        size_t errors = ferry_particle_validate(&b.sys, &o, &d);
        CHECK_MSG(errors == expected && count_rule(&d, "value-finite", FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET) == expected,
                  "non-finite case %d: %zu errors, %zu diagnostics, first %s", c, errors, d.count,
                  d.count ? d.items[0].message : "");
        ferry_diagnostics_free(&d);
    }

    /* The older editor's lifetime layout (on x, as 48 of 239 systems of a
     * released mod store it) is accepted, and read from x; values on both
     * axes, or a wrong range on x, are reported. */
    for (int c = 0; c < 4; c++) {
        built b;
        build_system(&b);
        ferry_particle_group *g = &b.em[0].groups[1];
        float lo = g->min[1], hi = g->max[1];
        g->min[0] = lo;
        g->max[0] = hi;
        if (c > 0) g->min[1] = g->max[1] = 0;
        if (c == 2) g->max[0] = hi + 1;
        if (c == 3) g->max[2] = 1;
        ferry_particle_validate_options o = {file, NULL, NULL};
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_particle_validate(&b.sys, &o, &d), 0);
        CHECK_EQ_U(count_rule(&d, "lifetime-group", FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET), c == 1 ? 0 : 1);
        CHECK_EQ_U(d.count, c == 1 ? 0 : 1);
        float mn = -1, mx = -1;
        ferry_particle_lifetime_layout layout = ferry_particle_emitter_lifetime(&b.em[0], &mn, &mx);
        CHECK_EQ_U(layout, c == 1 || c == 2 ? FERRY_PARTICLE_LIFETIME_X : FERRY_PARTICLE_LIFETIME_UNKNOWN);
        /* Unknown layouts fall back on properties 0x0f and 0x13. */
        CHECK(mn == lo && mx == (c == 2 ? hi + 1 : hi));
        ferry_diagnostics_free(&d);
    }
    {
        built b;
        build_system(&b);
        float mn = -1, mx = -1;
        CHECK_EQ_U(ferry_particle_emitter_lifetime(&b.em[1], &mn, &mx), FERRY_PARTICLE_LIFETIME_Y);
        CHECK(mn == 1.5f && mx == 3.0f);
        CHECK_EQ_U(ferry_particle_emitter_lifetime(NULL, &mn, &mx), FERRY_PARTICLE_LIFETIME_UNKNOWN);
        CHECK(mn == 0 && mx == 0);
    }

    built b;
    build_system(&b);
    ferry_particle_validate_options o = {NULL, NULL, NULL};
    ferry_diagnostics d = {0};
    /* One rule repeated many times: capped, then one summary line that still counts as an error. */
    ferry_particle_key many[40];
    for (int i = 0; i < 40; i++) many[i] = (ferry_particle_key){2.0f, 0, 0, FERRY_NO_OFFSET};
    b.em[0].tracks[4].keys = many;
    b.em[0].tracks[4].key_count = 40;
    memset(&d, 0, sizeof d);
    size_t errors = ferry_particle_validate(&b.sys, &o, &d);
    CHECK_EQ_U(count_rule(&d, "track-key-range", FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET), 9);
    CHECK_EQ_U(errors, d.error_count);
    ferry_diagnostics_free(&d);
}

static bool no_texture(const char *name, void *user)
{
    ++*(int *)user;
    return strcmp(name, "p_particle_master.tga") != 0;
}

static void test_texture_lookup(void)
{
    built b;
    build_system(&b);
    int calls = 0;
    ferry_particle_validate_options o = {NULL, no_texture, &calls};
    ferry_diagnostics d = {0};
    CHECK_EQ_U(ferry_particle_validate(&b.sys, &o, &d), 0);
    CHECK_EQ_U(calls, 3);
    CHECK_EQ_U(count_rule(&d, "texture-missing", FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET), 2);
    ferry_diagnostics_free(&d);
}

int main(void)
{
    test_bytes();
    test_errors();
    test_built();
    test_rules();
    test_texture_lookup();
    TEST_END();
}
