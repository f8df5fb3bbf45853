/* Bounding repeated diagnostics (diag_cap.h). */
#include "diag_cap.h"

#include <stdio.h>

void fy_diag_scope_open(fy_diag_scope *s, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap;
}

bool fy_diag_scope_admit(fy_diag_scope *s, ferry_diagnostics *diags, ferry_severity severity, uint64_t offset,
                         const char *path, const char *rule)
{
    if (!s) return true;
    fy_diag_rule_tally *r = NULL;
    for (size_t i = 0; i < s->rule_count && !r; i++)
        if (strcmp(s->rules[i].rule, rule) == 0) r = &s->rules[i];
    if (!r) {
        if (s->rule_count == FY_DIAG_SCOPE_RULES) return true;
        r = &s->rules[s->rule_count++];
        memset(r, 0, sizeof *r);
        r->rule = rule;
    }
    if (++r->count <= s->cap) return true;
    if (r->count == s->cap + 1) {
        r->severity = severity;
        r->offset = offset;
        snprintf(r->path, sizeof r->path, "%s", path ? path : "");
    } else if (severity == FERRY_SEVERITY_ERROR) {
        r->severity = FERRY_SEVERITY_ERROR;
    }
    if (s->count_left_out && diags) {
        if (severity == FERRY_SEVERITY_ERROR)
            diags->error_count++;
        else
            diags->warning_count++;
    }
    return false;
}

bool fy_diag_report(fy_diag_scope *s, ferry_diagnostics *diags, size_t *errors, ferry_severity severity,
                    uint64_t offset, const char *path, const char *rule, const char *fmt, ...)
{
    if (!fy_diag_scope_admit(s, diags, severity, offset, path, rule)) return false;
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fy_diag_add(diags, severity, offset, path, rule, "%s", message);
    if (errors && severity == FERRY_SEVERITY_ERROR) (*errors)++;
    return true;
}

size_t fy_diag_scope_close(fy_diag_scope *s, ferry_diagnostics *diags, const char *label, bool at_scope,
                           uint64_t offset, const char *path)
{
    size_t errors = 0;
    for (size_t i = 0; i < s->rule_count; i++) {
        const fy_diag_rule_tally *r = &s->rules[i];
        if (r->count <= s->cap) continue;
        size_t more = r->count - s->cap;
        uint64_t where = at_scope ? offset : r->offset;
        const char *where_path = at_scope ? path : r->path;
        if (label)
            fy_diag_add(diags, r->severity, where, where_path, r->rule, "%s: %zu more '%s' problems not listed", label,
                        more, r->rule);
        else
            fy_diag_add(diags, r->severity, where, where_path, r->rule, "%zu more '%s' problems not listed", more,
                        r->rule);
        if (s->count_left_out && diags) {
            /* The problems were counted one by one; the line is not another. */
            if (r->severity == FERRY_SEVERITY_ERROR)
                diags->error_count--;
            else
                diags->warning_count--;
        } else if (r->severity == FERRY_SEVERITY_ERROR) {
            errors++;
        }
    }
    s->rule_count = 0;
    return errors;
}
