/* ferry validate: every rule of the format, each problem with its place. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "formats.h"
#include "walk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char validate_usage[] =
    "usage: ferry validate [--json] [--textures DIR]... [--no-textures] [--model MODEL.alo] FILE...\n"
    "       ferry validate -r [OPTIONS] DIR|FILE...\n"
    "\n"
    "Checks each file (ALO model, ALO particle system, ALA animation, ODOL .p3d\n"
    "model of ArmA and ArmA 2, ALM progressive mesh, MEG or PBO archive,\n"
    "PAA/PAC texture, config: raP or text) against every rule of its format and\n"
    "reports each problem with its byte offset and chunk or record path. Errors\n"
    "(the game may crash or misdraw) make the exit status 1; warnings (e.g. a\n"
    "texture not found) are listed apart and do not fail. In a MEG or PBO\n"
    "archive every entry of those formats (or named like one; text configs only\n"
    "when named .rvmat) is checked too and reported as ARCHIVE:ENTRY (textures and models\n"
    "of entries are not looked up).\n"
    "\n"
    "Each animation is also checked against its model, paired by name as the game\n"
    "names them: MODEL_NAME_00.ala belongs to MODEL.alo (ignoring case; of several\n"
    "models the longest name wins). The model is looked for among the files given,\n"
    "then beside the animation on disk; --model names one for every animation.\n"
    "Reported (as warnings): bones missing from the model, and bones whose index\n"
    "and name disagree. An animation without its model is checked alone.\n"
    "\n"
    "Textures are looked up as the game does: ignoring case, beside the model, in\n"
    "../Textures, then in each --textures DIR, a .tga name also matching a .dds.\n"
    "\n"
    "With -r, each DIR is walked (subfolders too; names starting with '.' are\n"
    "left out, a folder reached twice through links is entered once) and every\n"
    "regular file whose content ferry recognises is checked (ALO, ALA, ODOL,\n"
    "ALM, MEG, PBO, PAA, raP configs; text configs only when named .cpp, .hpp or\n"
    ".bisurf; a file named .alo, .ala, .p3d, .alm, .meg, .pbo, .paa, .pac or\n"
    ".rvmat is checked whatever its content). Other files (DDS and TGA textures,\n"
    "XML, glTF, ...) are skipped and counted, not errors; a folder that cannot be\n"
    "read is an error. Without -r a folder is an error.\n"
    "\n"
    "  -r              check every file in the folders given (--recursive)\n"
    "  --json          machine-readable report on stdout\n"
    "  --textures DIR  another folder or archive (.meg, .pbo) to search for textures\n"
    "                  (repeatable; each at its root and in its Data/Art/Textures)\n"
    "  --no-textures   skip the texture check\n"
    "  --model FILE    check every animation against this model\n";

/* What `ferry validate` checks every file with: textures where the game
 * looks (models, particle systems), an animation's model (the picker
 * below). */
struct model_picker;
typedef struct validate_options {
    const char *const *texture_dirs;
    size_t texture_dir_count;
    bool check_textures;
    struct model_picker *picker;
    /* The folders textures are looked up in, opened once each and listed
     * once for the whole run (ferry_places). */
    ferry_places *sources;
} validate_options;

/* The places a model's or particle system's textures are found. */
typedef struct texture_ctx {
    ferry_alamo_texture_folders folders; /* the folder sources searched, opened per file */
    ferry_alamo_texture_places places;    /* what is searched: folders.places, or the pool's */
    const ferry_file_source *pooled[64];
} texture_ctx;

/* Fills `tex` for the file `file`; false when textures are not checked. */
static bool texture_places(const char *file, const validate_options *options, texture_ctx *tex)
{
    memset(tex, 0, sizeof *tex);
    if (!options->check_textures) return false;
    ferry_error err;
    size_t dir_count = options->texture_dir_count;
    if (options->sources && dir_count <= 64) {
        /* The run's pool: each folder opened and listed once, whatever
         * the number of files and textures (ferry_places). */
        const char *slash = strrchr(file, '/');
        char dir[4096], up[4100];
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
        snprintf(up, sizeof up, "%s/..", dir);
        const ferry_place *model = ferry_places_folder(options->sources, dir, &err);
        const ferry_place *parent = ferry_places_folder(options->sources, up, &err);
        tex->places.model_source = model ? model->source : NULL;
        tex->places.model_path = slash ? slash + 1 : file;
        tex->places.parent_source = parent ? parent->source : NULL;
        for (size_t i = 0; i < dir_count; i++) {
            const ferry_place *root = ferry_places_open(options->sources, options->texture_dirs[i], &err);
            tex->pooled[i] = root ? root->source : NULL; /* an archive that cannot be read: nothing found there */
        }
        tex->places.folders = tex->pooled;
        tex->places.folder_count = dir_count;
    } else if (ferry_alamo_texture_folders_open(file, (const char **)options->texture_dirs, dir_count, &tex->folders,
                                                &err) == FERRY_OK) {
        tex->places = tex->folders.places;
    } else {
        memset(tex, 0, sizeof *tex); /* nothing found anywhere: every texture reported missing */
    }
    return true;
}

/* An animation is checked against the model `pick` finds for it (none: alone). */
typedef struct model_picker model_picker;
static const ferry_asset *pick_model(model_picker *p, const char *anim_path, const char **model_path);

/* One file's report: its own (printed once, before its entries'), then an
 * archive's entries as the library checks them. */
typedef struct file_report {
    const char *file;
    const char *format;
    const ferry_diagnostics *own;
    bool animation; /* the "model" key */
    const char *model;
    bool printed;
    json_t *report;
} file_report;

static void report_own(file_report *r)
{
    if (r->printed) return;
    cli_report_diags(r->file, r->format, r->own, r->animation, r->model, r->report);
    r->printed = true;
}

/* An archive's entry, reported as ARCHIVE:ENTRY. */
static void report_entry(void *user, const ferry_asset_entry_report *e)
{
    file_report *r = user;
    report_own(r);
    const char *format = cli_format_name(e->format);
    if (!e->error)
        cli_report_diags(e->label, format, e->diagnostics, e->format == FERRY_FORMAT_ALA, NULL, r->report);
    else if (r->report)
        cli_json_append_failure(r->report, e->label, format, e->error);
    else
        cli_print_error(e->label, e->error);
}

/* Validates one file by its format's rules; returns its error count (a
 * failure to read counts as one). */
static size_t validate_file(const char *file, const validate_options *options, json_t *report)
{
    ferry_format read_as = FERRY_FORMAT_UNKNOWN;
    ferry_asset *asset = NULL;
    ferry_error err;
    ferry_asset_options o = {.name = file, .need = FERRY_CAN_VALIDATE, .detected = &read_as};
    if (ferry_asset_open(file, &o, &asset, &err) != FERRY_OK) {
        ferry_path_info st;
        ferry_error ignored;
        if (ferry_path_stat(file, true, &st, &ignored) == FERRY_OK && st.kind == FERRY_PATH_FOLDER &&
            strlen(err.message) + 60 < sizeof err.message)
            strcat(err.message, " (ferry validate -r checks every file in a folder)");
        if (report)
            cli_json_append_failure(report, file, cli_format_name(read_as), &err);
        else
            cli_print_error(file, &err);
        return 1;
    }
    ferry_format format = ferry_asset_format(asset);
    texture_ctx tex;
    bool textures = (format == FERRY_FORMAT_ALO_MODEL || format == FERRY_FORMAT_ALO_PARTICLE) &&
                    texture_places(file, options, &tex);
    const char *model_path = NULL;
    const ferry_asset *model = format == FERRY_FORMAT_ALA ? pick_model(options->picker, file, &model_path) : NULL;
    ferry_diagnostics diags = {0};
    file_report r = {file, cli_format_name(format), &diags, format == FERRY_FORMAT_ALA, model ? model_path : NULL, false,
                     report};
    ferry_asset_validate_options vo = {textures ? &tex.places : NULL, model, report_entry, &r};
    size_t errors = ferry_asset_validate(asset, &vo, &diags);
    report_own(&r);
    ferry_diagnostics_free(&diags);
    if (textures) ferry_alamo_texture_folders_close(&tex.folders);
    ferry_asset_free(asset);
    return errors;
}

/* ---- which model an animation is checked against ---- */

#define MODEL_CACHE 8

struct model_picker {
    const ferry_asset *fixed; /* --model */
    const char *fixed_path;
    const char **given; /* the .alo files on the command line */
    size_t given_count;
    char dir[4096]; /* the last folder listed, and its .alo files */
    bool dir_listed;
    char **dir_models;
    size_t dir_model_count, dir_model_capacity;
    struct {
        char *path;
        cli_asset asset;
        bool ok;
    } cache[MODEL_CACHE];
    size_t next; /* the cache slot reused next */
};

/* Each .alo of the folder into the picker's list (ferry_folder_list). */
static bool add_model(void *ctx, const char *name, ferry_entry_kind kind)
{
    model_picker *p = ctx;
    if (kind != FERRY_ENTRY_FILE || !cli_has_ext(name, ".alo")) return true;
    if (p->dir_model_count == p->dir_model_capacity) {
        size_t cap = p->dir_model_capacity ? p->dir_model_capacity * 2 : 64;
        char **grown = realloc(p->dir_models, cap * sizeof *grown);
        if (!grown) return false;
        p->dir_models = grown;
        p->dir_model_capacity = cap;
    }
    size_t need = strlen(p->dir) + strlen(name) + 2;
    char *path = malloc(need);
    if (!path) return false;
    snprintf(path, need, "%s/%s", p->dir, name);
    p->dir_models[p->dir_model_count++] = path;
    return true;
}

static void list_models(model_picker *p, const char *dir)
{
    if (p->dir_listed && strcmp(p->dir, dir) == 0) return;
    for (size_t i = 0; i < p->dir_model_count; i++) free(p->dir_models[i]);
    free(p->dir_models);
    p->dir_models = NULL;
    p->dir_model_count = p->dir_model_capacity = 0;
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    p->dir_listed = true;
    ferry_error ignored;
    if (ferry_folder_list(dir, add_model, p, &ignored) != FERRY_OK && !p->dir_model_count) return;
    /* A fixed order, so that a tie (ship.alo, ship.ALO) is decided the same way every time. */
    for (size_t i = 1; i < p->dir_model_count; i++)
        for (size_t j = i; j > 0 && strcmp(p->dir_models[j - 1], p->dir_models[j]) > 0; j--) {
            char *t = p->dir_models[j];
            p->dir_models[j] = p->dir_models[j - 1];
            p->dir_models[j - 1] = t;
        }
}

static const ferry_asset *load_model(model_picker *p, const char *path)
{
    for (size_t i = 0; i < MODEL_CACHE; i++)
        if (p->cache[i].path && strcmp(p->cache[i].path, path) == 0) return p->cache[i].ok ? p->cache[i].asset.handle : NULL;
    size_t slot = p->next;
    p->next = (p->next + 1) % MODEL_CACHE;
    free(p->cache[slot].path);
    cli_asset_free(&p->cache[slot].asset);
    p->cache[slot].path = strdup(path);
    ferry_error err;
    /* A model that cannot be read (or a particle system of that name) is
     * reported where it is validated itself; the animation is checked alone. */
    p->cache[slot].ok = cli_asset_load(path, &p->cache[slot].asset, &err) && p->cache[slot].asset.model;
    return p->cache[slot].ok ? p->cache[slot].asset.handle : NULL;
}

static const ferry_asset *pick_model(model_picker *p, const char *anim_path, const char **model_path)
{
    if (!p) return NULL; /* an entry of an archive: checked alone */
    if (p->fixed) {
        *model_path = p->fixed_path;
        return p->fixed;
    }
    size_t k = ferry_ala_model_for(anim_path, p->given, p->given_count);
    if (k < p->given_count) {
        *model_path = p->given[k];
        return load_model(p, p->given[k]);
    }
    const char *slash = strrchr(anim_path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - anim_path) : 1, slash ? anim_path : ".");
    list_models(p, dir);
    k = ferry_ala_model_for(anim_path, (const char *const *)p->dir_models, p->dir_model_count);
    if (k >= p->dir_model_count) return NULL;
    *model_path = p->dir_models[k];
    return load_model(p, p->dir_models[k]);
}

static void picker_free(model_picker *p)
{
    for (size_t i = 0; i < p->dir_model_count; i++) free(p->dir_models[i]);
    free(p->dir_models);
    for (size_t i = 0; i < MODEL_CACHE; i++) {
        free(p->cache[i].path);
        cli_asset_free(&p->cache[i].asset);
    }
    free(p->given);
}

/* ---- validate -r: the files of a folder tree ---- */

typedef struct target {
    char *path;
    char *folder_error; /* a folder that could not be read: its message */
} target;

typedef struct target_list {
    target *items;
    size_t count, capacity;
    size_t skipped; /* files of no format ferry validates */
    bool oom;
} target_list;

static void add_target(target_list *l, const char *path, const char *folder_error)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 64;
        target *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            l->oom = true;
            return;
        }
        l->items = items;
        l->capacity = cap;
    }
    target *t = &l->items[l->count];
    t->path = strdup(path);
    t->folder_error = folder_error ? strdup(folder_error) : NULL;
    if (!t->path || (folder_error && !t->folder_error)) {
        free(t->path);
        free(t->folder_error);
        l->oom = true;
        return;
    }
    l->count++;
}

static void visit(void *ctx, const char *path, const char *rel, const ferry_path_info *st, bool error)
{
    (void)rel;
    (void)error;
    target_list *l = ctx;
    bool check = ferry_format_named_like_asset(path);
    if (!check && st && st->kind == FERRY_PATH_FILE) {
        /* Told by content; a regular file that cannot be read is checked,
         * so that its failure is reported. */
        uint8_t head[FERRY_DETECT_HEAD];
        size_t got = 0;
        ferry_error err;
        if (ferry_file_read_head(path, head, sizeof head, &got, NULL, &err) != FERRY_OK) {
            check = true;
        } else {
            /* What validate_file will check: a format ferry validates
             * (told from the head alone: bytes only, nothing read). */
            ferry_asset *probe = NULL;
            ferry_asset_options o = {.bytes_only = true, .need = FERRY_CAN_VALIDATE};
            check = ferry_asset_read(head, got, &o, &probe, &err) == FERRY_OK;
            ferry_format id = ferry_asset_format(probe);
            ferry_asset_free(probe);
            /* Text has no signature: of the files that read as config text
             * (scripts can), only those named like configs are checked. */
            if (id == FERRY_FORMAT_CONFIG_TEXT)
                check = cli_has_ext(path, ".cpp") || cli_has_ext(path, ".hpp") || cli_has_ext(path, ".bisurf");
        }
    }
    if (check)
        add_target(l, path, NULL);
    else
        l->skipped++;
}

static int cmp_target(const void *a, const void *b)
{
    return strcmp(((const target *)a)->path, ((const target *)b)->path);
}

/* Adds the files of folder `root` to `l`, sorted by path, with each folder
 * that could not be read. */
static void walk_folder(cli_walk *w, target_list *l, const char *root, const ferry_path_info *st)
{
    size_t first = l->count, first_skip = w->skipped_count;
    cli_walk_run(w, root, st);
    for (size_t i = first_skip; i < w->skipped_count; i++) {
        if (!w->skipped[i].failed || !w->skipped[i].path) continue;
        char message[512];
        snprintf(message, sizeof message, "cannot read the folder %s: %s", w->skipped[i].path,
                 w->skipped[i].reason ? w->skipped[i].reason : "?");
        add_target(l, w->skipped[i].path, message);
    }
    if (l->count > first) qsort(l->items + first, l->count - first, sizeof *l->items, cmp_target);
}

int cmd_validate(int argc, char **argv)
{
    bool json = false, check_textures = true, recursive = false;
    const char *model_path = NULL;
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    const char **files = calloc((size_t)argc, sizeof *files);
    size_t dir_count = 0, file_count = 0;
    int status = CLI_OK;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(validate_usage, stdout);
            goto done;
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "-r") == 0 || strcmp(argv[i], "--recursive") == 0) {
            recursive = true;
        } else if (strcmp(argv[i], "--model") == 0) {
            if (i + 1 >= argc) {
                status = cli_usage_error("validate", "--model needs a file");
                goto done;
            }
            model_path = argv[++i];
        } else if (strcmp(argv[i], "--no-textures") == 0) {
            check_textures = false;
        } else if (strcmp(argv[i], "--textures") == 0) {
            if (i + 1 >= argc) {
                status = cli_usage_error("validate", "--textures needs a folder");
                goto done;
            }
            if ((status = cli_check_texture_place("validate", argv[i + 1])) != CLI_OK) goto done;
            dirs[dir_count++] = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            status = cli_usage_error("validate", "unknown option '%s'", argv[i]);
            goto done;
        } else {
            files[file_count++] = argv[i];
        }
    }
    if (!file_count) {
        status = cli_usage_error("validate", "no file given");
        goto done;
    }
    target_list targets = {0};
    cli_walk walk = {0};
    walk.cmd = "validate";
    walk.visit = visit;
    walk.ctx = &targets;
    for (size_t i = 0; i < file_count; i++) {
        ferry_path_info st;
        ferry_error ignored;
        bool looked = recursive && ferry_path_stat(files[i], true, &st, &ignored) == FERRY_OK;
        if (looked && st.kind == FERRY_PATH_FOLDER)
            walk_folder(&walk, &targets, files[i], &st);
        else if (looked && st.kind == FERRY_PATH_MISSING)
            status = cli_usage_error("validate", "%s does not exist", files[i]);
        else
            add_target(&targets, files[i], NULL);
    }
    if (targets.oom) {
        fprintf(stderr, "ferry validate: out of memory\n");
        status = CLI_INVALID;
    }
    if (status != CLI_OK) goto done_targets;
    cli_asset fixed_model;
    memset(&fixed_model, 0, sizeof fixed_model);
    if (model_path) {
        ferry_error err;
        bool loaded = cli_asset_load(model_path, &fixed_model, &err);
        if (!loaded || !fixed_model.model) {
            if (loaded)
                fprintf(stderr, "%s: error: not an ALO model\n", model_path);
            else
                cli_print_error(model_path, &err);
            cli_asset_free(&fixed_model);
            status = CLI_INVALID;
            goto done_targets;
        }
    }
    model_picker picker;
    memset(&picker, 0, sizeof picker);
    picker.fixed = fixed_model.model ? fixed_model.handle : NULL;
    picker.fixed_path = model_path;
    picker.given = calloc(file_count, sizeof *picker.given);
    for (size_t i = 0; i < file_count && picker.given; i++)
        if (cli_has_ext(files[i], ".alo")) picker.given[picker.given_count++] = files[i];
    validate_options options = {dirs, dir_count, check_textures, &picker, ferry_places_new()};
    json_t *report = json ? json_array() : NULL;
    size_t failed = 0;
    cli_progress progress;
    cli_progress_begin(&progress, json ? 0 : targets.count);
    for (size_t i = 0; i < targets.count; i++) {
        const target *t = &targets.items[i];
        if (t->folder_error) {
            /* Reported as it was met (stderr); an entry of the read-failure shape in JSON. */
            ferry_error err = {0};
            err.code = FERRY_ERR_IO;
            err.offset = FERRY_NO_OFFSET;
            snprintf(err.message, sizeof err.message, "%s", t->folder_error);
            if (report) cli_json_append_failure(report, t->path, NULL, &err);
            failed++;
        } else if (validate_file(t->path, &options, report)) {
            failed++;
        }
        cli_progress_step(&progress, t->path);
    }
    cli_progress_end(&progress);
    picker_free(&picker);
    ferry_places_free(options.sources);
    cli_asset_free(&fixed_model);
    if (report) {
        cli_print_json(report);
        json_decref(report);
    } else if (recursive) {
        size_t folders = 0;
        for (size_t i = 0; i < targets.count; i++) folders += targets.items[i].folder_error != NULL;
        size_t checked = targets.count - folders;
        printf("%zu file%s checked, %zu with errors, %zu skipped (no format ferry validates)", checked,
               checked == 1 ? "" : "s", failed - folders, targets.skipped);
        if (folders) printf(", %zu folder%s could not be read", folders, folders == 1 ? "" : "s");
        printf("\n");
    } else if (file_count > 1) {
        printf("%zu file%s checked, %zu with errors\n", file_count, file_count == 1 ? "" : "s", failed);
    }
    if (recursive && json)
        fprintf(stderr, "%zu file%s skipped (no format ferry validates)\n", targets.skipped,
                targets.skipped == 1 ? "" : "s");
    cli_walk_print_failed(&walk);
    status = failed ? CLI_INVALID : CLI_OK;
done_targets:
    for (size_t i = 0; i < targets.count; i++) {
        free(targets.items[i].path);
        free(targets.items[i].folder_error);
    }
    free(targets.items);
    cli_walk_free(&walk);
done:
    free(dirs);
    free(files);
    return status;
}
