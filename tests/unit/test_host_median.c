/* P-squared streaming median: exact on tiny inputs, close on large ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "host/median.h"

static void test_small_inputs_are_exact(void **state)
{
    (void)state;
    p2_median m;
    p2_init(&m);
    assert_true(p2_value(&m) == 0);
    p2_add(&m, 7);
    assert_true(p2_value(&m) == 7);
    p2_add(&m, 3);
    assert_true(p2_value(&m) == 3); /* lower median of {3, 7} */
    p2_add(&m, 5);
    assert_true(p2_value(&m) == 5);
    p2_add(&m, 1);
    p2_add(&m, 9);
    assert_true(p2_value(&m) == 5); /* {1,3,5,7,9} */
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_large_uniform_and_skewed(void **state)
{
    (void)state;
    size_t n = 100001;
    double *v = malloc(n * sizeof *v);
    uint64_t s = 88172645463325252u;
    for (int dist = 0; dist < 2; dist++) {
        p2_median m;
        p2_init(&m);
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            double u = (double)(s >> 11) / 9007199254740992.0;
            v[i] = dist == 0 ? 0x80000 + u * 4096 : 0x80000 + 4096 * u * u * u; /* skewed */
            p2_add(&m, v[i]);
        }
        qsort(v, n, sizeof *v, cmp);
        double exact = v[n / 2], est = p2_value(&m);
        /* within 1% of the value range */
        assert_true(est > exact - 41 && est < exact + 41);
    }
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_inputs_are_exact),
        cmocka_unit_test(test_large_uniform_and_skewed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
