/* The F/D loads and stores that interpreter_runs does itself when they hit the data TLB (L_FP in
 * emu/cpu/interp.inc: FLW, FLD, FSW, FSD, compressed or not), against two independent truths:
 *  - the values the ISA defines, computed here: an FLD's 8 bytes, an FLW's 4 NaN-boxed, an FSW's
 *    low 32 bits of a register whether boxed or not, mstatus.FS Dirty (and SD) after a load;
 *  - the per-instruction interpreter (interpreter_hooked, for a listener that wants every access,
 *    which takes exec_fp for every one), whose registers, memory, cycles, instret, access counts
 *    and access stream the runs interpreter must give exactly, also with a listener due every 1..9
 *    cycles (dues at and around each access).
 * Around them the cases the fast path must leave to exec_fp: a load across a page boundary, and
 * a store into the code being run (the page's write TLB entry is never filled), which the loop
 * then executes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cpu_fixture.h"

#define RAMB FIXTURE_RAM_BASE
#define DATA (RAMB + 0x8000)     /* the loads' and stores' data, a page of its own */
#define STRADDLE (RAMB + 0x9ffc) /* an 8-byte load across the page boundary at 0x...a000 */
#define LIMIT 400u               /* instructions run: the program ends in a self-loop */
#define LOOPS 3u
#define PATCH (RAMB + 48)        /* the patch slot of the program (emit_program) */

enum { ZERO = 0, S0 = 8, A0 = 10, A1 = 11, A2 = 12, A7 = 17 };

static uint32_t i_type(uint32_t opc, uint32_t f3, unsigned rd, unsigned rs1, int32_t imm)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static uint32_t fs_type(uint32_t f3, unsigned rs2, unsigned rs1, int32_t imm) /* STORE-FP */
{
    uint32_t i = (uint32_t)imm;
    return 0x27 | (i & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((i >> 5) & 0x7f) << 25;
}
static uint32_t fld(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x07, 3, rd, rs1, imm); }
static uint32_t flw(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x07, 2, rd, rs1, imm); }
static uint32_t fsd(unsigned rs2, unsigned rs1, int32_t imm) { return fs_type(3, rs2, rs1, imm); }
static uint32_t fsw(unsigned rs2, unsigned rs1, int32_t imm) { return fs_type(2, rs2, rs1, imm); }
/* c.fld / c.fsd frd', uimm(rs1'): registers x8..x15 / f8..f15, uimm a multiple of 8 below 256 */
static uint16_t c_fld(unsigned rd, unsigned rs1, unsigned uimm)
{
    return (uint16_t)(0x2000 | ((uimm >> 3) & 7) << 10 | (rs1 - 8) << 7 | ((uimm >> 6) & 3) << 5 | (rd - 8) << 2);
}
static uint16_t c_fsd(unsigned rs2, unsigned rs1, unsigned uimm) { return (uint16_t)(c_fld(rs2, rs1, uimm) | 0x8000); }
static uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
static uint32_t bne_back(unsigned rs1, int32_t off) /* bne rs1, zero, off (off < 0) */
{
    uint32_t i = (uint32_t)off;
    return 0x63 | ((i >> 11) & 1) << 7 | ((i >> 1) & 0xf) << 8 | 1u << 12 | rs1 << 15 |
           ((i >> 5) & 0x3f) << 25 | ((i >> 12) & 1) << 31;
}
#define FENCE_I 0x0000100fu
#define SELF_LOOP 0x0000006fu /* jal zero, 0 */

typedef struct {
    uint64_t at;
} emitter;
static void emit32(fixture *f, emitter *e, uint32_t w)
{
    ram_host_write(f->ram, e->at, &w, 4);
    e->at += 4;
}
static void emit16(fixture *f, emitter *e, uint16_t w)
{
    ram_host_write(f->ram, e->at, &w, 2);
    e->at += 2;
}

/* The loop (s0 = LOOPS times): every kind of access of the fast path, the slow cases between
 * them, and a patch slot (two NOPs) that an FSD overwrites with two "addi a7, a7, 1". */
static uint64_t emit_program(fixture *f)
{
    emitter e = {RAMB};
    const uint64_t loop = e.at;
    emit32(f, &e, fld(1, A0, 0));
    emit32(f, &e, fsd(1, A0, 64));
    emit32(f, &e, flw(2, A0, 8));
    emit32(f, &e, fsw(1, A0, 72)); /* the low half of a double: not a boxed single */
    emit32(f, &e, fsw(2, A0, 76));
    emit16(f, &e, c_fld(8, A0, 16));
    emit16(f, &e, c_fsd(8, A0, 80));
    emit32(f, &e, fld(3, A1, 0)); /* across a page boundary: exec_fp */
    emit32(f, &e, fsd(3, A0, 88));
    emit32(f, &e, fld(4, A0, -8)); /* another page's entry */
    emit32(f, &e, fsd(4, A0, 96));
    emit32(f, &e, fsd(5, A2, 0)); /* into the code below: exec_fp, and the slots decoded again */
    emit32(f, &e, FENCE_I);
    const uint64_t patch = e.at;
    emit32(f, &e, addi(ZERO, ZERO, 0));
    emit32(f, &e, addi(ZERO, ZERO, 0));
    emit32(f, &e, addi(S0, S0, -1));
    emit32(f, &e, bne_back(S0, (int32_t)(loop - e.at)));
    const uint64_t end = e.at;
    emit32(f, &e, SELF_LOOP);
    assert_int_equal(patch, PATCH); /* 8-aligned: the FSD into it is a fast-path candidate */
    return end;
}

typedef struct {
    uint64_t x[32], f[32], mstatus, cycle, instret, loads, stores, hash, heard;
    uint8_t data[128], straddle[8];
} outcome;

static const uint64_t addi_a7_twice = (uint64_t)0x00188893u | (uint64_t)0x00188893u << 32;

static void load_state(fixture *f, mt_timing_mode timing)
{
    cpu_free(&f->cpu);
    cpu_init(&f->cpu, &f->bus, timing);
    cpu_reset(&f->cpu, RAMB);
    emit_program(f);
    for (unsigned i = 0; i < 128; i++) {
        uint8_t b = (uint8_t)(i * 29 + 3);
        ram_host_write(f->ram, DATA + i, &b, 1);
        ram_host_write(f->ram, DATA - 8 + (i & 7), &b, 1);
    }
    const uint8_t straddle[8] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    ram_host_write(f->ram, STRADDLE, straddle, 8);
    f->cpu.mstatus |= (uint64_t)FS_INITIAL << MSTATUS_FS_SHIFT;
    f->cpu.x[S0] = LOOPS;
    f->cpu.x[A0] = DATA;
    f->cpu.x[A1] = STRADDLE;
    f->cpu.x[A2] = PATCH;
    f->cpu.f[5] = addi_a7_twice;
    f->cpu.insn_limit = LIMIT;
}

static uint64_t hash_due; /* the listener's period (0: every access) */
static uint64_t hash_acc, hash_n;
static uint64_t hashing_listener(void *ctx, const mt_access *a)
{
    (void)ctx;
    hash_acc = (hash_acc ^ (a->cycle * 31 + a->addr * 7 + a->kind * 3 + a->write + a->size * 11)) * 0x100000001b3ull;
    hash_n++;
    return hash_due ? a->cycle + hash_due : 0;
}

static void collect(fixture *f, outcome *o)
{
    memset(o, 0, sizeof *o);
    memcpy(o->x, f->cpu.x, sizeof o->x);
    memcpy(o->f, f->cpu.f, sizeof o->f);
    o->mstatus = f->cpu.mstatus;
    o->cycle = f->cpu.cycle;
    o->instret = f->cpu.instret;
    o->loads = f->cpu.access_count[MT_KIND_LOAD];
    o->stores = f->cpu.access_count[MT_KIND_STORE];
    o->hash = hash_acc;
    o->heard = hash_n;
    ram_host_read(f->ram, DATA, o->data, sizeof o->data);
    ram_host_read(f->ram, STRADDLE, o->straddle, sizeof o->straddle);
}

/* period: UINT64_MAX no listener (the fast path), 0 every access (the per-instruction
 * interpreter), else a due every `period` cycles; reference: log every commit, which checks
 * before every instruction */
static void run(fixture *f, mt_timing_mode timing, uint64_t period, bool reference, outcome *o)
{
    load_state(f, timing);
    hash_acc = 0xcbf29ce484222325ull;
    hash_n = 0;
    hash_due = period;
    if (period != UINT64_MAX)
        cpu_set_listener(&f->cpu, hashing_listener, NULL, period ? 1 : 0);
    FILE *null = NULL;
    if (reference) {
        null = fopen("/dev/null", "w");
        assert_non_null(null);
        f->cpu.log_commits = true;
        f->cpu.log_file = null;
    }
    cpu_run(&f->cpu);
    if (null) {
        fclose(null);
        f->cpu.log_commits = false;
        f->cpu.log_file = NULL;
    }
    collect(f, o);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static uint32_t le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* What the ISA says the loop leaves, from the initial data. */
static void check_values(fixture *f, const outcome *o)
{
    uint8_t init[128], below[8];
    for (unsigned i = 0; i < 128; i++)
        init[i] = (uint8_t)(i * 29 + 3);
    for (unsigned i = 0; i < 8; i++)
        below[i] = (uint8_t)((120 + i) * 29 + 3);
    const uint64_t d0 = le64(init), d16 = le64(init + 16);
    const uint32_t w8 = le32(init + 8);
    assert_int_equal(o->f[1], d0);
    assert_int_equal(o->f[2], UINT64_C(0xffffffff00000000) | w8); /* NaN-boxed */
    assert_int_equal(o->f[8], d16);
    assert_int_equal(o->f[3], UINT64_C(0x8877665544332211));
    assert_int_equal(o->f[4], le64(below));
    assert_int_equal(le64(o->data + 64), d0);
    assert_int_equal(le32(o->data + 72), (uint32_t)d0); /* an FSW of a double: its low half */
    assert_int_equal(le32(o->data + 76), w8);
    assert_int_equal(le64(o->data + 80), d16);
    assert_int_equal(le64(o->data + 88), UINT64_C(0x8877665544332211));
    assert_int_equal(le64(o->data + 96), le64(below));
    assert_int_equal((o->mstatus & MSTATUS_FS) >> MSTATUS_FS_SHIFT, FS_DIRTY);
    assert_true(o->mstatus & MSTATUS_SD);
    /* the patched slots ran in every round: two increments each */
    assert_int_equal(o->x[A7], 2 * LOOPS);
    assert_int_equal(o->x[S0], 0);
    uint64_t patched;
    ram_host_read(f->ram, PATCH, &patched, 8);
    assert_int_equal(patched, addi_a7_twice);
}

/* What every way of running the program must agree on: FP registers, memory, time and counts. */
static void assert_same_run(const outcome *a, const outcome *b)
{
    assert_memory_equal(a->f, b->f, sizeof b->f);
    assert_memory_equal(a->data, b->data, sizeof b->data);
    assert_int_equal(a->cycle, b->cycle);
    assert_int_equal(a->instret, b->instret);
    assert_int_equal(a->loads, b->loads);
    assert_int_equal(a->stores, b->stores);
}

static void check_timing(fixture *f, mt_timing_mode timing)
{
    outcome fast, ref, stepped, stepped_ref;
    run(f, timing, UINT64_MAX, false, &fast);
    check_values(f, &fast);
    assert_int_equal(f->cpu.instret, LIMIT);
    run(f, timing, 0, false, &ref);
    assert_memory_equal(ref.x, fast.x, sizeof fast.x);
    assert_int_equal(ref.mstatus, fast.mstatus);
    assert_same_run(&ref, &fast);
    for (uint64_t period = 1; period <= 9; period++) {
        run(f, timing, period, true, &stepped_ref);
        run(f, timing, period, false, &stepped);
        assert_same_run(&stepped, &fast);
        assert_int_equal(stepped.cycle, stepped_ref.cycle);
        assert_int_equal(stepped.heard, stepped_ref.heard);
        assert_int_equal(stepped.hash, stepped_ref.hash);
    }
}

static int setup(void **state) { return fixture_setup(state, 1 << 20); }

static void test_fp_memory_none(void **state) { check_timing(*state, TIMING_NONE); }
static void test_fp_memory_simple(void **state) { check_timing(*state, TIMING_SIMPLE); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fp_memory_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_memory_simple, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
