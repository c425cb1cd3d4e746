/* Span reconstruction on a hand-made trace: the seed's method exactly as section 3.3 says, and
 * the gigabyte method's replay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "host/reconstruct.h"

#define PG(p) ((uint64_t)(p) << 12)

/* Burst (rate 24) at 0, 24, 48: pages 0x80010 R, 0x80020 W, 0x80030 R (gigabyte 2).
 * Span (rate 100) from 72: a 32-bit sample at 72 and one at 272, both naming gigabyte 2.
 * Seed: a_b = median = 0x80020; offsets -0x10 R, 0 W, +0x10 R; a'_b = 2 << 18 = 0x80000.
 *   sample at 72, interval [72, 172), output every 24 on the span's grid 72 + 24m:
 *     72: 0x7fff0 R, 96: 0x80000 W, 120: 0x80010 R, 144: 0x7fff0 R (repeat), 168: 0x80000 W
 *   sample at 272, interval [272, 372): grid points 288, 312, 336, 360, restarting at o_1:
 *     288: 0x7fff0 R, 312: 0x80000 W, 336: 0x80010 R, 360: 0x7fff0 R
 *   4 of the 9 land in gigabyte 1, below the one the span names.
 * Gigabyte: within-gigabyte offsets 0x10 R, 0x20 W, 0x30 R, the replay continuing:
 *     72: 0x80010, 96: 0x80020, 120: 0x80030, 144: 0x80010, 168: 0x80020,
 *     288: 0x80030, 312: 0x80010, 336: 0x80020, 360: 0x80030 */
static ht_record trace[8];

static void build(void)
{
    trace[0] = (ht_record){.cycle = 0, .kind = HT_REC_SECTION, .section = HT_SEC_BURST, .format = HT_FMT_48, .value = 24};
    trace[1] = (ht_record){.cycle = 0, .addr = PG(0x80010), .kind = HT_REC_SAMPLE, .format = HT_FMT_48};
    trace[2] = (ht_record){.cycle = 24, .addr = PG(0x80020), .kind = HT_REC_SAMPLE, .format = HT_FMT_48, .write = 1};
    trace[3] = (ht_record){.cycle = 48, .addr = PG(0x80030), .kind = HT_REC_SAMPLE, .format = HT_FMT_48};
    trace[4] = (ht_record){.cycle = 72, .kind = HT_REC_SECTION, .section = HT_SEC_SPAN, .format = HT_FMT_32, .value = 100};
    trace[5] = (ht_record){.cycle = 72, .addr = UINT64_C(2) << 30, .kind = HT_REC_SAMPLE, .format = HT_FMT_32, .section = HT_SEC_SPAN, .write = 1};
    trace[6] = (ht_record){.cycle = 272, .addr = UINT64_C(2) << 30, .kind = HT_REC_SAMPLE, .format = HT_FMT_32, .section = HT_SEC_SPAN};
    trace[7] = (ht_record){.cycle = 400, .kind = HT_REC_MARKER, .value = 7};
}

typedef struct {
    ht_record r[64];
    int n;
} sink;

static int collect(void *ctx, const ht_record *r)
{
    sink *s = ctx;
    if (s->n < 64)
        s->r[s->n++] = *r;
    return 0;
}

static void run(rc_method m, sink *out, rc_stats *st)
{
    build();
    ht_source *src = ht_array_source(trace, 8, "hand");
    rc_config c;
    rc_defaults(&c);
    c.method = m;
    char err[256];
    out->n = 0;
    assert_int_equal(reconstruct_run(src, &c, collect, out, st, err, sizeof err), 0);
    ht_close(src);
}

static void check_span(const sink *s, const uint64_t *cyc, const uint64_t *pages, const int *rw, int n)
{
    int k = 0;
    for (int i = 0; i < s->n; i++) {
        const ht_record *r = &s->r[i];
        if (r->kind != HT_REC_SAMPLE || r->section != HT_SEC_SPAN)
            continue;
        assert_true(k < n);
        assert_int_equal(r->cycle, cyc[k]);
        assert_int_equal(r->addr, PG(pages[k]));
        assert_int_equal(r->write, rw[k]);
        assert_int_equal(r->format, HT_FMT_48);
        k++;
    }
    assert_int_equal(k, n);
}

static const uint64_t cycles[9] = {72, 96, 120, 144, 168, 288, 312, 336, 360};

static void test_seed_method(void **state)
{
    (void)state;
    sink s;
    rc_stats st;
    run(RC_SEED, &s, &st);
    const uint64_t pages[9] = {0x7fff0, 0x80000, 0x80010, 0x7fff0, 0x80000, 0x7fff0, 0x80000, 0x80010, 0x7fff0};
    const int rw[9] = {0, 1, 0, 0, 1, 0, 1, 0, 0};
    check_span(&s, cycles, pages, rw, 9);
    assert_int_equal(st.bursts, 1);
    assert_int_equal(st.spans, 1);
    assert_int_equal(st.span_samples, 2);
    assert_int_equal(st.outside_gigabyte, 4);
    assert_int_equal(st.out_samples, 3 + 9);
    /* the burst is copied and the marker passes through */
    int bursts = 0, markers = 0;
    for (int i = 0; i < s.n; i++) {
        bursts += s.r[i].kind == HT_REC_SAMPLE && s.r[i].section == HT_SEC_BURST;
        markers += s.r[i].kind == HT_REC_MARKER;
    }
    assert_int_equal(bursts, 3);
    assert_int_equal(markers, 1);
}

static void test_gigabyte_method(void **state)
{
    (void)state;
    sink s;
    rc_stats st;
    run(RC_GIGABYTE, &s, &st);
    const uint64_t pages[9] = {0x80010, 0x80020, 0x80030, 0x80010, 0x80020, 0x80030, 0x80010, 0x80020, 0x80030};
    const int rw[9] = {0, 1, 0, 0, 1, 0, 0, 1, 0};
    check_span(&s, cycles, pages, rw, 9);
    assert_int_equal(st.outside_gigabyte, 0);
}

/* A span sample naming a gigabyte the burst never touched replays the whole burst there. */
static void test_gigabyte_not_in_burst(void **state)
{
    (void)state;
    build();
    trace[5].addr = UINT64_C(5) << 30;
    ht_source *src = ht_array_source(trace, 7, "hand");
    rc_config c;
    rc_defaults(&c);
    c.method = RC_BRACKET;
    sink s = {.n = 0};
    rc_stats st;
    char err[256];
    assert_int_equal(reconstruct_run(src, &c, collect, &s, &st, err, sizeof err), 0);
    ht_close(src);
    for (int i = 0; i < s.n; i++)
        if (s.r[i].kind == HT_REC_SAMPLE && s.r[i].section == HT_SEC_SPAN && s.r[i].cycle < 200)
            assert_int_equal(s.r[i].addr >> 30, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_method),
        cmocka_unit_test(test_gigabyte_method),
        cmocka_unit_test(test_gigabyte_not_in_burst),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
