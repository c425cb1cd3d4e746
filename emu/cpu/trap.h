/* The hart's interrupt choice and commit log (emu/cpu/trap.c), for cpu.c and the interpreter;
 * the timers, interrupt lines and trap entry are declared in cpu.h. */
#ifndef EMU_CPU_TRAP_H
#define EMU_CPU_TRAP_H

#include <stdbool.h>

#include "emu/cpu/cpu.h"

/* The interrupt that would be taken now (its number), or -1. */
int cpu_pending_interrupt(const mt_cpu *c);
/* Writes the pending --log-commits line (when `committed`; else drops it). */
void cpu_log_flush(mt_cpu *c, bool committed);

#endif
