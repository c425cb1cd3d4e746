/* Direct simulation of one replacement policy with one resident count: the reference the
 * stack algorithms are checked against, the engine for FIFO and CLOCK (which are not stack
 * algorithms), and the "one simulation per configuration" baseline of the benchmark.
 *
 *  LRU   evicts the least recently used metapage.
 *  FIFO  evicts the metapage loaded longest ago (hits do not reorder).
 *  CLOCK (second chance) keeps the metapages in a circle of C frames with a reference bit each
 *        and a hand.  A hit sets the bit.  On a fault while not full, the page takes the next
 *        free frame.  When full, the hand sweeps: a frame with the bit set has it cleared and
 *        the hand moves on; the first frame with the bit clear is evicted, the new page is
 *        loaded there with its bit set, and the hand moves to the next frame.
 *  OPT   (Belady's MIN) evicts the metapage whose next use is furthest away; among pages never
 *        used again, the least recently used (pg_opt_rank).
 * Every policy marks a page dirty on a write and counts a write-back when it evicts a dirty
 * page. */
#ifndef HOST_SIMPOLICY_H
#define HOST_SIMPOLICY_H

#include <stdint.h>

#include "host/paging.h"

typedef struct policy_sim policy_sim;

policy_sim *policy_sim_new(pg_policy policy, uint32_t resident);
/* The same, for callers that number pages densely themselves (0, 1, 2, ...): the resident
 * table is then an array indexed by that number instead of a hash map, so several simulations
 * of one metapage size share one hash lookup per access (policy's engine). */
policy_sim *policy_sim_new_dense(pg_policy policy, uint32_t resident);
void policy_sim_free(policy_sim *s);
/* rank: pg_opt_rank(...) for OPT, ignored otherwise.  Returns 1 on a fault, 0 on a hit,
 * -1 when out of memory. */
int policy_sim_access(policy_sim *s, uint64_t page, int write, uint64_t rank);
void policy_sim_counts(const policy_sim *s, pg_counts *out);

#endif
