/* The QEMU trace plugin's check program (tests/bench/qemu-plugin-count.sh): a loop whose executed
 * instructions and data accesses follow from this text alone, so the plugin's records can be
 * checked address by address. Built without the linker's relaxation and with compressed code only
 * where written, so the counts below are exact:
 *
 *   entry: 3 instructions (la = auipc + addi, li t1 = addi)
 *   loop:  LOOPS x 4 instructions: ld, sd, c.addi (2 bytes: one fetch at its own address), bnez;
 *          LOOPS loads of `cell`, LOOPS stores to `cell + 8`
 *   exit:  3 instructions (lui; lui + addiw) then the finisher's sw (fetched; its store ends QEMU
 *          inside the access: QEMU 7.2's hw/misc/sifive_test.c calls exit(0) there, so the plugin records
 *          no store for it)
 *
 * LOOPS is passed by the test (-DLOOPS=N, N < 2048 so `li` is one addi). */
  .option norelax
  .option norvc
  .section .text.init
  .globl _start
_start:
  la t0, cell
  li t1, LOOPS
loop:
  ld t2, 0(t0)
  sd t2, 8(t0)
  .option rvc
  c.addi t1, -1
  .option norvc
  bnez t1, loop
  li t0, 0x100000
  li t1, 0x5555
finish:
  sw t1, 0(t0)
park:
  wfi
  j park

  .section .data
  .balign 16
  .globl cell
cell:
  .dword 0x1234
  .dword 0
