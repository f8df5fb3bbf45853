/* ferry info/dump/validate/convert/list for Bohemia PBO archives. */
#include "formats.h"

#include <ferry/pbo.h>

#include <stdlib.h>
#include <string.h>

void *cli_pbo_read(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_pbo *m;
    return ferry_pbo_read(data, size, NULL, &m, err) == FERRY_OK ? m : NULL;
}

ferry_result cli_pbo_write(const void *model, ferry_buffer *out, ferry_error *err)
{
    return ferry_pbo_write(model, out, err);
}

void cli_pbo_free(void *model) { ferry_pbo_free(model); }

static ferry_pbo *load(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    return cli_format_read(cli_format_for(FERRY_FORMAT_PBO), file, data, size, report);
}

static const char *method_name(uint32_t method)
{
    switch (method) {
    case FERRY_PBO_METHOD_NONE: return "stored";
    case FERRY_PBO_METHOD_COMPRESSED: return "compressed";
    case FERRY_PBO_METHOD_VERSION: return "Vers";
    default: return "unknown";
    }
}

static void sha1_hex(char out[41], const uint8_t *d)
{
    for (int i = 0; i < FERRY_PBO_SHA1_SIZE; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static uint64_t total_bytes(const ferry_pbo *m, bool original)
{
    uint64_t t = 0;
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        t += original && e->method == FERRY_PBO_METHOD_COMPRESSED ? e->original_size : e->size;
    }
    return t;
}

json_t *cli_pbo_json(const char *file, const ferry_pbo *m, size_t size)
{
    json_t *j = json_object();
    cli_json_set_text(j, "file", file);
    json_object_set_new(j, "format", json_string("PBO"));
    json_object_set_new(j, "size", json_integer((json_int_t)size));
    json_t *props = json_array();
    for (size_t i = 0; i < m->property_count; i++) {
        const ferry_pbo_property *p = &m->properties[i];
        json_t *o = json_object();
        cli_json_set_text(o, "key", p->key);
        cli_json_set_text(o, "value", p->value);
        json_array_append_new(props, o);
    }
    json_object_set_new(j, "product_entry", json_boolean(m->has_product_entry));
    json_object_set_new(j, "properties", props);
    const char *prefix = ferry_pbo_property_value(m, "prefix");
    if (prefix)
        cli_json_set_text(j, "prefix", prefix);
    else
        json_object_set_new(j, "prefix", json_null());
    json_object_set_new(j, "data_start", json_integer((json_int_t)m->tables_end));
    if (m->has_checksum) {
        char hex[41];
        sha1_hex(hex, m->checksum);
        json_object_set_new(j, "sha1", json_string(hex));
        json_object_set_new(j, "sha1_ok", json_boolean(memcmp(m->checksum, m->computed, FERRY_PBO_SHA1_SIZE) == 0));
    } else {
        json_object_set_new(j, "sha1", json_null());
    }
    return j;
}

json_t *cli_pbo_entry_json(const ferry_pbo_entry *e, size_t i)
{
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer((json_int_t)i));
    cli_json_set_text(j, "name", e->name);
    json_object_set_new(j, "size", json_integer(e->method == FERRY_PBO_METHOD_COMPRESSED ? e->original_size : e->size));
    json_object_set_new(j, "data_size", json_integer(e->size));
    json_object_set_new(j, "original_size", json_integer(e->original_size));
    json_object_set_new(j, "start", json_integer((json_int_t)e->start));
    json_object_set_new(j, "method", json_string(method_name(e->method)));
    json_object_set_new(j, "method_value", json_integer(e->method));
    json_object_set_new(j, "reserved", json_integer(e->reserved));
    json_object_set_new(j, "timestamp", json_integer(e->timestamp));
    return j;
}

int cli_pbo_list(const char *file, const ferry_pbo *m, size_t size, bool json)
{
    if (json) {
        json_t *j = cli_pbo_json(file, m, size);
        json_t *files = json_array();
        for (size_t i = 0; i < m->entry_count; i++) json_array_append_new(files, cli_pbo_entry_json(&m->entries[i], i));
        json_object_set_new(j, "files", files);
        cli_print_json(j);
        json_decref(j);
        return CLI_OK;
    }
    for (size_t i = 0; i < m->property_count; i++) {
        fputs("property ", stdout);
        cli_fput_textn(stdout, m->properties[i].key, m->properties[i].key_length);
        fputs(" = ", stdout);
        cli_fput_textn(stdout, m->properties[i].value, m->properties[i].value_length);
        putchar('\n');
    }
    printf("%10s %10s %10s %-10s %10s  name\n", "size", "stored", "offset", "method", "timestamp");
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        printf("%10u %10u %10llu %-10s %10u  ", (unsigned)(e->method == FERRY_PBO_METHOD_COMPRESSED ? e->original_size : e->size),
               (unsigned)e->size, (unsigned long long)e->start, method_name(e->method), (unsigned)e->timestamp);
        cli_fput_textn(stdout, e->name, e->name_length);
        putchar('\n');
    }
    return CLI_OK;
}

int cli_pbo_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_pbo *m = load(file, data, size, report);
    if (!m) return CLI_INVALID;
    uint64_t stored = total_bytes(m, false), original = total_bytes(m, true);
    size_t packed = 0;
    for (size_t i = 0; i < m->entry_count; i++) packed += m->entries[i].method == FERRY_PBO_METHOD_COMPRESSED;
    if (report) {
        json_t *j = cli_pbo_json(file, m, size);
        json_object_set_new(j, "files", json_integer((json_int_t)m->entry_count));
        json_object_set_new(j, "compressed_files", json_integer((json_int_t)packed));
        json_object_set_new(j, "data_bytes", json_integer((json_int_t)stored));
        json_object_set_new(j, "original_bytes", json_integer((json_int_t)original));
        json_array_append_new(report, j);
    } else {
        printf("%s: PBO archive, %zu bytes\n", CLI_TXT(file), size);
        const char *prefix = ferry_pbo_property_value(m, "prefix");
        printf("  prefix: %s\n", prefix ? CLI_TXT(prefix) : "(none)");
        for (size_t i = 0; i < m->property_count; i++) {
            if (strcmp(m->properties[i].key, "prefix") == 0) continue;
            printf("  %s: %s\n", CLI_TXT(m->properties[i].key), CLI_TXT(m->properties[i].value));
        }
        printf("  %zu file%s (%zu compressed), %llu byte%s stored, %llu unpacked\n", m->entry_count,
               m->entry_count == 1 ? "" : "s", packed, (unsigned long long)stored, stored == 1 ? "" : "s",
               (unsigned long long)original);
        if (m->has_checksum) {
            char hex[41];
            sha1_hex(hex, m->checksum);
            printf("  SHA-1 %s (%s)\n", hex,
                   memcmp(m->checksum, m->computed, FERRY_PBO_SHA1_SIZE) == 0 ? "matches" : "does NOT match");
        } else {
            printf("  no SHA-1 trailer\n");
        }
    }
    ferry_pbo_free(m);
    return CLI_OK;
}

static void print_record(const char *what, const ferry_pbo_entry *e)
{
    printf("    %s @%llu: method 0x%08X (%s), original size %u, reserved %u, timestamp %u, data size %u", what,
           (unsigned long long)e->offset, (unsigned)e->method, method_name(e->method), (unsigned)e->original_size,
           (unsigned)e->reserved, (unsigned)e->timestamp, (unsigned)e->size);
}

int cli_pbo_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_pbo *m = load(file, data, size, NULL);
    if (!m) return CLI_INVALID;
    if (json) {
        json_t *j = cli_pbo_json(file, m, size);
        if (m->has_product_entry) {
            json_t *p = cli_pbo_entry_json(&m->product, 0);
            json_object_del(p, "index");
            json_object_set_new(p, "offset", json_integer((json_int_t)m->product.offset));
            json_object_set_new(j, "product", p);
        }
        json_t *files = json_array();
        for (size_t i = 0; i < m->entry_count; i++) {
            json_t *e = cli_pbo_entry_json(&m->entries[i], i);
            json_object_set_new(e, "offset", json_integer((json_int_t)m->entries[i].offset));
            json_array_append_new(files, e);
        }
        json_object_set_new(j, "files", files);
        json_t *t = cli_pbo_entry_json(&m->terminator, 0);
        json_object_del(t, "index");
        json_object_set_new(t, "offset", json_integer((json_int_t)m->terminator.offset));
        json_object_set_new(j, "terminator", t);
        json_object_set_new(j, "data_end", json_integer((json_int_t)m->data_end));
        cli_print_json(j);
        json_decref(j);
    } else {
        printf("%s: PBO archive, %zu bytes\n", CLI_TXT(file), size);
        if (m->has_product_entry) {
            print_record("product entry", &m->product);
            putchar('\n');
            for (size_t i = 0; i < m->property_count; i++) {
                printf("      [%zu] @%llu ", i, (unsigned long long)m->properties[i].offset);
                cli_fput_textn(stdout, m->properties[i].key, m->properties[i].key_length);
                fputs(" = ", stdout);
                cli_fput_textn(stdout, m->properties[i].value, m->properties[i].value_length);
                putchar('\n');
            }
        }
        printf("  entries (%zu):\n", m->entry_count);
        for (size_t i = 0; i < m->entry_count; i++) {
            char what[32];
            snprintf(what, sizeof what, "[%zu]", i);
            print_record(what, &m->entries[i]);
            printf(", data at %llu: ", (unsigned long long)m->entries[i].start);
            cli_fput_textn(stdout, m->entries[i].name, m->entries[i].name_length);
            putchar('\n');
        }
        print_record("terminator", &m->terminator);
        printf("\n  data %zu..%llu\n", m->tables_end, (unsigned long long)m->data_end);
        if (m->has_checksum) {
            char hex[41], want[41];
            sha1_hex(hex, m->checksum);
            sha1_hex(want, m->computed);
            printf("  SHA-1 stored %s, computed %s\n", hex, want);
        }
    }
    ferry_pbo_free(m);
    return CLI_OK;
}

size_t cli_pbo_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report)
{
    (void)options;
    ferry_pbo *m = load(file, data, size, report);
    if (!m) return 1;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_pbo_validate(m, NULL, &d);
    cli_report_diags(file, "PBO", &d, report);
    size_t errors = d.error_count;
    ferry_diagnostics_free(&d);
    /* Every asset inside, one entry's bytes at a time: a stored entry's
     * where they lie, a compressed one's decoded (an entry that cannot be
     * had is the archive's own error, reported above). */
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        if (e->method == FERRY_PBO_METHOD_NONE && e->data) {
            errors += cli_validate_entry(file, e->name, e->name_length, e->data, e->size, report);
            continue;
        }
        uint8_t *bytes = NULL;
        size_t n = 0;
        ferry_error err;
        if (ferry_pbo_entry_bytes(m, i, 0, &bytes, &n, &err) != FERRY_OK) continue;
        errors += cli_validate_entry(file, e->name, e->name_length, bytes, n, report);
        free(bytes);
    }
    ferry_pbo_free(m);
    return errors;
}

int cli_pbo_convert(int argc, char **argv, ferry_format source)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) return cli_usage_error("convert", "option '%s' does not apply to PBO archives", a);
        if (!cli_take_file(a, &in, &out)) return CLI_USAGE;
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT");
    if (source != FERRY_FORMAT_PBO || !cli_has_ext(out, ".pbo"))
        return cli_usage_error("convert", "a PBO archive converts to a .pbo only (a byte-identical rewrite), not '%s'",
                               out);
    cli_convert_options o = {0};
    o.source = source;
    return cli_archive_rewrite(in, out, &o);
}

const char cli_pbo_convert_help[] =
    "\n"
    "Bohemia PBO archives:\n"
    "  IN.pbo -> OUT.pbo   rewrite (byte-identical, the stored SHA-1 included)\n";
