/* LZO1X streams of ODOL v44+ arrays: measured here, decoded and encoded by
 * liblzo2.
 *
 * The measurement follows LZO1X's instruction set (the encoding the Linux
 * kernel's Documentation/staging/lzo.rst describes): an instruction's first
 * byte and the number of literals the previous one left ("state") decide
 * how many operand bytes follow, so the stream's end and its decoded size
 * can be found without producing output. liblzo2 then decodes exactly that
 * many bytes and must agree (LZO_E_OK, same size), so a mistake here can
 * only turn into an error, never into a wrong or out-of-bounds decode. */
#include <ferry/lzo.h>

#include "codec.h"
#include "../core/core.h"

#include <lzo/lzo1x.h>
#include <stdlib.h>

typedef struct walk {
    const uint8_t *in;
    size_t size, ip;
    uint64_t out;
    ferry_error *err;
    bool failed;
} walk;

static bool short_of(walk *w, size_t n, const char *what)
{
    if (!w->failed)
        fy_error_set(w->err, FERRY_ERR_TRUNCATED, w->ip, NULL,
                     "LZO data ends inside %s (needs %zu bytes, %zu left) after %llu decoded bytes", what, n,
                     w->size - w->ip, (unsigned long long)w->out);
    w->failed = true;
    return false;
}

/* The test inline, the message apart: measuring took as long as liblzo2's
 * decoding while these were calls (docs/benchmarks.md). */
static inline bool need(walk *w, size_t n, const char *what)
{
    return w->size - w->ip >= n || short_of(w, n, what);
}

static inline unsigned next(walk *w, const char *what) { return need(w, 1, what) ? w->in[w->ip++] : 0; }

/* A length field of zero is followed by zero bytes worth 255 each and one
 * non-zero byte that ends it. */
static uint64_t extended(walk *w, uint64_t base)
{
    uint64_t t = base;
    for (;;) {
        unsigned b = next(w, "an extended length");
        if (w->failed) return 0;
        if (b) return t + b;
        t += 255;
    }
}

static void literals(walk *w, uint64_t n)
{
    if (!need(w, n > SIZE_MAX ? SIZE_MAX : (size_t)n, "a literal run")) return;
    w->ip += (size_t)n;
    w->out += n;
}

ferry_result ferry_lzo_measure(const uint8_t *in, size_t in_size, size_t *stream_size, size_t *decoded_size,
                               ferry_error *err)
{
    fy_error_clear(err);
    *stream_size = *decoded_size = 0;
    if (!in && in_size) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "LZO measure: NULL buffer");
        return FERRY_ERR_ARGUMENT;
    }
    walk w = {in, in_size, 0, 0, err, false};
    unsigned t = next(&w, "the first instruction");
    /* A first byte above 17 is a literal run of t - 17 bytes; below 4 of
     * them, the next instruction is read as a match. */
    enum { LOOP, AFTER_LITERALS, MATCH } at = LOOP;
    if (t > 17) {
        literals(&w, t - 17);
        at = t - 17 < 4 ? MATCH : AFTER_LITERALS;
        t = next(&w, "an instruction");
    } else {
        w.ip = 0;
    }
    while (!w.failed) {
        if (at == LOOP) {
            t = next(&w, "an instruction");
            if (w.failed) break;
            if (t < 16) {
                literals(&w, (t ? t : extended(&w, 15)) + 3);
                at = AFTER_LITERALS;
                t = next(&w, "an instruction");
                continue;
            }
            at = MATCH;
        }
        if (w.failed) break;
        unsigned state;
        if (t < 16) {
            /* 0000DDSS DDDDDDDD: 3 bytes from far back right after a run of
             * 4 or more literals, else 2 bytes from near. */
            next(&w, "a distance");
            w.out += at == AFTER_LITERALS ? 3 : 2;
            state = t & 3;
        } else if (t >= 64) {
            next(&w, "a distance");
            w.out += (t >> 5) + 1;
            state = t & 3;
        } else {
            bool far = t < 32;
            unsigned bits = far ? t & 7 : t & 31;
            uint64_t len = bits ? bits : extended(&w, far ? 7 : 31);
            if (!need(&w, 2, "a distance")) break;
            unsigned d = fy_load_u16le(in + w.ip);
            w.ip += 2;
            if (far && (t & 8) == 0 && (d >> 2) == 0) {
                *stream_size = w.ip;
                *decoded_size = w.out > SIZE_MAX ? SIZE_MAX : (size_t)w.out;
                return FERRY_OK;
            }
            w.out += len + 2;
            state = d & 3;
        }
        if (state == 0) {
            at = LOOP;
        } else {
            literals(&w, state);
            at = MATCH;
            t = next(&w, "an instruction");
        }
    }
    *stream_size = w.ip;
    return err ? err->code : FERRY_ERR_TRUNCATED;
}

ferry_result fy_lzo_decompress(const uint8_t *in, size_t stream, size_t expected_size, uint8_t *out, ferry_error *err)
{
    lzo_uint out_len = expected_size;
    int r = lzo1x_decompress_safe((lzo_bytep)(uintptr_t)in, stream, out, &out_len, NULL);
    if (r != LZO_E_OK || out_len != expected_size) {
        fy_error_set(err, FERRY_ERR_MALFORMED, 0, NULL,
                     "the LZO stream (%zu bytes) does not decode: %s", stream,
                     r == LZO_E_LOOKBEHIND_OVERRUN ? "a match refers to bytes before the start of the output"
                     : r == LZO_E_OUTPUT_OVERRUN   ? "it produces more bytes than expected"
                     : r == LZO_E_OK               ? "it produces fewer bytes than expected"
                                                   : "liblzo2 rejects it");
        return FERRY_ERR_MALFORMED;
    }
    return FERRY_OK;
}

ferry_result ferry_lzo_decode(const uint8_t *in, size_t in_size, size_t expected_size, uint8_t *out,
                              size_t *consumed, ferry_error *err)
{
    fy_error_clear(err);
    if (consumed) *consumed = 0;
    if ((!in && in_size) || (!out && expected_size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "LZO decode: NULL buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (expected_size == 0) return FERRY_OK;
    size_t stream = 0, decoded = 0;
    ferry_result rc = ferry_lzo_measure(in, in_size, &stream, &decoded, err);
    if (rc != FERRY_OK) {
        if (consumed) *consumed = stream;
        return rc;
    }
    if (decoded != expected_size) {
        fy_error_set(err, FERRY_ERR_MALFORMED, 0, NULL,
                     "the LZO stream (%zu bytes) decodes to %zu bytes, but %zu are expected", stream, decoded,
                     expected_size);
        return FERRY_ERR_MALFORMED;
    }
    rc = fy_lzo_decompress(in, stream, expected_size, out, err);
    if (rc == FERRY_OK && consumed) *consumed = stream;
    return rc;
}

ferry_result ferry_lzo_encode(const uint8_t *in, size_t size, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err);
    if (size == 0) return FERRY_OK;
    /* liblzo2's bound on LZO1X-1 output for incompressible input. */
    size_t bound = size + size / 16 + 64 + 3;
    void *work = malloc(LZO1X_1_MEM_COMPRESS);
    if (!work || !fy_buf_reserve(out, bound)) {
        free(work);
        out->failed = true;
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory compressing %zu bytes", size);
        return FERRY_ERR_NOMEM;
    }
    lzo_uint n = 0;
    int r = lzo1x_1_compress((lzo_bytep)(uintptr_t)in, size, out->data + out->size, &n, work);
    free(work);
    if (r != LZO_E_OK) {
        /* LZO1X-1 cannot fail with enough room and work memory. */
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "liblzo2 could not compress (%d)", r);
        return FERRY_ERR_ARGUMENT;
    }
    out->size += n;
    return FERRY_OK;
}

size_t fy_lzo_best_work_size(void) { return LZO1X_999_MEM_COMPRESS; }

bool fy_lzo_encode_best(const uint8_t *in, size_t size, uint8_t *out, size_t *out_size, void *work)
{
    lzo_uint n = 0;
    if (lzo1x_999_compress(in, size, out, &n, work) != LZO_E_OK) return false;
    *out_size = n;
    return true;
}
