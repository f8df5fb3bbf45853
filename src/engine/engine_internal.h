/* The engine's insides: the row of the format table (format_table.c, one
 * per format), the asset, and what the rows' functions share. Not a public
 * header. */
#ifndef FERRY_ENGINE_INTERNAL_H
#define FERRY_ENGINE_INTERNAL_H

#include <ferry/format.h>

#include "info_json.h"

/* What a row's reader is given besides the bytes. */
typedef struct fy_read_args {
    const ferry_read_options *read;
    const ferry_file_source *files; /* a .gltf's folder */
} fy_read_args;

/* An archive's entry, as the entry checks and ferry_archive see it. */
typedef struct fy_entry {
    const char *name; /* stored name (NULL: none) */
    size_t name_length;
    const uint8_t *stored; /* its stored bytes in the input (NULL: not inside it) */
    size_t stored_size;
    bool decode; /* its bytes are had through entry_bytes, not `stored` as it is */
    uint64_t size;   /* its bytes when read (decoded) */
    uint64_t start;  /* where its stored bytes begin in the archive */
    uint64_t offset; /* where its record is */
    bool compressed;
    bool as_stored; /* its stored bytes are its bytes (not decoded; a PBO entry of another method is refused) */
} fy_entry;

/* What only archives do, for ferry_archive (archive*.c): one per archive
 * format, pointed at by its row. */
typedef struct fy_archive_row {
    /* How messages name its records: "files" (MEG: files[3]), "entries". */
    const char *record;
    /* The tables from the archive's first head_size bytes (of archive_size
     * in all): ferry_X_read_head. */
    ferry_result (*read_head)(const uint8_t *head, size_t head_size, uint64_t archive_size, const fy_read_args *args,
                              uint64_t *need, void **out, ferry_error *err);
    /* The object as a file source (ferry_file_source_X). */
    ferry_result (*source)(const void *object, ferry_file_source *source, ferry_error *err);
    /* The engine mounts its entries at a prefix (PBO): the one it names
     * (NULL: none, its file name is used). NULL function: never mounted. */
    const char *(*prefix)(const void *object);
    /* Entry `index`'s bytes from its stored bytes (however they were had):
     * ferry_pbo_entry_decode. NULL: the stored bytes are the entry's. */
    ferry_result (*decode)(const void *object, size_t index, const uint8_t *stored, size_t max_size, uint8_t **bytes,
                           size_t *size, ferry_error *err);
} fy_archive_row;

/* One format. NULL functions: the format does not do that. Every
 * function takes the typed object `read` made. */
typedef struct fy_format_row {
    ferry_format_desc desc;
    ferry_result (*read)(const uint8_t *data, size_t size, const fy_read_args *args, void **out, ferry_error *err);
    void (*free)(void *object);
    ferry_result (*write)(const void *object, ferry_buffer *out, ferry_error *err);
    /* Another layout (ALA 1 or 2; configs raP or text). */
    ferry_result (*write_layout)(const void *object, unsigned layout, ferry_buffer *out, ferry_error *err);
    /* Archives: the tables alone, and where they end in the input (the
     * rest of a rewrite is the input's bytes after them). */
    ferry_result (*write_tables)(const void *object, ferry_buffer *out, uint64_t *tables_end, ferry_error *err);
    size_t (*validate)(const ferry_asset *asset, const void *object, const ferry_asset_validate_options *options,
                       ferry_diagnostics *diags);
    /* Archives: the entries, for the entry checks; entry_bytes decodes one
     * whose bytes do not lie in the input as they are (malloc'd, at most
     * max_size bytes, 0: no limit). */
    size_t (*entry_count)(const void *object);
    void (*entry_at)(const void *object, size_t index, fy_entry *entry);
    ferry_result (*entry_bytes)(const void *object, size_t index, size_t max_size, uint8_t **bytes, size_t *size,
                                ferry_error *err);
    const fy_archive_row *archive; /* NULL: not an archive */
    /* Info (fy_info says which detail): one object, NULL when memory fails.
     * info_full_from_bytes: FERRY_INFO_FULL needs no object (the Alamo
     * chunk tree), and may fail (err filled, NULL returned). */
    json_t *(*info)(const fy_info *info, const void *object, ferry_error *err);
    bool info_full_from_bytes;
    ferry_result (*to_scene)(const ferry_asset *asset, const void *object, const ferry_asset_scene_options *options,
                             ferry_scene **out, ferry_error *err);
    /* The bytes of a new object made from a scene. */
    ferry_result (*from_scene)(const ferry_scene *scene, const ferry_asset_from_scene_options *options,
                               ferry_buffer *out, ferry_error *err);
} fy_format_row;

/* The row of a format (NULL: none, FERRY_FORMAT_UNKNOWN). */
const fy_format_row *fy_format_row_of(ferry_format id);
/* `name` (n bytes) ends in an extension of a format ferry validates, from
 * the table (those other files carry too, .bin, .cpp, .hpp, left out):
 * ferry_format_named_like_asset. */
bool fy_format_named_like_asset(const char *name, size_t n);

struct ferry_asset {
    const fy_format_row *row; /* NULL: no known format (bytes_only) */
    ferry_format format;
    const uint8_t *data;
    size_t size;
    void *object; /* NULL with bytes_only */
    char *name;
    ferry_read_options read;
    ferry_file_mapping map; /* ferry_asset_open's (map.base or map.data set) */
    bool mapped;
    uint8_t *owned; /* ferry_asset_from_scene's bytes */
    ferry_file_source folder; /* a .gltf's folder, opened by ferry_asset_open */
    bool folder_open;
    const ferry_file_source *files;
    char *path; /* ferry_asset_open's */
};

/* The asset's object for one call: its own, or read now (*temporary set:
 * free it with the row's free). NULL with err filled when it cannot be read. */
void *fy_asset_object_get(const ferry_asset *asset, bool *temporary, ferry_error *err);
void fy_asset_object_put(const ferry_asset *asset, void *object, bool temporary);

/* The signatures of the rows' functions: each family defines its own
 * with these (`FY_READ(paa) { ... }` in info_paa.c) and format_table.c
 * declares the ones its rows name, so that a row and its functions agree
 * by construction. */
#define FY_READ(x) ferry_result fy_##x##_read(const uint8_t *data, size_t size, const fy_read_args *args, void **out, \
                                              ferry_error *err)
#define FY_FREE(x) void fy_##x##_free(void *object)
#define FY_WRITE(x) ferry_result fy_##x##_write(const void *object, ferry_buffer *out, ferry_error *err)
#define FY_WRITE_LAYOUT(x) ferry_result fy_##x##_write_layout(const void *object, unsigned layout, ferry_buffer *out, \
                                                              ferry_error *err)
#define FY_WRITE_TABLES(x) ferry_result fy_##x##_write_tables(const void *object, ferry_buffer *out, \
                                                              uint64_t *tables_end, ferry_error *err)
#define FY_VALIDATE(x) size_t fy_##x##_validate(const ferry_asset *asset, const void *object, \
                                                const ferry_asset_validate_options *options, ferry_diagnostics *diags)
#define FY_ENTRY_COUNT(x) size_t fy_##x##_entry_count(const void *object)
#define FY_ENTRY_AT(x) void fy_##x##_entry_at(const void *object, size_t index, fy_entry *entry)
#define FY_ENTRY_BYTES(x) ferry_result fy_##x##_entry_bytes(const void *object, size_t index, size_t max_size, \
                                                            uint8_t **bytes, size_t *size, ferry_error *err)
#define FY_INFO(x) json_t *fy_##x##_info(const fy_info *info, const void *object, ferry_error *err)
#define FY_TO_SCENE(x) ferry_result fy_##x##_to_scene(const ferry_asset *asset, const void *object, \
                                                      const ferry_asset_scene_options *options, ferry_scene **out, \
                                                      ferry_error *err)
#define FY_FROM_SCENE(x) ferry_result fy_##x##_from_scene(const ferry_scene *scene, \
                                                          const ferry_asset_from_scene_options *options, \
                                                          ferry_buffer *out, ferry_error *err)

/* The row functions that only hand the call to the format's own: its
 * reader (type, ferry_X_read), freer, writer, validator (its options not
 * used: NULL). */
#define FY_DEFINE_READ(x, type, reader)                                                \
    FY_READ(x)                                                                         \
    {                                                                                  \
        type *object = NULL;                                                           \
        ferry_result r = reader(data, size, args->read, &object, err);                 \
        *out = object;                                                                 \
        return r;                                                                      \
    }
/* An archive row's read_head over the format's ferry_X_read_head. */
#define FY_DEFINE_READ_HEAD(x, type, reader)                                                                 \
    static ferry_result fy_##x##_read_head(const uint8_t *head, size_t head_size, uint64_t archive_size,     \
                                           const fy_read_args *args, uint64_t *need, void **out,            \
                                           ferry_error *err)                                                \
    {                                                                                                        \
        type *object = NULL;                                                                                 \
        ferry_result r = reader(head, head_size, archive_size, args->read, need, &object, err);              \
        *out = object;                                                                                       \
        return r;                                                                                            \
    }
#define FY_DEFINE_FREE(x, freer) \
    FY_FREE(x) { freer(object); }
#define FY_DEFINE_WRITE(x, writer) \
    FY_WRITE(x) { return writer(object, out, err); }
#define FY_DEFINE_VALIDATE(x, validator)              \
    FY_VALIDATE(x)                                    \
    {                                                 \
        (void)asset;                                  \
        (void)options;                                \
        return validator(object, NULL, diags);        \
    }

/* The Alamo chunk tree of any bytes as JSON (`ferry dump` of an Alamo
 * file, or of any content whose chunks read); NULL with err filled when it
 * is no chunk tree. */
json_t *fy_alamo_chunks_json(const fy_info *info, ferry_error *err);

#endif
