/* RV64IMAC + Zicsr + Zifencei + Zba/Zbb/Zbc/Zbs/Zbkb/Zbkx + Zicbom/Zicboz decoder: 32-bit and compressed instructions into mt_dinsn.
 * Compressed instructions become their 32-bit equivalents (len = 2).  F/D opcodes decode to
 * OP_FP (the 32-bit form in `imm`), executed by cpu->fp_exec when the F/D extension is built. */
#ifndef EMU_DECODE_H
#define EMU_DECODE_H

#include <stdint.h>

#include "emu/cpu/cpu.h"

#define MT_OPS(X) \
    X(DECODE) X(PAGE_END) X(CROSS) X(BREAK) X(ILLEGAL) \
    X(LUI) X(AUIPC) X(JAL) X(JALR) \
    X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) \
    X(LB) X(LH) X(LW) X(LD) X(LBU) X(LHU) X(LWU) \
    X(SB) X(SH) X(SW) X(SD) \
    X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) \
    X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW) \
    X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU) \
    X(MULW) X(DIVW) X(DIVUW) X(REMW) X(REMUW) \
    X(LR_W) X(SC_W) X(LR_D) X(SC_D) \
    X(AMOSWAP_W) X(AMOADD_W) X(AMOXOR_W) X(AMOAND_W) X(AMOOR_W) \
    X(AMOMIN_W) X(AMOMAX_W) X(AMOMINU_W) X(AMOMAXU_W) \
    X(AMOSWAP_D) X(AMOADD_D) X(AMOXOR_D) X(AMOAND_D) X(AMOOR_D) \
    X(AMOMIN_D) X(AMOMAX_D) X(AMOMINU_D) X(AMOMAXU_D) \
    X(FENCE) X(FENCE_I) X(ECALL) X(EBREAK) X(MRET) X(SRET) X(WFI) X(SFENCE_VMA) \
    X(CSRRW) X(CSRRS) X(CSRRC) X(CSRRWI) X(CSRRSI) X(CSRRCI) \
    X(FP) \
    X(BEQ_L) X(BNE_L) X(BLT_L) X(BGE_L) X(BLTU_L) X(BGEU_L) X(JAL_L) \
    X(HLV) X(HSV) X(HFENCE_VVMA) X(HFENCE_GVMA) \
    X(CBO) \
    MT_STRAIGHT_W_OPS(X)

/* CBO is a cache-block operation (Zicbom cbo.inval/clean/flush, Zicboz cbo.zero): imm is its
 * funct12 (0 inval, 1 clean, 2 flush, 4 zero), rs1 the address register (emu/cpu/cbo.c). */

/* The *_L ops are made by the interpreter (never by decode_insn) for a branch or JAL whose target
 * lies in the same 4 KiB page: imm is then the byte distance between the two decoded slots.
 * DECODE (a zeroed slot), PAGE_END (sentinels), CROSS (straddles two pages) and BREAK (a slot
 * the interpreter stops at for an event, its op kept aside) are the interpreter's too. */

/* The ops whose handlers go on to the next slot on their fast path (with MT_STRAIGHT_W_OPS below,
 * which only exist as 32-bit instructions).  Each one here has a compressed twin,
 * OP_<name>_C, made by the interpreter for the 2-byte forms: so a handler knows the distance to
 * the next slot without loading it from the slot. */
#define MT_STRAIGHT_OPS(X) \
    X(LUI) X(AUIPC) \
    X(LB) X(LH) X(LW) X(LD) X(LBU) X(LHU) X(LWU) \
    X(SB) X(SH) X(SW) X(SD) \
    X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) \
    X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW) \
    X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU) \
    X(MULW) X(DIVW) X(DIVUW) X(REMW) X(REMUW) \
    X(FENCE)

/* Straight ops that only exist as 32-bit instructions (no compressed form can expand to them), so
 * they need no compressed twin: the bit-manipulation extensions Zba, Zbb, Zbc, Zbs and the
 * scalar-crypto bit-manipulation Zbkb (pack, packh, packw, brev8; its rev8, rol/ror, andn/orn/xnor
 * are Zbb's) and Zbkx (xperm4, xperm8), RV64.  Their
 * handlers go on to the next slot like the others, 4 bytes on.  The immediate forms (SLLI_UW,
 * RORI, RORIW, Bxxxi) hold the shift amount / bit index in imm; the unary ones (CLZ ... REV8)
 * read rs1 only.  CLMUL* are timed as MUL, the rest as ALU ops. */
#define MT_STRAIGHT_W_OPS(X) \
    X(ADD_UW) X(SH1ADD) X(SH2ADD) X(SH3ADD) X(SH1ADD_UW) X(SH2ADD_UW) X(SH3ADD_UW) X(SLLI_UW) \
    X(ANDN) X(ORN) X(XNOR) X(CLZ) X(CLZW) X(CTZ) X(CTZW) X(CPOP) X(CPOPW) \
    X(MAX) X(MAXU) X(MIN) X(MINU) X(SEXT_B) X(SEXT_H) X(ZEXT_H) \
    X(ROL) X(ROLW) X(ROR) X(RORI) X(RORIW) X(RORW) X(ORC_B) X(REV8) \
    X(CLMUL) X(CLMULH) X(CLMULR) \
    X(BCLR) X(BCLRI) X(BEXT) X(BEXTI) X(BINV) X(BINVI) X(BSET) X(BSETI) \
    X(PACK) X(PACKH) X(PACKW) X(BREV8) X(XPERM4) X(XPERM8)

/* Fused pairs (static superinstructions): a straight op followed, in the same run, by a straight
 * op or by a conditional branch within the page.  The interpreter gives the first slot of such a
 * pair the op OP_P_<first>_<second>, whose handler executes both, so the pair costs one dispatch
 * instead of two; the second slot keeps its own op (a jump may land on it).  The pairs are the
 * most frequent dynamic ones over a Linux boot to a shell (weighted 3), the firmware workloads and
 * bench_cpu, as counted by tests/bench/op_pairs.c on --log-commits logs (docs/emulator.md). */
#define MT_PAIR_OPS(X) \
    X(ADDI, ADDI) X(LW, ADDI) X(SLLI, SRLI) X(SRLI, ADD) X(SRLI, XOR) X(LW, LW) X(SD, SD) \
    X(ADDI, ADDW) X(ADD, ADD) X(LD, LD) X(ADDI, MULW) X(SW, ADDI) X(XOR, MUL) X(MUL, SRLI) \
    X(ADDI, SLLI) X(XOR, SW) X(SB, ADDI) X(MULW, ADDW) X(LW, ADD) X(ADDW, SW) X(LBU, LBU) \
    X(ADD, SLLI) X(MULW, ADDI) X(SLLI, ADD) X(SD, ADDI) X(ADD, SRLI) X(ADD, LD) X(ADDI, ADD) \
    X(ADDI, SRLI) X(ADD, ADDI) X(ADD, LW) X(XOR, SRLI) X(SRLI, SLLI) X(SRLI, MUL) X(LBU, ADDI) \
    X(ADDIW, ADD) X(LD, ADDIW) X(LB, SB) X(XOR, SD) X(AND, SLLI) X(ADD, XOR) X(MUL, ADDI) \
    X(AUIPC, ADDI) X(LD, ADDI) X(ADDI, SB) X(SLLIW, OR) X(ADDI, SW) X(LW, SLLI) X(LD, ADD) \
    X(ADDI, SD) X(SB, SB) X(LD, SLLI) X(OR, OR) X(SD, ADD) X(ADDI, LD) X(SW, SW) X(ADDIW, ADDIW)
#define MT_PAIR_BRANCH_OPS(X) \
    X(ADDW, BNE) X(ADD, BNE) X(ADDI, BNE) X(SW, BNE) X(ADD, BLTU) X(ADDI, BLTU) X(ADDI, BLT) \
    X(ANDI, BNE) X(ANDI, BEQ) X(LBU, BEQ) X(LBU, BNE) X(LD, BEQ) X(LD, BNE) X(LW, BEQ) X(LW, BNE)

/* Fused triples: two straight ops and a conditional branch within the page, the same way (the
 * first slot's op is OP_T_<first>_<second>_<branch>; the second and third keep theirs).  A loop
 * body of an odd number of instructions ends in one: bench_cpu's multiply-accumulate loop (LW LW
 * ADDI ADDI MULW ADDW BNE) then runs as 3 dispatches instead of 4.  Chosen by their dynamic counts
 * (tests/bench/op_pairs.c --branch-triples; docs/emulator.md "Fused pairs and triples"). */
#define MT_TRIPLE_BRANCH_OPS(X) \
    X(MULW, ADDW, BNE) X(ADDI, ADDI, BNE) X(SW, ADDI, BLTU) X(LBU, ADDI, BNE) X(SB, ADDI, BLTU)

/* Fused quads: four straight ops in a row, the same way again (the first slot's op is
 * OP_Q_<a>_<b>_<c>_<d>_<lengths>; the other three keep theirs), then one dispatch to the slot
 * after the fourth.  bench_cpu's multiply-accumulate loop (C.LW LW C.ADDI ADDI MULW ADDW BNE,
 * 86 percent of its instructions) then runs as 2 dispatches instead of 3: the quad and the triple. */
#define MT_QUAD_OPS(X) X(LW, LW, ADDI, ADDI)
/* M(a, b, c, d, suffix, len1, len2, len3, len4) for each of the 16 length combinations (W: 4
 * bytes, C: 2, in order), so a quad's handler steps by constants */
#define MT_QUAD_VARIANTS(M, a, b, c, d) \
    M(a, b, c, d, WWWW, 4, 4, 4, 4) \
    M(a, b, c, d, WWWC, 4, 4, 4, 2) \
    M(a, b, c, d, WWCW, 4, 4, 2, 4) \
    M(a, b, c, d, WWCC, 4, 4, 2, 2) \
    M(a, b, c, d, WCWW, 4, 2, 4, 4) \
    M(a, b, c, d, WCWC, 4, 2, 4, 2) \
    M(a, b, c, d, WCCW, 4, 2, 2, 4) \
    M(a, b, c, d, WCCC, 4, 2, 2, 2) \
    M(a, b, c, d, CWWW, 2, 4, 4, 4) \
    M(a, b, c, d, CWWC, 2, 4, 4, 2) \
    M(a, b, c, d, CWCW, 2, 4, 2, 4) \
    M(a, b, c, d, CWCC, 2, 4, 2, 2) \
    M(a, b, c, d, CCWW, 2, 2, 4, 4) \
    M(a, b, c, d, CCWC, 2, 2, 4, 2) \
    M(a, b, c, d, CCCW, 2, 2, 2, 4) \
    M(a, b, c, d, CCCC, 2, 2, 2, 2)

enum {
#define MT_OP_ENUM(n) OP_##n,
    MT_OPS(MT_OP_ENUM)
#undef MT_OP_ENUM
#define MT_OP_C_ENUM(n) OP_##n##_C,
    MT_STRAIGHT_OPS(MT_OP_C_ENUM)
#undef MT_OP_C_ENUM
    OP_PAIRS_BEGIN, /* every op from here on is a pair's (op_is_pair) */
    OP_PAIRS_BEFORE = OP_PAIRS_BEGIN - 1,
/* one op per pair and lengths (W: 4 bytes, C: 2), so a pair's handler steps by constants */
#define MT_OP_PAIR_ENUM(a, b) OP_P_##a##_##b##_WW, OP_P_##a##_##b##_WC, OP_P_##a##_##b##_CW, OP_P_##a##_##b##_CC,
    MT_PAIR_OPS(MT_OP_PAIR_ENUM)
#undef MT_OP_PAIR_ENUM
#define MT_OP_PAIR_BR_ENUM(a, b) OP_P_##a##_##b##_W, OP_P_##a##_##b##_C,
    MT_PAIR_BRANCH_OPS(MT_OP_PAIR_BR_ENUM)
#undef MT_OP_PAIR_BR_ENUM
    OP_TRIPLES_BEGIN, /* every op from here on is a triple's (op_is_triple) */
    OP_TRIPLES_BEFORE = OP_TRIPLES_BEGIN - 1,
/* one op per triple and lengths of its two straight ops (the branch ends the run: its length is
 * the slot's step) */
#define MT_OP_TRIPLE_ENUM(a, b, c) OP_T_##a##_##b##_##c##_WW, OP_T_##a##_##b##_##c##_WC, \
                                   OP_T_##a##_##b##_##c##_CW, OP_T_##a##_##b##_##c##_CC,
    MT_TRIPLE_BRANCH_OPS(MT_OP_TRIPLE_ENUM)
#undef MT_OP_TRIPLE_ENUM
    OP_QUADS_BEGIN, /* every op from here on is a quad's (op_is_quad) */
    OP_QUADS_BEFORE = OP_QUADS_BEGIN - 1,
#define MT_OP_QUAD_VARIANT_ENUM(a, b, c, d, sfx, l1, l2, l3, l4) OP_Q_##a##_##b##_##c##_##d##_##sfx,
#define MT_OP_QUAD_ENUM(a, b, c, d) MT_QUAD_VARIANTS(MT_OP_QUAD_VARIANT_ENUM, a, b, c, d)
    MT_QUAD_OPS(MT_OP_QUAD_ENUM)
#undef MT_OP_QUAD_ENUM
#undef MT_OP_QUAD_VARIANT_ENUM
    OP_COUNT
};

_Static_assert(OP_COUNT <= 1024, "ops fit mt_dinsn.op and mt_cpu.op_cost");

/* Length in bytes of a decoded instruction (its step spans one slot per 2 bytes). */
static inline unsigned dinsn_len(const mt_dinsn *d) { return d->step / (sizeof(mt_dinsn) / 2); }

/* Instruction classes of the timing model. */
typedef enum { CLS_ALU, CLS_BRANCH, CLS_JUMP, CLS_LOAD, CLS_STORE, CLS_MUL, CLS_DIV, CLS_ATOMIC, CLS_SYSTEM, CLS_FP, CLS_COUNT } mt_insn_class;

/* Length in bytes of the instruction whose first 16-bit parcel is `lo`: 2 or 4 (longer
 * encodings are reserved and decode as illegal with length 4). */
static inline unsigned insn_length(uint16_t lo) { return (lo & 3) == 3 ? 4 : 2; }

/* Decodes one instruction (`bits`: 32-bit instruction, or a compressed one in the low 16 bits).
 * Always fills *d (OP_ILLEGAL when the encoding is not valid for this hart); the run fields and
 * cost are the interpreter's to fill. */
void decode_insn(uint32_t bits, mt_dinsn *d);
mt_insn_class insn_class(unsigned op);
/* A straight op's compressed twin (or op itself when it has none), and back. */
unsigned op_compressed_twin(unsigned op);
unsigned op_uncompressed(unsigned op);
const char *op_name(unsigned op);
/* The pair op of a straight op `first` (uncompressed, len1 bytes long) followed by `second` (an
 * uncompressed straight op len2 bytes long, or a local branch OP_Bxx_L), or OP_DECODE when that
 * pair is not fused. */
unsigned op_pair(unsigned first, unsigned len1, unsigned second, unsigned len2);
/* The triple op of straight ops `first` and `second` (uncompressed, len1 and len2 bytes long)
 * followed by the local branch `branch` (OP_Bxx_L), or OP_DECODE when it is not fused. */
unsigned op_triple(unsigned first, unsigned len1, unsigned second, unsigned len2, unsigned branch);
/* The (uncompressed) op of a pair's, triple's or quad's first instruction; any other op is returned as it is. */
unsigned op_pair_first(unsigned op);
/* The quad op of four straight ops (uncompressed, with their lengths in bytes), or OP_DECODE
 * when they are not fused. */
unsigned op_quad(const unsigned ops[4], const unsigned lens[4]);
/* A pair's, a triple's or a quad's op (all run more than one instruction per dispatch). */
static inline int op_is_pair(unsigned op) { return op >= OP_PAIRS_BEGIN; }
static inline int op_is_triple(unsigned op) { return op >= OP_TRIPLES_BEGIN && op < OP_QUADS_BEGIN; }
static inline int op_is_quad(unsigned op) { return op >= OP_QUADS_BEGIN; }
/* Expands a compressed instruction to its 32-bit form; 0 when it is illegal/reserved. */
uint32_t expand_compressed(uint16_t c);

#endif
