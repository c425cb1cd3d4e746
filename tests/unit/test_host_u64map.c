/* The hash map against a direct-indexed reference, through inserts, removals and growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "host/u64map.h"

static void test_against_reference(void **state)
{
    (void)state;
    enum { N = 5000 };
    uint64_t *ref = calloc(N, sizeof *ref); /* value + 1, 0 = absent */
    u64map m;
    assert_int_equal(u64map_init(&m, 4), 0);
    uint64_t s = 1;
    for (int step = 0; step < 200000; step++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        uint64_t k = (s >> 33) % N, key = k * 4096; /* page-like keys, 0 included */
        if ((s >> 20) % 3) {
            int ins;
            uint64_t *v = u64map_put(&m, key, step, &ins);
            assert_non_null(v);
            assert_int_equal(ins, ref[k] == 0);
            *v = (uint64_t)step;
            ref[k] = (uint64_t)step + 1;
        } else {
            assert_int_equal(u64map_remove(&m, key), ref[k] != 0);
            ref[k] = 0;
        }
    }
    size_t count = 0;
    for (int k = 0; k < N; k++) {
        uint64_t *v = u64map_get(&m, (uint64_t)k * 4096);
        if (ref[k]) {
            assert_non_null(v);
            assert_int_equal(*v + 1, ref[k]);
            count++;
        } else {
            assert_null(v);
        }
    }
    assert_int_equal(m.count, count);
    size_t seen = 0;
    uint64_t key, val;
    for (size_t pos = 0; u64map_iter(&m, &pos, &key, &val);)
        seen++;
    assert_int_equal(seen, count);
    u64map_free(&m);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_against_reference)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
