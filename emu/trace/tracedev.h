/* The trace unit as an mtemu device: the MMIO window at 0x1100_0000 (lib/mt_regs.h, normative
 * docs/trace-unit.md) and the CPU's bus-access listener, in front of a *backend* that is the
 * unit itself: the C model (lib/mt_unit.h, provided here), or the RTL / model+RTL lockstep that
 * emu/trace/tracectl.c plugs in through the same operations (so this file never links the RTL).
 *
 * Besides the unit, an optional *recorder* sees every access (no sampling, no FIFO): the
 * every-access ground-truth path (`--trace-all`), which the hardware unit cannot provide exactly
 * (with r = 1 each SYNC+SECTION pair costs it two samples, docs/trace-unit.md section 5).
 *
 * The hook's cost: the CPU calls the listener only from the cycle the unit says it needs the next
 * access (mt_unit_next_due); between sample points nothing but the CPU's one compare runs. */
#ifndef EMU_TRACEDEV_H
#define EMU_TRACEDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "mt_event.h"
#include "mt_unit.h"

/* What the device needs of a trace unit.  Cycles are the CPU's reference-clock cycles; calls
 * come in non-decreasing cycle order, at most one access per cycle. */
typedef struct {
    void *ctx;
    /* returns false once the backend cannot go on (lockstep divergence): the run stops */
    bool (*access)(void *ctx, const mt_access *a);
    bool (*mmio_write)(void *ctx, uint64_t cycle, uint32_t off, uint32_t val);
    uint32_t (*mmio_read)(void *ctx, uint64_t cycle, uint32_t off, bool *ok);
    /* first cycle at which the backend needs an access (0: every access, UINT64_MAX: none) */
    uint64_t (*next_due)(void *ctx);
    /* first cycle the backend has not completed: inputs before it are refused */
    uint64_t (*now)(void *ctx);
    /* The tap an access of `cycle` is compared with: the one the unit samples (latched at
     * enable; the written value while idle) at the start of that cycle.  A register write from an
     * earlier cycle still pending (it may change TAP or start a session) is applied first: the
     * backend completes the cycles before `cycle` (mt_unit_settle, mt_rtl_tap_at,
     * mt_lockstep_tap_at), so next_due and now may move on.  A write of `cycle` itself is not
     * applied (it takes effect at the cycle's end).  Every backend answers the same for the same
     * inputs (tests/e2e/trace-tap-switch.sh). */
    unsigned (*tap_at)(void *ctx, uint64_t cycle);
    /* disable at `cycle`, run to the END and an empty FIFO; false on divergence */
    bool (*stop)(void *ctx, uint64_t cycle);
} tracedev_backend;

/* The C model as a backend (u must outlive the device). */
tracedev_backend tracedev_model_backend(mt_unit *u);

/* The every-access recorder: gets each access whose kind is in kind_mask and tap equals tap,
 * at most one per cycle, and each MARKER register write (whether or not the unit takes it). */
typedef struct {
    void *ctx;
    uint32_t kind_mask;
    unsigned tap;
    /* The recorder needs of its kinds only the accesses that change the 4 KiB page (tap core):
     * the CPU's page filter keeps the others from it (cpu_set_page_filter), and it may arm the
     * filter's alternation with tracedev_page_pair. */
    bool page_changes;
    bool (*access)(void *ctx, const mt_access *a);
    /* With page_changes (optional): `n` accesses of its kinds that repeated the page of the last
     * access it heard (or the last one's, when that one came in a cycle already used) were kept
     * from it; called before the next access it hears, and at tracedev_finish.  Not called while
     * an alternation is armed (tracedev_page_pair): its held steps have no ordinal. */
    void (*skipped)(void *ctx, uint64_t n);
    bool (*marker)(void *ctx, uint64_t cycle, uint32_t value);
    /* Optional, without page_changes: `n` accesses of its kinds and tap, in order, one per cycle,
     * as `access` would get them one by one (it may reorder nothing, but may overwrite r).  With
     * it, while the recorder alone takes every access (the unit idle), the CPU appends them to
     * the device's buffer (cpu_set_access_buf) and the recorder gets them in batches: drained
     * when full, before a register write (a MARKER's place in the stream), at a re-arm and at
     * tracedev_finish. */
    bool (*access_batch)(void *ctx, mt_access_rec *r, size_t n);
    /* Optional, with page_changes: the CPU's page log (cpu_set_page_sink) while the recorder alone
     * hears the page changes: accesses j = 0..n-1 (stamp[j], and the cpu_filter_pack word[j]) as
     * `access` would get them one by one; returns how many it took: all, or m >= 1 after the one
     * after which it would call tracedev_page_pair (pair[0], pair[1] then set; the page log arms
     * it; pair NULL: it does not ask), or after one at which it failed (*ok false, as `access`
     * returning false).
     * With skipped too, the recorder must read no CPU state when it hears an access and never
     * call tracedev_page_pair (it is given no pair), and it counts the repeats kept from it
     * itself: ord[j] is access j's cpu_filter_ordinal as it came (what `skipped`'s caller reads
     * live), *ord_last the ordinal of the access it heard before (it leaves the last one taken
     * there); the repeats before access j are ord[j] - *ord_last - 1, as `skipped` would hear.
     * Without skipped, ord and ord_last are NULL. */
    uint32_t (*page_batch)(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord,
                           uint64_t *ord_last, uint32_t n, uint64_t pair[2], bool *ok);
} tracedev_recorder;

typedef struct mt_tracedev {
    tracedev_backend be;
    tracedev_recorder rec; /* rec.access NULL: none */
    mt_unit *model;        /* the backend's unit when it is the C model (direct fast path) */
    mt_cpu *cpu;           /* set by tracedev_attach */
    uint64_t last_cycle;   /* last access given to the unit (+1), to keep one access per cycle */
    uint64_t rec_last;     /* the same for the recorder */
    uint64_t rec_ord;      /* cpu_filter_ordinal of the last access the page filter let through */
    uint64_t unit_accesses, rec_accesses;
    uint64_t collisions;   /* accesses in an already used cycle (dram tap transfers): not given */
    uint64_t mmio_reads, mmio_writes, bad_mmio;
    bool failed;           /* the backend stopped (divergence): the CPU was asked to stop */
    bool want_thread;      /* run the C model on a thread of its own (tracedev_use_thread) */
    struct tracepipe *pipe; /* that thread's queue, from tracedev_attach to tracedev_finish */
    bool pipe_used;         /* it ran: its counts, for --stats */
    uint64_t pipe_queued, pipe_waits;
    uint64_t pipe_fast;     /* captures the CPU's runs interpreter took itself (cpu_sampler) */
    uint64_t pipe_taken_back; /* ... and took back (a slow path or trap before the access) */
    uint64_t pipe_data_ahead; /* of those taken, data accesses known before the run */
    double pipe_seconds;    /* its CPU time */
    mt_access_buf abuf;     /* rec.access_batch's buffer (cpu.h): the accesses not yet handed over */
} mt_tracedev;

void tracedev_init(mt_tracedev *d, const tracedev_backend *be, const tracedev_recorder *rec);
/* The bus device for machine_create (base MT_REGS_BASE, 4 KiB). */
mt_device tracedev_device(mt_tracedev *d);
/* Asks for the C model (without a recorder) to run on a thread of its own (emu/trace/tracepipe.h):
 * the same stream, the emulator's thread freed of the model's work. Call before attach. */
void tracedev_use_thread(mt_tracedev *d, bool on);
/* Installs the CPU listener; call after machine_create and after any reset-time programming. */
void tracedev_attach(mt_tracedev *d, mt_cpu *cpu);
/* -smp N: the hart that runs now, which the CPU side has given the listener (cpu_take_listener). */
void tracedev_set_hart(mt_tracedev *d, mt_cpu *cpu);
/* Tells the CPU when the next access is needed (after register writes made outside the CPU). */
void tracedev_rearm(mt_tracedev *d);
/* From the recorder's access call (page_changes): the CPU's page filter may hold back the steps of
 * a settled alternation between the 4 KiB pages last and other (cpu_page_filter_pair). */
void tracedev_page_pair(mt_tracedev *d, uint64_t last, uint64_t other);
/* The listener (mt_access_listener), exposed for tests. */
uint64_t tracedev_listener(void *ctx, const mt_access *a);
/* At the end of the run: stop the unit at the current cycle.  false when the backend failed. */
bool tracedev_finish(mt_tracedev *d);
/* Stops the model's thread if it still runs (before the unit is freed; tracedev_finish does it). */
void tracedev_release(mt_tracedev *d);

#endif
