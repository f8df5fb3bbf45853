/* Petroglyph MEG archives (Empire at War, Forces of Corruption, Universe at
 * War, Grey Goo): formats 1, 2 and 3 (3 unencrypted). Layout and rules:
 * docs/formats/meg.md. */
#ifndef FERRY_MEG_H
#define FERRY_MEG_H

#include <stddef.h>
#include <stdint.h>
#include <ferry/export.h>
#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The u32 that identifies formats 2 and 3 (after the flags word). */
#define FERRY_MEG_ID 0x3F7D70A4u
/* The flags word of formats 2 and 3: unencrypted / encrypted (format 3). */
#define FERRY_MEG_FLAGS_PLAIN 0xFFFFFFFFu
#define FERRY_MEG_FLAGS_ENCRYPTED 0x8FFFFFFFu

/* One name of the name table. */
typedef struct ferry_meg_name {
    const char *text; /* the stored bytes plus a NUL (arena copy); may hold any byte but NUL */
    uint16_t length;  /* bytes stored (the NUL not counted) */
    uint64_t offset;  /* where its u16 length is in the archive */
} ferry_meg_name;

/* One record of the file table, as stored, plus where it points. The
 * fields both archive formats have carry the same names as in
 * ferry_pbo_entry (name, name_length, start, size, offset, data). */
typedef struct ferry_meg_entry {
    const char *name;    /* names[name_index].text, or NULL when out of range */
    size_t name_length;  /* bytes of the name (0 when name is NULL) */
    uint32_t start;      /* where its bytes begin: an offset from the archive's start, as stored */
    uint32_t size;       /* bytes of the entry, as stored */
    uint64_t offset;     /* where the record is in the archive */
    const uint8_t *data; /* into the archive given to ferry_meg_read, or NULL when
                            [start, start + size) is not inside it */
    /* MEG's own fields, as stored. */
    uint16_t flags;      /* format 3 only (1 = encrypted); 0 before */
    uint32_t crc;        /* CRC-32 of the name */
    uint32_t index;      /* the record's own index */
    uint32_t name_index; /* into names (a u16 in format 3) */
} ferry_meg_entry;

typedef struct ferry_meg {
    ferry_arena *arena;
    uint32_t format;          /* 1, 2 or 3 */
    uint32_t flags_word;      /* formats 2 and 3 */
    uint32_t id;              /* formats 2 and 3: FERRY_MEG_ID */
    uint32_t data_start;      /* formats 2 and 3: where the entries' bytes begin */
    uint32_t name_table_size; /* format 3: bytes of the name table */
    uint32_t name_count;
    ferry_meg_name *names;
    /* The records of the file table, in stored order. */
    uint32_t entry_count;
    ferry_meg_entry *entries;
    /* The archive (not copied: the caller keeps it alive while the object
     * is used) and where the tables end (the header, the name table and
     * the file table). */
    const uint8_t *archive;
    size_t archive_size;
    size_t tables_end;
} ferry_meg;

/* Reads an archive's tables; entries point into `data`, which must outlive
 * the object. Every count is checked against the bytes that remain before
 * anything is allocated; errors name the record ("files[3]/name_index").
 * An encrypted format 3 archive is refused (FERRY_ERR_UNSUPPORTED). */
FERRY_API ferry_result ferry_meg_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                      ferry_meg **out, ferry_error *err);

/* The tables from the archive's first bytes, for a caller that reads the
 * file a piece at a time instead of holding it (a browser's File.slice,
 * ferry_archive_from_reader): `head` holds the first head_size bytes of an
 * archive of archive_size bytes. When the head holds the tables, reads
 * them as ferry_meg_read reads the whole archive, with the same errors
 * (counts are compared with the whole archive's bytes), and sets *need to
 * where they end; entries whose bytes lie past the head have `data` NULL
 * (the caller reads [start, start + size) itself), and `archive` and
 * `archive_size` are the head. When it does not, returns FERRY_OK with
 * *out NULL and *need the bytes from the start (more than head_size, at
 * most archive_size) to read before calling again: the walk asks a few
 * times at most, and never reads past the tables but to name why they
 * cannot be read. head_size == archive_size is ferry_meg_read. */
FERRY_API ferry_result ferry_meg_read_head(const uint8_t *head, size_t head_size, uint64_t archive_size,
                                           const ferry_read_options *options, uint64_t *need, ferry_meg **out,
                                           ferry_error *err);

/* Appends the archive: the tables as read and the bytes after them, so a
 * read archive writes back byte for byte. */
FERRY_API ferry_result ferry_meg_write(const ferry_meg *meg, ferry_buffer *out, ferry_error *err);
/* The header and tables only (what ferry_meg_write appends before the
 * bytes archive[tables_end, archive_size)): to write a large archive in
 * pieces, the caller appending the rest from where it keeps it. */
FERRY_API ferry_result ferry_meg_write_tables(const ferry_meg *meg, ferry_buffer *out, ferry_error *err);

typedef struct ferry_meg_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_meg_validate_options;

/* Names (non-empty, the game's upper case with backslashes: warnings),
 * entries inside the archive, overlapping entries (warning), the stored
 * CRC-32 of each name, the order the game looks entries up in (records
 * sorted by CRC-32, ascending), record indices, name indices, format 2/3
 * header fields. Returns the number of errors added. */
FERRY_API size_t ferry_meg_validate(const ferry_meg *meg, const ferry_meg_validate_options *options,
                                    ferry_diagnostics *diags);

/* The CRC-32 (IEEE 802.3, as zlib's crc32) of `size` bytes: what MEG
 * records store for their names. */
FERRY_API uint32_t ferry_meg_crc32(const void *data, size_t size);

/* ---- Packing new archives (ferry pack) ---- */

/* The longest name a MEG can store (its u16 length). */
#define FERRY_MEG_NAME_MAX 65535u

/* The name a file at `path` (relative, '/' between folders) is stored
 * under, as the game's tools write names: ASCII letters upper case, '\'
 * between folders, one byte a character (Latin-1). A path that is valid
 * UTF-8 is converted to Latin-1 (a character past U+00FF cannot be
 * stored: FERRY_ERR_UNSUPPORTED, naming it); one that is not is taken as
 * Latin-1 bytes already (what ferry extract writes for such names).
 * Refused (FERRY_ERR_ARGUMENT, saying why): an empty path, an absolute one,
 * an empty, '.' or '..' segment, a '\' or NUL in a segment, a first
 * segment that reads as a drive letter ("C:"), more than FERRY_MEG_NAME_MAX
 * bytes. Writes *length bytes (no NUL) to `out`; strlen(path) bytes of
 * capacity always suffice. */
FERRY_API ferry_result ferry_meg_name_from_path(const char *path, char *out, size_t capacity, size_t *length,
                                                ferry_error *err);

typedef struct ferry_meg_pack_entry {
    const char *name;   /* the stored bytes (ferry_meg_name_from_path) */
    size_t name_length; /* 1..FERRY_MEG_NAME_MAX */
    uint64_t size;      /* bytes of the entry */
} ferry_meg_pack_entry;

typedef struct ferry_meg_pack_options {
    uint32_t format; /* 1, 2 or 3 (3 unencrypted); 0 means 1 */
} ferry_meg_pack_options;

/* Lays out a new archive of `count` entries as the game's tools write one:
 * records sorted by the CRC-32 of the name, ascending (equal CRCs by the
 * names' bytes), the name table in the same order (record i names name
 * i), each record's index its position, the entries' bytes right after the
 * tables in record order without gaps; formats 2 and 3 with flags
 * 0xFFFFFFFF (unencrypted) and the data start, format 3 with the name
 * table's size and record flags 0. Appends the header and both tables to
 * `tables` and writes to order[i] (count items) the entry whose bytes come
 * i-th: the caller appends them after the tables, and the archive reads
 * back as ferry_meg_read. Refused (FERRY_ERR_ARGUMENT or _LIMIT, naming
 * entries[i]): a name that is empty, longer than FERRY_MEG_NAME_MAX or
 * equal to another's ignoring ASCII case and '/' vs '\' (the game would
 * find only one); an entry of 4 GiB or more, or one that would start past
 * the 4 GiB a u32 offset reaches; more than 65535 entries in format 3
 * (its name index is a u16). */
FERRY_API ferry_result ferry_meg_pack_tables(const ferry_meg_pack_entry *entries, size_t count,
                                             const ferry_meg_pack_options *options, ferry_buffer *tables,
                                             size_t *order, ferry_error *err);

FERRY_API void ferry_meg_free(ferry_meg *meg);

/* The archive as a file source (ferry.h): paths are the stored names with
 * '/' for '\', folders are implied by them, and paths are compared
 * ignoring ASCII case, as the game looks names up (so a lookup through
 * ferry_file_source_find also finds "Data/Art/Textures/rock.dds" stored as
 * DATA\ART\TEXTURES\ROCK.DDS). Loads copy the entry's bytes. The archive
 * (and its bytes) must outlive the source; release with
 * ferry_file_source_close. */
FERRY_API ferry_result ferry_file_source_meg(const ferry_meg *meg, ferry_file_source *source, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
