/* The format table and ferry_asset (include/ferry/format.h): every row read
 * from a sample of its format, written back byte for byte, validated,
 * described (the info JSON parses and names the format); bad input of every
 * format refused with a located error; names; ferry_asset_open's refusals;
 * an archive's entries checked one by one; layouts; scenes both ways. */
#define _DEFAULT_SOURCE /* mkfifo */
#include "support.h"
#include "test.h"

#include <ferry/format.h>
#include <ferry/gltf.h>
#include <ferry/pbo.h>

#include <jansson.h>
#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "core/platform.h"

typedef struct sample {
    ferry_format format;
    const char *path; /* under the source tree */
    bool valid;       /* ferry_asset_validate finds no error */
} sample;

static const sample samples[] = {
    {FERRY_FORMAT_ALO_MODEL, "samples/alamo/walker.alo", true},
    {FERRY_FORMAT_ALO_PARTICLE, "samples/alamo/p_walker_exhaust.alo", true},
    {FERRY_FORMAT_ALA, "samples/alamo/walker_idle_00.ala", true},
    {FERRY_FORMAT_ODOL, "samples/odol/box.p3d", true},
    {FERRY_FORMAT_ALM, "fuzz/corpus/alm/fixture_v10.alm", true},
    {FERRY_FORMAT_GLB, "fuzz/corpus/gltf/crate.glb", false},
    {FERRY_FORMAT_GLTF, "fuzz/corpus/gltf/skinned_triangle.gltf", false},
    {FERRY_FORMAT_PAA, "fuzz/corpus/paa/dxt1_tags.paa", true},
    {FERRY_FORMAT_MEG, "fuzz/corpus/meg/format2.meg", true},
    {FERRY_FORMAT_PBO, "fuzz/corpus/pbo/addon.pbo", true},
    {FERRY_FORMAT_RAP, "fuzz/corpus/config/material.bin", true},
    {FERRY_FORMAT_CONFIG_TEXT, "fuzz/corpus/config/material.rvmat", true},
};
#define SAMPLE_COUNT (sizeof samples / sizeof samples[0])

static char *source_path(const char *rel)
{
    static char buf[8][4096];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 4096, "%s/%s", FERRY_SOURCE_DIR, rel);
    return p;
}

static uint8_t *load(const char *rel, size_t *size)
{
    uint8_t *d = test_read_file(source_path(rel), size);
    CHECK_MSG(d != NULL, "cannot read %s", rel);
    return d;
}

/* The info JSON as jansson, or NULL (checked). */
static json_t *info_json(const ferry_asset *a, ferry_info_detail detail)
{
    ferry_buffer text = {0};
    ferry_error err;
    ferry_info_options o = {detail, false, false};
    json_t *j = NULL;
    if (ferry_asset_info(a, &o, &text, &err) == FERRY_OK) {
        json_error_t jerr;
        j = json_loadb((const char *)text.data, text.size, JSON_ALLOW_NUL, &jerr);
        CHECK_MSG(j != NULL, "info does not parse: %s", jerr.text);
    }
    ferry_buffer_free(&text);
    return j;
}

static void test_table(void)
{
    size_t n = ferry_format_count();
    /* Every format ferry_detect names, FERRY_FORMAT_UNKNOWN excepted. */
    CHECK_EQ_U(n, FERRY_FORMAT_CONFIG_TEXT);
    CHECK(ferry_format_at(n) == NULL);
    CHECK(ferry_format_describe(FERRY_FORMAT_UNKNOWN) == NULL);
    for (size_t i = 0; i < n; i++) {
        const ferry_format_desc *d = ferry_format_at(i);
        CHECK(d && ferry_format_describe(d->id) == d);
        if (!d) continue;
        CHECK_MSG(strcmp(d->name, ferry_format_name(d->id)) == 0, "%s", d->name);
        CHECK(d->extensions && d->extensions[0] && d->extensions[0][0] == '.');
        for (size_t k = 0; k < i; k++) {
            CHECK(ferry_format_at(k)->id != d->id);
            CHECK_MSG(strcmp(ferry_format_at(k)->key, d->key) != 0, "key %s twice", d->key);
        }
        /* An archive can be read, written, validated and described. */
        if (d->caps & FERRY_IS_ARCHIVE)
            CHECK((d->caps & (FERRY_CAN_READ | FERRY_CAN_WRITE | FERRY_CAN_VALIDATE | FERRY_CAN_INFO)) ==
                  (FERRY_CAN_READ | FERRY_CAN_WRITE | FERRY_CAN_VALIDATE | FERRY_CAN_INFO));
    }
    CHECK(ferry_format_describe(FERRY_FORMAT_MLOD)->caps == 0);
    CHECK(ferry_format_describe(FERRY_FORMAT_ALO_PARTICLE_UAW)->caps == 0);
    CHECK(ferry_format_describe(FERRY_FORMAT_MEG)->caps & FERRY_IS_ARCHIVE);
    CHECK(!(ferry_format_describe(FERRY_FORMAT_CONFIG_TEXT)->caps & FERRY_CAN_WRITE));
    CHECK(ferry_format_describe(FERRY_FORMAT_GLB)->caps == (FERRY_CAN_READ | FERRY_CAN_TO_SCENE));
}

static void test_from_name(void)
{
    static const struct {
        const char *name;
        ferry_format f;
    } cases[] = {
        {"ship.alo", FERRY_FORMAT_ALO_MODEL},     {"SHIP.ALO", FERRY_FORMAT_ALO_MODEL},
        {"a/b/walk_00.ala", FERRY_FORMAT_ALA},    {"tank.p3d", FERRY_FORMAT_ODOL},
        {"x.alm", FERRY_FORMAT_ALM},              {"x.glb", FERRY_FORMAT_GLB},
        {"x.gltf", FERRY_FORMAT_GLTF},            {"t.paa", FERRY_FORMAT_PAA},
        {"t.PAC", FERRY_FORMAT_PAA},              {"d.meg", FERRY_FORMAT_MEG},
        {"a.pbo", FERRY_FORMAT_PBO},              {"m.rvmat", FERRY_FORMAT_RAP},
        {"config.bin", FERRY_FORMAT_RAP},         {"config.cpp", FERRY_FORMAT_CONFIG_TEXT},
        {"x.hpp", FERRY_FORMAT_CONFIG_TEXT},      {"x.txt", FERRY_FORMAT_UNKNOWN},
        {".alo", FERRY_FORMAT_UNKNOWN},           {"alo", FERRY_FORMAT_UNKNOWN},
        {"", FERRY_FORMAT_UNKNOWN},               {"x.alo.bak", FERRY_FORMAT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_MSG(ferry_format_from_name(cases[i].name) == cases[i].f, "%s", cases[i].name);
    CHECK(ferry_format_from_name(NULL) == FERRY_FORMAT_UNKNOWN);
    CHECK(ferry_format_named_like_asset("DATA/ART/X.ALO"));
    CHECK(ferry_format_named_like_asset("m.rvmat"));
    CHECK(ferry_format_named_like_asset("t.pac"));
    CHECK(!ferry_format_named_like_asset("script.sqf"));
    CHECK(!ferry_format_named_like_asset("x.glb"));
    CHECK(!ferry_format_named_like_asset(NULL));
}

/* ferry_format_of_file: the content decides; the name only when the file
 * cannot be read or its content is no known format. */
static void test_of_file(const char *dir)
{
    char misnamed[600], unknown[600], missing[600];
    snprintf(misnamed, sizeof misnamed, "%s/model.p3d", dir);
    snprintf(unknown, sizeof unknown, "%s/notes.meg", dir);
    snprintf(missing, sizeof missing, "%s/missing.pbo", dir);
    size_t size;
    uint8_t *alo = load("samples/alamo/walker.alo", &size);
    ferry_error err;
    CHECK(alo && ferry_file_write(misnamed, alo, size, NULL, &err) == FERRY_OK);
    free(alo);
    CHECK(ferry_file_write(unknown, "just text\n", 10, NULL, &err) == FERRY_OK);
    ferry_format content = FERRY_FORMAT_PBO;
    CHECK(ferry_format_of_file(misnamed, &content) == FERRY_FORMAT_ALO_MODEL && content == FERRY_FORMAT_ALO_MODEL);
    CHECK(ferry_format_of_file(unknown, &content) == FERRY_FORMAT_MEG && content == FERRY_FORMAT_UNKNOWN);
    content = FERRY_FORMAT_PBO;
    CHECK(ferry_format_of_file(missing, &content) == FERRY_FORMAT_PBO && content == FERRY_FORMAT_UNKNOWN);
    CHECK(ferry_format_of_file(dir, NULL) == FERRY_FORMAT_UNKNOWN); /* a folder: not read, no format's name */
    CHECK(ferry_format_of_file(source_path("samples/odol/box.p3d"), NULL) == FERRY_FORMAT_ODOL);
    CHECK(ferry_format_of_file(NULL, &content) == FERRY_FORMAT_UNKNOWN && content == FERRY_FORMAT_UNKNOWN);
    CHECK(test_remove_file(misnamed) && test_remove_file(unknown));
}

/* One row through every verb its caps promise, from its sample's bytes and
 * from its path. */
/* The folder of the glTF samples, where a .gltf finds its buffer. */
static const ferry_file_source *gltf_folder(void)
{
    static ferry_file_source folder;
    static bool open;
    ferry_error err;
    if (!open) open = ferry_file_source_folder(source_path("fuzz/corpus/gltf"), &folder, &err) == FERRY_OK;
    return open ? &folder : NULL;
}

static void test_row(const sample *s, const char *dir)
{
    size_t size;
    uint8_t *data = load(s->path, &size);
    if (!data) return;
    const ferry_format_desc *d = ferry_format_describe(s->format);
    ferry_asset *a = NULL;
    ferry_error err;
    ferry_format read_as = FERRY_FORMAT_UNKNOWN;
    ferry_asset_options o = {.name = "sample", .detected = &read_as};
    if (s->format == FERRY_FORMAT_GLTF) o.files = gltf_folder(); /* its buffer is a file beside it */
    CHECK_MSG(ferry_asset_read(data, size, &o, &a, &err) == FERRY_OK, "%s: %s", s->path, err.message);
    if (!a) {
        free(data);
        return;
    }
    CHECK(read_as == s->format);
    CHECK(ferry_asset_format(a) == s->format);
    CHECK(ferry_asset_object(a) != NULL);
    size_t got;
    CHECK(ferry_asset_bytes(a, &got) == data && got == size); /* not copied */
    CHECK(ferry_asset_mapping(a) == NULL);
    CHECK(strcmp(ferry_asset_name(a), "sample") == 0);

    ferry_buffer out = {0};
    ferry_result r = ferry_asset_write(a, &out, &err);
    if (d->caps & FERRY_CAN_WRITE) {
        CHECK_MSG(r == FERRY_OK && out.size == size && memcmp(out.data, data, size) == 0, "%s: not written back",
                  s->path);
        char target[4200];
        snprintf(target, sizeof target, "%s/out%s", dir, d->extensions[0]);
        CHECK(ferry_asset_save(a, target, NULL, &err) == FERRY_OK);
        size_t saved_size;
        uint8_t *saved = test_read_file(target, &saved_size);
        CHECK_MSG(saved && saved_size == size && memcmp(saved, data, size) == 0, "%s: not saved back", s->path);
        free(saved);
        /* Never over the input. */
        CHECK(ferry_asset_save(a, target, &(ferry_write_options){.protect_input = target}, &err) == FERRY_ERR_ARGUMENT);
        test_remove_file(target);
    } else {
        CHECK(r == FERRY_ERR_UNSUPPORTED && out.size == 0);
    }
    ferry_buffer_free(&out);

    ferry_diagnostics diags = {0};
    size_t errors = ferry_asset_validate(a, NULL, &diags);
    if (d->caps & FERRY_CAN_VALIDATE) {
        CHECK_MSG(!s->valid || errors == 0, "%s: %zu errors", s->path, errors);
        CHECK(errors == diags.error_count);
    } else {
        CHECK(errors == 1 && diags.count == 1); /* said so, as an error */
    }
    ferry_diagnostics_free(&diags);

    json_t *j = info_json(a, FERRY_INFO_SUMMARY);
    if (d->caps & FERRY_CAN_INFO) {
        CHECK(j && json_is_object(j));
        CHECK_MSG(j && strcmp(json_string_value(json_object_get(j, "format")), d->name) == 0, "%s", s->path);
        CHECK(j && strcmp(json_string_value(json_object_get(j, "file")), "sample") == 0);
        CHECK(j && json_integer_value(json_object_get(j, "size")) == (json_int_t)size);
        json_decref(j);
        j = info_json(a, FERRY_INFO_FULL);
        CHECK(j && json_is_object(j) && json_object_get(j, "format"));
    } else {
        CHECK(j == NULL);
    }
    json_decref(j);
    ferry_buffer text = {0};
    r = ferry_asset_info(a, &(ferry_info_options){.detail = FERRY_INFO_ENTRIES}, &text, &err);
    CHECK(d->caps & FERRY_IS_ARCHIVE ? r == FERRY_OK : r == FERRY_ERR_ARGUMENT);
    ferry_buffer_free(&text);

    ferry_scene *scene = NULL;
    r = ferry_asset_to_scene(a, NULL, &scene, &err);
    if (d->caps & FERRY_CAN_TO_SCENE)
        CHECK_MSG(r == FERRY_OK && scene && scene->node_count > 0, "%s: %s", s->path, err.message);
    else
        CHECK(r == FERRY_ERR_UNSUPPORTED && !scene);
    ferry_scene_free(scene);
    ferry_asset_free(a);

    /* The same from the file, mapped once. */
    const char *path = source_path(s->path);
    CHECK_MSG(ferry_asset_open(path, NULL, &a, &err) == FERRY_OK, "%s: %s", s->path, err.message);
    if (a) {
        CHECK(ferry_asset_format(a) == s->format);
        CHECK(ferry_asset_mapping(a) != NULL);
        CHECK(strcmp(ferry_asset_name(a), path) == 0);
        const uint8_t *bytes = ferry_asset_bytes(a, &got);
        CHECK(got == size && memcmp(bytes, data, size) == 0);
        if (s->format == FERRY_FORMAT_GLTF) { /* its buffer found beside it */
            CHECK(ferry_asset_to_scene(a, NULL, &scene, &err) == FERRY_OK);
            ferry_scene_free(scene);
        }
    }
    ferry_asset_free(a);
    free(data);
}

/* Every prefix of a sample (up to 600 bytes, then a few more cuts) and
 * some corruptions: refused with a located error, or read. */
static void test_bad_input(const sample *s)
{
    size_t size;
    uint8_t *data = load(s->path, &size);
    if (!data) return;
    size_t refused = 0;
    uint64_t state = 0x9E3779B97F4A7C15ull ^ size;
    for (size_t round = 0; round < 700; round++) {
        size_t n;
        uint8_t *copy = malloc(size ? size : 1);
        memcpy(copy, data, size);
        if (round < 600) {
            if (round >= size) {
                free(copy);
                continue;
            }
            n = round; /* truncated */
        } else {
            n = size; /* a few bytes changed */
            for (int k = 0; k < 4; k++) copy[test_xorshift(&state) % size] = (uint8_t)test_xorshift(&state);
        }
        ferry_asset *a = NULL;
        ferry_error err;
        /* The format forced: the reader of the row meets the damage. */
        ferry_asset_options o = {.format = s->format, .files = gltf_folder()};
        if (ferry_asset_read(copy, n, &o, &a, &err) != FERRY_OK) {
            refused++;
            CHECK_MSG(a == NULL && err.code != FERRY_OK && err.message[0], "%s: %zu bytes", s->path, n);
            /* Located: a byte offset inside the input, or (glTF) a JSON path. */
            CHECK_MSG((err.offset != FERRY_NO_OFFSET && err.offset <= n) || (err.offset == FERRY_NO_OFFSET && err.path[0]),
                      "%s: %zu bytes: offset %llu, path '%s': %s", s->path, n, (unsigned long long)err.offset, err.path,
                      err.message);
        } else {
            /* What reads is described and checked without a crash. */
            ferry_diagnostics diags = {0};
            ferry_asset_validate(a, NULL, &diags);
            ferry_diagnostics_free(&diags);
            ferry_buffer text = {0};
            ferry_asset_info(a, NULL, &text, &err);
            ferry_buffer_free(&text);
        }
        ferry_asset_free(a);
        free(copy);
    }
    CHECK_MSG(refused > 0, "%s: no damage refused", s->path);
    free(data);
}

/* Bytes of no format, of a refused format, of a format without info. */
static void test_refusals(void)
{
    ferry_asset *a = NULL;
    ferry_error err;
    ferry_format read_as = FERRY_FORMAT_ALA;
    static const uint8_t junk[] = "just some words, no format at all";
    CHECK(ferry_asset_read(junk, sizeof junk - 1, &(ferry_asset_options){.detected = &read_as}, &a, &err) ==
          FERRY_ERR_UNSUPPORTED);
    CHECK(!a && read_as == FERRY_FORMAT_UNKNOWN && strstr(err.message, "not a known format: it starts with 6a 75"));
    CHECK(ferry_asset_read(junk, 0, NULL, &a, &err) == FERRY_ERR_UNSUPPORTED && strstr(err.message, "empty"));
    /* Bytes only: it opens, of no format; its summary is refused. */
    CHECK(ferry_asset_read(junk, sizeof junk - 1, &(ferry_asset_options){.bytes_only = true}, &a, &err) == FERRY_OK);
    CHECK(a && ferry_asset_format(a) == FERRY_FORMAT_UNKNOWN && !ferry_asset_object(a));
    ferry_buffer text = {0};
    CHECK(ferry_asset_info(a, NULL, &text, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(ferry_asset_info(a, &(ferry_info_options){.detail = FERRY_INFO_FULL}, &text, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "not a known format") != NULL);
    ferry_asset_free(a);

    /* MLOD: the ODOL reader refuses it, naming it; the failure is MLOD's. */
    static const uint8_t mlod[] = "MLOD\x01\x01\0\0\0\0\0\0";
    read_as = FERRY_FORMAT_UNKNOWN;
    CHECK(ferry_asset_read(mlod, sizeof mlod - 1, &(ferry_asset_options){.detected = &read_as}, &a, &err) ==
          FERRY_ERR_UNSUPPORTED);
    CHECK(read_as == FERRY_FORMAT_MLOD && strstr(err.message, "MLOD"));

    /* Universe at War: refused by the particle reader; its chunk tree is
     * still shown with bytes_only (what `ferry dump` does). */
    static const uint8_t uaw[] = {0x00, 0x15, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4};
    read_as = FERRY_FORMAT_UNKNOWN;
    CHECK(ferry_asset_read(uaw, sizeof uaw, &(ferry_asset_options){.detected = &read_as}, &a, &err) != FERRY_OK);
    CHECK(read_as == FERRY_FORMAT_ALO_PARTICLE_UAW);
    CHECK(ferry_asset_read(uaw, sizeof uaw, &(ferry_asset_options){.bytes_only = true, .name = "uaw.alo"}, &a, &err) ==
          FERRY_OK);
    CHECK(ferry_asset_format(a) == FERRY_FORMAT_ALO_PARTICLE_UAW && !ferry_asset_object(a));
    json_t *j = info_json(a, FERRY_INFO_FULL);
    CHECK(j && json_array_size(json_object_get(j, "chunks")) == 1);
    CHECK(j && strcmp(json_string_value(json_object_get(j, "file")), "uaw.alo") == 0);
    json_decref(j);
    /* validate reads it for the call: the refusal is the one error. */
    ferry_diagnostics diags = {0};
    CHECK(ferry_asset_validate(a, NULL, &diags) == 1 && diags.count == 1);
    CHECK(diags.count && strcmp(diags.items[0].rule, "read-error") == 0);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(a);

    /* A glTF has no info: refused before it is read when info is what is needed. */
    size_t size;
    uint8_t *glb = load("fuzz/corpus/gltf/crate.glb", &size);
    read_as = FERRY_FORMAT_ALA;
    CHECK(ferry_asset_read(glb, size, &(ferry_asset_options){.need = FERRY_CAN_INFO, .detected = &read_as}, &a, &err) ==
          FERRY_ERR_UNSUPPORTED);
    CHECK(read_as == FERRY_FORMAT_UNKNOWN && strstr(err.message, "not a known format: it starts with 67 6c 54 46"));
    CHECK(ferry_asset_read(glb, size, &(ferry_asset_options){.need = FERRY_CAN_TO_SCENE}, &a, &err) == FERRY_OK);
    ferry_asset_free(a);
    free(glb);
    CHECK(ferry_asset_read(NULL, 3, NULL, &a, &err) == FERRY_ERR_ARGUMENT);
}

/* ferry_asset_open of what is no regular file: the core's I/O refusal. */
static void test_open_refusals(const char *dir)
{
    char path[4200], fifo[4200];
    ferry_asset *a = (ferry_asset *)1;
    ferry_error err, want;
    uint8_t *bytes;
    size_t n;
    ferry_format read_as = FERRY_FORMAT_ALA;
    ferry_asset_options o = {.detected = &read_as};
    snprintf(path, sizeof path, "%s/missing.alo", dir);
    CHECK(ferry_asset_open(path, &o, &a, &err) == FERRY_ERR_IO && a == NULL && read_as == FERRY_FORMAT_UNKNOWN);
    CHECK(ferry_file_load(path, 0, &bytes, &n, &want) == FERRY_ERR_IO && strcmp(err.message, want.message) == 0);
    CHECK(ferry_asset_open(dir, &o, &a, &err) == FERRY_ERR_IO && a == NULL);
    CHECK(ferry_file_load(dir, 0, &bytes, &n, &want) == FERRY_ERR_IO && strcmp(err.message, want.message) == 0);
#ifdef _WIN32
    /* A named pipe, told by its name (\\.\pipe\...) and never opened. */
    snprintf(fifo, sizeof fifo, "\\\\.\\pipe\\ferry-test-format-%ld", fy_process_id());
    bool made = true;
#else
    snprintf(fifo, sizeof fifo, "%s/pipe.alo", dir);
    bool made = mkfifo(fifo, 0600) == 0;
    CHECK(made);
#endif
    if (made) {
        CHECK(ferry_asset_open(fifo, &o, &a, &err) == FERRY_ERR_IO && a == NULL); /* and no hang */
        CHECK(ferry_file_load(fifo, 0, &bytes, &n, &want) == FERRY_ERR_IO && strcmp(err.message, want.message) == 0);
        CHECK_MSG(strstr(err.message, "FIFO"), "%s", err.message);
#ifndef _WIN32
        test_remove_file(fifo);
#endif
    }
    /* Content of no format, named .p3d: said by its name. */
    snprintf(path, sizeof path, "%s/box.p3d", dir);
    FILE *f = fopen(path, "wb");
    fputs("JUNK", f);
    fclose(f);
    CHECK(ferry_asset_open(path, NULL, &a, &err) == FERRY_ERR_MALFORMED);
    CHECK(strstr(err.message, "not a P3D (ODOL or MLOD) file: it starts with bytes 4a 55 4e 4b") != NULL);
    /* The size limit: archives have none, other formats max_size. */
    CHECK(ferry_asset_open(source_path("samples/alamo/walker.alo"), &(ferry_asset_options){.max_size = 100}, &a, &err) ==
          FERRY_ERR_LIMIT);
    CHECK(ferry_asset_open(source_path("fuzz/corpus/pbo/addon.pbo"), &(ferry_asset_options){.max_size = 100}, &a,
                           &err) == FERRY_OK);
    ferry_asset_free(a);
    test_remove_file(path);
}

/* An archive's entries: which are checked, how they are named. */
typedef struct seen {
    char labels[8][128];
    ferry_format formats[8];
    bool failed[8];
    size_t errors[8];
    size_t count;
} seen;

static void on_entry(void *user, const ferry_asset_entry_report *e)
{
    seen *s = user;
    if (s->count >= 8) return;
    snprintf(s->labels[s->count], sizeof s->labels[0], "%s", e->label);
    s->formats[s->count] = e->format;
    s->failed[s->count] = e->error != NULL;
    s->errors[s->count] = e->error_count;
    CHECK(e->error ? e->diagnostics == NULL && e->error_count == 1 : e->diagnostics != NULL);
    s->count++;
}

static void test_entries(void)
{
    size_t model_size, rvmat_size;
    uint8_t *model = load("samples/alamo/walker.alo", &model_size);
    uint8_t *rvmat = load("fuzz/corpus/config/material.rvmat", &rvmat_size);
    if (!model || !rvmat) return;
    static const uint8_t junk[] = "not a model";
    static const uint8_t text[] = "class X { a = 1; };"; /* config text, not named .rvmat: skipped */
    ferry_pbo_pack_file files[] = {
        {"art/walker.alo", model, model_size, 0},      {"art/broken.alo", junk, sizeof junk - 1, 0},
        {"readme.txt", junk, sizeof junk - 1, 0},      {"config.cpp", text, sizeof text - 1, 0},
        {"data/mat.rvmat", rvmat, rvmat_size, 0},
    };
    ferry_buffer pbo = {0};
    ferry_error err;
    CHECK(ferry_pbo_pack(files, 5, &(ferry_pbo_pack_options){.prefix = "x"}, &pbo, &err) == FERRY_OK);
    ferry_asset *a = NULL;
    CHECK(ferry_asset_read(pbo.data, pbo.size, &(ferry_asset_options){.name = "a.pbo"}, &a, &err) == FERRY_OK);
    seen s = {0};
    ferry_diagnostics diags = {0};
    ferry_asset_validate_options vo = {.entry = on_entry, .user = &s};
    size_t errors = ferry_asset_validate(a, &vo, &diags);
    CHECK(diags.error_count == 0); /* the archive itself is fine */
    CHECK_EQ_U(errors, 1);          /* broken.alo */
    CHECK_EQ_U(s.count, 3);         /* in the archive's order (by name) */
    CHECK(strcmp(s.labels[0], "a.pbo:art\\broken.alo") == 0 && s.failed[0] && s.formats[0] == FERRY_FORMAT_UNKNOWN);
    CHECK(strcmp(s.labels[1], "a.pbo:art\\walker.alo") == 0 && !s.failed[1] && s.formats[1] == FERRY_FORMAT_ALO_MODEL);
    CHECK(strcmp(s.labels[2], "a.pbo:data\\mat.rvmat") == 0 && s.formats[2] == FERRY_FORMAT_CONFIG_TEXT && !s.errors[2]);
    ferry_diagnostics_free(&diags);
    /* Without the callback, the archive alone. */
    memset(&s, 0, sizeof s);
    CHECK(ferry_asset_validate(a, NULL, &diags) == 0 && s.count == 0);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(a);

    /* An archive inside one: its entries too, labelled through it. */
    ferry_pbo_pack_file outer_files[] = {{"inner.pbo", pbo.data, pbo.size, 0}};
    ferry_buffer outer = {0};
    CHECK(ferry_pbo_pack(outer_files, 1, NULL, &outer, &err) == FERRY_OK);
    CHECK(ferry_asset_read(outer.data, outer.size, &(ferry_asset_options){.name = "o.pbo"}, &a, &err) == FERRY_OK);
    memset(&s, 0, sizeof s);
    errors = ferry_asset_validate(a, &vo, &diags);
    CHECK_EQ_U(errors, 1);
    CHECK_EQ_U(s.count, 4);
    CHECK(strcmp(s.labels[0], "o.pbo:inner.pbo") == 0 && s.formats[0] == FERRY_FORMAT_PBO);
    CHECK(strcmp(s.labels[1], "o.pbo:inner.pbo:art\\broken.alo") == 0 && s.failed[1]);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(a);

    /* A MEG whose one entry is the whole archive (entries may overlap
     * anything): checked inside itself down to a depth, then said so. */
    uint8_t self[35] = {1, 0, 0, 0, 1, 0, 0, 0, 5, 0, 'A', '.', 'M', 'E', 'G'};
    self[23] = 0; /* index 0 (crc at 15..18 left 0), size at 23, start 0, name 0 */
    self[23] = (uint8_t)sizeof self;
    CHECK(ferry_detect(self, sizeof self) == FERRY_FORMAT_MEG);
    CHECK(ferry_asset_read(self, sizeof self, &(ferry_asset_options){.name = "s.meg"}, &a, &err) == FERRY_OK);
    memset(&s, 0, sizeof s);
    ferry_asset_validate(a, &vo, &diags);
    CHECK_EQ_U(s.count, 4);
    CHECK(strcmp(s.labels[3], "s.meg:A.MEG:A.MEG:A.MEG:A.MEG") == 0 && s.formats[3] == FERRY_FORMAT_MEG);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(a);
    ferry_buffer_free(&outer);
    ferry_buffer_free(&pbo);
    free(model);
    free(rvmat);
}

static void test_layouts(void)
{
    size_t size;
    uint8_t *data = load("samples/alamo/walker_idle_00.ala", &size);
    if (!data) return;
    ferry_asset *a = NULL, *b = NULL;
    ferry_error err;
    CHECK(ferry_asset_read(data, size, NULL, &a, &err) == FERRY_OK);
    const ferry_ala_animation *anim = ferry_asset_object(a);
    unsigned other = anim->format == 1 ? 2 : 1;
    ferry_buffer out = {0}, back = {0};
    CHECK(ferry_asset_write_layout(a, other, &out, &err) == FERRY_OK);
    CHECK(ferry_asset_read(out.data, out.size, NULL, &b, &err) == FERRY_OK);
    CHECK(b && ((const ferry_ala_animation *)ferry_asset_object(b))->format == other);
    /* and back: the same bytes */
    CHECK(b && ferry_asset_write_layout(b, anim->format, &back, &err) == FERRY_OK);
    CHECK(back.size == size && memcmp(back.data, data, size) == 0);
    CHECK(ferry_asset_write_layout(a, 3, &back, &err) == FERRY_ERR_ARGUMENT);
    ferry_buffer_free(&out);
    ferry_buffer_free(&back);
    ferry_asset_free(b);
    ferry_asset_free(a);
    free(data);

    /* A text config: no bytes of its own to write, but raP and new text. */
    data = load("fuzz/corpus/config/material.rvmat", &size);
    CHECK(data && ferry_asset_read(data, size, NULL, &a, &err) == FERRY_OK);
    CHECK(ferry_asset_write(a, &out, &err) == FERRY_ERR_UNSUPPORTED);
    CHECK(ferry_asset_write_layout(a, FERRY_LAYOUT_RAP, &out, &err) == FERRY_OK);
    CHECK(ferry_asset_read(out.data, out.size, NULL, &b, &err) == FERRY_OK && ferry_asset_format(b) == FERRY_FORMAT_RAP);
    CHECK(ferry_asset_write_layout(b, FERRY_LAYOUT_TEXT, &back, &err) == FERRY_OK && back.size > 0);
    ferry_buffer_free(&out);
    ferry_buffer_free(&back);
    ferry_asset_free(b);
    ferry_asset_free(a);
    free(data);

    data = load("samples/odol/box.p3d", &size);
    CHECK(data && ferry_asset_read(data, size, NULL, &a, &err) == FERRY_OK);
    CHECK(ferry_asset_write_layout(a, 1, &out, &err) == FERRY_ERR_ARGUMENT);
    ferry_asset_free(a);
    free(data);
}

/* From a glTF's scene to the formats made of scenes, and back. */
static void test_scenes(void)
{
    ferry_asset *glb = NULL, *made = NULL;
    ferry_error err;
    ferry_scene *scene = NULL;
    CHECK(ferry_asset_open(source_path("fuzz/corpus/gltf/walker_walk.glb"), NULL, &glb, &err) == FERRY_OK);
    CHECK(glb && ferry_asset_to_scene(glb, NULL, &scene, &err) == FERRY_OK);
    if (!scene) {
        ferry_asset_free(glb);
        return;
    }
    for (size_t i = 0; i < ferry_format_count(); i++) {
        const ferry_format_desc *d = ferry_format_at(i);
        ferry_result r = ferry_asset_from_scene(d->id, scene, &(ferry_asset_from_scene_options){.name = "made"}, &made,
                                                &err);
        if (!(d->caps & FERRY_CAN_FROM_SCENE)) {
            CHECK(r == FERRY_ERR_UNSUPPORTED && !made);
            continue;
        }
        CHECK_MSG(r == FERRY_OK, "%s: %s", d->name, err.message);
        if (!made) continue;
        CHECK(ferry_asset_format(made) == d->id && ferry_asset_object(made));
        size_t size;
        const uint8_t *bytes = ferry_asset_bytes(made, &size);
        ferry_buffer out = {0};
        CHECK(ferry_asset_write(made, &out, &err) == FERRY_OK && out.size == size && memcmp(out.data, bytes, size) == 0);
        ferry_buffer_free(&out);
        ferry_asset_free(made);
        made = NULL;
    }
    /* A model with its animation, back to a scene. */
    ferry_asset *model = NULL, *anim = NULL;
    CHECK(ferry_asset_from_scene(FERRY_FORMAT_ALO_MODEL, scene, NULL, &model, &err) == FERRY_OK);
    CHECK(ferry_asset_from_scene(FERRY_FORMAT_ALA, scene, NULL, &anim, &err) == FERRY_OK);
    ferry_scene *again = NULL;
    const ferry_asset *anims[] = {anim};
    ferry_asset_scene_options so = {.animations = anims, .animation_count = 1};
    CHECK(model && anim && ferry_asset_to_scene(model, &so, &again, &err) == FERRY_OK);
    CHECK(again && again->animation_count == 1);
    /* an animation that is not one is refused */
    const ferry_asset *wrong[] = {model};
    so.animations = wrong;
    ferry_scene *none = NULL;
    CHECK(ferry_asset_to_scene(model, &so, &none, &err) == FERRY_ERR_ARGUMENT && !none);
    ferry_scene_free(again);
    ferry_asset_free(model);
    ferry_asset_free(anim);
    ferry_scene_free(scene);
    ferry_asset_free(glb);
}

static void test_text_utf8(void)
{
    ferry_buffer out = {0};
    CHECK(!ferry_text_utf8("abc\xc3\xa9", 5, &out) && out.size == 5 && memcmp(out.data, "abc\xc3\xa9", 5) == 0);
    ferry_buffer_free(&out);
    /* Latin-1: each byte one character. */
    CHECK(ferry_text_utf8("a\xe9\xff", 3, &out) && out.size == 5 && memcmp(out.data, "a\xc3\xa9\xc3\xbf", 5) == 0);
    ferry_buffer_free(&out);
    /* A NUL is a character; a truncated sequence is not UTF-8. */
    CHECK(!ferry_text_utf8("a\0b", 3, &out) && out.size == 3);
    ferry_buffer_free(&out);
    CHECK(ferry_text_utf8("\xc3", 1, &out) && out.size == 2);
    ferry_buffer_free(&out);
    /* Overlong and surrogate forms are not UTF-8. */
    CHECK(ferry_text_utf8("\xc0\xaf", 2, &out));
    ferry_buffer_free(&out);
    CHECK(ferry_text_utf8("\xed\xa0\x80", 3, &out));
    ferry_buffer_free(&out);
}

int main(void)
{
    char dir[512];
    if (!test_make_temp_dir("ferry-test-format", dir, sizeof dir)) {
        perror("test_make_temp_dir");
        return 1;
    }
    test_table();
    test_from_name();
    test_of_file(dir);
    for (size_t i = 0; i < SAMPLE_COUNT; i++) test_row(&samples[i], dir);
    for (size_t i = 0; i < SAMPLE_COUNT; i++) test_bad_input(&samples[i]);
    test_refusals();
    test_open_refusals(dir);
    test_entries();
    test_layouts();
    test_scenes();
    test_text_utf8();
    CHECK(test_remove_dir(dir));
    TEST_END();
}
