/* Every hart: a stack of its own (4 KiB below stacks_end per hart id), then gdbtest_main(hartid). */
  .section .text.init
  .globl _start
_start:
  csrr a0, mhartid
  la sp, stacks_end
  slli t0, a0, 12
  sub sp, sp, t0
  call gdbtest_main
1: j 1b
