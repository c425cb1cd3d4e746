/* The SBI the VMM offers its VS-mode guest (RISC-V SBI specification v2.0), one hart:
 *   Base; legacy (v0.1) set_timer, console putchar/getchar, shutdown; TIME (set_timer writes
 *   vstimecmp); IPI (to hart 0: hvip.VSSIP); RFENCE (local FENCE.I / HFENCE.VVMA); HSM (status
 *   of hart 0); SRST (shutdown ends the run); DBCN (console write/read of guest-physical
 *   buffers).  Anything else answers SBI_ERR_NOT_SUPPORTED. */
#ifndef VMM_SBI_H
#define VMM_SBI_H

#include <stdint.h>

/* Serves the ecall whose registers are frame[1..31] (a0 = frame[10] ... a7 = frame[17]):
 * writes the results into the frame.  May end the run (SRST, legacy shutdown). */
void sbi_call(uint64_t *frame);

struct sbi_stats {
    uint64_t calls, console_out, console_in, timer, ipi, rfence;
};
extern struct sbi_stats sbi_stats;

#endif
