/* Helpers shared by the C tests: locating the corpus and the bundled samples. */
#ifndef FERRY_TEST_SUPPORT_H
#define FERRY_TEST_SUPPORT_H

#include <ferry/ala.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Paths of files under `dir` (recursive) whose names end with `suffix`
 * (case-insensitive), sorted. Returns the count; free with test_free_paths. */
size_t test_list_files(const char *dir, const char *suffix, char ***paths);
void test_free_paths(char **paths, size_t count);
bool test_dir_exists(const char *dir);
/* Reads a whole file (malloc'd), NULL on failure. */
uint8_t *test_read_file(const char *path, size_t *size);

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
