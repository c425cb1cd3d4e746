/* The trace unit's reduce path (issue 23; docs/trace-unit-rtl.md "The reduce path"): the exact
 * filter of lib/mt_reduce.h in a shape the unit can hold, with its timing.
 *
 * The rule is mt_reduce's (per size i a k_i-entry LRU filter, k_i = max(1, B >> (12 + i)), the
 * Safely-Allowed-Drop decision E > t1, the repeat and settled-alternation shortcuts of the front),
 * and with nothing forced or lost the records are mt_reduce's, byte for byte.  What changes is the
 * reorder stage, which in software holds up to 65 536 records in a heap:
 *
 * - **The window.**  Every reference that reaches the filters (a change of 4 KiB page) gets the
 *   next sequence number n and the slot n mod W of a ring of W slots (block RAM): its page, R/W,
 *   cycle, the sizes that keep it (`mask`) and the sizes where it is still undecided (`pend`: a
 *   hit, decided at the metapage's next reference or when it leaves the filter).  A decision
 *   writes that slot in place (a read-modify-write), so records are in reference order by
 *   construction: no heap.  Slots leave from the oldest while it has no size undecided; a slot
 *   with a mask goes out as a record.
 * - **A full window.**  When reference n needs slot n mod W and the oldest slot n - W still has
 *   sizes undecided, those sizes keep it now (as mt_reduce's force_oldest does when its heap is
 *   full: keeping more than the rule asks is exact, docs/metapaging.md Theorem) and it leaves.
 *   The filter entry is not touched: an entry whose pending reference is older than the window
 *   (last < the oldest slot) knows it was kept, and takes t1 = last at its next decision.
 * - **Per size, block RAM.**  Entries {metapage, last, t1, pend}, recency links {prev, next}
 *   (head and tail registers per size) and chain links {hnext} in separate memories, so that a
 *   splice writes one neighbour's link in one clock; buckets (the first entry of each chain; 2 k_i
 *   rounded up to a power of two, bucket (p ^ p >> 18 ^ p >> 36) & (2^hbits - 1)): no probing, and
 *   a deletion walks its chain to the predecessor.
 *
 * Timing (one operation on one single-ported RAM a clock, the RAMs used one after the other; the
 * reference's first operation in the clock the engine takes it from the queue): a full window's
 * forced slot first (its read-modify-write, 2), then at each size the reference changes (those up
 * to the highest bit in which its page differs from the last reference's) a bucket read, one read
 * per chain entry compared, and on a hit with a pending reference inside the window that slot's
 * read-modify-write (2) and a list move (1 when already the head, else 3 or 4); on a miss with the
 * filter full the tail's read, its pending slot's read-modify-write, its chain deletion (bucket
 * read, the predecessors' reads, one write), its unlink (0 or 1), a bucket re-read; then the
 * bucket write and the push (1 or 2); last, the reference's own slot write (1).  The release
 * engine runs beside the filters (its own read port): it reads the oldest decided slot, one a
 * clock, from the clock after the write that decided it (or wrote it), and the slot's record
 * leaves in the clock after that read (`rec_clock` while the sink has it).
 *
 * Accesses come at most one a clock.  A repeat of the last 4 KiB page and a settled alternation's
 * step cost nothing (flip-flops compare them every clock).  Other accesses wait in a queue of Q
 * references (an alternation's end needs two: the replayed step and the new page) while the
 * filters are busy; an access that finds the queue without room is *lost*: not taken at all (the
 * front's state unchanged), counted in `lost`, so the records are the exact reduction of the
 * accesses taken. */
#ifndef MT_UNIT_REDUCE_H
#define MT_UNIT_REDUCE_H

#include <stdint.h>

#include "mt_reduce.h"

#define MT_URD_NIL UINT32_MAX
#define MT_URD_UNKNOWN UINT64_MAX /* a clock the model does not know (the session's end) */

typedef struct {
    uint64_t page, last, t1; /* metapage; sequence numbers of its last and last kept reference */
    uint32_t prev, next;     /* recency list (MT_URD_NIL at the ends) */
    uint32_t hnext;          /* hash chain */
    uint8_t pend;            /* its last reference is undecided */
} mt_urd_entry;

typedef struct {
    uint32_t k, n, head, tail, hbits;
    uint32_t *bucket;        /* 1 << hbits chain heads */
    mt_urd_entry *e;
    uint64_t evicted_last;   /* E: newest `last` of an evicted entry (0: none) */
} mt_urd_filter;

typedef struct {
    uint64_t cycle, page;    /* the reference's cycle and 4 KiB page */
    uint64_t ready;          /* the clock of the write that decided it at its last size */
    uint16_t mask, pend;     /* sizes that keep it; sizes still undecided */
    uint8_t rw;
} mt_urd_slot;

typedef struct {
    uint64_t cycle, page;    /* the reference (a replayed step's cycle is its own) */
    uint64_t at;             /* the cycle it entered the queue */
    uint8_t rw;
} mt_urd_req;

typedef struct {
    uint64_t budget;
    uint32_t wslots, qcap;   /* W (a power of two), Q */
    uint64_t ready_at;       /* accesses before this clock are lost (the unit's bucket clear) */
    mt_urd_filter f[MT_REDUCE_SIZES];
    /* the front (flip-flops): last two distinct 4 KiB pages + 1 (0: none), the alternation */
    uint64_t last_page, prev_page;
    uint32_t alt_steps;
    int alt_ok, skipped_valid;
    uint64_t skipped_cycle, skipped_page;
    unsigned skipped_rw;
    /* the queue of references waiting for the filters, and when the filters are free */
    mt_urd_req *q;
    uint32_t qhead, qnum;
    uint64_t busy_until;
    uint64_t last_ref;       /* 4 KiB page of the last reference through the filters + 1 */
    /* the window: slots of sequence numbers [whead, seq) */
    mt_urd_slot *w;
    uint64_t seq, whead;
    mt_reduce_sink sink;
    void *ctx;
    /* the release engine: the clock of its last slot read; rec_clock is the clock in which the
     * record the sink is being given leaves (MT_URD_UNKNOWN for those the session's end decides,
     * whose clocks depend on the end's walk, which the model does not time) */
    uint64_t rel_clock, rec_clock;
    /* counts */
    uint64_t accesses, lost, refs, records, forced, kept[MT_REDUCE_SIZES];
    uint64_t clocks, max_clocks; /* filter clocks in all, and the most one reference took */
    uint64_t hist[8];            /* references by clocks: 1-4, 5-8, 9-16, 17-32, ..., > 256 */
} mt_unit_reduce;

/* 0, or -1: budget as mt_reduce_init wants it, W a power of two from 2 to 2^20, Q from 2 to
 * 2^20 (else -1), or out of memory. */
int mt_urd_init(mt_unit_reduce *u, uint64_t budget, uint32_t wslots, uint32_t qcap,
                mt_reduce_sink sink, void *ctx);
/* mt_urd_free + mt_urd_init on a path made by mt_urd_init, keeping its buffers when the shape
 * (budget, W, Q) is the same (a unit's next reduce session: no allocation).  0, or -1 as init. */
int mt_urd_restart(mt_unit_reduce *u, uint64_t budget, uint32_t wslots, uint32_t qcap,
                   mt_reduce_sink sink, void *ctx);
void mt_urd_free(mt_unit_reduce *u);
/* One access at `cycle` (strictly increasing from call to call): 1 when taken (a repeat too),
 * 0 when lost. */
int mt_urd_access(mt_unit_reduce *u, uint64_t cycle, uint64_t addr, unsigned rw);
/* Runs the queued references whose first clock is at most `cycle` (their records go to the sink,
 * with rec_clock set): for a caller that clocks the path (the trace unit, mt_unit_rd.c). */
void mt_urd_advance(mt_unit_reduce *u, uint64_t cycle);
/* The number of buckets of all sizes (2 k_i each, rounded up to a power of two): the clocks the
 * RTL's bucket clear takes at a session's start. */
uint64_t mt_urd_buckets(const mt_unit_reduce *u);
/* The session's end in the unit, timed as mt_tu_reduce does it: flush_i rises at clock f0 (no
 * access from then on).  Once the queue is empty and the engine idle (clock E >= f0, and the
 * bucket clear done), a skipped step is pushed (E + 1) and runs from E + 2; then the walk: per
 * size, per entry in entry order, a read and a check (2 clocks) and, for an entry whose pending
 * reference is still in the window, its slot's write (1); a clock per size after its entries.
 * All records go to the sink with their clocks; returns the first clock at which the module is
 * idle (the walk done, every slot released and the last record out). */
uint64_t mt_urd_finish_at(mt_unit_reduce *u, uint64_t f0);
/* End of the trace: the queue drains, a skipped step is replayed, every pending reference is
 * kept, and all records go to the sink. */
void mt_urd_finish(mt_unit_reduce *u);

#endif
