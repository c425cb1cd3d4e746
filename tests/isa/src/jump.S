/* jump: jal and jalr.  The link register gets pc + 4; jal with rd = x0 links nothing; JALR
 * adds a sign-extended 12-bit offset and clears bit 0 of the target (odd targets land on the
 * even address); jalr with rd = rs1 uses the old rs1 value; negative offsets; call/return. */
#include "isa_test.h"
TEST_BEGIN

  /* jal links pc + 4 */
  TEST_NUM(1)
  la a1, 1f
  jal a0, 2f
1:
  j fail
2:
  bne a0, a1, fail

  /* jal x0 (j) leaves every register alone: x0 stays 0 */
  TEST_CASE(2, x0, 0, jal x0, 1f; 1:)

  /* jalr with offset 0 and the link */
  TEST_NUM(3)
  la a2, 2f
  la a1, 1f
  jalr a0, 0(a2)
1:
  j fail
2:
  bne a0, a1, fail

  /* positive and negative offsets */
  TEST_NUM(4); la a2, 2f - 8; jalr a0, 8(a2); j fail; 2:
  TEST_NUM(5); la a2, 2f + 2000; jalr a0, -2000(a2); j fail; 2:
  TEST_NUM(6); la a2, 2f + 2048; jalr x0, -2048(a2); j fail; 2:

  /* bit 0 of the target is cleared: base odd, offset odd */
  TEST_NUM(7); la a2, 2f + 1; jalr a0, 0(a2); j fail; 2:
  TEST_NUM(8); la a2, 2f; jalr a0, 1(a2); j fail; 2:
  TEST_NUM(9); la a2, 2f + 2; jalr a0, -1(a2); j fail; 2:    /* 2f + 1, cleared to 2f */

  /* rd = rs1: the target comes from the old value, then rd gets the link */
  TEST_NUM(10)
  la a0, 2f
  la a1, 1f
  jalr a0, 0(a0)
1:
  j fail
2:
  bne a0, a1, fail

  /* a call to a function that returns (ret = jalr x0, 0(ra)) */
  TEST_CASE(11, a0, 42, li a0, 40; call add_two; nop)
  /* nested call through a register target (jalr ra) */
  TEST_CASE(12, a0, 44, li a0, 40; la a5, add_four; jalr ra, 0(a5))
  /* jal backwards */
  TEST_NUM(13); j 3f; 1: j 4f; 3: jal a0, 1b; j fail; 4:

  j pass

add_two:
  addi a0, a0, 2
  ret
add_four:
  mv s1, ra
  call add_two
  call add_two
  jr s1

TEST_END
