/* The ferry command-line tool: a thin layer over libferry. Shared helpers. */
#ifndef FERRY_CLI_H
#define FERRY_CLI_H

#include <ferry/alo.h>
#include <ferry/chunk.h>
#include <ferry/ferry.h>

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_INVALID = 1, CLI_USAGE = 2 };

/* Largest input accepted (game assets are far smaller). */
#define CLI_MAX_INPUT ((size_t)1 << 31)

int cmd_dump(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_convert(int argc, char **argv);

/* Prints "ferry CMD: message" and a hint to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool cli_is_help(const char *arg);

/* "FILE: offset 0x.. (..), chunk ..: message" on stderr. */
void cli_print_error(const char *file, const ferry_error *err);
json_t *cli_error_json(const ferry_error *err);

/* Loads a file, printing the error; false on failure. */
bool cli_load(const char *path, uint8_t **data, size_t *size);

/* Writes JSON to stdout, indented, with a final newline. */
void cli_print_json(json_t *value);

/* Progress on stderr when it is a terminal and the batch is long enough. */
typedef struct cli_progress {
    bool active;
    size_t total;
    size_t done;
} cli_progress;
void cli_progress_begin(cli_progress *p, size_t total);
void cli_progress_step(cli_progress *p, const char *item);
void cli_progress_end(cli_progress *p);

const char *cli_kind_name(const uint8_t *data, size_t size);

#endif
