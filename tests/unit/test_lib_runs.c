/* The runs stream (docs/trace-format.md section 4.2): its golden vector (records and bytes derived
 * by hand in the doc), and on random code-like streams (+2/+4 fetch runs, jumps, data accesses
 * that repeat and hit the history, gaps below and above the element's 15 cycles, skips at the
 * limit, markers, SYNCs every 64 bytes): the batched writer (mt_swenc_samples' loop) and the
 * unbatched one (samples_runs) write the same bytes; the decoder gives back exactly the records;
 * the reader (mt_runs_reader) rebuilds byte for byte the records stream the same records make
 * without runs; and the records writer ignores the fetch flag.  Refusals: FETCHES outside a runs
 * stream, a malformed element, an unknown runs version.  The container: a runs .mtr reads
 * (mt_file_read, after a seek too, and mt_reader) as the records .mtr of the same records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "mt_dec.h"
#include "mt_mtr.h"
#include "mt_reader.h"
#include "mt_runs.h"
#include "mt_swenc.h"

#include "lib_testutil.h"

/* The growable byte sink the lib/ tests share. */
typedef tu_buf bytes;

/* A record, or a marker (cycle UINT64_MAX, value in addr_rw). */
#define MARK UINT64_MAX

/* Writes recs through an mt_swenc (runs or not, batched or not), in chunks of 1..chunk records. */
static bytes write_stream(const mt_access_rec *recs, size_t n, int runs, int batched, uint32_t sync_period,
                          uint64_t section_cycle, size_t chunk)
{
    bytes b = {0};
    mt_swenc s;
    mt_swenc_init(&s, sync_period, tu_buf_put, &b);
    if (batched)
        mt_swenc_batch(&s);
    if (runs)
        mt_swenc_runs(&s);
    assert_int_equal(mt_swenc_section(&s, 0, 2, 1, section_cycle), 0);
    size_t i = 0;
    while (i < n) {
        if (recs[i].cycle == MARK) {
            assert_int_equal(mt_swenc_marker(&s, (uint32_t)recs[i].addr_rw), 0);
            i++;
            continue;
        }
        size_t k = 0;
        const size_t want = 1 + (size_t)(i * 7919 % chunk);
        while (i + k < n && k < want && recs[i + k].cycle != MARK)
            k++;
        if ((k == 1 || i % 7 == 3) && !(recs[i].addr_rw & MT_ACCESS_REC_FETCH)) { /* the single call */
            assert_int_equal(mt_swenc_sample(&s, recs[i].cycle, recs[i].addr_rw & MT_PADDR_MASK,
                                             (unsigned)(recs[i].addr_rw >> 63)), 0);
            i++;
            continue;
        }
        if (mt_swenc_samples(&s, recs + i, k) != 0)
            fail_msg("runs %d batched %d: refused at %zu..%zu (cycle %llu, ptr %llu)", runs, batched, i, i + k, (unsigned long long)recs[i].cycle, (unsigned long long)s.ptr);
        i += k;
    }
    assert_int_equal(mt_swenc_end(&s), 0);
    return b;
}

typedef struct {
    mt_access_rec got[4096];
    size_t n, losses;
} collected;

static void collect(void *ctx, const mt_dec_event *ev)
{
    collected *c = ctx;
    if (ev->type == MT_DEV_LOSS)
        c->losses++;
    if (ev->type != MT_DEV_SAMPLE && ev->type != MT_DEV_MARKER)
        return;
    assert_true(c->n < sizeof c->got / sizeof c->got[0]);
    c->got[c->n++] = ev->type == MT_DEV_MARKER
                         ? (mt_access_rec){.cycle = MARK, .addr_rw = ev->value}
                         : (mt_access_rec){.cycle = ev->cycle, .addr_rw = ev->addr | (ev->rw ? MT_ACCESS_REC_WRITE : 0)};
}

/* Decodes a runs stream and checks it gives back recs (without their fetch flags). */
static void check_decodes_to(const bytes *b, const mt_access_rec *recs, size_t n)
{
    static collected c;
    memset(&c, 0, sizeof c);
    mt_dec d;
    mt_dec_init(&d, collect, &c);
    d.runs = 1;
    mt_dec_feed(&d, b->p, b->n);
    mt_dec_finish(&d);
    assert_int_equal(c.losses, 0);
    assert_int_equal(c.n, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(c.got[i].cycle, recs[i].cycle);
        assert_int_equal(c.got[i].addr_rw, recs[i].addr_rw & ~MT_ACCESS_REC_FETCH);
    }
}

/* Rebuilds the records stream from a runs stream, fed in pieces of `piece` bytes. */
static bytes rebuild(const bytes *runs, uint32_t sync_period, size_t piece)
{
    bytes out = {0};
    mt_runs_reader *rr = malloc(sizeof *rr);
    assert_non_null(rr);
    mt_runs_reader_init(rr, sync_period);
    uint8_t buf[777];
    for (size_t i = 0; i < runs->n; i += piece) {
        const size_t k = runs->n - i < piece ? runs->n - i : piece;
        assert_int_equal(mt_runs_reader_feed(rr, runs->p + i, k), 0);
        size_t got;
        while ((got = mt_runs_reader_take(rr, buf, sizeof buf)) != 0)
            tu_buf_put(&out, buf, got);
    }
    mt_dec_finish(&rr->dec);
    assert_int_equal(rr->failed, 0);
    mt_runs_reader_free(rr);
    free(rr);
    return out;
}

#define F MT_ACCESS_REC_FETCH
#define W MT_ACCESS_REC_WRITE
/* docs/trace-format.md section 4.2, the golden vector */
static const mt_access_rec golden_recs[] = {
    {10, F | 0x80000000}, {11, F | 0x80000004}, {12, F | 0x80000006}, {13, 0x80001000},
    {14, F | 0x8000000a}, {20, F | 0x80000100}, {21, W | 0x80001000}, {MARK, 7},
    {40, F | 0x80000102},
};
static const uint8_t golden_bytes[] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x0a, /* SYNC seq 0, cycle 10 */
    0x02, 0x84, 0x01, 0x0a,                               /* SECTION burst, full, r = 1, @10 */
    0x06, 0x00, 0x81, 0x80, 0x80, 0x80, 0x20, 0xd0, 0x40, /* FETCHES @10 +0x80000000, @11 +4, @12 +2 */
    0xc0, 0x80, 0xa0, 0x80, 0x80, 0x08,                   /* SAMPLE FULL 0x80001000 @13 */
    0x50,                                                 /* FETCHES short: @14 +4 */
    0x06, 0x05, 0xd8, 0x07,                               /* FETCHES skip 5: @20 +0xf6 */
    0x88,                                                 /* SAMPLE MATCH 0, write, @21 */
    0x04, 0x07,                                           /* MARKER 7 */
    0x06, 0x12, 0x08,                                     /* FETCHES skip 18: @40 +2 */
    0x05, 0x08, 0x00,                                     /* END 8 samples, 0 dropped */
};

static void test_golden_vector(void **state)
{
    (void)state;
    const size_t n = sizeof golden_recs / sizeof golden_recs[0];
    for (int batched = 0; batched < 2; batched++) {
        bytes b = write_stream(golden_recs, n, 1, batched, 4096, 10, 3);
        assert_int_equal(b.n, sizeof golden_bytes);
        assert_memory_equal(b.p, golden_bytes, sizeof golden_bytes);
        check_decodes_to(&b, golden_recs, n);
        bytes rec = write_stream(golden_recs, n, 0, batched, 4096, 10, 3);
        bytes re = rebuild(&b, 4096, 5);
        assert_int_equal(re.n, rec.n);
        assert_memory_equal(re.p, rec.p, rec.n);
        free(b.p);
        free(rec.p);
        free(re.p);
    }
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * UINT64_C(2685821657736338717);
}

/* A code-like stream: straight runs of 2- and 4-byte instructions, branches back and forth,
 * data accesses (repeats, a few hot addresses, strides, far ones), writes, gaps of 0..20 cycles
 * and now and then one at the skip limit, markers. */
static size_t random_stream(mt_access_rec *r, size_t cap)
{
    uint64_t pc = 0x80000000u + (rnd() % 64) * 2, cycle = 100, data = 0x80100000u;
    const uint64_t hot[3] = {0x80200000u, 0x80200040u, 0x8ffffff8u};
    size_t n = 0;
    while (n + 2 < cap) {
        const unsigned x = (unsigned)(rnd() % 100);
        if (x < 2) {
            r[n++] = (mt_access_rec){MARK, rnd() % 1000};
            continue;
        }
        const unsigned g = (unsigned)(rnd() % 100);
        cycle += g < 70 ? 0 : g < 95 ? rnd() % 21 : g < 99 ? 16 + rnd() % 100 : (rnd() % 2 ? MT_SKIP_MAX : (1u << 20));
        if (x < 60) {
            r[n++] = (mt_access_rec){cycle, F | pc};
            pc += rnd() % 3 ? 4 : 2;
        } else if (x < 70) {
            pc = 0x80000000u + (rnd() % 512) * 2; /* a jump, sometimes to itself */
            r[n++] = (mt_access_rec){cycle, F | pc};
        } else {
            const unsigned y = (unsigned)(rnd() % 5);
            uint64_t a = y == 0 ? data : y == 1 ? hot[rnd() % 3] : y == 2 ? (data += 8) : y == 3 ? rnd() & MT_PADDR_MASK : pc + 2;
            r[n++] = (mt_access_rec){cycle, a | (rnd() % 4 == 0 ? W : 0)};
        }
        cycle++;
    }
    return n;
}

static void test_random_streams(void **state)
{
    (void)state;
    static mt_access_rec recs[3000];
    for (int round = 0; round < 60; round++) {
        const size_t n = random_stream(recs, 1000 + (size_t)(rnd() % 2000));
        const uint32_t period = round % 3 == 0 ? 4096 : 64 + (uint32_t)(rnd() % 200);
        const size_t chunk = 1 + (size_t)(rnd() % 1100);
        bytes fast = write_stream(recs, n, 1, 1, period, 100, chunk);
        bytes plain = write_stream(recs, n, 1, 0, period, 100, chunk);
        assert_int_equal(fast.n, plain.n);
        assert_memory_equal(fast.p, plain.p, fast.n);
        check_decodes_to(&fast, recs, n);
        check_decodes_to(&plain, recs, n);
        bytes rec = write_stream(recs, n, 0, 1, period, 100, chunk);
        for (size_t i = 0; i < n; i++) /* the records writer ignores the flag */
            recs[i].addr_rw &= recs[i].cycle == MARK ? ~UINT64_C(0) : ~F;
        bytes rec_noflag = write_stream(recs, n, 0, 0, period, 100, 1 + chunk / 3);
        assert_int_equal(rec.n, rec_noflag.n);
        assert_memory_equal(rec.p, rec_noflag.p, rec.n);
        bytes re = rebuild(&fast, period, 1 + (size_t)(rnd() % 5000));
        assert_int_equal(re.n, rec.n);
        assert_memory_equal(re.p, rec.p, rec.n);
        free(fast.p);
        free(plain.p);
        free(rec.p);
        free(rec_noflag.p);
        free(re.p);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    const size_t n = sizeof golden_recs / sizeof golden_recs[0];
    bytes b = write_stream(golden_recs, n, 1, 1, 4096, 10, 9);
    static collected c;
    mt_dec d;
    /* a reader that was not told the stream has runs: the FETCHES packet is a loss, not misread */
    memset(&c, 0, sizeof c);
    mt_dec_init(&d, collect, &c);
    mt_dec_feed(&d, b.p, b.n);
    mt_dec_finish(&d);
    assert_true(c.losses > 0);
    /* an element byte with bit 5 set is malformed */
    b.p[21] = 0x60;
    memset(&c, 0, sizeof c);
    mt_dec_init(&d, collect, &c);
    d.runs = 1;
    mt_dec_feed(&d, b.p, b.n);
    mt_dec_finish(&d);
    assert_true(c.losses > 0);
    free(b.p);
    /* the header's version */
    char err[200];
    uint32_t sp = 0;
    assert_int_equal(mt_runs_from_info("producer=x\ntrace.mode=every-access-runs\ntrace.runs_format=1\ntrace.all_sync_period=4096\n",
                                       &sp, err, sizeof err), 1);
    assert_int_equal(sp, 4096);
    assert_int_equal(mt_runs_from_info("producer=x\nmode=every-access\n", &sp, err, sizeof err), 0);
    assert_int_equal(mt_runs_from_info("trace.mode=every-access-runs\ntrace.runs_format=2\ntrace.all_sync_period=4096\n",
                                       &sp, err, sizeof err), -1);
    assert_non_null(strstr(err, "'2'"));
    assert_int_equal(mt_runs_from_info("trace.mode=every-access-runs\ntrace.runs_format=1\n", &sp, err, sizeof err), -1);
}

/* Writes recs into a .mtr (runs or records; frames of ~1 KiB, SYNCs every 256 bytes). */
static void write_mtr(const char *path, const mt_access_rec *recs, size_t n, int runs)
{
    char err[300];
    mt_writer_config wc = {.producer = "test_lib_runs", .frame_bytes = 1024, .sync_period = 256,
                           .info = runs ? "mode=every-access\ntrace.mode=every-access-runs\ntrace.runs_format=1\n"
                                          "trace.all_sync_period=256\n"
                                        : "mode=every-access\n"};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    if (runs)
        mt_writer_runs(w);
    assert_int_equal(mt_writer_section(w, 0, 2, 1, 100), 0);
    for (size_t i = 0; i < n; i++) {
        if (recs[i].cycle == MARK)
            assert_int_equal(mt_writer_marker(w, (uint32_t)recs[i].addr_rw), 0);
        else
            assert_int_equal(mt_writer_samples(w, recs + i, 1), 0);
    }
    assert_int_equal(mt_writer_finish(w, err, sizeof err), 0);
}

static bytes read_all(mt_file *f)
{
    bytes b = {0};
    uint8_t buf[999];
    ssize_t k;
    while ((k = mt_file_read(f, buf, sizeof buf)) > 0)
        tu_buf_put(&b, buf, (size_t)k);
    assert_int_equal(k, 0);
    return b;
}

/* The container: mt_file_read of a runs .mtr is the records .mtr's stream byte for byte (also
 * after a seek, which rewinds it), its index is not offered, and mt_reader's samples agree. */
static void test_container_reads_records(void **state)
{
    (void)state;
    static mt_access_rec recs[3000];
    const size_t n = random_stream(recs, 2500);
    char rp[64], up[64], err[300];
    snprintf(rp, sizeof rp, "/tmp/test_lib_runs.%d.rec.mtr", (int)getpid());
    snprintf(up, sizeof up, "/tmp/test_lib_runs.%d.runs.mtr", (int)getpid());
    write_mtr(rp, recs, n, 0);
    write_mtr(up, recs, n, 1);
    mt_file *fr = mt_file_open(rp, err, sizeof err), *fu = mt_file_open(up, err, sizeof err);
    assert_non_null(fr);
    assert_non_null(fu);
    size_t nidx;
    assert_null(mt_file_index(fu, &nidx));
    assert_int_equal(nidx, 0);
    assert_int_equal(mt_file_header_get(fu)->has_index, 0);
    bytes a = read_all(fr), b = read_all(fu);
    assert_true(a.n > 10000);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.p, b.p, a.n);
    assert_int_equal(mt_file_seek_cycle(fu, recs[n / 2].cycle == MARK ? 1000 : recs[n / 2].cycle), 0);
    bytes c = read_all(fu);
    assert_int_equal(c.n, a.n);
    assert_memory_equal(c.p, a.p, a.n);
    free(a.p);
    free(b.p);
    free(c.p);
    mt_file_close(fr);
    mt_file_close(fu);
    mt_reader *r1 = mt_reader_open(rp, err, sizeof err), *r2 = mt_reader_open(up, err, sizeof err);
    assert_non_null(r1);
    assert_non_null(r2);
    static mt_sample_rec s1[4000], s2[4000];
    const long k1 = mt_reader_next(r1, s1, 4000, 1), k2 = mt_reader_next(r2, s2, 4000, 1);
    assert_true(k1 > 1000);
    assert_int_equal(k1, k2);
    assert_memory_equal(s1, s2, (size_t)k1 * sizeof s1[0]);
    mt_reader_close(r1);
    mt_reader_close(r2);
    /* a runs header of another version is refused at open, by name */
    remove(rp);
    mt_writer_config wc = {.producer = "test_lib_runs", .info = "trace.mode=every-access-runs\ntrace.runs_format=7\n"};
    mt_writer *w = mt_writer_create(rp, &wc, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(mt_writer_finish(w, err, sizeof err), 0);
    assert_null(mt_file_open(rp, err, sizeof err));
    assert_non_null(strstr(err, "runs stream format '7'"));
    remove(rp);
    remove(up);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_vector),
        cmocka_unit_test(test_random_streams),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_container_reads_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
