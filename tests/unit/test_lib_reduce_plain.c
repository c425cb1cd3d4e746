/* lib/mt_reduce.c record for record against the plain definition of its output (mt_reduce.h,
 * docs/metapaging.md "Exact reduction"), written here without any of the filter's machinery (no
 * hash, recency order, E register, reorder stage, alternation skip or cross-size entry hints):
 *
 *   The filters' stream: the accesses that change the 4 KiB page, less the *held* ones: the
 *   third and later steps in a row of an alternation (an access to the page two changes back),
 *   when its two pages are one metapage at every size with k = 1; of each run of held steps the
 *   last one is in the stream after all (mt_reduce.h "Alternations": only it matters).
 *   Size i sees a reference at a stream access j when j's metapage (4 KiB page >> i) differs
 *   from the previous stream access's.  With k = max(1, B >> (12 + i)) and d(a, b) the number of distinct metapages other
 *   than M referenced at size i strictly between times a and b, a reference at j to M is kept
 *     - at once if it is M's first, or d(last(M), j) >= k (M left a k-entry LRU filter);
 *     - else it is pending, and when M is next referenced at j' it is kept iff d(t1, j') >= k,
 *       t1 being M's last kept reference (SAD's rule); pending at the end of the trace: kept.
 *   Records: one per kept access, in access order, mask bit i for each size that keeps it.
 *
 * Where test_lib_reduce checks that the records give the full trace's fault counts, this checks
 * the exact records, so a change of the filter's data structures that kept a different (still
 * exact) set, or the same set in another order, is caught too.  Streams are random over few or
 * many pages, with runs, alternations and loops around k, at budgets where the small sizes
 * evict and the large ones do not, and the reverse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mt_reduce.h"

#include "mask_records.h"


/* Pages are drawn from [0, SPAN): metapage ids at every size fit the marker arrays below. */
#define SPAN 4096u

/* d(a, b) at size i over the references ref[0..nref) (access indices, increasing) with their
 * metapages mp[]: distinct metapages other than m strictly between access times a and b, counted
 * from b backwards and stopped at k (only ">= k" matters). */
static unsigned distinct_between(const size_t *ref, const uint64_t *mp, size_t pos_b, size_t a, uint64_t m,
                                 unsigned k, unsigned *seen, unsigned stamp)
{
    unsigned d = 0;
    for (size_t q = pos_b; q-- > 0 && ref[q] > a && d < k;)
        if (mp[q] != m && seen[mp[q]] != stamp) {
            seen[mp[q]] = stamp;
            d++;
        }
    return d;
}

/* The filters' stream (header comment): indices of the accesses that reach the filters. */
static size_t filter_stream(const uint64_t *page, size_t n, uint64_t budget, size_t *st)
{
    unsigned one = 0; /* the first size with k = 1 (MT_REDUCE_SIZES: none) */
    while (one < MT_REDUCE_SIZES && mt_reduce_k(budget, one) > 1)
        one++;
    size_t ns = 0, nchg = 0, held = SIZE_MAX; /* held: the last held step not yet in the stream */
    uint64_t chg[3] = {0}; /* the pages of the last three changes, newest last */
    unsigned steps = 0;
    int ok = 0;
    for (size_t j = 0; j < n; j++) {
        if (j && page[j] == page[j - 1])
            continue; /* a repeat */
        chg[0] = chg[1], chg[1] = chg[2], chg[2] = page[j];
        nchg++;
        if (nchg >= 3 && chg[2] == chg[0]) {
            if (steps++ == 0)
                ok = one >= MT_REDUCE_SIZES || chg[2] >> one == chg[1] >> one;
        } else {
            steps = 0;
        }
        if (steps > 2 && ok) {
            held = j;
            continue;
        }
        if (held != SIZE_MAX)
            st[ns++] = held;
        held = SIZE_MAX;
        st[ns++] = j;
    }
    if (held != SIZE_MAX)
        st[ns++] = held;
    return ns;
}

/* The plain definition's records for a stream of pages (4 KiB page numbers) and R/W bits. */
static void plain_records(const uint64_t *page, const uint8_t *rw, size_t n, uint64_t budget, recs *out)
{
    size_t *st = malloc((n ? n : 1) * sizeof *st);
    assert_non_null(st);
    size_t ns = filter_stream(page, n, budget, st);
    unsigned *mask = calloc(n ? n : 1, sizeof *mask);
    size_t *ref = malloc((n ? n : 1) * sizeof *ref);
    uint64_t *mp = malloc((n ? n : 1) * sizeof *mp);
    unsigned *seen = calloc(SPAN, sizeof *seen);
    size_t *last = malloc(SPAN * sizeof *last), *t1 = malloc(SPAN * sizeof *t1);
    uint8_t *known = malloc(SPAN), *pend = malloc(SPAN);
    assert_true(mask && ref && mp && seen && last && t1 && known && pend);
    unsigned stamp = 0;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        unsigned k = mt_reduce_k(budget, i);
        memset(known, 0, SPAN);
        memset(pend, 0, SPAN);
        size_t nref = 0;
        for (size_t x = 0; x < ns; x++) {
            size_t j = st[x];
            uint64_t m = page[j] >> i;
            if (x && m == page[st[x - 1]] >> i)
                continue; /* a repeat of the metapage: no reference at this size */
            ref[nref] = j;
            mp[nref] = m;
            if (!known[m]) {
                known[m] = 1;
                mask[j] |= 1u << i;
                t1[m] = j;
            } else {
                if (pend[m] && distinct_between(ref, mp, nref, t1[m], m, k, seen, ++stamp) >= k) {
                    mask[last[m]] |= 1u << i; /* the pending reference t2 is kept */
                    t1[m] = last[m];
                }
                if (distinct_between(ref, mp, nref, last[m], m, k, seen, ++stamp) >= k) {
                    mask[j] |= 1u << i; /* a miss: kept at once */
                    t1[m] = j;
                    pend[m] = 0;
                } else {
                    pend[m] = 1;
                }
            }
            last[m] = j;
            nref++;
        }
        for (uint64_t m = 0; m < SPAN; m++) /* the end of the trace: pending references are kept */
            if (known[m] && pend[m])
                mask[last[m]] |= 1u << i;
    }
    for (size_t j = 0; j < n; j++)
        if (mask[j])
            recs_push(out, (rec){.cycle = j, .page = page[j], .rw = rw[j], .mask = mask[j]});
    free(st), free(mask), free(ref), free(mp), free(seen), free(last), free(t1), free(known), free(pend);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t total_records, total_streams, total_held, total_filter_refs;
static bool check_hold; /* hold_invariants after every access (test_hold_set_streams) */

/* What the hold set (mt_reduce.h mt_reduce_hold) rests on, checked from outside: a slot that is
 * ready (checked at the current miss count, no size bad) names, at every size, the entry in use
 * that holds its metapage, with E <= t1 and, in a large filter, in the hot group; and every
 * slot's page, ready or not, has its metapage in the hot group at each large size where the
 * filter holds it (the hold set is the last nhold <= hot_cap distinct pages, so their metapages
 * are the most recent ones there): the hot check in hold_check_size never fails for a page of the
 * set.  And the sizes that rests on: nhold at most every large filter's group, which is smaller
 * than its k (a full filter's list is not empty). */
static void hold_invariants(const mt_reduce *r)
{
    assert_true(r->nhold >= 1 && r->nhold <= MT_REDUCE_HOLD);
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++)
        if (r->f[i].hot_cap) {
            assert_true(r->nhold <= r->f[i].hot_cap);
            assert_true(r->f[i].hot_cap < r->f[i].k && r->f[i].nhot <= r->f[i].hot_cap);
        }
    for (unsigned j = 0; j < r->nhold; j++) {
        const mt_reduce_hold *h = &r->hold[j];
        if (!r->hold_page[j])
            continue;
        const uint64_t page4k = r->hold_page[j] - 1;
        const bool ready = h->gen == r->gen && !h->bad;
        for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
            const mt_reduce_filter *f = &r->f[i];
            const uint64_t p = page4k >> i;
            if (ready) {
                const mt_reduce_entry *x = h->ep[i];
                assert_true(x >= f->e && x < f->e + f->n);
                assert_true(x->page == p);
                assert_true(f->evicted_last <= x->t1);
                assert_true(!f->hot_cap || mt_reduce_entry_hot(x));
            }
            if (!f->hot_cap) /* a small filter: no group */
                continue;
            bool hot = false;
            for (uint32_t g = 0; g < f->nhot; g++)
                hot |= f->e[f->hot[g]].page == p;
            for (uint32_t e = 0; !hot && e < f->n; e++)
                if (f->e[e].page == p)
                    fail_msg("slot %u page %#lx: its metapage at size %u is in the filter but not hot", j,
                             (unsigned long)page4k, i);
        }
    }
}

/* mt_reduce on the stream (access j at cycle j) against plain_records: the same records. */
static void check_stream(const uint64_t *page, const uint8_t *rw, size_t n, uint64_t budget)
{
    recs want = {0}, got = {0};
    plain_records(page, rw, n, budget, &want);
    mt_reduce r;
    assert_int_equal(mt_reduce_init(&r, budget, recs_sink, &got), 0);
    r.heap_limit = (size_t)1 << 40; /* no forced keeps (exact, but not the plain definition); the
                                       periodic releases stay */
    for (size_t j = 0; j < n; j++) {
        mt_reduce_access(&r, j, page[j] << 12 | (j * 8 & 0xfff), rw[j]);
        if (check_hold && (j < 400 || j % 8 == 0)) /* (each check reads every slot's every size) */
            hold_invariants(&r);
    }
    mt_reduce_finish(&r);
    assert_int_equal(r.forced, 0); /* (a forced keep is exact but not the plain definition) */
    total_held += r.held;
    total_filter_refs += r.accesses - r.alt_skipped;
    mt_reduce_free(&r);
    for (size_t x = 0; x < want.n || x < got.n; x++) {
        if (x < want.n && x < got.n && !memcmp(&want.r[x], &got.r[x], sizeof(rec)))
            continue;
        fail_msg("B=%lu n=%zu: record %zu differs: plain %s{cycle %lu page %#lx rw %u mask %#x}, "
                 "mt_reduce %s{cycle %lu page %#lx rw %u mask %#x}",
                 (unsigned long)budget, n, x, x < want.n ? "" : "(none) ",
                 x < want.n ? (unsigned long)want.r[x].cycle : 0, x < want.n ? (unsigned long)want.r[x].page : 0,
                 x < want.n ? want.r[x].rw : 0, x < want.n ? want.r[x].mask : 0, x < got.n ? "" : "(none) ",
                 x < got.n ? (unsigned long)got.r[x].cycle : 0, x < got.n ? (unsigned long)got.r[x].page : 0,
                 x < got.n ? got.r[x].rw : 0, x < got.n ? got.r[x].mask : 0);
    }
    total_records += want.n;
    total_streams++;
    free(want.r);
    free(got.r);
}

static const uint64_t budgets[] = {4096, 16384, 65536, 262144, 1u << 20, 16u << 20};
#define NBUDGETS (sizeof budgets / sizeof budgets[0])

/* Random streams: a pool of pages (clustered in a few 2 MiB regions or spread over the span),
 * references with runs, fetch/data-like alternations and returns to recent pages. */
static void test_random_streams(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    enum { N = 2500 };
    uint64_t *page = malloc(N * sizeof *page), pool[512];
    uint8_t *rw = malloc(N);
    for (int t = 0; t < 60; t++) {
        unsigned npool = 2 + (unsigned)(rng(&seed) % (t % 3 == 0 ? 12 : t % 3 == 1 ? 80 : 500));
        unsigned regions = 1 + (unsigned)(rng(&seed) % 6);
        for (unsigned p = 0; p < npool; p++)
            pool[p] = t % 2 ? rng(&seed) % SPAN /* spread */
                            : (rng(&seed) % regions) * 512 + rng(&seed) % (t % 4 == 0 ? 8 : 512);
        size_t n = 200 + rng(&seed) % (N - 200);
        uint64_t a = pool[0], b = pool[1 % npool];
        for (size_t j = 0; j < n; j++) {
            unsigned c = (unsigned)(rng(&seed) % 10);
            if (c < 3 && j) /* a run: the same page again */
                page[j] = page[j - 1];
            else if (c < 6) /* an alternation step between a and b */
                page[j] = j % 2 ? a : b;
            else if (c < 8 && j > 8) /* back to a recent page */
                page[j] = page[j - 1 - rng(&seed) % 8];
            else {
                page[j] = pool[rng(&seed) % npool];
                if (c == 9) {
                    a = page[j];
                    b = pool[rng(&seed) % npool];
                }
            }
            rw[j] = (uint8_t)(rng(&seed) & 1);
        }
        for (size_t bi = 0; bi < NBUDGETS; bi++)
            check_stream(page, rw, n, budgets[bi]);
    }
    free(page);
    free(rw);
}

/* Loops over m metapages for m around k at each size (every reference a miss for m = k + 1, a
 * hit for m <= k), A B A C B patterns, alternations that settle and break, and a page pair that
 * is one metapage at the large sizes only. */
static void test_adversarial_streams(void **state)
{
    (void)state;
    enum { N = 1200 };
    uint64_t page[N];
    uint8_t rw[N];
    for (size_t bi = 0; bi < 4; bi++) { /* k at 4 KiB: 1, 4, 16, 64 */
        for (unsigned i = 0; i < MT_REDUCE_SIZES; i += 3) {
            unsigned k = mt_reduce_k(budgets[bi], i);
            for (unsigned m = k > 1 ? k - 1 : 1; m <= k + 2; m++) {
                size_t n = 0;
                for (unsigned rep = 0; n + m <= N && rep < 6; rep++)
                    for (unsigned q = 0; q < m; q++, n++) {
                        page[n] = ((uint64_t)q << i) % SPAN; /* metapage q at size i */
                        rw[n] = (uint8_t)(q & 1);
                    }
                check_stream(page, rw, n, budgets[bi]);
            }
        }
        static const char *pats[] = {"ABACB", "ABABABABCABABAB", "ABCABCABDABCD", "AABBAABBCC", "ABABABCBCBCBABAB"};
        for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
            for (unsigned stride = 1; stride <= 512; stride *= 8) {
                size_t n = 0;
                for (unsigned rep = 0; rep < 20; rep++)
                    for (const char *c = pats[p]; *c; c++, n++) {
                        page[n] = (uint64_t)(*c - 'A') * stride % SPAN;
                        rw[n] = (uint8_t)(rep & 1);
                    }
                check_stream(page, rw, n, budgets[bi]);
            }
    }
}

/* Streams long enough for the reorder stage's periodic releases (every 4096 page changes: a
 * record may leave only once no filter can still keep an older reference), with working sets
 * around k at the sizes with a hash table and a recency list. */
static void test_long_streams(void **state)
{
    (void)state;
    uint64_t seed = 0x2545f4914f6cdd1du;
    enum { N = 40000 };
    uint64_t *page = malloc(N * sizeof *page), pool[400];
    uint8_t *rw = malloc(N);
    for (int t = 0; t < 6; t++) {
        unsigned npool = 40 + (unsigned)(rng(&seed) % 360);
        for (unsigned p = 0; p < npool; p++)
            pool[p] = t % 2 ? rng(&seed) % SPAN : (rng(&seed) % 4) * 512 + rng(&seed) % 128;
        unsigned hot = 1 + (unsigned)(rng(&seed) % 12); /* most changes among a few pages */
        for (size_t j = 0; j < N; j++) {
            unsigned c = (unsigned)(rng(&seed) % 16);
            page[j] = c < 12 ? pool[rng(&seed) % hot] : pool[rng(&seed) % npool];
            rw[j] = (uint8_t)(c & 1);
        }
        check_stream(page, rw, N, t < 3 ? 262144 : 1u << 20);
    }
    /* A few hot pages, and every fourth access a page not seen for thousands of accesses (kept
     * as it comes, so never pending): the only pending references are the hot pages' ones, at
     * the MRU end of the order, and they hold back every release. */
    for (int t = 0; t < 2; t++) {
        unsigned hot = 3 + (unsigned)t * 3;
        for (size_t j = 0; j < N; j++) {
            page[j] = j % 4 == 3 ? 1024 + (j / 4) % 3000 : (uint64_t)(rng(&seed) % hot) * 7;
            rw[j] = (uint8_t)(j & 1);
        }
        check_stream(page, rw, N, t ? 1u << 20 : 262144);
    }
    /* Two pages each referenced once in every 51 accesses among fresh ones (B = 256K: 64 entries
     * at 4 KiB): each reference keeps the one before it late, decided while that one is among the
     * most recent entries, which a release in between must wait for. */
    for (size_t j = 0; j < N; j++) {
        page[j] = j % 51 == 0 ? 3 : j % 51 == 25 ? 5 : 1024 + j % 3000;
        rw[j] = (uint8_t)(j % 3 == 0);
    }
    check_stream(page, rw, N, 262144);
    free(page);
    free(rw);
}

/* The hold set's cases (mt_reduce.h mt_reduce_hold): cycles and random returns among m = 2..20
 * pages and up to 68 (around the set's sizes: 64 = MT_REDUCE_HOLD, 63 and 31 where a large filter's
 * k - 1 bounds it, the earlier 16 and 8), some in one 2 MiB region and some spread, so that the small filters
 * of the large sizes miss inside a held run (E moves, entries leave and come back); intruders (a
 * page not seen for long) that push a page out of the set; alternations that settle and break
 * inside a cycle; at budgets where the large sizes have 1..16 entries and where they have more.
 * Every record against the plain definition, the invariants after every access, and the short
 * path must have been taken for most page changes. */
static void test_hold_set_streams(void **state)
{
    (void)state;
    uint64_t seed = 0x51afd7ed558ccd9u;
    enum { N = 3000 };
    /* the set sizes m: few pages, and around the hold set's size (every slot reused) */
    static const unsigned sizes[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 16, 17, 18, 20, 30, 32, 33, 62, 64, 65, 68};
    _Static_assert(MT_REDUCE_HOLD + 4 <= 68, "the sizes go past the hold set");
    uint64_t *page = malloc(N * sizeof *page), set[68];
    uint8_t *rw = malloc(N);
    /* 68K and 128K: one large filter, whose k - 1 (16, 31) bounds the hold set */
    static const uint64_t hold_budgets[] = {65536, 69632, 131072, 262144, 1u << 20, 4u << 20, 16u << 20};
    const uint64_t held0 = total_held, refs0 = total_filter_refs;
    check_hold = true;
    for (size_t mi = 0; mi < sizeof sizes / sizeof *sizes; mi++) {
        const unsigned m = sizes[mi];
        for (unsigned shape = 0; shape < 4; shape++) {
            for (unsigned q = 0; q < m; q++) /* 0: one 2 MiB region, 1: spread, 2-3: two regions */
                set[q] = shape == 0 ? rng(&seed) % 512
                         : shape == 1 ? rng(&seed) % SPAN
                                      : (q % 2) * 1536 + rng(&seed) % (shape == 2 ? 64 : 512);
            for (size_t j = 0; j < N; j++) {
                unsigned c = (unsigned)(rng(&seed) % 64);
                if (c == 0) /* an intruder, seen once */
                    page[j] = 2048 + rng(&seed) % 2048;
                else if (c < 8 && j >= 2) /* an alternation step */
                    page[j] = page[j - 2];
                else if (shape & 1) /* in cycle order */
                    page[j] = set[j % m];
                else /* a random return */
                    page[j] = set[rng(&seed) % m];
                rw[j] = (uint8_t)(c & 1);
            }
            for (size_t bi = 0; bi < sizeof hold_budgets / sizeof *hold_budgets; bi++)
                check_stream(page, rw, N, hold_budgets[bi]);
        }
    }
    check_hold = false;
    const uint64_t held = total_held - held0, refs = total_filter_refs - refs0;
    print_message("test_hold_set_streams: %lu of %lu page changes through the filters were plain hits\n",
                  (unsigned long)held, (unsigned long)refs);
    /* the short path is what these streams test (28 % when written; 25 % since the sets up to 68
     * pages at budgets of 68K and 128K, where a large filter of 17 or 32 entries misses often) */
    assert_true(held * 5 > refs);
    free(page);
    free(rw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_streams),
        cmocka_unit_test(test_adversarial_streams),
        cmocka_unit_test(test_long_streams),
        cmocka_unit_test(test_hold_set_streams),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    print_message("test_lib_reduce_plain: %lu streams, %lu records equal to the plain definition's; %lu of %lu "
                  "page changes through the filters were plain hits of the hold set\n",
                  (unsigned long)total_streams, (unsigned long)total_records, (unsigned long)total_held,
                  (unsigned long)total_filter_refs);
    return rc;
}
