/* Online evaluation of other meta-paging configurations from one access stream.
 *
 * One emulator run feeds every guest page access (the RAM side's page-observer stream) to a set
 * of (metapage size, budget, policy) configurations, each simulated by the meta-pager's own
 * replacement core (emu/metapaging/metapager.h, struct mp_core) without any data or I/O.  So one run says
 * what every configuration would have done: its faults, write-backs and bytes moved equal those
 * of a separate run that really uses that configuration (tests/unit/test_mpsim.c checks it).
 *
 * The stream may have consecutive repeats collapsed (docs/metapaging.md proves this lossless for
 * every count here): report a page when it differs from the last one reported, and when a write
 * follows a read report of the same page. */
#ifndef EMU_MPSIM_H
#define EMU_MPSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/metapaging/metapager.h"

struct mpsim_config {
    uint64_t metapage_bytes;
    uint64_t budget_bytes;
    mp_policy policy;
};

struct mpsim_result {
    struct mpsim_config cfg;
    uint32_t resident_metapages; /* N = budget / size (capped at RAM's metapage count) */
    uint64_t accesses, faults, zero_fills, backing_reads, evictions, writebacks;
    uint64_t bytes_in, bytes_out;
};

/* Parses a list of configurations: items separated by ',', each SIZE:BUDGET[:POLICY], where each
 * field may list alternatives separated by '/' (their cross product is taken, sizes outermost)
 * and POLICY may be '*' for all four (default lru).  Example: "4K/64K/2M:8M:lru/clock".
 * A size or budget alternative LO..HI stands for LO, 2 LO, 4 LO, ... <= HI; where a range is
 * involved, the size/budget pairs whose budget is below the size are left out
 * ("4K..2M:1M..64M" = 10 sizes x 7 budgets less the 2M:1M pair).
 * On success *out is a malloc'd array of *count entries; -1 with a message otherwise. */
int mpsim_parse(const char *spec, struct mpsim_config **out, size_t *count, char *err,
                size_t errlen);

struct mpsim;

/* How LRU configurations are counted: MPSIM_LRU_STACK (default) one stack-distance pass for all
 * budgets of all sizes (mpstack.h); MPSIM_LRU_EACH one replacement core per
 * configuration like the other policies (the reference the stack pass is tested against). */
enum mpsim_lru_method { MPSIM_LRU_STACK, MPSIM_LRU_EACH };

/* RANDOM configurations use `seed` (give the real pager's seed to compare with it).  NULL with a
 * message in err on a bad configuration (checked like the meta-pager's own). */
struct mpsim *mpsim_create(uint64_t ram_bytes, const struct mpsim_config *cfgs, size_t count,
                           uint64_t seed, char *err, size_t errlen);
struct mpsim *mpsim_create_method(uint64_t ram_bytes, const struct mpsim_config *cfgs,
                                  size_t count, uint64_t seed, enum mpsim_lru_method method,
                                  char *err, size_t errlen);
void mpsim_destroy(struct mpsim *sim);

/* One guest access to 4 KiB page `page` (RAM offset >> 12); pages outside RAM are ignored. */
void mpsim_access(struct mpsim *sim, uint64_t page, bool is_write);
/* Reports in order, each pfn << 1 | is_write with pfn a physical 4 KiB page number; first_pfn =
 * RAM's first.  The same as mpsim_access for each one inside RAM; returns how many were. */
size_t mpsim_access_batch(struct mpsim *sim, const uint64_t *entries, size_t n, uint64_t first_pfn);

/* Whether the shared LRU stack pass counts every configuration (no core of its own to feed):
 * then the reports may go through mpfront_fold (mpfront.h, units of RAM page >> *unit_shift,
 * *ram_pages of RAM) and reach the simulations by mpsim_access_words. */
bool mpsim_stack_units(const struct mpsim *sim, unsigned *unit_shift, uint64_t *ram_pages);
/* Words of mpfront_fold, in order: the same as mpsim_access for each report they stand for
 * (only when mpsim_stack_units), but for the count of reports inside RAM, which mpfront_fold
 * knows and the caller adds with mpsim_count_reports. */
void mpsim_access_words(struct mpsim *sim, const uint64_t *words, size_t n);
void mpsim_count_reports(struct mpsim *sim, uint64_t n);

/* The emulator's own write of RAM bytes [offset, offset+len): those metapages now have data in a
 * backing store, so a later fault reads them instead of zero-filling (as the real pager does). */
void mpsim_host_write(struct mpsim *sim, uint64_t offset, uint64_t len);

size_t mpsim_count(const struct mpsim *sim);
/* The counts of configuration `index` after the accesses so far (NULL past the end).  The
 * returned object is rewritten by the next call for the same index. */
const struct mpsim_result *mpsim_result(const struct mpsim *sim, size_t index);

#endif
