/* metatrace info / decode: what a trace holds, and its samples one a line. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/cli.h"
#include "host/commands.h"
#include "host/roi.h"
#include "host/traceio.h"

/* Says on stderr when a cycle range had to be found by scanning the whole trace. */
static void roi_note(const char *cmd, const char *path, const roi_opts *roi, int indexed)
{
    if (indexed < 0 && (roi->from || roi->to != UINT64_MAX))
        fprintf(stderr, "metatrace %s: %s: no usable index (a raw stream, an unfinished writer or a damaged index): "
                        "scanning the whole trace for the cycle range\n", cmd, path);
}

static void info_help(void)
{
    printf("usage: metatrace info FILE [--markers N]\n\n"
           "The container header and configuration (for .mtr), sections, sample counts per section\n"
           "and format, markers (the first N, default 20), overflows (samples the trace unit\n"
           "dropped), lost bytes/records, file size, bytes per sample and the cycles covered.\n"
           "With a region of interest the counts are the region's.\n\n");
    fputs(roi_help, stdout);
}

int cmd_info(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        info_help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("info", 0, &argc, argv, &roi))
        return 2;
    uint64_t show_markers = 20;
    static const struct option opts[] = {{"markers", required_argument, 0, 'm'}, {0, 0, 0, 0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c != 'm' || cli_parse_u64(optarg, &show_markers)) {
            if (c == 'm')
                cli_error("info", "--markers: '%s' is not a count", optarg);
            return 2;
        }
    }
    if (optind != argc - 1) {
        cli_error("info", optind >= argc ? "missing the trace FILE" : "more than one trace given");
        return 2;
    }
    const char *path = argv[optind];
    char err[600];
    int indexed;
    ht_source *src = roi_open(path, &roi, &indexed, err, sizeof err);
    if (!src) {
        cli_error("info", "%s", err);
        return 1;
    }
    roi_note("info", path, &roi, indexed);
    struct stat st;
    uint64_t fsize = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
    uint64_t n[HT_SEC_COUNT][HT_FMT_COUNT] = {{0}}, sections[HT_SEC_COUNT] = {0};
    uint64_t writes = 0, samples = 0, markers = 0, overflow = 0, loss_events = 0, lost = 0, idle = 0;
    uint64_t first = 0, last = 0, sec_first = 0;
    int have_sec = 0, cur_sec = -1;
    ht_record r;
    int got;
    printf("trace %s (%" PRIu64 " bytes)\n", path, fsize);
    if (src->describe)
        src->describe(src, stdout);
    while ((got = ht_next(src, &r)) == 1) {
        switch (r.kind) {
        case HT_REC_SAMPLE:
            idle += r.value; /* intervals skipped before this sample */
            if (!samples)
                first = r.cycle;
            last = r.cycle;
            samples++;
            writes += r.write;
            n[r.section % HT_SEC_COUNT][r.format % HT_FMT_COUNT]++;
            break;
        case HT_REC_SECTION:
            /* SECTION packets repeat after every SYNC: count changes of section type */
            if (!have_sec || r.section != cur_sec)
                sections[r.section % HT_SEC_COUNT]++;
            if (!have_sec)
                sec_first = r.cycle;
            have_sec = 1;
            cur_sec = r.section;
            break;
        case HT_REC_IDLE: idle += r.value; break;
        case HT_REC_OVERFLOW: overflow += r.value; break;
        case HT_REC_LOSS:
            loss_events++;
            lost += r.value;
            break;
        case HT_REC_MARKER:
            if (markers < show_markers)
                printf("marker  cycle %" PRIu64 "  value 0x%" PRIx64 "\n", r.cycle, r.value);
            markers++;
            break;
        default: break;
        }
    }
    if (got < 0) {
        cli_error("info", "%s", src->err);
        ht_close(src);
        return 1;
    }
    ht_close(src);
    printf("sections: %" PRIu64 " bursts, %" PRIu64 " spans (changes of section type)\n",
           sections[0], sections[1]);
    printf("samples: %" PRIu64 " (%" PRIu64 " writes)\n", samples, writes);
    for (int s = 0; s < HT_SEC_COUNT; s++)
        for (int f = 0; f < HT_FMT_COUNT; f++)
            if (n[s][f])
                printf("  %-5s %-4s %" PRIu64 "\n", ht_section_name((ht_section)s),
                       ht_format_name((ht_format)f), n[s][f]);
    printf("intervals without a sample: %" PRIu64 " (idle, or dropped as overflow says)\n", idle);
    printf("markers: %" PRIu64 "%s\n", markers, markers > show_markers ? " (first ones shown)" : "");
    printf("overflow: %" PRIu64 " samples dropped by the trace unit\n", overflow);
    printf("loss: %" PRIu64 " events, %" PRIu64 " bytes/records lost%s\n", loss_events, lost,
           loss_events ? " (the decoder resynchronised)" : "");
    if (samples) {
        uint64_t start = have_sec && sec_first < first ? sec_first : first;
        printf("cycles: %" PRIu64 " .. %" PRIu64 " (%" PRIu64 " cycles, %.6f s at 1 GHz)\n",
               start, last, last - start, (double)(last - start) / 1e9);
        printf("bytes per sample: %.3f\n", (double)fsize / (double)samples);
    }
    return 0;
}

static void decode_help(void)
{
    printf("usage: metatrace decode FILE [--format text|csv] [--from CYCLE] [--to CYCLE]\n"
           "                        [--between-markers A,B]\n"
           "                        [--section burst|span] [--samples-only]\n\n"
           "One record a line.  text: cycle, section, format, R/W, byte address and the format's\n"
           "value (48/32-bit word, line number, address); other records (section starts,\n"
           "markers, overflows, losses) as '#' lines unless --samples-only.  csv: columns\n"
           "cycle,kind,section,format,rw,address,value.  The SECTION in force where a region starts\n"
           "is printed before it, with its own cycle.\n\n");
    fputs(roi_help, stdout);
}

int cmd_decode(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        decode_help();
        return 0;
    }
    roi_opts roi;
    if (roi_parse_args("decode", 0, &argc, argv, &roi))
        return 2;
    int csv = 0, only_samples = 0, want_section = -1;
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'}, {"section", required_argument, 0, 's'},
        {"samples-only", no_argument, 0, 'o'}, {0, 0, 0, 0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (strcmp(optarg, "text") && strcmp(optarg, "csv")) {
                cli_error("decode", "--format: '%s' is not text or csv", optarg);
                return 2;
            }
            csv = !strcmp(optarg, "csv");
            break;
        case 's':
            if (!strcmp(optarg, "burst")) want_section = HT_SEC_BURST;
            else if (!strcmp(optarg, "span")) want_section = HT_SEC_SPAN;
            else {
                cli_error("decode", "--section: '%s' is not burst or span", optarg);
                return 2;
            }
            break;
        case 'o': only_samples = 1; break;
        default: return 2;
        }
    }
    if (optind != argc - 1) {
        cli_error("decode", optind >= argc ? "missing the trace FILE" : "more than one trace given");
        return 2;
    }
    const char *path = argv[optind];
    char err[600];
    int indexed;
    ht_source *src = roi_open(path, &roi, &indexed, err, sizeof err);
    if (!src) {
        cli_error("decode", "%s", err);
        return 1;
    }
    roi_note("decode", path, &roi, indexed);
    if (csv)
        printf("cycle,kind,section,format,rw,address,value\n");
    ht_record r;
    int got;
    int cur_section = HT_SEC_BURST;
    while ((got = ht_next(src, &r)) == 1) {
        if (r.kind == HT_REC_SECTION)
            cur_section = r.section;
        int sec = r.kind == HT_REC_SAMPLE || r.kind == HT_REC_SECTION ? r.section : cur_section;
        if (want_section >= 0 && sec != want_section)
            continue;
        if (r.kind == HT_REC_SAMPLE) {
            if (csv)
                printf("%" PRIu64 ",sample,%s,%s,%c,0x%" PRIx64 ",0x%" PRIx64 "\n", r.cycle,
                       ht_section_name((ht_section)r.section), ht_format_name((ht_format)r.format),
                       r.write ? 'W' : 'R', r.addr, ht_format_value(&r));
            else
                printf("%14" PRIu64 " %-5s %-4s %c 0x%014" PRIx64 "  0x%" PRIx64 "\n", r.cycle,
                       ht_section_name((ht_section)r.section), ht_format_name((ht_format)r.format),
                       r.write ? 'W' : 'R', r.addr, ht_format_value(&r));
        } else if (!only_samples) {
            const char *k = ht_record_kind_name((ht_record_kind)r.kind);
            if (csv)
                printf("%" PRIu64 ",%s,%s,%s,,,%" PRIu64 "\n", r.cycle, k,
                       ht_section_name((ht_section)sec),
                       r.kind == HT_REC_SECTION ? ht_format_name((ht_format)r.format) : "", r.value);
            else if (r.kind == HT_REC_SECTION)
                printf("# %" PRIu64 " section %s format %s rate %" PRIu64 "\n", r.cycle,
                       ht_section_name((ht_section)r.section), ht_format_name((ht_format)r.format),
                       r.value);
            else
                printf("# %" PRIu64 " %s %" PRIu64 "\n", r.cycle, k, r.value);
        }
    }
    if (got < 0) {
        fflush(stdout);
        cli_error("decode", "%s", src->err);
        ht_close(src);
        return 1;
    }
    ht_close(src);
    return 0; /* (main checks that standard output took it all) */
}
