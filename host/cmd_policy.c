/* metatrace policy: metapage sizes x budgets x policies on one trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/roi.h"
#include "host/commands.h"
#include "host/policy.h"
#include "host/policy_report.h"
#include "host/traceio.h"
#include "host/tracemode.h"

static void help(void)
{
    printf("usage: metatrace policy FILE [--budget 8M] [--budgets 4M,8M,16M] [--sizes 4K..2M]\n"
           "                        [--policies lru,fifo,clock,opt] [--format table|csv|json]\n"
           "                        [--lat-in 80us] [--lat-out 20us] [--bw-in 3GB/s] [--bw-out 2GB/s]\n"
           "                        [--tmpdir DIR] [--baseline] [--stats]\n\n"
           "For every metapage size (a multiple of 4 KiB) and budget, resident = budget / size;\n"
           "faults, fault rate, bytes in, write-backs (dirty from the R/W bits), bytes out and the\n"
           "cost  faults*lat_in + bytes_in/bw_in + writebacks*lat_out + bytes_out/bw_out  (defaults:\n"
           "an NVMe SSD, 80 us / 3 GB/s read, 20 us / 2 GB/s write).  Ranked per budget; the\n"
           "recommendation is the cheapest LRU/FIFO/CLOCK configuration at --budget, with OPT's\n"
           "cost at that size as the bound.  LRU and OPT cover all budgets of a size in one pass\n"
           "(stack algorithms), on runs (repeats of a metapage count once), sizes on two threads;\n"
           "OPT keeps the 4 KiB runs (4 bytes each) and two passes' next-use arrays (4 bytes per run)\n"
           "in unlinked files in --tmpdir ($TMPDIR, /tmp): at most 12 bytes per access.  --baseline runs one\n"
           "simulation per configuration instead (same numbers, slower).  32-bit samples are skipped.\n"
           "--stats: per size on stderr, the runs and the CPU time of its simulations and of OPT\n"
           "(accesses of the trace per CPU second); then the CPU time of the thread reading the\n"
           "trace and the wall time of the pass over it and of OPT.\n"
           "Sizes: a list (4K,64K) or a power-of-two range (4K..2M).\n");
    fputs(roi_help, stdout);
}

int cmd_policy(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("policy", 0, &argc, argv, &roi))
        return 2;
    policy_config cfg;
    policy_defaults(&cfg);
    report_format fmt = REPORT_TABLE;
    const char *budgets_arg = NULL;
    int baseline = 0, stats = 0;
    static const struct option opts[] = {
        {"budget", required_argument, 0, 'b'},   {"budgets", required_argument, 0, 'B'},
        {"sizes", required_argument, 0, 's'},    {"policies", required_argument, 0, 'p'},
        {"format", required_argument, 0, 'f'},   {"lat-in", required_argument, 0, 1},
        {"lat-out", required_argument, 0, 2},    {"bw-in", required_argument, 0, 3},
        {"bw-out", required_argument, 0, 4},     {"tmpdir", required_argument, 0, 't'},
        {"baseline", no_argument, 0, 'x'},       {"stats", no_argument, 0, 'S'},
        {0, 0, 0, 0}};
    optind = 0;
    int c, idx = 0;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        switch (c) {
        case 'b':
            if (cli_parse_bytes(optarg, &cfg.primary_budget) || !cfg.primary_budget) {
                cli_error("policy", "--budget: '%s' is not a byte count like 8M", optarg);
                return 2;
            }
            break;
        case 'B': budgets_arg = optarg; break;
        case 's':
            cfg.nsizes = cli_parse_bytes_list(optarg, cfg.sizes, POLICY_MAX_SIZES);
            if (cfg.nsizes <= 0) {
                cli_error("policy", "--sizes: '%s' is not a list like 4K,64K or 4K..2M (at most %d)",
                          optarg, POLICY_MAX_SIZES);
                return 2;
            }
            break;
        case 'p': {
            memset(cfg.enabled, 0, sizeof cfg.enabled);
            char buf[256];
            snprintf(buf, sizeof buf, "%s", optarg);
            for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
                pg_policy p;
                if (pg_parse_policy(t, &p)) {
                    cli_error("policy", "--policies: '%s' is not one of lru, fifo, clock, opt", t);
                    return 2;
                }
                cfg.enabled[p] = 1;
            }
            break;
        }
        case 'f':
            if (report_parse_format(optarg, &fmt)) {
                cli_error("policy", "--format: '%s' is not table, csv or json", optarg);
                return 2;
            }
            break;
        case 1: case 2: case 3: case 4: {
            double v;
            if (cli_parse_si(optarg, &v) || !(v > 0)) {
                cli_error("policy", "--%s: '%s' is not a positive number", opts[idx].name, optarg);
                return 2;
            }
            if (c == 1) cfg.cost.lat_in = v;
            else if (c == 2) cfg.cost.lat_out = v;
            else if (c == 3) cfg.cost.bw_in = v;
            else cfg.cost.bw_out = v;
            break;
        }
        case 't': cfg.tmpdir = optarg; break;
        case 'x': baseline = 1; break;
        case 'S': stats = 1; break;
        default: return 2;
        }
    }
    if (optind != argc - 1) {
        cli_error("policy", optind >= argc ? "missing the trace FILE" : "more than one trace given");
        return 2;
    }
    for (int i = 0; i < cfg.nsizes; i++)
        if (cfg.sizes[i] % 4096) {
            char b[32];
            cli_error("policy", "--sizes: %s is not a multiple of 4 KiB",
                      cli_bytes_str(cfg.sizes[i], b, sizeof b));
            return 2;
        }
    if (budgets_arg) {
        cfg.nbudgets = cli_parse_bytes_list(budgets_arg, cfg.budgets, POLICY_MAX_BUDGETS - 1);
        if (cfg.nbudgets <= 0) {
            cli_error("policy", "--budgets: '%s' is not a list like 4M,8M or 1M..64M", budgets_arg);
            return 2;
        }
        int found = 0;
        for (int i = 0; i < cfg.nbudgets; i++)
            found |= cfg.budgets[i] == cfg.primary_budget;
        if (!found)
            cfg.budgets[cfg.nbudgets++] = cfg.primary_budget;
    } else {
        cfg.budgets[0] = cfg.primary_budget;
        cfg.nbudgets = 1;
    }
    const char *path = argv[optind];
    char err[600];
    ht_source *src = roi_open(path, &roi, NULL, err, sizeof err);
    if (!src) {
        cli_error("policy", "%s", err);
        return 1;
    }
    policy_result res;
    trace_mode_info tm;
    if (trace_mode_get(src, &tm, err, sizeof err)) {
        ht_close(src);
        cli_error("policy", "%s", err);
        return 1;
    }
    int rc = baseline && tm.mode != TM_REDUCE ? policy_run_baseline(src, &cfg, &res, err, sizeof err)
                                              : policy_run_mode(src, &tm, &cfg, &res, err, sizeof err);
    ht_close(src);
    if (rc) {
        cli_error("policy", "%s", err);
        return 1;
    }
    if (res.samples == 0) {
        cli_error("policy", "%s: no usable samples (%s, or only 32-bit samples: reconstruct first)", path,
                  roi.from || roi.to != UINT64_MAX || roi.markers ? "none in the region of interest" : "empty");
        policy_result_free(&res);
        return 1;
    }
    policy_report(stdout, fmt, path, &cfg, &res);
    if (stats && res.has_stats)
        for (int s = 0; s < cfg.nsizes; s++) {
            char ss[32];
            double a = (double)res.samples;
            fprintf(stderr, "metatrace policy: stats: %s: %" PRIu64 " runs of %" PRIu64
                    " accesses (%.1f%%); LRU/FIFO/CLOCK %.3f s CPU (%.1f M accesses/s)",
                    cli_bytes_str(cfg.sizes[s], ss, sizeof ss), res.runs[s], res.samples,
                    100.0 * (double)res.runs[s] / a, res.sim_cpu_s[s],
                    res.sim_cpu_s[s] > 0 ? a / res.sim_cpu_s[s] / 1e6 : 0.0);
            if (cfg.enabled[PG_OPT])
                fprintf(stderr, "; OPT %.3f s CPU (%.1f M accesses/s)", res.opt_cpu_s[s],
                        res.opt_cpu_s[s] > 0 ? a / res.opt_cpu_s[s] / 1e6 : 0.0);
            fputc('\n', stderr);
        }
    if (stats && res.has_stats)
        fprintf(stderr,
                "metatrace policy: threads: the pass over the trace %.3f s CPU on the reading thread "
                "(the simulations beside it), %.3f s wall; OPT's passes %.3f s wall\n",
                res.read_cpu_s, res.read_wall_s, res.opt_wall_s);
    /* a budget smaller than a metapage holds none: its rows are not in the table, say so */
    for (int s = 0; s < cfg.nsizes; s++)
        for (int b = 0; b < cfg.nbudgets; b++)
            if (cfg.budgets[b] < cfg.sizes[s]) {
                char bs[32], ss[32];
                fprintf(stderr, "metatrace policy: note: a budget of %s holds no %s metapage: no %s rows at %s "
                        "(every access would fault)\n", cli_bytes_str(cfg.budgets[b], bs, sizeof bs),
                        cli_bytes_str(cfg.sizes[s], ss, sizeof ss), ss, bs);
            }
    policy_result_free(&res);
    return fflush(stdout) == 0 ? 0 : 1;
}
