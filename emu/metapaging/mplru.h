/* LRU for every resident count of one metapage size at once, by stack distances.
 *
 * Mattson et al. (1970): LRU is a stack algorithm, so a cache of C metapages holds the top C
 * entries of one recency stack, and an access at stack depth d hits in every cache with C >= d.
 * One pass over the stream gives, for every C in [1, K], what a separate LRU meta-pager with C
 * resident metapages counts: faults, evictions, write-backs, backing reads and zero fills.  That
 * replaces one simulation per budget (emu/metapaging/mpsim.c keeps those as the reference; the
 * tests hold the two equal).
 *
 *  - depth: the top of the stack is a small move-to-front array (the "filter", MPLRU_FILTER
 *    entries); an access found there has its depth by position, nothing else moves.  Below it,
 *    each metapage carries the time it left the filter and a Fenwick tree over those times
 *    counts the metapages that left later: depth = filter entries + that count + 1.  Most
 *    accesses of a program are to a handful of pages (code, stack, the data fronts), so the tree
 *    is touched only when the accessed metapage is not among the most recent few.
 *  - write-backs: a metapage is evicted from cache C between two uses iff the later use has
 *    depth d > C, and that eviction writes back iff it was written since its last fault in C,
 *    i.e. iff every use after its last write had depth <= C.  With m the largest depth of the
 *    uses after the last write, the write-backs are C in [max(1, m), d - 1].  A use at depth
 *    <= c_min (c_min: the smallest resident count asked for) changes no count for any C >= c_min:
 *    such a use in the filter only moves the entry and notes its write, which is applied when
 *    the entry is next used deeper than c_min or leaves the filter.
 *  - backing reads: a fault reads the backing file iff the metapage was written back before (or
 *    written by the emulator itself).  Each write cycle adds write-backs for C in [1, m1 - 1],
 *    then [m1, m2 - 1], ... (m_i the growing depths), so the set of C for which a metapage has
 *    ever been written back is always [1, X]: one number per metapage.
 *  - evictions: faults - min(C, distinct metapages), since slots never become free.
 *
 * The counts are exact for every C >= c_min (the shortcut only loses information about caches
 * smaller than c_min); tests/unit/test_mpsim.c checks them against per-budget simulations on
 * many streams. */
#ifndef EMU_MPLRU_H
#define EMU_MPLRU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MPLRU_FILTER 16

struct mplru;

struct mplru_counts {
    uint64_t faults, evictions, writebacks, backing_reads, zero_fills;
};

/* For `n_metapages` metapages and resident counts c_min..k_max (1 <= c_min <= k_max; k_max is
 * capped at n_metapages).  NULL with a message in err when out of memory. */
struct mplru *mplru_create(uint64_t n_metapages, uint32_t c_min, uint32_t k_max, char *err,
                           size_t errlen);
void mplru_destroy(struct mplru *l);

/* One access to metapage m (< n_metapages).  Consecutive repeats may be left out provided the
 * caller passes their number to mplru_counts (a repeated read, or a repeated write after a
 * write was passed, is a depth-1 hit that changes nothing). */
void mplru_access(struct mplru *l, uint64_t m, bool is_write);

/* The emulator's own write to metapage m: from now on a fault on it reads the backing file. */
void mplru_host_write(struct mplru *l, uint64_t m);

/* The counts of an LRU cache of `resident` metapages (c_min <= resident; values above k_max
 * are treated as k_max) after the accesses so far, `repeats` of them left out as above.
 * Non-destructive: accesses may continue afterwards. */
void mplru_counts(const struct mplru *l, uint32_t resident, uint64_t repeats, struct mplru_counts *out);

#endif
