/* The spatial recorder behind the CPU's page log (docs/metapaging.md "Spatial sampling",
 * "Recording speed, the page log"), against its plain definition, the same recorder hearing each
 * page change live: a real trace session in spatial mode on a real hart (1 MiB of RAM at
 * 0x80000000), the same access stream fed once with the page sink the session installs (each
 * change logged with its ordinal, cpu_page_log; the runs replayed into sp_only_pages) and once
 * with the sink taken away (cpu_access_due -> recorder_only_listener -> sp_only_access, the
 * repeats counted from cpu_filter_ordinal as each change is heard).  The .mtr files (records and
 * trailer, trace.accesses included) and the --stats line must be byte for byte the same.
 *
 * The stream is fed as the interpreter feeds the filter: an instruction's fetch with the
 * instructions retired before it (then it counts as retired), its data access with it counted;
 * repeats of the page between changes (what the ordinals count); pages outside guest RAM (heard,
 * not recorded, and the repeats after them not counted); slow-path accesses (cpu_access: a TLB
 * miss, MMIO, a page-table walk) in the middle of logged stretches, which go into the log too or,
 * with the log full, replay it first; two harts taking the listener in turns (the ordinal goes on
 * from hart to hart); rates 1, 4 and 64.  A planted error, the logged fetches' ordinals one too
 * high (what a wrong instret gives), must be caught. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "emu/cpu/cpu.h"
#include "emu/platform/bus.h"
#include "emu/trace/tracectl.h"
#include "emu/trace/tracedev.h"

#define RAM_LO UINT64_C(0x80000000)
#define RAM_SIZE (UINT64_C(1) << 20)

typedef struct {
    uint64_t pa;
    uint8_t kind, live, hart_switch, gap;
} acc;

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static acc stream[120000];

/* n accesses: instructions (a fetch, then a load or store for about half) in a code page that
 * moves now and then, data in a moving data page and a cycle of a few pages, repeats of the page
 * between the changes, pages outside RAM, slow-path accesses at live_rate and hart switches at
 * switch_rate (per 1000). */
static size_t make_stream(uint64_t *seed, size_t n, unsigned live_rate, unsigned switch_rate)
{
    uint64_t code = RAM_LO + (rng(seed) % 16) * 4096, data = RAM_LO + (rng(seed) % 200) * 4096;
    size_t i = 0;
    while (i + 2 < n) {
        const unsigned what = (unsigned)(rng(seed) % 100);
        if (what < 4) {
            code = RAM_LO + (rng(seed) % 16) * 4096;
        } else if (what < 12) {
            data = RAM_LO + (rng(seed) % 256) * 4096;
        } else if (what < 14) {
            code = 0x1000 + (rng(seed) % 2) * 4096; /* the boot ROM: outside guest RAM */
        } else if (what < 16) {
            data = 0x10000000; /* a device */
        } else if (what < 20) {
            code = RAM_LO + (rng(seed) % 16) * 4096;
        }
        const unsigned insns = 1 + (unsigned)(rng(seed) % 6); /* repeats of the code page */
        for (unsigned k = 0; k < insns && i + 2 < n; k++) {
            acc f = {.pa = code + (rng(seed) & 0xffc), .kind = MT_KIND_FETCH, .gap = (uint8_t)(rng(seed) % 3)};
            f.live = rng(seed) % 1000 < live_rate;
            f.hart_switch = i > 0 && rng(seed) % 1000 < switch_rate;
            stream[i++] = f;
            if (rng(seed) % 2) {
                const unsigned r = (unsigned)(rng(seed) % 10);
                acc a = {.pa = data + (rng(seed) & 0xff8), .kind = r < 6 ? MT_KIND_LOAD : r < 9 ? MT_KIND_STORE
                                                                                             : MT_KIND_AMO};
                if (rng(seed) % 50 == 0) { /* a walk's PTE read: a slow path's own access */
                    a.kind = MT_KIND_PTW;
                    a.live = 1;
                }
                a.live |= rng(seed) % 1000 < live_rate;
                stream[i++] = a;
            }
        }
    }
    return i;
}

/* One run of the stream through a spatial session (rate `rate`) writing `path`, with the page log
 * (logged) or without it; plant: the logged fetches' ordinals one too high.  The --stats line of
 * the spatial filter into line. */
static void run(const acc *s, size_t n, bool logged, uint32_t rate, bool plant, const char *path, char *line,
                size_t cap)
{
    struct trace_options o;
    trace_options_default(&o);
    o.trace_path = path;
    o.mode = TRACE_MODE_SPATIAL;
    o.spatial_rate = rate;
    trace_run_info ri = {.ram_base = RAM_LO, .ram_size = RAM_SIZE, .program = "x.elf"};
    char err[256];
    struct trace_session *ts = trace_session_create(&o, &ri, err, sizeof err);
    assert_non_null(ts);
    mt_ram *ram = ram_create(RAM_LO, RAM_SIZE);
    mt_bus bus;
    bus_init(&bus, ram);
    static mt_cpu harts[2];
    cpu_init(&harts[0], &bus, TIMING_NONE);
    cpu_init(&harts[1], &bus, TIMING_NONE);
    assert_true(bus_add_device(&bus, trace_session_device(ts)));
    trace_session_attach(ts, &harts[0]);
    mt_cpu *c = &harts[0];
    c->cycle = 10;
    /* the session gives the filter the counted sink, which arms no pair */
    assert_non_null(c->pf.sink);
    assert_true(c->pf.log_ords);
    assert_int_equal(c->pf.log_settle, UINT32_MAX);
    if (!logged)
        cpu_set_page_sink(c, NULL, NULL, 0);
    for (size_t i = 0; i < n; i++) {
        if (s[i].hart_switch) { /* cpu_run's end, then the other hart's turn (smp.c) */
            cpu_page_log_drain(c);
            mt_cpu *h = c == &harts[0] ? &harts[1] : &harts[0];
            const uint64_t now = cpu_time(c);
            h->stamp_offset = now > h->cycle ? now - h->cycle : 0;
            cpu_take_listener(h, c);
            trace_session_on_turn(ts, h);
            c = h;
        }
        c->cycle += s[i].gap;
        const int kind = s[i].kind, write = kind == MT_KIND_STORE || kind == MT_KIND_AMO;
        const unsigned size = kind == MT_KIND_FETCH ? 4 : 8;
        if (s[i].live) /* a slow path: the hook itself (cpu_access), which logs what it can */
            cpu_access_due(c, s[i].pa, size, write, kind);
        /* the interpreter's fast path: FILTER_FETCH / FILTER_DATA's order (a step of the pair, the
         * log, else the listener now), with the run's instret (a fetch: the instructions before
         * it; its data access: with it) */
        else if (cpu_filter_wants(c, s[i].pa, kind) &&
                 !cpu_filter_step(c, s[i].pa, size, write, kind, cpu_time(c)) &&
                 !cpu_page_log(c, s[i].pa, size, write, kind, cpu_time(c),
                               c->instret + (plant && logged && kind == MT_KIND_FETCH)))
            cpu_access_due(c, s[i].pa, size, write, kind);
        if (kind == MT_KIND_FETCH)
            c->instret++;
        else
            c->access_count[kind]++;
        c->cycle++;
    }
    assert_int_equal(trace_session_finish(ts, err, sizeof err), 0);
    char *rep = NULL;
    size_t replen = 0;
    FILE *f = open_memstream(&rep, &replen);
    assert_non_null(f);
    trace_session_report(ts, f);
    fclose(f);
    const char *l = strstr(rep, "trace.spatial ");
    assert_non_null(l);
    snprintf(line, cap, "%.*s", (int)strcspn(l, "\n"), l);
    free(rep);
    trace_session_destroy(ts);
    cpu_free(&harts[0]);
    cpu_free(&harts[1]);
    ram_destroy(ram);
}

static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    assert_non_null(fa);
    assert_non_null(fb);
    int x, y;
    do {
        x = getc(fa);
        y = getc(fb);
    } while (x == y && x != EOF);
    fclose(fa);
    fclose(fb);
    return x == y;
}

/* True when the logged run wrote what the live one wrote and counted the same. */
static bool same(const acc *s, size_t n, uint32_t rate, bool plant, char *live_line, char *log_line)
{
    char pa[] = "/tmp/test_spatial_log_a_XXXXXX", pb[] = "/tmp/test_spatial_log_b_XXXXXX";
    int fa = mkstemp(pa), fb = mkstemp(pb);
    assert_true(fa >= 0 && fb >= 0);
    close(fa);
    close(fb);
    run(s, n, false, rate, false, pa, live_line, 512);
    run(s, n, true, rate, plant, pb, log_line, 512);
    const bool eq = same_file(pa, pb) && !strcmp(live_line, log_line);
    unlink(pa);
    unlink(pb);
    return eq;
}

static void test_log_equals_live(void **state)
{
    (void)state;
    uint64_t seed = 0x5a11;
    static const uint32_t rates[] = {1, 4, 64};
    char a[512], b[512];
    unsigned streams = 0;
    for (int t = 0; t < 12; t++) {
        const unsigned live = t % 4 == 0 ? 0 : t % 4 == 1 ? 5 : t % 4 == 2 ? 50 : 400;
        const unsigned sw = t % 3 == 0 ? 0 : t % 3 == 1 ? 2 : 30;
        const size_t n = make_stream(&seed, 5000 + rng(&seed) % 60000, live, sw);
        for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
            if (!same(stream, n, rates[r], false, a, b)) {
                fprintf(stderr, "stream %d (%zu accesses) rate %u:\n  live:   %s\n  logged: %s\n", t, n,
                        (unsigned)rates[r], a, b);
                fail();
            }
            streams++;
        }
    }
    print_message("%u streams: the same trace and counts with and without the page log (last: %s)\n", streams, a);
}

/* The planted error: ordinals one too high on the logged fetches count repeats that were not
 * there, and the trailer's trace.accesses says so. */
static void test_wrong_ordinals_are_caught(void **state)
{
    (void)state;
    uint64_t seed = 77;
    char a[512], b[512];
    int caught = 0;
    for (int t = 0; t < 4; t++) {
        const size_t n = make_stream(&seed, 20000, t ? 20 : 0, t % 2 ? 5 : 0);
        caught += !same(stream, n, 1, true, a, b);
    }
    assert_int_equal(caught, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_equals_live),
        cmocka_unit_test(test_wrong_ordinals_are_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
