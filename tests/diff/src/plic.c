/* plic: external interrupts through the PLIC (QEMU virt layout: sources at 0xc00_0000, context
 * 0 = hart 0 M-mode) from a real source, the UART's THR-empty interrupt (PLIC source 10):
 * pending bits, enables, priority vs threshold, mip.MEIP,
 * claim and complete, and the machine external interrupt trap (mcause = interrupt 11). */
#include "diff.h"

#define PLIC 0xc000000ul
#define PLIC_PRIO(irq) (PLIC + 4 * (irq))
#define PLIC_PENDING (PLIC + 0x1000)
#define PLIC_ENABLE(ctx) (PLIC + 0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx) (PLIC + 0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx) (PLIC + 0x200004 + 0x1000 * (ctx))
#define UART_IRQ 10
#define MIP_MEIP (1u << 11)

static volatile uint8_t *const uart = (volatile uint8_t *)UART_BASE;
static volatile int taken;
static volatile uint32_t claimed;

void diff_trap(uint64_t *frame)
{
    (void)frame;
    uint64_t cause = csr_read(mcause);
    if (cause != ((1ull << 63) | 11)) {
        puts_("unexpected trap ");
        put_hex(cause);
        putch('\n');
        diff_exit(95);
    }
    claimed = mmio_read32(PLIC_CLAIM(0));
    uart[1] = 0;                                      /* IER: the source goes quiet */
    mmio_write32(PLIC_CLAIM(0), claimed);             /* complete */
    taken++;
}

static void flush_uart(void)
{
    while ((uart[5] & 0x60) != 0x60)
        ;
}

static unsigned pending10(void) { return (mmio_read32(PLIC_PENDING) >> UART_IRQ) & 1; }
static unsigned mip_bit(uint32_t bit) { return (csr_read(mip) & bit) ? 1 : 0; }

int main(void)
{
    unsigned r[12];
    flush_uart();
    mmio_write32(PLIC_PRIO(UART_IRQ), 1);
    mmio_write32(PLIC_ENABLE(0), 0);
    mmio_write32(PLIC_ENABLE(1), 0);
    mmio_write32(PLIC_THRESHOLD(0), 0);
    mmio_write32(PLIC_THRESHOLD(1), 0);
    r[0] = mmio_read32(PLIC_PRIO(UART_IRQ));
    /* the source raises its line: pending, but no context enabled yet */
    uart[1] = 0x02;
    r[1] = pending10();
    r[2] = mip_bit(MIP_MEIP);
    /* enabled for M, threshold 1 >= priority 1: still masked */
    mmio_write32(PLIC_THRESHOLD(0), 1);
    mmio_write32(PLIC_ENABLE(0), 1u << UART_IRQ);
    r[3] = mip_bit(MIP_MEIP);
    /* threshold 0: MEIP */
    mmio_write32(PLIC_THRESHOLD(0), 0);
    r[4] = mip_bit(MIP_MEIP);
    /* (mip.SEIP from the S context is not compared: QEMU 7.2 does not show the PLIC's S-level
       line in a csrr of mip, mtemu does, as the spec describes for reads of SEIP) */
    r[5] = r[6] = 0;
    /* take it in M: the handler claims, silences the UART, completes */
    csr_write(mie, MIP_MEIP);
    csr_set(mstatus, 1 << 3);
    for (int i = 0; i < 1000000 && !taken; i++)
        ;
    csr_clear(mstatus, 1 << 3);
    r[7] = (unsigned)taken;
    r[8] = claimed;
    r[9] = pending10();
    r[10] = mip_bit(MIP_MEIP);
    /* nothing left to claim */
    r[11] = mmio_read32(PLIC_CLAIM(0));
    mmio_write32(PLIC_ENABLE(0), 0);
    csr_write(mie, 0);
    const char *names[] = {"priority[10]", "pending before enable", "MEIP before enable",
                           "MEIP at threshold 1", "MEIP at threshold 0", "-",
                           "-", "interrupts taken", "claimed source",
                           "pending after complete", "MEIP after complete", "claim when idle"};
    for (int i = 0; i < 12; i++)
        if (i != 5 && i != 6)
            put_kv(names[i], r[i]);
    return 0;
}
