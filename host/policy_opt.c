/* OPT per metapage size with at most two next-use arrays alive (see header). */
#include "host/policy_opt.h"

#include <stdio.h>

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

int policy_opt_run(ht_source *src, const uint64_t *sizes, stack_sim *const *opt, int ns,
                   uint64_t samples, const char *tmpdir, char *err, size_t errlen)
{
    const char *where = tmpdir ? tmpdir : "$TMPDIR or /tmp";
    next_builder cur = {.next.fd = -1}, nxt = {.next.fd = -1};
    int rc = -1;
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
        int got;
        uint64_t i = 0;
        while ((got = ht_next_sample(src, &r)) == 1) {
            if (r.format == HT_FMT_32)
                continue;
            if (i >= samples) {
                snprintf(err, errlen, "%s: the trace changed between passes", src->name);
                goto done;
            }
            if (s >= 0 && stack_sim_access(opt[s], r.addr / sizes[s], r.write,
                                           pg_opt_rank(cur.next.v[i], i)) != 0) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            if (n >= 0) {
                int e = builder_push(&nxt, r.addr / sizes[n], i);
                if (e == -1) {
                    snprintf(err, errlen, "out of memory");
                    goto done;
                }
                if (e == -2) {
                    snprintf(err, errlen,
                             "OPT's next-use file: no space left in %s (needs up to 2 x 8 bytes "
                             "x %llu samples)",
                             where, (unsigned long long)samples);
                    goto done;
                }
            }
            i++;
        }
        if (got < 0) {
            snprintf(err, errlen, "%s", src->err);
            goto done;
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
    builder_free(&cur);
    builder_free(&nxt);
    return rc;
}
