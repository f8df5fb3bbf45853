/* ferry's config commands (raP and text: .rvmat, config.bin, config.cpp):
 * info (with the material of an .rvmat), dump (the tree as text or JSON),
 * validate, convert (raP rewrite byte for byte, rapify, derapify). */
#include <ferry/config.h>

#include "cli.h"
#include "formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *cli_config_read(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_config *c;
    return ferry_config_read(data, size, NULL, &c, err) == FERRY_OK ? c : NULL;
}

ferry_result cli_config_write(const void *model, ferry_buffer *out, ferry_error *err)
{
    return ferry_config_write(model, out, err);
}

void cli_config_free(void *model) { ferry_config_free(model); }

static ferry_config *load(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    bool rap = size >= 4 && memcmp(data, "\0raP", 4) == 0;
    return cli_format_read(cli_format_for(rap ? FERRY_FORMAT_RAP : FERRY_FORMAT_CONFIG_TEXT), file, data, size,
                           report);
}

static void count(const ferry_config_class *cls, size_t *entries, int depth)
{
    *entries += cls->entry_count;
    for (size_t i = 0; i < cls->entry_count && depth < FERRY_CONFIG_MAX_DEPTH; i++)
        if (cls->entries[i].kind == FERRY_CONFIG_CLASS && cls->entries[i].cls)
            count(cls->entries[i].cls, entries, depth + 1);
}

static bool is_material(const ferry_config *c)
{
    return ferry_config_find(c, NULL, "PixelShaderID", false) || ferry_config_find(c, NULL, "Stage1", false) ||
           ferry_config_find(c, NULL, "diffuse", false);
}

static json_t *colour_json(const float v[4])
{
    json_t *a = json_array();
    for (int i = 0; i < 4; i++) json_array_append_new(a, json_real(v[i]));
    return a;
}

static json_t *material_json(const ferry_rvmat *m)
{
    json_t *j = json_object();
    if (m->has_ambient) json_object_set_new(j, "ambient", colour_json(m->ambient));
    if (m->has_diffuse) json_object_set_new(j, "diffuse", colour_json(m->diffuse));
    if (m->has_forced_diffuse) json_object_set_new(j, "forcedDiffuse", colour_json(m->forced_diffuse));
    if (m->has_emmisive) json_object_set_new(j, "emmisive", colour_json(m->emmisive));
    if (m->has_specular) json_object_set_new(j, "specular", colour_json(m->specular));
    if (m->has_specular_power) json_object_set_new(j, "specularPower", json_real(m->specular_power));
    if (m->pixel_shader) cli_json_set_text(j, "PixelShaderID", m->pixel_shader);
    if (m->vertex_shader) cli_json_set_text(j, "VertexShaderID", m->vertex_shader);
    json_t *stages = json_array();
    for (size_t i = 0; i < m->stage_count; i++) {
        const ferry_rvmat_stage *s = &m->stages[i];
        json_t *sj = json_object();
        cli_json_set_text(sj, "name", s->name);
        if (s->texture) cli_json_set_text(sj, "texture", s->texture);
        if (s->uv_source) cli_json_set_text(sj, "uvSource", s->uv_source);
        if (s->tex_gen >= 0) json_object_set_new(sj, "texGen", json_integer(s->tex_gen));
        json_object_set_new(sj, "role", json_string(ferry_rvmat_role_name(s->role)));
        json_array_append_new(stages, sj);
    }
    json_object_set_new(j, "stages", stages);
    json_object_set_new(j, "normal_stage", m->normal_stage >= 0 ? json_string(m->stages[m->normal_stage].name) : json_null());
    json_object_set_new(j, "specular_stage",
                        m->specular_stage >= 0 ? json_string(m->stages[m->specular_stage].name) : json_null());
    json_object_set_new(j, "detail_stage", m->detail_stage >= 0 ? json_string(m->stages[m->detail_stage].name) : json_null());
    return j;
}

static void print_colour(const char *name, const float v[4], bool has)
{
    if (has) printf("  %-14s %g, %g, %g, %g\n", name, v[0], v[1], v[2], v[3]);
}

int cli_config_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_config *c = load(file, data, size, report);
    if (!c) return CLI_INVALID;
    size_t entries = 0;
    count(&c->root, &entries, 0);
    ferry_rvmat m;
    ferry_error err;
    bool material = is_material(c) && ferry_rvmat_read(c, &m, &err) == FERRY_OK;
    if (report) {
        json_t *j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string(c->binarized ? "raP config" : "config text"));
        json_object_set_new(j, "size", json_integer((json_int_t)size));
        json_object_set_new(j, "classes", json_integer((json_int_t)c->class_count));
        json_object_set_new(j, "entries", json_integer((json_int_t)entries));
        json_object_set_new(j, "enums", json_integer((json_int_t)c->enum_count));
        if (material) json_object_set_new(j, "material", material_json(&m));
        json_array_append_new(report, j);
    } else {
        printf("%s: config (%s), %zu bytes, %zu class%s, %zu entries, %zu enum%s\n", CLI_TXT(file),
               c->binarized ? "raP" : "text", size, c->class_count, c->class_count == 1 ? "" : "es", entries,
               c->enum_count, c->enum_count == 1 ? "" : "s");
        if (material) {
            printf("  material: pixel shader %s, vertex shader %s\n", m.pixel_shader ? CLI_TXT(m.pixel_shader) : "-",
                   m.vertex_shader ? CLI_TXT(m.vertex_shader) : "-");
            print_colour("ambient", m.ambient, m.has_ambient);
            print_colour("diffuse", m.diffuse, m.has_diffuse);
            print_colour("forcedDiffuse", m.forced_diffuse, m.has_forced_diffuse);
            print_colour("emmisive", m.emmisive, m.has_emmisive);
            print_colour("specular", m.specular, m.has_specular);
            if (m.has_specular_power) printf("  %-14s %g\n", "specularPower", m.specular_power);
            for (size_t i = 0; i < m.stage_count; i++) {
                const ferry_rvmat_stage *s = &m.stages[i];
                printf("  %s: %s (%s", CLI_TXT(s->name), s->texture ? CLI_TXT(s->texture) : "no texture",
                       ferry_rvmat_role_name(s->role));
                if (s->uv_source) printf(", uvSource %s", CLI_TXT(s->uv_source));
                if (s->tex_gen >= 0) printf(", texGen %d", s->tex_gen);
                printf(")\n");
            }
            printf("  normal map: %s\n", m.normal_stage >= 0 ? CLI_TXT(m.stages[m.normal_stage].name) : "none");
        }
    }
    ferry_config_free(c);
    return CLI_OK;
}

static json_t *value_json(const ferry_config_value *v, int depth)
{
    switch (v->type) {
    case FERRY_CONFIG_STRING: return cli_json_text(v->string ? v->string : "", NULL);
    case FERRY_CONFIG_EXPRESSION: {
        json_t *j = json_object();
        json_object_set_new(j, "expression", cli_json_text(v->string ? v->string : "", NULL));
        return j;
    }
    case FERRY_CONFIG_FLOAT: return json_real(v->f);
    case FERRY_CONFIG_INT:
    case FERRY_CONFIG_INT64: return json_integer((json_int_t)v->i);
    case FERRY_CONFIG_ARRAY: {
        json_t *a = json_array();
        for (size_t i = 0; i < v->count && depth < FERRY_CONFIG_MAX_DEPTH; i++)
            json_array_append_new(a, value_json(&v->items[i], depth + 1));
        return a;
    }
    default: return json_null();
    }
}

static json_t *class_json(const ferry_config_class *cls, bool binarized, int depth)
{
    static const char *const kinds[] = {"class", "value", "array", "external", "delete", "append"};
    json_t *j = json_object();
    if (cls->parent && *cls->parent) cli_json_set_text(j, "parent", cls->parent);
    if (binarized) json_object_set_new(j, "offset", json_integer((json_int_t)cls->body_offset));
    json_t *entries = json_array();
    for (size_t i = 0; i < cls->entry_count; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        json_t *ej = json_object();
        json_object_set_new(ej, "kind", json_string(e->kind < 6 ? kinds[e->kind] : "unknown"));
        cli_json_set_text(ej, "name", e->name);
        json_object_set_new(ej, "offset", json_integer((json_int_t)e->offset));
        if (e->kind == FERRY_CONFIG_CLASS && e->cls && depth < FERRY_CONFIG_MAX_DEPTH)
            json_object_set_new(ej, "class", class_json(e->cls, binarized, depth + 1));
        else if (e->kind == FERRY_CONFIG_VALUE || e->kind == FERRY_CONFIG_ARRAY_ENTRY ||
                 e->kind == FERRY_CONFIG_ARRAY_APPEND) {
            json_object_set_new(ej, "type", json_string(ferry_config_type_name(e->value.type)));
            json_object_set_new(ej, "value", value_json(&e->value, 0));
        }
        json_array_append_new(entries, ej);
    }
    json_object_set_new(j, "entries", entries);
    return j;
}

int cli_config_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_config *c = load(file, data, size, NULL);
    if (!c) return CLI_INVALID;
    int status = CLI_OK;
    if (json) {
        json_t *j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string(c->binarized ? "raP config" : "config text"));
        json_t *enums = json_object();
        for (size_t i = 0; i < c->enum_count; i++)
            json_object_set_new(enums, c->enums[i].name, json_integer(c->enums[i].value));
        json_object_set_new(j, "enums", enums);
        json_object_set_new(j, "root", class_json(&c->root, c->binarized, 0));
        cli_print_json(j);
        json_decref(j);
    } else {
        ferry_buffer text = {0};
        ferry_error err;
        printf("// %s: config (%s), %zu bytes\n", CLI_TXT(file), c->binarized ? "raP" : "text", size);
        if (ferry_config_write_text(c, &text, &err) != FERRY_OK) {
            cli_print_error(file, &err);
            status = CLI_INVALID;
        } else {
            fwrite(text.data, 1, text.size, stdout);
        }
        ferry_buffer_free(&text);
    }
    ferry_config_free(c);
    return status;
}

size_t cli_config_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                           json_t *report)
{
    (void)options;
    ferry_config *c = load(file, data, size, report);
    if (!c) return 1;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_config_validate(c, NULL, &d);
    cli_report_diags(file, c->binarized ? "raP config" : "config text", &d, report);
    size_t errors = d.error_count;
    ferry_diagnostics_free(&d);
    ferry_config_free(c);
    return errors;
}

/* Outputs written as text, and as raP (the names configs of both forms
 * carry); any other name is refused. */
static bool has_any_ext(const char *out, const char *const *exts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cli_has_ext(out, exts[i])) return true;
    return false;
}
static const char *const text_exts[] = {".cpp", ".hpp", ".h", ".inc", ".txt", ".ext"};
static const char *const rap_exts[] = {".rvmat", ".bin", ".bisurf", ".sqm", ".fsm"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int to_text(const char *in, const char *out, ferry_format source)
{
    uint8_t *data;
    size_t size;
    ferry_config *c = cli_format_load(cli_format_for(source), in, &data, &size);
    if (!c) return CLI_INVALID;
    ferry_buffer buf = {0};
    ferry_error err;
    int status = CLI_INVALID;
    if (ferry_config_write_text(c, &buf, &err) != FERRY_OK)
        cli_print_error(in, &err);
    else
        status = cli_write_output(in, out, &buf);
    ferry_buffer_free(&buf);
    ferry_config_free(c);
    ferry_file_free(data);
    return status;
}

int cli_config_convert(int argc, char **argv, ferry_format source)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) return cli_usage_error("convert", "option '%s' does not apply to config conversions", a);
        if (!cli_take_file(a, &in, &out)) return CLI_USAGE;
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT");
    if (has_any_ext(out, text_exts, COUNT(text_exts))) return to_text(in, out, source);
    if (!has_any_ext(out, rap_exts, COUNT(rap_exts)))
        return cli_usage_error("convert",
                               "cannot write '%s' from a config: outputs are raP (.rvmat, .bin, .bisurf, .sqm, .fsm) "
                               "or text (.cpp, .hpp, .h, .inc, .txt, .ext)",
                               out);
    cli_convert_options o = {0};
    o.source = source;
    return cli_format_rewrite(in, out, &o);
}

const char cli_config_convert_help[] =
    "\n"
    "Configs (raP or text: .rvmat, config.bin, config.cpp):\n"
    "  IN -> OUT.cpp|.hpp|.h|.inc|.txt|.ext   as text (derapify)\n"
    "  IN -> OUT.rvmat|.bin|.bisurf|.sqm|.fsm   as raP (byte-identical for a raP read; rapify for text)\n";
