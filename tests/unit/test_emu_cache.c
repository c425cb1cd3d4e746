/* The cache timing model: hits, misses, LRU replacement, dirty write-backs through L2 to DRAM,
 * and the dram tap of the hook (line-sized, non-decreasing, distinct cycles). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cache.h"
#include "emu/cpu/cpu.h"

typedef struct {
    unsigned fills, writebacks;
    uint64_t last_line;
} dram_log;

static void on_dram(void *ctx, uint64_t line, bool write)
{
    dram_log *d = ctx;
    if (write)
        d->writebacks++;
    else
        d->fills++;
    d->last_line = line;
}

static void test_hits_and_misses(void **state)
{
    (void)state;
    mt_cache_model m;
    dram_log d = {0};
    assert_true(cache_init(&m));
    assert_int_equal(cache_access(&m, 0x80000000, false, false, on_dram, &d), CACHE_L2_HIT_CYCLES + CACHE_DRAM_CYCLES);
    assert_int_equal(d.fills, 1);
    assert_int_equal(d.last_line, 0x80000000);
    assert_int_equal(cache_access(&m, 0x80000038, false, false, on_dram, &d), 0); /* same line */
    assert_int_equal(cache_access(&m, 0x80000040, true, false, on_dram, &d), CACHE_L2_HIT_CYCLES + CACHE_DRAM_CYCLES);
    /* instruction side is separate: a miss in L1I, a hit in L2 */
    assert_int_equal(cache_access(&m, 0x80000000, false, true, on_dram, &d), CACHE_L2_HIT_CYCLES);
    assert_int_equal(m.l1d.hits, 1);
    assert_int_equal(m.l1d.misses, 2);
    assert_int_equal(d.writebacks, 0);
    cache_free(&m);
}

static void test_lru_and_writeback(void **state)
{
    (void)state;
    mt_cache_model m;
    dram_log d = {0};
    assert_true(cache_init(&m));
    /* L1D: 32 KiB 8-way = 64 sets; lines 4 KiB apart share a set */
    for (unsigned i = 0; i < 8; i++)
        cache_access(&m, 0x80000000 + i * 4096, true, false, on_dram, &d);
    cache_access(&m, 0x80000000, false, false, on_dram, &d); /* touch way 0: now most recent */
    assert_int_equal(m.l1d.hits, 1);
    cache_access(&m, 0x80000000 + 8 * 4096, false, false, on_dram, &d); /* evicts line 1 (LRU), dirty */
    assert_int_equal(m.l1d.writebacks, 1);
    assert_int_equal(cache_access(&m, 0x80000000, false, false, on_dram, &d), 0);       /* still there */
    assert_int_equal(cache_access(&m, 0x80001000, false, false, on_dram, &d), CACHE_L2_HIT_CYCLES); /* in L2 */
    /* L2: 1 MiB 16-way = 1024 sets; lines 64 KiB apart share an L2 set: 17 dirty lines push one to DRAM */
    unsigned before = d.writebacks;
    for (unsigned i = 0; i < 40; i++)
        cache_access(&m, 0x90000000 + (uint64_t)i * 65536, true, false, on_dram, &d);
    assert_true(d.writebacks > before);
    cache_free(&m);
}

typedef struct {
    uint64_t taps[2], last[2];
    bool ordered;
} tap_log;

static uint64_t listener(void *ctx, const mt_access *a)
{
    tap_log *t = ctx;
    t->taps[a->tap]++;
    if (t->taps[a->tap] > 1 && a->cycle <= t->last[a->tap])
        t->ordered = false;
    t->last[a->tap] = a->cycle;
    if (a->tap == MT_TAP_DRAM)
        assert_int_equal(a->size, CACHE_LINE);
    return 0;
}

static void test_dram_tap(void **state)
{
    (void)state;
    mt_ram *ram = ram_create(0x80000000, 1 << 20);
    mt_bus bus;
    mt_cpu *c = calloc(1, sizeof *c);
    mt_cache_model *cm = calloc(1, sizeof *cm);
    bus_init(&bus, ram);
    cpu_init(c, &bus, TIMING_CACHE);
    assert_true(cache_init(cm));
    c->cache = cm;
    tap_log t = {.ordered = true};
    cpu_set_listener(c, listener, &t, 0);
    uint64_t v;
    for (unsigned i = 0; i < 64; i++) {
        assert_int_equal(cpu_store(c, 0x80000000 + i * 4096, 8, i), EXC_NONE);
        assert_int_equal(cpu_load(c, 0x80000000 + i * 4096, 8, &v), EXC_NONE);
        assert_int_equal(v, i);
    }
    assert_int_equal(t.taps[MT_TAP_CORE], 128);
    assert_int_equal(t.taps[MT_TAP_DRAM], 64); /* one fill per line; nothing evicted yet from L2 */
    assert_true(t.ordered);
    assert_true(c->cycle > 64 * (CACHE_L2_HIT_CYCLES + CACHE_DRAM_CYCLES));
    cache_free(cm);
    free(cm);
    cpu_free(c);
    free(c);
    ram_destroy(ram);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hits_and_misses),
        cmocka_unit_test(test_lru_and_writeback),
        cmocka_unit_test(test_dram_tap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
