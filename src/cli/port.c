/* The CLI's system shim (port.h): POSIX or Win32, chosen at compile time. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L
#endif
#include "port.h"

#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#include <shellapi.h>

static char *utf8_of(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    if (n <= 0) return NULL;
    char *s = malloc((size_t)n);
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) != n) {
        free(s);
        s = NULL;
    }
    return s;
}

bool cli_port_start(int *argc, char ***argv)
{
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    SetConsoleOutputCP(CP_UTF8);
    int n = 0;
    wchar_t **wargv = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!wargv || n < 1) {
        fputs("ferry: cannot read the command line\n", stderr);
        return false;
    }
    /* Kept for the life of the process, as main's own argv is. */
    char **args = calloc((size_t)n + 1, sizeof *args);
    for (int i = 0; args && i < n; i++) {
        if (!(args[i] = utf8_of(wargv[i]))) {
            fputs("ferry: an argument cannot be turned into UTF-8\n", stderr);
            LocalFree(wargv);
            return false;
        }
    }
    LocalFree(wargv);
    if (!args) {
        fputs("ferry: out of memory\n", stderr);
        return false;
    }
    *argc = n;
    *argv = args;
    return true;
}

bool cli_stderr_is_terminal(void)
{
    /* _isatty is true for NUL too; only a console has a console mode. */
    DWORD mode;
    return GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

#else
#include <unistd.h>

bool cli_port_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return true;
}

bool cli_stderr_is_terminal(void) { return isatty(STDERR_FILENO) != 0; }
#endif
