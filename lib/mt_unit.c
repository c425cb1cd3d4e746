/* The trace unit's reference model: one clock at a time, exactly as docs/trace-unit.md
 * section 4 says (mt_unit_clock_one), plus arithmetic fast paths over cycles in which nothing but the
 * FIFO drain and the interval counter can change, a calm cycle's capture into the hold, and a
 * calm hold's decision (v4: at max(hold.ready, rest_until)).
 *
 * This file: creation, lazy time and the exact fast paths, and the calls the emulator makes; the
 * generic clock is mt_unit_clock.c, the output stage mt_unit_output.c (mt_unit_internal.h). */
#include "mt_unit_internal.h"

#include <stdlib.h>
#include <string.h>

static void regs_reset(mt_unit_cfg *c)
{
    c->kind_mask = MT_RESET_KIND_MASK;
    c->tap = MT_RESET_TAP;
    c->fmt = MT_RESET_FMT;
    c->sync_period = MT_RESET_SYNC_PERIOD;
    c->rate_h = MT_RESET_RATE_H;
    c->rate_l = MT_RESET_RATE_L;
    c->len_h = ((uint64_t)MT_RESET_LEN_H_HI << 32) | MT_RESET_LEN_H_LO;
    c->len_l = ((uint64_t)MT_RESET_LEN_L_HI << 32) | MT_RESET_LEN_L_LO;
    c->spatial = 0;
    c->reduce = 0;
}

/* mt_unit_init's state, without the buffers. 0, or -1 with bad params. */
static int init_state(mt_unit *u, const mt_unit_params *params)
{
    memset(u, 0, sizeof *u);
    if (params)
        u->p = *params;
    if (!u->p.depth)
        u->p.depth = MT_UNIT_DEFAULT_DEPTH;
    if (!u->p.drain)
        u->p.drain = MT_UNIT_DEFAULT_DRAIN;
    if (u->p.depth < 32 || u->p.depth > 65536 || u->p.drain > MT_UNIT_MAX_DRAIN)
        return -1;
    regs_reset(&u->regs);
    u->cfg = u->regs;
    u->lazy = 1;
    u->fast = 1;
    u->sec_r = 1;
    u->rest_until = 0;
    u->enc.plain = u->p.plain ? 1 : 0;
    return 0;
}

int mt_unit_init(mt_unit *u, const mt_unit_params *params)
{
    if (init_state(u, params) != 0)
        return -1;
    u->buf_depth = u->p.depth;
    return mt_fifo_init(&u->fifo, u->p.depth);
}

int mt_unit_reset(mt_unit *u, const mt_unit_params *params)
{
    uint8_t *fifo_buf = u->fifo.buf, *stage = u->stage;
    uint32_t buf_depth = u->buf_depth;
    /* the reduce path's buffers stay too (its next session's start reuses or replaces them) */
    const mt_unit_reduce rd = u->rd;
    const uint8_t rd_alloc = u->rd_alloc;
    mt_unit_rdrec *rd_pend = u->rd_pend;
    const uint32_t rd_pend_cap = u->rd_pend_cap;
    const int ok = init_state(u, params) == 0;
    u->rd = rd;
    u->rd_alloc = rd_alloc;
    u->rd_pend = rd_pend;
    u->rd_pend_cap = rd_pend_cap;
    if (!ok) {
        u->fifo.buf = fifo_buf; /* still u's: mt_unit_free releases them */
        u->stage = stage;
        u->buf_depth = buf_depth;
        return -1;
    }
    if (u->p.depth <= buf_depth && fifo_buf) { /* the old buffers hold the new depth */
        u->fifo.buf = fifo_buf;
        u->fifo.depth = u->p.depth;
        u->stage = stage;
        u->buf_depth = buf_depth;
        return 0;
    }
    free(fifo_buf);
    free(stage);
    u->buf_depth = u->p.depth;
    return mt_fifo_init(&u->fifo, u->p.depth);
}

void mt_unit_free(mt_unit *u)
{
    mt_unit_flush(u);
    mt_unit_rd_free(u);
    free(u->stage);
    u->stage = NULL;
    mt_fifo_free(&u->fifo);
}

/* ---- lazy time (skip_to: mt_unit_internal.h) ------------------------------------------- */

static int quiet(const mt_unit *u)
{
    return !u->acc_valid && !u->nwrites && !u->hold.valid && !u->sect_pending &&
           !u->sync_pending && !u->drop_pending && !u->marker_pending && !u->end_pending &&
           !(u->sp_on && mt_usp_busy(&u->sp)) && !u->rd_on;
}

/* The cycle up to which advance may skip from a quiet state: not past the section end, and not
 * past the cycle in which the oldest packet in flight enters the FIFO. */
static inline uint64_t skip_limit(const mt_unit *u, uint64_t j)
{
    if (u->active && u->sec_end < j)
        j = u->sec_end;
    if (u->pipe_n && u->pipe[u->pipe_head].due + 1 < j)
        j = u->pipe[u->pipe_head].due + 1;
    return j;
}

/* The common sampling cycle: an access, nothing else pending, no hold, no section boundary,
 * session active. clock_one() with those facts substituted: the drain, the interval opening,
 * and a capture, which goes to the empty hold (v4: it never competes in its own cycle; with
 * nothing pending nothing else is chosen, whether or not it is a rest cycle). Its decision is
 * fast_hold's or clock_one's. */
static int fast_ok(const mt_unit *u)
{
    return u->acc_valid && u->active && !u->nwrites && !u->hold.valid && !u->sect_pending &&
           !u->sync_pending && !u->drop_pending && !u->marker_pending && !u->end_pending &&
           u->now != u->sec_end && !u->sp_on && !u->rd_on;
}

/* mt_enc_plan_sample's first outcome, decided inline (most samples in a burst): the sample
 * repeats the previous one (its first history match is the previous packet's entry, same rw,
 * no skip) and the run has room, so it only extends the run. Otherwise the encoder plans it.
 * The valid history entries are distinct (an entry is only added when no valid one matches), so
 * "the first match is prev_idx" is "entry prev_idx is valid and matches". */
static inline int enc_extends_run(const mt_enc *e, uint64_t a, unsigned rw, uint64_t skip)
{
    if (skip || !e->prev_valid || rw != e->prev_rw || e->run_cnt >= MT_RUN_MAX)
        return 0;
    a &= (UINT64_C(1) << mt_fmt_width(e->fmt)) - 1;
    return (e->hist_valid >> e->prev_idx & 1) && e->hist[e->prev_idx] == a;
}

/* The hold's sample wins the arbitration of cycle t in a calm unit (nothing else pending, not a
 * rest cycle): clock_one's sample row with those facts substituted. It is absorbed into the run,
 * chosen, or dropped for want of room. 1 when a packet was chosen (only a choice can make a SYNC
 * due, so the callers run sync_check only then). */
static __attribute__((noinline)) int fast_decide_plan(mt_unit *u, uint64_t t, uint64_t skip);

static inline __attribute__((always_inline)) int fast_decide(mt_unit *u, uint64_t t)
{
    mt_unit_sample *s = &u->hold;
    const uint64_t skip = s->idx - u->rep_idx;
    if (enc_extends_run(&u->enc, s->a, s->rw, skip)) { /* inline: most samples in a burst */
        s->valid = 0;
        u->enc.run_cnt++; /* mt_enc_commit of an absorbed plan */
        reported(u, s);
        u->rest_until = t + MT_UNIT_PACE;
        return 0; /* no bytes */
    }
    return fast_decide_plan(u, t, skip);
}

/* fast_decide's other outcomes: the encoder plans the sample. */
static int fast_decide_plan(mt_unit *u, uint64_t t, uint64_t skip)
{
    mt_unit_sample *s = &u->hold;
    s->valid = 0;
    mt_enc_plan plan;
    mt_enc_plan_sample(&u->enc, s->a, s->rw, skip, &plan);
    if (plan.absorbed) {
        mt_enc_commit(&u->enc, &plan);
        reported(u, s);
        u->rest_until = t + MT_UNIT_PACE;
    } else if (has_room(u)) {
        choose(u, plan.bytes, plan.len, MT_INFLIGHT_PLAIN, sample_bound(u->enc.run_cnt, skip, plan.op), t);
        mt_enc_commit(&u->enc, &plan);
        reported(u, s);
        return 1;
    } else {
        drop_sample(u);
    }
    return 0;
}

/* A hold whose decision fast_hold may take: the session runs, nothing but the hold is pending,
 * no input is recorded for the current cycle, and the hold is not waiting behind a barrier. */
static inline int hold_calm(const mt_unit *u)
{
    return u->hold.valid && !u->hold.after && u->active && !u->acc_valid && !u->nwrites &&
           !u->sect_pending && !u->sync_pending && !u->drop_pending && !u->marker_pending &&
           !u->end_pending && !(u->sp_on && mt_usp_busy(&u->sp)) && !u->rd_on;
}

/* The cycle in which a calm unit's hold is decided: its first cycle that is not a rest cycle. */
static inline uint64_t hold_cycle(const mt_unit *u)
{
    return u->hold.ready > u->rest_until ? u->hold.ready : u->rest_until;
}

/* With batched output, the cycles [now, t) of a calm unit (nothing but the hold, if anything, is
 * pending, and no input in them; t < sec_end) and cycle t's drain and interval opening, i.e. up to
 * where cycle t's capture or decision comes: a drain is arithmetic, so the cycles drain at once
 * (in pieces around the entries of packets in flight before t, which never make a SYNC due), and
 * the interval open at t is the last of those whose sample point is <= t (no division while
 * accesses come every interval). */
static inline __attribute__((always_inline)) void batch_to(mt_unit *u, uint64_t t)
{
    uint64_t from = u->now;
    while (u->pipe_n && u->pipe[u->pipe_head].due < t) {
        const uint64_t due = u->pipe[u->pipe_head].due;
        if (u->fifo.occ) {
            uint64_t n = (due - from + 1) * u->p.drain;
            u->fifo.occ = n >= u->fifo.occ ? 0 : u->fifo.occ - (uint32_t)n;
        }
        enter_due(u, due);
        from = due + 1;
    }
    if (u->fifo.occ) {
        uint64_t n = (t - from + 1) * u->p.drain;
        u->fifo.occ = n >= u->fifo.occ ? 0 : u->fifo.occ - (uint32_t)n;
    }
    if (u->next_sp <= t) {
        uint64_t d = t - u->next_sp, m = d < u->sec_r ? 1 : d / u->sec_r + 1;
        u->int_open = 1;
        u->int_sp = u->next_sp + (m - 1) * u->sec_r;
        u->int_idx = u->next_idx + m - 1;
        u->next_idx += m;
        u->next_sp += m * u->sec_r;
    }
}

/* Cycles [now, d] without accesses in a calm unit, d = hold_cycle < sec_end: drain and interval
 * openings up to d (as skip_to, around the entries of packets in flight; batch_to with batched
 * output), then the hold's decision in d. */
static void fast_hold(mt_unit *u, uint64_t d)
{
    if (u->batch) {
        batch_to(u, d);
    } else {
        while (u->pipe_n && u->pipe[u->pipe_head].due < d)
            skip_to(u, u->pipe[u->pipe_head].due + 1); /* an entry never makes a SYNC due */
        if (d > u->now)
            skip_to(u, d);
        if (u->fifo.occ)
            drain(u, u->p.drain);
        open_due_interval(u, d);
    }
    const int chosen = fast_decide(u, d);
    enter_due(u, d);
    if (chosen)
        sync_check(u, d);
    u->now = d + 1;
}

/* The hold can be decided by fast_hold before cycle `before`. */
static inline int hold_fast_due(const mt_unit *u, uint64_t before)
{
    if (!hold_calm(u))
        return 0;
    const uint64_t d = hold_cycle(u);
    return d < before && d < u->sec_end;
}

/* fast_clock's capture (after its drain and interval opening): to the hold, which is empty. */
static inline __attribute__((always_inline)) void fast_capture(mt_unit *u, const mt_access *acc, uint64_t t)
{
    if (u->int_open && passes(u, acc)) {
        mt_unit_sample *h = &u->hold; /* field by field: cheaper than a compound literal */
        u->int_open = 0;
        h->valid = 1;
        h->after = 0;
        h->rw = acc->write ? 1 : 0;
        h->a = mt_fmt_addr_part(u->sec_fmt, acc->addr);
        h->idx = u->int_idx;
        h->sp = u->int_sp;
        h->ready = t + MT_UNIT_PACE;
    }
}

static void fast_clock(mt_unit *u, const mt_access *acc)
{
    const uint64_t t = u->now;
    mt_fifo *f = &u->fifo;
    if (f->occ)
        drain(u, u->p.drain);
    open_due_interval(u, t);
    fast_capture(u, acc, t);
    enter_due(u, t);
    u->acc_valid = 0;
    u->now = t + 1;
}

void mt_unit_advance(mt_unit *u, uint64_t cycle)
{
    while (u->now < cycle) {
        if (u->lazy && u->fast && hold_fast_due(u, cycle)) {
            fast_hold(u, hold_cycle(u));
            continue;
        }
        if (u->lazy && quiet(u)) {
            uint64_t j = skip_limit(u, cycle);
            if (j > u->now) {
                skip_to(u, j);
                continue;
            }
        }
        if (u->lazy && mt_unit_bulk_step(u, cycle)) /* a stalled unit (mt_unit_bulk.c) */
            continue;
        if (u->lazy && u->fast && fast_ok(u))
            fast_clock(u, &u->acc);
        else
            mt_unit_clock_one(u);
    }
}

void mt_unit_access_cycle(mt_unit *u, const mt_access *a)
{
    /* The emulator's call, fused: with nothing recorded or pending but the hold and the access
     * before the section's end, the hold's sample is decided first when its cycle comes before
     * the access (fast_hold, exactly what mt_unit_advance does; batch_to + fast_decide inline
     * with batched output), the cycles up to the access are quiet (skip_to, exactly what
     * mt_unit_advance does for them) and the access's own cycle is a fast_clock one. */
    const uint64_t c = a->cycle;
    if (u->lazy && u->fast && u->active && c >= u->now && c < u->sec_end && !u->acc_valid &&
        !u->nwrites && !u->sect_pending && !u->sync_pending && !u->drop_pending &&
        !u->marker_pending && !u->end_pending && !u->sp_on && !u->rd_on) {
        if (u->hold.valid) { /* hold_fast_due(u, c), with the facts above */
            const uint64_t d = hold_cycle(u);
            if (u->hold.after || d >= c)
                goto generic;
            mt_unit_sample *s = &u->hold;
            const uint64_t skip = s->idx - u->rep_idx;
            if (u->batch && enc_extends_run(&u->enc, s->a, s->rw, skip)) {
                /* fast_hold(u, d) for a sample that extends the run (most in a burst): it touches
                 * neither the FIFO nor the packets in flight, so the cycles up to d need not be
                 * completed before it; batch_to(c) below completes them with c's */
                s->valid = 0;
                u->enc.run_cnt++; /* mt_enc_commit of an absorbed plan */
                reported(u, s);
                u->rest_until = d + MT_UNIT_PACE;
            } else if (u->batch) { /* fast_hold(u, d) */
                batch_to(u, d);
                const int chosen = fast_decide_plan(u, d, skip);
                enter_due(u, d);
                if (chosen)
                    sync_check(u, d);
                u->now = d + 1;
            } else {
                fast_hold(u, d);
            }
            if (u->sync_pending || u->drop_pending)
                goto generic; /* the decision made a SYNC due or dropped the sample */
        }
        if (u->batch) {
            batch_to(u, c); /* skip_to(c) + fast_clock in one */
            fast_capture(u, a, c);
            enter_due(u, c);
            u->now = c + 1;
            return;
        }
        /* packets in flight that enter the FIFO before c: exactly as advance skips to them */
        while (u->pipe_n && u->pipe[u->pipe_head].due < c)
            skip_to(u, u->pipe[u->pipe_head].due + 1); /* an entry never makes a SYNC due */
        if (c > u->now)
            skip_to(u, c);
        u->acc_valid = 1; /* fast_clock clears it, as clock_one does */
        fast_clock(u, a);
        return;
    }
generic:
    mt_unit_access(u, a);
    if (u->now == c)
        mt_unit_advance(u, c + 1);
}

void mt_unit_access(mt_unit *u, const mt_access *a)
{
    if (a->cycle < u->now || (a->cycle == u->now && u->acc_valid)) {
        u->err_order = 1;
        u->order_errors++;
        return;
    }
    mt_unit_advance(u, a->cycle);
    u->acc = *a;
    u->acc_valid = 1;
}

void mt_unit_mmio_write(mt_unit *u, uint64_t cycle, uint32_t off, uint32_t val)
{
    if (cycle < u->now) {
        u->err_order = 1;
        u->order_errors++;
        return;
    }
    mt_unit_advance(u, cycle);
    if (u->nwrites >= MT_UNIT_MAX_WRITES) {
        u->err_order = 1;
        u->order_errors++;
        return;
    }
    u->wr_off[u->nwrites] = off;
    u->wr_val[u->nwrites] = val;
    u->nwrites++;
}

uint32_t mt_unit_mmio_read(mt_unit *u, uint64_t cycle, uint32_t off)
{
    if (cycle > u->now)
        mt_unit_advance(u, cycle);
    const mt_unit_cfg *r = &u->regs;
    switch (off) {
    case MT_REG_ID: return MT_ID_VALUE;
    case MT_REG_VERSION: return MT_VERSION_VALUE;
    case MT_REG_CTRL: return u->active ? MT_CTRL_ENABLE : 0;
    case MT_REG_STATUS:
        return (u->active ? MT_STATUS_ACTIVE : 0) | (u->busy ? MT_STATUS_BUSY : 0) |
               (u->fifo.occ == 0 ? MT_STATUS_FIFO_EMPTY : 0) |
               (u->overflowed ? MT_STATUS_OVERFLOWED : 0) |
               (u->marker_pending ? MT_STATUS_MARKER_BUSY : 0) |
               (u->marker_lost ? MT_STATUS_MARKER_LOST : 0) |
               (u->err_order ? MT_STATUS_ERR_ORDER : 0) | (u->sec_span ? MT_STATUS_SPAN : 0);
    case MT_REG_FIFO_LEVEL: return u->fifo.occ;
    case MT_REG_FIFO_INFO:
        return (u->p.depth & 0xFFFF) | (u->p.drain << 16) | ((uint32_t)MT_MAX_PACKET << 24);
    case MT_REG_KIND_MASK: return r->kind_mask;
    case MT_REG_TAP: return r->tap;
    case MT_REG_FMT: return r->fmt;
    case MT_REG_SYNC_PERIOD: return r->sync_period;
    case MT_REG_RATE_H: return r->rate_h;
    case MT_REG_RATE_L: return r->rate_l;
    case MT_REG_LEN_H_LO: return (uint32_t)r->len_h;
    case MT_REG_LEN_H_HI: return (uint32_t)(r->len_h >> 32);
    case MT_REG_LEN_L_LO: return (uint32_t)r->len_l;
    case MT_REG_LEN_L_HI: return (uint32_t)(r->len_l >> 32);
    case MT_REG_DROPPED: return u->dropped;
    case MT_REG_SAMPLES_LO: u->latch_samples_hi = (uint32_t)(u->samples >> 32) & 0xFFFF; return (uint32_t)u->samples;
    case MT_REG_SAMPLES_HI: return u->latch_samples_hi;
    case MT_REG_BYTES_LO: u->latch_bytes_hi = (uint32_t)(u->bytes >> 32) & 0xFFFF; return (uint32_t)u->bytes;
    case MT_REG_BYTES_HI: return u->latch_bytes_hi;
    case MT_REG_CYCLE_LO: u->latch_cycle_hi = (uint32_t)(u->now >> 32); return (uint32_t)u->now;
    case MT_REG_CYCLE_HI: return u->latch_cycle_hi;
    case MT_REG_SPATIAL: return r->spatial;
    case MT_REG_REDUCE: return r->reduce;
    default: return 0;
    }
}

uint64_t mt_unit_stop(mt_unit *u, uint64_t cycle)
{
    mt_unit_mmio_write(u, cycle < u->now ? u->now : cycle, MT_REG_CTRL, 0);
    mt_unit_advance(u, u->now + 1);
    /* Steps that never pass the first idle cycle (not busy, FIFO empty): the FIFO drains what it
     * holds first; a packet in flight enters it first (an END too: then it holds the END); busy
     * with neither, the END is still to be chosen, so a lazy unit's bulk step, which stops at
     * every act and entry, cannot pass it (a reduce session's flush: thousands of cycles). */
    while (u->busy || u->fifo.occ) {
        if (u->fifo.occ)
            mt_unit_advance(u, u->now + (u->fifo.occ + u->p.drain - 1) / u->p.drain);
        else if (u->pipe_n)
            mt_unit_advance(u, u->pipe[u->pipe_head].due + 1);
        else if (!(u->lazy && mt_unit_bulk_step(u, UINT64_MAX)))
            mt_unit_advance(u, u->now + 1);
    }
    mt_unit_flush(u);
    return u->now;
}
