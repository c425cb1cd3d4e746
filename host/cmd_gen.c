/* metatrace gen: synthetic traces with a known structure. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/commands.h"
#include "host/gen.h"
#include "host/sampler.h"
#include "host/traceio.h"
#include "host/unitdrv.h"
#include "mt_mtr.h"
#include "mt_outfile.h"
#include "mt_paths.h"

static void help(void)
{
    printf("usage: metatrace gen -o OUT [--truth FILE] [--full-rate FILE] [--every-access]\n"
           "         [--pattern seq|random|stride|mixed] [--accesses N] [--seed N]\n"
           "         [--base ADDR] [--size BYTES] [--elem BYTES] [--stride BYTES]\n"
           "         [--ws BYTES] [--drift BYTES] [--phase N] [--write-frac F] [--gap CYCLES]\n"
           "         [--idle-every N] [--idle-cycles CYCLES]\n"
           "         [--r-h 24] [--r-l 2048] [--len-h CYCLES] [--len-l CYCLES] [--fmt-h 48] [--fmt-l 32]\n\n"
           "Generates accesses (see docs/host.md for the patterns; default mixed: a drifting 4 MiB\n"
           "working set in 64 MiB at 0x80000000, 30%% writes, 4 cycles apart on average) and writes\n"
           "  OUT          the sampled trace: bursts of --len-h cycles (one sample per --r-h, format\n"
           "               --fmt-h) alternating with spans (--len-l, --r-l, --fmt-l); defaults are the\n"
           "               seed's rates and 1e6 / 1e7-cycle sections; --every-access: OUT is the\n"
           "               every-access full-address trace instead\n"
           "  --truth      the every-access full-address trace (ground truth)\n"
           "  --full-rate  bursts only: every --r-h cycles in --fmt-h all along (what a\n"
           "               reconstruction of OUT's spans should come close to)\n"
           "--model unit (default): a sampled .mtr/.mtp output comes from lib's cycle-exact trace-unit\n"
           "model (4 KiB FIFO, 8 bytes/cycle); --model ideal, and .csv outputs, use the host's\n"
           "functional sampler (first access of each interval, reported at the sample point; idle\n"
           "intervals give nothing; no FIFO).\n");
}

typedef struct {
    trace_writer *w;       /* records (every-access traces, CSV, --model ideal) */
    FILE *raw;             /* the trace unit's packet stream (--model unit), .mtp (raw_out.f) */
    mt_outfile raw_out;    /* renamed into place when generation succeeded */
    mt_writer *mtr;        /* ... or into a container, .mtr */
    int unit;              /* this output comes from the trace unit */
    unit_driver drv;
    sampler smp;
    int every;
    const char *path;
} gen_out;

/* Removes every output opened so far (an error before anything was generated). */
static void discard_outputs(gen_out *outs, int n)
{
    for (int j = 0; j < n; j++) {
        if (outs[j].unit) {
            unit_driver_stop(&outs[j].drv, 2);
            if (outs[j].raw) {
                mt_outfile_discard(&outs[j].raw_out);
            } else {
                mt_writer_abort(outs[j].mtr);
            }
        } else {
            trace_abort(outs[j].w);
        }
    }
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

int cmd_gen(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        help();
        return 0;
    }
    gen_params gp;
    gen_defaults(&gp);
    sampler_config sc;
    sampler_defaults(&sc);
    sc.len_h = 1000000;
    sc.len_l = 10000000;
    const char *out = NULL, *truth = NULL, *fullrate = NULL;
    int every = 0;
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"truth", required_argument, 0, 'T'},
        {"full-rate", required_argument, 0, 'F'}, {"every-access", no_argument, 0, 'E'},
        {"pattern", required_argument, 0, 'p'}, {"accesses", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'}, {"base", required_argument, 0, 'b'},
        {"size", required_argument, 0, 'S'}, {"elem", required_argument, 0, 'e'},
        {"stride", required_argument, 0, 't'}, {"ws", required_argument, 0, 'w'},
        {"drift", required_argument, 0, 'd'}, {"phase", required_argument, 0, 'P'},
        {"write-frac", required_argument, 0, 'W'}, {"gap", required_argument, 0, 'g'},
        {"idle-every", required_argument, 0, 'i'}, {"idle-cycles", required_argument, 0, 'I'},
        {"r-h", required_argument, 0, 1}, {"r-l", required_argument, 0, 2},
        {"len-h", required_argument, 0, 3}, {"len-l", required_argument, 0, 4},
        {"fmt-h", required_argument, 0, 5}, {"fmt-l", required_argument, 0, 6},
        {"model", required_argument, 0, 'M'}, {0, 0, 0, 0}};
    int use_unit = 1;
    optind = 0;
    int c, idx = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, &idx)) != -1) {
        uint64_t *u = NULL;
        int bytes = 0;
        switch (c) {
        case 'o': out = optarg; continue;
        case 'T': truth = optarg; continue;
        case 'F': fullrate = optarg; continue;
        case 'E': every = 1; continue;
        case 'M':
            if (strcmp(optarg, "unit") && strcmp(optarg, "ideal")) {
                cli_error("gen", "--model: '%s' is not unit or ideal", optarg);
                return 2;
            }
            use_unit = !strcmp(optarg, "unit");
            continue;
        case 'p':
            if (gen_parse_pattern(optarg, &gp.pattern)) {
                cli_error("gen", "--pattern: '%s' is not seq, random, stride or mixed", optarg);
                return 2;
            }
            continue;
        case 'W':
            if (cli_parse_double(optarg, &gp.write_frac)) {
                cli_error("gen", "--write-frac: '%s' is not a number", optarg);
                return 2;
            }
            continue;
        case 5: case 6: {
            ht_format f;
            if (ht_parse_format(optarg, &f)) {
                cli_error("gen", "--%s: '%s' is not 48, 32, full or line", opts[idx].name, optarg);
                return 2;
            }
            if (c == 5) sc.fmt_h = f; else sc.fmt_l = f;
            continue;
        }
        case 'n': u = &gp.accesses; break;
        case 's': u = &gp.seed; break;
        case 'b': u = &gp.base; break;
        case 'S': u = &gp.size; bytes = 1; break;
        case 'e': u = &gp.elem; bytes = 1; break;
        case 't': u = &gp.stride; bytes = 1; break;
        case 'w': u = &gp.ws; bytes = 1; break;
        case 'd': u = &gp.drift; bytes = 1; break;
        case 'P': u = &gp.phase; break;
        case 'g': u = &gp.gap; break;
        case 'i': u = &gp.idle_every; break;
        case 'I': u = &gp.idle_cycles; break;
        case 1: u = &sc.r_h; break;
        case 2: u = &sc.r_l; break;
        case 3: u = &sc.len_h; break;
        case 4: u = &sc.len_l; break;
        default: return 2;
        }
        double d;
        if (bytes ? cli_parse_bytes(optarg, u) : cli_parse_u64(optarg, u)) {
            /* counts may also be written 1e6 */
            if (bytes || cli_parse_double(optarg, &d) || d < 0 || d > 1.8e19 || d != (double)(uint64_t)d) {
                cli_error("gen", "--%s: '%s' is not a %s", opts[idx].name, optarg,
                          bytes ? "byte count like 64M" : "non-negative integer");
                return 2;
            }
            *u = (uint64_t)d;
        }
    }
    if (optind != argc) {
        cli_error("gen", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!out) {
        cli_error("gen", "give the output trace with -o OUT");
        return 2;
    }
    const cli_path out_paths[] = {{"-o", out}, {"--truth", truth}, {"--full-rate", fullrate}};
    if (cli_outputs_distinct("gen", out_paths, 3, NULL, 0))
        return 2;
    const char *why;
    if (gen_check(&gp, &why)) {
        cli_error("gen", "%s", why);
        return 2;
    }
    if (!sc.r_h || !sc.r_l) {
        cli_error("gen", "--r-h and --r-l must be at least 1");
        return 2;
    }
    sc.start = gp.start_cycle;
    gen_out outs[3];
    int nouts = 0;
    char err[600];
    const char *paths[3] = {out, truth, fullrate};
    for (int k = 0; k < 3; k++) {
        if (!paths[k])
            continue;
        gen_out *o = &outs[nouts];
        o->path = paths[k];
        o->every = (k == 0 && every) || k == 1;
        sampler_config s2 = sc;
        if (k == 2)
            s2.len_l = 0; /* bursts only */
        sampler_init(&o->smp, &s2);
        o->raw = NULL;
        o->mtr = NULL;
        o->unit = !o->every && use_unit && (ends_with(paths[k], ".mtp") || ends_with(paths[k], ".mtr"));
        if (o->unit) {
            int bad;
            if (ends_with(paths[k], ".mtp")) {
                char e[600];
                if (mt_outfile_open(&o->raw_out, paths[k], "wb", 0, e, sizeof e) == 0)
                    o->raw = o->raw_out.f;
                bad = !o->raw || unit_driver_start(&o->drv, &s2, o->raw, NULL, NULL);
            } else {
                mt_unit_cfg ucfg;
                unit_driver_cfg(&s2, &ucfg);
                mt_writer_config wc = {.producer = "metatrace gen --model unit", .unit_cfg = &ucfg,
                                       .fifo_depth = MT_UNIT_DEFAULT_DEPTH,
                                       .fifo_drain = MT_UNIT_DEFAULT_DRAIN};
                char e[400];
                o->mtr = mt_writer_create(paths[k], &wc, e, sizeof e);
                bad = !o->mtr || unit_driver_start(&o->drv, &s2, NULL, mt_writer_sink, o->mtr);
            }
            if (bad) {
                cli_error("gen", "%s: cannot create", paths[k]);
                if (o->raw)
                    mt_outfile_discard(&o->raw_out);
                if (o->mtr)
                    mt_writer_abort(o->mtr);
                discard_outputs(outs, nouts);
                return 1;
            }
            o->w = NULL;
            nouts++;
            continue;
        }
        trace_writer_opts wo = {.producer = "metatrace gen",
                                .format = o->every ? HT_FMT_FULL : sc.fmt_h,
                                .rate = o->every ? 1 : (unsigned)sc.r_h};
        o->w = trace_create(paths[k], &wo, err, sizeof err);
        if (!o->w) {
            cli_error("gen", "%s", err);
            discard_outputs(outs, nouts);
            return 1;
        }
        nouts++;
    }
    gen_state g;
    gen_init(&g, &gp);
    mt_access a;
    int rc = 0;
    while (!rc && gen_next(&g, &a)) {
        for (int k = 0; k < nouts && !rc; k++) {
            ht_record recs[3];
            int n = 0;
            if (outs[k].unit) {
                unit_driver_access(&outs[k].drv, &a);
                continue;
            }
            if (outs[k].every)
                recs[n++] = ht_full_sample(a.cycle, a.addr, a.write);
            else
                n = sampler_access(&outs[k].smp, &a, recs);
            for (int j = 0; j < n && !rc; j++)
                if (trace_write(outs[k].w, &recs[j])) {
                    cli_error("gen", "%s", trace_writer_error(outs[k].w)); /* ("PATH: problem") */
                    rc = 1;
                }
        }
    }
    for (int k = 0; k < nouts; k++) {
        if (outs[k].unit) {
            int bad = unit_driver_stop(&outs[k].drv, g.cycle + 1);
            uint32_t dropped = unit_driver_dropped(&outs[k].drv);
            char e[600] = "";
            if (outs[k].raw) {
                if (rc || bad)
                    mt_outfile_discard(&outs[k].raw_out);
                else
                    bad |= mt_outfile_commit(&outs[k].raw_out, e, sizeof e) != 0;
            } else if (rc || bad) {
                mt_writer_abort(outs[k].mtr);
            } else {
                bad |= mt_writer_finish(outs[k].mtr, e, sizeof e) != 0;
            }
            if (rc || bad) {
                if (bad)
                    cli_error("gen", "%s", e[0] ? e : "write failed");
                rc = 1;
            } else if (dropped) {
                fprintf(stderr, "note: the trace unit dropped %u samples (FIFO full) in %s\n",
                        dropped, outs[k].path);
            }
            continue;
        }
        if (rc) {
            trace_abort(outs[k].w);
        } else if (trace_finish(outs[k].w, err, sizeof err)) {
            cli_error("gen", "%s", err);
            rc = 1;
        }
    }
    if (!rc)
        fprintf(stderr, "generated %" PRIu64 " %s accesses, cycles %" PRIu64 "..%" PRIu64 "\n",
                gp.accesses, gen_pattern_name(gp.pattern), gp.start_cycle, g.cycle);
    return rc;
}
