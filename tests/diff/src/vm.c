/* vm: demand paging under Sv39.  S-mode code walks a 16-page window at VA 0x4000_0000 that
 * starts unmapped; every first touch page-faults to M, which maps a fresh page filled with a
 * pattern and retries.  Prints the faults (cause, address) in order, S's checksums, and the
 * final contents of the pages. */
#include "diff.h"

#define WINDOW 0x40000000ul
#define PAGES 16
static uint64_t l2[512] __attribute__((aligned(4096)));
static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l0[512] __attribute__((aligned(4096)));
static uint8_t pool[PAGES][4096] __attribute__((aligned(4096)));
static volatile uint64_t resume_pc, faults, s_sum, s_sum2;
static int next_page;

#define PTE(pa, flags) ((((uint64_t)(uintptr_t)(pa)) >> 12) << 10 | (flags))

void diff_trap(uint64_t *frame)
{
    uint64_t cause = csr_read(mcause), tval = csr_read(mtval);
    if (cause == 9) {                                   /* S is done */
        frame[0] = resume_pc;
        csr_set(mstatus, 3 << 11);
        return;
    }
    if ((cause == 13 || cause == 15) && tval >= WINDOW && tval < WINDOW + PAGES * 4096) {
        uint64_t vpn = (tval - WINDOW) >> 12;
        uint8_t *pg = pool[next_page++];
        for (int i = 0; i < 4096; i++)
            pg[i] = (uint8_t)(vpn * 17 + i);
        l0[vpn] = PTE(pg, 0xc7);                          /* V R W A D */
        __asm__ volatile("sfence.vma" ::: "memory");
        faults++;
        puts_("fault ");
        put_dec((int64_t)cause);
        puts_(" at ");
        put_hex(tval);
        putch('\n');
        return;                                         /* retry the access */
    }
    puts_("unexpected trap ");
    put_hex(cause);
    puts_(" tval ");
    put_hex(tval);
    putch('\n');
    diff_exit(97);
}

void s_main(void)
{
    static const uint8_t order[PAGES] = {5, 0, 9, 3, 15, 1, 12, 7, 2, 14, 8, 4, 11, 6, 13, 10};
    uint64_t sum = 0;
    for (int k = 0; k < PAGES; k++) {
        volatile uint64_t *p = (volatile uint64_t *)(WINDOW + order[k] * 4096ul + 8 * k);
        if (k % 3 == 0)
            *p = 0x1111111111111111ull * k;             /* first touch is a store */
        sum = sum * 31 + *p;
    }
    s_sum = sum;
    uint64_t sum2 = 0;
    for (uint64_t va = WINDOW; va < WINDOW + PAGES * 4096; va += 520)
        sum2 += *(volatile uint32_t *)va;
    s_sum2 = sum2;
    puts_("S-mode says hello through the identity-mapped UART\n");
}

__asm__(".globl s_trampoline\ns_trampoline: ecall\n1: j 1b\n");

int main(void)
{
    l2[0] = PTE(0, 0xc7);                                 /* devices, V R W A D */
    l2[1] = PTE(l1, 1);
    l1[0] = PTE(l0, 1);
    l2[2] = PTE(0x80000000ul, 0xcf);                      /* RAM, V R W X A D */
    csr_write(pmpaddr0, -1);
    csr_write(pmpcfg0, 0x1f);
    csr_write(satp, (8ull << 60) | ((uint64_t)(uintptr_t)l2 >> 12));
    __asm__ volatile("sfence.vma" ::: "memory");
    void (*fn)(void) = s_main;
    __asm__ volatile(
        "la t0, 1f\n"
        "sd t0, 0(%[rp])\n"
        "csrw mepc, %[fn]\n"
        "li t0, 0x1800\n"
        "csrc mstatus, t0\n"
        "li t0, 0x800\n"
        "csrs mstatus, t0\n"
        "la ra, s_trampoline\n"
        "mret\n"
        "1:\n"
        :
        : [rp] "r"(&resume_pc), [fn] "r"(fn)
        : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5",
          "a6", "a7", "memory");
    csr_write(satp, 0);
    put_kv("faults", faults);
    put_kv("s_sum", s_sum);
    put_kv("s_sum2", s_sum2);
    uint64_t h = 0;
    for (int p = 0; p < PAGES; p++)
        for (int i = 0; i < 4096; i += 8)
            h = h * 1099511628211ull + *(uint64_t *)&pool[p][i];
    put_kv("pool hash", h);
    return faults == PAGES ? 0 : 1;
}
