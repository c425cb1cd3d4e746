/* Negative control: an expected trap that does not happen must fail.  NEGATIVE-CONTROL(exit 2) */
#include "isa_test.h"
TEST_BEGIN
  TEST_TRAP(1, CAUSE_ILLEGAL_INSTRUCTION, .word 0)
  TEST_TRAP(2, CAUSE_ILLEGAL_INSTRUCTION, addi a0, a0, 1)   /* a valid instruction */
TEST_END
