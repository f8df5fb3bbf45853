/* ferry convert: rewrite a file through its typed model. */
#include "cli.h"

#include <string.h>
#include <strings.h>

static const char convert_usage[] =
    "usage: ferry convert IN OUT\n"
    "\n"
    "Reads IN and writes OUT through the typed model. The output format follows\n"
    "OUT's extension:\n"
    "  IN.alo -> OUT.alo   rewrite an ALO model (byte-identical when unchanged)\n"
    "\n"
    "OUT is written atomically (a temporary file, then a rename); IN is never\n"
    "overwritten.\n";

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

int cmd_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(convert_usage, stdout);
            return CLI_OK;
        }
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("convert", "unknown option '%s'", argv[i]);
        if (!in)
            in = argv[i];
        else if (!out)
            out = argv[i];
        else
            return cli_usage_error("convert", "expected IN and OUT, got a third file '%s'", argv[i]);
    }
    if (!in || !out) return cli_usage_error("convert", "expected IN and OUT files");
    if (!has_ext(out, ".alo"))
        return cli_usage_error("convert", "cannot write '%s': supported output: .alo", out);
    uint8_t *data;
    size_t size;
    if (!cli_load(in, &data, &size)) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_alo_model *model = NULL;
    ferry_error err;
    ferry_buffer buf = {0};
    if (ferry_alo_read(data, size, NULL, &model, &err) != FERRY_OK) {
        cli_print_error(in, &err);
    } else if (ferry_alo_write(model, &buf, &err) != FERRY_OK) {
        cli_print_error(out, &err);
    } else if (ferry_file_write_atomic(out, buf.data, buf.size, in, &err) != FERRY_OK) {
        cli_print_error(out, &err);
        status = err.code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
    } else {
        status = CLI_OK;
    }
    ferry_buffer_free(&buf);
    ferry_alo_free(model);
    ferry_file_free(data);
    return status;
}
