/* FIFO and CLOCK at several resident counts of one metapage size, in one structure: the policy
 * engine's simulations of a size (host/policy.c), exactly policy_sim's (host/simpolicy.h) for
 * each configuration, at a fraction of the cost.
 *
 * Neither policy is a stack algorithm, so every resident count keeps its own state; what is
 * shared is the work around it:
 *  - one page table for all configurations: row `id` holds each configuration's frame of that
 *    page with its reference and dirty bits, so an access reads one row (one or two cache
 *    lines) instead of a table per configuration and a frame array per configuration;
 *  - a configuration that has never been full is not simulated at all.  Until C pages have been
 *    seen, a simulation with C frames has faulted on each new page and on nothing else, page
 *    number i sits in frame i, its reference bit is set and it is dirty iff it was ever written,
 *    and the hand (FIFO's oldest frame, CLOCK's hand) is at frame 0: the same for every such
 *    configuration.  A configuration is built from that state when the first page it has no
 *    frame for arrives, and simulated from then on.  Budgets that hold the whole footprint of a
 *    size (most of the large ones) then cost nothing per access.
 * Pages are dense ids: 0, 1, 2, ... in order of first use (an id equal to the pages seen so far
 * is a new page). */
#ifndef HOST_FIFOCLOCK_H
#define HOST_FIFOCLOCK_H

#include <stdint.h>

#include "host/paging.h"

typedef struct fifoclock fifoclock;

/* Frames a configuration may have once it is full (its frame number shares a 32-bit table entry
 * with two flags): a larger resident count works until that many pages have been seen. */
#define FIFOCLOCK_MAX_FRAMES ((UINT32_C(1) << 30) - 1)

/* n configurations: policy[i] PG_FIFO or PG_CLOCK with resident[i] >= 1 frames.  NULL when out
 * of memory or given anything else. */
fifoclock *fifoclock_new(const pg_policy *policy, const uint32_t *resident, int n);
void fifoclock_free(fifoclock *f);
/* One access of page `id` by every configuration.  0 ok, -1 out of memory (or a configuration of
 * more than FIFOCLOCK_MAX_FRAMES frames became full). */
int fifoclock_access(fifoclock *f, uint32_t id, int write);
/* Configuration i's counts so far (the same as policy_sim_counts of its own simulation). */
void fifoclock_counts(const fifoclock *f, int i, pg_counts *out);

#endif
