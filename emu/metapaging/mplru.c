/* Every-budget LRU of one metapage size by stack distances; see mplru.h. */
#include "emu/metapaging/mplru.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SEEN 1u
#define WRITTEN 2u               /* written at least once (the stack algorithm's has_write) */
#define HOST_STORED UINT32_MAX   /* stored_upto of a metapage the emulator itself wrote */

/* Per metapage; one lazily zeroed array, so -m 64G at 4 KiB costs memory only where touched. */
struct mp_state {
    uint32_t left;        /* time it last left the filter; 0 = in the filter or never seen */
    uint32_t maxd;        /* largest depth of its uses since its last write (K + 1 = deeper) */
    uint32_t stored_upto; /* written back for every C in [1, stored_upto]; HOST_STORED = all */
    uint32_t flags;
};

struct mplru {
    uint64_t n_metapages;
    uint32_t c_min, K;       /* resident counts asked for: c_min .. K */
    uint32_t kf;             /* filter capacity: min(K, MPLRU_FILTER) */
    uint32_t fill;           /* filter entries in use */
    uint32_t filter[MPLRU_FILTER];   /* most recent first */
    uint8_t pending[MPLRU_FILTER];   /* a write since the entry entered the filter */
    struct mp_state *st;
    size_t st_bytes;
    uint64_t accesses, distinct;
    uint64_t *hist;          /* hist[d], d = 1..K */
    int64_t *wbdiff, *rddiff;/* difference arrays over C = 1..K+1: write-backs, backing reads */
    /* Fenwick tree over the times metapages left the filter */
    uint32_t *bit, *owner;   /* owner[t]: the metapage that left at t (valid iff its left == t) */
    uint32_t cap, now, live; /* tree size, last time used, entries in the tree */
};

static void *zalloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

struct mplru *mplru_create(uint64_t n_metapages, uint32_t c_min, uint32_t k_max, char *err,
                           size_t errlen)
{
    if (n_metapages == 0 || n_metapages >= UINT32_MAX || c_min == 0 || k_max < c_min) {
        snprintf(err, errlen, "LRU stack: bad geometry (%llu metapages, resident %u..%u)",
                 (unsigned long long)n_metapages, c_min, k_max);
        return NULL;
    }
    struct mplru *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->n_metapages = n_metapages;
    l->K = k_max > n_metapages ? (uint32_t)n_metapages : k_max;
    l->c_min = c_min < l->K ? c_min : l->K;
    l->kf = l->K < MPLRU_FILTER ? l->K : MPLRU_FILTER;
    l->st_bytes = (size_t)n_metapages * sizeof *l->st;
    l->st = zalloc(l->st_bytes);
    l->hist = calloc((size_t)l->K + 2, sizeof *l->hist);
    l->wbdiff = calloc((size_t)l->K + 2, sizeof *l->wbdiff);
    l->rddiff = calloc((size_t)l->K + 2, sizeof *l->rddiff);
    l->cap = 1u << 12;
    l->bit = calloc((size_t)l->cap + 1, sizeof *l->bit);
    l->owner = calloc((size_t)l->cap + 1, sizeof *l->owner);
    if (!l->st || !l->hist || !l->wbdiff || !l->rddiff || !l->bit || !l->owner) {
        mplru_destroy(l);
        snprintf(err, errlen, "out of memory for an LRU stack of %llu metapages",
                 (unsigned long long)n_metapages);
        return NULL;
    }
    return l;
}

void mplru_destroy(struct mplru *l)
{
    if (!l)
        return;
    if (l->st)
        munmap(l->st, l->st_bytes ? l->st_bytes : 1);
    free(l->hist);
    free(l->wbdiff);
    free(l->rddiff);
    free(l->bit);
    free(l->owner);
    free(l);
}

/* Puts (u, w) at the front and moves entries 0..j-1 down one place (entry j, the old place of u
 * or the first free one, is overwritten).  A carried rotation rather than a backwards copy: the
 * compiler turns that copy into two memmove calls, which cost far more than the one to three
 * entries a move-to-front usually shifts. */
static inline void to_front(uint32_t *filter, uint8_t *pending, uint32_t j, uint32_t u, uint8_t w)
{
    for (uint32_t i = 0; i <= j; i++) {
        uint32_t tu = filter[i];
        uint8_t tw = pending[i];
        filter[i] = u;
        pending[i] = w;
        u = tu;
        w = tw;
    }
}

static void bit_add(struct mplru *l, uint32_t i, int32_t v)
{
    for (; i <= l->cap; i += i & -i)
        l->bit[i] = (uint32_t)((int32_t)l->bit[i] + v);
}

static uint32_t bit_prefix(const struct mplru *l, uint32_t i)
{
    uint32_t sum = 0;
    for (; i > 0; i -= i & -i)
        sum += l->bit[i];
    return sum;
}

/* The time line is full: renumber the live entries 1..live in order (growing the line while
 * more than half of it would be live) and rebuild the tree.  Amortised O(1) per push. */
static void compact(struct mplru *l)
{
    uint32_t cap = l->cap;
    while ((uint64_t)l->live * 2 > cap)
        cap *= 2;
    uint32_t *owner = calloc((size_t)cap + 1, sizeof *owner);
    uint32_t *bit = cap != l->cap ? calloc((size_t)cap + 1, sizeof *bit) : l->bit;
    if (!owner || !bit) {
        fprintf(stderr, "mtemu: out of memory growing an LRU stack's time line\n");
        exit(1);
    }
    uint32_t t2 = 0;
    for (uint32_t t = 1; t <= l->now; t++) {
        uint32_t m = l->owner[t];
        if (l->st[m].left == t) {
            owner[++t2] = m;
            l->st[m].left = t2;
        }
    }
    free(l->owner);
    l->owner = owner;
    if (bit != l->bit)
        free(l->bit);
    l->bit = bit;
    l->cap = cap;
    /* Tree of ones at 1..t2: node i covers (i - lowbit(i), i]. */
    for (uint32_t i = 1; i <= cap; i++) {
        uint32_t lo = i - (i & -i), hi = i < t2 ? i : t2;
        l->bit[i] = hi > lo ? hi - lo : 0;
    }
    l->now = t2;
}

/* The filter's last entry goes below it: the most recent of everything in the tree. */
static void push_out(struct mplru *l)
{
    uint32_t e = l->filter[l->fill - 1];
    struct mp_state *s = &l->st[e];
    if (l->pending[l->fill - 1]) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    }
    if (l->now == l->cap)
        compact(l);
    s->left = ++l->now;
    l->owner[l->now] = e;
    bit_add(l, l->now, 1);
    l->live++;
    l->fill--;
}

/* Counts a use of metapage m at depth d (K + 1 = deeper than every cache): the eviction between
 * its previous use and this one (for every C < d, a write-back if it was written since its last
 * fault there), the fault's backing read, the depth, and the write. */
static void count_use(struct mplru *l, struct mp_state *s, uint32_t d, bool is_write)
{
    uint32_t hi = d - 1;
    if (s->flags & WRITTEN) {
        uint32_t lo = s->maxd > 1 ? s->maxd : 1;
        if (lo <= hi) {
            l->wbdiff[lo]++;
            l->wbdiff[hi + 1]--;
            if (s->stored_upto != HOST_STORED && hi > s->stored_upto)
                s->stored_upto = hi;
        }
    }
    uint32_t rd = s->stored_upto < hi ? s->stored_upto : hi;
    if (rd >= 1) {
        l->rddiff[1]++;
        l->rddiff[rd + 1]--;
    }
    if (d <= l->K)
        l->hist[d]++;
    if (is_write) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    } else if (d > s->maxd) {
        s->maxd = d;
    }
}

/* A use found in the filter at position j >= c_min: deeper than some cache, so counted in full
 * (its noted write first).  Out of line, as is a miss: the shallow hit, by far the most common
 * use, then needs no registers saved. */
static __attribute__((noinline)) void filter_deep(struct mplru *l, uint32_t j, uint32_t m,
                                                  bool is_write)
{
    struct mp_state *s = &l->st[m];
    if (l->pending[j]) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    }
    count_use(l, s, j + 1, is_write);
    to_front(l->filter, l->pending, j, m, 0);
}

static __attribute__((noinline)) void filter_miss(struct mplru *l, uint32_t m, bool is_write);

void mplru_access(struct mplru *l, uint64_t m64, bool is_write)
{
    uint32_t m = (uint32_t)m64;
    l->accesses++;
    uint32_t j = 0;
    while (j < l->fill && l->filter[j] != m)
        j++;
    if (j >= l->fill) {
        filter_miss(l, m, is_write);
    } else if (j < l->c_min) { /* depth j + 1 <= c_min: a hit for every cache asked for */
        l->hist[j + 1]++;
        to_front(l->filter, l->pending, j, m, l->pending[j] | (uint8_t)is_write);
    } else {
        filter_deep(l, j, m, is_write);
    }
}

static void filter_miss(struct mplru *l, uint32_t m, bool is_write)
{
    struct mp_state *s = &l->st[m];
    if (!(s->flags & SEEN)) { /* first use: a fault for every C */
        s->flags |= SEEN;
        l->distinct++;
        if (s->stored_upto == HOST_STORED) {
            l->rddiff[1]++;
            l->rddiff[l->K + 1]--;
        }
        if (is_write) {
            s->flags |= WRITTEN;
            s->maxd = 0;
        }
    } else {
        uint64_t later = l->live - bit_prefix(l, s->left);
        uint64_t d64 = l->fill + later + 1;
        bit_add(l, s->left, -1);
        l->live--;
        s->left = 0;
        count_use(l, s, d64 > l->K ? l->K + 1 : (uint32_t)d64, is_write);
    }
    if (l->fill == l->kf)
        push_out(l);
    to_front(l->filter, l->pending, l->fill, m, 0);
    l->fill++;
}

void mplru_host_write(struct mplru *l, uint64_t m)
{
    if (m < l->n_metapages)
        l->st[m].stored_upto = HOST_STORED;
}

void mplru_counts(const struct mplru *l, uint32_t resident, uint64_t repeats, struct mplru_counts *out)
{
    uint32_t C = resident > l->K ? l->K : resident;
    uint64_t hits = repeats;
    int64_t wb = 0, rd = 0;
    for (uint32_t c = 1; c <= C; c++) {
        hits += l->hist[c];
        wb += l->wbdiff[c];
        rd += l->rddiff[c];
    }
    /* Metapages evicted after their last use: those at final depth d > C.  In the filter, the
     * entry at position j has depth j + 1 (its noted write counts); below, newest first, so
     * `later` counts the entries above. */
    for (uint32_t j = 0; j < l->fill; j++) {
        const struct mp_state *s = &l->st[l->filter[j]];
        bool written = l->pending[j] || (s->flags & WRITTEN);
        uint32_t maxd = l->pending[j] ? 0 : s->maxd;
        if (j + 1 > C && written && (maxd > 1 ? maxd : 1) <= C)
            wb++;
    }
    uint64_t later = 0;
    for (uint32_t t = l->now; t >= 1 && later < l->live; t--) {
        uint32_t m = l->owner[t];
        const struct mp_state *s = &l->st[m];
        if (s->left != t)
            continue;
        uint64_t d = l->fill + later + 1;
        later++;
        if (d > C && (s->flags & WRITTEN) && (s->maxd > 1 ? s->maxd : 1) <= C)
            wb++;
    }
    out->faults = l->accesses + repeats - hits;
    out->writebacks = (uint64_t)wb;
    out->backing_reads = (uint64_t)rd;
    out->zero_fills = out->faults - out->backing_reads;
    out->evictions = out->faults - (l->distinct < C ? l->distinct : C);
}
