/* SiFive PLIC (QEMU virt: 0xc00_0000, 95 sources, 7 priority levels), two contexts per hart h:
 * context 2h = M-mode (MEIP), context 2h + 1 = S-mode (SEIP).  Sources are level-triggered. */
#ifndef EMU_PLIC_H
#define EMU_PLIC_H

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"

#define PLIC_BASE UINT64_C(0xc000000)
#define PLIC_SIZE UINT64_C(0x600000)
#define PLIC_SOURCES 96 /* source 0 does not exist; 1..95 */
#define PLIC_CONTEXTS (2 * MT_MAX_HARTS)

typedef struct {
    mt_cpu *cpu[MT_MAX_HARTS];
    unsigned nharts;
    uint32_t priority[PLIC_SOURCES];
    bool level[PLIC_SOURCES], pending[PLIC_SOURCES], claimed[PLIC_SOURCES];
    uint32_t enable[PLIC_CONTEXTS][PLIC_SOURCES / 32];
    uint32_t threshold[PLIC_CONTEXTS];
} mt_plic;

/* The device window (ctx = plic), with hart 0. */
mt_device plic_device(mt_plic *plic, mt_cpu *cpu);
/* Harts 1, 2, ... in order (false when there are MT_MAX_HARTS already). */
bool plic_add_hart(mt_plic *plic, mt_cpu *cpu);
/* A device's interrupt line (1..95) goes to `level`. */
void plic_set_irq(mt_plic *plic, unsigned irq, bool level);

#endif
