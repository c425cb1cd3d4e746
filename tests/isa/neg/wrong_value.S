/* Negative control: a case whose expected value is wrong must fail the test with its number.
 * NEGATIVE-CONTROL(exit 3) */
#include "isa_test.h"
TEST_BEGIN
  TEST_RR(1, add, 3, 1, 2)
  TEST_RR(2, sub, 1, 3, 2)
  TEST_RR(3, add, 4, 1, 2)                  /* 1 + 2 is not 4 */
  TEST_RR(4, add, 3, 1, 2)
TEST_END
