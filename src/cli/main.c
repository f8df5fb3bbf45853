/* ferry: read, validate, write and convert classic game engine 3D assets. */
#include "cli.h"
#include "port.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* What this build leaves out, said after the overview (print_usage). */
static const char left_out[] = ""
#if !FERRY_CLI_ASSIMP || !FERRY_CLI_VIEW
    "\nLeft out of this build (docs/cross-building.md):\n"
#endif
#if !FERRY_CLI_ASSIMP
    "  FBX, OBJ and Collada input (needs Assimp): convert them to glTF elsewhere first\n"
#endif
#if !FERRY_CLI_VIEW
    "  ferry view (needs libmicrohttpd): the web viewer page works without it\n"
#endif
    ;

typedef cli_command_fn *command_fn;

#if FERRY_CLI_VIEW
cli_command_fn cmd_view; /* cmd_view.c */
#else
/* Built without libmicrohttpd (the Windows build): the command is named,
 * so that it says why it is missing instead of "unknown command". */
static int cmd_view(int argc, char **argv)
{
    static const char missing[] =
        "ferry view: not in this build of ferry: its HTTP server needs libmicrohttpd, which the Windows build\n"
        "does not have yet; open the web viewer page (docs/web.md) and drop the files on it instead.\n";
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(missing, stdout);
            return CLI_OK;
        }
    fputs(missing, stderr);
    return CLI_USAGE;
}
#endif

static const struct command {
    const char *name;
    command_fn fn;
} commands[] = {
    {"info", cmd_info},       {"dump", cmd_dump},           {"validate", cmd_validate}, {"convert", cmd_convert},
    {"sample", cmd_sample},   {"particles", cmd_particles}, {"render", cmd_render},     {"list", cmd_list},
    {"extract", cmd_extract}, {"pack", cmd_pack},           {"view", cmd_view},
};

static command_fn find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0) return commands[i].fn;
    return NULL;
}

/* `ferry --help`: docs/cli/ferry.txt, then what this build leaves out. */
static void print_usage(FILE *f)
{
    fputs(cli_help_ferry, f);
    fputs(left_out, f);
}

/* ferry help [COMMAND]: the overview, or what 'ferry COMMAND --help' prints. */
static int cmd_help(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1]) || (argc == 2 && strcmp(argv[1], "help") == 0)) {
        print_usage(stdout);
        return CLI_OK;
    }
    if (argc > 2) return cli_usage_error("help", "one command at a time");
    command_fn fn = find_command(argv[1]);
    if (!fn) {
        /* Not "try ferry help --help": the list of commands is the help. */
        fprintf(stderr, "ferry help: unknown command '%s'\n\n", argv[1]);
        print_usage(stderr);
        return CLI_USAGE;
    }
    char help[] = "--help";
    char *args[3] = {argv[1], help, NULL};
    return fn(2, args);
}

/* Runs a command with '--' (the first one) ending its options: the '--' is
 * taken out and each later argument that starts with '-' is given as
 * "./ARG", the same file, so that no command's parser reads it as an option. */
static int run_command(command_fn fn, int argc, char **argv)
{
    int end = 1;
    while (end < argc && strcmp(argv[end], "--") != 0) end++;
    if (end >= argc) return fn(argc, argv);
    char **args = calloc((size_t)argc, sizeof *args);
    char **owned = calloc((size_t)argc, sizeof *owned);
    if (!args || !owned) {
        free(args);
        free(owned);
        fputs("ferry: out of memory\n", stderr);
        return CLI_INVALID;
    }
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i == end) continue;
        if (i > end && argv[i][0] == '-') {
            size_t len = strlen(argv[i]);
            owned[i] = malloc(len + 3);
            if (!owned[i]) continue;
            memcpy(owned[i], "./", 2);
            memcpy(owned[i] + 2, argv[i], len + 1);
            args[n++] = owned[i];
        } else {
            args[n++] = argv[i];
        }
    }
    args[n] = NULL;
    int status = fn(n, args);
    for (int i = 0; i < argc; i++) free(owned[i]);
    free(owned);
    free(args);
    return status;
}

int main(int argc, char **argv)
{
    /* Keep freed memory in the process instead of handing it back to the
     * kernel after every file: a batch reuses the same buffers file after
     * file, and fresh pages (zeroed by the kernel, one fault each) were a
     * third of a batch's time. A setting of this program, not the library. */
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    if (!cli_port_start(&argc, &argv)) return CLI_INVALID;
    if (argc < 2) {
        print_usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (cli_is_help(cmd)) {
        print_usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("ferry %s\n", FERRY_VERSION_STRING);
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0) return cmd_help(argc - 1, argv + 1);
    command_fn fn = find_command(cmd);
    if (fn) return run_command(fn, argc - 1, argv + 1);
    fprintf(stderr, "ferry: unknown command '%s'\n\n", cmd);
    print_usage(stderr);
    return CLI_USAGE;
}
