/* vm_misaligned: misaligned accesses that cross a page boundary under Sv39 (ISA-ENV: m-only).
 * The two virtual pages map to physical pages that are not adjacent (and in reverse order), so
 * an implementation that performs the access must translate each part separately.  Each case
 * accepts the outcomes the spec allows: performed (checked byte by byte against both physical
 * pages), address-misaligned (mtval = the address), or, when the second page is unmapped or
 * read-only, a page fault whose mtval lies inside the access (the faulting portion). */
#include "isa_test.h"
#define RWAD (PTE_V | PTE_R | PTE_W | PTE_A | PTE_D)
#define SET_PTE(table, index, pa, flags) \
  la t0, pa; srli t0, t0, 12; slli t0, t0, 10; ori t0, t0, flags; la t1, table; sd t0, (index) * 8(t1)
#define VA0 0x40000000
TEST_BEGIN
  SET_PTE(l2, 1, l1, PTE_V)
  SET_PTE(l1, 0, l0, PTE_V)
  li t0, (0x80000 << 10) | RWAD | PTE_X; la t1, l2; sd t0, 16(t1)
  SET_PTE(l0, 0, pg_hi, RWAD)              /* VA page 0 -> the higher physical page */
  SET_PTE(l0, 1, pg_lo, RWAD)              /* VA page 1 -> the lower one */
  SET_PTE(l0, 3, pg_ro, PTE_V | PTE_R | PTE_A)   /* VA page 2 unmapped, VA page 3 read-only */
  SET_PTE(l0, 4, pg_ro, RWAD)
  la t0, l2; srli t0, t0, 12; li t1, SATP_SV39; or t0, t0, t1; csrw satp, t0; sfence.vma
  /* last 4 bytes of pg_hi: 11 22 33 44, first 4 of pg_lo: 55 66 77 88 */
  la t0, pg_hi + 4092; li t1, 0x44332211; sw t1, 0(t0)
  la t0, pg_lo; li t1, 0x88776655; sw t1, 0(t0)

  /* ld across VA pages 0|1: 0x8877665544332211 or misaligned trap */
  TEST_NUM(1)
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_S, 1f)
1: li a0, VA0 + 4092; li a1, 0; ld a1, 0(a0); li t2, 0x8877665544332211; bne a1, t2, fail; ecall
2: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, CAUSE_SUPERVISOR_ECALL; beq t0, t2, 3f
  li t2, CAUSE_MISALIGNED_LOAD; bne t0, t2, fail; ld t0, TS_TVAL(t1); li t2, VA0 + 4092; bne t0, t2, fail
3:
  /* sd across 0|1: bytes land in both physical pages, or misaligned trap and nothing written */
  TEST_NUM(2)
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_S, 1f)
1: li a0, VA0 + 4094; li a1, 0x0807060504030201; sd a1, 0(a0); ecall
2: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, CAUSE_SUPERVISOR_ECALL; bne t0, t2, 4f
  la t0, pg_hi + 4092; lwu t1, 0(t0); li t2, 0x02012211; bne t1, t2, fail
  la t0, pg_lo; lwu t1, 0(t0); li t2, 0x06050403; bne t1, t2, fail
  la t0, pg_lo + 4; lhu t1, 0(t0); li t2, 0x0807; bne t1, t2, fail
  la t0, pg_lo + 6; lbu t1, 0(t0); bnez t1, fail
  j 3f
4: li t2, CAUSE_MISALIGNED_STORE; bne t0, t2, fail; ld t0, TS_TVAL(t1); li t2, VA0 + 4094; bne t0, t2, fail
  la t0, pg_hi + 4092; lwu t1, 0(t0); li t2, 0x44332211; bne t1, t2, fail
3:
  /* lw across 1|2 where page 2 is unmapped: page fault with mtval in [a, a + 4), or misaligned */
  TEST_NUM(3)
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_S, 1f)
1: li a0, VA0 + 2 * 4096 - 2; li a1, 0x77; lw a1, 0(a0); j fail
2: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, 0x77; bne a1, t2, fail
  li t2, CAUSE_MISALIGNED_LOAD; bne t0, t2, 4f; ld t0, TS_TVAL(t1); bne t0, a0, fail; j 3f
4: li t2, CAUSE_LOAD_PAGE_FAULT; bne t0, t2, fail
  ld t0, TS_TVAL(t1); bltu t0, a0, fail; addi t2, a0, 4; bgeu t0, t2, fail
3:
  /* sw across VA pages 3 (read-only) | 4: store page fault with mtval inside the access, or
   * misaligned */
  TEST_NUM(4)
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_S, 1f)
1: li a0, VA0 + 4 * 4096 - 2; sw a1, 0(a0); j fail
2: la t1, trap_state; ld t0, TS_CAUSE(t1)
  li t2, CAUSE_MISALIGNED_STORE; bne t0, t2, 4f; ld t0, TS_TVAL(t1); bne t0, a0, fail; j 3f
4: li t2, CAUSE_STORE_PAGE_FAULT; bne t0, t2, fail
  ld t0, TS_TVAL(t1); bltu t0, a0, fail; addi t2, a0, 4; bgeu t0, t2, fail
3:
  TEST_NUM(5); csrw satp, x0
  .data
  .balign 4096
l2:    .fill 512, 8, 0
l1:    .fill 512, 8, 0
l0:    .fill 512, 8, 0
pg_lo: .fill 512, 8, 0
pg_ro: .fill 512, 8, 0
pg_hi: .fill 512, 8, 0
  .text
TEST_END
