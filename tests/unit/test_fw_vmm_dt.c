/* Host-side tests of the VMM's device-tree writer and its guest tree (firmware/vmm/fdtw.c,
 * guest_dt.c): the blob must pass libfdt's checks and hold what a VS-mode Linux reads (bootargs,
 * the hart with its ISA and interrupt controller, the timebase, guest RAM), property names must
 * be shared in the strings block, and a buffer too small must give 0, never a write past it.
 * The firmware sources are portable C, compiled into this test directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libfdt.h>

#include "firmware/vmm/fdtw.c"
#include "firmware/vmm/guest_dt.c"

static const struct guest_dt_params params = {0x80000000u, 0xc000000u, 10000000u, "console=hvc0 mt.run=true"};

static const char *prop_str(const void *fdt, const char *path, const char *name)
{
    int node = fdt_path_offset(fdt, path);
    assert_true(node >= 0);
    const char *v = fdt_getprop(fdt, node, name, NULL);
    assert_non_null(v);
    return v;
}

static uint32_t prop_u32(const void *fdt, const char *path, const char *name)
{
    int node = fdt_path_offset(fdt, path), len = 0;
    assert_true(node >= 0);
    const fdt32_t *v = fdt_getprop(fdt, node, name, &len);
    assert_non_null(v);
    assert_int_equal(len, 4);
    return fdt32_to_cpu(*v);
}

static void guest_tree_is_valid_and_complete(void **state)
{
    (void)state;
    static uint8_t buf[4096];
    size_t n = guest_dt_build(buf, sizeof buf, &params);
    assert_true(n > 0 && n <= sizeof buf);
    assert_int_equal(fdt_check_full(buf, n), 0);
    assert_int_equal(fdt_totalsize(buf), n);
    assert_string_equal(prop_str(buf, "/chosen", "bootargs"), "console=hvc0 mt.run=true");
    assert_int_equal(prop_u32(buf, "/cpus", "timebase-frequency"), 10000000);
    assert_string_equal(prop_str(buf, "/cpus/cpu@0", "riscv,isa"), GUEST_ISA);
    /* VS-mode has no H extension to offer: no 'h' among the single letters before the first '_' */
    assert_true(memchr(GUEST_ISA + 4, 'h', strcspn(GUEST_ISA, "_") - 4) == NULL);
    assert_string_equal(prop_str(buf, "/cpus/cpu@0/interrupt-controller", "compatible"), "riscv,cpu-intc");
    int intc = fdt_path_offset(buf, "/cpus/cpu@0/interrupt-controller");
    assert_non_null(fdt_getprop(buf, intc, "interrupt-controller", NULL));
    assert_int_equal(fdt_get_phandle(buf, intc), 1);
    int mem = fdt_path_offset(buf, "/memory@80000000"), len = 0;
    assert_true(mem >= 0);
    const fdt32_t *reg = fdt_getprop(buf, mem, "reg", &len);
    assert_int_equal(len, 16);
    assert_int_equal(fdt32_to_cpu(reg[0]), 0);
    assert_int_equal(fdt32_to_cpu(reg[1]), 0x80000000u);
    assert_int_equal(fdt32_to_cpu(reg[2]), 0);
    assert_int_equal(fdt32_to_cpu(reg[3]), 0xc000000u);
    /* the two virtual devices: the PLIC, whose one context is the hart's S external interrupt,
     * and the UART, its source 10 */
    int plic = fdt_path_offset(buf, "/plic@c000000");
    assert_true(plic >= 0);
    assert_int_equal(fdt_node_check_compatible(buf, plic, "riscv,plic0"), 0);
    assert_int_equal(fdt_node_check_compatible(buf, plic, "sifive,plic-1.0.0"), 0);
    const fdt32_t *ext = fdt_getprop(buf, plic, "interrupts-extended", &len);
    assert_int_equal(len, 8);
    assert_int_equal(fdt32_to_cpu(ext[0]), 1); /* the cpu-intc's phandle */
    assert_int_equal(fdt32_to_cpu(ext[1]), 9); /* supervisor external */
    assert_string_equal(prop_str(buf, "/serial@10000000", "compatible"), "ns16550a");
    assert_int_equal(prop_u32(buf, "/serial@10000000", "interrupt-parent"), fdt_get_phandle(buf, plic));
    assert_int_equal(prop_u32(buf, "/serial@10000000", "interrupts"), 10);
    assert_true(fdt_path_offset(buf, "/soc") < 0);
}

static void property_names_are_shared(void **state)
{
    (void)state;
    static uint8_t buf[4096];
    size_t n = guest_dt_build(buf, sizeof buf, &params);
    assert_true(n > 0);
    const char *strings = (const char *)buf + fdt_off_dt_strings(buf);
    size_t size = fdt_size_dt_strings(buf);
    int compat = 0;
    for (size_t off = 0; off < size; off += strlen(strings + off) + 1)
        compat += strcmp(strings + off, "compatible") == 0;
    assert_int_equal(compat, 1); /* used by /, cpu@0 and its interrupt controller */
}

static void small_buffers_are_refused(void **state)
{
    (void)state;
    static uint8_t buf[4096];
    size_t full = guest_dt_build(buf, sizeof buf, &params);
    assert_true(full > 0);
    for (size_t cap = 0; cap < full; cap += 7) {
        memset(buf, 0xa5, sizeof buf);
        assert_int_equal(guest_dt_build(buf, cap, &params), 0);
        for (size_t i = cap; i < sizeof buf; i++)
            assert_int_equal(buf[i], 0xa5); /* not one byte past the buffer */
    }
    assert_int_equal(guest_dt_build(buf, full, &params), full);
}

static void unbalanced_nodes_are_refused(void **state)
{
    (void)state;
    static uint8_t buf[256];
    static struct fdtw w;
    fdtw_begin(&w, buf, sizeof buf);
    fdtw_node(&w, "");
    fdtw_node(&w, "chosen");
    fdtw_end_node(&w);
    assert_int_equal(fdtw_finish(&w), 0); /* the root is still open */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(guest_tree_is_valid_and_complete),
        cmocka_unit_test(property_names_are_shared),
        cmocka_unit_test(small_buffers_are_refused),
        cmocka_unit_test(unbalanced_nodes_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
