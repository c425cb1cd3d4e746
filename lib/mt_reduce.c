/* The reduce mode's exact filter: see mt_reduce.h and docs/metapaging.md "Exact reduction". */
#include "mt_reduce.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* here, not in the header, which C++ (the RTL co-simulation) includes too */
_Static_assert(MT_REDUCE_HOLD <= 255, "hold_map: a slot + 1 in a byte");

/* No hash table and no list (mt_reduce.h): a large filter has a hot group (mt_reduce_init) */
static inline bool filter_small(const mt_reduce_filter *f)
{
    return !f->hot_cap;
}

/* k zeroed entries, each in one cache line (two to a line: a reference's stores touch one) */
static mt_reduce_entry *entries_alloc(uint32_t k)
{
    _Static_assert(sizeof(mt_reduce_entry) == 32, "two entries to a 64-byte line");
    const size_t bytes = ((size_t)k * sizeof(mt_reduce_entry) + 63) & ~(size_t)63;
    mt_reduce_entry *e = aligned_alloc(64, bytes);
    if (e)
        memset(e, 0, bytes);
    return e;
}

uint32_t mt_reduce_k(uint64_t budget, unsigned i)
{
    uint64_t k = budget >> (12 + i);
    return k ? (uint32_t)k : 1;
}

int mt_reduce_init(mt_reduce *r, uint64_t budget, mt_reduce_sink sink, void *ctx)
{
    memset(r, 0, sizeof *r);
    if (budget < MT_REDUCE_BUDGET_MIN || budget > MT_REDUCE_BUDGET_MAX || budget % 4096)
        return -1;
    r->budget = budget;
    r->heap_limit = MT_REDUCE_HEAP_LIMIT;
    r->sink = sink;
    r->ctx = ctx;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_reduce_filter *f = &r->f[i];
        f->k = mt_reduce_k(budget, i);
        f->e = entries_alloc(f->k);
        f->link = calloc(f->k + 1, sizeof *f->link);
        uint32_t cap = 4;
        while (cap < 2 * f->k)
            cap *= 2;
        f->hmask = cap - 1;
        f->slot = calloc(cap, sizeof *f->slot);
        if (!f->e || !f->link || !f->slot) {
            mt_reduce_free(r);
            return -1;
        }
        f->link[f->k] = (mt_reduce_link){.prev = f->k, .next = f->k}; /* empty */
        f->hint = UINT32_MAX;
    }
    /* A filter is small (mt_reduce.h) at k <= MT_REDUCE_SMALL_K, and above size 0 up to
     * MT_REDUCE_HOT: there a search is rare (the cross-size hint finds the entry) and a scan on a
     * miss cheap, and a large filter's hot group, of at most k - 1 entries, would bound the hold
     * set below MT_REDUCE_HOLD.  Size 0 has no hint: it keeps its hash table from 17 entries on. */
    for (r->nbig = 0; r->nbig < MT_REDUCE_SIZES && r->f[r->nbig].k > (r->nbig ? MT_REDUCE_HOT : MT_REDUCE_SMALL_K);
         r->nbig++)
        ;
    for (r->one = 0; r->one < MT_REDUCE_SIZES && r->f[r->one].k >= 2; r->one++)
        ;
    /* The hold set's proof (mt_reduce.h) needs it no larger than every large filter's hot group,
     * and a full large filter's list not empty beside its group: a group of at most k - 1 entries
     * (k > MT_REDUCE_SMALL_K, so at least MT_REDUCE_SMALL_K).  k falls as the size grows: the last
     * large filter's is the least. */
    _Static_assert(MT_REDUCE_HOT >= MT_REDUCE_SMALL_K, "the small filters are a suffix of the sizes");
    r->nhold = MT_REDUCE_HOLD;
    if (r->nbig && r->f[r->nbig - 1].k - 1 < r->nhold)
        r->nhold = r->f[r->nbig - 1].k - 1;
    for (unsigned i = 0; i < r->nbig; i++)
        r->f[i].hot_cap = r->nhold;
    r->up = calloc((size_t)r->f[0].k * MT_REDUCE_SIZES, sizeof *r->up);
    r->nowcap = 1024;
    r->now = malloc(r->nowcap * sizeof *r->now);
    if (!r->now || !r->up) {
        mt_reduce_free(r);
        return -1;
    }
    return 0;
}

void mt_reduce_free(mt_reduce *r)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        free(r->f[i].e);
        free(r->f[i].link);
        free(r->f[i].slot);
    }
    free(r->now);
    free(r->late);
    free(r->up);
    memset(r, 0, sizeof *r);
}

/* ---- the reorder stage ------------------------------------------------------------------ */

static inline uint64_t rec_word(uint64_t page, unsigned mask, unsigned rw)
{
    return page << 11 | (uint64_t)mask << 1 | rw;
}

/* Size i keeps the reference at t (the current one, so later than any record waiting). */
static inline void keep_now(mt_reduce *r, uint64_t t, uint64_t page, unsigned rw, unsigned i)
{
    if (r->nownum) {
        mt_reduce_rec *b = &r->now[(r->nowhead + r->nownum - 1) & (r->nowcap - 1)];
        if (b->cycle == t) { /* another size keeps the same reference */
            b->word |= (uint64_t)1 << (i + 1);
            r->kept[i]++;
            r->nheap++;
            return;
        }
    }
    if (r->nownum == r->nowcap) { /* the ring is full: twice the size, in order from 0 */
        mt_reduce_rec *q = malloc(2 * r->nowcap * sizeof *q);
        if (!q) {
            r->oom = 1;
            return;
        }
        for (size_t j = 0; j < r->nownum; j++)
            q[j] = r->now[(r->nowhead + j) & (r->nowcap - 1)];
        free(r->now);
        r->now = q;
        r->nowhead = 0;
        r->nowcap *= 2;
    }
    r->now[(r->nowhead + r->nownum++) & (r->nowcap - 1)] =
        (mt_reduce_rec){.cycle = t, .word = rec_word(page, 1u << i, rw)};
    r->kept[i]++;
    r->nheap++;
}

/* Size i keeps the reference at `cycle`, decided after it (it may be older than others waiting). */
static void keep_late(mt_reduce *r, uint64_t cycle, uint64_t page, unsigned rw, unsigned i)
{
    if (r->nlate == r->caplate) {
        size_t cap = r->caplate ? r->caplate * 2 : 1024;
        mt_reduce_rec *h = realloc(r->late, cap * sizeof *h);
        if (!h) {
            r->oom = 1;
            return;
        }
        r->late = h;
        r->caplate = cap;
    }
    size_t j = r->nlate++;
    mt_reduce_rec x = {.cycle = cycle, .word = rec_word(page, 1u << i, rw)};
    while (j && r->late[(j - 1) / 2].cycle > x.cycle) {
        r->late[j] = r->late[(j - 1) / 2];
        j = (j - 1) / 2;
    }
    r->late[j] = x;
    r->kept[i]++;
    r->nheap++;
}

/* The heap's smallest record out.  Bottom-up: the hole at the root goes down along the smaller
 * children to a leaf (one compare per level, made without a branch: the children's order is
 * what the host cannot predict), and the heap's last record goes in there and up as far as it
 * must (seldom far: it was a leaf).  Half the compares of sifting the last record down. */
static mt_reduce_rec late_pop(mt_reduce *r)
{
    mt_reduce_rec *h = r->late;
    mt_reduce_rec top = h[0], x = h[--r->nlate];
    size_t n = r->nlate, j = 0;
    if (!n)
        return top;
    for (;;) {
        size_t c = 2 * j + 1;
        if (c + 1 < n) {
            c += h[c + 1].cycle < h[c].cycle;
        } else if (c >= n) {
            break;
        }
        h[j] = h[c];
        j = c;
    }
    while (j && h[(j - 1) / 2].cycle > x.cycle) {
        h[j] = h[(j - 1) / 2];
        j = (j - 1) / 2;
    }
    h[j] = x;
    return top;
}

/* Hands every record with a cycle below `limit` to the sink, in cycle order, the sizes that keep
 * the same reference merged into one mask. */
static void release_below(mt_reduce *r, uint64_t limit)
{
    for (;;) {
        uint64_t cn = r->nownum ? r->now[r->nowhead].cycle : UINT64_MAX;
        uint64_t cl = r->nlate ? r->late[0].cycle : UINT64_MAX;
        uint64_t c = cn < cl ? cn : cl;
        if (c >= limit)
            break;
        mt_reduce_rec a = {.cycle = c};
        if (cn == c) {
            a = r->now[r->nowhead];
            r->nowhead = (r->nowhead + 1) & (r->nowcap - 1);
            r->nownum--;
        }
        while (r->nlate && r->late[0].cycle == c) /* the same reference: the same page and R/W */
            a.word |= late_pop(r).word;
        unsigned mask = (unsigned)(a.word >> 1) & ((1u << MT_REDUCE_SIZES) - 1);
        for (unsigned m = mask; m; m &= m - 1) /* one waiting reference per size */
            r->nheap--;
        r->records++;
        if (r->sink)
            r->sink(r->ctx, a.cycle - 1, a.word >> 11, (unsigned)(a.word & 1), mask);
    }
}

/* Filter f's pending entry with the oldest last reference, or UINT32_MAX (none).  The recency
 * list is in order of `last` (a reference moves its entry to the front), so it is the first
 * pending entry from the LRU end: usually a few steps, where a scan of the entries read them all. */
static uint32_t oldest_pending(mt_reduce_filter *f)
{
    if (filter_small(f)) { /* no list there (filter_ref): the smallest `last` of a pending entry */
        uint32_t best = UINT32_MAX;
        for (uint32_t j = 0; j < f->n; j++)
            if (mt_reduce_entry_pend(&f->e[j]) && (best == UINT32_MAX || f->e[j].last < f->e[best].last))
                best = j;
        return best;
    }
    /* The last answer still holds while that entry is pending with the same `last`: it was not
     * referenced since (a reference moves `last`), and the entries behind it in the list, none of
     * them pending then, can only have left or moved to the front (pending needs a reference).
     * The LRU ends of the large filters hold long runs of decided entries, walked at every flush
     * and forced keep otherwise. */
    if (f->hint < f->k && mt_reduce_entry_pend(&f->e[f->hint]) && f->e[f->hint].last == f->hint_last)
        return f->hint;
    uint32_t best = UINT32_MAX;
    for (uint32_t e = f->link[f->k].prev; e != f->k && best == UINT32_MAX; e = f->link[e].prev)
        if (mt_reduce_entry_pend(&f->e[e]))
            best = e;
    if (best == UINT32_MAX) /* none in the list: the hot group's oldest pending entry, if any */
        for (uint32_t j = 0; j < f->nhot; j++)
            if (mt_reduce_entry_pend(&f->e[f->hot[j]]) && (best == UINT32_MAX || f->e[f->hot[j]].last < f->e[best].last))
                best = f->hot[j];
    if (best != UINT32_MAX) {
        f->hint = best;
        f->hint_last = f->e[best].last;
    }
    return best;
}

/* The oldest reference any filter may still keep: records before it are final. */
static uint64_t watermark(mt_reduce *r)
{
    uint64_t w = UINT64_MAX;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        uint32_t j = oldest_pending(&r->f[i]);
        if (j != UINT32_MAX && r->f[i].e[j].last < w)
            w = r->f[i].e[j].last;
    }
    return w;
}

/* The reorder stage is full: the oldest undecided reference (which holds everything newer back)
 * is kept now instead of when its metapage is next referenced or leaves. Keeping more than the
 * rule requires is exact (docs/metapaging.md, Theorem), so the stage stays bounded whatever the
 * trace does (a metapage referenced twice and then held in a filter that never misses). */
static int force_oldest(mt_reduce *r)
{
    unsigned bi = 0;
    uint32_t bj = UINT32_MAX;
    uint64_t best = UINT64_MAX;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) { /* the smallest size of the oldest, as a scan */
        uint32_t j = oldest_pending(&r->f[i]);
        if (j != UINT32_MAX && r->f[i].e[j].last < best) {
            best = r->f[i].e[j].last;
            bi = i;
            bj = j;
        }
    }
    if (bj == UINT32_MAX)
        return 0;
    mt_reduce_entry *x = &r->f[bi].e[bj];
    keep_late(r, x->last, mt_reduce_entry_ref(x), mt_reduce_entry_rw(x), bi);
    x->t1 = x->last;
    x->refw &= ~(uint64_t)MT_REDUCE_REF_PEND;
    r->forced++;
    return 1;
}

/* ---- one filter ------------------------------------------------------------------------- */

static inline uint32_t hash_of(const mt_reduce_filter *f, uint64_t p)
{
    return (uint32_t)((p * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & f->hmask;
}

#define SLOT_ENTRY_MASK ((UINT64_C(1) << MT_REDUCE_SLOT_BITS) - 1)

/* Entry of metapage p, or UINT32_MAX (not in the filter). */
static inline __attribute__((always_inline)) uint32_t lookup(const mt_reduce_filter *f, uint64_t p, bool small)
{
    if (small) {
        for (uint32_t j = 0; j < f->n; j++)
            if (f->small[j] == p)
                return j;
        return UINT32_MAX;
    }
    for (uint32_t h = hash_of(f, p);; h = (h + 1) & f->hmask) {
        uint64_t v = f->slot[h];
        if (!v)
            return UINT32_MAX;
        if (v >> MT_REDUCE_SLOT_BITS == p)
            return (uint32_t)(v & SLOT_ENTRY_MASK) - 1;
    }
}

static void hash_insert(mt_reduce_filter *f, uint64_t p, uint32_t e)
{
    if (filter_small(f)) {
        f->small[e] = p;
        return;
    }
    uint32_t h = hash_of(f, p);
    while (f->slot[h])
        h = (h + 1) & f->hmask;
    f->slot[h] = p << MT_REDUCE_SLOT_BITS | (e + 1);
}

/* Linear probing's deletion: later entries of the same cluster move back into the gap. */
static void hash_delete(mt_reduce_filter *f, uint64_t p)
{
    if (filter_small(f))
        return; /* the entry's metapage is overwritten by the one that replaces it */
    uint32_t h = hash_of(f, p);
    while (f->slot[h] >> MT_REDUCE_SLOT_BITS != p)
        h = (h + 1) & f->hmask;
    uint32_t gap = h;
    for (uint32_t j = (gap + 1) & f->hmask; f->slot[j]; j = (j + 1) & f->hmask) {
        uint32_t home = hash_of(f, f->slot[j] >> MT_REDUCE_SLOT_BITS);
        /* the entry at j may fill the gap iff its home is not in (gap, j] (cyclically) */
        if (((j - home) & f->hmask) >= ((j - gap) & f->hmask)) {
            f->slot[gap] = f->slot[j];
            gap = j;
        }
    }
    f->slot[gap] = 0;
}

static inline void list_unlink(mt_reduce_filter *f, uint32_t e)
{
    uint32_t p = f->link[e].prev, n = f->link[e].next;
    f->link[p].next = n;
    f->link[n].prev = p;
}

static inline void list_push_front(mt_reduce_filter *f, uint32_t e)
{
    uint32_t h = f->link[f->k].next;
    f->link[e] = (mt_reduce_link){.prev = f->k, .next = h};
    f->link[h].prev = e;
    f->link[f->k].next = e;
}

/* ---- the hot group ----
 * The recency order of a large filter is its list (LRU end to front) followed by its hot group
 * (in order of `last`).  Every entry of the group is more recent than every entry of the list, so
 * the group's oldest, demoted to the list's front, keeps the list in order, and the LRU entry is
 * the list's LRU one (the group holds at most hot_cap < k entries: a full filter's list is not empty).  Most
 * page changes return to one of the last few metapages, which then changes no link. */

/* Entry e (in the list, or new) becomes the MRU one (the caller's store of its `refw` sets its
 * hot flag). */
static inline void hot_enter(mt_reduce_filter *f, uint32_t e)
{
    if (f->nhot < f->hot_cap) {
        f->hot[f->nhot++] = e;
        return;
    }
    /* the group's oldest goes to the list's front: a scan without a branch per slot (which the
     * host cannot predict), its count known, the oldest `last` in a local (one load of an entry a
     * slot) */
    const mt_reduce_entry *x = f->e;
    const uint32_t *hot = f->hot;
    uint32_t o = 0;
    uint64_t oldest = x[hot[0]].last;
    for (uint32_t j = 1; j < f->hot_cap; j++) {
        const uint64_t l = x[hot[j]].last;
        const bool older = l < oldest;
        oldest = older ? l : oldest;
        o = older ? j : o;
    }
    f->e[hot[o]].refw &= ~(uint64_t)MT_REDUCE_REF_HOT;
    list_push_front(f, hot[o]);
    f->hot[o] = e;
}

/* A small filter's LRU entry: the one with the oldest last reference (`last` is distinct per
 * entry, one reference per time, so this is the entry the recency list would have at its end). */
static inline uint32_t lru_small(const mt_reduce_filter *f)
{
    uint32_t e = 0;
    uint64_t oldest = f->e[0].last;
    for (uint32_t j = 1; j < f->n; j++)
        if (f->e[j].last < oldest) {
            oldest = f->e[j].last;
            e = j;
        }
    return e;
}

/* A miss of filter i at time t: the reference is kept at once, and when the filter is full the
 * LRU entry leaves (its pending reference kept).  Returns the entry p now has. */
static uint32_t filter_miss(mt_reduce *r, unsigned i, uint64_t t, uint64_t p, uint64_t page4k, unsigned rw)
{
    mt_reduce_filter *f = &r->f[i];
    keep_now(r, t, page4k, rw, i);
    f->gen++; /* E and the entries may change: the hold set's checks at this size are stale */
    r->gen++;
    uint32_t e;
    if (f->n == f->k) {
        e = filter_small(f) ? lru_small(f) : f->link[f->k].prev; /* the LRU entry (hot group above) */
        mt_reduce_entry *x = &f->e[e];
        if (mt_reduce_entry_pend(x))
            keep_late(r, x->last, mt_reduce_entry_ref(x), mt_reduce_entry_rw(x), i);
        if (x->last > f->evicted_last)
            f->evicted_last = x->last;
        if (!filter_small(f)) {
            hash_delete(f, x->page);
            list_unlink(f, e);
        }
    } else {
        e = f->n++;
    }
    mt_reduce_entry *x = &f->e[e];
    x->page = p;
    hash_insert(f, p, e);
    x->t1 = t; /* (its refw: filter_ref's store, the reference kept: not pending) */
    return e;
}

/* The reference at time t (cycle + 1) to metapage p of filter i (page4k: its 4 KiB page), which
 * is not the filter's MRU metapage.  `hint`: the entry p had when its 4 KiB page was last here
 * (mt_reduce.up), taken when it still holds p (an entry in use holds one metapage, and no other
 * entry holds that one), else the filter is searched.  Returns p's entry. */
static inline __attribute__((always_inline)) uint32_t filter_ref(mt_reduce *r, unsigned i, uint64_t t, uint64_t p,
                                                                  uint64_t page4k, unsigned rw, bool small,
                                                                  uint32_t hint)
{
    mt_reduce_filter *f = &r->f[i];
    uint32_t e = hint < f->n && f->e[hint].page == p ? hint : lookup(f, p, small);
    uint64_t pend;
    if (e != UINT32_MAX) { /* in the filter: the pending reference t2 (if any) is decided now */
        mt_reduce_entry *x = &f->e[e];
        if (f->evicted_last > x->t1 && mt_reduce_entry_pend(x)) { /* rarely: E > t1 is seldom true */
            /* k distinct others came since t1 (one of them left the filter): t2 is kept */
            keep_late(r, x->last, mt_reduce_entry_ref(x), mt_reduce_entry_rw(x), i);
            x->t1 = x->last;
        } /* else fewer than k distinct others since t1: t2 is dropped (SAD) */
        pend = MT_REDUCE_REF_PEND;
        if (!small && !mt_reduce_entry_hot(x)) {
            list_unlink(f, e);
            hot_enter(f, e);
        }
    } else {
        e = filter_miss(r, i, t, p, page4k, rw);
        pend = 0; /* kept now */
        if (!small)
            hot_enter(f, e);
    }
    mt_reduce_entry *x = &f->e[e];
    x->last = t;
    x->refw = page4k << MT_REDUCE_REF_SHIFT | MT_REDUCE_REF_HOT | pend | rw;
    return e;
}

/* ---- the hold set (mt_reduce.h mt_reduce_hold) ------------------------------------------ */

/* Size i of slot h (page page4k): true when a reference to its metapage there would be a plain
 * hit (in the filter, E <= t1, and in a large filter in the hot group), with the entry in
 * h->ep[i].  `hint`: an entry that may hold the metapage (mt_reduce.up), taken when it does, else
 * the filter is searched. */
static inline __attribute__((always_inline)) bool hold_check_size(mt_reduce *r, mt_reduce_hold *h, uint64_t page4k,
                                                                  unsigned i, uint32_t hint)
{
    mt_reduce_filter *f = &r->f[i];
    const bool small = filter_small(f);
    const uint64_t p = page4k >> i;
    h->fgen[i] = f->gen;
    uint32_t e = hint < f->n && f->e[hint].page == p ? hint : small ? lookup(f, p, true) : lookup(f, p, false);
    if (e == UINT32_MAX)
        return false;
    mt_reduce_entry *x = &f->e[e];
    if (f->evicted_last > x->t1 || (!small && !mt_reduce_entry_hot(x)))
        return false;
    h->ep[i] = x;
    return true;
}

/* The cross-size hints of page page4k: its size-0 entry's row of mt_reduce.up (NULL: none known;
 * e0 is that entry when it still holds the page). */
static const uint32_t *hold_hints(const mt_reduce *r, uint64_t page4k, uint32_t e0)
{
    return e0 < r->f[0].n && r->f[0].e[e0].page == page4k ? &r->up[(size_t)e0 * MT_REDUCE_SIZES] : NULL;
}

/* All sizes of slot s; e0: its page's size-0 entry if known (UINT32_MAX: search). */
static void hold_check(mt_reduce *r, unsigned s, uint32_t e0)
{
    mt_reduce_hold *h = &r->hold[s];
    const uint64_t page4k = r->hold_page[s] - 1;
    const uint32_t *up = hold_hints(r, page4k, e0);
    h->bad = 0;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        if (!hold_check_size(r, h, page4k, i, i == 0 ? e0 : up ? up[i] : UINT32_MAX))
            h->bad |= 1u << i;
    h->gen = r->gen;
}

/* Slot s's page again, after a miss somewhere: its sizes whose filters missed since are checked
 * again (nothing else ends the conditions: mt_reduce.h). */
static __attribute__((noinline)) bool hold_recheck(mt_reduce *r, unsigned s)
{
    mt_reduce_hold *h = &r->hold[s];
    const uint64_t page4k = r->hold_page[s] - 1;
    const uint32_t e0 = h->bad & 1 ? UINT32_MAX : (uint32_t)(h->ep[0] - r->f[0].e);
    const uint32_t *up = hold_hints(r, page4k, e0);
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        if (h->fgen[i] != r->f[i].gen)
            h->bad = (h->bad & ~(1u << i)) |
                     (uint32_t)!hold_check_size(r, h, page4k, i, i == 0 ? e0 : up ? up[i] : UINT32_MAX) << i;
    h->gen = r->gen;
    return !h->bad;
}

/* Slot h's page is a plain hit at every size now. */
static inline bool hold_ready(mt_reduce *r, const mt_reduce_hold *h)
{
    return h->gen == r->gen ? !h->bad : hold_recheck(r, (unsigned)(h - r->hold));
}

/* hold_map's index of page4k: a multiplicative hash (the low bits alone put pages 1 MiB apart, as
 * kernel and user pages often are, on one entry) */
static inline unsigned hold_map_of(uint64_t page4k)
{
    _Static_assert(MT_REDUCE_HOLD_MAP == 256, "the hash's top 8 bits");
    return (unsigned)((page4k * UINT64_C(0x9e3779b97f4a7c15)) >> 56);
}

/* The slot of page4k, or NULL.  hold_map names the slot that last took a page with its hash;
 * another page with the same hash may have taken it since, so a miss looks at all. */
static inline mt_reduce_hold *hold_find(mt_reduce *r, uint64_t page4k)
{
    uint8_t *m = &r->hold_map[hold_map_of(page4k)];
    unsigned j = *m;
    if (!(j && r->hold_page[j - 1] == page4k + 1)) {
        for (j = r->nhold; j && r->hold_page[j - 1] != page4k + 1; j--)
            ;
        if (!j)
            return NULL;
        *m = (uint8_t)j; /* the next look-up of this page finds it at once */
    }
    mt_reduce_hold *h = &r->hold[j - 1];
    /* opaque to the compiler: else it computes the slot's address from j again at each use (in
     * plain_hit at every size: three host instructions a size, as many as the stores) */
    __asm__("" : "+r"(h));
    return h;
}

/* After a reference to page4k at t the long way: page4k is the newest of the last nhold distinct
 * pages (h: its slot, or NULL: it takes the oldest one's), checked anew. */
static void hold_note(mt_reduce *r, mt_reduce_hold *h, uint64_t page4k, uint64_t t, uint32_t e0)
{
    int s = h ? (int)(h - r->hold) : -1;
    if (s < 0) { /* the oldest slot (an empty one's time is 0): no branch per slot */
        unsigned o = 0;
        uint64_t oldest = r->hold[0].t;
        for (unsigned j = 1; j < r->nhold; j++) {
            const bool older = r->hold[j].t < oldest;
            oldest = older ? r->hold[j].t : oldest;
            o = older ? j : o;
        }
        s = (int)o;
        r->hold_page[s] = page4k + 1;
    }
    r->hold_map[hold_map_of(page4k)] = (uint8_t)(s + 1);
    r->hold[s].t = t;
    hold_check(r, (unsigned)s, e0);
}

/* Every 4096 page changes, or when the reorder stage is over its limit: the records before the
 * oldest undecided reference leave, and the stage is brought back under its limit. */
static __attribute__((noinline)) void flush(mt_reduce *r)
{
    r->since_flush = 0;
    release_below(r, watermark(r));
    /* each forced reference is the oldest undecided one: it and what waited for it leave */
    while (r->nheap > r->heap_limit / 2 && !r->oom && force_oldest(r))
        release_below(r, watermark(r));
}

/* filters_ref the long way: a search and a decision at each size it reaches; then its hold slot. */
static __attribute__((noinline)) void filters_search(mt_reduce *r, uint64_t t, uint64_t page4k, unsigned rw,
                                                     unsigned n, mt_reduce_hold *h)
{
    uint32_t e0 = UINT32_MAX; /* (n = 0: a repeat at every size, so the slot's check searches) */
    if (n) {
        /* the sizes with a hash table and a recency list first (k falls as the size grows), then
         * the small ones: two loops, so that neither asks at every size which kind of filter it has */
        /* size 0 is searched; the others start from the entries their metapages had when this
         * 4 KiB page was last here (most page changes hit at every size they reach) */
        e0 = r->nbig ? filter_ref(r, 0, t, page4k, page4k, rw, false, UINT32_MAX)
                              : filter_ref(r, 0, t, page4k, page4k, rw, true, UINT32_MAX);
        uint32_t *up = &r->up[(size_t)e0 * MT_REDUCE_SIZES];
        unsigned i = 1, nbig = n < r->nbig ? n : r->nbig; /* (a local: the stores below may alias r) */
        for (; i < nbig; i++)
            up[i] = filter_ref(r, i, t, page4k >> i, page4k, rw, false, up[i]);
        for (; i < n; i++)
            up[i] = filter_ref(r, i, t, page4k >> i, page4k, rw, true, up[i]);
    }
    hold_note(r, h, page4k, t, e0);
}

/* A plain hit of slot h's page at the n sizes it reaches: what filter_ref does at each on that
 * hit, without the search (mt_reduce.h mt_reduce_hold).  Unrolled, from the largest size reached
 * down (the entries are distinct, one per filter, so the order of the stores is free): a loop's
 * count and branch per size cost as much as the stores (issue 22). */
static inline __attribute__((always_inline)) void plain_hit(const mt_reduce_hold *h, unsigned n, uint64_t t,
                                                            uint64_t page4k, unsigned rw)
{
    /* the entry's refw as filter_ref leaves it on a hit: pending, hot (a plain hit's entry in a
     * large filter is; a small filter's flag is set at every reference) */
    const uint64_t refw = page4k << MT_REDUCE_REF_SHIFT | MT_REDUCE_REF_HOT | MT_REDUCE_REF_PEND | rw;
#define PLAIN_HIT_SIZE(i)                                                                             \
    case (i) + 1: {                                                                                   \
        mt_reduce_entry *x = h->ep[i];                                                                \
        x->last = t;                                                                                  \
        x->refw = refw;                                                                               \
    }                                                                                                 \
        __attribute__((fallthrough))
    _Static_assert(MT_REDUCE_SIZES == 10, "plain_hit has a case per size");
    switch (n) {
        PLAIN_HIT_SIZE(9);
        PLAIN_HIT_SIZE(8);
        PLAIN_HIT_SIZE(7);
        PLAIN_HIT_SIZE(6);
        PLAIN_HIT_SIZE(5);
        PLAIN_HIT_SIZE(4);
        PLAIN_HIT_SIZE(3);
        PLAIN_HIT_SIZE(2);
        PLAIN_HIT_SIZE(1);
        PLAIN_HIT_SIZE(0);
    default:
        break;
    }
#undef PLAIN_HIT_SIZE
}

/* One access that changes the 4 KiB page, through the filters of the sizes whose metapage it
 * changes (at the others it is a repeat of the MRU metapage: changes no decision, docs). */
static inline __attribute__((always_inline)) void filters_ref(mt_reduce *r, uint64_t cycle, uint64_t page4k, unsigned rw)
{
    uint64_t t = cycle + 1;
    uint64_t diff = r->last_ref ? page4k ^ (r->last_ref - 1) : UINT64_MAX;
    r->last_ref = page4k + 1;
    unsigned top = diff ? 63u - (unsigned)__builtin_clzll(diff) : 0;
    unsigned n = diff ? (top < MT_REDUCE_SIZES ? top + 1 : MT_REDUCE_SIZES) : 0;
    mt_reduce_hold *h = hold_find(r, page4k);
    if (h && hold_ready(r, h)) {
        plain_hit(h, n, t, page4k, rw);
        h->t = t;
        r->held++;
    } else {
        filters_search(r, t, page4k, rw, n, h);
    }
    if (++r->since_flush >= 4096 || r->nheap > r->heap_limit)
        flush(r);
}

/* An alternation of x and y may be skipped when every size sees it as hits: a size whose filter
 * holds one entry only if x and y are the same metapage there. */
static int alternation_ok(const mt_reduce *r, uint64_t x, uint64_t y)
{
    /* the sizes of one entry are those from r->one on (k falls as the size grows), and x and y in
     * one metapage of size r->one are in one metapage of every larger size */
    return r->one >= MT_REDUCE_SIZES || (x >> r->one) == (y >> r->one);
}

static __attribute__((noinline)) void replay_skipped_now(mt_reduce *r)
{
    r->skipped_valid = 0;
    filters_ref(r, r->skipped_cycle, r->skipped_page, r->skipped_rw);
}

/* The skipped alternation step, if any, before the next reference (apart and out of line: an
 * alternation's end is rarer than a page change, and mt_reduce_access keeps one copy of
 * filters_ref) */
static inline void replay_skipped(mt_reduce *r)
{
    if (r->skipped_valid)
        replay_skipped_now(r);
}

/* One access (mt_reduce_access, and each of mt_reduce_access_run's in line). */
static inline __attribute__((always_inline)) void reduce_one(mt_reduce *r, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page4k = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    r->accesses++;
    if (page4k + 1 == r->last_page)
        return; /* the same 4 KiB page again: a repeat at every size */
    if (page4k + 1 == r->prev_page) { /* x y x: one step of an alternation */
        if (r->alt_steps++ == 0)
            r->alt_ok = alternation_ok(r, page4k, r->last_page - 1);
        r->prev_page = r->last_page;
        r->last_page = page4k + 1;
        if (r->alt_ok && r->alt_steps > 2) { /* settled: only the last one matters */
            r->skipped_valid = 1;
            r->skipped_cycle = cycle;
            r->skipped_page = page4k;
            r->skipped_rw = rw & 1;
            r->alt_skipped++;
            return;
        }
    } else {
        r->alt_steps = 0;
        r->prev_page = r->last_page;
        r->last_page = page4k + 1;
    }
    replay_skipped(r);
    filters_ref(r, cycle, page4k, rw & 1);
}

void mt_reduce_access(mt_reduce *r, uint64_t cycle, uint64_t addr, unsigned rw)
{
    reduce_one(r, cycle, addr, rw);
}

size_t mt_reduce_access_run(mt_reduce *r, const uint64_t *cycle, const uint64_t *word, size_t n, unsigned shift,
                            uint64_t lo, uint64_t hi, uint64_t pair[2])
{
    for (size_t j = 0; j < n; j++) {
        const uint64_t addr = word[j] >> shift;
        if (addr >= lo && addr < hi) {
            reduce_one(r, cycle[j], addr, (unsigned)(word[j] & 1));
            if (r->oom)
                return j + 1;
        }
        if (pair && mt_reduce_settled_inline(r, &pair[0], &pair[1]))
            return j + 1;
    }
    return n;
}

int mt_reduce_settled(const mt_reduce *r, uint64_t *last, uint64_t *other)
{
    return mt_reduce_settled_inline(r, last, other);
}

void mt_reduce_finish(mt_reduce *r)
{
    replay_skipped(r);
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_reduce_filter *f = &r->f[i];
        for (uint32_t j = 0; j < f->n; j++)
            if (mt_reduce_entry_pend(&f->e[j])) {
                keep_late(r, f->e[j].last, mt_reduce_entry_ref(&f->e[j]), mt_reduce_entry_rw(&f->e[j]), i);
                f->e[j].refw &= ~(uint64_t)MT_REDUCE_REF_PEND;
            }
    }
    release_below(r, UINT64_MAX);
}
