/* The reduce mode's exact filter: see mt_reduce.h and docs/metapaging.md "Exact reduction". */
#include "mt_reduce.h"

#include <stdlib.h>
#include <string.h>

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
        f->page = calloc(f->k, sizeof *f->page);
        f->ref = calloc(f->k, sizeof *f->ref);
        f->last = calloc(f->k, sizeof *f->last);
        f->t1 = calloc(f->k, sizeof *f->t1);
        f->pend = calloc(f->k, 1);
        f->rw = calloc(f->k, 1);
        f->prev = calloc(f->k, sizeof *f->prev);
        f->next = calloc(f->k, sizeof *f->next);
        uint32_t cap = 4;
        while (cap < 2 * f->k)
            cap *= 2;
        f->hmask = cap - 1;
        f->slot = calloc(cap, sizeof *f->slot);
        f->head = f->tail = UINT32_MAX;
        if (!f->page || !f->ref || !f->last || !f->t1 || !f->pend || !f->rw || !f->prev || !f->next ||
            !f->slot) {
            mt_reduce_free(r);
            return -1;
        }
    }
    return 0;
}

void mt_reduce_free(mt_reduce *r)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_reduce_filter *f = &r->f[i];
        free(f->page);
        free(f->ref);
        free(f->last);
        free(f->t1);
        free(f->pend);
        free(f->rw);
        free(f->prev);
        free(f->next);
        free(f->slot);
    }
    free(r->heap);
    memset(r, 0, sizeof *r);
}

/* ---- the reorder stage ------------------------------------------------------------------ */

static void heap_push(mt_reduce *r, uint64_t cycle, uint64_t page, unsigned rw, unsigned i)
{
    if (r->nheap == r->capheap) {
        size_t cap = r->capheap ? r->capheap * 2 : 1024;
        mt_reduce_rec *h = realloc(r->heap, cap * sizeof *h);
        if (!h) {
            r->oom = 1;
            return;
        }
        r->heap = h;
        r->capheap = cap;
    }
    size_t j = r->nheap++;
    mt_reduce_rec x = {.cycle = cycle, .page = page, .mask = (uint16_t)(1u << i), .rw = (uint8_t)rw};
    while (j && r->heap[(j - 1) / 2].cycle > x.cycle) {
        r->heap[j] = r->heap[(j - 1) / 2];
        j = (j - 1) / 2;
    }
    r->heap[j] = x;
    r->kept[i]++;
}

static mt_reduce_rec heap_pop(mt_reduce *r)
{
    mt_reduce_rec top = r->heap[0], x = r->heap[--r->nheap];
    size_t j = 0, n = r->nheap;
    for (;;) {
        size_t c = 2 * j + 1;
        if (c >= n)
            break;
        if (c + 1 < n && r->heap[c + 1].cycle < r->heap[c].cycle)
            c++;
        if (r->heap[c].cycle >= x.cycle)
            break;
        r->heap[j] = r->heap[c];
        j = c;
    }
    if (n)
        r->heap[j] = x;
    return top;
}

/* Hands every record with a cycle below `limit` to the sink, in cycle order, the sizes that keep
 * the same reference merged into one mask. */
static void release_below(mt_reduce *r, uint64_t limit)
{
    while (r->nheap && r->heap[0].cycle < limit) {
        mt_reduce_rec a = heap_pop(r);
        while (r->nheap && r->heap[0].cycle == a.cycle)
            a.mask |= heap_pop(r).mask;
        r->records++;
        if (r->sink)
            r->sink(r->ctx, a.cycle - 1, a.page, a.rw, a.mask);
    }
}

/* The oldest reference any filter may still keep: records before it are final. */
static uint64_t watermark(const mt_reduce *r)
{
    uint64_t w = UINT64_MAX;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        const mt_reduce_filter *f = &r->f[i];
        for (uint32_t j = 0; j < f->n; j++)
            if (f->pend[j] && f->last[j] < w)
                w = f->last[j];
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
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        const mt_reduce_filter *f = &r->f[i];
        for (uint32_t j = 0; j < f->n; j++)
            if (f->pend[j] && f->last[j] < best) {
                best = f->last[j];
                bi = i;
                bj = j;
            }
    }
    if (bj == UINT32_MAX)
        return 0;
    mt_reduce_filter *f = &r->f[bi];
    heap_push(r, f->last[bj], f->ref[bj], f->rw[bj], bi);
    f->t1[bj] = f->last[bj];
    f->pend[bj] = 0;
    r->forced++;
    return 1;
}

/* ---- one filter ------------------------------------------------------------------------- */

static inline uint32_t hash_of(const mt_reduce_filter *f, uint64_t p)
{
    return (uint32_t)((p * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & f->hmask;
}

/* Entry of metapage p, or f->n (not in the filter). */
static uint32_t lookup(const mt_reduce_filter *f, uint64_t p)
{
    for (uint32_t h = hash_of(f, p);; h = (h + 1) & f->hmask) {
        uint32_t e = f->slot[h];
        if (!e)
            return UINT32_MAX;
        if (f->page[e - 1] == p)
            return e - 1;
    }
}

static void hash_insert(mt_reduce_filter *f, uint64_t p, uint32_t e)
{
    uint32_t h = hash_of(f, p);
    while (f->slot[h])
        h = (h + 1) & f->hmask;
    f->slot[h] = e + 1;
}

/* Linear probing's deletion: later entries of the same cluster move back into the gap. */
static void hash_delete(mt_reduce_filter *f, uint64_t p)
{
    uint32_t h = hash_of(f, p);
    while (f->page[f->slot[h] - 1] != p)
        h = (h + 1) & f->hmask;
    uint32_t gap = h;
    for (uint32_t j = (gap + 1) & f->hmask; f->slot[j]; j = (j + 1) & f->hmask) {
        uint32_t home = hash_of(f, f->page[f->slot[j] - 1]);
        /* the entry at j may fill the gap iff its home is not in (gap, j] (cyclically) */
        if (((j - home) & f->hmask) >= ((j - gap) & f->hmask)) {
            f->slot[gap] = f->slot[j];
            gap = j;
        }
    }
    f->slot[gap] = 0;
}

static void list_unlink(mt_reduce_filter *f, uint32_t e)
{
    uint32_t p = f->prev[e], n = f->next[e];
    if (p != UINT32_MAX)
        f->next[p] = n;
    else
        f->head = n;
    if (n != UINT32_MAX)
        f->prev[n] = p;
    else
        f->tail = p;
}

static void list_push_front(mt_reduce_filter *f, uint32_t e)
{
    f->prev[e] = UINT32_MAX;
    f->next[e] = f->head;
    if (f->head != UINT32_MAX)
        f->prev[f->head] = e;
    else
        f->tail = e;
    f->head = e;
}

/* The reference at time t (cycle + 1) to metapage p of filter i (page4k: its 4 KiB page). */
static void filter_ref(mt_reduce *r, unsigned i, uint64_t t, uint64_t p, uint64_t page4k, unsigned rw)
{
    mt_reduce_filter *f = &r->f[i];
    if (f->n && f->mru == p)
        return; /* a repeat of the last metapage: changes no decision (docs) */
    uint32_t e = lookup(f, p);
    if (e != UINT32_MAX) { /* in the filter: the pending reference t2 (if any) is decided now */
        if (f->pend[e] && f->evicted_last > f->t1[e]) {
            /* k distinct others came since t1 (one of them left the filter): t2 is kept */
            heap_push(r, f->last[e], f->ref[e], f->rw[e], i);
            f->t1[e] = f->last[e];
        } /* else fewer than k distinct others since t1: t2 is dropped (SAD) */
        f->pend[e] = 1;
        list_unlink(f, e);
    } else { /* not in the filter: kept at once, and the LRU entry leaves (its pending kept) */
        heap_push(r, t, page4k, rw, i);
        if (f->n == f->k) {
            e = f->tail;
            if (f->pend[e])
                heap_push(r, f->last[e], f->ref[e], f->rw[e], i);
            if (f->last[e] > f->evicted_last)
                f->evicted_last = f->last[e];
            hash_delete(f, f->page[e]);
            list_unlink(f, e);
        } else {
            e = f->n++;
        }
        f->page[e] = p;
        hash_insert(f, p, e);
        f->t1[e] = t;
        f->pend[e] = 0;
    }
    list_push_front(f, e);
    f->last[e] = t;
    f->rw[e] = (uint8_t)rw;
    f->ref[e] = page4k;
    f->mru = p;
}

/* One access that changes the 4 KiB page, through every size's filter. */
static void filters_ref(mt_reduce *r, uint64_t cycle, uint64_t page4k, unsigned rw)
{
    uint64_t t = cycle + 1;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        filter_ref(r, i, t, page4k >> i, page4k, rw);
    if (++r->since_flush >= 4096 || r->nheap > r->heap_limit) {
        r->since_flush = 0;
        release_below(r, watermark(r));
        /* each forced reference is the oldest undecided one: it and what waited for it leave */
        while (r->nheap > r->heap_limit / 2 && !r->oom && force_oldest(r))
            release_below(r, watermark(r));
    }
}

/* An alternation of x and y may be skipped when every size sees it as hits: a size whose filter
 * holds one entry only if x and y are the same metapage there. */
static int alternation_ok(const mt_reduce *r, uint64_t x, uint64_t y)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        if (r->f[i].k < 2 && (x >> i) != (y >> i))
            return 0;
    return 1;
}

static void replay_skipped(mt_reduce *r)
{
    if (r->skipped_valid) {
        r->skipped_valid = 0;
        filters_ref(r, r->skipped_cycle, r->skipped_page, r->skipped_rw);
    }
}

void mt_reduce_access(mt_reduce *r, uint64_t cycle, uint64_t addr, unsigned rw)
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

int mt_reduce_settled(const mt_reduce *r, uint64_t *last, uint64_t *other)
{
    /* alt_steps > 2 with alt_ok is where mt_reduce_access starts skipping; a repeat of the last
     * page since then leaves both as they are */
    if (!r->alt_ok || r->alt_steps <= 2 || !r->last_page || !r->prev_page)
        return 0;
    *last = r->last_page - 1;
    *other = r->prev_page - 1;
    return 1;
}

void mt_reduce_finish(mt_reduce *r)
{
    replay_skipped(r);
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_reduce_filter *f = &r->f[i];
        for (uint32_t j = 0; j < f->n; j++)
            if (f->pend[j]) {
                heap_push(r, f->last[j], f->ref[j], f->rw[j], i);
                f->pend[j] = 0;
            }
    }
    release_below(r, UINT64_MAX);
}
