/* Memory-bound benchmark: a 32 MiB array walked with a page-sized stride, then a random
 * pointer chase over it (a permutation cycle), ROUNDS times.  Stresses the data TLB, the
 * slow path and the host's caches rather than the decoder. */
#include <stdint.h>

#include "bench_io.h"

#ifndef ROUNDS
#define ROUNDS 6
#endif
#define WORDS (4u << 20) /* 32 MiB of uint64_t */

static uint64_t mem[WORDS];

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(void)
{
    uint64_t seed = 88172645463325252ull, sum = 0;
    /* a single cycle through every 8th word (Sattolo's shuffle), stored as indices */
    const uint32_t n = WORDS / 8;
    for (uint32_t i = 0; i < n; i++)
        mem[i * 8] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(next_rand(&seed) % i);
        uint64_t t = mem[i * 8];
        mem[i * 8] = mem[j * 8];
        mem[j * 8] = t;
    }
    for (int r = 0; r < ROUNDS; r++) {
        for (uint32_t off = 0; off < 512; off += 8) /* page stride sweeps */
            for (uint32_t i = off + 1; i < WORDS; i += 512)
                mem[i] += i ^ (uint32_t)r;
        uint64_t p = 0;
        for (uint32_t k = 0; k < n; k++) { /* pointer chase */
            p = mem[p * 8];
            sum += p;
        }
    }
    bench_puts("bench_mem checksum ");
    bench_puthex(sum);
    bench_putc('\n');
    return 0;
}
