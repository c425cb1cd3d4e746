/* Stack-distance evaluation of LRU and OPT for all resident counts in one pass (see header). */
#include "host/stackdist.h"

#include <stdlib.h>
#include <string.h>

#include "host/u64map.h"

#define LRU_MIN_TIMELINE 64 /* time stamps: the line starts this long and grows with the pages */

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
    /* LRU time line */
    uint32_t *bit;        /* Fenwick tree over time stamps 1..bitcap: 1 = someone's last use */
    uint32_t *owner;      /* owner[t] = id whose last use was at t (valid iff last[id] == t) */
    size_t bitcap;
    uint64_t now;
    /* OPT stack */
    uint32_t *stk;        /* stk[i] = id at level i (1-based) */
    uint64_t *rk;         /* rk[i] = its rank (smaller = used sooner = more worth keeping) */
    uint32_t depth;       /* levels in use */
};

static int grow_ids(stack_sim *s)
{
    size_t cap = s->capids ? s->capids * 2 : 1024;
    uint64_t *last = realloc(s->last, cap * sizeof *last);
    if (last)
        s->last = last;
    uint32_t *pos = realloc(s->pos, cap * sizeof *pos);
    if (pos)
        s->pos = pos;
    uint32_t *maxd = realloc(s->maxd, cap * sizeof *maxd);
    if (maxd)
        s->maxd = maxd;
    uint8_t *hw = realloc(s->has_write, cap);
    if (hw)
        s->has_write = hw;
    if (!last || !pos || !maxd || !hw)
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
        s->bit = calloc(s->bitcap + 1, sizeof *s->bit);
        s->owner = calloc(s->bitcap + 1, sizeof *s->owner);
        ok = s->bit && s->owner;
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

void stack_sim_free(stack_sim *s)
{
    if (!s)
        return;
    u64map_free(&s->ids);
    free(s->last);
    free(s->pos);
    free(s->maxd);
    free(s->has_write);
    free(s->hist);
    free(s->wbdiff);
    free(s->bit);
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

/* ---- Fenwick tree over time stamps ---- */
static void bit_add(stack_sim *s, size_t i, int32_t v)
{
    for (; i <= s->bitcap; i += i & -i)
        s->bit[i] = (uint32_t)((int32_t)s->bit[i] + v);
}

static uint64_t bit_prefix(const stack_sim *s, size_t i)
{
    uint64_t sum = 0;
    for (; i > 0; i -= i & -i)
        sum += s->bit[i];
    return sum;
}

/* The time line is full: renumber the live stamps 1..D in order (D = distinct pages), growing
 * the line to at least 4 D, and rebuild the tree.  A compaction costs O(line) and comes after at
 * least 3 D accesses, so O(1) amortised; the line stays within 8 D, the tree within
 * log2(8 D) levels (the cost of every access): 16-17 at 4 KiB pages over 64 MiB, 7-8 at 2 MiB,
 * against 16 for every size with the fixed 64 K line before. */
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
        uint32_t *bit = realloc(s->bit, (cap + 1) * sizeof *bit);
        if (!bit)
            return -1;
        s->bit = bit;
        s->bitcap = cap;
    }
    /* Tree of "1 at 1..D": node i covers (i - lowbit(i), i]. */
    for (size_t i = 1; i <= s->bitcap; i++) {
        size_t lo = i - (i & -i), hi = i < t2 ? i : t2;
        s->bit[i] = hi > lo ? (uint32_t)(hi - lo) : 0;
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
    return stack_sim_access_id(s, (uint32_t)*slot, write, rank);
}

int stack_sim_access_id(stack_sim *s, uint32_t id, int write, uint64_t rank)
{
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
        if (!inserted) {
            uint64_t later = (s->nids - 1) - (bit_prefix(s, s->last[id]) - 1);
            if (later + 1 <= s->K)
                d = (uint32_t)(later + 1);
            bit_add(s, s->last[id], -1);
        }
        s->now++;
        s->last[id] = s->now;
        s->owner[s->now] = id;
        bit_add(s, s->now, 1);
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
    for (uint32_t id = 0; id < s->nids; id++) {
        uint32_t d = s->K + 1;
        if (s->policy == PG_LRU) {
            uint64_t later = s->nids - bit_prefix(s, s->last[id]);
            if (later + 1 <= s->K)
                d = (uint32_t)(later + 1);
        } else if (s->pos[id]) {
            d = s->pos[id];
        }
        count_evictions(s, id, d);
    }
    return 0;
}

void stack_sim_counts(const stack_sim *s, uint32_t resident, pg_counts *out)
{
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
