/* branch: beq bne blt bge bltu bgeu, taken and not taken, signed vs unsigned compares at the
 * extremes, equal operands, the same register twice, x0 operands, forward and backward targets
 * (a branch that is taken must not execute the fall-through instruction, and one that is not
 * taken must not leave the straight line). */
#include "isa_test.h"
TEST_BEGIN

  TEST_BR_TAKEN(1, beq, 0, 0)
  TEST_BR_TAKEN(2, beq, -1, -1)
  TEST_BR_TAKEN(3, beq, 0x8000000000000000, 0x8000000000000000)
  TEST_BR_NOT_TAKEN(4, beq, 0, 1)
  TEST_BR_NOT_TAKEN(5, beq, 0x100000000, 0)          /* upper bits count */
  TEST_BR_NOT_TAKEN(6, beq, -1, 0x7fffffffffffffff)

  TEST_BR_TAKEN(7, bne, 0, 1)
  TEST_BR_TAKEN(8, bne, 0x100000000, 0)
  TEST_BR_TAKEN(9, bne, 1, 0x8000000000000001)
  TEST_BR_NOT_TAKEN(10, bne, 0, 0)
  TEST_BR_NOT_TAKEN(11, bne, -1, -1)

  TEST_BR_TAKEN(12, blt, 0, 1)
  TEST_BR_TAKEN(13, blt, -1, 0)
  TEST_BR_TAKEN(14, blt, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR_TAKEN(15, blt, -2, -1)
  TEST_BR_NOT_TAKEN(16, blt, 1, 0)
  TEST_BR_NOT_TAKEN(17, blt, 0, 0)
  TEST_BR_NOT_TAKEN(18, blt, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR_NOT_TAKEN(19, blt, 0, -1)

  TEST_BR_TAKEN(20, bge, 0, 0)
  TEST_BR_TAKEN(21, bge, 1, 0)
  TEST_BR_TAKEN(22, bge, 0, -1)
  TEST_BR_TAKEN(23, bge, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR_NOT_TAKEN(24, bge, -1, 0)
  TEST_BR_NOT_TAKEN(25, bge, 0x8000000000000000, 0x7fffffffffffffff)

  TEST_BR_TAKEN(26, bltu, 0, 1)
  TEST_BR_TAKEN(27, bltu, 0, -1)
  TEST_BR_TAKEN(28, bltu, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR_NOT_TAKEN(29, bltu, -1, 0)
  TEST_BR_NOT_TAKEN(30, bltu, 5, 5)
  TEST_BR_NOT_TAKEN(31, bltu, 0x8000000000000000, 0x7fffffffffffffff)

  TEST_BR_TAKEN(32, bgeu, 0, 0)
  TEST_BR_TAKEN(33, bgeu, -1, 0)
  TEST_BR_TAKEN(34, bgeu, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR_TAKEN(35, bgeu, -1, -1)
  TEST_BR_NOT_TAKEN(36, bgeu, 0, -1)
  TEST_BR_NOT_TAKEN(37, bgeu, 0x7fffffffffffffff, 0x8000000000000000)

  /* same register as both operands, and x0 */
  TEST_NUM(38); li a0, 5; beq a0, a0, 1f; j fail; 1:
  TEST_NUM(39); li a0, 5; bne a0, a0, fail
  TEST_NUM(40); blt x0, x0, fail
  TEST_NUM(41); bge x0, x0, 1f; j fail; 1:
  TEST_NUM(42); li a0, -1; bltu x0, a0, 1f; j fail; 1:
  TEST_NUM(43); li a0, -1; blt a0, x0, 1f; j fail; 1:

  /* backward branches: a counted loop runs exactly 10 times */
  TEST_CASE(44, a1, 10, li a0, 10; li a1, 0; 1: addi a1, a1, 1; addi a0, a0, -1; bnez a0, 1b)
  /* backward target that is not the loop head: taken once, then the fall through */
  TEST_CASE(45, a1, 4, li a1, 0; li a0, 0; j 2f; 1: addi a1, a1, 2; li a0, 1; 2: addi a1, a1, 1; beqz a0, 1b)
  /* the instruction after a taken branch does not execute */
  TEST_CASE(46, a1, 0, li a1, 0; beqz x0, 1f; li a1, 1; 1:)
  /* a far branch (about 3 KiB forward and back) */
  TEST_NUM(47); j 3f
1:  j 4f
    .skip 3000
3:  beq x0, x0, 1b
    j fail
4:

TEST_END
