/* jit: generated code.  A tiny code generator writes RV64 machine code (32-bit and compressed
 * instructions) into a buffer, executes it after FENCE.I, and rewrites it hundreds of times in
 * place, also while a loop keeps calling it; the results are printed and compared with QEMU's.
 * An emulator whose decoded-instruction cache misses a rewrite prints different numbers. */
#include "diff.h"

static uint32_t code[256] __attribute__((aligned(64)));

static uint32_t i_type(int imm, int rs1, int f3, int rd, int op)
{
    return ((uint32_t)(imm & 0xfff) << 20) | (uint32_t)rs1 << 15 | (uint32_t)f3 << 12 | (uint32_t)rd << 7 | (uint32_t)op;
}
static uint32_t r_type(int f7, int rs2, int rs1, int f3, int rd, int op)
{
    return (uint32_t)f7 << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | (uint32_t)f3 << 12 | (uint32_t)rd << 7 | (uint32_t)op;
}
#define A0 10
#define A1 11
#define RA 1
#define ADDI(rd, rs, imm) i_type(imm, rs, 0, rd, 0x13)
#define XORI(rd, rs, imm) i_type(imm, rs, 4, rd, 0x13)
#define SLLI(rd, rs, sh) i_type(sh, rs, 1, rd, 0x13)
#define ADD(rd, a, b) r_type(0, b, a, 0, rd, 0x33)
#define MUL(rd, a, b) r_type(1, b, a, 0, rd, 0x33)
#define RET i_type(0, RA, 0, 0, 0x67)
/* c.addi a0, imm (imm -32..31, != 0) followed by c.jr ra, packed in one 32-bit word */
static uint32_t c_addi_ret(int imm)
{
    uint16_t addi = (uint16_t)(0x0001 | ((imm & 0x20) << 7) | (A0 << 7) | ((imm & 0x1f) << 2));
    uint16_t jr = 0x8082;
    return (uint32_t)addi | (uint32_t)jr << 16;
}

typedef uint64_t (*fn_t)(uint64_t, uint64_t);
static uint64_t call(uint64_t a, uint64_t b)
{
    __asm__ volatile("fence.i" ::: "memory");
    return ((fn_t)(uintptr_t)code)(a, b);
}

int main(void)
{
    uint64_t h = 0;
    /* 1: a0 = a0 * a1 + k, rewritten for every k */
    for (int k = -300; k < 300; k += 7) {
        code[0] = MUL(A0, A0, A1);
        code[1] = ADDI(A0, A0, k);
        code[2] = RET;
        h = h * 1000003 + call((uint64_t)k * 3, 11);
    }
    put_kv("generated mul-add", h);
    /* 2: a straight line of n additions, n growing: the same buffer, longer code each time */
    for (int n = 1; n < 200; n += 9) {
        for (int i = 0; i < n; i++)
            code[i] = (i & 1) ? XORI(A0, A0, i) : ADD(A0, A0, A1);
        code[n] = RET;
        h = h * 31 + call((uint64_t)n, 0x1234567);
    }
    put_kv("generated sequences", h);
    /* 3: compressed code, rewritten inside a hot loop: each iteration runs it 50 times, then
       patches the immediate */
    for (int imm = 1; imm < 32; imm++) {
        code[0] = c_addi_ret(imm);
        uint64_t acc = 0;
        for (int r = 0; r < 50; r++)
            acc = call(acc, 0);
        h = h * 131 + acc;
    }
    put_kv("compressed rewrites", h);
    /* 4: patch only the second instruction of a warm two-instruction function */
    code[0] = SLLI(A0, A0, 1);
    code[1] = ADDI(A0, A0, 1);
    code[2] = RET;
    uint64_t v = 1;
    for (int i = 0; i < 40; i++) {
        v = call(v, 0);
        code[1] = ADDI(A0, A0, i & 3);
    }
    put_kv("partial patches", v);
    return 0;
}
