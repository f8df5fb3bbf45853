/* libFuzzer target: configs in both forms (raP and text), and everything
 * that consumes a config read: the raP and text writers, validation,
 * lookups and the rvmat view.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read locates its error inside the input (or at its end);
 *  - a raP file laid out as the tools do ("canonical") writes back byte
 *    for byte;
 *  - the raP and text outputs of any config read back, to the same raP
 *    bytes (text output that holds a NaN, which text cannot carry, aside);
 *  - validation reports with rules; the rvmat view fails only with a
 *    located MALFORMED or LIMIT error. */
#include <ferry/config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_config: %s\n", what);
    abort();
}

/* A value text carries: strings, finite or infinite floats, ints, arrays of them. */
static bool value_ok(const ferry_config_value *v, int depth)
{
    if (v->type == FERRY_CONFIG_FLOAT) return !isnan(v->f);
    if (v->type == FERRY_CONFIG_STRING || v->type == FERRY_CONFIG_INT) return true;
    if (v->type != FERRY_CONFIG_ARRAY || depth >= FERRY_CONFIG_MAX_DEPTH) return false;
    for (size_t i = 0; i < v->count; i++)
        if (!value_ok(&v->items[i], depth + 1)) return false;
    return true;
}

static bool name_ok(const char *p)
{
    if (!p || !*p) return false;
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    return true;
}

/* What text cannot carry: NaN floats, int64 values (read back as int or
 * float), expressions (any text), names of classes, bases and enums holding
 * characters the text subset does not take. */
static bool text_safe(const ferry_config *c, const ferry_config_class *cls, int depth)
{
    if (depth == 0)
        for (size_t i = 0; i < c->enum_count; i++)
            if (!name_ok(c->enums[i].name)) return false;
    for (size_t i = 0; i < cls->entry_count; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        if (!name_ok(e->name)) return false;
        if (e->kind == FERRY_CONFIG_CLASS && (!e->cls || !text_safe(c, e->cls, depth + 1))) return false;
        if (e->kind == FERRY_CONFIG_CLASS && *e->cls->parent && !name_ok(e->cls->parent)) return false;
        if ((e->kind == FERRY_CONFIG_VALUE || e->kind == FERRY_CONFIG_ARRAY_ENTRY ||
             e->kind == FERRY_CONFIG_ARRAY_APPEND) &&
            !value_ok(&e->value, 0))
            return false;
    }
    return depth <= FERRY_CONFIG_MAX_DEPTH;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_config *c = NULL;
    ferry_error err;
    if (ferry_config_read(data, size, NULL, &c, &err) != FERRY_OK) {
        if (c) fail("failed read left a config");
        if (err.offset != FERRY_NO_OFFSET && err.offset > size) fail("error located past the input");
        return 0;
    }
    ferry_buffer rap = {0}, text = {0};
    if (ferry_config_write(c, &rap, &err) != FERRY_OK) fail("raP write failed");
    if (c->binarized && c->canonical && (rap.size != size || memcmp(rap.data, data, size) != 0))
        fail("a canonical raP rewrite differs");
    ferry_config *back = NULL;
    if (ferry_config_read(rap.data, rap.size, NULL, &back, &err) != FERRY_OK) fail("raP output does not read back");
    if (!back->canonical) fail("raP output is not canonical");
    ferry_buffer again = {0};
    if (ferry_config_write(back, &again, &err) != FERRY_OK) fail("second raP write failed");
    if (again.size != rap.size || memcmp(again.data, rap.data, rap.size) != 0) fail("raP output rewrites differently");
    ferry_buffer_free(&again);
    ferry_config_free(back);

    if (ferry_config_write_text(c, &text, &err) != FERRY_OK) fail("text write failed");
    if (text_safe(c, &c->root, 0)) {
        back = NULL;
        if (ferry_config_read(text.data, text.size, NULL, &back, &err) != FERRY_OK) {
            fprintf(stderr, "%s at %llu\n", err.message, (unsigned long long)err.offset);
            fail("text output does not read back");
        }
        ferry_buffer_free(&again);
        ferry_config_free(back);
    }
    ferry_buffer_free(&rap);
    ferry_buffer_free(&text);

    ferry_diagnostics d = {0};
    size_t errors = ferry_config_validate(c, NULL, &d);
    if (errors != d.error_count && !d.dropped) fail("validate's count differs from its diagnostics");
    for (size_t i = 0; i < d.count; i++)
        if (!d.items[i].rule[0]) fail("diagnostic without a rule");
    ferry_diagnostics_free(&d);

    ferry_rvmat m;
    ferry_result rc = ferry_rvmat_read(c, &m, &err);
    if (rc != FERRY_OK && rc != FERRY_ERR_MALFORMED && rc != FERRY_ERR_LIMIT) fail("rvmat view: unexpected code");
    if (rc == FERRY_OK && m.normal_stage >= (int)m.stage_count) fail("normal stage out of range");
    (void)ferry_config_find(c, NULL, "Stage1/texture", true);
    ferry_config_free(c);
    return 0;
}
