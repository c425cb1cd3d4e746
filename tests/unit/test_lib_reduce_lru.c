/* lib/mt_reduce.c against the plain meaning of its claim, on long streams shaped like the Linux
 * workload's: for every metapage size, LRU with C = k .. 2k metapages (k the size's filter, the
 * tightest budgets the claim covers) faults as often on the records with the size's bit as on
 * the full stream of accesses, and (lib/mt_reduce_check, the emulator's --trace-reduce-check)
 * every record is a fault or a hit in the kept stream exactly as its reference was in the full
 * one.  The LRU here is a move-to-front list of metapages (the stack distance is the position),
 * written apart from the filter and from the check.
 *
 * The shapes (docs/metapaging.md "Exact reduction", the 100 s run's two rows): a few hot 2 MiB
 * regions with a handful of pages each, phases cycling among 2..20 of those pages, about k_2M
 * regions in a phase (the 2 MiB and 1 MiB filters, k = 8 and 16 at B = 16M, evict all the time,
 * which makes their oldest-pending hints stale), alternations that settle and break, cold pages
 * seen once, and a clock that runs one cycle per access for long bursts and jumps by up to 2^40
 * cycles between them; reorder stages of the default size and of a few records (forced keeps). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mt_reduce.h"
#include "mt_reduce_check.h"

#include "mask_records.h"

static uint64_t rng(uint64_t *s)
{
    *s += UINT64_C(0x9e3779b97f4a7c15);
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ---- LRU by stack distance ---------------------------------------------------------------- */

#define MAXD 4096 /* distances at or beyond this are all faults for every C checked (2k <= MAXD) */

typedef struct {
    uint64_t *mtf;   /* metapages, most recent first */
    size_t n, cap;
    uint64_t last;   /* last metapage + 1: a repeat is no reference */
    uint64_t cold, hist[MAXD];
} lru_sd;

static void sd_ref(lru_sd *s, uint64_t mp)
{
    if (s->last == mp + 1)
        return;
    s->last = mp + 1;
    size_t j = 0;
    while (j < s->n && s->mtf[j] != mp)
        j++;
    if (j == s->n) {
        s->cold++;
        if (s->n == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 256;
            s->mtf = realloc(s->mtf, s->cap * sizeof *s->mtf);
            assert_non_null(s->mtf);
        }
        s->n++;
    } else {
        s->hist[j < MAXD ? j : MAXD - 1]++;
    }
    memmove(s->mtf + 1, s->mtf, j * sizeof *s->mtf);
    s->mtf[0] = mp;
}

/* Faults with C frames: first references and every reference with C or more distinct others
 * since its metapage's last one. */
static uint64_t sd_faults(const lru_sd *s, unsigned c)
{
    uint64_t f = s->cold;
    for (unsigned d = c; d < MAXD; d++)
        f += s->hist[d];
    return f;
}

/* ---- streams ---------------------------------------------------------------------------- */

typedef struct {
    unsigned regions;   /* hot 2 MiB regions */
    unsigned per_region;/* pages of each (spread over the region) */
    unsigned set_lo, set_hi; /* pages in a phase's cycle */
    unsigned phase_lo, phase_hi; /* accesses in a phase */
    unsigned cold_ppm;  /* a page seen once, per million accesses */
    unsigned alt_pct;   /* phases that are an alternation of two pages (with intruders) */
    unsigned gap_ppm;   /* a jump of the clock by up to 2^40 cycles, per million accesses */
} shape;

typedef struct {
    uint64_t *cycle, *addr;
    size_t n;
} stream;

static void make_stream(const shape *sh, uint64_t seed, size_t n, stream *out)
{
    uint64_t s = seed;
    out->cycle = malloc(n * sizeof *out->cycle);
    out->addr = malloc(n * sizeof *out->addr);
    assert_true(out->cycle && out->addr);
    out->n = n;
    uint64_t *hot = malloc((size_t)sh->regions * sh->per_region * sizeof *hot);
    assert_non_null(hot);
    size_t nhot = 0;
    for (unsigned r = 0; r < sh->regions; r++) {
        /* regions spread like kernel text, stacks and user data: far apart, some neighbours */
        uint64_t base = (rng(&s) % 64 < 16 ? r : (rng(&s) % 4096)) << 9; /* 4 KiB page of the region */
        for (unsigned p = 0; p < sh->per_region; p++)
            hot[nhot++] = base + rng(&s) % 512;
    }
    uint64_t cyc = 1 + rng(&s) % 1000, set[24];
    unsigned nset = 0, left = 0, pos = 0, alt = 0;
    for (size_t j = 0; j < n; j++) {
        if (!left) { /* a new phase */
            left = sh->phase_lo + (unsigned)(rng(&s) % (sh->phase_hi - sh->phase_lo + 1));
            alt = rng(&s) % 100 < sh->alt_pct;
            nset = alt ? 2 : sh->set_lo + (unsigned)(rng(&s) % (sh->set_hi - sh->set_lo + 1));
            for (unsigned q = 0; q < nset; q++)
                set[q] = hot[rng(&s) % nhot];
            pos = 0;
        }
        left--;
        uint64_t page;
        uint64_t u = rng(&s) % 1000000;
        if (u < sh->cold_ppm) {
            page = (UINT64_C(1) << 20) + rng(&s) % (UINT64_C(1) << 24); /* far away, seen once */
        } else if (alt && rng(&s) % 64 == 0) {
            page = hot[rng(&s) % nhot]; /* an intruder breaks the alternation */
        } else if (rng(&s) % 8 == 0) {
            page = set[rng(&s) % nset]; /* out of turn */
        } else {
            page = set[pos++ % nset];
            if (rng(&s) % 4 == 0)
                pos--; /* a run on one page */
        }
        out->addr[j] = page << 12 | (rng(&s) & 0xff8);
        /* one cycle per access for long bursts, a few more at times, and now and then a long gap */
        uint64_t g = rng(&s) % 1000000;
        cyc += g < sh->gap_ppm ? (rng(&s) % (UINT64_C(1) << 40)) + 1 : g < 900000 ? 1 : 1 + g % 7;
        out->cycle[j] = cyc;
    }
    free(hot);
}

/* ---- the check ------------------------------------------------------------------------- */

typedef struct {
    recs out;
    mt_rcheck chk;
    int chk_failed;
} run_ctx;

static void sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    run_ctx *c = ctx;
    recs_sink(&c->out, cycle, page, rw, mask);
    if (!c->chk_failed && mt_rcheck_record(&c->chk, cycle, page, mask) != 0)
        c->chk_failed = 1;
}

static uint64_t total_refs, total_records, total_forced, total_configs;

/* Returns the number of (size, C) rows whose counts differ, printing the first few. */
static int check_one(const stream *st, uint64_t budget, size_t heap_limit, const char *name)
{
    run_ctx c;
    memset(&c, 0, sizeof c);
    assert_int_equal(mt_rcheck_init(&c.chk, budget, (1u << MT_REDUCE_SIZES) - 1), 0);
    mt_reduce r;
    assert_int_equal(mt_reduce_init(&r, budget, sink, &c), 0);
    if (heap_limit)
        r.heap_limit = heap_limit;
    for (size_t j = 0; j < st->n; j++) {
        mt_rcheck_access(&c.chk, st->cycle[j], st->addr[j]);
        mt_reduce_access(&r, st->cycle[j], st->addr[j], (unsigned)(j & 1));
    }
    mt_reduce_finish(&r);
    assert_false(r.oom);
    if (!c.chk_failed && mt_rcheck_finish(&c.chk) != 0)
        c.chk_failed = 1;
    if (c.chk_failed)
        print_message("%s B=%lu heap %zu:\n%s", name, (unsigned long)budget, heap_limit, mt_rcheck_error(&c.chk));
    int bad = c.chk_failed;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        lru_sd full = {0}, kept = {0};
        for (size_t j = 0; j < st->n; j++)
            sd_ref(&full, (st->addr[j] & ((UINT64_C(1) << 56) - 1)) >> (12 + i));
        for (size_t j = 0; j < c.out.n; j++)
            if (c.out.r[j].mask >> i & 1) {
                kept.last = 0; /* every kept record is a reference (the host counts a repeat as a hit) */
                sd_ref(&kept, c.out.r[j].page >> i);
            }
        unsigned k = mt_reduce_k(budget, i);
        for (unsigned cap = k; cap <= 2 * k && cap < MAXD; cap++) {
            uint64_t a = sd_faults(&full, cap), b = sd_faults(&kept, cap);
            total_configs++;
            if (a != b && bad++ < 8)
                print_message("%s B=%lu heap %zu: size %luK C=%u: full %lu faults, kept %lu\n", name,
                              (unsigned long)budget, heap_limit, 4ul << i, cap, (unsigned long)a, (unsigned long)b);
        }
        free(full.mtf);
        free(kept.mtf);
    }
    total_refs += st->n;
    total_records += c.out.n;
    total_forced += r.forced;
    mt_reduce_free(&r);
    mt_rcheck_free(&c.chk);
    free(c.out.r);
    return bad;
}

static const shape shapes[] = {
    /* Linux-like: ten hot regions, phases among 2..20 pages */
    {.regions = 10, .per_region = 6, .set_lo = 2, .set_hi = 20, .phase_lo = 50, .phase_hi = 3000,
     .cold_ppm = 200, .alt_pct = 30, .gap_ppm = 50},
    /* about k_2M (8 at 16M) regions in play, small phases: the 2M and 1M filters evict all the time */
    {.regions = 9, .per_region = 3, .set_lo = 6, .set_hi = 12, .phase_lo = 10, .phase_hi = 400,
     .cold_ppm = 50, .alt_pct = 10, .gap_ppm = 20},
    /* more pages than the hold set and the hot groups, long alternations, many cold pages */
    {.regions = 18, .per_region = 12, .set_lo = 9, .set_hi = 20, .phase_lo = 200, .phase_hi = 20000,
     .cold_ppm = 3000, .alt_pct = 50, .gap_ppm = 5},
    /* few regions, a few pages each: nearly all hits, long-pending references */
    {.regions = 3, .per_region = 4, .set_lo = 2, .set_hi = 5, .phase_lo = 1000, .phase_hi = 50000,
     .cold_ppm = 10, .alt_pct = 40, .gap_ppm = 100},
};

static const uint64_t budgets[] = {UINT64_C(16) << 20, UINT64_C(8) << 20, UINT64_C(4) << 20, UINT64_C(1) << 20,
                                   UINT64_C(64) << 10};

static void test_linux_shapes(void **state)
{
    (void)state;
    int bad = 0;
    for (unsigned sh = 0; sh < sizeof shapes / sizeof *shapes; sh++)
        for (unsigned seed = 1; seed <= 3; seed++) {
            stream st;
            make_stream(&shapes[sh], sh * 1000 + seed, 100000, &st);
            char name[64];
            snprintf(name, sizeof name, "shape %u seed %u", sh, seed);
            for (unsigned b = 0; b < sizeof budgets / sizeof *budgets; b++) {
                bad += check_one(&st, budgets[b], 0, name);
                bad += check_one(&st, budgets[b], 16, name); /* forced keeps all the time */
            }
            free(st.cycle);
            free(st.addr);
        }
    print_message("%lu accesses, %lu records, %lu forced keeps, %lu (size, C) rows\n", (unsigned long)total_refs,
                  (unsigned long)total_records, (unsigned long)total_forced, (unsigned long)total_configs);
    assert_true(total_forced > 0);
    assert_int_equal(bad, 0);
}

/* The check itself can fail: a record taken out, or one added, is caught. */
static void test_check_catches(void **state)
{
    (void)state;
    stream st;
    make_stream(&shapes[1], 77, 20000, &st);
    const uint64_t budget = UINT64_C(16) << 20;
    run_ctx c;
    memset(&c, 0, sizeof c);
    assert_int_equal(mt_rcheck_init(&c.chk, budget, 0x3ff), 0);
    mt_reduce r;
    assert_int_equal(mt_reduce_init(&r, budget, recs_sink, &c.out), 0);
    for (size_t j = 0; j < st.n; j++)
        mt_reduce_access(&r, st.cycle[j], st.addr[j], 0);
    mt_reduce_finish(&r);
    /* the records as they are pass */
    for (size_t j = 0; j < st.n; j++)
        mt_rcheck_access(&c.chk, st.cycle[j], st.addr[j]);
    for (size_t j = 0; j < c.out.n; j++)
        assert_int_equal(mt_rcheck_record(&c.chk, c.out.r[j].cycle, c.out.r[j].page, c.out.r[j].mask), 0);
    assert_int_equal(mt_rcheck_finish(&c.chk), 0);
    mt_rcheck_free(&c.chk);
    /* each first record of a 2 MiB metapage left out in turn (a fault in both streams): caught */
    size_t tried = 0;
    uint64_t seen[64];
    size_t nseen = 0;
    for (size_t drop = 0; drop < c.out.n && nseen < 64; drop++) {
        if (!(c.out.r[drop].mask >> 9 & 1))
            continue;
        uint64_t mp = c.out.r[drop].page >> 9;
        size_t q = 0;
        while (q < nseen && seen[q] != mp)
            q++;
        if (q < nseen)
            continue;
        seen[nseen++] = mp;
        tried++;
        assert_int_equal(mt_rcheck_init(&c.chk, budget, 1u << 9), 0);
        size_t next = 0;
        int failed = 0;
        for (size_t j = 0; j < st.n && !failed; j++) {
            mt_rcheck_access(&c.chk, st.cycle[j], st.addr[j]);
            for (; next < c.out.n && c.out.r[next].cycle <= st.cycle[j] && !failed; next++)
                if (next != drop)
                    failed = mt_rcheck_record(&c.chk, c.out.r[next].cycle, c.out.r[next].page, c.out.r[next].mask) != 0;
        }
        if (!failed)
            failed = mt_rcheck_finish(&c.chk) != 0;
        assert_true(failed);
        assert_non_null(strstr(mt_rcheck_error(&c.chk), "size 2048K"));
        mt_rcheck_free(&c.chk);
    }
    assert_true(tried >= 5);
    /* a record again after a later one: caught as out of order */
    assert_true(c.out.n >= 2);
    assert_int_equal(mt_rcheck_init(&c.chk, budget, 0x3ff), 0);
    for (size_t j = 0; j < st.n; j++)
        mt_rcheck_access(&c.chk, st.cycle[j], st.addr[j]);
    assert_int_equal(mt_rcheck_record(&c.chk, c.out.r[0].cycle, c.out.r[0].page, c.out.r[0].mask), 0);
    assert_int_equal(mt_rcheck_record(&c.chk, c.out.r[1].cycle, c.out.r[1].page, c.out.r[1].mask), 0);
    assert_int_equal(mt_rcheck_record(&c.chk, c.out.r[0].cycle, c.out.r[0].page, c.out.r[1].mask), -1);
    assert_non_null(strstr(mt_rcheck_error(&c.chk), "older"));
    mt_rcheck_free(&c.chk);
    mt_reduce_free(&r);
    free(c.out.r);
    free(st.cycle);
    free(st.addr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linux_shapes),
        cmocka_unit_test(test_check_catches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
