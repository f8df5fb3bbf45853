/* ferry validate: every rule of the format, each problem with its place. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char validate_usage[] =
    "usage: ferry validate [--json] [--textures DIR]... [--no-textures] FILE...\n"
    "\n"
    "Checks each file against every rule of its format and reports each problem\n"
    "with its byte offset and chunk path. Errors (the game may crash or misdraw)\n"
    "make the exit status 1; warnings (e.g. a texture not found) are listed apart\n"
    "and do not fail.\n"
    "\n"
    "Textures are looked up as the game does: ignoring case, beside the model, in\n"
    "../Textures, then in each --textures DIR, a .tga name also matching a .dds.\n"
    "\n"
    "  --json          machine-readable report on stdout\n"
    "  --textures DIR  another folder to search for textures (repeatable)\n"
    "  --no-textures   skip the texture check\n";

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

static void print_diag(const char *file, const ferry_diagnostic *d)
{
    printf("%s: %s: ", file, d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning");
    if (d->offset != FERRY_NO_OFFSET) printf("offset 0x%llx (%llu), ", (unsigned long long)d->offset, (unsigned long long)d->offset);
    if (d->path[0]) printf("chunk %s: ", d->path);
    printf("%s [%s]\n", d->message, d->rule);
}

static json_t *diag_json(const ferry_diagnostic *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "severity", json_string(d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning"));
    json_object_set_new(j, "rule", json_string(d->rule));
    json_object_set_new(j, "offset", d->offset == FERRY_NO_OFFSET ? json_null() : json_integer((json_int_t)d->offset));
    json_object_set_new(j, "path", json_string(d->path));
    json_object_set_new(j, "message", json_string(d->message));
    return j;
}

/* Validates one file; returns its error count (a read failure counts as one). */
static size_t validate_file(const char *file, const texture_ctx *tex_template, bool check_textures, json_t *report)
{
    uint8_t *data;
    size_t size;
    json_t *fj = report ? json_object() : NULL;
    if (fj) json_object_set_new(fj, "file", json_string(file));
    ferry_error err;
    if (ferry_file_load(file, CLI_MAX_INPUT, &data, &size, &err) != FERRY_OK) {
        if (fj) {
            json_object_set_new(fj, "read_error", cli_error_json(&err));
            json_array_append_new(report, fj);
        } else {
            cli_print_error(file, &err);
        }
        return 1;
    }
    ferry_alamo_kind kind = ferry_alamo_detect(data, size);
    ferry_alo_model *model = NULL;
    ferry_result rc;
    if (kind != FERRY_ALAMO_MODEL && kind != FERRY_ALAMO_UNKNOWN) {
        err.code = FERRY_ERR_UNSUPPORTED;
        err.offset = 0;
        err.path[0] = '\0';
        snprintf(err.message, sizeof err.message, "%s files cannot be validated yet", ferry_alamo_kind_name(kind));
        rc = FERRY_ERR_UNSUPPORTED;
    } else {
        rc = ferry_alo_read(data, size, NULL, &model, &err);
    }
    size_t errors = 0;
    if (rc != FERRY_OK) {
        errors = 1;
        if (fj)
            json_object_set_new(fj, "read_error", cli_error_json(&err));
        else
            cli_print_error(file, &err);
    } else {
        texture_ctx tex = *tex_template;
        tex.model_path = file;
        ferry_alo_validate_options opts = {check_textures ? texture_exists : NULL, &tex};
        ferry_diagnostics diags = {0};
        errors = ferry_alo_validate(model, &opts, &diags);
        if (fj) {
            json_t *e = json_array(), *w = json_array();
            for (size_t i = 0; i < diags.count; i++)
                json_array_append_new(diags.items[i].severity == FERRY_SEVERITY_ERROR ? e : w, diag_json(&diags.items[i]));
            json_object_set_new(fj, "errors", e);
            json_object_set_new(fj, "warnings", w);
            json_object_set_new(fj, "error_count", json_integer((json_int_t)diags.error_count));
            json_object_set_new(fj, "warning_count", json_integer((json_int_t)diags.warning_count));
        } else {
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < diags.count; i++)
                    if ((int)diags.items[i].severity == pass) print_diag(file, &diags.items[i]);
            if (diags.dropped) printf("%s: ... %zu more problems not listed\n", file, diags.dropped);
            printf("%s: %zu error%s, %zu warning%s\n", file, diags.error_count, diags.error_count == 1 ? "" : "s",
                   diags.warning_count, diags.warning_count == 1 ? "" : "s");
        }
        ferry_diagnostics_free(&diags);
        ferry_alo_free(model);
    }
    if (fj) {
        json_object_set_new(fj, "valid", json_boolean(errors == 0));
        json_array_append_new(report, fj);
    }
    ferry_file_free(data);
    return errors;
}

int cmd_validate(int argc, char **argv)
{
    bool json = false, check_textures = true;
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
    json_t *report = json ? json_array() : NULL;
    size_t failed = 0;
    cli_progress progress;
    cli_progress_begin(&progress, json ? 0 : file_count);
    for (size_t i = 0; i < file_count; i++) {
        if (validate_file(files[i], &tex, check_textures, report)) failed++;
        cli_progress_step(&progress, files[i]);
    }
    cli_progress_end(&progress);
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
