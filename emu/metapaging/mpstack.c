/* Every-budget LRU of every metapage size over one shared filter; see mpstack.h. */
#include "emu/metapaging/mpstack.h"
#include "emu/metapaging/mpfront.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SEEN 1u
#define WRITTEN 2u               /* written at least once (the stack algorithm's has_write) */
#define STORED1 4u               /* written back by the one-metapage cache (C = 1) */
#define HOST_STORED UINT32_MAX   /* stored_upto of a metapage the emulator itself wrote */
#define NO_UNIT UINT32_MAX       /* an empty filter place (units are < UINT32_MAX - 1) */
#define FIL_D 32                 /* struct level's fil: depths inside the filter, 0..31 */
#define FIL_WB (FIL_D * FIL_D)
#define LANE_BITS 6              /* packed per-size counts: 6 bits a lane, 10 lanes in 60 */
#define LANE_MASK 63u
#define LANE_DEPTH_CAP (MPSTACK_FILTER + 1) /* filter depths: c_min above counts as this */
/* A lane holds up to MPSTACK_FILTER plus a bias of 32 - min(c_min, LANE_DEPTH_CAP) below 64. */
_Static_assert(MPSTACK_FILTER <= 31, "packed lanes of 6 bits");
#define F_SHIFT 0                /* the fields of a filter entry's word (struct mpstack, ent) */
#define P_SHIFT 16
#define S_SHIFT 32
#define X3(m) ((uint64_t)(m) * (UINT64_C(1) << F_SHIFT | UINT64_C(1) << P_SHIFT | UINT64_C(1) << S_SHIFT))
#define FIELD(e, sh) ((uint16_t)((e) >> (sh)))

/* Per metapage of a size; one lazily zeroed array, so -m 64G at 4 KiB costs memory only where
 * touched. */
struct mp_state {
    uint32_t left;        /* time it last entered the tree; 0 = not in the tree */
    uint32_t maxd;        /* largest depth of its counted uses since its last write */
    uint32_t stored_upto; /* written back for every C in [1, stored_upto]; HOST_STORED = all */
    uint32_t flags;
};

struct level {
    unsigned rel;            /* metapage = unit >> rel */
    uint64_t n_metapages;
    uint32_t c_min, K;       /* resident counts asked for: c_min .. K */
    bool one;                /* C = 1 is asked for: counted apart (the c1 tables) */
    struct mp_state *st;
    size_t st_bytes;
    uint64_t distinct;       /* metapages used so far (each one's first use faults for all C) */
    /* counted uses below the filter at depth d = 1..K, deeper than K at K + 1 */
    uint64_t *hist;
    int64_t *wbdiff;         /* a difference array over C = 1..K+1: write-backs */
    /* uses by r, the largest C at which they read their metapage back (0: none): a use reads
     * back at every C <= r, so the backing reads at C are the uses with r >= C (one increment a
     * use where a difference array over [1, r] took two and a test) */
    uint64_t *rdhist;
    /* The times metapages left the filter: every time 1..now was given to one (owner[t], valid
     * iff its left == t), which is still below the filter ("live") or was used again since
     * ("dead").  A Fenwick tree counts the dead times only: a metapage leaving takes the next
     * time without touching the tree, and the live ones after t are (now - t) less the dead. */
    uint32_t *bit, *owner;
    uint32_t cap, now, live; /* time line length, last time given, live times */
    uint32_t depths;         /* hist's, wbdiff's and rdhist's length: max(K, MPSTACK_FILTER) + 2 */
    /* The counted uses inside the filter (d <= MPSTACK_FILTER < FIL_D): fil[d * FIL_D + r] by
     * their depth d and r (rdhist's), and fil[FIL_WB + lo * FIL_D + d] those that wrote back
     * (for C in [lo, d - 1], wbdiff's interval): one increment for what hist and rdhist took
     * two, one for wbdiff's two, and one table pointer for three. */
    uint64_t *fil;
    /* to 128 bytes: the lane loops find lv[i] with a shift instead of a multiplication by 112,
     * which the compiler redid for every field it reloads (3 times a counted use) */
    uint64_t pad_to_128[1];
};
_Static_assert(sizeof(struct level) == 128, "struct level's padding");

struct mpstack {
    uint32_t fill;                               /* filter entries in use */
    /* most recent first; NO_UNIT past fill, but for scan's sentinel (one place more) */
    uint32_t unit[MPSTACK_FILTER + 1];
    /* Per entry, three lane masks in one word (one load, one store, one mask for all three):
     * FIRST (lanes where it is its metapage's first unit), PENDING << 16 (an unapplied write;
     * first lanes only), STORED1 << 32 (C = 1 lanes where its metapage was stored: written back
     * or by the emulator; first lanes only). */
    uint64_t ent[MPSTACK_FILTER + 1]; /* one place more: scan's walk loads the sentinel's word
                                        * (unused) before it tests for the sentinel */
    uint64_t share01;  /* lanes where unit[0] and unit[1] lie in the same metapage, x3 */
    /* Read swaps of the two front units not applied yet (settle_swaps): unit[0] and unit[1] are
     * current, ent[0], ent[1] and the C = 1 tables as before the first of them. */
    uint64_t swaps;
    uint32_t all;      /* every lane (lane masks are 32-bit in the code: no 16-bit moves) */
    uint64_t all3;     /* X3(all), kept: the scan and the rotation start from it */
    uint32_t one;      /* lanes where C = 1 is asked for */
    uint32_t dirty1;   /* C = 1 lanes whose resident metapage (the front's) was written there */
    /* lanes where two different units share their metapage, by the leading zeros of their xor
     * (x3) */
    uint64_t share_by_clz[32];
    uint64_t bias;     /* per lane: 32 - min(c_min, 17), so that bit 5 says depth > c_min */
    uint64_t *spread;  /* [1 << n]: a lane mask as a count of one in each of its lanes */
    /* scan's test for sharing an active size: 2^rel - 1 of the largest size (every one active),
     * the largest xor of two units in one of its metapages, and, by the leading zeros of an xor
     * found at or below it, 2^rel - 1 of the largest size the two units do not share (the
     * largest still active after it).  32 bits (rel <= 32), so the walk compares the xor as it
     * is, without widening it. */
    uint32_t top_xor_max, xor_max_by_clz[32];
    bool started;
    struct level lv[MPSTACK_MAX_SIZES];
    int n;
    /* C = 1 events by the set of lanes they happened at (a count per lane is the sum over the
     * sets holding it): faults (every change of metapage), write-backs, backing reads.  Here,
     * not behind pointers: an update (at every C = 1 change of a swap, a rotation or a
     * scan) then loads no table pointer.  [0] counts nothing (one_change adds to it rather than branch). */
    uint64_t faults1[1u << MPSTACK_MAX_SIZES], wb1[1u << MPSTACK_MAX_SIZES],
        rd1[1u << MPSTACK_MAX_SIZES];
};

static void *zalloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

struct mpstack *mpstack_create(void)
{
    struct mpstack *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    for (int k = 0; k <= MPSTACK_FILTER; k++)
        st->unit[k] = NO_UNIT;
    return st;
}

static void level_free(struct level *L)
{
    if (L->st)
        munmap(L->st, L->st_bytes ? L->st_bytes : 1);
    free(L->hist);
    free(L->wbdiff);
    free(L->rdhist);
    free(L->fil);
    free(L->bit);
    free(L->owner);
}

void mpstack_destroy(struct mpstack *st)
{
    if (!st)
        return;
    for (int i = 0; i < st->n; i++)
        level_free(&st->lv[i]);
    free(st->spread);
    free(st);
}

int mpstack_add_size(struct mpstack *st, unsigned rel_shift, uint64_t n_metapages, uint32_t c_min,
                     uint32_t k_max, char *err, size_t errlen)
{
    if (st->n == MPSTACK_MAX_SIZES || st->started || n_metapages == 0 ||
        n_metapages >= UINT32_MAX - 1 || c_min == 0 || k_max < c_min || rel_shift > 32 ||
        (st->n && rel_shift <= st->lv[st->n - 1].rel) || (!st->n && rel_shift != 0)) {
        snprintf(err, errlen, "LRU stacks: bad geometry (size %d: 2^%u units, %llu metapages, "
                 "resident %u..%u)", st->n, rel_shift, (unsigned long long)n_metapages, c_min,
                 k_max);
        return -1;
    }
    struct level *L = &st->lv[st->n];
    memset(L, 0, sizeof *L);
    L->rel = rel_shift;
    L->n_metapages = n_metapages;
    L->K = k_max > n_metapages ? (uint32_t)n_metapages : k_max;
    L->c_min = c_min < L->K ? c_min : L->K;
    L->st_bytes = (size_t)n_metapages * sizeof *L->st;
    L->st = zalloc(L->st_bytes);
    L->depths = (L->K > MPSTACK_FILTER ? L->K : MPSTACK_FILTER) + 2;
    L->hist = calloc(L->depths, sizeof *L->hist);
    L->wbdiff = calloc(L->depths, sizeof *L->wbdiff);
    L->rdhist = calloc(L->depths, sizeof *L->rdhist);
    L->fil = calloc(2 * FIL_WB, sizeof *L->fil);
    /* the time line starts small (a tree operation costs log2 cap) and grows to 2-4 times the
     * metapages in the tree (compact) */
    L->cap = 64;
    L->bit = calloc((size_t)L->cap + 1, sizeof *L->bit);
    L->owner = calloc((size_t)L->cap + 1, sizeof *L->owner);
    size_t masks = (size_t)2 << st->n;
    uint64_t *spread = realloc(st->spread, masks * sizeof *spread);
    if (spread)
        st->spread = spread;
    if (!L->st || !L->hist || !L->wbdiff || !L->rdhist || !L->fil || !L->bit || !L->owner ||
        !spread) {
        level_free(L);
        snprintf(err, errlen, "out of memory for an LRU stack of %llu metapages",
                 (unsigned long long)n_metapages);
        return -1;
    }
    int i = st->n++;
    uint32_t lane = 1u << i;
    st->all |= lane;
    st->all3 = X3(st->all);
    /* C = 1 is counted apart: the stack pass then serves C >= 2, where a use at depth 2 (the
     * common alternation of two units) changes nothing. */
    L->one = L->c_min == 1;
    if (L->one) {
        st->one |= lane;
        L->c_min = L->K >= 2 ? 2 : L->K;
    }
    uint32_t t = L->c_min < LANE_DEPTH_CAP ? L->c_min : LANE_DEPTH_CAP;
    if (L->K < 2 && L->one)
        t = LANE_DEPTH_CAP; /* only C = 1 asked for: the stack counts nothing in the filter */
    st->bias |= (uint64_t)(32 - t) << (LANE_BITS * i);
    st->top_xor_max = (uint32_t)((UINT64_C(1) << rel_shift) - 1);
    for (unsigned c = 0; c < 32; c++)
        if (rel_shift < 32 - c)
            st->xor_max_by_clz[c] = (uint32_t)((UINT64_C(1) << rel_shift) - 1);
    /* units whose xor is b = 32 - c bits long share the metapages of the sizes with rel >= b */
    for (unsigned c = 0; c < 32; c++)
        if (rel_shift >= 32 - c)
            st->share_by_clz[c] |= X3(lane);
    for (size_t mask = 0; mask < (size_t)1 << st->n; mask++) {
        uint64_t v = 0;
        for (int j = 0; j < st->n; j++)
            if ((mask >> j) & 1)
                v |= UINT64_C(1) << (LANE_BITS * j);
        st->spread[mask] = v;
    }
    return i;
}

/* (cap and bit in locals: the stores through bit could alias them) */
static void bit_add(struct level *L, uint32_t i, uint32_t v)
{
    uint32_t *bit = L->bit, cap = L->cap;
    for (; i <= cap; i += i & -i)
        bit[i] += v;
}

static uint32_t bit_prefix(const struct level *L, uint32_t i)
{
    const uint32_t *bit = L->bit;
    uint32_t sum = 0;
    for (; i > 0; i -= i & -i)
        sum += bit[i];
    return sum;
}

/* The time line is full: renumber the live entries 1..live in order (growing the line while
 * more than half of it would be live); no time is dead then.  Amortised O(1) per push.  In
 * place when the line keeps its length (the common case: a size with a few live metapages
 * renumbers every cap - live pushes, and an allocation and a free each time cost more than the
 * renumbering): a live time t moves to t2 <= t, so owner[t2] is written only after owner[t] was
 * read, and no left equals a time the loop has still to read (each is t2 <= t). */
static void compact(struct level *L)
{
    uint32_t cap = L->cap;
    while ((uint64_t)L->live * 2 > cap)
        cap *= 2;
    uint32_t *owner = L->owner, *bit = L->bit;
    if (cap != L->cap) {
        owner = realloc(L->owner, ((size_t)cap + 1) * sizeof *owner);
        if (owner)
            L->owner = owner;
        bit = calloc((size_t)cap + 1, sizeof *bit);
        if (!owner || !bit) {
            fprintf(stderr, "mtemu: out of memory growing an LRU stack's time line\n");
            exit(1);
        }
        free(L->bit);
        L->bit = bit;
        L->cap = cap;
    } else { /* no time is dead after renumbering */
        memset(bit, 0, ((size_t)cap + 1) * sizeof *bit);
    }
    uint32_t t2 = 0;
    for (uint32_t t = 1; t <= L->now; t++) {
        uint32_t m = owner[t];
        if (L->st[m].left == t) {
            owner[++t2] = m;
            L->st[m].left = t2;
        }
    }
    L->now = t2;
}

/* Counts a use of a metapage at depth d (K + 1 = deeper than every cache): the eviction between
 * its previous use and this one (for every C < d, a write-back if it was written since its last
 * fault there), the fault's backing read, the depth, and the write.  Always inlined: it runs per
 * counted use in the scan's lane loop, where a call's register saves cost more than the body
 * (a version without branches ran more instructions than its fewer mispredictions saved). */
static inline __attribute__((always_inline)) void count_use(struct level *L, struct mp_state *s,
                                                           uint32_t d, bool is_write)
{
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
    L->rdhist[s->stored_upto < hi ? s->stored_upto : hi]++;
    L->hist[d]++;
    if (is_write) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    } else if (d > s->maxd) {
        s->maxd = d;
    }
}

/* A use at depth d (<= the filter's) of unit u's metapage at size L, deeper than c_min there:
 * its unapplied write first (pend), then counted as count_use would, in fil. */
_Static_assert(MPSTACK_FILTER < FIL_D, "fil's rows");
static inline __attribute__((always_inline)) void count_in_filter(struct level *L, uint32_t u,
                                                                 uint32_t d, bool pend,
                                                                 bool is_write)
{
    struct mp_state *s = &L->st[u >> L->rel];
    if (pend) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    }
    uint64_t *fil = L->fil;
    uint32_t hi = d - 1;
    if (s->flags & WRITTEN) {
        uint32_t lo = s->maxd > 1 ? s->maxd : 1;
        if (lo <= hi) { /* (so lo < FIL_D) */
            fil[FIL_WB + lo * FIL_D + d]++;
            if (s->stored_upto != HOST_STORED && hi > s->stored_upto)
                s->stored_upto = hi;
        }
    }
    fil[d * FIL_D + (s->stored_upto < hi ? s->stored_upto : hi)]++;
    if (is_write) {
        s->flags |= WRITTEN;
        s->maxd = 0;
    } else if (d > s->maxd) {
        s->maxd = d;
    }
}

/* A use of metapage m, none of whose units is in the filter; `in_filter` = the metapages that
 * are (all used more recently). */
static void deep_use(struct level *L, uint32_t m, uint32_t in_filter, bool is_write)
{
    struct mp_state *s = &L->st[m];
    if (!(s->flags & SEEN)) { /* first use: a fault for every C */
        s->flags |= SEEN;
        L->distinct++;
        if (s->stored_upto == HOST_STORED) {
            L->rdhist[L->K]++;
        }
        if (is_write) {
            s->flags |= WRITTEN;
            s->maxd = 0;
        }
        return;
    }
    /* the live times after its own: all times after it less the dead ones (now - live dead in
     * all, those up to its own counted by the tree) */
    uint64_t dead_after = (L->now - L->live) - bit_prefix(L, s->left);
    uint64_t later = (L->now - s->left) - dead_after;
    uint64_t d64 = in_filter + later + 1;
    bit_add(L, s->left, 1);
    L->live--;
    s->left = 0;
    count_use(L, s, d64 > L->K ? L->K + 1 : (uint32_t)d64, is_write);
}

/* Unit v leaves the filter: at the sizes where it was its metapage's only unit left (its first,
 * `first`), its unapplied write reaches the metapage, which becomes the newest of the tree. */
static void push_out(struct mpstack *st, uint32_t v, uint32_t first, uint32_t pending,
                     uint32_t stored1)
{
    for (int i = 0; i < st->n; i++) {
        if (!((first >> i) & 1))
            continue;
        struct level *L = &st->lv[i];
        uint32_t m = v >> L->rel;
        struct mp_state *s = &L->st[m];
        if ((pending >> i) & 1) {
            s->flags |= WRITTEN;
            s->maxd = 0;
        }
        if ((stored1 >> i) & 1)
            s->flags |= STORED1;
        if (L->now == L->cap)
            compact(L);
        s->left = ++L->now;
        L->owner[L->now] = m;
        L->live++;
    }
}

/* C = 1: the front's metapage is the resident one at every size.  u becomes the front: at the
 * lanes `change` (where its metapage differs from the old front's) a fault, a write-back when the
 * old one was written while resident (returned: the old front's metapage is stored there now),
 * a backing read when u's metapage was stored (`stored`: its stored1 lanes). */
static inline uint32_t one_change(struct mpstack *st, uint32_t change, uint32_t stored,
                                  bool is_write)
{
    uint32_t wb = st->dirty1 & change, rd = stored & change;
    st->faults1[change]++;
    st->wb1[wb]++;  /* [0] counts nothing */
    st->rd1[rd]++;
    st->dirty1 = (st->dirty1 & ~change) | (is_write ? st->one : 0);
    return wb;
}

/* A read swap of the two front units whose C = 1 change writes nothing back (the old front was
 * not written while it was resident there) changes, besides the order of the two units, only
 * the exchange of their fields and three C = 1 counts: a fault at the lanes `change` where they
 * differ, no write-back, a backing read at the entering unit's stored1 lanes there.  After such
 * a swap the resident one is clean at those lanes again, and the stored1 bits change only at a
 * write-back, so a run of them repeats with period two: access_unit only counts them
 * (st->swaps, 61 % of the Linux workload's reports) and this applies n at once, before anything
 * else looks at the front entries or the C = 1 tables.  The units entered alternate, the first
 * one being the second entry's. */
static inline void apply_swaps(struct mpstack *st, uint64_t n)
{
    uint64_t S3 = st->share01, e0 = st->ent[0], e1 = st->ent[1];
    uint32_t change1 = st->one & ~(uint32_t)S3;
    if (change1) {
        st->faults1[change1] += n; /* (and no write-back) */
        st->rd1[FIELD(e1, S_SHIFT) & change1] += (n + 1) / 2;
        st->rd1[FIELD(e0, S_SHIFT) & change1] += n / 2;
    }
    if (n & 1) {
        uint64_t d = (e0 ^ e1) & ~S3;
        st->ent[0] = e0 ^ d;
        st->ent[1] = e1 ^ d;
    }
}

static __attribute__((noinline)) void settle_swaps_now(struct mpstack *st)
{
    uint64_t n = st->swaps;
    st->swaps = 0;
    apply_swaps(st, n);
}

static inline void settle_swaps(struct mpstack *st)
{
    if (st->swaps)
        settle_swaps_now(st);
}

/* What every use of u at position j >= 2 of the filter (or below it) ends with, once the entries
 * before it have been moved down one place: the uses counted at the sizes where u's metapage is
 * in the filter deeper than c_min (acc: per lane, the first units before the first sharing one;
 * g: the pending writes and stored1 bits handed over to u), the deep uses at the sizes `act`
 * where it is not, u's own entry at the front, and the C = 1 change from the old front (share0:
 * the lanes where u and the old front share their metapage, x3). */
/* By the bit position of a lane's top bit (6 i + 5; the others unused): the lane's bit in a lane
 * mask (low half) and the byte offset of its level, lv[i] (high half).  One load where the
 * division by six, 1 << i and the scaling of i took a dozen instructions. */
#define LANE_INFO(i) ((uint32_t)(i) * (uint32_t)sizeof(struct level) << 16 | 1u << (i))
static const uint32_t lane_info_of_top_bit[64] = {
    [5] = LANE_INFO(0),  [11] = LANE_INFO(1), [17] = LANE_INFO(2), [23] = LANE_INFO(3),
    [29] = LANE_INFO(4), [35] = LANE_INFO(5), [41] = LANE_INFO(6), [47] = LANE_INFO(7),
    [53] = LANE_INFO(8), [59] = LANE_INFO(9),
};
_Static_assert(MPSTACK_MAX_SIZES == 10 && LANE_BITS == 6, "lane_info_of_top_bit's table");

static inline __attribute__((always_inline)) void land(struct mpstack *st, uint32_t u,
                                                      bool is_write, uint64_t acc, uint64_t g,
                                                      uint32_t act, uint64_t share0)
{
    uint32_t gp = FIELD(g, P_SHIFT), gs = FIELD(g, S_SHIFT);
    /* Sizes where u's metapage is in the filter at a depth deeper than c_min: counted. */
    uint64_t deeper = (acc + st->bias) & (UINT64_C(0x820820820820820) & ~st->spread[act] * 32);
    uint32_t counted = 0;
    while (deeper) {
        unsigned bit = (unsigned)__builtin_ctzll(deeper); /* a lane's top bit: 6 i + 5 */
        uint32_t info = lane_info_of_top_bit[bit];
        uint32_t lane = info & 0xffffu;
        deeper &= deeper - 1;
        counted |= lane;
        count_in_filter((struct level *)((char *)st->lv + (info >> 16)), u,
                        (uint32_t)((acc >> (bit - (LANE_BITS - 1))) & LANE_MASK) + 1,
                        (gp & lane) != 0, is_write);
    }
    /* Sizes where it is not: a deep use below the filter (the leaving unit still counts as in
     * the filter: it was used more recently). */
    for (uint32_t a = act; a; a &= a - 1) {
        int i = __builtin_ctz(a);
        struct level *L = &st->lv[i];
        uint32_t m = u >> L->rel;
        const struct mp_state *ms = &L->st[m];
        if ((ms->flags & STORED1) || ms->stored_upto == HOST_STORED)
            gs |= 1u << i;
        deep_use(L, m, (uint32_t)((acc >> (LANE_BITS * i)) & LANE_MASK), is_write);
    }
    uint32_t shallow = st->all & ~(counted | act);
    uint32_t pend = (gp & shallow) | (is_write ? shallow : 0);
    st->ent[0] = st->all | (uint64_t)pend << P_SHIFT | (uint64_t)(gs & st->one) << S_SHIFT;
    uint32_t change1 = st->one & ~(uint32_t)share0;
    if (change1) /* the old front (now second, if there was one) may be written back */
        st->ent[1] |= (uint64_t)one_change(st, change1, gs, is_write) << S_SHIFT;
    else if (is_write)
        st->dirty1 = st->one;
    st->share01 = share0; /* u and the old front */
}

/* The general case: u found at position j >= 3 of the filter, or not in it.  One scan of the
 * entries before it computes every size's depth (acc, a lane each), hands the pending writes
 * and stored1 bits of the first units sharing u's metapage over to u, and moves those entries
 * down one place.  No swap may be pending (the callers settle them). */
static __attribute__((noinline)) void scan(struct mpstack *st, uint32_t u, bool is_write)
{
    /* masks over the lanes in the three fields at once (X3) */
    uint64_t active = st->all3; /* sizes where no unit before k shares u's metapage */
    uint64_t g = 0;            /* pending writes and stored1 bits handed over to u */
    uint64_t acc = 0;          /* per lane: first units before the first sharing one */
    uint32_t cu = u;           /* the entry carried down to place k */
    uint64_t ce = st->all;     /* its word (first everywhere, pending and stored1 set below) */
    /* u differs from the front (access_unit), which becomes the second entry */
    uint64_t share0 = st->share_by_clz[__builtin_clz(u ^ st->unit[0])];
    uint32_t k = 0, fill = st->fill;
    st->unit[fill] = u; /* the sentinel: the walk ends at u, in the filter or at its end */
    /* The active sizes are the smallest ones (sharing is a prefix of the largest), so an entry
     * shares some active size iff it shares the largest active one: iff its xor with u is at
     * most that size's 2^rel - 1 (xor_max).  Most entries do not: for them sa = 0, so active and g stay and the
     * entry moves unchanged; only the others (at most one per size, and u itself) take the
     * leading-zeros tables.  Such an entry deactivates exactly the sizes with rel >= bitlen(x),
     * all of them active before it (x <= xor_max), so the largest active size after it is the
     * largest with rel < bitlen(x) (lane 0, rel 0, stays active until x = 0). */
    uint32_t xor_max = st->top_xor_max;
    /* active's first field alone (below 2^MPSTACK_MAX_SIZES): the common step indexes spread
     * with a 32-bit and, which needs no widening */
    uint32_t active_first = (uint32_t)FIELD(active, F_SHIFT);
    for (;; k++) {
        uint32_t unit = st->unit[k];
        uint32_t x = unit ^ u;
        uint64_t e = st->ent[k], sa = 0;
        if (__builtin_expect(x <= xor_max, 0)) { /* 13 % of the Linux walk's steps */
            if (!x)
                break;
            unsigned c = (unsigned)__builtin_clz(x);
            sa = active & st->share_by_clz[c];
            active ^= sa;
            active_first = (uint32_t)FIELD(active, F_SHIFT);
            g |= e & sa;
            xor_max = st->xor_max_by_clz[c];
        }
        acc += st->spread[(uint32_t)e & active_first];
        st->unit[k] = cu;
        st->ent[k] = ce;
        cu = unit;
        ce = e & ~sa;
    }
    bool found = k < fill;
    bool full = !found && fill == MPSTACK_FILTER;
    if (found) {
        g |= st->ent[k];      /* u's own, on the sizes where it was the first unit */
        active = 0;           /* every size's metapage is in the filter */
    }
    if (!full) {              /* the last entry carried moves into place k */
        st->unit[k] = cu;
        st->ent[k] = ce;
        if (!found)
            st->fill++;
    }
    land(st, u, is_write, acc, g, FIELD(active, F_SHIFT), share0);
    if (full)
        push_out(st, cu, FIELD(ce, F_SHIFT), FIELD(ce, P_SHIFT), FIELD(ce, S_SHIFT));
}

/* u is the third entry (code, stack and data pages in a cycle: a third of the Linux workload's
 * scans): the scan for j = 2, without its loop.  The front is first everywhere, so the depth is
 * 1 where u shares the front's metapage, else 2 where it shares the second's, else 2 or 3.  No
 * swap may be pending (the callers settle them). */
static __attribute__((noinline)) void rotate_third(struct mpstack *st, uint32_t u, bool is_write)
{
    uint64_t sh0 = st->share_by_clz[__builtin_clz(u ^ st->unit[0])];
    uint64_t sh1 = st->share_by_clz[__builtin_clz(u ^ st->unit[1])];
    uint64_t e0 = st->ent[0], e1 = st->ent[1];
    uint64_t act1 = st->all3 & ~sh0, sa1 = act1 & sh1, act2 = act1 & ~sh1;
    uint64_t acc = st->spread[(uint16_t)(e0 & act1)] + st->spread[(uint16_t)(e1 & act2)];
    uint64_t g = (e0 & sh0) | (e1 & sa1) | st->ent[2];
    st->unit[2] = st->unit[1];
    st->ent[2] = e1 & ~sa1;
    st->unit[1] = st->unit[0];
    st->ent[1] = e0 & ~sh0;
    st->unit[0] = u;
    land(st, u, is_write, acc, g, 0, sh0);
}

/* The two most recent units alternate: swap them.  Depth 1 where they share the metapage, 2
 * elsewhere: no count of the stack pass changes (C = 1 is counted apart).  The first masks stay
 * as they are (the front is first everywhere, the second where the two do not share); the
 * pending writes and stored1 bits of the shared sizes stay at the front (now u), the others go
 * with their units. */
static inline void swap_front(struct mpstack *st, uint32_t u, bool is_write)
{
    uint64_t S3 = st->share01, e0 = st->ent[0], e1 = st->ent[1];
    /* new front: first everywhere, the shared lanes' fields from the old front, the others its
     * own; the second the other way round (the first fields come out right too) */
    uint64_t d = (e0 ^ e1) & ~S3;
    e0 ^= d;
    e1 ^= d;
    uint32_t change1 = st->one & ~(uint32_t)S3;
    if (change1)
        e1 |= (uint64_t)one_change(st, change1, FIELD(e0, S_SHIFT), is_write) << S_SHIFT;
    else if (is_write)
        st->dirty1 = st->one;
    if (is_write)
        e0 |= (uint64_t)st->all << P_SHIFT;
    st->ent[0] = e0;
    st->ent[1] = e1;
    st->unit[1] = st->unit[0];
    st->unit[0] = u;
}

static inline void access_unit(struct mpstack *st, uint32_t u, bool is_write)
{
    if (u == st->unit[0]) { /* a write after a read: depth 1 everywhere */
        if (is_write) {
            settle_swaps(st);
            st->ent[0] |= (uint64_t)st->all << P_SHIFT;
            st->dirty1 = st->one;
        }
    } else if (u == st->unit[1]) {
        if (!is_write && !(st->dirty1 & ~(uint32_t)st->share01)) { /* dirty1 is within one */
            st->swaps++; /* no write-back: counted only (settle_swaps) */
            st->unit[1] = st->unit[0];
            st->unit[0] = u;
        } else {
            settle_swaps(st);
            swap_front(st, u, is_write);
        }
    } else {
        settle_swaps(st);
        if (u == st->unit[2])
            rotate_third(st, u, is_write);
        else
            scan(st, u, is_write);
    }
}

void mpstack_access(struct mpstack *st, uint64_t u, bool is_write)
{
    st->started = true;
    access_unit(st, (uint32_t)u, is_write);
}

size_t mpstack_access_batch(struct mpstack *st, const uint64_t *entries, size_t n,
                            uint64_t first_pfn, uint64_t ram_pages, unsigned unit_shift)
{
    st->started = true;
    size_t inside = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t page = (entries[i] >> 1) - first_pfn;
        if (page < ram_pages) {
            access_unit(st, (uint32_t)(page >> unit_shift), entries[i] & 1);
            inside++;
        }
    }
    return inside;
}

/* n reads alternating between the two front units, the second one's first (mpfront.h's
 * alternations): the first may write back at C = 1 (swap_front), and leaves the old front clean at
 * the C = 1 lanes where the two differ (a read); from then on every one of them is a read swap
 * that is only counted, as access_unit would count each, and the count is applied at once
 * (apply_swaps, what settle_swaps would do before the next report looks at the front): on this
 * path no swap is ever left pending (the reads of the second unit all come folded), so the
 * count would be settled by the very next report anyway. */
static inline void read_swaps(struct mpstack *st, uint32_t n)
{
    if (st->dirty1 & ~(uint32_t)st->share01) {
        swap_front(st, st->unit[1], false);
        n--;
    }
    if (n) {
        apply_swaps(st, n);
        if (n & 1) {
            uint32_t u = st->unit[1];
            st->unit[1] = st->unit[0];
            st->unit[0] = u;
        }
    }
}

/* access_unit for the words path, where no swap is ever pending (mpstack_access_words settles
 * any before its loop, and a read of the second unit is applied at once, not counted): so the
 * rotation and the scan, which need none pending, are called without settle_swaps' test. */
static inline void access_word_unit(struct mpstack *st, uint32_t u, bool is_write)
{
    if (u == st->unit[0]) { /* a write after a read: depth 1 everywhere */
        if (is_write) {
            st->ent[0] |= (uint64_t)st->all << P_SHIFT;
            st->dirty1 = st->one;
        }
    } else if (u == st->unit[1]) { /* (a read comes folded, as an alternation) */
        if (is_write)
            swap_front(st, u, true);
        else
            read_swaps(st, 1);
    } else if (u == st->unit[2]) {
        rotate_third(st, u, is_write);
    } else {
        scan(st, u, is_write);
    }
}

/* k write pairs (mpfront.h): a read of the second unit (A), then a write of the front one (B),
 * each pair leaving the two units where they were.  At the C = 1 lanes `ch` where A and B
 * differ, a pair is, when B was written while resident there (dirty1 covers ch): A's read faults,
 * writes B back (B is stored at ch from then on) and reads A back where A is stored; B's write
 * faults, writes nothing back (A was only read) and reads B back at all of ch; B is dirty at
 * every C = 1 lane again.  The entries' fields go back to their places (two exchanges), with
 * B's stored bits at ch and its pending writes at every lane.  So once dirty1 covers ch (after
 * the first pair at the latest) every pair counts the same and changes nothing more: the k - 1
 * or k others are counted at once.  docs/metapaging.md, "Write pairs". */
static void write_pairs(struct mpstack *st, uint32_t k)
{
    uint32_t ch = st->one & ~(uint32_t)st->share01;
    if ((st->dirty1 & ch) != ch) { /* the first pair as its two reports */
        read_swaps(st, 1);
        swap_front(st, st->unit[1], true);
        if (--k == 0)
            return;
    }
    uint64_t e0 = st->ent[0];
    if (ch) {
        st->faults1[ch] += 2 * (uint64_t)k;
        st->wb1[ch] += k; /* (and wb1[0], which counts nothing, k times) */
        st->rd1[FIELD(st->ent[1], S_SHIFT) & ch] += k;
        st->rd1[ch] += k;
        e0 |= (uint64_t)ch << S_SHIFT;
    }
    st->ent[0] = e0 | (uint64_t)st->all << P_SHIFT;
    st->dirty1 = st->one;
}

void mpstack_access_words(struct mpstack *st, const uint64_t *words, size_t n)
{
    st->started = true;
    settle_swaps(st); /* (from mpstack_access or mpstack_access_batch before, if any) */
    for (size_t i = 0; i < n; i++) {
        uint64_t w = words[i];
        uint32_t alts = MPFRONT_ALTS(w);
        if (__builtin_expect(!(w & MPFRONT_RUN), 1)) {
            if (alts) /* the alternations just before this report */
                read_swaps(st, alts);
            access_word_unit(st, (uint32_t)((w & MPFRONT_UNIT_MASK) >> 1), w & 1);
        } else if (w & MPFRONT_PAIRS) {
            write_pairs(st, alts);
        } else { /* a batch's last run */
            read_swaps(st, alts);
        }
    }
}

void mpstack_host_write(struct mpstack *st, int size, uint64_t m)
{
    if (size < 0 || size >= st->n || m >= st->lv[size].n_metapages)
        return;
    settle_swaps(st);
    st->lv[size].st[m].stored_upto = HOST_STORED;
    /* its first unit in the filter, if any, holds its C = 1 stored bit */
    for (uint32_t k = 0; k < st->fill; k++)
        if (((st->ent[k] >> (F_SHIFT + size)) & 1) && st->unit[k] >> st->lv[size].rel == m)
            st->ent[k] |= (uint64_t)((st->one >> size) & 1u) << (S_SHIFT + size);
}

/* The C = 1 counts of a size: the sums over the lane sets that hold it, and the swaps not
 * settled yet (settle_swaps). */
static void one_counts(const struct mpstack *st, int size, struct mpstack_counts *out)
{
    uint64_t f = 0, wb = 0, rd = 0;
    uint32_t change1 = st->one & ~(uint32_t)st->share01, lane = 1u << size;
    if (st->swaps && (change1 & lane)) {
        f += st->swaps;
        rd += (FIELD(st->ent[1], S_SHIFT) & lane ? (st->swaps + 1) / 2 : 0) +
              (FIELD(st->ent[0], S_SHIFT) & lane ? st->swaps / 2 : 0);
    }
    for (size_t mask = 0; mask < (size_t)1 << st->n; mask++)
        if ((mask >> size) & 1) {
            f += st->faults1[mask];
            wb += st->wb1[mask];
            rd += st->rd1[mask];
        }
    out->faults = f;
    out->writebacks = wb;
    out->backing_reads = rd;
    out->zero_fills = f - rd;
    out->evictions = f - (st->lv[size].distinct ? 1 : 0);
}

static bool evicted_dirty(uint32_t d, bool written, uint32_t maxd, uint32_t C)
{
    return d > C && written && (maxd > 1 ? maxd : 1) <= C;
}

void mpstack_counts(const struct mpstack *st, int size, uint32_t resident,
                    struct mpstack_counts *out)
{
    const struct level *L = &st->lv[size];
    uint32_t C = resident > L->K ? L->K : resident;
    if (C == 1 && L->one) {
        one_counts(st, size, out);
        return;
    }
    uint64_t faults = L->distinct;
    for (uint32_t d = C + 1; d < L->depths; d++)
        faults += L->hist[d];
    int64_t wb = 0, rd = 0;
    for (uint32_t c = 1; c <= C; c++)
        wb += L->wbdiff[c];
    for (uint32_t r = C; r < L->depths; r++)
        rd += (int64_t)L->rdhist[r];
    /* the uses inside the filter: faults at d > C, backing reads at r >= C, write-backs at
     * lo <= C < d */
    for (uint32_t d = 1; d < FIL_D; d++)
        for (uint32_t r = 0; r < FIL_D; r++) {
            uint64_t n = L->fil[d * FIL_D + r];
            faults += d > C ? n : 0;
            rd += r >= C ? (int64_t)n : 0;
        }
    for (uint32_t lo = 1; lo <= C && lo < FIL_D; lo++)
        for (uint32_t d = C + 1; d < FIL_D; d++)
            wb += (int64_t)L->fil[FIL_WB + lo * FIL_D + d];
    /* Metapages evicted after their last use: those now deeper than C.  In the filter, the
     * first units in order (their unapplied writes count); below it, the tree newest first. */
    uint32_t in_filter = 0;
    /* (Swaps not settled yet leave ent[0] and ent[1] exchanged at the lanes where their units
     * differ: the first bits are set there in both, and the two are at depths 1 and 2, which
     * evict nothing at C >= 2, so their pending bits do not matter here.) */
    for (uint32_t k = 0; k < st->fill; k++) {
        uint64_t e = st->ent[k];
        if (!((e >> (F_SHIFT + size)) & 1))
            continue;
        const struct mp_state *s = &L->st[st->unit[k] >> L->rel];
        bool pend = (e >> (P_SHIFT + size)) & 1;
        in_filter++;
        wb += evicted_dirty(in_filter, pend || (s->flags & WRITTEN), pend ? 0 : s->maxd, C);
    }
    uint64_t later = 0;
    for (uint32_t t = L->now; t >= 1 && later < L->live; t--) {
        uint32_t m = L->owner[t];
        const struct mp_state *s = &L->st[m];
        if (s->left != t)
            continue;
        uint64_t d = in_filter + later + 1;
        later++;
        wb += d > C && (s->flags & WRITTEN) && (s->maxd > 1 ? s->maxd : 1) <= C;
    }
    out->faults = faults;
    out->writebacks = (uint64_t)wb;
    out->backing_reads = (uint64_t)rd;
    out->zero_fills = faults - out->backing_reads;
    out->evictions = faults - (L->distinct < C ? L->distinct : C);
}
