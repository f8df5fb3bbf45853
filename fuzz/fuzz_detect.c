/* libFuzzer target: ferry_detect. Contracts (abort on breach): the answer is
 * a known value, it depends on the first FERRY_DETECT_HEAD bytes only, and a
 * named format stays named when the buffer is copied to an exact-size block
 * (ASan catches any read past the end). */
#include <ferry/detect.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_format f = ferry_detect(data, size);
    /* A known value is one ferry_format_name names (so a new format needs
     * no change here). */
    const char *name = ferry_format_name(f);
    if (!name || (f != FERRY_FORMAT_UNKNOWN && strcmp(name, "unknown") == 0)) abort();
    size_t head = size < FERRY_DETECT_HEAD ? size : FERRY_DETECT_HEAD;
    uint8_t *copy = malloc(head ? head : 1);
    if (!copy) return 0;
    memcpy(copy, data, head);
    if (ferry_detect(copy, head) != f) {
        fprintf(stderr, "fuzz_detect: the answer depends on bytes past the head\n");
        abort();
    }
    free(copy);
    return 0;
}
