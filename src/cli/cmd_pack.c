/* ferry pack OUT.meg|OUT.pbo DIR: a new archive of a folder's files, in the
 * format OUT's extension names (docs/formats/meg.md, "Packing"), made by
 * ferry_archive_pack; this file parses the options and prints. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char pack_usage[] =
    "usage: ferry pack [--meg-format 1|2|3] OUT.meg DIR\n"
    "       ferry pack [--prefix P] OUT.pbo DIR\n"
    "\n"
    "Packs every file under DIR (subfolders too) into a new archive; the format\n"
    "is told by OUT's extension.\n"
    "\n"
    "MEG (Petroglyph: Empire at War, Forces of Corruption): each file is stored\n"
    "under its path below DIR as the game's tools store names: ASCII letters upper\n"
    "case, '\\' between folders, one byte a character (Latin-1: a UTF-8 name is\n"
    "converted; a name that is not UTF-8 is kept as its bytes). Records are sorted\n"
    "by the CRC-32 of the name, as the game looks names up; the name table follows\n"
    "the same order and the files' bytes follow the tables in that order. Format 1\n"
    "(the default) is what Empire at War and Forces of Corruption read; 2 and 3\n"
    "are the later games' (3 unencrypted).\n"
    "\n"
    "PBO (Bohemia: ArmA): as the community's packers write them: the product\n"
    "entry with the prefix property when --prefix is given, one uncompressed\n"
    "record per file (its timestamp the file's), records and data sorted by name\n"
    "ignoring case, the SHA-1 trailer (docs/formats/pbo.md). Names are the paths\n"
    "below DIR with '\\' between folders, case as on the disk.\n"
    "\n"
    "Not packed but named (the others are, and the exit status is then 1): two\n"
    "files whose names are equal but for case (the game finds only one), a file\n"
    "that is not a regular file or cannot be read, and in a MEG a name with a\n"
    "character past U+00FF (it cannot store it) or a backslash. Names starting\n"
    "with '.' are left out (as convert -r), and so is OUT itself; empty folders\n"
    "hold nothing an archive keeps. OUT is written atomically (a temporary, then\n"
    "a rename); a file that changes size while it is packed stops the pack,\n"
    "leaving OUT as it was. On a terminal a progress bar is shown.\n"
    "\n"    "  --meg-format N   MEG format 1, 2 or 3 (default 1)\n"
    "  --prefix P       PBO: the prefix property of the header\n"
    "\n"
    "Exit status: 0 every file packed, 1 invalid input or a file not packed,\n"
    "2 usage error.\n";

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
            fputs(pack_usage, stdout);
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
