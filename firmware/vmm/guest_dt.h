/* The guest's device tree: what a VS-mode Linux may know of its machine.  One hart (hart id 0)
 * with its interrupt controller and the timebase of the host, Sstc (the guest's stimecmp is
 * vstimecmp), its RAM, a virtual PLIC (vplic.h) and NS16550A (vuart.h), and /chosen/bootargs.  The timer, IPIs and reset are SBI calls (sbi.c), the console SBI or the
 * virtual UART; nothing of the host's MMIO is mapped for the guest. */
#ifndef VMM_GUEST_DT_H
#define VMM_GUEST_DT_H

#include <stddef.h>
#include <stdint.h>

struct guest_dt_params {
    uint64_t ram_gpa, ram_size;
    uint32_t timebase_hz;
    const char *bootargs;
};

/* Writes the tree into buf; its size, or 0 when it does not fit in cap. */
size_t guest_dt_build(void *buf, size_t cap, const struct guest_dt_params *p);

/* The ISA the guest is told about: the host's minus H (VS-mode has no hypervisor extension). */
#define GUEST_ISA "rv64imafdc_zicsr_zifencei_zihintpause_sstc"

#endif
