/* LRU at every budget of every metapage size at once, by stack distances over one shared filter.
 *
 * Mattson et al. (1970): LRU is a stack algorithm, so a cache of C metapages holds the top C
 * entries of one recency stack, and a use at stack depth d hits in every cache with C >= d.  One
 * pass over the stream gives, for every C of every size, what a separate LRU meta-pager with C
 * resident metapages counts: faults, evictions, write-backs, backing reads and zero fills
 * (emu/metapaging/mpsim.c keeps one replacement core per configuration as the reference; the
 * tests hold the two equal).
 *
 * Reports come at up to one per guest instruction (code, stack and data pages alternate), so the
 * common report must cost a few instructions whatever the number of sizes:
 *  - The filter: the MPSTACK_FILTER most recent distinct "units" (metapages of the smallest size),
 *    move-to-front.  For every size, the distinct metapages of the filter's units, in the order
 *    of their first unit, ARE the top of that size's stack (a metapage with no unit in the filter
 *    was used before all of them).  Each entry carries two masks over the sizes ("lanes"):
 *    `first` (it is the first unit of its metapage in the filter at that size) and `pending` (a
 *    write to that metapage not yet applied; only on first units).  A unit found at position j
 *    has, at size s, depth 1 + (first units at s before the first unit sharing its metapage at s):
 *    sharing is a prefix of the sizes (the bit length of the xor of the two units), so one scan
 *    of the entries before j gives the depths of all sizes at once, packed six bits a lane.
 *  - A use at depth <= c_min (the smallest resident count asked for at that size) changes no
 *    count for any C >= c_min: only its write is noted (pending).  Deeper uses are counted as in
 *    mplru: the eviction between two uses, write-backs for C in [max(1, m), d - 1] (m the largest
 *    depth of the uses since the last write), the set [1, X] of C where the metapage was ever
 *    written back (backing reads), the histogram of depths.
 *  - The two most recent units alternating (code and data: by far the most common report) is a
 *    swap of the first two entries: their sharing mask is kept, the depth is 1 or 2, and only
 *    sizes with a single resident metapage (c_min == 1) that do not share count anything.  A
 *    read swap that writes nothing back there is only counted, and a run of them is applied at
 *    once (period two) before anything else looks at the front.
 *  - The third unit coming back (code, stack and data cycling) is a rotation of the first three
 *    entries, without the general scan's loop.
 *  - A unit not in the filter: sizes whose metapage has no unit in the filter take a deep use,
 *    depth = (metapages in the filter) + (metapages that left it later and are still below it)
 *    + 1.  The unit falling out applies its pending writes, and its metapage takes the size's
 *    next time when it was the first (so the last) unit of it in the filter.  A Fenwick tree
 *    counts only the "dead" times (of metapages used again since), so leaving touches no tree:
 *    those below the filter after time t are (now - t) less the dead ones after t.
 * The counts are exact for every C >= c_min of each size. */
#ifndef EMU_MPSTACK_H
#define EMU_MPSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MPSTACK_FILTER 31
#define MPSTACK_MAX_SIZES 10 /* 4 KiB .. 2 MiB */

struct mpstack;

struct mpstack_counts {
    uint64_t faults, evictions, writebacks, backing_reads, zero_fills;
};

struct mpstack *mpstack_create(void);
void mpstack_destroy(struct mpstack *st);

/* Adds a size of 2^rel_shift units (rel_shift larger than every size added before), n_metapages
 * of them, resident counts c_min..k_max (1 <= c_min <= k_max; k_max is capped at n_metapages).
 * Returns its index, or -1 with a message in err.  All sizes must be added before the first
 * access. */
int mpstack_add_size(struct mpstack *st, unsigned rel_shift, uint64_t n_metapages, uint32_t c_min,
                     uint32_t k_max, char *err, size_t errlen);

/* One access to unit u (a metapage of the smallest size, < its n_metapages).  Consecutive repeats
 * may be left out (a repeated read, or a repeated write after a write was passed: a depth-1 hit
 * that changes nothing). */
void mpstack_access(struct mpstack *st, uint64_t u, bool is_write);

/* The same for each report of a page-observer batch (pfn << 1 | is_write, pfn a physical 4 KiB
 * page number; first_pfn = RAM's first, ram_pages its length; unit = page >> unit_shift).
 * Pages outside RAM are skipped; returns how many were inside. */
size_t mpstack_access_batch(struct mpstack *st, const uint64_t *entries, size_t n,
                            uint64_t first_pfn, uint64_t ram_pages, unsigned unit_shift);

/* Words from mpfront_fold (units with the alternations folded before them, RUN words for
 * alternations alone, PAIRS words for runs of write pairs), in order: the same as mpstack_access
 * for every report they stand for. */
void mpstack_access_words(struct mpstack *st, const uint64_t *words, size_t n);

/* The emulator's own write to metapage m of size `size`: from now on a fault on it reads. */
void mpstack_host_write(struct mpstack *st, int size, uint64_t m);

/* The counts of an LRU cache of `resident` metapages of size `size` (c_min <= resident; values
 * above k_max are treated as k_max) after the accesses so far.  Non-destructive. */
void mpstack_counts(const struct mpstack *st, int size, uint32_t resident,
                    struct mpstack_counts *out);

#endif
