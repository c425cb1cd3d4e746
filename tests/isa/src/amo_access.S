/* amo_access: an AMO on an address outside the physical address space raises store/AMO access
 * fault (7), never load access fault, with mtval = the address (ISA-ENV: m-only).
 * QEMU-DEVIATION(exit 1): QEMU 7.2 reports load access fault (5) (the AMO's read faults
 * first); Spike reports 7 as the spec says. */
#include "isa_test.h"
#define BAD 0x8000000000000000
TEST_BEGIN
  TEST_TRAP(1, CAUSE_STORE_ACCESS, li a0, BAD + 0x40; li a1, 5; amoadd.w a1, a1, (a0))
  TRAP_CHECK_REG(TS_TVAL, a0)
  TEST_NUM(2); li t2, 5; bne a1, t2, fail
  TEST_TRAP(3, CAUSE_STORE_ACCESS, li a0, BAD + 0x40; amoswap.d a1, a1, (a0))
  TEST_TRAP(4, CAUSE_STORE_ACCESS, li a0, BAD + 0x48; amomaxu.d a1, a1, (a0))
TEST_END
