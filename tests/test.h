/* Minimal test harness: CHECK records a failure and goes on; each test file
 * ends with TEST_END, which prints "N passed, N failed" and sets the exit code.
 * A test that needs ../shared (or a tool) and cannot find it calls TEST_SKIP
 * (exit 77, which ctest reports as skipped); a test that leaves one part out
 * for that reason calls TEST_LEFT_OUT. With FERRY_REQUIRE_ALL set (CI, which
 * has ../shared and installs every tool) both are failures instead: there,
 * nothing is allowed to pass by not running. What cannot run on Windows at
 * all is TEST_NOT_ON_WINDOWS, counted in the summary. */
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

/* True when FERRY_REQUIRE_ALL is set to anything but "" or "0". */
static inline int test_require_all(void)
{
    const char *v = getenv("FERRY_REQUIRE_ALL");
    return v && *v && strcmp(v, "0") != 0;
}

#define TEST_SKIP(...)                                                                     \
    do {                                                                                   \
        if (test_require_all()) {                                                          \
            fprintf(stderr, "%s:%d: FAIL: FERRY_REQUIRE_ALL is set, but the test cannot run: ", \
                    __FILE__, __LINE__);                                                   \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            exit(1);                                                                       \
        }                                                                                  \
        printf("SKIP: ");                                                                  \
        printf(__VA_ARGS__);                                                               \
        printf("\n");                                                                      \
        exit(77);                                                                          \
    } while (0)

/* One part of a test not run for want of ../shared or a tool: a note, or a
 * failed check under FERRY_REQUIRE_ALL. The caller goes on without it. */
#define TEST_LEFT_OUT(...)                                                                 \
    do {                                                                                   \
        if (test_require_all()) {                                                          \
            test_checks_failed++;                                                          \
            fprintf(stderr, "%s:%d: check failed: FERRY_REQUIRE_ALL is set, but a part was left out: ", \
                    __FILE__, __LINE__);                                                   \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        } else {                                                                           \
            printf("note: left out: ");                                                    \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
        }                                                                                  \
    } while (0)

/* A part of a test that cannot run on Windows (a FIFO, a file's mode, a
 * Linux program the test starts): used only under #ifdef _WIN32, where the
 * part itself is left out. Printed with its reason and counted in the
 * summary line; not a failure, also under FERRY_REQUIRE_ALL, since no tool
 * or file would let it run (.ci/run lists every one). */
static int test_parts_not_on_windows;
#define TEST_NOT_ON_WINDOWS(...)                                                           \
    do {                                                                                   \
        test_parts_not_on_windows++;                                                       \
        printf("left out on Windows: ");                                                   \
        printf(__VA_ARGS__);                                                               \
        printf("\n");                                                                      \
    } while (0)

#define TEST_END()                                                                         \
    do {                                                                                   \
        if (test_parts_not_on_windows)                                                     \
            printf("%d passed, %d failed, %d left out on Windows\n", test_checks_passed,   \
                   test_checks_failed, test_parts_not_on_windows);                         \
        else                                                                               \
            printf("%d passed, %d failed\n", test_checks_passed, test_checks_failed);      \
        return test_checks_failed ? 1 : 0;                                                 \
    } while (0)

#endif
