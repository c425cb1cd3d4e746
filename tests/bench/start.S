/* Bare-metal start-up for the benchmark programs (QEMU virt and mtemu): stack, bss, main,
 * then the sifive,test0 finisher with main's return value as exit code. */
  .section .text.init
  .globl _start
_start:
  csrr t0, mhartid
  bnez t0, park
  la sp, __stack_top
  la t0, __bss_start
  la t1, __bss_end
1: bgeu t0, t1, 2f
  sd zero, 0(t0)
  addi t0, t0, 8
  j 1b
2: call main
  li t0, 0x100000
  beqz a0, 3f
  slli a0, a0, 16
  li t1, 0x3333
  or a0, a0, t1
  sw a0, 0(t0)
  j park
3: li t1, 0x5555
  sw t1, 0(t0)
park:
  wfi
  j park
