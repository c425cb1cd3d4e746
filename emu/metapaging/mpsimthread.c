#include "emu/metapaging/mpsimthread.h"

#include <stdlib.h>

#include "emu/metapaging/mpfront.h"
#include "emu/trace/accring.h"

/* The words on the ring: a header, then its operands.  A header's top two bits say what follows:
 * REPORTS, the low bits n reports (pfn << 1 | is_write: far below 2^62); HOST_WRITE, two words
 * (offset, len); WORDS, bits 0-31 n words of mpfront_fold, bits 32-61 the reports inside RAM
 * they stand for.  WORDS replace REPORTS when the stack pass counts every configuration: the
 * emulator's thread then folds the reads that repeat or alternate the two front units, the
 * stack pass's most common reports, off the slower thread.  The thread parses the words as they
 * come (an item may be split between two runs the ring hands over), so the emulator's thread
 * only copies its batch behind one header, or folds it straight onto the ring. */
#define OP_SHIFT 62
#define OP_REPORTS UINT64_C(1)
#define OP_HOST_WRITE UINT64_C(2)
#define OP_WORDS UINT64_C(3)
#define FOLD_CHUNK 4096 /* reports folded at a time (the CPU's batch) */
#define COUNT_MASK ((UINT64_C(1) << OP_SHIFT) - 1)
#define WORDS_MASK UINT64_C(0xffffffff)
#define INSIDE_SHIFT 32

struct mpsim_thread {
    accring *ring;
    bool stopped;
    /* the thread's (read by the emulator's thread only after a sync) */
    struct mpsim *sim;
    uint64_t first_pfn;
    uint64_t inside;      /* reports inside RAM */
    uint64_t op, left;    /* the item being parsed: its operation, the operand words to come */
    uint64_t operand[2];  /* HOST_WRITE's, as they arrive */
    /* the emulator thread's (mpfront.h), when `fold` */
    bool fold;
    struct mpfront front;
    uint64_t inside_folded;          /* reports inside RAM, counted while folding */
    uint64_t folded[FOLD_CHUNK + 1]; /* one chunk's words */
};

static void take_words(void *ctx, const uint64_t *w, uint64_t n)
{
    struct mpsim_thread *t = ctx;
    while (n) {
        if (t->left == 0) { /* a header */
            t->op = *w >> OP_SHIFT;
            t->left = t->op == OP_HOST_WRITE ? 2 : t->op == OP_WORDS ? *w & WORDS_MASK
                                                                     : *w & COUNT_MASK;
            if (t->op == OP_WORDS)
                mpsim_count_reports(t->sim, (*w & COUNT_MASK) >> INSIDE_SHIFT);
            w++, n--;
            continue;
        }
        if (t->op == OP_REPORTS) {
            uint64_t k = n < t->left ? n : t->left;
            t->inside += mpsim_access_batch(t->sim, w, (size_t)k, t->first_pfn);
            w += k, n -= k, t->left -= k;
        } else if (t->op == OP_WORDS) {
            uint64_t k = n < t->left ? n : t->left;
            mpsim_access_words(t->sim, w, (size_t)k);
            w += k, n -= k, t->left -= k;
        } else {
            t->operand[2 - t->left] = *w;
            w++, n--;
            if (--t->left == 0)
                mpsim_host_write(t->sim, t->operand[0], t->operand[1]);
        }
    }
}

struct mpsim_thread *mpsim_thread_start(struct mpsim *sim, uint64_t first_pfn, unsigned ring_log2)
{
    struct mpsim_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->sim = sim;
    t->first_pfn = first_pfn;
    unsigned unit_shift;
    uint64_t ram_pages;
    if ((t->fold = mpsim_stack_units(sim, &unit_shift, &ram_pages)))
        mpfront_init(&t->front, first_pfn, ram_pages, unit_shift);
    if (!(t->ring = accring_create_words(take_words, t, "mtemu-mpsim", ring_log2))) {
        free(t);
        return NULL;
    }
    return t;
}

void mpsim_thread_access_batch(struct mpsim_thread *t, const uint64_t *entries, uint64_t n)
{
    if (n == 0)
        return;
    if (t->fold) {
        for (uint64_t done = 0; done < n;) {
            size_t chunk = n - done < FOLD_CHUNK ? (size_t)(n - done) : FOLD_CHUNK;
            uint64_t inside = 0;
            /* folded straight onto the ring behind its header (fold writes up to chunk + 1),
             * or, where that would cross the ring's end, here first */
            uint64_t *dst = accring_reserve_words(t->ring, chunk + 2);
            size_t k = mpfront_fold(&t->front, entries + done, chunk, dst ? dst + 1 : t->folded,
                                    &inside);
            done += chunk;
            t->inside_folded += inside;
            const uint64_t header = OP_WORDS << OP_SHIFT | inside << INSIDE_SHIFT | k;
            if (dst) {
                dst[0] = header;
                accring_commit_words(t->ring, k + 1);
            } else {
                accring_push_words(t->ring, &header, 1);
                accring_push_words(t->ring, t->folded, k);
            }
        }
        return;
    }
    /* two pushes, two publishes (each a store and a load of shared lines): cheaper than copying
     * the batch once more to put its header in front */
    const uint64_t header = OP_REPORTS << OP_SHIFT | n;
    accring_push_words(t->ring, &header, 1);
    accring_push_words(t->ring, entries, n);
}

void mpsim_thread_host_write(struct mpsim_thread *t, uint64_t offset, uint64_t len)
{
    const uint64_t item[3] = {OP_HOST_WRITE << OP_SHIFT, offset, len};
    accring_push_words(t->ring, item, 3);
}

uint64_t mpsim_thread_sync(struct mpsim_thread *t)
{
    if (!t->stopped)
        accring_sync(t->ring);
    return t->inside + t->inside_folded;
}

struct mpsim_thread_stats mpsim_thread_counts(const struct mpsim_thread *t)
{
    accring_stats a = accring_counts(t->ring);
    return (struct mpsim_thread_stats){.words = a.pushed, .waits = a.waits,
                                       .thread_seconds = a.consumer_seconds};
}

void mpsim_thread_stop(struct mpsim_thread *t)
{
    if (!t || t->stopped)
        return;
    accring_stop(t->ring);
    t->stopped = true;
}

void mpsim_thread_destroy(struct mpsim_thread *t)
{
    if (!t)
        return;
    accring_destroy(t->ring);
    free(t);
}
