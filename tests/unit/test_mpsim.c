/* Unit tests of the online meta-paging simulator (emu/metapaging/mpsim.c): its counts equal a real
 * meta-pager run, LRU equals a brute-force stack-distance reference, and collapsing consecutive
 * repeats of the access stream (the RAM side's observer rule) changes no count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/metapaging/metapager.h"
#include "emu/metapaging/mpsim.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_parse(void **state)
{
    (void)state;
    struct mpsim_config *c;
    size_t n;
    char err[256];
    assert_int_equal(mpsim_parse("4K/64K:8M/16M:lru/clock,2M:8M", &c, &n, err, sizeof err), 0);
    assert_int_equal(n, 9);
    assert_int_equal(c[0].metapage_bytes, 4 * KiB);
    assert_int_equal(c[0].budget_bytes, 8 * MiB);
    assert_int_equal(c[0].policy, MP_LRU);
    assert_int_equal(c[1].policy, MP_CLOCK);
    assert_int_equal(c[2].budget_bytes, 16 * MiB);
    assert_int_equal(c[4].metapage_bytes, 64 * KiB);
    assert_int_equal(c[8].metapage_bytes, 2 * MiB);
    assert_int_equal(c[8].policy, MP_LRU); /* default */
    free(c);
    assert_int_equal(mpsim_parse("64K:1M:*", &c, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(c[3].policy, MP_RANDOM);
    free(c);
    const char *bad[] = {"", "4K", "4K:", ":8M", "4K:8M:lru:x", "4X:8M", "4K:8M:opt",
                         "4K/:8M", "4K:8M,", "4K:8M:lru/"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        if (mpsim_parse(bad[i], &c, &n, err, sizeof err) == 0)
            fail_msg("'%s' accepted", bad[i]);
        assert_true(strlen(err) > 10);
        assert_null(c);
    }
    /* Parsed but impossible configurations are refused by mpsim_create, naming which. */
    const char *impossible[] = {"12K:8M", "64K:32K", "4M:8M", "4K:0"};
    for (size_t i = 0; i < sizeof impossible / sizeof impossible[0]; i++) {
        assert_int_equal(mpsim_parse(impossible[i], &c, &n, err, sizeof err), 0);
        assert_null(mpsim_create(64 * MiB, c, n, 1, err, sizeof err));
        assert_non_null(strstr(err, "configuration 1"));
        free(c);
    }
}

/* A workload with locality, writes, and some emulator-side writes. */
struct op {
    uint64_t page;
    uint8_t write, host;
};

static struct op *make_stream(size_t n, uint64_t pages, uint64_t seed)
{
    struct op *ops = calloc(n, sizeof *ops);
    uint64_t hot = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = rng_next(&seed);
        if ((x & 127) == 0)
            hot = (x >> 16) % pages;
        ops[i].page = (x & 7) ? (hot + ((x >> 8) % 40)) % pages : (x >> 24) % pages;
        ops[i].write = ((x >> 5) & 3) == 0;
        ops[i].host = ((x >> 50) & 511) == 0;
    }
    return ops;
}

static void test_equals_real_pager(void **state)
{
    (void)state;
    const uint64_t ram = 8 * MiB, pages = ram >> 12;
    struct mpsim_config *cfgs;
    size_t n;
    char err[256];
    assert_int_equal(
        mpsim_parse("4K:8K/64K/1M:*,64K:1M/2M:*,2M:4M:*,16K:12M:lru", &cfgs, &n, err, sizeof err),
        0);
    struct mpsim *sim = mpsim_create(ram, cfgs, n, 77, err, sizeof err);
    assert_non_null(sim);
    struct metapager *real[64];
    assert_true(n <= 64);
    for (size_t i = 0; i < n; i++) {
        struct mp_config c = {.ram_bytes = ram, .metapage_bytes = cfgs[i].metapage_bytes,
                              .budget_bytes = cfgs[i].budget_bytes, .policy = cfgs[i].policy,
                              .seed = 77};
        real[i] = mp_create(&c, err, sizeof err);
        assert_non_null(real[i]);
    }
    const size_t N = 30000;
    struct op *ops = make_stream(N, pages, 12345);
    uint8_t byte = 1;
    for (size_t k = 0; k < N; k++) {
        if (ops[k].host) {
            mpsim_host_write(sim, ops[k].page << 12, 3);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(mp_host_write(real[i], ops[k].page << 12, "abc", 3), 0);
            continue;
        }
        mpsim_access(sim, ops[k].page, ops[k].write);
        for (size_t i = 0; i < n; i++) {
            uint8_t *p = mp_page(real[i], ops[k].page, ops[k].write);
            assert_non_null(p);
            if (ops[k].write)
                p[k & 4095] = byte++;
        }
    }
    assert_int_equal(mpsim_count(sim), n);
    for (size_t i = 0; i < n; i++) {
        const struct mpsim_result *r = mpsim_result(sim, i);
        const struct mp_stats *s = mp_get_stats(real[i]);
        assert_int_equal(r->resident_metapages, mp_resident_capacity(real[i]));
        assert_int_equal(r->accesses, s->accesses);
        assert_int_equal(r->faults, s->faults);
        assert_int_equal(r->zero_fills, s->zero_fills);
        assert_int_equal(r->backing_reads, s->backing_reads);
        assert_int_equal(r->evictions, s->evictions);
        assert_int_equal(r->writebacks, s->writebacks);
        assert_int_equal(r->bytes_in, s->bytes_in);
        assert_int_equal(r->bytes_out, s->bytes_out);
        if (r->resident_metapages < ram / r->cfg.metapage_bytes)
            assert_true(r->evictions > 0);
        mp_destroy(real[i]);
    }
    assert_null(mpsim_result(sim, n));
    free(ops);
    free(cfgs);
    mpsim_destroy(sim);
}

/* LRU by definition: an access faults when fewer than N distinct metapages... i.e. when its
 * stack distance (distinct metapages touched since its last use, itself included) exceeds N. */
static uint64_t brute_lru_faults(const uint64_t *mps, size_t n, size_t budget)
{
    uint64_t faults = 0;
    for (size_t i = 0; i < n; i++) {
        size_t distinct = 0;
        bool seen_before = false;
        uint64_t set[256];
        for (size_t j = i; j-- > 0;) {
            if (mps[j] == mps[i]) {
                seen_before = true;
                break;
            }
            bool dup = false;
            for (size_t d = 0; d < distinct; d++)
                dup |= set[d] == mps[j];
            if (!dup && distinct < 256)
                set[distinct++] = mps[j];
        }
        if (!seen_before || distinct + 1 > budget)
            faults++;
    }
    return faults;
}

static void test_lru_vs_stack_distance(void **state)
{
    (void)state;
    const uint64_t ram = 4 * MiB;
    const size_t N = 4000;
    uint64_t seed = 5;
    uint64_t *pages = malloc(N * sizeof *pages), *mps = malloc(N * sizeof *mps);
    for (size_t i = 0; i < N; i++)
        pages[i] = (rng_next(&seed) % 90) * 3;
    const uint64_t sizes[] = {4 * KiB, 16 * KiB, 64 * KiB};
    const uint64_t budgets_mp[] = {1, 2, 5, 13, 30};
    for (size_t si = 0; si < 3; si++) {
        struct mpsim_config cfgs[5];
        for (size_t b = 0; b < 5; b++)
            cfgs[b] = (struct mpsim_config){sizes[si], budgets_mp[b] * sizes[si], MP_LRU};
        char err[200];
        struct mpsim *sim = mpsim_create(ram, cfgs, 5, 1, err, sizeof err);
        assert_non_null(sim);
        for (size_t i = 0; i < N; i++) {
            mpsim_access(sim, pages[i], false);
            mps[i] = pages[i] / (sizes[si] / 4096);
        }
        for (size_t b = 0; b < 5; b++)
            assert_int_equal(mpsim_result(sim, b)->faults, brute_lru_faults(mps, N, budgets_mp[b]));
        mpsim_destroy(sim);
    }
    free(pages);
    free(mps);
}

/* The RAM side reports a page when it differs from the last one reported, or when a write
 * follows a read report of the same page.  That collapsed stream gives the same faults,
 * write-backs and bytes as the raw stream, for every policy; reporting page changes only would
 * lose write-backs (shown too, so that the rule is known to matter). */
static void test_collapsing_is_lossless(void **state)
{
    (void)state;
    const uint64_t ram = 4 * MiB, pages = ram >> 12;
    struct mpsim_config *cfgs;
    size_t n;
    char err[256];
    assert_int_equal(mpsim_parse("4K:8K/40K:*,16K:64K/256K:*,2M:2M:*", &cfgs, &n, err, sizeof err),
                     0);
    struct mpsim *raw = mpsim_create(ram, cfgs, n, 3, err, sizeof err);
    struct mpsim *collapsed = mpsim_create(ram, cfgs, n, 3, err, sizeof err);
    struct mpsim *naive = mpsim_create(ram, cfgs, n, 3, err, sizeof err);
    uint64_t seed = 11, last = UINT64_MAX, naive_last = UINT64_MAX;
    bool last_write = false;
    size_t raw_n = 0, collapsed_n = 0;
    for (int i = 0; i < 60000; i++) {
        uint64_t x = rng_next(&seed);
        uint64_t page = (x & 3) ? last % pages : (x >> 20) % 30; /* many repeats */
        if (last == UINT64_MAX)
            page = 0;
        bool w = ((x >> 8) & 3) == 0;
        mpsim_access(raw, page, w);
        raw_n++;
        if (page != last || (w && !last_write)) {
            mpsim_access(collapsed, page, w);
            collapsed_n++;
            last_write = page == last ? (last_write || w) : w;
            last = page;
        }
        if (page != naive_last) {
            mpsim_access(naive, page, w);
            naive_last = page;
        }
    }
    assert_true(collapsed_n < raw_n / 2);
    bool naive_differs = false;
    for (size_t i = 0; i < n; i++) {
        const struct mpsim_result *a = mpsim_result(raw, i), *b = mpsim_result(collapsed, i),
                                  *c = mpsim_result(naive, i);
        assert_true(a->accesses > b->accesses);
        assert_int_equal(a->faults, b->faults);
        assert_int_equal(a->zero_fills, b->zero_fills);
        assert_int_equal(a->evictions, b->evictions);
        assert_int_equal(a->writebacks, b->writebacks);
        assert_int_equal(a->bytes_in, b->bytes_in);
        assert_int_equal(a->bytes_out, b->bytes_out);
        naive_differs |= a->writebacks != c->writebacks;
    }
    assert_true(naive_differs);
    free(cfgs);
    mpsim_destroy(raw);
    mpsim_destroy(collapsed);
    mpsim_destroy(naive);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_equals_real_pager),
        cmocka_unit_test(test_lru_vs_stack_distance),
        cmocka_unit_test(test_collapsing_is_lossless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
