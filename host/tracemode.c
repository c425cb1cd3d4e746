/* Trace modes on the host: see host/tracemode.h. */
#include "host/tracemode.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mt_reduce.h"

const char *trace_mode_name(trace_mode m)
{
    switch (m) {
    case TM_REDUCE: return "reduce";
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
        return 0;
    }
    snprintf(err, errlen, "%s: trace mode '%s' is not one this metatrace knows (burst, reduce): "
             "refusing to misread it", src->name, v);
    return -1;
}

int trace_mode_refuse_masked(ht_source *src, const char *cmd, char *err, size_t errlen)
{
    trace_mode_info tm;
    if (trace_mode_get(src, &tm, err, errlen))
        return -1;
    if (tm.mode == TM_REDUCE) {
        snprintf(err, errlen, "%s: a reduce-mode trace (size-masked records, docs/trace-format.md 4.1) "
                 "is read by metatrace policy and plot; %s would misread it", src->name, cmd);
        return -1;
    }
    return 0;
}

/* ---- one size's view of a reduce trace --------------------------------------------------- */

typedef struct {
    ht_source *in;
    unsigned bit;
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
    ht_source *s = calloc(1, sizeof *s);
    view_state *v = calloc(1, sizeof *v);
    if (!s || !v) {
        free(s);
        free(v);
        return NULL;
    }
    v->in = inner;
    v->bit = i;
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
    size_t cap = 0;
    for (int s = 0; s < cfg->nsizes; s++) {
        unsigned i = (unsigned)size_index(cfg->sizes[s]);
        if (ht_rewind(src)) {
            snprintf(err, errlen, "%s", src->err);
            goto fail;
        }
        ht_source *view = trace_mode_size_view(src, i);
        if (!view) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        policy_config one = *cfg;
        one.sizes[0] = cfg->sizes[s];
        one.nsizes = 1;
        policy_result part;
        int rc = policy_run(view, &one, &part, err, errlen);
        view->close(view);
        if (rc)
            goto fail;
        if (out->n + part.n > cap) {
            cap = (out->n + part.n) * 2;
            policy_row *rows = realloc(out->rows, cap * sizeof *rows);
            if (!rows) {
                policy_result_free(&part);
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
            out->rows = rows;
        }
        /* exact from k = max(1, B / s) metapages on: every budget >= B, and more */
        uint64_t floor = (uint64_t)mt_reduce_k(tm->reduce_budget, i) * cfg->sizes[s];
        for (size_t j = 0; j < part.n; j++) {
            policy_row *w = &out->rows[out->n++];
            *w = part.rows[j];
            int exact_policy = w->policy == PG_LRU || w->policy == PG_OPT;
            w->fidelity = exact_policy && w->budget >= floor ? ROW_EXACT : ROW_APPROX;
        }
        if (part.samples > out->samples)
            out->samples = part.samples;
        policy_result_free(&part);
    }
    policy_rank(out, cfg);
    out->mode = "reduce";
    return 0;
fail:
    policy_result_free(out);
    return -1;
}

int policy_run_mode(ht_source *src, const trace_mode_info *tm, const policy_config *cfg,
                    policy_result *out, char *err, size_t errlen)
{
    if (tm->mode == TM_REDUCE)
        return run_reduce(src, tm, cfg, out, err, errlen);
    return policy_run(src, cfg, out, err, errlen);
}
