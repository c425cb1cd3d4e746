/* The lazy model's bulk step for a stalled unit (lib/mt_unit_bulk.c) against clocking every
 * cycle: random register programs (short sections, small SYNC periods, small FIFOs and slow
 * drains, markers, enables and stops, the spatial and reduce front ends) and access streams with
 * long idle gaps; after every input, and at random cycles inside the gaps, every packet byte, the
 * registers a guest reads and the model's schedule, arbitration and reduce-path state must be
 * the same.  The sessions are built so that the bulk step has work: each test asserts the cycles
 * it completed and the section switches it made arithmetically. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mt_unit.h"

#include "lib_testutil.h"

/* Everything a guest can read, and the model's state the next cycles depend on. */
static void same_unit(mt_unit *f, mt_unit *g, const tu_buf *fo, const tu_buf *go)
{
    assert_int_equal(f->now, g->now);
    static const uint32_t regs[] = {MT_REG_CTRL, MT_REG_STATUS, MT_REG_FIFO_LEVEL, MT_REG_DROPPED,
                                    MT_REG_SAMPLES_LO, MT_REG_SAMPLES_HI, MT_REG_BYTES_LO,
                                    MT_REG_BYTES_HI, MT_REG_CYCLE_LO, MT_REG_CYCLE_HI};
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        assert_int_equal(mt_unit_mmio_read(f, f->now, regs[i]), mt_unit_mmio_read(g, g->now, regs[i]));
    assert_int_equal(mt_unit_next_due(f), mt_unit_next_due(g));
    assert_int_equal(f->sync_bytes, g->sync_bytes);
    assert_int_equal(f->sec_span, g->sec_span);
    assert_int_equal(f->sec_start, g->sec_start);
    assert_int_equal(f->sec_end, g->sec_end);
    assert_int_equal(f->sec_r, g->sec_r);
    assert_int_equal(f->int_open, g->int_open);
    assert_int_equal(f->int_idx, g->int_idx);
    assert_int_equal(f->next_sp, g->next_sp);
    assert_int_equal(f->next_idx, g->next_idx);
    assert_int_equal(f->hold.valid, g->hold.valid);
    if (f->hold.valid) {
        assert_int_equal(f->hold.after, g->hold.after);
        assert_int_equal(f->hold.ready, g->hold.ready);
        assert_int_equal(f->hold.idx, g->hold.idx);
    }
    assert_int_equal(f->sect_pending, g->sect_pending);
    assert_int_equal(f->sync_pending, g->sync_pending);
    assert_int_equal(f->drop_pending, g->drop_pending);
    assert_int_equal(f->marker_pending, g->marker_pending);
    assert_int_equal(f->marker_urgent, g->marker_urgent);
    assert_int_equal(f->end_pending, g->end_pending);
    assert_int_equal(f->rest_until, g->rest_until);
    assert_int_equal(f->pipe_n, g->pipe_n);
    assert_int_equal(f->pipe_bytes, g->pipe_bytes);
    assert_int_equal(f->enc.run_cnt, g->enc.run_cnt);
    assert_int_equal(f->rd_on, g->rd_on);
    assert_int_equal(f->rd_qn, g->rd_qn);
    assert_int_equal(f->rd_qfull, g->rd_qfull);
    assert_int_equal(f->rd_pend_n, g->rd_pend_n);
    if (f->rd_on) {
        assert_int_equal(f->rd.accesses, g->rd.accesses);
        assert_int_equal(f->rd.lost, g->rd.lost);
        assert_int_equal(f->rd.refs, g->rd.refs);
        assert_int_equal(f->rd.records, g->rd.records);
    }
    assert_int_equal(f->sp_on, g->sp_on);
    if (f->sp_on)
        assert_int_equal(f->sp.records, g->sp.records);
    if (f->batch) { /* batched output reaches the sink later: a prefix until mt_unit_stop */
        assert_true(fo->n <= go->n);
        assert_memory_equal(fo->p, go->p, fo->n);
        return;
    }
    assert_int_equal(fo->n, go->n);
    assert_memory_equal(fo->p, go->p, fo->n);
}

/* What a session may turn on besides bursts and spans (MARKERS: plain sessions with a marker in
 * a quarter of the inputs, a FIFO of 32 to 47 bytes draining a byte a cycle; BUSY: fuzz_unit_modes'
 * busy sessions, sections of 2 and 3 cycles and the smallest SYNC period, so that the FIFO of
 * 32 to 47 bytes, draining a byte a cycle, stays full and the arbitration acts every few cycles
 * for a SECTION, SYNC or OVERFLOW or to drop a sample, through the whole of the long gaps;
 * PACED: the same sessions with a FIFO of 256 to 1,279 bytes draining 2 to 8 bytes a cycle, so
 * that the arbitration's pace, not room, spaces the acts and most switches fall in the rest
 * cycles after one: the bulk step's quiet switches, mt_unit_bulk.c). */
enum { PLAIN, SPATIAL, REDUCE, MARKERS, BUSY, PACED };

/* The states fuzz_unit's stream budget leaves out (tests/fuzz/fuzz_unit.c, OUT_BUDGET), counted
 * over run_trials' last call: comparisons made with the SYNC byte count saturated (a SYNC starved
 * by the sections' SECTIONs for MT_PREV_BYTES_MAX bytes), and batched trials whose stream
 * outgrew the stage (depth + MT_UNIT_BATCH bytes before the stop: the stage handed over from
 * stage_append, the only hand-over before mt_unit_stop here). */
static uint64_t sync_saturated, stage_handovers;

/* The lazy unit's lean flag (mt_unit_clock_lean for a stalled session of short sections), and
 * the cycles it completed over run_trials' last call. */
static int lean;
static uint64_t lean_cycles;

/* One random program: the same writes and accesses to a lazy unit (the bulk step) and to one
 * clocked every cycle.  Sections of 2 to 41 cycles (often 2 to 5) switch many times in a gap; the FIFO (32 to
 * 287 bytes, 1 to 3 bytes a cycle) fills and drops samples. */
static void trial(uint64_t seed, int mode, int batch, int reset, mt_unit u[2], tu_buf out[2])
{
    uint64_t rs = seed;
    mt_unit_params p = {.depth = 32 + (uint32_t)(tu_rand(&rs) % 256), .drain = 1 + (uint32_t)(tu_rand(&rs) % 3),
                        .sink = tu_buf_put};
    if (mode == MARKERS || mode == BUSY)
        p.depth = 32 + p.depth % 16, p.drain = 1;
    if (mode == PACED)
        p.depth = 256 + (uint32_t)(tu_rand(&rs) % 1024), p.drain = 2 + (uint32_t)(tu_rand(&rs) % 7);
    for (int k = 0; k < 2; k++) {
        out[k].n = 0;
        p.sink_ctx = &out[k];
        /* reset: the lazy unit is the last trial's, its buffers (the reduce path's) kept */
        assert_int_equal(k == 0 && reset ? mt_unit_reset(&u[k], &p) : mt_unit_init(&u[k], &p), 0);
        u[k].lazy = k == 0;
        u[k].lean = k == 0 && lean;
        if (k == 0 && batch)
            assert_int_equal(mt_unit_batch_output(&u[k], 1), 0);
    }
    uint64_t c = 1;
    for (int i = 0; i < 400; i++) {
        const uint64_t r = tu_rand(&rs);
        /* the gap: mostly a few cycles, sometimes long (the unit stalls or idles in it) */
        c += r % 8 == 0 ? 200 + (r >> 8) % 3000 : (r >> 8) % 4;
        const unsigned what = (unsigned)(r >> 24) % 64;
        uint32_t off = 0, val = 0;
        if (what == 0 || (i == 0)) {
            off = MT_REG_CTRL, val = MT_CTRL_ENABLE;
        } else if (what == 1) {
            off = MT_REG_CTRL, val = 0;
        } else if (what < 4 || (mode == MARKERS && what >= 48)) {
            off = MT_REG_MARKER, val = (uint32_t)(r >> 32);
        } else if (what < 11 && (mode == BUSY || mode == PACED)) {
            /* (no length, rate or SYNC period of the random kind: the session stays busy) */
        } else if (what < 8) {
            static const uint32_t lens[] = {MT_REG_LEN_H_LO, MT_REG_LEN_L_LO};
            off = lens[what & 1], val = (uint32_t)((r >> 32) % 40) + (what == 7 ? 0 : 2); /* 0: no span */
        } else if (what < 10) {
            off = what == 8 ? MT_REG_RATE_H : MT_REG_RATE_L, val = 1 + (uint32_t)((r >> 32) % 9);
        } else if (what == 10) {
            off = MT_REG_SYNC_PERIOD, val = 64 + (uint32_t)((r >> 32) % 200);
        } else if (what == 11) {
            off = MT_REG_FMT, val = (uint32_t)(r >> 32) & 0x33;
        } else if (what == 12 && mode == SPATIAL) {
            off = MT_REG_SPATIAL, val = MT_SPATIAL_EN | (uint32_t)((r >> 32) % 4) << MT_SPATIAL_LG2N_SHIFT;
        } else if (what == 12 && mode == REDUCE) {
            off = MT_REG_REDUCE, val = MT_REDUCE_EN | (uint32_t)((r >> 32) % 3) << MT_REDUCE_LGK_SHIFT;
        }
        if (i == 0) { /* the first session: short sections (2 to 5 cycles in half, no span in a third), its front end */
            const uint64_t q = tu_rand(&rs);
            const uint32_t w[][2] = {
                {MT_REG_LEN_H_LO, 2 + (uint32_t)(q % (q >> 40 & 1 ? 4 : 40))},
                {MT_REG_LEN_L_LO, q % 3 == 0 ? 0 : 2 + (uint32_t)(q >> 8) % (q >> 41 & 1 ? 4 : 40)},
                {MT_REG_LEN_L_HI, 0}, /* (its reset value is 10^10 cycles) */
                {MT_REG_RATE_H, 1 + (uint32_t)(q >> 16) % 5},
                {MT_REG_RATE_L, 1 + (uint32_t)(q >> 24) % 9},
                {MT_REG_SYNC_PERIOD, 64 + (uint32_t)(q >> 32) % 200},
                {mode == SPATIAL ? MT_REG_SPATIAL : MT_REG_REDUCE,
                 mode == SPATIAL ? MT_SPATIAL_EN | 1u << MT_SPATIAL_LG2N_SHIFT : mode == REDUCE ? MT_REDUCE_EN : 0}};
            for (size_t j = 0; j < sizeof w / sizeof w[0]; j++)
                for (int k = 0; k < 2; k++)
                    mt_unit_mmio_write(&u[k], c, w[j][0], w[j][1]);
            c++;
            if (mode == BUSY || mode == PACED) {
                const uint32_t b[][2] = {{MT_REG_LEN_H_LO, 2}, {MT_REG_LEN_L_LO, 3}, {MT_REG_SYNC_PERIOD, 1}};
                for (size_t j = 0; j < sizeof b / sizeof b[0]; j++)
                    for (int k = 0; k < 2; k++)
                        mt_unit_mmio_write(&u[k], c, b[j][0], b[j][1]);
                c++;
            }
        }
        if (off) {
            for (int k = 0; k < 2; k++)
                mt_unit_mmio_write(&u[k], c, off, val);
        } else {
            /* a few hot pages, sometimes a far one: repeats, alternations and new pages */
            const uint64_t page = (r >> 40) % 4 ? (r >> 40) % 6 : (r >> 40) % 4096;
            mt_access a = {.cycle = c, .addr = 0x80000000ull + page * 4096 + ((r >> 12) & 0xff8),
                           .write = (r >> 20) & 1, .kind = (uint8_t)((r >> 21) % 3), .size = 8};
            for (int k = 0; k < 2; k++) {
                if ((r >> 22) & 1)
                    mt_unit_access_cycle(&u[k], &a);
                else
                    mt_unit_access(&u[k], &a);
            }
        }
        c++;
        same_unit(&u[0], &u[1], &out[0], &out[1]);
        sync_saturated += u[0].sync_bytes == MT_PREV_BYTES_MAX;
        if (r % 5 == 0) { /* a look at a cycle inside the next gap (a read completes what is before) */
            const uint64_t at = u[0].now + (r >> 50) % 300;
            for (int k = 0; k < 2; k++)
                mt_unit_advance(&u[k], at);
            same_unit(&u[0], &u[1], &out[0], &out[1]);
            if (c < at)
                c = at;
        }
    }
    const uint64_t end = c + 1;
    stage_handovers += batch && out[0].n > p.depth + MT_UNIT_BATCH;
    assert_int_equal(mt_unit_stop(&u[0], end), mt_unit_stop(&u[1], end));
    u[0].batch = 0; /* stopped: everything has reached the sink */
    same_unit(&u[0], &u[1], &out[0], &out[1]);
    assert_int_equal(u[0].order_errors, u[1].order_errors);
    assert_int_equal(u[1].bulk_cycles, 0); /* the reference never takes it */
}

/* n trials; with `reset` the lazy unit is made once and reset between them (fuzz_unit's way). */
static uint64_t bulk_acts; /* the acts the bulk step clocked, over run_trials' last call */
static uint64_t bulk_quiet; /* the switches it clocked without the generic clock, the same */

static void run_trials(int mode, int n, int reset, uint64_t *bulk_cycles, uint64_t *bulk_switches, uint64_t *cycles)
{
    tu_buf out[2] = {{0}, {0}};
    mt_unit u[2];
    *bulk_cycles = *bulk_switches = *cycles = bulk_acts = bulk_quiet = sync_saturated = stage_handovers = 0;
    lean_cycles = 0;
    for (int t = 0; t < n; t++) {
        trial(0xB01C + (uint64_t)t * 7919 + (uint64_t)mode * 104729, mode, t % 3 == 2, reset && t > 0, u, out);
        *bulk_cycles += u[0].bulk_cycles;
        *bulk_switches += u[0].bulk_switches;
        bulk_acts += u[0].bulk_acts;
        bulk_quiet += u[0].bulk_quiet_switches;
        lean_cycles += u[0].lean_cycles;
        assert_int_equal(u[1].lean_cycles, 0);
        assert_int_equal(u[1].bulk_acts, 0); /* the reference never takes it */
        assert_int_equal(u[1].bulk_quiet_switches, 0);
        *cycles += u[0].now;
        for (int k = reset && t + 1 < n; k < 2; k++)
            mt_unit_free(&u[k]);
    }
    free(out[0].p);
    free(out[1].p);
    if (getenv("BULK_COUNTS"))
        printf("mode %d: %lu bulk cycles, %lu switches, %lu acts, %lu quiet switches, %lu cycles, "
               "%lu comparisons with the SYNC count saturated, %lu stage hand-overs, %lu lean cycles\n", mode,
               (unsigned long)*bulk_cycles, (unsigned long)*bulk_switches, (unsigned long)bulk_acts,
               (unsigned long)bulk_quiet, (unsigned long)*cycles, (unsigned long)sync_saturated,
               (unsigned long)stage_handovers, (unsigned long)lean_cycles);
}

/* Bursts and spans: stalls on a full FIFO, rest cycles and held samples, switches in the gaps. */
static void test_bulk_equals_per_cycle(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(PLAIN, 40, 0, &bc, &bs, &cycles);
    assert_true(bc > 100000); /* the bulk step had work (216,000 cycles of 3.9 million; quiet ones are
                               * skip_to's), and runs of switches */
    assert_true(bs > 1000);
}

/* A reduce session: its start's bucket clear (interrupted by accesses, which are lost), records
 * reaching the queue and the capture, the flush at the stop, all across long gaps. */
static void test_bulk_reduce(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(REDUCE, 24, 0, &bc, &bs, &cycles);
    assert_true(bc > cycles / 10); /* (1.0 million of 2.3 million) */
    assert_true(bs > 1000);
}

/* A spatial session: the bulk step waits while a pass runs. */
static void test_bulk_spatial(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(SPATIAL, 16, 0, &bc, &bs, &cycles);
    assert_true(bc > 30000); /* (96,000 of 1.5 million) */
    assert_true(bs > 1000);
}

/* Reduce sessions on one unit reset between them (mt_unit_reset keeps the reduce path's buffers,
 * and its next session's start reuses them when the budget is the same): the same as fresh ones. */
static void test_bulk_reduce_reset(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(REDUCE, 12, 1, &bc, &bs, &cycles);
    assert_true(bc > cycles / 10);
}

/* Markers while the FIFO is nearly always full: a MARKER (or an OVERFLOW) may be chosen while
 * a held sample waits for its readiness, so the first act is the earliest of several breakpoints
 * that act, not the first one found (first_act looks at them in ascending order). */
static void test_bulk_markers(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(MARKERS, 40, 0, &bc, &bs, &cycles);
    assert_true(bc > 100000); /* (213,000 of 3.9 million) */
}

/* Busy sessions (fuzz_unit_modes' costliest inputs): a stalled unit acting every few cycles,
 * each act clocked by the bulk step at its stretch's end (mt_unit_bulk.c, act_now). */
static void test_bulk_busy(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(BUSY, 40, 0, &bc, &bs, &cycles);
    assert_true(bc > cycles / 4); /* (1.3 million of 3.9 million, 285,000 switches) */
    assert_true(bulk_acts > 200000); /* (360,000) */
    /* what fuzz_unit's budget leaves out is here, compared with per-cycle clocking */
    assert_true(sync_saturated > 1000); /* (2,404) */
    assert_true(stage_handovers > 6);   /* (13 of its 13 batched trials) */
}

/* Busy sessions paced by the arbitration (PACED): a switch in the rest after an act, or while
 * the FIFO has no room and the hold's sample is not ready, is clocked by the bulk step
 * (mt_unit_bulk.c, switch_is_quiet); one where the arbitration may act is the generic clock's. */
static void test_bulk_quiet_switches(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    run_trials(PACED, 40, 0, &bc, &bs, &cycles);
    assert_true(bulk_quiet > 100000); /* (QUIET_PACED) */
    assert_true(bulk_acts > 100000);  /* (ACTS_PACED) */
}

/* The lean clock (mt_unit_clock_lean, fuzz_unit's lazy passes a and q) on the families whose
 * sessions have short sections: every family compared with per-cycle clocking as above, the
 * busy ones mostly clocked by it. */
static void test_bulk_lean(void **state)
{
    (void)state;
    uint64_t bc, bs, cycles;
    lean = 1;
    run_trials(BUSY, 40, 0, &bc, &bs, &cycles);
    assert_true(lean_cycles > 300000); /* (676,551 of 3.9 million) */
    assert_true(sync_saturated > 1000);
    run_trials(PACED, 40, 0, &bc, &bs, &cycles);
    assert_true(lean_cycles > 200000); /* (454,525 of 3.8 million) */
    run_trials(PLAIN, 40, 0, &bc, &bs, &cycles);
    assert_true(lean_cycles > 40000); /* (82,044: the first sessions' short sections) */
    run_trials(MARKERS, 40, 0, &bc, &bs, &cycles);
    assert_true(lean_cycles > 20000); /* (45,450) */
    run_trials(REDUCE, 12, 1, &bc, &bs, &cycles); /* (a front end: never the lean clock's) */
    run_trials(SPATIAL, 16, 0, &bc, &bs, &cycles);
    lean = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bulk_equals_per_cycle),
        cmocka_unit_test(test_bulk_reduce),
        cmocka_unit_test(test_bulk_spatial),
        cmocka_unit_test(test_bulk_reduce_reset),
        cmocka_unit_test(test_bulk_markers),
        cmocka_unit_test(test_bulk_busy),
        cmocka_unit_test(test_bulk_quiet_switches),
        cmocka_unit_test(test_bulk_lean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
