/* mt_enc_put_sample, the software encoder's one-pass compressor step, against the two-step
 * plan + commit the trace unit uses (the reference): the same bytes and the same compressor state
 * after every sample, on adversarial random streams (few distinct addresses so the history hits,
 * runs up to and past MT_RUN_MAX, skips up to and past MT_SKIP_MAX, deltas at every LEB length,
 * every format, plain mode), and a whole mt_swenc stream written both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mt_enc.h"
#include "mt_pkt.h"
#include "mt_swenc.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64*: deterministic, so a failure is reproducible from its seed */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

/* An address stream that exercises every op: repeats (runs), the three history entries, small
 * and large deltas both ways, and fresh values of every LEB length. */
static uint64_t next_addr(uint64_t prev, const uint64_t pool[4])
{
    switch (rnd() % 8) {
    case 0:
    case 1:
        return prev; /* a run */
    case 2:
        return pool[rnd() % 4]; /* history matches */
    case 3:
        return prev + (rnd() % 64) - 32;
    case 4:
        return prev + ((rnd() % 2) ? 1 : -1) * (rnd() & ((UINT64_C(1) << (rnd() % 60)) - 1));
    default:
        return rnd() >> (rnd() % 64);
    }
}

static uint64_t next_skip(void)
{
    switch (rnd() % 16) {
    case 0:
        return rnd() & MT_SKIP_MAX;
    case 1:
        return MT_SKIP_MAX + (rnd() % 3); /* clamped: only the plan/commit contract, not swenc's */
    case 2:
        return 1 + rnd() % 200;
    default:
        return 0;
    }
}

static void assert_same_state(const mt_enc *a, const mt_enc *b)
{
    assert_int_equal(a->hist_valid, b->hist_valid);
    for (int i = 0; i < 3; i++)
        if (a->hist_valid >> i & 1)
            assert_true(a->hist[i] == b->hist[i]);
    assert_int_equal(a->prev_valid, b->prev_valid);
    if (a->prev_valid) {
        assert_int_equal(a->prev_idx, b->prev_idx);
        assert_int_equal(a->prev_rw, b->prev_rw);
    }
    assert_int_equal(a->run_cnt, b->run_cnt);
    assert_int_equal(a->fmt, b->fmt);
    assert_int_equal(a->plain, b->plain);
}

static void run_stream(unsigned fmt, int plain, uint64_t seed, unsigned n)
{
    rng_state = seed;
    mt_enc ref = {.plain = (uint8_t)plain}, got = {.plain = (uint8_t)plain};
    mt_enc_reset(&ref, fmt);
    mt_enc_reset(&got, fmt);
    uint64_t pool[4] = {rnd(), rnd() >> 20, rnd() >> 40, 0x80001000};
    uint64_t a = pool[0];
    unsigned rw = 0;
    for (unsigned i = 0; i < n; i++) {
        a = next_addr(a, pool);
        if (rnd() % 64 == 0)
            pool[rnd() % 4] = a;
        if (rnd() % 8 == 0)
            rw ^= 1;
        const uint64_t skip = next_skip();
        mt_enc_plan p;
        mt_enc_plan_sample(&ref, a, rw | (unsigned)(rnd() & 2) /* only bit 0 counts */, skip, &p);
        mt_enc_commit(&ref, &p);
        uint8_t out[MT_PKT_MAX];
        memset(out, 0xEE, sizeof out);
        const unsigned len = mt_enc_put_sample(&got, a, rw | (unsigned)(rng_state & 2), skip, out);
        assert_int_equal(len, p.len);
        assert_memory_equal(out, p.bytes, len);
        assert_same_state(&ref, &got);
        if (rnd() % 500 == 0) { /* a SYNC or SECTION: the run flushed, the history reset */
            uint8_t r1[MT_PKT_MAX], r2[MT_PKT_MAX];
            assert_int_equal(mt_enc_flush_run(&ref, r1), mt_enc_flush_run(&got, r2));
            mt_enc_reset(&ref, fmt);
            mt_enc_reset(&got, fmt);
        }
    }
}

static void test_put_sample_equals_plan_commit(void **state)
{
    (void)state;
    for (unsigned fmt = 0; fmt < 4; fmt++)
        for (int plain = 0; plain < 2; plain++)
            for (uint64_t seed = 1; seed <= 20; seed++)
                run_stream(fmt, plain, seed * 0x9E3779B97F4A7C15ull + fmt * 2 + (unsigned)plain, 20000);
}

/* The table-driven LEB length against the arithmetic one at every bit length and its edges. */
static void test_leb_len_fast(void **state)
{
    (void)state;
    for (unsigned b = 0; b < 64; b++) {
        const uint64_t v = UINT64_C(1) << b;
        const uint64_t probe[] = {v, v - 1, v + 1, v | (v - 1), v | (v >> 1)};
        for (unsigned i = 0; i < 5; i++)
            assert_int_equal(mt_leb_len_fast(probe[i]), mt_leb_len(probe[i]));
    }
    assert_int_equal(mt_leb_len_fast(0), 1);
    assert_int_equal(mt_leb_len_fast(UINT64_MAX), 10);
}

/* Long runs: a run stops at MT_RUN_MAX and the next sample carries it. */
static void test_put_sample_run_limit(void **state)
{
    (void)state;
    mt_enc ref = {0}, got = {0};
    mt_enc_reset(&ref, MT_FMT_FULL);
    mt_enc_reset(&got, MT_FMT_FULL);
    for (unsigned i = 0; i < 3 * MT_RUN_MAX + 7; i++) {
        mt_enc_plan p;
        mt_enc_plan_sample(&ref, 0x80000040, 1, 0, &p);
        mt_enc_commit(&ref, &p);
        uint8_t out[MT_PKT_MAX];
        assert_int_equal(mt_enc_put_sample(&got, 0x80000040, 1, 0, out), p.len);
        assert_memory_equal(out, p.bytes, p.len);
        assert_same_state(&ref, &got);
    }
}

/* mt_swenc's stream (batched, as the every-access recorder writes it, and unbatched) against the
 * same stream built from plan + commit by hand: SYNC/SECTION pairs every sync period, runs flushed
 * before them. */
static uint8_t sink_buf[2][1 << 20];
static size_t sink_len[2];

static void sink(void *ctx, const uint8_t *p, size_t n)
{
    size_t k = (size_t)(uintptr_t)ctx;
    assert_true(sink_len[k] + n <= sizeof sink_buf[k]);
    memcpy(sink_buf[k] + sink_len[k], p, n);
    sink_len[k] += n;
}

static void test_swenc_batched_equals_unbatched(void **state)
{
    (void)state;
    mt_swenc *s[2];
    for (size_t k = 0; k < 2; k++) {
        s[k] = calloc(1, sizeof *s[k]);
        mt_swenc_init(s[k], 4096, sink, (void *)(uintptr_t)k);
        sink_len[k] = 0;
        assert_int_equal(mt_swenc_section(s[k], 0, MT_FMT_FULL, 1, 100), 0);
    }
    mt_swenc_batch(s[0]);
    rng_state = 77;
    uint64_t pool[4] = {0x80000000, 0x80200000, 0x87ff0000, 0x10000000};
    uint64_t a = pool[0], cycle = 100;
    for (unsigned i = 0; i < 200000; i++) {
        a = next_addr(a, pool) & ((UINT64_C(1) << 56) - 1);
        unsigned rw = (unsigned)(rnd() & 1);
        for (size_t k = 0; k < 2; k++)
            assert_int_equal(mt_swenc_sample(s[k], cycle, a, rw), 0);
        cycle += 1 + (rnd() % 4 == 0 ? rnd() % 1000 : 0);
        if (rnd() % 20000 == 0)
            for (size_t k = 0; k < 2; k++)
                assert_int_equal(mt_swenc_marker(s[k], (uint32_t)i), 0);
    }
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(mt_swenc_end(s[k]), 0);
        mt_swenc_flush(s[k]);
    }
    assert_int_equal(sink_len[0], sink_len[1]);
    assert_memory_equal(sink_buf[0], sink_buf[1], sink_len[0]);
    assert_true(s[0]->bytes == sink_len[0] && s[0]->samples == 200000);
    free(s[0]);
    free(s[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_sample_equals_plan_commit),
        cmocka_unit_test(test_leb_len_fast),
        cmocka_unit_test(test_put_sample_run_limit),
        cmocka_unit_test(test_swenc_batched_equals_unbatched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
