/* The online simulations (mpsim.h) on a thread of their own.
 *
 * The emulator's thread queues the page reports, in the batches it gathers anyway, and the
 * emulator's own RAM writes, in order, on an SPSC ring (emu/trace/accring.h, word mode); the
 * thread hands them to the same mpsim calls in the same order.  Every mpsim count depends only on
 * that order (a batch may be split anywhere: mpsim_access_batch is the same as one mpsim_access
 * per report), so the results are those of the in-line calls, whatever the threads' timing.
 * When the LRU stack pass counts every configuration (mpsim_stack_units), the emulator's thread
 * first folds the reads that repeat or alternate the stack filter's two front units
 * (mpfront.h) and the thread makes the equivalent mpsim_access_words calls instead.
 *
 * The thread owns the mpsim from mpsim_thread_start until mpsim_thread_sync returns; then the
 * caller may read it (mpsim_result) until it queues again.  docs/metapaging.md, "On a thread". */
#ifndef EMU_MPSIMTHREAD_H
#define EMU_MPSIMTHREAD_H

#include <stdint.h>

#include "emu/metapaging/mpsim.h"

struct mpsim_thread;

/* The ring's default size: 2^17 words (1 MiB, 32 of the CPU's 4096-report batches). */
#define MPSIM_THREAD_RING_LOG2 17

/* Starts the thread on `sim` (reports are pfn << 1 | is_write, first_pfn = RAM's first, as
 * mpsim_access_batch takes them) with a ring of 2^ring_log2 words (1..24).  NULL when the thread
 * or its memory cannot be had (the caller then calls mpsim itself). */
struct mpsim_thread *mpsim_thread_start(struct mpsim *sim, uint64_t first_pfn, unsigned ring_log2);

/* mpsim_access_batch(sim, entries, n, first_pfn), on the thread (waits while the ring is full). */
void mpsim_thread_access_batch(struct mpsim_thread *t, const uint64_t *entries, uint64_t n);
/* mpsim_host_write(sim, offset, len), on the thread, after the reports queued before it. */
void mpsim_thread_host_write(struct mpsim_thread *t, uint64_t offset, uint64_t len);

/* Waits until the thread has done everything queued; returns the reports inside RAM so far (the
 * sum of mpsim_access_batch's results). */
uint64_t mpsim_thread_sync(struct mpsim_thread *t);

struct mpsim_thread_stats {
    uint64_t words;          /* queued, headers included */
    uint64_t waits;          /* times the emulator's thread waited (full ring, sync) */
    double thread_seconds;   /* the thread's CPU time (after mpsim_thread_stop) */
};
struct mpsim_thread_stats mpsim_thread_counts(const struct mpsim_thread *t);

/* mpsim_thread_sync, then ends the thread (the mpsim is the caller's again); idempotent. */
void mpsim_thread_stop(struct mpsim_thread *t);
/* mpsim_thread_stop, then frees it (not the mpsim). */
void mpsim_thread_destroy(struct mpsim_thread *t);

#endif
