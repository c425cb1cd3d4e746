/* Tracing options, session and report; see tracectl.h. */
#include "emu/trace/tracectl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>

#include "emu/trace/tracedev.h"
#include "emu/trace/tracepipe.h"
#include "emu/cliopt.h"
#include "mt_mtr.h"
#include "mt_outfile.h"
#include "mt_runs.h"
#include "mt_regs.h"
#include "rtl_model/sim/mt_lockstep.h"
#include "rtl_model/sim/mt_rtl.h"

#define REF_HZ UINT64_C(1000000000)
#define LEN_MAX ((UINT64_C(1) << 40) - 1)
/* A stopping unit writes END and drains its FIFO within a few thousand cycles; this bounds the
 * RTL-only wait so that a broken RTL cannot hang the emulator. */
#define RTL_STOP_LIMIT UINT64_C(10000000)
/* B of the unit's own reduce path (--trace-unit=rtl|both) when --trace-reduce-budget is not
 * given: its largest, 4K << MT_REDUCE_LGK_MAX = 4 MiB (the software default is above it) */
#define UNIT_REDUCE_DEFAULT_BUDGET (UINT64_C(4096) << MT_REDUCE_LGK_MAX)

static const char *const kind_names[MT_KIND_COUNT] = {"fetch", "load", "store", "amo", "ptw"};
static const char *const unit_names[3] = {"model", "rtl", "both"};

/* CPUs this process may run on (taskset, cgroup cpusets), else those online. */
static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void trace_options_default(struct trace_options *o)
{
    memset(o, 0, sizeof *o);
    o->unit = TRACE_UNIT_MODEL;
    o->cfg = (mt_unit_cfg){
        .kind_mask = MT_RESET_KIND_MASK,
        .tap = MT_RESET_TAP,
        .fmt = MT_RESET_FMT,
        .sync_period = MT_RESET_SYNC_PERIOD,
        .rate_h = MT_RESET_RATE_H,
        .rate_l = MT_RESET_RATE_L,
        .len_h = (uint64_t)MT_RESET_LEN_H_HI << 32 | MT_RESET_LEN_H_LO,
        .len_l = (uint64_t)MT_RESET_LEN_L_HI << 32 | MT_RESET_LEN_L_LO,
    };
    o->fifo_depth = MT_UNIT_DEFAULT_DEPTH;
    o->reduce_budget = MT_REDUCE_DEFAULT_BUDGET;
    o->spatial_rate = MT_SPATIAL_DEFAULT_RATE;
    o->waves_to = UINT64_MAX;
    o->fifo_drain = MT_UNIT_DEFAULT_DRAIN;
    o->start_at_reset = true;
    o->model_thread = usable_cpus() > 1; /* a thread on one core only adds switches */
    o->all_kinds = (1u << MT_KIND_COUNT) - 1;
    o->all_tap = MT_TAP_CORE;
}

bool trace_options_active(const struct trace_options *o) { return o->trace_path || o->all_path; }

const char *trace_options_help(void)
{
    return "  --trace FILE.mtr          trace with the trace unit (registers at 0x11000000) from reset\n"
           "  --trace-mode=M            burst (default: the unit's bursts and spans) | reduce (exact\n"
           "                            reduction: LRU and OPT fault counts of every metapage size\n"
           "                            4K..2M equal the full trace's for every budget >= B) |\n"
           "                            spatial (every access to a hashed sample of the metapages of\n"
           "                            each size 4K..2M: fault counts are estimates, scaled by the host)\n"
           "  --trace-reduce-budget B   reduce mode's budget B in bytes, a multiple of 4K from 4K to 1G\n"
           "                            (default 16M; the unit's own reduce path: 4M)\n"
           "  --trace-reduce-check SIZES  reduce mode's self-check (slow; a diagnosis, not a trace option):\n"
           "                            beside the filter, LRU at C = k of the full stream and of the\n"
           "                            records at each size of SIZES ('all' or a list such as 1M,2M);\n"
           "                            the first reference whose hit or fault differs stops the run\n"
           "                            (exit 3) with its cycle, size and the recent history\n"
           "  --trace-spatial-rate N    spatial mode: size 4K << i keeps one metapage in max(1, N >> i)\n"
           "                            at first (N a power of two, 1..65536; default 1), and doubles\n"
           "                            that rate whenever it has sampled more than 1024 metapages\n"
           "  --trace-reduce-unit       reduce mode through the C model of the unit's reduce path\n"
           "                            (lib/mt_unit_reduce: a 64-slot window, a queue of 8; accesses\n"
           "                            it cannot take are lost and counted in the trailer); with\n"
           "                            --trace-unit=rtl|both the unit's own reduce mode (REDUCE\n"
           "                            register) records instead, B a power of two from 4K to 4M\n"
           "  --trace-spatial-unit      spatial mode through the unit's own front end (SPATIAL register;\n"
           "                            fixed rates, one burst at r = 1; implied by --trace-unit=rtl|both)\n"
           "  --trace-unit=U            model (C model) | rtl (Verilated RTL) | both (lockstep: stop at\n"
           "                            the first byte where they differ); default model\n"
           "  --waves FILE.fst          the RTL unit's waveform (FST, for GTKWave; needs --trace-unit\n"
           "                            rtl or both)\n"
           "  --waves-from CYCLE        first unit cycle in the waveform (default 0)\n"
           "  --waves-to CYCLE          the waveform ends before this cycle (default: the run's end)\n"
           "  --trace-start=WHEN        reset (default) | firmware (wait for the guest's CTRL.ENABLE)\n"
           "  --trace-thread=on|off     the C model on a thread of its own (default on with 2+ CPUs;\n"
           "                            the same trace either way)\n"
           "  --trace-kinds LIST        KIND_MASK: fetch,load,store,amo,ptw or 'all' (default all)\n"
           "  --trace-tap T             core (default) | dram (needs --timing=cache)\n"
           "  --trace-rate-h N          burst cycles per sample (default 24)\n"
           "  --trace-rate-l N          span cycles per sample (default 2048)\n"
           "  --trace-len-h C           burst length in cycles, or with s/ms/us/ns (default 1s)\n"
           "  --trace-len-l C           span length (default 10s)\n"
           "  --trace-fmt-h F           burst format 48 | 32 | full | line (default 48)\n"
           "  --trace-fmt-l F           span format (default 32)\n"
           "  --trace-sync-period N     bytes between SYNC packets, 64..8192 (default 4096)\n"
           "  --trace-fifo-depth N      FIFO bytes, 32..65536 (default 4096)\n"
           "  --trace-fifo-drain N      FIFO drain, bytes per cycle 1..8 (default 8)\n"
           "  --trace-all FILE.mtr      every access, full addresses, no FIFO (ground truth)\n"
           "  --trace-all-kinds LIST    kinds recorded by --trace-all (default all)\n"
           "  --trace-all-tap T         core (default) | dram\n"
           "  --trace-all-ram           --trace-all records only guest-RAM accesses (no MMIO)\n"
           "  --trace-all-format F      records (default: one SAMPLE per access) | runs (fetches\n"
           "                            as runs of +2/+4 steps, a byte each; readers rebuild the\n"
           "                            same records)\n";
}

static bool parse_num(const char *v, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*v || *v == '-')
        return false;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || x > max)
        return false;
    *out = x;
    return true;
}

/* Bytes: a number with an optional K, M or G (powers of 1024). */
static bool parse_bytes(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*v || *v == '-')
        return false;
    unsigned long long x = strtoull(v, &end, 0);
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        end++;
    if (errno || *end || x > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)x << shift;
    return true;
}

/* Cycles, or a time with a unit at the 1 GHz reference clock (1s, 500ms, 20us, 100ns). */
static bool parse_cycles(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*v || *v == '-')
        return false;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || end == v)
        return false;
    uint64_t mul = 1;
    if (strcmp(end, "s") == 0)
        mul = REF_HZ;
    else if (strcmp(end, "ms") == 0)
        mul = REF_HZ / 1000;
    else if (strcmp(end, "us") == 0)
        mul = REF_HZ / 1000000;
    else if (strcmp(end, "ns") == 0 || *end == 0)
        mul = 1;
    else
        return false;
    if (x > LEN_MAX / mul)
        return false;
    *out = x * mul;
    return true;
}

static bool parse_kinds(const char *v, uint32_t *mask)
{
    if (strcmp(v, "all") == 0) {
        *mask = (1u << MT_KIND_COUNT) - 1;
        return true;
    }
    uint32_t m = 0;
    const char *p = v;
    while (*p) {
        size_t n = strcspn(p, ",");
        int k;
        for (k = 0; k < MT_KIND_COUNT; k++)
            if (strlen(kind_names[k]) == n && strncmp(p, kind_names[k], n) == 0)
                break;
        if (k == MT_KIND_COUNT)
            return false;
        m |= 1u << k;
        p += n;
        if (*p == ',' && *++p == 0)
            return false;
    }
    *mask = m;
    return m != 0;
}

/* Metapage sizes for --trace-reduce-check: 'all' or a list of 4K..2M (powers of two). */
static bool parse_reduce_sizes(const char *v, unsigned *mask)
{
    if (strcmp(v, "all") == 0) {
        *mask = (1u << MT_REDUCE_SIZES) - 1;
        return true;
    }
    unsigned m = 0;
    char buf[32];
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        uint64_t x;
        unsigned i;
        if (n == 0 || n >= sizeof buf)
            return false;
        memcpy(buf, p, n);
        buf[n] = 0;
        if (!parse_bytes(buf, &x))
            return false;
        for (i = 0; i < MT_REDUCE_SIZES && (UINT64_C(4096) << i) != x; i++)
            ;
        if (i == MT_REDUCE_SIZES)
            return false;
        m |= 1u << i;
        p += n;
        if (*p == ',' && *++p == 0)
            return false;
    }
    *mask = m;
    return m != 0;
}

static bool parse_fmt(const char *v, uint32_t *fmt)
{
    static const char *const names[4] = {"48", "32", "full", "line"};
    for (uint32_t f = 0; f < 4; f++)
        if (strcmp(v, names[f]) == 0) {
            *fmt = f;
            return true;
        }
    return false;
}

static bool parse_tap(const char *v, unsigned *tap)
{
    if (strcmp(v, "core") == 0)
        *tap = MT_TAP_CORE;
    else if (strcmp(v, "dram") == 0)
        *tap = MT_TAP_DRAM;
    else
        return false;
    return true;
}

/* 1 consumed, 0 not ours, -1 error. */
static int parse_one(struct trace_options *o, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *v = NULL;
    int m;
#define OPT(name) ((m = cliopt_match(name, argc, argv, i, &v, true, err, errlen)) != 0)
#define BAD(name, what)                                                                          \
    do {                                                                                         \
        snprintf(err, errlen, "option %s: '%s' is not %s", name, v, what);                      \
        return -1;                                                                               \
    } while (0)
    uint64_t x;
    if (OPT("--trace")) {
        if (m < 0)
            return -1;
        o->trace_path = v;
    } else if (OPT("--trace-all")) {
        if (m < 0)
            return -1;
        o->all_path = v;
    } else if (OPT("--trace-mode")) {
        if (m < 0)
            return -1;
        if (strcmp(v, "burst") == 0)
            o->mode = TRACE_MODE_BURST;
        else if (strcmp(v, "reduce") == 0)
            o->mode = TRACE_MODE_REDUCE;
        else if (strcmp(v, "spatial") == 0)
            o->mode = TRACE_MODE_SPATIAL;
        else
            BAD("--trace-mode", "burst, reduce or spatial");
    } else if (OPT("--trace-spatial-rate")) {
        if (m < 0)
            return -1;
        if (!parse_num(v, UINT32_MAX, &x) || !mt_spatial_rate_ok(x))
            BAD("--trace-spatial-rate", "a power of two from 1 to 65536 (keep one part in N)");
        o->spatial_rate = (uint32_t)x;
    } else if (OPT("--trace-reduce-budget")) {
        if (m < 0)
            return -1;
        if (!parse_bytes(v, &x) || x < MT_REDUCE_BUDGET_MIN || x > MT_REDUCE_BUDGET_MAX || x % 4096)
            BAD("--trace-reduce-budget", "a byte count, a multiple of 4K from 4K to 1G (e.g. 1M)");
        o->reduce_budget = x;
        o->reduce_budget_given = true;
    } else if (OPT("--trace-reduce-check")) {
        if (m < 0)
            return -1;
        if (!parse_reduce_sizes(v, &o->reduce_check))
            BAD("--trace-reduce-check", "'all' or a list of metapage sizes 4K..2M (e.g. 1M,2M)");
    } else if (OPT("--waves")) {
        if (m < 0)
            return -1;
        o->waves_path = v;
    } else if (OPT("--waves-from") || OPT("--waves-to")) {
        if (m < 0)
            return -1;
        bool from = strncmp(argv[*i], "--waves-from", 12) == 0 || strncmp(argv[*i - 1], "--waves-from", 12) == 0;
        if (!parse_num(v, UINT64_MAX - 1, &x))
            BAD(from ? "--waves-from" : "--waves-to", "a cycle number");
        *(from ? &o->waves_from : &o->waves_to) = x;
        o->waves_window = true;
    } else if (OPT("--trace-unit")) {
        if (m < 0)
            return -1;
        int k;
        for (k = 0; k < 3 && strcmp(v, unit_names[k]) != 0; k++)
            ;
        if (k == 3)
            BAD("--trace-unit", "model, rtl or both");
        o->unit = (trace_unit_kind)k;
    } else if (OPT("--trace-start")) {
        if (m < 0)
            return -1;
        if (strcmp(v, "reset") == 0)
            o->start_at_reset = true;
        else if (strcmp(v, "firmware") == 0)
            o->start_at_reset = false;
        else
            BAD("--trace-start", "reset or firmware");
    } else if (OPT("--trace-thread")) {
        if (m < 0)
            return -1;
        if (strcmp(v, "on") == 0)
            o->model_thread = true;
        else if (strcmp(v, "off") == 0)
            o->model_thread = false;
        else
            BAD("--trace-thread", "on or off");
    } else if (OPT("--trace-kinds")) {
        if (m < 0)
            return -1;
        if (!parse_kinds(v, &o->cfg.kind_mask))
            BAD("--trace-kinds", "a list of fetch, load, store, amo, ptw (or all)");
    } else if (OPT("--trace-all-kinds")) {
        if (m < 0)
            return -1;
        if (!parse_kinds(v, &o->all_kinds))
            BAD("--trace-all-kinds", "a list of fetch, load, store, amo, ptw (or all)");
    } else if (OPT("--trace-tap")) {
        if (m < 0)
            return -1;
        unsigned t;
        if (!parse_tap(v, &t))
            BAD("--trace-tap", "core or dram");
        o->cfg.tap = t;
    } else if (OPT("--trace-all-format")) {
        if (m < 0)
            return -1;
        if (strcmp(v, "records") == 0)
            o->all_runs = false;
        else if (strcmp(v, "runs") == 0)
            o->all_runs = true;
        else
            BAD("--trace-all-format", "records or runs");
    } else if (OPT("--trace-all-tap")) {
        if (m < 0)
            return -1;
        if (!parse_tap(v, &o->all_tap))
            BAD("--trace-all-tap", "core or dram");
    } else if (OPT("--trace-rate-h") || OPT("--trace-rate-l")) {
        if (m < 0)
            return -1;
        bool h = strncmp(argv[*i], "--trace-rate-l", 14) != 0 && strncmp(argv[*i - 1], "--trace-rate-l", 14) != 0;
        if (!parse_num(v, UINT32_MAX, &x) || x == 0)
            BAD(h ? "--trace-rate-h" : "--trace-rate-l", "a number of cycles from 1 to 2^32-1");
        *(h ? &o->cfg.rate_h : &o->cfg.rate_l) = (uint32_t)x;
    } else if (OPT("--trace-len-h") || OPT("--trace-len-l")) {
        if (m < 0)
            return -1;
        bool h = strncmp(argv[*i], "--trace-len-l", 13) != 0 && strncmp(argv[*i - 1], "--trace-len-l", 13) != 0;
        if (!parse_cycles(v, &x))
            BAD(h ? "--trace-len-h" : "--trace-len-l", "a length below 2^40 cycles (e.g. 1000000, 1s, 20ms)");
        *(h ? &o->cfg.len_h : &o->cfg.len_l) = x;
    } else if (OPT("--trace-fmt-h") || OPT("--trace-fmt-l")) {
        if (m < 0)
            return -1;
        bool h = strncmp(argv[*i], "--trace-fmt-l", 13) != 0 && strncmp(argv[*i - 1], "--trace-fmt-l", 13) != 0;
        uint32_t f;
        if (!parse_fmt(v, &f))
            BAD(h ? "--trace-fmt-h" : "--trace-fmt-l", "a format (48, 32, full, line)");
        unsigned shift = h ? MT_FMT_H_SHIFT : MT_FMT_L_SHIFT;
        o->cfg.fmt = (o->cfg.fmt & ~(MT_FMT_FIELD_MASK << shift)) | f << shift;
    } else if (OPT("--trace-sync-period")) {
        if (m < 0)
            return -1;
        if (!parse_num(v, MT_SYNC_PERIOD_MAX, &x) || x < MT_SYNC_PERIOD_MIN)
            BAD("--trace-sync-period", "a number of bytes from 64 to 8192");
        o->cfg.sync_period = (uint32_t)x;
    } else if (OPT("--trace-fifo-depth")) {
        if (m < 0)
            return -1;
        if (!parse_num(v, 65536, &x) || x < 32)
            BAD("--trace-fifo-depth", "a number of bytes from 32 to 65536");
        o->fifo_depth = (uint32_t)x;
    } else if (OPT("--trace-fifo-drain")) {
        if (m < 0)
            return -1;
        if (!parse_num(v, MT_UNIT_MAX_DRAIN, &x) || x < 1)
            BAD("--trace-fifo-drain", "a number of bytes per cycle from 1 to 8");
        o->fifo_drain = (uint32_t)x;
    } else if ((m = cliopt_match("--trace-reduce-unit", argc, argv, i, &v, false, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        o->reduce_unit = true;
    } else if ((m = cliopt_match("--trace-spatial-unit", argc, argv, i, &v, false, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        o->spatial_unit = true;
    } else if ((m = cliopt_match("--trace-all-ram", argc, argv, i, &v, false, err, errlen)) != 0) {
        o->all_ram_only = true;
    } else {
        return 0;
    }
    return 1;
#undef OPT
#undef BAD
}

int trace_options_extract(struct trace_options *o, int *argc, char **argv, char *err, size_t errlen)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[kept++] = argv[i++];
            break;
        }
        int rc = parse_one(o, *argc, argv, &i, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0)
            argv[kept++] = argv[i];
    }
    *argc = kept;
    argv[kept] = NULL;
    /* the spatial mode of the RTL is the unit's front end (lib/mt_unit_spatial.h): one burst at
     * r = 1 in the full format, whatever the unit's other options say (its records are SAMPLEs) */
    if (o->spatial_unit && o->mode != TRACE_MODE_SPATIAL) {
        snprintf(err, errlen, "option --trace-spatial-unit: needs --trace-mode spatial");
        return -1;
    }
    if (o->mode == TRACE_MODE_SPATIAL && o->unit != TRACE_UNIT_MODEL)
        o->spatial_unit = true;
    if (o->reduce_check && (o->mode != TRACE_MODE_REDUCE || !o->trace_path || o->reduce_unit ||
                            o->unit != TRACE_UNIT_MODEL)) {
        snprintf(err, errlen, "option --trace-reduce-check: needs --trace FILE with --trace-mode reduce "
                 "(the software filter: no --trace-reduce-unit or --trace-unit=rtl|both)");
        return -1;
    }
    if (o->reduce_unit && o->mode != TRACE_MODE_REDUCE) {
        snprintf(err, errlen, "option --trace-reduce-unit: needs --trace-mode reduce");
        return -1;
    }
    /* the reduce mode of the RTL is the unit's reduce path (lib/mt_unit_rd.c): the same program,
     * a budget of 4K << k pages (k = 0..10) */
    if (o->mode == TRACE_MODE_REDUCE && o->unit != TRACE_UNIT_MODEL) {
        if (!o->reduce_budget_given)
            o->reduce_budget = UNIT_REDUCE_DEFAULT_BUDGET;
        const uint64_t b = o->reduce_budget;
        if (b < 4096 || b > (UINT64_C(4096) << MT_REDUCE_LGK_MAX) || (b & (b - 1))) {
            snprintf(err, errlen, "option --trace-reduce-budget: the unit's reduce path (--trace-unit=%s) takes "
                     "a power of two from 4K to 4M, not %" PRIu64, o->unit == TRACE_UNIT_RTL ? "rtl" : "both", b);
            return -1;
        }
        o->unit_reduce = true;
        o->reduce_unit = false; /* (the unit's own path, not the software model beside it) */
    }
    if (o->spatial_unit || o->unit_reduce) {
        o->cfg.rate_h = 1;
        o->cfg.fmt = MT_FMT_FULL << MT_FMT_H_SHIFT | MT_FMT_FULL << MT_FMT_L_SHIFT;
        o->cfg.len_h = o->cfg.len_l = 0;
    }
    /* the waveform is the RTL's, and the unit runs only while tracing */
    if (o->waves_window && !o->waves_path) {
        snprintf(err, errlen, "option --waves-from/--waves-to: give --waves FILE.fst too");
        return -1;
    }
    if (o->waves_path && o->unit == TRACE_UNIT_MODEL) {
        snprintf(err, errlen, "option --waves: the waveform is the RTL unit's: give --trace-unit=rtl or both");
        return -1;
    }
    if (o->waves_path && !o->trace_path) {
        snprintf(err, errlen, "option --waves: needs --trace FILE.mtr (the unit runs only while tracing)");
        return -1;
    }
    if (o->waves_from >= o->waves_to) {
        snprintf(err, errlen, "option --waves-from %" PRIu64 " is not before --waves-to %" PRIu64, o->waves_from,
                 o->waves_to);
        return -1;
    }
    return 0;
}

/* The spatial header's mode, base rate and per-size rates ("trace.spatial_rates=r0,...,r9", no
 * newline after the list), appended at info[n]; returns the new length (>= cap when cut). */
static size_t spatial_rates_info(char *info, size_t cap, size_t n, uint32_t rate)
{
    if (n < cap)
        n += (size_t)snprintf(info + n, cap - n, "trace.mode=spatial\ntrace.spatial_rate=%" PRIu32
                              "\ntrace.spatial_rates=", rate);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES && n < cap; i++)
        n += (size_t)snprintf(info + n, cap - n, "%s%" PRIu32, i ? "," : "", mt_spatial_rate_of(rate, i));
    return n;
}

/* ---- the session ------------------------------------------------------------------------- */

/* trace.spatial_max of the unit's spatial stream: its rates never double (lib/mt_unit_spatial.h),
 * which a reader's rule reproduces with a set no guest fills (the format's largest S, 2^20
 * metapages: 4 GiB at 4K). */
#define TRACE_UNIT_SPATIAL_MAX (1u << 20)

typedef struct {
    mt_rtl *r;
    mt_writer *w;
} rtl_side;

/* --trace-all's batch (16 bytes a sample): small enough to stay in the first-level cache */
#define ALL_BATCH 1024u
#define SP_BATCH 1024u

struct trace_session {
    struct trace_options o;
    uint64_t ram_base, ram_end;
    mt_writer *w;    /* --trace */
    mt_writer *all;  /* --trace-all */
    mt_writer *red_w; /* --trace with --trace-mode reduce or spatial: size-masked records */
    mt_reduce red;
    bool red_init, red_started, red_failed;
    mt_unit_reduce ured; /* --trace-reduce-unit: the filter instead of red (red_init stays false) */
    bool ured_init;
    mt_rcheck rcheck; /* --trace-reduce-check: LRU at C = k beside the filter (rcheck.mask != 0) */
    mt_spatial sp;    /* --trace-mode spatial (red_w, red_started, red_failed shared) */
    bool sp_init;
    bool sp_last_in;  /* the last access the recorder heard went into the spatial filter */
    /* the spatial filter's records not yet encoded (after the first, which opens the section: the
     * filter's buffer, mt_spatial_set_buffer): encoded SP_BATCH at a time by mt_writer_samples,
     * whose loop keeps the compressor's state in registers (the bytes are those of one
     * mt_writer_sample per record: lib/mt_swenc.c); handed over when full and at
     * mt_spatial_finish, before the trailer (nothing else writes to red_w meanwhile) */
    mt_access_rec sp_buf[SP_BATCH];
    bool all_started;
    bool all_failed; /* a --trace-all write failed: the run was stopped for it */
    uint64_t all_samples, all_markers;
    /* --trace-all's samples not yet encoded: appended per access, encoded ALL_BATCH at a time
     * (all_flush) in one loop that keeps the compressor's state in registers; flushed before a
     * marker and at the end, so the stream's bytes are those of one mt_writer_sample per access */
    unsigned all_n;
    mt_access_rec all_buf[ALL_BATCH];
    /* The model and the device on cache lines of their own: with the model on its own thread
     * (emu/trace/tracepipe.h) each is written per sample by a different core. */
    _Alignas(64) mt_unit unit; /* model */
    _Alignas(64) bool unit_init;
    mt_lockstep *ls; /* both */
    rtl_side rtl;    /* rtl */
    char *waves_tmp; /* --waves: written as FILE.fst.partial, renamed when the run ends well */
    bool waves_ok;
    _Alignas(64) mt_tracedev dev;
    mt_device busdev;
    bool finished;
};

/* RTL alone: every access goes in (it has no next-due notion), output bytes go to the writer. */
static void rtl_drain(rtl_side *s)
{
    uint8_t buf[4096];
    size_t n;
    while ((n = mt_rtl_pop(s->r, buf, sizeof buf)) > 0)
        if (s->w)
            mt_writer_raw(s->w, buf, n);
}

static bool rtl_access(void *ctx, const mt_access *a)
{
    rtl_side *s = ctx;
    if (mt_rtl_access(s->r, a) != 0)
        return true; /* a cycle already used: the RTL cannot take it (filtered before) */
    if (mt_rtl_pending(s->r) >= 4096)
        rtl_drain(s);
    return true;
}

static bool rtl_mmio_write(void *ctx, uint64_t cycle, uint32_t off, uint32_t val)
{
    rtl_side *s = ctx;
    if (mt_rtl_mmio_write(s->r, cycle, off, val) != 0) {
        fprintf(stderr, "mtemu: --trace-unit=rtl: the RTL refused a register write at cycle %" PRIu64 "\n", cycle);
        return false;
    }
    rtl_drain(s);
    return true;
}

static uint32_t rtl_mmio_read(void *ctx, uint64_t cycle, uint32_t off, bool *ok)
{
    rtl_side *s = ctx;
    *ok = true;
    uint32_t v = mt_rtl_mmio_read(s->r, cycle, off);
    rtl_drain(s);
    return v;
}

static uint64_t rtl_next_due(void *ctx)
{
    (void)ctx;
    return 0;
}
static uint64_t rtl_now(void *ctx) { return mt_rtl_now(((rtl_side *)ctx)->r); }
/* The RTL's own registers, clocked up to the access when a write is pending (not a copy kept
 * here: a copy cannot tell an enable the unit refused, STATUS.BUSY, from one it took, nor the
 * cycle a write applies at).  trace_session_create checks that this build names them. */
static unsigned rtl_tap_at(void *ctx, uint64_t cycle)
{
    return (unsigned)mt_rtl_tap_at(((rtl_side *)ctx)->r, cycle);
}

static bool rtl_stop(void *ctx, uint64_t cycle)
{
    rtl_side *s = ctx;
    if (mt_rtl_mmio_write(s->r, cycle, MT_REG_CTRL, 0) != 0)
        return false;
    for (uint64_t t = cycle + 1; t < cycle + RTL_STOP_LIMIT; t++) {
        uint32_t st = mt_rtl_mmio_read(s->r, t, MT_REG_STATUS);
        rtl_drain(s);
        if (!(st & MT_STATUS_BUSY) && (st & MT_STATUS_FIFO_EMPTY)) {
            mt_rtl_advance(s->r, t + 1);
            rtl_drain(s);
            return true;
        }
    }
    fprintf(stderr, "mtemu: --trace-unit=rtl: the RTL did not finish its session within %" PRIu64 " cycles\n",
            RTL_STOP_LIMIT);
    return false;
}

static tracedev_backend rtl_backend(rtl_side *s)
{
    return (tracedev_backend){.ctx = s, .access = rtl_access, .mmio_write = rtl_mmio_write,
                              .mmio_read = rtl_mmio_read, .next_due = rtl_next_due, .now = rtl_now,
                              .tap_at = rtl_tap_at, .stop = rtl_stop};
}

/* Model and RTL in lockstep (rtl_model/sim/mt_lockstep.h): the model's bytes go to the file. */
static bool ls_access(void *ctx, const mt_access *a)
{
    return mt_lockstep_access(ctx, a) == 0 && mt_lockstep_advance(ctx, a->cycle + 1) == 0; /* see model_access */
}
static bool ls_mmio_write(void *ctx, uint64_t cycle, uint32_t off, uint32_t val)
{
    return mt_lockstep_mmio_write(ctx, cycle, off, val) == 0;
}
static uint32_t ls_mmio_read(void *ctx, uint64_t cycle, uint32_t off, bool *ok)
{
    int same = 1;
    uint32_t v = mt_lockstep_mmio_read(ctx, cycle, off, &same);
    *ok = same && !mt_lockstep_diverged(ctx);
    return v;
}
static uint64_t ls_next_due(void *ctx) { return mt_unit_next_due(mt_lockstep_model(ctx)); }
static uint64_t ls_now(void *ctx) { return mt_lockstep_model(ctx)->now; }
static unsigned ls_tap_at(void *ctx, uint64_t cycle) { return mt_lockstep_tap_at(ctx, cycle, NULL); }
static bool ls_stop(void *ctx, uint64_t cycle) { return mt_lockstep_stop(ctx, cycle, NULL) == 0; }

static tracedev_backend lockstep_backend(mt_lockstep *l)
{
    return (tracedev_backend){.ctx = l, .access = ls_access, .mmio_write = ls_mmio_write,
                              .mmio_read = ls_mmio_read, .next_due = ls_next_due, .now = ls_now,
                              .tap_at = ls_tap_at, .stop = ls_stop};
}

/* The every-access recorder: one burst section at rate 1, full format, from the first access. */
static bool all_start(struct trace_session *s, uint64_t cycle)
{
    if (s->all_started)
        return true;
    s->all_started = true;
    return mt_writer_section(s->all, 0, MT_FMT_FULL, 1, cycle) == 0;
}

/* Encodes the batched samples; false (all_failed) when the writer refused them. */
static bool all_flush(struct trace_session *s)
{
    const unsigned n = s->all_n;
    s->all_n = 0;
    if (n && mt_writer_samples(s->all, s->all_buf, n) != 0) {
        s->all_failed = true; /* trace_session_finish says what failed */
        return false;
    }
    return true;
}

/* Also the recorder's access call itself when --trace-all is alone (no reduce or spatial filter):
 * the device then hands it only accesses of all_kinds on all_tap, rec_access's own test. */
static bool all_access(void *ctx, const mt_access *a)
{
    struct trace_session *s = ctx;
    if (s->o.all_ram_only && (a->addr < s->ram_base || a->addr >= s->ram_end))
        return true;
    if (!all_start(s, a->cycle))
        return false;
    s->all_buf[s->all_n++] = (mt_access_rec){.cycle = a->cycle, .addr_rw = a->addr | (a->write ? MT_ACCESS_REC_WRITE : 0) |
                                                                            (a->kind == MT_KIND_FETCH ? MT_ACCESS_REC_FETCH : 0)};
    s->all_samples++;
    return s->all_n < ALL_BATCH || all_flush(s);
}

/* all_access for a batch (the device's every-access buffer: tracedev_recorder.access_batch), after
 * the samples all_access batched before it. */
static bool all_batch(void *ctx, mt_access_rec *r, size_t n)
{
    struct trace_session *s = ctx;
    if (s->o.all_ram_only) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const uint64_t addr = r[i].addr_rw & MT_PADDR_MASK;
            if (addr >= s->ram_base && addr < s->ram_end)
                r[k++] = r[i];
        }
        n = k;
    }
    if (!n)
        return true;
    if (!all_start(s, r[0].cycle) || !all_flush(s))
        return false;
    s->all_samples += n;
    if (mt_writer_samples(s->all, r, n) != 0) {
        s->all_failed = true; /* trace_session_finish says what failed */
        return false;
    }
    return true;
}

/* Reduce and spatial modes: every guest-RAM access of --trace-kinds / --trace-tap through the
 * filter; its records (reference order, size mask in address bits 11:0) become full-format
 * samples. */
/* The first departure --trace-reduce-check finds ends the run: what follows would be its echo. */
static void rcheck_stop(struct trace_session *s)
{
    fprintf(stderr, "mtemu: --trace-reduce-check: the reduction is not exact here\n%s", mt_rcheck_error(&s->rcheck));
    fflush(NULL);
    exit(3);
}

static void red_record(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    struct trace_session *s = ctx;
    if (s->rcheck.mask && mt_rcheck_record(&s->rcheck, cycle, page, mask) != 0)
        rcheck_stop(s);
    if (s->red_failed)
        return;
    if (!s->red_started) {
        s->red_started = true;
        if (mt_writer_section(s->red_w, 0, MT_FMT_FULL, 1, cycle) != 0)
            s->red_failed = true;
    }
    if (!s->red_failed && mt_writer_sample(s->red_w, cycle, page << 12 | mask, rw) != 0)
        s->red_failed = true;
    if (s->red_failed)
        fprintf(stderr, "mtemu: --trace (%s): %s\n", s->sp_init ? "spatial" : "reduce", mt_writer_error(s->red_w));
}

static bool red_access(struct trace_session *s, const mt_access *a)
{
    if (!((s->o.cfg.kind_mask >> a->kind) & 1) || a->tap != s->o.cfg.tap)
        return true;
    if (a->addr < s->ram_base || a->addr >= s->ram_end)
        return true;
    if (s->ured_init) {
        mt_urd_access(&s->ured, a->cycle, a->addr, a->write);
        return !s->red_failed;
    }
    if (s->rcheck.mask) { /* first: the access's own record may leave at once */
        mt_rcheck_access(&s->rcheck, a->cycle, a->addr);
        if (s->rcheck.failed)
            rcheck_stop(s);
    }
    mt_reduce_access(&s->red, a->cycle, a->addr, a->write);
    return !s->red_failed && !s->red.oom;
}

static bool sp_access(struct trace_session *s, const mt_access *a)
{
    s->sp_last_in = false;
    if (!((s->o.cfg.kind_mask >> a->kind) & 1) || a->tap != s->o.cfg.tap)
        return true;
    if (a->addr < s->ram_base || a->addr >= s->ram_end)
        return true;
    s->sp_last_in = true;
    mt_spatial_access(&s->sp, a->cycle, a->addr, a->write);
    return !s->red_failed;
}

/* The spatial filter's sink: red_record once the section is open and nothing failed, with the
 * first record's and a failure's work out of the way (a Linux run has a record per 2 accesses). */
static void sp_flush(void *ctx, const mt_access_rec *r, uint32_t n)
{
    struct trace_session *s = ctx;
    if (!s->red_failed && mt_writer_samples(s->red_w, r, n) != 0) {
        s->red_failed = true;
        fprintf(stderr, "mtemu: --trace (spatial): %s\n", mt_writer_error(s->red_w));
    }
}

/* The spatial filter's sink until the section is open (the first record), then its buffer. */
static void sp_record(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    struct trace_session *s = ctx;
    red_record(ctx, cycle, page, rw, mask);
    if (s->red_started && !s->red_failed)
        mt_spatial_set_buffer(&s->sp, s->sp_buf, SP_BATCH, sp_flush);
}

/* The CPU's page filter kept n repeats of the last access's page from the spatial recorder: they
 * count as accesses of the filter when that one did (guest RAM), and change nothing else. */
static void sp_skipped(void *ctx, uint64_t n)
{
    struct trace_session *s = ctx;
    if (s->sp_last_in)
        mt_spatial_repeats(&s->sp, n);
}

/* The recorder: --trace-all and/or the reduce or spatial filter.  The reduce filter alone needs
 * only the accesses that change the page (repeats change nothing in it), and once an alternation
 * has settled only the last steps of it: the CPU's page filter keeps the rest in the interpreter. */
static bool rec_access(void *ctx, const mt_access *a)
{
    struct trace_session *s = ctx;
    if ((s->red_init || s->ured_init) && !red_access(s, a))
        return false;
    if (s->sp_init && !sp_access(s, a))
        return false;
    if (s->all && ((s->o.all_kinds >> a->kind) & 1) && a->tap == s->o.all_tap)
        return all_access(ctx, a);
    uint64_t last, other;
    if (s->red_init && mt_reduce_settled(&s->red, &last, &other))
        tracedev_page_pair(&s->dev, last, other);
    return true;
}

/* rec_access for the reduce filter alone (no --trace-all, spatial or unit model beside it), the
 * recorder behind the CPU's page filter on the Linux runs' every page change: the device hands it
 * only accesses of cfg's kinds and tap (the recorder's kind_mask and tap are those then), so what
 * is left to ask is guest RAM, and whether an alternation has settled. */
static bool red_only_access(void *ctx, const mt_access *a)
{
    struct trace_session *s = ctx;
    if (a->addr >= s->ram_base && a->addr < s->ram_end) {
        mt_reduce_access(&s->red, a->cycle, a->addr, a->write);
        if (s->red_failed || s->red.oom)
            return false;
    }
    uint64_t last, other;
    if (mt_reduce_settled_inline(&s->red, &last, &other))
        tracedev_page_pair(&s->dev, last, other);
    return true;
}

/* red_only_access for a run of page changes (the CPU's page log, tracedev_recorder.page_batch):
 * the filter's own batch, which stops where red_only_access would arm the pair. */
static uint32_t red_only_pages(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord,
                               uint64_t *ord_last, uint32_t n, uint64_t pair[2], bool *ok)
{
    struct trace_session *s = ctx;
    (void)ord, (void)ord_last; /* (no skipped) */
    uint64_t p[2];
    const uint32_t m = (uint32_t)mt_reduce_access_run(&s->red, stamp, word, n, 8, s->ram_base, s->ram_end,
                                                      pair ? p : NULL);
    if (s->red_failed || s->red.oom) { /* red_only_access's failure: no pair */
        *ok = false;
        return m;
    }
    if (pair && mt_reduce_settled_inline(&s->red, &p[0], &p[1])) {
        pair[0] = p[0];
        pair[1] = p[1];
    }
    return m;
}

/* rec_access for the spatial filter alone (no --trace-all, reduce filter or unit model beside it),
 * as red_only_access is for the reduce filter: the device hands it only accesses of cfg's kinds and
 * tap, so sp_access's decision is the guest-RAM test. */
static bool sp_only_access(void *ctx, const mt_access *a)
{
    struct trace_session *s = ctx;
    s->sp_last_in = a->addr >= s->ram_base && a->addr < s->ram_end;
    if (s->sp_last_in)
        mt_spatial_access(&s->sp, a->cycle, a->addr, a->write);
    return !s->red_failed;
}

/* sp_only_access for a run of page changes (the CPU's page log, tracedev_recorder.page_batch),
 * with sp_skipped's count of the repeats between them from their ordinals. */
static uint32_t sp_only_pages(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord,
                              uint64_t *ord_last, uint32_t n, uint64_t pair[2], bool *ok)
{
    struct trace_session *s = ctx;
    (void)pair;
    int in = s->sp_last_in;
    mt_spatial_access_run(&s->sp, stamp, word, ord, n, 8, s->ram_base, s->ram_end, ord_last, &in);
    s->sp_last_in = in;
    /* a write error stops the hart after the run (sp_record, then red_record, write nothing more) */
    *ok = !s->red_failed;
    return n;
}

static bool all_marker(void *ctx, uint64_t cycle, uint32_t value)
{
    struct trace_session *s = ctx;
    if (!s->all)
        return true;
    if (!all_start(s, cycle) || !all_flush(s))
        return false;
    s->all_markers++;
    return mt_writer_marker(s->all, value) == 0;
}

static const char *fmt_name(unsigned f)
{
    static const char *const names[4] = {"48", "32", "full", "line"};
    return names[f & 3];
}

static void kinds_text(uint32_t mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < MT_KIND_COUNT; k++)
        if ((mask >> k) & 1)
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? "," : "", kind_names[k]);
}

static void run_info(const struct trace_options *o, const trace_run_info *ri, bool all, char *buf, size_t cap)
{
    const char *prog = ri->program ? strrchr(ri->program, '/') : NULL;
    prog = prog ? prog + 1 : (ri->program ? ri->program : "");
    char kinds[64], runs[160];
    kinds_text(all ? o->all_kinds : o->cfg.kind_mask, kinds, sizeof kinds);
    /* the runs stream names itself, and the records stream it stands for (mt_runs.h) */
    snprintf(runs, sizeof runs, "trace.mode=%s\ntrace.runs_format=%u\ntrace.all_sync_period=%u\n", MT_RUNS_MODE,
             MT_RUNS_VERSION, o->cfg.sync_period);
    snprintf(buf, cap,
             "memory.ram=0x%" PRIx64 "+0x%" PRIx64 "\n"
             "memory.trace_unit=0x%lx+0x%lx\n"
             "memory.uart=0x10000000+0x100\n"
             "memory.clint=0x2000000+0x10000\n"
             "memory.plic=0xc000000+0x600000\n"
             "memory.finisher=0x100000+0x1000\n"
             "program=%s\n"
             "bootargs=%s\n"
             "timing=%s\n"
             "mode=%s\n"
             "kinds=%s\n"
             "tap=%s\n"
             "start=%s\n"
             "format.burst=%s\n"
             "format.span=%s\n"
             "%s%s",
             ri->ram_base, ri->ram_size, MT_REGS_BASE, MT_REGS_SIZE, prog, ri->append ? ri->append : "",
             ri->timing ? ri->timing : "none", all ? "every-access" : "trace-unit", kinds,
             (all ? o->all_tap : o->cfg.tap) ? "dram" : "core", all ? "reset" : (o->start_at_reset ? "reset" : "firmware"),
             all ? "full" : fmt_name(o->cfg.fmt >> MT_FMT_H_SHIFT), all ? "full" : fmt_name(o->cfg.fmt >> MT_FMT_L_SHIFT),
             all ? (o->all_ram_only ? "range=ram\n" : "range=all\n") : "", all && o->all_runs ? runs : "");
}

/* --waves: the temporary name, checked writable now (Verilator's FST writer would only say later). */
static bool waves_begin(struct trace_session *s, char *err, size_t errlen)
{
    err[0] = '\0';
    size_t n = strlen(s->o.waves_path) + sizeof MT_OUTFILE_SUFFIX;
    s->waves_tmp = malloc(n);
    if (!s->waves_tmp) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    snprintf(s->waves_tmp, n, "%s%s", s->o.waves_path, MT_OUTFILE_SUFFIX);
    FILE *f = fopen(s->waves_tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "--waves %s: cannot create: %s", s->o.waves_path, strerror(errno));
        free(s->waves_tmp);
        s->waves_tmp = NULL;
        return false;
    }
    fclose(f);
    return true;
}

/* After the RTL closed its waveform: into place when the run ended well, else removed. */
static void waves_end(struct trace_session *s)
{
    if (!s->waves_tmp)
        return;
    if (!s->waves_ok || rename(s->waves_tmp, s->o.waves_path) != 0) {
        if (s->waves_ok)
            fprintf(stderr, "mtemu: --waves %s: %s\n", s->o.waves_path, strerror(errno));
        remove(s->waves_tmp);
    }
    free(s->waves_tmp);
    s->waves_tmp = NULL;
}

struct trace_session *trace_session_create(const struct trace_options *o, const trace_run_info *ri, char *err,
                                           size_t errlen)
{
    struct trace_session *s = aligned_alloc(_Alignof(struct trace_session), sizeof *s);
    if (s)
        memset(s, 0, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->o = *o;
    s->ram_base = ri->ram_base;
    s->ram_end = ri->ram_base + ri->ram_size;
    char info[1024], producer[64];
    if (o->trace_path && o->mode != TRACE_MODE_BURST) {
        const char *mn = o->mode == TRACE_MODE_REDUCE ? "reduce" : "spatial";
        if (o->all_path && o->all_tap != o->cfg.tap) {
            snprintf(err, errlen, "--trace-mode %s and --trace-all record one tap: give the same "
                     "--trace-tap and --trace-all-tap", mn);
            goto fail;
        }
    }
    if (o->trace_path && o->mode == TRACE_MODE_SPATIAL && !o->spatial_unit) {
        size_t n;
        run_info(o, ri, false, info, sizeof info);
        n = strlen(info);
        n = spatial_rates_info(info, sizeof info, n, o->spatial_rate);
        if (n < sizeof info)
            snprintf(info + n, sizeof info - n, "\ntrace.spatial_max=%u\ntrace.spatial_rule=bitmap-%u\n"
                     "trace.spatial_sizes=4K..2M\ntrace.spatial_hash=h3-splitmix0\nrange=ram\n",
                     MT_SPATIAL_SAMPLE_MAX, MT_SPATIAL_MAP_LOG2);
        mt_writer_config wc = {.producer = "mtemu 1.0 --trace-mode=spatial", .info = info, .ref_hz = REF_HZ,
                               .sync_period = o->cfg.sync_period};
        s->red_w = mt_writer_create(o->trace_path, &wc, err, errlen);
        if (!s->red_w)
            goto fail;
        if (mt_spatial_init(&s->sp, o->spatial_rate, sp_record, s) != 0) {
            snprintf(err, errlen, "--trace-spatial-rate %" PRIu32 ": not a rate the filter takes", o->spatial_rate);
            goto fail;
        }
        s->sp_init = true;
    } else if (o->trace_path && o->mode == TRACE_MODE_REDUCE && !o->unit_reduce) {
        size_t n;
        run_info(o, ri, false, info, sizeof info);
        n = strlen(info);
        n += (size_t)snprintf(info + n, sizeof info - n, "trace.mode=reduce\ntrace.reduce_budget=%" PRIu64 "\n"
                              "trace.reduce_sizes=4K..2M\nrange=ram\n", o->reduce_budget);
        if (o->reduce_unit && n < sizeof info)
            snprintf(info + n, sizeof info - n, "trace.reduce_unit=1\ntrace.reduce_window=%u\ntrace.reduce_queue=%u\n",
                     TRACE_REDUCE_UNIT_W, TRACE_REDUCE_UNIT_Q);
        mt_writer_config wc = {.producer = "mtemu 1.0 --trace-mode=reduce", .info = info, .ref_hz = REF_HZ,
                               .sync_period = o->cfg.sync_period};
        s->red_w = mt_writer_create(o->trace_path, &wc, err, errlen);
        if (!s->red_w)
            goto fail;
        int rc = o->reduce_unit ? mt_urd_init(&s->ured, o->reduce_budget, TRACE_REDUCE_UNIT_W, TRACE_REDUCE_UNIT_Q,
                                              red_record, s)
                                : mt_reduce_init(&s->red, o->reduce_budget, red_record, s);
        if (rc != 0) {
            snprintf(err, errlen, "--trace-reduce-budget %" PRIu64 ": cannot build the filter", o->reduce_budget);
            goto fail;
        }
        s->ured_init = o->reduce_unit;
        s->red_init = !o->reduce_unit;
        if (o->reduce_check && mt_rcheck_init(&s->rcheck, o->reduce_budget, o->reduce_check) != 0) {
            snprintf(err, errlen, "--trace-reduce-check: cannot build the check (out of memory)");
            goto fail;
        }
    } else if (o->trace_path) {
        snprintf(producer, sizeof producer, "mtemu 1.0 --trace-unit=%s", unit_names[o->unit]);
        run_info(o, ri, false, info, sizeof info);
        if (o->spatial_unit) { /* the unit's spatial mode: fixed rates, i.e. a set that never fills */
            size_t n = strlen(info);
            n = spatial_rates_info(info, sizeof info, n, o->spatial_rate);
            if (n < sizeof info)
                snprintf(info + n, sizeof info - n, "\ntrace.spatial_max=%u\ntrace.spatial_sizes=4K..2M\n"
                         "trace.spatial_hash=h3-splitmix0\ntrace.spatial_unit=1\n", TRACE_UNIT_SPATIAL_MAX);
        }
        if (o->unit_reduce) { /* the unit's reduce mode: its path's records, SAMPLEs of the stream */
            size_t n = strlen(info);
            if (n < sizeof info)
                snprintf(info + n, sizeof info - n, "trace.mode=reduce\ntrace.reduce_budget=%" PRIu64
                         "\ntrace.reduce_sizes=4K..2M\ntrace.reduce_unit=1\ntrace.reduce_window=%u\n"
                         "trace.reduce_queue=%u\ntrace.reduce_in_unit=1\n", o->reduce_budget,
                         MT_UNIT_REDUCE_W, MT_UNIT_REDUCE_Q);
        }
        mt_writer_config wc = {.producer = producer, .info = info, .ref_hz = REF_HZ,
                               .sync_period = o->cfg.sync_period, .unit_cfg = &o->cfg,
                               .fifo_depth = o->fifo_depth, .fifo_drain = o->fifo_drain};
        s->w = mt_writer_create(o->trace_path, &wc, err, errlen);
        if (!s->w)
            goto fail;
    }
    if (o->all_path) {
        run_info(o, ri, true, info, sizeof info);
        mt_writer_config wc = {.producer = "mtemu 1.0 --trace-all", .info = info, .ref_hz = REF_HZ,
                               .sync_period = o->cfg.sync_period};
        s->all = mt_writer_create(o->all_path, &wc, err, errlen);
        if (!s->all)
            goto fail;
        if (o->all_runs)
            mt_writer_runs(s->all);
    }
    mt_unit_params p = {.depth = o->fifo_depth, .drain = o->fifo_drain, .sink = s->w ? mt_writer_sink : NULL,
                        .sink_ctx = s->w};
    tracedev_backend be;
    switch (o->unit) {
    case TRACE_UNIT_MODEL:
        if (mt_unit_init(&s->unit, &p) != 0) {
            snprintf(err, errlen, "--trace: cannot create the trace unit model (FIFO %u bytes, drain %u)",
                     o->fifo_depth, o->fifo_drain);
            goto fail;
        }
        s->unit_init = true;
        if (s->w) /* the index from the unit's own knowledge, not by decoding every frame */
            mt_unit_on_sync(&s->unit, mt_writer_mark, s->w);
        be = tracedev_model_backend(&s->unit);
        break;
    case TRACE_UNIT_RTL:
        if (o->waves_path && !waves_begin(s, err, errlen))
            goto fail;
        s->rtl.r = mt_rtl_create(o->fifo_depth, o->fifo_drain, s->waves_tmp);
        if (!s->rtl.r) {
            snprintf(err, errlen, "--trace-unit=rtl: cannot create the RTL model%s",
                     s->waves_tmp ? " with a waveform" : "");
            goto fail;
        }
        if (mt_rtl_tap(s->rtl.r) < 0) { /* (a gate-level library: no such build is linked into mtemu) */
            snprintf(err, errlen, "--trace-unit=rtl: this RTL build does not name its TAP registers (mt_rtl_tap)");
            goto fail;
        }
        mt_rtl_wave_window(s->rtl.r, o->waves_from, o->waves_to);
        s->rtl.w = s->w;
        be = rtl_backend(&s->rtl);
        break;
    default:
        s->ls = mt_lockstep_create(&p, stderr);
        if (!s->ls) {
            snprintf(err, errlen, "--trace-unit=both: cannot create the model and the RTL");
            goto fail;
        }
        if (o->waves_path && (!waves_begin(s, err, errlen) ||
                              mt_lockstep_waves(s->ls, s->waves_tmp, o->waves_from, o->waves_to) != 0)) {
            if (!*err)
                snprintf(err, errlen, "--waves %s: the RTL library cannot write a waveform", o->waves_path);
            goto fail;
        }
        be = lockstep_backend(s->ls);
        break;
    }
    bool filtered = s->red_init || s->ured_init || s->sp_init;
    tracedev_recorder rec = {.ctx = s, .kind_mask = (s->all ? o->all_kinds : 0) | (filtered ? o->cfg.kind_mask : 0),
                             .tap = s->all ? o->all_tap : o->cfg.tap,
                             .access = s->red_init && !s->all && !s->sp_init && !s->rcheck.mask ? red_only_access
                                       : s->sp_init && !s->all && !s->red_init && !s->ured_init ? sp_only_access
                                       : s->all && !filtered                     ? all_access
                                                                                 : rec_access,
                             .marker = all_marker,
                             .access_batch = s->all && !filtered ? all_batch : NULL,
                             .page_batch = s->red_init && !s->all && !s->sp_init && !s->rcheck.mask ? red_only_pages
                                           : s->sp_init && !s->all && !s->red_init && !s->ured_init ? sp_only_pages
                                                                                                    : NULL,
                             .page_changes = (s->red_init || s->ured_init || s->sp_init) && !s->all,
                             .skipped = s->sp_init ? sp_skipped : NULL};
    tracedev_init(&s->dev, &be, s->all || filtered ? &rec : NULL);
    tracedev_use_thread(&s->dev, o->model_thread);
    s->busdev = tracedev_device(&s->dev);
    return s;
fail:
    trace_session_destroy(s);
    return NULL;
}

const mt_device *trace_session_device(struct trace_session *s) { return &s->busdev; }

void trace_session_attach(struct trace_session *s, mt_cpu *cpu)
{
    /* The command line's register values, one register write per cycle from cycle 0 (the RTL has
     * one MMIO port), only those that differ from reset, then ENABLE.  Nothing is sampled before
     * the enable takes effect, so the boot ROM's first accesses in those cycles change nothing. */
    const mt_unit_cfg *c = &s->o.cfg;
    struct {
        uint32_t off, val, reset;
    } w[] = {
        {MT_REG_KIND_MASK, c->kind_mask, MT_RESET_KIND_MASK},
        {MT_REG_TAP, c->tap, MT_RESET_TAP},
        {MT_REG_FMT, c->fmt, MT_RESET_FMT},
        {MT_REG_SYNC_PERIOD, c->sync_period, MT_RESET_SYNC_PERIOD},
        {MT_REG_RATE_H, c->rate_h, MT_RESET_RATE_H},
        {MT_REG_RATE_L, c->rate_l, MT_RESET_RATE_L},
        {MT_REG_LEN_H_LO, (uint32_t)c->len_h, MT_RESET_LEN_H_LO},
        {MT_REG_LEN_H_HI, (uint32_t)(c->len_h >> 32), MT_RESET_LEN_H_HI},
        {MT_REG_LEN_L_LO, (uint32_t)c->len_l, MT_RESET_LEN_L_LO},
        {MT_REG_LEN_L_HI, (uint32_t)(c->len_l >> 32), MT_RESET_LEN_L_HI},
        {MT_REG_SPATIAL, s->o.spatial_unit ? MT_SPATIAL_EN | (uint32_t)__builtin_ctz(s->o.spatial_rate)
                                                                << MT_SPATIAL_LG2N_SHIFT : 0, 0},
        {MT_REG_REDUCE, s->o.unit_reduce ? MT_REDUCE_EN | (uint32_t)(__builtin_ctzll(s->o.reduce_budget) - 12)
                                                              << MT_REDUCE_LGK_SHIFT : 0, 0},
    };
    uint64_t cycle = 0;
    tracedev_backend *be = &s->dev.be;
    bool ok = true;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (w[i].val != w[i].reset)
            ok = ok && be->mmio_write(be->ctx, cycle++, w[i].off, w[i].val);
    if (s->w && s->o.start_at_reset)
        ok = ok && be->mmio_write(be->ctx, cycle, MT_REG_CTRL, MT_CTRL_ENABLE);
    if (!ok)
        s->dev.failed = true;
    tracedev_attach(&s->dev, cpu);
}

void trace_session_on_turn(void *session, mt_cpu *hart)
{
    struct trace_session *s = session;
    tracedev_set_hart(&s->dev, hart);
}

void trace_session_idle(void *session)
{
    struct trace_session *s = session;
    if (s->finished || s->dev.failed)
        return;
    /* the model's thread has taken every access and is quiet until tracepipe_resume: its
     * writer is ours meanwhile (as for a guest's MMIO read) */
    if (s->dev.pipe)
        tracepipe_sync(s->dev.pipe);
    if (s->dev.model)
        mt_unit_flush(s->dev.model); /* the batch of drained bytes: same bytes, same order */
    if (s->rtl.r)
        rtl_drain(&s->rtl);
    mt_writer *ws[] = {s->w, s->all, s->red_w}; /* (the RTL writes to s->w) */
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        if (ws[i])
            mt_writer_poll(ws[i]);
    if (s->dev.pipe)
        tracepipe_resume(s->dev.pipe);
}

void trace_session_progress(void *session, char *buf, size_t len)
{
    struct trace_session *s = session;
    buf[0] = '\0';
    if (s->finished || s->dev.failed)
        return;
    if (s->dev.pipe) /* the counters and the writer are the model thread's until it is synced */
        tracepipe_sync(s->dev.pipe);
    uint64_t written = 0;
    mt_writer *ws[] = {s->w, s->all, s->red_w};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        if (ws[i])
            written += mt_writer_file_bytes(ws[i]);
    int n = snprintf(buf, len, ", trace %.1f MB written", (double)written * 1e-6);
    const mt_unit *u = s->unit_init ? &s->unit : (s->ls ? mt_lockstep_model(s->ls) : NULL);
    if (u && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", %" PRIu64 " samples, %u dropped", u->samples, u->dropped);
    if (s->dev.pipe)
        tracepipe_resume(s->dev.pipe);
}

int trace_session_finish(struct trace_session *s, char *err, size_t errlen)
{
    s->finished = true;
    bool ok = tracedev_finish(&s->dev);
    if (s->all && !s->all_failed && !all_flush(s)) /* the last samples, after the last access */
        ok = false;
    int rc = 0;
    char we[400];
    if (s->unit.order_errors || (s->ls && mt_lockstep_model(s->ls)->order_errors))
        fprintf(stderr, "mtemu: trace unit: %" PRIu64 " accesses broke the one-per-cycle contract\n",
                s->ls ? mt_lockstep_model(s->ls)->order_errors : s->unit.order_errors);
    if (s->rtl.r)
        rtl_drain(&s->rtl);
    if (!ok) {
        if (s->ls && mt_lockstep_diverged(s->ls)) {
            snprintf(err, errlen, "--trace-unit=both: the model and the RTL diverged (report above); %s",
                     s->w ? "the trace file was removed" : "no trace");
            rc = 3;
        } else if (s->all_failed) { /* a write failure, as for every other output: exit 1 */
            snprintf(err, errlen, "--trace-all: %s (the run was stopped there)%s",
                     s->all ? mt_writer_error(s->all) : "write failed", s->w ? "; --trace removed too" : "");
            rc = 1;
        } else {
            snprintf(err, errlen, "--trace: the trace unit stopped (see above)");
            rc = 3;
        }
    }
    if (s->w) {
        mt_writer *w = s->w;
        s->w = NULL;
        if (s->unit_init && !rc) { /* stopped: the end of the stream for the last frame's index */
            mt_unit_mark end;
            mt_unit_mark_now(&s->unit, &end);
            mt_writer_mark(w, &end);
        }
        if (rc) {
            mt_writer_abort(w);
        } else if (mt_writer_finish(w, we, sizeof we) != 0) {
            snprintf(err, errlen, "--trace: %s", we);
            rc = 1;
        }
    }
    if (s->red_w) {
        mt_writer *w = s->red_w;
        /* the trailer (docs/trace-format.md 4.1): what the filter saw, known only now */
        char trl[512];
        size_t tn = 0;
        if (s->sp_init) {
            mt_spatial_finish(&s->sp); /* (and its buffer to sp_flush) */
            tn = (size_t)snprintf(trl, sizeof trl, "trace.accesses=%" PRIu64 "\ntrace.spatial_final_rates=", s->sp.accesses);
            for (unsigned i = 0; i < MT_SPATIAL_SIZES && tn < sizeof trl; i++)
                tn += (size_t)snprintf(trl + tn, sizeof trl - tn, "%s%" PRIu32, i ? "," : "", s->sp.rate[i]);
            if (tn < sizeof trl)
                snprintf(trl + tn, sizeof trl - tn, "\n");
        } else if (s->ured_init) {
            mt_urd_finish(&s->ured); /* the queue drains, every pending reference is kept */
            snprintf(trl, sizeof trl, "%s=%" PRIu64 "\ntrace.reduce_unit_lost=%" PRIu64 "\n",
                     s->all ? "trace.accesses" : "trace.page_changes", s->ured.accesses, s->ured.lost);
        } else {
            mt_reduce_finish(&s->red); /* every pending reference is kept */
            if (s->rcheck.mask && mt_rcheck_finish(&s->rcheck) != 0)
                rcheck_stop(s);
            /* with the CPU's page filter on (reduce without --trace-all) the filter hears only the
             * changes of page, so the accesses are not known: the trailer says what it does know
             * and the host counts records (docs/trace-format.md 4.1) */
            snprintf(trl, sizeof trl, s->all ? "trace.accesses=%" PRIu64 "\n" : "trace.page_changes=%" PRIu64 "\n",
                     s->red.accesses);
        }
        if (!s->red_started)
            mt_writer_section(w, 0, MT_FMT_FULL, 1, 0); /* an empty but valid trace */
        mt_writer_trailer(w, trl);
        s->red_w = NULL;
        if (s->red_failed || s->red.oom) {
            mt_writer_abort(w);
            if (!rc) {
                snprintf(err, errlen, "--trace %s: write error (%s)", s->o.trace_path, s->sp_init ? "spatial" : "reduce");
                rc = 2;
            }
        } else if (mt_writer_close(w) != 0 && !rc) {
            snprintf(err, errlen, "--trace %s: write error", s->o.trace_path);
            rc = 2;
        }
    }
    if (s->all) {
        mt_writer *w = s->all;
        s->all = NULL;
        if (!s->all_started)
            mt_writer_section(w, 0, MT_FMT_FULL, 1, 0); /* an empty but valid trace */
        if (rc) {
            mt_writer_abort(w); /* a run cut short: not a trace that looks whole */
        } else if (mt_writer_finish(w, we, sizeof we) != 0) {
            snprintf(err, errlen, "--trace-all: %s", we);
            rc = 1;
        }
    }
    s->waves_ok = rc == 0;
    return rc;
}

void trace_session_report(const struct trace_session *s, FILE *f)
{
    const mt_unit *u = s->unit_init ? &s->unit : (s->ls ? mt_lockstep_model(s->ls) : NULL);
    fprintf(f, "trace.unit    %s\n", unit_names[s->o.unit]);
    if (u)
        fprintf(f, "trace.samples %" PRIu64 " dropped %u bytes %" PRIu64 "\n", u->samples, u->dropped, u->bytes);
    if (s->rtl.r)
        fprintf(f, "trace.rtl     %" PRIu64 " bytes out\n", mt_rtl_bytes_out(s->rtl.r));
    if (s->ls)
        fprintf(f, "trace.lockstep %" PRIu64 " bytes compared%s\n", mt_lockstep_bytes(s->ls),
                mt_lockstep_diverged(s->ls) ? " DIVERGED" : ", identical");
    fprintf(f, "trace.accesses %" PRIu64 " to the unit, %" PRIu64 " same-cycle skipped\n", s->dev.unit_accesses,
            s->dev.collisions);
    if (s->dev.pipe_fast || s->dev.pipe_taken_back)
        fprintf(f, "trace.runs    %" PRIu64 " captures taken by the CPU's runs interpreter itself (fetches, and %" PRIu64
                " data accesses known ahead), %" PRIu64 " taken back (a slow path or trap before the access)\n",
                s->dev.pipe_fast, s->dev.pipe_data_ahead, s->dev.pipe_taken_back);
    if (s->dev.pipe_used)
        fprintf(f, "trace.thread  the model on its own thread: %" PRIu64 " captures queued, %" PRIu64
                " waits for it, %.3f s CPU\n", s->dev.pipe_queued, s->dev.pipe_waits, s->dev.pipe_seconds);
    if (s->red_init) {
        /* with the CPU's page filter (no --trace-all, core tap) only the page changes reach it */
        bool filtered = s->dev.rec.page_changes && s->dev.rec.tap == MT_TAP_CORE;
        fprintf(f, "trace.reduce  B %" PRIu64 " bytes: %" PRIu64 " %s, %" PRIu64 " records out (1 per %.1f)",
                s->red.budget, s->red.accesses, filtered ? "page changes in" : "accesses in", s->red.records,
                s->red.records ? (double)s->red.accesses / (double)s->red.records : 0.0);
        for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
            fprintf(f, "%s%" PRIu64, i ? "," : "; kept per size 4K..2M ", s->red.kept[i]);
        fprintf(f, "; %" PRIu64 " alternation steps skipped, %" PRIu64 " plain hits of the hold set\n",
                s->red.alt_skipped, s->red.held);
    }
    if (s->rcheck.mask) {
        char sum[2048];
        mt_rcheck_summary(&s->rcheck, sum, sizeof sum);
        fputs(sum, f);
    }
    if (s->ured_init) {
        const mt_unit_reduce *u = &s->ured;
        fprintf(f, "trace.reduce_unit B %" PRIu64 " W %u Q %u: %" PRIu64 " in, %" PRIu64 " lost, %" PRIu64
                " references, %" PRIu64 " records, %" PRIu64 " slots forced; engine %" PRIu64 " clocks (%.1f per "
                "reference, most %" PRIu64 "); references by clocks 1-4,5-8,9-16,17-32,33-64,65-128,129-256,>256 ",
                u->budget, u->wslots, u->qcap, u->accesses, u->lost, u->refs, u->records, u->forced, u->clocks,
                u->refs ? (double)u->clocks / (double)u->refs : 0.0, u->max_clocks);
        for (unsigned i = 0; i < 8; i++)
            fprintf(f, "%s%" PRIu64, i ? "," : "", u->hist[i]);
        fputc('\n', f);
    }
    if (s->sp_init) {
        fprintf(f, "trace.spatial N %" PRIu32 ": %" PRIu64 " accesses in, %" PRIu64 " records out (1 per %.1f), "
                "%" PRIu64 " alternation steps skipped, %" PRIu32 " rate doublings",
                s->o.spatial_rate, s->sp.accesses, s->sp.records,
                s->sp.records ? (double)s->sp.accesses / (double)s->sp.records : 0.0, s->sp.alt_skipped,
                s->sp.doublings);
        for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
            fprintf(f, "%s%" PRIu64, i ? "," : "; kept per size 4K..2M ", s->sp.kept[i]);
        fputc('\n', f);
    }
    const mt_unit *mu = s->ls ? mt_lockstep_model(s->ls) : s->unit_init ? &s->unit : NULL;
    if (s->o.unit_reduce && mu && mu->rd_alloc) /* the unit's reduce path (its last session) */
        fprintf(f, "trace.unit_reduce B %" PRIu64 " W %u Q %u: %" PRIu64 " accesses, %" PRIu64 " lost, %" PRIu64
                " references, %" PRIu64 " records, %" PRIu64 " slots forced, %" PRIu64 " records at a full queue\n",
                s->o.reduce_budget, MT_UNIT_REDUCE_W, MT_UNIT_REDUCE_Q, mu->rd.accesses, mu->rd.lost, mu->rd.refs,
                mu->rd.records, mu->rd.forced, mu->rd_qfull);
    if (s->o.spatial_unit && mu) /* the unit's front end (its last session; the RTL's is the same) */
        fprintf(f, "trace.spatial_unit N %" PRIu32 ": %" PRIu64 " accesses taken, %" PRIu64 " lost during a "
                "pass, %" PRIu64 " records\n", s->o.spatial_rate, mu->sp.taken, mu->sp.lost, mu->sp.records);
    if (s->o.all_path)
        fprintf(f, "trace.all     %" PRIu64 " accesses recorded, %" PRIu64 " markers\n", s->all_samples,
                s->all_markers);
}

struct mt_tracedev *trace_session_tracedev(struct trace_session *s) { return &s->dev; }
struct mt_lockstep *trace_session_lockstep(struct trace_session *s) { return s->ls; }

void trace_session_destroy(struct trace_session *s)
{
    if (!s)
        return;
    if (s->w)
        mt_writer_abort(s->w);
    if (s->all)
        mt_writer_abort(s->all);
    if (s->red_w)
        mt_writer_abort(s->red_w);
    tracedev_release(&s->dev); /* its thread uses the unit */
    if (s->unit_init)
        mt_unit_free(&s->unit);
    if (s->ls)
        mt_lockstep_destroy(s->ls);
    if (s->rtl.r)
        mt_rtl_destroy(s->rtl.r);
    waves_end(s); /* the RTL has closed the file */
    if (s->red_init)
        mt_reduce_free(&s->red);
    mt_rcheck_free(&s->rcheck);
    if (s->ured_init)
        mt_urd_free(&s->ured);
    free(s);
}
