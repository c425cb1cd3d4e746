/* fencei: Zifencei and self-modifying code.  After stores to instruction memory and a
 * FENCE.I, the hart must fetch the new instructions: (1) a routine copied into a data buffer,
 * run many times (so any decoded-instruction cache is warm), then rewritten; (2) a routine in
 * .text that already ran, rewritten in place with sw and with sh (half of it), and with a
 * compressed pair; (3) the instruction right after the FENCE.I in the same straight-line block;
 * (4) code rewritten through an AMO.  Also FENCE variants (fence, fence.tso, pause) are no-ops. */
#include "isa_test.h"
TEST_BEGIN

  /* (1) copy "addi a0, a0, 1; ret" into codebuf and run it 100 times */
  TEST_NUM(1)
  la a1, tmpl_add1; la a2, codebuf
  lw t0, 0(a1); sw t0, 0(a2); lw t0, 4(a1); sw t0, 4(a2)
  fence.i
  li a0, 0; li s1, 100
1: la a2, codebuf; jalr ra, 0(a2); addi s1, s1, -1; bnez s1, 1b
  li t2, 100; bne a0, t2, fail

  /* rewrite it to "addi a0, a0, 2" */
  TEST_NUM(2)
  la a1, tmpl_add2; la a2, codebuf
  lw t0, 0(a1); sw t0, 0(a2)
  fence.i
  li a0, 0; li s1, 10
1: la a2, codebuf; jalr ra, 0(a2); addi s1, s1, -1; bnez s1, 1b
  li t2, 20; bne a0, t2, fail

  /* rewrite it to a compressed pair "c.addi a0, 3; c.jr ra" in one 32-bit store */
  TEST_NUM(3)
  la a1, tmpl_c3; la a2, codebuf
  lw t0, 0(a1); sw t0, 0(a2)
  fence.i
  li a0, 0; la a2, codebuf; jalr ra, 0(a2)
  li t2, 3; bne a0, t2, fail

  /* (2) a routine in .text, executed, then rewritten in place */
  TEST_NUM(4)
  li a0, 0; call smc_text; call smc_text
  li t2, 2; bne a0, t2, fail
  TEST_NUM(5)
  la a1, tmpl_add2; la a2, smc_text
  lw t0, 0(a1); sw t0, 0(a2)
  fence.i
  li a0, 0; call smc_text; call smc_text
  li t2, 4; bne a0, t2, fail
  /* change only the upper halfword: imm 2 -> imm 5 (addi a0,a0,5 = 0x00550513) */
  TEST_NUM(6)
  la a2, smc_text; li t0, 0x0055; sh t0, 2(a2)
  fence.i
  li a0, 0; call smc_text
  li t2, 5; bne a0, t2, fail

  /* (3) the very next instruction after the fence.i, in the same block */
  TEST_NUM(7)
  la a2, 2f; la a1, tmpl_li7; lw t0, 0(a1)
  li a0, 0
  sw t0, 0(a2)
  fence.i
  .option push
  .option norvc
2: li a0, 3
  .option pop
  li t2, 7; bne a0, t2, fail

  /* run the rewritten straight-line code a second time in a loop: still the new code */
  TEST_NUM(8)
  la a1, tmpl_li3; la a2, 3f; lw t0, 0(a1); sw t0, 0(a2); fence.i
  li s1, 2; li s2, 0
  .option push
  .option norvc
1:
3: li a0, 9
  .option pop
  add s2, s2, a0
  la a1, tmpl_li7; la a2, 3b; lw t0, 0(a1); sw t0, 0(a2); fence.i
  addi s1, s1, -1; bnez s1, 1b
  li t2, 3 + 7; bne s2, t2, fail

  /* (4) code rewritten with an AMO (amoswap.w) */
  TEST_NUM(9)
  la a1, tmpl_add1; la a2, codebuf
  lw t0, 4(a1); sw t0, 4(a2)         /* ret */
  lw t0, 0(a1); amoswap.w zero, t0, (a2)
  fence.i
  li a0, 10; la a2, codebuf; jalr ra, 0(a2)
  li t2, 11; bne a0, t2, fail

  /* FENCE forms are no-ops for a single hart */
  TEST_CASE(10, a0, 1, li a0, 1; fence; fence rw, rw; fence r, w; fence.tso; .word 0x0100000f; fence.i)

  j pass

  .option push
  .option norvc
  .balign 4
smc_text:
  addi a0, a0, 1
  ret
  .option pop

  .data
  .balign 4
  .option push
  .option norvc
tmpl_add1: addi a0, a0, 1
           ret
tmpl_add2: addi a0, a0, 2
tmpl_li7:  li a0, 7
tmpl_li3:  li a0, 3
  .option rvc
tmpl_c3:   c.addi a0, 3
           c.jr ra
  .option pop
  .balign 64
codebuf: .fill 16, 4, 0
  .text
TEST_END
