/* zb_reserved: encodings next to the Zba/Zbb/Zbc/Zbs/Zbkb instructions that the ratified spec
 * (1.0.0, RV64) leaves reserved raise illegal instruction (2), with mepc at the instruction and mtval 0 or
 * the instruction's bits; rd (a0) is not written.  Then, so that the decoder's neighbours stay
 * legal, each valid encoding that sits next to them runs (as .word, rd = a0, rs1 = a0 = 0x5a5a,
 * rs2 = a1 = 3) and gives its value.
 * Encodings: R-type funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode with
 * rd = rs1 = a0 (x10), rs2 = a1 (x11); I-type shifts imm[11:0] << 20 | ...; assembled by hand
 * from the spec's encoding tables (checked with objdump for the valid ones).  The Zbkb ones need
 * QEMU-CPU(rv64,zbkb=true,zbkx=true) on the reference. */
#include "isa_test.h"
#define ILLEGAL32(n, bits)                                                                       \
  TEST_NUM(n); li a0, 0x5a5a; li a1, 3; TRAP_RESUME(9990f);                                      \
9991: .word bits; j fail;                                                                        \
9990: TRAP_CHECK(TS_CAUSE, CAUSE_ILLEGAL_INSTRUCTION); TRAP_CHECK_EPC(9991b);                    \
  la t1, trap_state; ld t0, TS_TVAL(t1); beqz t0, 9992f; li t2, bits; bne t0, t2, fail;          \
9992: li t2, 0x5a5a; bne a0, t2, fail
/* a valid encoding: a0 = 0x5a5a, a1 = 3 in, a0 = expected out */
#define VALID32(n, bits, expected)                                                               \
  TEST_CASE(n, a0, expected, li a0, 0x5a5a; li a1, 3; .word bits)
TEST_BEGIN
  /* 4-byte instructions only, so none straddles two pages: with an instruction across a page
   * boundary in S/U mode, the meta-pager's online simulation (tests/metapaging/equality.sh)
   * disagrees with the real run by a few faults, on main's mtemu too (not a Zb* matter) */
  .option norvc
  /* OP-32 */
  VALID32(1, 0x08b5453b, 0x35a5a) /* zext.h's funct7/funct3 with rs2 = a1: Zbkb's packw */
  ILLEGAL32(2, 0x08b5553b)     /* funct7 0000100 funct3 101 */
  ILLEGAL32(3, 0x08b5253b)     /* funct7 0000100 funct3 010 */
  ILLEGAL32(4, 0x08b5153b)     /* funct7 0000100 funct3 001 */
  ILLEGAL32(5, 0x20b5053b)     /* funct7 0010000 funct3 000 (no sh0add.uw) */
  ILLEGAL32(6, 0x20b5353b)     /* funct7 0010000 funct3 011 */
  ILLEGAL32(7, 0x60b5053b)     /* funct7 0110000 funct3 000 */
  ILLEGAL32(8, 0x62b5553b)     /* rorw's funct3 with funct7 0110001 */
  ILLEGAL32(9, 0x0ab5153b)     /* funct7 0000101 (no clmulw) */
  ILLEGAL32(10, 0x0ab5453b)    /* funct7 0000101 funct3 100 (no minw) */
  ILLEGAL32(11, 0x40b5753b)    /* funct7 0100000 funct3 111 (no andnw) */
  ILLEGAL32(12, 0x48b5153b)    /* funct7 0100100 funct3 001 (no bclrw) */
  /* OP-IMM-32 */
  ILLEGAL32(13, 0x6205551b)    /* roriw a0, a0, 32: shamt[5] = 1 is reserved */
  ILLEGAL32(14, 0x63f5551b)    /* roriw with shamt 63 */
  ILLEGAL32(15, 0x6035151b)    /* funct12 0x603 (between cpopw and the reserved 0x604) */
  ILLEGAL32(16, 0x6045151b)    /* funct12 0x604: sext.b has no W form */
  ILLEGAL32(17, 0x6205151b)    /* funct12 0x620 */
  ILLEGAL32(18, 0x0c05151b)    /* imm[11:6] 000011 (slli.uw is 000010) */
  ILLEGAL32(19, 0x4805551b)    /* funct7 0100100 funct3 101 (no bextiw) */
  ILLEGAL32(20, 0x2805151b)    /* funct7 0010100 funct3 001 (no bsetiw) */
  /* OP-IMM */
  ILLEGAL32(21, 0x60351513)    /* funct12 0x603 */
  ILLEGAL32(22, 0x60651513)    /* funct12 0x606 */
  ILLEGAL32(23, 0x62051513)    /* funct12 0x620 (imm[11:6] 011000 with shamt 32) */
  ILLEGAL32(24, 0x08051513)    /* slli.uw's imm[11:6] 000010 in OP-IMM */
  ILLEGAL32(25, 0x69855513)    /* rev8's RV32 encoding (0x698) */
  ILLEGAL32(26, 0x6bf55513)    /* imm[11:6] 011010 funct3 101 with shamt 63 */
  VALID32(27, 0x68755513, 0x5a5a) /* 0x687: Zbkb's brev8 (0x5a reversed is 0x5a) */
  ILLEGAL32(28, 0x28855513)    /* 0x288 next to orc.b's 0x287 */
  ILLEGAL32(29, 0x28055513)    /* 0x280 */
  ILLEGAL32(30, 0x6c055513)    /* imm[11:6] 011011 funct3 101 */
  /* OP */
  VALID32(31, 0x08b54533, 0x300005a5a) /* funct7 0000100 funct3 100: Zbkb's pack */
  VALID32(32, 0x08b57533, 0x35a)  /* funct7 0000100 funct3 111: Zbkb's packh */
  ILLEGAL32(33, 0x0ab50533)    /* funct7 0000101 funct3 000 */
  ILLEGAL32(34, 0x20b51533)    /* funct7 0010000 funct3 001 */
  ILLEGAL32(35, 0x20b53533)    /* funct7 0010000 funct3 011 */
  ILLEGAL32(36, 0x20b57533)    /* funct7 0010000 funct3 111 */
  ILLEGAL32(37, 0x40b51533)    /* funct7 0100000 funct3 001 */
  ILLEGAL32(38, 0x60b50533)    /* funct7 0110000 funct3 000 */
  ILLEGAL32(39, 0x60b53533)    /* funct7 0110000 funct3 011 */
  ILLEGAL32(40, 0x68b55533)    /* funct7 0110100 funct3 101 (binv's funct7) */
  ILLEGAL32(41, 0x28b55533)    /* funct7 0010100 funct3 101 (bset's funct7) */
  ILLEGAL32(42, 0x48b50533)    /* funct7 0100100 funct3 000 (bclr's funct7) */
  ILLEGAL32(43, 0x62b51533)    /* funct7 0110001 funct3 001 (rol's funct7 | 1) */

  /* the valid neighbours (expected values by hand: a0 = 0x5a5a, a1 = 3) */
  VALID32(50, 0x0805453b, 0x5a5a)               /* zext.h a0, a0 */
  VALID32(51, 0x08b5053b, 0x5a5d)               /* add.uw a0, a0, a1 */
  VALID32(52, 0x20b5253b, 0xb4b7)               /* sh1add.uw: 0x5a5a << 1 + 3 */
  VALID32(53, 0x6015151b, 1)                    /* ctzw: 0x5a5a ends in one 0 */
  VALID32(54, 0x6025151b, 8)                    /* cpopw: 0x5a5a has 8 ones */
  VALID32(55, 0x0845151b, 0x5a5a0)              /* slli.uw a0, a0, 4 */
  VALID32(56, 0x0a45151b, 0x5a5a000000000)      /* slli.uw a0, a0, 36 */
  VALID32(57, 0x6015551b, 0x2d2d)               /* roriw a0, a0, 1 */
  VALID32(58, 0x6b855513, 0x5a5a000000000000)   /* rev8 */
  VALID32(59, 0x62055513, 0x00005a5a00000000)   /* rori a0, a0, 32 */
  VALID32(60, 0x28755513, 0xffff)               /* orc.b */
  VALID32(61, 0x60451513, 0x5a)                 /* sext.b */
  VALID32(62, 0x60551513, 0x5a5a)               /* sext.h */
  VALID32(63, 0x28b51533, 0x5a5a)               /* bset a0, a0, a1: bit 3 already set */
  VALID32(64, 0x48b55533, 1)                    /* bext a0, a0, a1 */
  VALID32(65, 0x68b51533, 0x5a52)               /* binv a0, a0, a1 */
  VALID32(66, 0x48b51533, 0x5a52)               /* bclr a0, a0, a1 */
  VALID32(67, 0x0ab51533, 0xeeee)               /* clmul a0, a0, a1: 0x5a5a ^ 0x5a5a << 1 */
  VALID32(68, 0x40b57533, 0x5a58)               /* andn */
  VALID32(69, 0x60b51533, 0x2d2d0)              /* rol a0, a0, a1 */
  VALID32(70, 0x0ab57533, 0x5a5a)               /* maxu */
TEST_END
