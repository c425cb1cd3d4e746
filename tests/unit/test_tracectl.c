/* emu/trace/tracectl: option parsing (every register has a command-line default; bad values are refused
 * with the option's name), the session's files, and the lockstep mode stopping the run at the
 * first divergence between the C model and the RTL, and the progress line's hook (exact counts, the
 * same trace).  Linked with the RTL (tests/e2e/module.mk). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/trace/tracectl.h"
#include "emu/trace/tracedev.h"
#include "mt_mtr.h"
#include "mt_regs.h"
#include "rtl_model/sim/mt_lockstep.h"

static int extract(struct trace_options *o, char *line, char *err, size_t errlen, int *left)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = "mtemu";
    for (char *t = strtok(line, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    trace_options_default(o);
    int rc = trace_options_extract(o, &argc, argv, err, errlen);
    *left = argc;
    return rc;
}

static void test_defaults_are_the_reset_values(void **state)
{
    (void)state;
    struct trace_options o;
    trace_options_default(&o);
    assert_int_equal(o.cfg.rate_h, 24);
    assert_int_equal(o.cfg.rate_l, 2048);
    assert_int_equal(o.cfg.len_h, UINT64_C(1000000000));
    assert_int_equal(o.cfg.len_l, UINT64_C(10000000000));
    assert_int_equal(o.cfg.fmt, MT_FMT_48 << MT_FMT_H_SHIFT | MT_FMT_32 << MT_FMT_L_SHIFT);
    assert_int_equal(o.cfg.kind_mask, 0x1f);
    assert_int_equal(o.cfg.sync_period, 4096);
    assert_false(trace_options_active(&o));
}

static void test_parse_every_register(void **state)
{
    (void)state;
    struct trace_options o;
    char err[256];
    int left;
    char line[] = "--trace t.mtr --trace-rate-h 5 --trace-rate-l=77 --trace-len-h 3ms --trace-len-l 12345 "
                  "--trace-fmt-h full --trace-fmt-l=line --trace-kinds load,amo --trace-tap dram "
                  "--trace-sync-period 100 --trace-fifo-depth 64 --trace-fifo-drain 2 --trace-unit=both "
                  "--trace-start firmware --trace-all a.mtr --trace-all-kinds fetch --trace-all-ram prog.elf";
    assert_int_equal(extract(&o, line, err, sizeof err, &left), 0);
    assert_int_equal(left, 2); /* mtemu prog.elf */
    assert_string_equal(o.trace_path, "t.mtr");
    assert_string_equal(o.all_path, "a.mtr");
    assert_int_equal(o.cfg.rate_h, 5);
    assert_int_equal(o.cfg.rate_l, 77);
    assert_int_equal(o.cfg.len_h, 3000000);
    assert_int_equal(o.cfg.len_l, 12345);
    assert_int_equal(o.cfg.fmt, MT_FMT_FULL << MT_FMT_H_SHIFT | MT_FMT_LINE << MT_FMT_L_SHIFT);
    assert_int_equal(o.cfg.kind_mask, 1u << MT_KIND_LOAD | 1u << MT_KIND_AMO);
    assert_int_equal(o.cfg.tap, MT_TAP_DRAM);
    assert_int_equal(o.cfg.sync_period, 100);
    assert_int_equal(o.fifo_depth, 64);
    assert_int_equal(o.fifo_drain, 2);
    assert_int_equal(o.unit, TRACE_UNIT_BOTH);
    assert_false(o.start_at_reset);
    assert_int_equal(o.all_kinds, 1u << MT_KIND_FETCH);
    assert_true(o.all_ram_only);
}

static void test_parse_errors_name_the_option(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"--trace-rate-h 0", "--trace-rate-h"},       {"--trace-rate-l 4294967296", "--trace-rate-l"},
        {"--trace-len-h 1100s", "--trace-len-h"},     {"--trace-len-l 5parsecs", "--trace-len-l"},
        {"--trace-fmt-h 64", "--trace-fmt-h"},         {"--trace-kinds load,", "--trace-kinds"},
        {"--trace-kinds nothing", "--trace-kinds"},    {"--trace-tap l2", "--trace-tap"},
        {"--trace-sync-period 63", "--trace-sync-period"}, {"--trace-fifo-depth 65537", "--trace-fifo-depth"},
        {"--trace-fifo-drain 17", "--trace-fifo-drain"}, {"--trace-unit=fpga", "--trace-unit"},
        {"--trace-start=later", "--trace-start"},      {"--trace", "--trace"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct trace_options o;
        char err[256] = "", line[128];
        int left;
        snprintf(line, sizeof line, "%s", bad[i][0]);
        assert_int_equal(extract(&o, line, err, sizeof err, &left), -1);
        assert_non_null(strstr(err, bad[i][1]));
    }
}

/* A session of options o on a hart with 1 MiB of RAM at 0x80000000, the unit on its bus, the
 * CPU at cycle 10, the session attached: what the tests below drive access by access. */
typedef struct {
    struct trace_session *s;
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu;
} session_rig;

static void rig_up(session_rig *r, const struct trace_options *o)
{
    trace_run_info ri = {.ram_base = 0x80000000, .ram_size = 1 << 20, .program = "x.elf"};
    char err[256];
    r->s = trace_session_create(o, &ri, err, sizeof err);
    assert_non_null(r->s);
    r->ram = ram_create(0x80000000, 1 << 20);
    bus_init(&r->bus, r->ram);
    cpu_init(&r->cpu, &r->bus, TIMING_NONE);
    assert_true(bus_add_device(&r->bus, trace_session_device(r->s)));
    trace_session_attach(r->s, &r->cpu);
    r->cpu.cycle = 10;
}

/* A session with --trace-unit=both whose RTL alone gets a MARKER write behind the model's back:
 * the first differing byte stops the run (the CPU is asked to stop, finish returns 3 and removes
 * the trace); without the disturbance both agree and the file is written. */
static void run_lockstep(bool disturb)
{
    char path[] = "/tmp/test_tracectl_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* (a unique free name: an earlier file at the output's name would stay as it was) */
    struct trace_options o;
    trace_options_default(&o);
    o.trace_path = path;
    o.unit = TRACE_UNIT_BOTH;
    /* r > MT_UNIT_PACE: with an access every cycle a MARKER is chosen while the accesses come
     * (contract v4; at r <= PACE it waits until they stop, docs/trace-unit.md section 5) */
    o.cfg.rate_h = MT_UNIT_PACE + 3;
    char err[256];
    session_rig r;
    rig_up(&r, &o);
    struct trace_session *s = r.s;
    mt_cpu *cpu = &r.cpu;
    if (disturb) /* only the RTL sees this write (cycle 5: an idle MMIO slot after the setup) */
        assert_int_equal(mt_rtl_mmio_write(mt_lockstep_rtl(trace_session_lockstep(s)), 5, MT_REG_MARKER, 9), 0);
    mt_tracedev *d = trace_session_tracedev(s);
    for (int i = 0; i < 20000 && !cpu->stop; i++) {
        mt_access a = {.cycle = cpu->cycle, .addr = 0x80000000 + (uint64_t)(i * 8 % 65536), .size = 8,
                       .kind = MT_KIND_LOAD, .tap = MT_TAP_CORE};
        if (a.cycle >= cpu->listener_due)
            cpu->listener_due = tracedev_listener(d, &a);
        cpu->cycle++;
    }
    int rc = trace_session_finish(s, err, sizeof err);
    if (disturb) {
        assert_int_equal(rc, 3);
        assert_true(cpu->stop);
        assert_true(mt_lockstep_diverged(trace_session_lockstep(s)));
        assert_non_null(strstr(err, "diverged"));
        assert_int_equal(access(path, F_OK), -1); /* no half trace that looks complete */
        char part[sizeof path + 16];
        snprintf(part, sizeof part, "%s.partial", path);
        assert_int_equal(access(part, F_OK), -1); /* nor its temporary file */
    } else {
        assert_int_equal(rc, 0);
        assert_false(cpu->stop);
        mt_file *f = mt_file_open(path, err, sizeof err);
        assert_non_null(f);
        mt_file_close(f);
    }
    trace_session_destroy(s);
    cpu_free(cpu);
    ram_destroy(r.ram);
    unlink(path);
}

static void test_lockstep_agrees(void **state)
{
    (void)state;
    run_lockstep(false);
}

static void test_lockstep_stops_at_divergence(void **state)
{
    (void)state;
    run_lockstep(true);
}

/* A burst trace of 200,000 accesses (one per cycle) with the model on its own thread, written
 * to path; with `progress`, trace_session_progress is called after every 997th access (the
 * progress line's hook, which syncs with the model's thread). Returns the samples the last
 * progress text names (-1 without), and the run's own count (--stats) in *total. */
static long long run_with_progress(const char *path, bool progress, char *last, size_t lastlen, long long *total)
{
    struct trace_options o;
    trace_options_default(&o);
    o.trace_path = path;
    o.model_thread = true;
    char err[256];
    session_rig r;
    rig_up(&r, &o);
    struct trace_session *s = r.s;
    mt_cpu *cpu = &r.cpu;
    mt_tracedev *d = trace_session_tracedev(s);
    long long samples = -1;
    for (int i = 0; i < 200000; i++) {
        mt_access a = {.cycle = cpu->cycle, .addr = 0x80000000 + (uint64_t)(i * 72 % 1000000), .size = 8,
                       .kind = i % 3 ? MT_KIND_LOAD : MT_KIND_STORE, .tap = MT_TAP_CORE};
        if (a.cycle >= cpu->listener_due)
            cpu->listener_due = tracedev_listener(d, &a);
        cpu->cycle++;
        if (progress && i % 997 == 996) {
            trace_session_progress(s, last, lastlen);
            double mb;
            long long m;
            unsigned dropped;
            assert_int_equal(sscanf(last, ", trace %lf MB written, %lld samples, %u dropped", &mb, &m, &dropped), 3);
            assert_true(m >= samples); /* never backwards */
            assert_int_equal(dropped, 0);
            samples = m;
        }
    }
    assert_int_equal(trace_session_finish(s, err, sizeof err), 0);
    char *rep = NULL;
    size_t replen = 0;
    FILE *f = open_memstream(&rep, &replen);
    assert_non_null(f);
    trace_session_report(s, f);
    fclose(f);
    const char *line = strstr(rep, "trace.samples ");
    assert_non_null(line);
    assert_int_equal(sscanf(line, "trace.samples %lld", total), 1);
    free(rep);
    trace_session_destroy(s);
    cpu_free(cpu);
    ram_destroy(r.ram);
    return samples;
}

/* The progress line's hook shows the samples taken so far, exactly: one per r_h = 24 cycles in
 * the first burst, so the 600 accesses after the last call add 25 to the run's count (26 when
 * the sample of the last access before the call is still open in the model: a call after the
 * run's very last access names one sample fewer than --stats at the end). And
 * it does not change the trace: the file is the same bytes with and without 200 calls while
 * the model's thread runs. */
static void test_progress_shows_the_trace_and_changes_nothing(void **state)
{
    (void)state;
    char a[] = "/tmp/test_tracectl_pa_XXXXXX", b[] = "/tmp/test_tracectl_pb_XXXXXX";
    int fa = mkstemp(a), fb = mkstemp(b);
    assert_true(fa >= 0 && fb >= 0);
    close(fa);
    close(fb);
    unlink(a);
    unlink(b);
    char last[128] = "";
    long long total_a, total_b;
    long long samples = run_with_progress(a, true, last, sizeof last, &total_a);
    assert_true(total_a - samples == 25 || total_a - samples == 26);
    assert_int_equal(run_with_progress(b, false, last, sizeof last, &total_b), -1);
    assert_int_equal(total_a, total_b);
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    assert_non_null(x);
    assert_non_null(y);
    int cx, cy;
    long n = 0;
    do {
        cx = fgetc(x);
        cy = fgetc(y);
        n++;
    } while (cx == cy && cx != EOF);
    assert_int_equal(cx, cy);
    assert_true(n > 100);
    fclose(x);
    fclose(y);
    unlink(a);
    unlink(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_the_reset_values),
        cmocka_unit_test(test_parse_every_register),
        cmocka_unit_test(test_parse_errors_name_the_option),
        cmocka_unit_test(test_lockstep_agrees),
        cmocka_unit_test(test_lockstep_stops_at_divergence),
        cmocka_unit_test(test_progress_shows_the_trace_and_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
