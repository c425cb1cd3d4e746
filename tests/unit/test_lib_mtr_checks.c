/* The .mtr container's checksums (version 2): a damaged header is refused, a damaged index or
 * footer is set aside and the frames are read in order with the same answer, an index that does
 * not describe its frames is set aside too, an older (version 1) file still reads and is marked
 * unchecked, and a file cut inside its index has lost nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib_testutil.h"
#include "mt_crc32c.h"
#include "mt_le.h"
#include "mt_mtr.h"

static char *tmpname(const char *tag)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) & 3;
    /* /dev/shm when there is one: a thousand small files rewritten cost seconds on some disks */
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(buf[k], sizeof buf[k], "%s/test_lib_mtr_checks_%d_%s.mtr", dir, (int)getpid(), tag);
    return buf[k];
}

static void put_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static uint8_t *get_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(*n);
    assert_int_equal(fread(p, 1, *n, f), *n);
    fclose(f);
    return p;
}

/* 3,000 samples with markers, in 1 KiB frames (about 20 of them). */
static uint8_t *write_file(const char *path, size_t *n)
{
    char err[256];
    mt_writer_config wc = {.producer = "test_lib_mtr_checks", .frame_bytes = 1024, .sync_period = 256};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    uint64_t s = 7, c = 1000;
    assert_int_equal(mt_writer_section(w, 0, MT_FMT_FULL, 4, c), 0);
    for (int i = 0; i < 3000; i++) {
        uint64_t x = tu_rand(&s);
        c += 4 * (1 + (x & 3));
        assert_int_equal(mt_writer_sample(w, c, 0x80000000ull + ((x >> 16) & 0xffff8ull), x & 1), 0);
        if ((x & 0xff) == 5)
            assert_int_equal(mt_writer_marker(w, (uint32_t)(x >> 40)), 0);
    }
    assert_int_equal(mt_writer_close(w), 0);
    return get_file(path, n);
}

/* The samples with cycles in [lo, hi] read through seek + stop (the index when usable, else a
 * scan), as "cycle:addr" sums: equal sums and counts stand for equal answers here because the
 * file is the same but for the damaged metadata. */
typedef struct {
    uint64_t n, sum;
} answer;

static void count_cb(void *ctx, const mt_dec_event *e)
{
    answer *a = ctx;
    if (e->type == MT_DEV_SAMPLE && e->cycle >= a[1].n && e->cycle <= a[1].sum) {
        a[0].n++;
        a[0].sum = a[0].sum * 31 + e->cycle * 1000003 + e->addr;
    }
}

static answer query(mt_file *f, uint64_t lo, uint64_t hi)
{
    answer a[2] = {{0, 0}, {lo, hi}};
    assert_true(mt_file_seek_cycle(f, lo) >= 0);
    mt_file_stop_after(f, hi);
    mt_dec d;
    mt_dec_init(&d, count_cb, a);
    uint8_t b[4096];
    ssize_t k;
    while ((k = mt_file_read(f, b, sizeof b)) > 0)
        mt_dec_feed(&d, b, (size_t)k);
    assert_int_equal(k, 0);
    mt_dec_finish(&d);
    return a[0];
}

static void test_crc32c_check_value(void **state)
{
    (void)state;
    assert_int_equal(mt_crc32c("123456789", 9), 0xE3069283u); /* the CRC-32C check value */
    assert_int_equal(mt_crc32c("", 0), 0);
}

/* Offsets of the parts of a finished version 2 file. */
typedef struct {
    size_t hdr_end, idx_off, foot_off;
} layout;

static layout layout_of(const uint8_t *p, size_t n)
{
    layout l;
    l.hdr_end = 8 + mt_get_u32(p + 4);
    l.foot_off = n - 28;
    assert_int_equal(mt_get_u32(p + l.foot_off), MT_MTR_MAGIC_FOOT);
    l.idx_off = mt_get_u64(p + l.foot_off + 8);
    assert_int_equal(mt_get_u32(p + l.idx_off), MT_MTR_MAGIC_IDX);
    return l;
}

/* Any one flipped bit or byte of the header: the file is refused, never read with other values. */
static void test_header_flips_refused(void **state)
{
    (void)state;
    const char *path = tmpname("hdr"), *bad = tmpname("hdrbad");
    size_t n;
    uint8_t *p = write_file(path, &n);
    layout l = layout_of(p, n);
    char err[256];
    mt_file *f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    assert_int_equal(mt_file_header_get(f)->header_checked, 1);
    assert_int_equal(mt_file_header_get(f)->index_state, MT_INDEX_CHECKED);
    mt_file_close(f);
    int refused = 0;
    for (size_t i = 0; i < l.hdr_end; i++)
        for (int m = 0; m < 2; m++) {
            uint8_t *q = malloc(n);
            memcpy(q, p, n);
            q[i] ^= m ? 0xFF : 0x04;
            put_file(bad, q, n);
            free(q);
            f = mt_file_open(bad, err, sizeof err);
            if (f)
                fail_msg("header byte %zu ^ %s: opened", i, m ? "0xff" : "0x04");
            refused++;
        }
    assert_int_equal(refused, 2 * l.hdr_end);
    free(p);
    unlink(path);
    unlink(bad);
}

/* Any one flipped byte of the index or footer: the index is set aside (MT_INDEX_BAD, a reason
 * given) and a range query gives the intact file's answer by scanning. */
static void test_index_flips_set_aside(void **state)
{
    (void)state;
    const char *path = tmpname("idx"), *bad = tmpname("idxbad");
    size_t n;
    uint8_t *p = write_file(path, &n);
    layout l = layout_of(p, n);
    char err[256];
    mt_file *f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    size_t nidx;
    assert_non_null(mt_file_index(f, &nidx));
    assert_true(nidx >= 10);
    answer want = query(f, 20000, 24000);
    assert_true(want.n > 100);
    mt_file_close(f);
    for (size_t i = l.idx_off; i < n; i++) {
        uint8_t *q = malloc(n);
        memcpy(q, p, n);
        q[i] ^= 0x10;
        put_file(bad, q, n);
        free(q);
        f = mt_file_open(bad, err, sizeof err);
        if (!f)
            fail_msg("index byte %zu: refused (%s)", i - l.idx_off, err);
        const mt_file_header *h = mt_file_header_get(f);
        if (h->index_state != MT_INDEX_BAD || !h->index_note[0] || mt_file_index(f, &nidx))
            fail_msg("index byte %zu: not set aside (state %d)", i - l.idx_off, h->index_state);
        answer got = query(f, 20000, 24000);
        assert_int_equal(got.n, want.n);
        assert_int_equal(got.sum, want.sum);
        mt_file_close(f);
    }
    free(p);
    unlink(path);
    unlink(bad);
}

/* An index with a good checksum that does not describe the file's frames (one entry's frame
 * offset, stream size, or cycles moved, checksum recomputed) is set aside by the check against
 * the frames. */
static void test_index_checked_against_frames(void **state)
{
    (void)state;
    const char *path = tmpname("verify"), *bad = tmpname("verifybad");
    size_t n;
    uint8_t *p = write_file(path, &n);
    layout l = layout_of(p, n);
    size_t body = 8 + mt_get_u32(p + l.idx_off + 4) - 4; /* index payload without its checksum, from +8 */
    static const struct {
        unsigned entry, word;
        int64_t delta;
    } moves[] = {{3, 0, 1}, {3, 1, -1}, {2, 2, 8}, {4, 3, 1}, {5, 4, 100000}, {5, 5, -100000}, {0, 0, -1}};
    for (size_t k = 0; k < sizeof moves / sizeof moves[0]; k++) {
        uint8_t *q = malloc(n);
        memcpy(q, p, n);
        uint8_t *w = q + l.idx_off + 8 + 16 + (moves[k].entry * 7 + moves[k].word) * 8;
        mt_put_u64(w, mt_get_u64(w) + (uint64_t)moves[k].delta);
        mt_put_u32(q + l.idx_off + 8 + body - 8, mt_crc32c(q + l.idx_off + 8, body - 8));
        put_file(bad, q, n);
        free(q);
        char err[256];
        mt_file *f = mt_file_open(bad, err, sizeof err);
        assert_non_null(f);
        if (mt_file_header_get(f)->index_state != MT_INDEX_BAD)
            fail_msg("move %zu: index accepted", k);
        mt_file_close(f);
    }
    free(p);
    unlink(path);
    unlink(bad);
}

/* The file as the writer wrote it before the checksums (version 1: "MTRHDR01" without the
 * trailing CRC, "MTRIDX01" without it, the 16-byte "MTRFOOT1" footer), made from a version 2
 * file by the old layout's rules: the header 4 bytes shorter moves every frame 4 bytes back. */
static uint8_t *to_version1(const uint8_t *p, size_t n, size_t *on)
{
    layout l = layout_of(p, n);
    uint8_t *o = malloc(n);
    size_t k = 0;
    uint32_t hsz = mt_get_u32(p + 4) - 4;
    memcpy(o, p, 8);
    mt_put_u32(o + 4, hsz);
    memcpy(o + 8, p + 8, hsz);
    memcpy(o + 8, "MTRHDR01", 8);
    k = 8 + hsz;
    memcpy(o + k, p + l.hdr_end, l.idx_off - l.hdr_end); /* the data frames */
    k += l.idx_off - l.hdr_end;
    uint64_t idx_off = k;
    uint32_t isz = mt_get_u32(p + l.idx_off + 4) - 4;
    memcpy(o + k, p + l.idx_off, 8 + isz);
    mt_put_u32(o + k + 4, isz);
    memcpy(o + k + 8, "MTRIDX01", 8);
    uint64_t cnt = mt_get_u64(o + k + 16);
    for (uint64_t i = 0; i < cnt; i++) {
        uint8_t *fo = o + k + 8 + 16 + i * 7 * 8;
        mt_put_u64(fo, mt_get_u64(fo) - 4);
    }
    k += 8 + isz;
    mt_put_u32(o + k, MT_MTR_MAGIC_FOOT);
    mt_put_u32(o + k + 4, 16);
    mt_put_u64(o + k + 8, idx_off);
    memcpy(o + k + 16, "MTRFOOT1", 8);
    k += 24;
    *on = k;
    return o;
}

static void test_version1_reads_unchecked(void **state)
{
    (void)state;
    const char *path = tmpname("v2"), *old = tmpname("v1");
    size_t n, on;
    uint8_t *p = write_file(path, &n);
    uint8_t *o = to_version1(p, n, &on);
    put_file(old, o, on);
    char err[256];
    mt_file *f2 = mt_file_open(path, err, sizeof err), *f1 = mt_file_open(old, err, sizeof err);
    assert_non_null(f2);
    assert_non_null(f1);
    const mt_file_header *h1 = mt_file_header_get(f1);
    assert_int_equal(h1->header_checked, 0);
    assert_int_equal(h1->index_state, MT_INDEX_UNCHECKED);
    assert_string_equal(h1->info, mt_file_header_get(f2)->info);
    size_t n1, n2;
    assert_non_null(mt_file_index(f1, &n1));
    assert_non_null(mt_file_index(f2, &n2));
    assert_int_equal(n1, n2);
    for (uint64_t lo = 1000; lo < 40000; lo += 7777) {
        answer a = query(f1, lo, lo + 3000), b = query(f2, lo, lo + 3000);
        assert_int_equal(a.n, b.n);
        assert_int_equal(a.sum, b.sum);
    }
    mt_file_close(f1);
    mt_file_close(f2);
    /* without a checksum, an entry moved off its frame is still caught by the check */
    uint64_t idx_off = mt_get_u64(o + on - 16);
    uint8_t *e = o + idx_off + 8 + 16 + 2 * 7 * 8;
    mt_put_u64(e, mt_get_u64(e) + 3);
    put_file(old, o, on);
    f1 = mt_file_open(old, err, sizeof err);
    assert_non_null(f1);
    assert_int_equal(mt_file_header_get(f1)->index_state, MT_INDEX_BAD);
    mt_file_close(f1);
    free(p);
    free(o);
    unlink(path);
    unlink(old);
}

/* A file cut anywhere in its index or footer: every frame is read, nothing is reported lost. */
static void test_cut_in_index_loses_nothing(void **state)
{
    (void)state;
    const char *path = tmpname("cutidx"), *cut = tmpname("cutidx2");
    size_t n;
    uint8_t *p = write_file(path, &n);
    layout l = layout_of(p, n);
    char err[256];
    mt_file *f = mt_file_open(path, err, sizeof err);
    answer want = query(f, 0, UINT64_MAX - 1);
    mt_file_close(f);
    for (size_t len = l.idx_off + 4; len < n; len += 5) {
        put_file(cut, p, len);
        f = mt_file_open(cut, err, sizeof err);
        assert_non_null(f);
        answer got = query(f, 0, UINT64_MAX - 1);
        assert_int_equal(got.n, want.n);
        assert_int_equal(got.sum, want.sum);
        if (mt_file_truncated(f))
            fail_msg("cut at index byte %zu: truncated", len - l.idx_off);
        assert_int_equal(mt_file_index_cut(f), 1);
        mt_file_close(f);
    }
    free(p);
    unlink(path);
    unlink(cut);
}

/* The tail: with tails every 1 ms and pauses of 3 ms between batches of samples, a copy of the
 * file taken while the writer runs (what a kill leaves: PATH.partial) reads back, without an
 * index, at least every sample written before the previous batch (frames alone would give
 * nothing: the whole stream fits in one 1 MiB frame); the finished file is byte-identical to one
 * written without tails. */
static size_t samples_in(const char *path)
{
    char err[256];
    mt_file *f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    tu_events ev = {0};
    mt_dec d;
    mt_dec_init(&d, tu_collect, &ev);
    uint8_t b[4096];
    ssize_t k;
    while ((k = mt_file_read(f, b, sizeof b)) > 0)
        mt_dec_feed(&d, b, (size_t)k);
    mt_dec_finish(&d);
    size_t n = 0;
    for (size_t i = 0; i < ev.n; i++)
        n += ev.ev[i].type == MT_DEV_SAMPLE;
    assert_int_equal(ev.losses, 0);
    free(ev.ev);
    mt_file_close(f);
    return n;
}

static void write_batches(const char *path, int tail_ms, int check_kill)
{
    char err[256], part[300], copy[300];
    snprintf(part, sizeof part, "%s.partial", path);
    snprintf(copy, sizeof copy, "%s.killed", path);
    mt_writer_config wc = {.producer = "test tail", .sync_period = 256, .tail_ms = tail_ms};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    uint64_t s = 3, c = 100;
    assert_int_equal(mt_writer_section(w, 0, MT_FMT_FULL, 1, c), 0);
    size_t written = 0, before_prev = 0;
    for (int batch = 0; batch < 6; batch++) {
        size_t before = written;
        for (int i = 0; i < 2000; i++, written++) {
            c += 1 + (tu_rand(&s) & 15);
            assert_int_equal(mt_writer_sample(w, c, tu_rand(&s) & 0xfffffff8ull, i & 1), 0);
        }
        if (check_kill && batch >= 2) {
            size_t n;
            uint8_t *p = get_file(part, &n);
            put_file(copy, p, n);
            free(p);
            size_t got = samples_in(copy);
            if (got < before_prev || got > written)
                fail_msg("batch %d: a kill now keeps %zu samples of %zu (at least %zu)", batch, got, written,
                         before_prev);
        }
        before_prev = before;
        usleep(3000);
    }
    if (check_kill)
        assert_true(mt_writer_tails(w) >= 4);
    else
        assert_int_equal(mt_writer_tails(w), 0);
    assert_int_equal(mt_writer_close(w), 0);
    unlink(copy);
}

static void test_tail_bounds_loss_same_file(void **state)
{
    (void)state;
    const char *a = tmpname("tail"), *b = tmpname("notail");
    write_batches(a, 1, 1);
    write_batches(b, -1, 0);
    size_t na, nb;
    uint8_t *pa = get_file(a, &na), *pb = get_file(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(pa, pb, na);
    free(pa);
    free(pb);
    unlink(a);
    unlink(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32c_check_value),
        cmocka_unit_test(test_header_flips_refused),
        cmocka_unit_test(test_index_flips_set_aside),
        cmocka_unit_test(test_index_checked_against_frames),
        cmocka_unit_test(test_version1_reads_unchecked),
        cmocka_unit_test(test_cut_in_index_loses_nothing),
        cmocka_unit_test(test_tail_bounds_loss_same_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
