/* The trace unit's reduce path: see mt_unit_reduce.h (the shape, the window, the timing). */
#include "mt_unit_reduce.h"

#include <stdlib.h>
#include <string.h>

int mt_urd_init(mt_unit_reduce *u, uint64_t budget, uint32_t wslots, uint32_t qcap,
                mt_reduce_sink sink, void *ctx)
{
    memset(u, 0, sizeof *u);
    if (budget < MT_REDUCE_BUDGET_MIN || budget > MT_REDUCE_BUDGET_MAX || budget % 4096)
        return -1;
    if (wslots < 2 || wslots > (1u << 20) || (wslots & (wslots - 1)) || qcap < 2 || qcap > (1u << 20))
        return -1;
    u->budget = budget;
    u->wslots = wslots;
    u->qcap = qcap;
    u->sink = sink;
    u->ctx = ctx;
    u->seq = u->whead = 1; /* 0 is "none" for E */
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_urd_filter *f = &u->f[i];
        f->k = mt_reduce_k(budget, i);
        f->hbits = 1;
        while ((1u << f->hbits) < 2 * f->k)
            f->hbits++;
        f->head = f->tail = MT_URD_NIL;
        f->e = calloc(f->k, sizeof *f->e);
        f->bucket = malloc(((size_t)1 << f->hbits) * sizeof *f->bucket);
        if (!f->e || !f->bucket) {
            mt_urd_free(u);
            return -1;
        }
        memset(f->bucket, 0xff, ((size_t)1 << f->hbits) * sizeof *f->bucket); /* MT_URD_NIL */
    }
    u->w = calloc(wslots, sizeof *u->w);
    u->q = calloc(qcap, sizeof *u->q);
    if (!u->w || !u->q) {
        mt_urd_free(u);
        return -1;
    }
    return 0;
}

int mt_urd_restart(mt_unit_reduce *u, uint64_t budget, uint32_t wslots, uint32_t qcap,
                   mt_reduce_sink sink, void *ctx)
{
    if (budget != u->budget || wslots != u->wslots || qcap != u->qcap) { /* another shape */
        mt_urd_free(u);
        return mt_urd_init(u, budget, wslots, qcap, sink, ctx);
    }
    /* mt_urd_init's state in the same buffers.  Only the buckets need their initial contents:
     * an entry is written whole as it joins its filter (only those below n are read), a window
     * slot as its reference is written, a queue element as it is queued. */
    mt_urd_filter f[MT_REDUCE_SIZES];
    memcpy(f, u->f, sizeof f);
    mt_urd_slot *w = u->w;
    mt_urd_req *q = u->q;
    memset(u, 0, sizeof *u);
    u->budget = budget;
    u->wslots = wslots;
    u->qcap = qcap;
    u->sink = sink;
    u->ctx = ctx;
    u->seq = u->whead = 1;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_urd_filter *g = &u->f[i];
        g->k = f[i].k;
        g->hbits = f[i].hbits;
        g->head = g->tail = MT_URD_NIL;
        g->e = f[i].e;
        g->bucket = f[i].bucket;
        memset(g->bucket, 0xff, ((size_t)1 << g->hbits) * sizeof *g->bucket); /* MT_URD_NIL */
    }
    u->w = w;
    u->q = q;
    return 0;
}

void mt_urd_free(mt_unit_reduce *u)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        free(u->f[i].e);
        free(u->f[i].bucket);
    }
    free(u->w);
    free(u->q);
    memset(u, 0, sizeof *u);
}

/* ---- the window ------------------------------------------------------------------------- */

static inline mt_urd_slot *slot_of(mt_unit_reduce *u, uint64_t seq)
{
    return &u->w[seq & (u->wslots - 1)];
}

/* Slots leave from the oldest while it is decided at every size (the release engine: it reads
 * one decided slot a clock, from the clock after the write that decided it, and a record leaves
 * in the clock after that read). */
static void release(mt_unit_reduce *u)
{
    while (u->whead < u->seq) {
        mt_urd_slot *s = slot_of(u, u->whead);
        if (s->pend)
            return;
        if (s->ready == MT_URD_UNKNOWN || u->rel_clock == MT_URD_UNKNOWN)
            u->rel_clock = MT_URD_UNKNOWN;
        else
            u->rel_clock = s->ready + 1 > u->rel_clock + 1 ? s->ready + 1 : u->rel_clock + 1;
        if (s->mask) {
            u->records++;
            u->rec_clock = u->rel_clock == MT_URD_UNKNOWN ? MT_URD_UNKNOWN : u->rel_clock + 1;
            if (u->sink)
                u->sink(u->ctx, s->cycle, s->page, s->rw, s->mask);
        }
        u->whead++;
    }
}

/* The window is full: the oldest slot's undecided sizes keep it (its read at clock `at`, the
 * write after), and it leaves. */
static void force_oldest(mt_unit_reduce *u, uint64_t at)
{
    mt_urd_slot *s = slot_of(u, u->whead);
    s->ready = at == MT_URD_UNKNOWN ? at : at + 1;
    for (unsigned m = s->pend; m; m &= m - 1)
        u->kept[__builtin_ctz(m)]++;
    s->mask |= s->pend;
    s->pend = 0;
    u->forced++;
    release(u);
}

/* An entry's pending reference `last` has left the window: it was forced out (kept) when its
 * slot was needed again, at the start of reference last + W (a pending reference keeps its slot
 * open otherwise).  Inside a reference seq that is seq - last >= W, between references (the
 * session's end) seq - last > W, seq being the next reference's number: no need of the head. */
static inline int forced_out(const mt_unit_reduce *u, uint64_t last)
{
    return last < u->whead;
}

/* Size i keeps (or drops) the pending reference `last` of an entry, if it is still in the window
 * (one forced out was kept), its slot read at clock `at` and written after.  Returns the clocks
 * (a read-modify-write of its slot). */
static unsigned decide(mt_unit_reduce *u, unsigned i, uint64_t last, int keep, uint64_t at)
{
    if (forced_out(u, last))
        return 0;
    mt_urd_slot *s = slot_of(u, last);
    s->ready = at == MT_URD_UNKNOWN ? at : at + 1;
    if (keep) {
        s->mask |= (uint16_t)(1u << i);
        u->kept[i]++;
    }
    s->pend &= (uint16_t)~(1u << i);
    return 2;
}

/* ---- one filter ------------------------------------------------------------------------- */

/* The bucket of metapage p: three 18-bit pieces XORed, the low hbits bits (hbits <= 18). */
static inline uint32_t hash_of(const mt_urd_filter *f, uint64_t p)
{
    return (uint32_t)(p ^ p >> 18 ^ p >> 36) & ((1u << f->hbits) - 1);
}

/* Removes entry e from its chain: the bucket read, a read per predecessor, one write. */
static unsigned hash_delete(mt_urd_filter *f, uint32_t e)
{
    uint32_t h = hash_of(f, f->e[e].page);
    unsigned c = 1;
    if (f->bucket[h] == e) {
        f->bucket[h] = f->e[e].hnext;
        return c + 1;
    }
    uint32_t j = f->bucket[h];
    for (;;) {
        c++;
        if (f->e[j].hnext == e)
            break;
        j = f->e[j].hnext;
    }
    f->e[j].hnext = f->e[e].hnext;
    return c + 1;
}

/* Takes e out of the recency list: a write to each neighbour (or a head/tail register). */
static unsigned list_unlink(mt_urd_filter *f, uint32_t e)
{
    uint32_t p = f->e[e].prev, n = f->e[e].next;
    unsigned c = 0;
    if (p != MT_URD_NIL) {
        f->e[p].next = n;
        c++;
    } else {
        f->head = n;
    }
    if (n != MT_URD_NIL) {
        f->e[n].prev = p;
        c++;
    } else {
        f->tail = p;
    }
    return c;
}

/* Puts e at the head: its own write, and the old head's. */
static unsigned list_push_front(mt_urd_filter *f, uint32_t e)
{
    unsigned c = 1;
    f->e[e].prev = MT_URD_NIL;
    f->e[e].next = f->head;
    if (f->head != MT_URD_NIL) {
        f->e[f->head].prev = e;
        c++;
    } else {
        f->tail = e;
    }
    f->head = e;
    return c;
}

/* Reference `seq` to metapage p at size i (not size i's MRU metapage); the slot s is seq's, the
 * first operation at clock t0.  Returns the clocks it took. */
static unsigned filter_ref(mt_unit_reduce *u, unsigned i, uint64_t seq, uint64_t p, mt_urd_slot *s, uint64_t t0)
{
#define AT(c) (t0 == MT_URD_UNKNOWN ? MT_URD_UNKNOWN : t0 + (c))
    mt_urd_filter *f = &u->f[i];
    const uint16_t bit = (uint16_t)(1u << i);
    uint32_t h = hash_of(f, p);
    unsigned c = 1; /* the bucket read */
    uint32_t e = f->bucket[h];
    while (e != MT_URD_NIL) {
        c++;
        if (f->e[e].page == p)
            break;
        e = f->e[e].hnext;
    }
    if (e != MT_URD_NIL) { /* a hit: the pending reference is decided now */
        mt_urd_entry *x = &f->e[e];
        if (x->pend) {
            if (forced_out(u, x->last)) { /* it was kept */
                x->t1 = x->last;
            } else {
                int keep = f->evicted_last > x->t1; /* k distinct others since t1 */
                c += decide(u, i, x->last, keep, AT(c));
                if (keep)
                    x->t1 = x->last;
            }
        }
        x->pend = 1;
        s->pend |= bit;
        if (f->head == e) {
            c++; /* its own write (last, pend) */
        } else {
            c += list_unlink(f, e);
            c += list_push_front(f, e);
        }
        x->last = seq;
        return c;
    }
    /* a miss: kept now; a full filter's LRU entry leaves (its pending reference kept) */
    s->mask |= bit;
    u->kept[i]++;
    if (f->n == f->k) {
        e = f->tail;
        mt_urd_entry *x = &f->e[e];
        c++; /* the tail's read */
        if (x->pend)
            c += decide(u, i, x->last, 1, AT(c));
        if (x->last > f->evicted_last)
            f->evicted_last = x->last;
        c += hash_delete(f, e);
        c += list_unlink(f, e);
        c++; /* the bucket re-read (the deletion may have changed it) */
    } else {
        e = f->n++;
    }
    mt_urd_entry *x = &f->e[e];
    x->page = p;
    x->hnext = f->bucket[h];
    f->bucket[h] = e;
    c++; /* the bucket write */
    x->t1 = x->last = seq;
    x->pend = 0;
    c += list_push_front(f, e);
    return c;
#undef AT
}

/* One reference through the filters (a change of 4 KiB page), its first operation at clock
 * `start` (MT_URD_UNKNOWN: not modelled, the session's end).  Returns the clocks it took: the
 * forced slot's read-modify-write first, then the sizes, then the slot's write. */
static unsigned filters_ref(mt_unit_reduce *u, uint64_t start, uint64_t cycle, uint64_t page4k, unsigned rw)
{
    unsigned c = 0;
    if (u->seq - u->whead >= u->wslots) { /* slot seq mod W is still open: seq - W's */
        force_oldest(u, start);
        c += 2; /* its read-modify-write */
    }
    uint64_t seq = u->seq;
    mt_urd_slot *s = slot_of(u, seq);
    *s = (mt_urd_slot){.cycle = cycle, .page = page4k, .rw = (uint8_t)rw};
    uint64_t diff = u->last_ref ? page4k ^ (u->last_ref - 1) : UINT64_MAX;
    u->last_ref = page4k + 1;
    unsigned top = diff ? 63u - (unsigned)__builtin_clzll(diff) : 0;
    unsigned n = diff ? (top < MT_REDUCE_SIZES ? top + 1 : MT_REDUCE_SIZES) : 0;
    for (unsigned i = 0; i < n; i++)
        c += filter_ref(u, i, seq, page4k >> i, s, start == MT_URD_UNKNOWN ? start : start + c);
    s->ready = start == MT_URD_UNKNOWN ? start : start + c; /* the slot's write (its last clock) */
    c++;
    u->seq++; /* the slot is written: it joins the window */
    u->refs++;
    u->clocks += c;
    if (c > u->max_clocks)
        u->max_clocks = c;
    unsigned b = 0;
    while (b < 7 && c > (4u << b))
        b++;
    u->hist[b]++;
    release(u);
    return c;
}

/* ---- the queue and the front ------------------------------------------------------------ */

/* Runs the queued references the filters can start by `cycle`: a reference taken at cycle c is
 * in the queue from c + 1, and the filters take the oldest when they are free. */
static void advance(mt_unit_reduce *u, uint64_t cycle)
{
    while (u->qnum) {
        mt_urd_req r = u->q[u->qhead];
        uint64_t start = u->busy_until > r.at + 1 ? u->busy_until : r.at + 1;
        if (start > cycle)
            return;
        u->qhead = (u->qhead + 1) % u->qcap;
        u->qnum--;
        u->busy_until = start + filters_ref(u, start, r.cycle, r.page, r.rw);
    }
}

static void enqueue(mt_unit_reduce *u, uint64_t at, uint64_t cycle, uint64_t page, unsigned rw)
{
    u->q[(u->qhead + u->qnum++) % u->qcap] =
        (mt_urd_req){.cycle = cycle, .page = page, .at = at, .rw = (uint8_t)rw};
}

/* An alternation of x and y may be skipped when every size sees it as hits (mt_reduce's rule). */
static int alternation_ok(const mt_unit_reduce *u, uint64_t x, uint64_t y)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        if (u->f[i].k < 2 && (x >> i) != (y >> i))
            return 0;
    return 1;
}

int mt_urd_access(mt_unit_reduce *u, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page4k = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    rw &= 1;
    u->accesses++;
    if (cycle < u->ready_at) { /* the buckets are being cleared: nothing is taken */
        u->lost++;
        return 0;
    }
    if (page4k + 1 == u->last_page)
        return 1; /* the same 4 KiB page again: a repeat at every size */
    advance(u, cycle);
    int step = page4k + 1 == u->prev_page; /* x y x: one step of an alternation */
    int ok = step ? (u->alt_steps == 0 ? alternation_ok(u, page4k, u->last_page - 1) : u->alt_ok) : 0;
    int skip = step && ok && u->alt_steps + 1 > 2;
    unsigned need = skip ? 0 : 1 + (unsigned)u->skipped_valid;
    if (u->qnum + need > u->qcap) { /* no room: the access is not taken */
        u->lost++;
        return 0;
    }
    if (step) {
        u->alt_steps++;
        u->alt_ok = ok;
    } else {
        u->alt_steps = 0;
    }
    u->prev_page = u->last_page;
    u->last_page = page4k + 1;
    if (skip) { /* settled: only the last step matters */
        u->skipped_valid = 1;
        u->skipped_cycle = cycle;
        u->skipped_page = page4k;
        u->skipped_rw = rw;
        return 1;
    }
    if (u->skipped_valid) {
        u->skipped_valid = 0;
        enqueue(u, cycle, u->skipped_cycle, u->skipped_page, u->skipped_rw);
    }
    enqueue(u, cycle, cycle, page4k, rw);
    advance(u, cycle);
    return 1;
}

void mt_urd_finish(mt_unit_reduce *u)
{
    advance(u, UINT64_MAX);
    if (u->skipped_valid) {
        u->skipped_valid = 0;
        filters_ref(u, MT_URD_UNKNOWN, u->skipped_cycle, u->skipped_page, u->skipped_rw);
    }
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_urd_filter *f = &u->f[i];
        for (uint32_t j = 0; j < f->n; j++)
            if (f->e[j].pend) {
                decide(u, i, f->e[j].last, 1, MT_URD_UNKNOWN);
                f->e[j].pend = 0;
            }
    }
    release(u);
}

void mt_urd_advance(mt_unit_reduce *u, uint64_t cycle)
{
    advance(u, cycle);
}

uint64_t mt_urd_buckets(const mt_unit_reduce *u)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        n += 2 * (uint64_t)u->f[i].k;
    return n;
}

uint64_t mt_urd_finish_at(mt_unit_reduce *u, uint64_t f0)
{
    advance(u, UINT64_MAX);
    uint64_t e = f0; /* the engine idle, its queue empty: the flush is taken */
    if (u->busy_until > e)
        e = u->busy_until;
    if (u->ready_at > e)
        e = u->ready_at;
    uint64_t t = e + 2; /* the walk's first clock (the replay's pop, when there is a skipped step) */
    if (u->skipped_valid) {
        u->skipped_valid = 0;
        t += filters_ref(u, e + 2, u->skipped_cycle, u->skipped_page, u->skipped_rw) + 1;
    }
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        mt_urd_filter *f = &u->f[i];
        for (uint32_t j = 0; j < f->n; j++) {
            /* its read (t), its check and the slot's read (t + 1), the slot's write (t + 2) */
            t += f->e[j].pend && !forced_out(u, f->e[j].last) ? 3 : 2;
            if (f->e[j].pend)
                decide(u, i, f->e[j].last, 1, t - 2);
            f->e[j].pend = 0;
        }
        t++; /* the size's last clock: no entry left */
    }
    release(u);
    /* t: the first clock in the done state; the module is idle once the release engine has read
     * every slot (rel_clock) and the last record has left (rel_clock + 1) */
    return u->rel_clock + 2 > t ? u->rel_clock + 2 : t;
}
