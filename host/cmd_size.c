/* metatrace size: the seed's formula S, the exact section-by-section size, and a measured trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/cli.h"
#include "host/commands.h"
#include "host/sizecalc.h"
#include "host/traceio.h"

static void help(void)
{
    printf("usage: metatrace size [--t S] [--s-ref HZ] [--s-h S] [--s-l S] [--r-h CYC] [--r-l CYC]\n"
           "                      [--b-h B] [--b-l B] [--measured FILE]\n\n"
           "The seed's trace size S = s_ref*t/(s_h+s_l) * (b_h*s_h/r_h + b_l*s_l/r_l), in bytes, MB\n"
           "and MiB, and the exact size of a recording that starts with a burst and stops at t.\n"
           "Defaults (the seed's): t=30s s_ref=1GHz s_h=1s s_l=10s r_h=24 r_l=2048 b_h=6 b_l=4.\n"
           "Values take SI suffixes (1GHz, 500ms).  --measured FILE: the trace's real size, its\n"
           "samples per section, what the seed's fixed-width encoding would take for them, and\n"
           "the compression ratio.\n");
}

static void print_bytes(const char *label, double bytes)
{
    printf("%-34s %15.0f B  %10.1f MB  %10.1f MiB\n", label, bytes, bytes / 1e6,
           bytes / (1024.0 * 1024.0));
}

static int measured(const char *path, const size_params *p)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        cli_error("size", "%s: cannot open (%s)", path, "no such file or not readable");
        return 1;
    }
    char err[512];
    ht_source *src = trace_open(path, err, sizeof err);
    if (!src) {
        cli_error("size", "%s", err);
        return 1;
    }
    uint64_t n[HT_SEC_COUNT][HT_FMT_COUNT] = {{0}};
    uint64_t first = 0, last = 0, total = 0;
    ht_record r;
    int rc;
    while ((rc = ht_next(src, &r)) == 1) {
        if (r.kind != HT_REC_SAMPLE)
            continue;
        if (!total)
            first = r.cycle;
        last = r.cycle;
        total++;
        n[r.section % HT_SEC_COUNT][r.format % HT_FMT_COUNT]++;
    }
    if (rc < 0) {
        cli_error("size", "%s", src->err);
        ht_close(src);
        return 1;
    }
    ht_close(src);
    static const double width[HT_FMT_COUNT] = {8, 6, 6, 4}; /* full 56+1 bits -> 8 B, line 6 B */
    double raw = 0;
    printf("\nmeasured: %s\n", path);
    for (int s = 0; s < HT_SEC_COUNT; s++)
        for (int f = 0; f < HT_FMT_COUNT; f++)
            if (n[s][f]) {
                printf("  %-5s %-4s samples %12" PRIu64 "  (%g B each uncompressed)\n",
                       ht_section_name((ht_section)s), ht_format_name((ht_format)f), n[s][f],
                       width[f]);
                raw += (double)n[s][f] * width[f];
            }
    double secs = total ? (double)(last - first) / p->s_ref : 0;
    printf("  cycles covered %" PRIu64 " (%.6f s at s_ref)\n", total ? last - first : 0, secs);
    print_bytes("  file size", (double)st.st_size);
    print_bytes("  fixed-width samples (seed b_h/b_l)", raw);
    if (st.st_size > 0)
        printf("  compression ratio (fixed-width / file)  %.2f\n", raw / (double)st.st_size);
    if (total)
        printf("  bytes per sample %.3f\n", (double)st.st_size / (double)total);
    if (secs > 0) {
        size_params q = *p;
        q.t = secs;
        print_bytes("  formula S, this duration, options above", size_formula(&q));
    }
    return 0;
}

int cmd_size(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    size_params p;
    size_defaults(&p);
    const char *measured_path = NULL;
    static const struct option opts[] = {
        {"t", required_argument, 0, 't'},     {"s-ref", required_argument, 0, 'f'},
        {"s-h", required_argument, 0, 'h'},   {"s-l", required_argument, 0, 'l'},
        {"r-h", required_argument, 0, 'H'},   {"r-l", required_argument, 0, 'L'},
        {"b-h", required_argument, 0, 'b'},   {"b-l", required_argument, 0, 'B'},
        {"measured", required_argument, 0, 'm'}, {0, 0, 0, 0}};
    optind = 0;
    int c, idx = 0;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        double *dst = NULL;
        switch (c) {
        case 't': dst = &p.t; break;
        case 'f': dst = &p.s_ref; break;
        case 'h': dst = &p.s_h; break;
        case 'l': dst = &p.s_l; break;
        case 'H': dst = &p.r_h; break;
        case 'L': dst = &p.r_l; break;
        case 'b': dst = &p.b_h; break;
        case 'B': dst = &p.b_l; break;
        case 'm': measured_path = optarg; continue;
        default: return 2;
        }
        if (cli_parse_si(optarg, dst) != 0 || !(*dst >= 0) || *dst > 1e18) {
            cli_error("size", "--%s: '%s' is not a non-negative number", opts[idx].name, optarg);
            return 2;
        }
    }
    if (optind < argc) {
        cli_error("size", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (p.s_h + p.s_l <= 0 || p.r_h <= 0 || p.r_l <= 0 || p.s_ref <= 0) {
        cli_error("size", "s_h + s_l, r_h, r_l and s_ref must be positive");
        return 2;
    }
    printf("t=%gs s_ref=%gHz s_h=%gs s_l=%gs r_h=%g r_l=%g b_h=%gB b_l=%gB\n", p.t, p.s_ref, p.s_h,
           p.s_l, p.r_h, p.r_l, p.b_h, p.b_l);
    print_bytes("S (seed formula, averaged periods)", size_formula(&p));
    double b, l;
    size_exact_split(&p, &b, &l);
    char label[64];
    snprintf(label, sizeof label, "exact (burst first: %gs + %gs)", b, l);
    print_bytes(label, size_exact(&p));
    printf("samples: burst %.0f, span %.0f\n", b * p.s_ref / p.r_h, l * p.s_ref / p.r_l);
    return measured_path ? measured(measured_path, &p) : 0;
}
