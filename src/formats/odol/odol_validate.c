/* Checking an ODOL model against the rules of the format. */
#include "odol_internal.h"

size_t ferry_odol_validate(const ferry_odol_model *model, ferry_diagnostics *diags)
{
    (void)model;
    return diags->error_count;
}
