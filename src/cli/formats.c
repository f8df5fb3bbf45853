/* Dispatch to the CLI code of formats outside the Alamo family. */
#include "formats.h"

#include <stdio.h>
#include <string.h>

static const cli_format *const formats[] = {&cli_format_alm, &cli_format_odol};

const cli_format *cli_format_of(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i]->detect(data, size)) return formats[i];
    return NULL;
}

const cli_format *cli_format_sniff(const char *path)
{
    /* Never blocks: a FIFO or device is refused here, and again, with a
     * message, by the load that follows. */
    uint8_t head[16];
    size_t n = 0;
    ferry_error err;
    if (ferry_file_read_head(path, head, sizeof head, &n, NULL, &err) != FERRY_OK) return NULL;
    return cli_format_of(head, n);
}

const cli_format *cli_format_for_convert(const char *path)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i]->claims_convert(path)) return formats[i];
    return NULL;
}

void *cli_format_read(const cli_format *format, const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_error err;
    void *model = format->read_model(data, size, &err);
    if (model) return model;
    if (report) {
        cli_json_append_failure(report, file, format->name, &err);
    } else {
        cli_print_error(file, &err);
    }
    return NULL;
}

void *cli_format_load(const cli_format *format, const char *path, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    if (!cli_load(path, data, size)) return NULL;
    void *model = cli_format_read(format, path, *data, *size, NULL);
    if (!model) {
        ferry_file_free(*data);
        *data = NULL;
    }
    return model;
}

int cli_format_rewrite(const cli_format *format, const char *in, const char *out)
{
    uint8_t *data;
    size_t size;
    void *model = cli_format_load(format, in, &data, &size);
    if (!model) return CLI_INVALID;
    ferry_buffer buf = {0};
    ferry_error err;
    int status = CLI_INVALID;
    if (format->write_model(model, &buf, &err) != FERRY_OK)
        cli_print_error(in, &err);
    else
        status = cli_write_output(in, out, &buf);
    ferry_buffer_free(&buf);
    format->free_model(model);
    ferry_file_free(data);
    return status;
}

bool cli_refuse_invalid(FILE *log, const char *in, const ferry_diagnostics *diags, bool allow_invalid)
{
    if (!diags->error_count) return false;
    if (log)
        for (size_t i = 0; i < diags->count; i++)
            if (diags->items[i].severity == FERRY_SEVERITY_ERROR) cli_fprint_diag(log, in, &diags->items[i]);
    if (log && allow_invalid)
        fprintf(log, "%s: converted anyway (--allow-invalid): %zu validation error%s\n", CLI_TXT(in),
                diags->error_count, diags->error_count == 1 ? "" : "s");
    else if (log)
        fprintf(log, "%s: not converted: %zu validation error%s (ferry validate lists them all; --allow-invalid "
                     "converts anyway)\n",
                CLI_TXT(in), diags->error_count, diags->error_count == 1 ? "" : "s");
    return !allow_invalid;
}

void cli_print_diag(const char *file, const ferry_diagnostic *d) { cli_fprint_diag(stdout, file, d); }

void cli_fprint_diag(FILE *f, const char *file, const ferry_diagnostic *d)
{
    fprintf(f, "%s: %s: ", CLI_TXT(file), d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning");
    if (d->offset != FERRY_NO_OFFSET)
        fprintf(f, "offset 0x%llx (%llu), ", (unsigned long long)d->offset, (unsigned long long)d->offset);
    /* Alamo places are chunk paths ("0x400/0x401"); other formats name records. */
    if (d->path[0]) fprintf(f, "%s %s: ", strncmp(d->path, "0x", 2) == 0 ? "chunk" : "at", CLI_TXT(d->path));
    fprintf(f, "%s [%s]\n", CLI_TXT(d->message), d->rule);
}

json_t *cli_diag_json(const ferry_diagnostic *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "severity", json_string(d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning"));
    cli_json_set_text(j, "rule", d->rule);
    json_object_set_new(j, "offset", d->offset == FERRY_NO_OFFSET ? json_null() : json_integer((json_int_t)d->offset));
    cli_json_set_text(j, "path", d->path);
    cli_json_set_text(j, "message", d->message);
    return j;
}

void cli_report_diags(const char *file, const char *format, const ferry_diagnostics *diags, json_t *report)
{
    if (report) {
        json_t *fj = json_object(), *e = json_array(), *w = json_array();
        cli_json_set_text(fj, "file", file);
        for (size_t i = 0; i < diags->count; i++)
            json_array_append_new(diags->items[i].severity == FERRY_SEVERITY_ERROR ? e : w, cli_diag_json(&diags->items[i]));
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
            if ((int)diags->items[i].severity == pass) cli_print_diag(file, &diags->items[i]);
    if (diags->dropped) printf("%s: ... %zu more problems not listed\n", CLI_TXT(file), diags->dropped);
    printf("%s: %zu error%s, %zu warning%s\n", CLI_TXT(file), diags->error_count, diags->error_count == 1 ? "" : "s",
           diags->warning_count, diags->warning_count == 1 ? "" : "s");
}
