/* atomics: LR/SC loops and every AMO (W and D) through GCC's builtins, with the old values
 * and final memory printed. */
#include "diff.h"

static volatile uint64_t d64[4];
static volatile uint32_t d32[4];

int main(void)
{
    uint64_t h = 0;
    d64[0] = 5;
    d32[0] = 0x80000000u;
    for (int i = 0; i < 1000; i++) {
        h = h * 31 + __atomic_fetch_add(&d64[0], (uint64_t)i * 0x9e3779b97f4a7c15ull, __ATOMIC_SEQ_CST);
        h = h * 31 + __atomic_fetch_xor(&d64[1], (uint64_t)i << (i & 63), __ATOMIC_ACQUIRE);
        h = h * 31 + __atomic_fetch_or(&d64[2], 1ull << (i & 63), __ATOMIC_RELEASE);
        h = h * 31 + __atomic_fetch_and(&d64[2], ~(1ull << ((i * 7) & 63)), __ATOMIC_RELAXED);
        h = h * 31 + __atomic_exchange_n(&d64[3], h, __ATOMIC_SEQ_CST);
        h = h * 31 + __atomic_fetch_add(&d32[0], (uint32_t)i * 2654435761u, __ATOMIC_SEQ_CST);
        h = h * 31 + __atomic_fetch_sub(&d32[1], (uint32_t)i, __ATOMIC_SEQ_CST);
        uint32_t exp = d32[2];
        __atomic_compare_exchange_n(&d32[2], &exp, exp * 3 + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        uint64_t e64 = d64[1];
        h = h * 31 + __atomic_compare_exchange_n(&d64[1], &e64, e64 + 7, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
    /* signed and unsigned min/max (no builtin: inline AMOs) */
    int64_t v = 0, old;
    volatile int64_t m = -5;
    __asm__ volatile("amomin.d %0, %1, (%2)" : "=r"(old) : "r"((int64_t)-7), "r"(&m) : "memory");
    h = h * 31 + (uint64_t)old + (uint64_t)m;
    __asm__ volatile("amomaxu.d %0, %1, (%2)" : "=r"(old) : "r"((int64_t)3), "r"(&m) : "memory");
    h = h * 31 + (uint64_t)old + (uint64_t)m;
    volatile int32_t w = 7;
    int32_t o32;
    __asm__ volatile("amomax.w %0, %1, (%2)" : "=r"(o32) : "r"((int32_t)-1), "r"(&w) : "memory");
    h = h * 31 + (uint64_t)(int64_t)o32 + (uint64_t)(int64_t)w;
    __asm__ volatile("amominu.w %0, %1, (%2)" : "=r"(o32) : "r"((int32_t)-1), "r"(&w) : "memory");
    h = h * 31 + (uint64_t)(int64_t)o32 + (uint64_t)(int64_t)w;
    (void)v;
    put_kv("hash", h);
    for (int i = 0; i < 4; i++)
        put_kv("d64", d64[i]);
    for (int i = 0; i < 4; i++)
        put_kv("d32", d32[i]);
    return 0;
}
