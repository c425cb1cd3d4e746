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
        csrrw sp, sscratch, sp
        addi sp, sp, -256
        sd x1, 8(sp); sd x3, 24(sp); sd x4, 32(sp); sd x5, 40(sp); sd x6, 48(sp); sd x7, 56(sp)
        sd x8, 64(sp); sd x9, 72(sp); sd x10, 80(sp); sd x11, 88(sp); sd x12, 96(sp); sd x13, 104(sp)
        sd x14, 112(sp); sd x15, 120(sp); sd x16, 128(sp); sd x17, 136(sp); sd x18, 144(sp)
        sd x19, 152(sp); sd x20, 160(sp); sd x21, 168(sp); sd x22, 176(sp); sd x23, 184(sp)
        sd x24, 192(sp); sd x25, 200(sp); sd x26, 208(sp); sd x27, 216(sp); sd x28, 224(sp)
        sd x29, 232(sp); sd x30, 240(sp); sd x31, 248(sp)
        csrr t0, sscratch; sd t0, 16(sp)  /* the guest's sp */
        mv a0, sp
        call vmm_trap
        ld x1, 8(sp); ld x3, 24(sp); ld x4, 32(sp); ld x5, 40(sp); ld x6, 48(sp); ld x7, 56(sp)
        ld x8, 64(sp); ld x9, 72(sp); ld x10, 80(sp); ld x11, 88(sp); ld x12, 96(sp); ld x13, 104(sp)
        ld x14, 112(sp); ld x15, 120(sp); ld x16, 128(sp); ld x17, 136(sp); ld x18, 144(sp)
        ld x19, 152(sp); ld x20, 160(sp); ld x21, 168(sp); ld x22, 176(sp); ld x23, 184(sp)
        ld x24, 192(sp); ld x25, 200(sp); ld x26, 208(sp); ld x27, 216(sp); ld x28, 224(sp)
        ld x29, 232(sp); ld x30, 240(sp); ld x31, 248(sp)
        addi sp, sp, 256
        csrrw sp, sscratch, sp
        sret

        .bss
        .balign 16
m_stack: .skip 1024
m_stack_top:
hs_stack: .skip 8192
        .globl hs_stack_top
hs_stack_top:
