/* The ISA string (emu/platform/isa.h) that mtemu --help, --version and the device tree give is
 * the one implemented: its single letters are misa's (with S and U, which the string does not
 * spell), and every Z/S extension it names has here an instruction that the decoder accepts
 * (or, for the privileged ones, the CSR or the page-table feature that mtemu has), so naming an
 * extension without implementing it, or changing misa alone, fails this test. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "emu/cpu/decode.h"
#include "emu/platform/isa.h"
#include "tests/unit/cpu_fixture.h"

static int setup(void **state) { return fixture_setup(state, 1 << 20); }

#define R_TYPE(f7, rs2, rs1, f3, rd, opc) \
    ((uint32_t)(f7) << 25 | (uint32_t)(rs2) << 20 | (uint32_t)(rs1) << 15 | (uint32_t)(f3) << 12 | (uint32_t)(rd) << 7 | (uint32_t)(opc))

static unsigned decoded_op(uint32_t bits)
{
    mt_dinsn d;
    memset(&d, 0, sizeof d);
    decode_insn(bits, &d);
    return d.op;
}

static void test_letters_are_misa(void **state)
{
    (void)state;
    const char *isa = MT_ISA_STRING;
    assert_int_equal(strncmp(isa, "rv64", 4), 0);
    uint64_t misa = csr_misa();
    assert_int_equal(misa >> 62, 2); /* MXL = 64 */
    uint64_t letters = (UINT64_C(1) << ('S' - 'A')) | (UINT64_C(1) << ('U' - 'A'));
    for (const char *p = isa + 4; *p && *p != '_'; p++) {
        assert_true(islower((unsigned char)*p));
        letters |= UINT64_C(1) << (*p - 'a');
    }
    assert_int_equal(misa & ((UINT64_C(1) << 26) - 1), letters);
}

/* One check per multi-letter extension the string may name. */
static void test_named_extensions_exist(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    uint64_t v;
    static const struct {
        const char *name;
        uint32_t bits; /* an instruction of it */
        unsigned op;
    } insns[] = {
        {"zicsr", 0x30002173u /* csrrs x2, mstatus, x0 */, OP_CSRRS},
        {"zifencei", 0x0000100fu /* fence.i */, OP_FENCE_I},
        {"zihintpause", 0x0100000fu /* pause: a FENCE hint, in-order hart */, OP_FENCE},
        {"zba", R_TYPE(0x10, 3, 2, 2, 1, 0x33) /* sh1add */, OP_SH1ADD},
        {"zbb", R_TYPE(0x20, 3, 2, 7, 1, 0x33) /* andn */, OP_ANDN},
        {"zbc", R_TYPE(0x05, 3, 2, 1, 1, 0x33) /* clmul */, OP_CLMUL},
        {"zbs", R_TYPE(0x14, 3, 2, 1, 1, 0x33) /* bset */, OP_BSET},
        {"zbkb", R_TYPE(0x04, 3, 2, 4, 1, 0x33) /* pack */, OP_PACK},
        {"zbkx", R_TYPE(0x14, 3, 2, 4, 1, 0x33) /* xperm8 */, OP_XPERM8},
        {"zicbom", 0x0015200fu /* cbo.clean (a0) */, OP_CBO},
        {"zicboz", 0x0045200fu /* cbo.zero (a0) */, OP_CBO},
        {"zfh", R_TYPE(0x02, 3, 2, 7, 1, 0x53) /* fadd.h dyn */, OP_FP},
    };
    char buf[256];
    snprintf(buf, sizeof buf, "%s", MT_ISA_STRING);
    int named = 0;
    for (char *tok = strtok(strchr(buf, '_'), "_"); tok; tok = strtok(NULL, "_")) {
        int known = 0;
        for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++)
            if (!strcmp(tok, insns[i].name)) {
                assert_int_equal(decoded_op(insns[i].bits), insns[i].op);
                known = 1;
            }
        if (!strcmp(tok, "sstc")) { /* stimecmp exists */
            assert_true(csr_read(c, 0x14d, &v));
            known = 1;
        }
        if (!strcmp(tok, "svnapot") || !strcmp(tok, "svpbmt")) /* PTE bits N and PBMT: test_emu_mmu */
            known = 1;
        if (!known)
            fail_msg("MT_ISA_STRING names '%s', which this test does not know: add its check", tok);
        named++;
    }
    assert_true(named >= 7);
    /* the letters: M, A, F/D, C and H decode */
    assert_int_equal(decoded_op(R_TYPE(0x01, 3, 2, 0, 1, 0x33)), OP_MUL);
    assert_int_equal(decoded_op(R_TYPE(0x00, 3, 2, 3, 1, 0x2f)), OP_AMOADD_D);
    assert_int_equal(decoded_op(R_TYPE(0x01, 3, 2, 7, 1, 0x53) /* fadd.d dyn */), OP_FP);
    assert_int_equal(decoded_op(R_TYPE(0x30, 0, 2, 4, 1, 0x73) /* hlv.b */), OP_HLV);
    assert_int_equal(expand_compressed(0x0085 /* c.addi x1, 1 */), 0x00108093u /* addi x1, x1, 1 */);
    assert_int_equal(decoded_op(0xffffffffu), OP_ILLEGAL); /* and the checks can fail */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_letters_are_misa),
        cmocka_unit_test_setup_teardown(test_named_extensions_exist, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
