/* Per-configuration replacement simulations against a trace worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "host/fifoclock.h"
#include "host/simpolicy.h"

/* The classic reference string 1 2 3 4 1 2 5 1 2 3 4 5 with three frames, writes at #1 (page 1),
 * #6 and #9 (page 2) and #11 (page 4):
 *
 *   #   page  LRU            FIFO           CLOCK                 OPT
 *   1   1W    F              F              F                     F
 *   2   2     F              F              F                     F
 *   3   3     F              F              F (hand at frame 0)   F
 *   4   4     F ev 1 (dirty) F ev 1 (dirty) F sweep, ev 1 (dirty) F ev 3 (next use #10, furthest)
 *   5   1     F ev 2         F ev 2         F ev 2                H
 *   6   2W    F ev 3         F ev 3         F ev 3                H
 *   7   5     F ev 4         F ev 4         F sweep, ev 4         F ev 4 (next #11)
 *   8   1     H              H              H                     H
 *   9   2W    H              H              H                     H
 *  10   3     F ev 5         F ev 1         F sweep, ev 1         F ev 1 (dead, least recent)
 *  11   4W    F ev 1         F ev 2 (dirty) F ev 2 (dirty)        F ev 2 (dead; dirty)
 *  12   5     F ev 2 (dirty) H              H                     H
 *
 *  faults:    10             9              9                     7
 *  writebacks: 2 (1, 2)      2 (1, 2)       2 (1, 2)              2 (1 loaded dirty at #1, 2)
 * With four frames FIFO shows Belady's anomaly: 10 faults.  OPT #10 evicts page 1 which has
 * been dirty since #1 (never evicted), so its write-back differs in *which* page from LRU's. */
static const uint64_t pages[12] = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};
static const int writes[12] = {1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0};

static uint64_t rank_at(int i)
{
    for (int j = i + 1; j < 12; j++)
        if (pages[j] == pages[i])
            return pg_opt_rank((uint64_t)j, (uint64_t)i);
    return pg_opt_rank(PG_NEXT_NONE, (uint64_t)i);
}

static pg_counts run(pg_policy p, uint32_t frames)
{
    policy_sim *s = policy_sim_new(p, frames);
    assert_non_null(s);
    for (int i = 0; i < 12; i++)
        assert_true(policy_sim_access(s, pages[i], writes[i], rank_at(i)) >= 0);
    pg_counts c;
    policy_sim_counts(s, &c);
    policy_sim_free(s);
    assert_int_equal(c.accesses, 12);
    return c;
}

static void test_hand_trace_three_frames(void **state)
{
    (void)state;
    pg_counts lru = run(PG_LRU, 3), fifo = run(PG_FIFO, 3), clk = run(PG_CLOCK, 3),
              opt = run(PG_OPT, 3);
    assert_int_equal(lru.faults, 10);
    assert_int_equal(fifo.faults, 9);
    assert_int_equal(clk.faults, 9);
    assert_int_equal(opt.faults, 7);
    assert_int_equal(lru.writebacks, 2);
    assert_int_equal(fifo.writebacks, 2);
    assert_int_equal(clk.writebacks, 2);
    assert_int_equal(opt.writebacks, 2);
}

static void test_belady_anomaly_fifo_four_frames(void **state)
{
    (void)state;
    assert_int_equal(run(PG_FIFO, 4).faults, 10);
    /* LRU with 4 frames: 1 2 3 4 F, 1 2 H, 5 F (ev 3), 1 2 H, 3 F (ev 4), 4 F (ev 5), 5 F = 8 */
    assert_int_equal(run(PG_LRU, 4).faults, 8);
    /* OPT with 4 frames: 1 2 3 4 F, 1 2 H, 5 F (ev 4: next use #11 is furthest), 1 2 3 H,
     * 4 F (1 2 3 are dead: ev 1, the least recent), 5 H = 6 */
    assert_int_equal(run(PG_OPT, 4).faults, 6);
}

static void test_writes_mark_dirty_once_per_residency(void **state)
{
    (void)state;
    /* One frame: W a, W a, b (evicts dirty a), a (evicts clean b), b (evicts clean a). */
    policy_sim *s = policy_sim_new(PG_LRU, 1);
    uint64_t p[] = {7, 7, 8, 7, 8};
    int w[] = {1, 1, 0, 0, 0};
    for (int i = 0; i < 5; i++)
        policy_sim_access(s, p[i], w[i], 0);
    pg_counts c;
    policy_sim_counts(s, &c);
    assert_int_equal(c.faults, 4);
    assert_int_equal(c.writebacks, 1);
    policy_sim_free(s);
}

/* fifoclock (every FIFO and CLOCK configuration of a size in one structure) against one
 * policy_sim per configuration: the hand-worked trace above first. */
static void test_fifoclock_hand_trace(void **state)
{
    (void)state;
    pg_policy pol[4] = {PG_CLOCK, PG_FIFO, PG_FIFO, PG_CLOCK};
    uint32_t res[4] = {3, 4, 3, 12};
    fifoclock *f = fifoclock_new(pol, res, 4);
    assert_non_null(f);
    uint64_t ids[8] = {0};
    uint32_t n = 0;
    for (int i = 0; i < 12; i++) { /* pages 1..5 -> dense ids in order of first use */
        if (!ids[pages[i]])
            ids[pages[i]] = ++n;
        assert_int_equal(fifoclock_access(f, (uint32_t)ids[pages[i]] - 1, writes[i]), 0);
    }
    pg_counts c;
    fifoclock_counts(f, 0, &c); /* CLOCK, 3 frames */
    assert_int_equal(c.accesses, 12);
    assert_int_equal(c.faults, 9);
    assert_int_equal(c.writebacks, 2);
    fifoclock_counts(f, 1, &c); /* FIFO, 4 frames: Belady's anomaly */
    assert_int_equal(c.faults, 10);
    fifoclock_counts(f, 2, &c); /* FIFO, 3 frames */
    assert_int_equal(c.faults, 9);
    assert_int_equal(c.writebacks, 2);
    fifoclock_counts(f, 3, &c); /* never full: the 5 cold faults only */
    assert_int_equal(c.faults, 5);
    assert_int_equal(c.writebacks, 0);
    fifoclock_free(f);
}

static uint64_t xs_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Random traces over footprints of 1..300 pages (a hot set and a cold tail, writes 1 in 4),
 * resident counts on both sides of each footprint, out of order and repeated, some becoming
 * full mid-trace: every configuration's counts equal its own simulation's at several points. */
static void test_fifoclock_equals_policy_sim(void **state)
{
    (void)state;
    static const uint32_t res[] = {1, 2, 3, 7, 16, 7, 50, 128, 255, 256, 300, 1000, 2};
    enum { NR = sizeof res / sizeof res[0], N = 2 * NR };
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int trial = 0; trial < 24; trial++) {
        uint64_t foot = 1 + xs_next(&x) % (trial < 4 ? 4 : 300);
        pg_policy pol[N];
        uint32_t r[N];
        policy_sim *ref[N];
        for (int i = 0; i < N; i++) {
            pol[i] = i % 2 ? PG_CLOCK : PG_FIFO;
            r[i] = res[i / 2];
            ref[i] = policy_sim_new_dense(pol[i], r[i]);
            assert_non_null(ref[i]);
        }
        fifoclock *f = fifoclock_new(pol, r, N);
        assert_non_null(f);
        uint32_t *id_of = calloc(foot, sizeof *id_of), nids = 0;
        assert_non_null(id_of);
        for (int a = 0; a < 20000; a++) {
            uint64_t v = xs_next(&x);
            uint64_t page = v % 4 ? (v >> 8) % (foot / 8 + 1) : (v >> 8) % foot;
            int write = (v >> 40) % 4 == 0;
            if (!id_of[page])
                id_of[page] = ++nids;
            uint32_t id = id_of[page] - 1;
            assert_int_equal(fifoclock_access(f, id, write), 0);
            for (int i = 0; i < N; i++)
                assert_true(policy_sim_access(ref[i], id, write, 0) >= 0);
            if (a % 5000 == 4999 || a < 50)
                for (int i = 0; i < N; i++) {
                    pg_counts want, got;
                    policy_sim_counts(ref[i], &want);
                    fifoclock_counts(f, i, &got);
                    assert_int_equal(got.accesses, want.accesses);
                    assert_int_equal(got.faults, want.faults);
                    assert_int_equal(got.writebacks, want.writebacks);
                }
        }
        for (int i = 0; i < N; i++)
            policy_sim_free(ref[i]);
        fifoclock_free(f);
        free(id_of);
    }
}

static void test_fifoclock_refuses_bad_input(void **state)
{
    (void)state;
    pg_policy lru = PG_LRU, fifo = PG_FIFO;
    uint32_t one = 1, zero = 0;
    assert_null(fifoclock_new(&lru, &one, 1));  /* a stack algorithm: not here */
    assert_null(fifoclock_new(&fifo, &zero, 1)); /* no frame */
    assert_null(fifoclock_new(&fifo, &one, 0));
    fifoclock *f = fifoclock_new(&fifo, &one, 1);
    assert_non_null(f);
    assert_int_equal(fifoclock_access(f, 1, 0), -1); /* id 1 before id 0: not dense */
    assert_int_equal(fifoclock_access(f, 0, 0), 0);
    fifoclock_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_trace_three_frames),
        cmocka_unit_test(test_belady_anomaly_fifo_four_frames),
        cmocka_unit_test(test_writes_mark_dirty_once_per_residency),
        cmocka_unit_test(test_fifoclock_hand_trace),
        cmocka_unit_test(test_fifoclock_equals_policy_sim),
        cmocka_unit_test(test_fifoclock_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
