/* RV64IMAC + Zicsr + Zifencei decoder: 32-bit and compressed instructions into mt_dinsn.
 * Compressed instructions become their 32-bit equivalents (len = 2).  F/D opcodes decode to
 * OP_FP (the 32-bit form in `imm`), executed by cpu->fp_exec when the F/D extension is built. */
#ifndef EMU_DECODE_H
#define EMU_DECODE_H

#include <stdint.h>

#include "emu/cpu.h"

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
    X(HLV) X(HSV) X(HFENCE_VVMA) X(HFENCE_GVMA)

/* The *_L ops are made by the interpreter (never by decode_insn) for a branch or JAL whose target
 * lies in the same 4 KiB page: imm is then the byte distance between the two decoded slots.
 * DECODE (a zeroed slot), PAGE_END (sentinels), CROSS (straddles two pages) and BREAK (a slot
 * the interpreter stops at for an event, its op kept aside) are the interpreter's too. */

/* The ops whose handlers go on to the next slot on their fast path.  Each has a compressed twin,
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

enum {
#define MT_OP_ENUM(n) OP_##n,
    MT_OPS(MT_OP_ENUM)
#undef MT_OP_ENUM
#define MT_OP_C_ENUM(n) OP_##n##_C,
    MT_STRAIGHT_OPS(MT_OP_C_ENUM)
#undef MT_OP_C_ENUM
    OP_COUNT
};

_Static_assert(OP_COUNT <= 256, "ops fit mt_dinsn.op");

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
/* Expands a compressed instruction to its 32-bit form; 0 when it is illegal/reserved. */
uint32_t expand_compressed(uint16_t c);

#endif
