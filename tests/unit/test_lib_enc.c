/* mt_enc_put_sample, the software encoder's one-pass compressor step, against the two-step
 * plan + commit the trace unit uses (the reference): the same bytes and the same compressor state
 * after every sample, on adversarial random streams (few distinct addresses so the history hits,
 * runs up to and past MT_RUN_MAX, skips up to and past MT_SKIP_MAX, deltas at every LEB length,
 * every format, plain mode), a whole mt_swenc stream written both ways, and mt_swenc_samples (the
 * every-access recorder's batch loop) against one mt_swenc_sample per sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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
static uint8_t sink_buf[2][4 << 20];
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

/* mt_swenc_samples against one mt_swenc_sample per sample: the same bytes, output marks, refusals
 * and state, on streams cut into batches of random length, with the smallest SYNC period (SYNCs
 * inside batches), runs past MT_RUN_MAX, skips up to MT_SKIP_MAX and one past it, samples before
 * the last (refused), markers between batches (their bytes may make a SYNC due at an absorbed
 * sample), and sections at rate 1 and 3 and in another format (the general loop). */
static mt_unit_mark marks[2][16384];
static size_t nmarks[2];

static void on_mark(void *ctx, const mt_unit_mark *m)
{
    size_t k = (size_t)(uintptr_t)ctx;
    assert_true(nmarks[k] < 16384);
    marks[k][nmarks[k]++] = *m;
}

static void assert_same_swenc(const mt_swenc *a, const mt_swenc *b)
{
    assert_same_state(&a->enc, &b->enc);
    assert_true(a->ptr == b->ptr && a->floor == b->floor && a->samples == b->samples && a->last_sp == b->last_sp);
    assert_true(a->bytes == b->bytes && a->sync_bytes == b->sync_bytes && a->sync_seq == b->sync_seq);
}

static void samples_stream(uint64_t seed, uint32_t period)
{
    mt_swenc *s[2];
    for (size_t k = 0; k < 2; k++) {
        s[k] = calloc(1, sizeof *s[k]);
        mt_swenc_init(s[k], period, sink, (void *)(uintptr_t)k);
        mt_swenc_on_sync(s[k], on_mark, (void *)(uintptr_t)k);
        mt_swenc_batch(s[k]);
        sink_len[k] = nmarks[k] = 0;
        assert_int_equal(mt_swenc_section(s[k], 0, MT_FMT_FULL, 1, 10), 0);
    }
    rng_state = seed;
    uint64_t pool[4] = {0x80000000, 0x80200000, 0x87ff0000, 0x10000000};
    uint64_t a = pool[0], cycle = 10;
    uint32_t rate = 1;
    static mt_access_rec batch[500];
    uint64_t last_ar = a, stretch = 0;
    bool cont = false;
    for (unsigned b = 0; b < 600; b++) {
        size_t n = rnd() % 500, refused_at = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            uint64_t ar;
            const uint64_t skip = rnd() % 3 ? 0 : next_skip();
            uint64_t c = cycle + rate * (skip > MT_SKIP_MAX ? MT_SKIP_MAX : skip);
            if (!stretch && rnd() % 100 == 0)
                stretch = 1 + rnd() % 400; /* one access at consecutive cycles: a run past MT_RUN_MAX */
            if (cont || stretch) { /* a marker's bytes may have made a SYNC due at this absorbed sample */
                ar = last_ar;
                c = cycle;
                cont = false;
                stretch -= stretch > 0;
            } else {
                a = next_addr(a, pool) & ((UINT64_C(1) << 56) - 1);
                ar = a | (rnd() & 1 ? MT_ACCESS_REC_WRITE : 0);
            }
            if (refused_at == SIZE_MAX && rnd() % 5000 == 0) { /* refused: before the last one, */
                c = rnd() % 2 ? (cycle > rate ? cycle - rate - 1 : 0) : cycle + rate * (MT_SKIP_MAX + 1); /* too far */
                refused_at = i;
            }
            batch[i] = (mt_access_rec){.cycle = c, .addr_rw = ar};
            if (refused_at == SIZE_MAX) {
                cycle = c + rate;
                last_ar = ar;
            }
        }
        int r1 = 0;
        for (size_t i = 0; i < n && r1 == 0; i++)
            r1 = mt_swenc_sample(s[1], batch[i].cycle, batch[i].addr_rw & ~MT_ACCESS_REC_WRITE,
                                 (unsigned)(batch[i].addr_rw >> 63));
        assert_int_equal(mt_swenc_samples(s[0], batch, n), r1);
        assert_same_swenc(s[0], s[1]);
        if (r1 != 0) { /* the ones after the refused sample were not written: go on from there */
            cycle = s[0]->ptr;
            a = pool[1];
        }
        switch (rnd() % 8) {
        case 0:
        case 2:
            for (size_t k = 0; k < 2; k++)
                assert_int_equal(mt_swenc_marker(s[k], b), 0);
            cont = rnd() % 2;
            break;
        case 3: /* markers enough to pass the SYNC's 14-bit byte count (MT_PREV_BYTES_MAX) */
            if (rnd() % 40 == 0)
                for (unsigned m = 0; m < 3000; m++)
                    for (size_t k = 0; k < 2; k++)
                        assert_int_equal(mt_swenc_marker(s[k], m), 0);
            cont = true;
            break;
        case 1: { /* a new section: rate 1 or 3, FULL or another format */
            rate = rnd() % 2 ? 1 : 3;
            const unsigned fmt = rnd() % 3 ? MT_FMT_FULL : MT_FMT_48;
            for (size_t k = 0; k < 2; k++)
                assert_int_equal(mt_swenc_section(s[k], 0, fmt, rate, cycle), 0);
            break;
        }
        default:
            break;
        }
    }
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(mt_swenc_end(s[k]), 0);
        mt_swenc_flush(s[k]);
    }
    assert_int_equal(sink_len[0], sink_len[1]);
    assert_memory_equal(sink_buf[0], sink_buf[1], sink_len[0]);
    assert_int_equal(nmarks[0], nmarks[1]);
    for (size_t i = 0; i < nmarks[0]; i++)
        assert_true(marks[0][i].offset == marks[1][i].offset && marks[0][i].cycle == marks[1][i].cycle &&
                    marks[0][i].samples == marks[1][i].samples && marks[0][i].last_sp == marks[1][i].last_sp);
    assert_true(nmarks[0] > 5); /* SYNCs were inside the batches */
    free(s[0]);
    free(s[1]);
}

static void test_swenc_samples_equals_sample(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++)
        samples_stream(seed * 7919, seed % 2 ? MT_SYNC_PERIOD_MIN : 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_sample_equals_plan_commit),
        cmocka_unit_test(test_leb_len_fast),
        cmocka_unit_test(test_put_sample_run_limit),
        cmocka_unit_test(test_swenc_batched_equals_unbatched),
        cmocka_unit_test(test_swenc_samples_equals_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
