/* Helpers shared by the C tests: locating the corpus and the bundled samples. */
#ifndef FERRY_TEST_SUPPORT_H
#define FERRY_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Paths of files under `dir` (recursive) whose names end with `suffix`
 * (case-insensitive), sorted. Returns the count; free with test_free_paths. */
size_t test_list_files(const char *dir, const char *suffix, char ***paths);
void test_free_paths(char **paths, size_t count);
bool test_dir_exists(const char *dir);
/* Reads a whole file (malloc'd), NULL on failure. */
uint8_t *test_read_file(const char *path, size_t *size);

#endif
