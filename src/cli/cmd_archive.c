/* ferry list / ferry extract: the entries of an archive (MEG, PBO),
 * printed from the library's data (ferry_asset_info, ferry_archive_extract). */
#include "cli.h"
#include "formats.h"

#include <stdlib.h>
#include <string.h>

/* The archive at `path`, mapped and told (ferry_asset_open: a
 * multi-gigabyte archive is never copied into memory; listing touches only
 * the pages of its tables, and for a PBO the SHA-1 reads every page once,
 * extracting those of the entries written); its table is read by what is
 * done with it. NULL with the error printed when it is no archive. */
static ferry_asset *open_archive(const char *cmd, const char *path)
{
    ferry_error err;
    ferry_asset *a = NULL;
    /* Told first, read only when an archive. */
    ferry_asset_options o = {.name = path, .bytes_only = true, .need = FERRY_CAN_READ};
    if (ferry_asset_open(path, &o, &a, &err) != FERRY_OK) {
        cli_print_error(path, &err);
        return NULL;
    }
    const ferry_format_desc *d = ferry_format_describe(ferry_asset_format(a));
    if (!d || !(d->caps & FERRY_IS_ARCHIVE)) {
        fprintf(stderr, "%s: error: ferry %s reads MEG and PBO archives, not %s files\n", CLI_TXT(path), cmd,
                cli_format_name(ferry_asset_format(a)));
        ferry_asset_free(a);
        return NULL;
    }
    return a;
}

int cmd_list(int argc, char **argv)
{
    bool json = false;
    const char *path = NULL;
    const cli_option options[] = {CLI_FLAG("--json", &json), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"list", options, cli_help_list, NULL, &path, 1, "one archive at a time"}, argc, argv, &count);
    if (status != CLI_OK) return CLI_STATUS(status);
    if (!path) return cli_usage_error("list", "no archive given");
    ferry_asset *a = open_archive("list", path);
    if (!a) return CLI_INVALID;
    status = cli_print(path, a, FERRY_INFO_ENTRIES, json);
    ferry_asset_free(a);
    return status;
}

int cmd_extract(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(cli_help_extract, stdout);
            return CLI_OK;
        }
    }
    size_t count;
    int status = cli_parse(&(cli_args){"extract", NULL, NULL, NULL, NULL, 0, NULL}, argc, argv, &count);
    if (status != CLI_OK) return status;
    if (count < 2) return cli_usage_error("extract", "expected ARCHIVE and OUTDIR");
    const char *apath = argv[1], *outdir = argv[2], *const *pattern = (const char *const *)argv + 3;
    size_t patterns = count - 2;
    ferry_asset *file = open_archive("extract", apath);
    ferry_archive *archive = NULL;
    ferry_error err;
    status = CLI_INVALID;
    if (file && ferry_archive_from_asset(file, &archive, &err) != FERRY_OK) cli_print_error(apath, &err);
    if (archive) {
        cli_progress bar = {0};
        /* As convert -r: new files, not flushed one by one. */
        ferry_extract_options o = {pattern, patterns, {.protect_input = apath, .no_sync = true}, cli_print_entry_message,
                                   NULL, cli_progress_report, &bar};
        ferry_extract_report report;
        ferry_result r = ferry_archive_extract(archive, outdir, &o, &report, &err);
        cli_progress_end(&bar);
        if (r == FERRY_ERR_ARGUMENT) { /* as convert -r: one message, not one per entry */
            fprintf(stderr, "ferry extract: %s\n", CLI_TXT(err.message));
            status = CLI_USAGE;
        } else if (r != FERRY_OK) {
            fprintf(stderr, "%s: %s\n", CLI_TXT(outdir), CLI_TXT(err.message));
        } else {
            fprintf(stderr, "%s: %zu file%s extracted into %s", CLI_TXT(apath), report.extracted,
                    report.extracted == 1 ? "" : "s", CLI_TXT(outdir));
            if (report.refused) fprintf(stderr, ", %zu not extracted (named above)", report.refused);
            fputc('\n', stderr);
            status = report.refused ? CLI_INVALID : CLI_OK;
        }
    }
    ferry_archive_free(archive);
    ferry_asset_free(file);
    return status;
}
