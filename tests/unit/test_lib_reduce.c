/* The reduce mode's exactness (docs/metapaging.md "Exact reduction"): on many random and
 * adversarial small traces, for every metapage size 4 KiB .. 2 MiB and every budget from
 * k = max(1, B / size) metapages (every budget >= B) up to one metapage more than the trace touches, the host's own policy engine
 * (host/policy.c through host/tracemode.c's per-size view) gives the same LRU and OPT fault counts
 * on the reduced trace (lib/mt_reduce.c) as on the full trace.  A deliberately wrong reduction
 * (dropping every reference that hits a k-page LRU filter) must be caught by the same check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/policy.h"
#include "host/tracemode.h"
#include "mt_reduce.h"
#include "mt_swenc.h"

#include "reduce_exact.h"

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
    assert_true(v->n == 0 || cycle > last_cycle); /* reference order, one record per reference */
    assert_true(mask != 0 && mask < (1u << MT_REDUCE_SIZES));
    last_cycle = cycle;
    push(v, ht_full_sample(cycle, page << 12 | mask, (int)rw));
}

/* Compares full against reduced for every size and every budget >= max(B, s); returns the number
 * of (size, budget, policy) mismatches (0 when the reduction is exact). */
static int compare(const uint64_t *addr, const uint8_t *rw, size_t n, uint64_t budget_b,
                   const recs *reduced, int *configs)
{
    return reduce_exact_mismatches(addr, rw, n, budget_b, reduced->r, reduced->n, configs);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t total_alt_skipped, total_forced;
static size_t test_heap_limit; /* 0: the default */

/* The full reduce path for one trace and budget: exact at every size and budget. */
static void check_exact(const uint64_t *addr, const uint8_t *rw, size_t n, uint64_t budget_b, int *configs)
{
    recs red = {0};
    mt_reduce r;
    assert_int_equal(mt_reduce_init(&r, budget_b, sink, &red), 0);
    if (test_heap_limit)
        r.heap_limit = test_heap_limit;
    for (size_t i = 0; i < n; i++)
        mt_reduce_access(&r, i, addr[i], rw[i]);
    mt_reduce_finish(&r);
    total_alt_skipped += r.alt_skipped;
    total_forced += r.forced;
    if (test_heap_limit)
        assert_true(r.nheap == 0);
    assert_int_equal(red.n, r.records);
    assert_true(red.n <= n);
    int bad = compare(addr, rw, n, budget_b, &red, configs);
    if (bad) {
        fprintf(stderr, "B=%lu n=%zu:", (unsigned long)budget_b, n);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %lx", (unsigned long)(addr[i] >> 12));
        fprintf(stderr, "\n");
    }
    assert_int_equal(bad, 0);
    mt_reduce_free(&r);
    free(red.r);
}

/* Addresses from a few 4 KiB pages spread over 8 MiB (so 2 MiB metapages are few too). */
static void random_trace(uint64_t *seed, uint64_t *addr, uint8_t *rw, size_t n, unsigned npages)
{
    uint64_t pages[16];
    for (unsigned j = 0; j < npages; j++)
        pages[j] = 0x80000000u + (rng(seed) % 2048) * 4096;
    for (size_t i = 0; i < n; i++) {
        addr[i] = pages[rng(seed) % npages] + (rng(seed) & 0xff8);
        rw[i] = rng(seed) % 3 == 0;
    }
}

static void test_random_traces_exact(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    int configs = 0, traces = 0;
    uint64_t addr[40];
    uint8_t rw[40];
    for (int t = 0; t < 60; t++) {
        size_t n = 1 + rng(&seed) % 40;
        unsigned np = 1 + (unsigned)(rng(&seed) % 9);
        random_trace(&seed, addr, rw, n, np);
        for (uint64_t kb = 1; kb <= 4; kb++) {
            check_exact(addr, rw, n, kb * 4096, &configs);
            traces++;
        }
    }
    print_message("%d traces x budgets, %d (size, budget, policy) configurations equal\n", traces, configs);
    assert_true(configs > 2000);
}

/* Loops and alternations around the filter's size, where a naive filter goes wrong. */
static void test_adversarial_traces_exact(void **state)
{
    (void)state;
    int configs = 0;
    uint64_t addr[64];
    uint8_t rw[64] = {0};
    for (unsigned len = 1; len <= 6; len++)
        for (uint64_t kb = 1; kb <= 4; kb++) {
            size_t n = 0;
            for (int rep = 0; rep < 5; rep++) /* a loop of len pages, twice-referenced tail */
                for (unsigned j = 0; j < len && n < 60; j++)
                    addr[n++] = 0x80000000u + (uint64_t)j * 0x1000 * (1 + (len & 1) * 511);
            check_exact(addr, rw, n, kb * 4096, &configs);
        }
    static const char abacb[] = "ABACBADCABDDCBA";
    size_t n = 0;
    for (const char *p = abacb; *p; p++)
        addr[n++] = 0x80000000u + (uint64_t)(*p - 'A') * 0x201000;
    for (uint64_t kb = 1; kb <= 4; kb++)
        check_exact(addr, rw, n, kb * 4096, &configs);
    assert_true(configs > 100);
}

/* The check itself catches a wrong reduction: drop every reference that hits the k most recent
 * pages (k = 2, the A B A C B: 3 LRU faults instead of 4 with 2 resident pages). */
static void test_naive_filter_is_caught(void **state)
{
    (void)state;
    static const char t[] = "ABACB";
    uint64_t addr[5];
    uint8_t rw[5] = {0};
    recs red = {0};
    uint64_t stack[2] = {UINT64_MAX, UINT64_MAX};
    for (size_t i = 0; i < 5; i++) {
        addr[i] = 0x80000000u + (uint64_t)(t[i] - 'A') * 0x200000; /* distinct at every size */
        uint64_t p = addr[i] >> 12;
        int hit = stack[0] == p || stack[1] == p;
        if (stack[0] != p) {
            stack[1] = stack[0];
            stack[0] = p;
        }
        if (!hit)
            push(&red, ht_full_sample(i, p << 12 | 0x3ff, 0));
    }
    int configs = 0;
    assert_true(compare(addr, rw, 5, 2 * 4096, &red, &configs) > 0);
    free(red.r);
}

/* Fetch/data interleavings: long x y x y ... alternations (skipped after two steps) broken by
 * other pages, at budgets where coarse sizes have one entry (no skipping unless x and y share
 * the metapage there) and where every size has two or more. */
static void test_alternations_exact(void **state)
{
    (void)state;
    uint64_t seed = 777;
    int configs = 0;
    total_alt_skipped = 0;
    uint64_t addr[48];
    uint8_t rw[48];
    for (int t = 0; t < 50; t++) {
        size_t n = 8 + rng(&seed) % 40;
        uint64_t code = 0x80000000u + (rng(&seed) % 4) * 0x1000 * (t % 2 ? 1 : 600);
        uint64_t data = 0x80000000u + (rng(&seed) % 2048) * 4096;
        for (size_t i = 0; i < n; i++) {
            if (rng(&seed) % 8 == 0) /* the data moves to another page */
                data = 0x80000000u + (rng(&seed) % 2048) * 4096;
            addr[i] = i % 2 ? data + (rng(&seed) & 0xff8) : code;
            if (rng(&seed) % 13 == 0) /* an interruption by a third page */
                addr[i] = 0x80000000u + (rng(&seed) % 2048) * 4096;
            rw[i] = rng(&seed) % 4 == 0;
        }
        static const uint64_t budgets[] = {4096, 8192, 16384, 4u << 20, 8u << 20};
        for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++)
            check_exact(addr, rw, n, budgets[b], &configs);
    }
    print_message("%d configurations equal, %lu alternation steps skipped\n", configs,
                  (unsigned long)total_alt_skipped);
    assert_true(configs > 1000);
    assert_true(total_alt_skipped > 50); /* the shortcut was taken */
}

/* The records of a stream, as the sink gets them (cycle, page, R/W, size mask). */
typedef struct {
    uint64_t v[4096][4];
    size_t n;
} raw_recs;

static void raw_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    raw_recs *v = ctx;
    assert_true(v->n < 4096);
    v->v[v->n][0] = cycle, v->v[v->n][1] = page, v->v[v->n][2] = rw, v->v[v->n][3] = mask;
    v->n++;
}

/* What the CPU's page filter (emu/cpu/cpu.h mt_page_filter) hands the reduce recorder: only the
 * accesses that change the page, and while mt_reduce_settled reports an alternation of the last
 * page with another, none of its steps but the last two, handed over (in order, with their own
 * cycles) before the next access that is handed over, or at the end. */
typedef struct {
    mt_reduce *r;
    uint64_t last, other; /* 4 KiB pages; other = UINT64_MAX: no alternation armed */
    uint64_t held[2][3];  /* cycle, addr, rw: the last two steps held back */
    unsigned nheld;
    uint64_t steps;
} page_filter_model;

static void model_deliver(page_filter_model *f, uint64_t cycle, uint64_t addr, unsigned rw)
{
    for (unsigned i = 2 - f->nheld; i < 2; i++)
        mt_reduce_access(f->r, f->held[i][0], f->held[i][1], (unsigned)f->held[i][2]);
    f->nheld = 0;
    f->last = addr >> 12;
    mt_reduce_access(f->r, cycle, addr, rw);
    uint64_t last, other;
    f->other = mt_reduce_settled(f->r, &last, &other) && last == f->last ? other : UINT64_MAX;
}

static void model_access(page_filter_model *f, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page = addr >> 12;
    if (page == f->last)
        return;
    if (page == f->other) {
        memmove(f->held[0], f->held[1], sizeof f->held[0]);
        f->held[1][0] = cycle, f->held[1][1] = addr, f->held[1][2] = rw;
        f->nheld = f->nheld ? 2 : 1;
        f->other = f->last;
        f->last = page;
        f->steps++;
        return;
    }
    model_deliver(f, cycle, addr, rw);
}

/* The page filter's contract: mt_reduce on what the filter hands over writes the same records,
 * byte for byte, as on every access (long fetch/data alternations, broken by repeats and third
 * pages, at budgets where the alternation may and may not be skipped, with the default reorder
 * stage and with one of 2 records, which forces keeps). */
static void test_page_filter_stream_identical(void **state)
{
    (void)state;
    static raw_recs a, b;
    static uint64_t addr[600];
    static uint8_t rw[600];
    uint64_t seed = 31337, steps = 0;
    int compared = 0;
    for (int t = 0; t < 80; t++) {
        size_t n = 50 + rng(&seed) % 550;
        uint64_t code = 0x80000000u + (rng(&seed) % 8) * 0x1000 * (t % 2 ? 1 : 300);
        uint64_t data = 0x80000000u + (rng(&seed) % 2048) * 4096;
        for (size_t i = 0; i < n; i++) {
            if (rng(&seed) % 40 == 0)
                data = 0x80000000u + (rng(&seed) % 2048) * 4096;
            if (rng(&seed) % 60 == 0)
                code = 0x80000000u + (rng(&seed) % 8) * 0x1000;
            addr[i] = i % 2 || rng(&seed) % 5 == 0 ? data + (rng(&seed) & 0xff8) : code + (i & 0xffc);
            if (rng(&seed) % 50 == 0) /* a third page */
                addr[i] = 0x80000000u + (rng(&seed) % 2048) * 4096;
            rw[i] = rng(&seed) % 4 == 0;
        }
        static const uint64_t budgets[] = {4096, 8192, 65536, 4u << 20};
        for (size_t k = 0; k < sizeof budgets / sizeof budgets[0]; k++)
            for (int small = 0; small < 2; small++) {
                mt_reduce r1, r2;
                a.n = b.n = 0;
                assert_int_equal(mt_reduce_init(&r1, budgets[k], raw_sink, &a), 0);
                assert_int_equal(mt_reduce_init(&r2, budgets[k], raw_sink, &b), 0);
                if (small)
                    r1.heap_limit = r2.heap_limit = 2;
                page_filter_model f = {.r = &r2, .last = UINT64_MAX, .other = UINT64_MAX};
                for (size_t i = 0; i < n; i++) {
                    mt_reduce_access(&r1, 10 + 3 * i, addr[i], rw[i]);
                    model_access(&f, 10 + 3 * i, addr[i], rw[i]);
                }
                for (unsigned i = 2 - f.nheld; i < 2; i++) /* cpu_page_filter_flush */
                    mt_reduce_access(&r2, f.held[i][0], f.held[i][1], (unsigned)f.held[i][2]);
                mt_reduce_finish(&r1);
                mt_reduce_finish(&r2);
                assert_int_equal(a.n, b.n);
                assert_memory_equal(a.v, b.v, a.n * sizeof a.v[0]);
                assert_true(r2.accesses < r1.accesses || n < 60);
                steps += f.steps;
                compared++;
                mt_reduce_free(&r1);
                mt_reduce_free(&r2);
            }
    }
    print_message("%d streams identical, %lu alternation steps held back by the filter\n", compared,
                  (unsigned long)steps);
    assert_true(steps > 1000); /* the filter's alternation path was taken */
}

/* mt_reduce_access_run, the page log's batch entry point, against one mt_reduce_access per
 * access: the same records byte for byte and the same counts, whatever the runs' lengths; it
 * stops exactly after the accesses at which mt_reduce_settled holds (asked after each access, as
 * the recorder does), and skips the addresses outside [lo, hi) (counted by neither). */
static void test_access_run_equals_single(void **state)
{
    (void)state;
    static raw_recs a, b;
    static uint64_t addr[600], cyc[600], word[600];
    static uint8_t rw[600];
    uint64_t seed = 4242, stops = 0, outside = 0;
    const uint64_t lo = 0x80000000u, hi = 0x88000000u;
    for (int t = 0; t < 60; t++) {
        size_t n = 50 + rng(&seed) % 550;
        uint64_t code = lo + (rng(&seed) % 8) * 0x1000, data = lo + (rng(&seed) % 2048) * 4096;
        for (size_t i = 0; i < n; i++) {
            if (rng(&seed) % 30 == 0)
                data = lo + (rng(&seed) % 2048) * 4096;
            addr[i] = i % 2 ? data + (rng(&seed) & 0xff8) : code + (i & 0xffc);
            if (rng(&seed) % 40 == 0) /* outside guest RAM (a device, the boot ROM) */
                addr[i] = 0x1000 + (rng(&seed) % 4) * 4096;
            rw[i] = rng(&seed) % 4 == 0;
            cyc[i] = 10 + 3 * i;
            word[i] = addr[i] << 8 | (uint64_t)(rng(&seed) & 0xfe) | rw[i];
        }
        static const uint64_t budgets[] = {4096, 65536, 16u << 20};
        for (size_t k = 0; k < sizeof budgets / sizeof budgets[0]; k++) {
            mt_reduce r1, r2;
            a.n = b.n = 0;
            assert_int_equal(mt_reduce_init(&r1, budgets[k], raw_sink, &a), 0);
            assert_int_equal(mt_reduce_init(&r2, budgets[k], raw_sink, &b), 0);
            uint8_t settled_at[600] = {0};
            for (size_t i = 0; i < n; i++) {
                if (addr[i] >= lo && addr[i] < hi)
                    mt_reduce_access(&r1, cyc[i], addr[i], rw[i]);
                else
                    outside++;
                uint64_t x, y;
                settled_at[i] = (uint8_t)mt_reduce_settled(&r1, &x, &y);
            }
            for (size_t i = 0; i < n;) {
                size_t len = 1 + rng(&seed) % 40;
                if (len > n - i)
                    len = n - i;
                const bool ask = rng(&seed) % 4 != 0;
                uint64_t pair[2] = {UINT64_MAX, UINT64_MAX};
                size_t m = mt_reduce_access_run(&r2, &cyc[i], &word[i], len, 8, lo, hi, ask ? pair : NULL);
                assert_true(m >= 1 && m <= len);
                if (ask) { /* stops after the first settled access, else takes all */
                    for (size_t j = i; j < i + m - 1; j++)
                        assert_false(settled_at[j]);
                    assert_true(m == len || settled_at[i + m - 1]);
                    if (settled_at[i + m - 1]) {
                        uint64_t x, y;
                        assert_true(mt_reduce_settled(&r2, &x, &y));
                        assert_true(pair[0] == x && pair[1] == y);
                        stops++;
                    }
                } else {
                    assert_int_equal(m, len);
                }
                i += m;
            }
            mt_reduce_finish(&r1);
            mt_reduce_finish(&r2);
            assert_int_equal(r1.accesses, r2.accesses);
            assert_int_equal(r1.alt_skipped, r2.alt_skipped);
            assert_int_equal(a.n, b.n);
            assert_memory_equal(a.v, b.v, a.n * sizeof a.v[0]);
            mt_reduce_free(&r1);
            mt_reduce_free(&r2);
        }
    }
    print_message("access runs equal to single accesses, %lu stops for the pair, %lu outside skipped\n",
                  (unsigned long)stops, (unsigned long)outside);
    assert_true(stops > 100);
    assert_true(outside > 100);
}

/* A reorder stage of 2 records: undecided references are kept early all the time (forced), and
 * the counts stay exact (keeping more than the rule requires is exact: the Theorem). */
static void test_forced_keeps_exact(void **state)
{
    (void)state;
    uint64_t seed = 4242;
    int configs = 0;
    uint64_t addr[40];
    uint8_t rw[40];
    test_heap_limit = 2;
    total_forced = 0;
    for (int t = 0; t < 30; t++) {
        size_t n = 1 + rng(&seed) % 40;
        random_trace(&seed, addr, rw, n, 1 + (unsigned)(rng(&seed) % 9));
        for (uint64_t kb = 1; kb <= 4; kb++)
            check_exact(addr, rw, n, kb * 4096, &configs);
    }
    test_heap_limit = 0;
    print_message("%d configurations equal with %lu forced keeps\n", configs, (unsigned long)total_forced);
    assert_true(total_forced > 20);
}

static const char *info_text;
static const char *fake_info(ht_source *s)
{
    (void)s;
    return info_text;
}

/* The mode comes from the header; a mode the host does not know is refused by name. */
static void test_mode_from_header(void **state)
{
    (void)state;
    ht_record one = ht_full_sample(0, 0x80000000u, 0);
    ht_source *src = ht_array_source(&one, 1, "t.mtr");
    src->header_info = fake_info;
    trace_mode_info tm;
    char err[256];
    info_text = "producer=x\ntrace.mode=reduce\ntrace.reduce_budget=65536\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), 0);
    assert_int_equal(tm.mode, TM_REDUCE);
    assert_int_equal(tm.reduce_budget, 65536);
    info_text = "producer=x\nmode=every-access\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), 0);
    assert_int_equal(tm.mode, TM_ALL);
    info_text = "producer=x\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), 0);
    assert_int_equal(tm.mode, TM_BURST);
    info_text = "trace.mode=hologram\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.mtr"));
    assert_non_null(strstr(err, "'hologram'"));
    info_text = "trace.mode=reduce\ntrace.reduce_budget=12\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    info_text = "trace.mode=reduce\n";
    assert_int_equal(trace_mode_get(src, &tm, err, sizeof err), -1);
    ht_close(src);
}

/* Larger traces: hash-table deletions and long recency lists (k up to 64). */
static void test_larger_traces_exact(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    int configs = 0;
    size_t n = 3000;
    uint64_t *addr = malloc(n * sizeof *addr);
    uint8_t *rw = malloc(n);
    for (int t = 0; t < 3; t++) {
        uint64_t span = 64 + rng(&seed) % 256; /* pages touched */
        for (size_t i = 0; i < n; i++) {
            uint64_t pg = (i % 7 == 0) ? rng(&seed) % span : (i / 3) % (span / 2 + 1); /* loops + noise */
            addr[i] = 0x80000000u + pg * 4096 * (1 + t * 37);
            rw[i] = rng(&seed) % 4 == 0;
        }
        check_exact(addr, rw, n, (UINT64_C(16) << t) * 4096, &configs);
    }
    free(addr);
    free(rw);
    assert_true(configs > 100);
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

/* tests/golden/reduce_example.rvec: the records (hand-derived in the vector) and the packet
 * stream they make (reduce_example.rexp, hex; docs/trace-format.md 4.1). */
static void test_golden_vector(void **state)
{
    (void)state;
    const char *dir = getenv("GOLDEN_DIR") ? getenv("GOLDEN_DIR") : "tests/golden";
    char path[512];
    snprintf(path, sizeof path, "%s/reduce_example.rvec", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    uint64_t budget = 0;
    recs red = {0}, want = {0};
    mt_reduce r;
    int inited = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long c, a;
        unsigned w;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "budget %llu", &c) == 1) {
            budget = c;
            assert_int_equal(mt_reduce_init(&r, budget, sink, &red), 0);
            inited = 1;
        } else if (sscanf(line, "a %llu %llx %u", &c, &a, &w) == 3) {
            assert_true(inited);
            mt_reduce_access(&r, c, a, w);
        } else if (sscanf(line, "r %llu %llx %u", &c, &a, &w) == 3) {
            push(&want, ht_full_sample(c, a, (int)w));
        } else {
            fail_msg("%s: bad line %s", path, line);
        }
    }
    fclose(f);
    mt_reduce_finish(&r);
    assert_int_equal(red.n, want.n);
    for (size_t i = 0; i < red.n; i++) {
        assert_int_equal(red.r[i].cycle, want.r[i].cycle);
        assert_int_equal(red.r[i].addr, want.r[i].addr);
        assert_int_equal(red.r[i].write, want.r[i].write);
    }
    /* the packet stream: one full-format burst section at r = 1, the records as samples */
    bytes out = {.n = 0};
    mt_swenc sw;
    mt_swenc_init(&sw, 4096, byte_sink, &out);
    assert_int_equal(mt_swenc_section(&sw, 0, 2, 1, red.r[0].cycle), 0);
    for (size_t i = 0; i < red.n; i++)
        assert_int_equal(mt_swenc_sample(&sw, red.r[i].cycle, red.r[i].addr, red.r[i].write), 0);
    assert_int_equal(mt_swenc_end(&sw), 0);
    snprintf(path, sizeof path, "%s/reduce_example.rexp", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    uint8_t exp[4096];
    size_t n = 0;
    unsigned v;
    while (n < sizeof exp && fscanf(f, " %2x", &v) == 1)
        exp[n++] = (uint8_t)v;
    fclose(f);
    if (getenv("REDUCE_GOLDEN_PRINT")) {
        for (size_t i = 0; i < out.n; i++)
            fprintf(stderr, "%02x%s", out.b[i], i + 1 < out.n ? " " : "\n");
    }
    assert_int_equal(out.n, n);
    assert_memory_equal(out.b, exp, n);
    mt_reduce_free(&r);
    free(red.r);
    free(want.r);
}

static void test_budget_range(void **state)
{
    (void)state;
    mt_reduce r;
    assert_int_equal(mt_reduce_init(&r, 0, NULL, NULL), -1);
    assert_int_equal(mt_reduce_init(&r, 4095, NULL, NULL), -1);
    assert_int_equal(mt_reduce_init(&r, 6000, NULL, NULL), -1);
    assert_int_equal(mt_reduce_init(&r, MT_REDUCE_BUDGET_MAX * 2, NULL, NULL), -1);
    assert_int_equal(mt_reduce_init(&r, 1 << 20, NULL, NULL), 0);
    assert_int_equal(r.f[0].k, 256);
    assert_int_equal(r.f[8].k, 1);
    assert_int_equal(r.f[9].k, 1);
    mt_reduce_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_traces_exact),
        cmocka_unit_test(test_adversarial_traces_exact),
        cmocka_unit_test(test_naive_filter_is_caught),
        cmocka_unit_test(test_budget_range),
        cmocka_unit_test(test_golden_vector),
        cmocka_unit_test(test_mode_from_header),
        cmocka_unit_test(test_alternations_exact),
        cmocka_unit_test(test_forced_keeps_exact),
        cmocka_unit_test(test_page_filter_stream_identical),
        cmocka_unit_test(test_access_run_equals_single),
        cmocka_unit_test(test_larger_traces_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
