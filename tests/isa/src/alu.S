/* alu: RV64I register-register and register-immediate arithmetic and logic.
 * add sub and or xor slt sltu addi andi ori xori slti sltiu lui auipc: signed overflow wraps,
 * 12-bit immediates sign-extend, comparisons signed vs unsigned, rd == rs1/rs2, x0 as source
 * reads 0, x0 as destination stays 0, LUI/AUIPC sign-extend bit 31 to 64 bits. */
#include "isa_test.h"
TEST_BEGIN

  TEST_RR(1, add, 0x0000000000000000, 0, 0)
  TEST_RR(2, add, 0x0000000000000002, 1, 1)
  TEST_RR(3, add, 0x000000000000000a, 3, 7)
  TEST_RR(4, add, 0x8000000000000000, 0x7fffffffffffffff, 1)          /* signed overflow wraps */
  TEST_RR(5, add, 0x0000000000000000, 0xffffffffffffffff, 1)          /* carry out is lost */
  TEST_RR(6, add, 0x0000000080000000, 0x7fffffff, 1)                  /* no 32-bit sign extension */
  TEST_RR(7, add, 0x7fffffffffffffff, 0x8000000000000000, -1)
  TEST_RR_SRC1_EQ_DEST(8, add, 24, 13, 11)
  TEST_RR_SRC2_EQ_DEST(9, add, 25, 14, 11)
  TEST_RR_SRC12_EQ_DEST(10, add, 26, 13)
  TEST_RR_ZERO_SRC1(11, add, 15, 15)
  TEST_RR_ZERO_SRC2(12, add, 32, 32)
  TEST_RR_ZERO_DEST(13, add, 16, 30)

  TEST_RR(14, sub, 0, 0, 0)
  TEST_RR(15, sub, 0xffffffffffffffff, 0, 1)
  TEST_RR(16, sub, 0x7fffffffffffffff, 0x8000000000000000, 1)         /* signed overflow wraps */
  TEST_RR(17, sub, 0x0000000000000001, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_RR(18, sub, 0xffffffff80000000, 0, 0x80000000)
  TEST_RR_SRC12_EQ_DEST(19, sub, 0, 0x1234)
  TEST_RR_ZERO_SRC1(20, sub, -15, 15)
  TEST_RR_ZERO_DEST(21, sub, 16, 30)

  TEST_RR(22, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR(23, and, 0x00f000f0, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR(24, and, 0xf00ff00ff00ff00f, 0xf00ff00ff00ff00f, -1)
  TEST_RR(25, or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR(26, or, 0xfff0fff0fff0fff0, 0x0ff00ff00ff00ff0, 0xf0f0f0f0f0f0f0f0)
  TEST_RR(27, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR(28, xor, 0xff00ff00ff00ff00, 0x00ff00ff00ff00ff, -1)
  TEST_RR_SRC12_EQ_DEST(29, xor, 0, 0x5a5a5a5a5a5a5a5a)
  TEST_RR_ZERO_DEST(30, or, 1, 2)

  TEST_RR(31, slt, 0, 0, 0)
  TEST_RR(32, slt, 1, 3, 7)
  TEST_RR(33, slt, 0, 7, 3)
  TEST_RR(34, slt, 1, 0x8000000000000000, 0)
  TEST_RR(35, slt, 0, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_RR(36, slt, 1, -1, 0)
  TEST_RR(37, slt, 0, 0, -1)
  TEST_RR(38, sltu, 0, 0, 0)
  TEST_RR(39, sltu, 1, 3, 7)
  TEST_RR(40, sltu, 0, 0x8000000000000000, 0)
  TEST_RR(41, sltu, 1, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_RR(42, sltu, 0, -1, 0)
  TEST_RR(43, sltu, 1, 0, -1)
  TEST_RR_ZERO_SRC1(44, sltu, 1, 5)                                   /* snez */
  TEST_RR_ZERO_SRC1(45, sltu, 0, 0)
  TEST_RR_ZERO_DEST(46, slt, -1, 1)

  TEST_RI(47, addi, 0x00000000, 0, 0)
  TEST_RI(48, addi, 0x0000000a, 3, 7)
  TEST_RI(49, addi, 0xfffffffffffff800, 0, -2048)                     /* most negative imm */
  TEST_RI(50, addi, 0x00000000000007ff, 0, 2047)
  TEST_RI(51, addi, 0x8000000000000000, 0x7fffffffffffffff, 1)
  TEST_RI(52, addi, 0x7ffffffffffff7ff, 0x7fffffffffffffff, -2048)
  TEST_RI(53, addi, 0xffffffffffffffff, 0, -1)
  TEST_RI(54, addi, 0x0000000080000000, 0x7fffffff, 1)
  TEST_RI_SRC1_EQ_DEST(55, addi, 24, 13, 11)
  TEST_RI_ZERO_SRC1(56, addi, 32, 32)
  TEST_RI_ZERO_DEST(57, addi, 33, 50)

  TEST_RI(58, andi, 0xff00ff00, 0xff00ff00, -1)                      /* imm -1 = all ones */
  TEST_RI(59, andi, 0x000000f0, 0x0ff00ff0, 0x0f0)
  TEST_RI(60, andi, 0xff00ff00ff00f800, 0xff00ff00ff00ff00, -2048)    /* imm sign-extends */
  TEST_RI(61, ori, 0xffffffffffffff0f, 0xff00ff00, -241)
  TEST_RI(62, ori, 0x0ff00ff0, 0x0ff00ff0, 0x0f0)
  TEST_RI(63, ori, 0xfffffffffffff800, 0, -2048)
  TEST_RI(64, xori, 0xffffffffff00f00f, 0x00ff0f00, -241)
  TEST_RI(65, xori, 0xffffffffffffffff, 0, -1)                        /* not */
  TEST_RI(66, xori, 0x0ff00f00, 0x0ff00ff0, 0x0f0)
  TEST_RI_ZERO_DEST(67, xori, 1, 1)

  TEST_RI(68, slti, 0, 0, 0)
  TEST_RI(69, slti, 1, 0, 1)
  TEST_RI(70, slti, 0, 0, -2048)
  TEST_RI(71, slti, 1, 0x8000000000000000, -2048)
  TEST_RI(72, slti, 1, -2049, -2048)
  TEST_RI(73, slti, 0, 0x7fffffffffffffff, 2047)
  TEST_RI(74, sltiu, 0, 0, 0)
  TEST_RI(75, sltiu, 1, 0, -1)                                        /* imm -1 is UINT64_MAX */
  TEST_RI(76, sltiu, 0, -1, -1)
  TEST_RI(77, sltiu, 1, 0x7fffffffffffffff, -2048)
  TEST_RI(78, sltiu, 1, 0, 1)                                         /* seqz */
  TEST_RI(79, sltiu, 0, 5, 1)
  TEST_RI_ZERO_DEST(80, slti, -5, 1)

  /* LUI: imm << 12, bit 31 sign-extends */
  TEST_CASE(81, a0, 0x0000000000000000, lui a0, 0)
  TEST_CASE(82, a0, 0x0000000000001000, lui a0, 1)
  TEST_CASE(83, a0, 0x000000007ffff000, lui a0, 0x7ffff)
  TEST_CASE(84, a0, 0xffffffff80000000, lui a0, 0x80000)
  TEST_CASE(85, a0, 0xfffffffffffff000, lui a0, 0xfffff)
  TEST_CASE(86, x0, 0, lui x0, 0x80000)

  /* AUIPC: pc + (imm << 12), with sign extension */
  TEST_CASE(87, a0, 0, 9991: auipc a0, 0; la a1, 9991b; sub a0, a0, a1)
  TEST_CASE(88, a0, 0x7ffff000, 9991: auipc a0, 0x7ffff; la a1, 9991b; sub a0, a0, a1)
  TEST_CASE(89, a0, 0xffffffff80000000, 9991: auipc a0, 0x80000; la a1, 9991b; sub a0, a0, a1)
  TEST_CASE(90, a0, -4096, 9991: auipc a0, 0xfffff; la a1, 9991b; sub a0, a0, a1)

  /* NOP and HINT encodings (rd = x0) do nothing */
  TEST_CASE(91, a0, 5, li a0, 5; nop; addi x0, a0, 1; slti x0, a0, 1; lui x0, 1; auipc x0, 1)

TEST_END
