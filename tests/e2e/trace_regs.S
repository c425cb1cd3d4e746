/* A guest that programs the trace unit itself (tests/e2e/trace-unit.sh): checks ID, stops the
 * session the command line started, waits for its END, sets burst rate 100 in the full format
 * with loads+stores only, starts a new session, touches a buffer, writes MARKER 0x1234 and exits
 * through the finisher (code 0; 4 when the unit's ID is wrong). */
  .equ TU, 0x11000000
  .section .text.init
  .globl _start
_start:
  li a0, TU
  lw t0, 0x000(a0)          /* ID */
  li t1, 0x4D545455
  bne t0, t1, bad
  sw zero, 0x008(a0)        /* CTRL = 0: stop */
1: lw t0, 0x00C(a0)         /* STATUS.BUSY until END is written */
  andi t0, t0, 2
  bnez t0, 1b
  li t0, 100
  sw t0, 0x028(a0)          /* RATE_H */
  li t0, 0x22
  sw t0, 0x020(a0)          /* FMT: full / full */
  li t0, 0x6
  sw t0, 0x018(a0)          /* KIND_MASK: load, store */
  li t0, 1
  sw t0, 0x008(a0)          /* CTRL = ENABLE */
  la a1, buf
  li a2, 4096
2: lw t0, 0(a1)
  addi t0, t0, 1
  sw t0, 0(a1)
  addi a1, a1, 8
  addi a2, a2, -1
  bnez a2, 2b
  li t0, 0x1234
  sw t0, 0x040(a0)          /* MARKER */
  li t0, 0x100000
  li t1, 0x5555
  sw t1, 0(t0)
3: wfi
  j 3b
bad:
  li t0, 0x100000
  li t1, (4 << 16) | 0x3333
  sw t1, 0(t0)
  j 3b
  .section .data
  .balign 64
buf: .zero 32768
