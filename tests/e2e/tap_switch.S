/* A guest that moves the trace unit from the core tap to the dram tap between two sessions, in
 * the order that the backends' tap test has to get right (tests/e2e/trace-tap-switch.sh; run with
 * --timing=cache so that there are DRAM transfers):
 *
 *  1. a session on the core tap at rate 1 (loads and stores), stores into buf;
 *  2. TAP = dram while that session runs (latched at enable: no effect on it), then CTRL = 0,
 *     whose own store is the session's last access (the write applies at its cycle's end); TAP =
 *     core and CTRL = ENABLE, which the unit refuses while the first session's END is not out
 *     (STATUS.BUSY; the test's small, slow FIFO keeps it busy): the guest checks that it was
 *     refused (exit 5 otherwise: the case is not exercised); TAP = dram;
 *  3. wait for BUSY = 0, CTRL = ENABLE: a session on the dram tap, whose only accesses are the
 *     cache's DRAM transfers of a 256 KiB walk, one line each (core accesses of it would be of
 *     word addresses: the test tells them apart);
 *  4. MARKER 0x7a9, stop, wait for the END, exit 0.
 *
 * The unit must capture the second session's transfers on every backend: the tap an access is
 * compared with is the one the unit holds at that access's cycle (docs/trace-unit.md section 8,
 * "The hook"), not a copy kept beside it that takes the refused enable for a start. */
  .equ TU, 0x11000000
  .equ CTRL, 0x008
  .equ STATUS, 0x00C
  .equ KIND_MASK, 0x018
  .equ TAP, 0x01C
  .equ FMT, 0x020
  .equ RATE_H, 0x028
  .equ MARKER, 0x040
  .equ ST_ACTIVE, 1
  .equ ST_BUSY, 2
  .section .text.init
  .globl _start
_start:
  li a0, TU
  sw zero, CTRL(a0)         /* stop a session the command line started */
1: lw t0, STATUS(a0)
  andi t0, t0, ST_BUSY
  bnez t0, 1b
  li t0, 1
  sw t0, RATE_H(a0)
  li t0, 0x22
  sw t0, FMT(a0)            /* full / full */
  li t0, 0x6
  sw t0, KIND_MASK(a0)      /* load, store */
  sw zero, TAP(a0)          /* core */
  li t1, 1
  sw t1, CTRL(a0)           /* session 1 on the core tap */
  la a1, buf
  li a2, 256
2: sd a2, 0(a1)
  addi a1, a1, 64
  addi a2, a2, -1
  bnez a2, 2b
  sw t1, TAP(a0)            /* dram while the session runs: it stays on the core tap */
  sw zero, CTRL(a0)         /* stop: this store is still of the session (its cycle's access) */
  sw zero, TAP(a0)          /* core again ... */
  sw t1, CTRL(a0)           /* ... enable: refused, the END is not out */
  lw t0, STATUS(a0)
  andi t0, t0, ST_ACTIVE
  bnez t0, not_refused
  sw t1, TAP(a0)            /* dram, for the next session */
3: lw t0, STATUS(a0)
  andi t0, t0, ST_BUSY
  bnez t0, 3b
  sw t1, CTRL(a0)           /* session 2 on the dram tap */
  la a1, big
  li a2, 4096               /* 256 KiB, one line each */
4: ld t0, 0(a1)
  addi t0, t0, 1
  sd t0, 8(a1)
  addi a1, a1, 64
  addi a2, a2, -1
  bnez a2, 4b
  li t0, 0x7a9
  sw t0, MARKER(a0)
  sw zero, CTRL(a0)
5: lw t0, STATUS(a0)
  andi t0, t0, ST_BUSY
  bnez t0, 5b
  li t0, 0x100000
  li t1, 0x5555
  sw t1, 0(t0)
6: wfi
  j 6b
not_refused:
  li t0, 0x100000
  li t1, (5 << 16) | 0x3333
  sw t1, 0(t0)
  j 6b
  .section .data
  .balign 64
buf: .zero 16384
big: .zero 262144
