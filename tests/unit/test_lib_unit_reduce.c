/* The unit's reduce path (lib/mt_unit_reduce.[ch]): with nothing forced or lost it writes
 * mt_reduce's records byte for byte; a small window forces keeps and stays exact (the host's LRU
 * and OPT fault counts on the records equal the full trace's at every size and budget >= B); lost
 * accesses leave the exact reduction of the accesses taken; the clocks per reference are the
 * header's, by hand on a small case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/policy.h"
#include "host/tracemode.h"
#include "mt_reduce.h"
#include "mt_swenc.h"
#include "mt_unit_reduce.h"

#include "reduce_exact.h"

/* ---- records as the sink gets them ---------------------------------------------------- */

typedef struct {
    uint64_t (*v)[4];
    size_t n, cap;
} raw_recs;

static void raw_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    raw_recs *r = ctx;
    assert_true(mask != 0 && mask < (1u << MT_REDUCE_SIZES));
    assert_true(r->n == 0 || cycle > r->v[r->n - 1][0]); /* reference order */
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
        assert_non_null(r->v);
    }
    r->v[r->n][0] = cycle, r->v[r->n][1] = page, r->v[r->n][2] = rw, r->v[r->n][3] = mask;
    r->n++;
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Fetch/data interleavings with moves, third pages and repeats (as the CPU makes them). */
static void make_trace(uint64_t *seed, uint64_t *addr, uint8_t *rw, size_t n, unsigned spread)
{
    uint64_t code = 0x80000000u + (rng(seed) % 8) * 0x1000;
    uint64_t data = 0x80000000u + (rng(seed) % spread) * 4096;
    for (size_t i = 0; i < n; i++) {
        if (rng(seed) % 16 == 0)
            data = 0x80000000u + (rng(seed) % spread) * 4096;
        if (rng(seed) % 40 == 0)
            code = 0x80000000u + (rng(seed) % 8) * 0x1000 * (1 + rng(seed) % 300);
        addr[i] = i % 2 || rng(seed) % 4 == 0 ? data + (rng(seed) & 0xff8) : code + (i & 0xffc);
        if (rng(seed) % 9 == 0)
            addr[i] = 0x80000000u + (rng(seed) % spread) * 4096;
        rw[i] = rng(seed) % 4 == 0;
    }
}

static void run_software(const uint64_t *cyc, const uint64_t *addr, const uint8_t *rw, size_t n,
                         uint64_t budget, raw_recs *out)
{
    mt_reduce r;
    assert_int_equal(mt_reduce_init(&r, budget, raw_sink, out), 0);
    for (size_t i = 0; i < n; i++)
        mt_reduce_access(&r, cyc[i], addr[i], rw[i]);
    mt_reduce_finish(&r);
    assert_int_equal(r.forced, 0);
    mt_reduce_free(&r);
}

/* ---- exactness against the full trace (as test_lib_reduce.c checks mt_reduce) ------------ */

/* Mismatches of LRU/OPT faults, full trace against the records (reduce_exact.h). */
static int compare(const uint64_t *addr, const uint8_t *rw, size_t n, uint64_t budget_b,
                   const raw_recs *red, int *configs)
{
    ht_record *rr = malloc((red->n ? red->n : 1) * sizeof *rr);
    for (size_t i = 0; i < red->n; i++)
        rr[i] = ht_full_sample(red->v[i][0], red->v[i][1] << 12 | red->v[i][3], (int)red->v[i][2]);
    int bad = reduce_exact_mismatches(addr, rw, n, budget_b, rr, red->n, configs);
    free(rr);
    return bad;
}

/* ---- tests ------------------------------------------------------------------------------- */

static const uint64_t budgets[] = {4096, 8192, 16384, 65536, 4u << 20};
#define NBUDGETS (sizeof budgets / sizeof budgets[0])

/* A window as large as the trace and a queue that never fills: mt_reduce's records exactly. */
static void test_equals_software(void **state)
{
    (void)state;
    static uint64_t addr[3000], cyc[3000];
    static uint8_t rw[3000];
    raw_recs a = {0}, b = {0};
    uint64_t seed = 4242, recs = 0;
    int streams = 0;
    for (int t = 0; t < 40; t++) {
        size_t n = 100 + rng(&seed) % 2900;
        make_trace(&seed, addr, rw, n, t % 2 ? 64 : 4096);
        for (size_t i = 0; i < n; i++)
            cyc[i] = 7 + 3 * i;
        for (size_t k = 0; k < NBUDGETS; k++) {
            a.n = b.n = 0;
            run_software(cyc, addr, rw, n, budgets[k], &a);
            mt_unit_reduce u;
            assert_int_equal(mt_urd_init(&u, budgets[k], 4096, 4096, raw_sink, &b), 0);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(mt_urd_access(&u, cyc[i], addr[i], rw[i]), 1);
            mt_urd_finish(&u);
            assert_int_equal(u.lost, 0);
            assert_int_equal(u.forced, 0);
            assert_int_equal(u.records, b.n);
            assert_int_equal(a.n, b.n);
            assert_memory_equal(a.v, b.v, a.n * sizeof a.v[0]);
            recs += a.n;
            streams++;
            mt_urd_free(&u);
        }
    }
    print_message("%d streams identical to mt_reduce, %lu records\n", streams, (unsigned long)recs);
    assert_true(recs > 10000);
    free(a.v);
    free(b.v);
}

/* Windows of 2..16 slots force keeps all the time: the records stay exact. */
static void test_small_window_exact(void **state)
{
    (void)state;
    uint64_t addr[48], seed = 99, forced = 0;
    uint8_t rw[48];
    int configs = 0;
    raw_recs red = {0};
    for (int t = 0; t < 40; t++) {
        size_t n = 8 + rng(&seed) % 40;
        make_trace(&seed, addr, rw, n, 16);
        for (size_t k = 0; k < 3; k++) {
            red.n = 0;
            mt_unit_reduce u;
            assert_int_equal(mt_urd_init(&u, budgets[k], 2u << (t % 4), 64, raw_sink, &red), 0);
            for (size_t i = 0; i < n; i++)
                mt_urd_access(&u, 10 + i, addr[i], rw[i]);
            mt_urd_finish(&u);
            assert_int_equal(u.lost, 0);
            forced += u.forced;
            assert_int_equal(compare(addr, rw, n, budgets[k], &red, &configs), 0);
            mt_urd_free(&u);
        }
    }
    print_message("%d configurations equal, %lu slots forced\n", configs, (unsigned long)forced);
    assert_true(forced > 100); /* the window was full often */
    assert_true(configs > 1000);
    free(red.v);
}

/* Accesses every clock with a queue of 2: some are lost, and the records are mt_reduce's of the
 * accesses taken, byte for byte. */
static void test_lost_accesses(void **state)
{
    (void)state;
    static uint64_t addr[2000], taddr[2000], tcyc[2000];
    static uint8_t rw[2000], trw[2000];
    raw_recs a = {0}, b = {0};
    uint64_t seed = 5, lost = 0, taken = 0;
    for (int t = 0; t < 20; t++) {
        size_t n = 2000;
        make_trace(&seed, addr, rw, n, 512);
        for (size_t k = 0; k < NBUDGETS; k++) {
            a.n = b.n = 0;
            mt_unit_reduce u;
            assert_int_equal(mt_urd_init(&u, budgets[k], 4096, 2 + t % 3, raw_sink, &b), 0);
            size_t m = 0;
            for (size_t i = 0; i < n; i++)
                if (mt_urd_access(&u, 100 + i, addr[i], rw[i])) {
                    tcyc[m] = 100 + i, taddr[m] = addr[i], trw[m] = rw[i];
                    m++;
                }
            mt_urd_finish(&u);
            assert_int_equal(u.forced, 0);
            assert_int_equal(n - m, u.lost);
            lost += u.lost;
            taken += m;
            run_software(tcyc, taddr, trw, m, budgets[k], &a);
            assert_int_equal(a.n, b.n);
            assert_memory_equal(a.v, b.v, a.n * sizeof a.v[0]);
            mt_urd_free(&u);
        }
    }
    print_message("%lu accesses taken, %lu lost\n", (unsigned long)taken, (unsigned long)lost);
    assert_true(lost > 1000);
    free(a.v);
    free(b.v);
}

/* Clocks by hand (the header's timing), B = 8K: k = 2 at 4K (hbits 2), 1 at 8K and above (hbits
 * 1); bucket h(p) = (p ^ p >> 18 ^ p >> 36) & (2^hbits - 1).
 * x = page 0x80000: the first reference misses at all ten sizes into empty filters: per size the
 * bucket read, the bucket write, the push (no old head): 3; with the slot write 31.
 * y = 0x80001 (differs in bit 0: size 0 only): bucket 3 (x is in 2: empty), a miss into a filter
 * with room: 1 + 1 + 2 (push onto x) + slot 1 = 5.
 * x again (size 0 only): the bucket read, one compare (bucket 2 holds x), not pending, a move of
 * the tail (list y x): its prev's write (y.next), its own write, the old head's: 1+1+1+2+1 = 6.
 * z = 0x80002 (sizes 0 and 1).  Size 0: bucket 0 is empty, a miss into the full filter (k = 2):
 * bucket read 1, the tail's (y) read 1, y not pending (its only reference was kept), its chain
 * deletion (bucket 3 read, y heads it, write) 2, its unlink (prev x: a write; no next: the tail
 * register) 1, bucket re-read 1, bucket write 1, push 2: 9.  Size 1: metapage 0x40001 (bucket
 * 0), the filter holds 0x40000 (bucket 1), k = 1: bucket read 1, empty: a miss; the tail's read
 * 1, its deletion 2, unlink (no neighbours) 0, re-read 1, write 1, push (empty list) 1: 7.
 * With the slot write: 17. */
static void test_clocks_by_hand(void **state)
{
    (void)state;
    mt_unit_reduce u;
    assert_int_equal(mt_urd_init(&u, 8192, 64, 8, NULL, NULL), 0);
    /* a reference taken at cycle c runs from c + 1: the next access (1000 cycles on) finds it done */
    static const uint64_t pages[] = {0x80000, 0x80001, 0x80000, 0x80002, 0x80003};
    static const uint64_t want[] = {31, 5, 6, 17};
    uint64_t before = 0;
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(mt_urd_access(&u, 1000 * (i + 1), pages[i] << 12, 0), 1);
        if (i) {
            assert_int_equal(u.clocks - before, want[i - 1]);
            before = u.clocks;
        }
        assert_int_equal(u.busy_until, i ? 1000 * i + 1 + want[i - 1] : 0);
    }
    assert_int_equal(u.max_clocks, 31);
    assert_int_equal(u.refs, 4);
    assert_int_equal(u.hist[7] + u.hist[0], 0); /* 31 clocks: 17-32; 5, 6, 17: 5-8 and 17-32 */
    assert_int_equal(u.hist[1], 2);
    assert_int_equal(u.hist[3], 2);
    mt_urd_free(&u);
}

static void test_bad_parameters(void **state)
{
    (void)state;
    mt_unit_reduce u;
    assert_int_equal(mt_urd_init(&u, 4096, 3, 8, NULL, NULL), -1);  /* W not a power of two */
    assert_int_equal(mt_urd_init(&u, 4096, 1, 8, NULL, NULL), -1);  /* W < 2 */
    assert_int_equal(mt_urd_init(&u, 4096, 8, 1, NULL, NULL), -1);  /* Q < 2 */
    assert_int_equal(mt_urd_init(&u, 6000, 8, 8, NULL, NULL), -1);  /* B not a multiple of 4K */
    assert_int_equal(mt_urd_init(&u, 4096, 8, 8, NULL, NULL), 0);
    mt_urd_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_software),
        cmocka_unit_test(test_small_window_exact),
        cmocka_unit_test(test_lost_accesses),
        cmocka_unit_test(test_clocks_by_hand),
        cmocka_unit_test(test_bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
