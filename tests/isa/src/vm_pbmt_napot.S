/* vm_pbmt_napot: Svpbmt and Svnapot in Sv39 (ISA-ENV: m-only; S-mode loads through a table M
 * builds).  A leaf whose PBMT field (bits 62:61) is not 0 faults while menvcfg.PBMTE = 0;
 * with PBMTE = 1 the types NC (1) and IO (2) translate as usual, 3 (reserved) faults, and PBMT
 * bits in a non-leaf PTE fault; the other reserved bits (60:54) fault.  A level-0 leaf with
 * N = 1 (bit 63) and PPN[3:0] = 1000 maps the 64 KiB NAPOT page: VA page k of it goes to page
 * k of the physical 64 KiB, whichever of its 16 entries is used; N = 1 with another PPN[3:0],
 * or in a megapage leaf, faults.
 * QEMU-CPU(rv64,svpbmt=true,svnapot=true): QEMU 7.2 has both, off by default.
 * QEMU-DEVIATION(exit 9): QEMU 7.2 translates a leaf with reserved bit 60 set (the privileged
 * spec: any of bits 63:54 that no extension defines raises a page fault), with the reserved PBMT = 3 (the spec:
 * "using this reserved value in a leaf PTE raises a page-fault exception"; still open in QEMU
 * 10.2, its issue 3494) and accepts PBMT bits whenever Svpbmt exists, whatever menvcfg.PBMTE
 * (with PBMTE = 0 bits 62:61 are reserved: a page fault); cases 9-13 follow the spec's text. */
#include "isa_test.h"
#define PBMTE (1 << 62)
#define PBMT_NC (1 << 61)
#define PBMT_IO (2 << 61)
#define PBMT_RES (3 << 61)
#define PTE_N (1 << 63)
#define LEAF (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)
#define WIN 0xa0000000 /* the test window: L1 entry 256 of the 2G..3G gigarange */
/* s5 = the VA of window page `i` */
#define VA(i) li s5, WIN + (i) * 4096
/* a0 = a leaf PTE for the physical address in a1 (4 KiB), flags f */
#define MKPTE(f) srli a0, a1, 12; slli a0, a0, 10; li t0, f; or a0, a0, t0
TEST_BEGIN
  /* markers: page k of the 64 KiB region holds k + 100 */
  la a1, region; li a2, 0
1: addi t0, a2, 100; sd t0, 0(a1); li t0, 4096; add a1, a1, t0; addi a2, a2, 1; li t0, 16; bltu a2, t0, 1b
  /* root: entry 0 a gigapage of devices, entry 2 -> L1 */
  la s6, pt_l2; la s7, pt_l1; la s8, pt_l0
  li a0, LEAF; sd a0, 0(s6)
  srli a0, s7, 12; slli a0, a0, 10; ori a0, a0, PTE_V; sd a0, 16(s6)
  /* L1: 512 identity megapages of 0x8000_0000.., then the test entries */
  li a1, 0x80000000; mv a3, s7; li a2, 0
2: MKPTE(LEAF); sd a0, 0(a3); li t0, 0x200000; add a1, a1, t0; addi a3, a3, 8; addi a2, a2, 1; li t0, 512; bltu a2, t0, 2b
  li t0, 256 * 8; add s9, s7, t0
  srli a0, s8, 12; slli a0, a0, 10; ori a0, a0, PTE_V; sd a0, 0(s9)                /* -> L0 */
  srli a0, s8, 12; slli a0, a0, 10; li t0, PTE_V | PBMT_NC; or a0, a0, t0; sd a0, 8(s9) /* non-leaf with PBMT */
  li a1, 0x80000000; MKPTE(LEAF | PTE_N); sd a0, 16(s9)                          /* megapage with N */
  /* L0 */
  la a1, region;              MKPTE(LEAF | PBMT_NC);  sd a0, 0 * 8(s8)
  li t0, 4096; add a1, a1, t0; MKPTE(LEAF | PBMT_IO);  sd a0, 1 * 8(s8)
  li t0, 4096; add a1, a1, t0; MKPTE(LEAF | PBMT_RES); sd a0, 2 * 8(s8)
  li t0, 4096; add a1, a1, t0; MKPTE(LEAF | (1 << 60)); sd a0, 3 * 8(s8)
  /* NAPOT: only entry 19 of the 16 (16..31) of the region, PPN[3:0] = 1000 */
  la a1, region; MKPTE(LEAF | PTE_N); li t0, 0x8 << 10; or a0, a0, t0; sd a0, 19 * 8(s8)
  la a1, region; MKPTE(LEAF | PTE_N); sd a0, 20 * 8(s8)                          /* PPN[3:0] = 0 */
  srli t0, s6, 12; li t1, SATP_SV39; or t0, t0, t1; csrw satp, t0; sfence.vma
  /* PBMTE = 1: NC and IO translate */
  TEST_NUM(1); li t0, PBMTE; csrs 0x30a, t0; csrr a0, 0x30a; and a0, a0, t0; beqz a0, fail; sfence.vma
  VA(0); RUN_IN_MODE(2, PRV_S, ld a0, 0(s5)); li t2, 100; bne a0, t2, fail
  VA(1); RUN_IN_MODE(3, PRV_S, ld a0, 0(s5)); li t2, 101; bne a0, t2, fail
  li s5, WIN + 0x200000; TEST_TRAP_IN_MODE(4, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5)) /* non-leaf */
  /* NAPOT */
  VA(19); RUN_IN_MODE(5, PRV_S, ld a0, 0(s5)); li t2, 103; bne a0, t2, fail
  VA(19); RUN_IN_MODE(6, PRV_S, ld a0, 8(s5); sd a0, 16(s5); ld a0, 16(s5))
  VA(20); TEST_TRAP_IN_MODE(7, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5))       /* PPN[3:0] != 1000 */
  li s5, WIN + 0x400000; TEST_TRAP_IN_MODE(8, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5)) /* N in a megapage */
  /* the cases QEMU 7.2 does not follow (see QEMU-DEVIATION), last */
  VA(3); TEST_TRAP_IN_MODE(9, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5))        /* bit 60 */
  VA(2); TEST_TRAP_IN_MODE(10, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5))       /* PBMT = 3 */
  TEST_NUM(11); li t0, PBMTE; csrc 0x30a, t0; sfence.vma
  VA(0); TEST_TRAP_IN_MODE(12, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5))       /* PBMTE = 0 */
  VA(1); TEST_TRAP_IN_MODE(13, PRV_S, CAUSE_LOAD_PAGE_FAULT, ld a0, 0(s5))
  TEST_NUM(14); csrw satp, zero; sfence.vma
TEST_END
  .data
  .balign 4096
pt_l2: .fill 512, 8, 0
pt_l1: .fill 512, 8, 0
pt_l0: .fill 512, 8, 0
  .balign 65536
region: .fill 16 * 512, 8, 0
