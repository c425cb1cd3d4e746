/* OPT per metapage size from the 4 KiB run stream, two sizes at a time (see header). */
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

typedef struct {
    const spill_vec *base;
    unsigned mask_shift;
    const unsigned *mask_bit;
    const uint64_t *sizes;
    stack_sim *const *opt;
    const uint64_t *runs;
    int order[64];  /* sizes to do, most runs first (the longest job starts first) */
    int norder;
    const char *tmpdir;
    double *cpu_s;
    pthread_mutex_t lock;
    int next;       /* index into order of the next size to take */
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

/* next[i] = run index of the next run of run i's metapage, or NEXT_NONE32.  A backward scan of
 * the 4 KiB stream, collapsed at this size on the way.  0 ok, -1 out of memory. */
static int fill_next_uses(const spill_vec *base, const size_reading *z, const spill_vec *nextfile,
                          uint64_t nruns)
{
    uint32_t *next = (uint32_t *)nextfile->v;
    u64map last;
    if (u64map_init(&last, 1024))
        return -1;
    uint64_t i = nruns, prev = 0;
    int have = 0;
    size_t released = base->n;
    for (size_t b = base->n; b-- > 0;) {
        if (released - b >= RELEASE_EVERY) {
            spill_release(base, b + 1, released);
            spill_release(nextfile, (size_t)(i + 1) / 2 + 1, nextfile->n);
            released = b + 1;
        }
        uint64_t e = base->v[b] >> 1;
        if ((e & z->sel) != z->sel)
            continue;
        uint64_t page = reading_page(z, e);
        if (have && page == prev)
            continue;
        have = 1;
        prev = page;
        i--;
        int inserted;
        uint64_t *slot = u64map_put(&last, page, i, &inserted);
        if (!slot) {
            u64map_free(&last);
            return -1;
        }
        next[i] = inserted ? NEXT_NONE32 : (uint32_t)*slot;
        *slot = i;
    }
    u64map_free(&last);
    return 0;
}

/* The forward scan: one access per run (its writes OR-ed) with OPT's rank. */
static int feed_opt(const spill_vec *base, const size_reading *z, const spill_vec *nextfile,
                    stack_sim *opt)
{
    const uint32_t *next = (const uint32_t *)nextfile->v;
    uint64_t i = 0, cur = 0;
    int have = 0, write = 0;
    size_t released = 0;
    for (size_t b = 0; b <= base->n; b++) {
        if (b - released >= RELEASE_EVERY) {
            spill_release(base, released, b);
            spill_release(nextfile, 0, (size_t)i / 2);
            released = b;
        }
        uint64_t e = b < base->n ? base->v[b] >> 1 : 0;
        if (b < base->n && (e & z->sel) != z->sel)
            continue;
        uint64_t page = b < base->n ? reading_page(z, e) : 0;
        if (b < base->n && have && page == cur) {
            write |= (int)(base->v[b] & 1);
            continue;
        }
        if (have) {
            uint64_t nx = next[i] == NEXT_NONE32 ? PG_NEXT_NONE : next[i];
            if (stack_sim_access(opt, cur, write, pg_opt_rank(nx, i)) != 0)
                return -1;
            i++;
        }
        if (b < base->n) {
            have = 1;
            cur = page;
            write = (int)(base->v[b] & 1);
        }
    }
    return 0;
}

static void *opt_worker(void *arg)
{
    opt_jobs *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        int t = j->failed || j->next >= j->norder ? -1 : j->order[j->next++];
        pthread_mutex_unlock(&j->lock);
        if (t < 0)
            return NULL;
        uint64_t nruns = j->runs[t];
        size_reading z = reading_of(j->sizes[t], j->mask_shift, j->mask_bit, t);
        double t0 = thread_cpu_s();
        spill_vec next = {.fd = -1};
        /* 4-byte entries: two per 8-byte word of the file */
        if (spill_init_size(&next, j->tmpdir, (size_t)(nruns + 1) / 2) != 0) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "OPT's next-use file: cannot create or grow it in %s (needs 4 bytes x %llu "
                     "runs)",
                     j->tmpdir ? j->tmpdir : "$TMPDIR or /tmp", (unsigned long long)nruns);
            job_fail(j, msg);
            return NULL;
        }
        int rc = fill_next_uses(j->base, &z, &next, nruns);
        if (rc == 0)
            rc = feed_opt(j->base, &z, &next, j->opt[t]);
        spill_free(&next);
        j->cpu_s[t] = thread_cpu_s() - t0;
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
    opt_jobs j = {.base = base, .mask_shift = mask_shift, .mask_bit = mask_bit, .sizes = sizes, .opt = opt, .runs = runs, .tmpdir = tmpdir,
                  .cpu_s = cpu_s};
    for (int s = 0; s < ns && j.norder < 64; s++) {
        if (!opt[s])
            continue;
        if (runs[s] >= NEXT_NONE32) {
            snprintf(err, errlen,
                     "OPT at %llu-byte metapages: %llu runs of accesses, more than the 2^32 - 2 "
                     "this analysis indexes",
                     (unsigned long long)sizes[s], (unsigned long long)runs[s]);
            return -1;
        }
        int at = j.norder++;
        while (at > 0 && runs[j.order[at - 1]] < runs[s]) {
            j.order[at] = j.order[at - 1];
            at--;
        }
        j.order[at] = s;
    }
    pthread_mutex_init(&j.lock, NULL);
    pthread_t th;
    int threaded = j.norder > 1 && pthread_create(&th, NULL, opt_worker, &j) == 0;
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
