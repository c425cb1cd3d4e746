/* Console output for the bare-metal benchmarks: the 16550 UART of QEMU virt / mtemu. */
#ifndef BENCH_IO_H
#define BENCH_IO_H
#include <stdint.h>

static inline void bench_putc(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)0x10000000;
    while (!(uart[5] & 0x20))
        ;
    uart[0] = (uint8_t)c;
}

static inline void bench_puts(const char *s)
{
    while (*s)
        bench_putc(*s++);
}

static inline void bench_puthex(uint64_t v)
{
    bench_puts("0x");
    for (int i = 60; i >= 0; i -= 4)
        bench_putc("0123456789abcdef"[(v >> i) & 15]);
}
#endif
