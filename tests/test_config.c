/* Configs without the corpus: the text subset, raP bytes built by hand,
 * lookups, the rvmat view, validation, and bad input of both forms
 * (truncations at every length, wrong types, counts beyond the data, body
 * offsets that loop, nesting past the limit): located errors, never a
 * crash (run under ASan in the sanitizer build). */
#include <ferry/config.h>

#include "formats/config/config_internal.h"
#include "support.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ferry_config *parse(const char *text, ferry_result expect, ferry_error *err)
{
    ferry_config *cfg = NULL;
    ferry_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    ferry_result rc = ferry_config_read((const uint8_t *)text, strlen(text), NULL, &cfg, err);
    CHECK_MSG(rc == expect, "%.80s: got %s (%s), expected %s", text, ferry_result_name(rc), err->message,
              ferry_result_name(expect));
    CHECK((rc == FERRY_OK) == (cfg != NULL));
    return cfg;
}

static ferry_config *parse_bytes(const uint8_t *data, size_t size, ferry_result expect, ferry_error *err)
{
    ferry_config *cfg = NULL;
    ferry_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    ferry_result rc = ferry_config_read(data, size, NULL, &cfg, err);
    CHECK_MSG(rc == expect, "got %s (%s), expected %s", ferry_result_name(rc), err->message, ferry_result_name(expect));
    return cfg;
}

/* class A { x = 1; }; in raP, by hand:
 *   0x00 "\0raP", u32 0, u32 8, u32 enum table at 0x2b
 *   0x10 root: parent "" (00), 1 entry: class (00) "A" body at 0x1d; end 0x2b
 *   0x1d A: parent "", 1 entry: value (01) int (02) "x" 1; end 0x2b
 *   0x2b enums: u32 0 */
static const uint8_t hand_rap[] = {
    0x00, 'r',  'a',  'P',  0, 0, 0, 0, 8, 0, 0, 0, 0x2b, 0, 0, 0,             /* header */
    0x00, 0x01, 0x00, 'A',  0, 0x1d, 0, 0, 0, 0x2b, 0, 0, 0,                   /* root */
    0x00, 0x01, 0x01, 0x02, 'x', 0, 1, 0, 0, 0, 0x2b, 0, 0, 0,                 /* A */
    0, 0, 0, 0                                                                  /* enums */
};

static void test_hand_rap(void)
{
    CHECK_EQ_U(sizeof hand_rap, 0x2f);
    ferry_config *cfg = parse_bytes(hand_rap, sizeof hand_rap, FERRY_OK, NULL);
    if (!cfg) return;
    CHECK(cfg->binarized && cfg->canonical);
    CHECK_EQ_U(cfg->class_count, 2);
    const ferry_config_entry *x = ferry_config_find(cfg, NULL, "a/X", false);
    CHECK(x && x->kind == FERRY_CONFIG_VALUE && x->value.type == FERRY_CONFIG_INT && x->value.i == 1);
    CHECK(x && x->offset == 0x1f);
    ferry_buffer out = {0};
    CHECK(ferry_config_write(cfg, &out, NULL) == FERRY_OK);
    CHECK(out.size == sizeof hand_rap && memcmp(out.data, hand_rap, sizeof hand_rap) == 0);
    ferry_buffer_free(&out);
    ferry_config_free(cfg);
    /* the text of the same tree rapifies to the same bytes */
    cfg = parse("class A { x = 1; };", FERRY_OK, NULL);
    if (!cfg) return;
    CHECK(!cfg->binarized);
    CHECK(ferry_config_write(cfg, &out, NULL) == FERRY_OK);
    CHECK(out.size == sizeof hand_rap && memcmp(out.data, hand_rap, sizeof hand_rap) == 0);
    ferry_buffer_free(&out);
    ferry_config_free(cfg);
}

static void test_text(void)
{
    const char *text = "\xef\xbb\xbf// a comment\n"
                       "#define _ARMA_\n"
                       "#ifdef _ARMA_\n"
                       "armed = 1;\n"
                       "#else\n"
                       "armed = 0; #include \"never.hpp\"\n"
                       "#endif\n"
                       "#ifndef _ARMA_\n"
                       "#error not seen\n"
                       "#endif\n"
                       "/* block\n #comment */ enum { one = 1, two, five = 5 };\n"
                       "class Base { a = 1; b[] = {1, 2.5, -3, 0x10, 1e3, \"s\"\"q\", {word, {}}, -0.0}; };\n"
                       "class Derived: Base { c = unquoted text here; e = __EVAL(1 + 2); };\n"
                       "class Ext;\n"
                       "delete Gone;\n"
                       "list[] += {\"x\"};\n"
                       "multi = \"a\" \\n \"b\";\n"
                       "class Outer { class Inner: Derived {}; class Derived { d = 4; }; };\n";
    ferry_config *cfg = parse(text, FERRY_OK, NULL);
    if (!cfg) return;
    CHECK_EQ_U(cfg->enum_count, 3);
    CHECK(cfg->enum_count == 3 && cfg->enums[1].value == 2 && cfg->enums[2].value == 5);
    const ferry_config_entry *e = ferry_config_find(cfg, NULL, "armed", false);
    CHECK(e && e->value.type == FERRY_CONFIG_INT && e->value.i == 1);
    e = ferry_config_find(cfg, NULL, "BASE/B", false);
    CHECK(e && e->kind == FERRY_CONFIG_ARRAY_ENTRY && e->value.count == 8);
    if (e && e->value.count == 8) {
        const ferry_config_value *v = e->value.items;
        CHECK(v[0].type == FERRY_CONFIG_INT && v[0].i == 1);
        CHECK(v[1].type == FERRY_CONFIG_FLOAT && v[1].f == 2.5f);
        CHECK(v[2].type == FERRY_CONFIG_INT && v[2].i == -3);
        CHECK(v[3].type == FERRY_CONFIG_INT && v[3].i == 16);
        CHECK(v[4].type == FERRY_CONFIG_FLOAT && v[4].f == 1000.0f);
        CHECK(v[5].type == FERRY_CONFIG_STRING && strcmp(v[5].string, "s\"q") == 0);
        CHECK(v[6].type == FERRY_CONFIG_ARRAY && v[6].count == 2 && v[6].items[0].type == FERRY_CONFIG_STRING &&
              strcmp(v[6].items[0].string, "word") == 0 && v[6].items[1].count == 0);
        CHECK(v[7].type == FERRY_CONFIG_FLOAT && v[7].f == 0.0f);
    }
    e = ferry_config_find(cfg, NULL, "Derived/c", false);
    CHECK(e && e->value.type == FERRY_CONFIG_STRING && strcmp(e->value.string, "unquoted text here") == 0);
    e = ferry_config_find(cfg, NULL, "Derived/e", false);
    CHECK(e && e->value.type == FERRY_CONFIG_EXPRESSION && strcmp(e->value.string, "1 + 2") == 0);
    /* inheritance: a is Base's; without inherit it is not found */
    CHECK(ferry_config_find(cfg, NULL, "Derived/a", false) == NULL);
    e = ferry_config_find(cfg, NULL, "Derived/a", true);
    CHECK(e && e->value.i == 1);
    CHECK(ferry_config_find(cfg, NULL, "Ext", false)->kind == FERRY_CONFIG_EXTERNAL);
    CHECK(ferry_config_find(cfg, NULL, "Gone", false) == NULL); /* a delete is no entry to find */
    e = ferry_config_find(cfg, NULL, "list", false);
    CHECK(e && e->kind == FERRY_CONFIG_ARRAY_APPEND && e->value.count == 1);
    e = ferry_config_find(cfg, NULL, "multi", false);
    CHECK(e && strcmp(e->value.string, "a\nb") == 0);
    /* Inner's base is the root's Derived: Outer's own Derived comes after it */
    const ferry_config_class *inner = ferry_config_find_class(cfg, NULL, "outer/inner");
    const ferry_config_class *base = ferry_config_base(cfg, inner);
    CHECK(base && base == ferry_config_find_class(cfg, NULL, "Derived"));
    CHECK(ferry_config_find(cfg, inner, "a", true) != NULL); /* through Derived to Base */
    CHECK(ferry_config_find(cfg, inner, "d", true) == NULL);
    /* offsets of text entries are of their first character */
    e = ferry_config_find(cfg, NULL, "Ext", false);
    CHECK(e && strncmp(text + e->offset, "class Ext;", 10) == 0);

    /* text and raP outputs read back to the same text and bytes */
    ferry_buffer t1 = {0}, t2 = {0}, r1 = {0}, r2 = {0};
    CHECK(ferry_config_write_text(cfg, &t1, NULL) == FERRY_OK);
    CHECK(ferry_config_write(cfg, &r1, NULL) == FERRY_OK);
    ferry_config *back = parse_bytes(t1.data, t1.size, FERRY_OK, NULL);
    ferry_config *bin = parse_bytes(r1.data, r1.size, FERRY_OK, NULL);
    if (back && bin) {
        CHECK(ferry_config_write(back, &r2, NULL) == FERRY_OK);
        CHECK(r1.size == r2.size && memcmp(r1.data, r2.data, r1.size) == 0);
        CHECK(ferry_config_write_text(bin, &t2, NULL) == FERRY_OK);
        CHECK(t1.size == t2.size && memcmp(t1.data, t2.data, t1.size) == 0);
        CHECK(bin->canonical && bin->enum_count == 3);
    }
    ferry_config_free(back);
    ferry_config_free(bin);
    ferry_buffer_free(&t1);
    ferry_buffer_free(&t2);
    ferry_buffer_free(&r1);
    ferry_buffer_free(&r2);
    ferry_config_free(cfg);
}

/* Every float's text reads back to the same bits. */
static void test_float_text(void)
{
    uint64_t state = 0x1234567;
    char buf[40];
    size_t same = 0, n = 20000;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits = (uint32_t)test_xorshift(&state);
        float f;
        memcpy(&f, &bits, 4);
        if (!isfinite(f)) f = 1.5f;
        fy_cfg_format_float(f, buf, sizeof buf);
        char text[64];
        snprintf(text, sizeof text, "v = %s;", buf);
        ferry_config *cfg = NULL;
        if (ferry_config_read((const uint8_t *)text, strlen(text), NULL, &cfg, NULL) == FERRY_OK) {
            const ferry_config_entry *e = ferry_config_find(cfg, NULL, "v", false);
            if (e && e->value.type == FERRY_CONFIG_FLOAT && memcmp(&e->value.f, &f, 4) == 0) same++;
            ferry_config_free(cfg);
        }
    }
    CHECK_EQ_U(same, n);
}

static void test_rvmat(void)
{
    ferry_config *cfg = parse("ambient[] = {1, 1, 1, 1};\n"
                              "diffuse[] = {0.5, 0.25, 1};\n"
                              "emmisive[] = {0, 0, 0, 0};\n"
                              "specularPower = 70;\n"
                              "PixelShaderID = \"NormalMapSpecularDIMap\";\n"
                              "VertexShaderID = \"NormalMap\";\n"
                              "class Stage1 { texture = \"a\\data\\plain.paa\"; uvSource = \"tex\"; };\n"
                              "class Stage2 { texture = \"#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)\"; texGen = 1; };\n"
                              "class Stage3 { texture = \"a\\data\\x_SMDI.paa\"; };\n"
                              "class TexGen1 { uvSource = \"tex\"; };\n",
                              FERRY_OK, NULL);
    if (!cfg) return;
    ferry_rvmat m;
    ferry_error err;
    CHECK(ferry_rvmat_read(cfg, &m, &err) == FERRY_OK);
    CHECK(m.has_ambient && m.has_diffuse && !m.has_specular && m.has_emmisive && !m.has_forced_diffuse);
    CHECK(m.diffuse[0] == 0.5f && m.diffuse[1] == 0.25f && m.diffuse[3] == 1.0f); /* 3 numbers: alpha 1 */
    CHECK(m.has_specular_power && m.specular_power == 70.0f);
    CHECK(m.pixel_shader && strcmp(m.pixel_shader, "NormalMapSpecularDIMap") == 0);
    CHECK(m.vertex_shader && strcmp(m.vertex_shader, "NormalMap") == 0);
    CHECK_EQ_U(m.stage_count, 3); /* TexGen1 is no stage */
    /* no _nohq: Stage1 of a normal-mapped pixel shader is the normal map */
    CHECK(m.normal_stage == 0 && m.stages[0].role == FERRY_RVMAT_NORMAL && m.stages[0].number == 1);
    CHECK(m.detail_stage == 1 && m.stages[1].procedural && m.stages[1].tex_gen == 1 && !m.stages[1].uv_source);
    CHECK(m.specular_stage == 2);
    CHECK(strcmp(m.stages[0].uv_source, "tex") == 0 && m.stages[0].tex_gen == -1);
    ferry_config_free(cfg);

    /* A texGen no int holds (the fuzzer's 1e300) or below 0 is none. */
    cfg = parse("class Stage1 { texture = \"a.paa\"; texGen = 1e300; };\n"
                     "class Stage2 { texture = \"b.paa\"; texGen = -3; };\n",
                     FERRY_OK, NULL);
    if (!cfg) return;
    CHECK(ferry_rvmat_read(cfg, &m, &err) == FERRY_OK);
    CHECK_EQ_U(m.stage_count, 2);
    CHECK(m.stages[0].tex_gen == -1 && m.stages[1].tex_gen == -1);
    ferry_config_free(cfg);

    /* _nohq wins wherever it is; a shader without normal maps names none by position */
    cfg = parse("PixelShaderID = \"Normal\"; class Stage1 { texture = \"x.paa\"; };"
                "class Stage4 { texture = \"p\\q_NOHQ.PAA\"; };",
                FERRY_OK, NULL);
    if (cfg) {
        CHECK(ferry_rvmat_read(cfg, &m, NULL) == FERRY_OK);
        CHECK(m.normal_stage == 1 && m.stages[1].number == 4);
        ferry_config_free(cfg);
    }
    cfg = parse("PixelShaderID = \"Normal\"; class Stage1 { texture = \"x.paa\"; };", FERRY_OK, NULL);
    if (cfg) {
        CHECK(ferry_rvmat_read(cfg, &m, NULL) == FERRY_OK);
        CHECK(m.normal_stage == -1);
        ferry_config_free(cfg);
    }
    /* a procedural normal map by its tag */
    cfg = parse("class Stage1 { texture = \"#(argb,8,8,3)color(0.5,0.5,1,1,NOHQ)\"; };", FERRY_OK, NULL);
    if (cfg) {
        CHECK(ferry_rvmat_read(cfg, &m, NULL) == FERRY_OK);
        CHECK(m.normal_stage == 0);
        ferry_config_free(cfg);
    }
    /* a colour that is not numbers */
    cfg = parse("\n\ndiffuse[] = {1, \"x\", 1, 1};", FERRY_OK, NULL);
    if (cfg) {
        CHECK(ferry_rvmat_read(cfg, &m, &err) == FERRY_ERR_MALFORMED);
        CHECK(err.offset == 2 && strstr(err.message, "diffuse"));
        ferry_config_free(cfg);
    }
}

static void test_validate(void)
{
    ferry_config *cfg = parse("class A: Missing {}; class B { x = 1; X = 2; }; y = 1e39;", FERRY_OK, NULL);
    if (!cfg) return;
    ferry_diagnostics d = {0};
    size_t errors = ferry_config_validate(cfg, NULL, &d);
    CHECK_EQ_U(errors, 1); /* the infinite float */
    bool base = false, dup = false, inf = false;
    for (size_t i = 0; i < d.count; i++) {
        base |= !strcmp(d.items[i].rule, "base-not-found") && !strcmp(d.items[i].path, "A");
        dup |= !strcmp(d.items[i].rule, "duplicate-name") && !strcmp(d.items[i].path, "B");
        inf |= !strcmp(d.items[i].rule, "non-finite-float") && d.items[i].severity == FERRY_SEVERITY_ERROR;
    }
    CHECK(base && dup && inf);
    ferry_diagnostics_free(&d);
    ferry_config_free(cfg);

    /* duplicates: a class after its external declaration is none; a value and
     * a class share no name space; a repeated class is one */
    cfg = parse("class A; class A {}; b = 1; class b {}; class C {}; class c {}; class c; v = 1; v[] = {};", FERRY_OK,
                NULL);
    if (cfg) {
        memset(&d, 0, sizeof d);
        ferry_config_validate(cfg, NULL, &d);
        size_t dups = 0;
        for (size_t i = 0; i < d.count; i++)
            if (!strcmp(d.items[i].rule, "duplicate-name")) {
                dups++;
                CHECK(strstr(d.items[i].message, "c is") || strstr(d.items[i].message, "v is"));
            }
        CHECK_EQ_U(dups, 3); /* class c {}, class c;, v[] */
        ferry_diagnostics_free(&d);
        ferry_config_free(cfg);
    }
    /* 100,000 entries of one name: validation stays fast (sorted, not pairwise) */
    {
        size_t n = 100000;
        char *t = malloc(n * 11 + 1), *q = t;
        for (size_t i = 0; i < n; i++) q += sprintf(q, "%s", i % 2 ? "class x;" : "class x{};");
        cfg = parse(t, FERRY_OK, NULL);
        free(t);
        if (cfg) {
            memset(&d, 0, sizeof d);
            CHECK_EQ_U(ferry_config_validate(cfg, NULL, &d), 0);
            CHECK(d.warning_count >= n - 1 || d.dropped);
            ferry_diagnostics_free(&d);
            ferry_config_free(cfg);
        }
    }

    /* a body placed after the enum table: read, but not laid out depth first */
    uint8_t moved[sizeof hand_rap + 14];
    memcpy(moved, hand_rap, sizeof hand_rap);
    memcpy(moved + sizeof hand_rap, hand_rap + 0x1d, 14); /* A's body again, at 0x2f */
    moved[0x10 + 5] = 0x2f;
    cfg = parse_bytes(moved, sizeof moved, FERRY_OK, NULL);
    if (cfg) {
        CHECK(!cfg->canonical);
        memset(&d, 0, sizeof d);
        CHECK_EQ_U(ferry_config_validate(cfg, NULL, &d), 0);
        bool layout = false;
        for (size_t i = 0; i < d.count; i++) layout |= !strcmp(d.items[i].rule, "layout");
        CHECK(layout);
        ferry_diagnostics_free(&d);
        ferry_config_free(cfg);
    }
}

/* Every prefix of a raP file fails with a located error (or reads, for the
 * whole file), every single-byte change reads or fails cleanly. */
static void test_rap_truncations(void)
{
    for (size_t n = 0; n < sizeof hand_rap; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, hand_rap, n);
        ferry_config *cfg = NULL;
        ferry_error err;
        ferry_result rc = ferry_config_read(copy, n, NULL, &cfg, &err);
        if (n >= 4) {
            CHECK_MSG(rc == FERRY_ERR_TRUNCATED || rc == FERRY_ERR_MALFORMED, "prefix %zu: %s", n,
                      ferry_result_name(rc));
            CHECK(err.offset <= n);
        }
        ferry_config_free(cfg);
        free(copy);
    }
    uint64_t state = 99;
    for (int i = 0; i < 5000; i++) {
        uint8_t copy[sizeof hand_rap];
        memcpy(copy, hand_rap, sizeof copy);
        copy[4 + test_xorshift(&state) % (sizeof copy - 4)] = (uint8_t)test_xorshift(&state);
        ferry_config *cfg = NULL;
        if (ferry_config_read(copy, sizeof copy, NULL, &cfg, NULL) == FERRY_OK) {
            ferry_buffer out = {0};
            CHECK(ferry_config_write(cfg, &out, NULL) == FERRY_OK);
            ferry_buffer_free(&out);
            ferry_config_free(cfg);
        }
    }
}

static void test_rap_bad(void)
{
    ferry_error err;
    uint8_t b[sizeof hand_rap];

    /* an unknown entry type inside A: located at its byte, path "A" */
    memcpy(b, hand_rap, sizeof b);
    b[0x1f] = 9;
    parse_bytes(b, sizeof b, FERRY_ERR_MALFORMED, &err);
    CHECK(err.offset == 0x1f && strcmp(err.path, "A") == 0 && strstr(err.message, "unknown entry type 9"));

    /* an unknown value type */
    memcpy(b, hand_rap, sizeof b);
    b[0x20] = 7;
    parse_bytes(b, sizeof b, FERRY_ERR_MALFORMED, &err);
    CHECK(strcmp(err.path, "A") == 0 && strstr(err.message, "value type 7"));

    /* an entry count beyond the bytes left */
    memcpy(b, hand_rap, sizeof b);
    b[0x1e] = 0x7f;
    parse_bytes(b, sizeof b, FERRY_ERR_TRUNCATED, &err);
    CHECK(err.offset == 0x1e && strstr(err.message, "127 entries"));

    /* a body offset outside the file */
    memcpy(b, hand_rap, sizeof b);
    b[0x10 + 5] = 0xf0;
    parse_bytes(b, sizeof b, FERRY_ERR_MALFORMED, &err);
    CHECK(strstr(err.message, "outside the file") != NULL);

    /* the enum table offset outside the file */
    memcpy(b, hand_rap, sizeof b);
    b[12] = 0xff;
    parse_bytes(b, sizeof b, FERRY_ERR_MALFORMED, &err);
    CHECK(err.offset == 12);

    /* a class whose body is the root's: a loop, stopped by the depth limit */
    memcpy(b, hand_rap, sizeof b);
    b[0x10 + 5] = 0x10;
    parse_bytes(b, sizeof b, FERRY_ERR_LIMIT, &err);

    /* a compressed count of 6 bytes */
    const uint8_t longcount[] = {0, 'r', 'a', 'P', 0, 0, 0, 0, 8, 0, 0, 0, 0x20, 0, 0, 0,
                                 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    parse_bytes(longcount, sizeof longcount, FERRY_ERR_MALFORMED, &err);
    CHECK(err.offset == 0x11 && strstr(err.message, "compressed integer"));

    /* not minimal, but read: a count of 1 written in two bytes */
    uint8_t padded[sizeof hand_rap + 1];
    memcpy(padded, hand_rap, 0x11);
    padded[0x11] = 0x81;
    padded[0x12] = 0x00;
    memcpy(padded + 0x13, hand_rap + 0x12, sizeof hand_rap - 0x12);
    padded[0x10 + 6] = 0x1e; /* A's body moved by one */
    padded[0x1a] = padded[12] = 0x2c;
    padded[0x1e + 10] = 0x2c;
    ferry_config *cfg = parse_bytes(padded, sizeof padded, FERRY_OK, &err);
    if (cfg) {
        CHECK(!cfg->canonical);
        ferry_config_free(cfg);
    }

    /* arrays nested past the limit: each level "03 01" (an array of one array) */
    size_t depth = FERRY_CONFIG_MAX_DEPTH + 10, size = 16 + 3 + 2 + 2 * depth + 1 + 4 + 4;
    uint8_t *deep = calloc(1, size);
    memcpy(deep, "\0raP\0\0\0\0\x08\0\0\0", 12);
    uint8_t *p = deep + 16;
    *p++ = 0;         /* parent */
    *p++ = 1;         /* one entry */
    *p++ = 2;         /* array */
    *p++ = 'a';
    *p++ = 0;
    *p++ = 1; /* one item */
    for (size_t i = 0; i < depth; i++) {
        *p++ = 3;
        *p++ = 1;
    }
    parse_bytes(deep, size, FERRY_ERR_LIMIT, &err);
    CHECK(strstr(err.message, "arrays nested more than") != NULL);
    free(deep);

    /* classes whose bodies are shared: class X has two classes, both X's own
     * body: the work is bounded (depth and the entries budget) */
    const uint8_t shared[] = {0, 'r', 'a', 'P', 0, 0, 0, 0, 8, 0, 0, 0, 0x24, 0, 0, 0,
                              0, 2, 0, 'a', 0, 0x10, 0, 0, 0, 0, 'b', 0, 0x10, 0, 0, 0, 0x24, 0, 0, 0,
                              0, 0, 0, 0};
    parse_bytes(shared, sizeof shared, FERRY_ERR_LIMIT, &err);
}

static void test_text_bad(void)
{
    ferry_error err;
    parse("class A { x = \"never ends; };", FERRY_ERR_TRUNCATED, &err);
    CHECK(strcmp(err.path, "A") == 0 && err.offset == 14);
    parse("class A { class B { x = 1; };", FERRY_ERR_TRUNCATED, &err);
    CHECK(strcmp(err.path, "A") == 0 && strstr(err.message, "'};' is missing"));
    parse("x = 1; };", FERRY_ERR_MALFORMED, &err);
    CHECK(err.offset == 7 && strstr(err.message, "line 1 column 8"));
    parse("class A {\n  x = 1\n};", FERRY_ERR_MALFORMED, &err); /* a value runs to the line's end */
    CHECK(strstr(err.message, "line 3") != NULL);
    parse("#include \"x.hpp\"\nclass A {};", FERRY_ERR_UNSUPPORTED, &err);
    CHECK(err.offset == 0 && strstr(err.message, "#include"));
    parse("#define X 1\nclass A {};", FERRY_ERR_UNSUPPORTED, &err);
    CHECK(strstr(err.message, "does not expand macros") != NULL);
    parse("#ifdef X\nclass A {};", FERRY_ERR_MALFORMED, &err);
    parse("#endif\n", FERRY_ERR_MALFORMED, &err);
    parse("class A: B;", FERRY_ERR_MALFORMED, &err);
    parse("a[] = {1, 2", FERRY_ERR_TRUNCATED, &err);
    parse("a[] = {1; 2};", FERRY_ERR_MALFORMED, &err);
    parse("/* open", FERRY_ERR_TRUNCATED, &err);
    parse("a = ;", FERRY_ERR_MALFORMED, &err);
    parse("class 1bad-name {};", FERRY_ERR_MALFORMED, &err);

    /* nesting: classes and arrays past the limit, and far past it (no stack overflow) */
    size_t levels[] = {FERRY_CONFIG_MAX_DEPTH, FERRY_CONFIG_MAX_DEPTH + 1, 100000};
    for (int k = 0; k < 3; k++) {
        size_t n = levels[k];
        char *t = malloc(n * 12 + 16), *q = t;
        for (size_t i = 0; i < n; i++) q += sprintf(q, "class C {");
        for (size_t i = 0; i < n; i++) q += sprintf(q, "};");
        ferry_config *cfg = parse(t, k == 0 ? FERRY_OK : FERRY_ERR_LIMIT, &err);
        ferry_config_free(cfg);
        q = t;
        q += sprintf(q, "a[]=");
        for (size_t i = 0; i < n; i++) *q++ = '{';
        for (size_t i = 0; i < n; i++) *q++ = '}';
        *q++ = ';';
        *q = '\0';
        cfg = parse(t, k == 0 ? FERRY_OK : FERRY_ERR_LIMIT, &err);
        ferry_config_free(cfg);
        free(t);
    }

    /* every prefix of a text config reads or fails cleanly */
    const char *text = "class A: B { x[] = {1, \"two\", {3.5}}; y = word; };\nenum { q = 2 };\n";
    for (size_t n = 0; n < strlen(text); n++) {
        char *copy = malloc(n ? n : 1);
        memcpy(copy, text, n);
        ferry_config *cfg = NULL;
        ferry_result rc = ferry_config_read((const uint8_t *)copy, n, NULL, &cfg, &err);
        CHECK(rc == FERRY_OK || err.offset <= n);
        ferry_config_free(cfg);
        free(copy);
    }
    /* arguments */
    ferry_config *cfg = (ferry_config *)1;
    CHECK(ferry_config_read(NULL, 5, NULL, &cfg, NULL) == FERRY_ERR_ARGUMENT && cfg == NULL);
    CHECK(ferry_config_write(NULL, NULL, NULL) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_rvmat_read(NULL, NULL, NULL) == FERRY_ERR_ARGUMENT);
    ferry_config_free(NULL);
}

int main(void)
{
    test_hand_rap();
    test_text();
    test_float_text();
    test_rvmat();
    test_validate();
    test_rap_truncations();
    test_rap_bad();
    test_text_bad();
    TEST_END();
}
