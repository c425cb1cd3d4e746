/* compare: a trace against itself is a perfect match; against a disjoint one, maximal distance;
 * a 1-in-2 subsample scales its fault counts back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "host/compare.h"

static compare_config config(void)
{
    compare_config c;
    policy_defaults(&c.policy);
    c.policy.nsizes = 2;
    c.policy.sizes[0] = 4096;
    c.policy.sizes[1] = 16384;
    c.policy.budgets[0] = c.policy.primary_budget = 64 << 10;
    c.page_size = 4096;
    return c;
}

static void test_identical(void **state)
{
    (void)state;
    ht_record t[1000];
    for (int i = 0; i < 1000; i++)
        t[i] = ht_full_sample((uint64_t)i * 10, 0x80000000u + (uint64_t)((i * 7) % 40) * 4096, i % 3 == 0);
    ht_source *a = ht_array_source(t, 1000, "a"), *b = ht_array_source(t, 1000, "b");
    compare_config c = config();
    compare_result r;
    char err[256];
    assert_int_equal(compare_run(a, b, &c, &r, err, sizeof err), 0);
    assert_true(r.tvd == 0 && r.jsd == 0 && r.jaccard == 1);
    assert_true(r.scale == 1);
    for (size_t i = 0; i < r.truth.n; i++)
        assert_int_equal(r.truth.rows[i].c.faults, r.other.rows[i].c.faults);
    assert_int_equal(r.aligned[0].n, 1000);
    assert_int_equal(r.aligned[0].same_page, 1000);
    assert_int_equal(r.truth.recommended, r.other.recommended);
    compare_result_free(&r);
    ht_close(a);
    ht_close(b);
}

static void test_disjoint_and_scaled(void **state)
{
    (void)state;
    ht_record t[800], o[400], d[400];
    for (int i = 0; i < 800; i++)
        t[i] = ht_full_sample((uint64_t)i, 0x80000000u + (uint64_t)(i % 100) * 4096, 0);
    for (int i = 0; i < 400; i++) {
        o[i] = t[2 * i];  /* every other access */
        d[i] = ht_full_sample((uint64_t)i * 2, 0x90000000u + (uint64_t)(i % 50) * 4096, 0);
    }
    compare_config c = config();
    compare_result r;
    char err[256];
    ht_source *a = ht_array_source(t, 800, "t"), *b = ht_array_source(d, 400, "d");
    assert_int_equal(compare_run(a, b, &c, &r, err, sizeof err), 0);
    assert_true(r.tvd > 0.999999 && r.jsd > 0.999999 && r.jaccard == 0);
    assert_int_equal(r.common_pages, 0);
    compare_result_free(&r);
    ht_close(b);
    /* the subsample touches even pages only: half the pages, each fault counted once; with the
     * scale 2 the cyclic sweep's fault count comes back exactly (every access faults: 100 pages
     * cycled through 16 x 4K resident) */
    b = ht_array_source(o, 400, "o");
    assert_int_equal(compare_run(a, b, &c, &r, err, sizeof err), 0);
    assert_true(r.scale == 2);
    for (size_t i = 0; i < r.truth.n; i++)
        if (r.truth.rows[i].size == 4096 && r.truth.rows[i].policy == PG_LRU) {
            const policy_row *x = &r.truth.rows[i];
            assert_int_equal(x->c.faults, 800);
            for (size_t j = 0; j < r.other.n; j++)
                if (r.other.rows[j].size == 4096 && r.other.rows[j].policy == PG_LRU)
                    assert_int_equal(r.other.rows[j].c.faults * 2, 800);
        }
    compare_result_free(&r);
    ht_close(a);
    ht_close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical),
        cmocka_unit_test(test_disjoint_and_scaled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
