/* One-pass evaluation of every resident count at once for the stack algorithms LRU and OPT.
 *
 * Mattson et al. (1970): for a stack algorithm the cache of size C always holds the top C
 * entries of one priority stack, so an access hits in every cache of size >= its stack depth d.
 * One pass gives the depth histogram, and faults(C) = accesses - #(d <= C) for every C.
 *  - LRU: d is the number of distinct pages since the last use, found with a Fenwick tree over
 *    time stamps (O(log n)); the time line is compacted when it fills, so memory is O(pages).
 *  - OPT: Mattson's priority stack with priority = time of next use (pg_opt_rank).  An access at
 *    depth d moves the page to the top and pushes the displaced entries down: at each level the
 *    more urgent of (carried entry, resident entry) stays, O(d) per access over a contiguous
 *    rank array.  (OPT stacks are nearly sorted by next use, so almost every level moves: a
 *    segment tree that finds the moving levels in O(log K) each was 3x slower; measured.)
 * Both keep only the top K = max_resident levels: the contents of caches of size <= K depend only
 * on those levels, so deeper entries are all just "deeper than K".
 *
 * Write-backs for every C: a page was evicted from cache C between two uses iff the later use has
 * depth > C; it was dirty iff it was written after its last fault in C, i.e. iff every use after
 * its last write had depth <= C.  With m = max depth of the uses after the last write, the
 * eviction is a write-back for C in [max(1, m), d - 1]: one range update in a difference array.
 * At the end every page is checked once more against its final depth (evicted but never used
 * again). */
#ifndef HOST_STACKDIST_H
#define HOST_STACKDIST_H

#include <stdint.h>

#include "host/paging.h"

typedef struct stack_sim stack_sim;

/* policy: PG_LRU or PG_OPT.  NULL when out of memory. */
stack_sim *stack_sim_new(pg_policy policy, uint32_t max_resident);
/* The same for a list of resident counts only (n distinct counts > 0, increasing): OPT then
 * keeps its stack as bands between them (host/optbands.h: a cost per access that does not grow
 * with its depth), and stack_sim_counts answers for those counts only (all zero otherwise).
 * LRU ignores the list but for its largest count. */
stack_sim *stack_sim_new_levels(pg_policy policy, const uint32_t *levels, int n);
void stack_sim_free(stack_sim *s);
/* rank: pg_opt_rank(next use, now) for OPT, ignored for LRU.  0 ok, -1 out of memory. */
int stack_sim_access(stack_sim *s, uint64_t page, int write, uint64_t rank);
/* The same for callers that number pages densely themselves: id 0, 1, 2, ... in order of first
 * use (id == the number of pages seen so far is a new page), so one hash lookup per access can
 * serve several simulations of a metapage size.  Do not mix with stack_sim_access. */
int stack_sim_access_id(stack_sim *s, uint32_t id, int write, uint64_t rank);
/* Ends the trace: accounts for pages evicted and never used again.  Call once. */
int stack_sim_finish(stack_sim *s);
/* Counts for a cache of `resident` entries, 1 <= resident <= max_resident. */
void stack_sim_counts(const stack_sim *s, uint32_t resident, pg_counts *out);

#endif
