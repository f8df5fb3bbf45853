/* ferry info/dump/validate/convert for ALM files (ALOD progressive meshes). */
#include "export.h"
#include "formats.h"

#include <ferry/alm.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Text dumps show this many entries of a long array, then a count. */
#define TEXT_ITEMS 8

/* The reals the library gives (a number, or "nan", "inf", ...) as %g, and its integers. */
static double num_at(const json_t *array, size_t i) { return cli_jnum(json_array_get(array, i)); }
static long long int_at(const json_t *array, size_t i)
{
    return (long long)json_integer_value(json_array_get(array, i));
}

/* A vector [[bone, x, y, z, w], ...] as "bone B (x, y, z, w), ...". */
static void print_vector(const json_t *v)
{
    if (!json_array_size(v)) {
        printf("(none)");
        return;
    }
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *c = json_array_get(v, i);
        printf("%sbone %lld (%g, %g, %g, %g)", i ? ", " : "", int_at(c, 0), num_at(c, 1), num_at(c, 2), num_at(c, 3),
               num_at(c, 4));
    }
}

static void print_matrix(const char *indent, const json_t *m)
{
    for (size_t r = 0; r < 4; r++)
        printf("%s[%g %g %g %g]\n", indent, num_at(m, 4 * r), num_at(m, 4 * r + 1), num_at(m, 4 * r + 2),
               num_at(m, 4 * r + 3));
}

/* Prints "... N more" after TEXT_ITEMS entries; returns false to stop. */
static bool text_more(uint64_t i, uint64_t count, const char *what)
{
    if (i < TEXT_ITEMS) return true;
    printf("  ... %llu more %s (ferry dump --json lists them all)\n", (unsigned long long)(count - i), what);
    return false;
}

/* The array object[key], after the line "TITLE: N" giving its size (*n). */
static const json_t *section(const json_t *object, const char *key, const char *title, size_t *n)
{
    const json_t *a = json_object_get(object, key);
    *n = json_array_size(a);
    printf("%s: %zu\n", title, *n);
    return a;
}

/* The bytes after the last frame: the full dump's "trailing" (hex). */
static size_t trailing_bytes(const json_t *full) { return cli_jlen(full, "trailing") / 2; }

/* ---- info ---- */

int cli_alm_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    /* The bytes after the last frame are told by the full document. */
    json_t *full = cli_asset_json(file, asset, FERRY_INFO_FULL, CLI_JSON_TEXT);
    if (!full) return CLI_INVALID;
    long long version = cli_jint(j, "version"), roots = cli_jint(j, "root_bones"), collapses = cli_jint(j, "collapses");
    printf("%s: ALM version %lld, %lld bytes\n", CLI_TXT(file), version, cli_jint(j, "size"));
    const json_t *comments = json_object_get(j, "comments");
    for (size_t i = 0; i < json_array_size(comments); i++) {
        const json_t *c = json_array_get(comments, i);
        fputs("  comment: ", stdout);
        cli_fput_textn(stdout, json_string_value(c), json_string_length(c));
        fputc('\n', stdout);
    }
    printf("  bones: %lld (%lld root%s)", cli_jint(j, "bones"), roots, roots == 1 ? "" : "s");
    if (version >= 4) printf(", frames: %lld", cli_jint(j, "frames"));
    if (version >= 6) printf(" at %g per second", cli_jreal(j, "frame_rate"));
    printf("\n");
    if (version >= 6) printf("  P matrix: %s\n", cli_jbool(j, "override_p") ? "given in the file" : "not given");
    printf("  positions: %lld, vertices: %lld, triangles: %lld\n", cli_jint(j, "positions"), cli_jint(j, "vertices"),
           cli_jint(j, "triangles"));
    printf("  materials: %lld, textures: %lld", cli_jint(j, "materials"), cli_jint(j, "textures"));
    if (version >= 8) printf(", tangent maps: %lld", cli_jint(j, "tangent_maps"));
    printf("\n  collapses: %lld (%lld edge, %lld influence)\n", collapses, cli_jint(j, "edge_collapses"),
           cli_jint(j, "influence_collapses"));
    const json_t *lods = json_object_get(j, "lods");
    if (json_array_size(lods)) { /* none when the triangle counts could not be had */
        printf("  levels of detail:\n");
        for (size_t i = 0; i < json_array_size(lods); i++) {
            const json_t *l = json_array_get(lods, i);
            printf("    --lod %-8lld %8lld triangles, error %g\n", cli_jint(l, "collapses"), cli_jint(l, "triangles"),
                   cli_jreal(l, "error"));
        }
    }
    if (trailing_bytes(full)) printf("  %zu bytes after the last frame\n", trailing_bytes(full));
    json_decref(full);
    return CLI_OK;
}

/* ---- dump ---- */

static void dump_text(const char *file, const json_t *j, long long frame_count)
{
    long long version = cli_jint(j, "version");
    printf("%s: ALM version %lld, %lld bytes, %lld-byte floats\n", CLI_TXT(file), version, cli_jint(j, "size"),
           cli_jint(j, "float_size"));
    if (version >= 6) printf("frame rate %g, override_P %lld\n", cli_jreal(j, "frame_rate"), cli_jint(j, "override_p"));
    size_t n;
    const json_t *a = section(j, "comments", "comments", &n);
    for (size_t i = 0; i < n && text_more(i, n, "comments"); i++) {
        const json_t *c = json_array_get(a, i);
        printf("  [%zu] \"", i);
        cli_fput_textn(stdout, json_string_value(c), json_string_length(c));
        printf("\"\n");
    }
    a = section(j, "bones", "bones", &n);
    size_t bone_count = n;
    for (size_t i = 0; i < n && text_more(i, n, "bones"); i++) {
        const json_t *b = json_array_get(a, i);
        printf("  [%zu] parent %lld", i, cli_jint(b, "parent"));
        if (version >= 6) {
            const json_t *centre = json_object_get(b, "translate_centre");
            printf(", flags 0x%llx, max singular %g, sphere (%g, %g, %g) r %g, expect_LTGTGL %g",
                   (unsigned long long)cli_jint(b, "flags"), cli_jreal(b, "max_singular"), num_at(centre, 0),
                   num_at(centre, 1), num_at(centre, 2), cli_jreal(b, "translate_radius"), cli_jreal(b, "expect_LTGTGL"));
        }
        if (version >= 10) {
            const json_t *tail = json_object_get(b, "tail");
            printf(", tail (%g, %g, %g)", num_at(tail, 0), num_at(tail, 1), num_at(tail, 2));
        }
        printf("\n");
        print_matrix("      ", json_object_get(b, "transform"));
    }
    if (json_object_get(j, "P")) printf("P: %zux%zu given\n", 4 * bone_count, 4 * bone_count);
    a = section(j, "positions", "positions", &n);
    for (size_t i = 0; i < n && text_more(i, n, "positions"); i++) {
        printf("  [%zu] ", i);
        print_vector(json_array_get(a, i));
        printf("\n");
    }
    a = section(j, "vertices", "vertices", &n);
    for (size_t i = 0; i < n && text_more(i, n, "vertices"); i++) {
        const json_t *v = json_array_get(a, i), *st = json_object_get(v, "tex_coords");
        printf("  [%zu] position %lld, st (%g, %g)", i, cli_jint(v, "position"), num_at(st, 0), num_at(st, 1));
        if (version >= 7) {
            const json_t *t = json_object_get(v, "tangents");
            printf(", tangents: ");
            print_vector(json_array_get(t, 0));
            printf(" / ");
            print_vector(json_array_get(t, 1));
        }
        printf("\n");
    }
    a = section(j, "textures", "textures", &n);
    for (size_t i = 0; i < n && text_more(i, n, "textures"); i++) {
        const json_t *t = json_array_get(a, i);
        printf("  [%zu] %lldx%lld, %lld channels, %s\n", i, cli_jint(t, "width"), cli_jint(t, "height"),
               cli_jint(t, "channels"), cli_jint(t, "signed") ? "signed (vectors)" : "unsigned (colours)");
    }
    if (version >= 8) {
        a = section(j, "tangent_maps", "tangent maps", &n);
        for (size_t i = 0; i < n && text_more(i, n, "tangent maps"); i++)
            printf("  [%zu] %lldx%lld\n", i, cli_jint(json_array_get(a, i), "width"),
                   cli_jint(json_array_get(a, i), "height"));
    }
    a = section(j, "materials", "materials", &n);
    for (size_t i = 0; i < n && text_more(i, n, "materials"); i++) {
        const json_t *mat = json_array_get(a, i);
        printf("  [%zu] texture %lld", i, cli_jint(mat, "texture_id"));
        if (version >= 8) {
            printf(", tangent map %lld\n", cli_jint(mat, "tangent_id"));
        } else {
            const json_t *bones = json_object_get(mat, "bones"), *ids = json_object_get(mat, "tangent_ids");
            printf(", %zu tangent textures:", json_array_size(bones));
            for (size_t k = 0; k < json_array_size(bones); k++)
                printf(" bone %lld -> texture %lld", int_at(bones, k), int_at(ids, k));
            printf("\n");
        }
    }
    a = section(j, "triangles", "triangles", &n);
    for (size_t i = 0; i < n && text_more(i, n, "triangles"); i++) {
        const json_t *t = json_array_get(a, i);
        printf("  [%zu] %lld %lld %lld, material %lld\n", i, int_at(t, 0), int_at(t, 1), int_at(t, 2), int_at(t, 3));
    }
    a = section(j, "collapses", "collapses", &n);
    for (size_t i = 0; i < n && text_more(i, n, "collapses"); i++) {
        const json_t *c = json_array_get(a, i);
        if (strcmp(cli_jstr(c, "kind"), "influence") == 0) {
            const json_t *pairs = json_object_get(c, "pairs");
            size_t pair_count = json_array_size(pairs);
            printf("  [%zu] influence, %zu pairs:", i, pair_count);
            for (size_t k = 0; k < pair_count && k < TEXT_ITEMS; k++) {
                const json_t *pk = json_array_get(pairs, k);
                printf(" %lld->%lld", int_at(pk, 0), int_at(pk, 1));
            }
            printf("%s, error %g\n", pair_count > TEXT_ITEMS ? " ..." : "", cli_jreal(c, "error"));
        } else {
            printf("  [%zu] edge p1 %lld p2 %lld -> vl %lld vr %lld, error %g\n", i, cli_jint(c, "p1"), cli_jint(c, "p2"),
                   cli_jint(c, "vl"), cli_jint(c, "vr"), cli_jreal(c, "error"));
        }
    }
    if (version >= 4) {
        /* The frames' count is the file's (the dump lists none without bones). */
        a = json_object_get(j, "frames");
        printf("frames: %lld\n", frame_count);
        for (size_t f = 0; f < json_array_size(a) && text_more(f, (uint64_t)frame_count, "frames"); f++) {
            const json_t *frame = json_array_get(a, f);
            printf("  [%zu]\n", f);
            for (size_t b = 0; b < bone_count && b < 2; b++) {
                printf("    bone %zu\n", b);
                print_matrix("      ", json_array_get(frame, b));
            }
            if (bone_count > 2) printf("    ... %zu more bones\n", bone_count - 2);
        }
    }
    if (trailing_bytes(j)) printf("trailing bytes: %zu\n", trailing_bytes(j));
}

int cli_alm_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    /* The file's frame count is the summary's (the dump lists no frame
     * of a mesh without bones). */
    json_t *summary = cli_asset_json(file, asset, FERRY_INFO_SUMMARY, CLI_JSON_TEXT);
    if (!summary) return CLI_INVALID;
    dump_text(file, j, cli_jint(summary, "frames"));
    json_decref(summary);
    return CLI_OK;
}

/* ---- convert ---- */

/* --lod, --triangles, --error: the level of detail, counted (one may be given). */
typedef struct lod_choice {
    ferry_alm_lod_options lod;
    int chosen;
} lod_choice;

static int take_lod(const char *cmd, const char *a, const char *v, void *to)
{
    lod_choice *c = to;
    char *end;
    if (a[2] == 'e') {
        double e = strtod(v, &end);
        if (*end || end == v || !(e >= 0) || isinf(e))
            return cli_usage_error(cmd, "--error takes a number of 0 or more, not '%s'", v);
        c->lod.max_error = e;
    } else {
        long long n = strtoll(v, &end, 10);
        bool triangles = a[2] == 't';
        if (*end || end == v || n < (triangles ? 1 : 0) || n > UINT32_MAX)
            return cli_usage_error(cmd, "%s takes a whole number of %s, not '%s'", a, triangles ? "1 or more" : "0 or more", v);
        if (triangles)
            c->lod.max_triangles = (uint32_t)n;
        else
            c->lod.collapses = n;
    }
    c->chosen++;
    return CLI_OK;
}

static int take_anim(const char *cmd, const char *name, const char *value, void *to)
{
    if (*(const char **)to) return cli_usage_error(cmd, "an ALM file holds one animation: give --anim once");
    return cli_take_text(cmd, name, value, to);
}

int cli_alm_convert(int argc, char **argv, ferry_format source)
{
    const char *files[2] = {NULL, NULL}, *anim = NULL;
    lod_choice choice = {{-1, 0, -1.0}, 0};
    bool allow_invalid = false;
    const cli_option options[] = {CLI_FLAG("--allow-invalid", &allow_invalid),
                                  CLI_VALUE("--anim", &anim, take_anim, "--anim needs an .ala file or 'auto'"),
                                  CLI_VALUE("--lod", &choice, take_lod, "%s needs a value"),
                                  CLI_VALUE("--triangles", &choice, take_lod, "%s needs a value"),
                                  CLI_VALUE("--error", &choice, take_lod, "%s needs a value"), {0}};
    int status = cli_convert_args(argc, argv, options, "option '%s' does not apply to ALM conversions", NULL, files);
    if (status != CLI_OK) return status;
    const char *in = files[0], *out = files[1];
    int chosen = choice.chosen;
    if (chosen > 1) return cli_usage_error("convert", "choose one of --lod, --triangles and --error");
    /* The input by content (cmd_convert.c's route), the output by its name. */
    bool in_alm = source == FERRY_FORMAT_ALM;
    bool in_alo = source == FERRY_FORMAT_ALO_MODEL || source == FERRY_FORMAT_ALO_PARTICLE ||
                  source == FERRY_FORMAT_ALO_PARTICLE_UAW;
    bool in_gltf = source == FERRY_FORMAT_GLB || source == FERRY_FORMAT_GLTF;
    cli_convert_options o = {0};
    o.source = source;
    o.allow_invalid = allow_invalid;
    o.alm_lod = chosen ? &choice.lod : NULL;
    o.anim = anim;
    if (anim && !(in_alo && cli_has_ext(out, ".alm")))
        return cli_usage_error("convert", "--anim applies to building an .alm from an .alo model");
    if (in_alm && cli_has_ext(out, ".alm")) {
        if (chosen) return cli_usage_error("convert", "--lod, --triangles and --error apply to .glb/.gltf outputs");
        return cli_rewrite(in, out);
    }
    if (in_alm && (cli_has_ext(out, ".glb") || cli_has_ext(out, ".gltf"))) return cli_export_file(in, out, &o);
    if (cli_has_ext(out, ".alm") && (in_alo || in_gltf)) {
        if (chosen) return cli_usage_error("convert", "--lod, --triangles and --error apply to reading ALM files");
        return cli_alm_build(in, out, &o);
    }
    if (in_alm)
        return cli_usage_error("convert", "cannot write '%s' from an ALM file: supported outputs are .alm, .glb, .gltf", out);
    return cli_usage_error("convert", "cannot make an ALM file from '%s': supported inputs are .alo, .glb, .gltf", in);
}
