/* The trace unit's spatial front end (docs/trace-unit.md "Spatial mode", docs/trace-unit-rtl.md
 * "The spatial front end"): the hardware's version of lib/mt_spatial's filter, cycle by cycle,
 * exactly as rtl_model/rtl/mt_tu_spatial.sv does it.
 *
 * With SPATIAL.EN latched at a session's start, every access of the session that passes the kind
 * and tap filter goes through this stage instead of to the capture; what the capture sees is the
 * stage's output, at most one *record* a cycle: an access whose address is the size-masked value
 * of docs/trace-format.md 4.1 (addr[55:12] the 4 KiB page, [9:0] the sizes that record it), with
 * the access's R/W, kind and tap.  Programmed as one burst section at rate 1 in the full format
 * (RATE_H = 1, FMT = 2, LEN_H = 0 and LEN_L = 0), the unit then writes each record as an ordinary
 * SAMPLE at the cycle it leaves this stage.
 *
 * The rule is mt_spatial's with fixed rates (R_i = max(1, N >> i), N = 1 << SPATIAL.LG2N; no
 * doubling yet): size i keeps the metapage p = page >> i iff the low log2(R_i) bits of its H3
 * hash are 0; a repeat at size i is dropped; a settled alternation of two 4 KiB pages is skipped
 * and its last step replayed when it ends, unless a size of rate 1 tells the pages apart.
 *
 * Hardware shape: one H3 hash unit and one metapage compare, used for one size a clock, so a
 * page's *pass* takes 10 clocks (sizes 0..9), and its record enters the capture in the clock after
 * the pass.  Size i's last recorded metapage is kept in block RAM, its low 31 bits and a valid
 * bit (MT_USP_KEPT_BITS: metapages that differ only above bit 30 of page >> i, 8 TiB apart at
 * 4 KiB, count as the same).  An access is taken when no pass runs; the pass starts in the next clock.
 * Without a pass: a repeat of the last 4 KiB page does nothing, the third and later steps of a
 * settled alternation only remember their access.  A step of an alternation (its masks are
 * cached) and a new page (hashed during its pass) take one pass; a new page that ends a skipped
 * alternation takes two (the replayed step, a clock in which its record leaves, then the new
 * page: records 11 and 22 clocks after the access).  While a pass runs (or between the two) the
 * stage is busy.  An access that is not a repeat
 * of the last page and comes while a pass runs is lost: the stage ignores it and counts it
 * (`lost`).  A session's stop drops a pass in progress and a skipped step not yet replayed. */
#ifndef MT_UNIT_SPATIAL_H
#define MT_UNIT_SPATIAL_H

#include <stdint.h>

#include "mt_event.h"

#define MT_USP_SIZES 10u      /* 4 KiB .. 2 MiB, one per clock of a pass */
#define MT_USP_LG2N_MAX 16u   /* N up to 65536: 16 hash bits */
#define MT_USP_KEPT_BITS 31u  /* bits of page >> i kept per size (block RAM: 31 + valid) */

typedef struct {
    unsigned lg2n; /* log2 N, latched at the session's start */
    /* the last two distinct 4 KiB pages taken, with the sizes that keep them (when known) */
    uint8_t last_v, prev_v;
    uint64_t last_page, prev_page;
    unsigned last_sm, prev_sm;
    unsigned alt_steps; /* steps of the current alternation, saturating at 3 */
    uint8_t alt_ok;
    /* the last skipped step of a settled alternation (its page is prev_page once it ends) */
    uint8_t skip_v, skip_rw, skip_kind, skip_tap;
    /* per size: the last recorded metapage's low bits, and whether there is one */
    uint32_t kept[MT_USP_SIZES];
    unsigned kept_v;
    /* the pass: page, the sizes so far, whether its mask is hashed (else cur_sm is cached);
     * busy: a pass runs, or `chain`: the clock between a replay's pass and the new page's */
    uint8_t busy, chain, step, hash, cur_rw, cur_kind, cur_tap;
    uint64_t cur_page;
    unsigned cur_sm, cur_rec;
    /* a new page waiting for the pass after a replay */
    uint8_t nxt_v, nxt_rw, nxt_kind, nxt_tap; /* (its page is last_page) */
    /* the record leaving in the next clock */
    uint8_t out_v, out_rw, out_kind, out_tap;
    uint64_t out_addr;
    /* counts since the session's start: accesses taken, lost (a pass ran), records out */
    uint64_t taken, lost, records;
} mt_unit_spatial;

/* A session starts with log2 N = lg2n (clamped to MT_USP_LG2N_MAX). */
void mt_usp_start(mt_unit_spatial *s, unsigned lg2n);
/* One clock: `in` is the cycle's access when it passes the kind and tap filter (else NULL); the
 * record of this clock, if any, goes to *out (its cycle field is left as is). 1 when there is a
 * record. */
int mt_usp_clock(mt_unit_spatial *s, const mt_access *in, mt_access *out);
/* 1 while the stage has something to do without an input (a pass or a record to leave). */
static inline int mt_usp_busy(const mt_unit_spatial *s) { return s->busy || s->out_v; }

#endif
