/* M-mode start of the mini-hypervisor: PMP open, traps delegated to HS, the machine timer's
 * interrupt turned into the guest's (hvip.VSTIP), then MRET into HS at hyp_main.  Also the HS
 * trap entry (saves the guest's registers, calls hyp_trap in C) and the M-mode trap handler. */
#include "hyp_defs.h"
#include "../rt/hs_guest_trap.S.inc"

#define CSR_HVIP 0x645
#define MIP_MTIP (1 << 7)
#define MIP_VSTIP (1 << 6)

        .section .text.mstart, "ax", @progbits
        .globl _start
_start:
        csrr t0, mhartid
1:      bnez t0, 1b                      /* one hart */
        la sp, m_stack_top
        la t0, m_trap; csrw mtvec, t0
        li t0, -1; csrw pmpaddr0, t0
        li t0, 0x1f; csrw pmpcfg0, t0    /* NAPOT, RWX: S and U may use all memory */
        /* zero the hypervisor's bss */
        la t0, __bss_start; la t1, __bss_end
2:      bgeu t0, t1, 3f
        sd zero, 0(t0); addi t0, t0, 8; j 2b
3:      /* exceptions the hypervisor handles (HS), some of which it hands on to the guest:
         * U ecall, page faults, VS ecall, guest-page faults, virtual instructions, illegal */
        li t0, (1 << 2) | (1 << 8) | (1 << 10) | (1 << 12) | (1 << 13) | (1 << 15) | (0xf << 20)
        csrw medeleg, t0
        csrw mideleg, zero               /* the VS bits are delegated anyway (read-only one) */
        li t0, -1; csrw mcounteren, t0   /* time for HS and the guest */
        li t0, CLINT_MTIMECMP; li t1, -1; sd t1, 0(t0)
        li t0, MIP_MTIP; csrw mie, t0    /* M-level timer: taken whenever below M */
        li t0, 3 << 11; csrc mstatus, t0
        li t0, 1 << 11; csrs mstatus, t0 /* MPP = S, MPV = 0: into HS */
        la t0, hyp_main; csrw mepc, t0
        la sp, hs_stack_top
        csrw satp, zero
        mret

/* M-mode: the only trap expected is the machine timer.  It belongs to the guest: disarm the
 * CLINT and raise the guest's VS timer interrupt through hvip. */
        .balign 4
m_trap:
        csrrw sp, mscratch, sp
        la sp, m_stack_top
        addi sp, sp, -16
        sd t0, 0(sp); sd t1, 8(sp)
        csrr t0, mcause
        li t1, (1 << 63) | 7
        bne t0, t1, m_unexpected
        li t0, CLINT_MTIMECMP; li t1, -1; sd t1, 0(t0)
        li t0, MIP_VSTIP; csrs CSR_HVIP, t0
        ld t0, 0(sp); ld t1, 8(sp)
        csrrw sp, mscratch, sp
        mret
m_unexpected:                            /* report through the finisher: exit code 0x7e */
        li t0, FINISHER_BASE; li t1, (0x7e << 16) | 0x3333; sw t1, 0(t0)
4:      j 4b

/* HS trap entry: every HS trap comes from the guest (V=1); sscratch holds the HS stack top.
 * The frame is 32 registers (x0's slot unused) followed by nothing; hyp_trap(frame). */
        .balign 4
        .globl hs_trap
hs_trap:
        HS_GUEST_TRAP hyp_trap

        .bss
        .balign 16
m_stack: .skip 256
m_stack_top:
hs_stack: .skip 8192
        .globl hs_stack_top
hs_stack_top:
