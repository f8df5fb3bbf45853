/* Internal to the MEG module: what the validator and the file source share. */
#ifndef FERRY_MEG_INTERNAL_H
#define FERRY_MEG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* A name byte as the game compares names: ASCII upper case, '/' as '\'. */
static inline int fy_meg_name_char(char c)
{
    if (c >= 'a' && c <= 'z') return c - 32;
    return c == '/' ? '\\' : (unsigned char)c;
}

/* Names a and b as the game orders them (fy_meg_name_char byte by byte,
 * then the shorter first). */
static inline int fy_meg_name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    for (size_t i = 0; i < n; i++) {
        int x = fy_meg_name_char(a[i]), y = fy_meg_name_char(b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return na < nb ? -1 : na > nb;
}

/* Sorts the numbers v[0..n) by cmp (negative, 0, positive), keeping equal
 * ones in their order: a merge sort over the scratch tmp[0..n), so that
 * many records are not compared pair by pair. */
typedef int (*fy_meg_cmp)(const void *ctx, uint32_t a, uint32_t b);
void fy_meg_sort(uint32_t *v, uint32_t *tmp, size_t n, fy_meg_cmp cmp, const void *ctx);

#endif
