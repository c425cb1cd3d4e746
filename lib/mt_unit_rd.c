/* The trace unit's reduce mode (docs/trace-unit.md "Reduce mode"): the reduce path
 * (lib/mt_unit_reduce.h) in front of the capture, clock for clock as rtl_model/rtl/mt_tu_rdpath.sv.
 *
 * - A session with REDUCE.EN (and not SPATIAL.EN) gives every access that passes the kind and tap
 *   filter to the path instead of the capture.  The path's buckets are cleared first (one a clock
 *   from the clock after the session's first: accesses before that is done are lost, counted).
 * - A record leaves the path at its clock (mt_unit_reduce's rec_clock) into a queue of
 *   MT_UNIT_RDQ records.  The queue's head goes to the capture when an interval is open and the
 *   hold was free at the start of the clock, so the hold takes it; it becomes a SAMPLE whose
 *   value is the size-masked address (page << 12 | mask), R/W the reference's, at the clock it is
 *   captured.  A record that finds the queue full (none leaves it in that clock) makes the head
 *   go to the capture all the same: the hold takes it if it frees in that clock, else the
 *   capture drops it (DROPPED, OVERFLOW: the unit's usual loss), so records stay in order.
 * - The session's stop (CTRL.ENABLE written 0) flushes the path (flush from the next clock:
 *   mt_urd_finish_at) and the queue; the stop itself (STATUS.ACTIVE falling, the END) happens at
 *   the end of the first clock without a register write in which the path is idle and the queue
 *   empty.  Until then the session stays active (no access is taken). */
#include "mt_unit_internal.h"

#include <stdlib.h>
#include <string.h>

/* The model's sink: records in the order and with the clocks they leave the path. */
static void rd_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    (void)cycle; /* the stream has the clock of the capture, not the access's cycle */
    mt_unit *u = ctx;
    if (u->rd_pend_n == u->rd_pend_cap) {
        uint32_t cap = u->rd_pend_cap ? 2 * u->rd_pend_cap : 256;
        mt_unit_rdrec *r = malloc((size_t)cap * sizeof *r);
        if (!r)
            return; /* out of memory: the record is lost (the RTL would not lose it) */
        for (uint32_t i = 0; i < u->rd_pend_n; i++)
            r[i] = u->rd_pend[(u->rd_pend_head + i) % u->rd_pend_cap];
        free(u->rd_pend);
        u->rd_pend = r;
        u->rd_pend_cap = cap;
        u->rd_pend_head = 0;
    }
    u->rd_pend[(u->rd_pend_head + u->rd_pend_n++) % u->rd_pend_cap] =
        (mt_unit_rdrec){.clock = u->rd.rec_clock, .page = page, .mask = (uint16_t)mask, .rw = (uint8_t)rw};
}

void mt_unit_rd_free(mt_unit *u)
{
    if (u->rd_alloc)
        mt_urd_free(&u->rd);
    u->rd_alloc = 0;
    free(u->rd_pend);
    u->rd_pend = NULL;
    u->rd_pend_cap = u->rd_pend_n = u->rd_pend_head = 0;
}

void mt_unit_rd_start(mt_unit *u, uint64_t t)
{
    u->rd_on = (u->cfg.reduce & MT_REDUCE_EN) && !u->sp_on;
    u->rd_flush = u->rd_stop = 0;
    u->rd_qhead = u->rd_qn = 0;
    u->rd_qfull = 0;
    u->rd_pend_n = u->rd_pend_head = 0;
    if (!u->rd_on)
        return;
    const unsigned lgk = (u->cfg.reduce >> MT_REDUCE_LGK_SHIFT) & 0x1F;
    const uint64_t budget = UINT64_C(4096) << lgk;
    /* the last session's buffers when they have the shape (mt_unit_reset keeps them too) */
    if ((u->rd_alloc ? mt_urd_restart : mt_urd_init)(&u->rd, budget, MT_UNIT_REDUCE_W, MT_UNIT_REDUCE_Q,
                                                     rd_sink, u) != 0) {
        u->rd_alloc = 0;
        u->rd_on = 0; /* out of memory */
        return;
    }
    u->rd_alloc = 1;
    /* the buckets are cleared in the clocks t + 1 .. t + buckets */
    u->rd.ready_at = t + 1 + mt_urd_buckets(&u->rd);
}

void mt_unit_rd_disable(mt_unit *u, uint64_t t)
{
    if (u->rd_flush)
        return;
    u->rd_flush = 1;
    u->rd_idle_at = mt_urd_finish_at(&u->rd, t + 1);
}

void mt_unit_rd_clock(mt_unit *u, uint64_t t, int hold_free)
{
    if (u->acc_valid && !u->rd_flush && passes(u, &u->acc))
        mt_urd_access(&u->rd, t, u->acc.addr, u->acc.write ? 1 : 0);
    mt_urd_advance(&u->rd, t);
    u->acc_valid = 0;
    const uint32_t qn0 = u->rd_qn; /* the queue at the clock's start */
    /* a record leaving the path in this clock, and whether the queue is full without a pop */
    const int arrives = u->rd_pend_n && u->rd_pend[u->rd_pend_head].clock <= t;
    const int open = u->active && u->int_open;
    if (u->rd_qn && open && (hold_free || (arrives && u->rd_qn == MT_UNIT_RDQ))) {
        const mt_unit_rdrec *r = &u->rd_q[u->rd_qhead];
        u->acc = (mt_access){.cycle = t,
                             .addr = r->page << 12 | r->mask,
                             .write = r->rw,
                             .kind = (uint8_t)__builtin_ctz(u->cfg.kind_mask | 0x20),
                             .tap = (uint8_t)u->cfg.tap,
                             .size = 8};
        u->acc_valid = 1;
        if (!hold_free)
            u->rd_qfull++;
        u->rd_qhead = (u->rd_qhead + 1) % MT_UNIT_RDQ;
        u->rd_qn--;
    }
    if (arrives) {
        const mt_unit_rdrec r = u->rd_pend[u->rd_pend_head];
        u->rd_pend_head = (u->rd_pend_head + 1) % u->rd_pend_cap;
        u->rd_pend_n--;
        if (u->rd_qn < MT_UNIT_RDQ)
            u->rd_q[(u->rd_qhead + u->rd_qn++) % MT_UNIT_RDQ] = r;
        else
            u->rd_qfull++; /* (no interval open: the record is lost; never at r = 1) */
    }
    /* the stop takes effect at the end of this clock (mt_unit_clock_one) */
    u->rd_stop = u->rd_flush && t >= u->rd_idle_at && qn0 == 0 && !u->nwrites;
}
