/* The engine's messages (message.h). */
#include "message.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fy_vmessage(ferry_message_fn fn, void *user, ferry_message_kind kind, const char *file, const char *rule,
                 const ferry_error *error, const char *fmt, va_list ap)
{
    if (!fn) return;
    char text[8192];
    vsnprintf(text, sizeof text, fmt, ap);
    ferry_message m = {kind, file, text, rule, error};
    fn(user, &m);
}

void fy_message(ferry_message_fn fn, void *user, ferry_message_kind kind, const char *file, const char *rule,
                const ferry_error *error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fy_vmessage(fn, user, kind, file, rule, error, fmt, ap);
    va_end(ap);
}

void fy_say(const fy_messenger *m, ferry_message_kind kind, const char *file, const char *rule, const char *fmt, ...)
{
    if (!m) return;
    va_list ap;
    va_start(ap, fmt);
    fy_vmessage(m->fn, m->user, kind, file, rule, NULL, fmt, ap);
    va_end(ap);
}

void fy_say_error(const fy_messenger *m, const char *file, const ferry_error *err)
{
    if (!m || !m->fn) return;
    char line[512];
    ferry_error_format(err, line, sizeof line);
    ferry_message msg = {FERRY_MESSAGE_ERROR, file, line, NULL, err};
    m->fn(m->user, &msg);
}

void fy_diagnostic_where(const ferry_diagnostic *d, char *where, size_t capacity)
{
    size_t n = 0;
    where[0] = 0;
    if (d->offset != FERRY_NO_OFFSET)
        n += (size_t)snprintf(where, capacity, "offset 0x%llx (%llu), ", (unsigned long long)d->offset,
                              (unsigned long long)d->offset);
    /* Alamo places are chunk paths ("0x400/0x401"); other formats name records. */
    if (d->path[0] && n < capacity)
        snprintf(where + n, capacity - n, "%s %s: ", strncmp(d->path, "0x", 2) == 0 ? "chunk" : "at", d->path);
}

void ferry_diagnostic_format(const ferry_diagnostic *d, char *out, size_t out_size)
{
    if (!out || !out_size) return;
    if (!d) {
        snprintf(out, out_size, "no diagnostic");
        return;
    }
    char where[200];
    fy_diagnostic_where(d, where, sizeof where);
    snprintf(out, out_size, "%s%s [%s]", where, d->message, d->rule);
}

void fy_say_diagnostic(const fy_messenger *m, const char *file, const ferry_diagnostic *d)
{
    if (!m || !m->fn) return;
    char line[640]; /* room for the longest place, message and rule */
    ferry_diagnostic_format(d, line, sizeof line);
    fy_say(m, d->severity == FERRY_SEVERITY_ERROR ? FERRY_MESSAGE_ERROR : FERRY_MESSAGE_WARNING, file, d->rule, "%s",
           line);
}

void fy_say_diagnostics(const fy_messenger *m, const char *file, const ferry_diagnostics *d)
{
    for (size_t i = 0; d && i < d->count; i++) fy_say_diagnostic(m, file, &d->items[i]);
}

/* ---- messages kept (ferry_message_list) ---- */

static char *copy_or_null(const char *s) { return s ? fy_strdup(s) : NULL; }

static void message_clear(ferry_message *m)
{
    free((char *)m->file);
    free((char *)m->text);
    free((char *)m->rule);
    free((ferry_error *)m->error);
}

void ferry_message_list_add(void *user, const ferry_message *m)
{
    ferry_message_list *l = user;
    if (!l || !m) return;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 8;
        ferry_message *grown = realloc(l->items, cap * sizeof *grown);
        if (!grown) return;
        l->items = grown;
        l->capacity = cap;
    }
    ferry_message *k = &l->items[l->count];
    k->kind = m->kind;
    k->file = copy_or_null(m->file);
    k->text = fy_strdup(m->text ? m->text : "");
    k->rule = copy_or_null(m->rule);
    ferry_error *e = m->error ? malloc(sizeof *e) : NULL;
    if (e) *e = *m->error;
    k->error = e;
    /* Kept whole or not at all. */
    if (!k->text || (m->file && !k->file) || (m->rule && !k->rule) || (m->error && !e))
        message_clear(k);
    else
        l->count++;
}

void ferry_message_list_free(ferry_message_list *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->count; i++) message_clear(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}
