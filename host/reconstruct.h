/* Reconstructing full-rate samples for the low-fidelity spans of a burst/span trace.
 *
 * Every method reads the trace twice.  Pass 1 summarises each burst: where it starts and ends,
 * its sample rate, the streaming (P-squared) median of its page numbers, and its first `keep`
 * samples (page number + R/W) in a spill file.  Pass 2 copies bursts through unchanged and
 * replaces each span sample (at cycle t, naming a gigabyte when 32-bit) by samples at
 * t, t + r, t + 2r, ... up to the end of its interval (t + r_l, or the next burst), r being the
 * output rate (the burst rate unless given).  The methods differ in what they put there:
 *
 *  seed      exactly seed 3.3: a_b = median of the preceding burst's 48-bit values without the
 *            R/W bit; offsets o_i = v_i - a_b with their R/W bits; the span sample's PPN[2] with
 *            zero low bits is the new base a'_b; the samples are a'_b + o_1, a'_b + o_2, ...
 *            restarting at o_1 for every span sample, repeated when the burst is shorter than
 *            the interval, truncated when longer.  Half of the offsets are negative, so about
 *            half of the samples land below the gigabyte the span sample names.
 *  gigabyte  offsets are taken within each burst sample's own gigabyte (PPN[1:0], always >= 0),
 *            so every sample stays in the gigabyte the span names; only burst samples of that
 *            same gigabyte are replayed (all of them if the burst never touched it); and the
 *            replay continues where the previous span sample stopped instead of restarting, so
 *            the span replays the burst's whole access sequence rather than its first r_l / r
 *            samples again and again.
 *  bracket   as gigabyte, but a span sample in the first half of the span replays the burst
 *            before it and one in the second half the burst after it (spans sit between two
 *            bursts; the nearer one in time is the better witness of a drifting working set).
 *  drift     as bracket, and the replayed pages are shifted along the working set's movement:
 *            the median page moves by (next median - previous median) between the two bursts'
 *            midpoints; a sample at time t replaying a burst with midpoint m is shifted by
 *            slope * (t - m) pages (kept inside the named gigabyte).
 * Output samples are 48-bit (page numbers); span samples that are already finer than 32-bit are
 * kept as their interval's first sample. */
#ifndef HOST_RECONSTRUCT_H
#define HOST_RECONSTRUCT_H

#include <stddef.h>
#include <stdint.h>

#include "host/sample.h"

typedef enum { RC_SEED = 0, RC_GIGABYTE = 1, RC_BRACKET = 2, RC_DRIFT = 3, RC_COUNT } rc_method;

typedef struct {
    rc_method method;
    uint64_t rate;      /* output cycles per sample in spans; 0 = the burst's rate */
    uint64_t span_rate; /* span cycles per sample when the trace does not say; 0 = infer */
    uint64_t keep;      /* burst samples kept per burst (default 1 << 20) */
    const char *tmpdir;
} rc_config;

typedef struct {
    uint64_t bursts, spans, burst_samples, span_samples, out_samples;
    uint64_t outside_gigabyte; /* reconstructed samples not in the gigabyte their span sample names */
    uint64_t no_burst;         /* span samples with no burst to replay (kept as-is) */
} rc_stats;

typedef int (*rc_emit)(void *ctx, const ht_record *r); /* 0 ok, -1 stop with an error */

const char *rc_method_name(rc_method m);
int rc_parse_method(const char *s, rc_method *out);
void rc_defaults(rc_config *c);
/* 0 ok, -1 error (message in err). */
int reconstruct_run(ht_source *src, const rc_config *cfg, rc_emit emit, void *ctx, rc_stats *st,
                    char *err, size_t errlen);

#endif
