/* rvc: every RV64C integer instruction, written with explicit c.* mnemonics so each is really
 * the 16-bit form: c.addi4spn c.lw c.ld c.sw c.sd c.nop c.addi c.addiw c.li c.addi16sp c.lui
 * c.srli c.srai c.andi c.sub c.xor c.or c.and c.subw c.addw c.j c.beqz c.bnez c.slli c.lwsp
 * c.ldsp c.jr c.mv c.ebreak c.jalr c.add c.swsp c.sdsp.  Edge cases: immediates at their
 * limits and sign extension (c.lui's 6-bit field, c.addi16sp -512/496, c.andi -32), the W forms
 * sign-extend, c.jalr links pc + 2, shifts by 63, 0x0000 is illegal, mixed 16/32-bit code at
 * 2-byte alignment (a 32-bit instruction that starts at pc % 4 == 2). */
#include "isa_test.h"
TEST_BEGIN
  .option push
  .option rvc

  la sp, cstack + 512

  /* c.addi4spn: rd' = sp + nzuimm (scaled by 4, up to 1020) */
  TEST_CASE(1, a0, 1020, li a0, 0; c.addi4spn a0, sp, 1020; sub a0, a0, sp)
  TEST_CASE(2, s1, 4, c.addi4spn s1, sp, 4; sub s1, s1, sp)
  /* c.lw sign-extends, c.ld, c.sw, c.sd with offsets */
  TEST_CASE(3, a2, 0xffffffff80000001, la a0, cdat; c.lw a2, 4(a0))
  TEST_CASE(4, a2, 0x7fffffff, la a0, cdat; c.lw a2, 124(a0))
  TEST_CASE(5, a2, 0x80000001deadbeef, la a0, cdat; c.ld a2, 0(a0))
  TEST_CASE(6, a3, 0x0123456789abcdef, la a0, cdat; c.ld a3, 248(a0))
  TEST_CASE(7, a2, 0x55aa55aa, la a0, cdat; li a1, 0x55aa55aa; c.sw a1, 64(a0); lw a2, 64(a0))
  TEST_CASE(8, a2, 0xfedcba9876543210, la a0, cdat; li a1, 0xfedcba9876543210; c.sd a1, 72(a0); ld a2, 72(a0))
  /* c.nop, c.addi (imm -32..31; imm 0 is a hint = no-op), c.li */
  TEST_CASE(9, a0, 5, li a0, 5; c.nop)
  TEST_CASE(10, a0, 36, li a0, 5; c.addi a0, 31)
  TEST_CASE(11, a0, -27, li a0, 5; c.addi a0, -32)
  TEST_CASE(12, a0, 0x8000000000000000, li a0, 0x7fffffffffffffff; c.addi a0, 1)   /* 64-bit add */
  TEST_CASE(13, a0, -32, c.li a0, -32)
  TEST_CASE(14, a0, 31, c.li a0, 31)
  /* c.addiw: 32-bit add, sign-extended; imm 0 is sext.w */
  TEST_CASE(15, a0, 0xffffffff80000000, li a0, 0x7fffffff; c.addiw a0, 1)
  TEST_CASE(16, a0, 0xffffffff80000000, li a0, 0x1234567880000000; c.addiw a0, 0)
  TEST_CASE(17, a0, 0x000000007fffffe0, li a0, 0xffffffff80000000; c.addiw a0, -32)
  /* c.addi16sp: sp += nzimm (multiple of 16, -512..496) */
  TEST_CASE(18, a0, 496, mv a1, sp; c.addi16sp sp, 496; sub a0, sp, a1; mv sp, a1)
  TEST_CASE(19, a0, -512, mv a1, sp; c.addi16sp sp, -512; sub a0, sp, a1; mv sp, a1)
  TEST_CASE(20, a0, 16, mv a1, sp; c.addi16sp sp, 16; sub a0, sp, a1; mv sp, a1)
  /* c.lui: nzimm[17:12], sign-extended from bit 17 */
  TEST_CASE(21, a0, 0x1000, c.lui a0, 1)
  TEST_CASE(22, a0, 0x1f000, c.lui a0, 0x1f)
  TEST_CASE(23, a0, 0xfffffffffffe0000, c.lui a0, 0xfffe0)
  TEST_CASE(24, a0, 0xfffffffffffff000, c.lui a0, 0xfffff)
  TEST_CASE(25, t6, 0xffffffffffff0000, c.lui t6, 0xffff0)
  /* c.srli / c.srai / c.andi on x8-x15 */
  TEST_CASE(26, a0, 1, li a0, 0x8000000000000000; c.srli a0, 63)
  TEST_CASE(27, a0, 0x0000000080000000, li a0, 0x8000000000000000; c.srli a0, 32)
  TEST_CASE(28, a0, 0xffffffffffffffff, li a0, 0x8000000000000000; c.srai a0, 63)
  TEST_CASE(29, a0, 0xffffffff80000000, li a0, 0x8000000000000000; c.srai a0, 32)
  TEST_CASE(30, a0, 0x4000000000000000, li a0, 0x8000000000000000; c.srli a0, 1)
  TEST_CASE(31, a0, 0x1234567890abcde0, li a0, 0x1234567890abcdef; c.andi a0, -32)
  TEST_CASE(32, a0, 0x0f, li a0, 0x1234567890abcdef; c.andi a0, 31)
  TEST_CASE(33, a0, 0, li a0, -1; c.andi a0, 0)
  /* c.sub c.xor c.or c.and c.subw c.addw */
  TEST_CASE(34, a0, 0xfffffffffffffffe, li a0, 1; li a1, 3; c.sub a0, a1)
  TEST_CASE(35, a0, 0x0ff00ff00ff00ff0, li a0, 0x00ff00ff00ff00ff; li a1, 0x0f0f0f0f0f0f0f0f; c.xor a0, a1)
  TEST_CASE(36, a0, 0x0fff0fff0fff0fff, li a0, 0x00ff00ff00ff00ff; li a1, 0x0f0f0f0f0f0f0f0f; c.or a0, a1)
  TEST_CASE(37, a0, 0x000f000f000f000f, li a0, 0x00ff00ff00ff00ff; li a1, 0x0f0f0f0f0f0f0f0f; c.and a0, a1)
  TEST_CASE(38, a0, 0x000000007fffffff, li a0, 0x80000000; li a1, 1; c.subw a0, a1)
  TEST_CASE(39, a0, 0xffffffff80000000, li a0, 0x7fffffff; li a1, 1; c.addw a0, a1)
  TEST_CASE(40, a0, 0xffffffffffffffff, li a0, 0x1000000000000000; li a1, 0x00000000ffffffff; c.addw a0, a1)
  TEST_CASE(41, s0, 0, li s0, 0x5555; li a5, 0x5555; c.sub s0, a5)
  /* c.slli (any rd, shift 1..63) */
  TEST_CASE(42, t5, 0x8000000000000000, li t5, 1; c.slli t5, 63)
  TEST_CASE(43, ra, 0x0000000100000000, li ra, 1; c.slli ra, 32)
  /* c.lwsp c.ldsp c.swsp c.sdsp (sp-relative, any rd) */
  TEST_CASE(44, t3, 0xffffffffcafef00d, li t4, 0xcafef00d; c.swsp t4, 252(sp); c.lwsp t3, 252(sp))
  TEST_CASE(45, t3, 0x00000000cafef00d, li t4, 0xcafef00d; c.swsp t4, 0(sp); lwu t3, 0(sp))
  TEST_CASE(46, s11, 0x1122334455667788, li t4, 0x1122334455667788; c.sdsp t4, 504(sp); c.ldsp s11, 504(sp))
  TEST_CASE(47, ra, 0x0a0b0c0d0e0f0102, li t4, 0x0a0b0c0d0e0f0102; c.sdsp t4, 8(sp); c.ldsp ra, 8(sp))
  /* c.mv, c.add (any registers) */
  TEST_CASE(48, t6, 0x123456789, li s2, 0x123456789; c.mv t6, s2)
  TEST_CASE(49, t6, 0x8000000000000001, li t6, 0x7fffffffffffffff; li s3, 2; c.add t6, s3)
  /* c.j forward and backward */
  TEST_NUM(50); c.j 1f; j fail; 2: c.j 3f; 1: c.j 2b; j fail; 3:
  /* c.beqz / c.bnez: taken and not taken, x8-x15 only, compare whole 64 bits */
  TEST_NUM(51); li a0, 0; c.beqz a0, 1f; j fail; 1:
  TEST_NUM(52); li a0, 0x100000000; c.beqz a0, fail
  TEST_NUM(53); li a0, 0x100000000; c.bnez a0, 1f; j fail; 1:
  TEST_NUM(54); li a0, 0; c.bnez a0, fail
  TEST_NUM(55); li s0, 3; 1: c.addi s0, -1; c.bnez s0, 1b; bnez s0, fail
  /* c.jr: jump to rs1 */
  TEST_NUM(56); la a5, 1f; c.jr a5; j fail; 1:
  /* c.jalr: links pc + 2 in ra */
  TEST_NUM(57)
  la a5, 2f; la a4, 1f
  c.jalr a5
1: j fail
2: bne ra, a4, fail
  /* c.jalr with rs1 = ra: the target comes from the old ra */
  TEST_NUM(58)
  la ra, 2f; la a4, 1f
  c.jalr ra
1: j fail
2: bne ra, a4, fail

  /* 32-bit instructions at addresses with pc % 4 == 2 */
  TEST_NUM(59)
  .balign 4
  c.nop
  li a0, 0x12345
  addi a0, a0, 0x678 - 0x345         /* 32-bit addi, possibly at pc % 4 == 2 */
  c.nop
  lui a1, 0x12
  addiw a1, a1, 0x678
  bne a0, a1, fail
  /* a jump to a 32-bit instruction at pc % 4 == 2, and back */
  TEST_NUM(60)
  .balign 4
  c.nop
  jal ra, 1f                         /* 32-bit jal at pc % 4 == 2 */
  j 2f
1: c.addi a0, 0
  .option norvc
  addi a0, a0, 1                     /* 32-bit at an odd halfword (after c.addi) */
  .option rvc
  ret
2:

  /* c.ebreak: breakpoint exception, mepc = the c.ebreak itself */
  TEST_TRAP(61, CAUSE_BREAKPOINT, 1: c.ebreak)
  TRAP_CHECK_EPC(1b)
  /* ebreak (32-bit) too */
  TEST_TRAP(62, CAUSE_BREAKPOINT, 1: ebreak)
  TRAP_CHECK_EPC(1b)

  /* the all-zero halfword is defined illegal */
  TEST_TRAP(63, CAUSE_ILLEGAL_INSTRUCTION, 1: .hword 0x0000)
  TRAP_CHECK_EPC(1b)

  .option pop

  .data
  .balign 8
cdat:  .dword 0x80000001deadbeef
  .fill 14, 8, 0
  .word 0, 0x7fffffff
  .fill 15, 8, 0
  .dword 0x0123456789abcdef
  .balign 16
cstack: .fill 128, 8, 0
  .text
TEST_END
