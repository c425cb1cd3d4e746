/* The VMM's M-mode start and its trap entries.
 *   _start (M): one hart; PMP open to HS/VS/VU; every exception a guest can raise delegated to
 *     HS (the hypervisor hands most on to the guest with hedeleg); the S interrupts delegated;
 *     counters and Sstc's stimecmp open below M (menvcfg.STCE, so the guest's vstimecmp works);
 *     mstatus.FS on, which a guest's F/D needs at both levels; then MRET into HS at
 *     vmm_main(hart id, device tree).  M-mode never runs again unless something goes wrong.
 *   m_trap (M): unexpected; reported by vmm_m_trap.
 *   hs_trap (HS): every trap from the running guest; sscratch holds the HS stack top while the
 *     guest runs.  Saves the guest's x1..x31 in a frame, calls vmm_trap(frame), restores, SRET.
 *   hs_fatal (HS): stvec until the guest is entered, so that a fault of the VMM itself is reported
 *     instead of looping. */
#include "vmm_defs.h"
#include "../rt/hs_guest_trap.S.inc"

        .section .text.start, "ax", @progbits
        .globl _start
_start:
        csrr t0, mhartid
1:      bnez t0, park
        mv s0, a1                        /* the host's device tree */
        la sp, m_stack_top
        la t0, m_trap; csrw mtvec, t0
        li t0, -1; csrw pmpaddr0, t0
        li t0, 0x1f; csrw pmpcfg0, t0    /* NAPOT over everything, RWX */
        la t0, __bss_start; la t1, __bss_end
2:      bgeu t0, t1, 3f
        sd zero, 0(t0); addi t0, t0, 8; j 2b
3:      /* exceptions 0-8 (misaligned, access, illegal, breakpoint, U ecall), 10 (VS ecall),
         * page faults 12/13/15, guest-page faults 20/21/23, virtual instruction 22 */
        li t0, 0x1ff | (1 << 10) | (1 << 12) | (1 << 13) | (1 << 15) | (0xf << 20)
        csrw medeleg, t0
        li t0, 0x222; csrw mideleg, t0   /* SSIP STIP SEIP (the VS bits are delegated anyway) */
        li t0, -1; csrw mcounteren, t0
        li t0, 1; slli t0, t0, 63; csrw CSR_MENVCFG, t0   /* STCE */
        csrw mie, zero
        li t0, (3 << 11) | (3 << 13); csrc mstatus, t0
        li t0, (1 << 11) | (1 << 13); csrs mstatus, t0    /* MPP = S (MPV = 0: HS), FS = Initial */
        la t0, hs_fatal; csrw stvec, t0
        la t0, vmm_main; csrw mepc, t0
        csrw satp, zero
        li a0, 0
        mv a1, s0
        la sp, hs_stack_top
        mret

park:   wfi                              /* other harts: the guest has one */
        j park

        .balign 4
m_trap:
        la sp, m_stack_top
        csrr a0, mcause; csrr a1, mepc; csrr a2, mtval
        call vmm_m_trap                  /* does not return */

        .balign 4
hs_fatal:
        la sp, hs_stack_top
        csrr a0, scause; csrr a1, sepc; csrr a2, stval
        call vmm_hs_fault                /* does not return */

        .balign 4
        .globl hs_trap
hs_trap:
        HS_GUEST_TRAP vmm_trap

        .bss
        .balign 16
m_stack: .skip 1024
m_stack_top:
hs_stack: .skip 8192
        .globl hs_stack_top
hs_stack_top:
