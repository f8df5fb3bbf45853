/* The CLI's printers by format, and what every command shares around the
 * library's assets: reading one as a given format, the rewrite, and the
 * validate report. */
#include "formats.h"

#include <stdio.h>
#include <string.h>

/* Each format's printers (cli_X.c; cmd_info.c and cmd_dump.c for the Alamo
 * family): declared here, where the table is their only caller. */
cli_print_fn cli_alamo_info, cli_alamo_dump;
cli_print_fn cli_odol_info, cli_odol_dump;
cli_print_fn cli_alm_info, cli_alm_dump;
cli_print_fn cli_meg_info, cli_meg_dump, cli_meg_list;
cli_print_fn cli_pbo_info, cli_pbo_dump, cli_pbo_list;
cli_print_fn cli_paa_info, cli_paa_dump;
cli_print_fn cli_config_info, cli_config_dump;

static const cli_printer printers[] = {
    {{FERRY_FORMAT_ALO_MODEL, FERRY_FORMAT_ALO_PARTICLE, FERRY_FORMAT_ALO_PARTICLE_UAW, FERRY_FORMAT_ALA},
     cli_alamo_info, cli_alamo_dump, CLI_JSON_TEXT, NULL},
    /* The dump is the library's document as it is, its reals exact. */
    {{FERRY_FORMAT_ODOL, FERRY_FORMAT_MLOD}, cli_odol_info, cli_odol_dump, CLI_JSON_EXACT, NULL},
    {{FERRY_FORMAT_ALM}, cli_alm_info, cli_alm_dump, CLI_JSON_TEXT, NULL},
    {{FERRY_FORMAT_MEG}, cli_meg_info, cli_meg_dump, CLI_JSON_TEXT, cli_meg_list},
    {{FERRY_FORMAT_PBO}, cli_pbo_info, cli_pbo_dump, CLI_JSON_TEXT, cli_pbo_list},
    {{FERRY_FORMAT_PAA}, cli_paa_info, cli_paa_dump, CLI_JSON_TEXT, NULL},
    /* The dump is config text, written by the library from the tree. */
    {{FERRY_FORMAT_RAP, FERRY_FORMAT_CONFIG_TEXT}, cli_config_info, cli_config_dump, CLI_JSON_NONE, NULL},
};

static const cli_printer *printer_for(ferry_format id)
{
    for (size_t i = 0; i < sizeof printers / sizeof printers[0]; i++)
        for (size_t k = 0; k < 4 && printers[i].ids[k]; k++)
            if (printers[i].ids[k] == id) return &printers[i];
    return NULL;
}

int cli_print(const char *file, const ferry_asset *asset, ferry_info_detail detail, bool json)
{
    const cli_printer *p = printer_for(ferry_asset_format(asset));
    cli_print_fn *print = NULL;
    cli_json_use use = CLI_JSON_TEXT;
    if (json) {
        use = CLI_JSON_OUTPUT; /* --json: the data as it is */
    } else if (detail == FERRY_INFO_SUMMARY && p && p->info) {
        print = p->info;
    } else if (detail == FERRY_INFO_FULL) {
        /* A format without a dump of its own: the chunk tree of any
         * content whose chunks read (the library says "not a known
         * format" otherwise). */
        print = p && p->dump ? p->dump : cli_alamo_dump;
        use = p && p->dump ? p->dump_use : CLI_JSON_TEXT;
    } else if (detail == FERRY_INFO_ENTRIES && p && p->list) {
        print = p->list;
    } else {
        use = CLI_JSON_OUTPUT; /* no printer: the data as it is */
    }
    json_t *j = use == CLI_JSON_NONE ? NULL : cli_asset_json(file, asset, detail, use);
    if (!j && use != CLI_JSON_NONE) return CLI_INVALID;
    int status = CLI_OK;
    if (print)
        status = print(file, asset, j);
    else
        cli_print_json(j);
    json_decref(j);
    return status;
}

ferry_asset *cli_read_as(const char *file, const uint8_t *data, size_t size, ferry_format format)
{
    ferry_asset *a = NULL;
    ferry_error err;
    ferry_asset_options o = {.format = format};
    ferry_result r = data ? ferry_asset_read(data, size, &o, &a, &err) : ferry_asset_open(file, &o, &a, &err);
    if (r != FERRY_OK) {
        cli_print_error(file, &err);
        return NULL;
    }
    return a;
}

int cli_rewrite(const char *in, const char *out)
{
    /* Mapped, not loaded: a rewrite of a large archive copies its bytes
     * from the file's pages, never holding the input whole. */
    ferry_asset *a = cli_read_as(in, NULL, 0, FERRY_FORMAT_UNKNOWN);
    if (!a) return CLI_INVALID;
    ferry_error err;
    const ferry_write_options wo = {.protect_input = in};
    int status = CLI_OK;
    if (ferry_asset_save(a, out, &wo, &err) != FERRY_OK) status = cli_output_error(out, &err);
    ferry_asset_free(a);
    return status;
}

static void print_diag(FILE *f, const char *file, const ferry_diagnostic *d)
{
    char line[640]; /* room for the longest place, message and rule */
    ferry_diagnostic_format(d, line, sizeof line);
    fprintf(f, "%s: %s: %s\n", CLI_TXT(file), d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning", CLI_TXT(line));
}

static json_t *diag_json(const ferry_diagnostic *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "severity", json_string(d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning"));
    cli_json_set_text(j, "rule", d->rule);
    json_object_set_new(j, "offset", d->offset == FERRY_NO_OFFSET ? json_null() : json_integer((json_int_t)d->offset));
    cli_json_set_text(j, "path", d->path);
    cli_json_set_text(j, "message", d->message);
    return j;
}

void cli_report_diags(const char *file, const char *format, const ferry_diagnostics *diags, bool has_model,
                      const char *model, json_t *report)
{
    if (report) {
        json_t *fj = json_object(), *e = json_array(), *w = json_array();
        cli_json_set_text(fj, "file", file);
        if (has_model) cli_json_set_text(fj, "model", model);
        for (size_t i = 0; i < diags->count; i++)
            json_array_append_new(diags->items[i].severity == FERRY_SEVERITY_ERROR ? e : w, diag_json(&diags->items[i]));
        cli_json_set_text(fj, "format", format);
        json_object_set_new(fj, "errors", e);
        json_object_set_new(fj, "warnings", w);
        json_object_set_new(fj, "error_count", json_integer((json_int_t)diags->error_count));
        json_object_set_new(fj, "warning_count", json_integer((json_int_t)diags->warning_count));
        json_object_set_new(fj, "valid", json_boolean(diags->error_count == 0));
        json_array_append_new(report, fj);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < diags->count; i++)
            if ((int)diags->items[i].severity == pass) print_diag(stdout, file, &diags->items[i]);
    if (diags->dropped) printf("%s: ... %zu more problems not listed\n", CLI_TXT(file), diags->dropped);
    printf("%s: %zu error%s, %zu warning%s%s%s%s\n", CLI_TXT(file), diags->error_count,
           diags->error_count == 1 ? "" : "s", diags->warning_count, diags->warning_count == 1 ? "" : "s",
           model ? " (against " : "", model ? CLI_TXT(model) : "", model ? ")" : "");
}
