/* CSRs: WARL legalisation, access checks, the sstatus/sie/sip views, traps and xRET. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/cpu/csr.h"
#include "emu/cpu/mmu.h"
#include "tests/unit/cpu_fixture.h"

static int setup(void **state) { return fixture_setup(state, 1 << 20); }

static void test_satp_warl(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    wr(c, 0x180, (UINT64_C(8) << 60) | 0x80123);
    assert_int_equal(rd(c, 0x180), (UINT64_C(8) << 60) | 0x80123);
    wr(c, 0x180, (UINT64_C(10) << 60) | 0x5); /* Sv57: unsupported -> unchanged */
    assert_int_equal(rd(c, 0x180), (UINT64_C(8) << 60) | 0x80123);
    wr(c, 0x180, (UINT64_C(1) << 60)); /* reserved mode */
    assert_int_equal(rd(c, 0x180) >> 60, 8);
    wr(c, 0x180, (UINT64_C(9) << 60) | 7);
    assert_int_equal(rd(c, 0x180), (UINT64_C(9) << 60) | 7);
    wr(c, 0x180, 0);
    assert_int_equal(rd(c, 0x180), 0);
}

static void test_mstatus_fields(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    uint64_t s = rd(c, 0x300);
    assert_int_equal((s >> 32) & 3, 2); /* UXL = 64 */
    assert_int_equal((s >> 34) & 3, 2); /* SXL = 64 */
    wr(c, 0x300, UINT64_C(3) << 11);    /* MPP = M */
    assert_int_equal((rd(c, 0x300) >> 11) & 3, 3);
    wr(c, 0x300, UINT64_C(2) << 11);    /* reserved: keeps M */
    assert_int_equal((rd(c, 0x300) >> 11) & 3, 3);
    wr(c, 0x300, UINT64_C(3) << 13);    /* FS = dirty -> SD */
    assert_true(rd(c, 0x300) >> 63);
    assert_true(rd(c, 0x100) >> 63);    /* visible in sstatus too */
    wr(c, 0x100, 0);                    /* sstatus write clears FS but cannot touch MPP */
    assert_int_equal((rd(c, 0x300) >> 13) & 3, 0);
    wr(c, 0x300, MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR | MSTATUS_MXR | MSTATUS_SUM | MSTATUS_MPRV);
    s = rd(c, 0x300);
    assert_true(s & MSTATUS_TVM && s & MSTATUS_TW && s & MSTATUS_TSR && s & MSTATUS_MPRV);
    assert_int_equal(rd(c, 0x100) & (MSTATUS_TVM | MSTATUS_MPRV), 0); /* not in the S view */
}

static void test_misa_tvec_epc_deleg(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    uint64_t misa = rd(c, 0x301);
    assert_int_equal(misa >> 62, 2);
    for (const char *p = "IMACSU"; *p; p++)
        assert_true(misa & (UINT64_C(1) << (*p - 'A')));
    wr(c, 0x301, 0); /* cannot turn extensions off */
    assert_int_equal(rd(c, 0x301), misa);
    wr(c, 0x305, 0x80000101);
    assert_int_equal(rd(c, 0x305), 0x80000101);
    wr(c, 0x305, 0x80000202); /* mode 2 reserved: ignored */
    assert_int_equal(rd(c, 0x305), 0x80000101);
    wr(c, 0x341, 0x80000003);
    assert_int_equal(rd(c, 0x341), 0x80000002);
    wr(c, 0x302, UINT64_MAX);
    assert_int_equal(rd(c, 0x302) & (1u << 11), 0); /* ecall from M never delegated */
    assert_true(rd(c, 0x302) & (1u << 8));
    wr(c, 0x303, UINT64_MAX);
    /* with the H extension the VS-level bits of mideleg are read-only one */
    assert_int_equal(rd(c, 0x303), MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_VS_MASK);
}

static void test_mip_sip_views(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    wr(c, 0x344, UINT64_MAX);
    /* M bits are read-only; VSSIP is the writable alias of hvip.VSSIP (H) */
    assert_int_equal(rd(c, 0x344), MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_VSSIP);
    wr(c, 0x303, MIP_SSIP);
    assert_int_equal(rd(c, 0x144), MIP_SSIP);
    wr(c, 0x144, 0);
    assert_int_equal(rd(c, 0x344), MIP_STIP | MIP_SEIP | MIP_VSSIP);
    wr(c, 0x304, UINT64_MAX);
    assert_int_equal(rd(c, 0x104), MIP_SSIP);
    cpu_set_irq_line(c, MIP_MTIP, true);
    assert_true(rd(c, 0x344) & MIP_MTIP);
}

static void test_privilege_checks(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    uint64_t v;
    c->priv = PRV_S;
    cpu_update_priv_ctx(c);
    assert_int_equal(csr_access(c, 0x300, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL); /* mstatus from S */
    assert_int_equal(csr_access(c, 0x100, CSR_OP_RS, 0, false, &v), EXC_NONE);
    assert_int_equal(csr_access(c, 0xc00, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL); /* mcounteren.CY = 0 */
    c->mcounteren = 7;
    assert_int_equal(csr_access(c, 0xc01, CSR_OP_RS, 0, false, &v), EXC_NONE);
    assert_int_equal(csr_access(c, 0xc01, CSR_OP_RW, 1, true, &v), EXC_ILLEGAL); /* read-only */
    c->mstatus |= MSTATUS_TVM;
    assert_int_equal(csr_access(c, 0x180, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL);
    c->priv = PRV_U;
    assert_int_equal(csr_access(c, 0xc02, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL); /* scounteren = 0 */
    c->scounteren = 4;
    assert_int_equal(csr_access(c, 0xc02, CSR_OP_RS, 0, false, &v), EXC_NONE);
    assert_int_equal(csr_access(c, 0x100, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL);
    c->priv = PRV_M;
    assert_int_equal(csr_access(c, 0x7c0, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL); /* no such CSR */
    assert_int_equal(csr_access(c, 0x3a1, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL); /* pmpcfg1: RV32 only */
    assert_int_equal(csr_access(c, 0x001, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL); /* fflags with FS off */
}

static void test_trap_and_return(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    c->mtvec = 0x80001000;
    c->stvec = 0x80002001; /* vectored */
    c->medeleg = 1u << EXC_ECALL_U;
    c->mideleg = MIP_STIP;
    c->priv = PRV_U;
    c->pc = 0x80000100;
    c->mstatus |= MSTATUS_SIE;
    cpu_take_trap(c, EXC_ECALL_U, 0);
    assert_int_equal(c->priv, PRV_S);
    assert_int_equal(c->pc, 0x80002000); /* exceptions go to the base */
    assert_int_equal(c->sepc, 0x80000100);
    assert_int_equal(c->scause, EXC_ECALL_U);
    assert_int_equal(c->mstatus & MSTATUS_SPP, 0);
    assert_true(c->mstatus & MSTATUS_SPIE);
    assert_false(c->mstatus & MSTATUS_SIE);
    /* an S interrupt while in U is taken in S at base + 4 * cause */
    c->priv = PRV_U;
    c->mie = MIP_STIP;
    c->mip_sw = MIP_STIP;
    assert_true(cpu_check_interrupts(c));
    assert_int_equal(c->pc, 0x80002000 + 4 * IRQ_STI);
    assert_int_equal(c->scause, CAUSE_INTERRUPT | IRQ_STI);
    /* illegal in S goes to M (not delegated) with MPP = S */
    c->pc = 0x80000200;
    cpu_take_trap(c, EXC_ILLEGAL, 0x1234);
    assert_int_equal(c->priv, PRV_M);
    assert_int_equal((c->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT, PRV_S);
    assert_int_equal(c->mtval, 0x1234);
    assert_int_equal(c->pc, 0x80001000);
    /* no M interrupt when MIE = 0 in M */
    c->mie = MIP_MTIP;
    c->mip_sw = 0;
    cpu_set_irq_line(c, MIP_MTIP, true);
    assert_false(cpu_check_interrupts(c));
    c->mstatus |= MSTATUS_MIE;
    assert_true(cpu_check_interrupts(c));
    assert_int_equal(c->mcause, CAUSE_INTERRUPT | IRQ_MTI);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_satp_warl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mstatus_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misa_tvec_epc_deleg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mip_sip_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_privilege_checks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trap_and_return, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
