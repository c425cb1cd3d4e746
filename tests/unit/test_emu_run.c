/* The interpreter end to end on small hand-assembled programs: arithmetic and loops, traps
 * with mtval, self-modifying code, an instruction straddling two pages, WFI woken by the timer,
 * the access listener (every access, fetches once per instruction), the page-observer contract
 * of emu/platform/ram.h, and determinism of counts and event streams. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/devices/clint.h"
#include "emu/cpu/cpu.h"
#include "emu/devices/finisher.h"

#define RAMB UINT64_C(0x80000000)

/* ---- a tiny assembler ---- */
enum { ZERO = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14 };
static uint32_t i_type(uint32_t opc, uint32_t f3, unsigned rd, unsigned rs1, int32_t imm)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
static uint32_t slli(unsigned rd, unsigned rs1, int32_t sh) { return i_type(0x13, 1, rd, rs1, sh); }
static uint32_t add(unsigned rd, unsigned rs1, unsigned rs2) { return 0x33 | rd << 7 | rs1 << 15 | rs2 << 20; }
static uint32_t ld(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x03, 3, rd, rs1, imm); }
static uint32_t lui(unsigned rd, uint32_t imm20) { return 0x37 | rd << 7 | imm20 << 12; }
static uint32_t csrrw(unsigned rd, unsigned csr, unsigned rs1) { return i_type(0x73, 1, rd, rs1, (int32_t)csr); }
static uint32_t csrrs(unsigned rd, unsigned csr, unsigned rs1) { return i_type(0x73, 2, rd, rs1, (int32_t)csr); }
static uint32_t store(uint32_t f3, unsigned rs2, unsigned rs1, int32_t imm)
{
    uint32_t i = (uint32_t)imm;
    return 0x23 | (i & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((i >> 5) & 0x7f) << 25;
}
static uint32_t sd(unsigned rs2, unsigned rs1, int32_t imm) { return store(3, rs2, rs1, imm); }
static uint32_t sw(unsigned rs2, unsigned rs1, int32_t imm) { return store(2, rs2, rs1, imm); }
static uint32_t bne(unsigned rs1, unsigned rs2, int32_t off)
{
    uint32_t i = (uint32_t)off;
    return 0x63 | ((i >> 11) & 1) << 7 | ((i >> 1) & 0xf) << 8 | 1u << 12 | rs1 << 15 | rs2 << 20 |
           ((i >> 5) & 0x3f) << 25 | ((i >> 12) & 1) << 31;
}
static uint32_t beq(unsigned rs1, unsigned rs2, int32_t off) { return bne(rs1, rs2, off) & ~(7u << 12); }
static uint32_t jal(unsigned rd, int32_t off)
{
    uint32_t i = (uint32_t)off;
    return 0x6f | rd << 7 | ((i >> 12) & 0xff) << 12 | ((i >> 11) & 1) << 20 | ((i >> 1) & 0x3ff) << 21 |
           ((i >> 20) & 1) << 31;
}
#define WFI 0x10500073u

typedef struct {
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu;
    mt_clint clint;
    mt_finisher fin;
    uint64_t at; /* assembly cursor */
    /* listener / observer records */
    uint64_t kinds[MT_KIND_COUNT];
    uint64_t last_cycle;
    bool monotonic;
    uint64_t hash;
    uint64_t obs[64][2];
    unsigned nobs;
} fixture;

static void emit(fixture *f, uint32_t w)
{
    ram_host_write(f->ram, f->at, &w, 4);
    f->at += 4;
}

/* t0 = 0x100000 (finisher); t1 = 0x5555; sw t1, 0(t0) */
static void emit_exit(fixture *f)
{
    emit(f, lui(T0, 0x100));
    emit(f, lui(T1, 0x5));
    emit(f, addi(T1, T1, 0x555));
    emit(f, sw(T1, T0, 0));
    emit(f, jal(ZERO, 0));
}

/* mtvec = RAMB + 0x100 (5 instructions; t0 is left holding it) */
static void emit_mtvec(fixture *f)
{
    emit(f, lui(T0, 0x80000));          /* t0 = 0xffffffff80000000 */
    emit(f, slli(T0, T0, 32));          /* 0x8000000000000000 */
    emit(f, 0x0202d293);                /* srli t0, t0, 32 -> 0x80000000 */
    emit(f, addi(T0, T0, 0x100));
    emit(f, csrrw(ZERO, 0x305, T0));    /* mtvec */
}

/* the trap handler at RAMB + 0x100: a0 = mcause, a1 = mtval, a2 = mepc, then exit (7 in all) */
static void emit_trap_report(fixture *f)
{
    f->at = RAMB + 0x100;
    emit(f, csrrs(A0, 0x342, ZERO));    /* mcause */
    emit(f, csrrs(A1, 0x343, ZERO));    /* mtval */
    emit(f, csrrs(A2, 0x341, ZERO));    /* mepc */
    emit_exit(f);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ram = ram_create(RAMB, 1 << 20);
    bus_init(&f->bus, f->ram);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    mt_device d = clint_device(&f->clint, &f->cpu);
    bus_add_device(&f->bus, &d);
    d = finisher_device(&f->fin, &f->cpu);
    bus_add_device(&f->bus, &d);
    cpu_reset(&f->cpu, RAMB);
    f->at = RAMB;
    f->monotonic = true;
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

static uint64_t listener(void *ctx, const mt_access *a)
{
    fixture *f = ctx;
    f->kinds[a->kind]++;
    if (a->cycle < f->last_cycle || (f->kinds[0] + f->kinds[1] + f->kinds[2] > 1 && a->cycle == f->last_cycle))
        f->monotonic = false; /* one access per cycle, non-decreasing */
    f->last_cycle = a->cycle;
    f->hash = (f->hash ^ (a->cycle * 31 + a->addr * 7 + a->kind)) * 0x100000001b3ull;
    return 0;
}

static void observer(void *ctx, uint64_t pfn, bool is_write)
{
    fixture *f = ctx;
    if (f->nobs < 64) {
        f->obs[f->nobs][0] = pfn;
        f->obs[f->nobs][1] = is_write;
    }
    f->nobs++;
}

/* sum 1..100 into a0, stored at RAMB + 0x800, then exit */
static void emit_sum(fixture *f)
{
    emit(f, addi(A0, ZERO, 0));
    emit(f, addi(A1, ZERO, 100));
    emit(f, add(A0, A0, A1));   /* loop */
    emit(f, addi(A1, A1, -1));
    emit(f, bne(A1, ZERO, -8));
    emit(f, addi(T2, ZERO, 1));
    emit(f, slli(T2, T2, 31)); /* 0x8000_0000 */
    emit(f, sd(A0, T2, 0x7f8));
    emit(f, ld(A2, T2, 0x7f8));
    emit_exit(f);
}

static void test_loop_and_finisher(void **state)
{
    fixture *f = *state;
    emit_sum(f);
    cpu_set_listener(&f->cpu, listener, f, 0);
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    assert_int_equal(f->fin.exit_code, 0);
    assert_int_equal(f->cpu.x[A0], 5050);
    assert_int_equal(f->cpu.x[A2], 5050);
    assert_int_equal(f->cpu.instret, 2 + 300 + 4 + 4); /* the sw retires, the stop is after it */
    assert_int_equal(f->kinds[MT_KIND_FETCH], f->cpu.instret);
    assert_int_equal(f->kinds[MT_KIND_STORE], 2); /* sd and the finisher's sw */
    assert_int_equal(f->kinds[MT_KIND_LOAD], 1);
    assert_int_equal(f->cpu.cycle, f->cpu.instret + 3); /* --timing=none: 1 + 1 per data access */
    assert_true(f->monotonic);
}

static void test_determinism(void **state)
{
    fixture *f = *state;
    emit_sum(f);
    cpu_set_listener(&f->cpu, listener, f, 0);
    cpu_run(&f->cpu);
    uint64_t h1 = f->hash, c1 = f->cpu.cycle, n1 = f->cpu.instret;
    /* again from reset, same memory image apart from the stored result */
    f->hash = 0;
    f->last_cycle = 0;
    memset(f->kinds, 0, sizeof f->kinds);
    cpu_free(&f->cpu);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    f->clint.cpu = &f->cpu;
    f->fin.cpu = &f->cpu;
    cpu_reset(&f->cpu, RAMB);
    cpu_set_listener(&f->cpu, listener, f, 0);
    cpu_run(&f->cpu);
    assert_int_equal(f->hash, h1);
    assert_int_equal(f->cpu.cycle, c1);
    assert_int_equal(f->cpu.instret, n1);
}

/* A listener that wants every access for 40 of them, then one access per 17 cycles for 40,
 * and so on: the CPU switches between its two interpreters (emu/cpu/interp.inc) back and forth. */
static uint64_t switching_listener(void *ctx, const mt_access *a)
{
    fixture *f = ctx;
    uint64_t n = f->kinds[0] + f->kinds[1] + f->kinds[2] + f->kinds[3] + f->kinds[4];
    listener(ctx, a);
    return (n / 40) % 2 ? a->cycle + 17 : 0;
}

/* The events, cycles and instructions of one run of emit_sum, with or without --log-commits
 * (which checks before every instruction: the per-instruction reference). */
static void run_switching(fixture *f, bool log, uint64_t out[3])
{
    f->hash = 0;
    f->last_cycle = 0;
    memset(f->kinds, 0, sizeof f->kinds);
    f->fin.finished = false;
    cpu_free(&f->cpu);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    f->clint.cpu = &f->cpu;
    f->fin.cpu = &f->cpu;
    cpu_reset(&f->cpu, RAMB);
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    f->cpu.log_commits = log;
    f->cpu.log_file = null;
    cpu_set_listener(&f->cpu, switching_listener, f, 0);
    cpu_run(&f->cpu);
    fclose(null);
    f->cpu.log_file = NULL;
    assert_true(f->fin.finished);
    out[0] = f->hash, out[1] = f->cpu.cycle, out[2] = f->cpu.instret;
}

static void test_interpreters_switch(void **state)
{
    fixture *f = *state;
    emit_sum(f);
    uint64_t fast[3], stepped[3];
    run_switching(f, false, fast);
    run_switching(f, true, stepped);
    assert_int_equal(fast[0], stepped[0]);
    assert_int_equal(fast[1], stepped[1]);
    assert_int_equal(fast[2], stepped[2]);
    assert_int_equal(f->cpu.x[A0], 5050);
}

static void test_illegal_trap(void **state)
{
    fixture *f = *state;
    emit(f, addi(T0, ZERO, 0x21));
    emit(f, slli(T0, T0, 8));           /* 0x2100: the handler offset */
    emit(f, csrrs(T1, 0xf14, ZERO));    /* mhartid */
    emit(f, lui(T2, 0x80000));          /* t2 = 0xffffffff80000000: sign extended */
    emit(f, 0x0000607f);                /* illegal */
    f->at = RAMB + 0x40;
    /* mtvec must point here: set it first (jump over) */
    f->at = RAMB + 0x14;
    emit(f, 0);
    f->at = RAMB;
    emit_mtvec(f);
    emit(f, 0x0000607f);                /* illegal: mtval = its bits */
    emit_trap_report(f);
    cpu_run(&f->cpu);
    assert_int_equal(f->cpu.mtvec, 0x80000100);
    assert_int_equal(f->cpu.x[A0], EXC_ILLEGAL);
    assert_int_equal(f->cpu.x[A1], 0x0000607f);
    assert_int_equal(f->cpu.x[A2], RAMB + 0x14);
    assert_true(f->fin.finished);
}

/* A fused pair (emu/cpu/decode.h) whose first or second instruction faults: the trap has that
 * instruction's pc, what the pair did before it is done, and the counts are a per-instruction
 * interpreter's.  first/second are two instructions forming a pair; the faulting one loads from
 * address 16, where nothing is mapped. */
static void run_pair_fault(fixture *f, uint32_t first, uint32_t second, uint64_t fault_at)
{
    emit_mtvec(f);
    emit(f, addi(T1, ZERO, 16));
    emit(f, first);                     /* at RAMB + 0x18 */
    emit(f, second);
    emit_trap_report(f);
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    assert_int_equal(f->cpu.x[A0], EXC_LOAD_ACCESS);
    assert_int_equal(f->cpu.x[A1], 16);
    assert_int_equal(f->cpu.x[A2], fault_at);
    /* 6 before the pair, the pair's instructions before the fault, 3 + 4 in the handler */
    assert_int_equal(f->cpu.instret, 6 + (fault_at - (RAMB + 0x18)) / 4 + 7);
    assert_int_equal(f->cpu.trap_count, 1);
    /* --timing=none: a cycle per instruction, per data access (the faulting attempt too: it
     * took the bus port) and per trap */
    assert_int_equal(f->cpu.cycle, f->cpu.instret + f->cpu.access_count[MT_KIND_LOAD] +
                                       f->cpu.access_count[MT_KIND_STORE] + 1 + f->cpu.trap_count);
}

static void test_pair_fault_second(void **state)
{
    fixture *f = *state;
    run_pair_fault(f, addi(A3, ZERO, 3), ld(A4, T1, 0), RAMB + 0x1c); /* ADDI+LD */
    assert_int_equal(f->cpu.x[A3], 3);                                /* the first retired */
}

static void test_pair_fault_first(void **state)
{
    fixture *f = *state;
    run_pair_fault(f, ld(A4, T1, 0), ld(A3, T0, 0), RAMB + 0x18); /* LD+LD */
    assert_int_equal(f->cpu.x[A3], 0);                            /* the second never ran */
}

static void test_self_modifying(void **state)
{
    fixture *f = *state;
    /* +0x18 "addi a0, x0, 1" runs once, is overwritten with "addi a0, x0, 2" by a store to its
     * (already decoded) page, and runs again: the second run must see the new instruction */
    emit(f, addi(A1, ZERO, 0));         /* +0x00 pass counter */
    emit(f, addi(T2, ZERO, 1));         /* +0x04 */
    emit(f, slli(T2, T2, 31));          /* +0x08 t2 = RAMB */
    emit(f, lui(T1, 0x00200));          /* +0x0c */
    emit(f, addi(T1, T1, 0x513));       /* +0x10 t1 = 0x00200513 = addi a0, x0, 2 */
    emit(f, addi(T0, ZERO, 2));         /* +0x14 */
    emit(f, addi(A0, ZERO, 1));         /* +0x18 the patched instruction */
    emit(f, addi(A1, A1, 1));           /* +0x1c */
    emit(f, beq(A1, T0, 0x0c));         /* +0x20 second pass: exit at +0x2c */
    emit(f, sw(T1, T2, 0x18));          /* +0x24 patch +0x18 */
    emit(f, jal(ZERO, -0x10));          /* +0x28 back to +0x18 */
    emit_exit(f);                       /* +0x2c */
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    assert_int_equal(f->cpu.x[A1], 2);
    assert_int_equal(f->cpu.x[A0], 2);
}

static void test_cross_page_instruction(void **state)
{
    fixture *f = *state;
    emit(f, lui(T0, 0x80001));          /* t0 = 0xffffffff80001000 */
    emit(f, slli(T0, T0, 32));
    emit(f, 0x0202d293);                /* srli t0, t0, 32 -> 0x80001000 */
    emit(f, addi(T0, T0, -2));          /* 0x80000ffe */
    emit(f, 0x00028067);                /* jr t0 */
    uint32_t w = addi(A0, ZERO, 7);     /* at 0x80000ffe: straddles the page boundary */
    ram_host_write(f->ram, RAMB + 0xffe, &w, 4);
    f->at = RAMB + 0x1002;
    emit_exit(f);
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    assert_int_equal(f->cpu.x[A0], 7);
    /* --timing=none: one cycle per instruction and per data access, and one for the straddling
     * instruction's second half, a fetch of its own (access_count[MT_KIND_FETCH] counts only
     * those; bare: no walk) */
    assert_int_equal(f->cpu.access_count[MT_KIND_FETCH], 1);
    assert_int_equal(f->cpu.cycle, f->cpu.instret + f->cpu.access_count[MT_KIND_FETCH] +
                                       f->cpu.access_count[MT_KIND_LOAD] + f->cpu.access_count[MT_KIND_STORE]);
}

static void test_wfi_timer(void **state)
{
    fixture *f = *state;
    /* mtvec = RAMB + 0x100 (exit there); mtimecmp = 1000; MTIE; MIE; wfi */
    emit(f, addi(T0, ZERO, 1));
    emit(f, slli(T0, T0, 31));
    emit(f, addi(T0, T0, 0x100));
    emit(f, csrrw(ZERO, 0x305, T0));
    emit(f, lui(T1, 0x2004));           /* 0x02004000 mtimecmp */
    emit(f, addi(T2, ZERO, 1000));
    emit(f, sd(T2, T1, 0));
    emit(f, addi(T2, ZERO, 0x80));
    emit(f, csrrw(ZERO, 0x304, T2));    /* mie.MTIE */
    emit(f, addi(T2, ZERO, 8));
    emit(f, csrrs(ZERO, 0x300, T2));    /* mstatus.MIE */
    emit(f, WFI);
    emit(f, jal(ZERO, -4));
    f->at = RAMB + 0x100;
    emit(f, csrrs(A0, 0x342, ZERO));
    emit_exit(f);
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    assert_int_equal(f->cpu.x[A0], CAUSE_INTERRUPT | IRQ_MTI);
    assert_true(f->cpu.cycle >= 1000 * CYCLES_PER_MTIME_TICK);
    assert_true(f->cpu.instret < 40); /* WFI slept instead of spinning */
}

static void test_page_observer(void **state)
{
    fixture *f = *state;
    /* code in page 0x80000, loads from page 0x80003, stores to 0x80004 */
    emit(f, lui(T0, 0x80003));
    emit(f, slli(T0, T0, 32));
    emit(f, 0x0202d293);                /* srli t0, t0, 32 -> 0x80003000 */
    emit(f, ld(A0, T0, 8));             /* read 0x80003 */
    emit(f, ld(A1, T0, 16));            /* same page again: no report */
    emit(f, addi(T1, T0, 2047));
    emit(f, addi(T1, T1, 2047));
    emit(f, sd(A0, T1, 2));             /* write 0x80004000 */
    emit(f, addi(A2, ZERO, 0));
    emit_exit(f);
    cpu_set_page_observer(&f->cpu, observer, f, RAM_PAGE_SHIFT);
    uint64_t x = 1;
    ram_host_write(f->ram, RAMB + 0x5000, &x, 8); /* the emulator's own write: not observed */
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    const uint64_t want[][2] = {
        {0x80000, 0}, /* fetch at entry */
        {0x80003, 0}, /* ld */
        {0x80000, 0}, /* fetch page re-reported before the next data access's page */
        {0x80003, 0}, /* the second ld: its page differs from the last report (the fetch page) */
        {0x80000, 0},
        {0x80004, 1}, /* sd */
        {0x80000, 0},
    };
    assert_true(f->nobs >= 7);
    for (unsigned i = 0; i < 7; i++) {
        assert_int_equal(f->obs[i][0], want[i][0]);
        assert_int_equal(f->obs[i][1], want[i][1]);
    }
    /* then the finisher store (device page 0x100) and the final fetches */
    assert_int_equal(f->obs[7][0], 0x100);
    assert_int_equal(f->obs[7][1], 1);
}

/* The same program with a 16 KiB granule (a meta-pager whose smallest metapage is 16 KiB): code
 * page 0x80000 and load page 0x80003 are one granule, store page 0x80004 the next. */
static void test_page_observer_granule(void **state)
{
    fixture *f = *state;
    emit(f, lui(T0, 0x80003));
    emit(f, slli(T0, T0, 32));
    emit(f, 0x0202d293);                /* srli t0, t0, 32 -> 0x80003000 */
    emit(f, ld(A0, T0, 8));             /* same granule as the code: no report */
    emit(f, sd(A0, T0, 8));             /* a write in it: reported */
    emit(f, addi(T1, T0, 2047));
    emit(f, addi(T1, T1, 2047));
    emit(f, sd(A0, T1, 2));             /* write 0x80004000: the next granule */
    emit(f, addi(A2, ZERO, 0));         /* its fetch: back to the first */
    emit_exit(f);
    cpu_set_page_observer(&f->cpu, observer, f, RAM_PAGE_SHIFT + 2);
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    const uint64_t want[][2] = {
        {0x80000, 0}, /* fetch at entry */
        {0x80003, 1}, /* the sd after reads of the granule (its first page as reported: the pfn) */
        {0x80004, 1}, /* the sd to the next granule */
        {0x80000, 0}, /* the next fetch */
        {0x100, 1},   /* the finisher */
    };
    assert_true(f->nobs >= 5);
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(f->obs[i][0], want[i][0]);
        assert_int_equal(f->obs[i][1], want[i][1]);
    }
}

static void test_timing_simple(void **state)
{
    fixture *f = *state;
    emit_sum(f);
    cpu_free(&f->cpu);
    cpu_init(&f->cpu, &f->bus, TIMING_SIMPLE);
    f->clint.cpu = &f->cpu;
    f->fin.cpu = &f->cpu;
    cpu_reset(&f->cpu, RAMB);
    cpu_set_listener(&f->cpu, listener, f, 0);
    cpu_run(&f->cpu);
    assert_true(f->fin.finished);
    assert_int_equal(f->cpu.x[A0], 5050);
    /* 99 taken branches at +2, a load (2 cycles) and the finisher: more cycles than none */
    assert_true(f->cpu.cycle > f->cpu.instret + 3 + 2 * 99);
    assert_true(f->monotonic);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_loop_and_finisher, setup, teardown),
        cmocka_unit_test_setup_teardown(test_determinism, setup, teardown),
        cmocka_unit_test_setup_teardown(test_illegal_trap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_self_modifying, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cross_page_instruction, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pair_fault_second, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interpreters_switch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pair_fault_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wfi_timer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_page_observer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_page_observer_granule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timing_simple, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
