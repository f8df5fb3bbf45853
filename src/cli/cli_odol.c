/* ferry info/dump/validate/convert for ODOL files. */
#include "formats.h"

#include <string.h>

static bool detect(const uint8_t *data, size_t size) { return size >= 4 && (memcmp(data, "ODOL", 4) == 0 || memcmp(data, "MLOD", 4) == 0); }

static int not_yet(const char *file)
{
    fprintf(stderr, "%s: ODOL files are not supported yet\n", file);
    return CLI_INVALID;
}

static int info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    (void)data, (void)size, (void)report;
    return not_yet(file);
}

static int dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    (void)data, (void)size, (void)json;
    return not_yet(file);
}

static size_t validate(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    (void)data, (void)size, (void)report;
    not_yet(file);
    return 1;
}

static bool claims_convert(const char *path) { return cli_has_ext(path, ".p3d"); }

static int convert(int argc, char **argv)
{
    (void)argc;
    return not_yet(argv[1]);
}

const cli_format cli_format_odol = {"ODOL", detect, info, dump, validate, claims_convert, convert, ""};
