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

/* Memory from malloc the arena frees with its blocks (fy_arena_adopt). */
typedef struct adopted {
    struct adopted *next;
    void *memory;
} adopted;

struct ferry_arena {
    arena_block *head; /* the block being filled; dedicated blocks sit behind it */
    adopted *adopted;  /* its list lives in the blocks */
    size_t limit;
    size_t total;      /* bytes of block storage obtained so far */
    size_t block_size; /* size of ordinary blocks */
};

#define ARENA_DEFAULT_BLOCK ((size_t)64 * 1024)
#define ARENA_MIN_BLOCK ((size_t)4 * 1024)
#define ARENA_ALIGN (_Alignof(max_align_t))

ferry_arena *ferry_arena_create(size_t limit_bytes) { return fy_arena_create_sized(limit_bytes, 0); }

ferry_arena *fy_arena_create_sized(size_t limit_bytes, size_t block_size)
{
    ferry_arena *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->limit = limit_bytes;
    if (!block_size) block_size = ARENA_DEFAULT_BLOCK;
    if (block_size < ARENA_MIN_BLOCK) block_size = ARENA_MIN_BLOCK;
    if (block_size > ARENA_DEFAULT_BLOCK) block_size = ARENA_DEFAULT_BLOCK;
    a->block_size = block_size;
    return a;
}

void ferry_arena_destroy(ferry_arena *arena)
{
    if (!arena) return;
    for (adopted *m = arena->adopted; m; m = m->next) free(m->memory);
    arena_block *b = arena->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    free(arena);
}

static arena_block *new_block(ferry_arena *arena, size_t size)
{
    if (arena->limit && (arena->total >= arena->limit || size > arena->limit - arena->total)) return NULL;
    arena_block *b = malloc(sizeof *b + size);
    if (!b) return NULL;
    b->size = size;
    b->used = 0;
    arena->total += size;
    return b;
}

void *fy_arena_alloc_uninit(ferry_arena *arena, size_t size)
{
    if (!arena) return NULL;
    if (size == 0) size = 1;
    if (size > SIZE_MAX - ARENA_ALIGN) return NULL;
    size = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
    arena_block *b = arena->head;
    if (b && b->size - b->used >= size) {
        void *p = (uint8_t *)b->data + b->used;
        b->used += size;
        return p;
    }
    /* A large allocation gets a block of its own, kept behind the current
     * one, so the current block's free tail is not abandoned: the arena then
     * holds little more than what was asked of it. */
    if (size > arena->block_size / 4) {
        arena_block *own = new_block(arena, size);
        if (!own) return NULL;
        own->used = size;
        if (b) {
            own->next = b->next;
            b->next = own;
        } else {
            own->next = NULL;
            arena->head = own;
        }
        return own->data;
    }
    /* Near the limit, a smaller block that still fits beats a refusal. */
    size_t want = arena->block_size;
    if (arena->limit && arena->total < arena->limit && arena->limit - arena->total < want)
        want = arena->limit - arena->total < size ? size : arena->limit - arena->total;
    arena_block *fresh = new_block(arena, want);
    if (!fresh) return NULL;
    fresh->next = b;
    arena->head = fresh;
    fresh->used = size;
    return fresh->data;
}

bool fy_arena_adopt(ferry_arena *arena, void *memory, size_t size)
{
    if (!arena || (arena->limit && (arena->total >= arena->limit || size > arena->limit - arena->total))) return false;
    adopted *m = fy_arena_alloc_uninit(arena, sizeof *m);
    if (!m) return false;
    m->memory = memory;
    m->next = arena->adopted;
    arena->adopted = m;
    arena->total += size;
    return true;
}

void *ferry_arena_alloc(ferry_arena *arena, size_t size)
{
    void *p = fy_arena_alloc_uninit(arena, size);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

void *ferry_arena_memdup(ferry_arena *arena, const void *data, size_t size)
{
    void *p = fy_arena_alloc_uninit(arena, size);
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
    if (input_size > (FERRY_DEFAULT_MEMORY_CAP - ((size_t)1 << 20)) / 16) return FERRY_DEFAULT_MEMORY_CAP;
    return input_size * 16 + ((size_t)1 << 20);
}
