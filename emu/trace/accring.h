/* A queue of bus accesses to a consumer thread: one producer (the emulator's thread) pushes, the
 * thread hands each access, in order, to a `take` function. What runs behind it (the trace unit's
 * model and the .mtr writer behind it: emu/trace/tracepipe.c) then costs the emulator only the push.
 * It pays where few accesses go through it: each 64-byte line of the ring moves between the cores
 * (about 100 ns each on the 2-vCPU machine this was measured on), so the every-access recorder
 * (--trace-all, an access every ~3 ns) ran slower through it than in line (121 against 144 MIPS
 * on wss) and does not use it; the unit's captures (one per 24 cycles in a burst) gain.
 *
 * The consumer owns whatever `take` touches until accring_sync() returns; after it the producer
 * may use that state itself until its next push. Accesses are stored in 16 bytes (cycle, and
 * address, write, kind, tap and log2(size) in one word). */
#ifndef EMU_ACCRING_H
#define EMU_ACCRING_H

#include <stdint.h>

#include "mt_event.h"

typedef struct accring accring;
/* Takes one access (on the consumer thread). */
typedef void (*accring_take_fn)(void *ctx, const mt_access *a);

/* Starts the consumer thread; `name` names it (top, perf). NULL when no thread or memory. */
accring *accring_create(accring_take_fn take, void *ctx, const char *name);
/* Queues one access (waits while the ring is full). */
void accring_push(accring *r, const mt_access *a);
/* Queues a[0..n) in order (accring_push of each). */
void accring_push_many(accring *r, const mt_access *a, unsigned n);
/* Waits until the consumer has taken everything pushed. */
void accring_sync(accring *r);
/* accring_sync, then ends the thread (idempotent); the counts stay readable. */
void accring_stop(accring *r);
/* accring_stop, then frees the ring. */
void accring_destroy(accring *r);

/* Word mode: the same ring carrying plain 64-bit words, for a producer whose items are not bus
 * accesses (the online meta-paging simulations' page reports: emu/metapaging/mpsimthread.c).
 * The consumer hands the words on in order, in runs that are contiguous in the ring (a run ends
 * at the ring's end or after at most a few thousand words), to `take`; what the words mean and
 * where an item ends is the caller's business (an item may be split across runs). The producer
 * publishes at the end of every accring_push_words, so push items in batches. The ring holds
 * 2^log2_words words (1..24; tests use tiny rings). accring_sync, accring_stop, accring_destroy
 * and accring_counts (pushed counts words) are as above; accring_push and accring_push_many must
 * not be used on such a ring. */
typedef void (*accring_take_words_fn)(void *ctx, const uint64_t *words, uint64_t n);
accring *accring_create_words(accring_take_words_fn take, void *ctx, const char *name,
                              unsigned log2_words);
/* Queues w[0..n) in order (waits while the ring is full), then publishes them. */
void accring_push_words(accring *r, const uint64_t *w, uint64_t n);

typedef struct {
    uint64_t pushed;
    uint64_t waits;          /* times the producer waited for the consumer (full ring, sync) */
    double consumer_seconds; /* the thread's CPU time, once stopped */
} accring_stats;
accring_stats accring_counts(const accring *r);

#endif
