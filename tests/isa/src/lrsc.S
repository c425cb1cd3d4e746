/* lrsc: LR/SC reservation semantics (RV64A).  lr.w sign-extends; sc succeeds (rd = 0, memory
 * written) right after an lr to the same address; sc fails (rd != 0, memory unchanged) with no
 * reservation (none since reset, and after any sc, which always invalidates the reservation);
 * a failed sc.w does not store; a counted lr/sc increment loop ends with the exact count;
 * .d forms, aq/rl bits, rd = x0 for lr. */
#include "isa_test.h"
TEST_BEGIN

  /* no lr since reset: sc must fail and not store */
  TEST_NUM(1)
  la a0, lrdat; li a1, 7; sd a1, 0(a0)
  li a2, 99; sc.d a3, a2, (a0)
  beqz a3, fail
  ld a4, 0(a0); li t2, 7; bne a4, t2, fail

  /* lr.d / sc.d pair succeeds */
  TEST_NUM(2)
  lr.d a3, (a0); li t2, 7; bne a3, t2, fail
  li a2, 8; sc.d a4, a2, (a0); bnez a4, fail
  ld a5, 0(a0); li t2, 8; bne a5, t2, fail

  /* a second sc after a successful one fails (the reservation is gone) */
  TEST_NUM(3)
  li a2, 9; sc.d a4, a2, (a0); beqz a4, fail
  ld a5, 0(a0); li t2, 8; bne a5, t2, fail

  /* lr.w sign-extends; sc.w writes only the word */
  TEST_NUM(4)
  li a1, 0x1111111180000000; sd a1, 0(a0)
  lr.w a3, (a0); li t2, 0xffffffff80000000; bne a3, t2, fail
  li a2, 0x2222222233333333; sc.w a4, a2, (a0); bnez a4, fail
  ld a5, 0(a0); li t2, 0x1111111133333333; bne a5, t2, fail

  /* failing sc.w leaves memory alone */
  TEST_NUM(5)
  li a2, 0x44444444; sc.w a4, a2, (a0); beqz a4, fail
  ld a5, 0(a0); li t2, 0x1111111133333333; bne a5, t2, fail

  /* a failed sc also clears the reservation: lr, sc (ok), sc (fail), sc (fail) */
  TEST_NUM(6)
  lr.d a3, (a0); sc.d a4, a3, (a0); bnez a4, fail
  sc.d a4, a3, (a0); beqz a4, fail
  sc.d a4, a3, (a0); beqz a4, fail

  /* a regular store between lr and sc from this hart need not break the reservation, so no
     assertion there; but a full lr/sc increment loop must count exactly */
  TEST_NUM(7)
  sd zero, 0(a0); li a6, 100
1: lr.d a3, (a0); addi a3, a3, 1; sc.d a4, a3, (a0); bnez a4, 1b
  addi a6, a6, -1; bnez a6, 1b
  ld a5, 0(a0); li t2, 100; bne a5, t2, fail

  /* aq/rl encodings behave the same */
  TEST_NUM(8)
  lr.w.aq a3, (a0); li t2, 100; bne a3, t2, fail
  li a2, 5; sc.w.rl a4, a2, (a0); bnez a4, fail
  lw a5, 0(a0); li t2, 5; bne a5, t2, fail
  lr.d.aqrl a3, (a0); sc.d.aqrl a4, a3, (a0); bnez a4, fail

  /* lr into x0 still sets a reservation that sc can use */
  TEST_NUM(9)
  lr.d x0, (a0); li a2, 77; sc.d a4, a2, (a0); bnez a4, fail
  ld a5, 0(a0); li t2, 77; bne a5, t2, fail

  /* the sc failure code: the spec defines only 0 = success and 1 = failure so far */
  TEST_NUM(10)
  sc.d a4, a2, (a0); li t2, 1; bne a4, t2, fail

  .data
  .balign 64
lrdat: .dword 0, 0
  .text
TEST_END
