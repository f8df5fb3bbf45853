/* LZSS as Bohemia's engines use it for ODOL compressed arrays.
 *
 * The engine's decoder keeps a 4096-byte ring (first 4078 bytes spaces,
 * write position 4078) and reads a back-reference at ring index
 * (r - d) & 4095, where r is the ring write position. Since r is always
 * (4078 + output position) mod 4096, that is the byte written d positions
 * earlier in the output (d = 0 means 4096 earlier: the ring wraps). We
 * therefore decode straight into the caller's output buffer, which holds the
 * whole history, and need no ring at all; the ring only matters for
 * positions before the start of the output:
 *   - p = o - d in [-4078, -1]: ring slots 0..4077, still the initial spaces;
 *   - p in [-4096, -4079]: ring slots 4078..4095, which the engine never
 *     initialises (a stack object); BIS.Core's reader has them zero, and so
 *     do we. The engine's encoder never refers to them.
 * docs/formats/lzss.md records the references this was checked against. */
#include "codec.h"
#include <ferry/lzss.h>

#include "../core/core.h"

#include <stdlib.h>

enum {
    LZ_RING = 4096,                /* ring size: distances are 12 bits */
    LZ_MAX_LEN = 18,               /* 4-bit length + 3 */
    LZ_MIN_LEN = 3,
    LZ_SPACES = LZ_RING - LZ_MAX_LEN, /* 4078 initial spaces, also the first write position */
    LZ_MAX_DIST = LZ_RING - 1      /* what our encoder uses: d = 0 (4096) is legal but never needed */
};

uint32_t ferry_lzss_checksum(const uint8_t *data, size_t size)
{
    /* Separate accumulators so the compiler can vectorise; the sum wraps
     * modulo 2^32 like the engine's int. */
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i = 0;
    for (; i + 4 <= size; i += 4) {
        s0 += data[i];
        s1 += data[i + 1];
        s2 += data[i + 2];
        s3 += data[i + 3];
    }
    for (; i < size; i++) s0 += data[i];
    return s0 + s1 + s2 + s3;
}

/* The byte a back-reference sees at output position p < 0. */
static inline uint8_t before_start(ptrdiff_t p) { return p >= -(ptrdiff_t)LZ_SPACES ? 0x20 : 0x00; }

static ferry_result truncated(ferry_error *err, size_t at, size_t need, size_t left, const char *what, size_t op,
                              size_t expected)
{
    fy_error_set(err, FERRY_ERR_TRUNCATED, at, NULL,
                 "LZSS data ends inside %s (needs %zu bytes, %zu left) after %zu of %zu decoded bytes", what, need,
                 left, op, expected);
    return FERRY_ERR_TRUNCATED;
}

ferry_result ferry_lzss_decode(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                               size_t *consumed, ferry_error *err)
{
    return fy_lzss_decode_sum(in, in_size, expected_size, out, consumed, FY_LZSS_SUM_UNSIGNED, err);
}

static uint32_t signed_checksum(const uint8_t *data, size_t size)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < size; i++) sum += (uint32_t)(int32_t)(int8_t)data[i];
    return sum;
}

ferry_result fy_lzss_decode_sum(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                                size_t *consumed, fy_lzss_sum sum, ferry_error *err)
{
    fy_error_clear(err);
    if (consumed) *consumed = 0;
    if ((!in && in_size) || (!out && expected_size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "LZSS decode: NULL buffer");
        return FERRY_ERR_ARGUMENT;
    }
    /* The engine returns before reading anything, checksum included. */
    if (expected_size == 0) return FERRY_OK;

    size_t ip = 0, op = 0;
    const size_t exp = expected_size;
    while (op < exp) {
        /* Fast path: a whole flag group (at most 1 + 8*2 input bytes, 8*18
         * output bytes plus 6 bytes of over-write from the 8-byte copies)
         * fits in what remains, and every reference lands inside the output
         * (op >= 4096 > any distance), so no check is needed inside. */
        if (op >= LZ_RING && exp - op >= 8 * LZ_MAX_LEN + 16 && in_size - ip >= 17) {
            unsigned flags = in[ip++];
            if (flags == 0xFF) { /* eight literals: common in poorly compressible arrays */
                memcpy(out + op, in + ip, 8);
                op += 8;
                ip += 8;
                continue;
            }
            for (int bit = 0; bit < 8; bit++, flags >>= 1) {
                if (flags & 1) {
                    out[op++] = in[ip++];
                    continue;
                }
                unsigned b0 = in[ip], b1 = in[ip + 1];
                ip += 2;
                size_t d = b0 | ((b1 & 0xF0u) << 4);
                if (d == 0) d = LZ_RING;
                size_t len = (b1 & 0x0Fu) + LZ_MIN_LEN;
                uint8_t *dst = out + op;
                const uint8_t *src = dst - d;
                if (d >= 8) {
                    /* Chunks of 8 never overlap within one copy, and each
                     * reads only bytes already final: byte-by-byte semantics. */
                    memcpy(dst, src, 8);
                    memcpy(dst + 8, src + 8, 8);
                    if (len > 16) memcpy(dst + 16, src + 16, 8);
                } else {
                    for (size_t k = 0; k < len; k++) dst[k] = src[k]; /* short period: repeat */
                }
                op += len;
            }
            continue;
        }

        if (ip >= in_size) return truncated(err, ip, 1, 0, "a flag byte", op, exp);
        unsigned flags = in[ip++];
        for (int bit = 0; bit < 8 && op < exp; bit++, flags >>= 1) {
            if (flags & 1) {
                if (ip >= in_size) return truncated(err, ip, 1, 0, "a literal byte", op, exp);
                out[op++] = in[ip++];
                continue;
            }
            if (in_size - ip < 2) return truncated(err, ip, 2, in_size - ip, "a back-reference", op, exp);
            unsigned b0 = in[ip], b1 = in[ip + 1];
            ip += 2;
            size_t d = b0 | ((b1 & 0xF0u) << 4);
            if (d == 0) d = LZ_RING;
            size_t len = (b1 & 0x0Fu) + LZ_MIN_LEN;
            /* The engine stops at the expected size even inside a match. */
            if (len > exp - op) len = exp - op;
            for (size_t k = 0; k < len; k++, op++) {
                ptrdiff_t p = (ptrdiff_t)op - (ptrdiff_t)d;
                out[op] = p >= 0 ? out[p] : before_start(p);
            }
        }
    }

    if (in_size - ip < 4) return truncated(err, ip, 4, in_size - ip, "the checksum", op, exp);
    uint32_t stored = fy_load_u32le(in + ip);
    /* Either: the signed sum (the engine's) first, the unsigned one only when that differs. */
    uint32_t computed = sum == FY_LZSS_SUM_UNSIGNED ? ferry_lzss_checksum(out, exp) : signed_checksum(out, exp);
    uint32_t other = sum == FY_LZSS_SUM_EITHER && stored != computed ? ferry_lzss_checksum(out, exp) : computed;
    if (stored != computed && stored != other) {
        if (consumed) *consumed = ip;
        if (sum == FY_LZSS_SUM_EITHER)
            fy_error_set(err, FERRY_ERR_MALFORMED, ip, NULL,
                         "LZSS checksum mismatch: stored 0x%08x, computed 0x%08x (signed bytes) or 0x%08x (unsigned) "
                         "over %zu decoded bytes",
                         (unsigned)stored, (unsigned)computed, (unsigned)other, exp);
        else
            fy_error_set(err, FERRY_ERR_MALFORMED, ip, NULL,
                         "LZSS checksum mismatch: stored 0x%08x, computed 0x%08x over %zu decoded bytes",
                         (unsigned)stored, (unsigned)computed, exp);
        return FERRY_ERR_MALFORMED;
    }
    if (consumed) *consumed = ip + 4;
    return FERRY_OK;
}

size_t ferry_lzss_max_encoded_size(size_t size)
{
    if (size == 0) return 0;
    size_t flags = size / 8 + (size % 8 != 0);
    if (size > SIZE_MAX - flags - 4) return SIZE_MAX;
    return size + flags + 4;
}

/* ---- encoder ----
 * Works on a copy of the input behind the 4078 initial spaces, so positions
 * before the start are ordinary bytes and a match may run from the spaces
 * into the data. A hash of three bytes heads a chain through the last 4096
 * positions (prev is indexed modulo the window, which is safe because a
 * slot is only reused by a position 4096 later, by which time the old one is
 * out of reach). */

enum { HASH_BITS = 15, HASH_SIZE = 1 << HASH_BITS, CHAIN_LIMIT = 128 };

typedef struct lz_match {
    size_t len, dist;
} lz_match;

typedef struct lz_state {
    const uint8_t *buf;
    size_t total;
    size_t *head; /* position + 1; 0 = empty */
    size_t *prev;
} lz_state;

static inline uint32_t hash3(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16);
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

static inline void lz_insert(lz_state *s, size_t pos)
{
    if (pos + LZ_MIN_LEN > s->total) return; /* too close to the end to start a match */
    uint32_t h = hash3(s->buf + pos);
    s->prev[pos & (LZ_RING - 1)] = s->head[h];
    s->head[h] = pos + 1;
}

static lz_match lz_find(const lz_state *s, size_t q)
{
    lz_match best = {0, 0};
    size_t max_len = s->total - q;
    if (max_len > LZ_MAX_LEN) max_len = LZ_MAX_LEN;
    if (max_len < LZ_MIN_LEN) return best;
    const uint8_t *cur = s->buf + q;
    size_t cand = s->head[hash3(cur)];
    for (int depth = 0; cand && depth < CHAIN_LIMIT; depth++) {
        size_t c = cand - 1;
        if (c >= q || q - c > LZ_MAX_DIST) break;
        const uint8_t *m = s->buf + c;
        if (m[best.len] == cur[best.len]) { /* cannot beat best otherwise */
            size_t len = 0;
            while (len < max_len && m[len] == cur[len]) len++;
            if (len > best.len) {
                best.len = len;
                best.dist = q - c;
                if (len == max_len) break;
            }
        }
        cand = s->prev[c & (LZ_RING - 1)];
    }
    if (best.len < LZ_MIN_LEN) best.len = 0;
    return best;
}

ferry_result ferry_lzss_encode(const uint8_t *in, size_t size, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err);
    if (!out || (!in && size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "LZSS encode: NULL buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (size == 0) return FERRY_OK; /* the engine writes nothing, not even a checksum */

    size_t max_out = ferry_lzss_max_encoded_size(size);
    uint8_t *buf = NULL;
    size_t *tables = NULL;
    if (size <= SIZE_MAX - LZ_SPACES && max_out != SIZE_MAX) {
        buf = malloc(LZ_SPACES + size);
        tables = malloc((HASH_SIZE + LZ_RING) * sizeof *tables);
    }
    if (!buf || !tables || !fy_buf_reserve(out, max_out)) {
        free(buf);
        free(tables);
        out->failed = true;
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "LZSS encode: out of memory for %zu bytes", size);
        return FERRY_ERR_NOMEM;
    }
    memset(buf, ' ', LZ_SPACES);
    memcpy(buf + LZ_SPACES, in, size);
    memset(tables, 0, HASH_SIZE * sizeof *tables); /* prev needs no clearing: reached only through head */

    lz_state s = {buf, LZ_SPACES + size, tables, tables + HASH_SIZE};
    /* Only the last 18 spaces need to be findable: an earlier start gives
     * 18 spaces at most, which the space at 4060 gives at a shorter distance. */
    size_t ins = LZ_SPACES - LZ_MAX_LEN;
    size_t q = LZ_SPACES;

    uint8_t *w = out->data + out->size;
    uint8_t *flag = NULL;
    int bit = 8;
    lz_match cur = {0, 0};
    bool cached = false;
    while (q < s.total) {
        while (ins < q) lz_insert(&s, ins++);
        if (!cached) cur = lz_find(&s, q);
        cached = false;
        /* One step of lazy matching: a longer match one byte on is worth a
         * literal now. */
        if (cur.len && cur.len < LZ_MAX_LEN && q + 1 < s.total) {
            lz_insert(&s, ins++);
            lz_match next = lz_find(&s, q + 1);
            if (next.len > cur.len) {
                cur = next;
                cached = true;
                goto literal;
            }
        }
        if (bit == 8) {
            flag = w++;
            *flag = 0;
            bit = 0;
        }
        if (cur.len) {
            *w++ = (uint8_t)(cur.dist & 0xFF);
            *w++ = (uint8_t)(((cur.dist >> 4) & 0xF0) | (cur.len - LZ_MIN_LEN));
            bit++;
            q += cur.len;
            continue;
        }
    literal:
        if (bit == 8) {
            flag = w++;
            *flag = 0;
            bit = 0;
        }
        *flag |= (uint8_t)(1u << bit);
        *w++ = buf[q];
        bit++;
        q++;
    }
    out->size = (size_t)(w - out->data);
    fy_buf_u32le(out, ferry_lzss_checksum(in, size));

    free(buf);
    free(tables);
    return FERRY_OK;
}
