/* Unit tests for emu/cpu/cbo: the envcfg decision of Zicbom/Zicboz (illegal vs virtual
 * instruction vs executed) in every mode, M, HS, U, VS and VU, for every combination of the
 * menvcfg / senvcfg / henvcfg fields, against the CMO chapter's pseudo-code written out here;
 * and the WARL rule of the fields.  The memory side (zeroing, faults) is tests/isa/src/cbo.S. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "emu/cpu/cbo.h"
#include "emu/cpu/cpu.h"

enum mode { M, HS, U, VS, VU };

/* The spec's pseudo-code, field values given as "enabled" (CBIE != 00, CBCFE, CBZE). */
static int spec_decision(enum mode m, bool men, bool sen, bool hen)
{
    if ((m != M && !men) || (m == U && !sen))
        return EXC_ILLEGAL;
    if ((m == VS && !hen) || (m == VU && !(hen && sen)))
        return EXC_VIRTUAL_INSN;
    return EXC_NONE;
}

static void set_mode(mt_cpu *c, enum mode m)
{
    c->priv = m == M ? PRV_M : (m == HS || m == VS) ? PRV_S : PRV_U;
    c->hyp.virt = m == VS || m == VU;
}

static void test_decision_table(void **state)
{
    (void)state;
    static const struct { unsigned op; uint64_t on; uint64_t off_bits; } ops[] = {
        {CBO_ZERO, ENVCFG_CBZE, ENVCFG_CBZE},
        {CBO_CLEAN, ENVCFG_CBCFE, ENVCFG_CBCFE},
        {CBO_FLUSH, ENVCFG_CBCFE, ENVCFG_CBCFE},
        {CBO_INVAL, ENVCFG_CBIE, ENVCFG_CBIE},                 /* 11: invalidate */
        {CBO_INVAL, UINT64_C(1) << 4, ENVCFG_CBIE},            /* 01: as a flush */
    };
    mt_cpu *c = calloc(1, sizeof *c);
    assert_non_null(c);
    int checked = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (int m = M; m <= VU; m++)
            for (unsigned bits = 0; bits < 8; bits++) {
                bool men = bits & 1, sen = bits & 2, hen = bits & 4;
                /* the other fields on, so that only this op's field decides */
                uint64_t others = (ENVCFG_CBIE | ENVCFG_CBCFE | ENVCFG_CBZE) & ~ops[i].off_bits;
                c->menvcfg = others | (men ? ops[i].on : 0);
                c->senvcfg = others | (sen ? ops[i].on : 0);
                c->hyp.henvcfg = others | (hen ? ops[i].on : 0);
                set_mode(c, (enum mode)m);
                assert_int_equal(cbo_check_enabled(c, ops[i].op), spec_decision((enum mode)m, men, sen, hen));
                checked++;
            }
    assert_int_equal(checked, 5 * 5 * 8);
    /* another op's field never enables this one */
    c->menvcfg = c->senvcfg = c->hyp.henvcfg = ENVCFG_CBIE | ENVCFG_CBCFE;
    set_mode(c, U);
    assert_int_equal(cbo_check_enabled(c, CBO_ZERO), EXC_ILLEGAL);
    set_mode(c, M);
    c->menvcfg = c->senvcfg = c->hyp.henvcfg = 0;
    assert_int_equal(cbo_check_enabled(c, CBO_ZERO), EXC_NONE); /* M: always */
    free(c);
}

static void test_warl(void **state)
{
    (void)state;
    assert_int_equal(envcfg_cbo_warl(0, 0xff), 0xf0);                 /* FIOM etc. are not its bits */
    assert_int_equal(envcfg_cbo_warl(0x30, 0x20), 0x30);              /* CBIE 10: the old 11 stays */
    assert_int_equal(envcfg_cbo_warl(0x10, 0xe0), 0xd0);              /* ... the old 01, with CBZE CBCFE */
    assert_int_equal(envcfg_cbo_warl(0x00, 0x20), 0x00);
    assert_int_equal(envcfg_cbo_warl(0xf0, 0x10), 0x10);              /* 01 kept */
    assert_int_equal(envcfg_cbo_warl(0, UINT64_C(1) << 63), 0);       /* STCE: not a CMO field */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decision_table),
        cmocka_unit_test(test_warl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
