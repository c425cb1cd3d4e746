/* hints: HINT encodings are legal and execute as no-ops (no trap, no register change):
 * integer ops with rd = x0 (addi/slti/lui/auipc/add/slli...), FENCE with unusual predecessor/
 * successor sets and PAUSE, and the RVC HINTs: c.nop with an immediate, c.addi with imm 0,
 * c.li/c.lui/c.mv/c.add/c.slli with rd = x0, and c.slli with shamt 0. */
#include "isa_test.h"
TEST_BEGIN
  .option push
  .option rvc
  li a0, 0x1234; li a1, 0x77
  TEST_NUM(1)
  addi x0, a0, 5; slti x0, a0, 1; sltiu x0, a0, 1; andi x0, a0, 1; ori x0, a0, 1; xori x0, a0, 1
  lui x0, 0x12345; auipc x0, 0x54321
  .option push
  .option norvc
  add x0, a0, a1; sub x0, a0, a1; slli x0, a0, 3; srli x0, a0, 3; srai x0, a0, 3
  .option pop
  .word 0x0020000f; .word 0x0800000f; fence iorw, iorw; .word 0x0100000f   /* fence 0,r; fence i,0; pause */
  TEST_NUM(2)
  .hword 0x0005                     /* c.nop 1 */
  .hword 0x107d                     /* c.nop -1 */
  .hword 0x0501                     /* c.addi a0, 0 */
  .hword 0x4015                     /* c.li x0, 5 */
  .hword 0x6005                     /* c.lui x0, 1 */
  .hword 0x802e                     /* c.mv x0, a1 */
  .hword 0x902e                     /* c.add x0, a1 */
  .hword 0x0006                     /* c.slli x0, 1 */
  .hword 0x0502                     /* c.slli a0, 0 (shamt 0: a HINT) */
  li t2, 0x1234; bne a0, t2, fail
  li t2, 0x77; bne a1, t2, fail
  TEST_CASE(3, x0, 0, nop)
  .option pop
TEST_END
