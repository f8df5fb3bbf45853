/* ferry validate: every rule of the format, each problem with its place. */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "formats.h"

#include <ferry/engine.h>

#include <stdlib.h>
#include <string.h>

/* What the printer needs besides the items: the JSON report (NULL: text)
 * and the progress. */
typedef struct validate_printer {
    json_t *report;
    cli_progress progress;
} validate_printer;

static void print_item(void *user, const ferry_validate_item *item)
{
    validate_printer *p = user;
    const char *format = cli_format_name(item->format);
    if (item->folder) {
        /* Said on stderr as it was met; an entry of the read-failure shape in JSON. */
        if (p->report) cli_json_append_failure(p->report, item->file, NULL, item->error);
    } else if (item->error) {
        ferry_error err = *item->error;
        ferry_path_info st;
        ferry_error ignored;
        if (!item->entry && ferry_path_stat(item->file, true, &st, &ignored) == FERRY_OK && st.kind == FERRY_PATH_FOLDER &&
            strlen(err.message) + 60 < sizeof err.message)
            strcat(err.message, " (ferry validate -r checks every file in a folder)");
        if (p->report)
            cli_json_append_failure(p->report, item->file, format, &err);
        else
            cli_print_error(item->file, &err);
    } else {
        cli_report_diags(item->file, format, item->diagnostics, item->format == FERRY_FORMAT_ALA, item->model, p->report);
    }
}

int cmd_validate(int argc, char **argv)
{
    bool json = false, no_textures = false, recursive = false;
    const char *model_path = NULL;
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    cli_list texture_args = {dirs, 0};
    const cli_option options[] = {
        CLI_FLAG("--json", &json), CLI_FLAG("-r", &recursive), CLI_FLAG("--recursive", &recursive),
        CLI_VALUE("--model", &model_path, cli_take_text, "--model needs a file"), CLI_FLAG("--no-textures", &no_textures),
        CLI_VALUE("--textures", &texture_args, cli_take_texture_place, "--textures needs a folder"), {0}};
    size_t file_count;
    int status = cli_parse(&(cli_args){"validate", options, cli_help_validate, NULL, NULL, 0, NULL}, argc, argv, &file_count);
    const char **files = (const char **)argv + 1;
    size_t dir_count = texture_args.count;
    if (status == CLI_OK && !file_count) status = cli_usage_error("validate", "no file given");
    /* Checked before anything is read: with -r, each path that does not exist is a usage error. */
    bool parsed = status == CLI_OK;
    for (size_t i = 0; parsed && recursive && i < file_count; i++) {
        ferry_path_info st;
        ferry_error ignored;
        if (ferry_path_stat(files[i], true, &st, &ignored) == FERRY_OK && st.kind == FERRY_PATH_MISSING)
            status = cli_usage_error("validate", "%s does not exist", files[i]);
    }
    if (status != CLI_OK) {
        status = CLI_STATUS(status);
        goto done;
    }
    cli_asset fixed_model = {0};
    if (model_path && cli_asset_load(model_path, &fixed_model, NULL) && !fixed_model.model)
        fprintf(stderr, "%s: error: not an ALO model\n", model_path);
    if (model_path && !fixed_model.model) {
        cli_asset_free(&fixed_model);
        status = CLI_INVALID;
        goto done;
    }
    const char **models = calloc(file_count, sizeof *models);
    size_t model_count = 0;
    for (size_t i = 0; i < file_count && models; i++)
        if (cli_has_ext(files[i], ".alo")) models[model_count++] = files[i];
    /* The texture places, opened once in the pool the job opens each
     * model's folders in (an archive that cannot be read holds nothing). */
    ferry_places *places = ferry_places_new();
    const ferry_place **textures = calloc(dir_count ? dir_count : 1, sizeof *textures);
    for (size_t i = 0; places && textures && !no_textures && i < dir_count; i++) {
        ferry_error ignored;
        textures[i] = ferry_places_open(places, dirs[i], &ignored);
    }
    validate_printer printer = {json ? json_array() : NULL, {0}};
    ferry_validate_options o = {
        .textures = textures, .texture_count = dir_count, .skip_textures = no_textures,
        .model = fixed_model.model ? fixed_model.handle : NULL, .model_name = model_path,
        .models = models, .model_count = model_count, .recursive = recursive, .places = places,
        .item = print_item, .item_user = &printer, .message = cli_print_entry_message, .user = "validate",
        .progress = json ? NULL : cli_progress_report, .progress_user = &printer.progress};
    ferry_validate_report rep;
    ferry_error err;
    ferry_result r = places && textures && models ? ferry_validate_tree((const char *const *)files, file_count, &o, &rep, &err)
                                                  : FERRY_ERR_NOMEM;
    cli_progress_end(&printer.progress);
    if (r != FERRY_OK) {
        fprintf(stderr, "ferry validate: out of memory\n");
    } else if (printer.report) {
        cli_print_json(printer.report);
    } else if (recursive) {
        size_t folders = rep.failed_folders;
        printf("%zu file%s checked, %zu with errors, %zu skipped (no format ferry validates)", rep.checked,
               rep.checked == 1 ? "" : "s", rep.invalid, rep.skipped);
        if (folders) printf(", %zu folder%s could not be read", folders, folders == 1 ? "" : "s");
        printf("\n");
    } else if (file_count > 1) {
        printf("%zu file%s checked, %zu with errors\n", file_count, file_count == 1 ? "" : "s", rep.invalid);
    }
    if (r == FERRY_OK && recursive && json)
        fprintf(stderr, "%zu file%s skipped (no format ferry validates)\n", rep.skipped, rep.skipped == 1 ? "" : "s");
    if (r == FERRY_OK && rep.failed_folders) {
        fprintf(stderr, "%zu folder%s could not be read:\n", rep.failed_folders, rep.failed_folders == 1 ? "" : "s");
        for (size_t i = 0; i < rep.folder_count; i++)
            if (rep.folders[i].failed)
                fprintf(stderr, "  %s: %s\n", CLI_TXT(rep.folders[i].path), CLI_TXT(rep.folders[i].reason));
    }
    status = r != FERRY_OK || rep.invalid || rep.failed_folders ? CLI_INVALID : CLI_OK;
    if (r == FERRY_OK) ferry_validate_report_free(&rep);
    json_decref(printer.report);
    free(textures);
    free(models);
    ferry_places_free(places);
    cli_asset_free(&fixed_model);
done:
    free(dirs);
    return status;
}
