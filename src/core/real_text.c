/* A real as "%.*g" writes it, without printf for the values JSON writers
 * meet (core.h, fy_real_g): every glTF holds thousands, and printf's
 * general machinery costs some two thousand instructions each. */
#include "core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static const uint64_t pow10_u64[20] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull,
                                       10000000000000000ull,
                                       100000000000000000ull,
                                       1000000000000000000ull,
                                       10000000000000000000ull};

static u128 pow10_u128(int k) /* 0 <= k <= 38 */
{
    return k < 20 ? (u128)pow10_u64[k] : (u128)pow10_u64[19] * pow10_u64[k - 19];
}

/* Bits needed to hold x. */
static int bit_length(u128 x)
{
    uint64_t high = (uint64_t)(x >> 64), low = (uint64_t)x;
    return high ? 128 - __builtin_clzll(high) : low ? 64 - __builtin_clzll(low) : 0;
}

/* round(m * 2^e * 10^k), ties to even, exactly; false when the numbers
 * would not fit in 128 bits. */
static bool scaled(uint64_t m, int e, int k, u128 *out)
{
    if (k > 22 || k < -22) return false;
    u128 num = m, den = 1;
    if (k >= 0)
        num *= pow10_u128(k);
    else
        den = pow10_u128(-k);
    if (e >= 0) {
        if (bit_length(num) + e > 126) return false;
        num <<= e;
    } else {
        if (bit_length(den) - e > 126) return false;
        den <<= -e;
    }
    u128 q = num / den, r = num % den;
    u128 twice = r * 2;
    if (twice > den || (twice == den && (q & 1))) q++;
    *out = q;
    return true;
}
#endif

int fy_real_g(double v, int precision, char *out, size_t cap)
{
#ifdef __SIZEOF_INT128__
    if (precision < 1 || precision > 17 || cap < 32 || !isfinite(v)) goto slow;
    char *p = out;
    if (signbit(v)) *p++ = '-';
    double a = fabs(v);
    if (a == 0.0) {
        *p++ = '0';
        *p = 0;
        return (int)(p - out);
    }
    int e2;
    double frac = frexp(a, &e2);             /* a = frac * 2^e2, frac in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(frac, 53); /* exact: a double has 53 bits */
    int e = e2 - 53;
    int x = (int)floor(log10(a)); /* the decimal exponent, corrected below */
    u128 n = 0, low = pow10_u128(precision - 1), high = pow10_u128(precision);
    for (int tries = 0;; tries++) {
        if (tries > 3 || !scaled(m, e, precision - 1 - x, &n)) goto slow;
        if (n >= high) {
            if (n == high) { /* rounded up to the next power of ten */
                n = low;
                x++;
                break;
            }
            x++;
            continue;
        }
        if (n < low) {
            x--;
            continue;
        }
        /* Exactly the lowest: the value may lie just below 10^x and have
         * rounded up to it (log10 said x where x - 1 is right): one digit
         * finer tells. */
        u128 finer;
        if (n == low && scaled(m, e, precision - x, &finer) && finer < high) {
            n = finer;
            x--;
        }
        break;
    }
    char digits[20];
    for (int i = precision - 1; i >= 0; i--) {
        digits[i] = (char)('0' + (int)(n % 10));
        n /= 10;
    }
    int used = precision; /* significant digits left once trailing zeros go */
    while (used > 1 && digits[used - 1] == '0') used--;
    if (x < -4 || x >= precision) {
        *p++ = digits[0];
        if (used > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)used - 1);
            p += used - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        int ex = x < 0 ? -x : x;
        if (ex >= 100) *p++ = (char)('0' + ex / 100);
        *p++ = (char)('0' + ex / 10 % 10);
        *p++ = (char)('0' + ex % 10);
    } else if (x >= 0) {
        memcpy(p, digits, (size_t)x + 1);
        p += x + 1;
        if (used > x + 1) {
            *p++ = '.';
            memcpy(p, digits + x + 1, (size_t)(used - x - 1));
            p += used - x - 1;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        for (int z = -1; z > x; z--) *p++ = '0';
        memcpy(p, digits, (size_t)used);
        p += used;
    }
    *p = 0;
    return (int)(p - out);
slow:
#endif
    return snprintf(out, cap, "%.*g", precision, v);
}
