/* trapret: what traps and xRETs do to mstatus and the privilege mode (ISA-ENV: m-only).
 * A trap into M saves the mode in MPP and MIE in MPIE, clears MIE, sets mepc to the trapping
 * instruction and mcause; MRET restores MIE from MPIE, sets MPIE = 1 and MPP = U, returns to
 * MPP's mode; SRET likewise with SIE/SPIE/SPP; M-mode may execute SRET; ecall causes 8/9/11 with mtval = 0; MRET from S/U and
 * SRET from U are illegal, SRET from S with mstatus.TSR = 1 is illegal. */
#include "isa_test.h"
#define STATUS_FIELD(reg, mask) csrr reg, mstatus; li t2, mask; and reg, reg, t2
TEST_BEGIN
  /* ecall from M with MIE = 1: MPP = M, MPIE = 1, MIE = 0 in the handler; mtval = 0 */
  TEST_NUM(1)
  csrsi mstatus, MSTATUS_MIE
  TEST_TRAP(2, CAUSE_MACHINE_ECALL, 1: ecall)
  TRAP_CHECK_EPC(1b)
  TRAP_CHECK(TS_TVAL, 0)
  TEST_NUM(3); la t1, trap_state; ld a0, TS_STATUS(t1); li t2, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE; and a0, a0, t2
  li t2, MSTATUS_MPP | MSTATUS_MPIE; bne a0, t2, fail
  /* after the handler's mret (MPP was M): MIE = 1 again, MPIE = 1, MPP = U (least privileged) */
  TEST_CASE(4, a0, MSTATUS_MIE | MSTATUS_MPIE, STATUS_FIELD(a0, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE))
  TEST_NUM(5); csrci mstatus, MSTATUS_MIE

  /* ecall from M with MIE = 0: MPIE = 0 in the handler */
  TEST_TRAP(6, CAUSE_MACHINE_ECALL, ecall)
  TEST_NUM(7); la t1, trap_state; ld a0, TS_STATUS(t1); andi a0, a0, MSTATUS_MPIE | MSTATUS_MIE; bnez a0, fail

  /* ecall from S and U: MPP = S / U, mepc = the ecall */
  TEST_NUM(8)
  TRAP_RESUME_M(2f); GOTO_MODE(PRV_S, 1f)
1: ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  TRAP_CHECK_EPC(1b)
  TRAP_CHECK(TS_PRV, PRV_S)
  TRAP_CHECK(TS_TVAL, 0)
  TEST_NUM(9)
  TRAP_RESUME_M(2f); GOTO_MODE(PRV_U, 1f)
1: ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_USER_ECALL)
  TRAP_CHECK_EPC(1b)
  TRAP_CHECK(TS_PRV, PRV_U)

  /* mret: MIE <- MPIE, MPIE <- 1, MPP <- U; MPIE = 0 case */
  TEST_NUM(10)
  li t0, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE; csrc mstatus, t0
  li t0, MSTATUS_MPP; csrs mstatus, t0          /* MPP = M, MPIE = 0 */
  la t0, 1f; csrw mepc, t0; mret
1: STATUS_FIELD(a0, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)
  li t2, MSTATUS_MPIE; bne a0, t2, fail

  /* (xRET clearing MPRV: see mprv_xret.S) */
  /* sret from S: SIE <- SPIE, SPIE <- 1, SPP <- U, returns to SPP's mode (S here) */
  TEST_NUM(13)
  GOTO_MODE(PRV_S, 1f)
1: li t0, MSTATUS_SPP | MSTATUS_SPIE; csrs sstatus, t0; csrci sstatus, MSTATUS_SIE
  la t0, 2f; csrw sepc, t0
  sret
2: csrr a0, sstatus; andi a0, a0, MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE
  li t2, MSTATUS_SPIE | MSTATUS_SIE; bne a0, t2, fail
  csrci sstatus, MSTATUS_SIE
  /* still in S: ecall says so */
  TRAP_RESUME_M(3f)
  ecall
  j fail
3: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)

  /* sret with SPP = U from S goes to U; SPIE = 0 gives SIE = 0 */
  TEST_NUM(14)
  GOTO_MODE(PRV_S, 1f)
1: li t0, MSTATUS_SPP | MSTATUS_SPIE; csrc sstatus, t0; csrsi sstatus, MSTATUS_SIE
  la t0, 2f; csrw sepc, t0
  TRAP_RESUME_M(3f)
  sret
2: ecall
  j fail
3: TRAP_CHECK(TS_CAUSE, CAUSE_USER_ECALL)
  la t1, trap_state; ld a0, TS_STATUS(t1); andi a0, a0, MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE
  li t2, MSTATUS_SPIE; bne a0, t2, fail

  /* M-mode may execute sret: to S (SPP = S) */
  TEST_NUM(15)
  li t0, MSTATUS_SPP; csrs mstatus, t0
  la t0, 1f; csrw sepc, t0
  TRAP_RESUME_M(2f)
  sret
1: ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)

  /* xRET from the wrong mode */
  TEST_TRAP_IN_MODE(16, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, mret)
  TEST_TRAP_IN_MODE(17, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, mret)
  TEST_TRAP_IN_MODE(18, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, sret)
  /* TSR = 1: sret in S is illegal, in M still allowed */
  TEST_NUM(19); li t0, MSTATUS_TSR; csrs mstatus, t0
  TEST_TRAP_IN_MODE(20, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, la t0, 1f; csrw sepc, t0; sret; 1:)
  TEST_NUM(21); li t0, MSTATUS_SPP; csrs mstatus, t0; la t0, 1f; csrw sepc, t0
  TRAP_RESUME_M(2f); sret
1: ecall
   j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  TEST_NUM(22); li t0, MSTATUS_TSR; csrc mstatus, t0
  /* an illegal instruction reports mepc = its address, from S */
  TEST_NUM(23)
  TRAP_RESUME_M(2f); GOTO_MODE(PRV_S, 1f)
1: mret
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_ILLEGAL_INSTRUCTION)
  TRAP_CHECK_EPC(1b)
TEST_END
