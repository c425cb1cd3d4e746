/* Negative control: a trap with another cause than expected must fail.  NEGATIVE-CONTROL(exit 4) */
#include "isa_test.h"
TEST_BEGIN
  TEST_TRAP(4, CAUSE_BREAKPOINT, ecall)
TEST_END
