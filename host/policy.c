/* Policy evaluation engine (see header). */
#include "host/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/policy_opt.h"
#include "host/simpolicy.h"
#include "host/spill.h"
#include "host/stackdist.h"
#include "host/u64map.h"

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

typedef struct {
    stack_sim *lru, *opt;
    policy_sim **fifo, **clock; /* per budget (NULL when the budget holds no metapage) */
    u64map ids;                 /* FIFO/CLOCK: page -> dense id shared by their simulations */
    uint32_t kmax;
} size_engine;

static void engine_free(size_engine *e, int nb)
{
    stack_sim_free(e->lru);
    stack_sim_free(e->opt);
    for (int b = 0; b < nb; b++) {
        if (e->fifo)
            policy_sim_free(e->fifo[b]);
        if (e->clock)
            policy_sim_free(e->clock[b]);
    }
    free(e->fifo);
    free(e->clock);
    if (e->ids.keys)
        u64map_free(&e->ids);
}

int policy_run(ht_source *src, const policy_config *cfg, policy_result *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    if (validate(cfg, err, errlen))
        return -1;
    int ns = cfg->nsizes, nb = cfg->nbudgets, rc = -1;
    size_engine *eng = calloc((size_t)ns, sizeof *eng);
    if (!eng) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int s = 0; s < ns; s++) {
        size_engine *e = &eng[s];
        for (int b = 0; b < nb; b++) {
            uint32_t k = resident_of(cfg->budgets[b], cfg->sizes[s]);
            if (k > e->kmax)
                e->kmax = k;
        }
        if (!e->kmax)
            continue;
        e->fifo = calloc((size_t)nb, sizeof *e->fifo);
        e->clock = calloc((size_t)nb, sizeof *e->clock);
        if (!e->fifo || !e->clock || u64map_init(&e->ids, 1024))
            goto oom;
        if (cfg->enabled[PG_LRU] && !(e->lru = stack_sim_new(PG_LRU, e->kmax)))
            goto oom;
        for (int b = 0; b < nb; b++) {
            uint32_t k = resident_of(cfg->budgets[b], cfg->sizes[s]);
            if (!k)
                continue;
            if (cfg->enabled[PG_FIFO] && !(e->fifo[b] = policy_sim_new_dense(PG_FIFO, k)))
                goto oom;
            if (cfg->enabled[PG_CLOCK] && !(e->clock[b] = policy_sim_new_dense(PG_CLOCK, k)))
                goto oom;
        }
        if (cfg->enabled[PG_OPT] && !(e->opt = stack_sim_new(PG_OPT, e->kmax)))
            goto oom;
    }

    /* Pass 1 */
    ht_record r;
    int got;
    uint64_t idx = 0;
    while ((got = ht_next_sample(src, &r)) == 1) {
        if (r.format == HT_FMT_32) {
            out->skipped32++;
            continue;
        }
        for (int s = 0; s < ns; s++) {
            size_engine *e = &eng[s];
            if (!e->kmax)
                continue;
            uint64_t page = r.addr / cfg->sizes[s];
            if (e->lru && stack_sim_access(e->lru, page, r.write, 0) != 0)
                goto oom;
            if (cfg->enabled[PG_FIFO] || cfg->enabled[PG_CLOCK]) {
                uint64_t *id = u64map_put(&e->ids, page, e->ids.count, NULL);
                if (!id)
                    goto oom;
                uint64_t dense = *id;
                for (int b = 0; b < nb; b++) {
                    if (e->fifo[b] && policy_sim_access(e->fifo[b], dense, r.write, 0) < 0)
                        goto oom;
                    if (e->clock[b] && policy_sim_access(e->clock[b], dense, r.write, 0) < 0)
                        goto oom;
                }
            }
        }
        idx++;
    }
    if (got < 0) {
        snprintf(err, errlen, "%s", src->err);
        goto fail;
    }
    out->samples = idx;

    /* Then OPT, one size at a time (host/policy_opt.h: bounded temporary space) */
    if (cfg->enabled[PG_OPT]) {
        stack_sim *opts[POLICY_MAX_SIZES] = {0};
        for (int s = 0; s < ns; s++)
            opts[s] = eng[s].opt;
        if (policy_opt_run(src, cfg->sizes, opts, ns, idx, cfg->tmpdir, err, errlen) != 0)
            goto fail;
    }

    /* Rows */
    size_t cap = 0;
    for (int s = 0; s < ns; s++) {
        size_engine *e = &eng[s];
        if (e->lru)
            stack_sim_finish(e->lru);
        if (e->opt)
            stack_sim_finish(e->opt);
        for (int b = 0; b < nb; b++) {
            uint32_t k = resident_of(cfg->budgets[b], cfg->sizes[s]);
            if (!k)
                continue;
            pg_counts c;
            if (e->lru) {
                stack_sim_counts(e->lru, k, &c);
                if (add_row(out, &cap, PG_LRU, cfg->sizes[s], cfg->budgets[b], &c, &cfg->cost))
                    goto oom;
            }
            if (e->fifo[b]) {
                policy_sim_counts(e->fifo[b], &c);
                if (add_row(out, &cap, PG_FIFO, cfg->sizes[s], cfg->budgets[b], &c, &cfg->cost))
                    goto oom;
            }
            if (e->clock[b]) {
                policy_sim_counts(e->clock[b], &c);
                if (add_row(out, &cap, PG_CLOCK, cfg->sizes[s], cfg->budgets[b], &c, &cfg->cost))
                    goto oom;
            }
            if (e->opt) {
                stack_sim_counts(e->opt, k, &c);
                if (add_row(out, &cap, PG_OPT, cfg->sizes[s], cfg->budgets[b], &c, &cfg->cost))
                    goto oom;
            }
        }
    }
    policy_rank(out, cfg);
    rc = 0;
    goto done;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    policy_result_free(out);
done:
    for (int s = 0; s < ns; s++)
        engine_free(&eng[s], nb);
    free(eng);
    return rc;
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
