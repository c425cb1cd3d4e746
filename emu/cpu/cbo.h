/* cbo — Zicbom (cbo.inval, cbo.clean, cbo.flush) and Zicboz (cbo.zero) for mtemu.
 *
 * The decoder makes OP_CBO with imm = the instruction's funct12 (0 inval, 1 clean, 2 flush,
 * 4 zero); the interpreter calls cbo_exec with rs1's value.  The cache block is 64 bytes for
 * both (the device tree's riscv,cbom-block-size and riscv,cboz-block-size). */
#ifndef EMU_CBO_H
#define EMU_CBO_H

#include <stdint.h>

#define CBO_BLOCK_SIZE 64u
/* the funct12 of each operation (OP_CBO's imm) */
enum { CBO_INVAL = 0, CBO_CLEAN = 1, CBO_FLUSH = 2, CBO_ZERO = 4 };

struct mt_cpu;
/* EXC_NONE when operation `op` may execute in the hart's current mode (priv, V) under the
 * envcfg CSRs, else EXC_ILLEGAL or EXC_VIRTUAL_INSN (the spec's decision, nothing else). */
int cbo_check_enabled(const struct mt_cpu *c, unsigned op);
/* Executes one CBO on the block holding va.  Returns EXC_NONE; EXC_ILLEGAL or EXC_VIRTUAL_INSN
 * when the envcfg CSRs disable it in the current mode; or a store page / guest-page / access
 * fault (the trap value is va itself, as the spec has it). */
int cbo_exec(struct mt_cpu *c, unsigned op, uint64_t va);
/* The CBIE/CBCFE/CBZE bits of a write `v` to menvcfg, senvcfg or henvcfg whose old value is
 * `old` (WARL: CBIE's reserved encoding 10 leaves the field as it was). */
uint64_t envcfg_cbo_warl(uint64_t old, uint64_t v);

#endif
