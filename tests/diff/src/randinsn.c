/* randinsn: random instruction streams.  A deterministic generator writes blocks of 64 random
 * RV64IMC instructions (every OP, OP-32, OP-IMM, OP-IMM-32, LUI, AUIPC, the compressed integer
 * arithmetic forms, and naturally aligned loads and stores of every width, 32-bit and
 * sp-relative compressed, into a 4 KiB scratch area that sp points into; x0 included as source
 * and destination, random and extreme immediates and shift amounts), runs each block on random
 * register and memory values, and prints a hash of the 29 registers it may change and of the
 * scratch area.  Any decoding, arithmetic or memory difference from QEMU changes the hash. */
#include "diff.h"

#define BLOCKS 2000
#define LEN 64
static uint16_t code[2 * LEN + 8] __attribute__((aligned(64)));
uint64_t g_state[32];                  /* x0..x31; x2 (sp) and x31 are not written by random code */
uint64_t g_save[16];
uint64_t g_scratch[512] __attribute__((aligned(4096)));   /* sp = g_scratch + 2048 bytes */
extern void run_block(uint16_t *code);
extern char run_block_ret[];

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return xorshift64(&rs); }
static unsigned pick(unsigned n) { return (unsigned)(rnd() % n); }

/* registers random code may use: x0, x1, x3..x30 */
static unsigned reg(void)
{
    unsigned r = pick(30);                 /* 0..29 */
    return r == 0 ? 0 : (r == 1 ? 1 : r + 1);   /* 0, 1, 3..30 */
}
static unsigned reg_nz(void) { unsigned r; do r = reg(); while (r == 0); return r; }
static unsigned creg(void) { return 8 + pick(8); }   /* x8..x15 */

static int pos;
static void emit32(uint32_t w) { code[pos++] = (uint16_t)w; code[pos++] = (uint16_t)(w >> 16); }
static void emit16(uint16_t h) { code[pos++] = h; }

static uint32_t rtype(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static int32_t imm12(void)
{
    static const int32_t special[] = {0, 1, -1, 2047, -2048, 0x7f0, -0x7f1};
    return pick(3) == 0 ? special[pick(7)] : (int32_t)(pick(4096)) - 2048;
}

/* a naturally aligned offset from sp (which points into the middle of g_scratch) */
static int32_t mem_off(unsigned size) { return ((int32_t)pick(4096) - 2048) & -(int32_t)size; }

static void gen_mem(void)
{
    unsigned t = pick(6), rd = reg();
    if (t <= 1) {                                   /* load, any width, signed or not */
        static const unsigned f3[] = {0, 1, 2, 3, 4, 5, 6};
        static const unsigned sz[] = {1, 2, 4, 8, 1, 2, 4};
        unsigned i = pick(7);
        emit32((uint32_t)(mem_off(sz[i]) & 0xfff) << 20 | 2u << 15 | f3[i] << 12 | rd << 7 | 0x03);
    } else if (t <= 3) {                            /* store */
        unsigned w = pick(4), size = 1u << w;
        uint32_t imm = (uint32_t)mem_off(size) & 0xfff;
        emit32((imm >> 5) << 25 | rd << 20 | 2u << 15 | w << 12 | (imm & 0x1f) << 7 | 0x23);
    } else if (t == 4) {                            /* c.lwsp / c.ldsp (rd != 0) */
        rd = reg_nz();
        if (pick(2)) {
            unsigned u = pick(64) * 4;              /* 0..252 */
            emit16((uint16_t)(0x4002 | ((u >> 5) & 1) << 12 | rd << 7 | ((u >> 2) & 7) << 4 | ((u >> 6) & 3) << 2));
        } else {
            unsigned u = pick(64) * 8;              /* 0..504 */
            emit16((uint16_t)(0x6002 | ((u >> 5) & 1) << 12 | rd << 7 | ((u >> 3) & 3) << 5 | ((u >> 6) & 7) << 2));
        }
    } else {                                        /* c.swsp / c.sdsp */
        if (pick(2)) {
            unsigned u = pick(64) * 4;
            emit16((uint16_t)(0xc002 | ((u >> 2) & 0xf) << 9 | ((u >> 6) & 3) << 7 | rd << 2));
        } else {
            unsigned u = pick(64) * 8;
            emit16((uint16_t)(0xe002 | ((u >> 3) & 7) << 10 | ((u >> 6) & 7) << 7 | rd << 2));
        }
    }
}

static void gen_one(void)
{
    unsigned k = pick(17);
    if (k >= 14) {
        gen_mem();
        return;
    }
    unsigned rd = reg(), rs1 = reg(), rs2 = reg();
    switch (k) {
    case 0: case 1: {                           /* OP: base and M */
        static const unsigned f[][2] = {{0, 0}, {0x20, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5},
                                        {0x20, 5}, {0, 6}, {0, 7}, {1, 0}, {1, 1}, {1, 2}, {1, 3},
                                        {1, 4}, {1, 5}, {1, 6}, {1, 7}};
        unsigned i = pick(18);
        emit32(rtype(f[i][0], rs2, rs1, f[i][1], rd, 0x33));
        break;
    }
    case 2: {                                   /* OP-32 */
        static const unsigned f[][2] = {{0, 0}, {0x20, 0}, {0, 1}, {0, 5}, {0x20, 5}, {1, 0},
                                        {1, 4}, {1, 5}, {1, 6}, {1, 7}};
        unsigned i = pick(10);
        emit32(rtype(f[i][0], rs2, rs1, f[i][1], rd, 0x3b));
        break;
    }
    case 3: case 4: {                           /* OP-IMM arithmetic/logic */
        static const unsigned f3[] = {0, 2, 3, 4, 6, 7};
        emit32((uint32_t)(imm12() & 0xfff) << 20 | rs1 << 15 | f3[pick(6)] << 12 | rd << 7 | 0x13);
        break;
    }
    case 5: {                                   /* shifts by immediate */
        unsigned sh = pick(64), t = pick(3);
        uint32_t hi = t == 2 ? 0x400u : 0;          /* srai: imm[10] */
        emit32((hi | sh) << 20 | rs1 << 15 | (t == 0 ? 1u : 5u) << 12 | rd << 7 | 0x13);
        break;
    }
    case 6: {                                   /* OP-IMM-32 */
        unsigned t = pick(4);
        if (t == 0) {
            emit32((uint32_t)(imm12() & 0xfff) << 20 | rs1 << 15 | 0 << 12 | rd << 7 | 0x1b);
        } else {
            unsigned sh = pick(32);
            uint32_t hi = t == 3 ? 0x400u : 0;
            emit32((hi | sh) << 20 | rs1 << 15 | (t == 1 ? 1u : 5u) << 12 | rd << 7 | 0x1b);
        }
        break;
    }
    case 7:                                     /* LUI / AUIPC */
        emit32((uint32_t)(rnd() & 0xfffff) << 12 | rd << 7 | (pick(2) ? 0x37u : 0x17u));
        break;
    default: {                                  /* compressed (cases 8..13) */
        unsigned t = pick(12);
        int imm = (int)pick(64) - 32;
        unsigned cr = creg(), cr2 = creg();
        switch (t) {
        case 0: rd = reg_nz(); emit16((uint16_t)(0x0001 | ((imm & 0x20) << 7) | rd << 7 | (imm & 0x1f) << 2)); break;  /* c.addi */
        case 1: rd = reg_nz(); emit16((uint16_t)(0x2001 | ((imm & 0x20) << 7) | rd << 7 | (imm & 0x1f) << 2)); break;  /* c.addiw */
        case 2: rd = reg_nz(); emit16((uint16_t)(0x4001 | ((imm & 0x20) << 7) | rd << 7 | (imm & 0x1f) << 2)); break;  /* c.li */
        case 3: rd = reg_nz(); if (imm == 0) imm = 1;                                                                   /* c.lui */
            emit16((uint16_t)(0x6001 | ((imm & 0x20) << 7) | rd << 7 | (imm & 0x1f) << 2)); break;
        case 4: { unsigned sh = 1 + pick(63); emit16((uint16_t)(0x8001 | ((sh & 0x20) << 7) | (cr - 8) << 7 | (sh & 0x1f) << 2)); break; }          /* c.srli */
        case 5: { unsigned sh = 1 + pick(63); emit16((uint16_t)(0x8401 | ((sh & 0x20) << 7) | (cr - 8) << 7 | (sh & 0x1f) << 2)); break; }          /* c.srai */
        case 6: emit16((uint16_t)(0x8801 | ((imm & 0x20) << 7) | (cr - 8) << 7 | (imm & 0x1f) << 2)); break;           /* c.andi */
        case 7: { static const uint16_t f[] = {0x8c01, 0x8c21, 0x8c41, 0x8c61, 0x9c01, 0x9c21};                        /* c.sub xor or and subw addw */
            emit16((uint16_t)(f[pick(6)] | (cr - 8) << 7 | (cr2 - 8) << 2)); break; }
        case 8: { unsigned sh = 1 + pick(63); rd = reg_nz(); emit16((uint16_t)(0x0002 | ((sh & 0x20) << 7) | rd << 7 | (sh & 0x1f) << 2)); break; } /* c.slli */
        case 9: rd = reg_nz(); rs2 = reg_nz(); emit16((uint16_t)(0x8002 | rd << 7 | rs2 << 2)); break;                  /* c.mv */
        case 10: rd = reg_nz(); rs2 = reg_nz(); emit16((uint16_t)(0x9002 | rd << 7 | rs2 << 2)); break;                 /* c.add */
        default: emit16(0x0001); break;                                                                                 /* c.nop */
        }
    }
    }
}

int main(void)
{
    static const uint64_t special[] = {0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                       0xffffffffull, 0x80000000ull, 0x7fffffffull};
    uint64_t total = 0;
    for (int b = 0; b < BLOCKS; b++) {
        pos = 0;
        for (int i = 0; i < LEN; i++)
            gen_one();
        /* jal x0 back to run_block_ret */
        int32_t off = (int32_t)((uintptr_t)run_block_ret - (uintptr_t)&code[pos]);
        uint32_t u = (uint32_t)off;
        emit32(((u >> 20) & 1) << 31 | ((u >> 1) & 0x3ff) << 21 | ((u >> 11) & 1) << 20 | ((u >> 12) & 0xff) << 12 | 0x6f);
        __asm__ volatile("fence.i" ::: "memory");
        for (int r = 0; r < 32; r++)
            g_state[r] = pick(4) == 0 ? special[pick(8)] : rnd();
        for (int i = 0; i < 512; i++)
            g_scratch[i] = rnd();
        run_block(code);
        uint64_t h = 0xcbf29ce484222325ull;
        for (int r = 1; r < 31; r++)
            if (r != 2)
                h = (h ^ g_state[r]) * 0x100000001b3ull;
        for (int i = 0; i < 512; i++)
            h = (h ^ g_scratch[i]) * 0x100000001b3ull;
        total = total * 31 + h;
        if (b % 200 == 199) {
            puts_("blocks ");
            put_dec(b + 1);
            put_kv(" hash", total);
        }
    }
    return 0;
}

/* run_block(code): load x1, x3..x30 from g_state, point sp into g_scratch, run the block (which
 * ends with a jump to run_block_ret), store the registers back; everything the C caller needs
 * is saved in g_save around it. */
__asm__(
    ".text\n"
    ".option push\n"
    ".option norelax\n"                              /* no gp-relative la: random code owns gp */
    ".balign 4\n"
    ".globl run_block\n"
    "run_block:\n"
    "  la t0, g_save\n"
    "  sd ra, 0(t0)\n  sd sp, 8(t0)\n  sd gp, 16(t0)\n  sd tp, 24(t0)\n"
    "  sd s0, 32(t0)\n  sd s1, 40(t0)\n  sd s2, 48(t0)\n  sd s3, 56(t0)\n  sd s4, 64(t0)\n"
    "  sd s5, 72(t0)\n  sd s6, 80(t0)\n  sd s7, 88(t0)\n  sd s8, 96(t0)\n  sd s9, 104(t0)\n"
    "  sd s10, 112(t0)\n  sd s11, 120(t0)\n"
    "  mv x31, a0\n"
    "  la sp, g_scratch + 2048\n"
    "  la x30, g_state\n"
    "  ld x1, 8(x30)\n  ld x3, 24(x30)\n  ld x4, 32(x30)\n  ld x5, 40(x30)\n  ld x6, 48(x30)\n"
    "  ld x7, 56(x30)\n  ld x8, 64(x30)\n  ld x9, 72(x30)\n  ld x10, 80(x30)\n  ld x11, 88(x30)\n"
    "  ld x12, 96(x30)\n  ld x13, 104(x30)\n  ld x14, 112(x30)\n  ld x15, 120(x30)\n  ld x16, 128(x30)\n"
    "  ld x17, 136(x30)\n  ld x18, 144(x30)\n  ld x19, 152(x30)\n  ld x20, 160(x30)\n  ld x21, 168(x30)\n"
    "  ld x22, 176(x30)\n  ld x23, 184(x30)\n  ld x24, 192(x30)\n  ld x25, 200(x30)\n  ld x26, 208(x30)\n"
    "  ld x27, 216(x30)\n  ld x28, 224(x30)\n  ld x29, 232(x30)\n  ld x30, 240(x30)\n"
    "  jr x31\n"
    ".globl run_block_ret\n"
    "run_block_ret:\n"
    "  la x31, g_state\n"
    "  sd x1, 8(x31)\n  sd x3, 24(x31)\n  sd x4, 32(x31)\n  sd x5, 40(x31)\n  sd x6, 48(x31)\n"
    "  sd x7, 56(x31)\n  sd x8, 64(x31)\n  sd x9, 72(x31)\n  sd x10, 80(x31)\n  sd x11, 88(x31)\n"
    "  sd x12, 96(x31)\n  sd x13, 104(x31)\n  sd x14, 112(x31)\n  sd x15, 120(x31)\n  sd x16, 128(x31)\n"
    "  sd x17, 136(x31)\n  sd x18, 144(x31)\n  sd x19, 152(x31)\n  sd x20, 160(x31)\n  sd x21, 168(x31)\n"
    "  sd x22, 176(x31)\n  sd x23, 184(x31)\n  sd x24, 192(x31)\n  sd x25, 200(x31)\n  sd x26, 208(x31)\n"
    "  sd x27, 216(x31)\n  sd x28, 224(x31)\n  sd x29, 232(x31)\n  sd x30, 240(x31)\n"
    "  la t0, g_save\n"
    "  ld ra, 0(t0)\n  ld sp, 8(t0)\n  ld gp, 16(t0)\n  ld tp, 24(t0)\n"
    "  ld s0, 32(t0)\n  ld s1, 40(t0)\n  ld s2, 48(t0)\n  ld s3, 56(t0)\n  ld s4, 64(t0)\n"
    "  ld s5, 72(t0)\n  ld s6, 80(t0)\n  ld s7, 88(t0)\n  ld s8, 96(t0)\n  ld s9, 104(t0)\n"
    "  ld s10, 112(t0)\n  ld s11, 120(t0)\n"
    "  ret\n"
    ".option pop\n");
