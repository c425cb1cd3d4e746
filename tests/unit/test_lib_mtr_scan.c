/* The .mtr writer's search for SYNC signatures (lib/mt_mtr_writer.c scan_syncs), against its plain
 * definition: a frame is cut at the start of a signature (MT_SYNC_ZEROS zero bytes, then 0x80)
 * once the frame holds frame_bytes or more, found by reading the stream one byte at a time.  The
 * writer reads every MT_SYNC_ZEROS-th byte and carries a run of zeros from one call to the next;
 * the frames it writes (the index's stream offsets and sizes) and the bytes read back must be
 * the definition's, on streams made to meet every edge: zero runs of every length from 0 to 12
 * before a 0x80 or another byte, runs split across calls of every size down to one byte, streams
 * that end in zeros, signatures back to back, a signature at the very start, and a real encoder's
 * samples stream (a 0x80 every few bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib_testutil.h"
#include "mt_mtr.h"
#include "mt_pkt.h"
#include "mt_swenc.h"

/* The definition: the frame starts, cut at each signature start s with s - (frame start) >=
 * frame_bytes, scanning byte by byte. */
static size_t plain_cuts(const uint8_t *b, size_t n, size_t frame_bytes, size_t *cut, size_t max)
{
    size_t k = 0, start = 0, zeros = 0;
    cut[k++] = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] == 0x80 && zeros >= MT_SYNC_ZEROS) {
            const size_t s = i - MT_SYNC_ZEROS;
            if (s - start >= frame_bytes) {
                assert_true(k < max);
                cut[k++] = start = s;
            }
        }
        zeros = b[i] == 0 ? zeros + 1 : 0;
    }
    return k;
}

static char *tmpname(void)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "/tmp/test_lib_mtr_scan_%d.mtr", (int)getpid());
    return buf;
}

/* b[0..n) through a writer in calls of 1..maxcall bytes; the index and the bytes read back must
 * be the definition's. */
static void check(const uint8_t *b, size_t n, size_t frame_bytes, size_t maxcall, uint64_t seed)
{
    char err[256];
    const char *path = tmpname();
    mt_writer_config wc = {.producer = "test_lib_mtr_scan", .frame_bytes = frame_bytes, .tail_ms = -1};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    for (size_t i = 0; i < n;) {
        size_t k = 1 + tu_rand(&seed) % maxcall;
        if (k > n - i)
            k = n - i;
        assert_int_equal(mt_writer_raw(w, b + i, k), 0);
        i += k;
    }
    assert_int_equal(mt_writer_close(w), 0);
    enum { MAXCUT = 1 << 16 };
    size_t *cut = malloc(MAXCUT * sizeof *cut);
    assert_non_null(cut);
    const size_t nc = plain_cuts(b, n, frame_bytes, cut, MAXCUT);
    mt_file *f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    size_t ni = 0;
    const mt_frame_index *ix = mt_file_index(f, &ni);
    if (ni != nc)
        fail_msg("frame_bytes %zu, calls of up to %zu: %zu frames, the definition %zu", frame_bytes, maxcall, ni, nc);
    for (size_t j = 0; j < nc; j++) {
        const size_t end = j + 1 < nc ? cut[j + 1] : n;
        if (ix[j].stream_offset != cut[j] || ix[j].stream_bytes != end - cut[j])
            fail_msg("frame_bytes %zu, calls of up to %zu: frame %zu is [%llu, +%llu), the definition [%zu, +%zu)",
                     frame_bytes, maxcall, j, (unsigned long long)ix[j].stream_offset,
                     (unsigned long long)ix[j].stream_bytes, cut[j], end - cut[j]);
    }
    tu_buf back = {0};
    uint8_t r[777];
    ssize_t k;
    while ((k = mt_file_read(f, r, sizeof r)) > 0)
        tu_buf_put(&back, r, (size_t)k);
    assert_int_equal(k, 0);
    assert_int_equal(back.n, n);
    assert_memory_equal(back.p, b, n);
    mt_file_close(f);
    unlink(path);
    free(back.p);
    free(cut);
}

static void check_all(const uint8_t *b, size_t n, uint64_t seed)
{
    static const size_t frames[] = {1, 7, 64, 300, 4096};
    static const size_t calls[] = {1, 3, 6, 40, 5000};
    for (size_t i = 0; i < sizeof frames / sizeof *frames; i++)
        for (size_t j = 0; j < sizeof calls / sizeof *calls; j++)
            check(b, n, frames[i], calls[j], seed + i * 7 + j);
}

/* Tokens: a run of 0..12 zeros, then 0x80 (half the time) or another byte (0x01..0xff but 0x80),
 * sometimes nothing after the zeros (the run goes on into the next token). */
static void test_token_streams(void **state)
{
    (void)state;
    enum { N = 60000 };
    uint8_t *b = malloc(N);
    assert_non_null(b);
    uint64_t seed = 12345;
    for (int round = 0; round < 4; round++) {
        size_t n = 0;
        if (round == 1) { /* a signature at the very start */
            memset(b, 0, MT_SYNC_ZEROS);
            b[MT_SYNC_ZEROS] = 0x80;
            n = MT_SYNC_ZEROS + 1;
        }
        while (n < N - 16) {
            const uint64_t r = tu_rand(&seed);
            const unsigned z = (unsigned)(r % 13), end = (unsigned)(r >> 8) % 8;
            for (unsigned i = 0; i < z; i++)
                b[n++] = 0;
            if (end < 4)
                b[n++] = 0x80;
            else if (end < 7)
                b[n++] = (uint8_t)(1 + (r >> 16) % 255) == 0x80 ? 0x81 : (uint8_t)(1 + (r >> 16) % 255);
            if (round == 2 && r % 5 == 0) /* signatures back to back */
                for (unsigned i = 0; i < 3; i++) {
                    memset(b + n, 0, MT_SYNC_ZEROS);
                    b[n + MT_SYNC_ZEROS] = 0x80;
                    n += MT_SYNC_ZEROS + 1;
                }
        }
        if (round == 3) /* ends in zeros */
            while (n < N)
                b[n++] = 0;
        check_all(b, n, seed);
    }
    free(b);
}

/* Bytes drawn from {0, 0x80, other} with weights that make long zero runs rare and common. */
static void test_random_bytes(void **state)
{
    (void)state;
    enum { N = 40000 };
    uint8_t *b = malloc(N);
    assert_non_null(b);
    uint64_t seed = 99;
    for (unsigned zw = 1; zw <= 9; zw += 4) { /* zeros: zw in 10 */
        for (size_t i = 0; i < N; i++) {
            const uint64_t r = tu_rand(&seed);
            b[i] = r % 10 < zw ? 0 : r % 10 < zw + 1 ? 0x80 : (uint8_t)(r >> 8);
        }
        check_all(b, N, seed);
    }
    free(b);
}

/* A real samples stream (the software encoder, SYNCs every 256 bytes of it), the spatial mode's
 * kind: page << 12 | size mask, alternations and walks. */
static void test_encoder_stream(void **state)
{
    (void)state;
    tu_buf out = {0};
    mt_swenc sw;
    mt_swenc_init(&sw, 256, tu_buf_put, &out);
    assert_int_equal(mt_swenc_section(&sw, 0, MT_FMT_FULL, 1, 0), 0);
    uint64_t seed = 7, cycle = 0, page = 0x80000;
    for (int i = 0; i < 30000; i++) {
        const uint64_t r = tu_rand(&seed);
        page = r % 3 == 0 ? 0x80000 + (r >> 8) % 4096 : r % 3 == 1 ? page ^ 1 : page + 1;
        cycle += r % 4 ? 1 : 1 + (r >> 20) % 300;
        assert_int_equal(mt_swenc_sample(&sw, cycle, page << 12 | ((r >> 32) & 0x3ff), (unsigned)(r >> 63)), 0);
    }
    assert_int_equal(mt_swenc_end(&sw), 0);
    check_all(out.p, out.n, seed);
    free(out.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_token_streams),
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_encoder_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
