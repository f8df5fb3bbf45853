/* ferry_detect: a buffer's format from its first bytes (include/ferry/detect.h).
 * Every read is checked against `size`; nothing is allocated. */
#include <ferry/detect.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../../core/core.h"

static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* A JSON object holding the key "asset": '{' first (after an optional BOM
 * and white space), then a key, and somewhere in the window "asset" then ':'. */
static int looks_like_gltf_json(const uint8_t *p, size_t n)
{
    size_t i = 0;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
    while (i < n && is_space(p[i])) i++;
    if (i >= n || p[i] != '{') return 0;
    i++;
    while (i < n && is_space(p[i])) i++;
    if (i >= n || p[i] != '"') return 0;
    static const char key[] = "\"asset\"";
    const size_t k = sizeof key - 1;
    for (; i + k <= n; i++) {
        if (memcmp(p + i, key, k) != 0) continue;
        size_t j = i + k;
        while (j < n && is_space(p[j])) j++;
        if (j < n && p[j] == ':') return 1;
    }
    return 0;
}

/* PAA/PAC: no magic, but a u16 type that only these values take, then
 * either a "GGAT" tag or (no tags) an empty palette and a first mipmap of
 * 1..8192 x 1..8192 pixels (the width's top bit is the LZO flag of DXT
 * types). Palette-indexed OFP textures, which start with their tags or
 * palette and no type, are not told. */
static bool looks_like_paa(const uint8_t *p, size_t size)
{
    uint16_t type = fy_load_u16le(p);
    bool dxt = type >= 0xFF01 && type <= 0xFF05;
    if (!dxt && type != 0x4444 && type != 0x1555 && type != 0x8888 && type != 0x8080) return false;
    if (size >= 6 && memcmp(p + 2, "GGAT", 4) == 0) return true;
    if (size < 2 + 2 + 7) return false;
    uint16_t palette = fy_load_u16le(p + 2), w = fy_load_u16le(p + 4), h = fy_load_u16le(p + 6);
    if (dxt) w &= 0x7FFF;
    return palette == 0 && w >= 1 && w <= 8192 && h >= 1 && h <= 8192;
}

static bool name_char(uint8_t ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* A text config (detect.h): comments, directives and space skipped, then
 * `class`/`delete`/`enum` and a space, or NAME [ "[]" ] "=" or "+=". */
static bool looks_like_config_text(const uint8_t *p, size_t n)
{
    /* text: no control byte but white space, and a ';' somewhere */
    for (size_t k = 0; k < n; k++)
        if ((p[k] < 0x20 && p[k] != '\t' && p[k] != '\r' && p[k] != '\n' && p[k] != '\f') || p[k] == 0x7F) return false;
    if (!memchr(p, ';', n)) return false;
    size_t i = 0;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
    for (;;) {
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
        if (i + 1 < n && p[i] == '/' && p[i + 1] == '/') {
            while (i < n && p[i] != '\n') i++;
        } else if (i + 1 < n && p[i] == '/' && p[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(p[i] == '*' && p[i + 1] == '/')) i++;
            if (i + 1 >= n) return false;
            i += 2;
        } else if (i < n && p[i] == '#') {
            while (i < n && p[i] != '\n') i++;
        } else {
            break;
        }
    }
    size_t w = i;
    while (i < n && name_char(p[i])) i++;
    size_t len = i - w;
    if (!len) return false;
    bool space = i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n');
    if (space && ((len == 5 && !memcmp(p + w, "class", 5)) || (len == 6 && !memcmp(p + w, "delete", 6)) ||
                  (len == 4 && !memcmp(p + w, "enum", 4))))
        return true;
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    if (i + 1 < n && p[i] == '[' && p[i + 1] == ']') {
        i += 2;
        while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    }
    if (i < n && p[i] == '+') i++;
    return i < n && p[i] == '=';
}

/* MEG format 1 has no signature: equal counts, then a plausible first name. */
static int looks_like_meg1(const uint8_t *p, size_t n)
{
    if (n < 8 || fy_load_u32le(p) != fy_load_u32le(p + 4)) return 0;
    if (fy_load_u32le(p) == 0) return n == 8;
    if (n < 10) return 0;
    size_t len = fy_load_u16le(p + 8);
    if (len < 1 || len > 260 || 10 + len > n) return 0;
    for (size_t i = 0; i < len; i++)
        if (p[10 + i] < 0x20 || p[10 + i] == 0x7F) return 0;
    return 1;
}

/* PBO has no signature: the product entry, or a plausible first record
 * (include/ferry/detect.h). */
static bool looks_like_pbo(const uint8_t *p, size_t n, size_t whole)
{
    if (n >= 5 && p[0] == 0 && memcmp(p + 1, "sreV", 4) == 0) return true;
    if (p[0] == 0) {
        if (whole != 21 && whole != 42) return false;
        for (size_t i = 0; i < 21; i++)
            if (p[i]) return false;
        return whole == 21 || p[21] == 0;
    }
    size_t len = 0;
    while (len < n && len <= 1024 && p[len]) {
        if (p[len] < 0x20 || p[len] == 0x7F) return false;
        len++;
    }
    if (len > 1024 || len + 21 > n) return false;
    const uint8_t *f = p + len + 1;
    uint32_t method = fy_load_u32le(f), original = fy_load_u32le(f + 4), size = fy_load_u32le(f + 16);
    if (method == 0x43707273u) return true;
    return method == 0 && (original == 0 || original == size);
}

ferry_format ferry_detect(const void *data, size_t size)
{
    if (!data || size < 4) return FERRY_FORMAT_UNKNOWN;
    const uint8_t *p = data;
    size_t whole = size;
    if (size > FERRY_DETECT_HEAD) size = FERRY_DETECT_HEAD;
    if (memcmp(p, "ODOL", 4) == 0) return FERRY_FORMAT_ODOL;
    if (memcmp(p, "MLOD", 4) == 0) return FERRY_FORMAT_MLOD;
    if (memcmp(p, "ALM\0", 4) == 0) return FERRY_FORMAT_ALM;
    if (memcmp(p, "glTF", 4) == 0) return FERRY_FORMAT_GLB;
    if (memcmp(p, "\0raP", 4) == 0) return FERRY_FORMAT_RAP;
    uint32_t first = fy_load_u32le(p);
    if (size >= 8 && (first == 0xFFFFFFFFu || first == 0x8FFFFFFFu) && fy_load_u32le(p + 4) == 0x3F7D70A4u)
        return FERRY_FORMAT_MEG;
    if (size >= 8) {
        switch (first) {
        case 0x200: return FERRY_FORMAT_ALO_MODEL;
        case 0x900: return FERRY_FORMAT_ALO_PARTICLE;
        case 0x1500: return FERRY_FORMAT_ALO_PARTICLE_UAW;
        case 0x1000: return FERRY_FORMAT_ALA;
        default: break;
        }
    } else if (first == 0x200) {
        return FERRY_FORMAT_ALO_MODEL; /* shorter than a chunk header: the reader says where it ends */
    }
    if (looks_like_gltf_json(p, size)) return FERRY_FORMAT_GLTF;
    if (looks_like_paa(p, size)) return FERRY_FORMAT_PAA;
    if (looks_like_meg1(p, size)) return FERRY_FORMAT_MEG;
    if (looks_like_pbo(p, size, whole)) return FERRY_FORMAT_PBO;
    if (looks_like_config_text(p, size)) return FERRY_FORMAT_CONFIG_TEXT;
    return FERRY_FORMAT_UNKNOWN;
}

const char *ferry_format_name(ferry_format format)
{
    switch (format) {
    case FERRY_FORMAT_ALO_MODEL: return "ALO model";
    case FERRY_FORMAT_ALO_PARTICLE: return "ALO particle system";
    case FERRY_FORMAT_ALO_PARTICLE_UAW: return "ALO particle system (Universe at War, 0x1500)";
    case FERRY_FORMAT_ALA: return "ALA animation";
    case FERRY_FORMAT_ODOL: return "ODOL";
    case FERRY_FORMAT_MLOD: return "MLOD";
    case FERRY_FORMAT_ALM: return "ALM";
    case FERRY_FORMAT_GLB: return "glTF binary";
    case FERRY_FORMAT_GLTF: return "glTF";
    case FERRY_FORMAT_PAA: return "PAA";
    case FERRY_FORMAT_MEG: return "MEG";
    case FERRY_FORMAT_PBO: return "PBO";
    case FERRY_FORMAT_RAP: return "raP config";
    case FERRY_FORMAT_CONFIG_TEXT: return "config text";
    default: return "unknown";
    }
}
