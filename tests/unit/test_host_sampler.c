/* The host's functional sampler: hand-checked sample points, and byte-for-byte agreement of
 * its samples with lib's cycle-exact trace-unit model when the FIFO never fills. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "host/gen.h"
#include "host/mtrio.h"
#include "host/sampler.h"
#include "host/unitdrv.h"

static mt_access acc(uint64_t cycle, uint64_t addr, int w)
{
    mt_access a = {.cycle = cycle, .addr = addr, .write = (uint8_t)w, .size = 8,
                   .kind = w ? MT_KIND_STORE : MT_KIND_LOAD, .tap = MT_TAP_CORE};
    return a;
}

/* r_h = 24, burst 100 cycles, r_l = 50, span 200 cycles, starting at 0:
 *   burst [0,100): sample points 0, 24, 48, 72, 96 ; span [100,300): 100, 150, 200, 250
 *   accesses 5, 10 (same interval as 5: no sample), 30, 99 (interval 96), 140 (span, sp 100),
 *   149 (same), 301 (the next burst, sp 300) */
static void test_hand_sample_points(void **state)
{
    (void)state;
    sampler_config c = {.r_h = 24, .r_l = 50, .len_h = 100, .len_l = 200,
                        .fmt_h = HT_FMT_48, .fmt_l = HT_FMT_32, .start = 0};
    sampler s;
    sampler_init(&s, &c);
    uint64_t cyc[7] = {5, 10, 30, 99, 140, 149, 301};
    ht_record out[3], got[16];
    int n = 0;
    for (int i = 0; i < 7; i++) {
        mt_access a = acc(cyc[i], UINT64_C(0x80001234) + (uint64_t)i * 4096, i & 1);
        int k = sampler_access(&s, &a, out);
        for (int j = 0; j < k; j++)
            got[n++] = out[j];
    }
    /* SECTION burst@0, S@0, S@24, S@96, SECTION span@100, S@100, SECTION burst@300, S@300 */
    assert_int_equal(n, 8);
    assert_int_equal(got[0].kind, HT_REC_SECTION);
    assert_int_equal(got[1].cycle, 0);
    assert_int_equal(got[1].addr, 0x80001000);  /* 48-bit: the page */
    assert_int_equal(got[2].cycle, 24);
    assert_int_equal(got[3].cycle, 96);
    assert_int_equal(got[4].kind, HT_REC_SECTION);
    assert_int_equal(got[4].section, HT_SEC_SPAN);
    assert_int_equal(got[4].cycle, 100);
    assert_int_equal(got[5].cycle, 100);
    assert_int_equal(got[5].addr, 0x80000000);  /* 32-bit: the gigabyte */
    assert_int_equal(got[5].format, HT_FMT_32);
    assert_int_equal(got[6].section, HT_SEC_BURST);
    assert_int_equal(got[7].cycle, 300);
}

/* Differential: lib's trace unit (through a .mtp file and lib's decoder) reports the same
 * samples as the functional sampler on a generated trace that never fills the FIFO. */
static void test_agrees_with_lib_trace_unit(void **state)
{
    (void)state;
    gen_params gp;
    gen_defaults(&gp);
    gp.accesses = 200000;
    gp.idle_every = 5000;
    gp.idle_cycles = 3000;
    sampler_config c;
    sampler_defaults(&c);
    c.len_h = 20000;
    c.len_l = 150000;
    c.start = gp.start_cycle;
    char path[] = "/tmp/test_host_sampler-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    unit_driver d;
    assert_int_equal(unit_driver_start(&d, &c, f, NULL, NULL), 0);
    sampler s;
    sampler_init(&s, &c);
    ht_record *want = malloc(200000 * sizeof *want);
    size_t nwant = 0;
    gen_state g;
    gen_init(&g, &gp);
    mt_access a;
    while (gen_next(&g, &a)) {
        unit_driver_access(&d, &a);
        ht_record out[3];
        int k = sampler_access(&s, &a, out);
        for (int j = 0; j < k; j++)
            if (out[j].kind == HT_REC_SAMPLE)
                want[nwant++] = out[j];
    }
    assert_int_equal(unit_driver_stop(&d, g.cycle + 1), 0);
    assert_int_equal(unit_driver_dropped(&d), 0);
    fclose(f);
    char err[256];
    ht_source *src = mtr_open(path, err, sizeof err);
    assert_non_null(src);
    ht_record r;
    size_t i = 0;
    while (ht_next_sample(src, &r) == 1) {
        assert_true(i < nwant);
        assert_int_equal(r.cycle, want[i].cycle);
        assert_int_equal(r.addr, want[i].addr);
        assert_int_equal(r.write, want[i].write);
        assert_int_equal(r.format, want[i].format);
        assert_int_equal(r.section, want[i].section);
        i++;
    }
    assert_int_equal(i, nwant);
    assert_true(nwant > 1000);
    ht_close(src);
    unlink(path);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_sample_points),
        cmocka_unit_test(test_agrees_with_lib_trace_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
