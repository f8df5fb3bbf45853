/* Configs of the shared corpus (skips, 77, without ../shared):
 *  - every .rvmat under corpus/odol/addons (binarized and text): read; a raP
 *    one written back byte for byte; each form's text output read back to
 *    the same tree, the raP of a text one too; the material's stages listed;
 *  - the build tool's pairs in corpus/rapify/hemtt/NAME: expected.bin (and
 *    cfgconvert.bin, Bohemia's tool) read; where source.hpp needs no macro
 *    expansion, its text parse gives the same tree, and its rapify is
 *    compared byte for byte with both binaries (the counts are printed). */
#include <ferry/config.h>

#include "core/platform.h"
#include "support.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool value_eq(const ferry_config_value *a, const ferry_config_value *b)
{
    if (a->type != b->type) return false;
    switch (a->type) {
    case FERRY_CONFIG_STRING:
    case FERRY_CONFIG_EXPRESSION: return strcmp(a->string, b->string) == 0;
    case FERRY_CONFIG_FLOAT: return memcmp(&a->f, &b->f, sizeof a->f) == 0;
    case FERRY_CONFIG_INT:
    case FERRY_CONFIG_INT64: return a->i == b->i;
    case FERRY_CONFIG_ARRAY:
        if (a->count != b->count) return false;
        for (size_t i = 0; i < a->count; i++)
            if (!value_eq(&a->items[i], &b->items[i])) return false;
        return true;
    default: return false;
    }
}

static bool class_eq(const ferry_config_class *a, const ferry_config_class *b, char *where, size_t size)
{
    if (strcmp(a->parent, b->parent) || a->entry_count != b->entry_count) {
        snprintf(where, size, "class %s: parent %s/%s, %zu/%zu entries", a->name, a->parent, b->parent,
                 a->entry_count, b->entry_count);
        return false;
    }
    for (size_t i = 0; i < a->entry_count; i++) {
        const ferry_config_entry *x = &a->entries[i], *y = &b->entries[i];
        if (x->kind != y->kind || strcmp(x->name, y->name)) {
            snprintf(where, size, "class %s entry %zu: %s/%s", a->name, i, x->name, y->name);
            return false;
        }
        if (x->kind == FERRY_CONFIG_CLASS && !class_eq(x->cls, y->cls, where, size)) return false;
        if ((x->kind == FERRY_CONFIG_VALUE || x->kind == FERRY_CONFIG_ARRAY_ENTRY ||
             x->kind == FERRY_CONFIG_ARRAY_APPEND) &&
            !value_eq(&x->value, &y->value)) {
            snprintf(where, size, "class %s entry %s: values differ", a->name, x->name);
            return false;
        }
    }
    return true;
}

static bool config_eq(const ferry_config *a, const ferry_config *b, char *where, size_t size)
{
    if (a->enum_count != b->enum_count) {
        snprintf(where, size, "%zu/%zu enums", a->enum_count, b->enum_count);
        return false;
    }
    return class_eq(&a->root, &b->root, where, size);
}

static ferry_config *read_bytes(const uint8_t *data, size_t size, const char *what, ferry_result *rc)
{
    ferry_config *cfg = NULL;
    ferry_error err = {0};
    *rc = ferry_config_read(data, size, NULL, &cfg, &err);
    if (*rc != FERRY_OK && *rc != FERRY_ERR_UNSUPPORTED) {
        char msg[512];
        ferry_error_format(&err, msg, sizeof msg);
        CHECK_MSG(0, "%s: %s", what, msg);
    }
    return cfg;
}

/* Text output read back gives the same tree; so does raP output. */
static void check_round_trips(const ferry_config *cfg, const char *path)
{
    char where[256];
    ferry_buffer text = {0}, rap = {0};
    ferry_result rc;
    CHECK(ferry_config_write_text(cfg, &text, NULL) == FERRY_OK);
    ferry_config *back = read_bytes(text.data, text.size, path, &rc);
    CHECK_MSG(back && config_eq(cfg, back, where, sizeof where), "%s: text output reads back differently: %s", path,
              back ? where : "unreadable");
    ferry_config_free(back);
    CHECK(ferry_config_write(cfg, &rap, NULL) == FERRY_OK);
    back = read_bytes(rap.data, rap.size, path, &rc);
    CHECK_MSG(back && config_eq(cfg, back, where, sizeof where), "%s: raP output reads back differently: %s", path,
              back ? where : "unreadable");
    ferry_config_free(back);
    ferry_buffer_free(&text);
    ferry_buffer_free(&rap);
}

static size_t rvmats, binarized, normals;

static void check_rvmat(const char *path)
{
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK_MSG(data != NULL, "%s unreadable", path);
    if (!data) return;
    ferry_result rc;
    ferry_config *cfg = read_bytes(data, size, path, &rc);
    CHECK_MSG(rc == FERRY_OK, "%s: not read", path);
    if (cfg) {
        rvmats++;
        if (cfg->binarized) {
            binarized++;
            ferry_buffer out = {0};
            CHECK(ferry_config_write(cfg, &out, NULL) == FERRY_OK);
            CHECK_MSG(out.size == size && memcmp(out.data, data, size) == 0, "%s: rewrite differs", path);
            ferry_buffer_free(&out);
            CHECK_MSG(cfg->canonical, "%s: not laid out depth first", path);
        }
        check_round_trips(cfg, path);
        ferry_diagnostics diags = {0};
        CHECK_MSG(ferry_config_validate(cfg, NULL, &diags) == 0, "%s: validation errors", path);
        ferry_diagnostics_free(&diags);
        ferry_rvmat mat;
        ferry_error err = {0};
        CHECK_MSG(ferry_rvmat_read(cfg, &mat, &err) == FERRY_OK, "%s: %s", path, err.message);
        printf("%s (%s): PS %s, VS %s, %zu stages, normal %d\n", path, cfg->binarized ? "raP" : "text",
               mat.pixel_shader ? mat.pixel_shader : "-", mat.vertex_shader ? mat.vertex_shader : "-",
               mat.stage_count, mat.normal_stage);
        for (size_t i = 0; i < mat.stage_count; i++)
            printf("  %s: %s [%s] uvSource %s texGen %d\n", mat.stages[i].name,
                   mat.stages[i].texture ? mat.stages[i].texture : "-", ferry_rvmat_role_name(mat.stages[i].role),
                   mat.stages[i].uv_source ? mat.stages[i].uv_source : "-", mat.stages[i].tex_gen);
        if (mat.normal_stage >= 0) normals++;
        ferry_config_free(cfg);
    }
    free(data);
}

static size_t pairs, pairs_text, text_same_tree, match_expected, match_cfgconvert, cfgconvert_files;

static void check_pair(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/expected.bin", dir, name);
    size_t bsize = 0, csize = 0, tsize = 0;
    uint8_t *bin = test_read_file(path, &bsize);
    if (!bin) return;
    pairs++;
    ferry_result rc;
    ferry_config *b = read_bytes(bin, bsize, path, &rc);
    CHECK_MSG(rc == FERRY_OK, "%s not read", path);
    if (b) {
        ferry_buffer out = {0};
        CHECK(ferry_config_write(b, &out, NULL) == FERRY_OK);
        CHECK_MSG(out.size == bsize && memcmp(out.data, bin, bsize) == 0, "%s: rewrite differs", path);
        ferry_buffer_free(&out);
        check_round_trips(b, path);
    }
    snprintf(path, sizeof path, "%s/%s/cfgconvert.bin", dir, name);
    uint8_t *cc = test_read_file(path, &csize);
    if (cc) {
        cfgconvert_files++;
        ferry_config *c = read_bytes(cc, csize, path, &rc);
        CHECK_MSG(rc == FERRY_OK, "%s not read", path);
        ferry_buffer out = {0};
        if (c) CHECK(ferry_config_write(c, &out, NULL) == FERRY_OK);
        CHECK_MSG(c && out.size == csize && memcmp(out.data, cc, csize) == 0, "%s: rewrite differs", path);
        ferry_buffer_free(&out);
        ferry_config_free(c);
    }
    snprintf(path, sizeof path, "%s/%s/source.hpp", dir, name);
    uint8_t *text = test_read_file(path, &tsize);
    ferry_config *t = text ? read_bytes(text, tsize, path, &rc) : NULL;
    if (text && rc == FERRY_ERR_UNSUPPORTED) {
        printf("%s: needs the preprocessor (skipped)\n", name);
    } else if (t && b) {
        pairs_text++;
        char where[256] = "";
        bool same = config_eq(t, b, where, sizeof where);
        if (same) text_same_tree++;
        ferry_buffer out = {0};
        CHECK(ferry_config_write(t, &out, NULL) == FERRY_OK);
        bool eb = out.size == bsize && !memcmp(out.data, bin, bsize);
        bool ec = cc && out.size == csize && !memcmp(out.data, cc, csize);
        match_expected += eb;
        match_cfgconvert += ec;
        printf("%s: text tree %s the binary's%s%s; rapify %s expected.bin%s\n", name, same ? "equals" : "differs from",
               same ? "" : ": ", same ? "" : where, eb ? "matches" : "differs from",
               cc ? (ec ? ", matches cfgconvert.bin" : ", differs from cfgconvert.bin") : "");
        ferry_buffer_free(&out);
    }
    ferry_config_free(t);
    ferry_config_free(b);
    free(text);
    free(bin);
    free(cc);
}

int main(void)
{
    const char *addons = FERRY_SHARED_DIR "/corpus/odol/addons";
    const char *hemtt = FERRY_SHARED_DIR "/corpus/rapify/hemtt";
    if (!test_dir_exists(addons) || !test_dir_exists(hemtt))
        TEST_SKIP("%s not found (the shared corpus is not checked out)", addons);
    char **paths = NULL;
    size_t n = test_list_files(addons, ".rvmat", &paths);
    for (size_t i = 0; i < n; i++) check_rvmat(paths[i]);
    test_free_paths(paths, n);
    printf("%zu rvmats read (%zu raP, all rewritten byte for byte), %zu with a normal map\n", rvmats, binarized,
           normals);
    CHECK(rvmats >= 37);

    fy_folder *d = NULL;
    CHECK(fy_folder_open(hemtt, &d) == 0);
    const char *entry;
    fy_file_kind kind;
    while (d && fy_folder_next(d, &entry, &kind))
        if (entry[0] != '.') check_pair(hemtt, entry);
    if (d) fy_folder_close(d);
    printf("%zu pairs (%zu cfgconvert.bin): %zu sources need no preprocessor, %zu of them parse to the binary's "
           "tree; rapify matches expected.bin in %zu, cfgconvert.bin in %zu\n",
           pairs, cfgconvert_files, pairs_text, text_same_tree, match_expected, match_cfgconvert);
    CHECK(pairs >= 13);
    CHECK_EQ_U(text_same_tree, pairs_text);
    CHECK_EQ_U(match_expected, pairs_text);
    TEST_END();
}
