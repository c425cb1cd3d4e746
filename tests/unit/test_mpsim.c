/* Unit tests of the online meta-paging simulator (emu/metapaging/mpsim.c): its counts equal a real
 * meta-pager run, LRU equals a brute-force stack-distance reference, and collapsing consecutive
 * repeats of the access stream (the RAM side's observer rule) changes no count; every LRU
 * budget by one stack pass equals one simulation per configuration. */
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

/* A stream like a program's: a few hot pages (code, stack), a sequential front, random accesses
 * over a working set that moves, `wfrac` in 256 of them writes; the emulator's own writes now
 * and then.  `spread` scales the working set (in 4 KiB pages). */
static void feed_program_like(struct mpsim *const *sims, size_t nsims, uint64_t ram_pages,
                              uint64_t seed, size_t n, uint64_t spread, unsigned wfrac)
{
    uint64_t front = 0, base = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = rng_next(&seed);
        uint64_t page;
        switch (x & 7) {
        case 0: case 1: case 2: page = (x >> 8) % 3; break;                /* code, stack */
        case 3: case 4: page = 16 + (front++ / 7) % spread; break;         /* sequential */
        case 5: page = 16 + (base + (x >> 12) % (spread / 4 + 1)) % spread; break; /* hot window */
        default: page = (x >> 16) % ram_pages; break;                      /* anywhere */
        }
        if ((x >> 40) % 5000 == 0)
            base += spread / 8 + 1; /* the working set moves */
        bool w = ((x >> 32) & 255) < wfrac;
        if ((x >> 48) % 20000 == 0) {
            uint64_t off = ((x >> 20) % ram_pages) << 12;
            for (size_t k = 0; k < nsims; k++)
                mpsim_host_write(sims[k], off, 3 * 4096 + 100);
        }
        for (size_t k = 0; k < nsims; k++)
            mpsim_access(sims[k], page % ram_pages, w);
    }
}

static void assert_same_results(const struct mpsim *a, const struct mpsim *b)
{
    assert_int_equal(mpsim_count(a), mpsim_count(b));
    for (size_t i = 0; i < mpsim_count(a); i++) {
        struct mpsim_result x = *mpsim_result(a, i), y = *mpsim_result(b, i);
        if (memcmp(&x.cfg, &y.cfg, sizeof x.cfg) || x.resident_metapages != y.resident_metapages ||
            x.accesses != y.accesses || x.faults != y.faults || x.zero_fills != y.zero_fills ||
            x.backing_reads != y.backing_reads || x.evictions != y.evictions ||
            x.writebacks != y.writebacks || x.bytes_in != y.bytes_in || x.bytes_out != y.bytes_out)
            fail_msg("configuration %zu (%llu:%llu): stack faults %llu zero %llu read %llu evict "
                     "%llu wb %llu, each faults %llu zero %llu read %llu evict %llu wb %llu",
                     i, (unsigned long long)x.cfg.metapage_bytes,
                     (unsigned long long)x.cfg.budget_bytes, (unsigned long long)x.faults,
                     (unsigned long long)x.zero_fills, (unsigned long long)x.backing_reads,
                     (unsigned long long)x.evictions, (unsigned long long)x.writebacks,
                     (unsigned long long)y.faults, (unsigned long long)y.zero_fills,
                     (unsigned long long)y.backing_reads, (unsigned long long)y.evictions,
                     (unsigned long long)y.writebacks);
    }
}

/* The stack pass and one simulation per configuration over the same configurations (sims[0],
 * sims[1]): what the LRU tests below compare. */
static void open_stack_pair(uint64_t ram, const struct mpsim_config *cfgs, size_t n, struct mpsim *sims[2])
{
    char err[256];
    sims[0] = mpsim_create_method(ram, cfgs, n, 9, MPSIM_LRU_STACK, err, sizeof err);
    sims[1] = mpsim_create_method(ram, cfgs, n, 9, MPSIM_LRU_EACH, err, sizeof err);
    assert_non_null(sims[0]);
    assert_non_null(sims[1]);
}

static void close_pair(struct mpsim *sims[2])
{
    mpsim_destroy(sims[0]);
    mpsim_destroy(sims[1]);
}

/* Every LRU budget of every size by one stack pass (mpstack) == one simulation per
 * configuration, every count, on many streams and configuration sets: budgets holding more
 * metapages than the filter and fewer, one resident metapage (counted apart from the stack),
 * budgets beyond RAM, the emulator's own writes, results read mid-stream (non-destructive) and
 * at the end. */
static void test_lru_stack_equals_each(void **state)
{
    (void)state;
    const char *specs[] = {
        "4K..2M:1M..64M",                        /* the fidelity grid */
        "4K..2M:64K..512K",                      /* many small counts */
        "4K/16K:64K/68K/1M,8K:16K/24K/96K,2M:2M/4M/6M",
        "4K:4K/8K/12K/60K/64K/68K/120K/124K/128K/132K/200K/1M/8M", /* around the filter size */
        "64K/128K:8M/16M/128M",                  /* budgets at and beyond RAM */
        "4K..2M:1M..64M:lru/fifo/clock",         /* with other policies in the same groups */
        "4K..2M:4K..2M",                         /* one resident metapage at every size */
        "2M:2M,64K:64K/128K,8K:8K/16K/200K",     /* only C = 1 at a size; C = 1 and 2 */
    };
    const uint64_t ram = 32 * MiB, ram_pages = ram >> 12;
    const uint64_t spreads[] = {40, 700, 6000};
    const unsigned wfracs[] = {0, 40, 200};
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; si++) {
        struct mpsim_config *cfgs;
        size_t n;
        char err[256];
        assert_int_equal(mpsim_parse(specs[si], &cfgs, &n, err, sizeof err), 0);
        for (size_t k = 0; k < 3; k++) {
            struct mpsim *sims[2];
            open_stack_pair(ram, cfgs, n, sims);
            mpsim_host_write(sims[0], 0, 64 * 1024);
            mpsim_host_write(sims[1], 0, 64 * 1024);
            feed_program_like(sims, 2, ram_pages, 100 + si * 7 + k, 30000, spreads[k], wfracs[k]);
            assert_same_results(sims[0], sims[1]);
            feed_program_like(sims, 2, ram_pages, 900 + si * 7 + k, 30000, spreads[2 - k],
                              wfracs[(k + 1) % 3]);
            assert_same_results(sims[0], sims[1]);
            close_pair(sims);
        }
        free(cfgs);
    }
}

/* The stack pass's shortcuts, adversarially: runs of reads alternating between two units (which
 * it only counts and applies at once) of every length, odd and even, broken by a write to
 * either, a write after a read of the front, a third unit (the rotation of three entries) or a
 * new one; the emulator's writes and the results read in the middle of a run.  Pages are chosen
 * so that the two alternating units share the metapage at some sizes and not at others. */
static void test_lru_stack_alternations(void **state)
{
    (void)state;
    const char *specs[] = {
        "4K..2M:4K..2M",                  /* one resident metapage at every size */
        "4K..2M:1M..64M",                 /* the fidelity grid */
        "4K/8K:8K/12K/16K/128K,64K:128K/192K,2M:2M/4M", /* C = 1, 2, 3 */
    };
    const uint64_t ram = 32 * MiB, ram_pages = ram >> 12;
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; si++) {
        struct mpsim_config *cfgs;
        size_t n;
        char err[256];
        assert_int_equal(mpsim_parse(specs[si], &cfgs, &n, err, sizeof err), 0);
        struct mpsim *sims[2];
        open_stack_pair(ram, cfgs, n, sims);
        uint64_t seed = 77 + si, hot[6];
        for (size_t k = 0; k < 6; k++) /* near one another (sharing large metapages) or far */
            hot[k] = k < 3 ? 1000 + k * (1u << (2 * k)) : (rng_next(&seed) % ram_pages);
        for (int run = 0; run < 4000; run++) {
            uint64_t x = rng_next(&seed);
            uint64_t a = hot[x % 6], b = hot[(x >> 3) % 6];
            if (a == b)
                b = (x >> 20) % ram_pages;
            size_t len = (size_t)((x >> 8) % 9); /* 0 .. 8 steps, odd and even */
            for (size_t step = 0; step <= len; step++)
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], step & 1 ? b : a, false);
            switch ((x >> 12) % 8) {
            case 0: /* a write to the front (after its read) */
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], len & 1 ? b : a, true);
                break;
            case 1: /* a write to the second: a swap that writes */
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], len & 1 ? a : b, true);
                break;
            case 2: /* a third unit */
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], hot[(x >> 16) % 6], (x >> 40) & 1);
                break;
            case 3: /* anywhere */
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], (x >> 24) % ram_pages, (x >> 41) & 1);
                break;
            case 4: /* the emulator writes one of the pair's metapages */
                for (size_t k = 0; k < 2; k++)
                    mpsim_host_write(sims[k], (((x >> 42) & 1) ? a : b) << 12, 100);
                break;
            case 5: /* the results, mid-run */
                assert_same_results(sims[0], sims[1]);
                break;
            default:
                break;
            }
        }
        assert_same_results(sims[0], sims[1]);
        close_pair(sims);
        free(cfgs);
    }
}

/* The scan's walk at the filter's edges (it ends at a sentinel after the last entry): cycles
 * over as many units as the filter holds less one, exactly, one more and twice as many, so the
 * unit is found in its last place, fills it, or falls out with the filter full; strides that
 * keep units within a metapage of the large sizes, or change the metapage at every size; reads
 * and writes; budgets that count uses inside the filter (small) and below it. */
static void test_lru_stack_filter_edges(void **state)
{
    (void)state;
    const char *specs[] = {"4K..2M:1M..64M", "4K..2M:8K..256K"};
    const uint64_t ram = 32 * MiB, ram_pages = ram >> 12;
    const uint64_t cycles[] = {30, 31, 32, 33, 62}, strides[] = {1, 37, 513};
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; si++) {
        struct mpsim_config *cfgs;
        size_t n;
        char err[256];
        assert_int_equal(mpsim_parse(specs[si], &cfgs, &n, err, sizeof err), 0);
        struct mpsim *sims[2];
        open_stack_pair(ram, cfgs, n, sims);
        uint64_t seed = 5 + si;
        for (size_t c = 0; c < sizeof cycles / sizeof cycles[0]; c++)
            for (size_t d = 0; d < sizeof strides / sizeof strides[0]; d++) {
                uint64_t base = rng_next(&seed) % (ram_pages / 2);
                for (int round = 0; round < 12; round++)
                    for (uint64_t i = 0; i < cycles[c]; i++) {
                        uint64_t page = (base + i * strides[d]) % ram_pages;
                        bool w = (rng_next(&seed) % 5) == 0;
                        for (size_t k = 0; k < 2; k++)
                            mpsim_access(sims[k], page, w);
                    }
                assert_same_results(sims[0], sims[1]);
            }
        close_pair(sims);
        free(cfgs);
    }
}

/* The time line below the filter (mpstack.c: a metapage leaving takes the next time; a tree
 * counts the times of those used again, the dead ones; a full line is renumbered and grown):
 * working sets of 40, 300 and 3000 units visited in random order (units leave the filter and
 * come back from every depth, many times die between renumberings), a sweep up and down over
 * 2000 units (every size's metapage changes, depths grow to the whole stack), reads and writes,
 * the emulator's writes, results read across renumberings; budgets that count the uses below
 * the filter at every size (small) and the fidelity grid. */
static void test_lru_stack_time_line(void **state)
{
    (void)state;
    const char *specs[] = {"4K..2M:1M..64M", "4K..64K:8K..512K"};
    const uint64_t ram = 32 * MiB, ram_pages = ram >> 12;
    const uint64_t sets[] = {40, 300, 3000};
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; si++) {
        struct mpsim_config *cfgs;
        size_t n;
        char err[256];
        assert_int_equal(mpsim_parse(specs[si], &cfgs, &n, err, sizeof err), 0);
        struct mpsim *sims[2];
        open_stack_pair(ram, cfgs, n, sims);
        uint64_t seed = 31 + si;
        for (size_t w = 0; w < sizeof sets / sizeof sets[0]; w++) {
            uint64_t base = rng_next(&seed) % (ram_pages - 2 * sets[w]);
            for (int i = 0; i < 12000; i++) {
                uint64_t x = rng_next(&seed);
                uint64_t page = base + 2 * (x % sets[w]); /* every other page: 8K shares too */
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], page, (x >> 32) % 5 == 0);
                if ((x >> 40) % 1000 == 0)
                    for (size_t k = 0; k < 2; k++)
                        mpsim_host_write(sims[k], page << 12, 4096);
                if (i % 3000 == 2999)
                    assert_same_results(sims[0], sims[1]);
            }
        }
        for (int round = 0; round < 3; round++)
            for (uint64_t i = 0; i < 4000; i++) {
                uint64_t page = 100 + (i < 2000 ? i : 3999 - i);
                bool write = (rng_next(&seed) % 7) == 0;
                for (size_t k = 0; k < 2; k++)
                    mpsim_access(sims[k], page, write);
            }
        assert_same_results(sims[0], sims[1]);
        close_pair(sims);
        free(cfgs);
    }
}

/* LO..HI ranges: powers of two, pairs without a whole metapage left out. */
static void test_parse_ranges(void **state)
{
    (void)state;
    struct mpsim_config *c;
    size_t n;
    char err[256];
    assert_int_equal(mpsim_parse("4K..2M:1M..64M:lru/clock", &c, &n, err, sizeof err), 0);
    assert_int_equal(n, (10 * 7 - 1) * 2); /* 2M:1M left out */
    assert_int_equal(c[0].metapage_bytes, 4 * KiB);
    assert_int_equal(c[0].budget_bytes, 1 * MiB);
    assert_int_equal(c[2].budget_bytes, 2 * MiB);
    assert_int_equal(c[n - 1].metapage_bytes, 2 * MiB);
    assert_int_equal(c[n - 1].budget_bytes, 64 * MiB);
    for (size_t i = 0; i < n; i++)
        assert_true(c[i].budget_bytes >= c[i].metapage_bytes);
    free(c);
    const char *bad[] = {"4K..:8M", "..2M:8M", "2M..4K:8M", "4K..2X:8M", "0..4K:8M",
                         "4K:1..1T"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c = NULL;
        if (mpsim_parse(bad[i], &c, &n, err, sizeof err) == 0) {
            free(c);
            fail_msg("'%s' accepted", bad[i]);
        }
        assert_true(strlen(err) > 10);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_equals_real_pager),
        cmocka_unit_test(test_lru_vs_stack_distance),
        cmocka_unit_test(test_collapsing_is_lossless),
        cmocka_unit_test(test_lru_stack_equals_each),
        cmocka_unit_test(test_lru_stack_alternations),
        cmocka_unit_test(test_lru_stack_filter_edges),
        cmocka_unit_test(test_lru_stack_time_line),
        cmocka_unit_test(test_parse_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
