/* The guest kernel (VS-mode): what a small OS does on top of the hypervisor's SBI.  It builds
 * its own Sv39 page tables (a gigapage for itself, 4 KiB user pages), turns translation on,
 * takes its own timer interrupts (the VS timer interrupt, delegated by hideleg), then runs its
 * user program in VU-mode and serves its system calls.  Position-independent: it runs at
 * guest-physical (and, with translation on, guest-virtual) 0x8000_0000 while linked elsewhere,
 * so it keeps no absolute addresses in data. */
#include <stdint.h>

#include "fmt.h"
#include "hyp_defs.h"

#define STR_(x) #x
#define STR(x) STR_(x) /* expands CSR names defined as numbers below */
#define CSR_READ(csr) ({ uint64_t v_; __asm__ volatile("csrr %0, " STR(csr) : "=r"(v_)); v_; })
#define CSR_WRITE(csr, v) __asm__ volatile("csrw " STR(csr) ", %0" ::"r"((uint64_t)(v)))
#define CSR_SET(csr, v) __asm__ volatile("csrs " STR(csr) ", %0" ::"r"((uint64_t)(v)))
#define CSR_CLEAR(csr, v) __asm__ volatile("csrc " STR(csr) ", %0" ::"r"((uint64_t)(v)))

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_U 0x10
#define PTE_A 0x40
#define PTE_D 0x80
#define TIMER_TICKS 2
#define TIMER_DELTA 2000 /* mtime ticks (10 MHz): 0.2 ms */

void guest_main(void);
void guest_trap(uint64_t *frame);
void guest_trap_entry(void);
void guest_user_entry(void);
/* guest_entry.S: runs the user program from sepc/sstatus until its exit system call resumes the
 * kernel at user_exited (callee-saved registers and the kernel stack restored). */
void run_user(void);
void user_exited(void);

static uint64_t pt_root[512] __attribute__((aligned(4096)));
static uint64_t pt_l1[512] __attribute__((aligned(4096)));
static uint64_t pt_l0[512] __attribute__((aligned(4096)));
static volatile unsigned ticks;
static volatile int user_exit_code = -1;

static long sbi_call(long ext, long a0, long a1)
{
    register long r_a0 __asm__("a0") = a0, r_a1 __asm__("a1") = a1, r_a6 __asm__("a6") = 0,
                  r_a7 __asm__("a7") = ext;
    __asm__ volatile("ecall" : "+r"(r_a0), "+r"(r_a1) : "r"(r_a6), "r"(r_a7) : "memory");
    return r_a0;
}

static void kputc(char c) { sbi_call(SBI_EXT_LEGACY_PUTCHAR, c, 0); }
static void kputs(const char *s) { fmt_puts(kputc, s); }
static void kput_hex(uint64_t v) { fmt_hex(kputc, v); }
static void kput_dec(uint64_t v) { fmt_dec(kputc, v); }

static void __attribute__((noreturn)) shutdown(long reason)
{
    sbi_call(SBI_EXT_SRST, 0, reason);
    for (;;)
        ;
}

static uint64_t pte(uint64_t pa, uint64_t flags) { return (pa >> 12) << 10 | flags; }
/* the guest-physical address of a kernel object: it runs identity-mapped, so its address */
static uint64_t gpa_of(const void *p) { return (uint64_t)(uintptr_t)p; }

static void build_page_tables(void)
{
    /* the kernel: VA 2G..3G -> GPA 2G..3G, one gigapage (the hypervisor backs 4 MiB of it) */
    pt_root[2] = pte(0x80000000UL, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
    /* the user program: code (2 pages), stack (1 page), data (USER_DATA_PAGES pages) */
    pt_root[0] = pte(gpa_of(pt_l1), PTE_V);
    pt_l1[0] = pte(gpa_of(pt_l0), PTE_V);
    uint64_t code = gpa_of((const void *)guest_user_entry);
    for (unsigned i = 0; i < 2; i++)
        pt_l0[(USER_CODE_VA >> 12) + i] = pte(code + i * 4096, PTE_V | PTE_R | PTE_X | PTE_U | PTE_A);
    /* the stack and data pages are guest RAM the hypervisor has not backed yet */
    pt_l0[USER_STACK_VA >> 12] = pte(GUEST_LAZY_GPA + 0x10000, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
    for (unsigned i = 0; i < USER_DATA_PAGES; i++)
        pt_l0[(USER_DATA_VA >> 12) + i] = pte(GUEST_LAZY_GPA + i * 4096UL, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
    CSR_WRITE(satp, (8UL << 60) | (gpa_of(pt_root) >> 12));
    __asm__ volatile("sfence.vma" ::: "memory");
}

static void syscall(uint64_t *frame)
{
    uint64_t n = frame[17], a0 = frame[10], a1 = frame[11];
    switch (n) {
    case SYS_PUTCHAR:
        kputs("guest: user says ");
        kputc((char)a0 == '\n' ? '/' : (char)a0);
        kputc('\n');
        break;
    case SYS_REPORT:
        kputs(a0 == 1 ? "guest: user checksum " : "guest: user words ");
        kput_dec(a1);
        kputc('\n');
        break;
    case SYS_EXIT:
        user_exit_code = (int)a0;
        CSR_SET(sstatus, 1UL << 8); /* back to the kernel, where run_user was called */
        CSR_WRITE(sepc, gpa_of((const void *)user_exited));
        return;
    default:
        kputs("guest: bad system call\n");
        shutdown(1);
    }
    CSR_WRITE(sepc, CSR_READ(sepc) + 4);
}

void guest_trap(uint64_t *frame)
{
    uint64_t cause = CSR_READ(scause);
    if (cause == ((1UL << 63) | 5)) { /* the VS timer interrupt, as this kernel sees it */
        ticks++;
        kputs("guest: timer interrupt ");
        kput_dec(ticks);
        kputs(" (scause ");
        kput_hex(cause);
        kputs(")\n");
        /* the next tick, or none */
        sbi_call(SBI_EXT_TIME, ticks < TIMER_TICKS ? (long)(CSR_READ(time) + TIMER_DELTA) : -1L, 0);
        return;
    }
    if (cause == 8) {
        syscall(frame);
        return;
    }
    kputs("guest: unexpected trap ");
    kput_hex(cause);
    kputs(" at ");
    kput_hex(CSR_READ(sepc));
    kputs(" stval ");
    kput_hex(CSR_READ(stval));
    kputc('\n');
    shutdown(1);
}

void guest_main(void)
{
    kputs("guest: VS-mode kernel up, vsatp Bare\n");
    CSR_WRITE(stvec, gpa_of((const void *)guest_trap_entry));
    build_page_tables();
    kputs("guest: Sv39 on (vsatp ");
    kput_hex(CSR_READ(satp) >> 60);
    kputs("), user program mapped at ");
    kput_hex(USER_CODE_VA);
    kputc('\n');
    /* timer: ticks from the hypervisor's SBI, delivered as VS timer interrupts */
    CSR_SET(sie, 1UL << 5);
    sbi_call(SBI_EXT_TIME, (long)(CSR_READ(time) + TIMER_DELTA), 0);
    CSR_SET(sstatus, 1UL << 1);
    while (ticks < TIMER_TICKS)
        __asm__ volatile("wfi");
    CSR_CLEAR(sstatus, 1UL << 1);
    kputs("guest: starting the user program in VU-mode\n");
    CSR_CLEAR(sstatus, 1UL << 8); /* SPP = U */
    CSR_SET(sstatus, 1UL << 5);   /* SPIE: interrupts on in U */
    CSR_WRITE(sepc, USER_CODE_VA);
    run_user();
    kputs("guest: user program exited with ");
    kput_dec((uint64_t)user_exit_code);
    kputc('\n');
    shutdown(0);
}
