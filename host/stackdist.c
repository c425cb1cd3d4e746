/* Stack-distance evaluation of LRU and OPT for all resident counts in one pass (see header). */
#include "host/stackdist.h"

#include <stdlib.h>
#include <string.h>

#include "host/grow.h"
#include "host/optbands.h"
#include "host/u64map.h"

#define LRU_MIN_TIMELINE 64 /* time stamps: the line starts this long and grows with the pages */
/* Most uses are at small depths (after the repeats are collapsed: a code page and a data page in
 * turn, depth 2): the top LRU_FILTER pages of the LRU stack are an array searched and shifted
 * directly, and only the pages below it have time stamps (the time they left the array, which
 * orders them as their last uses do).  A use found in the array touches no tree. */
#define LRU_FILTER 8

struct stack_sim {
    pg_policy policy;
    uint32_t K;           /* deepest level kept: the largest resident count asked for */
    uint32_t L;           /* levels allocated so far: min(K, distinct pages + 1) at least --
                             no depth exceeds the number of distinct pages, so a huge budget
                             costs memory only for pages that exist */
    u64map ids;           /* page -> dense id */
    size_t nids, capids;
    uint64_t *last;       /* LRU: time stamp of the page's last use */
    uint32_t *pos;        /* OPT: 1-based stack level, 0 = deeper than K */
    uint32_t *maxd;       /* max depth of the uses after the page's last write (K+1 = deeper) */
    uint8_t *has_write;
    uint64_t accesses;
    uint64_t *hist;       /* hist[d], d = 1..K: uses found at depth d */
    int64_t *wbdiff;      /* difference array over C = 1..K+1 of write-backs */
    /* LRU: the most recent pages in a move-to-front filter, the others on a time line */
    uint32_t mtf[LRU_FILTER]; /* mtf[0] = most recent; these pages have no stamp (last = 0) */
    uint32_t nmtf;
    uint64_t *bits;       /* time stamps 1..bitcap, bit t of word t/64: 1 = someone's last use */
    uint32_t *blk;        /* Fenwick tree over the words' popcounts (1-based: word w at w + 1),
                             for the committed words 0 .. committed - 1 only */
    size_t committed;     /* words wholly in the past (below now's word) */
    uint32_t *owner;      /* owner[t] = id whose last use was at t (valid iff last[id] == t) */
    size_t bitcap;
    uint64_t now;
    /* OPT stack */
    uint32_t *stk;        /* stk[i] = id at level i (1-based) */
    uint64_t *rk;         /* rk[i] = its rank (smaller = used sooner = more worth keeping) */
    uint32_t depth;       /* levels in use */
    optbands *bands;      /* OPT at listed resident counts only (stack_sim_new_levels): the
                             stack above is not used */
};

static int grow_ids(stack_sim *s)
{
    size_t cap = s->capids ? s->capids * 2 : 1024;
    if (!GROW_ARRAY(s->last, cap) || !GROW_ARRAY(s->pos, cap) || !GROW_ARRAY(s->maxd, cap) ||
        !GROW_ARRAY(s->has_write, cap))
        return -1;
    s->capids = cap;
    return 0;
}

stack_sim *stack_sim_new(pg_policy policy, uint32_t max_resident)
{
    if ((policy != PG_LRU && policy != PG_OPT) || max_resident == 0)
        return NULL;
    stack_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->policy = policy;
    s->K = max_resident;
    s->L = s->K < 1024 ? s->K : 1024;
    s->hist = calloc((size_t)s->L + 3, sizeof *s->hist);
    s->wbdiff = calloc((size_t)s->L + 3, sizeof *s->wbdiff);
    int ok = s->hist && s->wbdiff && u64map_init(&s->ids, 1024) == 0 && grow_ids(s) == 0;
    if (ok && policy == PG_LRU) {
        s->bitcap = LRU_MIN_TIMELINE;
        s->bits = calloc(s->bitcap / 64 + 1, sizeof *s->bits);
        s->blk = calloc(s->bitcap / 64 + 2, sizeof *s->blk);
        s->owner = calloc(s->bitcap + 1, sizeof *s->owner);
        ok = s->bits && s->blk && s->owner;
    } else if (ok) {
        s->stk = calloc((size_t)s->L + 3, sizeof *s->stk);
        s->rk = calloc((size_t)s->L + 3, sizeof *s->rk);
        ok = s->stk && s->rk;
    }
    if (!ok) {
        stack_sim_free(s);
        return NULL;
    }
    return s;
}

stack_sim *stack_sim_new_levels(pg_policy policy, const uint32_t *levels, int n)
{
    if (policy == PG_LRU || n < 1)
        return n < 1 ? NULL : stack_sim_new(policy, levels[n - 1]);
    if (policy != PG_OPT)
        return NULL;
    stack_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->policy = policy;
    s->K = levels[n - 1];
    if (u64map_init(&s->ids, 1024) != 0 || !(s->bands = optbands_new(levels, n))) {
        stack_sim_free(s);
        return NULL;
    }
    return s;
}

void stack_sim_free(stack_sim *s)
{
    if (!s)
        return;
    optbands_free(s->bands);
    u64map_free(&s->ids);
    free(s->last);
    free(s->pos);
    free(s->maxd);
    free(s->has_write);
    free(s->hist);
    free(s->wbdiff);
    free(s->bits);
    free(s->blk);
    free(s->owner);
    free(s->stk);
    free(s->rk);
    free(s);
}

/* Makes levels 1 .. min(K, need) addressable. */
static int grow_levels(stack_sim *s, uint64_t need)
{
    if (need <= s->L || s->L == s->K)
        return 0;
    uint64_t L = (uint64_t)s->L * 2;
    if (L < need)
        L = need;
    if (L > s->K)
        L = s->K;
    size_t n = (size_t)L + 3, old = (size_t)s->L + 3;
    uint64_t *hist = realloc(s->hist, n * sizeof *hist);
    if (hist)
        s->hist = hist;
    int64_t *wb = realloc(s->wbdiff, n * sizeof *wb);
    if (wb)
        s->wbdiff = wb;
    if (!hist || !wb)
        return -1;
    memset(s->hist + old, 0, (n - old) * sizeof *hist);
    memset(s->wbdiff + old, 0, (n - old) * sizeof *wb);
    if (s->policy == PG_OPT) {
        uint32_t *stk = realloc(s->stk, n * sizeof *stk);
        if (stk)
            s->stk = stk;
        uint64_t *rk = realloc(s->rk, n * sizeof *rk);
        if (rk)
            s->rk = rk;
        if (!stk || !rk)
            return -1;
    }
    s->L = (uint32_t)L;
    return 0;
}

/* ---- The time line: a bitmap of last-use stamps, a Fenwick tree over its words ----
 * "How many pages were used after stamp t" is a count of ones above t: the popcount of t's own
 * word plus a Fenwick prefix over whole words, log2(line / 64) steps instead of log2(line).
 * The word that holds `now` takes new stamps without touching the tree; it is added (committed)
 * once the line has moved past it, so an access costs one prefix walk and at most one update
 * walk, and one more update per 64 accesses. */
static size_t line_words(const stack_sim *s)
{
    return s->bitcap / 64 + 1;
}

static void blk_add(stack_sim *s, size_t word, int32_t v)
{
    size_t n = line_words(s);
    for (size_t i = word + 1; i <= n; i += i & -i)
        s->blk[i] = (uint32_t)((int32_t)s->blk[i] + v);
}

/* Ones at stamps 1 .. t (t at most now: its word is committed or now's). */
/* Population count without relying on the POPCNT instruction (the build targets baseline
 * x86-64, where __builtin_popcountll is a libgcc call). */
static inline unsigned popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return (unsigned)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static uint64_t line_prefix(const stack_sim *s, uint64_t t)
{
    size_t w = (size_t)(t >> 6);
    unsigned b = (unsigned)(t & 63);
    uint64_t mask = b == 63 ? UINT64_MAX : (UINT64_C(2) << b) - 1;
    uint64_t sum = (uint64_t)popcount64(s->bits[w] & mask);
    for (size_t i = w; i > 0; i -= i & -i)
        sum += s->blk[i];
    return sum;
}

static void line_clear(stack_sim *s, uint64_t t)
{
    size_t w = (size_t)(t >> 6);
    s->bits[w] &= ~(UINT64_C(1) << (t & 63));
    if (w < s->committed)
        blk_add(s, w, -1);
}

static void line_set_now(stack_sim *s, uint64_t t)
{
    size_t w = (size_t)(t >> 6);
    for (; s->committed < w; s->committed++)
        blk_add(s, s->committed, (int32_t)popcount64(s->bits[s->committed]));
    s->bits[w] |= UINT64_C(1) << (t & 63);
}

/* The time line is full: renumber the live stamps 1..D in order (D = distinct pages), growing
 * the line to at least 4 D, and rebuild bitmap and tree.  A compaction costs O(line) and comes
 * after at least 3 D accesses, so O(1) amortised; the line stays within 8 D. */
static int compact_time(stack_sim *s)
{
    size_t D = s->nids, cap = s->bitcap;
    while (D * 4 > cap)
        cap *= 2;
    uint32_t *owner = calloc(cap + 1, sizeof *owner);
    if (!owner)
        return -1;
    size_t t2 = 0;
    for (size_t t = 1; t <= s->now; t++) {
        uint32_t id = s->owner[t];
        if (id < s->nids && s->last[id] == t) {
            owner[++t2] = id;
            s->last[id] = t2;
        }
    }
    free(s->owner);
    s->owner = owner;
    if (cap != s->bitcap) {
        uint64_t *bits = realloc(s->bits, (cap / 64 + 1) * sizeof *bits);
        if (bits)
            s->bits = bits;
        uint32_t *blk = realloc(s->blk, (cap / 64 + 2) * sizeof *blk);
        if (blk)
            s->blk = blk;
        if (!bits || !blk)
            return -1;
        s->bitcap = cap;
    }
    /* ones at 1..t2; words below t2's committed, the tree built in O(words) */
    size_t n = line_words(s);
    memset(s->bits, 0, n * sizeof *s->bits);
    memset(s->blk, 0, (n + 1) * sizeof *s->blk);
    for (size_t t = 1; t <= t2; t++)
        s->bits[t >> 6] |= UINT64_C(1) << (t & 63);
    s->committed = t2 >> 6;
    for (size_t w = 0; w < s->committed; w++)
        s->blk[w + 1] += popcount64(s->bits[w]);
    for (size_t i = 1; i <= n; i++) {
        size_t j = i + (i & -i);
        if (j <= n)
            s->blk[j] += s->blk[i];
    }
    s->now = t2;
    return 0;
}

/* ---- OPT priority stack ---- */
static void put_level(stack_sim *s, uint32_t level, uint32_t id, uint64_t rank)
{
    s->stk[level] = id;
    s->rk[level] = rank;
    s->pos[id] = level;
}

/* Moves id (now at level `old`, 0 = deeper than K) to the top with its new rank. */
static void opt_move_to_top(stack_sim *s, uint32_t id, uint32_t old, uint64_t rank)
{
    if (old == 1) {
        put_level(s, 1, id, rank);
        return;
    }
    if (s->depth == 0) {
        s->depth = 1;
        put_level(s, 1, id, rank);
        return;
    }
    /* Where the last carried entry lands: the accessed page's old level, else one level
     * deeper than the stack (dropped beyond K). */
    uint32_t end = old ? old : s->depth + 1;
    uint32_t carry = s->stk[1];
    uint64_t carry_rk = s->rk[1];
    put_level(s, 1, id, rank);
    /* Levels 2 .. end-1: the more urgent of (carried, resident) stays.  A plain scan over the
     * contiguous rank array: OPT stacks are nearly sorted by rank, so nearly every level swaps,
     * and a search structure would only add work per level. */
    for (uint32_t i = 2; i < end; i++) {
        if (s->rk[i] > carry_rk) {
            uint32_t down = s->stk[i];
            uint64_t down_rk = s->rk[i];
            s->stk[i] = carry;
            s->rk[i] = carry_rk;
            s->pos[carry] = i;
            carry = down;
            carry_rk = down_rk;
        }
    }
    if (end <= s->K) {
        put_level(s, end, carry, carry_rk);
        if (end > s->depth)
            s->depth = end;
    } else {
        s->pos[carry] = 0;
    }
}

/* ---- shared accounting ---- */
static void count_evictions(stack_sim *s, uint32_t id, uint32_t d)
{
    /* Evicted for C < d; a write-back for C >= max(1, maxd). */
    if (!s->has_write[id])
        return;
    uint32_t lo = s->maxd[id] > 1 ? s->maxd[id] : 1;
    uint32_t hi = d - 1;
    if (hi > s->K)
        hi = s->K;
    if (lo <= hi) {
        s->wbdiff[lo] += 1;
        s->wbdiff[hi + 1] -= 1;
    }
}

static void record_use(stack_sim *s, uint32_t id, uint32_t d, int cold, int write)
{
    s->accesses++;
    if (!cold) {
        if (d <= s->K)
            s->hist[d]++;
        count_evictions(s, id, d);
    }
    if (write) {
        s->has_write[id] = 1;
        s->maxd[id] = 0;
    } else if (d > s->maxd[id]) {
        s->maxd[id] = d;
    }
}

int stack_sim_access(stack_sim *s, uint64_t page, int write, uint64_t rank)
{
    int inserted;
    uint64_t *slot = u64map_put(&s->ids, page, s->nids, &inserted);
    if (!slot)
        return -1;
    if (s->bands) {
        s->nids += inserted; /* the bands number their pages themselves, the same way */
        return optbands_access_id(s->bands, (uint32_t)*slot, write, rank);
    }
    return stack_sim_access_id(s, (uint32_t)*slot, write, rank);
}

int stack_sim_access_id(stack_sim *s, uint32_t id, int write, uint64_t rank)
{
    if (s->bands)
        return optbands_access_id(s->bands, id, write, rank);
    if (s->policy == PG_LRU && s->now == s->bitcap && compact_time(s) != 0)
        return -1;
    int inserted = id == s->nids;
    if (inserted) {
        if (s->nids == s->capids && grow_ids(s) != 0)
            return -1;
        s->nids++;
        if (grow_levels(s, s->nids + 1))
            return -1;
        s->last[id] = 0;
        s->pos[id] = 0;
        s->maxd[id] = 0;
        s->has_write[id] = 0;
    }
    uint32_t d = s->K + 1;
    if (s->policy == PG_LRU) {
        uint32_t j = 0;
        if (!inserted && s->last[id] == 0) {
            /* in the filter: depth j + 1 */
            while (s->mtf[j] != id)
                j++;
            if (j + 1 <= s->K)
                d = j + 1;
        } else {
            if (!inserted) {
                /* below the filter: the filter's pages, then the stamps after its own */
                uint64_t stamps = s->nids - s->nmtf;
                uint64_t later = stamps - line_prefix(s, s->last[id]);
                if (s->nmtf + later + 1 <= s->K)
                    d = (uint32_t)(s->nmtf + later + 1);
                line_clear(s, s->last[id]);
                s->last[id] = 0;
            }
            if (s->nmtf < LRU_FILTER) {
                j = s->nmtf++;
            } else {
                /* the filter's last page moves to the time line */
                uint32_t out = s->mtf[LRU_FILTER - 1];
                s->now++;
                s->last[out] = s->now;
                s->owner[s->now] = out;
                line_set_now(s, s->now);
                j = LRU_FILTER - 1;
            }
        }
        for (; j > 0; j--)
            s->mtf[j] = s->mtf[j - 1];
        s->mtf[0] = id;
    } else {
        if (!inserted && s->pos[id])
            d = s->pos[id];
        opt_move_to_top(s, id, s->pos[id], rank);
    }
    record_use(s, id, inserted ? s->K + 1 : d, inserted, write);
    return 0;
}

int stack_sim_finish(stack_sim *s)
{
    if (s->bands) {
        optbands_finish(s->bands);
        return 0;
    }
    for (uint32_t id = 0; id < s->nids; id++) {
        uint32_t d = s->K + 1;
        if (s->policy == PG_LRU) {
            uint64_t depth = 0;
            if (s->last[id] == 0) {
                while (s->mtf[depth] != id)
                    depth++;
                depth++;
            } else {
                depth = s->nmtf + (s->nids - s->nmtf - line_prefix(s, s->last[id])) + 1;
            }
            if (depth <= s->K)
                d = (uint32_t)depth;
        } else if (s->pos[id]) {
            d = s->pos[id];
        }
        count_evictions(s, id, d);
    }
    return 0;
}

void stack_sim_counts(const stack_sim *s, uint32_t resident, pg_counts *out)
{
    if (s->bands) {
        if (optbands_counts(s->bands, resident, out) != 0)
            memset(out, 0, sizeof *out); /* not a listed count: the caller's error */
        return;
    }
    if (resident > s->K)
        resident = s->K;
    if (resident > s->L) /* no use is deeper than the levels that exist */
        resident = s->L;
    uint64_t hits = 0;
    int64_t wb = 0;
    for (uint32_t c = 1; c <= resident; c++) {
        hits += s->hist[c];
        wb += s->wbdiff[c];
    }
    out->accesses = s->accesses;
    out->faults = s->accesses - hits;
    out->writebacks = (uint64_t)wb;
}
