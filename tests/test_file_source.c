/* File sources: the folder source on a temporary folder (exact loads,
 * case-insensitive finds, listing, limits, missing files, paths that would
 * leave the root), and a source held in memory driving the texture lookup,
 * the animation discovery and the ALO converter without the disk. */
#define _DEFAULT_SOURCE
#include <ferry/ala.h>
#include <ferry/convert.h>
#include <ferry/ferry.h>
#include <ferry/gltf.h>

#include <stdio.h>

#include "core/platform.h"
#include "support.h"
#include "test.h"

#define SAMPLES FERRY_SOURCE_DIR "/samples/alamo"

static void write_file(const char *dir, const char *name, const char *text, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(text, 1, size, f) == size);
    fclose(f);
}

/* ---- listing into a string: "name:kind" joined by spaces, sorted ---- */

typedef struct listing {
    char names[32][64];
    size_t count;
    size_t stop_after; /* 0: never stop */
} listing;

static bool add_entry(void *ctx, const char *name, ferry_entry_kind kind)
{
    listing *l = ctx;
    if (l->count < 32) snprintf(l->names[l->count++], 64, "%s:%s", name, kind == FERRY_ENTRY_FOLDER ? "folder" : "file");
    return !(l->stop_after && l->count >= l->stop_after);
}

static int cmp_names(const void *a, const void *b) { return strcmp(a, b); }

static void listing_text(listing *l, char *out, size_t size)
{
    qsort(l->names, l->count, sizeof l->names[0], cmp_names);
    out[0] = '\0';
    for (size_t i = 0; i < l->count; i++) {
        strncat(out, i ? " " : "", size - strlen(out) - 1);
        strncat(out, l->names[i], size - strlen(out) - 1);
    }
}

static void test_path_rules(void)
{
    CHECK(ferry_file_source_path_ok(""));
    CHECK(ferry_file_source_path_ok("a"));
    CHECK(ferry_file_source_path_ok("Art/Textures/ROCK.DDS"));
    CHECK(ferry_file_source_path_ok("..a/b..")); /* dots inside names are names */
    CHECK(!ferry_file_source_path_ok(NULL));
    CHECK(!ferry_file_source_path_ok(".."));
    CHECK(!ferry_file_source_path_ok("../x"));
    CHECK(!ferry_file_source_path_ok("a/../../x"));
    CHECK(!ferry_file_source_path_ok("a/.."));
    CHECK(!ferry_file_source_path_ok("./a"));
    CHECK(!ferry_file_source_path_ok("/etc/passwd"));
    CHECK(!ferry_file_source_path_ok("a//b"));
    CHECK(!ferry_file_source_path_ok("a/"));
    CHECK(!ferry_file_source_path_ok("a\\..\\b"));
}

static void test_folder(void)
{
    char top[512];
    CHECK(test_make_temp_dir("ferry-source", top, sizeof top));
    char root[600], sub[700], tex[700];
    snprintf(root, sizeof root, "%s/root", top);
    snprintf(sub, sizeof sub, "%s/sub", root);
    snprintf(tex, sizeof tex, "%s/Textures", root);
    CHECK(test_make_dir(root) && test_make_dir(sub) && test_make_dir(tex));
    write_file(top, "secret.txt", "outside", 7);
    write_file(root, "Rock.DDS", "rock", 4);
    write_file(sub, "Inner.tga", "inner", 5);
    char big[100];
    memset(big, 'b', sizeof big);
    write_file(root, "big.bin", big, sizeof big);

    ferry_file_source src;
    ferry_error err;
    CHECK(ferry_file_source_folder(root, &src, &err) == FERRY_OK);
    CHECK(strcmp(src.label, root) == 0);

    /* Listing: files and folders of the root, then of a sub-folder. */
    listing l = {0};
    char text[512];
    CHECK(ferry_file_source_list(&src, "", add_entry, &l, &err) == FERRY_OK);
    listing_text(&l, text, sizeof text);
    CHECK_MSG(strcmp(text, "Rock.DDS:file Textures:folder big.bin:file sub:folder") == 0, "%s", text);
    memset(&l, 0, sizeof l);
    CHECK(ferry_file_source_list(&src, "sub", add_entry, &l, &err) == FERRY_OK);
    listing_text(&l, text, sizeof text);
    CHECK_MSG(strcmp(text, "Inner.tga:file") == 0, "%s", text);
    /* The callback stops a listing early. */
    memset(&l, 0, sizeof l);
    l.stop_after = 1;
    CHECK(ferry_file_source_list(&src, "", add_entry, &l, &err) == FERRY_OK && l.count == 1);
    /* A folder that is not there. */
    CHECK(ferry_file_source_list(&src, "nope", add_entry, &l, &err) == FERRY_ERR_IO);

    /* Finding ignores case; the kind must match. */
    char found[256];
    CHECK(ferry_file_source_find(&src, "", "rock.dds", FERRY_ENTRY_FILE, found, sizeof found));
    CHECK(strcmp(found, "Rock.DDS") == 0);
    CHECK(ferry_file_source_find(&src, "sub", "INNER.TGA", FERRY_ENTRY_FILE, found, sizeof found));
    CHECK(strcmp(found, "sub/Inner.tga") == 0);
    CHECK(ferry_file_source_find(&src, "", "TEXTURES", FERRY_ENTRY_FOLDER, found, sizeof found));
    CHECK(strcmp(found, "Textures") == 0);
    CHECK(!ferry_file_source_find(&src, "", "textures", FERRY_ENTRY_FILE, found, sizeof found));
    CHECK(!ferry_file_source_find(&src, "", "missing.dds", FERRY_ENTRY_FILE, found, sizeof found));
    CHECK(!ferry_file_source_find(&src, "", "rock.dds", FERRY_ENTRY_FILE, found, 4)); /* does not fit */
    CHECK(!ferry_file_source_find(&src, "..", "secret.txt", FERRY_ENTRY_FILE, found, sizeof found));
    char shown[512];
    ferry_file_source_display(&src, "sub/Inner.tga", shown, sizeof shown);
    char expect[800];
    snprintf(expect, sizeof expect, "%s/sub/Inner.tga", root); /* "label/path", the root's separators or not */
    CHECK_MSG(strcmp(shown, expect) == 0, "%s", shown);

    /* Loading is exact; sizes are limited. */
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(ferry_file_source_load(&src, "Rock.DDS", 0, &data, &size, &err) == FERRY_OK);
    CHECK(size == 4 && data && memcmp(data, "rock", 4) == 0);
    ferry_file_source_release(&src, data, size);
    CHECK(ferry_file_source_load(&src, "sub/Inner.tga", 5, &data, &size, &err) == FERRY_OK && size == 5);
    ferry_file_source_release(&src, data, size);
    CHECK(ferry_file_source_load(&src, "big.bin", 99, &data, &size, &err) == FERRY_ERR_LIMIT);
    CHECK(data == NULL && size == 0 && strstr(err.message, "over the limit of 99") != NULL);
    CHECK(ferry_file_source_load(&src, "big.bin", 100, &data, &size, &err) == FERRY_OK && size == 100);
    ferry_file_source_release(&src, data, size);
    CHECK(ferry_file_source_load(&src, "missing.bin", 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK(data == NULL && strstr(err.message, "missing.bin") != NULL);
    CHECK(ferry_file_source_load(&src, "sub", 0, &data, &size, &err) == FERRY_ERR_IO); /* a folder */

    /* Nothing outside the root: the file exists, the paths are refused. */
    const char *escapes[] = {"../secret.txt", "sub/../../secret.txt", "./Rock.DDS", "/etc/passwd", "sub//Inner.tga", ""};
    for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
        CHECK_MSG(ferry_file_source_load(&src, escapes[i], 0, &data, &size, &err) == FERRY_ERR_ARGUMENT, "%s",
                  escapes[i]);
        CHECK(data == NULL);
    }
    CHECK(ferry_file_source_list(&src, "..", add_entry, &l, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_file_source_list(&src, "sub/..", add_entry, &l, &err) == FERRY_ERR_ARGUMENT);
    /* The folder source itself refuses them too, called directly. */
    CHECK(src.load(src.user, "../secret.txt", 0, &data, &size, &err) == FERRY_ERR_ARGUMENT);
    CHECK(src.list(src.user, "sub/../..", add_entry, &l, &err) == FERRY_ERR_ARGUMENT);

    /* Where a file lies on the disk: an absolute path naming the same
     * bytes; nothing for a missing file, a path out of the root or a
     * buffer too small; nothing from a source without disk paths. */
    char disk[1024];
    CHECK(ferry_file_source_disk_path(&src, "sub/Inner.tga", disk, sizeof disk));
    CHECK(disk[0] == '/' || (disk[0] && disk[1] == ':'));
    CHECK(ferry_file_load(disk, 0, &data, &size, &err) == FERRY_OK && size == 5 && memcmp(data, "inner", 5) == 0);
    ferry_file_free(data);
    CHECK(!ferry_file_source_disk_path(&src, "missing.bin", disk, sizeof disk) && disk[0] == '\0');
    CHECK(!ferry_file_source_disk_path(&src, "../secret.txt", disk, sizeof disk) && disk[0] == '\0');
    CHECK(!ferry_file_source_disk_path(&src, "Rock.DDS", disk, 4));
    ferry_file_source cached;
    CHECK(ferry_file_source_cached(&src, &cached, &err) == FERRY_OK);
    CHECK(ferry_file_source_disk_path(&cached, "Rock.DDS", disk, sizeof disk) && strstr(disk, "Rock.DDS") != NULL);
    ferry_file_source_close(&cached);
    ferry_file_source none = src;
    none.disk_path = NULL; /* a caller's source, an archive's */
    CHECK(!ferry_file_source_disk_path(&none, "Rock.DDS", disk, sizeof disk));

    ferry_file_source_close(&src);
    CHECK(src.load == NULL && src.user == NULL);
    CHECK(ferry_file_source_folder("", &src, &err) == FERRY_ERR_ARGUMENT);

    /* A source rooted at a missing folder lists nothing and loads nothing. */
    char gone[600];
    snprintf(gone, sizeof gone, "%s/gone", top);
    CHECK(ferry_file_source_folder(gone, &src, &err) == FERRY_OK);
    CHECK(ferry_file_source_list(&src, "", add_entry, &l, &err) == FERRY_ERR_IO);
    CHECK(!ferry_file_source_find(&src, "", "x", FERRY_ENTRY_FILE, found, sizeof found));
    ferry_file_source_close(&src);

    CHECK(test_remove_tree(top));
}

/* ---- a source in memory: a few named files, folders implied by paths ---- */

typedef struct mem_file {
    const char *path;
    const uint8_t *data;
    size_t size;
} mem_file;

typedef struct mem_source {
    const mem_file *files;
    size_t count;
    size_t loads, releases, outstanding, lists;
} mem_source;

static ferry_result mem_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    mem_source *m = user;
    for (size_t i = 0; i < m->count; i++) {
        if (strcmp(m->files[i].path, path) != 0) continue;
        if (max_size && m->files[i].size > max_size) {
            err->code = FERRY_ERR_LIMIT;
            return FERRY_ERR_LIMIT;
        }
        *data = malloc(m->files[i].size + 1);
        if (!*data) return FERRY_ERR_NOMEM;
        memcpy(*data, m->files[i].data, m->files[i].size);
        *size = m->files[i].size;
        m->loads++;
        m->outstanding++;
        return FERRY_OK;
    }
    err->code = FERRY_ERR_IO;
    snprintf(err->message, sizeof err->message, "%s: no such file", path);
    return FERRY_ERR_IO;
}

static void mem_release(void *user, uint8_t *data, size_t size)
{
    mem_source *m = user;
    (void)size;
    m->releases++;
    m->outstanding--;
    free(data);
}

static ferry_result mem_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    mem_source *m = user;
    m->lists++;
    size_t n = strlen(path);
    bool any = n == 0;
    char seen[16][128];
    size_t seen_count = 0;
    for (size_t i = 0; i < m->count; i++) {
        const char *p = m->files[i].path;
        if (n && (strncmp(p, path, n) != 0 || p[n] != '/')) continue;
        any = true;
        const char *rest = n ? p + n + 1 : p;
        const char *slash = strchr(rest, '/');
        char name[128];
        snprintf(name, sizeof name, "%.*s", slash ? (int)(slash - rest) : (int)strlen(rest), rest);
        bool dup = false;
        for (size_t k = 0; k < seen_count; k++) dup |= strcmp(seen[k], name) == 0;
        if (dup) continue;
        if (seen_count < 16) memcpy(seen[seen_count++], name, sizeof name);
        if (!entry(ctx, name, slash ? FERRY_ENTRY_FOLDER : FERRY_ENTRY_FILE)) break;
    }
    if (!any) {
        err->code = FERRY_ERR_IO;
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

static ferry_file_source mem_source_of(mem_source *m, const char *label)
{
    ferry_file_source s = {0};
    s.load = mem_load;
    s.release = mem_release;
    s.list = mem_list;
    s.user = m;
    s.label = label;
    return s;
}

/* A source that ignores the limit it is given: the checked load refuses for it. */
static void test_limit_enforced(void)
{
    static const uint8_t ten[10] = {0};
    mem_file files[] = {{"ten.bin", ten, 10}};
    mem_source m = {files, 1, 0, 0, 0, 0};
    ferry_file_source s = mem_source_of(&m, "mem");
    s.load = NULL;
    uint8_t *data;
    size_t size;
    ferry_error err;
    CHECK(ferry_file_source_load(&s, "ten.bin", 0, &data, &size, &err) == FERRY_ERR_ARGUMENT);
    s = mem_source_of(&m, "mem");
    CHECK(ferry_file_source_load(&s, "ten.bin", 9, &data, &size, &err) == FERRY_ERR_LIMIT);
    CHECK(ferry_file_source_load(&s, "TEN.BIN", 0, &data, &size, &err) == FERRY_ERR_IO); /* exact */
    CHECK(ferry_file_source_load(&s, "ten.bin", 10, &data, &size, &err) == FERRY_OK && size == 10);
    ferry_file_source_release(&s, data, size);
    CHECK(m.outstanding == 0);
}

static void test_memory_lookup(void)
{
    static const uint8_t x[1] = {0};
    mem_file files[] = {
        {"Art/Models/ship.alo", x, 1},      {"Art/Models/deck.TGA", x, 1}, {"Art/Textures/HULL.DDS", x, 1},
        {"Art/Models/ship_idle_00.ALA", x, 1}, {"Art/Models/SHIP_walk.ala", x, 1},
        {"Art/Models/ship_big.alo", x, 1},  {"Art/Models/ship_big_idle.ala", x, 1},
        {"Art/Models/other_idle.ala", x, 1}, {"Art/Models/ship_idle_00.ala/inner.txt", x, 1},
    };
    mem_source m = {files, sizeof files / sizeof *files, 0, 0, 0, 0};
    ferry_file_source s = mem_source_of(&m, "data.meg");
    ferry_alamo_texture_places places = {0};
    places.model_source = &s;
    places.model_path = "Art/Models/ship.alo";
    const ferry_file_source *where = NULL;
    char path[256];
    /* Beside the model, a .tga name satisfied by any case. */
    CHECK(ferry_alamo_texture_find(&places, "Deck.tga", &where, path, sizeof path));
    CHECK(where == &s && strcmp(path, "Art/Models/deck.TGA") == 0);
    /* ../Textures inside the same source, .tga satisfied by .dds. */
    CHECK(ferry_alamo_texture_find(&places, "C:\\Art\\hull.tga", &where, path, sizeof path));
    CHECK(where == &s && strcmp(path, "Art/Textures/HULL.DDS") == 0);
    CHECK(!ferry_alamo_texture_find(&places, "none.tga", &where, path, sizeof path));
    /* A further folder, searched at its root. */
    static const mem_file extra_files[] = {{"none.dds", x, 1}};
    mem_source m2 = {extra_files, 1, 0, 0, 0, 0};
    ferry_file_source s2 = mem_source_of(&m2, "extra");
    const ferry_file_source *folders[] = {&s2};
    places.folders = folders;
    places.folder_count = 1;
    CHECK(ferry_alamo_texture_find(&places, "NONE.TGA", &where, path, sizeof path));
    CHECK(where == &s2 && strcmp(path, "none.dds") == 0);
    /* A .tga name and its .dds spelling are looked for in one listing per
     * folder (a model's folder is listed per texture); the name itself wins
     * over a .dds listed before it. */
    static const mem_file both_files[] = {{"HULL.dds", x, 1}, {"hull.TGA", x, 1}, {"rock.DDS", x, 1}};
    mem_source m3 = {both_files, 3, 0, 0, 0, 0};
    ferry_file_source s3 = mem_source_of(&m3, "both");
    const ferry_file_source *both[] = {&s3};
    places.folders = both;
    places.model_source = NULL;
    CHECK(ferry_alamo_texture_find(&places, "hull.tga", &where, path, sizeof path));
    CHECK(where == &s3 && strcmp(path, "hull.TGA") == 0);
    CHECK_EQ_U(m3.lists, 1);
    CHECK(ferry_alamo_texture_find(&places, "ROCK.tga", &where, path, sizeof path));
    CHECK(where == &s3 && strcmp(path, "rock.DDS") == 0);
    CHECK_EQ_U(m3.lists, 2);
    places.model_source = &s;

    /* Animations: ship_* files, not those of ship_big, not folders. */
    char **anims = NULL;
    size_t count = 0;
    ferry_error err;
    CHECK(ferry_ala_find_animations(&s, "Art/Models/ship.alo", &anims, &count, &err) == FERRY_OK);
    CHECK_EQ_U(count, 2);
    if (count == 2) {
        CHECK(strcmp(anims[0], "Art/Models/SHIP_walk.ala") == 0);
        CHECK(strcmp(anims[1], "Art/Models/ship_idle_00.ALA") == 0);
    }
    ferry_ala_free_paths(anims, count);
    CHECK(ferry_ala_find_animations(&s, "Art/Models/ship_big.alo", &anims, &count, &err) == FERRY_OK);
    CHECK(count == 1 && strcmp(anims[0], "Art/Models/ship_big_idle.ala") == 0);
    ferry_ala_free_paths(anims, count);
    CHECK(ferry_ala_find_animations(&s, "Nowhere/x.alo", &anims, &count, &err) == FERRY_ERR_IO && count == 0);
    /* A folder too long to list: refused, and the error says so. */
    char deep[1200];
    memset(deep, 'a', sizeof deep);
    memcpy(deep + sizeof deep - 7, "/x.alo", 7);
    CHECK(ferry_ala_find_animations(&s, deep, &anims, &count, &err) == FERRY_ERR_ARGUMENT && count == 0);
    CHECK(err.code == FERRY_ERR_ARGUMENT && strstr(err.message, "too long"));
    CHECK(ferry_ala_find_animations(&s, "../x.alo", &anims, &count, &err) == FERRY_ERR_ARGUMENT);
}

/* The converter embeds a texture served from memory: no file on the disk. */
static void test_converter_from_memory(void)
{
    uint8_t *model_bytes = NULL;
    size_t model_size = 0;
    ferry_error err;
    CHECK(ferry_file_load(SAMPLES "/crate.alo", 0, &model_bytes, &model_size, &err) == FERRY_OK);
    ferry_alo_model *model = NULL;
    CHECK(ferry_alo_read(model_bytes, model_size, NULL, &model, &err) == FERRY_OK);
    ferry_file_free(model_bytes);
    if (!model) return;
    /* crate.tga (the name the crate's material gives) as a 2x2 32-bit TGA. */
    uint8_t tga[18 + 16] = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 8};
    for (int i = 0; i < 4; i++) {
        tga[18 + 4 * i] = 0xff;
        tga[18 + 4 * i + 3] = 0xff;
    }
    mem_file files[] = {{"Models/crate.alo", tga, 0}, {"Textures/CRATE.TGA", tga, sizeof tga}};
    mem_source m = {files, 2, 0, 0, 0, 0};
    ferry_file_source s = mem_source_of(&m, "mem:");
    ferry_alamo_texture_places places = {&s, "Models/crate.alo", NULL, NULL, 0};
    ferry_diagnostics diags = {0};
    ferry_alo_scene_options o = {0};
    o.texture_places = &places;
    o.diagnostics = &diags;
    ferry_scene *scene = NULL;
    CHECK(ferry_alo_to_scene(model, &o, &scene, &err) == FERRY_OK);
    CHECK_EQ_U(diags.count, 0);
    if (scene) {
        CHECK_EQ_U(scene->image_count, 1);
        if (scene->image_count == 1) {
            const ferry_scene_image *im = &scene->images[0];
            CHECK(strcmp(im->mime_type, "image/png") == 0 && im->size > 8 && memcmp(im->data, "\x89PNG", 4) == 0);
            CHECK(strcmp(im->name, "crate") == 0);
            CHECK(im->source_path && strcmp(im->source_path, "mem:/Textures/CRATE.TGA") == 0);
        }
        CHECK(scene->material_count == 1 && FY_REF(&scene->materials[0], base_color_image) == 0);
    }
    ferry_scene_free(scene);
    CHECK(m.loads == 1 && m.outstanding == 0); /* loaded once, given back */
    ferry_diagnostics_free(&diags);

    /* The same model, the texture absent from the source: reported missing. */
    mem_file none[] = {{"Models/crate.alo", tga, 1}};
    mem_source m2 = {none, 1, 0, 0, 0, 0};
    ferry_file_source s2 = mem_source_of(&m2, "mem:");
    places.model_source = &s2;
    memset(&diags, 0, sizeof diags);
    CHECK(ferry_alo_to_scene(model, &o, &scene, &err) == FERRY_OK);
    CHECK(diags.count == 1 && strcmp(diags.items[0].rule, "texture-missing") == 0);
    if (scene) CHECK_EQ_U(scene->image_count, 0);
    ferry_scene_free(scene);
    ferry_diagnostics_free(&diags);
    ferry_alo_free(model);
}

/* The glTF reader loads a .gltf's external buffer from a source. */
static void test_gltf_buffers(void)
{
    static const uint8_t four[4] = {1, 2, 3, 4};
    mem_file files[] = {{"sub/b.bin", four, 4}};
    mem_source m = {files, 1, 0, 0, 0, 0};
    ferry_file_source s = mem_source_of(&m, "mem");
    ferry_gltf_read_options o = {0};
    o.files = &s;
    const char *uris[] = {"sub/b.bin", "./sub/b.bin", "sub/./b.bin", "../sub/b.bin", "sub/../sub/b.bin", "SUB/b.bin"};
    const bool ok[] = {true, true, true, false, false, false};
    for (size_t i = 0; i < sizeof uris / sizeof *uris; i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"%s\"}]}",
                 uris[i]);
        ferry_scene *scene = NULL;
        ferry_error err;
        size_t loads = m.loads;
        ferry_result r = ferry_gltf_read((const uint8_t *)doc, strlen(doc), &o, &scene, &err);
        CHECK_MSG((r == FERRY_OK) == ok[i], "%s: %s", uris[i], err.message);
        CHECK_MSG(m.loads == loads + ok[i], "%s", uris[i]);
        if (!ok[i]) CHECK(strcmp(err.path, "buffers[0]") == 0 && strstr(err.message, "could not be loaded"));
        ferry_scene_free(scene);
    }
    CHECK(m.outstanding == 0);
}

#define CHECK_STR(a, b) CHECK_MSG(strcmp((a), (b)) == 0, "'%s' vs '%s'", (a), (b))

/* The cached wrapper: each folder listed once through the inner source
 * (its failure too), the same entries replayed, loads passed through;
 * the texture lookup finds DATA/ART/TEXTURES in a further place; several
 * threads listing at once see the same entries and one inner listing. */
typedef struct lister {
    const ferry_file_source *source;
    size_t bad;
} lister;

static void list_many(void *arg)
{
    lister *l = arg;
    for (int i = 0; i < 200; i++) {
        listing got = {0};
        ferry_error err;
        char text[512];
        if (ferry_file_source_list(l->source, "Art/Models", add_entry, &got, &err) != FERRY_OK) l->bad++;
        listing_text(&got, text, sizeof text);
        if (strcmp(text, "deck.TGA:file ship.alo:file") != 0) l->bad++;
    }
}

static void test_cached_source(void)
{
    static const uint8_t x[3] = {1, 2, 3};
    mem_file files[] = {{"Art/Models/ship.alo", x, 3}, {"Art/Models/deck.TGA", x, 1},
                        {"DATA/ART/TEXTURES/ROCK.DDS", x, 2}};
    mem_source m = {files, 3, 0, 0, 0, 0};
    ferry_file_source inner = mem_source_of(&m, "mem"), c;
    ferry_error err;
    CHECK(ferry_file_source_cached(NULL, &c, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_file_source_cached(&inner, &c, &err) == FERRY_OK);
    CHECK(c.label && strcmp(c.label, "mem") == 0);
    char first[512], second[512];
    listing a = {0}, b = {0};
    CHECK(ferry_file_source_list(&c, "Art/Models", add_entry, &a, &err) == FERRY_OK);
    CHECK(ferry_file_source_list(&c, "Art/Models", add_entry, &b, &err) == FERRY_OK);
    listing_text(&a, first, sizeof first);
    listing_text(&b, second, sizeof second);
    CHECK_STR(first, "deck.TGA:file ship.alo:file");
    CHECK_STR(second, first);
    CHECK(m.lists == 1);
    /* A stop asked by the callback stops the replay, not the cache. */
    listing one = {0};
    one.stop_after = 1;
    CHECK(ferry_file_source_list(&c, "Art/Models", add_entry, &one, &err) == FERRY_OK && one.count == 1);
    /* A missing folder: the inner error, kept. */
    CHECK(ferry_file_source_list(&c, "Nowhere", add_entry, &a, &err) == FERRY_ERR_IO);
    CHECK(ferry_file_source_list(&c, "Nowhere", add_entry, &a, &err) == FERRY_ERR_IO && err.code == FERRY_ERR_IO);
    CHECK(m.lists == 2);
    /* Paths are still checked. */
    CHECK(ferry_file_source_list(&c, "../x", add_entry, &a, &err) == FERRY_ERR_ARGUMENT);
    CHECK(m.lists == 2);
    /* Loads go through, and come back through the inner release. */
    uint8_t *data;
    size_t size;
    CHECK(ferry_file_source_load(&c, "Art/Models/ship.alo", 0, &data, &size, &err) == FERRY_OK && size == 3 &&
          data[2] == 3);
    ferry_file_source_release(&c, data, size);
    CHECK(m.loads == 1 && m.outstanding == 0);
    /* A further place holding Data/Art/Textures (an archive's layout). */
    const ferry_file_source *folders[] = {&c};
    ferry_alamo_texture_places places = {0};
    places.folders = folders;
    places.folder_count = 1;
    const ferry_file_source *where = NULL;
    char path[256];
    CHECK(ferry_alamo_texture_find(&places, "rock.tga", &where, path, sizeof path));
    CHECK_STR(path, "DATA/ART/TEXTURES/ROCK.DDS");
    CHECK(where == &c);
    CHECK(!ferry_alamo_texture_find(&places, "none.tga", &where, path, sizeof path));
    size_t lists = m.lists;
    CHECK(ferry_alamo_texture_find(&places, "ROCK.dds", &where, path, sizeof path));
    CHECK(m.lists == lists); /* every folder on the way already listed */
    ferry_file_source_close(&c);

    /* Finds go through the wrapper's index: among names equal but for
     * case the first listed, as a walk of the listing finds it; the kind
     * counts; one inner listing. */
    mem_file more[] = {{"A/zeta.tga", x, 1}, {"A/Deck.tga", x, 1}, {"A/DECK.TGA", x, 1}, {"A/deck.tga/x", x, 1},
                       {"A/alpha.dds", x, 1}};
    mem_source m3 = {more, 5, 0, 0, 0, 0};
    ferry_file_source inner3 = mem_source_of(&m3, "mem");
    CHECK(ferry_file_source_cached(&inner3, &c, &err) == FERRY_OK);
    CHECK(ferry_file_source_find(&c, "A", "deck.TGA", FERRY_ENTRY_FILE, path, sizeof path));
    CHECK_STR(path, "A/Deck.tga");
    CHECK(ferry_file_source_find(&c, "A", "DECK.tga", FERRY_ENTRY_FOLDER, path, sizeof path));
    CHECK_STR(path, "A/deck.tga");
    CHECK(ferry_file_source_find(&c, "A", "ALPHA.DDS", FERRY_ENTRY_FILE, path, sizeof path));
    CHECK(ferry_file_source_find(&c, "A", "Zeta.tga", FERRY_ENTRY_FILE, path, sizeof path));
    CHECK(!ferry_file_source_find(&c, "A", "beta.tga", FERRY_ENTRY_FILE, path, sizeof path));
    CHECK(!ferry_file_source_find(&c, "A", "zeta.tga", FERRY_ENTRY_FOLDER, path, sizeof path));
    CHECK(!ferry_file_source_find(&c, "Nowhere", "zeta.tga", FERRY_ENTRY_FILE, path, sizeof path));
    CHECK(!ferry_file_source_find(&c, "../A", "zeta.tga", FERRY_ENTRY_FILE, path, sizeof path));
    /* The texture lookup through it: the name itself before its .dds. */
    ferry_alamo_texture_places beside = {0};
    beside.model_source = &c;
    beside.model_path = "A/model.alo";
    CHECK(ferry_alamo_texture_find(&beside, "alpha.tga", &where, path, sizeof path));
    CHECK_STR(path, "A/alpha.dds");
    CHECK(ferry_alamo_texture_find(&beside, "C:\\art\\DECK.tga", &where, path, sizeof path));
    CHECK_STR(path, "A/Deck.tga");
    CHECK(m3.lists == 2); /* A and Nowhere, once each */
    ferry_file_source_close(&c);

    /* Threads: one inner listing, the same entries for all. */
    mem_source m2 = {files, 3, 0, 0, 0, 0};
    ferry_file_source inner2 = mem_source_of(&m2, "mem");
    CHECK(ferry_file_source_cached(&inner2, &c, &err) == FERRY_OK);
    fy_thread t[4];
    lister l[4];
    bool started[4];
    for (int i = 0; i < 4; i++) {
        l[i] = (lister){&c, 0};
        started[i] = fy_thread_start(&t[i], list_many, &l[i]) == 0;
        CHECK(started[i]);
    }
    for (int i = 0; i < 4; i++) {
        if (started[i]) fy_thread_join(&t[i]);
        CHECK(l[i].bad == 0);
    }
    CHECK(m2.lists == 1);
    ferry_file_source_close(&c);
}

int main(void)
{
    test_path_rules();
    test_folder();
    test_limit_enforced();
    test_memory_lookup();
    test_cached_source();
    test_converter_from_memory();
    test_gltf_buffers();
    TEST_END();
}
