/* Internal to the PBO module: what the reader, validator, packer and file
 * source share. */
#ifndef FERRY_PBO_INTERNAL_H
#define FERRY_PBO_INTERNAL_H

#include <ferry/pbo.h>

/* A name byte as the engine compares names: ASCII lower case, '/' as '\'. */
static inline int fy_pbo_name_char(char c)
{
    if (c >= 'A' && c <= 'Z') return c + 32;
    return c == '/' ? '\\' : (unsigned char)c;
}

/* Names a and b (lengths na, nb) compared as the engine does, then by
 * length: negative, 0 or positive. */
static inline int fy_pbo_name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    for (size_t i = 0; i < n; i++) {
        int x = fy_pbo_name_char(a[i]), y = fy_pbo_name_char(b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return na < nb ? -1 : na > nb;
}

/* Why a stored name could lead outside a folder it is extracted into
 * (absolute, a drive letter, an empty, '.' or '..' segment), or NULL. */
const char *fy_pbo_unsafe_name(const char *name, size_t length);

#endif
