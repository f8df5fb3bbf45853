/* ferry: configs as text (config.cpp, text .rvmat): the parser and the
 * text writer. docs/formats/config.md says which subset is read. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

#define MAX_DEFINES 256

typedef struct text_parser {
    ferry_config *cfg;
    const char *src; /* the input with preprocessor lines and skipped branches blanked (offsets kept) */
    size_t size, pos;
    ferry_error *err;
    const ferry_config_class *cls; /* for error paths */
    bool failed;
} text_parser;

static bool is_name_char(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static void vfail(text_parser *p, size_t at, ferry_result code, const char *fmt, va_list ap)
{
    if (p->failed) return;
    p->failed = true;
    char path[96];
    fy_cfg_class_path(p->cls, path, sizeof path);
    char msg[200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t line = 1, col = 1;
    for (size_t i = 0; i < at && i < p->size; i++) {
        if (p->src[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    fy_error_set(p->err, code, at, path, "line %zu column %zu: %s", line, col, msg);
}

static void fail(text_parser *p, size_t at, ferry_result code, const char *fmt, ...) FY_PRINTF(4, 5);
static void fail(text_parser *p, size_t at, ferry_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(p, at, code, fmt, ap);
    va_end(ap);
}

/* ---- the preprocessor subset: lines, conditionals, names without values ---- */

static size_t word_at(const char *s, size_t i, size_t end, size_t *len)
{
    while (i < end && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t j = i;
    while (j < end && is_name_char((unsigned char)s[j])) j++;
    *len = j - i;
    return i;
}

static bool defined(char **defs, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(defs[i]) == len && memcmp(defs[i], name, len) == 0) return true;
    return false;
}

/* Blanks (with spaces, newlines kept) every directive line and every line of
 * a branch not taken; refuses what it does not do. */
static bool preprocess(text_parser *p, char *s, size_t size)
{
    char *defs[MAX_DEFINES];
    size_t ndefs = 0;
    bool active[FERRY_CONFIG_MAX_DEPTH + 1];
    bool taken[FERRY_CONFIG_MAX_DEPTH + 1];
    size_t level = 0; /* conditionals open */
    bool in_comment = false, ok = true;
    active[0] = true;
    size_t i = 0;
    while (i < size && ok) {
        size_t line = i, eol = i;
        while (eol < size && s[eol] != '\n') eol++;
        size_t k = line;
        while (k < eol && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r')) k++;
        bool directive = !in_comment && k < eol && s[k] == '#';
        /* track block comments on this line (strings are not looked into: good enough for the subset) */
        for (size_t j = line; j + 1 < eol; j++) {
            if (!in_comment && s[j] == '/' && s[j + 1] == '/') break;
            if (!in_comment && s[j] == '/' && s[j + 1] == '*') {
                in_comment = true;
                j++;
            } else if (in_comment && s[j] == '*' && s[j + 1] == '/') {
                in_comment = false;
                j++;
            }
        }
        if (directive) {
            /* a line continued with a backslash belongs to the directive */
            while (eol > line && s[eol - 1 - (eol > 0 && s[eol - 1] == '\r')] == '\\' && eol < size) {
                eol++;
                while (eol < size && s[eol] != '\n') eol++;
            }
            size_t dlen, d = word_at(s, k + 1, eol, &dlen);
            size_t nlen, n = word_at(s, d + dlen, eol, &nlen);
            bool on = active[level];
            if ((dlen == 5 && !memcmp(s + d, "ifdef", 5)) || (dlen == 6 && !memcmp(s + d, "ifndef", 6))) {
                if (level >= FERRY_CONFIG_MAX_DEPTH) {
                    fail(p, k, FERRY_ERR_LIMIT, "conditionals nested more than %d deep", FERRY_CONFIG_MAX_DEPTH);
                    return false;
                }
                bool is = defined(defs, ndefs, s + n, nlen) == (dlen == 5);
                level++;
                active[level] = on && is;
                taken[level] = is;
            } else if (dlen == 4 && !memcmp(s + d, "else", 4)) {
                if (!level) {
                    fail(p, k, FERRY_ERR_MALFORMED, "#else without #ifdef or #ifndef");
                    return false;
                }
                active[level] = active[level - 1] && !taken[level];
                taken[level] = true;
            } else if (dlen == 5 && !memcmp(s + d, "endif", 5)) {
                if (!level) {
                    fail(p, k, FERRY_ERR_MALFORMED, "#endif without #ifdef or #ifndef");
                    return false;
                }
                level--;
            } else if (!on) {
                /* any other directive in a branch not taken is skipped */
            } else if (dlen == 6 && !memcmp(s + d, "define", 6) && nlen) {
                size_t rest = n + nlen;
                while (rest < eol && (s[rest] == ' ' || s[rest] == '\t' || s[rest] == '\r')) rest++;
                if (rest < eol) {
                    fail(p, k, FERRY_ERR_UNSUPPORTED,
                         "#define %.*s with a value or parameters: ferry does not expand macros", (int)nlen, s + n);
                    return false;
                }
                if (ndefs >= MAX_DEFINES) {
                    fail(p, k, FERRY_ERR_LIMIT, "more than %d #define", MAX_DEFINES);
                    return false;
                }
                char *name = ferry_arena_alloc(p->cfg->arena, nlen + 1);
                if (!name) {
                    fail(p, k, FERRY_ERR_LIMIT, "the memory limit is reached");
                    return false;
                }
                memcpy(name, s + n, nlen);
                defs[ndefs++] = name;
            } else if (dlen == 5 && !memcmp(s + d, "undef", 5)) {
                for (size_t j = 0; j < ndefs; j++)
                    if (strlen(defs[j]) == nlen && !memcmp(defs[j], s + n, nlen)) defs[j] = defs[--ndefs];
            } else {
                fail(p, k, FERRY_ERR_UNSUPPORTED, "the directive #%.*s: ferry does not run the preprocessor",
                     (int)(dlen ? dlen : 1), dlen ? s + d : "#");
                return false;
            }
        }
        if (directive || !active[level])
            for (size_t j = line; j < eol; j++)
                if (s[j] != '\n') s[j] = ' ';
        i = eol < size ? eol + 1 : eol;
    }
    if (level) {
        fail(p, size, FERRY_ERR_MALFORMED, "%zu #ifdef/#ifndef without #endif", level);
        return false;
    }
    return ok;
}

/* ---- lexing ---- */

static void skip_space(text_parser *p)
{
    while (p->pos < p->size) {
        char ch = p->src[p->pos];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v') {
            p->pos++;
        } else if (ch == '/' && p->pos + 1 < p->size && p->src[p->pos + 1] == '/') {
            while (p->pos < p->size && p->src[p->pos] != '\n') p->pos++;
        } else if (ch == '/' && p->pos + 1 < p->size && p->src[p->pos + 1] == '*') {
            size_t at = p->pos;
            p->pos += 2;
            while (p->pos + 1 < p->size && !(p->src[p->pos] == '*' && p->src[p->pos + 1] == '/')) p->pos++;
            if (p->pos + 1 >= p->size) {
                fail(p, at, FERRY_ERR_TRUNCATED, "a /* comment that never ends");
                p->pos = p->size;
                return;
            }
            p->pos += 2;
        } else if ((unsigned char)ch == 0xEF && p->pos == 0 && p->size >= 3 && (unsigned char)p->src[1] == 0xBB &&
                   (unsigned char)p->src[2] == 0xBF) {
            p->pos += 3; /* UTF-8 byte-order mark */
        } else {
            return;
        }
    }
}

static bool peek(text_parser *p, char ch)
{
    skip_space(p);
    return p->pos < p->size && p->src[p->pos] == ch;
}

static bool expect(text_parser *p, char ch, const char *where)
{
    if (peek(p, ch)) {
        p->pos++;
        return true;
    }
    if (p->pos >= p->size)
        fail(p, p->pos, FERRY_ERR_TRUNCATED, "the text ends where '%c' was expected %s", ch, where);
    else
        fail(p, p->pos, FERRY_ERR_MALFORMED, "expected '%c' %s, found '%c'", ch, where, p->src[p->pos]);
    return false;
}

static char *dup_range(text_parser *p, const char *s, size_t len)
{
    char *out = ferry_arena_alloc(p->cfg->arena, len + 1);
    if (!out) {
        fail(p, p->pos, FERRY_ERR_LIMIT, "the memory limit (%zu bytes) is reached",
             ferry_arena_limit(p->cfg->arena));
        return NULL;
    }
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

static const char *name(text_parser *p, const char *what)
{
    skip_space(p);
    size_t at = p->pos;
    while (p->pos < p->size && is_name_char((unsigned char)p->src[p->pos])) p->pos++;
    if (p->pos == at) {
        if (at >= p->size)
            fail(p, at, FERRY_ERR_TRUNCATED, "the text ends where %s was expected", what);
        else
            fail(p, at, FERRY_ERR_MALFORMED, "expected %s (letters, digits, '_'), found '%c'", what, p->src[at]);
        return NULL;
    }
    return dup_range(p, p->src + at, p->pos - at);
}

static bool word_is(const char *w, const char *kw) { return w && !strcmp(w, kw); }

/* A quoted string: "" stands for one quote. */
static const char *quoted(text_parser *p)
{
    size_t at = p->pos++;
    size_t len = 0, i = p->pos;
    for (;;) {
        if (i >= p->size) {
            fail(p, at, FERRY_ERR_TRUNCATED, "a string that never ends");
            return NULL;
        }
        if (p->src[i] == '"') {
            if (i + 1 < p->size && p->src[i + 1] == '"') {
                i += 2;
                len++;
                continue;
            }
            break;
        }
        i++;
        len++;
    }
    char *out = ferry_arena_alloc(p->cfg->arena, len + 1);
    if (!out) {
        fail(p, at, FERRY_ERR_LIMIT, "the memory limit is reached");
        return NULL;
    }
    size_t o = 0;
    for (size_t j = p->pos; j < i; j++) {
        out[o++] = p->src[j];
        if (p->src[j] == '"') j++;
    }
    p->pos = i + 1;
    return out;
}

/* A string value: quoted strings joined by `\n` between them ("a" \n "b"
 * is "a", a newline, "b", as the engine reads it). */
static const char *string_value(text_parser *p)
{
    const char *s = quoted(p);
    while (s) {
        skip_space(p);
        if (!(p->pos + 1 < p->size && p->src[p->pos] == '\\' && p->src[p->pos + 1] == 'n')) break;
        p->pos += 2;
        skip_space(p);
        if (!(p->pos < p->size && p->src[p->pos] == '"')) {
            fail(p, p->pos, FERRY_ERR_MALFORMED, "expected a string after \\n");
            return NULL;
        }
        const char *t = quoted(p);
        if (!t) return NULL;
        size_t a = strlen(s), b = strlen(t);
        char *joined = ferry_arena_alloc(p->cfg->arena, a + b + 2);
        if (!joined) {
            fail(p, p->pos, FERRY_ERR_LIMIT, "the memory limit is reached");
            return NULL;
        }
        memcpy(joined, s, a);
        joined[a] = '\n';
        memcpy(joined + a + 1, t, b + 1);
        s = joined;
    }
    return s;
}

/* What an unquoted word is: an int (decimal or 0x hex, within 32 bits), a
 * float (the whole word read as a number), else a string. */
static void classify(text_parser *p, const char *w, ferry_config_value *v)
{
    size_t len = strlen(w);
    if (len > 8 && !strncmp(w, "__EVAL(", 7) && w[len - 1] == ')') {
        v->type = FERRY_CONFIG_EXPRESSION;
        v->string = dup_range(p, w + 7, len - 8);
        return;
    }
    const char *s = w;
    if (*s == '-' || *s == '+') s++;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2];
    bool digits = *s != '\0';
    for (const char *q = hex ? s + 2 : s; *q; q++) {
        int ch = (unsigned char)*q;
        if (!(ch >= '0' && ch <= '9') && !(hex && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')))) {
            digits = false;
            break;
        }
    }
    if (digits) {
        errno = 0;
        long long n = strtoll(w, NULL, hex ? 16 : 10);
        if (!errno && n >= INT32_MIN && n <= INT32_MAX) {
            v->type = FERRY_CONFIG_INT;
            v->i = n;
            return;
        }
    }
    char *end = NULL;
    bool has_digit = strpbrk(w, "0123456789") != NULL;
    float f = has_digit ? strtof(w, &end) : 0.0f;
    if (has_digit && end && end != w && *end == '\0' && !strpbrk(w, "xXnN")) {
        v->type = FERRY_CONFIG_FLOAT;
        v->f = f;
        return;
    }
    v->type = FERRY_CONFIG_STRING;
    v->string = w;
}

/* An unquoted value: the text up to one of `stops`, trimmed. */
static bool bare(text_parser *p, const char *stops, ferry_config_value *v)
{
    size_t at = p->pos;
    while (p->pos < p->size && !strchr(stops, p->src[p->pos]) && p->src[p->pos] != '\n') p->pos++;
    size_t end = p->pos;
    while (end > at && strchr(" \t\r", p->src[end - 1])) end--;
    if (end == at) {
        if (p->pos >= p->size)
            fail(p, at, FERRY_ERR_TRUNCATED, "the text ends where a value was expected");
        else
            fail(p, at, FERRY_ERR_MALFORMED, "expected a value, found '%c'", p->src[p->pos]);
        return false;
    }
    const char *w = dup_range(p, p->src + at, end - at);
    if (!w) return false;
    classify(p, w, v);
    return !p->failed;
}

static bool array(text_parser *p, ferry_config_value *v, int depth)
{
    v->type = FERRY_CONFIG_ARRAY;
    if (depth >= FERRY_CONFIG_MAX_DEPTH) {
        fail(p, p->pos, FERRY_ERR_LIMIT, "arrays nested more than %d deep", FERRY_CONFIG_MAX_DEPTH);
        return false;
    }
    if (!expect(p, '{', "to open an array")) return false;
    size_t cap = 0;
    for (;;) {
        if (peek(p, '}')) {
            p->pos++;
            return true;
        }
        if (p->failed) return false;
        if (v->count == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            ferry_config_value *items = ferry_arena_alloc(p->cfg->arena, ncap * sizeof *items);
            if (!items) {
                fail(p, p->pos, FERRY_ERR_LIMIT, "the memory limit is reached");
                return false;
            }
            if (v->count) memcpy(items, v->items, v->count * sizeof *items);
            v->items = items;
            cap = ncap;
        }
        ferry_config_value *item = &v->items[v->count++];
        skip_space(p);
        if (p->pos < p->size && p->src[p->pos] == '{') {
            if (!array(p, item, depth + 1)) return false;
        } else if (p->pos < p->size && p->src[p->pos] == '"') {
            item->type = FERRY_CONFIG_STRING;
            if (!(item->string = string_value(p))) return false;
        } else if (!bare(p, ",};", item)) {
            return false;
        }
        if (peek(p, ',')) {
            p->pos++;
        } else if (!peek(p, '}')) {
            expect(p, '}', "or ',' in an array");
            return false;
        }
    }
}

static ferry_config_entry *add_entry(text_parser *p, fy_cfg_entries *list, size_t at)
{
    if (list->count == list->capacity) {
        size_t ncap = list->capacity ? list->capacity * 2 : 8;
        ferry_config_entry *items = ferry_arena_alloc(p->cfg->arena, ncap * sizeof *items);
        if (!items) {
            fail(p, at, FERRY_ERR_LIMIT, "the memory limit is reached");
            return NULL;
        }
        if (list->count) memcpy(items, list->items, list->count * sizeof *items);
        list->items = items;
        list->capacity = ncap;
    }
    ferry_config_entry *e = &list->items[list->count++];
    memset(e, 0, sizeof *e);
    e->offset = at;
    return e;
}

static bool enum_block(text_parser *p)
{
    if (!expect(p, '{', "after enum")) return false;
    size_t cap = p->cfg->enum_count;
    int32_t next = 0;
    while (!peek(p, '}')) {
        if (p->failed) return false;
        const char *n = name(p, "an enum name");
        if (!n) return false;
        int32_t value = next;
        if (peek(p, '=')) {
            p->pos++;
            skip_space(p);
            ferry_config_value v = {0};
            size_t at = p->pos;
            if (!bare(p, ",}", &v)) return false;
            if (v.type != FERRY_CONFIG_INT) {
                fail(p, at, FERRY_ERR_MALFORMED, "an enum's value must be an integer");
                return false;
            }
            value = (int32_t)v.i;
        }
        next = value + 1;
        if (p->cfg->enum_count == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            ferry_config_enum *e = ferry_arena_alloc(p->cfg->arena, ncap * sizeof *e);
            if (!e) {
                fail(p, p->pos, FERRY_ERR_LIMIT, "the memory limit is reached");
                return false;
            }
            if (p->cfg->enum_count) memcpy(e, p->cfg->enums, p->cfg->enum_count * sizeof *e);
            p->cfg->enums = e;
            cap = ncap;
        }
        p->cfg->enums[p->cfg->enum_count].name = n;
        p->cfg->enums[p->cfg->enum_count++].value = value;
        if (peek(p, ',')) p->pos++;
        else if (!peek(p, '}')) return expect(p, '}', "or ',' in an enum");
    }
    p->pos++;
    return expect(p, ';', "after an enum's '}'");
}

static bool body(text_parser *p, ferry_config_class *cls, int depth)
{
    fy_cfg_entries list = {0};
    for (;;) {
        p->cls = cls;
        skip_space(p);
        if (p->failed) return false;
        size_t at = p->pos;
        if (p->pos >= p->size) {
            if (depth) {
                fail(p, at, FERRY_ERR_TRUNCATED, "the text ends inside class %s (a '};' is missing)", cls->name);
                return false;
            }
            break;
        }
        char ch = p->src[p->pos];
        if (ch == '}') {
            if (!depth) {
                fail(p, at, FERRY_ERR_MALFORMED, "a '}' that closes no class");
                return false;
            }
            p->pos++;
            if (!expect(p, ';', "after a class's '}'")) return false;
            break;
        }
        if (ch == ';') { /* an empty statement */
            p->pos++;
            continue;
        }
        const char *w = name(p, "a class, delete or a name");
        if (!w) return false;
        if (word_is(w, "enum") && peek(p, '{')) {
            if (!enum_block(p)) return false;
            continue;
        }
        ferry_config_entry *e = add_entry(p, &list, at);
        if (!e) return false;
        if (word_is(w, "class") && !peek(p, '=') && !peek(p, '[')) {
            if (!(e->name = name(p, "a class name"))) return false;
            const char *parent = "";
            if (peek(p, ':')) {
                p->pos++;
                if (!(parent = name(p, "a base class name"))) return false;
            }
            if (peek(p, ';') && !*parent) {
                p->pos++;
                e->kind = FERRY_CONFIG_EXTERNAL;
                continue;
            }
            e->kind = FERRY_CONFIG_CLASS;
            if (depth + 1 > FERRY_CONFIG_MAX_DEPTH) {
                fail(p, at, FERRY_ERR_LIMIT, "classes nested more than %d deep", FERRY_CONFIG_MAX_DEPTH);
                return false;
            }
            if (!expect(p, '{', *parent ? "after the base class" : "or ';' after a class name")) return false;
            ferry_config_class *child = ferry_arena_alloc(p->cfg->arena, sizeof *child);
            if (!child) {
                fail(p, at, FERRY_ERR_LIMIT, "the memory limit is reached");
                return false;
            }
            child->name = e->name;
            child->parent = parent;
            child->owner = cls;
            e->cls = child;
            p->cfg->class_count++;
            /* the list may move while the child is read: keep the index */
            size_t index = list.count - 1;
            cls->entries = list.items;
            cls->entry_count = list.count;
            if (!body(p, child, depth + 1)) return false;
            (void)index;
            continue;
        }
        if (word_is(w, "delete") && !peek(p, '=') && !peek(p, '[')) {
            e->kind = FERRY_CONFIG_DELETE;
            if (!(e->name = name(p, "the name of the class to delete"))) return false;
            if (!expect(p, ';', "after delete NAME")) return false;
            continue;
        }
        e->name = w;
        if (peek(p, '[')) {
            p->pos++;
            if (!expect(p, ']', "after '[' (an array is NAME[])")) return false;
            e->kind = FERRY_CONFIG_ARRAY_ENTRY;
            if (peek(p, '+')) {
                p->pos++;
                e->kind = FERRY_CONFIG_ARRAY_APPEND;
                e->append_flags = 1;
            }
            if (!expect(p, '=', "after NAME[]")) return false;
            if (!array(p, &e->value, 0)) return false;
        } else {
            e->kind = FERRY_CONFIG_VALUE;
            if (!expect(p, '=', "after a name")) return false;
            skip_space(p);
            if (p->pos < p->size && p->src[p->pos] == '"') {
                e->value.type = FERRY_CONFIG_STRING;
                if (!(e->value.string = string_value(p))) return false;
            } else if (!bare(p, ";", &e->value)) {
                return false;
            }
        }
        if (!expect(p, ';', "after a value")) return false;
    }
    cls->entries = list.items;
    cls->entry_count = list.count;
    return true;
}

ferry_result fy_cfg_read_text(ferry_config *cfg, const uint8_t *data, size_t size, ferry_error *err)
{
    text_parser p = {.cfg = cfg, .err = err, .size = size, .cls = &cfg->root};
    cfg->root.parent = "";
    cfg->root.name = "";
    cfg->class_count = 1;
    char *copy = malloc(size ? size : 1);
    if (!copy) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory copying the text");
        return FERRY_ERR_NOMEM;
    }
    memcpy(copy, data, size);
    p.src = copy;
    if (preprocess(&p, copy, size)) body(&p, &cfg->root, 0);
    free(copy);
    return p.failed ? (err->code ? err->code : FERRY_ERR_MALFORMED) : FERRY_OK;
}

/* ---- text writer ---- */

void fy_cfg_format_float(float f, char *out, size_t size)
{
    if (isnan(f)) {
        snprintf(out, size, "nan");
        return;
    }
    if (isinf(f)) {
        snprintf(out, size, f > 0 ? "1e39" : "-1e39");
        return;
    }
    int prec = 1;
    for (; prec <= 9; prec++) {
        snprintf(out, size, "%.*g", prec, (double)f);
        if (strtof(out, NULL) == f) break;
    }
    /* "-3.5e+02" reads back, but "-350" is what a person writes: fixed
     * notation for moderate magnitudes when it round-trips too */
    double mag = fabs((double)f);
    if (strpbrk(out, "eE") && mag >= 1e-4 && mag < 1e15) {
        int exponent = (int)floor(log10(mag));
        int decimals = prec - 1 - exponent;
        if (decimals < 0) decimals = 0;
        char fixed[64];
        snprintf(fixed, sizeof fixed, "%.*f", decimals, (double)f);
        if (strtof(fixed, NULL) == f && strlen(fixed) < size) memcpy(out, fixed, strlen(fixed) + 1);
    }
    /* keep it a float when read back: "1" would be an int */
    if (!strpbrk(out, ".eEn")) {
        size_t len = strlen(out);
        if (len + 3 <= size) memcpy(out + len, ".0", 3);
    }
}

static void indent(ferry_buffer *b, int depth)
{
    for (int i = 0; i < depth; i++) fy_buf_append(b, "    ", 4);
}

static void put_text(ferry_buffer *b, const char *s) { fy_buf_append(b, s, strlen(s)); }

static void put_quoted(ferry_buffer *b, const char *s)
{
    fy_buf_u8(b, '"');
    for (; s && *s; s++) {
        if (*s == '\n') { /* the tools' multi-line string: "a" \n "b" */
            fy_buf_append(b, "\" \\n \"", 6);
            continue;
        }
        if (*s == '"') fy_buf_u8(b, '"');
        fy_buf_u8(b, (uint8_t)*s);
    }
    fy_buf_u8(b, '"');
}

static void put_value(ferry_buffer *b, const ferry_config_value *v)
{
    char num[40];
    switch (v->type) {
    case FERRY_CONFIG_STRING: put_quoted(b, v->string); break;
    case FERRY_CONFIG_EXPRESSION:
        put_text(b, "__EVAL(");
        put_text(b, v->string ? v->string : "");
        put_text(b, ")");
        break;
    case FERRY_CONFIG_FLOAT:
        fy_cfg_format_float(v->f, num, sizeof num);
        put_text(b, num);
        break;
    case FERRY_CONFIG_INT:
    case FERRY_CONFIG_INT64:
        snprintf(num, sizeof num, "%lld", (long long)v->i);
        put_text(b, num);
        break;
    case FERRY_CONFIG_ARRAY:
        fy_buf_u8(b, '{');
        for (size_t i = 0; i < v->count; i++) {
            if (i) put_text(b, ",");
            put_value(b, &v->items[i]);
        }
        fy_buf_u8(b, '}');
        break;
    default: put_text(b, "\"\""); break;
    }
}

static void put_class(ferry_buffer *b, const ferry_config_class *cls, int depth)
{
    for (size_t i = 0; i < cls->entry_count; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        indent(b, depth);
        switch (e->kind) {
        case FERRY_CONFIG_CLASS:
            put_text(b, "class ");
            put_text(b, e->name);
            if (e->cls && e->cls->parent && *e->cls->parent) {
                put_text(b, ": ");
                put_text(b, e->cls->parent);
            }
            if (!e->cls || !e->cls->entry_count) {
                put_text(b, " {};\n");
                break;
            }
            put_text(b, "\n");
            indent(b, depth);
            put_text(b, "{\n");
            put_class(b, e->cls, depth + 1);
            indent(b, depth);
            put_text(b, "};\n");
            break;
        case FERRY_CONFIG_VALUE:
            put_text(b, e->name);
            put_text(b, " = ");
            put_value(b, &e->value);
            put_text(b, ";\n");
            break;
        case FERRY_CONFIG_ARRAY_ENTRY:
        case FERRY_CONFIG_ARRAY_APPEND:
            put_text(b, e->name);
            put_text(b, e->kind == FERRY_CONFIG_ARRAY_APPEND ? "[] += " : "[] = ");
            put_value(b, &e->value);
            put_text(b, ";\n");
            break;
        case FERRY_CONFIG_EXTERNAL:
            put_text(b, "class ");
            put_text(b, e->name);
            put_text(b, ";\n");
            break;
        case FERRY_CONFIG_DELETE:
            put_text(b, "delete ");
            put_text(b, e->name);
            put_text(b, ";\n");
            break;
        default: break;
        }
    }
}

ferry_result ferry_config_write_text(const ferry_config *cfg, ferry_buffer *out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!cfg || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_config_write_text: NULL config or out");
        return FERRY_ERR_ARGUMENT;
    }
    if (cfg->enum_count) {
        put_text(out, "enum\n{\n");
        for (size_t i = 0; i < cfg->enum_count; i++) {
            char num[24];
            snprintf(num, sizeof num, " = %d", (int)cfg->enums[i].value);
            put_text(out, "    ");
            put_text(out, cfg->enums[i].name);
            put_text(out, num);
            put_text(out, i + 1 < cfg->enum_count ? ",\n" : "\n");
        }
        put_text(out, "};\n");
    }
    put_class(out, &cfg->root, 0);
    if (out->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the config text");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}
