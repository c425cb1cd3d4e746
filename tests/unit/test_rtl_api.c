/* The Verilated trace unit's C API (rtl_model/sim/mt_rtl.h), checked against the register map
 * and packet format as documented (docs/trace-unit.md, docs/trace-format.md), not against the C
 * model: reset values, register side effects, the session's first SYNC/SECTION and its END,
 * one-input-per-port-per-cycle rules, output draining. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "mt_regs.h"
#include "mt_unit.h"
#include "rtl_model/sim/mt_rtl.h"

static int setup(void **state)
{
    mt_rtl *r = mt_rtl_create(0, 0, NULL);
    if (!r)
        return -1;
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    mt_rtl_destroy(*state);
    return 0;
}

static void test_reset_values(void **state)
{
    mt_rtl *r = *state;
    uint64_t t = mt_rtl_now(r);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_ID), MT_ID_VALUE);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_VERSION), MT_VERSION_VALUE);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_STATUS), MT_STATUS_FIFO_EMPTY);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_KIND_MASK), MT_RESET_KIND_MASK);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_FMT), MT_RESET_FMT);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_SYNC_PERIOD), MT_RESET_SYNC_PERIOD);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_RATE_H), MT_RESET_RATE_H);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_RATE_L), MT_RESET_RATE_L);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_LEN_H_LO), MT_RESET_LEN_H_LO);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_LEN_L_LO), MT_RESET_LEN_L_LO);
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_LEN_L_HI), MT_RESET_LEN_L_HI);
    uint32_t info = mt_rtl_mmio_read(r, t++, MT_REG_FIFO_INFO);
    assert_int_equal(info >> 24, MT_MAX_PACKET);
    assert_int_equal((info >> 16) & 0xFF, mt_rtl_drain(r));
    assert_int_equal(info & 0xFFFF, mt_rtl_depth(r) & 0xFFFF);
    assert_int_equal(mt_rtl_mmio_read(r, t++, 0x800), 0);  /* unmapped */
    assert_int_equal(mt_rtl_mmio_read(r, t++, MT_REG_ID + 1), 0);  /* unaligned */
    /* CYCLE_LO is the cycle of the read */
    assert_int_equal(mt_rtl_mmio_read(r, 1000, MT_REG_CYCLE_LO), 1000);
    assert_int_equal(mt_rtl_mmio_read(r, 1001, MT_REG_CYCLE_HI), 0);
}

static void test_register_writes(void **state)
{
    mt_rtl *r = *state;
    uint64_t t = mt_rtl_now(r);
    assert_int_equal(mt_rtl_mmio_write(r, t, MT_REG_RATE_H, 0), 0);
    assert_int_equal(mt_rtl_mmio_read(r, t + 1, MT_REG_RATE_H), 1);  /* 0 is stored as 1 */
    mt_rtl_mmio_write(r, t + 2, MT_REG_SYNC_PERIOD, 3);
    assert_int_equal(mt_rtl_mmio_read(r, t + 3, MT_REG_SYNC_PERIOD), MT_SYNC_PERIOD_MIN);
    mt_rtl_mmio_write(r, t + 4, MT_REG_SYNC_PERIOD, 9000);
    assert_int_equal(mt_rtl_mmio_read(r, t + 5, MT_REG_SYNC_PERIOD), MT_SYNC_PERIOD_MAX);
    mt_rtl_mmio_write(r, t + 6, MT_REG_FMT, 0xFFFFFFFF);
    assert_int_equal(mt_rtl_mmio_read(r, t + 7, MT_REG_FMT), 0x33);
    mt_rtl_mmio_write(r, t + 8, MT_REG_KIND_MASK, 0xFFFFFFFF);
    assert_int_equal(mt_rtl_mmio_read(r, t + 9, MT_REG_KIND_MASK), 0x1F);
    /* a write lands at the end of its cycle: a read in the same cycle is refused (one port) */
    assert_int_equal(mt_rtl_mmio_write(r, t + 10, MT_REG_TAP, 1), 0);
    assert_int_equal(mt_rtl_mmio_write(r, t + 10, MT_REG_TAP, 0), -1);
    assert_int_equal(mt_rtl_mmio_read(r, t + 11, MT_REG_TAP), 1);
    /* the past is refused */
    assert_int_equal(mt_rtl_mmio_write(r, t, MT_REG_TAP, 0), -1);
    mt_rtl_reset(r);
    assert_int_equal(mt_rtl_now(r), 0);
    assert_int_equal(mt_rtl_mmio_read(r, 0, MT_REG_TAP), 0);
}

/* Enable at cycle 10: the session starts at 11 with SYNC (seq 0, prev_bytes 0, cycle 11) and a
 * SECTION (burst, 48-bit format, r = 24, cycle 11) MT_UNIT_PACE cycles later; the SYNC chosen at 11
 * enters the FIFO at the end of 11 + MT_UNIT_LATENCY, and the FIFO drains from the cycle after. */
static void test_session_start_and_end(void **state)
{
    mt_rtl *r = *state;
    assert_int_equal(mt_rtl_mmio_write(r, 10, MT_REG_CTRL, MT_CTRL_ENABLE), 0);
    assert_int_equal(mt_rtl_mmio_read(r, 11, MT_REG_STATUS), MT_STATUS_ACTIVE | MT_STATUS_BUSY | MT_STATUS_FIFO_EMPTY);
    assert_int_equal(mt_rtl_fifo_level(r), 0);
    mt_rtl_clock(r, MT_UNIT_LATENCY);         /* SYNC chosen at 11, still in flight */
    assert_int_equal(mt_rtl_fifo_level(r), 0);
    mt_rtl_clock(r, 1);                       /* ... and in the FIFO (9 bytes) */
    assert_int_equal(mt_rtl_fifo_level(r), 9);
    mt_rtl_advance(r, 30);
    uint8_t b[64];
    size_t n = mt_rtl_pop(r, b, sizeof b);
    static const uint8_t expect[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 11,
                                     0x02, 0x80, 24, 11};
    assert_int_equal(n, sizeof expect);
    assert_memory_equal(b, expect, sizeof expect);
    assert_int_equal(mt_rtl_mmio_read(r, 30, MT_REG_BYTES_LO), sizeof expect);
    /* an access at the sample point 11 + 24 = 35: FULL sample of addr[55:12] */
    mt_access a = {.cycle = 35, .addr = 0x12345678, .write = 1, .size = 8, .kind = MT_KIND_STORE};
    assert_int_equal(mt_rtl_access(r, &a), 0);
    assert_int_equal(mt_rtl_access(r, &a), -1);   /* one access per cycle */
    mt_rtl_mmio_write(r, 40, MT_REG_CTRL, 0);       /* stop: the END follows */
    mt_rtl_advance(r, 60);
    n = mt_rtl_pop(r, b, sizeof b);
    /* sample: header 1 100 1 0 1 0 (FULL, write, skip 1: interval 0 at 11 had no access), skip 1,
     * A = 0x12345 as LEB c5 c6 04; then END: 05, samples 1, dropped 0 */
    static const uint8_t expect2[] = {0xCA, 0x01, 0xC5, 0xC6, 0x04, 0x05, 0x01, 0x00};
    assert_int_equal(n, sizeof expect2);
    assert_memory_equal(b, expect2, sizeof expect2);
    assert_int_equal(mt_rtl_mmio_read(r, 60, MT_REG_STATUS), MT_STATUS_FIFO_EMPTY);
    assert_int_equal(mt_rtl_mmio_read(r, 61, MT_REG_SAMPLES_LO), 1);
    assert_int_equal(mt_rtl_bytes_out(r), sizeof expect + sizeof expect2);
}

static void test_create_params(void **state)
{
    (void)state;
    assert_null(mt_rtl_create(31, 8, NULL));
    assert_null(mt_rtl_create(65537, 8, NULL));
    assert_null(mt_rtl_create(4096, 9, NULL));
    mt_rtl *r = mt_rtl_create(65536, 8, NULL);
    assert_non_null(r);
    assert_int_equal(mt_rtl_mmio_read(r, 0, MT_REG_FIFO_INFO), (16u << 24) | (8u << 16) | 0u);
    mt_rtl_destroy(r);
    r = mt_rtl_create(100, 3, NULL);
    assert_non_null(r);
    assert_int_equal(mt_rtl_depth(r), 100);
    assert_int_equal(mt_rtl_mmio_read(r, 0, MT_REG_FIFO_INFO), (16u << 24) | (3u << 16) | 100u);
    mt_rtl_destroy(r);
}

/* An access whose kind is outside the 5-bit kind mask is never sampled, whatever its value. */
static void test_unknown_kinds_never_sampled(void **state)
{
    mt_rtl *r = *state;
    mt_rtl_mmio_write(r, 0, MT_REG_RATE_H, 1);
    mt_rtl_mmio_write(r, 1, MT_REG_CTRL, MT_CTRL_ENABLE);
    static const uint8_t kinds[] = {5, 7, 8, 9, 33, 255};
    for (unsigned i = 0; i < sizeof kinds; i++) {
        mt_access a = {.cycle = 10 + i, .addr = 0x80000000, .kind = kinds[i]};
        assert_int_equal(mt_rtl_access(r, &a), 0);
    }
    mt_rtl_advance(r, 30);
    assert_int_equal(mt_rtl_mmio_read(r, 30, MT_REG_SAMPLES_LO), 0);
    mt_access ok = {.cycle = 31, .addr = 0x80000000, .kind = MT_KIND_LOAD};
    mt_rtl_access(r, &ok);
    mt_rtl_advance(r, 40);
    assert_int_equal(mt_rtl_mmio_read(r, 40, MT_REG_SAMPLES_LO), 1);
}

/* mt_rtl_tap_at: the tap an access of a cycle is compared with, as the register map says: TAP as
 * written while idle, latched at an enable the unit takes (not at one it refuses while BUSY), a
 * write applied at its cycle's end.  The emulator's hook picks accesses by it. */
static void test_tap_at(void **state)
{
    (void)state;
    mt_rtl *r = mt_rtl_create(32, 1, NULL); /* a small, slow FIFO: the END waits in it */
    assert_non_null(r);
    assert_int_equal(mt_rtl_tap(r), MT_RESET_TAP);
    mt_rtl_mmio_write(r, 10, MT_REG_TAP, MT_TAP_DRAM);
    assert_int_equal(mt_rtl_tap_at(r, 10), MT_TAP_CORE); /* the write's own cycle: not yet */
    assert_int_equal(mt_rtl_now(r), 10);
    assert_int_equal(mt_rtl_tap_at(r, 11), MT_TAP_DRAM);
    assert_int_equal(mt_rtl_now(r), 11);
    assert_int_equal(mt_rtl_tap_at(r, 500), MT_TAP_DRAM);
    assert_int_equal(mt_rtl_now(r), 11); /* nothing pending: no clock */
    mt_rtl_mmio_write(r, 12, MT_REG_RATE_H, 1);
    mt_rtl_mmio_write(r, 13, MT_REG_CTRL, MT_CTRL_ENABLE); /* latches dram */
    mt_rtl_mmio_write(r, 14, MT_REG_TAP, MT_TAP_CORE);
    assert_int_equal(mt_rtl_tap_at(r, 15), MT_TAP_DRAM); /* latched: the write changes TAP only */
    assert_int_equal(mt_rtl_mmio_read(r, 15, MT_REG_TAP), MT_TAP_CORE);
    uint64_t t = 16;
    for (; t < 60; t++) { /* samples of the dram tap fill the FIFO */
        mt_access a = {.cycle = t, .addr = 0x80000000u + t * 64, .size = 64, .kind = MT_KIND_LOAD, .tap = MT_TAP_DRAM};
        assert_int_equal(mt_rtl_access(r, &a), 0);
    }
    mt_rtl_mmio_write(r, t, MT_REG_CTRL, 0);
    assert_int_equal(mt_rtl_tap_at(r, t), MT_TAP_DRAM);     /* the stop's cycle is the session's */
    assert_int_equal(mt_rtl_tap_at(r, t + 1), MT_TAP_CORE); /* stopped: TAP as written */
    mt_rtl_mmio_write(r, t + 1, MT_REG_TAP, MT_TAP_DRAM);
    mt_rtl_mmio_write(r, t + 2, MT_REG_CTRL, MT_CTRL_ENABLE); /* refused: the END is not out */
    mt_rtl_mmio_write(r, t + 3, MT_REG_TAP, MT_TAP_CORE);
    assert_int_equal(mt_rtl_mmio_read(r, t + 4, MT_REG_STATUS) & (MT_STATUS_ACTIVE | MT_STATUS_BUSY), MT_STATUS_BUSY);
    assert_int_equal(mt_rtl_tap_at(r, t + 5), MT_TAP_CORE); /* no session took dram */
    t += 5;
    while (mt_rtl_mmio_read(r, t, MT_REG_STATUS) & MT_STATUS_BUSY)
        t++;
    mt_rtl_mmio_write(r, t + 1, MT_REG_CTRL, MT_CTRL_ENABLE);
    mt_rtl_mmio_write(r, t + 2, MT_REG_TAP, MT_TAP_DRAM);
    assert_int_equal(mt_rtl_tap_at(r, t + 3), MT_TAP_CORE); /* latched core */
    assert_int_equal(mt_rtl_mmio_read(r, t + 3, MT_REG_STATUS) & MT_STATUS_ACTIVE, MT_STATUS_ACTIVE);
    mt_rtl_destroy(r);
}

static void test_no_waveform_without_fst_build(void **state)
{
    (void)state;
    if (mt_rtl_has_fst())
        skip();
    assert_null(mt_rtl_create(0, 0, "/nonexistent/x.fst"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_register_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_session_start_and_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_kinds_never_sampled, setup, teardown),
        cmocka_unit_test(test_create_params),
        cmocka_unit_test(test_tap_at),
        cmocka_unit_test(test_no_waveform_without_fst_build),
    };
    return cmocka_run_group_tests_name("rtl_api", tests, NULL, NULL);
}
