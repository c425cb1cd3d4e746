/* Every-budget LRU of several metapage sizes with one shared filter; see mpstack.h. */
#include "emu/metapaging/mpstack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SEEN 1u
#define WRITTEN 2u
#define HOST_STORED UINT32_MAX

struct mp_state {
    uint32_t left;        /* time it last entered the tree; 0 = not in the tree */
    uint32_t maxd;        /* largest depth of its deep uses since its last write */
    uint32_t stored_upto; /* written back for every C in [1, stored_upto]; HOST_STORED = all */
    uint16_t flags;
    uint16_t in_filter;   /* units of it in the shared filter */
};

struct level {
    unsigned rel;            /* metapage = unit >> rel */
    uint64_t n_metapages;
    uint32_t c_min, K;
    struct mp_state *st;
    size_t st_bytes;
    uint64_t distinct;       /* metapages used so far */
    uint32_t in_f;           /* metapages with a unit in the filter */
    uint64_t shallow;        /* filter misses whose metapage had another unit in the filter */
    uint64_t *hist;          /* deep uses at depth d = 1..K */
    int64_t *wbdiff, *rddiff;
    uint32_t *bit, *owner;
    uint32_t cap, now, live;
};

struct mpstack {
    uint32_t fill;
    uint32_t filter[MPSTACK_FILTER];
    uint8_t pending[MPSTACK_FILTER];
    uint64_t accesses, filter_hits;
    struct level *lv;
    int n;
};

static void *zalloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

struct mpstack *mpstack_create(void)
{
    return calloc(1, sizeof(struct mpstack));
}

static void level_free(struct level *L)
{
    if (L->st)
        munmap(L->st, L->st_bytes ? L->st_bytes : 1);
    free(L->hist);
    free(L->wbdiff);
    free(L->rddiff);
    free(L->bit);
    free(L->owner);
}

void mpstack_destroy(struct mpstack *st)
{
    if (!st)
        return;
    for (int i = 0; i < st->n; i++)
        level_free(&st->lv[i]);
    free(st->lv);
    free(st);
}

int mpstack_add_size(struct mpstack *st, unsigned rel_shift, uint64_t n_metapages, uint32_t c_min,
                     uint32_t k_max, char *err, size_t errlen)
{
    if (n_metapages == 0 || n_metapages >= UINT32_MAX || c_min < MPSTACK_FILTER ||
        k_max < c_min || st->accesses) {
        snprintf(err, errlen, "LRU stacks: bad geometry (%llu metapages, resident %u..%u)",
                 (unsigned long long)n_metapages, c_min, k_max);
        return -1;
    }
    struct level *lv = realloc(st->lv, (size_t)(st->n + 1) * sizeof *lv);
    if (!lv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    st->lv = lv;
    struct level *L = &st->lv[st->n];
    memset(L, 0, sizeof *L);
    L->rel = rel_shift;
    L->n_metapages = n_metapages;
    L->K = k_max > n_metapages ? (uint32_t)n_metapages : k_max;
    L->c_min = c_min;
    L->st_bytes = (size_t)n_metapages * sizeof *L->st;
    L->st = zalloc(L->st_bytes);
    L->hist = calloc((size_t)L->K + 2, sizeof *L->hist);
    L->wbdiff = calloc((size_t)L->K + 2, sizeof *L->wbdiff);
    L->rddiff = calloc((size_t)L->K + 2, sizeof *L->rddiff);
    L->cap = 1u << 12;
    L->bit = calloc((size_t)L->cap + 1, sizeof *L->bit);
    L->owner = calloc((size_t)L->cap + 1, sizeof *L->owner);
    if (!L->st || !L->hist || !L->wbdiff || !L->rddiff || !L->bit || !L->owner) {
        level_free(L);
        snprintf(err, errlen, "out of memory for an LRU stack of %llu metapages",
                 (unsigned long long)n_metapages);
        return -1;
    }
    return st->n++;
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

static void bit_add(struct level *L, uint32_t i, int32_t v)
{
    for (; i <= L->cap; i += i & -i)
        L->bit[i] = (uint32_t)((int32_t)L->bit[i] + v);
}

static uint32_t bit_prefix(const struct level *L, uint32_t i)
{
    uint32_t sum = 0;
    for (; i > 0; i -= i & -i)
        sum += L->bit[i];
    return sum;
}

/* As mplru.c's compact: renumber the live entries 1..live, growing the line when more than
 * half of it would be live. */
static void compact(struct level *L)
{
    uint32_t cap = L->cap;
    while ((uint64_t)L->live * 2 > cap)
        cap *= 2;
    uint32_t *owner = calloc((size_t)cap + 1, sizeof *owner);
    uint32_t *bit = cap != L->cap ? calloc((size_t)cap + 1, sizeof *bit) : L->bit;
    if (!owner || !bit) {
        fprintf(stderr, "mtemu: out of memory growing an LRU stack's time line\n");
        exit(1);
    }
    uint32_t t2 = 0;
    for (uint32_t t = 1; t <= L->now; t++) {
        uint32_t m = L->owner[t];
        if (L->st[m].left == t) {
            owner[++t2] = m;
            L->st[m].left = t2;
        }
    }
    free(L->owner);
    L->owner = owner;
    if (bit != L->bit)
        free(L->bit);
    L->bit = bit;
    L->cap = cap;
    for (uint32_t i = 1; i <= cap; i++) {
        uint32_t lo = i - (i & -i), hi = i < t2 ? i : t2;
        L->bit[i] = hi > lo ? hi - lo : 0;
    }
    L->now = t2;
}

/* A use of metapage m none of whose units is in the filter (see mplru.c for the accounting). */
static void deep_use(struct level *L, uint32_t m, bool is_write)
{
    struct mp_state *s = &L->st[m];
    if (!(s->flags & SEEN)) {
        s->flags |= SEEN;
        L->distinct++;
        if (s->stored_upto == HOST_STORED) {
            L->rddiff[1]++;
            L->rddiff[L->K + 1]--;
        }
        if (is_write) {
            s->flags |= WRITTEN;
            s->maxd = 0;
        }
        return;
    }
    uint64_t later = L->live - bit_prefix(L, s->left);
    uint64_t d64 = L->in_f + later + 1;
    uint32_t d = d64 > L->K ? L->K + 1 : (uint32_t)d64;
    bit_add(L, s->left, -1);
    L->live--;
    s->left = 0;
    uint32_t hi = d - 1;
    if (s->flags & WRITTEN) {
        uint32_t lo = s->maxd > 1 ? s->maxd : 1;
        if (lo <= hi) {
            L->wbdiff[lo]++;
            L->wbdiff[hi + 1]--;
            if (s->stored_upto != HOST_STORED && hi > s->stored_upto)
                s->stored_upto = hi;
        }
    }
    uint32_t rd = s->stored_upto < hi ? s->stored_upto : hi;
    if (rd >= 1) {
        L->rddiff[1]++;
        L->rddiff[rd + 1]--;
    }
    if (d <= L->K)
        L->hist[d]++;
    if (is_write) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    } else if (d > s->maxd) {
        s->maxd = d;
    }
}

/* The filter's last unit leaves it: its noted write reaches its metapage of every size, and a
 * metapage left with no unit in the filter becomes the newest entry of its size's tree. */
static void push_out(struct mpstack *st)
{
    uint32_t u = st->filter[st->fill - 1];
    bool w = st->pending[st->fill - 1];
    st->fill--;
    for (int i = 0; i < st->n; i++) {
        struct level *L = &st->lv[i];
        uint32_t m = u >> L->rel;
        struct mp_state *s = &L->st[m];
        if (w) {
            s->flags |= WRITTEN;
            s->maxd = 0;
        }
        if (--s->in_filter)
            continue;
        L->in_f--;
        if (L->now == L->cap)
            compact(L);
        s->left = ++L->now;
        L->owner[L->now] = m;
        bit_add(L, L->now, 1);
        L->live++;
    }
}

/* A unit not in the filter: a use at every size (out of line: a filter hit then needs no
 * registers saved). */
static __attribute__((noinline)) void filter_miss(struct mpstack *st, uint32_t u, bool is_write);

void mpstack_access(struct mpstack *st, uint64_t u64, bool is_write)
{
    uint32_t u = (uint32_t)u64;
    st->accesses++;
    uint32_t j = 0;
    while (j < st->fill && st->filter[j] != u)
        j++;
    if (j >= st->fill) {
        filter_miss(st, u, is_write);
        return;
    }
    st->filter_hits++;
    to_front(st->filter, st->pending, j, u, st->pending[j] | (uint8_t)is_write);
}

static void filter_miss(struct mpstack *st, uint32_t u, bool is_write)
{
    for (int i = 0; i < st->n; i++) {
        struct level *L = &st->lv[i];
        uint32_t m = u >> L->rel;
        struct mp_state *s = &L->st[m];
        if (s->in_filter)
            L->shallow++;
        else
            deep_use(L, m, is_write);
        if (s->in_filter++ == 0)
            L->in_f++;
    }
    if (st->fill == MPSTACK_FILTER)
        push_out(st);
    to_front(st->filter, st->pending, st->fill, u, (uint8_t)is_write);
    st->fill++;
}

void mpstack_host_write(struct mpstack *st, int size, uint64_t m)
{
    if (size >= 0 && size < st->n && m < st->lv[size].n_metapages)
        st->lv[size].st[m].stored_upto = HOST_STORED;
}

void mpstack_counts(const struct mpstack *st, int size, uint32_t resident, uint64_t repeats,
                    struct mplru_counts *out)
{
    const struct level *L = &st->lv[size];
    uint32_t C = resident > L->K ? L->K : resident;
    uint64_t hits = repeats + st->filter_hits + L->shallow;
    int64_t wb = 0, rd = 0;
    for (uint32_t c = 1; c <= C; c++) {
        hits += L->hist[c];
        wb += L->wbdiff[c];
        rd += L->rddiff[c];
    }
    /* Metapages evicted after their last use: the tree's entries deeper than C. */
    uint64_t later = 0;
    for (uint32_t t = L->now; t >= 1 && later < L->live; t--) {
        uint32_t m = L->owner[t];
        const struct mp_state *s = &L->st[m];
        if (s->left != t)
            continue;
        uint64_t d = L->in_f + later + 1;
        later++;
        if (d > C && (s->flags & WRITTEN) && (s->maxd > 1 ? s->maxd : 1) <= C)
            wb++;
    }
    out->faults = st->accesses + repeats - hits;
    out->writebacks = (uint64_t)wb;
    out->backing_reads = (uint64_t)rd;
    out->zero_fills = out->faults - out->backing_reads;
    out->evictions = out->faults - (L->distinct < C ? L->distinct : C);
}
