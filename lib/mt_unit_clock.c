/* The trace unit model's generic clock: one cycle exactly as docs/trace-unit.md section 4 says
 * (drain, schedule, capture, arbitration, FIFO entry, SYNC check, register writes), with the
 * session, section and register-write steps it takes.  The fast paths in mt_unit.c must give
 * the same result (test_lib_unit's test_fast_equals_generic). */
#include "mt_unit_internal.h"

#include <string.h>

#include "mt_pkt.h"

MT_STEP uint64_t section_len(const mt_unit *u, unsigned span)
{
    return span ? u->cfg.len_l : u->cfg.len_h;
}

MT_STEP void enter_section(mt_unit *u, unsigned span, uint64_t t)
{
    u->sec_span = (uint8_t)span;
    u->sec_fmt = (uint8_t)((u->cfg.fmt >> (span ? MT_FMT_L_SHIFT : MT_FMT_H_SHIFT)) & 3);
    u->sec_r = span ? u->cfg.rate_l : u->cfg.rate_h;
    u->sec_start = t;
    u->sec_end = t + section_len(u, span);
    u->next_sp = t;
    u->next_idx = 0;
    u->int_open = 0;
}

/* The section a switch from `span` enters: the other one, unless its length is 0. */
MT_STEP unsigned next_span(const mt_unit *u, unsigned span)
{
    return section_len(u, !span) ? !span : span;
}

MT_STEP void section_switch(mt_unit *u, uint64_t t)
{
    enter_section(u, next_span(u, u->sec_span), t);
    u->sect_pending = u->sect_switch = 1;
    if (u->hold.valid && u->hold.after) {
        u->hold.valid = 0;
        drop_sample(u);
    }
}

void mt_unit_clock_quiet_switch(mt_unit *u)
{
    const uint64_t t = u->now;
    if (u->fifo.occ)
        drain(u, u->p.drain);
    section_switch(u, t);
    open_due_interval(u, t);
    enter_due(u, t);
    /* (no sync_check: its estimate grows only in a cycle that chooses a packet, and a SYNC's
     * entry, which restarts the count, never reaches the period: skip_to's argument) */
    u->now = t + 1;
}

/* A SYNC packet made at cycle t; prev_bytes: the stream bytes since the last SYNC's first byte,
 * those in flight included (they enter the FIFO before this SYNC). */
MT_STEP uint32_t sync_packet(const mt_unit *u, uint8_t *pkt, uint64_t t)
{
    const uint32_t prev = u->sync_bytes + u->pipe_bytes;
    return (uint32_t)mt_pkt_sync(pkt, u->sync_seq, prev > MT_PREV_BYTES_MAX ? MT_PREV_BYTES_MAX : prev, t);
}

/* What choosing a SECTION changes (both clocks). */
MT_STEP void section_chosen(mt_unit *u)
{
    if (u->sect_switch) {
        u->rep_idx = 0;
        u->rep_cycle = u->sec_start;
    }
    mt_enc_reset(&u->enc, u->sec_fmt);
    u->sect_pending = u->sect_switch = 0;
    u->hold.after = 0;
}

/* What choosing a SYNC at cycle t changes (both clocks): the mark told, the next sequence
 * number, the encoder's history restarted, and a SECTION due after it. */
MT_STEP void sync_chosen(mt_unit *u, uint64_t t)
{
    if (u->on_sync) {
        const mt_unit_mark m = {.offset = u->prev_bytes + u->bytes + u->pipe_bytes, .cycle = t,
                                .samples = u->prev_samples + u->samples, .last_sp = u->last_sp};
        u->on_sync(u->on_sync_ctx, &m);
    }
    u->sync_seq++;
    mt_enc_reset(&u->enc, u->enc.fmt);
    u->sync_pending = 0;
    u->sect_pending = 1;
}

void mt_unit_clock_lean(mt_unit *u, uint64_t cycle)
{
    /* mt_unit_clock_one for a unit in a session without input, front end, held sample, RUN or
     * pending MARKER or END (mt_unit_bulk.c, lean_ok): the capture, the front ends and the
     * register writes have nothing to do; the arbitration's winner is the SECTION if one is due,
     * else the SYNC if one is due, else an OVERFLOW if one is due and the FIFO is at half or
     * below, else none (mt_unit_winner with those facts), and it is chosen when there is room and
     * it is not a rest cycle.  No cycle can leave that state: no sample is captured, so none is
     * held, absorbed or dropped (no RUN, no new drop), and no MARKER or END becomes due without
     * a register write.  The steps below are the generic
     * clock's, in its order, each with the same helper. */
    uint8_t pkt[MT_PKT_MAX];
    while (u->now < cycle) {
        const uint64_t t = u->now;
        if (u->fifo.occ) /* A. drain */
            drain(u, u->p.drain);
        const int room = has_room(u) && t >= u->rest_until; /* (after the drain, as clock_one) */
        if (t == u->sec_end) /* B. schedule (hold empty: section_switch drops nothing) */
            section_switch(u, t);
        open_due_interval(u, t);
        const int overflow = u->drop_pending && u->fifo.occ <= u->p.depth / 2;
        if (room && (u->sect_pending || u->sync_pending || overflow)) { /* D. arbitration */
            uint32_t n;
            unsigned kind = MT_INFLIGHT_PLAIN, bound;
            if (u->sect_pending) {
                n = (uint32_t)mt_pkt_section(pkt, u->sec_span, u->sec_fmt, u->sec_r,
                                             u->sect_switch ? u->sec_start : u->rep_cycle);
                bound = BOUND_SECTION;
                section_chosen(u);
            } else if (u->sync_pending) {
                n = sync_packet(u, pkt, t);
                bound = BOUND_SYNC;
                kind = MT_INFLIGHT_SYNC;
                sync_chosen(u, t);
            } else { /* (an OVERFLOW waits for the FIFO at half, after a SECTION or SYNC) */
                n = (uint32_t)mt_pkt_overflow(pkt, u->drop_pending);
                bound = BOUND_VALUE;
                u->drop_pending = 0;
            }
            choose(u, pkt, n, kind, bound, t); /* E. (marker_urgent stays 0: no MARKER pending) */
        }
        enter_due(u, t);
        sync_check(u, t);
        u->now = t + 1;
    }
}

uint64_t mt_unit_repeat_switches(mt_unit *u, uint64_t j)
{
    uint64_t s = u->sec_end; /* the first switch */
    unsigned span = next_span(u, u->sec_span), other = next_span(u, span);
    const uint64_t len = section_len(u, span);
    if (other == span) { /* one section, entered again every len cycles */
        const uint64_t k = (j - 1 - s) / len;
        s += k * len;
        u->bulk_switches += k + 1;
    } else { /* span and other alternate: a period of two switches */
        const uint64_t period = len + section_len(u, other), k = (j - 1 - s) / period;
        s += k * period;
        u->bulk_switches += 2 * k + 1;
        if (s + len < j) {
            s += len;
            span = other;
            u->bulk_switches++;
        }
    }
    enter_section(u, span, s); /* section_switch at s, without a change to the facts above */
    open_due_interval(u, s);
    return s;
}

static void start_session(mt_unit *u, uint64_t t)
{
    u->cfg = u->regs;
    if (u->cfg.len_h == 0 && u->cfg.len_l == 0)
        u->cfg.len_h = LEN_MASK;
    /* v4: a section is at least 2 cycles long, so the hardware never has to decide a switch in
     * the cycle after it loads a length */
    if (u->cfg.len_h == 1)
        u->cfg.len_h = 2;
    if (u->cfg.len_l == 1)
        u->cfg.len_l = 2;
    u->active = u->busy = 1;
    u->sync_pending = 1;
    u->sync_seq = 0;
    u->sync_bytes = 0;
    u->sect_pending = u->sect_switch = 0;
    u->drop_pending = 0;
    u->marker_pending = u->marker_urgent = 0;
    u->end_pending = 0;
    u->hold.valid = 0;
    u->dropped = 0;
    u->prev_bytes += u->bytes; /* output marks count over all sessions */
    u->prev_samples += u->samples;
    u->samples = u->bytes = 0;
    u->overflowed = u->marker_lost = u->err_order = 0;
    enter_section(u, u->cfg.len_h == 0, t);
    mt_enc_reset(&u->enc, u->sec_fmt);
    u->sp_on = (u->cfg.spatial & MT_SPATIAL_EN) ? 1 : 0;
    mt_usp_start(&u->sp, u->cfg.spatial >> MT_SPATIAL_LG2N_SHIFT);
    mt_unit_rd_start(u, t);
    u->rep_idx = 0;
    u->rep_cycle = t;
}

static void apply_write(mt_unit *u, uint64_t t, uint32_t off, uint32_t v)
{
    mt_unit_cfg *r = &u->regs;
    switch (off) {
    case MT_REG_CTRL:
        if (v & MT_CTRL_ENABLE) {
            if (!u->busy)
                start_session(u, t + 1);
        } else if (u->active && u->rd_on) {
            mt_unit_rd_disable(u, t); /* the stop waits for the reduce path's flush */
        } else if (u->active) {
            u->active = 0;
            u->end_pending = 1;
            u->int_open = 0;
            u->sp_on = 0;
        }
        break;
    case MT_REG_KIND_MASK: r->kind_mask = v & 0x1F; break;
    case MT_REG_TAP: r->tap = v & 1; break;
    case MT_REG_FMT: r->fmt = v & 0x33; break;
    case MT_REG_SYNC_PERIOD:
        v &= 0x3FFF;
        r->sync_period = v < MT_SYNC_PERIOD_MIN ? MT_SYNC_PERIOD_MIN
                         : v > MT_SYNC_PERIOD_MAX ? MT_SYNC_PERIOD_MAX : v;
        break;
    case MT_REG_RATE_H: r->rate_h = v ? v : 1; break;
    case MT_REG_RATE_L: r->rate_l = v ? v : 1; break;
    case MT_REG_LEN_H_LO: r->len_h = (r->len_h & ~UINT64_C(0xFFFFFFFF)) | v; break;
    case MT_REG_LEN_H_HI: r->len_h = (r->len_h & 0xFFFFFFFFu) | ((uint64_t)(v & 0xFF) << 32); break;
    case MT_REG_LEN_L_LO: r->len_l = (r->len_l & ~UINT64_C(0xFFFFFFFF)) | v; break;
    case MT_REG_LEN_L_HI: r->len_l = (r->len_l & 0xFFFFFFFFu) | ((uint64_t)(v & 0xFF) << 32); break;
    case MT_REG_SPATIAL: {
        uint32_t lg = (v >> MT_SPATIAL_LG2N_SHIFT) & 0x1F;
        r->spatial = (v & MT_SPATIAL_EN) |
                     ((lg > MT_SPATIAL_LG2N_MAX ? MT_SPATIAL_LG2N_MAX : lg) << MT_SPATIAL_LG2N_SHIFT);
        break;
    }
    case MT_REG_REDUCE: {
        uint32_t lg = (v >> MT_REDUCE_LGK_SHIFT) & 0x1F;
        r->reduce = (v & MT_REDUCE_EN) |
                    ((lg > MT_REDUCE_LGK_MAX ? MT_REDUCE_LGK_MAX : lg) << MT_REDUCE_LGK_SHIFT);
        break;
    }
    case MT_REG_MARKER:
        if (u->active) {
            if (u->marker_pending) {
                u->marker_lost = 1;
            } else {
                u->marker_pending = 1;
                u->marker_val = v;
            }
        }
        break;
    default: break;
    }
}

/* Under ASan the generic clock's steps that need a packet buffer, an encoder plan or an access
 * record on the stack (the spatial front end, the arbitration's act and the choice of its packet)
 * are out of line: most cycles of a per-cycle pass act in none of them, and a frame holding such
 * objects poisons and unpoisons their redzones at every call (3-7 % of fuzz_unit_modes' CPU time,
 * docs/robustness.md, eleventh session).  Elsewhere the compiler decides (gcc -O2 out of line:
 * 4 % more instructions).  Same steps, same order, same bytes either way. */
#if defined(__SANITIZE_ADDRESS__)
#define CLOCK_ACT static __attribute__((noinline))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLOCK_ACT static __attribute__((noinline))
#endif
#endif
#ifndef CLOCK_ACT
#define CLOCK_ACT static inline
#endif

/* C'. the spatial front end: the access goes to it, the capture sees its record. */
CLOCK_ACT void spatial_clock(mt_unit *u, uint64_t t)
{
    mt_access rec = u->acc;
    const int in = u->acc_valid && passes(u, &u->acc);
    u->acc_valid = (uint8_t)mt_usp_clock(&u->sp, in ? &u->acc : NULL, &rec);
    rec.cycle = t;
    u->acc = rec;
}

/* D. the arbitration in cycle t with winner w (not W_NONE), and E.'s choice of the packet it
 * makes.  (The capture's move to the hold, which the generic clock makes between the two, reads
 * and writes nothing the choice does: the stage, the packets in flight, rest_until,
 * marker_urgent.) */
CLOCK_ACT void arbitrate(mt_unit *u, enum mt_unit_winner w, uint64_t t, int rest, int room)
{
    uint8_t pkt[MT_PKT_MAX];
    uint32_t len = 0;
    unsigned kind = MT_INFLIGHT_PLAIN, bound = 0;

    if (w == W_HOLD && !rest && t >= u->hold.ready) {
        mt_unit_sample *s = &u->hold;
        mt_enc_plan plan;
        mt_enc_plan_sample(&u->enc, s->a, s->rw, s->idx - u->rep_idx, &plan);
        if (plan.absorbed) {
            mt_enc_commit(&u->enc, &plan);
            reported(u, s);
            s->valid = 0;
            u->rest_until = t + MT_UNIT_PACE; /* an absorption is an act of the arbitration */
            u->marker_urgent = u->marker_pending; /* ... which a pending MARKER lets pass once */
        } else if (room) {
            bound = sample_bound(u->enc.run_cnt, s->idx - u->rep_idx, plan.op);
            memcpy(pkt, plan.bytes, plan.len);
            len = plan.len;
            mt_enc_commit(&u->enc, &plan);
            reported(u, s);
            s->valid = 0;
        } else {
            drop_sample(u);
            s->valid = 0;
        }
        /* in a rest cycle the sample waits in the hold */
    } else if (w == W_HOLD) {
        /* a rest cycle, or the sample is not ready: the hold keeps it */
    } else if (u->enc.run_cnt) {
        if (room) {
            len = (uint32_t)mt_pkt_run(pkt, u->enc.run_cnt);
            bound = BOUND_RUN;
            u->enc.run_cnt = 0;
        }
    } else if (room) {
        /* (the packet is made only when it can be chosen: a stalled unit, its FIFO without room
         * or in rest cycles, waits with a packet due for many clocks) */
        uint32_t n = 0;
        switch (w) {
        case W_SECTION:
            if (u->sect_switch) {
                n = (uint32_t)mt_pkt_section(pkt, u->sec_span, u->sec_fmt, u->sec_r, u->sec_start);
            } else {
                n = (uint32_t)mt_pkt_section(pkt, u->sec_span, u->sec_fmt, u->sec_r, u->rep_cycle);
            }
            break;
        case W_SYNC: n = sync_packet(u, pkt, t); break;
        case W_OVERFLOW: n = (uint32_t)mt_pkt_overflow(pkt, u->drop_pending); break;
        case W_MARKER: n = (uint32_t)mt_pkt_marker(pkt, u->marker_val); break;
        case W_END: n = (uint32_t)mt_pkt_end(pkt, u->samples, u->dropped); break;
        default: break;
        }
        len = n;
        bound = w == W_SECTION ? BOUND_SECTION : w == W_SYNC ? BOUND_SYNC
                : w == W_END ? BOUND_END : BOUND_VALUE;
        switch (w) {
        case W_SECTION: section_chosen(u); break;
        case W_SYNC:
            kind = MT_INFLIGHT_SYNC;
            sync_chosen(u, t);
            break;
        case W_OVERFLOW: u->drop_pending = 0; break;
        case W_MARKER: u->marker_pending = u->marker_urgent = 0; break;
        case W_END: /* busy clears as the END enters the FIFO */
            u->end_pending = 0;
            kind = MT_INFLIGHT_END;
            break;
        default: break;
        }
    }

    /* E. this cycle's packet goes in flight */
    if (len) {
        choose(u, pkt, len, kind, bound, t);
        u->marker_urgent = u->marker_pending; /* a MARKER passed by this act (or whose RUN was
                                               * flushed first) wins the next one */
    }
}

void mt_unit_clock_one(mt_unit *u)
{
    const uint64_t t = u->now;
    const int hold_free = !u->hold.valid; /* (the reduce path's record queue) */

    /* A. drain */
    if (u->fifo.occ)
        drain(u, u->p.drain);
    /* a rest cycle (v4): the arbitration acted in one of the last PACE - 1 cycles */
    const int rest = t < u->rest_until;
    const int room = has_room(u) && !rest;

    /* B. schedule */
    if (u->active) {
        if (t == u->sec_end)
            section_switch(u, t);
        open_due_interval(u, t);
    }

    /* C'. the spatial front end */
    if (u->sp_on)
        spatial_clock(u, t);
    /* C''. the reduce path: the access goes to it, the capture sees its record queue's head */
    if (u->rd_on)
        mt_unit_rd_clock(u, t, hold_free);

    /* C. capture */
    mt_unit_sample cap = {0};
    if (u->acc_valid && u->active && u->int_open && passes(u, &u->acc)) {
        cap.valid = 1;
        cap.a = mt_fmt_addr_part(u->sec_fmt, u->acc.addr);
        cap.rw = u->acc.write ? 1 : 0;
        cap.idx = u->int_idx;
        cap.sp = u->int_sp;
        u->int_open = 0;
    }

    /* D. arbitration, and E.'s choice of its packet */
    const enum mt_unit_winner w = mt_unit_winner(u, t, u->fifo.occ);
    if (w != W_NONE)
        arbitrate(u, w, t, rest, room);

    /* the capture goes to the hold (v4: always; it competes from t + PACE on) when the hold is
     * free at the end of this cycle, or is dropped */
    if (cap.valid) {
        if (!u->hold.valid) {
            u->hold = cap;
            u->hold.valid = 1;
            u->hold.ready = t + MT_UNIT_PACE;
            u->hold.after = (u->sect_pending || u->sync_pending) ? 1 : 0;
        } else {
            drop_sample(u);
        }
    }

    /* E. end of cycle: the packet chosen LATENCY cycles ago enters the FIFO */
    enter_due(u, t);
    sync_check(u, t);
    for (unsigned i = 0; i < u->nwrites; i++)
        apply_write(u, t, u->wr_off[i], u->wr_val[i]);
    u->nwrites = 0;
    if (u->rd_on && u->rd_stop) { /* the flushed reduce path: the session stops now */
        u->rd_on = u->rd_flush = u->rd_stop = 0;
        u->active = 0;
        u->end_pending = 1;
        u->int_open = 0;
        u->sp_on = 0;
    }
    u->acc_valid = 0;
    u->now = t + 1;
}
