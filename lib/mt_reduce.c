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
        if (!f->page || !f->ref || !f->last || !f->t1 || !f->pend || !f->rw) {
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

/* ---- one filter ------------------------------------------------------------------------- */

/* The reference at time t (cycle + 1) to metapage p of filter i (page4k: its 4 KiB page). */
static void filter_ref(mt_reduce *r, unsigned i, uint64_t t, uint64_t p, uint64_t page4k, unsigned rw)
{
    mt_reduce_filter *f = &r->f[i];
    if (f->n && f->mru == p)
        return; /* a repeat of the last metapage: changes no decision (docs) */
    uint32_t e = f->n;
    for (uint32_t j = 0; j < f->n; j++)
        if (f->page[j] == p) {
            e = j;
            break;
        }
    if (e < f->n) { /* in the filter: the pending reference t2 (if any) is decided now */
        if (f->pend[e]) {
            uint32_t d = f->k; /* distinct other metapages since t1, saturated at k */
            if (f->evicted_last <= f->t1[e]) {
                d = 0;
                for (uint32_t j = 0; j < f->n; j++)
                    d += j != e && f->last[j] > f->t1[e];
            }
            if (d >= f->k) { /* t3 is too far from t1: t2 is kept */
                heap_push(r, f->last[e], f->ref[e], f->rw[e], i);
                f->t1[e] = f->last[e];
            }
        }
        f->pend[e] = 1;
    } else { /* not in the filter: kept at once, and the LRU entry leaves (its pending kept) */
        heap_push(r, t, page4k, rw, i);
        if (f->n == f->k) {
            e = 0;
            for (uint32_t j = 1; j < f->n; j++)
                if (f->last[j] < f->last[e])
                    e = j;
            if (f->pend[e])
                heap_push(r, f->last[e], f->ref[e], f->rw[e], i);
            if (f->last[e] > f->evicted_last)
                f->evicted_last = f->last[e];
        } else {
            f->n++;
        }
        f->page[e] = p;
        f->t1[e] = t;
        f->pend[e] = 0;
    }
    f->last[e] = t;
    f->rw[e] = (uint8_t)rw;
    f->ref[e] = page4k;
    f->mru = p;
}

void mt_reduce_access(mt_reduce *r, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page4k = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    r->accesses++;
    if (page4k + 1 == r->last_page)
        return; /* the same 4 KiB page again: a repeat at every size */
    r->last_page = page4k + 1;
    uint64_t t = cycle + 1;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        filter_ref(r, i, t, page4k >> i, page4k, rw & 1);
    if (++r->since_flush >= 4096) {
        r->since_flush = 0;
        release_below(r, watermark(r));
    }
}

void mt_reduce_finish(mt_reduce *r)
{
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
