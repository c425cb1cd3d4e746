/* Control and status registers: access checks, WARL legalisation and side effects. */
#ifndef EMU_CSR_H
#define EMU_CSR_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/cpu/cpu.h"

enum { CSR_OP_RW, CSR_OP_RS, CSR_OP_RC };

/* One Zicsr access: reads the old value into *old and, when `write`, applies op with src.
 * Returns EXC_NONE or EXC_ILLEGAL (unknown CSR, too little privilege, read-only, TVM, counter
 * disabled, FS off). */
int csr_access(mt_cpu *cpu, unsigned csr, int op, uint64_t src, bool write, uint64_t *old);

/* Plain read/write without access checks (tests, reset, the debugger view). false: no such CSR. */
bool csr_read(mt_cpu *cpu, unsigned csr, uint64_t *val);
bool csr_write(mt_cpu *cpu, unsigned csr, uint64_t val);

/* mstatus as software reads it (SD computed, UXL/SXL fixed). */
uint64_t csr_mstatus_read(const mt_cpu *cpu);
/* misa of this hart */
uint64_t csr_misa(void);

/* Sstc: stimecmp / vstimecmp may be accessed below M (menvcfg.STCE and mcounteren.TM). */
bool csr_stimecmp_allowed(const mt_cpu *cpu);

#endif
