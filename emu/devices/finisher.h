/* SiFive test finisher ("sifive,test0", QEMU virt: 0x10_0000): a 16- or 32-bit write of 0x5555 ends
 * the run with exit code 0, 0x3333 | code << 16 with `code`, 0x7777 asks for a reset (mtemu
 * ends the run with exit code 0 and says so). */
#ifndef EMU_FINISHER_H
#define EMU_FINISHER_H

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"

#define FINISHER_BASE UINT64_C(0x100000)
#define FINISHER_SIZE UINT64_C(0x1000)

typedef struct {
    mt_cpu *cpu;
    bool finished;
    bool reset_requested;
    int exit_code;
} mt_finisher;

mt_device finisher_device(mt_finisher *f, mt_cpu *cpu);

#endif
