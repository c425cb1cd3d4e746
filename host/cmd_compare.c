/* metatrace compare TRUTH OTHER */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host/cli.h"
#include "host/tracemode.h"
#include "host/roi.h"
#include "host/commands.h"
#include "host/compare.h"
#include "host/onlinetruth.h"
#include "host/traceio.h"

static void help(void)
{
    printf("usage: metatrace compare TRUTH OTHER [--budget 8M] [--budgets LIST] [--sizes 4K..2M]\n"
           "                         [--policies lru,fifo,clock,opt] [--page-size 4K]\n"
           "                         [--format table|csv|json] [--tmpdir DIR]\n\n"
           "How far OTHER (a sampled or reconstructed trace) is from TRUTH (ground truth, e.g. the\n"
           "every-access or the full-rate trace of `gen`): per (policy, size, budget) the fault\n"
           "counts of both, OTHER's scaled by the sample-count ratio, and the relative error; the\n"
           "mean |error| per policy; whether the recommendations agree; distances between the\n"
           "distributions of accesses over pages (TVD, Jensen-Shannon, Jaccard); and how often an\n"
           "OTHER sample names the page, 2 MiB region and gigabyte of TRUTH's sample at that cycle.\n"
           "TRUTH may also be mtemu's online counts (`mtemu --metapage-sim 4K..2M:1M..64M:lru/fifo/clock\n"
           "--stats-json F`: exact for every configuration, no every-access trace needed); then only\n"
           "the fault counts and the recommendation are compared (no samples to align).\n"
           "--format csv prints only the per-configuration rows.\n");
    fputs(roi_help, stdout);
}

/* The meta-pager counts only guest-RAM accesses; an every-access trace made without
 * --trace-all-ram also holds the boot ROM's and the devices' (a few in 10^5 on Linux), which
 * would count as faults of their own.  So against online truth an every-access trace is read
 * over the truth's RAM (unless --addr-range chose a range) and said so on stderr.  Takes
 * ownership of o; NULL if out of memory. */
static ht_source *every_access_over_truth_ram(ht_source *o, const char *truth_path,
                                              const online_truth_ram *truth_ram, const roi_opts *roi)
{
    trace_mode_info tm;
    char err[256];
    const uint64_t base = truth_ram->base, bytes = truth_ram->bytes;
    if (roi->addrs || !bytes || trace_mode_get(o, &tm, err, sizeof err) || tm.mode != TM_ALL)
        return o;
    roi_opts ram = {.to = UINT64_MAX, .addrs = 1, .addr_lo = base, .addr_end = base + bytes};
    fprintf(stderr, "metatrace compare: %s: every-access trace read over %s's guest RAM, "
                    "--addr-range 0x%" PRIx64 "+0x%" PRIx64 " (the online counts cover only RAM)\n",
            o->name, truth_path, base, bytes);
    return roi_filter(o, &ram);
}

int cmd_compare(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("compare", 0, &argc, argv, &roi))
        return 2;
    compare_config cfg;
    policy_defaults(&cfg.policy);
    cfg.page_size = 4096;
    report_format fmt = REPORT_TABLE;
    const char *budgets_arg = NULL;
    static const struct option opts[] = {
        {"budget", required_argument, 0, 'b'}, {"budgets", required_argument, 0, 'B'},
        {"sizes", required_argument, 0, 's'},  {"policies", required_argument, 0, 'p'},
        {"page-size", required_argument, 0, 'P'}, {"format", required_argument, 0, 'f'},
        {"tmpdir", required_argument, 0, 't'}, {0, 0, 0, 0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            if (cli_parse_bytes(optarg, &cfg.policy.primary_budget) || !cfg.policy.primary_budget) {
                cli_error("compare", "--budget: '%s' is not a byte count like 8M", optarg);
                return 2;
            }
            break;
        case 'B': budgets_arg = optarg; break;
        case 's':
            cfg.policy.nsizes = cli_parse_bytes_list(optarg, cfg.policy.sizes, POLICY_MAX_SIZES);
            if (cfg.policy.nsizes <= 0) {
                cli_error("compare", "--sizes: '%s' is not a list like 4K,64K or 4K..2M", optarg);
                return 2;
            }
            for (int i = 0; i < cfg.policy.nsizes; i++)
                if (cfg.policy.sizes[i] % 4096) {
                    cli_error("compare", "--sizes: every size must be a multiple of 4 KiB");
                    return 2;
                }
            break;
        case 'p': {
            memset(cfg.policy.enabled, 0, sizeof cfg.policy.enabled);
            char buf[256];
            snprintf(buf, sizeof buf, "%s", optarg);
            for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
                pg_policy p;
                if (pg_parse_policy(t, &p)) {
                    cli_error("compare", "--policies: '%s' is not one of lru, fifo, clock, opt", t);
                    return 2;
                }
                cfg.policy.enabled[p] = 1;
            }
            break;
        }
        case 'P':
            if (cli_parse_bytes(optarg, &cfg.page_size) || !cfg.page_size) {
                cli_error("compare", "--page-size: '%s' is not a byte count", optarg);
                return 2;
            }
            break;
        case 'f':
            if (report_parse_format(optarg, &fmt)) {
                cli_error("compare", "--format: '%s' is not table, csv or json", optarg);
                return 2;
            }
            break;
        case 't': cfg.policy.tmpdir = optarg; break;
        default: return 2;
        }
    }
    if (argc - optind != 2) {
        cli_error("compare", "need two traces: TRUTH OTHER");
        return 2;
    }
    if (budgets_arg) {
        cfg.policy.nbudgets = cli_parse_bytes_list(budgets_arg, cfg.policy.budgets, POLICY_MAX_BUDGETS - 1);
        if (cfg.policy.nbudgets <= 0) {
            cli_error("compare", "--budgets: '%s' is not a list like 4M,8M", budgets_arg);
            return 2;
        }
        int found = 0;
        for (int i = 0; i < cfg.policy.nbudgets; i++)
            found |= cfg.policy.budgets[i] == cfg.policy.primary_budget;
        if (!found)
            cfg.policy.budgets[cfg.policy.nbudgets++] = cfg.policy.primary_budget;
    } else {
        cfg.policy.budgets[0] = cfg.policy.primary_budget;
    }
    char err[600];
    if (online_truth_is_json(argv[optind])) {
        policy_result truth;
        online_truth_ram truth_ram;
        if (online_truth_load(argv[optind], &cfg.policy, &truth, &truth_ram, err, sizeof err)) {
            cli_error("compare", "%s", err);
            return 1;
        }
        ht_source *o = roi_open(argv[optind + 1], &roi, NULL, err, sizeof err);
        if (!o) {
            cli_error("compare", "%s", err);
            policy_result_free(&truth);
            return 1;
        }
        o = every_access_over_truth_ram(o, argv[optind], &truth_ram, &roi);
        if (!o) {
            cli_error("compare", "%s: out of memory", argv[optind + 1]);
            policy_result_free(&truth);
            return 1;
        }
        compare_result r;
        err[0] = 0;
        int rc = compare_run_online(&truth, o, &cfg, &r, err, sizeof err);
        ht_close(o);
        policy_result_free(&truth);
        if (rc) {
            cli_error("compare", "%s", err);
            return 1;
        }
        if (!r.other.samples) {
            cli_error("compare", "%s: no usable samples", argv[optind + 1]);
            compare_result_free(&r);
            return 1;
        }
        compare_report(stdout, fmt, argv[optind], argv[optind + 1], &cfg, &r);
        compare_result_free(&r);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    ht_source *t = roi_open(argv[optind], &roi, NULL, err, sizeof err);
    if (!t) {
        cli_error("compare", "%s", err);
        return 1;
    }
    ht_source *o = roi_open(argv[optind + 1], &roi, NULL, err, sizeof err);
    if (!o) {
        cli_error("compare", "%s", err);
        ht_close(t);
        return 1;
    }
    if (trace_mode_refuse_masked(t, "compare", err, sizeof err) ||
        trace_mode_refuse_masked(o, "compare", err, sizeof err)) {
        cli_error("compare", "%s", err);
        ht_close(t);
        ht_close(o);
        return 1;
    }
    compare_result r;
    err[0] = 0;
    int rc = compare_run(t, o, &cfg, &r, err, sizeof err);
    ht_close(t);
    ht_close(o);
    if (rc) {
        cli_error("compare", "%s", err);
        return 1;
    }
    if (!r.truth.samples || !r.other.samples) {
        cli_error("compare", "%s: no usable samples", !r.truth.samples ? argv[optind] : argv[optind + 1]);
        compare_result_free(&r);
        return 1;
    }
    compare_report(stdout, fmt, argv[optind], argv[optind + 1], &cfg, &r);
    compare_result_free(&r);
    return fflush(stdout) == 0 ? 0 : 1;
}
