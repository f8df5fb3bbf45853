/* ferry's config commands (raP and text: .rvmat, config.bin, config.cpp):
 * info (with the material of an .rvmat), dump (the tree as text or JSON),
 * validate, convert (raP rewrite byte for byte, rapify, derapify). */
#include <ferry/config.h>

#include "cli.h"
#include "formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_colour(const json_t *material, const char *name)
{
    const json_t *v = json_object_get(material, name);
    if (v)
        printf("  %-14s %g, %g, %g, %g\n", name, cli_jnum(json_array_get(v, 0)), cli_jnum(json_array_get(v, 1)),
               cli_jnum(json_array_get(v, 2)), cli_jnum(json_array_get(v, 3)));
}

/* The normal map's stage: as the library names it, or (a stage name that
 * is not UTF-8 leaves the name out of the JSON) the first stage whose role
 * is the normal map. */
static const char *normal_stage(const json_t *material)
{
    const json_t *v = json_object_get(material, "normal_stage");
    if (v) return json_string_value(v);
    const json_t *stages = json_object_get(material, "stages");
    for (size_t i = 0; i < json_array_size(stages); i++)
        if (strcmp(cli_jstr(json_array_get(stages, i), "role"), ferry_rvmat_role_name(FERRY_RVMAT_NORMAL)) == 0)
            return cli_jstr(json_array_get(stages, i), "name");
    return NULL;
}

int cli_config_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    long long classes = cli_jint(j, "classes"), enums = cli_jint(j, "enums");
    const json_t *m = json_object_get(j, "material");
    printf("%s: config (%s), %lld bytes, %lld class%s, %lld entries, %lld enum%s\n", CLI_TXT(file),
           ferry_asset_format(asset) == FERRY_FORMAT_RAP ? "raP" : "text", cli_jint(j, "size"), classes,
           classes == 1 ? "" : "es", cli_jint(j, "entries"), enums, enums == 1 ? "" : "s");
    if (m) {
        const char *ps = cli_jstr(m, "PixelShaderID"), *vs = cli_jstr(m, "VertexShaderID");
        printf("  material: pixel shader %s, vertex shader %s\n", ps ? CLI_TXT(ps) : "-", vs ? CLI_TXT(vs) : "-");
        print_colour(m, "ambient");
        print_colour(m, "diffuse");
        print_colour(m, "forcedDiffuse");
        print_colour(m, "emmisive");
        print_colour(m, "specular");
        if (json_object_get(m, "specularPower")) printf("  %-14s %g\n", "specularPower", cli_jreal(m, "specularPower"));
        const json_t *stages = json_object_get(m, "stages");
        for (size_t i = 0; i < json_array_size(stages); i++) {
            const json_t *st = json_array_get(stages, i);
            const char *texture = cli_jstr(st, "texture"), *uv = cli_jstr(st, "uvSource");
            printf("  %s: %s (%s", CLI_TXT(cli_jstr(st, "name")), texture ? CLI_TXT(texture) : "no texture",
                   cli_jstr(st, "role"));
            if (uv) printf(", uvSource %s", CLI_TXT(uv));
            if (json_object_get(st, "texGen")) printf(", texGen %lld", cli_jint(st, "texGen"));
            printf(")\n");
        }
        const char *normal = normal_stage(m);
        printf("  normal map: %s\n", normal ? CLI_TXT(normal) : "none");
    }
    return CLI_OK;
}

/* The tree as config text (ferry_config_write_text), read from the
 * bytes `dump` opened. */
int cli_config_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)j;
    size_t size;
    const uint8_t *data = ferry_asset_bytes(asset, &size);
    ferry_asset *config = cli_read_as(file, data, size, ferry_asset_format(asset));
    if (!config) return CLI_INVALID;
    ferry_buffer text = {0};
    ferry_error err;
    printf("// %s: config (%s), %zu bytes\n", CLI_TXT(file), ferry_asset_format(config) == FERRY_FORMAT_RAP ? "raP" : "text",
           size);
    int status = CLI_OK;
    if (ferry_asset_write_layout(config, FERRY_LAYOUT_TEXT, &text, &err) != FERRY_OK) {
        cli_print_error(file, &err);
        status = CLI_INVALID;
    } else {
        fwrite(text.data, 1, text.size, stdout);
    }
    ferry_buffer_free(&text);
    ferry_asset_free(config);
    return status;
}

/* Outputs written as text, and as raP (the names configs of both forms
 * carry); any other name is refused. */
static bool has_any_ext(const char *out, const char *const *exts)
{
    for (; *exts; exts++)
        if (cli_has_ext(out, *exts)) return true;
    return false;
}
static const char *const text_exts[] = {".cpp", ".hpp", ".h", ".inc", ".txt", ".ext", NULL};
static const char *const rap_exts[] = {".rvmat", ".bin", ".bisurf", ".sqm", ".fsm", NULL};

/* IN written as raP or as text (the raP rewrite byte for byte). Text is
 * made of IN read as the config the routing took it for (by content, or by
 * its name when its content is none: its reader then says why); raP of IN
 * read by its content. */
static int to_layout(const char *in, const char *out, unsigned layout, ferry_format source)
{
    ferry_format as = layout == FERRY_LAYOUT_TEXT ? source : FERRY_FORMAT_UNKNOWN;
    ferry_asset *asset = cli_read_as(in, NULL, 0, as);
    if (!asset) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_error err;
    if (layout == FERRY_LAYOUT_RAP && ferry_asset_format(asset) == FERRY_FORMAT_RAP) {
        const ferry_write_options wo = {.protect_input = in};
        status = ferry_asset_save(asset, out, &wo, &err) == FERRY_OK ? CLI_OK : cli_output_error(out, &err);
    } else {
        ferry_buffer buf = {0};
        if (ferry_asset_write_layout(asset, layout, &buf, &err) != FERRY_OK)
            cli_print_error(in, &err);
        else
            status = cli_write_output(in, out, &buf);
        ferry_buffer_free(&buf);
    }
    ferry_asset_free(asset);
    return status;
}

int cli_config_convert(int argc, char **argv, ferry_format source)
{
    const char *files[2] = {NULL, NULL}, *in, *out;
    int status = cli_convert_args(argc, argv, NULL, "option '%s' does not apply to config conversions", NULL, files);
    if (status != CLI_OK) return status;
    in = files[0], out = files[1];
    if (has_any_ext(out, text_exts)) return to_layout(in, out, FERRY_LAYOUT_TEXT, source);
    if (!has_any_ext(out, rap_exts))
        return cli_usage_error("convert",
                               "cannot write '%s' from a config: outputs are raP (.rvmat, .bin, .bisurf, .sqm, .fsm) "
                               "or text (.cpp, .hpp, .h, .inc, .txt, .ext)",
                               out);
    return to_layout(in, out, FERRY_LAYOUT_RAP, source);
}
