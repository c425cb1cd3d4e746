/* exec_fp — RV64F and RV64D for mtemu: one entry point, installed as cpu->fp_exec.
 *
 * Executes one LOAD-FP, STORE-FP, FMADD/FMSUB/FNMSUB/FNMADD or OP-FP instruction given in
 * its 32-bit form (compressed C.FLD/C.FSD/C.FLDSP/C.FSDSP expanded by the decoder).  Returns
 * EXC_NONE, or EXC_ILLEGAL (reserved encoding or rounding mode, mstatus.FS = Off), or the
 * cause of a load/store exception with its address in cpu->fp_tval.  Writes to f registers
 * and accrued fflags set mstatus.FS to Dirty (and SD).  Arithmetic: emu/cpu/softfp. */
#ifndef EMU_EXEC_FP_H
#define EMU_EXEC_FP_H

#include <stdint.h>

struct mt_cpu;
int exec_fp(struct mt_cpu *cpu, uint32_t insn);

#endif
