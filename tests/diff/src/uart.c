/* uart: the 16550 UART's registers as a driver sees them (Linux's 8250 driver, OpenSBI,
 * U-Boot): reset values of IER/LCR/LSR, the scratch register, the divisor latch behind
 * LCR.DLAB (with THR/IER back after DLAB is cleared), FIFO enable visible in IIR, the THR-empty
 * interrupt identification when IER enables it.  Everything is read first and printed only when
 * the UART is back in its normal mode (a byte "printed" while DLAB = 1 would go to the divisor
 * latch).  Not compared: MCR's reset value (QEMU sets OUT2 for PC compatibility, a 16550
 * resets it to 0) and loopback mode. */
#include "diff.h"

#define RBR 0
#define THR 0
#define DLL 0
#define IER 1
#define DLM 1
#define IIR 2
#define FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define MSR 6
#define SCR 7

static volatile uint8_t *const uart = (volatile uint8_t *)UART_BASE;

static void show(const char *what, unsigned v)
{
    puts_(what);
    puts_("=0x");
    putch("0123456789abcdef"[(v >> 4) & 15]);
    putch("0123456789abcdef"[v & 15]);
    putch('\n');
}

int main(void)
{
    unsigned v[16];
    /* wait until everything printed so far has left (THR empty and shift register empty) */
    while ((uart[LSR] & 0x60) != 0x60)
        ;
    v[0] = uart[IER];
    v[1] = uart[LCR];
    v[2] = uart[LSR];
    uart[SCR] = 0x5a;
    v[3] = uart[SCR];
    uart[SCR] = 0xa5;
    v[4] = uart[SCR];
    /* the divisor latch */
    uart[LCR] = 0x80;
    uart[DLL] = 0x0c;
    uart[DLM] = 0x01;
    v[5] = uart[DLL];
    v[6] = uart[DLM];
    v[7] = uart[LCR];
    uart[LCR] = 0x03;                       /* 8N1, DLAB off */
    v[8] = uart[LCR];
    v[9] = uart[IER];
    /* FIFOs on: IIR bits 7:6 */
    uart[FCR] = 0x07;
    v[10] = uart[IIR] & 0xc0;
    /* THR-empty interrupt: enable it, IIR says "THR empty" (0x2); disabled: "none" (0x1) */
    uart[IER] = 0x02;
    v[11] = uart[IIR] & 0x0f;
    uart[IER] = 0x00;
    v[12] = uart[IIR] & 0x0f;
    v[13] = uart[LSR] & 0x61;
    show("IER", v[0]);
    show("LCR", v[1]);
    show("LSR", v[2]);
    show("SCR after 0x5a", v[3]);
    show("SCR after 0xa5", v[4]);
    show("DLL", v[5]);
    show("DLM", v[6]);
    show("LCR with DLAB", v[7]);
    show("LCR 8N1", v[8]);
    show("IER with DLAB off", v[9]);
    show("IIR FIFOs on", v[10]);
    show("IIR with ETBEI", v[11]);
    show("IIR without", v[12]);
    show("LSR idle", v[13]);
    puts_("done\n");
    return 0;
}
