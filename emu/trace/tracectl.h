/* Tracing as mtemu offers it: the command-line options (defaults for every trace-unit register,
 * so a program that knows nothing of the unit is traced from reset), and a session that owns
 * the unit (C model, Verilated RTL, or both in lockstep), the device that maps it
 * (emu/trace/tracedev.h), the .mtr writers, and the every-access recorder (--trace-all).
 *
 * The emulator's part is small: tracectl_options_extract() on argv, tracectl_session_create()
 * before the machine, hand tracectl_device() to machine_create (cfg.trace_unit), call
 * tracectl_attach() with the CPU once the machine exists, and tracectl_finish() after the run.
 * Without --trace/--trace-all there is no session: no device, no listener, nothing changes. */
#ifndef EMU_TRACECTL_H
#define EMU_TRACECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "mt_reduce.h"
#include "mt_reduce_check.h"
#include "mt_unit_reduce.h"
#include "mt_spatial.h"
#include "mt_unit.h"

typedef enum { TRACE_UNIT_MODEL = 0, TRACE_UNIT_RTL = 1, TRACE_UNIT_BOTH = 2 } trace_unit_kind;
/* What --trace records: the unit's time sampling (burst/span, the seed's mode), the exact
 * reduction (every guest-RAM access of --trace-kinds through lib/mt_reduce.h's filter) or the
 * spatial sample (the same accesses through lib/mt_spatial.h's filter). */
/* The unit's reduce path as --trace-reduce-unit runs it: the RTL's default window and queue
 * (rtl_model/rtl/mt_tu_reduce.sv LgW = 6, LgQ = 3). */
#define TRACE_REDUCE_UNIT_W 64u
#define TRACE_REDUCE_UNIT_Q 8u
typedef enum { TRACE_MODE_BURST = 0, TRACE_MODE_REDUCE = 1, TRACE_MODE_SPATIAL = 2 } trace_mode;

struct trace_options {
    const char *trace_path;     /* --trace FILE.mtr: the unit's packet stream */
    const char *all_path;       /* --trace-all FILE.mtr: every access, full format, no FIFO */
    trace_unit_kind unit;       /* --trace-unit model|rtl|both (default model) */
    mt_unit_cfg cfg;            /* register values at reset (defaults: the registers' reset values) */
    uint32_t fifo_depth, fifo_drain; /* --trace-fifo-depth / --trace-fifo-drain (4096, 8) */
    bool start_at_reset;        /* --trace-start reset|firmware (default reset) */
    bool model_thread;          /* --trace-thread on|off (default on when the process may use 2+ CPUs) */
    uint32_t all_kinds;         /* --trace-all-kinds LIST (default all five) */
    unsigned all_tap;           /* --trace-all-tap core|dram (default core) */
    bool all_ram_only;          /* --trace-all-ram: only accesses to guest RAM (no MMIO) */
    bool all_runs;              /* --trace-all-format runs: the runs stream (docs/trace-format.md 4.2) */
    trace_mode mode;            /* --trace-mode burst|reduce|spatial (default burst) */
    uint64_t reduce_budget;     /* --trace-reduce-budget BYTES (B; default MT_REDUCE_DEFAULT_BUDGET,
                                 * the unit's own reduce path: its largest, 4M) */
    bool reduce_budget_given;   /* --trace-reduce-budget was on the command line */
    unsigned reduce_check;      /* --trace-reduce-check SIZES: bit i checks size 4K << i against
                                 * LRU at C = k beside the filter (lib/mt_reduce_check.h); 0: off */
    uint32_t spatial_rate;      /* --trace-spatial-rate N (default MT_SPATIAL_DEFAULT_RATE) */
    bool unit_reduce;           /* reduce mode through the unit's reduce path (REDUCE register):
                                 * --trace-mode reduce with --trace-unit=rtl|both */
    bool spatial_unit;          /* spatial mode through the unit's front end (SPATIAL register):
                                 * --trace-spatial-unit, implied by --trace-unit=rtl|both */
    bool reduce_unit;           /* --trace-reduce-unit: reduce mode through the C model of the
                                 * unit's reduce path (lib/mt_unit_reduce.h: a window of
                                 * TRACE_REDUCE_UNIT_W slots, a queue of TRACE_REDUCE_UNIT_Q) */
    const char *waves_path;     /* --waves FILE.fst: the RTL unit's waveform (rtl|both) */
    uint64_t waves_from, waves_to; /* --waves-from / --waves-to CYCLE: [from, to) of the unit's clock */
    bool waves_window;          /* either was given */
};

void trace_options_default(struct trace_options *o);
/* Takes every tracing option out of argv (argc updated, the rest kept in order); 0, or -1 with
 * one line in err naming the option and what is wrong with its value. */
int trace_options_extract(struct trace_options *o, int *argc, char **argv, char *err, size_t errlen);
const char *trace_options_help(void);
/* True when any trace output was asked for (a session is needed). */
bool trace_options_active(const struct trace_options *o);

struct trace_session;

/* What the .mtr header should say about the run (no paths, no time: files stay reproducible). */
typedef struct {
    uint64_t ram_base, ram_size;
    const char *program;  /* basename recorded */
    const char *append;   /* /chosen/bootargs */
    const char *timing;   /* none | simple | cache */
} trace_run_info;

/* Opens the output files and builds the unit.  NULL with err on a bad option combination or a
 * file that cannot be created. */
struct trace_session *trace_session_create(const struct trace_options *o, const trace_run_info *ri,
                                           char *err, size_t errlen);
/* The MMIO device to map (valid as long as the session). */
const mt_device *trace_session_device(struct trace_session *s);
/* Programs the command-line register values, enables the unit (unless --trace-start firmware)
 * and installs the CPU's access listener. */
void trace_session_attach(struct trace_session *s, mt_cpu *cpu);
/* -smp N: the hart whose turn begins (the unit's MMIO time and the hart its listener is on;
 * emu/platform/smp.c has moved the listener to it already). A machine's on_turn hook. */
void trace_session_on_turn(void *session, mt_cpu *hart);
/* The guest waits (WFI, nothing pending but console input): what the unit has drained goes to
 * the writers and each writes its tail if its second is up, so a kill during a long wait loses
 * nothing from before it (lib/mt_mtr.h, mt_writer_poll). A machine's idle_hook. */
void trace_session_idle(void *session);
/* The trace so far for the progress line (a machine's progress_hook): ", trace X MB written"
 * and, with a unit model, its samples and samples dropped. Waits for the model's thread to
 * catch up first (as trace_session_idle; the stream is the same bytes). */
void trace_session_progress(void *session, char *buf, size_t len);
/* After the run: stops the unit, writes END, closes the files.  0; 3 when model and RTL
 * diverged (reported on stderr); 2 with err on a write error (partial files removed). */
int trace_session_finish(struct trace_session *s, char *err, size_t errlen);
/* Counts for --stats. */
void trace_session_report(const struct trace_session *s, FILE *f);
/* The device (for tests that drive the listener themselves). */
struct mt_tracedev *trace_session_tracedev(struct trace_session *s);
/* The lockstep pair with --trace-unit=both, else NULL (tests disturb one side through it). */
struct mt_lockstep *trace_session_lockstep(struct trace_session *s);
/* Frees everything (removes unfinished output files). */
void trace_session_destroy(struct trace_session *s);

#endif
