/* Decoder: 32-bit formats and immediates, every compressed quadrant including the reserved and
 * HINT encodings, x0 as the sink register. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu/cpu/decode.h"

static mt_dinsn dec(uint32_t w)
{
    mt_dinsn d;
    decode_insn(w, &d);
    return d;
}

static void test_base_formats(void **state)
{
    (void)state;
    mt_dinsn d = dec(0x00a58533); /* add a0, a1, a0 */
    assert_int_equal(d.op, OP_ADD);
    assert_int_equal(d.rd, 10);
    assert_int_equal(d.rs1, 11);
    assert_int_equal(d.rs2, 10);
    assert_int_equal(dinsn_len(&d), 4);
    d = dec(0xfff00513); /* addi a0, x0, -1 */
    assert_int_equal(d.op, OP_ADDI);
    assert_int_equal(d.imm, -1);
    d = dec(0x00000013); /* nop: rd x0 goes to the sink */
    assert_int_equal(d.rd, 32);
    d = dec(0xfe050ee3); /* beq a0, x0, -4 */
    assert_int_equal(d.op, OP_BEQ);
    assert_int_equal(d.imm, -4);
    d = dec(0x800000ef); /* jal ra, -1 MiB */
    assert_int_equal(d.op, OP_JAL);
    assert_int_equal(d.imm, -(1 << 20));
    d = dec(0xfe113c23); /* sd ra, -8(sp) */
    assert_int_equal(d.op, OP_SD);
    assert_int_equal(d.imm, -8);
    assert_int_equal(d.rs1, 2);
    assert_int_equal(d.rs2, 1);
    d = dec(0x12345537); /* lui a0, 0x12345 */
    assert_int_equal(d.op, OP_LUI);
    assert_int_equal(d.imm, 0x12345000);
    d = dec(0x43f55513); /* srai a0, a0, 63 */
    assert_int_equal(d.op, OP_SRAI);
    assert_int_equal(d.imm, 63);
    assert_int_equal(dec(0x02b50533).op, OP_MUL);
    assert_int_equal(dec(0x02b5453b).op, OP_DIVW);
    assert_int_equal(dec(0x100526af).op, OP_LR_W);
    assert_int_equal(dec(0x18b6b6af).op, OP_SC_D);
    assert_int_equal(dec(0xe0b6a6af).op, OP_AMOMAXU_W);
    assert_int_equal(dec(0xc0b6a6af).op, OP_AMOMINU_W);
    assert_int_equal(dec(0x30200073).op, OP_MRET);
    assert_int_equal(dec(0x12000073).op, OP_SFENCE_VMA);
    assert_int_equal(dec(0x0000100f).op, OP_FENCE_I);
    d = dec(0x34011173); /* csrrw sp, mscratch, sp */
    assert_int_equal(d.op, OP_CSRRW);
    assert_int_equal(d.imm, 0x340);
}

static void test_illegal(void **state)
{
    (void)state;
    assert_int_equal(dec(0x00000000).op, OP_ILLEGAL);  /* all zero: illegal compressed */
    assert_int_equal(dec(0xffffffff).op, OP_ILLEGAL);
    assert_int_equal(dec(0x02051513).op, OP_SLLI);     /* slli a0, a0, 32: legal in RV64 */
    assert_int_equal(dec(0x04051513).op, OP_ILLEGAL);  /* funct6 != 0 */
    assert_int_equal(dec(0x0205151b).op, OP_ILLEGAL);  /* slliw with shamt[5] = 1 */
    assert_int_equal(dec(0x00007033).op, OP_AND);
    assert_int_equal(dec(0x40007033).op, OP_ANDN);     /* funct7 0x20 with AND: Zbb's andn */
    assert_int_equal(dec(0x40002033).op, OP_ILLEGAL);  /* funct7 0x20 with SLT */
    assert_int_equal(dec(0x1005252f | (1u << 20)).op, OP_ILLEGAL); /* lr.w with rs2 != 0 */
    assert_int_equal(dec(0x00002067).op, OP_ILLEGAL);  /* jalr funct3 != 0 */
    mt_dinsn d = dec(0xdeadbeef & ~0x7fu);              /* opcode 0: illegal, imm = the bits */
    (void)d;
    d = dec(0x0000607f);
    assert_int_equal(d.op, OP_ILLEGAL);
    assert_int_equal((uint32_t)d.imm, 0x0000607f);
}

static void test_compressed(void **state)
{
    (void)state;
    mt_dinsn d = dec(0x0808); /* c.addi4spn a0, sp, 16 */
    assert_int_equal(d.op, OP_ADDI);
    assert_int_equal(d.rd, 10);
    assert_int_equal(d.rs1, 2);
    assert_int_equal(d.imm, 16);
    assert_int_equal(dinsn_len(&d), 2);
    d = dec(0x6108); /* c.ld a0, 0(a0) */
    assert_int_equal(d.op, OP_LD);
    d = dec(0x1141); /* c.addi sp, -16 */
    assert_int_equal(d.op, OP_ADDI);
    assert_int_equal(d.imm, -16);
    d = dec(0x7139); /* c.addi16sp sp, -64 */
    assert_int_equal(d.op, OP_ADDI);
    assert_int_equal(d.rd, 2);
    assert_int_equal(d.imm, -64);
    d = dec(0x8082); /* c.jr ra (ret) */
    assert_int_equal(d.op, OP_JALR);
    assert_int_equal(d.rd, 32);
    assert_int_equal(d.rs1, 1);
    d = dec(0x9502); /* c.jalr a0 */
    assert_int_equal(d.op, OP_JALR);
    assert_int_equal(d.rd, 1);
    d = dec(0x852e); /* c.mv a0, a1 */
    assert_int_equal(d.op, OP_ADD);
    assert_int_equal(d.rs1, 0);
    assert_int_equal(d.rs2, 11);
    d = dec(0x9002); /* c.ebreak */
    assert_int_equal(d.op, OP_EBREAK);
    d = dec(0xa001); /* c.j 0 */
    assert_int_equal(d.op, OP_JAL);
    assert_int_equal(d.imm, 0);
    d = dec(0xdd6d); /* c.beqz a0, -6 */
    assert_int_equal(d.op, OP_BEQ);
    assert_int_equal(d.imm, -6);
    d = dec(0x8d09); /* c.sub a0, a0, a0? (sub s0..) */
    assert_int_equal(d.op, OP_SUB);
    d = dec(0x9d2d); /* c.addw */
    assert_int_equal(d.op, OP_ADDW);
    d = dec(0x60a2); /* c.ldsp ra, 8(sp) */
    assert_int_equal(d.op, OP_LD);
    assert_int_equal(d.imm, 8);
    d = dec(0xe406); /* c.sdsp ra, 8(sp) */
    assert_int_equal(d.op, OP_SD);
    assert_int_equal(d.imm, 8);
    /* reserved encodings */
    assert_int_equal(dec(0x0000).op, OP_ILLEGAL); /* c.addi4spn imm 0 */
    assert_int_equal(dec(0x6101).op, OP_ILLEGAL); /* c.addi16sp imm 0 */
    assert_int_equal(dec(0x6501).op, OP_ILLEGAL); /* c.lui a0, 0 */
    assert_int_equal(dec(0x8002).op, OP_ILLEGAL); /* c.jr x0 */
    assert_int_equal(dec(0x4002).op, OP_ILLEGAL); /* c.lwsp x0 */
    assert_int_equal(dec(0x6002).op, OP_ILLEGAL); /* c.ldsp x0 */
    assert_int_equal(dec(0x2001).op, OP_ILLEGAL); /* c.addiw x0 */
    assert_int_equal(dec(0x9c41).op, OP_ILLEGAL); /* reserved c.subw/addw slot */
    assert_int_equal(dec(0x8001 | (4u << 13)).op, OP_SRLI); /* c.srli shamt 0: a HINT, not illegal */
    /* F/D compressed go to the FP hook with their 32-bit form */
    d = dec(0x2008); /* c.fld fa0, 0(s0) */
    assert_int_equal(d.op, OP_FP);
    assert_int_equal((uint32_t)d.imm & 0x7f, 0x07);
}

/* Zba/Zbb/Zbc/Zbs/Zbkb/Zbkx (RV64): every op from its encoding (rd = a0, rs1 = a0, rs2 = a1, as
 * GNU as 2.40 assembles them with -march=rv64i_zba_zbb_zbc_zbs_zbkb_zbkx), the immediates, and the
 * reserved neighbours. */
static void test_bitmanip(void **state)
{
    (void)state;
    static const struct { uint32_t w; unsigned op; } ops[] = {
        {0x08b5053b, OP_ADD_UW}, {0x20b52533, OP_SH1ADD}, {0x20b54533, OP_SH2ADD}, {0x20b56533, OP_SH3ADD},
        {0x20b5253b, OP_SH1ADD_UW}, {0x20b5453b, OP_SH2ADD_UW}, {0x20b5653b, OP_SH3ADD_UW},
        {0x0885151b, OP_SLLI_UW}, {0x40b57533, OP_ANDN}, {0x40b56533, OP_ORN}, {0x40b54533, OP_XNOR},
        {0x60051513, OP_CLZ}, {0x6005151b, OP_CLZW}, {0x60151513, OP_CTZ}, {0x6015151b, OP_CTZW},
        {0x60251513, OP_CPOP}, {0x6025151b, OP_CPOPW}, {0x0ab56533, OP_MAX}, {0x0ab57533, OP_MAXU},
        {0x0ab54533, OP_MIN}, {0x0ab55533, OP_MINU}, {0x60451513, OP_SEXT_B}, {0x60551513, OP_SEXT_H},
        {0x0805453b, OP_ZEXT_H}, {0x60b51533, OP_ROL}, {0x60b5153b, OP_ROLW}, {0x60b55533, OP_ROR},
        {0x63f55513, OP_RORI}, {0x61f5551b, OP_RORIW}, {0x60b5553b, OP_RORW}, {0x28755513, OP_ORC_B},
        {0x6b855513, OP_REV8}, {0x0ab51533, OP_CLMUL}, {0x0ab53533, OP_CLMULH}, {0x0ab52533, OP_CLMULR},
        {0x48b51533, OP_BCLR}, {0x48351513, OP_BCLRI}, {0x48b55533, OP_BEXT}, {0x4bf55513, OP_BEXTI},
        {0x68b51533, OP_BINV}, {0x6a051513, OP_BINVI}, {0x28b51533, OP_BSET}, {0x28151513, OP_BSETI},
        /* Zbkb, Zbkx */
        {0x08b54533, OP_PACK}, {0x08b57533, OP_PACKH}, {0x08b5453b, OP_PACKW}, {0x68755513, OP_BREV8},
        {0x28b52533, OP_XPERM4}, {0x28b54533, OP_XPERM8},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        mt_dinsn d = dec(ops[i].w);
        assert_int_equal(d.op, ops[i].op);
        assert_int_equal(d.rd, 10);
        assert_int_equal(d.rs1, 10);
        assert_int_equal(insn_class(d.op), ops[i].op >= OP_CLMUL && ops[i].op <= OP_CLMULR ? CLS_MUL : CLS_ALU);
        assert_int_equal(op_compressed_twin(d.op), d.op); /* 32-bit only: no twin */
    }
    assert_int_equal(dec(0x0885151b).imm, 8);  /* slli.uw a0, a0, 8 */
    assert_int_equal(dec(0x0bf5151b).imm, 63); /* slli.uw a0, a0, 63 */
    assert_int_equal(dec(0x63f55513).imm, 63); /* rori a0, a0, 63 */
    assert_int_equal(dec(0x61f5551b).imm, 31); /* roriw a0, a0, 31 */
    assert_int_equal(dec(0x4bf55513).imm, 63); /* bexti a0, a0, 63 */
    assert_int_equal(dec(0x6a051513).imm, 32); /* binvi a0, a0, 32 */
    assert_int_equal(dec(0x0ab52533).rs2, 11);
    assert_int_equal(dec(0x08b5553b).op, OP_ILLEGAL); /* funct7 0000100 funct3 101 in OP-32 */
    assert_int_equal(dec(0x08b55533).op, OP_ILLEGAL); /* funct7 0000100 funct3 101 in OP */
    assert_int_equal(dec(0x28b53533).op, OP_ILLEGAL); /* funct7 0010100 funct3 011 (no xperm16) */
    assert_int_equal(dec(0x6205551b).op, OP_ILLEGAL); /* roriw with shamt[5] = 1 */
    assert_int_equal(dec(0x60351513).op, OP_ILLEGAL); /* funct12 0x603 */
    assert_int_equal(dec(0x62051513).op, OP_ILLEGAL); /* funct12 0x620 */
    assert_int_equal(dec(0x6045151b).op, OP_ILLEGAL); /* no sext.b in OP-IMM-32 */
    assert_int_equal(dec(0x69855513).op, OP_ILLEGAL); /* rev8's RV32 encoding */
    assert_int_equal(dec(0x68855513).op, OP_ILLEGAL); /* 0x688 next to brev8's 0x687 */
    assert_int_equal(dec(0x0ab50533).op, OP_ILLEGAL); /* funct7 0000101 funct3 000 */
    assert_int_equal(dec(0x20b51533).op, OP_ILLEGAL); /* funct7 0010000 funct3 001 */
    assert_int_equal(dec(0x08051513).op, OP_ILLEGAL); /* slli.uw's funct6 in OP-IMM */
    assert_int_equal(dec(0x08b5553b).imm, (int32_t)0x08b5553b); /* mtval: the bits */
}

static void test_lengths_and_classes(void **state)
{
    (void)state;
    assert_int_equal(insn_length(0x0001), 2);
    assert_int_equal(insn_length(0x0013), 4);
    assert_int_equal(insn_class(OP_DIVU), CLS_DIV);
    assert_int_equal(insn_class(OP_MULW), CLS_MUL);
    assert_int_equal(insn_class(OP_BNE), CLS_BRANCH);
    assert_int_equal(insn_class(OP_LWU), CLS_LOAD);
    assert_int_equal(insn_class(OP_AMOADD_D), CLS_ATOMIC);
    assert_string_equal(op_name(OP_SRAIW), "SRAIW");
    /* straight ops have compressed twins (the interpreter's), other ops none */
    assert_int_not_equal(op_compressed_twin(OP_ADDI), OP_ADDI);
    assert_int_equal(op_uncompressed(op_compressed_twin(OP_ADDI)), OP_ADDI);
    assert_int_equal(insn_class(op_compressed_twin(OP_LW)), CLS_LOAD);
    assert_int_equal(op_compressed_twin(OP_BEQ), OP_BEQ);
    assert_int_equal(op_uncompressed(OP_JALR), OP_JALR);
    assert_string_equal(op_name(op_compressed_twin(OP_SD)), "SD_C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_formats),
        cmocka_unit_test(test_illegal),
        cmocka_unit_test(test_compressed),
        cmocka_unit_test(test_lengths_and_classes),
        cmocka_unit_test(test_bitmanip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
