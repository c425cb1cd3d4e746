/* The unit's spatial front end (lib/mt_unit_spatial.[ch]; the RTL's mt_tu_spatial.sv is held to
 * it by mt_cosim --spatial): with accesses far enough apart that none is lost, its records are
 * lib/mt_spatial's (the library's rule at fixed rates) for every N; through the unit, each record
 * is a SAMPLE of the full format at the cycle it leaves the front end; an access during a pass is
 * lost and counted; the SPATIAL register. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mt_dec.h"
#include "mt_spatial.h"
#include "mt_unit.h"
#include "mt_unit_spatial.h"

#include "lib_testutil.h"

typedef struct {
    uint64_t page;
    unsigned rw, mask;
} rec_t;

typedef struct {
    rec_t r[8192];
    size_t n;
} recs;

static void lib_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    (void)cycle;
    recs *v = ctx;
    assert_true(v->n < 8192);
    v->r[v->n++] = (rec_t){page, rw, mask};
}

/* Accesses every `gap` clocks (>= 23: a replay's pass, the clock between and the new page's pass
 * end before the next access) through the front end and through mt_spatial: the same records. */
static uint64_t alt_skipped_total;

static void check_equal_to_library(unsigned lg2n, uint64_t seed, unsigned n_acc)
{
    static recs lib, unit;
    lib.n = unit.n = 0;
    mt_spatial sp;
    assert_int_equal(mt_spatial_init(&sp, 1u << lg2n, lib_sink, &lib), 0);
    mt_unit_spatial f;
    memset(&f, 0, sizeof f);
    mt_usp_start(&f, lg2n);
    /* pages from a pool small enough that no size of mt_spatial ever doubles its rate */
    uint64_t s = seed, pool[64], last, prev;
    for (int i = 0; i < 64; i++)
        pool[i] = 0x80000 + tu_xorshift(&s) % 3000;
    last = pool[0];
    prev = pool[1];
    for (unsigned k = 0; k < n_acc; k++) {
        uint64_t page = tu_next_page(&s, &last, &prev, pool);
        mt_access a = {.addr = page << 12 | (tu_xorshift(&s) & 0xFFF), .write = (uint8_t)(tu_xorshift(&s) & 1), .kind = 1};
        mt_spatial_access(&sp, 1000 + 25 * (uint64_t)k, a.addr, a.write);
        for (unsigned c = 0; c < 25; c++) {
            mt_access out;
            if (mt_usp_clock(&f, c == 0 ? &a : NULL, &out)) {
                assert_true(unit.n < 8192);
                unit.r[unit.n++] = (rec_t){out.addr >> 12, out.write, (unsigned)(out.addr & 0x3FF)};
                assert_int_equal(out.addr & 0xC00, 0);
            }
        }
    }
    assert_int_equal(f.lost, 0);
    assert_int_equal(sp.doublings, 0);
    alt_skipped_total += sp.alt_skipped;
    assert_int_equal(unit.n, lib.n);
    for (size_t i = 0; i < lib.n; i++) {
        assert_int_equal(unit.r[i].page, lib.r[i].page);
        assert_int_equal(unit.r[i].mask, lib.r[i].mask);
        assert_int_equal(unit.r[i].rw, lib.r[i].rw);
    }
    if (lg2n <= 8) /* (at larger N few of the pool's metapages are kept) */
        assert_true(lib.n > 100);
}

static void test_front_end_equals_library(void **state)
{
    (void)state;
    static const unsigned lgs[] = {0, 1, 2, 4, 8, 9, 10, 12, 16};
    for (unsigned i = 0; i < sizeof lgs / sizeof lgs[0]; i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            check_equal_to_library(lgs[i], seed * 7919 + lgs[i], 3000);
    assert_true(alt_skipped_total > 1000); /* (the streams have settled alternations, and replays) */
}

/* Through the unit: one burst section at r = 1 in the full format; each record is a SAMPLE whose
 * value is the record and whose cycle is the clock it left the front end. */
typedef struct {
    uint64_t cycle[4096], value[4096];
    unsigned rw[4096];
    size_t n;
    unsigned other; /* OVERFLOW and LOSS events */
} samples;

static void dec_cb(void *ctx, const mt_dec_event *ev)
{
    samples *s = ctx;
    if (ev->type == MT_DEV_SAMPLE) {
        assert_true(s->n < 4096);
        assert_int_equal(ev->fmt, MT_FMT_FULL);
        s->cycle[s->n] = ev->cycle;
        s->value[s->n] = ev->addr;
        s->rw[s->n++] = ev->rw;
    } else if (ev->type == MT_DEV_OVERFLOW || ev->type == MT_DEV_LOSS) {
        s->other++;
    }
}

static void stream_sink(void *ctx, const uint8_t *p, size_t n)
{
    mt_dec_feed(ctx, p, n);
}

static void program(mt_unit *u, uint64_t *t, uint32_t spatial)
{
    static const uint32_t prog[][2] = {{MT_REG_FMT, 0x22}, {MT_REG_RATE_H, 1}, {MT_REG_LEN_H_LO, 0},
                                       {MT_REG_LEN_H_HI, 0}, {MT_REG_LEN_L_LO, 0}, {MT_REG_LEN_L_HI, 0}};
    for (unsigned i = 0; i < 6; i++)
        mt_unit_mmio_write(u, (*t)++, prog[i][0], prog[i][1]);
    mt_unit_mmio_write(u, (*t)++, MT_REG_SPATIAL, spatial);
    mt_unit_mmio_write(u, (*t)++, MT_REG_CTRL, MT_CTRL_ENABLE);
}

static void test_unit_writes_records_as_samples(void **state)
{
    (void)state;
    static samples got;
    static recs want;
    got.n = got.other = 0;
    want.n = 0;
    mt_dec d;
    mt_dec_init(&d, dec_cb, &got);
    mt_unit u;
    mt_unit_params p = {.sink = stream_sink, .sink_ctx = &d};
    assert_int_equal(mt_unit_init(&u, &p), 0);
    mt_unit_spatial f; /* the front end alone, for the records and their clocks */
    memset(&f, 0, sizeof f);
    mt_usp_start(&f, 3);
    uint64_t t = 0, s = 99, pool[64], last, prev, rec_cycle[4096];
    program(&u, &t, MT_SPATIAL_EN | 3u << MT_SPATIAL_LG2N_SHIFT);
    for (int i = 0; i < 64; i++)
        pool[i] = 0x80000 + tu_xorshift(&s) % 500;
    last = pool[0];
    prev = pool[1];
    t += 10;
    for (unsigned k = 0; k < 1500; k++, t += 30) {
        uint64_t page = tu_next_page(&s, &last, &prev, pool);
        mt_access a = {.cycle = t, .addr = page << 12 | 0x18, .write = (uint8_t)(k % 3 == 0), .kind = 1};
        mt_unit_access(&u, &a);
        for (unsigned c = 0; c < 30; c++) {
            mt_access out;
            if (mt_usp_clock(&f, c == 0 ? &a : NULL, &out)) {
                rec_cycle[want.n] = t + c;
                want.r[want.n++] = (rec_t){out.addr, out.write, 0};
            }
        }
    }
    mt_unit_stop(&u, t);
    mt_dec_finish(&d);
    assert_int_equal(got.other, 0);
    assert_true(want.n > 200);
    assert_int_equal(got.n, want.n);
    for (size_t i = 0; i < want.n; i++) {
        assert_int_equal(got.value[i], want.r[i].page); /* (page holds the record's address here) */
        assert_int_equal(got.rw[i], want.r[i].rw);
        assert_int_equal(got.cycle[i], rec_cycle[i]);
    }
    assert_int_equal(u.sp.lost, 0);
    mt_unit_free(&u);
}

/* A new page 3 clocks after another comes during its pass: lost and counted; the next page after
 * the pass is taken; a repeat of the last page during a pass is not a loss. */
static void test_lost_during_a_pass(void **state)
{
    (void)state;
    mt_unit_spatial f;
    memset(&f, 0, sizeof f);
    mt_usp_start(&f, 0);
    mt_access a = {.addr = 0x80000000}, b = {.addr = 0x80005000}, out;
    unsigned recs_at[64], n = 0;
    for (unsigned c = 0; c < 40; c++) {
        const mt_access *in = c == 0 ? &a : c == 3 ? &b : c == 5 ? &a : c == 20 ? &b : NULL;
        if (mt_usp_clock(&f, in, &out))
            recs_at[n++] = c;
    }
    assert_int_equal(f.lost, 1);
    assert_int_equal(f.taken, 2);
    assert_int_equal(n, 2);
    assert_int_equal(recs_at[0], 11); /* a pass of 10 clocks, then the record */
    assert_int_equal(recs_at[1], 31);
}

static void test_register(void **state)
{
    (void)state;
    mt_unit u;
    assert_int_equal(mt_unit_init(&u, NULL), 0);
    assert_int_equal(mt_unit_mmio_read(&u, 0, MT_REG_SPATIAL), 0);
    mt_unit_mmio_write(&u, 1, MT_REG_SPATIAL, 0xFFFFFFFFu);
    assert_int_equal(mt_unit_mmio_read(&u, 2, MT_REG_SPATIAL), 1u | 16u << 8); /* log2 N clamped to 16 */
    mt_unit_mmio_write(&u, 3, MT_REG_SPATIAL, 5u << 8);
    assert_int_equal(mt_unit_mmio_read(&u, 4, MT_REG_SPATIAL), 5u << 8);
    mt_unit_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front_end_equals_library),
        cmocka_unit_test(test_unit_writes_records_as_samples),
        cmocka_unit_test(test_lost_during_a_pass),
        cmocka_unit_test(test_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
