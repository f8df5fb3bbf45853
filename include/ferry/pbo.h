/* Bohemia Interactive PBO archives (Operation Flashpoint, ArmA, ArmA 2 and
 * 3): the entry table, the 'Vers' product entry with its properties (the
 * prefix and others), the data, the SHA-1 trailer; LZSS-compressed entries
 * ('Cprs'). Layout and rules: docs/formats/pbo.md. */
#ifndef FERRY_PBO_H
#define FERRY_PBO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ferry/export.h>
#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Packing methods, as the u32 little-endian values stored. */
#define FERRY_PBO_METHOD_NONE 0u
#define FERRY_PBO_METHOD_COMPRESSED 0x43707273u /* 'Cprs' (bytes "srpC") */
#define FERRY_PBO_METHOD_VERSION 0x56657273u    /* 'Vers' (bytes "sreV"): the product entry */

/* The size of the SHA-1 in the trailer. */
#define FERRY_PBO_SHA1_SIZE 20

/* One record of the entry table, as stored, plus where its bytes are. The
 * fields both archive formats have carry the same names as in
 * ferry_meg_entry (name, name_length, start, size, offset, data). */
typedef struct ferry_pbo_entry {
    const char *name;      /* the stored bytes plus a NUL (arena copy); never holds a NUL */
    size_t name_length;    /* bytes stored (the terminating NUL not counted) */
    uint64_t start;        /* where its bytes begin: the data block's start plus the sizes before it */
    uint32_t size;         /* bytes stored in the data block, as stored */
    uint64_t offset;       /* where the record (its name) begins in the archive */
    const uint8_t *data;   /* into the archive given to ferry_pbo_read, or NULL when
                              [start, start + size) is not inside it */
    /* PBO's own fields, as stored. */
    uint32_t method;       /* FERRY_PBO_METHOD_NONE or _COMPRESSED; anything else as stored */
    uint32_t original_size; /* compressed: the decoded size; otherwise 0 or size */
    uint32_t reserved;
    uint32_t timestamp;    /* seconds since 1970 (0 from some packers) */
} ferry_pbo_entry;

/* One key/value pair of the product entry. */
typedef struct ferry_pbo_property {
    const char *key, *value; /* stored bytes plus a NUL (arena copies) */
    size_t key_length, value_length;
    uint64_t offset; /* where the key begins */
} ferry_pbo_property;

typedef struct ferry_pbo {
    ferry_arena *arena;
    /* The product entry (empty name, method 'Vers'), when the archive
     * starts with one: its five fields as stored, then the properties,
     * which end with an empty key. */
    bool has_product_entry;
    ferry_pbo_entry product;
    size_t property_count;
    ferry_pbo_property *properties;
    size_t entry_count;
    ferry_pbo_entry *entries;
    /* The record that ends the table (empty name; its fields as stored,
     * normally all zero). */
    ferry_pbo_entry terminator;
    /* The archive (not copied: the caller keeps it alive while the object
     * is used). */
    const uint8_t *archive;
    size_t archive_size;
    size_t tables_end; /* where the table ends and the data block begins */
    uint64_t data_end; /* tables_end plus every entry's size (may pass archive_size) */
    /* The trailer: a 0 byte and the SHA-1 of the bytes before that 0 byte
     * (has_checksum when exactly those 21 bytes follow the data; OFP's
     * archives end with the data). The SHA-1 is computed on read; a
     * mismatch is for ferry_pbo_validate to report, not a read failure. */
    bool has_checksum;
    uint8_t checksum[FERRY_PBO_SHA1_SIZE];  /* as stored */
    uint8_t computed[FERRY_PBO_SHA1_SIZE];  /* of [0, data_end), when has_checksum */
} ferry_pbo;

/* Reads an archive's table; entries point into `data`, which must outlive
 * the object. Names and properties must end with their NUL inside the
 * archive, the table must end with its empty record, a 'Vers' product entry
 * is read only as the first record; errors name the record
 * ("entries[3]"). An archive whose product entry has an 'encryption'
 * property (its table is encrypted) is refused (FERRY_ERR_UNSUPPORTED).
 * Data past the archive's end is not a read failure
 * (the entry's `data` is NULL; validation names it), nor is a wrong SHA-1. */
FERRY_API ferry_result ferry_pbo_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                      ferry_pbo **out, ferry_error *err);

/* The table from the archive's first bytes, for a caller that reads the
 * file a piece at a time instead of holding it (a browser's File.slice,
 * ferry_archive_from_reader): `head` holds the first head_size bytes of an
 * archive of archive_size bytes. When the head holds the table, reads it
 * as ferry_pbo_read reads the whole archive, with the same errors, and
 * sets *need to where it ends; entries whose bytes lie past the head have
 * `data` NULL (the caller reads [start, start + size) itself and decodes
 * them with ferry_pbo_entry_decode), `archive` and `archive_size` are the
 * head, and the trailer is read only when the head holds it
 * (has_checksum: the SHA-1 of everything before it needs every byte).
 * When it does not, returns FERRY_OK with *out NULL and *need the bytes
 * from the start (more than head_size, at most archive_size) to read
 * before calling again: a few times at most, never past the table but to
 * name why it cannot be read. head_size == archive_size is ferry_pbo_read. */
FERRY_API ferry_result ferry_pbo_read_head(const uint8_t *head, size_t head_size, uint64_t archive_size,
                                           const ferry_read_options *options, uint64_t *need, ferry_pbo **out,
                                           ferry_error *err);

/* Appends the archive: the table as read and every byte after it (data,
 * trailer, anything else), so a read archive writes back byte for byte,
 * its stored SHA-1 included (ferry_pbo_update_checksum recomputes it on
 * request; ferry_pbo_pack writes fresh archives with a fresh one). */
FERRY_API ferry_result ferry_pbo_write(const ferry_pbo *pbo, ferry_buffer *out, ferry_error *err);
/* The table only (what ferry_pbo_write appends before the bytes
 * archive[tables_end, archive_size)): to write a large archive in pieces,
 * the caller appending the rest from where it keeps it. */
FERRY_API ferry_result ferry_pbo_write_tables(const ferry_pbo *pbo, ferry_buffer *out, ferry_error *err);

typedef struct ferry_pbo_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_pbo_validate_options;

/* Entries inside the archive, methods, sizes, compressed entries (each
 * decoded: its stream must give original_size bytes and its checksum),
 * names (unsafe paths, '/', duplicates ignoring case), the product entry
 * and its properties (a prefix, keys once), the trailer and its SHA-1.
 * Returns the number of errors added. */
FERRY_API size_t ferry_pbo_validate(const ferry_pbo *pbo, const ferry_pbo_validate_options *options,
                                    ferry_diagnostics *diags);

FERRY_API void ferry_pbo_free(ferry_pbo *pbo);

/* The value of the first property named `key` (ignoring ASCII case, as the
 * engine compares keys), or NULL. ferry_pbo_property_value(pbo, "prefix") is the folder the engine
 * mounts the archive's entries under. */
FERRY_API const char *ferry_pbo_property_value(const ferry_pbo *pbo, const char *key);

/* An entry's decoded bytes: `size` bytes as stored, or a compressed
 * entry's `original_size` bytes decoded with Bohemia's LZSS (lzss.h) and its
 * checksum checked; another method is FERRY_ERR_UNSUPPORTED (as the engine,
 * which fails on an unknown one). *bytes is malloc'd (free() it); at most `max_size`
 * bytes (0: no limit) or FERRY_ERR_LIMIT. Errors are located in the archive. */
FERRY_API ferry_result ferry_pbo_entry_bytes(const ferry_pbo *pbo, size_t index, size_t max_size, uint8_t **bytes,
                                             size_t *size, ferry_error *err);
/* The same from the entry's stored bytes wherever the caller had them
 * (`stored`: the entry's `size` bytes, read from [start, start + size) of
 * the archive; ferry_pbo_entry_bytes passes its `data`): for a table read
 * with ferry_pbo_read_head. */
FERRY_API ferry_result ferry_pbo_entry_decode(const ferry_pbo *pbo, size_t index, const uint8_t *stored,
                                              size_t max_size, uint8_t **bytes, size_t *size, ferry_error *err);

/* For a path the engine names by the prefix ("x\\addon\\data\\a.paa" or with
 * '/'): the rest after the archive's prefix and one separator, compared
 * ignoring ASCII case with '/' and '\\' alike ("data\\a.paa"), or NULL when
 * the path is not under the prefix (an archive without a prefix: NULL). */
FERRY_API const char *ferry_pbo_strip_prefix(const ferry_pbo *pbo, const char *path);

/* Recomputes the trailer of the archive in `archive` (as ferry_pbo_write or
 * ferry_pbo_pack left it, or any archive's bytes): its table is read, the
 * SHA-1 of the bytes before the data's end is written over the stored one,
 * or a 0 byte and the SHA-1 are appended when the archive ends with its data
 * (an OFP archive). Bytes after a trailer are dropped. The table must read
 * and every entry's bytes must be inside the archive (else the reader's
 * error, or FERRY_ERR_MALFORMED naming the entry); other bytes after the data
 * that are not a trailer are FERRY_ERR_MALFORMED, the archive unchanged. */
FERRY_API ferry_result ferry_pbo_update_checksum(ferry_buffer *archive, ferry_error *err);

/* The SHA-1 of `size` bytes (nettle's), what the trailer holds. */
FERRY_API void ferry_pbo_sha1(const void *data, size_t size, uint8_t digest[FERRY_PBO_SHA1_SIZE]);

/* One file to pack. */
typedef struct ferry_pbo_pack_file {
    const char *name;    /* its path in the archive; '/' is stored as '\\' */
    const uint8_t *data; /* its bytes (not compressed) */
    size_t size;
    uint32_t timestamp;  /* stored as is (seconds since 1970; 0 is accepted) */
} ferry_pbo_pack_file;

typedef struct ferry_pbo_pack_options {
    /* The product entry's properties, in this order (NULL values are
     * empty); none and no prefix: the archive has no product entry (as a
     * mission's). */
    const ferry_pbo_property *properties;
    size_t property_count;
    /* A shortcut for the most common property: when not NULL, "prefix"
     * with this value comes first (any "prefix" in properties is then
     * refused as a duplicate). '/' is stored as '\\'. */
    const char *prefix;
} ferry_pbo_pack_options;

/* Builds an archive as the community's packers do: the product entry and
 * its properties, one uncompressed record per file (original size equal to
 * the data size), records and data sorted by name ignoring ASCII case, the
 * empty record, the data, a 0 byte and the SHA-1 of everything before it.
 * Names must be relative paths of plain segments (no drive letter, no
 * leading separator, no empty, '.' or '..' segment), unique ignoring case;
 * sizes below 4 GiB. FERRY_ERR_ARGUMENT names the file otherwise. Appends
 * to `out`. */
FERRY_API ferry_result ferry_pbo_pack(const ferry_pbo_pack_file *files, size_t count,
                                      const ferry_pbo_pack_options *options, ferry_buffer *out, ferry_error *err);

/* The table of a new archive laid out as ferry_pbo_pack lays it out (the
 * same checks, files' `data` not used), for a caller that appends the
 * files' bytes itself (ferry_archive_pack streams them from the disk):
 * appends the product entry, its properties, the records and the empty
 * record to `tables`, and writes to order[k] (count items) the file whose
 * bytes come k-th. The archive is then `tables`, each file's bytes in
 * that order, a 0 byte and the SHA-1 of everything before it. */
FERRY_API ferry_result ferry_pbo_pack_tables(const ferry_pbo_pack_file *files, size_t count,
                                             const ferry_pbo_pack_options *options, ferry_buffer *tables,
                                             size_t *order, ferry_error *err);

/* The archive as a file source (ferry.h): paths are the stored names with
 * '/' for '\\', folders are implied by them, and paths are compared
 * ignoring ASCII case, as the engine looks names up. Loads decode
 * compressed entries. The prefix is not part of the paths: strip it first
 * (ferry_pbo_strip_prefix). The archive (and its bytes) must outlive the
 * source; release with ferry_file_source_close. */
FERRY_API ferry_result ferry_file_source_pbo(const ferry_pbo *pbo, ferry_file_source *source, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
