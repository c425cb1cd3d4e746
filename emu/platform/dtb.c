/* Device tree: the nodes Linux and OpenSBI need on QEMU virt (memory, the harts with their
 * interrupt controllers and 10 MHz timebase, CLINT, PLIC, ns16550a, sifive,test0 with syscon
 * poweroff/reboot, /chosen). Phandles: 1 = cpu0 intc, 2 = PLIC, 3 = test finisher, 0x10 + h =
 * hart h's intc (h > 0), 0x20 + h = cpu node h (for cpu-map). */
#include "emu/platform/dtb.h"

#include <libfdt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "emu/cpu/cbo.h"
#include "emu/devices/clint.h"
#include "emu/devices/finisher.h"
#include "emu/devices/plic.h"
#include "emu/devices/uart.h"

#define TIMEBASE_HZ 10000000u
#define MT_CBO_BLOCK_BYTES CBO_BLOCK_SIZE
#define INTC_PHANDLE(h) ((h) == 0 ? 1u : 0x10u + (h))
#define CPU_PHANDLE(h) (0x20u + (h))

/* riscv,isa-base and riscv,isa-extensions (the newer binding, which Linux 6.x reads first): the
 * names riscv,isa lists, as a string list ("i", "m", ... then "zicbom", "zicsr", ...). */
static int isa_properties(void *fdt, const char *isa)
{
    char list[512];
    size_t n = 0;
    if (strncmp(isa, "rv64", 4) != 0 && strncmp(isa, "rv32", 4) != 0)
        return 0; /* not an ISA string the binding describes: riscv,isa alone */
    char base[6] = {isa[0], isa[1], isa[2], isa[3], 'i', '\0'};
    int err = fdt_property_string(fdt, "riscv,isa-base", base);
    if (err)
        return err;
    const char *s = isa + 4;
    for (; *s && *s != '_'; s++) { /* single-letter extensions */
        if (n + 2 > sizeof list)
            return -FDT_ERR_NOSPACE;
        list[n++] = *s;
        list[n++] = '\0';
    }
    while (*s == '_') { /* multi-letter ones */
        s++;
        size_t len = strcspn(s, "_");
        if (n + len + 1 > sizeof list)
            return -FDT_ERR_NOSPACE;
        memcpy(list + n, s, len);
        n += len;
        list[n++] = '\0';
        s += len;
    }
    return fdt_property(fdt, "riscv,isa-extensions", list, (int)n);
}

/* true when riscv,isa lists the multi-letter extension `ext` */
static bool isa_has(const char *isa, const char *ext)
{
    size_t len = strlen(ext);
    for (const char *s = strchr(isa, '_'); s; s = strchr(s + 1, '_'))
        if (strncmp(s + 1, ext, len) == 0 && (s[1 + len] == '_' || s[1 + len] == '\0'))
            return true;
    return false;
}

static int reg2(void *fdt, uint64_t base, uint64_t size)
{
    fdt64_t r[2] = {cpu_to_fdt64(base), cpu_to_fdt64(size)};
    return fdt_property(fdt, "reg", r, sizeof r);
}

#define CHECK(x) do { if ((x) < 0) return -1; } while (0)

long dtb_build(const mt_dtb_params *p, void *fdt, size_t bufsize)
{
    CHECK(fdt_create(fdt, (int)bufsize));
    CHECK(fdt_finish_reservemap(fdt));
    CHECK(fdt_begin_node(fdt, ""));
    CHECK(fdt_property_u32(fdt, "#address-cells", 2));
    CHECK(fdt_property_u32(fdt, "#size-cells", 2));
    CHECK(fdt_property_string(fdt, "compatible", "riscv-virtio"));
    CHECK(fdt_property_string(fdt, "model", "riscv-virtio,qemu"));

    CHECK(fdt_begin_node(fdt, "chosen"));
    CHECK(fdt_property_string(fdt, "stdout-path", "/soc/serial@10000000"));
    if (p->bootargs)
        CHECK(fdt_property_string(fdt, "bootargs", p->bootargs));
    if (p->initrd_end > p->initrd_start) {
        CHECK(fdt_property_u64(fdt, "linux,initrd-start", p->initrd_start));
        CHECK(fdt_property_u64(fdt, "linux,initrd-end", p->initrd_end));
    }
    CHECK(fdt_end_node(fdt));

    char name[64];
    snprintf(name, sizeof name, "memory@%llx", (unsigned long long)p->ram_base);
    CHECK(fdt_begin_node(fdt, name));
    CHECK(fdt_property_string(fdt, "device_type", "memory"));
    CHECK(reg2(fdt, p->ram_base, p->ram_size));
    CHECK(fdt_end_node(fdt));

    CHECK(fdt_begin_node(fdt, "cpus"));
    CHECK(fdt_property_u32(fdt, "#address-cells", 1));
    CHECK(fdt_property_u32(fdt, "#size-cells", 0));
    CHECK(fdt_property_u32(fdt, "timebase-frequency", TIMEBASE_HZ));
    unsigned n = p->nharts ? p->nharts : 1;
    for (unsigned h = 0; h < n; h++) {
        snprintf(name, sizeof name, "cpu@%u", h);
        CHECK(fdt_begin_node(fdt, name));
        CHECK(fdt_property_u32(fdt, "phandle", CPU_PHANDLE(h)));
        CHECK(fdt_property_string(fdt, "device_type", "cpu"));
        CHECK(fdt_property_u32(fdt, "reg", h));
        CHECK(fdt_property_string(fdt, "status", "okay"));
        CHECK(fdt_property_string(fdt, "compatible", "riscv"));
        CHECK(fdt_property_string(fdt, "riscv,isa", p->isa));
        CHECK(isa_properties(fdt, p->isa));
        /* Zicbom / Zicboz: the cache-block size of cbo.* (emu/cpu/cbo.h) */
        if (isa_has(p->isa, "zicbom"))
            CHECK(fdt_property_u32(fdt, "riscv,cbom-block-size", MT_CBO_BLOCK_BYTES));
        if (isa_has(p->isa, "zicboz"))
            CHECK(fdt_property_u32(fdt, "riscv,cboz-block-size", MT_CBO_BLOCK_BYTES));
        CHECK(fdt_property_string(fdt, "mmu-type", "riscv,sv48"));
        CHECK(fdt_begin_node(fdt, "interrupt-controller"));
        CHECK(fdt_property_u32(fdt, "#interrupt-cells", 1));
        CHECK(fdt_property(fdt, "interrupt-controller", NULL, 0));
        CHECK(fdt_property_string(fdt, "compatible", "riscv,cpu-intc"));
        CHECK(fdt_property_u32(fdt, "phandle", INTC_PHANDLE(h)));
        CHECK(fdt_end_node(fdt));
        CHECK(fdt_end_node(fdt));
    }
    CHECK(fdt_begin_node(fdt, "cpu-map"));
    CHECK(fdt_begin_node(fdt, "cluster0"));
    for (unsigned h = 0; h < n; h++) {
        snprintf(name, sizeof name, "core%u", h);
        CHECK(fdt_begin_node(fdt, name));
        CHECK(fdt_property_u32(fdt, "cpu", CPU_PHANDLE(h)));
        CHECK(fdt_end_node(fdt));
    }
    CHECK(fdt_end_node(fdt));
    CHECK(fdt_end_node(fdt));
    CHECK(fdt_end_node(fdt)); /* cpus */

    CHECK(fdt_begin_node(fdt, "soc"));
    CHECK(fdt_property_u32(fdt, "#address-cells", 2));
    CHECK(fdt_property_u32(fdt, "#size-cells", 2));
    CHECK(fdt_property_string(fdt, "compatible", "simple-bus"));
    CHECK(fdt_property(fdt, "ranges", NULL, 0));

    snprintf(name, sizeof name, "clint@%llx", (unsigned long long)CLINT_BASE);
    CHECK(fdt_begin_node(fdt, name));
    {
        static const char compat[] = "sifive,clint0\0riscv,clint0";
        CHECK(fdt_property(fdt, "compatible", compat, sizeof compat));
        fdt32_t ext[4 * MT_MAX_HARTS]; /* per hart: software (3) and timer (7) interrupts */
        for (unsigned h = 0; h < n; h++) {
            ext[4 * h] = ext[4 * h + 2] = cpu_to_fdt32(INTC_PHANDLE(h));
            ext[4 * h + 1] = cpu_to_fdt32(3);
            ext[4 * h + 3] = cpu_to_fdt32(7);
        }
        CHECK(fdt_property(fdt, "interrupts-extended", ext, 16 * n));
        CHECK(reg2(fdt, CLINT_BASE, CLINT_SIZE));
    }
    CHECK(fdt_end_node(fdt));

    snprintf(name, sizeof name, "plic@%llx", (unsigned long long)PLIC_BASE);
    CHECK(fdt_begin_node(fdt, name));
    {
        CHECK(fdt_property_u32(fdt, "phandle", 2));
        CHECK(fdt_property_u32(fdt, "riscv,ndev", PLIC_SOURCES - 1));
        CHECK(reg2(fdt, PLIC_BASE, PLIC_SIZE));
        fdt32_t ext[4 * MT_MAX_HARTS]; /* per hart: context 2h = M (11), 2h + 1 = S (9) */
        for (unsigned h = 0; h < n; h++) {
            ext[4 * h] = ext[4 * h + 2] = cpu_to_fdt32(INTC_PHANDLE(h));
            ext[4 * h + 1] = cpu_to_fdt32(11);
            ext[4 * h + 3] = cpu_to_fdt32(9);
        }
        CHECK(fdt_property(fdt, "interrupts-extended", ext, 16 * n));
        CHECK(fdt_property(fdt, "interrupt-controller", NULL, 0));
        static const char compat[] = "sifive,plic-1.0.0\0riscv,plic0";
        CHECK(fdt_property(fdt, "compatible", compat, sizeof compat));
        CHECK(fdt_property_u32(fdt, "#address-cells", 0));
        CHECK(fdt_property_u32(fdt, "#interrupt-cells", 1));
    }
    CHECK(fdt_end_node(fdt));

    snprintf(name, sizeof name, "serial@%llx", (unsigned long long)UART_BASE);
    CHECK(fdt_begin_node(fdt, name));
    CHECK(fdt_property_u32(fdt, "interrupts", UART_IRQ));
    CHECK(fdt_property_u32(fdt, "interrupt-parent", 2));
    CHECK(fdt_property_u32(fdt, "clock-frequency", 3686400));
    CHECK(reg2(fdt, UART_BASE, UART_SIZE));
    CHECK(fdt_property_string(fdt, "compatible", "ns16550a"));
    CHECK(fdt_end_node(fdt));

    snprintf(name, sizeof name, "test@%llx", (unsigned long long)FINISHER_BASE);
    CHECK(fdt_begin_node(fdt, name));
    {
        CHECK(fdt_property_u32(fdt, "phandle", 3));
        CHECK(reg2(fdt, FINISHER_BASE, FINISHER_SIZE));
        static const char compat[] = "sifive,test1\0sifive,test0\0syscon";
        CHECK(fdt_property(fdt, "compatible", compat, sizeof compat));
    }
    CHECK(fdt_end_node(fdt));

    if (p->trace_unit_size) { /* emu/trace/tracedev.h: only when tracing was asked for */
        snprintf(name, sizeof name, "trace@%llx", (unsigned long long)p->trace_unit_base);
        CHECK(fdt_begin_node(fdt, name));
        CHECK(reg2(fdt, p->trace_unit_base, p->trace_unit_size));
        CHECK(fdt_property_string(fdt, "compatible", "metatrace,trace-unit"));
        CHECK(fdt_end_node(fdt));
    }
    CHECK(fdt_end_node(fdt)); /* soc */

    CHECK(fdt_begin_node(fdt, "poweroff"));
    CHECK(fdt_property_u32(fdt, "value", 0x5555));
    CHECK(fdt_property_u32(fdt, "offset", 0));
    CHECK(fdt_property_u32(fdt, "regmap", 3));
    CHECK(fdt_property_string(fdt, "compatible", "syscon-poweroff"));
    CHECK(fdt_end_node(fdt));
    CHECK(fdt_begin_node(fdt, "reboot"));
    CHECK(fdt_property_u32(fdt, "value", 0x7777));
    CHECK(fdt_property_u32(fdt, "offset", 0));
    CHECK(fdt_property_u32(fdt, "regmap", 3));
    CHECK(fdt_property_string(fdt, "compatible", "syscon-reboot"));
    CHECK(fdt_end_node(fdt));

    CHECK(fdt_end_node(fdt)); /* root */
    CHECK(fdt_finish(fdt));
    return (long)fdt_totalsize(fdt);
}

/* Every tag of the structure block in order, each after the one before; 0 or a libfdt error.
 * libfdt 1.6.1 adds a property's length to an int offset without a check: a length near 4 GiB
 * makes fdt_next_tag step back (or not at all), and fdt_next_node go round in a circle for ever
 * (found by fuzz_dt; tests/emu/test_cli.sh dtb-loop). */
static int walk_tags(const void *blob)
{
    for (int offset = 0, next;; offset = next) {
        uint32_t tag = fdt_next_tag(blob, offset, &next);
        if (tag == FDT_END)
            return next < 0 ? next : 0;
        if (next <= offset)
            return -FDT_ERR_BADSTRUCTURE;
    }
}

long dtb_check(const void *blob, size_t size, char *why, size_t whylen)
{
    if (size < FDT_V1_SIZE) {
        snprintf(why, whylen, "%zu bytes: too short for a device tree", size);
        return -1;
    }
    int rc = fdt_check_header(blob);
    if (rc == 0 && fdt_totalsize(blob) > size)
        rc = -FDT_ERR_TRUNCATED;
    if (rc == 0)
        rc = walk_tags(blob);
    if (rc == 0) /* the nodes, walked end to end */
        for (int node = 0; node >= 0;)
            if ((node = fdt_next_node(blob, node, NULL)) < 0 && node != -FDT_ERR_NOTFOUND)
                rc = node;
    if (rc) {
        if (rc == -FDT_ERR_TRUNCATED && fdt_magic(blob) == FDT_MAGIC)
            snprintf(why, whylen, "not a whole device tree (its header says %u bytes, the file has %zu)",
                     (unsigned)fdt_totalsize(blob), size);
        else
            snprintf(why, whylen, "not a device tree blob (%s)", fdt_strerror(rc));
        return -1;
    }
    return (long)fdt_totalsize(blob);
}
