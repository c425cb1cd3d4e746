/* The spatial filter (lib/mt_spatial.c) against its plain definition (lib/mt_spatial.h's header
 * comment, written out here with none of the filter's shortcuts): every size asks the bit-parity
 * H3 hash whether it keeps the metapage, compares it with its own last record, and hands every
 * record to the doubling rule; no emitted-page invariant, no page memo, no cached sampled sizes.
 * Records (cycle, page, R/W, mask), the final rates, doublings and every count must be equal, on
 * random streams and on adversarial ones: rates doubling mid-stream (tiny bitmaps and
 * thresholds), pages that share a memo slot, metapages whose hashes share their bitmap bit,
 * pages at the ends of RAM and of the 56-bit address space, alternations and cycles of pages.
 * Each stream also goes through mt_spatial_access_run as the CPU's page log hands it over, the
 * records through the filter's buffer (compare_run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mt_spatial.h"

#include "mask_records.h"


/* ---- the plain definition ------------------------------------------------------------------ */

typedef struct {
    mt_spatial_counter ctr[MT_SPATIAL_SIZES];
    uint64_t kept_mp[MT_SPATIAL_SIZES];
    unsigned kept_valid;
    uint64_t last, prev; /* 4 KiB page + 1 of the last two distinct accesses (0: none) */
    uint32_t alt_steps;
    int alt_ok, skipped;
    uint64_t skipped_cycle, skipped_page;
    unsigned skipped_rw;
    uint64_t accesses, records, kept[MT_SPATIAL_SIZES], alt_skipped;
    uint32_t doublings;
    recs out;
} plain;

static void plain_init(plain *p, uint32_t rate, unsigned log2m, uint32_t max)
{
    memset(p, 0, sizeof *p);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        assert_int_equal(mt_spatial_counter_init(&p->ctr[i], mt_spatial_rate_of(rate, i), log2m, max), 0);
}

static int plain_keeps(const plain *p, unsigned i, uint64_t page)
{
    return (mt_spatial_hash(page >> i) & (p->ctr[i].rate - 1)) == 0;
}

/* Every size that keeps the page's metapage and whose last record is another metapage records
 * it; each such record goes to the size's doubling rule (the keep decisions are the rates'
 * before this access). */
static void plain_emit(plain *p, uint64_t cycle, uint64_t page, unsigned rw)
{
    unsigned mask = 0;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        if (plain_keeps(p, i, page) && !(((p->kept_valid >> i) & 1) && p->kept_mp[i] == page >> i))
            mask |= 1u << i;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        if ((mask >> i) & 1) {
            uint32_t before = p->ctr[i].doublings;
            mt_spatial_counter_record(&p->ctr[i], page >> i);
            p->doublings += p->ctr[i].doublings - before;
            p->kept_mp[i] = page >> i;
            p->kept[i]++;
        }
    p->kept_valid |= mask;
    if (mask) {
        p->records++;
        recs_sink(&p->out, cycle, page, rw, mask);
    }
}

static void plain_replay(plain *p)
{
    if (p->skipped) {
        p->skipped = 0;
        plain_emit(p, p->skipped_cycle, p->skipped_page, p->skipped_rw);
    }
}

static void plain_access(plain *p, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    p->accesses++;
    if (page + 1 == p->last)
        return;
    if (page + 1 == p->prev) {
        p->prev = p->last;
        p->last = page + 1;
        if (++p->alt_steps == 1) { /* skippable unless a size at rate 1 tells the two apart */
            p->alt_ok = 1;
            for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
                if (p->ctr[i].rate == 1 && page >> i != (p->prev - 1) >> i)
                    p->alt_ok = 0;
        }
        if (p->alt_ok && p->alt_steps > 2) {
            p->skipped = 1;
            p->skipped_cycle = cycle;
            p->skipped_page = page;
            p->skipped_rw = rw & 1;
            p->alt_skipped++;
            return;
        }
    } else {
        p->alt_steps = 0;
        p->prev = p->last;
        p->last = page + 1;
    }
    plain_replay(p);
    plain_emit(p, cycle, page, rw & 1);
}

/* ---- the comparison ------------------------------------------------------------------------ */

static uint64_t rng(uint64_t *s);

/* mt_spatial_set_buffer's flush: the records as the sink would have had them. */
static void recs_flush(void *ctx, const mt_access_rec *r, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++)
        recs_push(ctx, (rec){.cycle = r[j].cycle, .page = (r[j].addr_rw & ~MT_ACCESS_REC_WRITE) >> 12,
                             .rw = (unsigned)(r[j].addr_rw >> 63), .mask = (unsigned)(r[j].addr_rw & 0xfff)});
}

/* The filter's state but its count of accesses (a run counts the repeats after its last access
 * in the next run) and the records' buffer: a run and the same accesses one at a time. */
static void same_state(const mt_spatial *s, const mt_spatial *t, int tables)
{
    assert_int_equal(s->last_page, t->last_page);
    assert_int_equal(s->prev_page, t->prev_page);
    assert_int_equal(s->last_smask, t->last_smask);
    assert_int_equal(s->prev_smask, t->prev_smask);
    assert_int_equal(s->emitted, t->emitted);
    assert_int_equal(s->emitted_smask, t->emitted_smask);
    assert_int_equal(s->kept_valid, t->kept_valid);
    assert_int_equal(s->alt_steps, t->alt_steps);
    assert_int_equal(s->alt_ok, t->alt_ok);
    assert_int_equal(s->skipped_valid, t->skipped_valid);
    assert_int_equal(s->doublings, t->doublings);
    if (tables) { /* (64 KiB and 8 KiB: not after every run, or the test takes 5 times as long) */
        assert_memory_equal(s->memo, t->memo, sizeof s->memo);
        assert_memory_equal(s->mask_records, t->mask_records, sizeof s->mask_records);
    }
}

/* The recorder's way (emu/trace/tracectl.c sp_record): the first record to the sink, which then
 * sets the buffer; ctx of both the sink and the flush. */
typedef struct {
    recs *got;
    mt_spatial *s;
    mt_access_rec *buf;
    uint32_t cap;
} late_buffer;

static void late_flush(void *ctx, const mt_access_rec *r, uint32_t n)
{
    recs_flush(((late_buffer *)ctx)->got, r, n);
}

static void late_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    late_buffer *l = ctx;
    recs_sink(l->got, cycle, page, rw, mask);
    mt_spatial_set_buffer(l->s, l->buf, l->cap, late_flush);
}

/* The stream as the CPU's page log hands it to mt_spatial_access_run (the recorder's sp_only_pages):
 * accesses outside [lo, hi) put in between (a device, the boot ROM: neither recorded nor counted,
 * nor the repeats of their page after them), then only the changes of 4 KiB page of that whole
 * stream, each with its ordinal in it, in runs of 1..40, the records through a buffer of `cap`;
 * at the end the repeats after the last change, as the recorder's finish counts them
 * (mt_spatial_repeats).  Records, counts and the doubling rule's state must be the plain
 * definition's on the stream's own accesses inside [lo, hi), one by one (the top pages of the
 * 56-bit space, which some streams use, are outside too).  late: 1, the buffer is set by the sink
 * at the first record, as the recorder does (the run loop starts without one); 2, no buffer. */
static void compare_run(const uint64_t *addr, size_t n, uint32_t rate, unsigned log2m, uint32_t max, uint32_t cap,
                        int late)
{
    static const char *const late_name[] = {"", " (buffer set by the sink)", " (no buffer)"};
    const uint64_t lo = 0, hi = (UINT64_C(1) << 56) - (UINT64_C(1) << 24); /* the top 4096 pages: outside */
    uint64_t seed = n ^ rate, *cyc = malloc(3 * n * sizeof *cyc), *word = malloc(3 * n * sizeof *word),
             *ord = malloc(3 * n * sizeof *ord);
    assert_true(cyc && word && ord);
    size_t m = 0, k = 0;                        /* changes; accesses of the whole stream */
    const uint64_t base = 1000 + rng(&seed) % 1000; /* the ordinal of the whole stream's first access */
    uint64_t last = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        const unsigned outside = rng(&seed) % 16 == 0 ? 1 + (unsigned)(rng(&seed) % 3) : 0;
        const uint64_t opage = (hi >> 12) + rng(&seed) % 3;
        for (unsigned o = 0; o <= outside; o++) { /* the outside ones (repeats of one page), then addr[i] */
            const uint64_t a = o < outside ? opage << 12 | (rng(&seed) & 0xff8) : addr[i] & ((UINT64_C(1) << 56) - 1);
            const uint64_t page = a >> 12;
            if (page != last) {
                cyc[m] = o < outside ? 2 * i : 2 * i + 1; /* (one change of the outside page a group) */
                word[m] = a << 8 | (o < outside ? 0 : addr[i] >> 63);
                ord[m++] = base + k;
                last = page;
            }
            k++;
        }
    }
    static plain q;
    const plain *p = &q;
    plain_init(&q, rate, log2m, max);
    for (size_t i = 0; i < n; i++) {
        const uint64_t a = addr[i] & ((UINT64_C(1) << 56) - 1);
        if (a >= lo && a < hi)
            plain_access(&q, 2 * i + 1, addr[i], (unsigned)(addr[i] >> 63));
    }
    plain_replay(&q);
    /* the same accesses one at a time (mt_spatial_access), in step with the runs: each run must
     * leave the filter in the same state, not only give the same output (parts of the state that
     * the output shows only later, or never at rate 1, such as the alternation's step count and
     * the page memo) */
    static mt_spatial t;
    recs t_got = {0};
    size_t t_next = 0; /* the next access of addr[] for t */
    assert_int_equal(mt_spatial_init_rule(&t, rate, log2m, max, recs_sink, &t_got), 0);
    static mt_spatial s;
    recs got = {0};
    mt_access_rec *buf = malloc(cap * sizeof *buf);
    assert_non_null(buf);
    late_buffer lb = {.got = &got, .s = &s, .buf = buf, .cap = cap};
    if (late == 2) { /* no buffer: every record to the sink */
        assert_int_equal(mt_spatial_init_rule(&s, rate, log2m, max, recs_sink, &got), 0);
    } else if (late) {
        assert_int_equal(mt_spatial_init_rule(&s, rate, log2m, max, late_sink, &lb), 0);
    } else {
        assert_int_equal(mt_spatial_init_rule(&s, rate, log2m, max, recs_sink, &got), 0);
        mt_spatial_set_buffer(&s, buf, cap, recs_flush);
    }
    uint64_t ord_last = base - 1;
    int in = 0;
    for (size_t j = 0; j < m;) {
        const size_t r = 1 + rng(&seed) % 40, take = r < m - j ? r : m - j;
        assert_int_equal(mt_spatial_access_run(&s, cyc + j, word + j, ord + j, take, 8, lo, hi, &ord_last, &in), take);
        j += take;
        /* t takes the stream up to the run's last change (cycle 2i + 1: addr[i]; 2i: an outside
         * access before it), so the same accesses but the repeats after it (counted next run) */
        for (const size_t upto = cyc[j - 1] / 2 + (cyc[j - 1] % 2); t_next < upto; t_next++) {
            const uint64_t a = addr[t_next] & ((UINT64_C(1) << 56) - 1);
            if (a >= lo && a < hi)
                mt_spatial_access(&t, 2 * t_next + 1, addr[t_next], (unsigned)(addr[t_next] >> 63));
        }
        same_state(&s, &t, j == m || rng(&seed) % 64 == 0);
    }
    for (; t_next < n; t_next++) {
        const uint64_t a = addr[t_next] & ((UINT64_C(1) << 56) - 1);
        if (a >= lo && a < hi)
            mt_spatial_access(&t, 2 * t_next + 1, addr[t_next], (unsigned)(addr[t_next] >> 63));
    }
    if (in)
        mt_spatial_repeats(&s, base + k - ord_last - 1);
    assert_int_equal(s.accesses, t.accesses);
    free(t_got.r);
    mt_spatial_finish(&s);
    if (got.n != p->out.n)
        fail_msg("run, rate %u rule %u/%u cap %u%s: %zu records, the definition %zu", rate, log2m, max, cap,
                 late_name[late], got.n, p->out.n);
    for (size_t j = 0; j < got.n; j++) {
        const rec *a = &got.r[j], *b = &p->out.r[j];
        if (a->cycle != b->cycle || a->page != b->page || a->rw != b->rw || a->mask != b->mask)
            fail_msg("run, rate %u rule %u/%u cap %u%s: record %zu differs", rate, log2m, max, cap, late_name[late], j);
    }
    assert_int_equal(s.records, p->records);
    assert_int_equal(s.accesses, p->accesses);
    assert_int_equal(s.alt_skipped, p->alt_skipped);
    assert_int_equal(s.doublings, p->doublings);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        assert_int_equal(s.rate[i], p->ctr[i].rate);
        assert_int_equal(s.kept[i], p->kept[i]);
        assert_int_equal(s.ctr[i].count, p->ctr[i].count);
        assert_memory_equal(s.ctr[i].map, p->ctr[i].map, sizeof p->ctr[i].map);
    }
    free(got.r);
    free(q.out.r);
    q.out = (recs){0};
    free(buf);
    free(cyc);
    free(word);
    free(ord);
}

/* One stream through both at base rate `rate` and rule (log2m, max); 1 if all agree. */
static void compare(const uint64_t *addr, size_t n, uint32_t rate, unsigned log2m, uint32_t max)
{
    static plain p;
    static mt_spatial s;
    recs got = {0};
    plain_init(&p, rate, log2m, max);
    assert_int_equal(mt_spatial_init_rule(&s, rate, log2m, max, recs_sink, &got), 0);
    for (size_t i = 0; i < n; i++) {
        mt_spatial_access(&s, 2 * i + 1, addr[i], (unsigned)(addr[i] >> 63));
        plain_access(&p, 2 * i + 1, addr[i], (unsigned)(addr[i] >> 63));
    }
    mt_spatial_finish(&s);
    plain_replay(&p);
    if (got.n != p.out.n)
        fail_msg("rate %u rule %u/%u: %zu records, the definition %zu", rate, log2m, max, got.n, p.out.n);
    for (size_t j = 0; j < got.n; j++) {
        const rec *a = &got.r[j], *b = &p.out.r[j];
        if (a->cycle != b->cycle || a->page != b->page || a->rw != b->rw || a->mask != b->mask)
            fail_msg("rate %u rule %u/%u: record %zu is (%llu, page %llx, %u, mask %x), the definition's "
                     "(%llu, page %llx, %u, mask %x)", rate, log2m, max, j, (unsigned long long)a->cycle,
                     (unsigned long long)a->page, a->rw, a->mask, (unsigned long long)b->cycle,
                     (unsigned long long)b->page, b->rw, b->mask);
    }
    assert_int_equal(s.records, p.records);
    assert_int_equal(s.accesses, p.accesses);
    assert_int_equal(s.alt_skipped, p.alt_skipped);
    assert_int_equal(s.doublings, p.doublings);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        assert_int_equal(s.rate[i], p.ctr[i].rate);
        assert_int_equal(s.kept[i], p.kept[i]);
        assert_int_equal(s.ctr[i].count, p.ctr[i].count);
        assert_memory_equal(s.ctr[i].map, p.ctr[i].map, sizeof p.ctr[i].map);
    }
    /* at rate 1 (the run loop's own case, lib/mt_spatial.c run_rate1) every buffer size with the
     * buffer set before and by the sink; elsewhere one of them, in turn (5 and 3 share no factor
     * with the 20 such calls a stream makes, so each (rate, rule) meets each in turn) */
    static const uint32_t caps[] = {1, 7, 1024};
    static unsigned calls;
    if (rate == 1) {
        for (unsigned c = 0; c < 7; c++)
            compare_run(addr, n, rate, log2m, max, caps[c % 3], c / 3);
    } else {
        compare_run(addr, n, rate, log2m, max, caps[calls % 3], calls / 5 % 2);
        calls++;
    }
    free(got.r);
    free(p.out.r);
    p.out = (recs){0};
}

static uint64_t rng(uint64_t *s)
{
    if (!*s)
        *s = 0x9e37; /* (compare_run's seed may be 0) */
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* An address in page `page` with random offset, R/W in bit 63 (compare takes it from there). */
static uint64_t at(uint64_t page, uint64_t *seed)
{
    uint64_t x = rng(seed);
    return page << 12 | (x & 0xfff) | (x >> 63) << 63;
}

static const uint32_t rates[] = {1, 2, 4, 64, 4096, 65536};
/* rules: the header's, and tiny ones that make the rates double all through a stream */
static const struct {
    unsigned log2m;
    uint32_t max;
} rules[] = {{MT_SPATIAL_MAP_LOG2, MT_SPATIAL_SAMPLE_MAX}, {4, 3}, {4, 12}, {6, 20}};

static void compare_all(const uint64_t *addr, size_t n)
{
    for (size_t r = 0; r < sizeof rates / sizeof *rates; r++)
        for (size_t k = 0; k < sizeof rules / sizeof *rules; k++)
            compare(addr, n, rates[r], rules[k].log2m, rules[k].max);
}

/* Pages from a working set that grows: cycles of 2-5 pages (code, stack, data), jumps, repeats. */
static void test_random_streams(void **state)
{
    (void)state;
    enum { N = 40000 };
    uint64_t *a = malloc(N * sizeof *a), seed = 0x9e3779b97f4a7c15u;
    assert_non_null(a);
    for (unsigned round = 0; round < 4; round++) {
        uint64_t span = round == 0 ? 64 : round == 1 ? 4096 : round == 2 ? 1u << 20 : UINT64_C(1) << 44;
        uint64_t cyc[5] = {0};
        unsigned len = 2;
        for (size_t i = 0; i < N; i++) {
            uint64_t x = rng(&seed);
            if (x % 64 == 0) { /* a new cycle */
                len = 2 + (unsigned)(x >> 8) % 4;
                for (unsigned j = 0; j < len; j++)
                    cyc[j] = rng(&seed) % span;
            } else if (x % 64 == 1) {
                cyc[(x >> 8) % len] = (cyc[0] + ((x >> 16) % 1024)) % span; /* near the others */
            }
            a[i] = at(x % 16 == 2 ? rng(&seed) % span : cyc[i % len], &seed);
        }
        compare_all(a, N);
    }
    free(a);
}

/* Pages whose memo slot is the same (equal low 12 bits) and metapages whose bitmap bits collide
 * (equal hash bits 0..19 of the metapage: same keep decision and index at small rules). */
static void test_colliding_pages(void **state)
{
    (void)state;
    enum { N = 30000, SET = 24 };
    uint64_t set[SET], *a = malloc(N * sizeof *a), seed = 77;
    assert_non_null(a);
    /* memo slot collisions: one slot, pages far apart and 2 MiB apart */
    for (unsigned j = 0; j < SET; j++)
        set[j] = 0x80000 + (uint64_t)j * 4096 * (j % 2 ? 1 : 97);
    for (size_t i = 0; i < N; i++)
        a[i] = at(set[(i % 3 == 0 ? rng(&seed) : i) % (i % 1000 < 500 ? 3 : SET)], &seed);
    compare_all(a, N);
    /* hash collisions: 4 KiB pages whose hash agrees in bits 0..11 with page 0x80123's */
    uint32_t want = mt_spatial_hash32(0x80123) & 0xfff;
    unsigned found = 0;
    for (uint64_t p = 0x80000; found < SET && p < 0x80000 + (UINT64_C(1) << 24); p++)
        if ((mt_spatial_hash32(p) & 0xfff) == want)
            set[found++] = p;
    assert_int_equal(found, SET);
    for (size_t i = 0; i < N; i++)
        a[i] = at(set[rng(&seed) % (i < N / 2 ? 4 : SET)], &seed);
    compare_all(a, N);
    free(a);
}

/* The ends: RAM's first and last pages, page 0, the top of the 56-bit space (and bits above it,
 * which the filter ignores), neighbours across 2 MiB and 4 GiB lines; long alternations of two
 * pages (skipped where allowed) broken by a third. */
static void test_ends_and_alternations(void **state)
{
    (void)state;
    enum { N = 20000 };
    const uint64_t ram = 0x80000000u, ram_end = ram + (UINT64_C(256) << 20);
    const uint64_t pages[] = {0,
                              1,
                              ram >> 12,
                              (ram >> 12) + 1,
                              (ram_end >> 12) - 1,
                              (ram_end >> 12) - 2,
                              (ram + (UINT64_C(2) << 20)) >> 12,
                              ((ram + (UINT64_C(2) << 20)) >> 12) - 1,
                              (UINT64_C(1) << 44) - 1,
                              (UINT64_C(1) << 44) - 512,
                              (UINT64_C(1) << 20) - 1,
                              UINT64_C(1) << 20};
    const size_t np = sizeof pages / sizeof *pages;
    uint64_t *a = malloc(N * sizeof *a), seed = 5;
    assert_non_null(a);
    size_t i = 0;
    while (i < N) {
        uint64_t x = pages[rng(&seed) % np], y = pages[rng(&seed) % np], z = pages[rng(&seed) % np];
        unsigned steps = (unsigned)(rng(&seed) % 40);
        for (unsigned k = 0; k < steps && i < N; k++) {
            uint64_t page = k % 2 ? y : x;
            a[i++] = at(page, &seed) | (rng(&seed) % 8 == 0 ? UINT64_C(0xff) << 56 & ~(UINT64_C(1) << 63) : 0);
        }
        if (i < N)
            a[i++] = at(z, &seed);
    }
    compare_all(a, N);
    free(a);
}

/* The run loop's own edges at rate 1 (lib/mt_spatial.c run_rate1): neighbours that differ in
 * exactly bit k of the page for k = 0..13 (the record's mask is the sizes up to bit k: the ends
 * of the mask), pages that share a memo slot (the loop hands the page to access_page and takes
 * the next one back), long alternations that run on past a doubling (tiny rules: the steady
 * state ends mid-run), and a working set that grows past the rule's threshold. */
static void test_rate1_loop_edges(void **state)
{
    (void)state;
    enum { N = 40000 };
    uint64_t *a = malloc(N * sizeof *a), seed = 4242;
    assert_non_null(a);
    size_t i = 0;
    uint64_t base = 0x80000;
    while (i < N) {
        const unsigned kind = (unsigned)(rng(&seed) % 4), len = 2 + (unsigned)(rng(&seed) % 60);
        const uint64_t x = base + rng(&seed) % 4096, k = rng(&seed) % 14;
        for (unsigned j = 0; j < len && i < N; j++) {
            uint64_t page;
            if (kind == 0) /* x and its neighbour across bit k, alternating */
                page = j % 2 ? x ^ (UINT64_C(1) << k) : x;
            else if (kind == 1) /* one memo slot: pages 4096 apart */
                page = x + (rng(&seed) % 8) * 4096;
            else if (kind == 2) /* a walk through new pages */
                page = x + j;
            else /* three pages in turn, one of them new each time round */
                page = j % 3 == 2 ? base + rng(&seed) % 65536 : x + j % 3;
            a[i++] = at(page, &seed);
        }
        if (rng(&seed) % 32 == 0)
            base += 4096; /* the working set grows */
    }
    compare_all(a, N);
    free(a);
}

/* Rate 1 at 4 KiB after a larger size has doubled (its metapages' bitmap indices collide less
 * than the pages' own): the run loop's shortcut (every size keeps every metapage) no longer
 * holds although size 0 is still at rate 1, and the page memos made before the doubling are
 * stale.  Rule K = 4, T = 3: pages of one 48 KiB window (16 KiB aligned: three 16 KiB
 * metapages, sizes 2 and up never double) whose 4 KiB indices take at most 3 values while
 * their 8 KiB metapages' take 4 or more: size 1 doubles, no other.  The stream: each page once
 * (size 1 doubles on the way), an alternation of two pages size 1 still keeps, then a page seen
 * only before the doubling that size 1 no longer keeps (its memo stale), then a random walk. */
static int doubling_case(uint64_t base, unsigned pick, uint64_t *set, unsigned *n, uint64_t abp[3])
{
    uint32_t i0 = 0, i1 = 0; /* the index values taken, as bit sets */
    *n = 0;
    for (unsigned k = 0; k < 12; k++)
        if ((pick >> k) & 1) {
            i0 |= UINT32_C(1) << mt_spatial_map_index(base + k, 0, 4);
            i1 |= UINT32_C(1) << mt_spatial_map_index((base + k) >> 1, 0, 4);
            set[(*n)++] = base + k;
        }
    if (__builtin_popcount(i0) > 3 || __builtin_popcount(i1) < 4)
        return 0;
    static mt_spatial s;
    assert_int_equal(mt_spatial_init_rule(&s, 1, 4, 3, NULL, NULL), 0);
    unsigned before = 0; /* the pages accessed before the doubling */
    for (unsigned k = 0; k < *n; k++) {
        mt_spatial_access(&s, k, set[k] << 12, 0);
        if (!s.doublings)
            before = k + 1;
    }
    if (s.rate[0] != 1 || s.rate[1] != 2)
        return 0;
    unsigned na = 0;
    for (unsigned k = 0; k < *n && na < 2; k++) /* two pages size 1 keeps */
        if (!(mt_spatial_hash(set[k] >> 1) & 1))
            abp[na++] = set[k];
    for (unsigned k = 0; k < before && na == 2; k++) /* a page it no longer keeps, seen before */
        if ((mt_spatial_hash(set[k] >> 1) & 1) && (set[k] >> 1) != (abp[0] >> 1) && (set[k] >> 1) != (abp[1] >> 1)) {
            abp[2] = set[k];
            return 1;
        }
    return 0;
}

static void test_rate1_after_a_larger_size_doubles(void **state)
{
    (void)state;
    enum { N = 20000 };
    uint64_t set[12], abp[3], *a = malloc(N * sizeof *a), seed = 31;
    assert_non_null(a);
    unsigned found = 0;
    int ok = 0;
    for (uint64_t base = 0x80000; !ok && base < 0x80000 + 65536; base += 16)
        for (unsigned pick = 1; !ok && pick < (1u << 12); pick++)
            ok = doubling_case(base, pick, set, &found, abp);
    assert_true(ok);
    size_t i = 0;
    for (unsigned k = 0; k < found; k++)
        a[i++] = at(set[k], &seed);
    for (unsigned k = 0; k < 5; k++)
        a[i++] = at(abp[k % 2], &seed);
    a[i++] = at(abp[2], &seed);
    for (; i < N; i++) /* alternations and walks over the set */
        a[i] = at(set[i % 6 < 3 ? (i / 6 + i % 2) % found : rng(&seed) % found], &seed);
    compare(a, N, 1, 4, 3);
    static mt_spatial s;
    assert_int_equal(mt_spatial_init_rule(&s, 1, 4, 3, NULL, NULL), 0);
    for (i = 0; i < N; i++)
        mt_spatial_access(&s, i, a[i], 0);
    assert_int_equal(s.rate[0], 1); /* the case this test is for */
    assert_int_equal(s.rate[1], 2);
    free(a);
}

/* More distinct metapages than the header's threshold: the default rule doubles too. */
static void test_default_rule_doubles(void **state)
{
    (void)state;
    enum { N = 120000 };
    uint64_t *a = malloc(N * sizeof *a), seed = 99;
    assert_non_null(a);
    for (size_t i = 0; i < N; i++)
        a[i] = at(i % 3 == 0 ? 0x80000 + rng(&seed) % 65536 : 0x80000 + (i / 7) % 64, &seed);
    compare(a, N, 1, MT_SPATIAL_MAP_LOG2, MT_SPATIAL_SAMPLE_MAX);
    static mt_spatial s;
    assert_int_equal(mt_spatial_init(&s, 1, NULL, NULL), 0);
    for (size_t i = 0; i < N; i++)
        mt_spatial_access(&s, i, a[i], 0);
    assert_true(s.doublings > 0); /* the case this test is for */
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_streams),
        cmocka_unit_test(test_colliding_pages),
        cmocka_unit_test(test_ends_and_alternations),
        cmocka_unit_test(test_rate1_loop_edges),
        cmocka_unit_test(test_rate1_after_a_larger_size_doubles),
        cmocka_unit_test(test_default_rule_doubles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
