/* rvc_reserved: RVC encodings the spec marks "reserved" raise illegal-instruction, as Spike and
 * QEMU do (the spec leaves reserved encodings to the implementation; an emulator that runs the
 * same software as those two must agree): c.addi4spn with nzuimm = 0, c.addi16sp with
 * nzimm = 0, c.lui with nzimm = 0, c.lwsp/c.ldsp with rd = x0, c.jr with rs1 = x0, c.addiw with
 * rd = x0.  Also a 48-bit-or-longer length encoding (low bits 11111) is not a valid RV64IMAC
 * instruction. */
#include "isa_test.h"
TEST_BEGIN
  TEST_TRAP(1, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x0004)   /* c.addi4spn s1, sp, 0 */
  TEST_TRAP(2, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x6101)   /* c.addi16sp sp, 0 */
  TEST_TRAP(3, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x6501)   /* c.lui a0, 0 */
  TEST_TRAP(4, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x4002)   /* c.lwsp x0, 0(sp) */
  TEST_TRAP(5, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x6002)   /* c.ldsp x0, 0(sp) */
  TEST_TRAP(6, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x8002)   /* c.jr x0 */
  TEST_TRAP(7, CAUSE_ILLEGAL_INSTRUCTION, .hword 0x2001)   /* c.addiw x0, 0 */
  TEST_TRAP(8, CAUSE_ILLEGAL_INSTRUCTION, .word 0xffffffff) /* all ones */
  /* the registers are untouched by the trapped instruction: a0 keeps its value */
  TEST_NUM(9); li a0, 123; TRAP_RESUME(1f); .hword 0x6501; j fail; 1: li t2, 123; bne a0, t2, fail
TEST_END
