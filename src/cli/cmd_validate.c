/* ferry validate: every rule of the format, each problem with its place. */
#include "cli.h"
#include "formats.h"

#include <stdlib.h>
#include <string.h>

static const char validate_usage[] =
    "usage: ferry validate [--json] [--textures DIR]... [--no-textures] [--model MODEL.alo] FILE...\n"
    "\n"
    "Checks each file (ALO model, ALO particle system, ALA animation) against every\n"
    "rule of its format and reports each problem with its byte offset and chunk\n"
    "path. Errors (the game may crash or misdraw) make the exit status 1; warnings\n"
    "(e.g. a texture not found) are listed apart and do not fail.\n"
    "\n"
    "An animation is also checked against a model: the one given with --model, or\n"
    "else the last model named before it (ferry validate MODEL.alo ANIM.ala...):\n"
    "bones missing from the model, and bones whose index and name disagree.\n"
    "\n"
    "Textures are looked up as the game does: ignoring case, beside the model, in\n"
    "../Textures, then in each --textures DIR, a .tga name also matching a .dds.\n"
    "\n"
    "  --json          machine-readable report on stdout\n"
    "  --textures DIR  another folder to search for textures (repeatable)\n"
    "  --no-textures   skip the texture check\n"
    "  --model FILE    check every animation against this model\n";

typedef struct texture_ctx {
    const char *model_path;
    const char **dirs;
    size_t dir_count;
} texture_ctx;

static bool texture_exists(const char *name, void *user)
{
    const texture_ctx *t = user;
    char found[4096];
    return ferry_alamo_find_texture(t->model_path, t->dirs, t->dir_count, name, found, sizeof found);
}

/* Validates one file; returns its error count (a read failure counts as one).
 * `model` (may be NULL) is the model animations are checked against; a
 * model read here is handed back through *loaded_model for the files after it. */
static size_t validate_file(const char *file, const texture_ctx *tex_template, bool check_textures,
                            const ferry_alo_model *model, cli_asset *keep_model, json_t *report)
{
    const cli_format *other = cli_format_sniff(file);
    if (other) {
        uint8_t *data;
        size_t size;
        ferry_error err;
        if (ferry_file_load(file, CLI_MAX_INPUT, &data, &size, &err) != FERRY_OK) {
            if (report) {
                cli_json_append_failure(report, file, other->name, &err);
            } else {
                cli_print_error(file, &err);
            }
            return 1;
        }
        size_t errors = other->validate(file, data, size, report);
        ferry_file_free(data);
        return errors;
    }
    json_t *fj = report ? json_object() : NULL;
    if (fj) cli_json_set_text(fj, "file", file);
    cli_asset a;
    ferry_error err;
    size_t errors = 0;
    if (!cli_asset_load(file, &a, &err)) {
        errors = 1;
        if (fj) {
            json_object_set_new(fj, "format", a.data ? json_string(ferry_alamo_kind_name(a.kind)) : json_null());
            json_object_set_new(fj, "read_error", cli_error_json(&err));
        }
        else
            cli_print_error(file, &err);
    } else {
        texture_ctx tex = *tex_template;
        tex.model_path = file;
        ferry_diagnostics diags = {0};
        if (a.model) {
            ferry_alo_validate_options opts = {check_textures ? texture_exists : NULL, &tex};
            errors = ferry_alo_validate(a.model, &opts, &diags);
        } else if (a.particles) {
            ferry_particle_validate_options opts = {file, check_textures ? texture_exists : NULL, &tex};
            errors = ferry_particle_validate(a.particles, &opts, &diags);
        } else {
            errors = ferry_ala_validate(a.animation, &diags);
            if (model) errors += ferry_ala_check_model(a.animation, model, &diags);
        }
        if (fj) {
            json_t *e = json_array(), *w = json_array();
            for (size_t i = 0; i < diags.count; i++)
                json_array_append_new(diags.items[i].severity == FERRY_SEVERITY_ERROR ? e : w, cli_diag_json(&diags.items[i]));
            cli_json_set_text(fj, "format", ferry_alamo_kind_name(a.kind));
            json_object_set_new(fj, "errors", e);
            json_object_set_new(fj, "warnings", w);
            json_object_set_new(fj, "error_count", json_integer((json_int_t)diags.error_count));
            json_object_set_new(fj, "warning_count", json_integer((json_int_t)diags.warning_count));
        } else {
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < diags.count; i++)
                    if ((int)diags.items[i].severity == pass) cli_print_diag(file, &diags.items[i]);
            if (diags.dropped) printf("%s: ... %zu more problems not listed\n", CLI_TXT(file), diags.dropped);
            printf("%s: %zu error%s, %zu warning%s\n", CLI_TXT(file), diags.error_count, diags.error_count == 1 ? "" : "s",
                   diags.warning_count, diags.warning_count == 1 ? "" : "s");
        }
        errors = diags.error_count;
        ferry_diagnostics_free(&diags);
    }
    if (fj) {
        json_object_set_new(fj, "valid", json_boolean(errors == 0));
        json_array_append_new(report, fj);
    }
    if (a.model && keep_model) {
        /* Later animations on the command line are checked against this model. */
        cli_asset_free(keep_model);
        *keep_model = a;
    } else {
        cli_asset_free(&a);
    }
    return errors;
}

int cmd_validate(int argc, char **argv)
{
    bool json = false, check_textures = true;
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
    texture_ctx tex = {NULL, dirs, dir_count};
    cli_asset fixed_model, last_model;
    memset(&fixed_model, 0, sizeof fixed_model);
    memset(&last_model, 0, sizeof last_model);
    if (model_path) {
        ferry_error err;
        if (!cli_asset_load(model_path, &fixed_model, &err) || !fixed_model.model) {
            if (fixed_model.data && !fixed_model.model && err.code == FERRY_OK)
                fprintf(stderr, "%s: error: not an ALO model\n", model_path);
            else
                cli_print_error(model_path, &err);
            cli_asset_free(&fixed_model);
            status = CLI_INVALID;
            goto done;
        }
    }
    json_t *report = json ? json_array() : NULL;
    size_t failed = 0;
    cli_progress progress;
    cli_progress_begin(&progress, json ? 0 : file_count);
    for (size_t i = 0; i < file_count; i++) {
        const ferry_alo_model *against = fixed_model.model ? fixed_model.model : last_model.model;
        if (validate_file(files[i], &tex, check_textures, against, fixed_model.model ? NULL : &last_model, report))
            failed++;
        cli_progress_step(&progress, files[i]);
    }
    cli_progress_end(&progress);
    cli_asset_free(&fixed_model);
    cli_asset_free(&last_model);
    if (report) {
        cli_print_json(report);
        json_decref(report);
    } else if (file_count > 1) {
        printf("%zu file%s checked, %zu with errors\n", file_count, file_count == 1 ? "" : "s", failed);
    }
    status = failed ? CLI_INVALID : CLI_OK;
done:
    free(dirs);
    free(files);
    return status;
}
