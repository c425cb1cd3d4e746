/* minios: a miniature operating system, the way Linux uses the machine.  M-mode firmware
 * delegates user ecalls and page faults to an S-mode kernel; the kernel runs two U-mode
 * processes with their own Sv39 page tables (ASID 1 and 2, the same virtual addresses on
 * different physical pages), maps their data pages on demand, switches between them when they
 * yield, and prints what they ask for through the UART; at the end it asks M (an ecall from S)
 * to shut down.  Everything it prints is fixed by the architecture, so QEMU and mtemu must
 * print the same. */
#include "diff.h"

#define UCODE_VA 0x400000ul
#define UDATA_VA 0x800000ul
#define NPROC 2
#define PTE_V 1
#define PTE_R 2
#define PTE_W 4
#define PTE_X 8
#define PTE_U 16
#define PTE_A 64
#define PTE_D 128
#define PTE(pa, f) ((((uint64_t)(uintptr_t)(pa)) >> 12) << 10 | (f))

struct proc {
    uint64_t frame[32];             /* [0] = pc, [1..31] = x1..x31 */
    uint64_t l2[512] __attribute__((aligned(4096)));
    uint64_t l1[512] __attribute__((aligned(4096)));
    uint64_t l0[512] __attribute__((aligned(4096)));   /* 0x40_0000: code */
    uint64_t l0d[512] __attribute__((aligned(4096)));  /* 0x80_0000: data, mapped on demand */
    uint8_t code[4096] __attribute__((aligned(4096)));
    int alive, exit_code, faults;
};
static struct proc procs[NPROC] __attribute__((aligned(4096)));
static uint8_t pool[8][4096] __attribute__((aligned(4096)));
static int pool_next, cur;
extern char user_prog[], user_prog_end[], s_trap_entry[];
extern void s_resume(uint64_t *frame) __attribute__((noreturn));

/* ---------------- M-mode: the firmware ---------------- */
void diff_trap(uint64_t *frame)
{
    uint64_t cause = csr_read(mcause);
    (void)frame;
    if (cause == 9) {                                 /* ecall from S: shutdown */
        puts_("firmware: shutdown requested\n");
        diff_exit(0);
    }
    puts_("firmware: unexpected trap ");
    put_hex(cause);
    puts_(" tval ");
    put_hex(csr_read(mtval));
    putch('\n');
    diff_exit(90);
}

/* ---------------- S-mode: the kernel ---------------- */
static void switch_to(int p)
{
    cur = p;
    csr_write(satp, (8ull << 60) | ((uint64_t)(p + 1) << 44) | ((uint64_t)(uintptr_t)procs[p].l2 >> 12));
    __asm__ volatile("sfence.vma" ::: "memory");
    csr_write(sscratch, (uint64_t)(uintptr_t)procs[p].frame);
}

static int next_alive(void)
{
    for (int k = 1; k <= NPROC; k++)
        if (procs[(cur + k) % NPROC].alive)
            return (cur + k) % NPROC;
    return -1;
}

/* called by s_trap_entry with the current process's frame; returns the frame to resume */
uint64_t *kernel_trap(uint64_t *f)
{
    uint64_t cause = csr_read(scause), tval = csr_read(stval);
    struct proc *p = &procs[cur];
    if (cause == 8) {
        f[0] += 4;                                    /* past the ecall */
        switch (f[17]) {                              /* a7 */
        case 1: putch((char)f[10]); break;
        case 2: {                                     /* yield */
            int n = next_alive();
            if (n >= 0)
                switch_to(n);
            break;
        }
        case 3:                                       /* exit */
            p->alive = 0;
            p->exit_code = (int)f[10];
            puts_("\nkernel: process ");
            putch((char)('A' + cur));
            puts_(" exited with ");
            put_dec(p->exit_code);
            puts_(" after ");
            put_dec(p->faults);
            puts_(" page faults\n");
            if (next_alive() < 0) {
                __asm__ volatile("ecall");            /* ask the firmware to stop */
                for (;;)
                    ;
            }
            switch_to(next_alive());
            break;
        default: puts_("kernel: bad syscall\n"); p->alive = 0; break;
        }
        return procs[cur].frame;
    }
    if ((cause == 13 || cause == 15) && tval >= UDATA_VA && tval < UDATA_VA + 4 * 4096) {
        uint64_t idx = (tval - UDATA_VA) >> 12;
        uint8_t *pg = pool[pool_next++];
        memset(pg, 0, 4096);
        p->l0d[idx] = PTE(pg, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
        __asm__ volatile("sfence.vma %0" ::"r"(tval) : "memory");
        p->faults++;
        puts_("[fault ");
        put_dec((int64_t)cause);
        putch(' ');
        putch((char)('A' + cur));
        putch(' ');
        put_hex(tval);
        puts_("] ");
        return f;
    }
    puts_("kernel: unexpected trap ");
    put_hex(cause);
    puts_(" tval ");
    put_hex(tval);
    puts_(" pc ");
    put_hex(f[0]);
    putch('\n');
    diff_exit(91);
}

void kernel_main(void)
{
    csr_write(stvec, (uint64_t)(uintptr_t)s_trap_entry);
    size_t n = (size_t)(user_prog_end - user_prog);
    for (int i = 0; i < NPROC; i++) {
        struct proc *p = &procs[i];
        memcpy(p->code, user_prog, n);
        p->l2[0] = PTE(p->l1, PTE_V);                 /* user area, 0..1 GiB */
        p->l1[2] = PTE(p->l0, PTE_V);                 /* 0x40_0000: code */
        p->l1[4] = PTE(p->l0d, PTE_V);                /* 0x80_0000: data */
        p->l1[0] = PTE(0, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);           /* finisher (kernel) */
        p->l1[128] = PTE(UART_BASE, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D); /* UART (kernel) */
        p->l2[2] = PTE(0x80000000ul, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);   /* kernel */
        p->l0[0] = PTE(p->code, PTE_V | PTE_R | PTE_X | PTE_U | PTE_A | PTE_D);        /* code */
        p->alive = 1;
        p->frame[0] = UCODE_VA;
        p->frame[10] = 'A' + (uint64_t)i;             /* a0: the process's letter */
    }
    __asm__ volatile("fence.i");
    puts_("kernel: starting 2 processes\n");
    switch_to(0);
    s_resume(procs[0].frame);
}

__asm__(
    ".section .text\n"
    ".balign 4\n"
    ".globl s_trap_entry\n"
    "s_trap_entry:\n"
    "  csrrw t6, sscratch, t6\n"
    "  sd x1, 8(t6)\n  sd x2, 16(t6)\n  sd x3, 24(t6)\n  sd x4, 32(t6)\n  sd x5, 40(t6)\n"
    "  sd x6, 48(t6)\n  sd x7, 56(t6)\n  sd x8, 64(t6)\n  sd x9, 72(t6)\n  sd x10, 80(t6)\n"
    "  sd x11, 88(t6)\n  sd x12, 96(t6)\n  sd x13, 104(t6)\n  sd x14, 112(t6)\n  sd x15, 120(t6)\n"
    "  sd x16, 128(t6)\n  sd x17, 136(t6)\n  sd x18, 144(t6)\n  sd x19, 152(t6)\n  sd x20, 160(t6)\n"
    "  sd x21, 168(t6)\n  sd x22, 176(t6)\n  sd x23, 184(t6)\n  sd x24, 192(t6)\n  sd x25, 200(t6)\n"
    "  sd x26, 208(t6)\n  sd x27, 216(t6)\n  sd x28, 224(t6)\n  sd x29, 232(t6)\n  sd x30, 240(t6)\n"
    "  csrr t5, sscratch\n  sd t5, 248(t6)\n  csrw sscratch, t6\n"
    "  csrr t5, sepc\n  sd t5, 0(t6)\n"
    "  la sp, kstack_top\n"
    "  .option push\n  .option norelax\n  la gp, __global_pointer$\n  .option pop\n"
    "  mv a0, t6\n"
    "  call kernel_trap\n"
    ".globl s_resume\n"
    "s_resume:\n"
    "  mv t6, a0\n"
    "  ld t5, 0(t6)\n  csrw sepc, t5\n"
    "  li t5, 0x100\n  csrc sstatus, t5\n"            /* SPP = U */
    "  ld x1, 8(t6)\n  ld x2, 16(t6)\n  ld x3, 24(t6)\n  ld x4, 32(t6)\n  ld x5, 40(t6)\n"
    "  ld x6, 48(t6)\n  ld x7, 56(t6)\n  ld x8, 64(t6)\n  ld x9, 72(t6)\n  ld x10, 80(t6)\n"
    "  ld x11, 88(t6)\n  ld x12, 96(t6)\n  ld x13, 104(t6)\n  ld x14, 112(t6)\n  ld x15, 120(t6)\n"
    "  ld x16, 128(t6)\n  ld x17, 136(t6)\n  ld x18, 144(t6)\n  ld x19, 152(t6)\n  ld x20, 160(t6)\n"
    "  ld x21, 168(t6)\n  ld x22, 176(t6)\n  ld x23, 184(t6)\n  ld x24, 192(t6)\n  ld x25, 200(t6)\n"
    "  ld x26, 208(t6)\n  ld x27, 216(t6)\n  ld x28, 224(t6)\n  ld x29, 232(t6)\n  ld x30, 240(t6)\n"
    "  ld x31, 248(t6)\n"
    "  sret\n"
    /* the user program (position independent; copied to each process's code page) */
    ".balign 4\n"
    ".globl user_prog\n"
    "user_prog:\n"
    "  mv s2, a0\n"
    "  li s0, 0x800000\n"
    "  sd zero, 0(s0)\n"                              /* first touch: a store fault */
    "1:ld s1, 0(s0)\n"
    "  addi s1, s1, 1\n"
    "  sd s1, 0(s0)\n"
    "  li t0, 3\n"
    "  bne s1, t0, 2f\n"
    "  li t1, 0x802000\n"                             /* a load fault in the middle */
    "  ld t1, 8(t1)\n"
    "  add s1, s1, t1\n"
    "2:mv a0, s2\n  li a7, 1\n  ecall\n"
    "  addi a0, s1, '0'\n  li a7, 1\n  ecall\n"
    "  li a0, ' '\n  li a7, 1\n  ecall\n"
    "  li a7, 2\n  ecall\n"                           /* yield */
    "  ld t0, 0(s0)\n"                                /* my counter survived the switch */
    "  bne t0, s1, 3f\n"
    "  li t1, 6\n"
    "  blt s1, t1, 1b\n"
    "  addi a0, s2, 40 - 'A'\n  li a7, 3\n  ecall\n"   /* exit(40 + index) */
    "3:li a0, 1\n  li a7, 3\n  ecall\n"
    ".globl user_prog_end\n"
    "user_prog_end:\n"
    ".section .bss\n"
    ".balign 16\n"
    "kstack: .skip 8192\n"
    "kstack_top:\n"
    ".text\n");

int main(void)
{
    csr_write(pmpaddr0, -1);
    csr_write(pmpcfg0, 0x1f);
    csr_write(medeleg, (1 << 8) | (1 << 12) | (1 << 13) | (1 << 15));
    csr_write(mideleg, 0);
    csr_write(mcounteren, 7);
    puts_("firmware: entering the kernel in S-mode\n");
    void (*k)(void) = kernel_main;
    __asm__ volatile(
        "csrw mepc, %0\n"
        "li t0, 0x1800\n"
        "csrc mstatus, t0\n"
        "li t0, 0x800\n"
        "csrs mstatus, t0\n"
        "mret\n" ::"r"(k) : "t0", "memory");
    return 99;
}
