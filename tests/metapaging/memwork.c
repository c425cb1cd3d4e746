/* A memory-bound, self-checking workload for meta-paging tests and benchmarks.
 *
 * Over a work area of WS_KIB KiB it runs four phases: a sequential fill, random read-modify-
 * writes, a strided read scan (one access per page and a bit, the worst case for small
 * metapages), and a moving hot window with cold misses (locality like a real program's).  It
 * keeps a running sum of the area's contents as it writes, and at the end sweeps the area and
 * compares: any byte the meta-pager lost or corrupted shows up as "MISMATCH" and exit code 3.
 * The console line carries the sum, so the equality test also compares data, not just exits.
 *
 * Bare metal, virt map: ns16550a UART at 0x1000_0000, SiFive test finisher at 0x10_0000. */
#include <stdint.h>

#ifndef WS_KIB
#define WS_KIB 2048
#endif
#ifndef OPS
#define OPS 50000
#endif
#ifndef NAME
#define NAME "memwork"
#endif

#define UART ((volatile uint8_t *)0x10000000)
#define FINISHER ((volatile uint32_t *)0x100000)

extern uint64_t __work[];

static void putc_uart(char c)
{
    while (!(UART[5] & 0x20))
        ;
    UART[0] = (uint8_t)c;
}

static void puts_uart(const char *s)
{
    while (*s)
        putc_uart(*s++);
}

static void puthex(uint64_t v)
{
    for (int i = 60; i >= 0; i -= 4)
        putc_uart("0123456789abcdef"[(v >> i) & 15]);
}

static void putdec(uint64_t v)
{
    char buf[24];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        putc_uart(buf[--n]);
}

void finish(int code);
void finish(int code)
{
    *FINISHER = code == 0 ? 0x5555u : ((uint32_t)code << 16) | 0x3333u;
    for (;;)
        ;
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 17;
}

int main(void)
{
    const uint64_t words = (uint64_t)WS_KIB * 1024 / 8;
    volatile uint64_t *x = __work;
    uint64_t sum = 0, seed = 0x6d657461;

    for (uint64_t i = 0; i < words; i++) { /* phase 1: sequential fill */
        uint64_t v = i * 0x9e3779b97f4a7c15u;
        x[i] = v;
        sum += v;
    }
    for (uint64_t i = 0; i < OPS; i++) { /* phase 2: random read-modify-write */
        uint64_t k = next(&seed) % words;
        uint64_t old = x[k], v = old * 3 + i;
        x[k] = v;
        sum += v - old;
    }
    uint64_t scan = 0; /* phase 3: strided reads, a page and a line apart */
    for (uint64_t pass = 0; pass < 2; pass++)
        for (uint64_t i = pass; i < words; i += 4096 / 8 + 8)
            scan ^= x[i];
    uint64_t hot = 0; /* phase 4: a moving hot window (64 KiB) with 1 in 16 cold accesses */
    for (uint64_t i = 0; i < OPS; i++) {
        uint64_t r = next(&seed);
        if ((i & 4095) == 0)
            hot = r % words;
        uint64_t k = (r & 15) ? (hot + (r >> 8) % 8192) % words : (r >> 8) % words;
        uint64_t old = x[k], v = old ^ (r << 1);
        x[k] = v;
        sum += v - old;
    }
    uint64_t check = 0;
    for (uint64_t i = 0; i < words; i++)
        check += x[i];
    puts_uart(NAME " ws=");
    putdec(WS_KIB);
    puts_uart("KiB ops=");
    putdec(OPS);
    puts_uart(" sum=");
    puthex(check);
    puts_uart(" scan=");
    puthex(scan);
    if (check != sum) {
        puts_uart(" MISMATCH expected ");
        puthex(sum);
        puts_uart("\n");
        return 3;
    }
    puts_uart(" ok\n");
    return 0;
}
