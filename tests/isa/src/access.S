/* access: access faults for addresses outside the physical address space (ISA-ENV: m-only).
 * In M-mode with satp = Bare, an address with bit 63 set names no memory (physical addresses
 * are at most 56 bits): a fetch raises instruction access fault (1) with mepc = mtval = the
 * target (the jump itself completes and writes rd), a load load access fault (5), a store store/AMO access fault (7), mtval = the
 * address, and the destination register keeps its value.  From S-mode with Sv39 the same holds
 * for a leaf PTE whose PPN points outside the physical address space. */
#include "isa_test.h"
#define BAD 0x8000000000000000
TEST_BEGIN
  TEST_TRAP(1, CAUSE_FETCH_ACCESS, li a0, BAD; li ra, 0; jalr ra, 0(a0); 9: )
  TRAP_CHECK_REG(TS_EPC, a0)
  TRAP_CHECK_REG(TS_TVAL, a0)
  /* the jump itself completed (the fault belongs to the target's fetch): ra was written */
  TEST_NUM(11); la t2, 9b; bne ra, t2, fail
  TEST_TRAP(2, CAUSE_FETCH_ACCESS, li a0, BAD + 0x1000; jr a0)
  TRAP_CHECK_REG(TS_TVAL, a0)
  TEST_TRAP(3, CAUSE_LOAD_ACCESS, li a0, BAD; li a1, 77; ld a1, 0(a0))
  TRAP_CHECK_REG(TS_TVAL, a0)
  TEST_NUM(4); li t2, 77; bne a1, t2, fail
  TEST_TRAP(5, CAUSE_LOAD_ACCESS, li a0, BAD + 0x10; lbu a1, 0(a0))
  TRAP_CHECK_REG(TS_TVAL, a0)
  TEST_TRAP(6, CAUSE_STORE_ACCESS, li a0, BAD + 0x20; sd a1, 0(a0))
  TRAP_CHECK_REG(TS_TVAL, a0)
  /* (AMOs: see amo_access.S) */
  TEST_TRAP(9, CAUSE_LOAD_ACCESS, li a0, BAD + 0x80; lr.d a1, (a0))
  TEST_TRAP(10, CAUSE_LOAD_ACCESS, li a0, 0xfffffffffffff000; lw a1, 0(a0))
  TRAP_CHECK_REG(TS_TVAL, a0)

  /* Sv39 gigapage leaf at PA 0xff_ffff_c000_0000 (beyond any RAM or device): access fault, not
   * page fault (the translation succeeded) */
  TEST_NUM(16)
  la t0, l2; li t1, (0x80000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D; sd t1, 16(t0)
  li t1, (0xffffffc0000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D; sd t1, 8(t0)
  srli t0, t0, 12; li t1, SATP_SV39; or t0, t0, t1; csrw satp, t0; sfence.vma
  TEST_TRAP_IN_MODE(12, PRV_S, CAUSE_LOAD_ACCESS, li a0, 0x40000100; ld a1, 0(a0))
  TRAP_CHECK_REG(TS_TVAL, a0)
  TEST_TRAP_IN_MODE(13, PRV_S, CAUSE_STORE_ACCESS, li a0, 0x40000100; sw a1, 0(a0))
  TEST_TRAP_IN_MODE(14, PRV_S, CAUSE_FETCH_ACCESS, li a0, 0x40000100; jr a0)
  TRAP_CHECK_REG(TS_TVAL, a0)
  TEST_NUM(15); csrw satp, x0
  .data
  .balign 4096
l2: .fill 512, 8, 0
  .text
TEST_END
