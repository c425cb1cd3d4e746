/* Policy evaluation engine (see header). */
#include "host/policy.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/fifoclock.h"
#include "host/grow.h"
#include "host/policy_opt.h"
#include "host/simpolicy.h"
#include "host/spill.h"
#include "host/stackdist.h"
#include "host/u64map.h"

/* OPT's run file numbers the distinct 4 KiB keys in 31 bits (key id << 1 | write). */
#define OPT_MAX_KEYS ((UINT64_C(1) << 31) - 1)

#ifndef OPT_BANDS_ALWAYS
#define OPT_BANDS_ALWAYS 0
#endif

void policy_defaults(policy_config *c)
{
    memset(c, 0, sizeof *c);
    c->nsizes = 0;
    for (uint64_t s = 4096; s <= (UINT64_C(2) << 20); s *= 2)
        c->sizes[c->nsizes++] = s;
    c->budgets[0] = c->primary_budget = UINT64_C(8) << 20;
    c->nbudgets = 1;
    for (int p = 0; p < PG_COUNT; p++)
        c->enabled[p] = 1;
    c->cost.lat_in = 80e-6;
    c->cost.lat_out = 20e-6;
    c->cost.bw_in = 3.0e9;
    c->cost.bw_out = 2.0e9;
}

double cost_of(const cost_model *m, const pg_counts *c, uint64_t size)
{
    double in = (double)c->faults * (double)size, out = (double)c->writebacks * (double)size;
    return (double)c->faults * m->lat_in + in / m->bw_in + (double)c->writebacks * m->lat_out +
           out / m->bw_out;
}

int policy_page_of(const ht_record *r, uint64_t size, uint64_t *page)
{
    if (r->format == HT_FMT_32)
        return -1;
    *page = r->addr / size;
    return 0;
}

static uint32_t resident_of(uint64_t budget, uint64_t size)
{
    uint64_t n = budget / size;
    return n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)n;
}

static int add_row(policy_result *r, size_t *cap, pg_policy p, uint64_t size, uint64_t budget,
                   const pg_counts *c, const cost_model *m)
{
    if (r->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        policy_row *rows = realloc(r->rows, nc * sizeof *rows);
        if (!rows)
            return -1;
        r->rows = rows;
        *cap = nc;
    }
    policy_row *row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    row->policy = p;
    row->size = size;
    row->budget = budget;
    row->resident = resident_of(budget, size);
    row->c = *c;
    row->cost = cost_of(m, c, size);
    return 0;
}

static int validate(const policy_config *cfg, char *err, size_t errlen)
{
    if (cfg->nsizes <= 0 || cfg->nbudgets <= 0) {
        snprintf(err, errlen, "no metapage sizes or budgets");
        return -1;
    }
    for (int i = 0; i < cfg->nsizes; i++)
        if (cfg->sizes[i] == 0 || cfg->sizes[i] % 4096) {
            snprintf(err, errlen, "metapage size %llu is not a multiple of 4 KiB",
                     (unsigned long long)cfg->sizes[i]);
            return -1;
        }
    return 0;
}

/* ---- Run streams ----
 * A run of accesses to one metapage counts as one access, its writes OR-ed: every later access
 * of a run is a hit that changes no LRU, FIFO, CLOCK or OPT state, and its write finds the
 * metapage resident (docs/metapaging.md, "Why collapsing repeats loses nothing").  So each size
 * sees only its runs, and the counts differ from the raw trace's only in the number of
 * accesses, which is the trace's.  A run at size s is a run at every multiple of s, so each
 * size's stream is derived from the stream of the largest finer size dividing it (or from the
 * 4 KiB stream): coarse sizes see few entries and cost little. */
typedef struct {
    uint64_t unit_div;   /* page = parent page / unit_div */
    int parent;          /* index into the streams, -1: the raw records (4 KiB pages) */
    uint64_t page;       /* the open run, not yet emitted (it may go on in the next batch) */
    int write, open;
    uint64_t *buf;       /* this batch's emitted runs: page << 1 | write (one of bufs) */
    uint64_t *bufs[2];   /* batches alternate: one is simulated while the next is decoded */
    size_t n;
    uint64_t runs;       /* emitted so far */
} run_stream;

static inline void run_feed(run_stream *r, uint64_t page, int write)
{
    if (r->open && page == r->page) {
        r->write |= write;
        return;
    }
    if (r->open)
        r->buf[r->n++] = r->page << 1 | (uint64_t)r->write;
    r->page = page;
    r->write = write;
    r->open = 1;
}

static inline void run_flush(run_stream *r)
{
    if (r->open)
        r->buf[r->n++] = r->page << 1 | (uint64_t)r->write;
    r->open = 0;
}

/* Derives stream r's batch from its parent's batch. */
static void run_derive(run_stream *r, const run_stream *parent, int last)
{
    r->n = 0;
    const uint64_t *in = parent->buf;
    for (size_t i = 0; i < parent->n; i++)
        run_feed(r, (in[i] >> 1) / r->unit_div, (int)(in[i] & 1));
    if (last)
        run_flush(r);
    r->runs += r->n;
}

#define ENGINE_RECENT 1024u

typedef struct {
    stack_sim *lru, *opt;
    fifoclock *fc;              /* FIFO and CLOCK at every budget that holds a metapage */
    int fc_of[2][POLICY_SIZE_MAX_BUDGETS]; /* [FIFO, CLOCK][budget]: its index in fc, -1 none */
    u64map ids;                 /* page -> dense id shared by LRU, FIFO and CLOCK */
    /* in front of ids, direct-mapped by the page's low bits: a page looked up lately (+ 1, 0
     * none) and its id (ids never change): most runs are of a page seen a little before */
    uint64_t recent_page[ENGINE_RECENT];
    uint32_t recent_id[ENGINE_RECENT];
    uint32_t kmax;
    run_stream *in;             /* this size's runs */
    const uint64_t *batch;      /* the batch being simulated: its runs and their number */
    size_t nbatch;
    int nb, rc;
    double cpu_s;               /* CPU seconds in engine_batch (--stats) */
} size_engine;

static void engine_free(size_engine *e)
{
    stack_sim_free(e->lru);
    stack_sim_free(e->opt);
    fifoclock_free(e->fc);
    if (e->ids.keys)
        u64map_free(&e->ids);
}

/* One batch of one size's runs through its LRU, FIFO and CLOCK simulations. */
static int engine_batch(size_engine *e)
{
    const uint64_t *in = e->batch;
    for (size_t i = 0; i < e->nbatch; i++) {
        uint64_t page = in[i] >> 1;
        int write = (int)(in[i] & 1);
        unsigned way = (unsigned)(page & (ENGINE_RECENT - 1));
        uint32_t id;
        if (e->recent_page[way] == page + 1) {
            id = e->recent_id[way];
        } else {
            uint64_t *slot = u64map_put(&e->ids, page, e->ids.count, NULL);
            if (!slot)
                return -1;
            id = (uint32_t)*slot;
            e->recent_page[way] = page + 1;
            e->recent_id[way] = id;
        }
        if (e->lru && stack_sim_access_id(e->lru, id, write, 0) != 0)
            return -1;
        if (e->fc && fifoclock_access(e->fc, id, write) != 0)
            return -1;
    }
    return 0;
}

/* The sizes of one batch shared by two threads: each takes the next size in `order` (most runs
 * first) until none is left.  Every size's simulations are touched by one thread only and see
 * their runs in trace order, so the results are those of one thread. */
typedef struct {
    size_engine *eng;
    int ns;
    int order[POLICY_MAX_SIZES], norder;
    pthread_mutex_t lock;
    int next;
} batch_jobs;

static double wall_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *batch_worker(void *arg)
{
    batch_jobs *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        int s = j->next < j->norder ? j->order[j->next++] : -1;
        pthread_mutex_unlock(&j->lock);
        if (s < 0)
            return NULL;
        size_engine *e = &j->eng[s];
        double t0 = thread_cpu_s();
        if (!e->rc)
            e->rc = engine_batch(e);
        e->cpu_s += thread_cpu_s() - t0;
    }
}

static void run_batch(batch_jobs *j, size_engine *eng, int ns)
{
    j->norder = j->next = 0;
    for (int s = 0; s < ns; s++) {
        if (!eng[s].kmax || !eng[s].nbatch || (!eng[s].lru && !eng[s].fc))
            continue;
        int at = j->norder++;
        while (at > 0 && eng[j->order[at - 1]].nbatch < eng[s].nbatch) {
            j->order[at] = j->order[at - 1];
            at--;
        }
        j->order[at] = s;
    }
    pthread_t th;
    int threaded = j->norder > 1 && pthread_create(&th, NULL, batch_worker, j) == 0;
    batch_worker(j);
    if (threaded)
        pthread_join(th, NULL);
}

/* The batch's simulations, on a thread of their own while the caller decodes the next batch. */
static void *batch_dispatch(void *arg)
{
    batch_jobs *j = arg;
    run_batch(j, j->eng, j->ns);
    return NULL;
}

#define POLICY_BATCH (1u << 18) /* raw samples per batch */
/* The first batch's raw samples; each next batch may hold twice as many, up to POLICY_BATCH, its
 * buffers grown as it starts. A short trace (most of them, and every fuzzed input) then never
 * allocates POLICY_BATCH's 2 MiB per stream; a long one pays six small batches more. The
 * results do not depend on where batches end (a run open at a batch's end stays open). */
#define POLICY_BATCH_FIRST (1u << 12)
#define POLICY_BATCH_DOUBLINGS 6
_Static_assert(POLICY_BATCH_FIRST << POLICY_BATCH_DOUBLINGS == POLICY_BATCH, "batch sizes");

/* Grows every stream's half-buffer h to `raw` raw samples (+ a flush); cap[h] is its room now.
 * Half h is not being simulated while its batch fills (the batch before it used the other). */
static int grow_batch(run_stream *st, int ns, int h, size_t raw, size_t *cap)
{
    if (cap[h] >= raw)
        return 0;
    for (int s = 0; s <= ns; s++) {
        uint64_t *b = realloc(st[s].bufs[h], (raw + 2) * sizeof *st[s].buf);
        if (!b)
            return -1;
        st[s].bufs[h] = b;
    }
    cap[h] = raw;
    return 0;
}

/* OPT for one size.  A size-masked trace (a reduce trace) keeps only accesses that missed in an
 * LRU of the reduction budget, so they are deep in OPT's stack too: there the stack is kept as
 * bands between the budgets' resident counts (host/optbands.h), whose cost per access does not
 * grow with the depth; elsewhere most accesses are a few levels deep and the plain stack is
 * cheaper.  Both give the same counts. */
static stack_sim *opt_sim_new(const uint64_t *budgets, int nbudgets, uint64_t size, int masked)
{
    uint32_t levels[POLICY_SIZE_MAX_BUDGETS];
    int n = 0;
    for (int b = 0; b < nbudgets; b++) {
        uint32_t k = resident_of(budgets[b], size), at = (uint32_t)n;
        if (!k)
            continue;
        for (int i = 0; i < n; i++)
            if (levels[i] == k)
                at = UINT32_MAX;
        if (at == UINT32_MAX)
            continue;
        while (at > 0 && levels[at - 1] > k) {
            levels[at] = levels[at - 1];
            at--;
        }
        levels[at] = k;
        n++;
    }
    if (OPT_BANDS_ALWAYS || masked)
        return stack_sim_new_levels(PG_OPT, levels, n);
    return stack_sim_new(PG_OPT, levels[n - 1]);
}

/* The engine of policy_run, policy_run_masked and policy_run_selected: mask_bit NULL for every
 * sample in every size's stream, else size s's stream has only the samples whose address has
 * bit mask_bit[s] set (and that `filter`, when not NULL, keeps for it).  Size s is simulated at
 * budgets[s] (nbudgets[s] of them). */
static int policy_engine(ht_source *src, const policy_config *cfg, const unsigned *mask_bit,
                         const uint64_t *const *budgets, const int *nbudgets, policy_mask_filter filter,
                         void *filter_ctx, policy_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    if (validate(cfg, err, errlen))
        return -1;
    int ns = cfg->nsizes, rc = -1;
    int want_sims = cfg->enabled[PG_LRU] || cfg->enabled[PG_FIFO] || cfg->enabled[PG_CLOCK];
    size_engine *eng = calloc((size_t)ns, sizeof *eng);
    /* streams: [0] the 4 KiB runs, [1 + s] size s's runs */
    run_stream *st = calloc((size_t)ns + 1, sizeof *st);
    spill_file base = {.fd = -1}; /* OPT's run file: key id << 1 | write per 4 KiB run */
    u64map keymap = {0};           /* OPT: key (4 KiB page, with its mask) -> key id */
    uint64_t *keys = NULL;         /* key id -> key */
    size_t keycap = 0;
    uint32_t *kbuf = NULL;         /* a batch's runs as written to the run file */
    batch_jobs jobs = {.eng = eng, .ns = ns};
    pthread_t dispatcher;
    int dispatched = 0; /* a batch's simulations are running on `dispatcher` */
    pthread_mutex_init(&jobs.lock, NULL);
    if (!eng || !st)
        goto oom;
    st[0].parent = -1;
    st[0].unit_div = 1;
    int derive[POLICY_MAX_SIZES]; /* sizes in increasing order: parents before children */
    for (int s = 0; s < ns; s++) {
        int at = s;
        while (at > 0 && cfg->sizes[derive[at - 1] - 1] > cfg->sizes[s]) {
            derive[at] = derive[at - 1];
            at--;
        }
        derive[at] = 1 + s;
        /* the largest smaller size that divides this one, else the 4 KiB stream */
        run_stream *r = &st[1 + s];
        r->parent = 0;
        uint64_t unit = 4096;
        for (int t = 0; t < ns && !mask_bit; t++) /* (a masked size has its own samples) */
            if (cfg->sizes[t] < cfg->sizes[s] && cfg->sizes[s] % cfg->sizes[t] == 0 &&
                cfg->sizes[t] > unit) {
                unit = cfg->sizes[t];
                r->parent = 1 + t;
            }
        r->unit_div = cfg->sizes[s] / unit;
    }
    size_t batch_cap[2] = {0, 0}; /* raw samples each half's buffers hold (grow_batch) */
    /* masked: the mask bits of the sizes asked for, and each size's samples */
    uint64_t mmask = 0, nsamp[POLICY_MAX_SIZES] = {0};
    for (int s = 0; s < ns && mask_bit; s++)
        mmask |= UINT64_C(1) << mask_bit[s];
    for (int s = 0; s < ns; s++) {
        size_engine *e = &eng[s];
        const uint64_t *bud = budgets[s];
        int nb = nbudgets[s];
        e->in = &st[1 + s];
        e->nb = nb;
        for (int b = 0; b < nb; b++) {
            uint32_t k = resident_of(bud[b], cfg->sizes[s]);
            if (k > e->kmax)
                e->kmax = k;
        }
        if (!e->kmax)
            continue;
        if (want_sims && u64map_init(&e->ids, 1024))
            goto oom;
        if (cfg->enabled[PG_LRU] && !(e->lru = stack_sim_new(PG_LRU, e->kmax)))
            goto oom;
        pg_policy fc_pol[2 * POLICY_SIZE_MAX_BUDGETS];
        uint32_t fc_res[2 * POLICY_SIZE_MAX_BUDGETS];
        int nfc = 0;
        for (int b = 0; b < nb; b++) {
            uint32_t k = resident_of(bud[b], cfg->sizes[s]);
            for (int p = 0; p < 2; p++) {
                e->fc_of[p][b] = -1;
                if (k && cfg->enabled[p ? PG_CLOCK : PG_FIFO]) {
                    e->fc_of[p][b] = nfc;
                    fc_pol[nfc] = p ? PG_CLOCK : PG_FIFO;
                    fc_res[nfc++] = k;
                }
            }
        }
        if (nfc && !(e->fc = fifoclock_new(fc_pol, fc_res, nfc)))
            goto oom;
        if (cfg->enabled[PG_OPT] && !(e->opt = opt_sim_new(bud, nb, cfg->sizes[s], mask_bit != NULL)))
            goto oom;
    }
    if (cfg->enabled[PG_OPT] && (u64map_init(&keymap, 1024) != 0))
        goto oom;
    if (cfg->enabled[PG_OPT] && spill_file_init(&base, cfg->tmpdir, 0) != 0) {
        snprintf(err, errlen, "cannot create OPT's run file in %s",
                 cfg->tmpdir ? cfg->tmpdir : "$TMPDIR or /tmp");
        goto fail;
    }

    /* Pass 1: batches of raw samples -> run streams -> the simulations of every size */
    double read_cpu0 = thread_cpu_s(), read_wall0 = wall_s();
    ht_record r;
    int got = 1;
    uint64_t idx = 0;
    for (uint64_t batch = 0; got == 1; batch++) {
        size_t raw = 0;
        size_t limit = batch < POLICY_BATCH_DOUBLINGS ? (size_t)POLICY_BATCH_FIRST << batch : POLICY_BATCH;
        if (grow_batch(st, ns, batch & 1, limit, batch_cap) != 0 ||
            (base.fd >= 0 && !GROW_ARRAY(kbuf, limit + 2)))
            goto oom;
        for (int s = 0; s <= ns; s++)
            st[s].buf = st[s].bufs[batch & 1]; /* the other half may be being simulated */
        for (int s = 0; s <= ns; s++)
            st[s].n = 0;
        while (raw < limit && (got = ht_next_sample(src, &r)) == 1) {
            if (r.format == HT_FMT_32) {
                out->skipped32++;
                continue;
            }
            if (!mask_bit) {
                run_feed(&st[0], r.addr >> 12, r.write);
                raw++;
                continue;
            }
            /* masked: straight into the streams of the sizes whose bit is set; the 4 KiB
             * stream (OPT's run file) keeps the page with the mask (policy_opt.h) */
            uint64_t m = r.addr & mmask, page = r.addr >> POLICY_MASK_BITS;
            if (m && filter)
                m = filter(filter_ctx, page, (unsigned)m);
            if (!m)
                continue;
            for (int s = 0; s < ns; s++)
                if ((m >> mask_bit[s]) & 1) {
                    run_feed(&st[1 + s], page / st[1 + s].unit_div, r.write);
                    nsamp[s]++;
                }
            run_feed(&st[0], page << POLICY_MASK_BITS | m, r.write);
            raw++;
        }
        if (got < 0) {
            snprintf(err, errlen, "%s", src->err);
            goto fail;
        }
        idx += raw;
        int last = got != 1;
        if (last)
            run_flush(&st[0]);
        st[0].runs += st[0].n;
        for (int i = 0; i < ns && !mask_bit; i++)
            run_derive(&st[derive[i]], &st[st[derive[i]].parent], last);
        for (int s = 0; s < ns && mask_bit; s++) {
            if (last)
                run_flush(&st[1 + s]);
            st[1 + s].runs += st[1 + s].n;
        }
        if (base.fd >= 0) {
            for (size_t i = 0; i < st[0].n; i++) {
                uint64_t v = st[0].buf[i];
                int inserted;
                uint64_t *slot = u64map_put(&keymap, v >> 1, keymap.count, &inserted);
                if (!slot)
                    goto oom;
                if (inserted) {
                    if (keymap.count > OPT_MAX_KEYS) {
                        snprintf(err, errlen,
                                 "OPT: more than %llu distinct 4 KiB pages, more than this "
                                 "analysis numbers",
                                 (unsigned long long)OPT_MAX_KEYS);
                        goto fail;
                    }
                    if (keymap.count > keycap) {
                        keycap = keycap ? keycap * 2 : 1024;
                        if (!GROW_ARRAY(keys, keycap))
                            goto oom;
                    }
                    keys[*slot] = v >> 1;
                }
                kbuf[i] = (uint32_t)(*slot << 1 | (v & 1));
            }
            if (spill_file_write(&base, base.n, kbuf, st[0].n) != 0) {
                snprintf(err, errlen,
                         "OPT's run file: no space left in %s (needs 4 bytes x %llu runs)",
                         cfg->tmpdir ? cfg->tmpdir : "$TMPDIR or /tmp",
                         (unsigned long long)st[0].runs);
                goto fail;
            }
        }
        double cpu0 = thread_cpu_s(); /* (the simulations' time when they run on this thread) */
        if (dispatched) {
            pthread_join(dispatcher, NULL);
            dispatched = 0;
        }
        for (int s = 0; s < ns; s++)
            if (eng[s].rc)
                goto oom;
        if (want_sims) {
            for (int s = 0; s < ns; s++) {
                eng[s].batch = st[1 + s].buf;
                eng[s].nbatch = st[1 + s].n;
            }
            dispatched = pthread_create(&dispatcher, NULL, batch_dispatch, &jobs) == 0;
            if (!dispatched)
                run_batch(&jobs, eng, ns);
        }
        read_cpu0 += thread_cpu_s() - cpu0;
    }
    if (dispatched) {
        pthread_join(dispatcher, NULL);
        dispatched = 0;
    }
    for (int s = 0; s < ns; s++)
        if (eng[s].rc)
            goto oom;
    out->read_cpu_s = thread_cpu_s() - read_cpu0;
    out->read_wall_s = wall_s() - read_wall0;
    /* masked: the samples of the size that has most */
    out->samples = mask_bit ? 0 : idx;
    for (int s = 0; s < ns; s++) {
        if (!mask_bit)
            nsamp[s] = idx;
        else if (nsamp[s] > out->samples)
            out->samples = nsamp[s];
    }

    /* Then OPT, two passes at a time from the 4 KiB runs (host/policy_opt.h: bounded space) */
    if (cfg->enabled[PG_OPT]) {
        stack_sim *opts[POLICY_MAX_SIZES] = {0};
        uint64_t runs[POLICY_MAX_SIZES];
        for (int s = 0; s < ns; s++) {
            opts[s] = eng[s].opt;
            runs[s] = st[1 + s].runs;
        }
        double opt_wall0 = wall_s();
        size_t nkeys = keymap.count;
        u64map_free(&keymap); /* the keys array is all the scans need */
        if (policy_opt_run(&base, keys, nkeys, mask_bit ? POLICY_MASK_BITS : 0, mask_bit,
                           cfg->sizes, opts,
                           runs, ns, cfg->tmpdir, out->opt_cpu_s, err, errlen) != 0)
            goto fail;
        spill_file_free(&base);
        out->opt_wall_s = wall_s() - opt_wall0;
    }

    /* Rows: the simulations saw runs; the accesses are the trace's */
    size_t cap = 0;
    for (int s = 0; s < ns; s++) {
        size_engine *e = &eng[s];
        const uint64_t *bud = budgets[s];
        if (e->lru)
            stack_sim_finish(e->lru);
        if (e->opt)
            stack_sim_finish(e->opt);
        for (int b = 0; b < e->nb; b++) {
            uint32_t k = resident_of(bud[b], cfg->sizes[s]);
            if (!k)
                continue;
            pg_counts c;
            if (e->lru) {
                stack_sim_counts(e->lru, k, &c);
                c.accesses = nsamp[s];
                if (add_row(out, &cap, PG_LRU, cfg->sizes[s], bud[b], &c, &cfg->cost))
                    goto oom;
            }
            for (int p = 0; p < 2; p++)
                if (e->fc && e->fc_of[p][b] >= 0) {
                    fifoclock_counts(e->fc, e->fc_of[p][b], &c);
                    c.accesses = nsamp[s];
                    if (add_row(out, &cap, p ? PG_CLOCK : PG_FIFO, cfg->sizes[s], bud[b],
                                &c, &cfg->cost))
                        goto oom;
                }
            if (e->opt) {
                stack_sim_counts(e->opt, k, &c);
                c.accesses = nsamp[s];
                if (add_row(out, &cap, PG_OPT, cfg->sizes[s], bud[b], &c, &cfg->cost))
                    goto oom;
            }
        }
    }
    out->has_stats = 1;
    for (int s = 0; s < ns; s++) {
        out->runs[s] = st[1 + s].runs;
        out->sim_cpu_s[s] = eng[s].cpu_s;
    }
    policy_rank(out, cfg);
    rc = 0;
    goto done;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    policy_result_free(out);
done:
    if (dispatched)
        pthread_join(dispatcher, NULL);
    if (base.fd >= 0)
        spill_file_free(&base);
    if (keymap.keys)
        u64map_free(&keymap);
    free(keys);
    free(kbuf);
    pthread_mutex_destroy(&jobs.lock);
    if (eng)
        for (int s = 0; s < ns; s++)
            engine_free(&eng[s]);
    if (st)
        for (int s = 0; s <= ns; s++) {
            free(st[s].bufs[0]);
            free(st[s].bufs[1]);
        }
    free(eng);
    free(st);
    return rc;
}

/* Every size at the config's budgets. */
static int policy_engine_common(ht_source *src, const policy_config *cfg, const unsigned *mask_bit,
                                policy_result *out, char *err, size_t errlen)
{
    const uint64_t *bud[POLICY_MAX_SIZES];
    int nb[POLICY_MAX_SIZES];
    for (int s = 0; s < cfg->nsizes && s < POLICY_MAX_SIZES; s++) {
        bud[s] = cfg->budgets;
        nb[s] = cfg->nbudgets;
    }
    return policy_engine(src, cfg, mask_bit, bud, nb, NULL, NULL, out, err, errlen);
}

int policy_run(ht_source *src, const policy_config *cfg, policy_result *out, char *err,
               size_t errlen)
{
    return policy_engine_common(src, cfg, NULL, out, err, errlen);
}

int policy_run_masked(ht_source *src, const policy_config *cfg, const unsigned *mask_bit,
                      policy_result *out, char *err, size_t errlen)
{
    for (int s = 0; s < cfg->nsizes; s++)
        if (mask_bit[s] >= POLICY_MASK_BITS) {
            snprintf(err, errlen, "size mask bit %u is not one of the address's low %d bits",
                     mask_bit[s], POLICY_MASK_BITS);
            return -1;
        }
    return policy_engine_common(src, cfg, mask_bit, out, err, errlen);
}

int policy_run_selected(ht_source *src, const policy_config *cfg, const policy_size_sel *sel,
                        policy_mask_filter filter, void *filter_ctx, policy_result *out, char *err,
                        size_t errlen)
{
    unsigned bits[POLICY_MAX_SIZES];
    const uint64_t *bud[POLICY_MAX_SIZES];
    int nb[POLICY_MAX_SIZES];
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    for (int s = 0; s < cfg->nsizes && s < POLICY_MAX_SIZES; s++) {
        if (sel[s].mask_bit >= POLICY_MASK_BITS) {
            snprintf(err, errlen, "size mask bit %u is not one of the address's low %d bits",
                     sel[s].mask_bit, POLICY_MASK_BITS);
            return -1;
        }
        if (sel[s].nbudgets < 1 || sel[s].nbudgets > POLICY_SIZE_MAX_BUDGETS || !sel[s].budgets) {
            snprintf(err, errlen, "%d budgets for metapage size %llu (1 to %d)", sel[s].nbudgets,
                     (unsigned long long)cfg->sizes[s], POLICY_SIZE_MAX_BUDGETS);
            return -1;
        }
        bits[s] = sel[s].mask_bit;
        bud[s] = sel[s].budgets;
        nb[s] = sel[s].nbudgets;
    }
    return policy_engine(src, cfg, bits, bud, nb, filter, filter_ctx, out, err, errlen);
}

int policy_run_baseline(ht_source *src, const policy_config *cfg, policy_result *out, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    if (validate(cfg, err, errlen))
        return -1;
    size_t cap = 0;
    spill_vec next = {.fd = -1};
    for (int s = 0; s < cfg->nsizes; s++) {
        uint64_t size = cfg->sizes[s];
        if (cfg->enabled[PG_OPT]) {
            /* the next-use array for this size (the simple way: one more pass) */
            u64map last;
            if (u64map_init(&last, 1024) || spill_init(&next, cfg->tmpdir))
                goto fail;
            if (ht_rewind(src) != 0)
                goto srcerr;
            ht_record r;
            uint64_t i = 0;
            int got;
            while ((got = ht_next_sample(src, &r)) == 1) {
                uint64_t page;
                if (policy_page_of(&r, size, &page))
                    continue;
                int ins;
                uint64_t *l = u64map_put(&last, page, i, &ins);
                if (!ins) {
                    next.v[*l] = i;
                    *l = i;
                }
                if (spill_push(&next, PG_NEXT_NONE))
                    goto fail;
                i++;
            }
            u64map_free(&last);
            if (got < 0)
                goto srcerr;
        }
        for (int b = 0; b < cfg->nbudgets; b++) {
            uint32_t k = resident_of(cfg->budgets[b], size);
            if (!k)
                continue;
            for (int p = 0; p < PG_COUNT; p++) {
                if (!cfg->enabled[p])
                    continue;
                policy_sim *sim = policy_sim_new((pg_policy)p, k);
                if (!sim || ht_rewind(src) != 0) {
                    policy_sim_free(sim);
                    goto srcerr;
                }
                ht_record r;
                uint64_t i = 0, samples = 0, skipped = 0;
                int got;
                while ((got = ht_next_sample(src, &r)) == 1) {
                    uint64_t page;
                    if (policy_page_of(&r, size, &page)) {
                        skipped++;
                        continue;
                    }
                    uint64_t rank = p == PG_OPT ? pg_opt_rank(next.v[i], i) : 0;
                    policy_sim_access(sim, page, r.write, rank);
                    i++;
                    samples++;
                }
                pg_counts c;
                policy_sim_counts(sim, &c);
                policy_sim_free(sim);
                if (got < 0)
                    goto srcerr;
                out->samples = samples;
                out->skipped32 = skipped;
                if (add_row(out, &cap, (pg_policy)p, size, cfg->budgets[b], &c, &cfg->cost))
                    goto fail;
            }
        }
        if (next.v)
            spill_free(&next);
    }
    policy_rank(out, cfg);
    return 0;
srcerr:
    snprintf(err, errlen, "%s", src->err);
    if (next.v)
        spill_free(&next);
    policy_result_free(out);
    return -1;
fail:
    snprintf(err, errlen, "out of memory or temporary space");
    if (next.v)
        spill_free(&next);
    policy_result_free(out);
    return -1;
}

void policy_result_free(policy_result *r)
{
    free(r->rows);
    r->rows = NULL;
    r->n = 0;
}

void policy_rank(policy_result *r, const policy_config *cfg)
{
    r->recommended = r->opt_bound = -1;
    for (size_t i = 0; i < r->n; i++) {
        int rank = 1;
        for (size_t j = 0; j < r->n; j++) {
            if (j == i || r->rows[j].budget != r->rows[i].budget)
                continue;
            const policy_row *a = &r->rows[j], *b = &r->rows[i];
            /* a before b: cheaper; ties by fewer faults, then smaller size, then policy order */
            int before = a->cost < b->cost ||
                         (a->cost == b->cost &&
                          (a->c.faults < b->c.faults ||
                           (a->c.faults == b->c.faults &&
                            (a->size < b->size || (a->size == b->size && a->policy < b->policy)))));
            rank += before;
        }
        r->rows[i].rank = rank;
    }
    for (size_t i = 0; i < r->n; i++) {
        const policy_row *row = &r->rows[i];
        if (row->budget != cfg->primary_budget || row->policy == PG_OPT)
            continue;
        if (r->recommended < 0 || row->rank < r->rows[r->recommended].rank)
            r->recommended = (int)i;
    }
    if (r->recommended >= 0) {
        const policy_row *best = &r->rows[r->recommended];
        for (size_t i = 0; i < r->n; i++)
            if (r->rows[i].policy == PG_OPT && r->rows[i].size == best->size &&
                r->rows[i].budget == best->budget)
                r->opt_bound = (int)i;
    }
}
