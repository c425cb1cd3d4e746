/* Per-configuration replacement simulations against a trace worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_trace_three_frames),
        cmocka_unit_test(test_belady_anomaly_fifo_four_frames),
        cmocka_unit_test(test_writes_mark_dirty_once_per_residency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
