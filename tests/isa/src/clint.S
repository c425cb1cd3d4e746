/* clint: the CLINT's registers (ISA-ENV: m-only), as QEMU's virt/spike machines and Linux/OpenSBI
 * use them: mtimecmp and mtime are 64-bit registers that also accept 32-bit accesses to each
 * half; msip holds one bit (bit 0); mtime advances; writing mtime (M-mode) sets it. */
#include "isa_test.h"
TEST_BEGIN
  li s2, CLINT_MSIP; li s3, CLINT_MTIMECMP; li s4, CLINT_MTIME
  TEST_CASE(1, a0, 0x123456789abcdef0, li t0, 0x123456789abcdef0; sd t0, 0(s3); ld a0, 0(s3))
  TEST_CASE(2, a0, 0xffffffff9abcdef0, lw a0, 0(s3))
  TEST_CASE(3, a0, 0x12345678, lw a0, 4(s3))
  TEST_CASE(4, a0, 0x1234567800000001, li t0, 1; sw t0, 0(s3); ld a0, 0(s3))
  TEST_CASE(5, a0, 0xfffffffe00000001, li t0, 0xfffffffe; sw t0, 4(s3); ld a0, 0(s3))
  TEST_NUM(6); li t0, -1; sd t0, 0(s3)
  TEST_CASE(7, a0, 1, li t0, -1; sw t0, 0(s2); lw a0, 0(s2))     /* only bit 0 */
  TEST_CASE(8, a0, 0, sw zero, 0(s2); lw a0, 0(s2))
  /* mtime advances, and 32-bit reads of its halves are consistent with a 64-bit read */
  TEST_NUM(9)
  ld a0, 0(s4); li t2, 100000
1: ld a1, 0(s4); bne a1, a0, 2f; addi t2, t2, -1; bnez t2, 1b; j fail
2: bltu a1, a0, fail
  TEST_NUM(10)
  lwu a2, 4(s4); ld a1, 0(s4); srli a1, a1, 32; bltu a1, a2, fail
  /* writing mtime */
  TEST_NUM(11)
  li t0, 0x500000000; sd t0, 0(s4); ld a0, 0(s4); bltu a0, t0, fail; li t2, 0x500000000 + 50000000; bgeu a0, t2, fail
TEST_END
