/* What each straight instruction computes, one line per instruction, in the vocabulary of the
 * interpreter (emu/cpu/interp.inc: RD, RS1, RS2, IMM, PC(), LEN(), LOAD, STORE): B_<op> is the
 * body of OP_<op>, C_<op> the condition of a branch.  The interpreter turns each into handlers
 * (STRAIGHT, PAIR, ...); an instruction with side effects beyond its registers (AMOs, CSRs,
 * system ops, F/D, H) has its handler there instead.  A new straight instruction is a line here,
 * a decode rule (decode.c) and an entry in decode.h's MT_STRAIGHT_OPS.
 *
 * Included once, by emu/cpu/cpu.c, before the interpreters. */
#ifndef EMU_CPU_SEMANTICS_H
#define EMU_CPU_SEMANTICS_H

#include <stdint.h>

static inline uint64_t sext32(uint64_t v) { return (uint64_t)(int64_t)(int32_t)v; }

/* Helpers of the bit-manipulation ops (Zbb, Zbc). */
static inline uint64_t rotl64(uint64_t v, unsigned s) { return (v << (s & 63)) | (v >> (-s & 63)); }
static inline uint64_t rotr64(uint64_t v, unsigned s) { return (v >> (s & 63)) | (v << (-s & 63)); }
static inline uint32_t rotl32(uint32_t v, unsigned s) { return (v << (s & 31)) | (v >> (-s & 31)); }
static inline uint32_t rotr32(uint32_t v, unsigned s) { return (v >> (s & 31)) | (v << (-s & 31)); }
/* orc.b: every byte that is not zero becomes 0xff */
static inline uint64_t orc_b(uint64_t v)
{
    const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
    uint64_t top = (((v & low7) + low7) | v) & ~low7; /* bit 7 of each byte: the byte is not 0 */
    return (top >> 7) * 0xff;
}
/* The 128-bit carry-less product of a and b: *hi gets bits 127..64, the result bits 63..0.  Not
 * inlined (nor clmul_h/clmul_r): inlined, the loop changed the interpreters' register allocation
 * enough to spill vbase, a load more in AUIPC and every PC() of the hot handlers. */
static __attribute__((noinline)) uint64_t clmul128(uint64_t a, uint64_t b, uint64_t *hi)
{
    uint64_t lo = 0, h = 0;
    for (; b; b &= b - 1) {
        unsigned i = (unsigned)__builtin_ctzll(b);
        lo ^= a << i;
        if (i)
            h ^= a >> (64 - i);
    }
    *hi = h;
    return lo;
}
static __attribute__((noinline)) uint64_t clmul_h(uint64_t a, uint64_t b) { uint64_t h; clmul128(a, b, &h); return h; }
/* clmulr: bits 126..63 of the product (bit 127 is always 0) */
static __attribute__((noinline)) uint64_t clmul_r(uint64_t a, uint64_t b) { uint64_t h, l = clmul128(a, b, &h); return h << 1 | l >> 63; }

/* Helpers of Zbkb / Zbkx: not inlined either, for the same reason. */
/* brev8: the bits of each byte reversed, the bytes in place */
static __attribute__((noinline)) uint64_t brev8(uint64_t v)
{
    v = (v & UINT64_C(0x5555555555555555)) << 1 | ((v >> 1) & UINT64_C(0x5555555555555555));
    v = (v & UINT64_C(0x3333333333333333)) << 2 | ((v >> 2) & UINT64_C(0x3333333333333333));
    return (v & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4 | ((v >> 4) & UINT64_C(0x0f0f0f0f0f0f0f0f));
}
/* xperm4 / xperm8: element i of the result is element rs2[i] of rs1 (0 past the last element);
 * elements of 4 or 8 bits (`log2_bits` 2 or 3) */
static __attribute__((noinline)) uint64_t xperm(uint64_t rs1, uint64_t rs2, unsigned log2_bits)
{
    unsigned w = 1u << log2_bits;
    uint64_t mask = (UINT64_C(1) << w) - 1, r = 0;
    for (unsigned i = 0; i < 64; i += w) {
        uint64_t idx = (rs2 >> i) & mask;
        if (idx < 64 / w)
            r |= ((rs1 >> (idx << log2_bits)) & mask) << i;
    }
    return r;
}

#define B_LUI RD = (uint64_t)IMM
#define B_AUIPC RD = PC() + (uint64_t)IMM
#define C_BEQ (RS1 == RS2)
#define C_BNE (RS1 != RS2)
#define C_BLT ((int64_t)RS1 < (int64_t)RS2)
#define C_BGE ((int64_t)RS1 >= (int64_t)RS2)
#define C_BLTU (RS1 < RS2)
#define C_BGEU (RS1 >= RS2)
#define B_LB LOAD(int8_t, 1)
#define B_LH LOAD(int16_t, 2)
#define B_LW LOAD(int32_t, 4)
#define B_LD LOAD(int64_t, 8)
#define B_LBU LOAD(uint8_t, 1)
#define B_LHU LOAD(uint16_t, 2)
#define B_LWU LOAD(uint32_t, 4)
#define B_SB STORE(uint8_t, 1)
#define B_SH STORE(uint16_t, 2)
#define B_SW STORE(uint32_t, 4)
#define B_SD STORE(uint64_t, 8)
#define B_ADDI RD = RS1 + (uint64_t)IMM
#define B_SLTI RD = (int64_t)RS1 < IMM
#define B_SLTIU RD = RS1 < (uint64_t)IMM
#define B_XORI RD = RS1 ^ (uint64_t)IMM
#define B_ORI RD = RS1 | (uint64_t)IMM
#define B_ANDI RD = RS1 & (uint64_t)IMM
#define B_SLLI RD = RS1 << (IMM & 63)
#define B_SRLI RD = RS1 >> (IMM & 63)
#define B_SRAI RD = (uint64_t)((int64_t)RS1 >> (IMM & 63))
#define B_ADD RD = RS1 + RS2
#define B_SUB RD = RS1 - RS2
#define B_SLL RD = RS1 << (RS2 & 63)
#define B_SLT RD = (int64_t)RS1 < (int64_t)RS2
#define B_SLTU RD = RS1 < RS2
#define B_XOR RD = RS1 ^ RS2
#define B_SRL RD = RS1 >> (RS2 & 63)
#define B_SRA RD = (uint64_t)((int64_t)RS1 >> (RS2 & 63))
#define B_OR RD = RS1 | RS2
#define B_AND RD = RS1 & RS2
#define B_ADDIW RD = sext32(RS1 + (uint64_t)IMM)
#define B_SLLIW RD = sext32((uint32_t)RS1 << (IMM & 31))
#define B_SRLIW RD = sext32((uint32_t)RS1 >> (IMM & 31))
#define B_SRAIW RD = (uint64_t)(int64_t)((int32_t)RS1 >> (IMM & 31))
#define B_ADDW RD = sext32(RS1 + RS2)
#define B_SUBW RD = sext32(RS1 - RS2)
#define B_SLLW RD = sext32((uint32_t)RS1 << (RS2 & 31))
#define B_SRLW RD = sext32((uint32_t)RS1 >> (RS2 & 31))
#define B_SRAW RD = (uint64_t)(int64_t)((int32_t)RS1 >> (RS2 & 31))
#define B_MUL RD = RS1 * RS2
#define B_MULH RD = (uint64_t)(((__int128)(int64_t)RS1 * (__int128)(int64_t)RS2) >> 64)
#define B_MULHSU RD = (uint64_t)(((__int128)(int64_t)RS1 * (__int128)(unsigned __int128)RS2) >> 64)
#define B_MULHU RD = (uint64_t)(((unsigned __int128)RS1 * (unsigned __int128)RS2) >> 64)
#define B_DIV int64_t a = (int64_t)RS1, b = (int64_t)RS2; RD = b == 0 ? UINT64_MAX : (a == INT64_MIN && b == -1) ? (uint64_t)a : (uint64_t)(a / b)
#define B_DIVU RD = RS2 == 0 ? UINT64_MAX : RS1 / RS2
#define B_REM int64_t a = (int64_t)RS1, b = (int64_t)RS2; RD = b == 0 ? (uint64_t)a : (a == INT64_MIN && b == -1) ? 0 : (uint64_t)(a % b)
#define B_REMU RD = RS2 == 0 ? RS1 : RS1 % RS2
#define B_MULW RD = sext32((uint32_t)RS1 * (uint32_t)RS2)
#define B_DIVW int32_t a = (int32_t)RS1, b = (int32_t)RS2; RD = (uint64_t)(int64_t)(b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b)
#define B_DIVUW uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2; RD = sext32(b == 0 ? UINT32_MAX : a / b)
#define B_REMW int32_t a = (int32_t)RS1, b = (int32_t)RS2; RD = (uint64_t)(int64_t)(b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b)
#define B_REMUW uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2; RD = sext32(b == 0 ? a : a % b)
#define B_FENCE (void)0
/* Zba */
#define B_ADD_UW RD = RS2 + (uint32_t)RS1
#define B_SH1ADD RD = RS2 + (RS1 << 1)
#define B_SH2ADD RD = RS2 + (RS1 << 2)
#define B_SH3ADD RD = RS2 + (RS1 << 3)
#define B_SH1ADD_UW RD = RS2 + ((uint64_t)(uint32_t)RS1 << 1)
#define B_SH2ADD_UW RD = RS2 + ((uint64_t)(uint32_t)RS1 << 2)
#define B_SH3ADD_UW RD = RS2 + ((uint64_t)(uint32_t)RS1 << 3)
#define B_SLLI_UW RD = (uint64_t)(uint32_t)RS1 << (IMM & 63)
/* Zbb */
#define B_ANDN RD = RS1 & ~RS2
#define B_ORN RD = RS1 | ~RS2
#define B_XNOR RD = ~(RS1 ^ RS2)
#define B_CLZ uint64_t v = RS1; RD = v ? (uint64_t)__builtin_clzll(v) : 64
#define B_CLZW uint32_t v = (uint32_t)RS1; RD = v ? (uint64_t)__builtin_clz(v) : 32
#define B_CTZ uint64_t v = RS1; RD = v ? (uint64_t)__builtin_ctzll(v) : 64
#define B_CTZW uint32_t v = (uint32_t)RS1; RD = v ? (uint64_t)__builtin_ctz(v) : 32
#define B_CPOP RD = (uint64_t)__builtin_popcountll(RS1)
#define B_CPOPW RD = (uint64_t)__builtin_popcount((uint32_t)RS1)
#define B_MAX RD = (int64_t)RS1 < (int64_t)RS2 ? RS2 : RS1
#define B_MAXU RD = RS1 < RS2 ? RS2 : RS1
#define B_MIN RD = (int64_t)RS1 < (int64_t)RS2 ? RS1 : RS2
#define B_MINU RD = RS1 < RS2 ? RS1 : RS2
#define B_SEXT_B RD = (uint64_t)(int64_t)(int8_t)RS1
#define B_SEXT_H RD = (uint64_t)(int64_t)(int16_t)RS1
#define B_ZEXT_H RD = (uint16_t)RS1
#define B_ROL RD = rotl64(RS1, (unsigned)RS2)
#define B_ROLW RD = sext32(rotl32((uint32_t)RS1, (unsigned)RS2))
#define B_ROR RD = rotr64(RS1, (unsigned)RS2)
#define B_RORI RD = rotr64(RS1, (unsigned)IMM)
#define B_RORIW RD = sext32(rotr32((uint32_t)RS1, (unsigned)IMM))
#define B_RORW RD = sext32(rotr32((uint32_t)RS1, (unsigned)RS2))
#define B_ORC_B RD = orc_b(RS1)
#define B_REV8 RD = __builtin_bswap64(RS1)
/* Zbc */
#define B_CLMUL uint64_t h; RD = clmul128(RS1, RS2, &h)
#define B_CLMULH RD = clmul_h(RS1, RS2)
#define B_CLMULR RD = clmul_r(RS1, RS2)
/* Zbs: the bit index is rs2[5:0] or shamt */
#define B_BCLR RD = RS1 & ~(UINT64_C(1) << (RS2 & 63))
#define B_BCLRI RD = RS1 & ~(UINT64_C(1) << (IMM & 63))
#define B_BEXT RD = (RS1 >> (RS2 & 63)) & 1
#define B_BEXTI RD = (RS1 >> (IMM & 63)) & 1
#define B_BINV RD = RS1 ^ (UINT64_C(1) << (RS2 & 63))
#define B_BINVI RD = RS1 ^ (UINT64_C(1) << (IMM & 63))
#define B_BSET RD = RS1 | (UINT64_C(1) << (RS2 & 63))
#define B_BSETI RD = RS1 | (UINT64_C(1) << (IMM & 63))
/* Zbkb (RV64: no zip/unzip) */
#define B_PACK RD = (uint32_t)RS1 | RS2 << 32
#define B_PACKH RD = (uint8_t)RS1 | (uint64_t)(uint8_t)RS2 << 8
#define B_PACKW RD = sext32((uint16_t)RS1 | (uint32_t)(uint16_t)RS2 << 16)
#define B_BREV8 RD = brev8(RS1)
/* Zbkx */
#define B_XPERM4 RD = xperm(RS1, RS2, 2)
#define B_XPERM8 RD = xperm(RS1, RS2, 3)

#endif
