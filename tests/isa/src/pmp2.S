/* pmp2: more PMP rules (ISA-ENV: m-only).  An access that matches an entry only partially
 * fails whatever the permissions (here an 8-byte load half inside a 4-byte NA4 region);
 * a TOR entry 0 covers [0, pmpaddr0); page-table walks are checked by PMP as S-mode reads, and
 * a walk that hits a denied page raises the access fault of the original access type (load 5,
 * store 7, fetch 1), not a page fault; a NAPOT entry with pmpaddr = 2^53 - 1 covers all of the
 * 56-bit physical address space. */
#include "isa_test.h"
#define A_TOR (1 << 3)
#define A_NA4 (2 << 3)
#define A_NAPOT (3 << 3)
#define RWX 7
TEST_BEGIN
  /* entry 0: NA4 on pword (R W X), entry 7: everything */
  TEST_NUM(1)
  la t0, pword; srli t0, t0, 2; csrw pmpaddr0, t0
  li t0, -1; csrw pmpaddr7, t0
  li t0, (A_NA4 | RWX) | ((A_NAPOT | RWX) << 56); csrw pmpcfg0, t0
  csrr t0, pmpcfg0; andi t0, t0, 0x18; li t2, A_NA4; bne t0, t2, 9f    /* no NA4: skip */
  RUN_IN_MODE(2, PRV_U, la a0, pword; lw a1, 0(a0); sw a1, 0(a0); lw a1, 4(a0))
  TEST_TRAP_IN_MODE(3, PRV_U, CAUSE_LOAD_ACCESS, la a0, pword; ld a1, 0(a0))
  TEST_TRAP_IN_MODE(4, PRV_S, CAUSE_STORE_ACCESS, la a0, pword; sd a1, 0(a0))
9:
  /* entry 0 as TOR: [0, pmpaddr0 << 2) execute-only; above it, entry 7 */
  TEST_NUM(6)
  la t0, ptab; srli t0, t0, 2; csrw pmpaddr0, t0
  li t0, (A_TOR | 4) | ((A_NAPOT | RWX) << 56); csrw pmpcfg0, t0   /* X only: U code runs */
  TEST_TRAP_IN_MODE(7, PRV_U, CAUSE_LOAD_ACCESS, la a0, ptab - 8; ld a1, 0(a0))
  RUN_IN_MODE(8, PRV_U, la a0, ptab; ld a1, 0(a0))

  /* page-table walks: root table `ptab`, 1 GiB identity leaves for RAM; deny ptab to S/U
   * with entry 0 (NAPOT 4 KiB, no permissions) */
  TEST_NUM(9)
  li t0, (0x80000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D; la t1, ptab; sd t0, 16(t1)
  la t0, ptab; srli t0, t0, 2; ori t0, t0, (4096 / 8 - 1) >> 0; csrw pmpaddr0, t0
  li t0, (A_NAPOT) | ((A_NAPOT | RWX) << 56); csrw pmpcfg0, t0
  la t0, ptab; srli t0, t0, 12; li t1, SATP_SV39; or t0, t0, t1; csrw satp, t0; sfence.vma
  /* the S-mode fetch of the first instruction already needs the walk: fetch access fault */
  TEST_TRAP_IN_MODE(10, PRV_S, CAUSE_FETCH_ACCESS, 1: nop)
  TRAP_CHECK_EPC(1b)
  /* allow the walk (entry 0 off), run S, then deny again around a load and a store in M with
   * MPRV (same checks as S) */
  TEST_NUM(11); li t0, 0xff; csrc pmpcfg0, t0; sfence.vma
  RUN_IN_MODE(12, PRV_S, la a0, pword; ld a1, 0(a0))
  TEST_NUM(13)
  TRAP_RESUME(1f)
  li t0, A_NAPOT; csrs pmpcfg0, t0; sfence.vma
  li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, (PRV_S << 11) | MSTATUS_MPRV; csrs mstatus, t0
  la a0, pword; ld a1, 0(a0)
  j fail
1: li t0, MSTATUS_MPRV; csrc mstatus, t0
  TRAP_CHECK(TS_CAUSE, CAUSE_LOAD_ACCESS)
  TEST_NUM(14)
  TRAP_RESUME(1f)
  li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, (PRV_S << 11) | MSTATUS_MPRV; csrs mstatus, t0
  la a0, pword; sd a1, 0(a0)
  j fail
1: li t0, MSTATUS_MPRV; csrc mstatus, t0
  TRAP_CHECK(TS_CAUSE, CAUSE_STORE_ACCESS)
  TEST_NUM(15); csrw satp, x0; li t0, 0xff; csrc pmpcfg0, t0
  /* a NAPOT entry with pmpaddr = 2^53 - 1 covers the whole 56-bit physical address space (as
   * riscv-tests' virtual-memory environment programs it): the only entry, and U may run */
  TEST_NUM(16)
  li t0, (1 << 53) - 1; csrw pmpaddr0, t0
  li t0, A_NAPOT | RWX; csrw pmpcfg0, t0
  RUN_IN_MODE(17, PRV_U, la a0, pword; ld a1, 0(a0); sd a1, 0(a0))
  .data
  .balign 4096
ptab:  .fill 512, 8, 0
pword: .dword 0x1122334455667788, 0
  .text
TEST_END
