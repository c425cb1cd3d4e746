/* vm_tlb: translation caches must follow the page tables (ISA-ENV: m-only).  Switching satp
 * between two roots (with SFENCE.VMA, and without one when the ASIDs differ, if ASIDs are
 * implemented) selects the new mappings; code reached through two virtual aliases of one
 * physical page and rewritten through one alias (or physically by M) runs as rewritten after
 * FENCE.I from either alias; remapping a code VA to another physical page and SFENCE.VMA runs
 * the new page's code (a decoded-instruction cache keyed by virtual address alone fails this).
 * Layout: root r1: VA 0x4000_0000 -> page A, 0x4000_1000 and 0x4000_2000 -> code page C1;
 * root r2: VA 0x4000_0000 -> page B; both map RAM 0x8000_0000 with a gigapage. */
#include "isa_test.h"
#define RWAD (PTE_V | PTE_R | PTE_W | PTE_A | PTE_D)
#define XRWAD (RWAD | PTE_X)
#define SET_PTE(table, index, pa, flags) \
  la t0, pa; srli t0, t0, 12; slli t0, t0, 10; ori t0, t0, flags; la t1, table; sd t0, (index) * 8(t1)
#define SATP_OF(reg, root) la reg, root; srli reg, reg, 12; li t2, SATP_SV39; or reg, reg, t2
/* copy a 2-instruction routine (8 bytes) from src to dst (physical, from M) */
#define COPY8(dst, src) la t0, src; ld t1, 0(t0); la t0, dst; sd t1, 0(t0)
TEST_BEGIN
  SET_PTE(r1, 1, l1a, PTE_V)
  SET_PTE(l1a, 0, l0a, PTE_V)
  SET_PTE(l0a, 0, pga, RWAD)
  SET_PTE(l0a, 1, code1, XRWAD)
  SET_PTE(l0a, 2, code1, XRWAD)
  li t0, (0x80000 << 10) | XRWAD | PTE_G; la t1, r1; sd t0, 16(t1); la t1, r2; sd t0, 16(t1)
  SET_PTE(r2, 1, l1b, PTE_V)
  SET_PTE(l1b, 0, l0b, PTE_V)
  SET_PTE(l0b, 0, pgb, RWAD)
  la t0, pga; li t1, 0xaaaa; sd t1, 0(t0)
  la t0, pgb; li t1, 0xbbbb; sd t1, 0(t0)
  COPY8(code1, tmpl_li1)
  COPY8(code2, tmpl_li2)
  fence.i

  TEST_NUM(1); SATP_OF(s1, r1); SATP_OF(s2, r2); csrw satp, s1; sfence.vma
  RUN_IN_MODE(2, PRV_S, li a0, 0x40000000; ld a1, 0(a0); li t2, 0xaaaa; bne a1, t2, fail)
  TEST_NUM(3); csrw satp, s2; sfence.vma
  RUN_IN_MODE(4, PRV_S, li a0, 0x40000000; ld a1, 0(a0); li t2, 0xbbbb; bne a1, t2, fail)
  /* switching in S itself, with sfence.vma */
  RUN_IN_MODE(5, PRV_S, csrw satp, s1; sfence.vma; li a0, 0x40000000; ld a1, 0(a0); li t2, 0xaaaa; bne a1, t2, fail; csrw satp, s2; sfence.vma; ld a1, 0(a0); li t2, 0xbbbb; bne a1, t2, fail)

  /* ASIDs, if implemented: different ASIDs need no sfence between the switches */
  TEST_NUM(6)
  li t0, 1 << 44; or t0, s1, t0; csrw satp, t0; csrr t1, satp; bne t0, t1, 1f   /* no ASID bits: skip */
  li t0, 1 << 44; or s3, s1, t0; li t0, 2 << 44; or s4, s2, t0
  csrw satp, s3; sfence.vma
  RUN_IN_MODE(7, PRV_S, li a0, 0x40000000; ld a1, 0(a0); li t2, 0xaaaa; bne a1, t2, fail; csrw satp, s4; ld a1, 0(a0); li t2, 0xbbbb; bne a1, t2, fail; csrw satp, s3; ld a1, 0(a0); li t2, 0xaaaa; bne a1, t2, fail)
1: csrw satp, s1; sfence.vma

  /* code through two aliases */
  RUN_IN_MODE(8, PRV_S, li a0, 0x40001000; jalr a0; li t2, 1; bne a1, t2, fail; li a0, 0x40002000; jalr a0; li t2, 1; bne a1, t2, fail)
  /* rewrite through alias 2 (a data store), fence.i, run through alias 1 and 2 */
  RUN_IN_MODE(9, PRV_S, la t0, tmpl_li2; ld t1, 0(t0); li a0, 0x40002000; sd t1, 0(a0); fence.i; li a0, 0x40001000; jalr a0; li t2, 2; bne a1, t2, fail; li a0, 0x40002000; jalr a0; li t2, 2; bne a1, t2, fail)
  /* rewrite physically from M, fence.i in S */
  TEST_NUM(10); COPY8(code1, tmpl_li3)
  RUN_IN_MODE(11, PRV_S, fence.i; li a0, 0x40001000; jalr a0; li t2, 3; bne a1, t2, fail)
  /* remap VA 0x4000_1000 to code page C2 */
  TEST_NUM(12); SET_PTE(l0a, 1, code2, XRWAD)
  RUN_IN_MODE(13, PRV_S, sfence.vma; li a0, 0x40001000; jalr a0; li t2, 2; bne a1, t2, fail; li a0, 0x40002000; jalr a0; li t2, 3; bne a1, t2, fail)
  /* and back, with an address-specific sfence.vma */
  TEST_NUM(14); SET_PTE(l0a, 1, code1, XRWAD)
  RUN_IN_MODE(15, PRV_S, li a0, 0x40001000; sfence.vma a0; jalr a0; li t2, 3; bne a1, t2, fail)
  /* loop over one alias many times, then rewrite: no stale decoded code */
  RUN_IN_MODE(16, PRV_S, li s5, 200; 2: li a0, 0x40001000; jalr a0; addi s5, s5, -1; bnez s5, 2b; la t0, tmpl_li1; ld t1, 0(t0); li a0, 0x40001000; sd t1, 0(a0); fence.i; jalr a0; li t2, 1; bne a1, t2, fail)
  TEST_NUM(17); csrw satp, x0
  j pass

  .balign 8
  .option push
  .option norvc
tmpl_li1: li a1, 1
          ret
tmpl_li2: li a1, 2
          ret
tmpl_li3: li a1, 3
          ret
  .option pop

  .data
  .balign 4096
r1:    .fill 512, 8, 0
r2:    .fill 512, 8, 0
l1a:   .fill 512, 8, 0
l1b:   .fill 512, 8, 0
l0a:   .fill 512, 8, 0
l0b:   .fill 512, 8, 0
pga:   .fill 512, 8, 0
pgb:   .fill 512, 8, 0
code1: .fill 512, 8, 0
code2: .fill 512, 8, 0
  .text
TEST_END
