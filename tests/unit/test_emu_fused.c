/* The fused triples and quads of emu/cpu/decode.h (MT_TRIPLE_BRANCH_OPS: two straight ops and a
 * local conditional branch run by one dispatch; MT_QUAD_OPS: four straight ops) against two
 * independent truths:
 *  - a C model of the instructions (registers, memory, branch outcome), for every triple and
 *    quad with the operand aliasings that a fused handler could get wrong: a later one reading
 *    an earlier one's rd as rs1 or rs2, rd = rs1 = rs2, rd = x0, a load over its own base, the
 *    branch reading either result, and for the quad every one of its 16 length combinations;
 *  - the per-instruction interpreter (interpreter_hooked: a listener that wants every access
 *    never runs fused ops), whose cycles, instret, access counts and access stream the runs
 *    interpreter must give exactly, also when a listener's due falls inside a triple (the run is
 *    then stopped at a slot that execution dispatches to: never one inside the triple). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "emu/cpu/decode.h"
#include "tests/unit/cpu_fixture.h"

#define RAMB FIXTURE_RAM_BASE
#define DATA (RAMB + 0x8000) /* the loads' and stores' data */
#define DATA_BYTES 256
#define LIMIT 2000u /* instructions run: the program ends in a self-loop */

enum { ZERO = 0, S0 = 8, S1 = 9, A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15, A7 = 17 };

/* ---- a tiny assembler ---- */
static uint32_t r_type(uint32_t opc, uint32_t f3, uint32_t f7, unsigned rd, unsigned rs1, unsigned rs2)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}
static uint32_t i_type(uint32_t opc, uint32_t f3, unsigned rd, unsigned rs1, int32_t imm)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static uint32_t s_type(uint32_t f3, unsigned rs2, unsigned rs1, int32_t imm)
{
    uint32_t i = (uint32_t)imm;
    return 0x23 | (i & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((i >> 5) & 0x7f) << 25;
}
static uint32_t b_type(uint32_t f3, unsigned rs1, unsigned rs2, int32_t off)
{
    uint32_t i = (uint32_t)off;
    return 0x63 | ((i >> 11) & 1) << 7 | ((i >> 1) & 0xf) << 8 | f3 << 12 | rs1 << 15 | rs2 << 20 |
           ((i >> 5) & 0x3f) << 25 | ((i >> 12) & 1) << 31;
}
static uint32_t jal0(int32_t off) /* jal zero, off */
{
    uint32_t i = (uint32_t)off;
    return 0x6f | ((i >> 12) & 0xff) << 12 | ((i >> 11) & 1) << 20 | ((i >> 1) & 0x3ff) << 21 | ((i >> 20) & 1) << 31;
}

/* ---- the instructions under test and their model ---- */
typedef enum { I_ADDI, I_MULW, I_ADDW, I_SW, I_SB, I_LW, I_LBU, I_BNE, I_BLTU, I_C_ADDI, I_C_ADDW, I_C_LW } kind;
typedef struct {
    kind k;
    unsigned rd, rs1, rs2; /* rs2: the stored value of a store */
    int32_t imm;
} insn;

/* its encoding; returns the length in bytes (2 for the compressed forms) */
static unsigned encode(const insn *in, uint32_t *w, int32_t branch_off)
{
    switch (in->k) {
    case I_ADDI: *w = i_type(0x13, 0, in->rd, in->rs1, in->imm); return 4;
    case I_MULW: *w = r_type(0x3b, 0, 1, in->rd, in->rs1, in->rs2); return 4;
    case I_ADDW: *w = r_type(0x3b, 0, 0, in->rd, in->rs1, in->rs2); return 4;
    case I_SW: *w = s_type(2, in->rs2, in->rs1, in->imm); return 4;
    case I_SB: *w = s_type(0, in->rs2, in->rs1, in->imm); return 4;
    case I_LW: *w = i_type(0x03, 2, in->rd, in->rs1, in->imm); return 4;
    case I_LBU: *w = i_type(0x03, 4, in->rd, in->rs1, in->imm); return 4;
    case I_BNE: *w = b_type(1, in->rs1, in->rs2, branch_off); return 4;
    case I_BLTU: *w = b_type(6, in->rs1, in->rs2, branch_off); return 4;
    case I_C_ADDI: /* c.addi rd, imm (rd = rs1, imm != 0) */
        *w = 0x0001 | ((uint32_t)in->imm & 0x20) << 7 | in->rd << 7 | ((uint32_t)in->imm & 0x1f) << 2;
        return 2;
    case I_C_ADDW: /* c.addw rd', rs2' (rd = rs1, x8..x15) */
        *w = 0x9c21 | (in->rd - 8) << 7 | (in->rs2 - 8) << 2;
        return 2;
    case I_C_LW: { /* c.lw rd', uimm(rs1') (x8..x15; uimm a multiple of 4, 0..124) */
        uint32_t u = (uint32_t)in->imm;
        *w = 0x4000 | ((u >> 3) & 7) << 10 | (in->rs1 - 8) << 7 | ((u >> 2) & 1) << 6 | ((u >> 6) & 1) << 5 |
             (in->rd - 8) << 2;
        return 2;
    }
    }
    return 0;
}

typedef struct {
    uint64_t x[32];
    uint8_t mem[DATA_BYTES];
} model;

static uint64_t sext32(uint64_t v) { return (uint64_t)(int64_t)(int32_t)(uint32_t)v; }

/* runs one instruction; for a branch returns whether it is taken */
static bool model_step(model *m, const insn *in)
{
    uint64_t a = m->x[in->rs1], b = m->x[in->rs2], r = 0;
    bool write = true;
    uint64_t off = a + (uint64_t)(int64_t)in->imm - DATA;
    switch (in->k) {
    case I_ADDI: case I_C_ADDI: r = a + (uint64_t)(int64_t)in->imm; break;
    case I_MULW: r = sext32((uint32_t)a * (uint32_t)b); break;
    case I_ADDW: case I_C_ADDW: r = sext32(a + b); break;
    case I_SW: assert_true(off + 4 <= DATA_BYTES); memcpy(&m->mem[off], &b, 4); write = false; break;
    case I_SB: assert_true(off < DATA_BYTES); m->mem[off] = (uint8_t)b; write = false; break;
    case I_LW: case I_C_LW: {
        int32_t v;
        assert_true(off + 4 <= DATA_BYTES);
        memcpy(&v, &m->mem[off], 4);
        r = (uint64_t)(int64_t)v;
        break;
    }
    case I_LBU: assert_true(off < DATA_BYTES); r = m->mem[off]; break;
    case I_BNE: return a != b;
    case I_BLTU: return a < b;
    }
    if (write && in->rd)
        m->x[in->rd] = r;
    return false;
}

/* ---- a case: registers, the fused instructions and a branch, and the program around it ---- */
#define MAX_INSNS 7
typedef struct {
    const char *name;
    insn t[MAX_INSNS]; /* straight instructions, then the branch */
    unsigned n;        /* how many */
    bool quad;         /* the first four must run as a quad */
} triple_case;
static unsigned case_len(const triple_case *tc) { return tc->n; }

static void init_model(model *m, unsigned variant)
{
    memset(m, 0, sizeof *m);
    for (unsigned i = 0; i < DATA_BYTES; i++)
        m->mem[i] = (uint8_t)(i * 37 + 11 + variant);
    m->x[S0] = 0x123456789 + variant;
    m->x[S1] = 0xfffffffff0000007 - variant;
    m->x[A0] = DATA + 16; /* a pointer */
    m->x[A1] = 7 + variant;
    m->x[A2] = 0x80000003u; /* a product that overflows 32 bits */
    m->x[A3] = DATA + 20;
    m->x[A4] = variant & 1 ? 7 : 0x7fffffff;
    m->x[A5] = 0xffffffff;
}

/* Writes `repeats` times: jal zero, +4 (so the first slot is a run's entry, dispatched to as the
 * triple or quad); the instructions, the branch 8 bytes on, past "addi a7, a7, 1" (which counts the
 * branches not taken).  Then a self-loop, where the run ends at LIMIT instructions; returns its
 * address. */
static uint64_t emit_case(fixture *f, const triple_case *tc, unsigned repeats)
{
    uint64_t at = RAMB;
    uint32_t w;
    for (unsigned r = 0; r < repeats; r++) {
        w = jal0(4);
        ram_host_write(f->ram, at, &w, 4);
        at += 4;
        for (unsigned i = 0; i < case_len(tc); i++) {
            unsigned len = encode(&tc->t[i], &w, 8);
            ram_host_write(f->ram, at, &w, len);
            at += len;
        }
        w = i_type(0x13, 0, A7, A7, 1);
        ram_host_write(f->ram, at, &w, 4);
        at += 4;
    }
    w = jal0(0);
    ram_host_write(f->ram, at, &w, 4);
    return at;
}

static mt_timing_mode run_timing;

static void load_state(fixture *f, const model *m)
{
    cpu_free(&f->cpu);
    cpu_init(&f->cpu, &f->bus, run_timing);
    cpu_reset(&f->cpu, RAMB);
    for (unsigned i = 1; i < 32; i++)
        f->cpu.x[i] = m->x[i];
    ram_host_write(f->ram, DATA, m->mem, DATA_BYTES);
    f->cpu.insn_limit = LIMIT;
}

typedef struct {
    uint64_t x[32], cycle, instret, loads, stores, hash, heard;
    uint8_t mem[DATA_BYTES];
} outcome;

static uint64_t hash_due;  /* the listener's period (0: every access) */
static uint64_t hash_acc, hash_n;
static uint64_t hashing_listener(void *ctx, const mt_access *a)
{
    (void)ctx;
    hash_acc = (hash_acc ^ (a->cycle * 31 + a->addr * 7 + a->kind * 3 + a->write)) * 0x100000001b3ull;
    hash_n++;
    return hash_due ? a->cycle + hash_due : 0;
}

/* Runs the program from the model's state; period: none (UINT64_MAX: no listener, the fused fast
 * path), 0 (every access: the per-instruction interpreter) or a due every `period` cycles. */
static void run(fixture *f, const model *m, uint64_t period, outcome *o)
{
    load_state(f, m);
    hash_acc = 0xcbf29ce484222325ull;
    hash_n = 0;
    hash_due = period;
    if (period != UINT64_MAX)
        cpu_set_listener(&f->cpu, hashing_listener, NULL, period ? 1 : 0);
    cpu_run(&f->cpu);
    memset(o, 0, sizeof *o);
    memcpy(o->x, f->cpu.x, sizeof o->x);
    o->cycle = f->cpu.cycle;
    o->instret = f->cpu.instret;
    o->loads = f->cpu.access_count[MT_KIND_LOAD];
    o->stores = f->cpu.access_count[MT_KIND_STORE];
    o->hash = hash_acc;
    o->heard = hash_n;
    ram_host_read(f->ram, DATA, o->mem, DATA_BYTES);
}

static void check_case(fixture *f, const triple_case *tc, mt_timing_mode timing)
{
    for (unsigned variant = 0; variant < 2; variant++) {
        const unsigned repeats = 3;
        model m0, m;
        init_model(&m0, variant);
        m = m0;
        run_timing = timing;
        uint64_t end = emit_case(f, tc, repeats);
        /* the model: each repeat runs the instructions, and the marker when the branch falls
         * through */
        const unsigned n = case_len(tc);
        for (unsigned r = 0; r < repeats; r++) {
            for (unsigned i = 0; i + 1 < n; i++)
                model_step(&m, &tc->t[i]);
            if (!model_step(&m, &tc->t[n - 1]))
                m.x[A7]++;
        }
        outcome fused, ref, stepped;
        run(f, &m0, UINT64_MAX, &fused);
        /* the fused op is what ran (the first slot after the jal): a test of the quad that the
         * decoder did not fuse would test nothing */
        const mt_dpage *dp = cpu_dpage_lookup(&f->cpu, RAMB);
        assert_non_null(dp);
        assert_true(tc->quad ? op_is_quad(dp->slot[2].op) : op_is_triple(dp->slot[2].op));
        print_message("%s (variant %u, timing %d): a7 = %llu not taken\n", tc->name, variant, (int)timing,
                      (unsigned long long)m.x[A7]);
        assert_int_equal(f->cpu.pc, end);
        for (unsigned i = 0; i < 32; i++) {
            if (fused.x[i] != m.x[i])
                print_error("%s: x%u = %#llx, the model says %#llx\n", tc->name, i, (unsigned long long)fused.x[i],
                            (unsigned long long)m.x[i]);
            assert_int_equal(fused.x[i], m.x[i]);
        }
        assert_memory_equal(fused.mem, m.mem, DATA_BYTES);
        /* the per-instruction interpreter: the same state and counts */
        run(f, &m0, 0, &ref);
        assert_memory_equal(ref.x, fused.x, sizeof fused.x);
        assert_memory_equal(ref.mem, fused.mem, DATA_BYTES);
        assert_int_equal(ref.cycle, fused.cycle);
        assert_int_equal(ref.instret, fused.instret);
        assert_int_equal(ref.loads, fused.loads);
        assert_int_equal(ref.stores, fused.stores);
        /* dues every 1..9 cycles: stops inside runs, at every slot of the triple or quad; the listener
         * hears the accesses at the cycles the per-instruction interpreter gives them */
        for (uint64_t period = 1; period <= 9; period++) {
            hash_due = period;
            load_state(f, &m0);
            hash_acc = 0xcbf29ce484222325ull;
            hash_n = 0;
            cpu_set_listener(&f->cpu, hashing_listener, NULL, 1);
            f->cpu.log_commits = true; /* checks before every instruction: the reference */
            FILE *null = fopen("/dev/null", "w");
            assert_non_null(null);
            f->cpu.log_file = null;
            cpu_run(&f->cpu);
            fclose(null);
            f->cpu.log_commits = false;
            f->cpu.log_file = NULL;
            uint64_t ref_hash = hash_acc, ref_n = hash_n, ref_cycle = f->cpu.cycle;
            run(f, &m0, period, &stepped);
            assert_memory_equal(stepped.x, fused.x, sizeof fused.x);
            assert_int_equal(stepped.cycle, ref_cycle);
            assert_int_equal(stepped.instret, fused.instret);
            assert_int_equal(stepped.heard, ref_n);
            assert_int_equal(stepped.hash, ref_hash);
        }
    }
}

static const triple_case cases[] = {
    /* MULW ADDW BNE: the multiply-accumulate loop's end */
    {"mulw+addw+bne plain", {{I_MULW, A3, A1, A2, 0}, {I_ADDW, A4, A4, A3, 0}, {I_BNE, 0, A4, A5, 0}}, 3, false},
    {"mulw+addw+bne rd=rs1=rs2, second rd=rs1", {{I_MULW, A1, A1, A1, 0}, {I_ADDW, A1, A1, A2, 0}, {I_BNE, 0, A1, A2, 0}}, 3, false},
    {"mulw+addw+bne second reads rd as rs2", {{I_MULW, A3, A2, A1, 0}, {I_ADDW, A4, A1, A3, 0}, {I_BNE, 0, A3, A4, 0}}, 3, false},
    {"mulw+addw+bne x0", {{I_MULW, ZERO, A1, A2, 0}, {I_ADDW, ZERO, A1, A2, 0}, {I_BNE, 0, ZERO, A1, 0}}, 3, false},
    {"mulw+addw+bne branch on x0 equal", {{I_MULW, A3, ZERO, A2, 0}, {I_ADDW, A4, A3, ZERO, 0}, {I_BNE, 0, A4, ZERO, 0}}, 3, false},
    {"mulw+c.addw+bne", {{I_MULW, S0, S0, S1, 0}, {I_C_ADDW, S1, S1, S0, 0}, {I_BNE, 0, S1, S0, 0}}, 3, false},
    /* ADDI ADDI BNE (also compressed) */
    {"addi+addi+bne plain", {{I_ADDI, A1, A1, 0, 4}, {I_ADDI, A3, A3, 0, 64}, {I_BNE, 0, A1, A2, 0}}, 3, false},
    {"addi+addi+bne chained", {{I_ADDI, A1, A1, 0, -4}, {I_ADDI, A1, A1, 0, 2047}, {I_BNE, 0, A1, A1, 0}}, 3, false},
    {"addi+addi+bne second reads first", {{I_ADDI, A3, A1, 0, 1}, {I_ADDI, A4, A3, 0, -1}, {I_BNE, 0, A4, A1, 0}}, 3, false},
    {"addi+addi+bne x0", {{I_ADDI, ZERO, A1, 0, 5}, {I_ADDI, A3, ZERO, 0, -2048}, {I_BNE, 0, ZERO, A3, 0}}, 3, false},
    {"c.addi+c.addi+bne", {{I_C_ADDI, A1, A1, 0, -3}, {I_C_ADDI, A2, A2, 0, 31}, {I_BNE, 0, A1, A2, 0}}, 3, false},
    {"addi+c.addi+bne", {{I_ADDI, A1, A2, 0, 9}, {I_C_ADDI, A1, A1, 0, 1}, {I_BNE, 0, A1, ZERO, 0}}, 3, false},
    {"c.addi+addi+bne", {{I_C_ADDI, A2, A2, 0, -32}, {I_ADDI, A3, A2, 0, 1}, {I_BNE, 0, A3, A2, 0}}, 3, false},
    /* SW ADDI BLTU (memset-like) */
    {"sw+addi+bltu plain", {{I_SW, 0, A0, A1, 0}, {I_ADDI, A0, A0, 0, 4}, {I_BLTU, 0, A0, A3, 0}}, 3, false},
    {"sw+addi+bltu stores its base", {{I_SW, 0, A0, A0, 4}, {I_ADDI, A3, A0, 0, 8}, {I_BLTU, 0, A3, A0, 0}}, 3, false},
    {"sw+addi+bltu x0", {{I_SW, 0, A0, ZERO, -4}, {I_ADDI, ZERO, A0, 0, 4}, {I_BLTU, 0, ZERO, A0, 0}}, 3, false},
    /* LBU ADDI BNE (strlen-like) */
    {"lbu+addi+bne plain", {{I_LBU, A1, A0, 0, 0}, {I_ADDI, A0, A0, 0, 1}, {I_BNE, 0, A1, ZERO, 0}}, 3, false},
    {"lbu+addi+bne second reads loaded", {{I_LBU, A1, A0, 0, 3}, {I_ADDI, A1, A1, 0, -1}, {I_BNE, 0, A1, A2, 0}}, 3, false},
    {"lbu+addi+bne load over its base", {{I_LBU, A0, A0, 0, 1}, {I_ADDI, A0, A3, 0, 0}, {I_BNE, 0, A3, A0, 0}}, 3, false},
    {"lbu+addi+bne x0", {{I_LBU, ZERO, A0, 0, 2}, {I_ADDI, A1, ZERO, 0, 0}, {I_BNE, 0, A1, ZERO, 0}}, 3, false},
    /* SB ADDI BLTU */
    {"sb+addi+bltu plain", {{I_SB, 0, A0, A1, 0}, {I_ADDI, A0, A0, 0, 1}, {I_BLTU, 0, A0, A3, 0}}, 3, false},
    {"sb+addi+bltu stores its base", {{I_SB, 0, A0, A0, -1}, {I_ADDI, A0, A0, 0, 1}, {I_BLTU, 0, A3, A0, 0}}, 3, false},
    /* LW LW ADDI ADDI (quads), then the branch alone or after MULW ADDW (a triple) */
    {"bench_cpu's loop: c.lw+lw+c.addi+addi, mulw+addw+bne",
     {{I_C_LW, A4, A0, 0, 0}, {I_LW, A5, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 64},
      {I_MULW, A5, A5, A4, 0}, {I_ADDW, S1, A5, S1, 0}, {I_BNE, 0, A5, A4, 0}}, 7, true},
    {"lw+lw+addi+addi plain", {{I_LW, A1, A0, 0, 0}, {I_LW, A2, A3, 0, 8}, {I_ADDI, A0, A0, 0, 4},
                               {I_ADDI, A3, A3, 0, 12}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"lw+lw+addi+addi load over its base, addi restores it",
     {{I_LW, A1, A0, 0, 0}, {I_LW, A0, A0, 0, 4}, {I_ADDI, A0, A3, 0, 0}, {I_ADDI, A3, A3, 0, 4},
      {I_BNE, 0, A0, A3, 0}}, 5, true},
    {"lw+lw+addi+addi addis read the loads", {{I_LW, A1, A0, 0, -4}, {I_LW, A2, A3, 0, 0}, {I_ADDI, A1, A2, 0, -1},
                                              {I_ADDI, A2, A1, 0, 3}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"lw+lw+addi+addi x0", {{I_LW, ZERO, A0, 0, 0}, {I_LW, A1, A0, 0, 4}, {I_ADDI, ZERO, A1, 0, 1},
                            {I_ADDI, A2, ZERO, 0, 5}, {I_BNE, 0, ZERO, A2, 0}}, 5, true},
    {"lw+lw+addi+addi same rd", {{I_LW, A1, A0, 0, 0}, {I_LW, A1, A3, 0, 0}, {I_ADDI, A1, A1, 0, 1},
                                 {I_ADDI, A1, A1, 0, 2}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WWWW", {{I_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WWWC", {{I_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WWCW", {{I_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WWCC", {{I_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WCWW", {{I_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WCWC", {{I_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WCCW", {{I_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad WCCC", {{I_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CWWW", {{I_C_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CWWC", {{I_C_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CWCW", {{I_C_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CWCC", {{I_C_LW, A1, A0, 0, 8}, {I_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CCWW", {{I_C_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CCWC", {{I_C_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CCCW", {{I_C_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
    {"quad CCCC", {{I_C_LW, A1, A0, 0, 8}, {I_C_LW, A2, A3, 0, 4}, {I_C_ADDI, A0, A0, 0, 4}, {I_C_ADDI, A3, A3, 0, 4}, {I_BNE, 0, A1, A2, 0}}, 5, true},
};

static int setup(void **state) { return fixture_setup(state, 1 << 20); }

static void test_fused_none(void **state)
{
    fixture *f = *state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(f, &cases[i], TIMING_NONE);
}

static void test_fused_simple(void **state)
{
    fixture *f = *state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(f, &cases[i], TIMING_SIMPLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fused_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fused_simple, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
