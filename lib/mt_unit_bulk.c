/* The trace unit model's bulk step: a stalled unit's cycles in O(events) instead of O(cycles).
 *
 * A unit with something pending but no input (no access, no register write) often waits: for
 * room in the FIFO (a SECTION, SYNC, OVERFLOW, MARKER or END due, the FIFO full), for the end of
 * the rest cycles after an act (v4), or for its hold's sample to be ready; meanwhile its sections
 * may switch every few cycles and, in a reduce session, its reduce path may be idle for long.  In
 * such a cycle the generic clock (mt_unit_clock.c) only drains the FIFO and opens intervals, and
 * every fact its arbitration looks at either stays put or moves monotonically with the cycle:
 * the FIFO's occupancy falls by the drain rate, a rest cycle ends at rest_until, the hold's
 * sample becomes ready at hold.ready, the FIFO reaches half at a cycle the drain fixes.  So the
 * first cycle in which the arbitration acts is one of those few breakpoints, and the cycles
 * before it, and before the next section switch, packet entry or reduce-path event, are skipped
 * arithmetically.  A section switch while a switch's SECTION is due already (and no sample is
 * behind the barrier) changes nothing the arbitration sees, so a run of them is arithmetic too
 * (mt_unit_repeat_switches).  Exactly the bytes, occupancies, counters and register values of
 * clocking every cycle: test_lib_unit_bulk compares the two, and fuzz_unit's lazy pass uses it.
 *
 * A switch in whose cycle the arbitration cannot act (a rest cycle, or no room and no ready
 * sample in the hold) is clocked here too, by the generic clock's steps that do anything then
 * (mt_unit_clock_quiet_switch), and the stretches go on after it.
 *
 * What stays the generic clock's: any cycle with an input, the act itself, the first switch of a
 * run when the arbitration may act in its cycle, a busy spatial pass, and a
 * reduce path's events: a reference starting in its filters, a record reaching the record queue,
 * the queue's head going to the capture, the flushed path's stop. */
#include "mt_unit_internal.h"

#define NEVER UINT64_MAX

/* The FIFO's occupancy after cycle t's drain (t >= now; no packet enters it in [now, t)). */
static uint64_t occ_after(const mt_unit *u, uint64_t t)
{
    const uint64_t occ = u->fifo.occ, cycles = t - u->now + 1;
    if (cycles >= occ) /* (at least one byte a cycle) */
        return 0;
    const uint64_t n = cycles * u->p.drain; /* < 65536 * 8: no overflow */
    return n >= occ ? 0 : occ - n;
}

/* The first cycle >= now after whose drain the occupancy is at most `level`. */
static uint64_t occ_reaches(const mt_unit *u, uint64_t level)
{
    if (u->fifo.occ <= level)
        return u->now;
    return u->now + (u->fifo.occ - level + u->p.drain - 1) / u->p.drain - 1;
}

/* Whether the generic clock's arbitration acts in cycle t (t >= now, no input, no section switch
 * or packet entry in [now, t)): the hold's sample is absorbed, chosen or dropped, or another
 * packet (a RUN first) is chosen. */
static int acts_at(const mt_unit *u, uint64_t t)
{
    const uint64_t occ = occ_after(u, t);
    const int rest = t < u->rest_until;
    const enum mt_unit_winner w = mt_unit_winner(u, t, occ);
    if (w == W_NONE)
        return 0;
    if (w == W_HOLD)
        return !rest && t >= u->hold.ready;
    return !rest && u->p.depth - occ >= (uint64_t)MT_PKT_MAX * (u->pipe_n + 1u); /* has_room */
}

static inline uint64_t at_least_now(const mt_unit *u, uint64_t t)
{
    return t > u->now ? t : u->now;
}

/* The first cycle in [now, limit) in which the arbitration acts, assuming no input, switch or
 * entry before it (NEVER: none before limit).  Every fact acts_at looks at is a step function of
 * t with its step at one of the breakpoints below, so acts_at is constant between consecutive
 * breakpoints and the first cycle it holds is a breakpoint.  An act at or after limit would not
 * change the caller's stretch (it ends at limit anyway), so a breakpoint from limit on is not
 * looked at: in a busy session the next entry or switch often comes first, and acts_at was
 * 15 % of the time on such inputs, the bulk step with it over a third (docs/robustness.md, fifth
 * session). */
static uint64_t first_act(const mt_unit *u, uint64_t limit)
{
    if (limit <= u->now)
        return NEVER;
    /* In a rest cycle the arbitration never acts (acts_at's every answer needs !rest), so no
     * cycle before rest_until does: a busy session's stretches between two acts (sections of 2
     * and 3 cycles, an act every PACE) mostly end at a switch inside the rest and were a
     * call of acts_at or more each for that answer (docs/robustness.md, eighth session). */
    const int resting = u->now < u->rest_until;
    if (resting && limit <= u->rest_until)
        return NEVER;
    if (!resting && acts_at(u, u->now))
        return u->now; /* (the common answer in a busy stretch: no other breakpoint looked at) */
    uint64_t b[4];
    unsigned n = 0;
    b[n++] = u->rest_until;
    if (u->hold.valid)
        b[n++] = u->hold.ready;
    const uint64_t need = (uint64_t)MT_PKT_MAX * (u->pipe_n + 1u); /* room for a packet */
    if (u->p.depth >= need)
        b[n++] = occ_reaches(u, u->p.depth - need);
    if (u->drop_pending)
        b[n++] = occ_reaches(u, u->p.depth / 2);
    uint64_t first = limit;
    for (unsigned i = 0; i < n; i++) /* (now, where a breakpoint in the past stands, does not act;
                                      * nor does one in the rest) */
        if (b[i] > u->now && b[i] >= u->rest_until && b[i] < first && acts_at(u, b[i]))
            first = b[i];
    return first < limit ? first : NEVER;
}

/* The first cycle >= now in which the reduce path does something without an input (NEVER:
 * nothing): a queued reference starts in the filters, the oldest record out of them reaches the
 * record queue, the queue's head goes to the capture (an interval open and the hold free), or
 * the flushed path stops the session. */
static uint64_t rd_event(const mt_unit *u)
{
    uint64_t e = NEVER;
    const mt_unit_reduce *r = &u->rd;
    if (r->qnum) {
        const uint64_t at = r->q[r->qhead].at + 1;
        e = at_least_now(u, r->busy_until > at ? r->busy_until : at);
    }
    if (u->rd_pend_n) {
        const uint64_t c = at_least_now(u, u->rd_pend[u->rd_pend_head].clock); /* (MT_URD_UNKNOWN: never) */
        if (c < e)
            e = c;
    }
    if (u->rd_qn && !u->hold.valid) {
        const uint64_t c = u->int_open ? u->now : u->next_sp < u->sec_end ? u->next_sp : u->sec_end;
        if (c < e)
            e = c;
    }
    if (u->rd_flush && !u->rd_qn) {
        const uint64_t c = at_least_now(u, u->rd_idle_at);
        if (c < e)
            e = c;
    }
    return e;
}

/* The act that ends a stalled stretch, in cycle now (< the caller's cycle, so no input will be
 * recorded for it): the generic clock, taken here rather than by mt_unit_advance's next turn.
 * That turn would find the same unit (no input, something pending but not calm: the hold's fast
 * path and the quiet skip do not apply) and a bulk step that stops at once, after a first_act
 * whose answer is this cycle; in a busy session (the unit acting every few cycles, docs/
 * robustness.md fifth session) that second look was a third of the bulk step's cost. */
static void act_now(mt_unit *u)
{
    u->bulk_acts++;
    mt_unit_clock_one(u);
}

/* Whether the arbitration cannot act in cycle now == sec_end, the switch's (no input recorded):
 * in a rest cycle nothing is chosen or absorbed; with no room after the drain only a ready
 * sample in the hold acts (absorbed, chosen or dropped), every other winner and a RUN's flush
 * wait for room (a sample behind the barrier never acts: the switch drops it, as in the generic
 * clock).  Not when the stretch ended at the reduce path's event in this cycle.  In a busy
 * session (sections of a few cycles, an act every PACE cycles) nearly every switch falls in the
 * rest after an act: it was a generic clock of its own, half of all the generic clocks on
 * fuzz_unit_modes' busy inputs (docs/robustness.md, sixth session). */
static int switch_is_quiet(const mt_unit *u)
{
    if (u->rd_on && rd_event(u) <= u->now)
        return 0; /* (the stretch ended at the reduce path's event, not at the switch) */
    if (u->now < u->rest_until)
        return 1;
    const uint64_t occ = occ_after(u, u->now);
    const int room = u->p.depth - occ >= (uint64_t)MT_PKT_MAX * (u->pipe_n + 1u);
    return !room && !(u->hold.valid && u->now >= u->hold.ready);
}

/* One stretch (see the file's comment): 1 when it advanced now, 0 when it did not. */
static int bulk_stretch(mt_unit *u, uint64_t cycle)
{
    uint64_t j = cycle;
    if (u->pipe_n && u->pipe[u->pipe_head].due + 1 < j)
        j = u->pipe[u->pipe_head].due + 1; /* its entry may end the stall */
    if (u->rd_on) {
        const uint64_t e = rd_event(u);
        if (e < j)
            j = e;
    }
    if (j <= u->now)
        return 0;
    /* a run of switches that change nothing the arbitration sees: the stretch may pass sec_end */
    const int repeat = u->active && u->sec_end < j && u->sect_pending && u->sect_switch &&
                       !(u->hold.valid && u->hold.after);
    /* otherwise it ends at the switch: an act from then on does not matter (first_act's limit) */
    const uint64_t a = first_act(u, u->active && u->sec_end < j && !repeat ? u->sec_end : j);
    const int act = a < j; /* the stretch ends at an act in cycle a (< cycle: no input in it) */
    if (act)
        j = a;
    if (j <= u->now) {
        act_now(u); /* the arbitration acts now */
        return 1;
    }
    if (u->active && u->sec_end < j) {
        if (repeat) {
            /* a run of switches that change nothing the arbitration sees: the last one's section
             * and intervals, the drain up to it, an entry in its cycle */
            const uint64_t from = u->now, s = mt_unit_repeat_switches(u, j);
            const uint64_t cycles = s + 1 - u->now;
            if (u->fifo.occ)
                drain(u, cycles >= u->fifo.occ ? u->fifo.occ : cycles * u->p.drain);
            u->now = s + 1;
            enter_due(u, s);
            if (u->now < j)
                skip_to(u, j);
            u->bulk_cycles += j - from;
            if (act)
                act_now(u);
            return 1;
        }
        j = u->sec_end; /* the stretch ends at the switch */
    }
    const uint64_t from = u->now;
    if (j > u->now) {
        u->bulk_cycles += j - u->now;
        skip_to(u, j);
    }
    if (act) {
        act_now(u);
        return 1;
    }
    if (u->active && u->now == u->sec_end && u->now < cycle && switch_is_quiet(u)) {
        /* the switch's cycle (< cycle: no input will be recorded for it) when the arbitration
         * cannot act in it: the generic clock would only drain, switch, open an interval and
         * let a packet enter */
        u->bulk_quiet_switches++;
        u->bulk_cycles++;
        mt_unit_clock_quiet_switch(u);
    }
    return u->now > from;
}

/* The longest section length (both LEN_H and LEN_L) for which the lean clock stands in for the
 * stretches: with sections of a few cycles a stretch ends at a switch every few cycles and at an
 * act every PACE (a busy session), each stretch a search for the next act, a skip, a quiet
 * switch or an act: about 1,000 instructions an act against 200 for clocking its 5 cycles one
 * by one with the lean clock (callgrind, docs/robustness.md, ninth session).  Longer sections
 * have longer stretches, which the bulk step skips. */
#define LEAN_SECTION_MAX 8

/* The state the lean clock takes (mt_unit_clock_lean): a session of short sections, no input,
 * no front end, nothing held, no RUN, and nothing pending but a SECTION, a SYNC or an OVERFLOW. */
static int lean_ok(const mt_unit *u)
{
    return u->lean && u->active && !u->sp_on && !u->rd_on && !u->hold.valid && !u->marker_pending &&
           !u->marker_urgent && !u->end_pending && !u->enc.run_cnt &&
           u->cfg.len_h <= LEAN_SECTION_MAX && u->cfg.len_l <= LEAN_SECTION_MAX;
}

int mt_unit_bulk_step(mt_unit *u, uint64_t cycle)
{
    if (u->acc_valid || u->nwrites || (u->sp_on && mt_usp_busy(&u->sp)))
        return 0;
    if (cycle != UINT64_MAX && lean_ok(u)) { /* (mt_unit_stop's call: a stopped unit is not active) */
        u->lean_cycles += cycle - u->now;
        mt_unit_clock_lean(u, cycle);
        return 1;
    }
    /* stretch after stretch while they advance (each one exact on its own: mt_unit_advance would
     * call the bulk step again for the next, or one of its fast paths, which equal the generic
     * clock; a stretch that ends at an entry or a switch the generic clock must take returns to
     * it).  After an act the next stretch is taken here too: in a busy session (an act every
     * PACE cycles) the turn through mt_unit_advance's tests for its fast paths, which a stalled
     * unit never passes, was a tenth of an act's cost (docs/robustness.md, ninth session).  Not
     * for mt_unit_stop's call (cycle UINT64_MAX): it must see the unit after each act, so as not
     * to pass the first idle cycle; nor once the act left the spatial pass busy (the
     * precondition above). */
    int advanced = 0;
    while (u->now < cycle) {
        const uint64_t from = u->now, quiet = u->bulk_quiet_switches, acts = u->bulk_acts;
        if (!bulk_stretch(u, cycle))
            break;
        advanced = 1;
        if (u->now == from || (u->bulk_quiet_switches == quiet && u->bulk_acts == acts))
            break; /* an entry or a switch ended the stretch */
        if (u->bulk_acts != acts && (cycle == UINT64_MAX || (u->sp_on && mt_usp_busy(&u->sp))))
            break;
    }
    return advanced;
}
