/* The trace unit's spatial front end, one clock at a time: see mt_unit_spatial.h and
 * rtl_model/rtl/mt_tu_spatial.sv, which it matches clock for clock. */
#include "mt_unit_spatial.h"

#include <string.h>

#include "mt_spatial.h"

#define PAGE_MASK ((UINT64_C(1) << 44) - 1)
#define KEPT_MASK ((UINT32_C(1) << MT_USP_KEPT_BITS) - 1)

void mt_usp_start(mt_unit_spatial *s, unsigned lg2n)
{
    uint32_t kept[MT_USP_SIZES]; /* block RAM: not cleared, only its valid bits */
    memcpy(kept, s->kept, sizeof kept);
    memset(s, 0, sizeof *s);
    memcpy(s->kept, kept, sizeof kept);
    s->lg2n = lg2n > MT_USP_LG2N_MAX ? MT_USP_LG2N_MAX : lg2n;
}

static void start_pass(mt_unit_spatial *s, uint64_t page, unsigned rw, unsigned kind, unsigned tap,
                       int hash, unsigned sm)
{
    s->busy = 1;
    s->step = 0;
    s->hash = (uint8_t)hash;
    s->cur_page = page;
    s->cur_rw = (uint8_t)rw;
    s->cur_kind = (uint8_t)kind;
    s->cur_tap = (uint8_t)tap;
    s->cur_sm = hash ? 0 : sm;
    s->cur_rec = 0;
}

/* One clock of a pass: size `step`. */
static void pass_step(mt_unit_spatial *s)
{
    const unsigned i = s->step;
    const uint64_t p = s->cur_page >> i;
    int keep;
    if (s->hash) {
        /* rate mask R_i - 1 = (N - 1) >> i: the hash bits that must be 0 */
        const uint32_t rmask = ((UINT32_C(1) << s->lg2n) - 1) >> i;
        keep = (mt_spatial_hash(p) & rmask) == 0;
        s->cur_sm |= (unsigned)keep << i;
    } else {
        keep = (s->cur_sm >> i) & 1;
    }
    const uint32_t low = (uint32_t)p & KEPT_MASK;
    if (keep && !(((s->kept_v >> i) & 1) && s->kept[i] == low)) {
        s->cur_rec |= 1u << i;
        s->kept[i] = low;
        s->kept_v |= 1u << i;
    }
    if (++s->step < MT_USP_SIZES)
        return;
    /* the pass is done: its record leaves in the next clock */
    if (s->hash)
        s->last_sm = s->cur_sm; /* a hashed pass is the last page's (nothing was taken since) */
    if (s->cur_rec) {
        s->out_v = 1;
        s->out_addr = (s->cur_page << 12) | s->cur_rec;
        s->out_rw = s->cur_rw;
        s->out_kind = s->cur_kind;
        s->out_tap = s->cur_tap;
        s->records++;
    }
    /* a replay's pass is followed, after the clock in which its record leaves, by the new
     * page's (the pass's registers hold the record in that clock) */
    s->busy = s->nxt_v;
    s->chain = s->nxt_v;
}

/* An access taken (no pass runs). */
static void take(mt_unit_spatial *s, uint64_t page, const mt_access *a)
{
    const unsigned rw = a->write ? 1 : 0;
    s->taken++;
    if (s->prev_v && page == s->prev_page) { /* x y x: a step of an alternation */
        const uint64_t y = s->last_page;
        const unsigned ysm = s->last_sm;
        s->last_page = page;
        s->last_sm = s->prev_sm;
        s->prev_page = y;
        s->prev_sm = ysm;
        if (s->alt_steps < 3)
            s->alt_steps++;
        /* a size of rate 1 (i >= log2 N) that tells x and y apart forbids the skip */
        if (s->alt_steps == 1)
            s->alt_ok = s->lg2n >= MT_USP_SIZES || ((page ^ y) >> s->lg2n) == 0;
        if (s->alt_ok && s->alt_steps > 2) {
            s->skip_v = 1;
            s->skip_rw = (uint8_t)rw;
            s->skip_kind = a->kind;
            s->skip_tap = a->tap;
            return;
        }
        start_pass(s, page, rw, a->kind, a->tap, 0, s->last_sm);
        return;
    }
    /* a new page */
    s->alt_steps = 0;
    s->prev_v = s->last_v;
    s->prev_page = s->last_page;
    s->prev_sm = s->last_sm;
    s->last_v = 1;
    s->last_page = page;
    s->last_sm = 0;
    if (s->skip_v) { /* the skipped alternation ends: its last step first (its page is prev) */
        s->skip_v = 0;
        start_pass(s, s->prev_page, s->skip_rw, s->skip_kind, s->skip_tap, 0, s->prev_sm);
        s->nxt_v = 1; /* (its page is last_page) */
        s->nxt_rw = (uint8_t)rw;
        s->nxt_kind = a->kind;
        s->nxt_tap = a->tap;
        return;
    }
    start_pass(s, page, rw, a->kind, a->tap, 1, 0);
}

int mt_usp_clock(mt_unit_spatial *s, const mt_access *in, mt_access *out)
{
    int rec = 0;
    if (s->out_v) {
        s->out_v = 0;
        out->addr = s->out_addr;
        out->write = s->out_rw;
        out->kind = s->out_kind;
        out->tap = s->out_tap;
        out->size = 8;
        rec = 1;
    }
    const int was_busy = s->busy;
    if (s->chain) {
        s->chain = 0;
        s->nxt_v = 0;
        start_pass(s, s->last_page, s->nxt_rw, s->nxt_kind, s->nxt_tap, 1, 0);
    } else if (was_busy) {
        pass_step(s);
    }
    if (in) {
        const uint64_t page = (in->addr >> 12) & PAGE_MASK;
        if (s->last_v && page == s->last_page)
            ; /* a repeat of the last page: nothing at any size */
        else if (was_busy)
            s->lost++;
        else
            take(s, page, in);
    }
    return rec;
}
