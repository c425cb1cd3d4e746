/* The seed's size formula and the exact section-by-section size, computed by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "host/sizecalc.h"

static void test_seed_defaults(void **state)
{
    (void)state;
    size_params p;
    size_defaults(&p);
    /* S = 1e9 * 30 / 11 * (6 * 1 / 24 + 4 * 10 / 2048) = 2.7272..e9 * 0.26953125
     *   = 735 085 227.27 B = 735.1 MB = 701.03 MiB (not the seed's ~766 MiB) */
    double s = size_formula(&p);
    assert_true(s > 735085227.0 && s < 735085228.0);
    assert_true(s / 1048576 > 701.0 && s / 1048576 < 701.1);
    /* Exact, burst first: 30 s = 2 x 11 s + 1 s burst + 7 s span: 3 s of burst, 27 s of span:
     * 3e9/24*6 + 27e9/2048*4 = 750 000 000 + 52 734 375 = 802 734 375 B = 765.55 MiB */
    double b, l;
    size_exact_split(&p, &b, &l);
    assert_true(b == 3 && l == 27);
    double e = size_exact(&p);
    assert_true(e > 802734374.9 && e < 802734375.1);
}

static void test_whole_periods_agree(void **state)
{
    (void)state;
    size_params p;
    size_defaults(&p);
    p.t = 33; /* exactly 3 periods: the formula is exact */
    double s = size_formula(&p), e = size_exact(&p);
    assert_true(s - e < 1e-3 && e - s < 1e-3);
    p.t = 0.5; /* inside the first burst */
    double b, l;
    size_exact_split(&p, &b, &l);
    assert_true(b == 0.5 && l == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_defaults),
        cmocka_unit_test(test_whole_periods_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
