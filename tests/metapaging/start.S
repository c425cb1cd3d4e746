/* Entry of the meta-paging workloads: M-mode at 0x8000_0000, one hart; a stack, a zeroed .bss,
 * then main().  Its return value leaves through the SiFive test finisher (virt 0x10_0000). */
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, mhartid
1:  bnez t0, 1b                 /* other harts park */
    la sp, __stack_top
    la t0, __bss_start
    la t1, __bss_end
2:  bgeu t0, t1, 3f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 2b
3:  call main
    call finish
4:  j 4b
