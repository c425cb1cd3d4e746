/* metatrace plot: miss-ratio curves, fault cost vs metapage size, row-hit rate vs stride. */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/tracemode.h"
#include "host/roi.h"
#include "host/commands.h"
#include "host/plot.h"
#include "host/policy.h"
#include "host/rowbuf.h"
#include "host/traceio.h"

/* plot_run, unless an input was damaged (the reader said what is missing): a plot of part of a
 * trace is not written as if it were the whole. */
static int plot_checked(const char *script, const char *data, const char *out, char *err, size_t errlen)
{
    if (ht_damaged_inputs()) {
        snprintf(err, errlen, "%s not written: the input is damaged, the plot would be incomplete", out);
        return -1;
    }
    return plot_run(script, data, out, err, errlen);
}

static void help(void)
{
    printf("usage: metatrace plot --kind mrc|cost FILE -o OUT.png|OUT.svg [--sizes 4K..2M]\n"
           "                      [--budgets 256K..64M] [--budget 8M] [--policy lru|opt]\n"
           "       metatrace plot --kind stride -o OUT.png|OUT.svg [--row-size 8K] [--banks 8]\n"
           "                      [--elem 4] [--mapping rowscope|bank-row-col|xor] [--data]\n\n"
           "  mrc     miss-ratio curves: fault rate against resident memory, one curve per\n"
           "          metapage size (LRU, or OPT with --policy opt; one pass per size)\n"
           "  cost    fault cost (the policy command's cost model) against metapage size at\n"
           "          --budget, one line per policy\n"
           "  stride  RowScope's experiment: row-buffer hit and conflict rates of a sequential\n"
           "          sweep against its stride (1..1024 elements), with the closed form\n"
           "          1 - stride*elem/row_size; needs no trace\n"
           "--data also prints the plotted numbers on stdout.  Needs gnuplot (gnuplot-nox).\n");
    fputs(roi_help, stdout);
}

typedef struct {
    char *buf;
    size_t len, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (b->buf && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *nb = realloc(b->buf, cap);
        if (!nb)
            return;
        b->buf = nb;
        b->cap = cap;
    }
}

static int stride_plot(const char *out, uint64_t row, uint32_t banks, uint64_t elem, rb_mapping m,
                       int print_data)
{
    sbuf d = {0};
    sb_printf(&d, "# stride_elems hit_rate conflict_rate model_hit_rate\n");
    for (uint64_t s = 1; s <= 1024; s *= 2) {
        rb_config c = {.row_size = row, .banks = banks, .mapping = m, .mem_bytes = UINT64_C(1) << 32};
        rowbuf *r = rowbuf_new(&c);
        if (!r) {
            cli_error("plot", "bad row-buffer configuration");
            free(d.buf);
            return 2;
        }
        uint64_t span = 16 * row * banks; /* every bank sees 16 rows */
        if (span < 1024 * s * elem * 4)
            span = 1024 * s * elem * 4;
        for (uint64_t a = 0; a < span; a += s * elem)
            rowbuf_access(r, a);
        rb_counts t = rowbuf_total(r);
        double n = (double)(t.hits + t.misses + t.conflicts);
        sb_printf(&d, "%" PRIu64 " %.6f %.6f %.6f\n", s, t.hits / n, t.conflicts / n,
                  rb_stride_hit_rate_model(s, elem, row));
        rowbuf_free(r);
    }
    char script[1024], err[600];
    snprintf(script, sizeof script,
             "set title 'Row-buffer hit rate vs stride (%" PRIu64 " B rows, %u banks, %s mapping, %" PRIu64 " B elements)'\n"
             "set xlabel 'stride (elements)'\nset ylabel 'rate'\nset logscale x 2\nset yrange [0:1.05]\n"
             "set key bottom left\nset grid\n"
             "plot 'data.dat' using 1:2 with linespoints lw 2 title 'hit rate (simulated)', "
             "'' using 1:4 with lines dt 2 lw 2 title '1 - stride*elem/row (RowScope)', "
             "'' using 1:3 with linespoints title 'conflict rate'\n",
             row, banks, rb_mapping_name(m), elem);
    int rc = plot_checked(script, d.buf, out, err, sizeof err);
    if (rc)
        cli_error("plot", "%s", err);
    else if (print_data)
        fputs(d.buf, stdout);
    free(d.buf);
    return rc ? 1 : 0;
}

int cmd_plot(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("plot", 0, &argc, argv, &roi))
        return 2;
    const char *kind = NULL, *out = NULL, *sizes_arg = NULL, *budgets_arg = NULL;
    uint64_t budget = UINT64_C(8) << 20, row = 8192, banks = 8, elem = 4;
    rb_mapping mapping = RB_MAP_ROWSCOPE;
    pg_policy mrc_policy = PG_LRU;
    int print_data = 0;
    static const struct option opts[] = {
        {"kind", required_argument, 0, 'k'},    {"output", required_argument, 0, 'o'},
        {"sizes", required_argument, 0, 's'},   {"budgets", required_argument, 0, 'B'},
        {"budget", required_argument, 0, 'b'},  {"policy", required_argument, 0, 'p'},
        {"row-size", required_argument, 0, 'r'}, {"banks", required_argument, 0, 'n'},
        {"elem", required_argument, 0, 'e'},    {"mapping", required_argument, 0, 'm'},
        {"data", no_argument, 0, 'd'},          {0, 0, 0, 0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'k': kind = optarg; break;
        case 'o': out = optarg; break;
        case 's': sizes_arg = optarg; break;
        case 'B': budgets_arg = optarg; break;
        case 'd': print_data = 1; break;
        case 'b':
            if (cli_parse_bytes(optarg, &budget) || !budget) {
                cli_error("plot", "--budget: '%s' is not a byte count", optarg);
                return 2;
            }
            break;
        case 'p':
            if (pg_parse_policy(optarg, &mrc_policy) || (mrc_policy != PG_LRU && mrc_policy != PG_OPT)) {
                cli_error("plot", "--policy: '%s' is not lru or opt", optarg);
                return 2;
            }
            break;
        case 'r':
            if (cli_parse_bytes(optarg, &row) || !row) {
                cli_error("plot", "--row-size: '%s' is not a byte count", optarg);
                return 2;
            }
            break;
        case 'n':
            if (cli_parse_u64(optarg, &banks) || !banks || banks > 4096) {
                cli_error("plot", "--banks: '%s' is not 1..4096", optarg);
                return 2;
            }
            break;
        case 'e':
            if (cli_parse_bytes(optarg, &elem) || !elem) {
                cli_error("plot", "--elem: '%s' is not a byte count", optarg);
                return 2;
            }
            break;
        case 'm':
            if (rb_parse_mapping(optarg, &mapping)) {
                cli_error("plot", "--mapping: '%s' is not rowscope, bank-row-col or xor", optarg);
                return 2;
            }
            break;
        default: return 2;
        }
    }
    if (!kind || (strcmp(kind, "mrc") && strcmp(kind, "cost") && strcmp(kind, "stride"))) {
        cli_error("plot", "--kind must be mrc, cost or stride");
        return 2;
    }
    if (!out) {
        cli_error("plot", "give the image with -o OUT.png or OUT.svg");
        return 2;
    }
    if (!plot_terminal(out)) {
        cli_error("plot", "%s: the output must end in .png or .svg", out);
        return 2;
    }
    if (!strcmp(kind, "stride")) {
        if (optind != argc) {
            cli_error("plot", "--kind stride takes no trace");
            return 2;
        }
        return stride_plot(out, row, (uint32_t)banks, elem, mapping, print_data);
    }
    if (optind != argc - 1) {
        cli_error("plot", optind >= argc ? "missing the trace FILE" : "more than one trace given");
        return 2;
    }
    if (cli_outputs_distinct("plot", &(cli_path){"-o", out}, 1, &(cli_path){"input", argv[optind]}, 1))
        return 2;
    policy_config cfg;
    policy_defaults(&cfg);
    if (sizes_arg && (cfg.nsizes = cli_parse_bytes_list(sizes_arg, cfg.sizes, POLICY_MAX_SIZES)) <= 0) {
        cli_error("plot", "--sizes: '%s' is not a list like 4K,64K or 4K..2M", sizes_arg);
        return 2;
    }
    for (int i = 0; i < cfg.nsizes; i++)
        if (cfg.sizes[i] % 4096) {
            cli_error("plot", "--sizes: every size must be a multiple of 4 KiB");
            return 2;
        }
    cfg.primary_budget = budget;
    if (!strcmp(kind, "mrc")) {
        memset(cfg.enabled, 0, sizeof cfg.enabled);
        cfg.enabled[mrc_policy] = 1;
        cfg.nbudgets = cli_parse_bytes_list(budgets_arg ? budgets_arg : "256K..64M", cfg.budgets,
                                            POLICY_MAX_BUDGETS);
        if (cfg.nbudgets <= 0) {
            cli_error("plot", "--budgets: '%s' is not a list like 256K..64M", budgets_arg);
            return 2;
        }
    } else {
        cfg.budgets[0] = budget;
        cfg.nbudgets = 1;
    }
    char err[600];
    ht_source *src = roi_open(argv[optind], &roi, NULL, err, sizeof err);
    if (!src) {
        cli_error("plot", "%s", err);
        return 1;
    }
    policy_result r;
    trace_mode_info tm;
    if (trace_mode_get(src, &tm, err, sizeof err)) {
        cli_error("plot", "%s", err);
        ht_close(src);
        return 1;
    }
    int rc = policy_run_mode(src, &tm, &cfg, &r, err, sizeof err);
    ht_close(src);
    if (rc) {
        cli_error("plot", "%s", err);
        return 1;
    }
    if (!r.samples) {
        cli_error("plot", "%s: no usable samples", argv[optind]);
        policy_result_free(&r);
        return 1;
    }
    sbuf d = {0}, sc = {0};
    if (!strcmp(kind, "mrc")) {
        /* one gnuplot data block per metapage size (blank-line separated, plotted with index) */
        sb_printf(&sc, "set title 'Miss-ratio curves (%s) of %s'\nset xlabel 'resident memory'\nset format x '%%.0b %%BB'\n"
                       "set ylabel 'faults per access'\nset logscale x 2\nset logscale y\nset grid\n"
                       "set key outside right\nplot ", pg_policy_name(mrc_policy), argv[optind]);
        for (int s = 0; s < cfg.nsizes; s++) {
            char b[32];
            sb_printf(&d, "# metapage %s\n# budget_bytes fault_rate\n", cli_bytes_str(cfg.sizes[s], b, sizeof b));
            for (size_t i = 0; i < r.n; i++)
                if (r.rows[i].size == cfg.sizes[s]) {
                    double fr = (double)r.rows[i].c.faults / (double)r.rows[i].c.accesses;
                    /* log scale: a zero rate is drawn at 1e-9 */
                    sb_printf(&d, "%" PRIu64 " %.9g\n", r.rows[i].budget, fr > 0 ? fr : 1e-9);
                }
            sb_printf(&d, "\n\n");
            sb_printf(&sc, "%s'data.dat' index %d using 1:2 with linespoints title '%s metapages'",
                      s ? ", " : "", s, cli_bytes_str(cfg.sizes[s], b, sizeof b));
        }
        sb_printf(&sc, "\n");
    } else {
        sb_printf(&d, "# metapage_bytes");
        for (int p = 0; p < PG_COUNT; p++)
            if (cfg.enabled[p])
                sb_printf(&d, " %s_cost_s", pg_policy_name((pg_policy)p));
        sb_printf(&d, "\n");
        for (int s = 0; s < cfg.nsizes; s++) {
            int found = 0;
            for (int p = 0; p < PG_COUNT; p++)
                if (cfg.enabled[p])
                    for (size_t i = 0; i < r.n; i++)
                        if (r.rows[i].size == cfg.sizes[s] && r.rows[i].policy == (pg_policy)p) {
                            if (!found)
                                sb_printf(&d, "%" PRIu64, cfg.sizes[s]);
                            found = 1;
                            sb_printf(&d, " %.9g", r.rows[i].cost);
                        }
            if (found)
                sb_printf(&d, "\n");
        }
        char b[32];
        sb_printf(&sc, "set title 'Fault cost vs metapage size at a %s budget (%s)'\n"
                       "set xlabel 'metapage size'\nset format x '%%.0b %%BB'\nset ylabel 'storage time (s)'\n"
                       "set logscale x 2\nset grid\nset key top left\nplot ",
                  cli_bytes_str(budget, b, sizeof b), argv[optind]);
        int col = 2;
        for (int p = 0; p < PG_COUNT; p++)
            if (cfg.enabled[p]) {
                sb_printf(&sc, "%s'data.dat' using 1:%d with linespoints lw 2 title '%s'",
                          col > 2 ? ", " : "", col, pg_policy_name((pg_policy)p));
                col++;
            }
        sb_printf(&sc, "\n");
    }
    policy_result_free(&r);
    rc = d.buf && sc.buf ? plot_checked(sc.buf, d.buf, out, err, sizeof err) : -1;
    if (rc)
        cli_error("plot", "%s", d.buf && sc.buf ? err : "out of memory");
    else if (print_data)
        fputs(d.buf, stdout);
    free(d.buf);
    free(sc.buf);
    return rc ? 1 : 0;
}
