/* OPT per metapage size with at most two next-use arrays alive (see header). */
#include "host/policy_opt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/paging.h"
#include "host/spill.h"
#include "host/u64map.h"

/* Builds a next-use array while the trace is read once: each access appends "never again" and
 * patches the entry of its page's previous use. */
typedef struct {
    spill_vec next;
    u64map last; /* page -> index of its last use */
} next_builder;

static int builder_init(next_builder *b, const char *tmpdir)
{
    b->next.fd = -1;
    b->next.v = NULL;
    b->last.keys = NULL;
    if (spill_init(&b->next, tmpdir) != 0)
        return -1;
    return u64map_init(&b->last, 1024);
}

static void builder_free(next_builder *b)
{
    if (b->next.v)
        spill_free(&b->next);
    if (b->last.keys)
        u64map_free(&b->last);
}

/* 0 ok, -1 out of memory, -2 no temporary space. */
static int builder_push(next_builder *b, uint64_t page, uint64_t idx)
{
    int inserted;
    uint64_t *last = u64map_put(&b->last, page, idx, &inserted);
    if (!last)
        return -1;
    if (!inserted) {
        b->next.v[*last] = idx;
        *last = idx;
    }
    return spill_push(&b->next, PG_NEXT_NONE) != 0 ? -2 : 0;
}

static int next_size(stack_sim *const *opt, int ns, int from)
{
    for (int s = from; s < ns; s++)
        if (opt[s])
            return s;
    return -1;
}

/* The trace is decoded in batches; per batch, a second thread builds the next size's array
 * while this one runs OPT for the current size (both read the batch, each writes only its own
 * structures, and each consumes the batch in trace order, so the results are those of one
 * thread).  That is the two cores the OPT passes use. */
#define OPT_BATCH 65536

typedef struct {
    next_builder *b;
    const uint64_t *addr;
    uint64_t size, first;
    size_t n;
    int rc;
} build_job;

static void *build_batch(void *arg)
{
    build_job *j = arg;
    j->rc = 0;
    for (size_t k = 0; k < j->n && !j->rc; k++)
        j->rc = builder_push(j->b, j->addr[k] / j->size, j->first + k);
    return NULL;
}

int policy_opt_run(ht_source *src, const uint64_t *sizes, stack_sim *const *opt, int ns,
                   uint64_t samples, const char *tmpdir, char *err, size_t errlen)
{
    const char *where = tmpdir ? tmpdir : "$TMPDIR or /tmp";
    next_builder cur = {.next.fd = -1}, nxt = {.next.fd = -1};
    uint64_t *addr = malloc(OPT_BATCH * sizeof *addr);
    uint8_t *wr = malloc(OPT_BATCH);
    int rc = -1;
    if (!addr || !wr) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* Pass 0 (s = -1) builds the first array; pass of size s runs OPT s and builds the next. */
    for (int s = -1, n = next_size(opt, ns, 0); s >= 0 || n >= 0;
         s = n, n = n >= 0 ? next_size(opt, ns, n + 1) : -1) {
        if (n >= 0 && builder_init(&nxt, tmpdir) != 0) {
            snprintf(err, errlen, "cannot create OPT's next-use file in %s", where);
            goto done;
        }
        if (ht_rewind(src) != 0) {
            snprintf(err, errlen, "%s", src->err);
            goto done;
        }
        ht_record r;
        int got = 1;
        uint64_t i = 0;
        while (got == 1) {
            size_t nb = 0;
            while (nb < OPT_BATCH && (got = ht_next_sample(src, &r)) == 1) {
                if (r.format == HT_FMT_32)
                    continue;
                addr[nb] = r.addr;
                wr[nb++] = (uint8_t)r.write;
            }
            if (got < 0) {
                snprintf(err, errlen, "%s", src->err);
                goto done;
            }
            if (i + nb > samples) {
                snprintf(err, errlen, "%s: the trace changed between passes", src->name);
                goto done;
            }
            build_job job = {.b = &nxt, .addr = addr, .size = n >= 0 ? sizes[n] : 1,
                             .first = i, .n = nb};
            pthread_t th;
            int threaded = 0;
            if (n >= 0 && s >= 0)
                threaded = pthread_create(&th, NULL, build_batch, &job) == 0;
            int oom = 0;
            for (size_t k = 0; s >= 0 && k < nb && !oom; k++)
                oom = stack_sim_access(opt[s], addr[k] / sizes[s], wr[k],
                                       pg_opt_rank(cur.next.v[i + k], i + k)) != 0;
            if (threaded)
                pthread_join(th, NULL);
            else if (n >= 0)
                build_batch(&job);
            if (oom || job.rc == -1) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            if (job.rc == -2) {
                snprintf(err, errlen,
                         "OPT's next-use file: no space left in %s (needs up to 2 x 8 bytes "
                         "x %llu samples)",
                         where, (unsigned long long)samples);
                goto done;
            }
            i += nb;
        }
        if (i != samples) {
            snprintf(err, errlen, "%s: the trace changed between passes", src->name);
            goto done;
        }
        builder_free(&cur); /* size s is done: its array goes before the next one is built */
        cur = nxt;
        nxt = (next_builder){.next.fd = -1};
    }
    rc = 0;
done:
    free(addr);
    free(wr);
    builder_free(&cur);
    builder_free(&nxt);
    return rc;
}
