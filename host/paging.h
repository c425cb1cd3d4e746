/* Shared vocabulary of the metapage replacement analyses. */
#ifndef HOST_PAGING_H
#define HOST_PAGING_H

#include <stdint.h>

typedef enum { PG_LRU = 0, PG_FIFO = 1, PG_CLOCK = 2, PG_OPT = 3, PG_COUNT } pg_policy;

typedef struct {
    uint64_t accesses;   /* accesses (samples) seen */
    uint64_t faults;     /* accesses whose metapage was not resident (cold faults included) */
    uint64_t writebacks; /* evictions of a dirty metapage during the trace; dirty metapages still
                            resident at the end are not written back (nothing evicts them) */
} pg_counts;

/* OPT's priority of an access: the time of the page's next use, or, for a page never used again,
 * a value above every time that prefers to keep the more recently used of such dead pages.  Both
 * the stack algorithm and the per-budget simulation evict the largest rank, so they agree
 * exactly, ties included. */
#define PG_NEXT_NONE UINT64_MAX
static inline uint64_t pg_opt_rank(uint64_t next_use, uint64_t now)
{
    return next_use != PG_NEXT_NONE ? next_use
                                    : (UINT64_C(1) << 63) + ((UINT64_C(1) << 62) - now);
}

const char *pg_policy_name(pg_policy p);
int pg_parse_policy(const char *s, pg_policy *out);

#endif
