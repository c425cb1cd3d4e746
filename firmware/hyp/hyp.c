/* The mini-hypervisor (HS-mode): builds an Sv39x4 G-stage for one guest whose RAM (guest-
 * physical 0x8000_0000) lives elsewhere in host memory, enters it in VS-mode and serves it:
 *   - SBI calls (VS ecalls): console putchar, set_timer, system reset;
 *   - guest-page faults: the second 2 MiB of guest RAM is mapped page by page on first touch
 *     (htval << 2 is the faulting guest-physical address), from a host pool in reverse order;
 *   - the timer: the guest's deadline goes to the CLINT; M-mode turns the machine timer
 *     interrupt into hvip.VSTIP, which hideleg hands to the guest.
 * Everything it prints depends only on what the guest does, never on timing, so QEMU and mtemu
 * print the same. */
#include <stdint.h>

#include "fmt.h"
#include "hyp_defs.h"

#define STR_(x) #x
#define STR(x) STR_(x) /* expands CSR names defined as numbers below */
#define CSR_READ(csr) ({ uint64_t v_; __asm__ volatile("csrr %0, " STR(csr) : "=r"(v_)); v_; })
#define CSR_WRITE(csr, v) __asm__ volatile("csrw " STR(csr) ", %0" ::"r"((uint64_t)(v)))
#define CSR_SET(csr, v) __asm__ volatile("csrs " STR(csr) ", %0" ::"r"((uint64_t)(v)))
#define CSR_CLEAR(csr, v) __asm__ volatile("csrc " STR(csr) ", %0" ::"r"((uint64_t)(v)))
/* the H CSRs by number (the assembler is not told about the H extension) */
#define hstatus 0x600
#define hedeleg 0x602
#define hideleg 0x603
#define hcounteren 0x606
#define htval 0x643
#define hvip 0x645
#define hgatp 0x680

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_U 0x10
#define PTE_A 0x40
#define PTE_D 0x80
#define G_LEAF (PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D)

extern char guest_image_start[], guest_image_end[], hs_stack_top[];
void hs_trap(void);
void hyp_main(void);
void hyp_trap(uint64_t *frame);

/* G-stage tables: the Sv39x4 root is 16 KiB (2048 entries) and 16 KiB aligned. */
static uint64_t g_root[2048] __attribute__((aligned(16384)));
static uint64_t g_l1[512] __attribute__((aligned(4096)));
static uint64_t g_l0[512] __attribute__((aligned(4096)));

static struct {
    unsigned ecalls, putchars, timers_set, guest_faults;
} stats;

static void putc_uart(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
    while (!(uart[5] & 0x20))
        ;
    uart[0] = (uint8_t)c;
}

static void puts_uart(const char *s) { fmt_puts(putc_uart, s); }
static void put_hex(uint64_t v) { fmt_hex(putc_uart, v); }
static void put_dec(uint64_t v) { fmt_dec(putc_uart, v); }

static void __attribute__((noreturn)) finish(unsigned code)
{
    volatile uint32_t *f = (volatile uint32_t *)FINISHER_BASE;
    *f = code == 0 ? 0x5555u : ((code & 0xffffu) << 16) | 0x3333u;
    for (;;)
        ;
}

static uint64_t pte(uint64_t pa, uint64_t flags) { return (pa >> 12) << 10 | flags; }

static void hfence_gvma(void) { __asm__ volatile(".insn r 0x73, 0, 0x31, x0, x0, x0" ::: "memory"); }

/* The G-stage: GPA 0x8000_0000 + 2 MiB -> the guest image (one megapage); the next 2 MiB through
 * 4 KiB entries filled on demand. */
static void build_gstage(void)
{
    g_root[GUEST_RAM_GPA >> 30] = pte((uint64_t)(uintptr_t)g_l1, PTE_V);
    g_l1[(GUEST_RAM_GPA >> 21) & 0x1ff] = pte(GUEST_IMAGE_HPA, G_LEAF);
    g_l1[(GUEST_LAZY_GPA >> 21) & 0x1ff] = pte((uint64_t)(uintptr_t)g_l0, PTE_V);
    CSR_WRITE(hgatp, (8UL << 60) | ((uint64_t)(uintptr_t)g_root >> 12));
    hfence_gvma();
}

/* A guest-page fault at `gpa`: map its page if it is one of the on-demand ones. */
static int map_on_demand(uint64_t gpa)
{
    if (gpa < GUEST_LAZY_GPA || gpa >= GUEST_LAZY_GPA + GUEST_LAZY_PAGES * 4096UL)
        return 0;
    unsigned idx = (unsigned)((gpa - GUEST_LAZY_GPA) >> 12);
    if (g_l0[idx] & PTE_V)
        return 0; /* mapped already: a permission fault, not ours to fix */
    uint64_t hpa = GUEST_LAZY_HPA + (uint64_t)(GUEST_LAZY_PAGES - 1 - idx) * 4096;
    g_l0[idx] = pte(hpa, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
    hfence_gvma();
    if (stats.guest_faults < 3) {
        puts_uart("hyp: guest-page fault at GPA ");
        put_hex(gpa & ~0xfffUL);
        puts_uart(" -> host ");
        put_hex(hpa);
        puts_uart("\n");
    }
    stats.guest_faults++;
    return 1;
}

static void __attribute__((noreturn)) guest_died(const char *why, uint64_t *frame)
{
    puts_uart("hyp: ");
    puts_uart(why);
    puts_uart(": scause ");
    put_hex(CSR_READ(scause));
    puts_uart(" sepc ");
    put_hex(CSR_READ(sepc));
    puts_uart(" stval ");
    put_hex(CSR_READ(stval));
    puts_uart(" htval ");
    put_hex(CSR_READ(htval));
    puts_uart(" a7 ");
    put_hex(frame[17]);
    puts_uart("\n");
    finish(2);
}

/* SBI calls from VS: a7 = extension, a6 = function, a0.. = arguments; a0 = error, a1 = value. */
static void sbi_call(uint64_t *frame)
{
    uint64_t ext = frame[17], a0 = frame[10], a1 = frame[11];
    stats.ecalls++;
    frame[10] = 0;
    frame[11] = 0;
    switch (ext) {
    case SBI_EXT_LEGACY_PUTCHAR:
        stats.putchars++;
        putc_uart((char)a0);
        break;
    case SBI_EXT_TIME: /* set_timer(a0): the guest's VS timer interrupt fires at mtime >= a0 */
        stats.timers_set++;
        CSR_CLEAR(hvip, 1UL << 6);
        *(volatile uint64_t *)CLINT_MTIMECMP = a0;
        break;
    case SBI_EXT_SRST: /* system_reset(type a0, reason a1): the guest is done */
        puts_uart("hyp: guest shut down (reason ");
        put_dec(a1);
        puts_uart("): ");
        put_dec(stats.ecalls);
        puts_uart(" SBI calls (");
        put_dec(stats.putchars);
        puts_uart(" console, ");
        put_dec(stats.timers_set);
        puts_uart(" timer), ");
        put_dec(stats.guest_faults);
        puts_uart(" guest-page faults served\n");
        finish(a1 == 0 ? 0 : 1);
    default:
        frame[10] = (uint64_t)-2; /* SBI_ERR_NOT_SUPPORTED */
        break;
    }
    CSR_WRITE(sepc, CSR_READ(sepc) + 4);
}

void hyp_trap(uint64_t *frame)
{
    uint64_t cause = CSR_READ(scause);
    switch (cause) {
    case 10: /* ecall from VS */
        sbi_call(frame);
        return;
    case 20: case 21: case 23: /* guest-page faults: htval = GPA >> 2, stval = the guest's VA */
        if (map_on_demand((CSR_READ(htval) << 2) | (CSR_READ(stval) & 3)))
            return; /* retry the access */
        guest_died("unexpected guest-page fault", frame);
    default:
        guest_died("unexpected trap from the guest", frame);
    }
}

void hyp_main(void)
{
    puts_uart("hyp: HS-mode, building the Sv39x4 G-stage\n");
    if ((uint64_t)(uintptr_t)guest_image_start != GUEST_IMAGE_HPA || guest_image_end - guest_image_start > 0x200000) {
        puts_uart("hyp: the guest image is not where the G-stage expects it\n");
        finish(3);
    }
    build_gstage();
    puts_uart("hyp: guest RAM GPA ");
    put_hex(GUEST_RAM_GPA);
    puts_uart(" -> host ");
    put_hex((uint64_t)(uintptr_t)guest_image_start);
    puts_uart(" (2 MiB megapage), GPA ");
    put_hex(GUEST_LAZY_GPA);
    puts_uart(" + 2 MiB on demand\n");
    /* the guest handles its own user ecalls and page faults, and its timer interrupt */
    CSR_WRITE(hedeleg, (1UL << 8) | (1UL << 12) | (1UL << 13) | (1UL << 15));
    CSR_WRITE(hideleg, 1UL << 6);
    CSR_WRITE(hcounteren, -1UL);
    CSR_WRITE(stvec, (uint64_t)(uintptr_t)hs_trap);
    CSR_WRITE(sscratch, (uint64_t)(uintptr_t)hs_stack_top);
    /* SRET into VS at the guest's entry, vsatp Bare */
    CSR_WRITE(0x280, 0);
    CSR_SET(hstatus, 1UL << 7); /* SPV */
    CSR_SET(sstatus, 1UL << 8); /* SPP = S */
    CSR_WRITE(sepc, GUEST_RAM_GPA);
    puts_uart("hyp: entering the guest in VS-mode\n");
    __asm__ volatile("li a0, 0; li a1, 0; sret" ::: "a0", "a1", "memory");
    __builtin_unreachable();
}
