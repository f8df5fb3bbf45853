/* Minimal test harness: CHECK records a failure and goes on; each test file
 * ends with TEST_END, which prints "N passed, N failed" and sets the exit code.
 * A test that needs ../shared and cannot find it calls TEST_SKIP (exit 77,
 * which ctest reports as skipped). */
#ifndef FERRY_TEST_H
#define FERRY_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_checks_passed, test_checks_failed;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (cond) {                                                                        \
            test_checks_passed++;                                                          \
        } else {                                                                           \
            test_checks_failed++;                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
        }                                                                                  \
    } while (0)

#define CHECK_MSG(cond, ...)                                                               \
    do {                                                                                   \
        if (cond) {                                                                        \
            test_checks_passed++;                                                          \
        } else {                                                                           \
            test_checks_failed++;                                                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);       \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_U(a, b)                                                                   \
    CHECK_MSG((unsigned long long)(a) == (unsigned long long)(b), "%llu != %llu",          \
              (unsigned long long)(a), (unsigned long long)(b))

#define CHECK_NEAR(a, b, eps) CHECK_MSG(fabs((double)(a) - (double)(b)) <= (eps), "%.9g vs %.9g", (double)(a), (double)(b))

#define TEST_SKIP(...)                                                                     \
    do {                                                                                   \
        printf("SKIP: ");                                                                  \
        printf(__VA_ARGS__);                                                               \
        printf("\n");                                                                      \
        exit(77);                                                                          \
    } while (0)

#define TEST_END()                                                                         \
    do {                                                                                   \
        printf("%d passed, %d failed\n", test_checks_passed, test_checks_failed);          \
        return test_checks_failed ? 1 : 0;                                                 \
    } while (0)

#endif
