#include "console.h"

#include "vmm_defs.h"

enum { UART_RBR = 0, UART_THR = 0, UART_LSR = 5, LSR_DR = 0x01, LSR_THRE = 0x20 };

static volatile uint8_t *const uart = (volatile uint8_t *)UART_BASE;

void con_putc(char c)
{
    while (!(uart[UART_LSR] & LSR_THRE))
        ;
    uart[UART_THR] = (uint8_t)c;
}

int con_getc(void) { return (uart[UART_LSR] & LSR_DR) ? uart[UART_RBR] : -1; }

void con_puts(const char *s)
{
    while (*s)
        con_putc(*s++);
}

void con_hex(uint64_t v)
{
    con_puts("0x");
    for (int i = 60; i >= 0; i -= 4)
        con_putc("0123456789abcdef"[(v >> i) & 0xf]);
}

void con_dec(uint64_t v)
{
    char buf[24];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        con_putc(buf[--n]);
}

void vmm_exit(unsigned code)
{
    volatile uint32_t *finisher = (volatile uint32_t *)FINISHER_BASE;
    *finisher = code == 0 ? 0x5555u : ((code & 0xffffu) << 16) | 0x3333u;
    for (;;)
        ;
}
