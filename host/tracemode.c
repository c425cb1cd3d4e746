/* Trace modes on the host: see host/tracemode.h. */
#include "host/tracemode.h"

#include <errno.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/u64map.h"
#include "mt_reduce.h"
#include "mt_spatial.h"

const char *trace_mode_name(trace_mode m)
{
    switch (m) {
    case TM_REDUCE: return "reduce";
    case TM_SPATIAL: return "spatial";
    case TM_ALL: return "every-access";
    default: return "burst";
    }
}

/* The value of `key=` in an info text, copied into buf; 0 found, -1 absent. */
static int info_value(const char *info, const char *key, char *buf, size_t cap)
{
    size_t kl = strlen(key);
    for (const char *p = info; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t n = len - kl - 1 < cap - 1 ? len - kl - 1 : cap - 1;
            memcpy(buf, p + kl + 1, n);
            buf[n] = 0;
            return 0;
        }
        p = nl ? nl + 1 : NULL;
    }
    return -1;
}

/* A decimal u64 (all of s); 0 ok, -1 not one. */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = x;
    return 0;
}

/* TM_SIZES comma-separated decimals; 0 ok, -1 not that. */
static int parse_list(const char *s, uint64_t out[TM_SIZES])
{
    for (unsigned i = 0; i < TM_SIZES; i++) {
        const char *c = strchr(s, ',');
        char one[32];
        size_t n = c ? (size_t)(c - s) : strlen(s);
        if (n == 0 || n >= sizeof one || (i + 1 < TM_SIZES) != (c != NULL))
            return -1;
        memcpy(one, s, n);
        one[n] = 0;
        if (parse_u64(one, &out[i]))
            return -1;
        s += n + 1;
    }
    return 0;
}

/* The trailer's counts (docs/trace-format.md 4.1); absent or unreadable: left 0 (the rows then
 * count records, as before the trailer existed). */
static void trailer_get(ht_source *src, trace_mode_info *out)
{
    const char *t = src->trailer_info ? src->trailer_info(src) : "";
    char v[512];
    uint64_t x;
    if (!info_value(t, "trace.accesses", v, sizeof v) && !parse_u64(v, &x))
        out->accesses = x;
}

static int spatial_get(ht_source *src, const char *info, trace_mode_info *out, char *err, size_t errlen)
{
    char v[256];
    uint64_t n, l[TM_SIZES];
    if (info_value(info, "trace.spatial_rate", v, sizeof v) || parse_u64(v, &n) || !mt_spatial_rate_ok(n)) {
        snprintf(err, errlen, "%s: spatial trace without a trace.spatial_rate (a power of two from 1 to %u) in "
                 "its header", src->name, MT_SPATIAL_RATE_MAX);
        return -1;
    }
    if (info_value(info, "trace.spatial_rates", v, sizeof v) || parse_list(v, l)) {
        snprintf(err, errlen, "%s: spatial trace without trace.spatial_rates (10 rates, 4K..2M) in its header",
                 src->name);
        return -1;
    }
    for (unsigned i = 0; i < TM_SIZES; i++) {
        if (!mt_spatial_rate_ok(l[i])) {
            snprintf(err, errlen, "%s: trace.spatial_rates: rate %" PRIu64 " for %u KiB is not a power of two "
                     "from 1 to %u", src->name, l[i], 4u << i, MT_SPATIAL_RATE_MAX);
            return -1;
        }
        out->spatial_rates[i] = (uint32_t)l[i];
    }
    /* the doubling rule: a bitmap of 2^K bits per size (lib/mt_spatial.h), or, when the header
     * names none, the exact set of up to 2S metapages of the traces written before it (the
     * reader replays the writer's rule: another rule would take metapages dropped on the way
     * for a fixed-rate sample) */
    uint64_t k = 0, smax;
    if (!info_value(info, "trace.spatial_rule", v, sizeof v) &&
        (strncmp(v, "bitmap-", 7) || parse_u64(v + 7, &k) || k < MT_SPATIAL_MAP_LOG2_MIN || k > MT_SPATIAL_MAP_LOG2_MAX)) {
        snprintf(err, errlen, "%s: trace.spatial_rule '%s' is not bitmap-K (K from %u to %u): refusing to replay "
                 "a rule this metatrace does not know", src->name, v, MT_SPATIAL_MAP_LOG2_MIN, MT_SPATIAL_MAP_LOG2_MAX);
        return -1;
    }
    uint64_t smax_top = k ? (UINT64_C(1) << k) - 1 : UINT64_C(1) << 20;
    if (info_value(info, "trace.spatial_max", v, sizeof v) || parse_u64(v, &smax) || smax < 1 || smax > smax_top) {
        snprintf(err, errlen, "%s: spatial trace without a trace.spatial_max (1 to %" PRIu64 "%s) in its header",
                 src->name, smax_top, k ? " set bits of a size's bitmap" : " metapages");
        return -1;
    }
    out->spatial_max = (uint32_t)smax;
    out->spatial_map_log2 = (unsigned)k;
    if (info_value(info, "trace.spatial_hash", v, sizeof v) || strcmp(v, "h3-splitmix0")) {
        snprintf(err, errlen, "%s: spatial trace whose trace.spatial_hash is not h3-splitmix0", src->name);
        return -1;
    }
    out->spatial_rate = (uint32_t)n;
    out->mode = TM_SPATIAL;
    return 0;
}

int trace_mode_get(ht_source *src, trace_mode_info *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *info = src->header_info ? src->header_info(src) : "";
    char v[64];
    if (info_value(info, "trace.mode", v, sizeof v)) {
        /* before trace modes: the unit's time sampling, or --trace-all's every access */
        if (!info_value(info, "mode", v, sizeof v) && !strcmp(v, "every-access"))
            out->mode = TM_ALL;
        return 0;
    }
    if (!strcmp(v, "burst"))
        return 0;
    if (!strcmp(v, "reduce")) {
        char b[64];
        char *end;
        if (info_value(info, "trace.reduce_budget", b, sizeof b)) {
            snprintf(err, errlen, "%s: reduce trace without trace.reduce_budget in its header", src->name);
            return -1;
        }
        out->reduce_budget = strtoull(b, &end, 10);
        if (*end || out->reduce_budget < MT_REDUCE_BUDGET_MIN || out->reduce_budget > MT_REDUCE_BUDGET_MAX) {
            snprintf(err, errlen, "%s: trace.reduce_budget '%s' is not a budget from 4096 to 2^30 bytes",
                     src->name, b);
            return -1;
        }
        out->mode = TM_REDUCE;
        trailer_get(src, out);
        return 0;
    }
    if (!strcmp(v, "spatial")) {
        if (spatial_get(src, info, out, err, errlen))
            return -1;
        trailer_get(src, out);
        return 0;
    }
    snprintf(err, errlen, "%s: trace mode '%s' is not one this metatrace knows (burst, reduce, spatial): "
             "refusing to misread it", src->name, v);
    return -1;
}

int trace_mode_refuse_masked(ht_source *src, const char *cmd, char *err, size_t errlen)
{
    trace_mode_info tm;
    if (trace_mode_get(src, &tm, err, errlen))
        return -1;
    if (tm.mode == TM_REDUCE || tm.mode == TM_SPATIAL) {
        snprintf(err, errlen, "%s: a %s-mode trace (size-masked records, docs/trace-format.md 4.1) "
                 "is read by metatrace policy, plot and compare against an online truth; %s would misread it",
                 src->name, trace_mode_name(tm.mode), cmd);
        return -1;
    }
    return 0;
}

/* ---- one size's view of a reduce trace --------------------------------------------------- */

typedef struct {
    ht_source *in;
    unsigned bit;
    uint32_t rate; /* spatial: keep only metapages with hash & (rate - 1) == 0 */
} view_state;

static int view_next(ht_source *s, ht_record *r)
{
    view_state *v = s->state;
    for (;;) {
        int rc = ht_next(v->in, r);
        if (rc <= 0) {
            if (rc < 0)
                snprintf(s->err, sizeof s->err, "%s", v->in->err);
            return rc;
        }
        if (r->kind != HT_REC_SAMPLE || !((r->addr >> v->bit) & 1))
            continue;
        r->addr &= ~(uint64_t)0xfff;
        if (v->rate > 1 && (mt_spatial_hash(r->addr >> (12 + v->bit)) & (v->rate - 1)))
            continue;
        return 1;
    }
}

static int view_rewind(ht_source *s)
{
    view_state *v = s->state;
    int rc = ht_rewind(v->in);
    if (rc)
        snprintf(s->err, sizeof s->err, "%s", v->in->err);
    return rc;
}

static void view_close(ht_source *s)
{
    free(s->state);
    free(s);
}

ht_source *trace_mode_size_view(ht_source *inner, unsigned i)
{
    return trace_mode_sample_view(inner, i, 1);
}

ht_source *trace_mode_sample_view(ht_source *inner, unsigned i, uint32_t rate)
{
    ht_source *s = calloc(1, sizeof *s);
    view_state *v = calloc(1, sizeof *v);
    if (!s || !v) {
        free(s);
        free(v);
        return NULL;
    }
    v->in = inner;
    v->bit = i;
    v->rate = rate;
    s->state = v;
    s->next = view_next;
    s->rewind = view_rewind;
    s->close = view_close;
    snprintf(s->name, sizeof s->name, "%s", inner->name);
    return s;
}

/* ---- policy per mode ------------------------------------------------------------------- */

static int size_index(uint64_t size)
{
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        if (size == (UINT64_C(4096) << i))
            return (int)i;
    return -1;
}

static int run_reduce(ht_source *src, const trace_mode_info *tm, const policy_config *cfg,
                      policy_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    for (int s = 0; s < cfg->nsizes; s++)
        if (size_index(cfg->sizes[s]) < 0) {
            snprintf(err, errlen, "%s: a reduce trace covers metapage sizes 4K, 8K, ... 2M; %" PRIu64
                     " bytes is not one of them", src->name, cfg->sizes[s]);
            return -1;
        }
    /* one read of the trace for every size: each size sees the records whose mask has it */
    unsigned bits[POLICY_MAX_SIZES];
    for (int s = 0; s < cfg->nsizes; s++)
        bits[s] = (unsigned)size_index(cfg->sizes[s]);
    if (ht_rewind(src)) {
        snprintf(err, errlen, "%s", src->err);
        return -1;
    }
    if (policy_run_masked(src, cfg, bits, out, err, errlen))
        return -1;
    for (size_t j = 0; j < out->n; j++) {
        policy_row *w = &out->rows[j];
        /* exact from k = max(1, B / s) metapages on: every budget >= B, and more */
        uint64_t floor = (uint64_t)mt_reduce_k(tm->reduce_budget, (unsigned)size_index(w->size)) * w->size;
        int exact_policy = w->policy == PG_LRU || w->policy == PG_OPT;
        w->fidelity = exact_policy && w->budget >= floor ? ROW_EXACT : ROW_APPROX;
        w->err_rel = -1;
        if (tm->accesses) /* the filter's input, not its records: fault_rate is per access */
            w->c.accesses = tm->accesses;
    }
    policy_rank(out, cfg);
    out->mode = "reduce";
    return 0;
}

/* ---- spatial: SHARDS per size --------------------------------------------------------- */

/* The rule of the traces without trace.spatial_rule: an exact set of the sampled metapages, a new
 * one counted unless the set holds 2S, the rate doubling while it holds more than S. */
static int exact_set_final_rate(ht_source *src, const trace_mode_info *tm, unsigned i, uint32_t *rate,
                                uint64_t *sampled, char *err, size_t errlen)
{
    uint32_t r = tm->spatial_rates[i], smax = tm->spatial_max;
    if (ht_rewind(src)) {
        snprintf(err, errlen, "%s", src->err);
        return -1;
    }
    ht_source *view = trace_mode_size_view(src, i);
    u64map set;
    if (!view || u64map_init(&set, 2 * (size_t)smax)) {
        if (view)
            view->close(view);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ht_record rec;
    int got, rc = 0;
    uint64_t *gone = malloc(2 * (size_t)smax * sizeof *gone);
    while (gone && (got = ht_next_sample(view, &rec)) == 1) {
        uint64_t p = rec.addr >> (12 + i);
        if (mt_spatial_hash(p) & (r - 1))
            continue; /* recorded before the rate last doubled */
        /* mt_spatial.h's rule: a new metapage counts unless the set holds 2 S */
        if (u64map_get(&set, p) || set.count >= 2 * (size_t)smax)
            continue;
        if (!u64map_put(&set, p, 0, NULL)) {
            rc = -1;
            break;
        }
        while (set.count > smax && r < MT_SPATIAL_RATE_MAX) {
            r *= 2;
            size_t n = 0, pos = 0;
            uint64_t k, val;
            while (u64map_iter(&set, &pos, &k, &val))
                if (mt_spatial_hash(k) & (r - 1))
                    gone[n++] = k;
            for (size_t j = 0; j < n; j++)
                u64map_remove(&set, gone[j]);
        }
    }
    if (!gone || rc)
        snprintf(err, errlen, "out of memory");
    else if (got < 0)
        snprintf(err, errlen, "%s", view->err);
    rc = !gone || rc || got < 0 ? -1 : 0;
    free(gone);
    if (sampled) /* the set holds the metapages kept at the final rate (all, below 2 S) */
        *sampled = set.count;
    u64map_free(&set);
    view->close(view);
    *rate = r;
    return rc;
}

int trace_mode_spatial_final_rate(ht_source *src, const trace_mode_info *tm, unsigned i, uint32_t *rate,
                                  uint64_t *sampled, char *err, size_t errlen)
{
    if (!tm->spatial_map_log2)
        return exact_set_final_rate(src, tm, i, rate, sampled, err, errlen);
    mt_spatial_counter *c = malloc(sizeof *c);
    if (!c || mt_spatial_counter_init(c, tm->spatial_rates[i], tm->spatial_map_log2, tm->spatial_max)) {
        snprintf(err, errlen, c ? "%s: spatial parameters the filter does not take" : "out of memory", src->name);
        free(c);
        return -1;
    }
    if (ht_rewind(src)) {
        snprintf(err, errlen, "%s", src->err);
        free(c);
        return -1;
    }
    ht_source *view = trace_mode_size_view(src, i);
    u64map seen; /* every metapage counted, to count those kept at the final rate */
    if (!view || u64map_init(&seen, 4096)) {
        if (view)
            view->close(view);
        snprintf(err, errlen, "out of memory");
        free(c);
        return -1;
    }
    ht_record rec;
    int got, rc = 0;
    while ((got = ht_next_sample(view, &rec)) == 1) {
        uint64_t p = rec.addr >> (12 + i);
        if (mt_spatial_hash(p) & (c->rate - 1))
            continue; /* recorded before the rate last doubled */
        mt_spatial_counter_record(c, p); /* the filter's rule, the filter's code */
        if (sampled && !u64map_get(&seen, p) && !u64map_put(&seen, p, 0, NULL)) {
            rc = -1;
            break;
        }
    }
    if (rc)
        snprintf(err, errlen, "out of memory");
    else if (got < 0)
        snprintf(err, errlen, "%s", view->err);
    rc = rc || got < 0 ? -1 : 0;
    if (sampled) {
        uint64_t n = 0, k, val;
        size_t pos = 0;
        while (u64map_iter(&seen, &pos, &k, &val))
            n += (mt_spatial_hash(k) & (c->rate - 1)) == 0;
        *sampled = n;
    }
    *rate = c->rate;
    u64map_free(&seen);
    view->close(view);
    free(c);
    return rc;
}

/* The sample's simulations of one size: every policy at a list of sample capacities, run in as
 * many passes of POLICY_MAX_BUDGETS capacities as needed. */
typedef struct {
    policy_row *rows;
    size_t n;
    uint64_t samples;
} sample_runs;

static const policy_row *sample_row(const sample_runs *r, pg_policy p, uint64_t budget)
{
    for (size_t j = 0; j < r->n; j++)
        if (r->rows[j].policy == p && r->rows[j].budget == budget)
            return &r->rows[j];
    return NULL;
}

static int add_capacity(uint64_t *list, int *n, uint64_t b)
{
    for (int k = 0; k < *n; k++)
        if (list[k] == b)
            return 0;
    list[(*n)++] = b;
    return 1;
}

static int run_sample(ht_source *src, const policy_config *cfg, uint64_t size, unsigned i, uint32_t rate,
                      const uint64_t *caps, int ncaps, sample_runs *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (int first = 0; first < ncaps; first += POLICY_MAX_BUDGETS) {
        policy_config one = *cfg;
        one.sizes[0] = size;
        one.nsizes = 1;
        one.nbudgets = ncaps - first < POLICY_MAX_BUDGETS ? ncaps - first : POLICY_MAX_BUDGETS;
        memcpy(one.budgets, caps + first, (size_t)one.nbudgets * sizeof *caps);
        one.primary_budget = one.budgets[0];
        if (ht_rewind(src)) {
            snprintf(err, errlen, "%s", src->err);
            return -1;
        }
        ht_source *view = trace_mode_sample_view(src, i, rate);
        if (!view) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        policy_result part;
        int rc = policy_run(view, &one, &part, err, errlen);
        view->close(view);
        if (rc)
            return -1;
        policy_row *rows = realloc(out->rows, (out->n + part.n + 1) * sizeof *rows);
        if (!rows) {
            policy_result_free(&part);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        out->rows = rows;
        memcpy(out->rows + out->n, part.rows, part.n * sizeof *part.rows);
        out->n += part.n;
        if (part.samples > out->samples)
            out->samples = part.samples;
        policy_result_free(&part);
    }
    return 0;
}

/* The sample's scaled counts at capacity x (sample metapages, > 0): simulated at floor(x) and
 * ceil(x) (at least one), interpolated linearly; 0, or -1 a capacity was not simulated. */
static int sample_at(const sample_runs *sr, pg_policy p, uint64_t size, double x, double *faults, double *wbs,
                     uint64_t *accesses)
{
    uint64_t lo = (uint64_t)x, hi = lo + ((double)lo < x);
    double w = lo ? x - (double)lo : 0; /* weight of hi */
    const policy_row *a = sample_row(sr, p, (lo ? lo : 1) * size), *c = sample_row(sr, p, (hi ? hi : 1) * size);
    if (!a || !c)
        return -1;
    *faults = (1 - w) * (double)a->c.faults + w * (double)c->c.faults;
    *wbs = (1 - w) * (double)a->c.writebacks + w * (double)c->c.writebacks;
    *accesses = a->c.accesses;
    return 0;
}

static void add_capacities(uint64_t *caps, int *n, uint64_t size, double x)
{
    uint64_t lo = (uint64_t)x, hi = lo + ((double)lo < x);
    add_capacity(caps, n, (lo ? lo : 1) * size);
    add_capacity(caps, n, (hi ? hi : 1) * size);
}

/* One size of a spatial trace: a budget of M = budget / size metapages is x = M / R in the sample
 * (R the size's final rate); the sample's faults and write-backs at x (interpolated between
 * floor(x) and ceil(x) metapages) are multiplied by R (SHARDS's fixed-rate scaling: the
 * SHARDS-adj correction by the sampled fraction of the accesses, which the trailer would allow,
 * is worse here: docs/metapaging.md "Spatial sampling").  The error bar adds to the sampling
 * error of the count (e = 2 sqrt((R-1) / (R n)), n the sampled metapages) how much the estimate
 * moves when the capacity is off by the same relative amount, x (1 -+ e): the sample's footprint
 * and distances are R times smaller than the full trace's only to within e, which matters at a
 * knee of the fault curve, where a few metapages more or less decide fit or thrash. */
static int spatial_size(ht_source *src, const trace_mode_info *tm, const policy_config *cfg, uint64_t size,
                        unsigned i, policy_result *out, size_t *cap, char *err, size_t errlen)
{
    uint32_t rate;
    uint64_t nmeta = 0;
    if (trace_mode_spatial_final_rate(src, tm, i, &rate, &nmeta, err, errlen))
        return -1;
    double e = rate > 1 && nmeta ? 2 * sqrt((double)(rate - 1) / ((double)rate * (double)nmeta)) : 0;
    uint64_t caps[6 * POLICY_MAX_BUDGETS];
    int ncaps = 0;
    for (int b = 0; b < cfg->nbudgets; b++) {
        uint64_t m = cfg->budgets[b] / size;
        if (!m)
            continue;
        double x = (double)m / rate;
        add_capacities(caps, &ncaps, size, x);
        if (rate > 1 && x >= 1) {
            add_capacities(caps, &ncaps, size, x * (1 - e) > 1 ? x * (1 - e) : 1);
            add_capacities(caps, &ncaps, size, x * (1 + e));
        }
    }
    if (!ncaps)
        return 0;
    sample_runs sr;
    if (run_sample(src, cfg, size, i, rate, caps, ncaps, &sr, err, errlen)) {
        free(sr.rows);
        return -1;
    }
    double scale = rate;
    for (int b = 0; b < cfg->nbudgets; b++) {
        uint64_t m = cfg->budgets[b] / size;
        if (!m)
            continue;
        double x = (double)m / rate;
        for (int p = 0; p < PG_COUNT; p++) {
            double f, wb;
            uint64_t acc;
            if (!cfg->enabled[p] || sample_at(&sr, (pg_policy)p, size, x, &f, &wb, &acc))
                continue;
            if (out->n == *cap) {
                size_t nc = *cap ? *cap * 2 : 64;
                policy_row *rows = realloc(out->rows, nc * sizeof *rows);
                if (!rows) {
                    free(sr.rows);
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                out->rows = rows;
                *cap = nc;
            }
            policy_row *r = &out->rows[out->n++];
            memset(r, 0, sizeof *r);
            r->policy = (pg_policy)p;
            r->size = size;
            r->budget = cfg->budgets[b];
            r->resident = m > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)m;
            r->c.faults = (uint64_t)llround(f * scale);
            r->c.writebacks = (uint64_t)llround(wb * scale);
            r->c.accesses = tm->accesses ? tm->accesses : (uint64_t)llround((double)acc * scale);
            r->cost = cost_of(&cfg->cost, &r->c, size);
            /* Rate 1 keeps every metapage: exact (2+ resident; repeats collapsed, write-backs
             * aside).  Else the count's sampling error plus the capacity's (above); none below
             * one sampled metapage. */
            if (rate == 1) {
                r->fidelity = m >= 2 ? ROW_EXACT : ROW_APPROX;
                r->err_rel = m >= 2 ? 0 : -1;
                continue;
            }
            r->fidelity = ROW_ESTIMATE;
            r->err_rel = -1;
            double f_lo, f_hi, w2;
            if (x >= 1 && nmeta && f > 0 &&
                !sample_at(&sr, (pg_policy)p, size, x * (1 - e) > 1 ? x * (1 - e) : 1, &f_lo, &w2, &acc) &&
                !sample_at(&sr, (pg_policy)p, size, x * (1 + e), &f_hi, &w2, &acc)) {
                double knee = fabs(f_lo - f) > fabs(f_hi - f) ? fabs(f_lo - f) : fabs(f_hi - f);
                r->err_rel = e + knee / f;
            }
        }
    }
    if (sr.samples > out->samples)
        out->samples = sr.samples;
    free(sr.rows);
    return 0;
}

static int run_spatial(ht_source *src, const trace_mode_info *tm, const policy_config *cfg,
                       policy_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    for (int s = 0; s < cfg->nsizes; s++)
        if (size_index(cfg->sizes[s]) < 0) {
            snprintf(err, errlen, "%s: a spatial trace covers metapage sizes 4K, 8K, ... 2M; %" PRIu64
                     " bytes is not one of them", src->name, cfg->sizes[s]);
            return -1;
        }
    size_t cap = 0;
    for (int s = 0; s < cfg->nsizes; s++)
        if (spatial_size(src, tm, cfg, cfg->sizes[s], (unsigned)size_index(cfg->sizes[s]), out, &cap, err,
                         errlen)) {
            policy_result_free(out);
            return -1;
        }
    policy_rank(out, cfg);
    out->mode = "spatial";
    return 0;
}

int policy_run_mode(ht_source *src, const trace_mode_info *tm, const policy_config *cfg,
                    policy_result *out, char *err, size_t errlen)
{
    if (tm->mode == TM_SPATIAL)
        return run_spatial(src, tm, cfg, out, err, errlen);
    if (tm->mode == TM_REDUCE)
        return run_reduce(src, tm, cfg, out, err, errlen);
    return policy_run(src, cfg, out, err, errlen);
}
