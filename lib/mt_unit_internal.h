/* The trace unit model's internals shared by its modules (not an API: include only from
 * lib/mt_unit*.c).  The model is split by job:
 *   mt_unit.c        creation, lazy time and the exact fast paths, the emulator's calls
 *   mt_unit_clock.c  one generic clock, exactly docs/trace-unit.md section 4 (clock_one), with
 *                    sessions, sections and register writes
 *   mt_unit_output.c the batched output stage and the output marks
 *   mt_unit_bulk.c   a stalled unit's cycles in one step (waiting for room, rest or its hold)
 * and this header: the pipeline from a chosen packet to the FIFO (docs/trace-unit.md 4.A, 4.D,
 * 4.E) and the small steps every path takes, inline so that splitting changed no code. */
#ifndef MT_UNIT_INTERNAL_H
#define MT_UNIT_INTERNAL_H

#include "mt_unit.h"

#define LEN_MASK ((UINT64_C(1) << 40) - 1)

/* The small steps below run several times a clock.  Under UBSan (the fuzz targets' build, clang
 * -O1 or -O2) clang inlines none of them, so every clock paid a call per step: always_inline
 * keeps them in line in every build (gcc -O2 inlined them anyway).  Same code, same bytes;
 * docs/robustness.md, tenth session. */
#define MT_STEP static inline __attribute__((always_inline))

/* mt_unit_output.c: hands the drained bytes of the stage to the sink. */
void mt_unit_hand_over(mt_unit *u);
/* mt_unit_clock.c: one generic cycle at u->now (docs/trace-unit.md section 4). */
void mt_unit_clock_one(mt_unit *u);
/* mt_unit_clock.c: the section switches in cycles [sec_end, j) (sec_end >= now, session active)
 * of a unit whose SECTION is due for a switch already (sect_pending, sect_switch) and whose hold
 * has no sample behind the barrier: each switch then changes only the section and its intervals,
 * so only the last one's stay.  Sets them (section and interval state as after that switch's
 * schedule step) and returns its cycle; the caller completes the cycles' drain and entries. */
uint64_t mt_unit_repeat_switches(mt_unit *u, uint64_t j);
/* mt_unit_clock.c: the cycle now == sec_end of an active session, with no input recorded, no
 * reduce-path event and an arbitration that cannot act in it (a rest cycle, or no room after
 * the drain and no ready sample in the hold): the generic clock's steps that do anything then
 * (drain, switch with its drop of a sample behind the barrier, interval, entry). */
void mt_unit_clock_quiet_switch(mt_unit *u);
/* mt_unit_clock.c: cycles [now, cycle) of a unit in the lean state (mt_unit_bulk.c, lean_ok):
 * the generic clock with that state's facts substituted, cycle by cycle. */
void mt_unit_clock_lean(mt_unit *u, uint64_t cycle);
/* mt_unit_bulk.c: completes cycles from now towards `cycle` in one step when no input is
 * recorded and the generic clock would only drain, open intervals and switch sections in them
 * (a stalled unit: the arbitration waits for room, a rest cycle or the hold's readiness).
 * 1 when it advanced now, 0 when cycle now needs the generic clock. */
int mt_unit_bulk_step(mt_unit *u, uint64_t cycle);
/* The reduce mode (mt_unit_rd.c): a session's start at t (after the latch), its clock t (the
 * capture's input; hold_free: the hold was empty at the clock's start), the stop asked at t. */
void mt_unit_rd_start(mt_unit *u, uint64_t t);
void mt_unit_rd_clock(mt_unit *u, uint64_t t, int hold_free);
void mt_unit_rd_disable(mt_unit *u, uint64_t t);
void mt_unit_rd_free(mt_unit *u);

/* ---- output ---------------------------------------------------------------------------- */

MT_STEP void drain(mt_unit *u, uint64_t n)
{
    if (u->batch)
        u->fifo.occ -= n < u->fifo.occ ? (uint32_t)n : u->fifo.occ;
    else
        mt_fifo_pop(&u->fifo, n, u->p.sink, u->p.sink_ctx);
}

/* Appends a chosen packet's bytes to the stage (batched output); they enter the occupancy
 * later (enter_due). occ + pipe_bytes + n <= depth (the room rule). */
MT_STEP void stage_append(mt_unit *u, const uint8_t *p, uint32_t n)
{
    if (u->stage_n + n > u->p.depth + MT_UNIT_BATCH)
        mt_unit_hand_over(u); /* leaves occ + pipe_bytes <= depth - n bytes */
    uint8_t *d = u->stage + u->stage_n;
    for (uint32_t i = 0; i < n; i++) /* a few bytes: a loop beats memcpy's call */
        d[i] = p[i];
    u->stage_n += n;
}

/* ---- packets in flight (contract v2) ------------------------------------------------ */

/* A packet may be chosen in this cycle: the space after this cycle's drain holds a maximal
 * packet for it and for each packet still in flight. */
MT_STEP int has_room(const mt_unit *u)
{
    return u->p.depth - u->fifo.occ >= (uint32_t)MT_PKT_MAX * (u->pipe_n + 1u);
}

MT_STEP mt_unit_inflight *pipe_at(mt_unit *u, unsigned i)
{
    unsigned k = u->pipe_head + i;
    return &u->pipe[k >= MT_UNIT_LATENCY + 1 ? k - (MT_UNIT_LATENCY + 1) : k];
}

/* Length bounds the SYNC estimate uses for the packets chosen in this and the last cycle
 * (docs/trace-unit.md section 4.E): what the hardware knows of a packet at its choice. */
enum { BOUND_RUN = 2, BOUND_SECTION = 14, BOUND_SYNC = 16, BOUND_VALUE = 6, BOUND_END = 13 };
MT_STEP unsigned sample_bound(unsigned run, uint64_t skip, unsigned op)
{
    return 1u + (run ? 1u : 0u) + (skip ? 6u : 0u) + (op > MT_OP_MATCH2 ? 8u : 0u);
}

/* The packet chosen in cycle t: it enters the FIFO at the end of t + MT_UNIT_LATENCY. */
MT_STEP void choose(mt_unit *u, const uint8_t *p, uint32_t n, unsigned kind, unsigned bound,
                    uint64_t t)
{
    if (u->batch) {
        stage_append(u, p, n); /* before pipe_bytes counts them: hand_over keeps the rest */
    } else {
        mt_unit_inflight *f = pipe_at(u, u->pipe_n);
        for (uint32_t i = 0; i < n; i++)
            f->bytes[i] = p[i];
    }
    mt_unit_inflight *e = pipe_at(u, u->pipe_n++);
    e->len = (uint8_t)n;
    e->kind = (uint8_t)kind;
    e->bound = (uint8_t)bound;
    e->due = t + MT_UNIT_LATENCY;
    /* (a long packet's second half takes the write port in t + 1, a rest cycle) */
    u->rest_until = t + MT_UNIT_PACE;
    u->pipe_bytes += n;
    if (kind == MT_INFLIGHT_SYNC)
        u->pipe_sync++;
}

/* End of cycle t: the packet chosen in t - LATENCY enters the FIFO; BYTES and the SYNC byte
 * count follow the FIFO. */
MT_STEP void enter_due(mt_unit *u, uint64_t t)
{
    if (!u->pipe_n)
        return;
    mt_unit_inflight *e = &u->pipe[u->pipe_head];
    if (e->due != t)
        return;
    if (u->batch)
        u->fifo.occ += e->len; /* its bytes are in the stage already */
    else
        mt_fifo_push(&u->fifo, e->bytes, e->len);
    u->bytes += e->len;
    u->pipe_bytes -= e->len;
    if (e->kind == MT_INFLIGHT_SYNC) {
        u->sync_bytes = e->len;
        u->pipe_sync--;
    } else {
        u->sync_bytes += e->len;
        if (u->sync_bytes > MT_PREV_BYTES_MAX)
            u->sync_bytes = MT_PREV_BYTES_MAX;
        if (e->kind == MT_INFLIGHT_END)
            u->busy = 0;
    }
    u->pipe_head = u->pipe_head == MT_UNIT_LATENCY ? 0 : u->pipe_head + 1;
    u->pipe_n--;
}

/* End of cycle t (after choose and enter_due): a SYNC becomes due once the bytes since the last
 * SYNC reach the period, counting the packets in flight chosen in t and t - 1 by their bounds
 * (their lengths are known to the hardware only later) and older ones exactly, unless a SYNC is
 * in flight (its entry restarts the count). The estimate only grows when a packet is chosen, so
 * the SYNC becomes due in the cycle of the packet that crossed the period (v4: it is chosen at
 * the arbitration's next act, after the hold's sample if that one is not behind the barrier). */
MT_STEP void sync_check(mt_unit *u, uint64_t t)
{
    if (!u->active || u->pipe_sync)
        return;
    uint32_t est = u->sync_bytes;
    for (unsigned i = 0; i < u->pipe_n; i++) {
        const mt_unit_inflight *e = pipe_at(u, i);
        est += e->due >= t + MT_UNIT_LATENCY - 1 ? e->bound : e->len;
    }
    if (est >= u->cfg.sync_period)
        u->sync_pending = 1;
}

/* ---- small steps of one clock -------------------------------------------------------- */

MT_STEP uint32_t sat_inc(uint32_t v)
{
    return v == UINT32_MAX ? v : v + 1;
}

MT_STEP void drop_sample(mt_unit *u)
{
    u->drop_pending = sat_inc(u->drop_pending);
    u->dropped = sat_inc(u->dropped);
    u->overflowed = 1;
}

MT_STEP int passes(const mt_unit *u, const mt_access *a)
{
    return a->kind < 32 && ((u->cfg.kind_mask >> a->kind) & 1) && (a->tap & 1) == u->cfg.tap;
}

/* B.2: a new interval opens at its sample point t (an open interval never captured is replaced:
 * it was idle). */
MT_STEP void open_due_interval(mt_unit *u, uint64_t t)
{
    if (t == u->next_sp) {
        u->int_open = 1;
        u->int_sp = t;
        u->int_idx = u->next_idx++;
        u->next_sp = t + u->sec_r;
    }
}

/* D: the arbitration's winner in cycle t, with the FIFO at occ after the cycle's drain (the
 * generic clock's, and what the bulk step predicts for the cycles it skips). */
enum mt_unit_winner { W_NONE, W_HOLD, W_SECTION, W_SYNC, W_OVERFLOW, W_MARKER, W_END };
MT_STEP enum mt_unit_winner mt_unit_winner(const mt_unit *u, uint64_t t, uint64_t occ)
{
    const int barrier = u->sect_pending || u->sync_pending;
    if (u->marker_urgent && !barrier)
        return W_MARKER; /* passed once already: it passes the hold's sample and an OVERFLOW now,
                          * so that it is never late by more than a few acts (row 0) */
    if (u->hold.valid && !(u->hold.after && barrier) && (t >= u->hold.ready || barrier))
        return W_HOLD; /* not ready yet, it holds back a SECTION or SYNC, which must not pass an
                        * older sample; OVERFLOW and MARKER may pass it, END waits for it */
    if (u->sect_pending)
        return W_SECTION;
    if (u->sync_pending)
        return W_SYNC;
    if (u->drop_pending && occ <= u->p.depth / 2)
        return W_OVERFLOW; /* only once the FIFO has drained to half: drops must not feed more drops */
    if (u->marker_pending)
        return W_MARKER;
    if (u->end_pending && !u->drop_pending && !u->hold.valid)
        return W_END; /* after everything else, including an OVERFLOW waiting for half-full */
    return W_NONE;
}

MT_STEP void reported(mt_unit *u, const mt_unit_sample *s)
{
    u->rep_idx = s->idx + 1;
    u->rep_cycle = s->sp + u->sec_r;
    u->samples++;
    u->last_sp = s->sp;
}

/* ---- lazy time ------------------------------------------------------------------------ */

/* Cycles [now, j) with nothing but drain and interval openings (j <= sec_end while active; no
 * packet in flight enters the FIFO before j - 1). */
MT_STEP void skip_to(mt_unit *u, uint64_t j)
{
    uint64_t n = j - u->now;
    if (u->fifo.occ) {
        uint64_t bytes = n >= u->fifo.occ ? u->fifo.occ : n * u->p.drain;
        drain(u, bytes);
    }
    if (u->active && u->next_sp < j) {
        uint64_t m = (j - 1 - u->next_sp) / u->sec_r + 1;
        u->int_open = 1;
        u->int_sp = u->next_sp + (m - 1) * u->sec_r;
        u->int_idx = u->next_idx + m - 1;
        u->next_idx += m;
        u->next_sp += m * u->sec_r;
    }
    u->now = j;
    enter_due(u, j - 1); /* callers never skip past a due packet's cycle */
}

#endif
