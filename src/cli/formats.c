/* The CLI's table of formats: one row per format ferry_detect names, and
 * the loading that every command shares. */
#include "formats.h"

#include <ferry/meg.h>
#include <ferry/pbo.h>

#include <stdio.h>
#include <string.h>

static const cli_format formats[] = {
    /* id, name, info, dump, validate, convert (options), rewrite, export, build, read/write/free */
    {FERRY_FORMAT_ALO_MODEL, "ALO model", cli_alamo_info, cli_alamo_dump, cli_alamo_validate, cli_alamo_convert,
     cli_alamo_rewrite, cli_alamo_export, NULL, NULL, NULL, NULL},
    {FERRY_FORMAT_ALO_PARTICLE, "ALO particle system", cli_alamo_info, cli_alamo_dump, cli_alamo_validate,
     cli_alamo_convert, cli_alamo_rewrite, cli_alamo_export, NULL, NULL, NULL, NULL},
    /* Read as a particle system, whose reader says it is not supported. */
    {FERRY_FORMAT_ALO_PARTICLE_UAW, "ALO particle system (Universe at War, 0x1500)", cli_alamo_info, cli_alamo_dump,
     cli_alamo_validate, cli_alamo_convert, cli_alamo_rewrite, cli_alamo_export, NULL, NULL, NULL, NULL},
    {FERRY_FORMAT_ALA, "ALA animation", cli_alamo_info, cli_alamo_dump, cli_alamo_validate, cli_alamo_convert,
     cli_alamo_rewrite, cli_alamo_export, NULL, NULL, NULL, NULL},
    {FERRY_FORMAT_ODOL, "ODOL", cli_odol_info, cli_odol_dump, cli_odol_validate, cli_odol_convert,
     cli_format_rewrite, cli_odol_export, NULL, cli_odol_read, cli_odol_write, cli_odol_free},
    /* MLOD goes to the ODOL reader, which names it (ferry does not read it). */
    {FERRY_FORMAT_MLOD, "ODOL", cli_odol_info, cli_odol_dump, cli_odol_validate, cli_odol_convert,
     cli_format_rewrite, cli_odol_export, NULL, cli_odol_read, cli_odol_write, cli_odol_free},
    {FERRY_FORMAT_ALM, "ALM", cli_alm_info, cli_alm_dump, cli_alm_validate, cli_alm_convert,
     cli_format_rewrite, cli_alm_export, cli_alm_build, cli_alm_read, cli_alm_write, cli_alm_free},
    {FERRY_FORMAT_MEG, "MEG", cli_meg_info, cli_meg_dump, cli_meg_validate, cli_meg_convert, cli_archive_rewrite,
     NULL, NULL, cli_meg_read, cli_meg_write, cli_meg_free},
    {FERRY_FORMAT_PBO, "PBO", cli_pbo_info, cli_pbo_dump, cli_pbo_validate, cli_pbo_convert, cli_archive_rewrite,
     NULL, NULL, cli_pbo_read, cli_pbo_write, cli_pbo_free},
    /* glTF is an input of ALM building, ALO authoring and ALA writing only
     * (cmd_convert.c's routes). */
    {FERRY_FORMAT_GLB, "glTF binary", NULL, NULL, NULL, cli_alamo_convert, NULL, NULL, NULL, NULL, NULL, NULL},
    {FERRY_FORMAT_GLTF, "glTF", NULL, NULL, NULL, cli_alamo_convert, NULL, NULL, NULL, NULL, NULL, NULL},
    {FERRY_FORMAT_PAA, "PAA", cli_paa_info, cli_paa_dump, cli_paa_validate, cli_paa_convert, cli_format_rewrite, NULL,
     NULL, cli_paa_read, cli_paa_write, cli_paa_free},
    {FERRY_FORMAT_RAP, "raP config", cli_config_info, cli_config_dump, cli_config_validate, cli_config_convert,
     cli_format_rewrite, NULL, NULL, cli_config_read, cli_config_write, cli_config_free},
    {FERRY_FORMAT_CONFIG_TEXT, "config text", cli_config_info, cli_config_dump, cli_config_validate,
     cli_config_convert, cli_format_rewrite, NULL, NULL, cli_config_read, cli_config_write, cli_config_free},
};

const cli_format *cli_format_for(ferry_format id)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].id == id) return &formats[i];
    return NULL;
}

bool cli_named_like_asset(const char *name)
{
    static const char *const ext[] = {".alo", ".ala", ".p3d", ".alm", ".meg", ".pbo", ".paa", ".pac", ".rvmat"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (cli_has_ext(name, ext[i])) return true;
    return false;
}

size_t cli_validate_entry(const char *file, const char *name, size_t name_length, const uint8_t *data, size_t size,
                          json_t *report)
{
    if (!name || memchr(name, 0, name_length)) return 0; /* the archive's own errors */
    ferry_format f = ferry_detect(data, size);
    if (f == FERRY_FORMAT_CONFIG_TEXT && !cli_has_ext(name, ".rvmat")) f = FERRY_FORMAT_UNKNOWN;
    const cli_format *row = cli_format_for(f);
    bool check = row && row->validate;
    if (!check && !cli_named_like_asset(name)) return 0;
    size_t fl = strlen(file), errors = 0;
    char *label = malloc(fl + 1 + name_length + 1);
    if (!label) return 1;
    memcpy(label, file, fl);
    label[fl] = ':';
    memcpy(label + fl + 1, name, name_length);
    label[fl + 1 + name_length] = 0;
    if (check) {
        cli_validate_options inner = {0};
        errors = row->validate(label, data, size, &inner, report);
    } else {
        ferry_error err;
        cli_not_known(&err, data, size);
        if (report)
            cli_json_append_failure(report, label, NULL, &err);
        else
            cli_print_error(label, &err);
        errors = 1;
    }
    free(label);
    return errors;
}

void cli_not_known(ferry_error *err, const uint8_t *data, size_t size)
{
    memset(err, 0, sizeof *err);
    err->code = FERRY_ERR_UNSUPPORTED;
    err->offset = 0;
    if (!size) {
        snprintf(err->message, sizeof err->message, "not a known format: the file is empty");
        return;
    }
    char bytes[3 * 8 + 1] = "";
    size_t at = 0;
    for (size_t i = 0; i < 8 && i < size; i++)
        at += (size_t)snprintf(bytes + at, sizeof bytes - at, "%s%02x", i ? " " : "", data[i]);
    snprintf(err->message, sizeof err->message,
             "not a known format: it starts with %s; ferry reads Alamo models (chunk 0x200), particle "
             "systems (0x900), animations (0x1000), ODOL P3D models ('ODOL'), ALM meshes, MEG and PBO archives, PAA/PAC textures (0xff01...) and configs (raP, text)",
             bytes);
}

static bool usable(const cli_format *f, cli_use use)
{
    switch (use) {
    case CLI_USE_INFO: return f->info != NULL;
    case CLI_USE_DUMP: return f->dump != NULL;
    case CLI_USE_VALIDATE: return f->validate != NULL;
    default: return true;
    }
}

size_t cli_map_limit(ferry_format id)
{
    /* An archive (MEG, PBO) is only ever mapped: no reason to limit its
     * size. */
    return id == FERRY_FORMAT_MEG || id == FERRY_FORMAT_PBO ? 0 : CLI_MAX_INPUT;
}

static bool input_get(const char *path, cli_use use, bool map, cli_input *in, ferry_error *err)
{
    memset(in, 0, sizeof *in);
    /* The format is told from the head, before the whole file is loaded. */
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got = 0;
    if (!cli_check_head(path, head, sizeof head, &got, err)) return false;
    in->id = ferry_detect(head, got);
    in->format = cli_format_for(in->id);
    if (!in->format || !usable(in->format, use)) {
        in->format = NULL;
        cli_not_known(err, head, got);
        return false;
    }
    if (map) {
        if (ferry_file_map(path, cli_map_limit(in->id), &in->map, err) != FERRY_OK) return false;
        in->data = (uint8_t *)in->map.data; /* read only: the readers take const bytes */
        in->size = in->map.size;
    } else if (ferry_file_load(path, CLI_MAX_INPUT, &in->data, &in->size, err) != FERRY_OK) {
        return false;
    }
    ferry_format now = ferry_detect(in->data, in->size);
    if (now != in->id) { /* the file changed since its head was read */
        in->id = now;
        in->format = cli_format_for(now);
        if (!in->format || !usable(in->format, use)) {
            in->format = NULL;
            cli_not_known(err, in->data, in->size);
            return false;
        }
    }
    return true;
}

bool cli_input_load(const char *path, cli_use use, cli_input *in, ferry_error *err)
{
    return input_get(path, use, false, in, err);
}

bool cli_input_open(const char *path, cli_use use, cli_input *in, ferry_error *err)
{
    return input_get(path, use, true, in, err);
}

void cli_input_free(cli_input *in)
{
    if (in->map.base)
        ferry_file_unmap(&in->map);
    else
        ferry_file_free(in->data);
    memset(in, 0, sizeof *in);
}

ferry_format cli_format_guess(const char *path)
{
    uint8_t head[FERRY_DETECT_HEAD];
    size_t n = 0;
    ferry_error err;
    /* Never blocks: a FIFO or device is refused here, and again, with a
     * message, by the load that follows. */
    ferry_format f = FERRY_FORMAT_UNKNOWN;
    if (ferry_file_read_head(path, head, sizeof head, &n, NULL, &err) == FERRY_OK) f = ferry_detect(head, n);
    if (f != FERRY_FORMAT_UNKNOWN) return f;
    if (cli_has_ext(path, ".p3d")) return FERRY_FORMAT_ODOL;
    if (cli_has_ext(path, ".alm")) return FERRY_FORMAT_ALM;
    if (cli_has_ext(path, ".meg")) return FERRY_FORMAT_MEG;
    if (cli_has_ext(path, ".pbo")) return FERRY_FORMAT_PBO;
    if (cli_has_ext(path, ".glb")) return FERRY_FORMAT_GLB;
    if (cli_has_ext(path, ".gltf")) return FERRY_FORMAT_GLTF;
    if (cli_has_ext(path, ".alo")) return FERRY_FORMAT_ALO_MODEL;
    if (cli_has_ext(path, ".ala")) return FERRY_FORMAT_ALA;
    if (cli_has_ext(path, ".paa") || cli_has_ext(path, ".pac")) return FERRY_FORMAT_PAA;
    if (cli_has_ext(path, ".rvmat") || cli_has_ext(path, ".bin")) return FERRY_FORMAT_RAP;
    if (cli_has_ext(path, ".cpp") || cli_has_ext(path, ".hpp")) return FERRY_FORMAT_CONFIG_TEXT;
    return FERRY_FORMAT_UNKNOWN;
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

int cli_format_rewrite(const char *in, const char *out, const cli_convert_options *options)
{
    const cli_format *format = cli_format_for(options->source);
    /* Mapped, not loaded: a rewrite of a large archive copies its bytes
     * from the file's pages, never holding the input whole. */
    cli_input input;
    ferry_error err;
    if (!cli_input_open(in, CLI_USE_ANY, &input, &err)) {
        cli_print_error(in, &err);
        cli_input_free(&input);
        return CLI_INVALID;
    }
    if (input.format != format) format = input.format; /* changed since it was told */
    void *model = format->read_model ? cli_format_read(format, in, input.data, input.size, NULL) : NULL;
    if (!model) {
        cli_input_free(&input);
        return CLI_INVALID;
    }
    ferry_buffer buf = {0};
    int status = CLI_INVALID;
    if (format->write_model(model, &buf, &err) != FERRY_OK)
        cli_print_error(in, &err);
    else
        status = cli_write_output(in, out, &buf);
    ferry_buffer_free(&buf);
    format->free_model(model);
    cli_input_free(&input);
    return status;
}

int cli_archive_rewrite(const char *in, const char *out, const cli_convert_options *options)
{
    (void)options;
    cli_input input;
    ferry_error err;
    if (!cli_input_open(in, CLI_USE_ANY, &input, &err)) {
        cli_print_error(in, &err);
        cli_input_free(&input);
        return CLI_INVALID;
    }
    if (input.id != FERRY_FORMAT_MEG && input.id != FERRY_FORMAT_PBO) { /* changed since it was told */
        cli_input_free(&input);
        return cli_format_rewrite(in, out, &(cli_convert_options){.source = input.id});
    }
    void *model = cli_format_read(input.format, in, input.data, input.size, NULL);
    if (!model) {
        cli_input_free(&input);
        return CLI_INVALID;
    }
    /* The tables from the object, then the bytes after them straight from
     * the mapping, a piece at a time (the pages dropped once written). */
    ferry_buffer tables = {0};
    ferry_file_writer *w = NULL;
    int status = CLI_INVALID;
    const ferry_write_options wo = {.protect_input = in};
    size_t tables_end;
    ferry_result r;
    if (input.id == FERRY_FORMAT_MEG) {
        r = ferry_meg_write_tables(model, &tables, &err);
        tables_end = ((const ferry_meg *)model)->tables_end;
    } else {
        r = ferry_pbo_write_tables(model, &tables, &err);
        tables_end = ((const ferry_pbo *)model)->tables_end;
    }
    if (r != FERRY_OK) {
        cli_print_error(in, &err);
        goto done;
    }
    if (ferry_file_writer_open(out, &wo, &w, &err) != FERRY_OK) {
        status = cli_output_error(out, &err);
        goto done;
    }
    if (ferry_file_writer_write(w, tables.data, tables.size, &err) != FERRY_OK) goto failed;
    const size_t piece = (size_t)8 << 20;
    for (size_t at = tables_end; at < input.size; at += piece) {
        size_t n = input.size - at < piece ? input.size - at : piece;
        if (ferry_file_writer_write(w, input.data + at, n, &err) != FERRY_OK) goto failed;
        ferry_file_map_drop(&input.map, 0, at + n);
    }
    ferry_file_writer *committing = w;
    w = NULL;
    if (ferry_file_writer_commit(committing, &err) != FERRY_OK) goto failed;
    status = CLI_OK;
    goto done;
failed:
    cli_print_error(out, &err);
done:
    ferry_file_writer_abort(w);
    ferry_buffer_free(&tables);
    input.format->free_model(model);
    cli_input_free(&input);
    return status;
}

bool cli_refuse_invalid(FILE *log, const char *in, const ferry_diagnostics *diags, bool allow_invalid)
{
    if (!diags->error_count) return false;
    if (log)
        for (size_t i = 0; i < diags->count; i++)
            if (diags->items[i].severity == FERRY_SEVERITY_ERROR) cli_fprint_diag(log, in, &diags->items[i]);
    if (log && allow_invalid)
        fprintf(log, "%s: converting anyway (--allow-invalid): %zu validation error%s; values the output cannot hold (NaN, infinities) still stop the conversion\n", CLI_TXT(in),
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
