/* The trace unit's sampling schedule on its own: which accesses the unit captures, without the
 * rest of the unit (arbitration, encoder, FIFO).
 *
 * Why it can stand alone: in docs/trace-unit.md section 4 the schedule (B: section switches,
 * interval openings) and the capture (C) depend only on time, the latched configuration and the
 * accesses, never on the FIFO, the hold or what the arbitration chose. So a producer that runs
 * this copy of the schedule can find every captured access itself and hand only those to a
 * model running elsewhere (emu/trace/tracepipe.c: on another thread), which then produces exactly
 * the bytes it would have produced seeing every access: the accesses it is not given are ones
 * it would not have captured, and an access that is not captured changes nothing.
 *
 * The copy is taken from a model between inputs (mt_sched_from_unit) and is valid until the
 * next register write: a write may start or end a session or latch a new configuration, so the
 * caller gives the model its writes itself and takes a new copy once they have applied. */
#ifndef MT_SCHED_H
#define MT_SCHED_H

#include <stdint.h>

#include "mt_event.h"
#include "mt_unit.h"

typedef struct {
    uint8_t active;   /* a session is running (else nothing is ever captured) */
    uint8_t int_open; /* the interval opened at the last sample point is not captured yet */
    uint8_t span;     /* the current section is a span (else a burst) */
    uint32_t r;       /* cycles per sample point of the current section */
    uint64_t next_sp; /* the next sample point (may be at or past sec_end) */
    uint64_t sec_end; /* the cycle at which the next section starts */
    uint64_t now;     /* the first cycle not yet seen: accesses before it are refused */
    uint32_t kind_mask;
    unsigned tap;
    uint32_t rate[2]; /* [0] burst, [1] span, as latched at the session's enable */
    uint64_t len[2];
} mt_sched;

/* The schedule of u as it stands between inputs. 0, or -1 (s untouched) when u holds a register
 * write not yet applied, or runs a front end, spatial or reduce (which hears every access): then only u
 * can say what is due. */
int mt_sched_from_unit(mt_sched *s, const mt_unit *u);

/* The first cycle at which an access can be captured: mt_unit_next_due of the model the copy
 * stands for (UINT64_MAX: no session). */
static inline uint64_t mt_sched_due(const mt_sched *s)
{
    if (!s->active)
        return UINT64_MAX;
    if (s->int_open)
        return s->now;
    return s->next_sp < s->sec_end ? s->next_sp : s->sec_end;
}

/* Section switches and interval openings through cycle t (out of line: once per sample point). */
void mt_sched_advance(mt_sched *s, uint64_t t);

/* One access, as the last input of its cycle: a->cycle >= s->now (else ignored, 0). Advances the
 * schedule through a->cycle and returns 1 when the unit captures the access, i.e. when the model
 * must be given it. Inline: the emulator calls it once per sample. */
static inline int mt_sched_access(mt_sched *s, const mt_access *a)
{
    const uint64_t t = a->cycle;
    if (t < s->now)
        return 0;
    s->now = t + 1;
    if (!s->active)
        return 0;
    if (t >= s->next_sp || t >= s->sec_end) {
        if (t - s->next_sp < s->r && t < s->sec_end) {
            s->int_open = 1; /* the usual case in a burst: the interval at next_sp, in this section */
            s->next_sp += s->r;
        } else {
            mt_sched_advance(s, t);
        }
    }
    if (s->int_open && a->kind < 32 && ((s->kind_mask >> a->kind) & 1) && (a->tap & 1) == s->tap) {
        s->int_open = 0;
        return 1;
    }
    return 0;
}

#endif
