/* ferry convert: rewrite a file through its typed model. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char convert_usage[] =
    "usage: ferry convert [--ala-format 1|2] IN OUT\n"
    "\n"
    "Reads IN and writes OUT through the typed model. The output format follows\n"
    "OUT's extension:\n"
    "  IN.alo -> OUT.alo   rewrite an ALO model or particle system (byte-identical)\n"
    "  IN.ala -> OUT.ala   rewrite an ALA animation (byte-identical), or convert it\n"
    "                      between format 1 (Empire at War) and format 2 (Forces of\n"
    "                      Corruption) with --ala-format; the stored values move\n"
    "                      unchanged, so every pose stays the same\n"
    "\n"
    "OUT is written atomically (a temporary file, then a rename); IN is never\n"
    "overwritten.\n"
    "\n"
    "  --ala-format N   write animations in format N (1 or 2)\n";

int cmd_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int ala_format = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(convert_usage, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--ala-format") == 0) {
            if (i + 1 >= argc || (strcmp(argv[i + 1], "1") != 0 && strcmp(argv[i + 1], "2") != 0))
                return cli_usage_error("convert", "--ala-format takes 1 or 2");
            ala_format = atoi(argv[++i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("convert", "unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else if (!out) {
            out = argv[i];
        } else {
            return cli_usage_error("convert", "expected IN and OUT, got a third file '%s'", argv[i]);
        }
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT files");
    bool to_alo = cli_has_ext(out, ".alo"), to_ala = cli_has_ext(out, ".ala");
    if (!to_alo && !to_ala) return cli_usage_error("convert", "cannot write '%s': supported outputs: .alo, .ala", out);
    cli_asset asset;
    ferry_error err;
    if (!cli_asset_load(in, &asset, &err)) {
        cli_print_error(in, &err);
        cli_asset_free(&asset);
        return CLI_INVALID;
    }
    int status = CLI_INVALID;
    if ((asset.animation != NULL) != to_ala) {
        fprintf(stderr, "ferry convert: %s holds an %s, which cannot be written as %s\n", in,
                ferry_alamo_kind_name(asset.kind), out);
        cli_asset_free(&asset);
        return CLI_USAGE;
    }
    if (ala_format && !asset.animation) {
        cli_asset_free(&asset);
        return cli_usage_error("convert", "--ala-format applies to animations only");
    }
    ferry_buffer buf = {0};
    if (cli_asset_write(&asset, ala_format, &buf, &err) != FERRY_OK) {
        cli_print_error(in, &err);
    } else if (ferry_file_write_atomic(out, buf.data, buf.size, in, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        status = err.code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
    } else {
        status = CLI_OK;
    }
    ferry_buffer_free(&buf);
    cli_asset_free(&asset);
    return status;
}
