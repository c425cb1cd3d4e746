/* The sample compressor (ETE-style): a 3-entry address history with exact-match packets, deltas
 * against the newest entry in LEB bytes, runs of repeated samples, full-value fallback.
 * docs/trace-format.md section 3 / docs/trace-unit.md section 4 define it.
 *
 * Two-step API so the trace unit can check FIFO space before committing:
 *   mt_enc_plan()   computes the packet (or that the sample is absorbed into the run), no change;
 *   mt_enc_commit() applies it once the packet is written.
 * mt_enc_sample() does both for software writers. */
#ifndef MT_ENC_H
#define MT_ENC_H

#include <stdint.h>

#include "mt_pkt.h"

typedef struct {
    uint64_t hist[3];
    uint8_t hist_valid; /* bit i: hist[i] valid */
    uint8_t prev_idx, prev_rw, prev_valid;
    uint8_t run_cnt;
    uint8_t fmt;
    uint8_t plain; /* no compression: no history is kept, so every sample is a FULL packet (with
                    * its skip prefix) and none is absorbed into a run; the RTL's minimal build
                    * (docs/trace-unit-rtl.md section 6).  Kept by mt_enc_reset. */
} mt_enc;

typedef struct {
    uint8_t bytes[MT_PKT_MAX];
    uint8_t len;      /* 0 when absorbed */
    uint8_t absorbed; /* the sample extends the run: no bytes */
    uint8_t op;       /* MT_OP_* */
    uint8_t rw;
    uint64_t a;
} mt_enc_plan;

/* Resets the history (SYNC, SECTION) and sets the format for the following samples (plain is
 * kept). The run must have been flushed (run_cnt == 0) by the caller first. */
void mt_enc_reset(mt_enc *e, unsigned fmt);
void mt_enc_plan_sample(const mt_enc *e, uint64_t a, unsigned rw, uint64_t skip, mt_enc_plan *p);
void mt_enc_commit(mt_enc *e, const mt_enc_plan *p);
/* Writes a RUN packet when run_cnt > 0 and clears it; returns the length (0 if none). */
unsigned mt_enc_flush_run(mt_enc *e, uint8_t *out);
/* plan + commit; returns bytes written to out (0 when absorbed). */
unsigned mt_enc_sample(mt_enc *e, uint64_t a, unsigned rw, uint64_t skip, uint8_t *out);

/* mt_enc_sample for a writer that has no FIFO to ask first (the software encoder's every-access
 * path): the same packet and the same state change as plan + commit, in one pass, written straight
 * to out, which must have room for MT_PKT_MAX bytes (more may be written past the returned length
 * only within that room).  Inline: the every-access recorder calls it once per access, and the
 * plan's 32-byte record, its copy and the two calls cost as much as the encoding
 * (tests/unit/test_lib_enc.c checks it against plan + commit on random streams). */
static inline __attribute__((always_inline)) unsigned
mt_enc_put_sample_w(mt_enc *e, uint64_t a, unsigned rw, uint64_t skip, uint8_t *out, const unsigned w)
{
    a &= (UINT64_C(1) << w) - 1;
    rw &= 1;
    /* the history is only ever filled from entry 0 on (hist_valid is 0, 1, 3 or 7) */
    const unsigned valid = e->hist_valid;
    int match = (valid & 1) && e->hist[0] == a   ? 0
                : (valid & 2) && e->hist[1] == a ? 1
                : (valid & 4) && e->hist[2] == a ? 2
                                                 : -1;
    if (match == (int)e->prev_idx && e->prev_valid && rw == e->prev_rw && skip == 0 &&
        e->run_cnt < MT_RUN_MAX) {
        e->run_cnt++; /* absorbed into the run */
        return 0;
    }
    unsigned n = 1;
    uint8_t hdr = (uint8_t)(MT_HDR_SAMPLE | (rw ? MT_SAMPLE_RW : 0));
    if (e->run_cnt) {
        hdr |= MT_SAMPLE_RUN;
        n += (unsigned)mt_leb_put(out + n, e->run_cnt);
        e->run_cnt = 0;
    }
    if (skip) {
        hdr |= MT_SAMPLE_SKIP;
        n += (unsigned)mt_leb_put(out + n, skip > MT_SKIP_MAX ? MT_SKIP_MAX : skip);
    }
    unsigned op;
    if (match >= 0) {
        op = (unsigned)match;
    } else {
        uint64_t z = 0;
        op = MT_OP_FULL;
        if (valid & 1) {
            z = mt_zigzag(a - e->hist[0], w);
            if (mt_leb_len_fast(z) < mt_leb_len_fast(a))
                op = MT_OP_DELTA;
        }
        n += (unsigned)mt_leb_put(out + n, op == MT_OP_DELTA ? z : a);
    }
    out[0] = (uint8_t)(hdr | (op << 4));
    if (e->plain)
        return n; /* no history, no previous sample: the next one is FULL again */
    if (op >= MT_OP_DELTA) {
        e->hist[2] = e->hist[1];
        e->hist[1] = e->hist[0];
        e->hist[0] = a;
        e->hist_valid = (uint8_t)(((valid << 1) | 1) & 7);
        e->prev_idx = 0;
    } else {
        e->prev_idx = (uint8_t)op;
    }
    e->prev_rw = (uint8_t)rw;
    e->prev_valid = 1;
    return n;
}

/* The width as a constant where the caller knows the format (the every-access recorder's FULL). */
static inline unsigned mt_enc_put_sample(mt_enc *e, uint64_t a, unsigned rw, uint64_t skip, uint8_t *out)
{
    return e->fmt == MT_FMT_FULL ? mt_enc_put_sample_w(e, a, rw, skip, out, 56)
                                 : mt_enc_put_sample_w(e, a, rw, skip, out, mt_fmt_width(e->fmt));
}

#endif
