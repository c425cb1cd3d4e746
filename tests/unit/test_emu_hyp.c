/* The H extension (emu/cpu/hyp.c, G-stage in emu/cpu/mmu.c): the S/VS register swap on V changes, CSR
 * access rules with V=1, hgatp WARL, trap routing with MPV/SPV/htval, two-stage translation to
 * host-physical addresses with guest-page faults, HLV; mtinst/htinst, the guest TLB sets and
 * their fences, HLV/HLVX permissions, the counters from VS/VU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* mtinst/htinst's transformed instructions (privileged spec, "Transformed Instruction or
 * Pseudoinstruction for mtinst or htinst"), one per instruction shape. */
static void test_transform(void **state)
{
    (void)state;
    assert_int_equal(hyp_transform_insn(0x00853503), 0x00003503); /* ld a0, 8(a0) -> ld a0, 0(x0) */
    assert_int_equal(hyp_transform_insn(0xff84c583), 0x00004583); /* lbu a1, -8(s1) */
    assert_int_equal(hyp_transform_insn(0x00f72823), 0x00f02023); /* sw a5, 16(a4) */
    assert_int_equal(hyp_transform_insn(0xfef43c23), 0x00f03023); /* sd a5, -8(s0) */
    assert_int_equal(hyp_transform_insn(0x0085b507), 0x00003507); /* fld fa0, 8(a1) */
    assert_int_equal(hyp_transform_insn(0x18f7252f), 0x18f0252f); /* sc.w a0, a5, (a4) */
    assert_int_equal(hyp_transform_insn(0x1007252f), 0x1000252f); /* lr.w a0, (a4) */
    assert_int_equal(hyp_transform_insn(0x06f7352f), 0x06f0352f); /* amoadd.d.aqrl a0, a5, (a4) */
    assert_int_equal(hyp_transform_insn(0x6c05c573), 0x6c004573); /* hlv.d a0, (a1) */
    assert_int_equal(hyp_transform_insn(0x6ec5c073), 0x6ec04073); /* hsv.d a2, (a1) */
    assert_int_equal(hyp_transform_insn(0x6435c573), 0x64304573); /* hlvx.hu a0, (a1) */
    /* compressed: expanded, bit 1 clear */
    assert_int_equal(hyp_transform_insn(0x6708), 0x00003501); /* c.ld a0, 8(a4) */
    assert_int_equal(hyp_transform_insn(0xc71c), 0x00f02021); /* c.sw a5, 8(a4) */
    assert_int_equal(hyp_transform_insn(0x6522), 0x00003501); /* c.ldsp a0, 8(sp) */
    assert_int_equal(hyp_transform_insn(0xe42a), 0x00a03021); /* c.sdsp a0, 8(sp) */
    assert_int_equal(hyp_transform_insn(0x2508), 0x00003505); /* c.fld fa0, 8(a0) */
    assert_int_equal(hyp_transform_insn(0x4522), 0x00002501); /* c.lwsp a0, 8(sp) */
    /* not memory accesses: 0 */
    assert_int_equal(hyp_transform_insn(0x00a50533), 0);           /* add */
    assert_int_equal(hyp_transform_insn(0x10500073), 0);           /* wfi */
    assert_int_equal(hyp_transform_insn(0x0505), 0);               /* c.addi */
}

/* A trap's mtinst/htinst: the interpreter leaves the faulting instruction's bits in
 * hyp.trap_insn; a guest-page fault of an implicit walk access reports its pseudoinstruction. */
static void test_tinst_on_trap(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    build_tables(c);
    enter_vs(c, 0x40000000);
    uint64_t v;
    /* explicit: GPA 0x20_2000 has no G-stage page */
    assert_int_equal(cpu_load(c, 0x40202018, 8, &v), EXC_LOAD_GUEST_PAGE);
    c->hyp.trap_insn = 0x01853503; /* ld a0, 24(a0) */
    cpu_take_trap(c, EXC_LOAD_GUEST_PAGE, 0x40202018);
    assert_int_equal(rd(c, 0x34a), 0x3503);
    assert_int_equal(rd(c, 0x34b), 0x202018 >> 2);
    assert_int_equal(c->hyp.trap_insn, 0); /* consumed */
    /* implicit: the VS-stage root's entry for VA 2G points at a table at GPA 0x20_2000 */
    poke(c, RAM_BASE + 0x401000 + 16, (UINT64_C(0x202000) >> 12) << 10 | PTE_V);
    enter_vs(c, 0x40000000);
    assert_int_equal(cpu_store(c, 0x80000010, 8, 1), EXC_STORE_GUEST_PAGE);
    c->hyp.trap_insn = 0x00a53823; /* sd a0, 16(a0): not what is reported */
    cpu_take_trap(c, EXC_STORE_GUEST_PAGE, 0x80000010);
    assert_int_equal(rd(c, 0x34a), 0x3000);
    assert_int_equal(rd(c, 0x34b), 0x202000 >> 2); /* the PTE's GPA */
    assert_true(c->mstatus & MSTATUS_GVA);
    /* the same delegated to HS: htinst; mtinst keeps the last M trap's value */
    c->medeleg = UINT64_C(1) << EXC_STORE_GUEST_PAGE;
    enter_vs(c, 0x40000000);
    assert_int_equal(cpu_store(c, 0x80000010, 8, 1), EXC_STORE_GUEST_PAGE);
    cpu_take_trap(c, EXC_STORE_GUEST_PAGE, 0x80000010);
    assert_int_equal(c->priv, PRV_S);
    assert_int_equal(rd(c, 0x64a), 0x3000);
    /* an A/D update of a VS PTE in a page the G-stage maps read-only: the write pseudoinstruction,
     * reported as the original access type (a load) */
    c->priv = PRV_M;
    uint64_t ro = RAM_BASE + 0x602000; /* GPA 0x20_3000 -> host 0x8060_2000, read-only at G */
    const uint64_t gleaf_ro = PTE_V | PTE_R | PTE_U | PTE_A | PTE_D;
    poke(c, RAM_BASE + 0x105000 + 24, (ro >> 12) << 10 | gleaf_ro);
    poke(c, ro, (UINT64_C(0) >> 12) << 10 | PTE_V | PTE_R | PTE_W); /* VA 2G's table entry 0: no A/D */
    poke(c, RAM_BASE + 0x401000 + 16, (UINT64_C(0x203000) >> 12) << 10 | PTE_V);
    wr(c, 0x280, (UINT64_C(8) << 60) | 1); /* vsatp again: a fence of the guest's translations */
    c->medeleg = 0;
    enter_vs(c, 0x40000000);
    assert_int_equal(cpu_load(c, 0x80000010, 8, &v), EXC_LOAD_GUEST_PAGE);
    cpu_take_trap(c, EXC_LOAD_GUEST_PAGE, 0x80000010);
    assert_int_equal(rd(c, 0x34a), 0x3020);
    assert_int_equal(rd(c, 0x34b), 0x203000 >> 2);
    /* an access fault of the walk itself (a VS-stage table the G-stage puts outside memory):
     * not the instruction's access, so 0 */
    c->priv = PRV_M;
    poke(c, RAM_BASE + 0x105000 + 32, (UINT64_C(0x20000000) >> 12) << 10 | gleaf_ro); /* GPA 0x20_4000 */
    poke(c, RAM_BASE + 0x401000 + 24, (UINT64_C(0x204000) >> 12) << 10 | PTE_V);      /* VA 3G's table */
    wr(c, 0x280, (UINT64_C(8) << 60) | 1);
    enter_vs(c, 0x40000000);
    assert_int_equal(cpu_load(c, 0xc0000010, 8, &v), EXC_LOAD_ACCESS);
    c->hyp.trap_insn = 0x01053503; /* ld a0, 16(a0) */
    cpu_take_trap(c, EXC_LOAD_ACCESS, 0xc0000010);
    assert_int_equal(rd(c, 0x34a), 0);
    /* a VS-stage page fault with V=0 (no guest): the transformed instruction all the same */
    c->priv = PRV_M;
    c->hyp.trap_insn = 0x6708; /* c.ld a0, 8(a4) */
    c->pc = 0x80000000;
    cpu_take_trap(c, EXC_LOAD_PAGE, 0x1008);
    assert_int_equal(rd(c, 0x34a), 0x3501);
    /* interrupts and other exceptions: 0 */
    c->hyp.trap_insn = 0x00853503;
    cpu_take_trap(c, EXC_ILLEGAL, 0);
    assert_int_equal(rd(c, 0x34a), 0);
}

/* An 8-byte load as the interpreter makes it: the current data TLB set first (its fast path),
 * the slow path (a walk that fills the set) on a miss. */
static uint64_t tlb_load(mt_cpu *c, uint64_t va)
{
    const mt_dtlb_entry *e = &c->cur_dtlb[(va >> 12) & (TLB_SIZE - 1)];
    uint64_t v = 0;
    if (e->tag_r == (va & ~UINT64_C(0xff8)))
        memcpy(&v, (const void *)(e->addend + (uintptr_t)va), 8);
    else
        assert_int_equal(cpu_load(c, va, 8, &v), EXC_NONE);
    return v;
}

/* The guest TLB sets: HLV's translations are cached and survive what the spec lets them
 * survive (an HS SFENCE.VMA, V changes, a G-stage PTE change without a fence), and the fences
 * that name them drop them; HS's translations survive the guest's fences. */
static void test_guest_tlb(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    build_tables(c);
    poke(c, RAM_BASE + 0x402340, 0x1111);
    poke(c, RAM_BASE + 0x602340, 0x2222);
    c->priv = PRV_S;
    wr(c, 0x600, HSTATUS_SPVP);
    cpu_update_priv_ctx(c);
    uint64_t res = 0, tv;
    const int32_t hlv_d = 0x36 << 5;
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x1111);
    /* G-stage: GPA 0..2M now -> host 0x8060_0000 (with a copy of the VS root's entry), no fence:
     * the cached translation stays */
    const uint64_t leaf = PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D;
    poke(c, RAM_BASE + 0x601000 + 8, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
    poke(c, RAM_BASE + 0x104000, ((RAM_BASE + 0x600000) >> 12) << 10 | leaf);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x1111);
    cpu_flush_tlb_current(c); /* HS's SFENCE.VMA: not the guest's */
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x1111);
    assert_int_equal(hyp_exec(c, OP_HFENCE_VVMA, 0, 0, 0, &res, &tv), EXC_NONE);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x2222);
    poke(c, RAM_BASE + 0x104000, ((RAM_BASE + 0x400000) >> 12) << 10 | leaf);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x2222);
    assert_int_equal(hyp_exec(c, OP_HFENCE_GVMA, 0, 0, 0, &res, &tv), EXC_NONE);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x1111);
    /* the guest's own loads use the same sets: entering VS keeps them, the guest's SFENCE.VMA
     * drops them */
    poke(c, RAM_BASE + 0x104000, ((RAM_BASE + 0x600000) >> 12) << 10 | leaf);
    c->priv = PRV_M;
    enter_vs(c, 0x40000000);
    assert_int_equal(tlb_load(c, 0x40002340), 0x1111);
    cpu_flush_tlb_current(c); /* SFENCE.VMA in VS */
    assert_int_equal(tlb_load(c, 0x40002340), 0x2222);
    /* HS's own translation (Sv39, root at host 0x8070_0000: VA 1G+4M -> PA 0x8040_0000, 2M)
     * survives the guest's SFENCE.VMA and the V changes around it */
    cpu_take_trap(c, EXC_ECALL_VS, 0);
    c->priv = PRV_S;
    cpu_update_priv_ctx(c);
    uint64_t hroot = RAM_BASE + 0x700000;
    const uint64_t hleaf = PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D;
    poke(c, hroot + 8, ((hroot + 0x1000) >> 12) << 10 | PTE_V);
    poke(c, hroot + 0x1000 + 16, ((RAM_BASE + 0x400000) >> 12) << 10 | hleaf); /* VA 1G+4M, 2M */
    wr(c, 0x180, (UINT64_C(8) << 60) | (hroot >> 12));
    assert_int_equal(tlb_load(c, 0x40402340), 0x1111);
    c->priv = PRV_M; /* physical again, to change HS's table */
    cpu_update_priv_ctx(c);
    poke(c, hroot + 0x1000 + 16, ((RAM_BASE + 0x600000) >> 12) << 10 | hleaf);
    enter_vs(c, 0x40000000);
    cpu_flush_tlb_current(c); /* SFENCE.VMA in VS */
    cpu_take_trap(c, EXC_ECALL_VS, 0);
    c->priv = PRV_S;
    cpu_update_priv_ctx(c);
    assert_int_equal(tlb_load(c, 0x40402340), 0x1111); /* HS's cached entry */
    cpu_flush_tlb_current(c); /* HS's SFENCE.VMA */
    assert_int_equal(tlb_load(c, 0x40402340), 0x2222); /* host 0x8060_2340 */
}

/* The instruction side: a guest's fetches fill their own ITLB sets (VS: priv + 4), which a V
 * change keeps and HFENCE.GVMA drops, while HS's entries stay. */
static void test_guest_itlb(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    build_tables(c);
    mt_dpage *dp;
    c->priv = PRV_S; /* HS, satp Bare: VA = PA */
    cpu_update_priv_ctx(c);
    assert_int_equal(mmu_fetch_page(c, RAM_BASE + 0x3000, &dp), EXC_NONE);
    const mt_itlb_entry *hs = &c->itlb[PRV_S][((RAM_BASE + 0x3000) >> 12) & (TLB_SIZE - 1)];
    assert_int_equal(hs->tag, RAM_BASE + 0x3000);
    c->priv = PRV_M;
    enter_vs(c, 0x40003000);
    assert_int_equal(c->iset, PRV_S + 4);
    assert_int_equal(mmu_fetch_page(c, 0x40003000, &dp), EXC_NONE);
    assert_int_equal(dp->pa, RAM_BASE + 0x403000); /* host-physical */
    const mt_itlb_entry *vs = &c->itlb[PRV_S + 4][(UINT64_C(0x40003000) >> 12) & (TLB_SIZE - 1)];
    assert_int_equal(vs->tag, 0x40003000);
    cpu_take_trap(c, EXC_ECALL_VS, 0); /* back to M: both kept */
    assert_int_equal(vs->tag, 0x40003000);
    assert_int_equal(hs->tag, RAM_BASE + 0x3000);
    uint64_t res, tv;
    assert_int_equal(hyp_exec(c, OP_HFENCE_GVMA, 0, 0, 0, &res, &tv), EXC_NONE);
    assert_int_equal(vs->tag, TLB_INVALID);
    assert_int_equal(hs->tag, RAM_BASE + 0x3000);
}

/* HLV/HLVX permissions: HLVX needs X (not R) on its page at both stages, but its walk's PTE
 * reads need only R; MXR (HS's or vsstatus') lets HLV read execute-only pages; a misaligned
 * HLV reports a guest virtual address (GVA). */
static void test_hlv_permissions(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    build_tables(c);
    /* VS-stage: VA 2G -> GPA 0 with R/W only, VA 3G -> GPA 0 execute-only */
    poke(c, RAM_BASE + 0x401000 + 16, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
    poke(c, RAM_BASE + 0x401000 + 24, PTE_V | PTE_X | PTE_A | PTE_D);
    /* the VS root's G-stage page is readable, not executable: GPA 0..2M -> 4 KiB pages */
    uint64_t gl0b = RAM_BASE + 0x106000;
    const uint64_t gleaf = PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D;
    for (uint64_t i = 0; i < 512; i++)
        poke(c, gl0b + 8 * i, ((RAM_BASE + 0x400000 + 0x1000 * i) >> 12) << 10 | (i == 1 ? gleaf & ~(uint64_t)PTE_X : gleaf));
    poke(c, RAM_BASE + 0x104000, (gl0b >> 12) << 10 | PTE_V);
    poke(c, RAM_BASE + 0x400000 + 0x2340, 0x0013);
    c->priv = PRV_S;
    wr(c, 0x600, HSTATUS_SPVP);
    cpu_update_priv_ctx(c);
    uint64_t res = 0, tv;
    const int32_t hlvx_hu = 0x32 << 5 | 3, hlv_d = 0x36 << 5;
    assert_int_equal(hyp_exec(c, OP_HLV, hlvx_hu, 0xc0002340, 0, &res, &tv), EXC_NONE);
    assert_int_equal(res, 0x13);
    assert_int_equal(hyp_exec(c, OP_HLV, hlvx_hu, 0x80002340, 0, &res, &tv), EXC_LOAD_PAGE);
    assert_int_equal(tv, 0x80002340);
    cpu_take_trap(c, EXC_LOAD_PAGE, tv);
    assert_true(c->mstatus & MSTATUS_GVA);
    c->priv = PRV_S;
    cpu_update_priv_ctx(c);
    /* HLV.D of the execute-only page: a page fault, unless MXR (HS's or the VS's) */
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0xc0002340, 0, &res, &tv), EXC_LOAD_PAGE);
    wr(c, 0x100, rd(c, 0x100) | MSTATUS_MXR);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0xc0002340, 0, &res, &tv), EXC_NONE);
    wr(c, 0x100, rd(c, 0x100) & ~MSTATUS_MXR);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0xc0002340, 0, &res, &tv), EXC_LOAD_PAGE);
    wr(c, 0x200, MSTATUS_MXR);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0xc0002340, 0, &res, &tv), EXC_NONE);
    wr(c, 0x200, 0);
    /* as VU (SPVP = 0) a VS page without U faults; HU lets U-mode run HLV at all */
    wr(c, 0x600, 0);
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_LOAD_PAGE);
    c->priv = PRV_U;
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_ILLEGAL);
    c->hyp.hstatus |= HSTATUS_HU;
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002340, 0, &res, &tv), EXC_LOAD_PAGE);
    /* misaligned: the address is a guest's */
    c->priv = PRV_S;
    assert_int_equal(hyp_exec(c, OP_HLV, hlv_d, 0x40002341, 0, &res, &tv), EXC_LOAD_MISALIGNED);
    cpu_take_trap(c, EXC_LOAD_MISALIGNED, tv);
    assert_true(c->mstatus & MSTATUS_GVA);
}

/* Counters from VS / VU: mcounteren clear -> illegal, hcounteren clear -> virtual instruction,
 * both set -> the value (time: the guest's, mtime + htimedelta). */
static void test_counters(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    wr(c, 0x605, 1000); /* htimedelta */
    enter_vs(c, 0x80000000);
    uint64_t v;
    for (unsigned csr = 0xc00; csr <= 0xc1f; csr++) {
        unsigned bit = csr - 0xc00;
        c->mcounteren = 0;
        c->hyp.hcounteren = UINT32_MAX;
        assert_int_equal(csr_access(c, csr, CSR_OP_RS, 0, false, &v), EXC_ILLEGAL);
        c->mcounteren = UINT64_C(1) << bit;
        c->hyp.hcounteren = ~(UINT64_C(1) << bit) & UINT32_MAX;
        assert_int_equal(csr_access(c, csr, CSR_OP_RS, 0, false, &v), EXC_VIRTUAL_INSN);
        c->hyp.hcounteren = UINT64_C(1) << bit;
        assert_int_equal(csr_access(c, csr, CSR_OP_RS, 0, false, &v), EXC_NONE);
        if (csr == 0xc01)
            assert_int_equal(v, cpu_mtime(c) + 1000);
        /* a write is illegal (read-only CSR) */
        assert_int_equal(csr_access(c, csr, CSR_OP_RW, 0, true, &v), EXC_ILLEGAL);
    }
    /* VU: scounteren too, and its absence is a virtual instruction */
    c->mcounteren = c->hyp.hcounteren = 2;
    c->scounteren = 0;
    c->priv = PRV_U;
    assert_int_equal(csr_access(c, 0xc01, CSR_OP_RS, 0, false, &v), EXC_VIRTUAL_INSN);
    c->scounteren = 2;
    assert_int_equal(csr_access(c, 0xc01, CSR_OP_RS, 0, false, &v), EXC_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_swap_and_csr_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_stage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transform, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tinst_on_trap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_tlb, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_itlb, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hlv_permissions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counters, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
