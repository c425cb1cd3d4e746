/* bench_lib: the trace format's figures, measured in one run.
 *
 *  1. Compression: generated access streams (sequential, random, strided, mixed R/W, idle
 *     bursts) through the trace-unit model in bursts (r = 24, 48-bit) and in spans (r = 2048,
 *     32-bit); packet-stream bytes per sample, and .mtr (zstd) bytes per sample, next to the
 *     seed's fixed 6 B / 4 B per sample.
 *  2. Decoder: an every-access full-address trace in a .mtr; samples/s and MB/s of packet stream
 *     through mt_file + mt_dec, next to `zstd -d` on the same file (same run) and to zstd's
 *     decompression alone in-process.
 * Usage: bench_lib WORKDIR */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mt_dec.h"
#include "mt_mtr.h"
#include "mt_swenc.h"
#include "mt_unit.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

enum { P_SEQ, P_RANDOM, P_STRIDED, P_MIXED, P_IDLE, NPAT };
static const char *pat_name[NPAT] = {"sequential", "random", "strided", "mixed R/W", "idle bursts"};

typedef struct {
    uint64_t s, c, addr;
    int pat;
} gen;

/* next access of a pattern (cycles increase by >= 1) */
static void next(gen *g, mt_access *a)
{
    uint64_t r = rnd(&g->s);
    switch (g->pat) {
    case P_SEQ: g->addr += 8; g->c += 1 + (r & 3); break;
    case P_RANDOM: g->addr = 0x80000000ull + ((r >> 8) & 0x1ffffff8ull); g->c += 1 + (r & 7); break; /* 512 MiB */
    case P_STRIDED: g->addr += 4096 + 64; g->c += 2; break;
    case P_MIXED: g->addr = (r & 3) ? g->addr + 8 : 0x80000000ull + ((r >> 20) & 0x7ffff8ull); g->c += 1 + ((r >> 4) & 3); break;
    default: g->addr += 16; g->c += ((r & 0x3ff) == 0) ? 200000 + ((r >> 10) & 0xfffff) : 1 + (r & 1); break;
    }
    if (g->addr >= 0x80000000ull + (1ull << 31))
        g->addr = 0x80000000ull;
    a->cycle = g->c;
    a->addr = g->addr;
    a->write = (g->pat == P_MIXED) ? (r >> 40) & 1 : ((r >> 40) & 7) == 0;
    a->size = 8;
    a->kind = a->write ? MT_KIND_STORE : MT_KIND_LOAD;
    a->tap = 0;
}

typedef struct {
    uint64_t samples, bytes, mtr_bytes, dropped;
    int roundtrip_exact;
} comp_result;

/* Expected samples, from the definition (first access at or after each sample point), kept
 * while the stream is generated; compared with what comes back out of the .mtr. */
typedef struct {
    uint64_t *cycle, *value;
    size_t n, cap, next;
    int ok;
} expect;

static void expect_add(expect *e, uint64_t c, uint64_t v)
{
    if (e->n == e->cap) {
        e->cap = e->cap * 2 + 1024;
        e->cycle = realloc(e->cycle, e->cap * sizeof *e->cycle);
        e->value = realloc(e->value, e->cap * sizeof *e->value);
    }
    e->cycle[e->n] = c;
    e->value[e->n++] = v;
}

static void expect_cb(void *ctx, const mt_dec_event *ev)
{
    expect *e = ctx;
    if (ev->type == MT_DEV_LOSS)
        e->ok = 0;
    if (ev->type != MT_DEV_SAMPLE)
        return;
    if (e->next >= e->n || e->cycle[e->next] != ev->cycle || e->value[e->next] != ev->value)
        e->ok = 0;
    e->next++;
}

static void measure(const char *dir, int pat, int span, uint64_t cycles, comp_result *res)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/bench_%d_%d.mtr", dir, pat, span);
    mt_unit_cfg cfg = {0};
    mt_writer_config wc = {.producer = "bench_lib", .unit_cfg = &cfg, .fifo_depth = 4096, .fifo_drain = 8};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_lib: %s\n", err);
        exit(1);
    }
    mt_unit u;
    mt_unit_params p = {.depth = 4096, .drain = 8, .sink = mt_writer_sink, .sink_ctx = w};
    mt_unit_init(&u, &p);
    if (span) { /* spans only, 32-bit, every 2048 cycles */
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_H_LO, 0);
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_L_LO, 0xFFFFFFFF);
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_L_HI, 0xFF);
    } else { /* bursts only, 48-bit, every 24 cycles */
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_H_LO, 0xFFFFFFFF);
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_H_HI, 0xFF);
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_L_LO, 0);
        mt_unit_mmio_write(&u, 1, MT_REG_LEN_L_HI, 0);
    }
    mt_unit_mmio_write(&u, 2, MT_REG_CTRL, 1);
    gen g = {.s = 1000 + (uint64_t)pat, .c = 10, .addr = 0x80000000ull, .pat = pat};
    mt_access a;
    expect ex = {.ok = 1};
    const uint64_t start = 3, r = span ? 2048 : 24; /* enabled by the write at cycle 2 */
    const unsigned fmt = span ? MT_FMT_32 : MT_FMT_48;
    uint64_t next_sp = start;
    for (next(&g, &a); a.cycle < cycles; next(&g, &a)) {
        if (a.cycle >= next_sp) {
            uint64_t sp = start + (a.cycle - start) / r * r;
            expect_add(&ex, sp, mt_fmt_value(fmt, mt_fmt_addr_part(fmt, a.addr), a.write));
            next_sp = sp + r;
        }
        if (a.cycle >= mt_unit_next_due(&u))
            mt_unit_access(&u, &a);
    }
    mt_unit_stop(&u, cycles);
    res->samples = u.samples;
    res->bytes = u.bytes;
    res->dropped = u.dropped;
    cfg = u.cfg;
    mt_unit_free(&u);
    if (mt_writer_close(w) != 0)
        exit(1);
    struct stat st;
    stat(path, &st);
    res->mtr_bytes = (uint64_t)st.st_size;
    /* round trip: model -> container -> decoder == the definition's samples */
    mt_file *f = mt_file_open(path, err, sizeof err);
    mt_dec d;
    mt_dec_init(&d, expect_cb, &ex);
    static uint8_t buf[1 << 16];
    ssize_t k;
    while (f && (k = mt_file_read(f, buf, sizeof buf)) > 0)
        mt_dec_feed(&d, buf, (size_t)k);
    mt_dec_finish(&d);
    res->roundtrip_exact = f && ex.ok && ex.next == ex.n && res->dropped == 0;
    mt_file_close(f);
    free(ex.cycle);
    free(ex.value);
    remove(path);
}

typedef struct {
    uint64_t samples, events;
} dec_count;

static void count_cb(void *ctx, const mt_dec_event *e)
{
    dec_count *c = ctx;
    c->events++;
    c->samples += e->type == MT_DEV_SAMPLE;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    int failed = 0;
    printf("== bench_lib: compression (trace-unit model, generated streams) ==\n");
    printf("%-12s %-6s %9s %10s %10s %9s %10s %9s  %s\n", "stream", "mode", "samples", "B/sample", "vs seed", "zstd B/s",
           "vs seed", "ratio", "round trip");
    for (int span = 0; span <= 1; span++) {
        for (int pat = 0; pat < NPAT; pat++) {
            comp_result r;
            uint64_t cycles = span ? 400000000ull : 40000000ull;
            measure(dir, pat, span, cycles, &r);
            double seed = span ? 4.0 : 6.0;
            double bps = (double)r.bytes / (double)r.samples, zps = (double)r.mtr_bytes / (double)r.samples;
            printf("%-12s %-6s %9" PRIu64 " %10.3f %9.1f%% %9.3f %9.1f%% %8.1fx  %s\n", pat_name[pat],
                   span ? "span" : "burst", r.samples, bps, 100.0 * bps / seed, zps, 100.0 * zps / seed, seed / zps,
                   r.roundtrip_exact ? "exact" : "MISMATCH");
            if (!r.roundtrip_exact)
                failed = 1;
        }
    }
    printf("(B/sample: packet stream incl. SYNC/SECTION/END; zstd: the whole .mtr file; vs seed: of the seed's\n"
           " fixed %s per sample; ratio: seed size / .mtr size;\n"
           " round trip: model -> .mtr -> decoder gives exactly the samples the definition asks for)\n",
           "6 B (burst, 48-bit) / 4 B (span, 32-bit)");
    if (failed)
        return 1;

    /* the model's cost per access, as the emulator pays it */
    {
        const uint64_t cycles = 60000000ull;
        double t_gen = 0, t_all = 0, t_due = 0;
        uint64_t accesses = 0, bytes_all = 0, bytes_due = 0;
        for (int mode = 0; mode < 3; mode++) {
            mt_unit u;
            mt_unit_params p = {.depth = 4096, .drain = 8};
            mt_unit_init(&u, &p);
            mt_unit_mmio_write(&u, 2, MT_REG_CTRL, 1);
            gen g = {.s = 5, .c = 10, .addr = 0x80000000ull, .pat = P_MIXED};
            mt_access a;
            volatile uint64_t sink = 0;
            uint64_t n = 0;
            double t0 = now_s();
            for (next(&g, &a); a.cycle < cycles; next(&g, &a)) {
                n++;
                if (mode == 0)
                    sink += a.addr;
                else if (mode == 1 || a.cycle >= mt_unit_next_due(&u))
                    mt_unit_access(&u, &a);
            }
            mt_unit_stop(&u, cycles);
            double t = now_s() - t0;
            (void)sink;
            accesses = n;
            if (mode == 0)
                t_gen = t;
            else if (mode == 1)
                t_all = t, bytes_all = u.bytes;
            else
                t_due = t, bytes_due = u.bytes;
            mt_unit_free(&u);
        }
        if (bytes_all != bytes_due) {
            fprintf(stderr, "bench_lib: lockstep and next_due streams differ in length\n");
            return 1;
        }
        printf("\n== bench_lib: model cost per access (%" PRIu64 " accesses, default registers: 1 s bursts at r = 24) ==\n",
               accesses);
        printf("generator alone          : %6.1f M accesses/s\n", accesses / t_gen / 1e6);
        printf("every access (lockstep)  : %6.1f M accesses/s  (%.1f ns/access over the generator)\n",
               accesses / t_all / 1e6, (t_all - t_gen) / accesses * 1e9);
        printf("next_due filter (normal) : %6.1f M accesses/s  (%.1f ns/access over the generator)\n",
               accesses / t_due / 1e6, (t_due - t_gen) / accesses * 1e9);
    }

    /* decoder throughput */
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/bench_decode.mtr", dir);
    mt_writer_config wc = {.producer = "bench_lib", .sync_period = 4096};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_lib: %s\n", err);
        return 1;
    }
    gen g = {.s = 77, .c = 10, .addr = 0x80000000ull, .pat = P_MIXED};
    mt_access a;
    next(&g, &a);
    mt_writer_section(w, 0, MT_FMT_FULL, 1, a.cycle);
    const uint64_t N = 12000000;
    for (uint64_t i = 0; i < N; i++) {
        mt_writer_sample(w, a.cycle, a.addr, a.write);
        next(&g, &a);
    }
    if (mt_writer_close(w) != 0)
        return 1;
    double best_dec = 1e9, best_z = 1e9, best_cli = 1e9;
    uint64_t stream = 0, samples = 0;
    static uint8_t buf[1 << 16];
    for (int rep = 0; rep < 3; rep++) {
        mt_file *f = mt_file_open(path, err, sizeof err);
        dec_count c = {0};
        mt_dec d;
        mt_dec_init(&d, count_cb, &c);
        double t0 = now_s();
        ssize_t k;
        stream = 0;
        while ((k = mt_file_read(f, buf, sizeof buf)) > 0) {
            mt_dec_feed(&d, buf, (size_t)k);
            stream += (uint64_t)k;
        }
        mt_dec_finish(&d);
        double t = now_s() - t0;
        samples = c.samples;
        if (t < best_dec)
            best_dec = t;
        mt_file_rewind(f);
        t0 = now_s();
        while ((k = mt_file_read(f, buf, sizeof buf)) > 0)
            ;
        t = now_s() - t0;
        if (t < best_z)
            best_z = t;
        mt_file_close(f);
        char cmd[700];
        snprintf(cmd, sizeof cmd, "zstd -q -d -c '%s' > /dev/null", path);
        t0 = now_s();
        if (system(cmd) != 0) {
            fprintf(stderr, "bench_lib: zstd -d failed on %s\n", path);
            return 1;
        }
        t = now_s() - t0;
        if (t < best_cli)
            best_cli = t;
    }
    if (samples != N) {
        fprintf(stderr, "bench_lib: decoded %" PRIu64 " samples, wrote %" PRIu64 "\n", samples, N);
        return 1;
    }
    struct stat st;
    stat(path, &st);
    printf("\n== bench_lib: decoder (every-access full-address trace, %" PRIu64 " samples, %.1f MB stream, %.1f MB .mtr) ==\n",
           N, stream / 1e6, st.st_size / 1e6);
    printf("mt_file+mt_dec : %6.3f s  %7.1f M samples/s  %7.1f MB/s of packet stream\n", best_dec, samples / best_dec / 1e6,
           stream / best_dec / 1e6);
    printf("zstd -d (CLI)  : %6.3f s  %7.1f MB/s   -> decoder takes %.2fx the time of zstd -d\n", best_cli,
           stream / best_cli / 1e6, best_dec / best_cli);
    printf("zstd in-process: %6.3f s  %7.1f MB/s   -> packet decoding adds %.2fx on top of decompression\n", best_z,
           stream / best_z / 1e6, best_dec / best_z);
    printf("(best of 3; B/sample of this trace: %.3f stream, %.3f .mtr)\n", (double)stream / N, (double)st.st_size / N);
    remove(path);
    return 0;
}
