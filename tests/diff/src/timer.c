/* timer: interrupts from the CLINT.  Five timer interrupts, each armed 2000 ticks ahead and
 * waited for with WFI, then a software interrupt through msip; only counts and causes are
 * printed (the times themselves differ between machines). */
#include "diff.h"

static volatile int ticks, softs;

void diff_trap(uint64_t *frame)
{
    (void)frame;
    uint64_t cause = csr_read(mcause);
    if (cause == ((1ull << 63) | 7)) {
        ticks++;
        mmio_write64(CLINT_MTIMECMP, ~0ull);          /* acknowledge: no more until re-armed */
    } else if (cause == ((1ull << 63) | 3)) {
        softs++;
        mmio_write32(CLINT_MSIP, 0);
    } else {
        puts_("unexpected cause ");
        put_hex(cause);
        putch('\n');
        diff_exit(98);
    }
}

/* Wait until *v != old.  mstatus.MIE stays 0 while testing and sleeping, so an interrupt cannot
 * slip in between the test and the WFI (WFI wakes on a pending enabled interrupt even with
 * MIE = 0); it is taken in the short window where MIE = 1. */
static void wait_for(volatile int *v, int old)
{
    while (*v == old) {
        __asm__ volatile("wfi");
        csr_set(mstatus, 1 << 3);
        csr_clear(mstatus, 1 << 3);
    }
}

int main(void)
{
    mmio_write64(CLINT_MTIMECMP, ~0ull);
    csr_write(mie, (1 << 7) | (1 << 3));
    for (int i = 0; i < 5; i++) {
        int before = ticks;
        mmio_write64(CLINT_MTIMECMP, mmio_read64(CLINT_MTIME) + 2000);
        wait_for(&ticks, before);
        puts_("tick ");
        put_dec(ticks);
        putch('\n');
    }
    mmio_write32(CLINT_MSIP, 1);
    wait_for(&softs, 0);
    puts_("software interrupts: ");
    put_dec(softs);
    putch('\n');
    return ticks == 5 && softs == 1 ? 0 : 1;
}
