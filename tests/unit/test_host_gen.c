/* The synthetic access generator: exact patterns, determinism, bounds, mix of writes, idle gaps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "host/gen.h"

static void test_sequential_and_strided_are_exact(void **state)
{
    (void)state;
    gen_params p;
    gen_defaults(&p);
    p.pattern = GEN_SEQ;
    p.accesses = 10;
    p.size = 32;
    p.elem = 8;
    p.base = 0x1000;
    p.gap = 1;
    gen_state g;
    gen_init(&g, &p);
    mt_access a;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(gen_next(&g, &a), 1);
        assert_int_equal(a.addr, 0x1000 + (uint64_t)(i % 4) * 8); /* wraps at 32 bytes */
        assert_int_equal(a.cycle, p.start_cycle + (uint64_t)i);    /* gap 1: every cycle */
    }
    assert_int_equal(gen_next(&g, &a), 0);
    p.pattern = GEN_STRIDE;
    p.size = 1 << 20;
    p.stride = 4096 + 64;
    gen_init(&g, &p);
    for (int i = 0; i < 10; i++) {
        gen_next(&g, &a);
        assert_int_equal(a.addr, 0x1000 + (uint64_t)i * (4096 + 64));
    }
}

static void test_deterministic_bounded_mixed(void **state)
{
    (void)state;
    gen_params p;
    gen_defaults(&p);
    p.accesses = 50000;
    p.idle_every = 1000;
    p.idle_cycles = 5000;
    gen_state g1, g2;
    gen_init(&g1, &p);
    gen_init(&g2, &p);
    mt_access a, b;
    uint64_t writes = 0, last = 0, big_gaps = 0;
    for (uint64_t i = 0; i < p.accesses; i++) {
        assert_int_equal(gen_next(&g1, &a), 1);
        assert_int_equal(gen_next(&g2, &b), 1);
        assert_int_equal(a.addr, b.addr);
        assert_int_equal(a.cycle, b.cycle);
        assert_true(a.addr >= p.base && a.addr < p.base + p.size);
        assert_int_equal(a.addr % p.elem, 0);
        if (i)
            assert_true(a.cycle > last); /* at most one access per cycle */
        if (i && a.cycle - last >= 5000)
            big_gaps++;
        last = a.cycle;
        writes += a.write;
        assert_int_equal(a.kind, a.write ? MT_KIND_STORE : MT_KIND_LOAD);
    }
    assert_int_equal(big_gaps, 49); /* before accesses 1000, 2000, ..., 49000 */
    assert_true(writes > 14000 && writes < 16000); /* 30% of 50000 */
    const char *why;
    p.elem = 3;
    assert_int_equal(gen_check(&p, &why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential_and_strided_are_exact),
        cmocka_unit_test(test_deterministic_bounded_mixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
