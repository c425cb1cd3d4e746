/* The lockstep comparator (rtl_model/sim/mt_lockstep.h): model and RTL agree on a session and
 * the caller's sink gets the stream; a disturbance of one side is reported as a divergence with
 * its cycle, the packets of both sides and the recent inputs, and every later call fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_model/sim/mt_lockstep.h"

typedef struct {
    size_t n;
} count_t;

static void count_sink(void *ctx, const uint8_t *p, size_t n)
{
    (void)p;
    ((count_t *)ctx)->n += n;
}

/* A short session: 48-bit bursts r = 3, some repeated pages, a marker, a stop. */
static int run_session(mt_lockstep *l, uint64_t *t_end)
{
    uint64_t t = 0;
    int rc = 0;
    rc |= mt_lockstep_mmio_write(l, t++, MT_REG_RATE_H, 3);
    rc |= mt_lockstep_mmio_write(l, t++, MT_REG_LEN_H_LO, 200);
    rc |= mt_lockstep_mmio_write(l, t++, MT_REG_LEN_L_LO, 100);
    rc |= mt_lockstep_mmio_write(l, t++, MT_REG_LEN_L_HI, 0);
    rc |= mt_lockstep_mmio_write(l, t++, MT_REG_CTRL, MT_CTRL_ENABLE);
    for (unsigned i = 0; i < 600 && !rc; i++, t++) {
        mt_access a = {.cycle = t, .addr = 0x80000000u + ((i / 7) % 5) * 0x1000u + i * 8, .write = i % 3 == 0,
                       .size = 8, .kind = MT_KIND_LOAD};
        rc |= mt_lockstep_access(l, &a);
        if (i == 300)
            rc |= mt_lockstep_mmio_write(l, t, MT_REG_MARKER, 0x1234);
        if (i % 97 == 0) {
            int ok = 1;
            mt_lockstep_mmio_read(l, t, MT_REG_FIFO_LEVEL, &ok);
            rc |= !ok;
        }
    }
    if (!rc)
        rc = mt_lockstep_stop(l, t, t_end);
    return rc;
}

static void test_agree(void **state)
{
    (void)state;
    count_t c = {0};
    mt_unit_params p = {.depth = 64, .drain = 2, .sink = count_sink, .sink_ctx = &c};
    mt_lockstep *l = mt_lockstep_create(&p, NULL);
    assert_non_null(l);
    uint64_t end = 0;
    assert_int_equal(run_session(l, &end), 0);
    assert_false(mt_lockstep_diverged(l));
    assert_true(c.n > 100);
    assert_int_equal(mt_lockstep_bytes(l), c.n);
    assert_true(end > 605);
    mt_lockstep_destroy(l);
}

static void test_divergence_reported(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *rep = open_memstream(&text, &len);
    assert_non_null(rep);
    mt_lockstep *l = mt_lockstep_create(NULL, rep);
    assert_non_null(l);
    /* Disturb the RTL alone: a different burst format, written behind the comparator's back. */
    assert_int_equal(mt_rtl_mmio_write(mt_lockstep_rtl(l), 0, MT_REG_FMT, 0x12), 0);
    mt_lockstep_mmio_write(l, 1, MT_REG_RATE_H, 4);
    mt_lockstep_mmio_write(l, 2, MT_REG_CTRL, MT_CTRL_ENABLE);
    int rc = 0;
    for (uint64_t t = 3; t < 200 && !rc; t++) {
        mt_access a = {.cycle = t, .addr = 0x123456789ull + t * 0x1000, .size = 8, .kind = MT_KIND_STORE, .write = 1};
        rc = mt_lockstep_access(l, &a);
    }
    if (!rc)
        rc = mt_lockstep_advance(l, 300);
    assert_int_equal(rc, -1);
    assert_true(mt_lockstep_diverged(l));
    assert_int_equal(mt_lockstep_advance(l, 400), -1);   /* stays stopped */
    fclose(rep);
    assert_non_null(strstr(text, "DIVERGE at cycle"));
    assert_non_null(strstr(text, "model @"));
    assert_non_null(strstr(text, "rtl   @"));
    assert_non_null(strstr(text, "SECTION"));
    assert_non_null(strstr(text, "recent inputs"));
    assert_non_null(strstr(text, "access 0x"));
    free(text);
    mt_lockstep_destroy(l);
}

/* The taps are compared too: a TAP written to the RTL alone while idle changes no byte of output
 * (no session), only the tap the emulator's hook would pick accesses by; mt_lockstep_tap_at
 * applies a write pending from an earlier cycle on both sides first. */
static void test_tap_compared(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *rep = open_memstream(&text, &len);
    assert_non_null(rep);
    mt_lockstep *l = mt_lockstep_create(NULL, rep);
    assert_non_null(l);
    int ok = 0;
    assert_int_equal(mt_lockstep_mmio_write(l, 5, MT_REG_TAP, MT_TAP_DRAM), 0);
    assert_int_equal(mt_lockstep_tap_at(l, 5, &ok), MT_TAP_CORE); /* the write's own cycle */
    assert_true(ok);
    assert_int_equal(mt_lockstep_tap_at(l, 6, &ok), MT_TAP_DRAM);
    assert_true(ok);
    assert_int_equal(mt_lockstep_model(l)->now, 6);
    assert_int_equal(mt_rtl_now(mt_lockstep_rtl(l)), 6);
    assert_int_equal(mt_rtl_mmio_write(mt_lockstep_rtl(l), 6, MT_REG_TAP, MT_TAP_CORE), 0);
    assert_int_equal(mt_lockstep_advance(l, 7), -1);
    assert_true(mt_lockstep_diverged(l));
    mt_lockstep_tap_at(l, 8, &ok);
    assert_false(ok);
    fclose(rep);
    assert_non_null(strstr(text, "the tap an access is compared with: model 1, rtl 0"));
    free(text);
    mt_lockstep_destroy(l);
}

static void test_bad_params(void **state)
{
    (void)state;
    mt_unit_params p = {.depth = 16, .drain = 8};
    assert_null(mt_lockstep_create(&p, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree),
        cmocka_unit_test(test_divergence_reported),
        cmocka_unit_test(test_tap_compared),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests_name("rtl_lockstep", tests, NULL, NULL);
}
