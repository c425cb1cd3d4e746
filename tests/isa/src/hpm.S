/* hpm: the hardware performance-monitor CSRs (ISA-ENV: m-only).  The privileged spec says all
 * of mhpmcounter3..31 / mhpmevent3..31 "should" be implemented (read-only zero is legal); QEMU
 * 7.2 implements 3..18 only, so this test uses those: reading and writing them from M does not
 * trap; hpmcounter3..18 (0xc03..0xc12) are readable from S/U when the
 * matching mcounteren/scounteren bit is set and illegal when it is clear; mcounteren is
 * WARL 32 bits and keeps CY/TM/IR. */
#include "isa_test.h"
TEST_BEGIN
  TEST_NUM(1); csrr a0, mhpmcounter3; csrr a0, mhpmcounter18; csrr a0, mhpmevent3; csrr a0, mhpmevent18
  TEST_NUM(2); csrw mhpmevent3, x0; csrw mhpmcounter3, x0; csrw mhpmevent18, x0; csrw mhpmcounter18, x0
  TEST_NUM(3); csrr a0, hpmcounter3; csrr a0, hpmcounter18
  TEST_CASE(4, a0, 7, li t0, 7; csrw mcounteren, t0; csrr a0, mcounteren; andi a0, a0, 7)
  TEST_TRAP_IN_MODE(5, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, hpmcounter3)
  TEST_TRAP_IN_MODE(6, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, hpmcounter4)
  TEST_NUM(7); li t0, -1; csrw mcounteren, t0; csrw scounteren, t0
  RUN_IN_MODE(8, PRV_S, csrr a0, hpmcounter3; csrr a0, hpmcounter18)
  RUN_IN_MODE(9, PRV_U, csrr a0, hpmcounter3; csrr a0, hpmcounter17)
  TEST_NUM(10); csrw scounteren, x0
  TEST_TRAP_IN_MODE(11, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, hpmcounter3)
  RUN_IN_MODE(12, PRV_S, csrr a0, hpmcounter3)
  /* the M-level counters are not reachable from S even with mcounteren set */
  TEST_TRAP_IN_MODE(13, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mhpmcounter3)
TEST_END
