/* medeleg_ro: medeleg[11] (environment call from M-mode) is read-only zero (privileged spec:
 * "For exceptions that cannot occur in less privileged modes, the corresponding medeleg bits
 * should be read-only zero. In particular, medeleg[11] is read-only zero."); the S-mode-
 * delegable bits 8 and 9 are writable.  ISA-ENV: m-only.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 lets medeleg[11] be set (it is never used: M-mode traps
 * are not delegated); Spike keeps it zero. */
#include "isa_test.h"
TEST_BEGIN
  TEST_CASE(1, a0, 0, li a1, 1 << 11; csrs medeleg, a1; csrr a0, medeleg; and a0, a0, a1)
  TEST_CASE(2, a0, 0x300, csrw medeleg, x0; li a1, 0x300; csrw medeleg, a1; csrr a0, medeleg)
TEST_END
