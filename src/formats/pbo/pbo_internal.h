/* Internal to the PBO module: what the reader, validator, packer and file
 * source share. */
#ifndef FERRY_PBO_INTERNAL_H
#define FERRY_PBO_INTERNAL_H

#include <ferry/pbo.h>

#include "../../core/core.h"

#include <stdbool.h>

/* Names as the engine compares them: ASCII lower case, '/' as '\\'. */
static inline int fy_pbo_name_char(char c) { return fy_archive_name_char(c, false); }
static inline int fy_pbo_name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    return fy_archive_name_cmp(a, na, b, nb, false);
}

/* Property keys a and b equal ignoring ASCII case, as the engine compares them. */
static inline bool fy_pbo_key_eq(const char *a, size_t na, const char *b, size_t nb)
{
    if (na != nb) return false;
    for (size_t i = 0; i < na; i++) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
        char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] + 32) : b[i];
        if (x != y) return false;
    }
    return true;
}

/* Why a stored name could lead outside a folder it is extracted into
 * (absolute, a drive letter, an empty, '.' or '..' segment), or NULL. */
const char *fy_pbo_unsafe_name(const char *name, size_t length);

#endif
