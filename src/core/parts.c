/* fy_run_parts: one job cut into parts run side by side (the texture work
 * of an import), over the platform layer's threads. */
#include "platform.h"

typedef struct part_call {
    void (*fn)(void *ctx, int part, int parts);
    void *ctx;
    int part, parts;
} part_call;

static void run_part(void *arg)
{
    part_call *c = arg;
    c->fn(c->ctx, c->part, c->parts);
}

void fy_run_parts(int parts, void (*fn)(void *ctx, int part, int parts), void *ctx)
{
    if (parts < 1) parts = 1;
    if (parts > FY_PARTS_MAX) parts = FY_PARTS_MAX;
    fy_thread threads[FY_PARTS_MAX];
    part_call calls[FY_PARTS_MAX];
    bool started[FY_PARTS_MAX] = {false};
    for (int i = 1; i < parts; i++) {
        calls[i] = (part_call){fn, ctx, i, parts};
        started[i] = fy_thread_start(&threads[i], run_part, &calls[i]) == 0;
    }
    fn(ctx, 0, parts);
    for (int i = 1; i < parts; i++) {
        if (started[i]) fy_thread_join(&threads[i]);
        else fn(ctx, i, parts);
    }
}
