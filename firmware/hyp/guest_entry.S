/* The guest's entry, its trap vector (VS) and its user program's entry (VU).  All of it is
 * position-independent: linked at host 0x8020_0000, it runs at guest-physical 0x8000_0000 (and
 * the user entry at its own virtual address). */
#include "hyp_defs.h"

        .section .text.guest_entry, "ax", @progbits
        .globl guest_entry
guest_entry:                             /* VS-mode, vsatp Bare, a0 = hart id */
        lla sp, guest_stack_top
        call guest_main
1:      j 1b

/* VS trap vector.  sscratch = the kernel stack top while the user program runs, 0 while the
 * kernel itself does; the frame holds x1..x31 with the interrupted sp in slot 2. */
        .balign 4
        .globl guest_trap_entry
guest_trap_entry:
        csrrw sp, sscratch, sp
        bnez sp, 1f
        csrrw sp, sscratch, x0           /* from the kernel: its own stack, sscratch stays 0 */
1:      addi sp, sp, -256
        sd x1, 8(sp); sd x3, 24(sp); sd x4, 32(sp); sd x5, 40(sp); sd x6, 48(sp); sd x7, 56(sp)
        sd x8, 64(sp); sd x9, 72(sp); sd x10, 80(sp); sd x11, 88(sp); sd x12, 96(sp); sd x13, 104(sp)
        sd x14, 112(sp); sd x15, 120(sp); sd x16, 128(sp); sd x17, 136(sp); sd x18, 144(sp)
        sd x19, 152(sp); sd x20, 160(sp); sd x21, 168(sp); sd x22, 176(sp); sd x23, 184(sp)
        sd x24, 192(sp); sd x25, 200(sp); sd x26, 208(sp); sd x27, 216(sp); sd x28, 224(sp)
        sd x29, 232(sp); sd x30, 240(sp); sd x31, 248(sp)
        csrrw t0, sscratch, x0           /* the user's sp, or 0 from the kernel */
        bnez t0, 2f
        addi t0, sp, 256
2:      sd t0, 16(sp)
        mv a0, sp
        call guest_trap
        csrr t0, sstatus
        andi t0, t0, 1 << 8              /* SPP: back to the kernel? */
        bnez t0, 3f
        addi t0, sp, 256
        csrw sscratch, t0                /* back to the user: the kernel stack for its next trap */
3:      ld x1, 8(sp); ld x3, 24(sp); ld x4, 32(sp); ld x5, 40(sp); ld x6, 48(sp); ld x7, 56(sp)
        ld x8, 64(sp); ld x9, 72(sp); ld x10, 80(sp); ld x11, 88(sp); ld x12, 96(sp); ld x13, 104(sp)
        ld x14, 112(sp); ld x15, 120(sp); ld x16, 128(sp); ld x17, 136(sp); ld x18, 144(sp)
        ld x19, 152(sp); ld x20, 160(sp); ld x21, 168(sp); ld x22, 176(sp); ld x23, 184(sp)
        ld x24, 192(sp); ld x25, 200(sp); ld x26, 208(sp); ld x27, 216(sp); ld x28, 224(sp)
        ld x29, 232(sp); ld x30, 240(sp); ld x31, 248(sp)
        ld sp, 16(sp)
        sret

/* run_user: SRET into the user program (sepc, sstatus.SPP/SPIE set by the caller), keeping the
 * callee-saved registers on the kernel stack; its exit system call resumes at user_exited. */
        .globl run_user
run_user:
        addi sp, sp, -112
        sd ra, 0(sp); sd s0, 8(sp); sd s1, 16(sp); sd s2, 24(sp); sd s3, 32(sp); sd s4, 40(sp)
        sd s5, 48(sp); sd s6, 56(sp); sd s7, 64(sp); sd s8, 72(sp); sd s9, 80(sp); sd s10, 88(sp)
        sd s11, 96(sp); sd gp, 104(sp)
        lla t0, guest_kernel_sp; sd sp, 0(t0)
        csrw sscratch, sp                /* the kernel stack for the user's traps */
        sret
        .globl user_exited
user_exited:
        lla t0, guest_kernel_sp; ld sp, 0(t0)
        ld ra, 0(sp); ld s0, 8(sp); ld s1, 16(sp); ld s2, 24(sp); ld s3, 32(sp); ld s4, 40(sp)
        ld s5, 48(sp); ld s6, 56(sp); ld s7, 64(sp); ld s8, 72(sp); ld s9, 80(sp); ld s10, 88(sp)
        ld s11, 96(sp); ld gp, 104(sp)
        addi sp, sp, 112
        ret

/* The user program's first page (mapped at USER_CODE_VA, U). */
        .section .text.guest_user_entry, "ax", @progbits
        .globl guest_user_entry
guest_user_entry:
        li sp, USER_STACK_VA + 4096
        call user_main
        li a7, SYS_EXIT
        ecall
1:      j 1b

        .section .bss.guest_stack, "aw", @nobits
        .balign 8
guest_kernel_sp: .skip 8
        .balign 16
        .skip 8192
guest_stack_top:
