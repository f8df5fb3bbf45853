/* Validation in context (engine.h: ferry_validate_input,
 * ferry_validate_export_input, ferry_validate_tree) and the folder walk (ferry.h: ferry_folder_walk), on a temporary folder
 * holding the bundled samples: an animation paired with the model beside
 * it, among the models given, or with the one given; textures found beside
 * a model, in ../Textures and in the places given; a tree's files sorted,
 * those of no format ferry validates skipped, hidden ones left out; an
 * archive's entries after the archive; files that cannot be read; bad
 * arguments; an input described as an export's (a source and a path in
 * it) validated as the same file of the disk is. */
#include "support.h"
#include "test.h"

#include <ferry/engine.h>

#define SAMPLES FERRY_SOURCE_DIR "/samples/alamo"

static char dir[1024];

static void put(const char *rel, const void *data, size_t size)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    ferry_error err;
    CHECK_MSG(ferry_file_write(path, data, size, NULL, &err) == FERRY_OK, "%s: %s", path, err.message);
}

static void copy_sample(const char *name, const char *rel)
{
    size_t size = 0;
    char path[512];
    snprintf(path, sizeof path, SAMPLES "/%s", name);
    uint8_t *data = test_read_file(path, &size);
    CHECK(data != NULL);
    if (data) put(rel, data, size);
    free(data);
}

static void in_dir(char *out, size_t cap, const char *rel) { snprintf(out, cap, "%s/%s", dir, rel); }

/* Paths compared as the library makes them: on Windows it joins a folder
 * and a name with '\\' (fy_path_join), where the test writes '/'. */
static int path_cmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = *a == '\\' ? '/' : *a, y = *b == '\\' ? '/' : *b;
        if (x != y) return (unsigned char)x - (unsigned char)y;
        if (!x) return 0;
    }
}

/* ---- the items, kept ---- */

#define MAX_ITEMS 64

typedef struct kept_item {
    char file[2048];
    ferry_format format;
    bool entry, folder, read_error;
    char model[2048]; /* "" when alone */
    size_t errors, warnings;
    bool texture_missing; /* a texture-missing warning among them */
    size_t entry_index;   /* an entry's, from its report */
    char entry_name[256];
} kept_item;

typedef struct kept {
    kept_item items[MAX_ITEMS];
    size_t count;
    size_t messages;
    size_t progress_calls, progress_total;
} kept;

static void keep_item(void *user, const ferry_validate_item *item)
{
    kept *k = user;
    if (k->count >= MAX_ITEMS) return;
    kept_item *it = &k->items[k->count++];
    memset(it, 0, sizeof *it);
    snprintf(it->file, sizeof it->file, "%s", item->file);
    it->format = item->format;
    it->entry = item->entry;
    it->folder = item->folder;
    it->read_error = item->error != NULL;
    if (item->model) snprintf(it->model, sizeof it->model, "%s", item->model);
    it->errors = item->error_count;
    CHECK((item->error != NULL) == (item->diagnostics == NULL));
    CHECK(item->entry == (item->entry_report != NULL));
    if (item->entry_report) {
        it->entry_index = item->entry_report->index;
        snprintf(it->entry_name, sizeof it->entry_name, "%.*s", (int)item->entry_report->name_length,
                 item->entry_report->name);
        CHECK(strcmp(item->entry_report->label, item->file) == 0);
    }
    if (item->diagnostics) {
        it->warnings = item->diagnostics->warning_count;
        CHECK(item->error_count == item->diagnostics->error_count);
        for (size_t i = 0; i < item->diagnostics->count; i++)
            if (strcmp(item->diagnostics->items[i].rule, "texture-missing") == 0) it->texture_missing = true;
    } else {
        CHECK(item->error_count == 1 && item->error->message[0]);
    }
}

static void count_message(void *user, const ferry_message *m)
{
    kept *k = user;
    CHECK(m->file && m->rule);
    k->messages++;
}

static void count_progress(void *user, size_t done, size_t total, const char *item)
{
    kept *k = user;
    CHECK((done == 0) == (item == NULL));
    CHECK(done <= total);
    k->progress_calls++;
    k->progress_total = total;
}

static ferry_validate_options options_for(kept *k)
{
    memset(k, 0, sizeof *k);
    ferry_validate_options o = {0};
    o.item = keep_item;
    o.item_user = k;
    o.message = count_message;
    o.user = k;
    o.progress = count_progress;
    o.progress_user = k;
    return o;
}

/* ---- an input with its context ---- */

static void check_animation_pairing(void)
{
    kept k;
    ferry_validate_options o = options_for(&k);
    ferry_validate_report rep;
    ferry_error err;
    char anim[2048], model[2048], alone[2048];
    in_dir(anim, sizeof anim, "Models/walker_idle_00.ala");
    in_dir(model, sizeof model, "Models/walker.alo");
    in_dir(alone, sizeof alone, "other/walker_idle_00.ala");

    /* Beside it on the disk: MODEL_NAME_00.ala belongs to MODEL.alo. */
    CHECK(ferry_validate_input(anim, &o, &rep, &err) == FERRY_OK);
    CHECK(rep.checked == 1 && rep.invalid == 0 && rep.errors == 0 && rep.skipped == 0);
    CHECK_MSG(k.count == 1 && k.items[0].format == FERRY_FORMAT_ALA && path_cmp(k.items[0].model, model) == 0, "%zu items, the model '%s'", k.count, k.count ? k.items[0].model : "-");
    CHECK(k.progress_calls == 2 && k.progress_total == 1);
    ferry_validate_report_free(&rep);
    CHECK(rep.owned == NULL && rep.checked == 0);

    /* No model beside it: checked alone; among the models given: that one. */
    o = options_for(&k);
    CHECK(ferry_validate_input(alone, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && k.items[0].model[0] == 0 && k.items[0].errors == 0);
    ferry_validate_report_free(&rep);
    const char *models[] = {model};
    o = options_for(&k);
    o.models = models;
    o.model_count = 1;
    CHECK(ferry_validate_input(alone, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && path_cmp(k.items[0].model, model) == 0);
    ferry_validate_report_free(&rep);

    /* A model given for every animation, named as the caller says. */
    ferry_asset *walker = NULL;
    CHECK(ferry_asset_open(model, NULL, &walker, &err) == FERRY_OK);
    o = options_for(&k);
    o.model = walker;
    o.model_name = "the walker";
    CHECK(ferry_validate_input(alone, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && strcmp(k.items[0].model, "the walker") == 0);
    ferry_validate_report_free(&rep);
    /* The crate as the model: the animation's bones are not its bones (warnings, not errors). */
    ferry_asset *crate = NULL;
    char crate_path[2048];
    in_dir(crate_path, sizeof crate_path, "Models/crate.alo");
    CHECK(ferry_asset_open(crate_path, NULL, &crate, &err) == FERRY_OK);
    o = options_for(&k);
    o.model = crate;
    CHECK(ferry_validate_input(alone, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && path_cmp(k.items[0].model, crate_path) == 0 && k.items[0].warnings > 0);
    ferry_validate_report_free(&rep);
    ferry_asset_free(crate);
    ferry_asset_free(walker);

    /* A file named like a model that is none beside the animation: checked alone. */
    char fake[2048];
    in_dir(fake, sizeof fake, "fake/walker.alo");
    copy_sample("p_walker_exhaust.alo", "fake/walker.alo");
    copy_sample("walker_idle_00.ala", "fake/walker_idle_00.ala");
    in_dir(fake, sizeof fake, "fake/walker_idle_00.ala");
    o = options_for(&k);
    CHECK(ferry_validate_input(fake, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && k.items[0].model[0] == 0);
    ferry_validate_report_free(&rep);
}

static void check_textures(void)
{
    kept k;
    ferry_validate_options o = options_for(&k);
    ferry_validate_report rep;
    ferry_error err;
    char crate[2048], walker[2048];
    in_dir(crate, sizeof crate, "Models/crate.alo");
    in_dir(walker, sizeof walker, "Models/walker.alo");
    /* crate.tga is in ../Textures, walker.tga nowhere: a warning. */
    CHECK(ferry_validate_input(crate, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && !k.items[0].texture_missing && k.items[0].warnings == 0);
    ferry_validate_report_free(&rep);
    o = options_for(&k);
    CHECK(ferry_validate_input(walker, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && k.items[0].texture_missing && rep.invalid == 0);
    ferry_validate_report_free(&rep);
    /* In a place given (at its Data/Art/Textures), through a pool shared with the caller. */
    ferry_places *places = ferry_places_new();
    char game[2048];
    in_dir(game, sizeof game, "game");
    const ferry_place *place = places ? ferry_places_open(places, game, &err) : NULL;
    CHECK(place != NULL);
    const ferry_place *textures[] = {NULL, place}; /* a place that could not be opened holds nothing */
    o = options_for(&k);
    o.textures = textures;
    o.texture_count = 2;
    o.places = places;
    CHECK(ferry_validate_input(walker, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && !k.items[0].texture_missing);
    ferry_validate_report_free(&rep);
    /* Not looked up at all. */
    o = options_for(&k);
    o.textures = textures;
    o.texture_count = 2;
    o.skip_textures = true;
    CHECK(ferry_validate_input(crate, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && !k.items[0].texture_missing);
    ferry_validate_report_free(&rep);
    ferry_places_free(places);
}

static void check_unreadable(void)
{
    kept k;
    ferry_validate_options o = options_for(&k);
    ferry_validate_report rep;
    ferry_error err;
    char path[2048];
    /* Missing, a folder without recursive, content of no known format, broken bytes. */
    const char *rels[] = {"missing.alo", "Models", "Models/notes.txt", "Models/broken.ala"};
    for (size_t i = 0; i < 4; i++) {
        in_dir(path, sizeof path, rels[i]);
        o = options_for(&k);
        CHECK_MSG(ferry_validate_input(path, &o, &rep, &err) == FERRY_OK, "%s", rels[i]);
        CHECK_MSG(rep.checked == 1 && rep.invalid == 1 && rep.errors == 1, "%s", rels[i]);
        CHECK_MSG(k.count == 1 && k.items[0].errors == 1 && !k.items[0].folder, "%s", rels[i]);
        ferry_validate_report_free(&rep);
    }
    /* Bad arguments. */
    CHECK(ferry_validate_input(NULL, &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_validate_input(path, &o, NULL, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_validate_tree(NULL, 1, &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_validate_tree(NULL, 0, NULL, &rep, &err) == FERRY_OK && rep.checked == 0);
    ferry_validate_report_free(&rep);
}

/* An archive: its own item, then its entries, labelled ARCHIVE:ENTRY. */
static void check_archive(void)
{
    char src[2048], meg[2048];
    in_dir(src, sizeof src, "Models");
    in_dir(meg, sizeof meg, "packed/models.meg");
    ferry_error err;
    char packed[2048];
    in_dir(packed, sizeof packed, "packed");
    test_make_dir(packed);
    CHECK_MSG(ferry_archive_pack(meg, src, NULL, NULL, &err) == FERRY_OK, "%s", err.message);
    kept k;
    ferry_validate_options o = options_for(&k);
    ferry_validate_report rep;
    CHECK(ferry_validate_input(meg, &o, &rep, &err) == FERRY_OK);
    CHECK(rep.checked == 1 && rep.invalid == 1); /* broken.ala inside */
    CHECK(k.count > 4 && k.items[0].format == FERRY_FORMAT_MEG && !k.items[0].entry);
    size_t broken = 0, models = 0;
    for (size_t i = 1; i < k.count; i++) {
        CHECK(k.items[i].entry && strncmp(k.items[i].file, meg, strlen(meg)) == 0 && k.items[i].file[strlen(meg)] == ':');
        broken += k.items[i].errors;
        models += k.items[i].format == FERRY_FORMAT_ALO_MODEL && !k.items[i].read_error;
        CHECK(!k.items[i].texture_missing); /* entries' textures are not looked up */
        CHECK(k.items[i].entry_name[0] && (i == 1 || k.items[i].entry_index > k.items[i - 1].entry_index));
    }
    CHECK(broken == 1 && models == 3 && rep.errors == 1);
    ferry_validate_report_free(&rep);
}

/* ---- an input described as an export's ---- */

/* The file at `rel` read from `source` (rooted at the test's folder) as an
 * input lying at `rel` there; *bytes to free after. */
static ferry_asset *input_at(const ferry_file_source *source, const char *rel, ferry_export_input *in, uint8_t **bytes)
{
    size_t size = 0;
    ferry_error err;
    ferry_asset *asset = NULL;
    *bytes = NULL;
    CHECK_MSG(ferry_file_source_load(source, rel, 0, bytes, &size, &err) == FERRY_OK, "%s: %s", rel, err.message);
    ferry_asset_options ao = {0};
    ao.name = rel;
    if (*bytes) CHECK_MSG(ferry_asset_read(*bytes, size, &ao, &asset, &err) == FERRY_OK, "%s: %s", rel, err.message);
    memset(in, 0, sizeof *in);
    in->asset = asset;
    in->source = source;
    in->path = rel;
    return asset;
}

static void check_export_input(void)
{
    ferry_file_source source;
    ferry_error err;
    CHECK(ferry_file_source_folder(dir, &source, &err) == FERRY_OK);
    kept k, disk;
    ferry_validate_options o;
    ferry_validate_report rep;
    ferry_export_input in;
    uint8_t *bytes;
    char shown[2048], path[2048];

    /* An animation paired with the model beside it in its source, named as
     * the source shows it; the same pairing as for the file of the disk. */
    ferry_asset *a = input_at(&source, "Models/walker_idle_00.ala", &in, &bytes);
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    ferry_file_source_display(&source, "Models/walker.alo", shown, sizeof shown);
    CHECK_MSG(k.count == 1 && strcmp(k.items[0].file, "Models/walker_idle_00.ala") == 0 &&
                  strcmp(k.items[0].model, shown) == 0 && k.items[0].format == FERRY_FORMAT_ALA,
              "%zu items, the model '%s'", k.count, k.count ? k.items[0].model : "-");
    CHECK(rep.checked == 1 && rep.invalid == 0 && rep.errors == 0);
    CHECK(k.progress_calls == 2 && k.progress_total == 1);
    ferry_validate_report_free(&rep);
    /* Named by the caller; among the models given first. */
    in.name = "dropped/walker_idle_00.ala";
    char crate[2048];
    in_dir(crate, sizeof crate, "Models/crate.alo");
    const char *models[] = {crate};
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && strcmp(k.items[0].file, "dropped/walker_idle_00.ala") == 0);
    ferry_validate_report_free(&rep);
    copy_sample("walker_idle_00.ala", "Models/crate_idle_00.ala");
    ferry_asset *b = NULL;
    uint8_t *b_bytes;
    ferry_export_input crate_anim;
    b = input_at(&source, "Models/crate_idle_00.ala", &crate_anim, &b_bytes);
    o = options_for(&k);
    o.models = models;
    o.model_count = 1;
    CHECK(ferry_validate_export_input(&crate_anim, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && strcmp(k.items[0].model, crate) == 0 && k.items[0].warnings > 0);
    ferry_validate_report_free(&rep);
    /* Without a source nothing beside it is found: checked alone. */
    in.source = NULL;
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && k.items[0].model[0] == 0);
    ferry_validate_report_free(&rep);
    ferry_asset_free(a);
    ferry_asset_free(b);
    ferry_file_source_release(&source, bytes, 0);
    ferry_file_source_release(&source, b_bytes, 0);
    in_dir(path, sizeof path, "Models/crate_idle_00.ala");
    CHECK(test_remove_file(path));

    /* A tie (walker.alo, WALKER.alo): decided as for the file of the disk. */
    in_dir(path, sizeof path, "tie");
    test_make_dir(path);
    copy_sample("walker.alo", "tie/walker.alo");
    copy_sample("crate.alo", "tie/WALKER.alo");
    copy_sample("walker_idle_00.ala", "tie/walker_idle_00.ala");
    a = input_at(&source, "tie/walker_idle_00.ala", &in, &bytes);
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    ferry_validate_report_free(&rep);
    in_dir(path, sizeof path, "tie/walker_idle_00.ala");
    o = options_for(&disk);
    CHECK(ferry_validate_input(path, &o, &rep, &err) == FERRY_OK);
    ferry_validate_report_free(&rep);
    CHECK_MSG(k.count == 1 && disk.count == 1 && path_cmp(k.items[0].model, disk.items[0].model) == 0 &&
                  k.items[0].warnings == disk.items[0].warnings && k.items[0].warnings > 0,
              "'%s' and '%s'", k.count ? k.items[0].model : "-", disk.count ? disk.items[0].model : "-");
    /* And which one, by the rule (engine.h, ala.h): the models sorted by
     * their names' bytes, the first of a tie wins: 'W' (0x57) sorts before
     * 'w' (0x77), so WALKER.alo, the crate's bones, which the walker's
     * animation does not fit (the warnings above). A folder that ignores
     * case (Windows) holds one file, the crate's bytes under the first name,
     * and there is no tie to decide. */
    in_dir(path, sizeof path, "tie/walker.alo");
    size_t lower_size = 0, walker_size = 0;
    free(test_read_file(path, &lower_size));
    free(test_read_file(SAMPLES "/walker.alo", &walker_size));
    if (lower_size != walker_size)
        printf("note: the tie's pick is not checked: this folder ignores case (tie/walker.alo holds the crate)\n");
    else if (k.count == 1) {
        size_t n = strlen(k.items[0].model);
        CHECK_MSG(n >= 10 && strcmp(k.items[0].model + n - 10, "WALKER.alo") == 0, "paired with '%s'",
                  k.items[0].model);
    }
    ferry_asset_free(a);
    ferry_file_source_release(&source, bytes, 0);
    in_dir(path, sizeof path, "tie");
    CHECK(test_remove_tree(path));

    /* Textures: ../Textures inside the source; at the source's root, through the parent. */
    a = input_at(&source, "Models/crate.alo", &in, &bytes);
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && !k.items[0].texture_missing && k.items[0].warnings == 0);
    ferry_validate_report_free(&rep);
    ferry_file_source models_folder, above;
    in_dir(path, sizeof path, "Models");
    CHECK(ferry_file_source_folder(path, &models_folder, &err) == FERRY_OK);
    CHECK(ferry_file_source_folder(dir, &above, &err) == FERRY_OK);
    in.source = &models_folder;
    in.path = "crate.alo";
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && k.items[0].texture_missing); /* no parent: ../Textures is not reached */
    ferry_validate_report_free(&rep);
    in.parent = &above;
    o = options_for(&k);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_OK);
    CHECK(k.count == 1 && !k.items[0].texture_missing);
    ferry_validate_report_free(&rep);
    ferry_file_source_close(&models_folder);
    ferry_file_source_close(&above);
    ferry_asset_free(a);
    ferry_file_source_release(&source, bytes, 0);

    /* Bad arguments. */
    memset(&in, 0, sizeof in);
    CHECK(ferry_validate_export_input(NULL, &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_validate_export_input(&in, &o, &rep, &err) == FERRY_ERR_ARGUMENT);
    ferry_file_source_close(&source);
}

/* ---- a tree ---- */

static size_t find_item(const kept *k, const char *rel)
{
    char path[2048];
    in_dir(path, sizeof path, rel);
    for (size_t i = 0; i < k->count; i++)
        if (path_cmp(k->items[i].file, path) == 0) return i;
    return k->count;
}

static void check_tree(void)
{
    kept k;
    ferry_validate_options o = options_for(&k);
    o.recursive = true;
    o.skip_textures = true;
    ferry_validate_report rep;
    ferry_error err;
    char models[2048], lone[2048];
    in_dir(models, sizeof models, "Models");
    in_dir(lone, sizeof lone, "other/walker_idle_00.ala");
    const char *paths[] = {models, lone};
    CHECK(ferry_validate_tree(paths, 2, &o, &rep, &err) == FERRY_OK);
    /* Models: 6 samples, broken.ala, cfg.hpp (config text named so); notes.txt
     * and script.sqf (config text, named otherwise) skipped; .hidden left out. */
    CHECK_MSG(rep.checked == 9 && rep.invalid == 1 && rep.skipped == 2, "%zu %zu %zu", rep.checked, rep.invalid,
              rep.skipped);
    CHECK(k.count == 9 && rep.errors == 1 && rep.failed_folders == 0 && k.messages == 0);
    CHECK(k.progress_calls == 10 && k.progress_total == 9);
    for (size_t i = 1; i + 1 < k.count; i++) CHECK(strcmp(k.items[i - 1].file, k.items[i].file) < 0);
    CHECK(path_cmp(k.items[k.count - 1].file, lone) == 0); /* a file given comes where it was given */
    size_t cfg = find_item(&k, "Models/cfg.hpp"), broken = find_item(&k, "Models/broken.ala");
    CHECK(cfg < k.count && k.items[cfg].format == FERRY_FORMAT_CONFIG_TEXT);
    CHECK(broken < k.count && k.items[broken].errors == 1);
    CHECK(find_item(&k, "Models/.hidden/crate.alo") == k.count && find_item(&k, "Models/script.sqf") == k.count);
    size_t idle = find_item(&k, "Models/walker_idle_00.ala");
    char walker[2048];
    in_dir(walker, sizeof walker, "Models/walker.alo");
    CHECK(idle < k.count && path_cmp(k.items[idle].model, walker) == 0);
    ferry_validate_report_free(&rep);

    /* Without recursive a folder is an input that cannot be read. */
    o = options_for(&k);
    CHECK(ferry_validate_tree(paths, 2, &o, &rep, &err) == FERRY_OK);
    CHECK(rep.checked == 2 && rep.invalid == 1 && k.count == 2 && k.items[0].read_error);
    ferry_validate_report_free(&rep);
}

/* ---- the folder walk ---- */

typedef struct walked {
    size_t files, regular;
    bool hidden;
} walked;

static void walk_file(void *user, const char *path, const char *rel, bool regular, int error)
{
    walked *w = user;
    CHECK(error == 0 && strlen(path) > strlen(rel) && strcmp(path + strlen(path) - strlen(rel), rel) == 0);
    if (strstr(rel, ".hidden")) w->hidden = true;
    w->files++;
    w->regular += regular;
}

static void check_walk(void)
{
    char models[2048];
    in_dir(models, sizeof models, "Models");
    walked w = {0};
    kept k;
    memset(&k, 0, sizeof k);
    ferry_walk_options o = {walk_file, &w, count_message, &k};
    ferry_error err;
    CHECK(ferry_folder_walk(models, &o, &err) == FERRY_OK);
    CHECK(w.files == 10 && w.regular == 10 && !w.hidden && k.messages == 0);
    in_dir(models, sizeof models, "no such folder");
    CHECK(ferry_folder_walk(models, &o, &err) == FERRY_ERR_IO && k.messages == 1 && err.message[0]);
    CHECK(ferry_folder_walk(NULL, &o, &err) == FERRY_ERR_ARGUMENT);
}

int main(void)
{
    if (!test_make_temp_dir("ferry-test-validate", dir, sizeof dir)) {
        fprintf(stderr, "no temporary folder\n");
        return 1;
    }
    const char *subs[] = {"Models", "Models/.hidden", "Textures", "other", "fake", "game", "game/Data",
                          "game/Data/Art", "game/Data/Art/Textures"};
    char path[2048];
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        in_dir(path, sizeof path, subs[i]);
        test_make_dir(path);
    }
    const char *samples[] = {"crate.alo", "legacy.alo", "p_walker_exhaust.alo", "walker.alo", "walker_idle_00.ala",
                             "walker_walk_00.ala"};
    for (size_t i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "Models/%s", samples[i]);
        copy_sample(samples[i], path);
    }
    copy_sample("walker_idle_00.ala", "other/walker_idle_00.ala");
    copy_sample("crate.alo", "Models/.hidden/crate.alo");
    put("Models/notes.txt", "just notes\n", 11);
    put("Models/cfg.hpp", "class A { x = 1; };\n", 20);
    put("Models/script.sqf", "class A { x = 1; };\n", 20);
    size_t n = 0;
    uint8_t *walker = test_read_file(SAMPLES "/walker.alo", &n);
    CHECK(walker && n > 100);
    if (walker) put("Models/broken.ala", walker, 100); /* named like an asset: checked whatever it holds */
    free(walker);
    put("Textures/crate.tga", "x", 1);
    put("game/Data/Art/Textures/walker.tga", "x", 1);

    check_animation_pairing();
    check_export_input();
    check_textures();
    check_unreadable();
    check_tree();
    check_walk();
    check_archive();
    CHECK(test_remove_tree(dir));
    TEST_END();
}
