/* OPT (Belady's MIN) for every metapage size, one size at a time, with bounded temporary space.
 *
 * OPT needs, per access, the index of the next use of its page at that size: an 8-byte entry per
 * access, in a file-backed array (host/spill.h).  Holding one such array per size at once made
 * the temporary file 8 B x accesses x sizes (160 GB for a 2 G-access trace with 10 sizes).  Here
 * the passes are pipelined: pass 0 builds the array of the first size; the pass that runs OPT
 * for size i also builds the array of size i + 1, and the array of size i is released as soon as
 * that pass ends.  At most two arrays exist at a time:
 *     temporary space <= 2 x 8 B x accesses        (32 GB for 2 G accesses)
 * for n sizes it costs n + 1 passes over the trace. */
#ifndef HOST_POLICY_OPT_H
#define HOST_POLICY_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "host/sample.h"
#include "host/stackdist.h"

/* Feeds opt[s] (an OPT stack_sim, or NULL to skip size s) with every sample of src, the page
 * being addr / sizes[s].  samples: how many usable samples the caller's first pass saw (a
 * different count on rewind is an error).  tmpdir: where the arrays spill ($TMPDIR or /tmp when
 * NULL).  0 ok, -1 error (message in err). */
int policy_opt_run(ht_source *src, const uint64_t *sizes, stack_sim *const *opt, int ns,
                   uint64_t samples, const char *tmpdir, char *err, size_t errlen);

#endif
