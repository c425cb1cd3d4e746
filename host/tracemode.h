/* The trace's mode, read from its container header (docs/trace-format.md section 7), and the
 * policy engine for the modes that record a metapage-size mask with each sample.
 *
 *   burst   - the seed's time sampling (or a header without a mode: every older trace); its
 *             figures are what the samples say, with no statement of fidelity.
 *   reduce  - the exact reduction (mode parameter B, the reduction budget): for size s the
 *             records whose mask has s give LRU and OPT fault counts equal to the full trace's
 *             for every budget >= max(B, s); rows say "exact" there and "approx" elsewhere.
 *   spatial - SHARDS per metapage size (mode parameters: the rate N and the per-size rates R_i):
 *             every reference to a hashed sample of the metapages; a budget of M metapages is
 *             simulated as M / R_i in the sample and the faults scaled back; rows say
 *             "estimate" with an error bar (exact where R_i = 1 and 2+ metapages are resident).
 *   all     - --trace-all's every-access ground truth: exact by definition.
 * Reduce and spatial traces carry in their trailer (docs/trace-format.md 4.1) the accesses the
 * filter saw: rows count those as their accesses, so that fault_rate is faults per access.
 * A mode the host does not know is refused by name. */
#ifndef HOST_TRACEMODE_H
#define HOST_TRACEMODE_H

#include <stddef.h>
#include <stdint.h>

#include "host/policy.h"
#include "host/sample.h"

typedef enum { TM_BURST = 0, TM_REDUCE = 1, TM_ALL = 2, TM_SPATIAL = 3 } trace_mode;

#define TM_SIZES 10 /* the masked modes' metapage sizes: 4 KiB << i, i = 0..9 */

typedef struct {
    trace_mode mode;
    uint64_t reduce_budget;          /* reduce: B */
    uint32_t spatial_rate;           /* spatial: N */
    uint32_t spatial_rates[TM_SIZES]; /* spatial: R_i */
    /* from the trailer (0 when the trace has none: an unfinished file, an older reduce trace,
     * or a filtered view such as a region of interest) */
    uint64_t accesses;               /* accesses the filter saw */
    uint32_t spatial_max;            /* spatial: T, the set bits of a size's bitmap before its rate doubles
                                        (or S, the metapages of the exact set) */
    unsigned spatial_map_log2;       /* spatial: K, the bitmap has 2^K bits (trace.spatial_rule=bitmap-K);
                                        0: no rule named, the exact set of before 2026-12-05 (S metapages) */
} trace_mode_info;

/* Reads the mode from src's header (a source without a header is burst). 0, or -1 with a message
 * naming the trace and the mode it does not know. */
int trace_mode_get(ht_source *src, trace_mode_info *out, char *err, size_t errlen);
const char *trace_mode_name(trace_mode m);

/* For the commands that read samples as accesses (compare, export, reconstruct, rowbuf): 0 for
 * a burst or every-access trace; -1 with a message naming the trace, its mode and the command
 * for a reduce trace (whose addresses carry a size mask) or an unknown mode. */
int trace_mode_refuse_masked(ht_source *src, const char *cmd, char *err, size_t errlen);

/* A view of a reduce or spatial trace for one metapage size index i (4 KiB << i): only the
 * samples whose mask has bit i, with the mask bits cleared from the address; with rate > 1 also
 * only those whose metapage the spatial hash keeps at that rate.  Borrows `inner` (close the
 * view first). */
ht_source *trace_mode_size_view(ht_source *inner, unsigned i);
ht_source *trace_mode_sample_view(ht_source *inner, unsigned i, uint32_t rate);
/* Spatial: size i's final rate, replaying the filter's doubling rule (lib/mt_spatial.h) on its
 * records from the starting rate, and (sampled, may be NULL) the metapages kept at that rate.
 * 0, or -1 (err). */
int trace_mode_spatial_final_rate(ht_source *src, const trace_mode_info *tm, unsigned i, uint32_t *rate,
                                  uint64_t *sampled, char *err, size_t errlen);

/* policy_run for any mode: burst and all as before; reduce and spatial per size on its view
 * (spatial: scaled, host/tracemode.c).  Rows get their
 * fidelity (policy_row.fidelity).  0 ok, -1 error (err). */
int policy_run_mode(ht_source *src, const trace_mode_info *tm, const policy_config *cfg,
                    policy_result *out, char *err, size_t errlen);

#endif
