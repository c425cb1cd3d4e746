/* misa_c: instruction-address alignment with and without C (ISA-ENV: m-only).  With C on,
 * jumps and taken branches to 2-byte-aligned targets are fine and JALR clears only bit 0.  If
 * misa.C can be cleared (misa is WARL: an implementation may keep it read-only; then this part
 * is skipped), a taken jump/branch to an address that is not 4-byte aligned raises instruction
 * address misaligned (0) with mepc = the jump or branch and mtval = the target, rd unwritten,
 * and a branch that is not taken does not trap; setting C again restores 2-byte targets.
 * Layout: while C is off every instruction that runs must be 4-byte aligned, so each 2-byte
 * filler that puts a target at pc % 4 == 2 is paired with a second one after that target's
 * (never executed) code.  (.balign cannot be used: GAS assumes 4-byte alignment under norvc.) */
#include "isa_test.h"
#define MISA_C (1 << 2)
TEST_BEGIN
  .option push
  .option norvc
  /* C on: a jump to pc % 4 == 2 */
  TEST_NUM(1)
  la a0, 2f; jr a0
  .hword 0x0001                   /* c.nop, so that the target below sits at pc % 4 == 2 */
2: li a1, 1
  j 5f
  .hword 0x0001                   /* back to 4-byte alignment */
5:
  /* JALR to an odd address: bit 0 cleared, lands on the 2-aligned instruction */
  TEST_NUM(2)
  la a0, 2f; addi a0, a0, 1; jalr ra, 0(a0)
  .hword 0x0001
2: li a1, 2
  j 3f
  .hword 0x0001                   /* back to 4-byte alignment */
3:
  /* try to turn C off (the next instruction is 4-byte aligned, as the write requires) */
  TEST_NUM(3)
  li t0, MISA_C
  csrc misa, t0
  csrr a0, misa; andi a0, a0, MISA_C; bnez a0, 9f       /* read-only C: skip the rest */

  /* jal to a 2-aligned target */
  TEST_NUM(4)
  TRAP_RESUME(3f)
1: jal x0, 2f
  .hword 0x0001
2: nop
  j fail
  .hword 0x0001
3: TRAP_CHECK(TS_CAUSE, CAUSE_MISALIGNED_FETCH)
  TRAP_CHECK_EPC(1b)
  TRAP_CHECK_TVAL_LABEL(2b)
  /* jalr: target with bit 1 set (bit 0 is cleared, bit 1 is not); rd is not written */
  TEST_NUM(5)
  la a0, 2f; li ra, 0x55
  TRAP_RESUME(3f)
1: jalr ra, 0(a0)
  .hword 0x0001
2: nop
  j fail
  .hword 0x0001
3: TRAP_CHECK(TS_CAUSE, CAUSE_MISALIGNED_FETCH)
  TRAP_CHECK_EPC(1b)
  TRAP_CHECK_TVAL_LABEL(2b)
  li t2, 0x55; bne ra, t2, fail
  /* taken branch: traps */
  TEST_NUM(6)
  TRAP_RESUME(3f)
1: beq x0, x0, 2f
  .hword 0x0001
2: nop
  j fail
  .hword 0x0001
3: TRAP_CHECK(TS_CAUSE, CAUSE_MISALIGNED_FETCH)
  TRAP_CHECK_EPC(1b)
  TRAP_CHECK_TVAL_LABEL(2b)
  /* branch not taken: no trap */
  TEST_NUM(7)
  li a0, 1
  bne a0, a0, 2f
  j 4f
  .hword 0x0001
2: j fail
  .hword 0x0001
4:
  /* C back on */
  TEST_NUM(8)
  li t0, MISA_C; csrs misa, t0
  csrr a0, misa; andi a0, a0, MISA_C; beqz a0, fail
  la a0, 2f; jr a0
  .hword 0x0001
2: li a1, 8
  j 9f
  .hword 0x0001
9:
  .option pop
TEST_END
