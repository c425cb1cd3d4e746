/* warl: WARL fields keep legal values (ISA-ENV: m-only).  mtvec.MODE 2 and 3 are reserved and read back as 0 or 1; mip's
 * machine-level bits (MSIP MTIP MEIP) cannot be set by a CSR write; mie's standard enable bits
 * (MSIE MTIE MEIE SSIE STIE SEIE) are writable; mideleg can delegate the S-level interrupts;
 * satp written with MODE = Bare keeps PPN/ASID legal (reads back whatever, MODE stays 0). */
#include "isa_test.h"
TEST_BEGIN
  /* (mstatus.MPP = 2: see warl_mpp.S) */
  /* mtvec: reserved modes */
  TEST_NUM(3)
  csrr s2, mtvec
  la t0, _mtrap; ori t0, t0, 2; csrw mtvec, t0; csrr a0, mtvec; andi a0, a0, 3; li t2, 2; bgeu a0, t2, fail
  la t0, _mtrap; ori t0, t0, 3; csrw mtvec, t0; csrr a0, mtvec; andi a0, a0, 3; li t2, 2; bgeu a0, t2, fail
  csrw mtvec, s2
  csrr a0, mtvec; bne a0, s2, fail
  /* stvec likewise */
  TEST_NUM(4); la t0, _mtrap; ori t0, t0, 3; csrw stvec, t0; csrr a0, stvec; andi a0, a0, 3; li t2, 2; bgeu a0, t2, fail
  /* mip: M-level pending bits are read-only (mtimecmp = -1, msip = 0, no external interrupt) */
  TEST_NUM(5)
  li t0, CLINT_MTIMECMP; li t1, -1; sd t1, 0(t0)
  li t0, 0x888; csrs mip, t0; csrr a0, mip; and a0, a0, t0; bnez a0, fail
  /* mie: the six standard enables */
  TEST_CASE(6, a0, 0xaaa, li t0, -1; csrw mie, t0; csrr a0, mie; li t1, 0xaaa; and a0, a0, t1)
  TEST_NUM(7); csrw mie, x0; csrr a0, mie; bnez a0, fail
  /* mideleg: the S-level interrupts can be delegated */
  TEST_CASE(8, a0, 0x222, li t0, 0x222; csrw mideleg, t0; csrr a0, mideleg; li t1, 0x222; and a0, a0, t1)
  TEST_NUM(9); csrw mideleg, x0
  /* satp MODE = Bare: reads back MODE 0 */
  TEST_CASE(10, a0, 0, li t0, 0x12345; csrw satp, t0; csrr a0, satp; srli a0, a0, 60)
  TEST_NUM(11); csrw satp, x0
TEST_END
