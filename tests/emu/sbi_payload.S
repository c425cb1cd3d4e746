/* An S-mode payload for OpenSBI's fw_jump (entered at 0x8020_0000 with a0 = hart id, a1 = DTB):
 * prints "sbi ok" through the legacy console putchar call, checks that a1 points at a device
 * tree (magic 0xd00dfeed, big-endian), then powers off through the SRST extension. */
  .section .text.init
  .globl _start
_start:
  lwu t0, 0(a1)
  li t1, 0xedfe0dd0          /* 0xd00dfeed read little-endian */
  bne t0, t1, bad
  la s0, msg
1: lbu a0, 0(s0)
  beqz a0, 2f
  li a7, 1                   /* legacy console putchar */
  ecall
  addi s0, s0, 1
  j 1b
2: li a7, 0x53525354         /* SRST */
  li a6, 0
  li a0, 0                   /* shutdown */
  li a1, 0
  ecall
3: j 3b
bad:
  li a7, 0x53525354
  li a6, 0
  li a0, 0
  li a1, 1                   /* system failure */
  ecall
  j 3b
  .section .rodata
msg: .asciz "sbi ok\n"
