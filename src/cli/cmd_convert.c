/* ferry convert: rewrite a file through its typed model. */
#include "cli.h"
#include "export.h"
#include "formats.h"

#include <stdlib.h>
#include <string.h>

/* The Alamo family's export: IN must be an Alamo file (or of no known
 * content, which the export names); other formats have families of their
 * own (cmd_convert's routes). */
static int alamo_export(const char *in, const char *out, const cli_convert_options *o)
{
    ferry_format f = o->source;
    if (f != FERRY_FORMAT_UNKNOWN && f != FERRY_FORMAT_ALO_MODEL && f != FERRY_FORMAT_ALO_PARTICLE &&
        f != FERRY_FORMAT_ALO_PARTICLE_UAW && f != FERRY_FORMAT_ALA) {
        fprintf(stderr, "%s: error: its format is %s, not an Alamo model, particle system or animation\n", CLI_TXT(in),
                ferry_format_name(f));
        return CLI_INVALID;
    }
    return cli_export_file(in, out, o);
}

/* ---- routing: (IN's format, OUT's) -> the family that converts ---- */

/* A route's input or output: any format. OUT's format is the one its name
 * suggests (ferry_format_from_name: the library's extensions). */
#define ANY FERRY_FORMAT_UNKNOWN

/* The first row that matches wins (none: the Alamo family). The families
 * parse their own options, so a usage error names what applies to that
 * conversion. */
static const struct convert_route {
    ferry_format source, out;
    cli_convert_fn *convert;
} routes[] = {
    {FERRY_FORMAT_ODOL, ANY, cli_odol_convert}, /* rewrite, export; other outputs refused */
    {FERRY_FORMAT_MLOD, ANY, cli_odol_convert},
    {FERRY_FORMAT_ALM, ANY, cli_alm_convert},   /* rewrite, export; other outputs refused */
    {FERRY_FORMAT_PAA, ANY, cli_paa_convert},   /* PNG of a mipmap, rewrite */
    {FERRY_FORMAT_RAP, ANY, cli_config_convert},         /* raP rewrite, derapify */
    {FERRY_FORMAT_CONFIG_TEXT, ANY, cli_config_convert}, /* rapify, text */
    {FERRY_FORMAT_GLB, FERRY_FORMAT_ALO_MODEL, cli_gltf_alo_convert}, /* glTF authored into a model */
    {FERRY_FORMAT_GLTF, FERRY_FORMAT_ALO_MODEL, cli_gltf_alo_convert},
    {FERRY_FORMAT_GLB, FERRY_FORMAT_ALA, cli_gltf_ala_convert}, /* a glTF animation as an ALA */
    {FERRY_FORMAT_GLTF, FERRY_FORMAT_ALA, cli_gltf_ala_convert},
    {ANY, FERRY_FORMAT_ALM, cli_alm_convert},   /* built from an ALO model or a glTF */
    {ANY, FERRY_FORMAT_ODOL, cli_odol_convert}, /* refused: ferry does not author P3D */
    {ANY, FERRY_FORMAT_PAA, cli_paa_convert},   /* PNG/TGA/DDS to a texture */
    {FERRY_FORMAT_ALO_MODEL, ANY, cli_alamo_convert}, /* rewrite, export */
    {FERRY_FORMAT_ALO_PARTICLE, ANY, cli_alamo_convert},
    {FERRY_FORMAT_ALO_PARTICLE_UAW, ANY, cli_alamo_convert},
    {FERRY_FORMAT_ALA, ANY, cli_alamo_convert},
};

/* `ferry convert IN OUT` for a format with no family of its own here (the
 * archives): no options, OUT named as the format's files are (its name
 * suggests the format), IN written back byte for byte. */
static int table_convert(int argc, char **argv, ferry_format source)
{
    const ferry_format_desc *d = ferry_format_describe(source);
    const char *files[2] = {NULL, NULL}, *noun = d->caps & FERRY_IS_ARCHIVE ? "archive" : "file";
    char unknown[128];
    snprintf(unknown, sizeof unknown, "option '%%s' does not apply to %s %ss", d->name, noun);
    int status = cli_convert_args(argc, argv, NULL, unknown, NULL, files);
    if (status != CLI_OK) return status;
    const char *in = files[0], *out = files[1];
    if (!(d->caps & FERRY_CAN_WRITE) || ferry_format_from_name(out) != source)
        return cli_usage_error("convert", "a %s %s converts to a %s only (a byte-identical rewrite), not '%s'", d->name,
                               noun, d->extensions[0], out);
    return cli_rewrite(in, out);
}

#define THIRD_FILE "expected IN and OUT, got a third file '%s'" /* the usage error of one more file */

int cli_convert_args(int argc, char **argv, const cli_option *options, const char *unknown, const char *missing,
                     const char **files)
{
    size_t count;
    int status = cli_parse(&(cli_args){"convert", options, NULL, unknown, files, 2, THIRD_FILE}, argc, argv, &count);
    if (status == CLI_OK && (!files[0] || !files[1]))
        status = cli_usage_error("convert", "%s", missing ? missing : "expected IN and OUT");
    return status;
}

/* The values that follow options (of every family), skipped when looking
 * for IN and OUT. */
static bool takes_value(const char *arg)
{
    static const char *const with_value[] = {"--anim", "--textures", "--jobs", "--ala-format", "--animation", "--model", "--fps",
                                             "--lod", "--triangles", "--error", "--mip", "--textures-out"};
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++)
        if (strcmp(arg, with_value[i]) == 0) return true;
    return false;
}

int cmd_convert(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    size_t file_count = 0;
    bool batch_or_help = false;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i]) || strcmp(argv[i], "-r") == 0) batch_or_help = true;
        if (takes_value(argv[i])) {
            i++;
        } else if (argv[i][0] != '-' || !argv[i][1]) {
            if (file_count < 2) files[file_count] = argv[i];
            file_count++;
        }
    }
    if (batch_or_help || !file_count) return cli_alamo_convert(argc, argv, FERRY_FORMAT_UNKNOWN);
    /* With one file or three, the family of the first says what is wrong;
     * by its name when it cannot be read or its content is unknown, so that
     * the family that reports the failure is the one the user meant. */
    ferry_format source = ferry_format_of_file(files[0], NULL);
    ferry_format out = ferry_format_from_name(files[1]);
    /* FBX, OBJ, Collada (through Assimp): known by extension only, so only
     * when the content is no format ferry reads (an ALO named .obj is an ALO). */
    bool assimp = source == FERRY_FORMAT_UNKNOWN && cli_assimp_hint(files[0]);
    if (assimp && out == FERRY_FORMAT_ALO_MODEL) return cli_gltf_alo_convert(argc, argv, source);
    if (assimp && (out == FERRY_FORMAT_GLB || out == FERRY_FORMAT_GLTF))
        return cli_assimp_gltf_convert(argc, argv, source);
    if (assimp && files[1])
        return cli_usage_error("convert", "cannot write '%s' from '%s' (read through Assimp): supported outputs: .alo, .glb, .gltf",
                               files[1], files[0]);
    bool routed = false;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) routed |= routes[i].source == source;
    /* A format of the library's table that no family here names (the
     * archives): written back as itself. */
    if (!routed && source != FERRY_FORMAT_UNKNOWN) return table_convert(argc, argv, source);
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const struct convert_route *r = &routes[i];
        if ((r->source == ANY || r->source == source) && (r->out == ANY || r->out == out))
            return r->convert(argc, argv, source);
    }
    return cli_alamo_convert(argc, argv, source); /* any other: Alamo rewrite (.alo, .ala), export */
}

/* Rewrites IN through its typed model as OUT (.alo or .ala: alamo_rewrite
 * refused other outputs). */
static int rewrite(const char *in, const char *out, int ala_format)
{
    bool to_ala = cli_has_ext(out, ".ala"); /* else .alo: alamo_rewrite checked */
    cli_asset asset;
    ferry_error err;
    if (!cli_asset_load(in, &asset, NULL)) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_buffer buf = {0};
    if ((asset.animation != NULL) != to_ala) {
        fprintf(stderr, "ferry convert: %s holds an %s, which cannot be written as %s\n", in,
                ferry_alamo_kind_name(asset.kind), out);
        status = CLI_USAGE;
    } else if (ala_format && !asset.animation) {
        status = cli_usage_error("convert", "--ala-format applies to animations only");
    } else if (ferry_asset_write_layout(asset.handle, (unsigned)ala_format, &buf, &err) != FERRY_OK) {
        cli_print_error(in, &err);
    } else {
        status = cli_write_output(in, out, &buf);
    }
    ferry_buffer_free(&buf);
    cli_asset_free(&asset);
    return status;
}

/* The Alamo family's rewrite: IN of its own (or of no known) format. */
static int alamo_rewrite(const char *in, const char *out, ferry_format source, int ala_format)
{
    if (!cli_has_ext(out, ".alo") && !cli_has_ext(out, ".ala")) {
        /* What IN can become, by its detected format (routes above and the families' builds). */
        const char *from, *outputs;
        switch (source) {
        case FERRY_FORMAT_ALO_MODEL: from = " from an ALO model"; outputs = ".glb, .gltf, .alo, .alm"; break;
        case FERRY_FORMAT_ALO_PARTICLE: from = " from a particle system"; outputs = ".glb, .gltf, .alo"; break;
        case FERRY_FORMAT_ALA:
            from = " from an animation";
            outputs = ".ala (--ala-format 1|2; to glTF, give its model and --anim)";
            break;
        case FERRY_FORMAT_GLB:
        case FERRY_FORMAT_GLTF: from = " from a glTF file"; outputs = ".alo, .alm"; break;
        default:
            /* IN is unreadable or of no known content. For an output ferry
             * writes from another input (a texture's .png, an archive's
             * rewrite), IN is what is wrong: said as for .glb or .alo (exit 1). */
            if (cli_has_ext(out, ".png") || cli_has_ext(out, ".paa") || cli_has_ext(out, ".pac") ||
                cli_has_ext(out, ".meg") || cli_has_ext(out, ".pbo")) {
                ferry_asset *probe = NULL;
                ferry_error err;
                ferry_asset_options po = {.bytes_only = true, .need = FERRY_CAN_READ};
                bool loaded = ferry_asset_open(in, &po, &probe, &err) == FERRY_OK;
                ferry_asset_free(probe);
                if (!loaded) {
                    cli_print_error(in, &err);
                    return CLI_INVALID;
                }
            }
            from = "";
            outputs = ".glb, .gltf, .alo, .ala, .alm, .p3d, .png, .paa, .pac, .meg, .pbo (which apply depends on the "
                      "input: ferry convert --help)";
        }
        return cli_usage_error("convert", "cannot write '%s'%s: supported outputs: %s", out, from, outputs);
    }
    return rewrite(in, out, ala_format);
}

/* --anim FILE (appended) or --anim auto. */
typedef struct anim_args {
    cli_list files;
    bool automatic;
} anim_args;

static int take_anim(const char *cmd, const char *name, const char *value, void *to)
{
    anim_args *a = to;
    if (strcmp(value, "auto") != 0) return cli_take_item(cmd, name, value, &a->files);
    a->automatic = true;
    return CLI_OK;
}

static int take_jobs(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    char *end;
    long n = strtol(value, &end, 10);
    if (*end || n < 1 || n > 256) return CLI_REFUSED;
    *(int *)to = (int)n;
    return CLI_OK;
}

/* Another family's option (its value not looked at). */
static int take_foreign(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name, (void)value, (void)to;
    return CLI_REFUSED;
}

#define FOREIGN "option '%s' does not apply to Alamo conversions (it is for .p3d, .alm or .paa inputs: ferry convert --help)"

/* The Alamo family's conversions (and -r, and --help for every family),
 * into `anims`, `textures` and `eo`, which the caller frees. */
static int alamo_convert(int argc, char **argv, ferry_format source, anim_args *anims, cli_list *textures,
                         cli_convert_options *eo)
{
    const char *files[2] = {NULL, NULL};
    int ala_format = 0, jobs = 0;
    bool recursive = false, json = false, game_view = false, quiet = false;
    eo->source = source;
    const cli_option options[] = {
        CLI_FLAG("-r", &recursive), CLI_FLAG("--json", &json), CLI_FLAG("--quiet", &quiet),
        CLI_FLAG("--no-textures", &eo->skip_textures), CLI_FLAG("--allow-invalid", &eo->allow_invalid),
        CLI_FLAG("--force", &eo->force),
        CLI_FLAG("--game-view", &game_view), /* the default now; kept so that older command lines work */
        CLI_FLAG("--all", &eo->all), CLI_VALUE("--anim", anims, take_anim, "%s needs a value"),
        CLI_VALUE("--textures", textures, cli_take_texture_place, "%s needs a value"),
        {"--jobs", &jobs, take_jobs, "%s needs a value", "--jobs takes a number from 1 to 256"},
        CLI_VALUE("--ala-format", &ala_format, cli_take_ala_format, "--ala-format takes 1 or 2"),
        CLI_VALUE("--animation", NULL, take_foreign, FOREIGN), CLI_VALUE("--model", NULL, take_foreign, FOREIGN),
        CLI_VALUE("--fps", NULL, take_foreign, FOREIGN), CLI_VALUE("--lod", NULL, take_foreign, FOREIGN),
        CLI_VALUE("--triangles", NULL, take_foreign, FOREIGN), CLI_VALUE("--error", NULL, take_foreign, FOREIGN),
        CLI_VALUE("--mip", NULL, take_foreign, FOREIGN), CLI_VALUE("--textures-out", NULL, take_foreign, FOREIGN), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"convert", options, cli_help_convert, NULL, files, 2, THIRD_FILE}, argc, argv, &count);
    const char *in = files[0], *out = files[1];
    bool gltf_options = eo->skip_textures || eo->force || game_view || eo->all || anims->files.count ||
                        anims->automatic || textures->count || jobs;
    eo->auto_animations = anims->automatic;
    eo->animation_count = anims->files.count;
    if (status != CLI_OK) return CLI_STATUS(status);
    if (!in || !out)
        return cli_usage_error("convert", recursive ? "expected DIR and OUTDIR" : "expected IN and OUT files");
    if (game_view && eo->all) return cli_usage_error("convert", "--all and --game-view contradict each other");
    /* --textures: each a folder or an archive, opened once as a file source
     * (cached: every folder listed once, for the whole batch). */
    status = cli_open_places(textures->items, eo->skip_textures ? 0 : textures->count, eo);
    if (status != CLI_OK) return status;
    eo->animations = anims->files.items;
    if (recursive && ala_format) return cli_usage_error("convert", "--ala-format does not apply to -r");
    if (recursive) {
        eo->auto_animations = true;
        return export_batch(in, out, eo, quiet, jobs, json);
    }
    if (json || quiet || jobs) return cli_usage_error("convert", "--json, --quiet and --jobs apply to -r only");
    bool gltf = cli_has_ext(out, ".glb") || cli_has_ext(out, ".gltf");
    if (gltf && ala_format) return cli_usage_error("convert", "--ala-format applies to .ala outputs");
    if (gltf) return alamo_export(in, out, eo);
    if (gltf_options)
        return cli_usage_error("convert", "--anim, --force, --textures, --no-textures, --all and --game-view apply to "
                                          ".glb/.gltf outputs");
    return alamo_rewrite(in, out, source, ala_format);
}

int cli_alamo_convert(int argc, char **argv, ferry_format source)
{
    /* Room for every argument. */
    anim_args anims = {{calloc((size_t)argc, sizeof(const char *)), 0}, false};
    cli_list textures = {calloc((size_t)argc, sizeof(const char *)), 0};
    cli_convert_options eo = {0};
    int status = alamo_convert(argc, argv, source, &anims, &textures, &eo);
    free((void *)anims.files.items);
    free((void *)textures.items);
    cli_close_places(&eo);
    return status;
}
