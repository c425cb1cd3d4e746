/* The reduce filter's self-check: see mt_reduce_check.h. */
#include "mt_reduce_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MT_RCHECK_ARRAY_K 32 /* up to here a scan of a recency-ordered array beats a hash */

/* ---- an LRU memory of k metapages -------------------------------------------------------- */

static int lru_init(mt_rcheck_lru *l, uint32_t k)
{
    memset(l, 0, sizeof *l);
    l->k = k;
    if (k <= MT_RCHECK_ARRAY_K)
        return (l->mru = calloc(k, sizeof *l->mru)) ? 0 : -1;
    uint32_t nb = 1;
    while (nb < 2 * k)
        nb *= 2;
    l->bmask = nb - 1;
    l->mp = calloc(k, sizeof *l->mp);
    l->prev = calloc(k + 1, sizeof *l->prev);
    l->next = calloc(k + 1, sizeof *l->next);
    l->hnext = calloc(k, sizeof *l->hnext);
    l->bucket = malloc(nb * sizeof *l->bucket);
    if (!l->mp || !l->prev || !l->next || !l->hnext || !l->bucket)
        return -1;
    memset(l->bucket, 0xff, nb * sizeof *l->bucket);
    l->prev[k] = l->next[k] = k; /* the sentinel: next is the most recent, prev the least */
    return 0;
}

static void lru_free(mt_rcheck_lru *l)
{
    free(l->mru);
    free(l->mp);
    free(l->prev);
    free(l->next);
    free(l->hnext);
    free(l->bucket);
    memset(l, 0, sizeof *l);
}

static uint32_t bucket_of(const mt_rcheck_lru *l, uint64_t mp)
{
    return (uint32_t)((mp * UINT64_C(0xff51afd7ed558ccd)) >> 40) & l->bmask;
}

static void list_out(mt_rcheck_lru *l, uint32_t j)
{
    l->next[l->prev[j]] = l->next[j];
    l->prev[l->next[j]] = l->prev[j];
}

static void list_front(mt_rcheck_lru *l, uint32_t j)
{
    l->prev[j] = l->k;
    l->next[j] = l->next[l->k];
    l->prev[l->next[l->k]] = j;
    l->next[l->k] = j;
}

/* A reference to mp: 1 a fault (mp was not among the k most recent metapages), 0 a hit. */
static int lru_ref(mt_rcheck_lru *l, uint64_t mp)
{
    l->refs++;
    l->last = mp + 1;
    if (l->mru) {
        uint32_t j = 0;
        while (j < l->n && l->mru[j] != mp)
            j++;
        int fault = j == l->n;
        if (fault) {
            l->faults++;
            if (l->n < l->k)
                l->n++;
            j = l->n - 1; /* the least recent goes (or the new last place) */
        }
        memmove(l->mru + 1, l->mru, j * sizeof *l->mru);
        l->mru[0] = mp;
        return fault;
    }
    uint32_t b = bucket_of(l, mp), j = l->bucket[b];
    while (j != UINT32_MAX && l->mp[j] != mp)
        j = l->hnext[j];
    if (j != UINT32_MAX) {
        list_out(l, j);
        list_front(l, j);
        return 0;
    }
    l->faults++;
    if (l->n < l->k) {
        j = l->n++;
    } else {
        j = l->prev[l->k];
        list_out(l, j);
        uint32_t *pp = &l->bucket[bucket_of(l, l->mp[j])];
        while (*pp != j)
            pp = &l->hnext[*pp];
        *pp = l->hnext[j];
    }
    l->mp[j] = mp;
    l->hnext[j] = l->bucket[b];
    l->bucket[b] = j;
    list_front(l, j);
    return 1;
}

/* ---- the check ------------------------------------------------------------------------- */

int mt_rcheck_init(mt_rcheck *c, uint64_t budget, unsigned size_mask)
{
    memset(c, 0, sizeof *c);
    if (budget < MT_REDUCE_BUDGET_MIN || budget > MT_REDUCE_BUDGET_MAX || budget % 4096)
        return -1;
    c->mask = size_mask & ((1u << MT_REDUCE_SIZES) - 1);
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        if (!(c->mask >> i & 1))
            continue;
        mt_rcheck_size *z = &c->s[i];
        uint32_t k = mt_reduce_k(budget, i);
        z->fq_cap = 1024;
        z->fq = malloc(z->fq_cap * sizeof *z->fq);
        if (lru_init(&z->full, k) != 0 || lru_init(&z->kept, k) != 0 || !z->fq) {
            mt_rcheck_free(c);
            return -1;
        }
    }
    return 0;
}

void mt_rcheck_free(mt_rcheck *c)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        lru_free(&c->s[i].full);
        lru_free(&c->s[i].kept);
        free(c->s[i].fq);
    }
    memset(c, 0, sizeof *c);
}

static void hist_add(mt_rcheck_ev *h, unsigned *n, uint64_t cycle, uint64_t mp, int fault)
{
    h[*n % MT_RCHECK_HIST] = (mt_rcheck_ev){.cycle = cycle, .mp = mp, .fault = (uint8_t)fault};
    ++*n;
}

static void fq_push(mt_rcheck *c, mt_rcheck_size *z, uint64_t cycle)
{
    if (z->fq_num == z->fq_cap) {
        uint64_t *q = malloc(2 * z->fq_cap * sizeof *q);
        if (!q) {
            c->oom = c->failed = 1;
            snprintf(c->msg, sizeof c->msg, "reduce check: out of memory");
            return;
        }
        for (size_t j = 0; j < z->fq_num; j++)
            q[j] = z->fq[(z->fq_head + j) & (z->fq_cap - 1)];
        free(z->fq);
        z->fq = q;
        z->fq_head = 0;
        z->fq_cap *= 2;
    }
    z->fq[(z->fq_head + z->fq_num++) & (z->fq_cap - 1)] = cycle;
}

void mt_rcheck_access(mt_rcheck *c, uint64_t cycle, uint64_t addr)
{
    /* the filter's page number (mt_reduce_access): the address below bit 56, in 4 KiB pages */
    const uint64_t page4k = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    for (unsigned m = c->mask; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        mt_rcheck_size *z = &c->s[i];
        const uint64_t mp = page4k >> i;
        if (z->full.last == mp + 1)
            continue; /* a repeat of the most recent metapage: no reference at this size */
        int fault = lru_ref(&z->full, mp);
        if (fault)
            fq_push(c, z, cycle);
        hist_add(z->hfull, &z->nhfull, cycle, mp, fault);
    }
}

static void history(const mt_rcheck_ev *h, unsigned n, const char *what, char *buf, size_t len, size_t *at)
{
    unsigned first = n > MT_RCHECK_HIST ? n - MT_RCHECK_HIST : 0;
    if (*at < len)
        *at += (size_t)snprintf(buf + *at, len - *at, "  %s, the last %u (cycle metapage hit/FAULT):\n", what, n - first);
    for (unsigned j = first; j < n && *at < len; j++) {
        const mt_rcheck_ev *e = &h[j % MT_RCHECK_HIST];
        *at += (size_t)snprintf(buf + *at, len - *at, "    %" PRIu64 " 0x%" PRIx64 " %s\n", e->cycle, e->mp,
                                e->fault ? "FAULT" : "hit");
    }
}

static int fail(mt_rcheck *c, unsigned i, uint64_t cycle, const char *what)
{
    mt_rcheck_size *z = &c->s[i];
    size_t at = 0, len = sizeof c->msg;
    c->failed = 1;
    at += (size_t)snprintf(c->msg, len, "reduce check: size %" PRIu64 "K (k = %u), cycle %" PRIu64 ": %s\n",
                           (UINT64_C(4) << i), z->full.k, cycle, what);
    if (at < len)
        at += (size_t)snprintf(c->msg + at, len - at,
                               "  full stream: %" PRIu64 " references, %" PRIu64 " faults; kept: %" PRIu64
                               " records, %" PRIu64 " faults\n",
                               z->full.refs, z->full.faults, z->kept.refs, z->kept.faults);
    history(z->hfull, z->nhfull, "full stream", c->msg, len, &at);
    history(z->hkept, z->nhkept, "kept records", c->msg, len, &at);
    return -1;
}

int mt_rcheck_record(mt_rcheck *c, uint64_t cycle, uint64_t page, unsigned mask)
{
    if (c->failed)
        return -1;
    for (unsigned m = mask & c->mask; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        mt_rcheck_size *z = &c->s[i];
        const uint64_t mp = page >> i;
        if (z->last_rec > cycle)
            return fail(c, i, cycle, "a record older than the one before it at this size");
        z->last_rec = cycle + 1;
        int fault = lru_ref(&z->kept, mp);
        hist_add(z->hkept, &z->nhkept, cycle, mp, fault);
        /* the full stream's faults before this record were never kept: the filter dropped a fault */
        if (z->fq_num && z->fq[z->fq_head] < cycle) {
            char w[160];
            snprintf(w, sizeof w, "the full stream's fault at cycle %" PRIu64 " was not kept", z->fq[z->fq_head]);
            return fail(c, i, cycle, w);
        }
        int full_fault = z->fq_num && z->fq[z->fq_head] == cycle;
        if (full_fault) {
            z->fq_head = (z->fq_head + 1) & (z->fq_cap - 1);
            z->fq_num--;
        }
        if (fault != full_fault)
            return fail(c, i, cycle, fault ? "a fault in the kept stream, a hit in the full one"
                                           : "a hit in the kept stream, a fault in the full one");
    }
    return c->failed ? -1 : 0;
}

int mt_rcheck_finish(mt_rcheck *c)
{
    if (c->failed)
        return -1;
    for (unsigned m = c->mask; m; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        mt_rcheck_size *z = &c->s[i];
        if (z->fq_num) {
            char w[160];
            snprintf(w, sizeof w, "the full stream's fault at cycle %" PRIu64 " was never kept (%zu such)",
                     z->fq[z->fq_head], z->fq_num);
            return fail(c, i, z->fq[z->fq_head], w);
        }
        if (z->full.faults != z->kept.faults)
            return fail(c, i, 0, "the fault counts differ at the end");
    }
    return 0;
}

const char *mt_rcheck_error(const mt_rcheck *c) { return c->msg; }

void mt_rcheck_summary(const mt_rcheck *c, char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = 0;
    for (unsigned m = c->mask; m && at < len; m &= m - 1) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        const mt_rcheck_size *z = &c->s[i];
        at += (size_t)snprintf(buf + at, len - at,
                               "reduce check %" PRIu64 "K k=%u: full %" PRIu64 " refs %" PRIu64
                               " faults, kept %" PRIu64 " records %" PRIu64 " faults\n",
                               UINT64_C(4) << i, z->full.k, z->full.refs, z->full.faults, z->kept.refs,
                               z->kept.faults);
    }
}
