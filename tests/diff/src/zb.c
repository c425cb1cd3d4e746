/* zb: the bit-manipulation extensions Zba/Zbb/Zbc/Zbs against QEMU.  Built with
 * -march=rv64imac_zba_zbb_zbc_zbs -O2 (tests/diff/module.mk), so GCC 12 itself emits them for
 * ordinary code (part 1: popcounts, rotates, clz/ctz, min/max, sign/zero extension, byte swaps,
 * single-bit operations, unsigned-int array indexing); part 2 runs 400 generated blocks of 48
 * random Zb* and base instructions (every Zba/Zbb/Zbc/Zbs instruction but ctzw, random registers
 * among a0-a7/t0-t6 incl. x0, random shift amounts) on random and extreme register values; part 3
 * executes 30 000 random words of the OP, OP-32, OP-IMM and OP-IMM-32 spaces around the Zb*
 * encodings (funct7/funct3/funct12 fields drawn from the Zb* ones and their neighbours), counting
 * which are illegal, so every decoding difference from QEMU shows.  Digests are printed.
 * ctzw stays out of parts 2 and 3's operands that could have a zero low word: QEMU 7.2 counts
 * past bit 31 then (tests/isa/src/zbb_unary.S documents it). */
#include "diff.h"

static uint64_t rs = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) { return xorshift64(&rs); }
static unsigned pick(unsigned n) { return (unsigned)(rnd() % n); }
static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

/* ---- part 1: what the compiler makes of ordinary code ---- */
#define N 512
static uint64_t a64[N];
static uint32_t a32[N];
static uint16_t a16[N];
static int64_t s64[N];

__attribute__((noinline)) static uint64_t rotl(uint64_t x, unsigned r) { return (x << (r & 63)) | (x >> (-r & 63)); }
__attribute__((noinline)) static uint32_t rotr32(uint32_t x, unsigned r) { return (x >> (r & 31)) | (x << (-r & 31)); }
__attribute__((noinline)) static uint64_t hash_mix(uint64_t h)
{
    h ^= rotl(h, 25) ^ rotl(h, 47);
    h *= 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}
/* indices are unsigned int: the address arithmetic is sh1add.uw / sh2add.uw / sh3add.uw / add.uw */
__attribute__((noinline)) static uint64_t gather(const uint64_t *p64, const uint32_t *p32, const uint16_t *p16,
                                                 const uint8_t *p8, unsigned i)
{
    return p64[i] + p32[i] + p16[i] + p8[i];
}
__attribute__((noinline)) static uint64_t set_bits_sum(uint64_t x)
{
    uint64_t s = 0;
    while (x) {
        s += (uint64_t)__builtin_ctzll(x) * 3 + (uint64_t)__builtin_clzll(x);
        x &= x - 1;
    }
    return s;
}
__attribute__((noinline)) static uint64_t minmax(const int64_t *s, const uint64_t *u, int n)
{
    int64_t lo = s[0], hi = s[0];
    uint64_t ulo = u[0], uhi = u[0];
    for (int i = 1; i < n; i++) {
        lo = s[i] < lo ? s[i] : lo;
        hi = s[i] > hi ? s[i] : hi;
        ulo = u[i] < ulo ? u[i] : ulo;
        uhi = u[i] > uhi ? u[i] : uhi;
    }
    return (uint64_t)lo ^ rotl((uint64_t)hi, 13) ^ rotl(ulo, 29) ^ rotl(uhi, 41);
}
__attribute__((noinline)) static uint64_t ext(uint64_t x)
{
    return (uint64_t)(int64_t)(int8_t)x + (uint64_t)(int64_t)(int16_t)(x >> 8) + (uint16_t)(x >> 24) +
           (uint32_t)(x >> 3);
}
__attribute__((noinline)) static uint64_t bits(uint64_t x, unsigned i)
{
    return ((x | (1ull << 40)) & ~(1ull << (i & 63))) ^ (1ull << ((i + 7) & 63)) ^ ((x >> (i & 63)) & 1) ^
           (x & ~a64[i & (N - 1)]) ^ ~(x ^ a64[(i + 1) & (N - 1)]) ^ (x | ~a64[(i + 2) & (N - 1)]);
}
static uint64_t clmul(uint64_t a, uint64_t b) { uint64_t r; __asm__("clmul %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint64_t clmulh(uint64_t a, uint64_t b) { uint64_t r; __asm__("clmulh %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint64_t clmulr(uint64_t a, uint64_t b) { uint64_t r; __asm__("clmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint64_t orc_b(uint64_t a) { uint64_t r; __asm__("orc.b %0, %1" : "=r"(r) : "r"(a)); return r; }
/* strlen a word at a time: orc.b finds the zero byte, ctz its position */
__attribute__((noinline)) static uint64_t wstrlen(const char *s)
{
    const uint64_t *w = (const uint64_t *)s;
    for (uint64_t n = 0;; n += 8, w++) {
        uint64_t z = ~orc_b(*w);
        if (z)
            return n + (uint64_t)__builtin_ctzll(z) / 8;
    }
}

static void part1(void)
{
    for (int i = 0; i < N; i++) {
        a64[i] = rnd();
        a32[i] = (uint32_t)rnd();
        a16[i] = (uint16_t)rnd();
        s64[i] = (int64_t)rnd() >> pick(64);
    }
    uint64_t pop = 0, rot = 0, gat = 0, bsum = 0, ex = 0, bi = 0, sw = 0, cl = 0;
    for (int i = 0; i < N; i++) {
        pop += (uint64_t)__builtin_popcountll(a64[i] ^ a64[(i + 1) & (N - 1)]) + (uint64_t)__builtin_popcount(a32[i]);
        rot = hash_mix(rot ^ a64[i]) + rotr32(a32[i], (unsigned)i);
        gat += gather(a64, a32, a16, (const uint8_t *)a64, (unsigned)(a32[i] % N));
        bsum += set_bits_sum(a64[i] & (a64[i] >> 7));
        ex = ex * 31 + ext(a64[i]);
        bi = mix(bi, bits(a64[i], a32[i]));
        sw = mix(sw, __builtin_bswap64(a64[i]) + __builtin_bswap32(a32[i]));
        cl = mix(cl, clmul(a64[i], a64[(i + 3) & (N - 1)]) ^ rotl(clmulh(a64[i], a32[i]), 17) ^ clmulr(a64[i], a64[i]));
    }
    put_kv("popcount", pop);
    put_kv("rotate hash", rot);
    put_kv("gather", gat);
    put_kv("set bits", bsum);
    put_kv("min/max", minmax(s64, a64, N));
    put_kv("extensions", ex);
    put_kv("single bits", bi);
    put_kv("byte swaps", sw);
    put_kv("carry-less", cl);
    static char str[64] __attribute__((aligned(8))) = "bit-manipulation: Zba Zbb Zbc Zbs";
    uint64_t lens = 0;
    for (int k = 0; k < 40; k++) {
        str[k] = 0;
        lens = lens * 41 + wstrlen(str);
        str[k] = (char)('a' + k % 26);
    }
    put_kv("strlen", lens);
    /* GCC's own clz/ctz of zero-guarded values, and the 32-bit forms */
    uint64_t cz = 0;
    for (int i = 0; i < N; i++) {
        uint32_t v = a32[i] >> pick(32);
        cz = cz * 67 + (v ? (unsigned)__builtin_clz(v) : 32u) + (v ? (unsigned)__builtin_ctz(v) * 7u : 0u);
    }
    put_kv("clz/ctz 32", cz);
}

/* ---- part 2: random instruction blocks ---- */
#define BLOCKS 400
#define LEN 48
static uint32_t code[LEN + 40] __attribute__((aligned(64)));
static uint64_t regs[12];                     /* x10..x17, x28..x31 */
static const unsigned reg_of[12] = {10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31};
static int pos;
static void emit(uint32_t w) { code[pos++] = w; }
static unsigned reg(void) { unsigned r = pick(13); return r == 12 ? 0 : reg_of[r]; }   /* x0 too */
static uint32_t rtype(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

/* (funct7, funct3, opcode) of the R-type Zb* instructions and a few base ones around them */
static const uint16_t rr_ops[][3] = {
    {0x04, 0, 0x3b}, {0x10, 2, 0x33}, {0x10, 4, 0x33}, {0x10, 6, 0x33}, {0x10, 2, 0x3b}, {0x10, 4, 0x3b},
    {0x10, 6, 0x3b}, {0x20, 7, 0x33}, {0x20, 6, 0x33}, {0x20, 4, 0x33}, {0x05, 6, 0x33}, {0x05, 7, 0x33},
    {0x05, 4, 0x33}, {0x05, 5, 0x33}, {0x30, 1, 0x33}, {0x30, 5, 0x33}, {0x30, 1, 0x3b}, {0x30, 5, 0x3b},
    {0x05, 1, 0x33}, {0x05, 3, 0x33}, {0x05, 2, 0x33}, {0x24, 1, 0x33}, {0x24, 5, 0x33}, {0x34, 1, 0x33},
    {0x14, 1, 0x33}, {0x00, 0, 0x33}, {0x20, 0, 0x33}, {0x00, 1, 0x3b}, {0x01, 0, 0x33},
};
/* I-type unary Zbb (funct12, opcode); ctzw (0x601, OP-IMM-32) left out, see the top */
static const uint16_t un_ops[][2] = {
    {0x600, 0x13}, {0x600, 0x1b}, {0x601, 0x13}, {0x602, 0x13}, {0x602, 0x1b}, {0x604, 0x13},
    {0x605, 0x13}, {0x287, 0x13}, {0x6b8, 0x13},
};

static void gen_one(void)
{
    unsigned rd = reg(), rs1 = reg(), rs2 = reg(), k = pick(10);
    if (k < 5) {
        unsigned i = pick(sizeof rr_ops / sizeof rr_ops[0]);
        emit(rtype(rr_ops[i][0], rs2, rs1, rr_ops[i][1], rd, rr_ops[i][2]));
    } else if (k < 7) {
        unsigned i = pick(sizeof un_ops / sizeof un_ops[0]);
        unsigned f3 = un_ops[i][0] == 0x287 || un_ops[i][0] == 0x6b8 ? 5 : 1;
        emit((uint32_t)un_ops[i][0] << 20 | rs1 << 15 | f3 << 12 | rd << 7 | un_ops[i][1]);
    } else if (k == 7) { /* zext.h */
        emit(rtype(0x04, 0, rs1, 4, rd, 0x3b));
    } else { /* shifts by immediate: slli.uw rori roriw bclri bexti binvi bseti (and slli) */
        static const uint16_t f6[][3] = {{0x02, 1, 0x1b}, {0x18, 5, 0x13}, {0x30, 5, 0x1b}, {0x12, 1, 0x13},
                                          {0x12, 5, 0x13}, {0x1a, 1, 0x13}, {0x0a, 1, 0x13}, {0x00, 1, 0x13}};
        unsigned i = pick(8), sh = pick(8) == 0 ? (pick(2) ? 0 : 63) : pick(64);
        if (f6[i][2] == 0x1b && f6[i][0] == 0x30) /* roriw: funct7, 5-bit shamt */
            emit(rtype(0x30, sh & 31, rs1, 5, rd, 0x1b));
        else
            emit((uint32_t)f6[i][0] << 26 | sh << 20 | rs1 << 15 | (uint32_t)f6[i][1] << 12 | rd << 7 | f6[i][2]);
    }
}

static void part2(void)
{
    static const uint64_t special[] = {0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                       0xffffffffull, 0x80000000ull, 0x7fffffffull, 0x00000000ffff0000ull,
                                       0xffffffff00000001ull, 0x0101010101010101ull};
    uint64_t total = 0;
    for (int b = 0; b < BLOCKS; b++) {
        pos = 0;
        emit(0x00050293); /* mv t0, a0 */
        for (int r = 0; r < 12; r++)
            emit((uint32_t)(r * 8) << 20 | 5u << 15 | 3u << 12 | reg_of[r] << 7 | 0x03); /* ld */
        for (int i = 0; i < LEN; i++)
            gen_one();
        for (int r = 0; r < 12; r++) {
            uint32_t off = (uint32_t)(r * 8);
            emit((off >> 5) << 25 | reg_of[r] << 20 | 5u << 15 | 3u << 12 | (off & 31) << 7 | 0x23); /* sd */
        }
        emit(0x00008067); /* ret */
        __asm__ volatile("fence.i" ::: "memory");
        for (int r = 0; r < 12; r++)
            regs[r] = pick(4) == 0 ? special[pick(sizeof special / sizeof special[0])] : rnd();
        ((void (*)(uint64_t *))(uintptr_t)code)(regs);
        uint64_t h = 0xcbf29ce484222325ull;
        for (int r = 0; r < 12; r++)
            h = mix(h, regs[r]);
        total = total * 31 + h;
        if (b % 100 == 99) {
            puts_("blocks ");
            put_dec(b + 1);
            put_kv(" hash", total);
        }
    }
}

/* ---- part 3: random words around the Zb* encodings, legal or not ---- */
static volatile int illegal_seen;
void diff_trap(uint64_t *frame)
{
    if (csr_read(mcause) != 2) {
        puts_("unexpected trap\n");
        diff_exit(97);
    }
    illegal_seen = 1;
    frame[0] += 4;
}

static void part3(void)
{
    static const uint8_t f7s[] = {0x00, 0x01, 0x04, 0x05, 0x10, 0x14, 0x20, 0x24, 0x30, 0x34,
                                  0x06, 0x11, 0x15, 0x21, 0x25, 0x31, 0x35, 0x08, 0x28, 0x38};
    static const uint8_t opcs[] = {0x33, 0x3b, 0x13, 0x1b};
    uint64_t h = 0, illegal = 0;
    for (int n = 0; n < 30000;) {
        unsigned opc = opcs[pick(4)], f3 = pick(8), f7 = f7s[pick(sizeof f7s)];
        /* R-type: rs2 is a2 or x0 (zext.h vs packw); I-type: the rs2 field is part of funct12 or
         * shamt, small ones most often (the unary space) */
        unsigned rs2 = opc == 0x33 || opc == 0x3b ? (pick(4) ? 12 : 0) : pick(3) ? pick(32) : pick(8);
        if ((opc == 0x13 || opc == 0x1b) && f3 != 1 && f3 != 5)
            continue; /* ADDI & co. say nothing about Zb* */
        uint32_t w = rtype(f7, rs2, 11, f3, 10, opc);  /* a0 = f(a1, a2) */
        if (w == rtype(0x30, 1, 11, 1, 10, 0x1b))
            continue; /* ctzw (see the top) */
        code[0] = w;
        code[1] = 0x00008067; /* ret */
        __asm__ volatile("fence.i" ::: "memory");
        uint64_t x = rnd(), y = rnd() & (pick(2) ? 63 : ~0ull), out;
        illegal_seen = 0;
        register uint64_t a0 __asm__("a0") = 0x5a5a5a5a5a5a5a5aull;
        register uint64_t a1 __asm__("a1") = x;
        register uint64_t a2 __asm__("a2") = y;
        __asm__ volatile("jalr ra, 0(%3)"
                         : "+r"(a0), "+r"(a1), "+r"(a2)
                         : "r"(code)
                         : "ra", "memory");
        out = a0;
        illegal += illegal_seen;
        n++;
        h = mix(h, w);
        h = mix(h, illegal_seen ? 0x111 : out);
        if (n % 10000 == 0) {
            puts_("words ");
            put_dec(n);
            puts_(" illegal ");
            put_dec((int64_t)illegal);
            put_kv(" hash", h);
        }
    }
}

int main(void)
{
    part1();
    part2();
    part3();
    return 0;
}
