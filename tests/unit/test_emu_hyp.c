/* The H extension (emu/cpu/hyp.c, G-stage in emu/cpu/mmu.c): the S/VS register swap on V changes, CSR
 * access rules with V=1, hgatp WARL, trap routing with MPV/SPV/htval, two-stage translation to
 * host-physical addresses with guest-page faults, HLV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/cpu/csr.h"
#include "emu/cpu/decode.h"
#include "emu/cpu/hyp.h"
#include "emu/cpu/mmu.h"
#include "tests/unit/cpu_fixture.h"

#define RAM_BASE UINT64_C(0x80000000)

static int setup(void **state) { return fixture_setup(state, 8 << 20); }

static void poke(mt_cpu *c, uint64_t pa, uint64_t v) { assert_int_equal(cpu_store(c, pa, 8, v), EXC_NONE); }

/* From M: MRET into VS-mode at pc. */
static void enter_vs(mt_cpu *c, uint64_t pc)
{
    c->mstatus = (c->mstatus & ~MSTATUS_MPP) | ((uint64_t)PRV_S << MSTATUS_MPP_SHIFT) | MSTATUS_MPV;
    c->mepc = pc;
    hyp_mret(c);
    assert_true(c->hyp.virt);
    assert_int_equal(c->priv, PRV_S);
}

static void test_swap_and_csr_rules(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    wr(c, 0x140, 0x111);          /* sscratch (HS) */
    wr(c, 0x240, 0x222);          /* vsscratch */
    wr(c, 0x200, MSTATUS_SUM);    /* vsstatus.SUM */
    assert_int_equal(rd(c, 0x140), 0x111);
    enter_vs(c, 0x80000000);
    assert_int_equal(rd(c, 0x140), 0x222);                /* sscratch is vsscratch */
    assert_true(rd(c, 0x100) & MSTATUS_SUM);              /* sstatus is vsstatus */
    uint64_t v;
    assert_int_equal(csr_access(c, 0x600, CSR_OP_RS, 0, false, &v), EXC_VIRTUAL_INSN); /* hstatus */
    assert_int_equal(csr_access(c, 0x240, CSR_OP_RS, 0, false, &v), EXC_VIRTUAL_INSN); /* vsscratch */
    assert_int_equal(csr_access(c, 0x300, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL);      /* mstatus */
    assert_int_equal(csr_access(c, 0x5ff, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL);      /* no such CSR */
    wr(c, 0x140, 0x333);
    /* an ecall from VS, not delegated: M, MPV = 1, the HS registers back in place */
    c->pc = 0x80000010;
    cpu_take_trap(c, EXC_ECALL_VS, 0);
    assert_false(c->hyp.virt);
    assert_int_equal(c->priv, PRV_M);
    assert_true(c->mstatus & MSTATUS_MPV);
    assert_int_equal(c->mcause, EXC_ECALL_VS);
    assert_int_equal(rd(c, 0x140), 0x111);
    assert_int_equal(rd(c, 0x240), 0x333);
    assert_false(rd(c, 0x100) & MSTATUS_SUM);
    /* from VU an S CSR is a virtual instruction */
    c->mstatus = (c->mstatus & ~MSTATUS_MPP) | MSTATUS_MPV;
    hyp_mret(c);
    assert_true(c->hyp.virt);
    assert_int_equal(c->priv, PRV_U);
    assert_int_equal(csr_access(c, 0x100, CSR_OP_RS, 0, false, &v), EXC_VIRTUAL_INSN);
}

static void test_warl(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    wr(c, 0x680, (UINT64_C(8) << 60) | 0x80007);
    assert_int_equal(rd(c, 0x680), (UINT64_C(8) << 60) | 0x80004); /* 16 KiB root: PPN[1:0] = 0 */
    wr(c, 0x680, (UINT64_C(10) << 60) | 0x80000);                   /* Sv57x4: unsupported */
    assert_int_equal(rd(c, 0x680), (UINT64_C(8) << 60) | 0x80004);
    wr(c, 0x602, UINT64_MAX);
    assert_int_equal(rd(c, 0x602), 0xb1ff);
    wr(c, 0x603, UINT64_MAX);
    assert_int_equal(rd(c, 0x603), MIP_VS_MASK);
    wr(c, 0x600, UINT64_MAX);
    assert_int_equal(rd(c, 0x600) >> 32 & 3, 2); /* VSXL = 64 */
    assert_int_equal(rd(c, 0x600) & (UINT64_C(0x3f) << 12), 0); /* VGEIN: GEILEN = 0 */
    assert_true(rd(c, 0x301) & HYP_MISA_BIT);
}

/* G-stage (Sv39x4) at host 0x8010_0000: GPA 0 .. 2 MiB -> host 0x8040_0000 (megapage); GPA
 * 0x20_0000 -> a 4 KiB table with page 1 -> host 0x8060_1000 and page 2 missing.  VS-stage
 * (Sv39) root at GPA 0x1000 (host 0x8040_1000): VA 0x4000_0000 -> GPA 0 (gigapage). */
static void build_tables(mt_cpu *c)
{
    wr(c, 0x3b0, UINT64_MAX); /* PMP: everything for S and U (NAPOT, RWX) */
    wr(c, 0x3a0, 0x1f);
    uint64_t groot = RAM_BASE + 0x100000, gl1 = RAM_BASE + 0x104000, gl0 = RAM_BASE + 0x105000;
    const uint64_t leaf = PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D;
    poke(c, groot, (gl1 >> 12) << 10 | PTE_V);
    poke(c, gl1, ((RAM_BASE + 0x400000) >> 12) << 10 | leaf);
    poke(c, gl1 + 8, (gl0 >> 12) << 10 | PTE_V);
    poke(c, gl0 + 8, ((RAM_BASE + 0x601000) >> 12) << 10 | leaf);
    poke(c, RAM_BASE + 0x401000 + 8, (UINT64_C(0) >> 12) << 10 | (leaf & ~(uint64_t)PTE_U)); /* VA 1G -> GPA 0 */
    wr(c, 0x680, (UINT64_C(8) << 60) | (groot >> 12));
    wr(c, 0x280, (UINT64_C(8) << 60) | 1); /* vsatp root at GPA 0x1000 */
}

static void test_two_stage(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    build_tables(c);
    poke(c, RAM_BASE + 0x400000 + 0x2340, 0x1122334455667788);
    enter_vs(c, 0x40000000);
    uint64_t pa;
    assert_int_equal(mmu_translate(c, 0x40002340, ACC_R, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, RAM_BASE + 0x402340); /* host-physical */
    assert_int_equal(mmu_translate(c, 0x40201010, ACC_W, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, RAM_BASE + 0x601010);
    uint64_t v = 0;
    assert_int_equal(cpu_load(c, 0x40002340, 8, &v), EXC_NONE);
    assert_int_equal(v, 0x1122334455667788);
    /* mstatus.TVM is HS's business: VS reads its satp (vsatp) all the same */
    c->mstatus |= MSTATUS_TVM;
    assert_int_equal(rd(c, 0x180), (UINT64_C(8) << 60) | 1);
    c->mstatus &= ~MSTATUS_TVM;
    /* GPA 0x20_2000 has no G-stage page: a load guest-page fault, to HS when medeleg allows */
    assert_int_equal(cpu_load(c, 0x40202018, 8, &v), EXC_LOAD_GUEST_PAGE);
    c->medeleg = UINT64_C(1) << EXC_LOAD_GUEST_PAGE;
    c->pc = 0x40000000;
    cpu_take_trap(c, EXC_LOAD_GUEST_PAGE, 0x40202018);
    assert_false(c->hyp.virt);
    assert_int_equal(c->priv, PRV_S);
    assert_int_equal(c->scause, EXC_LOAD_GUEST_PAGE);
    assert_int_equal(c->stval, 0x40202018);
    assert_int_equal(rd(c, 0x643), 0x202018 >> 2);                   /* htval */
    assert_int_equal(rd(c, 0x600) & (HSTATUS_SPV | HSTATUS_SPVP | HSTATUS_GVA),
                     HSTATUS_SPV | HSTATUS_SPVP | HSTATUS_GVA);
    /* M-mode loads with MPRV, MPP = S and MPV = 1 are the guest's (two stages) */
    c->priv = PRV_M;
    c->mstatus = (c->mstatus & ~MSTATUS_MPP) | ((uint64_t)PRV_S << MSTATUS_MPP_SHIFT) | MSTATUS_MPV;
    wr(c, 0x300, rd(c, 0x300) | MSTATUS_MPRV);
    v = 0;
    assert_int_equal(cpu_load(c, 0x40002340, 8, &v), EXC_NONE);
    assert_int_equal(v, 0x1122334455667788);
    wr(c, 0x300, rd(c, 0x300) & ~MSTATUS_MPV); /* MPV off: the same VA is now HS's (Bare) */
    assert_int_equal(cpu_load(c, 0x40002340, 8, &v), EXC_LOAD_ACCESS);
    wr(c, 0x300, rd(c, 0x300) & ~MSTATUS_MPRV);
    c->priv = PRV_S;
    /* HLV.D from HS (SPVP = 1): the same two-stage path, no V change */
    uint64_t res = 0, tv;
    assert_int_equal(hyp_exec(c, OP_HLV, (0x36 << 5) | 0, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x1122334455667788);
    assert_false(c->hyp.virt);
    /* HLV from VS is a virtual instruction; SRET with SPV = 1 goes back to VS */
    c->sepc = 0x40000004;
    c->mstatus |= MSTATUS_SPP;
    hyp_sret(c);
    assert_true(c->hyp.virt);
    assert_int_equal(c->priv, PRV_S);
    assert_int_equal(c->pc, 0x40000004);
    assert_int_equal(hyp_exec(c, OP_HLV, 0x36 << 5, 0x40002340, 0, &res, &tv), EXC_VIRTUAL_INSN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_swap_and_csr_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_stage, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
