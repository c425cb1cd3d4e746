#include "host/policy_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"

int report_parse_format(const char *s, report_format *out)
{
    if (!strcmp(s, "table")) *out = REPORT_TABLE;
    else if (!strcmp(s, "csv")) *out = REPORT_CSV;
    else if (!strcmp(s, "json")) *out = REPORT_JSON;
    else return -1;
    return 0;
}

/* Rows in report order: by budget, then rank. */
static int by_budget_rank(const void *a, const void *b, void *ctx)
{
    const policy_result *r = ctx;
    const policy_row *x = &r->rows[*(const size_t *)a], *y = &r->rows[*(const size_t *)b];
    if (x->budget != y->budget)
        return x->budget < y->budget ? -1 : 1;
    return x->rank - y->rank;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static const char *fidelity_name(const policy_row *r)
{
    return r->fidelity == ROW_EXACT      ? "exact"
           : r->fidelity == ROW_APPROX   ? "approx"
           : r->fidelity == ROW_ESTIMATE ? "estimate"
                                         : "sampled";
}

/* The table's fidelity column: an estimate with its error bar where one can be given. */
static const char *fidelity_text(const policy_row *r, char *buf, size_t cap)
{
    if (r->fidelity == ROW_ESTIMATE && r->err_rel >= 0)
        snprintf(buf, cap, "estimate +-%.0f%%", 100 * r->err_rel);
    else if (r->fidelity == ROW_ESTIMATE)
        snprintf(buf, cap, "estimate (no error bar: < 1 sampled metapage resident)");
    else
        snprintf(buf, cap, "%s", fidelity_name(r));
    return buf;
}

static double rate(const policy_row *r)
{
    return r->c.accesses ? (double)r->c.faults / (double)r->c.accesses : 0;
}

void policy_report(FILE *f, report_format fmt, const char *trace, const policy_config *cfg,
                   const policy_result *r)
{
    size_t *order = malloc((r->n ? r->n : 1) * sizeof *order);
    if (!order)
        return;
    for (size_t i = 0; i < r->n; i++)
        order[i] = i;
    qsort_r(order, r->n, sizeof *order, by_budget_rank, (void *)r);
    char b1[32], b2[32], fb[80];
    int spatial = r->mode && !strcmp(r->mode, "spatial");
    const policy_row *best = r->recommended >= 0 ? &r->rows[r->recommended] : NULL;
    const policy_row *bound = r->opt_bound >= 0 ? &r->rows[r->opt_bound] : NULL;

    if (fmt == REPORT_CSV) {
        fprintf(f, "policy,metapage_bytes,resident,budget_bytes,accesses,faults,fault_rate,"
                   "writebacks,bytes_in,bytes_out,cost_s,rank%s\n",
                r->mode ? (spatial ? ",fidelity,error_bar" : ",fidelity") : "");
        for (size_t k = 0; k < r->n; k++) {
            const policy_row *w = &r->rows[order[k]];
            char eb[32] = "";
            if (spatial)
                snprintf(eb, sizeof eb, w->err_rel >= 0 ? ",%.4f" : ",", w->err_rel);
            fprintf(f, "%s,%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9f,%" PRIu64
                       ",%" PRIu64 ",%" PRIu64 ",%.9f,%d%s%s%s\n",
                    pg_policy_name(w->policy), w->size, w->resident, w->budget, w->c.accesses,
                    w->c.faults, rate(w), w->c.writebacks, w->c.faults * w->size,
                    w->c.writebacks * w->size, w->cost, w->rank, r->mode ? "," : "",
                    r->mode ? fidelity_name(w) : "", eb);
        }
    } else if (fmt == REPORT_JSON) {
        fprintf(f, "{\n  \"trace\": ");
        json_string(f, trace);
        fprintf(f, ",\n  \"samples\": %" PRIu64 ",\n  \"skipped_32bit\": %" PRIu64 ",\n",
                r->samples, r->skipped32);
        if (r->mode)
            fprintf(f, "  \"mode\": \"%s\",\n", r->mode);
        fprintf(f, "  \"cost_model\": {\"lat_in_s\": %g, \"lat_out_s\": %g, \"bw_in_Bps\": %g, "
                   "\"bw_out_Bps\": %g},\n  \"rows\": [\n",
                cfg->cost.lat_in, cfg->cost.lat_out, cfg->cost.bw_in, cfg->cost.bw_out);
        for (size_t k = 0; k < r->n; k++) {
            const policy_row *w = &r->rows[order[k]];
            fprintf(f, "    {\"policy\": \"%s\", \"metapage_bytes\": %" PRIu64 ", \"resident\": %u, "
                       "\"budget_bytes\": %" PRIu64 ", \"accesses\": %" PRIu64 ", \"faults\": %" PRIu64
                       ", \"fault_rate\": %.9f, \"writebacks\": %" PRIu64 ", \"bytes_in\": %" PRIu64
                       ", \"bytes_out\": %" PRIu64 ", \"cost_s\": %.9f, \"rank\": %d%s%s%s%s}%s\n",
                    pg_policy_name(w->policy), w->size, w->resident, w->budget, w->c.accesses,
                    w->c.faults, rate(w), w->c.writebacks, w->c.faults * w->size,
                    w->c.writebacks * w->size, w->cost, w->rank, r->mode ? ", \"fidelity\": \"" : "",
                    r->mode ? fidelity_name(w) : "", r->mode ? "\"" : "",
                    spatial ? (w->err_rel >= 0 ? (snprintf(fb, sizeof fb, ", \"error_bar\": %.4f", w->err_rel), fb)
                                               : ", \"error_bar\": null")
                            : "",
                    k + 1 < r->n ? "," : "");
        }
        fprintf(f, "  ],\n  \"recommendation\": ");
        if (best)
            fprintf(f, "{\"policy\": \"%s\", \"metapage_bytes\": %" PRIu64 ", \"resident\": %u, "
                       "\"budget_bytes\": %" PRIu64 ", \"cost_s\": %.9f, \"opt_bound_cost_s\": %.9f}\n",
                    pg_policy_name(best->policy), best->size, best->resident, best->budget,
                    best->cost, bound ? bound->cost : -1.0);
        else
            fprintf(f, "null\n");
        fprintf(f, "}\n");
    } else {
        fprintf(f, "trace %s: %" PRIu64 " samples", trace, r->samples);
        if (r->skipped32)
            fprintf(f, " (%" PRIu64 " 32-bit samples skipped: they name only a gigabyte)",
                    r->skipped32);
        fprintf(f, "\ncost model: %.0f us per fault + bytes / %.2f GB/s in, %.0f us per "
                   "write-back + bytes / %.2f GB/s out\n\n",
                cfg->cost.lat_in * 1e6, cfg->cost.bw_in / 1e9, cfg->cost.lat_out * 1e6,
                cfg->cost.bw_out / 1e9);
        if (spatial)
            fprintf(f, "mode spatial: 'estimate' rows are SHARDS estimates from a hashed sample of the "
                       "metapages (+-: about 95%% if the faults spread evenly over the sampled metapages); "
                       "'exact' rows come from sizes sampled at rate 1 (write-backs aside)\n\n");
        else if (r->mode)
            fprintf(f, "mode %s: 'exact' rows equal the full trace's fault counts; 'approx' rows "
                       "(FIFO, CLOCK, budgets below the reduction budget, write-backs) are not exact\n\n",
                    r->mode);
        fprintf(f, "%-6s %4s %-6s %8s %8s %9s %12s %10s %12s %12s %12s%s\n", "budget", "rank",
                "policy", "metapage", "resident", "faults", "fault_rate", "writebacks",
                "bytes_in", "bytes_out", "cost_s", r->mode ? "  fidelity" : "");
        for (size_t k = 0; k < r->n; k++) {
            const policy_row *w = &r->rows[order[k]];
            fprintf(f, "%-6s %4d %-6s %8s %8u %9" PRIu64 " %12.6f %10" PRIu64 " %12" PRIu64
                       " %12" PRIu64 " %12.6f%s%s%s\n",
                    cli_bytes_str(w->budget, b1, sizeof b1), w->rank, pg_policy_name(w->policy),
                    cli_bytes_str(w->size, b2, sizeof b2), w->resident, w->c.faults, rate(w),
                    w->c.writebacks, w->c.faults * w->size, w->c.writebacks * w->size, w->cost,
                    r->mode ? "  " : "", r->mode ? fidelity_text(w, fb, sizeof fb) : "",
                    w == best ? "  <- recommended" : "");
        }
        if (best) {
            fprintf(f, "\nrecommendation for a %s budget: metapages of %s, %u resident, %s "
                       "(%.6f s of storage time, %" PRIu64 " faults)",
                    cli_bytes_str(best->budget, b1, sizeof b1),
                    cli_bytes_str(best->size, b2, sizeof b2), best->resident,
                    pg_policy_name(best->policy), best->cost, best->c.faults);
            if (best->fidelity == ROW_ESTIMATE)
                fprintf(f, " [%s]", fidelity_text(best, fb, sizeof fb));
            if (bound)
                fprintf(f, "; OPT at that size needs %.6f s (%" PRIu64 " faults): the most any "
                           "policy could gain",
                        bound->cost, bound->c.faults);
            fprintf(f, "\n");
        } else {
            fprintf(f, "\nno recommendation: no implementable policy fits the primary budget\n");
        }
    }
    free(order);
}
