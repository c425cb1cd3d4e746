/* Decoder.  Compressed instructions are expanded to their 32-bit equivalents first (the RVC
 * spec defines each one that way), so there is exactly one decoder for the semantics. */
#include "emu/cpu/decode.h"

#include <string.h>

static const char *const op_names[OP_COUNT] = {
#define MT_OP_NAME(n) #n,
    MT_OPS(MT_OP_NAME)
#undef MT_OP_NAME
#define MT_OP_C_NAME(n) #n "_C",
    MT_STRAIGHT_OPS(MT_OP_C_NAME)
#undef MT_OP_C_NAME
#define MT_OP_PAIR_NAME(a, b) #a "+" #b, #a "+" #b "_C", #a "_C+" #b, #a "_C+" #b "_C",
    MT_PAIR_OPS(MT_OP_PAIR_NAME)
#undef MT_OP_PAIR_NAME
#define MT_OP_PAIR_BR_NAME(a, b) #a "+" #b, #a "_C+" #b,
    MT_PAIR_BRANCH_OPS(MT_OP_PAIR_BR_NAME)
#undef MT_OP_PAIR_BR_NAME
#define MT_OP_TRIPLE_NAME(a, b, c) #a "+" #b "+" #c, #a "+" #b "_C+" #c, #a "_C+" #b "+" #c, #a "_C+" #b "_C+" #c,
    MT_TRIPLE_BRANCH_OPS(MT_OP_TRIPLE_NAME)
#undef MT_OP_TRIPLE_NAME
#define MT_OP_QUAD_VARIANT_NAME(a, b, c, d, sfx, l1, l2, l3, l4) #a "+" #b "+" #c "+" #d "_" #sfx,
#define MT_OP_QUAD_NAME(a, b, c, d) MT_QUAD_VARIANTS(MT_OP_QUAD_VARIANT_NAME, a, b, c, d)
    MT_QUAD_OPS(MT_OP_QUAD_NAME)
#undef MT_OP_QUAD_NAME
#undef MT_OP_QUAD_VARIANT_NAME
};

const char *op_name(unsigned op) { return op < OP_COUNT ? op_names[op] : "?"; }

unsigned op_compressed_twin(unsigned op)
{
    switch (op) {
#define MT_OP_TWIN(n) case OP_##n: return OP_##n##_C;
    MT_STRAIGHT_OPS(MT_OP_TWIN)
#undef MT_OP_TWIN
    default: return op;
    }
}

unsigned op_pair(unsigned first, unsigned len1, unsigned second, unsigned len2)
{
    unsigned c1 = len1 == 2, c2 = len2 == 2;
    switch (first << 10 | second) {
#define MT_OP_PAIR(a, b) case OP_##a << 10 | OP_##b: return OP_P_##a##_##b##_WW + 2 * c1 + c2;
#define MT_OP_PAIR_BR(a, b) case OP_##a << 10 | OP_##b##_L: return OP_P_##a##_##b##_W + c1;
    MT_PAIR_OPS(MT_OP_PAIR) MT_PAIR_BRANCH_OPS(MT_OP_PAIR_BR)
#undef MT_OP_PAIR
#undef MT_OP_PAIR_BR
    default: return OP_DECODE;
    }
}

unsigned op_triple(unsigned first, unsigned len1, unsigned second, unsigned len2, unsigned branch)
{
    unsigned c1 = len1 == 2, c2 = len2 == 2;
#define MT_OP_TRIPLE(a, b, c)                                                           \
    if (first == OP_##a && second == OP_##b && branch == OP_##c##_L)                  \
        return OP_T_##a##_##b##_##c##_WW + 2 * c1 + c2;
    MT_TRIPLE_BRANCH_OPS(MT_OP_TRIPLE)
#undef MT_OP_TRIPLE
    return OP_DECODE;
}

unsigned op_quad(const unsigned ops[4], const unsigned lens[4])
{
#define MT_OP_QUAD_VARIANT(a, b, c, d, sfx, l1, l2, l3, l4)                             \
    if (lens[0] == l1 && lens[1] == l2 && lens[2] == l3 && lens[3] == l4)               \
        return OP_Q_##a##_##b##_##c##_##d##_##sfx;
#define MT_OP_QUAD(a, b, c, d)                                                          \
    if (ops[0] == OP_##a && ops[1] == OP_##b && ops[2] == OP_##c && ops[3] == OP_##d) { \
        MT_QUAD_VARIANTS(MT_OP_QUAD_VARIANT, a, b, c, d)                                \
    }
    MT_QUAD_OPS(MT_OP_QUAD)
#undef MT_OP_QUAD
#undef MT_OP_QUAD_VARIANT
    return OP_DECODE;
}

unsigned op_pair_first(unsigned op)
{
#define MT_OP_QUAD_FIRST(a, b, c, d)                                                    \
    if (op >= OP_Q_##a##_##b##_##c##_##d##_WWWW && op <= OP_Q_##a##_##b##_##c##_##d##_CCCC) \
        return OP_##a;
    MT_QUAD_OPS(MT_OP_QUAD_FIRST)
#undef MT_OP_QUAD_FIRST
    switch (op) {
#define MT_OP_TRIPLE_FIRST(a, b, c)                                                     \
    case OP_T_##a##_##b##_##c##_WW: case OP_T_##a##_##b##_##c##_WC:                     \
    case OP_T_##a##_##b##_##c##_CW: case OP_T_##a##_##b##_##c##_CC: return OP_##a;
    MT_TRIPLE_BRANCH_OPS(MT_OP_TRIPLE_FIRST)
#undef MT_OP_TRIPLE_FIRST
#define MT_OP_PAIR_FIRST(a, b) \
    case OP_P_##a##_##b##_WW: case OP_P_##a##_##b##_WC: case OP_P_##a##_##b##_CW: case OP_P_##a##_##b##_CC: return OP_##a;
    MT_PAIR_OPS(MT_OP_PAIR_FIRST)
#undef MT_OP_PAIR_FIRST
#define MT_OP_PAIR_BR_FIRST(a, b) case OP_P_##a##_##b##_W: case OP_P_##a##_##b##_C: return OP_##a;
    MT_PAIR_BRANCH_OPS(MT_OP_PAIR_BR_FIRST)
#undef MT_OP_PAIR_BR_FIRST
    default: return op;
    }
}

unsigned op_uncompressed(unsigned op)
{
    switch (op) {
#define MT_OP_BASE(n) case OP_##n##_C: return OP_##n;
    MT_STRAIGHT_OPS(MT_OP_BASE)
#undef MT_OP_BASE
    default: return op;
    }
}

static uint32_t bits(uint32_t v, int hi, int lo) { return (v >> lo) & ((UINT32_C(1) << (hi - lo + 1)) - 1); }
static int32_t sext(uint32_t v, int width) { return (int32_t)(v << (32 - width)) >> (32 - width); }

/* Encoders of the 32-bit formats. */
static uint32_t enc_r(uint32_t opc, uint32_t rd, uint32_t f3, uint32_t rs1, uint32_t rs2, uint32_t f7)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}
static uint32_t enc_i(uint32_t opc, uint32_t rd, uint32_t f3, uint32_t rs1, int32_t imm)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static uint32_t enc_s(uint32_t opc, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm)
{
    uint32_t i = (uint32_t)imm;
    return opc | (i & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((i >> 5) & 0x7f) << 25;
}
static uint32_t enc_b(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm)
{
    uint32_t i = (uint32_t)imm;
    return 0x63 | ((i >> 11) & 1) << 7 | ((i >> 1) & 0xf) << 8 | f3 << 12 | rs1 << 15 | rs2 << 20 |
           ((i >> 5) & 0x3f) << 25 | ((i >> 12) & 1) << 31;
}
static uint32_t enc_j(uint32_t rd, int32_t imm)
{
    uint32_t i = (uint32_t)imm;
    return 0x6f | rd << 7 | ((i >> 12) & 0xff) << 12 | ((i >> 11) & 1) << 20 | ((i >> 1) & 0x3ff) << 21 |
           ((i >> 20) & 1) << 31;
}

enum { OPC_LOAD = 0x03, OPC_LOAD_FP = 0x07, OPC_OP_IMM = 0x13, OPC_OP_IMM32 = 0x1b, OPC_STORE = 0x23,
       OPC_STORE_FP = 0x27, OPC_OP = 0x33, OPC_LUI = 0x37, OPC_OP32 = 0x3b, OPC_JALR = 0x67 };

uint32_t expand_compressed(uint16_t c)
{
    uint32_t q = c & 3, f3 = bits(c, 15, 13);
    uint32_t rd = bits(c, 11, 7), rs2 = bits(c, 6, 2);
    uint32_t rdp = 8 + bits(c, 4, 2), rs1p = 8 + bits(c, 9, 7);
    switch (q << 3 | f3) {
    case 000: { /* C.ADDI4SPN */
        uint32_t imm = bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 3;
        if (imm == 0)
            return 0; /* includes the all-zero parcel */
        return enc_i(OPC_OP_IMM, rdp, 0, 2, (int32_t)imm);
    }
    case 001: /* C.FLD */
        return enc_i(OPC_LOAD_FP, rdp, 3, rs1p, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6));
    case 002: /* C.LW */
        return enc_i(OPC_LOAD, rdp, 2, rs1p, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 6));
    case 003: /* C.LD */
        return enc_i(OPC_LOAD, rdp, 3, rs1p, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6));
    case 005: /* C.FSD */
        return enc_s(OPC_STORE_FP, 3, rs1p, rdp, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6));
    case 006: /* C.SW */
        return enc_s(OPC_STORE, 2, rs1p, rdp, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 6));
    case 007: /* C.SD */
        return enc_s(OPC_STORE, 3, rs1p, rdp, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6));
    case 010: /* C.ADDI (rd = 0 or imm = 0: HINT / NOP) */
        return enc_i(OPC_OP_IMM, rd, 0, rd, sext(bits(c, 12, 12) << 5 | rs2, 6));
    case 011: /* C.ADDIW */
        if (rd == 0)
            return 0;
        return enc_i(OPC_OP_IMM32, rd, 0, rd, sext(bits(c, 12, 12) << 5 | rs2, 6));
    case 012: /* C.LI */
        return enc_i(OPC_OP_IMM, rd, 0, 0, sext(bits(c, 12, 12) << 5 | rs2, 6));
    case 013:
        if (rd == 2) { /* C.ADDI16SP */
            int32_t imm = sext(bits(c, 12, 12) << 9 | bits(c, 4, 3) << 7 | bits(c, 5, 5) << 6 | bits(c, 2, 2) << 5 |
                                   bits(c, 6, 6) << 4, 10);
            if (imm == 0)
                return 0;
            return enc_i(OPC_OP_IMM, 2, 0, 2, imm);
        } else { /* C.LUI */
            int32_t imm = sext(bits(c, 12, 12) << 17 | rs2 << 12, 18);
            if (imm == 0)
                return 0;
            return OPC_LUI | rd << 7 | ((uint32_t)imm & 0xfffff000u);
        }
    case 014: {
        uint32_t f2 = bits(c, 11, 10);
        uint32_t shamt = bits(c, 12, 12) << 5 | rs2;
        if (f2 == 0) /* C.SRLI */
            return enc_i(OPC_OP_IMM, rs1p, 5, rs1p, (int32_t)shamt);
        if (f2 == 1) /* C.SRAI */
            return enc_i(OPC_OP_IMM, rs1p, 5, rs1p, (int32_t)(shamt | 0x400));
        if (f2 == 2) /* C.ANDI */
            return enc_i(OPC_OP_IMM, rs1p, 7, rs1p, sext(shamt, 6));
        uint32_t r2 = 8 + bits(c, 4, 2);
        switch (bits(c, 12, 12) << 2 | bits(c, 6, 5)) {
        case 0: return enc_r(OPC_OP, rs1p, 0, rs1p, r2, 0x20); /* C.SUB */
        case 1: return enc_r(OPC_OP, rs1p, 4, rs1p, r2, 0);    /* C.XOR */
        case 2: return enc_r(OPC_OP, rs1p, 6, rs1p, r2, 0);    /* C.OR */
        case 3: return enc_r(OPC_OP, rs1p, 7, rs1p, r2, 0);    /* C.AND */
        case 4: return enc_r(OPC_OP32, rs1p, 0, rs1p, r2, 0x20); /* C.SUBW */
        case 5: return enc_r(OPC_OP32, rs1p, 0, rs1p, r2, 0);    /* C.ADDW */
        default: return 0;
        }
    }
    case 015: /* C.J */
        return enc_j(0, sext(bits(c, 12, 12) << 11 | bits(c, 11, 11) << 4 | bits(c, 10, 9) << 8 | bits(c, 8, 8) << 10 |
                                 bits(c, 7, 7) << 6 | bits(c, 6, 6) << 7 | bits(c, 5, 3) << 1 | bits(c, 2, 2) << 5, 12));
    case 016:
    case 017: { /* C.BEQZ / C.BNEZ */
        int32_t imm = sext(bits(c, 12, 12) << 8 | bits(c, 11, 10) << 3 | bits(c, 6, 5) << 6 | bits(c, 4, 3) << 1 |
                               bits(c, 2, 2) << 5, 9);
        return enc_b(f3 == 6 ? 0 : 1, rs1p, 0, imm);
    }
    case 020: /* C.SLLI (shamt 0 or rd 0: HINT) */
        return enc_i(OPC_OP_IMM, rd, 1, rd, (int32_t)(bits(c, 12, 12) << 5 | rs2));
    case 021: /* C.FLDSP */
        return enc_i(OPC_LOAD_FP, rd, 3, 2, (int32_t)(bits(c, 12, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6));
    case 022: /* C.LWSP */
        if (rd == 0)
            return 0;
        return enc_i(OPC_LOAD, rd, 2, 2, (int32_t)(bits(c, 12, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6));
    case 023: /* C.LDSP */
        if (rd == 0)
            return 0;
        return enc_i(OPC_LOAD, rd, 3, 2, (int32_t)(bits(c, 12, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6));
    case 024:
        if (bits(c, 12, 12) == 0) {
            if (rs2 == 0) { /* C.JR */
                if (rd == 0)
                    return 0;
                return enc_i(OPC_JALR, 0, 0, rd, 0);
            }
            return enc_r(OPC_OP, rd, 0, 0, rs2, 0); /* C.MV */
        }
        if (rs2 == 0) {
            if (rd == 0)
                return 0x00100073; /* C.EBREAK */
            return enc_i(OPC_JALR, 1, 0, rd, 0); /* C.JALR */
        }
        return enc_r(OPC_OP, rd, 0, rd, rs2, 0); /* C.ADD */
    case 025: /* C.FSDSP */
        return enc_s(OPC_STORE_FP, 3, 2, rs2, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6));
    case 026: /* C.SWSP */
        return enc_s(OPC_STORE, 2, 2, rs2, (int32_t)(bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6));
    case 027: /* C.SDSP */
        return enc_s(OPC_STORE, 3, 2, rs2, (int32_t)(bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6));
    default:
        return 0; /* 0b100 in quadrant 0 is reserved */
    }
}

static void set(mt_dinsn *d, unsigned op, uint32_t rd, uint32_t rs1, uint32_t rs2, int32_t imm)
{
    d->op = (uint16_t)op;
    d->rd = (uint8_t)(rd == 0 ? 32 : rd);
    d->rs1 = (uint8_t)rs1;
    d->rs2 = (uint8_t)rs2;
    d->imm = imm;
}

static void decode32(uint32_t w, mt_dinsn *d)
{
    uint32_t opc = w & 0x7f, rd = bits(w, 11, 7), f3 = bits(w, 14, 12), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
    uint32_t f7 = bits(w, 31, 25);
    int32_t imm_i = (int32_t)w >> 20;
    int32_t imm_s = (int32_t)(w & 0xfe000000u) >> 20 | (int32_t)bits(w, 11, 7);
    int32_t imm_b = sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 | bits(w, 11, 8) << 1, 13);
    int32_t imm_u = (int32_t)(w & 0xfffff000u);
    int32_t imm_j = sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 | bits(w, 30, 21) << 1, 21);
    set(d, OP_ILLEGAL, 0, 0, 0, 0);
    switch (opc) {
    case 0x37: set(d, OP_LUI, rd, 0, 0, imm_u); return;
    case 0x17: set(d, OP_AUIPC, rd, 0, 0, imm_u); return;
    case 0x6f: set(d, OP_JAL, rd, 0, 0, imm_j); return;
    case 0x67:
        if (f3 == 0)
            set(d, OP_JALR, rd, rs1, 0, imm_i);
        return;
    case 0x63: {
        static const uint16_t br[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU};
        set(d, br[f3], 0, rs1, rs2, imm_b);
        return;
    }
    case 0x03: {
        static const uint16_t ld[8] = {OP_LB, OP_LH, OP_LW, OP_LD, OP_LBU, OP_LHU, OP_LWU, OP_ILLEGAL};
        set(d, ld[f3], rd, rs1, 0, imm_i);
        return;
    }
    case 0x23: {
        static const uint16_t st[8] = {OP_SB, OP_SH, OP_SW, OP_SD, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL};
        set(d, st[f3], 0, rs1, rs2, imm_s);
        return;
    }
    case 0x13:
        switch (f3) {
        case 0: set(d, OP_ADDI, rd, rs1, 0, imm_i); return;
        case 2: set(d, OP_SLTI, rd, rs1, 0, imm_i); return;
        case 3: set(d, OP_SLTIU, rd, rs1, 0, imm_i); return;
        case 4: set(d, OP_XORI, rd, rs1, 0, imm_i); return;
        case 6: set(d, OP_ORI, rd, rs1, 0, imm_i); return;
        case 7: set(d, OP_ANDI, rd, rs1, 0, imm_i); return;
        case 1: {
            uint32_t f6 = bits(w, 31, 26), shamt = bits(w, 25, 20);
            if (f6 == 0)
                set(d, OP_SLLI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x0a) /* Zbs */
                set(d, OP_BSETI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x12)
                set(d, OP_BCLRI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x1a)
                set(d, OP_BINVI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x18 && shamt <= 5) { /* Zbb: the unary ops, funct12 0x600 + rs2 */
                static const uint16_t un[6] = {OP_CLZ, OP_CTZ, OP_CPOP, OP_ILLEGAL, OP_SEXT_B, OP_SEXT_H};
                set(d, un[shamt], rd, rs1, 0, 0);
            }
            return;
        }
        case 5: {
            uint32_t f6 = bits(w, 31, 26), shamt = bits(w, 25, 20);
            if (f6 == 0)
                set(d, OP_SRLI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x10)
                set(d, OP_SRAI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x18) /* Zbb */
                set(d, OP_RORI, rd, rs1, 0, (int32_t)shamt);
            else if (f6 == 0x12) /* Zbs */
                set(d, OP_BEXTI, rd, rs1, 0, (int32_t)shamt);
            else if (bits(w, 31, 20) == 0x287)
                set(d, OP_ORC_B, rd, rs1, 0, 0);
            else if (bits(w, 31, 20) == 0x6b8) /* rev8, RV64's encoding */
                set(d, OP_REV8, rd, rs1, 0, 0);
            else if (bits(w, 31, 20) == 0x687) /* Zbkb: brev8 */
                set(d, OP_BREV8, rd, rs1, 0, 0);
            return;
        }
        }
        return;
    case 0x1b:
        if (f3 == 0)
            set(d, OP_ADDIW, rd, rs1, 0, imm_i);
        else if (f3 == 1 && f7 == 0)
            set(d, OP_SLLIW, rd, rs1, 0, (int32_t)rs2);
        else if (f3 == 1 && bits(w, 31, 26) == 0x02) /* Zba: slli.uw, a 6-bit shift amount */
            set(d, OP_SLLI_UW, rd, rs1, 0, (int32_t)bits(w, 25, 20));
        else if (f3 == 1 && f7 == 0x30 && rs2 <= 2) { /* Zbb: clzw ctzw cpopw */
            static const uint16_t un[3] = {OP_CLZW, OP_CTZW, OP_CPOPW};
            set(d, un[rs2], rd, rs1, 0, 0);
        } else if (f3 == 5 && f7 == 0)
            set(d, OP_SRLIW, rd, rs1, 0, (int32_t)rs2);
        else if (f3 == 5 && f7 == 0x20)
            set(d, OP_SRAIW, rd, rs1, 0, (int32_t)rs2);
        else if (f3 == 5 && f7 == 0x30) /* Zbb: roriw (shamt[5] = 1 is reserved, as for srliw) */
            set(d, OP_RORIW, rd, rs1, 0, (int32_t)rs2);
        return;
    case 0x33: {
        static const uint16_t base[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND};
        static const uint16_t mext[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU};
        if (f7 == 0)
            set(d, base[f3], rd, rs1, rs2, 0);
        else if (f7 == 1)
            set(d, mext[f3], rd, rs1, rs2, 0);
        else if (f7 == 0x20) {
            /* SUB, SRA; Zbb: xnor, orn, andn */
            static const uint16_t alt[8] = {OP_SUB, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_XNOR, OP_SRA, OP_ORN, OP_ANDN};
            set(d, alt[f3], rd, rs1, rs2, 0);
        } else if (f7 == 0x05) { /* Zbc: clmul clmulr clmulh; Zbb: min minu max maxu */
            static const uint16_t mm[8] = {OP_ILLEGAL, OP_CLMUL, OP_CLMULR, OP_CLMULH, OP_MIN, OP_MINU, OP_MAX, OP_MAXU};
            set(d, mm[f3], rd, rs1, rs2, 0);
        } else if (f7 == 0x10) { /* Zba */
            static const uint16_t sh[8] = {OP_ILLEGAL, OP_ILLEGAL, OP_SH1ADD, OP_ILLEGAL, OP_SH2ADD, OP_ILLEGAL, OP_SH3ADD, OP_ILLEGAL};
            set(d, sh[f3], rd, rs1, rs2, 0);
        } else if (f7 == 0x30 && (f3 == 1 || f3 == 5)) /* Zbb: rol, ror */
            set(d, f3 == 1 ? OP_ROL : OP_ROR, rd, rs1, rs2, 0);
        else if (f7 == 0x04 && (f3 == 4 || f3 == 7)) /* Zbkb: pack, packh */
            set(d, f3 == 4 ? OP_PACK : OP_PACKH, rd, rs1, rs2, 0);
        else if (f7 == 0x14 && (f3 == 2 || f3 == 4)) /* Zbkx: xperm4, xperm8 */
            set(d, f3 == 2 ? OP_XPERM4 : OP_XPERM8, rd, rs1, rs2, 0);
        else if (f7 == 0x24 && (f3 == 1 || f3 == 5)) /* Zbs: bclr, bext */
            set(d, f3 == 1 ? OP_BCLR : OP_BEXT, rd, rs1, rs2, 0);
        else if (f7 == 0x34 && f3 == 1)
            set(d, OP_BINV, rd, rs1, rs2, 0);
        else if (f7 == 0x14 && f3 == 1)
            set(d, OP_BSET, rd, rs1, rs2, 0);
        return;
    }
    case 0x3b:
        if (f7 == 0) {
            if (f3 == 0) set(d, OP_ADDW, rd, rs1, rs2, 0);
            else if (f3 == 1) set(d, OP_SLLW, rd, rs1, rs2, 0);
            else if (f3 == 5) set(d, OP_SRLW, rd, rs1, rs2, 0);
        } else if (f7 == 0x20) {
            if (f3 == 0) set(d, OP_SUBW, rd, rs1, rs2, 0);
            else if (f3 == 5) set(d, OP_SRAW, rd, rs1, rs2, 0);
        } else if (f7 == 1) {
            static const uint16_t m32[8] = {OP_MULW, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_DIVW, OP_DIVUW, OP_REMW, OP_REMUW};
            set(d, m32[f3], rd, rs1, rs2, 0);
        } else if (f7 == 0x04) { /* Zba: add.uw; Zbb: zext.h, which is Zbkb's packw with rs2 = 0 */
            if (f3 == 0)
                set(d, OP_ADD_UW, rd, rs1, rs2, 0);
            else if (f3 == 4 && rs2 == 0)
                set(d, OP_ZEXT_H, rd, rs1, 0, 0);
            else if (f3 == 4)
                set(d, OP_PACKW, rd, rs1, rs2, 0);
        } else if (f7 == 0x10) { /* Zba: sh1add.uw sh2add.uw sh3add.uw */
            static const uint16_t sh[8] = {OP_ILLEGAL, OP_ILLEGAL, OP_SH1ADD_UW, OP_ILLEGAL, OP_SH2ADD_UW, OP_ILLEGAL, OP_SH3ADD_UW, OP_ILLEGAL};
            set(d, sh[f3], rd, rs1, rs2, 0);
        } else if (f7 == 0x30 && (f3 == 1 || f3 == 5)) { /* Zbb: rolw, rorw */
            set(d, f3 == 1 ? OP_ROLW : OP_RORW, rd, rs1, rs2, 0);
        }
        return;
    case 0x2f: {
        uint32_t f5 = bits(w, 31, 27);
        if (f3 != 2 && f3 != 3)
            return;
        bool dw = f3 == 3;
        switch (f5) {
        case 0x02: if (rs2 == 0) set(d, dw ? OP_LR_D : OP_LR_W, rd, rs1, 0, 0); return;
        case 0x03: set(d, dw ? OP_SC_D : OP_SC_W, rd, rs1, rs2, 0); return;
        case 0x01: set(d, dw ? OP_AMOSWAP_D : OP_AMOSWAP_W, rd, rs1, rs2, 0); return;
        case 0x00: set(d, dw ? OP_AMOADD_D : OP_AMOADD_W, rd, rs1, rs2, 0); return;
        case 0x04: set(d, dw ? OP_AMOXOR_D : OP_AMOXOR_W, rd, rs1, rs2, 0); return;
        case 0x0c: set(d, dw ? OP_AMOAND_D : OP_AMOAND_W, rd, rs1, rs2, 0); return;
        case 0x08: set(d, dw ? OP_AMOOR_D : OP_AMOOR_W, rd, rs1, rs2, 0); return;
        case 0x10: set(d, dw ? OP_AMOMIN_D : OP_AMOMIN_W, rd, rs1, rs2, 0); return;
        case 0x14: set(d, dw ? OP_AMOMAX_D : OP_AMOMAX_W, rd, rs1, rs2, 0); return;
        case 0x18: set(d, dw ? OP_AMOMINU_D : OP_AMOMINU_W, rd, rs1, rs2, 0); return;
        case 0x1c: set(d, dw ? OP_AMOMAXU_D : OP_AMOMAXU_W, rd, rs1, rs2, 0); return;
        }
        return;
    }
    case 0x0f:
        if (f3 == 0)
            set(d, OP_FENCE, 0, 0, 0, 0); /* FENCE, FENCE.TSO, PAUSE: the hart is in order */
        else if (f3 == 1)
            set(d, OP_FENCE_I, 0, 0, 0, 0);
        else if (f3 == 2 && rd == 0 && (imm_i == 0 || imm_i == 1 || imm_i == 2 || imm_i == 4))
            set(d, OP_CBO, 0, rs1, 0, imm_i); /* Zicbom cbo.inval/clean/flush, Zicboz cbo.zero */
        return;
    case 0x73:
        if (f3 == 0) {
            if (w == 0x00000073) set(d, OP_ECALL, 0, 0, 0, 0);
            else if (w == 0x00100073) set(d, OP_EBREAK, 0, 0, 0, 0);
            else if (w == 0x30200073) set(d, OP_MRET, 0, 0, 0, 0);
            else if (w == 0x10200073) set(d, OP_SRET, 0, 0, 0, 0);
            else if (w == 0x10500073) set(d, OP_WFI, 0, 0, 0, 0);
            else if (f7 == 0x09 && rd == 0) set(d, OP_SFENCE_VMA, 0, rs1, rs2, 0);
            else if (f7 == 0x11 && rd == 0) set(d, OP_HFENCE_VVMA, 0, rs1, rs2, 0);
            else if (f7 == 0x31 && rd == 0) set(d, OP_HFENCE_GVMA, 0, rs1, rs2, 0);
            return;
        } else if (f3 == 4) { /* H: HLV/HLVX (even funct7), HSV (odd funct7, rd = 0) */
            bool load = (f7 & 1) == 0;
            if (f7 < 0x30 || f7 > 0x37 || (!load && rd != 0) ||
                (load && !(rs2 == 0 || (rs2 == 1 && f7 != 0x36) || (rs2 == 3 && (f7 == 0x32 || f7 == 0x34)))))
                return; /* stays OP_ILLEGAL */
            if (load)
                set(d, OP_HLV, rd, rs1, 0, (int32_t)(f7 << 5 | rs2));
            else
                set(d, OP_HSV, 0, rs1, rs2, (int32_t)(f7 << 5));
            return;
        } else {
            static const uint16_t csr[8] = {OP_ILLEGAL, OP_CSRRW, OP_CSRRS, OP_CSRRC, OP_ILLEGAL, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI};
            /* imm = the CSR number; rs1 = the source register or the 5-bit immediate */
            set(d, csr[f3], rd, rs1, 0, (int32_t)bits(w, 31, 20));
        }
        return;
    case 0x07: case 0x27: case 0x43: case 0x47: case 0x4b: case 0x4f: case 0x53:
        set(d, OP_FP, rd, rs1, rs2, 0);
        return;
    }
}

void decode_insn(uint32_t w, mt_dinsn *d)
{
    memset(d, 0, sizeof *d);
    if ((w & 3) != 3) {
        uint32_t e = expand_compressed((uint16_t)w);
        if (e == 0) {
            set(d, OP_ILLEGAL, 0, 0, 0, (int32_t)(w & 0xffff));
        } else {
            decode32(e, d);
            if (d->op == OP_FP)
                d->imm = (int32_t)e; /* exec_fp gets the 32-bit form */
        }
        if (d->op == OP_ILLEGAL)
            d->imm = (int32_t)(w & 0xffff);
        d->step = 2 * sizeof(mt_dinsn) / 2;
    } else {
        decode32(w, d);
        if (d->op == OP_FP)
            d->imm = (int32_t)w;
        if (d->op == OP_ILLEGAL)
            d->imm = (int32_t)w;
        d->step = 4 * sizeof(mt_dinsn) / 2;
    }
}

mt_insn_class insn_class(unsigned op)
{
    op = op_uncompressed(op);
    if ((op >= OP_BEQ && op <= OP_BGEU) || (op >= OP_BEQ_L && op <= OP_BGEU_L)) return CLS_BRANCH;
    if (op == OP_JAL || op == OP_JALR || op == OP_JAL_L) return CLS_JUMP;
    if (op >= OP_LB && op <= OP_LWU) return CLS_LOAD;
    if (op >= OP_SB && op <= OP_SD) return CLS_STORE;
    if (op == OP_MUL || op == OP_MULH || op == OP_MULHSU || op == OP_MULHU || op == OP_MULW) return CLS_MUL;
    if (op == OP_CLMUL || op == OP_CLMULH || op == OP_CLMULR) return CLS_MUL;
    if (op >= OP_DIV && op <= OP_REMUW) return CLS_DIV;
    if (op >= OP_LR_W && op <= OP_AMOMAXU_D) return CLS_ATOMIC;
    if (op >= OP_FENCE && op <= OP_CSRRCI) return CLS_SYSTEM;
    if (op == OP_HLV) return CLS_LOAD;
    if (op == OP_HSV) return CLS_STORE;
    if (op == OP_HFENCE_VVMA || op == OP_HFENCE_GVMA) return CLS_SYSTEM;
    if (op == OP_CBO) return CLS_STORE;
    if (op == OP_FP) return CLS_FP;
    return CLS_ALU;
}
