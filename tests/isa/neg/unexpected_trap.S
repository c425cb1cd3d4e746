/* Negative control: a trap nobody expects fails the running case.  NEGATIVE-CONTROL(exit 5) */
#include "isa_test.h"
TEST_BEGIN
  TEST_CASE(5, a0, 0, li a0, 0; .word 0xffffffff)
TEST_END
