/* Translation on hand-built page tables in guest RAM (Sv39 and Sv48, superpages, permissions,
 * SUM/MXR, A/D updates in memory, faults), PTW bus events, SC's checks before its reservation,
 * and PMP matching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/cpu/decode.h"
#include "emu/cpu/mmu.h"
#include "emu/cpu/pmp.h"

#define RAMB UINT64_C(0x80000000)
#define ROOT (RAMB + 0x10000)
#define L1 (RAMB + 0x11000)
#define L0 (RAMB + 0x12000)
#define L3 (RAMB + 0x13000)

typedef struct {
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu;
    unsigned ptw_events;
} fixture;

static uint64_t count_listener(void *ctx, const mt_access *a)
{
    fixture *f = ctx;
    if (a->kind == MT_KIND_PTW)
        f->ptw_events++;
    return 0;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ram = ram_create(RAMB, 4 << 20);
    bus_init(&f->bus, f->ram);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cpu_free(&f->cpu);
    ram_destroy(f->ram);
    free(f);
    return 0;
}

static void put_pte(fixture *f, uint64_t table, unsigned idx, uint64_t pa, uint64_t flags)
{
    uint64_t pte = ((pa >> 12) << 10) | flags;
    ram_host_write(f->ram, table + idx * 8, &pte, 8);
}

static uint64_t get_pte(fixture *f, uint64_t table, unsigned idx)
{
    uint64_t pte;
    ram_host_read(f->ram, table + idx * 8, &pte, 8);
    return pte;
}

/* S/U accesses (page-table walks included) need a PMP entry: one NAPOT entry over everything. */
static void allow_all(mt_cpu *c)
{
    pmp_write_addr(c, 0, UINT64_MAX);
    pmp_write_cfg(c, 0, PMP_R | PMP_W | PMP_X | (PMP_NAPOT << PMP_A_SHIFT));
}

/* Sv39: VA 0x4000_0000.. -> L1; 0x4000_0000 4 KiB pages in L0; 0x4020_0000 a 2 MiB leaf;
 * 0x8000_0000 a 1 GiB identity leaf. */
static void build_sv39(fixture *f)
{
    put_pte(f, ROOT, 1, L1, PTE_V);
    put_pte(f, ROOT, 2, RAMB, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
    put_pte(f, L1, 0, L0, PTE_V);
    put_pte(f, L1, 1, RAMB + 0x200000, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
    put_pte(f, L0, 0, RAMB + 0x20000, PTE_V | PTE_R | PTE_W);          /* A/D clear */
    put_pte(f, L0, 1, RAMB + 0x21000, PTE_V | PTE_R | PTE_U | PTE_A);  /* user, read-only */
    put_pte(f, L0, 2, RAMB + 0x22000, PTE_V | PTE_X | PTE_A);          /* execute-only */
    put_pte(f, L0, 3, RAMB + 0x23000, PTE_V | PTE_W | PTE_A);          /* reserved W without R */
    put_pte(f, L0, 5, RAMB + 0x25000, PTE_V | PTE_R | PTE_A | (UINT64_C(1) << 60)); /* reserved bit */
    put_pte(f, L1, 2, RAMB + 0x201000, PTE_V | PTE_R | PTE_A);          /* misaligned superpage */
    allow_all(&f->cpu);
    f->cpu.satp = (UINT64_C(8) << 60) | (ROOT >> 12);
    f->cpu.priv = PRV_S;
    cpu_update_priv_ctx(&f->cpu);
}

static void test_sv39_walks(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    build_sv39(f);
    cpu_set_listener(c, count_listener, f, 0);
    uint64_t pa;
    assert_int_equal(mmu_translate(c, 0x40000123, ACC_R, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, RAMB + 0x20123);
    assert_int_equal(f->ptw_events, 4); /* three reads and the A update */
    assert_true(get_pte(f, L0, 0) & PTE_A);
    assert_false(get_pte(f, L0, 0) & PTE_D);
    assert_int_equal(mmu_translate(c, 0x40000008, ACC_W, PRV_S, &pa), EXC_NONE);
    assert_true(get_pte(f, L0, 0) & PTE_D);
    /* 2 MiB and 1 GiB superpages keep the low VA bits */
    assert_int_equal(mmu_translate(c, 0x40212345, ACC_R, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, RAMB + 0x212345);
    assert_int_equal(mmu_translate(c, 0x80345678, ACC_X, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, 0x80345678);
    /* faults */
    assert_int_equal(mmu_translate(c, 0x40004000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);  /* invalid */
    assert_int_equal(mmu_translate(c, 0x40004000, ACC_X, PRV_S, &pa), EXC_INSN_PAGE);
    assert_int_equal(mmu_translate(c, 0x40004000, ACC_W, PRV_S, &pa), EXC_STORE_PAGE);
    assert_int_equal(mmu_translate(c, 0x40003000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);  /* W without R */
    assert_int_equal(mmu_translate(c, 0x40005000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);  /* reserved bits */
    assert_int_equal(mmu_translate(c, 0x40400000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);  /* misaligned */
    assert_int_equal(mmu_translate(c, 0x0000004000000000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE); /* non-canonical */
    assert_int_equal(mmu_translate(c, 0xffffffc000000000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE); /* canonical, unmapped */
    /* permissions: execute-only page, MXR */
    assert_int_equal(mmu_translate(c, 0x40002000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);
    c->mstatus |= MSTATUS_MXR;
    assert_int_equal(mmu_translate(c, 0x40002000, ACC_R, PRV_S, &pa), EXC_NONE);
    /* U pages: S needs SUM to read and can never execute; U cannot touch S pages */
    assert_int_equal(mmu_translate(c, 0x40001000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);
    c->mstatus |= MSTATUS_SUM;
    assert_int_equal(mmu_translate(c, 0x40001000, ACC_R, PRV_S, &pa), EXC_NONE);
    assert_int_equal(mmu_translate(c, 0x40001000, ACC_W, PRV_U, &pa), EXC_STORE_PAGE); /* read-only */
    assert_int_equal(mmu_translate(c, 0x40001000, ACC_R, PRV_U, &pa), EXC_NONE);
    assert_int_equal(mmu_translate(c, 0x40000000, ACC_R, PRV_U, &pa), EXC_LOAD_PAGE);
    /* M mode ignores satp */
    assert_int_equal(mmu_translate(c, 0x40000000, ACC_R, PRV_M, &pa), EXC_NONE);
    assert_int_equal(pa, 0x40000000);
}

static void test_sv48_and_pte_access_fault(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    put_pte(f, L3, 0, ROOT, PTE_V);
    put_pte(f, ROOT, 1, L1, PTE_V);
    put_pte(f, L1, 0, L0, PTE_V);
    put_pte(f, L0, 7, RAMB + 0x27000, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
    put_pte(f, L3, 1, 0, PTE_V | PTE_R | PTE_A);    /* 512 GiB leaf at PA 0 */
    put_pte(f, L3, 3, RAMB, PTE_V | PTE_R | PTE_A); /* misaligned 512 GiB leaf */
    put_pte(f, L3, 2, 0x10000000, PTE_V); /* next level outside RAM: access fault */
    allow_all(c);
    c->satp = (UINT64_C(9) << 60) | (L3 >> 12);
    uint64_t pa;
    assert_int_equal(mmu_translate(c, 0x40007010, ACC_R, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, RAMB + 0x27010);
    assert_int_equal(mmu_translate(c, 0x0000008080001000, ACC_R, PRV_S, &pa), EXC_NONE);
    assert_int_equal(pa, RAMB + 0x1000);
    assert_int_equal(mmu_translate(c, 0x0000018000001000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE);
    assert_int_equal(mmu_translate(c, 0x0000010000000000, ACC_W, PRV_S, &pa), EXC_STORE_ACCESS);
    assert_int_equal(mmu_translate(c, 0x0000800000000000, ACC_R, PRV_S, &pa), EXC_LOAD_PAGE); /* non-canonical Sv48 */
}

static void test_tlb_and_loads(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    build_sv39(f);
    uint64_t v = 0x1122334455667788, got = 0;
    ram_host_write(f->ram, RAMB + 0x20ff8, &v, 8);
    assert_int_equal(cpu_load(c, 0x40000ff8, 8, &got), EXC_NONE);
    assert_int_equal(got, v);
    /* misaligned across a page boundary into the execute-only page... fails as a load */
    c->mstatus &= ~MSTATUS_MXR;
    assert_int_equal(cpu_load(c, 0x40001ffc, 8, &got), EXC_LOAD_PAGE);
    /* a misaligned store inside a page works */
    assert_int_equal(cpu_store(c, 0x40000003, 4, 0xa1b2c3d4), EXC_NONE);
    assert_int_equal(cpu_load(c, 0x40000003, 4, &got), EXC_NONE);
    assert_int_equal(got, 0xa1b2c3d4);
    /* device space through the 1 GiB identity map is not RAM: access fault */
    assert_int_equal(cpu_load(c, 0x10, 8, &got), EXC_LOAD_PAGE); /* unmapped VA 0 region */
    /* the RAM side's invalidator drops cached pointers of exactly that range */
    cpu_invalidate_phys(c, RAMB + 0x20000, 0x1000);
    assert_int_equal(cpu_load(c, 0x40000ff8, 8, &got), EXC_NONE);
    assert_int_equal(got, v);
}

/* A cached translation stays in use until a fence, even when another page's fill takes its
 * slot: the victim buffer keeps it (up to TLB_VICTIMS of them per set), so whether a program
 * sees its old mapping after changing a PTE without a fence does not depend on which of its
 * other pages share the slot.  A fence drops both the slots and the buffer. */
static void test_tlb_victim_buffer(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    build_sv39(f);
    uint64_t old_v = 0x0123456789abcdef, new_v = 0x9e3779b97f4a7c15, got = 0;
    ram_host_write(f->ram, RAMB + 0x20000, &old_v, 8);
    ram_host_write(f->ram, RAMB + 0x30000, &new_v, 8);
    assert_int_equal(cpu_store(c, 0x40000010, 8, 1), EXC_NONE); /* read and write translations */
    assert_int_equal(cpu_load(c, 0x40000000, 8, &got), EXC_NONE);
    assert_int_equal(got, old_v);
    put_pte(f, L0, 0, RAMB + 0x30000, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D); /* no fence */
    /* 0x4020_0000 (the 2 MiB leaf) has the same slot as 0x4000_0000 */
    assert_int_equal(cpu_load(c, 0x40200000, 8, &got), EXC_NONE);
    assert_int_equal(cpu_load(c, 0x40000000, 8, &got), EXC_NONE);
    assert_int_equal(got, old_v); /* from the victim buffer, not a new walk */
    /* a store through it, and the meta-pager's invalidator on a buffered entry */
    assert_int_equal(cpu_load(c, 0x40200008, 8, &got), EXC_NONE);
    cpu_invalidate_phys(c, RAMB + 0x20000, 0x1000);
    assert_int_equal(cpu_store(c, 0x40000008, 8, 0x5a5a), EXC_NONE);
    ram_host_read(f->ram, RAMB + 0x20008, &got, 8);
    assert_int_equal(got, 0x5a5a);
    /* more conflicting pages than the buffer holds: the oldest translation is gone */
    for (unsigned i = 3; i < 3 + TLB_VICTIMS + 1; i++) { /* 2 MiB aliases, every one in slot 0 */
        put_pte(f, L1, i, RAMB + 0x200000, PTE_V | PTE_R | PTE_A);
        assert_int_equal(cpu_load(c, 0x40000000 + ((uint64_t)i << 21), 8, &got), EXC_NONE);
    }
    assert_int_equal(cpu_load(c, 0x40000000, 8, &got), EXC_NONE);
    assert_int_equal(got, new_v);
    /* a fence drops the buffer too */
    put_pte(f, L0, 0, RAMB + 0x20000, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
    assert_int_equal(cpu_load(c, 0x40200000, 8, &got), EXC_NONE); /* 0x4000_0000 into the buffer */
    cpu_flush_tlb_current(c);
    assert_int_equal(cpu_load(c, 0x40000000, 8, &got), EXC_NONE);
    assert_int_equal(got, old_v);
}

/* An SC without a reservation fails (rd = 1, memory unchanged), but only after the checks a
 * store makes: on a read-only page it takes the store page fault instead. */
static void test_sc_checks_first(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    build_sv39(f);
    c->resv_valid = false;
    uint64_t res = 0, v = 0x55;
    assert_int_equal(mem_atomic(c, OP_SC_W, 0x40001000, 7, &res), EXC_STORE_PAGE); /* user RO page */
    ram_host_write(f->ram, RAMB + 0x20010, &v, 8);
    assert_int_equal(mem_atomic(c, OP_SC_D, 0x40000010, 7, &res), EXC_NONE);
    assert_int_equal(res, 1);
    ram_host_read(f->ram, RAMB + 0x20010, &v, 8);
    assert_int_equal(v, 0x55);
    /* with the reservation it stores */
    assert_int_equal(mem_atomic(c, OP_LR_D, 0x40000010, 0, &res), EXC_NONE);
    assert_int_equal(mem_atomic(c, OP_SC_D, 0x40000010, 7, &res), EXC_NONE);
    assert_int_equal(res, 0);
    ram_host_read(f->ram, RAMB + 0x20010, &v, 8);
    assert_int_equal(v, 7);
}

static void test_pmp(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    /* no entries: M may do anything, S/U nothing (walks too) */
    uint64_t pa;
    c->satp = (UINT64_C(8) << 60) | (ROOT >> 12);
    assert_int_equal(mmu_translate(c, 0x1000, ACC_R, PRV_S, &pa), EXC_LOAD_ACCESS);
    c->satp = 0;
    assert_true(pmp_allows(c, RAMB, 8, PMP_R | PMP_W | PMP_X, PRV_M));
    assert_false(pmp_allows(c, RAMB, 8, PMP_R, PRV_S));
    /* entry 0: NAPOT 64 KiB at RAMB, R only; entry 1: TOR [RAMB+64K, RAMB+1M) RW; entry 2 NA4 X */
    pmp_write_addr(c, 0, (RAMB >> 2) | ((0x10000 >> 3) - 1));
    pmp_write_cfg(c, 0, PMP_R | (PMP_NAPOT << PMP_A_SHIFT));
    pmp_write_addr(c, 1, (RAMB + 0x100000) >> 2);
    pmp_write_cfg(c, 1, PMP_R | PMP_W | (PMP_TOR << PMP_A_SHIFT));
    pmp_write_addr(c, 2, (RAMB + 0x200000) >> 2);
    pmp_write_cfg(c, 2, PMP_X | (PMP_NA4 << PMP_A_SHIFT));
    assert_true(pmp_allows(c, RAMB + 0xfff8, 8, PMP_R, PRV_S));
    assert_false(pmp_allows(c, RAMB + 0xfff8, 8, PMP_W, PRV_S));
    assert_false(pmp_allows(c, RAMB + 0xfffc, 8, PMP_R, PRV_S)); /* straddles two entries */
    assert_true(pmp_allows(c, RAMB + 0x10000, 8, PMP_W, PRV_U));
    assert_false(pmp_allows(c, RAMB + 0x100000, 4, PMP_R, PRV_S));
    assert_true(pmp_allows(c, RAMB + 0x200000, 4, PMP_X, PRV_S));
    assert_false(pmp_allows(c, RAMB + 0x200004, 4, PMP_X, PRV_S));
    assert_true(pmp_allows(c, RAMB, 8, PMP_W, PRV_M)); /* unlocked: M unaffected */
    assert_int_equal(pmp_page_perms(c, RAMB + 0x1000, PRV_S), PMP_R);
    assert_int_equal(pmp_page_perms(c, RAMB + 0x200000, PRV_S), -1); /* NA4 inside the page */
    /* W without R is reserved: ignored */
    pmp_write_cfg(c, 3, PMP_W | (PMP_NAPOT << PMP_A_SHIFT));
    assert_int_equal(c->pmpcfg[3], 0);
    /* locking applies to M and freezes the entry (and the TOR base below it) */
    pmp_write_cfg(c, 1, PMP_R | PMP_L | (PMP_TOR << PMP_A_SHIFT));
    assert_false(pmp_allows(c, RAMB + 0x10000, 8, PMP_W, PRV_M));
    pmp_write_cfg(c, 1, PMP_R | PMP_W | (PMP_TOR << PMP_A_SHIFT));
    assert_true(c->pmpcfg[1] & PMP_L);
    uint64_t before = c->pmpaddr[0];
    pmp_write_addr(c, 0, 0);
    assert_int_equal(c->pmpaddr[0], before);
    /* a full-range NAPOT entry covers everything */
    pmp_write_addr(c, 4, UINT64_MAX);
    pmp_write_cfg(c, 4, PMP_R | PMP_W | PMP_X | (PMP_NAPOT << PMP_A_SHIFT));
    assert_true(pmp_allows(c, 0x1000, 4, PMP_X, PRV_U));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sv39_walks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sv48_and_pte_access_fault, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tlb_and_loads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tlb_victim_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sc_checks_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pmp, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
