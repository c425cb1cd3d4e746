/* metatrace import / export: HMTT records, CSV, DRAMSim2/3 and Ramulator traces. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/cli.h"
#include "host/tracemode.h"
#include "host/roi.h"
#include "host/commands.h"
#include "host/exporters.h"
#include "host/hmtt.h"
#include "host/traceio.h"
#include "mt_outfile.h"
#include "mt_paths.h"

static void import_help(void)
{
    printf("usage: metatrace import --from hmtt|csv FILE -o OUT [--ticks-to-cycles N]\n"
           "                        [--kernel-trace KT [--kernel-csv OUT.csv]]\n\n"
           "Imports an external trace as an every-access, full-address trace (OUT.mtr, or OUT.csv).\n"
           "csv:  header 'cycle,address,rw', address 0x-hex or decimal, rw R or W; cycles must not\n"
           "      decrease.\n"
           "hmtt: 6-byte HMTT records (SPEC2017-Trace): seq, duration, R/W (1 = read), 31-bit\n"
           "      address << 6 (+2 GiB at and above 2 GiB); all-zero records are 256-tick fillers;\n"
           "      sequence gaps are reported as lost records.  Cycles = ticks x --ticks-to-cycles\n"
           "      (default 1) since the first record.  Addresses keep HMTT's 64-byte granularity.\n"
           "--kernel-trace KT: checks and summarises HMTT's 13-byte kernel PTE records\n"
           "      ([magic][pid][vpn][ppn], magic 0xec set, 0xfc/0x22/0x33 free); --kernel-csv\n"
           "      writes them as 'magic,event,pid,vpn,ppn'.\n");
}

static int kernel_trace(const char *path, const char *csv_out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("import", "%s: cannot open: %s", path, strerror(errno));
        return 1;
    }
    FILE *o = NULL;
    mt_outfile of = {0};
    char e[600];
    if (csv_out && mt_outfile_open(&of, csv_out, "w", 0, e, sizeof e) < 0) {
        cli_error("import", "%s", e);
        fclose(f);
        return 1;
    }
    o = of.f;
    if (o)
        fputs("magic,event,pid,vpn,ppn\n", o);
    uint8_t buf[KPTE_RECORD_BYTES];
    uint64_t n = 0, set = 0, freed = 0;
    size_t got;
    int rc = 0;
    while ((got = fread(buf, 1, sizeof buf, f)) == sizeof buf) {
        kpte_record r;
        kpte_unpack(buf, &r);
        n++;
        const char *ev = kpte_is_set(r.magic) ? "set" : kpte_is_free(r.magic) ? "free" : NULL;
        if (!ev) {
            cli_error("import", "%s: record %" PRIu64 " (byte %" PRIu64 "): magic 0x%02x is not "
                      "a PTE record (0xec, 0xfc, 0x22, 0x33)", path, n - 1, (n - 1) * 13, r.magic);
            rc = 1;
            break;
        }
        set += ev[0] == 's';
        freed += ev[0] == 'f';
        if (o)
            fprintf(o, "0x%02x,%s,%u,0x%x,0x%x\n", r.magic, ev, r.pid, r.vpn, r.ppn);
    }
    if (!rc && got != 0) {
        cli_error("import", "%s: truncated: %zu trailing bytes (records are 13 bytes)", path, got);
        rc = 1;
    }
    fclose(f);
    if (o && rc) {
        mt_outfile_discard(&of);
    } else if (o && mt_outfile_commit(&of, e, sizeof e) < 0) {
        cli_error("import", "%s", e);
        rc = 1;
    }
    if (!rc)
        fprintf(stderr, "kernel trace %s: %" PRIu64 " PTE records (%" PRIu64 " set, %" PRIu64
                " freed)\n", path, n, set, freed);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        import_help();
        return 0;
    }
    const char *from = NULL, *out = NULL, *kt = NULL, *ktcsv = NULL;
    uint64_t t2c = 1;
    static const struct option opts[] = {
        {"from", required_argument, 0, 'f'},         {"output", required_argument, 0, 'o'},
        {"ticks-to-cycles", required_argument, 0, 't'}, {"kernel-trace", required_argument, 0, 'k'},
        {"kernel-csv", required_argument, 0, 'K'},    {0, 0, 0, 0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'f': from = optarg; break;
        case 'o': out = optarg; break;
        case 'k': kt = optarg; break;
        case 'K': ktcsv = optarg; break;
        case 't':
            if (cli_parse_u64(optarg, &t2c) || !t2c) {
                cli_error("import", "--ticks-to-cycles: '%s' is not a positive integer", optarg);
                return 2;
            }
            break;
        default: return 2;
        }
    }
    if (!from || (strcmp(from, "hmtt") && strcmp(from, "csv"))) {
        cli_error("import", "--from must be hmtt or csv");
        return 2;
    }
    if (optind != argc - 1 || !out) {
        cli_error("import", "need one input FILE and -o OUT");
        return 2;
    }
    const char *in = argv[optind];
    const cli_path outs[] = {{"-o", out}, {"--kernel-csv", ktcsv}}, ins[] = {{"input", in}, {"--kernel-trace", kt}};
    if (cli_outputs_distinct("import", outs, 2, ins, 2))
        return 2;
    char err[600];
    ht_source *src = !strcmp(from, "hmtt") ? hmtt_open(in, t2c, err, sizeof err)
                                           : trace_open_csv(in, err, sizeof err);
    if (!src) {
        cli_error("import", "%s", err);
        return 1;
    }
    trace_writer_opts wo = {.producer = "metatrace import",
                            .format = !strcmp(from, "hmtt") ? HT_FMT_LINE : HT_FMT_FULL,
                            .rate = 1};
    trace_writer *w = trace_create(out, &wo, err, sizeof err);
    if (!w) {
        cli_error("import", "%s", err);
        ht_close(src);
        return 1;
    }
    ht_record r;
    int got;
    uint64_t samples = 0, lost = 0, gaps = 0;
    while ((got = ht_next(src, &r)) == 1) {
        if (r.kind == HT_REC_LOSS) {
            lost += r.value;
            gaps++;
        } else {
            samples++;
        }
        if (trace_write(w, &r) != 0) {
            cli_error("import", "%s", trace_writer_error(w)); /* ("PATH: problem") */
            trace_abort(w);
            ht_close(src);
            return 1;
        }
    }
    if (got < 0) {
        cli_error("import", "%s", src->err);
        trace_abort(w);
        ht_close(src);
        return 1;
    }
    ht_close(src);
    if (trace_finish(w, err, sizeof err) != 0) {
        cli_error("import", "%s", err);
        return 1;
    }
    fprintf(stderr, "imported %" PRIu64 " accesses from %s into %s", samples, in, out);
    if (gaps)
        fprintf(stderr, "; %" PRIu64 " sequence gaps, %" PRIu64 " records lost (modulo 256 each)",
                gaps, lost);
    fputc('\n', stderr);
    return kt ? kernel_trace(kt, ktcsv) : 0;
}

/* export --to hmtt-kt: the CSV that import --kernel-csv writes back into 13-byte records. */
static int export_kernel(const char *in, const char *out)
{
    FILE *f = fopen(in, "r");
    if (!f) {
        cli_error("export", "%s: cannot open: %s", in, strerror(errno));
        return 1;
    }
    mt_outfile of;
    char e[600];
    if (mt_outfile_open(&of, out, "wb", 0, e, sizeof e) < 0) {
        cli_error("export", "%s", e);
        fclose(f);
        return 1;
    }
    FILE *o = of.f;
    char line[256];
    uint64_t n = 0, lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "magic,event,pid,vpn,ppn", 23)) {
                cli_error("export", "%s:1: expected the header 'magic,event,pid,vpn,ppn'", in);
                rc = 1;
                break;
            }
            continue;
        }
        unsigned magic, pid, vpn, ppn;
        char ev[16];
        if (sscanf(line, "%x,%15[a-z],%u,%x,%x", &magic, ev, &pid, &vpn, &ppn) != 5 || magic > 0xff ||
            (!kpte_is_set((uint8_t)magic) && !kpte_is_free((uint8_t)magic))) {
            cli_error("export", "%s:%" PRIu64 ": expected magic(0xec/0xfc/0x22/0x33),event,pid,vpn,ppn", in, lineno);
            rc = 1;
            break;
        }
        kpte_record r = {.magic = (uint8_t)magic, .pid = pid, .vpn = vpn, .ppn = ppn};
        uint8_t b[KPTE_RECORD_BYTES];
        kpte_pack(&r, b);
        if (fwrite(b, 1, sizeof b, o) != sizeof b) {
            cli_error("export", "%s: write error", out);
            rc = 1;
            break;
        }
        n++;
    }
    fclose(f);
    if (rc) {
        mt_outfile_discard(&of);
    } else if (mt_outfile_commit(&of, e, sizeof e) < 0) {
        cli_error("export", "%s", e);
        rc = 1;
    } else {
        fprintf(stderr, "wrote %" PRIu64 " kernel PTE records to %s\n", n, out);
    }
    return rc;
}

static void export_help(void)
{
    printf("usage: metatrace export FILE --to hmtt|csv|dramsim2|dramsim3|ramulator [-o OUT]\n"
           "                        [--cycles-per-tick N] [--offset ADDR]\n"
           "       metatrace export KERNEL.csv --to hmtt-kt -o OUT.kt\n\n"
           "Writes every sample of FILE (stdout without -o; hmtt needs -o):\n"
           "  csv        cycle,address,rw\n"
           "  dramsim2   0xADDR P_MEM_RD|P_MEM_WR CYCLE   (DRAMSim2 k6 format: name it k6_*.trc)\n"
           "  dramsim3   0xADDR READ|WRITE CYCLE          ('dramsim' is an alias)\n"
           "  ramulator  0xADDR R|W                        (memory-trace mode)\n"
           "  hmtt       6-byte HMTT records; duration in ticks of --cycles-per-tick cycles\n"
           "             (default 1) since the previous record, 256-tick fillers for longer gaps,\n"
           "             times relative to the first access; addresses in [2 GiB, 4 GiB) cannot be\n"
           "             expressed: --offset subtracts a base first (e.g. 0x80000000 for RAM).\n"
           "  hmtt-kt    HMTT kernel PTE records (13 bytes) from the CSV 'magic,event,pid,vpn,ppn'\n"
           "             that import --kernel-csv writes\n"
           "Samples coarser than a byte address (48/32-bit formats) are written with their low\n"
           "bits zero and counted on stderr.  Here --to names the format: a region's end cycle\n"
           "is --to-cycle.\n\n");
    fputs(roi_help, stdout);
}

/* What to say after "HMTT cannot express an address in [2 GiB, 4 GiB)": an --offset that maps
 * every sample of the trace (region) into [0, 2 GiB), found by a pass over it, or that none does.
 * A suggestion is one that works, or none is made. */
static void hmtt_offset_advice(const char *in, const roi_opts *roi, uint64_t offset, char *out, size_t n)
{
    char err[600];
    ht_source *src = roi_open(in, roi, NULL, err, sizeof err);
    if (!src)
        return;
    uint64_t lo = UINT64_MAX, hi = 0;
    ht_record r;
    while (ht_next_sample(src, &r) == 1) {
        lo = r.addr < lo ? r.addr : lo;
        hi = r.addr > hi ? r.addr : hi;
    }
    ht_close(src);
    if (lo > hi)
        return;
    uint64_t base = lo & ~(uint64_t)63; /* HMTT's addresses are 64-byte lines */
    if (hi - base < (UINT64_C(1) << 31))
        snprintf(out, n, "; --offset 0x%" PRIx64 " maps every address of the trace (0x%" PRIx64 "..0x%" PRIx64
                 ") below 2 GiB", base, lo, hi);
    else
        snprintf(out, n, "; no --offset can express every address (they span 0x%" PRIx64 "..0x%" PRIx64
                 ", over 2 GiB%s)", lo, hi, offset ? "" : ": export a region of them, --from/--to");
}

int cmd_export(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        export_help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("export", ROI_KEEP_TO, &argc, argv, &roi))
        return 2;
    const char *to = NULL, *out = NULL;
    uint64_t cpt = 1, offset = 0;
    static const struct option opts[] = {
        {"to", required_argument, 0, 't'},       {"output", required_argument, 0, 'o'},
        {"cycles-per-tick", required_argument, 0, 'c'}, {"offset", required_argument, 0, 'O'},
        {0, 0, 0, 0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 't': to = optarg; break;
        case 'o': out = optarg; break;
        case 'c':
            if (cli_parse_u64(optarg, &cpt) || !cpt) {
                cli_error("export", "--cycles-per-tick: '%s' is not a positive integer", optarg);
                return 2;
            }
            break;
        case 'O':
            if (cli_parse_u64(optarg, &offset)) {
                cli_error("export", "--offset: '%s' is not an address", optarg);
                return 2;
            }
            break;
        default: return 2;
        }
    }
    if (to && !strcmp(to, "hmtt-kt")) {
        if (optind != argc - 1 || !out) {
            cli_error("export", "--to hmtt-kt needs one KERNEL.csv and -o OUT.kt");
            return 2;
        }
        if (cli_outputs_distinct("export", &(cli_path){"-o", out}, 1, &(cli_path){"input", argv[optind]}, 1))
            return 2;
        return export_kernel(argv[optind], out);
    }
    export_kind kind;
    if (!to || export_parse_kind(to, &kind)) {
        cli_error("export", "--to must be hmtt, csv, dramsim2, dramsim3 (dramsim) or ramulator");
        return 2;
    }
    if (optind != argc - 1) {
        cli_error("export", optind >= argc ? "missing the trace FILE" : "more than one trace given");
        return 2;
    }
    if (kind == EXP_HMTT && !out) {
        cli_error("export", "--to hmtt writes binary records: give -o OUT");
        return 2;
    }
    const char *in = argv[optind];
    if (cli_outputs_distinct("export", &(cli_path){"-o", out}, 1, &(cli_path){"input", in}, 1))
        return 2;
    char err[600];
    ht_source *src = roi_open(in, &roi, NULL, err, sizeof err);
    if (!src) {
        cli_error("export", "%s", err);
        return 1;
    }
    if (trace_mode_refuse_masked(src, "export", err, sizeof err)) {
        cli_error("export", "%s", err);
        ht_close(src);
        return 1;
    }
    if (out && !strcmp(out, "-")) /* "-o -": standard output, as for the other writers */
        out = NULL;
    if (kind == EXP_HMTT && !out && isatty(STDOUT_FILENO)) {
        cli_error("export", "--to hmtt writes binary records: not to a terminal");
        ht_close(src);
        return 2;
    }
    mt_outfile of = {0};
    FILE *f = stdout;
    if (out) {
        char e[600];
        if (mt_outfile_open(&of, out, kind == EXP_HMTT ? "wb" : "w", 0, e, sizeof e) < 0) {
            cli_error("export", "%s", e);
            ht_close(src);
            return 1;
        }
        f = of.f;
    }
    hmtt_writer *hw = kind == EXP_HMTT ? hmtt_writer_new(f, cpt) : NULL;
    export_header(f, kind);
    ht_record r;
    int got, rc = 0;
    uint64_t n = 0, coarse = 0;
    while ((got = ht_next_sample(src, &r)) == 1) {
        if (r.format != HT_FMT_FULL && r.format != HT_FMT_LINE)
            coarse++;
        if (r.addr < offset) {
            cli_error("export", "%s: sample %" PRIu64 " address 0x%" PRIx64 " is below --offset",
                      in, n, r.addr);
            rc = 1;
            break;
        }
        uint64_t a = r.addr - offset;
        if (hw) {
            const char *why;
            if (hmtt_writer_access(hw, r.cycle, a, r.write, &why)) {
                char advice[200] = "";
                if (a >= (UINT64_C(1) << 31) && a < (UINT64_C(1) << 32))
                    hmtt_offset_advice(in, &roi, offset, advice, sizeof advice);
                cli_error("export", "%s: sample %" PRIu64 " (cycle %" PRIu64 ", address 0x%" PRIx64
                          "): %s%s", in, n, r.cycle, a, why, advice);
                rc = 1;
                break;
            }
        } else {
            export_line(f, kind, r.cycle, a, r.write);
        }
        n++;
    }
    if (got < 0) {
        cli_error("export", "%s", src->err);
        rc = 1;
    }
    ht_close(src);
    int write_failed = ferror(f);
    if (hw) {
        hmtt_writer_stats st;
        hmtt_writer_stats_get(hw, &st);
        if (!rc)
            fprintf(stderr, "wrote %" PRIu64 " HMTT access records and %" PRIu64 " fillers to %s%s\n",
                    st.records, st.fillers, out ? out : "standard output",
                    st.ambiguous ? " (some writes to line 0 look like fillers)" : "");
        hmtt_writer_free(hw);
    }
    if (out && !rc && ht_damaged_inputs()) { /* the reader said what is missing */
        cli_error("export", "%s not written: %s is damaged, the export would be incomplete", out, in);
        rc = 1;
    }
    if (out && !rc) { /* (standard output: main checks it) */
        char e[600];
        if (write_failed || mt_outfile_commit(&of, e, sizeof e) < 0) {
            if (write_failed) {
                snprintf(e, sizeof e, "%s: write failed: %s", out, strerror(errno ? errno : EIO));
                mt_outfile_discard(&of);
            }
            cli_error("export", "%s", e);
            rc = 1;
        }
    }
    if (rc && out)
        mt_outfile_discard(&of); /* never leave a half-written file that looks complete */
    if (!rc && coarse)
        fprintf(stderr, "note: %" PRIu64 " samples carried only 48/32-bit addresses (low bits zero)\n",
                coarse);
    return rc;
}
