/* Sampled/reconstructed trace vs ground truth (see header). */
#include "host/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/tracemode.h"
#include "host/u64map.h"

static int page_histogram(ht_source *src, uint64_t page_size, u64map *h, uint64_t *total,
                          char *err, size_t errlen)
{
    if (ht_rewind(src)) {
        snprintf(err, errlen, "%s", src->err);
        return -1;
    }
    ht_record r;
    int got;
    *total = 0;
    while ((got = ht_next_sample(src, &r)) == 1) {
        if (r.format == HT_FMT_32)
            continue;
        uint64_t *c = u64map_put(h, r.addr / page_size, 0, NULL);
        if (!c) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        (*c)++;
        (*total)++;
    }
    if (got < 0) {
        snprintf(err, errlen, "%s", src->err);
        return -1;
    }
    return 0;
}

static int distribution_distances(ht_source *a, ht_source *b, uint64_t page_size, compare_result *r,
                                  char *err, size_t errlen)
{
    u64map ha, hb;
    uint64_t na, nb;
    if (u64map_init(&ha, 1024) || u64map_init(&hb, 1024)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    if (page_histogram(a, page_size, &ha, &na, err, errlen) ||
        page_histogram(b, page_size, &hb, &nb, err, errlen))
        goto done;
    double tvd = 0, jsd = 0;
    uint64_t common = 0;
    uint64_t key, va;
    for (size_t i = 0; u64map_iter(&ha, &i, &key, &va);) {
        double p = na ? (double)va / (double)na : 0;
        uint64_t *vb = u64map_get(&hb, key);
        double q = vb && nb ? (double)*vb / (double)nb : 0;
        common += vb != NULL;
        tvd += fabs(p - q);
        double m = (p + q) / 2;
        if (p > 0)
            jsd += 0.5 * p * log2(p / m);
        if (q > 0)
            jsd += 0.5 * q * log2(q / m);
    }
    for (size_t i = 0; u64map_iter(&hb, &i, &key, &va);) {
        if (u64map_get(&ha, key))
            continue;
        double q = nb ? (double)va / (double)nb : 0;
        tvd += q;
        jsd += 0.5 * q; /* p = 0: q * log2(q / (q/2)) / 2 */
    }
    r->tvd = tvd / 2;
    r->jsd = jsd;
    r->truth_pages = ha.count;
    r->other_pages = hb.count;
    r->common_pages = common;
    uint64_t uni = ha.count + hb.count - common;
    r->jaccard = uni ? (double)common / (double)uni : 1;
    rc = 0;
done:
    u64map_free(&ha);
    u64map_free(&hb);
    return rc;
}

static int align(ht_source *truth, ht_source *other, compare_result *r, char *err, size_t errlen)
{
    if (ht_rewind(truth) || ht_rewind(other)) {
        snprintf(err, errlen, "%s", truth->err[0] ? truth->err : other->err);
        return -1;
    }
    ht_record t, o;
    int gt = ht_next_sample(truth, &t), go;
    while ((go = ht_next_sample(other, &o)) == 1) {
        while (gt == 1 && t.cycle < o.cycle)
            gt = ht_next_sample(truth, &t);
        if (gt != 1)
            break;
        aligned_counts *a = &r->aligned[o.section == HT_SEC_SPAN];
        a->n++;
        a->same_gb += (t.addr >> 30) == (o.addr >> 30);
        if (o.format != HT_FMT_32) {
            a->same_page += (t.addr >> 12) == (o.addr >> 12);
            a->same_2m += (t.addr >> 21) == (o.addr >> 21);
        }
    }
    if (gt < 0 || go < 0) {
        snprintf(err, errlen, "%s", gt < 0 ? truth->err : other->err);
        return -1;
    }
    return 0;
}

int compare_run(ht_source *truth, ht_source *other, const compare_config *cfg, compare_result *r,
                char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (ht_rewind(truth)) {
        snprintf(err, errlen, "%s", truth->err);
        return -1;
    }
    if (policy_run(truth, &cfg->policy, &r->truth, err, errlen))
        return -1;
    if (ht_rewind(other) || policy_run(other, &cfg->policy, &r->other, err, errlen)) {
        if (!err[0])
            snprintf(err, errlen, "%s", other->err);
        policy_result_free(&r->truth);
        return -1;
    }
    r->scale = r->other.samples ? (double)r->truth.samples / (double)r->other.samples : 0;
    if (distribution_distances(truth, other, cfg->page_size, r, err, errlen) ||
        align(truth, other, r, err, errlen)) {
        compare_result_free(r);
        return -1;
    }
    return 0;
}

int compare_run_online(const policy_result *truth, ht_source *other, const compare_config *cfg,
                       compare_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->truth_online = 1;
    /* a reduce trace gives exact counts (for budgets >= its B), not a sample, a spatial trace's
     * rows come scaled (host/tracemode.c) and an every-access trace is every access: no scaling
     * here */
    trace_mode_info tm;
    if (trace_mode_get(other, &tm, err, errlen))
        return -1;
    if (ht_rewind(other) || policy_run_mode(other, &tm, &cfg->policy, &r->other, err, errlen)) {
        if (!err[0])
            snprintf(err, errlen, "%s", other->err);
        return -1;
    }
    r->truth = *truth;
    r->truth.rows = malloc((truth->n ? truth->n : 1) * sizeof *truth->rows);
    if (!r->truth.rows) {
        policy_result_free(&r->other);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(r->truth.rows, truth->rows, truth->n * sizeof *truth->rows);
    /* every-access, reduce and spatial traces give counts, not a time sample: no scaling */
    r->scale = tm.mode != TM_BURST ? 1.0 : r->other.samples ? (double)r->truth.samples / (double)r->other.samples : 0;
    return 0;
}

void compare_result_free(compare_result *r)
{
    policy_result_free(&r->truth);
    policy_result_free(&r->other);
}

static const policy_row *find(const policy_result *r, const policy_row *like)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].policy == like->policy && r->rows[i].size == like->size &&
            r->rows[i].budget == like->budget)
            return &r->rows[i];
    return NULL;
}

void compare_report(FILE *f, report_format fmt, const char *truth_name, const char *other_name,
                    const compare_config *cfg, const compare_result *r)
{
    char b1[32], b2[32];
    double sum_abs[PG_COUNT] = {0}, max_abs[PG_COUNT] = {0};
    int cnt[PG_COUNT] = {0};
    if (fmt == REPORT_CSV)
        fprintf(f, "policy,metapage_bytes,resident,budget_bytes,truth_faults,other_faults,"
                   "other_faults_scaled,rel_error,truth_writebacks,other_writebacks_scaled\n");
    else if (fmt == REPORT_TABLE)
        fprintf(f, "truth %s: %" PRIu64 " samples; other %s: %" PRIu64 " samples (x%.3f to "
                   "compare counts)\n\n%-6s %-6s %8s %8s %12s %12s %12s %9s\n",
                truth_name, r->truth.samples, other_name, r->other.samples, r->scale, "budget",
                "policy", "metapage", "resident", "truth_flt", "other_flt", "scaled", "rel_err");
    else
        fprintf(f, "{\n  \"truth\": \"%s\", \"other\": \"%s\", \"truth_samples\": %" PRIu64
                   ", \"other_samples\": %" PRIu64 ", \"scale\": %.6f,\n  \"rows\": [\n",
                truth_name, other_name, r->truth.samples, r->other.samples, r->scale);
    int first = 1;
    for (size_t i = 0; i < r->truth.n; i++) {
        const policy_row *t = &r->truth.rows[i], *o = find(&r->other, t);
        if (!o)
            continue;
        double scaled = (double)o->c.faults * r->scale;
        double rel = t->c.faults ? (scaled - (double)t->c.faults) / (double)t->c.faults : 0;
        sum_abs[t->policy] += fabs(rel);
        if (fabs(rel) > max_abs[t->policy])
            max_abs[t->policy] = fabs(rel);
        cnt[t->policy]++;
        if (fmt == REPORT_CSV)
            fprintf(f, "%s,%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.1f,%.6f,%" PRIu64 ",%.1f\n",
                    pg_policy_name(t->policy), t->size, t->resident, t->budget, t->c.faults,
                    o->c.faults, scaled, rel, t->c.writebacks, (double)o->c.writebacks * r->scale);
        else if (fmt == REPORT_TABLE)
            fprintf(f, "%-6s %-6s %8s %8u %12" PRIu64 " %12" PRIu64 " %12.0f %+8.1f%%\n",
                    cli_bytes_str(t->budget, b1, sizeof b1), pg_policy_name(t->policy),
                    cli_bytes_str(t->size, b2, sizeof b2), t->resident, t->c.faults, o->c.faults,
                    scaled, 100 * rel);
        else {
            fprintf(f, "%s    {\"policy\": \"%s\", \"metapage_bytes\": %" PRIu64 ", \"budget_bytes\": %" PRIu64
                       ", \"truth_faults\": %" PRIu64 ", \"other_faults\": %" PRIu64
                       ", \"other_faults_scaled\": %.1f, \"rel_error\": %.6f}",
                    first ? "" : ",\n", pg_policy_name(t->policy), t->size, t->budget, t->c.faults,
                    o->c.faults, scaled, rel);
            first = 0;
        }
    }
    if (fmt == REPORT_CSV)
        return;
    const policy_row *rt = r->truth.recommended >= 0 ? &r->truth.rows[r->truth.recommended] : NULL;
    const policy_row *ro = r->other.recommended >= 0 ? &r->other.rows[r->other.recommended] : NULL;
    int agree = rt && ro && rt->size == ro->size && rt->policy == ro->policy && rt->budget == ro->budget;
    int agree_size = rt && ro && rt->size == ro->size;
    const aligned_counts *ab = &r->aligned[0], *as = &r->aligned[1];
#define PCT(a, b) ((b) ? 100.0 * (double)(a) / (double)(b) : 0.0)
    if (fmt == REPORT_JSON) {
        fprintf(f, "\n  ],\n  \"truth_online\": %s,\n  \"mean_abs_rel_error\": {",
                r->truth_online ? "true" : "false");
        int k = 0;
        for (int p = 0; p < PG_COUNT; p++)
            if (cnt[p])
                fprintf(f, "%s\"%s\": %.6f", k++ ? ", " : "", pg_policy_name((pg_policy)p), sum_abs[p] / cnt[p]);
        fprintf(f, "},\n  \"max_abs_rel_error\": {");
        k = 0;
        for (int p = 0; p < PG_COUNT; p++)
            if (cnt[p])
                fprintf(f, "%s\"%s\": %.6f", k++ ? ", " : "", pg_policy_name((pg_policy)p), max_abs[p]);
        /* null: the truth has no recommendation to agree with (no row at the primary budget) */
        fprintf(f, "},\n  \"recommendation_agrees\": %s, \"recommended_size_agrees\": %s",
                !rt ? "null" : agree ? "true" : "false", !rt ? "null" : agree_size ? "true" : "false");
        if (r->truth_online) {
            fprintf(f, "\n}\n");
            return;
        }
        fprintf(f, ",\n");
        fprintf(f, "  \"pages\": {\"page_size\": %" PRIu64 ", \"tvd\": %.6f, \"jsd_bits\": %.6f, "
                   "\"jaccard\": %.6f, \"truth_pages\": %" PRIu64 ", \"other_pages\": %" PRIu64 "},\n",
                cfg->page_size, r->tvd, r->jsd, r->jaccard, r->truth_pages, r->other_pages);
        fprintf(f, "  \"aligned\": {\"burst\": {\"n\": %" PRIu64 ", \"same_page\": %.6f, \"same_2m\": %.6f, "
                   "\"same_gb\": %.6f}, \"span\": {\"n\": %" PRIu64 ", \"same_page\": %.6f, \"same_2m\": %.6f, "
                   "\"same_gb\": %.6f}}\n}\n",
                ab->n, PCT(ab->same_page, ab->n) / 100, PCT(ab->same_2m, ab->n) / 100,
                PCT(ab->same_gb, ab->n) / 100, as->n, PCT(as->same_page, as->n) / 100,
                PCT(as->same_2m, as->n) / 100, PCT(as->same_gb, as->n) / 100);
        return;
    }
    fprintf(f, "\nmean |relative fault-count error|:");
    for (int p = 0; p < PG_COUNT; p++)
        if (cnt[p])
            fprintf(f, "  %s %.1f%%", pg_policy_name((pg_policy)p), 100 * sum_abs[p] / cnt[p]);
    fprintf(f, "\nmax |relative fault-count error|: ");
    for (int p = 0; p < PG_COUNT; p++)
        if (cnt[p])
            fprintf(f, "  %s %.1f%%", pg_policy_name((pg_policy)p), 100 * max_abs[p]);
    if (!rt) {
        fprintf(f, "\nrecommendation: not compared: the truth has no row at the recommendation's budget %s "
                   "(--budget chooses it)\n", cli_bytes_str(cfg->policy.primary_budget, b1, sizeof b1));
    } else {
        fprintf(f, "\nrecommendation: truth %s x %u %s, other ", cli_bytes_str(rt->size, b1, sizeof b1),
                rt->resident, pg_policy_name(rt->policy));
        if (ro)
            fprintf(f, "%s x %u %s", cli_bytes_str(ro->size, b1, sizeof b1), ro->resident, pg_policy_name(ro->policy));
        else
            fprintf(f, "none");
        fprintf(f, ": %s\n", agree ? "AGREE" : agree_size ? "same metapage size, different policy" : "DISAGREE");
    }
    if (r->truth_online) {
        fprintf(f, "(truth: mtemu's online counts, %" PRIu64 " guest accesses; no samples, so no page "
                   "distributions or alignment)\n", r->truth.samples);
        return;
    }
    fprintf(f, "pages of %s: truth %" PRIu64 ", other %" PRIu64 ", common %" PRIu64
               "; TVD %.4f, JSD %.4f bits, Jaccard %.4f\n",
            cli_bytes_str(cfg->page_size, b1, sizeof b1), r->truth_pages, r->other_pages,
            r->common_pages, r->tvd, r->jsd, r->jaccard);
    fprintf(f, "aligned samples (other vs truth's first sample at or after the same cycle):\n");
    fprintf(f, "  burst %10" PRIu64 ": same page %6.2f%%, same 2M %6.2f%%, same GiB %6.2f%%\n", ab->n,
            PCT(ab->same_page, ab->n), PCT(ab->same_2m, ab->n), PCT(ab->same_gb, ab->n));
    fprintf(f, "  span  %10" PRIu64 ": same page %6.2f%%, same 2M %6.2f%%, same GiB %6.2f%%\n", as->n,
            PCT(as->same_page, as->n), PCT(as->same_2m, as->n), PCT(as->same_gb, as->n));
#undef PCT
}
