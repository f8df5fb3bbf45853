/* Building files byte by byte in tests: a growing buffer, little-endian
 * values, and chunks whose size is patched when they end. */
#ifndef FERRY_TEST_BYTES_H
#define FERRY_TEST_BYTES_H

#include <ferry/alamo_chunk.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct bytes {
    uint8_t *data;
    size_t size, cap;
} bytes;

static inline void put(bytes *b, const void *p, size_t n)
{
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->size + n) cap *= 2;
        b->data = realloc(b->data, cap);
        if (!b->data) abort();
        b->cap = cap;
    }
    if (n) memcpy(b->data + b->size, p, n);
    b->size += n;
}

static inline void put_u8(bytes *b, uint8_t v) { put(b, &v, 1); }

static inline void put_u16(bytes *b, uint16_t v)
{
    uint8_t p[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(b, p, 2);
}

static inline void put_u32(bytes *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, p, 4);
}

static inline void put_f32(bytes *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(b, u);
}

/* Big-endian values (ALM). */
static inline void put_u32be(bytes *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, p, 4);
}

static inline void put_f32be(bytes *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32be(b, u);
}

static inline void put_f64be(bytes *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    put_u32be(b, (uint32_t)(u >> 32));
    put_u32be(b, (uint32_t)u);
}

static inline void put_zeros(bytes *b, size_t n)
{
    for (size_t i = 0; i < n; i++) put_u8(b, 0);
}

static inline void set_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Opens a chunk (size 0 for now); returns where its header is. */
static inline size_t begin(bytes *b, uint32_t type)
{
    size_t at = b->size;
    put_u32(b, type);
    put_u32(b, 0);
    return at;
}

/* Sets the size of the chunk opened at `at` to everything written since. */
static inline void end(bytes *b, size_t at, bool container)
{
    set_u32(b->data + at + 4, (uint32_t)(b->size - at - 8) | (container ? FERRY_CHUNK_CONTAINER_BIT : 0));
}

#endif
