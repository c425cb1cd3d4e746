/* The CPU page filter's page log (emu/cpu/cpu.h cpu_set_page_sink, docs/metapaging.md "The page
 * log") against its plain definition, the live filter: on the same access streams, a listener that
 * hears every page change at once (cpu_access_due -> listener_call, one call each) and a sink that
 * hears them late, in runs, from the log, must hear the same accesses in the same order with the
 * same stamps, and the reduce filter behind them must write the same records.  Both listeners arm
 * the filter's alternation pair as the reduce recorder does (mt_reduce_settled), so the streams
 * exercise the pair's steps held inside and across logged stretches.
 *
 * Streams: random ones over a few pages; fetch/data alternations of two pages (settling after
 * their third step) broken by third pages; returns to 2..k pages in cycles; accesses outside guest
 * RAM (the reduce filter skips them, the filter does not); slow-path accesses in the middle of a
 * logged stretch (cpu_access_due: a trap's fetch, MMIO, a TLB miss), which go to the log too, or
 * with the log full replay it and make the live call, which disarms the pair; and two harts taking
 * the listener in turns.  A sink that forgets to ask for the pair (a planted bug) must be caught. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emu/cpu/cpu.h"
#include "mt_reduce.h"

#define RAM_LO UINT64_C(0x80000000)
#define RAM_HI UINT64_C(0x90000000)
#define MAX_HEARD 200000

/* What a listener heard: stamp and cpu_filter_pack word of each access, and the reduce records. */
typedef struct {
    uint64_t stamp[MAX_HEARD], word[MAX_HEARD];
    size_t n;
    mt_reduce red;
    uint64_t rec[MAX_HEARD][3];
    size_t nrec;
    mt_cpu *cpu;     /* the hart whose turn it is (cpu_page_filter_pair from inside the listener) */
    bool forget_pair; /* the planted bug: the sink never asks for the pair */
} heard;

static void rec_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    heard *h = ctx;
    assert_true(h->nrec < MAX_HEARD);
    h->rec[h->nrec][0] = cycle;
    h->rec[h->nrec][1] = page << 1 | rw;
    h->rec[h->nrec][2] = mask;
    h->nrec++;
}

static void note(heard *h, uint64_t stamp, uint64_t word)
{
    assert_true(h->n < MAX_HEARD);
    h->stamp[h->n] = stamp;
    h->word[h->n++] = word;
}

/* The live listener: the reduce recorder's (red_only_access), never due. */
static uint64_t live_listener(void *ctx, const mt_access *a)
{
    heard *h = ctx;
    note(h, a->cycle, cpu_filter_pack(a->addr, a->size, a->write, a->kind));
    if (a->addr >= RAM_LO && a->addr < RAM_HI)
        mt_reduce_access(&h->red, a->cycle, a->addr, a->write);
    uint64_t last, other;
    if (mt_reduce_settled(&h->red, &last, &other))
        cpu_page_filter_pair(h->cpu, last, other);
    return UINT64_MAX;
}

/* The sink: the same recorder on a run (tracectl's red_only_pages). */
static uint32_t log_sink(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord, uint32_t n,
                         uint64_t pair[2])
{
    assert_null(ord); /* not asked for */
    heard *h = ctx;
    uint64_t p[2];
    const uint32_t m = (uint32_t)mt_reduce_access_run(&h->red, stamp, word, n, 8, RAM_LO, RAM_HI, pair ? p : NULL);
    for (uint32_t j = 0; j < m; j++)
        note(h, stamp[j], word[j]);
    if (pair && !h->forget_pair && mt_reduce_settled(&h->red, &p[0], &p[1])) {
        pair[0] = p[0];
        pair[1] = p[1];
    }
    return m;
}

typedef struct {
    uint64_t stamp, pa;
    uint8_t kind, write, live; /* live: a slow path's access (cpu_access_due), not the fast path's */
    uint8_t hart_switch;       /* before it, the other hart takes the listener */
} acc;

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static mt_cpu *new_cpu(void)
{
    mt_cpu *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->insn_limit = UINT64_MAX;
    c->timer_cycle = c->poll_cycle = UINT64_MAX;
    return c;
}

/* One stream through two harts (hart 0 first), with the sink (logged) or without it. */
static void run(const acc *s, size_t n, bool logged, heard *h, uint64_t budget, size_t *nlogged)
{
    mt_cpu *cpu[2] = {new_cpu(), new_cpu()};
    assert_int_equal(mt_reduce_init(&h->red, budget, rec_sink, h), 0);
    h->n = h->nrec = 0;
    unsigned t = 0;
    h->cpu = cpu[0];
    cpu_set_listener(cpu[0], live_listener, h, UINT64_MAX);
    cpu_set_page_filter(cpu[0], 1u << MT_KIND_FETCH | 1u << MT_KIND_LOAD | 1u << MT_KIND_STORE);
    if (logged)
        cpu_set_page_sink(cpu[0], log_sink, h, 0);
    *nlogged = 0;
    for (size_t i = 0; i < n; i++) {
        mt_cpu *c = cpu[t];
        if (s[i].hart_switch) { /* cpu_run's end, then the other hart's turn */
            cpu_page_log_drain(c);
            cpu_take_listener(cpu[t ^ 1], c);
            t ^= 1;
            c = cpu[t];
            h->cpu = c;
        }
        c->cycle = s[i].stamp; /* stamp_offset 0: the hart's cycle is the stamp */
        const unsigned size = s[i].kind == MT_KIND_FETCH ? 4 : 8;
        if (!s[i].live && logged && cpu_filter_wants(c, s[i].pa, s[i].kind)) {
            /* the interpreter's fast path (FILTER_FETCH): a step, else logged, else live */
            if (cpu_filter_step(c, s[i].pa, size, s[i].write, s[i].kind, s[i].stamp))
                continue;
            if (cpu_page_log(c, s[i].pa, size, s[i].write, s[i].kind, s[i].stamp, c->instret)) {
                ++*nlogged;
                continue;
            }
        }
        cpu_access_due(c, s[i].pa, size, s[i].write, s[i].kind);
    }
    cpu_page_filter_flush(cpu[t]);
    mt_reduce_finish(&h->red);
    mt_reduce_free(&h->red);
    free(cpu[0]);
    free(cpu[1]);
}

static heard live_h, log_h;

/* True when the logged run heard what the live one heard, and wrote the same records. */
static bool same(const acc *s, size_t n, uint64_t budget, bool forget_pair, size_t *nlogged)
{
    live_h.forget_pair = false;
    log_h.forget_pair = forget_pair;
    size_t dummy;
    run(s, n, false, &live_h, budget, &dummy);
    run(s, n, true, &log_h, budget, nlogged);
    return live_h.n == log_h.n && !memcmp(live_h.stamp, log_h.stamp, live_h.n * sizeof live_h.stamp[0]) &&
           !memcmp(live_h.word, log_h.word, live_h.n * sizeof live_h.word[0]) && live_h.nrec == log_h.nrec &&
           !memcmp(live_h.rec, log_h.rec, live_h.nrec * sizeof live_h.rec[0]);
}

static acc stream[60000];

/* A stream of n accesses: code and data pages alternating (fetch, data), the data page moving,
 * returns to a cycle of 2..k pages, third pages, pages outside RAM, live accesses and hart
 * switches at the given rates (per 1000). */
static size_t make_stream(uint64_t *seed, size_t n, unsigned live_rate, unsigned switch_rate, unsigned kcycle)
{
    uint64_t stamp = 1;
    uint64_t code = RAM_LO + (rng(seed) % 8) * 4096, data = RAM_LO + (rng(seed) % 64) * 4096;
    uint64_t cyc[8];
    for (unsigned j = 0; j < 8; j++)
        cyc[j] = RAM_LO + (rng(seed) % 32) * 4096;
    size_t i = 0;
    while (i < n) {
        const unsigned what = (unsigned)(rng(seed) % 100);
        stamp += 1 + rng(seed) % 3;
        acc a = {.stamp = stamp, .kind = MT_KIND_FETCH, .pa = code + (rng(seed) & 0xffc)};
        if (what < 45) { /* a data access (the alternation's other half) */
            a.kind = rng(seed) % 3 ? MT_KIND_LOAD : MT_KIND_STORE;
            a.write = a.kind == MT_KIND_STORE;
            a.pa = data + (rng(seed) & 0xff8);
        } else if (what < 50) { /* the data moves */
            data = RAM_LO + (rng(seed) % 64) * 4096;
            continue;
        } else if (what < 52) { /* the code moves (a jump) */
            code = RAM_LO + (rng(seed) % 8) * 4096;
            continue;
        } else if (what < 60 && kcycle >= 2) { /* a return cycle of kcycle pages, a few laps */
            unsigned laps = 1 + (unsigned)(rng(seed) % 4);
            for (unsigned l = 0; l < laps && i < n; l++)
                for (unsigned j = 0; j < kcycle && i < n; j++) {
                    stamp += 1 + rng(seed) % 2;
                    stream[i++] = (acc){.stamp = stamp, .kind = MT_KIND_LOAD, .pa = cyc[j] + 8};
                }
            continue;
        } else if (what < 63) { /* outside guest RAM (the boot ROM, a device) */
            a.pa = 0x1000 + (rng(seed) % 3) * 4096;
        } else if (what < 65) { /* a third page */
            a.kind = MT_KIND_LOAD;
            a.pa = RAM_LO + (rng(seed) % 4096) * 4096;
        }
        a.live = rng(seed) % 1000 < live_rate;
        a.hart_switch = i > 0 && rng(seed) % 1000 < switch_rate;
        stream[i++] = a;
    }
    return n;
}

static void test_log_equals_live(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed;
    static const uint64_t budgets[] = {4096, 8192, 65536, 16u << 20};
    size_t streams = 0, logged = 0, heard_total = 0;
    for (int t = 0; t < 48; t++) {
        const unsigned live = t % 4 == 0 ? 0 : t % 4 == 1 ? 5 : t % 4 == 2 ? 50 : 300;
        const unsigned sw = t % 3 == 0 ? 0 : t % 3 == 1 ? 2 : 20;
        const size_t n = make_stream(&seed, 2000 + rng(&seed) % 20000, live, sw, 2 + (unsigned)(t % 7));
        for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
            size_t nl;
            if (!same(stream, n, budgets[b], false, &nl)) {
                fprintf(stderr, "stream %d budget %lu: live heard %zu (%zu records), logged %zu (%zu)\n", t,
                        (unsigned long)budgets[b], live_h.n, live_h.nrec, log_h.n, log_h.nrec);
                fail();
            }
            streams++;
            logged += nl;
            heard_total += live_h.n;
        }
    }
    print_message("%zu streams: the same %zu calls heard, %zu accesses through the log\n", streams, heard_total,
                  logged);
    assert_true(logged > heard_total / 4); /* the log was used, not only the live path */
}

/* A long settled alternation inside a logged stretch: the replay arms the pair and holds its
 * steps, as the live filter does after the listener armed it. */
static void test_alternation_in_log(void **state)
{
    (void)state;
    size_t n = 0;
    uint64_t stamp = 1;
    for (int rep = 0; rep < 50; rep++) {
        for (int j = 0; j < 3; j++) /* three distinct pages, then the alternation */
            stream[n++] = (acc){.stamp = stamp += 2, .kind = MT_KIND_LOAD, .pa = RAM_LO + (uint64_t)(100 + j + rep) * 4096};
        for (int j = 0; j < 40 + rep; j++)
            stream[n++] = (acc){.stamp = stamp += 2, .kind = j % 2 ? MT_KIND_LOAD : MT_KIND_FETCH,
                                .pa = RAM_LO + (uint64_t)(j % 2 ? 7 : 3) * 4096 + (uint64_t)j * 8};
    }
    for (int b = 0; b < 2; b++) {
        size_t nl;
        assert_true(same(stream, n, b ? 16u << 20 : 4096, false, &nl));
        assert_true(nl > 0);
        if (b) /* (at 4 KiB pages 3 and 7 are two metapages of one entry: no skip, no pair) */
            assert_true(live_h.n < n / 2); /* the pair held most steps */
    }
}

/* The planted bug: a sink that never asks for the pair hears the steps the live filter held. */
static void test_forgotten_pair_is_caught(void **state)
{
    (void)state;
    uint64_t seed = 99;
    int caught = 0;
    for (int t = 0; t < 8; t++) {
        const size_t n = make_stream(&seed, 5000, 5, 0, 2);
        size_t nl;
        caught += !same(stream, n, 16u << 20, true, &nl);
    }
    assert_int_equal(caught, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_equals_live),
        cmocka_unit_test(test_alternation_in_log),
        cmocka_unit_test(test_forgotten_pair_is_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
