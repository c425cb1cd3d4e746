/* OPT (Belady's MIN) for every metapage size, from the trace's 4 KiB run stream, with bounded
 * temporary space and no further pass over the trace.
 *
 * OPT needs, per access, the index of the next use of its metapage.  Runs of accesses to one
 * metapage count once (docs/metapaging.md, "Why collapsing repeats loses nothing": a repeat is a
 * hit that changes no OPT decision), so the analysis works on run streams:
 *  - the policy engine's pass over the trace stores the 4 KiB run stream in a temporary file,
 *    4 bytes per run of the smallest granule: the run's key (its 4 KiB page, with its size mask
 *    on a reduce trace) as a dense number, key id << 1 | write, and the keys in memory (one per
 *    distinct key, not per run);
 *  - per size, a table gives each key id the size's metapage as a dense id (built once per size
 *    from the keys), so the scans below index arrays where they would hash a page per run;
 *  - per size, a backward scan of that stream (collapsed once more at the size) fills a next-use
 *    array of 4 bytes per run of that size, and a forward scan feeds the OPT stack simulation;
 *    both files are read and written a piece at a time (pread/pwrite, spill_file), not mapped;
 *  - sizes are grouped into passes whose runs together are at most those of the size with most
 *    (first fit, by decreasing runs): one scan of the stream each way serves every size of a
 *    pass, each with its own array in the pass's file (a reduce trace's sizes with few records,
 *    an every-access trace's coarse sizes, then cost a scan together instead of one each);
 *  - two passes run at a time, one per core.
 * Temporary space at most:
 *     4 B x runs(4 KiB) + 2 x 4 B x runs(the size with most)   <= 12 B x accesses
 * (a run stream is never longer than the trace; a reduce trace: records for accesses).  A size
 * with 2^32 - 1 runs or more, or 2^31 distinct keys or more, is an error (4-byte entries). */
#ifndef HOST_POLICY_OPT_H
#define HOST_POLICY_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "host/spill.h"
#include "host/stackdist.h"

/* base: the 4 KiB run stream, key id << 1 | write, keys[key id] = page4k << mask_shift | mask
 * (ids numbered by first use: 0, 1, 2, ...; nkeys of them).  mask_bit NULL (and mask_shift 0): every entry is in every size's stream; else (a size-masked trace, mask_shift =
 * POLICY_MASK_BITS) size s's stream has only the entries whose mask has bit mask_bit[s] (runs of
 * one page collapse in base only when their masks are equal).  opt[s]: an OPT stack_sim for
 * metapage size sizes[s] (a multiple of 4 KiB), or NULL to skip size s; runs[s]: how many runs
 * size s's stream collapses to at that size.  cpu_s[s]: set to the CPU seconds size s took (a
 * pass's time shared among its sizes in proportion to their runs).  tmpdir: where the arrays
 * spill ($TMPDIR or /tmp when NULL).  0 ok, -1 error (message in err). */
int policy_opt_run(const spill_file *base, const uint64_t *keys, size_t nkeys,
                   unsigned mask_shift, const unsigned *mask_bit, const uint64_t *sizes,
                   stack_sim *const *opt, const uint64_t *runs, int ns, const char *tmpdir,
                   double *cpu_s, char *err, size_t errlen);

#endif
