/* metatrace rowbuf: RowScope's open-page row-buffer model over a trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/tracemode.h"
#include "host/roi.h"
#include "host/commands.h"
#include "host/policy_report.h"
#include "host/rowbuf.h"
#include "host/traceio.h"

static void help(void)
{
    printf("usage: metatrace rowbuf FILE [--row-size 8K] [--banks 8]\n"
           "                        [--mapping rowscope|bank-row-col|xor] [--mem-size 4G]\n"
           "                        [--base ADDR] [--format table|csv|json]\n\n"
           "RowScope's open-page DRAM model: each bank keeps its last row open; an access is a hit\n"
           "(open row), a miss (bank empty) or a conflict (another row open).  Mappings:\n"
           "  rowscope      col = a %% row, bank = (a / row) %% banks, row = a / (row * banks)\n"
           "  bank-row-col  each bank a contiguous 1/banks of --mem-size\n"
           "  xor           rowscope with bank = (a/row XOR row) %% banks (permutation interleaving)\n"
           "a = address - --base.  Needs addresses at least as precise as a row: full, line, and\n"
           "48-bit samples when the row size is a multiple of 4 KiB; others are skipped and counted.\n");
    fputs(roi_help, stdout);
}

static unsigned precision_bits(int fmt)
{
    return fmt == HT_FMT_FULL ? 0 : fmt == HT_FMT_LINE ? 6 : fmt == HT_FMT_48 ? 12 : 30;
}

int cmd_rowbuf(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("rowbuf", 0, &argc, argv, &roi))
        return 2;
    rb_config cfg = {.row_size = 8192, .banks = 8, .mapping = RB_MAP_ROWSCOPE,
                     .mem_bytes = UINT64_C(4) << 30, .base = 0};
    report_format fmt = REPORT_TABLE;
    static const struct option opts[] = {
        {"row-size", required_argument, 0, 'r'}, {"banks", required_argument, 0, 'b'},
        {"mapping", required_argument, 0, 'm'},  {"mem-size", required_argument, 0, 'M'},
        {"base", required_argument, 0, 'B'},     {"format", required_argument, 0, 'f'},
        {0, 0, 0, 0}};
    optind = 0;
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (cli_parse_bytes(optarg, &cfg.row_size) || !cfg.row_size) {
                cli_error("rowbuf", "--row-size: '%s' is not a byte count like 8K", optarg);
                return 2;
            }
            break;
        case 'b':
            if (cli_parse_u64(optarg, &v) || v == 0 || v > 4096) {
                cli_error("rowbuf", "--banks: '%s' is not 1..4096", optarg);
                return 2;
            }
            cfg.banks = (uint32_t)v;
            break;
        case 'm':
            if (rb_parse_mapping(optarg, &cfg.mapping)) {
                cli_error("rowbuf", "--mapping: '%s' is not rowscope, bank-row-col or xor", optarg);
                return 2;
            }
            break;
        case 'M':
            if (cli_parse_bytes(optarg, &cfg.mem_bytes)) {
                cli_error("rowbuf", "--mem-size: '%s' is not a byte count like 4G", optarg);
                return 2;
            }
            break;
        case 'B':
            if (cli_parse_u64(optarg, &cfg.base)) {
                cli_error("rowbuf", "--base: '%s' is not an address", optarg);
                return 2;
            }
            break;
        case 'f':
            if (report_parse_format(optarg, &fmt)) {
                cli_error("rowbuf", "--format: '%s' is not table, csv or json", optarg);
                return 2;
            }
            break;
        default: return 2;
        }
    }
    if (optind != argc - 1) {
        cli_error("rowbuf", optind >= argc ? "missing the trace FILE" : "more than one trace given");
        return 2;
    }
    const char *why;
    if (rb_check_config(&cfg, &why)) {
        cli_error("rowbuf", "%s", why);
        return 2;
    }
    const char *path = argv[optind];
    char err[600];
    ht_source *src = roi_open(path, &roi, NULL, err, sizeof err);
    if (!src) {
        cli_error("rowbuf", "%s", err);
        return 1;
    }
    if (trace_mode_refuse_masked(src, "rowbuf", err, sizeof err)) {
        cli_error("rowbuf", "%s", err);
        ht_close(src);
        return 1;
    }
    rowbuf *rb = rowbuf_new(&cfg);
    if (!rb) {
        cli_error("rowbuf", "out of memory");
        ht_close(src);
        return 1;
    }
    ht_record r;
    int got;
    uint64_t used = 0, skipped = 0;
    while ((got = ht_next_sample(src, &r)) == 1) {
        if (cfg.row_size % (UINT64_C(1) << precision_bits(r.format))) {
            skipped++;
            continue;
        }
        rowbuf_access(rb, r.addr);
        used++;
    }
    if (got < 0) {
        cli_error("rowbuf", "%s", src->err);
        rowbuf_free(rb);
        ht_close(src);
        return 1;
    }
    ht_close(src);
    if (!used) {
        cli_error("rowbuf", "%s: no sample precise enough for %" PRIu64 "-byte rows (%" PRIu64
                  " skipped)", path, cfg.row_size, skipped);
        rowbuf_free(rb);
        return 1;
    }
    rb_counts t = rowbuf_total(rb);
    double n = (double)used;
    if (fmt == REPORT_CSV) {
        printf("bank,accesses,hits,misses,conflicts,hit_rate,miss_rate,conflict_rate\n");
        for (uint32_t b = 0; b <= cfg.banks; b++) {
            const rb_counts *k = b < cfg.banks ? rowbuf_bank(rb, b) : &t;
            uint64_t a = k->hits + k->misses + k->conflicts;
            double d = a ? (double)a : 1;
            if (b < cfg.banks)
                printf("%u", b);
            else
                printf("all");
            printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%.6f,%.6f\n", a, k->hits,
                   k->misses, k->conflicts, k->hits / d, k->misses / d, k->conflicts / d);
        }
    } else if (fmt == REPORT_JSON) {
        printf("{\"trace\": \"%s\", \"row_size\": %" PRIu64 ", \"banks\": %u, \"mapping\": \"%s\", "
               "\"accesses\": %" PRIu64 ", \"skipped\": %" PRIu64 ", \"hits\": %" PRIu64
               ", \"misses\": %" PRIu64 ", \"conflicts\": %" PRIu64 ", \"hit_rate\": %.6f, "
               "\"banks_detail\": [",
               path, cfg.row_size, cfg.banks, rb_mapping_name(cfg.mapping), used, skipped, t.hits,
               t.misses, t.conflicts, t.hits / n);
        for (uint32_t b = 0; b < cfg.banks; b++) {
            const rb_counts *k = rowbuf_bank(rb, b);
            printf("%s{\"bank\": %u, \"hits\": %" PRIu64 ", \"misses\": %" PRIu64
                   ", \"conflicts\": %" PRIu64 "}", b ? ", " : "", b, k->hits, k->misses, k->conflicts);
        }
        printf("]}\n");
    } else {
        char b1[32];
        printf("trace %s: %" PRIu64 " accesses (%" PRIu64 " skipped), %s rows, %u banks, "
               "mapping %s\n\n", path, used, skipped, cli_bytes_str(cfg.row_size, b1, sizeof b1),
               cfg.banks, rb_mapping_name(cfg.mapping));
        printf("%-5s %12s %12s %12s %12s %9s %9s %9s\n", "bank", "accesses", "hits", "misses",
               "conflicts", "hit%", "miss%", "confl%");
        for (uint32_t b = 0; b <= cfg.banks; b++) {
            const rb_counts *k = b < cfg.banks ? rowbuf_bank(rb, b) : &t;
            uint64_t a = k->hits + k->misses + k->conflicts;
            double d = a ? (double)a : 1;
            char name[16];
            snprintf(name, sizeof name, b < cfg.banks ? "%u" : "all", b);
            printf("%-5s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %8.2f%% %8.2f%% %8.2f%%\n",
                   name, a, k->hits, k->misses, k->conflicts, 100 * k->hits / d,
                   100 * k->misses / d, 100 * k->conflicts / d);
        }
    }
    rowbuf_free(rb);
    return 0;
}
