#define _DEFAULT_SOURCE
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

bool test_dir_exists(const char *dir)
{
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static void collect(const char *dir, const char *suffix, char ***paths, size_t *count, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(need);
        snprintf(path, need, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(path, suffix, paths, count, cap);
            free(path);
            continue;
        }
        size_t n = strlen(e->d_name), s = strlen(suffix);
        if (n >= s && strcasecmp(e->d_name + n - s, suffix) == 0) {
            if (*count == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *paths = realloc(*paths, *cap * sizeof **paths);
            }
            (*paths)[(*count)++] = path;
        } else {
            free(path);
        }
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

size_t test_list_files(const char *dir, const char *suffix, char ***paths)
{
    size_t count = 0, cap = 0;
    *paths = NULL;
    collect(dir, suffix, paths, &count, &cap);
    if (count) qsort(*paths, count, sizeof **paths, cmp_str);
    return count;
}

void test_free_paths(char **paths, size_t count)
{
    for (size_t i = 0; i < count; i++) free(paths[i]);
    free(paths);
}

uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) *size = (size_t)n;
    return buf;
}
