#include "mt_sched.h"

int mt_sched_from_unit(mt_sched *s, const mt_unit *u)
{
    /* a write to apply, or a front end (spatial, reduce): it hears every access, not only captures */
    if (u->nwrites || u->sp_on || u->rd_on)
        return -1;
    *s = (mt_sched){.active = u->active, .int_open = u->int_open, .span = u->sec_span, .r = u->sec_r,
                    .next_sp = u->next_sp, .sec_end = u->sec_end, .now = u->now,
                    .kind_mask = u->cfg.kind_mask, .tap = u->cfg.tap,
                    .rate = {u->cfg.rate_h, u->cfg.rate_l}, .len = {u->cfg.len_h, u->cfg.len_l}};
    return 0;
}

/* Section 4 B for every cycle up to t, arithmetically: at a section's end the other section
 * starts (the same one again when the other's length is 0) with a sample point at once; sample
 * points are the section's start plus multiples of r, before its end. An interval that opened
 * and saw no access is simply replaced by the next one. */
void mt_sched_advance(mt_sched *s, uint64_t t)
{
    for (;;) {
        if (s->sec_end <= t && s->sec_end <= s->next_sp) {
            unsigned next = !s->span;
            if (s->len[next] == 0)
                next = s->span;
            s->span = (uint8_t)next;
            s->r = s->rate[next];
            s->next_sp = s->sec_end;
            s->sec_end += s->len[next];
            s->int_open = 0;
            continue;
        }
        if (s->next_sp <= t) { /* here next_sp < sec_end */
            uint64_t last = t < s->sec_end ? t : s->sec_end - 1, d = last - s->next_sp;
            s->next_sp += (d < s->r ? 0 : d / s->r * s->r) + s->r;
            s->int_open = 1;
            continue;
        }
        return;
    }
}
