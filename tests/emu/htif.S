/* HTIF as Spike serves riscv-tests benchmarks: a write system call through tohost/fromhost,
 * a console character, then exit code 5 through tohost = (5 << 1) | 1.  Also carries a
 * riscv-arch-test style signature region for --signature. */
  .section .text.init
  .globl _start
_start:
  la t0, magic
  la t1, msg
  li t2, 64                /* SYS_write */
  sd t2, 0(t0)
  li t2, 1                 /* fd 1 */
  sd t2, 8(t0)
  sd t1, 16(t0)
  li t2, 8                 /* length of "htif ok\n" */
  sd t2, 24(t0)
  la t1, tohost
  sd t0, 0(t1)             /* the system call */
  la t2, fromhost
1: ld t3, 0(t2)
  beqz t3, 1b
  sd zero, 0(t2)
  ld a0, 0(t0)             /* return value: 8 */
  li t3, 8
  bne a0, t3, fail
  li t3, (1 << 56) | (1 << 48) | '!'
  sd t3, 0(t1)             /* console putchar */
2: ld t3, 0(t2)
  beqz t3, 2b
  sd zero, 0(t2)
  li t3, (5 << 1) | 1
  sd t3, 0(t1)
3: j 3b
fail:
  li t3, (9 << 1) | 1
  sd t3, 0(t1)
  j 3b
  .section .rodata
msg: .ascii "htif ok\n"
  .data
  .align 4
  .globl begin_signature, end_signature
begin_signature: .word 0x11223344, 0xdeadbeef, 0x00000001, 0x80000000
end_signature:
  .align 3
magic: .dword 0, 0, 0, 0, 0, 0, 0, 0
  .section .tohost, "aw", @progbits
  .align 6
  .globl tohost
tohost: .dword 0
  .align 6
  .globl fromhost
fromhost: .dword 0
