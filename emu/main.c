/* mtemu: the command line.  mtemu [options] program.elf */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/devices/console.h"
#include "emu/gdb/stub.h"
#include "emu/platform/machine.h"
#include "emu/metapaging/mpctl.h"
#include "emu/platform/isa.h"
#include "emu/trace/tracectl.h"
#include "mt_paths.h"
#include "mt_version.h"

static void usage(FILE *f)
{
    fputs("usage: mtemu [options] [program.elf]\n"
          "  A RISC-V " MT_ISA_STRING " machine\n"
          "  compatible with QEMU's virt board (RAM at 0x80000000).\n"
          "  -m SIZE              guest RAM (MiB, or with K/M/G suffix; default 128M)\n"
          "  -smp N, --smp N      N harts (1..8), interleaved deterministically (docs/boot.md)\n"
          "  --bios FILE          firmware at 0x80000000 (ELF or raw), entered in M-mode\n"
          "  --kernel FILE        kernel (ELF or raw; raw at 0x80200000 after a 2 MiB aligned bios)\n"
          "  --append ARGS        kernel command line (/chosen/bootargs)\n"
          "  --initrd FILE        initial RAM disk (/chosen/linux,initrd-*)\n"
          "  --dtb FILE           use this device tree instead of the generated one\n"
          "  --dump-dtb FILE      write the generated device tree to FILE\n"
          "  --max-insns N        stop after N instructions (exit code 0)\n"
          "  --timing=MODE        none (1 cycle + 1 per bus access) | simple (per-class latencies)\n"
          "                       | cache (simple + L1I/L1D/L2 misses; DRAM transfers on the dram tap)\n"
          "  --stats              print instruction, cycle, MIPS and access counts on stderr\n"
          "  --log-commits        Spike-style commit log on stderr\n"
          "  --event-hash[=N]     hash every bus access (or one per N cycles) and print it with --stats\n"
          "  --signature FILE     at exit, write memory [begin_signature, end_signature) as hex lines\n"
          "  --signature-granularity N  bytes per line (default 4), as Spike's +signature\n"
          "  -q, --quiet          no progress line\n"
          "  -h, --help           this text\n"
          "  -V, --version        the version and the ISA\n"
          "Meta-paging (docs/metapaging.md):\n",
          f);
    fputs(mp_options_help(), f);
    fputs("Debugging with gdb (docs/emulator.md, \"Debugging with gdb\"):\n", f);
    fputs(gdb_options_help(), f);
    fputs("Tracing (docs/trace-unit.md, \"In the emulator\"):\n", f);
    fputs(trace_options_help(), f);
    fputs("Exit code: the guest's (HTIF tohost, or the sifive,test0 finisher).\n", f);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || s[0] == '-')
        return false;
    *out = v;
    return true;
}

static bool parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || s[0] == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return false;
    uint64_t mul = UINT64_C(1) << 20;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': mul = UINT64_C(1) << 10; break;
        case 'm': case 'M': mul = UINT64_C(1) << 20; break;
        case 'g': case 'G': mul = UINT64_C(1) << 30; break;
        default: return false;
        }
        if (end[1] && !(end[1] == 'i' && end[2] == 'B' && !end[3]) && !(end[1] == 'B' && !end[2]))
            return false;
    }
    if (v > UINT64_MAX / mul)
        return false;
    *out = v * mul;
    return true;
}

int main(int argc, char **argv)
{
    mt_machine_config cfg = {.ram_size = UINT64_C(128) << 20, .timing = TIMING_NONE, .progress = true,
                             .out = stdout, .in_fd = STDIN_FILENO};
    bool stats = false;
    char err[512];
    struct mp_options mpo;
    /* SIGINT, SIGTERM, SIGHUP (a kill, `timeout`, a closed terminal; the console passes Ctrl-C to
     * the guest): end the run at the next device poll and finish the trace and the statistics, as
     * at a normal end (installed first: one that comes during the set-up stops the run at its
     * first poll). A repeat a second or more later kills at once; one sooner is the same
     * request again (machine_signal). */
    struct sigaction sa = {.sa_handler = machine_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* SIGPIPE (the console's reader went away: `mtemu ... | head`): the same graceful end, and it
     * stays installed, since the console goes on writing until the stop (each write then fails
     * with EPIPE and is dropped) */
    struct sigaction pipe_sa = {.sa_handler = machine_signal};
    sigemptyset(&pipe_sa.sa_mask);
    sigaction(SIGPIPE, &pipe_sa, NULL);

    mp_options_default(&mpo);
    if (mp_options_extract(&mpo, &argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "mtemu: %s\n", err);
        return 2;
    }
    struct trace_options tro;
    trace_options_default(&tro);
    if (trace_options_extract(&tro, &argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "mtemu: %s\n", err);
        return 2;
    }
    gdb_options gdo = {0};
    if (gdb_options_extract(&gdo, &argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "mtemu: %s\n", err);
        return 2;
    }
    enum { O_BIOS = 256, O_KERNEL, O_APPEND, O_INITRD, O_DTB, O_DUMP_DTB, O_MAX, O_TIMING, O_STATS, O_LOG, O_HASH, O_SIG, O_SIGG, O_SMP };
    static const struct option opts[] = {
        {"bios", required_argument, 0, O_BIOS},       {"kernel", required_argument, 0, O_KERNEL},
        {"append", required_argument, 0, O_APPEND},   {"initrd", required_argument, 0, O_INITRD},
        {"dtb", required_argument, 0, O_DTB},         {"dump-dtb", required_argument, 0, O_DUMP_DTB},
        {"max-insns", required_argument, 0, O_MAX},   {"timing", required_argument, 0, O_TIMING},
        {"stats", no_argument, 0, O_STATS},           {"log-commits", no_argument, 0, O_LOG},
        {"event-hash", optional_argument, 0, O_HASH}, {"quiet", no_argument, 0, 'q'},
        {"signature", required_argument, 0, O_SIG},   {"signature-granularity", required_argument, 0, O_SIGG},
        {"smp", required_argument, 0, O_SMP},
        {"help", no_argument, 0, 'h'},                {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0},
    };
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "-smp") == 0) /* QEMU's spelling */
            argv[i] = "--smp";
    opterr = 0;
    int o;
    while ((o = getopt_long(argc, argv, ":m:qhV", opts, NULL)) != -1) {
        switch (o) {
        case O_SMP: {
            uint64_t n;
            if (!parse_u64(optarg, &n) || n < 1 || n > MT_MAX_HARTS) {
                fprintf(stderr, "mtemu: -smp %s: not a number of harts from 1 to %d\n", optarg, MT_MAX_HARTS);
                return 2;
            }
            cfg.harts = (unsigned)n;
            break;
        }
        case 'm':
            if (!parse_size(optarg, &cfg.ram_size)) {
                fprintf(stderr, "mtemu: -m %s: not a size (e.g. 256M, 4G)\n", optarg);
                return 2;
            }
            break;
        case O_BIOS: cfg.bios = strcmp(optarg, "none") == 0 ? NULL : optarg; break;
        case O_KERNEL: cfg.kernel = optarg; break;
        case O_APPEND: cfg.append = optarg; break;
        case O_INITRD: cfg.initrd = optarg; break;
        case O_DTB: cfg.dtb_in = optarg; break;
        case O_DUMP_DTB: cfg.dtb_out = optarg; break;
        case O_MAX:
            if (!parse_u64(optarg, &cfg.max_insns)) {
                fprintf(stderr, "mtemu: --max-insns %s: not a number\n", optarg);
                return 2;
            }
            break;
        case O_TIMING:
            if (strcmp(optarg, "none") == 0)
                cfg.timing = TIMING_NONE;
            else if (strcmp(optarg, "simple") == 0)
                cfg.timing = TIMING_SIMPLE;
            else if (strcmp(optarg, "cache") == 0)
                cfg.timing = TIMING_CACHE;
            else {
                fprintf(stderr, "mtemu: --timing=%s: unknown timing model (none, simple, cache)\n", optarg);
                return 2;
            }
            break;
        case O_STATS: stats = true; break;
        case O_LOG: cfg.log_commits = true; break;
        case O_HASH:
            cfg.event_hash_period = 1;
            if (optarg && (!parse_u64(optarg, &cfg.event_hash_period) || cfg.event_hash_period == 0)) {
                fprintf(stderr, "mtemu: --event-hash=%s: not a positive number\n", optarg);
                return 2;
            }
            break;
        case O_SIG: cfg.signature = optarg; break;
        case O_SIGG: {
            uint64_t g;
            if (!parse_u64(optarg, &g) || (g != 1 && g != 2 && g != 4 && g != 8 && g != 16)) {
                fprintf(stderr, "mtemu: --signature-granularity=%s: not 1, 2, 4, 8 or 16\n", optarg);
                return 2;
            }
            cfg.signature_granularity = (unsigned)g;
            break;
        }
        case 'q': cfg.progress = false; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("mtemu %s (metatrace)\nISA: %s\n", MT_VERSION_STRING, MT_ISA_STRING); return 0;
        case ':':
            fprintf(stderr, "mtemu: option %s needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "mtemu: unknown option %s (see mtemu --help)\n", argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc)
        cfg.program = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "mtemu: unexpected argument %s (one program only)\n", argv[optind]);
        return 2;
    }
    if (!cfg.program && !cfg.kernel && !cfg.bios) {
        fprintf(stderr, "mtemu: no program given (see mtemu --help)\n");
        return 2;
    }
    if (cfg.program && (cfg.kernel || cfg.bios)) {
        fprintf(stderr, "mtemu: give either a program or --bios/--kernel, not both\n");
        return 2;
    }
    const mt_named_path outputs[] = {{"--trace", tro.trace_path},   {"--trace-all", tro.all_path},
                                     {"--dump-dtb", cfg.dtb_out},   {"--signature", cfg.signature},
                                     {"--backing", mpo.backing},    {"--stats-json", mpo.stats_json}};
    const mt_named_path inputs[] = {{"program", cfg.program}, {"--bios", cfg.bios},  {"--kernel", cfg.kernel},
                                    {"--initrd", cfg.initrd}, {"--dtb", cfg.dtb_in}};
    if (mt_paths_check(outputs, sizeof outputs / sizeof outputs[0], inputs, sizeof inputs / sizeof inputs[0], err,
                       sizeof err)) {
        fprintf(stderr, "mtemu: %s\n", err);
        return 2;
    }
    mpo.stats = stats;
    struct mp_session *mps = mp_session_create(&mpo, RAM_BASE, cfg.ram_size, err, sizeof err);
    if (!mps) {
        fprintf(stderr, "mtemu: %s\n", err);
        return 2;
    }
    cfg.metapaging = mps;
    struct trace_session *trs = NULL;
    if (trace_options_active(&tro)) {
        static const char *const timing_names[] = {"none", "simple", "cache"};
        trace_run_info ri = {.ram_base = RAM_BASE, .ram_size = cfg.ram_size,
                             .program = cfg.program ? cfg.program : (cfg.kernel ? cfg.kernel : cfg.bios),
                             .append = cfg.append, .timing = timing_names[cfg.timing]};
        if (cfg.event_hash_period) {
            fprintf(stderr, "mtemu: --event-hash and --trace/--trace-all both need the access listener; give one\n");
            mp_session_destroy(mps);
            return 2;
        }
        trs = trace_session_create(&tro, &ri, err, sizeof err);
        if (!trs) {
            fprintf(stderr, "mtemu: %s\n", err);
            mp_session_destroy(mps);
            return 2;
        }
        cfg.trace_unit = trace_session_device(trs);
    }
    gdb_stub *gdb = NULL;
    if (gdo.dev && !(gdb = gdb_stub_create(&gdo, err, sizeof err))) {
        fprintf(stderr, "mtemu: %s\n", err);
        trace_session_destroy(trs);
        mp_session_destroy(mps);
        return 2;
    }
    mt_machine *m = machine_create(&cfg, err, sizeof err);
    if (!m || (gdb && !gdb_stub_attach(gdb, m, err, sizeof err))) {
        fprintf(stderr, "mtemu: %s\n", err);
        if (m)
            machine_destroy(m);
        gdb_stub_destroy(gdb);
        trace_session_destroy(trs);
        mp_session_destroy(mps);
        return 2;
    }
    if (trs) {
        trace_session_attach(trs, &m->cpu);
        m->on_turn = trace_session_on_turn;
        m->turn_ctx = trs;
        m->idle_hook = trace_session_idle;
        m->idle_hook_ctx = trs;
        m->progress_hook = trace_session_progress;
        m->progress_hook_ctx = trs;
    }
    mt_console console;
    console_begin(&console, cfg.in_fd);
    double t0 = machine_wall_seconds();
    int code = machine_run(m);
    double secs = machine_wall_seconds() - t0;
    gdb_stub_finish(gdb, code); /* gdb, if it waits, hears of the exit */
    console_end(&console);
    /* the console's output reached its file (a full disk, a closed pipe): else it is not whole */
    if (fflush(cfg.out) != 0 || ferror(cfg.out)) {
        fprintf(stderr, "mtemu: console output: write error: %s\n", strerror(errno ? errno : EIO));
        code = code ? code : 1;
    }
    if (cfg.signature && !machine_write_signature(m, err, sizeof err)) {
        fprintf(stderr, "mtemu: %s\n", err);
        code = code ? code : 2;
    }
    if (trs) {
        int trc = trace_session_finish(trs, err, sizeof err);
        if (trc) {
            fprintf(stderr, "mtemu: %s\n", err);
            code = code ? code : trc;
        }
    }
    if (stats)
        machine_print_stats(m, stderr, secs);
    if (stats && trs)
        trace_session_report(trs, stderr);
    {
        uint64_t insns = 0, accesses = 0;
        for (unsigned h = 0; h < m->nharts; h++) {
            const mt_cpu *c = m->harts[h];
            insns += c->instret;
            accesses += c->instret; /* a fetch per instruction, as --stats counts them */
            for (int k = 0; k < MT_KIND_COUNT; k++) /* fetches: the straddling ones' second halves */
                accesses += c->access_count[k];
        }
        mp_session_set_run(mps, insns, accesses, (double)cpu_mtime(&m->cpu) * 1e-7);
    }
    if (mp_session_report(mps, stderr, err, sizeof err) != 0) {
        fprintf(stderr, "mtemu: %s\n", err);
        code = code ? code : 2;
    }
    machine_destroy(m);
    gdb_stub_destroy(gdb);
    trace_session_destroy(trs);
    mp_session_destroy(mps);
    return code;
}
