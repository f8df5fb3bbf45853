#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ferry %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'ferry %s --help'.\n", cmd);
    va_end(ap);
    return CLI_USAGE;
}

int cli_check_texture_dir(const char *cmd, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) return cli_usage_error(cmd, "--textures %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return cli_usage_error(cmd, "--textures %s: not a folder", dir);
    return CLI_OK;
}

bool cli_is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

bool cli_take_file(const char *arg, const char **in, const char **out)
{
    if (!*in) {
        *in = arg;
    } else if (!*out) {
        *out = arg;
    } else {
        cli_usage_error("convert", "expected IN and OUT, got a third file '%s'", arg);
        return false;
    }
    return true;
}

void cli_print_error(const char *file, const ferry_error *err)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    fprintf(stderr, "%s: error: %s\n", file, line);
}

json_t *cli_error_json(const ferry_error *err)
{
    json_t *j = json_object();
    json_object_set_new(j, "code", json_string(ferry_result_name(err->code)));
    if (err->offset != FERRY_NO_OFFSET)
        json_object_set_new(j, "offset", json_integer((json_int_t)err->offset));
    else
        json_object_set_new(j, "offset", json_null());
    json_object_set_new(j, "path", json_string(err->path));
    json_object_set_new(j, "message", json_string(err->message));
    return j;
}

bool cli_load(const char *path, uint8_t **data, size_t *size)
{
    ferry_error err;
    if (ferry_file_load(path, CLI_MAX_INPUT, data, size, &err) != FERRY_OK) {
        cli_print_error(path, &err);
        return false;
    }
    return true;
}

int cli_output_error(const char *out, const ferry_error *err)
{
    cli_print_error(out, err);
    return err->code == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
}

int cli_write_output(const char *in, const char *out, const ferry_buffer *buf)
{
    ferry_error err;
    if (ferry_file_write_atomic(out, buf->data, buf->size, in, &err) != FERRY_OK) return cli_output_error(out, &err);
    return CLI_OK;
}

char *cli_file_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, base, len);
        out[len] = 0;
    }
    return out;
}

void cli_print_json(json_t *value)
{
    json_dumpf(value, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    fputc('\n', stdout);
}

void cli_progress_begin(cli_progress *p, size_t total)
{
    p->active = total >= 8 && isatty(STDERR_FILENO);
    p->total = total;
    p->done = 0;
}

void cli_progress_step(cli_progress *p, const char *item)
{
    p->done++;
    if (!p->active) return;
    const int width = 30;
    int filled = (int)(p->total ? p->done * (size_t)width / p->total : 0);
    const char *base = strrchr(item, '/');
    base = base ? base + 1 : item;
    fprintf(stderr, "\r[%-*.*s] %zu/%zu %-32.32s", width, filled, "##############################", p->done,
            p->total, base);
    fflush(stderr);
}

void cli_progress_end(cli_progress *p)
{
    if (p->active) fprintf(stderr, "\r%*s\r", 80, "");
    p->active = false;
}

const char *cli_kind_name(const uint8_t *data, size_t size)
{
    return ferry_alamo_kind_name(ferry_alamo_detect(data, size));
}
