/* Constrained-random co-simulation of the trace unit: the C reference model (lib/mt_unit) and
 * the Verilated RTL (rtl_model/sim/mt_rtl.h) get the same random register programs and access
 * streams, and must produce the same bytes in the same cycles, the same FIFO occupancy every
 * cycle and the same register values.  The first divergence stops the stream with the cycle, the
 * packets around the first differing byte on both sides and the recent inputs.
 *
 *   mt_cosim [--seed S] [--streams N] [--cycles C] [--one STREAM_SEED] [--minimal] [--spatial]
 *            [--reduce] [--long] [--warm-reset] [--bench N] [-v]
 *
 * Streams alternate between two comparison modes: every cycle (output bytes and FIFO level), and
 * sparse (the model advancing lazily between inputs, compared at register reads and at the end),
 * which also checks the model's lazy fast path against the RTL clocked every cycle.
 * --minimal: the RTL is the minimal build (mt_tu FullFmt = 0: the 48-bit and 32-bit formats only,
 * and no compression), whose FMT keeps bit 0 of each field only; the RTL gets every FMT write as
 * generated and the model the value the minimal build accepts, so the register's read-back and
 * every stream are compared; the model runs plain (mt_unit_params.plain: every sample FULL).
 * --spatial: every stream in the spatial mode (SPATIAL.EN, a random log2 N, mostly one burst
 * section at r = 1 in the full format), with accesses that walk, repeat and alternate over a few
 * pages, so that the front end's passes, repeats, skipped alternations, replays and lost accesses
 * all happen; SPATIAL writes (mode and N) also come in the middle of a session.
 * --reduce: every stream in the reduce mode (REDUCE.EN, a random budget, mostly small so that the
 * bucket clear is short; mostly one burst section at r = 1 in the full format), with the spatial
 * mode's walking, repeating and alternating accesses, so that the filter's queue fills (lost
 * accesses), its window forces, the record queue fills and the stop waits for the flush; REDUCE
 * writes also come in the middle of a session (latched at the next start).
 * --long: sections of about 2^20 cycles and more (lengths k * 2^20 - 3 .. k * 2^20 + 3, k 1 or 2),
 * one session with no register access after its start, sparse accesses: the RTL's section
 * count-down (mt_tu_cntdown) keeps its halves with a registered borrow between them at bit 20,
 * and only sections that end past 2^20 cycles reach its high half (the random lengths above stay
 * below 20 000).  Run with --cycles of a few million.
 * --warm-reset: the RTL comes to each stream through mt_rtl_reset from a session cut off at a
 * random cycle (packets in every pipeline stage, the FIFO part full), not freshly created: the
 * pipeline's data registers have no reset (docs/trace-unit-rtl.md section 3, "Data registers
 * without a reset"), so this is what shows that nothing from before a reset is read after it.
 * --bench: one long stream of one access per clock, timed model alone vs model + RTL. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rtl_model/sim/mt_rtl.h"
#include "mt_unit.h"
#include "rtl_model/sim/pktctx.h"

typedef struct {
    uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r)
{
    /* splitmix64: small, fast, good enough for test stimulus */
    uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static uint64_t below(rng_t *r, uint64_t n) { return n ? rnd(r) % n : 0; }
static int chance(rng_t *r, unsigned permille) { return below(r, 1000) < permille; }

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf_t;

static void buf_add(buf_t *b, const uint8_t *p, size_t n)
{
    if (!n)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            fprintf(stderr, "mt_cosim: out of memory\n");
            exit(2);
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void model_sink(void *ctx, const uint8_t *p, size_t n) { buf_add(ctx, p, n); }

/* Recent inputs, printed on a divergence. */
enum { EV_ACC, EV_WR, EV_RD };
typedef struct {
    int type;
    uint64_t cycle, addr;
    uint32_t off, val, val2;
    uint8_t write, kind, tap;
} ev_t;
#define RECENT 24
typedef struct {
    ev_t ev[RECENT];
    unsigned n;
} recent_t;
static void remember(recent_t *h, const ev_t *e) { h->ev[h->n++ % RECENT] = *e; }

static void print_recent(const recent_t *h)
{
    unsigned first = h->n > RECENT ? h->n - RECENT : 0;
    fprintf(stderr, "  recent inputs (oldest first):\n");
    for (unsigned i = first; i < h->n; i++) {
        const ev_t *e = &h->ev[i % RECENT];
        if (e->type == EV_ACC)
            fprintf(stderr, "    cycle %" PRIu64 ": access addr=0x%014" PRIx64 " %s kind=%u tap=%u\n",
                    e->cycle, e->addr, e->write ? "W" : "R", e->kind, e->tap);
        else if (e->type == EV_WR)
            fprintf(stderr, "    cycle %" PRIu64 ": mmio write 0x%03x = 0x%08x\n", e->cycle, e->off, e->val);
        else
            fprintf(stderr, "    cycle %" PRIu64 ": mmio read 0x%03x -> model 0x%08x rtl 0x%08x\n",
                    e->cycle, e->off, e->val, e->val2);
    }
}

typedef struct {
    uint64_t streams, cycles, accesses, bytes, samples, dropped, overflow_streams, reads;
    uint64_t sp_taken, sp_records, sp_lost; /* the spatial front end's, last session of each stream */
    uint64_t rd_accesses, rd_lost, rd_records, rd_forced, rd_qfull; /* the reduce path's, likewise */
} stats_t;

typedef struct {
    mt_unit u;
    mt_rtl *r;
    buf_t mb, rb; /* model and RTL output bytes */
    recent_t rec;
    uint64_t seed;
    int failed;
    int trace; /* MT_COSIM_TRACE set: per-cycle levels on stderr */
    int minimal; /* --minimal: the RTL lacks the full and line formats and the compressor */
    int spatial; /* --spatial: spatial-mode streams */
    int reduce;  /* --reduce: reduce-mode streams */
    int long_sections; /* --long: sections past 2^20 cycles, no register access after the start */
    int warm_reset;    /* --warm-reset: each stream starts from mt_rtl_reset after a cut-off session */
} cosim_t;

static void pull_rtl(cosim_t *c)
{
    uint8_t tmp[4096];
    size_t k;
    while ((k = mt_rtl_pop(c->r, tmp, sizeof tmp)) > 0)
        buf_add(&c->rb, tmp, k);
}

static void diverged(cosim_t *c, uint64_t cycle, const char *what)
{
    fprintf(stderr, "mt_cosim: DIVERGENCE (seed %" PRIu64 ", depth %u, drain %u) at cycle %" PRIu64 ": %s\n",
            c->seed, c->u.p.depth, c->u.p.drain, cycle, what);
    fprintf(stderr, "  output so far: model %zu bytes, rtl %zu bytes\n", c->mb.n, c->rb.n);
    /* Let both drain what their FIFOs hold (no new input), so the packets that differ show. */
    uint64_t more = (c->u.fifo.occ + c->u.p.drain - 1) / c->u.p.drain + 1;
    mt_unit_advance(&c->u, cycle + more);
    mt_rtl_advance(c->r, cycle + more);
    pull_rtl(c);
    size_t n = c->mb.n < c->rb.n ? c->mb.n : c->rb.n;
    size_t at = 0;
    while (at < n && c->mb.p[at] == c->rb.p[at])
        at++;
    fprintf(stderr, "  after draining the FIFOs: model %zu bytes, rtl %zu bytes, first difference at byte %zu\n",
            c->mb.n, c->rb.n, at);
    pktctx_print(stderr, "model", c->mb.p, c->mb.n, at, 3);
    pktctx_print(stderr, "rtl  ", c->rb.p, c->rb.n, at, 3);
    print_recent(&c->rec);
    c->failed = 1;
}

/* Both sides complete every cycle before `cycle`; compare output (and level when exact). */
static int sync_to(cosim_t *c, uint64_t cycle, int level_too)
{
    mt_unit_advance(&c->u, cycle);
    mt_rtl_advance(c->r, cycle);
    pull_rtl(c);
    if (c->mb.n != c->rb.n || (c->mb.n && memcmp(c->mb.p, c->rb.p, c->mb.n))) {
        diverged(c, cycle, "output bytes differ");
        return -1;
    }
    if (c->trace)
        fprintf(stderr, "  [cycle %" PRIu64 "] model level %u out %zu hold %u/%u drop_pending %u run %u | rtl level %u out %zu\n",
                cycle, c->u.fifo.occ, c->mb.n, c->u.hold.valid, c->u.hold.after, c->u.drop_pending,
                c->u.enc.run_cnt, mt_rtl_fifo_level(c->r), c->rb.n);
    if (level_too) {
        unsigned lr = mt_rtl_fifo_level(c->r);
        if (lr != c->u.fifo.occ) {
            char msg[96];
            snprintf(msg, sizeof msg, "FIFO level: model %u, rtl %u", c->u.fifo.occ, lr);
            diverged(c, cycle, msg);
            return -1;
        }
        /* the tap an access of this cycle is compared with, which the emulator's hook picks
         * accesses by (mt_rtl_tap_at; -1 in a netlist without the registers' names) */
        const int rt = mt_rtl_tap(c->r);
        if (rt >= 0 && (unsigned)rt != mt_unit_tap(&c->u)) {
            char msg[96];
            snprintf(msg, sizeof msg, "tap: model %u, rtl %d", mt_unit_tap(&c->u), rt);
            diverged(c, cycle, msg);
            return -1;
        }
    }
    return 0;
}

static void do_write(cosim_t *c, uint64_t t, uint32_t off, uint32_t v)
{
    ev_t e = {.type = EV_WR, .cycle = t, .off = off, .val = v};
    remember(&c->rec, &e);
    /* (the minimal build does not implement bit 1 of FMT's fields: full and line are accepted as
     * 48-bit and 32-bit, which is what the model is told) */
    uint32_t model_v = c->minimal && off == MT_REG_FMT ? v & ~UINT32_C(0x22) : v;
    if (c->minimal && off == MT_REG_SPATIAL)
        model_v = 0; /* (the minimal build has no spatial front end: the register reads 0) */
    mt_unit_mmio_write(&c->u, t, off, model_v);
    mt_rtl_mmio_write(c->r, t, off, v);
}

static int do_read(cosim_t *c, uint64_t t, uint32_t off, stats_t *st)
{
    uint32_t a = mt_unit_mmio_read(&c->u, t, off);
    uint32_t b = mt_rtl_mmio_read(c->r, t, off);
    ev_t e = {.type = EV_RD, .cycle = t, .off = off, .val = a, .val2 = b};
    remember(&c->rec, &e);
    st->reads++;
    if (a != b) {
        char msg[96];
        snprintf(msg, sizeof msg, "register 0x%03x: model 0x%08x, rtl 0x%08x", off, a, b);
        diverged(c, t, msg);
        return -1;
    }
    return 0;
}

/* A random register configuration, biased to short sections and small rates so that every
 * mechanism (switches, runs, skips, SYNCs, overflow) happens within a few thousand cycles. */
static void random_config(rng_t *g, uint32_t cfg[][2], unsigned *n)
{
    static const uint32_t rates[] = {1, 1, 2, 3, 5, 7, 24, 64, 2048};
    static const uint32_t lens[] = {0, 1, 2, 7, 30, 100, 333, 1000, 5000};
    unsigned k = 0;
    /* (one random draw per statement: C leaves the order of calls within an expression open, and
     * the stimulus must not depend on the compiler's choice) */
    uint32_t fmt_h = (uint32_t)below(g, 4);
    uint32_t fmt_l = (uint32_t)below(g, 4);
    cfg[k][0] = MT_REG_FMT; cfg[k++][1] = fmt_h | fmt_l << 4;
    cfg[k][0] = MT_REG_RATE_H; cfg[k++][1] = chance(g, 200) ? (uint32_t)below(g, 40) : rates[below(g, 9)];
    cfg[k][0] = MT_REG_RATE_L; cfg[k++][1] = chance(g, 200) ? (uint32_t)below(g, 300) : rates[below(g, 9)];
    cfg[k][0] = MT_REG_LEN_H_LO; cfg[k++][1] = chance(g, 100) ? (uint32_t)below(g, 20000) : lens[below(g, 9)];
    /* (a high word now and then: lengths past 2^32 end no section in a test, but the high word's
     * bits 7:0 and the bits above them that the register drops are tested at the write) */
    cfg[k][0] = MT_REG_LEN_H_HI; cfg[k++][1] = chance(g, 30) ? (uint32_t)rnd(g) : 0;
    cfg[k][0] = MT_REG_LEN_L_LO; cfg[k++][1] = chance(g, 100) ? (uint32_t)below(g, 20000) : lens[below(g, 9)];
    cfg[k][0] = MT_REG_LEN_L_HI; cfg[k++][1] = chance(g, 30) ? (uint32_t)rnd(g) : 0;
    cfg[k][0] = MT_REG_SYNC_PERIOD;
    cfg[k++][1] = chance(g, 500) ? (uint32_t)below(g, 600) : (chance(g, 500) ? 4096u : (uint32_t)rnd(g));
    cfg[k][0] = MT_REG_KIND_MASK; cfg[k++][1] = chance(g, 700) ? 0x1Fu : (uint32_t)rnd(g);
    cfg[k][0] = MT_REG_TAP; cfg[k++][1] = chance(g, 850) ? 0u : (uint32_t)below(g, 4);
    *n = k;
}

typedef struct {
    uint64_t hot[4];
    unsigned acc_permille, write_permille;
} agen_t;

static uint64_t next_addr(rng_t *g, agen_t *a)
{
    /* one random draw per statement (C leaves the order within an expression open) */
    unsigned i = (unsigned)below(g, 4);
    unsigned how = (unsigned)below(g, 8);
    uint64_t r1 = rnd(g);
    uint64_t r2 = rnd(g);
    uint64_t step = (r1 & 0xFF) << ((r2 % 4) * 6);
    uint64_t x;
    switch (how) {
    case 0: case 1: case 2: x = a->hot[i]; break;                       /* repeat */
    case 3: x = a->hot[i] + step; break;                                 /* near, above */
    case 4: x = a->hot[i] - step; break;                                 /* near, below */
    case 5: x = a->hot[i] ^ (UINT64_C(1) << (r2 % 56)); break;           /* one bit */
    case 6: x = r1 & ((r2 & 1) ? UINT64_C(0xFFFFFFFF) : ~UINT64_C(0)); break;
    default: x = a->hot[i] + 64; break;                                  /* next line */
    }
    x &= MT_PADDR_MASK;
    if (chance(g, 300))
        a->hot[i] = x;
    return x;
}

/* Spatial streams: pages that repeat, alternate (x y x y), walk to neighbours (metapages shared
 * at some sizes) and jump, from a pool of 8; now and then a far page or an address above 2^43,
 * where only the low 31 bits of a metapage are kept per size. */
typedef struct {
    uint64_t pool[8], last, prev;
    unsigned phase, left; /* phase 1: mostly alternating (settled alternations, replays), for `left` accesses */
} sgen_t;

static uint64_t next_spatial_addr(rng_t *g, sgen_t *s)
{
    if (!s->left) {
        s->phase = (unsigned)below(g, 2);
        s->left = (unsigned)(10 + below(g, 60));
    }
    s->left--;
    unsigned how = (unsigned)below(g, 100);
    if (s->phase == 1)
        how = how < 85 ? 35 + how % 30 : how < 95 ? 0 : how;
    unsigned i = (unsigned)below(g, 8);
    uint64_t r = rnd(g);
    uint64_t page;
    if (how < 35)
        page = s->last;                                        /* repeat */
    else if (how < 65)
        page = s->prev;                                        /* alternate */
    else if (how < 80)
        page = s->pool[i];                                     /* a known page */
    else if (how < 92)
        page = s->last + 1 + (r % 600) - 300;                  /* a neighbour */
    else if (how < 97)
        page = (r >> 8) & ((UINT64_C(1) << 24) - 1);           /* far */
    else
        page = s->pool[i] ^ (UINT64_C(1) << (31 + r % 13));    /* equal low 31 bits */
    page &= (UINT64_C(1) << 44) - 1;
    if (page != s->last) {
        s->prev = s->last;
        s->last = page;
    }
    if (chance(g, 50))
        s->pool[i] = page;
    return page << 12 | (rnd(g) & 0xFFF);
}

static uint32_t random_spatial(rng_t *g)
{
    static const uint32_t lgs[] = {0, 0, 1, 2, 3, 4, 6, 9, 10, 12, 16, 17, 31};
    uint32_t lg = lgs[below(g, 13)];
    uint32_t en = chance(g, 950) ? 1u : 0u;
    return en | lg << MT_SPATIAL_LG2N_SHIFT | (chance(g, 100) ? (uint32_t)rnd(g) & ~UINT32_C(0x1F01) : 0);
}

static uint32_t random_reduce(rng_t *g)
{
    static const uint32_t lgs[] = {0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 10, 11, 31};
    uint32_t lg = lgs[below(g, 13)];
    uint32_t en = chance(g, 950) ? 1u : 0u;
    return en | lg << MT_REDUCE_LGK_SHIFT | (chance(g, 100) ? (uint32_t)rnd(g) & ~UINT32_C(0x1F01) : 0);
}

/* One random stream. Returns 0 when model and RTL agree throughout. */
/* --warm-reset: a session on the RTL alone (a short rate in a random format, an access every cycle,
 * so packets of every length are in flight), stopped by mt_rtl_reset at a random cycle, so that
 * the stream that follows starts from a reset with the last session's data in the pipeline's
 * registers and the FIFO's banks. */
static void cut_off_session(mt_rtl *r, rng_t *g)
{
    mt_rtl_reset(r);
    mt_rtl_mmio_write(r, 0, MT_REG_FMT, (uint32_t)below(g, 16));
    mt_rtl_mmio_write(r, 1, MT_REG_RATE_H, 1 + (uint32_t)below(g, 12));
    mt_rtl_mmio_write(r, 2, MT_REG_CTRL, 1);
    uint64_t end = 8 + below(g, 400);
    uint8_t tmp[64];
    for (uint64_t t = 4; t < end; t++) {
        mt_access a = {.cycle = t, .addr = rnd(g) & UINT64_C(0xFFFFFFFFFF), .write = (uint8_t)(t & 1),
                       .size = 8, .kind = (uint8_t)below(g, 5)};
        mt_rtl_access(r, &a);
        if (chance(g, 500))
            while (mt_rtl_pop(r, tmp, sizeof tmp))
                ;
    }
    mt_rtl_advance(r, end + below(g, 8));
    mt_rtl_reset(r);
}

static int run_stream(cosim_t *c, uint64_t seed, uint64_t cycles, int exact, stats_t *st)
{
    rng_t g = {seed};
    c->seed = seed;
    c->mb.n = c->rb.n = 0;
    c->rec.n = 0;
    /* FIFO parameters: mostly the default, else small and odd (overflow, wrap-around). */
    static const unsigned depths[] = {4096, 4096, 32, 33, 48, 100, 64, 257, 1000, 65536};
    unsigned depth = depths[below(&g, 10)], drain = (unsigned)(chance(&g, 400) ? 8 : 1 + below(&g, 8));
    int flood = chance(&g, 250); /* FIFO pressure: every access sampled, slow drain, small FIFO */
    if (flood) {
        depth = (unsigned)(32 + below(&g, 200));
        drain = (unsigned)(1 + below(&g, 3));
    }
    /* a build with a smaller FIFO or a narrower output port (build/rtl/minimal, the harness's) */
    if (depth > mt_rtl_max_depth())
        depth = mt_rtl_max_depth();
    if (drain > mt_rtl_max_drain())
        drain = 1 + (drain - 1) % mt_rtl_max_drain();
    mt_unit_params p = {.depth = depth, .drain = drain, .sink = model_sink, .sink_ctx = &c->mb, .plain = c->minimal};
    if (mt_unit_init(&c->u, &p)) {
        fprintf(stderr, "mt_cosim: mt_unit_init failed (depth %u drain %u)\n", p.depth, p.drain);
        return -1;
    }
    if (!c->warm_reset || !c->r || mt_rtl_depth(c->r) != depth || mt_rtl_drain(c->r) != drain) {
        mt_rtl_destroy(c->r);
        c->r = mt_rtl_create(depth, drain, NULL);
        if (!c->r) {
            fprintf(stderr, "mt_cosim: mt_rtl_create failed (depth %u drain %u)\n", depth, drain);
            mt_unit_free(&c->u);
            return -1;
        }
    }
    if (c->warm_reset)
        cut_off_session(c->r, &g);

    uint32_t cfg[16][2];
    unsigned ncfg;
    random_config(&g, cfg, &ncfg);
    if (flood) { /* r = 1 or 2 in both section types, full or line format (long packets) */
        cfg[1][1] = (uint32_t)(1 + below(&g, 2));
        cfg[2][1] = (uint32_t)(1 + below(&g, 2));
        uint32_t fh = (uint32_t)(2 + below(&g, 2));
        uint32_t fl = (uint32_t)(2 + below(&g, 2));
        cfg[0][1] = fh | fl << 4;
    }
    sgen_t sg = {0};
    if (c->spatial || c->reduce) { /* mostly what a spatial session is programmed with: r = 1, full, one burst */
        if (chance(&g, 850)) {
            cfg[0][1] = 0x22;
            cfg[1][1] = 1;
            cfg[3][1] = cfg[4][1] = cfg[5][1] = cfg[6][1] = 0;
        }
        cfg[ncfg][0] = c->spatial ? MT_REG_SPATIAL : MT_REG_REDUCE;
        cfg[ncfg++][1] = c->spatial ? random_spatial(&g) : random_reduce(&g);
        for (int i = 0; i < 8; i++) {
            uint64_t base = rnd(&g);
            sg.pool[i] = (chance(&g, 800) ? (base & 0xFFFF) | 0x80000 : base) & ((UINT64_C(1) << 44) - 1);
        }
        sg.last = sg.pool[0];
        sg.prev = sg.pool[1];
    }
    if (c->long_sections) { /* cfg[3..6]: LEN_H_LO, LEN_H_HI, LEN_L_LO, LEN_L_HI (random_config) */
        uint32_t kh = (uint32_t)(1 + below(&g, 2));
        uint32_t dh = (uint32_t)below(&g, 7);
        uint32_t kl = (uint32_t)(1 + below(&g, 2));
        uint32_t dl = (uint32_t)below(&g, 7);
        cfg[3][1] = (kh << 20) + dh - 3;
        cfg[5][1] = (kl << 20) + dl - 3;
        cfg[4][1] = cfg[6][1] = 0;
    }
    uint64_t t = below(&g, 5);
    for (unsigned i = 0; i < ncfg; i++)
        do_write(c, t++, cfg[i][0], cfg[i][1]);
    do_write(c, t++, MT_REG_CTRL, MT_CTRL_ENABLE);

    agen_t ag = {.acc_permille = flood ? 1000 : (unsigned[]){1000, 1000, 700, 300, 50, 5}[below(&g, 6)],
                 .write_permille = (unsigned)below(&g, 1000)};
    if (c->spatial || c->reduce) /* (a pass is 10 clocks: sparser accesses are taken more often) */
        ag.acc_permille = (unsigned[]){1000, 300, 100, 60, 30}[below(&g, 5)];
    for (int i = 0; i < 4; i++) {
        uint64_t h = rnd(&g) & MT_PADDR_MASK;
        ag.hot[i] = h & (chance(&g, 500) ? UINT64_C(0xFFFFFFFFF) : ~UINT64_C(0));
    }
    static const uint32_t read_regs[] = {MT_REG_STATUS, MT_REG_FIFO_LEVEL, MT_REG_DROPPED, MT_REG_SAMPLES_LO,
                                         MT_REG_SAMPLES_HI, MT_REG_BYTES_LO, MT_REG_BYTES_HI, MT_REG_CYCLE_LO,
                                         MT_REG_CYCLE_HI, MT_REG_CTRL, MT_REG_FMT, MT_REG_RATE_H,
                                         MT_REG_SYNC_PERIOD, MT_REG_ID, MT_REG_FIFO_INFO, MT_REG_LEN_L_HI,
                                         0x060, 0x064, 0x013};
    unsigned mmio_permille = (unsigned)(below(&g, 3) == 0 ? 100 : 10);
    if (c->reduce) /* (a session's start clears the buckets, up to 4 092 clocks: longer sessions) */
        mmio_permille = (unsigned)(below(&g, 3) == 0 ? 20 : 2);
    if (c->long_sections) { /* (a stop or a new configuration would end the long sections early) */
        mmio_permille = 0;
        ag.acc_permille = (unsigned[]){1, 5, 50}[below(&g, 3)];
    }
    uint64_t end = t + cycles;
    int rc = 0;
    for (; t < end && !rc; t++) {
        if (chance(&g, mmio_permille)) {
            unsigned k = (unsigned)below(&g, 100);
            if (k < 55) {
                rc = do_read(c, t, read_regs[below(&g, sizeof read_regs / sizeof read_regs[0])], st);
            } else if (k < 80) {
                do_write(c, t, MT_REG_MARKER, (uint32_t)(chance(&g, 300) ? below(&g, 200) : rnd(&g)));
            } else if (k < 85) {
                do_write(c, t, MT_REG_CTRL, 0);
            } else if (k < 93) {
                do_write(c, t, MT_REG_CTRL, MT_CTRL_ENABLE);
            } else if (c->spatial && k < 96) {
                do_write(c, t, MT_REG_SPATIAL, random_spatial(&g));
            } else if (c->reduce && k < 96) {
                do_write(c, t, MT_REG_REDUCE, random_reduce(&g));
            } else {
                uint32_t cf[16][2];
                unsigned ncf;
                random_config(&g, cf, &ncf);
                unsigned j = (unsigned)below(&g, ncf);
                do_write(c, t, cf[j][0], cf[j][1]);
            }
        }
        if (!rc && chance(&g, ag.acc_permille)) {
            uint64_t addr = c->spatial || c->reduce ? next_spatial_addr(&g, &sg) : next_addr(&g, &ag);
            uint8_t wr = (uint8_t)chance(&g, ag.write_permille);
            uint8_t kind = (uint8_t)(chance(&g, 950) ? below(&g, 5) : chance(&g, 500) ? below(&g, 8) : below(&g, 256));
            uint8_t tap = (uint8_t)(chance(&g, 900) ? 0 : 1);
            mt_access a = {.cycle = t, .addr = addr, .write = wr, .size = 8, .kind = kind, .tap = tap};
            ev_t e = {.type = EV_ACC, .cycle = t, .addr = a.addr, .write = a.write, .kind = a.kind, .tap = a.tap};
            remember(&c->rec, &e);
            mt_unit_access(&c->u, &a);
            if (mt_rtl_access(c->r, &a)) {
                fprintf(stderr, "mt_cosim: mt_rtl_access refused cycle %" PRIu64 "\n", t);
                rc = -1;
            }
            st->accesses++;
        }
        if (!rc && exact)
            rc = sync_to(c, t + 1, 1);
    }
    if (!rc) {
        /* Stop: disable, then run until the END is out and the FIFO is empty on both sides. */
        uint64_t idle = mt_unit_stop(&c->u, t);
        mt_rtl_mmio_write(c->r, t, MT_REG_CTRL, 0);
        mt_rtl_advance(c->r, idle);
        rc = sync_to(c, idle, 1);
        if (!rc) {
            uint32_t s = mt_rtl_mmio_read(c->r, idle, MT_REG_STATUS);
            if (s & (MT_STATUS_BUSY | MT_STATUS_ACTIVE) || !(s & MT_STATUS_FIFO_EMPTY)) {
                diverged(c, idle, "RTL not idle when the model is");
                rc = -1;
            }
        }
        if (!rc) {
            uint64_t q = idle + 1;
            static const uint32_t fin[] = {MT_REG_DROPPED, MT_REG_SAMPLES_LO, MT_REG_SAMPLES_HI,
                                           MT_REG_BYTES_LO, MT_REG_BYTES_HI, MT_REG_STATUS};
            for (unsigned i = 0; i < 6 && !rc; i++)
                rc = do_read(c, q++, fin[i], st);
        }
    }
    st->streams++;
    st->cycles += t;
    st->bytes += c->mb.n;
    st->samples += c->u.samples;
    st->dropped += c->u.dropped;
    if (c->u.dropped)
        st->overflow_streams++;
    st->sp_taken += c->u.sp.taken;
    st->sp_records += c->u.sp.records;
    st->sp_lost += c->u.sp.lost;
    if (c->u.rd_alloc) {
        st->rd_accesses += c->u.rd.accesses;
        st->rd_lost += c->u.rd.lost;
        st->rd_records += c->u.rd.records;
        st->rd_forced += c->u.rd.forced;
        st->rd_qfull += c->u.rd_qfull;
    }
    mt_unit_free(&c->u);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Speed: N accesses, one per clock, r_h = 1 full format (every access becomes a sample). */
static int bench(uint64_t n)
{
    buf_t mb = {0};
    rng_t g = {42};
    agen_t ag = {.acc_permille = 1000, .write_permille = 300};
    for (int i = 0; i < 4; i++)
        ag.hot[i] = rnd(&g) & UINT64_C(0xFFFFFFFFF);
    uint64_t *addr = malloc(n * sizeof *addr);
    if (!addr)
        return 2;
    for (uint64_t i = 0; i < n; i++)
        addr[i] = next_addr(&g, &ag);
    static const uint32_t prog[][2] = {{MT_REG_FMT, 0x22}, {MT_REG_RATE_H, 4}, {MT_REG_LEN_L_LO, 0},
                                       {MT_REG_LEN_L_HI, 0}, {MT_REG_CTRL, 1}};
    double secs[2];
    uint64_t out[2];
    mt_rtl *r = mt_rtl_create(0, 0, NULL);
    if (!r)
        return 2;
    for (int pass = 0; pass < 2; pass++) {
        mt_unit u;
        mt_unit_params p = {.depth = mt_rtl_depth(r), .drain = mt_rtl_drain(r), .sink = model_sink, .sink_ctx = &mb};
        mb.n = 0;
        mt_unit_init(&u, &p);
        mt_rtl_reset(r);
        double t0 = now_s();
        for (uint64_t i = 0; i < 5; i++) {
            mt_unit_mmio_write(&u, i, prog[i][0], prog[i][1]);
            if (pass)
                mt_rtl_mmio_write(r, i, prog[i][0], prog[i][1]);
        }
        uint8_t tmp[256];
        for (uint64_t i = 0; i < n; i++) {
            mt_access a = {.cycle = 10 + i, .addr = addr[i], .write = (uint8_t)(i & 1), .size = 8, .kind = 1};
            if (a.cycle >= mt_unit_next_due(&u))
                mt_unit_access(&u, &a);
            if (pass) {
                mt_rtl_access(r, &a);
                while (mt_rtl_pop(r, tmp, sizeof tmp))
                    ;
            }
        }
        uint64_t idle = mt_unit_stop(&u, 10 + n);
        if (pass) {
            mt_rtl_mmio_write(r, 10 + n, MT_REG_CTRL, 0);
            mt_rtl_advance(r, idle);
        }
        secs[pass] = now_s() - t0;
        out[pass] = pass ? mt_rtl_bytes_out(r) : mb.n;
        mt_unit_free(&u);
    }
    printf("bench: %" PRIu64 " accesses (one per clock, r=4, full format), %" PRIu64 " trace bytes\n", n, out[0]);
    printf("bench: model alone      %8.2f M accesses/s\n", n / secs[0] / 1e6);
    printf("bench: model + RTL      %8.2f M accesses/s  (%.1fx the model's time)\n", n / secs[1] / 1e6,
           secs[1] / secs[0]);
    /* The RTL is clocked every cycle, sampled or not: its cost is per cycle, not per access. */
    mt_rtl_reset(r);
    mt_rtl_mmio_write(r, 0, MT_REG_CTRL, 1);
    double t0 = now_s();
    mt_rtl_clock(r, n);
    double idle = now_s() - t0;
    printf("bench: RTL clocked idle %8.2f M cycles/s (lockstep cost per emulated cycle)\n", n / idle / 1e6);
    int bad = out[0] != out[1];
    if (bad)
        printf("bench: byte counts differ (model %" PRIu64 ", rtl %" PRIu64 ")\n", out[0], out[1]);
    mt_rtl_destroy(r);
    free(addr);
    free(mb.p);
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, streams = 200, cycles = 3000, bench_n = 0, one = 0;
    int verbose = 0, minimal = 0, spatial = 0, reduce = 0, long_sections = 0, warm_reset = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--streams") && i + 1 < argc) streams = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--cycles") && i + 1 < argc) cycles = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--bench") && i + 1 < argc) bench_n = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--one") && i + 1 < argc) one = strtoull(argv[++i], NULL, 0), streams = 1;
        else if (!strcmp(a, "--minimal")) minimal = 1;
        else if (!strcmp(a, "--spatial")) spatial = 1;
        else if (!strcmp(a, "--reduce")) reduce = 1;
        else if (!strcmp(a, "--long")) long_sections = 1;
        else if (!strcmp(a, "--warm-reset")) warm_reset = 1;
        else if (!strcmp(a, "-v")) verbose = 1;
        else {
            fprintf(stderr, "mt_cosim: unknown argument '%s'\nusage: mt_cosim [--seed S] [--streams N] "
                            "[--cycles C] [--one STREAM_SEED] [--minimal] [--spatial] [--reduce] [--long] [--warm-reset] [--bench N] [-v]\n", a);
            return 2;
        }
    }
    if (bench_n)
        return bench(bench_n);
    cosim_t c = {0};
    c.r = mt_rtl_create(0, 0, NULL);
    if (!c.r) {
        fprintf(stderr, "mt_cosim: cannot create the RTL model\n");
        return 2;
    }
    c.trace = getenv("MT_COSIM_TRACE") != NULL;
    c.minimal = minimal;
    c.spatial = spatial;
    c.reduce = reduce && !spatial;
    c.long_sections = long_sections;
    c.warm_reset = warm_reset;
    stats_t st = {0};
    int fails = 0;
    for (uint64_t i = 0; i < streams; i++) {
        uint64_t s = one ? one : seed * 1000003u + i;
        int exact = one ? 1 : (int)(i & 1) == 0;
        if (run_stream(&c, s, cycles, exact, &st)) {
            fails++;
            break;
        }
        if (verbose)
            printf("stream %" PRIu64 " (seed %" PRIu64 ", %s, depth %u drain %u): ok, %zu bytes, %u dropped\n",
                   i, s, exact ? "per-cycle" : "sparse", mt_rtl_depth(c.r), mt_rtl_drain(c.r), c.mb.n,
                   c.u.dropped);
    }
    printf("mt_cosim: %" PRIu64 " streams, %" PRIu64 " cycles, %" PRIu64 " accesses, %"
           PRIu64 " register reads compared; %" PRIu64 " samples, %" PRIu64 " bytes, %" PRIu64
           " dropped (%" PRIu64 " streams overflowed): %s\n",
           st.streams, st.cycles, st.accesses, st.reads, st.samples,
           st.bytes, st.dropped, st.overflow_streams, fails ? "DIVERGED" : "identical");
    if (spatial)
        printf("mt_cosim: spatial front end: %" PRIu64 " accesses taken, %" PRIu64 " records, %" PRIu64 " lost\n",
               st.sp_taken, st.sp_records, st.sp_lost);
    if (c.reduce)
        printf("mt_cosim: reduce path (last session of each stream): %" PRIu64 " accesses, %" PRIu64
               " lost, %" PRIu64 " records, %" PRIu64 " slots forced, %" PRIu64 " records at a full queue\n",
               st.rd_accesses, st.rd_lost, st.rd_records, st.rd_forced, st.rd_qfull);
    mt_rtl_destroy(c.r);
    free(c.mb.p);
    free(c.rb.p);
    return fails ? 1 : 0;
}
