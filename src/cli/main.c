/* ferry: read, validate, write and convert classic game engine 3D assets. */
#include "cli.h"

#include <malloc.h>
#include <string.h>

static const char usage[] =
    "usage: ferry COMMAND [OPTIONS] FILE...\n"
    "\n"
    "Reads, validates, writes and converts classic game engine 3D assets.\n"
    "\n"
    "commands:\n"
    "  info FILE...           one-screen summary of each file (--json)\n"
    "  dump FILE              the chunk tree, decoded where known (--json)\n"
    "  validate FILE...       check every rule of the format; exit 1 on errors (--json)\n"
    "  convert IN OUT         rewrite through the typed model (.alo, .ala; --ala-format 1|2)\n"
    "  sample ANIM.ala        every bone's pose at a frame or time (--frame N | --time S)\n"
    "\n"
    "Run 'ferry COMMAND --help' for a command's options.\n"
    "Exit status: 0 success, 1 invalid input, 2 usage error.\n";

int main(int argc, char **argv)
{
    /* Keep freed memory in the process instead of handing it back to the
     * kernel after every file: a batch reuses the same buffers file after
     * file, and fresh pages (zeroed by the kernel, one fault each) were a
     * third of a batch's time. A setting of this program, not the library. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    if (argc < 2) {
        fputs(usage, stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (cli_is_help(cmd)) {
        fputs(usage, stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("ferry %s\n", FERRY_VERSION_STRING);
        return CLI_OK;
    }
    if (strcmp(cmd, "info") == 0) return cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "dump") == 0) return cmd_dump(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0) return cmd_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "convert") == 0) return cmd_convert(argc - 1, argv + 1);
    if (strcmp(cmd, "sample") == 0) return cmd_sample(argc - 1, argv + 1);
    fprintf(stderr, "ferry: unknown command '%s'\n\n%s", cmd, usage);
    return CLI_USAGE;
}
