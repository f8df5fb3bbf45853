/* What the CLI needs from the system beyond the library's public API and
 * C11, in one place (docs/platform.md, "The CLI"): the arguments in UTF-8,
 * the console's encoding and whether stderr is a terminal. POSIX and
 * Windows (MinGW-w64) sides in port.c; no other CLI file calls either
 * system. Files and folders go through the library (ferry_file_*,
 * ferry_path_stat, ferry_folder_list). */
#ifndef FERRY_CLI_PORT_H
#define FERRY_CLI_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Called first in main. On Windows: replaces *argv with the command line
 * in UTF-8 (GetCommandLineW, split by CommandLineToArgvW: any language's
 * file names, where main's argv holds the ANSI code page's approximation),
 * puts stdout and stderr in binary mode (the same bytes as on Linux: "\n",
 * not CR LF) and the console's output code page to UTF-8. False (with a
 * message on stderr) when the arguments cannot be had. POSIX: nothing. */
bool cli_port_start(int *argc, char ***argv);

/* stderr is a terminal (a console on Windows: not a file, a pipe or NUL). */
bool cli_stderr_is_terminal(void);

#endif
