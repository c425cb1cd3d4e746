/* Packet layer, compressor and decoder: LEB/zigzag, the seed's formats bit by bit, the
 * no-five-zeros property, compressor round trips, and a decoder that survives corruption,
 * truncation and garbage, reports the loss and resynchronises. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "lib_testutil.h"
#include "mt_enc.h"
#include "mt_pkt.h"
#include "mt_swenc.h"

static void test_leb_zigzag(void **state)
{
    (void)state;
    uint8_t b[16];
    uint64_t v;
    const uint64_t vals[] = {0, 1, 127, 128, 16383, 16384, 0xFFFFFFFFull, (1ull << 56) - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        size_t n = mt_leb_put(b, vals[i]);
        assert_int_equal(n, mt_leb_len(vals[i]));
        assert_int_equal(mt_leb_get(b, n, 10, &v), (int)n);
        assert_true(v == vals[i]);
        assert_int_equal(mt_leb_get(b, n - 1, 10, &v), n == 1 ? 0 : 0); /* needs more */
        if (n > 1)
            assert_int_equal(mt_leb_get(b, n, (unsigned)n - 1, &v), -1); /* too long for the field */
    }
    for (unsigned k = 0; k < 64; k++) { /* mt_leb_len (no loop) at every width's edges */
        const uint64_t e[3] = {(1ull << k) - 1, 1ull << k, (1ull << k) + 1};
        for (int j = 0; j < 3; j++)
            assert_int_equal(mt_leb_len(e[j]), mt_leb_put(b, e[j]));
    }
    const uint8_t nonmin[] = {0x81, 0x00};
    assert_int_equal(mt_leb_get(nonmin, 2, 10, &v), -1);
    const uint8_t big[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    assert_int_equal(mt_leb_get(big, 10, 10, &v), -1);
    for (unsigned w = 26; w <= 56; w += 6) {
        uint64_t m = (1ull << w) - 1;
        assert_int_equal(mt_zigzag(1, w), 2);
        assert_int_equal(mt_zigzag(m, w), 1); /* -1 */
        assert_true(mt_zigzag(1ull << (w - 1), w) == m); /* most negative */
        for (uint64_t d = 0; d < 1000; d++) {
            uint64_t x = (d * 0x9E3779B97F4A7C15ull) & m;
            assert_true(mt_unzigzag(mt_zigzag(x, w), w) == x);
        }
    }
}

/* The seed's formats (000_f104222aae8adb16.txt 3.2), bit by bit. */
static void test_seed_formats(void **state)
{
    (void)state;
    /* PPN[2] = 0x2ABCDEF (26 bits), PPN[1] = 0x1A5, PPN[0] = 0x0F3, offset 0x123 */
    uint64_t ppn2 = 0x2ABCDEF, ppn1 = 0x1A5, ppn0 = 0x0F3;
    uint64_t addr = ppn2 << 30 | ppn1 << 21 | ppn0 << 12 | 0x123;
    uint64_t v48 = mt_fmt_value(MT_FMT_48, mt_fmt_addr_part(MT_FMT_48, addr), 1);
    assert_true(v48 >> 47 == 1);                 /* R/W at bit 47 */
    assert_true((v48 >> 44 & 7) == 0);           /* 46:44 unused */
    assert_true((v48 >> 18 & 0x3FFFFFF) == ppn2); /* PPN[2] at 43:18 */
    assert_true((v48 >> 9 & 0x1FF) == ppn1);     /* PPN[1] at 17:9 */
    assert_true((v48 & 0x1FF) == ppn0);          /* PPN[0] at 8:0 */
    uint64_t v32 = mt_fmt_value(MT_FMT_32, mt_fmt_addr_part(MT_FMT_32, addr), 1);
    assert_true(v32 >> 31 == 1);
    assert_true((v32 >> 26 & 0x1F) == 0);
    assert_true((v32 & 0x3FFFFFF) == ppn2);
    assert_true(v32 < (1ull << 32));
    assert_true(mt_fmt_value(MT_FMT_32, mt_fmt_addr_part(MT_FMT_32, addr), 0) == ppn2);
    assert_true(mt_fmt_addr_part(MT_FMT_FULL, addr) == addr);
    assert_true(mt_fmt_addr_part(MT_FMT_LINE, addr) == addr >> 6);
    assert_int_equal(mt_fmt_width(MT_FMT_48), 44);
    assert_int_equal(mt_fmt_width(MT_FMT_32), 26);
}

/* No packet sequence except a SYNC contains five zero bytes in a row. */
static void test_no_fake_sync(void **state)
{
    (void)state;
    tu_buf out = {0};
    mt_swenc sw;
    mt_swenc_init(&sw, 64, tu_buf_put, &out);
    mt_swenc_section(&sw, 0, MT_FMT_FULL, 1, 0);
    uint64_t s = 3;
    for (uint64_t c = 0; c < 50000; c++) {
        uint64_t x = tu_rand(&s);
        uint64_t addr = (x & 3) ? 0 : (x & 4) ? (x >> 30) : x & MT_PADDR_MASK; /* lots of zeros */
        assert_int_equal(mt_swenc_sample(&sw, c + (x >> 62), addr, 0), 0);
        c += x >> 62;
        if ((x & 0xff) == 1)
            mt_swenc_marker(&sw, 0);
        if ((x & 0xff) == 2)
            mt_swenc_section(&sw, 1, MT_FMT_LINE, 1, c + 1);
    }
    mt_swenc_end(&sw);
    size_t syncs = 0;
    for (size_t i = 0; i + MT_SYNC_LEN_SIG <= out.n; i++) {
        if (!memcmp(out.p + i, "\0\0\0\0\0", 5) && out.p[i + 5] == 0x80) {
            /* must be a real SYNC: the decoder, started here, agrees */
            syncs++;
        }
    }
    tu_events ev = {0};
    tu_decode(out.p, out.n, &ev);
    size_t real = 0;
    for (size_t i = 0; i < ev.n; i++)
        real += ev.ev[i].type == MT_DEV_SYNC;
    assert_int_equal(ev.losses, 0);
    assert_int_equal(syncs, real);
    free(ev.ev);
    free(out.p);
}

/* mt_swenc_batch: the same bytes as one sink call per packet, and every output mark's offset is
 * what the sink has had when the mark comes (the .mtr writer indexes frames by it). */
typedef struct {
    tu_buf out;
    int marks, bad_marks;
} batch_sink;

static void batch_put(void *ctx, const uint8_t *p, size_t n) { tu_buf_put(&((batch_sink *)ctx)->out, p, n); }

static void batch_mark(void *ctx, const mt_unit_mark *m)
{
    batch_sink *b = ctx;
    b->marks++;
    b->bad_marks += m->offset != b->out.n;
}

static void test_swenc_batched_same_bytes(void **state)
{
    (void)state;
    batch_sink plain = {0}, batched = {0};
    mt_swenc a, b;
    mt_swenc_init(&a, 256, batch_put, &plain);
    mt_swenc_init(&b, 256, batch_put, &batched);
    mt_swenc_on_sync(&a, batch_mark, &plain);
    mt_swenc_on_sync(&b, batch_mark, &batched);
    mt_swenc_batch(&b);
    mt_swenc *both[2] = {&a, &b};
    uint64_t s = 7, c = 10, last = 0;
    for (int k = 0; k < 2; k++)
        assert_int_equal(mt_swenc_section(both[k], 0, MT_FMT_FULL, 1, c), 0);
    for (int i = 0; i < 200000; i++) {
        uint64_t x = tu_rand(&s);
        uint64_t addr = (x & 7) ? (last += (x >> 8) & 3 ? 4 : 0) : x >> 8; /* runs, deltas, jumps */
        for (int k = 0; k < 2; k++)
            assert_int_equal(mt_swenc_sample(both[k], c, addr, (x >> 3) & 1), 0);
        c += 1 + ((x >> 4) & 1);
        if ((x & 0x3ff) == 5)
            for (int k = 0; k < 2; k++)
                mt_swenc_marker(both[k], (uint32_t)x);
        if ((x & 0x3ff) == 6)
            for (int k = 0; k < 2; k++)
                mt_swenc_overflow(both[k], 3);
        if (i % 50000 == 49999)
            for (int k = 0; k < 2; k++) /* a batch may lag until a flush */
                mt_swenc_flush(both[k]);
        if (i % 50000 == 49999)
            assert_memory_equal(plain.out.p, batched.out.p, plain.out.n < batched.out.n ? plain.out.n : batched.out.n);
    }
    for (int k = 0; k < 2; k++)
        assert_int_equal(mt_swenc_end(both[k]), 0);
    assert_true(plain.out.n > 100000);
    assert_int_equal(plain.out.n, batched.out.n);
    assert_memory_equal(plain.out.p, batched.out.p, plain.out.n);
    assert_true(plain.marks > 100);
    assert_int_equal(batched.marks, plain.marks);
    assert_int_equal(plain.bad_marks, 0);
    assert_int_equal(batched.bad_marks, 0);
    free(plain.out.p);
    free(batched.out.p);
}

static void test_enc_max_packet(void **state)
{
    (void)state;
    mt_enc e = {0};
    mt_enc_reset(&e, MT_FMT_FULL);
    mt_enc_plan p;
    /* the longest: run prefix 127, skip 2^40-1, FULL of a 56-bit value */
    e.run_cnt = 127;
    e.prev_valid = 1;
    e.hist_valid = 0; /* nothing to match or to delta against */
    mt_enc_plan_sample(&e, (1ull << 56) - 1, 1, MT_SKIP_MAX, &p);
    assert_int_equal(p.len, MT_PKT_MAX);
    uint8_t b[MT_PKT_MAX];
    assert_true(mt_pkt_sync(b, 255, 16383, (1ull << 48) - 1) <= MT_PKT_MAX);
    assert_true(mt_pkt_section(b, 1, 3, UINT32_MAX, (1ull << 48) - 1) <= MT_PKT_MAX);
    assert_true(mt_pkt_end(b, (1ull << 48) - 1, UINT32_MAX) <= MT_PKT_MAX);
}

/* The plain encoder (the RTL's minimal build): repeats, near and far addresses all give FULL
 * packets with their skip prefix, none is absorbed, and reset keeps it plain. */
static void test_enc_plain(void **state)
{
    (void)state;
    mt_enc e = {.plain = 1};
    mt_enc_reset(&e, MT_FMT_48);
    assert_int_equal(e.plain, 1);
    const uint64_t a[] = {0x80000, 0x80000, 0x80000, 0x80001, 0x80000, 0x12345678, 0x80001};
    for (unsigned i = 0; i < sizeof a / sizeof a[0]; i++) {
        const uint64_t skip = i % 3 == 2 ? i : 0;
        mt_enc_plan p;
        mt_enc_plan_sample(&e, a[i], i & 1, skip, &p);
        assert_int_equal(p.absorbed, 0);
        assert_int_equal(p.op, MT_OP_FULL);
        uint8_t want[MT_PKT_MAX];
        unsigned n = 1;
        want[0] = (uint8_t)(MT_HDR_SAMPLE | (i & 1 ? MT_SAMPLE_RW : 0) | (skip ? MT_SAMPLE_SKIP : 0) |
                            (MT_OP_FULL << 4));
        if (skip)
            n += (unsigned)mt_leb_put(want + n, skip);
        n += (unsigned)mt_leb_put(want + n, a[i]);
        assert_int_equal(p.len, n);
        assert_memory_equal(p.bytes, want, n);
        mt_enc_commit(&e, &p);
        assert_int_equal(e.run_cnt, 0);
        if (i == 3)
            mt_enc_reset(&e, MT_FMT_48);
    }
    assert_int_equal(e.plain, 1);
}

static tu_buf make_stream(uint64_t seed, size_t samples)
{
    tu_buf out = {0};
    mt_swenc sw;
    mt_swenc_init(&sw, 128, tu_buf_put, &out);
    mt_swenc_section(&sw, 0, MT_FMT_48, 4, 100);
    uint64_t s = seed, c = 100, addr = 0x80000000;
    for (size_t i = 0; i < samples; i++) {
        uint64_t x = tu_rand(&s);
        addr = (x & 7) ? addr + ((x >> 8) & 1) * 4096 : (x >> 20) & MT_PADDR_MASK;
        mt_swenc_sample(&sw, c, addr, (x >> 5) & 1);
        c += 4 * (1 + ((x >> 9) & 1));
    }
    mt_swenc_end(&sw);
    return out;
}

/* Corrupt, cut and shuffled streams: the decoder reports loss, resynchronises at the next
 * SYNC and then decodes exactly what the clean stream says. */
static void test_decoder_resync(void **state)
{
    (void)state;
    tu_buf clean = make_stream(11, 20000);
    tu_events ref = {0};
    tu_decode(clean.p, clean.n, &ref);
    assert_int_equal(ref.losses, 0);
    uint64_t s = 99;
    for (int trial = 0; trial < 200; trial++) {
        uint8_t *p = malloc(clean.n);
        memcpy(p, clean.p, clean.n);
        size_t n = clean.n;
        size_t at = tu_rand(&s) % n;
        int kind = trial % 4;
        if (kind == 0) {
            p[at] ^= (uint8_t)(1 + tu_rand(&s) % 255); /* flip */
        } else if (kind == 1) {
            size_t k = 1 + tu_rand(&s) % 40; /* delete k bytes */
            if (at + k > n)
                k = n - at;
            memmove(p + at, p + at + k, n - at - k);
            n -= k;
        } else if (kind == 2) {
            for (size_t i = at; i < n && i < at + 64; i++) /* garbage burst */
                p[i] = (uint8_t)tu_rand(&s);
        } else {
            n = at; /* truncation */
        }
        tu_events ev = {0};
        tu_decode(p, n, &ev);
        /* From the first SYNC after both the damage and the last reported loss, every event
         * must equal the clean stream's (a flipped payload bit is not detectable before the
         * next SYNC resets the history; everything after it must be right). */
        size_t from = 0;
        for (size_t i = 0; i < ev.n; i++)
            if (ev.ev[i].type == MT_DEV_LOSS)
                from = i + 1;
        while (from < ev.n && !(ev.ev[from].type == MT_DEV_SYNC && ev.ev[from].offset > at + 64))
            from++;
        if (kind == 3)
            assert_true(ev.losses <= 1);
        if (from < ev.n) {
            size_t j = 0;
            while (j < ref.n && !(ref.ev[j].type == MT_DEV_SYNC && ref.ev[j].cycle == ev.ev[from].cycle))
                j++;
            assert_true(j < ref.n);
            int64_t shift = (int64_t)ref.ev[j].offset - (int64_t)ev.ev[from].offset;
            for (size_t i = from; i < ev.n; i++, j++) {
                assert_true(j < ref.n);
                assert_int_equal(ev.ev[i].type, ref.ev[j].type);
                assert_true(ev.ev[i].cycle == ref.ev[j].cycle);
                assert_true(ev.ev[i].value == ref.ev[j].value);
                assert_true((int64_t)ev.ev[i].offset + shift == (int64_t)ref.ev[j].offset);
            }
        }
        if (kind == 1 || kind == 2) /* lost bytes are always noticed */
            assert_true(ev.losses > 0);
        free(ev.ev);
        free(p);
    }
    free(ref.ev);
    free(clean.p);
}

/* Decoding from the middle: the first events are a loss report (bytes skipped), then a SYNC. */
static void test_start_anywhere(void **state)
{
    (void)state;
    tu_buf clean = make_stream(12, 5000);
    for (size_t at = 1; at < 400; at += 7) {
        tu_events ev = {0};
        tu_decode(clean.p + at, clean.n - at, &ev);
        assert_true(ev.n >= 2);
        if (clean.p[at] == 0 && clean.p[at + 5] == 0x80) { /* started right at a SYNC */
            assert_int_equal(ev.ev[0].type, MT_DEV_SYNC);
            assert_int_equal(ev.losses, 0);
        } else {
            assert_int_equal(ev.ev[0].type, MT_DEV_LOSS);
            assert_int_equal(ev.ev[1].type, MT_DEV_SYNC);
            assert_int_equal(ev.losses, 1);
        }
        assert_int_equal(ev.ends, 1);
        free(ev.ev);
    }
    free(clean.p);
}

static void noop_cb(void *ctx, const mt_dec_event *e)
{
    (void)e;
    (*(size_t *)ctx)++;
}

/* Random bytes: no crash, no hang, everything reported. (The fuzzer does much more.) */
static void test_garbage(void **state)
{
    (void)state;
    uint64_t s = 5;
    uint8_t b[4096];
    for (int t = 0; t < 300; t++) {
        size_t n = tu_rand(&s) % sizeof b;
        int dense_zero = t & 1;
        for (size_t i = 0; i < n; i++) {
            uint64_t x = tu_rand(&s);
            b[i] = dense_zero && (x & 3) ? 0 : (uint8_t)(x >> 8);
            if (dense_zero && (x & 31) == 0)
                b[i] = 0x80;
        }
        size_t events = 0;
        mt_dec d;
        mt_dec_init(&d, noop_cb, &events);
        for (size_t i = 0; i < n;) {
            size_t k = 1 + tu_rand(&s) % 20;
            if (k > n - i)
                k = n - i;
            mt_dec_feed(&d, b + i, k);
            i += k;
        }
        mt_dec_finish(&d);
        assert_true(d.offset + d.carry_len <= n + 6);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leb_zigzag),
        cmocka_unit_test(test_seed_formats),
        cmocka_unit_test(test_no_fake_sync),
        cmocka_unit_test(test_swenc_batched_same_bytes),
        cmocka_unit_test(test_enc_max_packet),
        cmocka_unit_test(test_enc_plain),
        cmocka_unit_test(test_decoder_resync),
        cmocka_unit_test(test_start_anywhere),
        cmocka_unit_test(test_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
