/* OPT per metapage size from the 4 KiB run stream, sizes grouped in passes, two passes at a
 * time (see header). */
#include "host/policy_opt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/paging.h"
#include "host/policy.h"
#include "host/u64map.h"

#define NEXT_NONE32 UINT32_MAX

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

#define PIECE (1u << 16) /* entries of a size's next-use array read or written at a time */
#define BASE_PIECE (1u << 16) /* entries of the run file read at a time (a test crosses both) */
#define NOT_SEEN UINT32_MAX    /* a key this size does not see (masked out) */

/* One size of a pass: its key -> metapage table, where its next-use array lies in the pass's
 * file, and its scan state. */
typedef struct {
    int t;               /* index into sizes */
    size_reading z;
    uint64_t nruns;
    size_t off;          /* its entries in the pass's file: [off, off + nruns) */
    uint32_t *meta;      /* key id -> metapage id (dense, first use first), NOT_SEEN */
    uint32_t nmeta;
    uint32_t *piece;     /* its next-use entries [lo, lo + PIECE) (clipped to nruns) */
    uint64_t lo;
    stack_sim *opt;
    uint64_t i;          /* run index */
    uint32_t cur;        /* the open run's metapage */
    int have, write;
} size_pass;

/* A pass: sizes whose runs together are at most the most any one size has, so that one scan of
 * the run file each way serves them all within the same bound on temporary space (the sizes of
 * a reduce trace with few records, the coarse sizes of an every-access trace). */
typedef struct {
    int member[64], n;
    uint64_t runs;
} opt_pass;

typedef struct {
    const spill_file *base;
    const uint64_t *keys;
    size_t nkeys;
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

/* The size's metapage of every key, numbered as the size's stream first uses them (a metapage's
 * first use is that of its first key in key order, keys being numbered by first use): the ids
 * its OPT simulation would give them itself.  0 ok, -1 out of memory. */
static int build_meta(size_pass *q, const uint64_t *keys, size_t nkeys)
{
    u64map ids;
    if (!(q->meta = malloc((nkeys ? nkeys : 1) * sizeof *q->meta)) || u64map_init(&ids, 1024))
        return -1;
    for (size_t k = 0; k < nkeys; k++) {
        if ((keys[k] & q->z.sel) != q->z.sel) {
            q->meta[k] = NOT_SEEN;
            continue;
        }
        uint64_t *slot = u64map_put(&ids, reading_page(&q->z, keys[k]), ids.count, NULL);
        if (!slot) {
            u64map_free(&ids);
            return -1;
        }
        q->meta[k] = (uint32_t)*slot;
    }
    q->nmeta = (uint32_t)ids.count;
    u64map_free(&ids);
    return 0;
}

static size_t piece_len(const size_pass *q)
{
    return q->nruns - q->lo < PIECE ? (size_t)(q->nruns - q->lo) : PIECE;
}

/* next[i] = run index of the next run of run i's metapage, or NEXT_NONE32, for every size of
 * the pass.  A backward scan of the run file, collapsed at each size on the way, each size's
 * array written a piece at a time from its end.  0 ok, -1 out of memory or a file error. */
static int fill_next_uses(const spill_file *base, uint32_t *buf, size_pass *p, int np,
                          spill_file *nextfile)
{
    uint32_t *last[64] = {0};
    int rc = 0;
    for (int k = 0; k < np && rc == 0; k++) {
        p[k].i = p[k].nruns;
        p[k].have = 0;
        p[k].lo = p[k].nruns ? (p[k].nruns - 1) / PIECE * PIECE : 0; /* pieces start at k PIECE */
        if (!(last[k] = malloc(((size_t)p[k].nmeta + 1) * sizeof *last[k])))
            rc = -1;
        else
            memset(last[k], 0xff, ((size_t)p[k].nmeta + 1) * sizeof *last[k]); /* NEXT_NONE32 */
    }
    for (size_t hi = base->n; hi > 0 && rc == 0;) {
        size_t lo = hi > BASE_PIECE ? hi - BASE_PIECE : 0;
        if (spill_file_read(base, lo, buf, hi - lo) != 0) {
            rc = -1;
            break;
        }
        for (size_t b = hi - lo; b-- > 0 && rc == 0;) {
            uint32_t kid = buf[b] >> 1;
            for (int k = 0; k < np; k++) {
                size_pass *q = &p[k];
                uint32_t m = q->meta[kid];
                if (m == NOT_SEEN || (q->have && m == q->cur))
                    continue;
                q->have = 1;
                q->cur = m;
                if (--q->i < q->lo) { /* the piece above is full: out with it */
                    if (spill_file_write(nextfile, q->off + q->lo, q->piece, piece_len(q)) != 0) {
                        rc = -1;
                        break;
                    }
                    q->lo -= PIECE;
                }
                q->piece[q->i - q->lo] = last[k][m];
                last[k][m] = (uint32_t)q->i;
            }
        }
        hi = lo;
    }
    for (int k = 0; k < np; k++) {
        if (rc == 0 && p[k].nruns &&
            spill_file_write(nextfile, p[k].off + p[k].lo, p[k].piece, piece_len(&p[k])) != 0)
            rc = -1;
        free(last[k]);
    }
    return rc;
}

/* One run of a size into its OPT stack, with its rank. */
static int opt_run(size_pass *q, const spill_file *nextfile)
{
    if (q->i == q->lo + PIECE) { /* the next piece of the next-use array */
        q->lo = q->i;
        if (spill_file_read(nextfile, q->off + q->lo, q->piece, piece_len(q)) != 0)
            return -1;
    }
    uint32_t nx = q->piece[q->i - q->lo];
    uint64_t rank = pg_opt_rank(nx == NEXT_NONE32 ? PG_NEXT_NONE : nx, q->i);
    q->i++;
    return stack_sim_access_id(q->opt, q->cur, q->write, rank);
}

/* The forward scan: one access per run (its writes OR-ed) with OPT's rank, every size of the
 * pass. */
static int feed_opt(const spill_file *base, uint32_t *buf, size_pass *p, int np,
                    const spill_file *nextfile)
{
    for (int k = 0; k < np; k++) {
        p[k].i = 0, p[k].have = 0, p[k].write = 0, p[k].lo = 0;
        if (p[k].nruns && spill_file_read(nextfile, p[k].off, p[k].piece, piece_len(&p[k])) != 0)
            return -1;
    }
    for (size_t lo = 0; lo < base->n; lo += BASE_PIECE) {
        size_t len = base->n - lo < BASE_PIECE ? base->n - lo : BASE_PIECE;
        if (spill_file_read(base, lo, buf, len) != 0)
            return -1;
        for (size_t b = 0; b < len; b++) {
            uint32_t v = buf[b], kid = v >> 1;
            for (int k = 0; k < np; k++) {
                size_pass *q = &p[k];
                uint32_t m = q->meta[kid];
                if (m == NOT_SEEN)
                    continue;
                if (q->have && m == q->cur) {
                    q->write |= (int)(v & 1);
                    continue;
                }
                if (q->have && opt_run(q, nextfile) != 0)
                    return -1;
                q->have = 1;
                q->cur = m;
                q->write = (int)(v & 1);
            }
        }
    }
    for (int k = 0; k < np; k++)
        if (p[k].have && opt_run(&p[k], nextfile) != 0)
            return -1;
    return 0;
}

static void *opt_worker(void *arg)
{
    opt_jobs *j = arg;
    uint32_t *buf = malloc(BASE_PIECE * sizeof *buf);
    if (!buf) {
        job_fail(j, "out of memory");
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&j->lock);
        const opt_pass *ps = j->failed || j->next >= j->npass ? NULL : &j->pass[j->next++];
        pthread_mutex_unlock(&j->lock);
        if (!ps)
            break;
        double t0 = thread_cpu_s();
        size_pass p[64];
        size_t entries = 0;
        int rc = 0;
        for (int k = 0; k < ps->n; k++) {
            int t = ps->member[k];
            p[k] = (size_pass){.t = t, .nruns = j->runs[t], .opt = j->opt[t], .off = entries,
                               .z = reading_of(j->sizes[t], j->mask_shift, j->mask_bit, t)};
            entries += (size_t)j->runs[t];
        }
        for (int k = 0; k < ps->n; k++)
            if (build_meta(&p[k], j->keys, j->nkeys) != 0 ||
                !(p[k].piece = malloc(PIECE * sizeof *p[k].piece)))
                rc = -1;
        spill_file next = {.fd = -1};
        if (rc == 0 && spill_file_init(&next, j->tmpdir, entries) != 0) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "OPT's next-use file: cannot create or grow it in %s (needs 4 bytes x %llu "
                     "runs)",
                     j->tmpdir ? j->tmpdir : "$TMPDIR or /tmp", (unsigned long long)ps->runs);
            job_fail(j, msg);
            rc = 1;
        }
        if (rc == 0)
            rc = fill_next_uses(j->base, buf, p, ps->n, &next);
        if (rc == 0)
            rc = feed_opt(j->base, buf, p, ps->n, &next);
        spill_file_free(&next);
        for (int k = 0; k < ps->n; k++) {
            free(p[k].meta);
            free(p[k].piece);
        }
        /* the pass's CPU time, shared among its sizes in proportion to their runs */
        double cpu = thread_cpu_s() - t0;
        for (int k = 0; k < ps->n; k++)
            j->cpu_s[p[k].t] = ps->runs ? cpu * (double)p[k].nruns / (double)ps->runs : cpu / ps->n;
        if (rc != 0) {
            job_fail(j, "out of memory or OPT's temporary files unreadable");
            break;
        }
    }
    free(buf);
    return NULL;
}

int policy_opt_run(const spill_file *base, const uint64_t *keys, size_t nkeys,
                   unsigned mask_shift, const unsigned *mask_bit, const uint64_t *sizes,
                   stack_sim *const *opt, const uint64_t *runs, int ns, const char *tmpdir,
                   double *cpu_s, char *err, size_t errlen)
{
    opt_jobs j = {.base = base, .keys = keys, .nkeys = nkeys, .mask_shift = mask_shift, .mask_bit = mask_bit, .sizes = sizes,
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
