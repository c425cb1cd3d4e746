/* libFuzzer target: the trace-unit model driven by arbitrary register writes and accesses.
 * Whatever the input, the model's output must decode without a single loss, its END totals
 * must match its counters, and lazy and per-cycle clocking must give the same bytes (inputs up
 * to PER_CYCLE_SPAN_MAX cycles long).  Driven
 * as the emulator drives it (one access per cycle, each of the unit's tap from next_due on), a
 * model fed only the accesses its schedule's copy says it captures (lib/mt_sched.h, what
 * emu/trace/tracepipe.c does) must give the same bytes as one fed them all.  An input's items
 * count up to MAX_SPAN cycles, and while the unit's stream is within OUT_BUDGET bytes (below). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt_dec.h"
#include "mt_sched.h"
#include "mt_unit.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(void *ctx, const uint8_t *p, size_t n)
{
    buf *b = ctx;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    /* (the FIFO hands over a few bytes a call, a busy session's drain one to eight a cycle: a
     * loop's inline checks cost less than ASan's memcpy interceptor, 3 % of fuzz_unit_modes'
     * time with its range check, perf on a grown corpus: docs/robustness.md, eighth session.
     * The batched passes' stage comes in blocks of hundreds of bytes, where the loop's checks
     * per byte cost more than the interceptor's one range check: 5 % of a busy input's
     * instructions, tenth session) */
    uint8_t *d = b->p + b->n;
    if (n > 64) {
        memcpy(d, p, n);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = p[i];
    }
    b->n += n;
}

typedef struct {
    uint64_t losses, samples, ends;
} stats;

static void cb(void *ctx, const mt_dec_event *e)
{
    stats *s = ctx;
    s->losses += e->type == MT_DEV_LOSS;
    s->samples += e->type == MT_DEV_SAMPLE;
    s->ends += e->type == MT_DEV_END;
}

/* FUZZ_UNIT_MODES (fuzz_unit_modes.c): the unit's two front ends, SPATIAL and REDUCE, can be
 * switched on too.  A session with either is clocked at every access (the front ends hear every
 * access; its idle stretches are the lazy model's bulk steps), so it is a target of its own:
 * fuzz_unit keeps the seed's burst/span unit fast. */
#ifndef FUZZ_UNIT_MODES
#define FUZZ_UNIT_MODES 0
#endif
static const uint32_t regs[] = {MT_REG_CTRL, MT_REG_KIND_MASK, MT_REG_TAP, MT_REG_FMT, MT_REG_SYNC_PERIOD,
                                MT_REG_RATE_H, MT_REG_RATE_L, MT_REG_LEN_H_LO, MT_REG_LEN_H_HI,
                                MT_REG_LEN_L_LO, MT_REG_LEN_L_HI, MT_REG_MARKER,
#if FUZZ_UNIT_MODES
                                MT_REG_SPATIAL, MT_REG_REDUCE
#endif
};

/* One 4-byte item of the input: a register write (reg, val) or an access at cycle c. */
static int item_is_write(const uint8_t *x) { return (x[1] & 0xE0) == 0xE0; }

static void item_write(const uint8_t *x, uint32_t *reg, uint32_t *val)
{
    *reg = regs[x[1] % (sizeof regs / sizeof regs[0])];
    *val = *reg == MT_REG_RATE_H || *reg == MT_REG_RATE_L ? x[2] % 9 : (uint32_t)x[2] << (x[3] % 24) | x[3];
    if (*reg == MT_REG_LEN_H_HI || *reg == MT_REG_LEN_L_HI || *reg == MT_REG_CTRL)
        *val &= 1;
}

static mt_access item_access(const uint8_t *x, uint64_t c)
{
    return (mt_access){.cycle = c, .addr = ((uint64_t)x[2] << 30 | (uint64_t)x[3] << 12 | x[1]) & MT_PADDR_MASK,
                       .write = x[1] & 1, .kind = (x[1] >> 1) % 5, .tap = (x[1] >> 4) & 1};
}

/* The units live as long as the process, one per pass (their buffers grow to the largest depth
 * seen): mt_unit_reset gives a fresh unit without an allocation per run, which under ASan (its
 * buffers mapped from fresh, poisoned memory until the quarantine fills) cost more than the
 * short runs themselves. */
static mt_unit *unit_for(int pass, const uint8_t *d, size_t n, buf *out)
{
    static mt_unit units[4];
    static int made[4];
    mt_unit_params p = {.depth = 32 + (n ? d[0] : 0) * 4, .drain = 1 + (n > 1 ? d[1] % 8 : 0),
                        .sink = put, .sink_ctx = out};
    mt_unit *u = &units[pass];
    if ((made[pass] ? mt_unit_reset(u, &p) : mt_unit_init(u, &p)) != 0)
        abort();
    made[pass] = 1;
    return u;
}

/* The part of an input the passes take: its first `size` bytes (whole items, within MAX_SPAN
 * cycles, below) and the cycle its session stops at (0: the last item's cycle + 1, as for any
 * input; the cut at OUT_BUDGET may stop it inside the gap before the next item). */
typedef struct {
    size_t size;
    uint64_t stop;
} extent;

/* The stop cycle of a pass whose last item was at cycle c. */
static uint64_t stop_cycle(const extent *e, uint64_t c)
{
    return e->stop > c + 1 ? e->stop : c + 1;
}

/* An input is also taken only while the unit's stream stays within OUT_BUDGET bytes: it ends
 * at the item, or at the cycle inside an item's gap, at which the lazy pass's stream (as
 * drained) has passed it, and for the emulator-protocol passes also where the first of them
 * has (run_hooked).  A busy session (sections of 2 and 3 cycles, a SECTION or SYNC every
 * PACE cycles, the FIFO full) costs the model a packet every few cycles whatever the bulk step
 * does: over the span bound that was 3,400 acts a pass and up to 20 KB of stream, 0.4 us an act
 * a pass under the sanitizers, so a corpus that had found such sessions ran at a quarter of the
 * rate of one that had not (docs/robustness.md, seventh session).  Such a session reaches its
 * states in its first few hundred bytes (a FIFO here holds at most 1,052), but for a few that
 * take more stream (docs/robustness.md lists them): a SYNC starved by the sections' SECTIONs
 * for 16 KB, its byte count saturated (MT_PREV_BYTES_MAX); the emulator's batched output
 * handing its stage over (depth + 4 KB); an OVERFLOW for 128 drops or more; an edge of the
 * decoder's SYNC check.  tests/unit/test_lib_unit_bulk.c has the first two (test_bulk_busy
 * counts them), compared with per-cycle clocking.  Inputs grown from the seeds
 * without a busy session make a few hundred bytes (473 at most after 500 s): never cut.  The
 * cut input is an input like any other to every pass and check. */
#ifndef OUT_BUDGET
#define OUT_BUDGET 1024
#endif
/* A gap is crossed in steps, the stream checked after each: BUDGET_STEP cycles while it grows
 * (a busy session's by about a byte a cycle, so even in a gap of 12,319 cycles, one item, the
 * cut comes a few hundred bytes after the budget is passed), twice the last step, up to
 * BUDGET_STEP_MAX, after one in which it grew by less than a byte in 8 cycles: a quiet gap is
 * crossed in a few calls (a step of BUDGET_STEP everywhere cost inputs that are never cut 3 %
 * more instructions, docs/robustness.md, seventh session).  A gap has no input, so a quiet
 * stretch in it turns busy only at a section switch, and the longer step overshoots by at most
 * BUDGET_STEP_MAX cycles' worth. */
#define BUDGET_STEP 256
#define BUDGET_STEP_MAX 2048

/* The stream u has drained since its reset (unit_for): what its sink has been handed or, with
 * batched output, will be handed (the stage hands drained bytes over in blocks, later): every
 * byte that entered the FIFO and left it.  The budget counts this, not the sink's buffer, so a
 * pass cuts at the same place in either output mode. */
static uint64_t drained(const mt_unit *u)
{
    return u->prev_bytes + u->bytes - u->fifo.occ;
}

/* Completes u's cycles before c in steps, while its stream stays within OUT_BUDGET: 1 when it
 * has (u->now may be short of c by a step), 0 when it passed it. */
static int advance_within_budget(mt_unit *u, uint64_t c)
{
    uint64_t step = BUDGET_STEP;
    while (u->now + step < c) {
        const uint64_t before = drained(u);
        mt_unit_advance(u, u->now + step);
        if (drained(u) > OUT_BUDGET)
            return 0;
        if ((drained(u) - before) * 8 < step && step < BUDGET_STEP_MAX)
            step *= 2;
    }
    return 1;
}

/* Which lazy passes run with the lean clock for sessions of short sections (lib/mt_unit_bulk.c,
 * mt_unit_clock_lean): the first (a), compared with per-cycle clocking, and the second protocol
 * pass (q), compared with the first (h), which keeps the bulk step's stretches, so that both
 * ways of completing a busy session's cycles are checked on every input.  A busy input made
 * about 240 acts in each lazy pass, each about 1,000 instructions through the stretches
 * (docs/robustness.md, ninth session). */
#ifndef LEAN_PASSES
#define LEAN_PASSES 1
#endif

/* One pass over e's items, the unit clocked lazily or every cycle.  With `cut` (the lazy pass,
 * the first) it also applies OUT_BUDGET, shortening e where the stream passes it; the passes
 * after it take the shortened e. */
static void run(const uint8_t *d, extent *e, int lazy, int cut, buf *out, uint64_t *samples)
{
    mt_unit *u = unit_for(lazy, d, e->size, out);
    u->lazy = lazy;
    u->lean = LEAN_PASSES; /* (the lazy pass: the lean clock, checked against per-cycle clocking) */
    /* batched output, as q's: a drain is occ -= n, not a ring pop and a call of the sink per
     * stretch or cycle (9 % of a busy input's instructions); h is the pass that checks the
     * unbatched mode, against q */
    if (mt_unit_batch_output(u, 1) != 0)
        abort();
    uint64_t c = 1;
    *samples = 0;
    for (size_t i = 2; i + 4 <= e->size; i += 4) {
        if (cut && drained(u) > OUT_BUDGET) {
            e->size = i; /* the input ends before this item */
            break;
        }
        const uint8_t *x = d + i;
        const uint64_t at = c + (x[0] & 0x80 ? (uint64_t)(x[0] & 0x7f) * 97 : (x[0] & 3));
        if (cut && !advance_within_budget(u, at)) {
            e->size = i; /* ... and its session stops inside this item's gap, where the unit is */
            e->stop = u->now;
            break;
        }
        c = at;
        if (item_is_write(x)) {
            uint32_t reg, val;
            item_write(x, &reg, &val);
            mt_unit_mmio_write(u, c, reg, val);
        } else {
            mt_access a = item_access(x, c);
            mt_unit_access(u, &a);
        }
        if (x[0] & 0x40)
            c++; /* keep one access per cycle most of the time */
    }
    mt_unit_stop(u, stop_cycle(e, c));
    if (u->order_errors > 0 && u->order_errors > e->size)
        abort();
    *samples = u->samples;
}

/* The emulator's protocol: via_sched 0 gives every access of the unit's tap from next_due on
 * (tracedev's model listener), 1 only those the schedule's copy captures (tracepipe).
 * The protocol feeds the unit other accesses than run() does (its tap's only, none before
 * next_due, a write after the last access), so its session may be busy where the lazy pass's
 * was not: on a corpus grown for 300 s from a mature one, 60 inputs of 2,796 made over 4 times
 * the lazy pass's stream here, up to 20 KB, and with it most of the target's time
 * (docs/robustness.md, eighth session).  So the first protocol pass (cut: via_sched 0) applies
 * OUT_BUDGET to its own stream as run() does, shortening e, and the second takes e as it left
 * it: both passes see the same prefix and stop at the same cycle, and their comparison is made
 * as before.  (run()'s two passes took e before this shortening.) */
static void run_hooked(const uint8_t *d, extent *e, int via_sched, int cut, buf *out)
{
    const size_t n = e->size;
    mt_unit *u = unit_for(2 + via_sched, d, n, out);
    u->lean = LEAN_PASSES && via_sched; /* h keeps the bulk step's stretches, q is compared with it */
    if (via_sched && mt_unit_batch_output(u, 1) != 0) /* as the emulator runs it */
        abort();
    mt_sched s;
    int direct = 1; /* a register write pending in u: no copy of the schedule */
    uint64_t c = 1, last = 0;
    for (size_t i = 2; i + 4 <= n; i += 4) {
        const uint8_t *x = d + i;
        if (cut && drained(u) > OUT_BUDGET) {
            e->size = i; /* the input ends before this item, its session at the last item's cycle */
            e->stop = 0;
            break;
        }
        const uint64_t at = c + (x[0] & 0x80 ? (uint64_t)(x[0] & 0x7f) * 97 : (x[0] & 3));
        /* (the lazy model completes cycles exactly however its advances are split: the steps
         * change no byte, and the second pass, not stepped, is compared with this one) */
        if (cut && !advance_within_budget(u, at)) {
            e->size = i; /* ... or inside this item's gap, where the unit is */
            e->stop = u->now;
            break;
        }
        c = at;
        if (item_is_write(x)) {
            uint32_t reg, val;
            item_write(x, &reg, &val);
            if (i > 2 && c <= last)
                c = last + 1; /* as a guest's store: after the last access it made */
            mt_unit_mmio_write(u, c, reg, val);
            direct = 1;
            continue;
        }
        mt_access a = item_access(x, c);
        if (i > 2 && c < last + 1)
            continue; /* one access per cycle */
        last = c;
        if (!via_sched || direct) {
            /* as the emulator's hook: a write pending from an earlier cycle applied first, so the
             * tap test does not depend on whether the budget's steps above applied it */
            mt_unit_settle(u, c);
            if (a.tap == mt_unit_tap(u) && c >= mt_unit_next_due(u) && c >= u->now)
                mt_unit_access_cycle(u, &a);
            if (via_sched)
                direct = mt_sched_from_unit(&s, u) != 0;
        } else if (a.tap == s.tap && c >= mt_sched_due(&s) && mt_sched_access(&s, &a)) {
            mt_unit_access_cycle(u, &a);
        }
    }
    /* The same stop cycle whatever the unit was given (the END packet carries it): c is the last
     * input's cycle, and u->now is at most c + 1 (an access completes its cycle). It was
     * max(c, now) + 1: a last access fed to one unit and not to the other (not captured, so
     * equal bytes up to there) ended the sessions a cycle apart (fuzz_unit, make fuzz).  (A
     * stop inside a gap, e->stop, is later than that in both passes.) */
    mt_unit_stop(u, stop_cycle(e, c));
}

/* The cycles item x advances the input's clock by (as run() counts them). */
static uint64_t item_cycles(const uint8_t *x)
{
    return (x[0] & 0x80 ? (uint64_t)(x[0] & 0x7f) * 97 : (x[0] & 3)) + ((x[0] & 0x40) != 0);
}

/* The cycles the input spans (as run() counts them). */
static uint64_t span(const uint8_t *d, size_t n)
{
    uint64_t c = 1;
    for (size_t i = 2; i + 4 <= n; i += 4)
        c += item_cycles(d + i);
    return c;
}

/* An input's items are taken up to MAX_SPAN cycles; the rest of it is ignored.  A session costs
 * the lazy model little while it is quiet, but one that keeps the unit busy (sections of a few
 * cycles: a SECTION due at every switch, a SYNC due, the FIFO full) is clocked every cycle, and
 * 255 items of up to 12,319 cycles made that 3 million cycles: 9 million clocks over the three
 * lazy passes, 14 s (wall, loaded) under ASan for one input.  A corpus grown for 150 s from the seeds held
 * dozens of such inputs (5 % of its inputs took 92 % of the time; in the heaviest the busy
 * session started after 280,000 cycles): 272 execs per CPU second on it, 10,638 (median of 3)
 * with the bound (docs/robustness.md).  At 100,000 cycles a corpus grown for 840 s ran 1,537.
 * Sections, sessions and gaps shorter than the bound reach the same code: 150,000 runs from the
 * seeds reached 723-733 edges with it, 721-728 without.  Since the lazy model's bulk step
 * (lib/mt_unit_bulk.c) a stalled unit's cycles cost O(events) in the lazy passes too; the bound
 * stays (docs/robustness.md, fourth session). */
#define MAX_SPAN 20000

/* The input's items within MAX_SPAN cycles. */
static extent items_within_span(const uint8_t *d, size_t n)
{
    uint64_t c = 1;
    size_t i = 2;
    for (; i + 4 <= n; i += 4) {
        c += item_cycles(d + i);
        if (c > MAX_SPAN)
            break;
    }
    return (extent){.size = i < n ? i : n, .stop = 0};
}

/* The cycles e spans. */
static uint64_t extent_span(const uint8_t *d, const extent *e)
{
    const uint64_t c = span(d, e->size);
    return e->stop > c ? e->stop : c;
}

/* Per-cycle clocking costs every cycle (and, instrumented, a coverage callback per compare in
 * each): it is the reference for inputs up to this span; longer ones (up to 12,000 cycles an
 * item) get every other check. At 50,000 it was most of the target's time: 400-520 execs per
 * CPU second (2,000 runs, -seed=1, golden seeds); at 4,000 (dense inputs: up to a thousand items
 * with gaps of 0-3 cycles), 2,500-4,000 with run.sh's -max_len=1024. */
#define PER_CYCLE_SPAN_MAX 4000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    extent e = items_within_span(data, size);
    /* the output buffers live as long as the process: no allocation per run once grown */
    static buf a, b, h, q;
    a.n = b.n = h.n = q.n = 0;
    uint64_t sa, sb;
    run(data, &e, 1, 1, &a, &sa); /* (it may cut the input at OUT_BUDGET) */
    if (extent_span(data, &e) <= PER_CYCLE_SPAN_MAX) {
        run(data, &e, 0, 0, &b, &sb);
        if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n)))
            abort(); /* lazy and per-cycle clocking differ */
    }
    stats s = {0};
    mt_dec d;
    mt_dec_init(&d, cb, &s);
    mt_dec_feed(&d, a.p, a.n);
    mt_dec_finish(&d);
    if (s.losses)
        abort(); /* the model wrote something its own decoder rejects */

    run_hooked(data, &e, 0, 1, &h); /* (it may cut the input further, at its own stream's budget) */
    run_hooked(data, &e, 1, 0, &q);
    if (h.n != q.n || (h.n && memcmp(h.p, q.p, h.n)))
        abort(); /* the schedule's copy picked other accesses than the unit captures */
    return 0;
}
