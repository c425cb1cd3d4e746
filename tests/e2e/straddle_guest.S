/* An adversarial guest for the one-access-per-cycle contract (tests/e2e/trace-straddle.sh):
 * S-mode under Sv39 with 4 KiB pages (three-level walks whose PTEs lie in page-table pages of
 * their own, A and D clear at first so the first walks also write PTEs), every case after an
 * SFENCE.VMA (cold TLBs), each instruction of interest straddling two code pages (at page
 * offset 0xffe, so its second half is a fetch of its own after a walk):
 *   1  a straddling ADDI reached by a call
 *   2  a straddling LD whose address straddles two data pages (two pieces, a walk each)
 *   3  a straddling SD whose address straddles two data pages
 *   4  a straddling AMOADD.W to a page the TLB has not seen
 *   5  a straddling LR.D / SC.D pair target (the LR straddles)
 *   6  a straddling BNEZ that jumps back into its first page, 40 times: its second page is
 *      touched by nothing but the second halves' fetches
 *   7  a straddling instruction whose second page is not mapped: the walk, then an instruction
 *      page fault (M-mode takes it and resumes at s11)
 * The whole sequence runs ROUNDS times.  Exit through the test finisher: 0 when every result is
 * right, else the number of the failed case (M-mode traps other than the expected: 100 + mcause). */
  .equ FINISHER, 0x100000
  .equ ROUNDS, 6
  .equ DATA, 0x80200000     /* the second 2 MiB region, mapped by its own level-0 table */
  .equ PTE_V, 1
  .equ PTE_RWX, 0xe
  .option norvc
  .option norelax

  .section .text.init
  .globl _start
_start:
  la t0, mtrap
  csrw mtvec, t0
  li t0, -1
  csrw pmpaddr0, t0
  li t0, 0x1f               /* NAPOT, RWX: S-mode may use all of memory */
  csrw pmpcfg0, t0
  /* root[2] (VA 0x80000000..0xbfffffff) -> l1; l1[0] -> l0a, l1[1] -> l0b */
  la a0, pt_root
  la a1, pt_l1
  srli t0, a1, 12
  slli t0, t0, 10
  ori t0, t0, PTE_V
  sd t0, 16(a0)
  la a2, pt_l0a
  srli t0, a2, 12
  slli t0, t0, 10
  ori t0, t0, PTE_V
  sd t0, 0(a1)
  la a3, pt_l0b
  srli t0, a3, 12
  slli t0, t0, 10
  ori t0, t0, PTE_V
  sd t0, 8(a1)
  /* identity leaves for both 2 MiB regions, A and D clear (the first walks set them) */
  li t1, 0x80000            /* the PPN of 0x80000000 */
  li t2, 1024
  mv t3, a2                 /* l0a, then l0b right after it */
1:slli t0, t1, 10
  ori t0, t0, PTE_V | PTE_RWX
  sd t0, 0(t3)
  addi t1, t1, 1
  addi t3, t3, 8
  addi t2, t2, -1
  bnez t2, 1b
  /* case 7's second page: not mapped */
  la t0, fault_insn + 2
  srli t0, t0, 12
  andi t0, t0, 511
  slli t0, t0, 3
  add t0, t0, a2
  sd zero, 0(t0)
  /* Sv39, to S-mode */
  srli t0, a0, 12
  li t1, 8
  slli t1, t1, 60
  or t0, t0, t1
  csrw satp, t0
  li t0, 1 << 11            /* MPP = S */
  csrw mstatus, t0
  la t0, s_main
  csrw mepc, t0
  mret

/* M-mode: ECALL from S ends the run with a0 as the exit code; case 7's fault resumes at s11 */
  .balign 4
mtrap:
  csrr t0, mcause
  li t1, 9
  beq t0, t1, finish
  li t1, 12                 /* instruction page fault */
  bne t0, t1, unexpected
  la t1, fault_insn + 2     /* the second half's address */
  csrr t2, mtval
  bne t1, t2, unexpected
  csrw mepc, s11
  addi s10, s10, 1          /* faults taken */
  mret
unexpected:
  addi a0, t0, 100
finish:
  li t0, FINISHER
  beqz a0, 2f
  slli a0, a0, 16
  li t1, 0x3333
  or t1, t1, a0
  sw t1, 0(t0)
1:j 1b
2:li t1, 0x5555
  sw t1, 0(t0)
  j 1b

s_main:
  li s0, ROUNDS
  li s10, 0
round:
  /* 1: straddling ADDI */
  sfence.vma
  li a0, 1
  call s_addi
  li t0, 2
  li a0, 1
  bne a5, t0, fail_case
  /* 2: straddling LD across data pages 0x80200000 | 0x80201000 */
  sfence.vma
  li a1, DATA + 0xffc
  li t0, 0x1122334455667788
  sd t0, 0(a1)              /* (misaligned: two pieces) */
  sfence.vma
  call s_ld
  li a0, 2
  bne a5, t0, fail_case
  /* 3: straddling SD across 0x80202000 | 0x80203000 */
  sfence.vma
  li a1, DATA + 0x2ffc
  li t0, 0x0102030405060708
  call s_sd
  ld t1, 0(a1)
  li a0, 3
  bne t1, t0, fail_case
  /* 4: straddling AMOADD.W on a cold page */
  sfence.vma
  li a1, DATA + 0x5000
  sw zero, 0(a1)
  sfence.vma
  li t0, 7
  call s_amo
  lw t1, 0(a1)
  li a0, 4
  bne t1, t0, fail_case
  /* 5: straddling LR.D, then SC.D */
  sfence.vma
  li a1, DATA + 0x7000
  li t0, 99
  sd t0, 0(a1)
  sfence.vma
  call s_lr
  li a0, 5
  bne a5, t0, fail_case
  li t1, 100
  sc.d t2, t1, (a1)
  bnez t2, fail_case
  ld t2, 0(a1)
  bne t2, t1, fail_case
  /* 6: a straddling BNEZ back into its first page, 40 times */
  sfence.vma
  li a1, 40
  li a5, 0
  call s_loop
  li t0, 40
  li a0, 6
  bne a5, t0, fail_case
  /* 7: a straddling instruction whose second page faults */
  sfence.vma
  mv t3, s10
  la s11, 7f
  li a5, 0
  la t0, fault_insn
  jr t0
7:li a0, 7
  addi t3, t3, 1
  bne s10, t3, fail_case
  bnez a5, fail_case
  addi s0, s0, -1
  bnez s0, round
  li a0, 0
  ecall
fail_case:
  ecall

/* The straddling instructions: each at page offset 0xffe, each in a page pair of its own. */
/* at_page_end LABEL, N: a new page, N c.nops (2 bytes each), then LABEL in 4-byte encodings
 * (norvc), so a 4-byte instruction after 2047 of them sits at 0xffe and straddles. */
  .macro at_page_end label, n
  .option rvc
  .balign 4096
  .rept \n
  c.nop
  .endr
\label:
  .option norvc
  .endm

  at_page_end s_addi, 2047
  addi a5, a0, 1            /* 0xffe: straddles */
  ret

  at_page_end s_ld, 2047
  ld a5, 0(a1)
  ret

  at_page_end s_sd, 2047
  sd t0, 0(a1)
  ret

  at_page_end s_amo, 2047
  amoadd.w zero, t0, (a1)
  ret

  at_page_end s_lr, 2047
  lr.d a5, (a1)
  ret

  at_page_end s_loop, 2044
  .option rvc
  c.addi a5, 1              /* 0xff8 */
  c.addi a1, -1             /* 0xffa */
  c.nop                     /* 0xffc */
  .option norvc
  bnez a1, s_loop           /* 0xffe: straddles, and jumps back into its first page */
  ret

  at_page_end fault_insn, 2047
  addi a5, a5, 1            /* 0xffe: its second half lies in the unmapped page */
  j fault_insn              /* never runs: not mapped */
  .balign 4096

  .section .data
  .balign 4096
pt_root: .fill 512, 8, 0
pt_l1:   .fill 512, 8, 0
pt_l0a:  .fill 512, 8, 0
pt_l0b:  .fill 512, 8, 0
