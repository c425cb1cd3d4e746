/* The trace unit's reference model: one clock at a time, exactly as docs/trace-unit.md
 * section 4 says (clock_one), plus arithmetic fast paths over cycles in which nothing but the
 * FIFO drain and the interval counter can change, a calm cycle's capture into the hold, and a
 * calm hold's decision (v4: at max(hold.ready, rest_until)). */
#include "mt_unit.h"

#include <stdlib.h>
#include <string.h>

#define LEN_MASK ((UINT64_C(1) << 40) - 1)

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
}

int mt_unit_init(mt_unit *u, const mt_unit_params *params)
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
    return mt_fifo_init(&u->fifo, u->p.depth);
}

void mt_unit_free(mt_unit *u)
{
    mt_unit_flush(u);
    free(u->stage);
    u->stage = NULL;
    mt_fifo_free(&u->fifo);
}

/* ---- output ---------------------------------------------------------------------------- */

/* Batched output (mt_unit_batch_output): the FIFO's bytes live in a linear stage instead of the
 * ring. The stage holds [drained, not yet handed to the sink][the FIFO's occ bytes][the bytes of
 * the packets in flight], so a chosen packet is appended once, its entry into the FIFO is
 * `occ += len`, a drain is `occ -= n` (O(1), no copy, no call), and the sink gets the drained
 * bytes in blocks when the stage fills, at mt_unit_flush and at mt_unit_stop. Occupancy, bytes
 * and their order are exactly the ring's; only the sink calls come later and bigger. */
static void hand_over(mt_unit *u)
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
        hand_over(u);
}

int mt_unit_batch_output(mt_unit *u, int on)
{
    on = on && u->p.sink;
    if (on == u->batch)
        return 0;
    if (u->fifo.occ || u->pipe_n) /* switch only with an empty FIFO (the bytes would move) */
        return -1;
    if (on && !u->stage) {
        u->stage = malloc((size_t)u->p.depth + MT_UNIT_BATCH);
        if (!u->stage)
            return -1;
    }
    mt_unit_flush(u);
    u->stage_n = 0;
    u->batch = on;
    return 0;
}

static void drain(mt_unit *u, uint64_t n)
{
    if (u->batch)
        u->fifo.occ -= n < u->fifo.occ ? (uint32_t)n : u->fifo.occ;
    else
        mt_fifo_pop(&u->fifo, n, u->p.sink, u->p.sink_ctx);
}

/* Appends a chosen packet's bytes to the stage (batched output); they enter the occupancy
 * later (enter_due). occ + pipe_bytes + n <= depth (the room rule). */
static void stage_append(mt_unit *u, const uint8_t *p, uint32_t n)
{
    if (u->stage_n + n > u->p.depth + MT_UNIT_BATCH)
        hand_over(u); /* leaves occ + pipe_bytes <= depth - n bytes */
    uint8_t *d = u->stage + u->stage_n;
    for (uint32_t i = 0; i < n; i++) /* a few bytes: a loop beats memcpy's call */
        d[i] = p[i];
    u->stage_n += n;
}

/* ---- packets in flight (contract v2) ------------------------------------------------ */

/* A packet may be chosen in this cycle: the space after this cycle's drain holds a maximal
 * packet for it and for each packet still in flight. */
static inline int has_room(const mt_unit *u)
{
    return u->p.depth - u->fifo.occ >= (uint32_t)MT_PKT_MAX * (u->pipe_n + 1u);
}

static inline mt_unit_inflight *pipe_at(mt_unit *u, unsigned i)
{
    unsigned k = u->pipe_head + i;
    return &u->pipe[k >= MT_UNIT_LATENCY + 1 ? k - (MT_UNIT_LATENCY + 1) : k];
}

/* Length bounds the SYNC estimate uses for the packets chosen in this and the last cycle
 * (docs/trace-unit.md section 4.E): what the hardware knows of a packet at its choice. */
enum { BOUND_RUN = 2, BOUND_SECTION = 14, BOUND_SYNC = 16, BOUND_VALUE = 6, BOUND_END = 13 };
static inline unsigned sample_bound(unsigned run, uint64_t skip, unsigned op)
{
    return 1u + (run ? 1u : 0u) + (skip ? 6u : 0u) + (op > MT_OP_MATCH2 ? 8u : 0u);
}

/* The packet chosen in cycle t: it enters the FIFO at the end of t + MT_UNIT_LATENCY. */
static inline void choose(mt_unit *u, const uint8_t *p, uint32_t n, unsigned kind, unsigned bound,
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
static inline __attribute__((always_inline)) void enter_due(mt_unit *u, uint64_t t)
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
static inline void sync_check(mt_unit *u, uint64_t t)
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

/* ---- one clock ---------------------------------------------------------------------- */

static uint32_t sat_inc(uint32_t v)
{
    return v == UINT32_MAX ? v : v + 1;
}

static void drop_sample(mt_unit *u)
{
    u->drop_pending = sat_inc(u->drop_pending);
    u->dropped = sat_inc(u->dropped);
    u->overflowed = 1;
}

static uint64_t section_len(const mt_unit *u, unsigned span)
{
    return span ? u->cfg.len_l : u->cfg.len_h;
}

static void enter_section(mt_unit *u, unsigned span, uint64_t t)
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

static void section_switch(mt_unit *u, uint64_t t)
{
    unsigned next = !u->sec_span;
    if (section_len(u, next) == 0)
        next = u->sec_span;
    enter_section(u, next, t);
    u->sect_pending = u->sect_switch = 1;
    if (u->hold.valid && u->hold.after) {
        u->hold.valid = 0;
        drop_sample(u);
    }
}

static int passes(const mt_unit *u, const mt_access *a)
{
    return a->kind < 32 && ((u->cfg.kind_mask >> a->kind) & 1) && (a->tap & 1) == u->cfg.tap;
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
    u->marker_pending = 0;
    u->end_pending = 0;
    u->hold.valid = 0;
    u->dropped = 0;
    u->prev_bytes += u->bytes; /* output marks count over all sessions */
    u->prev_samples += u->samples;
    u->samples = u->bytes = 0;
    u->overflowed = u->marker_lost = u->err_order = 0;
    enter_section(u, u->cfg.len_h == 0, t);
    mt_enc_reset(&u->enc, u->sec_fmt);
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
        } else if (u->active) {
            u->active = 0;
            u->end_pending = 1;
            u->int_open = 0;
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

/* B.2: a new interval opens at its sample point t (an open interval never captured is replaced:
 * it was idle). */
static inline void open_due_interval(mt_unit *u, uint64_t t)
{
    if (t == u->next_sp) {
        u->int_open = 1;
        u->int_sp = t;
        u->int_idx = u->next_idx++;
        u->next_sp = t + u->sec_r;
    }
}

static void reported(mt_unit *u, const mt_unit_sample *s)
{
    u->rep_idx = s->idx + 1;
    u->rep_cycle = s->sp + u->sec_r;
    u->samples++;
    u->last_sp = s->sp;
}

enum winner { W_NONE, W_HOLD, W_SECTION, W_SYNC, W_OVERFLOW, W_MARKER, W_END };

static void clock_one(mt_unit *u)
{
    const uint64_t t = u->now;
    uint8_t pkt[MT_PKT_MAX];
    uint32_t len = 0;
    unsigned kind = MT_INFLIGHT_PLAIN, bound = 0;

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

    /* D. arbitration */
    const int barrier = u->sect_pending || u->sync_pending;
    enum winner w = W_NONE;
    if (u->hold.valid && !(u->hold.after && barrier) && (t >= u->hold.ready || barrier))
        w = W_HOLD; /* not ready yet, it holds back a SECTION or SYNC, which must not pass an older
                     * sample; OVERFLOW and MARKER may pass it, END waits for it */
    else if (u->sect_pending)
        w = W_SECTION;
    else if (u->sync_pending)
        w = W_SYNC;
    else if (u->drop_pending && u->fifo.occ <= u->p.depth / 2)
        w = W_OVERFLOW; /* only once the FIFO has drained to half: drops must not feed more drops */
    else if (u->marker_pending)
        w = W_MARKER;
    else if (u->end_pending && !u->drop_pending && !u->hold.valid)
        w = W_END; /* after everything else, including an OVERFLOW waiting for half-full */

    if (w == W_HOLD && !rest && t >= u->hold.ready) {
        mt_unit_sample *s = &u->hold;
        mt_enc_plan plan;
        mt_enc_plan_sample(&u->enc, s->a, s->rw, s->idx - u->rep_idx, &plan);
        if (plan.absorbed) {
            mt_enc_commit(&u->enc, &plan);
            reported(u, s);
            s->valid = 0;
            u->rest_until = t + MT_UNIT_PACE; /* an absorption is an act of the arbitration */
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
    } else if (w != W_NONE && u->enc.run_cnt) {
        uint32_t n = (uint32_t)mt_pkt_run(pkt, u->enc.run_cnt);
        if (room) {
            len = n;
            bound = BOUND_RUN;
            u->enc.run_cnt = 0;
        }
    } else if (w != W_NONE) {
        uint32_t n = 0;
        switch (w) {
        case W_SECTION:
            if (u->sect_switch) {
                n = (uint32_t)mt_pkt_section(pkt, u->sec_span, u->sec_fmt, u->sec_r, u->sec_start);
            } else {
                n = (uint32_t)mt_pkt_section(pkt, u->sec_span, u->sec_fmt, u->sec_r, u->rep_cycle);
            }
            break;
        case W_SYNC: {
            /* prev_bytes: the stream bytes since the last SYNC's first byte, those in flight
             * included (they enter the FIFO before this SYNC) */
            uint32_t prev = u->sync_bytes + u->pipe_bytes;
            n = (uint32_t)mt_pkt_sync(pkt, u->sync_seq, prev > MT_PREV_BYTES_MAX ? MT_PREV_BYTES_MAX : prev, t);
            break;
        }
        case W_OVERFLOW: n = (uint32_t)mt_pkt_overflow(pkt, u->drop_pending); break;
        case W_MARKER: n = (uint32_t)mt_pkt_marker(pkt, u->marker_val); break;
        case W_END: n = (uint32_t)mt_pkt_end(pkt, u->samples, u->dropped); break;
        default: break;
        }
        if (room) {
            len = n;
            bound = w == W_SECTION ? BOUND_SECTION : w == W_SYNC ? BOUND_SYNC
                    : w == W_END ? BOUND_END : BOUND_VALUE;
            switch (w) {
            case W_SECTION:
                if (u->sect_switch) {
                    u->rep_idx = 0;
                    u->rep_cycle = u->sec_start;
                }
                mt_enc_reset(&u->enc, u->sec_fmt);
                u->sect_pending = u->sect_switch = 0;
                u->hold.after = 0;
                break;
            case W_SYNC:
                if (u->on_sync) {
                    const mt_unit_mark m = {.offset = u->prev_bytes + u->bytes + u->pipe_bytes, .cycle = t,
                                            .samples = u->prev_samples + u->samples, .last_sp = u->last_sp};
                    u->on_sync(u->on_sync_ctx, &m);
                }
                u->sync_seq++;
                kind = MT_INFLIGHT_SYNC;
                mt_enc_reset(&u->enc, u->enc.fmt);
                u->sync_pending = 0;
                u->sect_pending = 1;
                break;
            case W_OVERFLOW: u->drop_pending = 0; break;
            case W_MARKER: u->marker_pending = 0; break;
            case W_END: /* busy clears as the END enters the FIFO */
                u->end_pending = 0;
                kind = MT_INFLIGHT_END;
                break;
            default: break;
            }
        }
    }

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

    /* E. end of cycle: this cycle's packet goes in flight, the one chosen LATENCY cycles ago
     * enters the FIFO */
    if (len)
        choose(u, pkt, len, kind, bound, t);
    enter_due(u, t);
    sync_check(u, t);
    for (unsigned i = 0; i < u->nwrites; i++)
        apply_write(u, t, u->wr_off[i], u->wr_val[i]);
    u->nwrites = 0;
    u->acc_valid = 0;
    u->now = t + 1;
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

/* ---- lazy time ------------------------------------------------------------------------ */

static int quiet(const mt_unit *u)
{
    return !u->acc_valid && !u->nwrites && !u->hold.valid && !u->sect_pending &&
           !u->sync_pending && !u->drop_pending && !u->marker_pending && !u->end_pending;
}

/* Cycles [now, j) with nothing but drain and interval openings (quiet, j <= sec_end). */
static void skip_to(mt_unit *u, uint64_t j)
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
           u->now != u->sec_end;
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
           !u->end_pending;
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
        if (u->lazy && u->fast && fast_ok(u))
            fast_clock(u, &u->acc);
        else
            clock_one(u);
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
        !u->marker_pending && !u->end_pending) {
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
    default: return 0;
    }
}

uint64_t mt_unit_stop(mt_unit *u, uint64_t cycle)
{
    mt_unit_mmio_write(u, cycle < u->now ? u->now : cycle, MT_REG_CTRL, 0);
    mt_unit_advance(u, u->now + 1);
    while (u->busy || u->fifo.occ) {
        if (quiet(u) && u->fifo.occ)
            mt_unit_advance(u, u->now + (u->fifo.occ + u->p.drain - 1) / u->p.drain);
        else
            mt_unit_advance(u, u->now + 1);
    }
    mt_unit_flush(u);
    return u->now;
}
