/* The QEMU-virt-compatible machine: RAM, boot ROM with QEMU's reset vector, CLINT, PLIC, UART,
 * test finisher, HTIF, device tree, loaders, and the run loop with its progress line. */
#ifndef EMU_MACHINE_H
#define EMU_MACHINE_H

#include <stdio.h>

#include "emu/platform/bus.h"
#include "emu/devices/clint.h"
#include "emu/cpu/cpu.h"
#include "emu/devices/finisher.h"
#include "emu/devices/htif.h"
#include "emu/devices/plic.h"
#include "emu/devices/uart.h"

#define RAM_BASE UINT64_C(0x80000000)

typedef struct {
    uint64_t ram_size;
    const char *program; /* bare-metal program: loaded like QEMU's -bios none -kernel */
    const char *bios, *kernel, *append, *initrd;
    const char *dtb_in;  /* use this DTB instead of the generated one */
    const char *dtb_out; /* also write the generated DTB here */
    uint64_t max_insns;  /* 0: no limit */
    mt_timing_mode timing;
    bool log_commits;
    bool progress;       /* progress line on stderr for long runs */
    uint64_t event_hash_period; /* 0: no listener; 1: every access; n: one access per n cycles */
    const char *signature;      /* write [begin_signature, end_signature) here at exit */
    unsigned signature_granularity; /* bytes per line (1, 2, 4, 8, 16); 0 = 4 */
    FILE *out;           /* console (UART, HTIF) */
    struct mp_session *metapaging; /* meta-paging (emu/metapaging/mpctl.h); NULL: flat RAM, no observer */
    int in_fd;           /* console input, -1 for none */
    const mt_device *trace_unit; /* the trace unit's MMIO window (emu/trace/tracectl.h); NULL: none */
    unsigned harts;      /* -smp N (1..MT_MAX_HARTS; 0 means 1): emu/platform/smp.h */
} mt_machine_config;

typedef struct mt_machine {
    mt_machine_config cfg;
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu; /* hart 0 */
    mt_cpu *harts[MT_MAX_HARTS]; /* harts[0] = &cpu; the others allocated with -smp */
    unsigned nharts;
    mt_clint clint;
    mt_plic plic;
    mt_uart uart;
    mt_finisher finisher;
    mt_htif htif;
    bool has_htif;
    uint64_t dtb_addr, entry;
    uint64_t sig_begin, sig_end;
    /* event-hash listener */
    uint64_t ev_hash, ev_count;
    /* progress line */
    double wall_start, wall_last;
    int interrupted; /* the signal that stopped the run (machine_signal), or 0 */
    /* -smp N: the machine's time (what accesses are stamped with) where the last turn ended, and
     * who is told of each turn's hart (the trace unit: its MMIO time and its listener's hart) */
    uint64_t smp_time;
    void (*on_turn)(void *ctx, mt_cpu *hart);
    void *turn_ctx;
    /* the debugger's look at its socket at every device poll (emu/gdb/stub.c), or NULL */
    void (*debug_poll)(void *ctx);
    void *debug_poll_ctx;
    /* called while every hart waits for console input (WFI, no timer), every 10 ms of host
     * time: the trace's writers keep their bounded loss (trace_session_idle), or NULL */
    void (*idle_hook)(void *ctx);
    void *idle_hook_ctx;
    /* writes what the progress line adds at its end into buf (the trace's size so far:
     * trace_session_progress), or NULL */
    void (*progress_hook)(void *ctx, char *buf, size_t len);
    void *progress_hook_ctx;
} mt_machine;

/* NULL with one line in err on bad input (file, format, size). */
mt_machine *machine_create(const mt_machine_config *cfg, char *err, size_t errlen);
/* The machine as machine_create(cfg) makes it, reusing m's memory: the harts, devices, device
 * tree and images are set up afresh and the RAM cleared (kept mapped when cfg's size is m's).
 * A reset machine runs a program exactly as a fresh one (tests/unit/test_emu_machine.c). For
 * callers that build many short-lived machines (tests/fuzz/fuzz_mtemu.c). False with err set
 * on the errors machine_create reports: m is then only fit for machine_destroy. */
bool machine_reset(mt_machine *m, const mt_machine_config *cfg, char *err, size_t errlen);
/* Runs to the end; returns the guest's exit code (HTIF or finisher; 0 on a reached limit). */
int machine_run(mt_machine *m);
/* Writes the signature region (riscv-arch-test, as Spike's +signature); false with err set. */
bool machine_write_signature(mt_machine *m, char *err, size_t errlen);
void machine_print_stats(const mt_machine *m, FILE *f, double seconds);
void machine_destroy(mt_machine *m);
double machine_wall_seconds(void);
/* From a signal handler (async-signal-safe): stop the run at the next device poll, so that the
 * trace and the statistics are finished as at a normal end; machine_run then returns 128 + sig. */
void machine_signal(int sig);

#endif
