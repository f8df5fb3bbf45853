/* ferry dump: the chunk tree of an Alamo file, decoded where known. */
#include "cli.h"
#include "formats.h"

#include <ctype.h>
#include <string.h>

/* Text that is safe to print: the string up to its NUL, non-printables escaped. */
static void printable(const char *d, size_t n, char *out, size_t out_size)
{
    size_t used = 0;
    for (size_t i = 0; i < n && d[i] && used + 5 < out_size; i++) {
        unsigned char c = (unsigned char)d[i];
        if (isprint(c) && c != '"' && c != '\\')
            out[used++] = (char)c;
        else
            used += (size_t)snprintf(out + used, out_size - used, "\\x%02x", c);
    }
    out[used] = '\0';
}

/* One chunk of the library's tree (ferry_asset_info, FERRY_INFO_FULL) and
 * its children: type, name, place, size, then its string, mini-chunks or
 * summary. */
static void chunk_text(const json_t *c, int depth)
{
    const char *name = cli_jstr(c, "name");
    printf("%*s%s %s%s@0x%llx, %lld bytes%s", depth * 2, "", cli_jstr(c, "type"), name ? name : "", name ? " " : "",
           (unsigned long long)cli_jint(c, "offset"), cli_jint(c, "size"), cli_jbool(c, "container") ? ", container" : "");
    const json_t *children = json_object_get(c, "children"), *minis = json_object_get(c, "minis");
    char text[600];
    if (children) {
        printf("\n");
        for (size_t i = 0; i < json_array_size(children); i++) chunk_text(json_array_get(children, i), depth + 1);
    } else if (cli_jstr(c, "string")) {
        printable(cli_jstr(c, "string"), cli_jlen(c, "string"), text, sizeof text);
        printf(": \"%s\"\n", text);
    } else if (cli_jstr(c, "error")) {
        printf(": (bad mini-chunks: %s)\n", cli_jstr(c, "error"));
    } else if (minis) {
        printf("\n");
        for (size_t i = 0; i < json_array_size(minis); i++) {
            const json_t *m = json_array_get(minis, i);
            const char *mname = cli_jstr(m, "name"), *value = cli_jstr(m, "value");
            char quoted[700];
            if (strcmp(cli_jstr(m, "kind"), "string") == 0) {
                printable(value, cli_jlen(m, "value"), text, sizeof text);
                snprintf(quoted, sizeof quoted, "\"%s\"", text);
                value = quoted;
            }
            printf("%*s[0x%02llx] %s (%lld bytes): %s\n", depth * 2 + 2, "", (unsigned long long)cli_jint(m, "type"),
                   mname ? mname : "?", cli_jint(m, "size"), CLI_TXT(value));
        }
    } else {
        const char *summary = cli_jstr(c, "summary");
        printf("%s%s\n", summary && summary[0] ? ": " : "", CLI_TXT(summary));
    }
}

/* The chunk tree of an Alamo file, or of any content whose chunks read (the
 * dump of every format without a printer of its own). */
int cli_alamo_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    printf("%s: %s, %lld bytes\n", CLI_TXT(file), cli_jstr(j, "format"), cli_jint(j, "size"));
    const json_t *chunks = json_object_get(j, "chunks");
    for (size_t i = 0; i < json_array_size(chunks); i++) chunk_text(json_array_get(chunks, i), 0);
    return CLI_OK;
}

int cmd_dump(int argc, char **argv)
{
    bool json = false;
    const char *file = NULL;
    const cli_option options[] = {CLI_FLAG("--json", &json), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"dump", options, cli_help_dump, NULL, &file, 1, "one file at a time"}, argc, argv, &count);
    if (status != CLI_OK) return CLI_STATUS(status);
    if (!file) return cli_usage_error("dump", "no file given");
    /* Mapped, as info and validate map it: an archive is never held whole
     * (a dump reads its tables, and for a PBO the pages its SHA-1 covers),
     * and has no size limit. Bytes only: an Alamo file's dump is its chunk
     * tree, shown whatever its typed reader says of it (and that of any
     * content whose chunks read; "not a known format" otherwise). */
    ferry_asset *asset;
    ferry_error err;
    if (ferry_asset_open(file, &(ferry_asset_options){.name = file, .bytes_only = true}, &asset, &err) != FERRY_OK) {
        cli_print_error(file, &err);
        return CLI_INVALID;
    }
    status = cli_print(file, asset, FERRY_INFO_FULL, json);
    ferry_asset_free(asset);
    return status;
}
