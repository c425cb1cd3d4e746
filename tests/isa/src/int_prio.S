/* int_prio: simultaneous interrupts taken in M-mode are handled in the decreasing priority
 * order MEI, MSI, MTI, SEI, SSI, STI (privileged spec, mip/mie) (ISA-ENV: m-only): with MSI,
 * SSI and STI pending (the S-level ones not delegated) the first trap is MSI, then SSI, then STI.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 does not keep this order (here it takes SSI before MSI; in
 * another sequence it took STI before SSI); Spike follows the spec. */
#include "isa_test.h"
TEST_BEGIN
  li s2, CLINT_MSIP
  TEST_NUM(1)
  csrw mideleg, x0; li t0, 0x22; csrs mip, t0; li t0, 1; sw t0, 0(s2)
  li t0, 0x2a; csrw mie, t0
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_SOFT)
  sw zero, 0(s2)
  TEST_NUM(2)
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_S_SOFT)
  csrci mip, 2
  TEST_NUM(3)
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_S_TIMER)
  li t0, 0x20; csrc mip, t0; csrw mie, x0
TEST_END
