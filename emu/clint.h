/* SiFive CLINT (QEMU virt: 0x200_0000): msip at 0x0, mtimecmp at 0x4000, mtime at 0xbff8.
 * mtime is derived from the hart's cycle counter (10 MHz timebase), so runs are deterministic. */
#ifndef EMU_CLINT_H
#define EMU_CLINT_H

#include "emu/bus.h"
#include "emu/cpu.h"

#define CLINT_BASE UINT64_C(0x2000000)
#define CLINT_SIZE UINT64_C(0x10000)

typedef struct {
    mt_cpu *cpu;
    uint32_t msip;
} mt_clint;

/* The device window for the bus (ctx = clint). */
mt_device clint_device(mt_clint *clint, mt_cpu *cpu);

#endif
