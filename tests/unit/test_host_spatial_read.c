/* The host's read of a spatial trace's final rates (host/tracemode.c: all sizes in one read,
 * a record of a metapage recorded since the rate last doubled skipped): for every size the rate
 * the filter ended at, and the metapages kept at it counted as an independent count finds them
 * (the distinct metapages of the size's records that the final rate keeps), under a rule made
 * small enough (a 64-bit map, 24 set bits) that every size doubles many times while hot
 * metapages are recorded again around each doubling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/tracemode.h"
#include "host/u64map.h"
#include "mt_spatial.h"

typedef struct {
    ht_record *r;
    size_t n, cap;
} recs;

static void sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    recs *v = ctx;
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1024;
        v->r = realloc(v->r, v->cap * sizeof *v->r);
        assert_non_null(v->r);
    }
    v->r[v->n++] = ht_full_sample(cycle, page << 12 | mask, (int)rw);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The metapages of size i's records that rate r keeps, counted one by one. */
static uint64_t kept_at(const recs *v, unsigned i, uint32_t r)
{
    u64map seen;
    assert_int_equal(u64map_init(&seen, 1024), 0);
    for (size_t k = 0; k < v->n; k++) {
        uint64_t a = v->r[k].addr, p = (a >> 12) >> i;
        if (((a >> i) & 1) && (mt_spatial_hash(p) & (r - 1)) == 0)
            assert_non_null(u64map_put(&seen, p, 0, NULL));
    }
    uint64_t n = seen.count;
    u64map_free(&seen);
    return n;
}

static void final_rates_follow_filter(uint32_t start_rate)
{
    const unsigned log2m = 6;
    const uint32_t max = 24;
    recs v = {0};
    mt_spatial s;
    assert_int_equal(mt_spatial_init_rule(&s, start_rate, log2m, max, sink, &v), 0);
    uint64_t seed = 5 + start_rate;
    for (uint64_t i = 0; i < 300000; i++) {
        uint64_t k = rng(&seed) % 100, pg;
        if (k < 50)
            pg = rng(&seed) % 64; /* hot: recorded again and again across doublings */
        else if (k < 80)
            pg = 64 + rng(&seed) % 4096;
        else
            pg = 5000 + rng(&seed) % (1u << 20); /* cold: drives the rates up */
        mt_spatial_access(&s, i, 0x80000000u + pg * 4096, (unsigned)(k & 1));
    }
    mt_spatial_finish(&s);
    trace_mode_info tm = {.mode = TM_SPATIAL, .spatial_rate = start_rate, .spatial_max = max,
                          .spatial_map_log2 = log2m};
    for (unsigned i = 0; i < TM_SIZES; i++)
        tm.spatial_rates[i] = mt_spatial_rate_of(start_rate, i);
    ht_source *src = ht_array_source(v.r, v.n, "spatial");
    char err[256];
    unsigned doubled = 0;
    for (unsigned i = 0; i < TM_SIZES; i++) {
        uint32_t r = 0;
        uint64_t kept = 0;
        assert_int_equal(trace_mode_spatial_final_rate(src, &tm, i, &r, &kept, err, sizeof err), 0);
        if (r != s.rate[i] || kept != kept_at(&v, i, r))
            fail_msg("size %u KiB: rate %u (filter %u), kept %llu (counted %llu)", 4u << i, r, s.rate[i],
                     (unsigned long long)kept, (unsigned long long)kept_at(&v, i, r));
        doubled += r > tm.spatial_rates[i];
        assert_true(kept > 0);
    }
    assert_true(doubled >= 8); /* the rule was exercised at most sizes */
    ht_close(src);
    free(v.r);
}

static void test_final_rates_rate1(void **state)
{
    (void)state;
    final_rates_follow_filter(1);
}

static void test_final_rates_rate16(void **state)
{
    (void)state;
    final_rates_follow_filter(16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final_rates_rate1),
        cmocka_unit_test(test_final_rates_rate16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
