/* Helpers shared by the C tests: locating the corpus and the bundled samples,
 * poisoning memory under ASan. */
#ifndef FERRY_TEST_SUPPORT_H
#define FERRY_TEST_SUPPORT_H

#include <ferry/ala.h>
#include <ferry/convert.h>

/* FY_REF / FY_SET_REF: a scene's optional references as an index or -1. */
#include "scene/scene_ref.h"
#include <ferry/scene.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* TEST_ASAN is defined in AddressSanitizer builds (gcc and clang). There,
 * POISON marks bytes that a reader must not touch, e.g. those past a
 * truncation point, so a read beyond the cut is caught without a copy per
 * cut; elsewhere POISON and UNPOISON do nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* xorshift64*: a seeded sequence, the same on every machine, for the
 * corruption tests (each keeps its own state and seed). */
static inline uint64_t test_xorshift(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1Dull;
}

/* Paths of files under `dir` (recursive) whose names end with `suffix`
 * (case-insensitive), sorted. Returns the count; free with test_free_paths. */
size_t test_list_files(const char *dir, const char *suffix, char ***paths);
void test_free_paths(char **paths, size_t count);
bool test_dir_exists(const char *dir);
/* Reads a whole file (malloc'd), NULL on failure. */
uint8_t *test_read_file(const char *path, size_t *size);

/* Files and folders through the platform layer (src/core/platform.h), so
 * that a test makes, looks at and removes them the same way on Linux and on
 * Windows. Paths are UTF-8; on Windows '/' and '\\' both separate. */
/* Something is at the path (links not followed). */
bool test_path_exists(const char *path);
bool test_make_dir(const char *path);
bool test_remove_file(const char *path);
/* An empty folder. */
bool test_remove_dir(const char *path);
/* The path and everything under it; links are removed, never followed.
 * True when nothing is left. */
bool test_remove_tree(const char *path);
/* A new, empty folder NAME-XXXXXX (six letters and digits) under the
 * system's folder for temporaries ($TMPDIR or /tmp; on Windows %TEMP% or
 * %TMP%). False, with out "", when none could be made. */
bool test_make_temp_dir(const char *name, char *out, size_t cap);
/* The folder a test writes the outputs that tests/windows/outputs.sh
 * compares between the Linux and Windows builds: with FERRY_TEST_OUTPUTS
 * set, FERRY_TEST_OUTPUTS/NAME, emptied first and kept (*keep true);
 * otherwise a new temporary folder as test_make_temp_dir makes, which the
 * test removes. */
bool test_output_dir(const char *name, char *out, size_t cap, bool *keep);

/* Extras (ferry_json) as compact JSON text, reals to 9 significant digits:
 * the text the converters stored before extras became data, so the tests'
 * text assertions read the same. NULL for NULL. The text stays valid until
 * 64 more calls. */
const char *test_extras_text(const ferry_json *extras);
/* JSON text as a ferry_json for scenes built by hand (kept until the test
 * exits); NULL when the text is not JSON. */
const ferry_json *test_extras_parse(const char *text);

/* ferry_alo_scene_options as a caller holding the path of a model on the
 * disk sets them: named by the file's base name without extension (in
 * `name`, name_size bytes), textures found in the folders
 * ferry_alamo_texture_folders_open opens from that path and `dirs` (the
 * caller closes `folders`; on failure no texture places are set). */
void test_alo_scene_paths(ferry_alo_scene_options *o, const char *path, const char *const *dirs, size_t dir_count,
                          char *name, size_t name_size, ferry_alamo_texture_folders *folders);

/* Bit-exact pose comparison, field by field: a memcmp of the struct would
 * also compare its padding bytes, which hold whatever was there. */
static inline bool test_poses_equal(const ferry_ala_pose *a, const ferry_ala_pose *b)
{
    return memcmp(a->translation, b->translation, sizeof a->translation) == 0 &&
           memcmp(a->rotation, b->rotation, sizeof a->rotation) == 0 &&
           memcmp(a->scale, b->scale, sizeof a->scale) == 0 && a->visible == b->visible &&
           a->has_visibility == b->has_visibility;
}

#endif
