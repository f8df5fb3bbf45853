#define _DEFAULT_SOURCE
#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool bench_walk(const char *program, const char *path, bool (*visit)(void *user, const char *file), void *user)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", program, path, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) return S_ISREG(st.st_mode) ? visit(user, path) : true;
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "%s: %s: %s\n", program, path, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(n);
        if (!child) {
            ok = false;
            break;
        }
        snprintf(child, n, "%s/%s", path, e->d_name);
        ok = bench_walk(program, child, visit, user);
        free(child);
    }
    closedir(dir);
    return ok;
}
