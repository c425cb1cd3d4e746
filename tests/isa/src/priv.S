/* priv: privilege checks on CSRs and system instructions (ISA-ENV: m-only).
 * M-level CSRs (0x3xx) from S and U, S-level CSRs (0x1xx) from U are illegal; mstatus.TVM = 1
 * makes satp accesses and sfence.vma illegal in S (and leaves M alone); mstatus.TW = 1 makes
 * WFI in S illegal (the spec lets a WFI that completes within a bounded time stand, so either
 * completion or an illegal-instruction trap at the WFI is accepted there, and for WFI in U);
 * counter enables: with mcounteren bit clear, S and U reading that counter is illegal; with
 * mcounteren set and scounteren clear, U is refused and S allowed; both set, U may read. */
#include "isa_test.h"

/* WFI in `mode`: either completes (falls through to the ecall) or traps illegal at the wfi */
#define WFI_MAY_TRAP(n, mode)                                                                    \
  TEST_NUM(n); TRAP_RESUME_M(9990f); GOTO_MODE(mode, 9991f);                                     \
9991: wfi; ecall; j fail;                                                                        \
9990: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, CAUSE_USER_ECALL + (mode);                  \
  beq t0, t2, 9992f; li t2, CAUSE_ILLEGAL_INSTRUCTION; bne t0, t2, fail; TRAP_CHECK_EPC(9991b);  \
9992:

TEST_BEGIN
  /* M-level CSRs from S and U */
  TEST_TRAP_IN_MODE(1, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mstatus)
  TEST_TRAP_IN_MODE(2, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrw mscratch, a0)
  TEST_TRAP_IN_MODE(3, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mepc)
  TEST_TRAP_IN_MODE(4, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, medeleg)
  TEST_TRAP_IN_MODE(5, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mhartid)
  TEST_TRAP_IN_MODE(6, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, pmpcfg0)
  TEST_TRAP_IN_MODE(7, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mcycle)
  TEST_TRAP_IN_MODE(8, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mstatus)
  TEST_TRAP_IN_MODE(9, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, sstatus)
  TEST_TRAP_IN_MODE(10, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrw sscratch, a0)
  TEST_TRAP_IN_MODE(11, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, stvec)
  TEST_TRAP_IN_MODE(12, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, satp)
  TEST_TRAP_IN_MODE(13, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, sfence.vma)
  /* S-level CSRs from S are fine */
  RUN_IN_MODE(14, PRV_S, csrr a0, sstatus; csrw sscratch, a0; csrr a0, stvec; csrr a0, sepc; csrr a0, satp; csrr a0, sie; csrr a0, sip)

  /* TVM */
  RUN_IN_MODE(15, PRV_S, csrr a0, satp; csrw satp, a0; sfence.vma)
  TEST_NUM(16); li t0, MSTATUS_TVM; csrs mstatus, t0
  TEST_TRAP_IN_MODE(17, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, satp)
  TEST_TRAP_IN_MODE(18, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrw satp, x0)
  TEST_TRAP_IN_MODE(19, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, sfence.vma)
  TEST_TRAP_IN_MODE(20, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, sfence.vma a0, a1)
  TEST_NUM(21); csrr a0, satp; csrw satp, a0; sfence.vma          /* M unaffected */
  TEST_NUM(22); li t0, MSTATUS_TVM; csrc mstatus, t0

  /* TW and WFI from lower modes */
  TEST_NUM(23); li t0, MSTATUS_TW; csrs mstatus, t0
  WFI_MAY_TRAP(24, PRV_S)
  TEST_NUM(25); li t0, MSTATUS_TW; csrc mstatus, t0
  WFI_MAY_TRAP(26, PRV_U)

  /* counter enables: bit 0 CY, 1 TM, 2 IR */
  TEST_NUM(27); csrw mcounteren, x0; csrw scounteren, x0
  TEST_TRAP_IN_MODE(28, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, rdcycle a0)
  TEST_TRAP_IN_MODE(29, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, rdinstret a0)
  TEST_TRAP_IN_MODE(30, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdcycle a0)
  TEST_NUM(31); csrwi mcounteren, 5
  RUN_IN_MODE(32, PRV_S, rdcycle a0; rdinstret a0)
  TEST_TRAP_IN_MODE(33, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdcycle a0)
  TEST_TRAP_IN_MODE(34, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdinstret a0)
  TEST_NUM(35); csrwi scounteren, 1
  RUN_IN_MODE(36, PRV_U, rdcycle a0)
  TEST_TRAP_IN_MODE(37, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdinstret a0)
  TEST_NUM(38); csrwi mcounteren, 4
  TEST_TRAP_IN_MODE(39, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdcycle a0)  /* mcounteren.CY = 0 wins */
  TEST_TRAP_IN_MODE(40, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, rdcycle a0)
  /* M-mode reads whatever the enables say */
  TEST_NUM(41); csrw mcounteren, x0; rdcycle a0; rdinstret a0
  TEST_NUM(42); li t0, -1; csrw mcounteren, t0; csrw scounteren, t0
  /* the counter enable registers are readable in their own mode */
  RUN_IN_MODE(43, PRV_S, csrr a0, scounteren)
TEST_END
