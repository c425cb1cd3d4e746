/* Text output shared by the hypervisor (UART) and the guest kernel (SBI putchar): the two
 * worlds print through different channels, so the formatting takes the channel's putc. */
#ifndef HYP_FMT_H
#define HYP_FMT_H

#include <stdint.h>

typedef void (*fmt_putc_fn)(char c);

static inline void fmt_puts(fmt_putc_fn putc, const char *s)
{
    while (*s)
        putc(*s++);
}

/* "0x" and 16 hex digits. */
static inline void fmt_hex(fmt_putc_fn putc, uint64_t v)
{
    fmt_puts(putc, "0x");
    for (int i = 60; i >= 0; i -= 4)
        putc("0123456789abcdef"[(v >> i) & 0xf]);
}

static inline void fmt_dec(fmt_putc_fn putc, uint64_t v)
{
    char buf[24];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        putc(buf[--n]);
}

#endif
