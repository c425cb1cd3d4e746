/* diff.c: console, exit and the few libc functions the compiler may call. */
#include "diff.h"

void putch(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
    while (!(uart[5] & 0x20))   /* LSR.THRE: the transmit holding register is empty */
        ;
    uart[0] = (uint8_t)c;
}

void puts_(const char *s)
{
    while (*s)
        putch(*s++);
}

void put_udec(uint64_t v)
{
    char buf[24];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        putch(buf[--n]);
}

void put_dec(int64_t v)
{
    if (v < 0) {
        putch('-');
        put_udec(-(uint64_t)v);
    } else {
        put_udec((uint64_t)v);
    }
}

void put_hex(uint64_t v)
{
    puts_("0x");
    for (int i = 60; i >= 0; i -= 4)
        putch("0123456789abcdef"[(v >> i) & 15]);
}

void put_kv(const char *key, uint64_t v)
{
    puts_(key);
    putch('=');
    put_hex(v);
    putch('\n');
}

void diff_exit(int code)
{
    volatile uint32_t *fin = (volatile uint32_t *)FINISHER_BASE;
    *fin = code == 0 ? 0x5555u : ((uint32_t)code << 16) | 0x3333u;
    for (;;)
        ;
}

__attribute__((weak)) void diff_trap(uint64_t *frame)
{
    puts_("unexpected trap: mcause=");
    put_hex(csr_read(mcause));
    puts_(" mepc=");
    put_hex(frame[0]);
    putch('\n');
    diff_exit(99);
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *p = d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++)
        if (*p != *q)
            return *p - *q;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}
