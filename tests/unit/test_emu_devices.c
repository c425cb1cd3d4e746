/* Device registers: CLINT (msip, mtimecmp/mtime from cycles), PLIC (priority, enable,
 * threshold, claim/complete, level sources), UART 16550 (LSR, IIR, THRE and RX interrupts, DLAB),
 * the test finisher, and the generated device tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libfdt.h>

#include "emu/platform/bus.h"
#include "emu/devices/clint.h"
#include "emu/cpu/cpu.h"
#include "emu/platform/dtb.h"
#include "emu/devices/finisher.h"
#include "emu/devices/plic.h"
#include "emu/devices/uart.h"

typedef struct {
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu;
    mt_clint clint;
    mt_plic plic;
    mt_uart uart;
    mt_finisher fin;
    FILE *out;
    char *outbuf;
    size_t outlen;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ram = ram_create(0x80000000, 1 << 20);
    bus_init(&f->bus, f->ram);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    f->out = open_memstream(&f->outbuf, &f->outlen);
    mt_device d = clint_device(&f->clint, &f->cpu);
    assert_true(bus_add_device(&f->bus, &d));
    d = plic_device(&f->plic, &f->cpu);
    assert_true(bus_add_device(&f->bus, &d));
    d = uart_device(&f->uart, &f->plic, f->out, -1);
    assert_true(bus_add_device(&f->bus, &d));
    d = finisher_device(&f->fin, &f->cpu);
    assert_true(bus_add_device(&f->bus, &d));
    assert_false(bus_add_device(&f->bus, &d)); /* overlapping window refused */
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    fclose(f->out);
    free(f->outbuf);
    cpu_free(&f->cpu);
    ram_destroy(f->ram);
    free(f);
    return 0;
}

static uint64_t rd(fixture *f, uint64_t pa, unsigned size)
{
    uint64_t v;
    assert_true(bus_mmio_read(&f->bus, pa, size, &v));
    return v;
}

static void wr(fixture *f, uint64_t pa, unsigned size, uint64_t v) { assert_true(bus_mmio_write(&f->bus, pa, size, v)); }

static void test_clint(void **state)
{
    fixture *f = *state;
    wr(f, CLINT_BASE, 4, 1);
    assert_true(cpu_mip(&f->cpu) & MIP_MSIP);
    assert_int_equal(rd(f, CLINT_BASE, 4), 1);
    wr(f, CLINT_BASE, 4, 0);
    assert_false(cpu_mip(&f->cpu) & MIP_MSIP);
    f->cpu.cycle = 12345 * CYCLES_PER_MTIME_TICK + 7; /* mtime follows the cycle counter */
    assert_int_equal(rd(f, CLINT_BASE + 0xbff8, 8), 12345);
    assert_int_equal(rd(f, CLINT_BASE + 0xbffc, 4), 0);
    wr(f, CLINT_BASE + 0x4000, 8, 12346);
    assert_false(cpu_mip(&f->cpu) & MIP_MTIP);
    assert_int_equal(f->cpu.timer_cycle, 12346 * CYCLES_PER_MTIME_TICK);
    wr(f, CLINT_BASE + 0x4000, 4, 100); /* low half: now in the past */
    wr(f, CLINT_BASE + 0x4004, 4, 0);
    assert_true(cpu_mip(&f->cpu) & MIP_MTIP);
    assert_int_equal(rd(f, CLINT_BASE + 0x4000, 8), 100);
    wr(f, CLINT_BASE + 0xbff8, 8, 50); /* writing mtime moves the offset */
    assert_int_equal(rd(f, CLINT_BASE + 0xbff8, 8), 50);
    assert_false(cpu_mip(&f->cpu) & MIP_MTIP);
    uint64_t v;
    assert_false(bus_mmio_read(&f->bus, CLINT_BASE + 0x4000, 2, &v)); /* unsupported width */
}

static void test_plic(void **state)
{
    fixture *f = *state;
    wr(f, PLIC_BASE + 4 * 5, 4, 3);           /* priority of source 5 */
    wr(f, PLIC_BASE + 4 * 7, 4, 6);           /* priority of source 7 */
    wr(f, PLIC_BASE + 0x2000, 4, (1u << 5) | (1u << 7)); /* enable for context 0 (M) */
    wr(f, PLIC_BASE + 0x200000, 4, 2);        /* threshold 2 */
    plic_set_irq(&f->plic, 5, true);
    assert_true(cpu_mip(&f->cpu) & MIP_MEIP);
    assert_false(cpu_mip(&f->cpu) & MIP_SEIP);
    assert_int_equal(rd(f, PLIC_BASE + 0x1000, 4), 1u << 5);
    plic_set_irq(&f->plic, 7, true);
    assert_int_equal(rd(f, PLIC_BASE + 0x200004, 4), 7); /* highest priority first */
    assert_int_equal(rd(f, PLIC_BASE + 0x200004, 4), 5);
    assert_int_equal(rd(f, PLIC_BASE + 0x200004, 4), 0); /* nothing left */
    assert_false(cpu_mip(&f->cpu) & MIP_MEIP);
    plic_set_irq(&f->plic, 7, false);
    wr(f, PLIC_BASE + 0x200004, 4, 7);        /* complete: level low, stays idle */
    assert_false(cpu_mip(&f->cpu) & MIP_MEIP);
    wr(f, PLIC_BASE + 0x200004, 4, 5);        /* complete while the line is high: pending again */
    assert_true(cpu_mip(&f->cpu) & MIP_MEIP);
    wr(f, PLIC_BASE + 0x200000, 4, 3);        /* threshold >= priority masks it */
    assert_false(cpu_mip(&f->cpu) & MIP_MEIP);
    wr(f, PLIC_BASE + 0x2080, 4, 1u << 5);    /* context 1 (S) */
    assert_true(cpu_mip(&f->cpu) & MIP_SEIP);
}

static void test_uart(void **state)
{
    fixture *f = *state;
    assert_int_equal(rd(f, UART_BASE + 5, 1) & 0x60, 0x60); /* THR empty */
    wr(f, UART_BASE, 1, 'h');
    wr(f, UART_BASE, 1, 'i');
    fflush(f->out);
    assert_int_equal(f->outlen, 2);
    assert_memory_equal(f->outbuf, "hi", 2);
    assert_int_equal(rd(f, UART_BASE + 2, 1) & 0x0f, 0x01); /* no interrupt */
    wr(f, PLIC_BASE + 4 * UART_IRQ, 4, 1);
    wr(f, PLIC_BASE + 0x2080, 4, 1u << UART_IRQ);
    wr(f, UART_BASE + 1, 1, 0x02);                          /* THRE interrupt on */
    assert_true(cpu_mip(&f->cpu) & MIP_SEIP);
    assert_int_equal(rd(f, UART_BASE + 2, 1) & 0x0f, 0x02); /* reading IIR acknowledges it */
    assert_false(cpu_mip(&f->cpu) & MIP_SEIP);
    wr(f, UART_BASE + 1, 1, 0x01);                          /* RX interrupt */
    const uint8_t in[] = {'o', 'k'};
    uart_push_input(&f->uart, in, 2);
    assert_true(cpu_mip(&f->cpu) & MIP_SEIP);
    assert_int_equal(rd(f, UART_BASE + 2, 1) & 0x0f, 0x04);
    assert_true(rd(f, UART_BASE + 5, 1) & 1);
    assert_int_equal(rd(f, UART_BASE, 1), 'o');
    assert_int_equal(rd(f, UART_BASE, 1), 'k');
    assert_false(rd(f, UART_BASE + 5, 1) & 1);
    assert_false(cpu_mip(&f->cpu) & MIP_SEIP);
    wr(f, UART_BASE + 3, 1, 0x80);                          /* DLAB: divisor latch */
    wr(f, UART_BASE, 1, 0x12);
    assert_int_equal(rd(f, UART_BASE, 1), 0x12);
    wr(f, UART_BASE + 3, 1, 0x03);
    fflush(f->out);
    assert_int_equal(f->outlen, 2); /* the divisor write was not output */
}

static void test_finisher(void **state)
{
    fixture *f = *state;
    wr(f, FINISHER_BASE, 4, 0x1234);   /* unknown command: nothing */
    assert_false(f->fin.finished);
    wr(f, FINISHER_BASE, 4, (7u << 16) | 0x3333);
    assert_true(f->fin.finished);
    assert_int_equal(f->fin.exit_code, 7);
    assert_true(f->cpu.stop);
}

static void test_dtb(void **state)
{
    (void)state;
    static uint8_t buf[16384];
    mt_dtb_params p = {.ram_base = 0x80000000, .ram_size = UINT64_C(1) << 30, .isa = "rv64imac",
                       .bootargs = "console=ttyS0", .initrd_start = 0x88000000, .initrd_end = 0x88100000};
    long n = dtb_build(&p, buf, sizeof buf);
    assert_true(n > 0);
    assert_int_equal(fdt_check_header(buf), 0);
    int node = fdt_path_offset(buf, "/cpus");
    assert_true(node >= 0);
    const fdt32_t *tb = fdt_getprop(buf, node, "timebase-frequency", NULL);
    assert_non_null(tb);
    assert_int_equal(fdt32_to_cpu(*tb), 10000000);
    node = fdt_path_offset(buf, "/memory@80000000");
    const fdt64_t *reg = fdt_getprop(buf, node, "reg", NULL);
    assert_int_equal(fdt64_to_cpu(reg[1]), UINT64_C(1) << 30);
    node = fdt_path_offset(buf, "/soc/serial@10000000");
    assert_true(node >= 0);
    assert_string_equal(fdt_getprop(buf, fdt_path_offset(buf, "/chosen"), "bootargs", NULL), "console=ttyS0");
    assert_string_equal(fdt_getprop(buf, fdt_path_offset(buf, "/cpus/cpu@0"), "riscv,isa", NULL), "rv64imac");
    int len = 0;
    const char *ext = fdt_getprop(buf, fdt_path_offset(buf, "/cpus/cpu@0"), "riscv,isa-extensions", &len);
    assert_int_equal(len, 8);
    assert_memory_equal(ext, "i\0m\0a\0c\0", 8);
    assert_string_equal(fdt_getprop(buf, fdt_path_offset(buf, "/cpus/cpu@0"), "riscv,isa-base", NULL), "rv64i");
    assert_null(fdt_getprop(buf, fdt_path_offset(buf, "/cpus/cpu@0"), "riscv,cboz-block-size", NULL));
    assert_true(fdt_node_offset_by_compatible(buf, -1, "sifive,test0") >= 0);
    assert_true(fdt_node_offset_by_compatible(buf, -1, "riscv,plic0") >= 0);
    assert_true(fdt_node_offset_by_compatible(buf, -1, "riscv,clint0") >= 0);
    assert_int_equal(dtb_build(&p, buf, 64), -1); /* too small a buffer: an error, not a crash */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clint, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finisher, setup, teardown),
        cmocka_unit_test(test_dtb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
