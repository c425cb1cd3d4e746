#include "emu/platform/machine.h"
#include "emu/metapaging/mpctl.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu/platform/isa.h"
#include "emu/cpu/cache.h"
#include "emu/platform/dtb.h"
#include "emu/platform/loader.h"
#include "emu/platform/smp.h"
#include "mt_outfile.h"
#include "mt_paths.h"

#define MiB (UINT64_C(1) << 20)
#define FW_DYNAMIC_MAGIC 0x4942534fu

double machine_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile sig_atomic_t pending_signal;
static struct timespec first_stop_signal; /* when the first SIGINT/SIGTERM/SIGHUP came, or 0 */

/* Async-signal-safe (clock_gettime, signal and raise are): the first stop request ends the run at
 * the next device poll; a repeat within a second is the same request delivered twice (timeout(1)
 * signals its child and then its whole process group; a terminal's Ctrl-C reaches every process
 * of a pipeline), so it is ignored, while one a second or more later is a user who wants the
 * process gone now: the default action kills it. SIGPIPE only ever asks for the graceful end. */
void machine_signal(int sig)
{
    if (!pending_signal)
        pending_signal = sig;
    if (sig == SIGPIPE)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (first_stop_signal.tv_sec == 0 && first_stop_signal.tv_nsec == 0) {
        first_stop_signal = now;
        return;
    }
    if ((now.tv_sec - first_stop_signal.tv_sec) * 1000000000L + (now.tv_nsec - first_stop_signal.tv_nsec) < 1000000000L)
        return;
    signal(sig, SIG_DFL);
    raise(sig); /* blocked until this handler returns, then the default action */
}

static void on_poll(void *ctx)
{
    mt_machine *m = ctx;
    if (pending_signal && !m->interrupted) {
        m->interrupted = pending_signal;
        cpu_request_stop(m->finisher.cpu ? m->finisher.cpu : &m->cpu);
    }
    if (m->debug_poll)
        m->debug_poll(m->debug_poll_ctx);
    if (!m->cfg.progress)
        return;
    double now = machine_wall_seconds();
    if (now - m->wall_last < 10.0)
        return;
    m->wall_last = now;
    double secs = now - m->wall_start;
    uint64_t n = smp_total_instret(m); /* all harts */
    /* how far a run with a limit is, so a long one can be timed from its first lines */
    char limit[48] = "";
    if (m->cfg.max_insns)
        snprintf(limit, sizeof limit, " (%.1f%% of --max-insns)", 100.0 * (double)n / (double)m->cfg.max_insns);
    char extra[128] = "";
    if (m->progress_hook)
        m->progress_hook(m->progress_hook_ctx, extra, sizeof extra);
    fprintf(stderr, "mtemu: %.3f G instructions%s, %.3f s emulated, %.0f MIPS, %.1f s%s\n", n * 1e-9, limit,
            m->nharts > 1 ? cpu_mtime(&m->cpu) * 1e-7 : m->cpu.cycle * 1e-9, secs > 0 ? n / secs * 1e-6 : 0.0, secs,
            extra);
}

/* Ctrl-A x on the console: end the run as a guest poweroff would (exit code 0, as QEMU). */
static void quit_from_console(void *ctx)
{
    mt_machine *m = ctx;
    m->finisher.finished = true;
    m->finisher.exit_code = 0;
    cpu_request_stop(m->finisher.cpu);
}

/* WFI with no timer: wait a little for console input; false when none can ever come. */
static bool on_idle(void *ctx)
{
    mt_machine *m = ctx;
    if (m->uart.in_fd < 0 || m->uart.in_eof)
        return false;
    if (m->idle_hook)
        m->idle_hook(m->idle_hook_ctx);
    struct pollfd pfd = {.fd = m->uart.in_fd, .events = POLLIN};
    poll(&pfd, 1, 10);
    return true;
}

/* A metapage left RAM: every hart drops its TLB entries and decoded pages there. */
static void invalidate_harts(void *ctx, uint64_t base, uint64_t len)
{
    mt_machine *m = ctx;
    for (unsigned i = 0; i < m->nharts; i++)
        cpu_invalidate_phys(m->harts[i], base, len);
}

/* The meta-pager's page observer on a hart (each hart tells its own granule changes). */
static void observe_pages(mt_cpu *h, struct mp_session *s)
{
    if (!s || !mp_session_needs_observer(s))
        return;
    struct ram_page_batch *batch = mp_session_page_batch(s);
    if (batch)
        cpu_set_page_batch(h, batch, mp_session_observe_shift(s));
    else
        cpu_set_page_observer(h, mp_session_observe, s, mp_session_observe_shift(s));
    h->obs_timed = mp_session_faults_cost_cycles(s);
}

/* A cheap, order-sensitive hash of every delivered access (determinism checks, hook cost). */
static uint64_t hash_listener(void *ctx, const mt_access *a)
{
    mt_machine *m = ctx;
    uint64_t v = a->cycle * UINT64_C(0x9e3779b97f4a7c15) ^ a->addr * UINT64_C(0xc2b2ae3d27d4eb4f) ^
                 ((uint64_t)a->write | (uint64_t)a->size << 8 | (uint64_t)a->kind << 16 | (uint64_t)a->tap << 24);
    m->ev_hash = (m->ev_hash ^ v) * UINT64_C(0x100000001b3);
    m->ev_count++;
    return m->cfg.event_hash_period <= 1 ? 0 : a->cycle + m->cfg.event_hash_period;
}

static bool load_image(mt_machine *m, const char *path, uint64_t raw_addr, mt_load_info *info, char *err, size_t errlen)
{
    if (access(path, R_OK) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    if (loader_is_elf(path))
        return loader_load_elf(m->ram, path, info, err, errlen);
    return loader_load_raw(m->ram, path, raw_addr, info, err, errlen);
}

/* QEMU's reset vector (hw/riscv/boot.c): a0 = hart id, a1 = DTB, a2 = fw_dynamic info. */
static void write_reset_rom(mt_machine *m, uint64_t start, uint64_t dtb, uint64_t next_addr)
{
    const uint32_t code[6] = {
        0x00000297, /* auipc t0, 0 */
        0x02828613, /* addi a2, t0, 40 */
        0xf1402573, /* csrr a0, mhartid */
        0x0202b583, /* ld a1, 32(t0) */
        0x0182b283, /* ld t0, 24(t0) */
        0x00028067, /* jr t0 */
    };
    uint8_t *rom = m->bus.rom;
    memcpy(rom, code, sizeof code);
    memcpy(rom + 24, &start, 8);
    memcpy(rom + 32, &dtb, 8);
    const uint64_t fw_dyn[6] = {FW_DYNAMIC_MAGIC, 2, next_addr, 1 /* S-mode */, 0, 0};
    memcpy(rom + 40, fw_dyn, sizeof fw_dyn);
}

/* -smp N: harts 1..N-1, each with its own caches, wired to the CLINT and PLIC (emu/platform/smp.h). */
static bool add_harts(mt_machine *m, const mt_machine_config *cfg, char *err, size_t errlen)
{
    if (cfg->harts > MT_MAX_HARTS) {
        snprintf(err, errlen, "-smp %u: at most %d harts", cfg->harts, MT_MAX_HARTS);
        return false;
    }
    if (cfg->timing == TIMING_CACHE) {
        snprintf(err, errlen, "-smp %u: not with --timing=cache (its caches are one hart's)", cfg->harts);
        return false;
    }
    m->cpu.smp = true;
    for (unsigned i = 1; i < cfg->harts; i++) {
        mt_cpu *h = calloc(1, sizeof *h);
        if (!h) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        cpu_init(h, &m->bus, cfg->timing);
        h->mhartid = i;
        h->smp = true;
        m->harts[m->nharts++] = h;
        observe_pages(h, cfg->metapaging);
        clint_add_hart(&m->clint, h);
        plic_add_hart(&m->plic, h);
    }
    return true;
}

static bool ram_size_ok(const mt_machine_config *cfg, char *err, size_t errlen)
{
    if (cfg->ram_size < 2 * MiB || (cfg->ram_size & 0xfff)) {
        snprintf(err, errlen, "-m: RAM size must be a multiple of 4 KiB and at least 2 MiB");
        return false;
    }
    return true;
}

static bool setup(mt_machine *m, const mt_machine_config *cfg, char *err, size_t errlen);

mt_machine *machine_create(const mt_machine_config *cfg, char *err, size_t errlen)
{
    if (!ram_size_ok(cfg, err, errlen))
        return NULL;
    mt_machine *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->ram = ram_create(RAM_BASE, cfg->ram_size);
    if (!m->ram) {
        snprintf(err, errlen, "-m: cannot reserve %llu bytes of guest RAM", (unsigned long long)cfg->ram_size);
        free(m);
        return NULL;
    }
    if (!setup(m, cfg, err, errlen)) {
        machine_destroy(m);
        return NULL;
    }
    return m;
}

/* What setup() allocated besides the RAM: the cache model and harts 1..N-1. */
static void release_harts(mt_machine *m)
{
    if (m->cpu.cache) {
        cache_free(m->cpu.cache);
        free(m->cpu.cache);
    }
    cpu_free(&m->cpu);
    for (unsigned i = 1; i < m->nharts; i++) {
        cpu_free(m->harts[i]);
        free(m->harts[i]);
    }
}

bool machine_reset(mt_machine *m, const mt_machine_config *cfg, char *err, size_t errlen)
{
    release_harts(m);
    mt_ram *ram = m->ram;
    memset(m, 0, sizeof *m); /* as calloc left it in machine_create */
    m->nharts = 1;           /* hart 0 only, for machine_destroy whatever fails below */
    if (!ram_size_ok(cfg, err, errlen)) {
        m->ram = ram;
        return false;
    }
    if (ram_size(ram) == cfg->ram_size) {
        ram_clear(ram);
    } else {
        ram_destroy(ram);
        if (!(ram = ram_create(RAM_BASE, cfg->ram_size))) {
            snprintf(err, errlen, "-m: cannot reserve %llu bytes of guest RAM", (unsigned long long)cfg->ram_size);
            return false;
        }
    }
    m->ram = ram;
    return setup(m, cfg, err, errlen);
}

/* Everything of machine_create after the RAM: m is all zero but for m->ram, a cleared RAM.
 * False with err set; m then holds what machine_destroy releases. */
static bool setup(mt_machine *m, const mt_machine_config *cfg, char *err, size_t errlen)
{
    m->cfg = *cfg;
    bus_init(&m->bus, m->ram);
    cpu_init(&m->cpu, &m->bus, cfg->timing);
    m->harts[0] = &m->cpu;
    m->nharts = 1;
    ram_set_invalidator(m->ram, invalidate_harts, m);
    if (cfg->metapaging) { /* before anything is loaded: see docs/metapaging.md */
        mp_session_attach(cfg->metapaging, m->ram);
        observe_pages(&m->cpu, cfg->metapaging);
        mp_session_charge_faults_to(cfg->metapaging, &m->cpu.cycle); /* -smp: the running hart's */
    }
    mt_device d = clint_device(&m->clint, &m->cpu);
    bus_add_device(&m->bus, &d);
    d = plic_device(&m->plic, &m->cpu);
    bus_add_device(&m->bus, &d);
    if (cfg->harts > 1 && !add_harts(m, cfg, err, errlen))
        goto fail;
    d = uart_device(&m->uart, &m->plic, cfg->out, cfg->in_fd);
    m->uart.on_quit = quit_from_console;
    m->uart.quit_ctx = m;
    bus_add_device(&m->bus, &d);
    d = finisher_device(&m->finisher, &m->cpu);
    bus_add_device(&m->bus, &d);
    if (cfg->trace_unit && !bus_add_device(&m->bus, cfg->trace_unit)) {
        snprintf(err, errlen, "cannot map the trace unit");
        goto fail;
    }

    /* images */
    mt_load_info info;
    uint64_t start = RAM_BASE, kernel_entry = 0, fw_end = RAM_BASE, tohost = 0, fromhost = 0;
    const char *kernel = cfg->kernel ? cfg->kernel : NULL;
    if (cfg->program) {
        if (access(cfg->program, R_OK) == 0 && !loader_is_elf(cfg->program)) {
            snprintf(err, errlen, "%s: not an ELF file (raw images go with --bios or --kernel)", cfg->program);
            goto fail;
        }
        if (!load_image(m, cfg->program, RAM_BASE, &info, err, errlen))
            goto fail;
        start = info.entry;
        tohost = info.tohost;
        fromhost = info.fromhost;
        fw_end = info.high;
        m->sig_begin = info.sig_begin;
        m->sig_end = info.sig_end;
    } else if (cfg->bios) {
        if (!load_image(m, cfg->bios, RAM_BASE, &info, err, errlen))
            goto fail;
        start = info.entry;
        fw_end = info.high;
    }
    if (kernel) {
        uint64_t kaddr = cfg->bios ? (fw_end + 2 * MiB - 1) & ~(2 * MiB - 1) : RAM_BASE;
        if (!load_image(m, kernel, kaddr, &info, err, errlen))
            goto fail;
        kernel_entry = info.entry;
        if (!cfg->bios && !cfg->program) {
            start = info.entry;
            tohost = info.tohost;
            fromhost = info.fromhost;
        }
    }
    uint64_t initrd_start = 0, initrd_end = 0;
    if (cfg->initrd) {
        if (!kernel) {
            snprintf(err, errlen, "--initrd needs --kernel");
            goto fail;
        }
        uint64_t half = cfg->ram_size / 2 < 128 * MiB ? cfg->ram_size / 2 : 128 * MiB;
        initrd_start = kernel_entry + half;
        if (!loader_load_raw(m->ram, cfg->initrd, initrd_start, &info, err, errlen))
            goto fail;
        initrd_end = info.high;
    }

    /* device tree */
    size_t dtb_cap = 64 * 1024;
    uint8_t *dtb = calloc(1, dtb_cap);
    long dtb_size = -1;
    if (!dtb) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (cfg->dtb_in) {
        FILE *f = fopen(cfg->dtb_in, "rb");
        if (!f) {
            snprintf(err, errlen, "%s: %s", cfg->dtb_in, strerror(errno));
            free(dtb);
            goto fail;
        }
        /* up to 1 MiB (QEMU's virt blob is about 8 KiB); a longer file is refused, not cut */
        size_t got = 0;
        for (size_t n; (n = fread(dtb + got, 1, dtb_cap - got, f)) > 0;) {
            got += n;
            if (got == dtb_cap && dtb_cap < MiB) {
                uint8_t *bigger = realloc(dtb, dtb_cap * 2);
                if (!bigger)
                    break;
                dtb = bigger;
                dtb_cap *= 2;
            }
        }
        int too_long = got == dtb_cap && fgetc(f) != EOF, failed = ferror(f);
        fclose(f);
        char why[160];
        if (failed)
            snprintf(err, errlen, "%s: read error", cfg->dtb_in);
        else if (too_long)
            snprintf(err, errlen, "%s: longer than %zu bytes: not a device tree for this machine", cfg->dtb_in, dtb_cap);
        else if ((dtb_size = dtb_check(dtb, got, why, sizeof why)) < 0)
            snprintf(err, errlen, "%s: %s", cfg->dtb_in, why);
        if (failed || too_long || dtb_size < 0) {
            free(dtb);
            goto fail;
        }
    } else {
        const char *isa = MT_ISA_STRING; /* emu/platform/isa.h */
        mt_dtb_params p = {.ram_base = RAM_BASE, .ram_size = cfg->ram_size, .isa = isa, .bootargs = cfg->append,
                           .initrd_start = initrd_start, .initrd_end = initrd_end,
                           .trace_unit_base = cfg->trace_unit ? cfg->trace_unit->base : 0,
                           .trace_unit_size = cfg->trace_unit ? cfg->trace_unit->size : 0,
                           .nharts = m->nharts};
        dtb_size = dtb_build(&p, dtb, dtb_cap);
        while (dtb_size < 0 && dtb_cap < MiB) { /* a long --append: a larger blob */
            uint8_t *bigger = realloc(dtb, dtb_cap * 2);
            if (!bigger)
                break;
            dtb = bigger;
            dtb_cap *= 2;
            memset(dtb, 0, dtb_cap);
            dtb_size = dtb_build(&p, dtb, dtb_cap);
        }
        if (dtb_size < 0 && cfg->append && strlen(cfg->append) > 4096) {
            snprintf(err, errlen, "--append: %zu bytes do not fit a device tree of at most %zu bytes",
                     strlen(cfg->append), dtb_cap);
            free(dtb);
            goto fail;
        }
    }
    if (dtb_size <= 0) {
        snprintf(err, errlen, "cannot build the device tree");
        free(dtb);
        goto fail;
    }
    if (cfg->dtb_out) {
        mt_outfile o; /* DTB.partial, renamed to DTB once whole */
        char oe[600];
        bool wrote = mt_outfile_open(&o, cfg->dtb_out, "wb", 0, oe, sizeof oe) == 0;
        if (wrote && fwrite(dtb, 1, (size_t)dtb_size, o.f) != (size_t)dtb_size) {
            snprintf(oe, sizeof oe, "%s: write failed: %s", cfg->dtb_out, strerror(errno ? errno : EIO));
            mt_outfile_discard(&o);
            wrote = false;
        } else if (wrote && mt_outfile_commit(&o, oe, sizeof oe) != 0) { /* a full disk shows here */
            wrote = false;
        }
        if (!wrote) {
            snprintf(err, errlen, "cannot write the device tree: %s", oe);
            free(dtb);
            goto fail;
        }
    }
    /* as QEMU: 2 MiB aligned, as high as possible below min(RAM end, 3 GiB) */
    uint64_t ram_end = RAM_BASE + cfg->ram_size, top = ram_end < 3072 * MiB ? ram_end : 3072 * MiB;
    uint64_t dtb_addr = (top - (uint64_t)dtb_size) & ~(2 * MiB - 1);
    if (dtb_addr < fw_end || dtb_addr < RAM_BASE)
        dtb_addr = (top - (uint64_t)dtb_size) & ~UINT64_C(7);
    ram_host_write(m->ram, dtb_addr, dtb, (uint64_t)dtb_size);
    free(dtb);
    m->dtb_addr = dtb_addr;
    m->entry = start;

    write_reset_rom(m, start, dtb_addr, kernel_entry);
    if (tohost) {
        if (!htif_attach(&m->htif, &m->bus, &m->cpu, cfg->out, tohost, fromhost)) {
            snprintf(err, errlen, "tohost symbol at 0x%llx is not in RAM", (unsigned long long)tohost);
            goto fail;
        }
        m->has_htif = true;
    }
    for (unsigned i = 0; i < m->nharts; i++)
        cpu_reset(m->harts[i], ROM_BASE);
    if (cfg->timing == TIMING_CACHE) {
        mt_cache_model *cm = calloc(1, sizeof *cm);
        if (!cm || !cache_init(cm)) {
            free(cm);
            snprintf(err, errlen, "out of memory for the cache model");
            goto fail;
        }
        m->cpu.cache = cm;
    }
    m->cpu.insn_limit = cfg->max_insns ? cfg->max_insns : UINT64_MAX;
    m->cpu.log_commits = cfg->log_commits;
    m->cpu.on_poll = on_poll;
    m->cpu.poll_ctx = m;
    m->cpu.idle = on_idle;
    m->cpu.idle_ctx = m;
    for (unsigned i = 1; i < m->nharts; i++) {
        m->harts[i]->log_commits = cfg->log_commits;
        m->harts[i]->on_poll = on_poll;
        m->harts[i]->poll_ctx = m;
    }
    if (cfg->event_hash_period) {
        m->ev_hash = UINT64_C(0xcbf29ce484222325);
        cpu_set_listener(&m->cpu, hash_listener, m, 0);
    }
    cpu_update_next_event(&m->cpu);
    return true;
fail:
    return false;
}

int machine_run(mt_machine *m)
{
    m->wall_start = m->wall_last = machine_wall_seconds();
    if (m->nharts > 1) {
        mt_smp_end end = smp_run(m);
        fflush(m->cfg.out);
        if (end == SMP_LIMIT) {
            fprintf(stderr, "mtemu: instruction limit reached (%llu)\n", (unsigned long long)m->cfg.max_insns);
            return 0;
        }
        if (end == SMP_STUCK)
            fprintf(stderr, "mtemu: every hart waits (WFI) for an interrupt that nothing can raise; stopping\n");
    } else {
        cpu_run(&m->cpu);
    }
    fflush(m->cfg.out);
    for (unsigned i = 0; i < m->nharts; i++) {
        const mt_cpu *h = m->harts[i];
        if (h->trap_stuck) {
            fprintf(stderr, "mtemu: hart %u is stuck: %llu traps in a row without retiring an instruction, the last "
                            "at pc 0x%llx (%s %llu, handler at 0x%llx); stopping\n", i,
                    (unsigned long long)h->storm_traps, (unsigned long long)h->stuck_pc,
                    h->stuck_cause & CAUSE_INTERRUPT ? "interrupt" : "cause",
                    (unsigned long long)(h->stuck_cause & ~CAUSE_INTERRUPT), (unsigned long long)h->pc);
            return 1;
        }
    }
    if (m->interrupted) {
        fprintf(stderr, "mtemu: stopped by signal %d (%s) after %llu instructions\n", m->interrupted,
                strsignal(m->interrupted), (unsigned long long)smp_total_instret(m));
        return 128 + m->interrupted;
    }
    if (m->has_htif && m->htif.finished)
        return m->htif.exit_code;
    if (m->finisher.finished) {
        if (m->finisher.reset_requested)
            fprintf(stderr, "mtemu: the guest asked for a reset; stopping\n");
        return m->finisher.exit_code;
    }
    if (m->cpu.limit_hit && m->cpu.insn_limit != UINT64_MAX && m->cpu.instret >= m->cpu.insn_limit) {
        fprintf(stderr, "mtemu: instruction limit reached (%llu)\n", (unsigned long long)m->cpu.insn_limit);
        return 0;
    }
    return 1; /* stopped for another reason (WFI with no wake-up source) */
}

bool machine_write_signature(mt_machine *m, char *err, size_t errlen)
{
    const char *path = m->cfg.signature;
    unsigned g = m->cfg.signature_granularity ? m->cfg.signature_granularity : 4;
    if (!m->sig_begin || m->sig_end < m->sig_begin) {
        snprintf(err, errlen, "--signature: the program has no begin_signature/end_signature symbols");
        return false;
    }
    mt_outfile o; /* PATH.partial, renamed to PATH once whole */
    char oe[600];
    if (mt_outfile_open(&o, path, "w", 0, oe, sizeof oe) != 0) {
        snprintf(err, errlen, "%s", oe);
        return false;
    }
    FILE *f = o.f;
    bool ok = true;
    for (uint64_t a = m->sig_begin; a < m->sig_end && ok; a += g) {
        uint8_t b[16] = {0};
        ok = ram_host_read(m->ram, a, b, g);
        for (unsigned i = g; ok && i-- > 0;) /* little-endian words, most significant digit first */
            fprintf(f, "%02x", b[i]);
        fputc('\n', f);
    }
    if (!ok) {
        mt_outfile_discard(&o);
        snprintf(err, errlen, "%s: signature region outside RAM", path);
        return false;
    }
    if (mt_outfile_commit(&o, oe, sizeof oe) != 0) {
        snprintf(err, errlen, "%s", oe);
        return false;
    }
    return true;
}

void machine_print_stats(const mt_machine *m, FILE *f, double seconds)
{
    const mt_cpu *c = &m->cpu;
    if (m->nharts > 1) {
        fprintf(f, "harts         %u, instructions", m->nharts);
        for (unsigned i = 0; i < m->nharts; i++)
            fprintf(f, " %llu", (unsigned long long)m->harts[i]->instret);
        fprintf(f, " (total %llu); below: hart 0\n", (unsigned long long)smp_total_instret(m));
    }
    fprintf(f, "instructions  %llu\n", (unsigned long long)c->instret);
    fprintf(f, "mtime         %llu (%.6f s emulated)\n", (unsigned long long)cpu_mtime(c), (double)cpu_mtime(c) * 1e-7);
    fprintf(f, "cycles        %llu\n", (unsigned long long)c->cycle);
    fprintf(f, "pc            0x%llx (privilege %d)\n", (unsigned long long)c->pc, c->priv);
    fprintf(f, "seconds       %.3f (host)\n", seconds);
    fprintf(f, "MIPS          %.1f\n", seconds > 0 ? smp_total_instret(m) / seconds * 1e-6 : 0.0); /* all harts */
    static const char *const kinds[MT_KIND_COUNT] = {"fetch", "load", "store", "amo", "ptw"};
    for (int k = 0; k < MT_KIND_COUNT; k++)
        fprintf(f, "access.%-6s %llu\n", kinds[k],
                (unsigned long long)(c->access_count[k] + (k == MT_KIND_FETCH ? c->instret : 0)));
    if (c->cache) {
        const mt_cache_model *cm = c->cache;
        const mt_cache_level *lv[3] = {&cm->l1i, &cm->l1d, &cm->l2};
        static const char *const nm[3] = {"l1i", "l1d", "l2"};
        for (int i = 0; i < 3; i++)
            fprintf(f, "cache.%-6s %llu hits %llu misses %llu write-backs\n", nm[i], (unsigned long long)lv[i]->hits,
                    (unsigned long long)lv[i]->misses, (unsigned long long)lv[i]->writebacks);
        fprintf(f, "dram          %llu line fills %llu write-backs\n", (unsigned long long)c->dram_count[0],
                (unsigned long long)c->dram_count[1]);
    }
    fprintf(f, "tlb_fills     %llu\n", (unsigned long long)c->tlb_fills);
    fprintf(f, "decoded       %llu\n", (unsigned long long)c->dpage_decodes);
    fprintf(f, "dirty_pages   %llu\n", (unsigned long long)ram_dirty_pages(m->ram));
    if (m->cfg.event_hash_period)
        fprintf(f, "events        %llu hash %016llx\n", (unsigned long long)m->ev_count, (unsigned long long)m->ev_hash);
}

void machine_destroy(mt_machine *m)
{
    if (!m)
        return;
    release_harts(m);
    ram_destroy(m->ram);
    free(m);
}
