/* Internal core shared by every format module: the bounds-checked cursor,
 * error and diagnostic helpers, byte-buffer appends. Not a public header. */
#ifndef FERRY_CORE_H
#define FERRY_CORE_H

#include <ferry/ferry.h>

#include <stdarg.h>
#include <string.h>

#if defined(__MINGW32__) && !defined(__clang__)
/* MinGW's printf attribute means msvcrt's formats, which lack %zu; the
 * library is built with __USE_MINGW_ANSI_STDIO=1 (CMakeLists.txt), whose
 * printf family takes C99's. */
#define FY_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__) || defined(__clang__)
#define FY_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FY_PRINTF(a, b)
#endif

/* ---- numbers as text ---- */

/* `v` as snprintf(out, cap, "%.*g", precision, v) writes it, byte for byte
 * (ties to even, as glibc rounds), with exact integer arithmetic for the
 * values JSON writers meet (precision 1..17, magnitudes within about
 * 10^+-22 of the digits kept); snprintf itself otherwise. `cap` at least 32
 * for the fast way. Returns snprintf's count. */
int fy_real_g(double v, int precision, char *out, size_t cap);

/* ---- errors ---- */

void fy_error_set(ferry_error *err, ferry_result code, uint64_t offset, const char *path,
                  const char *fmt, ...) FY_PRINTF(5, 6);
/* The same with the arguments of a caller's own variadic error function. */
void fy_error_setv(ferry_error *err, ferry_result code, uint64_t offset, const char *path,
                   const char *fmt, va_list ap) FY_PRINTF(5, 0);
void fy_error_clear(ferry_error *err);
/* FERRY_ERR_IO: fmt's text, a colon and the system's words for `code`, a
 * platform layer code (platform.h): "cannot open X: No such file or
 * directory". Keeps an earlier error, as fy_error_set does. */
void fy_error_sys(ferry_error *err, uint64_t offset, int code, const char *fmt, ...) FY_PRINTF(4, 5);

/* A source made by ferry_file_source_cached (file_source_cache.c). */
bool fy_file_source_is_cached(const ferry_file_source *source);
/* For such a source: whether `folder` ("": the root) holds an entry of
 * that kind named `name` ignoring ASCII case (the first listed, as a walk
 * of the listing finds it), by a binary search of the folder's listing;
 * its name (no folder) goes to out. Returns false, touching nothing, when
 * the source is not a cached one (the caller walks the listing). */
bool fy_file_source_cached_find(const ferry_file_source *source, const char *folder, const char *name,
                                ferry_entry_kind kind, char *out, size_t out_size, bool *found);

void fy_diag_add(ferry_diagnostics *diags, ferry_severity severity, uint64_t offset,
                 const char *path, const char *rule, const char *fmt, ...) FY_PRINTF(6, 7);
/* A validator's findings, added to the `diags` in scope; an error also
 * counted in the `errors` in scope (the number ferry_X_validate returns). */
#define FY_DIAG_ERR(off, p, rule, ...) (fy_diag_add(diags, FERRY_SEVERITY_ERROR, off, p, rule, __VA_ARGS__), errors++)
#define FY_DIAG_WARN(off, p, rule, ...) fy_diag_add(diags, FERRY_SEVERITY_WARNING, off, p, rule, __VA_ARGS__)

/* ---- cursor ----
 * Reads from [pos, end) of base. A failed read marks the cursor failed,
 * records a located error once, and returns zero; later reads also return
 * zero, so straight-line parsing code checks `failed` once at the end. */
typedef struct fy_cursor {
    const uint8_t *base; /* start of the whole input: offsets are relative to it */
    size_t pos;
    size_t end;
    bool failed;
    ferry_error *err;
    const char *path; /* chunk path for error messages, may be NULL */
} fy_cursor;

static inline fy_cursor fy_cursor_make(const uint8_t *base, size_t pos, size_t end, ferry_error *err,
                                       const char *path)
{
    fy_cursor c = {base, pos, end, false, err, path};
    return c;
}

static inline size_t fy_remaining(const fy_cursor *c) { return c->failed ? 0 : c->end - c->pos; }

bool fy_need(fy_cursor *c, size_t n, const char *what);

static inline const uint8_t *fy_bytes(fy_cursor *c, size_t n, const char *what)
{
    if (!fy_need(c, n, what)) return NULL;
    const uint8_t *p = c->base + c->pos;
    c->pos += n;
    return p;
}

static inline uint8_t fy_u8(fy_cursor *c, const char *what)
{
    const uint8_t *p = fy_bytes(c, 1, what);
    return p ? p[0] : 0;
}

static inline uint16_t fy_load_u16le(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t fy_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline void fy_store_u32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t fy_load_u16be(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t fy_load_u32be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline uint64_t fy_load_u64le(const uint8_t *p)
{
    return (uint64_t)fy_load_u32le(p) | ((uint64_t)fy_load_u32le(p + 4) << 32);
}
static inline uint64_t fy_load_u64be(const uint8_t *p)
{
    return ((uint64_t)fy_load_u32be(p) << 32) | (uint64_t)fy_load_u32be(p + 4);
}
/* A float's bits as an integer and back (memcpy: the defined way to pun). */
#define FY_BIT_CAST(name, to, from)                                                                                    \
    static inline to name(from value)                                                                                  \
    {                                                                                                                  \
        to out;                                                                                                        \
        memcpy(&out, &value, sizeof out);                                                                              \
        return out;                                                                                                    \
    }
FY_BIT_CAST(fy_bits_f32, float, uint32_t)
FY_BIT_CAST(fy_f32_bits, uint32_t, float)
FY_BIT_CAST(fy_bits_f64, double, uint64_t)
FY_BIT_CAST(fy_f64_bits, uint64_t, double)
#undef FY_BIT_CAST

/* The cursor's number readers: each takes its bytes (0 once the cursor
 * has failed) and decodes them with the loader of its byte order. */
#define FY_CURSOR_NUMBER(name, type, size, decode)                                                                     \
    static inline type name(fy_cursor *c, const char *what)                                                           \
    {                                                                                                                  \
        const uint8_t *p = fy_bytes(c, size, what);                                                                    \
        return p ? decode : (type)0;                                                                                   \
    }
FY_CURSOR_NUMBER(fy_u16le, uint16_t, 2, fy_load_u16le(p))
FY_CURSOR_NUMBER(fy_u32le, uint32_t, 4, fy_load_u32le(p))
FY_CURSOR_NUMBER(fy_f32le, float, 4, fy_bits_f32(fy_load_u32le(p)))
FY_CURSOR_NUMBER(fy_u16be, uint16_t, 2, fy_load_u16be(p))
FY_CURSOR_NUMBER(fy_u32be, uint32_t, 4, fy_load_u32be(p))
FY_CURSOR_NUMBER(fy_f32be, float, 4, fy_bits_f32(fy_load_u32be(p)))
FY_CURSOR_NUMBER(fy_f64be, double, 8, fy_bits_f64(fy_load_u64be(p)))
#undef FY_CURSOR_NUMBER

/* Reads `count` elements of `elem_size` bytes after checking that they fit
 * in what remains: the check that guards every count-driven allocation. */
const uint8_t *fy_array(fy_cursor *c, uint64_t count, size_t elem_size, const char *what);

/* A NUL-terminated string that must end inside the cursor's range. Returns a
 * pointer into the input and sets *len (without the NUL). */
const char *fy_cstring(fy_cursor *c, size_t *len, const char *what);

/* Marks the cursor failed with a MALFORMED error at its current position. */
void fy_fail(fy_cursor *c, const char *fmt, ...) FY_PRINTF(2, 3);
void fy_fail_at(fy_cursor *c, size_t offset, ferry_result code, const char *fmt, ...) FY_PRINTF(4, 5);

/* ---- buffer appends (writers) ---- */

/* A malloc'd copy of a string (NULL: out of memory, or `s` NULL). */
char *fy_strdup(const char *s);

/* A name byte of an archive as its game compares names: '/' as '\\',
 * ASCII letters in one case (`upper`: MEG's; lower: PBO's). */
static inline int fy_archive_name_char(char c, bool upper)
{
    if (upper && c >= 'a' && c <= 'z') return c - 32;
    if (!upper && c >= 'A' && c <= 'Z') return c + 32;
    return c == '/' ? '\\' : (unsigned char)c;
}
/* Names a and b (lengths na, nb) as the game orders them: byte by byte
 * through fy_archive_name_char, then the shorter first; negative, 0 or
 * positive. */
static inline int fy_archive_name_cmp(const char *a, size_t na, const char *b, size_t nb, bool upper)
{
    size_t n = na < nb ? na : nb;
    for (size_t i = 0; i < n; i++) {
        int x = fy_archive_name_char(a[i], upper), y = fy_archive_name_char(b[i], upper);
        if (x != y) return x < y ? -1 : 1;
    }
    return na < nb ? -1 : na > nb;
}
/* A file's name without folders and extension (malloc'd, NULL without
 * memory): the name of a scene made from the file. `backslash`: '\\'
 * ends a folder too (an Alamo model's name, as the ferry tool named them). */
char *fy_path_stem(const char *path, bool backslash);

bool fy_buf_reserve(ferry_buffer *b, size_t extra);
void fy_buf_append(ferry_buffer *b, const void *data, size_t n);
void fy_buf_zeros(ferry_buffer *b, size_t n);
static inline void fy_buf_u8(ferry_buffer *b, uint8_t v) { fy_buf_append(b, &v, 1); }
void fy_buf_u16le(ferry_buffer *b, uint16_t v);
void fy_buf_u32le(ferry_buffer *b, uint32_t v);
static inline void fy_buf_f32le(ferry_buffer *b, float v) { fy_buf_u32le(b, fy_f32_bits(v)); }
void fy_buf_u16be(ferry_buffer *b, uint16_t v);
void fy_buf_u32be(ferry_buffer *b, uint32_t v);
void fy_buf_u64be(ferry_buffer *b, uint64_t v);
static inline void fy_buf_f32be(ferry_buffer *b, float v) { fy_buf_u32be(b, fy_f32_bits(v)); }
static inline void fy_buf_f64be(ferry_buffer *b, double v) { fy_buf_u64be(b, fy_f64_bits(v)); }
void fy_buf_put_u32le_at(ferry_buffer *b, size_t at, uint32_t v);

/* Host byte order test, decided at compile time where the compiler says. */
static inline bool fy_host_is_le(void)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#else
    const uint16_t probe = 1;
    return *(const uint8_t *)&probe == 1;
#endif
}

/* Arena internals: ordinary blocks of `block_size` bytes (clamped to
 * 4..64 KiB; 0 = 64 KiB), so that small inputs get small arenas; and an
 * allocation that is not zeroed, for memory about to be overwritten. */
ferry_arena *fy_arena_create_sized(size_t limit_bytes, size_t block_size);
void *fy_arena_alloc_uninit(ferry_arena *arena, size_t size);
/* Makes malloc'd `memory` (`size` bytes, counted against the limit) the
 * arena's, freed with it: a large result built in a growing buffer (an
 * embedded texture) joins the load without a copy (`size`: what it holds,
 * not the buffer's spare capacity, which is never touched). False (the memory still
 * the caller's) past the limit or out of memory. */
bool fy_arena_adopt(ferry_arena *arena, void *memory, size_t size);

/* ---- files ----
 * A write in two steps, so that several files can land together: stage
 * writes a temporary beside `path` (flushed unless options->no_sync; the
 * input protection checked first) and returns its malloc'd name; commit
 * renames it over `path` (on failure the temporary is removed). */
ferry_result fy_file_check_target(const char *path, const ferry_write_options *options, ferry_error *err);
ferry_result fy_file_stage(const char *path, const void *data, size_t size, const ferry_write_options *options,
                           char **tmp, ferry_error *err);
ferry_result fy_file_commit(const char *tmp, const char *path, ferry_error *err);
/* Every byte written through `w` from now on is also given to `fn` (NULL:
 * none any more), in order; ferry_file_writer_append_file then copies
 * through memory, since a copy inside the kernel would pass the bytes by.
 * For a checksum computed as an archive is written (a PBO's SHA-1). */
typedef void (*fy_bytes_fn)(void *user, const void *data, size_t size);
void fy_file_writer_observe(ferry_file_writer *w, fy_bytes_fn fn, void *user);
/* Whether ferry_file_load could open `path` now (a regular file that opens
 * for reading): false with err saying why in ferry_file_load's words. */
bool fy_file_check_readable(const char *path, ferry_error *err);

/* Default load limit for an input of `input_size` bytes. */
size_t fy_default_memory_limit(const ferry_read_options *opts, size_t input_size);

#endif
