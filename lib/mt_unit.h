/* The trace unit's C reference model, cycle-exact with the RTL (docs/trace-unit.md).
 *
 * Layers: sampler (schedule, capture) -> packet encoder (mt_enc) -> FIFO (mt_fifo) -> sink.
 * Time: the model has completed every cycle before u->now. Each call names a cycle >= now;
 * the model first completes the cycles in between (lazily: O(events), with exactly the bytes,
 * occupancy and counters of clocking every cycle), then records the access or register write
 * for that cycle. Register writes take effect at the end of their cycle; reads see the state at
 * the start of their cycle.
 *
 * The emulator's hook: `if (cycle >= mt_unit_next_due(u)) mt_unit_access(u, &ev);` is exactly
 * equivalent to calling mt_unit_access for every access. */
#ifndef MT_UNIT_H
#define MT_UNIT_H

#include <stdint.h>

#include "mt_enc.h"
#include "mt_event.h"
#include "mt_fifo.h"
#include "mt_regs.h"
#include "mt_unit_reduce.h"
#include "mt_unit_spatial.h"

#define MT_UNIT_DEFAULT_DEPTH 4096u
#define MT_UNIT_DEFAULT_DRAIN 8u
#define MT_UNIT_MAX_WRITES 8 /* register writes recorded for one cycle */
/* Contract v2 (docs/trace-unit.md section 4): a packet chosen by the arbitration in cycle t
 * enters the FIFO at the end of cycle t + MT_UNIT_LATENCY, and a packet may be chosen only
 * while the space after the drain is at least MT_PKT_MAX * (1 + packets in flight). */
#define MT_UNIT_LATENCY 5
/* Contract v3: the FIFO's write port takes 8 bytes a clock.  A packet that may be longer (its
 * length bound at the choice exceeds MT_UNIT_PORT: SYNC, SECTION, END, a sample without a history
 * match) takes the port for two clocks, the cycle of its choice and the next (v4: a rest cycle,
 * below). The drain N is at most MT_UNIT_PORT bytes per cycle (more could never be sustained). */
#define MT_UNIT_PORT 8u
#define MT_UNIT_MAX_DRAIN MT_UNIT_PORT
/* Contract v4 (for 48 MHz on the iCE40 UP5K): the arbitration acts at most once every
 * MT_UNIT_PACE cycles. After a cycle in which it chose a packet or absorbed a sample into the
 * run, the next MT_UNIT_PACE - 1 cycles are rest cycles: nothing is chosen or absorbed (this
 * covers v3's port cycle). A capture always goes to the hold (if the hold is free at the end of
 * its cycle, else it is dropped), whose sample competes from MT_UNIT_PACE cycles after its
 * capture on; until then it holds back SECTION, SYNC and END (which must not pass an older
 * sample) but not OVERFLOW and MARKER. So each of the compressor's recurrences (history, run,
 * report index) has MT_UNIT_PACE clocks in hardware, and two reported samples were captured at
 * least MT_UNIT_PACE cycles apart. */
#define MT_UNIT_PACE 5u

enum { MT_INFLIGHT_PLAIN, MT_INFLIGHT_SYNC, MT_INFLIGHT_END };
typedef struct {
    uint8_t bytes[MT_PKT_MAX];
    uint8_t len, kind; /* kind: MT_INFLIGHT_* */
    uint8_t bound;     /* the length bound the SYNC estimate uses while it is that young */
    uint64_t due;      /* the cycle at whose end it enters the FIFO */
} mt_unit_inflight;

typedef struct {
    uint32_t depth; /* FIFO bytes, 32..65536 */
    uint32_t drain; /* bytes per cycle, 1..MT_UNIT_MAX_DRAIN (8) */
    mt_sink_fn sink;
    void *sink_ctx;
    int plain; /* 1: no compression, every sample a FULL packet (the RTL's minimal build; mt_enc) */
} mt_unit_params;

typedef struct {
    uint32_t kind_mask, tap, fmt, sync_period, rate_h, rate_l;
    uint64_t len_h, len_l;
    uint32_t spatial; /* SPATIAL: EN, log2 N (normalised at the write) */
    uint32_t reduce;  /* REDUCE: EN, log2 k_0 (normalised at the write) */
} mt_unit_cfg;

/* The reduce path's shape in the unit (rtl_model/rtl/mt_tu_rdpath.sv's mt_tu_reduce parameters):
 * a window of W slots, a queue of Q references, and a queue of MT_UNIT_RDQ records in front of
 * the capture (lib/mt_unit_rd.c). */
#define MT_UNIT_REDUCE_W 64u
#define MT_UNIT_REDUCE_Q 8u
#define MT_UNIT_RDQ 64u

typedef struct {
    uint64_t clock, page; /* the clock it leaves the reduce path; its 4 KiB page */
    uint16_t mask;
    uint8_t rw;
} mt_unit_rdrec;

typedef struct {
    uint8_t valid, after, rw;
    uint64_t a, idx, sp;
    uint64_t ready; /* in the hold: the first cycle in which it competes (capture + PACE) */
} mt_unit_sample;

/* Where the unit's output stands, counted over everything it has emitted (all sessions): for a
 * container index built without decoding the stream (lib/mt_mtr.h, mt_writer_mark). Exact only
 * where every reported sample's bytes have been emitted: as a SYNC enters the FIFO (a RUN is
 * always flushed before it) and once the unit is idle. */
typedef struct {
    uint64_t offset;  /* stream bytes emitted before this point */
    uint64_t cycle;   /* the SYNC's cycle (mt_unit_mark_now: the first idle cycle) */
    uint64_t samples; /* samples reported before this point */
    uint64_t last_sp; /* sample point of the last of them (0: none yet) */
} mt_unit_mark;
typedef void (*mt_unit_mark_fn)(void *ctx, const mt_unit_mark *m);

typedef struct {
    mt_unit_params p;
    mt_unit_cfg regs; /* as written */
    mt_unit_cfg cfg;  /* latched at enable */
    uint64_t now;
    int lazy; /* 1 (default): skip quiet cycles arithmetically; 0: clock every cycle */
    int fast; /* 1 (default, with lazy): plain sampling cycles take a shortcut of clock_one */
    int lean; /* 0 (default); 1 (with lazy): a unit stalled in a session of short sections is
               * clocked by the lean clock instead of the bulk step's stretches (mt_unit_bulk.c) */
    /* inputs recorded for cycle `now` */
    mt_access acc;
    uint8_t acc_valid;
    uint8_t nwrites;
    uint32_t wr_off[MT_UNIT_MAX_WRITES], wr_val[MT_UNIT_MAX_WRITES];
    /* session */
    uint8_t active, busy;
    /* schedule */
    uint8_t sec_span, sec_fmt;
    uint32_t sec_r;
    uint64_t sec_start, sec_end, next_sp, next_idx;
    uint8_t int_open;
    uint64_t int_idx, int_sp;
    /* arbitration */
    mt_unit_sample hold;
    uint8_t sect_pending, sect_switch, sync_pending, marker_pending, end_pending;
    uint8_t marker_urgent; /* the pending MARKER was passed by an act: it wins unless a barrier is
                            * pending (docs/trace-unit.md 4.D row 0); implies marker_pending */
    uint32_t drop_pending, marker_val;
    uint64_t rep_idx, rep_cycle;
    mt_enc enc;
    uint32_t sync_bytes;
    uint8_t sync_seq;
    mt_fifo fifo;
    /* packets chosen, not yet in the FIFO (oldest at pipe_head; at most LATENCY + 1 during a
     * cycle, LATENCY between cycles) */
    mt_unit_inflight pipe[MT_UNIT_LATENCY + 1];
    uint8_t pipe_head, pipe_n, pipe_sync;
    uint32_t pipe_bytes;
    uint64_t rest_until; /* cycles before it are rest cycles (v4): nothing is chosen or absorbed */
    /* the spatial front end (mt_unit_spatial.h): on while a session with SPATIAL.EN runs */
    uint8_t sp_on;
    mt_unit_spatial sp;
    /* the reduce path (lib/mt_unit_rd.c): on while a session with REDUCE.EN (and not SPATIAL.EN)
     * runs, and until its flush is done; rd_flush: the session's stop was asked for, the path
     * flushes and the stop takes effect at the end of the clock rd_stop is set */
    uint8_t rd_on, rd_flush, rd_stop, rd_alloc;
    uint64_t rd_idle_at;     /* the first clock at which the flushed path is idle */
    mt_unit_reduce rd;
    mt_unit_rdrec *rd_pend;  /* records out of the model, not yet at their clock (a ring) */
    uint32_t rd_pend_head, rd_pend_n, rd_pend_cap;
    mt_unit_rdrec rd_q[MT_UNIT_RDQ]; /* the record queue in front of the capture */
    uint32_t rd_qhead, rd_qn;
    uint64_t rd_qfull;       /* records that found the queue full (each one went to the capture
                              * with the hold busy: dropped, in DROPPED) */
    /* counters and sticky bits */
    uint32_t dropped;
    uint64_t samples, bytes;
    uint8_t overflowed, marker_lost, err_order;
    uint32_t latch_samples_hi, latch_bytes_hi, latch_cycle_hi;
    uint64_t order_errors; /* accesses ignored for breaking the contract */
    /* the lazy model's bulk step (lib/mt_unit_bulk.c): cycles it completed, section switches it
     * made arithmetically, acts it clocked at a stretch's end, switches it clocked without the
     * generic clock, cycles the lean clock completed (observers only: for tests and profiles) */
    uint64_t bulk_cycles, bulk_switches, bulk_acts, bulk_quiet_switches, lean_cycles;
    /* batched output (mt_unit_batch_output) */
    int batch;
    uint8_t *stage;
    uint32_t stage_n;
    /* output marks (mt_unit_on_sync): totals of the sessions before this one, last sample point */
    mt_unit_mark_fn on_sync;
    void *on_sync_ctx;
    uint64_t prev_bytes, prev_samples, last_sp;
    uint32_t buf_depth; /* the depth the FIFO's buffer and the stage were allocated for */
} mt_unit;

#define MT_UNIT_BATCH 4096u /* stage room beyond the FIFO's depth, with batched output */

/* params may be NULL for the defaults (no sink). Returns 0, or -1 with bad params/no memory. */
int mt_unit_init(mt_unit *u, const mt_unit_params *params);
void mt_unit_free(mt_unit *u);
/* mt_unit_init(u, params) on a unit made by mt_unit_init, keeping its buffers when they hold the
 * new depth (no allocation), and the reduce path's for its next session of the same budget: for a
 * caller that runs many short sessions (tests/fuzz/fuzz_unit.c).
 * The unit's pending output is dropped, not handed to the sink (mt_unit_stop first to keep it).
 * 0, or -1 with bad params (u then keeps its buffers: mt_unit_free still releases them). */
int mt_unit_reset(mt_unit *u, const mt_unit_params *params);

/* Batched output: the sink gets the drained bytes in blocks of about MT_UNIT_BATCH bytes, later
 * than they leave the FIFO (same bytes, same order, only drained ones); mt_unit_flush and
 * mt_unit_stop hand over what has drained. For a consumer that only needs the stream (the
 * emulator's trace file), not for one that compares output cycle by cycle (lockstep,
 * co-simulation). Off by default; switch only while the FIFO is empty. 0, or -1. */
int mt_unit_batch_output(mt_unit *u, int on);
void mt_unit_flush(mt_unit *u);

/* Calls fn for every SYNC as it enters the FIFO, with the output totals at its first byte
 * (the SYNC's bytes not counted). Observes only: the unit's behaviour does not change. */
void mt_unit_on_sync(mt_unit *u, mt_unit_mark_fn fn, void *ctx);
/* The output totals now, with cycle = u->now (exact once the unit is idle: after mt_unit_stop). */
void mt_unit_mark_now(const mt_unit *u, mt_unit_mark *m);

/* Complete every cycle before `cycle`. */
void mt_unit_advance(mt_unit *u, uint64_t cycle);
/* One bus access (cycle non-decreasing, at most one per cycle; otherwise ignored and
 * STATUS.ERR_ORDER set). */
void mt_unit_access(mt_unit *u, const mt_access *a);
/* mt_unit_access, then complete the access's cycle: for a caller whose access is the last input
 * of its cycle (the emulator), so next_due moves on to the next sample point at once. */
void mt_unit_access_cycle(mt_unit *u, const mt_access *a);
void mt_unit_mmio_write(mt_unit *u, uint64_t cycle, uint32_t off, uint32_t val);
uint32_t mt_unit_mmio_read(mt_unit *u, uint64_t cycle, uint32_t off);
/* Disables the unit at `cycle` (if enabled) and runs until the session's END has been written
 * and the FIFO is empty. Returns the first cycle at which the unit is idle. */
uint64_t mt_unit_stop(mt_unit *u, uint64_t cycle);

/* The tap the unit samples: latched while a session runs, else as written.  A register write
 * not yet applied (mt_unit_settle) is not in it. */
static inline unsigned mt_unit_tap(const mt_unit *u) { return u->active ? u->cfg.tap : u->regs.tap; }

/* What a caller that filters accesses by mt_unit_tap (the emulator's hook) does first with an
 * access of `cycle`: a register write still pending from an earlier cycle applies at that
 * cycle's end and may change TAP or start a session, so the cycles before `cycle` are completed
 * and mt_unit_tap answers with the write applied.  Otherwise an access of the new tap was
 * compared with the old one and never given, nor the unit advanced, so the write stayed pending
 * and the session missed every access of its tap until some other input came (fuzz_unit_modes,
 * docs/robustness.md, ninth session).  Exact: accesses come in cycle order, so no input comes
 * for the cycles completed.  An access in the write's own cycle sees the old tap, as the write
 * applies after it. */
static inline void mt_unit_settle(mt_unit *u, uint64_t cycle)
{
    if (u->nwrites && cycle > u->now)
        mt_unit_advance(u, cycle);
}

/* Earliest cycle at which an access could be captured (UINT64_MAX when not sampling). */
static inline uint64_t mt_unit_next_due(const mt_unit *u)
{
    if (u->nwrites)
        return u->now; /* a register write of this cycle (maybe ENABLE) is not applied yet */
    if (!u->active)
        return UINT64_MAX;
    if (u->int_open || u->sp_on || u->rd_on) /* (the front ends hear every access) */
        return u->now;
    return u->next_sp < u->sec_end ? u->next_sp : u->sec_end;
}

#endif
