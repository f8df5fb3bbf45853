/* The JSON every info builder makes (src/engine/info_*.c): strings from
 * files by the Latin-1 rule, reals by the caller's precision, the text out.
 * Not a public header. */
#ifndef FERRY_ENGINE_INFO_JSON_H
#define FERRY_ENGINE_INFO_JSON_H

#include <ferry/format.h>

#include <jansson.h>
#include <stdbool.h>

/* What an info builder is asked for, and about what. */
typedef struct fy_info {
    ferry_info_detail detail;
    bool exact;             /* reals to 17 digits when dumped */
    bool nonfinite_strings; /* NaN and infinities as strings, not left out */
    const char *name;       /* "file" (NULL: null) */
    const uint8_t *data;    /* the asset's bytes */
    size_t size;
    ferry_format format;
} fy_info;

/* Strings from files (README "Names in output"): valid UTF-8 as it is;
 * anything else read as Latin-1 as a whole (every byte one character), and
 * its key ("file", or "mesh_names/1" for an array's item) listed in the
 * object's "latin1" array, so that the bytes come back exactly. */
bool fy_utf8_valid(const char *text);
/* Every byte one character U+0000..U+00FF, as UTF-8 into out (room for
 * 2 n + 1 bytes, or stopping where capacity ends); returns the length. */
size_t fy_latin1_to_utf8(const char *text, size_t n, char *out, size_t capacity);
json_t *fy_json_text(const char *text, bool *latin1);
json_t *fy_json_textn(const char *text, size_t n, bool *latin1); /* n bytes, NUL allowed */
void fy_json_set_text(json_t *object, const char *key, const char *text);
/* Appends `text` to `array`, which is (or will be) object[key]. */
void fy_json_append_text(json_t *object, const char *key, json_t *array, const char *text);
void fy_json_append_textn(json_t *object, const char *key, json_t *array, const char *text, size_t n);
/* An object key from a file (keys carry no "latin1" mark): as is when
 * UTF-8, else read as Latin-1, written into buf. */
const char *fy_json_key(const char *text, char *buf, size_t capacity);
/* Sets "file": the asset's name. */
void fy_json_set_file(json_t *object, const fy_info *info);

/* A real: json_real, or for NaN and infinities NULL (left out by the
 * setters, as jansson does) unless nonfinite_strings asks for strings. */
json_t *fy_json_real(const fy_info *info, double x);
/* The same where a value that is not finite is a string whatever the mode
 * ("nan", "inf", "-inf"; "-nan" too with nonfinite_strings): ALM's rule. */
json_t *fy_json_real_text(const fy_info *info, double x);
/* An array of n reals, each by fy_json_real (an item not finite left out). */
json_t *fy_json_floats(const fy_info *info, const float *v, size_t n);
/* [x, y, z] as json_pack("[f,f,f]") makes it: NULL as a whole when one is
 * not finite, unless nonfinite_strings. */
json_t *fy_json_vec3(const fy_info *info, double x, double y, double z);

/* Bytes as lower-case hex ("00ff..."). */
json_t *fy_json_hex(const uint8_t *p, size_t n);

/* The object as text into `out` (compact, keys in order, reals to 9 or 17
 * digits); takes the reference. FERRY_ERR_NOMEM when jansson fails. */
ferry_result fy_json_finish(json_t *object, const fy_info *info, ferry_buffer *out, ferry_error *err);

/* The "not a known format" error, from the first bytes of a content. */
void fy_not_known(ferry_error *err, const uint8_t *data, size_t size);

#endif
