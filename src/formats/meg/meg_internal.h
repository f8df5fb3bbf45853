/* Internal to the MEG module: what the validator and the file source share. */
#ifndef FERRY_MEG_INTERNAL_H
#define FERRY_MEG_INTERNAL_H

#include "../../core/core.h"

#include <stddef.h>
#include <stdint.h>

/* Names as the game compares them: ASCII upper case, '/' as '\\'. */
static inline int fy_meg_name_char(char c) { return fy_archive_name_char(c, true); }
static inline int fy_meg_name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    return fy_archive_name_cmp(a, na, b, nb, true);
}

/* Sorts the numbers v[0..n) by cmp (negative, 0, positive), keeping equal
 * ones in their order: a merge sort over the scratch tmp[0..n), so that
 * many records are not compared pair by pair. */
typedef int (*fy_meg_cmp)(const void *ctx, uint32_t a, uint32_t b);
void fy_meg_sort(uint32_t *v, uint32_t *tmp, size_t n, fy_meg_cmp cmp, const void *ctx);

#endif
