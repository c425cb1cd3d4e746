/* arith: integer arithmetic digests (RV64IM, signed/unsigned, 32-bit W forms, the 128-bit
 * product's high half, division edge cases) over a deterministic pseudo-random stream; every
 * line is compared with QEMU's.  Known values are checked too, so QEMU itself is validated. */
#include "diff.h"

static uint64_t x = 0x243f6a8885a308d3ull;   /* xorshift64* state */
static uint64_t rnd(void)
{
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545f4914f6cdd1dull;
}
static uint64_t popcount(uint64_t v)
{
    uint64_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}
static uint64_t clz(uint64_t v)
{
    uint64_t n = 0;
    for (uint64_t bit = 1ull << 63; bit && !(v & bit); bit >>= 1)
        n++;
    return n;
}
static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

/* interesting operands: extremes mixed into the random stream */
static uint64_t operand(int i)
{
    static const uint64_t special[] = {0, 1, 2, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                       0xffffffffffffffffull, 0xffffffffull, 0x80000000ull,
                                       0x7fffffffull, 0x100000000ull, 0xfffffffffffffffeull};
    uint64_t r = rnd();
    if (i % 3 == 0)
        return special[r % (sizeof special / sizeof special[0])];
    if (i % 3 == 1)
        return r >> (r & 63);
    return r;
}

int main(void)
{
    uint64_t h[12] = {0};
    for (int i = 0; i < 20000; i++) {
        uint64_t a = operand(i), b = operand(i + 1);
        int64_t sa = (int64_t)a, sb = (int64_t)b;
        int32_t wa = (int32_t)a, wb = (int32_t)b;
        h[0] = mix(h[0], a + b);
        h[0] = mix(h[0], a - b);
        h[1] = mix(h[1], (a & b) ^ (a | ~b));
        h[2] = mix(h[2], (uint64_t)(sa < sb) + 2 * (a < b));
        h[3] = mix(h[3], a << (b & 63));
        h[3] = mix(h[3], a >> (b & 63));
        h[3] = mix(h[3], (uint64_t)(sa >> (b & 63)));
        h[4] = mix(h[4], (uint64_t)(int64_t)(wa + wb));
        h[4] = mix(h[4], (uint64_t)(int64_t)(int32_t)((uint32_t)wa << (b & 31)));
        h[4] = mix(h[4], (uint64_t)(int64_t)(int32_t)((uint32_t)wa >> (b & 31)));
        h[4] = mix(h[4], (uint64_t)(int64_t)(wa >> (b & 31)));
        h[5] = mix(h[5], a * b);
        h[5] = mix(h[5], (uint64_t)(int64_t)(wa * (int64_t)wb));
        h[6] = mix(h[6], (uint64_t)(((__int128)sa * sb) >> 64));
        h[6] = mix(h[6], (uint64_t)(((unsigned __int128)a * b) >> 64));
        h[6] = mix(h[6], (uint64_t)(((__int128)sa * (unsigned __int128)b) >> 64));
        if (b != 0) {
            h[7] = mix(h[7], a / b);
            h[7] = mix(h[7], a % b);
            if (!(sa == INT64_MIN && sb == -1)) {
                h[8] = mix(h[8], (uint64_t)(sa / sb));
                h[8] = mix(h[8], (uint64_t)(sa % sb));
            }
        }
        if ((uint32_t)b != 0) {
            h[9] = mix(h[9], (uint64_t)(int64_t)(int32_t)((uint32_t)a / (uint32_t)b));
            if (!(wa == INT32_MIN && wb == -1))
                h[9] = mix(h[9], (uint64_t)(int64_t)(wa % wb));
        }
        h[10] = mix(h[10], popcount(a) + clz(a | 1) * 64u);
        h[11] = mix(h[11], (a ^ (a >> 7)) + (b << 3) - (a >> 60));
    }
    for (int i = 0; i < 12; i++) {
        puts_("h");
        put_dec(i);
        put_kv("", h[i]);
    }
    /* known values, so the reference itself is checked */
    volatile int64_t m = INT64_MIN, n1 = -1, z = 0;
    int bad = 0;
    bad |= (m / n1 != INT64_MIN) << 0;
    bad |= (m % n1 != 0) << 1;
    int64_t q, r;
    __asm__ volatile("div %0, %1, %2" : "=r"(q) : "r"(z), "r"(z));
    bad |= (q != -1) << 2;
    __asm__ volatile("rem %0, %1, %2" : "=r"(r) : "r"((int64_t)7), "r"(z));
    bad |= (r != 7) << 3;
    volatile uint64_t big = 0xffffffffffffffffull;
    bad |= ((uint64_t)(((unsigned __int128)big * big) >> 64) != 0xfffffffffffffffeull) << 4;
    put_kv("bad", (uint64_t)bad);
    return bad;
}
