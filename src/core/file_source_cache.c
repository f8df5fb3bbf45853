/* A file source that lists each folder of another source once
 * (ferry_file_source_cached, include/ferry/ferry.h): the first listing of a
 * path, or its failure, is kept and replayed; loads go through unchanged.
 * A batch looks the same folders up once per texture per model (a model's
 * folder can hold thousands of files): listed once, each later lookup costs
 * the replay only. */
#include "core.h"
#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct cached_entry {
    const char *name; /* into the listing's names */
    ferry_entry_kind kind;
} cached_entry;

/* One folder's listing, never changed once published: replays read it
 * without the lock. */
typedef struct cached_listing {
    char *path;
    uint64_t hash;
    ferry_result result; /* the inner source's answer */
    ferry_error error;   /* when result is not FERRY_OK */
    cached_entry *entries;
    size_t count;
    char *names;
    /* The entries by kind, then name ignoring case, then listing order:
     * a lookup by name is a binary search, not a walk of the folder. */
    const cached_entry **order;
} cached_listing;

typedef struct cache_source {
    const ferry_file_source *inner;
    fy_mutex lock;
    cached_listing **slots; /* open addressing by hash; capacity a power of two */
    size_t capacity, used;
} cache_source;

static uint64_t hash_path(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211u;
    return h;
}

static cached_listing *find_slot(const cache_source *c, const char *path, uint64_t h, size_t *at)
{
    size_t mask = c->capacity - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        cached_listing *l = c->slots[i];
        if (!l || (l->hash == h && strcmp(l->path, path) == 0)) {
            *at = i;
            return l;
        }
    }
}

static bool grow(cache_source *c)
{
    size_t cap = c->capacity * 2;
    cached_listing **slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < c->capacity; i++) {
        cached_listing *l = c->slots[i];
        if (!l) continue;
        size_t j = (size_t)l->hash & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = l;
    }
    free(c->slots);
    c->slots = slots;
    c->capacity = cap;
    return true;
}

static void free_listing(cached_listing *l)
{
    if (!l) return;
    free(l->path);
    free(l->entries);
    free(l->names);
    free(l->order);
    free(l);
}

/* The inner listing gathered: kinds in order, names packed in one block. */
typedef struct gather {
    cached_entry *entries;
    size_t count, capacity;
    char *names;
    size_t names_used, names_capacity;
    size_t *offsets;
    bool failed;
} gather;

static bool gather_entry(void *ctx, const char *name, ferry_entry_kind kind)
{
    gather *g = ctx;
    size_t n = strlen(name) + 1;
    if (g->count == g->capacity) {
        size_t cap = g->capacity ? 2 * g->capacity : 64;
        cached_entry *e = realloc(g->entries, cap * sizeof *e);
        size_t *o = realloc(g->offsets, cap * sizeof *o);
        if (e) g->entries = e;
        if (o) g->offsets = o;
        if (!e || !o) return g->failed = true, false;
        g->capacity = cap;
    }
    if (g->names_used + n > g->names_capacity) {
        size_t cap = g->names_capacity ? 2 * g->names_capacity : 4096;
        while (cap < g->names_used + n) cap *= 2;
        char *names = realloc(g->names, cap);
        if (!names) return g->failed = true, false;
        g->names = names;
        g->names_capacity = cap;
    }
    memcpy(g->names + g->names_used, name, n);
    g->offsets[g->count] = g->names_used;
    g->entries[g->count].kind = kind;
    g->count++;
    g->names_used += n;
    return true;
}

static int cmp_kind_name(ferry_entry_kind ka, const char *a, ferry_entry_kind kb, const char *b)
{
    if (ka != kb) return ka < kb ? -1 : 1;
    return strcasecmp(a, b);
}

static int cmp_order(const void *x, const void *y)
{
    const cached_entry *a = *(const cached_entry *const *)x, *b = *(const cached_entry *const *)y;
    int c = cmp_kind_name(a->kind, a->name, b->kind, b->name);
    return c ? c : (a < b ? -1 : a > b); /* equal names: the first listed first */
}

/* Lists `path` of the inner source into a new listing (its failure kept). */
static cached_listing *take_listing(const cache_source *c, const char *path, uint64_t h)
{
    cached_listing *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->path = malloc(strlen(path) + 1);
    if (!l->path) {
        free(l);
        return NULL;
    }
    strcpy(l->path, path);
    l->hash = h;
    gather g = {0};
    l->result = ferry_file_source_list(c->inner, path, gather_entry, &g, &l->error);
    if (g.failed) {
        free(g.entries), free(g.names), free(g.offsets);
        free_listing(l);
        return NULL;
    }
    for (size_t i = 0; i < g.count; i++) g.entries[i].name = g.names + g.offsets[i];
    free(g.offsets);
    l->entries = g.entries;
    l->count = g.count;
    l->names = g.names;
    if (g.count) {
        l->order = malloc(g.count * sizeof *l->order);
        if (!l->order) {
            free_listing(l);
            return NULL;
        }
        for (size_t i = 0; i < g.count; i++) l->order[i] = &g.entries[i];
        qsort(l->order, g.count, sizeof *l->order, cmp_order);
    }
    return l;
}

/* The listing of `path`, taken through the inner source the first time;
 * NULL when memory ran out. */
static const cached_listing *listing_of(cache_source *c, const char *path)
{
    uint64_t h = hash_path(path);
    size_t at;
    fy_mutex_lock(&c->lock);
    cached_listing *l = find_slot(c, path, h, &at);
    if (!l) {
        /* Listed under the lock: one inner listing at a time, so the inner
         * source's list need not be safe from several threads. */
        l = take_listing(c, path, h);
        if (l && (c->used + 1) * 4 > c->capacity * 3 && !grow(c)) {
            free_listing(l);
            l = NULL;
        } else if (l) {
            find_slot(c, path, h, &at);
            c->slots[at] = l;
            c->used++;
        }
    }
    fy_mutex_unlock(&c->lock);
    return l;
}

static ferry_result cache_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    const cached_listing *l = listing_of(user, path);
    if (!l) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory keeping the listing of '%s'", path);
        return FERRY_ERR_NOMEM;
    }
    if (l->result != FERRY_OK) {
        if (err) *err = l->error;
        return l->result;
    }
    for (size_t i = 0; i < l->count; i++)
        if (!entry(ctx, l->entries[i].name, l->entries[i].kind)) break;
    return FERRY_OK;
}

static ferry_result cache_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                               ferry_error *err)
{
    const cache_source *c = user;
    return ferry_file_source_load(c->inner, path, max_size, data, size, err);
}

static void cache_release(void *user, uint8_t *data, size_t size)
{
    const cache_source *c = user;
    ferry_file_source_release(c->inner, data, size);
}

static bool cache_disk_path(void *user, const char *path, char *out, size_t out_size)
{
    const cache_source *c = user;
    return ferry_file_source_disk_path(c->inner, path, out, out_size);
}

static void cache_close(void *user)
{
    cache_source *c = user;
    for (size_t i = 0; i < c->capacity; i++) free_listing(c->slots[i]);
    free(c->slots);
    fy_mutex_destroy(&c->lock);
    free(c);
}

ferry_result ferry_file_source_cached(const ferry_file_source *inner, ferry_file_source *source, ferry_error *err)
{
    fy_error_clear(err);
    if (!inner || !source) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no source to cache");
        return FERRY_ERR_ARGUMENT;
    }
    memset(source, 0, sizeof *source);
    cache_source *c = calloc(1, sizeof *c);
    if (c) c->slots = calloc(64, sizeof *c->slots);
    if (!c || !c->slots || fy_mutex_init(&c->lock) != 0) {
        if (c) free(c->slots);
        free(c);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot allocate the cached source");
        return FERRY_ERR_NOMEM;
    }
    c->capacity = 64;
    c->inner = inner;
    source->load = inner->load ? cache_load : NULL;
    source->release = cache_release;
    source->list = inner->list ? cache_list : NULL;
    source->close = cache_close;
    source->disk_path = inner->disk_path ? cache_disk_path : NULL;
    source->user = c;
    source->label = inner->label;
    return FERRY_OK;
}

bool fy_file_source_is_cached(const ferry_file_source *source) { return source && source->list == cache_list; }

bool fy_file_source_cached_find(const ferry_file_source *source, const char *folder, const char *name,
                                ferry_entry_kind kind, char *out, size_t out_size, bool *found)
{
    if (!fy_file_source_is_cached(source)) return false;
    *found = false;
    if (!ferry_file_source_path_ok(folder)) return true;
    const cached_listing *l = listing_of(source->user, folder);
    if (!l || l->result != FERRY_OK) return true;
    size_t lo = 0, hi = l->count; /* the first entry not below (kind, name) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_kind_name(l->order[mid]->kind, l->order[mid]->name, kind, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == l->count || cmp_kind_name(l->order[lo]->kind, l->order[lo]->name, kind, name) != 0) return true;
    size_t n = strlen(l->order[lo]->name);
    if (n >= out_size) return true;
    memcpy(out, l->order[lo]->name, n + 1);
    *found = true;
    return true;
}
