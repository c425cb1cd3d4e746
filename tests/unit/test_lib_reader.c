/* mt_reader (lib/mt_reader.h), the chunked reader that Python's ctypes binding uses: the records
 * equal what was written whatever the chunk size (RUNs expanded across chunk ends), the header
 * text and its truncation, rewind, strict and lenient handling of a damaged stream, bad files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mt_mtr.h"
#include "mt_reader.h"
#include "mt_version.h"

#define N_BURST 3000
#define N_SPAN 500
#define N_ALL (N_BURST + N_SPAN)

static char *tmpname(const char *tag, const char *ext)
{
    static char buf[2][256];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "/tmp/test_lib_reader_%d_%s.%s", (int)getpid(), tag, ext);
    return buf[k];
}

typedef struct {
    uint64_t cycle, addr;
    unsigned rw;
} wsample;

/* Bursts of full-address samples every 10 cycles (runs of one line, so RUN packets appear), then
 * a span of line samples every 100 cycles; a marker and an overflow between them. */
static wsample *expected(void)
{
    static wsample s[N_ALL];
    for (int i = 0; i < N_BURST; i++)
        s[i] = (wsample){100 + 10 * (uint64_t)i, 0x80000000u + (uint64_t)(i / 8) * 64 + (i % 3) * 8, (unsigned)(i % 5 == 0)};
    for (int i = 0; i < N_SPAN; i++)
        s[N_BURST + i] = (wsample){200000 + 100 * (uint64_t)i, 0x90000000u + (uint64_t)i * 4096 + 0x40, (unsigned)(i & 1)};
    return s;
}

static const char *write_trace(void)
{
    const char *path = tmpname("t", "mtr");
    char err[256];
    mt_writer_config cfg = {.producer = "test_lib_reader", .info = "workload=unit\n", .sync_period = 256};
    mt_writer *w = mt_writer_create(path, &cfg, err, sizeof err);
    assert_non_null(w);
    wsample *s = expected();
    assert_int_equal(mt_writer_section(w, 0, MT_FMT_FULL, 10, 100), 0);
    for (int i = 0; i < N_BURST; i++)
        assert_int_equal(mt_writer_sample(w, s[i].cycle, s[i].addr, s[i].rw), 0);
    assert_int_equal(mt_writer_marker(w, 0x1234), 0);
    assert_int_equal(mt_writer_overflow(w, 7), 0);
    assert_int_equal(mt_writer_section(w, 1, MT_FMT_LINE, 100, 200000), 0);
    for (int i = 0; i < N_SPAN; i++)
        assert_int_equal(mt_writer_sample(w, s[N_BURST + i].cycle, s[N_BURST + i].addr, s[N_BURST + i].rw), 0);
    assert_int_equal(mt_writer_close(w), 0);
    return path;
}

static void check_record(const mt_sample_rec *r, int i)
{
    wsample *s = expected();
    assert_int_equal(r->cycle, s[i].cycle);
    assert_int_equal(r->write, s[i].rw);
    if (i < N_BURST) {
        assert_int_equal(r->section, 0);
        assert_int_equal(r->format, MT_FMT_FULL);
        assert_int_equal(r->address, s[i].addr);
        assert_int_equal(r->value, s[i].addr); /* full: the address, R/W apart */
    } else {
        assert_int_equal(r->section, 1);
        assert_int_equal(r->format, MT_FMT_LINE);
        assert_int_equal(r->address, s[i].addr & ~(uint64_t)63);
        assert_int_equal(r->value, s[i].addr >> 6); /* line: the line number */
    }
    for (int k = 0; k < 5; k++)
        assert_int_equal(r->reserved[k], 0);
}

static void test_chunk_sizes(void **state)
{
    (void)state;
    const char *path = write_trace();
    static const size_t sizes[] = {1, 7, 128, 1000, 100000};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        char err[256];
        mt_reader *r = mt_reader_open(path, err, sizeof err);
        assert_non_null(r);
        mt_sample_rec *out = calloc(sizes[z], sizeof *out);
        int seen = 0;
        long got;
        while ((got = mt_reader_next(r, out, sizes[z], 1)) > 0) {
            assert_true((size_t)got <= sizes[z]);
            for (long i = 0; i < got; i++)
                check_record(&out[i], seen + (int)i);
            seen += (int)got;
        }
        assert_int_equal(got, 0);
        assert_int_equal(seen, N_ALL);
        assert_int_equal(mt_reader_next(r, out, sizes[z], 1), 0); /* stays at the end */
        mt_reader_stats st;
        mt_reader_get_stats(r, &st);
        assert_int_equal(st.samples, N_ALL);
        assert_int_equal(st.writes, N_BURST / 5 + N_SPAN / 2);
        assert_int_equal(st.markers, 1);
        assert_int_equal(st.dropped, 7);
        assert_int_equal(st.losses, 0);
        assert_string_equal(mt_reader_error(r), "");
        free(out);
        mt_reader_close(r);
    }
    unlink(path);
}

static void test_header_and_rewind(void **state)
{
    (void)state;
    const char *path = write_trace();
    char err[256];
    mt_reader *r = mt_reader_open(path, err, sizeof err);
    assert_non_null(r);
    size_t need = mt_reader_header(r, NULL, 0);
    char *h = malloc(need + 1);
    assert_int_equal(mt_reader_header(r, h, need + 1), need);
    assert_int_equal(strlen(h), need);
    assert_non_null(strstr(h, "container=mtr\n"));
    assert_non_null(strstr(h, "ref_hz=1000000000\n"));
    assert_non_null(strstr(h, "has_index=1\n"));
    assert_non_null(strstr(h, "producer=test_lib_reader\n"));
    assert_non_null(strstr(h, "workload=unit\n"));
    char small[10];
    assert_int_equal(mt_reader_header(r, small, sizeof small), need); /* truncated, terminated */
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, h, sizeof small - 1);
    free(h);

    mt_sample_rec a[50], b[50];
    assert_int_equal(mt_reader_next(r, a, 50, 1), 50);
    assert_int_equal(mt_reader_rewind(r), 0);
    assert_int_equal(mt_reader_next(r, b, 50, 1), 50);
    assert_memory_equal(a, b, sizeof a);
    mt_reader_stats st;
    mt_reader_get_stats(r, &st);
    assert_int_equal(st.samples, 50);
    mt_reader_close(r);
    unlink(path);
}

/* The stream of the trace as a raw .mtp with bytes overwritten in its middle. */
static const char *damaged_copy(const char *path)
{
    char err[256];
    mt_file *f = mt_file_open(path, err, sizeof err);
    assert_non_null(f);
    static uint8_t buf[1 << 20];
    size_t n = 0;
    ssize_t k;
    while ((k = mt_file_read(f, buf + n, sizeof buf - n)) > 0)
        n += (size_t)k;
    mt_file_close(f);
    assert_true(n > 1000);
    memset(buf + n / 2, 0xff, 40);
    const char *out = tmpname("damaged", "mtp");
    FILE *o = fopen(out, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(buf, 1, n, o), n);
    fclose(o);
    return out;
}

static void test_damaged_stream(void **state)
{
    (void)state;
    const char *path = write_trace();
    const char *bad = damaged_copy(path);
    char err[256];
    mt_sample_rec out[256];
    /* strict: an error naming the file and the stream offset */
    mt_reader *r = mt_reader_open(bad, err, sizeof err);
    assert_non_null(r);
    long got, total = 0;
    while ((got = mt_reader_next(r, out, 256, 1)) > 0)
        total += got;
    assert_int_equal(got, -1);
    assert_true(total < N_ALL);
    assert_non_null(strstr(mt_reader_error(r), bad));
    assert_non_null(strstr(mt_reader_error(r), "stream offset"));
    assert_int_equal(mt_reader_next(r, out, 256, 1), -1); /* stays failed */
    mt_reader_close(r);
    /* lenient: decodes on past the loss and counts it */
    r = mt_reader_open(bad, err, sizeof err);
    assert_non_null(r);
    total = 0;
    while ((got = mt_reader_next(r, out, 256, 0)) > 0)
        total += got;
    assert_int_equal(got, 0);
    mt_reader_stats st;
    mt_reader_get_stats(r, &st);
    assert_true(st.losses > 0);
    assert_true(total > N_ALL / 2 && total < N_ALL);
    assert_int_equal(st.samples, (uint64_t)total);
    mt_reader_close(r);
    unlink(bad);
    unlink(path);
}

static void test_bad_files(void **state)
{
    (void)state;
    char err[256];
    const char *missing = tmpname("missing", "mtr");
    assert_null(mt_reader_open(missing, err, sizeof err));
    assert_non_null(strstr(err, missing));
    const char *text = tmpname("text", "mtr");
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("cycle,address,rw\n1,0x80000000,R\n", f);
    fclose(f);
    assert_null(mt_reader_open(text, err, sizeof err));
    assert_non_null(strstr(err, text));
    unlink(text);
    assert_string_equal(mt_version(), MT_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunk_sizes),
        cmocka_unit_test(test_header_and_rewind),
        cmocka_unit_test(test_damaged_stream),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
