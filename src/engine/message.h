/* Sending ferry_messages (ferry.h) from the engine's jobs: the texts the
 * ferry tool prints, made once here. Not a public header. */
#ifndef FERRY_ENGINE_MESSAGE_H
#define FERRY_ENGINE_MESSAGE_H

#include "../core/core.h"

#include <ferry/ferry.h>

/* Where a job's messages go (fn NULL: nowhere). */
typedef struct fy_messenger {
    ferry_message_fn fn;
    void *user;
} fy_messenger;

/* A message of `kind` about `file` (NULL: the text names it). */
void fy_say(const fy_messenger *m, ferry_message_kind kind, const char *file, const char *rule, const char *fmt, ...)
    FY_PRINTF(5, 6);
/* An error as one line (ferry_error_format: offset, place, message). */
void fy_say_error(const fy_messenger *m, const char *file, const ferry_error *err);
/* A diagnostic as ferry validate prints it: "[offset 0x.. (..), ][chunk
 * 0x..|at PLACE: ]MESSAGE [RULE]", its severity the message's kind. */
void fy_say_diagnostic(const fy_messenger *m, const char *file, const ferry_diagnostic *d);
void fy_say_diagnostics(const fy_messenger *m, const char *file, const ferry_diagnostics *d);

#endif
