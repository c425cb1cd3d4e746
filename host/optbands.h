/* OPT (Belady's MIN) for a list of resident counts at once, at a cost per access that does not
 * grow with the stack depth of the access.
 *
 * Mattson's priority stack (host/stackdist.h) gives every resident count 1..K, but an access at
 * depth d costs O(d): on a trace whose accesses are deep by construction (a reduce trace keeps
 * only the accesses that missed in an LRU of the reduction budget) that is thousands of levels
 * per access.  A caller that wants the counts at a few resident counts L_1 < ... < L_n = K only
 * (one per budget) needs only the *set* of pages between two of them: the stack update carries
 * the displaced entry down, the more urgent of (carried, resident) staying at each level, so
 * over the levels (L_{j-1}, L_j] the carry that leaves is the least urgent of the carry that came
 * in and the band's pages, and the band keeps the others, whatever their order inside.  So each
 * band is a max-heap by rank: an access removes its page from its band, puts it on top (level 1,
 * held apart: the accessed page is always resident), and pushes the old top down through the
 * full bands above the page's old one (per band: one comparison with the heap's maximum, and a
 * sift of log2(band) steps when it stays), filling the hole the page left.  Hit, fault and
 * write-back counts at each L_j are those of the stack algorithm (the bands are a coarsening of
 * its levels; ranks are unique: pg_opt_rank), unit tests check it against stack_sim and the
 * per-budget simulation. */
#ifndef HOST_OPTBANDS_H
#define HOST_OPTBANDS_H

#include <stdint.h>

#include "host/paging.h"

#define OPTBANDS_MAX 64 /* resident counts at most */

typedef struct optbands optbands;

/* levels: n distinct resident counts > 0 in increasing order (1 <= n <= OPTBANDS_MAX).  NULL
 * when out of memory or the list is not so. */
optbands *optbands_new(const uint32_t *levels, int n);
void optbands_free(optbands *b);
/* Pages are dense ids: 0, 1, 2, ... in order of first use (id == the pages seen so far is a new
 * page).  rank: pg_opt_rank(next use, now).  0 ok, -1 out of memory. */
int optbands_access_id(optbands *b, uint32_t id, int write, uint64_t rank);
/* Ends the trace: accounts for pages evicted and never used again.  Call once. */
void optbands_finish(optbands *b);
/* Counts for a cache of `resident` entries: 0, or -1 when resident is not one of the levels. */
int optbands_counts(const optbands *b, uint32_t resident, pg_counts *out);

#endif
