#include "guest_dt.h"

#include "fdtw.h"
#include "vplic.h"
#include "vuart.h"

static char node_name[32];

/* "memory@80000000": the unit address is the node's first reg address in hex */
static const char *unit_name(const char *base, uint64_t addr)
{
    size_t n = 0;
    while (base[n] && n < sizeof node_name - 18) {
        node_name[n] = base[n];
        n++;
    }
    node_name[n++] = '@';
    int shift = 60;
    while (shift > 0 && ((addr >> shift) & 0xf) == 0)
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        node_name[n++] = "0123456789abcdef"[(addr >> shift) & 0xf];
    node_name[n] = 0;
    return node_name;
}

size_t guest_dt_build(void *buf, size_t cap, const struct guest_dt_params *p)
{
    static struct fdtw w; /* its strings buffer is too large for the VMM's stack */
    enum { INTC_PHANDLE = 1, PLIC_PHANDLE = 2 };
    fdtw_begin(&w, buf, cap);
    fdtw_node(&w, "");
    fdtw_prop_u32(&w, "#address-cells", 2);
    fdtw_prop_u32(&w, "#size-cells", 2);
    fdtw_prop_str(&w, "compatible", "metatrace,vmm-guest");
    fdtw_prop_str(&w, "model", "metatrace VMM guest (VS-mode)");

    fdtw_node(&w, "chosen");
    fdtw_prop_str(&w, "bootargs", p->bootargs);
    fdtw_end_node(&w);

    fdtw_node(&w, "cpus");
    fdtw_prop_u32(&w, "#address-cells", 1);
    fdtw_prop_u32(&w, "#size-cells", 0);
    fdtw_prop_u32(&w, "timebase-frequency", p->timebase_hz);
    fdtw_node(&w, "cpu@0");
    fdtw_prop_str(&w, "device_type", "cpu");
    fdtw_prop_u32(&w, "reg", 0);
    fdtw_prop_str(&w, "status", "okay");
    fdtw_prop_str(&w, "compatible", "riscv");
    fdtw_prop_str(&w, "riscv,isa", GUEST_ISA);
    fdtw_prop_str(&w, "mmu-type", "riscv,sv39");
    fdtw_node(&w, "interrupt-controller");
    fdtw_prop_u32(&w, "#interrupt-cells", 1);
    fdtw_prop(&w, "interrupt-controller", "", 0);
    fdtw_prop_str(&w, "compatible", "riscv,cpu-intc");
    fdtw_prop_u32(&w, "phandle", INTC_PHANDLE);
    fdtw_end_node(&w);
    fdtw_end_node(&w); /* cpu@0 */
    fdtw_end_node(&w); /* cpus */

    /* the virtual PLIC and UART (trapped and emulated); the PLIC's one context is the hart's
     * supervisor external interrupt (9) */
    fdtw_node(&w, unit_name("plic", VPLIC_GPA));
    static const char plic_compat[] = "sifive,plic-1.0.0\0riscv,plic0";
    fdtw_prop(&w, "compatible", plic_compat, sizeof plic_compat);
    fdtw_prop_reg64(&w, "reg", VPLIC_GPA, VPLIC_SIZE);
    fdtw_prop_u32(&w, "#interrupt-cells", 1);
    fdtw_prop_u32(&w, "#address-cells", 0);
    fdtw_prop(&w, "interrupt-controller", "", 0);
    const uint8_t ext[8] = {0, 0, 0, INTC_PHANDLE, 0, 0, 0, 9};
    fdtw_prop(&w, "interrupts-extended", ext, sizeof ext);
    fdtw_prop_u32(&w, "riscv,ndev", VPLIC_NDEV);
    fdtw_prop_u32(&w, "phandle", PLIC_PHANDLE);
    fdtw_end_node(&w);

    fdtw_node(&w, unit_name("serial", VUART_GPA));
    fdtw_prop_str(&w, "compatible", "ns16550a");
    fdtw_prop_reg64(&w, "reg", VUART_GPA, VUART_SIZE);
    fdtw_prop_u32(&w, "clock-frequency", VUART_CLOCK_HZ);
    fdtw_prop_u32(&w, "interrupt-parent", PLIC_PHANDLE);
    fdtw_prop_u32(&w, "interrupts", VUART_IRQ);
    fdtw_end_node(&w);

    fdtw_node(&w, unit_name("memory", p->ram_gpa));
    fdtw_prop_str(&w, "device_type", "memory");
    fdtw_prop_reg64(&w, "reg", p->ram_gpa, p->ram_size);
    fdtw_end_node(&w);

    fdtw_end_node(&w); /* root */
    return fdtw_finish(&w);
}
