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

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mt_event.h"

/* An access as the ring stores it, and as producers may build it themselves (the CPU's sampler,
 * cpu.h cpu_sampler, fills a batch of these in the ring itself: accring_claim_entries). */
typedef struct {
    uint64_t cycle;
    uint64_t bits; /* addr[55:0], write 56, kind 59:57, tap 60, log2(size) 63:61 */
} accring_entry;

/* The bits of a core-tap instruction fetch of len (2 or 4) bytes at pa: kind 0, tap 0, read. */
static inline uint64_t accring_fetch_bits(uint64_t pa, unsigned len)
{
    return (pa & MT_PADDR_MASK) | (uint64_t)(len >> 1) << 61;
}

static inline accring_entry accring_pack(const mt_access *a)
{
    unsigned size_log2 = a->size ? (unsigned)__builtin_ctz(a->size) & 7 : 0;
    return (accring_entry){a->cycle, (a->addr & MT_PADDR_MASK) | (uint64_t)(a->write & 1) << 56 |
                                         (uint64_t)(a->kind & 7) << 57 | (uint64_t)(a->tap & 1) << 60 |
                                         (uint64_t)size_log2 << 61};
}

/* The four byte fields of mt_access are written as one 32-bit word: field by field the unpack
 * cost ~26 host instructions a capture in the in-line model's flush (callgrind, bench_cpu). */
_Static_assert(offsetof(mt_access, size) == offsetof(mt_access, write) + 1 &&
                   offsetof(mt_access, kind) == offsetof(mt_access, write) + 2 &&
                   offsetof(mt_access, tap) == offsetof(mt_access, write) + 3,
               "mt_access's byte fields are consecutive: write, size, kind, tap");
static inline mt_access accring_unpack(const accring_entry *e)
{
    const uint32_t hi = (uint32_t)(e->bits >> 56);
    mt_access a = {.cycle = e->cycle, .addr = e->bits & MT_PADDR_MASK};
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint32_t fields = (hi & 1) | (1u << (hi >> 5)) << 8 | (hi >> 1 & 7) << 16 | (hi >> 4 & 1) << 24;
    memcpy(&a.write, &fields, sizeof fields); /* write, size, kind, tap */
#else
    a.write = (uint8_t)(hi & 1);
    a.size = (uint8_t)(1u << (hi >> 5));
    a.kind = (uint8_t)(hi >> 1 & 7);
    a.tap = (uint8_t)(hi >> 4 & 1);
#endif
    return a;
}

typedef struct accring accring;
/* Takes one access (on the consumer thread). */
typedef void (*accring_take_fn)(void *ctx, const mt_access *a);

/* Starts the consumer thread; `name` names it (top, perf). NULL when no thread or memory. */
accring *accring_create(accring_take_fn take, void *ctx, const char *name);
/* Queues one access (waits while the ring is full). */
void accring_push(accring *r, const mt_access *a);
/* Queues e[0..n) in order, copied in blocks (the producer packed them itself: no per-access work
 * here), and claims the lines of the next n entries for writing so that the next call finds them
 * in this core's cache. */
void accring_push_entries(accring *r, const accring_entry *e, unsigned n);
/* For a producer that packs its entries in place (the CPU sampler's batch, tracepipe.c: no copy):
 * room for 1 to `want` entries in one piece at the ring's head, waiting while the ring is full;
 * returns where, the count in *got.  accring_commit_entries(r, n), n <= *got, queues the first n
 * written there (publishing as accring_push_entries does); until then the consumer does not look
 * at them, so the producer may rewrite or drop them (a capture taken back).  Nothing else may be
 * pushed between a claim and its commit; a sync or stop may come after a commit. */
accring_entry *accring_claim_entries(accring *r, unsigned want, unsigned *got);
void accring_commit_entries(accring *r, unsigned n);
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
/* For a producer that makes its words as it goes (no copy): room for up to n words in one piece
 * at the ring's head, waiting while the ring is too full, or NULL when n words would cross the
 * ring's end (then push them instead).  accring_commit_words(r, k), k <= n, queues the first k
 * words written there and publishes them; nothing else may be pushed in between. */
uint64_t *accring_reserve_words(accring *r, uint64_t n);
void accring_commit_words(accring *r, uint64_t k);

typedef struct {
    uint64_t pushed;
    uint64_t waits;          /* times the producer waited for the consumer (full ring, sync) */
    double consumer_seconds; /* the thread's CPU time, once stopped */
} accring_stats;
accring_stats accring_counts(const accring *r);

#endif
