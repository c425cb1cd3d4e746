/* The guest's user program (VU-mode): memory work over USER_DATA_PAGES pages, whose guest-
 * physical pages the hypervisor maps on first touch.  It lives in its own page and uses no
 * data of the kernel (no string constants): only its stack, its data pages and system calls. */
#include <stdint.h>

#include "hyp_defs.h"

static long syscall2(long n, long a0, long a1)
{
    register long r_a0 __asm__("a0") = a0, r_a1 __asm__("a1") = a1, r_a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a7) : "memory");
    return r_a0;
}

long user_main(void)
{
    volatile uint64_t *data = (volatile uint64_t *)USER_DATA_VA;
    const unsigned n = USER_DATA_PAGES * 512;
    syscall2(SYS_PUTCHAR, 'U', 0);
    syscall2(SYS_PUTCHAR, '\n', 0);
    for (unsigned i = 0; i < n; i++)
        data[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
    for (unsigned pass = 0; pass < 4; pass++)
        for (unsigned i = 0; i < n; i++)
            data[i] ^= data[(i * 7 + 3 + pass) % n] + i;
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i += 3)
        sum += data[i] >> 7;
    syscall2(SYS_REPORT, 1, (long)(sum & 0xffffffff));
    syscall2(SYS_REPORT, 2, (long)n);
    return (long)(sum % 251);
}
