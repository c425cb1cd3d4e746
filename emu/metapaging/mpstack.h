/* LRU at every budget of several metapage sizes at once, by stack distances with one shared
 * filter.
 *
 * mplru.h does one size; running one per size costs a filter search per size per report, and
 * reports come at up to one per instruction (code, stack and data pages alternate).  Here the
 * smallest size's most recent MPSTACK_FILTER metapages ("units") form one move-to-front filter
 * shared by every size whose smallest resident count c_min is at least MPSTACK_FILTER:
 *  - a report that finds its unit in the filter at position j is at depth <= j <= c_min in every
 *    size's stack (the metapage containing a unit is at most as deep as the unit): a hit for
 *    every configuration, and nothing below any filter moves.  Its write is noted in the entry.
 *    Cost: one search of a small array, whatever the number of sizes.
 *  - otherwise, for each size: if another unit of the same metapage is in the filter (a count per
 *    metapage says so) the use is shallow (depth <= c_min again); else it is a deep use at depth
 *    (distinct metapages among the filter's units) + (metapages that left the filter later, a
 *    Fenwick tree as in mplru.h) + 1, counted exactly as mplru does.  The unit falling out of
 *    the filter applies its noted write to its metapage of every size, and that metapage goes
 *    into the size's tree when no unit of it remains in the filter (it is then the most recent
 *    of the tree: all its units are older than those still in the filter).
 * The counts are those of mplru for every C >= c_min; the tests hold both equal to per-budget
 * simulations. */
#ifndef EMU_MPSTACK_H
#define EMU_MPSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/metapaging/mplru.h"

#define MPSTACK_FILTER 16

struct mpstack;

struct mpstack *mpstack_create(void);
void mpstack_destroy(struct mpstack *st);

/* Adds a size of 2^rel_shift units, n_metapages of them, resident counts c_min..k_max with
 * c_min >= MPSTACK_FILTER.  Returns its index, or -1 with a message in err.  All sizes must be
 * added before the first access. */
int mpstack_add_size(struct mpstack *st, unsigned rel_shift, uint64_t n_metapages, uint32_t c_min,
                     uint32_t k_max, char *err, size_t errlen);

/* One access to unit u (a metapage of the smallest size); repeats may be left out as in mplru. */
void mpstack_access(struct mpstack *st, uint64_t u, bool is_write);

/* The emulator's own write to metapage m of size `size`. */
void mpstack_host_write(struct mpstack *st, int size, uint64_t m);

/* As mplru_counts, for size `size`; `repeats` = reports left out. */
void mpstack_counts(const struct mpstack *st, int size, uint32_t resident, uint64_t repeats,
                    struct mplru_counts *out);

#endif
