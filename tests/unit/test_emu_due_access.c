/* The runs interpreter's loads and stores compare nothing against next_event on their fast path
 * (emu/cpu/interp.inc RUNS_UNCHECKED): every way into a handler there has checked the run it
 * enters, so no data access of the run can be due.  The two ways in that check no run take the
 * loads' and stores' _CK handlers, which compare as before:
 *  - single_step running an instruction alone because an event falls inside its run: its own data
 *    access may be the due one;
 *  - the cross page (L_CROSS): an instruction that straddles two pages is entered without a check
 *    of its run, and a straddling load or store's access may be due.
 * This test runs code with every load and store width, compressed and not, in runs of 1 to 7
 * instructions, with a straddling load and a straddling store, with a listener due every 1 to 13
 * cycles (so dues fall on every access of every shape), against an independent truth: the same
 * program run by interpreter_hooked (a listener that wants every access: one instruction per
 * dispatch, no runs, every access handed over at its cycle), whose access stream says what a
 * listener due every N cycles hears.  The runs must hear exactly that, with the same cycles,
 * instret and access counts.  (The commit log's per-instruction checks are no such truth: they
 * run the runs interpreter's own handlers.)  With the unchecked handlers dispatched at either way
 * in, the listener misses accesses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cpu_fixture.h"

#define RAMB FIXTURE_RAM_BASE
#define LOOP (RAMB + 0xf00)   /* the loop's start: its first page ends in a straddling load */
#define DATA (RAMB + 0x10000) /* the loads' and stores' data */
#define ROUNDS 6u
#define LIMIT 10000u /* more than the program's rounds (about 6,400): it ends in a self-loop */

enum { ZERO = 0, T0 = 5, T1 = 6, T2 = 7, S0 = 8, A1 = 11, A7 = 17, T3 = 28, T4 = 29, T5 = 30 };

/* ---- a tiny assembler ---- */
static uint32_t i_type(uint32_t opc, uint32_t f3, unsigned rd, unsigned rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t s_type(uint32_t f3, unsigned rs2, unsigned rs1, int32_t imm)
{
    uint32_t u = (uint32_t)imm;
    return ((u >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | 0x23;
}
static uint32_t b_type(uint32_t f3, unsigned rs1, unsigned rs2, int32_t off)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | ((u >> 1) & 0xf) << 8 |
           ((u >> 11) & 1) << 7 | 0x63;
}
static uint32_t jal0(int32_t off)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3ff) << 21 | ((u >> 11) & 1) << 20 | ((u >> 12) & 0xff) << 12 | 0x6f;
}
static uint32_t r_add(unsigned rd, unsigned rs1, unsigned rs2) { return rs2 << 20 | rs1 << 15 | rd << 7 | 0x33; }
/* c.lw / c.sw with registers x8-x15 and an offset that is a multiple of 4 below 128 */
static uint16_t c_lw(unsigned rd, unsigned rs1, unsigned off)
{
    return (uint16_t)(2u << 13 | ((off >> 3) & 7) << 10 | (rs1 - 8) << 7 | ((off >> 2) & 1) << 6 | ((off >> 6) & 1) << 5 |
                      (rd - 8) << 2);
}
static uint16_t c_sw(unsigned rs2, unsigned rs1, unsigned off)
{
    return (uint16_t)(6u << 13 | ((off >> 3) & 7) << 10 | (rs1 - 8) << 7 | ((off >> 2) & 1) << 6 | ((off >> 6) & 1) << 5 |
                      (rs2 - 8) << 2);
}
#define C_NOP 0x0001u

typedef struct {
    fixture *f;
    uint64_t at;
} emitter;
static void put32(emitter *e, uint32_t w) { ram_host_write(e->f->ram, e->at, &w, 4), e->at += 4; }
static void put16(emitter *e, uint16_t w) { ram_host_write(e->f->ram, e->at, &w, 2), e->at += 2; }

/* One of the loads and stores of the program: every width and kind, c.lw/c.sw among them; the
 * offsets keep to DATA's first 64 bytes, aligned. */
static void put_access(emitter *e, unsigned k)
{
    static const struct {
        uint32_t opc, f3;
        int32_t off;
    } shapes[] = {
        {0x03, 0, 5}, {0x03, 1, 6}, {0x03, 2, 8}, {0x03, 3, 16}, {0x03, 4, 7}, {0x03, 5, 10}, {0x03, 6, 12},
        {0x23, 0, 33}, {0x23, 1, 34}, {0x23, 2, 36}, {0x23, 3, 40},
    };
    const unsigned n = sizeof shapes / sizeof shapes[0];
    if (k % (n + 2) == n) {
        put16(e, c_lw(A1 - 2, S0, 20)); /* c.lw x9, 20(s0) */
        return;
    }
    if (k % (n + 2) == n + 1) {
        put16(e, c_sw(A1 - 2, S0, 44)); /* c.sw x9, 44(s0) */
        return;
    }
    const unsigned s = k % (n + 2);
    const unsigned reg = (unsigned[]){T0, T1, T2, T3, T4, T5}[k % 6];
    if (shapes[s].opc == 0x03)
        put32(e, i_type(0x03, shapes[s].f3, reg, S0, shapes[s].off));
    else
        put32(e, s_type(shapes[s].f3, reg, S0, shapes[s].off));
}

/* Straight code from e->at up to `end`: runs of 1 to 7 instructions (loads, stores, adds), each
 * ended by a branch (taken to the next instruction, or not taken), so that runs start at every
 * kind of slot. */
static void put_runs(emitter *e, uint64_t end, unsigned *k)
{
    unsigned len = 1;
    while (e->at + 4 * (len + 1) + 4 <= end) {
        for (unsigned i = 0; i < len; i++) {
            if ((*k + i) % 3 == 2)
                put32(e, r_add(T0 + (i & 1), T0 + (i & 1), T2));
            else
                put_access(e, *k + i);
        }
        *k += len;
        put32(e, (*k & 1) ? b_type(0, ZERO, ZERO, 4) : b_type(1, ZERO, ZERO, 8)); /* beq: taken; bne: not */
        len = len % 7 + 1;
    }
}

/* nops up to `to` (a c.nop last when needed, so that a 4-byte instruction can start at 0xffe) */
static void pad_to(emitter *e, uint64_t to)
{
    while (e->at + 4 <= to)
        put32(e, i_type(0x13, 0, ZERO, ZERO, 0));
    if (e->at < to)
        put16(e, C_NOP);
    assert_int_equal(e->at, to);
}

/* The program: at RAMB a jump to LOOP; the loop's first page ends in a load that straddles into
 * the second page (lw a1 at 0xffe), whose code ends in a straddling store (sw at 0x1ffe); then
 * the count down of a7 and a jump back, then a self-loop (the end, where the instruction limit
 * stops the hart).  Returns the self-loop's address. */
static uint64_t emit_program(fixture *f)
{
    emitter e = {f, RAMB};
    put32(&e, jal0((int32_t)(LOOP - RAMB)));
    e.at = LOOP;
    unsigned k = 0;
    put_runs(&e, RAMB + 0xff0, &k);
    pad_to(&e, RAMB + 0xffe);
    put32(&e, i_type(0x03, 2, A1, S0, 24)); /* lw a1, 24(s0): straddles */
    put_runs(&e, RAMB + 0x1ff0, &k);
    pad_to(&e, RAMB + 0x1ffe);
    put32(&e, s_type(2, A1, S0, 48)); /* sw a1, 48(s0): straddles */
    put32(&e, i_type(0x13, 0, A7, A7, -1));
    put32(&e, b_type(0, A7, ZERO, 8)); /* beqz a7, the end */
    put32(&e, jal0((int32_t)(LOOP - e.at)));
    const uint64_t end = e.at;
    put32(&e, jal0(0));
    return end;
}

typedef struct {
    uint64_t cycle, instret, loads, stores, hash, heard, pc;
} outcome;

/* The listener: with period 0 it wants every access (the hart then runs interpreter_hooked, one
 * instruction per dispatch, every access handed over at its cycle) and records them; otherwise
 * it hashes what it hears, its next due `period` cycles after each access it hears. */
#define MAX_ACCESSES 65536u
static mt_access all[MAX_ACCESSES];
static unsigned n_all;
static uint64_t hash_due, hash_acc, hash_n;
static uint64_t hash_step(uint64_t h, const mt_access *a)
{
    return (h ^ (a->cycle * 31 + a->addr * 7 + a->kind * 3 + a->write)) * 0x100000001b3ull;
}
static uint64_t listener(void *ctx, const mt_access *a)
{
    (void)ctx;
    if (hash_due == 0) {
        assert_true(n_all < MAX_ACCESSES);
        all[n_all++] = *a;
        return 0;
    }
    hash_acc = hash_step(hash_acc, a);
    hash_n++;
    return a->cycle + hash_due;
}

static void run(fixture *f, mt_timing_mode timing, uint64_t period, outcome *o)
{
    cpu_free(&f->cpu);
    cpu_init(&f->cpu, &f->bus, timing);
    cpu_reset(&f->cpu, RAMB);
    f->cpu.x[S0] = DATA;
    f->cpu.x[A7] = ROUNDS;
    f->cpu.insn_limit = LIMIT;
    uint8_t data[64];
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 37 + 11);
    ram_host_write(f->ram, DATA, data, sizeof data);
    hash_due = period;
    hash_acc = 0xcbf29ce484222325ull;
    hash_n = 0;
    if (period == 0)
        n_all = 0; /* kept from the every-access run for the others */
    cpu_set_listener(&f->cpu, listener, NULL, period ? 1 : 0);
    cpu_run(&f->cpu);
    *o = (outcome){f->cpu.cycle, f->cpu.instret, f->cpu.access_count[MT_KIND_LOAD], f->cpu.access_count[MT_KIND_STORE],
                   hash_acc, hash_n, f->cpu.pc};
}

/* What a listener due every `period` cycles hears of the every-access stream: the first access
 * at or after its due, then the first `period` cycles after that one, and so on. */
static void expected(uint64_t period, uint64_t *hash, uint64_t *heard)
{
    uint64_t due = 1, h = 0xcbf29ce484222325ull, n = 0;
    for (unsigned i = 0; i < n_all; i++) {
        if (all[i].cycle < due)
            continue;
        h = hash_step(h, &all[i]);
        n++;
        due = all[i].cycle + period;
    }
    *hash = h;
    *heard = n;
}

static void check(fixture *f, mt_timing_mode timing)
{
    const uint64_t end = emit_program(f);
    outcome every;
    run(f, timing, 0, &every);
    /* the program ran to its end: every round, both straddling instructions included */
    assert_int_equal(every.pc, end);
    assert_true(every.loads > 2000 && every.stores > 1000);
    for (uint64_t period = 1; period <= 13; period++) {
        outcome runs;
        run(f, timing, period, &runs);
        assert_int_equal(runs.pc, end);
        assert_int_equal(runs.cycle, every.cycle);
        assert_int_equal(runs.instret, every.instret);
        assert_int_equal(runs.loads, every.loads);
        assert_int_equal(runs.stores, every.stores);
        uint64_t want_hash, want_heard;
        expected(period, &want_hash, &want_heard);
        if (runs.heard != want_heard || runs.hash != want_hash)
            print_error("period %llu, timing %d: heard %llu accesses, the every-access stream says %llu\n",
                        (unsigned long long)period, (int)timing, (unsigned long long)runs.heard,
                        (unsigned long long)want_heard);
        assert_int_equal(runs.heard, want_heard);
        assert_int_equal(runs.hash, want_hash);
    }
}

static int setup(void **state) { return fixture_setup(state, 1 << 20); }
static void test_due_access_none(void **state) { check(*state, TIMING_NONE); }
static void test_due_access_simple(void **state) { check(*state, TIMING_SIMPLE); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_due_access_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_due_access_simple, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
