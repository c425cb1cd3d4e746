/* The exact reduction filter of the trace unit's reduce mode (docs/trace-unit.md section 9,
 * proof in docs/metapaging.md "Exact reduction").
 *
 * One small LRU filter per metapage size s = 4 KiB << i (i = 0..9: 4 KiB .. 2 MiB) with
 * k_i = max(1, B / s) entries, B the reduction budget in bytes.  Each filter runs Kaplan,
 * Smaragdakis and Wilson's Safely-Allowed-Drop rule on line: a reference t2 to a metapage is
 * dropped iff the metapage's next reference t3 comes with fewer than k_i distinct other
 * metapages referenced since t1, its last kept reference.  The decision for t2 is taken at t3
 * (or when the metapage leaves the filter: kept), so a kept reference may be emitted late; the
 * output stage puts records back into reference order (by cycle) and merges the sizes that keep
 * the same reference into one record with a size mask.  For size s the records whose mask has
 * bit i, in cycle order, give exactly the full trace's LRU and OPT fault counts for every
 * memory of at least k_i metapages (every budget >= max(B, s)).
 *
 * The decision needs no count: fewer than k_i distinct other metapages were referenced since t1
 * exactly when no metapage referenced after t1 has left the filter, i.e. when E (the newest
 * last-reference time of any entry that left) is at most t1.
 *
 * Hardware shape: per size a k_i-entry RAM {page, ref, last, t1, pending, rw, prev, next}, a
 * hash table of page -> entry (2 k_i slots at least, linear probing), the list's head and tail,
 * and E; one register for the MRU page of all sizes (size i's MRU metapage is its >> i).  Work
 * per access: one XOR against the MRU register, whose highest set bit says which sizes see a
 * change (the others a repeat, which changes nothing); at each of those, a hash probe, one
 * compare (E > t1), a list splice, and on a miss the tail's eviction (one hash deletion).
 * Records leave in reference order through a reorder stage: a FIFO for the references kept as
 * they happen, a small heap for those kept late (a pending reference waits at most until its
 * metapage leaves the filter). */
#ifndef MT_REDUCE_H
#define MT_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#define MT_REDUCE_SIZES 10          /* 4 KiB .. 2 MiB */
#define MT_REDUCE_BUDGET_MIN 4096u  /* B: at least one 4 KiB page */
#define MT_REDUCE_BUDGET_MAX (UINT64_C(1) << 30) /* 1 GiB: 256 Ki entries at 4 KiB */
#define MT_REDUCE_HEAP_LIMIT 65536u /* records waiting in the reorder stage (32 bytes each) */
/* why 16 MiB: docs/metapaging.md "The default B" (the Linux workload's trace per budget) */
#define MT_REDUCE_DEFAULT_BUDGET (UINT64_C(16) << 20)

/* A record: the reference at `cycle` to the 4 KiB page `page` (addr >> 12), kept for every size
 * whose bit is set in `mask` (bit i: 4 KiB << i). */
typedef void (*mt_reduce_sink)(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask);

/* One entry of a filter: what a reference reads and writes of it, in one place (32 bytes: two
 * entries to a cache line).  A reference writes `last` and `refw`, two stores: the 4 KiB page of
 * the reference, whether it waits undecided and its R/W share one word with the hot flag. */
typedef struct {
    uint64_t page;          /* metapage */
    uint64_t last, t1;      /* times of its last reference and of its last kept one */
    uint64_t refw;          /* ref << 3 | hot << 2 | pend << 1 | rw (MT_REDUCE_REF_*): */
    /* ref: the 4 KiB page of its last reference; pend: that reference not yet decided; rw: its
     * R/W; hot: in a large filter, in the hot group (mt_reduce_filter.hot), not its list (a small
     * filter has no group and no list: the flag is set at every reference there, and nothing
     * reads it) */
} mt_reduce_entry;
#define MT_REDUCE_REF_RW 1u
#define MT_REDUCE_REF_PEND 2u
#define MT_REDUCE_REF_HOT 4u
#define MT_REDUCE_REF_SHIFT 3
static inline uint64_t mt_reduce_entry_ref(const mt_reduce_entry *x) { return x->refw >> MT_REDUCE_REF_SHIFT; }
static inline unsigned mt_reduce_entry_rw(const mt_reduce_entry *x) { return (unsigned)(x->refw & MT_REDUCE_REF_RW); }
static inline int mt_reduce_entry_pend(const mt_reduce_entry *x) { return (x->refw & MT_REDUCE_REF_PEND) != 0; }
static inline int mt_reduce_entry_hot(const mt_reduce_entry *x) { return (x->refw & MT_REDUCE_REF_HOT) != 0; }

/* An entry's place in the recency list (apart from the entries: a splice touches its neighbours'
 * links only, which stay few cache lines).  The list is circular through a sentinel, link[k]:
 * its next is the MRU entry, its prev the LRU one, so a splice has no branch. */
typedef struct {
    uint32_t prev, next;    /* entry indices */
} mt_reduce_link;

/* A *small* filter has no hash table and no recency list: k <= MT_REDUCE_SMALL_K, or above size 0
 * k <= MT_REDUCE_HOT (mt_reduce_init says why).  A large filter's hot group has at most
 * MT_REDUCE_HOT entries and fewer than k (hot_cap: the same for every large filter). */
#define MT_REDUCE_SMALL_K 16
#define MT_REDUCE_HOT 64
#define MT_REDUCE_SLOT_BITS 19 /* a slot: metapage << 19 | entry + 1 (k <= 2^18 entries) */

typedef struct {
    uint32_t k, n;          /* entries, entries in use */
    mt_reduce_entry *e;
    mt_reduce_link *link;   /* k + 1: the entries' and the sentinel's */
    /* The MRU end of the recency order, apart from the list: up to hot_cap entries, all more
     * recent than every entry in the list, in no order (their `last` gives it).  A reference to
     * one of them changes no link; one to a list entry moves it here, and when the group is full
     * the group's oldest goes to the list's front (lib/mt_reduce.c "the hot group"). */
    uint32_t hot[MT_REDUCE_HOT], nhot;
    uint32_t hot_cap;       /* the group's size when full (mt_reduce.nhold); 0: a small filter */
    uint64_t *slot;         /* metapage -> entry, open addressing, hmask + 1 slots (0: empty);
                             * the metapage is in the slot, so a probe reads no entry */
    uint32_t hmask;
    /* a small filter (the large sizes: 2 entries at 2 MiB for B = 4 MiB): no hash, the
     * entries' metapages side by side, found by comparing them all (cheaper than a hash probe
     * and its deletion on every miss, which are most references there), and no recency list
     * either: the LRU entry is the one with the smallest `last` (distinct per entry), found by
     * the same kind of scan on a miss, so a hit only writes its entry */
    uint64_t small[MT_REDUCE_HOT];
    uint64_t evicted_last;  /* E: max `last` of an evicted entry (0: none; cycles start at 1 inside) */
    uint32_t hint;          /* the oldest pending entry last found, and its `last` (lib/mt_reduce.c */
    uint64_t hint_last;     /* oldest_pending: still the answer while both are unchanged) */
    uint64_t gen;           /* misses so far: what can end a plain hit's conditions (mt_reduce_hold) */
} mt_reduce_filter;

/* The hold set: the last nhold (mt_reduce.nhold) distinct 4 KiB pages through the filters, each with its
 * metapages' entries at every size.  A reference to one of them is a *plain hit* at every size
 * (docs/metapaging.md "The hold set") when each entry is in its filter, E <= t1 (no keep: the
 * rule drops it) and, in a large filter, in the hot group (no link moves): then all a reference
 * changes is each reached entry's last and refw, two stores a size, with no search.
 * Only a miss can end those conditions (a miss moves E and replaces an entry; a keep only raises
 * t1; the hot groups hold the metapages of the last nhold <= hot_cap distinct pages), so a page's
 * check holds until its filters' miss counts (`gen`) move.  The slots' pages are in
 * mt_reduce.hold_page, side by side for the scan that finds a page. */
#define MT_REDUCE_HOLD MT_REDUCE_HOT
#define MT_REDUCE_HOLD_MAP 256
typedef struct {
    uint64_t t;             /* its last reference through the filters (the oldest slot is reused) */
    uint64_t gen;           /* mt_reduce.gen when last checked */
    uint32_t bad;           /* bit i: at size i a reference would not be a plain hit */
    uint64_t fgen[MT_REDUCE_SIZES];      /* f[i].gen when size i was checked */
    mt_reduce_entry *ep[MT_REDUCE_SIZES]; /* its metapage's entry at size i (when not bad) */
} mt_reduce_hold;

/* A record waiting in the reorder stage: 16 bytes (page << 11 | mask << 1 | rw in one word). */
typedef struct {
    uint64_t cycle, word;
} mt_reduce_rec;

typedef struct {
    uint64_t budget;
    mt_reduce_filter f[MT_REDUCE_SIZES];
    /* k falls as the size grows: sizes 0..nbig-1 are large (a hash table, a recency list and a
     * hot group), the others small, sizes from `one` on a single entry */
    unsigned nbig, one;
    /* the 4 KiB page of the last reference through the filters + 1 (0: none): size i's MRU
     * metapage is its >> i, so a change of page reaches only the sizes up to its highest
     * changed bit (the others see a repeat, which changes nothing) */
    uint64_t last_ref;
    /* per entry of size 0 (a 4 KiB page), MT_REDUCE_SIZES entry indices: at [i] the entry its
     * metapage at size i had when the page was last referenced, a hint that filters_ref checks
     * (the entry still holds that metapage) before it searches: one probe for all sizes */
    uint32_t *up;
    mt_reduce_hold hold[MT_REDUCE_HOLD];
    uint64_t hold_page[MT_REDUCE_HOLD]; /* slot j's 4 KiB page + 1 (0: an empty slot) */
    unsigned nhold;         /* slots in use: MT_REDUCE_HOLD, or fewer when a large filter's k - 1 is less */
    uint8_t hold_map[MT_REDUCE_HOLD_MAP]; /* by a hash of a page: its slot + 1, a hint (0: none) */
    uint64_t gen;           /* misses so far at all sizes (the sum of f[i].gen) */
    uint64_t last_page;     /* the 4 KiB page of the last access + 1 (0: none) */
    uint64_t prev_page;     /* the distinct 4 KiB page before it + 1 (0: none) */
    /* A settled alternation x y x y ... (instruction fetches and data in two pages) changes no
     * decision after its first two steps: those accesses are skipped, the last one remembered
     * and replayed when the alternation ends (docs/metapaging.md "Alternations"). */
    uint32_t alt_steps;
    int alt_ok, skipped_valid;
    uint64_t skipped_cycle, skipped_page;
    unsigned skipped_rw;
    /* The reorder stage.  A reference kept as it happens (a miss) comes in reference order:
     * those wait in a FIFO (`now`, a ring of nowcap entries, the sizes that keep the same
     * reference merged into one); a reference kept late (decided at its metapage's next
     * reference, or as it leaves) waits in a binary min-heap by cycle (`late`).  Records leave
     * from the two merged. */
    mt_reduce_rec *now, *late;
    size_t nowhead, nownum, nowcap, nlate, caplate;
    size_t nheap;           /* references waiting (one per size that keeps one) */
    size_t since_flush;
    size_t heap_limit;      /* beyond this many waiting references the oldest undecided one is
                               kept early (always exact); MT_REDUCE_HEAP_LIMIT, tests lower it */
    mt_reduce_sink sink;
    void *ctx;
    int oom;
    /* counts */
    uint64_t accesses, records, kept[MT_REDUCE_SIZES], alt_skipped, forced;
    uint64_t held;          /* page changes through the filters that were plain hits (the hold set) */
} mt_reduce;

/* k for size index i and budget B. */
uint32_t mt_reduce_k(uint64_t budget, unsigned i);
/* 0, or -1 (budget outside [MT_REDUCE_BUDGET_MIN, MT_REDUCE_BUDGET_MAX] or not a multiple of
 * 4 KiB, or out of memory). */
int mt_reduce_init(mt_reduce *r, uint64_t budget, mt_reduce_sink sink, void *ctx);
void mt_reduce_free(mt_reduce *r);
/* One access; cycles strictly increase from call to call (one access per cycle, cycle >= 0). */
void mt_reduce_access(mt_reduce *r, uint64_t cycle, uint64_t addr, unsigned rw);
/* 1 when the accesses so far end in a settled alternation between the 4 KiB pages *last (the last
 * access's) and *other: its further steps change nothing but the last one, which
 * mt_reduce_access skips and replays when the alternation ends; a caller that filters accesses
 * ahead of it (the CPU's page filter) may then hold those steps back and hand over only the last
 * two (their order and stamps exact): the same records, byte for byte.  0 otherwise. */
int mt_reduce_settled(const mt_reduce *r, uint64_t *last, uint64_t *other);
/* mt_reduce_settled in line, for a caller that asks after every page change (the recorder). */
static inline int mt_reduce_settled_inline(const mt_reduce *r, uint64_t *last, uint64_t *other)
{
    /* alt_steps > 2 with alt_ok is where mt_reduce_access starts skipping; a repeat of the last
     * page since then leaves both as they are */
    if (!r->alt_ok || r->alt_steps <= 2 || !r->last_page || !r->prev_page)
        return 0;
    *last = r->last_page - 1;
    *other = r->prev_page - 1;
    return 1;
}
/* A run of accesses in one call (the CPU's page log, emu/cpu/cpu.h cpu_set_page_sink): access j
 * at cycle[j] (increasing, as mt_reduce_access's) to the address word[j] >> shift, a write when
 * word[j] bit 0 is set; those outside [lo, hi) (not guest RAM) change nothing.  After each one it
 * asks mt_reduce_settled, as a caller of mt_reduce_access that arms its page filter's pair would:
 * returns j + 1 after the first access j at which it holds (pair[0], pair[1]: its last and other
 * page) or at which memory ran out (oom), else n (pair NULL: it does not ask).  The same state and records as n calls of
 * mt_reduce_access up to there (docs/metapaging.md "The page log"). */
size_t mt_reduce_access_run(mt_reduce *r, const uint64_t *cycle, const uint64_t *word, size_t n, unsigned shift,
                            uint64_t lo, uint64_t hi, uint64_t pair[2]);
/* End of the trace: every reference still pending is kept; all records go to the sink. */
void mt_reduce_finish(mt_reduce *r);

#endif
