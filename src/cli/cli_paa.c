/* ferry's PAA/PAC commands: info, dump, validate, convert to PNG (one
 * mipmap), the byte-identical rewrite, and PNG/TGA/DDS to PAA. */
#include <ferry/detect.h>
#include <ferry/paa.h>

#include "cli.h"
#include "formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

void *cli_paa_read(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_paa *p;
    return ferry_paa_read(data, size, NULL, &p, err) == FERRY_OK ? p : NULL;
}

ferry_result cli_paa_write(const void *model, ferry_buffer *out, ferry_error *err)
{
    return ferry_paa_write(model, out, err);
}

void cli_paa_free(void *model) { ferry_paa_free(model); }

static ferry_paa *load(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    return cli_format_read(cli_format_for(FERRY_FORMAT_PAA), file, data, size, report);
}

static void argb_text(uint32_t v, char out[12])
{
    snprintf(out, 12, "0x%08x", (unsigned)v);
}

static json_t *paa_json(const char *file, const ferry_paa *p, size_t size, bool full)
{
    json_t *j = json_object();
    cli_json_set_text(j, "file", file);
    json_object_set_new(j, "format", json_string("PAA"));
    json_object_set_new(j, "type", json_string(ferry_paa_type_name(p->type)));
    json_object_set_new(j, "size", json_integer((json_int_t)size));
    char t[12];
    if (p->has_average) {
        argb_text(p->average_argb, t);
        json_object_set_new(j, "average_argb", json_string(t));
    }
    if (p->has_maximum) {
        argb_text(p->maximum_argb, t);
        json_object_set_new(j, "maximum_argb", json_string(t));
    }
    if (p->has_flags) json_object_set_new(j, "flags", json_integer(p->flags));
    json_t *tags = json_array();
    for (size_t i = 0; i < p->tag_count; i++) {
        json_t *tj = json_object();
        cli_json_set_text(tj, "name", p->tags[i].name);
        json_object_set_new(tj, "offset", json_integer((json_int_t)p->tags[i].offset));
        json_object_set_new(tj, "size", json_integer(p->tags[i].size));
        json_array_append_new(tags, tj);
    }
    json_object_set_new(j, "tags", tags);
    json_object_set_new(j, "palette_colours", json_integer(p->palette_count));
    json_t *mips = json_array();
    for (size_t i = 0; i < p->mip_count; i++) {
        const ferry_paa_mip *m = &p->mips[i];
        json_t *mj = json_object();
        json_object_set_new(mj, "width", json_integer(m->width));
        json_object_set_new(mj, "height", json_integer(m->height));
        json_object_set_new(mj, "compression", json_string(m->lzo ? "LZO" : m->lzss ? "LZSS" : "none"));
        json_object_set_new(mj, "stored_bytes", json_integer(m->data_size));
        if (full) json_object_set_new(mj, "offset", json_integer((json_int_t)m->offset));
        json_array_append_new(mips, mj);
    }
    json_object_set_new(j, "mipmaps", mips);
    return j;
}

int cli_paa_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    ferry_paa *p = load(file, data, size, report);
    if (!p) return CLI_INVALID;
    if (report) {
        json_array_append_new(report, paa_json(file, p, size, false));
    } else {
        printf("%s: PAA texture, %s, %zu bytes\n", CLI_TXT(file), ferry_paa_type_name(p->type), size);
        if (p->mip_count)
            printf("  %u x %u, %zu mipmap%s (%s)\n", p->mips[0].width, p->mips[0].height, p->mip_count,
                   p->mip_count == 1 ? "" : "s",
                   p->mips[0].lzo ? "LZO-compressed" : p->mips[0].lzss ? "LZSS-compressed" : "uncompressed");
        if (p->has_average) printf("  average colour 0x%08x (ARGB)\n", (unsigned)p->average_argb);
        if (p->has_maximum) printf("  maximum colour 0x%08x (ARGB)\n", (unsigned)p->maximum_argb);
        if (p->has_flags) printf("  flags %u\n", (unsigned)p->flags);
        printf("  %zu tag%s, palette of %u colours\n", p->tag_count, p->tag_count == 1 ? "" : "s", p->palette_count);
    }
    ferry_paa_free(p);
    return CLI_OK;
}

int cli_paa_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_paa *p = load(file, data, size, NULL);
    if (!p) return CLI_INVALID;
    if (json) {
        json_t *j = paa_json(file, p, size, true);
        cli_print_json(j);
        json_decref(j);
    } else {
        printf("%s: PAA, type 0x%04x (%s)\n", CLI_TXT(file), p->type, ferry_paa_type_name(p->type));
        for (size_t i = 0; i < p->tag_count; i++) {
            const ferry_paa_tag *t = &p->tags[i];
            printf("  tag %s at 0x%llx, %u bytes:", CLI_TXT(t->name), (unsigned long long)t->offset, (unsigned)t->size);
            for (uint32_t k = 0; k < t->size && k < 64; k++) printf(" %02x", t->data[k]);
            printf("%s\n", t->size > 64 ? " ..." : "");
        }
        printf("  palette: %u colours\n", p->palette_count);
        for (size_t i = 0; i < p->mip_count; i++) {
            const ferry_paa_mip *m = &p->mips[i];
            printf("  mip %zu at 0x%llx: %u x %u, %s, %u bytes\n", i, (unsigned long long)m->offset, m->width,
                   m->height, m->lzo ? "LZO" : m->lzss ? "LZSS" : "raw", (unsigned)m->data_size);
        }
        printf("  end at 0x%llx, %zu byte(s) after it\n", (unsigned long long)p->end_offset, p->trailer_size);
    }
    ferry_paa_free(p);
    return CLI_OK;
}

size_t cli_paa_validate(const char *file, const uint8_t *data, size_t size, const cli_validate_options *options,
                        json_t *report)
{
    (void)options;
    ferry_paa *p = load(file, data, size, report);
    if (!p) return 1;
    ferry_diagnostics d;
    memset(&d, 0, sizeof d);
    ferry_paa_validate(p, NULL, &d);
    cli_report_diags(file, "PAA", &d, report);
    size_t errors = d.error_count;
    ferry_diagnostics_free(&d);
    ferry_paa_free(p);
    return errors;
}

static int to_png(const char *in, const char *out, size_t mip)
{
    uint8_t *data;
    size_t size;
    ferry_paa *p = cli_format_load(cli_format_for(FERRY_FORMAT_PAA), in, &data, &size);
    if (!p) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_error err;
    ferry_image img;
    if (mip >= p->mip_count) {
        fprintf(stderr, "%s: --mip %zu: the texture has %zu mipmap%s (0 to %zu)\n", CLI_TXT(in), mip, p->mip_count,
                p->mip_count == 1 ? "" : "s", p->mip_count ? p->mip_count - 1 : 0);
        status = CLI_USAGE;
    } else if (ferry_paa_decode_mip(p, mip, &img, &err) != FERRY_OK) {
        cli_print_error(in, &err);
    } else {
        ferry_buffer buf = {0};
        if (ferry_image_encode_png(&img, &buf, &err) != FERRY_OK)
            cli_print_error(in, &err);
        else
            status = cli_write_output(in, out, &buf);
        if (status == CLI_OK)
            fprintf(stderr, "%s -> %s: mipmap %zu (%zu in the file), %u x %u RGBA PNG\n", CLI_TXT(in), CLI_TXT(out), mip,
                    p->mip_count, (unsigned)img.width, (unsigned)img.height);
        ferry_buffer_free(&buf);
        ferry_image_free(&img);
    }
    ferry_paa_free(p);
    ferry_file_free(data);
    return status;
}

/* The name's last suffix before the extension is one of Bohemia's for
 * normal and specular maps (data, not colour): "x_nohq.paa". */
static bool data_map_name(const char *path)
{
    static const char *const suffixes[] = {"_nohq", "_no", "_nshq", "_ns", "_smdi", "_sm", "_sms"};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot ? (size_t)(dot - base) : strlen(base);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t n = strlen(suffixes[i]);
        if (len <= n) continue;
        size_t k = 0;
        while (k < n && tolower((unsigned char)base[len - n + k]) == suffixes[i][k]) k++;
        if (k == n) return true;
    }
    return false;
}

/* PNG, TGA or DDS -> PAA/PAC (ferry_paa_encode). */
static int from_image(const char *in, const char *out, const ferry_paa_encode_options *options)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(in, 0, &data, &size, &err) != FERRY_OK) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    ferry_image img;
    ferry_format known = ferry_detect(data, size);
    ferry_result r = ferry_image_decode(data, size, NULL, &img, &err);
    ferry_file_free(data);
    if (r != FERRY_OK && known != FERRY_FORMAT_UNKNOWN) {
        fprintf(stderr, "%s: error: not an image (its format is %s): PAA textures are written from PNG, TGA or DDS images\n",
                CLI_TXT(in), ferry_format_name(known));
        return CLI_INVALID;
    }
    if (r != FERRY_OK) {
        if (r == FERRY_ERR_MALFORMED && err.offset == 0) {
            /* Not an image at all: say so as for any file of no known format. */
            static const char lead[] = "not a known format: ";
            size_t n = strlen(err.message), room = sizeof err.message - sizeof lead;
            if (n > room) n = room;
            memmove(err.message + sizeof lead - 1, err.message, n);
            err.message[sizeof lead - 1 + n] = '\0';
            memcpy(err.message, lead, sizeof lead - 1);
        }
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    ferry_paa *p = NULL;
    int status = CLI_INVALID;
    if (ferry_paa_encode(&img, options, &p, &err) != FERRY_OK) {
        cli_print_error(in, &err);
    } else {
        ferry_buffer buf = {0};
        if (ferry_paa_write(p, &buf, &err) != FERRY_OK)
            cli_print_error(in, &err);
        else
            status = cli_write_output(in, out, &buf);
        if (status == CLI_OK) {
            size_t lzo = 0;
            for (size_t i = 0; i < p->mip_count; i++) lzo += p->mips[i].lzo;
            fprintf(stderr, "%s -> %s: %s, %u x %u, %zu mipmaps down to %u x %u (%zu LZO-compressed), %s, %zu bytes\n",
                    CLI_TXT(in), CLI_TXT(out), ferry_paa_type_name(p->type), p->mips[0].width, p->mips[0].height,
                    p->mip_count, p->mips[p->mip_count - 1].width, p->mips[p->mip_count - 1].height, lzo,
                    options->linear ? "data map (no sRGB)" : "sRGB colour", buf.size);
        }
        ferry_buffer_free(&buf);
    }
    ferry_paa_free(p);
    ferry_image_free(&img);
    return status;
}

int cli_paa_convert(int argc, char **argv, ferry_format source)
{
    const char *in = NULL, *out = NULL;
    long long mip = -1;
    ferry_paa_encode_options enc = {0};
    bool linear = false, srgb = false, encode_option = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--dxt1") == 0 || strcmp(a, "--dxt5") == 0) {
            uint16_t t = a[5] == '1' ? FERRY_PAA_DXT1 : FERRY_PAA_DXT5;
            if (enc.type && enc.type != t) return cli_usage_error("convert", "choose one of --dxt1 and --dxt5");
            enc.type = t;
            encode_option = true;
        } else if (strcmp(a, "--linear") == 0) {
            linear = encode_option = true;
        } else if (strcmp(a, "--srgb") == 0) {
            srgb = encode_option = true;
        } else if (strcmp(a, "--no-lzo") == 0) {
            enc.no_lzo = encode_option = true;
        } else if (strcmp(a, "--mip") == 0) {
            if (i + 1 >= argc) return cli_usage_error("convert", "--mip needs a mipmap number");
            char *end;
            mip = strtoll(argv[++i], &end, 10);
            if (*end || end == argv[i] || mip < 0 || mip > 64)
                return cli_usage_error("convert", "--mip takes a mipmap number from 0, not '%s'", argv[i]);
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("convert", "option '%s' does not apply to PAA conversions", a);
        } else if (!cli_take_file(a, &in, &out)) {
            return CLI_USAGE;
        }
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT");
    bool paa_out = cli_has_ext(out, ".paa") || cli_has_ext(out, ".pac");
    if (linear && srgb) return cli_usage_error("convert", "choose one of --linear and --srgb");
    if (source != FERRY_FORMAT_PAA) {
        if (!paa_out)
            return cli_usage_error("convert", "'%s' is not a PAA/PAC texture; images convert to .paa or .pac", in);
        if (mip >= 0) return cli_usage_error("convert", "--mip applies to reading PAA textures");
        enc.linear = linear || (!srgb && data_map_name(out));
        return from_image(in, out, &enc);
    }
    if (encode_option)
        return cli_usage_error("convert", "--dxt1, --dxt5, --linear, --srgb and --no-lzo apply to writing PAA from an image");
    if (cli_has_ext(out, ".png")) return to_png(in, out, mip < 0 ? 0 : (size_t)mip);
    if (cli_has_ext(out, ".paa") || cli_has_ext(out, ".pac")) {
        if (mip >= 0) return cli_usage_error("convert", "--mip applies to .png outputs");
        cli_convert_options o = {0};
        o.source = source;
        return cli_format_rewrite(in, out, &o);
    }
    return cli_usage_error("convert", "cannot write '%s' from a PAA texture: supported outputs are .png, .paa, .pac",
                           out);
}

const char cli_paa_convert_help[] =
    "\n"
    "PAA/PAC textures:\n"
    "  IN.paa -> OUT.png   one mipmap as RGBA PNG (--mip N: mipmap N, 0 the largest)\n"
    "  IN.paa -> OUT.paa   rewrite (byte-identical); .pac alike\n"
    "  IN.png|IN.tga|IN.dds -> OUT.paa|OUT.pac\n"
    "                      a texture: DXT1 when every pixel is opaque, DXT5 with\n"
    "                      alpha; the full mipmap chain (box filter, down to a side\n"
    "                      of 4); the tags Bohemia's tools write; mipmaps 256 or\n"
    "                      more wide LZO-compressed (read by ArmA 2 and 3). Sides\n"
    "                      must be powers of two up to 4096 (resize first).\n"
    "    --dxt1, --dxt5    choose the type (--dxt1 drops alpha)\n"
    "    --linear          the image is a data map (normal, specular): mipmaps and\n"
    "                      average colour without the sRGB curve; the default for\n"
    "                      OUT names ending _nohq, _no, _nshq, _ns, _smdi, _sm, _sms\n"
    "    --srgb            a colour map whatever its name\n"
    "    --no-lzo          no LZO compression (OFP, ArmA 1)\n";
