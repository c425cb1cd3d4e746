/* env: the test environment really is the privilege mode and translation it claims (M bare,
 * S or U under Sv39), so the other tests' s-/u- variants mean something: mode-specific CSR
 * accesses trap or not, ecall reports the cause of the current mode, and (S) satp holds Sv39
 * (Sv48 in the s48- variant).
 * Also ebreak from every mode is cause 3 with mepc at the ebreak. */
#include "isa_test.h"
TEST_BEGIN
#if defined(ENV_M)
  TEST_CASE(1, a0, 0, csrr a0, mhartid)
  TEST_CASE(2, a0, 0, csrr a0, satp)
  TEST_TRAP(3, CAUSE_MACHINE_ECALL, 1: ecall)
  TRAP_CHECK(TS_PRV, PRV_M)
  TRAP_CHECK_EPC(1b)
#elif defined(ENV_S)
  TEST_TRAP(1, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mstatus)
  TEST_CASE(2, a0, 0, csrr a0, sstatus; andi a0, a0, MSTATUS_SPP | MSTATUS_SIE)
#ifdef ENV_S48
  TEST_CASE(3, a0, 9, csrr a0, satp; srli a0, a0, 60)
#else
  TEST_CASE(3, a0, 8, csrr a0, satp; srli a0, a0, 60)
#endif
  TEST_TRAP(4, CAUSE_SUPERVISOR_ECALL, 1: ecall)
  TRAP_CHECK(TS_PRV, PRV_S)
  TRAP_CHECK_EPC(1b)
  TEST_TRAP(5, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mhartid)
#else
  TEST_TRAP(1, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mstatus)
  TEST_TRAP(2, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, sstatus)
  TEST_TRAP(3, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, satp)
  TEST_TRAP(4, CAUSE_USER_ECALL, 1: ecall)
  TRAP_CHECK(TS_PRV, PRV_U)
  TRAP_CHECK_EPC(1b)
  TEST_TRAP(5, CAUSE_ILLEGAL_INSTRUCTION, sfence.vma)
#endif
  TEST_TRAP(6, CAUSE_BREAKPOINT, 1: ebreak)
  TRAP_CHECK_EPC(1b)
#if defined(ENV_M)
  TRAP_CHECK(TS_PRV, PRV_M)
#elif defined(ENV_S)
  TRAP_CHECK(TS_PRV, PRV_S)
#else
  TRAP_CHECK(TS_PRV, PRV_U)
#endif
  /* the counters are readable in every mode (mcounteren = scounteren = all ones here) */
  TEST_NUM(7); rdcycle a0; rdinstret a2
  TEST_NUM(8); li s1, 0; rdinstret a0; .rept 20; addi s1, s1, 1; .endr; rdinstret a1; sub a1, a1, a0; li t2, 20; bltu a1, t2, fail
TEST_END
