/* What every benchmark needs around the measured work: a monotonic clock,
 * medians of rounds, and the input files found under the paths given. */
#ifndef FERRY_BENCH_UTIL_H
#define FERRY_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>

double bench_now(void);
/* Sorts v in place. */
double bench_median(double *v, size_t n);
/* Calls visit for every regular file at or under `path` (folders walked,
 * dot entries skipped); false when a path cannot be read (said on stderr
 * under the name `program`) or visit returns false. */
bool bench_walk(const char *program, const char *path, bool (*visit)(void *user, const char *file), void *user);

#endif
