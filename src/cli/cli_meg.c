/* ferry info/dump/validate/convert/list for Petroglyph MEG archives. */
#include "formats.h"

#include <ferry/meg.h>

#include <stdlib.h>
#include <string.h>

void *cli_meg_read(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_meg *m;
    return ferry_meg_read(data, size, NULL, &m, err) == FERRY_OK ? m : NULL;
}

ferry_result cli_meg_write(const void *model, ferry_buffer *out, ferry_error *err)
{
    return ferry_meg_write(model, out, err);
}

void cli_meg_free(void *model) { ferry_meg_free(model); }

static ferry_meg *load(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    return cli_format_read(cli_format_for(FERRY_FORMAT_MEG), file, data, size, report);
}

static uint64_t total_bytes(const ferry_meg *m)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < m->entry_count; i++) t += m->entries[i].size;
    return t;
}

json_t *cli_meg_json(const char *file, const ferry_meg *m, size_t size)
{
    json_t *j = json_object();
    cli_json_set_text(j, "file", file);
    json_object_set_new(j, "format", json_string("MEG"));
    json_object_set_new(j, "version", json_integer(m->format));
    json_object_set_new(j, "size", json_integer((json_int_t)size));
    return j;
}

json_t *cli_meg_entry_json(const ferry_meg_entry *e, uint32_t i)
{
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer(i));
    if (e->name)
        cli_json_set_text(j, "name", e->name);
    else
        json_object_set_new(j, "name", json_null());
    json_object_set_new(j, "size", json_integer(e->size));
    json_object_set_new(j, "start", json_integer(e->start));
    json_object_set_new(j, "crc", json_integer(e->crc));
    json_object_set_new(j, "stored_index", json_integer(e->index));
    json_object_set_new(j, "name_index", json_integer(e->name_index));
    json_object_set_new(j, "flags", json_integer(e->flags));
    return j;
}

int cli_meg_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_meg *m = load(file, data, size, report);
    if (!m) return CLI_INVALID;
    if (report) {
        json_t *j = cli_meg_json(file, m, size);
        json_object_set_new(j, "names", json_integer(m->name_count));
        json_object_set_new(j, "files", json_integer(m->entry_count));
        json_object_set_new(j, "data_bytes", json_integer((json_int_t)total_bytes(m)));
        json_array_append_new(report, j);
    } else {
        printf("%s: MEG archive, format %u, %zu bytes\n", CLI_TXT(file), (unsigned)m->format, size);
        uint64_t bytes = total_bytes(m);
        printf("  %u file%s, %u name%s, %llu byte%s of entries\n", (unsigned)m->entry_count,
               m->entry_count == 1 ? "" : "s", (unsigned)m->name_count, m->name_count == 1 ? "" : "s",
               (unsigned long long)bytes, bytes == 1 ? "" : "s");
    }
    ferry_meg_free(m);
    return CLI_OK;
}

int cli_meg_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_meg *m = load(file, data, size, NULL);
    if (!m) return CLI_INVALID;
    if (json) {
        json_t *j = cli_meg_json(file, m, size);
        if (m->format >= 2) {
            json_object_set_new(j, "flags", json_integer(m->flags_word));
            json_object_set_new(j, "id", json_integer(m->id));
            json_object_set_new(j, "data_start", json_integer(m->data_start));
        }
        if (m->format == 3) json_object_set_new(j, "name_table_size", json_integer(m->name_table_size));
        json_t *names = json_array();
        json_object_set_new(j, "names", names);
        for (uint32_t i = 0; i < m->name_count; i++)
            cli_json_append_textn(j, "names", names, m->names[i].text, m->names[i].length);
        json_t *files = json_array();
        for (uint32_t i = 0; i < m->entry_count; i++) json_array_append_new(files, cli_meg_entry_json(&m->entries[i], i));
        json_object_set_new(j, "files", files);
        cli_print_json(j);
        json_decref(j);
    } else {
        printf("%s: MEG archive, format %u, %zu bytes\n", CLI_TXT(file), (unsigned)m->format, size);
        if (m->format >= 2)
            printf("  flags 0x%08X, id 0x%08X, data start %u\n", (unsigned)m->flags_word, (unsigned)m->id,
                   (unsigned)m->data_start);
        if (m->format == 3) printf("  name table size %u\n", (unsigned)m->name_table_size);
        printf("  names (%u):\n", (unsigned)m->name_count);
        for (uint32_t i = 0; i < m->name_count; i++) {
            printf("    [%u] ", (unsigned)i);
            cli_fput_textn(stdout, m->names[i].text, m->names[i].length);
            putchar('\n');
        }
        printf("  files (%u):\n", (unsigned)m->entry_count);
        for (uint32_t i = 0; i < m->entry_count; i++) {
            const ferry_meg_entry *e = &m->entries[i];
            printf("    [%u] crc 0x%08X index %u size %u start %u name %u flags %u\n", (unsigned)i, (unsigned)e->crc,
                   (unsigned)e->index, (unsigned)e->size, (unsigned)e->start, (unsigned)e->name_index,
                   (unsigned)e->flags);
        }
    }
    ferry_meg_free(m);
    return CLI_OK;
}

/* Every entry whose content is a format ferry validates (or that is named
 * like one) through cli_validate_entry. Returns the errors found. */
static size_t validate_entries(const char *file, const ferry_meg *m, const ferry_file_mapping *map, json_t *report)
{
    size_t errors = 0;
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const ferry_meg_entry *e = &m->entries[i];
        if (e->data) errors += cli_validate_entry(file, e->name, e->name_length, e->data, e->size, report);
        /* The mapped archive's pages up to the entry's end leave this
         * process's memory (from 0: the system maps a few pages around
         * each one read, some behind it). */
        if (map && map->data == m->archive) ferry_file_map_drop(map, 0, (uint64_t)e->start + e->size);
    }
    return errors;
}

size_t cli_meg_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report)
{
    ferry_meg *m = load(file, data, size, report);
    if (!m) return 1;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_meg_validate(m, NULL, &d);
    cli_report_diags(file, "MEG", &d, report);
    size_t errors = d.error_count;
    ferry_diagnostics_free(&d);
    errors += validate_entries(file, m, options ? options->map : NULL, report);
    ferry_meg_free(m);
    return errors;
}

int cli_meg_convert(int argc, char **argv, ferry_format source)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) return cli_usage_error("convert", "option '%s' does not apply to MEG archives", a);
        if (!cli_take_file(a, &in, &out)) return CLI_USAGE;
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT");
    if (source != FERRY_FORMAT_MEG || !cli_has_ext(out, ".meg"))
        return cli_usage_error("convert", "a MEG archive converts to a .meg only (a byte-identical rewrite), not '%s'",
                               out);
    cli_convert_options o = {0};
    o.source = source;
    return cli_archive_rewrite(in, out, &o);
}

const char cli_meg_convert_help[] =
    "\n"
    "Petroglyph MEG archives:\n"
    "  IN.meg -> OUT.meg   rewrite (byte-identical)\n";
