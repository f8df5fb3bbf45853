/* Telling a file's format from its content alone, whatever its name. */
#ifndef FERRY_DETECT_H
#define FERRY_DETECT_H

#include <stddef.h>
#include <ferry/export.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ferry_format {
    FERRY_FORMAT_UNKNOWN = 0,
    FERRY_FORMAT_ALO_MODEL,        /* Alamo model: first chunk 0x200 */
    FERRY_FORMAT_ALO_PARTICLE,     /* Alamo particle system: first chunk 0x900 */
    FERRY_FORMAT_ALO_PARTICLE_UAW, /* Universe at War particle system: first chunk 0x1500 (not read) */
    FERRY_FORMAT_ALA,              /* Alamo animation: first chunk 0x1000 */
    FERRY_FORMAT_ODOL,             /* binarized P3D: "ODOL" */
    FERRY_FORMAT_MLOD,             /* editable P3D: "MLOD" (recognised, not read) */
    FERRY_FORMAT_ALM,              /* ALOD progressive mesh: "ALM\0" */
    FERRY_FORMAT_GLB,              /* glTF 2.0 binary container: "glTF" */
    FERRY_FORMAT_GLTF,             /* glTF 2.0 JSON: an object with an "asset" key */
    FERRY_FORMAT_PAA,              /* PAA/PAC texture: a u16 type, then tags or a mipmap */
    FERRY_FORMAT_MEG,              /* Petroglyph MEG archive, formats 1, 2 and 3 */
    FERRY_FORMAT_PBO,              /* Bohemia PBO archive */
    FERRY_FORMAT_RAP,              /* Bohemia binarized config (raP): "\0raP" (.rvmat, config.bin) */
    FERRY_FORMAT_CONFIG_TEXT       /* Bohemia config as text (.rvmat, config.cpp) */
} ferry_format;

/* How many leading bytes ferry_detect looks at, at most: reading this much
 * of a file's head gives the same answer as the whole file. */
#define FERRY_DETECT_HEAD 4096

/* The format of `data` (size bytes; NULL or short buffers are fine), decided
 * from the first FERRY_DETECT_HEAD bytes, never from a name:
 *  - Alamo files (little-endian chunks): the first chunk's type, a u32 at 0:
 *    0x200 model, 0x900 particle system, 0x1500 Universe at War particle
 *    system, 0x1000 animation, with a whole 8-byte chunk header; a buffer of
 *    4 to 7 bytes starting with 0x200 counts as a (truncated) model, so that
 *    the model reader says where it ends;
 *  - ODOL and MLOD: the 4-byte signature "ODOL" / "MLOD" (the version that
 *    follows is the reader's to judge, so it can name an unsupported one);
 *  - ALM: the 4-byte signature "ALM\0" (version and byte order: the reader);
 *  - glb: the 4-byte magic "glTF" (the container's version: the reader);
 *  - .gltf: a JSON object (optional UTF-8 byte-order mark and white space,
 *    then '{', then white space and '"') whose text holds the key "asset"
 *    (the string "asset" followed by optional white space and ':') within
 *    the first FERRY_DETECT_HEAD bytes; every glTF file must have the key,
 *    and exporters write it first.
 *  - PAA/PAC textures (no magic): a u16 type 0xFF01..0xFF05 (DXT1-5),
 *    0x4444, 0x1555, 0x8888 or 0x8080, followed by a "GGAT" tag, or by an
 *    empty palette (u16 0) and a first mipmap of 1..8192 x 1..8192 pixels;
 *    tested after every other format. Palette-indexed OFP textures (no
 *    type) are not told; another file starting with those bytes would be
 *    taken for a texture, whose reader then says what is wrong;
 *  - MEG formats 2 and 3: the flags word 0xFFFFFFFF (0x8FFFFFFF: encrypted,
 *    which the reader refuses naming it) then the id 0x3F7D70A4;
 *  - MEG format 1 (no signature), tested after every other rule (PAA included): the name
 *    count equals the file count (as in every archive Petroglyph's tools
 *    write), and either the buffer is exactly 8 zero bytes (an empty
 *    archive) or the first name's u16 length is 1..260 and its bytes, all
 *    inside the buffer, are printable (no byte below 0x20, no 0x7F).
 *  - PBO (no signature): the product entry's first bytes (a 0 byte, then
 *    "sreV"); or, tested after MEG format 1, a first record whose name of
 *    1..1024 bytes has no byte below 0x20 and no 0x7F and ends with its 0
 *    byte, followed by its five u32 fields inside the buffer, the method 0
 *    with an original size of 0 or the data size, or the method 'Cprs';
 *    or an empty archive: exactly 21 zero bytes, or those and a 0 byte
 *    and a 20-byte SHA-1 (42 bytes).
 *  - raP configs: the 4-byte signature "\0raP";
 *  - text configs, tested last: after an optional UTF-8 byte-order mark,
 *    white space, // and /\* *\/ comments and lines starting with '#', the
 *    first word is `class`, `delete` or `enum` followed by white space, or a
 *    name (letters, digits, '_') followed by optional white space, an
 *    optional `[]` and `=` or `+=`; the head (up to FERRY_DETECT_HEAD bytes)
 *    must hold a ';' and no control byte other than tab, CR, LF and FF.
 * Anything else is FERRY_FORMAT_UNKNOWN. Reads no byte outside the buffer. */
FERRY_API ferry_format ferry_detect(const void *data, size_t size);

/* "ALO model", "ALO particle system", "ALA animation", "ODOL", "MLOD",
 * "ALM", "glTF binary", "glTF", "PAA", "MEG", "PBO", "raP config", "config text", "unknown". */
FERRY_API const char *ferry_format_name(ferry_format format);

#ifdef __cplusplus
}
#endif

#endif
