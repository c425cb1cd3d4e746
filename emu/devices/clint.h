/* SiFive CLINT (QEMU virt: 0x200_0000): msip of hart h at 0x0 + 4h, mtimecmp at 0x4000 + 8h,
 * mtime at 0xbff8.  mtime is derived from the running hart's cycle counter (10 MHz timebase), so
 * runs are deterministic; with several harts the machine keeps their clocks in step (emu/platform/smp.c). */
#ifndef EMU_CLINT_H
#define EMU_CLINT_H

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"

#define CLINT_BASE UINT64_C(0x2000000)
#define CLINT_SIZE UINT64_C(0x10000)

typedef struct {
    mt_cpu *cpu; /* the running hart: its clock is mtime */
    mt_cpu *harts[MT_MAX_HARTS];
    unsigned nharts;
    uint32_t msip[MT_MAX_HARTS];
} mt_clint;

/* The device window for the bus (ctx = clint), with hart 0. */
mt_device clint_device(mt_clint *clint, mt_cpu *cpu);
/* Harts 1, 2, ... in order (false when there are MT_MAX_HARTS already). */
bool clint_add_hart(mt_clint *clint, mt_cpu *cpu);

#endif
