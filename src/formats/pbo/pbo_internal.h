/* Internal to the PBO module: what the reader, validator, packer and file
 * source share. */
#ifndef FERRY_PBO_INTERNAL_H
#define FERRY_PBO_INTERNAL_H

#include <ferry/pbo.h>

#include <stdbool.h>

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
