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
    if (!strcmp(v, "every-access-runs")) { /* read back as the records it stands for (lib/mt_runs.h) */
        out->mode = TM_ALL;
        return 0;
    }
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
    snprintf(err, errlen, "%s: trace mode '%s' is not one this metatrace knows (burst, reduce, spatial, every-access-runs): "
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

/* Hash bits 0..15 of metapage p, the keep decision's (= mt_spatial_hash(p), by the filter's byte
 * table: a sixth of the instructions of a parity per bit, and the host hashes every record at
 * every size it reads). */
static inline uint32_t keep_hash(uint64_t p)
{
    return mt_spatial_hash32(p & ((UINT64_C(1) << 48) - 1)) & 0xffff;
}

/* The final rates of n sizes (indices idx[]) in one read of the trace: per size, its records
 * replayed through the filter's doubling rule (mt_spatial_counter, the filter's code) from the
 * size's starting rate, a record of a metapage no longer kept skipped (recorded before the rate
 * last doubled); and (sampled not NULL) the metapages kept at each final rate.  Traces without
 * trace.spatial_rule replay their exact-set rule, one read per size.  0, or -1 (err). */
#define SEEN_WAYS 1024u

static int spatial_final_rates(ht_source *src, const trace_mode_info *tm, const unsigned *idx, int n,
                               uint32_t *rate, uint64_t *sampled, char *err, size_t errlen)
{
    if (!tm->spatial_map_log2) {
        for (int s = 0; s < n; s++)
            if (exact_set_final_rate(src, tm, idx[s], &rate[s], sampled ? &sampled[s] : NULL, err, errlen))
                return -1;
        return 0;
    }
    mt_spatial_counter *c = calloc((size_t)n, sizeof *c);
    u64map *seen = calloc((size_t)n, sizeof *seen); /* every metapage counted, to count those kept at the end */
    /* per size, the metapage last recorded in each of SEEN_WAYS slots (+ 1, 0 none) since the
     * rate last doubled: its bit is still set and it is in the seen set, so that a record of it
     * again changes nothing (most records are of a metapage recorded a little before) */
    uint64_t(*recent)[SEEN_WAYS] = calloc((size_t)n, sizeof *recent);
    int rc = -1, made = 0;
    if (!c || !seen || !recent) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (; made < n; made++) {
        if (mt_spatial_counter_init(&c[made], tm->spatial_rates[idx[made]], tm->spatial_map_log2, tm->spatial_max)) {
            snprintf(err, errlen, "%s: spatial parameters the filter does not take", src->name);
            goto done;
        }
        if (sampled && u64map_init(&seen[made], 4096)) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
    }
    if (ht_rewind(src)) {
        snprintf(err, errlen, "%s", src->err);
        goto done;
    }
    ht_record rec;
    int got;
    while ((got = ht_next(src, &rec)) == 1) {
        if (rec.kind != HT_REC_SAMPLE)
            continue;
        uint64_t page = rec.addr >> 12;
        for (int s = 0; s < n; s++) {
            if (!((rec.addr >> idx[s]) & 1))
                continue;
            uint64_t p = page >> idx[s], *last = &recent[s][p & (SEEN_WAYS - 1)];
            if (*last == p + 1)
                continue;
            if (c[s].rate > 1 && (keep_hash(p) & (c[s].rate - 1)))
                continue;
            int doubled = mt_spatial_counter_record(&c[s], p);
            if (sampled && !u64map_put(&seen[s], p, 0, NULL)) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            if (doubled) /* bits cleared (p's own, maybe): forget what was recorded */
                memset(recent[s], 0, sizeof recent[s]);
            else
                *last = p + 1;
        }
    }
    if (got < 0) {
        snprintf(err, errlen, "%s", src->err);
        goto done;
    }
    for (int s = 0; s < n; s++) {
        rate[s] = c[s].rate;
        if (!sampled)
            continue;
        uint64_t kept = 0, k, val;
        size_t pos = 0;
        while (u64map_iter(&seen[s], &pos, &k, &val))
            kept += (keep_hash(k) & (c[s].rate - 1)) == 0;
        sampled[s] = kept;
    }
    rc = 0;
done:
    for (int s = 0; seen && s < made; s++)
        if (seen[s].keys)
            u64map_free(&seen[s]);
    free(seen);
    free(recent);
    free(c);
    return rc;
}

int trace_mode_spatial_final_rate(ht_source *src, const trace_mode_info *tm, unsigned i, uint32_t *rate,
                                  uint64_t *sampled, char *err, size_t errlen)
{
    return spatial_final_rates(src, tm, &i, 1, rate, sampled, err, errlen);
}

/* The sample's scaled counts at capacity x (sample metapages, > 0) of size `size`, from the
 * sample's rows (sr): simulated at floor(x) and ceil(x) (at least one), interpolated linearly; 0,
 * or -1 a capacity was not simulated. */
static const policy_row *sample_row(const policy_result *sr, pg_policy p, uint64_t size, uint64_t budget)
{
    for (size_t j = 0; j < sr->n; j++)
        if (sr->rows[j].policy == p && sr->rows[j].size == size && sr->rows[j].budget == budget)
            return &sr->rows[j];
    return NULL;
}

static int sample_at(const policy_result *sr, pg_policy p, uint64_t size, double x, double *faults, double *wbs,
                     uint64_t *accesses)
{
    uint64_t lo = (uint64_t)x, hi = lo + ((double)lo < x);
    double w = lo ? x - (double)lo : 0; /* weight of hi */
    const policy_row *a = sample_row(sr, p, size, (lo ? lo : 1) * size),
                     *c = sample_row(sr, p, size, (hi ? hi : 1) * size);
    if (!a || !c)
        return -1;
    *faults = (1 - w) * (double)a->c.faults + w * (double)c->c.faults;
    *wbs = (1 - w) * (double)a->c.writebacks + w * (double)c->c.writebacks;
    *accesses = a->c.accesses;
    return 0;
}

static int add_capacity(uint64_t *list, int *n, uint64_t b)
{
    for (int k = 0; k < *n; k++)
        if (list[k] == b)
            return 0;
    list[(*n)++] = b;
    return 1;
}

static void add_capacities(uint64_t *caps, int *n, uint64_t size, double x)
{
    uint64_t lo = (uint64_t)x, hi = lo + ((double)lo < x);
    add_capacity(caps, n, (lo ? lo : 1) * size);
    add_capacity(caps, n, (hi ? hi : 1) * size);
}

/* One size of a spatial trace: its final rate R, the metapages sampled at R, the error bar's e and
 * the sample capacities (bytes) its rows need. */
typedef struct {
    uint64_t size;
    unsigned i;
    uint32_t rate;
    uint64_t nmeta;
    double e;
    uint64_t caps[POLICY_SIZE_MAX_BUDGETS];
    int ncaps;
} spatial_plan;

/* A budget of M = budget / size metapages is x = M / R in the sample (R the size's final rate);
 * the rows read the sample at x and, for the error bar, at x (1 -+ e) (spatial_rows). */
static void spatial_caps(const policy_config *cfg, spatial_plan *pl)
{
    uint32_t rate = pl->rate;
    pl->e = rate > 1 && pl->nmeta ? 2 * sqrt((double)(rate - 1) / ((double)rate * (double)pl->nmeta)) : 0;
    pl->ncaps = 0;
    for (int b = 0; b < cfg->nbudgets; b++) {
        uint64_t m = cfg->budgets[b] / pl->size;
        if (!m)
            continue;
        double x = (double)m / rate;
        add_capacities(pl->caps, &pl->ncaps, pl->size, x);
        if (rate > 1 && x >= 1) {
            add_capacities(pl->caps, &pl->ncaps, pl->size, x * (1 - pl->e) > 1 ? x * (1 - pl->e) : 1);
            add_capacities(pl->caps, &pl->ncaps, pl->size, x * (1 + pl->e));
        }
    }
}

/* One size's rows from the sample's (sr): the sample's faults and write-backs at x (interpolated
 * between floor(x) and ceil(x) metapages) multiplied by R (SHARDS's fixed-rate scaling: the
 * SHARDS-adj correction by the sampled fraction of the accesses, which the trailer would allow,
 * is worse here: docs/metapaging.md "Spatial sampling").  The error bar adds to the sampling
 * error of the count (e = 2 sqrt((R-1) / (R n)), n the sampled metapages) how much the estimate
 * moves when the capacity is off by the same relative amount, x (1 -+ e): the sample's footprint
 * and distances are R times smaller than the full trace's only to within e, which matters at a
 * knee of the fault curve, where a few metapages more or less decide fit or thrash. */
static int spatial_rows(const policy_result *sr, const trace_mode_info *tm, const policy_config *cfg,
                        const spatial_plan *pl, policy_result *out, size_t *cap, char *err, size_t errlen)
{
    uint64_t size = pl->size, nmeta = pl->nmeta;
    uint32_t rate = pl->rate;
    double e = pl->e, scale = rate;
    for (int b = 0; b < cfg->nbudgets; b++) {
        uint64_t m = cfg->budgets[b] / size;
        if (!m)
            continue;
        double x = (double)m / rate;
        for (int p = 0; p < PG_COUNT; p++) {
            double f, wb;
            uint64_t acc;
            if (!cfg->enabled[p] || sample_at(sr, (pg_policy)p, size, x, &f, &wb, &acc))
                continue;
            if (out->n == *cap) {
                size_t nc = *cap ? *cap * 2 : 64;
                policy_row *rows = realloc(out->rows, nc * sizeof *rows);
                if (!rows) {
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
                !sample_at(sr, (pg_policy)p, size, x * (1 - e) > 1 ? x * (1 - e) : 1, &f_lo, &w2, &acc) &&
                !sample_at(sr, (pg_policy)p, size, x * (1 + e), &f_hi, &w2, &acc)) {
                double knee = fabs(f_lo - f) > fabs(f_hi - f) ? fabs(f_lo - f) : fabs(f_hi - f);
                r->err_rel = e + knee / f;
            }
        }
    }
    return 0;
}

/* policy_run_selected's filter for a spatial trace: a size (mask bit b) keeps the records of the
 * metapages its final rate keeps (ctx: the rate per mask bit). */
static unsigned spatial_keep(void *ctx, uint64_t page, unsigned mask)
{
    const uint32_t *rate = ctx;
    for (unsigned m = mask; m; m &= m - 1) {
        unsigned b = (unsigned)__builtin_ctz(m);
        if (rate[b] > 1 && (keep_hash(page >> b) & (rate[b] - 1)))
            mask &= ~(1u << b);
    }
    return mask;
}

/* Spatial: per size, a fixed-rate sample at its final rate, simulated at its own capacities, its
 * rows scaled back.  Two reads of the trace for every size: the final rates, then the samples'
 * simulations of all sizes at once (policy_run_selected). */
static int run_spatial(ht_source *src, const trace_mode_info *tm, const policy_config *cfg,
                       policy_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->opt_bound = -1;
    int ns = cfg->nsizes;
    if (ns <= 0 || ns > POLICY_MAX_SIZES) {
        snprintf(err, errlen, "no metapage sizes or budgets");
        return -1;
    }
    for (int s = 0; s < ns; s++)
        if (size_index(cfg->sizes[s]) < 0) {
            snprintf(err, errlen, "%s: a spatial trace covers metapage sizes 4K, 8K, ... 2M; %" PRIu64
                     " bytes is not one of them", src->name, cfg->sizes[s]);
            return -1;
        }
    spatial_plan *pl = calloc((size_t)ns, sizeof *pl);
    unsigned idx[POLICY_MAX_SIZES];
    uint32_t rate[POLICY_MAX_SIZES];
    uint64_t nmeta[POLICY_MAX_SIZES];
    if (!pl) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int s = 0; s < ns; s++)
        idx[s] = (unsigned)size_index(cfg->sizes[s]);
    if (spatial_final_rates(src, tm, idx, ns, rate, nmeta, err, errlen)) {
        free(pl);
        return -1;
    }
    /* the sizes with a capacity to simulate (a size larger than every budget has no row) */
    policy_config sample = *cfg;
    policy_size_sel sel[POLICY_MAX_SIZES];
    uint32_t rate_of_bit[POLICY_MASK_BITS] = {0};
    sample.nsizes = 0;
    for (int s = 0; s < ns; s++) {
        pl[s].size = cfg->sizes[s];
        pl[s].i = idx[s];
        pl[s].rate = rate[s];
        pl[s].nmeta = nmeta[s];
        spatial_caps(cfg, &pl[s]);
        if (!pl[s].ncaps)
            continue;
        rate_of_bit[idx[s]] = rate[s];
        sel[sample.nsizes] = (policy_size_sel){.mask_bit = idx[s], .budgets = pl[s].caps, .nbudgets = pl[s].ncaps};
        sample.sizes[sample.nsizes++] = cfg->sizes[s];
    }
    policy_result sr = {0};
    int rc = 0;
    if (sample.nsizes) {
        if (ht_rewind(src)) {
            snprintf(err, errlen, "%s", src->err);
            free(pl);
            return -1;
        }
        rc = policy_run_selected(src, &sample, sel, spatial_keep, rate_of_bit, &sr, err, errlen);
    }
    size_t cap = 0;
    for (int s = 0; !rc && s < ns; s++)
        if (pl[s].ncaps)
            rc = spatial_rows(&sr, tm, cfg, &pl[s], out, &cap, err, errlen);
    if (!rc)
        out->samples = sr.samples;
    policy_result_free(&sr);
    free(pl);
    if (rc) {
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
