/* The spatial mode (lib/mt_spatial.c, host/tracemode.c; docs/metapaging.md "Spatial sampling"):
 * the H3 hash bit for bit; at rate 1 the host's LRU/FIFO/CLOCK/OPT fault counts from the records
 * equal the full trace's for every size and every budget of 2+ metapages; at rate R > 1 each
 * size's records are exactly the accesses to the hashed metapages (as a naive filter keeps them),
 * and the scaled estimate of a fixed large workload stays within a bound; the golden vector; the
 * header and trailer the host reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/policy.h"
#include "host/tracemode.h"
#include "mt_mtr.h"
#include "mt_spatial.h"
#include "mt_swenc.h"

typedef struct {
    ht_record *r;
    size_t n, cap;
} recs;

static void push(recs *v, ht_record x)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 256;
        v->r = realloc(v->r, v->cap * sizeof *v->r);
        assert_non_null(v->r);
    }
    v->r[v->n++] = x;
}

static uint64_t last_cycle;
static void sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    recs *v = ctx;
    assert_true(v->n == 0 || cycle > last_cycle); /* access order */
    assert_true(mask != 0 && mask < (1u << MT_SPATIAL_SIZES));
    last_cycle = cycle;
    push(v, ht_full_sample(cycle, page << 12 | mask, (int)rw));
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static trace_mode_info spatial_info(uint32_t n, uint64_t accesses)
{
    trace_mode_info tm = {.mode = TM_SPATIAL, .spatial_rate = n, .accesses = accesses,
                          .spatial_max = MT_SPATIAL_SAMPLE_MAX, .spatial_map_log2 = MT_SPATIAL_MAP_LOG2};
    for (unsigned i = 0; i < TM_SIZES; i++)
        tm.spatial_rates[i] = mt_spatial_rate_of(n, i);
    return tm;
}

static const policy_row *row_of(const policy_result *r, pg_policy p, uint64_t size, uint64_t budget)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].policy == p && r->rows[i].size == size && r->rows[i].budget == budget)
            return &r->rows[i];
    return NULL;
}

/* Records of a trace through the filter at rate n. */
static recs filter(const uint64_t *addr, const uint8_t *rw, size_t n, uint32_t rate, mt_spatial *out)
{
    recs v = {0};
    mt_spatial s;
    assert_int_equal(mt_spatial_init(&s, rate, sink, &v), 0);
    for (size_t i = 0; i < n; i++)
        mt_spatial_access(&s, i, addr[i], rw[i]);
    mt_spatial_finish(&s);
    if (out)
        *out = s;
    return v;
}

static void test_hash_bit_exact(void **state)
{
    (void)state;
    /* against a parity computed one bit at a time, and values worked out by hand/python */
    uint64_t seed = 99;
    for (int t = 0; t < 2000; t++) {
        uint64_t p = rng(&seed) & ((UINT64_C(1) << 44) - 1), h = 0;
        for (unsigned b = 0; b < 16; b++) {
            unsigned par = 0;
            for (unsigned j = 0; j < 48; j++)
                par ^= (unsigned)((p >> j) & (MT_SPATIAL_H3[b] >> j) & 1);
            h |= (uint64_t)par << b;
        }
        assert_int_equal(mt_spatial_hash(p), h);
        for (unsigned b = 0; b < MT_SPATIAL_HASH_BITS; b++) { /* the bitmap's bits too */
            unsigned par = 0;
            for (unsigned j = 0; j < 48; j++)
                par ^= (unsigned)((p >> j) & (MT_SPATIAL_H3[b] >> j) & 1);
            assert_int_equal(mt_spatial_hash_bit(p, b), par);
            assert_int_equal((mt_spatial_hash32(p) >> b) & 1, par); /* the table-driven hash */
        }
    }
    /* SplitMix64 output 17 (worked out in python: docs/trace-format.md 4.1 lists all 32) */
    assert_true(MT_SPATIAL_H3[16] == UINT64_C(0x825c75521255) && MT_SPATIAL_H3[31] == UINT64_C(0x35dea8e40225));
    assert_int_equal(mt_spatial_hash(0), 0);
    assert_int_equal(mt_spatial_hash(0x80000) & 1, 1); /* the golden vector's x */
    assert_int_equal(mt_spatial_hash(0x80001) & 1, 0); /* and y */
    /* a rate keeps about one part in R of a contiguous range (exactly: H3 is linear, and on an
     * aligned block of 2^k pages its low bits are a surjection when the masks' bits there are
     * independent) */
    for (uint32_t r = 2; r <= 256; r *= 2) {
        unsigned kept = 0;
        for (uint64_t p = 0x80000; p < 0x80000 + 65536; p++)
            kept += (mt_spatial_hash(p) & (r - 1)) == 0;
        assert_int_equal(kept, 65536 / r);
    }
}

/* The bitmap index: bit m of idx(p, r) is hash bit r + ((m - r) mod K); a doubling r -> r+1
 * changes a survivor's index (hash bit r = 0) only at bit r mod K, to hash bit r + K. */
static void test_map_index(void **state)
{
    (void)state;
    uint64_t seed = 5;
    for (int t = 0; t < 500; t++) {
        uint64_t p = rng(&seed) & ((UINT64_C(1) << 44) - 1);
        for (unsigned k = MT_SPATIAL_MAP_LOG2_MIN; k <= MT_SPATIAL_MAP_LOG2_MAX; k++)
            for (unsigned r = 0; r <= MT_SPATIAL_RATE_LOG2_MAX; r++) {
                uint32_t j = mt_spatial_map_index(p, r, k);
                assert_true(j < (UINT32_C(1) << k));
                for (unsigned m = 0; m < k; m++)
                    assert_int_equal((j >> m) & 1, mt_spatial_hash_bit(p, r + (m + k - r % k) % k));
                if (r < MT_SPATIAL_RATE_LOG2_MAX && !mt_spatial_hash_bit(p, r))
                    assert_int_equal(mt_spatial_map_index(p, r + 1, k) ^ j,
                                     (uint32_t)mt_spatial_hash_bit(p, r + k) << (r % k));
            }
    }
    /* by hand: K = 4, r = 1: bits 0..3 are hash bits 4, 1, 2, 3 */
    uint64_t p = 0x12345;
    uint32_t want = mt_spatial_hash_bit(p, 4) | mt_spatial_hash_bit(p, 1) << 1 | mt_spatial_hash_bit(p, 2) << 2 |
                    mt_spatial_hash_bit(p, 3) << 3;
    assert_int_equal(mt_spatial_map_index(p, 1, 4), want);
}

/* The counter against the rule written one bit at a time (a byte per bit, every doubling a loop
 * over all 2^K entries): the same rate, count and bitmap after every record, for every K and
 * thresholds from tiny to large. */
static void test_counter_rule(void **state)
{
    (void)state;
    uint64_t seed = 11;
    uint8_t *ref = malloc(UINT32_C(1) << MT_SPATIAL_MAP_LOG2_MAX);
    mt_spatial_counter *c = malloc(sizeof *c);
    unsigned total_doublings = 0;
    for (unsigned k = MT_SPATIAL_MAP_LOG2_MIN; k <= MT_SPATIAL_MAP_LOG2_MAX; k++)
        for (int v = 0; v < 3; v++) {
            uint32_t size = UINT32_C(1) << k, max = v == 0 ? 1 : v == 1 ? size / 4 : size - 1;
            uint32_t rate = 1u << (rng(&seed) % 4);
            assert_int_equal(mt_spatial_counter_init(c, rate, k, max), 0);
            memset(ref, 0, size);
            uint32_t count = 0;
            unsigned r = (unsigned)__builtin_ctz(rate);
            for (int t = 0; t < 20000; t++) {
                uint64_t p = rng(&seed) % (20000 + 2000 * (uint64_t)k);
                if (mt_spatial_hash(p) & ((UINT32_C(1) << r) - 1))
                    continue; /* the filter records only kept metapages */
                uint32_t j = 0;
                for (unsigned m = 0; m < k; m++) /* index bit m: the hash bit r..r+k-1 congruent to m */
                    for (unsigned b = r; b < r + k; b++)
                        if (b % k == m)
                            j |= (uint32_t)mt_spatial_hash_bit(p, b) << m;
                int want_change = 0;
                if (!ref[j]) {
                    ref[j] = 1;
                    count++;
                    while (count > max && r < MT_SPATIAL_RATE_LOG2_MAX) {
                        count = 0;
                        for (uint32_t e = 0; e < size; e++) {
                            if ((e >> (r % k)) & 1)
                                ref[e] = 0;
                            count += ref[e];
                        }
                        r++;
                        want_change = 1;
                        total_doublings++;
                    }
                }
                assert_int_equal(mt_spatial_counter_record(c, p), want_change);
                assert_int_equal(c->rate, UINT32_C(1) << r);
                assert_int_equal(c->count, count);
            }
            for (uint32_t e = 0; e < size; e++)
                assert_int_equal((c->map[e >> 6] >> (e & 63)) & 1, ref[e]);
        }
    assert_true(total_doublings > 100);
    /* parameters out of range */
    assert_int_equal(mt_spatial_counter_init(c, 3, 12, 1024), -1);
    assert_int_equal(mt_spatial_counter_init(c, 1, MT_SPATIAL_MAP_LOG2_MIN - 1, 4), -1);
    assert_int_equal(mt_spatial_counter_init(c, 1, MT_SPATIAL_MAP_LOG2_MAX + 1, 4), -1);
    assert_int_equal(mt_spatial_counter_init(c, 1, 12, 4096), -1);
    assert_int_equal(mt_spatial_counter_init(c, 1, 12, 0), -1);
    free(c);
    free(ref);
}

/* The filter's rule state equals a counter fed with each size's records (those kept at the
 * counter's rate): the filter's shortcut (no lookup for a page whose bitmap bits its page memo
 * knows set, valid until the next doubling) must not change the answer, across doublings too.  A small rule (64 bits, T = 16: a doubling every few
 * dozen new metapages) and a trace of alternations y x y x after each new x, so that a doubling
 * at x's record meets y (recorded before it) next and x again after that. */
static void test_filter_follows_records(void **state)
{
    (void)state;
    uint64_t seed = 77;
    size_t n = 200000;
    const unsigned k = 6;
    const uint32_t max = 16;
    uint64_t *addr = malloc(n * sizeof *addr);
    uint8_t *rw = calloc(n, 1);
    for (size_t i = 0; i < n; i++)
        addr[i] = i % 5 == 0 || i < 2 ? 0x80000000u + (rng(&seed) % 40000) * 4096 : addr[i - 2];
    recs v = {0};
    mt_spatial *sp = malloc(sizeof *sp);
    assert_int_equal(mt_spatial_init_rule(sp, 1, k, max, sink, &v), 0);
    for (size_t i = 0; i < n; i++)
        mt_spatial_access(sp, i, addr[i], rw[i]);
    mt_spatial_finish(sp);
    mt_spatial_counter *c = malloc(sizeof *c);
    unsigned doublings = 0;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        assert_int_equal(mt_spatial_counter_init(c, 1, k, max), 0);
        for (size_t j = 0; j < v.n; j++) {
            uint64_t p = v.r[j].addr >> (12 + i);
            if (((v.r[j].addr >> i) & 1) && !(mt_spatial_hash(p) & (c->rate - 1)))
                mt_spatial_counter_record(c, p);
        }
        assert_int_equal(c->rate, sp->rate[i]);
        assert_int_equal(c->count, sp->ctr[i].count);
        assert_memory_equal(c->map, sp->ctr[i].map, sizeof c->map);
        doublings += c->doublings;
    }
    assert_int_equal(doublings, sp->doublings);
    assert_true(doublings > 50);
    assert_int_equal(mt_spatial_init_rule(sp, 1, k, 64, sink, &v), -1); /* T < 2^K */
    free(sp);
    free(c);
    free(v.r);
    free(addr);
    free(rw);
}

static void test_rate_range(void **state)
{
    (void)state;
    assert_false(mt_spatial_rate_ok(0));
    assert_false(mt_spatial_rate_ok(3));
    assert_false(mt_spatial_rate_ok(MT_SPATIAL_RATE_MAX * 2));
    assert_true(mt_spatial_rate_ok(1));
    assert_true(mt_spatial_rate_ok(MT_SPATIAL_RATE_MAX));
    mt_spatial s;
    assert_int_equal(mt_spatial_init(&s, 6, NULL, NULL), -1);
    assert_int_equal(mt_spatial_init(&s, 64, NULL, NULL), 0);
    assert_int_equal(s.rate[0], 64);
    assert_int_equal(s.rate[5], 2);
    assert_int_equal(s.rate[6], 1);
    assert_int_equal(s.rate[9], 1);
}

/* A random trace: loops over a few regions, alternations, repeats, jumps. */
static void random_trace(uint64_t *seed, uint64_t *addr, uint8_t *rw, size_t n, unsigned span)
{
    uint64_t base = 0x80000000u + (rng(seed) % 64) * 4096;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = rng(seed) % 10;
        if (k < 3 && i >= 2)
            addr[i] = addr[i - 2]; /* alternation */
        else if (k < 5 && i >= 1)
            addr[i] = addr[i - 1] + 8; /* repeat */
        else
            addr[i] = base + (rng(seed) % span) * 4096 * (1 + rng(seed) % 3) + (k == 9 ? (rng(seed) % 4) << 21 : 0);
        rw[i] = rng(seed) % 3 == 0;
    }
}

/* Rate 1: every policy's faults equal the full trace's, every size, every budget of 2+ metapages
 * (and of one at sizes that tell the alternation apart: all of them here). */
static void test_rate1_exact(void **state)
{
    (void)state;
    uint64_t seed = 7;
    int configs = 0;
    size_t n = 400;
    uint64_t *addr = malloc(n * sizeof *addr);
    uint8_t *rw = malloc(n);
    for (int t = 0; t < 40; t++) {
        random_trace(&seed, addr, rw, n, 2 + (unsigned)(rng(&seed) % 40));
        recs v = filter(addr, rw, n, 1, NULL);
        recs full = {0};
        for (size_t i = 0; i < n; i++)
            push(&full, ht_full_sample(i, addr[i], rw[i]));
        policy_config cfg;
        policy_defaults(&cfg);
        cfg.nsizes = 0;
        for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
            cfg.sizes[cfg.nsizes++] = UINT64_C(4096) << i;
        cfg.nbudgets = 0;
        for (uint64_t b = 4096; b <= (UINT64_C(8) << 20); b *= 2)
            cfg.budgets[cfg.nbudgets++] = b;
        cfg.primary_budget = 1 << 20;
        for (int p = 0; p < PG_COUNT; p++)
            cfg.enabled[p] = 1;
        cfg.tmpdir = "/tmp";
        ht_source *fs = ht_array_source(full.r, full.n, "full");
        ht_source *ss = ht_array_source(v.r, v.n, "spatial");
        policy_result want, got;
        char err[256];
        trace_mode_info tm = spatial_info(1, n);
        assert_int_equal(policy_run(fs, &cfg, &want, err, sizeof err), 0);
        assert_int_equal(policy_run_mode(ss, &tm, &cfg, &got, err, sizeof err), 0);
        for (size_t k = 0; k < want.n; k++) {
            const policy_row *w = &want.rows[k], *g = row_of(&got, w->policy, w->size, w->budget);
            assert_non_null(g);
            assert_int_equal(g->c.accesses, n); /* the trailer's count, not the records */
            if (w->resident < 2)
                continue;
            if (g->c.faults != w->c.faults)
                fail_msg("trace %d: %s size %lu budget %lu: %lu faults, the full trace %lu", t,
                         pg_policy_name(w->policy), (unsigned long)w->size, (unsigned long)w->budget,
                         (unsigned long)g->c.faults, (unsigned long)w->c.faults);
            assert_int_equal(g->fidelity, ROW_EXACT);
            configs++;
        }
        policy_result_free(&want);
        policy_result_free(&got);
        ht_close(fs);
        ht_close(ss);
        free(v.r);
        free(full.r);
    }
    free(addr);
    free(rw);
    print_message("%d configurations equal\n", configs);
    assert_true(configs > 2000);
}

/* Rate R > 1: for each size, the distinct-consecutive metapages of the records with its bit are
 * exactly those of the accesses to hashed metapages (a naive filter), up to settled
 * alternations, which the filter shortens to x y x. */
static void test_sample_is_the_hashed_subset(void **state)
{
    (void)state;
    uint64_t seed = 31;
    size_t n = 3000;
    uint64_t *addr = malloc(n * sizeof *addr);
    uint8_t *rw = malloc(n);
    for (int t = 0; t < 20; t++) {
        random_trace(&seed, addr, rw, n, 8 + (unsigned)(rng(&seed) % 200));
        uint32_t rate = 1u << (1 + t % 6);
        recs v = filter(addr, rw, n, rate, NULL);
        for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
            uint32_t r = mt_spatial_rate_of(rate, i);
            /* the naive filter's sequence, repeats collapsed and alternations shortened */
            uint64_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
            size_t nw = 0, ng = 0;
            for (size_t k = 0; k < n; k++) {
                uint64_t mp = (addr[k] >> 12) >> i;
                if ((mt_spatial_hash(mp) & (r - 1)) == 0 && (!nw || want[nw - 1] != mp))
                    want[nw++] = mp;
            }
            for (size_t k = 0; k < v.n; k++)
                if ((v.r[k].addr >> i) & 1)
                    got[ng++] = (v.r[k].addr >> 12) >> i;
            /* every record is a hashed metapage, and the set of metapages is the same */
            for (size_t k = 0; k < ng; k++)
                assert_int_equal(mt_spatial_hash(got[k]) & (r - 1), 0);
            for (size_t k = 0; k < nw; k++) {
                int found = 0;
                for (size_t j = 0; j < ng && !found; j++)
                    found = got[j] == want[k];
                assert_true(found);
            }
            assert_true(ng <= nw);
            free(want);
            free(got);
        }
        free(v.r);
    }
    free(addr);
    free(rw);
}

/* A fixed large workload (a skewed random mix over 128 MiB): from a starting rate the LRU, FIFO, CLOCK and
 * OPT estimates of every 4K configuration (budgets 1M..32M: 16..512 sampled metapages resident)
 * are within 15% of the truth, the rows say "estimate" with an error bar, and the mean error is
 * below 5%. */
static void estimate_bounded(uint32_t start_rate, uint32_t want_rate0)
{
    uint64_t seed = 2026;
    size_t n = 400000;
    uint64_t *addr = malloc(n * sizeof *addr);
    uint8_t *rw = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = rng(&seed) % 100, pg;
        if (k < 60)
            pg = rng(&seed) % 1024; /* hot 4 MiB */
        else if (k < 90)
            pg = 1024 + rng(&seed) % 4096; /* warm 16 MiB */
        else
            pg = 5120 + rng(&seed) % 27648; /* cold 108 MiB */
        addr[i] = 0x80000000u + pg * 4096;
    }
    mt_spatial sp;
    recs v = filter(addr, rw, n, start_rate, &sp);
    assert_int_equal(sp.rate[0], want_rate0);
    recs full = {0};
    for (size_t i = 0; i < n; i++)
        push(&full, ht_full_sample(i, addr[i], 0));
    policy_config cfg;
    policy_defaults(&cfg);
    cfg.nsizes = 1;
    cfg.sizes[0] = 4096;
    cfg.nbudgets = 0;
    for (uint64_t b = 1 << 20; b <= (UINT64_C(32) << 20); b *= 2)
        cfg.budgets[cfg.nbudgets++] = b;
    cfg.primary_budget = 8 << 20;
    cfg.tmpdir = "/tmp";
    ht_source *fs = ht_array_source(full.r, full.n, "full");
    ht_source *ss = ht_array_source(v.r, v.n, "spatial");
    policy_result want, got;
    char err[256];
    trace_mode_info tm = spatial_info(start_rate, n);
    /* a header without trace.spatial_rule (the exact set of before 2026-12-05): with S = 2^20
     * no size doubles in the replay, and 2^20 - 1 sampled metapages would be needed */
    trace_mode_info old = tm;
    old.spatial_map_log2 = 0;
    old.spatial_max = 1u << 20;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        uint32_t r = 0;
        uint64_t kept = 0;
        assert_int_equal(trace_mode_spatial_final_rate(ss, &old, i, &r, &kept, err, sizeof err), 0);
        assert_int_equal(r, tm.spatial_rates[i]);
        assert_true(kept > 0);
    }
    /* the host's replay of the doubling rule finds the filter's final rate at every size */
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        uint32_t r = 0;
        uint64_t kept = 0;
        assert_int_equal(trace_mode_spatial_final_rate(ss, &tm, i, &r, &kept, err, sizeof err), 0);
        assert_true(kept > 0 && kept <= 2 * MT_SPATIAL_SAMPLE_MAX);
        assert_int_equal(r, sp.rate[i]);
    }
    assert_int_equal(policy_run(fs, &cfg, &want, err, sizeof err), 0);
    assert_int_equal(policy_run_mode(ss, &tm, &cfg, &got, err, sizeof err), 0);
    double sum = 0;
    for (size_t k = 0; k < want.n; k++) {
        const policy_row *w = &want.rows[k], *g = row_of(&got, w->policy, w->size, w->budget);
        assert_non_null(g);
        assert_int_equal(g->fidelity, ROW_ESTIMATE);
        assert_true(g->err_rel > 0 && g->err_rel < 0.5);
        double rel = ((double)g->c.faults - (double)w->c.faults) / (double)w->c.faults;
        print_message("budget %lu: truth %lu estimate %lu (%+.1f%%, bar +-%.1f%%)\n", (unsigned long)w->budget,
                      (unsigned long)w->c.faults, (unsigned long)g->c.faults, 100 * rel, 100 * g->err_rel);
        assert_true(rel < 0.15 && rel > -0.15);
        assert_true(rel <= g->err_rel && -rel <= g->err_rel); /* the bar covers the error */
        sum += rel < 0 ? -rel : rel;
    }
    assert_true(sum / (double)want.n < 0.05);
    policy_result_free(&want);
    policy_result_free(&got);
    ht_close(fs);
    ht_close(ss);
    free(v.r);
    free(full.r);
    free(addr);
    free(rw);
}

/* From rate 16 (about 25,000 pages touched: about 1,500 sampled, far below T: no doubling) and
 * from rate 1 (the default: past T = 8192 set bits of 16,384 at rates 1 and 2: doubles to 4). */
static void test_estimate_bounded(void **state)
{
    (void)state;
    estimate_bounded(16, 16);
    estimate_bounded(1, 4);
}

typedef struct {
    uint8_t b[4096];
    size_t n;
} bytes;

static void byte_sink(void *ctx, const uint8_t *p, size_t n)
{
    bytes *b = ctx;
    assert_true(b->n + n <= sizeof b->b);
    memcpy(b->b + b->n, p, n);
    b->n += n;
}

/* A spatial golden vector (tests/golden/NAME.svec): its accesses through the filter (at its
 * `rate`, and its `rule K T` when it names one) give its records and trailer counts; the reader's
 * replay of the rule (mt_spatial_counter_record over each size's records, docs/trace-format.md
 * 4.1) gives the same final rates; and when NAME.sexp exists, the records make that packet stream
 * (hex; docs/trace-format.md 4.1). */
static void check_golden_vector(const char *name)
{
    const char *dir = getenv("GOLDEN_DIR") ? getenv("GOLDEN_DIR") : "tests/golden";
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/%s.svec", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    recs got = {0}, want = {0};
    mt_spatial *s = calloc(1, sizeof *s);
    assert_non_null(s);
    int inited = 0;
    unsigned long long rate = 0, k = MT_SPATIAL_MAP_LOG2, t = MT_SPATIAL_SAMPLE_MAX;
    char trailer[512];
    size_t tn = 0;
    trailer[0] = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long c, a;
        unsigned w;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "rate %llu", &rate) == 1) {
            assert_false(inited);
        } else if (sscanf(line, "rule %llu %llu", &k, &t) == 2) {
            assert_false(inited); /* before the first access */
        } else if (sscanf(line, "a %llu %llx %u", &c, &a, &w) == 3) {
            if (!inited)
                assert_int_equal(mt_spatial_init_rule(s, (uint32_t)rate, (unsigned)k, (uint32_t)t, sink, &got), 0);
            inited = 1;
            mt_spatial_access(s, c, a, w);
        } else if (sscanf(line, "r %llu %llx %u", &c, &a, &w) == 3) {
            push(&want, ht_full_sample(c, a, (int)w));
        } else if (line[0] == 't' && line[1] == ' ') {
            tn += (size_t)snprintf(trailer + tn, sizeof trailer - tn, "%s", line + 2);
        } else {
            fail_msg("%s: bad line %s", path, line);
        }
    }
    fclose(f);
    assert_true(inited);
    mt_spatial_finish(s);
    assert_int_equal(got.n, want.n);
    for (size_t i = 0; i < got.n; i++) {
        assert_int_equal(got.r[i].cycle, want.r[i].cycle);
        assert_int_equal(got.r[i].addr, want.r[i].addr);
        assert_int_equal(got.r[i].write, want.r[i].write);
    }
    char have[512];
    size_t hn = (size_t)snprintf(have, sizeof have, "trace.accesses=%llu\ntrace.spatial_final_rates=",
                                 (unsigned long long)s->accesses);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        hn += (size_t)snprintf(have + hn, sizeof have - hn, "%s%u", i ? "," : "", (unsigned)s->rate[i]);
    snprintf(have + hn, sizeof have - hn, "\n");
    assert_string_equal(have, trailer);
    /* the reader's replay: each size's records in order, at the rate in force */
    mt_spatial_counter *c = malloc(sizeof *c);
    assert_non_null(c);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        assert_int_equal(mt_spatial_counter_init(c, mt_spatial_rate_of((uint32_t)rate, i), (unsigned)k, (uint32_t)t), 0);
        for (size_t j = 0; j < want.n; j++)
            if ((want.r[j].addr >> i) & 1)
                mt_spatial_counter_record(c, want.r[j].addr >> (12 + i));
        assert_int_equal(c->rate, s->rate[i]);
    }
    free(c);
    snprintf(path, sizeof path, "%s/%s.sexp", dir, name);
    f = fopen(path, "r");
    if (f) {
        bytes out = {.n = 0};
        mt_swenc sw;
        mt_swenc_init(&sw, 4096, byte_sink, &out);
        assert_int_equal(mt_swenc_section(&sw, 0, 2, 1, got.r[0].cycle), 0);
        for (size_t i = 0; i < got.n; i++)
            assert_int_equal(mt_swenc_sample(&sw, got.r[i].cycle, got.r[i].addr, got.r[i].write), 0);
        assert_int_equal(mt_swenc_end(&sw), 0);
        if (getenv("SPATIAL_GOLDEN_PRINT"))
            for (size_t i = 0; i < out.n; i++)
                fprintf(stderr, "%02x%s", out.b[i], i + 1 < out.n ? " " : "\n");
        uint8_t exp[4096];
        size_t n = 0;
        unsigned v;
        while (n < sizeof exp && fscanf(f, " %2x", &v) == 1)
            exp[n++] = (uint8_t)v;
        fclose(f);
        assert_int_equal(out.n, n);
        assert_memory_equal(out.b, exp, n);
    }
    free(s);
    free(got.r);
    free(want.r);
}

/* tests/golden/spatial_example.svec: records and trailer counts (hand-derived in the vector) and
 * the packet stream they make (spatial_example.sexp). */
static void test_golden_vector(void **state)
{
    (void)state;
    check_golden_vector("spatial_example");
}

/* tests/golden/spatial_doubling.svec (tests/golden/make_vectors.py, records from its own model of
 * the rule): a 16-bit bitmap and T = 3, so that rates double (three times at one record, too), revisited pages
 * no longer kept, and a settled alternation skipped and replayed after 4K's rate has doubled. */
static void test_golden_vector_doubling(void **state)
{
    (void)state;
    check_golden_vector("spatial_doubling");
}

static const char *info_text, *trailer_text;
static const char *fake_info(ht_source *s)
{
    (void)s;
    return info_text;
}
static const char *fake_trailer(ht_source *s)
{
    (void)s;
    return trailer_text;
}

static void test_mode_from_header(void **state)
{
    (void)state;
    ht_record one = ht_full_sample(0, 0x80000000u, 0);
    ht_source *src = ht_array_source(&one, 1, "t.mtr");
    src->header_info = fake_info;
    src->trailer_info = fake_trailer;
    trace_mode_info tm;
    char err[256];
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1024\ntrace.spatial_rule=bitmap-12\ntrace.spatial_hash=h3-splitmix0\n";
    trailer_text = "trace.accesses=1000\ntrace.spatial_final_rates=64,32,16,8,4,2,1,1,1,1\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), 0);
    assert_int_equal(tm.mode, TM_SPATIAL);
    assert_int_equal(tm.spatial_rate, 64);
    assert_int_equal(tm.spatial_rates[4], 4);
    assert_int_equal(tm.spatial_max, 1024);
    assert_int_equal(tm.spatial_map_log2, 12);
    assert_int_equal(tm.accesses, 1000);
    trailer_text = "";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), 0);
    assert_int_equal(tm.accesses, 0); /* no trailer: the rows count records */
    info_text = "trace.mode=spatial\ntrace.spatial_rate=6\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace.spatial_rate"));
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace.spatial_rates"));
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1024\ntrace.spatial_rule=bitmap-12\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "spatial_hash"));
    /* a trace of the exact-set rule (no trace.spatial_rule: written before the bitmap, or by a
     * writer whose rates never double, S = 2^20) is read with that rule; a rule out of range
     * or unknown is refused */
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1048576\ntrace.spatial_hash=h3-splitmix0\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), 0);
    assert_int_equal(tm.spatial_map_log2, 0);
    assert_int_equal(tm.spatial_max, 1048576);
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1024\ntrace.spatial_rule=exact\ntrace.spatial_hash=h3-splitmix0\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace.spatial_rule"));
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1024\ntrace.spatial_rule=bitmap-17\ntrace.spatial_hash=h3-splitmix0\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace.spatial_rule"));
    /* T must leave the bitmap room to exceed it */
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=4096\ntrace.spatial_rule=bitmap-12\ntrace.spatial_hash=h3-splitmix0\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace.spatial_max"));
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_rule=bitmap-12\ntrace.spatial_hash=h3-splitmix0\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace.spatial_max"));
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1024\ntrace.spatial_rule=bitmap-12\ntrace.spatial_hash=crc32\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "spatial_hash"));
    /* commands that read samples as accesses refuse it by name */
    info_text = "trace.mode=spatial\ntrace.spatial_rate=64\ntrace.spatial_rates=64,32,16,8,4,2,1,1,1,1\n"
                "trace.spatial_max=1024\ntrace.spatial_rule=bitmap-12\ntrace.spatial_hash=h3-splitmix0\n";
    assert_int_equal(trace_mode_refuse_masked(src, "export", err, sizeof err), -1);
    assert_non_null(strstr(err, "spatial-mode"));
    ht_close(src);
}

/* The container's trailer: written before the index, read back through it; a damaged trailer
 * is ignored (as if absent), the samples unchanged. */
static void test_trailer_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/test_lib_spatial.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    mt_writer_config wc = {.producer = "test", .info = "trace.mode=spatial\n"};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(mt_writer_section(w, 0, 2, 1, 5), 0);
    for (uint64_t c = 5; c < 2000; c++)
        assert_int_equal(mt_writer_sample(w, c, 0x80000000u + (c % 7) * 4096, 0), 0);
    assert_int_equal(mt_writer_trailer(w, "trace.accesses=12345\n"), 0);
    assert_int_equal(mt_writer_finish(w, err, sizeof err), 0);
    mt_file *f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    assert_string_equal(mt_file_header_get(f)->trailer, "trace.accesses=12345\n");
    assert_int_equal(mt_file_header_get(f)->index_state, MT_INDEX_CHECKED);
    size_t total = 0;
    uint8_t buf[4096];
    ssize_t got;
    while ((got = mt_file_read(f, buf, sizeof buf)) > 0)
        total += (size_t)got;
    assert_true(total > 0);
    mt_file_close(f);
    /* flip a byte of the trailer's text: ignored */
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    uint8_t *all = malloc((size_t)sz);
    fseek(fp, 0, SEEK_SET);
    assert_int_equal(fread(all, 1, (size_t)sz, fp), (size_t)sz);
    uint8_t *t = memmem(all, (size_t)sz, "trace.accesses=12345", 20);
    assert_non_null(t);
    fseek(fp, (long)(t - all) + 15, SEEK_SET);
    fputc('9', fp);
    fclose(fp);
    free(all);
    f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    assert_string_equal(mt_file_header_get(f)->trailer, "");
    size_t total2 = 0;
    while ((got = mt_file_read(f, buf, sizeof buf)) > 0)
        total2 += (size_t)got;
    assert_int_equal(total2, total);
    mt_file_close(f);
    unlink(path);
}

/* What the CPU's page filter hands the spatial filter (emu/trace/tracectl.c sp_skipped): only the
 * accesses that change the 4 KiB page, and the number of repeats between them
 * (mt_spatial_repeats).  The same records and the same count as every access, at rates 1 and 8. */
static void test_repeats_entry_point(void **state)
{
    (void)state;
    enum { N = 200000 };
    uint64_t *addr = malloc(N * sizeof *addr);
    assert_non_null(addr);
    uint64_t seed = 12345, last = 0;
    for (size_t i = 0; i < N; i++) { /* mostly repeats and alternations, some jumps over 64 MiB */
        uint64_t x = rng(&seed);
        uint64_t page = x % 4 == 0 ? (x >> 8) % 16384 : x % 4 == 1 ? 7 : last;
        addr[i] = page << 12 | ((x >> 32) & 0xffe) | ((x >> 50) & 1); /* bit 0: R/W */
        last = page;
    }
    for (uint32_t rate = 1; rate <= 8; rate *= 8) {
        recs all = {0}, fil = {0};
        mt_spatial a, f;
        assert_int_equal(mt_spatial_init(&a, rate, sink, &all), 0);
        for (size_t i = 0; i < N; i++)
            mt_spatial_access(&a, i, addr[i], addr[i] & 1);
        mt_spatial_finish(&a);
        assert_int_equal(mt_spatial_init(&f, rate, sink, &fil), 0);
        uint64_t pending = 0;
        for (size_t i = 0; i < N; i++) {
            if (i && addr[i] >> 12 == addr[i - 1] >> 12) {
                pending++;
                continue;
            }
            if (pending)
                mt_spatial_repeats(&f, pending);
            pending = 0;
            mt_spatial_access(&f, i, addr[i], addr[i] & 1);
        }
        if (pending)
            mt_spatial_repeats(&f, pending);
        mt_spatial_finish(&f);
        assert_int_equal(a.accesses, N);
        assert_int_equal(f.accesses, N);
        assert_int_equal(a.records, f.records);
        assert_int_equal(all.n, fil.n);
        for (size_t j = 0; j < all.n; j++) {
            assert_int_equal(all.r[j].cycle, fil.r[j].cycle);
            assert_int_equal(all.r[j].addr, fil.r[j].addr);
            assert_int_equal(all.r[j].write, fil.r[j].write);
        }
        assert_true(f.records < N / 2); /* there were repeats to skip */
        free(all.r);
        free(fil.r);
    }
    free(addr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_bit_exact),
        cmocka_unit_test(test_map_index),
        cmocka_unit_test(test_counter_rule),
        cmocka_unit_test(test_filter_follows_records),
        cmocka_unit_test(test_rate_range),
        cmocka_unit_test(test_rate1_exact),
        cmocka_unit_test(test_sample_is_the_hashed_subset),
        cmocka_unit_test(test_estimate_bounded),
        cmocka_unit_test(test_golden_vector),
        cmocka_unit_test(test_golden_vector_doubling),
        cmocka_unit_test(test_mode_from_header),
        cmocka_unit_test(test_trailer_round_trip),
        cmocka_unit_test(test_repeats_entry_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
