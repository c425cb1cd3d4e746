/* The unit's reduce mode (lib/mt_unit_rd.c; the RTL's mt_tu_rdpath.sv is held to it by
 * mt_cosim --reduce): through the unit, the reduce path's records are SAMPLEs of the full format,
 * in order, the same records as the path alone (lib/mt_unit_reduce) given the same accesses, and
 * with nothing lost or forced the same as lib/mt_reduce's; the accesses of the bucket clear are
 * lost and counted; the session's stop waits for the flush (ACTIVE stays 1, the END follows the
 * last record); a record queue that fills sends its head to a busy hold (DROPPED counts it); the
 * REDUCE register. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mt_dec.h"
#include "mt_reduce.h"
#include "mt_unit.h"
#include "mt_unit_reduce.h"

#include "lib_testutil.h"

#define MAXR 65536

typedef struct {
    uint64_t page[MAXR], clock[MAXR];
    unsigned rw[MAXR], mask[MAXR];
    size_t n;
} recs;

static void lib_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    (void)cycle;
    recs *v = ctx;
    assert_true(v->n < MAXR);
    v->page[v->n] = page;
    v->rw[v->n] = rw;
    v->mask[v->n++] = mask;
}

/* The stream's samples, and the END's counts. */
typedef struct {
    recs r;
    unsigned other; /* OVERFLOW and LOSS events */
    uint64_t end_samples, end_dropped;
    int ended;
} stream_t;

static void dec_cb(void *ctx, const mt_dec_event *ev)
{
    stream_t *s = ctx;
    if (ev->type == MT_DEV_SAMPLE) {
        assert_true(s->r.n < MAXR);
        assert_int_equal(ev->fmt, MT_FMT_FULL);
        s->r.page[s->r.n] = ev->addr >> 12;
        s->r.mask[s->r.n] = (unsigned)(ev->addr & 0xFFF);
        s->r.clock[s->r.n] = ev->cycle;
        s->r.rw[s->r.n++] = ev->rw;
    } else if (ev->type == MT_DEV_OVERFLOW || ev->type == MT_DEV_LOSS) {
        s->other++;
    } else if (ev->type == MT_DEV_END) {
        s->ended = 1;
        s->end_samples = ev->value;
        s->end_dropped = ev->count;
    }
}

static void stream_sink(void *ctx, const uint8_t *p, size_t n)
{
    mt_dec_feed(ctx, p, n);
}

/* A unit whose stream goes to a decoder collecting into *got (cleared): p's FIFO depth and drain
 * as given, its sink set here. */
static void open_unit(mt_unit *u, mt_dec *d, stream_t *got, mt_unit_params p)
{
    memset(got, 0, sizeof *got);
    mt_dec_init(d, dec_cb, got);
    p.sink = stream_sink;
    p.sink_ctx = d;
    assert_int_equal(mt_unit_init(u, &p), 0);
}

/* One burst section at r = 1 in the full format, REDUCE as given, enabled: returns the session's
 * first cycle. */
static uint64_t program(mt_unit *u, uint64_t *t, uint32_t reduce)
{
    static const uint32_t prog[][2] = {{MT_REG_FMT, 0x22}, {MT_REG_RATE_H, 1}, {MT_REG_LEN_H_LO, 0},
                                       {MT_REG_LEN_H_HI, 0}, {MT_REG_LEN_L_LO, 0}, {MT_REG_LEN_L_HI, 0}};
    for (unsigned i = 0; i < 6; i++)
        mt_unit_mmio_write(u, (*t)++, prog[i][0], prog[i][1]);
    mt_unit_mmio_write(u, (*t)++, MT_REG_REDUCE, reduce);
    mt_unit_mmio_write(u, (*t)++, MT_REG_CTRL, MT_CTRL_ENABLE);
    return *t;
}

/* A stream through the unit at budget 4K << lgk, accesses `gap` cycles apart; the same accesses
 * through the path alone (W, Q and the bucket clear as in the unit) and through mt_reduce. */
static void check_stream(unsigned lgk, uint64_t seed, unsigned n, unsigned gap, int expect_exact)
{
    static stream_t got;
    static recs alone, lib;
    alone.n = lib.n = 0;
    mt_dec d;
    mt_unit u;
    open_unit(&u, &d, &got, (mt_unit_params){.depth = 65536});
    uint64_t t = 0, s = seed, pool[64], last, prev;
    const uint64_t first = program(&u, &t, MT_REDUCE_EN | lgk << MT_REDUCE_LGK_SHIFT);
    mt_unit_reduce m;
    mt_reduce r;
    assert_int_equal(mt_urd_init(&m, UINT64_C(4096) << lgk, MT_UNIT_REDUCE_W, MT_UNIT_REDUCE_Q, lib_sink, &alone), 0);
    m.ready_at = first + 1 + mt_urd_buckets(&m);
    assert_int_equal(mt_reduce_init(&r, UINT64_C(4096) << lgk, lib_sink, &lib), 0);
    for (int i = 0; i < 64; i++)
        pool[i] = 0x80000 + tu_xorshift(&s) % (64u << lgk);
    last = pool[0];
    prev = pool[1];
    t = m.ready_at; /* (after the clear: no access lost to it) */
    for (unsigned k = 0; k < n; k++, t += gap) {
        uint64_t page = tu_next_page(&s, &last, &prev, pool);
        mt_access a = {.cycle = t, .addr = page << 12 | 0x18, .write = (uint8_t)(k % 3 == 0), .kind = 1};
        mt_unit_access(&u, &a);
        if (mt_urd_access(&m, t, a.addr, a.write))
            mt_reduce_access(&r, t, a.addr, a.write);
    }
    mt_unit_stop(&u, t);
    mt_dec_finish(&d);
    mt_urd_finish(&m);
    mt_reduce_finish(&r);
    assert_true(got.ended);
    assert_int_equal(got.other, 0);
    assert_int_equal(got.end_dropped, 0);
    assert_int_equal(u.rd.lost, m.lost);
    assert_int_equal(got.r.n, alone.n);
    assert_int_equal(got.end_samples, alone.n);
    for (size_t i = 0; i < alone.n; i++) {
        assert_int_equal(got.r.page[i], alone.page[i]);
        assert_int_equal(got.r.mask[i], alone.mask[i]);
        assert_int_equal(got.r.rw[i], alone.rw[i]);
        if (i)
            assert_true(got.r.clock[i] >= got.r.clock[i - 1] + MT_UNIT_PACE);
    }
    if (expect_exact) { /* nothing lost or forced: mt_reduce's records */
        assert_int_equal(m.lost, 0);
        assert_int_equal(m.forced, 0);
        assert_int_equal(got.r.n, lib.n);
        for (size_t i = 0; i < lib.n; i++) {
            assert_int_equal(got.r.page[i], lib.page[i]);
            assert_int_equal(got.r.mask[i], lib.mask[i]);
            assert_int_equal(got.r.rw[i], lib.rw[i]);
        }
    }
    assert_true(alone.n > 50);
    mt_urd_free(&m);
    mt_reduce_free(&r);
    mt_unit_free(&u);
}

static void test_unit_records_are_the_paths(void **state)
{
    (void)state;
    static const unsigned lgks[] = {0, 1, 3, 6};
    for (unsigned i = 0; i < 4; i++) {
        check_stream(lgks[i], 11 + i, 2000, 400, 0);    /* sparse */
        check_stream(lgks[i], 101 + i, 3000, 3, 0);     /* every 3 cycles: lost, forced */
    }
}

static void test_unit_exact_when_nothing_lost(void **state)
{
    (void)state;
    /* 1000 cycles apart: the queue never fills and no pending reference outlives the window's
     * 64 references at B = 4K..16K (k_0 <= 4 metapages) */
    check_stream(0, 5, 1500, 1000, 1);
    check_stream(2, 6, 1500, 1000, 1);
}

/* An access before the buckets are cleared (2 (k_0 + ... + k_9) clocks from the session's second
 * cycle) is lost; the first after is taken. */
static void test_clear_loses_accesses(void **state)
{
    (void)state;
    mt_unit u;
    assert_int_equal(mt_unit_init(&u, NULL), 0);
    uint64_t t = 0;
    const uint64_t first = program(&u, &t, MT_REDUCE_EN | 2u << MT_REDUCE_LGK_SHIFT);
    /* k = 4, 2, 1, 1, ...: 4 + 2 + 8 = 14 entries, 28 buckets */
    const uint64_t ready = first + 1 + 28;
    mt_access a = {.cycle = ready - 1, .addr = 0x80000000, .kind = 1};
    mt_unit_access(&u, &a);
    a.cycle = ready;
    a.addr = 0x80005000;
    mt_unit_access(&u, &a);
    mt_unit_advance(&u, ready + 1);
    assert_int_equal(u.rd.lost, 1);
    assert_int_equal(u.rd.accesses, 2);
    assert_int_equal(u.rd.refs + u.rd.qnum, 1);
    mt_unit_free(&u);
}

/* The stop waits for the flush: ACTIVE stays set until the path is idle and its records out; the
 * END then follows them (its count is theirs).  B = 16K (k = 4, 2, 1, ...): x y z x, the last x a
 * hit at 4K (pending until the flush keeps it) and a miss above. */
static void test_stop_waits_for_flush(void **state)
{
    (void)state;
    static stream_t got;
    mt_dec d;
    mt_unit u;
    open_unit(&u, &d, &got, (mt_unit_params){0});
    uint64_t t = 0;
    program(&u, &t, MT_REDUCE_EN | 2u << MT_REDUCE_LGK_SHIFT); /* 28 buckets */
    t += 40;
    static const uint64_t pages[] = {0x80000, 0x80010, 0x80020, 0x80000};
    for (unsigned k = 0; k < 4; k++, t += 100) {
        mt_access a = {.cycle = t, .addr = pages[k] << 12, .kind = 1};
        mt_unit_access(&u, &a);
    }
    mt_unit_mmio_write(&u, t, MT_REG_CTRL, 0);
    assert_true(mt_unit_mmio_read(&u, t + 2, MT_REG_STATUS) & MT_STATUS_ACTIVE);
    const uint64_t idle = mt_unit_stop(&u, t + 2);
    mt_dec_finish(&d);
    assert_true(got.ended);
    assert_int_equal(got.r.n, 4);
    assert_int_equal(got.end_samples, 4);
    assert_int_equal(got.r.page[3], 0x80000);
    assert_int_equal(got.r.mask[3] & 1, 1); /* kept at 4K by the flush */
    assert_true(got.r.clock[3] > t);        /* after the stop was asked */
    assert_true(idle > got.r.clock[3]);
    assert_false(mt_unit_mmio_read(&u, idle, MT_REG_STATUS) & (MT_STATUS_ACTIVE | MT_STATUS_BUSY));
    mt_unit_free(&u);
}

/* A small, slow FIFO (32 bytes, drain 1) kept full by MARKER writes: records are dropped (no room
 * when the hold's sample competes, the hold busy, or the record queue full), and every record is
 * either in the stream or counted in the END's dropped count. */
static void test_drops_are_counted(void **state)
{
    (void)state;
    static stream_t got;
    mt_dec d;
    mt_unit u;
    open_unit(&u, &d, &got, (mt_unit_params){.depth = 32, .drain = 1});
    uint64_t t = 0, s = 77;
    program(&u, &t, MT_REDUCE_EN);
    t += 40;
    for (unsigned k = 0; k < 20000; k++, t += 2) {
        mt_access a = {.cycle = t, .addr = (0x80000 + tu_xorshift(&s) % 4096) << 12, .kind = 1};
        mt_unit_access(&u, &a);
        if (k % 4 == 0)
            mt_unit_mmio_write(&u, t + 1, MT_REG_MARKER, k);
    }
    mt_unit_stop(&u, t);
    mt_dec_finish(&d);
    assert_true(got.ended);
    assert_true(got.end_dropped > 0);
    assert_int_equal(got.end_samples, got.r.n);
    assert_int_equal(got.end_samples + got.end_dropped, u.rd.records);
    mt_unit_free(&u);
}

static void test_register(void **state)
{
    (void)state;
    mt_unit u;
    assert_int_equal(mt_unit_init(&u, NULL), 0);
    assert_int_equal(mt_unit_mmio_read(&u, 0, MT_REG_REDUCE), 0);
    mt_unit_mmio_write(&u, 1, MT_REG_REDUCE, 0xFFFFFFFFu);
    assert_int_equal(mt_unit_mmio_read(&u, 2, MT_REG_REDUCE), 1u | 10u << 8); /* log2 k_0 clamped to 10 */
    mt_unit_mmio_write(&u, 3, MT_REG_REDUCE, 5u << 8);
    assert_int_equal(mt_unit_mmio_read(&u, 4, MT_REG_REDUCE), 5u << 8);
    mt_unit_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_records_are_the_paths),
        cmocka_unit_test(test_unit_exact_when_nothing_lost),
        cmocka_unit_test(test_clear_loses_accesses),
        cmocka_unit_test(test_stop_waits_for_flush),
        cmocka_unit_test(test_drops_are_counted),
        cmocka_unit_test(test_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
