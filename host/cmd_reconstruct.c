/* metatrace reconstruct: full-rate 48-bit samples for the spans of a burst/span trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/tracemode.h"
#include "host/roi.h"
#include "host/commands.h"
#include "host/reconstruct.h"
#include "host/traceio.h"

static void help(void)
{
    printf("usage: metatrace reconstruct FILE -o OUT [--method seed|gigabyte|bracket|drift]\n"
           "                             [--rate CYCLES] [--span-rate CYCLES] [--keep N] [--tmpdir DIR]\n\n"
           "Replaces every span sample by samples every --rate cycles (default: the burst's rate)\n"
           "up to the end of its interval; bursts are copied.  Methods:\n"
           "  seed      seed section 3.3 exactly: median of the preceding burst's 48-bit values\n"
           "            (streaming P-squared), offsets from it with their R/W bits, the span\n"
           "            sample's PPN[2] with zero low bits as the new base; restart per span\n"
           "            sample, repeat or truncate\n"
           "  gigabyte  offsets within each burst sample's own gigabyte, only from burst samples in\n"
           "            the gigabyte the span sample names, the replay continuing across the span\n"
           "  bracket   gigabyte, replaying the nearer burst: the one before for the first half of\n"
           "            a span, the one after for the second half\n"
           "  drift     bracket, shifting the replayed pages along the working set's movement\n"
           "            (the slope of the burst medians between the two bursts)\n"
           "Reads FILE twice; keeps the first --keep samples of each burst (default 1048576) in a\n"
           "temporary file.  OUT: .mtr or .csv.\n");
    fputs(roi_help, stdout);
}

static int emit_to_writer(void *ctx, const ht_record *r)
{
    return trace_write(ctx, r);
}

int cmd_reconstruct(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("reconstruct", 0, &argc, argv, &roi))
        return 2;
    rc_config cfg;
    rc_defaults(&cfg);
    const char *out = NULL;
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"method", required_argument, 0, 'm'},
        {"rate", required_argument, 0, 'r'},   {"span-rate", required_argument, 0, 'R'},
        {"keep", required_argument, 0, 'k'},   {"tmpdir", required_argument, 0, 't'},
        {0, 0, 0, 0}};
    optind = 0;
    int c, idx = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, &idx)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'm':
            if (rc_parse_method(optarg, &cfg.method)) {
                cli_error("reconstruct", "--method: '%s' is not seed, gigabyte, bracket or drift", optarg);
                return 2;
            }
            break;
        case 'r': case 'R': case 'k': {
            uint64_t *u = c == 'r' ? &cfg.rate : c == 'R' ? &cfg.span_rate : &cfg.keep;
            if (cli_parse_u64(optarg, u) || !*u || *u > UINT32_MAX) {
                cli_error("reconstruct", "--%s: '%s' is not a positive integer", opts[idx].name, optarg);
                return 2;
            }
            break;
        }
        case 't': cfg.tmpdir = optarg; break;
        default: return 2;
        }
    }
    if (optind != argc - 1 || !out) {
        cli_error("reconstruct", "need one input FILE and -o OUT");
        return 2;
    }
    const char *in = argv[optind];
    if (cli_outputs_distinct("reconstruct", &(cli_path){"-o", out}, 1, &(cli_path){"input", in}, 1))
        return 2;
    char err[600];
    ht_source *src = roi_open(in, &roi, NULL, err, sizeof err);
    if (!src) {
        cli_error("reconstruct", "%s", err);
        return 1;
    }
    if (trace_mode_refuse_masked(src, "reconstruct", err, sizeof err)) {
        cli_error("reconstruct", "%s", err);
        ht_close(src);
        return 1;
    }
    trace_writer_opts wo = {.producer = "metatrace reconstruct", .format = HT_FMT_48,
                            .rate = cfg.rate ? (unsigned)cfg.rate : 24};
    trace_writer *w = trace_create(out, &wo, err, sizeof err);
    if (!w) {
        cli_error("reconstruct", "%s", err);
        ht_close(src);
        return 1;
    }
    rc_stats st;
    int rc = reconstruct_run(src, &cfg, emit_to_writer, w, &st, err, sizeof err);
    ht_close(src);
    if (!rc && ht_damaged_inputs()) { /* the reader said what is missing */
        snprintf(err, sizeof err, "%s not written: %s is damaged, the reconstruction would be incomplete", out, in);
        rc = -1;
    }
    if (rc) {
        cli_error("reconstruct", "%s", err);
        trace_abort(w);
        return 1;
    }
    if (trace_finish(w, err, sizeof err)) {
        cli_error("reconstruct", "%s", err);
        return 1;
    }
    if (!st.span_samples)
        fprintf(stderr, "note: %s has no span samples: the output is the input's bursts\n", in);
    fprintf(stderr, "%s: %" PRIu64 " bursts (%" PRIu64 " samples), %" PRIu64 " spans (%" PRIu64
            " samples) -> %" PRIu64 " samples; %" PRIu64 " outside their span sample's gigabyte\n",
            rc_method_name(cfg.method), st.bursts, st.burst_samples, st.spans, st.span_samples,
            st.out_samples, st.outside_gigabyte);
    return 0;
}
