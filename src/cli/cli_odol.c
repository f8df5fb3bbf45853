/* ferry info/dump/validate/convert for ODOL (binarized P3D) files. */
#include "export.h"
#include "formats.h"

#include <ferry/odol.h>

#include <stdlib.h>
#include <string.h>

int cli_odol_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    const json_t *lods = json_object_get(j, "lods"), *lo = json_object_get(j, "bbox_min"),
                 *hi = json_object_get(j, "bbox_max");
    size_t lod_count = json_array_size(lods);
    printf("%s: ODOL version %lld (binarized P3D), %lld bytes, %zu LOD%s\n", CLI_TXT(file), cli_jint(j, "version"),
           cli_jint(j, "size"), lod_count, lod_count == 1 ? "" : "s");
    printf("  class \"%s\", damage \"%s\", mass %g\n", CLI_TXT(cli_jstr(j, "class")), CLI_TXT(cli_jstr(j, "damage")),
           cli_jreal(j, "mass"));
    printf("  bounds (%g %g %g) to (%g %g %g)\n", cli_jnum(json_array_get(lo, 0)), cli_jnum(json_array_get(lo, 1)),
           cli_jnum(json_array_get(lo, 2)), cli_jnum(json_array_get(hi, 0)), cli_jnum(json_array_get(hi, 1)),
           cli_jnum(json_array_get(hi, 2)));
    const char *skeleton = cli_jstr(j, "skeleton");
    if (skeleton && skeleton[0]) printf("  skeleton \"%s\", %lld bones\n", CLI_TXT(skeleton), cli_jint(j, "bones"));
    if (cli_jbool(j, "animations_present")) printf("  %lld animation classes\n", cli_jint(j, "animation_classes"));
    printf("  %-5s %-28s %8s %8s %6s %6s %5s %5s %5s\n", "lod", "resolution", "vertices", "faces", "quads", "sect", "sel",
           "proxy", "tex");
    for (size_t i = 0; i < lod_count; i++) {
        const json_t *l = json_array_get(lods, i);
        printf("  %-5zu %-28s %8lld %8lld %6lld %6lld %5lld %5lld %5lld\n", i, cli_jstr(l, "name"),
               cli_jint(l, "vertices"), cli_jint(l, "faces"), cli_jint(l, "quads"), cli_jint(l, "sections"),
               cli_jint(l, "selections"), cli_jint(l, "proxies"), cli_jint(l, "textures"));
    }
    return CLI_OK;
}

/* Text rendering of the dump: the same document, indented, long lists cut. */
static void print_value(const char *key, json_t *v, int depth)
{
    printf("%*s", 2 * depth, "");
    if (key) printf("%s: ", key);
    if (json_is_object(v)) {
        printf("\n");
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) print_value(k, x, depth + 1);
        return;
    }
    if (json_is_array(v)) {
        size_t n = json_array_size(v);
        bool scalars = true;
        for (size_t i = 0; i < n && scalars; i++) scalars = !json_is_object(json_array_get(v, i));
        if (scalars) {
            char *text = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(7));
            size_t len = text ? strlen(text) : 0;
            if (len > 110) printf("%.100s... (%zu items)\n", text, n);
            else printf("%s\n", text ? text : "");
            free(text);
            return;
        }
        printf("%zu items\n", n);
        for (size_t i = 0; i < n; i++) {
            char label[32];
            snprintf(label, sizeof label, "[%zu]", i);
            print_value(label, json_array_get(v, i), depth + 1);
        }
        return;
    }
    char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(7));
    printf("%s\n", text ? text : "");
    free(text);
}

/* The dump as text: the library's document (reals exact, printed to 7
 * digits), indented, long lists cut. */
int cli_odol_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)file;
    (void)asset;
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)j, k, x) print_value(k, x, 0);
    return CLI_OK;
}

/* --lod N: a LOD index, appended to the list. */
typedef struct lod_list {
    uint32_t *items;
    size_t count;
} lod_list;

static int take_lod(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    lod_list *l = to;
    char *end;
    long v = strtol(value, &end, 10);
    if (*end || v < 0 || v > 65535) return CLI_REFUSED;
    l->items[l->count++] = (uint32_t)v;
    return CLI_OK;
}

/* The ODOL family's conversions, into `lods`, `roots` and `o` (its source
 * set), which the caller frees. */
static int odol_convert(int argc, char **argv, lod_list *lods, cli_list *roots, cli_convert_options *o)
{
    const char *files[2] = {NULL, NULL};
    bool game_view = false;
    const cli_option options[] = {
        CLI_FLAG("--all", &o->all), CLI_FLAG("--game-view", &game_view),
        CLI_VALUE("--lod", lods, take_lod, "--lod takes a LOD index (see ferry info)"),
        CLI_VALUE("--textures", roots, cli_take_texture_place, "--textures needs a folder or an archive"),
        CLI_FLAG("--allow-invalid", &o->allow_invalid), CLI_FLAG("--no-animations", &o->no_animations), {0}};
    int status = cli_convert_args(argc, argv, options, "option '%s' does not apply to P3D files",
                                  "expected IN.p3d and OUT", files);
    const char *in = files[0], *out = files[1];
    if (status != CLI_OK) return status;
    if (o->source != FERRY_FORMAT_ODOL && o->source != FERRY_FORMAT_MLOD)
        return cli_usage_error("convert", "cannot make a P3D file from '%s'; ferry reads P3D files, it does not author "
                                          "them yet", in);
    if ((o->all && game_view) || (lods->count && (o->all || game_view)))
        return cli_usage_error("convert", "choose one of --game-view (the default), --all and --lod");
    /* The game's view is the default: what players see first. */
    o->lods = lods->count ? lods->items : NULL;
    o->lod_count = lods->count;
    bool gltf = cli_has_ext(out, ".glb") || cli_has_ext(out, ".gltf");
    /* Each --textures place (a folder, an archive) as a file source:
     * a root of addon folders (docs/formats/odol-gltf.md, "Textures"). */
    if (gltf && roots->count && (status = cli_open_places(roots->items, roots->count, o)) != CLI_OK) return status;
    if (gltf) return cli_export_file(in, out, o);
    if (!cli_has_ext(out, ".p3d"))
        return cli_usage_error("convert", "cannot write '%s' from a P3D file: supported outputs are .p3d, .glb, .gltf",
                               out);
    if (lods->count || o->all || game_view || roots->count || o->no_animations)
        return cli_usage_error("convert",
                               "--lod, --all, --game-view, --textures and --no-animations apply to .glb/.gltf outputs");
    return cli_rewrite(in, out);
}

int cli_odol_convert(int argc, char **argv, ferry_format source)
{
    /* Room for every argument. */
    lod_list lods = {calloc((size_t)argc, sizeof(uint32_t)), 0};
    cli_list roots = {calloc((size_t)argc, sizeof(const char *)), 0};
    cli_convert_options o = {0};
    o.source = source;
    int status = odol_convert(argc, argv, &lods, &roots, &o);
    free(lods.items);
    free((void *)roots.items);
    cli_close_places(&o);
    return status;
}
