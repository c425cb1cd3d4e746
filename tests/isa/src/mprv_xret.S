/* mprv_xret: an MRET or SRET that returns to a mode other than M clears mstatus.MPRV
 * (privileged spec 1.12, "If y != M, xRET also sets MPRV = 0"); an MRET to M keeps it.
 * ISA-ENV: m-only.
 * QEMU-DEVIATION(exit 2): QEMU 7.2 leaves MPRV set on MRET/SRET to S or U; Spike clears it. */
#include "isa_test.h"
#define STATUS_FIELD(reg, mask) csrr reg, mstatus; li t2, mask; and reg, reg, t2
TEST_BEGIN
  /* mret to M keeps MPRV */
  TEST_NUM(1)
  li t0, MSTATUS_MPRV | MSTATUS_MPP; csrs mstatus, t0
  la t0, 1f; csrw mepc, t0; mret
1: STATUS_FIELD(a0, MSTATUS_MPRV)
  li t2, MSTATUS_MPRV; bne a0, t2, fail
  /* mret to S clears it (seen by the next trap's handler) */
  TEST_NUM(2)
  li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, (PRV_S << 11) | MSTATUS_MPRV; csrs mstatus, t0
  TRAP_RESUME_M(2f)
  la t0, 1f; csrw mepc, t0; mret
1: ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  la t1, trap_state; ld a0, TS_STATUS(t1); li t2, MSTATUS_MPRV; and a0, a0, t2; bnez a0, fail
  /* sret (from M) to U clears it */
  TEST_NUM(3)
  li t0, MSTATUS_SPP; csrc mstatus, t0; li t0, MSTATUS_MPRV; csrs mstatus, t0
  TRAP_RESUME_M(2f)
  la t0, 1f; csrw sepc, t0; sret
1: ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_USER_ECALL)
  la t1, trap_state; ld a0, TS_STATUS(t1); li t2, MSTATUS_MPRV; and a0, a0, t2; bnez a0, fail
TEST_END
