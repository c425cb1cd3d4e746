/* HMTT records as the SPEC2017-Trace README defines them: codec, +2 GiB adjustment, fillers,
 * sequence gaps, and the kernel PTE record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/hmtt.h"

static void test_record_layout(void **state)
{
    (void)state;
    hmtt_record r = {.seq = 0x12, .duration = 0x34, .read = 1, .raw_addr = 0x1234567};
    uint64_t tmp = hmtt_pack(&r);
    assert_int_equal(tmp, (UINT64_C(0x12) << 40) | (UINT64_C(0x34) << 32) | (UINT64_C(1) << 31) | 0x1234567);
    uint8_t b[6];
    hmtt_put(b, tmp);
    /* little-endian: the address's low byte first, seq last */
    assert_int_equal(b[0], 0x67);
    assert_int_equal(b[3], 0x81); /* 0x01 | read bit 31 */
    assert_int_equal(b[4], 0x34);
    assert_int_equal(b[5], 0x12);
    hmtt_record back;
    hmtt_unpack(hmtt_get(b), &back);
    assert_int_equal(back.seq, 0x12);
    assert_int_equal(back.duration, 0x34);
    assert_int_equal(back.read, 1);
    assert_int_equal(back.raw_addr, 0x1234567);
}

static void test_two_gib_adjustment(void **state)
{
    (void)state;
    assert_int_equal(hmtt_phys_addr(1), 64);
    assert_int_equal(hmtt_phys_addr(0x1ffffff), 0x7fffffc0);          /* just below 2 GiB */
    assert_int_equal(hmtt_phys_addr(0x2000000), UINT64_C(0x100000000)); /* 2 GiB -> 4 GiB */
    uint32_t raw;
    assert_int_equal(hmtt_raw_of_phys(UINT64_C(0x100000000), &raw), 0);
    assert_int_equal(raw, 0x2000000);
    assert_int_equal(hmtt_raw_of_phys(0x7fffffff, &raw), 0);
    assert_int_equal(raw, 0x1ffffff);
    assert_int_equal(hmtt_raw_of_phys(0x80000000u, &raw), -1); /* the hole [2 GiB, 4 GiB) */
    assert_int_equal(hmtt_raw_of_phys((UINT64_C(0x7fffffff) << 6) + (UINT64_C(2) << 30), &raw), 0);
    assert_int_equal(hmtt_raw_of_phys((UINT64_C(0x80000000) << 6) + (UINT64_C(2) << 30), &raw), -1);
}

static char *temp_path(void)
{
    char *p = strdup("/tmp/test_host_hmtt-XXXXXX");
    int fd = mkstemp(p);
    assert_true(fd >= 0);
    close(fd);
    return p;
}

static void test_round_trip_with_fillers(void **state)
{
    (void)state;
    char *path = temp_path();
    FILE *f = fopen(path, "wb");
    hmtt_writer *w = hmtt_writer_new(f, 1);
    const char *why;
    /* cycles 1000 (t=0), 1010 (+10), 1300 (+290 = 1 filler + 34), 1812 (+512 = 2 fillers + 0) */
    uint64_t cyc[4] = {1000, 1010, 1300, 1812};
    uint64_t addr[4] = {0x40, 0x12345680, UINT64_C(0x100000040), 0x7fffffc0};
    int wr[4] = {0, 1, 0, 1};
    for (int i = 0; i < 4; i++)
        assert_int_equal(hmtt_writer_access(w, cyc[i], addr[i], wr[i], &why), 0);
    hmtt_writer_stats st;
    hmtt_writer_stats_get(w, &st);
    assert_int_equal(st.records, 4);
    assert_int_equal(st.fillers, 3);
    assert_int_equal(st.ambiguous, 0);
    assert_int_equal(hmtt_writer_access(w, 2000, 0x80000000u, 0, &why), -1); /* the hole */
    hmtt_writer_free(w);
    fclose(f);

    /* raw bytes: 7 records, sequence 0..6, fillers all-zero but the seq */
    f = fopen(path, "rb");
    uint8_t buf[64];
    assert_int_equal(fread(buf, 1, sizeof buf, f), 42);
    fclose(f);
    hmtt_record r;
    hmtt_unpack(hmtt_get(buf + 2 * 6), &r); /* third record: the filler */
    assert_int_equal(r.seq, 2);
    assert_true(hmtt_is_filler(&r));
    hmtt_unpack(hmtt_get(buf + 3 * 6), &r);
    assert_int_equal(r.duration, 34);
    assert_int_equal(r.read, 1);

    char err[256];
    ht_source *src = hmtt_open(path, 1, err, sizeof err);
    assert_non_null(src);
    ht_record rec;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(ht_next(src, &rec), 1);
        assert_int_equal(rec.kind, HT_REC_SAMPLE);
        assert_int_equal(rec.cycle, cyc[i] - 1000);
        assert_int_equal(rec.addr, addr[i]);
        assert_int_equal(rec.write, wr[i]);
        assert_int_equal(rec.format, HT_FMT_LINE);
    }
    assert_int_equal(ht_next(src, &rec), 0);
    ht_close(src);
    unlink(path);
    free(path);
}

static void test_sequence_gaps_are_reported(void **state)
{
    (void)state;
    char *path = temp_path();
    FILE *f = fopen(path, "wb");
    /* seq 254, 255, 0 (wraps: no loss), 4 (3 lost), 5 filler, 9 filler (3 lost), 10 */
    struct { uint8_t seq, dur, read; uint32_t raw; } in[] = {
        {254, 5, 1, 1}, {255, 5, 1, 2}, {0, 5, 0, 3}, {4, 7, 1, 4}, {5, 0, 0, 0}, {9, 0, 0, 0}, {10, 1, 1, 5}};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        hmtt_record r = {in[i].seq, in[i].dur, in[i].read, in[i].raw};
        uint8_t b[6];
        hmtt_put(b, hmtt_pack(&r));
        fwrite(b, 1, 6, f);
    }
    fputc(0xaa, f); /* a truncated trailing record must be an error, not silence */
    fclose(f);
    char err[256];
    ht_source *src = hmtt_open(path, 2, err, sizeof err);
    ht_record rec;
    uint64_t expect_cycles[] = {10, 20, 30};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ht_next(src, &rec), 1);
        assert_int_equal(rec.kind, HT_REC_SAMPLE);
        assert_int_equal(rec.cycle, expect_cycles[i]); /* ticks x 2 */
    }
    assert_int_equal(ht_next(src, &rec), 1);
    assert_int_equal(rec.kind, HT_REC_LOSS);
    assert_int_equal(rec.value, 3);
    assert_int_equal(ht_next(src, &rec), 1);
    assert_int_equal(rec.kind, HT_REC_SAMPLE);
    assert_int_equal(rec.addr, 4 * 64);
    assert_int_equal(rec.cycle, 2 * (15 + 7));
    assert_int_equal(ht_next(src, &rec), 1); /* the second filler's gap */
    assert_int_equal(rec.kind, HT_REC_LOSS);
    assert_int_equal(rec.value, 3);
    assert_int_equal(ht_next(src, &rec), 1);
    assert_int_equal(rec.kind, HT_REC_SAMPLE);
    assert_int_equal(rec.cycle, 2 * (22 + 256 + 256 + 1));
    assert_int_equal(ht_next(src, &rec), -1);
    assert_non_null(strstr(src->err, "truncated"));
    ht_close(src);
    unlink(path);
    free(path);
}

static void test_kernel_pte_record(void **state)
{
    (void)state;
    kpte_record r = {.magic = 0xec, .pid = 0x01020304, .vpn = 0x0a0b0c0d, .ppn = 0x11223344};
    uint8_t b[13];
    kpte_pack(&r, b);
    assert_int_equal(b[0], 0xec);
    assert_int_equal(b[1], 0x04);
    assert_int_equal(b[8], 0x0a);
    assert_int_equal(b[12], 0x11);
    kpte_record back;
    kpte_unpack(b, &back);
    assert_int_equal(back.pid, r.pid);
    assert_int_equal(back.vpn, r.vpn);
    assert_int_equal(back.ppn, r.ppn);
    assert_true(kpte_is_set(0xec));
    assert_true(kpte_is_free(0xfc) && kpte_is_free(0x22) && kpte_is_free(0x33));
    assert_false(kpte_is_free(0xec) || kpte_is_set(0x00));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_layout),
        cmocka_unit_test(test_two_gib_adjustment),
        cmocka_unit_test(test_round_trip_with_fillers),
        cmocka_unit_test(test_sequence_gaps_are_reported),
        cmocka_unit_test(test_kernel_pte_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
