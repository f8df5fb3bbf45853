/* Allocation arena: blocks from malloc, handed out in order, freed at once.
 * Every load allocates only from its arena, so one call releases it all,
 * and the limit bounds what a hostile file can make us allocate. */
#include "core.h"

#include <stdlib.h>

typedef struct arena_block {
    struct arena_block *next;
    size_t size;
    size_t used;
    max_align_t data[]; /* aligned storage follows */
} arena_block;

struct ferry_arena {
    arena_block *head;
    size_t limit;
    size_t total; /* bytes of block storage obtained so far */
};

#define ARENA_MIN_BLOCK ((size_t)64 * 1024)
#define ARENA_ALIGN (sizeof(max_align_t))

ferry_arena *ferry_arena_create(size_t limit_bytes)
{
    ferry_arena *a = calloc(1, sizeof *a);
    if (a) a->limit = limit_bytes;
    return a;
}

void ferry_arena_destroy(ferry_arena *arena)
{
    if (!arena) return;
    arena_block *b = arena->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    free(arena);
}

void *ferry_arena_alloc(ferry_arena *arena, size_t size)
{
    if (!arena) return NULL;
    if (size == 0) size = 1;
    if (size > SIZE_MAX - ARENA_ALIGN) return NULL;
    size = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
    arena_block *b = arena->head;
    if (!b || b->size - b->used < size) {
        size_t block = size > ARENA_MIN_BLOCK ? size : ARENA_MIN_BLOCK;
        /* Grow blocks with the total so that big loads need few mallocs,
         * but never past what the limit still allows. */
        if (arena->total / 4 > block) block = (arena->total / 4 + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
        if (arena->limit) {
            if (arena->total >= arena->limit || size > arena->limit - arena->total) return NULL;
            if (block > arena->limit - arena->total) block = size;
        }
        b = malloc(sizeof *b + block);
        if (!b) return NULL;
        b->size = block;
        b->used = 0;
        b->next = arena->head;
        arena->head = b;
        arena->total += block;
    }
    void *p = (uint8_t *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

void *ferry_arena_memdup(ferry_arena *arena, const void *data, size_t size)
{
    void *p = ferry_arena_alloc(arena, size);
    if (p && size) memcpy(p, data, size);
    return p;
}

char *ferry_arena_strdup(ferry_arena *arena, const char *text)
{
    if (!text) return NULL;
    return ferry_arena_memdup(arena, text, strlen(text) + 1);
}

size_t ferry_arena_used(const ferry_arena *arena) { return arena ? arena->total : 0; }
size_t ferry_arena_limit(const ferry_arena *arena) { return arena ? arena->limit : 0; }

size_t fy_default_memory_limit(const ferry_read_options *opts, size_t input_size)
{
    if (opts && opts->memory_limit) return opts->memory_limit;
    if (input_size > (SIZE_MAX - ((size_t)1 << 20)) / 16) return SIZE_MAX;
    return input_size * 16 + ((size_t)1 << 20);
}
