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

#endif
