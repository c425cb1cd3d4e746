/* The region-of-interest stage (host/roi.c): the shared option parser, cycle and marker
 * selection on hand-built traces (expected records written out by hand), rewind, and an .mtr
 * read through its index giving the same records as the filtered linear read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/roi.h"
#include "host/traceio.h"
#include "mt_mtr.h"

static ht_record rec(uint64_t cycle, ht_record_kind k, uint64_t value)
{
    ht_record r = {.cycle = cycle, .kind = (uint8_t)k, .value = value};
    if (k == HT_REC_SAMPLE)
        r.addr = 0x80000000ull + value * 64;
    return r;
}

/* A sampled-looking trace: a burst section, two workload regions bracketed by markers
 * (begin 0x01000101 / end 0x01000102, then 0x02000101 / 0x02000102), a span section. */
static const uint64_t A1 = 0x01000101, B1 = 0x01000102, A2 = 0x02000101, B2 = 0x02000102;
static size_t build(ht_record *t)
{
    size_t n = 0;
    t[n++] = rec(10, HT_REC_SECTION, 4);   /* 0 */
    t[n++] = rec(10, HT_REC_SAMPLE, 1);    /* 1 */
    t[n++] = rec(14, HT_REC_MARKER, B1);   /* 2: an end before any begin: ignored */
    t[n++] = rec(14, HT_REC_SAMPLE, 2);    /* 3 */
    t[n++] = rec(18, HT_REC_MARKER, A1);   /* 4 */
    t[n++] = rec(18, HT_REC_SAMPLE, 3);    /* 5 */
    t[n++] = rec(22, HT_REC_OVERFLOW, 2);  /* 6 */
    t[n++] = rec(30, HT_REC_SAMPLE, 4);    /* 7 */
    t[n++] = rec(34, HT_REC_MARKER, A2);   /* 8 */
    t[n++] = rec(34, HT_REC_SAMPLE, 5);    /* 9 */
    t[n++] = rec(38, HT_REC_MARKER, B1);   /* 10 */
    t[n++] = rec(38, HT_REC_SAMPLE, 6);    /* 11 */
    t[n++] = rec(100, HT_REC_SECTION, 64); /* 12 */
    t[n++] = rec(100, HT_REC_SAMPLE, 7);   /* 13 */
    t[n++] = rec(228, HT_REC_SAMPLE, 8);   /* 14 */
    t[n++] = rec(292, HT_REC_MARKER, B2);  /* 15 */
    t[n++] = rec(292, HT_REC_SAMPLE, 9);   /* 16 */
    t[n++] = rec(300, HT_REC_MARKER, A1);  /* 17: a second begin: only the first counts */
    t[n++] = rec(356, HT_REC_SAMPLE, 10);  /* 18 */
    t[n++] = rec(420, HT_REC_MARKER, B1);  /* 19 */
    return n;
}

static void same_record(const ht_record *a, const ht_record *b)
{
    assert_int_equal(a->cycle, b->cycle);
    assert_int_equal(a->addr, b->addr);
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->write, b->write);
    assert_int_equal(a->format, b->format);
    assert_int_equal(a->section, b->section);
}

/* Reads src to the end (twice, with a rewind in between, which must give the same) and checks
 * it equals the records of t at the indices `want` (-1 terminated). */
static void expect(ht_source *src, const ht_record *t, const int *want)
{
    for (int pass = 0; pass < 2; pass++) {
        ht_record r;
        size_t i = 0;
        int got;
        while ((got = ht_next(src, &r)) == 1) {
            assert_true(want[i] >= 0);
            same_record(&r, &t[want[i]]);
            i++;
        }
        assert_int_equal(got, 0);
        assert_int_equal(want[i], -1);
        assert_int_equal(ht_next(src, &r), 0); /* stays at the end */
        assert_int_equal(ht_rewind(src), 0);
    }
    ht_close(src);
}

static roi_opts cycles(uint64_t from, uint64_t to)
{
    roi_opts o = {.from = from, .to = to};
    return o;
}

static void test_cycle_range(void **state)
{
    (void)state;
    ht_record t[32];
    size_t n = build(t);
    roi_opts o = cycles(0, UINT64_MAX);
    assert_false(roi_active(&o));
    static const int all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, all);
    /* [20, 100]: the burst SECTION at 10 is handed on before the first record in range */
    o = cycles(20, 100);
    assert_true(roi_active(&o));
    static const int mid[] = {0, 6, 7, 8, 9, 10, 11, 12, 13, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, mid);
    /* [101, 300]: inside the span section */
    o = cycles(101, 300);
    static const int late[] = {12, 14, 15, 16, 17, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, late);
    /* one cycle, exactly; a range with nothing in it */
    o = cycles(228, 228);
    static const int one[] = {12, 14, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, one);
    o = cycles(40, 99);
    static const int none[] = {-1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, none);
}

static void test_between_markers(void **state)
{
    (void)state;
    ht_record t[32];
    size_t n = build(t);
    /* A1..B1: after record 4, up to record 10 (both markers excluded); the A2 marker inside is kept */
    roi_opts o = {.to = UINT64_MAX, .markers = 1, .mark_a = A1, .mark_b = B1};
    static const int r1[] = {0, 5, 6, 7, 8, 9, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, r1);
    /* A2..B2 spans a section change */
    o.mark_a = A2;
    o.mark_b = B2;
    static const int r2[] = {0, 9, 10, 11, 12, 13, 14, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, r2);
    /* with a cycle range as well: the intersection */
    o.from = 100;
    static const int r3[] = {12, 13, 14, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &o), t, r3);
    /* a begin that never comes, an end that never comes */
    roi_opts miss = {.to = UINT64_MAX, .markers = 1, .mark_a = 0x77, .mark_b = B1};
    static const int none[] = {-1};
    expect(roi_filter(ht_array_source(t, n, "t"), &miss), t, none);
    miss.mark_a = A2;
    miss.mark_b = 0x77;
    static const int rest[] = {0, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, -1};
    expect(roi_filter(ht_array_source(t, n, "t"), &miss), t, rest);
}

static int parse(unsigned flags, const char *line, roi_opts *o, int *argc, char **argv)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s", line);
    *argc = 0;
    for (char *p = strtok(buf, " "); p; p = strtok(NULL, " "))
        argv[(*argc)++] = p;
    argv[*argc] = NULL;
    return roi_parse_args("test", flags, argc, argv, o);
}

static void test_parse_args(void **state)
{
    (void)state;
    roi_opts o;
    int argc;
    char *argv[32];
    assert_int_equal(parse(0, "policy t.mtr --budget 8M --from 100 --to=0x200 --between-markers 0x1000101,16777474",
                           &o, &argc, argv), 0);
    assert_int_equal(argc, 4);
    assert_string_equal(argv[1], "t.mtr");
    assert_string_equal(argv[2], "--budget");
    assert_string_equal(argv[3], "8M");
    assert_null(argv[4]);
    assert_int_equal(o.from, 100);
    assert_int_equal(o.to, 0x200);
    assert_int_equal(o.markers, 1);
    assert_int_equal(o.mark_a, 0x1000101);
    assert_int_equal(o.mark_b, 0x1000102);
    /* export's --to names a format: left for the command, --to-cycle is the range */
    assert_int_equal(parse(ROI_KEEP_TO, "export t.mtr --to csv --from-cycle 5 --to-cycle 9", &o, &argc, argv), 0);
    assert_int_equal(argc, 4);
    assert_string_equal(argv[2], "--to");
    assert_string_equal(argv[3], "csv");
    assert_int_equal(o.from, 5);
    assert_int_equal(o.to, 9);
    assert_int_equal(o.markers, 0);
    /* nothing given: everything */
    assert_int_equal(parse(0, "info t.mtr", &o, &argc, argv), 0);
    assert_int_equal(argc, 2);
    assert_false(roi_active(&o));
    /* after "--" nothing is an option */
    assert_int_equal(parse(0, "info -- --from", &o, &argc, argv), 0);
    assert_int_equal(argc, 3);
    /* bad values */
    assert_int_equal(parse(0, "info t.mtr --from x", &o, &argc, argv), 2);
    assert_int_equal(parse(0, "info t.mtr --to 5 --from 6", &o, &argc, argv), 2);
    assert_int_equal(parse(0, "info t.mtr --between-markers 5", &o, &argc, argv), 2);
    assert_int_equal(parse(0, "info t.mtr --between-markers 5,", &o, &argc, argv), 2);
    assert_int_equal(parse(0, "info t.mtr --between-markers 0x100000000,1", &o, &argc, argv), 2);
}

/* An .mtr with many small frames: the region read through the index equals the whole trace's
 * records filtered by the same stage, and the index was really used; cut short (no index) it
 * is scanned and says so through *indexed. */
static void test_mtr_index(void **state)
{
    (void)state;
    char path[128], cut[140];
    snprintf(path, sizeof path, "/tmp/test_host_roi_%d.mtr", (int)getpid());
    snprintf(cut, sizeof cut, "%s.cut.mtr", path);
    char err[600];
    mt_writer_config wc = {.producer = "test_host_roi", .frame_bytes = 1024, .sync_period = 128};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    uint64_t c = 500, x = 1;
    assert_int_equal(mt_writer_section(w, 0, MT_FMT_FULL, 4, c), 0);
    for (int i = 0; i < 40000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        c += 4 * (1 + (x >> 60));
        assert_int_equal(mt_writer_sample(w, c, 0x80000000ull + ((x >> 20) & 0xfffffc0ull), (x >> 33) & 1), 0);
        if (i % 5000 == 17)
            assert_int_equal(mt_writer_marker(w, (uint32_t)i), 0);
    }
    assert_int_equal(mt_writer_close(w), 0);
    /* the killed writer's copy: the first 60% of the file */
    FILE *in = fopen(path, "rb"), *o = fopen(cut, "wb");
    fseek(in, 0, SEEK_END);
    long len = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *buf = malloc((size_t)len);
    assert_int_equal(fread(buf, 1, (size_t)len, in), (size_t)len);
    fwrite(buf, 1, (size_t)(len * 6 / 10), o);
    fclose(in);
    fclose(o);
    free(buf);

    const char *files[2] = {path, cut};
    for (int fi = 0; fi < 2; fi++) {
        ht_source *lin = trace_open(files[fi], err, sizeof err);
        assert_non_null(lin);
        ht_record *all = NULL;
        size_t n = 0, cap = 0;
        ht_record r;
        while (ht_next(lin, &r) == 1) {
            if (n == cap) {
                cap = cap * 2 + 1024;
                all = realloc(all, cap * sizeof *all);
            }
            all[n++] = r;
        }
        ht_close(lin);
        uint64_t span = c - 500;
        for (int t = 0; t < 8; t++) {
            roi_opts ro = cycles(500 + span * (uint64_t)t / 8, 500 + span * (uint64_t)t / 8 + span / 20);
            if (t == 7)
                ro = cycles(500 + span / 3, UINT64_MAX);
            int indexed;
            ht_source *sought = roi_open(files[fi], &ro, &indexed, err, sizeof err);
            assert_non_null(sought);
            assert_int_equal(indexed, fi == 0 ? 1 : -1);
            ht_source *ref = roi_filter(ht_array_source(all, n, "all"), &ro);
            size_t k = 0;
            ht_record a, b;
            int ga, gb;
            while ((ga = ht_next(ref, &a)) == 1) {
                gb = ht_next(sought, &b);
                assert_int_equal(gb, 1);
                same_record(&a, &b);
                k++;
            }
            assert_int_equal(ga, 0);
            assert_int_equal(ht_next(sought, &b), 0);
            assert_true(k > 100 || fi == 1);
            ht_close(ref);
            ht_close(sought);
        }
        free(all);
    }
    unlink(path);
    unlink(cut);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycle_range),
        cmocka_unit_test(test_between_markers),
        cmocka_unit_test(test_parse_args),
        cmocka_unit_test(test_mtr_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
