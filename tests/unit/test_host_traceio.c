/* Trace files: CSV parsing and its errors, the 7-column CSV, and .mtr/.mtp round trips through
 * lib's container and software encoder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/traceio.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_csv_parse(void **state)
{
    (void)state;
    uint64_t c, a;
    int w;
    const char *why;
    assert_int_equal(csv_parse_access("12,0x80001000,W", &c, &a, &w, &why), 0);
    assert_int_equal(c, 12);
    assert_int_equal(a, 0x80001000);
    assert_int_equal(w, 1);
    assert_int_equal(csv_parse_access(" 0x10 , 4096 , r\n", &c, &a, &w, &why), 0);
    assert_int_equal(c, 16);
    assert_int_equal(a, 4096);
    assert_int_equal(w, 0);
    assert_int_equal(csv_parse_access("1,2", &c, &a, &w, &why), -1);
    assert_int_equal(csv_parse_access("1,zz,R", &c, &a, &w, &why), -1);
    assert_int_equal(csv_parse_access("1,2,X", &c, &a, &w, &why), -1);
    assert_int_equal(csv_parse_access("1,0x100000000000000,R", &c, &a, &w, &why), -1); /* > 56 bits */
    assert_int_equal(csv_parse_access("1,2,R,extra", &c, &a, &w, &why), -1);
}

static void test_csv_errors_name_file_and_line(void **state)
{
    (void)state;
    char path[] = "/tmp/test_host_traceio-XXXXXX.csv";
    int fd = mkstemps(path, 4);
    close(fd);
    char err[512];
    ht_record r;
    write_text(path, "cycle,address,rw\n1,0x10,R\n5,0x20,W\n3,0x30,R\n");
    ht_source *s = trace_open(path, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(ht_next(s, &r), 1);
    assert_int_equal(ht_next(s, &r), 1);
    assert_int_equal(r.write, 1);
    assert_int_equal(ht_next(s, &r), -1);
    assert_non_null(strstr(s->err, ":4: cycle 3 goes backwards"));
    assert_non_null(strstr(s->err, path));
    ht_close(s);
    write_text(path, "time,addr\n1,2\n");
    s = trace_open(path, err, sizeof err);
    assert_int_equal(ht_next(s, &r), -1);
    assert_non_null(strstr(s->err, ":1: expected the header"));
    ht_close(s);
    assert_null(trace_open("/nonexistent/x.csv", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.csv"));
    unlink(path);
}

static ht_record recs[6];

static void sampled_records(void)
{
    recs[0] = (ht_record){.cycle = 100, .kind = HT_REC_SECTION, .section = HT_SEC_BURST, .format = HT_FMT_48, .value = 24};
    recs[1] = (ht_record){.cycle = 100, .addr = 0x80001000, .kind = HT_REC_SAMPLE, .format = HT_FMT_48};
    recs[2] = (ht_record){.cycle = 172, .addr = 0x80002000, .kind = HT_REC_SAMPLE, .format = HT_FMT_48, .write = 1, .value = 2};
    recs[3] = (ht_record){.cycle = 196, .kind = HT_REC_SECTION, .section = HT_SEC_SPAN, .format = HT_FMT_32, .value = 2048};
    recs[4] = (ht_record){.cycle = 196, .addr = 0x80000000, .kind = HT_REC_SAMPLE, .format = HT_FMT_32, .section = HT_SEC_SPAN};
    recs[5] = (ht_record){.cycle = 196, .kind = HT_REC_MARKER, .value = 0xabc};
}

static void round_trip(const char *suffix)
{
    sampled_records();
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_host_traceio-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    close(fd);
    char err[512];
    trace_writer_opts o = {.producer = "test", .format = HT_FMT_48, .rate = 24};
    trace_writer *w = trace_create(path, &o, err, sizeof err);
    assert_non_null(w);
    for (int i = 0; i < 6; i++)
        assert_int_equal(trace_write(w, &recs[i]), 0);
    assert_int_equal(trace_finish(w, err, sizeof err), 0);
    ht_source *s = trace_open(path, err, sizeof err);
    assert_non_null(s);
    ht_record r;
    int samples = 0, markers = 0, sections = 0;
    while (ht_next(s, &r) == 1) {
        if (r.kind == HT_REC_SAMPLE) {
            const ht_record *want = &recs[samples == 0 ? 1 : samples == 1 ? 2 : 4];
            assert_int_equal(r.cycle, want->cycle);
            assert_int_equal(r.addr, want->addr);
            assert_int_equal(r.write, want->write);
            assert_int_equal(r.format, want->format);
            assert_int_equal(r.section, want->section);
            if (samples == 1 && strcmp(suffix, ".csv")) /* the CSV does not carry skips */
                assert_int_equal(r.value, 2); /* two empty intervals (124, 148) before it */
            samples++;
        }
        markers += r.kind == HT_REC_MARKER && r.value == 0xabc;
        sections += r.kind == HT_REC_SECTION;
    }
    assert_int_equal(samples, 3);
    assert_int_equal(markers, 1);
    assert_true(sections >= 2);
    /* a second pass gives the same */
    assert_int_equal(ht_rewind(s), 0);
    samples = 0;
    while (ht_next_sample(s, &r) == 1)
        samples++;
    assert_int_equal(samples, 3);
    ht_close(s);
    unlink(path);
}

static void test_rich_csv_round_trip(void **state)
{
    (void)state;
    round_trip(".csv");
}

static void test_mtr_round_trip(void **state)
{
    (void)state;
    round_trip(".mtr");
}

static void test_mtp_round_trip(void **state)
{
    (void)state;
    round_trip(".mtp");
}

/* Several accesses in one cycle cannot all sit on an r = 1 grid: later ones move forward. */
static void test_every_access_same_cycle(void **state)
{
    (void)state;
    char path[] = "/tmp/test_host_traceio-XXXXXX.mtr";
    int fd = mkstemps(path, 4);
    close(fd);
    char err[512];
    trace_writer_opts o = {.producer = "test", .format = HT_FMT_FULL, .rate = 1};
    trace_writer *w = trace_create(path, &o, err, sizeof err);
    ht_record a = ht_full_sample(10, 0x1000, 0), b = ht_full_sample(10, 0x2000, 1),
              c = ht_full_sample(50, 0x3008, 0);
    trace_write(w, &a);
    trace_write(w, &b);
    trace_write(w, &c);
    assert_int_equal(trace_finish(w, err, sizeof err), 0);
    ht_source *s = trace_open(path, err, sizeof err);
    ht_record r;
    uint64_t want_c[3] = {10, 11, 50}, want_a[3] = {0x1000, 0x2000, 0x3008};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ht_next_sample(s, &r), 1);
        assert_int_equal(r.cycle, want_c[i]);
        assert_int_equal(r.addr, want_a[i]);
        assert_int_equal(r.format, HT_FMT_FULL);
    }
    assert_int_equal(ht_next_sample(s, &r), 0);
    ht_close(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_parse),
        cmocka_unit_test(test_csv_errors_name_file_and_line),
        cmocka_unit_test(test_rich_csv_round_trip),
        cmocka_unit_test(test_mtr_round_trip),
        cmocka_unit_test(test_mtp_round_trip),
        cmocka_unit_test(test_every_access_same_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
