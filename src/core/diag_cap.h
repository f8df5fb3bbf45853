/* Internal: bounding repeated diagnostics, the one mechanism every
 * validator uses. One bad export setting repeats a problem thousands of
 * times: a scope (a part of the model: a sub-mesh, an emitter, a LOD, the
 * whole file) lists the first `cap` reports of each rule and then one line
 * per rule with how many more there were. Not a public header. */
#ifndef FERRY_CORE_DIAG_CAP_H
#define FERRY_CORE_DIAG_CAP_H

#include "core.h"

#define FY_DIAG_SCOPE_RULES 24

typedef struct fy_diag_rule_tally {
    const char *rule;
    size_t count;            /* reports of the rule in the scope */
    ferry_severity severity; /* the worst of those left out */
    uint64_t offset;         /* of the first report left out */
    char path[96];           /* of the first report left out (a copy, as long as a diagnostic's) */
} fy_diag_rule_tally;

typedef struct fy_diag_scope {
    size_t cap;
    /* Reports left out still count in the diagnostics' error and warning
     * totals (and the summary line does not), for validators whose totals
     * promise every problem found (ALM). Off: a summary is one diagnostic. */
    bool count_left_out;
    fy_diag_rule_tally rules[FY_DIAG_SCOPE_RULES];
    size_t rule_count; /* rules past FY_DIAG_SCOPE_RULES are never capped */
} fy_diag_scope;

/* An empty scope listing `cap` reports per rule (count_left_out off: set
 * it after opening). */
void fy_diag_scope_open(fy_diag_scope *s, size_t cap);
/* Whether a report is listed (true) or left out and tallied (false). A
 * NULL scope lists everything. `diags` receives the count of a report left
 * out when the scope counts them. */
bool fy_diag_scope_admit(fy_diag_scope *s, ferry_diagnostics *diags, ferry_severity severity, uint64_t offset,
                         const char *path, const char *rule);
/* A report: listed unless the scope leaves it out (then tallied); true when
 * listed, and then an error adds one to *errors (when not NULL). Every
 * validator's report() is this. */
bool fy_diag_report(fy_diag_scope *s, ferry_diagnostics *diags, size_t *errors, ferry_severity severity,
                    uint64_t offset, const char *path, const char *rule, const char *fmt, ...) FY_PRINTF(8, 9);

/* Closes the scope: one line per rule that went over the cap, "<label>: N
 * more '<rule>' problems not listed" (without "<label>: " when label is
 * NULL), as severe as the worst report it stands for, located at the first
 * report left out, or at (offset, path) when `at_scope` is true. Returns how
 * many of those lines are errors; the scope is empty again. */
size_t fy_diag_scope_close(fy_diag_scope *s, ferry_diagnostics *diags, const char *label, bool at_scope,
                           uint64_t offset, const char *path);

#endif
