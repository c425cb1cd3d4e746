/* xepc: mepc[0] and sepc[0] are always zero (privileged spec: "The low bit of mepc (mepc[0])
 * is always zero"; with C, bit 1 is writable).  ISA-ENV: m-only.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 keeps bit 0 as written (it masks only on xRET); Spike
 * clears it on the write. */
#include "isa_test.h"
TEST_BEGIN
  TEST_CASE(1, a0, 0x80001002, li a1, 0x80001003; csrw mepc, a1; csrr a0, mepc)
  TEST_CASE(2, a0, 0x80001000, li a1, 0x80001001; csrw sepc, a1; csrr a0, sepc)
  TEST_CASE(3, a0, 0x80001002, li a1, 0x80001002; csrw mepc, a1; csrr a0, mepc)
TEST_END
