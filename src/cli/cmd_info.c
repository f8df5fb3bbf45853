/* ferry info: a one-screen summary of each file. */
#include "cli.h"
#include "formats.h"

#include <string.h>

/* "  label      a, b, c" (or " (none)"): a list of names. */
static void print_list(const char *label, const json_t *list)
{
    printf("  %-10s", label);
    if (!json_array_size(list)) printf(" (none)");
    for (size_t i = 0; i < json_array_size(list); i++)
        printf("%s%s", i ? ", " : " ", CLI_TXT(json_string_value(json_array_get(list, i))));
    printf("\n");
}

static void model_text(const char *file, const json_t *j)
{
    printf("%s: ALO model, %lld bytes\n", CLI_TXT(file), cli_jint(j, "size"));
    printf("  bones      %lld\n", cli_jint(j, "bones"));
    printf("  meshes     %lld (%lld sub-meshes, %lld skinned, %lld with collision trees)\n", cli_jint(j, "meshes"),
           cli_jint(j, "submeshes"), cli_jint(j, "skinned_submeshes"), cli_jint(j, "collision_trees"));
    printf("  geometry   %lld vertices, %lld triangles\n", cli_jint(j, "vertices"), cli_jint(j, "triangles"));
    printf("  lights     %lld\n", cli_jint(j, "lights"));
    printf("  proxies    %lld, dazzles %lld\n", cli_jint(j, "proxies"), cli_jint(j, "dazzles"));
    const json_t *lo = json_object_get(j, "bounds_min"), *hi = json_object_get(j, "bounds_max");
    if (lo && hi)
        printf("  bounds     (%.3f, %.3f, %.3f) .. (%.3f, %.3f, %.3f)\n", cli_jnum(json_array_get(lo, 0)),
               cli_jnum(json_array_get(lo, 1)), cli_jnum(json_array_get(lo, 2)), cli_jnum(json_array_get(hi, 0)),
               cli_jnum(json_array_get(hi, 1)), cli_jnum(json_array_get(hi, 2)));
    print_list("shaders", json_object_get(j, "shaders"));
    print_list("textures", json_object_get(j, "textures"));
    print_list("proxy list", json_object_get(j, "proxy_names"));
}

static void animation_text(const char *file, const json_t *j)
{
    const json_t *bones = json_object_get(j, "bone_list");
    printf("%s: ALA animation (format %lld), %lld bytes\n", CLI_TXT(file), cli_jint(j, "ala_format"), cli_jint(j, "size"));
    printf("  frames     %lld at %g fps (%.3f s)\n", cli_jint(j, "frames"), cli_jreal(j, "fps"), cli_jreal(j, "duration"));
    printf("  bones      %lld, %lld animated\n", cli_jint(j, "bones"), cli_jint(j, "animated_bones"));
    for (size_t i = 0; i < json_array_size(bones); i++) {
        const json_t *b = json_array_get(bones, i);
        printf("  %4lld %-24s %s\n", cli_jint(b, "index"), CLI_TXT(cli_jstr(b, "name")), cli_jstr(b, "channels"));
    }
}

static void particle_text(const char *file, const json_t *j)
{
    const json_t *emitters = json_object_get(j, "emitters");
    size_t n = json_array_size(emitters);
    printf("%s: ALO particle system '%s', %lld bytes, %zu emitter%s%s\n", CLI_TXT(file), CLI_TXT(cli_jstr(j, "name")),
           cli_jint(j, "size"), n, n == 1 ? "" : "s", cli_jbool(j, "persistent") ? ", persistent" : "");
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(emitters, i);
        const char *color = cli_jstr(e, "color_texture"), *secondary = cli_jstr(e, "secondary_texture");
        printf("  emitter %zu %-20s blend %lld, lifetime %gs, %s, texture %s%s%s\n", i, CLI_TXT(cli_jstr(e, "name")),
               cli_jint(e, "blend_mode"), cli_jreal(e, "lifetime"), cli_jbool(e, "in_bursts") ? "bursts" : "stream",
               color ? color : "(none)", secondary ? ", secondary " : "", secondary ? secondary : "");
    }
}

/* The Alamo family's printer (formats.c): models, animations, particle systems. */
int cli_alamo_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    switch (ferry_asset_format(asset)) {
    case FERRY_FORMAT_ALO_MODEL: model_text(file, j); break;
    case FERRY_FORMAT_ALA: animation_text(file, j); break;
    default: particle_text(file, j); break;
    }
    return CLI_OK;
}

int cmd_info(int argc, char **argv)
{
    bool json = false;
    const cli_option options[] = {CLI_FLAG("--json", &json), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"info", options, cli_help_info, NULL, NULL, 0, NULL}, argc, argv, &count);
    if (status == CLI_OK && !count) status = cli_usage_error("info", "no file given");
    if (status != CLI_OK) return CLI_STATUS(status);
    json_t *all = json ? json_array() : NULL;
    for (size_t i = 0; i < count; i++) {
        const char *file = argv[1 + i];
        /* Every input gets an entry: the failed ones with their located
         * error, in one shape for every format. */
        ferry_format read_as = FERRY_FORMAT_UNKNOWN;
        ferry_asset *asset = NULL;
        ferry_error err;
        ferry_asset_options o = {.name = file, .need = FERRY_CAN_INFO, .detected = &read_as};
        if (ferry_asset_open(file, &o, &asset, &err) != FERRY_OK) {
            status = CLI_INVALID;
            if (all)
                cli_json_append_failure(all, file, cli_format_name(read_as), &err);
            else
                cli_print_error(file, &err);
        } else if (all) {
            json_t *j = cli_asset_json(file, asset, FERRY_INFO_SUMMARY, CLI_JSON_OUTPUT);
            if (j)
                json_array_append_new(all, j);
            else
                status = CLI_INVALID;
        } else if (cli_print(file, asset, FERRY_INFO_SUMMARY, false) != CLI_OK) {
            status = CLI_INVALID;
        }
        ferry_asset_free(asset);
    }
    if (all) {
        cli_print_json(all);
        json_decref(all);
    }
    return status;
}
