/* The policy engine: the one-pass engine equals one simulation per configuration; the cost
 * model and the recommendation follow their definitions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/policy.h"
#include "host/spill.h"
#include "host/tracemode.h"
#include "mt_spatial.h"

static ht_record *random_trace(size_t n, uint64_t seed)
{
    ht_record *t = malloc(n * sizeof *t);
    for (size_t i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        uint64_t a = (seed & 1) ? 0x80000000u + (i * 512) % (3u << 20)
                                : 0x80000000u + (seed >> 11) % (2u << 20);
        t[i] = ht_full_sample(i * 10, a, (seed >> 40) % 4 == 0);
    }
    /* a few 32-bit samples, which the engine must skip */
    for (size_t i = 0; i < n; i += 97)
        t[i].format = HT_FMT_32;
    return t;
}

/* policy_run against policy_run_baseline (one direct simulation of the raw samples per
 * configuration): every row's faults and write-backs and accesses equal. */
static void assert_engine_equals_baseline(const ht_record *t, size_t n, const policy_config *cfg,
                                          const char *name)
{
    ht_source *src = ht_array_source(t, n, name);
    policy_result a, b;
    char err[256];
    assert_int_equal(policy_run(src, cfg, &a, err, sizeof err), 0);
    assert_int_equal(policy_run_baseline(src, cfg, &b, err, sizeof err), 0);
    assert_int_equal(a.n, b.n);
    assert_true(a.n > 0);
    for (size_t i = 0; i < a.n; i++) {
        size_t j = 0;
        while (j < b.n && !(a.rows[i].policy == b.rows[j].policy && a.rows[i].size == b.rows[j].size &&
                            a.rows[i].budget == b.rows[j].budget))
            j++;
        assert_true(j < b.n);
        if (a.rows[i].c.faults != b.rows[j].c.faults ||
            a.rows[i].c.writebacks != b.rows[j].c.writebacks ||
            a.rows[i].c.accesses != b.rows[j].c.accesses)
            fail_msg("%s: %s size %llu budget %llu: engine %llu/%llu/%llu, simulation "
                     "%llu/%llu/%llu (accesses/faults/write-backs)",
                     name, pg_policy_name(a.rows[i].policy), (unsigned long long)a.rows[i].size,
                     (unsigned long long)a.rows[i].budget, (unsigned long long)a.rows[i].c.accesses,
                     (unsigned long long)a.rows[i].c.faults,
                     (unsigned long long)a.rows[i].c.writebacks,
                     (unsigned long long)b.rows[j].c.accesses,
                     (unsigned long long)b.rows[j].c.faults,
                     (unsigned long long)b.rows[j].c.writebacks);
    }
    policy_result_free(&a);
    policy_result_free(&b);
    ht_close(src);
}

static uint64_t next_rand(uint64_t *seed)
{
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    return *seed;
}

static void grid(policy_config *cfg, const uint64_t *sizes, int ns, const uint64_t *budgets, int nb)
{
    policy_defaults(cfg);
    cfg->nsizes = ns;
    for (int i = 0; i < ns; i++)
        cfg->sizes[i] = sizes[i];
    cfg->nbudgets = nb;
    for (int i = 0; i < nb; i++)
        cfg->budgets[i] = budgets[i];
    cfg->primary_budget = budgets[0];
}

/* The engine feeds each size only its runs (repeats collapsed, writes OR-ed), the coarse sizes
 * derived from finer ones, in batches, on two threads.  Streams made to break that if it were
 * wrong: runs with a write after reads inside (a run must stay dirty), 32-bit samples inside
 * runs (skipped: the run goes on), runs crossing metapage but not 4 KiB boundaries, sizes out of
 * order and not powers of two (12K derives from 4K, 24K from 12K, 20K from 4K), addresses at
 * the top of the address space, and LRU's worst case (a cyclic sweep over one metapage more
 * than fits). */
static void test_runs_adversarial(void **state)
{
    (void)state;
    uint64_t sizes[] = {65536, 4096, 12288, 24576, 20480, 8192, 2u << 20};
    uint64_t budgets[] = {96 << 10, 48 << 10, 4u << 20};
    policy_config cfg;
    grid(&cfg, sizes, 7, budgets, 3);
    size_t n = 30000;
    ht_record *t = malloc(n * sizeof *t);
    uint64_t seed = 99;
    /* random runs of 1..40 accesses, each inside one 4 KiB page or straddling into the next */
    for (size_t i = 0; i < n;) {
        uint64_t r = next_rand(&seed);
        uint64_t page = 0x80000000u + ((r >> 8) % 300) * 4096;
        size_t len = 1 + (size_t)((r >> 40) % 40);
        for (size_t k = 0; k < len && i < n; k++, i++) {
            uint64_t q = next_rand(&seed);
            uint64_t addr = page + (q % 4096) + ((q >> 20) % 16 == 0 ? 4096 : 0);
            t[i] = ht_full_sample(i, addr, (q >> 32) % 9 == 0);
            if ((q >> 44) % 53 == 0)
                t[i].format = HT_FMT_32;
        }
    }
    assert_engine_equals_baseline(t, n, &cfg, "random runs");
    /* cyclic sweep over 25 x 4 KiB (24 fit at 96K): LRU and FIFO fault on every run */
    for (size_t i = 0; i < n; i++)
        t[i] = ht_full_sample(i, 0x80000000u + ((i / 3) % 25) * 4096, i % 3 == 2);
    assert_engine_equals_baseline(t, n, &cfg, "cyclic sweep");
    /* the top of the address space: page numbers near 2^52 */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next_rand(&seed);
        t[i] = ht_full_sample(i, UINT64_MAX - (r % (256u << 10)), (r >> 50) % 3 == 0);
    }
    assert_engine_equals_baseline(t, n, &cfg, "top of memory");
    free(t);
}

/* Runs that cross the engine's batches (4,096 samples, each next batch twice as many up to 2^18:
 * host/policy.c's POLICY_BATCH_FIRST): a run open at a batch's end goes on in the next one, and
 * its write, after the boundary, must still make it dirty. */
static void test_runs_across_batches(void **state)
{
    (void)state;
    uint64_t sizes[] = {4096, 16384};
    uint64_t budgets[] = {8192, 32768};
    policy_config cfg;
    grid(&cfg, sizes, 2, budgets, 2);
    size_t n = (1u << 18) * 2 + 5000;
    ht_record *t = malloc(n * sizeof *t);
    uint64_t seed = 5;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next_rand(&seed);
        /* long runs (100 samples) of 5 pages in turn; written only at one sample per run, that
         * lands on either side of the boundaries */
        uint64_t run = i / 100;
        t[i] = ht_full_sample(i, 0x10000000u + (run % 5) * 4096 + r % 4096,
                              i % 100 == (run * 37) % 100);
    }
    /* at every boundary (raw samples: no 32-bit ones here), a run that straddles it, written
     * only after it */
    for (size_t end = 0, batch = 4096;; batch = batch < (1u << 18) ? batch * 2 : batch) {
        end += batch;
        if (end + 50 > n)
            break;
        for (size_t i = end - 50; i < end + 50; i++)
            t[i] = ht_full_sample(i, 0x20000000u, i == end + 10);
    }
    assert_engine_equals_baseline(t, n, &cfg, "runs across batches");
    free(t);
}

static void test_engine_equals_baseline(void **state)
{
    (void)state;
    size_t n = 20000;
    ht_record *t = random_trace(n, 42);
    policy_config cfg;
    policy_defaults(&cfg);
    cfg.nsizes = 0;
    for (uint64_t s = 4096; s <= 65536; s *= 2)
        cfg.sizes[cfg.nsizes++] = s;
    cfg.sizes[cfg.nsizes++] = 12288; /* k = 3: not a power of two */
    cfg.nbudgets = 3;
    cfg.budgets[0] = 256 << 10;
    cfg.budgets[1] = 1 << 20;
    cfg.budgets[2] = cfg.primary_budget = 2 << 20;
    ht_source *src = ht_array_source(t, n, "random");
    policy_result a, b;
    char err[256];
    assert_int_equal(policy_run(src, &cfg, &a, err, sizeof err), 0);
    assert_int_equal(policy_run_baseline(src, &cfg, &b, err, sizeof err), 0);
    assert_int_equal(a.n, b.n);
    assert_int_equal(a.skipped32, (n + 96) / 97);
    assert_int_equal(a.samples, n - a.skipped32);
    size_t matched = 0;
    for (size_t i = 0; i < a.n; i++)
        for (size_t j = 0; j < b.n; j++)
            if (a.rows[i].policy == b.rows[j].policy && a.rows[i].size == b.rows[j].size &&
                a.rows[i].budget == b.rows[j].budget) {
                assert_int_equal(a.rows[i].c.faults, b.rows[j].c.faults);
                assert_int_equal(a.rows[i].c.writebacks, b.rows[j].c.writebacks);
                assert_int_equal(a.rows[i].resident, a.rows[i].budget / a.rows[i].size);
                matched++;
            }
    assert_int_equal(matched, a.n);
    assert_int_equal(a.n, 6 * 3 * 4);
    policy_result_free(&a);
    policy_result_free(&b);
    ht_close(src);
    free(t);
}

/* OPT alone, over sizes of which some hold no metapage in any budget (skipped between OPT
 * sizes): equal to the baseline (one pass over the raw trace per configuration, against
 * policy_opt.c's run streams, two sizes at a time), and never more than the 4 KiB run file and
 * two next-use arrays alive at once, at most 12 bytes per sample in all (host/policy_opt.h's
 * bound), however many sizes; the 140,000 samples cross the pieces the files are read and
 * written in (64 Ki entries). */
static void test_opt_per_size_bounded(void **state)
{
    (void)state;
    size_t n = 140000; /* several of policy_opt.c's 64 K-sample batches */
    ht_record *t = random_trace(n, 7);
    policy_config cfg;
    policy_defaults(&cfg);
    cfg.nsizes = 0;
    uint64_t sizes[] = {4096, 8192, 4u << 20, 12288, 16384, 8u << 20, 65536, 20480};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        cfg.sizes[cfg.nsizes++] = sizes[i];
    cfg.nbudgets = 2;
    cfg.budgets[0] = 128 << 10;
    cfg.budgets[1] = cfg.primary_budget = 1 << 20;
    for (int p = 0; p < PG_COUNT; p++)
        cfg.enabled[p] = p == PG_OPT;
    ht_source *src = ht_array_source(t, n, "random");
    policy_result a, b;
    char err[256];
    spill_reset_peak();
    assert_int_equal(policy_run(src, &cfg, &a, err, sizeof err), 0);
    assert_true(spill_peak_live() <= 3);
    assert_true(spill_peak_live() >= 2);
    assert_true(spill_peak_bytes() <= 12 * a.samples);
    assert_int_equal(policy_run_baseline(src, &cfg, &b, err, sizeof err), 0);
    assert_int_equal(a.n, 6 * 2);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        size_t j = 0;
        while (j < b.n && !(a.rows[i].size == b.rows[j].size &&
                            a.rows[i].budget == b.rows[j].budget))
            j++;
        assert_true(j < b.n);
        assert_int_equal(a.rows[i].policy, PG_OPT);
        assert_int_equal(a.rows[i].c.faults, b.rows[j].c.faults);
        assert_int_equal(a.rows[i].c.writebacks, b.rows[j].c.writebacks);
    }
    policy_result_free(&a);
    policy_result_free(&b);
    ht_close(src);
    free(t);
}

/* Row `at` of one run (`what_a`) against row j of another (`what_b`): policy, size, budget and
 * counts equal, or a failure that prints both. */
static void assert_row_equal(size_t at, const char *what_a, const policy_row *x, const char *what_b,
                             const policy_row *y)
{
    if (x->policy != y->policy || x->size != y->size || x->budget != y->budget || x->c.accesses != y->c.accesses ||
        x->c.faults != y->c.faults || x->c.writebacks != y->c.writebacks)
        fail_msg("row %zu: %s %s %llu %llu %llu/%llu/%llu, %s %s %llu %llu %llu/%llu/%llu "
                 "(size budget accesses/faults/write-backs)",
                 at, what_a, pg_policy_name(x->policy), (unsigned long long)x->size,
                 (unsigned long long)x->budget, (unsigned long long)x->c.accesses, (unsigned long long)x->c.faults,
                 (unsigned long long)x->c.writebacks, what_b, pg_policy_name(y->policy),
                 (unsigned long long)y->size, (unsigned long long)y->budget, (unsigned long long)y->c.accesses,
                 (unsigned long long)y->c.faults, (unsigned long long)y->c.writebacks);
}

/* policy_run of `one` on a view of a trace (closed here) against a's rows from *at on, which it
 * moves past them; *most keeps the largest sample count of the views.  Returns the view's rows. */
static size_t view_rows_equal(ht_source *view, const policy_config *one, const policy_result *a, size_t *at,
                              const char *what_a, const char *what_b, uint64_t *most)
{
    char err[256];
    policy_result b;
    assert_int_equal(policy_run(view, one, &b, err, sizeof err), 0);
    view->close(view);
    if (b.samples > *most)
        *most = b.samples;
    for (size_t j = 0; j < b.n; j++, (*at)++) {
        assert_true(*at < a->n);
        assert_row_equal(*at, what_a, &a->rows[*at], what_b, &b.rows[j]);
    }
    const size_t n = b.n;
    policy_result_free(&b);
    return n;
}

/* n size-masked records (the low 10 bits of the address: the sizes that see it): a new page two
 * times in three, near ones mostly, one of `span` far ones sometimes; a quarter of the masks all
 * sizes; a third writes; every `every32`-th a 32-bit sample.  The caller frees it. */
static ht_record *masked_stream(size_t n, uint64_t seed, uint64_t span, size_t every32)
{
    ht_record *t = malloc(n * sizeof *t);
    assert_non_null(t);
    uint64_t page = 0x80000;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next_rand(&seed);
        if (r % 3)
            page = r % 5 ? page + (r >> 8) % 9 - 4 : 0x80000 + (r >> 16) % span;
        uint64_t mask = (r >> 24) & 0x3ff;
        if ((r >> 40) % 4 == 0)
            mask = 0x3ff;
        t[i] = ht_full_sample(i, page << 12 | mask, (r >> 50) % 3 == 0);
        if (i % every32 == 0)
            t[i].format = HT_FMT_32;
    }
    return t;
}

/* A size-masked trace (a reduce trace's records: the low bits of the address say which sizes
 * see the record): policy_run_masked, one read for every size, gives the rows of policy_run on
 * each size's view (trace_mode_size_view: the way reduce traces were read before), every
 * policy, in the same order, accesses included; OPT's temporary space stays within 4 bytes per
 * record for the run file plus two sizes' next-use arrays (12 bytes per record).  The stream is made to catch a
 * wrong demultiplexing: runs of one page whose masks differ (a size must not see the other
 * record's write), records no asked size sees, 32-bit samples, sizes out of order, and batches
 * (more records than the engine's first batches hold). */
static void test_masked_equals_per_size_views(void **state)
{
    (void)state;
    size_t n = 60000;
    ht_record *t = masked_stream(n, 99, 4096, 101);
    uint64_t sizes[] = {65536, 4096, 2u << 20, 8192, 262144, 16384};
    unsigned bits[] = {4, 0, 9, 1, 6, 2};
    uint64_t budgets[] = {256 << 10, 64 << 10, 4u << 20};
    policy_config cfg;
    grid(&cfg, sizes, 6, budgets, 3);
    ht_source *src = ht_array_source(t, n, "masked");
    policy_result a;
    char err[256];
    spill_reset_peak();
    assert_int_equal(policy_run_masked(src, &cfg, bits, &a, err, sizeof err), 0);
    assert_true(spill_peak_bytes() <= 12 * n);
    size_t at = 0;
    uint64_t most = 0;
    for (int s = 0; s < cfg.nsizes; s++) {
        policy_config one = cfg;
        one.sizes[0] = cfg.sizes[s];
        one.nsizes = 1;
        assert_int_equal(ht_rewind(src), 0);
        assert_true(view_rows_equal(trace_mode_size_view(src, bits[s]), &one, &a, &at, "masked", "per-size view",
                                    &most) > 0);
    }
    assert_int_equal(at, a.n);
    assert_int_equal(a.samples, most);
    policy_result_free(&a);
    /* a mask bit outside the address's in-page bits: refused by name */
    unsigned bad[] = {4, 0, 12, 1, 6, 2};
    assert_int_equal(policy_run_masked(src, &cfg, bad, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "mask bit 12"));
    ht_close(src);
    free(t);
}

/* policy_run_selected (a spatial trace's read: per size its own budgets, more than
 * POLICY_MAX_BUDGETS of them for one size, and a filter that keeps a hashed part of its
 * metapages) gives, size by size, the rows of policy_run on trace_mode_sample_view at that size's
 * rate, its budgets run POLICY_MAX_BUDGETS at a time (how spatial traces were read before, one
 * read per size and pass): every policy, OPT included, in the same order, accesses included,
 * and the samples of the size that has most.  Rates 1 (the filter keeps all), 2, 8 and 64 (few
 * metapages left), a size no record keeps at rate 64, 32-bit samples and batches as above. */
static unsigned keep_at_rates(void *ctx, uint64_t page, unsigned mask)
{
    const uint32_t *rate = ctx;
    for (unsigned b = 0; b < POLICY_MASK_BITS; b++)
        if (((mask >> b) & 1) && rate[b] > 1 && (mt_spatial_hash(page >> b) & (rate[b] - 1)))
            mask &= ~(1u << b);
    return mask;
}

static void test_selected_equals_sampled_views(void **state)
{
    (void)state;
    size_t n = 50000;
    ht_record *t = masked_stream(n, 7, 8192, 103);
    uint64_t sizes[] = {8192, 4096, 65536, 2u << 20, 16384};
    unsigned bits[] = {1, 0, 4, 9, 2};
    uint32_t rate_of_bit[POLICY_MASK_BITS] = {0};
    rate_of_bit[1] = 8, rate_of_bit[0] = 1, rate_of_bit[4] = 2, rate_of_bit[9] = 64, rate_of_bit[2] = 4;
    /* per size: 40 capacities for 4K (two passes of the old way), a few for the others */
    uint64_t caps[5][48];
    int ncaps[5] = {0, 40, 3, 2, 6};
    for (int k = 0; k < 40; k++)
        caps[1][k] = (uint64_t)(k + 1) * 4096 * 3;
    caps[0][0] = 8192, caps[0][1] = 8192 * 5, caps[0][2] = 8192 * 64, ncaps[0] = 3;
    caps[2][0] = 65536 * 2, caps[2][1] = 65536, caps[2][2] = 65536 * 9;
    caps[3][0] = 2u << 20, caps[3][1] = 4u << 20;
    for (int k = 0; k < 6; k++)
        caps[4][k] = (uint64_t)(1 + 3 * k) * 16384;
    policy_config cfg;
    policy_defaults(&cfg);
    cfg.tmpdir = "/tmp";
    cfg.nsizes = 5;
    policy_size_sel sel[5];
    for (int s = 0; s < 5; s++) {
        cfg.sizes[s] = sizes[s];
        sel[s] = (policy_size_sel){.mask_bit = bits[s], .budgets = caps[s], .nbudgets = ncaps[s]};
    }
    ht_source *src = ht_array_source(t, n, "selected");
    policy_result a;
    char err[256];
    assert_int_equal(policy_run_selected(src, &cfg, sel, keep_at_rates, rate_of_bit, &a, err, sizeof err), 0);
    size_t at = 0;
    uint64_t most = 0;
    for (int s = 0; s < 5; s++)
        for (int first = 0; first < ncaps[s]; first += POLICY_MAX_BUDGETS) {
            policy_config one = cfg;
            one.sizes[0] = sizes[s];
            one.nsizes = 1;
            one.nbudgets = ncaps[s] - first < POLICY_MAX_BUDGETS ? ncaps[s] - first : POLICY_MAX_BUDGETS;
            memcpy(one.budgets, caps[s] + first, (size_t)one.nbudgets * sizeof caps[s][0]);
            one.primary_budget = one.budgets[0];
            assert_int_equal(ht_rewind(src), 0);
            view_rows_equal(trace_mode_sample_view(src, bits[s], rate_of_bit[bits[s]]), &one, &a, &at, "selected",
                            "sampled view", &most);
        }
    assert_int_equal(at, a.n);
    assert_int_equal(a.samples, most);
    policy_result_free(&a);
    /* no budgets for a size, or more than it takes, or a mask bit above the in-page bits: refused */
    sel[2].nbudgets = 0;
    assert_int_equal(policy_run_selected(src, &cfg, sel, NULL, NULL, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "0 budgets for metapage size 65536"));
    sel[2].nbudgets = POLICY_SIZE_MAX_BUDGETS + 1;
    assert_int_equal(policy_run_selected(src, &cfg, sel, NULL, NULL, &a, err, sizeof err), -1);
    sel[2].nbudgets = 3;
    sel[4].mask_bit = POLICY_MASK_BITS;
    assert_int_equal(policy_run_selected(src, &cfg, sel, NULL, NULL, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "mask bit 12"));
    ht_close(src);
    free(t);
}

static void test_cost_model(void **state)
{
    (void)state;
    cost_model m = {.lat_in = 1e-4, .lat_out = 2e-5, .bw_in = 1e9, .bw_out = 5e8};
    pg_counts c = {.accesses = 100, .faults = 10, .writebacks = 4};
    /* 10 * 100us + 10*64KiB/1GB/s + 4 * 20us + 4*64KiB/0.5GB/s */
    double want = 10 * 1e-4 + 655360 / 1e9 + 4 * 2e-5 + 262144 / 5e8;
    assert_true(cost_of(&m, &c, 65536) > want - 1e-12 && cost_of(&m, &c, 65536) < want + 1e-12);
}

/* Two hot pages 4 KiB apart touched alternately, plus a cold sweep: with a budget of one 8 KiB
 * metapage both hot pages fit in one metapage, so 8K beats 4K (1 resident page thrashes). */
static void test_recommendation_prefers_the_cheaper_size(void **state)
{
    (void)state;
    ht_record t[400];
    for (int i = 0; i < 400; i++)
        t[i] = ht_full_sample((uint64_t)i, 0x80000000u + (uint64_t)(i & 1) * 4096, 0);
    policy_config cfg;
    policy_defaults(&cfg);
    cfg.nsizes = 2;
    cfg.sizes[0] = 4096;
    cfg.sizes[1] = 8192;
    cfg.nbudgets = 1;
    cfg.budgets[0] = cfg.primary_budget = 8192;
    ht_source *src = ht_array_source(t, 400, "alternating");
    policy_result r;
    char err[256];
    assert_int_equal(policy_run(src, &cfg, &r, err, sizeof err), 0);
    assert_true(r.recommended >= 0);
    const policy_row *best = &r.rows[r.recommended];
    assert_int_equal(best->size, 8192);
    assert_int_equal(best->c.faults, 1);
    assert_int_equal(best->rank, 1);
    /* 4K with 2 resident also holds both pages: 2 faults, ranks after 8K's single fault */
    for (size_t i = 0; i < r.n; i++)
        if (r.rows[i].size == 4096)
            assert_int_equal(r.rows[i].c.faults, 2);
    assert_true(r.opt_bound >= 0);
    assert_int_equal(r.rows[r.opt_bound].policy, PG_OPT);
    policy_result_free(&r);
    ht_close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_equals_baseline),
        cmocka_unit_test(test_opt_per_size_bounded),
        cmocka_unit_test(test_runs_adversarial),
        cmocka_unit_test(test_runs_across_batches),
        cmocka_unit_test(test_masked_equals_per_size_views),
        cmocka_unit_test(test_selected_equals_sampled_views),
        cmocka_unit_test(test_cost_model),
        cmocka_unit_test(test_recommendation_prefers_the_cheaper_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
