/* The engine's messages (message.h). */
#include "message.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void fy_say(const fy_messenger *m, ferry_message_kind kind, const char *file, const char *rule, const char *fmt, ...)
{
    if (!m || !m->fn) return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    ferry_message msg = {kind, file, text, rule, NULL};
    m->fn(m->user, &msg);
}

void fy_say_error(const fy_messenger *m, const char *file, const ferry_error *err)
{
    if (!m || !m->fn) return;
    char line[512];
    ferry_error_format(err, line, sizeof line);
    ferry_message msg = {FERRY_MESSAGE_ERROR, file, line, NULL, err};
    m->fn(m->user, &msg);
}

void fy_say_diagnostic(const fy_messenger *m, const char *file, const ferry_diagnostic *d)
{
    if (!m || !m->fn) return;
    char where[200] = "";
    size_t n = 0;
    if (d->offset != FERRY_NO_OFFSET)
        n += (size_t)snprintf(where, sizeof where, "offset 0x%llx (%llu), ", (unsigned long long)d->offset,
                              (unsigned long long)d->offset);
    /* Alamo places are chunk paths ("0x400/0x401"); other formats name records. */
    if (d->path[0] && n < sizeof where)
        snprintf(where + n, sizeof where - n, "%s %s: ", strncmp(d->path, "0x", 2) == 0 ? "chunk" : "at", d->path);
    fy_say(m, d->severity == FERRY_SEVERITY_ERROR ? FERRY_MESSAGE_ERROR : FERRY_MESSAGE_WARNING, file, d->rule,
           "%s%s [%s]", where, d->message, d->rule);
}

void fy_say_diagnostics(const fy_messenger *m, const char *file, const ferry_diagnostics *d)
{
    for (size_t i = 0; d && i < d->count; i++) fy_say_diagnostic(m, file, &d->items[i]);
}
