/* The one-pass stack algorithms (LRU: Mattson/Fenwick, OPT: priority stack) must give exactly the
 * faults and write-backs of a direct simulation, for every resident count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "host/simpolicy.h"
#include "host/stackdist.h"

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ranks[i] = pg_opt_rank(next use of pages[i], i) */
static void opt_ranks(const uint64_t *pages, size_t n, uint64_t *ranks)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t next = PG_NEXT_NONE;
        for (size_t j = i + 1; j < n; j++)
            if (pages[j] == pages[i]) {
                next = j;
                break;
            }
        ranks[i] = pg_opt_rank(next, i);
    }
}

static void check_against_brute_force(pg_policy p, const uint64_t *pages, const int *writes,
                                      const uint64_t *ranks, size_t n, uint32_t K)
{
    stack_sim *st = stack_sim_new(p, K);
    assert_non_null(st);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(stack_sim_access(st, pages[i], writes[i], ranks[i]), 0);
    stack_sim_finish(st);
    for (uint32_t c = 1; c <= K; c++) {
        policy_sim *sim = policy_sim_new(p, c);
        for (size_t i = 0; i < n; i++)
            policy_sim_access(sim, pages[i], writes[i], ranks[i]);
        pg_counts a, b;
        policy_sim_counts(sim, &a);
        stack_sim_counts(st, c, &b);
        policy_sim_free(sim);
        if (a.faults != b.faults || a.writebacks != b.writebacks)
            fail_msg("%s C=%u: simulation %llu faults %llu wb, stack %llu faults %llu wb",
                     pg_policy_name(p), c, (unsigned long long)a.faults,
                     (unsigned long long)a.writebacks, (unsigned long long)b.faults,
                     (unsigned long long)b.writebacks);
        assert_int_equal(a.accesses, b.accesses);
    }
    stack_sim_free(st);
}

static void random_traces(pg_policy p)
{
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int round = 0; round < 24; round++) {
        size_t n = 300 + (size_t)(xorshift(&seed) % 1500);
        uint64_t universe = 2 + xorshift(&seed) % 60;
        uint64_t *pages = malloc(n * sizeof *pages), *ranks = malloc(n * sizeof *ranks);
        int *writes = malloc(n * sizeof *writes);
        uint64_t hot = xorshift(&seed) % universe;
        for (size_t i = 0; i < n; i++) {
            /* a mix of locality (hot page and neighbours) and uniform picks */
            uint64_t r = xorshift(&seed);
            pages[i] = (r & 3) ? (hot + (r >> 8) % 5) % universe : (r >> 16) % universe;
            if ((r >> 40) % 97 == 0)
                hot = (r >> 20) % universe;
            writes[i] = ((r >> 32) % 4) == 0;
        }
        opt_ranks(pages, n, ranks);
        uint32_t K = 1 + (uint32_t)(xorshift(&seed) % (universe + 4));
        check_against_brute_force(p, pages, writes, ranks, n, K);
        free(pages);
        free(ranks);
        free(writes);
    }
}

static void test_lru_equals_simulation(void **state)
{
    (void)state;
    random_traces(PG_LRU);
}

static void test_opt_equals_simulation(void **state)
{
    (void)state;
    random_traces(PG_OPT);
}

/* OPT as bands between listed resident counts (host/optbands.h) equals the priority stack
 * (and so the per-budget simulation) at every listed count, faults and write-backs: random
 * traces with random level lists (1 included often: the top alone; the largest below and above
 * the footprint), the trace long and the universe wide enough that pages fall out beyond K and
 * come back; a count not listed answers zero. */
static void test_opt_bands_equal_stack(void **state)
{
    (void)state;
    uint64_t seed = 0x51ed2701u;
    for (int round = 0; round < 40; round++) {
        size_t n = 500 + (size_t)(xorshift(&seed) % 3000);
        uint64_t universe = 2 + xorshift(&seed) % 200;
        uint64_t *pages = malloc(n * sizeof *pages), *ranks = malloc(n * sizeof *ranks);
        int *writes = malloc(n * sizeof *writes);
        uint64_t hot = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = xorshift(&seed);
            pages[i] = (r & 1) ? (hot + (r >> 8) % 7) % universe : (r >> 16) % universe;
            if ((r >> 40) % 53 == 0)
                hot = (r >> 20) % universe;
            writes[i] = ((r >> 32) % 3) == 0;
        }
        opt_ranks(pages, n, ranks);
        uint32_t levels[8];
        int nl = 1 + (int)(xorshift(&seed) % 8);
        levels[0] = (xorshift(&seed) & 1) ? 1 : 1 + (uint32_t)(xorshift(&seed) % 4);
        for (int j = 1; j < nl; j++)
            levels[j] = levels[j - 1] + 1 + (uint32_t)(xorshift(&seed) % (universe / 4 + 2));
        stack_sim *st = stack_sim_new(PG_OPT, levels[nl - 1]);
        stack_sim *bd = stack_sim_new_levels(PG_OPT, levels, nl);
        assert_non_null(st);
        assert_non_null(bd);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(stack_sim_access(st, pages[i], writes[i], ranks[i]), 0);
            assert_int_equal(stack_sim_access(bd, pages[i], writes[i], ranks[i]), 0);
        }
        stack_sim_finish(st);
        stack_sim_finish(bd);
        for (int j = 0; j < nl; j++) {
            pg_counts a, b;
            stack_sim_counts(st, levels[j], &a);
            stack_sim_counts(bd, levels[j], &b);
            if (a.faults != b.faults || a.writebacks != b.writebacks || a.accesses != b.accesses)
                fail_msg("round %d C=%u: stack %llu faults %llu wb, bands %llu faults %llu wb", round,
                         levels[j], (unsigned long long)a.faults, (unsigned long long)a.writebacks,
                         (unsigned long long)b.faults, (unsigned long long)b.writebacks);
        }
        if (levels[0] > 1) {
            pg_counts z;
            stack_sim_counts(bd, levels[0] - 1, &z);
            assert_int_equal(z.accesses, 0);
        }
        stack_sim_free(st);
        stack_sim_free(bd);
        free(pages);
        free(ranks);
        free(writes);
    }
    /* a list that is not increasing, or empty: refused */
    uint32_t bad[] = {4, 4};
    assert_null(stack_sim_new_levels(PG_OPT, bad, 2));
    assert_null(stack_sim_new_levels(PG_OPT, bad, 0));
}

/* Long enough to force many compactions of LRU's time line (it starts at 64 stamps and grows
 * to 4-8x the distinct pages, here up to ~5300 of them appearing along the trace). */
static void test_lru_time_line_compaction(void **state)
{
    (void)state;
    size_t n = 200000;
    uint64_t *pages = malloc(n * sizeof *pages), seed = 12345;
    int *writes = malloc(n * sizeof *writes);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = xorshift(&seed);
        pages[i] = (i / 7) % 300 + ((r & 15) == 0 ? r % 5000 : 0);
        writes[i] = (r >> 20) % 3 == 0;
    }
    stack_sim *st = stack_sim_new(PG_LRU, 400);
    for (size_t i = 0; i < n; i++)
        stack_sim_access(st, pages[i], writes[i], 0);
    stack_sim_finish(st);
    uint32_t sizes[] = {1, 17, 299, 300, 400};
    for (size_t k = 0; k < 5; k++) {
        policy_sim *sim = policy_sim_new(PG_LRU, sizes[k]);
        for (size_t i = 0; i < n; i++)
            policy_sim_access(sim, pages[i], writes[i], 0);
        pg_counts a, b;
        policy_sim_counts(sim, &a);
        stack_sim_counts(st, sizes[k], &b);
        assert_int_equal(a.faults, b.faults);
        assert_int_equal(a.writebacks, b.writebacks);
        policy_sim_free(sim);
    }
    stack_sim_free(st);
    free(pages);
    free(writes);
}

/* More distinct pages than the levels first allocated (1024), a K far above them, and resident
 * counts around the growth points: the lazily grown levels must change nothing. */
static void test_levels_grow(void **state)
{
    (void)state;
    size_t n = 60000;
    uint64_t *pages = malloc(n * sizeof *pages), *ranks = malloc(n * sizeof *ranks), seed = 777;
    int *writes = malloc(n * sizeof *writes);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = xorshift(&seed);
        pages[i] = (r & 1) ? (i / 3) % 2500 : r % 4000;
        writes[i] = (r >> 30) % 5 == 0;
    }
    /* next uses in O(n): scan backwards with a last-seen table */
    uint64_t *seen = malloc(4000 * sizeof *seen);
    for (int p = 0; p < 4000; p++)
        seen[p] = PG_NEXT_NONE;
    for (size_t i = n; i-- > 0;) {
        ranks[i] = pg_opt_rank(seen[pages[i]], i);
        seen[pages[i]] = i;
    }
    for (int pol = 0; pol < 2; pol++) {
        pg_policy p = pol ? PG_OPT : PG_LRU;
        stack_sim *st = stack_sim_new(p, 1u << 22);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(stack_sim_access(st, pages[i], writes[i], ranks[i]), 0);
        stack_sim_finish(st);
        uint32_t sizes[] = {1, 1023, 1024, 1025, 2047, 2048, 3999, 4000, 1u << 22};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            policy_sim *sim = policy_sim_new(p, sizes[k]);
            for (size_t i = 0; i < n; i++)
                policy_sim_access(sim, pages[i], writes[i], ranks[i]);
            pg_counts a, b;
            policy_sim_counts(sim, &a);
            stack_sim_counts(st, sizes[k], &b);
            assert_int_equal(a.faults, b.faults);
            assert_int_equal(a.writebacks, b.writebacks);
            policy_sim_free(sim);
        }
        stack_sim_free(st);
    }
    free(pages);
    free(ranks);
    free(writes);
    free(seen);
}

/* The hand-worked string of test_host_simpolicy.c: stack algorithm at C = 3 and 4. */
static void test_hand_trace(void **state)
{
    (void)state;
    const uint64_t pages[12] = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};
    const int writes[12] = {1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0};
    uint64_t ranks[12];
    opt_ranks(pages, 12, ranks);
    stack_sim *lru = stack_sim_new(PG_LRU, 5), *opt = stack_sim_new(PG_OPT, 5);
    for (int i = 0; i < 12; i++) {
        stack_sim_access(lru, pages[i], writes[i], ranks[i]);
        stack_sim_access(opt, pages[i], writes[i], ranks[i]);
    }
    stack_sim_finish(lru);
    stack_sim_finish(opt);
    pg_counts c;
    stack_sim_counts(lru, 3, &c);
    assert_int_equal(c.faults, 10);
    assert_int_equal(c.writebacks, 2);
    stack_sim_counts(lru, 4, &c);
    assert_int_equal(c.faults, 8);
    stack_sim_counts(lru, 5, &c); /* everything fits: only the 5 cold faults, nothing evicted */
    assert_int_equal(c.faults, 5);
    assert_int_equal(c.writebacks, 0);
    stack_sim_counts(opt, 3, &c);
    assert_int_equal(c.faults, 7);
    assert_int_equal(c.writebacks, 2);
    stack_sim_counts(opt, 4, &c);
    assert_int_equal(c.faults, 6);
    stack_sim_free(lru);
    stack_sim_free(opt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_trace),
        cmocka_unit_test(test_lru_equals_simulation),
        cmocka_unit_test(test_opt_equals_simulation),
        cmocka_unit_test(test_opt_bands_equal_stack),
        cmocka_unit_test(test_lru_time_line_compaction),
        cmocka_unit_test(test_levels_grow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
