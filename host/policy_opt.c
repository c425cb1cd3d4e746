/* OPT per metapage size from the 4 KiB run stream, sizes grouped in passes, two passes at a
 * time (see header). */
#include "host/policy_opt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/paging.h"
#include "host/policy.h"
#include "host/u64map.h"

#define NEXT_NONE32 UINT32_MAX
#define RELEASE_EVERY (1u << 20) /* entries scanned between releases of the scanned pages */

/* One size's reading of the run file: an entry e (without its write bit) is in the size's
 * stream iff (e & sel) == sel, at metapage (e >> shift) / k (k = 1 when the metapage is a
 * power-of-two multiple of 4 KiB: shift then includes it, and no division is made). */
typedef struct {
    uint64_t sel, k;
    unsigned shift;
} size_reading;

static size_reading reading_of(uint64_t size, unsigned mask_shift, const unsigned *mask_bit, int s)
{
    size_reading z = {.k = size / 4096, .shift = mask_shift,
                      .sel = mask_bit ? UINT64_C(1) << mask_bit[s] : 0};
    while (z.k > 1 && !(z.k & 1)) {
        z.k >>= 1;
        z.shift++;
    }
    return z;
}

static inline uint64_t reading_page(const size_reading *z, uint64_t e)
{
    return z->k == 1 ? e >> z->shift : (e >> z->shift) / z->k;
}

/* One size of a pass: where its next-use array lies in the pass's file, and its scan state. */
typedef struct {
    int t;               /* index into sizes */
    size_reading z;
    uint64_t nruns;
    size_t off, words;   /* its 8-byte words in the pass's file: 4-byte entries, two a word */
    uint32_t *next;
    stack_sim *opt;
    uint64_t i, cur;     /* run index, the open run's metapage */
    int have, write;
    u64map last;         /* the backward scan: metapage -> its next run seen so far */
} size_pass;

/* A pass: sizes whose runs together are at most the most any one size has, so that one scan of
 * the run file each way serves them all within the same bound on temporary space (the sizes of
 * a reduce trace with few records, the coarse sizes of an every-access trace). */
typedef struct {
    int member[64], n;
    uint64_t runs;
} opt_pass;

typedef struct {
    const spill_vec *base;
    unsigned mask_shift;
    const unsigned *mask_bit;
    const uint64_t *sizes;
    stack_sim *const *opt;
    const uint64_t *runs;
    opt_pass pass[64]; /* most runs first (the longest job starts first) */
    int npass;
    const char *tmpdir;
    double *cpu_s;
    pthread_mutex_t lock;
    int next;       /* index into pass of the next pass to take */
    int failed;
    char err[256];
} opt_jobs;

static void job_fail(opt_jobs *j, const char *msg)
{
    pthread_mutex_lock(&j->lock);
    if (!j->failed) {
        j->failed = 1;
        snprintf(j->err, sizeof j->err, "%s", msg);
    }
    pthread_mutex_unlock(&j->lock);
}

/* next[i] = run index of the next run of run i's metapage, or NEXT_NONE32, for every size of
 * the pass.  A backward scan of the run file, collapsed at each size on the way.  0 ok, -1 out
 * of memory. */
static int fill_next_uses(const spill_vec *base, size_pass *p, int np, const spill_vec *nextfile)
{
    for (int k = 0; k < np; k++) {
        p[k].i = p[k].nruns;
        p[k].have = 0;
        if (u64map_init(&p[k].last, 1024)) {
            while (k-- > 0)
                u64map_free(&p[k].last);
            return -1;
        }
    }
    int rc = 0;
    size_t released = base->n;
    for (size_t b = base->n; b-- > 0 && rc == 0;) {
        if (released - b >= RELEASE_EVERY) {
            spill_release(base, b + 1, released);
            for (int k = 0; k < np; k++)
                spill_release(nextfile, p[k].off + (size_t)(p[k].i + 1) / 2 + 1, p[k].off + p[k].words);
            released = b + 1;
        }
        uint64_t e = base->v[b] >> 1;
        for (int k = 0; k < np; k++) {
            size_pass *q = &p[k];
            if ((e & q->z.sel) != q->z.sel)
                continue;
            uint64_t page = reading_page(&q->z, e);
            if (q->have && page == q->cur)
                continue;
            q->have = 1;
            q->cur = page;
            q->i--;
            int inserted;
            uint64_t *slot = u64map_put(&q->last, page, q->i, &inserted);
            if (!slot) {
                rc = -1;
                break;
            }
            q->next[q->i] = inserted ? NEXT_NONE32 : (uint32_t)*slot;
            *slot = q->i;
        }
    }
    for (int k = 0; k < np; k++)
        u64map_free(&p[k].last);
    return rc;
}

/* One run of a size into its OPT stack, with its rank. */
static int opt_run(size_pass *q)
{
    uint32_t nx = q->next[q->i];
    uint64_t rank = pg_opt_rank(nx == NEXT_NONE32 ? PG_NEXT_NONE : nx, q->i);
    q->i++;
    return stack_sim_access(q->opt, q->cur, q->write, rank);
}

/* The forward scan: one access per run (its writes OR-ed) with OPT's rank, every size of the
 * pass. */
static int feed_opt(const spill_vec *base, size_pass *p, int np, const spill_vec *nextfile)
{
    for (int k = 0; k < np; k++)
        p[k].i = 0, p[k].have = 0, p[k].write = 0;
    size_t released = 0;
    for (size_t b = 0; b < base->n; b++) {
        if (b - released >= RELEASE_EVERY) {
            spill_release(base, released, b);
            for (int k = 0; k < np; k++)
                spill_release(nextfile, p[k].off, p[k].off + (size_t)p[k].i / 2);
            released = b;
        }
        uint64_t v = base->v[b], e = v >> 1;
        for (int k = 0; k < np; k++) {
            size_pass *q = &p[k];
            if ((e & q->z.sel) != q->z.sel)
                continue;
            uint64_t page = reading_page(&q->z, e);
            if (q->have && page == q->cur) {
                q->write |= (int)(v & 1);
                continue;
            }
            if (q->have && opt_run(q) != 0)
                return -1;
            q->have = 1;
            q->cur = page;
            q->write = (int)(v & 1);
        }
    }
    for (int k = 0; k < np; k++)
        if (p[k].have && opt_run(&p[k]) != 0)
            return -1;
    return 0;
}

static void *opt_worker(void *arg)
{
    opt_jobs *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        const opt_pass *ps = j->failed || j->next >= j->npass ? NULL : &j->pass[j->next++];
        pthread_mutex_unlock(&j->lock);
        if (!ps)
            return NULL;
        double t0 = thread_cpu_s();
        size_pass p[64];
        size_t words = 0;
        for (int k = 0; k < ps->n; k++) {
            int t = ps->member[k];
            p[k] = (size_pass){.t = t, .nruns = j->runs[t], .opt = j->opt[t], .off = words,
                               .words = (size_t)(j->runs[t] + 1) / 2,
                               .z = reading_of(j->sizes[t], j->mask_shift, j->mask_bit, t)};
            words += p[k].words;
        }
        spill_vec next = {.fd = -1};
        if (spill_init_size(&next, j->tmpdir, words ? words : 1) != 0) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "OPT's next-use file: cannot create or grow it in %s (needs 4 bytes x %llu "
                     "runs)",
                     j->tmpdir ? j->tmpdir : "$TMPDIR or /tmp", (unsigned long long)ps->runs);
            job_fail(j, msg);
            return NULL;
        }
        for (int k = 0; k < ps->n; k++)
            p[k].next = (uint32_t *)(next.v + p[k].off);
        int rc = fill_next_uses(j->base, p, ps->n, &next);
        if (rc == 0)
            rc = feed_opt(j->base, p, ps->n, &next);
        spill_free(&next);
        /* the pass's CPU time, shared among its sizes in proportion to their runs */
        double cpu = thread_cpu_s() - t0;
        for (int k = 0; k < ps->n; k++)
            j->cpu_s[p[k].t] = ps->runs ? cpu * (double)p[k].nruns / (double)ps->runs : cpu / ps->n;
        if (rc != 0) {
            job_fail(j, "out of memory");
            return NULL;
        }
    }
}

int policy_opt_run(const spill_vec *base, unsigned mask_shift, const unsigned *mask_bit,
                   const uint64_t *sizes, stack_sim *const *opt, const uint64_t *runs, int ns,
                   const char *tmpdir, double *cpu_s, char *err, size_t errlen)
{
    opt_jobs j = {.base = base, .mask_shift = mask_shift, .mask_bit = mask_bit, .sizes = sizes,
                  .opt = opt, .runs = runs, .tmpdir = tmpdir, .cpu_s = cpu_s};
    int order[64], norder = 0;
    for (int s = 0; s < ns && norder < 64; s++) {
        if (!opt[s])
            continue;
        if (runs[s] >= NEXT_NONE32) {
            snprintf(err, errlen,
                     "OPT at %llu-byte metapages: %llu runs of accesses, more than the 2^32 - 2 "
                     "this analysis indexes",
                     (unsigned long long)sizes[s], (unsigned long long)runs[s]);
            return -1;
        }
        int at = norder++;
        while (at > 0 && runs[order[at - 1]] < runs[s]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = s;
    }
    /* passes, first fit by decreasing runs: each holds at most the runs of the largest size */
    uint64_t room = norder ? runs[order[0]] : 0;
    for (int o = 0; o < norder; o++) {
        int s = order[o], g = 0;
        while (g < j.npass && j.pass[g].runs + runs[s] > room)
            g++;
        if (g == j.npass)
            j.pass[j.npass++] = (opt_pass){0};
        j.pass[g].member[j.pass[g].n++] = s;
        j.pass[g].runs += runs[s];
    }
    pthread_mutex_init(&j.lock, NULL);
    pthread_t th;
    int threaded = j.npass > 1 && pthread_create(&th, NULL, opt_worker, &j) == 0;
    opt_worker(&j);
    if (threaded)
        pthread_join(th, NULL);
    pthread_mutex_destroy(&j.lock);
    if (j.failed) {
        snprintf(err, errlen, "%s", j.err);
        return -1;
    }
    return 0;
}
