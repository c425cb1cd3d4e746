/* A straddling instruction that jumps to itself (tests/e2e/trace-straddle.sh
 * straddle-self-jump-burst): `j .` at page offset 0xffe, whose second half is in the next page.
 * The interpreter runs it from its cross page (emu/cpu/interp.inc L_CROSS) and comes back to
 * that page's last slot at every jump; its fetch is still the real page's.  The guest never
 * ends: run it with --max-insns. */
  .option norvc
  .section .text.init
  .globl _start
_start:
  li t0, 0
  li t1, 5
1: addi t0, t0, 1
  bne t0, t1, 1b
  j straddle
  .org 0xffe
straddle:
  j straddle
  .org 0x1100
  nop
