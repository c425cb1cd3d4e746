/* Software stream encoder: writes a valid packet stream from samples the caller already has
 * (host import, reconstructions, ground truth), with no FIFO and nothing dropped. It uses the
 * same compressor and packet builders as the trace unit; SYNC+SECTION pairs are inserted every
 * `sync_period` bytes, as the unit does. Bytes go to a sink callback. */
#ifndef MT_SWENC_H
#define MT_SWENC_H

#include <stdint.h>

#include "mt_enc.h"
#include "mt_event.h" /* mt_access_rec */
#include "mt_fifo.h"
#include "mt_unit.h" /* mt_unit_mark: the output marks a container indexes by */

typedef struct {
    mt_sink_fn sink;
    void *ctx;
    uint32_t sync_period;
    /* state */
    int have_section, ended;
    uint8_t span, fmt;
    uint32_t rate;
    uint64_t ptr;   /* sample point of the next interval */
    uint64_t floor; /* a new section may start here or later: just after the last sample point */
    mt_enc enc;
    uint32_t sync_bytes;
    uint8_t sync_seq;
    uint64_t samples, bytes;
    uint32_t dropped;
    uint64_t last_sp; /* sample point of the last sample (0: none yet) */
    mt_unit_mark_fn on_sync;
    void *on_sync_ctx;
    /* mt_swenc_batch: bytes kept here and handed to the sink in one call per batch, not one per
     * packet (the every-access recorder writes a packet of 2-4 bytes per access: the call, the
     * sink's bounds check and copy per packet cost more than encoding it) */
    int batched;
    uint32_t batch_n;
    uint8_t batch[4096];
    /* mt_swenc_runs: the runs stream (docs/trace-format.md section 4.2).  fa = the last FETCHES
     * element's address (reset with the history); the open FETCHES packet is built in fpkt
     * (flen bytes, 0: none open) and put when closed, since its last "more" bit is set only
     * when the next element comes; fmore_at/fmore_bit locate that bit. */
    int runs;
    uint64_t fa;
    uint8_t fpkt[MT_PKT_MAX];
    uint8_t flen, fmore_at, fmore_bit;
    /* ... the same packet kept open in the batch itself (the batched path): its start, the byte
     * holding its last "more" bit and the bit, as batch offsets; closed by any other packet or a
     * flush */
    int bopen;
    uint32_t bopen_start, bopen_more;
    uint8_t bopen_bit;
} mt_swenc;

void mt_swenc_init(mt_swenc *s, uint32_t sync_period, mt_sink_fn sink, void *ctx);
/* Starts a section at `cycle` (the first one also writes the session's first SYNC). `cycle` must
 * be after the last sample's sample point (not necessarily after its whole interval: the unit
 * cuts a section's last interval at the section's end, so a SECTION may start before `ptr`).
 * Returns 0, or -1 with bad arguments. */
int mt_swenc_section(mt_swenc *s, unsigned span, unsigned fmt, uint32_t rate, uint64_t cycle);
/* One sample at its sample point: cycle = ptr + k * rate for k >= 0 (k intervals without a
 * sample before it, k < 2^40). addr is a 56-bit byte address. Returns 0 or -1. */
int mt_swenc_sample(mt_swenc *s, uint64_t cycle, uint64_t addr, unsigned rw);
/* mt_swenc_sample for n samples in order: the same bytes and the same state as n calls, and on a
 * refused sample the same as the calls up to it (-1; the ones before it are written).  At rate 1
 * in the FULL format, batched (the every-access recorder's stream), it is one loop with the
 * compressor's state in locals: per call, a sample's packet costs about as much as the call
 * chain and the state's loads and stores through the batch's byte pointer (which may alias it). */
int mt_swenc_samples(mt_swenc *s, const mt_access_rec *r, size_t n);
int mt_swenc_marker(mt_swenc *s, uint32_t value);
int mt_swenc_overflow(mt_swenc *s, uint32_t dropped);
/* Writes END; further calls fail. */
int mt_swenc_end(mt_swenc *s);
/* Output marks, as the trace unit gives them (mt_unit_on_sync, mt_unit_mark_now): fn gets the
 * totals at the first byte of every SYNC; mt_swenc_mark_now the totals so far (exact after
 * mt_swenc_end). So a container indexes the stream without decoding it (mt_writer_mark). */
void mt_swenc_on_sync(mt_swenc *s, mt_unit_mark_fn fn, void *ctx);
void mt_swenc_mark_now(const mt_swenc *s, mt_unit_mark *m);
/* Batched output: from now on the sink gets the bytes in batches of up to sizeof batch, always
 * before an output mark (so a mark's offset is what the sink has had), at a marker, an overflow,
 * END and mt_swenc_flush; otherwise the sink may lag up to a batch behind the samples. The bytes
 * are the same, only cut into fewer, larger pieces. */
void mt_swenc_batch(mt_swenc *s);
/* The runs stream (docs/trace-format.md section 4.2; call before the first section): from now on
 * mt_swenc_samples writes the records flagged MT_ACCESS_REC_FETCH as FETCHES packets (a run of
 * fetches at +2/+4 byte steps, at most 15 idle cycles apart, costs a byte each) and the others as
 * SAMPLEs, whose history and run then see only those.  Its reader gives back the same samples,
 * at the same cycles, in the same order (mt_dec with runs set). */
void mt_swenc_runs(mt_swenc *s);
/* Hands the batched bytes to the sink. */
void mt_swenc_flush(mt_swenc *s);

#endif
