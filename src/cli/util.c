#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "formats.h"
#include "port.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

int cli_parse(const cli_args *a, int argc, char **argv, size_t *count)
{
    *count = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (a->usage && cli_is_help(arg)) {
            fputs(a->usage, stdout);
            return CLI_HELP;
        }
        const cli_option *o = a->options;
        while (o && o->name && strcmp(o->name, arg) != 0) o++;
        if (o && o->name) {
            int taken = CLI_OK;
            if (!o->take)
                *(bool *)o->to = true;
            else if (!o->missing)
                taken = o->take(a->cmd, arg, NULL, o->to);
            else if (i + 1 >= argc)
                return cli_usage_error(a->cmd, o->missing, arg);
            else
                taken = o->take(a->cmd, arg, argv[++i], o->to);
            if (taken == CLI_REFUSED)
                return o->bad       ? cli_usage_error(a->cmd, o->bad, argv[i])
                       : o->missing ? cli_usage_error(a->cmd, o->missing, arg)
                                    : cli_usage_error(a->cmd, "option '%s' refused", arg);
            if (taken != CLI_OK) return taken;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_usage_error(a->cmd, a->unknown ? a->unknown : "unknown option '%s'", arg);
        } else if (!a->files) {
            argv[1 + (*count)++] = argv[i];
        } else if (*count < a->max) {
            a->files[(*count)++] = arg;
        } else {
            return cli_usage_error(a->cmd, a->too_many, arg);
        }
    }
    return CLI_OK;
}

int cli_take_text(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    *(const char **)to = value;
    return CLI_OK;
}

int cli_take_item(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    cli_list *list = to;
    list->items[list->count++] = value;
    return CLI_OK;
}

int cli_take_seconds(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    cli_number *n = to;
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !isfinite(v) || v < 0) return CLI_REFUSED;
    n->value = v;
    n->text = value;
    return CLI_OK;
}

int cli_take_seed(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    if (!value[0] || value[0] == '-') return CLI_REFUSED;
    char *end;
    unsigned long long v = strtoull(value, &end, 0);
    if (*end) return CLI_REFUSED;
    *(uint64_t *)to = v;
    return CLI_OK;
}

int cli_take_height(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !isfinite(v) || fabs(v) > 1e30) return CLI_REFUSED;
    *(float *)to = (float)v;
    return CLI_OK;
}

int cli_take_ala_format(const char *cmd, const char *name, const char *value, void *to)
{
    (void)cmd, (void)name;
    if (strcmp(value, "1") != 0 && strcmp(value, "2") != 0) return CLI_REFUSED;
    *(int *)to = value[0] - '0';
    return CLI_OK;
}

int cli_take_texture_place(const char *cmd, const char *name, const char *value, void *to)
{
    ferry_place_kind kind;
    ferry_error err;
    if (ferry_places_kind(value, &kind, &err) != FERRY_OK)
        return cli_usage_error(cmd, "--textures %s: %s", value, err.message);
    if (kind == FERRY_PLACE_NONE)
        return cli_usage_error(cmd, "--textures %s: neither a folder nor an archive (MEG, PBO)", value);
    return cli_take_item(cmd, name, value, to);
}

void cli_print_error(const char *file, const ferry_error *err)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    fprintf(stderr, "%s: error: %s\n", CLI_TXT(file), CLI_TXT(line));
}

void cli_print_entry_message(void *cmd, const ferry_message *m)
{
    const char *rule = m->rule ? m->rule : "";
    if (m->error)
        cli_print_error(m->file ? m->file : "", m->error);
    else if (cmd && strcmp(rule, FERRY_WALK_FOLDER_UNREADABLE) == 0)
        fprintf(stderr, "ferry %s: cannot read the folder %s: %s\n", (const char *)cmd, CLI_TXT(m->file), CLI_TXT(m->text));
    else if (cmd && strcmp(rule, FERRY_WALK_FOLDER_REVISITED) == 0)
        fprintf(stderr, "ferry %s: skipping %s: %s\n", (const char *)cmd, CLI_TXT(m->file), CLI_TXT(m->text));
    else if (m->file)
        fprintf(stderr, "%s: %s\n", CLI_TXT(m->file), CLI_TXT(m->text));
    else
        fprintf(stderr, "%s\n", CLI_TXT(m->text));
}

const char *cli_format_name(ferry_format format)
{
    const ferry_format_desc *d = ferry_format_describe(format);
    return d ? d->name : NULL;
}

static json_t *error_json(const ferry_error *err)
{
    json_t *j = json_object();
    json_object_set_new(j, "code", json_string(ferry_result_name(err->code)));
    json_t *offset = err->offset == FERRY_NO_OFFSET ? json_null() : json_integer((json_int_t)err->offset);
    json_object_set_new(j, "offset", offset);
    cli_json_set_text(j, "path", err->path);
    cli_json_set_text(j, "message", err->message);
    return j;
}

void cli_json_append_failure(json_t *report, const char *file, const char *format, const ferry_error *err)
{
    json_t *j = json_object();
    cli_json_set_text(j, "file", file);
    json_object_set_new(j, "format", format ? json_string(format) : json_null());
    json_object_set_new(j, "read_error", error_json(err));
    json_object_set_new(j, "valid", json_false());
    json_array_append_new(report, j);
}

/* The library's Latin-1 rule (ferry_text_utf8) for the JSON the tool
 * still builds itself (validate and batch reports): `text` as object[key],
 * or appended to `array` (object[key]); when it is read as Latin-1, its
 * key ("file", "names/3") goes into the object's "latin1" list. */
void cli_json_append_text(json_t *object, const char *key, json_t *array, const char *text)
{
    json_t *value = NULL;
    char mark[256] = "";
    if (text) {
        ferry_buffer utf8 = {0};
        if (ferry_text_utf8(text, strlen(text), &utf8)) {
            if (array)
                snprintf(mark, sizeof mark, "%s/%zu", key, json_array_size(array));
            else
                snprintf(mark, sizeof mark, "%s", key);
        }
        value = json_stringn(utf8.size ? (const char *)utf8.data : "", utf8.size);
        ferry_buffer_free(&utf8);
    }
    if (!value) value = json_null();
    if (array)
        json_array_append_new(array, value);
    else
        json_object_set_new(object, key, value);
    if (!mark[0]) return;
    json_t *latin1 = json_object_get(object, "latin1");
    if (!latin1) json_object_set_new(object, "latin1", latin1 = json_array());
    json_array_append_new(latin1, json_string(mark));
}

void cli_json_set_text(json_t *object, const char *key, const char *text)
{
    cli_json_append_text(object, key, NULL, text);
}

/* ---- reading the library's JSON ---- */

/* A string the library read as Latin-1 (each character U+0000..U+00FF,
 * as UTF-8), made the bytes it stands for again. */
static json_t *latin1_bytes(const json_t *value)
{
    const unsigned char *s = (const unsigned char *)json_string_value(value);
    size_t n = json_string_length(value), o = 0;
    char *bytes = malloc(n + 1);
    if (!s || !bytes) {
        free(bytes);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= 0xC0 && i + 1 < n) {
            bytes[o++] = (char)(((s[i] & 0x03) << 6) | (s[i + 1] & 0x3F));
            i++;
        } else {
            bytes[o++] = (char)s[i];
        }
    }
    json_t *raw = json_stringn_nocheck(bytes, o);
    free(bytes);
    return raw;
}

/* Every string a "latin1" array lists, in `v` and below, as its bytes. */
static void decode_latin1(json_t *v)
{
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) decode_latin1(json_array_get(v, i));
        return;
    }
    if (!json_is_object(v)) return;
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) decode_latin1(x);
    json_t *list = json_object_get(v, "latin1");
    for (size_t i = 0; i < json_array_size(list); i++) {
        const char *key = json_string_value(json_array_get(list, i));
        if (!key) continue;
        const char *slash = strrchr(key, '/');
        if (!slash) { /* "file" */
            json_t *raw = latin1_bytes(json_object_get(v, key));
            if (raw) json_object_set_new(v, key, raw);
            continue;
        }
        /* "names/3": item 3 of the array "names" */
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(slash - key), key);
        json_t *array = json_object_get(v, name);
        size_t at = (size_t)strtoull(slash + 1, NULL, 10);
        json_t *raw = latin1_bytes(json_array_get(array, at));
        if (raw) json_array_set_new(array, at, raw);
    }
}

json_t *cli_library_json(const char *file, ferry_buffer *text, cli_json_use use)
{
    json_error_t jerr;
    json_t *j = json_loadb((const char *)text->data, text->size, JSON_ALLOW_NUL, &jerr);
    if (!j) fprintf(stderr, "%s: error: the library's JSON does not parse: %s\n", CLI_TXT(file), jerr.text);
    ferry_buffer_free(text);
    if (j && use == CLI_JSON_TEXT) decode_latin1(j);
    return j;
}

json_t *cli_asset_json(const char *file, const ferry_asset *asset, ferry_info_detail detail, cli_json_use use)
{
    ferry_info_options o = {detail, use != CLI_JSON_OUTPUT, use == CLI_JSON_TEXT};
    ferry_buffer text = {0};
    ferry_error err;
    if (ferry_asset_info(asset, &o, &text, &err) != FERRY_OK) {
        cli_print_error(file, &err);
        ferry_buffer_free(&text);
        return NULL;
    }
    return cli_library_json(file, &text, use);
}

const char *cli_jstr(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

size_t cli_jlen(const json_t *object, const char *key) { return json_string_length(json_object_get(object, key)); }

long long cli_jint(const json_t *object, const char *key)
{
    return (long long)json_integer_value(json_object_get(object, key));
}

double cli_jnum(const json_t *value)
{
    if (json_is_number(value)) return json_number_value(value);
    const char *s = json_string_value(value);
    if (s && strcmp(s, "inf") == 0) return INFINITY;
    if (s && strcmp(s, "-inf") == 0) return -INFINITY;
    if (s && strcmp(s, "-nan") == 0) return -NAN;
    return NAN;
}

double cli_jreal(const json_t *object, const char *key) { return cli_jnum(json_object_get(object, key)); }

bool cli_jbool(const json_t *object, const char *key) { return json_is_true(json_object_get(object, key)); }

/* The text of the character at p[0] in `out` (*length of it): a control
 * character (C0, DEL, or C1 as UTF-8 0xC2 0x80..0x9F) as \xNN, any other
 * byte as is. Returns the bytes it takes. */
static size_t escape_at(const unsigned char *p, size_t left, char out[4], size_t *length)
{
    size_t taken = p[0] == 0xC2 && left > 1 && p[1] >= 0x80 && p[1] <= 0x9F ? 2 : 1;
    unsigned code = p[taken - 1];
    out[0] = (char)code;
    *length = 1;
    if (taken == 1 && code >= 0x20 && code != 0x7F) return 1;
    static const char hex_digits[] = "0123456789abcdef";
    memcpy(out, "\\x", 2);
    out[2] = hex_digits[code >> 4];
    out[3] = hex_digits[code & 15];
    *length = 4;
    return taken;
}

const char *cli_text(const char *text, char *buf, size_t capacity)
{
    if (!text) text = "";
    size_t n = strlen(text), o = 0;
    for (size_t i = 0; i < n;) {
        char piece[4];
        size_t length, taken = escape_at((const unsigned char *)text + i, n - i, piece, &length);
        if (o + length + 4 > capacity) {
            if (capacity >= 4) memcpy(buf + (o < capacity - 4 ? o : capacity - 4), "...", 4);
            return buf;
        }
        memcpy(buf + o, piece, length);
        o += length;
        i += taken;
    }
    buf[o] = '\0';
    return buf;
}

void cli_fput_textn(FILE *f, const char *text, size_t n)
{
    for (size_t i = 0; i < n;) {
        char piece[4];
        size_t length;
        i += escape_at((const unsigned char *)text + i, n - i, piece, &length);
        fwrite(piece, 1, length, f);
    }
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

void cli_print_message(void *cmd, const ferry_message *m)
{
    const char *kind = m->kind == FERRY_MESSAGE_ERROR ? "error: " : m->kind == FERRY_MESSAGE_WARNING ? "warning: " : "";
    if (m->file)
        fprintf(stderr, "%s: %s%s\n", CLI_TXT(m->file), kind, CLI_TXT(m->text));
    else if (m->kind == FERRY_MESSAGE_NOTE)
        fprintf(stderr, "%s\n", CLI_TXT(m->text));
    else
        fprintf(stderr, "ferry %s: %s\n", (const char *)cmd, CLI_TXT(m->text));
}

void cli_bprintf(ferry_buffer *out, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text) vsnprintf(text, (size_t)n + 1, fmt, again);
    if (!text || !ferry_buffer_append(out, text, (size_t)n)) out->failed = true;
    free(text);
    va_end(again);
    va_end(ap);
}

void cli_print_json(json_t *value)
{
    json_dumpf(value, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    fputc('\n', stdout);
}

void cli_progress_report(void *progress, size_t done, size_t total, const char *item)
{
    cli_progress *p = progress;
    if (!item && !done) { /* the first call: the total known */
        p->active = total >= 8 && cli_stderr_is_terminal();
        p->total = total;
        p->done = 0;
    }
    if (!item) return;
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
