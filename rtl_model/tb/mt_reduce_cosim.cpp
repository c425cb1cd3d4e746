// mt_reduce_cosim: random co-simulation of rtl_model/rtl/mt_tu_reduce.sv (Verilated) against its
// C model lib/mt_unit_reduce.c, clock for clock.  Each stream: a budget (log2 k_0), accesses at
// random gaps (runs of one a clock, where the queue fills and accesses are lost) over pages that
// repeat, alternate (fetch/data), walk and jump; then the session's end (flush).  Compared: every
// access's taken/lost, the records (cycle, page, R/W, mask, in order), the engine's clocks and the
// slots forced.  Usage: mt_reduce_cosim [--seed S] [--streams N] [--len L]; or
// mt_reduce_cosim --trace EVERY-ACCESS.mtr [--lgk N]: a recorded run's accesses (mtemu --trace-all
// --trace-all-ram) at their cycles' gaps, budget 4 KiB << N (default: N = 0, 4 and 10 in turn).
// Exit 0 when all equal; 1 at the first difference (printed); 2 for bad options or an unreadable
// trace.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Vmt_tu_reduce.h"
#include "verilated.h"
#ifdef COSIM_TRACE
#include "Vmt_tu_reduce___024root.h"
#endif

#include "mt_reader.h"
extern "C" {
#include "mt_unit_reduce.h"
}

#ifndef COSIM_LGW
#define COSIM_LGW 4
#endif
#ifndef COSIM_LGQ
#define COSIM_LGQ 2
#endif

namespace {

// A record, and the clock it left (the model's MT_URD_UNKNOWN: decided by the session's end).
struct Rec {
    uint64_t cycle, page;
    unsigned rw, mask;
    uint64_t out;
    bool operator==(const Rec &o) const
    {
        return cycle == o.cycle && page == o.page && rw == o.rw && mask == o.mask &&
               (out == o.out || out == MT_URD_UNKNOWN || o.out == MT_URD_UNKNOWN);
    }
};

struct ModelOut {
    std::vector<Rec> recs;
    const mt_unit_reduce *u;
    uint64_t timed = 0; /* records whose clock the model knows */
};

void model_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    ModelOut *m = static_cast<ModelOut *>(ctx);
    m->recs.push_back(Rec{cycle, page, rw, mask, m->u->rec_clock});
    m->timed += m->u->rec_clock != MT_URD_UNKNOWN;
}

uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

struct Rtl {
    Vmt_tu_reduce *m;
    uint64_t clk = 0;
    std::vector<Rec> recs;
    explicit Rtl(unsigned lgk) : m(new Vmt_tu_reduce)
    {
        m->lgk_i = lgk;
        m->rst_ni = 1; /* a falling edge: the asynchronous reset */
        m->eval();
        m->rst_ni = 0;
        m->clk_i = 0;
        m->acc_valid_i = 0;
        m->flush_i = 0;
        m->eval();
        m->rst_ni = 1;
        m->eval();
    }
    ~Rtl()
    {
        m->final();
        delete m;
    }
    void tick()
    {
#ifdef COSIM_TRACE
        if (getenv("COSIM_DEBUG") && m->rootp->mt_tu_reduce__DOT__pop)
            fprintf(stderr, "  RTL pop seq %lu at %lu\n", (unsigned long)m->rootp->mt_tu_reduce__DOT__seq_q, (unsigned long)clk);
        if (getenv("COSIM_DEBUG") && m->rootp->mt_tu_reduce__DOT__sa_we)
            fprintf(stderr, "  RTL sa write slot %u data %05x (st %u size %u)\n", m->rootp->mt_tu_reduce__DOT__sa_wa,
                    m->rootp->mt_tu_reduce__DOT__sa_wd, m->rootp->mt_tu_reduce__DOT__st_q, m->rootp->mt_tu_reduce__DOT__size_q);
#endif
        m->clk_i = 1;
        m->eval();
        m->clk_i = 0;
        m->eval();
        clk++;
#ifdef COSIM_TRACE
        if (getenv("COSIM_DEBUG"))
            fprintf(stderr, "  clk %" PRIu64 " st %u size %u seq %lu clocks %u\n", clk, m->rootp->mt_tu_reduce__DOT__st_q,
                    m->rootp->mt_tu_reduce__DOT__size_q, (unsigned long)m->rootp->mt_tu_reduce__DOT__seq_q, m->clocks_o);
#endif
        if (m->rec_valid_o)
            recs.push_back(Rec{m->rec_cycle_o, m->rec_page_o, m->rec_write_o, m->rec_mask_o, clk});
    }
};

// Where a stream's accesses come from: random (a seed) or a recorded run (an every-access .mtr).
struct Source {
    virtual ~Source() = default;
    // the next access: clocks to wait before it, its address and R/W; false at the end
    virtual bool next(uint64_t *gap, uint64_t *addr, unsigned *rw) = 0;
};

struct RandomSource : Source {
    uint64_t *seed;
    size_t len, i = 0;
    uint64_t code = 0x80000000u, data = 0x80100000u;
    unsigned spread, dense;
    RandomSource(uint64_t *s, size_t n) : seed(s), len(n)
    {
        spread = 1u + (unsigned)(rng(seed) % 64) * 8;
        dense = (unsigned)(rng(seed) % 4); /* 0: every clock, else gaps */
    }
    bool next(uint64_t *gap, uint64_t *addr, unsigned *rw) override
    {
        if (i == len)
            return false;
        *gap = dense == 0 ? 0 : rng(seed) % (dense * 12);
        if (rng(seed) % 12 == 0)
            data = 0x80000000u + (rng(seed) % spread) * 4096;
        if (rng(seed) % 50 == 0)
            code = 0x80000000u + (rng(seed) % spread) * 4096 * (1 + rng(seed) % 700);
        *addr = i % 2 ? data + (rng(seed) & 0xff8) : code + ((i * 4) & 0xffc);
        if (rng(seed) % 10 == 0)
            *addr = 0x80000000u + (rng(seed) % spread) * 4096 + (rng(seed) % 4) * 0x40000000u;
        *rw = rng(seed) % 4 == 0;
        i++;
        return true;
    }
};

// The samples of an every-access trace (mtemu --trace-all), with the gaps between their cycles.
struct TraceSource : Source {
    mt_reader *rd;
    mt_sample_rec buf[4096];
    long n = 0, at = 0;
    uint64_t last = 0;
    bool first = true, failed = false;
    explicit TraceSource(mt_reader *r) : rd(r) {}
    bool next(uint64_t *gap, uint64_t *addr, unsigned *rw) override
    {
        if (at == n) {
            n = mt_reader_next(rd, buf, sizeof buf / sizeof buf[0], 1);
            at = 0;
            if (n < 0)
                failed = true;
            if (n <= 0)
                return false;
        }
        const mt_sample_rec &x = buf[at++];
        *gap = first || x.cycle <= last ? 0 : x.cycle - last - 1;
        first = false;
        last = x.cycle;
        *addr = x.address;
        *rw = x.write;
        return true;
    }
};

int run_stream(Source &src, unsigned lgk, uint64_t *n_recs, uint64_t *n_lost, uint64_t *n_forced,
               uint64_t *n_timed)
{
    Rtl r(lgk);
    while (!r.m->ready_o)
        r.tick();
    ModelOut mo;
    std::vector<Rec> &mrecs = mo.recs;
    mt_unit_reduce u;
    mo.u = &u;
    if (mt_urd_init(&u, UINT64_C(4096) << lgk, 1u << COSIM_LGW, 1u << COSIM_LGQ, model_sink, &mo)) {
        fprintf(stderr, "mt_urd_init failed\n");
        return 1;
    }
    uint64_t gap, addr;
    unsigned rw;
    for (size_t i = 0; src.next(&gap, &addr, &rw); i++) {
        for (uint64_t g = 0; g < gap; g++)
            r.tick();
        r.m->acc_valid_i = 1;
        r.m->acc_cycle_i = r.clk;
        r.m->acc_addr_i = addr;
        r.m->acc_write_i = rw;
        r.m->eval();
        int rt = r.m->acc_taken_o;
        int mt = mt_urd_access(&u, r.clk, addr, rw);
        if (getenv("COSIM_DEBUG"))
            fprintf(stderr, "@%" PRIu64 " page %" PRIx64 " rtl %d model %d | model busy_until %" PRIu64
                    " qnum %u clocks %" PRIu64 " | rtl clocks %u\n", r.clk, addr >> 12, rt, mt, u.busy_until,
                    u.qnum, u.clocks, r.m->clocks_o);
        if (rt != mt) {
            fprintf(stderr, "lgk %u access %zu at %" PRIu64 " (page %" PRIx64 "): RTL %s, model %s\n",
                    lgk, i, r.clk, addr >> 12, rt ? "taken" : "lost", mt ? "taken" : "lost");
            return 1;
        }
        r.tick();
        r.m->acc_valid_i = 0;
    }
    mt_urd_finish(&u);
    r.m->flush_i = 1;
    for (uint64_t t = 0; !r.m->idle_o; t++) {
        r.tick();
        if (t > 10000000) {
            fprintf(stderr, "lgk %u: the RTL never went idle after the flush\n", lgk);
            return 1;
        }
    }
    int bad = 0;
    size_t n = mrecs.size() < r.recs.size() ? mrecs.size() : r.recs.size();
    for (size_t i = 0; i < n && !bad; i++)
        if (!(mrecs[i] == r.recs[i])) {
            fprintf(stderr,
                    "lgk %u record %zu: RTL @%" PRIu64 " page %" PRIx64 " rw %u mask %03x out %" PRIu64
                    ", model @%" PRIu64 " page %" PRIx64 " rw %u mask %03x out %" PRId64 "\n",
                    lgk, i, r.recs[i].cycle, r.recs[i].page, r.recs[i].rw, r.recs[i].mask, r.recs[i].out,
                    mrecs[i].cycle, mrecs[i].page, mrecs[i].rw, mrecs[i].mask, (int64_t)mrecs[i].out);
            bad = 1;
        }
    if (!bad && mrecs.size() != r.recs.size()) {
        fprintf(stderr, "lgk %u: RTL %zu records, model %zu\n", lgk, r.recs.size(), mrecs.size());
        bad = 1;
    }
    if (!bad && (r.m->clocks_o != (uint32_t)u.clocks || r.m->forced_o != (uint32_t)u.forced)) {
        fprintf(stderr, "lgk %u: engine clocks RTL %u model %" PRIu64 ", forced RTL %u model %" PRIu64 "\n", lgk,
                r.m->clocks_o, u.clocks, r.m->forced_o, u.forced);
        bad = 1;
    }
    *n_recs += mrecs.size();
    *n_lost += u.lost;
    *n_forced += u.forced;
    *n_timed += mo.timed;
    mt_urd_free(&u);
    return bad;
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    uint64_t seed = 1;
    unsigned streams = 50;
    size_t len = 2000;
    const char *trace = nullptr;
    long budget_lg = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], nullptr, 0);
        else if (!strcmp(argv[i], "--streams") && i + 1 < argc)
            streams = (unsigned)strtoul(argv[++i], nullptr, 0);
        else if (!strcmp(argv[i], "--len") && i + 1 < argc)
            len = strtoul(argv[++i], nullptr, 0);
        else if (!strcmp(argv[i], "--trace") && i + 1 < argc)
            trace = argv[++i];
        else if (!strcmp(argv[i], "--lgk") && i + 1 < argc)
            budget_lg = strtol(argv[++i], nullptr, 0);
        else if (argv[i][0] != '+') {
            fprintf(stderr, "mt_reduce_cosim: unknown option '%s' (--seed S, --streams N, --len L, or --trace "
                    "EVERY-ACCESS.mtr [--lgk 0..10])\n", argv[i]);
            return 2;
        }
    }
    if (!seed)
        seed = 1;
    uint64_t recs = 0, lost = 0, forced = 0, timed = 0;
    if (trace) { /* a recorded run, at one budget (default: all of 0, 4, 10) */
        if (budget_lg > 10) {
            fprintf(stderr, "mt_reduce_cosim: --lgk %ld: from 0 to 10\n", budget_lg);
            return 2;
        }
        static const unsigned defaults[] = {0, 4, 10};
        unsigned runs = budget_lg >= 0 ? 1 : 3;
        for (unsigned k = 0; k < runs; k++) {
            unsigned lgk = budget_lg >= 0 ? (unsigned)budget_lg : defaults[k];
            char err[256];
            mt_reader *rd = mt_reader_open(trace, err, sizeof err);
            if (!rd) {
                fprintf(stderr, "mt_reduce_cosim: %s\n", err);
                return 2;
            }
            TraceSource src(rd);
            int bad = run_stream(src, lgk, &recs, &lost, &forced, &timed);
            if (src.failed)
                fprintf(stderr, "mt_reduce_cosim: %s: %s\n", trace, mt_reader_error(rd));
            mt_reader_close(rd);
            if (bad || src.failed) {
                printf("mt_reduce_cosim: %s differs at lgk %u (W %u, Q %u)\n", trace, lgk, 1u << COSIM_LGW,
                       1u << COSIM_LGQ);
                return 1;
            }
        }
        printf("mt_reduce_cosim: %s identical at %u budget(s) (W %u, Q %u): %" PRIu64 " records (%" PRIu64
               " at the same clock), %" PRIu64 " accesses lost, %" PRIu64 " slots forced\n",
               trace, runs, 1u << COSIM_LGW, 1u << COSIM_LGQ, recs, timed, lost, forced);
        return 0;
    }
    static const unsigned lgks[] = {0, 1, 2, 3, 5, 10};
    for (unsigned s = 0; s < streams; s++) {
        unsigned lgk = lgks[s % (sizeof lgks / sizeof lgks[0])];
        RandomSource src(&seed, len);
        if (run_stream(src, lgk, &recs, &lost, &forced, &timed)) {
            printf("mt_reduce_cosim: stream %u differs (W %u, Q %u)\n", s, 1u << COSIM_LGW, 1u << COSIM_LGQ);
            return 1;
        }
    }
    printf("mt_reduce_cosim: %u streams identical (W %u, Q %u): %" PRIu64 " records (%" PRIu64
           " at the same clock, the rest decided by the session's end), %" PRIu64 " accesses lost, %" PRIu64
           " slots forced\n",
           streams, 1u << COSIM_LGW, 1u << COSIM_LGQ, recs, timed, lost, forced);
    if (timed * 2 < recs) {
        printf("mt_reduce_cosim: too few records with a known clock\n");
        return 1;
    }
    return 0;
}
