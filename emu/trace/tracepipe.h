/* The trace unit's C model on a thread of its own, behind a queue of captured accesses.
 *
 * Inside a burst (r = 24) a sample falls every ~20 guest instructions, ~20 ns of emulation, and
 * each sample costs the emulator's thread the stop inside the run, the listener, and the model's
 * work (arbitration, encoder, FIFO, the .mtr writer and zstd behind its sink). Here the
 * emulator's thread runs only the unit's schedule (lib/mt_sched.h) to find the accesses the unit
 * captures and queues those; a consumer thread gives them to the model in order. The model sees exactly the inputs that matter for its
 * output, in the same order, so the stream is byte-identical to feeding it in line, whatever
 * the threads' timing (tested: tests/e2e/trace-unit.sh compares the files).
 *
 * Everything else that touches the model from the emulator's thread (a guest MMIO read or write
 * of the unit, the end of the run) first waits until the consumer has caught up
 * (tracepipe_sync), then uses the model directly, then takes a new copy of the schedule
 * (tracepipe_resume). While a register write is pending in the model (it applies at the end of
 * its cycle and may start or end a session), accesses go to the model in line, as without the
 * pipe, until it has applied. */
#ifndef EMU_TRACEPIPE_H
#define EMU_TRACEPIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/cpu/cpu.h"
#include "mt_event.h"
#include "mt_sched.h"
#include "mt_unit.h"

typedef struct tracepipe tracepipe;

/* Starts the consumer thread for u (which the pipe then owns until tracepipe_stop, except
 * between tracepipe_sync and tracepipe_resume). last_cycle: the first cycle an access may have
 * (one access per cycle). NULL when no thread or memory could be had. Without `thread` there is
 * no consumer: the captures go to u in line, a batch at a time (the same stream; what the pipe
 * still gives then is the schedule the CPU's runs interpreter samples with, tracepipe_sampler). */
tracepipe *tracepipe_create(mt_unit *u, uint64_t last_cycle, bool thread);
/* The schedule and batch for cpu_set_sampler (valid as long as the pipe). */
cpu_sampler *tracepipe_sampler(tracepipe *p);
/* It has a consumer thread. */
bool tracepipe_threaded(const tracepipe *p);
/* Waits for the consumer and ends its thread: u is complete and the caller's again (accesses
 * still given go to it in line). */
void tracepipe_stop(tracepipe *p);
/* tracepipe_stop, then frees the queue. */
void tracepipe_destroy(tracepipe *p);

/* The CPU's listener (mt_access_listener, ctx = the pipe): the decisions of tracedev's model
 * listener (the unit's tap, one access per cycle, from the due cycle on), with the schedule's
 * copy standing in for the model. Returns the next due cycle. */
uint64_t tracepipe_listener(void *ctx, const mt_access *a);
uint64_t tracepipe_due(tracepipe *p);

/* Waits until the model has taken every queued access; the caller may then use u directly. */
void tracepipe_sync(tracepipe *p);
/* After direct use: queue again from u's current state. */
void tracepipe_resume(tracepipe *p);

typedef struct {
    uint64_t accesses, collisions, last_cycle; /* as tracedev counts them (trace.accesses) */
    uint64_t queued;         /* captures handed to the thread */
    uint64_t waits;          /* times the emulator waited for it (a full queue, a sync) */
    double consumer_seconds; /* its CPU time, once stopped */
    uint64_t fast;           /* captures the CPU's runs interpreter took itself (cpu_sampler) */
    uint64_t taken_back;     /* ... and took back */
    uint64_t data_ahead;     /* of those taken, data accesses known ahead (cpu_sampler.data_ahead) */
} tracepipe_stats;
tracepipe_stats tracepipe_counts(tracepipe *p);

#endif
