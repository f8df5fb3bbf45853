#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "formats.h"

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
    fprintf(stderr, "%s: error: %s\n", CLI_TXT(file), CLI_TXT(line));
}

json_t *cli_error_json(const ferry_error *err)
{
    json_t *j = json_object();
    json_object_set_new(j, "code", json_string(ferry_result_name(err->code)));
    if (err->offset != FERRY_NO_OFFSET)
        json_object_set_new(j, "offset", json_integer((json_int_t)err->offset));
    else
        json_object_set_new(j, "offset", json_null());
    cli_json_set_text(j, "path", err->path);
    cli_json_set_text(j, "message", err->message);
    return j;
}

void cli_json_append_failure(json_t *report, const char *file, const char *format, const ferry_error *err)
{
    json_t *j = json_object();
    cli_json_set_text(j, "file", file);
    json_object_set_new(j, "format", format ? json_string(format) : json_null());
    json_object_set_new(j, "read_error", cli_error_json(err));
    json_object_set_new(j, "valid", json_false());
    json_array_append_new(report, j);
}

bool cli_utf8_valid(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p;
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            p++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        for (size_t i = 1; i <= n; i++) {
            if ((p[i] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        /* Overlong forms, surrogates and code points past U+10FFFF. */
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

static json_t *latin1_json(const char *text, size_t n, bool *latin1);

json_t *cli_json_text(const char *text, bool *latin1)
{
    if (latin1) *latin1 = false;
    if (!text) return json_null();
    if (cli_utf8_valid(text)) return json_string(text);
    return latin1_json(text, strlen(text), latin1);
}

json_t *cli_json_textn(const char *text, size_t n, bool *latin1)
{
    if (latin1) *latin1 = false;
    if (!text) return json_null();
    json_t *j = json_stringn(text, n); /* NULL when not valid UTF-8 */
    return j ? j : latin1_json(text, n, latin1);
}

/* Every byte one character U+0000..U+00FF, as UTF-8 into out (room for
 * 2 n + 1 bytes, or stopping where capacity ends); returns the length. */
static size_t latin1_to_utf8(const char *text, size_t n, char *out, size_t capacity)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 3 <= capacity; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x80) {
            out[o++] = (char)c;
        } else {
            out[o++] = (char)(0xC0 | (c >> 6));
            out[o++] = (char)(0x80 | (c & 0x3F));
        }
    }
    out[o] = '\0';
    return o;
}

static json_t *latin1_json(const char *text, size_t n, bool *latin1)
{
    char *utf8 = malloc(n * 2 + 3);
    if (!utf8) return json_null();
    size_t o = latin1_to_utf8(text, n, utf8, n * 2 + 3);
    json_t *j = json_stringn(utf8, o);
    free(utf8);
    if (latin1) *latin1 = true;
    return j ? j : json_null();
}

const char *cli_json_key(const char *text, char *buf, size_t capacity)
{
    if (!text) text = "";
    if (cli_utf8_valid(text) || capacity < 3) return text;
    latin1_to_utf8(text, strlen(text), buf, capacity);
    return buf;
}

static void mark_latin1(json_t *object, const char *key)
{
    json_t *list = json_object_get(object, "latin1");
    if (!list) {
        list = json_array();
        json_object_set_new(object, "latin1", list);
    }
    json_array_append_new(list, json_string(key));
}

void cli_json_set_text(json_t *object, const char *key, const char *text)
{
    bool latin1;
    json_object_set_new(object, key, cli_json_text(text, &latin1));
    if (latin1) mark_latin1(object, key);
}

void cli_json_append_text(json_t *object, const char *key, json_t *array, const char *text)
{
    cli_json_append_textn(object, key, array, text, text ? strlen(text) : 0);
}

void cli_json_append_textn(json_t *object, const char *key, json_t *array, const char *text, size_t n)
{
    bool latin1;
    size_t index = json_array_size(array);
    json_array_append_new(array, text ? cli_json_textn(text, n, &latin1) : json_null());
    if (!text) latin1 = false;
    if (latin1) {
        char item[256];
        snprintf(item, sizeof item, "%s/%zu", key, index);
        mark_latin1(object, item);
    }
}

/* A control character at p[0] (C0, DEL, or C1 as UTF-8 0xC2 0x80..0x9F):
 * how many bytes it takes (0: none) and the code to print as \xNN. */
static size_t control_at(const unsigned char *p, size_t left, unsigned *code)
{
    if (p[0] < 0x20 || p[0] == 0x7F) {
        *code = p[0];
        return 1;
    }
    if (p[0] == 0xC2 && left > 1 && p[1] >= 0x80 && p[1] <= 0x9F) {
        *code = p[1];
        return 2;
    }
    return 0;
}

static const char hex_digits[] = "0123456789abcdef";

const char *cli_text(const char *text, char *buf, size_t capacity)
{
    if (!text) text = "";
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text), o = 0;
    for (size_t i = 0; i < n;) {
        unsigned code;
        size_t taken = control_at(p + i, n - i, &code);
        size_t need = taken ? 4 : 1;
        if (o + need + 4 > capacity) {
            if (capacity >= 4) memcpy(buf + (o < capacity - 4 ? o : capacity - 4), "...", 4);
            return buf;
        }
        if (taken) {
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex_digits[code >> 4];
            buf[o++] = hex_digits[code & 15];
            i += taken;
        } else {
            buf[o++] = (char)p[i++];
        }
    }
    buf[o] = '\0';
    return buf;
}

void cli_fput_textn(FILE *f, const char *text, size_t n)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < n;) {
        unsigned code;
        size_t taken = control_at(p + i, n - i, &code);
        if (taken) {
            fprintf(f, "\\x%c%c", hex_digits[code >> 4], hex_digits[code & 15]);
            i += taken;
        } else {
            fputc(p[i++], f);
        }
    }
}

bool cli_check_head(const char *path, uint8_t *head, size_t capacity, size_t *got, ferry_error *err)
{
    uint8_t own[FERRY_DETECT_HEAD];
    if (!head) {
        head = own;
        capacity = sizeof own;
    }
    *got = 0;
    if (ferry_file_read_head(path, head, capacity, got, NULL, err) != FERRY_OK) return false;
    /* The content decides; a name only words the refusal of a file whose
     * content is no format at all. */
    if (ferry_detect(head, *got) != FERRY_FORMAT_UNKNOWN) return true;
    bool p3d = cli_has_ext(path, ".p3d");
    if (!p3d && !cli_has_ext(path, ".alm")) return true;
    char shown[40] = "";
    for (size_t i = 0; i < *got && i < 4; i++)
        snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%s%02x", i ? " " : "", head[i]);
    ferry_error e = {0};
    e.code = FERRY_ERR_MALFORMED;
    e.offset = 0;
    snprintf(e.message, sizeof e.message, "not %s file: it starts with bytes %s%s, not the %s signature",
             p3d ? "a P3D (ODOL or MLOD)" : "an ALM", *got ? shown : "(none: it is empty)", *got > 4 ? " ..." : "",
             p3d ? "\"ODOL\" or \"MLOD\"" : "\"ALM\\0\"");
    *err = e;
    return false;
}

bool cli_load(const char *path, uint8_t **data, size_t *size)
{
    ferry_error err;
    *data = NULL;
    *size = 0;
    size_t got;
    if (!cli_check_head(path, NULL, 0, &got, &err) || ferry_file_load(path, CLI_MAX_INPUT, data, size, &err) != FERRY_OK) {
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
    const ferry_write_options wo = {.protect_input = in};
    if (ferry_file_write(out, buf->data, buf->size, &wo, &err) != FERRY_OK) return cli_output_error(out, &err);
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

char *cli_model_name(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
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
