/* Data accesses whose base register is written inside the run before them (tests/e2e/trace-unit.sh
 * trace-runs-data-sums-equal-rtl): the runs interpreter's sampler takes such a capture ahead when
 * the last write is an ADD or ADDI (C.MV, C.ADD, C.ADDI too) whose sources are not written
 * before it in the run (emu/cpu/cpu.c data_known_ahead (b)), and must stop for every other case:
 * a source written earlier in the run (MV or ANDI then ADD, ADD then ADD, AUIPC then ADDI), a
 * SUB.
 * One run of 20 instructions, entered at its first slot and, after a stop, at the slot after the
 * stop, 30,000 times; exits through the finisher (code 0). */
  .section .text.init
  .globl _start
_start:
  la s0, buf
  li s1, 30000
  li a3, -32
loop:
  andi a2, s1, 0x3f8      /* ANDI: a2 = an offset in [0, 1016] */
  mv a1, s0               /* C.MV (ADD a1, x0, s0) */
  lw t0, 4(a1)            /* base by C.MV: its source s0 never written */
  add a1, a1, a2          /* C.ADD: sources written before it (mv, andi) */
  lw t1, 8(a1)
  addi a1, a1, 16         /* C.ADDI: source written before it (add) */
  sw t1, 0(a1)
  add a4, s0, a2          /* ADD: s0 never written, a2 by the andi */
  ld t2, 24(a4)
  sub a5, s0, a3          /* SUB (of a register never written): never known ahead */
  sd t2, 0(a5)
  add a1, a1, a3          /* ADD, ADD (a fused pair): the second's source is the first's result */
  add a1, a1, a3
  lw t3, 64(a1)
2: auipc a6, %pcrel_hi(buf) /* AUIPC, then ADDI of its result (a fused pair) */
  addi a6, a6, %pcrel_lo(2b)
  sw t3, 128(a6)
  addi s1, s1, -1
  bnez s1, loop
  li t0, 0x100000
  li t1, 0x5555
  sw t1, 0(t0)
1: wfi
  j 1b
  .section .data
  .balign 64
buf: .zero 4096
