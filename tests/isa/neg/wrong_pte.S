/* Negative control for the VM harness: S-mode reads a 4 KiB page that maps somewhere else than
 * the test believes.  NEGATIVE-CONTROL(exit 9) */
#include "isa_test.h"
TEST_BEGIN
  la t0, l2; la t1, l1; srli t1, t1, 12; slli t1, t1, 10; ori t1, t1, PTE_V; sd t1, 8(t0)
  la t0, l1; la t1, l0; srli t1, t1, 12; slli t1, t1, 10; ori t1, t1, PTE_V; sd t1, 0(t0)
  li t1, (0x80000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D; la t0, l2; sd t1, 16(t0)
  la t0, l0; la t1, pg + 4096; srli t1, t1, 12; slli t1, t1, 10; ori t1, t1, PTE_V | PTE_R | PTE_A | PTE_D; sd t1, 0(t0)  /* the wrong page */
  la t0, pg; li t1, 42; sd t1, 0(t0)
  la t0, l2; srli t0, t0, 12; li t1, SATP_SV39; or t0, t0, t1; csrw satp, t0; sfence.vma
  RUN_IN_MODE(9, PRV_S, li a0, 0x40000000; ld a1, 0(a0); li t2, 42; bne a1, t2, fail)
  .data
  .balign 4096
l2: .fill 512, 8, 0
l1: .fill 512, 8, 0
l0: .fill 512, 8, 0
pg: .fill 1024, 8, 0
  .text
TEST_END
