/* emu/trace/tracedev: the trace unit as a bus device and access listener.  The reference for every
 * stream is lib's model fed every access directly (docs/trace-unit.md: skipping accesses before
 * mt_unit_next_due changes nothing), so these tests check the device's plumbing: register
 * window, next-due gating, the cycle-completing shortcut, tap filtering, the recorder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/trace/tracedev.h"
#include "mt_regs.h"
#include "mt_unit.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} bytes;

static void sink(void *ctx, const uint8_t *p, size_t n)
{
    bytes *b = ctx;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

typedef struct {
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu;
    mt_unit unit;
    bytes out;
    mt_tracedev dev;
    /* recorder */
    uint64_t rec_n, rec_markers, rec_last_cycle;
    uint32_t rec_marker_val;
    int rec_order_bad;
} fixture;

static bool rec_access(void *ctx, const mt_access *a)
{
    fixture *f = ctx;
    if (f->rec_n && a->cycle <= f->rec_last_cycle)
        f->rec_order_bad = 1;
    f->rec_last_cycle = a->cycle;
    f->rec_n++;
    return true;
}

static bool rec_marker(void *ctx, uint64_t cycle, uint32_t value)
{
    fixture *f = ctx;
    (void)cycle;
    f->rec_markers++;
    f->rec_marker_val = value;
    return true;
}

static fixture *make(bool with_recorder, uint32_t rec_kinds)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->ram = ram_create(0x80000000, 1 << 20);
    bus_init(&f->bus, f->ram);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    mt_unit_params p = {.depth = 4096, .drain = 8, .sink = sink, .sink_ctx = &f->out};
    assert_int_equal(mt_unit_init(&f->unit, &p), 0);
    tracedev_backend be = tracedev_model_backend(&f->unit);
    tracedev_recorder rec = {.ctx = f, .kind_mask = rec_kinds, .tap = MT_TAP_CORE, .access = rec_access,
                             .marker = rec_marker};
    tracedev_init(&f->dev, &be, with_recorder ? &rec : NULL);
    mt_device d = tracedev_device(&f->dev);
    assert_true(bus_add_device(&f->bus, &d));
    tracedev_attach(&f->dev, &f->cpu);
    return f;
}

static void destroy(fixture *f)
{
    tracedev_release(&f->dev); /* the trace pipe (made at attach), when the test did not finish */
    mt_unit_free(&f->unit);
    free(f->out.p);
    cpu_free(&f->cpu);
    ram_destroy(f->ram);
    free(f);
}

static void reg_write(fixture *f, uint32_t off, uint32_t v)
{
    assert_true(bus_mmio_write(&f->bus, MT_REGS_BASE + off, 4, v));
    f->cpu.cycle++;
}

static uint32_t reg_read(fixture *f, uint32_t off)
{
    uint64_t v = 0xdead;
    assert_true(bus_mmio_read(&f->bus, MT_REGS_BASE + off, 4, &v));
    f->cpu.cycle++;
    return (uint32_t)v;
}

/* splitmix64: deterministic pseudo-random access streams */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void test_register_window(void **state)
{
    (void)state;
    fixture *f = make(false, 0);
    assert_int_equal(reg_read(f, MT_REG_ID), MT_ID_VALUE);
    assert_int_equal(reg_read(f, MT_REG_VERSION), MT_VERSION_VALUE);
    assert_int_equal(reg_read(f, MT_REG_RATE_H), MT_RESET_RATE_H);
    /* other sizes and misaligned offsets read 0 and ignore writes (docs/trace-unit.md) */
    uint64_t v = 1;
    assert_true(bus_mmio_read(&f->bus, MT_REGS_BASE + MT_REG_ID, 8, &v));
    assert_int_equal(v, 0);
    assert_true(bus_mmio_read(&f->bus, MT_REGS_BASE + 2, 4, &v));
    assert_int_equal(v, 0);
    assert_true(bus_mmio_write(&f->bus, MT_REGS_BASE + MT_REG_RATE_H, 2, 7));
    f->cpu.cycle++;
    assert_int_equal(reg_read(f, MT_REG_RATE_H), MT_RESET_RATE_H);
    reg_write(f, MT_REG_RATE_H, 7);
    assert_int_equal(reg_read(f, MT_REG_RATE_H), 7);
    assert_int_equal(f->dev.bad_mmio, 3);
    destroy(f);
}

/* Disabled: the listener is never due; an ENABLE write makes it due at once. */
static void test_enable_rearms_listener(void **state)
{
    (void)state;
    fixture *f = make(false, 0);
    assert_int_equal(f->cpu.listener_due, UINT64_MAX);
    f->cpu.cycle = 100;
    reg_write(f, MT_REG_CTRL, MT_CTRL_ENABLE);
    assert_true(f->cpu.listener_due <= 101);
    assert_true(reg_read(f, MT_REG_STATUS) & MT_STATUS_ACTIVE);
    destroy(f);
}

/* Run a random stream through the device exactly as the CPU does (only accesses at or after the
 * due cycle reach the listener) and through a reference model that sees every access; the
 * streams must be identical.  dram_too adds a DRAM-tap access in the same cycle as some core
 * accesses, which the unit (core tap) must not let take the cycle. */
static void run_equivalence(uint32_t rate_h, uint32_t rate_l, uint64_t len_h, uint64_t len_l, bool dram_too,
                            uint64_t seed)
{
    fixture *f = make(false, 0);
    bytes ref_out = {0};
    mt_unit ref;
    mt_unit_params p = {.depth = 4096, .drain = 8, .sink = sink, .sink_ctx = &ref_out};
    assert_int_equal(mt_unit_init(&ref, &p), 0);
    const uint32_t offs[5] = {MT_REG_RATE_H, MT_REG_RATE_L, MT_REG_LEN_H_LO, MT_REG_LEN_L_LO, MT_REG_FMT};
    const uint32_t vals[5] = {rate_h, rate_l, (uint32_t)len_h, (uint32_t)len_l, 0x21};
    for (int i = 0; i < 5; i++) {
        mt_unit_mmio_write(&ref, f->cpu.cycle, offs[i], vals[i]);
        reg_write(f, offs[i], vals[i]);
    }
    mt_unit_mmio_write(&ref, f->cpu.cycle, MT_REG_CTRL, MT_CTRL_ENABLE);
    reg_write(f, MT_REG_CTRL, MT_CTRL_ENABLE);
    uint64_t s = seed;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_rand(&s);
        mt_access a = {.cycle = f->cpu.cycle, .addr = 0x80000000 + (r & 0xffff8), .write = (r >> 20) & 1,
                       .size = 8, .kind = (uint8_t)((r >> 21) % 3), .tap = MT_TAP_CORE};
        mt_unit_access(&ref, &a);
        if (a.cycle >= f->cpu.listener_due)
            f->cpu.listener_due = tracedev_listener(&f->dev, &a);
        if (dram_too && ((r >> 30) & 7) == 0) {
            mt_access d = a;
            d.tap = MT_TAP_DRAM;
            d.addr &= ~UINT64_C(63);
            if (d.cycle >= f->cpu.listener_due)
                f->cpu.listener_due = tracedev_listener(&f->dev, &d);
        }
        if (((r >> 40) & 1023) == 0) { /* a marker now and then, as a guest store would */
            mt_unit_mmio_write(&ref, f->cpu.cycle + 1, MT_REG_MARKER, (uint32_t)i);
            f->cpu.cycle++;
            reg_write(f, MT_REG_MARKER, (uint32_t)i);
            continue;
        }
        f->cpu.cycle += 1 + ((r >> 50) & 3); /* gaps: cycles without an access */
    }
    mt_unit_stop(&ref, f->cpu.cycle);
    assert_true(tracedev_finish(&f->dev));
    assert_true(ref_out.n > 1000);
    assert_int_equal(f->out.n, ref_out.n);
    assert_memory_equal(f->out.p, ref_out.p, ref_out.n);
    assert_int_equal(f->unit.order_errors, 0);
    assert_int_equal(ref.order_errors, 0);
    /* gating: far fewer listener calls than accesses when sampling sparsely */
    if (rate_h >= 16 && rate_l >= 16)
        assert_true(f->dev.unit_accesses < 200000 / 4);
    mt_unit_free(&ref);
    free(ref_out.p);
    destroy(f);
}

static void test_equivalence_sparse(void **state)
{
    (void)state;
    run_equivalence(24, 2048, 20000, 100000, false, 1);
}

static void test_equivalence_every_cycle(void **state)
{
    (void)state;
    run_equivalence(1, 3, 5000, 7000, false, 2);
}

static void test_equivalence_with_dram_tap(void **state)
{
    (void)state;
    run_equivalence(2, 17, 3000, 9000, true, 3);
}

/* The recorder sees every access of its kinds, one per cycle, and every MARKER write. */
static void test_recorder(void **state)
{
    (void)state;
    fixture *f = make(true, 1u << MT_KIND_LOAD | 1u << MT_KIND_STORE);
    uint64_t want = 0;
    uint64_t s = 9;
    for (int i = 0; i < 10000; i++) {
        uint64_t r = next_rand(&s);
        mt_access a = {.cycle = f->cpu.cycle, .addr = 0x80000000 + (r & 0xfff8), .write = 0, .size = 8,
                       .kind = (uint8_t)(r % 5), .tap = MT_TAP_CORE};
        if (a.kind == MT_KIND_LOAD || a.kind == MT_KIND_STORE)
            want++;
        assert_true(a.cycle >= f->cpu.listener_due); /* the recorder needs every access */
        f->cpu.listener_due = tracedev_listener(&f->dev, &a);
        mt_access d = a; /* a DRAM transfer in the same cycle: other tap, not recorded */
        d.tap = MT_TAP_DRAM;
        f->cpu.listener_due = tracedev_listener(&f->dev, &d);
        f->cpu.cycle++;
    }
    reg_write(f, MT_REG_MARKER, 0xabcd); /* unit disabled: the recorder still sees it */
    assert_int_equal(f->rec_n, want);
    assert_int_equal(f->rec_order_bad, 0);
    assert_int_equal(f->rec_markers, 1);
    assert_int_equal(f->rec_marker_val, 0xabcd);
    assert_true(tracedev_finish(&f->dev));
    destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_window),
        cmocka_unit_test(test_enable_rearms_listener),
        cmocka_unit_test(test_equivalence_sparse),
        cmocka_unit_test(test_equivalence_every_cycle),
        cmocka_unit_test(test_equivalence_with_dram_tap),
        cmocka_unit_test(test_recorder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
