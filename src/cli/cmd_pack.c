/* ferry pack OUT.meg|OUT.pbo DIR: a new archive of a folder's files, in the
 * format OUT's extension names (docs/formats/meg.md, "Packing"), made by
 * ferry_archive_pack; this file parses the options and prints. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The folders the walk could not read, kept for the list printed last. */
typedef struct unread {
    ferry_buffer lines; /* "  FOLDER: REASON\n" each */
    size_t count;
} unread;

static void message(void *user, const ferry_message *m)
{
    unread *u = user;
    cli_print_entry_message("pack", m);
    if (!m->rule || strcmp(m->rule, FERRY_WALK_FOLDER_UNREADABLE) != 0) return;
    cli_bprintf(&u->lines, "  %s: %s\n", CLI_TXT(m->file), CLI_TXT(m->text));
    u->count++;
}

static int take_meg_format(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    if (strcmp(value, "1") && strcmp(value, "2") && strcmp(value, "3")) return CLI_REFUSED;
    *(uint32_t *)to = (uint32_t)(value[0] - '0');
    return CLI_OK;
}

int cmd_pack(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *prefix = NULL;
    uint32_t format = 0;
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(cli_help_pack, stdout);
            return CLI_OK;
        }
    const cli_option options[] = {{"--meg-format", &format, take_meg_format, "--meg-format needs 1, 2 or 3",
                                   "--meg-format %s: MEG formats are 1, 2 and 3"},
                                  CLI_VALUE("--prefix", &prefix, cli_take_text, "--prefix needs a value"), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"pack", options, NULL, NULL, files, 2, "expected OUT and DIR, then nothing more ('%s')"},
                           argc, argv, &count);
    if (status != CLI_OK) return status;
    const char *out = files[0], *dir = files[1];
    if (!out || !dir) return cli_usage_error("pack", "expected OUT (.meg or .pbo) and DIR");
    bool meg = cli_has_ext(out, ".meg"), pbo = cli_has_ext(out, ".pbo");
    if (!meg && !pbo) return cli_usage_error("pack", "%s: OUT must end in .meg or .pbo (the archive's format)", out);
    if (meg && prefix) return cli_usage_error("pack", "--prefix is a PBO property; a MEG has none");
    if (pbo && format) return cli_usage_error("pack", "--meg-format applies to .meg only");
    unread u = {0};
    cli_progress bar = {0};
    /* A new, reproducible output, as convert -r's: atomic, not flushed. */
    ferry_pack_options o = {0};
    o.format = meg ? FERRY_FORMAT_MEG : FERRY_FORMAT_PBO;
    o.meg_format = format;
    o.prefix = prefix;
    o.write.no_sync = true;
    o.message = message;
    o.user = &u;
    o.progress = cli_progress_report;
    o.progress_user = &bar;
    ferry_pack_report report;
    ferry_error err;
    ferry_result r = ferry_archive_pack(out, dir, &o, &report, &err);
    cli_progress_end(&bar);
    status = CLI_INVALID;
    if (r == FERRY_OK) {
        fprintf(stderr, "%s: %zu file%s packed (%llu bytes, ", CLI_TXT(out), report.packed, report.packed == 1 ? "" : "s",
                (unsigned long long)report.bytes);
        if (meg)
            fprintf(stderr, "MEG format %u)", (unsigned)report.meg_format);
        else
            fprintf(stderr, "PBO%s%s)", prefix ? ", prefix " : "", prefix ? CLI_TXT(prefix) : "");
        if (report.refused) fprintf(stderr, ", %zu not packed (named above)", report.refused);
        fputc('\n', stderr);
        status = report.refused ? CLI_INVALID : CLI_OK;
    } else if (report.failed_at == FERRY_PACK_ARGUMENTS) {
        status = cli_usage_error("pack", "%s", err.message);
    } else if (report.failed_at == FERRY_PACK_OUTPUT) {
        status = cli_output_error(out, &err);
    } else {
        fprintf(stderr, "%s: not written: %s\n", CLI_TXT(out), err.message);
    }
    if (u.count) {
        fprintf(stderr, "%zu folder%s could not be read:\n", u.count, u.count == 1 ? "" : "s");
        if (!u.lines.failed) fwrite(u.lines.data, 1, u.lines.size, stderr);
    }
    ferry_buffer_free(&u.lines);
    return status;
}
