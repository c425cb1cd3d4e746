/* UART output and the sifive,test0 finisher: prints "hello from mtemu" and exits with code 3. */
  .section .text.init
  .globl _start
_start:
  la a0, msg
  li a1, 0x10000000
1: lbu t0, 0(a0)
  beqz t0, 2f
3: lbu t1, 5(a1)          /* wait for THR empty */
  andi t1, t1, 0x20
  beqz t1, 3b
  sb t0, 0(a1)
  addi a0, a0, 1
  j 1b
2: li t0, 0x100000
  li t1, (3 << 16) | 0x3333
  sw t1, 0(t0)
4: wfi
  j 4b
  .section .rodata
msg: .asciz "hello from mtemu\n"
