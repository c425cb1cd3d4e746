/* illegal: encodings that RV64IMAC (+Zicsr, Zifencei, and any later standard extension) leaves
 * unused raise illegal instruction (2), with mepc at the instruction and mtval either 0 or the
 * instruction's bits; the destination register is not written.  Chosen so that no ratified
 * extension defines them: OP-32 funct7=1 funct3=1, LOAD funct3=7 (RV128's LDU), STORE
 * funct3=4 (RV128's SQ), BRANCH funct3=2 and 3, JALR funct3=1, SLLIW with shamt[5]=1, AMO
 * funct3=4 (RV128), ECALL with rd != 0, MRET with rs1 != 0, the all-ones word. */
#include "isa_test.h"
/* bits: the 32-bit encoding */
#define ILLEGAL32(n, bits)                                                                       \
  TEST_NUM(n); li a0, 0x5a5a; TRAP_RESUME(9990f);                                                \
9991: .word bits; j fail;                                                                        \
9990: TRAP_CHECK(TS_CAUSE, CAUSE_ILLEGAL_INSTRUCTION); TRAP_CHECK_EPC(9991b);                    \
  la t1, trap_state; ld t0, TS_TVAL(t1); beqz t0, 9992f; li t2, bits; bne t0, t2, fail;          \
9992: li t2, 0x5a5a; bne a0, t2, fail
TEST_BEGIN
  ILLEGAL32(1, 0x0200153b)     /* OP-32 funct7=1 funct3=1, rd = a0 */
  ILLEGAL32(2, 0x00007503)     /* LOAD funct3=7 (ldu), rd = a0 */
  ILLEGAL32(3, 0x00a04023)     /* STORE funct3=4 (sq) */
  ILLEGAL32(4, 0x00002063)     /* BRANCH funct3=2 */
  ILLEGAL32(5, 0x00003063)     /* BRANCH funct3=3 */
  ILLEGAL32(6, 0x00001567)     /* JALR funct3=1, rd = a0 */
  ILLEGAL32(7, 0x0205151b)     /* SLLIW a0, a0, 32: shamt[5] = 1 is reserved */
  ILLEGAL32(8, 0x0205551b)     /* SRLIW a0, a0, 32 */
  ILLEGAL32(9, 0x4205551b)     /* SRAIW a0, a0, 32 */
  ILLEGAL32(10, 0x00b5452f)    /* AMO funct3=4 (RV128 width), rd = a0 */
  ILLEGAL32(11, 0x00000573)    /* ECALL with rd = a0 */
  ILLEGAL32(12, 0x30208073)    /* MRET with rs1 = 1 */
  ILLEGAL32(13, 0xffffffff)
TEST_END
