/* The trace unit model's output: the batched output stage (mt_unit_batch_output) and the output
 * marks a container indexes by (mt_unit_on_sync, mt_unit_mark_now). */
#include "mt_unit_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- output ---------------------------------------------------------------------------- */

/* Batched output (mt_unit_batch_output): the FIFO's bytes live in a linear stage instead of the
 * ring. The stage holds [drained, not yet handed to the sink][the FIFO's occ bytes][the bytes of
 * the packets in flight], so a chosen packet is appended once, its entry into the FIFO is
 * `occ += len`, a drain is `occ -= n` (O(1), no copy, no call), and the sink gets the drained
 * bytes in blocks when the stage fills, at mt_unit_flush and at mt_unit_stop. Occupancy, bytes
 * and their order are exactly the ring's; only the sink calls come later and bigger. */
void mt_unit_hand_over(mt_unit *u)
{
    uint32_t keep = u->fifo.occ + u->pipe_bytes;
    uint32_t drained = u->stage_n - keep;
    if (drained && u->p.sink)
        u->p.sink(u->p.sink_ctx, u->stage, drained);
    memmove(u->stage, u->stage + drained, keep);
    u->stage_n = keep;
}

void mt_unit_flush(mt_unit *u)
{
    if (u->batch)
        mt_unit_hand_over(u);
}

int mt_unit_batch_output(mt_unit *u, int on)
{
    on = on && u->p.sink;
    if (on == u->batch)
        return 0;
    if (u->fifo.occ || u->pipe_n) /* switch only with an empty FIFO (the bytes would move) */
        return -1;
    if (on && !u->stage) {
        u->stage = malloc((size_t)u->buf_depth + MT_UNIT_BATCH); /* mt_unit_reset may keep it */
        if (!u->stage)
            return -1;
    }
    mt_unit_flush(u);
    u->stage_n = 0;
    u->batch = on;
    return 0;
}

/* ---- output marks ------------------------------------------------------------------ */

void mt_unit_on_sync(mt_unit *u, mt_unit_mark_fn fn, void *ctx)
{
    u->on_sync = fn;
    u->on_sync_ctx = ctx;
}

void mt_unit_mark_now(const mt_unit *u, mt_unit_mark *m)
{
    *m = (mt_unit_mark){.offset = u->prev_bytes + u->bytes + u->pipe_bytes, .cycle = u->now,
                        .samples = u->prev_samples + u->samples, .last_sp = u->last_sp};
}

