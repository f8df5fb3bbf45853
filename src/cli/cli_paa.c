/* ferry's PAA/PAC commands: info, dump, validate, convert to PNG (one
 * mipmap), the byte-identical rewrite, and PNG/TGA/DDS to PAA. */
#include <ferry/author.h>
#include <ferry/paa.h>

#include "cli.h"
#include "formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_paa_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    const json_t *mips = json_object_get(j, "mipmaps"), *tags = json_object_get(j, "tags");
    size_t mip_count = json_array_size(mips), tag_count = json_array_size(tags);
    printf("%s: PAA texture, %s, %lld bytes\n", CLI_TXT(file), cli_jstr(j, "type"), cli_jint(j, "size"));
    if (mip_count) {
        const json_t *m = json_array_get(mips, 0);
        const char *c = cli_jstr(m, "compression");
        printf("  %lld x %lld, %zu mipmap%s (%s)\n", cli_jint(m, "width"), cli_jint(m, "height"), mip_count,
               mip_count == 1 ? "" : "s",
               strcmp(c, "LZO") == 0 ? "LZO-compressed" : strcmp(c, "LZSS") == 0 ? "LZSS-compressed" : "uncompressed");
    }
    if (cli_jstr(j, "average_argb")) printf("  average colour %s (ARGB)\n", cli_jstr(j, "average_argb"));
    if (cli_jstr(j, "maximum_argb")) printf("  maximum colour %s (ARGB)\n", cli_jstr(j, "maximum_argb"));
    if (json_object_get(j, "flags")) printf("  flags %lld\n", cli_jint(j, "flags"));
    printf("  %zu tag%s, palette of %lld colours\n", tag_count, tag_count == 1 ? "" : "s", cli_jint(j, "palette_colours"));
    return CLI_OK;
}

int cli_paa_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    const json_t *mips = json_object_get(j, "mipmaps"), *tags = json_object_get(j, "tags");
    printf("%s: PAA, type 0x%04llx (%s)\n", CLI_TXT(file), (unsigned long long)cli_jint(j, "type_value"),
           cli_jstr(j, "type"));
    for (size_t i = 0; i < json_array_size(tags); i++) {
        const json_t *t = json_array_get(tags, i);
        const char *hex = cli_jstr(t, "data");
        size_t size = (size_t)cli_jint(t, "size");
        printf("  tag %s at 0x%llx, %zu bytes:", CLI_TXT(cli_jstr(t, "name")), (unsigned long long)cli_jint(t, "offset"),
               size);
        for (size_t k = 0; k < size && k < 64 && hex; k++) printf(" %.2s", hex + 2 * k);
        printf("%s\n", size > 64 ? " ..." : "");
    }
    printf("  palette: %lld colours\n", cli_jint(j, "palette_colours"));
    for (size_t i = 0; i < json_array_size(mips); i++) {
        const json_t *m = json_array_get(mips, i);
        const char *c = cli_jstr(m, "compression");
        printf("  mip %zu at 0x%llx: %lld x %lld, %s, %lld bytes\n", i, (unsigned long long)cli_jint(m, "offset"),
               cli_jint(m, "width"), cli_jint(m, "height"), strcmp(c, "none") == 0 ? "raw" : c,
               cli_jint(m, "stored_bytes"));
    }
    printf("  end at 0x%llx, %lld byte(s) after it\n", (unsigned long long)cli_jint(j, "end_offset"),
           cli_jint(j, "trailer_size"));
    return CLI_OK;
}

static int to_png(const char *in, const char *out, size_t mip)
{
    ferry_asset *asset = cli_read_as(in, NULL, 0, FERRY_FORMAT_PAA);
    if (!asset) return CLI_INVALID;
    const ferry_paa *p = ferry_asset_object(asset);
    int status = CLI_INVALID;
    ferry_error err;
    ferry_buffer buf = {0};
    if (mip >= p->mip_count) {
        fprintf(stderr, "%s: --mip %zu: the texture has %zu mipmap%s (0 to %zu)\n", CLI_TXT(in), mip, p->mip_count,
                p->mip_count == 1 ? "" : "s", p->mip_count ? p->mip_count - 1 : 0);
        status = CLI_USAGE;
    } else if (ferry_paa_encode_png(p, mip, &buf, &err) != FERRY_OK) {
        cli_print_error(in, &err);
    } else if ((status = cli_write_output(in, out, &buf)) == CLI_OK) {
        fprintf(stderr, "%s -> %s: mipmap %zu (%zu in the file), %u x %u RGBA PNG\n", CLI_TXT(in), CLI_TXT(out), mip,
                p->mip_count, (unsigned)p->mips[mip].width, (unsigned)p->mips[mip].height);
    }
    ferry_buffer_free(&buf);
    ferry_asset_free(asset);
    return status;
}

/* PNG, TGA or DDS -> PAA/PAC (the library's ferry_author_paa), its summary. */
static int from_image(const char *in, const char *out, const ferry_paa_encode_options *options)
{
    ferry_author_paa_options o = {*options, {.protect_input = in}};
    ferry_author_paa_report rep;
    ferry_error err;
    if (ferry_author_paa(in, out, &o, &rep, &err) != FERRY_OK) {
        if (rep.write_failed) return cli_output_error(out, &err);
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    fprintf(stderr, "%s -> %s: %s, %u x %u, %zu mipmaps down to %u x %u (%zu LZO-compressed), %s, %zu bytes\n", CLI_TXT(in),
            CLI_TXT(out), ferry_paa_type_name(rep.type), rep.width, rep.height, rep.mip_count, rep.last_width,
            rep.last_height, rep.lzo_count, options->linear ? "data map (no sRGB)" : "sRGB colour", rep.bytes);
    return CLI_OK;
}

/* --dxt1, --dxt5: the type, one of them. */
static int take_type(const char *cmd, const char *name, const char *value, void *to)
{
    (void)value;
    uint16_t *type = to, t = name[5] == '1' ? FERRY_PAA_DXT1 : FERRY_PAA_DXT5;
    if (*type && *type != t) return cli_usage_error(cmd, "choose one of --dxt1 and --dxt5");
    *type = t;
    return CLI_OK;
}

static int take_mip(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    char *end;
    long long mip = strtoll(value, &end, 10);
    if (*end || end == value || mip < 0 || mip > 64) return CLI_REFUSED;
    *(long long *)to = mip;
    return CLI_OK;
}

int cli_paa_convert(int argc, char **argv, ferry_format source)
{
    const char *files[2] = {NULL, NULL};
    long long mip = -1;
    ferry_paa_encode_options enc = {0};
    bool linear = false, srgb = false;
    const cli_option options[] = {{"--dxt1", &enc.type, take_type, NULL, NULL}, {"--dxt5", &enc.type, take_type, NULL, NULL},
                                  CLI_FLAG("--linear", &linear), CLI_FLAG("--srgb", &srgb), CLI_FLAG("--no-lzo", &enc.no_lzo),
                                  {"--mip", &mip, take_mip, "--mip needs a mipmap number",
                                   "--mip takes a mipmap number from 0, not '%s'"}, {0}};
    int status = cli_convert_args(argc, argv, options, "option '%s' does not apply to PAA conversions", NULL, files);
    if (status != CLI_OK) return status;
    const char *in = files[0], *out = files[1];
    bool encode_option = enc.type || linear || srgb || enc.no_lzo;
    bool paa_out = cli_has_ext(out, ".paa") || cli_has_ext(out, ".pac");
    if (linear && srgb) return cli_usage_error("convert", "choose one of --linear and --srgb");
    if (source != FERRY_FORMAT_PAA) {
        if (!paa_out)
            return cli_usage_error("convert", "'%s' is not a PAA/PAC texture; images convert to .paa or .pac", in);
        if (mip >= 0) return cli_usage_error("convert", "--mip applies to reading PAA textures");
        enc.linear = linear || (!srgb && ferry_paa_data_map_name(out));
        return from_image(in, out, &enc);
    }
    if (encode_option)
        return cli_usage_error("convert", "--dxt1, --dxt5, --linear, --srgb and --no-lzo apply to writing PAA from an image");
    if (cli_has_ext(out, ".png")) return to_png(in, out, mip < 0 ? 0 : (size_t)mip);
    if (paa_out && mip >= 0) return cli_usage_error("convert", "--mip applies to .png outputs");
    if (paa_out) return cli_rewrite(in, out);
    return cli_usage_error("convert", "cannot write '%s' from a PAA texture: supported outputs are .png, .paa, .pac",
                           out);
}
