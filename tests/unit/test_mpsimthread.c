/* Unit tests of the online simulations on their own thread (emu/metapaging/mpsimthread.c, over
 * emu/trace/accring.c's word mode): every count equals that of the same calls made in line, on
 * random and adversarial report streams, with rings so small that every batch wraps and the
 * ring is full at almost every push, results read in the middle of a stream, the emulator's own
 * writes between batches, and the end of a run with a full ring.  When the stack pass counts
 * every configuration the emulator's thread folds repeats and alternations (mpfront.h): those
 * runs are compared with one LRU core per configuration in line (MPSIM_LRU_EACH), which shares
 * nothing with the stack pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "emu/metapaging/mpsim.h"
#include "emu/metapaging/mpsimthread.h"
#include "emu/trace/accring.h"

#define MiB (UINT64_C(1) << 20)
#define RAM (64 * MiB)
#define RAM_PAGES (RAM >> 12)
#define FIRST_PFN (UINT64_C(0x80000000) >> 12)

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The whole LRU fidelity grid (the stack pass) and the replacement cores of the other policies. */
static const char *const SPEC_MIXED = "4K..2M:1M..64M,4K/64K/2M:4M:fifo/clock/random";
/* LRU only: the stack pass counts everything, so the thread folds (4 KiB units) */
static const char *const SPEC_LRU = "4K..2M:1M..64M";
/* LRU only, units of 16 KiB (repeats inside a unit fold too), one resident metapage at every
 * size (C = 1 is counted apart, where a swap may write back) */
static const char *const SPEC_LRU_16K = "16K..2M:16K..4M";

static const char *spec = SPEC_MIXED;
/* the in-line reference's LRU method: EACH shares no code with the stack pass */
static enum mpsim_lru_method ref_method = MPSIM_LRU_STACK;

static struct mpsim *new_sim_method(enum mpsim_lru_method method)
{
    struct mpsim_config *c;
    size_t n;
    char err[256];
    assert_int_equal(mpsim_parse(spec, &c, &n, err, sizeof err), 0);
    struct mpsim *sim = mpsim_create_method(RAM, c, n, 7, method, err, sizeof err);
    free(c);
    assert_non_null(sim);
    return sim;
}

static struct mpsim *new_sim(void)
{
    return new_sim_method(MPSIM_LRU_STACK);
}

/* Kind 3's next page: the front's neighbours in its 8 KiB, 16 KiB and 1 MiB units, a page in
 * another 1 MiB or 2 MiB metapage of the same few, a page anywhere. */
static uint64_t pair_page(uint64_t front, uint64_t r)
{
    switch (r % 8) {
    case 0: return front ^ 1;
    case 1: return front ^ 2;
    case 2: return front ^ 16;
    case 3: return (front ^ 256) % RAM_PAGES;                /* the other 1 MiB of its 2 MiB */
    case 4: case 5: return (r >> 8) % 4 * 512 + (r >> 16) % 4; /* four 2 MiB metapages */
    case 6: return (front + 1) % RAM_PAGES;
    default: return (r >> 8) % RAM_PAGES;
    }
}

/* kinds 2 and 3: the report of `page` (write w), the last two pages moved on when it is new */
static uint64_t report_of(uint64_t page, unsigned w, uint64_t *front, uint64_t *second)
{
    if (page != *front) {
        *second = *front;
        *front = page;
    }
    return (FIRST_PFN + page) << 1 | w;
}

/* Reports: pfn << 1 | write.  `kind` 0: random with locality (a hot window that moves, a few
 * pages outside RAM, one write in four); 1: adversarial for the stack pass (two pages
 * alternating, broken by a third, sweeps over more metapages than the filter holds, writes to
 * the front); 2: alternations (below); 3: write pairs (below). */
static void fill(uint64_t *e, size_t n, int kind, uint64_t *seed)
{
    uint64_t hot = 0, front = 1, second = 2; /* (kind 2's and 3's last two pages) */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rng_next(seed), page;
        if (kind == 3) {
            /* write pairs (a read of the second page, a write of the first: mpfront folds runs
             * of them) in runs of every length, the first pair after a write of the front or
             * after a read of it, broken by a lone read or two of the second page, a write of
             * either page, a repeat of the front, a third page (sharing the front's 8 KiB,
             * 16 KiB, 1 MiB or 2 MiB unit, or not) and pages outside RAM */
            unsigned pick = (unsigned)(r % 64), w = 0;
            if (pick < 36 && i + 1 < n) { /* a pair: two reports */
                e[i++] = (FIRST_PFN + second) << 1;
                e[i] = (FIRST_PFN + front) << 1 | 1;
                continue;
            }
            if (pick < 42)
                page = second;
            else if (pick < 46)
                page = second, w = 1;
            else if (pick < 50)
                page = front, w = pick & 1;
            else if (pick < 62)
                page = pair_page(front, r >> 8), w = (r >> 40) & 1;
            else {
                e[i] = (FIRST_PFN - 1 - (r >> 50) % 4) << 1;
                continue;
            }
            e[i] = report_of(page, w, &front, &second);
            continue;
        }
        if (kind == 0) {
            if ((r & 1023) == 0)
                hot = rng_next(seed) % RAM_PAGES;
            page = (r >> 10) % 16 == 0 ? (r >> 14) % RAM_PAGES : (hot + (r >> 14) % 64) % RAM_PAGES;
            if ((r >> 40) % 97 == 0) { /* a device or the boot ROM: ignored */
                e[i] = (FIRST_PFN - 1 - (r >> 50) % 8) << 1;
                continue;
            }
        } else if (kind == 2) {
            /* mostly reads alternating between two pages (what mpfront folds), the runs broken
             * by a write to either page, a repeat of the front page or of a neighbour (the same
             * 16 KiB unit), a third page, a new page, a page outside RAM */
            unsigned pick = (unsigned)(r % 64), w = 0;
            if (pick < 40)
                page = second;
            else if (pick < 44)
                page = second, w = 1;
            else if (pick < 48)
                page = front, w = (pick & 1);
            else if (pick < 52)
                page = front ^ 1;
            else if (pick < 58)
                page = 100 + (r >> 20) % 3 * 8;
            else if (pick < 63)
                page = (r >> 20) % RAM_PAGES;
            else {
                e[i] = (FIRST_PFN - 1) << 1;
                continue;
            }
            e[i] = report_of(page, w, &front, &second);
            continue;
        } else {
            size_t phase = i / 500 % 3;
            if (phase == 0)
                page = i % 2 ? 5 : 4096 + (i % 7 == 0 ? 600 : 0);
            else if (phase == 1)
                page = (i * 257) % 3000; /* a sweep over 3000 pages, 12 M of RAM */
            else
                page = (r >> 8) % 3 * 512;   /* three 2 MiB metapages in turn */
        }
        e[i] = (FIRST_PFN + page) << 1 | ((r >> 60) % 4 == 0);
    }
}

/* The counts of every configuration at one point of a stream. */
struct snapshot {
    uint64_t inside;
    struct mpsim_result r[96];
};

static void take_snapshot(const struct mpsim *sim, uint64_t inside, struct snapshot *s)
{
    assert_true(mpsim_count(sim) <= sizeof s->r / sizeof s->r[0]);
    s->inside = inside;
    for (size_t i = 0; i < mpsim_count(sim); i++)
        s->r[i] = *mpsim_result(sim, i);
}

static void assert_snapshot(const struct mpsim *sim, uint64_t inside, const struct snapshot *s)
{
    assert_int_equal(inside, s->inside);
    for (size_t i = 0; i < mpsim_count(sim); i++) {
        const struct mpsim_result a = *mpsim_result(sim, i), *b = &s->r[i];
        assert_int_equal(a.cfg.metapage_bytes, b->cfg.metapage_bytes);
        assert_int_equal(a.cfg.budget_bytes, b->cfg.budget_bytes);
        assert_int_equal(a.resident_metapages, b->resident_metapages);
        assert_int_equal(a.accesses, b->accesses);
        assert_int_equal(a.faults, b->faults);
        assert_int_equal(a.zero_fills, b->zero_fills);
        assert_int_equal(a.backing_reads, b->backing_reads);
        assert_int_equal(a.evictions, b->evictions);
        assert_int_equal(a.writebacks, b->writebacks);
        assert_int_equal(a.bytes_in, b->bytes_in);
        assert_int_equal(a.bytes_out, b->bytes_out);
    }
}

/* One stream fed in line to one simulation, then through the thread (ring of 2^ring_log2 words)
 * to another, in the same batches of random length (0 to beyond the ring) with the emulator's
 * writes between them; the counts compared at `reads` points and at the end.  (Two passes, not
 * one interleaved: the thread then never waits for the in-line work, and the test stays fast.) */
static void run_stream(unsigned ring_log2, int kind, size_t total, unsigned reads, uint64_t seed)
{
    uint64_t *e = malloc(total * sizeof *e);
    struct snapshot *snaps = calloc(reads + 1, sizeof *snaps);
    assert_non_null(e);
    assert_non_null(snaps);
    fill(e, total, kind, &seed);
    for (int threaded = 0; threaded <= 1; threaded++) {
        struct mpsim *sim = new_sim_method(threaded ? MPSIM_LRU_STACK : ref_method);
        struct mpsim_thread *t = NULL;
        if (threaded)
            assert_non_null(t = mpsim_thread_start(sim, FIRST_PFN, ring_log2));
        uint64_t rs = seed, inside = 0;
        size_t next_read = reads ? total / (reads + 1) : total + 1;
        unsigned read = 0;
        for (size_t at = 0; at < total;) {
            uint64_t r = rng_next(&rs);
            size_t n = r % 8 == 0 ? 0 : r % 8 == 1 ? 1 : (size_t)(r >> 8) % (r % 8 == 2 ? 40000 : 4097);
            if (n > total - at)
                n = total - at;
            if (t)
                mpsim_thread_access_batch(t, e + at, n);
            else
                inside += mpsim_access_batch(sim, e + at, n, FIRST_PFN);
            at += n;
            if ((r >> 40) % 16 == 0) { /* the emulator writes RAM (a loader, HTIF) */
                uint64_t off = (r >> 20) % RAM, len = 1 + (r >> 44) % (3 * MiB);
                if (t)
                    mpsim_thread_host_write(t, off, len);
                else
                    mpsim_host_write(sim, off, len);
            }
            if (at >= next_read && read < reads) { /* results read in the middle of the run */
                if (t)
                    assert_snapshot(sim, mpsim_thread_sync(t), &snaps[read]);
                else
                    take_snapshot(sim, inside, &snaps[read]);
                read++;
                next_read += total / (reads + 1);
            }
        }
        if (t) {
            /* the end of the run: stopped straight after the last push (the ring full when it is
             * tiny) */
            mpsim_thread_stop(t);
            assert_snapshot(sim, mpsim_thread_sync(t), &snaps[reads]);
            if (spec == SPEC_MIXED) /* (folding queues fewer words than reports) */
                assert_true(mpsim_thread_counts(t).words >= total);
            mpsim_thread_destroy(t);
        } else {
            take_snapshot(sim, inside, &snaps[reads]);
        }
        mpsim_destroy(sim);
    }
    free(snaps);
    free(e);
}

static void test_random_streams(void **state)
{
    (void)state;
    /* a tiny ring is a round trip between the threads every few words: shorter streams there */
    const unsigned rings[] = {1, 3, 6, 12, MPSIM_THREAD_RING_LOG2};
    const size_t totals[] = {600, 2000, 8000, 120000, 120000};
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++)
        run_stream(rings[i], 0, totals[i], 3, 11 + i);
}

static void test_adversarial_streams(void **state)
{
    (void)state;
    const unsigned rings[] = {1, 2, 5, 13, MPSIM_THREAD_RING_LOG2};
    const size_t totals[] = {600, 1000, 6000, 90000, 90000};
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++)
        run_stream(rings[i], 1, totals[i], 5, 101 + i);
}

/* LRU only: the emulator's thread folds the repeats and alternations; every count still equals
 * one LRU core per configuration in line, on 4 KiB and 16 KiB units. */
static void test_folded_streams(void **state)
{
    (void)state;
    const char *const specs[] = {SPEC_LRU, SPEC_LRU_16K};
    const unsigned rings[] = {1, 4, 12, MPSIM_THREAD_RING_LOG2};
    const size_t totals[] = {1000, 6000, 60000, 60000};
    ref_method = MPSIM_LRU_EACH;
    for (size_t sp = 0; sp < 2; sp++) {
        spec = specs[sp];
        for (int kind = 0; kind <= 3; kind++)
            for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++)
                run_stream(rings[i], kind, totals[i], 3, 1000 + 10 * kind + i);
    }
    spec = SPEC_MIXED;
    ref_method = MPSIM_LRU_STACK;
}

/* Folding happens (else the test above would compare the unfolded path with itself): an
 * alternation-heavy stream queues far fewer words than reports. */
static void test_folding_shrinks_the_stream(void **state)
{
    (void)state;
    spec = SPEC_LRU;
    uint64_t seed = 3, *e = malloc(40000 * sizeof *e);
    assert_non_null(e);
    fill(e, 40000, 2, &seed);
    struct mpsim *sim = new_sim();
    struct mpsim_thread *t = mpsim_thread_start(sim, FIRST_PFN, MPSIM_THREAD_RING_LOG2);
    assert_non_null(t);
    mpsim_thread_access_batch(t, e, 40000);
    mpsim_thread_stop(t);
    assert_true(mpsim_thread_counts(t).words < 40000 * 3 / 4);
    mpsim_thread_destroy(t);
    mpsim_destroy(sim);
    free(e);
    spec = SPEC_MIXED;
}

/* Write pairs fold too: a stream of them queues a few words, and every count still equals one
 * LRU core per configuration (EACH, which shares no code with the stack pass), with the first
 * pair after a write of the front (counted at once) and after a read of it (the first pair the
 * long way), at 4 KiB and 16 KiB units. */
static void test_write_pairs_fold(void **state)
{
    (void)state;
    const char *const specs[] = {SPEC_LRU, SPEC_LRU_16K};
    for (size_t sp = 0; sp < 2; sp++) {
        spec = specs[sp];
        enum { N = 3000 };
        uint64_t e[N];
        size_t n = 0;
        const uint64_t fronts[] = {7, 7 + 512, 7 ^ 1, 7 + 256, 7 + 4}; /* B, against A = 3 */
        for (size_t f = 0; f < sizeof fronts / sizeof fronts[0]; f++)
            for (int first_write = 0; first_write <= 1; first_write++) {
                const uint64_t a = FIRST_PFN + 3, b = FIRST_PFN + fronts[f];
                e[n++] = a << 1 | 1;           /* A written (so it is stored once evicted) */
                e[n++] = b << 1 | (uint64_t)first_write;
                for (int p = 0; p < 120; p++) { /* 120 pairs */
                    e[n++] = a << 1;
                    e[n++] = b << 1 | 1;
                }
                /* B evicted at C = 1 and read again: read back iff the pairs stored it */
                e[n++] = (FIRST_PFN + 3 * 512 + 9) << 1;
                e[n++] = b << 1;
            }
        struct mpsim *ref = new_sim_method(MPSIM_LRU_EACH), *sim = new_sim();
        struct mpsim_thread *t = mpsim_thread_start(sim, FIRST_PFN, MPSIM_THREAD_RING_LOG2);
        assert_non_null(t);
        uint64_t inside = mpsim_access_batch(ref, e, n, FIRST_PFN);
        mpsim_thread_access_batch(t, e, n);
        struct snapshot *snap = calloc(1, sizeof *snap);
        assert_non_null(snap);
        take_snapshot(ref, inside, snap);
        assert_snapshot(sim, mpsim_thread_sync(t), snap);
        mpsim_thread_stop(t);
        assert_true(mpsim_thread_counts(t).words < 120); /* 2,440 reports */
        free(snap);
        mpsim_thread_destroy(t);
        mpsim_destroy(sim);
        mpsim_destroy(ref);
    }
    spec = SPEC_MIXED;
}

/* A ring that wraps many times with no read before the end, and a thread destroyed with a full
 * ring and no sync (it must take everything, then end: no hang, no leak under ASan). */
static void test_wrap_and_destroy_full(void **state)
{
    (void)state;
    run_stream(4, 0, 10000, 0, 5);
    struct mpsim *sim = new_sim();
    struct mpsim_thread *t = mpsim_thread_start(sim, FIRST_PFN, 3);
    assert_non_null(t);
    uint64_t seed = 9, e[5000];
    fill(e, 5000, 0, &seed);
    mpsim_thread_access_batch(t, e, 5000);
    mpsim_thread_destroy(t);
    mpsim_destroy(sim);
}

/* The ring's word mode itself: every word arrives once, in order, for any split of the pushes,
 * pushed or written in place (accring_reserve_words: NULL where it would cross the ring's end). */
struct seen {
    uint64_t next, bad;
};
static void take_check(void *ctx, const uint64_t *w, uint64_t n)
{
    struct seen *s = ctx;
    for (uint64_t i = 0; i < n; i++)
        if (w[i] != s->next++)
            s->bad++;
}

static void test_word_ring_order(void **state)
{
    (void)state;
    assert_null(accring_create_words(take_check, NULL, "t", 0)); /* sizes out of range */
    assert_null(accring_create_words(take_check, NULL, "t", 25));
    for (unsigned log2 = 1; log2 <= 10; log2 += 3) {
        struct seen s = {0, 0};
        accring *r = accring_create_words(take_check, &s, "t", log2);
        assert_non_null(r);
        uint64_t w[300], v = 0, seed = log2;
        for (int k = 0; k < 100; k++) {
            uint64_t n = rng_next(&seed) % (4u << log2 < 300 ? 4u << log2 : 300); /* a few ring lengths */
            uint64_t *dst = k % 2 ? accring_reserve_words(r, n + 1) : NULL;
            if (dst) { /* written in place, one word more reserved than committed */
                for (uint64_t i = 0; i < n; i++)
                    dst[i] = v++;
                dst[n] = UINT64_MAX;
                accring_commit_words(r, n);
                continue;
            }
            for (uint64_t i = 0; i < n; i++)
                w[i] = v++;
            accring_push_words(r, w, n);
            if (k % 25 == 0) {
                accring_sync(r);
                assert_int_equal(s.next, v);
            }
        }
        accring_stop(r);
        assert_int_equal(s.next, v);
        assert_int_equal(s.bad, 0);
        assert_int_equal(accring_counts(r).pushed, v);
        accring_destroy(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_ring_order),
        cmocka_unit_test(test_random_streams),
        cmocka_unit_test(test_adversarial_streams),
        cmocka_unit_test(test_wrap_and_destroy_full),
        cmocka_unit_test(test_folded_streams),
        cmocka_unit_test(test_folding_shrinks_the_stream),
        cmocka_unit_test(test_write_pairs_fold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
