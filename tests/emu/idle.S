/* A guest that makes a trace, then waits for console input forever (WFI with no interrupt
 * enabled and no timer: mtemu idles in host time, polling its console). For the bounded loss of a
 * writer killed while the guest idles (tests/emu/test_idle_kill.sh). The loads and stores go to
 * pseudo-random doublewords of 256 KiB (an LCG), so that the trace unit's samples cost bytes
 * (a fixed stride would encode to almost nothing) and SYNCs come every few hundred samples. */
  .section .text.init
  .globl _start
_start:
  li s0, 0x80100000
  li s2, 100000              /* iterations */
  li s3, 12345               /* LCG state */
  li s4, 6364136223846793005 /* LCG multiplier (Knuth's MMIX) */
1: mul s3, s3, s4
  addi s3, s3, 1
  srli t0, s3, 46            /* 18 bits: 256 KiB */
  andi t0, t0, -8
  add t0, t0, s0
  ld t2, 0(t0)
  sd s3, 0(t0)
  addi s2, s2, -1
  bnez s2, 1b
  csrw mie, zero
3: wfi
  j 3b
