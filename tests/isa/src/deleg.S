/* deleg: trap delegation to S-mode (ISA-ENV: m-only).  With medeleg bits set, exceptions from
 * U and S go to stvec with scause/sepc/stval and sstatus.SPP/SPIE/SIE updated, and M's trap
 * state untouched; exceptions in M-mode are never delegated; without the medeleg bit they go
 * to M.  Interrupt delegation: SSIP with
 * mideleg[1] is taken in S (sstatus.SIE = 1) and always in U (whatever SIE), never in M, and
 * not in S while SIE = 0; without delegation it is taken in M with mcause = interrupt 1. */
#include "isa_test.h"
#define SS_CAUSE 0
#define SS_EPC 8
#define SS_TVAL 16
#define SS_STATUS 24
#define SS_COUNT 32
#define SS_RESUME 40
#define S_CHECK(field, expected) la t1, s_state; ld t0, field(t1); li t2, expected; bne t0, t2, fail
#define S_RESUME(label) la t0, label; la t1, s_state; sd t0, SS_RESUME(t1)
TEST_BEGIN
  la t0, s_handler; csrw stvec, t0
  /* (medeleg[11]: see medeleg_ro.S) */
  TEST_CASE(2, a0, 0x100, csrw medeleg, x0; li a1, 0x100; csrw medeleg, a1; csrr a0, medeleg)

  /* ecall from U, delegated: S handler, scause 8, SPP = U, SPIE = old SIE (1), SIE = 0 */
  TEST_NUM(3)
  li t0, MSTATUS_SIE; csrs mstatus, t0
  la t1, trap_state; ld s1, TS_COUNT(t1)
  S_RESUME(2f)
  GOTO_MODE(PRV_U, 1f)
1: ecall
  j fail
2: /* now in U (sret returned to SPP = U) */
  S_CHECK(SS_CAUSE, CAUSE_USER_ECALL)
  la t1, s_state; ld t0, SS_EPC(t1); la t2, 1b; bne t0, t2, fail
  la t1, s_state; ld t0, SS_STATUS(t1); andi t0, t0, MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE
  li t2, MSTATUS_SPIE; bne t0, t2, fail
  la t1, trap_state; ld t0, TS_COUNT(t1); bne t0, s1, fail      /* M saw nothing */
  /* still in U: an undelegated exception (illegal) goes to M and says U */
  TRAP_RESUME_M(3f)
  csrr a0, sstatus
  j fail
3: TRAP_CHECK(TS_CAUSE, CAUSE_ILLEGAL_INSTRUCTION)
  TRAP_CHECK(TS_PRV, PRV_U)

  /* ecall from S with medeleg[9]: handled in S, SPP = S; then a delegated breakpoint; an
   * undelegated illegal instruction takes us back to M */
  TEST_NUM(4)
  li a1, (1 << 9) | (1 << 3); csrw medeleg, a1
  S_RESUME(2f)
  GOTO_MODE(PRV_S, 1f)
1: ecall
  j fail
2: S_CHECK(SS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  la t1, s_state; ld t0, SS_STATUS(t1); andi t0, t0, MSTATUS_SPP; beqz t0, fail
  S_RESUME(5f)
  ebreak
  j fail
5: S_CHECK(SS_CAUSE, CAUSE_BREAKPOINT)
  TRAP_RESUME_M(6f)
  csrw medeleg, x0                 /* an M CSR: illegal, not delegated: M */
  j fail
6: TRAP_CHECK(TS_CAUSE, CAUSE_ILLEGAL_INSTRUCTION)
  TRAP_CHECK(TS_PRV, PRV_S)
  /* delegated illegal instruction from S: stval is 0 or the instruction bits; an undelegated
   * ecall takes us back to M */
  TEST_NUM(16)
  li a1, (1 << 2); csrw medeleg, a1
  S_RESUME(3f)
  GOTO_MODE(PRV_S, 1f)
1: .word 0xffffffff
  j fail
3: S_CHECK(SS_CAUSE, CAUSE_ILLEGAL_INSTRUCTION)
  la t1, s_state; ld t0, SS_EPC(t1); la t2, 1b; bne t0, t2, fail
  la t1, s_state; ld t0, SS_TVAL(t1); beqz t0, 4f; li t2, 0xffffffff; bne t0, t2, fail
4: TRAP_RESUME_M(6f)
  ecall
  j fail
6: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  TEST_NUM(17); li a1, (1 << 2) | (1 << 3); csrw medeleg, a1

  /* exceptions in M are never delegated */
  TEST_NUM(5)
  la t1, s_state; ld s1, SS_COUNT(t1)
  TEST_TRAP(6, CAUSE_ILLEGAL_INSTRUCTION, .word 0xffffffff)
  TEST_TRAP(7, CAUSE_BREAKPOINT, ebreak)
  TEST_NUM(8); la t1, s_state; ld t0, SS_COUNT(t1); bne t0, s1, fail

  /* without medeleg[8]: ecall from U goes to M */
  TEST_NUM(9); csrw medeleg, x0
  TEST_TRAP_IN_MODE(10, PRV_U, CAUSE_USER_ECALL, ecall)

  /* --- interrupt delegation: supervisor software interrupt --- */
  /* not delegated: taken in M (mie.SSIE, mstatus.MIE) with mcause = interrupt 1 */
  TEST_NUM(11)
  csrw mideleg, x0; li t0, 2; csrw mie, t0; csrs mip, t0
  TRAP_RESUME_M(1f)                /* resumes with MIE = 0 */
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: csrci mstatus, MSTATUS_MIE; li t0, 2; csrc mip, t0
  TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_S_SOFT)

  /* delegated: pending in M is never taken there, even with MIE = 1 */
  TEST_NUM(12)
  li t0, 2; csrw mideleg, t0; csrw mie, t0
  la t1, s_state; ld s1, SS_COUNT(t1)
  csrs mip, t0
  csrsi mstatus, MSTATUS_MIE
  nop; nop; nop
  csrci mstatus, MSTATUS_MIE
  la t1, s_state; ld t0, SS_COUNT(t1); bne t0, s1, fail
  /* in S with SIE = 0: not taken */
  TEST_NUM(13)
  csrci mstatus, MSTATUS_SIE
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_S, 1f)
1: nop; nop; nop
  la t1, s_state; ld t0, SS_COUNT(t1); bne t0, s1, fail
  /* setting SIE takes it right away: the S handler clears SSIP and returns */
  csrsi sstatus, MSTATUS_SIE
  nop
  csrci sstatus, MSTATUS_SIE
  la t1, s_state; ld t0, SS_COUNT(t1); addi s1, s1, 1; bne t0, s1, fail
  S_CHECK(SS_CAUSE, IRQ_BIT | IRQ_S_SOFT)
  ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  /* in U: taken even with SIE = 0 */
  TEST_NUM(14)
  la t1, s_state; ld s1, SS_COUNT(t1)
  csrci mstatus, MSTATUS_SIE
  li t0, 2; csrs mip, t0
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_U, 1f)
1: nop
  nop
  ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_USER_ECALL)
  TRAP_CHECK(TS_PRV, PRV_U)
  la t1, s_state; ld t0, SS_COUNT(t1); addi s1, s1, 1; bne t0, s1, fail
  S_CHECK(SS_CAUSE, IRQ_BIT | IRQ_S_SOFT)
  /* the interrupt's sepc is inside the U code and SPP = U */
  la t1, s_state; ld t0, SS_STATUS(t1); andi t0, t0, MSTATUS_SPP; bnez t0, fail
  TEST_NUM(15); csrw mideleg, x0; csrw mie, x0; csrw mip, x0
  j pass

  /* S-mode trap handler: records, clears SSIP for a software interrupt and returns to the
   * interrupted instruction; for exceptions resumes where s_state says (0 = fail). */
  .balign 4
s_handler:
  la t1, s_state
  csrr t0, scause; sd t0, SS_CAUSE(t1)
  csrr t0, sepc; sd t0, SS_EPC(t1)
  csrr t0, stval; sd t0, SS_TVAL(t1)
  csrr t0, sstatus; sd t0, SS_STATUS(t1)
  ld t0, SS_COUNT(t1); addi t0, t0, 1; sd t0, SS_COUNT(t1)
  csrr t0, scause; bgez t0, 1f
  li t0, 2; csrc sip, t0
  sret
1: ld t0, SS_RESUME(t1); beqz t0, fail
  sd zero, SS_RESUME(t1)
  csrw sepc, t0
  sret

  .data
  .balign 8
s_state: .fill 6, 8, 0
  .text
TEST_END
